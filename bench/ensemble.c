/* ensemble.c - the parameter-study benchmark: the hard-stop hysteresis
 * example over many parameter sets (stop stiffness, damping and gap),
 * through fl_ensemble_run on one compiled system:
 *
 *   ensemble MODEL.mo [--runs N] [--threads T]
 *
 * prints "runs=... threads=... seconds=... runs_per_s=... runs_per_s_core=...
 * failed=... steps=... check=..." where check sums the final slider
 * positions (equal for every thread count: the runs are independent). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flange.h"
#include "clock.h"

typedef struct study {
    int nruns;
    int x2;          /* output index of body2.s */
    double *final;   /* per run: body2.s at the stop time */
    long *steps;     /* per run */
} study;

/* Run k's parameters: a 3-D grid-free spread (golden-ratio sequences), so
 * any number of runs covers the ranges evenly. */
static void params_of(int k, double *c, double *d, double *gap)
{
    double u1 = fmod(0.5 + k * 0.6180339887498949, 1), u2 = fmod(0.5 + k * 0.7548776662466927, 1),
           u3 = fmod(0.5 + k * 0.5698402909980532, 1);
    *c = pow(10, 5 + 2 * u1); /* 1e5 .. 1e7 N/m */
    *d = 50 + 450 * u2;       /* 50 .. 500 N.s/m */
    *gap = 0.05 + 0.1 * u3;   /* 0.05 .. 0.15 m each way */
}

static int setup(fl_sim *sim, int k, fl_diag *d, void *user)
{
    (void)user;
    double c, dd, gap;
    params_of(k, &c, &dd, &gap);
    return fl_sim_set_param(sim, "hardStop.stiff_up", c, d) || fl_sim_set_param(sim, "hardStop.stiff_low", c, d) ||
           fl_sim_set_param(sim, "hardStop.D_up", dd, d) || fl_sim_set_param(sim, "hardStop.D_low", dd, d) ||
           fl_sim_set_param(sim, "hardStop.upper_bnd", gap, d) || fl_sim_set_param(sim, "hardStop.lower_bnd", -gap, d);
}

static void done(fl_sim *sim, int k, int status, const fl_diag *d, void *user)
{
    study *s = user;
    if (status) {
        for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "run %d: %s\n", k, fl_diag_text(d, i));
        s->final[k] = NAN;
        return;
    }
    s->final[k] = fl_sim_value(sim, s->x2);
    s->steps[k] = fl_sim_stats(sim).steps;
}

int main(int argc, char **argv)
{
    const char *file = NULL;
    int nruns = 10000, nthreads = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) nruns = atoi(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) nthreads = atoi(argv[++i]);
        else if (!file && argv[i][0] != '-') file = argv[i];
        else {
            fprintf(stderr, "usage: ensemble MODEL.mo [--runs N] [--threads T]\n");
            return 2;
        }
    }
    if (!file || nruns < 1) {
        fprintf(stderr, "usage: ensemble MODEL.mo [--runs N] [--threads T]\n");
        return 2;
    }
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_file(file, NULL, d);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    fl_model_free(m);
    if (!sys) {
        for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
        return 1;
    }
    study s = {nruns, fl_system_var_index(sys, "body2.s"), calloc((size_t)nruns, sizeof(double)),
               calloc((size_t)nruns, sizeof(long))};
    if (s.x2 < 0) {
        fprintf(stderr, "ensemble: the model has no body2.s\n");
        return 1;
    }
    fl_sim_opts o = fl_sim_default_opts(sys);
    o.quiet = 1;
    o.outputs = &s.x2; /* only what the study reads */
    o.noutputs = 1;
    double t0 = bench_now();
    int failed = fl_ensemble_run(sys, &o, nruns, nthreads, setup, done, &s, d);
    double secs = bench_now() - t0;
    if (failed < 0) {
        for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
        return 1;
    }
    int used = nthreads > 0 ? nthreads : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (used > nruns) used = nruns;
    double check = 0;
    long steps = 0;
    for (int k = 0; k < nruns; k++) {
        if (isfinite(s.final[k])) check += s.final[k];
        steps += s.steps[k];
    }
    printf("runs=%d threads=%d seconds=%.3f runs_per_s=%.1f runs_per_s_core=%.1f failed=%d steps=%ld check=%.12g\n",
           nruns, used, secs, nruns / secs, nruns / secs / used, failed, steps, check);
    free(s.final);
    free(s.steps);
    fl_system_free(sys);
    fl_diag_free(d);
    return failed ? 1 : 0;
}
