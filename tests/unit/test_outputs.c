/* test_outputs.c - the run options and output files through the C API:
 * every bad option is refused with its exact message by every entry point
 * (fl_sim_run, fl_sim_run_csv, fl_sim_csv_size, fl_ensemble_run) before a
 * file is created; the size estimate bounds the file written; the row
 * limit stops a run whose events push it over; where fl_sim_run_csv
 * writes (a new file, a regular file keeping its mode, through a symbolic
 * link, /dev/null in place, a directory refused); the stream variant
 * writes the same bytes; a failed run leaves the previous file and no
 * temporary file; fl_remove_temp_files removes the temporary file of a run
 * in progress. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "flange.h"

static char dir[] = "/tmp/flange_test_outputs_XXXXXX";

/* A mass on a spring pushed by a step at t = 0.5 (a time event). */
static const char model_text[] =
    "model Step\n"
    "  Modelica.Mechanics.Translational.Components.Fixed fixed;\n"
    "  Modelica.Mechanics.Translational.Components.Spring spring(c=100);\n"
    "  Modelica.Mechanics.Translational.Components.Mass mass(m=1, s(start=0, fixed=true), v(start=0, fixed=true));\n"
    "  Modelica.Mechanics.Translational.Sources.Force force;\n"
    "  Modelica.Blocks.Sources.Step step(height=1, startTime=0.5);\n"
    "equation\n"
    "  connect(fixed.flange, spring.flange_a);\n"
    "  connect(spring.flange_b, mass.flange_a);\n"
    "  connect(force.flange, mass.flange_b);\n"
    "  connect(step.y, force.f);\n"
    "  annotation(experiment(StopTime=1, Interval=0.1));\n"
    "end Step;\n";

static const char *path_in(const char *name)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* The only message of d is exactly text (and it is an error). */
static int only_error(const fl_diag *d, const char *text)
{
    int ok = fl_diag_count(d) == 1 && fl_diag_errors(d) == 1 && strcmp(fl_diag_text(d, 0), text) == 0;
    if (!ok) {
        fprintf(stderr, "  want: %s\n", text);
        for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "  got:  %s\n", fl_diag_text(d, i));
    }
    return ok;
}

