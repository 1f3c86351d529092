/* fuzz_flange.c - the fuzz target: the input is Modelica text, run through
 * the whole pipeline as a host would use it: load (fl_model_load_string),
 * compile, describe, look every variable up by name, and simulate a short
 * while with the energy audit on. The work per input is capped: the run
 * stops after FUZZ_MAX_STEPS integration steps (a progress callback), a
 * run of more than FUZZ_MAX_OUTPUTS output points is refused (a model
 * with nothing to integrate takes no steps), and the outputs go nowhere. Every input must end in success or in messages;
 * the sanitizers and libFuzzer's timeout say when it does not.
 *
 * Built two ways from this one file:
 *   fuzz_flange  (make fuzz, clang -fsanitize=fuzzer,address,undefined):
 *                libFuzzer provides main() and calls LLVMFuzzerTestOneInput;
 *   fuzz_replay  (every build, FLANGE_FUZZ_REPLAY): a main() that runs the
 *                files and directories given on the command line through
 *                the same function, for the regression test (ctest
 *                fuzz.replay, under make asan too). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flange.h"

#define FUZZ_MAX_STEPS 300
#define FUZZ_MAX_OUTPUTS 20000 /* output points (fl_sim_opts.max_outputs) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int stop_after_steps(void *user, double t, const fl_stats *st)
{
    (void)user;
    (void)t;
    return st->steps >= FUZZ_MAX_STEPS ? 1 : 0;
}

static int discard(void *user, double t, const double *vals, int nvals)
{
    (void)user;
    (void)t;
    (void)vals;
    (void)nvals;
    return 0;
}

static void simulate(const fl_system *sys, fl_diag *d)
{
    /* every name can be looked up again, and names its own index */
    int n = fl_system_nvars(sys);
    for (int i = 0; i < n; i++) {
        const char *name = fl_system_var_name(sys, i);
        if (!name || fl_system_var_index(sys, name) != i || !fl_system_var_unit(sys, i)) {
            fprintf(stderr, "fuzz: variable %d (%s) does not look itself up\n", i, name ? name : "(null)");
            abort();
        }
    }
    FILE *null = fopen("/dev/null", "w");
    if (null) {
        fl_system_describe(sys, null);
        fclose(null);
    }
    fl_sim *sim = fl_sim_new(sys, d);
    if (!sim) return;
    fl_sim_opts o = fl_sim_default_opts(sys);
    o.energy = 1;
    o.progress = stop_after_steps;
    /* a model with nothing to integrate takes no integrator steps: the
     * output points bound it (Interval = 21e-9 made 4.8e7 of them) */
    o.max_outputs = FUZZ_MAX_OUTPUTS;
    fl_sim_run(sim, &o, discard, NULL, d);
    fl_sim_free(sim);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the API takes NUL-terminated text: an embedded NUL ends it early */
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(text, "fuzz.mo", NULL, d);
    free(text);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    fl_model_free(m);
    if (sys) simulate(sys, d);
    fl_system_free(sys);
    /* every message is a complete text */
    for (int i = 0; i < fl_diag_count(d); i++)
        if (!fl_diag_text(d, i) || fl_diag_severity(d, i) < FL_SEV_NOTE || fl_diag_severity(d, i) > FL_SEV_ERROR)
            abort();
    fl_diag_free(d);
    return 0;
}

#ifdef FLANGE_FUZZ_REPLAY
#include <dirent.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) return 1;
    printf("%s\n", path);
    fflush(stdout); /* a crash names its input */
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file, or every regular file of a directory (sorted, README skipped). */
static int replay(const char *path, int *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        (*count)++;
        return replay_file(path);
    }
    DIR *dp = opendir(path);
    if (!dp) {
        perror(path);
        return 1;
    }
    char **names = NULL;
    size_t nn = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, "README", 6) == 0) continue;
        names = realloc(names, sizeof *names * (nn + 1));
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[nn] = malloc(len);
        snprintf(names[nn++], len, "%s/%s", path, e->d_name);
    }
    closedir(dp);
    if (nn) qsort(names, nn, sizeof *names, by_name);
    int rc = 0;
    for (size_t i = 0; i < nn; i++) {
        struct stat fs;
        if (stat(names[i], &fs) == 0 && S_ISREG(fs.st_mode)) {
            (*count)++;
            rc |= replay_file(names[i]);
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = 0, count = 0;
    for (int i = 1; i < argc; i++) rc |= replay(argv[i], &count);
    printf("replayed %d inputs\n", count);
    return rc;
}
#endif
