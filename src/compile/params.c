/* params.c - evaluates every instance's parameters (explicit values, class
 * defaults written as Modelica expressions, start values as a last resort),
 * checks their declared ranges and stores them in the flat parameter array
 * (arrays go to the array table; their slot holds the table index). The
 * defaults are evaluated model-side (model/classtext.h): this file passes
 * parameter values in and gets values out. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "model/classtext.h"

/* A class default that reads no other parameter is the same for every
 * instance of the class: evaluated once (a model of many alike parts
 * evaluates thousands of defaults otherwise). The defaults of the last
 * few classes are kept. */
#define DEF_MEMO 4
typedef struct def_memo {
    const fl_class *cls;
    fl_value *val;        /* per parameter: the default, when known (V_NONE: not known) */
} def_memo;

typedef struct pctx {
    const fl_minst *in;
    fl_value *vals; /* per parameter, filled lazily */
    int *state;     /* 0 pending, 1 evaluating, 2 done, 3 failed */
    fl_diag *d;
    fl_diag *tmp;   /* a default's own messages (scratch, cleared after each) */
    int reads;      /* the default being evaluated read another parameter */
    def_memo memo[DEF_MEMO];
    int memo_next;
} pctx;

static void memo_clear(def_memo *m)
{
    if (m->val)
        for (int k = 0; k < m->cls->nparams; k++) fl_value_free(&m->val[k]);
    free(m->val);
    m->val = NULL;
    m->cls = NULL;
}

/* The class's defaults known so far (made on first use). */
static fl_value *memo_of(pctx *c, const fl_class *cls)
{
    for (int i = 0; i < DEF_MEMO; i++)
        if (c->memo[i].cls == cls) return c->memo[i].val;
    def_memo *m = &c->memo[c->memo_next];
    c->memo_next = (c->memo_next + 1) % DEF_MEMO;
    memo_clear(m); /* (out of memory below: nothing is freed twice) */
    m->val = fl_xcalloc((size_t)(cls->nparams ? cls->nparams : 1), sizeof(fl_value));
    m->cls = cls;
    return m->val;
}

static int eval_param(pctx *c, int k);

/* A parameter that a default names (fl_class_par_fn). */
static int param_value(void *ctx, int k, fl_value *out)
{
    pctx *c = ctx;
    c->reads = 1;
    if (eval_param(c, k)) return -1;
    *out = fl_value_copy(&c->vals[k]);
    return 0;
}

static int eval_param(pctx *c, int k)
{
    if (c->state[k] == 2) return 0;
    if (c->state[k] == 3) return -1;
    const fl_minst *in = c->in;
    const fl_param_def *pd = &in->cls->params[k];
    if (c->state[k] == 1) {
        fl_err(c->d, in->loc, "parameter %s.%s depends on itself", in->name, pd->name);
        c->state[k] = 3;
        return -1;
    }
    fl_value buf;
    const fl_value *given = fl_minst_par(in, k, &buf, NULL);
    if (given && given->kind != V_NONE) {
        c->vals[k] = fl_value_copy(given);
        c->state[k] = 2;
        return 0;
    }
    fl_value *memo = memo_of(c, in->cls);
    if (memo[k].kind != V_NONE) { /* (a default that read nothing, evaluated for an instance before) */
        c->vals[k] = fl_value_copy(&memo[k]);
        c->state[k] = 2;
        return 0;
    }
    c->state[k] = 1;
    fl_diag *tmp = c->tmp;
    int from_start = 0, reads = c->reads;
    c->reads = 0;
    int rc = fl_class_param_text(in->cls, k, 0, param_value, c, &c->vals[k], tmp);
    if (rc == 0) {
        rc = fl_class_param_text(in->cls, k, 1, param_value, c, &c->vals[k], tmp);
        from_start = 1;
    }
    /* kept for the next instance: a default that read no other parameter
     * and said nothing (not a start value, which warns per instance) */
    int keep = rc > 0 && !from_start && !c->reads && !fl_diag_count(tmp);
    c->reads |= reads;
    if (rc == 0) {
        fl_diag_clear(tmp);
        fl_err(c->d, in->loc, "parameter %s.%s has no value: set it, e.g. %s(%s = ...)", in->name, pd->name,
               in->name, pd->name);
        c->state[k] = 3;
        return -1;
    }
    rc = rc < 0 ? -1 : 0;
    if (rc) {
        fl_err(c->d, in->loc, "cannot evaluate the default of %s.%s: %s", in->name, pd->name,
               fl_diag_count(tmp) ? fl_diag_text(tmp, 0) : "");
    } else if (from_start) {
        fl_warn(c->d, in->loc, "parameter %s.%s has no value; using its start value", in->name, pd->name);
    }
    fl_diag_clear(tmp);
    /* the class tables write Real defaults as plain numbers */
    if (!rc && pd->type == FL_P_REAL && c->vals[k].kind == V_INT) c->vals[k].kind = V_REAL;
    if (!rc && pd->type == FL_P_MATRIX && c->vals[k].kind == V_ARRAY && c->vals[k].ndims == 1) {
        c->vals[k].ndims = 2;
        c->vals[k].dim[1] = c->vals[k].dim[0];
        c->vals[k].dim[0] = 1;
    }
    c->state[k] = rc ? 3 : 2;
    /* (memo is still the class's: what this default read is the same instance's) */
    if (keep && c->vals[k].kind != V_NONE) memo[k] = fl_value_copy(&c->vals[k]);
    return rc;
}

