/* integrate.c - the run: initialisation, the IDA integration loop with time
 * events (stop times), state events (root finding), event iteration and
 * restart, and output on the Interval grid plus both sides of every event. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ida/ida.h>

#include "sim.h"
#include "sim/nvec.h"
#include "sim/opts.h"

static void sim_cleanup(void *s)
{
    fl_sim_free(s);
}

FL_GUARDED(fl_sim *, fl_sim_new, (const fl_system *sys, fl_diag *d), (sys, d), NULL, d)
{
    if (!sys) return NULL;
    fl_sim *s = fl_xcalloc(1, sizeof *s);
    s->sys = sys;
    if (SUNContext_Create(NULL, &s->ctx)) {
        fl_err(d, fl_noloc, "cannot create a SUNDIALS context");
        free(s);
        return NULL;
    }
    fl_cleanup cl; /* out of memory: the simulation so far is freed */
    fl_cleanup_push(&cl, sim_cleanup, s);
    size_t n = (size_t)(sys->n ? sys->n : 1);
    s->par = sys->par; /* shared until a parameter changes (fl_sim_own_par) */
    s->elems = sys->elems;
    s->mode = fl_xcalloc((size_t)(sys->nmodes ? sys->nmodes : 1), sizeof(int));
    s->rs = fl_xcalloc((size_t)(sys->nreal ? sys->nreal : 1), sizeof(double));
    s->bminv = fl_xcalloc((size_t)(sys->nbodies ? sys->nbodies : 1), sizeof(double));
    s->bvi = fl_xcalloc((size_t)(sys->nbodies ? sys->nbodies : 1), sizeof(int));
    s->bqi = fl_xcalloc((size_t)(sys->nbodies ? sys->nbodies : 1), sizeof(int));
    s->tev = fl_xmalloc(sizeof(int) * (size_t)(sys->nelem ? sys->nelem : 1));
    s->pen_el = fl_xmalloc(sizeof(int) * (size_t)(sys->nelem ? sys->nelem : 1));
    for (int e = 0; e < sys->nelem; e++) {
        const fl_elem_ops *ops = fl_inst_ops(sys, s->elems[e].inst);
        if (ops->penetration) s->pen_el[s->npen_el++] = e;
        if (ops->next_time_event) s->tev[s->ntev++] = e;
    }
    s->tev = fl_shrink(s->tev, sizeof(int) * (size_t)(s->ntev ? s->ntev : 1));
    s->pen_el = fl_shrink(s->pen_el, sizeof(int) * (size_t)(s->npen_el ? s->npen_el : 1));
    s->pen_at = fl_xcalloc((size_t)(s->npen_el ? s->npen_el : 1), sizeof(int));
    for (int i = 0; i < sys->ninst; i++) s->maxp = FL_MAX(s->maxp, sys->insts[i].cls->nports);
    for (int b = 0; b < sys->nbodies; b++) {
        const fl_body *bd = &sys->bodies[b];
        s->bminv[b] = bd->kind == B_FREE ? (bd->mass > 0 ? 1 / bd->mass : NAN) /* zero mass: see classify_bodies */
                      : (bd->kind == B_MLV || bd->kind == B_MLQ) ? NAN
                                                                  : 0;
        s->bvi[b] = bd->vi;
        s->bqi[b] = bd->qi;
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
    s->f = fl_xcalloc((size_t)(sys->nslots + 1), sizeof(double));
    /* jloc[-1] = 1: what an entry without a local source reads (src -1) */
    s->jloc = (double *)fl_xcalloc((size_t)sys->njloc + 1, sizeof(double)) + 1;
    s->jloc[-1] = 1.0;
    s->res = fl_xcalloc(n, sizeof(double));
    s->y = fl_xcalloc(n, sizeof(double));
    s->yp = fl_xcalloc(n, sizeof(double));
    if (sys->n > sys->nd) { /* algebraic unknowns re-solved at output points (fl_run_values) */
        s->yo = fl_xcalloc(n, sizeof(double));
        s->ypo = fl_xcalloc(n, sizeof(double));
    }
    s->rootf = fl_xcalloc((size_t)(sys->nroots_r ? sys->nroots_r : 1), sizeof(double));
    s->t_left = NAN;
    fl_fast_plan(s);
    fl_cleanup_pop(&cl);
    return s;
}

void fl_free_integrator(fl_sim *s)
{
    fl_groups_free_run(s);
    if (s->ida) IDAFree(&s->ida);
    if (s->LS) SUNLinSolFree(s->LS);
    if (s->A) SUNMatDestroy(s->A);
    if (s->yv) N_VDestroy(s->yv);
    if (s->ypv) N_VDestroy(s->ypv);
    if (s->qy) N_VDestroy(s->qy);
    if (s->qyp) N_VDestroy(s->qyp);
    s->ida = NULL;
    s->LS = NULL;
    s->A = NULL;
    s->yv = s->ypv = s->qy = s->qyp = NULL;
    fl_init_ls_free(s);
    fl_linsys_free(&s->reinit_ls);
}

void fl_sim_free(fl_sim *s)
{
    if (!s) return;
    fl_free_integrator(s);
    if (s->par_own) free(s->par);
    free(s->elems_own); /* (gel too) */
    free(s->mode);
    free(s->rs);
    free(s->bminv);
    free(s->bvi);
    free(s->bqi);
    fl_outputs_free(s);
    free(s->vals);
    free(s->tev);
    free(s->pen_el);
    free(s->bodyF);
    free(s->eU);
    free(s->eloss);
    FL_VEC_FREE(s->pen);
    free(s->pen_at);
    free(s->bq);
    free(s->bv);
    free(s->ba);
    free(s->qoff);
    free(s->u);
    free(s->du);
    free(s->ddu);
    free(s->drv);
    fl_fast_plan_free(s);
    free(s->f);
    if (s->jloc) free(s->jloc - 1);
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
    free(s->g);
    free(s->rootdir);
    free(s->run.z_ref);
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
    if (s->vals) return s->vals[i];
    int j = fl_lower_bound(s->osort, s->nout_vars, 2 * sizeof(int), 0, i); /* (variable, k) pairs */
    return j < s->nout_vars && s->osort[2 * j] == i ? s->cvals[s->osort[2 * j + 1]] : NAN;
}

