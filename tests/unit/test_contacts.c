/* test_contacts.c - the worked checks of the hard stops and the ElastoGap
 * (spec sections 3.7, 4.8, 7.7) within 1e-4 relative, mirrored HardStop
 * motion, the energy balance of every case, impact losses, long resting
 * contacts without event storms, and the rejection of bad parameters. */
#include "simrun.h"

#define MTC "Modelica.Mechanics.Translational.Components."
#define MTS "Modelica.Mechanics.Translational.Sources."

#define REL 1e-4

/* a mass of 1 kg at flange_b of a SymmetricHardStop fixed at flange_a */
static void shs_run(run *c, const char *params, double stop, double interval)
{
    char body[2048];
    snprintf(body, sizeof body,
             "  " MTC "Fixed fixed;\n"
             "  Flange.Components.SymmetricHardStop hs(%s);\n"
             "  " MTC "Mass mass(m=1, s(fixed=true), v(start=1, fixed=true));\n"
             "equation\n"
             "  connect(fixed.flange, hs.flange_a);\n"
             "  connect(hs.flange_b, mass.flange_a);\n",
             params);
    simulate(c, body, stop, interval, 1);
}

static void test_hs1(void)
{
    run c;
    shs_run(&c, "b=1, c=1e4, d=0", 2.6, 1e-4);
    if (!c.rc) {
        int on = change(&c, "hs.contact", 0), off = change(&c, "hs.contact", 1), low = change(&c, "hs.contact", 2),
            again = change(&c, "hs.contact", 4);
        CHECK(on > 0 && off > 0 && low > 0 && again > 0);
        if (on <= 0 || off <= 0 || low <= 0 || again <= 0) {
            done(&c);
            return;
        }
        CHECK_REL(c.r.t[on], 0.5, REL);
        CHECK_REL(c.r.t[off] - c.r.t[on], 0.03141593, REL);
        CHECK_REL(val(&c, off, "mass.v"), -1, REL);
        CHECK_REL(maxof(&c, "hs.s_rel", 0.5, 0.6, NULL), 0.51, REL);
        CHECK_REL(c.r.t[low], 1.53141593, REL);
        CHECK(val(&c, low, "hs.contact") == -1);
        CHECK_REL(c.r.t[again] - c.r.t[on], 2.06283185, REL);
        CHECK(balance(&c) <= 1e-6);
        printf("HS-1: contact at %.8f for %.8f s, exit v %.7f, period %.8f; energy drift %.2e of throughput\n",
               c.r.t[on], c.r.t[off] - c.r.t[on], val(&c, off, "mass.v"), c.r.t[again] - c.r.t[on], balance(&c));
    }
    done(&c);
}

static void test_hs2(void)
{
    run c;
    shs_run(&c, "b=1, c=1e4, d=20", 0.7, 1e-5);
    if (!c.rc) {
        int on = change(&c, "hs.contact", 0), off = change(&c, "hs.contact", 1);
        CHECK(on > 0 && off > 0);
        if (on <= 0 || off <= 0) {
            done(&c);
            return;
        }
        double tpk = 0;
        double pk = maxof(&c, "hs.s_rel", 0.5, 0.6, &tpk) - 0.5;
        CHECK_REL(val(&c, off, "mass.v"), -0.7292476, REL);
        CHECK_REL(c.r.t[off] - c.r.t[on], 0.03157419, REL);
        CHECK_REL(pk, 0.0086260, REL);
        CHECK_NEAR(tpk - c.r.t[on], 0.01478038, 1e-5); /* on the 1e-5 s output grid */
        CHECK(balance(&c) <= 1e-6);
        printf("HS-2: exit v %.7f after %.8f s, peak penetration %.7f at +%.5f; energy drift %.2e\n",
               val(&c, off, "mass.v"), c.r.t[off] - c.r.t[on], pk, tpk - c.r.t[on], balance(&c));
    }
    done(&c);
}

