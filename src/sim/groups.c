/* groups.c - grouped integration: one IDA per independent group
 * (compile/groups.c finds them).
 *
 * Each group steps with its own step size and handles its own events; an
 * event restarts and re-solves only its group, so the cost of an event is
 * the cost of its group, not of the model. The groups stay in time order
 * through one rule: the group that has come least far always takes the
 * next step (a heap). An instant (an output point or an event) is
 * processed once every group has reached it, so the last step of every
 * group covers it and the others' values there are interpolated from
 * their own steps, exactly as one integrator interpolates its output
 * points. Events of several groups at the same instant are one instant:
 * one pair of rows, every group's event iteration, every group restarted.
 * Groups that no selected output reads take turns running alone instead
 * (run_alone), and the energy audit watches each group's own balance when
 * the output points do not show it (g_drift).
 *
 * Rows, the initialisation and the end of the run (terminal(), the energy
 * verdict) see the whole system in s->y, as with one integrator; runs
 * taken in steps (FMUs) and --one-integrator keep one integrator. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ida/ida.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "sim.h"



int fl_groups_wanted(const fl_sim *s)
{
    return s->sys->ngroups > 1 && !s->one_integrator && s->run.emit_grid && s->sys->n > 0;
}

/* ---- the heaps: groups by the time they reached -------------------------- */

typedef struct gheap {
    int *a;
    int n;
} gheap;

static int gh_less(const fl_sim *s, int a, int b)
{
    double ta = s->grun[a].t, tb = s->grun[b].t;
    return ta < tb || (ta == tb && a < b);
}

static void gh_push(const fl_sim *s, gheap *h, int g)
{
    int i = h->n++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!gh_less(s, g, h->a[p])) break;
        h->a[i] = h->a[p];
        i = p;
    }
    h->a[i] = g;
}

static int gh_pop(const fl_sim *s, gheap *h)
{
    int top = h->a[0], last = h->a[--h->n], i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && gh_less(s, h->a[c + 1], h->a[c])) c++;
        if (!gh_less(s, h->a[c], last)) break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->n) h->a[i] = last;
    return top;
}

/* ---- IDA callbacks of one group: its unknowns scattered into the
 * whole-system vectors, evaluated restricted to it, gathered back ------ */

static const fl_scope *enter(fl_grun *gr, const double *y, const double *yp)
{
    fl_sim *s = gr->sim;
    const fl_scope *sc = &s->sys->groups[gr->g];
    for (int k = 0; k < sc->nu; k++) {
        s->gy[sc->u[k]] = y[k];
        s->gyp[sc->u[k]] = yp[k];
    }
    s->sc = sc;
    return sc;
}

static double g_energy_now(fl_sim *s, fl_grun *gr);

static int g_res(realtype t, N_Vector y, N_Vector yp, N_Vector r, void *user)
{
    fl_grun *gr = user;
    fl_sim *s = gr->sim;
    const fl_scope *sc = enter(gr, N_VGetArrayPointer(y), N_VGetArrayPointer(yp));
    int rc = fl_eval_residual(s, t, s->gy, s->gyp, s->gres);
    s->sc = NULL;
    double *rv = N_VGetArrayPointer(r);
    for (int k = 0; k < sc->nu; k++) rv[k] = s->gres[sc->u[k]];
    return rc;
}

static int g_jac(realtype t, realtype cj, N_Vector y, N_Vector yp, N_Vector r, SUNMatrix J, void *user, N_Vector t1,
                 N_Vector t2, N_Vector t3)
{
    fl_grun *gr = user;
    fl_sim *s = gr->sim;
    FL_UNUSED(r);
    FL_UNUSED(t1);
    FL_UNUSED(t2);
    FL_UNUSED(t3);
    const fl_scope *sc = enter(gr, N_VGetArrayPointer(y), N_VGetArrayPointer(yp));
    int rc = gr->I.ls->fill(s, J, &sc->jpat, t, cj, s->gy, s->gyp);
    s->sc = NULL;
    return rc;
}

static int g_root(realtype t, N_Vector y, N_Vector yp, realtype *g, void *user)
{
    fl_grun *gr = user;
    fl_sim *s = gr->sim;
    const fl_scope *sc = enter(gr, N_VGetArrayPointer(y), N_VGetArrayPointer(yp));
    fl_eval_roots(s, t, s->gy, s->gyp, s->g);
    s->sc = NULL;
    for (int k = 0; k < sc->nr; k++) g[k] = s->g[sc->r[k]];
    return 0;
}

