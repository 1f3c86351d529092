/* test_libs.c - libraries through the C API (fl_load_opts.libs,
 * fl_load_opts.modelicapath, fl_model_load_class): a library written into
 * a scratch directory, the oscillator of its classes against its closed
 * form, the order of precedence (model text, libs in order, MODELICAPATH),
 * and locations in library files that outlive the model. */
#define _XOPEN_SOURCE 700 /* mkdtemp, setenv */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "flange.h"

static char root[] = "/tmp/flange_test_libs_XXXXXX";

static void put(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static void dir(const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    CHECK(mkdir(path, 0755) == 0);
}

/* Lib in a/ and b/, whose oscillators start at 0.5 and 0.25 */
static void write_libs(void)
{
    CHECK(mkdtemp(root) != NULL);
    const char *where[] = {"a", "b"};
    const char *s0[] = {"0.5", "0.25"};
    for (int i = 0; i < 2; i++) {
        char rel[64], text[1024];
        dir(where[i]);
        snprintf(rel, sizeof rel, "%s/Lib", where[i]);
        dir(rel);
        snprintf(rel, sizeof rel, "%s/Lib/package.mo", where[i]);
        put(rel, "within;\npackage Lib\n  import TC = Modelica.Mechanics.Translational.Components;\nend Lib;\n");
        snprintf(rel, sizeof rel, "%s/Lib/Osc.mo", where[i]);
        snprintf(text, sizeof text,
                 "within Lib;\n"
                 "model Osc\n"
                 "  parameter Real m = 1;\n"
                 "  parameter Real c = 4;\n"
                 "  TC.Fixed fixed;\n"
                 "  TC.Spring spring(c = c);\n"
                 "  TC.Mass mass(m = m, s(start = %s, fixed = true), v(start = 0, fixed = true));\n"
                 "equation\n"
                 "  connect(fixed.flange, spring.flange_a);\n"
                 "  connect(spring.flange_b, mass.flange_a);\n"
                 "end Osc;\n",
                 s0[i]);
        put(rel, text);
    }
}

/* mass.s at t = 1 of the model (NAN if it does not load or run); the
 * closed form is s0 cos(sqrt(c/m) t). */
static double s_at_1(fl_model *m, fl_diag *d)
{
    double s = NAN;
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    fl_model_free(m);
    fl_sim *sim = sys ? fl_sim_new(sys, d) : NULL;
    if (sim) {
        fl_sim_opts o = fl_sim_default_opts(sys);
        o.stop_time = 1;
        o.interval = 0.5;
        o.tolerance = 1e-9;
        int iv = fl_system_var_index(sys, "mass.s");
        if (iv < 0) iv = fl_system_var_index(sys, "osc.mass.s");
        if (iv >= 0 && fl_sim_run(sim, &o, NULL, NULL, d) == 0) s = fl_sim_value(sim, iv);
    }
    fl_sim_free(sim);
    fl_system_free(sys);
    return s;
}

static const char *first_error(const fl_diag *d)
{
    for (int i = 0; i < fl_diag_count(d); i++)
        if (fl_diag_severity(d, i) == FL_SEV_ERROR) return fl_diag_text(d, i);
    return "";
}

static const char use[] = "model Use\n  Lib.Osc osc(c = 9);\nend Use;\n";

static void test_precedence(void)
{
    char a[600], b[600], alib[600];
    snprintf(a, sizeof a, "%s/a", root);
    snprintf(b, sizeof b, "%s/b", root);
    snprintf(alib, sizeof alib, "%s/a/Lib", root);
    fl_diag *d = fl_diag_new();
    fl_load_opts o;
    memset(&o, 0, sizeof o);
    o.modelicapath = "";
    /* a package directory as a library: 0.5 cos(3) */
    const char *libs_a[] = {alib};
    o.libs = libs_a;
    o.nlibs = 1;
    CHECK_NEAR(s_at_1(fl_model_load_string(use, "use.mo", &o, d), d), 0.5 * cos(3.0), 1e-6);
    /* directories of packages: the first that has Lib wins */
    const char *libs_ba[] = {b, a};
    o.libs = libs_ba;
    o.nlibs = 2;
    CHECK_NEAR(s_at_1(fl_model_load_string(use, "use.mo", &o, d), d), 0.25 * cos(3.0), 1e-6);
    /* --lib before MODELICAPATH */
    o.libs = libs_a;
    o.nlibs = 1;
    o.modelicapath = b;
    CHECK_NEAR(s_at_1(fl_model_load_string(use, "use.mo", &o, d), d), 0.5 * cos(3.0), 1e-6);
    /* MODELICAPATH alone, with an empty and a missing entry on the way */
    char mp[1400];
    snprintf(mp, sizeof mp, ":%s/none:%s", root, b);
    o.libs = NULL;
    o.nlibs = 0;
    o.modelicapath = mp;
    CHECK_NEAR(s_at_1(fl_model_load_string(use, "use.mo", &o, d), d), 0.25 * cos(3.0), 1e-6);
    /* the model text's own package Lib comes before every library */
    const char own[] = "package Lib\n  model Osc\n"
                       "    Modelica.Mechanics.Translational.Components.Mass mass(m = 1, s(start = 2, fixed = true),"
                       " v(start = 0, fixed = true));\n  end Osc;\nend Lib;\n"
                       "model Use\n  Lib.Osc osc;\nend Use;\n";
    o.model_name = "Use";
    CHECK_NEAR(s_at_1(fl_model_load_string(own, "own.mo", &o, d), d), 2, 1e-9);
    CHECK(fl_diag_errors(d) == 0);
    /* NULL reads the environment; "" searches nothing */
    o.model_name = NULL;
    setenv("MODELICAPATH", a, 1);
    o.modelicapath = NULL;
    CHECK_NEAR(s_at_1(fl_model_load_string(use, "use.mo", &o, d), d), 0.5 * cos(3.0), 1e-6);
    o.modelicapath = "";
    CHECK(fl_model_load_string(use, "use.mo", &o, d) == NULL);
    CHECK_STR_CONTAINS(first_error(d), "use.mo:2:3: error: unknown component type 'Lib.Osc'");
    unsetenv("MODELICAPATH");
    fl_diag_free(d);
}

static void test_load_class(void)
{
    char a[600];
    snprintf(a, sizeof a, "%s/a", root);
    fl_diag *d = fl_diag_new();
    fl_load_opts o;
    memset(&o, 0, sizeof o);
    o.modelicapath = a;
    fl_model *m = fl_model_load_class("Lib.Osc", &o, d);
    CHECK(m != NULL);
    CHECK(m && strcmp(fl_model_name(m), "Osc") == 0);
    CHECK_NEAR(s_at_1(m, d), 0.5 * cos(2.0), 1e-6);
    /* a parameter override reaches the library model */
    const char *ov[] = {"c=9"};
    o.params = ov;
    o.nparams = 1;
    CHECK_NEAR(s_at_1(fl_model_load_class("Lib.Osc", &o, d), d), 0.5 * cos(3.0), 1e-6);
    CHECK(fl_diag_errors(d) == 0);
    /* errors: not there, no library at all */
    CHECK(fl_model_load_class("Lib.Nope", &o, d) == NULL);
    char want[1400];
    snprintf(want, sizeof want, "error: class 'Lib.Nope' not found in MODELICAPATH %s", a);
    CHECK_STR_CONTAINS(first_error(d), want);
    fl_diag_clear(d);
    o.modelicapath = "";
    CHECK(fl_model_load_class("Lib.Osc", &o, d) == NULL);
    CHECK_STR_CONTAINS(first_error(d), "error: class 'Lib.Osc' not found in any library: none given (--lib DIR, MODELICAPATH)");
    fl_diag_clear(d);
    /* a missing library is an error of the options */
    const char *missing[] = {"/nonexistent/flange/lib"};
    o.libs = missing;
    o.nlibs = 1;
    CHECK(fl_model_load_class("Lib.Osc", &o, d) == NULL);
    CHECK_STR_CONTAINS(first_error(d), "--lib: error: cannot open /nonexistent/flange/lib: No such file or directory");
    fl_diag_free(d);
}

/* A compile error inside a library class is located in its file, after the
 * syntax trees are gone (the model keeps the file names). */
static void test_locations(void)
{
    char a[600], want[1400];
    snprintf(a, sizeof a, "%s/a", root);
    fl_diag *d = fl_diag_new();
    fl_load_opts o;
    memset(&o, 0, sizeof o);
    o.modelicapath = a;
    const char *ov[] = {"m=-1"};
    o.params = ov;
    o.nparams = 1;
    fl_model *m = fl_model_load_class("Lib.Osc", &o, d);
    CHECK(m != NULL);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    CHECK(sys == NULL);
    snprintf(want, sizeof want, "%s/Lib/Osc.mo:7:16: error: mass.m = -1 is invalid: it must be >= 0", a);
    CHECK_STR_CONTAINS(first_error(d), want);
    fl_model_free(m);
    fl_diag_free(d);
}

static void cleanup(void)
{
    const char *files[] = {"a/Lib/Osc.mo", "a/Lib/package.mo", "a/Lib", "a",
                           "b/Lib/Osc.mo", "b/Lib/package.mo", "b/Lib", "b", ""};
    char path[600];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", root, files[i]);
        if (remove(path) != 0) CHECK(0);
    }
}

int main(void)
{
    write_libs();
    test_precedence();
    test_load_class();
    test_locations();
    cleanup();
    return check_done();
}
