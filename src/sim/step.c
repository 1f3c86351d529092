/* step.c - a run taken in pieces, for the FMU runtime (step.h). Co-Simulation
 * drives the phases of fl_sim_run (integrate.c) to one communication point
 * at a time, with IDA keeping its history across them; Model Exchange runs
 * the same initialisation and event machinery (events.c) but leaves the
 * integration to the importer: its states are the differential unknowns,
 * its derivatives come from the consistent re-solve that follows an event
 * (fl_solve_consistent), so an FMU computes what `flange simulate` computes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "sim/opts.h"
#include "sim/step.h"

/* What a stepping run accepts: the checks of fl_sim_run on everything but
 * the output grid (a step's size is the importer's), and a stop time that
 * may be +INFINITY. */
static int check_step_opts(const fl_sim_opts *o, fl_diag *d)
{
    fl_sim_opts c = *o;
    if (isinf(c.stop_time) && c.stop_time > 0 && isfinite(c.start_time)) c.stop_time = c.start_time + 1;
    c.interval = c.stop_time - c.start_time;
    if (!(c.interval > 0) || !isfinite(c.interval)) c.interval = 1; /* (the time checks report it) */
    c.max_outputs = 0;
    return fl_sim_check_opts(&c, d);
}

/* The scale of the first step after a (re)start (first_step in
 * integrate.c): the stop time, or the experiment's span without one. */
static void step_scales(fl_sim *s, const fl_sim_opts *o)
{
    const fl_system *sys = s->sys;
    double span = sys->exp.stop_time - sys->exp.start_time;
    if (!(span > 0) || !isfinite(span)) span = 1;
    s->t_end = isfinite(o->stop_time) ? o->stop_time : o->start_time + span;
    s->h_out = o->interval > 0 && isfinite(o->interval) ? o->interval : (s->t_end - o->start_time) / 500;
    if (!(s->h_out > 0)) s->h_out = span / 500;
}

/* fl_run_init for a stepping run: every output computed (none selected), no
 * output grid. */
static int begin_run(fl_sim *s, const fl_sim_opts *o, int kind, fl_diag *d)
{
    if (check_step_opts(o, d)) return -1;
    fl_sim_opts c = *o;
    c.outputs = NULL;
    c.noutputs = 0;
    if (kind == FL_RUN_ME) c.energy = 0; /* its integrals need the integrator's steps */
    if (fl_run_init(s, &c, 0, 0, NULL, NULL, d)) {
        fl_run_close(s, -1);
        return -1;
    }
    step_scales(s, &c);
    s->run.kind = kind;
    return 0;
}

static int no_run(const fl_sim *s, int kind, fl_diag *d)
{
    if (s && s->run.kind == kind) return 0;
    fl_err(d, fl_noloc, "no %s run under way (begin one first)", kind == FL_RUN_CS ? "Co-Simulation" : "Model Exchange");
    return -1;
}

/* No run of either kind under way. */
static int no_run_any(const fl_sim *s, fl_diag *d)
{
    if (s && s->run.kind != FL_RUN_NONE) return 0;
    fl_err(d, fl_noloc, "no run under way (begin one first)");
    return -1;
}

/* A failure inside a step: the failed user function named, as at the end of
 * fl_sim_run. */
static int step_failed(fl_sim *s)
{
    if (s->func_err[0]) fl_note(s->diag, fl_noloc, "a function the equations call failed: %s", s->func_err);
    s->diag = NULL;
    return -1;
}

/* ---- Co-Simulation ------------------------------------------------------ */

FL_GUARDED(int, fl_step_begin, (fl_sim *s, const fl_sim_opts *o, fl_diag *d), (s, o, d), -1, d)
{
    if (!s || !o) return -1;
    if (begin_run(s, o, FL_RUN_CS, d)) return -1;
    if (fl_run_start_ida(s)) {
        s->run.kind = FL_RUN_NONE;
        return fl_run_close(s, -1);
    }
    s->diag = NULL;
    return 0;
}

