/* test_analyze.c - the analysis of user equations on clusters built by
 * hand: explicit force laws, rigid parts folded into links with mass,
 * levers with ratios, prescribed motion, states and events, index
 * reduction of a pendulum in Cartesian coordinates, and the messages for
 * under- and over-determined equations. */
#include "check.h"
#include "symbolic/analyze.h"
#include "symbolic/prog.h"
#include "util/util.h"

/* Values for evaluating final expressions: per variable (SX_VAR), per
 * variable derivative (SX_DER), parameters, time. */
typedef struct env {
    double var[64], der[64], par[8], t;
} env;

static int leaf_env(void *ctx, const fl_snode *n, fl_sx x, int *src, int *idx)
{
    (void)ctx;
    (void)x;
    switch (n->op) {
    case SX_VAR: *src = 0; *idx = (int)n->u.k; return 1;
    case SX_DER: *src = 1; *idx = (int)n->u.k; return 1;
    case SX_PAR: *src = 2; *idx = (int)n->u.k; return 1;
    case SX_TIME: *src = 3; *idx = 0; return 1;
    case SX_PRE: *src = 0; *idx = (int)n->u.k; return 1;
    case SX_REL: *src = 4; *idx = 0; return 0;
    default: return 0;
    }
}

static double eval(fl_ucls *u, fl_sx x, const env *e)
{
    fl_sprog p;
    fl_sx roots[1] = {x};
    CHECK(fl_sprog_lower(&p, &u->fc->g, roots, 1, leaf_env, NULL) == 0);
    double *reg = fl_sprog_scratch(&p, 1);
    for (int i = 0; i < p.nld; i++) {
        const fl_sload *l = &p.ld[i];
        reg[l->reg] = l->src == 0 ? e->var[l->idx] : l->src == 1 ? e->der[l->idx] : l->src == 2 ? e->par[l->idx] : e->t;
    }
    fl_sexec ex;
    memset(&ex, 0, sizeof ex);
    ex.t = e->t;
    fl_sprog_run(&p, reg, 1, 1, &ex);
    double r = reg[p.out[0]];
    free(reg);
    fl_sprog_free(&p);
    return r;
}

static fl_fcluster *new_cluster(int natt)
{
    fl_fcluster *c = fl_xmalloc(sizeof *c);
    fl_fc_init(c);
    c->natt = natt;
    return c;
}

static int add(fl_fcluster *c, const char *name, fl_fvk kind, int att)
{
    int k = fl_fc_add_var(c, name, kind, fl_noloc);
    c->vars.v[k].att = att;
    return k;
}

#define V(k) fl_sx_var(g, (k))
#define D(k) fl_sx_der(g, (k))
#define P(k) fl_sx_par(g, (k))
#define K(x) fl_sx_const(g, (x))

/* The level-l variable of attachment a in the analysed cluster. */
static int level_var(fl_ucls *u, int a, int l)
{
    for (size_t k = 0; k < u->fc->vars.n; k++)
        if (u->fc->vars.v[k].kind == FVK_POS && u->fc->vars.v[k].att == a && u->fc->vars.v[k].level == l) return (int)k;
    return -1;
}

