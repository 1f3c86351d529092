/* eval.c - evaluation of the DAE: signals, prescribed motions and body
 * kinematics, residuals, Jacobian entries, root functions, discrete event
 * updates, and all output variables (including the forces inside rigid
 * bodies and the reactions of grounds and motion sources). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* Loops over the whole system or over the lists of the scope s->sc (an
 * independent group): index k of count items, the item itself. */
#define SC_N(sc, cnt, all) ((sc) ? (sc)->cnt : (all))
#define SC_AT(sc, list, k) ((sc) ? (sc)->list[k] : (k))

static double block_value(const fl_sim *s, int inst, int out, int order, double t)
{
    const fl_system *sys = s->sys;
    const fl_inst_rt *ir = &sys->insts[inst];
    return ir->cls->block->value(s->par + fl_sim_prow(s, ir), sys->arrays, out, order, t, t == s->t_left);
}

static double node_level(const fl_sim *s, int node, int level)
{
    if (node < 0) return 0;
    const fl_node *n = &s->sys->nodes[node];
    return level == 0 ? n->ratio * s->bq[n->body] + n->off : n->ratio * (level == 1 ? s->bv[n->body] : s->ba[n->body]);
}

/* Positions, velocities and accelerations of the bodies. The whole
 * system walks its free bodies fb as structure of arrays (fast.c: all of
 * them, or for the integrator's residual those no strand fuses), then
 * the others. */
static void body_kinematics(fl_sim *s, const double *y, const double *yp, const fl_fast_bodies *fb)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = s->sc;
    if (!sc) {
        for (int i = 0; i < fb->n; i++) {
            int b = fb->b[i], vi = fb->vi[i];
            s->bq[b] = s->qoff[b] + y[fb->qi[i]];
            s->bv[b] = y[vi];
            s->ba[b] = yp[vi];
        }
    }
    for (int i = 0; i < (sc ? sc->nb : s->fbod.nother); i++) {
        int b = sc ? sc->b[i] : s->fbod.other[i];
        const fl_body *bd = &sys->bodies[b];
        switch (bd->kind) {
        case B_GROUND:
            s->bq[b] = bd->q0;
            s->bv[b] = s->ba[b] = 0;
            break;
        case B_POS:
            s->bq[b] = bd->q0 + s->drv[bd->drv].s;
            s->bv[b] = s->drv[bd->drv].v;
            s->ba[b] = s->drv[bd->drv].a;
            break;
        case B_VEL:
            s->bq[b] = s->qoff[b] + y[bd->qi];
            s->bv[b] = s->drv[bd->drv].v;
            s->ba[b] = s->drv[bd->drv].a;
            break;
        case B_ACC:
        case B_FREE:
        case B_MLV:
            s->bq[b] = s->qoff[b] + y[bd->qi];
            s->bv[b] = y[bd->vi];
            s->ba[b] = yp[bd->vi];
            break;
        case B_MLQ:
            s->bq[b] = s->qoff[b] + y[bd->qi];
            s->bv[b] = NAN;
            s->ba[b] = NAN;
            break;
        }
    }
}

static void kinematics(fl_sim *s, double t, const double *y, const double *yp, const fl_fast_bodies *fb)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = s->sc;
    /* Source blocks depend on (parameters, t, left limit) only: at the time
     * point of the last evaluation their values are still in u, du, ddu
     * (see fl_sim.src_ok), if that evaluation covered the same scope. The
     * time is compared bit for bit (0 and -0 differ for a sine). */
    int left = t == s->t_left;
    int cached = s->src_ok && s->src_sc == sc && left == s->src_left && memcmp(&t, &s->src_t, sizeof t) == 0;
    s->src_t = t;
    s->src_left = left;
    s->src_ok = 1;
    s->src_sc = sc;
    /* signals from source blocks (time only), and from own unknowns of
     * user classes; their derivatives where an element asks for them */
    for (int i = 0; i < SC_N(sc, nsg, sys->nsig); i++) {
        int k = SC_AT(sc, sg, i);
        const fl_sigref *sr = &sys->sigs[k];
        if (sr->kind == SIG_BLOCK) {
            if (cached) continue;
            s->u[k] = block_value(s, sr->inst, sr->out, 0, t);
            if (sr->nderiv >= 1) s->du[k] = block_value(s, sr->inst, sr->out, 1, t);
            if (sr->nderiv >= 2) s->ddu[k] = block_value(s, sr->inst, sr->out, 2, t);
        } else if (sr->kind == SIG_Y) {
            s->u[k] = y[s->elems[sr->inst].own + sr->out];
        }
    }
    /* prescribed motions */
    for (int i = 0; i < SC_N(sc, ndv, sys->ndrv); i++) {
        int k = SC_AT(sc, dv, i);
        const fl_driver *dv = &sys->drvs[k];
        const fl_inst_rt *ir = &sys->insts[dv->inst];
        const fl_body *bd = &sys->bodies[dv->body];
        int nder = ir->cls->drv->nderiv;
        for (int q = 0; q < dv->nin; q++) {
            const fl_sigref *sr = &sys->sigs[dv->sig + q];
            if (sr->kind != SIG_BLOCK || cached) continue;
            if (nder >= 1) s->du[dv->sig + q] = block_value(s, sr->inst, sr->out, 1, t);
            if (nder >= 2) s->ddu[dv->sig + q] = block_value(s, sr->inst, sr->out, 2, t);
        }
        fl_drv_in in;
        in.user = ir->cls->user;
        in.t = t;
        in.par = s->par + fl_sim_prow(s, ir);
        in.u = s->u + dv->sig;
        in.du = s->du + dv->sig;
        in.ddu = s->ddu + dv->sig;
        in.s = bd->qi >= 0 ? s->qoff[dv->body] + y[bd->qi] - bd->q0 : 0;
        in.v = bd->vi >= 0 ? y[bd->vi] : 0;
        memset(&s->drv[k], 0, sizeof s->drv[k]);
        ir->cls->drv->drive(&in, &s->drv[k]);
    }
    body_kinematics(s, y, yp, fb);
    /* signals from sensors */
    for (int i = 0; i < SC_N(sc, nsg, sys->nsig); i++) {
        int k = SC_AT(sc, sg, i);
        const fl_sigref *sr = &sys->sigs[k];
        if (sr->kind != SIG_KIN) continue;
        s->u[k] = node_level(s, sr->node[0], sr->level) - node_level(s, sr->node[1], sr->level) +
                  (sr->level == 0 ? sr->offset : 0);
        for (int o = 1; o <= sr->nderiv; o++) {
            int l = sr->level + o;
            double v = l > 2 ? NAN : node_level(s, sr->node[0], l) - node_level(s, sr->node[1], l);
            if (o == 1) s->du[k] = v;
            else s->ddu[k] = v;
        }
    }
}