int fl_param_check_number(const char *inst, const fl_param_def *pd, double x, fl_loc loc, fl_diag *d)
{
    if (!isfinite(x)) {
        fl_err(d, loc, "%s.%s is not a finite number", inst, pd->name);
        return -1;
    }
    int bad = ((pd->flags & FL_PF_MIN) && x < pd->min) || ((pd->flags & FL_PF_MIN_EXCL) && x <= pd->min) ||
              ((pd->flags & FL_PF_MAX) && x > pd->max) || ((pd->flags & FL_PF_INTEGER) && x != floor(x));
    if (!bad) return 0; /* the common case, without formatting numbers */
    char val[40], lim[40];
    fl_fmt_double(val, sizeof val, x);
    if ((pd->flags & FL_PF_MIN) && x < pd->min) {
        fl_fmt_double(lim, sizeof lim, pd->min);
        fl_err(d, loc, "%s.%s = %s is invalid: it must be >= %s", inst, pd->name, val, lim);
    } else if ((pd->flags & FL_PF_MIN_EXCL) && x <= pd->min) {
        fl_fmt_double(lim, sizeof lim, pd->min);
        fl_err(d, loc, "%s.%s = %s is invalid: it must be > %s", inst, pd->name, val, lim);
    } else if ((pd->flags & FL_PF_MAX) && x > pd->max) {
        fl_fmt_double(lim, sizeof lim, pd->max);
        fl_err(d, loc, "%s.%s = %s is invalid: it must be <= %s", inst, pd->name, val, lim);
    } else {
        fl_err(d, loc, "%s.%s = %s is invalid: it must be an integer", inst, pd->name, val);
    }
    return -1;
}

/* The class's load() (a table read from a file), with where each
 * parameter is set. */
static int load_values(const fl_minst *in, const char *base, fl_value *vals, fl_diag *d)
{
    int np = in->cls->nparams;
    fl_loc *locs = fl_xcalloc((size_t)(np ? np : 1), sizeof(fl_loc));
    for (int k = 0; k < np; k++) {
        locs[k] = in->loc;
        fl_loc at = fl_noloc;
        fl_value buf;
        if (fl_minst_par(in, k, &buf, &at) && at.file) locs[k] = at;
    }
    int rc = in->cls->load(in->name, locs, base, vals, d);
    free(locs);
    return rc;
}