/* extends PartialCompliantWithRelativeStates; f = c*s_rel + d*v_rel */
static void test_coupler(void)
{
    fl_fcluster *c = new_cluster(2);
    fl_sgraph *g = &c->g;
    int srel = add(c, "s_rel", FVK_REAL, -1), vrel = add(c, "v_rel", FVK_REAL, -1), f = add(c, "f", FVK_REAL, -1);
    int p0 = add(c, "flange_a.s", FVK_POS, 0), f0 = add(c, "flange_a.f", FVK_FORCE, 0);
    int p1 = add(c, "flange_b.s", FVK_POS, 1), f1 = add(c, "flange_b.f", FVK_FORCE, 1);
    c->npar = 2;
    fl_fc_add_eq(c, V(srel), fl_sx_sub(g, V(p1), V(p0)), fl_noloc, 0);
    fl_fc_add_eq(c, V(vrel), D(srel), fl_noloc, 0);
    fl_fc_add_eq(c, V(f1), V(f), fl_noloc, 0);
    fl_fc_add_eq(c, V(f0), fl_sx_neg(g, V(f)), fl_noloc, 0);
    fl_fc_add_eq(c, V(f), fl_sx_add(g, fl_sx_mul(g, P(0), V(srel)), fl_sx_mul(g, P(1), V(vrel))), fl_noloc, 0);
    double par[2] = {100, 3};
    fl_diag *d = fl_diag_new();
    fl_ucls *u = fl_analyze(c, par, NULL, "coupler", d);
    CHECK(u != NULL);
    if (!u) {
        for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
        fl_diag_free(d);
        return;
    }
    CHECK(u->own.n == 0);
    CHECK(u->links.n == 0 && u->groups.n == 0 && u->drives.n == 0);
    CHECK(u->rels.n == 0);
    CHECK(!u->uses_accel);
    env e;
    memset(&e, 0, sizeof e);
    e.par[0] = 100;
    e.par[1] = 3;
    e.var[p0] = 0.1;
    e.var[p1] = 0.35;
    e.var[level_var(u, 0, 1)] = -1;
    e.var[level_var(u, 1, 1)] = 2;
    double fexp = 100 * 0.25 + 3 * 3;
    CHECK_NEAR(eval(u, u->force[1], &e), fexp, 1e-12);
    CHECK_NEAR(eval(u, u->force[0], &e), -fexp, 1e-12);
    CHECK_NEAR(eval(u, u->value[vrel], &e), 3, 1e-15);
    CHECK(u->kind[srel] == UV_KNOWN && u->kind[f] == UV_KNOWN);
    fl_ucls_free(u);
    fl_diag_free(d);
}

/* extends PartialRigid; v = der(s); a = der(v); m*a = flange_a.f + flange_b.f */
static void test_user_mass(void)
{
    fl_fcluster *c = new_cluster(2);
    fl_sgraph *g = &c->g;
    int s = add(c, "s", FVK_REAL, -1), v = add(c, "v", FVK_REAL, -1), a = add(c, "a", FVK_REAL, -1);
    int p0 = add(c, "flange_a.s", FVK_POS, 0), f0 = add(c, "flange_a.f", FVK_FORCE, 0);
    int p1 = add(c, "flange_b.s", FVK_POS, 1), f1 = add(c, "flange_b.f", FVK_FORCE, 1);
    c->npar = 2; /* m, L */
    fl_sx half = fl_sx_div(g, P(1), K(2));
    fl_fc_add_eq(c, V(p0), fl_sx_sub(g, V(s), half), fl_noloc, 0);
    fl_fc_add_eq(c, V(p1), fl_sx_add(g, V(s), half), fl_noloc, 0);
    fl_fc_add_eq(c, V(v), D(s), fl_noloc, 0);
    fl_fc_add_eq(c, V(a), D(v), fl_noloc, 0);
    fl_fc_add_eq(c, fl_sx_mul(g, P(0), V(a)), fl_sx_add(g, V(f0), V(f1)), fl_noloc, 0);
    double par[2] = {2.5, 0.4};
    fl_diag *d = fl_diag_new();
    fl_ucls *u = fl_analyze(c, par, NULL, "m", d);
    CHECK(u != NULL);
    if (!u) {
        for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
        fl_diag_free(d);
        return;
    }
    CHECK(u->own.n == 0);
    CHECK(u->links.n == 1);
    CHECK(u->groups.n == 1);
    env e;
    memset(&e, 0, sizeof e);
    e.par[0] = 2.5;
    e.par[1] = 0.4;
    if (u->links.n == 1) {
        CHECK(u->links.v[0].a == 0 && u->links.v[0].b == 1);
        CHECK_NEAR(eval(u, u->links.v[0].ratio, &e), 1, 0);
        CHECK_NEAR(eval(u, u->links.v[0].offset, &e), 0.4, 1e-15);
    }
    if (u->groups.n == 1) {
        CHECK(u->groups.v[0].rep == 0);
        CHECK_NEAR(eval(u, u->groups.v[0].mass, &e), 2.5, 0);
    }
    CHECK(fl_sx_is_const(g, u->force[0], 0) && fl_sx_is_const(g, u->force[1], 0));
    e.var[p0] = 1.0;
    CHECK_NEAR(eval(u, u->value[s], &e), 1.2, 1e-15);
    CHECK(u->kind[f0] == UV_INTERNAL && u->kind[f1] == UV_INTERNAL);
    fl_ucls_free(u);
    fl_diag_free(d);
}

