/* eval.c - evaluates parameter expressions: arithmetic, relations, if,
 * arrays and matrices, subscripts, built-in functions, Modelica.Constants
 * and enumeration literals. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/functions.h"
#include "parse/lexer.h"
#include "eval.h"

typedef struct constant {
    const char *path;
    double value;
} constant;

static const constant constants[] = {
    {"Modelica.Constants.pi", 3.14159265358979323846},
    {"Modelica.Constants.e", 2.71828182845904523536},
    {"Modelica.Constants.D2R", 3.14159265358979323846 / 180.0},
    {"Modelica.Constants.R2D", 180.0 / 3.14159265358979323846},
    {"Modelica.Constants.g_n", 9.80665},
    {"Modelica.Constants.eps", 2.220446049250313e-16},
    {"Modelica.Constants.small", 2.2250738585072014e-308},
    {"Modelica.Constants.inf", 1.7976931348623157e308},
    {"Modelica.Constants.G", 6.67430e-11},
    {"Modelica.Constants.T_zero", -273.15},
    {"Modelica.Electrical.Machines.Thermal.Constants.alpha20Copper", 3.920e-3},
    {"Modelica.Electrical.Machines.Thermal.Constants.alpha20Aluminium", 4.037e-3},
};

static int lookup_constant(const char *path, fl_value *out)
{
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++) {
        if (strcmp(constants[i].path, path) == 0) {
            *out = fl_value_real(constants[i].value);
            return 1;
        }
    }
    return 0;
}

int fl_eval_constant(const char *path, fl_value *out)
{
    return lookup_constant(path, out);
}

static int fail(fl_diag *d, fl_loc loc, const char *fmt, const char *arg)
{
    fl_err(d, loc, fmt, arg);
    return -1;
}

static int as_number(const fl_value *v, double *x)
{
    if (!fl_value_is_number(v)) return 0;
    *x = v->num;
    return 1;
}

static fl_value make_array(int ndims, int d0, int d1)
{
    fl_value v;
    memset(&v, 0, sizeof v);
    v.kind = V_ARRAY;
    v.ndims = ndims;
    v.dim[0] = d0;
    v.dim[1] = ndims == 2 ? d1 : 0;
    size_t n = ndims == 2 ? (size_t)d0 * (size_t)d1 : (size_t)d0;
    v.data = fl_xcalloc(n ? n : 1, sizeof(double));
    return v;
}

/* Resolve a name that is not a parameter: constants and enumeration
 * literals, written relative to the scope (through env->resolve). */
static int eval_global(const fl_ref *r, const fl_eval_env *env, fl_value *out)
{
    fl_buf b = {0};
    for (int i = 0; i < r->n; i++) {
        if (r->parts[i].nsubs) {
            fl_buf_free(&b);
            return 0;
        }
        if (i) fl_buf_addc(&b, '.');
        fl_buf_add(&b, r->parts[i].name);
    }
    char *written = fl_buf_take(&b);
    int found = 0;
    /* the whole name, then "prefix" + last part */
    const char *full = env && env->resolve ? env->resolve(env->ctx, written) : NULL;
    if (full && lookup_constant(full, out)) found = 1;
    if (!found && lookup_constant(written, out)) found = 1;
    if (!found && fl_enum_parse(written, out)) found = 1;
    if (!found && r->n >= 2) {
        char *dot = strrchr(written, '.');
        *dot = '\0';
        const char *prefix = env && env->resolve ? env->resolve(env->ctx, written) : NULL;
        if (prefix) {
            char *cand = fl_xsprintf("%s.%s", prefix, dot + 1);
            found = lookup_constant(cand, out) || fl_enum_parse(cand, out);
            free(cand);
        }
    }
    free(written);
    return found;
}

