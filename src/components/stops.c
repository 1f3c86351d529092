/* stops.c - a sliding mass with Stribeck friction against the ground and
 * two perfectly plastic end stops: MSL MassWithStopAndFriction, and
 * flange's Stop (the Coselica/Xcos block of the same name: the same
 * physics with real parameter defaults, an initial mode mode_start and an
 * optional Coselica break-away without the 0.1 % margin).
 *
 * The mass is a rigid body (flange_b = flange_a + L, centre s); friction
 * acts between the ground (attachment 0) and flange_a (attachment 1) with
 * the stick-slip logic of friction_core.c. At a stop the body is set to
 * the stop position and its velocity (and that of everything rigidly
 * attached) to zero; while pushed into the stop it stays locked, with the
 * stop's reaction in the friction force f. */
#include <math.h>

#include "friction.h"

#define MTC "Modelica.Mechanics.Translational.Components."
#define FLC "Flange.Components."

static const fl_port_def two_ports[] = {PORT_FLANGE_A, PORT_FLANGE_B};

/* Both classes share this parameter layout; MassWithStopAndFriction gets
 * mode_start = 0 and coselica = false as derived slots, and both the flag
 * telling Stop apart. */
enum { MS_SMAX, MS_SMIN, MS_VSMALL, MS_FPROP, MS_FC, MS_FS, MS_FEXP, MS_M, MS_L, MS_USEHEAT, MS_MODESTART, MS_COSELICA,
       MS_ISSTOP };
/* discrete states after the friction ones: stopped (-1, 0, +1), checked */
enum { MS_M_STOPPED = FR_NMODES, MS_M_CHECKED, MS_NMODES };
/* roots after the friction ones: the two stops */
enum { MS_R_MAX = FR_NROOTS, MS_R_MIN, MS_NROOTS };
enum { MS_RS_IMPACT, MS_NRS };

#define MS_PARAMS(d_smax, d_smin, d_fprop, d_fc, d_fs, d_fexp, d_m, d_L, s_smax, s_smin, s_fprop, s_fc, s_fs, s_fexp, s_m, \
                  s_L)                                                                                                     \
    {"smax", FL_P_REAL, d_smax, s_smax, "m", "right stop for (right end of) sliding mass", 0, 0, 0, NULL},                \
    {"smin", FL_P_REAL, d_smin, s_smin, "m", "left stop for (left end of) sliding mass", 0, 0, 0, NULL},                  \
    {"v_small", FL_P_REAL, "1e-3", NULL, "m/s", "relative velocity near to zero (see MSL's PartialFriction)",               \
     FL_PF_MIN_EXCL, 0, 0, NULL},                                                                                          \
    {"F_prop", FL_P_REAL, d_fprop, s_fprop, "N.s/m", "velocity dependent friction", FL_PF_MIN, 0, 0, NULL},               \
    {"F_Coulomb", FL_P_REAL, d_fc, s_fc, "N", "constant friction: Coulomb force", FL_PF_MIN, 0, 0, NULL},                 \
    {"F_Stribeck", FL_P_REAL, d_fs, s_fs, "N", "Stribeck effect", FL_PF_MIN, 0, 0, NULL},                                 \
    {"fexp", FL_P_REAL, d_fexp, s_fexp, "s/m", "exponential decay", FL_PF_MIN, 0, 0, NULL},                               \
    {"m", FL_P_REAL, d_m, s_m, "kg", "mass", FL_PF_MIN, 0, 0, NULL},                                                      \
    {"L", FL_P_REAL, d_L, s_L, "m", "length of component, from left flange to right flange", FL_PF_MIN, 0, 0, NULL},      \
    PAR_USEHEATPORT

