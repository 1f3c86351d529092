/* chain_api.c - the benchmark chain of chain.h built through flange's C API
 * (no Modelica text), compiled and simulated:
 *
 *   chain_api N [--no-contact-events | --contact-events] [--energy] [--rtol R] [--dump FILE] [--compile-only]
 *             [--run-peak] [--keep-model] [--by-variable]
 *
 * prints "build_s=... compile_s=... run_s=... steps=... res=... jac=...
 * lsetups=... events=... x1=... v1=... rss_kb=... rss_compile_kb=..." with
 * the first wagon at the stop time, the peak resident memory of the
 * process and the one up to the end of compiling; with --run-peak also
 * rss_run_kb, the run's own peak (from freeing the model on: the kernel's
 * high-water mark is reset there, which a parent's measurement of the
 * process then sees too). Only m1.s and m1.v are computed as outputs; --dump writes the final position and velocity of every
 * wagon ("x v" per line), for the accuracy comparison with the other
 * implementations. --compile-only stops
 * after fl_compile (and prints build_s, compile_s, rss_kb): the memory of
 * building and compiling alone, for a heap profiler. The model is compiled
 * with fl_compile_and_free, which frees each part of it once read;
 * --keep-model compiles with fl_compile and frees the model afterwards (as
 * before that function existed). The run keeps the two selected outputs
 * alone (fl_sim_opts.selected_only); --by-variable keeps a value per
 * variable of the model instead, as before that option existed. With
 * CHAIN_HEAP=1 in the environment it also prints, between the stages,
 * glibc's heap figures, the resident memory and its peak, and the page
 * faults so far (fresh pages are much of building and compiling a big
 * model's cost). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include <sys/resource.h>

#include "flange.h"
#include "chain_model.h"
#include "clock.h"

/* a line of /proc/self/status in KB: "VmHWM:" (peak) or "VmRSS:" (now) */
static long status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    size_t len = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, len) == 0) kb = atol(line + len);
    if (f) fclose(f);
    return kb;
}

static long peak_rss_kb(void)
{
    return status_kb("VmHWM:");
}

static void heap(const char *what)
{
    if (!getenv("CHAIN_HEAP")) return;
    struct mallinfo2 mi = mallinfo2();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(stderr, "heap %s: in use %zu KB, arena %zu KB, mmap %zu KB, rss %ld KB, rss peak %ld KB, page faults %ld\n",
            what, mi.uordblks / 1024, mi.arena / 1024, mi.hblkhd / 1024, status_kb("VmRSS:"), peak_rss_kb(),
            ru.ru_minflt);
}

typedef struct last {
    int is, iv, by_variable;
    double s, v;
} last;

/* m1.s and m1.v: the first two of the selected outputs (selected_only),
 * or (--by-variable) by their variables' indices */