FL_GUARDED(int, fl_step_advance, (fl_sim *s, double tout, fl_diag *d), (s, tout, d), -1, d)
{
    if (no_run(s, FL_RUN_CS, d)) return -1;
    if (s->terminate) return 1;
    if (!(tout >= s->run.t) || !(tout <= s->run.tend)) {
        fl_err(d, fl_noloc, "cannot step from t = %.17g to t = %.17g (%s)", s->run.t, tout,
               tout > s->run.tend ? "beyond the stop time of the run" : "not forward");
        return -1;
    }
    if (tout == s->run.t) return 0;
    s->diag = d;
    /* the first step after a restart is measured against the end */
    if (s->t_end < tout) s->t_end = tout;
    int rc = fl_run_advance(s, tout);
    if (rc < 0) return step_failed(s);
    s->diag = NULL;
    return rc;
}

/* Continuous time resumes at the current time of an ME run (after its
 * initialisation or an event): signals are left limits up to the next time
 * event, the algebraic part is solved, and the indicators there are the
 * reference of the next crossing. Returns the next time event. */
static double me_resume(fl_sim *s)
{
    double t = s->run.t, te = fl_next_time_event(s, t);
    s->t_left = isfinite(te) && te <= s->run.tend ? te : NAN;
    s->run.me_dirty = 0;
    if (s->sys->nroot_fns) fl_eval_roots(s, t, s->y, s->yp, s->run.z_ref);
    s->run.me_zref = 1;
    return te;
}

/* The path of an event without a crossing (a time event) at the current
 * time: inputs and parameters may have jumped, so the continuous part is
 * re-solved before the discrete states look at it. */
static int discontinuity(fl_sim *s, double t)
{
    s->t_left = NAN;
    if (fl_event_iteration(s, t, NULL, 1) < 0) return -1;
    if (fl_settle_zero_roots(s, t) < 0) return -1;
    if (fl_end_samples(s, t) < 0) return -1;
    return 0;
}

FL_GUARDED(int, fl_step_discontinuity, (fl_sim *s, fl_diag *d), (s, d), -1, d)
{
    if (!s || (s->run.kind != FL_RUN_CS && s->run.kind != FL_RUN_ME)) return no_run(s, FL_RUN_CS, d);
    s->diag = d;
    double t = s->run.t;
    if (discontinuity(s, t)) return step_failed(s); /* (which solves an ME run's algebraic part) */
    if (s->run.kind == FL_RUN_CS) {
        if (s->sys->n && !s->terminate && fl_run_restart(s, t)) {
            fl_err(d, fl_noloc, "cannot restart the IDA integrator at t = %.9g", t);
            return step_failed(s);
        }
    } else {
        me_resume(s);
    }
    s->diag = NULL;
    return 0;
}

double fl_step_time(const fl_sim *s)
{
    return s && s->run.kind != FL_RUN_NONE ? s->run.t : NAN;
}

static int me_update(fl_sim *s);

FL_GUARDED(int, fl_step_values, (fl_sim *s, fl_diag *d), (s, d), -1, d)
{
    if (!s || s->run.kind == FL_RUN_NONE) return no_run(s, FL_RUN_CS, d);
    s->diag = d;
    if (s->run.kind == FL_RUN_ME && me_update(s)) return step_failed(s);
    int rc = fl_run_values(s, s->run.t, s->y, s->yp);
    s->diag = NULL;
    return rc;
}

/* The end of either kind of run. */
static void end_run(fl_sim *s, fl_diag *d)
{
    if (!s || s->run.kind == FL_RUN_NONE) return;
    s->diag = d;
    int rc = fl_run_end(s);
    fl_run_close(s, rc);
    fl_free_integrator(s);
}

FL_GUARDED_VOID(fl_step_end, (fl_sim *s, fl_diag *d), (s, d), fl_guard_report(&g_, d))
{
    end_run(s, d);
}

