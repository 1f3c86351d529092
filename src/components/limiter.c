/* limiter.c - Flange.Components.ForceLimiter (MapleSim's Force Limiter):
 * the force f = flange_b.f = -flange_a.f transmitted between two flanges is
 * kept in the band [f_min, f_max] (parameters, or the inputs fmax/fmin).
 * Inside the band f = v_rel/dvdf (compliant, dvdf > 0) or whatever holds
 * the flanges together (ideal, dvdf = 0: a slip coupling with the
 * stick-slip logic of friction_core.c); at a limit f = limit + dfdv*(v_rel
 * - corner velocity). m and d add relative inertia and damping:
 *     f = m*a_rel + d*v_rel + f_lim(v_rel). */
#include <math.h>

#include "friction.h"
#include "laws.h"

#define FLC "Flange.Components."

static const fl_port_def lim_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    {"fmax", FL_PORT_INPUT, "useFmaxInput", 0, "N", "upper force limit (if useFmaxInput)", 0},
    {"fmin", FL_PORT_INPUT, "useFminInput", 0, "N", "lower force limit (if useFminInput)", 0},
};
static const fl_param_def lim_params[] = {
    {"useFmaxInput", FL_P_BOOL, "false", NULL, "", "true: the upper limit comes from input fmax", FL_PF_STRUCT, 0, 0, NULL},
    {"useFminInput", FL_P_BOOL, "false", NULL, "", "true: the lower limit comes from input fmin", FL_PF_STRUCT, 0, 0, NULL},
    {"f_max", FL_P_REAL, "1", NULL, "N", "maximum force (if not from input)", 0, 0, 0, NULL},
    {"f_min", FL_P_REAL, "-1", NULL, "N", "minimum force (if not from input)", 0, 0, 0, NULL},
    {"m", FL_P_REAL, "0", NULL, "kg", "relative translational inertia", FL_PF_MIN, 0, 0, NULL},
    {"d", FL_P_REAL, "0", NULL, "N.s/m", "relative translational damping constant", FL_PF_MIN, 0, 0, NULL},
    {"dfdv", FL_P_REAL, "0", NULL, "N.s/m", "slope of f versus v_rel while force limited ('df/dv')", FL_PF_MIN, 0, 0, NULL},
    {"dvdf", FL_P_REAL, "0", NULL, "m/(N.s)", "inverse slope of v_rel versus f while not limited ('dv/df'; 0: rigid)", FL_PF_MIN, 0, 0, NULL},
};
enum { LM_USEMAX, LM_USEMIN, LM_FMAX, LM_FMIN, LM_M, LM_D, LM_DFDV, LM_DVDF };
static const fl_var_def lim_vars[] = {
    {"f", "N", "force between the flanges (= flange_b.f = -flange_a.f)", 0, 0, 0},
    {"s_rel", "m", "relative distance (= flange_b.s - flange_a.s)", FL_VF_ATTR, 0, 0},
    {"v_rel", "m/s", "relative velocity (= der(s_rel))", FL_VF_ATTR, 0, 0},
    {"s", "", "curve parameter of the force-velocity characteristic", 0, 0, 0},
    {"f_lim", "N", "the limiter part of f (without m*a_rel + d*v_rel)", 0, 0, 0},
    {"limit", "", "+1 limited at the maximum, 0 not limited, -1 limited at the minimum", FL_VF_INT, 0, 0},
    {"lossPower", "W", "dissipated power (f_lim + d*v_rel)*v_rel", 0, 0, 0},
    {"mode", "", "ideal limiter: -1 slipping backward, 0 stuck, 1 slipping forward (MSL encoding)", FL_VF_INT, 0, 0},
    {"startForward", "", "ideal limiter: start of forward slip", FL_VF_BOOL, 0, 0},
    {"startBackward", "", "ideal limiter: start of backward slip", FL_VF_BOOL, 0, 0},
};

