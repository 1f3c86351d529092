/* contacts.c - contact elements: MSL ElastoGap, and flange's
 * SymmetricHardStop (MapleSim "Translational Hardstop") and HardStop
 * (Simscape "Translational Hard Stop": full stiffness with damped or
 * undamped rebound, smoothed stiffness, coefficient of restitution).
 * Contact relations change only at located events (unless the run steps
 * through them, contact_events = 0); the restitution model applies
 * momentum-conserving impulses to the bodies on both sides and holds a
 * static contact with a constraint force below v_static. */
#include <math.h>

#include "common.h"
#include "laws.h"

#define MTC "Modelica.Mechanics.Translational.Components."
#define FLC "Flange.Components."

static const fl_port_def two_ports[] = {PORT_FLANGE_A, PORT_FLANGE_B};

/* relation g < 0 at an event: a crossing at this instant decides it */
static inline int rel_lt(double g, int dir)
{
    return dir ? dir < 0 : g < 0;
}

/* relation g >= 0 at an event */
static inline int rel_ge(double g, int dir)
{
    return dir ? dir > 0 : g >= 0;
}

/* ======================================================================
 * ElastoGap
 * ====================================================================== */

static const fl_param_def eg_params[] = {
    {"c", FL_P_REAL, NULL, "1", "N/m", "spring constant", FL_PF_MIN, 0, 0, NULL},
    {"d", FL_P_REAL, NULL, "1", "N.s/m", "damping constant", FL_PF_MIN, 0, 0, NULL},
    {"s_rel0", FL_P_REAL, "0", NULL, "m", "unstretched spring length", 0, 0, 0, NULL},
    {"f_ref", FL_P_REAL, "c*s_ref", NULL, "N", "spring force at spring compression s_ref", FL_PF_MIN, 0, 0, NULL},
    {"s_ref", FL_P_REAL, "1", NULL, "m", "reference spring compression", FL_PF_MIN_EXCL, 0, 0, NULL},
    {"n", FL_P_REAL, "1", NULL, "1", "exponent of spring force ( f_c = -f_ref*|(s_rel-s_rel0)/s_ref|^n )", FL_PF_MIN, 1, 0, NULL},
    PAR_STATESELECT("StateSelect.prefer"),
    PAR_SNOMINAL,
    PAR_USEHEATPORT,
};
enum { EG_C, EG_D, EG_S0, EG_FREF, EG_SREF, EG_N };
static const fl_var_def eg_vars[] = {
    {"s_rel", "m", "relative distance (= flange_b.s - flange_a.s)", FL_VF_ATTR, 0, 0},
    {"v_rel", "m/s", "relative velocity (= der(s_rel))", FL_VF_ATTR, 0, 0},
    {"f", "N", "forces between flanges (= flange_b.f)", 0, 0, 0},
    {"contact", "", "true, if contact, otherwise no contact", FL_VF_BOOL, 0, 0},
    {"lossPower", "W", "loss power leaving the component via heatPort", 0, 0, 0},
    {"f_c", "N", "spring force", 0, 0, 0},
    {"f_d2", "N", "linear damping force", 0, 0, 0},
    {"f_d", "N", "linear damping force which is limited by spring force (|f_d| <= |f_c|)", 0, 0, 0},
    {"ratio", "1", "measure of compression", 0, 0, 0},
};

typedef struct eg_law {
    double ratio, f_c, f_d2, f_d, f, dfds, dfdv;
} eg_law;

static eg_law eg_force(const double *p, int contact, double s, double v)
{
    eg_law r = {0, 0, 0, 0, 0, 0, 0};
    r.ratio = (s - p[EG_S0]) / p[EG_SREF];
    if (!contact) return r;
    double n = p[EG_N], ar = fabs(r.ratio);
    double pw = n == 1 ? ar : pow(ar, n);
    double sgn = r.ratio > 0 ? 1 : r.ratio < 0 ? -1 : 0;
    r.f_c = -p[EG_FREF] * pw;
    double dfc = -p[EG_FREF] * n * (n == 1 ? 1 : pow(ar, n - 1)) * sgn / p[EG_SREF];
    r.f_d2 = p[EG_D] * v;
    /* the damping force is clipped to [f_c, -f_c]: the element never pulls */
    double dfds = dfc, dfdv = 0;
    if (r.f_d2 < r.f_c) {
        r.f_d = r.f_c;
        dfds += dfc;
    } else if (r.f_d2 > -r.f_c) {
        r.f_d = -r.f_c;
        dfds -= dfc;
    } else {
        r.f_d = r.f_d2;
        dfdv = p[EG_D];
    }
    r.f = r.f_c + r.f_d;
    r.dfds = dfds;
    r.dfdv = dfdv;
    return r;
}

static int eg_contact_of(const fl_ectx *x, const double *p, int mode, double s)
{
    return x->contact_events ? x->mode[mode] : s < p[EG_S0];
}