/* Number of directory entries whose name contains part. */
static int entries_with(const char *part)
{
    DIR *dd = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (dd && (e = readdir(dd)) != NULL) n += strstr(e->d_name, part) != NULL;
    if (dd) closedir(dd);
    return n;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *b = malloc((size_t)n + 1);
    size_t got = fread(b, 1, (size_t)n, f);
    fclose(f);
    b[got] = '\0';
    *len = got;
    return b;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

typedef struct bad_case {
    double start, stop, interval, tol;
    long max;
    const char *msg;
} bad_case;

/* (a) Every entry point refuses bad options with the same message, before
 * any file exists. */
static void test_validation(fl_sim *sim, const fl_system *sys)
{
    static const bad_case cases[] = {
        {0, -1, 0.1, 1e-6, 0, "error: the stop time (-1) must be greater than the start time (0)"},
        {0, 0, 0.1, 1e-6, 0, "error: the stop time (0) must be greater than the start time (0)"},
        {NAN, 1, 0.1, 1e-6, 0, "error: the start and stop times must be finite numbers (got nan and 1)"},
        {0, INFINITY, 0.1, 1e-6, 0, "error: the start and stop times must be finite numbers (got 0 and inf)"},
        {-1e308, 1e308, 1e300, 1e-6, 0, "error: the time span from -1e+308 to 1e+308 is too large for double precision"},
        {0, 1, 0, 1e-6, 0, "error: the output interval must be a positive finite number (got 0)"},
        {0, 1, -0.1, 1e-6, 0, "error: the output interval must be a positive finite number (got -0.1)"},
        {0, 1, NAN, 1e-6, 0, "error: the output interval must be a positive finite number (got nan)"},
        {0, 1, INFINITY, 1e-6, 0, "error: the output interval must be a positive finite number (got inf)"},
        {0, 1, 0.1, 1e-300, 0, "error: the tolerance must be between 1e-14 and 0.01 (got 1e-300)"},
        {0, 1, 0.1, 0, 0, "error: the tolerance must be between 1e-14 and 0.01 (got 0)"},
        {0, 1, 0.1, 0.5, 0, "error: the tolerance must be between 1e-14 and 0.01 (got 0.5)"},
        {0, 1, 0.1, NAN, 0, "error: the tolerance must be between 1e-14 and 0.01 (got nan)"},
        {0, 1, 0.1, 1e-6, -5, "error: the limit on output points must not be negative (got -5)"},
        {0, 1, 0.01, 1e-6, 100,
         "error: the output interval 0.01 from 0 to 1 gives 101 output points, more than the limit of 100 (choose a "
         "larger interval, or raise the limit: fl_sim_opts.max_outputs, flange simulate --max-rows)"},
        {0, 1e9, 1e-3, 1e-6, 0,
         "error: the output interval 0.001 from 0 to 1e+09 gives 1000000000001 output points, more than the limit of "
         "100000000 (choose a larger interval, or raise the limit: fl_sim_opts.max_outputs, flange simulate "
         "--max-rows)"},
    };
    fl_diag *d = fl_diag_new();
    const char *out = path_in("bad.csv");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const bad_case *c = &cases[k];
        fl_sim_opts o = fl_sim_default_opts(sys);
        o.start_time = c->start;
        o.stop_time = c->stop;
        o.interval = c->interval;
        o.tolerance = c->tol;
        o.max_outputs = c->max;
        fl_diag_clear(d);
        CHECK(fl_sim_run(sim, &o, NULL, NULL, d) == -1);
        CHECK(only_error(d, c->msg));
        fl_diag_clear(d);
        CHECK(fl_sim_run_csv(sim, &o, out, NULL, 0, d) == -1);
        CHECK(only_error(d, c->msg));
        CHECK(access(out, F_OK) != 0 && entries_with("bad.csv") == 0);
        fl_diag_clear(d);
        double rows = -1;
        CHECK(fl_sim_csv_size(sim, &o, NULL, 0, &rows, NULL, NULL, d) == -1);
        CHECK(only_error(d, c->msg));
        fl_diag_clear(d);
        CHECK(fl_ensemble_run(sys, &o, 3, 1, NULL, NULL, NULL, d) == -1); /* once, not per run */
        CHECK(only_error(d, c->msg));
    }
    /* the ends of the tolerance range are accepted */
    fl_sim_opts o = fl_sim_default_opts(sys);
    o.tolerance = FL_TOLERANCE_MIN;
    fl_diag_clear(d);
    CHECK(fl_sim_run(sim, &o, NULL, NULL, d) == 0);
    o.tolerance = FL_TOLERANCE_MAX;
    CHECK(fl_sim_run(sim, &o, NULL, NULL, d) == 0);
    CHECK(fl_diag_errors(d) == 0);
    fl_diag_free(d);
}

/* (b) The estimate: 11 grid points of 1 + 2 columns; the file written is
 * within the bound and has the 11 rows plus one at the event (which falls
 * on the grid point 0.5: the values before and after it). */
static void test_size(fl_sim *sim, const fl_system *sys)
{
    fl_diag *d = fl_diag_new();
    fl_sim_opts o = fl_sim_default_opts(sys);
    const char *globs[] = {"mass.s", "mass.v"};
    double rows = 0, bytes = 0;
    int cols = 0;
    CHECK(fl_sim_csv_size(sim, &o, globs, 2, &rows, &cols, &bytes, d) == 0);
    CHECK(rows == 11 && cols == 3);
    CHECK(bytes == 5 + 7 + 7 + 11 * (25 + 2 * 20)); /* "time," "mass.s," "mass.v\n" and the rows */
    const char *out = path_in("size.csv");
    CHECK(fl_sim_run_csv(sim, &o, out, globs, 2, d) == 0);
    size_t len = 0;
    char *text = slurp(out, &len);
    int lines = 0;
    for (size_t i = 0; text && i < len; i++) lines += text[i] == '\n';
    CHECK(lines == 1 + 11 + 1);
    CHECK(text && len <= bytes);
    CHECK(text && strncmp(text, "time,mass.s,mass.v\n0,0,0\n", 25) == 0);
    free(text);
    /* a glob that matches nothing */
    const char *none[] = {"nothing*"};
    fl_diag_clear(d);
    CHECK(fl_sim_csv_size(sim, &o, none, 1, &rows, &cols, &bytes, d) == -1);
    CHECK(only_error(d, "error: no variable matches 'nothing*' (see the header of a full run or `flange check`)"));
    fl_diag_free(d);
}

