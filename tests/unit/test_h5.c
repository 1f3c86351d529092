/* test_h5.c - a study's result table in HDF5 (src/sweep/h5.c): a table of
 * numbers (NaN, -0.0, 1e-300, the smallest subnormal, infinities) and text
 * (commas, quotes, UTF-8, empty, not UTF-8), its metadata and trajectories
 * of different lengths (one run without points) written and read back
 * bitwise equal; a table without rows and without metadata; names HDF5
 * cannot take as they are ('/', '%', a leading '.', empty); a failed write
 * (a directory that does not exist, a file size limit) leaves the previous
 * file and no temporary file; empty, truncated and non-HDF5 files, a
 * damaged superblock and files HDF5 itself writes without the layout
 * refused with their exact messages; every allocation failure of a write
 * and of a read unwinds with no HDF5 object left open and no temporary file
 * left behind.
 *
 * Also a helper of tests/cli/sweep_h5.sh (which checks the files with h5py):
 *   test_h5 write FILE   writes the sample table below
 *   test_h5 read FILE    reads a table and prints it (dump() below), or the
 *                        errors, exiting 1 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "flange.h"
#include "sweep/table.h"
#include "util/guard.h"

/* ---- the part of table.c this test needs ------------------------------------ */

static void free_strs(char **s, long n)
{
    if (s)
        for (long i = 0; i < n; i++) free(s[i]);
    free(s);
}

static void test_table_free(sw_table *t)
{
    free_strs(t->names, t->ncols);
    if (t->str)
        for (long i = 0; i < t->nrows * t->ncols; i++) free(t->str[i]);
    free(t->str);
    free(t->text);
    free(t->num);
    free(t->model_name);
    free(t->model_text);
    free(t->version);
    free_strs(t->param_defs, t->nparam_defs);
    free(t->param_structural);
    free_strs(t->save_names, t->nsave);
    if (t->traj)
        for (long r = 0; r < t->nrows; r++) free(t->traj[r]);
    free(t->traj);
    free(t->npts);
    memset(t, 0, sizeof *t);
}

static char *sdup(const char *s)
{
    return s ? strcpy(malloc(strlen(s) + 1), s) : NULL;
}

/* ---- building tables -------------------------------------------------------- */

/* A table of ncols columns (names, 1 = text) and nrows rows, all NaN / "". */
static void table_init(sw_table *t, int ncols, const char *const *names, const unsigned char *text, long nrows)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
    t->nrows = nrows;
    t->names = calloc((size_t)ncols + 1, sizeof(char *));
    t->text = calloc((size_t)ncols + 1, 1);
    for (int c = 0; c < ncols; c++) {
        t->names[c] = sdup(names[c]);
        t->text[c] = text[c];
    }
    size_t cells = (size_t)(nrows * ncols);
    t->num = malloc((cells + 1) * sizeof(double));
    t->str = calloc(cells + 1, sizeof(char *));
    for (size_t i = 0; i < cells; i++) {
        t->num[i] = NAN;
        if (text[i % (size_t)ncols]) t->str[i] = sdup("");
    }
}

static void set_str(sw_table *t, long r, int c, const char *s)
{
    free(t->str[r * t->ncols + c]);
    t->str[r * t->ncols + c] = sdup(s);
}

static double subnormal(void)
{
    double x;
    uint64_t bits = 1; /* 4.9e-324 */
    memcpy(&x, &bits, sizeof x);
    return x;
}

static const char utf8_text[] = "Gr\xc3\xb6\xc3\x9f" "e \xe2\x88\x9a \xe2\x9c\x93 \xf0\x9f\x94\xa7";

/* The sample: 3 runs (the second failed, without points), the metadata,
 * two saved variables. */