static int eg_contact(const fl_ectx *x, const fl_elem *e, double s)
{
    return eg_contact_of(x, x->par + e->pofs, e->mode, s);
}

static void eg_eval(fl_ectx *x, const fl_elem *e, int n)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        double s = fl_srel(x, e);
        eg_law r = eg_force(p, eg_contact(x, e, s), s, fl_vrel(x, e));
        fl_compliant_out(x, e, r.f, r.dfds, r.dfdv);
    }
}

/* U = integral of f_c over s_rel from s_rel0 (in contact c) */
static double eg_stored(const double *p, int c, const eg_law *r)
{
    return c ? -p[EG_FREF] * p[EG_SREF] * r->ratio * pow(fabs(r->ratio), p[EG_N]) / (p[EG_N] + 1) : 0;
}

FL_FAST_LAW eg_fast_law(const fl_fast *z, const fl_ectx *x, int i, const double *p, fl_fast_out *o)
{
    double s = fl_fast_srel(z, x, i), v = fl_fast_vrel(z, x, i);
    int c = eg_contact_of(x, p, z->mode0 + i * z->nmodes, s);
    eg_law r = eg_force(p, c, s, v);
    o->f = r.f;
    o->dfds = r.dfds;
    o->dfdv = r.dfdv;
    o->U = eg_stored(p, c, &r);
    o->loss = r.f_d * v;
}

static void eg_fast(const fl_fast *z, const fl_ectx *x, int what, double *out)
{
    FL_FAST_RUN(z, x, what, out, eg_fast_law);
}

/* contact = s_rel < s_rel0; in contact the root sits a touch band beyond */
static double eg_root(const fl_ectx *x, const fl_elem *e)
{
    double g = fl_srel(x, e) - x->par[e->pofs + EG_S0];
    return x->mode[e->mode] ? g - fl_touch_band(x, e) : g;
}

static void eg_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    for (int i = 0; i < n; i++, e++) g[e->root] = x->contact_events ? eg_root(x, e) : 1;
}

static int eg_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    if (!x->contact_events) return 0;
    int c = rel_lt(eg_root(x, e), dir[0]);
    if (c == x->mode[e->mode]) return 0;
    x->mode[e->mode] = c;
    return 1;
}

static void eg_init(fl_ectx *x, const fl_elem *e)
{
    x->mode[e->mode] = fl_srel(x, e) < x->par[e->pofs + EG_S0];
}

static void eg_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        double s = fl_srel(x, e), v = fl_vrel(x, e);
        int c = eg_contact(x, e, s);
        eg_law r = eg_force(p, c, s, v);
        U[e->idx] = eg_stored(p, c, &r);
        loss[e->idx] = r.f_d * v;
    }
}

static void eg_outputs(const fl_octx *o, double *v)
{
    double s = o->ps[1] - o->ps[0], vr = o->pv[1] - o->pv[0];
    int c = o->contact_events ? o->mode[0] : s < o->par[EG_S0];
    eg_law r = eg_force(o->par, c, s, vr);
    v[0] = s;
    v[1] = vr;
    v[2] = r.f;
    v[3] = c;
    v[4] = r.f_d * vr;
    v[5] = r.f_c;
    v[6] = r.f_d2;
    v[7] = r.f_d;
    v[8] = r.ratio;
}

static int compliant_rs_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    fl_b_element(b, pa, pb);
    fl_b_state(b, "s_rel", 0, pb, pa, 0);
    fl_b_state(b, "v_rel", 1, pb, pa, 0);
    return 0;
}

static const uint64_t dep_sv[] = {DEP_S | DEP_V, DEP_S | DEP_V};

static double eg_stiffness(const double *p)
{
    /* the tangent stiffness at the reference compression */
    return p[EG_N] * p[EG_FREF] / p[EG_SREF];
}

static const fl_elem_ops eg_ops = {
    .dep = dep_sv,
    .nroots = 1,
    .nmodes = 1,
    .eval = eg_eval,
    .roots = eg_roots,
    .event = eg_event,
    .init_modes = eg_init,
    .stiffness = eg_stiffness,
    .flags = FL_EK_CONTACT | FL_EK_COMPLIANT,
    .energy = eg_energy,
    .fast = eg_fast,
    .fast_npar = EG_N + 1,
};
static const fl_class cls_elastogap = {
    .path = MTC "ElastoGap",
    .desc = "1D translational spring damper combination with gap",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = eg_params,
    .nparams = FL_N(eg_params),
    .vars = eg_vars,
    .nvars = FL_N(eg_vars),
    .build = compliant_rs_build,
    .elem = &eg_ops,
    .outputs = eg_outputs,
};

/* ======================================================================
 * SymmetricHardStop
 * ====================================================================== */