/* A lever: flange_b.s = r*flange_a.s; flange_a.f + r*flange_b.f = 0 */
static void test_lever(void)
{
    fl_fcluster *c = new_cluster(2);
    fl_sgraph *g = &c->g;
    int p0 = add(c, "flange_a.s", FVK_POS, 0), f0 = add(c, "flange_a.f", FVK_FORCE, 0);
    int p1 = add(c, "flange_b.s", FVK_POS, 1), f1 = add(c, "flange_b.f", FVK_FORCE, 1);
    c->npar = 1;
    fl_fc_add_eq(c, V(p1), fl_sx_mul(g, P(0), V(p0)), fl_noloc, 0);
    fl_fc_add_eq(c, fl_sx_add(g, V(f0), fl_sx_mul(g, P(0), V(f1))), K(0), fl_noloc, 0);
    double par[1] = {3};
    fl_diag *d = fl_diag_new();
    fl_ucls *u = fl_analyze(c, par, NULL, "lever", d);
    CHECK(u != NULL);
    if (u) {
        env e;
        memset(&e, 0, sizeof e);
        e.par[0] = 3;
        CHECK(u->links.n == 1 && u->groups.n == 1 && u->own.n == 0);
        CHECK_NEAR(eval(u, u->links.v[0].ratio, &e), 3, 0);
        CHECK_NEAR(eval(u, u->links.v[0].offset, &e), 0, 0);
        CHECK_NEAR(eval(u, u->groups.v[0].mass, &e), 0, 0);
        CHECK(fl_sx_is_const(g, u->force[0], 0));
    }
    fl_ucls_free(u);
    fl_diag_free(d);
}

/* A position source written as an equation: flange.s = A*sin(w*time) */
static void test_drive(void)
{
    fl_fcluster *c = new_cluster(1);
    fl_sgraph *g = &c->g;
    int p0 = add(c, "flange.s", FVK_POS, 0);
    add(c, "flange.f", FVK_FORCE, 0);
    c->npar = 2;
    fl_fc_add_eq(c, V(p0), fl_sx_mul(g, P(0), fl_sx_fn1(g, FN_SIN, fl_sx_mul(g, P(1), fl_sx_time(g)))), fl_noloc, 0);
    double par[2] = {0.5, 4};
    fl_diag *d = fl_diag_new();
    fl_ucls *u = fl_analyze(c, par, NULL, "src", d);
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    CHECK(u != NULL);
    if (u) {
        CHECK(u->drives.n == 1);
        env e;
        memset(&e, 0, sizeof e);
        e.par[0] = 0.5;
        e.par[1] = 4;
        e.t = 0.3;
        const fl_udrive *dv = &u->drives.v[0];
        CHECK(dv->level == 0 && dv->att == 0 && dv->sup == -1 && !dv->fixed);
        CHECK_NEAR(eval(u, dv->s, &e), 0.5 * sin(1.2), 1e-15);
        CHECK_NEAR(eval(u, dv->v, &e), 2 * cos(1.2), 1e-15);
        CHECK_NEAR(eval(u, dv->a, &e), -8 * sin(1.2), 1e-14);
        /* the flange force is left to the network (the reaction) */
        CHECK(fl_sx_is_const(g, u->force[0], 0) || u->kind[1] != UV_KNOWN);
    }
    fl_ucls_free(u);
    fl_diag_free(d);
}