/* ---- set-up, restart, release -------------------------------------------- */

/* The group's next time event after t, and the left-limit time of its sources. */
static void g_time_event(fl_sim *s, fl_grun *gr, double t)
{
    s->sc = &s->sys->groups[gr->g];
    gr->te = fl_next_time_event(s, t);
    s->sc = NULL;
    gr->t_left = gr->te <= s->run.tend ? gr->te : NAN;
}

static void copy_in(const fl_scope *sc, N_Vector v, const double *x)
{
    double *d = N_VGetArrayPointer(v);
    for (int k = 0; k < sc->nu; k++) d[k] = x[sc->u[k]];
}

static void copy_out(const fl_scope *sc, N_Vector v, double *x)
{
    const double *d = N_VGetArrayPointer(v);
    for (int k = 0; k < sc->nu; k++) x[sc->u[k]] = d[k];
}

static int g_setup(fl_sim *s, fl_grun *gr, double t0)
{
    const fl_scope *sc = &s->sys->groups[gr->g];
    gr->use_klu = s->solver_choice == FL_SOLVER_KLU || (s->solver_choice == FL_SOLVER_AUTO && sc->linsolver == FL_SOLVER_KLU);
    /* contacts stepped through keep constant root functions (integrate.c's roots_active) */
    int nroots = sc->nr && (s->contact_events || sc->roots_other) ? sc->nr : 0;
    if (fl_ida_create(s, &gr->I, sc->nu, sc->u, t0, &sc->jpat, fl_ida_ls_for(gr->use_klu), g_res, g_jac, g_root, nroots,
                      gr))
        return -1;
    gr->t = gr->tprev = t0;
    gr->tstop = NAN;
    gr->pending = 0;
    gr->stalled = 0;
    memset(gr->e_t, 0, sizeof gr->e_t);
    memset(gr->e_tprev, 0, sizeof gr->e_tprev);
    gr->imp = gr->impw = gr->dmax = 0;
    gr->e0 = s->energy && !s->erows ? g_energy_now(s, gr) : 0;
    g_time_event(s, gr, t0);
    return 0;
}

void fl_groups_add_stats(const fl_sim *s, fl_stats *st)
{
    for (int g = 0; g < s->ngrun; g++)
        if (s->grun[g].I.mem) fl_ida_counters(s->grun[g].I.mem, st);
}

void fl_groups_free_run(fl_sim *s)
{
    for (int g = 0; g < s->ngrun; g++) {
        fl_grun *gr = &s->grun[g];
        fl_ida_free(&gr->I);
        fl_linsys_free(&gr->reinit_ls);
    }
    free(s->grun);
    free(s->heap);
    free(s->gy);
    free(s->gyp);
    free(s->gres);
    free(s->gdir);
    for (int k = 0; k < 3; k++) free(s->gscr[k]);
    free(s->gout);
    free(s->gneed);
    s->gneed = NULL;
    if (s->osc) {
        free(s->osc->b);
        free(s->osc->dv);
        free(s->osc->sg);
        free(s->osc);
    }
    s->gout = NULL;
    s->ngout = 0;
    s->osc = NULL;
    s->grun = NULL;
    s->heap = NULL;
    s->gy = s->gyp = s->gres = NULL;
    s->gdir = NULL;
    for (int k = 0; k < 3; k++) s->gscr[k] = NULL;
    s->ngrun = 0;
}

/* The indices i < n with mark[i] set, in order, into *list. */
static int marked(const unsigned char *mark, int n, int **list)
{
    int m = 0;
    for (int i = 0; i < n; i++) m += mark[i] != 0;
    *list = fl_xmalloc(sizeof(int) * (size_t)(m ? m : 1));
    m = 0;
    for (int i = 0; i < n; i++)
        if (mark[i]) (*list)[m++] = i;
    return m;
}

/* The instances an output shows a variable of, marked (out_inst, and
 * those of ports' positions, which are no class outputs). */
static unsigned char *selected_instances(const fl_sim *s)
{
    const fl_system *sys = s->sys;
    unsigned char *im = fl_xmalloc((size_t)(sys->ninst ? sys->ninst : 1));
    memcpy(im, s->out_inst, (size_t)sys->ninst);
    for (int k = 0; k < s->nout_vars; k++)
        if (s->out_def[k].kind != OV_ENERGY) im[s->out_def[k].inst] = 1; /* (the audit's totals are no instance's) */
    return im;
}

