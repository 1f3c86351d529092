/* test_linsys.c - the (re-)initialisation's linear systems (src/sim/linsys.c)
 * on small matrices with known solutions, both backends: a factorisation
 * and its solve; new values on the same pattern (KLU refactors with the
 * pivot order it had); the factors released and made again; no solve
 * without factors; a singular matrix refused (the dense LU naming the
 * column). And refactorisations whose old pivot order has gone bad (a
 * tiny pivot, a zero one): KLU must factor afresh, or the solution is
 * wrong in its first digit, or refused. A diagonal pattern: quotients,
 * bit for bit those of both LUs, and nothing held. The integrator's KLU
 * after a restart (IDAReInit): factored afresh over the ordering it had. */
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "check.h"
#include "flange.h"
#include "sim/sim.h"

/* [[a, b], [c, d]] over the full 2 x 2 pattern, CSC order (a, c, b, d) */
static int colptr2[] = {0, 2, 4}, rowind2[] = {0, 1, 0, 1};
static const fl_csc pat2 = {2, 2, 4, colptr2, rowind2};

static void set2(fl_linsys *ls, double a, double b, double c, double d)
{
    ls->data[0] = a;
    ls->data[1] = c;
    ls->data[2] = b;
    ls->data[3] = d;
}

/* A 4 x 4 tridiagonal, unsymmetric: the solution of A x = b is x = (1, 2, 3, 4) */
static int colptr4[] = {0, 2, 5, 8, 10}, rowind4[] = {0, 1, 0, 1, 2, 1, 2, 3, 2, 3};
static const fl_csc pat4 = {4, 4, 10, colptr4, rowind4};

static void check_backend(fl_sim *s, int klu)
{
    s->use_klu = klu;
    fl_linsys ls;
    CHECK(fl_linsys_init(s, &ls, &pat4) == 0);
    CHECK(fl_linsys_ready(&ls));
    /* columns: (4, -1), (2, 5, 1), (-1, 6, 2), (3, 7) */
    const double v[] = {4, -1, 2, 5, 1, -1, 6, 2, 3, 7};
    memcpy(ls.data, v, sizeof v);
    const double xs[] = {1, 2, 3, 4};
    double b[4] = {0, 0, 0, 0}, x[4];
    for (int j = 0; j < 4; j++)
        for (int k = colptr4[j]; k < colptr4[j + 1]; k++) b[rowind4[k]] += v[k] * xs[j];
    CHECK(fl_linsys_factor(&ls) == 0);
    CHECK(fl_linsys_solve(&ls, b, x) == 0);
    for (int i = 0; i < 4; i++) CHECK_NEAR(x[i], xs[i], 1e-14);
    /* new values, same pattern: twice the matrix solves for half the x */
    for (int k = 0; k < 10; k++) ls.data[k] = 2 * v[k];
    CHECK(fl_linsys_factor(&ls) == 0);
    CHECK(fl_linsys_solve(&ls, b, x) == 0);
    for (int i = 0; i < 4; i++) CHECK_NEAR(x[i], xs[i] / 2, 1e-14);
    /* released (KLU: the factors go, the ordering stays), then made again */
    fl_linsys_release(&ls);
    if (klu) CHECK(fl_linsys_solve(&ls, b, x) == -1);
    memcpy(ls.data, v, sizeof v);
    CHECK(fl_linsys_factor(&ls) == 0);
    memcpy(x, b, sizeof x);
    CHECK(fl_linsys_solve(&ls, x, x) == 0); /* (in place) */
    for (int i = 0; i < 4; i++) CHECK_NEAR(x[i], xs[i], 1e-14);
    /* singular: column 3 zero */
    memcpy(ls.data, v, sizeof v);
    ls.data[5] = ls.data[6] = ls.data[7] = 0;
    int f = fl_linsys_factor(&ls);
    if (klu) CHECK(f == -1);
    else CHECK(f == 3);
    fl_linsys_free(&ls);
    CHECK(!fl_linsys_ready(&ls));
}

/* [[d, 1], [1, 1]] x = (1, 2): x1 = 1 / (1 - d), x2 = (1 - 2 d) / (1 - d).
 * Factored at d = 2 (the diagonal pivots), then refactored at d = 1e-20:
 * with the old pivot order x1 comes out 0. */
