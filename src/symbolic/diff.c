/* diff.c - symbolic derivatives on the expression graph, the test for
 * linearity in one variable, and printing.
 *
 * One routine serves both uses the equation layer has: partial derivatives
 * (the Jacobian: seed 1 at one variable, 0 elsewhere) and total time
 * derivatives (index reduction, der() of known expressions: seed each
 * variable with its derivative). Derivatives are memoised per node, so the
 * derivative of a DAG costs time linear in its size. Relations and the
 * conditions of if-expressions are constant between events, so they
 * contribute no derivative. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sym.h"
#include "util/util.h"

typedef struct dctx {
    fl_sgraph *g;
    fl_sx (*seed)(void *, fl_sx);
    void *ctx;
    fl_smap d; /* derivative per node, FL_SX_NONE: not differentiable */
    int failed;
    int partial; /* a partial derivative (SX_DGIV through its value), not a time derivative */
} dctx;

static fl_sx D(const dctx *c, fl_sx x)
{
    return fl_smap_get(&c->d, x);
}

static fl_sx call_derivative(dctx *c, fl_sx x)
{
    fl_sgraph *g = c->g;
    fl_snode n = g->n[x];
    if (n.flags) return FL_SX_NONE; /* second derivatives of functions are not available */
    fl_sx sum = fl_sx_const(g, 0);
    for (int i = 0; i < n.b; i++) {
        fl_sx arg = g->args[n.a + i];
        fl_sx da = D(c, arg);
        if (da == FL_SX_NONE) return FL_SX_NONE;
        if (fl_sx_is_const(g, da, 0)) continue;
        /* the argument list must be copied: making the partial may move g->args */
        fl_sx tmp[64];
        fl_sx *args = n.b <= 64 ? tmp : fl_xmalloc(sizeof(fl_sx) * (size_t)n.b);
        memcpy(args, g->args + n.a, sizeof(fl_sx) * (size_t)n.b);
        fl_sx part = fl_sx_call(g, (int)n.u.k, n.fn, args, n.b, i + 1);
        if (args != tmp) free(args);
        sum = fl_sx_add(g, sum, fl_sx_mul(g, part, da));
    }
    return sum;
}