int fl_compile_params(fl_system *s, const fl_model *m, fl_diag *d)
{
    int rc = 0;
    int npar = 0;
    for (int i = 0; i < s->ninst; i++) {
        s->insts[i].pofs = s->insts[i].prow = npar; /* (a row each until fl_params_share) */
        npar += m->insts.v[i].cls->nparams + m->insts.v[i].cls->nderived;
    }
    s->npar = s->npar_rows = npar;
    s->par = fl_xcalloc((size_t)(npar ? npar : 1), sizeof(double));
    s->par_fixed = fl_xcalloc((size_t)npar / 8 + 1, 1);
    FL_VEC(fl_value) arrays = {0};
    /* the evaluation's scratch, once for all instances (a big model has
     * hundreds of thousands) */
    int npmax = 1;
    for (int i = 0; i < s->ninst; i++) npmax = FL_MAX(npmax, m->insts.v[i].cls->nparams);
    pctx c = {.vals = fl_xcalloc((size_t)npmax, sizeof(fl_value)), .state = fl_xcalloc((size_t)npmax, sizeof(int)),
              .d = d, .tmp = fl_diag_new()};
    for (int i = 0; i < s->ninst; i++) {
        const fl_minst *in = &m->insts.v[i];
        const fl_class *cls = in->cls;
        int np = cls->nparams;
        c.in = in;
        memset(c.vals, 0, sizeof(fl_value) * (size_t)npmax);
        memset(c.state, 0, sizeof(int) * (size_t)npmax);
        int irc = 0;
        for (int k = 0; k < np; k++)
            if (eval_param(&c, k)) irc = -1;
        if (!irc && cls->load && load_values(in, m->path, c.vals, d)) irc = -1;
        double *par = s->par + s->insts[i].pofs;
        for (int k = 0; k < np && !irc; k++) {
            fl_value *v = &c.vals[k];
            const fl_param_def *pd = &cls->params[k];
            fl_loc loc = in->loc;
            fl_value buf;
            fl_minst_par(in, k, &buf, &loc);
            if (!loc.file) loc = in->loc;
            if (fl_value_is_number(v) && v->kind != V_BOOL && fl_param_check_number(in->name, pd, v->num, loc, d)) {
                irc = -1;
                continue;
            }
            switch (pd->type) {
            case FL_P_REAL:
            case FL_P_INT:
                if (!fl_value_is_number(v) || v->kind == V_BOOL) {
                    fl_err(d, loc, "%s.%s must be a number", in->name, pd->name);
                    irc = -1;
                }
                par[k] = v->num;
                break;
            case FL_P_BOOL:
                if (v->kind != V_BOOL) {
                    fl_err(d, loc, "%s.%s must be true or false", in->name, pd->name);
                    irc = -1;
                }
                par[k] = v->num;
                break;
            case FL_P_ENUM:
                if (v->kind != V_ENUM || strcmp(v->enum_type, pd->enum_type) != 0) {
                    fl_err(d, loc, "%s.%s must be a literal of %s", in->name, pd->name, pd->enum_type);
                    irc = -1;
                }
                par[k] = v->num;
                break;
            case FL_P_STRING:
                par[k] = 0;
                break;
            case FL_P_VECTOR:
            case FL_P_MATRIX:
                if (v->kind != V_ARRAY) {
                    fl_err(d, loc, "%s.%s must be an array", in->name, pd->name);
                    irc = -1;
                    break;
                }
                par[k] = (double)arrays.n;
                FL_VEC_PUSH(arrays, fl_value_copy(v));
                break;
            }
        }
        for (int k = 0; k < np; k++) fl_value_free(&c.vals[k]);
        if (irc) rc = -1;
    }
    free(c.vals);
    free(c.state);
    for (int i = 0; i < DEF_MEMO; i++) memo_clear(&c.memo[i]);
    fl_diag_free(c.tmp);
    s->arrays = arrays.v;
    s->narrays = (int)arrays.n;
    /* class checks and derived parameters, now that arrays are in place */
    if (rc) return rc;
    for (int i = 0; i < s->ninst; i++) { /* report every instance's problems, not just the first */
        const fl_inst_rt *ir = &s->insts[i];
        fl_pctx pc = {fl_ir_name(s, ir), fl_ir_loc(s, ir), s->par + ir->pofs, s->arrays, ir->cls};
        if (ir->cls->check && ir->cls->check(&pc, d)) rc = -1;
        else if (ir->cls->prepare) ir->cls->prepare(&pc, s->par + ir->pofs);
    }
    return rc;
}

/* Rows of the same class with the same values (bit for bit) kept once:
 * the chain of a big model has a few distinct rows for hundreds of
 * thousands of instances. An open-addressing table of row offsets, keyed
 * by a hash of the class and the values. */
static uint64_t row_hash(const fl_system *s, int i)
{
    const fl_inst_rt *ir = &s->insts[i];
    size_t len = sizeof(double) * (size_t)(ir->cls->nparams + ir->cls->nderived);
    uint64_t h = fl_fnv1a(FL_FNV1A_INIT, &ir->cls, sizeof ir->cls);
    return fl_fnv1a(h, s->par + ir->pofs, len);
}

void fl_params_share(fl_system *s)
{
    if (s->ninst < 2) return;
    size_t cap = 16;
    while (cap < 2 * (size_t)s->ninst) cap *= 2;
    int *slot = fl_xmalloc(sizeof(int) * cap); /* instance whose row is kept, -1: empty */
    for (size_t k = 0; k < cap; k++) slot[k] = -1;
    size_t rcap = 64; /* (grown as distinct rows come: a chain has a few) */
    double *rows = fl_xmalloc(sizeof(double) * rcap);
    int n = 0;
    for (int i = 0; i < s->ninst; i++) {
        fl_inst_rt *ir = &s->insts[i];
        int len = ir->cls->nparams + ir->cls->nderived;
        size_t k = (size_t)row_hash(s, i) & (cap - 1);
        for (;; k = (k + 1) & (cap - 1)) {
            if (slot[k] < 0) { /* a new row */
                slot[k] = i;
                while ((size_t)n + (size_t)len > rcap) rows = fl_xrealloc(rows, sizeof(double) * (rcap *= 2));
                memcpy(rows + n, s->par + ir->pofs, sizeof(double) * (size_t)len);
                ir->prow = n;
                n += len;
                break;
            }
            const fl_inst_rt *o = &s->insts[slot[k]];
            if (o->cls == ir->cls && memcmp(s->par + o->pofs, s->par + ir->pofs, sizeof(double) * (size_t)len) == 0) {
                ir->prow = o->prow;
                break;
            }
        }
    }
    free(slot);
    free(s->par);
    s->par = fl_shrink(rows, sizeof(double) * (size_t)(n ? n : 1));
    s->npar_rows = n;
    for (int e = 0; e < s->nelem; e++) s->elems[e].pofs = s->insts[s->elems[e].inst].prow;
}