void fl_sim_full_values(fl_sim *s, double fill)
{
    const fl_system *sys = s->sys;
    if (!s->vals) s->vals = fl_xcalloc((size_t)(sys->nvars ? sys->nvars : 1), sizeof(double));
    for (int v = 0; fill != 0 && v < sys->nvars; v++) s->vals[v] = fill;
}

fl_stats fl_sim_stats(const fl_sim *s)
{
    fl_stats st;
    memset(&st, 0, sizeof st);
    if (s) st = s->stats;
    /* a run taken in steps: IDA's counters since its last restart too */
    if (s && s->run.kind == FL_RUN_CS) fl_add_ida_stats(s, &st);
    return st;
}

/* ---- IDA callbacks ------------------------------------------------------ */

static int ida_res(realtype t, N_Vector y, N_Vector yp, N_Vector r, void *user)
{
    fl_sim *s = user;
    return fl_eval_residual_ida(s, t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), N_VGetArrayPointer(r));
}

static int ida_jac(realtype t, realtype cj, N_Vector y, N_Vector yp, N_Vector r, SUNMatrix J, void *user,
                   N_Vector t1, N_Vector t2, N_Vector t3)
{
    fl_sim *s = user;
    FL_UNUSED(r);
    FL_UNUSED(t1);
    FL_UNUSED(t2);
    FL_UNUSED(t3);
    return s->ida_ls->fill(s, J, &s->sys->jpat, t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp));
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

/* Unknown i's absolute tolerance: IDA's (fl_ida_create gives it these),
 * and the first step's weights. */
static double abs_tol(const fl_sim *s, int i)
{
    return s->rtol * s->sys->nominal[i];
}

/* The first step after a (re)start: IDA's own rule (a thousandth of the
 * distance to the stop time, shortened where the derivatives are large),
 * but no longer than the output interval: a system at rest whose
 * algebraic variables follow an input (a stuck friction element under a
 * sine force) would otherwise alias the input over giant steps. */
double fl_first_step(const fl_sim *s, int n, const int *u, double t)
{
    double sum = 0;
    for (int k = 0; k < n; k++) {
        int i = u ? u[k] : k;
        double w = s->yp[i] / (s->rtol * fabs(s->y[i]) + abs_tol(s, i));
        sum += w * w;
    }
    double norm = sqrt(sum / n), h = 1e-3 * (s->t_end - t);
    if (norm > 0.5 / h) h = 0.5 / norm;
    return fmin(h, s->h_out);
}

static double first_step(const fl_sim *s, double t)
{
    return fl_first_step(s, s->sys->n, NULL, t);
}

/* Contacts stepped through keep constant root functions: a run whose only
 * roots are theirs needs no root finding (an O(n) check every step). */
static int roots_active(const fl_sim *s)
{
    const fl_system *sys = s->sys;
    if (s->contact_events) return 1;
    for (int g = 0; g < sys->negroups; g++) {
        const fl_elem_ops *ops = sys->egroups[g].ops;
        if (ops->nroots && !(ops->flags & FL_EK_CONTACT)) return 1;
    }
    return 0;
}

int fl_ida_create(fl_sim *s, fl_ida *I, int n, const int *u, double t0, const fl_csc *pat, const fl_ida_ls *ls,
                  IDAResFn res, IDALsJacFn jac, IDARootFn root, int nroots, void *user)
{
    memset(I, 0, sizeof *I);
    /* (atol last: it is destroyed once IDA has its copy, and nothing that
     * can fail out of this function comes between) */
    N_Vector atol = NULL, *v[] = {&I->yv, &I->ypv, &I->qy, &I->qyp, &atol};
    /* Over all unknowns, IDA returns each step's solution straight into
     * s->y, s->yp (its yv, ypv hold no data of their own): no copy per
     * step, two vectors less. A group's are its own (copied in and out). */
    if (!u) {
        I->yv = N_VMake_Serial(n, s->y, s->ctx);
        I->ypv = N_VMake_Serial(n, s->yp, s->ctx);
    }
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        if (!*v[k] && !(*v[k] = N_VNew_Serial(n, s->ctx))) fl_fail_oom(sizeof(double) * (size_t)n); /* SUNDIALS' */
    /* IDA clones its work vectors from yv: flange's compiled kernels; and
     * IDAGetDky works through the ops of the vector it fills (qy, qyp: the
     * interpolated solution at output points and quadrature points) */
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) fl_nvec_fast(*v[k]);
    double *y = N_VGetArrayPointer(I->yv), *yp = N_VGetArrayPointer(I->ypv), *at = N_VGetArrayPointer(atol);
    for (int k = 0; k < n; k++) {
        int i = u ? u[k] : k;
        if (u) {
            y[k] = s->y[i];
            yp[k] = s->yp[i];
        }
        at[k] = abs_tol(s, i);
    }
    /* IDA keeps a copy of the absolute tolerances (cloned from atol, with
     * its operations): ours is not kept beside it */
    I->mem = IDACreate(s->ctx);
    int bad = !I->mem || IDASetErrHandlerFn(I->mem, ida_err, s) || IDAInit(I->mem, res, t0, I->yv, I->ypv) ||
              IDASVtolerances(I->mem, s->rtol, atol);
    N_VDestroy(atol);
    if (bad) return -1;
    if (IDASetUserData(I->mem, user)) return -1;
    /* The corrector's error is not random: it accumulates in conserved
     * quantities. A tighter Newton test than IDA's default (0.33) keeps the
     * energy balance of undamped contacts within about 1e-6 of the
     * throughput at rtol 1e-8 (about 20% more steps; measured). */
    if (IDASetNonlinConvCoef(I->mem, 0.1)) return -1;
    if (IDASetInitStep(I->mem, fl_first_step(s, n, u, t0))) return -1;
    /* (no IDASetId: IDA reads which unknowns are differential only to leave
     * algebraic ones out of its error test, which flange does not ask for,
     * and in IDACalcIC, which flange does not call: a vector less) */
    I->ls = ls;
    if (ls->make(s, I, n, pat)) return -1;
    if (IDASetLinearSolver(I->mem, I->LS, I->A)) return -1;
    if (IDASetJacFn(I->mem, jac)) return -1;
    if (nroots) {
        if (IDARootInit(I->mem, nroots, root)) return -1;
        IDASetNoInactiveRootWarn(I->mem);
    }
    return 0;
}