static void check_refactor_condition(fl_sim *s)
{
    s->use_klu = 1;
    fl_linsys ls;
    CHECK(fl_linsys_init(s, &ls, &pat2) == 0);
    double b[2] = {1, 2}, x[2];
    set2(&ls, 2, 1, 1, 1);
    CHECK(fl_linsys_factor(&ls) == 0);
    CHECK(fl_linsys_solve(&ls, b, x) == 0);
    CHECK_NEAR(x[0], -1, 1e-15);
    CHECK_NEAR(x[1], 3, 1e-15);
    double d = 1e-20;
    set2(&ls, d, 1, 1, 1);
    CHECK(fl_linsys_factor(&ls) == 0);
    CHECK(fl_linsys_solve(&ls, b, x) == 0);
    CHECK_NEAR(x[0], 1 / (1 - d), 1e-15);
    CHECK_NEAR(x[1], (1 - 2 * d) / (1 - d), 1e-15);
    /* back to the diagonal pivots, then d = 0: the old order meets a zero
     * pivot in a regular matrix */
    set2(&ls, 2, 1, 1, 1);
    CHECK(fl_linsys_factor(&ls) == 0);
    set2(&ls, 0, 1, 1, 1);
    CHECK(fl_linsys_factor(&ls) == 0);
    CHECK(fl_linsys_solve(&ls, b, x) == 0);
    CHECK_NEAR(x[0], 1, 1e-15);
    CHECK_NEAR(x[1], 1, 1e-15);
    fl_linsys_free(&ls);
}

/* diag(3, -7, 0.1) x = (1, 2, 0.3) over a diagonal pattern, and the same
 * matrix over a pattern with an explicit zero above the diagonal, which
 * the dense LU and KLU factor: the same bits. d2 = 0: singular in
 * column 2. Released, a diagonal system holds nothing; the diagonal
 * pattern without its arrays is one too. */
static int colptrd[] = {0, 1, 2, 3}, rowindd[] = {0, 1, 2};
static const fl_csc patd = {3, 3, 3, colptrd, rowindd};
static int colptru[] = {0, 1, 3, 4}, rowindu[] = {0, 0, 1, 2};
static const fl_csc patu = {3, 3, 4, colptru, rowindu};

static void check_diagonal(fl_sim *s)
{
    const double dv[] = {3, -7, 0.1}, b[] = {1, 2, 0.3};
    double xd[3], xl[3];
    for (int klu = 0; klu < 2; klu++) {
        s->use_klu = klu;
        fl_linsys ld, lu;
        CHECK(fl_linsys_init(s, &ld, &patd) == 0);
        CHECK(ld.impl == NULL); /* (no LU made) */
        memcpy(ld.data, dv, sizeof dv);
        CHECK(fl_linsys_factor(&ld) == 0);
        CHECK(fl_linsys_solve(&ld, b, xd) == 0);
        CHECK(fl_linsys_init(s, &lu, &patu) == 0);
        CHECK(lu.impl != NULL);
        const double uv[] = {3, 0, -7, 0.1};
        memcpy(lu.data, uv, sizeof uv);
        CHECK(fl_linsys_factor(&lu) == 0);
        CHECK(fl_linsys_solve(&lu, b, xl) == 0);
        for (int i = 0; i < 3; i++) {
            CHECK(xd[i] == b[i] / dv[i]);
            CHECK(memcmp(&xd[i], &xl[i], sizeof(double)) == 0);
        }
        ld.data[1] = 0;
        CHECK(fl_linsys_factor(&ld) == 2);
        /* released, it holds nothing: the next use makes it again */
        fl_linsys_release(&ld);
        CHECK(!fl_linsys_ready(&ld) && ld.data == NULL);
        fl_linsys_free(&ld);
        fl_linsys_release(&lu); /* (KLU's ordering and the dense LU kept) */
        CHECK(fl_linsys_ready(&lu));
        fl_linsys_free(&lu);
    }
    /* the diagonal pattern kept as its size alone (a compiled system's
     * rpat): the same quotients; a pattern that is not diagonal keeps its
     * arrays */
    fl_csc dd = {3, 3, 3, NULL, NULL}, du = {0, 0, 0, NULL, NULL};
    dd.colptr = malloc(sizeof colptrd);
    dd.rowind = malloc(sizeof rowindd);
    du = (fl_csc){3, 3, 4, malloc(sizeof colptru), malloc(sizeof rowindu)};
    memcpy(dd.colptr, colptrd, sizeof colptrd);
    memcpy(dd.rowind, rowindd, sizeof rowindd);
    memcpy(du.colptr, colptru, sizeof colptru);
    memcpy(du.rowind, rowindu, sizeof rowindu);
    fl_csc_drop_diagonal(&dd);
    fl_csc_drop_diagonal(&du);
    CHECK(dd.colptr == NULL && dd.rowind == NULL && dd.nnz == 3 && fl_csc_diagonal(&dd));
    CHECK(du.colptr != NULL && !fl_csc_diagonal(&du));
    fl_linsys lc;
    CHECK(fl_linsys_init(s, &lc, &dd) == 0 && lc.impl == NULL);
    memcpy(lc.data, dv, sizeof dv);
    CHECK(fl_linsys_factor(&lc) == 0 && fl_linsys_solve(&lc, b, xl) == 0);
    for (int i = 0; i < 3; i++) CHECK(memcmp(&xd[i], &xl[i], sizeof(double)) == 0);
    fl_linsys_free(&lc);
    fl_csc_free(&du);
}

