/* test_lever.c - rigid connections with a ratio (levers, racks, gears)
 * written as user components, against closed forms. A lever s_b = r s_a + c
 * joins its two sides into one body whose coordinate is s_a: the masses add
 * as m_a + r^2 m_b, a force at b counts r times at a, and the lever's own
 * flange forces satisfy f_a + r f_b = (its own mass) a_a. Cases: a constant
 * force, an offset with a negative ratio, levers with mass at either end,
 * a spring-mass oscillator (with start values given behind the lever), a
 * fixed flange and prescribed motion on either side, sensor feedback,
 * massless levers between springs and with a damper, a restitution impact
 * and stick-slip friction behind a lever, the located errors of
 * contradictory, repeated and overflowing ratios, and a rod on a massless
 * node (its forces were 0 kg times an undetermined acceleration: NaN). */
#include "simrun.h"
#include "sim/sim.h"

static const double PI = 3.14159265358979323846;

#define MTC "Modelica.Mechanics.Translational.Components."
#define MTS "Modelica.Mechanics.Translational.Sources."
#define MBS "Modelica.Blocks.Sources."

/* as a user writes it */
#define LEVER_PLAIN                                                     \
    "  model Lever\n"                                                   \
    "    extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;\n" \
    "    parameter Real r = 2;\n"                                       \
    "  equation\n"                                                      \
    "    flange_b.s = r*flange_a.s;\n"                                  \
    "    flange_a.f + r*flange_b.f = 0;\n"                              \
    "  end Lever;\n"

/* with an offset c (0 by default) */
#define LEVER                                                           \
    "  model Lever\n"                                                   \
    "    extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;\n" \
    "    parameter Real r = 2;\n"                                       \
    "    parameter Real c = 0;\n"                                       \
    "  equation\n"                                                      \
    "    flange_b.s = r*flange_a.s + c;\n"                              \
    "    flange_a.f + r*flange_b.f = 0;\n"                              \
    "  end Lever;\n"

/* with a mass m moving with flange a (MassLeverA) or with flange b
 * (MassLeverB: kinetic energy m v_b^2 / 2 = m r^2 v_a^2 / 2) */
#define MASS_LEVERS                                                     \
    "  model MassLeverA\n"                                              \
    "    extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;\n" \
    "    parameter Real r = 2;\n"                                       \
    "    parameter Real m = 1;\n"                                       \
    "    Real s;\n"                                                     \
    "    Real v;\n"                                                     \
    "  equation\n"                                                      \
    "    flange_b.s = r*flange_a.s;\n"                                  \
    "    s = flange_a.s;\n"                                             \
    "    v = der(s);\n"                                                 \
    "    m*der(v) = flange_a.f + r*flange_b.f;\n"                       \
    "  end MassLeverA;\n"                                               \
    "  model MassLeverB\n"                                              \
    "    extends Modelica.Mechanics.Translational.Interfaces.PartialTwoFlanges;\n" \
    "    parameter Real r = 2;\n"                                       \
    "    parameter Real m = 1;\n"                                       \
    "    Real s;\n"                                                     \
    "    Real v;\n"                                                     \
    "  equation\n"                                                      \
    "    flange_b.s = r*flange_a.s;\n"                                  \
    "    s = flange_b.s;\n"                                             \
    "    v = der(s);\n"                                                 \
    "    m*r*der(v) = flange_a.f + r*flange_b.f;\n"                     \
    "  end MassLeverB;\n"

/* The flange forces of a massless lever balance: f_a + r f_b = 0. */
static void check_lever_forces(const run *c, int row, const char *lever, double r)
{
    char fa[64], fb[64];
    snprintf(fa, sizeof fa, "%s.flange_a.f", lever);
    snprintf(fb, sizeof fb, "%s.flange_b.f", lever);
    CHECK_NEAR(val(c, row, fa) + r * val(c, row, fb), 0, 1e-9 * (fabs(val(c, row, fa)) + 1));
}

/* F on m_a, a lever r to m_b: s_a = F t^2 / (2 (m_a + r^2 m_b)), s_b = r s_a;
 * the lever passes f_a = F - m_a a_a = r m_b a_b at a and -m_b a_b at b; the
 * work F s_a is all kinetic energy. */
