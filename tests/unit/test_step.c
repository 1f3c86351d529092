/* test_step.c - a run taken in pieces (src/sim/step.h) computes what
 * fl_sim_run computes: Co-Simulation steps to the output grid and in
 * uneven pieces against one fl_sim_run; Model Exchange derivatives against
 * IDA's, and a fixed-step RK4 importer with event detection against
 * fl_sim_run; a parameter change between steps against the closed form;
 * snapshots: restore + continue against continue, two restores bit for bit,
 * and damaged snapshots refused with their messages. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "flange.h"
#include "sim/sim.h"
#include "sim/step.h"

typedef struct model {
    fl_model *m;
    fl_system *sys;
    fl_sim_opts o;
    check_rec ref; /* fl_sim_run, every variable */
    double *scale; /* per variable: the largest |value| of the reference run (at least 1e-3) */
} model;

static void print_diag(fl_diag *d)
{
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "  %s\n", fl_diag_text(d, i));
}

static int load(model *c, const char *rel, const char *text)
{
    memset(c, 0, sizeof *c);
    fl_diag *d = fl_diag_new();
    c->m = rel ? fl_model_load_file(check_src_path(rel), NULL, d) : fl_model_load_string(text, "t.mo", NULL, d);
    c->sys = c->m ? fl_compile(c->m, d) : NULL;
    CHECK(c->sys != NULL);
    if (!c->sys) {
        print_diag(d);
        fl_diag_free(d);
        return -1;
    }
    c->o = fl_sim_default_opts(c->sys);
    fl_sim *s = fl_sim_new(c->sys, d);
    c->ref.nvars = fl_system_nvars(c->sys);
    int rc = fl_sim_run(s, &c->o, check_record, &c->ref, d);
    CHECK(rc == 0);
    if (rc) print_diag(d);
    fl_sim_free(s);
    fl_diag_free(d);
    int nv = c->ref.nvars;
    c->scale = malloc(sizeof(double) * (size_t)nv);
    for (int k = 0; k < nv; k++) {
        c->scale[k] = 1e-3;
        for (int r = 0; r < c->ref.n; r++) c->scale[k] = fmax(c->scale[k], fabs(c->ref.v[(size_t)r * nv + k]));
    }
    return rc;
}

static void unload(model *c)
{
    free(c->ref.t);
    free(c->ref.v);
    free(c->scale);
    fl_system_free(c->sys);
    fl_model_free(c->m);
}

/* The last reference row at time t (after an event there). */
static const double *ref_at(const model *c, double t)
{
    int found = -1;
    for (int i = 0; i < c->ref.n; i++)
        if (fabs(c->ref.t[i] - t) <= 1e-12 * fmax(1, fabs(t))) found = i;
    return found < 0 ? NULL : c->ref.v + (size_t)found * (size_t)c->ref.nvars;
}

/* Largest |a - b| / scale over the variables in vars (NULL: all). */
static double worst(const model *c, const double *a, const double *b, const char *const *vars, const char **which)
{
    double w = 0;
    int nv = c->ref.nvars;
    for (int j = 0; vars ? vars[j] != NULL : j < nv; j++) {
        int k = vars ? fl_system_var_index(c->sys, vars[j]) : j;
        if (k < 0) {
            fprintf(stderr, "no variable %s\n", vars[j]);
            check_failures++;
            continue;
        }
        double e = fabs(a[k] - b[k]) / c->scale[k];
        if (!(e <= w)) {
            w = e;
            if (which) *which = fl_system_var_name(c->sys, k);
        }
    }
    return w;
}

static void values_of(fl_sim *s, const model *c, double *v)
{
    for (int k = 0; k < c->ref.nvars; k++) v[k] = fl_sim_value(s, k);
}

/* t0 + k h, the stop time at the end (as the integrator's grid). */
static double grid(const model *c, long k)
{
    double t = c->o.start_time + (double)k * c->o.interval;
    return (t > c->o.stop_time || c->o.stop_time - t < 1e-9 * c->o.interval) ? c->o.stop_time : t;
}

