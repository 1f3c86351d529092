/* test_parser.c - the Modelica subset: syntax, annotations, name lookup,
 * modifiers, parameters, packages, composite models, overrides. */
#include "check.h"
#include "model/eval.h"
#include "model/model.h"
#include "parse/ast.h"

static const fl_minst *inst(const fl_model *m, const char *name)
{
    int k = fl_names_get(&m->index, name, strlen(name));
    return k >= 0 ? &m->insts.v[k] : NULL;
}

static double par(const fl_model *m, const char *iname, const char *pname)
{
    const fl_minst *in = inst(m, iname);
    if (!in) return NAN;
    int k = fl_class_param(in->cls, pname);
    fl_value buf;
    const fl_value *v = k >= 0 ? fl_minst_par(in, k, &buf, NULL) : NULL;
    if (!v || v->kind == V_NONE) return NAN;
    return v->num;
}

static const char *first_error(const fl_diag *d)
{
    for (int i = 0; i < fl_diag_count(d); i++)
        if (fl_diag_severity(d, i) == FL_SEV_ERROR) return fl_diag_text(d, i);
    return "";
}

static fl_model *load(const char *text, const char *model, fl_diag *d)
{
    fl_load_opts o = {.model_name = model};
    return fl_model_load_string(text, "t.mo", &o, d);
}

/* An MSL-style example: within, relative names, annotations with HTML,
 * strings containing quotes and parentheses, figures referring to
 * variables, a Line annotation on connect. */
static void test_msl_style(void)
{
    const char *text =
        "within Modelica.Mechanics.Translational.Examples;\n"
        "model Demo \"A demo (with parentheses) and \\\"quotes\\\"\"\n"
        "  extends Modelica.Icons.Example;\n"
        "  /* block comment with model Fake end Fake; inside */\n"
        "  parameter SI.Length len = 1 \"SI is imported by the MSL packages\";\n"
        "  Translational.Components.Mass mass(L=len, s(fixed=true, start=0.5), v(fixed=true), m=2)\n"
        "    annotation (Placement(transformation(extent={{-10,-10},{10,10}}, rotation=90)));\n"
        "  Components.Spring spring(c=1e3, s_rel0=0.5) \"a spring\";  // relative to the within package\n"
        "  Modelica.Mechanics.Translational.Components.Fixed fixed(s0=-1) annotation(Dialog(group=\"x\"));\n"
        "equation\n"
        "  connect(mass.flange_a, spring.flange_b) annotation (Line(points={{-10,0},{-20,0}}, color={0,127,0}));\n"
        "  connect(spring.flange_a, fixed.flange);\n"
        "  annotation (experiment(StopTime=2.5, Interval=0.01, Tolerance=1e-7), Documentation(info=\"<html>\n"
        "<p>Plot <code>mass.s</code>; \"quoted\" text, a ) and a ( and end Demo;</p>\n"
        "</html>\", revisions=\"\"), figures={Figure(title=\"t\", plots={Plot(curves={Curve(y=mass.s, legend=\"s\")})})},\n"
        "    __Dymola_Commands(file=\"x.mos\" \"Simulate\"));\n"
        "end Demo;\n";
    fl_diag *d = fl_diag_new();
    fl_model *m = load(text, NULL, d);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "%s\n", first_error(d));
        fl_diag_free(d);
        return;
    }
    CHECK(strcmp(fl_model_name(m), "Demo") == 0);
    CHECK(m->insts.n == 3);
    CHECK(strcmp(inst(m, "mass")->cls->path, "Modelica.Mechanics.Translational.Components.Mass") == 0);
    CHECK(strcmp(inst(m, "spring")->cls->path, "Modelica.Mechanics.Translational.Components.Spring") == 0);
    CHECK_NEAR(par(m, "mass", "m"), 2, 0);
    CHECK_NEAR(par(m, "mass", "L"), 1, 0);
    CHECK_NEAR(par(m, "spring", "c"), 1000, 0);
    CHECK_NEAR(par(m, "fixed", "s0"), -1, 0);
    const fl_minst *ms = inst(m, "mass");
    int ks = fl_class_var(ms->cls, "s");
    const fl_attr *as = fl_minst_attr(ms, ks);
    CHECK(as->has_fixed && as->fixed && as->start == 0.5);
    CHECK(m->conns.n == 2);
    fl_experiment e = fl_model_experiment(m);
    CHECK_NEAR(e.stop_time, 2.5, 0);
    CHECK_NEAR(e.interval, 0.01, 0);
    CHECK_NEAR(e.tolerance, 1e-7, 0);
    fl_model_free(m);
    fl_diag_free(d);
}