/* defaults c = d = 1e10: a plastic impact, about 1e-10 m penetration */
static void test_hs3(void)
{
    run c;
    shs_run(&c, "", 1.5, 1e-3);
    if (!c.rc) {
        int on = change(&c, "hs.contact", 0);
        CHECK(on > 0 && c.r.t[on] > 0.4999999 && c.r.t[on] < 0.5000001);
        double pen = maxof(&c, "hs.s_rel", 0.5, 1.5, NULL) - 0.5;
        CHECK(pen > 0.5e-10 && pen < 2e-10);
        double vmax = 0;
        for (int i = 0; i < c.r.n; i++)
            if (c.r.t[i] > 0.501) vmax = fmax(vmax, fabs(val(&c, i, "mass.v")));
        CHECK(vmax < 1e-6);            /* no rebound */
        CHECK(change(&c, "hs.contact", 1) < 0); /* the contact never ends */
        printf("HS-3: peak penetration %.3g m, largest |v| after 1 ms %.3g m/s, %ld steps\n", pen, vmax, c.st.steps);
    }
    done(&c);
}

/* no clearance: a static force of 1 N on the flange_b node */
static void test_hs4(void)
{
    run c;
    simulate(&c,
             "  " MTC "Fixed fixed;\n"
             "  Flange.Components.SymmetricHardStop hs(b=0, s_rel(fixed=true));\n"
             "  " MTS "ConstantForce push(f_constant=1);\n"
             "equation\n"
             "  connect(fixed.flange, hs.flange_a);\n"
             "  connect(hs.flange_b, push.flange);\n",
             40, 1, 0);
    if (!c.rc) {
        CHECK_REL(val(&c, c.r.n - 1, "hs.s_rel"), 1e-10, REL);
        CHECK_REL(val(&c, c.r.n - 1, "hs.F"), 1, REL);
    }
    done(&c);
}

/* HardStop: case C fixed, 1 kg slider at R from x = 0 at +1 m/s */
static void hx_run(run *c, const char *params, double stop, double interval)
{
    char body[2048];
    snprintf(body, sizeof body,
             "  " MTC "Fixed fixed;\n"
             "  Flange.Components.HardStop hs(%s);\n"
             "  " MTC "Mass mass(m=1, s(fixed=true), v(start=1, fixed=true));\n"
             "equation\n"
             "  connect(fixed.flange, hs.C);\n"
             "  connect(hs.R, mass.flange_a);\n",
             params);
    simulate(c, body, stop, interval, 1);
}

static void test_hx(void)
{
    static const struct {
        const char *name, *params;
        double vexit, duration, peak, tpeak;
    } cases[] = {
        {"HX-1", "", -0.7895557, 3.150466e-3, 8.936007e-4, 1.499950e-3},
        {"HX-2", "hs_model=Flange.Types.HardStopModel.FULL_UNDAMPED", -0.8936007, 3.070747e-3, 8.936007e-4, 1.499950e-3},
        {"HX-4", "hs_model=Flange.Types.HardStopModel.SMOOTH, trans_region=1e-4", -0.8022867, 3.150535e-3, 9.016396e-4, NAN},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        run c;
        hx_run(&c, cases[k].params, 0.12, 1e-6);
        if (c.rc) {
            done(&c);
            continue;
        }
        int on = change(&c, "hs.contact", 0), off = change(&c, "hs.contact", 1);
        CHECK(on > 0 && off > 0);
        if (on <= 0 || off <= 0) {
            done(&c);
            continue;
        }
        double tpk = 0, pk = maxof(&c, "hs.x", 0.1, 0.11, &tpk) - 0.1;
        CHECK_REL(c.r.t[on], 0.1, 1e-9);
        CHECK_REL(val(&c, off, "mass.v"), cases[k].vexit, REL);
        CHECK_REL(c.r.t[off] - c.r.t[on], cases[k].duration, REL);
        CHECK_REL(pk, cases[k].peak, REL);
        if (!isnan(cases[k].tpeak)) CHECK_NEAR(tpk - c.r.t[on], cases[k].tpeak, 1.1e-6);
        /* SMOOTH: the force is continuous at the touch */
        if (!strcmp(cases[k].name, "HX-4")) CHECK_NEAR(val(&c, on, "hs.F"), 0, 1e-9);
        CHECK(balance(&c) <= 1e-6);
        printf("%s: exit v %.7f, contact %.6e s, peak %.6e m at +%.6e s; energy drift %.2e\n", cases[k].name,
               val(&c, off, "mass.v"), c.r.t[off] - c.r.t[on], pk, tpk - c.r.t[on], balance(&c));
        done(&c);
    }
}