/* (a) CS to every output point, and in 7 uneven pieces. */
static void cs_vs_run(const char *rel, const char *const *sig, double tol_grid, const char *const *sig2, double tol2,
                      double tol_end)
{
    model c;
    if (load(&c, rel, NULL)) return;
    fl_diag *d = fl_diag_new();
    fl_sim *s = fl_sim_new(c.sys, d);
    int nv = c.ref.nvars;
    double *v = malloc(sizeof(double) * (size_t)nv);
    CHECK(fl_step_begin(s, &c.o, d) == 0);
    CHECK(fl_step_values(s, d) == 0);
    values_of(s, &c, v);
    const double *r0 = c.ref.v; /* the first row: the initial values */
    CHECK(worst(&c, v, r0, NULL, NULL) <= 1e-12);
    double wmax = 0, twmax = 0, amax = 0, tamax = 0, w2 = 0;
    const char *wname = "", *aname = "", *name2 = "";
    for (long k = 1;; k++) {
        double t = grid(&c, k);
        int rc = fl_step_advance(s, t, d);
        CHECK(rc == 0);
        if (rc) {
            print_diag(d);
            break;
        }
        CHECK(fl_step_time(s) == t);
        CHECK(fl_step_values(s, d) == 0);
        values_of(s, &c, v);
        const double *r = ref_at(&c, t);
        CHECK(r != NULL);
        const char *w = NULL;
        double e = r ? worst(&c, v, r, sig, &w) : INFINITY;
        if (e > wmax) {
            wmax = e;
            twmax = t;
            wname = w;
        }
        e = r ? worst(&c, v, r, sig2, &w) : INFINITY;
        if (e > w2) {
            w2 = e;
            name2 = w;
        }
        e = r ? worst(&c, v, r, NULL, &w) : INFINITY;
        if (e > amax) {
            amax = e;
            tamax = t;
            aname = w;
        }
        if (t >= c.o.stop_time) break;
    }
    fl_stats st = fl_sim_stats(s);
    fl_step_end(s, d);
    fl_stats st2 = fl_sim_stats(s);
    printf("%s: CS at every output point vs fl_sim_run: worst |diff|/max|value| = %.3g on the main signals (%s at "
           "t = %g), %.3g on the forces and rates (%s), %.3g on all variables (%s at t = %g); %ld steps, %ld state "
           "events\n",
           rel, wmax, wname, twmax, w2, name2, amax, aname, tamax, st2.steps, st2.state_events);
    CHECK(wmax <= tol_grid);
    CHECK(w2 <= tol2);
    CHECK(st.steps > 0 && st2.steps >= st.steps && st2.state_events == st.state_events);

    /* 7 uneven pieces */
    static const double frac[7] = {0.037, 0.1, 0.29, 0.3, 0.61, 0.95, 1.0};
    CHECK(fl_step_begin(s, &c.o, d) == 0);
    for (int k = 0; k < 7; k++) {
        double t = k == 6 ? c.o.stop_time : c.o.start_time + frac[k] * (c.o.stop_time - c.o.start_time);
        CHECK(fl_step_advance(s, t, d) == 0);
    }
    CHECK(fl_step_values(s, d) == 0);
    values_of(s, &c, v);
    const char *w = "";
    double e = worst(&c, v, ref_at(&c, c.o.stop_time), sig, &w);
    printf("%s: CS in 7 uneven pieces vs fl_sim_run at the stop time: worst |diff|/max|value| = %.3g (%s)\n", rel, e,
           w);
    CHECK(e <= tol_end);
    /* stepping beyond the end, and back, is refused */
    fl_diag_clear(d);
    CHECK(fl_step_advance(s, c.o.stop_time + 1, d) == -1);
    CHECK(fl_diag_count(d) == 1 && strstr(fl_diag_text(d, 0), "beyond the stop time of the run"));
    fl_step_end(s, d);
    free(v);
    fl_sim_free(s);
    fl_diag_free(d);
    unload(&c);
}

/* ---- Model Exchange: a fixed-step RK4 importer -------------------------- */

typedef struct rk {
    fl_sim *s;
    fl_diag *d;
    int nx, nz;
    double t, *x, *z, *k1, *k2, *k3, *k4, *xt, *xn, *zn;
    long events, steps;
} rk;