/* Type names: imports (qualified, renaming, unqualified), short names of
 * flange's classes, enclosing packages of the file. */
static void test_lookup(void)
{
    const char *text =
        "package P\n"
        "  import Modelica.Mechanics.Translational.Components.Spring;\n"
        "  import TC = Modelica.Mechanics.Translational.Components;\n"
        "  import Modelica.Mechanics.Translational.Sources.*;\n"
        "  import SI = Modelica.Units.SI;\n"
        "  model A\n"
        "    parameter SI.Mass mA = 3;\n"
        "    parameter Real k = 2*Modelica.Constants.pi;\n"
        "    parameter Integer n = 3;\n"
        "    parameter Boolean on = n > 2 and not false;\n"
        "    TC.Mass mass(m=mA, s(fixed=true), v(fixed=true));\n"
        "    Spring spring(c=if on then k else -1);\n"
        "    ConstantForce force(f_constant=n/2);\n"
        "    Mass mass2(m=1, L=sqrt(4) + abs(-1)) if on;\n"
        "    Fixed fixed;\n"
        "  equation\n"
        "    connect(fixed.flange, spring.flange_a);\n"
        "    connect(spring.flange_b, mass.flange_a);\n"
        "    connect(force.flange, mass.flange_b);\n"
        "  end A;\n"
        "  model B\n"
        "    A a1(mA=5);\n"
        "  end B;\n"
        "end P;\n";
    fl_diag *d = fl_diag_new();
    fl_model *m = load(text, NULL, d);
    CHECK(m == NULL); /* two models: A and P.B */
    CHECK_STR_CONTAINS(first_error(d), "several models (P.A, P.B): choose one with --model NAME");
    fl_diag_clear(d);
    m = load(text, "A", d);
    CHECK(m != NULL);
    if (m) {
        CHECK_NEAR(par(m, "mass", "m"), 3, 0);
        CHECK_NEAR(par(m, "spring", "c"), 2 * 3.14159265358979323846, 1e-15);
        CHECK_NEAR(par(m, "force", "f_constant"), 1.5, 0);
        CHECK(inst(m, "mass2") != NULL);
        CHECK_NEAR(par(m, "mass2", "L"), 3, 0);
        CHECK(strcmp(inst(m, "fixed")->cls->path, "Modelica.Mechanics.Translational.Components.Fixed") == 0);
        fl_model_free(m);
    }
    /* a composite model: parameters of the inner instance follow the modifier */
    m = load(text, "P.B", d);
    CHECK(m != NULL);
    if (m) {
        CHECK(inst(m, "a1.mass") != NULL);
        CHECK_NEAR(par(m, "a1.mass", "m"), 5, 0);
        CHECK(m->conns.n == 3);
        fl_model_free(m);
    }
    /* --param overrides: a model parameter and a component parameter */
    const char *ov[] = {"mA=7", "spring.c = 4*2", "k=1"};
    fl_load_opts o = {.model_name = "A", .params = ov, .nparams = 3};
    m = fl_model_load_string(text, "t.mo", &o, d);
    CHECK(m != NULL);
    if (m) {
        CHECK_NEAR(par(m, "mass", "m"), 7, 0);
        CHECK_NEAR(par(m, "spring", "c"), 8, 0);
        fl_model_free(m);
    }
    fl_diag_free(d);
}

/* Conditional components are removed together with their connections;
 * composites with their own flange connectors and extends. */