static void test_constant_force(void)
{
    run c;
    simulate(&c,
             LEVER_PLAIN "  " MTS "ConstantForce force(f_constant = 10);\n"
                         "  " MTC "Mass ma(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));\n"
                         "  Lever lever(r = 2);\n"
                         "  " MTC "Mass mb(m = 3);\n"
                   "equation\n"
                   "  connect(force.flange, ma.flange_a);\n"
                   "  connect(ma.flange_b, lever.flange_a);\n"
                   "  connect(lever.flange_b, mb.flange_a);\n",
             1, 0.25, 1);
    if (!c.rc) {
        const double F = 10, ma = 1, mb = 3, r = 2, M = ma + r * r * mb, a = F / M;
        CHECK(c.r.n == 5);
        for (int i = 0; i < c.r.n; i++) {
            double t = c.r.t[i];
            CHECK_NEAR(val(&c, i, "ma.s"), a * t * t / 2, 1e-9);
            CHECK_NEAR(val(&c, i, "ma.v"), a * t, 1e-9);
            CHECK_NEAR(val(&c, i, "mb.s"), r * a * t * t / 2, 1e-9);
            CHECK_NEAR(val(&c, i, "mb.v"), r * a * t, 1e-9);
            CHECK_NEAR(val(&c, i, "mb.a"), r * a, 1e-9);
            CHECK_NEAR(val(&c, i, "lever.flange_a.s"), a * t * t / 2, 1e-9);
            CHECK_NEAR(val(&c, i, "lever.flange_b.s"), r * a * t * t / 2, 1e-9);
            CHECK_NEAR(val(&c, i, "lever.flange_a.f"), F - ma * a, 1e-9);
            CHECK_NEAR(val(&c, i, "lever.flange_b.f"), -mb * r * a, 1e-9);
            CHECK_NEAR(val(&c, i, "mb.flange_a.f"), mb * r * a, 1e-9);
            check_lever_forces(&c, i, "lever", r);
        }
        /* one body of 1 + 2^2 3 kg, the nodes behind the lever marked with their ratio */
        FILE *f = tmpfile();
        CHECK(f != NULL);
        if (f) {
            char text[4096];
            fl_system_describe(c.sys, f);
            rewind(f);
            size_t n = fread(text, 1, sizeof text - 1, f);
            text[n] = '\0';
            fclose(f);
            CHECK(strstr(text, "\nbodies (1):\n  1: free, m = 13 kg: {force.flange, ma.flange_a} {ma.flange_b, "
                               "lever.flange_a} {mb.flange_a, lever.flange_b} (x2) {mb.flange_b} (x2)\n") != NULL);
        }
        /* F s_a(1) = F^2 / (2 M) = 0.5 M v_a(1)^2 */
        CHECK_REL(c.st.e_kinetic, F * F / (2 * M), 1e-9);
        CHECK_REL(c.st.e_work, F * F / (2 * M), 1e-9);
        CHECK(c.st.e_closed == 1);
        CHECK(balance(&c) <= 1e-9);
        printf("constant force: a_a = %.12g (F / (m_a + r^2 m_b) = %.12g), drift %.2e\n", val(&c, 2, "ma.a"), a,
               balance(&c));
    }
    done(&c);
}

/* s_b = -3 s_a + 0.25 with s_a(0) = 0.5: s_a = 0.5 + F t^2 / (2 (m_a + 9 m_b)). */
static void test_offset_negative_ratio(void)
{
    run c;
    simulate(&c,
             LEVER "  " MTS "ConstantForce force(f_constant = 10);\n"
                   "  " MTC "Mass ma(m = 1, s(start = 0.5, fixed = true), v(start = 0, fixed = true));\n"
                   "  Lever lever(r = -3, c = 0.25);\n"
                   "  " MTC "Mass mb(m = 2);\n"
                   "equation\n"
                   "  connect(force.flange, ma.flange_a);\n"
                   "  connect(ma.flange_b, lever.flange_a);\n"
                   "  connect(lever.flange_b, mb.flange_a);\n",
             1, 0.25, 1);
    if (!c.rc) {
        const double r = -3, a = 10 / (1 + r * r * 2);
        for (int i = 0; i < c.r.n; i++) {
            double t = c.r.t[i], sa = 0.5 + a * t * t / 2;
            CHECK_NEAR(val(&c, i, "ma.s"), sa, 1e-9);
            CHECK_NEAR(val(&c, i, "mb.s"), r * sa + 0.25, 1e-9);
            CHECK_NEAR(val(&c, i, "mb.v"), r * a * t, 1e-9);
            CHECK_NEAR(val(&c, i, "lever.flange_b.f"), -2 * r * a, 1e-9);
            check_lever_forces(&c, i, "lever", r);
        }
        CHECK(c.st.e_closed == 1);
        CHECK(balance(&c) <= 1e-9);
    }
    done(&c);
}

