/* linsys.c - the linear systems of the initialisation and re-initialisation
 * Newton iterations (consistent.c): values in the order of a sparse
 * pattern, factored and solved by one of three backends, chosen once when
 * the system is made: quotients for a diagonal pattern, a dense LU
 * (SUNDIALS') for small systems, KLU for big ones.
 *
 * KLU is called directly rather than through SUNDIALS' wrapper so that the
 * numeric factors can be released between uses while the ordering (the
 * symbolic analysis, the costly part of a first factorisation) is kept: a
 * big model's re-initialisation solver would otherwise hold factors a
 * quarter the size of the integrator's through a whole run for the few
 * events that use it (fl_linsys_release). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <klu.h>
#include <sundials/sundials_math.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "sim.h"
#include "sim/nvec.h"

struct fl_linsys_ops {
    int (*factor)(fl_linsys *ls);
    int (*solve)(fl_linsys *ls, double *x); /* x holds the right-hand side */
    void (*release)(fl_linsys *ls);
    void (*free)(fl_linsys *ls);
};

/* ---- dense: SUNDIALS' LU ------------------------------------------------ */

typedef struct dense_lu {
    SUNMatrix A;
    SUNLinearSolver LS;
    N_Vector x, b;
} dense_lu;

void fl_dense_from_pattern(SUNMatrix A, const fl_csc *p, const double *v)
{
    SUNMatZero(A);
    for (int j = 0; j < p->ncol; j++)
        for (int k = p->colptr[j]; k < p->colptr[j + 1]; k++) SM_ELEMENT_D(A, p->rowind[k], j) = v[k];
}

static int dense_factor(fl_linsys *ls)
{
    dense_lu *d = ls->impl;
    fl_dense_from_pattern(d->A, ls->pat, ls->data);
    if (SUNLinSolSetup(d->LS, d->A) == 0) return 0;
    /* the LU reports the (1-based) column of the zero pivot */
    return SUNLinSolLastFlag(d->LS) > 0 ? (int)SUNLinSolLastFlag(d->LS) : -1;
}

static int dense_solve(fl_linsys *ls, double *x)
{
    dense_lu *d = ls->impl;
    memcpy(N_VGetArrayPointer(d->b), x, sizeof(double) * (size_t)ls->n);
    if (SUNLinSolSolve(d->LS, d->A, d->x, d->b, 0.0)) return -1;
    memcpy(x, N_VGetArrayPointer(d->x), sizeof(double) * (size_t)ls->n);
    return 0;
}

static void dense_release(fl_linsys *ls)
{
    (void)ls; /* small: kept */
}

static void dense_free(fl_linsys *ls)
{
    dense_lu *d = ls->impl;
    if (d->LS) SUNLinSolFree(d->LS);
    if (d->A) SUNMatDestroy(d->A);
    if (d->x) N_VDestroy(d->x);
    if (d->b) N_VDestroy(d->b);
    free(d);
}

static const struct fl_linsys_ops dense_ops = {dense_factor, dense_solve, dense_release, dense_free};

static int dense_make(fl_sim *s, fl_linsys *ls)
{
    dense_lu *d = fl_xcalloc(1, sizeof *d);
    ls->impl = d;
    ls->ops = &dense_ops;
    int n = ls->n;
    d->x = N_VNew_Serial(n, s->ctx);
    d->b = N_VNew_Serial(n, s->ctx);
    if (!d->x || !d->b) fl_fail_oom(sizeof(double) * (size_t)n); /* SUNDIALS' own allocation */
    fl_nvec_fast(d->x); /* (the solver copies b into x through them) */
    fl_nvec_fast(d->b);
    d->A = SUNDenseMatrix(n, n, s->ctx);
    d->LS = d->A ? SUNLinSol_Dense(d->x, d->A, s->ctx) : NULL;
    return !d->LS || SUNLinSolInitialize(d->LS) ? -1 : 0;
}

/* ---- sparse: KLU -------------------------------------------------------- */

typedef struct sparse_lu {
    klu_common common;
    klu_symbolic *sym; /* the ordering: kept */
    klu_numeric *num;  /* the factors: NULL after a release */
} sparse_lu;

/* A first factorisation with pivoting; later ones reuse its pivot order
 * while the factors stay well conditioned: when a pivot in that order is
 * zero, or KLU's cheap estimate (the smallest pivot against the largest)
 * falls below eps^(2/3), it factors afresh. (SUNDIALS' KLU solver asks
 * KLU's accurate estimate before that, which estimates the condition of
 * the matrix, not of the factors, and so keeps a stale pivot order whose
 * growth has ruined them: test_linsys.c has such a matrix, solved wrong in
 * its first digit that way.) */