static const fl_param_def shs_params[] = {
    {"b", FL_P_REAL, "1", NULL, "m", "distance between the stops (total clearance)", 0, 0, 0, NULL},
    {"c", FL_P_REAL, "1e10", NULL, "N/m", "spring constant", FL_PF_MIN, 0, 0, NULL},
    {"d", FL_P_REAL, "1e10", NULL, "N.s/m", "damping constant", FL_PF_MIN, 0, 0, NULL},
    PAR_STATESELECT("StateSelect.prefer"),
    PAR_SNOMINAL,
};
enum { SHS_B, SHS_C, SHS_D };
static const fl_var_def shs_vars[] = {
    {"F", "N", "force at flange_b (= flange_b.f = -flange_a.f)", 0, 0, 0},
    {"s_rel", "m", "distance between flanges (= flange_b.s - flange_a.s)", FL_VF_ATTR, 0, 0},
    {"v_rel", "m/s", "relative velocity (= der(s_rel))", FL_VF_ATTR, 0, 0},
    {"lossPower", "W", "power dissipated by the damping while in contact", 0, 0, 0},
    {"contact", "", "-1 lower stop, 0 free, +1 upper stop", FL_VF_INT, 0, 0},
};

/* below this clearance the stop is an ordinary spring-damper */
#define SHS_NO_GAP 2e-10

static int shs_relation(const double *p, double s)
{
    double h = p[SHS_B] / 2;
    return s > h ? 1 : s < -h ? -1 : 0;
}

static int shs_contact_of(const fl_ectx *x, const double *p, int mode, double s)
{
    if (p[SHS_B] <= SHS_NO_GAP) return 2;
    return x->contact_events ? x->mode[mode] : shs_relation(p, s);
}

static int shs_contact(const fl_ectx *x, const fl_elem *e, const double *p, double s)
{
    return shs_contact_of(x, p, e->mode, s);
}

/* force, and its offset position, for a contact state (2: no gap) */
static double shs_force(const double *p, int c, double s, double v, double *off)
{
    *off = c == 1 ? p[SHS_B] / 2 : c == -1 ? -p[SHS_B] / 2 : 0;
    if (c == 0) return 0;
    return p[SHS_C] * (s - *off) + p[SHS_D] * v;
}

static void shs_eval(fl_ectx *x, const fl_elem *e, int n)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        double s = fl_srel(x, e), off;
        int c = shs_contact(x, e, p, s);
        double f = shs_force(p, c, s, fl_vrel(x, e), &off);
        fl_compliant_out(x, e, f, c ? p[SHS_C] : 0, c ? p[SHS_D] : 0);
    }
}

/* the energy stored and the power lost in contact state c */
static void shs_energy_of(const double *p, int c, double s, double v, double off, double *U, double *loss)
{
    *U = c ? 0.5 * p[SHS_C] * (s - off) * (s - off) : 0;
    *loss = c ? p[SHS_D] * v * v : 0;
}

FL_FAST_LAW shs_fast_law(const fl_fast *z, const fl_ectx *x, int i, const double *p, fl_fast_out *o)
{
    double s = fl_fast_srel(z, x, i), v = fl_fast_vrel(z, x, i), off;
    int c = shs_contact_of(x, p, z->mode0 + i * z->nmodes, s);
    o->f = shs_force(p, c, s, v, &off);
    o->dfds = c ? p[SHS_C] : 0;
    o->dfdv = c ? p[SHS_D] : 0;
    shs_energy_of(p, c, s, v, off, &o->U, &o->loss);
}

static double shs_depth(const double *p, double s, double *gap)
{
    *gap = p[SHS_B];
    if (p[SHS_B] <= SHS_NO_GAP) return 0;
    return fl_fmax(0, fabs(s) - p[SHS_B] / 2);
}

static void shs_fast(const fl_fast *z, const fl_ectx *x, int what, double *out)
{
    for (int i = 0; what == FL_FAST_PEN && i < z->n; i++)
        out[2 * i] = shs_depth(z->par + z->pofs[i], fl_fast_srel(z, x, i), &out[2 * i + 1]);
    FL_FAST_RUN(z, x, what, out, shs_fast_law);
}

/* roots of s_rel > b/2 and s_rel < -b/2, each moved by the touch band
 * while that contact holds */
static void shs_root_pair(const fl_ectx *x, const fl_elem *e, double *g)
{
    const double *p = x->par + e->pofs;
    double s = fl_srel(x, e), h = p[SHS_B] / 2, band = fl_touch_band(x, e);
    int m = x->mode[e->mode];
    g[0] = s - h + (m == 1 ? band : 0);
    g[1] = s + h - (m == -1 ? band : 0);
}

static void shs_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        if (x->contact_events && p[SHS_B] > SHS_NO_GAP) {
            shs_root_pair(x, e, g + e->root);
        } else {
            g[e->root] = 1;
            g[e->root + 1] = 1;
        }
    }
}