static int subscript_index(const fl_expr *s, const fl_eval_env *env, int extent, int *idx, fl_diag *d)
{
    if (s->kind == EX_END) {
        *idx = extent;
        return 0;
    }
    fl_value v;
    if (fl_eval(s, env, &v, d)) return -1;
    double x;
    if (!as_number(&v, &x) || x != floor(x)) {
        fl_value_free(&v);
        return fail(d, s->loc, "array index must be an integer%s", "");
    }
    fl_value_free(&v);
    if (x < 1 || x > extent) {
        fl_err(d, s->loc, "array index %g out of range 1..%d", x, extent);
        return -1;
    }
    *idx = (int)x;
    return 0;
}

/* a[i], m[i,j], m[:,j], m[i,:] */
static int apply_subscripts(fl_value *v, fl_expr **subs, int nsubs, const fl_eval_env *env, fl_loc loc, fl_diag *d)
{
    if (v->kind != V_ARRAY) {
        fl_value_free(v);
        return fail(d, loc, "subscript applied to a value that is not an array%s", "");
    }
    if (nsubs != v->ndims) {
        fl_err(d, loc, "%d subscripts for an array with %d dimensions", nsubs, v->ndims);
        fl_value_free(v);
        return -1;
    }
    if (v->ndims == 1) {
        if (subs[0]->kind == EX_COLON) return 0;
        int i;
        if (subscript_index(subs[0], env, v->dim[0], &i, d)) {
            fl_value_free(v);
            return -1;
        }
        double x = v->data[i - 1];
        fl_value_free(v);
        *v = fl_value_real(x);
        return 0;
    }
    int rows = v->dim[0], cols = v->dim[1];
    int i = 0, j = 0;
    if (subs[0]->kind != EX_COLON && subscript_index(subs[0], env, rows, &i, d)) goto err;
    if (subs[1]->kind != EX_COLON && subscript_index(subs[1], env, cols, &j, d)) goto err;
    fl_value r;
    if (i && j) {
        r = fl_value_real(v->data[(i - 1) * cols + (j - 1)]);
    } else if (i) {
        r = make_array(1, cols, 0);
        for (int k = 0; k < cols; k++) r.data[k] = v->data[(i - 1) * cols + k];
    } else if (j) {
        r = make_array(1, rows, 0);
        for (int k = 0; k < rows; k++) r.data[k] = v->data[k * cols + (j - 1)];
    } else {
        return 0;
    }
    fl_value_free(v);
    *v = r;
    return 0;
err:
    fl_value_free(v);
    return -1;
}

/* The enumeration type named by all but the last part of r (a misspelt
 * literal: Smoothness.LinearSegmnts), NULL if there is none. */
static const fl_enum_type *enum_of_prefix(const fl_ref *r, const fl_eval_env *env)
{
    if (r->n < 2) return NULL;
    fl_buf b = {0};
    for (int i = 0; i + 1 < r->n; i++) {
        if (r->parts[i].nsubs) {
            fl_buf_free(&b);
            return NULL;
        }
        if (i) fl_buf_addc(&b, '.');
        fl_buf_add(&b, r->parts[i].name);
    }
    const fl_enum_type *t = fl_enum_find(b.s);
    if (!t && env && env->resolve) t = fl_enum_find(env->resolve(env->ctx, b.s));
    fl_buf_free(&b);
    return t;
}

static int eval_ref(const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d)
{
    /* Try the longest prefix without subscripts as a parameter; subscripts
     * only on the last part are supported (table[1, 2]). */
    fl_ref plain = e->ref;
    fl_expr **subs = NULL;
    int nsubs = 0;
    if (plain.n && plain.parts[plain.n - 1].nsubs) {
        subs = plain.parts[plain.n - 1].subs;
        nsubs = plain.parts[plain.n - 1].nsubs;
    }
    for (int i = 0; i + 1 < plain.n; i++) {
        if (plain.parts[i].nsubs) {
            char *s = fl_ref_str(&e->ref);
            fl_err(d, e->loc, "subscripts inside a name ('%s') are not supported", s);
            free(s);
            return -1;
        }
    }
    /* look up the name with the subscripts of the last part removed */
    fl_ref_part last = plain.parts[plain.n - 1];
    fl_ref_part bare = {last.name, NULL, 0};
    fl_ref_part *parts = fl_xmalloc(sizeof(fl_ref_part) * (size_t)plain.n);
    memcpy(parts, plain.parts, sizeof(fl_ref_part) * (size_t)plain.n);
    parts[plain.n - 1] = bare;
    fl_ref name = {parts, plain.n};
    int r = env && env->lookup ? env->lookup(env->ctx, &name, e->loc, out, d) : 0;
    if (r == 0) r = eval_global(&name, env, out);
    free(parts);
    if (r < 0) return -1;
    if (r == 0 && enum_of_prefix(&e->ref, env)) {
        fl_enum_unknown_literal(enum_of_prefix(&e->ref, env), e->ref.parts[e->ref.n - 1].name, e->loc, d);
        return -1;
    }
    if (r == 0) {
        char *s = fl_ref_str(&e->ref);
        fl_err(d, e->loc, "unknown name '%s'", s);
        free(s);
        return -1;
    }
    if (nsubs) return apply_subscripts(out, subs, nsubs, env, e->loc, d);
    return 0;
}

