/* test_api.c - the public C API: building a model component by component,
 * setting parameters from numbers, expressions and arrays, errors of the
 * API calls, running one system in several simulations, reading values by
 * name, and time events of signal blocks seen through a run. */
#include "simrun.h"
#include "flange.h"

static int last_error_contains(const fl_diag *d, const char *s)
{
    for (int i = fl_diag_count(d) - 1; i >= 0; i--)
        if (fl_diag_severity(d, i) == FL_SEV_ERROR) return strstr(fl_diag_text(d, i), s) != NULL;
    return 0;
}

static void test_build_errors(void)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_new("E");
    CHECK(fl_model_add(m, "Mass", "m1", d) == 0);
    CHECK(fl_model_add(m, "NoSuchThing", "x", d) != 0);
    CHECK(last_error_contains(d, "unknown component type 'NoSuchThing'"));
    CHECK(fl_model_add(m, "Mass", "m1", d) != 0);
    CHECK(last_error_contains(d, "duplicate component name 'm1'"));
    CHECK(fl_model_add(m, "Mass", "1bad", d) != 0);
    CHECK(last_error_contains(d, "'1bad' is not a valid component name"));
    CHECK(fl_model_set(m, "m1.q", 1, d) != 0);
    CHECK(last_error_contains(d, "m1 (Modelica.Mechanics.Translational.Components.Mass) has no parameter 'q'"));
    CHECK(fl_model_set(m, "m1.s", 1, d) != 0);
    CHECK(last_error_contains(d, "m1.s is a variable, not a parameter"));
    CHECK(fl_model_set(m, "nobody.m", 1, d) != 0);
    CHECK(last_error_contains(d, "'nobody.m' does not name a component parameter"));
    CHECK(fl_model_add(m, "Sine", "sine", d) == 0);
    CHECK(fl_model_connect(m, "m1.flange_a", "sine.y", d) != 0);
    CHECK(last_error_contains(d, "cannot connect flange m1.flange_a to signal sine.y"));
    CHECK(fl_model_connect(m, "m1.flange_c", "m1.flange_b", d) != 0);
    CHECK(last_error_contains(d, "m1 has no connector 'flange_c'"));
    CHECK(fl_model_set_expr(m, "sine.f", "2*", d) != 0);
    CHECK(last_error_contains(d, "syntax error"));
    CHECK(fl_model_set_expr(m, "sine.continuous", "1.5", d) != 0);
    CHECK(last_error_contains(d, "sine.continuous must be true or false"));
    fl_model_free(m);
    fl_diag_free(d);
}

typedef struct tracker {
    int iv;
    double t_last, v_last;
    int rows_at_half;
} tracker;

static int track(void *user, double t, const double *vals, int nvals)
{
    tracker *k = user;
    (void)nvals;
    k->t_last = t;
    k->v_last = vals[k->iv];
    if (fabs(t - 0.5) < 1e-12) k->rows_at_half++;
    return 0;
}

/* A CombiTimeTable (set as an array) drives a force on a mass; the table
 * jumps at t = 0.5 (repeated time row). */