static void test_composite(void)
{
    const char *text =
        "model Cell \"mass on a spring\"\n"
        "  parameter Real m = 1;\n"
        "  parameter Boolean withDamper = false;\n"
        "  Modelica.Mechanics.Translational.Interfaces.Flange_a flange_a;\n"
        "  Modelica.Mechanics.Translational.Interfaces.Flange_b flange_b;\n"
        "  Modelica.Mechanics.Translational.Components.Spring spring(c=100);\n"
        "  Modelica.Mechanics.Translational.Components.Mass mass(m=m);\n"
        "  Modelica.Mechanics.Translational.Components.Damper damper(d=1) if withDamper;\n"
        "equation\n"
        "  connect(flange_a, spring.flange_a);\n"
        "  connect(spring.flange_b, mass.flange_a);\n"
        "  connect(mass.flange_b, flange_b);\n"
        "  connect(damper.flange_a, spring.flange_a);\n"
        "  connect(damper.flange_b, spring.flange_b);\n"
        "end Cell;\n"
        "model Base\n"
        "  Modelica.Mechanics.Translational.Components.Fixed fixed;\n"
        "  annotation(experiment(StopTime=3));\n"
        "end Base;\n"
        "model Chain\n"
        "  extends Base;\n"
        "  Cell c1(m=2, mass(s(fixed=true), v(fixed=true)));\n"
        "  Cell c2(withDamper=true, mass(s(start=1, fixed=true), v(fixed=true)));\n"
        "equation\n"
        "  connect(fixed.flange, c1.flange_a);\n"
        "  connect(c1.flange_b, c2.flange_a);\n"
        "end Chain;\n";
    fl_diag *d = fl_diag_new();
    fl_model *m = load(text, "Chain", d);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "%s\n", first_error(d));
        fl_diag_free(d);
        return;
    }
    CHECK(inst(m, "c1.damper") == NULL);
    CHECK(inst(m, "c2.damper") != NULL);
    CHECK_NEAR(par(m, "c1.mass", "m"), 2, 0);
    CHECK_NEAR(par(m, "c2.mass", "m"), 1, 0);
    CHECK(fl_model_experiment(m).stop_time == 3);
    /* the whole thing compiles: c1.mass and c2.mass are free bodies */
    fl_system *sys = fl_compile(m, d);
    CHECK(sys != NULL);
    if (!sys) fprintf(stderr, "%s\n", first_error(d));
    CHECK(fl_system_var_index(sys, "c2.damper.f") >= 0);
    CHECK(fl_system_var_index(sys, "c1.spring.s_rel") >= 0);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

/* Errors are located: file:line:column. */
static void expect_error(const char *text, const char *model, const char *fragment)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = load(text, model, d);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    CHECK(sys == NULL);
    CHECK_STR_CONTAINS(first_error(d), fragment);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

static void test_errors(void)
{
    expect_error("model M\n  Real x = ;\nend M;\n", NULL, "t.mo:2:12: error: syntax error: expected an expression, found ';'");
    expect_error("model M\n  /* never closed\nend M;\n", NULL, "t.mo:2:3: error: unterminated comment");
    expect_error("model M\n  parameter Real a = b;\n  parameter Real b = a;\nend M;\n", NULL, "depends on itself");
    expect_error("model M\n  parameter Real a = 1/0;\nend M;\n", NULL, "t.mo:2:23: error: division by zero");
    expect_error("model M\n  parameter Real a = foo(2);\nend M;\n", NULL, "t.mo:2:22: error: unknown function 'foo'");
    expect_error("model M\n  parameter Real a = q;\nend M;\n", NULL, "t.mo:2:22: error: unknown name 'q'");
    expect_error("model M\n  Modelica.Mechanics.Translational.Components.Mass m(m=true);\nend M;\n", NULL,
                 "t.mo:2:54: error: m.m must be a Real number, not Boolean");
    expect_error("model M\n  Modelica.Mechanics.Translational.Components.Mass m(s=1);\nend M;\n", NULL,
                 "m.s is a variable; set its start value with s(start = ...)");
    expect_error("model M\n  Modelica.Mechanics.Translational.Components.Mass m(s(strat=1));\nend M;\n", NULL,
                 "unknown attribute 'strat' of m.s");
    expect_error("model M\n  Spring s1;\nend M;\nmodel N\n  M m1(s2(c=1));\nend N;\n", "N",
                 "t.mo:5:8: error: 'M' has no element 's2'");
    expect_error("model M\n  Modelica.Mechanics.Translational.Components.Mass m;\nequation\n  connect(m.flange_a, q.flange);\nend M;\n",
                 NULL, "t.mo:4:23: error: unknown component 'q' in connect()");
    expect_error("model M\n  extends Modelica.Mechanics.Translational.Components.Mass;\nend M;\n", NULL,
                 "t.mo:2:3: error: extending 'Modelica.Mechanics.Translational.Components.Mass' is not supported");
    expect_error("model M\nend M;\nmodel N\nend N;\n", "Q", "no model 'Q' in the file; models in the file: M, N");
    expect_error("package P\n  model M\n  end M;\nend Q;\n", NULL, "t.mo:4:5: error: 'end Q' does not match");
    expect_error("model M\n  Modelica.Mechanics.Translational.Components.Mass m[3, 2, 2];\nend M;\n", NULL,
                 "t.mo:2:3: error: arrays of components have one or two dimensions ('m')");
}