/* A lever with a mass of its own: M = m_a + m_lever + r^2 m_b with the mass
 * at flange a, M = m_a + r^2 (m_lever + m_b) with it at flange b. */
static void test_lever_with_mass(void)
{
    for (int side = 0; side < 2; side++) {
        run c;
        char body[4096];
        snprintf(body, sizeof body,
                 LEVER MASS_LEVERS "  " MTS "ConstantForce force(f_constant = 10);\n"
                                   "  " MTC "Mass ma(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));\n"
                                   "  %s lever(r = 2, m = 4);\n"
                                   "  " MTC "Mass mb(m = 3);\n"
                                   "equation\n"
                                   "  connect(force.flange, ma.flange_a);\n"
                                   "  connect(ma.flange_b, lever.flange_a);\n"
                                   "  connect(lever.flange_b, mb.flange_a);\n",
                 side ? "MassLeverB" : "MassLeverA");
        simulate(&c, body, 1, 0.5, 1);
        if (!c.rc) {
            const double r = 2, M = side ? 1 + r * r * (4 + 3) : 1 + 4 + r * r * 3, a = 10 / M;
            for (int i = 0; i < c.r.n; i++) {
                double t = c.r.t[i];
                CHECK_NEAR(val(&c, i, "ma.s"), a * t * t / 2, 1e-9);
                CHECK_NEAR(val(&c, i, "mb.v"), r * a * t, 1e-9);
                CHECK_NEAR(val(&c, i, "lever.v"), (side ? r : 1) * a * t, 1e-9);
                /* f_a + r f_b = the lever's inertia in the coordinate of flange a */
                double inertia = side ? 4 * r * r * a : 4 * a;
                CHECK_NEAR(val(&c, i, "lever.flange_a.f") + r * val(&c, i, "lever.flange_b.f"), inertia, 1e-9);
                CHECK_NEAR(val(&c, i, "lever.flange_a.f"), 10 - a, 1e-9);
            }
            CHECK(c.st.e_closed == 1);
            CHECK_REL(c.st.e_kinetic, 10.0 * 10.0 / (2 * M), 1e-9);
            printf("lever with mass at flange %c: M = %g, a_a = %.12g\n", side ? 'b' : 'a', M, val(&c, 1, "ma.a"));
        }
        done(&c);
    }
    /* the lever's mass alone, pushed at b where it sits: m a_b = F, a_a = F / (r m) */
    run c;
    simulate(&c,
             MASS_LEVERS "  " MTS "ConstantForce force(f_constant = 10);\n"
                         "  MassLeverB lever(r = 2, m = 4, s(start = 0, fixed = true), v(start = 0, fixed = true));\n"
                         "equation\n"
                         "  connect(force.flange, lever.flange_b);\n",
             1, 0.5, 1);
    if (!c.rc) {
        for (int i = 0; i < c.r.n; i++) {
            double t = c.r.t[i];
            CHECK_NEAR(val(&c, i, "lever.s"), 2.5 * t * t / 2, 1e-9);
            CHECK_NEAR(val(&c, i, "lever.flange_a.s"), 1.25 * t * t / 2, 1e-9);
        }
        CHECK_REL(c.st.e_kinetic, 0.5 * 4 * 2.5 * 2.5, 1e-9);
        CHECK(c.st.e_closed == 1);
    }
    done(&c);
}

/* Spring k on m_a's side, m_b behind a lever r: period
 * 2 pi sqrt((m_a + r^2 m_b) / k). Start values on m_a, or on m_b behind the
 * lever (conditions on q divided by the ratio). */
