/* friction.c - friction against a support: MSL SupportFriction (Coulomb and
 * Stribeck friction from a table over velocity) and Brake (a friction
 * coefficient table times a normal force input; free while the normal
 * force is not positive). Both are elements between the support
 * (attachment 0; ground when useSupport = false) and their two flanges,
 * which move together; the stick-slip logic is friction_core.c's.
 *
 * The two laws serve the rotational twins as well (laws.h: BearingFriction
 * and Brake on a support, Clutch between two flanges): the element ops read
 * only the first parameters of the tables (same order there) and the
 * friction value at v = 0 straight from the table, and the output values
 * are written from the relative motion of the sliding surfaces. */
#include <math.h>

#include "friction.h"
#include "laws.h"

#define MTC "Modelica.Mechanics.Translational.Components."
#define SMOOTHNESS "Modelica.Blocks.Types.Smoothness"

static const fl_value *par_table(const fl_ectx *x, const double *p, int k)
{
    return &x->arrays[(int)p[k]];
}

static int support_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b"), sp = fl_b_port(b, "support");
    fl_b_link(b, pa, pb, 0, 0);
    fl_b_element(b, sp, pa);
    fl_b_state(b, "s", 0, pa, sp, 0);
    fl_b_state(b, "v", 1, pa, sp, 0);
    return 0;
}

#define PAR_PEAK {"peak", FL_P_REAL, "1", NULL, "1", "peak*f0 = maximum friction force at v = 0 (break-away)", FL_PF_MIN, 1, 0, NULL}
#define PAR_VSMALL {"v_small", FL_P_REAL, "1e-3", NULL, "m/s", "relative velocity near to zero (see MSL's PartialFriction)", FL_PF_MIN_EXCL, 0, 0, NULL}
#define PAR_SMOOTH {"smoothness", FL_P_ENUM, SMOOTHNESS ".LinearSegments", NULL, "", "interpolation in the table (LinearSegments or ConstantSegments)", 0, 0, 0, SMOOTHNESS}

/* variables common to both, in this order after the class's own */
#define FRIC_VARS                                                                                        \
    {"sa", "1", "path parameter of the friction characteristic (the friction force while stuck)", 0, 0, 0}, \
    {"mode", "", "-1 backward, 0 stuck, 1 forward, 2 free, 3 unknown", FL_VF_INT, 0, 0},                    \
    {"startForward", "", "true, if v_rel = 0 and start of forward sliding", FL_VF_BOOL, 0, 0},             \
    {"startBackward", "", "true, if v_rel = 0 and start of backward sliding", FL_VF_BOOL, 0, 0},           \
    {"locked", "", "true, if v_rel = 0 and not sliding", FL_VF_BOOL, 0, 0},                                 \
    {"free", "", "true, if the element transmits no force", FL_VF_BOOL, 0, 0},                              \
    {"f0", "N", "friction force for v = 0 and forward sliding", 0, 0, 0},                                  \
    {"f0_max", "N", "maximum friction force for v = 0 and locked", 0, 0, 0},                               \
    {"v_relfric", "m/s", "relative velocity between the frictional surfaces", 0, 0, 0},                     \
    {"a_relfric", "m/s2", "relative acceleration between the frictional surfaces", 0, 0, 0}

static void fric_common_outputs(const fl_octx *o, double *v, double f0, double f0_max, double vr, double ar)
{
    v[0] = o->own[0];
    v[1] = o->mode[FR_M_MODE];
    v[2] = o->mode[FR_M_SF];
    v[3] = o->mode[FR_M_SB];
    v[4] = o->mode[FR_M_LOCKED];
    v[5] = o->mode[FR_M_FREE];
    v[6] = f0;
    v[7] = f0_max;
    v[8] = vr;
    v[9] = ar;
}

/* ======================================================================
 * SupportFriction
 * ====================================================================== */