/* Expressions, arrays and functions used in parameter values. */
static void test_expressions(void)
{
    struct {
        const char *text;
        double value;
    } cases[] = {
        {"1 + 2*3^2", 19},
        {"-2^2", -4},
        {"(1 + 2)*3", 9},
        {"if 1 > 2 then 5 elseif 2 > 1 then 6 else 7", 6},
        {"max(3, 4) + min({5, 1, 2})", 5},
        {"size([1, 2; 3, 4; 5, 6], 1)", 3},
        {"[1, 2; 3, 4][2, 1]", NAN}, /* subscripting a literal is not Modelica */
        {"sum({1, 2, 3})", 6},
        {"Modelica.Constants.g_n", 9.80665},
        {"mod(7, 3) + div(7, 2)", 4},
        {"1e-3 + .5", 0.501},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fl_diag *d = fl_diag_new();
        fl_expr *e = fl_parse_expr(cases[i].text, "expr", d);
        if (isnan(cases[i].value)) {
            CHECK(e == NULL);
        } else {
            CHECK(e != NULL);
            fl_value v;
            int rc = e ? fl_eval(e, NULL, &v, d) : -1;
            CHECK(rc == 0);
            if (rc == 0) {
                CHECK_NEAR(v.num, cases[i].value, 1e-12);
                fl_value_free(&v);
            } else {
                fprintf(stderr, "%s: %s\n", cases[i].text, first_error(d));
            }
        }
        fl_expr_free(e);
        fl_diag_free(d);
    }
    /* matrices and the Stribeck table function */
    fl_diag *d = fl_diag_new();
    fl_expr *e = fl_parse_expr(
        "Modelica.Mechanics.Translational.Examples.Utilities.GenerateStribeckFrictionTable("
        "F_prop=1, F_Coulomb=5, F_Stribeck=10, fexp=2, v_max=12, nTable=50)",
        "expr", d);
    fl_value v;
    CHECK(e && fl_eval(e, NULL, &v, d) == 0);
    if (e && v.kind == V_ARRAY) {
        CHECK(v.ndims == 2 && v.dim[0] == 50 && v.dim[1] == 2);
        CHECK_NEAR(v.data[1], 15, 1e-12);
        CHECK_NEAR(v.data[2], 12.0 / 49, 1e-15);
        CHECK_NEAR(v.data[99], 5 + 12 + 10 * exp(-24), 1e-12);
        fl_value_free(&v);
    }
    fl_expr_free(e);
    fl_diag_free(d);
}


/* The text of the first error of parsing a lone expression ("" if none),
 * and its value when it parses and evaluates. */
static const char *expr_error(const char *text, fl_value *v, fl_diag *d)
{
    fl_expr *e = fl_parse_expr(text, "expr", d);
    memset(v, 0, sizeof *v);
    if (e && fl_eval(e, NULL, v, d)) memset(v, 0, sizeof *v);
    fl_expr_free(e);
    return first_error(d);
}

static char *repeat(const char *head, const char *unit, int n, const char *tail)
{
    size_t lh = strlen(head), lu = strlen(unit), lt = strlen(tail);
    char *s = malloc(lh + lu * (size_t)n + lt + 1), *q = s;
    memcpy(q, head, lh);
    q += lh;
    for (int i = 0; i < n; i++, q += lu) memcpy(q, unit, lu);
    memcpy(q, tail, lt + 1);
    return s;
}

/* Numeric literals of any length are converted exactly as strtod rounds
 * them; out-of-range ones are located errors; Integer literals beyond 32
 * bits are Reals. */