static int keep_last(void *user, double t, const double *vals, int n)
{
    last *l = user;
    (void)t, (void)n;
    l->s = vals[l->by_variable ? l->is : 0];
    l->v = vals[l->by_variable ? l->iv : 1];
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: chain_api N [--no-contact-events | --contact-events] [--energy] [--rtol R] "
                        "[--dump FILE] [--compile-only] [--run-peak] [--keep-model] [--by-variable]\n");
        return 2;
    }
    long n = atol(argv[1]);
    int events = -1, energy = 0, compile_only = 0, run_peak = 0, keep_model = 0, by_variable = 0;
    double rtol = CHAIN_RTOL;
    const char *dump = NULL;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--rtol") == 0 && i + 1 < argc) rtol = atof(argv[++i]);
        else if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc) dump = argv[++i];
        else if (strcmp(argv[i], "--no-contact-events") == 0) events = 0;
        else if (strcmp(argv[i], "--contact-events") == 0) events = 1;
        else if (strcmp(argv[i], "--energy") == 0) energy = 1;
        else if (strcmp(argv[i], "--compile-only") == 0) compile_only = 1;
        else if (strcmp(argv[i], "--run-peak") == 0) run_peak = 1;
        else if (strcmp(argv[i], "--keep-model") == 0) keep_model = 1;
        else if (strcmp(argv[i], "--by-variable") == 0) by_variable = 1;
    }
    fl_diag *d = fl_diag_new();
    double t0 = bench_now();
    char a[64];
    fl_model *m = chain_model(n, d);
    double t1 = bench_now();
    heap("after building the model");
    /* the model is freed as compiling reads it, or (--keep-model) whole
     * after compiling */
    fl_system *sys = keep_model ? fl_compile(m, d) : fl_compile_and_free(m, d);
    heap("after compiling");
    if (!sys) must(-1, d);
    if (keep_model) fl_model_free(m); /* the system stands alone */
    m = NULL;
    heap("after freeing the model");
    long rss_compile = peak_rss_kb();
    if (compile_only) {
        printf("build_s=%.4f compile_s=%.4f rss_kb=%ld\n", t1 - t0, bench_now() - t1, rss_compile);
        fl_system_free(sys);
        fl_diag_free(d);
        return 0;
    }
    /* --run-peak: the kernel's high-water mark restarts here, so that the
     * run's own peak can be read at the end (it then no longer covers
     * compiling: the process's peak a parent reads, bench/measure, is the
     * run's too) */
    if (run_peak) {
        FILE *cr = fopen("/proc/self/clear_refs", "w");
        if (cr) {
            fputs("5", cr);
            fclose(cr);
        }
    }
    double t2 = bench_now();
    fl_sim *sim = fl_sim_new(sys, d);
    if (!sim) must(-1, d);
    heap("after fl_sim_new");
    fl_sim_opts o = fl_sim_default_opts(sys);
    o.start_time = 0;
    o.stop_time = CHAIN_STOP;
    o.interval = CHAIN_STOP / 500;
    o.tolerance = rtol;
    o.energy = energy;
    if (events >= 0) o.contacts = events ? FL_CONTACTS_EVENTS : FL_CONTACTS_STEP;
    last l;
    l.by_variable = by_variable;
    l.is = fl_system_var_index(sys, "m1.s");
    l.iv = fl_system_var_index(sys, "m1.v");
    int *outs = malloc(sizeof(int) * (size_t)(dump ? 2 * n + 2 : 2)); /* (--dump: every wagon's) */
    outs[0] = l.is;
    outs[1] = l.iv;
    o.outputs = outs;
    o.noutputs = 2;
    o.selected_only = !l.by_variable; /* no value per variable of the model */
    if (dump) { /* every wagon */
        for (long i = 1; i <= n; i++) {
            snprintf(a, sizeof a, "m%ld.s", i);
            outs[2 * i] = fl_system_var_index(sys, a);
            snprintf(a, sizeof a, "m%ld.v", i);
            outs[2 * i + 1] = fl_system_var_index(sys, a);
        }
        o.noutputs = (int)(2 * n + 2);
    }
    must(fl_sim_run(sim, &o, keep_last, &l, d), d);
    double t3 = bench_now();
    if (dump) {
        FILE *f = fopen(dump, "w");
        if (!f) {
            perror(dump);
            return 1;
        }
        for (long i = 1; i <= n; i++)
            fprintf(f, "%.17g %.17g\n", fl_sim_value(sim, outs[2 * i]), fl_sim_value(sim, outs[2 * i + 1]));
        fclose(f);
    }
    free(outs);
    heap("after the run");
    fl_stats st = fl_sim_stats(sim);
    long rss_end = peak_rss_kb();
    printf("build_s=%.4f compile_s=%.4f run_s=%.4f steps=%ld res=%ld jac=%ld lsetups=%ld events=%ld x1=%.12g "
           "v1=%.12g rss_kb=%ld rss_compile_kb=%ld",
           t1 - t0, t2 - t1, t3 - t2, st.steps, st.res_evals, st.jac_evals, st.lin_setups, st.state_events, l.s, l.v,
           rss_end > rss_compile ? rss_end : rss_compile, rss_compile);
    if (run_peak) printf(" rss_run_kb=%ld", rss_end);
    printf("\n");
    fl_sim_free(sim);
    fl_system_free(sys);
    fl_diag_free(d);
    return 0;
}
