/* test_sources_sensors.c - the sign convention and the laws of every force
 * and motion source and every sensor, against closed-form motions; time and
 * state events of sources; sensor outputs feeding inputs. */
#include "check.h"
#include "flange.h"

#define MTC "Modelica.Mechanics.Translational.Components."
#define MTS "Modelica.Mechanics.Translational.Sources."
#define MSE "Modelica.Mechanics.Translational.Sensors."
#define MBS "Modelica.Blocks.Sources."

typedef struct run_ctx {
    fl_model *m;
    fl_system *sys;
    fl_sim *sim;
    check_rec r;
    fl_stats st;
} run_ctx;

static int simulate(run_ctx *c, const char *name, const char *body, double stop, double interval)
{
    char text[16384];
    snprintf(text, sizeof text, "model %s\n%s\nend %s;\n", name, body, name);
    memset(c, 0, sizeof *c);
    fl_diag *d = fl_diag_new();
    c->m = fl_model_load_string(text, name, NULL, d);
    c->sys = c->m ? fl_compile(c->m, d) : NULL;
    c->sim = c->sys ? fl_sim_new(c->sys, d) : NULL;
    int rc = -1;
    if (c->sim) {
        fl_sim_opts o = fl_sim_default_opts(c->sys);
        o.stop_time = stop;
        o.interval = interval;
        o.tolerance = 1e-8;
        c->r.nvars = fl_system_nvars(c->sys);
        rc = fl_sim_run(c->sim, &o, check_record, &c->r, d);
        c->st = fl_sim_stats(c->sim);
    }
    if (rc) {
        fprintf(stderr, "%s:\n", name);
        for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "  %s\n", fl_diag_text(d, i));
    }
    fl_diag_free(d);
    CHECK(rc == 0);
    return rc;
}

static void done(run_ctx *c)
{
    free(c->r.t);
    free(c->r.v);
    fl_sim_free(c->sim);
    fl_system_free(c->sys);
    fl_model_free(c->m);
}

/* Value of var at time t: the last row with that time (the value after an
 * event), or with after = 0 the first row (before the event). */
static double at(const run_ctx *c, const char *var, double t, int after)
{
    int k = fl_system_var_index(c->sys, var);
    if (k < 0) {
        fprintf(stderr, "no variable %s\n", var);
        check_failures++;
        return NAN;
    }
    int found = -1;
    for (int i = 0; i < c->r.n; i++) {
        if (fabs(c->r.t[i] - t) <= 1e-12) {
            found = i;
            if (!after) break;
        }
    }
    if (found < 0) {
        fprintf(stderr, "no output at t = %g\n", t);
        check_failures++;
        return NAN;
    }
    return c->r.v[(size_t)found * (size_t)c->r.nvars + (size_t)k];
}

static int rows_at(const run_ctx *c, double t)
{
    int n = 0;
    for (int i = 0; i < c->r.n; i++) n += fabs(c->r.t[i] - t) <= 1e-12;
    return n;
}

#define TOL 1e-6

/* A force source pushes the body at its flange in +s: at flange_a, at
 * flange_b, with support, and as Force2 between two bodies. Sensors on the
 * way measure what the MSL documents. */
