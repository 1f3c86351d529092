/* integrate.c - the run: initialisation, the IDA integration loop with time
 * events (stop times), state events (root finding), event iteration and
 * restart, and output on the Interval grid plus both sides of every event. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ida/ida.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "sim.h"

#define FL_MAX_EVENT_ITER 50

fl_sim *fl_sim_new(const fl_system *sys, fl_diag *d)
{
    if (!sys) return NULL;
    fl_sim *s = fl_xcalloc(1, sizeof *s);
    s->sys = sys;
    if (SUNContext_Create(NULL, &s->ctx)) {
        fl_err(d, fl_noloc, "cannot create a SUNDIALS context");
        free(s);
        return NULL;
    }
    size_t n = (size_t)(sys->n ? sys->n : 1);
    s->par = fl_xmalloc(sizeof(double) * (size_t)(sys->npar ? sys->npar : 1));
    if (sys->npar) memcpy(s->par, sys->par, sizeof(double) * (size_t)sys->npar);
    s->mode = fl_xcalloc((size_t)(sys->nmodes ? sys->nmodes : 1), sizeof(int));
    s->rs = fl_xcalloc((size_t)(sys->nreal ? sys->nreal : 1), sizeof(double));
    s->bminv = fl_xcalloc((size_t)(sys->nbodies ? sys->nbodies : 1), sizeof(double));
    s->bvi = fl_xcalloc((size_t)(sys->nbodies ? sys->nbodies : 1), sizeof(int));
    for (int b = 0; b < sys->nbodies; b++) {
        const fl_body *bd = &sys->bodies[b];
        s->bminv[b] = bd->kind == B_FREE ? 1 / bd->mass : (bd->kind == B_MLV || bd->kind == B_MLQ) ? NAN : 0;
        s->bvi[b] = bd->vi;
    }
    size_t nb = (size_t)(sys->nbodies ? sys->nbodies : 1);
    s->bq = fl_xcalloc(nb, sizeof(double));
    s->bv = fl_xcalloc(nb, sizeof(double));
    s->ba = fl_xcalloc(nb, sizeof(double));
    s->qoff = fl_xcalloc(nb, sizeof(double));
    size_t ns = (size_t)(sys->nsig ? sys->nsig : 1);
    s->u = fl_xcalloc(ns, sizeof(double));
    s->du = fl_xcalloc(ns, sizeof(double));
    s->ddu = fl_xcalloc(ns, sizeof(double));
    s->drv = fl_xcalloc((size_t)(sys->ndrv ? sys->ndrv : 1), sizeof(fl_drv_out));
    s->f = fl_xcalloc((size_t)(2 * sys->nelem + 1), sizeof(double));
    s->jloc = fl_xcalloc((size_t)(sys->njloc ? sys->njloc : 1), sizeof(double));
    s->res = fl_xcalloc(n, sizeof(double));
    s->jdata = fl_xcalloc((size_t)(sys->jpat.nnz ? sys->jpat.nnz : 1), sizeof(double));
    s->y = fl_xcalloc(n, sizeof(double));
    s->yp = fl_xcalloc(n, sizeof(double));
    s->ypol = fl_xcalloc(n, sizeof(double));
    s->yo = fl_xcalloc(n, sizeof(double));
    s->ypo = fl_xcalloc(n, sizeof(double));
    s->nodeE = fl_xcalloc((size_t)(sys->nnodes ? sys->nnodes : 1), sizeof(double));
    s->linkf = fl_xcalloc((size_t)(2 * sys->nlinks + 1), sizeof(double));
    s->rootf = fl_xcalloc((size_t)(sys->nroots_r ? sys->nroots_r : 1), sizeof(double));
    s->portf = fl_xcalloc((size_t)(sys->nports ? sys->nports : 1), sizeof(double));
    s->vals = fl_xcalloc((size_t)(sys->nvars ? sys->nvars : 1), sizeof(double));
    s->g = fl_xcalloc((size_t)(sys->nroot_fns ? sys->nroot_fns : 1), sizeof(double));
    s->rootdir = fl_xcalloc((size_t)(sys->nroot_fns ? sys->nroot_fns : 1), sizeof(int));
    s->t_left = NAN;
    return s;
}

static void free_integrator(fl_sim *s)
{
    if (s->ida) IDAFree(&s->ida);
    if (s->LS) SUNLinSolFree(s->LS);
    if (s->A) SUNMatDestroy(s->A);
    if (s->yv) N_VDestroy(s->yv);
    if (s->ypv) N_VDestroy(s->ypv);
    if (s->atol) N_VDestroy(s->atol);
    s->ida = NULL;
    s->LS = NULL;
    s->A = NULL;
    s->yv = s->ypv = s->atol = NULL;
    fl_linsys_free(&s->init_ls);
    fl_linsys_free(&s->reinit_ls);
}

void fl_sim_free(fl_sim *s)
{
    if (!s) return;
    free_integrator(s);
    free(s->par);
    free(s->mode);
    free(s->rs);
    free(s->bminv);
    free(s->bvi);
    free(s->bq);
    free(s->bv);
    free(s->ba);
    free(s->qoff);
    free(s->u);
    free(s->du);
    free(s->ddu);
    free(s->drv);
    free(s->f);
    free(s->jloc);
    free(s->res);
    free(s->jdata);
    free(s->y);
    free(s->yp);
    free(s->ypol);
    free(s->yo);
    free(s->ypo);
    free(s->nodeE);
    free(s->linkf);
    free(s->rootf);
    free(s->portf);
    free(s->vals);
    free(s->g);
    free(s->rootdir);
    SUNContext_Free(&s->ctx);
    free(s);
}

fl_sim_opts fl_sim_default_opts(const fl_system *sys)
{
    fl_sim_opts o;
    memset(&o, 0, sizeof o);
    fl_experiment e = sys ? sys->exp : (fl_experiment){0, 1, 0.002, 1e-6};
    o.start_time = e.start_time;
    o.stop_time = e.stop_time;
    o.interval = e.interval > 0 ? e.interval : (e.stop_time - e.start_time) / 500;
    o.tolerance = e.tolerance > 0 ? e.tolerance : 1e-6;
    o.solver = FL_SOLVER_AUTO;
    return o;
}

double fl_sim_value(const fl_sim *s, int i)
{
    if (!s || i < 0 || i >= s->sys->nvars || !s->have_values) return NAN;
    return s->vals[i];
}

fl_stats fl_sim_stats(const fl_sim *s)
{
    fl_stats st;
    memset(&st, 0, sizeof st);
    if (s) st = s->stats;
    return st;
}

/* ---- IDA callbacks ------------------------------------------------------ */

