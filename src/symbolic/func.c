/* func.c - the registry of user functions and the ways to call them:
 * flat arrays of doubles (the equation layer's programs, through variants
 * with fixed input sizes and the fl_scall_fn adapter), fl_values
 * (parameter expressions, through the fl_eval_env.call hook), and a simple
 * lexical scope for callers without one of their own. Compiling is in
 * func_compile.c, running in func_run.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "func_int.h"

fl_ufuncs *fl_ufuncs_new(void)
{
    static atomic_ullong serials;
    fl_ufuncs *r = fl_xcalloc(1, sizeof *r);
    atomic_init(&r->refs, 1);
    r->serial = atomic_fetch_add(&serials, 1) + 1;
    r->ar = fl_arena_new();
    return r;
}

void fl_ufuncs_retain(fl_ufuncs *r)
{
    if (r) atomic_fetch_add(&r->refs, 1);
}

void fl_ufuncs_free(fl_ufuncs *r)
{
    if (!r || atomic_fetch_sub(&r->refs, 1) > 1) return;
    for (size_t i = 0; i < r->fns.n; i++) free(r->fns.v[i]);
    FL_VEC_FREE(r->fns);
    FL_VEC_FREE(r->pending);
    fl_native_tables_free(r);
    fl_map_free(&r->bypath);
    fl_arena_free(r->ar);
    free(r);
}

fl_loc fl_ufunc_loc(fl_ufuncs *r, fl_loc loc)
{
    if (loc.file) loc.file = fl_arena_strn(r->ar, loc.file, strlen(loc.file));
    return loc;
}

static ufn *new_fn(fl_ufuncs *r, const char *path, fl_loc loc)
{
    ufn *f = fl_xcalloc(1, sizeof *f);
    f->path = fl_arena_strn(r->ar, path, strlen(path));
    const char *dot = strrchr(f->path, '.');
    f->name = dot ? dot + 1 : f->path;
    f->loc = fl_ufunc_loc(r, loc);
    f->base = -1;
    FL_VEC_PUSH(r->fns, f);
    return f;
}

int fl_ufunc_declare(fl_ufuncs *r, const fl_class_ast *cls, const char *path, const fl_ufunc_scope *scope,
                     fl_diag *d)
{
    int id = fl_map_get(&r->bypath, path);
    if (id >= 0) return r->fns.v[id]->state == UF_FAILED ? -1 : id;
    id = (int)r->fns.n;
    ufn *f = new_fn(r, path, cls->loc);
    fl_map_put(&r->bypath, path, id);
    f->state = UF_SIGNATURE;
    if (fl_ufunc_compile_signature(r, f, cls, scope, d)) {
        f->state = UF_FAILED;
        return -1;
    }
    if ((f->native = fl_native_find(path))) { /* its body is C */
        f->state = UF_READY;
        return id;
    }
    ufpending p = {id, cls, scope};
    FL_VEC_PUSH(r->pending, p);
    return id;
}

/* Compile the pending bodies, then fail every function that calls a
 * failed one (directly or not). */
static void drain(fl_ufuncs *r, fl_diag *d)
{
    for (size_t i = 0; i < r->pending.n; i++) {
        ufpending p = r->pending.v[i]; /* the vector may grow while compiling */
        ufn *f = r->fns.v[p.id];
        if (f->state != UF_SIGNATURE) continue;
        f->state = fl_ufunc_compile_body(r, p.id, p.cls, p.scope, d) ? UF_FAILED : UF_READY;
    }
    r->pending.n = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < r->fns.n; i++) {
            ufn *f = r->fns.v[i];
            if (f->state != UF_READY || f->base >= 0) continue;
            for (int k = 0; k < f->ncallees; k++)
                if (r->fns.v[f->callees[k]]->state == UF_FAILED) {
                    f->state = UF_FAILED;
                    changed = 1;
                    break;
                }
        }
    }
}