void fl_eval_kinematics(fl_sim *s, double t, const double *y, const double *yp)
{
    kinematics(s, t, y, yp, &s->fbod);
}

void fl_init_ectx(fl_sim *s, fl_ectx *x, double t, double cj, const double *y, const double *yp, double *res,
                      int want_jac)
{
    x->t = t;
    x->cj = cj;
    x->y = y;
    x->yp = yp;
    x->bq = s->bq;
    x->bv = s->bv;
    x->ba = s->ba;
    x->att_body = s->sys->att_body;
    x->att_node = s->sys->elem_node;
    x->nodes = s->sys->nodes;
    x->du = s->du;
    x->ddu = s->ddu;
    x->par = s->par;
    x->u = s->u;
    x->mode = s->mode;
    x->want_jac = want_jac;
    x->f = s->f;
    x->res = res;
    x->jloc = s->jloc;
    x->initial = s->initial;
    x->t_left = s->t_left;
    x->rs = s->rs;
    x->contact_events = s->contact_events;
    x->yw = NULL;
    x->bminv = s->bminv;
    x->bvi = s->bvi;
    x->bqi = s->bqi;
    x->impact_loss = &s->impact_loss;
    x->impulse_work = s->impulse_work;
    x->arrays = s->sys->arrays;
    x->err = s->elem_err;
    x->terminate = &s->terminate;
    x->terminal = s->terminal;
    x->samples_off = s->samples_off;
    x->term_msg = s->term_msg;
    x->func_err = s->func_err;
    x->func_fatal = &s->func_fatal;
    x->err_loc = &s->elem_err_loc;
    x->warn = s->elem_warn;
    x->warn_loc = &s->elem_warn_loc;
    x->warn_elem = &s->elem_warn_elem;
    x->rtol = s->rtol;
}

/* Kinematics at (t, y, yp) and a context for the element callbacks. */
static void prepare(fl_sim *s, fl_ectx *x, double t, double cj, const double *y, const double *yp, double *res,
                    int want_jac)
{
    fl_eval_kinematics(s, t, y, yp);
    fl_init_ectx(s, x, t, cj, y, yp, res, want_jac);
}

static void eval_elements(fl_sim *s, fl_ectx *x)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = s->sc;
    const fl_egroup *egs = sc ? sc->eg : sys->egroups;
    const fl_elem *els = sc ? fl_sim_scope_el(s, sc) : s->elems;
    for (int g = 0; g < SC_N(sc, neg, sys->negroups); g++) egs[g].ops->eval(x, &els[egs[g].first], egs[g].n);
}

/* Virtual work: the forces of attachment slots k0..k1-1 times the ratio
 * of their node, added to their bodies' rows. */
static void scatter_slots(const fl_sim *s, double *res, int k0, int k1)
{
    const fl_system *sys = s->sys;
    for (int k = k0; k < k1; k++) {
        int r = sys->elem_frow[k];
        if (r >= 0) res[r] += fl_sys_slot_ratio(sys, k) * s->f[k];
    }
}

/* The elements' forces in the residual rows (and their own rows). A
 * scope evaluates all its elements, then adds its slots. The whole
 * system goes batch by batch, each batch's slots added after it (the
 * same additions in the same order: elements write only s->f and their
 * own rows, which no slot adds to), the extra attachments of wide
 * elements last; with fast, a batch with a fast kernel adds its forces
 * itself (fast.c). */
static int residual_forces(fl_sim *s, fl_ectx *x, double *res, int fast)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = s->sc;
    if (sc) {
        eval_elements(s, x);
        for (int i = 0; i < sc->nsl; i++) scatter_slots(s, res, sc->sl[i], sc->sl[i] + 1);
        return 1;
    }
    if (fast) fl_fast_ready(s);
    int finite = 1; /* the rows strands finish */
    const fl_strand *st = fast ? s->strand : NULL, *st_end = st ? st + s->nstrand : NULL;
    for (int g = 0; g < sys->negroups; g++) {
        const fl_egroup *eg = &sys->egroups[g];
        if (st != st_end && st->g0 == g) { /* its batches at once (fast.c) */
            finite &= fl_strand_forces(s, st, x);
            g = st->g1 - 1;
            st++;
            continue;
        }
        if (fast && s->fast[g].n) {
            eg->ops->fast(&s->fast[g], x, FL_FAST_FORCE, NULL);
            continue;
        }
        eg->ops->eval(x, &s->elems[eg->first], eg->n);
        scatter_slots(s, res, 2 * eg->first, 2 * (eg->first + eg->n));
    }
    scatter_slots(s, res, 2 * sys->nelem, sys->nslots);
    return finite;
}