static void test_force_signs(void)
{
    run_ctx c;
    if (simulate(&c, "Push",
                 "  " MBS "Constant k3(k=3);\n"
                 "  " MTS "Force force;\n"
                 "  " MSE "ForceSensor fs;\n"
                 "  " MSE "PowerSensor ps;\n"
                 "  " MSE "MultiSensor ms;\n"
                 "  " MTC "Mass mass(m=2, L=0.5, s(fixed=true), v(fixed=true));\n"
                 "  " MSE "PositionSensor pos;\n"
                 "  " MSE "SpeedSensor spd;\n"
                 "  " MSE "AccSensor acc;\n"
                 "  " MTS "Force pull;\n"
                 "  " MTC "Mass mass2(m=2, s(fixed=true), v(fixed=true));\n"
                 "  " MTC "Mass a(m=1, s(fixed=true), v(fixed=true));\n"
                 "  " MTC "Mass b(m=3, s(start=1, fixed=true), v(fixed=true));\n"
                 "  " MTS "Force2 apart;\n"
                 "  " MSE "RelPositionSensor rp;\n"
                 "  " MSE "RelSpeedSensor rv;\n"
                 "  " MSE "RelAccSensor ra;\n"
                 "equation\n"
                 "  connect(k3.y, force.f);\n"
                 "  connect(force.flange, fs.flange_a);\n"
                 "  connect(fs.flange_b, ps.flange_a);\n"
                 "  connect(ps.flange_b, ms.flange_a);\n"
                 "  connect(ms.flange_b, mass.flange_a);\n"
                 "  connect(mass.flange_b, pos.flange);\n"
                 "  connect(mass.flange_b, spd.flange);\n"
                 "  connect(mass.flange_b, acc.flange);\n"
                 "  connect(k3.y, pull.f);\n"
                 "  connect(pull.flange, mass2.flange_b);\n"
                 "  connect(k3.y, apart.f);\n"
                 "  connect(apart.flange_a, a.flange_b);\n"
                 "  connect(apart.flange_b, b.flange_a);\n"
                 "  connect(a.flange_b, rp.flange_a);\n"
                 "  connect(b.flange_a, rp.flange_b);\n"
                 "  connect(a.flange_b, rv.flange_a);\n"
                 "  connect(b.flange_a, rv.flange_b);\n"
                 "  connect(a.flange_b, ra.flange_a);\n"
                 "  connect(b.flange_a, ra.flange_b);\n",
                 1, 0.01) == 0) {
        /* mass: a = 3/2; s = 0.75 t^2 */
        CHECK_NEAR(at(&c, "mass.s", 1, 1), 0.75, TOL);
        CHECK_NEAR(at(&c, "mass.v", 1, 1), 1.5, TOL);
        CHECK_NEAR(at(&c, "mass.a", 1, 1), 1.5, TOL);
        CHECK_NEAR(at(&c, "force.flange.f", 1, 1), -3, TOL); /* the force acting on the source */
        CHECK_NEAR(at(&c, "mass.flange_a.f", 1, 1), 3, TOL); /* the force acting on the mass */
        CHECK_NEAR(at(&c, "mass.flange_b.f", 1, 1), 0, TOL);
        CHECK_NEAR(at(&c, "force.s", 1, 1), 0.5, TOL); /* flange_a of the mass: 0.75 - L/2 */
        CHECK_NEAR(at(&c, "fs.f", 1, 1), 3, TOL);
        CHECK_NEAR(at(&c, "ps.power", 1, 1), 3 * 1.5, TOL);
        CHECK_NEAR(at(&c, "ms.f", 1, 1), 3, TOL);
        CHECK_NEAR(at(&c, "ms.v", 1, 1), 1.5, TOL);
        CHECK_NEAR(at(&c, "ms.power", 1, 1), 4.5, TOL);
        CHECK_NEAR(at(&c, "pos.s", 1, 1), 1.0, TOL); /* flange_b: centre + L/2 */
        CHECK_NEAR(at(&c, "spd.v", 1, 1), 1.5, TOL);
        CHECK_NEAR(at(&c, "acc.a", 1, 1), 1.5, TOL);
        /* pulling at flange_b also moves in +s */
        CHECK_NEAR(at(&c, "mass2.s", 1, 1), 0.75, TOL);
        CHECK_NEAR(at(&c, "mass2.flange_b.f", 1, 1), 3, TOL);
        /* Force2 pushes its flanges apart: a gets -3, b gets +3 */
        CHECK_NEAR(at(&c, "a.a", 1, 1), -3, TOL);
        CHECK_NEAR(at(&c, "b.a", 1, 1), 1, TOL);
        CHECK_NEAR(at(&c, "apart.flange_a.f", 1, 1), 3, TOL);
        CHECK_NEAR(at(&c, "apart.flange_b.f", 1, 1), -3, TOL);
        /* relative sensors: b - a */
        CHECK_NEAR(at(&c, "rp.s_rel", 1, 1), 1 + 0.5 + 1.5, TOL);
        CHECK_NEAR(at(&c, "rv.v_rel", 1, 1), 4, TOL);
        CHECK_NEAR(at(&c, "ra.a_rel", 1, 1), 4, TOL);
        CHECK_NEAR(at(&c, "rv.s_rel", 1, 1), 3, TOL);
        done(&c);
    }
}

