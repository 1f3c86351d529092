/* events.c - the event machinery of a run: the event iteration of the
 * discrete states at an instant, the relations that leave zero at a
 * (re)start, the end of sample() instants, and the root search of a model
 * with nothing to integrate. Shared by fl_sim_run (integrate.c) and the
 * runs taken in pieces (step.c), so that an FMU processes an event exactly
 * as `flange simulate` does. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

const char *fl_elem_name(const fl_sim *s, int e)
{
    const fl_system *sys = s->sys;
    const char *n = e >= 0 && e < sys->nelem ? fl_inst_name(sys, s->elems[e].inst) : "?";
    return n[0] ? n : "the equations of the model";
}

/* Event iteration at t: update discrete states until nothing changes,
 * re-solving the continuous equations in between. Returns the number of
 * passes that changed something, or -1. */
int fl_event_iteration(fl_sim *s, double t, const int *dir, int force_resolve)
{
    const fl_system *sys = s->sys;
    /* inputs may have jumped (time events): make the continuous part
     * consistent before the discrete states look at it */
    if (force_resolve && fl_solve_consistent(s, t, s->y, s->yp)) return -1;
    int iter = 0;
    for (; s->sc ? s->sc->discrete : (sys->nmodes || sys->nreal); iter++) {
        if (iter >= FL_MAX_EVENT_ITER) {
            fl_err(s->diag, fl_noloc,
                   "event iteration at t = %.9g did not settle after %d passes: the modes of the "
                   "friction/contact elements (last changed: %s) have no consistent combination",
                   t, FL_MAX_EVENT_ITER, fl_elem_name(s, s->last_changed));
            return -1;
        }
        /* the crossings of this instant keep deciding their relations */
        s->elem_warn[0] = '\0';
        s->elem_warn_elem = -1;
        int r = fl_event_update(s, t, s->y, s->yp, dir);
        if (s->elem_warn[0] && strcmp(s->elem_warn, s->last_warn) != 0) { /* once, where it first holds */
            const char *in = s->elem_warn_elem >= 0 ? fl_inst_name(s->sys, s->elems[s->elem_warn_elem].inst) : "";
            fl_warn(s->diag, s->elem_warn_loc, "at t = %.9g: %s%s%s", t, in, in[0] ? "." : "", s->elem_warn);
            memcpy(s->last_warn, s->elem_warn, FL_ERRLEN);
            s->last_warn_t = t;
        }
        if (r < 0) {
            if (s->elem_err_loc.file) fl_err(s->diag, s->elem_err_loc, "at t = %.9g: %s", t, s->elem_err);
            else fl_err(s->diag, fl_noloc, "at t = %.9g: %s: %s", t, fl_elem_name(s, s->last_changed), s->elem_err);
            return -1;
        }
        if (!r) break;
        if (fl_solve_consistent(s, t, s->y, s->yp)) return -1;
    }
    return iter;
}

/* A relation whose root function is exactly zero at a (re)start is not seen
 * by IDA's root finding when it moves away from zero (IDA treats such a
 * component as inactive). Look a moment ahead along the motion (positions
 * to second order) and decide those relations by the side they move to,
 * as the crossing direction of an event would. */
/* The root functions at (t, y, yp) into g: all of them, or those of the
 * group s->sc (g[k] is its k-th). */
static void roots_of_scope(fl_sim *s, double t, const double *y, const double *yp, double *g)
{
    const fl_scope *sc = s->sc;
    if (!sc) {
        fl_eval_roots(s, t, y, yp, g);
        return;
    }
    fl_roots_room(s);
    fl_eval_roots(s, t, y, yp, s->g);
    for (int k = 0; k < sc->nr; k++) g[k] = s->g[sc->r[k]];
}

