/* consistent.c - consistent values for the integrator: the initialisation
 * system at the start time (model equations plus initial conditions) and
 * re-initialisation after events (differential unknowns kept, algebraic
 * unknowns and all derivatives recomputed). Both are solved by a damped
 * Newton iteration over the linear systems of linsys.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sundials/sundials_math.h>

#include "sim.h"
#include "sim/nvec.h"

static double node_level(const fl_sim *s, int node, int level)
{
    if (node < 0) return 0;
    const fl_node *nd = &s->sys->nodes[node];
    return level == 0 ? nd->ratio * s->bq[nd->body] + nd->off : nd->ratio * (level == 1 ? s->bv[nd->body] : s->ba[nd->body]);
}

/* Row `row` of the initial rows element e computes (initial equations of
 * user classes) at the current kinematics; with jac, also their Jacobian
 * values (ninit_dep of them). */
static double elem_init_row(fl_sim *s, double t, const double *y, const double *yp, int e, int row, double *jac)
{
    const fl_system *sys = s->sys;
    const fl_elem *el = &s->elems[e];
    const fl_elem_ops *ops = fl_inst_ops(sys, el->inst);
    double gsmall[16];
    double *g = ops->ninit <= 16 ? gsmall : fl_xmalloc(sizeof(double) * (size_t)ops->ninit);
    fl_ectx x;
    fl_init_ectx(s, &x, t, 0, y, yp, s->res, jac != NULL);
    ops->init_eval(&x, el, g, jac);
    double r = row >= 0 ? g[row] : 0;
    if (g != gsmall) free(g);
    return r;
}

/* Residual of the initialisation system at z = [y; yp of differential]. */
static int init_residual(fl_sim *s, double t0, const double *z, double *y, double *yp, double *G)
{
    const fl_system *sys = s->sys;
    int n = sys->n;
    for (int i = 0; i < n; i++) {
        y[i] = z[i];
        yp[i] = sys->dpos[i] >= 0 ? z[n + sys->dpos[i]] : 0;
    }
    int bad = fl_eval_residual(s, t0, y, yp, G);
    for (int k = 0; k < sys->ncond_used; k++) {
        const fl_rcond *c = &sys->rconds[fl_cond_used(sys, k)];
        if (c->source == CV_OWN) {
            G[n + k] = y[s->elems[c->ref].own + c->row] - c->value;
        } else if (c->source == CV_ELEM) {
            G[n + k] = elem_init_row(s, t0, y, yp, c->ref, c->row, NULL);
        } else {
            double target = c->source == CV_INPUT ? s->u[c->ref] : c->value;
            G[n + k] = node_level(s, c->node_p, c->level) - node_level(s, c->node_m, c->level) + c->offset - target;
        }
        if (!isfinite(G[n + k])) bad = 1;
    }
    return bad;
}

static double max_abs(const double *v, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(v[i]));
    return m;
}

static const char *row_name(const fl_sim *s, int row)
{
    const fl_system *sys = s->sys;
    if (row < sys->n) {
        const char *un = fl_unk_name(sys, row);
        return un ? un : "?";
    }
    return fl_rcond_label(sys, &sys->rconds[fl_cond_used(sys, row - sys->n)]);
}

/* A square nonlinear system G(z) = 0 for the damped Newton iteration. */
typedef struct newton_sys {
    int n;
    fl_linsys *ls;
    double t;
    double *y, *yp;
    /* G(z); returns non-zero if a component produced a non-finite value */
    int (*resid)(fl_sim *s, struct newton_sys *ns, const double *z, double *G);
    /* Jacobian values in ls->data at the y, yp of the last resid call */
    void (*jac)(fl_sim *s, struct newton_sys *ns);
} newton_sys;

enum { NEWTON_OK = 0, NEWTON_SINGULAR, NEWTON_NO_CONVERGENCE, NEWTON_NONFINITE };

/* Damped Newton with a backtracking line search on max|G|. On failure
 * *info is the 1-based zero-pivot column (singular, dense) or the row
 * with the largest residual (no convergence). */
