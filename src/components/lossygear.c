/* lossygear.c - Modelica.Mechanics.Rotational.Components.LossyGear: a gear
 * (flange_a.phi - support.phi = ratio*(flange_b.phi - support.phi)) whose
 * torque balance loses torque in the teeth (mesh efficiencies eta_mf1 when
 * flange_a drives, eta_mf2 when flange_b drives) and in the bearings, all
 * from lossTable over |w_a|, and which can lock (self-locking) at w_a = 0.
 *
 * Why not a folded rigid link. IdealGear folds its two flanges into one
 * rigid body (fl_b_link_ratio), so the DAE never sees the constraint. The
 * lossy gear's torque balance is
 *     0 = flange_b.tau + ratio*(flange_a.tau - tauLoss),
 * and tauLoss depends on flange_a.tau itself (quadrant1 = (1 - eta_mf1)
 * flange_a.tau + tau_bf1, ...), both while rolling and in the break-away
 * thresholds of the locked state. Inside a folded body flange_a.tau is an
 * internal cut torque: it depends on the inertias and the forces of
 * whatever lies on the flange_a side, which no element sees. So the two
 * sides stay separate bodies and flange_a.tau is an own unknown of the
 * gear, its Lagrange multiplier:
 *
 *   unknowns   sa (the MSL's path parameter), tau_a = flange_a.tau
 *   forces     flange_a.tau = tau_a
 *              flange_b.tau = -ratio*(tau_a - tauLoss)
 *              support.tau  = -(flange_a.tau + flange_b.tau)
 *   row "kin"  a_a - ratio*a_b = 0 (accelerations relative to the support)
 *   row "sa"   locked: a_a = 0 (scaled as friction_core's lock);
 *              rolling: a_a = sa - tauLoss; ideal (Free): a_a = sa
 *
 * with tauLoss = sa while locked, tauLossMax/tauLossMin while rolling and
 * 0 for the ideal table. The constraint acts on accelerations, so the
 * system stays index 1: the body rows M v' + forces = 0 together with
 * "kin" determine v'_a, v'_b and tau_a, and "sa" determines sa (locked:
 * the torque the teeth and bearings hold). What acceleration level does
 * not keep are the position and velocity relations themselves: they are
 * initial equations of the gear (two initial rows, as the MSL's index
 * reduction makes them: fixing Inertia2 determines Inertia1), and the
 * "kin" row carries a critically damped correction of their drift
 * (Baumgarte: + 2 w0 e_v + w0^2 e_s with w0 = 10 rad/s), which the exact
 * solution never feels (e_s = e_v = 0) and which pulls the rounding of
 * the integrator and of velocity snaps back. The price of unfolded sides:
 * both flanges (and a moving support) need inertia, as every friction
 * element's flanges do; a massless side is a compile error naming it.
 *
 * The locking modes are friction_core's machine (friction.h): sa is the
 * path parameter of the element between the support (attachment 0) and
 * flange_a (attachment 1), mode/startForward/startBackward/locked have the
 * PartialFriction layout, and its roots (break-away of sa past the
 * thresholds, w_a reaching 0, a start that loses its torque) and event
 * update are used as they are. The LossyGear's rules are the special case
 * of PartialFriction's with no hysteresis (tau0 = tau0_max: the break-away
 * thresholds are tauLossMax_p and tauLossMin_m, which depend on tau_a at
 * w = 0) and no reversal through w_small (which a rolling gear never
 * reaches without passing w_a = 0 first). Arriving at w_a = 0 from
 * rolling, the gear locks first and the next pass of the event decides the
 * break-away from the torque it then holds (sa's rolling value, a_a +
 * tauLoss, is no torque; the MSL solves the pass as a mixed system). Where
 * the event snaps w_a to 0 (an impulse on flange_a's body), the gear moves
 * flange_b's body along, so that the velocity relation holds exactly when
 * locked. A locked gear and another stuck friction element on the same
 * shaft (LossyGearDemo2's BearingFriction) share a holding torque that no
 * equation determines: friction_core's rule for parallel locks decides it
 * (fl_fric_rigid), for which lg_rigid reports the gear relation.
 *
 * A lossTable of ConstantSegments makes the torques jump where |w_a|
 * passes a row; those crossings are events (the segment is a discrete
 * state), since the integrator cannot step across a jump of tau_a.
 *
 * tau_etaPos (which quadrant: is flange_a driving?) is decided from
 * tau_eta at every evaluation instead of by an event: the loss is
 * continuous across tau_eta = 0 (tau_bf_a is defined so that quadrant1 =
 * quadrant2 there), and LossyGearDemo3 sits exactly on that boundary for
 * its whole rolling phase, where an event relation would chatter on the
 * rounding of tau_a. */