int fl_ufuncs_add(fl_ufuncs *r, const fl_class_ast *cls, const char *path, const fl_ufunc_scope *scope, fl_diag *d)
{
    if (cls->kind != CK_FUNCTION) {
        fl_err(d, cls->loc, "'%s' is not a function", path);
        return -1;
    }
    int nerr = fl_diag_errors(d);
    int id = fl_ufunc_declare(r, cls, path, scope, d);
    if (!r->draining) {
        r->draining = 1;
        drain(r, d);
        r->draining = 0;
    }
    if (id < 0 || r->fns.v[id]->state != UF_READY) {
        if (fl_diag_errors(d) == nerr) fl_err(d, cls->loc, "function '%s' has errors", path);
        return -1;
    }
    return id;
}

int fl_ufunc_find(const fl_ufuncs *r, const char *path)
{
    return fl_map_get(&r->bypath, path);
}

int fl_ufuncs_count(const fl_ufuncs *r)
{
    return (int)r->fns.n;
}

/* ---- signatures ---------------------------------------------------------- */

static const ufn *get(const fl_ufuncs *r, int id)
{
    return id >= 0 && (size_t)id < r->fns.n ? r->fns.v[id] : NULL;
}

static const ufn *base_of(const fl_ufuncs *r, const ufn *f)
{
    return f->base >= 0 ? r->fns.v[f->base] : f;
}

const char *fl_ufunc_path(const fl_ufuncs *r, int id)
{
    const ufn *f = get(r, id);
    return f ? f->path : NULL;
}

int fl_ufunc_ninputs(const fl_ufuncs *r, int id)
{
    const ufn *f = get(r, id);
    return f ? f->nin : -1;
}

int fl_ufunc_noutputs(const fl_ufuncs *r, int id)
{
    const ufn *f = get(r, id);
    return f ? base_of(r, f)->nout : -1;
}

static void arg_info(const uvar *v, const int *vdims, fl_ufarg *out)
{
    out->name = v->name;
    out->type = (fl_uftype)v->ty;
    out->ndims = v->nd;
    out->dim[0] = out->dim[1] = -1;
    for (int d = 0; d < v->nd; d++) out->dim[d] = vdims && vdims[d] >= 0 ? vdims[d] : v->kdim[d];
    out->has_default = v->role == UR_INPUT && v->has_bind;
}

int fl_ufunc_input(const fl_ufuncs *r, int id, int k, fl_ufarg *out)
{
    const ufn *f = get(r, id);
    if (!f || k < 0 || k >= f->nin) return -1;
    const ufn *b = base_of(r, f);
    int j = k;
    if (f->base >= 0) /* the k-th given input */
        for (j = 0; j < b->nin; j++)
            if (f->given[j] && k-- == 0) break;
    arg_info(&b->vars[b->in[j]], f->base >= 0 ? f->vdims[j] : NULL, out);
    return 0;
}

int fl_ufunc_output(const fl_ufuncs *r, int id, int k, fl_ufarg *out)
{
    const ufn *f = get(r, id);
    if (!f) return -1;
    const ufn *b = base_of(r, f);
    if (k < 0 || k >= b->nout) return -1;
    arg_info(&b->vars[b->out[k]], NULL, out);
    return 0;
}

/* ---- variants ------------------------------------------------------------- */