static const fl_port_def sf_ports[] = {PORT_FLANGE_A, PORT_FLANGE_B, PORT_SUPPORT};
static const fl_param_def sf_params[] = {
    {"f_pos", FL_P_MATRIX, "[0, 1]", NULL, "", "[v, f]: positive sliding friction characteristic (v >= 0)", 0, 0, 0, NULL},
    PAR_SMOOTH,
    PAR_PEAK,
    PAR_VSMALL,
    PAR_USESUPPORT,
    PAR_USEHEATPORT,
};
enum { SF_FPOS, SF_SMOOTH, SF_PEAK, SF_VSMALL, SF_USESUPPORT, SF_USEHEAT };
static const fl_var_def sf_vars[] = {
    {"s", "m", "distance between the flanges and the support (= flange_a.s - support.s)", FL_VF_ATTR, 0, 0},
    {"v", "m/s", "absolute velocity of flange_a and flange_b", FL_VF_ATTR, 0, 0},
    {"a", "m/s2", "absolute acceleration of flange_a and flange_b", 0, 0, 0},
    {"f", "N", "friction force (positive opposes positive velocity)", 0, 0, 0},
    {"lossPower", "W", "loss power leaving the component via heatPort", 0, 0, 0},
    FRIC_VARS,
};

static int sf_check(const fl_pctx *p, fl_diag *d)
{
    double f0;
    return fl_fric_table_param(p, d, "f_pos", SF_FPOS, SF_SMOOTH, "friction force", &f0);
}

/* the sliding force at v = 0 */
static double sf_f0(const fl_value *arrays, const double *p)
{
    double k;
    return fl_fric_table(&arrays[(int)p[SF_FPOS]], (int)p[SF_SMOOTH], 0, &k);
}

static void sf_quantities(const fl_ectx *x, const fl_elem *e, fl_fric *q)
{
    const double *p = x->par + e->pofs;
    fl_fric_kin(x, e, q);
    q->fwd0 = sf_f0(x->arrays, p);
    q->fwdmax = p[SF_PEAK] * q->fwd0;
    q->bwd0 = -q->fwd0;
    q->bwdmax = -q->fwdmax;
    q->v_small = p[SF_VSMALL];
    q->free = 0;
    q->block_fwd = q->block_bwd = 0;
}

/* sliding force of branch br at v and its slope */
static double sf_slide(const fl_value *tab, int smooth, fl_fric_branch br, double v, double *dfdv)
{
    if (br == FL_FB_FWD) return fl_fric_table(tab, smooth, v, dfdv);
    double f = -fl_fric_table(tab, smooth, -v, dfdv);
    return f;
}

static void sf_eval(fl_ectx *x, const fl_elem *e, int n)
{
    const int C = FL_J_OWN + 2;
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        fl_fric q;
        sf_quantities(x, e, &q);
        fl_fric_branch br = fl_fric_branch_of(x->mode + e->mode, q.v);
        fl_fric_residual(x, e, br, &q, C);
        double f = 0, dfdv = 0;
        int own = 0;
        if (br == FL_FB_LOCKED) {
            f = q.sa;
            own = 1;
        } else if (br != FL_FB_FREE) {
            f = sf_slide(par_table(x, p, SF_FPOS), (int)p[SF_SMOOTH], br, q.v, &dfdv);
        }
        x->f[2 * e->idx] = -f;
        x->f[2 * e->idx + 1] = f;
        if (x->want_jac) {
            double *r0 = fl_jrow(x, e, 0, C), *r1 = fl_jrow(x, e, 1, C);
            r0[FL_J_OWN] = own ? -1 : 0;
            r1[FL_J_OWN] = own ? 1 : 0;
            r0[FL_J_V1] = -dfdv;
            r0[FL_J_V0] = dfdv;
            r1[FL_J_V1] = dfdv;
            r1[FL_J_V0] = -dfdv;
        }
    }
}

static void sf_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    for (int i = 0; i < n; i++, e++) {
        fl_fric q;
        sf_quantities(x, e, &q);
        fl_fric_roots(&q, x->mode + e->mode, g + e->root);
    }
}

static int sf_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    fl_fric q;
    sf_quantities(x, e, &q);
    return fl_fric_event(x, e, &q, dir);
}

static void sf_init(fl_ectx *x, const fl_elem *e)
{
    fl_fric q;
    sf_quantities(x, e, &q);
    fl_fric_init(x->mode + e->mode, &q);
}

static double sf_force(const fl_value *tab, const double *p, const int *m, double v, double sa)
{
    fl_fric_branch br = fl_fric_branch_of(m, v);
    double k;
    return br == FL_FB_LOCKED ? sa : br == FL_FB_FREE ? 0 : sf_slide(tab, (int)p[SF_SMOOTH], br, v, &k);
}