static int residual(fl_sim *s, double t, const double *y, const double *yp, double *res, int fast)
{
    const fl_system *sys = s->sys;
    if (s->func_fatal) return -1; /* a function of the equations cannot be evaluated (an endless loop) */
    const fl_scope *sc = s->sc;
    /* the integrator's residual leaves the bodies that strands fuse to them */
    const fl_fast_bodies *fb = fast && s->fkeep.b ? &s->fkeep : &s->fbod;
    fl_ectx x;
    kinematics(s, t, y, yp, fb);
    fl_init_ectx(s, &x, t, 0, y, yp, res, 0);
    if (sc)
        for (int k = 0; k < sc->nu; k++) res[sc->u[k]] = 0;
    else if (fast && s->zrow) /* (the fused bodies' rows: their strands write them) */
        for (int k = 0; k < s->nzrow; k++)
            memset(res + s->zrow[2 * k], 0, sizeof(double) * (size_t)(s->zrow[2 * k + 1] - s->zrow[2 * k]));
    else
        memset(res, 0, sizeof(double) * (size_t)sys->n);
    int finite = residual_forces(s, &x, res, fast);
    for (int ic = 0; ic < SC_N(sc, ncn, sys->ncons); ic++) { /* constraints among three or more flanges */
        const fl_con *c = &sys->cons[SC_AT(sc, cn, ic)];
        double r = c->level == 0 ? c->off : 0;
        for (int i = 0; i < c->n; i++) r += sys->con_coef[c->k0 + i] * node_level(s, sys->con_node[c->k0 + i], c->level);
        res[s->elems[c->elem].own + c->row] += r;
    }
    if (!sc) { /* the free bodies as structure of arrays (fast.c), then the others */
        for (int i = 0; i < fb->n; i++) {
            int qi = fb->qi[i], vi = fb->vi[i];
            res[qi] = yp[qi] - y[vi];
            res[vi] += fb->mass[i] * yp[vi];
            finite &= isfinite(res[qi]) && isfinite(res[vi]); /* their rows are done */
        }
    }
    for (int i = 0; i < (sc ? sc->nbr : s->fbod.nother); i++) {
        const fl_body *bd = &sys->bodies[sc ? sc->br[i] : s->fbod.other[i]];
        switch (bd->kind) {
        case B_FREE:
            res[bd->qi] = yp[bd->qi] - y[bd->vi];
            res[bd->vi] += bd->mass * yp[bd->vi];
            break;
        case B_MLV:
            res[bd->qi] = yp[bd->qi] - y[bd->vi];
            break;
        case B_ACC:
            res[bd->qi] = yp[bd->qi] - y[bd->vi];
            res[bd->vi] = yp[bd->vi] - s->drv[bd->drv].a;
            break;
        case B_VEL:
            res[bd->qi] = yp[bd->qi] - s->drv[bd->drv].v;
            break;
        default:
            break;
        }
    }
    if (s->func_fatal) return -1;
    if (!sc) { /* the rows the free bodies do not own */
        for (int i = 0; i < s->fbod.nrest; i++) finite &= isfinite(res[s->fbod.rest[i]]);
        return !finite;
    }
    for (int i = 0; i < sc->nu; i++)
        if (!isfinite(res[sc->u[i]])) return 1;
    return 0;
}

int fl_eval_residual(fl_sim *s, double t, const double *y, const double *yp, double *res)
{
    return residual(s, t, y, yp, res, 0);
}

int fl_eval_residual_ida(fl_sim *s, double t, const double *y, const double *yp, double *res)
{
    return residual(s, t, y, yp, res, 1);
}

/* The Jacobian entries of the scope's group, into its own patterns'
 * slots (jdata: its jpat, rdata: its rpat), at the kinematics prepared. */
static void jacobian_scope(fl_sim *s, fl_ectx *x, double cj, double *jdata, double *rdata)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = s->sc;
    for (int k = 0; k < sc->njl; k++) s->jloc[sc->jl[k]] = 0;
    eval_elements(s, x);
    int drv0 = sys->njloc - 2 * sys->ndrv;
    for (int i = 0; i < sc->ndv; i++) {
        int k = sc->dv[i];
        s->jloc[drv0 + 2 * k] = s->drv[k].da_ds;
        s->jloc[drv0 + 2 * k + 1] = s->drv[k].da_dv;
    }
    if (jdata) memset(jdata, 0, sizeof(double) * (size_t)sc->jpat.nnz);
    if (rdata) memset(rdata, 0, sizeof(double) * (size_t)sc->rpat.nnz);
    for (int i = 0; i < sc->nj; i++) {
        const fl_jentry *e = &sys->jent[sc->j[i]];
        double v = s->jloc[e->src] * e->mult; /* (jloc[-1] = 1) */
        if (jdata) jdata[sc->jsl[i]] += e->cj ? v * cj : v;
        if (rdata && sc->rsl[i] >= 0) rdata[sc->rsl[i]] += v;
    }
}

/* Entries jent[j0, j1) from the local Jacobians into the matrices given. */
static void scatter_records(const fl_sim *s, int j0, int j1, double cj, double *jdata, double *idata, double *rdata)
{
    const fl_system *sys = s->sys;
    for (int i = j0; i < j1; i++) {
        const fl_jentry *e = &sys->jent[i];
        double v = s->jloc[e->src] * e->mult; /* (jloc[-1] = 1) */
        if (jdata) jdata[e->slot] += e->cj ? v * cj : v;
        if (idata && e->islot >= 0) idata[e->islot] += v;
        if (rdata && e->rslot >= 0) rdata[e->rslot] += v;
    }
}

/* The entries of rule r, unit by unit as their records were listed.
 * (The steps are applied here rather than through fl_jrule_entry, whose
 * copy of each entry with its bit-fields made the chain's Jacobian 11 ->
 * 30 ns per wagon at N = 10^4: the bodies' rules are scattered here.) */
static void scatter_rule(const fl_sim *s, const fl_jrule *r, double cj, double *jdata, double *idata, double *rdata)
{
    const fl_jentry *T = s->sys->jent + r->j0;
    for (int i = 0; i < r->n; i++)
        for (int t = 0; t < r->m; t++) {
            const fl_jentry *e = &T[t];
            double v = s->jloc[e->src >= 0 ? e->src + i * r->src[t] : -1] * e->mult; /* (jloc[-1] = 1) */
            if (jdata) jdata[e->slot + i * r->slot[t]] += e->cj ? v * cj : v;
            if (idata && e->islot >= 0) idata[e->islot + i * r->islot[t]] += v;
            if (rdata && e->rslot >= 0) rdata[e->rslot + i * r->rslot[t]] += v;
        }
}

/* The entries stored in jent[j0, j1), a rule's whole run where its first
 * unit is stored (fl_jrule), in the order they were listed. */