static void diff_visit(void *cv, fl_sx x)
{
    dctx *c = cv;
    fl_sgraph *g = c->g;
    fl_snode n = g->n[x]; /* a copy: building nodes may move the array */
    fl_sx zero = fl_sx_const(g, 0);
    fl_sx da = n.a != FL_SX_NONE && n.op != SX_CALL ? D(c, n.a) : FL_SX_NONE;
    fl_sx db = n.b != FL_SX_NONE && n.op != SX_CALL ? D(c, n.b) : FL_SX_NONE;
    fl_sx r = zero;
    /* operands whose derivative failed make this one fail, except where
     * they do not enter (Boolean operands) */
    int need_a = 0, need_b = 0;
    switch ((fl_sop)n.op) {
    case SX_CONST:
    case SX_INITIAL:
    case SX_TERMINAL:
    case SX_SAMPLE:
    case SX_REL:
    case SX_AND:
    case SX_OR:
    case SX_NOT:
    case SX_NOP:
        r = zero;
        break;
    case SX_TIME:
    case SX_PAR:
    case SX_VAR:
    case SX_DER:
    case SX_PRE:
        r = c->seed(c->ctx, x);
        break;
    case SX_ADD:
        need_a = need_b = 1;
        if (da != FL_SX_NONE && db != FL_SX_NONE) r = fl_sx_add(g, da, db);
        break;
    case SX_SUB:
        need_a = need_b = 1;
        if (da != FL_SX_NONE && db != FL_SX_NONE) r = fl_sx_sub(g, da, db);
        break;
    case SX_NEG:
        need_a = 1;
        if (da != FL_SX_NONE) r = fl_sx_neg(g, da);
        break;
    case SX_MUL:
        need_a = need_b = 1;
        if (da != FL_SX_NONE && db != FL_SX_NONE)
            r = fl_sx_add(g, fl_sx_mul(g, da, n.b), fl_sx_mul(g, n.a, db));
        break;
    case SX_DIV:
        /* d(a/b) = (da - (a/b) db) / b */
        need_a = need_b = 1;
        if (da != FL_SX_NONE && db != FL_SX_NONE)
            r = fl_sx_div(g, fl_sx_sub(g, da, fl_sx_mul(g, x, db)), n.b);
        break;
    case SX_POW:
        need_a = need_b = 1;
        if (da == FL_SX_NONE || db == FL_SX_NONE) break;
        if (fl_sx_is_const(g, db, 0)) {
            /* b constant: b a^(b-1) da */
            fl_sx bm1 = fl_sx_sub(g, n.b, fl_sx_const(g, 1));
            r = fl_sx_mul(g, fl_sx_mul(g, n.b, fl_sx_pow(g, n.a, bm1)), da);
        } else if (fl_sx_is_const(g, da, 0)) {
            r = fl_sx_mul(g, fl_sx_mul(g, x, fl_sx_fn1(g, FN_LOG, n.a)), db);
        } else {
            fl_sx t1 = fl_sx_mul(g, db, fl_sx_fn1(g, FN_LOG, n.a));
            fl_sx t2 = fl_sx_div(g, fl_sx_mul(g, n.b, da), n.a);
            r = fl_sx_mul(g, x, fl_sx_add(g, t1, t2));
        }
        break;
    case SX_FN1: {
        need_a = 1;
        if (da == FL_SX_NONE) break;
        if (fl_sx_is_const(g, da, 0)) {
            r = zero;
            break;
        }
        fl_sx a = n.a, one = fl_sx_const(g, 1), f = zero;
        switch ((fl_sfn)n.fn) {
        case FN_SIN: f = fl_sx_fn1(g, FN_COS, a); break;
        case FN_COS: f = fl_sx_neg(g, fl_sx_fn1(g, FN_SIN, a)); break;
        case FN_TAN: f = fl_sx_add(g, one, fl_sx_mul(g, x, x)); break;
        case FN_ASIN: f = fl_sx_div(g, one, fl_sx_fn1(g, FN_SQRT, fl_sx_sub(g, one, fl_sx_mul(g, a, a)))); break;
        case FN_ACOS: f = fl_sx_neg(g, fl_sx_div(g, one, fl_sx_fn1(g, FN_SQRT, fl_sx_sub(g, one, fl_sx_mul(g, a, a))))); break;
        case FN_ATAN: f = fl_sx_div(g, one, fl_sx_add(g, one, fl_sx_mul(g, a, a))); break;
        case FN_SINH: f = fl_sx_fn1(g, FN_COSH, a); break;
        case FN_COSH: f = fl_sx_fn1(g, FN_SINH, a); break;
        case FN_TANH: f = fl_sx_sub(g, one, fl_sx_mul(g, x, x)); break;
        case FN_EXP: f = x; break;
        case FN_LOG: f = fl_sx_div(g, one, a); break;
        case FN_LOG10: f = fl_sx_div(g, fl_sx_const(g, 1 / log(10.0)), a); break;
        case FN_SQRT: f = fl_sx_div(g, fl_sx_const(g, 0.5), x); break;
        case FN_ABS: f = fl_sx_fn1(g, FN_SIGN, a); break;
        case FN_SIGN:
        case FN_FLOOR:
        case FN_CEIL:
        case FN_INTEGER: f = zero; break;
        default: f = zero; break;
        }
        r = fl_sx_mul(g, f, da);
        break;
    }
    case SX_FN2: {
        need_a = need_b = 1;
        if (da == FL_SX_NONE || db == FL_SX_NONE) break;
        fl_sx a = n.a, b = n.b;
        switch ((fl_sfn)n.fn) {
        case FN_ATAN2: {
            fl_sx den = fl_sx_add(g, fl_sx_mul(g, a, a), fl_sx_mul(g, b, b));
            r = fl_sx_div(g, fl_sx_sub(g, fl_sx_mul(g, b, da), fl_sx_mul(g, a, db)), den);
            break;
        }
        case FN_MIN: r = fl_sx_if(g, fl_sx_rel(g, FL_REL_LE, a, b, 1), da, db); break;
        case FN_MAX: r = fl_sx_if(g, fl_sx_rel(g, FL_REL_GE, a, b, 1), da, db); break;
        case FN_MOD: r = fl_sx_sub(g, da, fl_sx_mul(g, fl_sx_fn1(g, FN_FLOOR, fl_sx_div(g, a, b)), db)); break;
        case FN_REM: r = fl_sx_sub(g, da, fl_sx_mul(g, fl_sx_fn2(g, FN_DIV, a, b), db)); break;
        default: r = zero; break;
        }
        break;
    }
    case SX_IF: {
        fl_sx dbr = D(c, n.b), dc = D(c, n.c);
        if (dbr == FL_SX_NONE || dc == FL_SX_NONE) {
            r = FL_SX_NONE;
            break;
        }
        r = fl_sx_if(g, n.a, dbr, dc);
        break;
    }
    case SX_CALL:
        r = call_derivative(c, x);
        break;
    case SX_DGIV:
        if (c->partial) {
            need_a = 1;
            r = da;
        } else {
            r = n.b;
        }
        break;
    }
    if ((need_a && da == FL_SX_NONE) || (need_b && db == FL_SX_NONE)) r = FL_SX_NONE;
    fl_smap_put(&c->d, x, r);
}