static void test_oscillator(void)
{
    const char *starts[2] = {"  " MTC "Mass ma(m = 1, s(start = 0.1, fixed = true), v(start = 0.2, fixed = true));\n"
                             "  " MTC "Mass mb(m = 12);\n",
                             "  " MTC "Mass ma(m = 1);\n"
                             "  " MTC "Mass mb(m = 12, s(start = 0.35, fixed = true), v(start = 0.1, fixed = true));\n"};
    for (int k = 0; k < 2; k++) {
        run c;
        char body[4096];
        snprintf(body, sizeof body,
                 LEVER "  " MTC "Fixed fixed;\n"
                       "  " MTC "Spring spring(c = 100, s_rel0 = 0);\n"
                       "%s"
                       "  Lever lever(r = 0.5, c = 0.3);\n"
                       "equation\n"
                       "  connect(fixed.flange, spring.flange_a);\n"
                       "  connect(spring.flange_b, ma.flange_a);\n"
                       "  connect(ma.flange_b, lever.flange_a);\n"
                       "  connect(lever.flange_b, mb.flange_a);\n",
                 starts[k]);
        simulate_tol(&c, body, 2, 0.01, 1e-10, 1, 1);
        if (!c.rc) {
            /* omega = sqrt(k / (m_a + r^2 m_b)) = 5; s_a(0) = 0.1 and v_a(0) = 0.2 either way
             * (0.35 = 0.5 * 0.1 + 0.3, 0.1 = 0.5 * 0.2) */
            const double w = 5, r = 0.5;
            double worst = 0;
            for (int i = 0; i < c.r.n; i++) {
                double t = c.r.t[i], sa = 0.1 * cos(w * t) + 0.2 / w * sin(w * t);
                worst = fmax(worst, fabs(val(&c, i, "ma.s") - sa));
                CHECK_NEAR(val(&c, i, "ma.s"), sa, 1e-6);
                CHECK_NEAR(val(&c, i, "mb.s"), r * sa + 0.3, 1e-6);
                CHECK_NEAR(val(&c, i, "mb.v"), r * (-0.1 * w * sin(w * t) + 0.2 * cos(w * t)), 1e-5);
                check_lever_forces(&c, i, "lever", r);
            }
            CHECK(c.st.e_closed == 1);
            CHECK(balance(&c) <= 1e-6);
            CHECK_REL(c.st.e_kinetic + c.st.e_potential, 0.5 * 100 * 0.01 + 0.5 * (1 + r * r * 12) * 0.04, 1e-6);
            printf("oscillator (start values on %s): worst |s_a - closed form| = %.2e\n", k ? "mb" : "ma", worst);
        }
        done(&c);
    }
}

/* A Fixed on one side fixes the lever: s_b = 2 * 0.2 + 1 = 1.4 is the
 * spring's anchor, m oscillates about 1.4 + 0.5 at sqrt(k/m) = 10; the
 * fixed flange holds r times the spring force. */
static void test_fixed_behind_lever(void)
{
    run c;
    simulate(&c,
             LEVER "  " MTC "Fixed fixed(s0 = 0.2);\n"
                   "  Lever lever(r = 2, c = 1);\n"
                   "  " MTC "Spring spring(c = 100, s_rel0 = 0.5);\n"
                   "  " MTC "Mass m(m = 1, s(start = 2, fixed = true), v(start = 0, fixed = true));\n"
                   "equation\n"
                   "  connect(fixed.flange, lever.flange_a);\n"
                   "  connect(lever.flange_b, spring.flange_a);\n"
                   "  connect(spring.flange_b, m.flange_a);\n",
             1, 0.125, 1);
    if (!c.rc) {
        CHECK(c.sys->n == 2); /* m alone: the lever is fixed */
        for (int i = 0; i < c.r.n; i++) {
            double t = c.r.t[i], x = 1.9 + 0.1 * cos(10 * t), f = 100 * (x - 1.4 - 0.5);
            CHECK_NEAR(val(&c, i, "lever.flange_b.s"), 1.4, 1e-12);
            CHECK_NEAR(val(&c, i, "m.s"), x, 1e-6);
            CHECK_NEAR(val(&c, i, "lever.flange_b.f"), f, 1e-4);
            CHECK_NEAR(val(&c, i, "fixed.flange.f"), 2 * f, 1e-4);
            check_lever_forces(&c, i, "lever", 2);
        }
        CHECK(c.st.e_closed == 1);
    }
    done(&c);
}