static void rk_init(rk *r, fl_sim *s, fl_diag *d)
{
    memset(r, 0, sizeof *r);
    r->s = s;
    r->d = d;
    r->nx = fl_me_nstates(s);
    r->nz = fl_me_nindicators(s);
    size_t n = (size_t)(r->nx ? r->nx : 1), m = (size_t)(r->nz ? r->nz : 1);
    r->x = calloc(n, sizeof(double));
    r->k1 = calloc(n, sizeof(double));
    r->k2 = calloc(n, sizeof(double));
    r->k3 = calloc(n, sizeof(double));
    r->k4 = calloc(n, sizeof(double));
    r->xt = calloc(n, sizeof(double));
    r->xn = calloc(n, sizeof(double));
    r->z = calloc(m, sizeof(double));
    r->zn = calloc(m, sizeof(double));
    r->t = fl_step_time(s);
    fl_me_get_states(s, r->x);
    CHECK(fl_me_indicators(s, r->z, d) == 0);
}

static void rk_free(rk *r)
{
    free(r->x);
    free(r->k1);
    free(r->k2);
    free(r->k3);
    free(r->k4);
    free(r->xt);
    free(r->xn);
    free(r->z);
    free(r->zn);
}

static int deriv(rk *r, double t, const double *x, double *dx)
{
    fl_me_set_time(r->s, t);
    fl_me_set_states(r->s, x);
    int rc = fl_me_derivatives(r->s, dx, r->d);
    CHECK(rc == 0);
    return rc;
}

/* One RK4 step from (r->t, r->x) to t1 into r->xn, and the indicators
 * there into r->zn (the sim is left at t1, xn). */
static int rk_step(rk *r, double t1)
{
    double h = t1 - r->t, t = r->t;
    int n = r->nx;
    if (deriv(r, t, r->x, r->k1)) return -1;
    for (int i = 0; i < n; i++) r->xt[i] = r->x[i] + 0.5 * h * r->k1[i];
    if (deriv(r, t + 0.5 * h, r->xt, r->k2)) return -1;
    for (int i = 0; i < n; i++) r->xt[i] = r->x[i] + 0.5 * h * r->k2[i];
    if (deriv(r, t + 0.5 * h, r->xt, r->k3)) return -1;
    for (int i = 0; i < n; i++) r->xt[i] = r->x[i] + h * r->k3[i];
    if (deriv(r, t1, r->xt, r->k4)) return -1;
    for (int i = 0; i < n; i++) r->xn[i] = r->x[i] + h / 6 * (r->k1[i] + 2 * r->k2[i] + 2 * r->k3[i] + r->k4[i]);
    fl_me_set_time(r->s, t1);
    fl_me_set_states(r->s, r->xn);
    return fl_me_indicators(r->s, r->zn, r->d);
}

static int crossed(const rk *r)
{
    for (int k = 0; k < r->nz; k++)
        if ((r->z[k] < 0 && r->zn[k] >= 0) || (r->z[k] > 0 && r->zn[k] <= 0)) return 1;
    return 0;
}

/* Integrate to t1 (a step of at most h, ending at time events), locating
 * crossings by bisection to 1e-10 s and handing them to fl_me_event. 0, 1
 * when terminated, -1. */
static int rk_run(rk *r, double t1, double h)
{
    while (r->t < t1) {
        double te = fl_me_next_time_event(r->s);
        double tn = fmin(fmin(r->t + h, t1), te);
        if (t1 - tn < 1e-12 * fmax(1, fabs(t1))) tn = t1;
        if (rk_step(r, tn)) return -1;
        int event = tn == te;
        if (crossed(r)) {
            double lo = r->t, hi = tn;
            while (hi - lo > 1e-10) {
                double mid = 0.5 * (lo + hi);
                if (rk_step(r, mid)) return -1;
                if (crossed(r)) hi = mid;
                else lo = mid;
            }
            tn = hi;
            if (rk_step(r, tn)) return -1;
            event = 1;
        }
        r->t = tn;
        memcpy(r->x, r->xn, sizeof(double) * (size_t)r->nx);
        r->steps++;
        if (event) {
            int changed = 0, term = 0;
            double next;
            if (fl_me_event(r->s, &changed, &term, &next, r->d)) return -1;
            r->events++;
            if (changed) fl_me_get_states(r->s, r->x);
            if (term) return 1;
        } else if (fl_me_completed_step(r->s, r->d) < 0) {
            return -1;
        }
        if (fl_me_indicators(r->s, r->z, r->d)) return -1;
    }
    return 0;
}

