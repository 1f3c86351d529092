/* cmd_sweep.c - "flange sweep": a parameter study on the threads of this
 * machine, on the ranks of an MPI job (mpi.c), or as one shard of a study
 * split by a scheduler; and --merge, which joins the shards. The study
 * itself is the library's (fl_sweep_*); this file parses the command line,
 * shows progress and decides who writes what. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static const char sweep_usage[] =
    "usage: flange sweep MODEL.mo|CLASS --param NAME=VALUES ... --collect EXPR,... -o STUDY.csv|STUDY.h5\n"
    "                    [--samples N [--seed S] [--lhs]] [--runs RUNS.csv] [--save VAR,...] [--threads N]\n"
    "                    [--resume] [--shard I/N] [--lib DIR ...] [--model NAME] [--start T] [--stop T]\n"
    "                    [--interval H] [--tolerance R] [--solver auto|dense|klu] [--quiet]\n"
    "       flange sweep --merge SHARD... -o STUDY.csv|STUDY.h5";

static const char sweep_help[] =
    "\n"
    "Runs MODEL once per parameter set and writes one row per run: run (0, 1, ...),\n"
    "the parameters, status (ok or failed), message, and the collected quantities.\n"
    "\n"
    "  --param NAME=VALUES   a list 1,2,5; a range START:STOP:N (N values, both ends);\n"
    "                        log(START:STOP:N); with --samples: uniform(A,B),\n"
    "                        normal(MEAN,SIGMA), loguniform(A,B). Several --param form\n"
    "                        the full-factorial grid (the last one varies fastest).\n"
    "  --samples N           N random samples of the distributions (times the grid of\n"
    "                        the list parameters); --seed S (default 1); --lhs for a\n"
    "                        Latin hypercube instead of independent draws\n"
    "  --runs RUNS.csv       explicit runs: a header of names, one row of numbers per run\n"
    "  --collect EXPR,...    final(v) max(v) min(v) mean(v) at(v, t), of v or abs(v);\n"
    "                        count_events; status (always a column)\n"
    "  --save VAR,...        keep these trajectories of every run (HDF5 output only)\n"
    "  -o STUDY.csv|.h5      the table (CSV), or the table, the study's definition, the\n"
    "                        model text and the saved trajectories (HDF5)\n"
    "  --threads N           threads on this machine (default: every core)\n"
    "  --resume              go on with an interrupted study (STUDY.journal holds what\n"
    "                        was done); without it an existing journal is an error\n"
    "  --shard I/N           run only the I-th of N equal slices of the runs (I from 0),\n"
    "                        e.g. one Slurm array task each; join them with --merge\n"
    "  --merge SHARD...      join shard files of one study into -o, ordered by run\n"
    "\n"
    "Parameters the compiled model can change are set per run; the others (masses,\n"
    "Integer parameters, parameters other bindings use) compile the model once per\n"
    "combination of their values. A run that fails is recorded with its message and\n"
    "the study goes on; the exit status is 0 when the table was written.\n"
    "Under `mpirun -n K flange sweep ...` (when flange was built with MPI) the K ranks\n"
    "take runs from a shared queue and rank 0 writes the output, the same file a\n"
    "single process writes.";

typedef struct progress {
    double t0, last;
    long first_done;
    int tty;
} progress;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void show_progress(void *user, long done, long failed, long total)
{
    progress *p = user;
    double t = now();
    if (done < total && t - p->last < 0.5) return;
    p->last = t;
    double el = t - p->t0, rate = el > 0 ? (double)(done - p->first_done) / el : 0;
    double left = rate > 0 ? (double)(total - done) / rate : 0;
    fprintf(stderr, "%ssweep: %ld/%ld runs, %ld failed, %.1f runs/s, %.0f s left%s", p->tty ? "\r" : "", done, total,
            failed, rate, left, p->tty ? "   " : "\n");
    if (p->tty && done == total) fputc('\n', stderr);
}

/* --start, --stop, --interval, --tolerance into times[0..3]: the value
 * text when argv[*i] is one of them (NULL with *missing when its value is
 * missing or not a number), else NULL. */