static const fl_param_def mwsf_params[] = {
    MS_PARAMS(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "25", "-25", "1", "5", "10", "2", "1", "0"),
};
static const fl_param_def stop_params[] = {
    MS_PARAMS("25", "-25", "1", "5", "10", "2", "1", "0", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    {"mode_start", FL_P_INT, "0", NULL, "", "initial sliding mode (-1 backward, 0 sticking, 1 forward)", FL_PF_MIN | FL_PF_MAX | FL_PF_INTEGER, -1, 1, NULL},
    {"coselica", FL_P_BOOL, "false", NULL, "", "Coselica's break-away: at F_Coulomb + F_Stribeck, without MSL's 0.1 % margin", 0, 0, 0, NULL},
};

#define MS_VARS                                                                                             \
    {"s", "m", "absolute position of the center of the component", FL_VF_ATTR, 0, 0},                       \
    {"v", "m/s", "absolute velocity of the component", FL_VF_ATTR, 0, 0},                                   \
    {"a", "m/s2", "absolute acceleration of the component", 0, 0, 0},                                       \
    {"f", "N", "friction force (with the stop's reaction while at a stop)", 0, 0, 0},                        \
    {"sa", "1", "path parameter of the friction characteristic", 0, 0, 0},                                  \
    {"mode", "", "-1 backward, 0 stuck, 1 forward, 2 free, 3 unknown", FL_VF_INT, 0, 0},                     \
    {"startForward", "", "true, if v = 0 and start of forward sliding", FL_VF_BOOL, 0, 0},                  \
    {"startBackward", "", "true, if v = 0 and start of backward sliding", FL_VF_BOOL, 0, 0},                \
    {"locked", "", "true, if v = 0 and not sliding", FL_VF_BOOL, 0, 0},                                      \
    {"free", "", "true, if frictionless and between the stops", FL_VF_BOOL, 0, 0},                           \
    {"stopped", "", "-1 at the left stop, 0 between the stops, +1 at the right stop", FL_VF_INT, 0, 0},      \
    {"f0", "N", "friction force for v = 0 and forward sliding", 0, 0, 0},                                    \
    {"f0_max", "N", "maximum friction force for v = 0 and locked", 0, 0, 0},                                 \
    {"lossPower", "W", "power dissipated by friction (not the stop impacts)", 0, 0, 0},                      \
    {"impactEnergy", "J", "kinetic energy lost in the last stop impact", 0, 0, 0}

static const fl_var_def mwsf_vars[] = {MS_VARS};
static const fl_var_def stop_vars[] = {
    MS_VARS,
    {"Sticking", "", "Coselica flag: sticking", FL_VF_BOOL, 0, 0},
    {"Forward", "", "Coselica flag: sliding forward", FL_VF_BOOL, 0, 0},
    {"Backward", "", "Coselica flag: sliding backward", FL_VF_BOOL, 0, 0},
    {"StartFor", "", "Coselica flag: starting forward", FL_VF_BOOL, 0, 0},
    {"StartBack", "", "Coselica flag: starting backward", FL_VF_BOOL, 0, 0},
};

static int ms_check(const fl_pctx *p, fl_diag *d)
{
    const double *par = p->par;
    if (!(par[MS_SMAX] - par[MS_SMIN] >= par[MS_L])) {
        fl_err(d, p->loc, "%s: the stops leave no room for the mass: smax - smin = %g is less than L = %g", p->inst,
               par[MS_SMAX] - par[MS_SMIN], par[MS_L]);
        return -1;
    }
    return 0;
}

static int ms_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    double L = fl_b_par(b, "L");
    fl_b_link(b, pa, pb, L, fl_b_par(b, "m"));
    fl_b_element(b, FL_GROUND, pa);
    fl_b_state(b, "s", 0, pa, FL_NOPORT, L / 2);
    fl_b_state(b, "v", 1, pa, FL_NOPORT, 0);
    return 0;
}

static double ms_f0(const double *p)
{
    return p[MS_FC] + p[MS_FS];
}

static double ms_f0max(const double *p)
{
    return p[MS_COSELICA] != 0 ? ms_f0(p) : 1.001 * ms_f0(p);
}

static void mwsf_prepare(const fl_pctx *p, double *par)
{
    par[MS_MODESTART] = 0;
    par[MS_COSELICA] = 0;
    par[MS_ISSTOP] = 0;
}

static void stop_prepare(const fl_pctx *p, double *par)
{
    par[MS_ISSTOP] = 1;
}

static void ms_quantities(const fl_ectx *x, const fl_elem *e, fl_fric *q)
{
    const double *p = x->par + e->pofs;
    const int *m = x->mode + e->mode;
    fl_fric_kin(x, e, q);
    q->fwd0 = ms_f0(p);
    q->fwdmax = ms_f0max(p);
    q->bwd0 = -q->fwd0;
    q->bwdmax = -q->fwdmax;
    q->v_small = p[MS_VSMALL];
    q->block_fwd = m[MS_M_STOPPED] == 1;
    q->block_bwd = m[MS_M_STOPPED] == -1;
    q->free = q->fwd0 <= 0 && p[MS_FPROP] <= 0 && m[MS_M_STOPPED] == 0;
}

/* centre position of the mass */
static double ms_s(const fl_ectx *x, const fl_elem *e)
{
    return fl_att_s(x, e, 1) + x->par[e->pofs + MS_L] / 2;
}