/* (b) ME derivatives at IDA's solution, and the RK4 importer on Friction. */
static void me_tests(void)
{
    model c;
    if (load(&c, "examples/msl/Friction.mo", NULL)) return;
    fl_diag *d = fl_diag_new();
    fl_sim *cs = fl_sim_new(c.sys, d), *me = fl_sim_new(c.sys, d);
    int nx = c.sys->nd, n = c.sys->n;
    CHECK(nx > 0);
    double *x = calloc((size_t)nx, sizeof(double)), *dx = calloc((size_t)nx, sizeof(double));
    /* derivatives at IDA's points (with IDA's modes, offsets and states) */
    fl_sim_opts o = c.o;
    o.tolerance = 1e-10;
    CHECK(fl_step_begin(cs, &o, d) == 0);
    CHECK(fl_me_begin(me, &o, d) == 0);
    CHECK(fl_me_nstates(me) == nx);
    CHECK(fl_me_state_name(me, 0) != NULL && fl_me_state_name(me, nx) == NULL);
    double wd = 0;
    for (int k = 1; k <= 40; k++) {
        double t = 0.123 * k;
        CHECK(fl_step_advance(cs, t, d) == 0);
        memcpy(me->mode, cs->mode, sizeof(int) * (size_t)c.sys->nmodes);
        memcpy(me->rs, cs->rs, sizeof(double) * (size_t)c.sys->nreal);
        memcpy(me->qoff, cs->qoff, sizeof(double) * (size_t)c.sys->nbodies);
        fl_me_get_states(cs, x);
        fl_me_set_time(me, t);
        fl_me_set_states(me, x);
        me->run.me_dirty = 1;
        CHECK(fl_me_derivatives(me, dx, d) == 0);
        for (int i = 0, j = 0; i < n; i++)
            if (fl_unk_diff(c.sys, i)) {
                double e = fabs(dx[j] - cs->yp[i]) / fmax(1, fabs(cs->yp[i]));
                if (e > wd) wd = e;
                j++;
            }
    }
    printf("Friction: ME derivatives at 40 points of a CS run (rtol 1e-10) vs IDA's: worst |diff|/max(1,|yp|) = %.3g\n",
           wd);
    CHECK(wd <= 1e-6);
    fl_step_end(cs, d);
    fl_me_end(me, d);

    /* RK4 with event location, h = 1e-4, against fl_sim_run on the main signals */
    static const char *const sig[] = {"mass.s", "mass.v", "stop1.s", "stop1.v", "stop2.s", "stop2.v", NULL};
    CHECK(fl_me_begin(me, &c.o, d) == 0);
    rk r;
    rk_init(&r, me, d);
    double *v = malloc(sizeof(double) * (size_t)c.ref.nvars), wmax = 0, twmax = 0;
    const char *wname = "";
    int nout = 0;
    for (long k = 1;; k++) {
        double t = grid(&c, k);
        int rc = rk_run(&r, t, 1e-4);
        CHECK(rc == 0);
        if (rc) {
            print_diag(d);
            break;
        }
        CHECK(fl_step_values(me, d) == 0);
        values_of(me, &c, v);
        const char *w = NULL;
        double e = worst(&c, v, ref_at(&c, t), sig, &w);
        if (e > wmax) {
            wmax = e;
            twmax = t;
            wname = w;
        }
        nout++;
        if (t >= c.o.stop_time) break;
    }
    printf("Friction: ME with RK4 (h = 1e-4, bisection to 1e-10 s, %ld steps, %ld events) vs fl_sim_run at %d "
           "output points: worst |diff|/max|value| = %.3g (%s at t = %g)\n",
           r.steps, r.events, nout, wmax, wname, twmax);
    CHECK(wmax <= 2e-3);
    CHECK(r.events > 10);
    rk_free(&r);
    fl_me_end(me, d);
    free(v);
    free(x);
    free(dx);
    fl_sim_free(cs);
    fl_sim_free(me);
    fl_diag_free(d);
    unload(&c);
}