static void test_table_and_reuse(void)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_new("Table");
    int rc = 0;
    rc |= fl_model_add(m, "Modelica.Blocks.Sources.CombiTimeTable", "table", d);
    rc |= fl_model_add(m, "Force", "force", d);
    rc |= fl_model_add(m, "Mass", "mass", d);
    /* settings given twice: the second wins and the first is freed (a
     * number is kept in the setting's record, an array and an enumeration
     * literal apart; v(1) below needs m = 2 and the second table) */
    const double wrong[] = {0, 5, 5, 1, 5, 5};
    rc |= fl_model_set_array(m, "table.table", 2, 3, wrong, d);
    rc |= fl_model_set(m, "mass.m", 9, d);
    rc |= fl_model_set_expr(m, "table.extrapolation", "Modelica.Blocks.Types.Extrapolation.Periodic", d);
    /* force 2 N up to 0.5 s, then -1 N; second column unused */
    const double tab[] = {0, 2, 7, 0.5, 2, 7, 0.5, -1, 7, 1, -1, 7};
    rc |= fl_model_set_array(m, "table.table", 4, 3, tab, d);
    rc |= fl_model_set_expr(m, "table.columns", "{2}", d);
    rc |= fl_model_set_expr(m, "table.extrapolation", "Modelica.Blocks.Types.Extrapolation.HoldLastPoint", d);
    rc |= fl_model_set(m, "mass.m", 2, d);
    rc |= fl_model_set(m, "mass.s.fixed", 1, d);
    rc |= fl_model_set(m, "mass.v.fixed", 1, d);
    rc |= fl_model_connect(m, "table.y[1]", "force.f", d);
    rc |= fl_model_connect(m, "force.flange", "mass.flange_a", d);
    CHECK(rc == 0);
    fl_system *sys = rc ? NULL : fl_compile(m, d);
    CHECK(sys != NULL);
    if (!sys) {
        for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
        fl_model_free(m);
        fl_diag_free(d);
        return;
    }
    fl_model_free(m); /* the system does not need the model any more */
    int iv = fl_system_var_index(sys, "mass.v");
    CHECK(iv >= 0);
    CHECK(fl_system_var_index(sys, "table.y[1]") >= 0);
    CHECK(fl_system_var_index(sys, "nonexistent") == -1);
    CHECK(strcmp(fl_system_var_unit(sys, iv), "m/s") == 0);
    fl_sim_opts o = fl_sim_default_opts(sys);
    o.stop_time = 1;
    o.interval = 0.1;
    o.tolerance = 1e-8;
    /* two simulations of one system, and a second run of the first */
    fl_sim *a = fl_sim_new(sys, d), *b = fl_sim_new(sys, d);
    tracker ka = {iv, 0, 0, 0}, kb = {iv, 0, 0, 0};
    CHECK(fl_sim_run(a, &o, track, &ka, d) == 0);
    CHECK(fl_sim_run(b, &o, track, &kb, d) == 0);
    /* v = 1 t up to 0.5, then -0.5 (t - 0.5): v(1) = 0.25 */
    CHECK_NEAR(ka.v_last, 0.25, 1e-8);
    CHECK_NEAR(ka.t_last, 1, 0);
    CHECK(ka.rows_at_half == 2);
    CHECK_NEAR(kb.v_last, ka.v_last, 0);
    CHECK_NEAR(fl_sim_value(a, iv), 0.25, 1e-8);
    fl_stats st = fl_sim_stats(a);
    CHECK(st.time_events == 1);
    CHECK(st.outputs == 11 + 1);
    tracker kc = {iv, 0, 0, 0};
    o.stop_time = 0.4;
    CHECK(fl_sim_run(a, &o, track, &kc, d) == 0);
    CHECK_NEAR(kc.v_last, 0.4, 1e-8);
    CHECK(kc.rows_at_half == 0);
    /* bad options are refused */
    o.stop_time = -1;
    CHECK(fl_sim_run(a, &o, NULL, NULL, d) != 0);
    CHECK(last_error_contains(d, "the stop time (-1) must be greater than the start time (0)"));
    o.stop_time = 1;
    o.tolerance = 2;
    CHECK(fl_sim_run(a, &o, NULL, NULL, d) != 0);
    CHECK(last_error_contains(d, "the tolerance must be between 1e-14 and 0.01 (got 2)"));
    fl_sim_free(a);
    fl_sim_free(b);
    fl_system_free(sys);
    fl_diag_free(d);
}

/* A callback can stop a run; the run then fails with the callback's code. */
static int stop_early(void *user, double t, const double *vals, int nvals)
{
    (void)user;
    (void)vals;
    (void)nvals;
    return t >= 0.3 ? 42 : 0;
}

