/* test_messages.c - the "did you mean" helper (edit distances, the choice
 * and order of suggestions), messages of the C API for misspelt and
 * unsupported names, overridden units and non-finite values, and
 * under-determined initial conditions completed from start values (the
 * warnings, the solution that follows from them, and the strict error). */
#include "check.h"
#include "flange.h"
#include "util/suggest.h"

#define CHECK_TEXT(got, want)                                                              \
    do {                                                                                   \
        const char *cg_ = (got), *cw_ = (want);                                            \
        check_count++;                                                                     \
        if (!cg_ || strcmp(cg_, cw_) != 0) {                                               \
            check_failures++;                                                              \
            fprintf(stderr, "%s:%d: text differs:\n  got  %s\n  want %s\n", __FILE__, __LINE__, \
                    cg_ ? cg_ : "(null)", cw_);                                            \
        }                                                                                  \
    } while (0)

static const char *last_text(const fl_diag *d)
{
    int n = fl_diag_count(d);
    return n ? fl_diag_text(d, n - 1) : NULL;
}

static void test_edit_distance(void)
{
    CHECK(fl_edit_distance("Spring", "Spring", 3) == 0);
    CHECK(fl_edit_distance("Sprng", "Spring", 3) == 1);  /* deletion */
    CHECK(fl_edit_distance("Sprinng", "Spring", 3) == 1); /* insertion */
    CHECK(fl_edit_distance("Sprint", "Spring", 3) == 1); /* substitution */
    CHECK(fl_edit_distance("Sprnig", "Spring", 3) == 1); /* swap of neighbours */
    CHECK(fl_edit_distance("kitten", "sitting", 5) == 3);
    CHECK(fl_edit_distance("", "abc", 5) == 3);
    /* beyond the limit: limit + 1, also when the lengths alone say so */
    CHECK(fl_edit_distance("kitten", "sitting", 2) == 3);
    CHECK(fl_edit_distance("a", "abcdef", 2) == 3);
    CHECK(fl_edit_distance("flange_c", "flange_a", 1) == 1);
}

static void test_suggest(void)
{
    fl_suggest s;
    fl_buf b = {0};
    /* nearest first, ties in the order seen, at most three */
    fl_suggest_init(&s, "flange_c");
    CHECK(s.limit == 2);
    const char *ports[] = {"flange_a", "support", "flange_b", "flange", "flanges_c"};
    for (int i = 0; i < 5; i++) fl_suggest_add(&s, ports[i], ports[i]);
    CHECK(fl_suggest_append(&s, &b) == 3);
    CHECK_TEXT(b.s, "; did you mean 'flange_a', 'flange_b' or 'flanges_c'?");
    fl_buf_free(&b);
    /* a nearer one displaces the last; the same name twice counts once */
    fl_suggest_init(&s, "flange_c");
    fl_suggest_add(&s, "flange", "flange");
    fl_suggest_add(&s, "flanges_c", "flanges_c");
    fl_suggest_add(&s, "flange_", "flange_");
    fl_suggest_add(&s, "flange_b", "flange_b");
    fl_suggest_add(&s, "flange_x", "flange_b");
    CHECK(fl_suggest_append(&s, &b) == 3);
    CHECK_TEXT(b.s, "; did you mean 'flanges_c', 'flange_' or 'flange_b'?");
    fl_buf_free(&b);
    /* nothing near enough, and the name itself is no suggestion */
    fl_suggest_init(&s, "mas");
    fl_suggest_add(&s, "stateSelect", "stateSelect");
    fl_suggest_add(&s, "mas", "mas");
    CHECK(fl_suggest_append(&s, &b) == 0);
    CHECK(b.n == 0);
    fl_suggest_add(&s, "m", "m");
    CHECK(fl_suggest_append(&s, &b) == 1);
    CHECK_TEXT(b.s, "; did you mean 'm'?");
    fl_buf_free(&b);
}

