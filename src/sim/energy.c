/* energy.c - the energy audit: kinetic energy of bodies, energy stored in
 * springs and contacts, power dissipated by dampers, contacts and
 * friction, power of force sources and of prescribed-motion sources. The
 * integrator driver integrates the powers over every step (Gauss
 * quadrature on the step's interpolant); impacts add their loss (closed
 * form) and the work the motion sources do through their impulses
 * (fl_impact). The balance
 *     E_kin + E_pot + E_dissipated - W_sources = const
 * then compares kinetic and stored energies measured from the state with
 * losses and work derived independently of them, and one verdict
 * (fl_energy_verdict) decides whether it closes. */
#include <math.h>
#include <string.h>

#include "components/laws.h"
#include "sim.h"

/* Velocity of body b for the powers: a massless body between springs has
 * none among the unknowns (its position is algebraic), but the integrator's
 * derivative of that position is its velocity, which a force source or a
 * constraint among three or more flanges acting there needs. */
static double body_vel(const fl_sim *s, int b, const double *yp)
{
    int q = s->fbod.mlq[b]; /* (the kind and qi of the body, without its record) */
    return q >= 0 ? yp[q] : s->bv[b];
}

/* An element that stores or dissipates energy (and reports it), rather
 * than a force source whose power is work. */
static int stores_energy(const fl_elem_ops *ops)
{
    return ops->energy && !(ops->flags & FL_EK_SOURCE);
}

/* Element e with na attachments: the power it delivers to the bodies and
 * its generalised forces on them (bodyF); an element that stores or
 * dissipates energy adds its stored energy and loss, a force source its
 * power as work. */
static void element_power(fl_sim *s, int e, int na, int stores, fl_erates *r, const double *yp)
{
    const fl_system *sys = s->sys;
    double p = 0; /* power delivered by the element to the bodies */
    for (int j = 0; j < na; j++) {
        int slot = j < 2 ? 2 * e + j : s->elems[e].xatt + j - 2;
        int b = sys->att_body[slot];
        if (b < 0 || s->f[slot] == 0) continue; /* no force, no power */
        double ratio = fl_sys_slot_ratio(sys, slot);
        p -= s->f[slot] * ratio * body_vel(s, b, yp);
        s->bodyF[b] += ratio * s->f[slot];
    }
    if (stores) {
        r->upot += s->eU[e];
        r->ploss += s->eloss[e];
    } else {
        r->pwork += p; /* force sources */
    }
}

/* The rates through the whole residual: every element's forces, for the
 * reactions of bodies moved by motion sources (their power), and for one
 * group (s->sc): its bodies, its elements' energies and powers, and the
 * part of the reactions of shared driven bodies its forces make; a shared
 * body's own kinetic energy and inertia go to group 0, so the groups'
 * rates add up to the system's. */
static void full_rates(fl_sim *s, double t, const double *y, const double *yp, fl_erates *r)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = s->sc;
    int g0 = !sc || sc == &sys->groups[0];
    if (sys->n) fl_eval_residual(s, t, y, yp, s->res);
    else fl_eval_kinematics(s, t, y, yp);
    fl_ectx x;
    fl_init_ectx(s, &x, t, 0, y, yp, s->res, 0);
    /* (the sums in locals: through r, each addition would wait for the
     * stores to bodyF, which the compiler cannot tell apart from r) */
    fl_erates acc = *r;
    int nbl = sc ? sc->nb : sys->nbodies;
    for (int i = 0; i < nbl; i++) {
        int b = sc ? sc->b[i] : i;
        const fl_body *bd = &sys->bodies[b];
        int mine = g0 || sys->body_group[b] >= 0; /* (a shared body is group 0's) */
        /* the mass is ratio-weighted: sum of m v_i^2 / 2 with v_i = ratio_i v */
        if (bd->mass > 0 && mine) acc.ekin += 0.5 * bd->mass * s->bv[b] * s->bv[b];
        s->bodyF[b] = 0; /* generalised force of the elements on body b (each times its node's ratio) */
    }
    const fl_egroup *egs = sc ? sc->eg : sys->egroups;
    const fl_elem *els = sc ? fl_sim_scope_el(s, sc) : s->elems;
    for (int g = 0; g < (sc ? sc->neg : sys->negroups); g++) {
        const fl_egroup *eg = &egs[g];
        if (eg->ops->energy) eg->ops->energy(&x, &els[eg->first], eg->n, s->eU, s->eloss);
    }
    if (!sc) { /* by batch: the class's callbacks once, no element records for two attachments */
        for (int g = 0; g < sys->negroups; g++) {
            const fl_egroup *eg = &sys->egroups[g];
            int na = fl_ops_natt(eg->ops), stores = stores_energy(eg->ops);
            for (int e = eg->first; e < eg->first + eg->n; e++) element_power(s, e, na, stores, &acc, yp);
        }
    } else {
        for (int ie = 0; ie < sc->ne; ie++) {
            int e = sc->e[ie];
            const fl_elem_ops *ops = fl_inst_ops(sys, s->elems[e].inst);
            element_power(s, e, fl_ops_natt(ops), stores_energy(ops), &acc, yp);
        }
    }
    /* prescribed motion: the reaction R = M a + sum of element forces on the
     * body delivers R v */
    for (int i = 0; i < nbl; i++) {
        int b = sc ? sc->b[i] : i;
        const fl_body *bd = &sys->bodies[b];
        if (bd->kind != B_POS && bd->kind != B_VEL && bd->kind != B_ACC) continue;
        int mine = g0 || sys->body_group[b] >= 0;
        acc.pwork += ((mine ? bd->mass * s->ba[b] : 0) + s->bodyF[b]) * s->bv[b];
    }
    *r = acc;
}