static int ida_res(realtype t, N_Vector y, N_Vector yp, N_Vector r, void *user)
{
    fl_sim *s = user;
    return fl_eval_residual(s, t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), N_VGetArrayPointer(r));
}

static int ida_jac(realtype t, realtype cj, N_Vector y, N_Vector yp, N_Vector r, SUNMatrix J, void *user,
                   N_Vector t1, N_Vector t2, N_Vector t3)
{
    fl_sim *s = user;
    const fl_csc *p = &s->sys->jpat;
    FL_UNUSED(r);
    FL_UNUSED(t1);
    FL_UNUSED(t2);
    FL_UNUSED(t3);
    if (s->use_klu) {
        /* IDA zeroes the matrix before calling us, and for sparse matrices
         * that also clears the pattern: restore it */
        sunindextype *ip = SM_INDEXPTRS_S(J), *iv = SM_INDEXVALS_S(J);
        for (int j = 0; j <= p->ncol; j++) ip[j] = p->colptr[j];
        for (int k = 0; k < p->nnz; k++) iv[k] = p->rowind[k];
        fl_eval_jacobian(s, t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), SM_DATA_S(J), NULL, NULL);
    } else {
        fl_eval_jacobian(s, t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), s->jdata, NULL, NULL);
        SUNMatZero(J);
        for (int j = 0; j < p->ncol; j++)
            for (int k = p->colptr[j]; k < p->colptr[j + 1]; k++) SM_ELEMENT_D(J, p->rowind[k], j) = s->jdata[k];
    }
    for (int k = 0; k < p->nnz; k++)
        if (!isfinite(s->use_klu ? SM_DATA_S(J)[k] : s->jdata[k])) return 1;
    return 0;
}

static int ida_root(realtype t, N_Vector y, N_Vector yp, realtype *g, void *user)
{
    fl_sim *s = user;
    fl_eval_roots(s, t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), g);
    return 0;
}

static void ida_err(int code, const char *module, const char *function, char *msg, void *user)
{
    fl_sim *s = user;
    FL_UNUSED(module);
    FL_UNUSED(function);
    if (code < 0) snprintf(s->ida_msg, sizeof s->ida_msg, "%s", msg);
}

