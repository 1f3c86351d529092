/* rot_backlash.c - Modelica.Mechanics.Rotational.Components.ElastoBacklash
 * and ElastoBacklash2: a backlash (free play b) in series with a spring c
 * and damper d. No translational class has this law (ElastoGap is
 * one-sided and nonlinear), so it is defined here.
 *
 * With phi_diff = phi_rel - phi_rel0, bMax = b/2, bMin = -b/2:
 *   tau_c = c (phi_diff - bMax) if phi_diff > bMax, c (phi_diff - bMin) if
 *           phi_diff < bMin, else 0;  tau_d = d w_rel (always)
 *   in contact at bMax (tau_c > 0) the torque never pulls:
 *     ElastoBacklash:  tau = 0 if tau_c + tau_d <= 0, else tau_c + min(tau_c, tau_d)
 *                      (the damping is limited by the spring: continuous at the touch)
 *     ElastoBacklash2: tau = 0 if tau_c + tau_d <= 0, else tau_c + tau_d
 *   and mirrored at bMin (max, >= 0); |b| <= 1e-10: tau = c phi_diff + d w_rel.
 *   During the initialisation the MSL uses tau = tau_c + tau_d with a
 *   strictly rising tau_c: c/3 phi_diff for 1.5 bMin <= phi_diff <= 1.5 bMax.
 *
 * As in the MSL text, the relations phi_diff > bMax and phi_diff < bMin are
 * state events in both classes; tau_c + tau_d <= 0 (>= 0) is one in
 * ElastoBacklash2 only (ElastoBacklash has it inside noEvent, where the
 * torque is continuous anyway). Like the translational contacts, the
 * relations are kept between located events, or evaluated in the residual
 * when the run steps through contacts (contact_events = 0).
 *
 * Energy audit: stored U = tau_c^2 / (2c) (the spring beyond the play), so
 * the dissipated power is (tau - tau_c) w_rel >= 0 in every branch. It
 * equals the MSL's lossPower except where the contact torque is cut to
 * zero (tau_c + tau_d <= 0 at bMax): there the spring's energy leaves at
 * -tau_c w_rel while the MSL's lossPower is 0; the variable lossPower is
 * the MSL's. */
#include <math.h>

#include "common.h"

#define MRC "Modelica.Mechanics.Rotational.Components."

/* MSL's bEps: below it the backlash is ignored */
#define EB_BEPS 1e-10

static const fl_port_def two_ports[] = {RPORT_FLANGE_A, RPORT_FLANGE_B};

static const fl_param_def eb_params[] = {
    {"c", FL_P_REAL, NULL, "1e5", "N.m/rad", "spring constant (c > 0 required)", FL_PF_MIN_EXCL, 0, 0, NULL},
    {"d", FL_P_REAL, NULL, "0", "N.m.s/rad", "damping constant", FL_PF_MIN, 0, 0, NULL},
    {"b", FL_P_REAL, "0", NULL, "rad", "total backlash", FL_PF_MIN, 0, 0, NULL},
    {"phi_rel0", FL_P_REAL, "0", NULL, "rad", "unstretched spring angle", 0, 0, 0, NULL},
    PAR_STATESELECT("StateSelect.prefer"),
    {"phi_nominal", FL_P_REAL, "1e-4", NULL, "rad", "nominal value of phi_rel (scaling)", FL_PF_MIN, 0, 0, NULL},
    PAR_USEHEATPORT,
};
enum { EB_C, EB_D, EB_B, EB_PHI0, EB_SS, EB_NOM };