/* HX-3: coefficient of restitution: exit at -0.8 m/s instantly; a slow
 * touch below v_static sticks; the contact force follows the load; a
 * pulling load releases at once. */
static void test_hx3(void)
{
    run c;
    hx_run(&c, "hs_model=Flange.Types.HardStopModel.RESTITUTION, cor=0.8", 0.2, 1e-4);
    if (!c.rc) {
        int imp = change(&c, "mass.v", 0);
        CHECK(imp > 0);
        CHECK_REL(c.r.t[imp], 0.1, 1e-9);
        CHECK(c.r.t[imp] == c.r.t[imp - 1]); /* zero contact duration: two rows at one instant */
        CHECK_REL(val(&c, imp, "mass.v"), -0.8, 1e-12);
        CHECK_REL(val(&c, imp, "hs.impactEnergy"), 0.5 * (1 - 0.64), 1e-12);
        CHECK_REL(c.st.e_impacts, 0.18, 1e-12);
        CHECK(balance(&c) <= 1e-6);
    }
    done(&c);
    simulate(&c,
             "  " MTC "Fixed fixed;\n"
             "  Flange.Components.HardStop hs(hs_model=Flange.Types.HardStopModel.RESTITUTION, x_start=0.0999);\n"
             "  " MTC "Mass mass(m=1, s(fixed=true), v(start=5e-4, fixed=true));\n"
             "  " MTS "ForceStep push(stepForce=2, offsetForce=0, startTime=1);\n"
             "  " MTS "ForceStep pull(stepForce=-4, offsetForce=0, startTime=2);\n"
             "equation\n"
             "  connect(fixed.flange, hs.C);\n"
             "  connect(hs.R, mass.flange_a);\n"
             "  connect(push.flange, mass.flange_b);\n"
             "  connect(pull.flange, mass.flange_b);\n",
             3, 0.01, 1);
    if (!c.rc) {
        int st = change(&c, "hs.mode", 0);
        CHECK(st > 0);
        CHECK_REL(c.r.t[st], 0.2, 1e-6);
        CHECK(val(&c, st, "hs.mode") == 1);
        CHECK_NEAR(val(&c, st, "mass.v"), 0, 1e-15);
        CHECK_NEAR(val(&c, st, "hs.x"), 0.1, 1e-12);
        int row15 = -1, row225 = -1, rel = change(&c, "hs.mode", 1);
        for (int i = 0; i < c.r.n; i++) {
            if (fabs(c.r.t[i] - 1.5) < 1e-9) row15 = i;
            if (fabs(c.r.t[i] - 2.25) < 1e-9) row225 = i;
        }
        CHECK(row15 > 0 && row225 > 0 && rel > 0);
        CHECK_NEAR(val(&c, row15, "hs.F"), 2, 1e-9); /* the stop holds the 2 N load */
        CHECK_NEAR(val(&c, row15, "mass.v"), 0, 1e-12);
        CHECK_NEAR(val(&c, row15, "hs.x"), 0.1, 1e-12);
        CHECK_REL(c.r.t[rel], 2, 1e-12);              /* released at once by the pulling load */
        CHECK(val(&c, rel, "hs.mode") == 0);
        CHECK_NEAR(val(&c, row225, "mass.a"), -2, 1e-9); /* and accelerates away at -2 m/s2 */
        CHECK_NEAR(val(&c, row225, "mass.v"), -0.5, 1e-6);
        CHECK_NEAR(val(&c, row225, "hs.x"), 0.1 - 0.0625, 1e-6);
        CHECK(balance(&c) <= 1e-6);
    }
    done(&c);
}

/* Impulse between two free bodies: momentum conserved, energy loss
 * 0.5 (1 - e^2) v^2 / (1/m_R + 1/m_C). */