/* der(h) = v; der(v) = -g; when h < 0 then reinit(v, -e*pre(v)); end when; */
static void test_ball(void)
{
    fl_fcluster *c = new_cluster(0);
    fl_sgraph *g = &c->g;
    int h = add(c, "h", FVK_REAL, -1), v = add(c, "v", FVK_REAL, -1);
    c->npar = 2;
    fl_fc_add_eq(c, D(h), V(v), fl_noloc, 0);
    fl_fc_add_eq(c, D(v), fl_sx_neg(g, P(0)), fl_noloc, 0);
    fl_fwhen w;
    memset(&w, 0, sizeof w);
    w.nconds = 1;
    w.conds = fl_xmalloc(sizeof(fl_sx));
    w.conds[0] = fl_sx_rel(g, FL_REL_LT, V(h), K(0), 0);
    w.nbody = 1;
    w.body = fl_xcalloc(1, sizeof(fl_fwstmt));
    w.body[0].kind = FW_REINIT;
    w.body[0].var = v;
    w.body[0].value = fl_sx_neg(g, fl_sx_mul(g, P(1), fl_sx_pre(g, v)));
    FL_VEC_PUSH(c->whens, w);
    double par[2] = {9.81, 0.8};
    fl_diag *d = fl_diag_new();
    fl_ucls *u = fl_analyze(c, par, NULL, "ball", d);
    CHECK(u != NULL);
    if (u) {
        CHECK(u->own.n == 2);
        CHECK(u->kind[h] == UV_STATE && u->kind[v] == UV_STATE);
        CHECK(u->rels.n == 1 && !u->rels.v[0].time_event);
        CHECK(u->whens.n == 1);
        env e;
        memset(&e, 0, sizeof e);
        e.par[0] = 9.81;
        e.var[h] = 2;
        e.var[v] = -1;
        e.der[h] = -1;
        e.der[v] = -9.81;
        for (size_t i = 0; i < u->own.n; i++) CHECK_NEAR(eval(u, u->own.v[i].res, &e), 0, 1e-15);
        CHECK_NEAR(eval(u, u->rels.v[0].g, &e), 2, 0);
    }
    fl_ucls_free(u);
    fl_diag_free(d);
}

/* der(x) = -k*x + y; y = sin(time); and a time event: z = if time > 0.5 then 1 else 0 */
static void test_ode_algebraic(void)
{
    fl_fcluster *c = new_cluster(0);
    fl_sgraph *g = &c->g;
    int x = add(c, "x", FVK_REAL, -1), y = add(c, "y", FVK_REAL, -1), z = add(c, "z", FVK_REAL, -1);
    c->npar = 1;
    fl_fc_add_eq(c, D(x), fl_sx_add(g, fl_sx_neg(g, fl_sx_mul(g, P(0), V(x))), V(y)), fl_noloc, 0);
    fl_fc_add_eq(c, V(y), fl_sx_fn1(g, FN_SIN, fl_sx_time(g)), fl_noloc, 0);
    fl_fc_add_eq(c, V(z), fl_sx_if(g, fl_sx_rel(g, FL_REL_GT, fl_sx_time(g), K(0.5), 0), K(1), K(0)), fl_noloc, 0);
    double par[1] = {2};
    fl_diag *d = fl_diag_new();
    fl_ucls *u = fl_analyze(c, par, NULL, "ode", d);
    CHECK(u != NULL);
    if (u) {
        CHECK(u->own.n == 1 && u->kind[x] == UV_STATE && u->kind[y] == UV_KNOWN && u->kind[z] == UV_KNOWN);
        CHECK(u->rels.n == 1 && u->rels.v[0].time_event);
        env e;
        memset(&e, 0, sizeof e);
        CHECK_NEAR(eval(u, u->rels.v[0].at, &e), 0.5, 0);
    }
    fl_ucls_free(u);
    fl_diag_free(d);
}

