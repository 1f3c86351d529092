/* test_oom.c - running out of memory is an error, not a crash. The
 * test-only injection (guard.h) fails the n-th allocation; for every n over
 * all the allocations of building the component tables and parsing their
 * Modelica text, of load -> compile -> simulate to CSV of a small model
 * with events, of building a model through the API, and of a parameter
 * study on worker threads, each call must either succeed or fail with
 * exactly "error: out of memory", the host's handler must have been told,
 * no temporary file may be left behind, and the objects must stay usable
 * and freeable. Also: a failure that persists (the message itself cannot be
 * allocated) still fails the call, and internal errors are reported. */
#include <dirent.h>
#include <unistd.h>

#include "check.h"
#include "flange.h"
#include "model/bundled.h"
#include "model/classtext.h"
#include "util/guard.h"

static const char model_text[] =
    "model Knock\n"
    "  Modelica.Blocks.Sources.Sine sine(amplitude = 20, f = 2);\n"
    "  Modelica.Mechanics.Translational.Sources.Force force;\n"
    "  Modelica.Mechanics.Translational.Components.Mass body(m = 1, s(start = 0, fixed = true),\n"
    "    v(start = 0, fixed = true));\n"
    "  Flange.Components.HardStop stop(upper_bnd = 0.05, lower_bnd = -0.05);\n"
    "  Modelica.Mechanics.Translational.Components.SpringDamper sd(c = 100, d = 1);\n"
    "  Modelica.Mechanics.Translational.Components.Fixed ground;\n"
    "equation\n"
    "  connect(sine.y, force.f);\n"
    "  connect(force.flange, body.flange_a);\n"
    "  connect(ground.flange, stop.C);\n"
    "  connect(stop.R, body.flange_b);\n"
    "  connect(body.flange_b, sd.flange_a);\n"
    "  connect(sd.flange_b, ground.flange);\n"
    "  annotation(experiment(StopTime = 0.6, Interval = 0.01));\n"
    "end Knock;\n";

/* ---- the host's handler --------------------------------------------------- */

static int hook_calls;
static size_t hook_bytes;

static void on_oom(void *user, size_t bytes)
{
    CHECK(user == &hook_calls);
    hook_calls++;
    hook_bytes = bytes;
}

/* The call failed with exactly the out-of-memory message (its last error). */
static int failed_with_oom(const fl_diag *d)
{
    for (int i = fl_diag_count(d) - 1; i >= 0; i--)
        if (fl_diag_severity(d, i) == FL_SEV_ERROR) return strcmp(fl_diag_text(d, i), "error: out of memory") == 0;
    return 0;
}

static char dir[64];

/* Files in the scratch directory other than the result and its units. */
static int stray_files(void)
{
    DIR *dp = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(dp));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "out.csv") &&
            strcmp(e->d_name, "out.csv.units")) {
            fprintf(stderr, "stray file %s\n", e->d_name);
            n++;
        }
    closedir(dp);
    return n;
}

/* ---- load -> compile -> simulate ------------------------------------------ */

/* 0 on success; which stage failed otherwise. *x gets body.s at the end. */
static int pipeline(fl_diag *d, double *x)
{
    char csv[128];
    snprintf(csv, sizeof csv, "%s/out.csv", dir);
    fl_model *m = fl_model_load_string(model_text, "knock.mo", NULL, d);
    if (!m) return 1;
    fl_system *sys = fl_compile(m, d);
    fl_model_free(m);
    if (!sys) return 2;
    int rc = 0;
    fl_sim *sim = fl_sim_new(sys, d);
    if (!sim) rc = 3;
    fl_sim_opts o = fl_sim_default_opts(sys);
    o.energy = 1;
    if (!rc && fl_sim_run_csv(sim, &o, csv, NULL, 0, d)) rc = 4;
    int i = rc ? -1 : fl_system_var_index(sys, "body.s");
    if (!rc && i < 0) rc = 5;
    const char *name = rc ? NULL : fl_system_var_name(sys, i);
    if (!rc && !name) rc = 6;
    if (!rc) CHECK(strcmp(name, "body.s") == 0);
    if (!rc) *x = fl_sim_value(sim, i);
    fl_sim_free(sim);
    fl_system_free(sys);
    return rc;
}

/* The Modelica text flange carries (src/model/msl) is parsed on first use,
 * under a lock: a failure there frees the partial work, leaves the lock
 * free and the next call parses again. Each try parses up to the failing
 * allocation, so the sweep steps through the first allocations one by one
 * and then every 17th (a full parse is a few hundred allocations). Runs
 * first, in a fresh process. */