static void test_impulse_two_bodies(void)
{
    run c;
    simulate(&c,
             "  Flange.Components.HardStop hs(hs_model=Flange.Types.HardStopModel.RESTITUTION, cor=0.5);\n"
             "  " MTC "Mass caseMass(m=2, s(fixed=true), v(start=-0.5, fixed=true));\n"
             "  " MTC "Mass slider(m=1, s(fixed=true), v(start=1, fixed=true));\n"
             "equation\n"
             "  connect(caseMass.flange_b, hs.C);\n"
             "  connect(hs.R, slider.flange_a);\n",
             0.2, 1e-3, 1);
    if (!c.rc) {
        int imp = change(&c, "slider.v", 0);
        CHECK(imp > 0);
        double vm = 1.5; /* approach speed */
        CHECK_REL(c.r.t[imp], 0.1 / vm, 1e-9);
        double p0 = 2 * -0.5 + 1 * 1, p1 = 2 * val(&c, imp, "caseMass.v") + val(&c, imp, "slider.v");
        CHECK_NEAR(p1, p0, 1e-12);
        CHECK_REL(val(&c, imp, "slider.v") - val(&c, imp, "caseMass.v"), -0.5 * vm, 1e-12);
        CHECK_REL(val(&c, imp, "hs.impactEnergy"), 0.5 * (1 - 0.25) * vm * vm / (1 + 0.5), 1e-12);
        CHECK(balance(&c) <= 1e-6);
    }
    done(&c);
}

/* Swapping R/C and the bounds mirrors x and leaves the motion unchanged. */
static void test_mirror(void)
{
    run a, b;
    simulate(&a,
             "  " MTC "Fixed fixed;\n"
             "  Flange.Components.HardStop hs(upper_bnd=0.1, lower_bnd=-0.3);\n"
             "  " MTC "Mass mass(m=1, s(fixed=true), v(start=1, fixed=true));\n"
             "  " MTS "ConstantForce f(f_constant=-1.5);\n"
             "equation\n"
             "  connect(fixed.flange, hs.C);\n"
             "  connect(hs.R, mass.flange_a);\n"
             "  connect(f.flange, mass.flange_b);\n",
             2, 0.001, 0);
    simulate(&b,
             "  " MTC "Fixed fixed;\n"
             "  Flange.Components.HardStop hs(upper_bnd=0.3, lower_bnd=-0.1);\n"
             "  " MTC "Mass mass(m=1, s(fixed=true), v(start=1, fixed=true));\n"
             "  " MTS "ConstantForce f(f_constant=-1.5);\n"
             "equation\n"
             "  connect(fixed.flange, hs.R);\n"
             "  connect(hs.C, mass.flange_a);\n"
             "  connect(f.flange, mass.flange_b);\n",
             2, 0.001, 0);
    if (!a.rc && !b.rc) {
        CHECK(a.r.n == b.r.n);
        double ds = 0, dx = 0;
        for (int i = 0; i < a.r.n && i < b.r.n; i++) {
            ds = fmax(ds, fabs(val(&a, i, "mass.s") - val(&b, i, "mass.s")));
            dx = fmax(dx, fabs(val(&a, i, "hs.x") + val(&b, i, "hs.x")));
        }
        CHECK(ds < 1e-9);
        CHECK(dx < 1e-9);
        CHECK(change(&a, "hs.contact", 0) > 0); /* it did hit the stop */
    }
    done(&a);
    done(&b);
}