static void sf_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        double v = fl_vrel(x, e);
        U[e->idx] = 0;
        loss[e->idx] = sf_force(par_table(x, p, SF_FPOS), p, x->mode + e->mode, v, x->y[e->own]) * v;
    }
}

void fl_supportfriction_values(const fl_octx *o, double sr, double vr, double ar, double *v)
{
    const double *p = o->par;
    double f = sf_force(&o->arrays[(int)p[SF_FPOS]], p, o->mode, vr, o->own[0]), f0 = sf_f0(o->arrays, p);
    v[0] = sr;
    v[1] = vr;
    v[2] = ar;
    v[3] = f;
    v[4] = f * vr;
    fric_common_outputs(o, v + 5, f0, p[SF_PEAK] * f0, vr, ar);
}

/* the motion of flange_a (port 0) relative to the support (port 2) */
void fl_support_rel(const fl_octx *o, double *sr, double *vr, double *ar)
{
    *sr = o->ps[0] - (o->has_support ? o->ps[2] : 0);
    *vr = o->pv[0] - (o->has_support ? o->pv[2] : 0);
    *ar = o->pa[0] - (o->has_support ? o->pa[2] : 0);
}

static void sf_outputs(const fl_octx *o, double *v)
{
    double sr, vr, ar;
    fl_support_rel(o, &sr, &vr, &ar);
    fl_supportfriction_values(o, sr, vr, ar, v);
}

static const int fric_own_diff[] = {0};
/* rows: support force, flange force, path parameter; columns: s,v,a of
 * support and flange, own y, own yp */
static const uint64_t sf_dep[] = {FL_BIT(FL_J_OWN) | DEP_V, FL_BIT(FL_J_OWN) | DEP_V,
                                  FL_BIT(FL_J_OWN) | FL_BIT(FL_J_A0) | FL_BIT(FL_J_A1)};

const fl_elem_ops fl_supportfriction_ops = {
    .nown = 1,
    .own_diff = fric_own_diff,
    .own_names = fl_fric_own_names,
    .own_hint = fl_fric_own_hint,
    .dep = sf_dep,
    .nroots = FR_NROOTS,
    .nmodes = FR_NMODES,
    .eval = sf_eval,
    .roots = sf_roots,
    .event = sf_event,
    .init_modes = sf_init,
    .rigid = fl_fric_rigid,
    .set_idle = fl_fric_set_idle,
    .energy = sf_energy,
};

static const fl_class cls_supportfriction = {
    .path = MTC "SupportFriction",
    .desc = "Coulomb friction in support",
    .ports = sf_ports,
    .nports = FL_N(sf_ports),
    .params = sf_params,
    .nparams = FL_N(sf_params),
    .vars = sf_vars,
    .nvars = FL_N(sf_vars),
    .check = sf_check,
    .build = support_build,
    .elem = &fl_supportfriction_ops,
    .outputs = sf_outputs,
};

/* ======================================================================
 * Brake
 * ====================================================================== */

static const fl_port_def br_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    PORT_SUPPORT,
    {"f_normalized", FL_PORT_INPUT, NULL, 0, "1", "normalized force signal 0..1 (normal force = fn_max*f_normalized; brake is active if > 0)", 0},
};
static const fl_param_def br_params[] = {
    {"mu_pos", FL_P_MATRIX, "[0, 0.5]", NULL, "", "[v, f]: positive sliding friction coefficient (v >= 0)", 0, 0, 0, NULL},
    PAR_SMOOTH,
    PAR_PEAK,
    {"cgeo", FL_P_REAL, "1", NULL, "1", "geometry constant containing friction distribution assumption", FL_PF_MIN, 0, 0, NULL},
    {"fn_max", FL_P_REAL, NULL, "1", "N", "maximum normal force", FL_PF_MIN, 0, 0, NULL},
    PAR_VSMALL,
    PAR_USESUPPORT,
    PAR_USEHEATPORT,
};
enum { BR_MUPOS, BR_SMOOTH, BR_PEAK, BR_CGEO, BR_FNMAX, BR_VSMALL, BR_USESUPPORT, BR_USEHEAT };
/* own root after the friction roots: the normal force (free while <= 0) */
enum { BR_R_FN = FR_NROOTS, BR_NROOTS };
static const fl_var_def br_vars[] = {
    {"s", "m", "distance between the flanges and the support (= flange_a.s - support.s)", FL_VF_ATTR, 0, 0},
    {"v", "m/s", "absolute velocity of flange_a and flange_b", FL_VF_ATTR, 0, 0},
    {"a", "m/s2", "absolute acceleration of flange_a and flange_b", 0, 0, 0},
    {"f", "N", "brake friction force", 0, 0, 0},
    {"lossPower", "W", "loss power leaving the component via heatPort", 0, 0, 0},
    {"mu", "1", "friction coefficient", 0, 0, 0},
    {"fn", "N", "normal force (= fn_max*f_normalized)", 0, 0, 0},
    FRIC_VARS,
};