static void find_siso(void *arg)
{
    *(const fl_class_ast **)arg = fl_bundled_class("Modelica.Blocks.Interfaces.SISO");
}

static void test_bundled_load(void)
{
    int tries = 0;
    for (long n = 1;; n += n < 40 ? 1 : 17) {
        hook_calls = 0;
        const fl_class_ast *c = NULL;
        fl_guard g;
        fl_test_alloc_fail(n, 0);
        int failed = fl_guard_try(&g, find_siso, &c);
        fl_test_alloc_fail(0, 0);
        if (!failed) {
            CHECK(hook_calls == 0); /* n is past the last allocation */
            CHECK(c != NULL);
            break;
        }
        CHECK(hook_calls == 1 && g.failure == FL_FAIL_OOM);
        tries++;
    }
    printf("bundled texts: %d failed loads before one succeeded\n", tries);
    CHECK(tries >= 40);
}

/* The component tables are built on first use, under a lock: a failure
 * there must leave neither the lock held nor a half-built table, and the
 * next call builds them again. Runs first, in a fresh process. */
static void test_registry(void)
{
    int tries = 0;
    for (long n = 1;; n++) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        hook_calls = 0;
        fl_test_alloc_fail(n, 0);
        fl_components_print(f);
        fl_test_alloc_fail(0, 0);
        fclose(f);
        int failed = len >= 21 && strcmp(text + len - 21, "error: out of memory\n") == 0;
        free(text);
        if (!failed) {
            CHECK(hook_calls == 0); /* n is past the last allocation */
            break;
        }
        CHECK(hook_calls == 1);
        tries++;
    }
    printf("component tables: %d failed builds before one succeeded\n", tries);
    CHECK(tries >= 2); /* the class list and the name map */
}

/* The Modelica text of the tables (defaults, conditions of connectors) is
 * parsed on first use, under a lock of its own, with the same rules; here
 * by evaluating ElastoGap's default f_ref = c*s_ref. Runs second, before
 * anything has compiled. */
static int par_one(void *ctx, int k, fl_value *out)
{
    *out = fl_value_real(2);
    return 0;
}

static void eval_f_ref(void *arg)
{
    const fl_class *c = fl_class_find("Modelica.Mechanics.Translational.Components.ElastoGap");
    fl_value v;
    int rc = fl_class_param_text(c, fl_class_param(c, "f_ref"), 0, par_one, NULL, &v, NULL);
    *(double *)arg = rc == 1 && v.kind == V_REAL ? v.num : NAN;
    fl_value_free(&v);
}

static void test_class_texts(void)
{
    int tries = 0;
    for (long n = 1;; n++) {
        hook_calls = 0;
        double f_ref = NAN;
        fl_guard g;
        fl_test_alloc_fail(n, 0);
        int failed = fl_guard_try(&g, eval_f_ref, &f_ref);
        fl_test_alloc_fail(0, 0);
        if (!failed) {
            CHECK(hook_calls == 0); /* n is past the last allocation */
            CHECK(f_ref == 4);
            break;
        }
        CHECK(hook_calls == 1 && g.failure == FL_FAIL_OOM);
        tries++;
    }
    printf("class texts: %d failed parses before one succeeded\n", tries);
    CHECK(tries > 100); /* every default, start value and condition of every class */
}