/* HX-H: the hysteresis example. */
static void test_hysteresis(void)
{
    run c;
    simulate_file(&c, "examples/hardstop_hysteresis.mo", 1e-8, 1);
    if (!c.rc) {
        double lo = INFINITY, hi = -INFINITY, edge = 0, push_pen = 0, t_free = 0;
        for (int i = 0; i < c.r.n; i++) {
            double t = c.r.t[i], x1 = val(&c, i, "body1.s"), x2 = val(&c, i, "body2.s");
            if (t >= 2 * 3.14159265358979) {
                lo = fmin(lo, x2);
                hi = fmax(hi, x2);
            }
            /* while pushed, body2 rides on an edge of the parallelogram */
            double ct = val(&c, i, "hardStop.contact"), v1 = val(&c, i, "body1.v");
            if (ct == -1 && v1 > 0.1 && t > 1) edge = fmax(edge, fabs(x2 - (x1 - 0.1)));
            if (ct == 1 && v1 < -0.1 && t > 1) edge = fmax(edge, fabs(x2 - (x1 + 0.1)));
            /* quasi-static pushing: the contact has held for the last 0.2 s */
            if (ct == 0) t_free = t;
            if (ct != 0 && t - t_free > 0.2 && t > 1) push_pen = fmax(push_pen, fabs(val(&c, i, "hardStop.F")) / 1e6);
    }
    CHECK_REL(hi, 0.40249, 2e-5);
    CHECK_REL(lo, -0.40249, 2e-5);
    CHECK(edge < 1e-3); /* the loop's edges are x2 = x1 -+ 0.1 (plus the contact penetration) */
    CHECK(push_pen < 1e-5); /* quasi-static pushing: penetration F/K below 1e-5 m */
    CHECK(balance(&c) <= 1e-6);
    printf("HX-H: body2 between %.6f and %.6f in the second period; edge offset %.2e m; pushing penetration "
           "%.2e m; %ld state events; energy drift %.2e\n",
           lo, hi, edge, push_pen, c.st.state_events, balance(&c));
    }
    done(&c);
}

/* ElastoGap checks EG-1..EG-4 */
static void eg_run(run *c, const char *params)
{
    char body[2048];
    snprintf(body, sizeof body,
             "  " MTC "Fixed fixed;\n"
             "  " MTC "ElastoGap gap(%s);\n"
             "  " MTC "Mass mass(m=1, s(fixed=true), v(start=-1, fixed=true));\n"
             "equation\n"
             "  connect(fixed.flange, gap.flange_a);\n"
             "  connect(gap.flange_b, mass.flange_a);\n",
             params);
    simulate(c, body, 0.1, 1e-6, 1);
}

static void test_elastogap(void)
{
    static const struct {
        const char *params;
        double vexit, duration, peak;
    } cases[] = {
        {"c=1e4, d=0, s_rel0=0", 1, 0.03141593, 0.01},
        {"c=1e4, d=20, s_rel0=0", 0.7586286, 0.03157338, 0.0087947},
        {"c=1e4, d=200, s_rel0=0", 0.2635971, 0.04203753, 0.0071653},
        {"c=1e4, d=0, s_rel0=0, n=1.5, f_ref=1e4", 1, 0.0808341, 0.0274640},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        run c;
        eg_run(&c, cases[k].params);
        if (!c.rc) {
            int on = change(&c, "gap.contact", 0), off = change(&c, "gap.contact", 1);
            CHECK(on > 0 && off > 0);
            if (on <= 0 || off <= 0) {
                done(&c);
                continue;
            }
            double pk = -maxof(&c, "mass.v", -1, -1, NULL);
            double smin = INFINITY;
            for (int i = 0; i < c.r.n; i++) smin = fmin(smin, val(&c, i, "gap.s_rel"));
            (void)pk;
            CHECK_REL(val(&c, off, "mass.v"), cases[k].vexit, REL);
            CHECK_REL(c.r.t[off] - c.r.t[on], cases[k].duration, REL);
            CHECK_REL(-smin, cases[k].peak, REL);
            /* never pulls */
            double fmaxv = -INFINITY;
            for (int i = 0; i < c.r.n; i++) fmaxv = fmax(fmaxv, val(&c, i, "gap.f"));
            CHECK(fmaxv <= 0);
            CHECK(balance(&c) <= 1e-6);
            printf("EG (%s): exit v %.7f after %.8f s, peak compression %.7f; energy drift %.2e\n", cases[k].params,
                   val(&c, off, "mass.v"), c.r.t[off] - c.r.t[on], -smin, balance(&c));
        }
        done(&c);
    }
    /* EG-1 static preload: -10 N on the massless flange_b node, which
     * starts off equilibrium (where the spring force alone exceeds half the
     * load, so that the clipped damper can carry the rest) and settles */
    static const struct {
        const char *params;
        double s, s0;
    } st[] = {{"c=1000, d=1", -0.01, -0.008}, {"c=1000, d=1, n=1.5, s_ref=1, f_ref=1000", -0.046415888336127786, -0.04}};
    for (size_t k = 0; k < 2; k++) {
        run c;
        char body[1024];
        snprintf(body, sizeof body,
                 "  " MTC "Fixed fixed;\n"
                 "  " MTC "ElastoGap gap(%s, s_rel(start=%g, fixed=true));\n"
                 "  " MTS "ConstantForce load(f_constant=-10);\n"
                 "equation\n"
                 "  connect(fixed.flange, gap.flange_a);\n"
                 "  connect(gap.flange_b, load.flange);\n",
                 st[k].params, st[k].s0);
        simulate(&c, body, 2, 0.1, 0);
        if (!c.rc) {
            CHECK_REL(val(&c, c.r.n - 1, "gap.s_rel"), st[k].s, REL);
            CHECK_REL(val(&c, c.r.n - 1, "gap.f"), -10, REL);
        }
        done(&c);
    }
}