static const fl_var_def eb_vars[] = {
    {"phi_rel", "rad", "relative rotation angle (= flange_b.phi - flange_a.phi)", FL_VF_ATTR, 0, 0},
    {"w_rel", "rad/s", "relative angular velocity (= der(phi_rel))", FL_VF_ATTR, 0, 0},
    {"a_rel", "rad/s2", "relative angular acceleration (= der(w_rel))", FL_VF_ATTR, 0, 0},
    {"tau", "N.m", "torque between flanges (= flange_b.tau)", 0, 0, 0},
    {"lossPower", "W", "loss power leaving the component via heatPort", 0, 0, 0},
    {"phi_diff", "rad", "phi_rel - phi_rel0 (protected in the MSL)", 0, 0, 0},
    {"tau_c", "N.m", "spring torque (protected in the MSL)", 0, 0, 0},
    {"tau_d", "N.m", "damper torque (protected in the MSL)", 0, 0, 0},
};

/* contact states: the side of the play, or no play at all */
enum { EB_LOW = -1, EB_FREE = 0, EB_UP = 1, EB_NOPLAY = 2 };
/* discrete states: contact; ElastoBacklash2: pushing (the contact torque is not cut to zero) */
enum { EB_M_CONTACT, EB_M_PUSH };
/* roots: phi_diff - bMax, phi_diff - bMin; ElastoBacklash2: tau_c + tau_d in contact */
enum { EB_R_UP, EB_R_LOW, EB_R_PUSH };

typedef struct eb_law {
    double tau_c, tau_d, tau, loss; /* loss: the MSL's lossPower */
    double dtds, dtdv;
} eb_law;

static int eb_relation(const double *p, double phi_diff)
{
    double h = p[EB_B] / 2;
    if (fabs(p[EB_B]) <= EB_BEPS) return EB_NOPLAY;
    return phi_diff > h ? EB_UP : phi_diff < -h ? EB_LOW : EB_FREE;
}

/* the torque for a contact state; push < 0: decide tau_c + tau_d <= 0
 * (>= 0) from the values (ElastoBacklash, and ElastoBacklash2 stepping
 * through contacts); two: ElastoBacklash2 */
static eb_law eb_force(const double *p, int two, int contact, int push, double phi_diff, double w)
{
    eb_law r = {0, 0, 0, 0, 0, 0};
    double c = p[EB_C], d = p[EB_D], h = p[EB_B] / 2;
    r.tau_d = d * w;
    if (contact == EB_FREE) return r;
    if (contact == EB_NOPLAY) {
        r.tau_c = c * phi_diff;
        r.tau = r.tau_c + r.tau_d;
        r.loss = r.tau_d * w;
        r.dtds = c;
        r.dtdv = d;
        return r;
    }
    double sg = contact == EB_UP ? 1 : -1;     /* the sign of a pushing torque */
    r.tau_c = c * (phi_diff - sg * h);
    if (push < 0) push = sg * (r.tau_c + r.tau_d) > 0;
    if (!push) return r;                        /* it would pull: tau = 0 */
    if (two || sg * r.tau_d < sg * r.tau_c) {   /* tau_c + tau_d */
        r.tau = r.tau_c + r.tau_d;
        r.loss = r.tau_d * w;
        r.dtds = c;
        r.dtdv = d;
    } else {                                    /* the damping limited to the spring torque */
        r.tau = 2 * r.tau_c;
        r.loss = r.tau_c * w;
        r.dtds = 2 * c;
    }
    return r;
}

/* the MSL's initialisation law: tau = tau_c + tau_d, tau_c strictly rising */
static eb_law eb_initial(const double *p, double phi_diff, double w)
{
    eb_law r = {0, 0, 0, 0, 0, 0};
    double c = p[EB_C], h = p[EB_B] / 2;
    r.tau_c = phi_diff > 1.5 * h ? c * (phi_diff - h) : phi_diff < -1.5 * h ? c * (phi_diff + h) : c / 3 * phi_diff;
    r.dtds = phi_diff > 1.5 * h || phi_diff < -1.5 * h ? c : c / 3;
    r.tau_d = p[EB_D] * w;
    r.dtdv = p[EB_D];
    r.tau = r.tau_c + r.tau_d;
    r.loss = r.tau_d * w;
    return r;
}