static void test_api_names(void)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_new("E");
    CHECK(fl_model_add(m, "Sprng", "s", d) != 0);
    CHECK_TEXT(last_text(d), "error: unknown component type 'Sprng'; did you mean "
                             "'Modelica.Mechanics.Translational.Components.Spring' or "
                             "'Modelica.Mechanics.Rotational.Components.Spring'?");
    CHECK(fl_model_add(m, "Modelica.Blocks.Continuous.PID", "pid", d) != 0);
    CHECK_TEXT(last_text(d), "error: component type 'Modelica.Blocks.Continuous.PID' is written in Modelica: use it "
                             "in a model text (fl_model_load_string, fl_model_load_file); fl_model_add takes "
                             "flange's C classes");
    CHECK(fl_model_add(m, "Modelica.Blocks.Nonlinear.FixedDelay", "fd", d) != 0);
    CHECK_TEXT(last_text(d), "error: component type 'Modelica.Blocks.Nonlinear.FixedDelay' is not supported by "
                             "flange (see `flange components`)");
    CHECK(fl_model_add(m, "Mass", "m1", d) == 0);
    CHECK(fl_model_add(m, "Spring", "spring", d) == 0);
    CHECK(fl_model_set(m, "m1.mas", 1, d) != 0);
    CHECK_TEXT(last_text(d), "error: m1 (Modelica.Mechanics.Translational.Components.Mass) has no parameter 'mas'; "
                             "did you mean 'm'?");
    CHECK(fl_model_set(m, "m1.s.strat", 1, d) != 0);
    CHECK_TEXT(last_text(d), "error: unknown attribute 'strat' of m1.s; did you mean 'start'?");
    CHECK(fl_model_set(m, "m1.sx.start", 1, d) != 0);
    CHECK_TEXT(last_text(d), "error: m1 (Modelica.Mechanics.Translational.Components.Mass) has no variable 'sx'; "
                             "did you mean 's'?");
    CHECK(fl_model_set(m, "m1.m.start", 2, d) != 0);
    CHECK_TEXT(last_text(d), "error: m1.m is a parameter: it has no attribute 'start' (give it a value: m = ...)");
    CHECK(fl_model_connect(m, "m1.flange_c", "spring.flange_a", d) != 0);
    CHECK_TEXT(last_text(d), "error: m1 has no connector 'flange_c'; did you mean 'flange_a' or 'flange_b'? "
                             "(Modelica.Mechanics.Translational.Components.Mass has: flange_a, flange_b)");
    /* units: the declared one only */
    CHECK(fl_model_set_expr(m, "spring.s_rel0.unit", "\"mm\"", d) != 0);
    CHECK_TEXT(last_text(d), "error: spring.s_rel0 is declared in \"m\": it cannot be given the unit \"mm\" (flange "
                             "does not convert units; give the value in m)");
    CHECK(fl_model_set_expr(m, "spring.s_rel.unit", "\"m\"", d) == 0);
    CHECK(fl_model_set_expr(m, "m1.m.displayUnit", "\"g\"", d) == 0);
    CHECK(fl_model_set_expr(m, "m1.m", "Modelica.Blocks.Types.Smoothness.LinearSegmnts", d) != 0);
    CHECK_TEXT(last_text(d), "<value>:1:1: error: 'LinearSegmnts' is not a literal of Modelica.Blocks.Types.Smoothness; "
                             "did you mean 'LinearSegments'? (its literals are LinearSegments, ContinuousDerivative, "
                             "ConstantSegments, MonotoneContinuousDerivative1, MonotoneContinuousDerivative2, "
                             "ModifiedContinuousDerivative)");
    CHECK(fl_diag_errors(d) == 10);
    fl_model_free(m);
    fl_diag_free(d);
}