static void test_pipeline(void)
{
    fl_diag *d = fl_diag_new();
    double x_ref = NAN;
    CHECK(pipeline(d, &x_ref) == 0); /* what is built once per process is built */
    fl_diag_clear(d);
    long before = fl_test_alloc_count();
    CHECK(pipeline(d, &x_ref) == 0);
    long nalloc = fl_test_alloc_count() - before;
    CHECK(fl_diag_errors(d) == 0);
    CHECK(isfinite(x_ref) && fabs(x_ref) <= 0.06);
    fl_diag_free(d);
    printf("pipeline: %ld allocations\n", nalloc);

    int nfail = 0, nok = 0;
    for (long n = 1; n <= nalloc; n++) {
        d = fl_diag_new();
        hook_calls = 0;
        char csv[128];
        snprintf(csv, sizeof csv, "%s/out.csv", dir);
        unlink(csv);
        fl_test_alloc_fail(n, 0);
        double x = NAN;
        int rc = pipeline(d, &x);
        fl_test_alloc_fail(0, 0);
        CHECK(hook_calls == 1);
        if (rc == 0) {
            /* the failure was absorbed (an optional message lost): the result is the same */
            nok++;
            CHECK(x == x_ref);
        } else if (rc >= 5) {
            /* the name lookups have no fl_diag: the failure is their result */
            nfail++;
        } else {
            nfail++;
            if (!failed_with_oom(d)) {
                fprintf(stderr, "allocation %ld: stage %d failed with:\n", n, rc);
                for (int k = 0; k < fl_diag_count(d); k++) fprintf(stderr, "  %s\n", fl_diag_text(d, k));
                CHECK(0);
            }
            CHECK(access(csv, F_OK) != 0); /* a failed run writes no result */
        }
        CHECK(stray_files() == 0);
        fl_diag_free(d);
    }
    printf("pipeline: %d failed with out of memory, %d absorbed the failure\n", nfail, nok);
    CHECK(nfail > 0);

    /* a failure that persists: even the message cannot be allocated, the
     * call still fails and counts an error (every 7th start: the same paths) */
    for (long n = 1; n <= nalloc; n += 7) {
        d = fl_diag_new();
        fl_test_alloc_fail(n, 1);
        double x = NAN;
        int rc = pipeline(d, &x);
        fl_test_alloc_fail(0, 0);
        CHECK(rc != 0);
        CHECK(rc >= 5 || fl_diag_errors(d) > 0);
        CHECK(stray_files() == 0);
        fl_diag_free(d);
    }
}

/* ---- building through the API: the model stays usable ------------------ */

static int build(fl_model *m, fl_diag *d)
{
    if (fl_model_add(m, "Mass", "mass", d)) return 1;
    if (fl_model_add(m, "Spring", "spring", d)) return 2;
    if (fl_model_add(m, "Fixed", "ground", d)) return 3;
    if (fl_model_set(m, "mass.m", 2, d)) return 4;
    if (fl_model_set(m, "spring.c", 50, d)) return 5;
    if (fl_model_set_expr(m, "mass.s.start", "0.1", d)) return 6;
    if (fl_model_connect(m, "ground.flange", "spring.flange_a", d)) return 8;
    if (fl_model_connect(m, "spring.flange_b", "mass.flange_a", d)) return 9;
    return 0;
}

static void test_build(void)
{
    fl_diag *d = fl_diag_new();
    long before = fl_test_alloc_count();
    fl_model *m = fl_model_new("Built");
    build(m, d);
    fl_diag_clear(d);
    fl_model_free(m);
    long nalloc = fl_test_alloc_count() - before;
    fl_diag_free(d);
    for (long n = 1; n <= nalloc; n++) {
        d = fl_diag_new();
        hook_calls = 0;
        fl_test_alloc_fail(n, 0);
        m = fl_model_new("Built");
        if (m) {
            int rc = build(m, d);
            if (rc) CHECK(failed_with_oom(d));
            /* the model is still there to be added to, compiled and freed */
            fl_test_alloc_fail(0, 0);
            fl_model_add(m, "Damper", "extra", d);
            fl_system *sys = fl_compile(m, d);
            fl_system_free(sys);
            fl_model_free(m);
        }
        fl_test_alloc_fail(0, 0);
        CHECK(hook_calls == 1);
        fl_diag_free(d);
    }
    /* the two calls without an fl_diag return NULL */
    fl_test_alloc_fail(1, 0);
    CHECK(fl_diag_new() == NULL);
    fl_test_alloc_fail(1, 0);
    CHECK(fl_model_new("x") == NULL);
    fl_test_alloc_fail(0, 0);
}

/* ---- text output: the failure ends the text ------------------------------ */

static void test_describe(void)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(model_text, "knock.mo", NULL, d);
    fl_system *sys = fl_compile(m, d);
    CHECK(sys != NULL);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fl_test_alloc_fail(1, 1);
    fl_system_describe(sys, f);
    fl_test_alloc_fail(0, 0);
    fclose(f);
    CHECK(len > 0 && strcmp(text + len - strlen("error: out of memory\n"), "error: out of memory\n") == 0);
    free(text);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

/* ---- a parameter changed: the simulation's own rows ---------------------- */

/* Changing a parameter gives the simulation its own parameter rows and
 * copies of the elements (the system shares alike instances' rows): when
 * one of those allocations fails, the call fails with the message and the
 * simulation still reads the compiled values, can change the parameter
 * afterwards and runs to the value of the changed model. */
