/* rot_friction.c - the stick-slip elements of Modelica.Mechanics.Rotational:
 * BearingFriction, Brake, Clutch and OneWayClutch, on the stick-slip
 * machine of friction_core.c.
 *
 * BearingFriction and Brake are the translational SupportFriction and
 * Brake with angle and torque for position and force, and Clutch is the
 * Brake's law between two flanges instead of between a flange and its
 * support (MSL's Clutch and Brake have the same equations): these classes
 * are only tables, a build() and outputs() here, the laws are friction.c's
 * (laws.h). The OneWayClutch is a clutch in parallel with a freewheel, with
 * equations of its own (a state machine that never slides backward and
 * locks whenever w_rel reaches zero, engaged or not); it is written here,
 * on the same machine. */
#include "friction.h"
#include "laws.h"

#define MRC "Modelica.Mechanics.Rotational.Components."
#define SMOOTHNESS "Modelica.Blocks.Types.Smoothness"

#define RPAR_SMOOTH(what) {"smoothness", FL_P_ENUM, SMOOTHNESS ".LinearSegments", NULL, "", "smoothness of the interpolation in " what " (LinearSegments or ConstantSegments)", 0, 0, 0, SMOOTHNESS}
#define RPAR_PEAK(desc) {"peak", FL_P_REAL, "1", NULL, "1", desc, FL_PF_MIN, 1, 0, NULL}
#define RPAR_CGEO {"cgeo", FL_P_REAL, "1", NULL, "1", "geometry constant containing friction distribution assumption", FL_PF_MIN, 0, 0, NULL}
#define RPAR_FNMAX {"fn_max", FL_P_REAL, NULL, "1", "N", "maximum normal force", FL_PF_MIN, 0, 0, NULL}
#define RPAR_MUPOS {"mu_pos", FL_P_MATRIX, "[0, 0.5]", NULL, "", "[w_rel, mu]: positive sliding friction coefficient (w_rel >= 0)", 0, 0, 0, NULL}
#define RPAR_WSMALL {"w_small", FL_P_REAL, "1e10", NULL, "rad/s", "relative angular velocity near to zero if jumps due to a reinit(..) of the velocity can occur (the default switches the reversal threshold off)", FL_PF_MIN_EXCL, 0, 0, NULL}
#define RPAR_PHINOMINAL {"phi_nominal", FL_P_REAL, "1e-4", NULL, "rad", "nominal value of phi_rel (scaling)", FL_PF_MIN, 0, 0, NULL}

/* PartialFriction's variables, in the order of the translational laws'
 * outputs (laws.h) */
#define RFRIC_VARS                                                                                          \
    {"sa", "1", "path parameter of the friction characteristic (the friction torque while stuck)", 0, 0, 0}, \
    {"mode", "", "-1 backward, 0 stuck, 1 forward, 2 free, 3 unknown", FL_VF_INT, 0, 0},                     \
    {"startForward", "", "true, if w_relfric = 0 and start of forward sliding", FL_VF_BOOL, 0, 0},          \
    {"startBackward", "", "true, if w_relfric = 0 and start of backward sliding", FL_VF_BOOL, 0, 0},        \
    {"locked", "", "true, if w_rel = 0 and not sliding", FL_VF_BOOL, 0, 0},                                 \
    {"free", "", "true, if the frictional element is not active", FL_VF_BOOL, 0, 0},                         \
    {"tau0", "N.m", "friction torque for w_relfric = 0 and forward sliding", 0, 0, 0},                      \
    {"tau0_max", "N.m", "maximum friction torque for w_relfric = 0 and locked", 0, 0, 0},                   \
    {"w_relfric", "rad/s", "relative angular velocity between the frictional surfaces", 0, 0, 0},           \
    {"a_relfric", "rad/s2", "relative angular acceleration between the frictional surfaces", 0, 0, 0}

/* ---- on a support: BearingFriction and Brake --------------------------- */

/* flange_a and flange_b turn together; the friction acts between the
 * support (ground without useSupport) and them */
static int support_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b"), sp = fl_b_port(b, "support");
    fl_b_link(b, pa, pb, 0, 0);
    fl_b_element(b, sp, pa);
    fl_b_state(b, "phi", 0, pa, sp, 0);
    fl_b_state(b, "w", 1, pa, sp, 0);
    return 0;
}