#include <math.h>

#include "friction.h"

#define MRC "Modelica.Mechanics.Rotational.Components."
#define SMOOTHNESS "Modelica.Blocks.Types.Smoothness"

/* parameters, then the derived slots prepare() fills */
enum { LG_RATIO, LG_TABLE, LG_SMOOTH, LG_USESUPPORT, LG_USEHEAT, LG_ETA1_0, LG_ETA2_0, LG_TBF1_0, LG_TBF2_0,
       LG_TBFA_0, LG_IDEAL, LG_NPAR };

static const fl_port_def lg_ports[] = {RPORT_FLANGE_A, RPORT_FLANGE_B, RPORT_SUPPORT};

static const fl_param_def lg_params[] = {
    {"ratio", FL_P_REAL, NULL, "1", "1", "transmission ratio (flange_a.phi/flange_b.phi)", 0, 0, 0, NULL},
    {"lossTable", FL_P_MATRIX, "[0, 1, 1, 0, 0]", NULL, "",
     "[|w_a|, eta_mf1, eta_mf2, |tau_bf1|, |tau_bf2|]: mesh efficiencies and bearing friction over speed", 0, 0, 0,
     NULL},
    {"smoothness", FL_P_ENUM, SMOOTHNESS ".LinearSegments", NULL, "",
     "interpolation in lossTable (LinearSegments or ConstantSegments)", 0, 0, 0, SMOOTHNESS},
    PAR_USESUPPORT,
    PAR_USEHEATPORT,
};

static const fl_var_def lg_vars[] = {
    {"phi_a", "rad", "angle between left shaft flange and support", 0, 0, 0},
    {"phi_b", "rad", "angle between right shaft flange and support", 0, 0, 0},
    {"sa", "1", "path parameter for acceleration and torque loss", 0, 0, 0},
    {"w_a", "rad/s", "angular velocity of flange_a with respect to support", 0, 0, 0},
    {"a_a", "rad/s2", "angular acceleration of flange_a with respect to support", 0, 0, 0},
    {"eta_mf1", "1", "mesh efficiency in case that flange_a is driving", 0, 0, 0},
    {"eta_mf2", "1", "mesh efficiency in case that flange_b is driving", 0, 0, 0},
    {"tau_bf_a", "N.m", "bearing friction torque on flange_a side", 0, 0, 0},
    {"tau_eta", "N.m", "torque that determines the driving side", 0, 0, 0},
    {"tau_bf1", "N.m", "absolute resultant bearing friction torque with respect to flange_a if flange_a drives", 0, 0,
     0},
    {"tau_bf2", "N.m", "absolute resultant bearing friction torque with respect to flange_a if flange_b drives", 0, 0,
     0},
    {"quadrant1", "N.m", "torque loss if w_a > 0 and tau_eta >= 0", 0, 0, 0},
    {"quadrant2", "N.m", "torque loss if w_a > 0 and tau_eta < 0", 0, 0, 0},
    {"quadrant3", "N.m", "torque loss if w_a < 0 and tau_eta < 0", 0, 0, 0},
    {"quadrant4", "N.m", "torque loss if w_a < 0 and tau_eta >= 0", 0, 0, 0},
    {"quadrant1_p", "N.m", "torque loss at w_a = 0+ (flange_a driving)", 0, 0, 0},
    {"quadrant2_p", "N.m", "torque loss at w_a = 0+ (flange_b driving)", 0, 0, 0},
    {"quadrant3_m", "N.m", "torque loss at w_a = 0- (flange_a driving)", 0, 0, 0},
    {"quadrant4_m", "N.m", "torque loss at w_a = 0- (flange_b driving)", 0, 0, 0},
    {"tauLoss", "N.m", "torque loss due to friction in the gear teeth and in the bearings", 0, 0, 0},
    {"tauLossMax", "N.m", "torque loss for positive speed", 0, 0, 0},
    {"tauLossMin", "N.m", "torque loss for negative speed", 0, 0, 0},
    {"tauLossMax_p", "N.m", "torque loss for positive speed at w_a = 0 (break-away forward)", 0, 0, 0},
    {"tauLossMin_m", "N.m", "torque loss for negative speed at w_a = 0 (break-away backward)", 0, 0, 0},
    {"tau_aPos", "", "= tau_etaPos (backwards compatibility)", FL_VF_BOOL, 0, 0},
    {"tau_etaPos", "", "true, if torque tau_eta is not negative", FL_VF_BOOL, 0, 0},
    {"startForward", "", "true, if starting to roll forward", FL_VF_BOOL, 0, 0},
    {"startBackward", "", "true, if starting to roll backward", FL_VF_BOOL, 0, 0},
    {"locked", "", "true, if gear is locked", FL_VF_BOOL, 0, 0},
    {"ideal", "", "true, if losses are neglected (lossTable = [0, 1, 1, 0, 0])", FL_VF_BOOL, 0, 0},
    {"mode", "", "-1 backward rolling, 0 stuck, 1 forward rolling, 2 free (ideal)", FL_VF_INT, 0, 0},
    {"tau_eta_p", "N.m", "tau_eta assuming positive omega", 0, 0, 0},
    {"tau_eta_m", "N.m", "tau_eta assuming negative omega", 0, 0, 0},
    {"lossPower", "W", "loss power leaving the component via heatPort (= tauLoss*w_a)", 0, 0, 0},
};