int fl_ufunc_variant(fl_ufuncs *r, int id, const unsigned char *given, const int (*dims)[2], fl_loc loc,
                     fl_diag *d)
{
    const ufn *b = get(r, id);
    if (!b || b->base >= 0 || b->state != UF_READY) {
        fl_err(d, loc, "no such function to specialise (id %d)", id);
        return -1;
    }
    fl_buf key = {0};
    fl_buf_printf(&key, "%s#", b->path);
    int same = 1, rc = 0;
    for (int k = 0; k < b->nin; k++) {
        const uvar *v = &b->vars[b->in[k]];
        int g = given ? given[k] != 0 : 1;
        if (!g) same = 0;
        if (!g && !v->has_bind) {
            fl_err(d, loc, "missing input '%s' in the call of '%s'", v->name, b->path);
            rc = -1;
        }
        fl_buf_printf(&key, "%d", g);
        for (int j = 0; j < v->nd; j++) {
            int want = dims ? dims[k][j] : -1;
            if (v->kdim[j] >= 0 && want >= 0 && want != v->kdim[j]) {
                fl_err(d, loc, "input '%s' of '%s' has %d elements%s, its declaration %d", v->name, b->path, want,
                       v->nd == 2 ? (j ? " in dimension 2" : " in dimension 1") : "", v->kdim[j]);
                rc = -1;
            }
            if (v->kdim[j] < 0 && want >= 0) same = 0;
            if (g && v->kdim[j] < 0 && want < 0) {
                fl_err(d, loc, "the size of input '%s' of '%s' must be given", v->name, b->path);
                rc = -1;
            }
            fl_buf_printf(&key, ",%d", v->kdim[j] >= 0 ? v->kdim[j] : want);
        }
        fl_buf_addc(&key, ';');
    }
    if (rc || same) {
        fl_buf_free(&key);
        return rc ? -1 : id;
    }
    int vid = fl_map_get(&r->bypath, key.s);
    if (vid < 0) {
        vid = (int)r->fns.n;
        ufn *f = new_fn(r, b->path, fl_noloc);
        f->loc = b->loc;
        f->base = id;
        f->state = UF_READY;
        f->given = fl_arena_alloc(r->ar, (size_t)(b->nin ? b->nin : 1));
        f->vdims = fl_arena_alloc(r->ar, sizeof(int[2]) * (size_t)(b->nin ? b->nin : 1));
        for (int k = 0; k < b->nin; k++) {
            const uvar *v = &b->vars[b->in[k]];
            f->given[k] = (unsigned char)(given ? given[k] != 0 : 1);
            f->nin += f->given[k];
            for (int j = 0; j < 2; j++)
                f->vdims[k][j] = j >= v->nd ? 0 : v->kdim[j] >= 0 ? v->kdim[j] : dims ? dims[k][j] : -1;
        }
        f->nout = b->nout;
        fl_map_put(&r->bypath, key.s, vid);
    }
    fl_buf_free(&key);
    return vid;
}

/* ---- flat calls -------------------------------------------------------------- */

