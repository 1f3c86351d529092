/* test_classtext.c - the class tables' Modelica text (model/classtext.h):
 * evaluated model-side for the compiler, which passes parameter values in
 * through a callback and gets values out. Directly (ElastoGap's f_ref =
 * c*s_ref, start values, the condition of a support connector, a failing
 * callback, a class outside the registry) and through compile (the
 * default's value, the start-value warning with its location). */
#include "simrun.h"
#include "flange.h"
#include "model/classtext.h"

#define MTC "Modelica.Mechanics.Translational.Components."

/* The parameters a text reads: fixed values by index, and which were asked. */
typedef struct pars {
    double v[32];
    int asked[32];
    int fail; /* index whose lookup fails, -1 none */
} pars;

static int par_value(void *ctx, int k, fl_value *out)
{
    pars *p = ctx;
    p->asked[k]++;
    if (k == p->fail) return -1;
    *out = fl_value_real(p->v[k]);
    return 0;
}

static void test_direct(void)
{
    const fl_class *eg = fl_class_find(MTC "ElastoGap");
    CHECK(eg != NULL);
    int c = fl_class_param(eg, "c"), s_ref = fl_class_param(eg, "s_ref"), f_ref = fl_class_param(eg, "f_ref");
    CHECK(c >= 0 && s_ref >= 0 && f_ref >= 0 && eg->nparams <= 32);
    fl_diag *d = fl_diag_new();
    pars p = {{0}, {0}, -1};
    p.v[c] = 200;
    p.v[s_ref] = 0.5;
    fl_value v;

    /* f_ref = c*s_ref: reads exactly c and s_ref, once each */
    CHECK(fl_class_param_text(eg, f_ref, 0, par_value, &p, &v, d) == 1);
    CHECK(v.kind == V_REAL && v.num == 100);
    for (int k = 0; k < eg->nparams; k++) CHECK(p.asked[k] == (k == c || k == s_ref));
    fl_value_free(&v);

    /* c has no binding, only a start value (1) */
    CHECK(fl_class_param_text(eg, c, 0, par_value, &p, &v, d) == 0);
    CHECK(v.kind == V_NONE);
    CHECK(fl_class_param_text(eg, c, 1, par_value, &p, &v, d) == 1);
    CHECK(fl_value_is_number(&v) && v.num == 1);
    fl_value_free(&v);

    /* a parameter it names cannot be had: the evaluation fails, no value */
    p.fail = s_ref;
    CHECK(fl_class_param_text(eg, f_ref, 0, par_value, &p, &v, d) == -1);
    CHECK(v.kind == V_NONE);

    /* the support of Force exists iff useSupport */
    const fl_class *force = fl_class_find("Modelica.Mechanics.Translational.Sources.Force");
    CHECK(force != NULL);
    int use = fl_class_param(force, "useSupport"), support = fl_class_port(force, "support");
    int flange = fl_class_port(force, "flange");
    CHECK(use >= 0 && support >= 0 && flange >= 0 && force->nparams <= 32);
    pars q = {{0}, {0}, -1};
    for (int on = 0; on <= 1; on++) {
        q.v[use] = on;
        CHECK(fl_class_port_cond(force, support, par_value, &q, &v, d) == 1);
        CHECK(fl_value_is_number(&v) && v.num == on);
        fl_value_free(&v);
    }
    CHECK(fl_class_port_cond(force, flange, par_value, &q, &v, d) == 0); /* always there */
    CHECK(v.kind == V_NONE);

    /* a class outside the registry (as classes made from user equations
     * are) has no text here, whatever its table says */
    static const fl_param_def own_params[] = {{"a", FL_P_REAL, "2", NULL, "", "", 0, 0, 0, NULL}};
    static const fl_class own = {.path = "Own", .params = own_params, .nparams = 1};
    CHECK(fl_class_param_text(&own, 0, 0, par_value, &p, &v, d) == 0);
    CHECK(v.kind == V_NONE);

    CHECK(fl_diag_errors(d) == 0);
    fl_diag_free(d);
}

static void test_compiled(void)
{
    const char *text = "model T\n"
                       "  " MTC "Fixed fixed;\n"
                       "  " MTC "ElastoGap eg(c = 200, s_ref = 0.5);\n"
                       "  " MTC "Mass mass(m = 1, s(start = 0.1, fixed = true), v(start = 0, fixed = true));\n"
                       "  " MTC "ElastoGap eg2(c = 300, s_ref = 2);\n"
                       "equation\n"
                       "  connect(fixed.flange, eg.flange_a);\n"
                       "  connect(eg.flange_b, mass.flange_a);\n"
                       "  connect(fixed.flange, eg2.flange_a);\n"
                       "  connect(eg2.flange_b, mass.flange_a);\n"
                       "end T;\n";
    fl_diag *d = fl_diag_new();
    fl_model *m;
    fl_system *sys;
    fl_sim *sim = sim_of_text(text, "t.mo", d, &m, &sys);
    CHECK(fl_diag_errors(d) == 0);
    /* each instance warns at its own name (compiling keeps the defaults
     * that read nothing for the next instance, not the start values) */
    static const char *const warn[] = {"t.mo:3:57: warning: parameter eg.d has no value; using its start value",
                                       "t.mo:5:57: warning: parameter eg2.d has no value; using its start value"};
    int warned = 0;
    for (int i = 0; i < fl_diag_count(d); i++) {
        if (fl_diag_severity(d, i) != FL_SEV_WARNING) continue;
        CHECK(warned < 2 && strcmp(fl_diag_text(d, i), warn[warned]) == 0);
        warned++;
    }
    CHECK(warned == 2);
    if (sim) {
        CHECK(fl_sim_param(sim, "eg.f_ref") == 100); /* c*s_ref */
        CHECK(fl_sim_param(sim, "eg.d") == 1);       /* the start value */
        CHECK(fl_sim_param(sim, "eg.c") == 200);
        CHECK(fl_sim_param(sim, "eg2.f_ref") == 600); /* its own c*s_ref, not eg's */
        CHECK(fl_sim_param(sim, "eg.n") == 1 && fl_sim_param(sim, "eg2.n") == 1); /* a default that reads nothing */
    }
    fl_sim_free(sim);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

int main(void)
{
    test_direct();
    test_compiled();
    return check_done();
}