static int sparse_factor(fl_linsys *ls)
{
    sparse_lu *k = ls->impl;
    const fl_csc *p = ls->pat;
    if (k->num) {
        if (klu_refactor(p->colptr, p->rowind, ls->data, k->sym, k->num, &k->common) &&
            klu_rcond(k->sym, k->num, &k->common) && k->common.rcond >= pow(DBL_EPSILON, 2.0 / 3.0))
            return 0;
        klu_free_numeric(&k->num, &k->common);
    }
    k->num = klu_factor(p->colptr, p->rowind, ls->data, k->sym, &k->common);
    if (!k->num && k->common.status == KLU_OUT_OF_MEMORY) fl_fail_oom(sizeof(double) * (size_t)p->nnz);
    return k->num ? 0 : -1;
}

static int sparse_solve(fl_linsys *ls, double *x)
{
    sparse_lu *k = ls->impl;
    return k->num && klu_solve(k->sym, k->num, ls->n, 1, x, &k->common) ? 0 : -1;
}

static void sparse_release(fl_linsys *ls)
{
    sparse_lu *k = ls->impl;
    if (k->num) klu_free_numeric(&k->num, &k->common);
}

static void sparse_free(fl_linsys *ls)
{
    sparse_lu *k = ls->impl;
    if (k->num) klu_free_numeric(&k->num, &k->common);
    if (k->sym) klu_free_symbolic(&k->sym, &k->common);
    free(k);
}

static const struct fl_linsys_ops sparse_ops = {sparse_factor, sparse_solve, sparse_release, sparse_free};

static int sparse_make(fl_linsys *ls)
{
    sparse_lu *k = fl_xcalloc(1, sizeof *k);
    ls->impl = k;
    ls->ops = &sparse_ops;
    klu_defaults(&k->common);
    /* AMD ordering (the patterns are structurally symmetric): KLU then
     * knows the size of the factors instead of reserving 10 x nnz */
    k->common.ordering = 0;
    k->sym = klu_analyze(ls->n, ls->pat->colptr, ls->pat->rowind, &k->common);
    if (!k->sym && k->common.status == KLU_OUT_OF_MEMORY) fl_fail_oom(sizeof(int) * (size_t)ls->pat->nnz);
    return k->sym ? 0 : -1;
}

/* ---- diagonal ----------------------------------------------------------- */

/* A re-initialisation whose every unknown is alone in its row and column
 * (each body's rates of change from its own equation: a chain of masses,
 * springs and dampers): nothing to factor or hold. KLU would keep a block
 * per unknown, 23 MB beside the integrator's factors for 10^5 wagons at
 * each event. The quotients are the ones either LU computes (KLU's row
 * scaling turns each pivot into +-1 exactly). */
static int diag_factor(fl_linsys *ls)
{
    for (int j = 0; j < ls->n; j++)
        if (ls->data[j] == 0) return j + 1; /* (the zero pivot's column, as the dense LU reports it) */
    return 0;
}

static int diag_solve(fl_linsys *ls, double *x)
{
    for (int j = 0; j < ls->n; j++) x[j] /= ls->data[j];
    return 0;
}

/* Released, a diagonal one keeps no ordering worth keeping: its values go
 * too (16 MB at 10^6 wagons), and its next use makes it again. */
static void diag_release(fl_linsys *ls)
{
    fl_linsys_free(ls);
}

static void diag_free(fl_linsys *ls)
{
    (void)ls; /* (its values are fl_linsys_free's) */
}

static const struct fl_linsys_ops diag_ops = {diag_factor, diag_solve, diag_release, diag_free};

/* ---- the interface ------------------------------------------------------ */

int fl_linsys_init(fl_sim *s, fl_linsys *ls, const fl_csc *pat)
{
    memset(ls, 0, sizeof *ls);
    ls->pat = pat;
    ls->n = pat->n;
    if (ls->n == 0) return 0;
    ls->data = fl_xcalloc((size_t)(pat->nnz ? pat->nnz : 1), sizeof(double));
    if (fl_csc_diagonal(pat)) {
        ls->ops = &diag_ops;
        return 0;
    }
    if ((s->use_klu ? sparse_make(ls) : dense_make(s, ls)) == 0) return 0;
    fl_linsys_free(ls);
    return -1;
}

int fl_linsys_ready(const fl_linsys *ls)
{
    return ls->ops != NULL;
}

int fl_linsys_factor(fl_linsys *ls)
{
    return ls->ops->factor(ls);
}

int fl_linsys_solve(fl_linsys *ls, const double *rhs, double *x)
{
    if (x != rhs) memcpy(x, rhs, sizeof(double) * (size_t)ls->n);
    if (ls->ops->solve(ls, x)) return -1;
    for (int i = 0; i < ls->n; i++)
        if (!isfinite(x[i])) return -1;
    return 0;
}

void fl_linsys_release(fl_linsys *ls)
{
    if (ls->ops) ls->ops->release(ls);
}

void fl_linsys_free(fl_linsys *ls)
{
    if (ls->ops) ls->ops->free(ls);
    free(ls->data);
    memset(ls, 0, sizeof *ls);
}
