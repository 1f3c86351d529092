/* chain_ida.c - the benchmark chain written by hand for SUNDIALS IDA, as a
 * user would without flange: residual and analytic Jacobian in C, KLU, the
 * same tolerances and integrator settings as flange. It is the yardstick
 * for flange's overhead; it is used only by make bench.
 *
 *   chain_ida N [--events] [--rtol R] [--dump FILE] [--fast-vectors]
 *
 * prints "steps=... res=... jac=... lsetups=... events=... seconds=...
 * x1=... v1=..." (the first wagon at the stop time). Without --events the
 * buffers are stepped through (their force switches inside the residual);
 * with it every contact onset and release is located and restarts IDA.
 * --rtol sets the relative tolerance (default CHAIN_RTOL); the absolute
 * ones follow it: rtol*1e-4 for positions, rtol for velocities. --dump
 * writes the final state, one line "x v" per wagon (%.17g).
 * --fast-vectors gives IDA's vectors flange's compiled serial kernels
 * (src/sim/nvec.c, as flange's own runs have them) instead of Debian's
 * SUNDIALS build, which is not optimised: the yardstick of flange's
 * evaluation overhead with the same vector arithmetic on both sides. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "../chain.h"
#include "sim/nvec.h"
#include "../clock.h"

typedef struct chain {
    long n;          /* wagons */
    int events;      /* locate contacts */
    int *mode;       /* per buffer: -1 compressed, 0 free, +1 stretched (events) */
    double force;    /* push on the first wagon */
} chain;

/* y = [x0, v0, x1, v1, ...] */
static int contact_of(const chain *c, long i, double xr)
{
    if (c->events) return c->mode[i];
    return xr > CHAIN_GAP ? 1 : xr < -CHAIN_GAP ? -1 : 0;
}

static int residual(double t, N_Vector yy, N_Vector yp, N_Vector rr, void *user)
{
    chain *c = user;
    const double *y = N_VGetArrayPointer(yy), *d = N_VGetArrayPointer(yp);
    double *r = N_VGetArrayPointer(rr);
    long n = c->n;
    (void)t;
    for (long i = 0; i < n; i++) {
        r[2 * i] = d[2 * i] - y[2 * i + 1];
        r[2 * i + 1] = CHAIN_M * d[2 * i + 1];
    }
    r[1] -= c->force;
    for (long i = 0; i + 1 < n; i++) {
        double xr = y[2 * i + 2] - y[2 * i], vr = y[2 * i + 3] - y[2 * i + 1];
        double f = CHAIN_C * xr + CHAIN_D * vr; /* tension */
        int k = contact_of(c, i, xr);
        if (k) f += CHAIN_K * (xr - k * CHAIN_GAP) + CHAIN_DB * vr;
        r[2 * i + 1] -= f;
        r[2 * i + 3] += f;
    }
    return 0;
}

/* CSC pattern: column 2i (x_i): rows 2i, and the v-rows of i-1, i, i+1;
 * column 2i+1 (v_i): rows 2i, and the v-rows of i-1, i, i+1. */
