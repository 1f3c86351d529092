/* test_symbolic.c - the expression graph of the equation layer: sharing,
 * folding, derivatives against central differences and closed forms,
 * linearity, and the batch program against direct evaluation. */
#include "check.h"
#include "symbolic/prog.h"
#include "symbolic/sym.h"
#include "util/util.h"

/* Leaves: variables v0..v3 are inputs from source 0, parameters from
 * source 1, time from source 2. */
static int leaf_inputs(void *ctx, const fl_snode *n, fl_sx x, int *src, int *idx)
{
    (void)ctx;
    (void)x;
    switch (n->op) {
    case SX_VAR: *src = 0; *idx = (int)n->u.k; return 1;
    case SX_PAR: *src = 1; *idx = (int)n->u.k; return 1;
    case SX_TIME: *src = 2; *idx = 0; return 1;
    default: return 0;
    }
}

/* Value of x at variables v[], parameters p[], time t through a program. */
static double run1(fl_sgraph *g, fl_sx x, const double *v, const double *p, double t)
{
    fl_sprog pr;
    fl_sx roots[1] = {x};
    CHECK(fl_sprog_lower(&pr, g, roots, 1, leaf_inputs, NULL) == 0);
    double *reg = fl_sprog_scratch(&pr, 1);
    for (int i = 0; i < pr.nld; i++) {
        const fl_sload *l = &pr.ld[i];
        reg[l->reg] = l->src == 0 ? v[l->idx] : l->src == 1 ? p[l->idx] : t;
    }
    fl_sexec ex;
    memset(&ex, 0, sizeof ex);
    ex.t = t;
    fl_sprog_run(&pr, reg, 1, 1, &ex);
    double r = reg[pr.out[0]];
    free(reg);
    fl_sprog_free(&pr);
    return r;
}

static void test_sharing_and_folding(void)
{
    fl_sgraph g;
    fl_sg_init(&g);
    fl_sx x = fl_sx_var(&g, 0), y = fl_sx_var(&g, 1);
    CHECK(fl_sx_add(&g, x, y) == fl_sx_add(&g, y, x));
    CHECK(fl_sx_mul(&g, x, y) == fl_sx_mul(&g, y, x));
    CHECK(fl_sx_sub(&g, x, x) == fl_sx_const(&g, 0));
    CHECK(fl_sx_add(&g, x, fl_sx_const(&g, 0)) == x);
    CHECK(fl_sx_mul(&g, fl_sx_const(&g, 1), x) == x);
    CHECK(fl_sx_mul(&g, fl_sx_const(&g, 0), x) == fl_sx_const(&g, 0));
    CHECK(fl_sx_neg(&g, fl_sx_neg(&g, x)) == x);
    CHECK(fl_sx_add(&g, x, fl_sx_neg(&g, y)) == fl_sx_sub(&g, x, y));
    fl_sx k = fl_sx_add(&g, fl_sx_const(&g, 2), fl_sx_mul(&g, fl_sx_const(&g, 3), fl_sx_const(&g, 4)));
    CHECK(fl_sx_is_const(&g, k, 14));
    CHECK(fl_sx_is_const(&g, fl_sx_fn1(&g, FN_COS, fl_sx_const(&g, 0)), 1));
    CHECK(fl_sx_if(&g, fl_sx_const(&g, 1), x, y) == x);
    CHECK(fl_sx_if(&g, fl_sx_rel(&g, FL_REL_LT, x, y, 0), x, x) == x);
    /* the same call twice is one node; a different argument list is another */
    fl_sx a1[2] = {x, y}, a2[2] = {y, x};
    CHECK(fl_sx_call(&g, 3, 0, a1, 2, 0) == fl_sx_call(&g, 3, 0, a1, 2, 0));
    CHECK(fl_sx_call(&g, 3, 0, a1, 2, 0) != fl_sx_call(&g, 3, 0, a2, 2, 0));
    int before = g.nn;
    for (int i = 0; i < 100; i++) fl_sx_mul(&g, fl_sx_add(&g, x, y), fl_sx_sub(&g, x, y));
    CHECK(g.nn <= before + 3);
    fl_sg_free(&g);
}