/* The same rates of the whole system without motion sources: no reaction
 * to find, and an element that stores or dissipates energy reports both
 * itself, so only the force sources' forces are needed (their power):
 * the kinematics, those batches, the kinetic energy of the free bodies
 * (the others are massless or fixed), the fast kernels' energies by
 * batch. The same sums in the same order as full_rates. */
static void lean_rates(fl_sim *s, double t, const double *y, const double *yp, fl_erates *r)
{
    const fl_system *sys = s->sys;
    fl_eval_kinematics(s, t, y, yp);
    fl_ectx x;
    fl_init_ectx(s, &x, t, 0, y, yp, s->res, 0);
    fl_fast_ready(s);
    fl_erates acc = *r;
    const fl_fast_bodies *fb = &s->fbod;
    for (int i = 0; i < fb->n; i++) {
        double v = s->bv[fb->b[i]];
        if (fb->mass[i] > 0) acc.ekin += 0.5 * fb->mass[i] * v * v;
    }
    for (int g = 0; g < sys->negroups; g++) {
        const fl_egroup *eg = &sys->egroups[g];
        if (!stores_energy(eg->ops)) { /* a force source: its forces, its power */
            eg->ops->eval(&x, &s->elems[eg->first], eg->n);
            for (int e = eg->first; e < eg->first + eg->n; e++) element_power(s, e, fl_ops_natt(eg->ops), 0, &acc, yp);
            continue;
        }
        const double *U = s->eU + eg->first, *loss = s->eloss + eg->first;
        int stride = 1;
        if (s->fast[g].n) { /* the batch's energies and losses at once, in its local Jacobian block, free between evaluations */
            double *out = s->jloc + s->fastj[g].jbase;
            eg->ops->fast(&s->fast[g], &x, FL_FAST_ENERGY, out);
            U = out, loss = out + 1, stride = 2;
        } else {
            eg->ops->energy(&x, &s->elems[eg->first], eg->n, s->eU, s->eloss);
        }
        for (int i = 0; i < eg->n; i++) {
            acc.upot += U[stride * i];
            acc.ploss += loss[stride * i];
        }
    }
    *r = acc;
}

void fl_energy_alloc(fl_sim *s)
{
    if (s->eU) return;
    const fl_system *sys = s->sys;
    s->bodyF = fl_xcalloc((size_t)(sys->nbodies ? sys->nbodies : 1), sizeof(double));
    s->eU = fl_xcalloc((size_t)(sys->nelem ? sys->nelem : 1), sizeof(double));
    s->eloss = fl_xcalloc((size_t)(sys->nelem ? sys->nelem : 1), sizeof(double));
}

void fl_energy_rates(fl_sim *s, double t, const double *y, const double *yp, fl_erates *r)
{
    memset(r, 0, sizeof *r);
    if (!s->sc && s->sys->n && !s->fbod.ndriven) lean_rates(s, t, y, yp, r);
    else full_rates(s, t, y, yp, r);
}

/* The values of the audit at a point (for outputs and the drift). */
void fl_energy_point(fl_sim *s, double t, const double *y, const double *yp, double out[FL_NENERGY])
{
    fl_erates r;
    fl_energy_rates(s, t, y, yp, &r);
    out[0] = r.ekin;
    out[1] = r.upot;
    out[2] = s->e_diss + s->impact_loss;
    out[3] = s->e_work + s->impulse_work[0];
    out[4] = r.ekin + r.upot + out[2] - out[3] - s->e_balance0;
    if (fabs(out[4]) > s->e_drift_max) s->e_drift_max = fabs(out[4]);
    for (int k = 0; k < 4; k++)
        if (fabs(out[k]) > s->e_seen_max) s->e_seen_max = fabs(out[k]);
}