/* A body pressed into a stop by a steady force for 1000 s: every contact
 * model settles, with a handful of events and no event storm. */
static void test_resting(void)
{
    static const char *const stops[] = {
        "Flange.Components.HardStop hs",
        "Flange.Components.HardStop hs(hs_model=Flange.Types.HardStopModel.FULL_UNDAMPED)",
        "Flange.Components.HardStop hs(hs_model=Flange.Types.HardStopModel.SMOOTH)",
        "Flange.Components.HardStop hs(hs_model=Flange.Types.HardStopModel.RESTITUTION)",
    };
    for (size_t k = 0; k < 4; k++) {
        run c;
        char body[2048];
        snprintf(body, sizeof body,
                 "  " MTC "Fixed fixed;\n"
                 "  %s;\n"
                 "  " MTC "Mass mass(m=1, s(fixed=true), v(start=0.5, fixed=true));\n"
                 "  " MTS "ConstantForce push(f_constant=2);\n"
                 "equation\n"
                 "  connect(fixed.flange, hs.C);\n"
                 "  connect(hs.R, mass.flange_a);\n"
                 "  connect(push.flange, mass.flange_b);\n",
                 stops[k]);
        simulate(&c, body, 1000, 10, 0);
        if (!c.rc) {
            CHECK(c.st.state_events < 200);
            CHECK_NEAR(val(&c, c.r.n - 1, "mass.v"), 0, 1e-6);
            CHECK_REL(val(&c, c.r.n - 1, "hs.F"), 2, 1e-6);
            printf("resting on %s: %ld state events, %ld steps\n", stops[k], c.st.state_events, c.st.steps);
        }
        done(&c);
    }
    static const char *const others[] = {
        "Flange.Components.SymmetricHardStop hs(b=0.2, c=1e6, d=100)",
        "Flange.Components.SymmetricHardStop hs(b=0.2)",
        "Modelica.Mechanics.Translational.Components.ElastoGap hs(c=1e6, d=100, s_rel0=-0.1)",
    };
    for (size_t k = 0; k < 3; k++) {
        run c;
        char body[2048];
        /* the gap element pushes flange_b away from flange_a: press the mass against it */
        snprintf(body, sizeof body,
                 "  " MTC "Fixed fixed;\n"
                 "  %s;\n"
                 "  " MTC "Mass mass(m=1, s(fixed=true), v(start=%s, fixed=true));\n"
                 "  " MTS "ConstantForce push(f_constant=%s);\n"
                 "equation\n"
                 "  connect(fixed.flange, hs.flange_a);\n"
                 "  connect(hs.flange_b, mass.flange_a);\n"
                 "  connect(push.flange, mass.flange_b);\n",
                 others[k], k == 2 ? "-0.5" : "0.5", k == 2 ? "-2" : "2");
        simulate(&c, body, 1000, 10, 0);
        if (!c.rc) {
            CHECK(c.st.state_events < 200);
            CHECK_NEAR(val(&c, c.r.n - 1, "mass.v"), 0, 1e-6);
            printf("resting on %s: %ld state events, %ld steps\n", others[k], c.st.state_events, c.st.steps);
        }
        done(&c);
    }
}