void fl_ida_free(fl_ida *I)
{
    if (I->mem) IDAFree(&I->mem);
    if (I->LS) SUNLinSolFree(I->LS);
    if (I->A) SUNMatDestroy(I->A);
    N_Vector *v[] = {&I->yv, &I->ypv, &I->qy, &I->qyp};
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        if (*v[k]) N_VDestroy(*v[k]);
    memset(I, 0, sizeof *I);
}

void fl_roots_room(fl_sim *s)
{
    size_t nr = (size_t)(s->sys->nroot_fns ? s->sys->nroot_fns : 1);
    if (!s->g) s->g = fl_xcalloc(nr, sizeof(double));
    if (!s->rootdir) s->rootdir = fl_xcalloc(nr, sizeof(int));
}

static int setup_integrator(fl_sim *s, double t0)
{
    const fl_system *sys = s->sys;
    fl_ida I;
    if (sys->nroot_fns && roots_active(s)) fl_roots_room(s);
    s->ida_ls = fl_ida_ls_for(s->use_klu);
    int rc = fl_ida_create(s, &I, sys->n, NULL, t0, &sys->jpat, s->ida_ls, ida_res, ida_jac, ida_root,
                           sys->nroot_fns && roots_active(s) ? sys->nroot_fns : 0, s);
    s->ida = I.mem; /* (freed with the run's integrator, also after a failure) */
    s->yv = I.yv;
    s->ypv = I.ypv;
    s->qy = I.qy;
    s->qyp = I.qyp;
    s->A = I.A;
    s->LS = I.LS;
    return rc;
}

/* Name of the unknown with the largest weighted local error (where the
 * integrator is struggling), for failure messages. */
const char *fl_worst_unknown(fl_sim *s, void *ida, int n, const int *u)
{
    if (!ida || n == 0) return NULL;
    N_Vector ele = N_VNew_Serial(n, s->ctx), w = N_VNew_Serial(n, s->ctx);
    const char *name = NULL;
    if (ele && w && IDAGetEstLocalErrors(ida, ele) == 0 && IDAGetErrWeights(ida, w) == 0) {
        double *e = N_VGetArrayPointer(ele), *wt = N_VGetArrayPointer(w), best = -1;
        for (int k = 0; k < n; k++) {
            double v = fabs(e[k] * wt[k]);
            if (v > best) {
                best = v;
                name = fl_unk_name(s->sys, u ? u[k] : k);
            }
        }
    }
    if (ele) N_VDestroy(ele);
    if (w) N_VDestroy(w);
    return name;
}

/* ---- output ------------------------------------------------------------- */