/* Force with useSupport: the reaction goes to the support body. */
static void test_support(void)
{
    run_ctx c;
    if (simulate(&c, "Support",
                 "  " MBS "Constant k(k=2);\n"
                 "  " MTS "Force force(useSupport=true);\n"
                 "  " MTC "Mass body(m=1, s(fixed=true), v(fixed=true));\n"
                 "  " MTC "Mass housing(m=4, s(start=-1, fixed=true), v(fixed=true));\n"
                 "equation\n"
                 "  connect(k.y, force.f);\n"
                 "  connect(force.flange, body.flange_a);\n"
                 "  connect(force.support, housing.flange_b);\n",
                 1, 0.1) == 0) {
        CHECK_NEAR(at(&c, "body.a", 1, 1), 2, TOL);
        CHECK_NEAR(at(&c, "housing.a", 1, 1), -0.5, TOL);
        CHECK_NEAR(at(&c, "force.support.f", 1, 1), 2, TOL);
        CHECK_NEAR(at(&c, "force.s", 1, 1), 1 + 1.25, TOL); /* body at 1, housing at -1.25 */
        done(&c);
    }
}

/* ForceStep: time event with both sides in the output. */
static void test_force_step(void)
{
    run_ctx c;
    if (simulate(&c, "Step",
                 "  " MTS "ForceStep step(stepForce=3, offsetForce=1, startTime=0.5);\n"
                 "  " MTC "Mass mass(m=2, s(fixed=true), v(fixed=true));\n"
                 "equation\n"
                 "  connect(step.flange, mass.flange_a);\n",
                 1, 0.1) == 0) {
        CHECK(rows_at(&c, 0.5) == 2);
        CHECK_NEAR(at(&c, "mass.a", 0.5, 0), 0.5, TOL);
        CHECK_NEAR(at(&c, "mass.a", 0.5, 1), 2, TOL);
        CHECK_NEAR(at(&c, "step.f", 0.5, 0), -1, TOL);
        CHECK_NEAR(at(&c, "step.f", 0.5, 1), -4, TOL);
        CHECK_NEAR(at(&c, "mass.v", 1, 1), 0.25 + 1, TOL);
        CHECK_NEAR(at(&c, "mass.s", 1, 1), 0.0625 + 0.125 + 0.25, TOL);
        CHECK(c.st.time_events == 1);
        done(&c);
    }
}