/* {a, b, ...}: scalars give a vector; vectors of equal length give a matrix. */
static int eval_array(const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d)
{
    int n = e->nargs;
    fl_value *el = fl_xcalloc((size_t)(n ? n : 1), sizeof *el);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) rc = fl_eval(e->args[i], env, &el[i], d);
    if (!rc) {
        int all_scalar = 1, all_vec = 1;
        for (int i = 0; i < n; i++) {
            if (!fl_value_is_number(&el[i])) all_scalar = 0;
            if (!(el[i].kind == V_ARRAY && el[i].ndims == 1 && el[i].dim[0] == el[0].dim[0])) all_vec = 0;
        }
        if (n && all_vec && !all_scalar) {
            *out = make_array(2, n, el[0].dim[0]);
            for (int i = 0; i < n; i++)
                memcpy(out->data + (size_t)i * (size_t)el[0].dim[0], el[i].data, sizeof(double) * (size_t)el[0].dim[0]);
        } else if (all_scalar) {
            *out = make_array(1, n, 0);
            for (int i = 0; i < n; i++) out->data[i] = el[i].num;
        } else {
            fl_err(d, e->loc, "array elements must all be numbers, or vectors of one length");
            rc = -1;
        }
    }
    for (int i = 0; i < n; i++) fl_value_free(&el[i]);
    free(el);
    return rc;
}

/* [a, b; c, d] as Modelica builds it: each element a block (a number 1 x 1,
 * a vector a column, a matrix itself), the blocks of a row side by side
 * (of one height), the rows one below the other (of one width):
 * [t[1], 0; t, {1, 0, 1}] is a table of two columns. */
