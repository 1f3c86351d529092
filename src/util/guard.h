/* guard.h - failure recovery without ending the process, which the library
 * never does on its own: an allocation that fails and an internal error (a
 * broken class table) unwind with longjmp to the innermost recovery point
 * of the calling thread. Every public function sets one up (FL_GUARDED),
 * reports the failure through its fl_diag ("out of memory", "internal error:
 * ...") and returns its failure value.
 *
 * What must not be left half-done when a failure unwinds through it
 * registers a cleanup (fl_cleanup_push), which runs before the longjmp,
 * while the registering frame is still alive: a temporary file is closed
 * and removed, the object under construction freed. Code holding a lock
 * runs the locked part through fl_guard_try and passes the failure on
 * (fl_guard_rethrow) after unlocking. What no cleanup frees (the work arrays
 * of the phase that failed) is lost: see docs/architecture.md. */
#ifndef FL_GUARD_H
#define FL_GUARD_H

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>

struct fl_diag;

enum { FL_FAIL_OOM = 1, FL_FAIL_INTERNAL = 2 };

typedef struct fl_cleanup {
    void (*fn)(void *arg);
    void *arg;
    struct fl_cleanup *prev;
} fl_cleanup;

typedef struct fl_guard {
    jmp_buf jb;
    struct fl_guard *prev;
    fl_cleanup *cleanups; /* registered while this is the innermost guard */
    int failure;          /* FL_FAIL_* once unwound to */
    size_t bytes;         /* the request that failed (FL_FAIL_OOM) */
    char msg[240];        /* the internal error (FL_FAIL_INTERNAL) */
} fl_guard;

/* Make g the innermost recovery point of this thread; the caller then
 * writes `if (setjmp(g->jb)) { ... }`, whose block runs after a failure
 * (g is then already removed). fl_guard_pop removes g on the normal path. */
void fl_guard_push(fl_guard *g);
void fl_guard_pop(fl_guard *g);

/* Run fn(arg) under a recovery point of its own: 0, or non-zero after a
 * failure, which g then describes. */
int fl_guard_try(fl_guard *g, void (*fn)(void *arg), void *arg);

/* Cleanups of the innermost recovery point, last in first out: c lives in
 * the caller's frame; fl_cleanup_pop removes it without running it. */
void fl_cleanup_push(fl_cleanup *c, void (*fn)(void *arg), void *arg);
void fl_cleanup_pop(fl_cleanup *c);
/* A cleanup that closes the FILE * it is given. */
void fl_fclose_cleanup(void *f);

/* Unwind to the innermost recovery point. fl_fail_oom first calls the
 * host's handler (fl_set_oom_handler). */
_Noreturn void fl_fail_oom(size_t bytes);
_Noreturn void fl_fail_internal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Pass a failure caught by fl_guard_try on to the next recovery point. */
_Noreturn void fl_guard_rethrow(const fl_guard *g);

/* The message of a caught failure, added to d (allocation failures while
 * adding it lose the message, not the failure value). */
void fl_guard_report(const fl_guard *g, struct fl_diag *d);
/* The same as a line "error: ..." on a text stream (for functions that
 * write text and have no fl_diag). */
void fl_guard_print(const fl_guard *g, FILE *out);

/* Test-only allocation failure injection (unit tests, through the static
 * library; not exported from libflange.so). fl_test_alloc_fail(n, every):
 * the n-th allocation of this thread from now fails (n >= 1), and with
 * every != 0 all after it too; n = 0 disarms. fl_test_alloc_count: the
 * allocations of this thread so far. fl_test_alloc_check is what the
 * allocators ask: 1 when this allocation is to fail. */
void fl_test_alloc_fail(long n, int every);
long fl_test_alloc_count(void);
int fl_test_alloc_check(void);

/* Define the public function NAME (declared in flange.h) as the block that
 * follows the macro, run under a recovery point: after a failure the
 * message goes to DIAG (an expression over the parameters, or NULL) and the
 * function returns FAIL. ARGS passes the parameters on, e.g.
 *   FL_GUARDED(fl_system *, fl_compile, (const fl_model *m, fl_diag *d), (m, d), NULL, d)
 *   { ...the body as an ordinary function... }
 * The body is the static function NAME_body: code of the same file that
 * wants a failure passed on to its own caller, not turned into a failure
 * value, calls that. */
#define FL_GUARDED(T, NAME, PARAMS, ARGS, FAIL, DIAG)                                                         \
    static T NAME##_body PARAMS;                                                                          \
    T NAME PARAMS                                                                                            \
    {                                                                                                        \
        fl_guard g_;                                                                                         \
        fl_guard_push(&g_);                                                                                  \
        if (setjmp(g_.jb)) {                                                                                 \
            fl_guard_report(&g_, (DIAG));                                                                    \
            return FAIL;                                                                                     \
        }                                                                                                    \
        T r_ = NAME##_body ARGS;                                                                          \
        fl_guard_pop(&g_);                                                                                   \
        return r_;                                                                                           \
    }                                                                                                        \
    static T NAME##_body PARAMS
/* The same for a function without a result: after a failure it runs the
 * statement ON_FAIL, which sees the caught failure as g_, and returns. */
#define FL_GUARDED_VOID(NAME, PARAMS, ARGS, ON_FAIL)                                                          \
    static void NAME##_body PARAMS;                                                                       \
    void NAME PARAMS                                                                                         \
    {                                                                                                        \
        fl_guard g_;                                                                                         \
        fl_guard_push(&g_);                                                                                  \
        if (setjmp(g_.jb)) {                                                                                 \
            ON_FAIL;                                                                                         \
            return;                                                                                          \
        }                                                                                                    \
        NAME##_body ARGS;                                                                                 \
        fl_guard_pop(&g_);                                                                                   \
    }                                                                                                        \
    static void NAME##_body PARAMS

#endif