/* Speed-dependent braking forces (f_nominal < 0) with closed-form decay. */
static void test_speed_dependent(void)
{
    run_ctx c;
    if (simulate(&c, "Brakes",
                 "  " MTC "Mass m1(m=2, s(fixed=true), v(start=1, fixed=true));\n"
                 "  " MTS "LinearSpeedDependentForce lin(f_nominal=-2, v_nominal=1, ForceDirection=false);\n"
                 "  " MTC "Mass m2(m=2, s(fixed=true), v(start=1, fixed=true));\n"
                 "  " MTS "QuadraticSpeedDependentForce quad(f_nominal=-2, v_nominal=1, ForceDirection=false);\n"
                 "  " MTC "Mass m3(m=1, s(fixed=true), v(start=1, fixed=true));\n"
                 "  " MTS "InverseSpeedDependentForce inv(f_nominal=-1, v_nominal=1, v0=0.1);\n"
                 "  " MTC "Mass m4(m=2, s(fixed=true), v(start=1, fixed=true));\n"
                 "  " MTS "SignForce sign(f_nominal=-1, reg=Modelica.Blocks.Types.Regularization.Linear, v0=0.1);\n"
                 "  " MTC "Mass m5(m=1, s(fixed=true), v(start=-1, fixed=true));\n"
                 "  " MTS "LinearSpeedDependentForce lin2(f_nominal=-1, v_nominal=1);\n"
                 "equation\n"
                 "  connect(lin.flange, m1.flange_a);\n"
                 "  connect(quad.flange, m2.flange_a);\n"
                 "  connect(inv.flange, m3.flange_b);\n"
                 "  connect(sign.flange, m4.flange_a);\n"
                 "  connect(lin2.flange, m5.flange_a);\n",
                 2.5, 0.05) == 0) {
        for (double t = 0.5; t <= 2.5; t += 0.5) {
            CHECK_NEAR(at(&c, "m1.v", t, 1), exp(-t), 1e-6);        /* 2 v' = -2 v */
            CHECK_NEAR(at(&c, "m2.v", t, 1), 1 / (1 + t), 1e-6);    /* 2 v' = -2 v^2 */
            CHECK_REL(at(&c, "m5.v", t, 1), -exp(t), 1e-6); /* ForceDirection: the load acts in -s, v' = -|v| */
        }
        /* inverse: v' = -1/v until v = v0 = 0.1 at t = 0.495, then v' = -10
         * (errors grow as 1/v towards the switch: the tolerance is looser) */
        CHECK_NEAR(at(&c, "m3.v", 0.4, 1), sqrt(1 - 0.8), 2e-6);
        CHECK_NEAR(at(&c, "m3.v", 0.5, 1), 0.1 - 10 * 0.005, 2e-5);
        /* sign, linear regularisation: -0.5 m/s2 until v = 0.1 at t = 1.8,
         * then 2 v' = -v/0.1 */
        CHECK_NEAR(at(&c, "m4.v", 1.0, 1), 0.5, 1e-6);
        CHECK_NEAR(at(&c, "m4.v", 2.5, 1), 0.1 * exp(-5 * 0.7), 1e-6);
        /* inverse at v = 0.1 and again at v = -0.1 (t = 0.515), sign at v = 0.1 */
        CHECK(c.st.state_events == 3);
        done(&c);
    }
}

/* Prescribed motion: exact position, filtered position, speed, acceleration,
 * Move, ConstantSpeed; reactions from the force balance. */