static void scatter_entries(const fl_sim *s, int j0, int j1, double cj, double *jdata, double *idata, double *rdata)
{
    const fl_system *sys = s->sys;
    int r = sys->njrule ? fl_jrule_from(sys, j0) : 0;
    while (j0 < j1) {
        int stop = r < sys->njrule && sys->jrule[r].j0 < j1 ? sys->jrule[r].j0 : j1;
        scatter_records(s, j0, stop, cj, jdata, idata, rdata);
        if (stop == j1) break;
        scatter_rule(s, &sys->jrule[r], cj, jdata, idata, rdata);
        j0 = stop + sys->jrule[r].m;
        r++;
    }
}

/* n elements from the first, whose m entries are T, the others' slots
 * moved by sstep[t] per element (a rule), each entry reading value dv[t]
 * of its element's two (jl[2 i + dv[t]]). */
static void scatter_steps(double *jdata, const double *jl, const fl_jentry *T, const int *sstep, const unsigned char *dv,
                          int m, int n)
{
    int step = sstep[0], i = 0;
    for (int t = 1; t < m; t++)
        if (sstep[t] != step) step = 0;
    if (m == 8 && step) {
        /* the pattern moving by one step per element (a chain's eight
         * entries), its rule in locals, which the stores cannot change */
        int off[8];
        double mu[8];
        unsigned char d[8];
        for (int t = 0; t < 8; t++) {
            off[t] = T[t].slot;
            mu[t] = T[t].mult;
            d[t] = dv[t];
        }
        double *p = jdata;
        for (; i < n; i++, jl += 2, p += step)
            for (int t = 0; t < 8; t++) p[off[t]] += jl[d[t]] * mu[t];
        return;
    }
    for (; i < n; i++, jl += 2)
        for (int t = 0; t < m; t++) jdata[T[t].slot + i * sstep[t]] += jl[dv[t]] * T[t].mult;
}

/* A fast batch's run of alike entries (fl_fast_jac.m >= 0): the t-th
 * entry of element i reads value dv[t] of its two (jloc[jbase + 2 i]) as
 * its source says, without reading the source; element by element as
 * stored, a rule's run (compile/jrules.c) by its steps. */
static void scatter_alike(const fl_sim *s, const fl_fast_jac *fj, double *jdata)
{
    const fl_system *sys = s->sys;
    const double *jl = s->jloc + fj->jbase;
    int m = fj->m, r = fj->r0;
    for (int j = fj->j0; j < fj->j1; j += m) {
        const fl_jentry *E = sys->jent + j;
        if (r < fj->r0 + fj->nrule && sys->jrule[r].j0 == j) {
            const fl_jrule *jr = &sys->jrule[r++];
            scatter_steps(jdata, jl, E, jr->slot, fj->dv, m, jr->n);
            jl += 2 * jr->n;
            continue;
        }
        for (int t = 0; t < m; t++) jdata[E[t].slot] += jl[fj->dv[t]] * E[t].mult;
        jl += 2;
    }
}

/* The whole system's Jacobian entries at the kinematics prepared. With
 * fast (the integrator's matrix, jdata zero already), the batches whose
 * fast kernel gives their Jacobian (fl_fast_jac.ok) evaluate it by batch
 * into their local blocks, the others clear theirs and run eval(). */
static void jacobian_whole(fl_sim *s, fl_ectx *x, double cj, double *jdata, double *idata, double *rdata, int fast)
{
    const fl_system *sys = s->sys;
    int drv0 = sys->njloc - 2 * sys->ndrv;
    if (!fast) memset(s->jloc, 0, sizeof(double) * (size_t)sys->njloc);
    for (int g = 0; g < sys->negroups; g++) {
        const fl_egroup *eg = &sys->egroups[g];
        const fl_fast_jac *fj = &s->fastj[g];
        if (fast && fj->ok) {
            eg->ops->fast(&s->fast[g], x, FL_FAST_JAC, s->jloc + fj->jbase);
            continue;
        }
        if (fast) memset(s->jloc + fj->jbase, 0, sizeof(double) * (size_t)(fj->jend - fj->jbase));
        eg->ops->eval(x, &s->elems[eg->first], eg->n);
    }
    for (int k = 0; k < sys->ndrv; k++) {
        s->jloc[drv0 + 2 * k] = s->drv[k].da_ds;
        s->jloc[drv0 + 2 * k + 1] = s->drv[k].da_dv;
    }
    if (jdata && !fast) memset(jdata, 0, sizeof(double) * (size_t)sys->jpat.nnz);
    if (idata) memset(idata, 0, sizeof(double) * (size_t)sys->ipat.nnz);
    if (rdata) memset(rdata, 0, sizeof(double) * (size_t)sys->rpat.nnz);
    int j = 0;
    if (fast) /* the runs of alike entries batch by batch, the others between them */
        for (int g = 0; g < sys->negroups; g++) {
            const fl_fast_jac *fj = &s->fastj[g];
            if (fj->m < 0) continue;
            scatter_entries(s, j, fj->j0, cj, jdata, NULL, NULL);
            scatter_alike(s, fj, jdata);
            j = fj->j1;
        }
    scatter_entries(s, j, sys->njent, cj, jdata, idata, rdata);
    if (idata)
        for (int k = 0; k < sys->ncentry; k++) idata[sys->cslot[k]] += sys->ccoef ? sys->ccoef[k] : 1.0;
}

void fl_eval_jacobian(fl_sim *s, double t, double cj, const double *y, const double *yp, double *jdata,
                      double *idata, double *rdata)
{
    fl_ectx x;
    prepare(s, &x, t, cj, y, yp, s->res, 1);
    if (s->sc) jacobian_scope(s, &x, cj, jdata, rdata);
    else jacobian_whole(s, &x, cj, jdata, idata, rdata, 0);
}

void fl_eval_jacobian_ida(fl_sim *s, double t, double cj, const double *y, const double *yp, double *jdata)
{
    fl_ectx x;
    prepare(s, &x, t, cj, y, yp, s->res, 1);
    if (s->sc) {
        jacobian_scope(s, &x, cj, jdata, NULL);
        return;
    }
    fl_fast_ready(s);
    jacobian_whole(s, &x, cj, jdata, NULL, NULL, 1);
}