/* ---- Model Exchange ----------------------------------------------------- */

/* The algebraic unknowns and every derivative at the current time and
 * states, when either changed since they were last solved. */
static int me_update(fl_sim *s)
{
    if (!s->run.me_dirty) return 0;
    if (fl_solve_consistent(s, s->run.t, s->y, s->yp)) return -1;
    s->run.me_dirty = 0;
    return 0;
}

FL_GUARDED(int, fl_me_begin, (fl_sim *s, const fl_sim_opts *o, fl_diag *d), (s, o, d), -1, d)
{
    if (!s || !o) return -1;
    if (begin_run(s, o, FL_RUN_ME, d)) return -1;
    const fl_system *sys = s->sys;
    if (!s->run.z_ref) s->run.z_ref = fl_xcalloc((size_t)(sys->nroot_fns ? sys->nroot_fns : 1), sizeof(double));
    /* positions stay displacements from the initial place (qoff frozen): ME
     * never rebases, so the importer's states keep their meaning */
    me_resume(s);
    s->diag = NULL;
    return 0;
}

int fl_me_nstates(const fl_sim *s)
{
    return s ? s->sys->nd : 0;
}

int fl_me_nindicators(const fl_sim *s)
{
    return s ? s->sys->nroot_fns : 0;
}

const char *fl_me_state_name(const fl_sim *s, int k)
{
    if (!s || k < 0) return NULL;
    const fl_system *sys = s->sys;
    for (int i = 0; i < sys->n; i++)
        if (fl_unk_diff(sys, i) && k-- == 0) return fl_unk_name(sys, i);
    return NULL;
}

void fl_me_get_states(const fl_sim *s, double *x)
{
    const fl_system *sys = s->sys;
    for (int i = 0, k = 0; i < sys->n; i++)
        if (fl_unk_diff(sys, i)) x[k++] = s->y[i];
}

void fl_me_nominals(const fl_sim *s, double *nominal)
{
    const fl_system *sys = s->sys;
    for (int i = 0, k = 0; i < sys->n; i++)
        if (fl_unk_diff(sys, i)) nominal[k++] = sys->nominal[i] > 0 ? sys->nominal[i] : 1;
}

void fl_me_set_time(fl_sim *s, double t)
{
    if (t == s->run.t) return;
    s->run.t = t;
    s->run.me_dirty = 1;
}

void fl_me_invalidate(fl_sim *s)
{
    s->run.me_dirty = 1;
}

void fl_me_set_states(fl_sim *s, const double *x)
{
    const fl_system *sys = s->sys;
    for (int i = 0, k = 0; i < sys->n; i++)
        if (fl_unk_diff(sys, i)) {
            if (s->y[i] != x[k]) s->run.me_dirty = 1;
            s->y[i] = x[k++];
        }
}

FL_GUARDED(int, fl_me_derivatives, (fl_sim *s, double *dx, fl_diag *d), (s, dx, d), -1, d)
{
    if (no_run_any(s, d)) return -1;
    s->diag = d;
    if (me_update(s)) return step_failed(s);
    const fl_system *sys = s->sys;
    for (int i = 0, k = 0; i < sys->n; i++)
        if (fl_unk_diff(sys, i)) dx[k++] = s->yp[i];
    s->diag = NULL;
    return 0;
}

FL_GUARDED(int, fl_me_indicators, (fl_sim *s, double *z, fl_diag *d), (s, z, d), -1, d)
{
    if (no_run_any(s, d)) return -1;
    s->diag = d;
    if (me_update(s)) return step_failed(s);
    if (s->sys->nroot_fns) fl_eval_roots(s, s->run.t, s->y, s->yp, z);
    s->diag = NULL;
    return 0;
}