static int shs_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    const double *p = x->par + e->pofs;
    if (!x->contact_events || p[SHS_B] <= SHS_NO_GAP) return 0;
    double g[2];
    shs_root_pair(x, e, g);
    /* strict relations: s > b/2 and s < -b/2 */
    int c = (dir[0] ? dir[0] > 0 : g[0] > 0) ? 1 : rel_lt(g[1], dir[1]) ? -1 : 0;
    if (c == x->mode[e->mode]) return 0;
    x->mode[e->mode] = c;
    return 1;
}

static void shs_init(fl_ectx *x, const fl_elem *e)
{
    x->mode[e->mode] = shs_relation(x->par + e->pofs, fl_srel(x, e));
}

static double shs_penetration(const fl_ectx *x, const fl_elem *e, double *gap)
{
    return shs_depth(x->par + e->pofs, fl_srel(x, e), gap);
}

static double shs_stiffness(const double *p)
{
    return p[SHS_C];
}

static void shs_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        double s = fl_srel(x, e), v = fl_vrel(x, e), off;
        int c = shs_contact(x, e, p, s);
        shs_force(p, c, s, v, &off);
        shs_energy_of(p, c, s, v, off, &U[e->idx], &loss[e->idx]);
    }
}

void fl_symhardstop_outputs(const fl_octx *o, double *v)
{
    const double *p = o->par;
    double s = o->ps[1] - o->ps[0], vr = o->pv[1] - o->pv[0], off;
    int c = p[SHS_B] <= SHS_NO_GAP ? 2 : o->contact_events ? o->mode[0] : shs_relation(p, s);
    v[0] = shs_force(p, c, s, vr, &off);
    v[1] = s;
    v[2] = vr;
    v[3] = c ? p[SHS_D] * vr * vr : 0;
    v[4] = c == 2 ? (s > 0 ? 1 : s < 0 ? -1 : 0) : c;
}

const fl_elem_ops fl_symhardstop_ops = {
    .dep = dep_sv,
    .nroots = 2,
    .nmodes = 1,
    .eval = shs_eval,
    .roots = shs_roots,
    .event = shs_event,
    .init_modes = shs_init,
    .penetration = shs_penetration,
    .stiffness = shs_stiffness,
    .flags = FL_EK_CONTACT | FL_EK_COMPLIANT,
    .energy = shs_energy,
    .fast = shs_fast,
    .fast_npar = SHS_D + 1,
};
static const fl_class cls_symhardstop = {
    .path = FLC "SymmetricHardStop",
    .desc = "Double-sided translational hard stop restricting motion to a clearance b (MapleSim Translational Hardstop)",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = shs_params,
    .nparams = FL_N(shs_params),
    .vars = shs_vars,
    .nvars = FL_N(shs_vars),
    .build = compliant_rs_build,
    .elem = &fl_symhardstop_ops,
    .outputs = fl_symhardstop_outputs,
};

/* ======================================================================
 * HardStop
 * ====================================================================== */

static const fl_port_def hs_ports[] = {
    {"R", FL_PORT_FLANGE, NULL, 0, "", "slider (rod) travelling between the stops of the case", 0},
    {"C", FL_PORT_FLANGE, NULL, 0, "", "case carrying the two stops", 0},
};
enum { HS_R = 0, HS_C = 1 };
static const fl_param_def hs_params[] = {
    {"upper_bnd", FL_P_REAL, "0.1", NULL, "m", "gap between slider and upper stop (from the initial slider position)", 0, 0, 0, NULL},
    {"lower_bnd", FL_P_REAL, "-0.1", NULL, "m", "gap between slider and lower stop (negative for an open gap)", 0, 0, 0, NULL},
    {"stiff_up", FL_P_REAL, "1e6", NULL, "N/m", "contact stiffness at upper bound", FL_PF_MIN_EXCL, 0, 0, NULL},
    {"stiff_low", FL_P_REAL, "1e6", NULL, "N/m", "contact stiffness at lower bound", FL_PF_MIN_EXCL, 0, 0, NULL},
    {"D_up", FL_P_REAL, "150", NULL, "N.s/m", "contact damping at upper bound", FL_PF_MIN, 0, 0, NULL},
    {"D_low", FL_P_REAL, "150", NULL, "N.s/m", "contact damping at lower bound", FL_PF_MIN, 0, 0, NULL},
    {"hs_model", FL_P_ENUM, "Flange.Types.HardStopModel.FULL_DAMPED", NULL, "",
     "contact model: FULL_DAMPED, FULL_UNDAMPED (damping only while moving in), SMOOTH, RESTITUTION",
     FL_PF_STRUCT, 0, 0, "Flange.Types.HardStopModel"},
    {"trans_region", FL_P_REAL, "1e-4", NULL, "m", "width of the transition region (SMOOTH)", FL_PF_MIN_EXCL, 0, 0, NULL},
    {"cor", FL_P_REAL, "0.8", NULL, "1", "coefficient of restitution (RESTITUTION)", FL_PF_MIN | FL_PF_MAX, 0, 1, NULL},
    {"v_static", FL_P_REAL, "1e-3", NULL, "m/s", "impact speed below which the slider stays in static contact (RESTITUTION)", FL_PF_MIN_EXCL, 0, 0, NULL},
    {"f_release", FL_P_REAL, "0", NULL, "N", "static contact ends when the stop would have to pull with more than this (RESTITUTION)", FL_PF_MIN, 0, 0, NULL},
    {"x_start", FL_P_REAL, "0", NULL, "m", "initial position of the slider relative to the case", 0, 0, 0, NULL},
};
enum { HS_GP, HS_GN, HS_KP, HS_KN, HS_DP, HS_DN, HS_MODEL, HS_DTR, HS_COR, HS_VTH, HS_FREL, HS_X0 };
enum { HS_FULL_DAMPED = 1, HS_FULL_UNDAMPED, HS_SMOOTH, HS_RESTITUTION };
/* discrete Real states */
enum { HS_RS_SREL0 = 0, HS_RS_IMPACT, HS_NRS };