/* d/dv0 of each one-argument function against a central difference. */
static void test_derivatives(void)
{
    fl_sgraph g;
    fl_sg_init(&g);
    fl_sx x = fl_sx_var(&g, 0), y = fl_sx_var(&g, 1);
    static const int fns[] = {FN_SIN, FN_COS, FN_TAN, FN_ASIN, FN_ACOS, FN_ATAN, FN_SINH, FN_COSH,
                              FN_TANH, FN_EXP, FN_LOG, FN_LOG10, FN_SQRT, FN_ABS};
    double v[4] = {0.37, -1.3, 0, 0}, p[1] = {0};
    for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
        /* f(x*y + 0.9) composed, to exercise the chain rule; x*y+0.9 = 0.419 */
        fl_sx inner = fl_sx_add(&g, fl_sx_mul(&g, x, y), fl_sx_const(&g, 0.9));
        fl_sx e = fl_sx_fn1(&g, (fl_sfn)fns[k], inner);
        fl_sx d = fl_sx_partial(&g, e, x);
        double h = 1e-6, vp[4], vm[4];
        memcpy(vp, v, sizeof vp);
        memcpy(vm, v, sizeof vm);
        vp[0] += h;
        vm[0] -= h;
        double fd = (run1(&g, e, vp, p, 0) - run1(&g, e, vm, p, 0)) / (2 * h);
        CHECK_NEAR(run1(&g, d, v, p, 0), fd, 1e-7 * (1 + fabs(fd)));
    }
    /* two-argument functions and operators: d/dx and d/dy */
    fl_sx es[] = {
        fl_sx_fn2(&g, FN_ATAN2, x, y),
        fl_sx_pow(&g, x, fl_sx_const(&g, 3)),
        fl_sx_pow(&g, fl_sx_fn1(&g, FN_ABS, y), x),
        fl_sx_div(&g, fl_sx_fn1(&g, FN_SIN, x), fl_sx_add(&g, y, fl_sx_const(&g, 4))),
        fl_sx_fn2(&g, FN_MAX, x, y),
        fl_sx_fn2(&g, FN_MIN, x, y),
        fl_sx_if(&g, fl_sx_rel(&g, FL_REL_GT, x, fl_sx_const(&g, 0), 1), fl_sx_mul(&g, x, x), y),
    };
    for (size_t k = 0; k < sizeof es / sizeof es[0]; k++)
        for (int w = 0; w < 2; w++) {
            fl_sx d = fl_sx_partial(&g, es[k], w ? y : x);
            double h = 1e-6, vp[4], vm[4];
            memcpy(vp, v, sizeof vp);
            memcpy(vm, v, sizeof vm);
            vp[w] += h;
            vm[w] -= h;
            double fd = (run1(&g, es[k], vp, p, 0) - run1(&g, es[k], vm, p, 0)) / (2 * h);
            CHECK_NEAR(run1(&g, d, v, p, 0), fd, 1e-7 * (1 + fabs(fd)));
        }
    /* closed forms: d(x^2 y)/dx = 2 x y exactly; d(c*x)/dx = c (a parameter) */
    fl_sx e = fl_sx_mul(&g, fl_sx_pow(&g, x, fl_sx_const(&g, 2)), y);
    CHECK_NEAR(run1(&g, fl_sx_partial(&g, e, x), v, p, 0), 2 * v[0] * v[1], 1e-15);
    fl_sx c = fl_sx_par(&g, 0);
    CHECK(fl_sx_partial(&g, fl_sx_mul(&g, c, x), x) == c);
    CHECK(fl_sx_partial(&g, fl_sx_mul(&g, c, x), y) == fl_sx_const(&g, 0));
    /* a relation has no derivative */
    CHECK(fl_sx_partial(&g, fl_sx_rel(&g, FL_REL_LT, x, y, 0), x) == fl_sx_const(&g, 0));
    fl_sg_free(&g);
}