static void test_set_param(void)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(model_text, "knock.mo", NULL, d);
    fl_system *sys = fl_compile(m, d);
    fl_model_free(m);
    CHECK(sys != NULL);
    if (!sys) {
        fl_diag_free(d);
        return;
    }
    fl_sim_opts o = fl_sim_default_opts(sys);
    int ooms = 0, is = fl_system_var_index(sys, "body.s");
    double want = NAN;
    for (long n = 1; n <= 12; n++) {
        fl_sim *sim = fl_sim_new(sys, d);
        CHECK(sim != NULL);
        if (!sim) break;
        fl_diag_clear(d);
        fl_test_alloc_fail(n, 0);
        int rc = fl_sim_set_param(sim, "sd.c", 250, d);
        fl_test_alloc_fail(0, 0);
        if (rc) {
            ooms++;
            CHECK(failed_with_oom(d));
            CHECK(fl_sim_param(sim, "sd.c") == 100);
            CHECK(fl_sim_set_param(sim, "sd.c", 250, d) == 0);
        }
        CHECK(fl_sim_param(sim, "sd.c") == 250);
        CHECK(fl_sim_run(sim, &o, NULL, NULL, d) == 0);
        double x = fl_sim_value(sim, is);
        if (isnan(want)) want = x;
        CHECK(x == want);
        fl_sim_free(sim);
    }
    CHECK(ooms >= 2); /* (the element copies and the rows) */
    fl_system_free(sys);
    fl_diag_free(d);
}

/* ---- worker threads: each has its own recovery point --------------------- */

typedef struct study {
    long fail_at;
    int oom_runs, ok_runs, other;
} study;

static int setup_run(fl_sim *sim, int run, fl_diag *rd, void *user)
{
    study *s = user;
    (void)sim;
    (void)rd;
    /* run 1 fails at the given allocation of its thread (the injection is per thread) */
    fl_test_alloc_fail(run == 1 ? s->fail_at : 0, 0);
    return 0;
}

static void done_run(fl_sim *sim, int run, int status, const fl_diag *rd, void *user)
{
    study *s = user;
    (void)sim;
    fl_test_alloc_fail(0, 0);
    if (status == 0) __atomic_fetch_add(&s->ok_runs, 1, __ATOMIC_SEQ_CST);
    else if (run == 1 && failed_with_oom(rd)) __atomic_fetch_add(&s->oom_runs, 1, __ATOMIC_SEQ_CST);
    else __atomic_fetch_add(&s->other, 1, __ATOMIC_SEQ_CST);
}

static void test_ensemble(void)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(model_text, "knock.mo", NULL, d);
    fl_system *sys = fl_compile(m, d);
    fl_model_free(m);
    fl_sim_opts o = fl_sim_default_opts(sys);
    int ooms = 0;
    for (long n = 1; n <= 40; n++) {
        study s = {n, 0, 0, 0};
        int failed = fl_ensemble_run(sys, &o, 3, 2, setup_run, done_run, &s, d);
        CHECK(s.other == 0);
        CHECK(failed == s.oom_runs);
        CHECK(s.ok_runs + s.oom_runs == 3);
        ooms += s.oom_runs;
    }
    CHECK(ooms > 0);
    fl_system_free(sys);
    fl_diag_free(d);
}

/* ---- an internal error is reported, not fatal ----------------------------- */

typedef struct inner {
    int reached;
} inner;

static void raise_internal(void *arg)
{
    fl_fail_internal("broken table %d", 7);
    ((inner *)arg)->reached = 1;
}

static void test_internal_error(void)
{
    fl_guard g;
    inner in = {0};
    CHECK(fl_guard_try(&g, raise_internal, &in) != 0);
    CHECK(!in.reached);
    CHECK(g.failure == FL_FAIL_INTERNAL);
    fl_diag *d = fl_diag_new();
    fl_guard_report(&g, d);
    CHECK(fl_diag_errors(d) == 1 && strcmp(fl_diag_text(d, 0), "error: internal error: broken table 7") == 0);
    fl_diag_free(d);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/flange_oom_XXXXXX");
    if (!mkdtemp(dir)) return 1;
    fl_set_oom_handler(on_oom, &hook_calls);
    void *user = NULL;
    CHECK(fl_oom_handler(&user) == on_oom && user == &hook_calls);
    test_bundled_load();
    test_registry();
    test_class_texts();
    test_pipeline();
    test_build();
    test_describe();
    test_set_param();
    test_ensemble();
    test_internal_error();
    fl_set_oom_handler(NULL, NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/out.csv.units", dir);
    unlink(path);
    rmdir(dir);
    return check_done();
}
