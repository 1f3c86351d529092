/* test_closed_form.c - simulations against closed-form solutions and
 * conservation laws: undamped and damped oscillators (relative error
 * <= 1e-5 at rtol 1e-8), energy of an undamped spring-mass chain, momentum
 * of a 10,000-mass chain solved with KLU. */
#include "simrun.h"
#include "flange.h"

#define MTC "Modelica.Mechanics.Translational.Components."

typedef struct series {
    int n, cap;
    double *t;
    double *v[4];
    int idx[4];
    int nv;
} series;

static int record(void *user, double t, const double *vals, int nvals)
{
    series *s = user;
    (void)nvals;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->t = realloc(s->t, sizeof(double) * (size_t)s->cap);
        for (int k = 0; k < s->nv; k++) s->v[k] = realloc(s->v[k], sizeof(double) * (size_t)s->cap);
    }
    s->t[s->n] = t;
    for (int k = 0; k < s->nv; k++) s->v[k][s->n] = vals[s->idx[k]];
    s->n++;
    return 0;
}

static void series_free(series *s)
{
    free(s->t);
    for (int k = 0; k < s->nv; k++) free(s->v[k]);
}

static void print_diags(fl_diag *d)
{
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
}

/* Simulate text with the given settings, recording variables names[]. */
static int run_series(const char *text, double stop, double interval, double rtol, const char *const *names, int nnames,
               series *out, fl_stats *stats)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(text, "test.mo", NULL, d);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    fl_sim *sim = sys ? fl_sim_new(sys, d) : NULL;
    int rc = -1;
    memset(out, 0, sizeof *out);
    if (sim) {
        out->nv = nnames;
        for (int k = 0; k < nnames; k++) {
            out->idx[k] = fl_system_var_index(sys, names[k]);
            CHECK(out->idx[k] >= 0);
            if (out->idx[k] < 0) out->idx[k] = 0;
        }
        fl_sim_opts o = fl_sim_default_opts(sys);
        o.stop_time = stop;
        o.interval = interval;
        o.tolerance = rtol;
        rc = fl_sim_run(sim, &o, record, out, d);
        if (stats) *stats = fl_sim_stats(sim);
    }
    if (rc) print_diags(d);
    fl_sim_free(sim);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
    return rc;
}

/* m = 1, c = 100, released 0.01 m from rest: s = 1 + 0.01 cos(10 t). The
 * nominal attributes set the absolute tolerances to the amplitudes (as in
 * any Modelica tool; the default scale is 1 m and 1 m/s). */
static void test_undamped(void)
{
    const char *text = "model Osc\n"
                       "  " MTC "Fixed fixed;\n"
                       "  " MTC "Spring spring(c=100, s_rel0=1);\n"
                       "  " MTC "Mass mass(m=1, s(start=1.01, fixed=true, nominal=0.01), v(fixed=true, nominal=0.1));\n"
                       "equation\n"
                       "  connect(fixed.flange, spring.flange_a);\n"
                       "  connect(spring.flange_b, mass.flange_a);\n"
                       "end Osc;\n";
    const char *names[] = {"mass.s", "mass.v", "mass.a", "spring.f"};
    series s;
    CHECK(run_series(text, 3, 0.001, 1e-8, names, 4, &s, NULL) == 0);
    double es = 0, ev = 0, ea = 0, ef = 0;
    for (int i = 0; i < s.n; i++) {
        double t = s.t[i];
        es = fmax(es, fabs(s.v[0][i] - (1 + 0.01 * cos(10 * t))));
        ev = fmax(ev, fabs(s.v[1][i] + 0.1 * sin(10 * t)));
        ea = fmax(ea, fabs(s.v[2][i] + cos(10 * t)));
        ef = fmax(ef, fabs(s.v[3][i] - cos(10 * t))); /* spring tension c*(s - 1) */
    }
    CHECK(s.n == 3001);
    /* errors relative to the amplitude of each quantity */
    CHECK(es / 0.01 <= 1e-5);
    CHECK(ev / 0.1 <= 1e-5);
    CHECK(ea / 1.0 <= 1e-5);
    CHECK(ef / 1.0 <= 1e-5);
    printf("undamped: max relative errors s %.2e v %.2e a %.2e f %.2e\n", es / 0.01, ev / 0.1, ea, ef);
    series_free(&s);
}