/* The bodies of instance i's ports and its inputs, marked. */
static void mark_instance(const fl_system *sys, int i, unsigned char *bm, unsigned char *sm)
{
    const fl_inst_rt *ir = &sys->insts[i];
    for (int p = 0; p < ir->cls->nports; p++) {
        int nd = sys->ports[ir->port0 + p].node;
        if (nd >= 0) bm[sys->nodes[nd].body] = 1;
    }
    for (int k = 0, nin = fl_class_nin(ir->cls); k < nin; k++) sm[ir->in0 + k] = 1;
}

/* The bodies whose kinematics the marked sensor signals read, marked. */
static void mark_sensed(const fl_system *sys, unsigned char *bm, const unsigned char *sm)
{
    for (int k = 0; k < sys->nsig; k++) {
        const fl_sigref *sr = &sys->sigs[k];
        if (!sm[k] || sr->kind != SIG_KIN) continue;
        for (int m = 0; m < 2; m++)
            if (sr->node[m] >= 0) bm[sys->nodes[sr->node[m]].body] = 1;
    }
}

/* The drivers of the marked bodies and their inputs, marked. */
static void mark_drivers(const fl_system *sys, const unsigned char *bm, unsigned char *sm, unsigned char *dm)
{
    for (int b = 0; b < sys->nbodies; b++)
        if (bm[b] && sys->bodies[b].drv >= 0) {
            const fl_driver *dv = &sys->drvs[sys->bodies[b].drv];
            dm[sys->bodies[b].drv] = 1;
            for (int q = 0; q < dv->nin; q++) sm[dv->sig + q] = 1;
        }
}

/* What the selected outputs need (s->gout, s->osc), when they are
 * positions and velocities only: then an output point interpolates only
 * their groups and evaluates only their kinematics, and its cost does not
 * grow with the number of groups. */
static void select_output_groups(fl_sim *s)
{
    const fl_system *sys = s->sys;
    if (!s->out_vars || !s->out_kinematic) return;
    unsigned char *gm = fl_xcalloc((size_t)s->ngrun, 1);
    unsigned char *bm = fl_xcalloc((size_t)(sys->nbodies ? sys->nbodies : 1), 1);
    unsigned char *sm = fl_xcalloc((size_t)(sys->nsig ? sys->nsig : 1), 1);
    unsigned char *dm = fl_xcalloc((size_t)(sys->ndrv ? sys->ndrv : 1), 1);
    int *eg = fl_xmalloc(sizeof(int) * (size_t)(sys->nelem ? sys->nelem : 1)); /* group of each element */
    for (int g = 0; g < s->ngrun; g++)
        for (int k = 0; k < sys->groups[g].ne; k++) eg[sys->groups[g].e[k]] = g;
    unsigned char *im = selected_instances(s);
    for (int i = 0; i < sys->ninst; i++) {
        if (!im[i]) continue;
        mark_instance(sys, i, bm, sm);
        if (sys->insts[i].elem >= 0) gm[eg[sys->insts[i].elem]] = 1;
    }
    free(im);
    free(eg);
    mark_sensed(sys, bm, sm);
    for (int b = 0; b < sys->nbodies; b++)
        if (bm[b] && sys->body_group[b] >= 0) gm[sys->body_group[b]] = 1;
    /* the kinematics of those groups, and of the shared bodies read */
    for (int g = 0; g < s->ngrun; g++) {
        if (!gm[g]) continue;
        const fl_scope *sc = &sys->groups[g];
        for (int k = 0; k < sc->nb; k++) bm[sc->b[k]] = 1;
        for (int k = 0; k < sc->nsg; k++) sm[sc->sg[k]] = 1;
    }
    mark_drivers(sys, bm, sm, dm);
    s->osc = fl_xcalloc(1, sizeof *s->osc);
    s->osc->nb = marked(bm, sys->nbodies, &s->osc->b);
    s->osc->ndv = marked(dm, sys->ndrv, &s->osc->dv);
    s->osc->nsg = marked(sm, sys->nsig, &s->osc->sg);
    s->ngout = marked(gm, s->ngrun, &s->gout);
    s->gneed = gm;
    free(bm);
    free(sm);
    free(dm);
}

int fl_contacts_in_strands(const fl_sim *s)
{
    const fl_system *sys = s->sys;
    for (int g = 0, st = 0; g < sys->negroups; g++) {
        while (st < s->nstrand && s->strand[st].g1 <= g) st++;
        if (sys->egroups[g].ops->penetration && !(st < s->nstrand && s->strand[st].g0 <= g)) return 0;
    }
    return 1;
}