static int eval_matrix(const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d)
{
    int nrows = e->nargs, cols = -1, height = 0, rc = 0;
    fl_value **blocks = fl_xcalloc((size_t)(nrows ? nrows : 1), sizeof(fl_value *));
    int *hrow = fl_xcalloc((size_t)(nrows ? nrows : 1), sizeof(int));
    for (int i = 0; i < nrows && !rc; i++) {
        const fl_expr *row = e->args[i];
        blocks[i] = fl_xcalloc((size_t)(row->nargs ? row->nargs : 1), sizeof(fl_value));
        int w = 0, h = -1;
        for (int j = 0; j < row->nargs && !rc; j++) {
            fl_value *v = &blocks[i][j];
            if (fl_eval(row->args[j], env, v, d)) {
                memset(v, 0, sizeof *v); /* nothing of it to free */
                rc = -1;
                break;
            }
            int bh, bw;
            if (fl_value_is_number(v)) {
                bh = bw = 1;
            } else if (v->kind == V_ARRAY && v->ndims == 1) {
                bh = v->dim[0];
                bw = 1;
            } else if (v->kind == V_ARRAY && v->ndims == 2) {
                bh = v->dim[0];
                bw = v->dim[1];
            } else {
                rc = fail(d, row->args[j]->loc, "matrix elements must be numbers%s", "");
                break;
            }
            if (h >= 0 && bh != h) {
                fl_err(d, row->args[j]->loc, "the elements of matrix row %d have different numbers of rows (%d and %d)",
                       i + 1, h, bh);
                rc = -1;
                break;
            }
            h = bh;
            w += bw;
        }
        if (rc) break;
        if (cols >= 0 && w != cols) {
            fl_err(d, row->loc, "matrix row %d has %d columns, row 1 has %d", i + 1, w, cols);
            rc = -1;
            break;
        }
        cols = w;
        hrow[i] = h < 0 ? 0 : h;
        height += hrow[i];
    }
    if (!rc) {
        *out = make_array(2, height, cols < 0 ? 0 : cols);
        int r0 = 0;
        for (int i = 0; i < nrows; i++) {
            int c0 = 0;
            for (int j = 0; j < e->args[i]->nargs; j++) {
                const fl_value *v = &blocks[i][j];
                int bw = v->kind == V_ARRAY && v->ndims == 2 ? v->dim[1] : 1;
                for (int r = 0; r < hrow[i]; r++)
                    for (int c = 0; c < bw; c++)
                        out->data[(size_t)(r0 + r) * (size_t)cols + (size_t)(c0 + c)] =
                            v->kind == V_ARRAY ? v->data[(size_t)r * (size_t)bw + (size_t)c] : v->num;
                c0 += bw;
            }
            r0 += hrow[i];
        }
    }
    for (int i = 0; i < nrows; i++) {
        if (!blocks[i]) continue;
        for (int j = 0; j < e->args[i]->nargs; j++) fl_value_free(&blocks[i][j]);
        free(blocks[i]);
    }
    free(blocks);
    free(hrow);
    return rc;
}

static int binop_scalar(int op, double a, double b, fl_value *out, fl_loc loc, fl_diag *d)
{
    double r;
    switch (op) {
    case T_PLUS: r = a + b; break;
    case T_MINUS: r = a - b; break;
    case T_STAR:
    case T_DSTAR: r = a * b; break;
    case T_SLASH:
    case T_DSLASH:
        if (b == 0) return fail(d, loc, "division by zero%s", "");
        r = a / b;
        break;
    case T_CARET:
    case T_DCARET: r = pow(a, b); break;
    case T_LT: *out = fl_value_bool(a < b); return 0;
    case T_LE: *out = fl_value_bool(a <= b); return 0;
    case T_GT: *out = fl_value_bool(a > b); return 0;
    case T_GE: *out = fl_value_bool(a >= b); return 0;
    case T_EQEQ: *out = fl_value_bool(a == b); return 0;
    case T_NEQ: *out = fl_value_bool(a != b); return 0;
    case K_AND: *out = fl_value_bool(a != 0 && b != 0); return 0;
    case K_OR: *out = fl_value_bool(a != 0 || b != 0); return 0;
    default: return fail(d, loc, "unsupported operator%s", "");
    }
    if (!isfinite(r)) return fail(d, loc, "arithmetic result is not a finite number%s", "");
    *out = fl_value_real(r);
    return 0;
}