static const fl_var_def hs_vars[] = {
    {"F", "N", "interaction force between slider and case (positive from R to C)", 0, 0, 0},
    {"x", "m", "slider position relative to the case", 0, 0, 0},
    {"v", "m/s", "slider velocity relative to the case (v_R - v_C)", 0, 0, 0},
    {"contact", "", "-1 lower stop, 0 free, +1 upper stop", FL_VF_INT, 0, 0},
    {"mode", "", "RESTITUTION: -1 static at the lower stop, 0 free, +1 static at the upper stop", FL_VF_INT, 0, 0},
    {"lossPower", "W", "power dissipated by the contact damping", 0, 0, 0},
    {"impactEnergy", "J", "kinetic energy lost in the last impact (RESTITUTION)", 0, 0, 0},
};
enum { HV_F, HV_X, HV_V, HV_CONTACT, HV_MODE, HV_LOSS, HV_IMPACT };

/* Attachments: 0 = C (case, flange_a role), 1 = R (slider, flange_b role):
 * then F is the compliant force (R.f = F, C.f = -F). */
static int hs_build(fl_builder *b)
{
    fl_b_element(b, fl_b_port(b, "C"), fl_b_port(b, "R"));
    return 0;
}

/* x = x_start + (s_R - s_C) - (s_R - s_C)(t0): the relative displacement
 * integrated from x_start (Simscape has no absolute positions) */
static double hs_x_of(const fl_ectx *x, const double *p, double s_rel, double s_rel0)
{
    if (x->initial) return p[HS_X0];
    return p[HS_X0] + s_rel - s_rel0;
}

static double hs_x(const fl_ectx *x, const fl_elem *e)
{
    return hs_x_of(x, x->par + e->pofs, fl_srel(x, e), x->rs[e->rs + HS_RS_SREL0]);
}

static void hs_start(fl_ectx *x, const fl_elem *e)
{
    x->rs[e->rs + HS_RS_SREL0] = fl_srel(x, e);
}

static int hs_relation(const double *p, double xs)
{
    return xs >= p[HS_GP] ? 1 : xs <= p[HS_GN] ? -1 : 0;
}

/* smoothstep of the transition region and its derivative */
static double smooth_w(double u, double *dw)
{
    if (u <= 0) {
        *dw = 0;
        return 0;
    }
    if (u >= 1) {
        *dw = 0;
        return 1;
    }
    *dw = 6 * u - 6 * u * u;
    return u * u * (3 - 2 * u);
}

typedef struct hs_law {
    double F, dFdx, dFdv, loss, U;
} hs_law;

/* The stiffness-based laws (FULL_DAMPED, FULL_UNDAMPED, SMOOTH). */
static hs_law hs_force(const double *p, int c, double xs, double v)
{
    hs_law r = {0, 0, 0, 0, 0};
    if (c == 0) return r;
    int up = c > 0;
    double K = up ? p[HS_KP] : p[HS_KN], D = up ? p[HS_DP] : p[HS_DN];
    double pen = xs - (up ? p[HS_GP] : p[HS_GN]); /* > 0 into the upper stop, < 0 into the lower */
    int model = (int)p[HS_MODEL];
    double dv = D * v, ddv = D;
    if (model == HS_FULL_UNDAMPED) {
        /* damping only while moving into the stop: D*max(v,0) up, D*min(v,0) down */
        int in = up ? v > 0 : v < 0;
        dv = in ? D * v : 0;
        ddv = in ? D : 0;
    }
    double spring = K * pen;
    if (model == HS_SMOOTH) {
        double dw, w = smooth_w(fabs(pen) / p[HS_DTR], &dw);
        double dwdx = dw / p[HS_DTR] * (up ? 1 : -1);
        r.F = w * (spring + dv);
        r.dFdx = dwdx * (spring + dv) + w * K;
        r.dFdv = w * ddv;
        r.loss = w * dv * v;
        /* U = integral of w(|p|/dtr) K p dp */
        double u = fabs(pen) / p[HS_DTR], dtr2 = p[HS_DTR] * p[HS_DTR];
        r.U = u < 1 ? K * dtr2 * (0.75 * u * u * u * u - 0.4 * u * u * u * u * u)
                    : K * dtr2 * 0.35 + 0.5 * K * (pen * pen - dtr2);
        if ((up && pen < 0) || (!up && pen > 0)) r.U = 0; /* outside the stop while the contact is frozen */
        return r;
    }
    r.F = spring + dv;
    r.dFdx = K;
    r.dFdv = ddv;
    r.loss = dv * v;
    r.U = 0.5 * K * pen * pen;
    return r;
}

