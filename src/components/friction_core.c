/* friction_core.c - the stick-slip state machine shared by the friction
 * elements (see friction.h): branch selection, the path-parameter residual,
 * root functions, the event update with MSL's PartialFriction semantics,
 * and the lookup of friction tables. */
#include <math.h>

#include "friction.h"

const char *const fl_fric_own_names[] = {"sa"};
const char fl_fric_own_hint[] =
    "the holding force of a stuck friction element is not unique when another stuck friction element or a "
    "prescribed motion acts on the same rigid body; connect them through a spring or a damper";

fl_fric_branch fl_fric_branch_of(const int *m, double v)
{
    if (m[FR_M_LOCKED]) return m[FR_M_IDLE] == 1 ? FL_FB_FREE : FL_FB_LOCKED;
    if (m[FR_M_FREE]) return FL_FB_FREE;
    if (m[FR_M_SF]) return FL_FB_FWD;
    if (m[FR_M_SB]) return FL_FB_BWD;
    if (m[FR_M_PRE] == FL_FR_FORWARD) return FL_FB_FWD;
    if (m[FR_M_PRE] == FL_FR_BACKWARD) return FL_FB_BWD;
    return v >= 0 ? FL_FB_FWD : FL_FB_BWD; /* not reached in a consistent state */
}

/* The velocity resolution of the machine: the start band (a start ends
 * once v passes 1e-6 of it) and the scale of the event band. It is the
 * reversal threshold v_small (1e-3 m/s in translation), at most 1e-3:
 * rotation's w_small defaults to 1e10 rad/s, which switches the reversal
 * off, and must not widen the bands with it. */
static double v_res(const fl_fric *q)
{
    return fmin(q->v_small, 1e-3);
}

void fl_fric_kin(const fl_ectx *x, const fl_elem *e, fl_fric *q)
{
    q->v = fl_att_v(x, e, 1) - fl_att_v(x, e, 0);
    q->a = fl_att_a(x, e, 1) - fl_att_a(x, e, 0);
    q->sa = x->y[e->own];
}

double fl_fric_residual(fl_ectx *x, const fl_elem *e, fl_fric_branch br, const fl_fric *q, int ncols)
{
    double thr = 0;
    double *r = x->want_jac ? fl_jrow(x, e, 2, ncols) : NULL;
    if (br == FL_FB_LOCKED) {
        double K = fl_lock_scale(x, e);
        x->res[e->own] = K * q->a;
        if (r) {
            r[FL_J_A1] = K;
            r[FL_J_A0] = -K;
        }
        return 0;
    }
    if (br == FL_FB_FWD) thr = q->fwdmax;
    if (br == FL_FB_BWD) thr = q->bwdmax;
    /* a = sa - (break-away force of the direction); free: a = sa */
    x->res[e->own] = q->a - q->sa + thr;
    if (r) {
        r[FL_J_A1] = 1;
        r[FL_J_A0] = -1;
        r[FL_J_OWN] = -1;
    }
    return thr;
}

void fl_fric_roots(const fl_fric *q, const int *m, double *g)
{
    for (int k = 0; k < FR_NROOTS; k++) g[k] = 1;
    /* idle, or at a limit held there by other locks: nothing of its own
     * changes (see fl_fric_rigid) */
    if (m[FR_M_FREE] || m[FR_M_IDLE] == 1) return;
    if (m[FR_M_LOCKED]) {
        /* stuck: break-away */
        if (!q->block_fwd) g[FR_R_BREAK_F] = q->sa - q->fwdmax;
        if (!q->block_bwd) g[FR_R_BREAK_B] = q->sa - q->bwdmax;
        return;
    }
    g[FR_R_V] = q->v;
    /* A start begins at v = 0 exactly, often with zero acceleration too (the
     * force just reached the break-away value): a root that starts at zero
     * is never reported by IDA, so the start ends when v passes a velocity
     * of rounding size instead (the band of zero velocities, see event). */
    double eps = 1e-6 * v_res(q);
    if (m[FR_M_SF] && m[FR_M_MODE] == FL_FR_STUCK) {
        g[FR_R_V] = q->v - eps;
        g[FR_R_HOLD_F] = q->sa - q->fwd0; /* a start that loses its force sticks again */
    } else if (m[FR_M_SB] && m[FR_M_MODE] == FL_FR_STUCK) {
        g[FR_R_V] = q->v + eps;
        g[FR_R_HOLD_B] = q->sa - q->bwd0;
    } else if (m[FR_M_MODE] == FL_FR_FORWARD) {
        g[FR_R_VS_B] = q->v + q->v_small;
    } else if (m[FR_M_MODE] == FL_FR_BACKWARD) {
        g[FR_R_VS_F] = q->v - q->v_small;
    }
}