/* ---- the loss table ---------------------------------------------------- */

/* Column c (1..4: eta_mf1, eta_mf2, tau_bf1, tau_bf2) of the table at
 * x = |w_a|: linear segments extrapolated through the two end rows (the
 * MSL's Extrapolation.LastTwoPoints), or constant segments; *slope gets
 * the derivative. */
static double lg_table(const fl_value *tab, int smooth, int c, double x, double *slope)
{
    return fl_fric_table_col(tab, smooth, c, x, slope); /* the friction tables' interpolation, column c */
}

/* ConstantSegments: the segment of x (the last row whose speed x has
 * reached; row 0 below the table). The value jumps where x passes a row,
 * and the torques jump with it, which the integrator cannot step across:
 * the segment is a discrete state of the gear, changed by events where
 * |w_a| crosses the speeds of the neighbouring rows (the MSL leaves them
 * to noEvent). */
static int lg_segment(const fl_value *tab, double x)
{
    int n = tab->dim[0], i = 0;
    while (i < n - 1 && x >= tab->data[(size_t)(i + 1) * 5]) i++;
    return i;
}

static int is_one(double v)
{
    return fabs(v - 1.0) <= 2.220446049250313e-16; /* Modelica.Math.isEqual(v, 1, eps) */
}

/* tau_bf_a from tau_bf1 = eta_mf1*tau_bf_a + tau_bf_b/ratio and
 * tau_bf2 = tau_bf_a/eta_mf2 + tau_bf_b/ratio; with both efficiencies 1
 * the split is arbitrary (half, as the MSL). */
static double tbf_a_of(double eta1, double eta2, double tbf1, double tbf2)
{
    if (is_one(eta1) && is_one(eta2)) return tbf1 / 2;
    return (tbf1 - tbf2) / (eta1 - 1.0 / eta2);
}

/* ---- parameters ---------------------------------------------------------- */

static int lg_check(const fl_pctx *p, fl_diag *d)
{
    if (!(p->par[LG_RATIO] != 0) || !isfinite(p->par[LG_RATIO])) {
        fl_err(d, p->loc, "%s.ratio = %g: the transmission ratio must be finite and non-zero", p->inst,
               p->par[LG_RATIO]);
        return -1;
    }
    int smooth = (int)p->par[LG_SMOOTH];
    if (smooth != FL_TAB_LINEAR && smooth != FL_TAB_CONSTANT) {
        const fl_enum_type *et = fl_enum_find(SMOOTHNESS);
        fl_err(d, p->loc, "%s.smoothness = %s is not supported (only LinearSegments and ConstantSegments are)",
               p->inst, et && smooth >= 1 && smooth <= et->n ? et->lits[smooth - 1] : "?");
        return -1;
    }
    const fl_value *tab = &p->arrays[(int)p->par[LG_TABLE]];
    if (tab->ndims != 2 || tab->dim[1] != 5) {
        fl_err(d, p->loc, "%s.lossTable: must be a matrix of five columns (|w_a|, eta_mf1, eta_mf2, |tau_bf1|, "
                          "|tau_bf2|)",
               p->inst);
        return -1;
    }
    int n = tab->dim[0];
    if (n == 0) {
        fl_err(d, p->loc, "%s.lossTable: table is empty (it needs at least one row)", p->inst);
        return -1;
    }
    for (int i = 0; i < 5 * n; i++)
        if (!isfinite(tab->data[i])) {
            fl_err(d, p->loc, "%s.lossTable: element [%d, %d] is not a finite number", p->inst, i / 5 + 1, i % 5 + 1);
            return -1;
        }
    for (int i = 1; i < n; i++)
        if (!(tab->data[5 * i] > tab->data[5 * (i - 1)])) {
            fl_err(d, p->loc, "%s.lossTable: the speeds |w_a| in column 1 must be strictly increasing (row %d)",
                   p->inst, i + 1);
            return -1;
        }
    for (int i = 0; i < n; i++)
        for (int c = 1; c <= 2; c++) {
            double eta = tab->data[5 * i + c];
            if (!(eta > 0 && eta <= 1)) {
                fl_err(d, p->loc, "%s.lossTable[%d, %d] = %g: the mesh efficiency eta_mf%d must be in (0, 1]",
                       p->inst, i + 1, c + 1, eta, c);
                return -1;
            }
        }
    return 0;
}