static void test_numbers(void)
{
    fl_value v;
    fl_diag *d = fl_diag_new();
    /* 200 digits: 1e199 exactly (the lexer used to cut at 127 characters) */
    char *t = repeat("1", "0", 199, "");
    CHECK(strcmp(expr_error(t, &v, d), "") == 0);
    CHECK(v.kind == V_REAL && v.num == 1e199);
    free(t);
    fl_diag_free(d);
    /* 400 significant digits after the point: the correctly rounded double */
    d = fl_diag_new();
    t = repeat("1.", "1", 399, "");
    CHECK(strcmp(expr_error(t, &v, d), "") == 0);
    CHECK(v.kind == V_REAL && v.num == strtod(t, NULL) && v.num == 1.1111111111111112);
    free(t);
    fl_diag_free(d);
    /* 0.000...001 with 300 zeros */
    d = fl_diag_new();
    t = repeat("0.", "0", 300, "1");
    CHECK(strcmp(expr_error(t, &v, d), "") == 0);
    CHECK(v.num == 1e-301);
    free(t);
    fl_diag_free(d);
    /* a 400-digit integer is beyond the largest double */
    d = fl_diag_new();
    t = repeat("", "1", 400, "");
    CHECK(strcmp(expr_error(t, &v, d),
                 "expr:1:1: error: number out of range: 1111111111111111111111111111111111111111... (400 "
                 "characters) is larger than the largest Real (about 1.8e308)") == 0);
    free(t);
    fl_diag_free(d);
    d = fl_diag_new();
    CHECK(strcmp(expr_error("2*1e999", &v, d),
                 "expr:1:3: error: number out of range: 1e999 is larger than the largest Real (about 1.8e308)") == 0);
    fl_diag_free(d);
    d = fl_diag_new();
    CHECK(strcmp(expr_error("1e-999", &v, d),
                 "expr:1:1: error: number out of range: 1e-999 is too small: it would round to zero") == 0);
    fl_diag_free(d);
    /* zero written with a tiny exponent is zero; a subnormal stays subnormal */
    d = fl_diag_new();
    CHECK(strcmp(expr_error("0.000e-999", &v, d), "") == 0 && v.num == 0);
    CHECK(strcmp(expr_error("4e-320", &v, d), "") == 0 && v.num == strtod("4e-320", NULL) &&
          fpclassify(v.num) == FP_SUBNORMAL);
    /* a dot without fraction digits before the exponent (the MSL writes 1.e-14) */
    CHECK(strcmp(expr_error("1.e-14", &v, d), "") == 0 && v.kind == V_REAL && v.num == 1e-14);
    CHECK(strcmp(expr_error("2.E+3", &v, d), "") == 0 && v.kind == V_REAL && v.num == 2000);
    CHECK(strcmp(expr_error("3.", &v, d), "") == 0 && v.kind == V_REAL && v.num == 3);
    /* Integer literals: 32 bits; beyond that a Real */
    CHECK(strcmp(expr_error("2147483647", &v, d), "") == 0 && v.kind == V_INT && v.num == 2147483647.0);
    CHECK(strcmp(expr_error("2147483648", &v, d), "") == 0 && v.kind == V_REAL && v.num == 2147483648.0);
    CHECK(strcmp(expr_error("12345678901234567891", &v, d), "") == 0 && v.kind == V_REAL &&
          v.num == 12345678901234567891.0);
    fl_diag_free(d);
    /* an Integer parameter outside the range is an error, not a rounded value */
    expect_error("model M\n  parameter Integer n = 12345678901234567891;\nend M;\n", NULL,
                 "t.mo:2:25: error: value of Integer parameter 'n' is outside the Integer range (-2147483648 to "
                 "2147483647)");
    expect_error("model M\n  parameter Integer n = 2147483647 + 1;\nend M;\n", NULL,
                 "t.mo:2:36: error: value of Integer parameter 'n' is outside the Integer range (-2147483648 to "
                 "2147483647)");
    expect_error("model M\n  Modelica.Blocks.Sources.Pulse p(period = 1, nperiod = 3000000000);\nend M;\n", NULL,
                 "t.mo:2:47: error: p.nperiod is outside the Integer range (-2147483648 to 2147483647)");
    /* array sizes are checked before they become C ints */
    d = fl_diag_new();
    CHECK(strcmp(expr_error("size({1, 2}, 1e300)", &v, d), "expr:1:1: error: size(): dimension out of range") == 0);
    fl_diag_free(d);
    d = fl_diag_new();
    CHECK(strcmp(expr_error("sum(zeros(100000, 100000))", &v, d),
                 "expr:1:5: error: zeros(): more than 10000000 elements") == 0);
    fl_diag_free(d);
    d = fl_diag_new();
    CHECK(strcmp(expr_error("sum(1:1e300)", &v, d), "expr:1:6: error: range longer than 10000000 elements") == 0);
    fl_diag_free(d);
}