static int setup_integrator(fl_sim *s, double t0, double rtol)
{
    const fl_system *sys = s->sys;
    int n = sys->n;
    s->yv = N_VNew_Serial(n, s->ctx);
    s->ypv = N_VNew_Serial(n, s->ctx);
    s->atol = N_VNew_Serial(n, s->ctx);
    memcpy(N_VGetArrayPointer(s->yv), s->y, sizeof(double) * (size_t)n);
    memcpy(N_VGetArrayPointer(s->ypv), s->yp, sizeof(double) * (size_t)n);
    double *at = N_VGetArrayPointer(s->atol);
    for (int i = 0; i < n; i++) at[i] = rtol * sys->nominal[i];
    s->ida = IDACreate(s->ctx);
    if (!s->ida) return -1;
    if (IDASetErrHandlerFn(s->ida, ida_err, s)) return -1;
    if (IDAInit(s->ida, ida_res, t0, s->yv, s->ypv)) return -1;
    if (IDASVtolerances(s->ida, rtol, s->atol)) return -1;
    if (IDASetUserData(s->ida, s)) return -1;
    N_Vector id = N_VNew_Serial(n, s->ctx);
    double *idp = N_VGetArrayPointer(id);
    for (int i = 0; i < n; i++) idp[i] = sys->id[i] ? 1.0 : 0.0;
    int rc = IDASetId(s->ida, id);
    N_VDestroy(id);
    if (rc) return -1;
    if (s->use_klu) {
        s->A = SUNSparseMatrix(n, n, sys->jpat.nnz ? sys->jpat.nnz : 1, CSC_MAT, s->ctx);
        sunindextype *ip = SM_INDEXPTRS_S(s->A), *iv = SM_INDEXVALS_S(s->A);
        for (int j = 0; j <= n; j++) ip[j] = sys->jpat.colptr[j];
        for (int k = 0; k < sys->jpat.nnz; k++) iv[k] = sys->jpat.rowind[k];
        s->LS = SUNLinSol_KLU(s->yv, s->A, s->ctx);
    } else {
        s->A = SUNDenseMatrix(n, n, s->ctx);
        s->LS = SUNLinSol_Dense(s->yv, s->A, s->ctx);
    }
    if (!s->A || !s->LS) return -1;
    if (IDASetLinearSolver(s->ida, s->LS, s->A)) return -1;
    if (IDASetJacFn(s->ida, ida_jac)) return -1;
    if (IDASetMaxNumSteps(s->ida, 20000)) return -1;
    if (sys->nroot_fns) {
        if (IDARootInit(s->ida, sys->nroot_fns, ida_root)) return -1;
        IDASetNoInactiveRootWarn(s->ida);
    }
    return 0;
}

/* Name of the unknown with the largest weighted local error (where the
 * integrator is struggling), for failure messages. */
static const char *worst_component(fl_sim *s)
{
    const fl_system *sys = s->sys;
    if (!s->ida || sys->n == 0) return NULL;
    N_Vector ele = N_VNew_Serial(sys->n, s->ctx), w = N_VNew_Serial(sys->n, s->ctx);
    const char *name = NULL;
    if (IDAGetEstLocalErrors(s->ida, ele) == 0 && IDAGetErrWeights(s->ida, w) == 0) {
        double *e = N_VGetArrayPointer(ele), *wt = N_VGetArrayPointer(w), best = -1;
        for (int i = 0; i < sys->n; i++) {
            double v = fabs(e[i] * wt[i]);
            if (v > best) {
                best = v;
                name = sys->unk_name[i];
            }
        }
    }
    N_VDestroy(ele);
    N_VDestroy(w);
    return name;
}

/* ---- output ------------------------------------------------------------- */

typedef struct runctx {
    fl_output_fn fn;
    void *user;
    int stopped;
} runctx;

static int emit(fl_sim *s, runctx *rc, double t, const double *y, const double *yp)
{
    const fl_system *sys = s->sys;
    if (sys->n > sys->nd) {
        /* Interpolated algebraic unknowns (massless nodes) violate their
         * force balance by the interpolation error: re-solve them, with the
         * states as interpolated, so that outputs are consistent. */
        memcpy(s->yo, y, sizeof(double) * (size_t)sys->n);
        memcpy(s->ypo, yp, sizeof(double) * (size_t)sys->n);
        fl_diag *saved = s->diag;
        s->diag = NULL;
        if (fl_solve_consistent(s, t, s->yo, s->ypo) == 0) {
            y = s->yo;
            yp = s->ypo;
        }
        s->diag = saved;
    }
    fl_eval_outputs(s, t, y, yp);
    s->have_values = 1;
    for (int i = 0; i < sys->nvars; i++) {
        if (!isfinite(s->vals[i])) {
            fl_err(s->diag, fl_noloc, "the solution is not finite at t = %.9g: %s = %g", t, sys->vars[i].name,
                   s->vals[i]);
            return -1;
        }
    }
    s->stats.outputs++;
    if (rc->fn) {
        int r = rc->fn(rc->user, t, s->vals, sys->nvars);
        if (r) {
            rc->stopped = r;
            return -1;
        }
    }
    return 0;
}