static int flat_err(fl_ufunc_err *err, fl_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int flat_err(fl_ufunc_err *err, fl_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err->loc = loc;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* Run id on flat inputs; the flat outputs (and tangents) into buffers
 * grown as needed. Returns the number of output values or -1. */
static int flat_call(const fl_ufuncs *r, int id, const double *in, int nin, const double *din, double **out,
                     double **dout, size_t *cap, fl_ufunc_err *err)
{
    memset(err, 0, sizeof *err);
    const ufn *v = get(r, id);
    if (!v) return flat_err(err, fl_noloc, "no user function with id %d", id);
    const ufn *f = base_of(r, v);
    if (f->state != UF_READY) return flat_err(err, f->loc, "function '%s' has errors", f->path);
    ufarg small[8];
    ufarg *args = f->nin <= 8 ? small : fl_xmalloc(sizeof(ufarg) * (size_t)f->nin);
    int at = 0, rc = 0;
    for (int k = 0; k < f->nin && !rc; k++) {
        const uvar *x = &f->vars[f->in[k]];
        ufarg *a = &args[k];
        memset(a, 0, sizeof *a);
        a->given = v->base >= 0 ? v->given[k] : 1;
        if (!a->given) continue;
        a->ty = x->ty;
        a->nd = x->nd;
        size_t n = 1;
        for (int j = 0; j < x->nd; j++) {
            a->dim[j] = v->base >= 0 ? v->vdims[k][j] : x->kdim[j];
            if (a->dim[j] < 0) {
                rc = flat_err(err, f->loc, "input '%s' of '%s' has no fixed size (make a variant)", x->name, f->path);
                break;
            }
            n *= (size_t)a->dim[j];
        }
        if (rc) break;
        if (at + (double)n > nin) {
            rc = flat_err(err, f->loc, "too few input values for '%s' (%d)", f->path, nin);
            break;
        }
        if (x->nd) {
            a->v = in + at;
            a->dv = din ? din + at : NULL;
        } else {
            a->x = in[at];
            a->dx = din ? din[at] : 0;
        }
        at += (int)n;
    }
    if (!rc && at != nin) rc = flat_err(err, f->loc, "'%s' takes %d input values, %d given", f->path, at, nin);
    ufres rsmall[8];
    ufres *res = f->nout <= 8 ? rsmall : fl_xmalloc(sizeof(ufres) * (size_t)f->nout);
    if (!rc) rc = fl_ufunc_run(r, f, args, din != NULL, res, f->nout, err);
    int total = 0;
    if (!rc) {
        size_t need = 0;
        for (int k = 0; k < f->nout; k++)
            need += res[k].nd == 0 ? 1 : res[k].nd == 1 ? (size_t)res[k].dim[0] : (size_t)res[k].dim[0] * (size_t)res[k].dim[1];
        if (need > *cap) {
            *out = fl_xrealloc(*out, sizeof(double) * need);
            if (dout) *dout = fl_xrealloc(*dout, sizeof(double) * need);
            *cap = need;
        }
        for (int k = 0; k < f->nout; k++) {
            const ufres *x = &res[k];
            if (!x->nd) {
                (*out)[total] = x->x;
                if (dout) (*dout)[total] = x->dx;
                total++;
                continue;
            }
            size_t n = x->nd == 1 ? (size_t)x->dim[0] : (size_t)x->dim[0] * (size_t)x->dim[1];
            if (n) memcpy(*out + total, x->v, sizeof(double) * n);
            if (dout && n) memcpy(*dout + total, x->dv, sizeof(double) * n);
            total += (int)n;
        }
        for (int k = 0; k < f->nout; k++) {
            free(res[k].v);
            free(res[k].dv);
        }
    }
    if (res != rsmall) free(res);
    if (args != small) free(args);
    return rc ? -1 : total;
}

int fl_ufunc_call(const fl_ufuncs *r, int id, const double *in, int nin, double *out, int nout, const double *din,
                  double *dout, fl_ufunc_err *err)
{
    double *o = NULL, *od = NULL;
    size_t cap = 0;
    int n = flat_call(r, id, in, nin, din, &o, din ? &od : NULL, &cap, err);
    if (n > nout) {
        n = flat_err(err, get(r, id)->loc, "the outputs of '%s' are %d values, room for %d", get(r, id)->path, n, nout);
    }
    if (n > 0) {
        memcpy(out, o, sizeof(double) * (size_t)n);
        if (din && dout) memcpy(dout, od, sizeof(double) * (size_t)n);
    }
    free(o);
    free(od);
    return n;
}

/* ---- the programs' callback ---------------------------------------------------- */

void fl_ufunc_rt_init(fl_ufunc_rt *rt, const fl_ufuncs *r)
{
    memset(rt, 0, sizeof *rt);
    rt->r = r;
}

void fl_ufunc_rt_free(fl_ufunc_rt *rt)
{
    for (int k = 0; k < FL_UFUNC_MEMO; k++) {
        free(rt->memo[k].args);
        free(rt->memo[k].out);
        free(rt->memo[k].dout);
    }
    memset(rt, 0, sizeof *rt);
}

/* The remembered evaluation of fid at args that has what is asked (any
 * entry for values, one with the same wrt for partials), NULL if none. */
static fl_ufunc_memo *memo_find(fl_ufunc_rt *rt, int fid, int wrt, const double *args, int nargs)
{
    for (int k = 0; k < FL_UFUNC_MEMO; k++) {
        fl_ufunc_memo *m = &rt->memo[k];
        if (m->serial == rt->r->serial && m->fid == fid && m->nargs == nargs && (wrt == 0 || m->wrt == wrt) &&
            (nargs == 0 || memcmp(m->args, args, sizeof(double) * (size_t)nargs) == 0))
            return m;
    }
    return NULL;
}

double fl_ufunc_scall(void *ctx, int fid, int out, int wrt, const double *args, int nargs)
{
    fl_ufunc_rt *rt = ctx;
    fl_ufunc_memo *m = memo_find(rt, fid, wrt, args, nargs);
    if (!m) {
        m = &rt->memo[rt->next];
        rt->next = (rt->next + 1) % FL_UFUNC_MEMO;
        m->serial = 0; /* empty until the evaluation succeeds */
        if ((size_t)nargs > m->cap_args) {
            m->args = fl_xrealloc(m->args, sizeof(double) * (size_t)nargs);
            m->cap_args = (size_t)nargs;
        }
        if (nargs) memcpy(m->args, args, sizeof(double) * (size_t)nargs);
        double seed_small[16];
        double *seed = NULL;
        if (wrt > 0) {
            seed = nargs <= 16 ? seed_small : fl_xmalloc(sizeof(double) * (size_t)nargs);
            for (int i = 0; i < nargs; i++) seed[i] = i == wrt - 1 ? 1 : 0;
        }
        fl_ufunc_err err;
        int n = wrt > 0 && wrt - 1 >= nargs ? flat_err(&err, fl_noloc, "no argument %d to differentiate by", wrt)
                                             : flat_call(rt->r, fid, args, nargs, seed, &m->out, &m->dout, &m->cap_out, &err);
        if (seed && seed != seed_small) free(seed);
        if (n < 0) {
            if (!rt->failed) {
                rt->failed = 1;
                rt->err = err;
            }
            return NAN;
        }
        m->serial = rt->r->serial;
        m->fid = fid;
        m->nargs = nargs;
        m->wrt = wrt;
        m->nout = n;
    }
    if (out < 0 || out >= m->nout) {
        if (!rt->failed) {
            rt->failed = 1;
            flat_err(&rt->err, fl_noloc, "output %d of '%s' does not exist", out, fl_ufunc_path(rt->r, fid));
        }
        return NAN;
    }
    return wrt > 0 ? m->dout[out] : m->out[out];
}

/* ---- parameter expressions ------------------------------------------------------- */

static const char *shape_word(int nd)
{
    return nd == 0 ? "a scalar" : nd == 1 ? "a vector" : "a matrix";
}

/* An fl_value as the argument of input v. */
static int value_arg(const ufn *f, const uvar *v, const fl_value *x, fl_loc loc, ufarg *a, fl_diag *d)
{
    memset(a, 0, sizeof *a);
    a->given = 1;
    a->ty = v->ty;
    int nd = x->kind == V_ARRAY ? x->ndims : 0;
    if (!fl_value_is_number(x) && x->kind != V_ARRAY) {
        fl_err(d, loc, "input '%s' of '%s' must be a number, not %s", v->name, f->path, fl_vkind_name(x->kind));
        return -1;
    }
    if (nd != v->nd) {
        fl_err(d, loc, "input '%s' of '%s' is %s, the argument %s", v->name, f->path, shape_word(v->nd), shape_word(nd));
        return -1;
    }
    if (!nd) {
        int ok = v->ty == UT_REAL ? x->kind != V_BOOL : v->ty == UT_INT ? x->kind == V_INT : x->kind == V_BOOL;
        if (!ok) {
            fl_err(d, loc, "input '%s' of '%s' is %s, the argument %s", v->name, f->path,
                   v->ty == UT_REAL ? "a Real" : v->ty == UT_INT ? "an Integer" : "a Boolean", fl_vkind_name(x->kind));
            return -1;
        }
        a->x = x->num;
        return 0;
    }
    a->nd = (unsigned char)nd;
    a->dim[0] = x->dim[0];
    a->dim[1] = nd == 2 ? x->dim[1] : 0;
    a->v = x->data;
    return 0;
}

static int result_value(const ufres *x, fl_value *out)
{
    memset(out, 0, sizeof *out);
    if (!x->nd) {
        if (!isfinite(x->x)) return -1;
        *out = x->ty == UT_BOOL ? fl_value_bool(x->x != 0) : fl_value_real(x->x);
        if (x->ty == UT_INT) out->kind = V_INT;
        return 0;
    }
    size_t n = x->nd == 1 ? (size_t)x->dim[0] : (size_t)x->dim[0] * (size_t)x->dim[1];
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x->v[i])) return -1;
    out->kind = V_ARRAY;
    out->ndims = x->nd;
    out->dim[0] = x->dim[0];
    out->dim[1] = x->nd == 2 ? x->dim[1] : 0;
    out->data = fl_xmalloc(sizeof(double) * (n ? n : 1));
    if (n) memcpy(out->data, x->v, sizeof(double) * n);
    return 0;
}