static fl_sx diff_with(fl_sgraph *g, fl_sx x, fl_sx (*seed)(void *ctx, fl_sx leaf), void *ctx, int partial)
{
    dctx c;
    memset(&c, 0, sizeof c);
    c.partial = partial;
    c.g = g;
    c.seed = seed;
    c.ctx = ctx;
    fl_sx roots[1] = {x};
    fl_sx_postorder(g, roots, 1, diff_visit, &c);
    fl_sx r = fl_smap_get(&c.d, x);
    fl_smap_free(&c.d);
    return r;
}

fl_sx fl_sx_diff(fl_sgraph *g, fl_sx x, fl_sx (*seed)(void *ctx, fl_sx leaf), void *ctx)
{
    return diff_with(g, x, seed, ctx, 0);
}

static fl_sx seed_one(void *ctx, fl_sx leaf)
{
    fl_sx *var = ctx;
    return leaf == var[0] ? var[1] : var[2];
}

fl_sx fl_sx_partial(fl_sgraph *g, fl_sx x, fl_sx var)
{
    fl_sx ctx[3] = {var, fl_sx_const(g, 1), fl_sx_const(g, 0)};
    return diff_with(g, x, seed_one, ctx, 1);
}

/* ---- linearity ------------------------------------------------------------- */

typedef struct lin_ctx {
    const fl_sgraph *g;
    fl_sx var;
    fl_smap deg; /* 0 independent, 1 affine, 2 other */
} lin_ctx;

static void lin_visit(void *cv, fl_sx x)
{
    lin_ctx *c = cv;
    const fl_snode *n = &c->g->n[x];
    int da = n->a != FL_SX_NONE && n->op != SX_CALL ? fl_smap_get(&c->deg, n->a) : 0;
    int db = n->b != FL_SX_NONE && n->op != SX_CALL ? fl_smap_get(&c->deg, n->b) : 0;
    int dcc = n->c != FL_SX_NONE && n->op != SX_CALL && n->op != SX_REL ? fl_smap_get(&c->deg, n->c) : 0;
    int r;
    switch ((fl_sop)n->op) {
    case SX_VAR:
    case SX_DER:
    case SX_TIME:
        r = x == c->var;
        break;
    case SX_ADD:
    case SX_SUB:
        r = FL_MAX(da, db);
        break;
    case SX_NEG:
        r = da;
        break;
    case SX_MUL:
        r = FL_MIN(da + db, 2);
        break;
    case SX_DIV:
        r = db ? 2 : da;
        break;
    case SX_IF:
        r = da ? 2 : FL_MAX(db, dcc);
        break;
    case SX_CALL: {
        r = 0;
        for (int i = 0; i < n->b; i++)
            if (fl_smap_get(&c->deg, c->g->args[n->a + i])) r = 2;
        break;
    }
    case SX_DGIV:
        r = da ? 2 : db ? 2 : 0; /* the pair is opaque to linear solving */
        break;
    default:
        r = (da || db || dcc) ? 2 : 0;
        break;
    }
    fl_smap_put(&c->deg, x, r);
}