#define SUPPORT_VARS                                                                                      \
    {"phi", "rad", "angle between shaft flanges (flange_a, flange_b) and support", FL_VF_ATTR, 0, 0},     \
    {"w", "rad/s", "absolute angular velocity of flange_a and flange_b", FL_VF_ATTR, 0, 0},               \
    {"a", "rad/s2", "absolute angular acceleration of flange_a and flange_b", 0, 0, 0}

static const fl_port_def bf_ports[] = {RPORT_FLANGE_A, RPORT_FLANGE_B, RPORT_SUPPORT};
/* the order of the first four is SupportFriction's (f_pos, smoothness, peak, v_small) */
static const fl_param_def bf_params[] = {
    {"tau_pos", FL_P_MATRIX, "[0, 1]", NULL, "", "[w, tau]: positive sliding friction characteristic (w >= 0)", 0, 0, 0, NULL},
    RPAR_SMOOTH("tau_pos"),
    RPAR_PEAK("peak for maximum friction torque at w == 0 (tau0_max = peak*tau_pos[1,2])"),
    RPAR_WSMALL,
    PAR_USESUPPORT,
    PAR_USEHEATPORT,
};
static const fl_var_def bf_vars[] = {
    SUPPORT_VARS,
    {"tau", "N.m", "friction torque", 0, 0, 0},
    {"lossPower", "W", "loss power leaving the component via heatPort", 0, 0, 0},
    RFRIC_VARS,
};

static int bf_check(const fl_pctx *p, fl_diag *d)
{
    double tau0;
    return fl_fric_table_param(p, d, "tau_pos", 0, 1, "friction torque", &tau0);
}

static void bf_outputs(const fl_octx *o, double *v)
{
    double sr, vr, ar;
    fl_support_rel(o, &sr, &vr, &ar);
    fl_supportfriction_values(o, sr, vr, ar, v);
}

static const fl_class cls_bearingfriction = {
    .path = MRC "BearingFriction",
    .desc = "Coulomb friction in bearings",
    .ports = bf_ports,
    .nports = FL_N(bf_ports),
    .params = bf_params,
    .nparams = FL_N(bf_params),
    .vars = bf_vars,
    .nvars = FL_N(bf_vars),
    .check = bf_check,
    .build = support_build,
    .elem = &fl_supportfriction_ops,
    .outputs = bf_outputs,
};

#define RPORT_FNORM(what)                                                                                     \
    {"f_normalized", FL_PORT_INPUT, NULL, 0, "1",                                                            \
     "normalized force signal 0..1 (normal force = fn_max*f_normalized; " what " if > 0)", 0}

static const fl_port_def brake_ports[] = {RPORT_FLANGE_A, RPORT_FLANGE_B, RPORT_SUPPORT,
                                          RPORT_FNORM("brake is active")};
/* the order of the first six is the translational Brake's */
static const fl_param_def brake_params[] = {
    RPAR_MUPOS,
    RPAR_SMOOTH("mu_pos"),
    RPAR_PEAK("peak for maximum value of mu at w == 0 (mu0_max = peak*mu_pos[1,2])"),
    RPAR_CGEO,
    RPAR_FNMAX,
    RPAR_WSMALL,
    PAR_USESUPPORT,
    PAR_USEHEATPORT,
};
#define MU_FN_VARS                                     \
    {"mu", "1", "friction coefficient", 0, 0, 0}, \
    {"fn", "N", "normal force (= fn_max*f_normalized)", 0, 0, 0}
static const fl_var_def brake_vars[] = {
    SUPPORT_VARS,
    {"tau", "N.m", "brake friction torque", 0, 0, 0},
    {"lossPower", "W", "loss power leaving the component via heatPort", 0, 0, 0},
    MU_FN_VARS,
    RFRIC_VARS,
};

static void brake_outputs(const fl_octx *o, double *v)
{
    double sr, vr, ar;
    fl_support_rel(o, &sr, &vr, &ar);
    fl_brake_values(o, sr, vr, ar, v);
}