static void sample(sw_table *t)
{
    static const char *const names[] = {"run",    "mass.m", "status", "message", "max(abs(mass.v))",
                                        "at(mass.s, 0.5)", "a/b%c", ".dot", ""};
    static const unsigned char text[] = {0, 0, 1, 1, 0, 0, 0, 0, 1};
    table_init(t, 9, names, text, 3);
    double v[3][9] = {
        {1, 1.5, 0, 0, 0.25, -0.0, 1e-300, INFINITY, 0},
        {2, 2.5, 0, 0, NAN, NAN, subnormal(), -INFINITY, 0},
        {3, 1e308, 0, 0, -1.0 / 3, 12345.678901234567, -1e-300, 0.1, 0},
    };
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 9; c++)
            if (!text[c]) t->num[r * 9 + c] = v[r][c];
    set_str(t, 0, 2, "ok");
    set_str(t, 1, 2, "failed");
    set_str(t, 2, 2, "ok");
    set_str(t, 1, 3, "the solver failed at t = 0.25, \"step too small\"; try --tolerance");
    set_str(t, 2, 3, utf8_text);
    set_str(t, 0, 8, "\xff not UTF-8 \xfe");
    set_str(t, 2, 8, "line one\nline two\t\"tab\"");
    t->model_name = sdup("Oscillator");
    t->model_text = sdup("model Oscillator \"Gr\xc3\xb6\xc3\x9f" "e\"\n  parameter Real m = 1;\nend Oscillator;\n");
    t->version = sdup(FLANGE_VERSION);
    t->nparam_defs = 2;
    t->param_defs = calloc(2, sizeof(char *));
    t->param_defs[0] = sdup("mass.m=1.5,2.5,1e308");
    t->param_defs[1] = sdup("spring.c=log(1:100:3)");
    t->param_structural = calloc(2, 1);
    t->param_structural[0] = 1;
    t->nruns_total = 10;
    t->nsave = 2;
    t->save_names = calloc(2, sizeof(char *));
    t->save_names[0] = sdup("mass.s");
    t->save_names[1] = sdup("der(mass.v)");
    t->npts = calloc(3, sizeof(long));
    t->traj = calloc(3, sizeof(double *));
    long npts[3] = {5, 0, 3};
    for (int r = 0; r < 3; r++) {
        t->npts[r] = npts[r];
        if (!npts[r]) continue;
        t->traj[r] = malloc((size_t)npts[r] * 3 * sizeof(double));
        for (long k = 0; k < npts[r]; k++) {
            t->traj[r][3 * k] = 0.25 * (double)k;
            t->traj[r][3 * k + 1] = sin((double)(r + 1) * (double)k) / 3;
            t->traj[r][3 * k + 2] = k == 1 ? -0.0 : k == 2 ? NAN : exp(-(double)k) * 1e-300;
        }
    }
}

/* ---- comparing -------------------------------------------------------------- */

static int same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Everything equal (doubles bitwise); the first difference printed. */
static int tables_equal(const sw_table *a, const sw_table *b)
{
#define DIFF(...) \
    do { \
        fprintf(stderr, "  tables differ: " __VA_ARGS__); \
        fputc('\n', stderr); \
        return 0; \
    } while (0)
    if (a->ncols != b->ncols || a->nrows != b->nrows)
        DIFF("%d x %ld against %d x %ld", a->nrows ? a->ncols : 0, a->nrows, b->ncols, b->nrows);
    for (int c = 0; c < a->ncols; c++) {
        if (strcmp(a->names[c], b->names[c]) || a->text[c] != b->text[c])
            DIFF("column %d: '%s' (text %d) against '%s' (text %d)", c, a->names[c], a->text[c], b->names[c],
                 b->text[c]);
        for (long r = 0; r < a->nrows; r++) {
            long i = r * a->ncols + c;
            if (a->text[c] && !same_str(a->str[i], b->str[i]))
                DIFF("row %ld column '%s': \"%s\" against \"%s\"", r, a->names[c], a->str[i], b->str[i]);
            if (!a->text[c] && !same_double(a->num[i], b->num[i]))
                DIFF("row %ld column '%s': %.17g against %.17g", r, a->names[c], a->num[i], b->num[i]);
        }
    }
    if (!same_str(a->model_name, b->model_name) || !same_str(a->model_text, b->model_text) ||
        !same_str(a->version, b->version))
        DIFF("model name, text or version");
    if (a->nruns_total != b->nruns_total) DIFF("nruns %ld against %ld", a->nruns_total, b->nruns_total);
    if (a->nparam_defs != b->nparam_defs) DIFF("%d parameters against %d", a->nparam_defs, b->nparam_defs);
    for (int i = 0; i < a->nparam_defs; i++)
        if (strcmp(a->param_defs[i], b->param_defs[i])) DIFF("parameter %d", i);
    if (!a->param_structural != !b->param_structural) DIFF("structural flags present in one only");
    if (a->param_structural && memcmp(a->param_structural, b->param_structural, (size_t)a->nparam_defs))
        DIFF("structural flags");
    if (a->nsave != b->nsave) DIFF("%d saved variables against %d", a->nsave, b->nsave);
    for (int j = 0; j < a->nsave; j++)
        if (strcmp(a->save_names[j], b->save_names[j])) DIFF("saved variable %d", j);
    for (long r = 0; r < a->nrows && a->nsave > 0; r++) {
        long na = a->npts ? a->npts[r] : 0, nb = b->npts ? b->npts[r] : 0;
        if (na != nb) DIFF("row %ld: %ld points against %ld", r, na, nb);
        for (long k = 0; k < na * (1 + a->nsave); k++)
            if (!same_double(a->traj[r][k], b->traj[r][k]))
                DIFF("row %ld value %ld: %.17g against %.17g", r, k, a->traj[r][k], b->traj[r][k]);
        if (na == 0 && b->traj && b->traj[r]) DIFF("row %ld: values without points", r);
    }
    return 1;
#undef DIFF
}

