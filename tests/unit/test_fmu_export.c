/* test_fmu_export.c - pieces of the FMU exporter: Modelica units in SI base
 * units (units.c), the flange.cfg round trip and its errors (cfg.c), and the
 * variable table of a small model (vars.c): kinds, types, names, the
 * wrapper's prefix, the token. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simrun.h"
#include "compile/system.h"
#include "fmi/export.h"
#include "fmi/fmu.h"

/* kg m s A K mol cd rad */
static void check_unit(const char *u, int kg, int m, int s, int rad, double factor)
{
    fl_unit_si si;
    int rc = fl_unit_parse(u, &si);
    CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "  unit '%s' did not parse\n", u);
        return;
    }
    int ok = si.exp[FL_U_KG] == kg && si.exp[FL_U_M] == m && si.exp[FL_U_S] == s && si.exp[FL_U_RAD] == rad &&
             si.exp[FL_U_A] == 0 && si.exp[FL_U_K] == 0 && si.exp[FL_U_MOL] == 0 && si.exp[FL_U_CD] == 0 &&
             fabs(si.factor - factor) <= 1e-12 * fabs(factor);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  unit '%s': kg %d m %d s %d rad %d factor %g\n", u, si.exp[FL_U_KG], si.exp[FL_U_M],
                si.exp[FL_U_S], si.exp[FL_U_RAD], si.factor);
}

static void test_units(void)
{
    check_unit("N", 1, 1, -2, 0, 1);
    check_unit("N.m", 1, 2, -2, 0, 1);
    check_unit("m/s2", 0, 1, -2, 0, 1);
    check_unit("N.s/m", 1, 0, -1, 0, 1);
    check_unit("1/s", 0, 0, -1, 0, 1);
    check_unit("rad", 0, 0, 0, 1, 1);
    check_unit("W", 1, 2, -3, 0, 1);
    check_unit("J", 1, 2, -2, 0, 1);
    check_unit("Pa", 1, -1, -2, 0, 1);
    check_unit("kg.m2", 1, 2, 0, 0, 1);
    check_unit("N.m/rad", 1, 2, -2, -1, 1);
    check_unit("rad/s2", 0, 0, -2, 1, 1);
    check_unit("N.m.s2/rad2", 1, 2, 0, -2, 1);
    check_unit("mm", 0, 1, 0, 0, 1e-3);
    check_unit("kN/mm", 1, 0, -2, 0, 1e6);
    check_unit("rev/min", 0, 0, -1, 1, 2 * 3.14159265358979323846 / 60);
    check_unit("m.s-1", 0, 1, -1, 0, 1);
    check_unit("", 0, 0, 0, 0, 1);
    check_unit("1", 0, 0, 0, 0, 1);
    check_unit("(N.m)/(rad/s)", 1, 2, -1, -1, 1);
    fl_unit_si si;
    CHECK(fl_unit_parse("degC", &si) == 0 && si.exp[FL_U_K] == 1 && si.offset == 273.15);
    CHECK(fl_unit_parse("Nm", &si) != 0);      /* not Modelica: N.m */
    CHECK(fl_unit_parse("m/s/s", &si) != 0);   /* one '/' only */
    CHECK(fl_unit_parse("furlong", &si) != 0);
    CHECK(fl_unit_parse("m2x", &si) != 0);
}