static void test_motion(void)
{
    const double w = 2 * 3.14159265358979323846;
    run_ctx c;
    if (simulate(&c, "Motion",
                 "  " MBS "Sine sine(amplitude=0.1, f=1);\n"
                 "  " MTS "Position pos(exact=true);\n"
                 "  " MTC "Mass m1(m=2);\n"
                 "  " MBS "Constant one(k=1);\n"
                 "  " MTS "Position filt;\n"
                 "  " MTC "Mass m2(m=1);\n"
                 "  " MBS "Constant half(k=0.5);\n"
                 "  " MTS "Speed spd(exact=true);\n"
                 "  " MTC "Mass m3(m=1);\n"
                 "  " MTS "Speed spdf;\n"
                 "  " MTC "Mass m4(m=1);\n"
                 "  " MBS "Constant two(k=2);\n"
                 "  " MTS "Accelerate acc;\n"
                 "  " MTC "Mass m5(m=3, L=2);\n"
                 "  " MBS "Sine u1(amplitude=1, f=1);\n"
                 "  " MBS "Sine u2(amplitude=2*Modelica.Constants.pi, f=1, phase=Modelica.Constants.pi/2);\n"
                 "  " MBS "Sine u3(amplitude=4*Modelica.Constants.pi^2, f=1, phase=Modelica.Constants.pi);\n"
                 "  " MTS "Move move;\n"
                 "  " MTC "Mass m6(m=1);\n"
                 "  " MTS "ConstantSpeed cs(v_fixed=0.7);\n"
                 "  " MTC "Mass m7(m=1);\n"
                 "  " MTC "Damper dmp(d=3);\n"
                 "  " MTC "Fixed fixed;\n"
                 "equation\n"
                 "  connect(sine.y, pos.s_ref);\n"
                 "  connect(pos.flange, m1.flange_a);\n"
                 "  connect(one.y, filt.s_ref);\n"
                 "  connect(filt.flange, m2.flange_a);\n"
                 "  connect(half.y, spd.v_ref);\n"
                 "  connect(spd.flange, m3.flange_a);\n"
                 "  connect(half.y, spdf.v_ref);\n"
                 "  connect(spdf.flange, m4.flange_a);\n"
                 "  connect(two.y, acc.a_ref);\n"
                 "  connect(acc.flange, m5.flange_a);\n"
                 "  connect(u1.y, move.u[1]);\n"
                 "  connect(u2.y, move.u[2]);\n"
                 "  connect(u3.y, move.u[3]);\n"
                 "  connect(move.flange, m6.flange_a);\n"
                 "  connect(cs.flange, m7.flange_a);\n"
                 "  connect(m7.flange_b, dmp.flange_a);\n"
                 "  connect(dmp.flange_b, fixed.flange);\n",
                 1, 0.05) == 0) {
        double t = 0.35;
        CHECK_NEAR(at(&c, "m1.s", t, 1), 0.1 * sin(w * t), 1e-9);
        CHECK_NEAR(at(&c, "m1.v", t, 1), 0.1 * w * cos(w * t), 1e-9);
        CHECK_NEAR(at(&c, "m1.a", t, 1), -0.1 * w * w * sin(w * t), 1e-7);
        CHECK_NEAR(at(&c, "pos.flange.f", t, 1), 2 * 0.1 * w * w * sin(w * t), 1e-6); /* = -m a */
        CHECK_NEAR(at(&c, "m2.s", 0, 1), 1, 1e-9); /* initial equation s = s_ref */
        CHECK_NEAR(at(&c, "m2.v", 0, 1), 0, 1e-9);
        CHECK_NEAR(at(&c, "m2.s", 1, 1), 1, 1e-9);
        CHECK_NEAR(at(&c, "m3.s", 1, 1), 0.5, 1e-8);
        CHECK_NEAR(at(&c, "m3.v", 1, 1), 0.5, 1e-12);
        CHECK_NEAR(at(&c, "m4.v", 0, 1), 0.5, 1e-9); /* initial equation v = v_ref */
        CHECK_NEAR(at(&c, "m4.s", 1, 1), 0.5, 1e-8);
        CHECK_NEAR(at(&c, "m5.s", 1, 1), 1 + 1, 1e-8); /* s = t^2, centre L/2 beyond the flange */
        CHECK_NEAR(at(&c, "m5.v", 1, 1), 2, 1e-8);
        CHECK_NEAR(at(&c, "acc.flange.f", 1, 1), -6, 1e-6);
        CHECK_NEAR(at(&c, "m6.s", t, 1), sin(w * t), 1e-9);
        CHECK_NEAR(at(&c, "m6.v", t, 1), w * cos(w * t), 1e-9);
        CHECK_NEAR(at(&c, "m6.a", t, 1), -w * w * sin(w * t), 1e-7);
        CHECK_NEAR(at(&c, "m7.s", 1, 1), 0.7, 1e-8);
        CHECK_NEAR(at(&c, "cs.f", 1, 1), -2.1, 1e-8); /* the source holds the damper: -(d v) on it */
        CHECK_NEAR(at(&c, "fixed.flange.f", 1, 1), 2.1, 1e-8); /* the damper pushes the ground in +s */
        done(&c);
    }
}

/* Sensor outputs drive inputs: a speed sensor feeding a force gives
 * m v' = v, v = exp(t/m); a position sensor feeding a force with a gain of
 * -1 through a relative position sensor gives an oscillator. */