/* A fixed spring and a mass: the base of the models below. */
static fl_model *oscillator(fl_diag *d)
{
    fl_model *m = fl_model_new("Osc");
    int rc = fl_model_add(m, "Fixed", "fixed", d);
    rc |= fl_model_add(m, "Spring", "spring", d);
    rc |= fl_model_add(m, "Mass", "mass", d);
    rc |= fl_model_set(m, "spring.c", 100, d);
    rc |= fl_model_set(m, "mass.m", 1, d);
    rc |= fl_model_connect(m, "fixed.flange", "spring.flange_a", d);
    rc |= fl_model_connect(m, "spring.flange_b", "mass.flange_a", d);
    CHECK(rc == 0);
    return m;
}

/* Values that are not finite numbers are refused when set through the API
 * (the parser never produces them: its arithmetic refuses them first). */
static void test_api_not_finite(void)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = oscillator(d);
    fl_model_set(m, "mass.s.fixed", 1, d);
    fl_model_set(m, "mass.v.fixed", 1, d);
    CHECK(fl_model_set(m, "mass.s.start", NAN, d) != 0);
    CHECK_TEXT(last_text(d), "error: mass.s.start is not a finite number");
    CHECK(fl_model_set(m, "mass.v.nominal", -INFINITY, d) != 0);
    CHECK_TEXT(last_text(d), "error: mass.v.nominal is not a finite number");
    fl_diag_clear(d);
    CHECK(fl_model_set(m, "mass.m", NAN, d) == 0);
    CHECK(fl_model_set(m, "spring.c", INFINITY, d) == 0);
    fl_system *sys = fl_compile(m, d);
    CHECK(sys == NULL);
    CHECK(fl_diag_errors(d) == 2);
    CHECK_TEXT(fl_diag_text(d, 0), "error: spring.c is not a finite number");
    CHECK_TEXT(fl_diag_text(d, 1), "error: mass.m is not a finite number");
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

/* Nothing fixed: the start values mass.s = 0.05 (given) and mass.v = 0
 * (the class default) are used, with a warning each; the motion is then
 * s = 0.05 cos(10 t). strict: the error of before. */
static void test_underdetermined(void)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = oscillator(d);
    CHECK(fl_model_set(m, "mass.s.start", 0.05, d) == 0);
    fl_system *sys = fl_compile(m, d);
    CHECK(sys != NULL);
    CHECK(fl_diag_errors(d) == 0);
    CHECK(fl_diag_count(d) == 2);
    CHECK_TEXT(fl_diag_text(d, 0), "warning: initial conditions are under-determined: using the start value of mass.s (= 0.05)");
    CHECK_TEXT(fl_diag_text(d, 1), "warning: initial conditions are under-determined: using the start value of mass.v (= 0)");
    fl_sim *sim = sys ? fl_sim_new(sys, d) : NULL;
    if (sim) {
        fl_sim_opts o = fl_sim_default_opts(sys);
        o.stop_time = 1;
        o.tolerance = 1e-9;
        CHECK(fl_sim_run(sim, &o, NULL, NULL, d) == 0);
        CHECK_NEAR(fl_sim_value(sim, fl_system_var_index(sys, "mass.s")), 0.05 * cos(10.0), 1e-7);
        CHECK_NEAR(fl_sim_value(sim, fl_system_var_index(sys, "mass.v")), -0.5 * sin(10.0), 1e-6);
    }
    fl_sim_free(sim);
    fl_system_free(sys);

    fl_diag_clear(d);
    fl_model_set_strict_init(m, 1);
    sys = fl_compile(m, d);
    CHECK(sys == NULL);
    CHECK(fl_diag_count(d) == 1);
    CHECK_TEXT(fl_diag_text(d, 0), "error: initial conditions are under-determined: 2 more needed; nothing fixes "
                                   "mass.s, mass.v; set fixed = true (and a start value) on some of: spring.s_rel, "
                                   "mass.s, mass.v");
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

int main(void)
{
    test_edit_distance();
    test_suggest();
    test_api_names();
    test_api_not_finite();
    test_underdetermined();
    return check_done();
}