int fl_brake_check(const fl_pctx *p, fl_diag *d)
{
    double mu0;
    return fl_fric_table_param(p, d, "mu_pos", BR_MUPOS, BR_SMOOTH, "friction coefficient", &mu0);
}

/* the friction coefficient at v = 0 */
static double br_mu0(const fl_value *arrays, const double *p)
{
    double k;
    return fl_fric_table(&arrays[(int)p[BR_MUPOS]], (int)p[BR_SMOOTH], 0, &k);
}

static void br_quantities(const fl_ectx *x, const fl_elem *e, fl_fric *q, double *fn)
{
    const double *p = x->par + e->pofs;
    fl_fric_kin(x, e, q);
    *fn = p[BR_FNMAX] * x->u[e->sig];
    q->fwd0 = br_mu0(x->arrays, p) * p[BR_CGEO] * *fn;
    q->fwdmax = p[BR_PEAK] * q->fwd0;
    q->bwd0 = -q->fwd0;
    q->bwdmax = -q->fwdmax;
    q->v_small = p[BR_VSMALL];
    q->free = x->mode[e->mode + FR_M_FREE];
    q->block_fwd = q->block_bwd = 0;
}

/* friction coefficient of branch br at v and its slope */
static double br_mu(const fl_value *tab, int smooth, fl_fric_branch br, double v, double *dmu)
{
    if (br == FL_FB_FWD) return fl_fric_table(tab, smooth, v, dmu);
    return -fl_fric_table(tab, smooth, -v, dmu);
}

static void br_eval(fl_ectx *x, const fl_elem *e, int n)
{
    const int C = FL_J_OWN + 3, IN = FL_J_OWN + 2;
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        fl_fric q;
        double fn;
        br_quantities(x, e, &q, &fn);
        fl_fric_branch br = fl_fric_branch_of(x->mode + e->mode, q.v);
        fl_fric_residual(x, e, br, &q, C);
        double f = 0, dfdv = 0, dfdu = 0;
        int own = 0;
        if (br == FL_FB_LOCKED) {
            f = q.sa;
            own = 1;
        } else if (br != FL_FB_FREE) {
            double dmu, mu = br_mu(par_table(x, p, BR_MUPOS), (int)p[BR_SMOOTH], br, q.v, &dmu);
            f = mu * p[BR_CGEO] * fn;
            dfdv = dmu * p[BR_CGEO] * fn;
            dfdu = mu * p[BR_CGEO] * p[BR_FNMAX];
        }
        x->f[2 * e->idx] = -f;
        x->f[2 * e->idx + 1] = f;
        if (x->want_jac) {
            double *r0 = fl_jrow(x, e, 0, C), *r1 = fl_jrow(x, e, 1, C), *r2 = fl_jrow(x, e, 2, C);
            r0[FL_J_OWN] = own ? -1 : 0;
            r1[FL_J_OWN] = own ? 1 : 0;
            r0[FL_J_V1] = -dfdv;
            r0[FL_J_V0] = dfdv;
            r1[FL_J_V1] = dfdv;
            r1[FL_J_V0] = -dfdv;
            r0[IN] = -dfdu;
            r1[IN] = dfdu;
            /* the break-away force in the path equation scales with the normal force */
            double dthr = p[BR_PEAK] * br_mu0(x->arrays, p) * p[BR_CGEO] * p[BR_FNMAX];
            r2[IN] = br == FL_FB_FWD ? dthr : br == FL_FB_BWD ? -dthr : 0;
        }
    }
}

static void br_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    for (int i = 0; i < n; i++, e++) {
        fl_fric q;
        double fn;
        br_quantities(x, e, &q, &fn);
        fl_fric_roots(&q, x->mode + e->mode, g + e->root);
        g[e->root + BR_R_FN] = fn;
    }
}