static void lg_prepare(const fl_pctx *p, double *par)
{
    const fl_value *tab = &p->arrays[(int)p->par[LG_TABLE]];
    int smooth = (int)p->par[LG_SMOOTH];
    double k;
    par[LG_ETA1_0] = lg_table(tab, smooth, 1, 0, &k);
    par[LG_ETA2_0] = lg_table(tab, smooth, 2, 0, &k);
    par[LG_TBF1_0] = fabs(lg_table(tab, smooth, 3, 0, &k));
    par[LG_TBF2_0] = fabs(lg_table(tab, smooth, 4, 0, &k));
    par[LG_TBFA_0] = tbf_a_of(par[LG_ETA1_0], par[LG_ETA2_0], par[LG_TBF1_0], par[LG_TBF2_0]);
    static const double ideal[5] = {0, 1, 1, 0, 0};
    int id = tab->dim[0] == 1;
    for (int c = 0; c < 5 && id; c++) id = fabs(tab->data[c] - ideal[c]) <= 2.220446049250313e-16;
    par[LG_IDEAL] = id;
}

/* discrete states and roots after the friction machine's (friction.h) */
enum { LG_M_SEG = FR_NMODES, LG_NMODES };
enum { LG_R_SEG_UP = FR_NROOTS, LG_R_SEG_DN, LG_NROOTS };

/* ---- the quantities of the MSL's equations ------------------------------- */

typedef struct lg_q {
    double w, ta, sa;                          /* w_a, tau_a = flange_a.tau, sa */
    double eta1, eta2, tbf1, tbf2, tbf_a;      /* at |w_a| */
    double q1, q2, q3, q4;                     /* quadrants at |w_a| */
    double q1p, q2p, q3m, q4m, tep, tem;       /* at w_a = 0: thresholds of break-away, tau_eta_p/_m */
    double lmax_p, lmin_m, lmax, lmin;
    double tau_eta;
    int etapos;
    fl_fric_branch br;
    double loss;                               /* tauLoss */
    double dl_dta, dl_dsa, dl_dw;              /* its partial derivatives */
} lg_q;