/* the internal reversal threshold of the ideal limiter (MSL's v_small) */
#define LM_VSMALL 1e-3

/* discrete states: ideal: the friction ones then checked; compliant: limit, checked */
enum { LI_M_CHECKED = FR_NMODES, LI_NMODES };
enum { LC_M_LIMIT, LC_M_CHECKED, LC_NMODES };
/* roots: ideal: the friction ones then the crossing of the limits;
 * compliant: the two corners then the crossing of the limits */
enum { LI_R_CROSS = FR_NROOTS, LI_NROOTS };
enum { LC_R_V1, LC_R_V2, LC_R_CROSS, LC_NROOTS };

static int lim_check(const fl_pctx *p, fl_diag *d)
{
    const double *par = p->par;
    if (par[LM_USEMAX] == 0 && par[LM_USEMIN] == 0 && !(par[LM_FMAX] >= par[LM_FMIN])) {
        fl_err(d, p->loc, "%s: f_max (%g) must not be less than f_min (%g)", p->inst, par[LM_FMAX], par[LM_FMIN]);
        return -1;
    }
    if ((par[LM_USEMAX] == 0 && par[LM_FMAX] < 0) || (par[LM_USEMIN] == 0 && par[LM_FMIN] > 0))
        fl_warn(d, p->loc, "%s: the force band [%g, %g] does not contain 0, so the limiter drives the motion", p->inst,
                par[LM_USEMIN] != 0 ? NAN : par[LM_FMIN], par[LM_USEMAX] != 0 ? NAN : par[LM_FMAX]);
    return 0;
}

static int lim_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    fl_b_element(b, pa, pb);
    fl_b_state(b, "s_rel", 0, pb, pa, 0);
    fl_b_state(b, "v_rel", 1, pb, pa, 0);
    return 0;
}

static double lim_f1(const double *p, const double *u)
{
    return p[LM_USEMAX] != 0 ? u[0] : p[LM_FMAX];
}

static double lim_f2(const double *p, const double *u)
{
    return p[LM_USEMIN] != 0 ? u[1] : p[LM_FMIN];
}

/* the limits from inputs must not cross: checked at the start and at
 * every crossing of f1 - f2 */
static int lim_limits_ok(fl_ectx *x, const fl_elem *e, int *checked, int dir)
{
    const double *p = x->par + e->pofs, *u = x->u + e->sig;
    double f1 = lim_f1(p, u), f2 = lim_f2(p, u);
    if (!(f1 >= f2) || (dir < 0 && f1 == f2))
        return fl_elem_fail(x, "the force limits cross: the maximum %g is less than the minimum %g", f1, f2);
    *checked = 1;
    return 0;
}

/* ---- ideal (dvdf = 0): slip coupling ------------------------------------ */

static void li_quantities(const fl_ectx *x, const fl_elem *e, fl_fric *q)
{
    const double *p = x->par + e->pofs, *u = x->u + e->sig;
    fl_fric_kin(x, e, q);
    q->fwd0 = q->fwdmax = lim_f1(p, u);
    q->bwd0 = q->bwdmax = lim_f2(p, u);
    q->v_small = LM_VSMALL;
    q->free = 0;
    q->block_fwd = q->block_bwd = 0;
}

static double li_flim(const double *p, const double *u, fl_fric_branch br, double v, double sa)
{
    if (br == FL_FB_LOCKED) return sa;
    return (br == FL_FB_FWD ? lim_f1(p, u) : lim_f2(p, u)) + p[LM_DFDV] * v;
}