void fl_eval_roots(fl_sim *s, double t, const double *y, const double *yp, double *g)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = s->sc;
    const fl_egroup *egs = sc ? sc->eg : sys->egroups;
    const fl_elem *els = sc ? fl_sim_scope_el(s, sc) : s->elems;
    fl_ectx x;
    prepare(s, &x, t, 0, y, yp, s->res, 0);
    for (int k = 0; k < SC_N(sc, neg, sys->negroups); k++) {
        const fl_egroup *eg = &egs[k];
        if (eg->ops->roots && eg->ops->nroots) eg->ops->roots(&x, &els[eg->first], eg->n, g);
    }
}

double fl_next_time_event(const fl_sim *s, double t)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = s->sc;
    double te = INFINITY;
    for (int k = 0; k < (sc ? sc->ntb : sys->nblocks); k++) {
        const fl_inst_rt *ir = &sys->insts[sc ? sc->tb[k] : sys->blocks[k]];
        if (!ir->cls->block->next_event) continue;
        double x = ir->cls->block->next_event(s->par + fl_sim_prow(s, ir), sys->arrays, t);
        if (x > t && x < te) te = x;
    }
    for (int k = 0; k < (sc ? sc->ntev : s->ntev); k++) { /* the elements that have time events */
        const fl_elem *el = &s->elems[sc ? sc->tev[k] : s->tev[k]];
        double x = fl_inst_ops(sys, el->inst)->next_time_event(s->par, el, t);
        if (x > t && x < te) te = x;
    }
    return te;
}

/* ---- parallel locks ------------------------------------------------------ */

/* Union-find over the bodies with a factor: a(node) = fac * a(parent).
 * Node nb stands for everything whose acceleration is known (ground,
 * fixed and prescribed bodies): its acceleration is taken as zero. */
typedef struct lk_uf {
    int *par;
    double *fac;
} lk_uf;

static int lk_find(lk_uf *u, int i, double *f)
{
    double acc = 1;
    int r = i;
    while (u->par[r] != r) {
        acc *= u->fac[r];
        r = u->par[r];
    }
    *f = acc;
    return r;
}

/* Whether k1 a(b1) = k0 a(b0) follows from the relations added. */
static int lk_implied(lk_uf *u, int ground, int b0, double k0, int b1, double k1)
{
    double f0, f1;
    int r0 = lk_find(u, b0, &f0), r1 = lk_find(u, b1, &f1);
    double c0 = k0 * f0, c1 = k1 * f1;
    if (r0 != r1) return 0;
    return r0 == ground || fabs(c1 - c0) <= 1e-12 * (fabs(c0) + fabs(c1));
}

/* The relative acceleration k1 a(b1) - k0 a(b0) over the roots (ground
 * terms dropped, one root: its coefficients added), and a start's
 * direction on it. */
typedef struct lk_form {
    int r[2];
    double c[2];
    int n, dir, elem;
} lk_form;

static void lk_form_of(lk_uf *u, int ground, int b0, double k0, int b1, double k1, lk_form *f)
{
    double f0, f1;
    int r0 = lk_find(u, b0, &f0), r1 = lk_find(u, b1, &f1);
    f->n = 0;
    if (r1 != ground) {
        f->r[f->n] = r1;
        f->c[f->n++] = k1 * f1;
    }
    if (r0 != ground) {
        if (f->n && f->r[0] == r0) f->c[0] -= k0 * f0;
        else {
            f->r[f->n] = r0;
            f->c[f->n++] = -k0 * f0;
        }
    }
    if (f->n == 2 && f->r[0] > f->r[1]) {
        int tr = f->r[0];
        double tc = f->c[0];
        f->r[0] = f->r[1];
        f->c[0] = f->c[1];
        f->r[1] = tr;
        f->c[1] = tc;
    }
}

/* Two starts on one motion (proportional forms) in the same direction. */
static int lk_same_way(const lk_form *a, const lk_form *b)
{
    if (a->n != b->n || a->n == 0) return 0;
    for (int i = 0; i < a->n; i++)
        if (a->r[i] != b->r[i] || a->c[i] == 0 || b->c[i] == 0) return 0;
    double lam = b->c[0] / a->c[0];
    if (a->n == 2 && fabs(b->c[1] - lam * a->c[1]) > 1e-12 * (fabs(b->c[1]) + fabs(lam * a->c[1]))) return 0;
    return (lam > 0 ? a->dir : -a->dir) == b->dir;
}

/* Add k1 a(b1) = k0 a(b0); returns 1 if the relation is implied by those
 * already added (redundant). */
static int lk_add(lk_uf *u, int ground, int b0, double k0, int b1, double k1)
{
    double f0, f1;
    int r0 = lk_find(u, b0, &f0), r1 = lk_find(u, b1, &f1);
    double c0 = k0 * f0, c1 = k1 * f1; /* c1 a(r1) = c0 a(r0) */
    if (r0 == r1) {
        if (r0 == ground) return 1;
        if (fabs(c1 - c0) <= 1e-12 * (fabs(c0) + fabs(c1))) return 1;
        u->par[r0] = ground; /* inconsistent ratios: the group cannot move */
        u->fac[r0] = 0;
        return 0;
    }
    if (r0 == ground || r1 == ground || c0 == 0 || c1 == 0) {
        int r = r0 == ground ? r1 : r0;
        if (c1 == 0 && r0 != ground) r = r0;
        else if (c0 == 0 && r1 != ground) r = r1;
        u->par[r] = ground;
        u->fac[r] = 0;
        return 0;
    }
    u->par[r1] = r0;
    u->fac[r1] = c0 / c1;
    return 0;
}

/* Parallel locks (friction_core.c, fl_fric_rigid, explains the rule): the
 * permanent rigid relations of the elements first, then their locks in
 * the order of the elements; a lock that the relations before it already
 * imply is set idle, every other lock holds. Returns 1 when a lock changed
 * between idle and holding. */