static int hs_contact_of(const fl_ectx *x, const double *p, int mode, double xs)
{
    return x->contact_events ? x->mode[mode] : hs_relation(p, xs);
}

static int hs_contact(const fl_ectx *x, const fl_elem *e, double xs)
{
    return hs_contact_of(x, x->par + e->pofs, e->mode, xs);
}

static void hs_eval(fl_ectx *x, const fl_elem *e, int n)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        double xs = hs_x(x, e);
        hs_law r = hs_force(p, hs_contact(x, e, xs), xs, fl_vrel(x, e));
        fl_compliant_out(x, e, r.F, x->initial ? 0 : r.dFdx, r.dFdv);
    }
}

/* how far x is into a stop, and the gap between the stops */
static double hs_depth(const double *p, double xs, double *gap)
{
    *gap = p[HS_GP] - p[HS_GN];
    return fl_fmax(0, fl_fmax(xs - p[HS_GP], p[HS_GN] - xs));
}

FL_FAST_LAW hs_fast_law(const fl_fast *z, const fl_ectx *x, int i, const double *p, fl_fast_out *o)
{
    double xs = hs_x_of(x, p, fl_fast_srel(z, x, i), x->rs[z->rs0 + i * z->rstep + HS_RS_SREL0]);
    hs_law r = hs_force(p, hs_contact_of(x, p, z->mode0 + i * z->nmodes, xs), xs, fl_fast_vrel(z, x, i));
    o->f = r.F;
    o->dfds = x->initial ? 0 : r.dFdx;
    o->dfdv = r.dFdv;
    o->U = r.U;
    o->loss = r.loss;
}

static void hs_fast(const fl_fast *z, const fl_ectx *x, int what, double *out)
{
    for (int i = 0; what == FL_FAST_PEN && i < z->n; i++) {
        const double *p = z->par + z->pofs[i];
        out[2 * i] = hs_depth(p, hs_x_of(x, p, fl_fast_srel(z, x, i), x->rs[z->rs0 + i * z->rstep + HS_RS_SREL0]),
                              &out[2 * i + 1]);
    }
    FL_FAST_RUN(z, x, what, out, hs_fast_law);
}

/* roots of x >= gp and x <= gn, moved by the touch band while in contact */
static void hs_root_pair(const fl_ectx *x, const fl_elem *e, double *g)
{
    const double *p = x->par + e->pofs;
    double xs = hs_x(x, e), band = fl_touch_band(x, e);
    int m = x->mode[e->mode];
    g[0] = xs - p[HS_GP] + (m == 1 ? band : 0);
    g[1] = xs - p[HS_GN] - (m == -1 ? band : 0);
}

/* FULL_UNDAMPED damps only while the slider moves into the stop: the
 * kink where the relative velocity turns is located once per contact
 * (mode[1] arms it at the onset). Later turns in the same contact, e.g.
 * the noise of a body at rest on the stop, are left to error control. */
static void hs_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    for (int i = 0; i < n; i++, e++) {
        if (x->contact_events) {
            hs_root_pair(x, e, g + e->root);
        } else {
            g[e->root] = 1;
            g[e->root + 1] = 1;
        }
        g[e->root + 2] = x->contact_events && x->mode[e->mode + 1] ? fl_vrel(x, e) : 1;
    }
}

static int hs_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    if (!x->contact_events) return 0;
    int *m = &x->mode[e->mode];
    if (dir[2] && m[1]) {
        m[1] = 0;
        return 1;
    }
    double g[2];
    hs_root_pair(x, e, g);
    /* x >= gp and x <= gn */
    int c = rel_ge(g[0], dir[0]) ? 1 : (dir[1] ? dir[1] < 0 : g[1] <= 0) ? -1 : 0;
    if (c == m[0]) return 0;
    m[0] = c;
    m[1] = c && (int)x->par[e->pofs + HS_MODEL] == HS_FULL_UNDAMPED;
    return 1;
}