/* Total time derivative: seed each variable with its derivative. */
static fl_sx seed_time(void *ctx, fl_sx leaf)
{
    fl_sgraph *g = ctx;
    const fl_snode *n = &g->n[leaf];
    if (n->op == SX_TIME) return fl_sx_const(g, 1);
    if (n->op == SX_VAR && n->u.k == 0) return fl_sx_var(g, 1); /* der(v0) = v1 */
    if (n->op == SX_VAR && n->u.k == 1) return fl_sx_var(g, 2); /* der(v1) = v2 */
    return fl_sx_const(g, 0);
}

static void test_time_derivative(void)
{
    fl_sgraph g;
    fl_sg_init(&g);
    fl_sx s = fl_sx_var(&g, 0), t = fl_sx_time(&g);
    /* d/dt (s sin(t)) = v sin t + s cos t; twice: a sin t + 2 v cos t - s sin t */
    fl_sx e = fl_sx_mul(&g, s, fl_sx_fn1(&g, FN_SIN, t));
    fl_sx d1 = fl_sx_diff(&g, e, seed_time, &g);
    fl_sx d2 = fl_sx_diff(&g, d1, seed_time, &g);
    double v[3] = {0.5, -2, 3}, tt = 0.8;
    CHECK_NEAR(run1(&g, d1, v, NULL, tt), v[1] * sin(tt) + v[0] * cos(tt), 1e-15);
    CHECK_NEAR(run1(&g, d2, v, NULL, tt), v[2] * sin(tt) + 2 * v[1] * cos(tt) - v[0] * sin(tt), 1e-14);
    fl_sg_free(&g);
}

static void test_linear(void)
{
    fl_sgraph g;
    fl_sg_init(&g);
    fl_sx x = fl_sx_var(&g, 0), y = fl_sx_var(&g, 1), c = fl_sx_par(&g, 0);
    fl_sx coef, rest;
    /* c*x + y^2 - 3 : linear in x with coefficient c */
    fl_sx e = fl_sx_sub(&g, fl_sx_add(&g, fl_sx_mul(&g, c, x), fl_sx_mul(&g, y, y)), fl_sx_const(&g, 3));
    CHECK(fl_sx_linear(&g, e, x, &coef, &rest));
    CHECK(coef == c);
    double v[2] = {0, 2}, p[1] = {5};
    CHECK_NEAR(run1(&g, rest, v, p, 0), 1, 0);
    CHECK(!fl_sx_linear(&g, e, y, &coef, &rest));
    CHECK(!fl_sx_linear(&g, fl_sx_fn1(&g, FN_SIN, x), x, &coef, &rest));
    CHECK(!fl_sx_linear(&g, fl_sx_fn1(&g, FN_FLOOR, x), x, &coef, &rest));
    CHECK(!fl_sx_linear(&g, fl_sx_div(&g, y, x), x, &coef, &rest));
    /* piecewise with a frozen condition: linear */
    fl_sx pw = fl_sx_if(&g, fl_sx_rel(&g, FL_REL_GT, y, fl_sx_const(&g, 0), 0), fl_sx_mul(&g, fl_sx_const(&g, 2), x), x);
    CHECK(fl_sx_linear(&g, pw, x, &coef, &rest));
    CHECK(rest == fl_sx_const(&g, 0));
    /* ... but not when the condition depends on x */
    fl_sx pw2 = fl_sx_if(&g, fl_sx_rel(&g, FL_REL_GT, x, fl_sx_const(&g, 0), 0), x, fl_sx_neg(&g, x));
    CHECK(!fl_sx_linear(&g, pw2, x, &coef, &rest));
    fl_sg_free(&g);
}