void fl_energy_begin(fl_sim *s, double t, const double *y, const double *yp)
{
    fl_erates r;
    fl_energy_rates(s, t, y, yp, &r);
    s->e_diss = s->e_work = s->e_work_abs = s->e_loss_neg = 0;
    /* impacts at the start (initial event iteration) happened before */
    s->e_balance0 = r.ekin + r.upot + s->impact_loss - s->impulse_work[0];
    s->e_initial = r.ekin + r.upot;
    s->e_drift_max = 0;
    s->e_seen_max = fmax(fmax(r.ekin, fabs(r.upot)), fmax(s->impact_loss, s->impulse_work[1]));
}

/* The verdict is computed from the quantities themselves, not from a drift
 * or a throughput someone else derived: the drift of the end values is
 * recomputed, a throughput of 0 is floored by the largest quantity (so a
 * balance that moved energy is never "0 of 0"), and negative dissipation,
 * which no physics produces, fails whatever the drift; so does a value
 * that is not finite. */
fl_everdict fl_energy_verdict(const fl_ebalance *b, double tol)
{
    fl_everdict v;
    double end = b->kinetic + b->stored + b->dissipated + b->impacts - b->work - b->e0;
    v.drift = fabs(end) > b->drift_max ? fabs(end) : b->drift_max;
    double q[] = {b->throughput, fabs(b->e0),         fabs(b->kinetic), fabs(b->stored), fabs(b->dissipated),
                  fabs(b->impacts), fabs(b->work), fabs(b->loss_negative), b->seen_max};
    int finite = isfinite(end) && isfinite(b->drift_max);
    v.throughput = 0;
    for (size_t k = 0; k < sizeof q / sizeof q[0]; k++) {
        if (!isfinite(q[k])) finite = 0;
        else if (q[k] > v.throughput) v.throughput = q[k];
    }
    double floor_neg = -FL_ENERGY_ROUNDING * v.throughput;
    v.negative_loss = !(b->dissipated >= floor_neg && b->impacts >= floor_neg && b->loss_negative >= floor_neg);
    v.closed = finite && !v.negative_loss && v.drift <= tol * v.throughput;
    return v;
}

void fl_energy_finish(fl_sim *s, double t, fl_diag *d)
{
    fl_ebalance b;
    memset(&b, 0, sizeof b);
    if (s->energy) {
        double ev[FL_NENERGY];
        fl_energy_point(s, t, s->y, s->yp, ev);
        b.kinetic = ev[0];
        b.stored = ev[1];
    }
    /* else the audit stopped early (it overflowed, with a warning): its
     * last totals, and no verdict that it closes */
    b.e0 = s->e_balance0;
    b.dissipated = s->e_diss;
    b.impacts = s->impact_loss;
    b.work = s->e_work + s->impulse_work[0];
    b.loss_negative = s->e_loss_neg;
    b.drift_max = s->e_drift_max;
    b.throughput = s->e_initial + s->e_work_abs + s->impulse_work[1];
    b.seen_max = s->e_seen_max;
    fl_everdict v = fl_energy_verdict(&b, FL_ENERGY_CLOSE_TOL);
    fl_stats *st = &s->stats;
    st->e_kinetic = b.kinetic;
    st->e_potential = b.stored;
    st->e_dissipated = b.dissipated;
    st->e_impacts = b.impacts;
    st->e_work = b.work;
    st->e_impulse_work = s->impulse_work[0];
    st->e_drift_max = v.drift;
    st->e_throughput = v.throughput;
    st->e_closed = s->energy ? v.closed : 0;
    if (!s->energy) return;
    if (v.negative_loss)
        fl_warn(d, fl_noloc,
                "the energy balance does not close: energy is dissipated with a negative sign (dissipated %.6g J, "
                "impacts %.6g J, negative loss power %.6g J), which no physical loss does",
                b.dissipated, b.impacts, b.loss_negative);
    else if (!v.closed) {
        /* a Move takes position, speed and acceleration as given: when they
         * are not each other's derivatives (three equal sines, as the MSL's
         * test models have), the work it does is not the kinetic energy it
         * gives, whatever the steps */
        const char *move = NULL;
        for (int k = 0; k < s->sys->ndrv && !move; k++) {
            const fl_inst_rt *ir = &s->sys->insts[s->sys->drvs[k].inst];
            if (ir->cls->drv == &fl_move_drv) move = fl_ir_name(s->sys, ir);
        }
        fl_warn(d, fl_noloc,
                "the energy balance does not close (drift %.3g of the throughput): the steps do not resolve the "
                "motion at this tolerance%s%s%s%s",
                v.throughput > 0 ? v.drift / v.throughput : v.drift,
                s->contact_events ? "" : " (contacts are stepped through: try with contact events)",
                move ? ", or the inputs of " : "", move ? move : "",
                move ? " (a Move) are not each other's derivatives (u[2] = der(u[1]), u[3] = der(u[2]))" : "");
    }
}