void fl_output_scope(fl_sim *s)
{
    const fl_system *sys = s->sys;
    if (s->ngrun || s->osc || !s->out_vars || !s->out_kinematic || s->energy) return;
    /* every watched contact's depth from its strand (fl_track_penetration) */
    if (!s->contact_events && !fl_contacts_in_strands(s)) return;
    unsigned char *bm = fl_xcalloc((size_t)(sys->nbodies ? sys->nbodies : 1), 1);
    unsigned char *sm = fl_xcalloc((size_t)(sys->nsig ? sys->nsig : 1), 1);
    unsigned char *dm = fl_xcalloc((size_t)(sys->ndrv ? sys->ndrv : 1), 1);
    unsigned char *im = selected_instances(s);
    for (int i = 0; i < sys->ninst; i++)
        if (im[i]) mark_instance(sys, i, bm, sm);
    free(im);
    mark_sensed(sys, bm, sm);
    mark_drivers(sys, bm, sm, dm);
    s->osc = fl_xcalloc(1, sizeof *s->osc);
    s->osc->nb = marked(bm, sys->nbodies, &s->osc->b);
    s->osc->ndv = marked(dm, sys->ndrv, &s->osc->dv);
    s->osc->nsg = marked(sm, sys->nsig, &s->osc->sg);
    free(bm);
    free(sm);
    free(dm);
}

int fl_groups_start(fl_sim *s)
{
    const fl_system *sys = s->sys;
    size_t n = (size_t)sys->n;
    s->ngrun = sys->ngroups;
    s->grun = fl_xcalloc((size_t)s->ngrun, sizeof(fl_grun));
    s->heap = fl_xmalloc(sizeof(int) * 2 * (size_t)s->ngrun);
    s->gy = fl_xcalloc(n, sizeof(double));
    s->gyp = fl_xcalloc(n, sizeof(double));
    s->gres = fl_xcalloc(n, sizeof(double));
    for (int k = 0; k < 3; k++) s->gscr[k] = fl_xcalloc(n, sizeof(double));
    s->gdir = fl_xcalloc((size_t)(sys->nroot_fns ? sys->nroot_fns : 1), sizeof(int));
    fl_roots_room(s); /* (the groups' root functions are read from s->g) */
    /* a grouped run watches the energy balance per group, and its output
     * points compute the audit's values only when they show them */
    s->erows = s->energy && !s->out_kinematic;
    select_output_groups(s);
    s->gsteps = 0;
    for (int g = 0; g < s->ngrun; g++) {
        fl_grun *gr = &s->grun[g];
        gr->sim = s;
        gr->g = g;
        if (g_setup(s, gr, s->run.t)) {
            fl_err(s->diag, fl_noloc, "cannot set up the IDA integrator of group %d%s%s", g + 1,
                   s->ida_msg[0] ? ": " : "", s->ida_msg);
            return -1;
        }
    }
    return 0;
}

/* Restart group g at t from s->y, s->yp (after its event). */
static int g_restart(fl_sim *s, fl_grun *gr, double t)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = &sys->groups[gr->g];
    fl_ida_counters(gr->I.mem, &s->stats);
    /* positions rebased on where they are now (integrate.c's rebase_positions) */
    for (int i = 0; i < sc->nb; i++) {
        int b = sc->b[i], qi = sys->bodies[b].qi;
        if (qi < 0 || sys->body_group[b] != gr->g) continue;
        s->qoff[b] += s->y[qi];
        s->y[qi] = 0;
    }
    fl_states_changed(s);
    fl_sources_stale(s);
    s->sc = sc;
    fl_algebraic_rates(s, t, s->y, s->yp);
    s->sc = NULL;
    copy_in(sc, gr->I.yv, s->y);
    copy_in(sc, gr->I.ypv, s->yp);
    gr->t = gr->tprev = t;
    gr->pending = gr->here = 0;
    gr->tstop = NAN; /* (IDAReInit forgets the stop time) */
    g_time_event(s, gr, t);
    if (IDASetInitStep(gr->I.mem, fl_first_step(s, sc->nu, sc->u, t))) return -1;
    if (sc->nu == sc->nd) fl_linsys_release(&gr->reinit_ls); /* (as fl_run_restart) */
    return IDAReInit(gr->I.mem, t, gr->I.yv, gr->I.ypv);
}

/* ---- one step of one group ------------------------------------------------ */

/* The energy integrals of group gr over [a, b] inside its last step. */
static int g_energy_quad(fl_sim *s, fl_grun *gr, double a, double b, double inc[4])
{
    return fl_energy_quad(s, gr->I.mem, gr->I.qy, gr->I.qyp, &s->sys->groups[gr->g], gr->t_left, a, b, inc);
}