static int br_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    fl_fric q;
    double fn;
    br_quantities(x, e, &q, &fn);
    /* free = fn <= 0 */
    q.free = dir[BR_R_FN] && fabs(fn) <= 1e-12 * x->par[e->pofs + BR_FNMAX] ? dir[BR_R_FN] < 0 : !(fn > 0);
    return fl_fric_event(x, e, &q, dir);
}

static void br_init(fl_ectx *x, const fl_elem *e)
{
    fl_fric q;
    double fn;
    br_quantities(x, e, &q, &fn);
    q.free = !(fn > 0);
    fl_fric_init(x->mode + e->mode, &q);
}

static double br_force(const fl_value *tab, const double *p, const int *m, double v, double sa, double fn, double *mu)
{
    fl_fric_branch br = fl_fric_branch_of(m, v);
    double k;
    /* mu follows the sliding law of the branch in every mode, as in the MSL */
    fl_fric_branch lb = m[FR_M_SF] ? FL_FB_FWD : m[FR_M_SB] ? FL_FB_BWD : m[FR_M_PRE] == FL_FR_FORWARD ? FL_FB_FWD : FL_FB_BWD;
    *mu = br_mu(tab, (int)p[BR_SMOOTH], lb, v, &k);
    return br == FL_FB_LOCKED ? sa : br == FL_FB_FREE ? 0 : *mu * p[BR_CGEO] * fn;
}

static void br_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        double v = fl_vrel(x, e), mu;
        double fn = p[BR_FNMAX] * x->u[e->sig];
        U[e->idx] = 0;
        loss[e->idx] = br_force(par_table(x, p, BR_MUPOS), p, x->mode + e->mode, v, x->y[e->own], fn, &mu) * v;
    }
}

void fl_brake_values(const fl_octx *o, double sr, double vr, double ar, double *v)
{
    const double *p = o->par;
    double fn = p[BR_FNMAX] * o->u[0], mu;
    double f = br_force(&o->arrays[(int)p[BR_MUPOS]], p, o->mode, vr, o->own[0], fn, &mu);
    double f0 = br_mu0(o->arrays, p) * p[BR_CGEO] * fn;
    v[0] = sr;
    v[1] = vr;
    v[2] = ar;
    v[3] = f;
    v[4] = f * vr;
    v[5] = mu;
    v[6] = fn;
    fric_common_outputs(o, v + 7, f0, p[BR_PEAK] * f0, vr, ar);
}

static void br_outputs(const fl_octx *o, double *v)
{
    double sr, vr, ar;
    fl_support_rel(o, &sr, &vr, &ar);
    fl_brake_values(o, sr, vr, ar, v);
}

static const uint64_t br_dep[] = {
    FL_BIT(FL_J_OWN) | DEP_V | FL_BIT(FL_J_OWN + 2),
    FL_BIT(FL_J_OWN) | DEP_V | FL_BIT(FL_J_OWN + 2),
    FL_BIT(FL_J_OWN) | FL_BIT(FL_J_A0) | FL_BIT(FL_J_A1) | FL_BIT(FL_J_OWN + 2),
};

const fl_elem_ops fl_brake_ops = {
    .nown = 1,
    .own_diff = fric_own_diff,
    .own_names = fl_fric_own_names,
    .own_hint = fl_fric_own_hint,
    .nin = 1,
    .dep = br_dep,
    .nroots = BR_NROOTS,
    .nmodes = FR_NMODES,
    .eval = br_eval,
    .roots = br_roots,
    .event = br_event,
    .init_modes = br_init,
    .rigid = fl_fric_rigid,
    .set_idle = fl_fric_set_idle,
    .energy = br_energy,
};

static const fl_class cls_brake = {
    .path = MTC "Brake",
    .desc = "Brake based on Coulomb friction",
    .ports = br_ports,
    .nports = FL_N(br_ports),
    .params = br_params,
    .nparams = FL_N(br_params),
    .vars = br_vars,
    .nvars = FL_N(br_vars),
    .check = fl_brake_check,
    .build = support_build,
    .elem = &fl_brake_ops,
    .outputs = br_outputs,
};

const fl_class *const fl_classes_friction[] = {
    &cls_supportfriction, &cls_brake, NULL,
};