/* ---- the scratch directory ---------------------------------------------------- */

static char dir[] = "/tmp/flange_test_h5_XXXXXX";

static const char *path_in(const char *name)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* Temporary files left in the scratch directory ("NAME.tmpXXXXXX"). */
static int stray_files(void)
{
    DIR *dp = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(dp));)
        if (strstr(e->d_name, ".tmp")) {
            fprintf(stderr, "  stray file %s\n", e->d_name);
            n++;
        }
    closedir(dp);
    return n;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    *n = fread(b, 1, (size_t)len, f);
    fclose(f);
    return b;
}

static void spit(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    fwrite(data, 1, n, f);
    fclose(f);
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

/* Reading path fails with exactly "PATH: error: MSG" (MSG after the path), the table left empty. */
static int read_fails(const char *path, const char *msg)
{
    fl_diag *d = fl_diag_new();
    sw_table t;
    memset(&t, 0x55, sizeof t);
    int rc = sw_table_read_h5(path, &t, d);
    char want[1024];
    snprintf(want, sizeof want, "%s: error: %s", path, msg);
    int ok = rc == -1 && only_error(d, want) && t.ncols == 0 && t.names == NULL && t.nrows == 0;
    fl_diag_free(d);
    if (rc == 0) test_table_free(&t);
    return ok;
}

static int open_hdf5_objects(void)
{
    return (int)H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);
}

/* ---- the checks ----------------------------------------------------------------- */

static void check_round_trip(void)
{
    sw_table t, back;
    sample(&t);
    fl_diag *d = fl_diag_new();
    const char *p = path_in("study.h5");
    CHECK(sw_table_write_h5(&t, p, d) == 0);
    CHECK(fl_diag_count(d) == 0);
    CHECK(sw_table_read_h5(p, &back, d) == 0);
    CHECK(fl_diag_count(d) == 0);
    CHECK(tables_equal(&t, &back));
    CHECK(back.npts && back.npts[1] == 0 && back.traj[1] == NULL);
    CHECK(stray_files() == 0);
    CHECK(open_hdf5_objects() == 0);
    /* the same table again: the same bytes (nothing of the time or the place goes into the file) */
    size_t n1, n2;
    char *b1 = slurp(p, &n1);
    CHECK(sw_table_write_h5(&back, path_in("again.h5"), d) == 0);
    char *b2 = slurp(path_in("again.h5"), &n2);
    CHECK(b1 && b2 && n1 == n2 && memcmp(b1, b2, n1) == 0);
    free(b1);
    free(b2);
    unlink(path_in("again.h5"));
    /* the file keeps its mode when replaced */
    chmod(p, 0640);
    CHECK(sw_table_write_h5(&t, p, d) == 0);
    struct stat st;
    CHECK(stat(p, &st) == 0 && (st.st_mode & 07777) == 0640);
    test_table_free(&back);
    test_table_free(&t);
    fl_diag_free(d);
}

/* No rows, no metadata, no trajectories; then rows without trajectories
 * but with saved variables; a run number of a million and more. */