/* Kinetic plus stored energy of group gr at its current point. */
static double g_energy_now(fl_sim *s, fl_grun *gr)
{
    enter(gr, N_VGetArrayPointer(gr->I.yv), N_VGetArrayPointer(gr->I.ypv));
    fl_erates r;
    double tl = s->t_left;
    s->t_left = gr->t_left;
    fl_energy_rates(s, gr->t, s->gy, s->gyp, &r);
    s->t_left = tl;
    s->sc = NULL;
    double q[] = {r.ekin, r.upot, gr->e_t[0], gr->e_t[1]};
    for (size_t k = 0; k < sizeof q / sizeof q[0]; k++) s->e_seen_max = fmax(s->e_seen_max, fabs(q[k]));
    return r.ekin + r.upot;
}

/* The drift of group gr's own balance at the end of its step: with no
 * energy at output points, this is where the audit watches it (the run's
 * worst drift is then the sum of the groups' worst, a bound). */
static void g_drift(fl_sim *s, fl_grun *gr)
{
    double d = g_energy_now(s, gr) + gr->e_t[0] + gr->imp - gr->e_t[1] - gr->impw - gr->e0;
    gr->dmax = fmax(gr->dmax, fabs(d));
}

/* The deepest penetrations of the group's contacts at its current point. */
static void g_penetration(fl_sim *s, fl_grun *gr)
{
    enter(gr, N_VGetArrayPointer(gr->I.yv), N_VGetArrayPointer(gr->I.ypv));
    fl_eval_kinematics(s, gr->t, s->gy, s->gyp);
    fl_track_penetration(s, gr->t, s->gy, s->gyp);
    s->sc = NULL;
}

/* One step of group gr towards target; 1 when it ends at an event. */
static int g_step(fl_sim *s, fl_grun *gr, double target)
{
    double tend = s->run.tend, t = gr->t;
    double tstop = fmin(gr->te, target);
    int flag = IDA_TSTOP_RETURN;
    double tret = tstop;
    if (gr->te < tend && fl_same_time(gr->te, t)) {
        /* a breakpoint a rounding error after the last one: at once (integrate.c) */
    } else {
        s->t_left = gr->t_left;
        if (tstop != gr->tstop) IDASetStopTime(gr->I.mem, tstop);
        gr->tstop = tstop;
        flag = IDASolve(gr->I.mem, tstop, &tret, gr->I.yv, gr->I.ypv, IDA_ONE_STEP);
        const fl_scope *sc = &s->sys->groups[gr->g];
        if (flag < 0) return fl_fail_solver(s, gr->I.mem, sc->nu, sc->u, tret, flag);
        gr->stalled = tret - t <= 64 * DBL_EPSILON * fabs(tret) ? gr->stalled + 1 : 0;
        if (gr->stalled > FL_MAX_STALLED_STEPS) {
            fl_fail_stalled(s, gr->I.mem, sc->nu, sc->u, tret);
            return -1;
        }
    }
    gr->tprev = t;
    gr->t = tret;
    s->gsteps++;
    if (s->energy) {
        double inc[4];
        memcpy(gr->e_tprev, gr->e_t, sizeof gr->e_t);
        if (g_energy_quad(s, gr, t, tret, inc) == 0)
            for (int k = 0; k < 4; k++) gr->e_t[k] = gr->e_tprev[k] + inc[k];
        if (s->energy && !s->erows) g_drift(s, gr);
    }
    /* deepest penetrations after every step of the group (with one
     * integrator they are looked at at output points when contacts are
     * stepped through; a group's own contacts are few) */
    if (s->sys->groups[gr->g].npen) g_penetration(s, gr);
    int ev = flag == IDA_ROOT_RETURN || (flag == IDA_TSTOP_RETURN && tret == gr->te && gr->te < tend);
    if (ev) gr->pending = flag == IDA_ROOT_RETURN ? 1 : 2;
    return ev;
}

/* ---- instants ------------------------------------------------------------- */

/* Every group's values at t into s->y, s->yp: the groups whose event is
 * this instant (here) as they stand, the others interpolated in their
 * last step. */
