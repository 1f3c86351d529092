/* idals.c - the integrator's linear solvers: SUNDIALS' dense LU for small
 * systems, KLU for big ones. Each makes IDA's matrix and solver over a
 * pattern and fills the matrix from the Jacobian entries (eval.c); the
 * choice is made once per integrator (fl_ida_ls_for), so that neither the
 * integrator nor the groups branch on it. */
#include <math.h>
#include <string.h>

#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "sim.h"

static int all_finite(const double *v, int n)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(v[k])) return 0;
    return 1;
}

/* ---- dense -------------------------------------------------------------- */

static int dense_make(fl_sim *s, fl_ida *I, int n, const fl_csc *pat)
{
    (void)pat;
    /* the Jacobian's values in pattern order, scattered into the matrix */
    if (!s->jdata) s->jdata = fl_xcalloc((size_t)(s->sys->jpat.nnz ? s->sys->jpat.nnz : 1), sizeof(double));
    I->A = SUNDenseMatrix(n, n, s->ctx);
    I->LS = I->A ? SUNLinSol_Dense(I->yv, I->A, s->ctx) : NULL;
    return I->A && I->LS ? 0 : -1;
}

static int dense_fill(fl_sim *s, SUNMatrix J, const fl_csc *p, double t, double cj, const double *y, const double *yp)
{
    memset(s->jdata, 0, sizeof(double) * (size_t)p->nnz);
    fl_eval_jacobian_ida(s, t, cj, y, yp, s->jdata);
    fl_dense_from_pattern(J, p, s->jdata);
    return all_finite(s->jdata, p->nnz) ? 0 : 1;
}

/* ---- KLU ---------------------------------------------------------------- */

/* SUNMatZero for the Jacobian in KLU's matrix: the values only. The
 * pattern is the system's and never changes; SUNDIALS' own zero (built
 * without optimisation in Debian) clears the index arrays too, which
 * would have to be restored at every linear-solver setup. */
static int sparse_zero_values(SUNMatrix A)
{
    memset(SM_DATA_S(A), 0, sizeof(realtype) * (size_t)SM_NNZ_S(A));
    return 0;
}

/* A factorisation afresh, SUNDIALS' KLU solver's first one, made here:
 * - IDA re-initialises its linear solver at every restart (IDAReInit,
 *   after each event), and SUNDIALS' KLU would then analyse the pattern
 *   again: a fill-reducing ordering whose workspace sits next to the old
 *   factors (30 MB at 10^5 wagons) and the cost of an ordering per event.
 *   The pattern is the system's and never changes, and the analysis reads
 *   nothing else: a restart factorises afresh (new pivots, as SUNDIALS
 *   would) over the first analysis, which gives the same factors.
 * - the pages the analysis's workspace or the old factors touched go back
 *   to the system before the new factors touch theirs: freed, they would
 *   stay resident beside them (10 MB at 10^5 wagons, the run's peak). Only
 *   for a big matrix (FL_TRIM_NNZ entries): a trim walks the whole heap,
 *   which a model with many events and small factors would pay at each.
 * Later setups refactor, as SUNDIALS' own. */
#define FL_TRIM_NNZ 32768
static int klu_setup(SUNLinearSolver S, SUNMatrix A)
{
    SUNLinearSolverContent_KLU c = S->content;
    if (!c->first_factorize) return SUNLinSolSetup_KLU(S, A);
    if (!c->symbolic) {
        c->symbolic = sun_klu_analyze(SM_NP_S(A), SM_INDEXPTRS_S(A), SM_INDEXVALS_S(A), &c->common);
        if (!c->symbolic) return c->last_flag = SUNLS_PACKAGE_FAIL_UNREC;
    }
    if (c->numeric) sun_klu_free_numeric(&c->numeric, &c->common);
    if (SM_NNZ_S(A) >= FL_TRIM_NNZ) fl_heap_trim();
    c->numeric = sun_klu_factor(SM_INDEXPTRS_S(A), SM_INDEXVALS_S(A), SM_DATA_S(A), c->symbolic, &c->common);
    c->last_flag = c->numeric ? SUNLS_SUCCESS : SUNLS_PACKAGE_FAIL_UNREC;
    if (c->numeric) c->first_factorize = 0;
    return c->last_flag;
}

static int klu_make(fl_sim *s, fl_ida *I, int n, const fl_csc *pat)
{
    I->A = SUNSparseMatrix(n, n, pat->nnz ? pat->nnz : 1, CSC_MAT, s->ctx);
    if (!I->A) fl_fail_oom(sizeof(double) * (size_t)pat->nnz);
    sunindextype *ip = SM_INDEXPTRS_S(I->A), *iv = SM_INDEXVALS_S(I->A);
    for (int j = 0; j <= n; j++) ip[j] = pat->colptr[j];
    for (int k = 0; k < pat->nnz; k++) iv[k] = pat->rowind[k];
    I->A->ops->zero = sparse_zero_values;
    I->LS = SUNLinSol_KLU(I->yv, I->A, s->ctx);
    /* AMD ordering (the patterns are structurally symmetric): KLU then
     * knows the size of the factors instead of reserving 10 x nnz */
    if (I->LS) SUNLinSol_KLUSetOrdering(I->LS, 0);
    if (I->LS) I->LS->ops->setup = klu_setup; /* (its ops are its own) */
    return I->LS ? 0 : -1;
}

static int klu_fill(fl_sim *s, SUNMatrix J, const fl_csc *p, double t, double cj, const double *y, const double *yp)
{
    /* IDA zeroes the matrix before calling us; a zero other than
     * sparse_zero_values may have cleared the pattern: restore it */
    sunindextype *ip = SM_INDEXPTRS_S(J), *iv = SM_INDEXVALS_S(J);
    if (J->ops->zero != sparse_zero_values || ip[p->ncol] != p->nnz) {
        for (int j = 0; j <= p->ncol; j++) ip[j] = p->colptr[j];
        for (int k = 0; k < p->nnz; k++) iv[k] = p->rowind[k];
    }
    fl_eval_jacobian_ida(s, t, cj, y, yp, SM_DATA_S(J)); /* IDA zeroed its values */
    return all_finite(SM_DATA_S(J), p->nnz) ? 0 : 1;
}

static const fl_ida_ls dense_ls = {"dense", dense_make, dense_fill};
static const fl_ida_ls klu_ls = {"klu", klu_make, klu_fill};

const fl_ida_ls *fl_ida_ls_for(int klu)
{
    return klu ? &klu_ls : &dense_ls;
}
