/* chain_model.h - the benchmark chain of chain.h built through flange's C
 * API (no Modelica text), shared by chain_api.c (build, compile, run) and
 * chain_eval.c (the residual and Jacobian alone). */
#ifndef BENCH_CHAIN_MODEL_H
#define BENCH_CHAIN_MODEL_H

#include <stdio.h>
#include <stdlib.h>

#include "flange.h"
#include "chain.h"

static inline void must(int rc, fl_diag *d)
{
    if (rc == 0) return;
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    exit(1);
}

/* connect(<pa><i>.<qa>, <pb><j>.<qb>) */
static inline void join(fl_model *m, const char *pa, long i, const char *qa, const char *pb, long j, const char *qb,
                 fl_diag *d)
{
    char a[64], b[64];
    snprintf(a, sizeof a, "%s%ld.%s", pa, i, qa);
    snprintf(b, sizeof b, "%s%ld.%s", pb, j, qb);
    must(fl_model_connect(m, a, b, d), d);
}

/* The chain of n wagons; exits with the messages on failure. */
static inline fl_model *chain_model(long n, fl_diag *d)
{
    char a[64];
    fl_model *m = fl_model_new("Chain");
    must(fl_model_add(m, "ForceStep", "push", d), d);
    must(fl_model_set(m, "push.stepForce", CHAIN_F, d), d);
    must(fl_model_set(m, "push.offsetForce", 0, d), d);
    must(fl_model_set(m, "push.startTime", CHAIN_T_STEP, d), d);
    for (long i = 1; i <= n; i++) {
        snprintf(a, sizeof a, "m%ld", i);
        must(fl_model_add(m, "Mass", a, d), d);
        snprintf(a, sizeof a, "m%ld.m", i);
        must(fl_model_set(m, a, CHAIN_M, d), d);
        snprintf(a, sizeof a, "m%ld.s.fixed", i);
        must(fl_model_set(m, a, 1, d), d);
        snprintf(a, sizeof a, "m%ld.v.fixed", i);
        must(fl_model_set(m, a, 1, d), d);
        if (i == n) break;
        snprintf(a, sizeof a, "c%ld", i);
        must(fl_model_add(m, "SpringDamper", a, d), d);
        snprintf(a, sizeof a, "c%ld.c", i);
        must(fl_model_set(m, a, CHAIN_C, d), d);
        snprintf(a, sizeof a, "c%ld.d", i);
        must(fl_model_set(m, a, CHAIN_D, d), d);
        snprintf(a, sizeof a, "b%ld", i);
        must(fl_model_add(m, "HardStop", a, d), d);
        static const char *const names[] = {"upper_bnd", "lower_bnd", "stiff_up", "stiff_low", "D_up", "D_low"};
        const double vals[] = {CHAIN_GAP, -CHAIN_GAP, CHAIN_K, CHAIN_K, CHAIN_DB, CHAIN_DB};
        for (int k = 0; k < 6; k++) {
            snprintf(a, sizeof a, "b%ld.%s", i, names[k]);
            must(fl_model_set(m, a, vals[k], d), d);
        }
    }
    must(fl_model_connect(m, "push.flange", "m1.flange_a", d), d);
    for (long i = 1; i < n; i++) {
        join(m, "m", i, "flange_b", "c", i, "flange_a", d); /* coupler */
        join(m, "c", i, "flange_b", "m", i + 1, "flange_a", d);
        join(m, "m", i, "flange_b", "b", i, "C", d); /* buffers */
        join(m, "b", i, "R", "m", i + 1, "flange_a", d);
    }
    return m;
}

#endif