static void hs_init(fl_ectx *x, const fl_elem *e)
{
    const double *p = x->par + e->pofs;
    x->mode[e->mode] = hs_relation(p, p[HS_X0]);
    x->mode[e->mode + 1] = x->mode[e->mode] && (int)p[HS_MODEL] == HS_FULL_UNDAMPED;
}

static double hs_penetration(const fl_ectx *x, const fl_elem *e, double *gap)
{
    return hs_depth(x->par + e->pofs, hs_x(x, e), gap);
}

static double hs_stiffness(const double *p)
{
    return fmax(p[HS_KP], p[HS_KN]);
}

static void hs_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    for (int i = 0; i < n; i++, e++) {
        double xs = hs_x(x, e);
        hs_law r = hs_force(x->par + e->pofs, hs_contact(x, e, xs), xs, fl_vrel(x, e));
        U[e->idx] = r.U;
        loss[e->idx] = r.loss;
    }
}

void fl_hardstop_outputs(const fl_octx *o, double *v)
{
    const double *p = o->par;
    int model = (int)p[HS_MODEL];
    double xs = p[HS_X0] + (o->ps[HS_R] - o->ps[HS_C]) - o->rs[HS_RS_SREL0];
    double vr = o->pv[HS_R] - o->pv[HS_C];
    v[HV_X] = xs;
    v[HV_V] = vr;
    v[HV_IMPACT] = o->rs[HS_RS_IMPACT];
    if (model == HS_RESTITUTION) {
        v[HV_F] = o->mode[0] ? o->own[0] : 0;
        v[HV_CONTACT] = o->mode[0];
        v[HV_MODE] = o->mode[0];
        v[HV_LOSS] = 0;
        return;
    }
    int c = o->contact_events ? o->mode[0] : hs_relation(p, xs);
    hs_law r = hs_force(p, c, xs, vr);
    v[HV_F] = r.F;
    v[HV_CONTACT] = c;
    v[HV_MODE] = 0;
    v[HV_LOSS] = r.loss;
}

/* ---- RESTITUTION: impulses and static contact -------------------------
 * Own unknown: the constraint force Fm of a static contact. In free flight
 * its residual is Fm = 0; in static contact the relative acceleration is
 * held at zero (a_R - a_C = 0) and Fm is the force that does it. */

enum { HD_FREE = 0, HD_UP = 1, HD_LOW = -1 };

static void hsd_eval(fl_ectx *x, const fl_elem *e, int n)
{
    const int C = FL_J_OWN + 2; /* one own unknown: columns own y, own yp */
    for (int i = 0; i < n; i++, e++) {
        int m = x->mode[e->mode];
        double Fm = x->y[e->own];
        double F = m ? Fm : 0;
        x->f[2 * e->idx] = -F;
        x->f[2 * e->idx + 1] = F;
        x->res[e->own] = m ? fl_att_a(x, e, 1) - fl_att_a(x, e, 0) : Fm;
        if (x->want_jac) {
            double *r0 = fl_jrow(x, e, 0, C), *r1 = fl_jrow(x, e, 1, C), *r2 = fl_jrow(x, e, 2, C);
            r0[FL_J_OWN] = m ? -1 : 0;
            r1[FL_J_OWN] = m ? 1 : 0;
            if (m) {
                r2[FL_J_A1] = 1;
                r2[FL_J_A0] = -1;
            } else {
                r2[FL_J_OWN] = 1;
            }
        }
    }
}

static void hsd_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        int m = x->mode[e->mode];
        double xs = hs_x(x, e), Fm = x->y[e->own];
        /* in static contact x sits on the bound: do not watch it there */
        g[e->root] = m ? 1 : xs - p[HS_GP];
        g[e->root + 1] = m ? 1 : xs - p[HS_GN];
        g[e->root + 2] = m == HD_UP ? Fm + p[HS_FREL] : m == HD_LOW ? Fm - p[HS_FREL] : 1;
    }
}

static int hsd_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    const double *p = x->par + e->pofs;
    int *m = &x->mode[e->mode];
    double v = fl_vrel(x, e);
    if (*m == HD_FREE) {
        double xs = hs_x(x, e);
        int up = rel_ge(xs - p[HS_GP], dir[0]) && v > 0;
        int low = (dir[1] ? dir[1] < 0 : xs - p[HS_GN] <= 0) && v < 0;
        if (!up && !low) return 0;
        /* impulse on the slider (R) and the case (C): the relative velocity
         * becomes -cor*v, or 0 below v_static (then the contact is static) */
        int stick = fabs(v) < p[HS_VTH];
        x->rs[e->rs + HS_RS_IMPACT] = fl_impact(x, e, stick ? 0 : p[HS_COR]);
        if (stick) *m = up ? HD_UP : HD_LOW;
        return 1;
    }
    /* static contact ends when the stop would have to pull */
    double Fm = x->y[e->own];
    int release = *m == HD_UP ? rel_lt(Fm + p[HS_FREL], dir[2]) : (dir[2] ? dir[2] > 0 : Fm - p[HS_FREL] > 0);
    if (!release) return 0;
    *m = HD_FREE;
    return 1;
}