static void expect_error(const char *decl, const char *fragment)
{
    char text[2048];
    snprintf(text, sizeof text,
             "model T\n  " MTC "Fixed fixed;\n  %s;\n  " MTC "Mass mass(m=1, s(fixed=true), v(fixed=true));\n"
             "equation\n  connect(fixed.flange, hs.%s);\n  connect(hs.%s, mass.flange_a);\nend T;\n",
             decl, strstr(decl, "HardStop hs") && !strstr(decl, "Symmetric") ? "C" : "flange_a",
             strstr(decl, "HardStop hs") && !strstr(decl, "Symmetric") ? "R" : "flange_b");
    expect_compile_error(text, fragment);
}

static void test_bad_parameters(void)
{
    expect_error("Flange.Components.HardStop hs(upper_bnd=-0.1, lower_bnd=0.1)",
                 "hs: upper_bnd (-0.1) must be greater than lower_bnd (0.1)");
    expect_error("Flange.Components.HardStop hs(upper_bnd=0.1, lower_bnd=0.1)", "must be greater than lower_bnd");
    expect_error("Flange.Components.HardStop hs(stiff_up=-5)", "hs.stiff_up = -5 is invalid: it must be > 0");
    expect_error("Flange.Components.HardStop hs(stiff_low=0)", "hs.stiff_low = 0 is invalid: it must be > 0");
    expect_error("Flange.Components.HardStop hs(D_up=-1)", "hs.D_up = -1 is invalid: it must be >= 0");
    expect_error("Flange.Components.HardStop hs(cor=1.5)", "hs.cor = 1.5 is invalid: it must be <= 1");
    expect_error("Flange.Components.HardStop hs(cor=-0.1)", "hs.cor = -0.1 is invalid: it must be >= 0");
    expect_error("Flange.Components.HardStop hs(v_static=0)", "hs.v_static = 0 is invalid: it must be > 0");
    expect_error("Flange.Components.HardStop hs(trans_region=-1e-4)", "hs.trans_region = -0.0001 is invalid: it must be > 0");
    expect_error("Flange.Components.HardStop hs(f_release=-1)", "hs.f_release = -1 is invalid: it must be >= 0");
    expect_error("Flange.Components.HardStop hs(hs_model=Flange.Types.HardStopModel.RESTITUTION, x_start=0.2)",
                 "the slider must start between the stops");
    expect_error("Flange.Components.HardStop hs(hs_model=3)", "hs.hs_model must be a literal of Flange.Types.HardStopModel");
    expect_error("Flange.Components.SymmetricHardStop hs(c=-1)", "hs.c = -1 is invalid: it must be >= 0");
    expect_error("Flange.Components.SymmetricHardStop hs(d=-1)", "hs.d = -1 is invalid: it must be >= 0");
    expect_error("Modelica.Mechanics.Translational.Components.ElastoGap hs(c=1, d=1, n=0.5)",
                 "hs.n = 0.5 is invalid: it must be >= 1");
    expect_error("Modelica.Mechanics.Translational.Components.ElastoGap hs(c=1, d=1, s_ref=0)",
                 "hs.s_ref = 0 is invalid: it must be > 0");
    /* an impact needs mass on both sides */
    const char *text = "model T\n  " MTC "Fixed fixed;\n"
                       "  Flange.Components.HardStop hs(hs_model=Flange.Types.HardStopModel.RESTITUTION);\n"
                       "  " MTC "Spring k(c=10);\n  " MTC "Mass mass(m=1, s(fixed=true), v(fixed=true));\n"
                       "equation\n  connect(fixed.flange, hs.C);\n  connect(hs.R, k.flange_a);\n"
                       "  connect(k.flange_b, mass.flange_a);\nend T;\n";
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(text, "t.mo", NULL, d);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    CHECK(sys == NULL);
    CHECK(fl_diag_count(d) > 0 && strstr(fl_diag_text(d, fl_diag_count(d) - 1), "an impact needs mass on both sides"));
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    test_hs1();
    test_hs2();
    test_hs3();
    test_hs4();
    test_hx();
    test_hx3();
    test_impulse_two_bodies();
    test_mirror();
    test_hysteresis();
    test_elastogap();
    test_resting();
    test_bad_parameters();
    return check_done();
}
