/* func_run.c - the interpreter of compiled user functions, with
 * forward-mode derivatives.
 *
 * Every Real value carries its tangent (a dual number; arrays carry an
 * array of tangents), Integer and Boolean values carry none, and control
 * flow follows the values, so one run gives the outputs and their
 * directional derivative along the tangent seeds of the inputs, exactly
 * for piecewise-smooth code (abs, min, max, if: the branch taken).
 *
 * All state of a call lives in an `rt` on the caller's stack: the frames
 * (one slot per variable), and the arrays, in an arena whose first chunk is
 * on the stack too; statements release their temporaries when they end and
 * calls release their frames when they return, so memory stays
 * proportional to what is live. Nothing is global: calls on several threads
 * at once are independent. Every failure (index out of range, division by
 * zero, a failed assert, the limits of func.h) ends the evaluation with a
 * located message; nothing aborts. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "func_int.h"

/* Expressions and statements nested inside each other across all active
 * calls: bounds the interpreter's C stack (see README.md, Functions). */
#define MAX_NEST 4000
/* Memory of one evaluation (arrays and frames), in doubles: 512 MB. */
#define ARENA_MAX ((size_t)1 << 26)

typedef struct achunk {
    struct achunk *next;
    size_t cap, used;
    double *mem;
} achunk;

typedef struct amark {
    achunk *k;
    size_t used;
} amark;

/* A value: scalars in x/dx, arrays in v/dv (row-major; dv NULL: tangents
 * zero). Array memory is the arena's or a variable's: read-only. */
typedef struct uv {
    unsigned char ty, nd;
    int dim[2];
    double x, dx;
    const double *v, *dv;
} uv;

/* A variable of a frame. Arrays of fixed size live in the arena, those of
 * flexible size (':' outputs and locals) on the heap (heap = 1). */
typedef struct slot {
    unsigned char set, heap;
    int dim[2];
    int fixdim[2]; /* declared sizes (-1: flexible) */
    size_t cap;
    double *v, *dv;
    double x, dx;
} slot;

typedef struct rt {
    const fl_ufuncs *r;
    int ad;
    achunk *cur;
    size_t total;
    int depth, nest;
    long long iters, calls;
    fl_ufunc_err *err;
    int failed;
    slot *fr;
    const ufn *fn;
    int enddim;
} rt;

enum { FLOW_NORMAL = 0, FLOW_BREAK = 1, FLOW_RETURN = 2 };

/* The evaluators of the constructs recurse through ev(); kept out of line
 * so that each level of nesting costs only the frames it needs. */
#define NOINLINE __attribute__((noinline))