static void check_sparse(void)
{
    static const char *const names[] = {"run", "status", "message", "final(x)"};
    static const unsigned char text[] = {0, 1, 1, 0};
    sw_table t, back;
    fl_diag *d = fl_diag_new();
    table_init(&t, 4, names, text, 0);
    CHECK(sw_table_write_h5(&t, path_in("empty_table.h5"), d) == 0);
    CHECK(sw_table_read_h5(path_in("empty_table.h5"), &back, d) == 0);
    CHECK(tables_equal(&t, &back));
    CHECK(back.model_name == NULL && back.model_text == NULL && back.version == NULL && back.nruns_total == 0 &&
          back.nparam_defs == 0 && back.param_defs == NULL && back.param_structural == NULL && back.nsave == 0 &&
          back.npts == NULL && back.traj == NULL);
    test_table_free(&back);
    test_table_free(&t);

    table_init(&t, 0, names, text, 0); /* not even columns */
    CHECK(sw_table_write_h5(&t, path_in("empty_table.h5"), d) == 0);
    CHECK(sw_table_read_h5(path_in("empty_table.h5"), &back, d) == 0);
    CHECK(tables_equal(&t, &back) && back.ncols == 0 && back.nrows == 0);
    test_table_free(&back);
    test_table_free(&t);

    table_init(&t, 4, names, text, 2);
    t.num[0] = 999999;
    t.num[4] = 1234567;
    t.nparam_defs = 1; /* parameters without structural flags */
    t.param_defs = calloc(1, sizeof(char *));
    t.param_defs[0] = sdup("k=1,2");
    t.nsave = 1;
    t.save_names = calloc(1, sizeof(char *));
    t.save_names[0] = sdup("x");
    t.npts = calloc(2, sizeof(long));
    t.traj = calloc(2, sizeof(double *));
    t.npts[1] = 2;
    t.traj[1] = malloc(4 * sizeof(double));
    t.traj[1][0] = 0, t.traj[1][1] = 1, t.traj[1][2] = 2, t.traj[1][3] = 3;
    CHECK(sw_table_write_h5(&t, path_in("big_runs.h5"), d) == 0);
    CHECK(sw_table_read_h5(path_in("big_runs.h5"), &back, d) == 0);
    CHECK(tables_equal(&t, &back));
    CHECK(back.param_structural == NULL && back.nparam_defs == 1);
    test_table_free(&back);
    /* a table without a run column cannot name its trajectories */
    free(t.names[0]);
    t.names[0] = sdup("index");
    CHECK(sw_table_write_h5(&t, path_in("big_runs.h5"), d) == -1);
    char want[600];
    snprintf(want, sizeof want, "error: cannot write %s: the table has no 'run' column to name the trajectories by",
             path_in("big_runs.h5"));
    CHECK(only_error(d, want));
    fl_diag_clear(d);
    CHECK(sw_table_read_h5(path_in("big_runs.h5"), &back, d) == 0); /* the previous file is still there */
    CHECK(back.npts && back.npts[1] == 2);
    test_table_free(&back);
    test_table_free(&t);
    CHECK(stray_files() == 0);
    fl_diag_free(d);
}

/* Large columns and trajectories: chunked and compressed, still exact. */
static void check_large(void)
{
    static const char *const names[] = {"run", "status", "message", "y"};
    static const unsigned char text[] = {0, 1, 1, 0};
    sw_table t, back;
    fl_diag *d = fl_diag_new();
    long n = 5000;
    table_init(&t, 4, names, text, n);
    for (long r = 0; r < n; r++) {
        t.num[r * 4] = (double)r;
        t.num[r * 4 + 3] = sin((double)r) * 1e3;
        if (r % 7 == 3) set_str(&t, r, 1, "failed");
    }
    t.nsave = 1;
    t.save_names = calloc(1, sizeof(char *));
    t.save_names[0] = sdup("y");
    t.npts = calloc((size_t)n, sizeof(long));
    t.traj = calloc((size_t)n, sizeof(double *));
    t.npts[17] = 70000; /* two chunks */
    t.traj[17] = malloc(2 * 70000 * sizeof(double));
    for (long k = 0; k < 2 * 70000; k++) t.traj[17][k] = k % 2 ? cos((double)k) : (double)k / 2e3;
    CHECK(sw_table_write_h5(&t, path_in("large.h5"), d) == 0);
    CHECK(sw_table_read_h5(path_in("large.h5"), &back, d) == 0);
    CHECK(tables_equal(&t, &back));
    struct stat st;
    CHECK(stat(path_in("large.h5"), &st) == 0 && st.st_size < 5000 * 8 * 2 + 70000 * 16); /* compressed */
    test_table_free(&back);
    test_table_free(&t);
    unlink(path_in("large.h5"));
    fl_diag_free(d);
}

