/* test_friction.c - stick-slip: the worked checks of the ForceLimiter
 * (FL-1..FL-5, spec 5.8) and of MassWithStopAndFriction / Stop (MS-1..MS-5,
 * spec 6.8), limits from input signals, two stick-slip elements coupled
 * through one body (modes and forces at each event against hand-computed
 * values), 10,000 break-away cycles without event storm or drift, the
 * energy audit of friction, and bad parameters. */
#include "simrun.h"

#define MTC "Modelica.Mechanics.Translational.Components."
#define MTS "Modelica.Mechanics.Translational.Sources."
#define MBS "Modelica.Blocks.Sources."
#define REL 1e-4

/* ---- ForceLimiter -------------------------------------------------------- */

/* flange_a fixed; M = 2 kg at flange_b with v(0) = 3 m/s */
static void fl_run(run *c, const char *params, double stop)
{
    char body[2048];
    snprintf(body, sizeof body,
             "  " MTC "Fixed fixed;\n"
             "  Flange.Components.ForceLimiter lim(%s);\n"
             "  " MTC "Mass mass(m=2, s(fixed=true), v(start=3, fixed=true));\n"
             "equation\n"
             "  connect(fixed.flange, lim.flange_a);\n"
             "  connect(lim.flange_b, mass.flange_a);\n",
             params);
    simulate(c, body, stop, 0.01, 1);
}

/* index of the first row with time >= t */
static int row_from(const run *c, double t)
{
    for (int i = 0; i < c->r.n; i++)
        if (c->r.t[i] >= t - 1e-12) return i;
    return -1;
}

static void test_fl1(void)
{
    run c;
    fl_run(&c, "", 10);
    if (!c.rc) {
        int st = change(&c, "lim.mode", 0); /* forward slip -> stuck */
        CHECK(st > 0);
        CHECK_REL(c.r.t[st], 6, 1e-8);
        CHECK_REL(val(&c, st, "mass.s"), 9, 1e-8);
        CHECK(val(&c, st - 1, "lim.f") == 1); /* slipping at exactly the limit */
        CHECK_NEAR(val(&c, row_from(&c, 3), "mass.a"), -0.5, 1e-12);
        /* stuck afterwards: f = 0, v exactly 0 */
        int bad = 0;
        for (int i = st; i < c.r.n; i++)
            bad += val(&c, i, "mass.v") != 0 || val(&c, i, "lim.mode") != 0 || fabs(val(&c, i, "lim.f")) > 1e-12;
        CHECK(bad == 0);
        CHECK(val(&c, c.r.n - 1, "mass.s") == val(&c, st, "mass.s"));
        /* the kinetic energy went into the limiter: 0.5*2*9 = 9 J */
        CHECK_REL(c.st.e_dissipated, 9, 1e-6);
        CHECK(balance(&c) <= 1e-6);
        printf("FL-1: stuck at t = %.9f after %.9f m; dissipated %.9f J, energy drift %.2e\n", c.r.t[st],
               val(&c, st, "mass.s"), c.st.e_dissipated, balance(&c));
    }
    done(&c);
}