/* The relation g > 0 where g is a quantity minus a threshold: where the
 * quantity has just crossed one of its thresholds (direction d) and g is
 * zero to the accuracy of the integration (the root was located on the
 * interpolated solution; the event re-solves it exactly), the crossing
 * decides, so that every relation on that quantity agrees with the event
 * that is being processed. */
static int gt(double g, double scale, double band, int d)
{
    if (d && fabs(g) <= band * scale) return d > 0;
    return g > 0;
}

static int first_dir(const int *dir, int from, int to)
{
    for (int k = from; k <= to; k++)
        if (dir[k]) return dir[k];
    return 0;
}

/* Zero the relative velocity with a momentum-conserving impulse (it is of
 * the size of the event location error): a plastic impact of the two sides
 * (none with a massless side, which has nothing to hold it). */
static void snap_velocity(fl_ectx *x, const fl_elem *e, double v)
{
    if (v == 0) return;
    fl_impact(x, e, 0);
}

int fl_fric_event(fl_ectx *x, const fl_elem *e, const fl_fric *q, const int *dir)
{
    int *m = x->mode + e->mode;
    int pre = m[FR_M_MODE], psf = m[FR_M_SF], psb = m[FR_M_SB];
    int dsa = first_dir(dir, FR_R_BREAK_F, FR_R_HOLD_B), dv = first_dir(dir, FR_R_V, FR_R_VS_B);
    double ssa = fabs(q->fwdmax) + fabs(q->bwdmax) + fabs(q->sa) + 1e-300;
    double sv = v_res(q) + fabs(q->v);
    double band = fmax(1e-9, 10 * x->rtol);
    int above_max = gt(q->sa - q->fwdmax, ssa, band, dsa), above_0 = gt(q->sa - q->fwd0, ssa, band, dsa);
    int below_max = gt(q->bwdmax - q->sa, ssa, band, -dsa), below_0 = gt(q->bwd0 - q->sa, ssa, band, -dsa);
    int vpos = gt(q->v, sv, band, dv), vneg = gt(-q->v, sv, band, -dv);
    int vfast = gt(q->v - q->v_small, sv, band, dv), vfast_neg = gt(-q->v_small - q->v, sv, band, -dv);
    /* an idle lock holds nothing: it has no break-away of its own (it
     * stays locked until resolve_locks finds it needed); a start that
     * other locks hold at zero speed stays at its limit (its sa is exactly
     * the threshold there, with no acceleration to decide) */
    if (m[FR_M_IDLE] == 1) {
        int lk = m[FR_M_LOCKED];
        above_max = below_max = 0;
        above_0 = !lk && psf;
        below_0 = !lk && psb;
    } else if (m[FR_M_IDLE] >= 2) {
        /* a start held at its limit that the locks have just let go: its
         * sa is at the threshold up to rounding, with nothing to decide.
         * 2: the last holder broke away in the same direction, the group
         * breaks away and the start goes on; 3: the holder broke away the
         * other way (the load reversed), so this member's share falls back
         * from its limit and it locks, holding the rest */
        int go = m[FR_M_IDLE] == 2;
        if (m[FR_M_IDLE] == 4) {
            /* locked again at its limit in this instant (3 below): its
             * share is the rest of the load, at the limit up to the
             * location of the event; only its own crossing or a clear
             * excess breaks it away */
            if (!dsa) {
                above_max = q->sa - q->fwdmax > band * ssa;
                below_max = q->bwdmax - q->sa > band * ssa;
            }
        } else {
            above_0 = go && q->sa - q->fwd0 > -band * ssa;
            below_0 = go && q->bwd0 - q->sa > -band * ssa;
            if (!go) above_max = below_max = 0;
        }
        m[FR_M_IDLE] = m[FR_M_IDLE] == 3 ? 4 : 0;
    }

    int sf = (pre == FL_FR_STUCK && !q->block_fwd && (above_max || (psf && above_0))) ||
             (pre == FL_FR_BACKWARD && vfast);
    int sb = (pre == FL_FR_STUCK && !q->block_bwd && (below_max || (psb && below_0))) ||
             (pre == FL_FR_FORWARD && vfast_neg);
    /* Arriving at v = 0 from sliding (the last pass ended the sliding: mode
     * Stuck, not locked, no start under way), sa still has its sliding
     * value, a plus or minus the break-away force, which is no force at
     * all unless the body has unit mass. The MSL solves startForward,
     * startBackward, locked and sa of this pass together, and the locked
     * configuration is the one tried first: this pass locks, and the next
     * decides the break-away from the holding force that sa then is. */
    if (pre == FL_FR_STUCK && !m[FR_M_LOCKED] && !psf && !psb &&
        (m[FR_M_PRE] == FL_FR_FORWARD || m[FR_M_PRE] == FL_FR_BACKWARD))
        sf = sb = 0;
    int locked = !q->free && !(pre == FL_FR_FORWARD || sf || pre == FL_FR_BACKWARD || sb);
    int mode;
    if (q->free) mode = FL_FR_FREE;
    else if ((pre == FL_FR_FORWARD || pre == FL_FR_FREE || sf) && vpos && !q->block_fwd) mode = FL_FR_FORWARD;
    else if ((pre == FL_FR_BACKWARD || pre == FL_FR_FREE || sb) && vneg && !q->block_bwd) mode = FL_FR_BACKWARD;
    else mode = FL_FR_STUCK;

    int changed = m[FR_M_PRE] != pre || m[FR_M_SF] != sf || m[FR_M_SB] != sb || m[FR_M_LOCKED] != locked ||
                  m[FR_M_FREE] != q->free || m[FR_M_MODE] != mode;
    /* zero the velocity that is left from locating v = 0 (its error grows
     * with t), but not a real one: a pass may be locked on its way
     * elsewhere (from Free with v != 0) */
    if (locked && (dir[FR_R_V] || fabs(q->v) <= 1e-6 * v_res(q))) snap_velocity(x, e, q->v);
    m[FR_M_PRE] = pre;
    m[FR_M_SF] = sf;
    m[FR_M_SB] = sb;
    m[FR_M_LOCKED] = locked;
    m[FR_M_FREE] = q->free;
    m[FR_M_MODE] = mode;
    return changed;
}