/* A Position source drives one side; the mass on the other follows exactly
 * (r s(t) from flange a, s(t) / r from flange b), and the source holds the
 * mass's inertia through the lever. */
static void test_prescribed_motion(void)
{
    for (int side = 0; side < 2; side++) {
        run c;
        char body[4096];
        snprintf(body, sizeof body,
                 LEVER "  " MBS "Sine sine(amplitude = 0.1, f = 1);\n"
                       "  " MTS "Position pos(exact = true);\n"
                       "  Lever lever(r = 3);\n"
                       "  " MTC "Mass m(m = 2);\n"
                       "equation\n"
                       "  connect(sine.y, pos.s_ref);\n"
                       "  connect(pos.flange, lever.%s);\n"
                       "  connect(lever.%s, m.flange_a);\n",
                 side ? "flange_b" : "flange_a", side ? "flange_a" : "flange_b");
        simulate(&c, body, 1, 0.125, 1);
        if (!c.rc) {
            const double w = 2 * PI, g = side ? 1.0 / 3 : 3; /* m.s = g s(t) */
            CHECK(c.sys->n == 0); /* the mass follows the source */
            for (int i = 0; i < c.r.n; i++) {
                double t = c.r.t[i], am = -g * 0.1 * w * w * sin(w * t);
                CHECK_NEAR(val(&c, i, "m.s"), g * 0.1 * sin(w * t), 1e-12);
                CHECK_NEAR(val(&c, i, "m.v"), g * 0.1 * w * cos(w * t), 1e-12);
                CHECK_NEAR(val(&c, i, "m.a"), am, 1e-10);
                /* the source pushes with g m a_m (work: g f v_s = f_m v_m) */
                CHECK_NEAR(val(&c, i, "pos.flange.f"), -g * 2 * am, 1e-9);
                check_lever_forces(&c, i, "lever", 3);
            }
            CHECK(c.st.e_closed == 1);
        }
        done(&c);
    }
}

/* A position sensor behind the lever feeds a force on m_a: F = -s_b =
 * -r s_a, so M a_a = -r s_a with M = m_a + r^2 m_b (the Jacobian of a
 * signal read at a node with ratio r). */
static void test_sensor_feedback(void)
{
    run c;
    simulate(&c,
             LEVER "  " MTC "Fixed fixed;\n"
                   "  " MTS "Force force(useSupport = true);\n"
                   "  " MTC "Mass ma(m = 1, s(start = 0.1, fixed = true), v(start = 0, fixed = true));\n"
                   "  Lever lever(r = 4);\n"
                   "  " MTC "Mass mb(m = 0.25);\n"
                   "  Modelica.Mechanics.Translational.Sensors.PositionSensor sens;\n"
                   "equation\n"
                   "  connect(force.flange, fixed.flange);\n"
                   "  connect(force.support, ma.flange_a);\n"
                   "  connect(ma.flange_b, lever.flange_a);\n"
                   "  connect(lever.flange_b, mb.flange_a);\n"
                   "  connect(sens.flange, mb.flange_b);\n"
                   "  connect(sens.s, force.f);\n",
             2, 0.1, 1);
    if (!c.rc) {
        const double w = sqrt(4.0 / (1 + 16 * 0.25));
        for (int i = 0; i < c.r.n; i++) {
            double t = c.r.t[i];
            CHECK_NEAR(val(&c, i, "ma.s"), 0.1 * cos(w * t), 1e-6);
            CHECK_NEAR(val(&c, i, "sens.s"), 0.4 * cos(w * t), 4e-6);
        }
        CHECK(c.st.e_closed == 1);
    }
    done(&c);
}

/* Massless levers. Between two springs (k1 at a, k2 at b, mass m beyond):
 * the lever's node is algebraic, m sees k2 in series with k1 / r^2:
 * 1 / (1/100 + 4/100) = 20. With a damper d at a instead of the spring, m
 * sees d / r^2 (the lever's velocity is algebraic): v = v0 exp(-d t / (r^2 m)). */