/* the friction force of the sliding branches (MSL: no Stribeck decay while starting) */
static double ms_slide(const double *p, fl_fric_branch br, int starting, double v, double *dfdv)
{
    double sg = br == FL_FB_FWD ? 1 : -1;
    if (starting) {
        *dfdv = p[MS_FPROP];
        return p[MS_FPROP] * v + sg * (p[MS_FC] + p[MS_FS]);
    }
    double ex = exp(-p[MS_FEXP] * fabs(v));
    *dfdv = p[MS_FPROP] + p[MS_FS] * p[MS_FEXP] * ex * (v >= 0 ? 1 : -1) * sg * -1;
    return p[MS_FPROP] * v + sg * (p[MS_FC] + p[MS_FS] * ex);
}

static double ms_force(const double *p, const int *m, double v, double sa, double *dfdv)
{
    fl_fric_branch br = fl_fric_branch_of(m, v);
    *dfdv = 0;
    if (br == FL_FB_LOCKED) return sa;
    if (br == FL_FB_FREE) return 0;
    int starting = br == FL_FB_FWD ? m[FR_M_SF] : m[FR_M_SB] && !m[FR_M_SF];
    return ms_slide(p, br, starting, v, dfdv);
}

static void ms_eval(fl_ectx *x, const fl_elem *e, int n)
{
    const int C = FL_J_OWN + 2;
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        const int *m = x->mode + e->mode;
        fl_fric q;
        ms_quantities(x, e, &q);
        fl_fric_branch br = fl_fric_branch_of(m, q.v);
        fl_fric_residual(x, e, br, &q, C);
        double dfdv, f = ms_force(p, m, q.v, q.sa, &dfdv);
        x->f[2 * e->idx] = -f;
        x->f[2 * e->idx + 1] = f;
        if (x->want_jac) {
            double *r0 = fl_jrow(x, e, 0, C), *r1 = fl_jrow(x, e, 1, C);
            int own = br == FL_FB_LOCKED;
            r0[FL_J_OWN] = own ? -1 : 0;
            r1[FL_J_OWN] = own ? 1 : 0;
            r0[FL_J_V1] = -dfdv;
            r0[FL_J_V0] = dfdv;
            r1[FL_J_V1] = dfdv;
            r1[FL_J_V0] = -dfdv;
        }
    }
}

static void ms_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        fl_fric q;
        ms_quantities(x, e, &q);
        fl_fric_roots(&q, x->mode + e->mode, g + e->root);
        double s = ms_s(x, e);
        g[e->root + MS_R_MAX] = s - (p[MS_SMAX] - p[MS_L] / 2);
        g[e->root + MS_R_MIN] = s - (p[MS_SMIN] + p[MS_L] / 2);
    }
}

/* s - limit > 0, decided by a crossing where it is zero to rounding */
static int above(double g, double scale, int d)
{
    if (d && fabs(g) <= 1e-12 * scale) return d > 0;
    return g > 0;
}

static int ms_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    const double *p = x->par + e->pofs;
    int *m = x->mode + e->mode;
    double L = p[MS_L], smax = p[MS_SMAX] - L / 2, smin = p[MS_SMIN] + L / 2;
    double s = ms_s(x, e), v = fl_att_v(x, e, 1);
    double scale = fabs(p[MS_SMAX]) + fabs(p[MS_SMIN]) + L + 1;
    if (!m[MS_M_CHECKED]) {
        /* the start must be between the stops, or at one moving away from it */
        if (s < smin || (s == smin && v < 0) || s > smax || (s == smax && v > 0))
            return fl_elem_fail(x,
                                "the mass starts outside its stops or moves into one: s = %g, v = %g with smin + L/2 "
                                "= %g and smax - L/2 = %g",
                                s, v, smin, smax);
        if (p[MS_ISSTOP] != 0) {
            int ms = (int)p[MS_MODESTART];
            if ((ms == 1 && !(v > 0)) || (ms == -1 && !(v < 0)) || (ms == 0 && v != 0))
                return fl_elem_fail(x,
                                    "mode_start = %d (%s) does not agree with the initial velocity v = %g (forward "
                                    "needs v > 0, backward v < 0, sticking v = 0)",
                                    ms, ms > 0 ? "forward" : ms < 0 ? "backward" : "sticking", v);
        }
        m[MS_M_CHECKED] = 1;
    }
    int stopped = !above(s - smin, scale, dir[MS_R_MIN]) ? -1 : !above(smax - s, scale, -dir[MS_R_MAX]) ? 1 : 0;
    int changed = stopped != m[MS_M_STOPPED];
    if (stopped && !m[MS_M_STOPPED]) {
        /* reinit(s, stop) and reinit(v, 0): a plastic impact of the body */
        fl_move_attachment(x, e, 1, (stopped > 0 ? smax : smin) - L / 2);
        x->rs[e->rs + MS_RS_IMPACT] = fl_impact(x, e, 0); /* attachment 0 is the ground */
    }
    m[MS_M_STOPPED] = stopped;
    fl_fric q;
    ms_quantities(x, e, &q);
    if (changed && stopped) q.v = 0; /* the velocity the reinit left */
    if (fl_fric_event(x, e, &q, dir)) changed = 1;
    return changed;
}