int fl_run_values(fl_sim *s, double t, const double *y, const double *yp)
{
    const fl_system *sys = s->sys;
    if (sys->n > sys->nd && (!s->out_kinematic || (s->energy && !s->ngrun))) {
        /* Interpolated algebraic unknowns (massless nodes) violate their
         * force balance by the interpolation error: re-solve them, with the
         * states as interpolated, so that outputs (and the energy stored in
         * the springs around them: a grouped run audits at its steps) are
         * consistent. */
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
    s->sc = s->osc; /* a grouped run's kinematic outputs: what they read (groups.c) */
    fl_eval_outputs(s, t, y, yp);
    s->sc = NULL;
    if (s->npen_el && !s->contact_events && !s->ngrun) fl_track_penetration(s, t, y, yp);
    /* (a grouped run whose rows show no energy tracks the drift per group) */
    if (s->energy && sys->energy_var0 >= 0 && (!s->ngrun || s->erows)) {
        double e[FL_NENERGY];
        fl_energy_point(s, t, y, yp, s->vals ? s->vals + sys->energy_var0 : e);
        for (int k = 0; s->cvals && !s->vals && k < s->nout_vars; k++)
            if (s->out_def[k].kind == OV_ENERGY) s->cvals[k] = e[s->out_vars[k] - sys->energy_var0];
    }
    for (int k = 0; s->cvals && s->vals && k < s->nout_vars; k++) s->cvals[k] = s->vals[s->out_vars[k]];
    s->have_values = 1;
    int nv = s->out_vars ? s->nout_vars : sys->nvars;
    for (int k = 0; k < nv; k++) {
        int i = s->out_vars ? s->out_vars[k] : k;
        double x = s->cvals ? s->cvals[k] : s->vals[i];
        if (!isfinite(x)) {
            fl_err(s->diag, fl_noloc, "the solution is not finite at t = %.9g: %s = %g", t, fl_system_var_name(sys, i),
                   x);
            return -1;
        }
    }
    return 0;
}

/* (A stepping run computes its values when asked: fl_step_values.) */
int fl_run_emit(fl_sim *s, double t)
{
    return fl_run_emit_at(s, t, s->y, s->yp);
}

int fl_run_emit_at(fl_sim *s, double t, const double *y, const double *yp)
{
    if (!s->run.emit_grid) return 0;
    if (fl_run_values(s, t, y, yp)) return -1;
    s->stats.outputs++;
    if (s->run.fn) {
        int r = s->cvals ? s->run.fn(s->run.user, t, s->cvals, s->nout_vars)
                         : s->run.fn(s->run.user, t, s->vals, s->sys->nvars);
        if (r) {
            s->run.stopped = r;
            return -1;
        }
    }
    return 0;
}

void fl_ida_counters(void *ida, fl_stats *st)
{
    long v;
    if (IDAGetNumSteps(ida, &v) == 0) st->steps += v;
    if (IDAGetNumResEvals(ida, &v) == 0) st->res_evals += v;
    if (IDAGetNumJacEvals(ida, &v) == 0) st->jac_evals += v;
    if (IDAGetNumLinSolvSetups(ida, &v) == 0) st->lin_setups += v;
    if (IDAGetNumErrTestFails(ida, &v) == 0) st->err_test_fails += v;
    if (IDAGetNumNonlinSolvConvFails(ida, &v) == 0) st->nonlin_conv_fails += v;
}

void fl_add_ida_stats(const fl_sim *s, fl_stats *st)
{
    fl_groups_add_stats(s, st);
    if (s->ida) fl_ida_counters(s->ida, st);
}

/* IDA's counters restart at every IDAReInit: add them up before. */
static void collect_stats(fl_sim *s)
{
    fl_add_ida_stats(s, &s->stats);
}

/* Positions are integrated as displacements from where the last (re)start
 * left them: the relative tolerance then applies to the motion, not to the
 * arbitrary origin of the coordinates (a stop 10 m from the origin is as
 * precise as one at the origin). */
static void rebase_positions(fl_sim *s)
{
    const fl_system *sys = s->sys;
    for (int b = 0; b < sys->nbodies; b++) {
        int qi = sys->bodies[b].qi;
        if (qi < 0) continue;
        s->qoff[b] += s->y[qi];
        s->y[qi] = 0;
    }
    fl_states_changed(s);
}

/* Steps, residuals and Jacobians of an integrator so far (progress displays). */
static void progress_counters(void *ida, fl_stats *st)
{
    long v;
    if (ida && IDAGetNumSteps(ida, &v) == 0) st->steps += v;
    if (ida && IDAGetNumResEvals(ida, &v) == 0) st->res_evals += v;
    if (ida && IDAGetNumJacEvals(ida, &v) == 0) st->jac_evals += v;
}

int fl_run_progress(fl_sim *s, double t)
{
    fl_run *r = &s->run;
    if (!r->progress) return 0;
    fl_stats st = s->stats;
    progress_counters(s->ida, &st);
    for (int g = 0; g < s->ngrun; g++) progress_counters(s->grun[g].I.mem, &st);
    int rp = r->progress(r->progress_user, t, &st);
    if (!rp) return 0;
    r->stopped = rp;
    fl_err(s->diag, fl_noloc, "the run was stopped at t = %.9g", t);
    return -1;
}

struct fl_pen *fl_pen_add(fl_sim *s, int k)
{
    if (!s->pen_at[k]) {
        struct fl_pen none = {0, 0, 0, 0};
        FL_VEC_PUSH(s->pen, none);
        s->pen_at[k] = (int)s->pen.n;
    }
    return &s->pen.v[s->pen_at[k] - 1];
}

void fl_pen_clear(fl_sim *s)
{
    memset(s->pen_at, 0, sizeof(int) * (size_t)(s->npen_el ? s->npen_el : 1));
    s->pen.n = 0;
}

/* Contact k (pen_el[k]) is p into its stop of gap: the deepest (by
 * ratio) so far. */
static void deepest(fl_sim *s, int k, double p, double gap, double t)
{
    /* (p > 0 first: a contact out of touch, most of a big model's, reads
     * no record; the ratios kept are never negative) */
    if (!(p > 0 && gap > 0)) return;
    struct fl_pen *r = fl_pen_add(s, k);
    if (p / gap > r->ratio) {
        r->ratio = p / gap;
        r->depth = p;
        r->gap = gap;
        r->t = t;
    }
}

/* The contact number of element e (pen_el is in element order). */
static int contact_of(const fl_sim *s, int e)
{
    return fl_lower_bound(s->pen_el, s->npen_el, sizeof(int), 0, e);
}

/* fl_pen_fn of the strands: elements i0 .. i0+m-1 of batch g */
static void deepest_of_block(fl_sim *s, int g, int i0, int m, const double *out, double t)
{
    int k0 = contact_of(s, s->sys->egroups[g].first) + i0; /* (a batch's elements are consecutive contacts) */
    for (int i = 0; i < m; i++) deepest(s, k0 + i, out[2 * i], out[2 * i + 1], t);
}

/* The deepest penetration of every contact (of the scope s->sc, or all)
 * into its stop so far, at (t, y, yp) with the kinematics already
 * evaluated there, but for the contacts of strands (fast.c): those read
 * their bodies' positions from y as the strands' residual does
 * (fl_strand_pen), so that an output point may evaluate only the
 * kinematics its outputs read (fl_output_scope). */
void fl_track_penetration(fl_sim *s, double t, const double *y, const double *yp)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = s->sc;
    const fl_egroup *egs = sc ? sc->eg : sys->egroups;
    const fl_elem *els = sc ? fl_sim_scope_el(s, sc) : s->elems;
    fl_ectx x;
    fl_init_ectx(s, &x, t, 0, y, yp, s->res, 0);
    /* by element group (one class, consecutive elements): no look-up of
     * each element's instance, which on large models missed the cache at
     * every output point */
    int st = 0; /* the next strand, whose batches it walks */
    for (int g = 0; g < (sc ? sc->neg : sys->negroups); g++) {
        const fl_egroup *eg = &egs[g];
        double (*pen)(const fl_ectx *, const fl_elem *, double *) = eg->ops->penetration;
        if (!sc && st < s->nstrand && s->strand[st].g0 == g) {
            fl_fast_ready(s);
            fl_strand_pen(s, &s->strand[st], &x, deepest_of_block, t);
            g = s->strand[st++].g1 - 1;
            continue;
        }
        if (!pen) continue;
        if (!sc && s->fast[g].n) {
            /* a batch at once (fast.c), its depths and gaps in the
             * batch's local Jacobian block, free between evaluations */
            double *out = s->jloc + s->fastj[g].jbase;
            fl_fast_ready(s);
            eg->ops->fast(&s->fast[g], &x, FL_FAST_PEN, out);
            int k0 = contact_of(s, eg->first); /* (a batch's elements are consecutive contacts) */
            for (int i = 0; i < eg->n; i++) deepest(s, k0 + i, out[2 * i], out[2 * i + 1], t);
            continue;
        }
        for (int k = eg->first; k < eg->first + eg->n; k++) {
            double gap, p = pen(&x, &els[k], &gap);
            deepest(s, contact_of(s, els[k].idx), p, gap, t);
        }
    }
}

static void track_penetration(fl_sim *s, double t)
{
    fl_eval_kinematics(s, t, s->y, s->yp);
    fl_track_penetration(s, t, s->y, s->yp);
}

/* A contact deeper than a tenth of its gap is too soft for its load. */
static void warn_penetration(fl_sim *s, fl_diag *d)
{
    const fl_system *sys = s->sys;
    for (int k = 0; k < s->npen_el; k++) {
        int e = s->pen_el[k];
        const struct fl_pen *r = fl_pen_of(s, k);
        if (!r || !(r->ratio > 0.1)) continue;
        const fl_inst_rt *ir = &sys->insts[s->elems[e].inst];
        /* in the unit of the contact's domain (m, or rad for a rotational stop) */
        int dom = FL_DOM_TRANS;
        for (int p = 0; p < ir->cls->nports; p++)
            if (fl_port_domain(&ir->cls->ports[p]) != FL_DOM_NONE) {
                dom = fl_port_domain(&ir->cls->ports[p]);
                break;
            }
        const char *u = fl_domain_info(dom)->pos_unit;
        fl_warn(d, fl_ir_loc(sys, ir),
                "%s: the contact went %.3g %s into its stop at t = %.6g, %.0f%% of its gap of %g %s: the stop is too "
                "soft for the load (raise its stiffness)",
                fl_ir_name(sys, ir), r->depth, u, r->t, 100 * r->ratio, r->gap, u);
    }
}