static const fl_class cls_brake = {
    .path = MRC "Brake",
    .desc = "Brake based on Coulomb friction",
    .ports = brake_ports,
    .nports = FL_N(brake_ports),
    .params = brake_params,
    .nparams = FL_N(brake_params),
    .vars = brake_vars,
    .nvars = FL_N(brake_vars),
    .check = fl_brake_check,
    .build = support_build,
    .elem = &fl_brake_ops,
    .outputs = brake_outputs,
};

/* ---- between two flanges: Clutch and OneWayClutch ---------------------- */

/* PartialCompliantWithRelativeStates: phi_rel and w_rel are states */
static int clutch_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    fl_b_element(b, pa, pb);
    fl_b_state(b, "phi_rel", 0, pb, pa, 0);
    fl_b_state(b, "w_rel", 1, pb, pa, 0);
    return 0;
}

#define REL_VARS                                                                                      \
    {"phi_rel", "rad", "relative rotation angle (= flange_b.phi - flange_a.phi)", FL_VF_ATTR, 0, 0}, \
    {"w_rel", "rad/s", "relative angular velocity (= der(phi_rel))", FL_VF_ATTR, 0, 0},               \
    {"a_rel", "rad/s2", "relative angular acceleration (= der(w_rel))", 0, 0, 0},                     \
    {"tau", "N.m", "torque between flanges (= flange_b.tau)", 0, 0, 0},                               \
    {"lossPower", "W", "loss power leaving the component via heatPort", 0, 0, 0}

/* ports 0 flange_a, 1 flange_b */
static void rel_motion(const fl_octx *o, double *sr, double *vr, double *ar)
{
    *sr = o->ps[1] - o->ps[0];
    *vr = o->pv[1] - o->pv[0];
    *ar = o->pa[1] - o->pa[0];
}

static const fl_port_def clutch_ports[] = {RPORT_FLANGE_A, RPORT_FLANGE_B, RPORT_FNORM("clutch is engaged")};
/* the order of the first six is the Brake's */
static const fl_param_def clutch_params[] = {
    RPAR_MUPOS,
    RPAR_SMOOTH("mu_pos"),
    RPAR_PEAK("peak for maximum value of mu at w == 0 (mu0_max = peak*mu_pos[1,2])"),
    RPAR_CGEO,
    RPAR_FNMAX,
    RPAR_WSMALL,
    RPAR_PHINOMINAL,
    PAR_STATESELECT("StateSelect.prefer"),
    PAR_USEHEATPORT,
};
static const fl_var_def clutch_vars[] = {
    REL_VARS,
    MU_FN_VARS,
    RFRIC_VARS,
};

static void clutch_outputs(const fl_octx *o, double *v)
{
    double sr, vr, ar;
    rel_motion(o, &sr, &vr, &ar);
    fl_brake_values(o, sr, vr, ar, v);
}

static const fl_class cls_clutch = {
    .path = MRC "Clutch",
    .desc = "Clutch based on Coulomb friction",
    .ports = clutch_ports,
    .nports = FL_N(clutch_ports),
    .params = clutch_params,
    .nparams = FL_N(clutch_params),
    .vars = clutch_vars,
    .nvars = FL_N(clutch_vars),
    .check = fl_brake_check,
    .build = clutch_build,
    .elem = &fl_brake_ops,
    .outputs = clutch_outputs,
};

/* ---- OneWayClutch --------------------------------------------------------
 *
 * MSL's equations (u = f_normalized):
 *   free = u <= 0;  fn = if free then 0 else fn_max*u;  tau0 = mu0*cgeo*fn;
 *   tau0_max = if free then eps0*mu0*cgeo*fn_max else peak2*tau0
 *     (eps0 = 1e-4, peak2 = max(peak, 1 + eps0): a disengaged clutch still
 *     locks, and breaks away at a tiny forward torque);
 *   startForward = pre(stuck) and (sa > tau0_max or pre(startForward) and
 *     sa > tau0 or w_rel > w_small) or initial() and w_rel > 0;
 *   locked = pre(stuck) and not startForward;
 *   a_rel = if locked then 0 else sa - tau0;
 *   tau = if locked then sa elseif free then 0 else mu(w_rel)*cgeo*fn;
 *   stuck = locked or w_rel <= 0;  lossPower = if stuck then 0 else tau*w_rel.
 *
 * On friction_core.c's machine this is a friction element that can never
 * slide backward (block_bwd: no backward break-away, any negative torque is
 * held) with the thresholds tau0 and tau0_max, and whose free state is its
 * own (a disengaged one-way clutch still locks, so the machine's free,
 * which transmits nothing, is never set): stuck is the machine's mode Stuck
 * (locked, or the start of forward sliding at w_rel = 0, or w_rel <= 0),
 * startForward and locked are the machine's. The path equation is
 * a_rel = sa - tau0 where PartialFriction has sa - tau0_max, so the
 * residual is the machine's with tau0 for the forward break-away torque;
 * the hold condition sa > tau0 of a start is then a_rel > 0, as in the MSL.
 * Not modelled: the w_rel > w_small term of startForward (a jump of w_rel
 * by a reinit; the default w_small = 1e10 rad/s switches it off). */