static double eb_phi_diff(const fl_ectx *x, const fl_elem *e)
{
    return fl_srel(x, e) - x->par[e->pofs + EB_PHI0];
}

static int eb_contact_of(const fl_ectx *x, const double *p, int mode, double phi_diff)
{
    if (fabs(p[EB_B]) <= EB_BEPS) return EB_NOPLAY;
    return x->contact_events ? x->mode[mode + EB_M_CONTACT] : eb_relation(p, phi_diff);
}

/* the law at phi_rel, w_rel of an element with parameters p and discrete
 * states from mode */
static eb_law eb_law_of(const fl_ectx *x, const double *p, int mode, double phi_rel, double w, int two)
{
    double phi_diff = phi_rel - p[EB_PHI0];
    if (x->initial) return eb_initial(p, phi_diff, w);
    int push = two && x->contact_events ? x->mode[mode + EB_M_PUSH] : -1;
    return eb_force(p, two, eb_contact_of(x, p, mode, phi_diff), push, phi_diff, w);
}

static eb_law eb_law_at(const fl_ectx *x, const fl_elem *e, int two)
{
    return eb_law_of(x, x->par + e->pofs, e->mode, fl_srel(x, e), fl_vrel(x, e), two);
}

static void eb_eval_n(fl_ectx *x, const fl_elem *e, int n, int two)
{
    for (int i = 0; i < n; i++, e++) {
        eb_law r = eb_law_at(x, e, two);
        fl_compliant_out(x, e, r.tau, r.dtds, r.dtdv);
    }
}

static void eb1_eval(fl_ectx *x, const fl_elem *e, int n)
{
    eb_eval_n(x, e, n, 0);
}

static void eb2_eval(fl_ectx *x, const fl_elem *e, int n)
{
    eb_eval_n(x, e, n, 1);
}

/* the energy stored in the spring and the power lost in the damper */
static void eb_energy_of(const double *p, const eb_law *r, double w, double *U, double *loss)
{
    *U = r->tau_c * r->tau_c / (2 * p[EB_C]);
    *loss = (r->tau - r->tau_c) * w;
}

FL_FAST_LAW eb_fast_law(const fl_fast *z, const fl_ectx *x, int i, const double *p, fl_fast_out *o, int two)
{
    double w = fl_fast_vrel(z, x, i);
    eb_law r = eb_law_of(x, p, z->mode0 + i * z->nmodes, fl_fast_srel(z, x, i), w, two);
    o->f = r.tau;
    o->dfds = r.dtds;
    o->dfdv = r.dtdv;
    eb_energy_of(p, &r, w, &o->U, &o->loss);
}

FL_FAST_LAW eb1_fast_law(const fl_fast *z, const fl_ectx *x, int i, const double *p, fl_fast_out *o)
{
    eb_fast_law(z, x, i, p, o, 0);
}

FL_FAST_LAW eb2_fast_law(const fl_fast *z, const fl_ectx *x, int i, const double *p, fl_fast_out *o)
{
    eb_fast_law(z, x, i, p, o, 1);
}

static void eb1_fast(const fl_fast *z, const fl_ectx *x, int what, double *out)
{
    FL_FAST_RUN(z, x, what, out, eb1_fast_law);
}

static void eb2_fast(const fl_fast *z, const fl_ectx *x, int what, double *out)
{
    FL_FAST_RUN(z, x, what, out, eb2_fast_law);
}

/* roots of phi_diff > bMax and phi_diff < bMin, each moved by the touch
 * band while that contact holds; ElastoBacklash2 in contact: tau_c + tau_d */
static void eb_root_values(const fl_ectx *x, const fl_elem *e, int two, double *g)
{
    const double *p = x->par + e->pofs;
    double phi_diff = eb_phi_diff(x, e), h = p[EB_B] / 2, band = fl_touch_band(x, e);
    int m = x->mode[e->mode + EB_M_CONTACT];
    g[EB_R_UP] = phi_diff - h + (m == EB_UP ? band : 0);
    g[EB_R_LOW] = phi_diff + h - (m == EB_LOW ? band : 0);
    if (two) {
        eb_law r = eb_force(p, 1, m, 1, phi_diff, fl_vrel(x, e));
        g[EB_R_PUSH] = m == EB_UP || m == EB_LOW ? r.tau_c + r.tau_d : 1;
    }
}