static int newton(fl_sim *s, newton_sys *ns, double *z, int *info)
{
    int n = ns->n, rc = NEWTON_NO_CONVERGENCE;
    /* (three vectors of n: at an event of 10^6 wagons each weighs 16 MB
     * beside the integrator's) */
    double *G = fl_xmalloc(sizeof(double) * (size_t)n), *dz = G;
    double *zt = fl_xmalloc(sizeof(double) * (size_t)n), *Gt = fl_xmalloc(sizeof(double) * (size_t)n);
    *info = 0;
    double gnorm = ns->resid(s, ns, z, G) ? INFINITY : max_abs(G, n);
    for (int it = 0; it < 60; it++) {
        if (!isfinite(gnorm)) {
            rc = NEWTON_NONFINITE;
            break;
        }
        ns->jac(s, ns);
        int f = fl_linsys_factor(ns->ls);
        for (int i = 0; i < n; i++) G[i] = -G[i];
        /* (solved in place: dz is G until G takes the accepted residual) */
        if (f || fl_linsys_solve(ns->ls, G, dz)) {
            *info = f > 0 ? f : 0;
            rc = NEWTON_SINGULAR;
            break;
        }
        double lambda = 1, gnew = INFINITY;
        for (int k = 0; k < 20; k++) {
            for (int i = 0; i < n; i++) zt[i] = z[i] + lambda * dz[i];
            gnew = ns->resid(s, ns, zt, Gt) ? INFINITY : max_abs(Gt, n);
            if (gnew <= gnorm * (1 - 1e-4 * lambda) || gnew < 1e-13 || s->func_fatal) break;
            lambda *= 0.5;
        }
        if (s->func_fatal) { /* a function that cannot be evaluated anywhere (an endless loop) */
            rc = NEWTON_NONFINITE;
            break;
        }
        double step = 0;
        for (int i = 0; i < n; i++) step = fmax(step, fabs(lambda * dz[i]) / (1e-10 + 1e-9 * fabs(z[i])));
        memcpy(z, zt, sizeof(double) * (size_t)n);
        memcpy(G, Gt, sizeof(double) * (size_t)n);
        gnorm = gnew;
        if (isfinite(gnorm) && (step <= 1 || gnorm == 0)) {
            rc = NEWTON_OK;
            break;
        }
    }
    if (rc == NEWTON_NO_CONVERGENCE) {
        int worst = 0;
        for (int i = 0; i < n; i++)
            if (!(fabs(G[i]) <= fabs(G[worst]))) worst = i;
        *info = worst;
    }
    /* leave y, yp at the returned z */
    if (rc == NEWTON_OK) ns->resid(s, ns, z, G);
    free(G);
    free(zt);
    free(Gt);
    return rc;
}

static int init_resid(fl_sim *s, newton_sys *ns, const double *z, double *G)
{
    return init_residual(s, ns->t, z, ns->y, ns->yp, G);
}

static void init_jac(fl_sim *s, newton_sys *ns)
{
    const fl_system *sys = s->sys;
    fl_eval_jacobian(s, ns->t, 0, ns->y, ns->yp, NULL, ns->ls->data, NULL);
    /* rows elements compute: their Jacobians, one evaluation per element */
    double *jac = NULL;
    int cap = 0, last = -1;
    for (int k = 0; k < sys->nientry; k++) {
        const struct fl_ientry *ie = &sys->ientry[k];
        const fl_elem_ops *ops = fl_inst_ops(sys, s->elems[ie->elem].inst);
        if (ie->elem != last) {
            if (ops->ninit_dep > cap) {
                cap = ops->ninit_dep;
                jac = fl_xrealloc(jac, sizeof(double) * (size_t)cap);
            }
            memset(jac, 0, sizeof(double) * (size_t)ops->ninit_dep);
            elem_init_row(s, ns->t, ns->y, ns->yp, ie->elem, -1, jac);
            last = ie->elem;
        }
        ns->ls->data[ie->islot] += ie->mult * jac[ie->dep];
    }
    free(jac);
}

/* First guesses of the free positions from the position conditions and
 * start values the user gave, propagated outwards from the bodies whose
 * position is known (ground, prescribed motion). Modes of contacts are
 * decided at these guesses, so a body that starts pressed into a stop
 * starts in contact. */
void fl_seed_initial(fl_sim *s, double t0, double *y, const double *yp)
{
    const fl_system *sys = s->sys;
    if (!sys->n) return;
    fl_eval_kinematics(s, t0, y, yp);
    int *known = fl_xcalloc((size_t)sys->nbodies, sizeof(int));
    for (int b = 0; b < sys->nbodies; b++) known[b] = sys->bodies[b].qi < 0;
    for (int pass = 0, progress = 1; progress && pass < sys->nbodies + 1; pass++) {
        progress = 0;
        for (int k = 0; k < sys->ncond; k++) {
            const fl_rcond *c = &sys->rconds[k];
            if (c->level != 0 || c->source != CV_ATTR || !(c->weak == 0 || c->guess || c->filled)) continue;
            const fl_node *np = c->node_p >= 0 ? &sys->nodes[c->node_p] : NULL;
            const fl_node *nm = c->node_m >= 0 ? &sys->nodes[c->node_m] : NULL;
            int kp = !np || known[np->body], km = !nm || known[nm->body];
            double sp = np ? np->ratio * s->bq[np->body] + np->off : 0;
            double sm = nm ? nm->ratio * s->bq[nm->body] + nm->off : 0;
            /* sp - sm + offset = value, s = ratio q + off */
            if (!kp && km) {
                s->bq[np->body] = (c->value - c->offset + sm - np->off) / np->ratio;
                known[np->body] = 1;
                progress = 1;
            } else if (kp && !km) {
                s->bq[nm->body] = (sp + c->offset - c->value - nm->off) / nm->ratio;
                known[nm->body] = 1;
                progress = 1;
            }
        }
    }
    for (int b = 0; b < sys->nbodies; b++)
        if (sys->bodies[b].qi >= 0) y[sys->bodies[b].qi] = s->bq[b] - s->qoff[b];
    free(known);
    /* own unknowns of user classes: their start values */
    for (int k = 0; k < sys->ncond; k++) {
        const fl_rcond *c = &sys->rconds[k];
        if (c->source == CV_OWN && (c->weak == 0 || c->guess || c->filled))
            y[s->elems[c->ref].own + c->row] = c->value;
    }
}