static NOINLINE int fail(rt *c, fl_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static NOINLINE int fail(rt *c, fl_loc loc, const char *fmt, ...)
{
    if (!c->failed) {
        c->failed = 1;
        c->err->loc = loc;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err->msg, sizeof c->err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ---- memory ------------------------------------------------------------------- */

static double *aalloc(rt *c, size_t n, fl_loc loc)
{
    if (n == 0) n = 1;
    achunk *k = c->cur;
    if (k->used + n > k->cap) {
        achunk *nx = k->next;
        if (nx && nx->cap >= n) {
            nx->used = 0;
        } else {
            size_t cap = n > 2 * k->cap ? n : 2 * k->cap;
            if (cap < 4096) cap = 4096;
            if (c->total + cap > ARENA_MAX) {
                fail(c, loc, "function evaluation needs more than %zu MB of memory", ARENA_MAX * sizeof(double) >> 20);
                c->err->fatal = 1;
                return NULL;
            }
            nx = fl_xmalloc(sizeof(achunk) + cap * sizeof(double));
            nx->cap = cap;
            nx->used = 0;
            nx->mem = (double *)(nx + 1);
            nx->next = k->next;
            k->next = nx;
            c->total += cap;
        }
        k = c->cur = nx;
    }
    double *p = k->mem + k->used;
    k->used += n;
    return p;
}

static void *abytes(rt *c, size_t bytes, fl_loc loc)
{
    return aalloc(c, (bytes + sizeof(double) - 1) / sizeof(double), loc);
}

static amark mark(const rt *c)
{
    amark m = {c->cur, c->cur->used};
    return m;
}

static void release(rt *c, amark m)
{
    c->cur = m.k;
    c->cur->used = m.used;
}

static size_t count(const uv *a)
{
    return a->nd == 0 ? 1 : a->nd == 1 ? (size_t)a->dim[0] : (size_t)a->dim[0] * (size_t)a->dim[1];
}

static inline double VAL(const uv *a, size_t i)
{
    return a->nd ? a->v[i] : a->x;
}

static inline double TAN(const uv *a, size_t i)
{
    return a->nd ? (a->dv ? a->dv[i] : 0) : a->dx;
}

/* A new array value (values uninitialised; tangents when they are
 * wanted), *v and *dv to fill. */
static int mkarr(rt *c, uv *o, int ty, int nd, int d0, int d1, double **v, double **dv, fl_loc loc)
{
    memset(o, 0, sizeof *o);
    o->ty = (unsigned char)ty;
    o->nd = (unsigned char)nd;
    o->dim[0] = d0;
    o->dim[1] = nd == 2 ? d1 : 0;
    double n = nd == 2 ? (double)d0 * (double)d1 : (double)d0;
    if (d0 < 0 || (nd == 2 && d1 < 0)) return fail(c, loc, "negative array size");
    if (n > FL_MAX_ARRAY)
        return fail(c, loc, "array of %.0f elements is larger than the limit of " FL_MAX_ARRAY_TEXT, n);
    *v = aalloc(c, (size_t)n, loc);
    if (!*v) return -1;
    *dv = NULL;
    if (c->ad && ty == UT_REAL) {
        *dv = aalloc(c, (size_t)n, loc);
        if (!*dv) return -1;
    }
    o->v = *v;
    o->dv = *dv;
    return 0;
}

static void scalar(uv *o, int ty, double x, double dx)
{
    memset(o, 0, sizeof *o);
    o->ty = (unsigned char)ty;
    o->x = x;
    o->dx = ty == UT_REAL ? dx : 0;
}

static const char *vname(const rt *c, int k)
{
    return c->fn->vars[k].name;
}

/* ---- expressions ----------------------------------------------------------------- */

static int ev(rt *c, const fx *e, uv *o);
static NOINLINE int call_outputs(rt *c, const fx *e, uv *outs, int nouts);

/* The selection of one dimension by a subscript. */
typedef struct isel {
    int kind; /* 0 all, 1 one index, 2 a list */
    int n, idx;
    const double *list;
} isel;

static int sel_at(const isel *s, int j)
{
    return s->kind == 0 ? j : s->kind == 1 ? s->idx : (int)s->list[j] - 1;
}

static int bad_index(rt *c, double idx, int extent, int k, int nd, const char *name, fl_loc loc)
{
    if (nd == 1) return fail(c, loc, "index %.0f out of range 1..%d for '%s'", idx, extent, name);
    return fail(c, loc, "index %.0f out of range 1..%d in dimension %d of '%s'", idx, extent, k + 1, name);
}

/* Evaluate the subscripts of an array with nd dimensions dims (missing
 * trailing subscripts select everything). */
static NOINLINE int select_dims(rt *c, fx *const *subs, int nsubs, int nd, const int *dims, isel *sel,
                                const char *name)
{
    for (int k = 0; k < nd; k++) {
        isel *s = &sel[k];
        memset(s, 0, sizeof *s);
        if (k >= nsubs || subs[k]->op == FX_COLON) {
            s->n = dims[k];
            continue;
        }
        int saved = c->enddim;
        c->enddim = dims[k];
        uv x;
        int rc = ev(c, subs[k], &x);
        c->enddim = saved;
        if (rc) return -1;
        if (x.nd == 0) {
            if (!(x.x >= 1 && x.x <= dims[k])) return bad_index(c, x.x, dims[k], k, nd, name, subs[k]->loc);
            s->kind = 1;
            s->n = 1;
            s->idx = (int)x.x - 1;
        } else {
            s->kind = 2;
            s->n = x.dim[0];
            s->list = x.v;
            for (int j = 0; j < s->n; j++)
                if (!(x.v[j] >= 1 && x.v[j] <= dims[k])) return bad_index(c, x.v[j], dims[k], k, nd, name, subs[k]->loc);
        }
    }
    return 0;
}

/* a[subscripts]: gather. */
static NOINLINE int index_expr(rt *c, const fx *e, uv *o)
{
    uv base;
    if (ev(c, e->a[0], &base)) return -1;
    const char *name = e->a[0]->op == FX_VAR ? vname(c, e->a[0]->fn) : "the array";
    int nsubs = e->na - 1;
    /* the common case: x[i] */
    if (base.nd == 1 && nsubs == 1 && e->a[1]->op != FX_COLON && e->a[1]->nd == 0) {
        int saved = c->enddim;
        c->enddim = base.dim[0];
        uv i;
        int rc = ev(c, e->a[1], &i);
        c->enddim = saved;
        if (rc) return -1;
        if (!(i.x >= 1 && i.x <= base.dim[0])) return bad_index(c, i.x, base.dim[0], 0, 1, name, e->a[1]->loc);
        size_t k = (size_t)i.x - 1;
        scalar(o, base.ty, base.v[k], base.dv ? base.dv[k] : 0);
        return 0;
    }
    isel sel[2];
    if (select_dims(c, e->a + 1, nsubs, base.nd, base.dim, sel, name)) return -1;
    int rd[2] = {0, 0}, rnd = 0;
    for (int k = 0; k < base.nd; k++)
        if (sel[k].kind != 1) rd[rnd++] = sel[k].n;
    int cols = base.nd == 2 ? base.dim[1] : 1;
    int n0 = sel[0].n, n1 = base.nd == 2 ? sel[1].n : 1;
    if (rnd == 0) {
        size_t at = (size_t)sel_at(&sel[0], 0) * (size_t)cols + (size_t)(base.nd == 2 ? sel_at(&sel[1], 0) : 0);
        scalar(o, base.ty, base.v[at], base.dv ? base.dv[at] : 0);
        return 0;
    }
    double *v, *dv;
    if (mkarr(c, o, base.ty, rnd, rd[0], rd[1], &v, &dv, e->loc)) return -1;
    size_t m = 0;
    for (int i = 0; i < n0; i++)
        for (int j = 0; j < n1; j++, m++) {
            size_t at = (size_t)sel_at(&sel[0], i) * (size_t)cols + (size_t)(base.nd == 2 ? sel_at(&sel[1], j) : 0);
            v[m] = base.v[at];
            if (dv) dv[m] = base.dv ? base.dv[at] : 0;
        }
    return 0;
}

static const char *const bo_name[] = {"+", "-", "*", "/", "^", ".+", ".-", ".*", "./", ".^",
                                      "<", "<=", ">", ">=", "==", "<>", "and", "or"};

/* a op b on numbers, with the tangent. */
static int sop(rt *c, int op, double a, double da, double b, double db, double *x, double *dx, fl_loc loc)
{
    double r, d = 0;
    switch (op) {
    case BO_ADD: case BO_EADD: r = a + b; d = da + db; break;
    case BO_SUB: case BO_ESUB: r = a - b; d = da - db; break;
    case BO_MUL: case BO_EMUL: r = a * b; d = da * b + a * db; break;
    case BO_DIV: case BO_EDIV:
        if (b == 0) return fail(c, loc, "division by zero");
        r = a / b;
        d = (da - r * db) / b;
        break;
    case BO_POW: case BO_EPOW:
        r = pow(a, b);
        if (!isfinite(r) && isfinite(a) && isfinite(b)) {
            if (isnan(r)) return fail(c, loc, a < 0 ? "(%g)^%g is not a real number" : "%g^%g is not a real number", a, b);
            if (a == 0) return fail(c, loc, "division by zero (0^%g)", b);
            return fail(c, loc, "%g^%g overflows", a, b);
        }
        if (da != 0 && b != 0) d += b * pow(a, b - 1) * da;
        if (db != 0) {
            if (a > 0) d += r * log(a) * db;
            else if (!(a == 0 && b > 0)) d = NAN; /* no derivative in the exponent */
        }
        break;
    case BO_LT: r = a < b; break;
    case BO_LE: r = a <= b; break;
    case BO_GT: r = a > b; break;
    case BO_GE: r = a >= b; break;
    case BO_EQ: r = a == b; break;
    case BO_NE: r = a != b; break;
    default: return fail(c, loc, "unsupported operator");
    }
    *x = r;
    *dx = d;
    return 0;
}

static int result_type(int op, const uv *a, const uv *b)
{
    if (op >= BO_LT) return UT_BOOL;
    if (op == BO_DIV || op == BO_POW || op == BO_EDIV || op == BO_EPOW) return UT_REAL;
    return a->ty == UT_REAL || b->ty == UT_REAL ? UT_REAL : UT_INT;
}

static int int_overflow(rt *c, int ty, double x, fl_loc loc)
{
    if (ty == UT_INT && !(x >= FL_INT_MIN && x <= FL_INT_MAX)) return fail(c, loc, "Integer overflow (%.0f)", x);
    return 0;
}

static void shape_text(char *buf, size_t cap, const uv *a)
{
    if (a->nd == 1) snprintf(buf, cap, "%d", a->dim[0]);
    else snprintf(buf, cap, "%dx%d", a->dim[0], a->dim[1]);
}

/* Matrix and vector products: vectors on the left are rows, on the right columns. */
static NOINLINE int matmul(rt *c, const uv *a, const uv *b, int ty, uv *o, fl_loc loc)
{
    int ar = a->nd == 2 ? a->dim[0] : 1, ac = a->nd == 2 ? a->dim[1] : a->dim[0];
    int br = b->dim[0], bc = b->nd == 2 ? b->dim[1] : 1;
    if (ac != br) {
        char sa[32], sb[32];
        shape_text(sa, sizeof sa, a);
        shape_text(sb, sizeof sb, b);
        return fail(c, loc, "sizes do not match for '*': %s and %s", sa, sb);
    }
    int rnd = a->nd == 1 && b->nd == 1 ? 0 : a->nd == 1 || b->nd == 1 ? 1 : 2;
    double *v = NULL, *dv = NULL, sx = 0, sdx = 0;
    if (rnd == 1) {
        if (mkarr(c, o, ty, 1, a->nd == 1 ? bc : ar, 0, &v, &dv, loc)) return -1;
    } else if (rnd == 2) {
        if (mkarr(c, o, ty, 2, ar, bc, &v, &dv, loc)) return -1;
    }
    for (int i = 0; i < ar; i++)
        for (int j = 0; j < bc; j++) {
            double s = 0, ds = 0;
            for (int k = 0; k < ac; k++) {
                size_t ia = (size_t)i * (size_t)ac + (size_t)k, ib = (size_t)k * (size_t)bc + (size_t)j;
                s += a->v[ia] * b->v[ib];
                if (c->ad) ds += TAN(a, ia) * b->v[ib] + a->v[ia] * TAN(b, ib);
            }
            if (rnd == 0) {
                sx = s;
                sdx = ds;
            } else {
                v[(size_t)i * (size_t)bc + (size_t)j] = s;
                if (dv) dv[(size_t)i * (size_t)bc + (size_t)j] = ds;
            }
        }
    if (rnd == 0) scalar(o, ty, sx, sdx);
    return 0;
}

static NOINLINE int binop(rt *c, int op, const uv *a, const uv *b, uv *o, fl_loc loc)
{
    int ty = result_type(op, a, b);
    if (!a->nd && !b->nd) {
        double x = 0, dx = 0;
        if (sop(c, op, a->x, a->dx, b->x, b->dx, &x, &dx, loc)) return -1;
        if (int_overflow(c, ty, x, loc)) return -1;
        scalar(o, ty, x, dx);
        return 0;
    }
    if (op == BO_MUL && a->nd && b->nd) return matmul(c, a, b, ty, o, loc);
    const uv *arr = a->nd ? a : b;
    if (a->nd && b->nd && (a->dim[0] != b->dim[0] || a->dim[1] != b->dim[1])) {
        char sa[32], sb[32];
        shape_text(sa, sizeof sa, a);
        shape_text(sb, sizeof sb, b);
        return fail(c, loc, "sizes do not match for '%s': %s and %s", bo_name[op], sa, sb);
    }
    double *v, *dv;
    if (mkarr(c, o, ty, arr->nd, arr->dim[0], arr->dim[1], &v, &dv, loc)) return -1;
    size_t n = count(arr);
    for (size_t i = 0; i < n; i++) {
        double x = 0, dx = 0;
        if (sop(c, op, VAL(a, i), TAN(a, i), VAL(b, i), TAN(b, i), &x, &dx, loc)) return -1;
        if (int_overflow(c, ty, x, loc)) return -1;
        v[i] = x;
        if (dv) dv[i] = dx;
    }
    return 0;
}

static NOINLINE int chain(rt *c, const fx *e, uv *o)
{
    uv acc;
    if (ev(c, e->a[0], &acc)) return -1;
    for (int i = 1; i < e->na; i++) {
        int op = e->ops[i - 1];
        uv b;
        if (op == BO_AND || op == BO_OR) {
            if ((op == BO_AND && acc.x == 0) || (op == BO_OR && acc.x != 0)) continue; /* decided */
            if (ev(c, e->a[i], &b)) return -1;
            scalar(&acc, UT_BOOL, b.x != 0, 0);
            continue;
        }
        if (ev(c, e->a[i], &b)) return -1;
        uv r;
        if (binop(c, op, &acc, &b, &r, e->oplocs[i - 1])) return -1;
        acc = r;
    }
    *o = acc;
    o->ty = e->ty;
    return 0;
}

/* {a, b, ...} */
static NOINLINE int array_expr(rt *c, const fx *e, uv *o)
{
    int n = e->na;
    double *v, *dv;
    if (e->nd == 1) {
        if (mkarr(c, o, e->ty, 1, n, 0, &v, &dv, e->loc)) return -1;
        for (int i = 0; i < n; i++) {
            uv x;
            if (ev(c, e->a[i], &x)) return -1;
            v[i] = x.x;
            if (dv) dv[i] = x.dx;
        }
        return 0;
    }
    uv *el = abytes(c, sizeof(uv) * (size_t)(n ? n : 1), e->loc);
    if (!el) return -1;
    for (int i = 0; i < n; i++) {
        if (ev(c, e->a[i], &el[i])) return -1;
        if (el[i].dim[0] != el[0].dim[0])
            return fail(c, e->a[i]->loc, "the rows of an array have different lengths (%d and %d)", el[0].dim[0],
                        el[i].dim[0]);
    }
    int m = n ? el[0].dim[0] : 0;
    if (mkarr(c, o, e->ty, 2, n, m, &v, &dv, e->loc)) return -1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            v[(size_t)i * (size_t)m + (size_t)j] = el[i].v[j];
            if (dv) dv[(size_t)i * (size_t)m + (size_t)j] = TAN(&el[i], (size_t)j);
        }
    return 0;
}

/* [a, b; c, d]: scalars are 1x1, vectors columns; each row joins its
 * elements side by side, the rows are stacked. */
static NOINLINE int matrix_expr(rt *c, const fx *e, uv *o)
{
    int nr = e->na, total = 0;
    for (int i = 0; i < nr; i++) total += e->a[i]->na;
    uv *el = abytes(c, sizeof(uv) * (size_t)(total ? total : 1), e->loc);
    if (!el) return -1;
    int rows = 0, cols = -1, k = 0;
    for (int i = 0; i < nr; i++) {
        const fx *row = e->a[i];
        int rr = -1, rc = 0;
        for (int j = 0; j < row->na; j++, k++) {
            if (ev(c, row->a[j], &el[k])) return -1;
            int er = el[k].nd == 0 ? 1 : el[k].dim[0], ec = el[k].nd == 2 ? el[k].dim[1] : 1;
            if (rr >= 0 && er != rr)
                return fail(c, row->a[j]->loc, "the elements of matrix row %d have different numbers of rows (%d and %d)",
                            i + 1, rr, er);
            rr = er;
            rc += ec;
        }
        if (cols >= 0 && rc != cols)
            return fail(c, row->loc, "matrix row %d has %d column%s, row 1 has %d", i + 1, rc, rc == 1 ? "" : "s", cols);
        cols = rc;
        rows += rr < 0 ? 0 : rr;
    }
    double *v, *dv;
    if (mkarr(c, o, e->ty, 2, rows, cols < 0 ? 0 : cols, &v, &dv, e->loc)) return -1;
    int r0 = 0;
    k = 0;
    for (int i = 0; i < nr; i++) {
        const fx *row = e->a[i];
        int c0 = 0, rr = 0;
        for (int j = 0; j < row->na; j++, k++) {
            const uv *x = &el[k];
            int er = x->nd == 0 ? 1 : x->dim[0], ec = x->nd == 2 ? x->dim[1] : 1;
            for (int p = 0; p < er; p++)
                for (int q = 0; q < ec; q++) {
                    size_t src = (size_t)p * (size_t)ec + (size_t)q;
                    size_t dst = (size_t)(r0 + p) * (size_t)cols + (size_t)(c0 + q);
                    v[dst] = VAL(x, src);
                    if (dv) dv[dst] = TAN(x, src);
                }
            c0 += ec;
            rr = er;
        }
        r0 += rr;
    }
    return 0;
}

/* The bounds of a:b or a:s:b: the number of elements. */
static NOINLINE int range_bounds(rt *c, const fx *e, uv *start, uv *step, double *n)
{
    uv stop;
    if (ev(c, e->a[0], start) || ev(c, e->a[1], &stop)) return -1;
    if (e->na == 3) {
        if (ev(c, e->a[2], step)) return -1;
    } else {
        scalar(step, UT_INT, 1, 0);
    }
    if (step->x == 0) return fail(c, e->loc, "the step of a range is zero");
    double k = floor((stop.x - start->x) / step->x + (e->ty == UT_REAL ? 1e-10 : 0));
    *n = k < 0 ? 0 : k + 1;
    if (!(*n <= FL_MAX_ARRAY)) return fail(c, e->loc, "range longer than " FL_MAX_ARRAY_TEXT " elements");
    return 0;
}

static NOINLINE int range_expr(rt *c, const fx *e, uv *o)
{
    uv a, s;
    double n;
    if (range_bounds(c, e, &a, &s, &n)) return -1;
    double *v, *dv;
    if (mkarr(c, o, e->ty, 1, (int)n, 0, &v, &dv, e->loc)) return -1;
    for (int i = 0; i < (int)n; i++) {
        v[i] = a.x + i * s.x;
        if (dv) dv[i] = a.dx + i * s.dx;
    }
    return 0;
}

static int loop_step(rt *c, const char *what, fl_loc loc)
{
    if (++c->iters > FL_UFUNC_MAX_ITER) {
        fail(c, loc, "%s: more than %lld loop iterations in one function evaluation (endless loop?)", what,
             (long long)FL_UFUNC_MAX_ITER);
        c->err->fatal = 1;
        return -1;
    }
    return 0;
}

static void set_iter(rt *c, int k, int ty, double x, double dx)
{
    slot *s = &c->fr[k];
    s->x = x;
    s->dx = ty == UT_REAL ? dx : 0;
    s->set = 1;
}

/* {body for i in range} */
static NOINLINE int comprehension(rt *c, const fx *e, uv *o)
{
    uv r;
    if (ev(c, e->a[1], &r)) return -1;
    int n = r.dim[0];
    const fx *body = e->a[0];
    int ity = c->fn->vars[e->fn].ty;
    double *v = NULL, *dv = NULL;
    size_t per = 0;
    int bd[2] = {0, 0};
    amark m = mark(c);
    for (int i = 0; i < n; i++) {
        if (loop_step(c, "comprehension", e->loc)) return -1;
        set_iter(c, e->fn, ity, r.v[i], TAN(&r, (size_t)i));
        uv x;
        if (ev(c, body, &x)) return -1;
        if (i == 0) {
            bd[0] = x.nd ? x.dim[0] : 0;
            bd[1] = x.nd == 2 ? x.dim[1] : 0;
            per = count(&x);
            if (mkarr(c, o, e->ty, e->nd, n, bd[0], &v, &dv, e->loc)) return -1;
            m = mark(c);
        } else if ((x.nd && x.dim[0] != bd[0]) || (x.nd == 2 && x.dim[1] != bd[1])) {
            return fail(c, body->loc, "the elements of a comprehension have different sizes");
        }
        for (size_t j = 0; j < per; j++) {
            v[(size_t)i * per + j] = VAL(&x, j);
            if (dv) dv[(size_t)i * per + j] = TAN(&x, j);
        }
        release(c, m);
    }
    if (n == 0) return mkarr(c, o, e->ty, e->nd, 0, 0, &v, &dv, e->loc);
    return 0;
}

/* ---- built-in functions ------------------------------------------------------- */

/* f(x) of the element-wise functions, with the derivative. */
static NOINLINE int math1(rt *c, int id, double x, double dx, double *y, double *dy, fl_loc loc)
{
    double r, d = 0;
    switch (id) {
    case BI_SIN: r = sin(x); d = cos(x) * dx; break;
    case BI_COS: r = cos(x); d = -sin(x) * dx; break;
    case BI_TAN: r = tan(x); d = (1 + r * r) * dx; break;
    case BI_ASIN: r = asin(x); d = dx != 0 ? dx / sqrt(1 - x * x) : 0; break;
    case BI_ACOS: r = acos(x); d = dx != 0 ? -dx / sqrt(1 - x * x) : 0; break;
    case BI_ATAN: r = atan(x); d = dx / (1 + x * x); break;
    case BI_SINH: r = sinh(x); d = cosh(x) * dx; break;
    case BI_COSH: r = cosh(x); d = sinh(x) * dx; break;
    case BI_TANH: r = tanh(x); d = (1 - r * r) * dx; break;
    case BI_EXP: r = exp(x); d = r * dx; break;
    case BI_LOG: r = log(x); d = dx != 0 ? dx / x : 0; break;
    case BI_LOG10: r = log10(x); d = dx != 0 ? dx / (x * log(10.0)) : 0; break;
    case BI_SQRT: r = sqrt(x); d = dx != 0 ? dx / (2 * r) : 0; break;
    case BI_ABS: r = fabs(x); d = x > 0 ? dx : x < 0 ? -dx : 0; break;
    case BI_SIGN: r = x > 0 ? 1 : x < 0 ? -1 : 0; break;
    case BI_FLOOR: r = floor(x); break;
    case BI_CEIL: r = ceil(x); break;
    case BI_INTEGER:
        r = floor(x);
        if (!(r >= FL_INT_MIN && r <= FL_INT_MAX)) return fail(c, loc, "integer(%g) is outside the Integer range", x);
        break;
    default: return fail(c, loc, "unsupported function");
    }
    if (!isfinite(r) && isfinite(x)) {
        if (isnan(r)) return fail(c, loc, "%s(%g): argument outside the domain of the function", fl_ufunc_bi_names[id], x);
        return fail(c, loc, "%s(%g) is not finite", fl_ufunc_bi_names[id], x);
    }
    *y = r;
    *dy = d;
    return 0;
}

static NOINLINE int elementwise(rt *c, const fx *e, const uv *a, uv *o)
{
    if (!a->nd) {
        double y, dy;
        if (math1(c, e->fn, a->x, a->dx, &y, &dy, e->loc)) return -1;
        scalar(o, e->ty, y, dy);
        return 0;
    }
    double *v, *dv;
    if (mkarr(c, o, e->ty, a->nd, a->dim[0], a->dim[1], &v, &dv, e->loc)) return -1;
    for (size_t i = 0; i < count(a); i++) {
        double y, dy;
        if (math1(c, e->fn, a->v[i], TAN(a, i), &y, &dy, e->loc)) return -1;
        v[i] = y;
        if (dv) dv[i] = dy;
    }
    return 0;
}

static NOINLINE int two_args(rt *c, const fx *e, uv *o, const uv *a, const uv *b)
{
    double x = a->x, y = b->x, r, d = 0;
    switch (e->fn) {
    case BI_ATAN2: {
        r = atan2(x, y);
        double den = x * x + y * y;
        d = den != 0 ? (y * a->dx - x * b->dx) / den : (a->dx == 0 && b->dx == 0 ? 0 : NAN);
        break;
    }
    case BI_MIN:
        r = x <= y ? x : y;
        d = x <= y ? a->dx : b->dx;
        break;
    case BI_MAX:
        r = x >= y ? x : y;
        d = x >= y ? a->dx : b->dx;
        break;
    case BI_MOD: case BI_REM: case BI_DIV: {
        if (y == 0) return fail(c, e->loc, "%s(%g, 0): division by zero", fl_ufunc_bi_names[e->fn], x);
        double q = e->fn == BI_MOD ? floor(x / y) : trunc(x / y);
        if (e->fn == BI_DIV) {
            r = q;
        } else {
            r = x - q * y;
            d = a->dx - q * b->dx;
        }
        break;
    }
    default: return fail(c, e->loc, "unsupported function");
    }
    scalar(o, e->ty, r, d);
    return 0;
}

/* sum, product, min, max of an array. */
static NOINLINE int reduce(rt *c, const fx *e, const uv *a, uv *o)
{
    size_t n = count(a);
    double r, d = 0;
    switch (e->fn) {
    case BI_SUM:
        r = 0;
        for (size_t i = 0; i < n; i++) {
            r += a->v[i];
            d += TAN(a, i);
        }
        break;
    case BI_PRODUCT: {
        r = 1;
        for (size_t i = 0; i < n; i++) r *= a->v[i];
        if (c->ad && a->dv && n) {
            /* d prod = sum_i da_i * prod_{j != i} a_j, by prefix and suffix products */
            double *suffix = aalloc(c, n + 1, e->loc);
            if (!suffix) return -1;
            suffix[n] = 1;
            for (size_t i = n; i-- > 0;) suffix[i] = suffix[i + 1] * a->v[i];
            double prefix = 1;
            for (size_t i = 0; i < n; i++) {
                d += a->dv[i] * prefix * suffix[i + 1];
                prefix *= a->v[i];
            }
        }
        break;
    }
    default: { /* min, max */
        if (!n) return fail(c, e->loc, "%s() of an empty array", fl_ufunc_bi_names[e->fn]);
        size_t k = 0;
        for (size_t i = 1; i < n; i++)
            if (e->fn == BI_MIN ? a->v[i] < a->v[k] : a->v[i] > a->v[k]) k = i;
        r = a->v[k];
        d = TAN(a, k);
        break;
    }
    }
    if (int_overflow(c, e->ty, r, e->loc)) return -1;
    scalar(o, e->ty, r, d);
    return 0;
}

static NOINLINE int int_arg(rt *c, const fx *x, int *out, int lo, const char *fname, const char *what)
{
    uv v;
    if (ev(c, x, &v)) return -1;
    if (!(v.x >= lo && v.x <= FL_MAX_ARRAY))
        return fail(c, x->loc, "%s(): %s %.0f is out of range %d..%d", fname, what, v.x, lo, FL_MAX_ARRAY);
    *out = (int)v.x;
    return 0;
}

/* cat(k, A, B, ...) */
static NOINLINE int cat(rt *c, const fx *e, uv *o)
{
    int k, n = e->na - 1;
    if (int_arg(c, e->a[0], &k, 1, "cat", "dimension")) return -1;
    uv el[7];
    for (int i = 0; i < n; i++)
        if (ev(c, e->a[i + 1], &el[i])) return -1;
    int nd = el[0].nd;
    if (k > nd) return fail(c, e->a[0]->loc, "cat(): dimension %d of arrays with %d dimension%s", k, nd, nd == 1 ? "" : "s");
    int d0 = 0, d1 = nd == 2 ? el[0].dim[1] : 0;
    if (k == 2) d0 = el[0].dim[0], d1 = 0;
    for (int i = 0; i < n; i++) {
        int other = nd == 1 ? 0 : k == 1 ? el[i].dim[1] : el[i].dim[0];
        int keep = nd == 1 ? 0 : k == 1 ? d1 : d0;
        if (other != keep) return fail(c, e->a[i + 1]->loc, "cat(): the arrays must agree in the other dimension");
        if (k == 1) d0 += el[i].dim[0];
        else d1 += el[i].dim[1];
    }
    double *v, *dv;
    if (mkarr(c, o, e->ty, nd, d0, d1, &v, &dv, e->loc)) return -1;
    size_t off = 0;
    int col0 = 0;
    for (int i = 0; i < n; i++) {
        const uv *x = &el[i];
        if (k == 1) {
            for (size_t j = 0; j < count(x); j++, off++) {
                v[off] = x->v[j];
                if (dv) dv[off] = TAN(x, j);
            }
        } else {
            for (int p = 0; p < x->dim[0]; p++)
                for (int q = 0; q < x->dim[1]; q++) {
                    size_t src = (size_t)p * (size_t)x->dim[1] + (size_t)q, dst = (size_t)p * (size_t)d1 + (size_t)(col0 + q);
                    v[dst] = x->v[src];
                    if (dv) dv[dst] = TAN(x, src);
                }
            col0 += x->dim[1];
        }
    }
    return 0;
}

static NOINLINE int builtin(rt *c, const fx *e, uv *o)
{
    uv a, b;
    double *v, *dv;
    switch (e->fn) {
    case BI_SIN: case BI_COS: case BI_TAN: case BI_ASIN: case BI_ACOS: case BI_ATAN: case BI_SINH:
    case BI_COSH: case BI_TANH: case BI_EXP: case BI_LOG: case BI_LOG10: case BI_SQRT:
    case BI_ABS: case BI_SIGN: case BI_FLOOR: case BI_CEIL: case BI_INTEGER:
        if (ev(c, e->a[0], &a)) return -1;
        return elementwise(c, e, &a, o);
    case BI_ATAN2: case BI_MOD: case BI_REM: case BI_DIV:
        if (ev(c, e->a[0], &a) || ev(c, e->a[1], &b)) return -1;
        return two_args(c, e, o, &a, &b);
    case BI_MIN: case BI_MAX:
        if (e->na == 2) {
            if (ev(c, e->a[0], &a) || ev(c, e->a[1], &b)) return -1;
            return two_args(c, e, o, &a, &b);
        }
        if (ev(c, e->a[0], &a)) return -1;
        return reduce(c, e, &a, o);
    case BI_SUM: case BI_PRODUCT:
        if (ev(c, e->a[0], &a)) return -1;
        return reduce(c, e, &a, o);
    case BI_SIZE:
        if (e->a[0]->op == FX_VAR && e->a[0]->nd && !c->fr[e->a[0]->fn].set) {
            /* the size of an array declared with a known size, before it is assigned */
            const slot *s = &c->fr[e->a[0]->fn];
            memset(&a, 0, sizeof a);
            a.nd = e->a[0]->nd;
            for (int d = 0; d < a.nd; d++) {
                if (s->fixdim[d] < 0) return fail(c, e->a[0]->loc, "'%s' is used before it is assigned", vname(c, e->a[0]->fn));
                a.dim[d] = s->fixdim[d];
            }
        } else if (ev(c, e->a[0], &a)) {
            return -1;
        }
        if (e->na == 2) {
            if (ev(c, e->a[1], &b)) return -1;
            if (!(b.x >= 1 && b.x <= a.nd))
                return fail(c, e->a[1]->loc, "size(): dimension %.0f out of range 1..%d", b.x, a.nd);
            scalar(o, UT_INT, a.dim[(int)b.x - 1], 0);
            return 0;
        }
        if (mkarr(c, o, UT_INT, 1, a.nd, 0, &v, &dv, e->loc)) return -1;
        for (int k = 0; k < a.nd; k++) v[k] = a.dim[k];
        return 0;
    case BI_ZEROS: case BI_ONES: case BI_FILL: {
        int skip = e->fn == BI_FILL, d[2] = {0, 0};
        for (int k = skip; k < e->na; k++)
            if (int_arg(c, e->a[k], &d[k - skip], 0, fl_ufunc_bi_names[e->fn], "size")) return -1;
        scalar(&a, UT_INT, e->fn == BI_ONES, 0);
        if (skip && ev(c, e->a[0], &a)) return -1;
        if (mkarr(c, o, e->ty, e->na - skip, d[0], d[1], &v, &dv, e->loc)) return -1;
        for (size_t k = 0; k < count(o); k++) {
            v[k] = a.x;
            if (dv) dv[k] = a.dx;
        }
        return 0;
    }
    case BI_LINSPACE: {
        int n;
        if (ev(c, e->a[0], &a) || ev(c, e->a[1], &b)) return -1;
        if (int_arg(c, e->a[2], &n, 2, "linspace", "number of points")) return -1;
        if (mkarr(c, o, UT_REAL, 1, n, 0, &v, &dv, e->loc)) return -1;
        for (int k = 0; k < n; k++) {
            double t = (double)k / (n - 1);
            v[k] = a.x + (b.x - a.x) * t;
            if (dv) dv[k] = a.dx + (b.dx - a.dx) * t;
        }
        return 0;
    }
    case BI_CAT: return cat(c, e, o);
    case BI_TRANSPOSE:
        if (ev(c, e->a[0], &a)) return -1;
        if (mkarr(c, o, e->ty, 2, a.dim[1], a.dim[0], &v, &dv, e->loc)) return -1;
        for (int i = 0; i < a.dim[0]; i++)
            for (int j = 0; j < a.dim[1]; j++) {
                size_t s = (size_t)i * (size_t)a.dim[1] + (size_t)j, t = (size_t)j * (size_t)a.dim[0] + (size_t)i;
                v[t] = a.v[s];
                if (dv) dv[t] = TAN(&a, s);
            }
        return 0;
    case BI_SCALAR: case BI_VECTOR: case BI_MATRIX: {
        if (ev(c, e->a[0], &a)) return -1;
        size_t n = count(&a);
        int big = 0;
        for (int k = 0; k < a.nd; k++) big += a.dim[k] > 1;
        if (e->fn == BI_SCALAR) {
            if (n != 1) return fail(c, e->loc, "scalar() of an array of %zu elements", n);
            scalar(o, e->ty, VAL(&a, 0), TAN(&a, 0));
            return 0;
        }
        if (e->fn == BI_VECTOR) {
            if (big > 1) return fail(c, e->loc, "vector() of a matrix with more than one row and column");
            if (mkarr(c, o, e->ty, 1, (int)n, 0, &v, &dv, e->loc)) return -1;
        } else {
            if (mkarr(c, o, e->ty, 2, a.nd == 2 ? a.dim[0] : (int)n, a.nd == 2 ? a.dim[1] : 1, &v, &dv, e->loc))
                return -1;
        }
        for (size_t k = 0; k < n; k++) {
            v[k] = VAL(&a, k);
            if (dv) dv[k] = TAN(&a, k);
        }
        return 0;
    }
    case BI_IDENTITY: case BI_DIAGONAL: {
        int n;
        if (e->fn == BI_IDENTITY) {
            if (int_arg(c, e->a[0], &n, 0, "identity", "size")) return -1;
        } else {
            if (ev(c, e->a[0], &a)) return -1;
            n = a.dim[0];
        }
        if (mkarr(c, o, e->ty, 2, n, n, &v, &dv, e->loc)) return -1;
        for (size_t k = 0; k < (size_t)n * (size_t)n; k++) {
            v[k] = 0;
            if (dv) dv[k] = 0;
        }
        for (int k = 0; k < n; k++) {
            size_t at = (size_t)k * (size_t)n + (size_t)k;
            v[at] = e->fn == BI_IDENTITY ? 1 : a.v[k];
            if (dv && e->fn == BI_DIAGONAL) dv[at] = TAN(&a, (size_t)k);
        }
        return 0;
    }
    case BI_CROSS:
        if (ev(c, e->a[0], &a) || ev(c, e->a[1], &b)) return -1;
        if (a.dim[0] != 3 || b.dim[0] != 3) return fail(c, e->loc, "cross() needs two vectors of 3 elements");
        if (mkarr(c, o, e->ty, 1, 3, 0, &v, &dv, e->loc)) return -1;
        for (int k = 0; k < 3; k++) {
            int p = (k + 1) % 3, q = (k + 2) % 3;
            v[k] = a.v[p] * b.v[q] - a.v[q] * b.v[p];
            if (dv)
                dv[k] = TAN(&a, (size_t)p) * b.v[q] + a.v[p] * TAN(&b, (size_t)q) - TAN(&a, (size_t)q) * b.v[p] -
                        a.v[q] * TAN(&b, (size_t)p);
        }
        return 0;
    }
    return fail(c, e->loc, "unsupported function");
}

static NOINLINE int const_expr(const fx *e, uv *o)
{
    if (!e->nd) {
        scalar(o, e->ty, e->k, 0);
        return 0;
    }
    memset(o, 0, sizeof *o);
    o->ty = e->ty;
    o->nd = e->nd;
    o->dim[0] = e->dim[0];
    o->dim[1] = e->dim[1];
    o->v = e->data;
    return 0;
}

static NOINLINE int var_expr(rt *c, const fx *e, uv *o)
{
    const slot *s = &c->fr[e->fn];
    if (!s->set) return fail(c, e->loc, "'%s' is used before it is assigned", vname(c, e->fn));
    memset(o, 0, sizeof *o);
    o->ty = e->ty;
    o->nd = e->nd;
    if (e->nd) {
        o->dim[0] = s->dim[0];
        o->dim[1] = s->dim[1];
        o->v = s->v;
        o->dv = s->dv;
    } else {
        o->x = s->x;
        o->dx = s->dx;
    }
    return 0;
}

static NOINLINE int neg_expr(rt *c, const fx *e, uv *o)
{
    uv a;
    if (ev(c, e->a[0], &a)) return -1;
    if (!a.nd) {
        scalar(o, a.ty, -a.x, -a.dx);
        return 0;
    }
    double *v, *dv;
    if (mkarr(c, o, a.ty, a.nd, a.dim[0], a.dim[1], &v, &dv, e->loc)) return -1;
    for (size_t i = 0; i < count(&a); i++) {
        v[i] = -a.v[i];
        if (dv) dv[i] = -TAN(&a, i);
    }
    return 0;
}

static NOINLINE int not_expr(rt *c, const fx *e, uv *o)
{
    uv a;
    if (ev(c, e->a[0], &a)) return -1;
    scalar(o, UT_BOOL, a.x == 0, 0);
    return 0;
}

/* if c1 then a elseif c2 then b ... else z */
static NOINLINE int if_expr(rt *c, const fx *e, uv *o)
{
    int i = 0;
    for (; i + 1 < e->na; i += 2) {
        uv cond;
        if (ev(c, e->a[i], &cond)) return -1;
        if (cond.x != 0) break;
    }
    if (ev(c, e->a[i + 1 < e->na ? i + 1 : i], o)) return -1;
    o->ty = e->ty;
    return 0;
}

static int ev_node(rt *c, const fx *e, uv *o)
{
    switch ((fx_op)e->op) {
    case FX_CONST: return const_expr(e, o);
    case FX_VAR: return var_expr(c, e, o);
    case FX_INDEX: return index_expr(c, e, o);
    case FX_END: scalar(o, UT_INT, c->enddim, 0); return 0;
    case FX_NEG: return neg_expr(c, e, o);
    case FX_NOT: return not_expr(c, e, o);
    case FX_BIN: return chain(c, e, o);
    case FX_IF: return if_expr(c, e, o);
    case FX_ARRAY: return array_expr(c, e, o);
    case FX_MATRIX: return matrix_expr(c, e, o);
    case FX_RANGE: return range_expr(c, e, o);
    case FX_COMPREH: return comprehension(c, e, o);
    case FX_BUILTIN: return builtin(c, e, o);
    case FX_CALL: return call_outputs(c, e, o, 1);
    case FX_STR: case FX_COLON: break;
    }
    return fail(c, e->loc, "unsupported expression");
}

static int ev(rt *c, const fx *e, uv *o)
{
    if (++c->nest > MAX_NEST) {
        c->nest--;
        return fail(c, e->loc, "expressions and calls nested more than %d deep in one function evaluation", MAX_NEST);
    }
    int rc = ev_node(c, e, o);
    c->nest--;
    return rc;
}

/* ---- assignments ----------------------------------------------------------------- */

/* Room for n elements in a variable of flexible size. */
static void flex_reserve(rt *c, slot *s, int ty, size_t n)
{
    if (s->heap && s->cap >= n && (s->dv || !(c->ad && ty == UT_REAL))) return;
    size_t cap = n > 2 * s->cap ? n : 2 * s->cap;
    if (cap < 4) cap = 4;
    if (!s->heap) s->v = s->dv = NULL;
    s->v = fl_xrealloc(s->v, sizeof(double) * cap);
    if (c->ad && ty == UT_REAL) s->dv = fl_xrealloc(s->dv, sizeof(double) * cap);
    s->cap = cap;
    s->heap = 1;
}

static NOINLINE int assign_whole(rt *c, int k, const uv *val, fl_loc loc)
{
    slot *s = &c->fr[k];
    const uvar *var = &c->fn->vars[k];
    if (!var->nd) {
        s->x = val->x;
        s->dx = var->ty == UT_REAL ? val->dx : 0;
        s->set = 1;
        return 0;
    }
    if (val->v == s->v && s->v) { /* x := x */
        s->set = 1;
        return 0;
    }
    size_t n = count(val);
    int same = s->v && s->dim[0] == val->dim[0] && (var->nd == 1 || s->dim[1] == val->dim[1]);
    if (!same) {
        int fits = 1;
        for (int d = 0; d < var->nd; d++)
            if (s->fixdim[d] >= 0 && s->fixdim[d] != val->dim[d]) fits = 0;
        if (!var->flex || !fits) {
            char sv[32], sw[32];
            uv cur;
            memset(&cur, 0, sizeof cur);
            cur.nd = var->nd;
            cur.dim[0] = s->v ? s->dim[0] : s->fixdim[0];
            cur.dim[1] = s->v ? s->dim[1] : s->fixdim[1];
            shape_text(sv, sizeof sv, &cur);
            shape_text(sw, sizeof sw, val);
            return fail(c, loc, "cannot assign an array of size %s to '%s' of size %s", sw, var->name, sv);
        }
        flex_reserve(c, s, var->ty, n);
        s->dim[0] = val->dim[0];
        s->dim[1] = val->dim[1];
    }
    if (n) memcpy(s->v, val->v, sizeof(double) * n);
    if (s->dv) {
        for (size_t i = 0; i < n; i++) s->dv[i] = TAN(val, i);
    }
    s->set = 1;
    return 0;
}

/* x[subscripts] := val */
static NOINLINE int assign_sub(rt *c, const flv *lv, const uv *val, fl_loc loc)
{
    slot *s = &c->fr[lv->slot];
    const uvar *var = &c->fn->vars[lv->slot];
    if (!s->v)
        return fail(c, loc, "'%s' has no size yet: assign the whole array before its elements", var->name);
    isel sel[2];
    if (select_dims(c, lv->subs, lv->nsubs, var->nd, s->dim, sel, var->name)) return -1;
    int rd[2] = {1, 1}, rnd = 0;
    for (int k = 0; k < var->nd; k++)
        if (sel[k].kind != 1) rd[rnd++] = sel[k].n;
    for (int k = 0; k < rnd; k++)
        if (val->dim[k] != rd[k]) {
            char sw[32], ss[32];
            uv sh;
            memset(&sh, 0, sizeof sh);
            sh.nd = (unsigned char)rnd;
            sh.dim[0] = rd[0];
            sh.dim[1] = rd[1];
            shape_text(sw, sizeof sw, val);
            shape_text(ss, sizeof ss, &sh);
            return fail(c, loc, "cannot assign an array of size %s to %s elements of '%s'", sw, ss, var->name);
        }
    uv src = *val;
    if (val->nd && (val->v == s->v || (val->dv && val->dv == s->dv))) { /* x[p] := x: copy first */
        size_t n = count(val);
        double *v = aalloc(c, n, loc), *dv = val->dv ? aalloc(c, n, loc) : NULL;
        if (!v || (val->dv && !dv)) return -1;
        memcpy(v, val->v, sizeof(double) * n);
        if (dv) memcpy(dv, val->dv, sizeof(double) * n);
        src.v = v;
        src.dv = dv;
    }
    int cols = var->nd == 2 ? s->dim[1] : 1;
    int n1 = var->nd == 2 ? sel[1].n : 1;
    size_t m = 0;
    for (int i = 0; i < sel[0].n; i++)
        for (int j = 0; j < n1; j++, m++) {
            size_t at = (size_t)sel_at(&sel[0], i) * (size_t)cols + (size_t)(var->nd == 2 ? sel_at(&sel[1], j) : 0);
            s->v[at] = VAL(&src, m);
            if (s->dv) s->dv[at] = var->ty == UT_REAL ? TAN(&src, m) : 0;
        }
    s->set = 1;
    return 0;
}

static int assign(rt *c, const flv *lv, const uv *val)
{
    if (lv->slot < 0) return 0;
    if (lv->nsubs) return assign_sub(c, lv, val, lv->loc);
    return assign_whole(c, lv->slot, val, lv->loc);
}

/* ---- calls ---------------------------------------------------------------------- */

static int run_block(rt *c, const fblock *b);

/* Allocate the arrays of fixed size of a frame and check the sizes of the
 * inputs against their declarations. */
static int size_of(rt *c, const uvar *v, slot *s, int with_exprs)
{
    for (int d = 0; d < v->nd; d++) {
        s->fixdim[d] = -1;
        if (!v->dim[d] || !with_exprs) continue;
        uv n;
        if (ev(c, v->dim[d], &n)) return -1;
        if (!(n.x >= 0 && n.x <= FL_MAX_ARRAY))
            return fail(c, v->dim[d]->loc, "size %.0f of '%s' is out of range 0..%d", n.x, v->name, FL_MAX_ARRAY);
        s->fixdim[d] = (int)n.x;
    }
    return 0;
}

static int input_check(rt *c, const uvar *v, const slot *s, const ufn *f)
{
    size_t n = v->nd == 0 ? 1 : v->nd == 1 ? (size_t)s->dim[0] : (size_t)s->dim[0] * (size_t)s->dim[1];
    if (v->ty == UT_REAL) return 0;
    for (size_t i = 0; i < n; i++) {
        double x = v->nd ? s->v[i] : s->x;
        if (v->ty == UT_INT && (x != floor(x) || x < FL_INT_MIN || x > FL_INT_MAX))
            return fail(c, v->loc, "input '%s' of '%s' must be an Integer (got %g)", v->name, f->path, x);
        if (v->ty == UT_BOOL && x != 0 && x != 1)
            return fail(c, v->loc, "input '%s' of '%s' must be a Boolean (got %g)", v->name, f->path, x);
    }
    return 0;
}

/* Bind the inputs, take the defaults of those not given, then size and
 * bind the outputs and locals, in declaration order. */
static NOINLINE int enter(rt *c, const ufn *f, const ufarg *args, fl_loc at)
{
    slot *fr = c->fr;
    for (int k = 0; k < f->nin; k++) {
        const uvar *v = &f->vars[f->in[k]];
        slot *s = &fr[f->in[k]];
        if (!args[k].given) continue;
        if (args[k].nd != v->nd)
            return fail(c, at, "input '%s' of '%s' is %s, the argument %s", v->name, f->path,
                        v->nd == 0 ? "a scalar" : v->nd == 1 ? "a vector" : "a matrix",
                        args[k].nd == 0 ? "a scalar" : args[k].nd == 1 ? "a vector" : "a matrix");
        if (v->nd) {
            s->v = (double *)args[k].v; /* inputs are read-only: share the caller's array */
            s->dv = v->ty == UT_REAL && c->ad ? (double *)args[k].dv : NULL;
            s->dim[0] = args[k].dim[0];
            s->dim[1] = v->nd == 2 ? args[k].dim[1] : 0;
        } else {
            s->x = args[k].x;
            s->dx = v->ty == UT_REAL ? args[k].dx : 0;
        }
        s->set = 1;
        if (input_check(c, v, s, f)) return -1;
    }
    for (int k = 0; k < f->nin; k++) {
        if (args[k].given) continue;
        const uvar *v = &f->vars[f->in[k]];
        if (!v->bind) return fail(c, at, "missing input '%s' in the call of '%s'", v->name, f->path);
        uv val;
        slot *s = &fr[f->in[k]];
        if (ev(c, v->bind, &val)) return -1;
        if (v->nd) {
            s->v = (double *)val.v;
            s->dv = v->ty == UT_REAL && c->ad ? (double *)val.dv : NULL;
            s->dim[0] = val.dim[0];
            s->dim[1] = val.dim[1];
        } else {
            s->x = val.x;
            s->dx = v->ty == UT_REAL ? val.dx : 0;
        }
        s->set = 1;
    }
    for (int k = 0; k < f->nin; k++) {
        const uvar *v = &f->vars[f->in[k]];
        slot *s = &fr[f->in[k]];
        if (size_of(c, v, s, 1)) return -1;
        for (int d = 0; d < v->nd; d++)
            if (s->fixdim[d] >= 0 && s->fixdim[d] != s->dim[d])
                return fail(c, at, "input '%s' of '%s' has %d element%s%s, its declaration %d", v->name, f->path,
                            s->dim[d], s->dim[d] == 1 ? "" : "s", v->nd == 2 ? (d ? " in dimension 2" : " in dimension 1") : "",
                            s->fixdim[d]);
    }
    for (int k = 0; k < f->nvars; k++) {
        const uvar *v = &f->vars[k];
        slot *s = &fr[k];
        if (v->role == UR_INPUT || v->role == UR_ITER) continue;
        if (size_of(c, v, s, 1)) return -1;
        int fixed = 1;
        for (int d = 0; d < v->nd; d++)
            if (s->fixdim[d] < 0) fixed = 0;
        if (v->nd && fixed) {
            uv tmp;
            double *a, *da;
            if (mkarr(c, &tmp, v->ty, v->nd, s->fixdim[0], s->fixdim[1], &a, &da, v->loc)) return -1;
            size_t n = count(&tmp);
            memset(a, 0, sizeof(double) * n);
            if (da) memset(da, 0, sizeof(double) * n);
            s->v = a;
            s->dv = da;
            s->dim[0] = tmp.dim[0];
            s->dim[1] = tmp.dim[1];
            if (n == 0) s->set = 1; /* an empty array has no element to assign */
        }
        if (v->bind) {
            uv val;
            if (ev(c, v->bind, &val) || assign_whole(c, k, &val, v->bind->loc)) return -1;
        }
    }
    return 0;
}

static void free_heap(const ufn *f, slot *fr)
{
    for (int k = 0; k < f->nvars; k++)
        if (fr[k].heap) {
            free(fr[k].v);
            free(fr[k].dv);
            fr[k].heap = 0;
        }
}

/* A function with a C body (func_native.c): its flat outputs become the
 * outputs of the call, scalars or arrays as declared. */
static NOINLINE int native_invoke(rt *c, const ufn *f, const ufarg *args, uv *outs, int nouts, fl_loc at)
{
    double y[FL_NATIVE_MAXOUT], dy[FL_NATIVE_MAXOUT];
    char msg[sizeof c->err->msg];
    if (fl_native_run(c->r, f->native, args, f->nin, c->ad, y, dy, msg, sizeof msg) < 0)
        return fail(c, at, "%s", msg);
    int off = 0;
    for (int k = 0; k < nouts && k < f->nout; k++) {
        const uvar *v = &f->vars[f->out[k]];
        uv *o = &outs[k];
        memset(o, 0, sizeof *o);
        o->ty = v->ty;
        o->nd = v->nd;
        if (!v->nd) {
            o->x = y[off];
            o->dx = c->ad ? dy[off] : 0;
            off++;
            continue;
        }
        o->dim[0] = v->kdim[0];
        o->dim[1] = v->nd == 2 ? v->kdim[1] : 0;
        size_t n = count(o);
        double *vv = aalloc(c, n, at), *dv = NULL;
        if (!vv || (c->ad && !(dv = aalloc(c, n, at)))) return -1;
        for (size_t i = 0; i < n; i++) {
            vv[i] = y[off + (int)i];
            if (dv) dv[i] = dy[off + (int)i];
        }
        o->v = vv;
        o->dv = dv;
        off += (int)n;
    }
    return 0;
}

/* Run f on args; its first nouts outputs into outs (arrays in the
 * caller's part of the arena). */
static NOINLINE int invoke(rt *c, const ufn *f, const ufarg *args, uv *outs, int nouts, fl_loc at)
{
    if (f->state != UF_READY) return fail(c, at, "function '%s' has errors", f->path);
    if (c->depth >= FL_UFUNC_MAX_DEPTH)
        return fail(c, at, "calls nested more than %d deep (endless recursion in '%s'?)", FL_UFUNC_MAX_DEPTH, f->path);
    if (++c->calls > FL_UFUNC_MAX_CALLS) {
        fail(c, at, "more than %lld function calls in one function evaluation", (long long)FL_UFUNC_MAX_CALLS);
        c->err->fatal = 1;
        return -1;
    }
    if (f->native) return native_invoke(c, f, args, outs, nouts, at);
    amark m0 = mark(c);
    slot *fr = abytes(c, sizeof(slot) * (size_t)(f->nvars ? f->nvars : 1), at);
    if (!fr) return -1;
    memset(fr, 0, sizeof(slot) * (size_t)f->nvars);
    slot *saved = c->fr;
    const ufn *savedf = c->fn;
    c->fr = fr;
    c->fn = f;
    c->depth++;
    int rc = enter(c, f, args, at);
    if (!rc) rc = run_block(c, &f->body) < 0 ? -1 : 0;
    for (int k = 0; k < f->nout && !rc; k++)
        if (!fr[f->out[k]].set)
            rc = fail(c, f->vars[f->out[k]].loc, "function '%s' returned without assigning its output '%s'", f->path,
                      f->vars[f->out[k]].name);
    /* outputs: scalars by value; arrays saved across the release of the frame */
    double *keep = NULL;
    size_t nkeep = 0;
    if (!rc) {
        for (int k = 0; k < nouts; k++) {
            const slot *s = &fr[f->out[k]];
            const uvar *v = &f->vars[f->out[k]];
            if (v->nd) nkeep += 2 * (v->nd == 1 ? (size_t)s->dim[0] : (size_t)s->dim[0] * (size_t)s->dim[1]);
        }
        if (nkeep) keep = fl_xmalloc(sizeof(double) * nkeep);
        size_t off = 0;
        for (int k = 0; k < nouts; k++) {
            const slot *s = &fr[f->out[k]];
            const uvar *v = &f->vars[f->out[k]];
            uv *o = &outs[k];
            memset(o, 0, sizeof *o);
            o->ty = v->ty;
            o->nd = v->nd;
            if (!v->nd) {
                o->x = s->x;
                o->dx = s->dx;
                continue;
            }
            o->dim[0] = s->dim[0];
            o->dim[1] = s->dim[1];
            size_t n = count(o);
            memcpy(keep + off, s->v, sizeof(double) * n);
            for (size_t i = 0; i < n; i++) keep[off + n + i] = s->dv ? s->dv[i] : 0;
            off += 2 * n;
        }
    }
    free_heap(f, fr);
    c->fr = saved;
    c->fn = savedf;
    c->depth--;
    release(c, m0);
    if (keep) {
        size_t off = 0;
        for (int k = 0; k < nouts && !rc; k++) {
            uv *o = &outs[k];
            if (!o->nd) continue;
            size_t n = count(o);
            double *v = aalloc(c, n, at), *dv = NULL;
            if (!v) rc = -1;
            if (!rc && c->ad && o->ty == UT_REAL && !(dv = aalloc(c, n, at))) rc = -1;
            if (rc) break;
            memcpy(v, keep + off, sizeof(double) * n);
            if (dv) memcpy(dv, keep + off + n, sizeof(double) * n);
            o->v = v;
            o->dv = dv;
            off += 2 * n;
        }
        free(keep);
    }
    return rc;
}

static NOINLINE int call_outputs(rt *c, const fx *e, uv *outs, int nouts)
{
    const ufn *g = c->r->fns.v[e->fn];
    ufarg *args = abytes(c, sizeof(ufarg) * (size_t)(g->nin ? g->nin : 1), e->loc);
    if (!args) return -1;
    for (int k = 0; k < g->nin; k++) {
        memset(&args[k], 0, sizeof args[k]);
        if (!e->a[k]) continue;
        uv v;
        if (ev(c, e->a[k], &v)) return -1;
        args[k].given = 1;
        args[k].ty = v.ty;
        args[k].nd = v.nd;
        args[k].dim[0] = v.dim[0];
        args[k].dim[1] = v.dim[1];
        args[k].x = v.x;
        args[k].dx = v.dx;
        args[k].v = v.v;
        args[k].dv = v.dv;
    }
    return invoke(c, g, args, outs, nouts, e->loc);
}

/* ---- statements ---------------------------------------------------------------- */

static NOINLINE int assert_stmt(rt *c, const fs *st)
{
    uv cond;
    if (ev(c, st->rhs, &cond)) return -1;
    if (cond.x != 0 || st->warning) return 0;
    fl_buf b = {0};
    for (int i = 0; i < st->nmsg; i++) {
        const fx *p = st->msg[i];
        if (p->op == FX_STR) {
            fl_buf_add(&b, p->s);
            continue;
        }
        uv x;
        if (ev(c, p->a[0], &x)) {
            fl_buf_free(&b);
            return -1;
        }
        if (x.ty == UT_BOOL) fl_buf_add(&b, x.x != 0 ? "true" : "false");
        else if (x.ty == UT_INT) fl_buf_printf(&b, "%.0f", x.x);
        else fl_buf_printf(&b, "%g", x.x);
    }
    fail(c, st->loc, "assertion failed in function '%s': %s", c->fn->path, b.s ? b.s : "");
    fl_buf_free(&b);
    return -1;
}

static NOINLINE int for_stmt(rt *c, const fs *st)
{
    const fx *r = st->rhs;
    int ity = c->fn->vars[st->iter].ty;
    if (r->op == FX_RANGE) { /* no array for a:b */
        uv a, s;
        double n;
        if (range_bounds(c, r, &a, &s, &n)) return -1;
        for (double i = 0; i < n; i++) {
            if (loop_step(c, "for loop", st->loc)) return -1;
            set_iter(c, st->iter, ity, a.x + i * s.x, a.dx + i * s.dx);
            int flow = run_block(c, &st->body);
            if (flow < 0) return -1;
            if (flow == FLOW_BREAK) break;
            if (flow == FLOW_RETURN) return FLOW_RETURN;
        }
        return 0;
    }
    uv v;
    if (ev(c, r, &v)) return -1;
    if (r->op == FX_VAR) { /* the body may assign to the variable: iterate over its values before the loop */
        size_t n = count(&v);
        double *x = aalloc(c, n, st->loc), *dx = v.dv ? aalloc(c, n, st->loc) : NULL;
        if (!x || (v.dv && !dx)) return -1;
        memcpy(x, v.v, sizeof(double) * n);
        if (dx) memcpy(dx, v.dv, sizeof(double) * n);
        v.v = x;
        v.dv = dx;
    }
    for (int i = 0; i < v.dim[0]; i++) {
        if (loop_step(c, "for loop", st->loc)) return -1;
        set_iter(c, st->iter, ity, v.v[i], TAN(&v, (size_t)i));
        int flow = run_block(c, &st->body);
        if (flow < 0) return -1;
        if (flow == FLOW_BREAK) break;
        if (flow == FLOW_RETURN) return FLOW_RETURN;
    }
    return 0;
}

static NOINLINE int run_stmt(rt *c, const fs *st)
{
    switch ((fs_kind)st->kind) {
    case FS_ASSIGN: {
        if (st->nlhs > 1) {
            uv *outs = abytes(c, sizeof(uv) * (size_t)st->nlhs, st->loc);
            if (!outs || call_outputs(c, st->rhs, outs, st->nlhs)) return -1;
            for (int i = 0; i < st->nlhs; i++)
                if (assign(c, &st->lhs[i], &outs[i])) return -1;
            return 0;
        }
        uv v;
        if (ev(c, st->rhs, &v)) return -1;
        return assign(c, &st->lhs[0], &v);
    }
    case FS_CALL: return call_outputs(c, st->rhs, NULL, 0);
    case FS_IF:
        for (int i = 0; i < st->nbr; i++) {
            if (st->conds[i]) {
                uv cond;
                if (ev(c, st->conds[i], &cond)) return -1;
                if (cond.x == 0) continue;
            }
            return run_block(c, &st->blocks[i]);
        }
        return 0;
    case FS_FOR: return for_stmt(c, st);
    case FS_WHILE:
        for (;;) {
            amark m = mark(c);
            uv cond;
            if (ev(c, st->conds[0], &cond)) return -1;
            release(c, m);
            if (cond.x == 0) return 0;
            if (loop_step(c, "while loop", st->loc)) return -1;
            int flow = run_block(c, &st->blocks[0]);
            if (flow < 0) return -1;
            if (flow == FLOW_BREAK) return 0;
            if (flow == FLOW_RETURN) return FLOW_RETURN;
        }
    case FS_BREAK: return FLOW_BREAK;
    case FS_RETURN: return FLOW_RETURN;
    case FS_ASSERT: return assert_stmt(c, st);
    }
    return fail(c, st->loc, "unsupported statement");
}

static int run_block(rt *c, const fblock *b)
{
    for (int i = 0; i < b->n; i++) {
        amark m = mark(c);
        if (++c->nest > MAX_NEST) {
            c->nest--;
            return fail(c, b->st[i].loc, "expressions and calls nested more than %d deep in one function evaluation",
                        MAX_NEST);
        }
        int flow = run_stmt(c, &b->st[i]);
        c->nest--;
        release(c, m);
        if (flow) return flow;
    }
    return FLOW_NORMAL;
}

/* ---- entry --------------------------------------------------------------------- */

int fl_ufunc_run(const fl_ufuncs *r, const ufn *f, const ufarg *args, int ad, ufres *res, int nres,
                 fl_ufunc_err *err)
{
    double stackmem[1024];
    achunk first = {NULL, sizeof stackmem / sizeof stackmem[0], 0, stackmem};
    rt c;
    memset(&c, 0, sizeof c);
    c.r = r;
    c.ad = ad;
    c.cur = &first;
    c.err = err;
    memset(err, 0, sizeof *err);
    uv outs[8];
    uv *o = nres <= 8 ? outs : fl_xmalloc(sizeof(uv) * (size_t)nres);
    int rc = invoke(&c, f, args, o, nres, f->loc);
    for (int k = 0; k < nres; k++) {
        ufres *x = &res[k];
        memset(x, 0, sizeof *x);
        if (rc) continue;
        x->ty = o[k].ty;
        x->nd = o[k].nd;
        x->dim[0] = o[k].dim[0];
        x->dim[1] = o[k].dim[1];
        x->x = o[k].x;
        x->dx = o[k].dx;
        if (o[k].nd) {
            size_t n = count(&o[k]);
            x->v = fl_xmalloc(sizeof(double) * (n ? n : 1));
            x->dv = fl_xmalloc(sizeof(double) * (n ? n : 1));
            if (n) memcpy(x->v, o[k].v, sizeof(double) * n);
            for (size_t i = 0; i < n; i++) x->dv[i] = TAN(&o[k], i);
        }
    }
    if (o != outs) free(o);
    for (achunk *k = first.next; k;) {
        achunk *nx = k->next;
        free(k);
        k = nx;
    }
    return rc;
}