/* Worked check SD-2: SpringDamper c = 100, d = 2, mass 1 kg, s_rel(0) = 0.01:
 * s_rel = 0.01 exp(-t) (cos(w t) + sin(w t)/w), w = sqrt(99); first
 * minimum at t = pi/w with s_rel = -0.007292476. */
static void test_damped(void)
{
    const char *text = "model Damped\n"
                       "  " MTC "Fixed fixed;\n"
                       "  " MTC "SpringDamper sd(c=100, d=2, s_rel(start=0.01, fixed=true), v_rel(fixed=true));\n"
                       "  " MTC "Mass mass(m=1);\n"
                       "equation\n"
                       "  connect(fixed.flange, sd.flange_a);\n"
                       "  connect(sd.flange_b, mass.flange_a);\n"
                       "end Damped;\n";
    const char *names[] = {"sd.s_rel", "sd.v_rel", "sd.lossPower"};
    series s;
    CHECK(run_series(text, 3, 0.001, 1e-8, names, 3, &s, NULL) == 0);
    double w = sqrt(99.0), es = 0, ev = 0, smin = 1, tmin = 0, loss = 0;
    for (int i = 0; i < s.n; i++) {
        double t = s.t[i], e = exp(-t);
        es = fmax(es, fabs(s.v[0][i] - 0.01 * e * (cos(w * t) + sin(w * t) / w)));
        /* v = -0.01 (w + 1/w) exp(-t) sin(w t) */
        ev = fmax(ev, fabs(s.v[1][i] + 0.01 * (w + 1 / w) * e * sin(w * t)));
        if (s.v[0][i] < smin) {
            smin = s.v[0][i];
            tmin = t;
        }
        if (i) loss += 0.5 * (s.v[2][i] + s.v[2][i - 1]) * (s.t[i] - s.t[i - 1]);
    }
    CHECK(es / 0.01 <= 1e-5);
    CHECK(ev / 0.1 <= 1e-5);
    CHECK_NEAR(tmin, 3.14159265358979 / w, 0.001); /* on the 1 ms output grid */
    CHECK_REL(smin, -0.007292476, 1e-4);
    /* dissipated energy = initial spring energy - energy left at t = 3 s */
    int last = s.n - 1;
    double left = 0.5 * 100 * s.v[0][last] * s.v[0][last] + 0.5 * s.v[1][last] * s.v[1][last];
    CHECK_REL(loss, 0.005 - left, 1e-5);
    printf("damped: max relative errors s %.2e v %.2e; minimum %.9f at t = %.4f; dissipated %.9f J\n", es / 0.01,
           ev / 0.1, smin, tmin, loss);
    series_free(&s);
    /* the energy audit: the spring-damper's stored energy and dissipation */
    run c;
    simulate_tol(&c,
                 "  " MTC "Fixed fixed;\n"
                 "  " MTC "SpringDamper sd(c=100, d=2, s_rel(start=0.01, fixed=true), v_rel(fixed=true));\n"
                 "  " MTC "Mass mass(m=1);\n"
                 "equation\n"
                 "  connect(fixed.flange, sd.flange_a);\n"
                 "  connect(sd.flange_b, mass.flange_a);\n",
                 3, 0.001, 1e-8, 1, 1);
    if (!c.rc) {
        CHECK_REL(c.st.e_dissipated, loss, 1e-5);
        CHECK_REL(c.st.e_potential + c.st.e_kinetic, left, 1e-5);
        CHECK(c.st.e_work == 0 && c.st.e_impacts == 0);
        CHECK_REL(c.st.e_throughput, 0.005, 1e-12);
        CHECK(c.st.e_drift_max / c.st.e_throughput <= 1e-6);
        printf("damped, energy audit: stored + kinetic %.9f J, dissipated %.9f J, drift %.2e\n",
               c.st.e_potential + c.st.e_kinetic, c.st.e_dissipated, c.st.e_drift_max / c.st.e_throughput);
    }
    done(&c);
}