static void eb_roots_n(const fl_ectx *x, const fl_elem *e, int n, double *g, int two)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        if (x->contact_events && fabs(p[EB_B]) > EB_BEPS) {
            eb_root_values(x, e, two, g + e->root);
        } else {
            for (int k = 0; k < (two ? 3 : 2); k++) g[e->root + k] = 1;
        }
    }
}

static void eb1_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    eb_roots_n(x, e, n, g, 0);
}

static void eb2_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    eb_roots_n(x, e, n, g, 1);
}

/* pushing: tau_c + tau_d > 0 at the upper stop, < 0 at the lower one;
 * a crossing of the root at this instant (dir) decides it */
static int eb_push_of(int contact, double g, int dir)
{
    if (contact == EB_UP) return fl_rel_gt(g, dir);
    if (contact == EB_LOW) return fl_rel_gt(-g, -dir);
    return 0;
}

static int eb_event_n(fl_ectx *x, const fl_elem *e, const int *dir, int two)
{
    const double *p = x->par + e->pofs;
    if (!x->contact_events || fabs(p[EB_B]) <= EB_BEPS) return 0;
    int *m = x->mode + e->mode;
    double g[3];
    eb_root_values(x, e, two, g);
    /* strict relations: phi_diff > bMax, phi_diff < bMin */
    int c = fl_rel_gt(g[EB_R_UP], dir[EB_R_UP]) ? EB_UP : fl_rel_gt(-g[EB_R_LOW], -dir[EB_R_LOW]) ? EB_LOW : EB_FREE;
    int changed = c != m[EB_M_CONTACT];
    m[EB_M_CONTACT] = c;
    if (two) {
        int push;
        if (changed) {
            /* a new contact: its root was not watched. Entering the stop,
             * tau_c + tau_d is zero or pushes (tau_c starts at 0, tau_d
             * has the sign of the approach); a zero (d = 0) counts as
             * pushing, where both branches give tau = 0. */
            eb_law r = eb_force(p, 1, c, 1, eb_phi_diff(x, e), fl_vrel(x, e));
            double sg = c == EB_UP ? 1 : -1;
            push = c != EB_FREE && sg * (r.tau_c + r.tau_d) >= 0;
        } else {
            push = eb_push_of(c, g[EB_R_PUSH], dir[EB_R_PUSH]);
        }
        if (push != m[EB_M_PUSH]) changed = 1;
        m[EB_M_PUSH] = push;
    }
    return changed;
}

static int eb1_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    return eb_event_n(x, e, dir, 0);
}

static int eb2_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    return eb_event_n(x, e, dir, 1);
}

static void eb_init(fl_ectx *x, const fl_elem *e)
{
    const double *p = x->par + e->pofs;
    double phi_diff = eb_phi_diff(x, e);
    int c = eb_relation(p, phi_diff);
    eb_law r = eb_force(p, 1, c, 1, phi_diff, fl_vrel(x, e));
    x->mode[e->mode + EB_M_CONTACT] = c;
    x->mode[e->mode + EB_M_PUSH] = eb_push_of(c, r.tau_c + r.tau_d, 0);
}

static double eb_stiffness(const double *p)
{
    return p[EB_C];
}

static void eb_energy_n(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss, int two)
{
    for (int i = 0; i < n; i++, e++) {
        eb_law r = eb_law_at(x, e, two);
        eb_energy_of(x->par + e->pofs, &r, fl_vrel(x, e), &U[e->idx], &loss[e->idx]);
    }
}

static void eb1_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    eb_energy_n(x, e, n, U, loss, 0);
}

