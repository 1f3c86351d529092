/* classtext.c - parses the Modelica text of the class tables once (on the
 * first compile) and evaluates it for the compiler, which passes parameter
 * values in and gets values out (classtext.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "classtext.h"
#include "eval.h"

typedef struct class_exprs {
    fl_expr **def;   /* per parameter */
    fl_expr **start; /* per parameter */
    fl_expr **cond;  /* per port */
} class_exprs;

static const fl_class **classes; /* the registry's, in its order */
static class_exprs *exprs;
static int nclasses;
/* class -> 1 + its index, open addressing on the pointer: compiling asks
 * once per default evaluated, of every instance (it scanned the classes) */
static int *slots;
static size_t nslots;

static size_t slot_of(const fl_class *c)
{
    return ((uintptr_t)c >> 4) * 0x9E3779B97F4A7C15ull >> 40 & (nslots - 1);
}
static pthread_mutex_t text_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int text_ready;

static void diag_cleanup(void *arg)
{
    fl_diag *d = arg;
    for (int i = 0; i < d->n; i++) free(d->items[i].text);
    free(d->items);
}

static fl_expr *parse_or_die(const char *text, const fl_class *c, const char *what)
{
    fl_diag d = {0}; /* on the stack: freed below also when the parse runs out of memory */
    fl_cleanup cl;
    fl_cleanup_push(&cl, diag_cleanup, &d);
    fl_expr *e = fl_parse_expr(text, c->path, &d);
    /* a broken class table is a programming error, not a user error */
    if (!e) fl_fail_internal("%s '%s' of %s does not parse: %s", what, text, c->path, d.n ? d.items[0].text : "");
    fl_cleanup_pop(&cl);
    diag_cleanup(&d);
    return e;
}

static void parse_texts(void *unused)
{
    int n = fl_class_count();
    classes = fl_xmalloc(sizeof *classes * (size_t)(n ? n : 1));
    exprs = fl_xcalloc((size_t)(n ? n : 1), sizeof *exprs);
    for (int i = 0; i < n; i++) classes[i] = fl_class_at(i);
    nclasses = n;
    for (nslots = 16; nslots < 2 * (size_t)n; nslots *= 2) {
    }
    slots = fl_xcalloc(nslots, sizeof *slots);
    for (int i = 0; i < n; i++) {
        size_t h = slot_of(classes[i]);
        while (slots[h]) h = (h + 1) & (nslots - 1);
        slots[h] = i + 1;
    }
    for (int i = 0; i < n; i++) {
        const fl_class *c = classes[i];
        class_exprs *x = &exprs[i];
        x->def = fl_xcalloc((size_t)(c->nparams ? c->nparams : 1), sizeof(fl_expr *));
        x->start = fl_xcalloc((size_t)(c->nparams ? c->nparams : 1), sizeof(fl_expr *));
        x->cond = fl_xcalloc((size_t)(c->nports ? c->nports : 1), sizeof(fl_expr *));
        for (int k = 0; k < c->nparams; k++) {
            if (c->params[k].def) x->def[k] = parse_or_die(c->params[k].def, c, "default");
            if (c->params[k].start) x->start[k] = parse_or_die(c->params[k].start, c, "start value");
        }
        for (int k = 0; k < c->nports; k++)
            if (c->ports[k].cond) x->cond[k] = parse_or_die(c->ports[k].cond, c, "port condition");
    }
}

/* What a failed parse had built (it runs again on the next call). */
static void free_texts(void)
{
    for (int i = 0; exprs && i < nclasses; i++) {
        const fl_class *c = classes[i];
        for (int k = 0; k < c->nparams; k++) {
            fl_expr_free(exprs[i].def ? exprs[i].def[k] : NULL);
            fl_expr_free(exprs[i].start ? exprs[i].start[k] : NULL);
        }
        for (int k = 0; k < c->nports; k++) fl_expr_free(exprs[i].cond ? exprs[i].cond[k] : NULL);
        free(exprs[i].def);
        free(exprs[i].start);
        free(exprs[i].cond);
    }
    free(exprs);
    free(classes);
    free(slots);
    exprs = NULL;
    classes = NULL;
    slots = NULL;
    nslots = 0;
    nclasses = 0;
}

void fl_class_texts_shutdown(void)
{
    pthread_mutex_lock(&text_lock);
    if (atomic_load_explicit(&text_ready, memory_order_relaxed)) free_texts();
    atomic_store_explicit(&text_ready, 0, memory_order_release);
    pthread_mutex_unlock(&text_lock);
}

/* Parsed once, under a lock, as the registry is built (registry.c): a
 * failure leaves neither the lock held nor half-parsed tables. */
static void ensure(void)
{
    if (atomic_load_explicit(&text_ready, memory_order_acquire)) return;
    pthread_mutex_lock(&text_lock);
    fl_guard g;
    int failed = !atomic_load_explicit(&text_ready, memory_order_relaxed) && fl_guard_try(&g, parse_texts, NULL);
    if (failed) free_texts();
    else atomic_store_explicit(&text_ready, 1, memory_order_release);
    pthread_mutex_unlock(&text_lock);
    if (failed) fl_guard_rethrow(&g);
}

static const class_exprs *exprs_of(const fl_class *c)
{
    ensure();
    for (size_t h = slot_of(c); slots[h]; h = (h + 1) & (nslots - 1))
        if (classes[slots[h] - 1] == c) return &exprs[slots[h] - 1];
    return NULL; /* a class made from user equations */
}

typedef struct text_env {
    const fl_class *cls;
    fl_class_par_fn par;
    void *ctx;
} text_env;

/* Names in the class tables' text are the class's own parameters. */
static int lookup(void *ctx, const fl_ref *ref, fl_loc loc, fl_value *out, fl_diag *d)
{
    const text_env *t = ctx;
    FL_UNUSED(loc);
    FL_UNUSED(d);
    if (ref->n != 1) return 0;
    int k = fl_class_param(t->cls, ref->parts[0].name);
    if (k < 0) return 0;
    if (t->par(t->ctx, k, out)) return -1;
    return 1;
}

static int eval_text(const fl_class *c, const fl_expr *e, fl_class_par_fn par, void *ctx, fl_value *out,
                     fl_diag *d)
{
    *out = (fl_value){0};
    if (!e) return 0;
    text_env t = {c, par, ctx};
    fl_eval_env env = {lookup, &t, NULL};
    if (fl_eval(e, &env, out, d)) {
        fl_value_free(out);
        *out = (fl_value){0};
        return -1;
    }
    return 1;
}

int fl_class_param_text(const fl_class *c, int k, int start, fl_class_par_fn par, void *ctx, fl_value *out,
                        fl_diag *d)
{
    const class_exprs *x = exprs_of(c);
    return eval_text(c, !x ? NULL : start ? x->start[k] : x->def[k], par, ctx, out, d);
}

int fl_class_port_cond(const fl_class *c, int k, fl_class_par_fn par, void *ctx, fl_value *out, fl_diag *d)
{
    const class_exprs *x = exprs_of(c);
    return eval_text(c, x ? x->cond[k] : NULL, par, ctx, out, d);
}