static void test_callback_stop(void)
{
    const char *text = "model S\n"
                       "  Modelica.Mechanics.Translational.Components.Mass m(m=1, s(fixed=true), v(start=1, fixed=true));\n"
                       "end S;\n";
    fl_diag *d = fl_diag_new();
    fl_model *m;
    fl_system *sys;
    fl_sim *sim = sim_of_text(text, "s.mo", d, &m, &sys);
    if (sim) {
        fl_sim_opts o = fl_sim_default_opts(sys);
        o.interval = 0.1;
        CHECK(fl_sim_run(sim, &o, stop_early, NULL, d) == 42);
        CHECK_NEAR(fl_sim_value(sim, fl_system_var_index(sys, "m.s")), 0.3, 1e-9);
    }
    fl_sim_free(sim);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

/* Every variable's name looks up its own index, the variables of the
 * model's own equations (no dot, instance "") and of its components alike
 * (the names of the model's own equations were not found). */
static void test_names_look_themselves_up(void)
{
    const char *text = "model N\n"
                       "  model C\n"
                       "    Real z = 3;\n"
                       "  end C;\n"
                       "  C c;\n"
                       "  Real x(start = 1, fixed = true);\n"
                       "  Integer n = 2 - 1;\n"
                       "  Real w[70] = ones(70);\n" /* more than a scan looks through: a map */
                       "  Modelica.Mechanics.Translational.Components.Mass m(m = 1);\n"
                       "equation\n"
                       "  der(x) = -x;\n"
                       "end N;\n";
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(text, "n.mo", NULL, d);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    CHECK(sys != NULL);
    int n = sys ? fl_system_nvars(sys) : 0, found = 0;
    for (int i = 0; i < n; i++) {
        const char *name = fl_system_var_name(sys, i);
        CHECK(name && fl_system_var_index(sys, name) == i);
        found += strcmp(name, "x") == 0 || strcmp(name, "n") == 0 || strcmp(name, "c.z") == 0 ||
                 strcmp(name, "w[70]") == 0;
    }
    CHECK(found == 4);
    CHECK(fl_system_var_index(sys, "w[71]") == -1);
    CHECK(fl_system_var_index(sys, "y") == -1);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

/* The messages of d as one text, a line each. */
static char *diag_text(fl_diag *d)
{
    size_t len = 1;
    for (int i = 0; i < fl_diag_count(d); i++) len += strlen(fl_diag_text(d, i)) + 1;
    char *t = calloc(1, len);
    for (int i = 0; t && i < fl_diag_count(d); i++) {
        strcat(t, fl_diag_text(d, i));
        strcat(t, "\n");
    }
    return t;
}

/* fl_compile_and_free frees the model part by part as it compiles: the
 * system it makes runs bit for bit as fl_compile's does (parameters set
 * by modifiers and by the API, start values, a model's own equations that
 * read a mass's position, a hard stop), and a model that fails in the
 * parameter, structure or initialisation stage fails with the same
 * messages (and is freed: the sanitizer build checks for leaks). */
static void test_compile_and_free(void)
{
    const char *ok = "model F\n"
                     "  import T = Modelica.Mechanics.Translational.Components;\n"
                     "  parameter Real k = 40;\n"
                     "  T.Fixed fixed(s0 = 0.1);\n"
                     "  T.Spring spring(c = k, s_rel0 = 0.5);\n"
                     "  T.Mass mass(m = 2, s(start = 0.8, fixed = true), v(fixed = true));\n"
                     "  Flange.Components.HardStop stop(upper_bnd = 0.05, lower_bnd = -0.05,\n"
                     "                                   stiff_up = 1e5, stiff_low = 1e5);\n"
                     "  Real x(start = 0, fixed = true);\n"
                     "equation\n"
                     "  connect(fixed.flange, spring.flange_a);\n"
                     "  connect(spring.flange_b, mass.flange_a);\n"
                     "  connect(fixed.flange, stop.C);\n"
                     "  connect(stop.R, mass.flange_b);\n"
                     "  der(x) = mass.s - x;\n"
                     "end F;\n";
    fl_diag *d = fl_diag_new();
    double end[2][4] = {{0}};
    long steps[2] = {0};
    for (int take = 0; take < 2; take++) {
        fl_model *m = fl_model_load_string(ok, "f.mo", NULL, d);
        CHECK(m != NULL);
        CHECK(m && fl_model_set(m, "mass.m", 1.5, d) == 0);
        fl_system *sys = !m ? NULL : take ? fl_compile_and_free(m, d) : fl_compile(m, d);
        if (!take) fl_model_free(m);
        fl_sim *sim = sys ? fl_sim_new(sys, d) : NULL;
        CHECK(sim != NULL);
        if (sim) {
            fl_sim_opts o = fl_sim_default_opts(sys);
            o.stop_time = 2;
            CHECK(fl_sim_run(sim, &o, NULL, NULL, d) == 0);
            const char *names[4] = {"mass.s", "mass.v", "x", "stop.f"};
            for (int k = 0; k < 4; k++) end[take][k] = fl_sim_value(sim, fl_system_var_index(sys, names[k]));
            steps[take] = fl_sim_stats(sim).steps;
        }
        fl_sim_free(sim);
        fl_system_free(sys);
    }
    CHECK(fl_diag_errors(d) == 0);
    CHECK(memcmp(end[0], end[1], sizeof end[0]) == 0);
    CHECK(steps[0] == steps[1] && steps[0] > 0);
    CHECK(end[0][0] > 0.5 && end[0][0] < 1.2); /* it moved, and stayed near the spring's rest */
    CHECK(fl_compile_and_free(NULL, d) == NULL);
    fl_diag_free(d);

    const char *bad[] = {
        /* parameters: a value out of its range */
        "model B\n"
        "  Modelica.Mechanics.Translational.Components.Mass mass(m = -1);\n"
        "end B;\n",
        /* structure: a mass of zero on a node nothing else gives a mass */
        "model B\n"
        "  import T = Modelica.Mechanics.Translational.Components;\n"
        "  T.Fixed fixed;\n"
        "  T.Spring spring(c = 1);\n"
        "  T.Mass mass(m = 0);\n"
        "equation\n"
        "  connect(fixed.flange, spring.flange_a);\n"
        "  connect(spring.flange_b, mass.flange_a);\n"
        "end B;\n",
        /* initialisation: two fixed positions of one rigid body */
        "model B\n"
        "  import T = Modelica.Mechanics.Translational.Components;\n"
        "  T.Mass a(m = 1, s(start = 0, fixed = true));\n"
        "  T.Mass b(m = 1, s(start = 3, fixed = true));\n"
        "equation\n"
        "  connect(a.flange_b, b.flange_a);\n"
        "end B;\n",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char *text[2];
        for (int take = 0; take < 2; take++) {
            fl_diag *db = fl_diag_new();
            fl_model *m = fl_model_load_string(bad[k], "b.mo", NULL, db);
            CHECK(m != NULL);
            fl_system *sys = !m ? NULL : take ? fl_compile_and_free(m, db) : fl_compile(m, db);
            CHECK(sys == NULL);
            if (!take) fl_model_free(m);
            fl_system_free(sys);
            CHECK(fl_diag_errors(db) > 0);
            text[take] = diag_text(db);
            fl_diag_free(db);
        }
        CHECK(text[0] && text[1] && strcmp(text[0], text[1]) == 0);
        CHECK(text[0] && strstr(text[0], "b.mo:") != NULL); /* located in the model's file */
        free(text[0]);
        free(text[1]);
    }
}

int main(void)
{
    test_names_look_themselves_up();
    test_build_errors();
    test_table_and_reuse();
    test_callback_stop();
    test_compile_and_free();
    return check_done();
}