/* Kinetic plus spring energy of an undamped chain fixed at one end: it must
 * stay constant. */
#define NCHAIN 8
typedef struct audit {
    int vi[NCHAIN], si[NCHAIN];
    double c[NCHAIN], m[NCHAIN];
    double e0, maxdev;
    int started;
} audit;

static int energy_cb(void *user, double t, const double *vals, int nvals)
{
    audit *a = user;
    (void)t;
    (void)nvals;
    double e = 0;
    for (int i = 0; i < NCHAIN; i++) {
        double v = vals[a->vi[i]], x = vals[a->si[i]] - 1;
        e += 0.5 * a->m[i] * v * v + 0.5 * a->c[i] * x * x;
    }
    if (!a->started) {
        a->e0 = e;
        a->started = 1;
    }
    a->maxdev = fmax(a->maxdev, fabs(e - a->e0));
    return 0;
}

static double energy_drift(double rtol)
{
    double drift = NAN;
    char text[8192];
    int p = snprintf(text, sizeof text, "model Chain\n  " MTC "Fixed fixed;\n");
    for (int i = 1; i <= NCHAIN; i++) {
        p += snprintf(text + p, sizeof text - (size_t)p,
                      "  " MTC "Spring k%d(c=%d, s_rel0=1);\n"
                      "  " MTC "Mass m%d(m=%g, s(start=%g, fixed=true), v(start=%g, fixed=true));\n",
                      i, 50 + 10 * i, i, 0.5 + 0.25 * i, (double)i + 0.25 * ((i % 3) - 1), i == NCHAIN ? 1.5 : 0.0);
    }
    p += snprintf(text + p, sizeof text - (size_t)p, "equation\n  connect(fixed.flange, k1.flange_a);\n");
    for (int i = 1; i <= NCHAIN; i++) {
        p += snprintf(text + p, sizeof text - (size_t)p, "  connect(k%d.flange_b, m%d.flange_a);\n", i, i);
        if (i < NCHAIN)
            p += snprintf(text + p, sizeof text - (size_t)p, "  connect(m%d.flange_b, k%d.flange_a);\n", i, i + 1);
    }
    snprintf(text + p, sizeof text - (size_t)p, "end Chain;\n");
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(text, "chain.mo", NULL, d);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    fl_sim *sim = sys ? fl_sim_new(sys, d) : NULL;
    CHECK(sim != NULL);
    if (sim) {
        audit a;
        memset(&a, 0, sizeof a);
        for (int i = 0; i < NCHAIN; i++) {
            char name[64];
            snprintf(name, sizeof name, "m%d.v", i + 1);
            a.vi[i] = fl_system_var_index(sys, name);
            snprintf(name, sizeof name, "k%d.s_rel", i + 1);
            a.si[i] = fl_system_var_index(sys, name);
            CHECK(a.vi[i] >= 0 && a.si[i] >= 0);
            a.c[i] = 50 + 10 * (i + 1);
            a.m[i] = 0.5 + 0.25 * (i + 1);
        }
        fl_sim_opts o = fl_sim_default_opts(sys);
        o.stop_time = 10;
        o.interval = 0.005;
        o.tolerance = rtol;
        CHECK(fl_sim_run(sim, &o, energy_cb, &a, d) == 0);
        CHECK(a.e0 > 1);
        drift = a.maxdev / a.e0;
        printf("undamped chain of %d at rtol %g: energy %.6g J, largest relative drift %.2e over 10 s\n", NCHAIN,
               rtol, a.e0, drift);
    }
    print_diags(d);
    fl_sim_free(sim);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
    return drift;
}