/* Event iteration at t: update discrete states until nothing changes,
 * re-solving the continuous equations in between. */
static int event_iteration(fl_sim *s, double t, const int *dir, int force_resolve)
{
    const fl_system *sys = s->sys;
    /* inputs may have jumped (time events): make the continuous part
     * consistent before the discrete states look at it */
    if (force_resolve && fl_solve_consistent(s, t, s->y, s->yp)) return -1;
    for (int iter = 0; sys->nmodes || sys->nreal; iter++) {
        if (iter >= FL_MAX_EVENT_ITER) {
            fl_err(s->diag, fl_noloc,
                   "event iteration at t = %.9g did not settle after %d passes: the modes of the "
                   "friction/contact elements have no consistent combination",
                   t, FL_MAX_EVENT_ITER);
            return -1;
        }
        /* the crossings of this instant keep deciding their relations */
        if (!fl_event_update(s, t, s->y, s->yp, dir)) break;
        if (fl_solve_consistent(s, t, s->y, s->yp)) return -1;
    }
    return 0;
}

/* IDA's counters restart at every IDAReInit: add them up before. */
static void collect_stats(fl_sim *s)
{
    if (!s->ida) return;
    long v;
    if (IDAGetNumSteps(s->ida, &v) == 0) s->stats.steps += v;
    if (IDAGetNumResEvals(s->ida, &v) == 0) s->stats.res_evals += v;
    if (IDAGetNumJacEvals(s->ida, &v) == 0) s->stats.jac_evals += v;
    if (IDAGetNumLinSolvSetups(s->ida, &v) == 0) s->stats.lin_setups += v;
    if (IDAGetNumErrTestFails(s->ida, &v) == 0) s->stats.err_test_fails += v;
    if (IDAGetNumNonlinSolvConvFails(s->ida, &v) == 0) s->stats.nonlin_conv_fails += v;
}

static int restart(fl_sim *s, double t)
{
    int n = s->sys->n;
    collect_stats(s);
    memcpy(N_VGetArrayPointer(s->yv), s->y, sizeof(double) * (size_t)n);
    memcpy(N_VGetArrayPointer(s->ypv), s->yp, sizeof(double) * (size_t)n);
    return IDAReInit(s->ida, t, s->yv, s->ypv);
}

static int check_opts(const fl_sim_opts *o, fl_diag *d)
{
    if (!(isfinite(o->start_time) && isfinite(o->stop_time)) || o->stop_time <= o->start_time) {
        fl_err(d, fl_noloc, "the stop time (%g) must be greater than the start time (%g)", o->stop_time, o->start_time);
        return -1;
    }
    if (!(o->interval > 0) || !isfinite(o->interval)) {
        fl_err(d, fl_noloc, "the output interval must be positive (got %g)", o->interval);
        return -1;
    }
    if ((o->stop_time - o->start_time) / o->interval > 1e8) {
        fl_err(d, fl_noloc, "the output interval %g gives more than 1e8 output points", o->interval);
        return -1;
    }
    if (!(o->tolerance > 0 && o->tolerance < 1)) {
        fl_err(d, fl_noloc, "the tolerance must be between 0 and 1 (got %g)", o->tolerance);
        return -1;
    }
    if (o->solver < FL_SOLVER_AUTO || o->solver > FL_SOLVER_KLU) {
        fl_err(d, fl_noloc, "unknown linear solver %d", o->solver);
        return -1;
    }
    return 0;
}

static int fail_solver(fl_sim *s, double t, int flag)
{
    const char *who = worst_component(s);
    fl_err(s->diag, fl_noloc, "the solver failed at t = %.9g%s%s: %s (IDA flag %d)", t, who ? " in " : "",
           who ? who : "", s->ida_msg[0] ? s->ida_msg : "no further detail", flag);
    return -1;
}

