/* energy.c - the energy audit: kinetic energy of bodies, energy stored in
 * springs and contacts, power dissipated by dampers, contacts and
 * friction, power of force sources and of prescribed-motion sources. The
 * integrator driver integrates the powers over every step (Gauss
 * quadrature on the step's interpolant) and adds the kinetic energy lost
 * in impulses; the balance
 *     E_kin + E_pot + E_dissipated - W_sources = const
 * then measures how well the run conserves energy. */
#include <math.h>
#include <string.h>

#include "sim.h"

void fl_energy_rates(fl_sim *s, double t, const double *y, const double *yp, fl_erates *r)
{
    const fl_system *sys = s->sys;
    memset(r, 0, sizeof *r);
    /* forces of all elements at this point (also the kinematics) */
    if (sys->n) fl_eval_residual(s, t, y, yp, s->res);
    else fl_eval_kinematics(s, t, y, yp);
    fl_ectx x;
    fl_init_ectx(s, &x, t, 0, y, yp, s->res, 0);
    for (int b = 0; b < sys->nbodies; b++) {
        const fl_body *bd = &sys->bodies[b];
        if (bd->mass > 0) r->ekin += 0.5 * bd->mass * s->bv[b] * s->bv[b];
        s->bodyF[b] = 0; /* sum of the element forces on body b */
    }
    for (int g = 0; g < sys->negroups; g++) {
        const fl_egroup *eg = &sys->egroups[g];
        if (eg->ops->energy) eg->ops->energy(&x, &sys->elems[eg->first], eg->n, s->eU, s->eloss);
    }
    for (int e = 0; e < sys->nelem; e++) {
        const fl_elem *el = &sys->elems[e];
        const fl_elem_ops *ops = sys->insts[el->inst].ops;
        double p = 0; /* power delivered by the element to the bodies */
        for (int j = 0; j < 2; j++) {
            int b = el->body[j];
            if (b < 0) continue;
            p -= s->f[2 * e + j] * s->bv[b];
            s->bodyF[b] += s->f[2 * e + j];
        }
        if (ops->energy && !(ops->flags & FL_EK_SOURCE)) {
            r->upot += s->eU[e];
            r->ploss += s->eloss[e];
        } else {
            r->pwork += p; /* force sources */
        }
    }
    /* prescribed motion: the reaction R = M a + sum of element forces on the
     * body delivers R v */
    for (int b = 0; b < sys->nbodies; b++) {
        const fl_body *bd = &sys->bodies[b];
        if (bd->kind != B_POS && bd->kind != B_VEL && bd->kind != B_ACC) continue;
        r->pwork += (bd->mass * s->ba[b] + s->bodyF[b]) * s->bv[b];
    }
}

/* The values of the audit at a point (for outputs and the drift). */
void fl_energy_point(fl_sim *s, double t, const double *y, const double *yp, double out[FL_NENERGY])
{
    fl_erates r;
    fl_energy_rates(s, t, y, yp, &r);
    out[0] = r.ekin;
    out[1] = r.upot;
    out[2] = s->e_diss + s->impact_loss;
    out[3] = s->e_work;
    out[4] = r.ekin + r.upot + out[2] - out[3] - s->e_balance0;
    if (fabs(out[4]) > s->e_drift_max) s->e_drift_max = fabs(out[4]);
}

void fl_energy_begin(fl_sim *s, double t, const double *y, const double *yp)
{
    fl_erates r;
    fl_energy_rates(s, t, y, yp, &r);
    s->e_diss = s->e_work = s->e_work_abs = 0;
    s->e_balance0 = r.ekin + r.upot + s->impact_loss;
    s->e_initial = r.ekin + r.upot;
    s->e_drift_max = 0;
}