static const char *time_option(int argc, char **argv, int *i, int *missing, double *times)
{
    static const char *const names[] = {"--start", "--stop", "--interval", "--tolerance"};
    for (int k = 0; k < 4; k++) {
        const char *v = cli_option(argc, argv, i, names[k], missing);
        if (*missing) return NULL;
        if (!v) continue;
        if (cli_number(v, &times[k])) {
            *missing = 1;
            return NULL;
        }
        return v;
    }
    return NULL;
}

static int parse_shard(const char *s, long *i, long *n)
{
    char *end;
    *i = strtol(s, &end, 10);
    if (end == s || *end != '/') return -1;
    const char *q = end + 1;
    *n = strtol(q, &end, 10);
    if (end == q || *end || *n < 1 || *i < 0 || *i >= *n) return -1;
    return 0;
}

static int merge(int argc, char **argv, int i0)
{
    const char *cmd = "sweep", *out = NULL;
    const char **in = calloc((size_t)argc, sizeof *in);
    int nin = 0;
    for (int i = i0; i < argc; i++) {
        int missing = 0;
        const char *v;
        if ((v = cli_option(argc, argv, &i, "-o", &missing)) || missing) {
            if (missing) {
                free(in);
                return cli_usage_error(cmd, sweep_usage, "-o needs a file name");
            }
            out = v;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            free(in);
            return cli_usage_error(cmd, sweep_usage, "--merge takes only shard files and -o, not '%s'", argv[i]);
        } else {
            in[nin++] = argv[i];
        }
    }
    if (!out || !nin) {
        free(in);
        return cli_usage_error(cmd, sweep_usage, "--merge needs the shard files and -o STUDY.csv|STUDY.h5");
    }
    for (int k = 0; k < nin; k++)
        if (cli_same_file(in[k], out)) {
            free(in);
            fprintf(stderr, "flange sweep: the output %s is one of the shards\n", out);
            return 2;
        }
    fl_diag *d = fl_diag_new();
    int rc = fl_sweep_merge(in, nin, out, d);
    cli_print_diags(d);
    fl_diag_free(d);
    free(in);
    return rc ? 1 : 0;
}