int fl_sim_run(fl_sim *s, const fl_sim_opts *o, fl_output_fn fn, void *user, fl_diag *d)
{
    if (!s || !o) return -1;
    const fl_system *sys = s->sys;
    if (check_opts(o, d)) return -1;
    free_integrator(s);
    s->diag = d;
    s->ida_msg[0] = '\0';
    memset(&s->stats, 0, sizeof s->stats);
    s->use_klu = o->solver == FL_SOLVER_KLU || (o->solver == FL_SOLVER_AUTO && sys->linsolver == FL_SOLVER_KLU);
    s->stats.linear_solver = s->use_klu ? "klu" : "dense";
    s->rtol = o->tolerance;
    s->have_values = 0;
    memset(s->mode, 0, sizeof(int) * (size_t)(sys->nmodes ? sys->nmodes : 1));
    memset(s->rs, 0, sizeof(double) * (size_t)(sys->nreal ? sys->nreal : 1));
    s->impact_loss = 0;
    s->contact_events = !o->no_contact_events;
    memset(s->y, 0, sizeof(double) * (size_t)(sys->n ? sys->n : 1));
    memset(s->yp, 0, sizeof(double) * (size_t)(sys->n ? sys->n : 1));
    runctx rc = {fn, user, 0};
    double t0 = o->start_time, tend = o->stop_time, h = o->interval;
    int ret = -1;

    /* initialisation, then the initial event iteration */
    s->t_left = NAN;
    memset(s->qoff, 0, sizeof(double) * (size_t)(sys->nbodies ? sys->nbodies : 1));
    fl_init_modes(s, t0, s->y, s->yp);
    if (fl_solve_initial(s, t0, s->y, s->yp)) goto out;
    for (int b = 0; b < sys->nbodies; b++) {
        int qi = sys->bodies[b].qi;
        if (qi < 0) continue;
        s->qoff[b] += s->y[qi];
        s->y[qi] = 0;
    }
    fl_start_elements(s, t0, s->y, s->yp);
    if (event_iteration(s, t0, NULL, 0)) goto out;
    if (emit(s, &rc, t0, s->y, s->yp)) goto out;

    long kgrid = 1;
    double t = t0;
    if (sys->n && setup_integrator(s, t0, o->tolerance)) {
        fl_err(d, fl_noloc, "cannot set up the IDA integrator%s%s", s->ida_msg[0] ? ": " : "", s->ida_msg);
        goto out;
    }
    while (t < tend) {
        double tout = t0 + (double)kgrid * h;
        if (tout > tend || tend - tout < 1e-9 * h) tout = tend;
        double te = fl_next_time_event(s, t);
        /* a discontinuity exactly at the stop time is not processed: the run
         * ends with the values just before it */
        int time_event = te < tend && te <= tout;
        double target = time_event ? te : tout;
        /* up to the next breakpoint, signals there are left limits */
        s->t_left = te <= tend ? te : NAN;
        int flag = 0;
        double tret = target;
        if (sys->n) {
            /* stop exactly at time events and at the end; output points
             * are interpolated without restricting the step size */
            IDASetStopTime(s->ida, fmin(te, tend));
            for (;;) {
                flag = IDASolve(s->ida, target, &tret, s->yv, s->ypv, IDA_NORMAL);
                if (flag != IDA_TOO_MUCH_WORK) break;
                if (!(tret > t)) break; /* no progress at all */
                t = tret;
            }
            memcpy(s->y, N_VGetArrayPointer(s->yv), sizeof(double) * (size_t)sys->n);
            memcpy(s->yp, N_VGetArrayPointer(s->ypv), sizeof(double) * (size_t)sys->n);
            if (flag < 0) {
                fail_solver(s, tret, flag);
                goto out;
            }
        }
        if (flag == IDA_ROOT_RETURN) {
            /* state event: values just before, event iteration, values after */
            t = tret;
            s->stats.state_events++;
            if (IDAGetRootInfo(s->ida, s->rootdir)) goto out;
            if (emit(s, &rc, t, s->y, s->yp)) goto out;
            if (event_iteration(s, t, s->rootdir, 1)) goto out;
            if (emit(s, &rc, t, s->y, s->yp)) goto out;
            if (restart(s, t)) goto out;
            if (tout - t < 1e-12 * fmax(1.0, fabs(t))) kgrid++;
            continue;
        }
        t = target;
        if (time_event) {
            /* left limit, event iteration with the right limit, values after */
            s->stats.time_events++;
            if (emit(s, &rc, t, s->y, s->yp)) goto out;
            s->t_left = NAN;
            if (event_iteration(s, t, NULL, 1)) goto out;
            if (emit(s, &rc, t, s->y, s->yp)) goto out;
            if (sys->n && restart(s, t)) goto out;
            if (te == tout) kgrid++;
        } else {
            if (emit(s, &rc, t, s->y, s->yp)) goto out;
            kgrid++;
        }
    }
    ret = 0;
out:
    collect_stats(s);
    s->diag = NULL;
    if (rc.stopped && ret) return rc.stopped;
    return ret;
}