static void test_cfg(void)
{
    char *pn[] = {"mass.m", "fmu_model.k", "fmu_model.on", "fmu_model.init"};
    char *pv[] = {"2.5", "0.10000000000000001", "false", "Modelica.Blocks.Types.Init.NoInit"};
    char *tun[] = {"spring.c"};
    fl_fmu_io in[] = {{"f", "in_f.k", "N", "force | on \\ the mass\nsecond line", -1.0 / 3}};
    fl_fmu_io out[] = {{"s", "out_s.y", "m", "", 0}};
    fl_fmu_cfg c = {"0.1.0", 3, "FlangeFMU_M", "fmu_model", pn, pv, 4, tun, 1, in, out, 1, 1,
                    "{01234567-89ab-cdef-0123-456789abcdef}"};
    char *text = fl_fmu_cfg_format(&c);
    fl_diag *d = fl_diag_new();
    fl_fmu_cfg r;
    CHECK(fl_fmu_cfg_parse(text, &r, d) == 0);
    CHECK(strcmp(r.flange_version, "0.1.0") == 0 && r.fmi == 3 && strcmp(r.model, "FlangeFMU_M") == 0 &&
          strcmp(r.wrapped, "fmu_model") == 0);
    CHECK(r.nparams == 4 && strcmp(r.param_names[1], "fmu_model.k") == 0 && strtod(r.param_values[1], NULL) == 0.1 &&
          strcmp(r.param_values[0], "2.5") == 0 && strcmp(r.param_values[2], "false") == 0 &&
          strcmp(r.param_values[3], "Modelica.Blocks.Types.Init.NoInit") == 0);
    CHECK(r.ntunable == 1 && strcmp(r.tunable[0], "spring.c") == 0);
    CHECK(r.ninputs == 1 && strcmp(r.inputs[0].desc, in[0].desc) == 0 && r.inputs[0].start == -1.0 / 3 &&
          strcmp(r.inputs[0].carrier, "in_f.k") == 0 && strcmp(r.inputs[0].unit, "N") == 0);
    CHECK(r.noutputs == 1 && strcmp(r.outputs[0].name, "s") == 0 && strcmp(r.outputs[0].desc, "") == 0);
    CHECK(strcmp(r.token, c.token) == 0);
    char *again = fl_fmu_cfg_format(&r);
    CHECK(strcmp(text, again) == 0);
    fl_fmu_cfg_free(&r);
    free(again);
    free(text);

    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"fmi=2\nmodel=M\ncolour=red\n", "flange.cfg:3: unknown key 'colour'"},
        {"fmi=4\nmodel=M\n", "flange.cfg:1: fmi must be 2 or 3, not '4'"},
        {"model=M\n", "flange.cfg: fmi= missing"},
        {"fmi=2\n", "flange.cfg: model= missing"},
        {"fmi=2\nmodel=M\nparam=k=abc\n",
         "flange.cfg:3: param k: 'abc' is not a number, true, false or an enumeration literal"},
        {"fmi=2\nmodel=M\nparam=k=Modelica.Blocks.Types.Init.Nothing\n",
         "flange.cfg:3: param k: 'Modelica.Blocks.Types.Init.Nothing' is not a number, true, false or an "
         "enumeration literal"},
        {"fmi=2\nmodel=M\ninput=f|in_f.k|N\n", "flange.cfg:3: input needs 5 fields separated by '|', got 3"},
        {"fmi=2\nmodel=M\nnothing\n", "flange.cfg:3: expected key=value"},
        {"fmi=2\nmodel=M\ntoken=a\\q\n", "flange.cfg:3: bad escape in the value"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fl_diag_clear(d);
        CHECK(fl_fmu_cfg_parse(bad[i].text, &r, d) == -1);
        CHECK(fl_diag_count(d) == 1 && strstr(fl_diag_text(d, 0), bad[i].msg));
        if (fl_diag_count(d) != 1 || !strstr(fl_diag_text(d, 0), bad[i].msg))
            fprintf(stderr, "  got: %s\n", fl_diag_count(d) ? fl_diag_text(d, 0) : "(nothing)");
    }
    /* CRLF lines, blank lines, defaults */
    CHECK(fl_fmu_cfg_parse("fmi=2\r\n\r\nmodel=M\r\n", &r, d) == 0 && strcmp(r.model, "M") == 0 &&
          strcmp(r.wrapped, "") == 0 && !r.token);
    fl_fmu_cfg_free(&r);
    fl_diag_free(d);
}