/* BDF dissipates a little energy; the drift must shrink with the tolerance. */
static void test_energy_chain(void)
{
    double d8 = energy_drift(1e-8), d10 = energy_drift(1e-10);
    CHECK(d8 <= 1e-4);
    CHECK(d10 <= 1e-6);
    CHECK(d10 < d8 / 10);
}

/* 10,000 masses joined by springs, pushed at one end by a constant force:
 * KLU must be chosen, and the total momentum must equal F t. */
#define NBIG 10000
typedef struct momentum {
    int vi[NBIG];
    double p_end, t_end;
} momentum;

static int momentum_cb(void *user, double t, const double *vals, int nvals)
{
    momentum *mo = user;
    (void)nvals;
    double p = 0;
    for (int i = 0; i < NBIG; i++) p += vals[mo->vi[i]];
    mo->p_end = p;
    mo->t_end = t;
    return 0;
}

static void test_big_chain(void)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_new("BigChain");
    char a[64], b[64];
    int rc = fl_model_add(m, "ConstantForce", "push", d);
    rc |= fl_model_set(m, "push.f_constant", 10, d);
    for (int i = 0; i < NBIG && !rc; i++) {
        snprintf(a, sizeof a, "m%d", i);
        rc |= fl_model_add(m, "Mass", a, d);
        snprintf(a, sizeof a, "m%d.m", i);
        rc |= fl_model_set(m, a, 1, d);
        snprintf(a, sizeof a, "m%d.s.fixed", i);
        rc |= fl_model_set(m, a, 1, d);
        snprintf(a, sizeof a, "m%d.s.start", i);
        rc |= fl_model_set(m, a, i, d);
        snprintf(a, sizeof a, "m%d.v.fixed", i);
        rc |= fl_model_set(m, a, 1, d);
        if (i) {
            snprintf(a, sizeof a, "k%d", i);
            rc |= fl_model_add(m, "Spring", a, d);
            snprintf(a, sizeof a, "k%d.c", i);
            rc |= fl_model_set(m, a, 1e4, d);
            snprintf(a, sizeof a, "k%d.s_rel0", i);
            rc |= fl_model_set(m, a, 1, d);
            snprintf(a, sizeof a, "m%d.flange_b", i - 1);
            snprintf(b, sizeof b, "k%d.flange_a", i);
            rc |= fl_model_connect(m, a, b, d);
            snprintf(a, sizeof a, "k%d.flange_b", i);
            snprintf(b, sizeof b, "m%d.flange_a", i);
            rc |= fl_model_connect(m, a, b, d);
        }
    }
    rc |= fl_model_connect(m, "push.flange", "m0.flange_a", d);
    CHECK(rc == 0);
    fl_system *sys = rc ? NULL : fl_compile(m, d);
    fl_sim *sim = sys ? fl_sim_new(sys, d) : NULL;
    CHECK(sim != NULL);
    if (sim) {
        momentum *mo = calloc(1, sizeof *mo);
        for (int i = 0; i < NBIG; i++) {
            snprintf(a, sizeof a, "m%d.v", i);
            mo->vi[i] = fl_system_var_index(sys, a);
        }
        fl_sim_opts o = fl_sim_default_opts(sys);
        o.stop_time = 1;
        o.interval = 0.1;
        o.tolerance = 1e-6;
        CHECK(fl_sim_run(sim, &o, momentum_cb, mo, d) == 0);
        fl_stats st = fl_sim_stats(sim);
        CHECK(st.linear_solver && strcmp(st.linear_solver, "klu") == 0);
        CHECK_NEAR(mo->t_end, 1, 1e-12);
        CHECK_REL(mo->p_end, 10.0, 1e-6);
        printf("chain of %d masses: linear solver %s, %ld steps, momentum %.9g (exact 10)\n", NBIG,
               st.linear_solver, st.steps, mo->p_end);
        free(mo);
    }
    print_diags(d);
    fl_sim_free(sim);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

int main(void)
{
    test_undamped();
    test_damped();
    test_energy_chain();
    test_big_chain();
    return check_done();
}