/* FL-2: a constant force on the mass, mass at rest */
static void test_fl2(void)
{
    static const double P[] = {0.8, 1.5};
    for (int k = 0; k < 2; k++) {
        char body[2048];
        snprintf(body, sizeof body,
                 "  " MTC "Fixed fixed;\n"
                 "  Flange.Components.ForceLimiter lim;\n"
                 "  " MTC "Mass mass(m=2, s(fixed=true), v(fixed=true));\n"
                 "  " MTS "ConstantForce push(f_constant=%g);\n"
                 "equation\n"
                 "  connect(fixed.flange, lim.flange_a);\n"
                 "  connect(lim.flange_b, mass.flange_a);\n"
                 "  connect(push.flange, mass.flange_b);\n",
                 P[k]);
        run c;
        simulate(&c, body, 2, 0.01, 0);
        if (!c.rc) {
            int last = c.r.n - 1;
            if (k == 0) {
                /* holding: the limiter carries the load in tension */
                CHECK_NEAR(val(&c, last, "lim.f"), 0.8, 1e-12);
                CHECK(val(&c, last, "mass.v") == 0);
                CHECK(val(&c, last, "lim.mode") == 0);
                CHECK(c.st.state_events == 0);
            } else {
                CHECK_NEAR(val(&c, last, "lim.f"), 1, 1e-12);
                CHECK_NEAR(val(&c, last, "mass.a"), 0.25, 1e-12);
                CHECK_REL(val(&c, last, "mass.v"), 0.5, 1e-9);
                CHECK(val(&c, last, "lim.mode") == 1);
            }
            printf("FL-2 (P = %g N): f = %g N, a = %g m/s2, mode %g\n", P[k], val(&c, last, "lim.f"),
                   val(&c, last, "mass.a"), val(&c, last, "lim.mode"));
        }
        done(&c);
    }
}

static void test_fl345(void)
{
    run c;
    /* FL-3 compliant band: f = 1 N until v = 0.1 m/s at t = 5.8 s, then
     * f = 10 v and v = 0.1 exp(-5 (t - 5.8)) */
    fl_run(&c, "dvdf=0.1", 12);
    if (!c.rc) {
        int k = change(&c, "lim.limit", 0);
        CHECK(k > 0);
        CHECK_REL(c.r.t[k], 5.8, 1e-8);
        CHECK_REL(val(&c, k, "mass.s"), 8.99, 1e-8);
        int i7 = row_from(&c, 7);
        CHECK_REL(val(&c, i7, "mass.v"), 0.1 * exp(-5 * (c.r.t[i7] - 5.8)), REL);
        CHECK_REL(val(&c, i7, "lim.f"), 10 * val(&c, i7, "mass.v"), 1e-9);
        CHECK_REL(val(&c, c.r.n - 1, "mass.s"), 9.01, 1e-6);
        CHECK(balance(&c) <= 1e-6);
        printf("FL-3: band reached at t = %.9f (s = %.9f), final s = %.9f\n", c.r.t[k], val(&c, k, "mass.s"),
               val(&c, c.r.n - 1, "mass.s"));
    }
    done(&c);
    /* FL-4 sloped limit: v = 5 exp(-t/4) - 2 */
    fl_run(&c, "dfdv=0.5", 6);
    if (!c.rc) {
        int k = change(&c, "lim.mode", 0);
        CHECK(k > 0);
        CHECK_REL(c.r.t[k], 4 * log(2.5), REL);
        CHECK_REL(val(&c, k, "mass.s"), 4.669674, REL);
        int i2 = row_from(&c, 2);
        CHECK_REL(val(&c, i2, "mass.v"), 5 * exp(-c.r.t[i2] / 4) - 2, 1e-6);
        printf("FL-4: stops at t = %.7f after %.7f m\n", c.r.t[k], val(&c, k, "mass.s"));
    }
    done(&c);
    /* FL-5 relative inertia: a = -1/(M + m) = -0.4 */
    fl_run(&c, "m=0.5", 10);
    if (!c.rc) {
        int k = change(&c, "lim.mode", 0);
        CHECK(k > 0);
        CHECK_REL(c.r.t[k], 7.5, 1e-8);
        CHECK_REL(val(&c, k, "mass.s"), 11.25, 1e-8);
        CHECK_NEAR(val(&c, row_from(&c, 3), "mass.a"), -0.4, 1e-12);
        CHECK(balance(&c) <= 1e-6);
        printf("FL-5: stops at t = %.9f after %.9f m\n", c.r.t[k], val(&c, k, "mass.s"));
    }
    done(&c);
}

/* Limits from input signals: fmax steps from 1 to 2 N at t = 2 s: a = -0.5
 * then -1 m/s2; v(2) = 2, s(2) = 5; stop at t = 4 s, s = 7 m. */