static void lg_compute(const double *p, const fl_value *tab, const int *m, double w, double ta, double sa, lg_q *q)
{
    int smooth = (int)p[LG_SMOOTH];
    int ideal = p[LG_IDEAL] != 0;
    double x = fabs(w), sx = w >= 0 ? 1 : -1;
    double de1 = 0, de2 = 0, db1 = 0, db2 = 0;
    q->w = w;
    q->ta = ta;
    q->sa = sa;
    if (ideal) {
        q->eta1 = q->eta2 = 1;
        q->tbf1 = q->tbf2 = 0;
    } else if (smooth == FL_TAB_CONSTANT) {
        const double *row = tab->data + (size_t)m[LG_M_SEG] * 5;
        q->eta1 = row[1];
        q->eta2 = row[2];
        q->tbf1 = fabs(row[3]);
        q->tbf2 = fabs(row[4]);
    } else {
        q->eta1 = lg_table(tab, smooth, 1, x, &de1);
        q->eta2 = lg_table(tab, smooth, 2, x, &de2);
        double b1 = lg_table(tab, smooth, 3, x, &db1), b2 = lg_table(tab, smooth, 4, x, &db2);
        q->tbf1 = fabs(b1);
        q->tbf2 = fabs(b2);
        if (b1 < 0) db1 = -db1;
        if (b2 < 0) db2 = -db2;
    }
    q->tbf_a = tbf_a_of(q->eta1, q->eta2, q->tbf1, q->tbf2);
    /* at w = 0: the thresholds of break-away (noEvent in the MSL) */
    double e10 = p[LG_ETA1_0], e20 = p[LG_ETA2_0], b10 = p[LG_TBF1_0], b20 = p[LG_TBF2_0], ba0 = p[LG_TBFA_0];
    q->tep = ta - ba0;
    q->tem = ta + ba0;
    q->q1p = (1 - e10) * ta + b10;
    q->q2p = (1 - 1 / e20) * ta + b20;
    q->q4m = (1 - 1 / e20) * ta - b20;
    q->q3m = (1 - e10) * ta - b10;
    q->lmax_p = q->tep > 0 ? q->q1p : q->q2p;
    q->lmin_m = q->tem > 0 ? q->q4m : q->q3m;
    /* at |w_a| */
    q->q1 = (1 - q->eta1) * ta + q->tbf1;
    q->q2 = (1 - 1 / q->eta2) * ta + q->tbf2;
    q->q4 = (1 - 1 / q->eta2) * ta - q->tbf2;
    q->q3 = (1 - q->eta1) * ta - q->tbf1;
    q->br = fl_fric_branch_of(m, w);
    if (ideal || q->br == FL_FB_LOCKED || m[FR_M_LOCKED]) q->tau_eta = ta;
    else q->tau_eta = q->br == FL_FB_FWD ? ta - q->tbf_a : ta + q->tbf_a;
    q->etapos = q->tau_eta >= 0;
    q->lmax = q->etapos ? q->q1 : q->q2;
    q->lmin = q->etapos ? q->q4 : q->q3;
    /* d quadrant / d|w| */
    double dq1 = -de1 * ta + db1, dq2 = de2 / (q->eta2 * q->eta2) * ta + db2;
    double dq4 = de2 / (q->eta2 * q->eta2) * ta - db2, dq3 = -de1 * ta - db1;
    q->dl_dta = q->dl_dsa = q->dl_dw = 0;
    if (ideal || q->br == FL_FB_FREE) {
        q->loss = 0;
    } else if (q->br == FL_FB_LOCKED) {
        q->loss = sa;
        q->dl_dsa = 1;
    } else if (q->br == FL_FB_FWD) {
        q->loss = q->lmax;
        q->dl_dta = q->etapos ? 1 - q->eta1 : 1 - 1 / q->eta2;
        q->dl_dw = (q->etapos ? dq1 : dq2) * sx;
    } else {
        q->loss = q->lmin;
        q->dl_dta = q->etapos ? 1 - 1 / q->eta2 : 1 - q->eta1;
        q->dl_dw = (q->etapos ? dq4 : dq3) * sx;
    }
}

/* ---- the element ------------------------------------------------------- */

/* attachments: 0 support (ground without useSupport), 1 flange_a, 2
 * flange_b; their motion is fl_att_s, fl_att_v, fl_att_a's */

/* local rows and columns */
enum { R_F0, R_F1, R_F2, R_SA, R_KIN };
enum { C_S0, C_V0, C_A0, C_S1, C_V1, C_A1, C_S2, C_V2, C_A2, C_SA, C_TA };
enum { OWN_SA, OWN_TA };

/* the structural Jacobian, in the order eval() fills it */
static const int lg_dep_rc[] = {
    R_F0,  C_V0, R_F0,  C_V1, R_F0,  C_SA, R_F0,  C_TA,                                           /* 0..3 */
    R_F1,  C_TA,                                                                                  /* 4 */
    R_F2,  C_V0, R_F2,  C_V1, R_F2,  C_SA, R_F2,  C_TA,                                           /* 5..8 */
    R_SA,  C_A0, R_SA,  C_A1, R_SA,  C_V0, R_SA,  C_V1, R_SA, C_SA, R_SA, C_TA,                   /* 9..14 */
    R_KIN, C_S0, R_KIN, C_V0, R_KIN, C_A0, R_KIN, C_S1, R_KIN, C_V1, R_KIN, C_A1, R_KIN, C_S2,    /* 15..21 */
    R_KIN, C_V2, R_KIN, C_A2,                                                                     /* 22..23 */
};
#define LG_NDEP ((int)(sizeof lg_dep_rc / sizeof lg_dep_rc[0] / 2))

/* the initial rows: the angle and speed relations of the gear */
static const int lg_init_rc[] = {0, C_S0, 0, C_S1, 0, C_S2, 1, C_V0, 1, C_V1, 1, C_V2};
static const char *const lg_init_labels[] = {
    "LossyGear: flange_a.phi - support.phi = ratio*(flange_b.phi - support.phi)",
    "LossyGear: der(flange_a.phi - support.phi) = ratio*der(flange_b.phi - support.phi)",
};

/* Drift correction of the constraint rows (rad/s): see the top. */
#define LG_W0 10.0
/* The velocity scale of friction_core's bands (start of rolling, snap). */
#define LG_V_SMALL 1e-3

static const fl_value *lg_tab(const fl_ectx *x, const double *p)
{
    return &x->arrays[(int)p[LG_TABLE]];
}