/* Index of body b in the union-find of resolve_locks: b itself, or its
 * place in the scope's bodies (sorted). */
static int lk_body(const fl_scope *sc, int b)
{
    if (!sc) return b;
    int lo = 0, hi = sc->nb - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (sc->b[mid] < b) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static int resolve_locks(fl_sim *s, fl_ectx *x)
{
    const fl_system *sys = s->sys;
    const fl_scope *sc = s->sc;
    int nb = SC_N(sc, nb, sys->nbodies), ne = SC_N(sc, ne, sys->nelem), any = 0;
    if (sc) any = sc->rigid;
    for (int g = 0; g < sys->negroups && !sc && !any; g++) any = sys->egroups[g].ops->rigid != NULL;
    if (!any) return 0;
    lk_uf u = {fl_xmalloc(sizeof(int) * (size_t)(nb + 1)), fl_xmalloc(sizeof(double) * (size_t)(nb + 1))};
    for (int i = 0; i <= nb; i++) {
        int fixed = i < nb && s->bminv[SC_AT(sc, b, i)] == 0;
        u.par[i] = fixed ? nb : i;
        u.fac[i] = fixed ? 0 : 1;
    }
    /* the elements that lock, in the order of the model's declarations */
    int *ord = fl_xmalloc(sizeof(int) * (size_t)(ne ? ne : 1)), no = 0;
    for (int ie = 0; ie < ne; ie++) {
        int e = SC_AT(sc, e, ie);
        if (!fl_inst_ops(sys, s->elems[e].inst)->rigid) continue;
        int i = no++;
        for (; i > 0 && s->elems[SC_AT(sc, e, ord[i - 1])].inst > s->elems[e].inst; i--) ord[i] = ord[i - 1];
        ord[i] = ie;
    }
    /* per element: its lock or start is held by the relations before it
     * (1); the starts that are not held, as linear forms over the roots
     * of the locked groups (to tell which start together) */
    char *held = fl_xcalloc((size_t)(ne ? ne : 1), 1); /* by position among the elements looked at */
    lk_form *fm = fl_xmalloc(sizeof(lk_form) * (size_t)(no ? no : 1));
    int nfm = 0;
    for (int pass = FL_RIGID_ALWAYS; pass <= FL_RIGID_START; pass++)
        for (int i = 0; i < no; i++) {
            int ie = ord[i];
            const fl_elem *el = &s->elems[SC_AT(sc, e, ie)];
            const fl_elem_ops *ops = fl_inst_ops(sys, el->inst);
            if (!ops->rigid) continue;
            fl_rigid r[FL_MAX_RIGID];
            int n = ops->rigid(x, el, r);
            for (int k = 0; k < n; k++) {
                if (r[k].lock != pass) continue;
                int s0 = fl_att_slot(el, r[k].j0), s1 = fl_att_slot(el, r[k].j1);
                int b0 = sys->att_body[s0] < 0 ? nb : lk_body(sc, sys->att_body[s0]);
                int b1 = sys->att_body[s1] < 0 ? nb : lk_body(sc, sys->att_body[s1]);
                double k0 = r[k].k0 * fl_sys_slot_ratio(sys, s0), k1 = r[k].k1 * fl_sys_slot_ratio(sys, s1);
                int red = pass == FL_RIGID_START ? lk_implied(&u, nb, b0, k0, b1, k1) : lk_add(&u, nb, b0, k0, b1, k1);
                if (pass != FL_RIGID_ALWAYS && red) held[ie] = 1;
                if (pass == FL_RIGID_START && !red && nfm < no) {
                    lk_form_of(&u, nb, b0, k0, b1, k1, &fm[nfm]);
                    fm[nfm].elem = ie;
                    fm[nfm++].dir = r[k].dir;
                }
            }
        }
    /* a start not held: 2 if another start goes the same way on the same
     * motion (a group breaking away together), else 3 */
    for (int i = 0; i < nfm; i++) {
        int with = 0;
        for (int j = 0; j < nfm && !with; j++)
            if (j != i) with = lk_same_way(&fm[i], &fm[j]);
        held[fm[i].elem] = with ? 2 : 3;
    }
    free(fm);
    int changed = 0;
    for (int ie = 0; ie < ne; ie++) {
        int e = SC_AT(sc, e, ie);
        const fl_elem *el = &s->elems[e];
        const fl_elem_ops *ops = fl_inst_ops(sys, el->inst);
        if (ops->set_idle && ops->set_idle(x, el, held[ie])) {
            changed = 1;
            s->last_changed = e;
        }
    }
    free(held);
    free(ord);
    free(u.par);
    free(u.fac);
    return changed;
}

int fl_event_update(fl_sim *s, double t, double *y, const double *yp, const int *dir)
{
    const fl_system *sys = s->sys;
    fl_ectx x;
    prepare(s, &x, t, 0, y, yp, s->res, 0);
    x.yw = y; /* impulses may change velocities */
    int changed = 0;
    static const int nodir[64] = {0};
    fl_states_changed(s); /* (an event may set discrete Real states) */
    s->elem_err[0] = '\0';
    s->elem_err_loc.file = NULL;
    for (int ie = 0; ie < SC_N(s->sc, ne, sys->nelem); ie++) {
        int e = SC_AT(s->sc, e, ie);
        const fl_elem *el = &s->elems[e];
        const fl_elem_ops *ops = fl_inst_ops(sys, el->inst);
        if (!ops->event) continue;
        const int *d = dir ? dir + el->root : nodir;
        int r = ops->event(&x, el, d);
        if (r < 0) {
            s->last_changed = e;
            return -1;
        }
        if (r) {
            changed = 1;
            s->last_changed = e;
        }
    }
    if (resolve_locks(s, &x)) changed = 1;
    return changed;
}

void fl_start_elements(fl_sim *s, double t, const double *y, const double *yp)
{
    const fl_system *sys = s->sys;
    fl_ectx x;
    prepare(s, &x, t, 0, y, yp, s->res, 0);
    fl_states_changed(s);
    for (int e = 0; e < sys->nelem; e++) {
        const fl_elem *el = &s->elems[e];
        const fl_elem_ops *ops = fl_inst_ops(sys, el->inst);
        if (ops->start) ops->start(&x, el);
    }
}

int fl_init_modes(fl_sim *s, double t, const double *y, const double *yp)
{
    const fl_system *sys = s->sys;
    fl_ectx x;
    prepare(s, &x, t, 0, y, yp, s->res, 0);
    int changed = 0, nmo = sys->nmodes;
    /* the modes before, compared after the locks are resolved too (an
     * element's init_modes forgets that its lock was idle) */
    int *before = fl_xmalloc(sizeof(int) * (size_t)(nmo ? nmo : 1));
    if (nmo) memcpy(before, s->mode, sizeof(int) * (size_t)nmo);
    fl_states_changed(s);
    for (int e = 0; e < sys->nelem; e++) {
        const fl_elem *el = &s->elems[e];
        const fl_elem_ops *ops = fl_inst_ops(sys, el->inst);
        if (!ops->init_modes) continue;
        ops->init_modes(&x, el);
    }
    resolve_locks(s, &x);
    for (int e = 0; e < sys->nelem && !changed; e++) {
        const fl_elem *el = &s->elems[e];
        const fl_elem_ops *ops = fl_inst_ops(sys, el->inst);
        for (int k = 0; k < ops->nmodes; k++)
            if (before[el->mode + k] != s->mode[el->mode + k]) {
                changed = 1;
                s->last_changed = e;
            }
    }
    free(before);
    return changed;
}

/* ---- outputs ------------------------------------------------------------ */

/* Forces inside rigid bodies: eliminate leaf nodes towards the body's root
 * (the ground or motion source, whose reaction closes the balance). A
 * link's flange forces satisfy f_a + r f_b = m a_a (virtual work of the
 * lever s_b = r s_a + L, with its mass moving with flange a). */
static void internal_forces(fl_sim *s)
{
    const fl_system *sys = s->sys;
    memset(s->nodeE, 0, sizeof(double) * (size_t)(sys->nnodes ? sys->nnodes : 1));
    for (int k = 0; k < sys->nslots; k++) {
        int n = sys->elem_node[k];
        if (n >= 0) s->nodeE[n] += s->f[k];
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int b = 0; b < sys->nbodies; b++) {
            const fl_body *bd = &sys->bodies[b];
            if ((bd->kind == B_GROUND) != pass) continue;
            for (int k = bd->order0; k < bd->order0 + bd->norder; k++) {
                const fl_elim *st = &sys->elim[k];
                const fl_link *lk = &sys->links[st->link];
                double xf = -s->nodeE[st->node];
                /* (a massless link carries no inertia, also where a massless body has no acceleration) */
                double load = lk->m == 0 ? 0 : lk->m * sys->nodes[lk->node_a].ratio * s->ba[b];
                double other = st->end == 1 ? load - lk->r * xf : (load - xf) / lk->r;
                s->linkf[2 * st->link + st->end] = xf;
                s->linkf[2 * st->link + 1 - st->end] = other;
                int on = st->end == 0 ? lk->node_b : lk->node_a;
                s->nodeE[on] += other;
            }
            if (bd->root >= 0) {
                const fl_root *r = &sys->roots[bd->root];
                double reaction = -s->nodeE[r->node];
                s->rootf[bd->root] = reaction;
                if (r->drv >= 0) {
                    int sn = sys->drvs[r->drv].support_node;
                    if (sn >= 0) s->nodeE[sn] += -reaction;
                }
            }
        }
    }
    for (int p = 0; p < sys->nports; p++) {
        double f = 0;
        for (int k = sys->ports[p].c0, end = fl_port_cend(sys, p); k < end; k++) {
            fl_pcontrib c = sys->contrib[k];
            int index = fl_pc_index(c);
            switch (fl_pc_type(c)) {
            case PC_ELEM: f += s->f[index]; break; /* index: the attachment slot */
            case PC_LINK: f += s->linkf[2 * index + fl_pc_end(c)]; break;
            case PC_ROOT: f += s->rootf[index]; break;
            case PC_DRVSUP: {
                const fl_body *bd = &sys->bodies[sys->drvs[index].body];
                f += -s->rootf[bd->root];
                break;
            }
            }
        }
        s->portf[p] = f;
    }
}

