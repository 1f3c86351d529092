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

/* Rows of the same class with the same values (bit for bit) are kept once
 * as they are evaluated: the chain of a big model has a few distinct rows
 * for hundreds of thousands of instances, and its compiling then never
 * writes a row per instance. An open-addressing table of the instances
 * whose rows are kept, keyed by a hash of the class and the values. */
typedef struct row_table {
    int *slot; /* instance whose row is kept, -1: empty */
    size_t cap;
    size_t n;
} row_table;

static uint64_t row_hash(const fl_class *cls, const double *row, int len)
{
    uint64_t h = fl_fnv1a(FL_FNV1A_INIT, &cls, sizeof cls);
    return fl_fnv1a(h, row, sizeof(double) * (size_t)len);
}

static int row_len(const fl_class *cls)
{
    return cls->nparams + cls->nderived;
}

static void row_table_grow(row_table *t, const fl_system *s)
{
    size_t cap = t->cap ? 2 * t->cap : 64;
    int *slot = fl_xmalloc(sizeof(int) * cap);
    for (size_t k = 0; k < cap; k++) slot[k] = -1;
    for (size_t j = 0; j < t->cap; j++) {
        if (t->slot[j] < 0) continue;
        const fl_inst_rt *o = &s->insts[t->slot[j]];
        size_t k = (size_t)row_hash(o->cls, s->par + o->prow, row_len(o->cls)) & (cap - 1);
        while (slot[k] >= 0) k = (k + 1) & (cap - 1);
        slot[k] = t->slot[j];
    }
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
}

/* Instance i's row (row): the kept row of its class with these values,
 * or a new one at the end of s->par (room for a row per instance is
 * reserved; the part not used is never touched). */
static void row_keep(row_table *t, fl_system *s, int i, const double *row)
{
    fl_inst_rt *ir = &s->insts[i];
    int len = row_len(ir->cls);
    if (2 * (t->n + 1) > t->cap) row_table_grow(t, s);
    size_t k = (size_t)row_hash(ir->cls, row, len) & (t->cap - 1);
    for (;; k = (k + 1) & (t->cap - 1)) {
        if (t->slot[k] < 0) break;
        const fl_inst_rt *o = &s->insts[t->slot[k]];
        if (o->cls == ir->cls && memcmp(s->par + o->prow, row, sizeof(double) * (size_t)len) == 0) {
            ir->prow = o->prow;
            return;
        }
    }
    t->slot[k] = i;
    t->n++;
    ir->prow = s->npar_rows;
    memcpy(s->par + ir->prow, row, sizeof(double) * (size_t)len);
    s->npar_rows += len;
}

int fl_compile_params(fl_system *s, const fl_model *m, fl_diag *d)
{
    int rc = 0;
    int npar = 0, rowmax = 1;
    for (int i = 0; i < s->ninst; i++) {
        s->insts[i].pofs = npar;
        s->insts[i].prow = 0;
        npar += row_len(m->insts.v[i].cls);
        rowmax = FL_MAX(rowmax, row_len(m->insts.v[i].cls));
    }
    s->npar = npar;
    s->npar_rows = 0;
    s->par = fl_xmalloc(sizeof(double) * (size_t)(npar ? npar : 1));
    s->par_fixed = fl_xcalloc((size_t)npar / 8 + 1, 1);
    row_table rows = {0};
    double *row = fl_xmalloc(sizeof(double) * (size_t)rowmax);
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
        double *par = row;
        memset(row, 0, sizeof(double) * (size_t)rowmax);
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
        else row_keep(&rows, s, i, row);
    }
    free(row);
    free(rows.slot);
    free(c.vals);
    free(c.state);
    for (int i = 0; i < DEF_MEMO; i++) memo_clear(&c.memo[i]);
    fl_diag_free(c.tmp);
    s->arrays = arrays.v;
    s->narrays = (int)arrays.n;
    /* class checks, now that arrays are in place, on every instance (its
     * problems reported by its name), then the derived parameters, once a
     * kept row */
    if (rc) return rc;
    for (int i = 0; i < s->ninst; i++) {
        const fl_inst_rt *ir = &s->insts[i];
        fl_pctx pc = {fl_ir_name(s, ir), fl_ir_loc(s, ir), s->par + ir->prow, s->arrays, ir->cls};
        if (ir->cls->check && ir->cls->check(&pc, d)) rc = -1;
    }
    if (rc) return rc;
    unsigned char *prepared = fl_xcalloc((size_t)s->npar_rows + 1, 1);
    for (int i = 0; i < s->ninst; i++) {
        const fl_inst_rt *ir = &s->insts[i];
        if (!ir->cls->prepare || prepared[ir->prow]) continue;
        prepared[ir->prow] = 1;
        fl_pctx pc = {fl_ir_name(s, ir), fl_ir_loc(s, ir), s->par + ir->prow, s->arrays, ir->cls};
        ir->cls->prepare(&pc, s->par + ir->prow);
    }
    free(prepared);
    return 0;
}

/* Once the stages that read rows by instance are done: the rows' storage
 * cut to the rows kept, and the elements read their rows. */
void fl_params_share(fl_system *s)
{
    s->par = fl_shrink(s->par, sizeof(double) * (size_t)(s->npar_rows ? s->npar_rows : 1));
    for (int e = 0; e < s->nelem; e++) s->elems[e].pofs = s->insts[s->elems[e].inst].prow;
}