static void ms_init(fl_ectx *x, const fl_elem *e)
{
    const double *p = x->par + e->pofs;
    int *m = x->mode + e->mode;
    double L = p[MS_L], s = ms_s(x, e);
    m[MS_M_STOPPED] = s <= p[MS_SMIN] + L / 2 ? -1 : s >= p[MS_SMAX] - L / 2 ? 1 : 0;
    m[MS_M_CHECKED] = 0;
    fl_fric q;
    ms_quantities(x, e, &q);
    fl_fric_init(m, &q);
}

static void ms_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    for (int i = 0; i < n; i++, e++) {
        double v = fl_att_v(x, e, 1), dfdv;
        U[e->idx] = 0;
        loss[e->idx] = ms_force(x->par + e->pofs, x->mode + e->mode, v, x->y[e->own], &dfdv) * v;
    }
}

static void ms_outputs_common(const fl_octx *o, double *v)
{
    const double *p = o->par;
    const int *m = o->mode;
    double vel = o->pv[0], dfdv;
    double f = ms_force(p, m, vel, o->own[0], &dfdv);
    v[0] = o->ps[0] + p[MS_L] / 2;
    v[1] = vel;
    v[2] = o->pa[0];
    v[3] = f;
    v[4] = o->own[0];
    v[5] = m[FR_M_MODE];
    v[6] = m[FR_M_SF];
    v[7] = m[FR_M_SB];
    v[8] = m[FR_M_LOCKED];
    v[9] = m[FR_M_FREE];
    v[10] = m[MS_M_STOPPED];
    v[11] = ms_f0(p);
    v[12] = ms_f0max(p);
    v[13] = f * vel;
    v[14] = o->rs[MS_RS_IMPACT];
}

static void mwsf_outputs(const fl_octx *o, double *v)
{
    ms_outputs_common(o, v);
}

static void stop_outputs(const fl_octx *o, double *v)
{
    const int *m = o->mode;
    ms_outputs_common(o, v);
    int mode = m[FR_M_MODE], sf = m[FR_M_SF], sb = m[FR_M_SB];
    v[15] = mode == FL_FR_STUCK && !sf && !sb;
    v[16] = mode == FL_FR_FORWARD;
    v[17] = mode == FL_FR_BACKWARD;
    v[18] = mode == FL_FR_STUCK && sf;
    v[19] = mode == FL_FR_STUCK && sb;
}

static const int ms_own_diff[] = {0};
static const uint64_t ms_dep[] = {FL_BIT(FL_J_OWN) | DEP_V, FL_BIT(FL_J_OWN) | DEP_V,
                                  FL_BIT(FL_J_OWN) | FL_BIT(FL_J_A0) | FL_BIT(FL_J_A1)};

static const fl_elem_ops ms_ops = {
    .nown = 1,
    .own_diff = ms_own_diff,
    .own_names = fl_fric_own_names,
    .own_hint = fl_fric_own_hint,
    .dep = ms_dep,
    .nroots = MS_NROOTS,
    .nmodes = MS_NMODES,
    .nreal = MS_NRS,
    .eval = ms_eval,
    .roots = ms_roots,
    .event = ms_event,
    .init_modes = ms_init,
    .energy = ms_energy,
    .flags = FL_EK_IMPULSE,
};

static const fl_class cls_mwsf = {
    .path = MTC "MassWithStopAndFriction",
    .desc = "Sliding mass with hard stop and Stribeck friction",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = mwsf_params,
    .nparams = FL_N(mwsf_params),
    .nderived = 3,
    .vars = mwsf_vars,
    .nvars = FL_N(mwsf_vars),
    .check = ms_check,
    .prepare = mwsf_prepare,
    .build = ms_build,
    .elem = &ms_ops,
    .outputs = mwsf_outputs,
};

static const fl_class cls_stop = {
    .path = FLC "Stop",
    .desc = "Sliding mass with hard stops and Stribeck friction (Coselica/Xcos Stop)",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = stop_params,
    .nparams = FL_N(stop_params),
    .nderived = 1,
    .vars = stop_vars,
    .nvars = FL_N(stop_vars),
    .check = ms_check,
    .prepare = stop_prepare,
    .build = ms_build,
    .elem = &ms_ops,
    .outputs = stop_outputs,
};

const fl_class *const fl_classes_stops[] = {
    &cls_mwsf, &cls_stop, NULL,
};