static void li_eval(fl_ectx *x, const fl_elem *e, int n)
{
    const int C = FL_J_OWN + 4, IN = FL_J_OWN + 2;
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs, *u = x->u + e->sig;
        fl_fric q;
        li_quantities(x, e, &q);
        fl_fric_branch br = fl_fric_branch_of(x->mode + e->mode, q.v);
        fl_fric_residual(x, e, br, &q, C);
        double f = p[LM_M] * q.a + p[LM_D] * q.v + li_flim(p, u, br, q.v, q.sa);
        x->f[2 * e->idx] = -f;
        x->f[2 * e->idx + 1] = f;
        if (x->want_jac) {
            double *r0 = fl_jrow(x, e, 0, C), *r1 = fl_jrow(x, e, 1, C), *r2 = fl_jrow(x, e, 2, C);
            int own = br == FL_FB_LOCKED;
            double dfdv = p[LM_D] + (own ? 0 : p[LM_DFDV]);
            /* inputs: the limit of the slip direction enters f and the path equation */
            int in = br == FL_FB_FWD ? (p[LM_USEMAX] != 0 ? 0 : -1) : br == FL_FB_BWD ? (p[LM_USEMIN] != 0 ? 1 : -1) : -1;
            double rows[2] = {-1, 1};
            double *r[2] = {r0, r1};
            for (int j = 0; j < 2; j++) {
                r[j][FL_J_OWN] = own ? rows[j] : 0;
                r[j][FL_J_V1] = rows[j] * dfdv;
                r[j][FL_J_V0] = -rows[j] * dfdv;
                r[j][FL_J_A1] = rows[j] * p[LM_M];
                r[j][FL_J_A0] = -rows[j] * p[LM_M];
                if (in >= 0) r[j][IN + in] = rows[j];
            }
            if (in >= 0) r2[IN + in] = 1;
        }
    }
}

static void li_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs, *u = x->u + e->sig;
        fl_fric q;
        li_quantities(x, e, &q);
        fl_fric_roots(&q, x->mode + e->mode, g + e->root);
        g[e->root + LI_R_CROSS] = lim_f1(p, u) - lim_f2(p, u);
    }
}

static int li_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    int *m = x->mode + e->mode;
    if (!m[LI_M_CHECKED] || dir[LI_R_CROSS]) {
        if (lim_limits_ok(x, e, &m[LI_M_CHECKED], dir[LI_R_CROSS])) return -1;
    }
    fl_fric q;
    li_quantities(x, e, &q);
    return fl_fric_event(x, e, &q, dir);
}

static void li_init(fl_ectx *x, const fl_elem *e)
{
    fl_fric q;
    li_quantities(x, e, &q);
    fl_fric_init(x->mode + e->mode, &q);
    x->mode[e->mode + LI_M_CHECKED] = 0;
}

/* ---- compliant (dvdf > 0): explicit characteristic ---------------------- */

static double lc_flim(const double *p, const double *u, int limit, double v, double *dfdv)
{
    double f1 = lim_f1(p, u), f2 = lim_f2(p, u), k = p[LM_DVDF];
    if (limit > 0) {
        *dfdv = p[LM_DFDV];
        return f1 + p[LM_DFDV] * (v - k * f1);
    }
    if (limit < 0) {
        *dfdv = p[LM_DFDV];
        return f2 + p[LM_DFDV] * (v - k * f2);
    }
    *dfdv = 1 / k;
    return v / k;
}

static void lc_eval(fl_ectx *x, const fl_elem *e, int n)
{
    const int C = FL_J_OWN + 2, IN = FL_J_OWN;
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs, *u = x->u + e->sig;
        int limit = x->mode[e->mode + LC_M_LIMIT];
        double v = fl_vrel(x, e), a = fl_att_a(x, e, 1) - fl_att_a(x, e, 0), dl;
        double f = p[LM_M] * a + p[LM_D] * v + lc_flim(p, u, limit, v, &dl);
        x->f[2 * e->idx] = -f;
        x->f[2 * e->idx + 1] = f;
        if (x->want_jac) {
            double *r[2] = {fl_jrow(x, e, 0, C), fl_jrow(x, e, 1, C)};
            double rows[2] = {-1, 1};
            /* d f_lim / d limit = 1 - dfdv*dvdf at that limit */
            int in = limit > 0 ? (p[LM_USEMAX] != 0 ? 0 : -1) : limit < 0 ? (p[LM_USEMIN] != 0 ? 1 : -1) : -1;
            for (int j = 0; j < 2; j++) {
                r[j][FL_J_V1] = rows[j] * (p[LM_D] + dl);
                r[j][FL_J_V0] = -rows[j] * (p[LM_D] + dl);
                if (p[LM_M] != 0) {
                    r[j][FL_J_A1] = rows[j] * p[LM_M];
                    r[j][FL_J_A0] = -rows[j] * p[LM_M];
                }
                if (in >= 0) r[j][IN + in] = rows[j] * (1 - p[LM_DFDV] * p[LM_DVDF]);
            }
        }
    }
}