/* a op b for the operator of e; consumes a and b. */
static int combine(const fl_expr *e, fl_value a, fl_value b, fl_value *out, fl_diag *d)
{
    int rc = 0;
    int is_logic = e->op == K_AND || e->op == K_OR;
    if (fl_value_is_number(&a) && fl_value_is_number(&b)) {
        if (is_logic && (a.kind != V_BOOL || b.kind != V_BOOL)) {
            rc = fail(d, e->loc, "'and'/'or' need Boolean operands%s", "");
        } else {
            rc = binop_scalar(e->op, a.num, b.num, out, e->loc, d);
            if (!rc && out->kind == V_REAL && a.kind == V_INT && b.kind == V_INT && e->op != T_SLASH &&
                e->op != T_CARET && e->op != T_DSLASH && e->op != T_DCARET)
                out->kind = V_INT;
        }
    } else if (a.kind == V_ENUM && b.kind == V_ENUM && (e->op == T_EQEQ || e->op == T_NEQ)) {
        int eq = a.enum_type == b.enum_type && a.num == b.num;
        *out = fl_value_bool(e->op == T_EQEQ ? eq : !eq);
    } else if ((a.kind == V_ARRAY || b.kind == V_ARRAY) &&
               (e->op == T_PLUS || e->op == T_MINUS || e->op == T_STAR || e->op == T_SLASH || e->op == T_DSTAR ||
                e->op == T_DSLASH || e->op == T_DCARET || e->op == T_DPLUS || e->op == T_DMINUS)) {
        /* element-wise with broadcasting of scalars (+,- need equal shapes) */
        const fl_value *arr = a.kind == V_ARRAY ? &a : &b;
        int shape_ok = 1;
        int ew = e->op == T_DSTAR || e->op == T_DSLASH || e->op == T_DCARET;
        if (a.kind == V_ARRAY && b.kind == V_ARRAY) {
            shape_ok = a.ndims == b.ndims && a.dim[0] == b.dim[0] && a.dim[1] == b.dim[1] &&
                       ((e->op != T_STAR && e->op != T_SLASH) || ew);
        } else if (!ew && ((e->op == T_PLUS || e->op == T_MINUS) || (e->op == T_SLASH && b.kind == V_ARRAY))) {
            shape_ok = 0;
        }
        if (!shape_ok || (!fl_value_is_number(&a) && a.kind != V_ARRAY) ||
            (!fl_value_is_number(&b) && b.kind != V_ARRAY)) {
            rc = fail(d, e->loc, "unsupported array operation (only element-wise +, -, and scaling by a number)%s", "");
        } else {
            *out = make_array(arr->ndims, arr->dim[0], arr->dim[1]);
            size_t n = fl_value_count(arr);
            for (size_t i = 0; i < n && !rc; i++) {
                double x = a.kind == V_ARRAY ? a.data[i] : a.num;
                double y = b.kind == V_ARRAY ? b.data[i] : b.num;
                fl_value r;
                memset(&r, 0, sizeof r);
                rc = binop_scalar(e->op, x, y, &r, e->loc, d);
                out->data[i] = r.num;
            }
            if (rc) fl_value_free(out);
        }
    } else {
        fl_err(d, e->loc, "operands of this operator must be numbers (found %s and %s)",
               fl_vkind_name(a.kind), fl_vkind_name(b.kind));
        rc = -1;
    }
    fl_value_free(&a);
    fl_value_free(&b);
    return rc;
}

/* A chain a op b op c ... is a left-deep tree as long as the text: its
 * left spine is walked by a loop, operands are evaluated left to right. */
static int eval_binary(const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d)
{
    const fl_expr *small[8];
    const fl_expr **spine = small;
    size_t n = 0, cap = sizeof small / sizeof small[0];
    const fl_expr *x = e;
    for (; x->kind == EX_BINARY; x = x->a) {
        if (n == cap) {
            cap *= 2;
            if (spine == small) {
                spine = fl_xmalloc(cap * sizeof *spine);
                memcpy(spine, small, sizeof small);
            } else {
                spine = fl_xrealloc(spine, cap * sizeof *spine);
            }
        }
        spine[n++] = x;
    }
    fl_value acc;
    int rc = fl_eval(x, env, &acc, d);
    while (!rc && n) {
        const fl_expr *y = spine[--n];
        fl_value b, r;
        if (fl_eval(y->b, env, &b, d)) {
            fl_value_free(&acc);
            rc = -1;
            break;
        }
        memset(&r, 0, sizeof r);
        rc = combine(y, acc, b, &r, d);
        acc = r;
    }
    if (spine != small) free(spine);
    if (!rc) *out = acc;
    return rc;
}