static void test_fl_inputs(void)
{
    run c;
    simulate(&c,
             "  " MTC "Fixed fixed;\n"
             "  Flange.Components.ForceLimiter lim(useFmaxInput=true, useFminInput=true);\n"
             "  " MTC "Mass mass(m=2, s(fixed=true), v(start=3, fixed=true));\n"
             "  " MBS "Step fmax(offset=1, height=1, startTime=2);\n"
             "  " MBS "Constant fmin(k=-1);\n"
             "equation\n"
             "  connect(fixed.flange, lim.flange_a);\n"
             "  connect(lim.flange_b, mass.flange_a);\n"
             "  connect(fmax.y, lim.fmax);\n"
             "  connect(fmin.y, lim.fmin);\n",
             6, 0.01, 0);
    if (!c.rc) {
        int k = change(&c, "lim.mode", 0);
        CHECK(k > 0);
        CHECK_REL(c.r.t[k], 4, 1e-8);
        CHECK_REL(val(&c, k, "mass.s"), 7, 1e-8);
        CHECK_NEAR(val(&c, row_from(&c, 1), "lim.f"), 1, 1e-12);
        CHECK_NEAR(val(&c, row_from(&c, 3), "lim.f"), 2, 1e-12);
        printf("FL inputs: stops at t = %.9f after %.9f m\n", c.r.t[k], val(&c, k, "mass.s"));
    }
    done(&c);
    /* the same with a compliant band: the limit from the input holds while slipping */
    simulate(&c,
             "  " MTC "Fixed fixed;\n"
             "  Flange.Components.ForceLimiter lim(useFmaxInput=true, dvdf=0.01);\n"
             "  " MTC "Mass mass(m=2, s(fixed=true), v(start=3, fixed=true));\n"
             "  " MBS "Constant fmax(k=2);\n"
             "equation\n"
             "  connect(fixed.flange, lim.flange_a);\n"
             "  connect(lim.flange_b, mass.flange_a);\n"
             "  connect(fmax.y, lim.fmax);\n",
             1, 0.01, 0);
    if (!c.rc) CHECK_NEAR(val(&c, c.r.n - 1, "mass.v"), 2, 1e-9); /* a = -1 m/s2 until v = 0.02 */
    done(&c);
    /* limits that cross are an error with the time: fmin = -1 + 2 t reaches fmax = 1 at t = 1 */
    simulate_tol(&c,
                 "  " MTC "Fixed fixed;\n"
                 "  Flange.Components.ForceLimiter lim(useFminInput=true);\n"
                 "  " MTC "Mass mass(m=2, s(fixed=true), v(start=3, fixed=true));\n"
                 "  " MBS "Ramp fmin(offset=-1, height=4, duration=2);\n"
                 "equation\n"
                 "  connect(fixed.flange, lim.flange_a);\n"
                 "  connect(lim.flange_b, mass.flange_a);\n"
                 "  connect(fmin.y, lim.fmin);\n",
                 3, 0.01, 1e-8, 0, 0);
    CHECK(c.rc != 0);
    CHECK_STR_CONTAINS(c.err, "error: at t = 1: lim: the force limits cross: the maximum 1 is less than the minimum 1");
    printf("crossing limits: %s\n", c.err);
    done(&c);
}

/* ---- MassWithStopAndFriction / Stop ---------------------------------- */

#define MS_DEFAULTS "m=1, F_prop=1, F_Coulomb=5, F_Stribeck=10, fexp=2, L=0, smin=-25, smax=25"

/* a constant force P on the mass (from a signal, so it can change) */
static void ms_run(run *c, const char *cls, const char *params, const char *force, double stop)
{
    char body[4096];
    snprintf(body, sizeof body,
             "  %s stop(%s%ss(fixed=true), v(fixed=true));\n"
             "  " MTS "Force push;\n"
             "  %s;\n"
             "equation\n"
             "  connect(push.flange, stop.flange_b);\n"
             "  connect(P.y, push.f);\n",
             cls, params, params[0] ? ", " : "", force);
    simulate(c, body, stop, 0.01, 1);
}