static int fill_all(fl_sim *s, double t, int all)
{
    int ng = all || !s->gout ? s->ngrun : s->ngout;
    for (int k = 0; k < ng; k++) {
        int g = all || !s->gout ? k : s->gout[k];
        fl_grun *gr = &s->grun[g];
        const fl_scope *sc = &s->sys->groups[g];
        if (gr->here) continue;
        if (gr->t == t) {
            copy_out(sc, gr->I.yv, s->y);
            copy_out(sc, gr->I.ypv, s->yp);
            continue;
        }
        if (IDAGetDky(gr->I.mem, t, 0, gr->I.qy) || IDAGetDky(gr->I.mem, t, 1, gr->I.qyp)) {
            /* a rounding error short of t (reached, for the instants: just
             * restarted there), or stepped past it with no output reading it */
            if (fl_same_time(gr->t, t) || (s->gneed && !s->gneed[g])) {
                copy_out(sc, gr->I.yv, s->y);
                copy_out(sc, gr->I.ypv, s->yp);
                continue;
            }
            fl_err(s->diag, fl_noloc, "cannot interpolate the solution at t = %.9g", t);
            return -1;
        }
        copy_out(sc, gr->I.qy, s->y);
        copy_out(sc, gr->I.qyp, s->yp);
    }
    return 0;
}

/* The energy integrals of the whole system at t: each group's up to t. */
static void energy_at(fl_sim *s, double t)
{
    double sum[4] = {0, 0, 0, 0};
    for (int g = 0; g < s->ngrun && s->energy; g++) {
        fl_grun *gr = &s->grun[g];
        double inc[4] = {0, 0, 0, 0};
        const double *base = gr->e_t;
        if (!fl_same_time(gr->t, t)) {
            base = gr->e_tprev;
            if (g_energy_quad(s, gr, gr->tprev, t, inc)) return;
        }
        for (int k = 0; k < 4; k++) sum[k] += base[k] + inc[k];
    }
    if (!s->energy) return;
    s->e_diss = sum[0];
    s->e_work = sum[1];
    s->e_work_abs = sum[2];
    s->e_loss_neg = sum[3];
}

/* The audit's totals at the end of the run (t): the integrals, and the
 * groups' worst drifts when no output point watched the whole balance. */
static void energy_end(fl_sim *s, double t)
{
    energy_at(s, t);
    if (!s->energy || s->erows) return;
    double sum = 0;
    for (int g = 0; g < s->ngrun; g++) sum += s->grun[g].dmax;
    s->e_drift_max = fmax(s->e_drift_max, sum);
}

/* The run's progress callback (at output points, and every max(1000,
 * groups) steps of groups: adding up the groups' counters costs O(groups)). */
static int progress(fl_sim *s, double t)
{
    s->gsteps = 0;
    return fl_run_progress(s, t);
}

/* What happened at an event instant of groups whose values no output
 * reads (run alone, before the others): the instant still has its rows. */
typedef struct ginst {
    double t;
    int state, timed, extra; /* a state event, a time event, a third row (sample() ended) */
    int g, k;                /* the group, and the event's place in the list (order at equal times) */
    int used;
} ginst;

/* The event iteration of the groups ev[0 .. nev) at t, their samples
 * ended (*extra: values changed then), unless terminate(): their restart.
 * emit: the values after the event iteration go to the output. 1:
 * terminate(). */
static int process(fl_sim *s, double t, const int *ev, int nev, int emit, int *extra)
{
    const fl_system *sys = s->sys;
    s->t_left = NAN;
    for (int i = 0; i < nev; i++) {
        fl_grun *gr = &s->grun[ev[i]];
        const fl_scope *sc = &sys->groups[ev[i]];
        int *dir = NULL;
        if (gr->pending == 1) {
            int *ld = fl_xcalloc((size_t)(sc->nr ? sc->nr : 1), sizeof(int));
            if (IDAGetRootInfo(gr->I.mem, ld)) {
                free(ld);
                return -1;
            }
            for (int k = 0; k < sc->nr; k++) s->gdir[sc->r[k]] = ld[k];
            free(ld);
            dir = s->gdir;
        }
        double il = s->impact_loss, iw = s->impulse_work[0];
        s->sc = sc;
        int rc = fl_event_iteration(s, t, dir, 1);
        if (rc >= 0) rc = fl_settle_zero_roots(s, t);
        s->sc = NULL;
        gr->imp += s->impact_loss - il; /* (this group's impacts, for its own balance) */
        gr->impw += s->impulse_work[0] - iw;
        for (int k = 0; dir && k < sc->nr; k++) s->gdir[sc->r[k]] = 0;
        if (rc < 0) return -1;
    }
    if (emit && fl_run_emit(s, t)) return -1;
    *extra = 0;
    for (int i = 0; i < nev; i++) {
        fl_grun *gr = &s->grun[ev[i]];
        double il = s->impact_loss, iw = s->impulse_work[0];
        s->sc = &sys->groups[ev[i]];
        int rc = fl_end_samples(s, t);
        s->sc = NULL;
        gr->imp += s->impact_loss - il;
        gr->impw += s->impulse_work[0] - iw;
        if (rc < 0) return -1;
        *extra |= rc > 0;
    }
    if (emit && *extra && fl_run_emit(s, t)) return -1;
    if (s->terminate) return 1;
    for (int i = 0; i < nev; i++)
        if (g_restart(s, &s->grun[ev[i]], t)) return -1;
    return 0;
}