static void hsd_init(fl_ectx *x, const fl_elem *e)
{
    x->mode[e->mode] = HD_FREE;
}

static void hsd_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    for (int i = 0; i < n; i++, e++) {
        U[e->idx] = 0;
        loss[e->idx] = 0;
    }
}

static const int hsd_own_diff[] = {0};
static const char *const hsd_own_names[] = {"F"};
static const char *const hsd_rot_own_names[] = {"tau"};
/* rows: f_C, f_R, constraint; columns: s,v,a of C and R, own y, own yp */
static const uint64_t hsd_dep[] = {FL_BIT(FL_J_OWN), FL_BIT(FL_J_OWN),
                                   FL_BIT(FL_J_OWN) | FL_BIT(FL_J_A0) | FL_BIT(FL_J_A1)};

const fl_elem_ops fl_hardstop_ops = {
    .dep = dep_sv,
    .nroots = 3,
    .nmodes = 2, /* contact (-1, 0, 1); FULL_UNDAMPED: turn of the velocity armed */
    .nreal = HS_NRS,
    .eval = hs_eval,
    .roots = hs_roots,
    .event = hs_event,
    .init_modes = hs_init,
    .penetration = hs_penetration,
    .stiffness = hs_stiffness,
    .start = hs_start,
    .flags = FL_EK_CONTACT | FL_EK_COMPLIANT,
    .energy = hs_energy,
    .fast = hs_fast,
    .fast_npar = HS_X0 + 1,
};
/* RESTITUTION, in both domains: only the name of the constraint force (F
 * or the torque tau of RotationalHardStop) in messages differs */
#define HSD_OPS(names, what)                                                                                     \
    {                                                                                                            \
        .nown = 1, .own_diff = hsd_own_diff, .own_names = names,                                                 \
        .own_hint = "the " what " of a static contact is not unique when other static contacts or prescribed "    \
                    "motions act on the same bodies",                                                            \
        .dep = hsd_dep, .nroots = 3, .nmodes = 1, .nreal = HS_NRS, .eval = hsd_eval, .roots = hsd_roots,          \
        .event = hsd_event, .init_modes = hsd_init, .start = hs_start, .flags = FL_EK_IMPULSE,                   \
        .energy = hsd_energy,                                                                                    \
    }
static const fl_elem_ops hsd_ops = HSD_OPS(hsd_own_names, "force");
static const fl_elem_ops hsd_rot_ops = HSD_OPS(hsd_rot_own_names, "torque");

const fl_elem_ops *fl_hardstop_select(const double *par)
{
    return (int)par[HS_MODEL] == HS_RESTITUTION ? &hsd_ops : &fl_hardstop_ops;
}

const fl_elem_ops *fl_rot_hardstop_select(const double *par)
{
    return (int)par[HS_MODEL] == HS_RESTITUTION ? &hsd_rot_ops : &fl_hardstop_ops;
}

static int hs_check(const fl_pctx *p, fl_diag *d)
{
    const double *par = p->par;
    if (!(par[HS_GP] > par[HS_GN])) {
        fl_err(d, p->loc, "%s: upper_bnd (%g) must be greater than lower_bnd (%g)", p->inst, par[HS_GP], par[HS_GN]);
        return -1;
    }
    if ((int)par[HS_MODEL] == HS_RESTITUTION && !(par[HS_X0] >= par[HS_GN] && par[HS_X0] <= par[HS_GP])) {
        fl_err(d, p->loc, "%s: with hs_model = RESTITUTION the slider must start between the stops "
                          "(lower_bnd <= x_start <= upper_bnd), x_start = %g",
               p->inst, par[HS_X0]);
        return -1;
    }
    return 0;
}

/* Positions near the stops matter at the scale of the transition region
 * (1e-4 m by default, MSL's s_nominal for its compliant elements). */
static double hs_length_scale(const double *par)
{
    return fmin(par[HS_DTR], par[HS_GP] - par[HS_GN]);
}

static const fl_class cls_hardstop = {
    .path = FLC "HardStop",
    .desc = "Double-sided translational hard stop between a slider R and a case C (Simscape Translational Hard Stop)",
    .ports = hs_ports,
    .nports = FL_N(hs_ports),
    .params = hs_params,
    .nparams = FL_N(hs_params),
    .vars = hs_vars,
    .nvars = FL_N(hs_vars),
    .check = hs_check,
    .build = hs_build,
    .elem = &fl_hardstop_ops,
    .elem_for = fl_hardstop_select,
    .outputs = fl_hardstop_outputs,
    .length_scale = hs_length_scale,
};

const fl_class *const fl_classes_contacts[] = {
    &cls_elastogap, &cls_symhardstop, &cls_hardstop, NULL,
};