static void lg_eval(fl_ectx *x, const fl_elem *e, int n)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        double r = p[LG_RATIO];
        double w = fl_att_v(x, e, 1) - fl_att_v(x, e, 0), a = fl_att_a(x, e, 1) - fl_att_a(x, e, 0);
        double sa = x->y[e->own + OWN_SA], ta = x->y[e->own + OWN_TA];
        lg_q q;
        lg_compute(p, lg_tab(x, p), x->mode + e->mode, w, ta, sa, &q);
        double fb = -r * (ta - q.loss);
        x->f[fl_att_slot(e, 0)] = -(ta + fb);
        x->f[fl_att_slot(e, 1)] = ta;
        x->f[fl_att_slot(e, 2)] = fb;
        double K = 0;
        if (q.br == FL_FB_LOCKED) {
            K = fl_lock_scale(x, e);
            x->res[e->own + OWN_SA] = K * a;
        } else {
            x->res[e->own + OWN_SA] = a - sa + q.loss; /* free: loss = 0 */
        }
        /* the relations relative to the support: e_a + 2 w0 e_v + w0^2 e_s */
        double s0 = fl_att_s(x, e, 0), v0 = fl_att_v(x, e, 0), a0 = fl_att_a(x, e, 0);
        double es = (fl_att_s(x, e, 1) - s0) - r * (fl_att_s(x, e, 2) - s0);
        double ev = w - r * (fl_att_v(x, e, 2) - v0);
        double ea = a - r * (fl_att_a(x, e, 2) - a0);
        x->res[e->own + OWN_TA] = ea + 2 * LG_W0 * ev + LG_W0 * LG_W0 * es;
        if (!x->want_jac) continue;
        double *J = x->jloc + e->jofs;
        /* fb = -r ta + r loss */
        double dfb_dw = r * q.dl_dw, dfb_dsa = r * q.dl_dsa, dfb_dta = -r + r * q.dl_dta;
        J[0] = dfb_dw;        /* F0 = -ta - fb: d/dv0 = -dfb/dw * (-1) */
        J[1] = -dfb_dw;
        J[2] = -dfb_dsa;
        J[3] = -1 - dfb_dta;
        J[4] = 1;
        J[5] = -dfb_dw;
        J[6] = dfb_dw;
        J[7] = dfb_dsa;
        J[8] = dfb_dta;
        if (q.br == FL_FB_LOCKED) {
            J[9] = -K;
            J[10] = K;
        } else {
            J[9] = -1;
            J[10] = 1;
            J[11] = -q.dl_dw;
            J[12] = q.dl_dw;
            J[13] = -1;
            J[14] = q.dl_dta;
        }
        double c2 = 2 * LG_W0, c1 = LG_W0 * LG_W0;
        J[15] = c1 * (r - 1);
        J[16] = c2 * (r - 1);
        J[17] = r - 1;
        J[18] = c1;
        J[19] = c2;
        J[20] = 1;
        J[21] = -r * c1;
        J[22] = -r * c2;
        J[23] = -r;
    }
}

/* the friction view of the gear: w_a, sa, and the break-away thresholds at
 * w = 0 (no hysteresis) */
static void lg_fric(const fl_ectx *x, const fl_elem *e, fl_fric *f, lg_q *q)
{
    const double *p = x->par + e->pofs;
    fl_fric_kin(x, e, f);
    lg_compute(p, lg_tab(x, p), x->mode + e->mode, f->v, x->y[e->own + OWN_TA], f->sa, q);
    f->fwd0 = f->fwdmax = q->lmax_p;
    f->bwd0 = f->bwdmax = q->lmin_m;
    f->v_small = LG_V_SMALL;
    f->free = p[LG_IDEAL] != 0;
    f->block_fwd = f->block_bwd = 0;
}

/* |w_a| against the speeds of the rows around the current segment */
static void seg_roots(const fl_ectx *x, const fl_elem *e, double aw, double *g)
{
    const double *p = x->par + e->pofs;
    const fl_value *tab = lg_tab(x, p);
    int seg = x->mode[e->mode + LG_M_SEG], n = tab->dim[0];
    g[LG_R_SEG_UP] = g[LG_R_SEG_DN] = 1;
    if ((int)p[LG_SMOOTH] != FL_TAB_CONSTANT || p[LG_IDEAL] != 0) return;
    if (seg < n - 1) g[LG_R_SEG_UP] = aw - tab->data[(size_t)(seg + 1) * 5];
    if (seg > 0) g[LG_R_SEG_DN] = aw - tab->data[(size_t)seg * 5];
}

/* The segment after an event: by |w_a|, except on the row speed just
 * crossed, where the direction of the crossing decides (the same in every
 * pass of the instant). */
