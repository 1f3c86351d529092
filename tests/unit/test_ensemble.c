/* test_ensemble.c - parameter changes per simulation (fl_sim_set_param) and
 * parameter studies on threads (fl_ensemble_run): closed-form results of a
 * mass on a spring for many stiffnesses, the refusals with their messages,
 * and failed runs that do not stop the others. */
#include "simrun.h"
#include "compile/system.h"

static const char *osc =
    "model Osc\n"
    "  Modelica.Mechanics.Translational.Components.Fixed ground;\n"
    "  Modelica.Mechanics.Translational.Components.Spring spring(c=4);\n"
    "  Modelica.Mechanics.Translational.Components.Mass mass(m=1, s(start=1, fixed=true), v(fixed=true));\n"
    "  Flange.Components.HardStop stop(upper_bnd=5, lower_bnd=-5);\n"
    "equation\n"
    "  connect(ground.flange, spring.flange_a);\n"
    "  connect(spring.flange_b, mass.flange_a);\n"
    "  connect(ground.flange, stop.C);\n"
    "  connect(stop.R, mass.flange_b);\n"
    "  annotation(experiment(StopTime=1, Tolerance=1e-9));\n"
    "end Osc;\n";

#define NRUNS 40

typedef struct res {
    int is;
    double s[NRUNS];
    int status[NRUNS];
    int calls[NRUNS];
    char msg[256];
} res;

static double c_of(int k) { return 1 + 0.5 * k; }

static int setup(fl_sim *sim, int k, fl_diag *d, void *user)
{
    (void)user;
    if (k == 7) return fl_sim_set_param(sim, "spring.c", -1, d); /* refused: the run fails */
    return fl_sim_set_param(sim, "spring.c", c_of(k), d);
}

static void on_done(fl_sim *sim, int k, int status, const fl_diag *d, void *user)
{
    res *r = user;
    r->calls[k]++;
    r->status[k] = status;
    r->s[k] = status ? NAN : fl_sim_value(sim, r->is);
    if (status && fl_diag_count(d)) snprintf(r->msg, sizeof r->msg, "%s", fl_diag_text(d, 0));
}

static const char *last_error(const fl_diag *d)
{
    return fl_diag_count(d) ? fl_diag_text(d, fl_diag_count(d) - 1) : "";
}

/* Alike instances share their row of parameter values in the compiled
 * system (two spring-mass-stop oscillators: the springs one row, the
 * masses one, the stops one); a simulation that changes one spring's
 * stiffness changes that spring alone, in a run of one integrator and in
 * one of a group each, with the same bits as the model compiled with that
 * stiffness, and the system's rows (another simulation's) are unchanged. */
static const char *two =
    "model Two\n"
    "  Modelica.Mechanics.Translational.Components.Fixed ground;\n"
    "  Modelica.Mechanics.Translational.Components.Spring s1(c=4), s2(c=%s);\n"
    "  Modelica.Mechanics.Translational.Components.Mass m1(m=1, s(start=1, fixed=true), v(fixed=true)),\n"
    "    m2(m=1, s(start=1, fixed=true), v(fixed=true));\n"
    "  Flange.Components.HardStop b1(upper_bnd=5, lower_bnd=-5), b2(upper_bnd=5, lower_bnd=-5);\n"
    "equation\n"
    "  connect(ground.flange, s1.flange_a);\n  connect(s1.flange_b, m1.flange_a);\n"
    "  connect(ground.flange, s2.flange_a);\n  connect(s2.flange_b, m2.flange_a);\n"
    "  connect(ground.flange, b1.C);\n  connect(b1.R, m1.flange_b);\n"
    "  connect(ground.flange, b2.C);\n  connect(b2.R, m2.flange_b);\n"
    "  annotation(experiment(StopTime=1, Tolerance=1e-9));\n"
    "end Two;\n";

static fl_system *compile_two(const char *c2, fl_diag *d)
{
    char text[2048];
    snprintf(text, sizeof text, two, c2);
    fl_model *m = fl_model_load_string(text, "two.mo", NULL, d);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    fl_model_free(m);
    return sys;
}

/* m1.s and m2.s at the end of a run (c2 >= 0: s2.c set first; s2.c is
 * then c2_is) */
