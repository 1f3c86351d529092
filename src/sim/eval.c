/* eval.c - evaluation of the DAE: signals, prescribed motions and body
 * kinematics, residuals, Jacobian entries, root functions, discrete event
 * updates, and all output variables (including the forces inside rigid
 * bodies and the reactions of grounds and motion sources). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static double block_value(const fl_sim *s, int inst, int out, int order, double t)
{
    const fl_system *sys = s->sys;
    const fl_inst_rt *ir = &sys->insts[inst];
    return ir->cls->block->value(s->par + ir->pofs, sys->arrays, out, order, t, t == s->t_left);
}

static double node_level(const fl_sim *s, int node, int level)
{
    if (node < 0) return 0;
    const fl_node *n = &s->sys->nodes[node];
    return level == 0 ? n->ratio * s->bq[n->body] + n->off : n->ratio * (level == 1 ? s->bv[n->body] : s->ba[n->body]);
}

void fl_eval_kinematics(fl_sim *s, double t, const double *y, const double *yp)
{
    const fl_system *sys = s->sys;
    /* signals from source blocks (time only), and from own unknowns of
     * user classes; their derivatives where an element asks for them */
    for (int k = 0; k < sys->nsig; k++) {
        const fl_sigref *sr = &sys->sigs[k];
        if (sr->kind == SIG_BLOCK) {
            s->u[k] = block_value(s, sr->inst, sr->out, 0, t);
            if (sr->nderiv >= 1) s->du[k] = block_value(s, sr->inst, sr->out, 1, t);
            if (sr->nderiv >= 2) s->ddu[k] = block_value(s, sr->inst, sr->out, 2, t);
        } else if (sr->kind == SIG_Y) {
            s->u[k] = y[sys->elems[sr->inst].own + sr->out];
        }
    }
    /* prescribed motions */
    for (int k = 0; k < sys->ndrv; k++) {
        const fl_driver *dv = &sys->drvs[k];
        const fl_inst_rt *ir = &sys->insts[dv->inst];
        const fl_body *bd = &sys->bodies[dv->body];
        int nder = ir->cls->drv->nderiv;
        for (int q = 0; q < dv->nin; q++) {
            const fl_sigref *sr = &sys->sigs[dv->sig + q];
            if (sr->kind != SIG_BLOCK) continue;
            if (nder >= 1) s->du[dv->sig + q] = block_value(s, sr->inst, sr->out, 1, t);
            if (nder >= 2) s->ddu[dv->sig + q] = block_value(s, sr->inst, sr->out, 2, t);
        }
        fl_drv_in in;
        in.user = ir->cls->user;
        in.t = t;
        in.par = s->par + ir->pofs;
        in.u = s->u + dv->sig;
        in.du = s->du + dv->sig;
        in.ddu = s->ddu + dv->sig;
        in.s = bd->qi >= 0 ? s->qoff[dv->body] + y[bd->qi] - bd->q0 : 0;
        in.v = bd->vi >= 0 ? y[bd->vi] : 0;
        memset(&s->drv[k], 0, sizeof s->drv[k]);
        ir->cls->drv->drive(&in, &s->drv[k]);
    }
    /* bodies */
    for (int b = 0; b < sys->nbodies; b++) {
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
    /* signals from sensors */
    for (int k = 0; k < sys->nsig; k++) {
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
    x->att_off = s->sys->att_off;
    x->att_ratio = s->sys->att_ratio;
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
    for (int g = 0; g < sys->negroups; g++) {
        const fl_egroup *eg = &sys->egroups[g];
        eg->ops->eval(x, &sys->elems[eg->first], eg->n);
    }
}

int fl_eval_residual(fl_sim *s, double t, const double *y, const double *yp, double *res)
{
    const fl_system *sys = s->sys;
    if (s->func_fatal) return -1; /* a function of the equations cannot be evaluated (an endless loop) */
    fl_ectx x;
    prepare(s, &x, t, 0, y, yp, res, 0);
    memset(res, 0, sizeof(double) * (size_t)sys->n);
    eval_elements(s, &x);
    for (int k = 0; k < sys->nslots; k++) { /* virtual work: a force times the ratio of its node */
        int r = sys->elem_frow[k];
        if (r >= 0) res[r] += sys->att_ratio[k] * s->f[k];
    }
    for (int k = 0; k < sys->ncons; k++) { /* constraints among three or more flanges */
        const fl_con *c = &sys->cons[k];
        double r = c->level == 0 ? c->off : 0;
        for (int i = 0; i < c->n; i++) r += sys->con_coef[c->k0 + i] * node_level(s, sys->con_node[c->k0 + i], c->level);
        res[sys->elems[c->elem].own + c->row] += r;
    }
    for (int b = 0; b < sys->nbodies; b++) {
        const fl_body *bd = &sys->bodies[b];
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
    for (int i = 0; i < sys->n; i++)
        if (!isfinite(res[i])) return 1;
    return 0;
}

void fl_eval_jacobian(fl_sim *s, double t, double cj, const double *y, const double *yp, double *jdata,
                      double *idata, double *rdata)
{
    const fl_system *sys = s->sys;
    fl_ectx x;
    prepare(s, &x, t, cj, y, yp, s->res, 1);
    memset(s->jloc, 0, sizeof(double) * (size_t)(sys->njloc ? sys->njloc : 1));
    eval_elements(s, &x);
    int drv0 = sys->njloc - 2 * sys->ndrv;
    for (int k = 0; k < sys->ndrv; k++) {
        s->jloc[drv0 + 2 * k] = s->drv[k].da_ds;
        s->jloc[drv0 + 2 * k + 1] = s->drv[k].da_dv;
    }
    if (jdata) memset(jdata, 0, sizeof(double) * (size_t)sys->jpat.nnz);
    if (idata) memset(idata, 0, sizeof(double) * (size_t)sys->ipat.nnz);
    if (rdata) memset(rdata, 0, sizeof(double) * (size_t)sys->rpat.nnz);
    for (int i = 0; i < sys->njent; i++) {
        const fl_jentry *e = &sys->jent[i];
        double v = (e->src >= 0 ? s->jloc[e->src] : 1.0) * e->mult;
        if (jdata) jdata[e->slot] += e->cj ? v * cj : v;
        if (idata && e->islot >= 0) idata[e->islot] += v;
        if (rdata && e->rslot >= 0) rdata[e->rslot] += v;
    }
    if (idata)
        for (int k = 0; k < sys->ncentry; k++) idata[sys->centry[k].islot] += sys->centry[k].coef;
}

void fl_eval_roots(fl_sim *s, double t, const double *y, const double *yp, double *g)
{
    const fl_system *sys = s->sys;
    fl_ectx x;
    prepare(s, &x, t, 0, y, yp, s->res, 0);
    for (int k = 0; k < sys->negroups; k++) {
        const fl_egroup *eg = &sys->egroups[k];
        if (eg->ops->roots && eg->ops->nroots) eg->ops->roots(&x, &sys->elems[eg->first], eg->n, g);
    }
}

double fl_next_time_event(const fl_sim *s, double t)
{
    const fl_system *sys = s->sys;
    double te = INFINITY;
    for (int k = 0; k < sys->nblocks; k++) {
        const fl_inst_rt *ir = &sys->insts[sys->blocks[k]];
        if (!ir->cls->block->next_event) continue;
        double x = ir->cls->block->next_event(s->par + ir->pofs, sys->arrays, t);
        if (x > t && x < te) te = x;
    }
    for (int k = 0; k < s->ntev; k++) { /* the elements that have time events */
        const fl_elem *el = &sys->elems[s->tev[k]];
        double x = sys->insts[el->inst].ops->next_time_event(s->par, el, t);
        if (x > t && x < te) te = x;
    }
    return te;
}

int fl_event_update(fl_sim *s, double t, double *y, const double *yp, const int *dir)
{
    const fl_system *sys = s->sys;
    fl_ectx x;
    prepare(s, &x, t, 0, y, yp, s->res, 0);
    x.yw = y; /* impulses may change velocities */
    int changed = 0;
    static const int nodir[64] = {0};
    s->elem_err[0] = '\0';
    s->elem_err_loc.file = NULL;
    for (int e = 0; e < sys->nelem; e++) {
        const fl_elem *el = &sys->elems[e];
        const fl_elem_ops *ops = sys->insts[el->inst].ops;
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
    return changed;
}

void fl_start_elements(fl_sim *s, double t, const double *y, const double *yp)
{
    const fl_system *sys = s->sys;
    fl_ectx x;
    prepare(s, &x, t, 0, y, yp, s->res, 0);
    for (int e = 0; e < sys->nelem; e++) {
        const fl_elem *el = &sys->elems[e];
        const fl_elem_ops *ops = sys->insts[el->inst].ops;
        if (ops->start) ops->start(&x, el);
    }
}

int fl_init_modes(fl_sim *s, double t, const double *y, const double *yp)
{
    const fl_system *sys = s->sys;
    fl_ectx x;
    prepare(s, &x, t, 0, y, yp, s->res, 0);
    int changed = 0;
    for (int e = 0; e < sys->nelem; e++) {
        const fl_elem *el = &sys->elems[e];
        const fl_elem_ops *ops = sys->insts[el->inst].ops;
        if (!ops->init_modes) continue;
        int nm = ops->nmodes;
        int before[16];
        for (int k = 0; k < nm && k < 16; k++) before[k] = s->mode[el->mode + k];
        ops->init_modes(&x, el);
        for (int k = 0; k < nm && k < 16; k++)
            if (before[k] != s->mode[el->mode + k]) {
                changed = 1;
                s->last_changed = e;
            }
    }
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
        const fl_port_rt *pr = &sys->ports[p];
        double f = 0;
        for (int k = pr->c0; k < pr->c0 + pr->nc; k++) {
            const fl_pcontrib *c = &sys->contrib[k];
            switch (c->type) {
            case PC_ELEM: f += s->f[c->index]; break; /* index: the attachment slot */
            case PC_LINK: f += s->linkf[2 * c->index + c->end]; break;
            case PC_ROOT: f += s->rootf[c->index]; break;
            case PC_DRVSUP: {
                const fl_body *bd = &sys->bodies[sys->drvs[c->index].body];
                f += -s->rootf[bd->root];
                break;
            }
            }
        }
        s->portf[p] = f;
    }
}

/* The class variables of instance i at (t, y, yp) into s->vals; buf holds
 * 4 * maxp doubles of room for the port quantities. */
static void instance_outputs(fl_sim *s, int i, double t, const double *y, const double *yp, double *buf, int maxp)
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
        pf[k] = node >= 0 ? s->portf[ir->port0 + k] : 0;
    }
    if (!c->outputs || !c->nvars) return;
    fl_octx o;
    o.t = t;
    o.par = s->par + ir->pofs;
    o.arrays = sys->arrays;
    o.ps = ps;
    o.pv = pv;
    o.pa = pa;
    o.pf = pf;
    o.u = s->u + ir->in0;
    o.du = s->du + ir->in0;
    o.user = c->user;
    o.ddu = s->ddu + ir->in0;
    o.own = ir->elem >= 0 && sys->elems[ir->elem].own >= 0 ? y + sys->elems[ir->elem].own : NULL;
    o.ownp = ir->elem >= 0 && sys->elems[ir->elem].own >= 0 ? yp + sys->elems[ir->elem].own : NULL;
    o.mode = ir->elem >= 0 ? s->mode + sys->elems[ir->elem].mode : NULL;
    o.rs = ir->elem >= 0 ? s->rs + sys->elems[ir->elem].rs : NULL;
    o.has_support = ir->has_support;
    o.contact_events = s->contact_events;
    o.func_err = s->func_err;
    c->outputs(&o, s->vals + ir->var0);
}