static void check_write_errors(void)
{
    sw_table t;
    sample(&t);
    fl_diag *d = fl_diag_new();
    char want[600];
    /* a directory that does not exist */
    CHECK(sw_table_write_h5(&t, path_in("no/such/dir.h5"), d) == -1);
    snprintf(want, sizeof want, "error: cannot create %s: No such file or directory", path_in("no/such/dir.h5"));
    CHECK(only_error(d, want));
    fl_diag_clear(d);
    /* a directory */
    mkdir(path_in("adir.h5"), 0755);
    CHECK(sw_table_write_h5(&t, path_in("adir.h5"), d) == -1);
    snprintf(want, sizeof want, "error: cannot write %s: it is a directory", path_in("adir.h5"));
    CHECK(only_error(d, want));
    fl_diag_clear(d);
    rmdir(path_in("adir.h5"));
    /* two columns of one name */
    free(t.names[1]);
    t.names[1] = sdup("max(abs(mass.v))");
    CHECK(sw_table_write_h5(&t, path_in("twice.h5"), d) == -1);
    snprintf(want, sizeof want, "error: cannot write %s: two columns are named 'max(abs(mass.v))'",
             path_in("twice.h5"));
    CHECK(only_error(d, want));
    fl_diag_clear(d);
    free(t.names[1]);
    t.names[1] = sdup("mass.m");
    /* two rows of one run number, both with points */
    t.num[2 * t.ncols] = 1;
    t.npts[1] = 0;
    CHECK(sw_table_write_h5(&t, path_in("twice.h5"), d) == -1);
    snprintf(want, sizeof want, "error: cannot write %s: two rows have the run number 000001", path_in("twice.h5"));
    CHECK(only_error(d, want));
    fl_diag_clear(d);
    t.num[2 * t.ncols] = 2.5;
    CHECK(sw_table_write_h5(&t, path_in("twice.h5"), d) == -1);
    snprintf(want, sizeof want, "error: cannot write %s: row 3 has trajectories but its run number is 2.5",
             path_in("twice.h5"));
    CHECK(only_error(d, want));
    fl_diag_clear(d);
    t.num[2 * t.ncols] = 3;
    free(t.save_names[1]);
    t.save_names[1] = sdup("time");
    CHECK(sw_table_write_h5(&t, path_in("twice.h5"), d) == -1);
    snprintf(want, sizeof want, "error: cannot write %s: a saved variable is named 'time', as the output times are",
             path_in("twice.h5"));
    CHECK(only_error(d, want));
    fl_diag_clear(d);
    free(t.save_names[1]);
    t.save_names[1] = sdup("mass.s");
    CHECK(sw_table_write_h5(&t, path_in("twice.h5"), d) == -1);
    snprintf(want, sizeof want, "error: cannot write %s: the variable 'mass.s' is saved twice", path_in("twice.h5"));
    CHECK(only_error(d, want));
    fl_diag_clear(d);
    CHECK(stray_files() == 0);
    CHECK(open_hdf5_objects() == 0);
    test_table_free(&t);
    fl_diag_free(d);
}

/* A write stopped by the file size limit (as a full disk would stop it)
 * fails with the system's reason and leaves the previous file as it was. */
static void check_write_limit(void)
{
    const char *p = path_in("study.h5");
    size_t n0;
    char *before = slurp(p, &n0);
    CHECK(before != NULL);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit rl = {32768, 32768};
        signal(SIGXFSZ, SIG_IGN);
        setrlimit(RLIMIT_FSIZE, &rl);
        static const char *const names[] = {"run", "status", "message", "y"};
        static const unsigned char text[] = {0, 1, 1, 0};
        sw_table t;
        table_init(&t, 4, names, text, 20000);
        for (long r = 0; r < 20000; r++) {
            t.num[r * 4] = (double)r;
            t.num[r * 4 + 3] = sin((double)r * 1.1) * exp((double)(r % 13));
        }
        fl_diag *d = fl_diag_new();
        int rc = sw_table_write_h5(&t, p, d);
        char want[600];
        snprintf(want, sizeof want, "error: cannot write %s: File too large", p);
        int ok = rc == -1 && only_error(d, want);
        fl_diag_free(d);
        test_table_free(&t);
        free(before);
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    size_t n1;
    char *after = slurp(p, &n1);
    CHECK(after && n0 == n1 && memcmp(before, after, n0) == 0);
    CHECK(stray_files() == 0);
    free(before);
    free(after);
}

static void check_read_errors(void)
{
    const char *p = path_in("study.h5");
    size_t n;
    char *good = slurp(p, &n);
    char msg[600];
    CHECK(good && n > 1000);
    /* missing, a directory, empty, text, too short */
    snprintf(msg, sizeof msg, "error: cannot open %s: No such file or directory", path_in("missing.h5"));
    fl_diag *d = fl_diag_new();
    sw_table t;
    CHECK(sw_table_read_h5(path_in("missing.h5"), &t, d) == -1 && only_error(d, msg));
    fl_diag_free(d);
    CHECK(read_fails(dir, "cannot read the file: it is not a regular file"));
    spit(path_in("empty.h5"), "", 0);
    CHECK(read_fails(path_in("empty.h5"), "the file is empty: not an HDF5 file"));
    spit(path_in("text.h5"), "run,status\n1,ok\n", 16);
    CHECK(read_fails(path_in("text.h5"), "not an HDF5 file"));
    /* truncated: in the data, and inside the superblock */
    spit(path_in("half.h5"), good, n / 2);
    snprintf(msg, sizeof msg, "truncated: the file has %zu of its %zu bytes", n / 2, n);
    CHECK(read_fails(path_in("half.h5"), msg));
    spit(path_in("head.h5"), good, 24);
    CHECK(read_fails(path_in("head.h5"), "damaged HDF5 file: incorrect metadata checksum after all read attempts"));
    /* a damaged superblock (checksummed: every byte counts). Damage further in
     * is not always caught: HDF5 does not checksum variable-length data (the
     * strings), and libhdf5 1.10 may then crash or hang (see h5.c). */
    for (size_t at = 0; at < 48; at++) {
        char *bad = malloc(n);
        memcpy(bad, good, n);
        bad[at] ^= 0x5a;
        spit(path_in("flipped.h5"), bad, n);
        free(bad);
        CHECK(read_fails(path_in("flipped.h5"),
                         at < 8    ? "not an HDF5 file"
                         : at == 8 ? "damaged HDF5 file: bad superblock version number"
                         : at == 9 ? "damaged HDF5 file: bad byte number in an address"
                         : at == 10 ? "damaged HDF5 file: bad byte number for object size"
                                    : "damaged HDF5 file: incorrect metadata checksum after all read attempts"));
        CHECK(open_hdf5_objects() == 0);
    }
    free(good);
    unlink(path_in("empty.h5"));
    unlink(path_in("text.h5"));
    unlink(path_in("half.h5"));
    unlink(path_in("head.h5"));
    unlink(path_in("flipped.h5"));
}