/* The class variables of instance i at (t, y, yp) into s->vals, or (a
 * selected_only run without them) the selected ones, entry j of out_ilist,
 * into s->cvals; buf holds 4 * maxp doubles of room for the port
 * quantities. */
static void instance_outputs(fl_sim *s, int i, int j, double t, const double *y, const double *yp, double *buf,
                             int maxp)
{
    const fl_system *sys = s->sys;
    const fl_inst_rt *ir = &sys->insts[i];
    const fl_class *c = ir->cls;
    double *ps = buf, *pv = buf + maxp, *pa = buf + 2 * maxp, *pf = buf + 3 * maxp;
    for (int k = 0; k < c->nports; k++) {
        int node = sys->ports[ir->port0 + k].node;
        ps[k] = node >= 0 ? node_level(s, node, 0) : 0;
        pv[k] = node >= 0 ? node_level(s, node, 1) : 0;
        pa[k] = node >= 0 ? node_level(s, node, 2) : 0;
        pf[k] = node >= 0 && s->portf ? s->portf[ir->port0 + k] : 0; /* (none yet: kinematic outputs) */
    }
    if (!c->outputs || !c->nvars) return;
    fl_octx o;
    o.t = t;
    o.par = s->par + fl_sim_prow(s, ir);
    o.arrays = sys->arrays;
    o.ps = ps;
    o.pv = pv;
    o.pa = pa;
    o.pf = pf;
    o.u = s->u + ir->in0;
    o.du = s->du + ir->in0;
    o.user = c->user;
    o.ddu = s->ddu + ir->in0;
    o.own = ir->elem >= 0 && s->elems[ir->elem].own >= 0 ? y + s->elems[ir->elem].own : NULL;
    o.ownp = ir->elem >= 0 && s->elems[ir->elem].own >= 0 ? yp + s->elems[ir->elem].own : NULL;
    o.mode = ir->elem >= 0 ? s->mode + s->elems[ir->elem].mode : NULL;
    o.rs = ir->elem >= 0 ? s->rs + s->elems[ir->elem].rs : NULL;
    o.has_support = ir->has_support;
    o.contact_events = s->contact_events;
    o.func_err = s->func_err;
    if (s->vals) {
        c->outputs(&o, s->vals + ir->var0);
        return;
    }
    c->outputs(&o, s->oscr);
    for (int q = s->oc0[j]; q < s->oc0[j + 1]; q++) s->cvals[s->oc_k[q]] = s->oscr[s->oc_def[q]];
}