/* Parallel locks. Two locked elements on one rigid body (LossyGearDemo2's
 * gear and bearing friction, two brakes on a shaft) constrain the same
 * motion twice, and the body's balance fixes only the sum of their holding
 * forces: the system is singular. Real parts share the load through their
 * compliance, which the model does not have; flange decides it by a rule,
 * "the first holds up to its limit, the next takes the rest":
 *
 * - The locks hold in the order of their declarations. A lock that the
 *   rigid relations before it already imply (fl_elem_ops.rigid; the
 *   engine's resolve_locks, sim/eval.c, finds them with a union-find over
 *   the bodies) is idle (FR_M_IDLE = 1): locked, no force, no break-away
 *   of its own, row a_rel = sa.
 * - A holder that reaches its limit starts sliding as always, but the
 *   locks after it hold the motion at zero speed: it is a start held at
 *   its limit (FR_M_IDLE = 1 on a start: force at the limit, no roots; its
 *   sa equals the threshold exactly, so it is not asked whether it lost
 *   its force), and the next lock, no longer implied, takes the rest.
 * - When the last holder breaks away in the same direction as the members
 *   at their limits, the whole group breaks away: the held starts go on
 *   (2). So the body moves exactly when the force needed exceeds the sum
 *   of the limits in one direction.
 * - When the holder breaks away the other way (the load fell back), the
 *   members held at their limits lock again (3) and take over at their
 *   limits, where the location of the event leaves them a rounding
 *   outside: such a lock (4) breaks away only by its own crossing or a
 *   clear excess. When all are locked again, the first holds all.
 *
 * Every force stays within its limits and the forces add up to the load;
 * the split follows the history of the load (a member at its limit stays
 * there while the others can hold), as the pre-stress of real parallel
 * brakes does. Relations the engine cannot see (a LossyGear on a moving
 * support, elements without rigid(), user equations) leave a redundancy
 * singular, reported with fl_fric_own_hint as before. */
int fl_fric_rigid(const fl_ectx *x, const fl_elem *e, fl_rigid *out)
{
    const int *m = x->mode + e->mode;
    int start = !m[FR_M_LOCKED] && m[FR_M_MODE] == FL_FR_STUCK && (m[FR_M_SF] || m[FR_M_SB]);
    if (!m[FR_M_LOCKED] && !start) return 0;
    out[0] = (fl_rigid){0, 1, 1, 1, m[FR_M_LOCKED] ? FL_RIGID_LOCK : FL_RIGID_START, m[FR_M_SF] ? 1 : -1};
    return 1;
}

int fl_fric_set_idle(fl_ectx *x, const fl_elem *e, int idle)
{
    int *m = x->mode + e->mode;
    int start = !m[FR_M_LOCKED] && m[FR_M_MODE] == FL_FR_STUCK && (m[FR_M_SF] || m[FR_M_SB]);
    /* a held start that is let go keeps its verdict (2 go on, 3 lock) for
     * the next event pass, which uses it (fl_fric_event) */
    if (idle == 1 && (m[FR_M_LOCKED] || start)) idle = 1;
    else if (start && m[FR_M_IDLE] == 1) idle = idle == 2 ? 2 : 3;
    else if (start && (m[FR_M_IDLE] == 2 || m[FR_M_IDLE] == 3)) idle = m[FR_M_IDLE];
    else if (m[FR_M_LOCKED] && m[FR_M_IDLE] == 4) idle = 4; /* a holder again at its limit (fl_fric_event) */
    else idle = 0;
    if (m[FR_M_IDLE] == idle) return 0;
    m[FR_M_IDLE] = idle;
    return 1;
}