void fl_eval_outputs(fl_sim *s, double t, const double *y, const double *yp)
{
    const fl_system *sys = s->sys;
    int n = sys->n;
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
    int maxp = 16;
    for (int i = 0; i < sys->ninst; i++) maxp = FL_MAX(maxp, sys->insts[i].cls->nports);
    double small[4 * 16];
    double *buf = maxp <= 16 ? small : fl_xmalloc(sizeof(double) * 4 * (size_t)maxp);
    for (int i = 0; i < sys->ninst; i++)
        if (!s->out_inst || s->out_inst[i]) instance_outputs(s, i, t, y, yp, buf, maxp);
    if (sys->has_late) {
        for (int k = 0; k < sys->nsig; k++) {
            const fl_sigref *sr = &sys->sigs[k];
            if (sr->kind != SIG_LATE) continue;
            const fl_inst_rt *oi = &sys->insts[sr->inst];
            s->u[k] = sr->out >= 0 ? s->vals[oi->var0 + sr->out] : s->portf[oi->port0 + sr->level];
        }
        for (int i = 0; i < sys->ninst; i++)
            if (sys->insts[i].has_late && (!s->out_inst || s->out_inst[i])) instance_outputs(s, i, t, y, yp, buf, maxp);
        for (int k = 0; k < sys->nsig; k++)
            if (sys->sigs[k].kind == SIG_LATE) s->u[k] = NAN; /* not while integrating */
    }
    if (buf != small) free(buf);
    int nv = s->out_vars ? s->nout_vars : sys->nvars;
    for (int k = 0; k < nv; k++) {
        int v = s->out_vars ? s->out_vars[k] : k;
        const fl_var *vr = &sys->vars[v];
        const fl_inst_rt *ir = &sys->insts[vr->inst];
        switch (vr->kind) {
        case OV_PORT_S: s->vals[v] = node_level(s, sys->ports[ir->port0 + vr->index].node, 0); break;
        case OV_PORT_F: s->vals[v] = s->portf[ir->port0 + vr->index]; break;
        case OV_INPUT: s->vals[v] = s->u[ir->in0 + vr->index]; break;
        case OV_BLOCK_OUT:
            s->vals[v] = block_value(s, vr->inst, fl_block_out(ir->cls, ir->nout, vr->def, vr->index), 0, t);
            break;
        default: break;
        }
    }
}