static void run_two(const fl_system *sys, int one, double c2, double c2_is, double out[2], fl_diag *d)
{
    fl_sim *sim = fl_sim_new(sys, d);
    fl_sim_opts o = fl_sim_default_opts(sys);
    o.one_integrator = one;
    out[0] = out[1] = NAN;
    if (sim && (c2 < 0 || fl_sim_set_param(sim, "s2.c", c2, d) == 0) && fl_sim_run(sim, &o, NULL, NULL, d) == 0) {
        out[0] = fl_sim_value(sim, fl_system_var_index(sys, "m1.s"));
        out[1] = fl_sim_value(sim, fl_system_var_index(sys, "m2.s"));
        CHECK(fl_sim_param(sim, "s1.c") == 4);
        CHECK(fl_sim_param(sim, "s2.c") == c2_is);
    }
    fl_sim_free(sim);
}

static void shared_rows(void)
{
    fl_diag *d = fl_diag_new();
    fl_system *sys = compile_two("4", d), *nine = compile_two("9", d);
    CHECK(sys != NULL && nine != NULL);
    if (sys) { /* s2, m2 and b2 have no rows of their own */
        int own = 0;
        const char *second[] = {"s2", "m2", "b2"};
        for (int k = 0; k < 3; k++) {
            const fl_inst_rt *ir = &sys->insts[fl_system_inst_index(sys, second[k], 2)];
            own += ir->cls->nparams + ir->cls->nderived;
        }
        CHECK(own > 0 && sys->npar - sys->npar_rows == own);
    }
    for (int one = 0; sys && nine && one < 2; one++) {
        double a[2], b[2], c[2];
        run_two(sys, one, 9, 9, a, d);
        run_two(nine, one, -1, 9, b, d);
        run_two(sys, one, -1, 4, c, d);
        CHECK_NEAR(a[0], cos(2.0), 1e-6);
        CHECK_NEAR(a[1], cos(3.0), 1e-6);
        CHECK(memcmp(a, b, sizeof a) == 0);
        CHECK_NEAR(c[0], cos(2.0), 1e-6);
        CHECK(memcmp(&c[0], &c[1], sizeof c[0]) == 0);
    }
    for (int i = 0; i < fl_diag_count(d); i++)
        if (!strstr(fl_diag_text(d, i), "warning")) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    fl_system_free(sys);
    fl_system_free(nine);
    fl_diag_free(d);
}

/* Alike instances share a row from their evaluation on; the class checks
 * still run on every instance and name it: two stops with the same bounds
 * the wrong way round are both reported, the third (another row) is not. */