static void test_massless_levers(void)
{
    run c;
    simulate(&c,
             LEVER "  " MTC "Fixed fixed;\n"
                   "  " MTC "Spring s1(c = 100);\n"
                   "  Lever lever(r = 2);\n"
                   "  " MTC "Spring s2(c = 100);\n"
                   "  " MTC "Mass m(m = 1, s(start = 0.5, fixed = true), v(start = 0, fixed = true));\n"
                   "equation\n"
                   "  connect(fixed.flange, s1.flange_a);\n"
                   "  connect(s1.flange_b, lever.flange_a);\n"
                   "  connect(lever.flange_b, s2.flange_a);\n"
                   "  connect(s2.flange_b, m.flange_a);\n",
             2, 0.1, 1);
    if (!c.rc) {
        const double w = sqrt(20.0);
        for (int i = 0; i < c.r.n; i++) {
            double t = c.r.t[i], x = 0.5 * cos(w * t);
            CHECK_NEAR(val(&c, i, "m.s"), x, 1e-6);
            /* 100 s_a = 2 * 100 (x - 2 s_a): s_a = 0.4 x */
            CHECK_NEAR(val(&c, i, "lever.flange_a.s"), 0.4 * x, 1e-6);
            CHECK_NEAR(val(&c, i, "lever.flange_b.s"), 0.8 * x, 1e-6);
            check_lever_forces(&c, i, "lever", 2);
        }
        CHECK(c.st.e_closed == 1);
        CHECK(balance(&c) <= 1e-6);
    }
    done(&c);
    simulate(&c,
             LEVER "  " MTC "Fixed fixed;\n"
                   "  " MTC "Damper damper(d = 8);\n"
                   "  Lever lever(r = 2);\n"
                   "  " MTC "Mass m(m = 1, s(start = 0, fixed = true), v(start = 1, fixed = true));\n"
                   "equation\n"
                   "  connect(fixed.flange, damper.flange_a);\n"
                   "  connect(damper.flange_b, lever.flange_a);\n"
                   "  connect(lever.flange_b, m.flange_a);\n",
             1, 0.1, 1);
    if (!c.rc) {
        for (int i = 0; i < c.r.n; i++) {
            double t = c.r.t[i];
            CHECK_NEAR(val(&c, i, "m.v"), exp(-2 * t), 1e-6);
            CHECK_NEAR(val(&c, i, "m.s"), (1 - exp(-2 * t)) / 2, 1e-6);
            CHECK_NEAR(val(&c, i, "damper.v_rel"), exp(-2 * t) / 2, 1e-6);
        }
        /* all the kinetic energy 0.5 J goes into the damper in the end */
        CHECK_NEAR(c.st.e_kinetic + c.st.e_dissipated, 0.5, 1e-6);
        CHECK(c.st.e_closed == 1);
    }
    done(&c);
}

/* A restitution stop hit by m_b behind a lever: the reduced mass at the
 * stop is (m_a + r^2 m_b) / r^2 = 5/4 kg; v_b = 2 becomes -e v_b = -1 and
 * v_a -0.5; the loss 0.5 (1 - e^2) mu v_b^2 = 1.875 J is the kinetic
 * energy lost exactly. */
static void test_impact(void)
{
    run c;
    simulate(&c,
             LEVER "  " MTC "Fixed fixed;\n"
                   "  " MTC "Mass ma(m = 1, s(start = 0, fixed = true), v(start = 1, fixed = true));\n"
                   "  Lever lever(r = 2);\n"
                   "  " MTC "Mass mb(m = 1);\n"
                   "  Flange.Components.HardStop hs(hs_model = Flange.Types.HardStopModel.RESTITUTION, cor = 0.5, "
                   "upper_bnd = 0.1, lower_bnd = -10);\n"
                   "equation\n"
                   "  connect(ma.flange_b, lever.flange_a);\n"
                   "  connect(lever.flange_b, mb.flange_a);\n"
                   "  connect(mb.flange_b, hs.R);\n"
                   "  connect(hs.C, fixed.flange);\n",
             0.2, 0.05, 1);
    if (!c.rc) {
        int imp = change(&c, "mb.v", 0);
        CHECK(imp > 0);
        if (imp > 0) {
            CHECK_REL(c.r.t[imp], 0.05, 1e-9);
            CHECK_REL(val(&c, imp - 1, "mb.v"), 2, 1e-12);
            CHECK_REL(val(&c, imp, "mb.v"), -1, 1e-9);
            CHECK_REL(val(&c, imp, "ma.v"), -0.5, 1e-9);
            CHECK_REL(val(&c, imp, "hs.impactEnergy"), 1.875, 1e-9);
        }
        CHECK_REL(c.st.e_impacts, 1.875, 1e-9);
        CHECK_REL(c.st.e_kinetic, 0.625, 1e-9);
        CHECK(c.st.e_closed == 1);
        CHECK(balance(&c) <= 1e-9);
    }
    done(&c);
}