/* IDA's KLU solver over [[a, b], [c, d]]: factored at d = 2 (diagonal
 * pivots), then restarted (SUNLinSolInitialize, as IDAReInit does) at d = 0,
 * where the old pivot order meets a zero pivot: the solution (1, 1) needs a
 * factorisation afresh, over the ordering the first one analysed. */
static void check_integrator_restart(fl_sim *s)
{
    fl_ida I;
    memset(&I, 0, sizeof I);
    I.yv = N_VNew_Serial(2, s->ctx);
    N_Vector x = N_VNew_Serial(2, s->ctx), b = N_VNew_Serial(2, s->ctx);
    CHECK(I.yv && x && b);
    if (!I.yv || !x || !b) return;
    CHECK(fl_ida_ls_for(1)->make(s, &I, 2, &pat2) == 0);
    double *a = SM_DATA_S(I.A), *xv = N_VGetArrayPointer(x), *bv = N_VGetArrayPointer(b);
    const double a1[] = {2, 1, 1, 1}, a2[] = {0, 1, 1, 1}; /* (a, c, b, d) */
    memcpy(a, a1, sizeof a1);
    bv[0] = 1, bv[1] = 2;
    CHECK(SUNLinSolInitialize(I.LS) == 0);
    CHECK(SUNLinSolSetup(I.LS, I.A) == 0);
    CHECK(SUNLinSolSolve(I.LS, I.A, x, b, 0) == 0);
    CHECK_NEAR(xv[0], -1, 1e-15);
    CHECK_NEAR(xv[1], 3, 1e-15);
    void *ordering = SUNLinSol_KLUGetSymbolic(I.LS);
    CHECK(SUNLinSolInitialize(I.LS) == 0);
    memcpy(a, a2, sizeof a2);
    CHECK(SUNLinSolSetup(I.LS, I.A) == 0);
    CHECK(SUNLinSolSolve(I.LS, I.A, x, b, 0) == 0);
    CHECK_NEAR(xv[0], 1, 1e-15);
    CHECK_NEAR(xv[1], 1, 1e-15);
    CHECK(SUNLinSol_KLUGetSymbolic(I.LS) == ordering);
    N_VDestroy(x);
    N_VDestroy(b);
    fl_ida_free(&I);
}

int main(void)
{
    /* a simulation for its SUNDIALS context */
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_new("T");
    CHECK(fl_model_add(m, "Mass", "mass", d) == 0);
    fl_system *sys = fl_compile(m, d);
    fl_sim *s = sys ? fl_sim_new(sys, d) : NULL;
    CHECK(s != NULL);
    if (s) {
        check_backend(s, 0);
        check_backend(s, 1);
        check_refactor_condition(s);
        check_diagonal(s);
        check_integrator_restart(s);
        s->use_klu = 0;
    }
    fl_sim_free(s);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
    return check_done();
}