/* Files the writer never writes: made here with HDF5 itself. */
static void check_foreign_files(void)
{
    const char *p = path_in("foreign.h5");
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = H5Gcreate2(f, "data", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(g);
    H5Fclose(f);
    CHECK(read_fails(p, "not a flange sweep table: the file has no /table"));

    /* /table a dataset */
    hsize_t three = 3, two = 2;
    double x[3] = {1, 2, 3};
    f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t sp = H5Screate_simple(1, &three, NULL);
    hid_t ds = H5Dcreate2(f, "table", H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(ds);
    H5Fclose(f);
    CHECK(read_fails(p, "/table is not a group"));

    /* no columns attribute; then columns of different lengths; a missing one; a compound one */
    f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    g = H5Gcreate2(f, "table", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ds = H5Dcreate2(g, "run", H5T_STD_I32LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int runs[3] = {1, 2, 3};
    H5Dwrite(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, runs);
    H5Dclose(ds);
    hid_t sp2 = H5Screate_simple(1, &two, NULL);
    ds = H5Dcreate2(g, "y", H5T_IEEE_F32LE, sp2, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x);
    H5Dclose(ds);
    H5Gclose(g);
    H5Fclose(f);
    CHECK(read_fails(p, "/table has no attribute 'columns' (the column names in order)"));
    f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
    g = H5Gopen2(f, "table", H5P_DEFAULT);
    hid_t st = H5Tcopy(H5T_C_S1);
    H5Tset_size(st, H5T_VARIABLE);
    const char *cols[3] = {"run", "y", "z"};
    hid_t a = H5Acreate2(g, "columns", st, sp2, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, st, cols);
    H5Aclose(a);
    H5Gclose(g);
    H5Fclose(f);
    CHECK(read_fails(p, "the column 'y' has 2 values, 'run' 3: the columns must be equally long"));
    f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
    g = H5Gopen2(f, "table", H5P_DEFAULT);
    H5Adelete(g, "columns");
    a = H5Acreate2(g, "columns", st, sp, H5P_DEFAULT, H5P_DEFAULT);
    const char *cols3[3] = {"run", "z", "y"};
    H5Awrite(a, st, cols3);
    H5Aclose(a);
    H5Gclose(g);
    H5Fclose(f);
    CHECK(read_fails(p, "/table has no dataset for the column 'z'"));
    /* integer and float32 columns read as numbers, fixed-length strings as text */
    f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
    g = H5Gopen2(f, "table", H5P_DEFAULT);
    H5Ldelete(g, "y", H5P_DEFAULT);
    ds = H5Dcreate2(g, "y", H5T_IEEE_F32LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x);
    H5Dclose(ds);
    hid_t fixed = H5Tcopy(H5T_C_S1);
    H5Tset_size(fixed, 4);
    H5Tset_strpad(fixed, H5T_STR_SPACEPAD);
    ds = H5Dcreate2(g, "z", fixed, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, fixed, H5S_ALL, H5S_ALL, H5P_DEFAULT, "ok  fail" "abcd");
    H5Dclose(ds);
    H5Gclose(g);
    H5Fclose(f);
    fl_diag *d = fl_diag_new();
    sw_table t;
    CHECK(sw_table_read_h5(p, &t, d) == 0);
    CHECK(t.ncols == 3 && t.nrows == 3 && !t.text[0] && t.text[1] && !t.text[2]);
    if (t.ncols == 3 && t.nrows == 3) {
        CHECK(t.num[0] == 1 && t.num[3] == 2 && t.num[6] == 3 && t.num[2] == 1 && t.num[5] == 2 && t.num[8] == 3);
        CHECK(strcmp(t.str[1], "ok") == 0 && strcmp(t.str[4], "fail") == 0 && strcmp(t.str[7], "abcd") == 0);
        CHECK(t.nsave == 0 && t.traj == NULL && t.model_name == NULL);
    }
    test_table_free(&t);
    /* a compound column */
    f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
    g = H5Gopen2(f, "table", H5P_DEFAULT);
    H5Ldelete(g, "y", H5P_DEFAULT);
    hid_t ct = H5Tcreate(H5T_COMPOUND, 8);
    H5Tinsert(ct, "a", 0, H5T_NATIVE_DOUBLE);
    ds = H5Dcreate2(g, "y", ct, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(ds);
    H5Tclose(ct);
    /* a 2-D column */
    hsize_t dims2[2] = {3, 2};
    hid_t sp32 = H5Screate_simple(2, dims2, NULL);
    H5Ldelete(g, "run", H5P_DEFAULT);
    ds = H5Dcreate2(g, "run", H5T_IEEE_F64LE, sp32, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(ds);
    H5Sclose(sp32);
    H5Gclose(g);
    H5Fclose(f);
    CHECK(read_fails(p, "the column 'run' is not a list of values (2 dimensions)"));
    f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
    g = H5Gopen2(f, "table", H5P_DEFAULT);
    H5Ldelete(g, "run", H5P_DEFAULT);
    ds = H5Dcreate2(g, "run", H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(ds);
    H5Gclose(g);
    H5Fclose(f);
    CHECK(read_fails(p, "the column 'y' is neither numbers nor text"));
    H5Tclose(fixed);
    H5Tclose(st);
    H5Sclose(sp);
    H5Sclose(sp2);
    fl_diag_free(d);
    unlink(p);
    CHECK(open_hdf5_objects() == 0);
}

/* Trajectories a reader must refuse. */
static void check_bad_trajectories(void)
{
    const char *p = path_in("traj.h5");
    sw_table t;
    sample(&t);
    fl_diag *d = fl_diag_new();
    CHECK(sw_table_write_h5(&t, p, d) == 0);
    test_table_free(&t);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, "/trajectories/run_000003/der(mass.v)", H5P_DEFAULT);
    hsize_t two = 2;
    hid_t sp = H5Screate_simple(1, &two, NULL);
    hid_t ds = H5Dcreate2(f, "/trajectories/run_000003/der(mass.v)", H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT,
                          H5P_DEFAULT);
    H5Dclose(ds);
    H5Fclose(f);
    CHECK(read_fails(p, "/trajectories/run_000003: 'der(mass.v)' has 2 points, time 3"));
    f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, "/trajectories/run_000003/der(mass.v)", H5P_DEFAULT);
    H5Fclose(f);
    CHECK(read_fails(p, "/trajectories/run_000003 has no dataset 'der(mass.v)'"));
    /* an empty group is a run without points */
    f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, "/trajectories/run_000003", H5P_DEFAULT);
    hid_t g = H5Gcreate2(f, "/trajectories/run_000003", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(g);
    H5Fclose(f);
    CHECK(sw_table_read_h5(p, &t, d) == 0);
    CHECK(t.nsave == 2 && t.npts && t.npts[0] == 5 && t.npts[1] == 0 && t.npts[2] == 0 && t.traj[2] == NULL);
    test_table_free(&t);
    f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
    g = H5Gopen2(f, "trajectories", H5P_DEFAULT);
    H5Adelete(g, "variables");
    H5Gclose(g);
    H5Fclose(f);
    CHECK(read_fails(p, "/trajectories has no attribute 'variables' (the saved variables in order)"));
    /* metadata of the wrong kinds */
    f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, "trajectories", H5P_DEFAULT);
    H5Adelete(f, "structural");
    int8_t s1 = 1;
    hsize_t one = 1;
    hid_t sp1 = H5Screate_simple(1, &one, NULL);
    hid_t a = H5Acreate2(f, "structural", H5T_STD_I8LE, sp1, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT8, &s1);
    H5Aclose(a);
    H5Fclose(f);
    CHECK(read_fails(p, "the attribute 'structural' has 1 values, 'parameters' 2"));
    f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Adelete(f, "structural");
    H5Adelete(f, "model_name");
    a = H5Acreate2(f, "model_name", H5T_STD_I8LE, sp1, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT8, &s1);
    H5Aclose(a);
    H5Fclose(f);
    CHECK(read_fails(p, "the attribute 'model_name' is not text"));
    H5Sclose(sp);
    H5Sclose(sp1);
    unlink(p);
    fl_diag_free(d);
    CHECK(open_hdf5_objects() == 0);
}

static void check_paths(void)
{
    CHECK(sw_h5_path("study.h5") && sw_h5_path("a/b.H5") && sw_h5_path("x.hdf5") && sw_h5_path("X.HdF5") &&
          sw_h5_path(".h5"));
    CHECK(!sw_h5_path("study.csv") && !sw_h5_path("h5") && !sw_h5_path("study.h5.csv") && !sw_h5_path("a.hdf") &&
          !sw_h5_path("") && !sw_h5_path(NULL) && !sw_h5_path("study.h55"));
}

/* ---- allocation failures ------------------------------------------------------ */

typedef struct oom_call {
    int write;
    const sw_table *in;
    sw_table out;
    fl_diag *d;
    int rc;
} oom_call;

static void oom_body(void *arg)
{
    oom_call *c = arg;
    if (c->write)
        c->rc = sw_table_write_h5(c->in, path_in("oom.h5"), c->d);
    else
        c->rc = sw_table_read_h5(path_in("study.h5"), &c->out, c->d);
}

static void check_oom(void)
{
    sw_table t;
    sample(&t);
    for (int write = 1; write >= 0; write--) {
        int unwound = 0, bad = 0;
        for (long n = 1; n < 100000; n++) {
            oom_call c = {write, &t, {0}, fl_diag_new(), -2};
            fl_guard g;
            fl_test_alloc_fail(n, 0);
            int failed = fl_guard_try(&g, oom_body, &c);
            fl_test_alloc_fail(0, 0);
            if (open_hdf5_objects() != 0 || stray_files() != 0) bad++;
            if (!failed) {
                if (c.rc != 0) bad++;
                if (!write && c.rc == 0) {
                    if (!tables_equal(&t, &c.out)) bad++;
                    test_table_free(&c.out);
                }
                fl_diag_free(c.d);
                break;
            }
            unwound++;
            if (g.failure != FL_FAIL_OOM) bad++;
            fl_diag_free(c.d);
        }
        fprintf(stderr, "  %s: %d allocation failures unwound\n", write ? "write" : "read", unwound);
        CHECK(unwound > 10);
        CHECK(bad == 0);
    }
    unlink(path_in("oom.h5"));
    test_table_free(&t);
}

/* ---- the helper modes of tests/cli/sweep_h5.sh ---------------------------------- */

static void put_text(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            printf("\\x%02x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void put_num(double x)
{
    if (isnan(x))
        printf("nan");
    else if (x == 0 && signbit(x))
        printf("-0");
    else
        printf("%.17g", x);
}

/* The table as text: one line per fact. */
static void dump(const sw_table *t)
{
    printf("model_name ");
    t->model_name ? put_text(t->model_name) : (void)printf("-");
    printf("\nflange_version ");
    t->version ? put_text(t->version) : (void)printf("-");
    printf("\nmodel_text %s\nnruns %ld\n", t->model_text ? "yes" : "-", t->nruns_total);
    for (int i = 0; i < t->nparam_defs; i++) {
        printf("parameter ");
        put_text(t->param_defs[i]);
        printf(" structural %s\n", t->param_structural ? (t->param_structural[i] ? "1" : "0") : "-");
    }
    printf("columns");
    for (int c = 0; c < t->ncols; c++) {
        printf(" %s:", t->text[c] ? "text" : "number");
        put_text(t->names[c]);
    }
    printf("\n");
    for (long r = 0; r < t->nrows; r++) {
        printf("row");
        for (int c = 0; c < t->ncols; c++) {
            putchar(' ');
            if (t->text[c])
                put_text(t->str[r * t->ncols + c]);
            else
                put_num(t->num[r * t->ncols + c]);
        }
        printf("\n");
    }
    for (int j = 0; j < t->nsave; j++) {
        printf("saved ");
        put_text(t->save_names[j]);
        printf("\n");
    }
    for (long r = 0; r < t->nrows && t->nsave > 0; r++) {
        printf("points %ld:", t->npts[r]);
        for (long k = 0; k < t->npts[r] * (1 + t->nsave); k++) {
            putchar(' ');
            put_num(t->traj[r][k]);
        }
        printf("\n");
    }
}

static int helper(const char *mode, const char *path)
{
    fl_diag *d = fl_diag_new();
    sw_table t;
    int rc;
    if (strcmp(mode, "write") == 0) {
        sample(&t);
        rc = sw_table_write_h5(&t, path, d);
    } else {
        rc = sw_table_read_h5(path, &t, d);
        if (!rc) dump(&t);
    }
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    if (!rc) test_table_free(&t);
    fl_diag_free(d);
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3) return helper(argv[1], argv[2]);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    check_paths();
    check_round_trip();
    check_sparse();
    check_large();
    check_write_errors();
    check_write_limit();
    check_read_errors();
    check_foreign_files();
    check_bad_trajectories();
    check_oom();
    CHECK(stray_files() == 0);
    unlink(path_in("study.h5"));
    unlink(path_in("empty_table.h5"));
    unlink(path_in("big_runs.h5"));
    rmdir(dir);
    return check_done();
}