void fl_fric_init(int *m, const fl_fric *q)
{
    int sf = q->v > 0, sb = q->v < 0;
    m[FR_M_PRE] = FL_FR_UNKNOWN;
    m[FR_M_SF] = sf;
    m[FR_M_SB] = sb;
    m[FR_M_FREE] = q->free;
    m[FR_M_IDLE] = 0;
    m[FR_M_LOCKED] = !q->free && !(sf || sb);
    m[FR_M_MODE] = q->free ? FL_FR_FREE : sf ? FL_FR_FORWARD : sb ? FL_FR_BACKWARD : FL_FR_STUCK;
}

double fl_fric_table(const fl_value *tab, int smoothness, double x, double *slope)
{
    return fl_fric_table_col(tab, smoothness, 1, x, slope);
}

double fl_fric_table_col(const fl_value *tab, int smoothness, int col, double x, double *slope)
{
    int n = tab->dim[0], nc = tab->dim[1];
    const double *d = tab->data;
#define TX(i) d[(size_t)(i) * (size_t)nc]
#define TY(i) d[(size_t)(i) * (size_t)nc + (size_t)col]
    *slope = 0;
    if (n == 1) return TY(0);
    int i = 0; /* segment [i, i+1] */
    if (x >= TX(n - 1)) i = n - 2;
    else if (x > TX(0))
        while (i < n - 2 && x >= TX(i + 1)) i++;
    if (smoothness == FL_TAB_CONSTANT) {
        if (x >= TX(n - 1)) return TY(n - 1);
        return x < TX(0) ? TY(0) : TY(i);
    }
    double k = (TY(i + 1) - TY(i)) / (TX(i + 1) - TX(i));
    *slope = k;
    return TY(i) + k * (x - TX(i));
#undef TX
#undef TY
}

int fl_fric_table_param(const fl_pctx *p, fl_diag *d, const char *name, int ktab, int ksmooth, const char *what,
                        double *at0)
{
    const fl_value *tab = &p->arrays[(int)p->par[ktab]];
    int smoothness = (int)p->par[ksmooth];
    if (smoothness != FL_TAB_LINEAR && smoothness != FL_TAB_CONSTANT) {
        const fl_enum_type *et = fl_enum_find("Modelica.Blocks.Types.Smoothness");
        fl_err(d, p->loc, "%s.smoothness = %s is not supported (only LinearSegments and ConstantSegments are)",
               p->inst, et && smoothness >= 1 && smoothness <= et->n ? et->lits[smoothness - 1] : "?");
        return -1;
    }
    if (tab->ndims != 2 || tab->dim[1] != 2) {
        fl_err(d, p->loc, "%s.%s: must be a matrix of two columns (velocity, value)", p->inst, name);
        return -1;
    }
    int n = tab->dim[0];
    if (n == 0) {
        fl_err(d, p->loc, "%s.%s: table is empty (it needs at least one row)", p->inst, name);
        return -1;
    }
    for (int i = 0; i < 2 * n; i++)
        if (!isfinite(tab->data[i])) {
            fl_err(d, p->loc, "%s.%s: element [%d, %d] is not a finite number", p->inst, name, i / 2 + 1, i % 2 + 1);
            return -1;
        }
    for (int i = 1; i < n; i++)
        if (!(tab->data[2 * i] > tab->data[2 * (i - 1)])) {
            fl_err(d, p->loc, "%s.%s: the velocities in column 1 must be strictly increasing (row %d)", p->inst, name,
                   i + 1);
            return -1;
        }
    double k;
    *at0 = fl_fric_table(tab, smoothness, 0, &k);
    if (!(*at0 >= 0)) {
        /* the velocity's name in the class's domain (w of a rotational flange) */
        int dom = FL_DOM_TRANS;
        for (int i = 0; p->cls && i < p->cls->nports; i++)
            if (p->cls->ports[i].kind == FL_PORT_FLANGE) {
                dom = fl_port_domain(&p->cls->ports[i]);
                break;
            }
        fl_err(d, p->loc, "%s.%s: the %s at %s = 0 is %g; it must be >= 0", p->inst, name, what,
               fl_domain_info(dom)->vel, *at0);
        return -1;
    }
    return 0;
}