/* Stick-slip behind a lever: m_b slides on friction with break-away force
 * F_Coulomb + F_Stribeck = 4 N, which the force on m_a meets at r * 4 = 8 N:
 * 7 N holds it (the friction force is 7 / 2), 10 N starts it at
 * a_a = (10 - 2 * 4) / (m_a + r^2 m_b). */
static void test_friction(void)
{
    for (int k = 0; k < 2; k++) {
        run c;
        char body[4096];
        snprintf(body, sizeof body,
                 LEVER "  " MTS "ConstantForce force(f_constant = %g);\n"
                       "  " MTC "Mass ma(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));\n"
                       "  Lever lever(r = 2);\n"
                       "  " MTC "MassWithStopAndFriction mb(m = 1, smax = 100, smin = -100, F_prop = 0, "
                       "F_Coulomb = 3, F_Stribeck = 1, fexp = 2, L = 0);\n"
                       "equation\n"
                       "  connect(force.flange, ma.flange_a);\n"
                       "  connect(ma.flange_b, lever.flange_a);\n"
                       "  connect(lever.flange_b, mb.flange_a);\n",
                 k ? 10.0 : 7.0);
        simulate(&c, body, 1, 0.5, 1);
        if (!c.rc) {
            int last = c.r.n - 1;
            if (k == 0) {
                CHECK(val(&c, last, "ma.s") == 0);
                CHECK_NEAR(val(&c, last, "mb.f"), 3.5, 1e-9);
                CHECK_NEAR(val(&c, last, "lever.flange_a.f"), 7, 1e-9);
            } else {
                CHECK_NEAR(val(&c, 0, "ma.a"), 0.4, 1e-9);
                CHECK(val(&c, last, "mb.v") > 0);
                CHECK_NEAR(val(&c, last, "mb.v"), 2 * val(&c, last, "ma.v"), 1e-12);
            }
            CHECK(c.st.e_closed == 1);
        }
        done(&c);
    }
}