/* (c) The limit counts the rows the events add: 11 grid points pass the
 * check before the run, the 12th row (the last, t = 1) stops it. */
static void test_row_limit(fl_sim *sim, const fl_system *sys)
{
    fl_diag *d = fl_diag_new();
    const char *out = path_in("limit.csv");
    write_file(out, "previous\n");
    fl_sim_opts o = fl_sim_default_opts(sys);
    o.max_outputs = 11;
    CHECK(fl_sim_run_csv(sim, &o, out, NULL, 0, d) == -1);
    CHECK(only_error(d, "error: the run was stopped at t = 1: it reached the limit of 11 output points (events add "
                        "up to two each; fl_sim_opts.max_outputs, flange simulate --max-rows)"));
    size_t len;
    char *text = slurp(out, &len);
    CHECK(text && strcmp(text, "previous\n") == 0);
    free(text);
    CHECK(entries_with("limit.csv") == 1); /* no temporary file, no units */
    o.max_outputs = 12;
    fl_diag_clear(d);
    CHECK(fl_sim_run_csv(sim, &o, out, NULL, 0, d) == 0);
    CHECK(fl_diag_errors(d) == 0);
    fl_diag_free(d);
}

static int stop_at_half(void *user, double t, const struct fl_stats *st)
{
    (void)user;
    (void)st;
    return t >= 0.5 ? 7 : 0;
}

typedef struct remover {
    int tmp_before, removed, tmp_after;
} remover;

static int remove_temps(void *user, double t, const struct fl_stats *st)
{
    remover *r = user;
    (void)st;
    if (t >= 0.3 && r->removed < 0) {
        r->tmp_before = entries_with("busy.csv.tmp");
        r->removed = fl_remove_temp_files();
        r->tmp_after = entries_with("busy.csv.tmp");
    }
    return 0;
}