/* The event instant t of the groups in ev[0 .. nev), and of the groups run
 * before that met at this instant (x, NULL: none): the values before, the
 * event iterations, the values after. 1: terminate(). */
static int instant(fl_sim *s, double t, const int *ev, int nev, const ginst *x)
{
    const fl_system *sys = s->sys;
    int state = x ? x->state : 0, timed = x ? x->timed : 0, extra;
    for (int i = 0; i < nev; i++) {
        fl_grun *gr = &s->grun[ev[i]];
        const fl_scope *sc = &sys->groups[ev[i]];
        copy_out(sc, gr->I.yv, s->y);
        copy_out(sc, gr->I.ypv, s->yp);
        gr->here = 1;
        if (gr->pending == 1) state = 1;
        else timed = 1;
    }
    if (state) s->stats.state_events++;
    else s->stats.time_events++;
    if (fill_all(s, t, 0)) return -1;
    if (s->erows) energy_at(s, t);
    /* the values just before the event (left limits of time events) */
    s->t_left = timed ? t : NAN;
    if (fl_run_emit(s, t)) return -1;
    int rc = process(s, t, ev, nev, 0, &extra);
    if (rc < 0) return -1;
    if (fl_run_emit(s, t)) return -1;
    if ((extra || (x && x->extra)) && fl_run_emit(s, t)) return -1;
    return rc;
}