#define OWC_EPS0 1e-4
enum { OWC_MUPOS, OWC_SMOOTH, OWC_PEAK, OWC_CGEO, OWC_FNMAX, OWC_WSMALL, OWC_PHINOM, OWC_STATESEL, OWC_USEHEAT };
enum { OWC_M_FREE = FR_NMODES, OWC_NMODES };
enum { OWC_R_U = FR_NROOTS, OWC_NROOTS };

static const fl_param_def owc_params[] = {
    RPAR_MUPOS,
    RPAR_SMOOTH("mu_pos"),
    RPAR_PEAK("peak for maximum value of mu at w == 0 (mu0_max = peak*mu_pos[1,2])"),
    RPAR_CGEO,
    RPAR_FNMAX,
    RPAR_WSMALL,
    RPAR_PHINOMINAL,
    PAR_STATESELECT("StateSelect.prefer"),
    PAR_USEHEATPORT,
};
enum { OWC_V_SF = 8, OWC_V_STUCK = 10 };
static const fl_var_def owc_vars[] = {
    REL_VARS,
    {"u", "1", "normalized force input signal (0..1)", 0, 0, 0},
    {"mu", "1", "friction coefficient", 0, 0, 0},
    {"fn", "N", "normal force (= fn_max*f_normalized while engaged)", 0, 0, 0},
    {"startForward", "", "true, if w_rel = 0 and start of forward sliding or w_rel > w_small", FL_VF_BOOL | FL_VF_ATTR, 0, 0},
    {"locked", "", "true, if w_rel = 0 and not sliding", FL_VF_BOOL, 0, 0},
    {"stuck", "", "true, if w_rel = 0 (locked or start of forward sliding) or w_rel < 0", FL_VF_BOOL | FL_VF_ATTR, 0, 0},
    {"tau0", "N.m", "friction torque for w = 0 and sliding", 0, 0, 0},
    {"tau0_max", "N.m", "maximum friction torque for w = 0 and locked", 0, 0, 0},
    {"free", "", "true, if the frictional element is not active (f_normalized <= 0)", FL_VF_BOOL, 0, 0},
    {"sa", "1", "path parameter of the friction characteristic (the torque while locked)", 0, 0, 0},
};

static int owc_build(fl_builder *b)
{
    clutch_build(b);
    /* startForward(fixed = true), stuck(fixed = true): their start values
     * (false) are the values before the start, which the element starts
     * from anyway */
    fl_b_fixed_handled(b, OWC_V_SF);
    fl_b_fixed_handled(b, OWC_V_STUCK);
    return 0;
}

typedef struct owc_q {
    double u, fn, mu0, tau0, tau0_max;
    int free;
} owc_q;

static void owc_values(const double *p, const fl_value *arrays, double u, int free, owc_q *w)
{
    double k;
    w->u = u;
    w->free = free;
    w->mu0 = fl_fric_table(&arrays[(int)p[OWC_MUPOS]], (int)p[OWC_SMOOTH], 0, &k);
    w->fn = free ? 0 : p[OWC_FNMAX] * u;
    w->tau0 = w->mu0 * p[OWC_CGEO] * w->fn;
    w->tau0_max = free ? OWC_EPS0 * w->mu0 * p[OWC_CGEO] * p[OWC_FNMAX] : fmax(p[OWC_PEAK], 1 + OWC_EPS0) * w->tau0;
}