/* (d) Where results go, and what a failure leaves. */
static void test_targets(fl_sim *sim, const fl_system *sys)
{
    fl_diag *d = fl_diag_new();
    fl_sim_opts o = fl_sim_default_opts(sys);
    struct stat st;

    /* a regular file keeps its mode; the units file is beside it */
    const char *reg = path_in("reg.csv");
    write_file(reg, "old\n");
    chmod(reg, 0640);
    CHECK(fl_sim_run_csv(sim, &o, reg, NULL, 0, d) == 0);
    CHECK(stat(reg, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 07777) == 0640);
    CHECK(access(path_in("reg.csv.units"), F_OK) == 0);

    /* through a symbolic link: the link stays, the file it names is replaced */
    const char *target = path_in("target.csv"), *link = path_in("link.csv");
    write_file(target, "old\n");
    CHECK(symlink("target.csv", link) == 0);
    CHECK(fl_sim_run_csv(sim, &o, link, NULL, 0, d) == 0);
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    size_t n1, n2;
    char *a = slurp(reg, &n1), *b = slurp(target, &n2);
    CHECK(a && b && n1 == n2 && memcmp(a, b, n1) == 0);
    free(a);
    free(b);
    /* a dangling link: the file it names is created */
    const char *dangling = path_in("dangling.csv");
    CHECK(symlink("made.csv", dangling) == 0);
    CHECK(fl_sim_run_csv(sim, &o, dangling, NULL, 0, d) == 0);
    CHECK(lstat(dangling, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(stat(path_in("made.csv"), &st) == 0 && S_ISREG(st.st_mode) && st.st_size == (off_t)n1);

    /* a character device is written in place and stays one; no units */
    CHECK(fl_sim_run_csv(sim, &o, "/dev/null", NULL, 0, d) == 0);
    CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    CHECK(access("/dev/null.units", F_OK) != 0);
    CHECK(fl_diag_errors(d) == 0);

    /* a directory */
    fl_diag_clear(d);
    CHECK(fl_sim_run_csv(sim, &o, dir, NULL, 0, d) == -1);
    char want[600];
    snprintf(want, sizeof want, "error: cannot write %s: it is a directory", dir);
    CHECK(only_error(d, want));

    /* a run that fails half way leaves the previous file, and no other */
    const char *keep = path_in("keep.csv");
    write_file(keep, "previous\n");
    int before = entries_with("keep.csv");
    o.progress = stop_at_half;
    fl_diag_clear(d);
    CHECK(fl_sim_run_csv(sim, &o, keep, NULL, 0, d) == -1);
    size_t len;
    char *text = slurp(keep, &len);
    CHECK(text && strcmp(text, "previous\n") == 0);
    free(text);
    CHECK(entries_with("keep.csv") == before);

    /* the stream variant writes the very bytes of the file */
    o.progress = NULL;
    FILE *f = tmpfile();
    fl_diag_clear(d);
    CHECK(f && fl_sim_run_csv_stream(sim, &o, f, NULL, 0, d) == 0);
    if (f) {
        rewind(f);
        char *s = malloc(n1 + 2);
        size_t got = fread(s, 1, n1 + 1, f);
        a = slurp(reg, &n1);
        CHECK(got == n1 && a && memcmp(a, s, n1) == 0);
        free(a);
        free(s);
        fclose(f);
    }

    /* a signal handler's view: the temporary file of the run in progress
     * is removed, and the run then fails instead of writing */
    remover r = {0, -1, 0};
    o.progress = remove_temps;
    o.progress_user = &r;
    fl_diag_clear(d);
    const char *busy = path_in("busy.csv");
    CHECK(fl_sim_run_csv(sim, &o, busy, NULL, 0, d) == -1);
    CHECK(r.tmp_before == 1 && r.removed == 1 && r.tmp_after == 0);
    snprintf(want, sizeof want, "error: cannot write %s: No such file or directory", busy);
    CHECK(only_error(d, want));
    CHECK(entries_with("busy.csv") == 0);
    CHECK(fl_remove_temp_files() == 0); /* nothing in progress */
    fl_diag_free(d);
}

static void clean_dir(void)
{
    DIR *dd = opendir(dir);
    struct dirent *e;
    while (dd && (e = readdir(dd)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) unlink(path_in(e->d_name));
    if (dd) closedir(dd);
    rmdir(dir);
}

/* The rows a run hands its callback: up to 64 points of up to 16 values. */
typedef struct rows {
    int by_variable; /* vals[i] is variable i (sel[k] picks them), else vals[k] */
    const int *sel;
    int nsel, n, nvals;
    double t[64], v[64][16];
} rows;

static int keep_rows(void *user, double t, const double *vals, int nvals)
{
    rows *r = user;
    if (r->n == 64) return 1;
    r->nvals = nvals;
    r->t[r->n] = t;
    for (int k = 0; k < r->nsel; k++) r->v[r->n][k] = vals[r->by_variable ? r->sel[k] : k];
    r->n++;
    return 0;
}

/* fl_sim_opts.selected_only hands the callback the selected outputs alone,
 * in the order asked (a variable asked twice appears twice): the same
 * values, bit for bit, as a run that keeps a value per variable, for every
 * kind of output variable (a class variable, a flange's position and force,
 * an input, a block's output, the energy audit's, and one of the model's
 * own equations that reads a spring's force, known at output points only);
 * fl_sim_value still answers by variable, NaN for one not selected. */
static void test_selected_only(void)
{
    static const char *late = "  Real fs = 2 * spring.f;\n";
    char text[2048];
    const char *end = strstr(model_text, "equation\n");
    for (int with_late = 0; with_late < 2; with_late++) {
        snprintf(text, sizeof text, "%.*s%s%s", (int)(end - model_text), model_text, with_late ? late : "", end);
        fl_diag *d = fl_diag_new();
        fl_model *m = fl_model_load_string(text, "step.mo", NULL, d);
        fl_system *sys = m ? fl_compile_and_free(m, d) : NULL;
        CHECK(sys != NULL);
        if (!sys) {
            fl_diag_free(d);
            continue;
        }
        const char *names[] = {"mass.v", "step.y", "mass.s", "spring.f", "force.f", "mass.flange_a.s",
                               "mass.flange_b.f", "energy.kinetic", "mass.a", "mass.v", "fs"};
        int sel[11], nsel = with_late ? 11 : 10;
        for (int k = 0; k < nsel; k++) {
            sel[k] = fl_system_var_index(sys, names[k]);
            CHECK(sel[k] >= 0);
        }
        rows r[2];
        fl_sim *sim[2];
        for (int mode = 0; mode < 2; mode++) {
            memset(&r[mode], 0, sizeof r[mode]);
            r[mode].by_variable = !mode;
            r[mode].sel = sel;
            r[mode].nsel = nsel;
            sim[mode] = fl_sim_new(sys, d);
            fl_sim_opts o = fl_sim_default_opts(sys);
            o.outputs = sel;
            o.noutputs = nsel;
            o.energy = 1;
            o.selected_only = mode;
            CHECK(sim[mode] && fl_sim_run(sim[mode], &o, keep_rows, &r[mode], d) == 0);
        }
        CHECK(fl_diag_errors(d) == 0);
        CHECK(r[0].nvals == fl_system_nvars(sys));
        CHECK(r[1].nvals == nsel);
        CHECK(r[0].n == r[1].n && r[0].n >= 12); /* the grid, and both sides of the step's event */
        CHECK(memcmp(r[0].t, r[1].t, sizeof r[0].t) == 0);
        CHECK(memcmp(r[0].v, r[1].v, sizeof r[0].v) == 0);
        int last = r[1].n - 1;
        CHECK(r[1].v[last][1] == 1.0); /* step.y after the step */
        CHECK(r[1].v[last][4] == 1.0); /* force.f reads it */
        CHECK(r[1].v[last][0] == r[1].v[last][9]); /* mass.v asked twice */
        CHECK(r[1].v[last][7] > 0);   /* it moved: kinetic energy */
        if (with_late) CHECK(r[1].v[last][10] == 2 * r[1].v[last][3]); /* fs = 2 spring.f */
        for (int k = 0; k < nsel; k++) CHECK(fl_sim_value(sim[1], sel[k]) == r[1].v[last][k]);
        CHECK(isnan(fl_sim_value(sim[1], fl_system_var_index(sys, "fixed.flange.s"))));
        /* (kept per variable when forces known at output points are read:
         * then, as by variable, the other class variables of a selected
         * instance are there too) */
        double s_rel = fl_sim_value(sim[1], fl_system_var_index(sys, "spring.s_rel"));
        CHECK(with_late ? s_rel == fl_sim_value(sim[0], fl_system_var_index(sys, "spring.s_rel")) : isnan(s_rel));
        /* the same sim, by variable again */
        fl_sim_opts o = fl_sim_default_opts(sys);
        o.outputs = sel;
        o.noutputs = nsel;
        o.energy = 1;
        rows again;
        memset(&again, 0, sizeof again);
        again.by_variable = 1;
        again.sel = sel;
        again.nsel = nsel;
        CHECK(fl_sim_run(sim[1], &o, keep_rows, &again, d) == 0);
        CHECK(again.n == r[0].n && memcmp(again.v, r[0].v, sizeof again.v) == 0);
        /* every variable selected: kept per variable and copied (gathered) */
        int nv = fl_system_nvars(sys), *all = malloc(sizeof(int) * (size_t)nv);
        double *by_var = malloc(sizeof(double) * (size_t)nv);
        for (int i = 0; i < nv; i++) all[i] = i;
        o.outputs = all;
        o.noutputs = nv;
        CHECK(fl_sim_run(sim[0], &o, NULL, NULL, d) == 0);
        for (int i = 0; i < nv; i++) by_var[i] = fl_sim_value(sim[0], i);
        o.selected_only = 1;
        CHECK(fl_sim_run(sim[1], &o, NULL, NULL, d) == 0);
        int same = 0;
        for (int i = 0; i < nv; i++) {
            double x = fl_sim_value(sim[1], i);
            same += memcmp(&by_var[i], &x, sizeof x) == 0;
        }
        CHECK(same == nv);
        CHECK(by_var[sel[1]] == 1.0); /* step.y */
        free(all);
        free(by_var);
        fl_sim_free(sim[0]);
        fl_sim_free(sim[1]);
        fl_system_free(sys);
        fl_diag_free(d);
    }
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(model_text, "step.mo", NULL, d);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    fl_sim *sim = sys ? fl_sim_new(sys, d) : NULL;
    CHECK(sim != NULL);
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    if (sim) {
        test_validation(sim, sys);
        test_size(sim, sys);
        test_row_limit(sim, sys);
        test_targets(sim, sys);
    }
    test_selected_only();
    fl_sim_free(sim);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
    clean_dir();
    return check_done();
}