/* Compile "model T <body> end T;": it must fail with exactly this first error. */
static void expect_first_error(const char *body, const char *want)
{
    static char text[65536];
    snprintf(text, sizeof text, "model T\n%s\nend T;\n", body);
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(text, "t.mo", NULL, d);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    CHECK(sys == NULL);
    const char *got = NULL;
    for (int i = 0; i < fl_diag_count(d) && !got; i++)
        if (strstr(fl_diag_text(d, i), "error")) got = fl_diag_text(d, i);
    check_count++;
    if (!got || strcmp(got, want) != 0) {
        check_failures++;
        fprintf(stderr, "%s:%d: message differs:\n  got  %s\n  want %s\n", __FILE__, __LINE__, got ? got : "(none)",
                want);
    }
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

/* Two levers between the same masses: ratios 2 and 3 contradict each
 * other, two of 2 agree but leave the forces in the loop undetermined, and
 * two rods of different lengths contradict; chained ratios of 1e200 leave
 * the range of numbers. The location of a user component is its first
 * equation (t.mo line 7: flange_b.s = r*flange_a.s + c). */
static void test_errors(void)
{
#define TWO_LEVERS(r1, r2)                                                                       \
    LEVER "  " MTC "Mass ma(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));\n"   \
          "  Lever l1(r = " r1 ");\n"                                                            \
          "  Lever l2(r = " r2 ");\n"                                                            \
          "  " MTC "Mass mb(m = 2);\n"                                                           \
          "equation\n"                                                                           \
          "  connect(ma.flange_b, l1.flange_a);\n"                                               \
          "  connect(ma.flange_b, l2.flange_a);\n"                                               \
          "  connect(l1.flange_b, mb.flange_a);\n"                                               \
          "  connect(l2.flange_b, mb.flange_a);\n"
    expect_first_error(TWO_LEVERS("2", "3"),
                       "t.mo:12:9: error: l2 contradicts the rigid connections (masses, rods, sensors, levers) that "
                       "already join s1 = {ma.flange_b, l1.flange_a, l2.flange_a} and s2 = {mb.flange_a, "
                       "l1.flange_b, l2.flange_b}: it requires s2 = 3*s1, they give s2 = 2*s1");
    expect_first_error(TWO_LEVERS("2", "2"),
                       "t.mo:12:9: error: l2 closes a loop of rigid connections (masses, rods, sensors, levers) "
                       "between {ma.flange_b, l1.flange_a, l2.flange_a} and {mb.flange_a, l1.flange_b, "
                       "l2.flange_b}: the forces in it are not determined");
    expect_first_error("  " MTC "Fixed fixed;\n"
                       "  " MTC "Rod r1(L = 1);\n"
                       "  " MTC "Rod r2(L = 1.5);\n"
                       "equation\n"
                       "  connect(fixed.flange, r1.flange_a);\n"
                       "  connect(fixed.flange, r2.flange_a);\n"
                       "  connect(r1.flange_b, r2.flange_b);",
                       "t.mo:4:51: error: r2 contradicts the rigid connections (masses, rods, sensors, levers) that "
                       "already join s1 = {fixed.flange, r1.flange_a, r2.flange_a} and s2 = {r1.flange_b, "
                       "r2.flange_b}: it requires s2 = s1 + 1.5, they give s2 = s1 + 1");
    expect_first_error(LEVER "  Lever l1(r = 1e200);\n"
                             "  Lever l2(r = 1e200);\n"
                             "  " MTC "Mass mb(m = 2);\n"
                             "  " MTC "Mass ma(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));\n"
                             "equation\n"
                             "  connect(ma.flange_b, l1.flange_a);\n"
                             "  connect(l1.flange_b, l2.flange_a);\n"
                             "  connect(l2.flange_b, mb.flange_a);\n",
                       "t.mo:10:9: error: l1: the levers joining {ma.flange_b, l1.flange_a} to {mb.flange_a, "
                       "l2.flange_b} multiply the motion of the first by 0, which is out of range");
#undef TWO_LEVERS
}

/* A rod on a massless node between springs: its flange forces carry no
 * inertia (0 kg times the undetermined acceleration of the node was NaN);
 * m sees two springs of 100 N/m in series. */
static void test_rod_on_massless_node(void)
{
    run c;
    simulate(&c,
             "  " MTC "Fixed fixed;\n"
             "  " MTC "Spring s1(c = 100);\n"
             "  " MTC "Rod rod(L = 0.1);\n"
             "  " MTC "Spring s2(c = 100);\n"
             "  " MTC "Mass m(m = 1, s(start = 0.5, fixed = true), v(start = 0, fixed = true));\n"
             "equation\n"
             "  connect(fixed.flange, s1.flange_a);\n"
             "  connect(s1.flange_b, rod.flange_a);\n"
             "  connect(rod.flange_b, s2.flange_a);\n"
             "  connect(s2.flange_b, m.flange_a);\n",
             1, 0.1, 1);
    if (!c.rc) {
        const double w = sqrt(50.0);
        for (int i = 0; i < c.r.n; i++) {
            double t = c.r.t[i], x = 0.1 + 0.4 * cos(w * t);
            CHECK_NEAR(val(&c, i, "m.s"), x, 1e-6);
            /* the rod carries the spring force: pulled at b, held at a */
            CHECK_NEAR(val(&c, i, "rod.flange_b.f"), 50 * (x - 0.1), 1e-4);
            CHECK_NEAR(val(&c, i, "rod.flange_a.f"), -50 * (x - 0.1), 1e-4);
        }
    }
    done(&c);
}

int main(void)
{
    test_constant_force();
    test_offset_negative_ratio();
    test_lever_with_mass();
    test_oscillator();
    test_fixed_behind_lever();
    test_prescribed_motion();
    test_sensor_feedback();
    test_massless_levers();
    test_impact();
    test_friction();
    test_errors();
    test_rod_on_massless_node();
    return check_done();
}