static int jacobian(double t, double cj, N_Vector yy, N_Vector yp, N_Vector rr, SUNMatrix J, void *user,
                    N_Vector t1, N_Vector t2, N_Vector t3)
{
    chain *c = user;
    const double *y = N_VGetArrayPointer(yy);
    long n = c->n;
    sunindextype *cp = SM_INDEXPTRS_S(J), *ri = SM_INDEXVALS_S(J);
    double *v = SM_DATA_S(J);
    (void)t, (void)yp, (void)rr, (void)t1, (void)t2, (void)t3;
    long nz = 0;
    for (long i = 0; i < n; i++) {
        /* stiffness (dk) and damping (dd) of the links to the left and right */
        double kl = 0, dl = 0, kr = 0, dr = 0;
        if (i > 0) {
            double xr = y[2 * i] - y[2 * i - 2];
            int k = contact_of(c, i - 1, xr);
            kl = CHAIN_C + (k ? CHAIN_K : 0);
            dl = CHAIN_D + (k ? CHAIN_DB : 0);
        }
        if (i + 1 < n) {
            double xr = y[2 * i + 2] - y[2 * i];
            int k = contact_of(c, i, xr);
            kr = CHAIN_C + (k ? CHAIN_K : 0);
            dr = CHAIN_D + (k ? CHAIN_DB : 0);
        }
        for (int which = 0; which < 2; which++) { /* 0: x_i, 1: v_i */
            long col = 2 * i + which;
            cp[col] = nz;
            double kk = which ? dl : kl, kn = which ? dr : kr;
            if (i > 0) { /* v-row of i-1: r = m a_{i-1} - f_{i-1,i} ... depends on x_i via +k */
                ri[nz] = 2 * i - 1;
                v[nz++] = -kk;
            }
            ri[nz] = 2 * i; /* x-row of i */
            v[nz++] = which ? -1 : cj;
            ri[nz] = 2 * i + 1; /* v-row of i */
            v[nz++] = (which ? CHAIN_M * cj : 0) + kk + kn;
            if (i + 1 < n) {
                ri[nz] = 2 * i + 3;
                v[nz++] = -kn;
            }
        }
    }
    cp[2 * n] = nz;
    return 0;
}