static int seg_event(fl_ectx *x, const fl_elem *e, double aw, const int *dir)
{
    const double *p = x->par + e->pofs;
    const fl_value *tab = lg_tab(x, p);
    int *m = x->mode + e->mode, seg = lg_segment(tab, aw);
    if ((int)p[LG_SMOOTH] != FL_TAB_CONSTANT) return 0;
    int d = dir[LG_R_SEG_UP] ? dir[LG_R_SEG_UP] : dir[LG_R_SEG_DN];
    if (d) {
        int k = 0; /* the row nearest |w_a| */
        for (int i = 1; i < tab->dim[0]; i++)
            if (fabs(aw - tab->data[(size_t)i * 5]) < fabs(aw - tab->data[(size_t)k * 5])) k = i;
        double xk = tab->data[(size_t)k * 5];
        if (k > 0 && fabs(aw - xk) <= fmax(1e-9, 10 * x->rtol) * (fabs(xk) + LG_V_SMALL)) seg = d > 0 ? k : k - 1;
    }
    int changed = m[LG_M_SEG] != seg;
    m[LG_M_SEG] = seg;
    return changed;
}

static void lg_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    for (int i = 0; i < n; i++, e++) {
        fl_fric f;
        lg_q q;
        lg_fric(x, e, &f, &q);
        fl_fric_roots(&f, x->mode + e->mode, g + e->root);
        seg_roots(x, e, fabs(f.v), g + e->root);
    }
}

static int lg_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    fl_fric f;
    lg_q q;
    int seg_changed = seg_event(x, e, fabs(fl_att_v(x, e, 1) - fl_att_v(x, e, 0)), dir);
    lg_fric(x, e, &f, &q);
    /* Arriving at w_a = 0 from rolling (the last pass ended it: mode Stuck,
     * not locked, no start), sa still has its rolling value a_a + tauLoss,
     * which is no torque: this pass locks, and the next decides the
     * break-away from the torque the locked gear holds (the MSL solves
     * them together; rot-friction's fl_fric_event does the same, which
     * makes this redundant there). */
    const int *m = x->mode + e->mode;
    if (m[FR_M_MODE] == FL_FR_STUCK && !m[FR_M_LOCKED] && !m[FR_M_SF] && !m[FR_M_SB] &&
        (m[FR_M_PRE] == FL_FR_FORWARD || m[FR_M_PRE] == FL_FR_BACKWARD)) {
        f.fwd0 = f.fwdmax = INFINITY;
        f.bwd0 = f.bwdmax = -INFINITY;
    }
    int changed = fl_fric_event(x, e, &f, dir);
    /* a snap of w_a to zero moved flange_a's body: flange_b's body follows */
    if (x->yw && x->mode[e->mode + FR_M_LOCKED]) {
        int sa_ = fl_att_slot(e, 1), sb = fl_att_slot(e, 2), ss = fl_att_slot(e, 0);
        int ba = x->att_body[sa_], bb = x->att_body[sb], bs = x->att_body[ss];
        if (bb >= 0 && bb != ba && x->bvi[bb] >= 0 && x->bminv[bb] > 0) {
            double r = x->par[e->pofs + LG_RATIO];
            double vs = bs < 0 ? 0 : fl_slot_ratio(x, ss) * (x->bvi[bs] >= 0 ? x->yw[x->bvi[bs]] : x->bv[bs]);
            double va = ba < 0 ? 0 : fl_slot_ratio(x, sa_) * (x->bvi[ba] >= 0 ? x->yw[x->bvi[ba]] : x->bv[ba]);
            x->yw[x->bvi[bb]] = (vs + (va - vs) / r) / fl_slot_ratio(x, sb);
        }
    }
    return changed || seg_changed;
}

static void lg_init_modes(fl_ectx *x, const fl_elem *e)
{
    fl_fric f;
    lg_q q;
    const double *p = x->par + e->pofs;
    x->mode[e->mode + LG_M_SEG] = lg_segment(lg_tab(x, p), fabs(fl_att_v(x, e, 1) - fl_att_v(x, e, 0)));
    lg_fric(x, e, &f, &q);
    fl_fric_init(x->mode + e->mode, &f);
}

static void lg_init_eval(fl_ectx *x, const fl_elem *e, double *g, double *jac)
{
    double r = x->par[e->pofs + LG_RATIO];
    double s0 = fl_att_s(x, e, 0), v0 = fl_att_v(x, e, 0);
    g[0] = (fl_att_s(x, e, 1) - s0) - r * (fl_att_s(x, e, 2) - s0);
    g[1] = (fl_att_v(x, e, 1) - v0) - r * (fl_att_v(x, e, 2) - v0);
    if (jac) {
        jac[0] = jac[3] = r - 1;
        jac[1] = jac[4] = 1;
        jac[2] = jac[5] = -r;
    }
}

