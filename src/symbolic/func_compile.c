/* func_compile.c - user functions from class ASTs to their compiled form
 * (func_int.h): names resolved to slots, types and array ranks checked,
 * built-in functions and calls of other user functions resolved, so that
 * the interpreter never looks at names and every construct outside the
 * supported subset is a located error before anything runs.
 *
 * Two phases per function: the signature (its variables with roles,
 * types and ranks; what a caller needs) and the body (sizes, bindings,
 * statements). A call of another function registers only its signature and
 * leaves its body pending, so recursion and long call chains compile without
 * recursion in the compiler. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "func_int.h"
#include "parse/lexer.h"
#include "util/suggest.h"

const char *const fl_ufunc_bi_names[BI_COUNT] = {
    "sin",  "cos",   "tan",     "asin",    "acos",  "atan",      "sinh",      "cosh",     "tanh",
    "exp",  "log",   "log10",   "sqrt",    "abs",   "sign",      "floor",     "ceil",     "integer",
    "atan2", "min",  "max",     "mod",     "rem",   "div",       "sum",       "product",  "size",
    "ndims", "zeros", "ones",   "fill",    "linspace", "cat",    "transpose", "scalar",   "vector",
    "matrix", "identity", "diagonal", "cross", "String"};

/* Modelica.Math functions that are built-ins under their short names. */
static const char *const math_names[] = {"sin",  "cos",  "tan",  "asin", "acos", "atan",  "atan2",
                                         "sinh", "cosh", "tanh", "exp",  "log",  "log10"};

/* Operators and functions that exist in Modelica but not inside functions. */
static const char *const not_in_functions[] = {"der",     "pre",      "edge",   "change", "initial",
                                               "terminal", "sample",  "reinit", "delay",  "cardinality",
                                               "semiLinear", "spatialDistribution", "terminate"};

typedef FL_VEC(fx *) fx_vec;
typedef FL_VEC(int) int_vec;

typedef struct iter_name {
    const char *name;
    int slot;
} iter_name;

typedef struct cc {
    fl_ufuncs *r;
    ufn *f;
    int id;
    const fl_class_ast *cls;
    const fl_ufunc_scope *scope;
    fl_diag *d;
    int failed;
    FL_VEC(uvar) vars;
    FL_VEC(iter_name) iters;
    FL_VEC(int) callees;
    int in_sub;   /* inside subscripts: 'end' is allowed */
    int loops;    /* inside loops: 'break' is allowed */
} cc;