static int cmp_ginst(const void *a, const void *b)
{
    const ginst *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

/* The events of the groups run alone, in time order from k on. */
typedef struct alone_list {
    ginst *v;
    size_t n, cap, k;
} alone_list;

/* Groups whose values no output reads (a few positions selected) need no
 * values at the others' instants: each runs alone, one after the other (the
 * best use of the cache: one group's memory at a time), with its own
 * events, and leaves their times, which are instants with rows of their
 * own. The groups the outputs read follow, in time order, with those
 * instants. They take turns by stretches of a 16th of the run or 1000
 * output intervals, whichever is shorter (up to horizon: each group's last
 * step there may end beyond it, as it would without the turns), so that
 * output points come while the run goes on (measured on 1000 bouncing
 * bodies: 8 turns 0.63 s, 16 0.68 s, 64 0.86 s, one 0.62 s). Not
 * when a group may end the run early (terminate()): the others must not
 * have run past that. */
static int run_alone(fl_sim *s, double target, double horizon, alone_list *xs)
{
    fl_run *r = &s->run;
    /* (what is left of the list first, then this stretch's, sorted together) */
    if (xs->k) memmove(xs->v, xs->v + xs->k, sizeof(ginst) * (xs->n - xs->k));
    xs->n -= xs->k;
    xs->k = 0;
    for (int g = 0; g < s->ngrun; g++) {
        if (s->gneed[g]) continue;
        fl_grun *gr = &s->grun[g];
        while (gr->t < horizon && !fl_same_time(gr->t, target)) {
            int e = g_step(s, gr, target);
            if (e < 0) return -1;
            if (s->gsteps >= FL_MAX(1000, s->ngrun) && progress(s, r->t)) return -1;
            if (!e) continue;
            const fl_scope *sc = &s->sys->groups[g];
            copy_out(sc, gr->I.yv, s->y);
            copy_out(sc, gr->I.ypv, s->yp);
            ginst in = {gr->t, gr->pending == 1, gr->pending == 2, 0, g, 0, 0};
            if (process(s, gr->t, &g, 1, 0, &in.extra)) return -1;
            FL_VEC_PUSH(*xs, in);
        }
    }
    for (size_t k = 0; k < xs->n; k++) xs->v[k].k = (int)k; /* (a group's events stay in their order) */
    if (xs->n) qsort(xs->v, xs->n, sizeof(ginst), cmp_ginst);
    return 0;
}

int fl_groups_advance(fl_sim *s, double target)
{
    fl_run *r = &s->run;
    const double t0 = r->t0, h = r->h, tend = r->tend;
    int alone = s->gneed != NULL;
    for (int g = 0; g < s->ngrun && alone; g++)
        if (s->sys->groups[g].terminates) alone = 0; /* (the others would have run past its end) */
    alone_list xs = {0};
    int turn = 0;
    double horizon = alone ? t0 : INFINITY;

    gheap act = {s->heap, 0}, pend = {s->heap + s->ngrun, 0};
    for (int g = 0; g < s->ngrun; g++)
        if (!alone || s->gneed[g]) gh_push(s, &act, g);
    int *ev = fl_xmalloc(sizeof(int) * (size_t)s->ngrun);
    long *stamp = fl_xcalloc((size_t)s->ngrun, sizeof(long)), ninst = 0;
    int ret = 0, grid_left = 1;
    for (;;) {
        if (alone && r->t >= horizon && horizon < target) { /* the next turn of the groups run alone */
            double step = fmin((tend - t0) / 16, 1000 * h);
            horizon = ++turn * step >= tend - t0 ? target : t0 + step * turn;
            if (run_alone(s, target, horizon, &xs)) {
                ret = -1;
                goto out;
            }
        }
        double tg = grid_left ? fl_grid_time(t0, h, tend, r->kgrid) : INFINITY;
        double ts = fmin(fmin(tg, target), horizon);
        if (pend.n) ts = fmin(ts, s->grun[pend.a[0]].t);
        if (xs.k < xs.n) ts = fmin(ts, xs.v[xs.k].t);
        /* every group up to ts; the one that has come least far steps, so
         * that an event found on the way lies inside the last step of every
         * group (interpolated there) */
        while (act.n && s->grun[act.a[0]].t < ts) {
            int g = gh_pop(s, &act);
            int e = g_step(s, &s->grun[g], target);
            if (e < 0 || (s->gsteps >= FL_MAX(1000, s->ngrun) && progress(s, s->grun[g].tprev))) {
                ret = -1;
                goto out;
            }
            if (e) {
                gh_push(s, &pend, g);
                ts = fmin(ts, s->grun[g].t);
            } else {
                gh_push(s, &act, g);
            }
        }
        int nev = 0;
        while (pend.n && fl_same_time(s->grun[pend.a[0]].t, ts)) ev[nev++] = gh_pop(s, &pend);
        /* the events of the groups run alone that fall here, as one instant,
         * with one event of each group (a group's next event at the same
         * time is the next instant, as when it runs with the others) */
        ginst x = {ts, 0, 0, 0, 0, 0, 0};
        int nxh = 0;
        ninst++;
        for (size_t j = xs.k; j < xs.n && fl_same_time(xs.v[j].t, ts); j++) {
            if (xs.v[j].used || stamp[xs.v[j].g] == ninst) continue;
            stamp[xs.v[j].g] = ninst;
            xs.v[j].used = 1;
            nxh++;
            x.state |= xs.v[j].state;
            x.timed |= xs.v[j].timed;
            x.extra |= xs.v[j].extra;
        }
        while (xs.k < xs.n && xs.v[xs.k].used) xs.k++;
        if (nev || nxh) {
            int rc = instant(s, ts, ev, nev, nxh ? &x : NULL);
            if (rc) {
                /* terminate(): the others at ts too, the run ends here */
                if (rc > 0 && fill_all(s, ts, 1)) rc = -1;
                if (rc > 0) energy_end(s, ts);
                r->t = ts;
                ret = rc;
                goto out;
            }
            for (int i = 0; i < nev; i++) gh_push(s, &act, ev[i]);
            if (grid_left && fl_same_time(tg, ts)) {
                if (tg >= tend) grid_left = 0;
                r->kgrid++;
            }
        } else if (grid_left && fl_same_time(tg, ts)) {
            s->t_left = NAN;
            if (fill_all(s, ts, 0)) {
                ret = -1;
                goto out;
            }
            if (s->erows) energy_at(s, ts);
            if (fl_run_emit(s, ts) || progress(s, ts)) { /* (progress at output points: its counters cost O(groups)) */
                ret = -1;
                goto out;
            }
            if (tg >= tend) grid_left = 0;
            r->kgrid++;
        }
        r->t = ts;
        if (ts >= target || (fl_same_time(ts, target) && !pend.n && xs.k >= xs.n)) break;
    }
    /* every group stopped at the target */
    if (fill_all(s, target, 1)) ret = -1;
    energy_end(s, target);
    r->t = target;
out:
    free(ev);
    free(stamp);
    free(xs.v);
    return ret;
}