/* A parameter changed between two steps: x = k t^2 / 2 with k = 1, then 3
 * from t = 1: x(2) = 0.5 + 1 + 1.5, v(2) = 4. CS and ME. */
static void discontinuity_test(void)
{
    model c;
    if (load(&c, NULL,
             "model T\n"
             "  Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 0, fixed = true), v(start = 0, "
             "fixed = true));\n"
             "  Modelica.Mechanics.Translational.Sources.Force force;\n"
             "  Modelica.Blocks.Sources.Constant c(k = 1);\n"
             "equation\n  connect(c.y, force.f);\n  connect(force.flange, mass.flange_a);\n"
             "  annotation(experiment(StopTime = 2, Interval = 0.01, Tolerance = 1e-8));\nend T;\n"))
        return;
    fl_diag *d = fl_diag_new();
    fl_sim *s = fl_sim_new(c.sys, d);
    int is = fl_system_var_index(c.sys, "mass.s"), iv = fl_system_var_index(c.sys, "mass.v");
    fl_sim_opts o = c.o;
    o.stop_time = INFINITY; /* no end: stepping runs may go on */
    CHECK(fl_step_begin(s, &o, d) == 0);
    CHECK(fl_step_advance(s, 1, d) == 0);
    CHECK(fl_sim_set_param(s, "c.k", 3, d) == 0);
    CHECK(fl_step_discontinuity(s, d) == 0);
    CHECK(fl_step_advance(s, 2, d) == 0);
    CHECK(fl_step_values(s, d) == 0);
    CHECK_NEAR(fl_sim_value(s, is), 3.0, 1e-6);
    CHECK_NEAR(fl_sim_value(s, iv), 4.0, 1e-6);
    fl_step_end(s, d);
    /* ME: the derivatives follow the parameter at once */
    CHECK(fl_sim_set_param(s, "c.k", 1, d) == 0);
    CHECK(fl_me_begin(s, &o, d) == 0);
    double x[2], dx[2];
    CHECK(fl_me_nstates(s) == 2);
    fl_me_get_states(s, x);
    CHECK(fl_me_derivatives(s, dx, d) == 0);
    CHECK(dx[0] == 0 && dx[1] == 1);
    CHECK(fl_sim_set_param(s, "c.k", 3, d) == 0);
    CHECK(fl_step_discontinuity(s, d) == 0);
    CHECK(fl_me_derivatives(s, dx, d) == 0);
    CHECK(dx[1] == 3);
    fl_me_end(s, d);
    if (check_failures) print_diag(d);
    fl_sim_free(s);
    fl_diag_free(d);
    unload(&c);
}