/* What to say about an unknown that the equations do not determine: the
 * element's own hint, or for the position of a massless node between
 * springs, that they have no stiffness there (zero spring constants, a
 * contact out of touch). NULL: nothing specific. */
static const char *unknown_hint(const fl_system *sys, int i)
{
    if (sys->unk_hint && sys->unk_hint[i]) return sys->unk_hint[i];
    for (int b = 0; b < sys->nbodies; b++)
        if (sys->bodies[b].qi == i && sys->bodies[b].kind == B_MLQ)
            return "a massless node held only by springs, which have no stiffness there: give it mass, or stiffness";
    return NULL;
}

/* The initialisation's linear system over its pattern, which the
 * compiled system does not keep: both the simulation's until
 * fl_init_ls_free. */
static int init_ls_make(fl_sim *s)
{
    if (fl_init_pattern(s->sys, &s->ipat)) return -1;
    if (fl_linsys_init(s, &s->init_ls, &s->ipat) == 0) return 0;
    fl_csc_free(&s->ipat);
    return -1;
}

void fl_init_ls_free(fl_sim *s)
{
    fl_linsys_free(&s->init_ls);
    fl_csc_free(&s->ipat);
}

int fl_solve_initial(fl_sim *s, double t0, double *y, double *yp)
{
    const fl_system *sys = s->sys;
    int n = sys->n, N = n + sys->nd;
    if (n == 0) return 0;
    if (!fl_linsys_ready(&s->init_ls) && init_ls_make(s)) {
        fl_err(s->diag, fl_noloc, "cannot create the linear solver for the initialisation");
        return -1;
    }
    /* start values: the current y (zero unless set), derivatives zero */
    double *z = fl_xcalloc((size_t)N, sizeof(double));
    for (int i = 0; i < n; i++) z[i] = y[i];
    newton_sys ns = {N, &s->init_ls, t0, y, yp, init_resid, init_jac};
    int info;
    s->initial = 1;
    int rc = newton(s, &ns, z, &info);
    s->initial = 0;
    free(z);
    switch (rc) {
    case NEWTON_OK:
        return 0;
    case NEWTON_SINGULAR:
        if (info > 0 && info - 1 < n)
            fl_err(s->diag, fl_unknown_loc(sys, info - 1), "the initialisation problem is singular: %s is not determined "
                   "by the model and the initial conditions (%s)", fl_unk_name(sys, info - 1),
                   unknown_hint(sys, info - 1) ? unknown_hint(sys, info - 1)
                                               : "are two conditions saying the same thing, or is a force balance impossible?");
        else
            fl_err(s->diag, fl_noloc, "the initialisation problem is singular (dependent initial conditions?)");
        return -1;
    case NEWTON_NO_CONVERGENCE:
        fl_err(s->diag, fl_noloc,
               "the initialisation did not converge: the equations cannot be satisfied together (the largest "
               "residual is in %s); check the initial conditions for consistency",
               row_name(s, info));
        return -1;
    default:
        if (s->func_fatal) { /* the function's own message, once (not also as the run's note) */
            fl_err(s->diag, fl_noloc, "the initialisation failed: a function the equations call cannot be evaluated: %s",
                   s->func_err);
            s->func_err[0] = '\0';
        } else {
            fl_err(s->diag, fl_noloc, "the initialisation failed: a component produced a non-finite value");
        }
        return -1;
    }
}

/* Re-initialisation unknowns: algebraic y and derivatives of differential y. */
static int reinit_resid(fl_sim *s, newton_sys *ns, const double *w, double *G)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = s->sc;
    if (sc) { /* one group: its unknowns are w[k] = unknown u[k] */
        for (int k = 0; k < sc->nu; k++) {
            int i = sc->u[k];
            if (fl_unk_diff(sys, i)) ns->yp[i] = w[k];
            else ns->y[i] = w[k];
        }
        int rc = fl_eval_residual(s, ns->t, ns->y, ns->yp, s->res);
        for (int k = 0; k < sc->nu; k++) G[k] = s->res[sc->u[k]];
        return rc;
    }
    for (int i = 0; i < sys->n; i++) {
        if (fl_unk_diff(sys, i)) ns->yp[i] = w[i];
        else ns->y[i] = w[i];
    }
    return fl_eval_residual(s, ns->t, ns->y, ns->yp, G);
}