static void owc_quantities(const fl_ectx *x, const fl_elem *e, int free, fl_fric *q, owc_q *w)
{
    const double *p = x->par + e->pofs;
    fl_fric_kin(x, e, q);
    owc_values(p, x->arrays, x->u[e->sig], free, w);
    q->fwd0 = w->tau0;
    q->fwdmax = w->tau0_max;
    q->bwd0 = -w->tau0;
    q->bwdmax = -w->tau0_max;
    q->v_small = p[OWC_WSMALL];
    q->free = 0;
    q->block_fwd = 0;
    q->block_bwd = 1;
}

/* the sliding torque mu(w_rel)*cgeo*fn and its slope */
static double owc_slide(const double *p, const fl_value *arrays, const owc_q *w, double v, double *dtdv, double *mu)
{
    double dmu;
    *mu = fl_fric_table(&arrays[(int)p[OWC_MUPOS]], (int)p[OWC_SMOOTH], v, &dmu);
    *dtdv = dmu * p[OWC_CGEO] * w->fn;
    return *mu * p[OWC_CGEO] * w->fn;
}

static void owc_eval(fl_ectx *x, const fl_elem *e, int n)
{
    const int C = FL_J_OWN + 3, IN = FL_J_OWN + 2;
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        const int *m = x->mode + e->mode;
        fl_fric q;
        owc_q w;
        owc_quantities(x, e, m[OWC_M_FREE], &q, &w);
        int locked = m[FR_M_LOCKED];
        /* a_rel = sa - tau0 while not locked */
        fl_fric qr = q;
        qr.fwdmax = q.fwd0;
        fl_fric_residual(x, e, locked ? FL_FB_LOCKED : FL_FB_FWD, &qr, C);
        double tau = 0, dtdv = 0, dtdu = 0, mu;
        if (locked) {
            tau = q.sa;
        } else if (!w.free) {
            tau = owc_slide(p, x->arrays, &w, q.v, &dtdv, &mu);
            dtdu = mu * p[OWC_CGEO] * p[OWC_FNMAX];
        }
        x->f[2 * e->idx] = -tau;
        x->f[2 * e->idx + 1] = tau;
        if (x->want_jac) {
            double *r0 = fl_jrow(x, e, 0, C), *r1 = fl_jrow(x, e, 1, C), *r2 = fl_jrow(x, e, 2, C);
            r0[FL_J_OWN] = locked ? -1 : 0;
            r1[FL_J_OWN] = locked ? 1 : 0;
            r0[FL_J_V1] = -dtdv;
            r0[FL_J_V0] = dtdv;
            r1[FL_J_V1] = dtdv;
            r1[FL_J_V0] = -dtdv;
            r0[IN] = -dtdu;
            r1[IN] = dtdu;
            /* tau0 in the path equation follows the normal force */
            r2[IN] = !locked && !w.free ? w.mu0 * p[OWC_CGEO] * p[OWC_FNMAX] : 0;
        }
    }
}

static void owc_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    for (int i = 0; i < n; i++, e++) {
        fl_fric q;
        owc_q w;
        owc_quantities(x, e, x->mode[e->mode + OWC_M_FREE], &q, &w);
        fl_fric_roots(&q, x->mode + e->mode, g + e->root);
        g[e->root + OWC_R_U] = w.u; /* free = u <= 0 */
    }
}

static int owc_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    int *m = x->mode + e->mode;
    double u = x->u[e->sig];
    /* free first: tau0 and tau0_max of this pass follow it */
    int free = dir[OWC_R_U] && fabs(u) <= 1e-12 ? dir[OWC_R_U] < 0 : !(u > 0);
    int changed = m[OWC_M_FREE] != free;
    m[OWC_M_FREE] = free;
    fl_fric q;
    owc_q w;
    owc_quantities(x, e, free, &q, &w);
    int r = fl_fric_event(x, e, &q, dir);
    /* locking snaps a w_rel of rounding size to zero; one below that is
     * backward motion, which the freewheel cannot have (the MSL: "an error
     * occurs") */
    if (m[FR_M_LOCKED] && q.v < -1e-6)
        return fl_elem_fail(x, "w_rel = %g rad/s < 0: a one-way clutch cannot turn backward (flange_b slower than "
                               "flange_a); start it with w_rel >= 0",
                            q.v);
    return r < 0 ? r : r || changed;
}