static void lg_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        double w = fl_att_v(x, e, 1) - fl_att_v(x, e, 0);
        lg_q q;
        lg_compute(p, lg_tab(x, p), x->mode + e->mode, w, x->y[e->own + OWN_TA], x->y[e->own + OWN_SA], &q);
        U[e->idx] = 0;
        loss[e->idx] = q.loss * w; /* the MSL's lossPower */
    }
}

/* The gear's rigid relations for fl_resolve_locks: its lock (support to
 * flange_a), and with the support on a fixed body the gear relation
 * a_a = ratio*a_b, which holds in every mode (a moving support makes it a
 * relation among three bodies, which is left out: a redundancy through it
 * is then not found and the system is reported singular as before). */
static int lg_rigid(const fl_ectx *x, const fl_elem *e, fl_rigid *out)
{
    int n = fl_fric_rigid(x, e, out);
    int b0 = x->att_body[fl_att_slot(e, 0)];
    if (b0 < 0 || x->bminv[b0] == 0) out[n++] = (fl_rigid){2, 1, x->par[e->pofs + LG_RATIO], 1, FL_RIGID_ALWAYS, 0};
    return n;
}

static const char *const lg_own_names[] = {"sa", "tau_a"};
static const int lg_own_diff[] = {0, 0};

static const fl_elem_ops lg_ops = {
    .nown = 2,
    .own_diff = lg_own_diff,
    .own_names = lg_own_names,
    .own_hint = "the torque a locked LossyGear holds is not unique when another stuck friction element or a "
                "prescribed motion holds the same shafts; connect them through a spring or a damper",
    .nroots = LG_NROOTS,
    .nmodes = LG_NMODES,
    .eval = lg_eval,
    .roots = lg_roots,
    .event = lg_event,
    .init_modes = lg_init_modes,
    .rigid = lg_rigid,
    .set_idle = fl_fric_set_idle,
    .energy = lg_energy,
    .natt = 3,
    .ndep = LG_NDEP,
    .dep_rc = lg_dep_rc,
    .ninit = 2,
    .ninit_dep = 6,
    .init_dep_rc = lg_init_rc,
    .init_eval = lg_init_eval,
};

static int lg_build(fl_builder *b)
{
    int ports[3] = {fl_b_port(b, "support"), fl_b_port(b, "flange_a"), fl_b_port(b, "flange_b")};
    fl_b_element_n(b, ports, 3);
    fl_b_init_rows(b, lg_init_labels);
    return 0;
}

/* ports: 0 flange_a, 1 flange_b, 2 support */
static void lg_outputs(const fl_octx *o, double *v)
{
    const double *p = o->par;
    double ss = o->has_support ? o->ps[2] : 0, vs = o->has_support ? o->pv[2] : 0;
    double as = o->has_support ? o->pa[2] : 0;
    double w = o->pv[0] - vs;
    lg_q q;
    lg_compute(p, &o->arrays[(int)p[LG_TABLE]], o->mode, w, o->own[OWN_TA], o->own[OWN_SA], &q);
    double vals[] = {
        o->ps[0] - ss, o->ps[1] - ss, q.sa, w, o->pa[0] - as, q.eta1, q.eta2, q.tbf_a, q.tau_eta, q.tbf1, q.tbf2,
        q.q1, q.q2, q.q3, q.q4, q.q1p, q.q2p, q.q3m, q.q4m, q.loss, q.lmax, q.lmin, q.lmax_p, q.lmin_m,
        q.etapos, q.etapos, o->mode[FR_M_SF], o->mode[FR_M_SB], o->mode[FR_M_LOCKED], p[LG_IDEAL],
        o->mode[FR_M_MODE], q.tep, q.tem, q.loss * w,
    };
    for (int k = 0; k < FL_N(vals); k++) v[k] = vals[k];
}

static const fl_class cls_lossygear = {
    .path = MRC "LossyGear",
    .desc = "Gear with mesh efficiency and bearing friction (stuck/rolling possible)",
    .ports = lg_ports,
    .nports = FL_N(lg_ports),
    .params = lg_params,
    .nparams = FL_N(lg_params),
    .nderived = LG_NPAR - LG_ETA1_0,
    .vars = lg_vars,
    .nvars = FL_N(lg_vars),
    .check = lg_check,
    .prepare = lg_prepare,
    .build = lg_build,
    .elem = &lg_ops,
    .outputs = lg_outputs,
};

const fl_class *const fl_classes_lossygear[] = {&cls_lossygear, NULL};