static void lc_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs, *u = x->u + e->sig;
        double v = fl_vrel(x, e), f1 = lim_f1(p, u), f2 = lim_f2(p, u);
        g[e->root + LC_R_V1] = v - p[LM_DVDF] * f1;
        g[e->root + LC_R_V2] = v - p[LM_DVDF] * f2;
        g[e->root + LC_R_CROSS] = f1 - f2;
    }
}

static int lc_limit(const fl_ectx *x, const fl_elem *e, const int *dir)
{
    const double *p = x->par + e->pofs, *u = x->u + e->sig;
    double v = fl_vrel(x, e), g1 = v - p[LM_DVDF] * lim_f1(p, u), g2 = v - p[LM_DVDF] * lim_f2(p, u);
    if (fl_rel_gt(g1, dir ? dir[LC_R_V1] : 0)) return 1;
    if (fl_rel_gt(-g2, dir ? -dir[LC_R_V2] : 0)) return -1;
    return 0;
}

static int lc_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    int *m = x->mode + e->mode;
    if (!m[LC_M_CHECKED] || dir[LC_R_CROSS]) {
        if (lim_limits_ok(x, e, &m[LC_M_CHECKED], dir[LC_R_CROSS])) return -1;
    }
    int limit = lc_limit(x, e, dir);
    if (limit == m[LC_M_LIMIT]) return 0;
    m[LC_M_LIMIT] = limit;
    return 1;
}

static void lc_init(fl_ectx *x, const fl_elem *e)
{
    x->mode[e->mode + LC_M_LIMIT] = lc_limit(x, e, NULL);
    x->mode[e->mode + LC_M_CHECKED] = 0;
}

/* ---- both ---------------------------------------------------------------- */

static double lim_flim(const double *par, const double *u, const int *m, double v, double sa, int *limit)
{
    double dl;
    if (par[LM_DVDF] > 0) {
        *limit = m[LC_M_LIMIT];
        return lc_flim(par, u, *limit, v, &dl);
    }
    fl_fric_branch br = fl_fric_branch_of(m, v);
    *limit = br == FL_FB_FWD ? 1 : br == FL_FB_BWD ? -1 : 0;
    return li_flim(par, u, br, v, sa);
}

static void lim_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        double v = fl_vrel(x, e);
        int limit;
        double fl = lim_flim(p, x->u + e->sig, x->mode + e->mode, v, e->own >= 0 ? x->y[e->own] : 0, &limit);
        U[e->idx] = 0.5 * p[LM_M] * v * v;
        loss[e->idx] = (fl + p[LM_D] * v) * v;
    }
}