static void test_ms12(void)
{
    static const struct {
        const char *cls, *params;
        double P;
        int breaks;
    } cases[] = {
        {MTC "MassWithStopAndFriction", MS_DEFAULTS, 14, 0},
        {MTC "MassWithStopAndFriction", MS_DEFAULTS, 15.01, 0},
        {"Flange.Components.Stop", "", 15.01, 0},
        {"Flange.Components.Stop", "coselica=true", 15.01, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char force[256];
        snprintf(force, sizeof force, MBS "Constant P(k=%g)", cases[k].P);
        run c;
        ms_run(&c, cases[k].cls, cases[k].params, force, 1);
        if (!c.rc) {
            int last = c.r.n - 1;
            if (!cases[k].breaks) {
                int bad = 0;
                for (int i = 0; i < c.r.n; i++)
                    bad += val(&c, i, "stop.v") != 0 || val(&c, i, "stop.s") != 0 || val(&c, i, "stop.mode") != 0;
                CHECK(bad == 0);
                CHECK_NEAR(val(&c, last, "stop.f"), cases[k].P, 1e-12);
            } else {
                CHECK(val(&c, last, "stop.mode") == 1);
                CHECK(val(&c, last, "stop.v") > 0);
            }
            const char *cls = strrchr(cases[k].cls, '.') + 1;
            printf("MS-%s (%s%s%s, P = %g N): mode %g, v(1) = %g, f = %g\n", cases[k].P < 15 ? "1" : "2", cls,
                   cases[k].params[0] == 'c' ? ", " : "", cases[k].params[0] == 'c' ? cases[k].params : "", cases[k].P,
                   val(&c, last, "stop.mode"), val(&c, last, "stop.v"), val(&c, last, "stop.f"));
        }
        done(&c);
    }
}

/* MS-3: 20 N breaks away at t0 and runs into the right stop; MS-4: at t = 4
 * the force changes to -14 N (stays) or -20 N (leaves backward at once). */
static void test_ms34(void)
{
    static const double P2[] = {-14, -20};
    for (int k = 0; k < 2; k++) {
        char force[256];
        snprintf(force, sizeof force, MBS "Step P(offset=20, height=%g, startTime=4)", P2[k] - 20);
        run c;
        ms_run(&c, MTC "MassWithStopAndFriction", MS_DEFAULTS, force, 6);
        if (!c.rc) {
            CHECK(val(&c, 1, "stop.startForward") == 1); /* break-away at t0 */
            CHECK_NEAR(val(&c, 1, "stop.a"), 5, 1e-8);
            CHECK(val(&c, row_at(&c, 0.5), "stop.mode") == 1);
            int i1 = row_at(&c, 1);
            CHECK_REL(val(&c, i1, "stop.v"), 9.262450, REL);
            CHECK_REL(val(&c, i1, "stop.s"), 5.168753, REL);
            int hit = change(&c, "stop.stopped", 0);
            CHECK(hit > 0);
            CHECK_REL(c.r.t[hit], 2.629614, REL);
            CHECK_REL(val(&c, hit - 1, "stop.v"), 13.87541, REL);
            CHECK(val(&c, hit, "stop.s") == 25 && val(&c, hit, "stop.v") == 0);
            CHECK(val(&c, hit, "stop.stopped") == 1 && val(&c, hit, "stop.mode") == 0);
            CHECK_REL(val(&c, hit, "stop.impactEnergy"), 0.5 * 13.87541 * 13.87541, 2 * REL);
            int i3 = row_at(&c, 3.5);
            CHECK(val(&c, i3, "stop.s") == 25 && val(&c, i3, "stop.v") == 0);
            CHECK_NEAR(val(&c, i3, "stop.f"), 20, 1e-9);
            int i5 = row_at(&c, 5);
            if (k == 0) {
                CHECK(val(&c, i5, "stop.s") == 25 && val(&c, i5, "stop.v") == 0);
                CHECK_NEAR(val(&c, i5, "stop.f"), -14, 1e-9);
                CHECK(val(&c, i5, "stop.stopped") == 1);
            } else {
                int j = row_at(&c, 4); /* after the event at t = 4 */
                CHECK(val(&c, j, "stop.startBackward") == 1 || val(&c, j, "stop.mode") == -1);
                CHECK(val(&c, i5, "stop.mode") == -1);
                CHECK(val(&c, i5, "stop.v") < 0);
                CHECK(val(&c, i5, "stop.stopped") == 0);
            }
            /* the impact energy is accounted for in the balance */
            CHECK_REL(c.st.e_impacts, 0.5 * 13.87541 * 13.87541, 2 * REL);
            CHECK(balance(&c) <= 1e-6);
            printf("MS-3/4 (P -> %g N): stop at t = %.6f with v = %.5f, impact %.4f J; at t = 5: s = %.6f, f = %g, "
                   "mode %g; energy drift %.2e\n",
                   P2[k], c.r.t[hit], val(&c, hit - 1, "stop.v"), val(&c, hit, "stop.impactEnergy"),
                   val(&c, i5, "stop.s"), val(&c, i5, "stop.f"), val(&c, i5, "stop.mode"), balance(&c));
        }
        done(&c);
    }
}

/* MS-5: the MSL Friction example's stop2 hits its left stop at s = -0.4 and
 * leaves v = 0 exactly there */
static void test_ms5(void)
{
    run c;
    simulate_file(&c, "examples/msl/Friction.mo", 0, 0);
    if (!c.rc) {
        int found = 0;
        for (int i = 1; i < c.r.n; i++)
            if (c.r.t[i] == c.r.t[i - 1] && val(&c, i - 1, "stop2.v") < -1 && fabs(val(&c, i, "stop2.s") + 0.4) < 1e-15) {
                found = 1;
                CHECK(val(&c, i, "stop2.v") == 0);
                CHECK_REL(c.r.t[i], 0.0605970, 1e-5);
                printf("MS-5: stop2 at its left stop at t = %.7f: s = %g, v = %g, impact %.4f J\n", c.r.t[i],
                       val(&c, i, "stop2.s"), val(&c, i, "stop2.v"), val(&c, i, "stop2.impactEnergy"));
            }
        CHECK(found);
    }
    done(&c);
}

/* ---- coupled stick-slip -------------------------------------------------- */

/* F = 10 t pushes mass1, which pushes mass2 through an ideal limiter (20 N);
 * mass2 sits on a SupportFriction of 15 N (no peak). Both stick until
 * F = 15 N (t = 1.5): the friction breaks away and both masses move as one,
 * a = (F - 15)/2, the limiter transmitting (F + 15)/2; at F = 25 N (t =
 * 2.5, v = 2.5 m/s) the limiter slips: a2 = 20 - 15 = 5, a1 = F - 20. */
static void test_coupled(void)
{
    run c;
    simulate(&c,
             "  " MTS "Force force;\n"
             "  " MBS "Ramp F(height=30, duration=3);\n"
             "  " MTC "Mass mass1(m=1, s(fixed=true), v(fixed=true));\n"
             "  Flange.Components.ForceLimiter lim(f_max=20, f_min=-20);\n"
             "  " MTC "Mass mass2(m=1, s(fixed=true), v(fixed=true));\n"
             "  " MTC "SupportFriction fric(f_pos=[0, 15]);\n"
             "equation\n"
             "  connect(F.y, force.f);\n"
             "  connect(force.flange, mass1.flange_a);\n"
             "  connect(mass1.flange_b, lim.flange_a);\n"
             "  connect(lim.flange_b, mass2.flange_a);\n"
             "  connect(mass2.flange_b, fric.flange_a);\n",
             4, 0.01, 1);
    if (!c.rc) {
        /* t = 1: both stuck, the limiter carries F (compression: f = -F) */
        int i = row_at(&c, 1);
        CHECK(val(&c, i, "lim.mode") == 0 && val(&c, i, "fric.mode") == 0);
        CHECK_NEAR(val(&c, i, "lim.f"), -10, 1e-9);
        CHECK_NEAR(val(&c, i, "fric.f"), 10, 1e-9);
        CHECK(val(&c, i, "mass1.v") == 0 && val(&c, i, "mass2.v") == 0);
        /* first event: the friction breaks away at t = 1.5 */
        int e1 = change(&c, "fric.startForward", 0);
        CHECK(e1 > 0);
        CHECK_REL(c.r.t[e1], 1.5, 1e-8);
        CHECK(val(&c, e1, "fric.startForward") == 1 && val(&c, e1, "fric.locked") == 0);
        CHECK(val(&c, e1, "lim.mode") == 0);
        CHECK_NEAR(val(&c, e1, "lim.f"), -15, 1e-8);
        CHECK_NEAR(val(&c, e1, "fric.f"), 15, 1e-8);
        /* moving together */
        int i2 = row_at(&c, 2);
        CHECK_NEAR(val(&c, i2, "mass1.a"), 2.5, 1e-8);
        CHECK_NEAR(val(&c, i2, "mass2.a"), 2.5, 1e-8);
        CHECK_NEAR(val(&c, i2, "lim.f"), -17.5, 1e-8);
        CHECK_NEAR(val(&c, i2, "mass2.v"), 2.5 * (4 - 2.25) - 7.5 * 0.5, 1e-7);
        /* it slides forward once it moves */
        CHECK(val(&c, row_at(&c, 1.6), "fric.mode") == 1);
        /* second event: the limiter slips at t = 2.5 with v = 2.5 */
        int e2 = change(&c, "lim.startBackward", 0);
        CHECK(e2 > 0);
        CHECK_REL(c.r.t[e2], 2.5, 1e-8);
        CHECK(val(&c, e2, "lim.startBackward") == 1);
        CHECK(val(&c, e2, "fric.mode") == 1);
        CHECK_REL(val(&c, e2, "mass2.v"), 2.5, 1e-7);
        CHECK_NEAR(val(&c, e2, "lim.f"), -20, 1e-8);
        int i3 = row_at(&c, 3.5);
        CHECK_NEAR(val(&c, i3, "mass2.a"), 5, 1e-8);
        CHECK_NEAR(val(&c, i3, "mass1.a"), 10, 1e-8);
        CHECK(val(&c, i3, "lim.mode") == -1 && val(&c, i3, "fric.mode") == 1);
        CHECK(balance(&c) <= 1e-6);
        printf("coupled: friction breaks away at t = %.9f (limiter f = %g), limiter slips at t = %.9f (v = %.9f); "
               "%ld state events; energy drift %.2e\n",
               c.r.t[e1], val(&c, e1, "lim.f"), c.r.t[e2], val(&c, e2, "mass2.v"), c.st.state_events, balance(&c));
    }
    done(&c);
}

/* ---- 10,000 break-away cycles ------------------------------------------- */

typedef struct cycles {
    int iv, is, imode, ilocked;
    long breaks, stuck_rows, moving_while_locked;
    int prev_mode, have_prev;
    double s_lock, max_creep;
} cycles;

static int cycle_rec(void *user, double t, const double *v, int n)
{
    cycles *c = user;
    int mode = (int)v[c->imode], locked = v[c->ilocked] != 0;
    if (c->have_prev && c->prev_mode == 0 && mode != 0) c->breaks++;
    if (locked) {
        if (!c->have_prev || c->prev_mode != 0) c->s_lock = v[c->is];
        c->stuck_rows++;
        if (v[c->iv] != 0) c->moving_while_locked++;
        c->max_creep = fmax(c->max_creep, fabs(v[c->is] - c->s_lock));
    }
    c->prev_mode = locked ? 0 : mode;
    c->have_prev = 1;
    (void)t;
    (void)n;
    return 0;
}

static void test_cycles(void)
{
    const char *text = "model Cycles\n"
                       "  " MTS "Force force;\n"
                       "  " MBS "Sine F(amplitude=10, f=1);\n"
                       "  " MTC "Mass mass(m=1, s(fixed=true), v(fixed=true));\n"
                       "  " MTC "SupportFriction fric(f_pos=[0, 5; 1, 6], peak=1.2);\n"
                       "equation\n"
                       "  connect(F.y, force.f);\n"
                       "  connect(force.flange, mass.flange_a);\n"
                       "  connect(mass.flange_b, fric.flange_a);\n"
                       "end Cycles;\n";
    fl_diag *d = fl_diag_new();
    fl_model *m;
    fl_system *sys;
    fl_sim *sim = sim_of_text(text, "cycles.mo", d, &m, &sys);
    if (sim) {
        cycles c;
        memset(&c, 0, sizeof c);
        c.iv = fl_system_var_index(sys, "mass.v");
        c.is = fl_system_var_index(sys, "mass.s");
        c.imode = fl_system_var_index(sys, "fric.mode");
        c.ilocked = fl_system_var_index(sys, "fric.locked");
        fl_sim_opts o = fl_sim_default_opts(sys);
        o.stop_time = 5000;
        o.interval = 0.01;
        o.tolerance = 1e-6;
        CHECK(fl_sim_run(sim, &o, cycle_rec, &c, d) == 0);
        fl_stats st = fl_sim_stats(sim);
        /* two break-aways per period of the force (forward and backward) */
        CHECK(c.breaks == 10000);
        CHECK(st.state_events <= 3 * c.breaks); /* break-away, start -> slide, stick */
        CHECK(c.moving_while_locked == 0);     /* |v| = 0 exactly while stuck */
        CHECK(c.max_creep == 0);               /* and the position does not move */
        CHECK(c.stuck_rows > 10000);
        printf("10,000 cycles: %ld break-aways, %ld state events, %ld steps; %ld rows stuck with v = 0 exactly, "
               "creep %g m\n",
               c.breaks, st.state_events, st.steps, c.stuck_rows, c.max_creep);
    }
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    fl_sim_free(sim);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

/* ---- errors -------------------------------------------------------------- */

static void expect_error(const char *decl, const char *fragment)
{
    char text[2048];
    snprintf(text, sizeof text,
             "model T\n  " MTC "Fixed fixed;\n  %s;\n  " MTC "Mass mass(m=1, s(fixed=true), v(fixed=true));\n"
             "equation\n  connect(fixed.flange, x.flange_a);\n  connect(x.flange_b, mass.flange_a);\nend T;\n",
             decl);
    expect_compile_error(text, fragment);
}

static void test_bad_parameters(void)
{
    expect_error("Flange.Components.ForceLimiter x(f_max=-2, f_min=1)", "x: f_max (-2) must not be less than f_min (1)");
    expect_error("Flange.Components.ForceLimiter x(dvdf=-1)", "x.dvdf = -1 is invalid: it must be >= 0");
    expect_error("Flange.Components.ForceLimiter x(m=-1)", "x.m = -1 is invalid: it must be >= 0");
    expect_error("Flange.Components.ForceLimiter x(d=-1)", "x.d = -1 is invalid: it must be >= 0");
    expect_error(MTC "SupportFriction x(peak=0.5)", "x.peak = 0.5 is invalid: it must be >= 1");
    expect_error(MTC "SupportFriction x(f_pos=[0, 5; 0, 6])",
                 "x.f_pos: the velocities in column 1 must be strictly increasing (row 2)");
    expect_error(MTC "SupportFriction x(f_pos=[0, -5])", "x.f_pos: the friction force at v = 0 is -5; it must be >= 0");
    expect_error(MTC "SupportFriction x(f_pos={1, 2, 3})", "x.f_pos: must be a matrix of two columns");
    expect_error(MTC "Brake x(fn_max=-1)", "x.fn_max = -1 is invalid: it must be >= 0");
    expect_error(MTC "Brake x(fn_max=1, cgeo=-1)", "x.cgeo = -1 is invalid: it must be >= 0");
    expect_error(MTC "MassWithStopAndFriction x(m=1, F_prop=-1, F_Coulomb=5, F_Stribeck=10, fexp=2, L=0, smin=-1, smax=1)",
                 "x.F_prop = -1 is invalid: it must be >= 0");
    expect_error("Flange.Components.Stop x(smin=0, smax=1, L=2)",
                 "x: the stops leave no room for the mass: smax - smin = 1 is less than L = 2");
    expect_error("Flange.Components.Stop x(mode_start=2)", "x.mode_start = 2 is invalid: it must be <= 1");

    /* run-time checks at the start */
    run c;
    simulate_tol(&c, "  Flange.Components.Stop stop(mode_start=1, s(fixed=true), v(fixed=true));\n", 1, 0.1, 1e-6, 0, 0);
    CHECK(c.rc != 0);
    CHECK_STR_CONTAINS(c.err, "stop: mode_start = 1 (forward) does not agree with the initial velocity v = 0");
    done(&c);
    simulate_tol(&c, "  Flange.Components.Stop stop(smax=1, s(start=2, fixed=true), v(fixed=true));\n", 1, 0.1, 1e-6,
                 0, 0);
    CHECK(c.rc != 0);
    CHECK_STR_CONTAINS(c.err, "stop: the mass starts outside its stops or moves into one: s = 2, v = 0");
    done(&c);
    /* Two stuck friction elements on one body (parallel locks, friction_core.c):
     * f1 (f_pos = [0, 5]) is declared first and holds the whole force up to
     * its limit 5 N, f2 (limit 7 N) takes the rest; the mass (m = 1) stays put until the force F = 4 t passes
     * 5 + 7 = 12 at t = 3, then slides with a = F - 12 = 4 (t - 3):
     * v(4) = 2, s(4) = 2/3. */
    simulate_tol(&c,
                 "  " MTC "Mass mass(m=1, s(fixed=true), v(fixed=true));\n"
                 "  " MTC "SupportFriction f1(f_pos=[0, 5]);\n"
                 "  " MTC "SupportFriction f2(f_pos=[0, 7]);\n"
                 "  " MTS "Force force;\n"
                 "  " MBS "Ramp ramp(height=16, duration=4);\n"
                 "equation\n"
                 "  connect(ramp.y, force.f);\n"
                 "  connect(force.flange, mass.flange_a);\n"
                 "  connect(mass.flange_a, f1.flange_a);\n"
                 "  connect(mass.flange_b, f2.flange_a);\n",
                 4, 0.01, 1e-8, 0, 1);
    CHECK(c.rc == 0);
    if (c.rc == 0) {
        for (int i = 0; i < c.r.n && c.r.t[i] <= 3 - 1e-9; i++) {
            double F = 4 * c.r.t[i];
            CHECK(val(&c, i, "mass.v") == 0);
            CHECK_NEAR(val(&c, i, "f1.f"), F < 5 ? F : 5, 1e-9);
            CHECK_NEAR(val(&c, i, "f2.f"), F < 5 ? 0 : F - 5, 1e-9);
        }
        int e = row_from(&c, 3.5);
        CHECK(val(&c, e, "f1.mode") == 1 && val(&c, e, "f2.mode") == 1);
        int end = c.r.n - 1;
        CHECK_NEAR(val(&c, end, "mass.v"), 2, 1e-6);
        CHECK_NEAR(val(&c, end, "mass.s"), 2.0 / 3, 1e-6);
        printf("parallel locks: f1 holds up to 5 N, f2 the rest, the pair breaks away at F = 12 N; "
               "v(4) = %.9f, s(4) = %.9f\n", val(&c, end, "mass.v"), val(&c, end, "mass.s"));
    }
    done(&c);
}

int main(void)
{
    test_fl1();
    test_fl2();
    test_fl345();
    test_fl_inputs();
    test_ms12();
    test_ms34();
    test_ms5();
    test_coupled();
    test_cycles();
    test_bad_parameters();
    return check_done();
}