int fl_ufunc_eval_call(const fl_ufuncs *r, int id, const fl_expr *e, const fl_eval_env *env, fl_value *out,
                       fl_diag *d)
{
    memset(out, 0, sizeof *out);
    const ufn *v = get(r, id);
    const ufn *f = v ? base_of(r, v) : NULL;
    if (!f || f->state != UF_READY) {
        fl_err(d, e->loc, "function '%s' has errors", f ? f->path : "?");
        return -1;
    }
    if (f->nout == 0) {
        fl_err(d, e->loc, "function '%s' has no outputs", f->path);
        return -1;
    }
    fl_value *vals = fl_xcalloc((size_t)(f->nin ? f->nin : 1), sizeof *vals);
    ufarg *args = fl_xcalloc((size_t)(f->nin ? f->nin : 1), sizeof *args);
    int rc = 0, pos = 0;
    for (int i = 0; i < e->nargs && !rc; i++) {
        int k = -1;
        if (e->argnames && e->argnames[i]) {
            for (int j = 0; j < f->nin; j++)
                if (strcmp(f->vars[f->in[j]].name, e->argnames[i]) == 0) k = j;
            if (k < 0) {
                fl_err(d, e->args[i]->loc, "'%s' has no input named '%s'", f->path, e->argnames[i]);
                rc = -1;
                break;
            }
        } else if ((k = pos++) >= f->nin) {
            fl_err(d, e->args[i]->loc, "too many arguments in the call of '%s' (it has %d input%s)", f->path, f->nin,
                   f->nin == 1 ? "" : "s");
            rc = -1;
            break;
        }
        const uvar *in = &f->vars[f->in[k]];
        if (args[k].given) {
            fl_err(d, e->args[i]->loc, "input '%s' of '%s' given twice", in->name, f->path);
            rc = -1;
            break;
        }
        if (fl_eval(e->args[i], env, &vals[k], d)) rc = -1;
        else rc = value_arg(f, in, &vals[k], e->args[i]->loc, &args[k], d);
    }
    for (int k = 0; k < f->nin && !rc; k++)
        if (!args[k].given && !f->vars[f->in[k]].has_bind) {
            fl_err(d, e->loc, "missing input '%s' in the call of '%s'", f->vars[f->in[k]].name, f->path);
            rc = -1;
        }
    if (!rc) {
        ufres res;
        fl_ufunc_err err;
        if (fl_ufunc_run(r, f, args, 0, &res, 1, &err)) {
            fl_err(d, err.loc, "%s", err.msg);
            fl_note(d, e->loc, "in the call of '%s' here", f->path);
            rc = -1;
        } else {
            if (result_value(&res, out)) {
                fl_err(d, e->loc, "'%s' returned a value that is not a finite number", f->path);
                rc = -1;
            }
            free(res.v);
            free(res.dv);
        }
    }
    for (int k = 0; k < f->nin; k++) fl_value_free(&vals[k]);
    free(vals);
    free(args);
    return rc;
}