static void reinit_jac(fl_sim *s, newton_sys *ns)
{
    fl_eval_jacobian(s, ns->t, 0, ns->y, ns->yp, NULL, NULL, ns->ls->data);
}

int fl_solve_consistent(fl_sim *s, double t, double *y, double *yp)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = s->sc;
    int n = sc ? sc->nu : sys->n;
    if (n == 0) return 0;
    fl_linsys *ls = sc ? &s->grun[fl_scope_index(s)].reinit_ls : &s->reinit_ls;
    int saved_klu = s->use_klu;
    if (sc) s->use_klu = s->grun[fl_scope_index(s)].use_klu;
    int bad = !fl_linsys_ready(ls) && fl_linsys_init(s, ls, sc ? &sc->rpat : &sys->rpat);
    s->use_klu = saved_klu;
    if (bad) {
        fl_err(s->diag, fl_noloc, "cannot create the linear solver for re-initialisation");
        return -1;
    }
    double *w = fl_xmalloc(sizeof(double) * (size_t)n);
    for (int k = 0; k < n; k++) {
        int i = sc ? sc->u[k] : k;
        w[k] = fl_unk_diff(sys, i) ? yp[i] : y[i];
    }
    newton_sys ns = {n, ls, t, y, yp, reinit_resid, reinit_jac};
    int info;
    int rc = newton(s, &ns, w, &info);
    free(w);
    if (rc == NEWTON_OK) return 0;
    /* (info names a row of the group: the system's row) */
    if (sc && rc == NEWTON_SINGULAR && info > 0 && info - 1 < n) info = sc->u[info - 1] + 1;
    else if (sc && rc == NEWTON_NO_CONVERGENCE) info = sc->u[info];
    n = sys->n;
    if (rc == NEWTON_SINGULAR && info > 0 && info - 1 < n)
        fl_err(s->diag, fl_unknown_loc(sys, info - 1),
               "re-initialisation after the event at t = %.9g is singular: %s is not determined%s%s%s", t,
               fl_unk_name(sys, info - 1), unknown_hint(sys, info - 1) ? " (" : "",
               unknown_hint(sys, info - 1) ? unknown_hint(sys, info - 1) : "", unknown_hint(sys, info - 1) ? ")" : "");
    else if (rc == NEWTON_SINGULAR)
        fl_err(s->diag, fl_noloc, "re-initialisation after the event at t = %.9g is singular", t);
    else if (rc == NEWTON_NO_CONVERGENCE)
        fl_err(s->diag, fl_noloc, "re-initialisation after the event at t = %.9g did not converge (largest residual in %s)",
               t, row_name(s, info));
    else
        fl_err(s->diag, fl_noloc, "re-initialisation after the event at t = %.9g: a component produced a non-finite value", t);
    return -1;
}

/* The DAE does not give the derivatives of its algebraic unknowns, yet
 * IDA's first step after a (re)start predicts every unknown from them:
 * left at zero, an algebraic unknown that moves (the holding force of a
 * stuck friction element under a ramp) fails the error test until the step
 * is absurdly small. A forward difference of two consistent solutions
 * supplies them. */
void fl_algebraic_rates(fl_sim *s, double t, const double *y, double *yp)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = s->sc;
    int n = sys->n, m = sc ? sc->nu : n;
    if (m == (sc ? sc->nd : sys->nd)) return;
    double dt = 1e-6 * fmax(1.0, fabs(t));
    /* whole-system vectors; a group's call touches its own unknowns only */
    double *y2 = sc ? s->gscr[0] : fl_xmalloc(sizeof(double) * (size_t)n);
    double *yp2 = sc ? s->gscr[1] : fl_xmalloc(sizeof(double) * (size_t)n);
    for (int k = 0; k < m; k++) {
        int i = sc ? sc->u[k] : k;
        y2[i] = fl_unk_diff(sys, i) ? y[i] + dt * yp[i] : y[i];
        yp2[i] = yp[i];
    }
    fl_diag *saved = s->diag;
    s->diag = NULL;
    if (fl_solve_consistent(s, t + dt, y2, yp2) == 0)
        for (int k = 0; k < m; k++) {
            int i = sc ? sc->u[k] : k;
            if (!fl_unk_diff(sys, i)) yp[i] = (y2[i] - y[i]) / dt;
        }
    s->diag = saved;
    if (!sc) {
        free(y2);
        free(yp2);
    }
}