static void eb2_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    eb_energy_n(x, e, n, U, loss, 1);
}

static void eb_outputs_n(const fl_octx *o, double *v, int two)
{
    const double *p = o->par;
    double phi_rel = o->ps[1] - o->ps[0], w = o->pv[1] - o->pv[0], phi_diff = phi_rel - p[EB_PHI0];
    int c = fabs(p[EB_B]) <= EB_BEPS ? EB_NOPLAY : o->contact_events ? o->mode[EB_M_CONTACT] : eb_relation(p, phi_diff);
    int push = two && o->contact_events ? o->mode[EB_M_PUSH] : -1;
    eb_law r = eb_force(p, two, c, push, phi_diff, w);
    v[0] = phi_rel;
    v[1] = w;
    v[2] = o->pa[1] - o->pa[0];
    v[3] = r.tau;
    v[4] = r.loss;
    v[5] = phi_diff;
    v[6] = r.tau_c;
    v[7] = r.tau_d;
}

static void eb1_outputs(const fl_octx *o, double *v)
{
    eb_outputs_n(o, v, 0);
}

static void eb2_outputs(const fl_octx *o, double *v)
{
    eb_outputs_n(o, v, 1);
}

static int eb_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    fl_b_element(b, pa, pb);
    fl_b_state(b, "phi_rel", 0, pb, pa, 0);
    fl_b_state(b, "w_rel", 1, pb, pa, 0);
    fl_b_state(b, "a_rel", 2, pb, pa, 0);
    return 0;
}

/* the angles of both shafts matter at the scale phi_nominal */
static double eb_length_scale(const double *par)
{
    return par[EB_NOM];
}

static const uint64_t eb_dep[] = {DEP_S | DEP_V, DEP_S | DEP_V};

static const fl_elem_ops eb1_ops = {
    .dep = eb_dep,
    .nroots = 2,
    .nmodes = 2,
    .eval = eb1_eval,
    .roots = eb1_roots,
    .event = eb1_event,
    .init_modes = eb_init,
    .stiffness = eb_stiffness,
    .flags = FL_EK_CONTACT | FL_EK_COMPLIANT,
    .energy = eb1_energy,
    .fast = eb1_fast,
    .fast_npar = EB_PHI0 + 1,
};
static const fl_elem_ops eb2_ops = {
    .dep = eb_dep,
    .nroots = 3,
    .nmodes = 2,
    .eval = eb2_eval,
    .roots = eb2_roots,
    .event = eb2_event,
    .init_modes = eb_init,
    .stiffness = eb_stiffness,
    .flags = FL_EK_CONTACT | FL_EK_COMPLIANT,
    .energy = eb2_energy,
    .fast = eb2_fast,
    .fast_npar = EB_PHI0 + 1,
};

static const fl_class cls_elastobacklash = {
    .path = MRC "ElastoBacklash",
    .desc = "Backlash connected in series to linear spring and damper (backlash is modeled with elasticity)",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = eb_params,
    .nparams = FL_N(eb_params),
    .vars = eb_vars,
    .nvars = FL_N(eb_vars),
    .build = eb_build,
    .elem = &eb1_ops,
    .outputs = eb1_outputs,
    .length_scale = eb_length_scale,
};

static const fl_class cls_elastobacklash2 = {
    .path = MRC "ElastoBacklash2",
    .desc = "Backlash connected in series to linear spring and damper (backlash is modeled with elasticity; at start of "
            "contact the flange torque can jump, contrary to the ElastoBacklash model)",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = eb_params,
    .nparams = FL_N(eb_params),
    .vars = eb_vars,
    .nvars = FL_N(eb_vars),
    .build = eb_build,
    .elem = &eb2_ops,
    .outputs = eb2_outputs,
    .length_scale = eb_length_scale,
};

const fl_class *const fl_classes_rot_backlash[] = {
    &cls_elastobacklash, &cls_elastobacklash2, NULL,
};