int fl_ufunc_eval_hook(void *call_ctx, const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d)
{
    fl_ufunc_hook *h = call_ctx;
    if (!h || !h->scope || !h->scope->find_class) return 0;
    char *written = fl_ref_str(&e->ref);
    const char *path = NULL;
    const fl_class_ast *cls = h->scope->find_class(h->scope->ctx, h->from, written, &path);
    int rc = 0;
    if (cls && cls->kind == CK_FUNCTION) {
        char *p = fl_xstrdup(path ? path : written);
        int id = fl_ufunc_find(h->r, p);
        if (id < 0) id = fl_ufuncs_add(h->r, cls, p, h->scope, d);
        free(p);
        rc = id < 0 ? -1 : fl_ufunc_eval_call(h->r, id, e, env, out, d) ? -1 : 1;
    }
    free(written);
    return rc;
}

/* ---- a lexical scope in one file ------------------------------------------------ */

static const fl_class_ast *child(const fl_class_ast *c, const char *name, size_t len)
{
    for (size_t i = 0; i < c->classes.n; i++) {
        const char *n = c->classes.v[i]->name;
        if (strlen(n) == len && strncmp(n, name, len) == 0) return c->classes.v[i];
    }
    return NULL;
}

static const fl_class_ast *top(const fl_file_ast *f, const char *name, size_t len)
{
    for (size_t i = 0; i < f->classes.n; i++) {
        const char *n = f->classes.v[i]->name;
        if (strlen(n) == len && strncmp(n, name, len) == 0) return f->classes.v[i];
    }
    return NULL;
}