FL_GUARDED(int, fl_me_completed_step, (fl_sim *s, fl_diag *d), (s, d), -1, d)
{
    if (no_run(s, FL_RUN_ME, d)) return -1;
    s->diag = d;
    if (me_update(s)) return step_failed(s);
    int nr = s->sys->nroot_fns, crossed = 0;
    if (nr) {
        /* an indicator that changed sign since the reference is an event the
         * importer's root finding did not report (it stepped over it, or
         * it lies exactly at the end of the step): the reference is kept
         * for the event mode that follows, so that the crossing decides */
        double *z = fl_xmalloc(sizeof(double) * (size_t)nr);
        fl_eval_roots(s, s->run.t, s->y, s->yp, z);
        for (int k = 0; k < nr && s->run.me_zref && !crossed; k++) crossed = fl_crossing(s->run.z_ref[k], z[k]) != 0;
        if (!crossed) memcpy(s->run.z_ref, z, sizeof(double) * (size_t)nr);
        free(z);
    }
    if (!crossed) s->run.me_zref = 1;
    s->diag = NULL;
    return crossed;
}

FL_GUARDED(int, fl_me_event, (fl_sim *s, int *states_changed, int *terminate, double *next_time, fl_diag *d),
           (s, states_changed, terminate, next_time, d), -1, d)
{
    if (no_run(s, FL_RUN_ME, d)) return -1;
    const fl_system *sys = s->sys;
    int n = sys->n, nr = sys->nroot_fns;
    s->diag = d;
    if (me_update(s)) return step_failed(s);
    double t = s->run.t;
    /* the importer does not say which indicator crossed: the ones whose
     * sign changed since the reference crossed, in that direction (as
     * IDA's root finding reports them) */
    int *dir = fl_xcalloc((size_t)(nr ? nr : 1), sizeof(int));
    double *z = fl_xmalloc(sizeof(double) * (size_t)(nr ? nr : 1));
    double *y0 = fl_xmalloc(sizeof(double) * (size_t)(n ? n : 1));
    memcpy(y0, s->y, sizeof(double) * (size_t)n);
    int crossed = 0;
    if (nr) {
        fl_eval_roots(s, t, s->y, s->yp, z);
        for (int k = 0; k < nr && s->run.me_zref; k++) {
            dir[k] = fl_crossing(s->run.z_ref[k], z[k]);
            crossed |= dir[k] != 0;
        }
    }
    if (crossed) s->stats.state_events++;
    else if (isfinite(s->t_left) && fabs(t - s->t_left) <= 1e-12 * fmax(1.0, fabs(t))) s->stats.time_events++;
    s->t_left = NAN; /* at the event: the values after it */
    int passes = fl_event_iteration(s, t, crossed ? dir : NULL, 1);
    int settled = passes < 0 ? -1 : fl_settle_zero_roots(s, t);
    int ended = settled < 0 ? -1 : fl_end_samples(s, t);
    int rc = passes < 0 || settled < 0 || ended < 0 ? -1 : 0;
    /* A discrete change (a contact made, a friction locking) changes the
     * derivatives discontinuously even where no state jumps: it is reported
     * as a change of the states too, so that the importer restarts its
     * integrator instead of carrying a history across the jump (CVODE's
     * error test fails there otherwise). */
    int changed = passes > 0 || settled > 0 || ended > 0;
    for (int i = 0; i < n && !rc; i++) changed |= fl_unk_diff(sys, i) && s->y[i] != y0[i];
    free(dir);
    free(z);
    free(y0);
    if (rc) return step_failed(s);
    double te = me_resume(s);
    if (states_changed) *states_changed = changed;
    if (terminate) *terminate = s->terminate;
    if (next_time) *next_time = te;
    s->diag = NULL;
    return 0;
}

double fl_me_next_time_event(const fl_sim *s)
{
    return s && s->run.kind == FL_RUN_ME ? fl_next_time_event(s, s->run.t) : INFINITY;
}

FL_GUARDED_VOID(fl_me_end, (fl_sim *s, fl_diag *d), (s, d), fl_guard_report(&g_, d))
{
    end_run(s, d);
}