static void test_sensor_feedback(void)
{
    run_ctx c;
    if (simulate(&c, "Feedback",
                 "  " MTC "Mass mass(m=2, s(fixed=true), v(start=1, fixed=true));\n"
                 "  " MSE "SpeedSensor spd;\n"
                 "  " MTS "Force force;\n"
                 "  " MTC "Mass m2(m=1, s(start=0.5, fixed=true), v(fixed=true));\n"
                 "  " MTC "Fixed ground(s0=1);\n"
                 "  " MSE "RelPositionSensor rel;\n"
                 "  " MTS "Force2 spring;\n"
                 "equation\n"
                 "  connect(mass.flange_a, spd.flange);\n"
                 "  connect(spd.v, force.f);\n"
                 "  connect(force.flange, mass.flange_b);\n"
                 "  connect(rel.flange_a, m2.flange_a);\n"
                 "  connect(rel.flange_b, ground.flange);\n"
                 "  connect(rel.s_rel, spring.f);\n"
                 "  connect(spring.flange_a, m2.flange_a);\n"
                 "  connect(spring.flange_b, ground.flange);\n",
                 2, 0.1) == 0) {
        CHECK_NEAR(at(&c, "mass.v", 2, 1), exp(1.0), 1e-6);
        /* Force2 with f = ground - m2 = 1 - s pushes m2 by -(1 - s): s'' = s - 1 ... */
        /* m2'' = -(1 - s): s = 1 - 0.5 cosh(t) */
        CHECK_NEAR(at(&c, "m2.s", 2, 1), 1 - 0.5 * cosh(2.0), 1e-6);
        done(&c);
    }
}

/* Massless nodes: two springs in series (algebraic node position) and a
 * spring in series with a damper (Maxwell element, node velocity algebraic). */
static void test_massless_nodes(void)
{
    run_ctx c;
    if (simulate(&c, "Series",
                 "  " MTC "Fixed fixed;\n"
                 "  " MTC "Spring k1(c=300);\n"
                 "  " MTC "Spring k2(c=600);\n"
                 "  " MTC "Mass m(m=2, s(start=0.1, fixed=true), v(fixed=true));\n"
                 "  " MTC "Fixed fixed2;\n"
                 "  " MTC "Spring k3(c=100, s_rel(fixed=true));\n"
                 "  " MTC "Damper d3(d=50);\n"
                 "  " MTC "Mass m3(m=1, s(start=0.2, fixed=true), v(fixed=true));\n"
                 "  " MSE "SpeedSensor nodeSpeed;\n"
                 "equation\n"
                 "  connect(fixed.flange, k1.flange_a);\n"
                 "  connect(k1.flange_b, k2.flange_a);\n"
                 "  connect(k2.flange_b, m.flange_a);\n"
                 "  connect(fixed2.flange, k3.flange_a);\n"
                 "  connect(k3.flange_b, d3.flange_a);\n"
                 "  connect(d3.flange_b, m3.flange_a);\n"
                 "  connect(k3.flange_b, nodeSpeed.flange);\n",
                 1, 0.01) == 0) {
        /* series stiffness 200: s = 0.1 cos(10 t) */
        for (double t = 0.1; t <= 1.0; t += 0.3)
            CHECK_NEAR(at(&c, "m.s", t, 1), 0.1 * cos(10 * t), 1e-6);
        CHECK_NEAR(at(&c, "k1.f", 0.4, 1), at(&c, "k2.f", 0.4, 1), 1e-9);
        /* Maxwell element: node force balance k3 x = d (v3 - xdot) holds */
        double x = at(&c, "k3.s_rel", 0.5, 1), vnode = at(&c, "nodeSpeed.v", 0.5, 1), v3 = at(&c, "m3.v", 0.5, 1);
        CHECK_NEAR(100 * x, 50 * (v3 - vnode), 1e-6);
        CHECK_NEAR(at(&c, "k3.f", 0.5, 1), at(&c, "d3.f", 0.5, 1), 1e-9);
        done(&c);
    }
}

int main(void)
{
    test_force_signs();
    test_support();
    test_force_step();
    test_speed_dependent();
    test_motion();
    test_sensor_feedback();
    test_massless_nodes();
    return check_done();
}
