/* guard.c - recovery points (see guard.h): a per-thread stack of jmp_bufs
 * that allocation failures and internal errors unwind to, the host's
 * out-of-memory handler, and the test-only allocation failure injection.
 *
 * libflange-plot.so carries its own copy of this file (built with
 * FL_OOM_HANDLER_EXTERNAL) with its own recovery points; the handler it
 * calls is the one stored in libflange, read through fl_oom_handler. */
#include "guard.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"

static _Thread_local fl_guard *top;

/* ---- the host's handler -------------------------------------------------- */

#ifndef FL_OOM_HANDLER_EXTERNAL
static fl_oom_fn oom_fn;
static void *oom_user;

void fl_set_oom_handler(fl_oom_fn fn, void *user)
{
    oom_fn = fn;
    oom_user = user;
}

fl_oom_fn fl_oom_handler(void **user)
{
    if (user) *user = oom_user;
    return oom_fn;
}
#endif

/* ---- recovery points ------------------------------------------------------ */

void fl_guard_push(fl_guard *g)
{
    g->prev = top;
    g->cleanups = NULL;
    g->failure = 0;
    g->bytes = 0;
    g->msg[0] = '\0';
    top = g;
}

void fl_guard_pop(fl_guard *g)
{
    top = g->prev;
}

void fl_cleanup_push(fl_cleanup *c, void (*fn)(void *arg), void *arg)
{
    c->fn = fn;
    c->arg = arg;
    c->prev = top ? top->cleanups : NULL;
    if (top) top->cleanups = c;
}

void fl_cleanup_pop(fl_cleanup *c)
{
    if (top && top->cleanups == c) top->cleanups = c->prev;
}

void fl_fclose_cleanup(void *f)
{
    fclose(f);
}

/* Run the cleanups of the innermost recovery point, remove it and jump to
 * it. Without one (only internal callers that bypass the public functions,
 * such as unit tests, can get here) there is nowhere to report to: that is
 * a programming error, and a trap is the honest outcome. */
static _Noreturn void unwind(int failure, size_t bytes, const char *msg)
{
    fl_guard *g = top;
    if (!g) {
        fprintf(stderr, "flange: %s outside any recovery point (a library bug)\n",
                failure == FL_FAIL_OOM ? "out of memory" : msg);
        __builtin_trap();
    }
    for (fl_cleanup *c = g->cleanups; c; c = c->prev) c->fn(c->arg);
    g->cleanups = NULL;
    g->failure = failure;
    g->bytes = bytes;
    if (msg != g->msg) snprintf(g->msg, sizeof g->msg, "%s", msg);
    top = g->prev;
    longjmp(g->jb, 1);
}

void fl_fail_oom(size_t bytes)
{
    void *user = NULL;
    fl_oom_fn fn = fl_oom_handler(&user);
    if (fn) fn(user, bytes);
    unwind(FL_FAIL_OOM, bytes, "");
}

void fl_fail_internal(const char *fmt, ...)
{
    char msg[sizeof top->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    unwind(FL_FAIL_INTERNAL, 0, msg);
}

void fl_guard_rethrow(const fl_guard *g)
{
    unwind(g->failure, g->bytes, g->msg);
}

int fl_guard_try(fl_guard *g, void (*fn)(void *arg), void *arg)
{
    fl_guard_push(g);
    if (setjmp(g->jb)) return 1;
    fn(arg);
    fl_guard_pop(g);
    return 0;
}

typedef struct report {
    const fl_guard *g;
    fl_diag *d;
} report;

static void add_report(void *arg)
{
    report *r = arg;
    if (r->g->failure == FL_FAIL_OOM) fl_err(r->d, fl_noloc, "out of memory");
    else fl_err(r->d, fl_noloc, "internal error: %s", r->g->msg);
}

void fl_guard_report(const fl_guard *g, fl_diag *d)
{
    if (!d) return;
    report r = {g, d};
    fl_guard inner;
    fl_guard_try(&inner, add_report, &r);
}

void fl_guard_print(const fl_guard *g, FILE *out)
{
    if (g->failure == FL_FAIL_OOM) fputs("error: out of memory\n", out);
    else fprintf(out, "error: internal error: %s\n", g->msg);
}

/* ---- test-only failure injection ---------------------------------------- */

static _Thread_local long alloc_count, fail_at;
static _Thread_local int fail_every;

void fl_test_alloc_fail(long n, int every)
{
    fail_at = n > 0 ? alloc_count + n : 0;
    fail_every = every;
}

long fl_test_alloc_count(void)
{
    return alloc_count;
}

int fl_test_alloc_check(void)
{
    long k = ++alloc_count;
    return fail_at && (k == fail_at || (fail_every && k > fail_at));
}