/* The pendulum in Cartesian coordinates: index 3, reduced. */
static void test_pendulum(void)
{
    fl_fcluster *c = new_cluster(0);
    fl_sgraph *g = &c->g;
    int x = add(c, "x", FVK_REAL, -1), y = add(c, "y", FVK_REAL, -1), vx = add(c, "vx", FVK_REAL, -1),
        vy = add(c, "vy", FVK_REAL, -1), F = add(c, "F", FVK_REAL, -1);
    c->npar = 3; /* m, L, g */
    fl_fc_add_eq(c, D(x), V(vx), fl_noloc, 0);
    fl_fc_add_eq(c, D(y), V(vy), fl_noloc, 0);
    fl_fc_add_eq(c, fl_sx_mul(g, P(0), D(vx)), fl_sx_neg(g, fl_sx_mul(g, V(x), V(F))), fl_noloc, 0);
    fl_fc_add_eq(c, fl_sx_mul(g, P(0), D(vy)),
                 fl_sx_sub(g, fl_sx_neg(g, fl_sx_mul(g, V(y), V(F))), fl_sx_mul(g, P(0), P(2))), fl_noloc, 0);
    fl_fc_add_eq(c, fl_sx_add(g, fl_sx_mul(g, V(x), V(x)), fl_sx_mul(g, V(y), V(y))), fl_sx_mul(g, P(1), P(1)),
                 fl_noloc, 0);
    double par[3] = {1, 1, 9.81};
    double start[16];
    for (int i = 0; i < 16; i++) start[i] = NAN;
    start[x] = 0.6;
    start[y] = -0.8;
    fl_diag *d = fl_diag_new();
    fl_ucls *u = fl_analyze(c, par, start, "pendulum", d);
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    CHECK(u != NULL);
    if (u) {
        int nstates = 0;
        for (size_t i = 0; i < u->own.n; i++) nstates += u->own.v[i].diff;
        CHECK(nstates == 2);
        /* y (larger pivot) stays algebraic, x keeps its derivative */
        CHECK(u->kind[x] == UV_STATE);
        CHECK(u->kind[y] != UV_STATE);
    }
    fl_ucls_free(u);
    fl_diag_free(d);
}

static void test_errors(void)
{
    /* der(x) = y with nothing for y */
    fl_fcluster *c = new_cluster(0);
    fl_sgraph *g = &c->g;
    int x = fl_fc_add_var(c, "x", FVK_REAL, (fl_loc){"m.mo", 3, 5});
    int y = fl_fc_add_var(c, "y", FVK_REAL, (fl_loc){"m.mo", 4, 5});
    fl_fc_add_eq(c, D(x), V(y), (fl_loc){"m.mo", 6, 3}, 0);
    fl_diag *d = fl_diag_new();
    CHECK(fl_analyze(c, NULL, NULL, "m", d) == NULL);
    CHECK(fl_diag_count(d) >= 1);
    if (fl_diag_count(d))
        CHECK(strcmp(fl_diag_text(d, 0),
                     "m.mo:4:5: error: m: the equations are under-determined, 1 equation too few: nothing determines y") == 0);
    fl_diag_free(d);
    /* x = 1; x = 2 */
    c = new_cluster(0);
    g = &c->g;
    x = fl_fc_add_var(c, "x", FVK_REAL, (fl_loc){"m.mo", 2, 3});
    fl_fc_add_eq(c, V(x), K(1), (fl_loc){"m.mo", 4, 3}, 0);
    fl_fc_add_eq(c, V(x), K(2), (fl_loc){"m.mo", 5, 3}, 0);
    d = fl_diag_new();
    CHECK(fl_analyze(c, NULL, NULL, "m", d) == NULL);
    if (fl_diag_count(d))
        CHECK_STR_CONTAINS(fl_diag_text(d, 0), "m.mo:5:3: error: m: this equation determines no variable and does not hold");
    fl_diag_free(d);
}

int main(void)
{
    test_coupler();
    test_user_mass();
    test_lever();
    test_drive();
    test_ball();
    test_ode_algebraic();
    test_pendulum();
    test_errors();
    return check_done();
}