static const char model[] =
    "model P\n"
    "  parameter Real dk(unit = \"N.s/m\") = 3 \"the damping\";\n"
    "  parameter Boolean on = true \"a switch\";\n"
    "  parameter Modelica.Blocks.Types.Init ini = Modelica.Blocks.Types.Init.NoInit;\n"
    "  Modelica.Mechanics.Translational.Components.Mass mass(m = 2, s(start = 0, fixed = true),\n"
    "    v(start = 1, fixed = true));\n"
    "  Modelica.Mechanics.Translational.Components.Damper damper(d = dk);\n"
    "  Modelica.Mechanics.Translational.Components.Fixed fixed;\n"
    "  Integer cnt(start = 0);\n"
    "  Boolean fast;\n"
    "equation\n"
    "  connect(mass.flange_b, damper.flange_a);\n"
    "  connect(damper.flange_b, fixed.flange);\n"
    "  fast = mass.v > 0.5;\n"
    "  when fast then cnt = pre(cnt) + 1; end when;\n"
    "end P;\n";

static int find(const fl_fmu_vars *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->v[i].name, name) == 0) return i;
    return -1;
}

static void test_vars(void)
{
    fl_diag *d = fl_diag_new();
    fl_model *m;
    fl_system *sys;
    fl_sim *sim = sim_of_text(model, "P.mo", d, &m, &sys);
    if (!sim) return;
    char *tun[] = {"damper.d"};
    fl_fmu_cfg c = {"0.1.0", 2, "P", "", NULL, NULL, 0, tun, 1, NULL, NULL, 0, 0, NULL};
    fl_fmu_vars t;
    CHECK(fl_fmu_vars_build(sys, sim, &c, &t, d) == 0);
    int i;
    CHECK((i = find(&t, "damper.d")) >= 0 && t.v[i].kind == FL_FMU_PARAM && t.v[i].tunable && t.v[i].start == 3 &&
          strcmp(t.v[i].unit, "N.s/m") == 0 && strcmp(t.v[i].pname, "damper.d") == 0);
    CHECK((i = find(&t, "mass.m")) >= 0 && t.v[i].kind == FL_FMU_PARAM && !t.v[i].tunable);
    CHECK((i = find(&t, "damper.useHeatPort")) >= 0 && t.v[i].type == FL_FMU_BOOLEAN && t.v[i].start == 0);
    /* enumerations: Integers, the literal's index (StateSelect.default is the third) */
    CHECK((i = find(&t, "mass.stateSelect")) >= 0 && t.v[i].type == FL_FMU_INTEGER && t.v[i].start == 3 &&
          t.v[i].enum_type && strcmp(t.v[i].enum_type, "StateSelect") == 0);
    /* the model's own parameters: fixed, their value the compiled one */
    CHECK((i = find(&t, "dk")) >= 0 && t.v[i].kind == FL_FMU_PARAM && t.v[i].type == FL_FMU_REAL && !t.v[i].tunable &&
          t.v[i].index == -1 && t.v[i].start == 3 && strcmp(t.v[i].unit, "N.s/m") == 0 &&
          strcmp(t.v[i].desc, "the damping") == 0 && strcmp(t.v[i].pname, "dk") == 0);
    CHECK((i = find(&t, "on")) >= 0 && t.v[i].type == FL_FMU_BOOLEAN && t.v[i].start == 1 && t.v[i].index == -1);
    CHECK((i = find(&t, "ini")) >= 0 && t.v[i].type == FL_FMU_INTEGER && t.v[i].start == 1 && t.v[i].enum_type &&
          strcmp(t.v[i].enum_type, "Modelica.Blocks.Types.Init") == 0);
    CHECK(find(&t, "dk") < find(&t, "mass.s"));
    CHECK((i = find(&t, "cnt")) >= 0 && t.v[i].type == FL_FMU_INTEGER && t.v[i].kind == FL_FMU_VAR);
    CHECK((i = find(&t, "fast")) >= 0 && t.v[i].type == FL_FMU_BOOLEAN);
    CHECK((i = find(&t, "mass.v")) >= 0 && t.v[i].type == FL_FMU_REAL && strcmp(t.v[i].unit, "m/s") == 0);
    CHECK(find(&t, "energy.kinetic") < 0);
    CHECK(t.nstates == 2 && strcmp(t.v[t.first_state].name, "_x.mass.s") == 0 &&
          strcmp(t.v[t.first_state + 1].name, "_x.mass.v") == 0);
    CHECK(strcmp(t.v[t.first_deriv].name, "der(_x.mass.s)") == 0 && t.v[t.first_deriv].state == t.first_state &&
          strcmp(t.v[t.first_deriv + 1].unit, "m/s2") == 0);
    CHECK(t.nindicators == 1 && strcmp(t.v[t.first_indicator].name, "_z[1]") == 0 &&
          t.first_indicator + 1 == t.n);
    /* value-reference order: parameters before variables before states */
    CHECK(find(&t, "mass.m") < find(&t, "mass.s") && find(&t, "cnt") < t.first_state);
    char tok1[40], tok2[40];
    fl_fmu_token(model, &c, &t, tok1);
    fl_fmu_token(model, &c, &t, tok2);
    CHECK(strcmp(tok1, tok2) == 0 && strlen(tok1) == 38 && tok1[0] == '{' && tok1[9] == '-');
    fl_fmu_token("model Q end Q;", &c, &t, tok2);
    CHECK(strcmp(tok1, tok2) != 0);
    /* both standards' XML, with the state's derivative */
    fl_md_info in = {2, "P", "P", "a <test> & \"quotes\"", tok1, NULL, fl_model_experiment(m)};
    char *x2 = fl_fmu_model_description(&in, &t);
    CHECK_STR_CONTAINS(x2, "description=\"a &lt;test&gt; &amp; &quot;quotes&quot;\"");
    CHECK_STR_CONTAINS(x2, "numberOfEventIndicators=\"1\"");
    CHECK_STR_CONTAINS(x2, "<Unit name=\"N.s/m\">\n      <BaseUnit kg=\"1\" s=\"-1\"/>");
    CHECK(!strstr(x2, "_z[1]"));
    in.fmi = 3;
    char *x3 = fl_fmu_model_description(&in, &t);
    CHECK_STR_CONTAINS(x3, "instantiationToken=\"{");
    CHECK_STR_CONTAINS(x3, "name=\"_z[1]\"");
    CHECK_STR_CONTAINS(x3, "<Boolean name=\"fast\"");
    free(x2);
    free(x3);
    fl_fmu_vars_free(&t);

    /* a wrapper: the prefix goes, the wrapper's instances are hidden */
    fl_fmu_cfg w = {"0.1.0", 2, "P", "mass", NULL, NULL, 0, NULL, 0, NULL, NULL, 0, 0, NULL};
    CHECK(fl_fmu_vars_build(sys, sim, &w, &t, d) == 0);
    CHECK(find(&t, "m") >= 0 && find(&t, "s") >= 0 && find(&t, "damper.d") < 0 && find(&t, "cnt") < 0);
    CHECK(strcmp(t.v[t.first_state].name, "_x.s") == 0);
    i = find(&t, "m");
    CHECK(i >= 0 && strcmp(t.v[i].pname, "mass.m") == 0);
    fl_fmu_vars_free(&t);

    /* inputs and outputs name a parameter and a variable */
    fl_fmu_io io_in = {"u", "damper.d", "N.s/m", "", 3};
    fl_fmu_io io_out = {"y", "mass.s", "", "position", 0};
    fl_fmu_cfg io = {"0.1.0", 2, "P", "", NULL, NULL, 0, NULL, 0, &io_in, &io_out, 1, 1, NULL};
    CHECK(fl_fmu_vars_build(sys, sim, &io, &t, d) == 0);
    CHECK(t.v[0].kind == FL_FMU_INPUT && strcmp(t.v[0].name, "u") == 0 && strcmp(t.v[0].pname, "damper.d") == 0);
    CHECK(t.v[1].kind == FL_FMU_OUTPUT && strcmp(t.v[1].unit, "m") == 0 && t.v[1].index == fl_system_var_index(sys, "mass.s"));
    CHECK(find(&t, "mass.s") < 0); /* the output stands for it */
    fl_fmu_vars_free(&t);
    io_out.carrier = "mass.nothing";
    fl_diag_clear(d);
    CHECK(fl_fmu_vars_build(sys, sim, &io, &t, d) == -1);
    CHECK(fl_diag_count(d) == 1 && strstr(fl_diag_text(d, 0), "output y: the model has no variable mass.nothing"));
    fl_sim_free(sim);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

int main(void)
{
    test_units();
    test_cfg();
    test_vars();
    return check_done();
}