static int eval_range(const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d)
{
    fl_value a, b, c;
    memset(&b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    int rc = fl_eval(e->a, env, &a, d);
    if (!rc) rc = fl_eval(e->b, env, &b, d);
    if (!rc && e->c) rc = fl_eval(e->c, env, &c, d);
    int ok = !rc && fl_value_is_number(&a) && fl_value_is_number(&b) && (!e->c || fl_value_is_number(&c));
    double step = e->c ? c.num : 1, lo = a.num, hi = b.num;
    fl_value_free(&a);
    fl_value_free(&b);
    fl_value_free(&c);
    if (rc) return -1;
    if (!ok || step == 0)
        return fail(d, e->loc, "range bounds must be numbers and the step non-zero%s", "");
    double n = floor((hi - lo) / step + 1e-10) + 1;
    if (n < 0) n = 0;
    if (!(n <= FL_MAX_ARRAY)) return fail(d, e->loc, "range longer than " FL_MAX_ARRAY_TEXT " elements%s", "");
    *out = make_array(1, (int)n, 0);
    for (int i = 0; i < (int)n; i++) out->data[i] = lo + i * step;
    return 0;
}

/* The iterators of a comprehension, bound while its body is evaluated:
 * names resolve here first, then in the enclosing scope. */
typedef struct iter_scope {
    const fl_expr *e;   /* the comprehension */
    const double *val;  /* current value of each iterator */
    const fl_eval_env *outer;
} iter_scope;

static int iter_lookup(void *ctx, const fl_ref *ref, fl_loc loc, fl_value *out, fl_diag *d)
{
    iter_scope *s = ctx;
    if (ref->n == 1 && !ref->parts[0].nsubs)
        for (int i = 0; i < s->e->nargs; i++)
            if (strcmp(s->e->argnames[i], ref->parts[0].name) == 0) {
                *out = fl_value_real(s->val[i]);
                out->kind = V_INT;
                return 1;
            }
    return s->outer && s->outer->lookup ? s->outer->lookup(s->outer->ctx, ref, loc, out, d) : 0;
}

static const char *iter_resolve(void *ctx, const char *written)
{
    iter_scope *s = ctx;
    return s->outer && s->outer->resolve ? s->outer->resolve(s->outer->ctx, written) : NULL;
}

/* The hook for user functions: a scope around the caller's environment
 * that forwards names to it. */
typedef struct call_scope {
    const fl_eval_env *outer;
    fl_call_fn call;
    void *call_ctx;
} call_scope;

static int call_lookup(void *ctx, const fl_ref *ref, fl_loc loc, fl_value *out, fl_diag *d)
{
    call_scope *s = ctx;
    return s->outer && s->outer->lookup ? s->outer->lookup(s->outer->ctx, ref, loc, out, d) : 0;
}

static const char *call_resolve(void *ctx, const char *written)
{
    call_scope *s = ctx;
    return s->outer && s->outer->resolve ? s->outer->resolve(s->outer->ctx, written) : NULL;
}

int fl_eval_calls(const fl_expr *e, const fl_eval_env *env, fl_call_fn call, void *call_ctx, fl_value *out,
                  fl_diag *d)
{
    call_scope s = {env, call, call_ctx};
    fl_eval_env inner = {call_lookup, &s, call_resolve};
    return fl_eval(e, &inner, out, d);
}

int fl_eval_user_call(const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d)
{
    /* through the scopes of comprehensions to the hook, if any */
    for (const fl_eval_env *x = env; x;) {
        if (x->lookup == call_lookup) {
            const call_scope *s = x->ctx;
            return s->call(s->call_ctx, e, env, out, d);
        }
        if (x->lookup != iter_lookup) return 0;
        x = ((const iter_scope *)x->ctx)->outer;
    }
    return 0;
}

/* {body for i in r1, j in r2}: the values of body over the ranges (the
 * first iterator varies slowest), a vector of numbers. */
static int eval_comprehension(const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d)
{
    int n = e->nargs;
    fl_value *ranges = fl_xcalloc((size_t)n, sizeof *ranges);
    int rc = 0;
    size_t total = 1;
    for (int i = 0; i < n && !rc; i++) {
        rc = fl_eval(e->args[i], env, &ranges[i], d);
        if (!rc && ranges[i].kind != V_ARRAY) {
            fl_value r = make_array(1, 1, 0);
            r.data[0] = ranges[i].num;
            fl_value_free(&ranges[i]);
            ranges[i] = r;
        }
        if (!rc) total *= fl_value_count(&ranges[i]);
    }
    if (!rc && total > 10000000) rc = fail(d, e->loc, "comprehension too long%s", "");
    if (!rc) {
        *out = make_array(1, (int)total, 0);
        double *val = fl_xcalloc((size_t)n, sizeof(double));
        iter_scope sc = {e, val, env};
        fl_eval_env inner = {iter_lookup, &sc, iter_resolve};
        for (size_t k = 0; k < total && !rc; k++) {
            size_t rest = k;
            for (int i = n - 1; i >= 0; i--) {
                size_t m = fl_value_count(&ranges[i]);
                val[i] = ranges[i].data[rest % m];
                rest /= m;
            }
            fl_value v;
            rc = fl_eval(e->a, &inner, &v, d);
            if (!rc && !fl_value_is_number(&v)) rc = fail(d, e->a->loc, "the elements of a comprehension must be numbers%s", "");
            if (!rc) out->data[k] = v.num;
            fl_value_free(&v);
        }
        free(val);
        if (rc) fl_value_free(out);
    }
    for (int i = 0; i < n; i++) fl_value_free(&ranges[i]);
    free(ranges);
    return rc;
}

int fl_eval(const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d)
{
    memset(out, 0, sizeof *out);
    /* if-elseif chains by a loop: the branch taken is evaluated in place */
    while (e->kind == EX_IF) {
        fl_value c;
        if (fl_eval(e->a, env, &c, d)) return -1;
        if (c.kind != V_BOOL) {
            fl_value_free(&c);
            return fail(d, e->a->loc, "the condition of 'if' must be Boolean%s", "");
        }
        e = c.num != 0 ? e->b : e->c;
    }
    switch (e->kind) {
    case EX_NUM:
        *out = fl_value_real(e->num);
        if (e->is_int) out->kind = V_INT;
        return 0;
    case EX_BOOL:
        *out = fl_value_bool(e->num != 0);
        return 0;
    case EX_STR:
        out->kind = V_STRING;
        out->str = fl_xstrdup(e->str);
        return 0;
    case EX_REF:
        return eval_ref(e, env, out, d);
    case EX_UNARY: {
        fl_value a;
        if (fl_eval(e->a, env, &a, d)) return -1;
        if (e->op == K_NOT) {
            if (a.kind != V_BOOL) {
                fl_value_free(&a);
                return fail(d, e->loc, "'not' needs a Boolean operand%s", "");
            }
            *out = fl_value_bool(a.num == 0);
            return 0;
        }
        if (fl_value_is_number(&a)) {
            *out = a;
            if (out->kind == V_BOOL) return fail(d, e->loc, "unary minus of a Boolean%s", "");
            if (e->op == T_MINUS) out->num = -out->num;
            return 0;
        }
        if (a.kind == V_ARRAY) {
            *out = a;
            if (e->op == T_MINUS)
                for (size_t i = 0; i < fl_value_count(out); i++) out->data[i] = -out->data[i];
            return 0;
        }
        fl_value_free(&a);
        return fail(d, e->loc, "unary operator applied to a non-number%s", "");
    }
    case EX_BINARY:
        return eval_binary(e, env, out, d);
    case EX_IF:
        break; /* taken above */
    case EX_ARRAY:
        if (e->nargs == 1 && e->args[0]->kind == EX_COMPREH) return eval_comprehension(e->args[0], env, out, d);
        return eval_array(e, env, out, d);
    case EX_MATRIX:
        return eval_matrix(e, env, out, d);
    case EX_RANGE:
        return eval_range(e, env, out, d);
    case EX_CALL:
        return fl_eval_call(e, env, out, d);
    case EX_COLON:
    case EX_END:
        return fail(d, e->loc, "':' and 'end' are only allowed as subscripts%s", "");
    case EX_COMPREH:
        return eval_comprehension(e, env, out, d);
    case EX_TUPLE:
        return fail(d, e->loc, "a tuple '(a, b)' is only allowed on the left of an equation or assignment%s", "");
    }
    return fail(d, e->loc, "cannot evaluate expression%s", "");
}