/* roots: per buffer, xr - gap and xr + gap (contacts) */
static int roots(double t, N_Vector yy, N_Vector yp, double *g, void *user)
{
    chain *c = user;
    const double *y = N_VGetArrayPointer(yy);
    (void)t, (void)yp;
    for (long i = 0; i + 1 < c->n; i++) {
        double xr = y[2 * i + 2] - y[2 * i];
        g[2 * i] = xr - CHAIN_GAP;
        g[2 * i + 1] = xr + CHAIN_GAP;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *usage = "usage: chain_ida N [--events] [--rtol R] [--dump FILE] [--fast-vectors]\n";
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    chain c;
    memset(&c, 0, sizeof c);
    c.n = atol(argv[1]);
    double rtol = CHAIN_RTOL;
    const char *dump = NULL;
    int fast_vectors = 0;
    for (int a = 2; a < argc; a++) {
        if (strcmp(argv[a], "--events") == 0) {
            c.events = 1;
        } else if (strcmp(argv[a], "--rtol") == 0 && a + 1 < argc) {
            char *end;
            rtol = strtod(argv[++a], &end);
            if (*end || !(rtol > 0)) {
                fprintf(stderr, "chain_ida: bad --rtol %s\n", argv[a]);
                return 2;
            }
        } else if (strcmp(argv[a], "--fast-vectors") == 0) {
            fast_vectors = 1;
        } else if (strcmp(argv[a], "--dump") == 0 && a + 1 < argc) {
            dump = argv[++a];
        } else {
            fputs(usage, stderr);
            return 2;
        }
    }
    long n = c.n, neq = 2 * n;
    c.mode = calloc((size_t)n, sizeof(int));
    double t0 = bench_now();
    SUNContext ctx;
    SUNContext_Create(NULL, &ctx);
    N_Vector y = N_VNew_Serial(neq, ctx), yp = N_VNew_Serial(neq, ctx), atol = N_VNew_Serial(neq, ctx);
    N_Vector id = N_VNew_Serial(neq, ctx), out = N_VNew_Serial(neq, ctx);
    if (fast_vectors) {
        fl_nvec_fast(y);
        fl_nvec_fast(yp);
        fl_nvec_fast(atol);
    }
    N_VConst(0, y);
    N_VConst(0, yp);
    N_VConst(1, id);
    double *at = N_VGetArrayPointer(atol);
    for (long i = 0; i < n; i++) {
        at[2 * i] = rtol * 1e-4; /* flange: positions scaled by the buffers' length scale */
        at[2 * i + 1] = rtol;
    }
    void *ida = IDACreate(ctx);
    IDAInit(ida, residual, 0, y, yp);
    IDASVtolerances(ida, rtol, atol);
    IDASetUserData(ida, &c);
    IDASetId(ida, id);
    IDASetNonlinConvCoef(ida, 0.1);
    IDASetMaxNumSteps(ida, 100000000L);
    double h_out = CHAIN_STOP / 500;
    IDASetInitStep(ida, fmin(h_out, 1e-3 * CHAIN_STOP));
    SUNMatrix A = SUNSparseMatrix(neq, neq, 8 * n, CSC_MAT, ctx);
    SUNLinearSolver LS = SUNLinSol_KLU(y, A, ctx);
    IDASetLinearSolver(ida, LS, A);
    IDASetJacFn(ida, jacobian);
    if (c.events) IDARootInit(ida, (int)(2 * (n - 1)), roots);
    int *rinfo = c.events ? calloc((size_t)(2 * n), sizeof(int)) : NULL;
    long events = 0, nsteps = 0, nres = 0, njac = 0, nset = 0;
    double t = 0, tend = CHAIN_STOP, tstep = CHAIN_T_STEP;
    /* to the force step, then on; output points as flange's grid (interpolated) */
    double tstop = tstep;
    IDASetStopTime(ida, tstop);
    long kout = 1;
    while (t < tend) {
        double tret;
        int flag = IDASolve(ida, tstop, &tret, y, yp, IDA_ONE_STEP);
        if (flag < 0) {
            fprintf(stderr, "chain_ida: IDA failed at t = %g (flag %d)\n", tret, flag);
            return 1;
        }
        while (kout * h_out <= tret + 1e-12) { /* output grid, as flange writes it */
            IDAGetDky(ida, fmin(kout * h_out, tret), 0, out);
            kout++;
        }
        t = tret;
        if (flag == IDA_TSTOP_RETURN || flag == IDA_ROOT_RETURN) {
            long v;
            IDAGetNumSteps(ida, &v), nsteps += v;
            IDAGetNumResEvals(ida, &v), nres += v;
            IDAGetNumJacEvals(ida, &v), njac += v;
            IDAGetNumLinSolvSetups(ida, &v), nset += v;
            if (flag == IDA_TSTOP_RETURN && t >= tend) break;
            if (flag == IDA_TSTOP_RETURN) { /* the force step */
                c.force = CHAIN_F;
                tstop = tend;
                IDASetStopTime(ida, tstop);
            } else {
                IDAGetRootInfo(ida, rinfo);
                const double *yy = N_VGetArrayPointer(y);
                for (long i = 0; i + 1 < n; i++) {
                    if (!rinfo[2 * i] && !rinfo[2 * i + 1]) continue;
                    double xr = yy[2 * i + 2] - yy[2 * i];
                    c.mode[i] = rinfo[2 * i] ? (rinfo[2 * i] > 0 ? 1 : 0) : (rinfo[2 * i + 1] < 0 ? -1 : 0);
                    (void)xr;
                }
                events++;
            }
            /* consistent derivatives after the discontinuity: a = F/m */
            residual(t, y, yp, out, &c);
            double *d = N_VGetArrayPointer(yp);
            const double *r = N_VGetArrayPointer(out);
            for (long i = 0; i < n; i++) {
                d[2 * i] -= r[2 * i];
                d[2 * i + 1] -= r[2 * i + 1] / CHAIN_M;
            }
            IDASetInitStep(ida, fmin(h_out, 1e-3 * (tend - t)));
            IDAReInit(ida, t, y, yp);
        }
    }
    double secs = bench_now() - t0;
    const double *yy = N_VGetArrayPointer(y);
    printf("steps=%ld res=%ld jac=%ld lsetups=%ld events=%ld seconds=%.4f x1=%.12g v1=%.12g\n", nsteps, nres, njac,
           nset, events, secs, yy[0], yy[1]);
    if (dump) {
        FILE *f = fopen(dump, "w");
        if (!f) {
            perror(dump);
            return 1;
        }
        for (long i = 0; i < n; i++) fprintf(f, "%.17g %.17g\n", yy[2 * i], yy[2 * i + 1]);
        if (fclose(f) != 0) {
            perror(dump);
            return 1;
        }
    }
    IDAFree(&ida);
    SUNLinSolFree(LS);
    SUNMatDestroy(A);
    N_VDestroy(y);
    N_VDestroy(yp);
    N_VDestroy(atol);
    N_VDestroy(id);
    N_VDestroy(out);
    SUNContext_Free(&ctx);
    free(c.mode);
    free(rinfo);
    return 0;
}