/* (c) snapshots */
static void snapshot_tests(void)
{
    model c, other;
    if (load(&c, "examples/msl/Friction.mo", NULL)) return;
    if (load(&other, "examples/hardstop_hysteresis.mo", NULL)) return;
    fl_diag *d = fl_diag_new();
    int nv = c.ref.nvars;
    double *v1 = malloc(sizeof(double) * (size_t)nv), *v2 = malloc(sizeof(double) * (size_t)nv),
           *v3 = malloc(sizeof(double) * (size_t)nv);
    double t1 = 2.0017, tend = c.o.stop_time;

    /* CS: snapshot at t1, the uninterrupted run to the end */
    fl_sim *s = fl_sim_new(c.sys, d);
    CHECK(fl_step_begin(s, &c.o, d) == 0);
    CHECK(fl_step_advance(s, t1, d) == 0);
    size_t n = fl_sim_snapshot_size(s);
    CHECK(n > 0);
    unsigned char *snap = malloc(n), *snap2 = malloc(n);
    CHECK(fl_sim_snapshot(s, snap, n - 1) == -1);
    CHECK(fl_sim_snapshot(s, snap, n) == 0);
    fl_stats st1 = fl_sim_stats(s);
    CHECK(fl_step_advance(s, tend, d) == 0);
    CHECK(fl_step_values(s, d) == 0);
    values_of(s, &c, v1);
    fl_step_end(s, d);
    /* restore into a sim that has not begun (as importers do), twice */
    fl_sim *s2 = fl_sim_new(c.sys, d);
    CHECK(fl_sim_restore(s2, snap, n, NULL, d) == 0);
    CHECK(fl_step_time(s2) == t1);
    fl_stats st2 = fl_sim_stats(s2);
    CHECK(st2.steps == st1.steps && st2.state_events == st1.state_events && st2.outputs == st1.outputs);
    CHECK(fl_step_advance(s2, tend, d) == 0);
    CHECK(fl_step_values(s2, d) == 0);
    values_of(s2, &c, v2);
    CHECK(fl_sim_restore(s2, snap, n, NULL, d) == 0); /* (into a run under way) */
    CHECK(fl_step_advance(s2, tend, d) == 0);
    CHECK(fl_step_values(s2, d) == 0);
    values_of(s2, &c, v3);
    CHECK(memcmp(v2, v3, sizeof(double) * (size_t)nv) == 0);
    const char *w = "";
    double e = worst(&c, v2, v1, NULL, &w);
    printf("Friction: CS restored at t = %g and continued vs uninterrupted, at t = %g: worst |diff|/max|value| = "
           "%.3g (%s); two restores bit-identical\n",
           t1, tend, e, w);
    CHECK(e <= 1e-4);
    fl_step_end(s2, d);

    /* ME: RK4 to t1, snapshot, on to the end; restored: bit for bit */
    CHECK(fl_me_begin(s, &c.o, d) == 0);
    rk r;
    rk_init(&r, s, d);
    CHECK(rk_run(&r, t1, 1e-4) == 0);
    size_t nm = fl_sim_snapshot_size(s);
    CHECK(nm == n);
    CHECK(fl_sim_snapshot(s, snap, nm) == 0);
    CHECK(rk_run(&r, tend, 1e-4) == 0);
    CHECK(fl_step_values(s, d) == 0);
    values_of(s, &c, v1);
    long ev1 = r.events;
    rk_free(&r);
    fl_me_end(s, d);
    for (int pass = 0; pass < 2; pass++) {
        fl_sim *s3 = fl_sim_new(c.sys, d);
        CHECK(fl_sim_restore(s3, snap, nm, NULL, d) == 0);
        CHECK(fl_step_time(s3) == t1);
        /* a snapshot of the restored state is the snapshot restored */
        CHECK(fl_sim_snapshot(s3, snap2, nm) == 0);
        CHECK(memcmp(snap, snap2, nm) == 0);
        rk_init(&r, s3, d);
        r.t = t1;
        CHECK(rk_run(&r, tend, 1e-4) == 0);
        CHECK(fl_step_values(s3, d) == 0);
        values_of(s3, &c, v2);
        CHECK(memcmp(v1, v2, sizeof(double) * (size_t)nv) == 0);
        CHECK(r.events > 0 && r.events < ev1);
        rk_free(&r);
        fl_me_end(s3, d);
        fl_sim_free(s3);
    }
    printf("Friction: ME restored at t = %g and continued with RK4: bit-identical to the uninterrupted run\n", t1);

    /* damaged and foreign snapshots */
    fl_sim *s4 = fl_sim_new(c.sys, d);
    fl_diag_clear(d);
    CHECK(fl_sim_restore(s4, snap, nm - 1, NULL, d) == -1);
    char want[200];
    snprintf(want, sizeof want, "error: the snapshot is truncated or corrupt: %zu bytes, %zu expected", nm - 1, nm);
    CHECK(fl_diag_count(d) == 1 && strcmp(fl_diag_text(d, 0), want) == 0);
    if (fl_diag_count(d)) printf("refused: %s\n", fl_diag_text(d, 0));
    fl_diag_clear(d);
    memcpy(snap2, snap, nm);
    snap2[nm - 9] ^= 0x10;
    CHECK(fl_sim_restore(s4, snap2, nm, NULL, d) == -1);
    CHECK(fl_diag_count(d) == 1 &&
          strcmp(fl_diag_text(d, 0), "error: the snapshot is corrupt: its checksum does not match its contents") == 0);
    fl_diag_clear(d);
    CHECK(fl_sim_restore(s4, "garbage", 8, NULL, d) == -1);
    CHECK(fl_diag_count(d) == 1 &&
          strcmp(fl_diag_text(d, 0), "error: not a flange snapshot (FMU state): 8 bytes without its header") == 0);
    fl_diag_clear(d);
    fl_sim *so = fl_sim_new(other.sys, d);
    CHECK(fl_sim_restore(so, snap, nm, NULL, d) == -1);
    CHECK(fl_diag_count(d) == 1 && strcmp(fl_diag_text(d, 0), "error: the snapshot was taken of another model (its "
                                                                  "sizes or names differ from this one's)") == 0);
    CHECK(fl_step_time(s4) != fl_step_time(s4)); /* nothing begun by the refusals */
    if (check_failures) print_diag(d);
    fl_sim_free(so);

    /* a model whose contacts went into their stops: the deepest
     * penetrations (kept for the contacts that touched) are in the
     * snapshot and restored, contact by contact, bit for bit */
    fl_sim *sh = fl_sim_new(other.sys, d);
    CHECK(fl_step_begin(sh, &other.o, d) == 0);
    CHECK(fl_step_advance(sh, 0.5 * other.o.stop_time, d) == 0);
    int touched = 0;
    for (int k = 0; k < sh->npen_el; k++) touched += fl_pen_of(sh, k) && fl_pen_of(sh, k)->ratio > 0;
    CHECK(touched > 0);
    size_t nh = fl_sim_snapshot_size(sh);
    unsigned char *snh = malloc(nh), *snh2 = malloc(nh);
    CHECK(fl_sim_snapshot(sh, snh, nh) == 0);
    fl_sim *sh2 = fl_sim_new(other.sys, d);
    CHECK(fl_sim_restore(sh2, snh, nh, NULL, d) == 0);
    int same = sh2->npen_el == sh->npen_el;
    for (int k = 0; same && k < sh->npen_el; k++) {
        const struct fl_pen *a = fl_pen_of(sh, k), *b = fl_pen_of(sh2, k);
        same = (a == NULL) == (b == NULL) && (!a || memcmp(a, b, sizeof *a) == 0);
    }
    CHECK(same);
    CHECK(fl_sim_snapshot(sh2, snh2, nh) == 0);
    CHECK(memcmp(snh, snh2, nh) == 0);
    printf("hardstop_hysteresis: %d of %d contacts touched by t = %g, their penetration records restored\n", touched,
           sh->npen_el, 0.5 * other.o.stop_time);
    fl_step_end(sh, d);
    fl_step_end(sh2, d);
    fl_sim_free(sh);
    fl_sim_free(sh2);
    free(snh);
    free(snh2);
    fl_sim_free(s4);
    fl_sim_free(s2);
    fl_sim_free(s);
    free(snap);
    free(snap2);
    free(v1);
    free(v2);
    free(v3);
    fl_diag_free(d);
    unload(&c);
    unload(&other);
}

int main(void)
{
    /* the main signals (those the FMU tests compare); all variables are
     * reported too: a contact's acceleration and "the energy of the last
     * impact" are as sensitive as the event sequence at a chattering stop */
    static const char *const hs[] = {"body1.s", "body2.s", "hardStop.x", NULL};
    /* (fl_sim_run itself at tolerance 5e-7 instead of 1e-6 moves these by
     * 1.4e-4 and 4e-4 of their range: the contact is stiff) */
    static const char *const hs2[] = {"body2.v", "body2.a", "hardStop.F", NULL};
    static const char *const fr2[] = {"stop1.f", "stop2.f", "supportFriction.f", NULL};
    static const char *const fr[] = {"mass.s",     "mass.v",     "stop1.s",    "stop1.v",
                                     "stop2.s",    "stop2.v",    "stop1.mode", "stop2.mode",
                                     "supportFriction.mode", NULL};
    cs_vs_run("examples/hardstop_hysteresis.mo", hs, 1e-5, hs2, 2e-3, 1e-5);
    cs_vs_run("examples/msl/Friction.mo", fr, 1e-4, fr2, 1e-3, 1e-4);
    discontinuity_test();
    me_tests();
    snapshot_tests();
    return check_done();
}