/* Nesting limits: at the limit the expression is read and evaluated, one
 * level more is a located error; operator chains and parameter chains of
 * any length are loops. */
static void test_limits(void)
{
    fl_value v;
    fl_diag *d = fl_diag_new();
    char *t = repeat("", "(", 199, "1");
    char *u = repeat(t, ")", 199, "");
    CHECK(strcmp(expr_error(u, &v, d), "") == 0 && v.num == 1);
    free(t);
    free(u);
    fl_diag_free(d);
    d = fl_diag_new();
    t = repeat("", "(", 200, "1");
    u = repeat(t, ")", 200, "");
    CHECK(strcmp(expr_error(u, &v, d), "expr:1:201: error: expression nested more than 200 levels deep") == 0);
    free(t);
    free(u);
    fl_diag_free(d);
    /* nested calls: a tree 199 calls deep is evaluated, printed and copied */
    d = fl_diag_new();
    t = repeat("", "abs(", 199, "-2");
    u = repeat(t, ")", 199, "");
    CHECK(strcmp(expr_error(u, &v, d), "") == 0 && v.num == 2);
    fl_expr *e = fl_parse_expr(u, "expr", d);
    fl_expr *c = fl_expr_clone(e);
    fl_buf b = {0};
    fl_expr_print(&b, c);
    CHECK(b.n == strlen(u));
    fl_buf_free(&b);
    fl_expr_free(c);
    fl_expr_free(e);
    free(t);
    free(u);
    fl_diag_free(d);
    d = fl_diag_new();
    t = repeat("", "abs(", 20000, "1");
    u = repeat(t, ")", 20000, "");
    CHECK(strcmp(expr_error(u, &v, d), "expr:1:801: error: expression nested more than 200 levels deep") == 0);
    free(t);
    free(u);
    fl_diag_free(d);
    /* a 25000-term sum: exactly 25000, printed and copied by loops */
    d = fl_diag_new();
    t = repeat("1", "+1", 24999, "");
    CHECK(strcmp(expr_error(t, &v, d), "") == 0 && v.kind == V_INT && v.num == 25000);
    e = fl_parse_expr(t, "expr", d);
    c = fl_expr_clone(e);
    b = (fl_buf){0};
    fl_expr_print(&b, c);
    CHECK(b.n == 25000 + 5 * (size_t)24999); /* "((1 + 1) + 1)": 24999 "(", " + ", "1)" */
    fl_buf_free(&b);
    fl_expr_free(c);
    fl_expr_free(e);
    free(t);
    fl_diag_free(d);
    /* elseif chains within the limit */
    d = fl_diag_new();
    t = repeat("if false then 0 ", "elseif false then 0 ", 190, "else 7");
    CHECK(strcmp(expr_error(t, &v, d), "") == 0 && v.num == 7);
    free(t);
    fl_diag_free(d);
    /* modifications nested in modifications */
    t = repeat("model M\n  Modelica.Mechanics.Translational.Components.Fixed f(", "a(", 200, "x = 1");
    u = repeat(t, ")", 200, ");\nend M;\n");
    expect_error(u, NULL, "t.mo:2:454: error: modification nested more than 200 levels deep");
    free(t);
    free(u);
    /* classes nested in classes: 99 packages around the model is the limit */
    fl_buf pk = {0};
    for (int i = 0; i < 99; i++) fl_buf_printf(&pk, "package P%d ", i);
    fl_buf_add(&pk, "model M Modelica.Mechanics.Translational.Components.Fixed f(s0 = 3); end M; ");
    for (int i = 98; i >= 0; i--) fl_buf_printf(&pk, "end P%d; ", i);
    d = fl_diag_new();
    fl_model *m = load(pk.s, NULL, d);
    CHECK(m != NULL && par(m, "f", "s0") == 3);
    fl_model_free(m);
    fl_diag_free(d);
    fl_buf_free(&pk);
    for (int i = 0; i < 30000; i++) fl_buf_printf(&pk, "package P%d ", i);
    fl_buf_add(&pk, "model M end M; ");
    for (int i = 29999; i >= 0; i--) fl_buf_printf(&pk, "end P%d; ", i);
    expect_error(pk.s, NULL, "t.mo:1:1191: error: class nested more than 100 levels deep");
    fl_buf_free(&pk);
    /* a chain of 10000 parameters, each defined by the next */
    for (int i = 0; i < 10000; i++) fl_buf_printf(&pk, "  parameter Real p%d = p%d + 1;\n", i, i + 1);
    d = fl_diag_new();
    t = repeat("model M\n  Modelica.Mechanics.Translational.Components.Fixed f(s0 = p0);\n", "", 0, pk.s);
    u = repeat(t, "", 0, "  parameter Real p10000 = 0.5;\nend M;\n");
    m = load(u, NULL, d);
    CHECK(m != NULL && par(m, "f", "s0") == 10000.5);
    fl_model_free(m);
    fl_diag_free(d);
    free(t);
    free(u);
    fl_buf_free(&pk);
    /* names in an untaken branch are no cycle; a true cycle is named */
    d = fl_diag_new();
    m = load("model M\n  parameter Boolean b = true;\n  parameter Real x = if b then 2 else y;\n"
             "  parameter Real y = x;\n  Modelica.Mechanics.Translational.Components.Fixed f(s0 = y);\nend M;\n",
             NULL, d);
    CHECK(m != NULL && par(m, "f", "s0") == 2);
    fl_model_free(m);
    fl_diag_free(d);
    expect_error("model M\n  parameter Real a = 1 + b;\n  parameter Real b = c;\n  parameter Real c = a;\nend M;\n",
                 NULL, "t.mo:2:18: error: parameter 'a' depends on itself");
    /* short type definitions in a circle */
    expect_error("model M\n  type A = B;\n  type B = A;\n  parameter A x = 1;\nend M;\n", NULL,
                 "t.mo:4:13: error: type 'A' of parameter 'x' is defined in terms of itself");
    /* extends: a cycle, a chain too long, and a lattice (each class once) */
    expect_error("model A\n  extends B;\nend A;\nmodel B\n  extends A;\nend B;\n", "A",
                 "t.mo:1:7: error: class 'A' extends itself (through its base classes)");
    fl_buf_add(&pk, "model A0\nend A0;\n");
    for (int i = 1; i <= 21; i++) fl_buf_printf(&pk, "model A%d\n  extends A%d;\nend A%d;\n", i, i - 1, i);
    expect_error(pk.s, "A21", "t.mo:1:7: error: extends clauses nested more than 20 levels deep (in 'A0')");
    fl_buf_free(&pk);
    fl_buf_add(&pk, "package P\nmodel A0\n  parameter Real q = 4;\nend A0;\n");
    for (int i = 1; i <= 25; i++)
        fl_buf_printf(&pk, "model A%d\n  extends A%d;\n  extends A%d;\n  extends A%d;\nend A%d;\n", i, i - 1, i - 1, i - 1, i);
    fl_buf_add(&pk, "model M\n  extends A19;\n  Modelica.Mechanics.Translational.Components.Fixed f(s0 = q);\nend M;\nend P;\n");
    d = fl_diag_new();
    m = load(pk.s, "M", d);
    CHECK(m != NULL && par(m, "f", "s0") == 4);
    fl_model_free(m);
    fl_diag_free(d);
    fl_buf_free(&pk);
}

/* A UTF-8 byte-order mark is skipped, columns count from after it. */
static void test_bom(void)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = load("\xEF\xBB\xBFmodel M\n  Modelica.Mechanics.Translational.Components.Fixed f(s0 = 2);\nend M;\n",
                       NULL, d);
    CHECK(m != NULL && par(m, "f", "s0") == 2);
    fl_model_free(m);
    fl_diag_free(d);
    expect_error("\xEF\xBB\xBFmodel M parameter Real x = ; end M;\n", NULL,
                 "t.mo:1:28: error: syntax error: expected an expression, found ';'");
}

int main(void)
{
    test_msl_style();
    test_lookup();
    test_composite();
    test_errors();
    test_expressions();
    test_numbers();
    test_limits();
    test_bom();
    return check_done();
}