void fl_limiter_outputs(const fl_octx *o, double *v)
{
    const double *p = o->par;
    double vr = o->pv[1] - o->pv[0], ar = o->pa[1] - o->pa[0];
    int limit, ideal = !(p[LM_DVDF] > 0);
    double fl = lim_flim(p, o->u, o->mode, vr, ideal ? o->own[0] : 0, &limit);
    double f1 = lim_f1(p, o->u), f2 = lim_f2(p, o->u), k = p[LM_DVDF];
    v[0] = p[LM_M] * ar + p[LM_D] * vr + fl;
    v[1] = o->ps[1] - o->ps[0];
    v[2] = vr;
    /* curve parameter: the force inside the band, limit + velocity offset outside */
    v[3] = limit > 0 ? f1 + (vr - k * f1) : limit < 0 ? f2 + (vr - k * f2) : fl;
    v[4] = fl;
    v[5] = limit;
    v[6] = (fl + p[LM_D] * vr) * vr;
    v[7] = ideal ? o->mode[FR_M_MODE] : limit;
    v[8] = ideal ? o->mode[FR_M_SF] : 0;
    v[9] = ideal ? o->mode[FR_M_SB] : 0;
}

static const int li_own_diff[] = {0};
#define LM_IN (FL_BIT(FL_J_OWN + 2) | FL_BIT(FL_J_OWN + 3))
static const uint64_t li_dep[] = {
    FL_BIT(FL_J_OWN) | DEP_V | FL_BIT(FL_J_A0) | FL_BIT(FL_J_A1) | LM_IN,
    FL_BIT(FL_J_OWN) | DEP_V | FL_BIT(FL_J_A0) | FL_BIT(FL_J_A1) | LM_IN,
    FL_BIT(FL_J_OWN) | FL_BIT(FL_J_A0) | FL_BIT(FL_J_A1) | LM_IN,
};
#define LC_IN (FL_BIT(FL_J_OWN) | FL_BIT(FL_J_OWN + 1))
static const uint64_t lc_dep[] = {DEP_V | LC_IN, DEP_V | LC_IN};
static const uint64_t lcm_dep[] = {DEP_V | FL_BIT(FL_J_A0) | FL_BIT(FL_J_A1) | LC_IN,
                                   DEP_V | FL_BIT(FL_J_A0) | FL_BIT(FL_J_A1) | LC_IN};

const fl_elem_ops fl_limiter_ops = {
    .nown = 1,
    .own_diff = li_own_diff,
    .own_names = fl_fric_own_names,
    .own_hint = fl_fric_own_hint,
    .nin = 2,
    .dep = li_dep,
    .nroots = LI_NROOTS,
    .nmodes = LI_NMODES,
    .eval = li_eval,
    .roots = li_roots,
    .event = li_event,
    .init_modes = li_init,
    .energy = lim_energy,
};
/* compliant, without (lc) and with (lcm) relative inertia */
static const fl_elem_ops lc_ops = {
    .nin = 2,
    .dep = lc_dep,
    .nroots = LC_NROOTS,
    .nmodes = LC_NMODES,
    .eval = lc_eval,
    .roots = lc_roots,
    .event = lc_event,
    .init_modes = lc_init,
    .energy = lim_energy,
};
static const fl_elem_ops lcm_ops = {
    .nin = 2,
    .dep = lcm_dep,
    .nroots = LC_NROOTS,
    .nmodes = LC_NMODES,
    .eval = lc_eval,
    .roots = lc_roots,
    .event = lc_event,
    .init_modes = lc_init,
    .energy = lim_energy,
};

const fl_elem_ops *fl_limiter_select(const double *par)
{
    if (!(par[LM_DVDF] > 0)) return &fl_limiter_ops;
    return par[LM_M] > 0 ? &lcm_ops : &lc_ops;
}

static const fl_class cls_limiter = {
    .path = FLC "ForceLimiter",
    .desc = "Limits the force transmitted between two flanges (MapleSim Force Limiter)",
    .ports = lim_ports,
    .nports = FL_N(lim_ports),
    .params = lim_params,
    .nparams = FL_N(lim_params),
    .vars = lim_vars,
    .nvars = FL_N(lim_vars),
    .check = lim_check,
    .build = lim_build,
    .elem = &fl_limiter_ops,
    .elem_for = fl_limiter_select,
    .outputs = fl_limiter_outputs,
};

const fl_class *const fl_classes_limiter[] = {
    &cls_limiter, NULL,
};