static void full_path(const fl_file_ast *f, const fl_class_ast *c, fl_buf *b)
{
    if (c->parent) {
        full_path(f, c->parent, b);
        fl_buf_addc(b, '.');
    } else if (f->within && *f->within) {
        fl_buf_printf(b, "%s.", f->within);
    }
    fl_buf_add(b, c->name);
}

const fl_class_ast *fl_ufunc_lex_find_class(void *ctx, const fl_class_ast *from, const char *written, const char **path)
{
    fl_ufunc_lex *lx = ctx;
    *path = NULL;
    free(lx->path);
    lx->path = NULL;
    const char *dot = strchr(written, '.');
    size_t len = dot ? (size_t)(dot - written) : strlen(written);
    const fl_class_ast *c = NULL;
    for (const fl_class_ast *s = from; s && !c; s = s->parent) c = child(s, written, len);
    if (!c) c = top(lx->file, written, len);
    while (c && dot) {
        const char *next = strchr(dot + 1, '.');
        size_t l = next ? (size_t)(next - dot - 1) : strlen(dot + 1);
        c = child(c, dot + 1, l);
        dot = next;
    }
    if (!c) {
        if (strncmp(written, "Modelica.", 9) == 0) *path = lx->path = fl_xstrdup(written);
        return NULL;
    }
    fl_buf b = {0};
    full_path(lx->file, c, &b);
    *path = lx->path = fl_buf_take(&b);
    return c;
}

typedef struct lex_env {
    fl_ufunc_lex *lx;
    const fl_class_ast *from;
    int depth;
} lex_env;

static int lex_constant_at(lex_env *le, const char *written, fl_loc loc, fl_value *out, fl_diag *d);

static int lex_lookup(void *ctx, const fl_ref *ref, fl_loc loc, fl_value *out, fl_diag *d)
{
    lex_env *le = ctx;
    for (int i = 0; i < ref->n; i++)
        if (ref->parts[i].nsubs) return 0;
    char *s = fl_ref_str(ref);
    int rc = lex_constant_at(le, s, loc, out, d);
    free(s);
    return rc;
}

static int lex_constant_at(lex_env *le, const char *written, fl_loc loc, fl_value *out, fl_diag *d)
{
    if (le->depth > 20) {
        fl_err(d, loc, "constant '%s' depends on itself", written);
        return -1;
    }
    const char *dot = strrchr(written, '.');
    const char *name = dot ? dot + 1 : written;
    const fl_class_ast *scope[FL_MAX_CLASS_DEPTH + 2];
    int ns = 0;
    if (dot) {
        char *prefix = fl_xstrndup(written, (size_t)(dot - written));
        const char *path;
        const fl_class_ast *c = fl_ufunc_lex_find_class(le->lx, le->from, prefix, &path);
        free(prefix);
        if (c) scope[ns++] = c;
    } else {
        for (const fl_class_ast *s = le->from; s && ns < FL_MAX_CLASS_DEPTH + 2; s = s->parent) scope[ns++] = s;
    }
    for (int i = 0; i < ns; i++) {
        const fl_class_ast *c = scope[i];
        for (size_t k = 0; k < c->decls.n; k++) {
            const fl_decl *dc = &c->decls.v[k];
            if (!(dc->prefix & FL_PFX_CONSTANT) || !dc->binding || strcmp(dc->name, name) != 0) continue;
            lex_env inner = {le->lx, c, le->depth + 1};
            fl_eval_env env = {lex_lookup, &inner, NULL};
            return fl_eval(dc->binding, &env, out, d) ? -1 : 1;
        }
    }
    return 0;
}

int fl_ufunc_lex_constant(void *ctx, const fl_class_ast *from, const char *written, fl_loc loc, fl_value *out,
                          fl_diag *d)
{
    lex_env le = {ctx, from, 0};
    return lex_constant_at(&le, written, loc, out, d);
}
