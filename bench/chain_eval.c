/* chain_eval.c - the cost of flange's own evaluation on the benchmark
 * chain, without the integrator around it:
 *
 *   chain_eval N [REPS] [--cold]
 *
 * builds and compiles the chain (chain_model.h), runs it to t = 3 s (the
 * buffers then in and out of contact along the chain), and times REPS
 * (default 2000) calls of the residual and REPS/10 of the Jacobian as IDA
 * makes them (fl_eval_residual_ida, fl_eval_jacobian_ida) at that state.
 * Prints "residual_ns_per_wagon=... jacobian_ns_per_wagon=... check=...":
 * the check is a sum of values computed, which must not change when the
 * evaluation is made faster (it is the same arithmetic). The hand-written
 * model (ref/chain_ida.c) spends about 1.6 ns per wagon in its residual
 * (perf, N = 10^4), which is the yardstick of target 1 (bench/README.md).
 * --cold: before each residual call, a sweep over 14 vectors of the
 * system's size (as IDA's vector operations make between two calls),
 * which evicts the model's arrays from the cache when they no longer fit
 * beside IDA's (N = 10^5: 22 MB of vectors, 32 MB of cache); only the
 * residual calls are timed. Uses the library's internal headers, as the
 * unit tests do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain_model.h"
#include "sim/sim.h"
#include "clock.h"

int main(int argc, char **argv)
{
    int cold = argc > 2 && strcmp(argv[argc - 1], "--cold") == 0;
    if (cold) argc--;
    if (argc < 2 || atol(argv[1]) < 2) {
        fprintf(stderr, "usage: chain_eval N [REPS] [--cold]  (N >= 2)\n");
        return 2;
    }
    long n = atol(argv[1]);
    int reps = argc > 2 ? atoi(argv[2]) : 2000;
    if (reps < 10) reps = 10;
    fl_diag *d = fl_diag_new();
    fl_model *m = chain_model(n, d);
    fl_system *sys = fl_compile(m, d);
    if (!sys) must(-1, d);
    fl_model_free(m);
    fl_sim *s = fl_sim_new(sys, d);
    if (!s) must(-1, d);
    fl_sim_opts o = fl_sim_default_opts(sys);
    o.stop_time = 3;
    o.interval = 1;
    o.tolerance = CHAIN_RTOL;
    must(fl_sim_run(s, &o, NULL, NULL, d), d);
    size_t nn = (size_t)sys->n, nnz = (size_t)sys->jpat.nnz;
    double *y = malloc(sizeof(double) * nn), *yp = malloc(sizeof(double) * nn), *r = malloc(sizeof(double) * nn);
    double *jd = calloc(nnz, sizeof(double));
    if (!y || !yp || !r || !jd) return 1;
    memcpy(y, s->y, sizeof(double) * nn);
    memcpy(yp, s->yp, sizeof(double) * nn);
    double check = 0, tres = 0;
    size_t nsweep = cold ? 14 * nn : 0;
    double *sweep = calloc(nsweep ? nsweep : 1, sizeof(double));
    if (!sweep) return 1;
    for (int k = 0; k < reps; k++) {
        for (size_t i = 0; i < nsweep; i++) sweep[i] = 0.5 * sweep[i] + 1.0;
        y[0] += 1e-12; /* a new point each call, as in a Newton iteration */
        double a = bench_now();
        if (fl_eval_residual_ida(s, 3.0, y, yp, r) != 0) must(-1, d);
        tres += bench_now() - a;
        check += r[(size_t)k % nn];
    }
    if (sweep[nsweep ? nsweep - 1 : 0] < 0) check = -1; /* (the sweeps are used) */
    free(sweep);
    double t0 = 0, t1 = tres, tj = bench_now();
    int jreps = reps / 10;
    for (int k = 0; k < jreps; k++) {
        memset(jd, 0, sizeof(double) * nnz); /* IDA hands over a zeroed matrix */
        fl_eval_jacobian_ida(s, 3.0, 1e3, y, yp, jd);
        check += jd[(size_t)k % nnz];
    }
    double t2 = bench_now();
    printf("residual_ns_per_wagon=%.2f jacobian_ns_per_wagon=%.2f check=%.17g\n", (t1 - t0) / reps / (double)n * 1e9,
           (t2 - tj) / jreps / (double)n * 1e9, check);
    free(y);
    free(yp);
    free(r);
    free(jd);
    fl_sim_free(s);
    fl_system_free(sys);
    fl_diag_free(d);
    return 0;
}