static void owc_init(fl_ectx *x, const fl_elem *e)
{
    int *m = x->mode + e->mode;
    fl_fric q;
    owc_q w;
    int free = !(x->u[e->sig] > 0);
    owc_quantities(x, e, free, &q, &w);
    /* startForward = initial() and w_rel > 0, pre(stuck) = false: not
     * locked at the start; stuck = w_rel <= 0, which the event iteration
     * after the initialisation turns into locked */
    m[FR_M_PRE] = FL_FR_UNKNOWN;
    m[FR_M_SF] = q.v > 0;
    m[FR_M_SB] = 0;
    m[FR_M_LOCKED] = 0;
    m[FR_M_FREE] = 0;
    m[FR_M_MODE] = q.v > 0 ? FL_FR_FORWARD : FL_FR_STUCK;
    m[OWC_M_FREE] = free;
}

static double owc_torque(const double *p, const fl_value *arrays, const int *m, const owc_q *w, double v, double sa,
                         double *mu)
{
    double k;
    double tau = owc_slide(p, arrays, w, v, &k, mu);
    return m[FR_M_LOCKED] ? sa : w->free ? 0 : tau;
}

static void owc_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        const int *m = x->mode + e->mode;
        fl_fric q;
        owc_q w;
        double mu;
        owc_quantities(x, e, m[OWC_M_FREE], &q, &w);
        U[e->idx] = 0;
        loss[e->idx] = owc_torque(p, x->arrays, m, &w, q.v, q.sa, &mu) * q.v;
    }
}

static void owc_outputs(const fl_octx *o, double *v)
{
    const double *p = o->par;
    double sr, vr, ar, mu;
    owc_q w;
    rel_motion(o, &sr, &vr, &ar);
    owc_values(p, o->arrays, o->u[0], o->mode[OWC_M_FREE], &w);
    double tau = owc_torque(p, o->arrays, o->mode, &w, vr, o->own[0], &mu);
    int stuck = o->mode[FR_M_MODE] == FL_FR_STUCK;
    v[0] = sr;
    v[1] = vr;
    v[2] = ar;
    v[3] = tau;
    v[4] = stuck ? 0 : tau * vr;
    v[5] = w.u;
    v[6] = mu;
    v[7] = w.fn;
    v[8] = o->mode[FR_M_SF];
    v[9] = o->mode[FR_M_LOCKED];
    v[10] = stuck;
    v[11] = w.tau0;
    v[12] = w.tau0_max;
    v[13] = w.free;
    v[14] = o->own[0];
}

static const int owc_own_diff[] = {0};
/* rows: flange_a torque, flange_b torque, path equation; columns s,v,a of
 * both flanges, own y, own yp, input */
static const uint64_t owc_dep[] = {
    FL_BIT(FL_J_OWN) | DEP_V | FL_BIT(FL_J_OWN + 2),
    FL_BIT(FL_J_OWN) | DEP_V | FL_BIT(FL_J_OWN + 2),
    FL_BIT(FL_J_OWN) | FL_BIT(FL_J_A0) | FL_BIT(FL_J_A1) | FL_BIT(FL_J_OWN + 2),
};

static const fl_elem_ops owc_ops = {
    .nown = 1,
    .own_diff = owc_own_diff,
    .own_names = fl_fric_own_names,
    .own_hint = fl_fric_own_hint,
    .nin = 1,
    .dep = owc_dep,
    .nroots = OWC_NROOTS,
    .nmodes = OWC_NMODES,
    .eval = owc_eval,
    .roots = owc_roots,
    .event = owc_event,
    .init_modes = owc_init,
    .energy = owc_energy,
};

static const fl_class cls_onewayclutch = {
    .path = MRC "OneWayClutch",
    .desc = "Parallel connection of freewheel and clutch",
    .ports = clutch_ports,
    .nports = FL_N(clutch_ports),
    .params = owc_params,
    .nparams = FL_N(owc_params),
    .vars = owc_vars,
    .nvars = FL_N(owc_vars),
    .check = fl_brake_check,
    .build = owc_build,
    .elem = &owc_ops,
    .outputs = owc_outputs,
};

const fl_class *const fl_classes_rot_friction[] = {
    &cls_bearingfriction, &cls_brake, &cls_clutch, &cls_onewayclutch, NULL,
};