int fl_run_restart(fl_sim *s, double t)
{
    fl_sources_stale(s);
    collect_stats(s);
    rebase_positions(s);
    fl_algebraic_rates(s, t, s->y, s->yp); /* (the integrator's yv, ypv are s->y, s->yp: fl_ida_create) */
    if (IDASetInitStep(s->ida, first_step(s, t))) return -1;
    /* with states only, the re-initialisation's factors serve events alone
     * (no algebraic unknowns to re-solve at output points): released until
     * the next event, its ordering kept */
    if (s->sys->n == s->sys->nd) fl_linsys_release(&s->reinit_ls);
    return IDAReInit(s->ida, t, s->yv, s->ypv);
}

void fl_outputs_free(fl_sim *s)
{
    free(s->out_vars);
    free(s->out_def);
    free(s->out_inst);
    free(s->out_ilist);
    free(s->cvals);
    free(s->oscr);
    free(s->oc0);
    free(s->oc_def);
    free(s->oc_k);
    free(s->osort);
    s->out_vars = s->out_ilist = s->oc0 = s->oc_def = s->oc_k = s->osort = NULL;
    s->out_def = NULL;
    s->out_inst = NULL;
    s->cvals = s->oscr = NULL;
    s->nout_ilist = s->nout_vars = 0;
}