/* The batch interpreter gives each element what the scalar run gives. */
static void test_batch(void)
{
    fl_sgraph g;
    fl_sg_init(&g);
    fl_sx s0 = fl_sx_var(&g, 0), s1 = fl_sx_var(&g, 1), v0 = fl_sx_var(&g, 2), v1 = fl_sx_var(&g, 3);
    fl_sx c = fl_sx_par(&g, 0), d = fl_sx_par(&g, 1);
    fl_sx srel = fl_sx_sub(&g, s1, s0), vrel = fl_sx_sub(&g, v1, v0);
    fl_sx f = fl_sx_add(&g, fl_sx_mul(&g, c, fl_sx_pow(&g, srel, fl_sx_const(&g, 3))), fl_sx_mul(&g, d, vrel));
    fl_sx roots[3] = {f, fl_sx_neg(&g, f), fl_sx_partial(&g, f, s0)};
    fl_sprog pr;
    CHECK(fl_sprog_lower(&pr, &g, roots, 3, leaf_inputs, NULL) == 0);
    enum { B = 7 };
    double *reg = fl_sprog_scratch(&pr, B);
    double vin[B][4], par[B][2];
    for (int i = 0; i < B; i++) {
        for (int k = 0; k < 4; k++) vin[i][k] = 0.1 * (i + 1) * (k + 1) - 0.3 * k;
        par[i][0] = 10 + i;
        par[i][1] = 0.5 * i;
        for (int l = 0; l < pr.nld; l++) {
            const fl_sload *ld = &pr.ld[l];
            reg[ld->reg * B + i] = ld->src == 0 ? vin[i][ld->idx] : par[i][ld->idx];
        }
    }
    fl_sprog_run(&pr, reg, B, 5, NULL); /* a partial batch: the first 5 */
    for (int i = 0; i < 5; i++) {
        double sr = vin[i][1] - vin[i][0], vr = vin[i][3] - vin[i][2];
        double fi = par[i][0] * sr * sr * sr + par[i][1] * vr;
        CHECK_NEAR(reg[pr.out[0] * B + i], fi, 1e-14);
        CHECK_NEAR(reg[pr.out[1] * B + i], -fi, 1e-14);
        CHECK_NEAR(reg[pr.out[2] * B + i], -3 * par[i][0] * sr * sr, 1e-13);
    }
    free(reg);
    fl_sprog_free(&pr);
    fl_sg_free(&g);
}

/* Deep expressions: a 100000-term sum is built, differentiated, lowered
 * and run without recursion. */
static void test_deep(void)
{
    fl_sgraph g;
    fl_sg_init(&g);
    fl_sx x = fl_sx_var(&g, 0), e = fl_sx_const(&g, 0);
    for (int i = 1; i <= 100000; i++) e = fl_sx_add(&g, fl_sx_mul(&g, fl_sx_const(&g, i), x), e);
    double v[1] = {1};
    CHECK_NEAR(run1(&g, e, v, NULL, 0), 100000.0 * 100001.0 / 2, 0);
    CHECK_NEAR(run1(&g, fl_sx_partial(&g, e, x), v, NULL, 0), 100000.0 * 100001.0 / 2, 0);
    fl_buf b = {0};
    fl_sx_print(&b, &g, e, NULL, NULL);
    CHECK(b.n > 0 && strstr(b.s, "...") != NULL);
    fl_buf_free(&b);
    fl_sg_free(&g);
}

static void test_print(void)
{
    fl_sgraph g;
    fl_sg_init(&g);
    fl_sx x = fl_sx_var(&g, 0), y = fl_sx_var(&g, 1);
    fl_sx e = fl_sx_mul(&g, fl_sx_sub(&g, x, y), fl_sx_add(&g, x, fl_sx_const(&g, 2)));
    fl_buf b = {0};
    fl_sx_print(&b, &g, e, NULL, NULL);
    CHECK(strcmp(b.s, "(v0 - v1)*(v0 + 2)") == 0 || strcmp(b.s, "(v0 + 2)*(v0 - v1)") == 0);
    fl_buf_free(&b);
    fl_sg_free(&g);
}

int main(void)
{
    test_sharing_and_folding();
    test_derivatives();
    test_time_derivative();
    test_linear();
    test_batch();
    test_deep();
    test_print();
    return check_done();
}