int cmd_sweep(int argc, char **argv)
{
    const char *cmd = "sweep", *model_path = NULL, *out = NULL, *model = NULL, *runs_file = NULL;
    cli_list libs = {0};
    const char **params = calloc((size_t)argc + 1, sizeof *params), **collects = calloc((size_t)argc + 1, sizeof *collects);
    const char **saves = calloc((size_t)argc + 1, sizeof *saves);
    int nparams = 0, ncollects = 0, nsaves = 0, lhs = 0, resume = 0, quiet = 0, threads = 0, solver = FL_SOLVER_AUTO;
    long samples = 0, shard_i = 0, shard_n = 1;
    unsigned long long seed = 1;
    int seed_given = 0;
    double times[4] = {NAN, NAN, NAN, NAN}; /* start, stop, interval, tolerance */
    int rc = 2;
    if (!params || !collects || !saves) {
        fputs("flange: out of memory\n", stderr);
        return 1;
    }
#define USAGE(...)                                                \
    do {                                                          \
        rc = cli_usage_error(cmd, sweep_usage, __VA_ARGS__);      \
        goto done;                                                \
    } while (0)
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int missing = 0;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("%s\n%s\n", sweep_usage, sweep_help);
            rc = 0;
            goto done;
        }
        if (strcmp(a, "--merge") == 0) {
            if (i != 1) USAGE("--merge comes first: flange sweep --merge SHARD... -o STUDY");
            rc = merge(argc, argv, 2);
            goto done;
        }
        if (strcmp(a, "--lhs") == 0) lhs = 1;
        else if (strcmp(a, "--resume") == 0) resume = 1;
        else if (strcmp(a, "--quiet") == 0) quiet = 1;
        else if ((v = cli_option(argc, argv, &i, "--param", &missing))) params[nparams++] = v;
        else if (!missing && (v = cli_option(argc, argv, &i, "--collect", &missing))) collects[ncollects++] = v;
        else if (!missing && (v = cli_option(argc, argv, &i, "--save", &missing))) saves[nsaves++] = v;
        else if (!missing && (v = cli_option(argc, argv, &i, "-o", &missing))) out = v;
        else if (!missing && (v = cli_option(argc, argv, &i, "--runs", &missing))) runs_file = v;
        else if (!missing && (v = cli_option(argc, argv, &i, "--lib", &missing))) cli_list_add(&libs, v);
        else if (!missing && (v = cli_option(argc, argv, &i, "--model", &missing))) model = v;
        else if (!missing && (v = cli_option(argc, argv, &i, "--samples", &missing))) {
            char *end;
            samples = strtol(v, &end, 10);
            if (*end || end == v || samples < 1) USAGE("--samples needs a whole number >= 1, not '%s'", v);
        } else if (!missing && (v = cli_option(argc, argv, &i, "--seed", &missing))) {
            char *end;
            seed = strtoull(v, &end, 10);
            if (*end || end == v || v[0] == '-') USAGE("--seed needs a whole number >= 0, not '%s'", v);
            seed_given = 1;
        } else if (!missing && (v = cli_option(argc, argv, &i, "--threads", &missing))) {
            char *end;
            long t = strtol(v, &end, 10);
            if (*end || end == v || t < 1 || t > 4096) USAGE("--threads needs a number from 1 to 4096, not '%s'", v);
            threads = (int)t;
        } else if (!missing && (v = cli_option(argc, argv, &i, "--shard", &missing))) {
            if (parse_shard(v, &shard_i, &shard_n)) USAGE("--shard needs I/N with 0 <= I < N, not '%s'", v);
        } else if (!missing && (v = cli_option(argc, argv, &i, "--solver", &missing))) {
            if (strcmp(v, "auto") == 0) solver = FL_SOLVER_AUTO;
            else if (strcmp(v, "dense") == 0) solver = FL_SOLVER_DENSE;
            else if (strcmp(v, "klu") == 0) solver = FL_SOLVER_KLU;
            else USAGE("--solver is auto, dense or klu, not '%s'", v);
        } else if (!missing && (v = time_option(argc, argv, &i, &missing, times))) {
            /* taken */
        } else if (missing) {
            USAGE("%s needs a value (a number for the times)", a);
        } else if (a[0] == '-' && a[1]) {
            USAGE("unknown option '%s'", a);
        } else if (!model_path) {
            model_path = a;
        } else {
            USAGE("one model at a time: '%s' and '%s'", model_path, a);
        }
    }
    if (!model_path) USAGE("no model given");
    if (!out) USAGE("no output given: -o STUDY.csv or -o STUDY.h5");
    if (seed_given && !samples) USAGE("--seed goes with --samples");
    if (lhs && !samples) USAGE("--lhs goes with --samples");
    if (runs_file && nparams) USAGE("--runs gives every parameter: it cannot be combined with --param");
    if (!runs_file && !nparams) USAGE("nothing to sweep: give --param NAME=VALUES or --runs RUNS.csv");
    if (nsaves && !strstr(out, ".h5") && !strstr(out, ".hdf5") && !strstr(out, ".H5"))
        USAGE("--save keeps trajectories in an HDF5 file: -o STUDY.h5");
    if (cli_same_file(out, model_path) || (runs_file && cli_same_file(out, runs_file)))
        USAGE("the output %s would overwrite an input", out);

    int mpi = cli_mpi_active(), rank = mpi ? cli_mpi_rank() : 0;
    if (mpi && cli_mpi_any_failed(0)) {
        rc = 1;
        goto done;
    }
    fl_diag *d = fl_diag_new();
    /* a model file, or a class of the libraries */
    const char *ext = cli_extension(model_path);
    int is_file = (ext && strcmp(ext, ".mo") == 0) || strchr(model_path, '/') || access(model_path, F_OK) == 0;
    fl_load_opts lo = {is_file ? model : model_path, NULL, 0, (const char *const *)libs.v, libs.n, NULL};
    fl_sweep *s = fl_sweep_new(is_file ? model_path : NULL, &lo, d);
    int ok = s != NULL;
    for (int k = 0; ok && k < nparams; k++) ok = !fl_sweep_param(s, params[k], d);
    if (ok && runs_file) ok = !fl_sweep_runs_file(s, runs_file, d);
    if (ok && samples) ok = !fl_sweep_samples(s, samples, seed, lhs, d);
    for (int k = 0; ok && k < ncollects; k++) ok = !fl_sweep_collect(s, collects[k], d);
    for (int k = 0; ok && k < nsaves; k++) ok = !fl_sweep_save(s, saves[k], d);
    if (ok) fl_sweep_set_times(s, times[0], times[1], times[2], times[3]), fl_sweep_set_solver(s, solver);
    long nruns = ok ? fl_sweep_prepare(s, d) : -1;
    ok = nruns >= 0;
    long first = 0, count = nruns;
    if (ok && shard_n > 1) {
        first = nruns * shard_i / shard_n;
        count = nruns * (shard_i + 1) / shard_n - first;
    }
    char *journal = NULL;
    int journal_new = 0; /* this command created the journal */
    if (ok && rank == 0) {
        journal = malloc(strlen(out) + 9);
        if (journal) sprintf(journal, "%s.journal", out);
        journal_new = journal && access(journal, F_OK) != 0;
        long back = journal ? fl_sweep_journal(s, journal, resume, d) : -1;
        if (back < 0) ok = 0;
        else if (back > 0 && !quiet) fprintf(stderr, "sweep: %ld run(s) taken back from %s\n", back, journal);
    }
    if (mpi && cli_mpi_any_failed(!ok)) {
        if (ok && journal_new) fl_sweep_journal_close(s, 1); /* another rank failed: nothing was run */
        ok = 0;
    }
    if (ok && !quiet && rank == 0) {
        int nst = 0;
        for (int j = 0; j < fl_sweep_nparams(s); j++) nst += fl_sweep_param_structural(s, j) == 1;
        fprintf(stderr, "sweep: %ld runs", count);
        if (shard_n > 1) fprintf(stderr, " (shard %ld/%ld: runs %ld to %ld of %ld)", shard_i, shard_n, first,
                                 first + count - 1, nruns);
        fprintf(stderr, ", %d parameter(s)", fl_sweep_nparams(s));
        if (nst) fprintf(stderr, ", %d structural (%ld compilations)", nst, fl_sweep_ngroups(s));
        fputc('\n', stderr);
    }
    double t0 = 0;
    long failed = 0, taken_back = 0;
    if (ok) {
        cli_catch_signals();
        progress pr = {0, 0, 0, isatty(2)};
        t0 = pr.t0 = now();
        for (long r = 0; r < nruns; r++) pr.first_done += fl_sweep_has_result(s, r);
        for (long r = first; r < first + count; r++) taken_back += fl_sweep_has_result(s, r);
        if (mpi) {
            failed = cli_mpi_sweep(s, first, count, quiet ? NULL : show_progress, &pr, d);
        } else {
            long *runs = malloc(sizeof(long) * (size_t)(count ? count : 1));
            if (!runs) {
                fputs("flange: out of memory\n", stderr);
                failed = -1;
            } else {
                for (long r = 0; r < count; r++) runs[r] = first + r;
                failed = fl_sweep_run(s, runs, count, threads, quiet ? NULL : show_progress, &pr, d);
                free(runs);
            }
        }
        if (failed < 0) ok = 0;
    }
    if (ok && rank == 0) {
        if (fl_sweep_write(s, out, first, count, d)) {
            ok = 0;
        } else {
            fl_sweep_journal_close(s, 1);
            if (!quiet) {
                long nf = 0;
                for (long r = first; r < first + count; r++) nf += fl_sweep_value(s, r, fl_sweep_nparams(s) + 1) == 1;
                double el = now() - t0;
                fprintf(stderr, "sweep: %ld runs (%ld failed; %ld run now, %ld taken back) in %.1f s; wrote %s\n",
                        count, nf, count - taken_back, taken_back, el, out);
            }
        }
    }
    cli_print_diags(d);
    fl_diag_free(d);
    fl_sweep_free(s);
    free(journal);
    rc = ok ? 0 : 1;
done:
    if (cli_mpi_active()) cli_mpi_finalize();
    cli_list_free(&libs);
    free(params);
    free(collects);
    free(saves);
    return rc;
#undef USAGE
}