/* Output variable vr that is not an instance's own output (a flange's
 * position or force, an input, a block's output) into *to. */
static void var_value(fl_sim *s, double t, const fl_var *vr, double *to)
{
    const fl_system *sys = s->sys;
    const fl_inst_rt *ir = &sys->insts[vr->inst];
    switch (vr->kind) {
    case OV_PORT_S: *to = node_level(s, sys->ports[ir->port0 + vr->index].node, 0); break;
    case OV_PORT_F: *to = s->portf ? s->portf[ir->port0 + vr->index] : 0; break;
    case OV_INPUT: *to = s->u[ir->in0 + vr->index]; break;
    case OV_BLOCK_OUT: *to = block_value(s, vr->inst, fl_block_out(ir->cls, ir->nout, vr->def, vr->index), 0, t); break;
    default: break;
    }
}

/* What outputs beyond positions and velocities need (the polished
 * derivatives, the forces inside rigid bodies and at every port), made
 * the first time they are (at an output point, outside the integrator):
 * a run that shows positions and velocities alone never touches them. */
static void outputs_alloc(fl_sim *s)
{
    const fl_system *sys = s->sys;
    if (s->portf) return;
    s->ypol = fl_xcalloc((size_t)(sys->n ? sys->n : 1), sizeof(double));
    s->nodeE = fl_xcalloc((size_t)(sys->nnodes ? sys->nnodes : 1), sizeof(double));
    s->linkf = fl_xcalloc((size_t)(2 * sys->nlinks + 1), sizeof(double));
    s->portf = fl_xcalloc((size_t)(sys->nports ? sys->nports : 1), sizeof(double));
}

void fl_eval_outputs(fl_sim *s, double t, const double *y, const double *yp)
{
    const fl_system *sys = s->sys;
    int n = sys->n;
    if (!s->out_kinematic) outputs_alloc(s);
    /* accelerations of bodies with mass from their force balance, which is
     * more accurate than the integrator's interpolated derivative */
    if (n && !s->out_kinematic) {
        memcpy(s->ypol, yp, sizeof(double) * (size_t)n);
        fl_eval_residual(s, t, y, yp, s->res);
        for (int b = 0; b < sys->nbodies; b++) {
            const fl_body *bd = &sys->bodies[b];
            if (bd->kind == B_FREE && bd->mass > 0) {
                s->ypol[bd->vi] = yp[bd->vi] - s->res[bd->vi] / bd->mass;
                s->ypol[bd->qi] = y[bd->vi];
            } else if (bd->kind == B_ACC) {
                s->ypol[bd->vi] = s->drv[bd->drv].a;
                s->ypol[bd->qi] = y[bd->vi];
            } else if (bd->kind == B_MLV) {
                s->ypol[bd->qi] = y[bd->vi];
            }
        }
        yp = s->ypol;
    }
    if ((sys->uses_accel && !s->out_kinematic) || !n) {
        /* forces that depend on accelerations, with the polished ones */
        fl_ectx x;
        prepare(s, &x, t, 0, y, yp, s->res, 0);
        if (n) memset(s->res, 0, sizeof(double) * (size_t)n);
        eval_elements(s, &x);
    } else {
        fl_eval_kinematics(s, t, y, yp); /* the forces of the residual stand */
    }
    if (!s->out_kinematic) internal_forces(s);
    /* per-instance variables; then the inputs known only now (SIG_LATE) and
     * the instances that read them */
    int maxp = FL_MAX(16, s->maxp);
    double small[4 * 16];
    double *buf = maxp <= 16 ? small : fl_xmalloc(sizeof(double) * 4 * (size_t)maxp);
    if (s->out_inst)
        for (int k = 0; k < s->nout_ilist; k++) instance_outputs(s, s->out_ilist[k], k, t, y, yp, buf, maxp);
    else
        for (int i = 0; i < sys->ninst; i++) instance_outputs(s, i, -1, t, y, yp, buf, maxp);
    if (sys->has_late && s->vals) { /* (without vals no selected output reads them: select_outputs) */
        for (int k = 0; k < sys->nsig; k++) {
            const fl_sigref *sr = &sys->sigs[k];
            if (sr->kind != SIG_LATE) continue;
            const fl_inst_rt *oi = &sys->insts[sr->inst];
            s->u[k] = sr->out >= 0 ? s->vals[oi->var0 + sr->out] : s->portf ? s->portf[oi->port0 + sr->level] : 0;
        }
        for (int i = 0; i < sys->ninst; i++)
            if (sys->insts[i].has_late && (!s->out_inst || s->out_inst[i]))
                instance_outputs(s, i, -1, t, y, yp, buf, maxp);
        for (int k = 0; k < sys->nsig; k++)
            if (sys->sigs[k].kind == SIG_LATE) s->u[k] = NAN; /* not while integrating */
    }
    if (buf != small) free(buf);
    if (s->out_vars) {
        for (int k = 0; k < s->nout_vars; k++)
            var_value(s, t, &s->out_def[k], s->vals ? &s->vals[s->out_vars[k]] : &s->cvals[k]);
        return;
    }
    for (int i = 0; i < sys->ninst; i++) { /* (class variables are the instances' own outputs) */
        int v0 = sys->insts[i].var0, end = fl_inst_vars_end(sys, i);
        for (int v = v0 + sys->insts[i].cls->nvars; v < end; v++) {
            fl_var x = fl_system_inst_var(sys, i, v - v0);
            var_value(s, t, &x, &s->vals[v]);
        }
    }
}