static fl_sx zero_var(void *ctx, fl_sx leaf)
{
    fl_sx *v = ctx;
    return leaf == v[0] ? v[1] : leaf;
}

int fl_sx_linear(fl_sgraph *g, fl_sx x, fl_sx var, fl_sx *coef, fl_sx *rest)
{
    lin_ctx c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.var = var;
    fl_sx roots[1] = {x};
    fl_sx_postorder(g, roots, 1, lin_visit, &c);
    int deg = fl_smap_get(&c.deg, x);
    fl_smap_free(&c.deg);
    if (deg > 1) return 0;
    *coef = deg ? fl_sx_partial(g, x, var) : fl_sx_const(g, 0);
    if (*coef == FL_SX_NONE) return 0;
    fl_sx sub[2] = {var, fl_sx_const(g, 0)};
    *rest = deg ? fl_sx_subst(g, x, zero_var, sub) : x;
    return 1;
}

/* ---- printing -------------------------------------------------------------- */

static int prec(const fl_snode *n)
{
    switch ((fl_sop)n->op) {
    case SX_IF: return 0;
    case SX_OR: return 1;
    case SX_AND: return 2;
    case SX_NOT: return 3;
    case SX_REL: return 4;
    case SX_ADD:
    case SX_SUB: return 5;
    case SX_NEG: return 5;
    case SX_MUL:
    case SX_DIV: return 6;
    case SX_POW: return 7;
    default: return 9;
    }
}

typedef struct pctx {
    const fl_sgraph *g;
    void (*name)(void *, fl_buf *, const fl_snode *);
    void *ctx;
} pctx;

static void print_rec(fl_buf *b, const pctx *p, fl_sx x, int min_prec, int depth);

static void print_sub(fl_buf *b, const pctx *p, fl_sx x, int min_prec, int depth)
{
    int paren = prec(&p->g->n[x]) < min_prec;
    if (paren) fl_buf_addc(b, '(');
    print_rec(b, p, x, paren ? 0 : min_prec, depth + 1);
    if (paren) fl_buf_addc(b, ')');
}