static void cerr(cc *c, fl_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cerr(cc *c, fl_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fl_diag_vadd(c->d, FL_SEV_ERROR, loc, fmt, ap);
    va_end(ap);
    c->failed = 1;
}

static const char *astr(fl_ufuncs *r, const char *s)
{
    return fl_arena_strn(r->ar, s, strlen(s));
}

static fx *nfx(cc *c, int op, int ty, int nd, fl_loc loc)
{
    fx *e = fl_arena_alloc(c->r->ar, sizeof *e);
    e->op = (unsigned char)op;
    e->ty = (unsigned char)ty;
    e->nd = (unsigned char)nd;
    e->loc = fl_ufunc_loc(c->r, loc);
    return e;
}

static fx **nargs_alloc(cc *c, int n)
{
    return fl_arena_alloc(c->r->ar, sizeof(fx *) * (size_t)(n ? n : 1));
}

static const char *type_name(int ty)
{
    return ty == UT_REAL ? "Real" : ty == UT_INT ? "Integer" : ty == UT_BOOL ? "Boolean" : "String";
}

static const char *shape_name(int nd)
{
    return nd == 0 ? "a scalar" : nd == 1 ? "a vector" : "a matrix";
}

/* "a Real scalar", "an Integer vector" */
static void describe(char *buf, size_t cap, int ty, int nd)
{
    const char *t = type_name(ty);
    snprintf(buf, cap, "%s %s %s", ty == UT_INT ? "an" : "a", t, nd == 0 ? "scalar" : nd == 1 ? "vector" : "matrix");
}

static int is_num(const fx *e)
{
    return e->ty == UT_REAL || e->ty == UT_INT;
}

/* ---- names ------------------------------------------------------------------ */

static char *ref_plain(const fl_ref *r)
{
    fl_buf b = {0};
    for (int i = 0; i < r->n; i++) {
        if (i) fl_buf_addc(&b, '.');
        fl_buf_add(&b, r->parts[i].name);
    }
    return fl_buf_take(&b);
}

static int find_var(const cc *c, const char *name)
{
    for (size_t i = c->iters.n; i-- > 0;)
        if (strcmp(c->iters.v[i].name, name) == 0) return c->iters.v[i].slot;
    for (size_t i = 0; i < c->vars.n; i++)
        if (c->vars.v[i].role != UR_ITER && strcmp(c->vars.v[i].name, name) == 0) return (int)i;
    return -1;
}

static const fl_class_ast *find_class(cc *c, const char *written, const char **path)
{
    *path = NULL;
    if (!c->scope || !c->scope->find_class) return NULL;
    return c->scope->find_class(c->scope->ctx, c->cls, written, path);
}

/* A constant named `written`: Modelica.Constants (also through the scope's
 * names for its package), then the scope's constants. 1 found, 0 not, -1
 * error reported. */
static int find_constant(cc *c, const char *written, fl_loc loc, fl_value *out)
{
    if (fl_eval_constant(written, out)) return 1;
    const char *dot = strrchr(written, '.');
    if (dot) {
        char *prefix = fl_xstrndup(written, (size_t)(dot - written));
        const char *path = NULL;
        find_class(c, prefix, &path);
        int found = 0;
        if (path) {
            char *full = fl_xsprintf("%s.%s", path, dot + 1);
            found = fl_eval_constant(full, out);
            free(full);
        }
        free(prefix);
        if (found) return 1;
    }
    if (c->scope && c->scope->constant) {
        int n = fl_diag_errors(c->d);
        int rc = c->scope->constant(c->scope->ctx, c->cls, written, loc, out, c->d);
        if (rc < 0 || fl_diag_errors(c->d) > n) c->failed = 1;
        return rc;
    }
    return 0;
}

static void unknown_name(cc *c, const char *name, fl_loc loc)
{
    fl_suggest sg;
    fl_suggest_init(&sg, name);
    for (size_t i = 0; i < c->vars.n; i++)
        if (c->vars.v[i].role != UR_ITER) fl_suggest_add(&sg, c->vars.v[i].name, c->vars.v[i].name);
    for (size_t i = 0; i < c->iters.n; i++) fl_suggest_add(&sg, c->iters.v[i].name, c->iters.v[i].name);
    fl_buf b = {0};
    fl_buf_printf(&b, "unknown name '%s' in function '%s'", name, c->f->path);
    fl_suggest_append(&sg, &b);
    cerr(c, loc, "%s", b.s);
    fl_buf_free(&b);
}

/* ---- types of declarations ------------------------------------------------- */

static int prefixed(const char *s, const char *p)
{
    return s && strncmp(s, p, strlen(p)) == 0;
}

/* Real, Integer, Boolean, the SI types and short types derived from them.
 * Returns UT_* or -1. */
static int decl_type(cc *c, const char *written)
{
    const fl_class_ast *from = c->cls;
    for (int depth = 0; depth < 20 && written; depth++) {
        if (strcmp(written, "Real") == 0) return UT_REAL;
        if (strcmp(written, "Integer") == 0) return UT_INT;
        if (strcmp(written, "Boolean") == 0) return UT_BOOL;
        const char *path = NULL;
        const fl_class_ast *t = NULL;
        if (c->scope && c->scope->find_class) t = c->scope->find_class(c->scope->ctx, from, written, &path);
        const char *name = path ? path : written;
        if (prefixed(name, "Modelica.Units.SI.") || prefixed(name, "Modelica.SIunits.") ||
            prefixed(name, "Modelica.Units.NonSI.") || (!path && (prefixed(written, "SI.") || prefixed(written, "NonSI."))))
            return UT_REAL;
        if (!t || t->kind != CK_TYPE || t->is_enum || !t->short_base) return -1;
        from = t->parent ? t->parent : t;
        written = t->short_base;
    }
    return -1;
}

static int attribute_modifier(const char *name)
{
    static const char *const attrs[] = {"unit", "displayUnit", "quantity", "min", "max", "start", "fixed",
                                        "nominal", "stateSelect", "unbounded", "absoluteValue"};
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        if (strcmp(attrs[i], name) == 0) return 1;
    return 0;
}

/* The declared dimensions of d: those after the name, then those of the type (Real[3] x). */
static int decl_ndims(const fl_decl *d)
{
    return d->ndims + d->ntype_dims;
}

static const fl_expr *decl_dim(const fl_decl *d, int k)
{
    return k < d->ndims ? d->dims[k] : d->type_dims[k - d->ndims];
}

/* ---- inheritance -------------------------------------------------------------- */

/* A function and the functions it extends (partial functions declaring an
 * interface), bases first: their declarations and algorithms are the
 * function's, each compiled in the scope of the class that writes it. */
#define MAX_PARTS 32

typedef struct lineage {
    const fl_class_ast *cls[MAX_PARTS];
    int n;
} lineage;

static void collect(cc *c, const fl_class_ast *cls, lineage *p, int depth)
{
    for (size_t i = 0; i < cls->extends.n; i++) {
        const fl_extends *x = &cls->extends.v[i];
        if (prefixed(x->base, "Modelica.Icons.")) continue;
        const char *path = NULL;
        const fl_class_ast *b = NULL;
        if (c->scope && c->scope->find_class) b = c->scope->find_class(c->scope->ctx, cls, x->base, &path);
        if (!b || b->kind != CK_FUNCTION) {
            cerr(c, x->loc, "function '%s' extends '%s', which is not a function of the model", c->f->path, x->base);
            continue;
        }
        if (x->nmods) {
            cerr(c, x->loc, "modifiers of extends are not supported in functions");
            continue;
        }
        int seen = 0;
        for (int k = 0; k < p->n; k++) seen |= p->cls[k] == b;
        if (seen) continue;
        if (depth >= 20 || p->n >= MAX_PARTS - 1) {
            cerr(c, x->loc, "extends clauses of function '%s' nested too deeply", c->f->path);
            continue;
        }
        collect(c, b, p, depth + 1);
    }
    p->cls[p->n++] = cls;
}

/* ---- signature -------------------------------------------------------------- */

/* One variable: its role, type, rank and what is fixed about its sizes. */
static void signature_decl(cc *c, const fl_decl *dc, int_vec *ins, int_vec *outs)
{
    uvar v;
    memset(&v, 0, sizeof v);
    v.name = astr(c->r, dc->name);
    v.loc = fl_ufunc_loc(c->r, dc->name_loc);
    v.kdim[0] = v.kdim[1] = -1;
    for (size_t j = 0; j < c->vars.n; j++)
        if (strcmp(c->vars.v[j].name, dc->name) == 0) {
            cerr(c, dc->name_loc, "'%s' is declared twice in function '%s'", dc->name, c->f->path);
        }
    int ty = decl_type(c, dc->type);
    if (ty < 0) {
        cerr(c, dc->type_loc,
             "type '%s' of '%s' is not supported in functions (Real, Integer, Boolean and types derived "
             "from them)",
             dc->type, dc->name);
    }
    v.ty = (unsigned char)(ty < 0 ? UT_REAL : ty);
    int nd = decl_ndims(dc);
    if (nd > 2) {
        cerr(c, dc->name_loc, "'%s' has %d dimensions; functions support scalars, vectors and matrices", dc->name,
             nd);
        nd = 2;
    }
    v.nd = (unsigned char)nd;
    for (int k = 0; k < nd; k++) {
        const fl_expr *x = decl_dim(dc, k);
        if (x->kind == EX_COLON) v.flex = 1;
        else if (x->kind == EX_NUM && x->is_int) v.kdim[k] = (int)x->num;
    }
    unsigned pf = dc->prefix;
    if (pf & FL_PFX_INPUT) v.role = UR_INPUT;
    else if (pf & FL_PFX_OUTPUT) v.role = UR_OUTPUT;
    else if (pf & (FL_PFX_CONSTANT | FL_PFX_PARAMETER)) v.role = UR_CONST;
    else v.role = UR_LOCAL;
    if ((pf & (FL_PFX_INPUT | FL_PFX_OUTPUT)) && (pf & FL_PFX_PROTECTED)) {
        cerr(c, dc->loc, "inputs and outputs of a function must be public ('%s' is protected)", dc->name);
    }
    if (pf & (FL_PFX_FLOW | FL_PFX_STREAM | FL_PFX_INNER | FL_PFX_OUTER)) {
        cerr(c, dc->loc, "flow, stream, inner and outer are not allowed in functions ('%s')", dc->name);
    }
    if (dc->cond) {
        cerr(c, dc->cond->loc, "conditional declarations are not allowed in functions ('%s')", dc->name);
    }
    if (v.role == UR_CONST && !dc->binding) {
        cerr(c, dc->name_loc, "constant '%s' needs a value", dc->name);
    }
    if (v.role == UR_CONST && v.flex) {
        cerr(c, dc->name_loc, "constant '%s' needs fixed sizes", dc->name);
    }
    for (int m = 0; m < dc->nmods; m++) {
        const fl_mod *md = &dc->mods[m];
        if (!attribute_modifier(md->name)) {
            cerr(c, md->loc, "modifier '%s' of '%s' is not supported in functions (only attributes such as "
                              "unit, min, max)",
                 md->name, dc->name);
        }
    }
    v.has_bind = dc->binding != NULL;
    if (v.role == UR_INPUT) FL_VEC_PUSH(*ins, (int)c->vars.n);
    if (v.role == UR_OUTPUT) FL_VEC_PUSH(*outs, (int)c->vars.n);
    FL_VEC_PUSH(c->vars, v);
}

int fl_ufunc_compile_signature(fl_ufuncs *r, ufn *f, const fl_class_ast *cls, const fl_ufunc_scope *scope,
                               fl_diag *d)
{
    cc c;
    memset(&c, 0, sizeof c);
    c.r = r;
    c.f = f;
    c.cls = cls;
    c.scope = scope;
    c.d = d;
    int_vec ins = {0}, outs = {0};
    lineage pt;
    pt.n = 0;
    collect(&c, cls, &pt, 0);
    for (int p = 0; p < pt.n; p++) {
        c.cls = pt.cls[p];
        for (size_t i = 0; i < c.cls->decls.n; i++) signature_decl(&c, &c.cls->decls.v[i], &ins, &outs);
    }
    f->vars = fl_arena_alloc(r->ar, sizeof(uvar) * (c.vars.n ? c.vars.n : 1));
    if (c.vars.n) memcpy(f->vars, c.vars.v, sizeof(uvar) * c.vars.n);
    f->nvars = (int)c.vars.n;
    f->nin = (int)ins.n;
    f->nout = (int)outs.n;
    f->in = fl_arena_alloc(r->ar, sizeof(int) * (ins.n ? ins.n : 1));
    f->out = fl_arena_alloc(r->ar, sizeof(int) * (outs.n ? outs.n : 1));
    if (ins.n) memcpy(f->in, ins.v, sizeof(int) * ins.n);
    if (outs.n) memcpy(f->out, outs.v, sizeof(int) * outs.n);
    FL_VEC_FREE(ins);
    FL_VEC_FREE(outs);
    FL_VEC_FREE(c.vars);
    return c.failed ? -1 : 0;
}

/* ---- expressions ----------------------------------------------------------- */

static fx *cx(cc *c, const fl_expr *e);

static fx *konst(cc *c, double k, int ty, fl_loc loc)
{
    fx *x = nfx(c, FX_CONST, ty, 0, loc);
    x->k = k;
    return x;
}

static fx *from_value(cc *c, const fl_value *v, const char *name, fl_loc loc)
{
    switch (v->kind) {
    case V_REAL: return konst(c, v->num, UT_REAL, loc);
    case V_INT: return konst(c, v->num, UT_INT, loc);
    case V_BOOL: return konst(c, v->num, UT_BOOL, loc);
    case V_ARRAY: {
        fx *x = nfx(c, FX_CONST, UT_REAL, v->ndims, loc);
        size_t n = fl_value_count(v);
        double *data = fl_arena_alloc(c->r->ar, sizeof(double) * (n ? n : 1));
        if (n) memcpy(data, v->data, sizeof(double) * n);
        x->data = data;
        x->dim[0] = v->dim[0];
        x->dim[1] = v->ndims == 2 ? v->dim[1] : 0;
        return x;
    }
    default:
        cerr(c, loc, "'%s' is %s constant; functions support Real, Integer and Boolean values", name,
             v->kind == V_STRING ? "a String" : "an enumeration");
        return NULL;
    }
}

/* Subscripts of base (an array expression): scalar or vector Integer
 * indices, ':' and 'end'. */
static fx *subscripts(cc *c, fx *base, fl_expr **subs, int nsubs, const char *name, fl_loc loc)
{
    if (nsubs > base->nd) {
        cerr(c, loc, "%d subscript%s for '%s', which is %s", nsubs, nsubs == 1 ? "" : "s", name, shape_name(base->nd));
        return NULL;
    }
    fx *x = nfx(c, FX_INDEX, base->ty, 0, loc);
    x->na = nsubs + 1;
    x->a = nargs_alloc(c, x->na);
    x->a[0] = base;
    int nd = base->nd - nsubs, ok = 1;
    c->in_sub++;
    for (int i = 0; i < nsubs; i++) {
        if (subs[i]->kind == EX_COLON) {
            x->a[i + 1] = nfx(c, FX_COLON, UT_INT, 1, subs[i]->loc);
            nd++;
            continue;
        }
        fx *s = cx(c, subs[i]);
        if (!s) {
            ok = 0;
            continue;
        }
        if (s->ty != UT_INT || s->nd > 1) {
            cerr(c, subs[i]->loc, "an array index must be an Integer or a vector of Integers (found %s %s)",
                 type_name(s->ty), s->nd ? "array" : "value");
            ok = 0;
            continue;
        }
        nd += s->nd;
        x->a[i + 1] = s;
    }
    c->in_sub--;
    x->nd = (unsigned char)nd;
    return ok ? x : NULL;
}

static fx *ref_expr(cc *c, const fl_expr *e)
{
    const fl_ref *r = &e->ref;
    if (r->n == 1) {
        const char *name = r->parts[0].name;
        int k = find_var(c, name);
        if (k >= 0) {
            const uvar *v = &c->vars.v[k];
            fx *x = nfx(c, FX_VAR, v->ty, v->nd, e->loc);
            x->fn = k;
            if (!r->parts[0].nsubs) return x;
            return subscripts(c, x, r->parts[0].subs, r->parts[0].nsubs, name, e->loc);
        }
        if (strcmp(name, "time") == 0) {
            cerr(c, e->loc, "'time' is not available in functions (pass it as an input)");
            return NULL;
        }
    }
    for (int i = 0; i + 1 < r->n; i++)
        if (r->parts[i].nsubs) {
            char *s = fl_ref_str(r);
            cerr(c, e->loc, "subscripts inside a name ('%s') are not supported in functions", s);
            free(s);
            return NULL;
        }
    char *written = ref_plain(r);
    fl_value v;
    memset(&v, 0, sizeof v);
    int rc = find_constant(c, written, e->loc, &v);
    fx *x = NULL;
    if (rc == 0) unknown_name(c, written, e->loc);
    else if (rc > 0) x = from_value(c, &v, written, e->loc);
    fl_value_free(&v);
    const fl_ref_part *last = &r->parts[r->n - 1];
    if (x && last->nsubs) {
        if (!x->nd) {
            cerr(c, e->loc, "subscripts applied to '%s', which is a scalar", written);
            x = NULL;
        } else {
            x = subscripts(c, x, last->subs, last->nsubs, written, e->loc);
        }
    }
    free(written);
    return x;
}

static int promote(int a, int b)
{
    return a == UT_REAL || b == UT_REAL ? UT_REAL : UT_INT;
}

/* Type of a op b (BO_*), or -1 after reporting. *nd gets the rank. */
static int bin_type(cc *c, int op, const fx *a, const fx *b, int *nd, fl_loc loc)
{
    static const char *const opname[] = {"+", "-", "*", "/", "^", ".+", ".-", ".*", "./", ".^",
                                         "<", "<=", ">", ">=", "==", "<>", "and", "or"};
    if (op == BO_AND || op == BO_OR) {
        if (a->ty != UT_BOOL || b->ty != UT_BOOL || a->nd || b->nd) {
            cerr(c, loc, "'%s' needs Boolean scalars (found %s and %s)", opname[op], type_name(a->ty), type_name(b->ty));
            return -1;
        }
        *nd = 0;
        return UT_BOOL;
    }
    if (op >= BO_LT) {
        int ok = !a->nd && !b->nd && ((is_num(a) && is_num(b)) || (a->ty == UT_BOOL && b->ty == UT_BOOL &&
                                                                   (op == BO_EQ || op == BO_NE)));
        if (!ok) {
            cerr(c, loc, "'%s' compares two numbers (found %s %s and %s %s)", opname[op], type_name(a->ty),
                 a->nd ? "array" : "value", type_name(b->ty), b->nd ? "array" : "value");
            return -1;
        }
        *nd = 0;
        return UT_BOOL;
    }
    if (!is_num(a) || !is_num(b)) {
        cerr(c, loc, "'%s' needs numbers (found %s and %s)", opname[op], type_name(a->ty), type_name(b->ty));
        return -1;
    }
    int ty = promote(a->ty, b->ty);
    switch (op) {
    case BO_ADD: case BO_SUB: case BO_EADD: case BO_ESUB: case BO_EMUL: case BO_EDIV: case BO_EPOW:
        if (a->nd && b->nd && a->nd != b->nd) {
            cerr(c, loc, "'%s' of %s and %s", opname[op], shape_name(a->nd), shape_name(b->nd));
            return -1;
        }
        *nd = a->nd > b->nd ? a->nd : b->nd;
        if (op == BO_EDIV || op == BO_EPOW) ty = UT_REAL;
        return ty;
    case BO_MUL:
        if (!a->nd || !b->nd) *nd = a->nd + b->nd;
        else if (a->nd == 1 && b->nd == 1) *nd = 0;
        else if (a->nd + b->nd == 3) *nd = 1;
        else *nd = 2;
        return ty;
    case BO_DIV:
        if (b->nd && b->nd != a->nd) {
            cerr(c, loc, "'/' of %s by %s", shape_name(a->nd), shape_name(b->nd));
            return -1;
        }
        *nd = a->nd;
        return UT_REAL;
    case BO_POW:
        if (b->nd || a->nd == 2) {
            cerr(c, loc, "'^' is supported for a scalar or vector base and a scalar exponent (matrix powers are not)");
            return -1;
        }
        *nd = a->nd;
        return UT_REAL;
    }
    return -1;
}

static int bin_op(int tok)
{
    switch (tok) {
    case T_PLUS: return BO_ADD;
    case T_MINUS: return BO_SUB;
    case T_STAR: return BO_MUL;
    case T_SLASH: return BO_DIV;
    case T_CARET: return BO_POW;
    case T_DPLUS: return BO_EADD;
    case T_DMINUS: return BO_ESUB;
    case T_DSTAR: return BO_EMUL;
    case T_DSLASH: return BO_EDIV;
    case T_DCARET: return BO_EPOW;
    case T_LT: return BO_LT;
    case T_LE: return BO_LE;
    case T_GT: return BO_GT;
    case T_GE: return BO_GE;
    case T_EQEQ: return BO_EQ;
    case T_NEQ: return BO_NE;
    case K_AND: return BO_AND;
    case K_OR: return BO_OR;
    default: return -1;
    }
}

/* a op b op c ...: the left spine of the tree, by a loop. */
static fx *binary_chain(cc *c, const fl_expr *e)
{
    FL_VEC(const fl_expr *) spine = {0};
    const fl_expr *x = e;
    for (; x->kind == EX_BINARY; x = x->a) FL_VEC_PUSH(spine, x);
    int n = (int)spine.n;
    fx *r = nfx(c, FX_BIN, 0, 0, e->loc);
    r->na = n + 1;
    r->a = nargs_alloc(c, n + 1);
    r->ops = fl_arena_alloc(c->r->ar, sizeof(int) * (size_t)(n ? n : 1));
    r->oplocs = fl_arena_alloc(c->r->ar, sizeof(fl_loc) * (size_t)(n ? n : 1));
    fx *acc = cx(c, x);
    r->a[0] = acc;
    int ok = acc != NULL;
    int ty = acc ? acc->ty : 0, nd = acc ? acc->nd : 0;
    fx cur; /* the type of the value so far */
    memset(&cur, 0, sizeof cur);
    cur.ty = (unsigned char)ty;
    cur.nd = (unsigned char)nd;
    for (int i = 0; i < n; i++) {
        const fl_expr *y = spine.v[n - 1 - i];
        fx *b = cx(c, y->b);
        r->a[i + 1] = b;
        int op = bin_op(y->op);
        r->ops[i] = op;
        r->oplocs[i] = fl_ufunc_loc(c->r, y->loc);
        if (op < 0) {
            cerr(c, y->loc, "unsupported operator in a function");
            ok = 0;
            continue;
        }
        if (!ok || !b) {
            ok = 0;
            continue;
        }
        int rnd = 0;
        int rty = bin_type(c, op, &cur, b, &rnd, y->loc);
        if (rty < 0) {
            ok = 0;
            continue;
        }
        cur.ty = (unsigned char)rty;
        cur.nd = (unsigned char)rnd;
    }
    FL_VEC_FREE(spine);
    if (!ok) return NULL;
    if (n == 0) return acc;
    r->ty = cur.ty;
    r->nd = cur.nd;
    return r;
}

/* if c1 then a elseif c2 then b ... else z, flat. */
static fx *if_chain(cc *c, const fl_expr *e)
{
    FL_VEC(fx *) parts = {0};
    int ok = 1, ty = -1, nd = -1;
    const fl_expr *x = e;
    for (;;) {
        const fl_expr *val = x->kind == EX_IF ? x->b : x;
        if (x->kind == EX_IF) {
            fx *cond = cx(c, x->a);
            if (cond && (cond->ty != UT_BOOL || cond->nd)) {
                cerr(c, x->a->loc, "the condition of 'if' must be a Boolean scalar (found %s)", type_name(cond->ty));
                ok = 0;
            }
            if (!cond) ok = 0;
            FL_VEC_PUSH(parts, cond);
        }
        fx *v = cx(c, val);
        if (!v) ok = 0;
        else if (ty < 0) {
            ty = v->ty;
            nd = v->nd;
        } else if (v->nd != nd || (v->ty != ty && !(is_num(v) && (ty == UT_REAL || ty == UT_INT)))) {
            cerr(c, val->loc, "the branches of 'if' differ: %s %s and %s %s", type_name(ty),
                 nd ? "array" : "value", type_name(v->ty), v->nd ? "array" : "value");
            ok = 0;
        } else {
            ty = v->ty == ty ? ty : UT_REAL;
        }
        FL_VEC_PUSH(parts, v);
        if (x->kind != EX_IF) break;
        x = x->c;
    }
    fx *r = NULL;
    if (ok) {
        r = nfx(c, FX_IF, ty, nd, e->loc);
        r->na = (int)parts.n;
        r->a = nargs_alloc(c, r->na);
        memcpy(r->a, parts.v, sizeof(fx *) * parts.n);
    }
    FL_VEC_FREE(parts);
    return r;
}

static fx *array_expr(cc *c, const fl_expr *e)
{
    fx *r = nfx(c, FX_ARRAY, UT_REAL, 1, e->loc);
    r->na = e->nargs;
    r->a = nargs_alloc(c, e->nargs);
    int ok = 1, ty = -1, nd = -1;
    for (int i = 0; i < e->nargs; i++) {
        fx *x = cx(c, e->args[i]);
        r->a[i] = x;
        if (!x) {
            ok = 0;
            continue;
        }
        if (ty < 0) {
            ty = x->ty;
            nd = x->nd;
            continue;
        }
        if (x->nd != nd) {
            cerr(c, e->args[i]->loc, "the elements of an array must all be scalars or all vectors");
            ok = 0;
        } else if (x->ty != ty) {
            if (is_num(x) && ty != UT_BOOL) ty = UT_REAL;
            else {
                cerr(c, e->args[i]->loc, "array elements of different types (%s and %s)", type_name(ty), type_name(x->ty));
                ok = 0;
            }
        }
    }
    if (!ok) return NULL;
    if (nd >= 2) {
        cerr(c, e->loc, "arrays of more than 2 dimensions are not supported in functions");
        return NULL;
    }
    r->ty = (unsigned char)(ty < 0 ? UT_REAL : ty);
    r->nd = (unsigned char)(nd < 0 ? 1 : nd + 1);
    return r;
}

static fx *matrix_expr(cc *c, const fl_expr *e)
{
    fx *r = nfx(c, FX_MATRIX, UT_REAL, 2, e->loc);
    r->na = e->nargs;
    r->a = nargs_alloc(c, e->nargs);
    int ok = 1, ty = -1;
    for (int i = 0; i < e->nargs; i++) {
        const fl_expr *row = e->args[i];
        fx *rx = nfx(c, FX_ARRAY, UT_REAL, 2, row->loc);
        rx->na = row->nargs;
        rx->a = nargs_alloc(c, row->nargs);
        r->a[i] = rx;
        for (int j = 0; j < row->nargs; j++) {
            fx *x = cx(c, row->args[j]);
            rx->a[j] = x;
            if (!x) {
                ok = 0;
                continue;
            }
            if (x->ty == UT_BOOL || x->ty == UT_STR) {
                cerr(c, row->args[j]->loc, "matrix elements must be numbers");
                ok = 0;
                continue;
            }
            ty = ty < 0 ? x->ty : promote(ty, x->ty);
        }
    }
    r->ty = (unsigned char)(ty < 0 ? UT_REAL : ty);
    return ok ? r : NULL;
}

static fx *range_expr(cc *c, const fl_expr *e)
{
    fx *r = nfx(c, FX_RANGE, UT_INT, 1, e->loc);
    r->na = e->c ? 3 : 2;
    r->a = nargs_alloc(c, 3);
    r->a[0] = cx(c, e->a);
    r->a[1] = cx(c, e->b);
    if (e->c) r->a[2] = cx(c, e->c);
    for (int i = 0; i < r->na; i++) {
        if (!r->a[i]) return NULL;
        if (!is_num(r->a[i]) || r->a[i]->nd) {
            cerr(c, r->a[i]->loc, "the bounds and step of a range must be numbers");
            return NULL;
        }
        if (r->a[i]->ty == UT_REAL) r->ty = UT_REAL;
    }
    return r;
}

static int new_iter(cc *c, const char *name, int ty, fl_loc loc)
{
    uvar v;
    memset(&v, 0, sizeof v);
    v.name = astr(c->r, name);
    v.ty = (unsigned char)ty;
    v.role = UR_ITER;
    v.loc = fl_ufunc_loc(c->r, loc);
    v.kdim[0] = v.kdim[1] = -1;
    FL_VEC_PUSH(c->vars, v);
    int slot = (int)c->vars.n - 1;
    iter_name in = {v.name, slot};
    FL_VEC_PUSH(c->iters, in);
    return slot;
}

/* {body for i in u, j in v} = {{body for i in u} for j in v} */
static fx *comprehension(cc *c, const fl_expr *e)
{
    int n = e->nargs;
    fx **ranges = nargs_alloc(c, n);
    int *slots = fl_arena_alloc(c->r->ar, sizeof(int) * (size_t)(n ? n : 1));
    size_t base = c->iters.n;
    int ok = 1;
    for (int i = 0; i < n; i++) {
        ranges[i] = cx(c, e->args[i]);
        if (ranges[i] && ranges[i]->nd != 1) {
            cerr(c, e->args[i]->loc, "the range of '%s' must be a vector", e->argnames[i]);
            ranges[i] = NULL;
        }
        if (!ranges[i]) ok = 0;
        slots[i] = new_iter(c, e->argnames[i], ranges[i] ? ranges[i]->ty : UT_INT, e->args[i]->loc);
    }
    fx *body = cx(c, e->a);
    c->iters.n = base;
    if (!ok || !body) return NULL;
    if (body->nd + n > 2) {
        cerr(c, e->loc, "this comprehension would build an array of %d dimensions; functions support up to 2",
             body->nd + n);
        return NULL;
    }
    if (body->ty == UT_STR) {
        cerr(c, e->a->loc, "strings are only supported in assert messages");
        return NULL;
    }
    fx *inner = body;
    for (int i = 0; i < n; i++) {
        fx *x = nfx(c, FX_COMPREH, inner->ty, inner->nd + 1, e->loc);
        x->na = 2;
        x->a = nargs_alloc(c, 2);
        x->a[0] = inner;
        x->a[1] = ranges[i];
        x->fn = slots[i];
        inner = x;
    }
    return inner;
}

/* ---- calls ------------------------------------------------------------------- */

static int builtin_id(const char *name)
{
    for (int i = 0; i < BI_COUNT; i++)
        if (strcmp(fl_ufunc_bi_names[i], name) == 0) return i;
    return -1;
}

static fx *call_expr(cc *c, const fl_expr *e, int in_msg);

/* The arguments of a built-in, positional only. */
static int bi_args(cc *c, const fl_expr *e, const char *name, int lo, int hi, fx **out)
{
    if (e->nargs < lo || e->nargs > hi) {
        if (lo == hi) cerr(c, e->loc, "%s() takes %d argument%s, %d given", name, lo, lo == 1 ? "" : "s", e->nargs);
        else cerr(c, e->loc, "%s() takes %d to %d arguments, %d given", name, lo, hi, e->nargs);
        return -1;
    }
    int ok = 1;
    for (int i = 0; i < e->nargs; i++) {
        if (e->argnames && e->argnames[i]) {
            cerr(c, e->args[i]->loc, "%s() takes positional arguments only", name);
            return -1;
        }
        out[i] = cx(c, e->args[i]);
        if (!out[i]) ok = 0;
        else if (out[i]->ty == UT_STR) {
            cerr(c, e->args[i]->loc, "strings are only supported in assert messages");
            ok = 0;
        }
    }
    return ok ? 0 : -1;
}

static int need(cc *c, const fx *x, int numeric, int maxnd, int minnd, const char *fname, const char *what)
{
    if ((numeric == 1 && !is_num(x)) || (numeric == 2 && x->ty != UT_INT) || x->nd > maxnd || x->nd < minnd) {
        cerr(c, x->loc, "%s(): %s", fname, what);
        return -1;
    }
    return 0;
}

static fx *builtin(cc *c, const fl_expr *e, int id, const char *name)
{
    fx *a[8] = {0};
    fx *r = nfx(c, FX_BUILTIN, UT_REAL, 0, e->loc);
    r->fn = id;
    int rc = 0;
    switch (id) {
    case BI_SIN: case BI_COS: case BI_TAN: case BI_ASIN: case BI_ACOS: case BI_ATAN: case BI_SINH:
    case BI_COSH: case BI_TANH: case BI_EXP: case BI_LOG: case BI_LOG10: case BI_SQRT:
    case BI_ABS: case BI_SIGN: case BI_FLOOR: case BI_CEIL: case BI_INTEGER:
        rc = bi_args(c, e, name, 1, 1, a);
        if (!rc) rc = need(c, a[0], 1, 2, 0, name, "the argument must be a number or an array of numbers");
        if (!rc) {
            r->nd = a[0]->nd;
            r->ty = id == BI_ABS ? a[0]->ty : (id == BI_SIGN || id == BI_INTEGER) ? UT_INT : UT_REAL;
        }
        break;
    case BI_ATAN2: case BI_MOD: case BI_REM: case BI_DIV:
        rc = bi_args(c, e, name, 2, 2, a);
        if (!rc) rc = need(c, a[0], 1, 0, 0, name, "arguments must be scalar numbers");
        if (!rc) rc = need(c, a[1], 1, 0, 0, name, "arguments must be scalar numbers");
        if (!rc) r->ty = id == BI_ATAN2 ? UT_REAL : (unsigned char)promote(a[0]->ty, a[1]->ty);
        break;
    case BI_MIN: case BI_MAX:
        if (e->nargs == 2) {
            rc = bi_args(c, e, name, 2, 2, a);
            if (!rc) rc = need(c, a[0], 1, 0, 0, name, "needs two scalar numbers or one array");
            if (!rc) rc = need(c, a[1], 1, 0, 0, name, "needs two scalar numbers or one array");
            if (!rc) r->ty = (unsigned char)promote(a[0]->ty, a[1]->ty);
        } else {
            rc = bi_args(c, e, name, 1, 1, a);
            if (!rc) rc = need(c, a[0], 1, 2, 1, name, "needs two scalar numbers or one array");
            if (!rc) r->ty = a[0]->ty;
        }
        break;
    case BI_SUM: case BI_PRODUCT:
        rc = bi_args(c, e, name, 1, 1, a);
        if (!rc) rc = need(c, a[0], 1, 2, 1, name, "the argument must be an array of numbers");
        if (!rc) r->ty = a[0]->ty;
        break;
    case BI_SIZE:
        rc = bi_args(c, e, name, 1, 2, a);
        if (!rc) rc = need(c, a[0], 0, 2, 1, name, "the first argument must be an array");
        if (!rc && e->nargs == 2) rc = need(c, a[1], 2, 0, 0, name, "the dimension must be an Integer");
        if (!rc) {
            r->ty = UT_INT;
            r->nd = e->nargs == 2 ? 0 : 1;
        }
        break;
    case BI_NDIMS:
        rc = bi_args(c, e, name, 1, 1, a);
        return rc ? NULL : konst(c, a[0]->nd, UT_INT, e->loc);
    case BI_ZEROS: case BI_ONES:
        rc = bi_args(c, e, name, 1, 2, a);
        for (int i = 0; i < e->nargs && !rc; i++)
            rc = need(c, a[i], 2, 0, 0, name, "the sizes must be Integers");
        if (!rc) {
            r->ty = UT_INT;
            r->nd = (unsigned char)e->nargs;
        }
        break;
    case BI_FILL:
        rc = bi_args(c, e, name, 2, 3, a);
        if (!rc && (a[0]->nd || a[0]->ty == UT_STR)) rc = need(c, a[0], 1, 0, 0, name, "the value must be a scalar");
        for (int i = 1; i < e->nargs && !rc; i++)
            rc = need(c, a[i], 2, 0, 0, name, "the sizes must be Integers");
        if (!rc) {
            r->ty = a[0]->ty;
            r->nd = (unsigned char)(e->nargs - 1);
        }
        break;
    case BI_LINSPACE:
        rc = bi_args(c, e, name, 3, 3, a);
        if (!rc) rc = need(c, a[0], 1, 0, 0, name, "the bounds must be scalar numbers");
        if (!rc) rc = need(c, a[1], 1, 0, 0, name, "the bounds must be scalar numbers");
        if (!rc) rc = need(c, a[2], 2, 0, 0, name, "the number of points must be an Integer");
        r->nd = 1;
        break;
    case BI_CAT:
        if (e->nargs < 2 || e->nargs > 8) {
            cerr(c, e->loc, "cat() takes a dimension and 1 to 7 arrays");
            return NULL;
        }
        rc = bi_args(c, e, name, 2, 8, a);
        if (!rc) rc = need(c, a[0], 2, 0, 0, name, "the first argument must be an Integer dimension");
        for (int i = 1; i < e->nargs && !rc; i++) {
            rc = need(c, a[i], 0, 2, 1, name, "the arrays must be vectors or matrices");
            if (!rc && a[i]->nd != a[1]->nd) {
                cerr(c, a[i]->loc, "cat(): the arrays must have the same number of dimensions");
                rc = -1;
            }
            if (!rc && a[i]->ty != a[1]->ty && !(is_num(a[i]) && is_num(a[1]))) {
                cerr(c, a[i]->loc, "cat(): the arrays must have the same type");
                rc = -1;
            }
            if (!rc) r->ty = (unsigned char)(i == 1 || a[i]->ty == r->ty ? a[i]->ty : UT_REAL);
        }
        if (!rc) r->nd = a[1]->nd;
        break;
    case BI_TRANSPOSE:
        rc = bi_args(c, e, name, 1, 1, a);
        if (!rc) rc = need(c, a[0], 0, 2, 2, name, "the argument must be a matrix");
        if (!rc) {
            r->ty = a[0]->ty;
            r->nd = 2;
        }
        break;
    case BI_SCALAR: case BI_VECTOR: case BI_MATRIX:
        rc = bi_args(c, e, name, 1, 1, a);
        if (!rc) {
            r->ty = a[0]->ty;
            r->nd = id == BI_SCALAR ? 0 : id == BI_VECTOR ? 1 : 2;
        }
        break;
    case BI_IDENTITY:
        rc = bi_args(c, e, name, 1, 1, a);
        if (!rc) rc = need(c, a[0], 2, 0, 0, name, "the size must be an Integer");
        r->ty = UT_INT;
        r->nd = 2;
        break;
    case BI_DIAGONAL:
        rc = bi_args(c, e, name, 1, 1, a);
        if (!rc) rc = need(c, a[0], 1, 1, 1, name, "the argument must be a vector of numbers");
        if (!rc) r->ty = a[0]->ty;
        r->nd = 2;
        break;
    case BI_CROSS:
        rc = bi_args(c, e, name, 2, 2, a);
        if (!rc) rc = need(c, a[0], 1, 1, 1, name, "the arguments must be vectors of 3 numbers");
        if (!rc) rc = need(c, a[1], 1, 1, 1, name, "the arguments must be vectors of 3 numbers");
        if (!rc) r->ty = (unsigned char)promote(a[0]->ty, a[1]->ty);
        r->nd = 1;
        break;
    default:
        return NULL;
    }
    if (rc) {
        c->failed = 1;
        return NULL;
    }
    r->na = e->nargs;
    r->a = nargs_alloc(c, e->nargs);
    memcpy(r->a, a, sizeof(fx *) * (size_t)e->nargs);
    return r;
}

/* noEvent(x), smooth(p, x), homotopy(actual, simplified): the value. */
static fx *passthrough(cc *c, const fl_expr *e, const char *name)
{
    int k = strcmp(name, "smooth") == 0 ? 1 : 0;
    int n = strcmp(name, "homotopy") == 0 ? 2 : k + 1;
    if (e->nargs != n) {
        cerr(c, e->loc, "%s() takes %d argument%s, %d given", name, n, n == 1 ? "" : "s", e->nargs);
        return NULL;
    }
    for (int i = 0; i < e->nargs; i++)
        if (e->argnames && e->argnames[i] && strcmp(e->argnames[i], "actual") == 0) k = i;
    return cx(c, e->args[k]);
}

/* Bind the arguments of a call of user function g to its inputs, in
 * input order (NULL: the default). Returns the list or NULL. */
static fx **bind_call(cc *c, const fl_expr *e, const ufn *g)
{
    fx **args = nargs_alloc(c, g->nin);
    int ok = 1, pos = 0;
    FL_VEC(int) set = {0};
    for (int i = 0; i < g->nin; i++) FL_VEC_PUSH(set, 0);
    for (int i = 0; i < e->nargs; i++) {
        int k = -1;
        if (e->argnames && e->argnames[i]) {
            for (int j = 0; j < g->nin; j++)
                if (strcmp(g->vars[g->in[j]].name, e->argnames[i]) == 0) k = j;
            if (k < 0) {
                cerr(c, e->args[i]->loc, "'%s' has no input named '%s'", g->path, e->argnames[i]);
                ok = 0;
                continue;
            }
        } else {
            k = pos++;
            if (k >= g->nin) {
                cerr(c, e->args[i]->loc, "too many arguments in the call of '%s' (it has %d input%s)", g->path, g->nin,
                     g->nin == 1 ? "" : "s");
                ok = 0;
                break;
            }
        }
        const uvar *in = &g->vars[g->in[k]];
        if (set.v[k]) {
            cerr(c, e->args[i]->loc, "input '%s' of '%s' given twice", in->name, g->path);
            ok = 0;
            continue;
        }
        set.v[k] = 1;
        fx *x = cx(c, e->args[i]);
        if (!x) {
            ok = 0;
            continue;
        }
        int tyok = x->ty == in->ty || (in->ty == UT_REAL && x->ty == UT_INT);
        if (!tyok || x->nd != in->nd) {
            char want[40], got[40];
            describe(want, sizeof want, in->ty, in->nd);
            describe(got, sizeof got, x->ty, x->nd);
            cerr(c, e->args[i]->loc, "input '%s' of '%s' is %s, the argument %s", in->name, g->path, want, got);
            ok = 0;
            continue;
        }
        args[k] = x;
    }
    for (int j = 0; j < g->nin && ok; j++)
        if (!set.v[j] && !g->vars[g->in[j]].has_bind) {
            cerr(c, e->loc, "missing input '%s' in the call of '%s'", g->vars[g->in[j]].name, g->path);
            ok = 0;
        }
    FL_VEC_FREE(set);
    return ok ? args : NULL;
}

/* A user function called as `written`: its id (registered on first use),
 * -1 when the name is not one, -2 after an error. */
static int user_function(cc *c, const char *written, fl_loc loc)
{
    const char *path = NULL;
    const fl_class_ast *cls = find_class(c, written, &path);
    if (!cls) return -1;
    if (cls->kind != CK_FUNCTION) {
        cerr(c, loc, "'%s' is not a function", written);
        return -2;
    }
    char *p = fl_xstrdup(path ? path : written);
    int nerr = fl_diag_errors(c->d);
    int id = fl_ufunc_declare(c->r, cls, p, c->scope, c->d);
    if (id < 0 && fl_diag_errors(c->d) == nerr) cerr(c, loc, "function '%s' has errors", p);
    free(p);
    if (id < 0) {
        c->failed = 1;
        return -2;
    }
    FL_VEC_PUSH(c->callees, id);
    return id;
}

static fx *call_expr(cc *c, const fl_expr *e, int in_msg)
{
    char *written = ref_plain(&e->ref);
    fx *r = NULL;
    int id = user_function(c, written, e->loc);
    if (id >= 0) {
        const ufn *g = c->r->fns.v[id];
        if (g->nout == 0) {
            cerr(c, e->loc, "function '%s' has no outputs", g->path);
        } else {
            fx **args = bind_call(c, e, g);
            if (args) {
                const uvar *o = &g->vars[g->out[0]];
                r = nfx(c, FX_CALL, o->ty, o->nd, e->loc);
                r->fn = id;
                r->a = args;
                r->na = g->nin;
            }
        }
        free(written);
        return r;
    }
    if (id == -2) {
        free(written);
        return NULL;
    }
    const char *name = written;
    if (strncmp(written, "Modelica.Math.", 14) == 0) {
        for (size_t i = 0; i < sizeof math_names / sizeof math_names[0]; i++)
            if (strcmp(written + 14, math_names[i]) == 0) name = written + 14;
    }
    int bi = strchr(name, '.') ? -1 : builtin_id(name);
    if (bi == BI_STRING && !in_msg) {
        cerr(c, e->loc, "String() is only supported in assert messages");
    } else if (bi == BI_STRING) {
        if (e->nargs < 1 || !(r = cx(c, e->args[0]))) {
            if (e->nargs < 1) cerr(c, e->loc, "String() needs a value");
            r = NULL;
        } else if (!is_num(r) && r->ty != UT_BOOL) {
            cerr(c, e->args[0]->loc, "String() of %s is not supported", type_name(r->ty));
            r = NULL;
        } else if (r->nd) {
            cerr(c, e->args[0]->loc, "String() of an array is not supported");
            r = NULL;
        } else {
            fx *s = nfx(c, FX_BUILTIN, UT_STR, 0, e->loc);
            s->fn = BI_STRING;
            s->na = 1;
            s->a = nargs_alloc(c, 1);
            s->a[0] = r;
            r = s;
        }
    } else if (bi >= 0) {
        r = builtin(c, e, bi, name);
    } else if (strcmp(name, "noEvent") == 0 || strcmp(name, "smooth") == 0 || strcmp(name, "homotopy") == 0) {
        r = passthrough(c, e, name);
    } else {
        int special = 0;
        for (size_t i = 0; i < sizeof not_in_functions / sizeof not_in_functions[0]; i++)
            if (strcmp(name, not_in_functions[i]) == 0) special = 1;
        if (special) cerr(c, e->loc, "'%s' is not allowed in functions", name);
        else if (strcmp(name, "assert") == 0) cerr(c, e->loc, "assert() is a statement, not a value");
        else cerr(c, e->loc, "unknown function '%s' in function '%s'", written, c->f->path);
    }
    free(written);
    return r;
}

static fx *cx(cc *c, const fl_expr *e)
{
    switch (e->kind) {
    case EX_NUM:
        if (e->is_int && e->num >= FL_INT_MIN && e->num <= FL_INT_MAX) return konst(c, e->num, UT_INT, e->loc);
        return konst(c, e->num, UT_REAL, e->loc);
    case EX_BOOL: return konst(c, e->num != 0, UT_BOOL, e->loc);
    case EX_STR: {
        fx *x = nfx(c, FX_STR, UT_STR, 0, e->loc);
        x->s = astr(c->r, e->str ? e->str : "");
        return x;
    }
    case EX_REF: return ref_expr(c, e);
    case EX_UNARY: {
        fx *a = cx(c, e->a);
        if (!a) return NULL;
        if (e->op == K_NOT) {
            if (a->ty != UT_BOOL || a->nd) {
                cerr(c, e->loc, "'not' needs a Boolean scalar (found %s)", type_name(a->ty));
                return NULL;
            }
            fx *x = nfx(c, FX_NOT, UT_BOOL, 0, e->loc);
            x->na = 1;
            x->a = nargs_alloc(c, 1);
            x->a[0] = a;
            return x;
        }
        if (!is_num(a)) {
            cerr(c, e->loc, "unary '%s' needs a number (found %s)", e->op == T_MINUS ? "-" : "+", type_name(a->ty));
            return NULL;
        }
        if (e->op == T_PLUS) return a;
        fx *x = nfx(c, FX_NEG, a->ty, a->nd, e->loc);
        x->na = 1;
        x->a = nargs_alloc(c, 1);
        x->a[0] = a;
        return x;
    }
    case EX_BINARY: return binary_chain(c, e);
    case EX_IF: return if_chain(c, e);
    case EX_CALL: return call_expr(c, e, 0);
    case EX_ARRAY:
        if (e->nargs == 1 && e->args[0]->kind == EX_COMPREH) return comprehension(c, e->args[0]);
        return array_expr(c, e);
    case EX_MATRIX: return matrix_expr(c, e);
    case EX_RANGE: return range_expr(c, e);
    case EX_COMPREH: return comprehension(c, e);
    case EX_END:
        if (!c->in_sub) {
            cerr(c, e->loc, "'end' is only allowed in subscripts");
            return NULL;
        }
        return nfx(c, FX_END, UT_INT, 0, e->loc);
    case EX_COLON:
        cerr(c, e->loc, "':' is only allowed in subscripts");
        return NULL;
    case EX_TUPLE:
        cerr(c, e->loc, "a tuple '(a, b)' is only allowed on the left of an assignment");
        return NULL;
    }
    cerr(c, e->loc, "unsupported expression in a function");
    return NULL;
}

/* An expression that must be a value (not a string). */
static fx *value(cc *c, const fl_expr *e)
{
    fx *x = cx(c, e);
    if (x && x->ty == UT_STR) {
        cerr(c, e->loc, "strings are only supported in assert messages");
        return NULL;
    }
    return x;
}

static fx *condition(cc *c, const fl_expr *e, const char *what)
{
    fx *x = value(c, e);
    if (x && (x->ty != UT_BOOL || x->nd)) {
        cerr(c, e->loc, "the condition of %s must be a Boolean scalar (found %s %s)", what, type_name(x->ty),
             x->nd ? "array" : "value");
        return NULL;
    }
    return x;
}

/* ---- statements ---------------------------------------------------------- */

static int assignable(cc *c, int vty, int vnd, const fx *x, const char *name, fl_loc loc)
{
    if (x->ty == UT_STR) {
        cerr(c, loc, "strings are only supported in assert messages");
        return 0;
    }
    if (!(x->ty == vty || (vty == UT_REAL && x->ty == UT_INT))) {
        cerr(c, loc, "cannot assign %s %s value to '%s' (%s)", x->ty == UT_INT ? "an" : "a", type_name(x->ty), name,
             type_name(vty));
        return 0;
    }
    if (x->nd != vnd) {
        cerr(c, loc, "cannot assign %s to '%s', which is %s", shape_name(x->nd), name, shape_name(vnd));
        return 0;
    }
    return 1;
}

/* The place of an assignment. */
static int lvalue(cc *c, const fl_expr *e, flv *out)
{
    memset(out, 0, sizeof *out);
    out->loc = fl_ufunc_loc(c->r, e->loc);
    if (e->kind != EX_REF || e->ref.n != 1) {
        if (e->kind == EX_REF) {
            char *s = fl_ref_str(&e->ref);
            cerr(c, e->loc, "cannot assign to '%s' (only variables of the function)", s);
            free(s);
        } else {
            cerr(c, e->loc, "the left side of ':=' must be a variable");
        }
        return -1;
    }
    const char *name = e->ref.parts[0].name;
    int k = find_var(c, name);
    if (k < 0) {
        unknown_name(c, name, e->loc);
        return -1;
    }
    const uvar *v = &c->vars.v[k];
    if (v->role == UR_INPUT) {
        cerr(c, e->loc, "cannot assign to input '%s' of function '%s'", name, c->f->path);
        return -1;
    }
    if (v->role == UR_ITER) {
        cerr(c, e->loc, "cannot assign to the loop variable '%s'", name);
        return -1;
    }
    if (v->role == UR_CONST) {
        cerr(c, e->loc, "cannot assign to constant '%s'", name);
        return -1;
    }
    out->slot = k;
    out->nd = v->nd;
    const fl_ref_part *p = &e->ref.parts[0];
    if (p->nsubs) {
        fx base;
        memset(&base, 0, sizeof base);
        base.ty = v->ty;
        base.nd = v->nd;
        base.op = FX_VAR;
        base.fn = k;
        fx *s = subscripts(c, &base, p->subs, p->nsubs, name, e->loc);
        if (!s) return -1;
        out->subs = s->a + 1;
        out->nsubs = p->nsubs;
        out->nd = s->nd;
    }
    return 0;
}

static int block(cc *c, const fl_stmt *st, int n, fblock *out);

static int assign_stmt(cc *c, const fl_stmt *s, fs *o)
{
    o->kind = FS_ASSIGN;
    if (s->lhs->kind == EX_TUPLE) {
        const fl_expr *rhs = s->rhs;
        if (rhs->kind != EX_CALL) {
            cerr(c, rhs->loc, "a tuple can only be assigned the outputs of a function call");
            return -1;
        }
        char *written = ref_plain(&rhs->ref);
        int id = user_function(c, written, rhs->loc);
        free(written);
        if (id == -1) {
            cerr(c, rhs->loc, "a tuple can only be assigned the outputs of a user function");
            return -1;
        }
        if (id < 0) return -1;
        const ufn *g = c->r->fns.v[id];
        int n = s->lhs->nargs;
        if (n > g->nout) {
            cerr(c, s->lhs->loc, "%d values assigned from '%s', which has %d output%s", n, g->path, g->nout,
                 g->nout == 1 ? "" : "s");
            return -1;
        }
        fx **args = bind_call(c, rhs, g);
        if (!args) return -1;
        o->rhs = nfx(c, FX_CALL, UT_REAL, 0, rhs->loc);
        o->rhs->fn = id;
        o->rhs->a = args;
        o->rhs->na = g->nin;
        o->nlhs = n;
        o->lhs = fl_arena_alloc(c->r->ar, sizeof(flv) * (size_t)(n ? n : 1));
        int ok = 1;
        for (int i = 0; i < n; i++) {
            const fl_expr *x = s->lhs->args[i];
            if (!x) {
                o->lhs[i].slot = -1;
                continue;
            }
            if (lvalue(c, x, &o->lhs[i])) {
                ok = 0;
                continue;
            }
            const uvar *out = &g->vars[g->out[i]];
            fx t;
            memset(&t, 0, sizeof t);
            t.ty = out->ty;
            t.nd = out->nd;
            if (!assignable(c, c->vars.v[o->lhs[i].slot].ty, o->lhs[i].nd, &t, c->vars.v[o->lhs[i].slot].name,
                            x->loc))
                ok = 0;
        }
        return ok ? 0 : -1;
    }
    o->nlhs = 1;
    o->lhs = fl_arena_alloc(c->r->ar, sizeof(flv));
    int bad = lvalue(c, s->lhs, o->lhs);
    o->rhs = value(c, s->rhs);
    if (bad || !o->rhs) return -1;
    const uvar *v = &c->vars.v[o->lhs->slot];
    return assignable(c, v->ty, o->lhs->nd, o->rhs, v->name, s->rhs->loc) ? 0 : -1;
}

/* The message of assert: strings, String(x), joined by '+'. */
static int message(cc *c, const fl_expr *e, fx_vec *parts)
{
    if (e->kind == EX_BINARY && e->op == T_PLUS) {
        int a = message(c, e->a, parts);
        int b = message(c, e->b, parts);
        return a || b ? -1 : 0;
    }
    fx *x = e->kind == EX_CALL ? call_expr(c, e, 1) : cx(c, e);
    if (!x) return -1;
    if (x->ty != UT_STR) {
        cerr(c, e->loc, "the message of assert must be a string (use String(x) for numbers)");
        return -1;
    }
    FL_VEC_PUSH(*parts, x);
    return 0;
}

static int assert_stmt(cc *c, const fl_expr *call, fs *o)
{
    o->kind = FS_ASSERT;
    const fl_expr *cond = NULL, *msg = NULL, *level = NULL;
    for (int i = 0; i < call->nargs; i++) {
        const char *nm = call->argnames ? call->argnames[i] : NULL;
        if ((nm && strcmp(nm, "condition") == 0) || (!nm && i == 0)) cond = call->args[i];
        else if ((nm && strcmp(nm, "message") == 0) || (!nm && i == 1)) msg = call->args[i];
        else if ((nm && strcmp(nm, "level") == 0) || (!nm && i == 2)) level = call->args[i];
        else {
            cerr(c, call->args[i]->loc, "assert() takes a condition, a message and a level");
            return -1;
        }
    }
    if (!cond || !msg) {
        cerr(c, call->loc, "assert() needs a condition and a message");
        return -1;
    }
    o->rhs = condition(c, cond, "assert");
    fx_vec parts = {0};
    int rc = message(c, msg, &parts);
    o->nmsg = (int)parts.n;
    o->msg = nargs_alloc(c, o->nmsg);
    if (parts.n) memcpy(o->msg, parts.v, sizeof(fx *) * parts.n);
    FL_VEC_FREE(parts);
    if (level) {
        char *s = level->kind == EX_REF ? ref_plain(&level->ref) : NULL;
        const char *last = s ? strrchr(s, '.') : NULL;
        if (last && strcmp(last, ".warning") == 0) o->warning = 1;
        else if (!last || strcmp(last, ".error") != 0) {
            cerr(c, level->loc, "the level of assert must be AssertionLevel.error or AssertionLevel.warning");
            rc = -1;
        }
        free(s);
    }
    return rc || !o->rhs ? -1 : 0;
}

static int call_stmt(cc *c, const fl_stmt *s, fs *o)
{
    const fl_expr *e = s->rhs;
    char *written = ref_plain(&e->ref);
    int rc;
    if (strcmp(written, "assert") == 0) {
        rc = assert_stmt(c, e, o);
    } else {
        int id = user_function(c, written, e->loc);
        if (id >= 0) {
            const ufn *g = c->r->fns.v[id];
            fx **args = bind_call(c, e, g);
            o->kind = FS_CALL;
            o->rhs = nfx(c, FX_CALL, UT_REAL, 0, e->loc);
            o->rhs->fn = id;
            o->rhs->a = args;
            o->rhs->na = g->nin;
            rc = args ? 0 : -1;
        } else {
            if (id == -1) cerr(c, e->loc, "the call of '%s' as a statement is not supported in functions", written);
            rc = -1;
        }
    }
    free(written);
    return rc;
}

static int for_stmt(cc *c, const fl_stmt *s, fs *o, int k)
{
    const fl_iter *it = &s->iters[k];
    o->kind = FS_FOR;
    o->rhs = value(c, it->range);
    if (o->rhs && o->rhs->nd != 1) {
        cerr(c, it->range->loc, "the range of '%s' must be a vector", it->name);
        o->rhs = NULL;
    }
    size_t base = c->iters.n;
    o->iter = new_iter(c, it->name, o->rhs ? o->rhs->ty : UT_INT, it->loc);
    int rc;
    if (k + 1 < s->niters) {
        /* for i in r1, j in r2: a loop over j inside the loop over i */
        o->body.n = 1;
        o->body.st = fl_arena_alloc(c->r->ar, sizeof(fs));
        o->body.st->loc = o->loc;
        rc = for_stmt(c, s, o->body.st, k + 1);
    } else {
        c->loops++;
        rc = block(c, s->body, s->nbody, &o->body);
        c->loops--;
    }
    c->iters.n = base;
    return rc || !o->rhs ? -1 : 0;
}

static int stmt(cc *c, const fl_stmt *s, fs *o)
{
    memset(o, 0, sizeof *o);
    o->loc = fl_ufunc_loc(c->r, s->loc);
    switch (s->kind) {
    case ST_ASSIGN: return assign_stmt(c, s, o);
    case ST_CALL: return call_stmt(c, s, o);
    case ST_IF: {
        o->kind = FS_IF;
        o->nbr = s->nbr;
        o->conds = nargs_alloc(c, s->nbr);
        o->blocks = fl_arena_alloc(c->r->ar, sizeof(fblock) * (size_t)(s->nbr ? s->nbr : 1));
        int rc = 0;
        for (int i = 0; i < s->nbr; i++) {
            if (s->br[i].cond) {
                o->conds[i] = condition(c, s->br[i].cond, "'if'");
                if (!o->conds[i]) rc = -1;
            }
            if (block(c, s->br[i].st, s->br[i].n, &o->blocks[i])) rc = -1;
        }
        return rc;
    }
    case ST_WHILE: {
        o->kind = FS_WHILE;
        o->nbr = 1;
        o->conds = nargs_alloc(c, 1);
        o->blocks = fl_arena_alloc(c->r->ar, sizeof(fblock));
        o->conds[0] = condition(c, s->br[0].cond, "'while'");
        c->loops++;
        int rc = block(c, s->br[0].st, s->br[0].n, &o->blocks[0]);
        c->loops--;
        return rc || !o->conds[0] ? -1 : 0;
    }
    case ST_FOR: return for_stmt(c, s, o, 0);
    case ST_BREAK:
        o->kind = FS_BREAK;
        if (!c->loops) {
            cerr(c, s->loc, "'break' outside a loop");
            return -1;
        }
        return 0;
    case ST_RETURN: o->kind = FS_RETURN; return 0;
    case ST_WHEN:
        cerr(c, s->loc, "when statements are not allowed in functions");
        return -1;
    }
    cerr(c, s->loc, "unsupported statement in a function");
    return -1;
}

static int block(cc *c, const fl_stmt *st, int n, fblock *out)
{
    out->n = n;
    out->st = fl_arena_alloc(c->r->ar, sizeof(fs) * (size_t)(n ? n : 1));
    int rc = 0;
    for (int i = 0; i < n; i++)
        if (stmt(c, &st[i], &out->st[i])) rc = -1;
    return rc;
}

/* ---- body -------------------------------------------------------------------- */

/* What a function class may not contain. */
static void check_class(cc *c, const fl_class_ast *cls)
{
    for (size_t i = 0; i < cls->unsupported.n; i++)
        cerr(c, cls->unsupported.v[i].loc, "%s are not supported (function '%s')", cls->unsupported.v[i].what,
             c->f->path);
    if (cls->connects.n || cls->eqs.n || cls->ieqs.n) {
        fl_loc loc = cls->eqs.n ? cls->eqs.v[0].loc : cls->ieqs.n ? cls->ieqs.v[0].loc : cls->connects.v[0].loc;
        cerr(c, loc, "equations are not allowed in functions (use an algorithm section)");
    }
    for (size_t i = 0; i < cls->algs.n; i++)
        if (cls->algs.v[i].initial)
            cerr(c, cls->algs.v[i].loc, "initial algorithms are not allowed in functions");
    for (size_t i = 0; i < cls->classes.n; i++)
        cerr(c, cls->classes.v[i]->loc, "classes inside functions are not supported (function '%s')", c->f->path);
}

/* Sizes and bindings of the variables of one part, in declaration order;
 * i counts the variables over the parts. */
static void declarations(cc *c, const fl_class_ast *cls, size_t *at)
{
    for (size_t j = 0; j < cls->decls.n; j++) {
        const fl_decl *dc = &cls->decls.v[j];
        size_t i = (*at)++;
        int nd = decl_ndims(dc);
        uvar *v = &c->vars.v[i];
        for (int k = 0; k < nd && k < 2; k++) {
            const fl_expr *x = decl_dim(dc, k);
            if (x->kind == EX_COLON) continue;
            fx *s = value(c, x);
            if (s && (s->ty != UT_INT || s->nd)) {
                cerr(c, x->loc, "the size of '%s' must be an Integer", dc->name);
                s = NULL;
            }
            c->vars.v[i].dim[k] = s; /* v may move: c->vars grows with iterators */
            v = &c->vars.v[i];
            if (s && s->op == FX_CONST) {
                if (s->k < 0) cerr(c, x->loc, "the size of '%s' must not be negative", dc->name);
                v->kdim[k] = (int)s->k;
            }
        }
        if (dc->binding) {
            fx *b = value(c, dc->binding);
            v = &c->vars.v[i];
            if (b && assignable(c, v->ty, v->nd, b, v->name, dc->binding->loc)) v->bind = b;
        }
    }
}

int fl_ufunc_compile_body(fl_ufuncs *r, int id, const fl_class_ast *cls, const fl_ufunc_scope *scope, fl_diag *d)
{
    ufn *f = r->fns.v[id];
    cc c;
    memset(&c, 0, sizeof c);
    c.r = r;
    c.f = f;
    c.id = id;
    c.cls = cls;
    c.scope = scope;
    c.d = d;
    for (int i = 0; i < f->nvars; i++) FL_VEC_PUSH(c.vars, f->vars[i]);
    if (cls->partial) cerr(&c, cls->loc, "function '%s' is partial and cannot be called", f->path);
    lineage pt;
    pt.n = 0;
    collect(&c, cls, &pt, 0);
    size_t at = 0;
    int n = 0;
    for (int p = 0; p < pt.n; p++) {
        c.cls = pt.cls[p];
        check_class(&c, c.cls);
        declarations(&c, c.cls, &at);
        for (size_t i = 0; i < c.cls->algs.n; i++) n += c.cls->algs.v[i].n;
    }
    f->body.n = n;
    f->body.st = fl_arena_alloc(r->ar, sizeof(fs) * (size_t)(n ? n : 1));
    int k = 0;
    for (int p = 0; p < pt.n; p++) {
        c.cls = pt.cls[p];
        for (size_t i = 0; i < c.cls->algs.n; i++)
            for (int j = 0; j < c.cls->algs.v[i].n; j++) stmt(&c, &c.cls->algs.v[i].st[j], &f->body.st[k++]);
    }
    f->vars = fl_arena_alloc(r->ar, sizeof(uvar) * (c.vars.n ? c.vars.n : 1));
    if (c.vars.n) memcpy(f->vars, c.vars.v, sizeof(uvar) * c.vars.n);
    f->nvars = (int)c.vars.n;
    f->ncallees = (int)c.callees.n;
    f->callees = fl_arena_alloc(r->ar, sizeof(int) * (c.callees.n ? c.callees.n : 1));
    if (c.callees.n) memcpy(f->callees, c.callees.v, sizeof(int) * c.callees.n);
    FL_VEC_FREE(c.vars);
    FL_VEC_FREE(c.iters);
    FL_VEC_FREE(c.callees);
    return c.failed ? -1 : 0;
}