static int cmp_pair(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* selected_only: where each selected class variable goes, by instance in
 * the order of out_ilist, and the selected ordered by variable; gather:
 * computed per variable (vals), then copied to cvals, which is all. */
static void compact_outputs(fl_sim *s, int gather)
{
    const fl_system *sys = s->sys;
    int n = s->nout_vars, maxv = 1;
    s->cvals = fl_xmalloc(sizeof(double) * (size_t)(n ? n : 1));
    for (int k = 0; k < n; k++) s->cvals[k] = NAN;
    if (gather) return;
    s->osort = fl_xmalloc(sizeof(int) * 2 * (size_t)(n ? n : 1));
    for (int k = 0; k < n; k++) {
        s->osort[2 * k] = s->out_vars[k];
        s->osort[2 * k + 1] = k;
    }
    if (n > 1) qsort(s->osort, (size_t)n, 2 * sizeof(int), cmp_pair);
    int *at = fl_xcalloc((size_t)(sys->ninst ? sys->ninst : 1), sizeof(int)); /* instance -> 1 + its out_ilist entry */
    for (int j = 0; j < s->nout_ilist; j++) {
        at[s->out_ilist[j]] = j + 1;
        maxv = FL_MAX(maxv, sys->insts[s->out_ilist[j]].cls->nvars);
    }
    s->oscr = fl_xmalloc(sizeof(double) * (size_t)maxv);
    s->oc0 = fl_xcalloc((size_t)s->nout_ilist + 1, sizeof(int));
    s->oc_def = fl_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    s->oc_k = fl_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    for (int k = 0; k < n; k++)
        if (s->out_def[k].kind == OV_CLASS) s->oc0[at[s->out_def[k].inst]]++;
    for (int j = 0; j < s->nout_ilist; j++) s->oc0[j + 1] += s->oc0[j];
    for (int j = 0; j < s->nout_ilist; j++) at[s->out_ilist[j]] = s->oc0[j]; /* now where its next one goes */
    for (int k = 0; k < n; k++) /* (a counting sort: each instance's in the order selected) */
        if (s->out_def[k].kind == OV_CLASS) {
            int q = at[s->out_def[k].inst]++;
            s->oc_def[q] = s->out_def[k].def;
            s->oc_k[q] = k;
        }
    free(at);
}

/* The outputs the run computes: the variables asked for and the instances
 * whose class outputs hold them; the rest stays NaN. */
static int select_outputs(fl_sim *s, const fl_sim_opts *o, fl_diag *d)
{
    const fl_system *sys = s->sys;
    fl_outputs_free(s);
    s->out_kinematic = 0;
    if (!o->outputs) {
        fl_sim_full_values(s, 0); /* (every variable is computed; those on request not asked for: 0) */
        return 0;
    }
    s->out_vars = fl_xmalloc(sizeof(int) * (size_t)(o->noutputs ? o->noutputs : 1));
    s->out_def = fl_xmalloc(sizeof(fl_var) * (size_t)(o->noutputs ? o->noutputs : 1));
    s->out_inst = fl_xcalloc((size_t)(sys->ninst ? sys->ninst : 1), 1);
    for (int k = 0; k < o->noutputs; k++) {
        int v = o->outputs[k];
        if (v < 0 || v >= sys->nvars) {
            fl_err(d, fl_noloc, "output variable index %d is out of range (0 .. %d)", v, sys->nvars - 1);
            return -1;
        }
        fl_var x = fl_system_var(sys, v);
        s->out_def[s->nout_vars] = x;
        s->out_vars[s->nout_vars++] = v;
        if (x.kind == OV_CLASS) s->out_inst[x.inst] = 1;
    }
    /* what an instance reads at output points (SIG_LATE) is computed too */
    int late = 0;
    for (int i = 0; i < sys->ninst; i++) {
        const fl_inst_rt *ir = &sys->insts[i];
        if (!ir->has_late || !s->out_inst[i]) continue;
        late = 1;
        for (int k = 0, nin = fl_class_nin(ir->cls); k < nin; k++)
            if (sys->sigs[ir->in0 + k].kind == SIG_LATE) s->out_inst[sys->sigs[ir->in0 + k].inst] = 1;
    }
    /* (counted first: a run that shows a few of a big model's instances
     * keeps a short list, not one the size of the model) */
    int nlist = 0;
    for (int i = 0; i < sys->ninst; i++) nlist += s->out_inst[i];
    s->out_ilist = fl_xmalloc(sizeof(int) * (size_t)(nlist ? nlist : 1));
    for (int i = 0; i < sys->ninst; i++)
        if (s->out_inst[i]) s->out_ilist[s->nout_ilist++] = i;
    /* Positions and velocities alone follow from the solution vector: no
     * force balance to evaluate at output points (a big saving on large
     * models whose users watch a few bodies), with or without the energy
     * audit, whose rates evaluate what they read (fl_energy_rates). */
    s->out_kinematic = !late;
    for (int k = 0; k < s->nout_vars; k++) {
        const char *u = fl_system_var_unit(sys, s->out_vars[k]);
        if (!u || (strcmp(u, "m") != 0 && strcmp(u, "m/s") != 0 && strcmp(u, "rad") != 0 && strcmp(u, "rad/s") != 0))
            s->out_kinematic = 0;
    }
    /* (stepping runs: by variable). Computed per variable and gathered
     * when outputs read forces known at output points only, or when most
     * variables are selected: a value per variable then costs less than
     * where each selected one goes (20 bytes). */
    int gather = late || !fl_outputs_few(s->nout_vars, sys->nvars);
    if (o->selected_only && s->run.emit_grid) compact_outputs(s, gather);
    if (!s->cvals || gather) {
        fl_sim_full_values(s, NAN);
    } else {
        free(s->vals); /* (a run before this one kept them) */
        s->vals = NULL;
    }
    return 0;
}

/* Located contact events (1) or stepping through (0). Measured on the
 * benchmark chain (make bench): stepping through costs 1.3x less time at 10
 * contacts and 2-3x less from 30 on, with errors still inside the
 * tolerance, while a few contacts are cheap to locate exactly; stiff ones
 * (the 1e10 default of SymmetricHardStop) cannot be stepped through. */
static int contact_events_for(const fl_sim *s, int mode)
{
    const fl_system *sys = s->sys;
    if (mode == FL_CONTACTS_EVENTS) return 1;
    if (mode == FL_CONTACTS_STEP) return 0;
    int ncontacts = 0;
    for (int e = 0; e < sys->nelem; e++) {
        const fl_elem_ops *ops = fl_inst_ops(sys, s->elems[e].inst);
        if (!(ops->flags & FL_EK_CONTACT)) continue;
        if (!ops->stiffness || !(ops->stiffness(s->par + s->elems[e].pofs) <= 1e8)) return 1;
        ncontacts++;
    }
    return ncontacts <= FL_CONTACTS_AUTO_MAX;
}

/* IDA failed at t (flag), or its steps stalled there: the message names
 * the unknown with the largest weighted error of the integrator ida over
 * unknowns u[0..n-1] (NULL: the whole system). */
int fl_fail_solver(fl_sim *s, void *ida, int n, const int *u, double t, int flag)
{
    const char *who = fl_worst_unknown(s, ida, n, u);
    fl_err(s->diag, fl_noloc, "the solver failed at t = %.9g%s%s: %s (IDA flag %d)", t, who ? " in " : "",
           who ? who : "", s->ida_msg[0] ? s->ida_msg : "no further detail", flag);
    return -1;
}

void fl_fail_stalled(fl_sim *s, void *ida, int n, const int *u, double t)
{
    const char *who = fl_worst_unknown(s, ida, n, u);
    fl_err(s->diag, fl_noloc,
           "the solver cannot advance at t = %.9g%s%s: its steps fell below the resolution of time; the "
           "equations change faster than it can follow%s",
           t, who ? " in " : "", who ? who : "",
           s->contact_events ? " (a discontinuity that is not located as an event?)"
                             : " (with --no-contact-events a stiff contact is a jump the integrator must step across: "
                               "locate the contacts as events, or make the contact softer)");
}

/* The solution at t inside the last step, into s->qy, s->qyp (s->y,
 * s->yp keep the step's end, where IDA goes on from). */
static int interpolate(fl_sim *s, double t)
{
    if (!s->sys->n) return 0;
    if (IDAGetDky(s->ida, t, 0, s->qy) || IDAGetDky(s->ida, t, 1, s->qyp)) {
        fl_err(s->diag, fl_noloc, "cannot interpolate the solution at t = %.9g", t);
        return -1;
    }
    return 0;
}

/* The dissipated energy, the work of the sources, its absolute value and
 * the negative part of the loss power (a bug if any) over [a, b] inside the
 * last step of ida (NULL: no integrator, the powers are functions of time
 * at s->y): 3-point Gauss quadrature on the step's interpolant (exact to
 * degree 5; the 6-point rule changed no measured drift by more than a few
 * per cent and cost twice as much). sc: the integrator is that group's
 * (its unknowns sc->u, its sources' left limits at t_left); NULL: the
 * whole system's. A motion that runs away overflows the audit before the
 * integrator gives up: the audit stops (with a warning) and -1, the run
 * goes on to the integrator's own verdict. */
int fl_energy_quad(fl_sim *s, void *ida, N_Vector qy, N_Vector qyp, const fl_scope *sc, double t_left, double a,
                   double b, double inc[4])
{
    static const double xg[3] = {-0.77459666924148338, 0, 0.77459666924148338};
    static const double wg[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
    double m = 0.5 * (a + b), hh = 0.5 * (b - a);
    inc[0] = inc[1] = inc[2] = inc[3] = 0;
    if (!(hh > 0)) return 0;
    for (int k = 0; k < 3 && !(ida && (IDAGetDky(ida, m + hh * xg[k], 0, qy) || IDAGetDky(ida, m + hh * xg[k], 1, qyp)));
         k++) {
        double tk = m + hh * xg[k];
        const double *y = s->y, *yp = s->yp;
        if (ida) {
            y = N_VGetArrayPointer(qy);
            yp = N_VGetArrayPointer(qyp);
        }
        if (sc) { /* a group's vectors into the system's */
            for (int q = 0; q < sc->nu; q++) {
                s->gy[sc->u[q]] = y[q];
                s->gyp[sc->u[q]] = yp[q];
            }
            y = s->gy;
            yp = s->gyp;
        }
        double tl = s->t_left;
        s->t_left = t_left;
        s->sc = sc;
        fl_erates r;
        fl_energy_rates(s, tk, y, yp, &r);
        s->sc = NULL;
        s->t_left = tl;
        inc[0] += wg[k] * hh * r.ploss;
        inc[1] += wg[k] * hh * r.pwork;
        inc[2] += wg[k] * hh * fabs(r.pwork);
        inc[3] += wg[k] * hh * fmin(r.ploss, 0);
    }
    if (isfinite(inc[0]) && isfinite(inc[1]) && isfinite(inc[2])) return 0;
    fl_warn(s->diag, fl_noloc,
            "the energy audit overflowed at t = %.9g (the motion is running away); it stops there, and the "
            "energy.* values after that time are its last ones",
            a);
    s->energy = 0;
    return -1;
}

/* Set the accumulated energies to base + the integrals from a to b. */
static void energy_advance(fl_sim *s, const double base[4], double a, double b)
{
    double inc[4];
    if (fl_energy_quad(s, s->sys->n ? s->ida : NULL, s->qy, s->qyp, NULL, s->t_left, a, b, inc)) return;
    s->e_diss = base[0] + inc[0];
    s->e_work = base[1] + inc[1];
    s->e_work_abs = base[2] + inc[2];
    s->e_loss_neg = base[3] + inc[3];
}

int fl_run_reset(fl_sim *s, const fl_sim_opts *o, int emit_grid, fl_output_fn fn, void *user, fl_diag *d)
{
    const fl_system *sys = s->sys;
    fl_free_integrator(s);
    fl_sources_stale(s);
    s->diag = d;
    s->ida_msg[0] = '\0';
    memset(&s->stats, 0, sizeof s->stats);
    fl_pen_clear(s);
    s->solver_choice = o->solver;
    s->one_integrator = o->one_integrator;
    s->use_klu = o->solver == FL_SOLVER_KLU || (o->solver == FL_SOLVER_AUTO && sys->linsolver == FL_SOLVER_KLU);
    s->stats.linear_solver = fl_ida_ls_for(s->use_klu)->name;
    s->rtol = o->tolerance;
    s->have_values = 0;
    memset(s->mode, 0, sizeof(int) * (size_t)(sys->nmodes ? sys->nmodes : 1));
    memset(s->rs, 0, sizeof(double) * (size_t)(sys->nreal ? sys->nreal : 1));
    fl_states_changed(s);
    s->impact_loss = s->impulse_work[0] = s->impulse_work[1] = 0;
    s->terminate = 0;
    s->term_msg[0] = s->func_err[0] = s->last_warn[0] = '\0';
    s->func_fatal = 0;
    s->last_warn_t = NAN;
    s->stats.e_closed = -1;
    s->contact_events = contact_events_for(s, o->contacts);
    s->energy = o->energy;
    if (s->energy) fl_energy_alloc(s);
    memset(s->y, 0, sizeof(double) * (size_t)(sys->n ? sys->n : 1));
    memset(s->yp, 0, sizeof(double) * (size_t)(sys->n ? sys->n : 1));
    fl_run *r = &s->run;
    r->kind = FL_RUN_NONE;
    r->emit_grid = emit_grid;
    r->fn = fn;
    r->user = user;
    r->stopped = 0;
    r->progress = o->progress;
    r->progress_user = o->progress_user;
    r->energy = o->energy;
    r->me_dirty = r->me_zref = 0;
    if (select_outputs(s, o, d)) return -1;
    r->t0 = r->t = o->start_time;
    r->tend = o->stop_time;
    r->h = o->interval;
    r->kgrid = 1;
    r->stalled = 0;
    return 0;
}

int fl_run_init(fl_sim *s, const fl_sim_opts *o, int check, int emit_grid, fl_output_fn fn, void *user,
                fl_diag *d)
{
    const fl_system *sys = s->sys;
    fl_run *r = &s->run;
    if (check && fl_sim_check_opts(o, d)) return -1;
    if (fl_run_reset(s, o, emit_grid, fn, user, d)) return -1;
    double t0 = o->start_time;

    /* initialisation, then the initial event iteration */
    s->t_left = NAN;
    memset(s->qoff, 0, sizeof(double) * (size_t)(sys->nbodies ? sys->nbodies : 1));
    fl_states_changed(s);
    fl_seed_initial(s, t0, s->y, s->yp);
    /* discrete states and initial values together: decide the modes at the
     * first guesses, solve, and again at the solution until they agree */
    fl_init_modes(s, t0, s->y, s->yp);
    for (int pass = 0;; pass++) {
        if (fl_solve_initial(s, t0, s->y, s->yp)) return -1;
        if (!fl_init_modes(s, t0, s->y, s->yp)) break;
        if (pass >= FL_MAX_EVENT_ITER) {
            fl_err(d, fl_noloc, "the initial modes of %s do not settle: no consistent initial state",
                   fl_elem_name(s, s->last_changed));
            return -1;
        }
    }
    rebase_positions(s);
    fl_start_elements(s, t0, s->y, s->yp);
    if (fl_event_iteration(s, t0, NULL, 0) < 0) return -1;
    if (s->energy) fl_energy_begin(s, t0, s->y, s->yp);
    if (fl_run_emit(s, t0)) return -1;
    /* a relation leaving zero at the start is an event at t0: the initial
     * values, then the values after it */
    int settled = fl_settle_zero_roots(s, t0);
    if (settled < 0 || (settled > 0 && fl_run_emit(s, t0))) return -1;
    int ended = fl_end_samples(s, t0);
    if (ended < 0 || (ended > 0 && fl_run_emit(s, t0))) return -1;
    if (s->terminate) r->tend = t0; /* terminate() at the initialisation */
    return 0;
}

int fl_run_start_ida(fl_sim *s)
{
    const fl_system *sys = s->sys;
    if (sys->n) fl_algebraic_rates(s, s->run.t, s->y, s->yp);
    /* the initialisation's sparse LU is not needed again in this run: on a
     * big model its factors weigh as much as the integrator's */
    if (s->use_klu) {
        fl_init_ls_free(s);
        fl_heap_trim(); /* (its pages back to the system before the integrator's are touched) */
    }
    if (fl_groups_wanted(s)) return fl_groups_start(s);
    fl_output_scope(s);
    if (sys->n && setup_integrator(s, s->run.t)) {
        fl_err(s->diag, fl_noloc, "cannot set up the IDA integrator%s%s", s->ida_msg[0] ? ": " : "", s->ida_msg);
        return -1;
    }
    return 0;
}

int fl_run_advance(fl_sim *s, double target)
{
    const fl_system *sys = s->sys;
    if (s->ngrun) return fl_groups_advance(s, target);
    /* the fast kernels' parameters, if they changed since (a stepping run
     * may change them between steps): made here, not inside IDA's calls */
    fl_fast_ready(s);
    fl_run *r = &s->run;
    const double t0 = r->t0, h = r->h, tend = r->tend;
    double t = r->t;
    /* a stepping run stops at target, a rounding error from it is there */
    while (t < target && (r->emit_grid || !fl_same_time(t, target))) {
        double te = fl_next_time_event(s, t);
        double tstop = fmin(te, target);
        /* up to the next breakpoint, signals there are left limits */
        s->t_left = te <= tend ? te : NAN;
        int flag = IDA_TSTOP_RETURN;
        double tret = tstop;
        if (te < tend && fl_same_time(te, t)) {
            /* a breakpoint a rounding error after the last one (a Ramp ending
             * at 0.2 + 0.4, a Trapezoid's corner at 2 * 0.3): IDA cannot step
             * that far, and the motion does not change over it; handled at once */
        } else if (sys->n) {
            /* one step at a time: output points are interpolated, and the
             * energy audit integrates its powers over each step */
            IDASetStopTime(s->ida, tstop);
            flag = IDASolve(s->ida, tstop, &tret, s->yv, s->ypv, IDA_ONE_STEP); /* into s->y, s->yp */
            if (flag < 0) {
                r->t = t;
                return fl_fail_solver(s, s->ida, sys->n, NULL, tret, flag);
            }
            /* IDA accepts steps too small to move t (its error test passes
             * when nothing changes) and can go on so for ever */
            r->stalled = tret - t <= 64 * DBL_EPSILON * fabs(tret) ? r->stalled + 1 : 0;
            if (r->stalled > FL_MAX_STALLED_STEPS) {
                fl_fail_stalled(s, s->ida, sys->n, NULL, tret);
                r->t = t;
                return -1;
            }
        } else {
            /* nothing to integrate (an empty model, or only prescribed
             * motion and signals): steps of one output interval, over
             * which the energy audit's quadrature is exact enough */
            double tg = r->emit_grid ? fl_grid_time(t0, h, tend, r->kgrid) : t + s->h_out;
            if (tg > t && tg < tret) tret = tg;
            if (sys->nroot_fns && roots_active(s) && fl_time_roots(s, t, &tret)) flag = IDA_ROOT_RETURN;
        }
        double ebase[4] = {s->e_diss, s->e_work, s->e_work_abs, s->e_loss_neg}; /* at t, the start of the step */
        /* a discontinuity exactly at the stop time is not processed: the run
         * ends with the values just before it */
        int event_here = flag == IDA_ROOT_RETURN || (flag == IDA_TSTOP_RETURN && tret == te && te < tend);
        /* output points up to this step's end (at an event, the event writes them) */
        while (r->emit_grid) {
            double tout = fl_grid_time(t0, h, tend, r->kgrid);
            if (tout > tret && !fl_same_time(tout, tret)) break;
            if (fl_same_time(tout, tret) && event_here) break;
            if (s->energy) energy_advance(s, ebase, t, tout); /* (its quadrature points go through qy, qyp) */
            if (interpolate(s, tout)) return -1;
            if (fl_run_emit_at(s, tout, sys->n ? N_VGetArrayPointer(s->qy) : s->y,
                               sys->n ? N_VGetArrayPointer(s->qyp) : s->yp))
                return -1;
            r->kgrid++;
            if (tout >= tend) break;
        }
        if (s->energy) energy_advance(s, ebase, t, tret);
        t = r->t = tret;
        /* deepest penetrations: after every step while contacts are located
         * (few of them); at output points when many are stepped through, where
         * a check of every contact at every step would cost a twentieth of the run */
        if (s->npen_el && s->contact_events) track_penetration(s, t);
        if (fl_run_progress(s, t)) return -1;
        if (!event_here) continue;
        if (flag == IDA_ROOT_RETURN) {
            s->stats.state_events++;
            fl_roots_room(s);
            if (sys->n && IDAGetRootInfo(s->ida, s->rootdir)) return -1;
        } else {
            s->stats.time_events++;
        }
        /* the values just before the event (left limits of time events),
         * the event iteration, the values after it, and a restart */
        if (fl_run_emit(s, t)) return -1;
        s->t_left = NAN;
        if (fl_event_iteration(s, t, flag == IDA_ROOT_RETURN ? s->rootdir : NULL, 1) < 0) return -1;
        if (fl_settle_zero_roots(s, t) < 0) return -1;
        if (fl_run_emit(s, t)) return -1;
        int ended = fl_end_samples(s, t);
        if (ended < 0 || (ended > 0 && fl_run_emit(s, t))) return -1;
        if (s->terminate) return 1; /* terminate(): the run ends here, successfully */
        if (sys->n && fl_run_restart(s, t)) return -1;
        if (r->emit_grid && fl_same_time(fl_grid_time(t0, h, tend, r->kgrid), t)) r->kgrid++;
    }
    if (t < target) r->t = target; /* a rounding error short of it (stepping) */
    return s->terminate ? 1 : 0;
}

int fl_run_end(fl_sim *s)
{
    const fl_system *sys = s->sys;
    double t = s->run.t;
    if (s->terminate) fl_note(s->diag, fl_noloc, "the run ended at t = %.9g by terminate(): %s", t, s->term_msg);
    /* terminal(): the equations see the end of the run once more */
    if (sys->nreal) {
        s->terminal = s->samples_off = 1; /* (the samples of this instant are over) */
        int changed = fl_event_iteration(s, t, NULL, 0);
        s->terminal = s->samples_off = 0;
        if (changed < 0) return -1;
        if (changed > 0 && fl_run_emit(s, t)) return -1;
    }
    if (s->run.energy) fl_energy_finish(s, t, s->diag);
    warn_penetration(s, s->diag);
    return 0;
}

int fl_run_close(fl_sim *s, int ret)
{
    if (ret && s->func_err[0])
        fl_note(s->diag, fl_noloc, "a function the equations call failed: %s", s->func_err);
    collect_stats(s);
    s->diag = NULL;
    s->run.kind = FL_RUN_NONE;
    if (s->run.stopped && ret) return s->run.stopped;
    return ret;
}

FL_GUARDED(int, fl_sim_run, (fl_sim *s, const fl_sim_opts *o, fl_output_fn fn, void *user, fl_diag *d),
           (s, o, fn, user, d), -1, d)
{
    if (!s || !o) return -1;
    if (fl_sim_check_opts(o, d)) return -1;
    s->run.stopped = 0;
    int ret = fl_run_init(s, o, 0, 1, fn, user, d);
    s->t_end = s->run.tend;
    s->h_out = s->run.h;
    if (!ret) ret = fl_run_start_ida(s);
    if (!ret) ret = fl_run_advance(s, s->run.tend) < 0 ? -1 : 0;
    if (!ret) ret = fl_run_end(s);
    return fl_run_close(s, ret);
}