static void print_rec(fl_buf *b, const pctx *p, fl_sx x, int min_prec, int depth)
{
    FL_UNUSED(min_prec);
    const fl_snode *n = &p->g->n[x];
    if (depth > 200) { /* messages show the start of very deep expressions */
        fl_buf_add(b, "...");
        return;
    }
    static const char *const relop[] = {"<", "<=", ">", ">=", "==", "<>"};
    switch ((fl_sop)n->op) {
    case SX_CONST: {
        char t[32];
        fl_fmt_double(t, sizeof t, n->u.v);
        fl_buf_add(b, t);
        break;
    }
    case SX_TIME: fl_buf_add(b, "time"); break;
    case SX_INITIAL: fl_buf_add(b, "initial()"); break;
    case SX_TERMINAL: fl_buf_add(b, "terminal()"); break;
    case SX_PAR:
    case SX_VAR:
    case SX_PRE:
    case SX_DER:
        if (p->name) {
            p->name(p->ctx, b, n);
        } else {
            const char *f = n->op == SX_PAR ? "p%lld" : n->op == SX_VAR ? "v%lld" : n->op == SX_PRE ? "pre(v%lld)" : "der(v%lld)";
            fl_buf_printf(b, f, (long long)n->u.k);
        }
        break;
    case SX_ADD:
    case SX_SUB:
        print_sub(b, p, n->a, 5, depth);
        fl_buf_add(b, n->op == SX_ADD ? " + " : " - ");
        print_sub(b, p, n->b, 6, depth);
        break;
    case SX_MUL:
    case SX_DIV:
        print_sub(b, p, n->a, 6, depth);
        fl_buf_add(b, n->op == SX_MUL ? "*" : "/");
        print_sub(b, p, n->b, 7, depth);
        break;
    case SX_POW:
        print_sub(b, p, n->a, 8, depth);
        fl_buf_add(b, "^");
        print_sub(b, p, n->b, 8, depth);
        break;
    case SX_NEG:
        fl_buf_add(b, "-");
        print_sub(b, p, n->a, 6, depth);
        break;
    case SX_FN1:
    case SX_FN2:
        fl_buf_add(b, fl_sfn_name((fl_sfn)n->fn));
        fl_buf_addc(b, '(');
        print_rec(b, p, n->a, 0, depth + 1);
        if (n->op == SX_FN2) {
            fl_buf_add(b, ", ");
            print_rec(b, p, n->b, 0, depth + 1);
        }
        fl_buf_addc(b, ')');
        break;
    case SX_IF:
        fl_buf_add(b, "if ");
        print_rec(b, p, n->a, 0, depth + 1);
        fl_buf_add(b, " then ");
        print_rec(b, p, n->b, 0, depth + 1);
        fl_buf_add(b, " else ");
        print_rec(b, p, n->c, 0, depth + 1);
        break;
    case SX_REL:
        if (n->flags & FL_SXF_NOEVENT) fl_buf_add(b, "noEvent(");
        print_sub(b, p, n->a, 5, depth);
        fl_buf_printf(b, " %s ", relop[n->fn % 6]);
        print_sub(b, p, n->b, 5, depth);
        if (n->flags & FL_SXF_NOEVENT) fl_buf_add(b, ")");
        break;
    case SX_AND:
    case SX_OR:
        print_sub(b, p, n->a, n->op == SX_AND ? 2 : 1, depth);
        fl_buf_add(b, n->op == SX_AND ? " and " : " or ");
        print_sub(b, p, n->b, n->op == SX_AND ? 3 : 2, depth);
        break;
    case SX_NOT:
        fl_buf_add(b, "not ");
        print_sub(b, p, n->a, 4, depth);
        break;
    case SX_SAMPLE:
        fl_buf_add(b, "sample(");
        print_rec(b, p, n->a, 0, depth + 1);
        fl_buf_add(b, ", ");
        print_rec(b, p, n->b, 0, depth + 1);
        fl_buf_addc(b, ')');
        break;
    case SX_CALL:
        if (n->flags) fl_buf_printf(b, "d%d_", n->flags);
        fl_buf_printf(b, "f%lld[%d](", (long long)n->u.k, n->fn);
        for (int i = 0; i < n->b; i++) {
            if (i) fl_buf_add(b, ", ");
            print_rec(b, p, p->g->args[n->a + i], 0, depth + 1);
        }
        fl_buf_addc(b, ')');
        break;
    case SX_DGIV:
        fl_buf_add(b, "withDerivative(");
        print_rec(b, p, n->a, 0, depth + 1);
        fl_buf_add(b, ", ");
        print_rec(b, p, n->b, 0, depth + 1);
        fl_buf_addc(b, ')');
        break;
    case SX_NOP:
        break;
    }
}

void fl_sx_print(fl_buf *b, const fl_sgraph *g, fl_sx x, void (*name)(void *ctx, fl_buf *b, const fl_snode *leaf),
                 void *ctx)
{
    pctx p = {g, name, ctx};
    print_rec(b, &p, x, 0, 0);
}