int fl_settle_zero_roots(fl_sim *s, double t)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = s->sc;
    int n = sys->n, nr = sc ? sc->nr : sys->nroot_fns, nu = sc ? sc->nu : n;
    if (!nr) return 0;
    double *g0 = fl_xmalloc(sizeof(double) * (size_t)nr), *g1 = fl_xmalloc(sizeof(double) * (size_t)nr);
    /* a group works in whole-system vectors, touching its own unknowns */
    double *yn = sc ? s->gscr[2] : fl_xmalloc(sizeof(double) * (size_t)(n ? n : 1));
    int *ldir = fl_xcalloc((size_t)nr, sizeof(int));
    roots_of_scope(s, t, s->y, s->yp, g0);
    int zeros = 0;
    for (int k = 0; k < nr; k++) zeros += g0[k] == 0;
    int rc = 0, any = 0;
    /* the rates of the algebraic unknowns too (IDA's are not known yet): a
     * threshold that grows with a load from zero (a lossy gear's
     * break-away under a torque starting at 0) moves only through them */
    double *ypa = NULL;
    if (zeros) {
        ypa = fl_xmalloc(sizeof(double) * (size_t)(n ? n : 1));
        for (int k = 0; k < nu; k++) ypa[sc ? sc->u[k] : k] = s->yp[sc ? sc->u[k] : k];
        if (n) fl_algebraic_rates(s, t, s->y, ypa);
    }
    /* further ahead until every zero has moved (a position at rest moves
     * only at second order, which a large coordinate can swallow) */
    for (double dt = 1e-9; zeros && dt <= 1.1e-5; dt *= 100) {
        double h = dt * fmax(1.0, fabs(t));
        for (int k = 0; k < nu; k++) {
            int i = sc ? sc->u[k] : k;
            yn[i] = s->y[i] + h * ypa[i];
        }
        for (int ib = 0; ib < (sc ? sc->nb : sys->nbodies); ib++) {
            const fl_body *bd = &sys->bodies[sc ? sc->b[ib] : ib];
            if (bd->qi >= 0 && bd->vi >= 0) yn[bd->qi] += 0.5 * h * h * s->yp[bd->vi];
        }
        roots_of_scope(s, t + h, yn, s->yp, g1);
        for (int k = 0; k < nr; k++)
            if (g0[k] == 0 && !ldir[k] && g1[k] != 0) {
                ldir[k] = g1[k] > 0 ? 1 : -1;
                zeros--;
                any = 1;
            }
    }
    if (any) {
        /* the event iteration takes directions by the system's root index */
        int *dir = ldir;
        if (sc) {
            dir = s->gdir;
            for (int k = 0; k < nr; k++) dir[sc->r[k]] = ldir[k];
        }
        rc = fl_event_iteration(s, t, dir, 0);
        if (sc)
            for (int k = 0; k < nr; k++) dir[sc->r[k]] = 0;
    }
    free(ypa);
    free(g0);
    free(g1);
    if (!sc) free(yn);
    free(ldir);
    return rc;
}

/* A model with nothing to integrate has no integrator to find the roots
 * of its relations (a threshold on a source's signal): they depend on time
 * alone, so they are looked for here, at eight points of the step from a
 * to *b and then by bisection to the rounding of time. 1 when one crosses:
 * *b is the first instant after the crossing and rootdir says which
 * crossed, in which direction. */
int fl_time_roots(fl_sim *s, double a, double *b)
{
    int nr = s->sys->nroot_fns;
    fl_roots_room(s);
    double *g0 = fl_xmalloc(sizeof(double) * (size_t)nr), *g1 = fl_xmalloc(sizeof(double) * (size_t)nr);
    fl_eval_roots(s, a, s->y, s->yp, g0);
    double lo = a, hi = a;
    int found = 0;
    for (int i = 1; i <= 8 && !found; i++) {
        hi = i == 8 ? *b : a + (*b - a) * i / 8;
        fl_eval_roots(s, hi, s->y, s->yp, g1);
        for (int k = 0; k < nr && !found; k++) found = fl_crossing(g0[k], g1[k]) != 0;
        if (!found) lo = hi;
    }
    if (found) {
        fl_eval_roots(s, lo, s->y, s->yp, g0);
        while (hi - lo > 4 * DBL_EPSILON * fmax(1.0, fabs(hi))) {
            double mid = 0.5 * (lo + hi);
            fl_eval_roots(s, mid, s->y, s->yp, g1);
            int cross = 0;
            for (int k = 0; k < nr && !cross; k++) cross = fl_crossing(g0[k], g1[k]) != 0;
            if (cross) hi = mid;
            else lo = mid;
        }
        fl_eval_roots(s, hi, s->y, s->yp, g1);
        for (int k = 0; k < nr; k++)
            s->rootdir[k] = fl_crossing(g0[k], g1[k]);
        *b = hi;
    }
    free(g0);
    free(g1);
    return found;
}

/* sample() is true at its instants only: after an instant's event
 * iteration the elements that read it see its end (y = sample(0, 0.5)
 * is true in the values at the event, false in those after it). Returns
 * -1 on failure, 1 when values changed. */
int fl_end_samples(fl_sim *s, double t)
{
    const fl_system *sys = s->sys;
    int any = s->sc ? s->sc->sample : 0;
    for (int g = 0; g < sys->negroups && !any && !s->sc; g++) any = (sys->egroups[g].ops->flags & FL_EK_SAMPLE) != 0;
    if (!any) return 0;
    s->samples_off = 1;
    int changed = fl_event_iteration(s, t, NULL, 0);
    s->samples_off = 0;
    return changed < 0 ? -1 : changed > 0;
}