static void checks_on_shared_rows(void)
{
    static const char *text = "model Stops\n"
                              "  Flange.Components.HardStop b1(upper_bnd=-1, lower_bnd=1);\n"
                              "  Flange.Components.HardStop b2(upper_bnd=-1, lower_bnd=1);\n"
                              "  Flange.Components.HardStop b3(upper_bnd=1, lower_bnd=-1);\n"
                              "end Stops;\n";
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(text, "stops.mo", NULL, d);
    CHECK(m != NULL);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    CHECK(sys == NULL);
    int b1 = 0, b2 = 0, b3 = 0;
    for (int i = 0; i < fl_diag_count(d); i++) {
        const char *t = fl_diag_text(d, i);
        b1 += strstr(t, "stops.mo:2:") && strstr(t, "b1: upper_bnd (-1) must be greater than lower_bnd (1)") != NULL;
        b2 += strstr(t, "stops.mo:3:") && strstr(t, "b2: upper_bnd (-1) must be greater than lower_bnd (1)") != NULL;
        b3 += strstr(t, "b3:") != NULL;
    }
    CHECK(b1 == 1 && b2 == 1 && b3 == 0);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

int main(void)
{
    shared_rows();
    checks_on_shared_rows();
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(osc, "osc.mo", NULL, d);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    fl_model_free(m);
    CHECK(sys != NULL);
    if (!sys) return check_done();

    /* one simulation, parameters changed between runs: s(1) = cos(sqrt(c)) */
    fl_sim *sim = fl_sim_new(sys, d);
    fl_sim_opts o = fl_sim_default_opts(sys);
    int is = fl_system_var_index(sys, "mass.s");
    CHECK(fl_sim_param(sim, "spring.c") == 4);
    CHECK(fl_sim_run(sim, &o, NULL, NULL, d) == 0);
    CHECK_NEAR(fl_sim_value(sim, is), cos(2.0), 1e-6);
    CHECK(fl_sim_set_param(sim, "spring.c", 9, d) == 0);
    CHECK(fl_sim_param(sim, "spring.c") == 9);
    CHECK(fl_sim_run(sim, &o, NULL, NULL, d) == 0);
    CHECK_NEAR(fl_sim_value(sim, is), cos(3.0), 1e-6);

    /* refusals: the value stays as it was */
    CHECK(fl_sim_set_param(sim, "mass.m", 2, d) == -1);
    CHECK_STR_CONTAINS(last_error(d), "error: mass.m was used to build the model's structure (bodies, fixed "
                                      "positions, initial conditions): change it in the model and compile again");
    CHECK(fl_sim_set_param(sim, "spring.c", -1, d) == -1);
    CHECK_STR_CONTAINS(last_error(d), "error: spring.c = -1 is invalid: it must be >= 0");
    CHECK(fl_sim_param(sim, "spring.c") == 9);
    CHECK(fl_sim_set_param(sim, "spring.k", 1, d) == -1);
    CHECK_STR_CONTAINS(last_error(d),
                       "error: spring (Modelica.Mechanics.Translational.Components.Spring) has no parameter 'k'");
    CHECK(fl_sim_set_param(sim, "nobody.c", 1, d) == -1);
    CHECK_STR_CONTAINS(last_error(d), "error: no component for parameter 'nobody.c' (write component.parameter)");
    CHECK(fl_sim_set_param(sim, "stop.hs_model", 2, d) == -1);
    CHECK_STR_CONTAINS(last_error(d), "error: stop.hs_model is not a Real parameter");
    CHECK(fl_sim_set_param(sim, "stop.upper_bnd", -6, d) == -1); /* the class check: upper <= lower */
    CHECK(fl_sim_param(sim, "stop.upper_bnd") == 5);
    CHECK(isnan(fl_sim_param(sim, "spring.k")));
    fl_sim_free(sim);

    /* the ensemble on two threads: every run once, run 7 failed alone */
    res r;
    memset(&r, 0, sizeof r);
    r.is = is;
    fl_diag_clear(d);
    int failed = fl_ensemble_run(sys, &o, NRUNS, 2, setup, on_done, &r, d);
    CHECK(failed == 1);
    for (int k = 0; k < NRUNS; k++) {
        CHECK(r.calls[k] == 1);
        if (k == 7) {
            CHECK(r.status[k] != 0);
            continue;
        }
        CHECK(r.status[k] == 0);
        CHECK_NEAR(r.s[k], cos(sqrt(c_of(k))), 1e-6);
    }
    CHECK_STR_CONTAINS(r.msg, "error: spring.c = -1 is invalid: it must be >= 0");

    /* runs start from the compiled parameters: without setup, c = 4 */
    memset(&r, 0, sizeof r);
    r.is = is;
    CHECK(fl_ensemble_run(sys, &o, 3, 0, NULL, on_done, &r, d) == 0);
    for (int k = 0; k < 3; k++) CHECK_NEAR(r.s[k], cos(2.0), 1e-6);
    CHECK(fl_ensemble_run(sys, &o, 0, 2, setup, on_done, &r, d) == 0);

    fl_system_free(sys);

    /* a parameter of the model itself that its equations read, by its bare
     * name: a damping force -d*v written as an equation */
    static const char eqm[] = "model Eq\n"
                              "  parameter Real d = 20;\n"
                              "  parameter Real unused = 1;\n"
                              "  Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 1, fixed = true),\n"
                              "    v(start = 0, fixed = true));\n"
                              "  Modelica.Mechanics.Translational.Sources.Force f;\n"
                              "equation\n"
                              "  f.f = -d*mass.v - 100*mass.s;\n"
                              "  connect(f.flange, mass.flange_a);\n"
                              "end Eq;\n";
    m = fl_model_load_string(eqm, "eq.mo", NULL, d);
    sys = m ? fl_compile(m, d) : NULL;
    fl_model_free(m);
    CHECK(sys != NULL);
    if (sys) {
        sim = fl_sim_new(sys, d);
        CHECK(fl_sim_param(sim, "d") == 20);
        CHECK(fl_sim_set_param(sim, "d", 0, d) == 0 && fl_sim_param(sim, "d") == 0);
        o = fl_sim_default_opts(sys);
        o.stop_time = 0.1 * acos(-1.0); /* half a period of the undamped oscillation */
        CHECK(fl_sim_run(sim, &o, NULL, NULL, d) == 0);
        CHECK_NEAR(fl_sim_value(sim, fl_system_var_index(sys, "mass.s")), -1, 1e-4);
        CHECK(isnan(fl_sim_param(sim, "unused"))); /* read by no equation: not the instance's */
        CHECK(fl_sim_set_param(sim, "unused", 2, d) == -1);
        CHECK_STR_CONTAINS(last_error(d), "error: no component for parameter 'unused' (write component.parameter)");
        fl_sim_free(sim);
        fl_system_free(sys);
    }
    fl_diag_free(d);
    return check_done();
}
