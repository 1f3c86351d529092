/* sources.c - force sources of Modelica.Mechanics.Translational.Sources:
 * Force, Force2, ConstantForce, ForceStep, SignForce and the linear,
 * quadratic and inverse speed-dependent forces. Each is a force element
 * between its support (attachment 0; ground when useSupport = false) and
 * its flange (attachment 1): flange.f = f, support.f = -f. */
#include <math.h>

#include "common.h"
#include "laws.h"

#define MTS "Modelica.Mechanics.Translational.Sources."

static const fl_port_def force_ports[] = {
    PORT_FLANGE,
    PORT_SUPPORT,
    {"f", FL_PORT_INPUT, NULL, 0, "N", "driving force as input signal", 0},
};
static const fl_port_def pforce_ports[] = {PORT_FLANGE, PORT_SUPPORT};

static int source_build(fl_builder *b)
{
    int fl = fl_b_port(b, "flange"), sp = fl_b_port(b, "support");
    fl_b_element(b, sp, fl);
    return 0;
}

/* ---- Force ------------------------------------------------------------- */

static const fl_param_def force_params[] = {PAR_USESUPPORT};
static const fl_var_def force_vars[] = {
    {"s", "m", "distance between flange and support (= flange.s - support.s)", 0, 0, 0},
};
/* input column: FL_J_OWN (no own unknowns) */
static const uint64_t dep_u[] = {FL_BIT(FL_J_OWN), FL_BIT(FL_J_OWN)};

static void force_eval(fl_ectx *x, const fl_elem *e, int n)
{
    for (int i = 0; i < n; i++, e++) {
        double u = x->u[e->sig];
        x->f[2 * e->idx] = u; /* support.f */
        x->f[2 * e->idx + 1] = -u; /* flange.f: the source pushes the flange with +u */
        if (x->want_jac) {
            fl_jrow(x, e, 0, FL_J_OWN + 1)[FL_J_OWN] = 1;
            fl_jrow(x, e, 1, FL_J_OWN + 1)[FL_J_OWN] = -1;
        }
    }
}

static void s_output(const fl_octx *o, double *v)
{
    v[0] = o->ps[0] - o->ps[1];
}

const fl_elem_ops fl_force_ops = {
    .nin = 1,
    .dep = dep_u,
    .eval = force_eval,
    .flags = FL_EK_SOURCE,
};
static const fl_class cls_force = {
    .path = MTS "Force",
    .desc = "External force acting on a drive train element as input signal",
    .ports = force_ports,
    .nports = FL_N(force_ports),
    .params = force_params,
    .nparams = FL_N(force_params),
    .vars = force_vars,
    .nvars = FL_N(force_vars),
    .build = source_build,
    .elem = &fl_force_ops,
    .outputs = s_output,
};

/* ---- Force2 ------------------------------------------------------------ */

static const fl_port_def force2_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    {"f", FL_PORT_INPUT, NULL, 0, "N", "driving force as input signal", 0},
};

static int force2_build(fl_builder *b)
{
    fl_b_element(b, fl_b_port(b, "flange_a"), fl_b_port(b, "flange_b"));
    return 0;
}

static const fl_class cls_force2 = {
    .path = MTS "Force2",
    .desc = "Input signal acting as torque on two flanges",
    .ports = force2_ports,
    .nports = FL_N(force2_ports),
    .build = force2_build,
    .elem = &fl_force_ops,
};

/* ---- PartialForce-based sources: f = flange.f given by a law ---------- */

/* The law: f (= flange.f) as a function of t, v = der(s); df/dv. */
typedef double (*force_law)(const fl_ectx *x, const fl_elem *e, const double *p, double v, double *dfdv);

static void law_eval(fl_ectx *x, const fl_elem *e, int n, force_law law)
{
    for (int i = 0; i < n; i++, e++) {
        double dfdv = 0;
        double f = law(x, e, x->par + e->pofs, fl_vrel(x, e), &dfdv);
        fl_compliant_out(x, e, f, 0, dfdv);
    }
}

static const fl_var_def fsv_vars[] = {
    {"f", "N", "accelerating force acting at flange (= flange.f)", 0, 0, 0},
    {"s", "m", "distance between flange and support (= flange.s - support.s)", 0, 0, 0},
};
static const fl_var_def fsvv_vars[] = {
    {"f", "N", "accelerating force acting at flange (= flange.f)", 0, 0, 0},
    {"s", "m", "distance between flange and support (= flange.s - support.s)", 0, 0, 0},
    {"v", "m/s", "velocity of flange with respect to support (= der(s))", 0, 0, 0},
};

static void fs_outputs(const fl_octx *o, double *v)
{
    v[0] = o->pf[0];
    v[1] = o->ps[0] - o->ps[1];
}

static void fsv_outputs(const fl_octx *o, double *v)
{
    v[0] = o->pf[0];
    v[1] = o->ps[0] - o->ps[1];
    v[2] = o->pv[0] - o->pv[1];
}

static const uint64_t dep_none[] = {0, 0};

/* ConstantForce */
static const fl_param_def cf_params[] = {
    {"f_constant", FL_P_REAL, NULL, NULL, "N", "nominal force (if negative, force is acting as load)", 0, 0, 0, NULL},
    PAR_USESUPPORT,
};

static double cf_law(const fl_ectx *x, const fl_elem *e, const double *p, double v, double *dfdv)
{
    FL_UNUSED(x);
    FL_UNUSED(e);
    FL_UNUSED(v);
    *dfdv = 0;
    return -p[0];
}

static void cf_eval(fl_ectx *x, const fl_elem *e, int n)
{
    law_eval(x, e, n, cf_law);
}

const fl_elem_ops fl_constantforce_ops = {
    .dep = dep_none,
    .eval = cf_eval,
    .flags = FL_EK_SOURCE | FL_EK_COMPLIANT,
};
static const fl_class cls_constantforce = {
    .path = MTS "ConstantForce",
    .desc = "Constant force, not dependent on speed",
    .ports = pforce_ports,
    .nports = FL_N(pforce_ports),
    .params = cf_params,
    .nparams = FL_N(cf_params),
    .vars = fsv_vars,
    .nvars = FL_N(fsv_vars),
    .build = source_build,
    .elem = &fl_constantforce_ops,
    .outputs = fs_outputs,
};

/* ForceStep */
static const fl_param_def fstep_params[] = {
    {"stepForce", FL_P_REAL, NULL, "1", "N", "height of force step (if negative, force is acting as load)", 0, 0, 0, NULL},
    {"offsetForce", FL_P_REAL, NULL, "0", "N", "offset of force", 0, 0, 0, NULL},
    {"startTime", FL_P_REAL, "0", NULL, "s", "force = offset for time < startTime", 0, 0, 0, NULL},
    PAR_USESUPPORT,
};

static double fstep_law(const fl_ectx *x, const fl_elem *e, const double *p, double v, double *dfdv)
{
    FL_UNUSED(e);
    FL_UNUSED(v);
    *dfdv = 0;
    return -p[1] - (fl_time_before(x, p[2]) ? 0 : p[0]);
}

static void fstep_eval(fl_ectx *x, const fl_elem *e, int n)
{
    law_eval(x, e, n, fstep_law);
}

static double fstep_next(const double *par, const fl_elem *e, double t)
{
    double T = par[e->pofs + 2];
    return T > t ? T : INFINITY;
}

const fl_elem_ops fl_forcestep_ops = {
    .dep = dep_none,
    .eval = fstep_eval,
    .next_time_event = fstep_next,
    .flags = FL_EK_SOURCE | FL_EK_COMPLIANT,
};
static const fl_class cls_forcestep = {
    .path = MTS "ForceStep",
    .desc = "Force step",
    .ports = pforce_ports,
    .nports = FL_N(pforce_ports),
    .params = fstep_params,
    .nparams = FL_N(fstep_params),
    .vars = fsv_vars,
    .nvars = FL_N(fsv_vars),
    .build = source_build,
    .elem = &fl_forcestep_ops,
    .outputs = fs_outputs,
};

/* SignForce: f = -f_nominal * (regularised sign of v) */
enum { REG_EXP = 1, REG_SINE, REG_LINEAR, REG_COSINE };
static const fl_param_def sign_params[] = {
    {"f_nominal", FL_P_REAL, NULL, NULL, "N", "nominal force (if negative, force is acting as load)", 0, 0, 0, NULL},
    {"reg", FL_P_ENUM, "Modelica.Blocks.Types.Regularization.Exp", NULL, "", "type of regularization", FL_PF_STRUCT, 0, 0,
     "Modelica.Blocks.Types.Regularization"},
    {"v0", FL_P_REAL, NULL, "0.1", "m/s", "regularization below v0", FL_PF_MIN_EXCL, 0, 0, NULL},
    PAR_USESUPPORT,
};

/* The relation abs(v) >= v0 at an event, with roots g0 = v - v0 and
 * g1 = v + v0: a crossing at this instant decides it by its direction
 * (at the crossing v is numerically equal to +-v0). */
static int abs_ge(double v, double v0, const int *dir)
{
    if (dir[0]) return dir[0] > 0;
    if (dir[1]) return dir[1] < 0;
    return fabs(v) >= v0;
}

/* sign(v) regularised; *dr = derivative. `sat` is the frozen value of
 * abs(v) >= v0 for the event-generating variants (Linear, Cosine). */
static double regsign(int reg, double v, double v0, int sat, double *dr)
{
    const double pi = 3.14159265358979323846;
    switch (reg) {
    case REG_EXP: {
        double k = 0.01 * v0, z = v / k;
        double sig = z >= 0 ? 1 / (1 + exp(-z)) : exp(z) / (1 + exp(z));
        *dr = 2 * sig * (1 - sig) / k;
        return 2 * sig - 1;
    }
    case REG_SINE:
        if (fabs(v) >= v0) {
            *dr = 0;
            return v > 0 ? 1 : -1;
        }
        *dr = pi / (2 * v0) * cos(pi / 2 * v / v0);
        return sin(pi / 2 * v / v0);
    case REG_LINEAR:
        if (sat) {
            *dr = 0;
            return v > 0 ? 1 : v < 0 ? -1 : 0;
        }
        *dr = 1 / v0;
        return v / v0;
    default: /* Cosine */
        if (sat) {
            *dr = 0;
            return v > 0 ? 1 : v < 0 ? -1 : 0;
        }
        *dr = (v > 0 ? 1 : v < 0 ? -1 : 0) * pi / (2 * v0) * sin(pi / 2 * v / v0);
        return (v > 0 ? 1 : v < 0 ? -1 : 0) * (1 - cos(pi / 2 * v / v0));
    }
}

static double sign_law(const fl_ectx *x, const fl_elem *e, const double *p, double v, double *dfdv)
{
    double dr;
    double r = regsign((int)p[1], v, p[2], x->mode[e->mode], &dr);
    *dfdv = -p[0] * dr;
    return -p[0] * r;
}

static void sign_eval(fl_ectx *x, const fl_elem *e, int n)
{
    law_eval(x, e, n, sign_law);
}

static int reg_has_events(const double *p)
{
    return (int)p[1] == REG_LINEAR || (int)p[1] == REG_COSINE;
}

/* roots of |v| >= v0: v - v0 and v + v0 */
static void sign_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        double v = fl_vrel(x, e);
        g[e->root] = reg_has_events(p) ? v - p[2] : 1;
        g[e->root + 1] = reg_has_events(p) ? v + p[2] : 1;
    }
}

static int sign_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    const double *p = x->par + e->pofs;
    if (!reg_has_events(p)) return 0;
    int sat = abs_ge(fl_vrel(x, e), p[2], dir);
    if (sat == x->mode[e->mode]) return 0;
    x->mode[e->mode] = sat;
    return 1;
}

static const int no_dir[2] = {0, 0};

static void sign_init(fl_ectx *x, const fl_elem *e)
{
    x->mode[e->mode] = 0;
    sign_event(x, e, no_dir);
}

static const uint64_t dep_v[] = {DEP_V, DEP_V};
const fl_elem_ops fl_signforce_ops = {
    .nroots = 2,
    .nmodes = 1,
    .dep = dep_v,
    .eval = sign_eval,
    .roots = sign_roots,
    .event = sign_event,
    .init_modes = sign_init,
    .flags = FL_EK_SOURCE | FL_EK_COMPLIANT,
};
static const fl_class cls_signforce = {
    .path = MTS "SignForce",
    .desc = "Constant force changing sign with speed",
    .ports = pforce_ports,
    .nports = FL_N(pforce_ports),
    .params = sign_params,
    .nparams = FL_N(sign_params),
    .vars = fsvv_vars,
    .nvars = FL_N(fsvv_vars),
    .build = source_build,
    .elem = &fl_signforce_ops,
    .outputs = fsv_outputs,
};

/* Linear / quadratic / inverse speed dependent forces */
static const fl_param_def lin_params[] = {
    {"f_nominal", FL_P_REAL, NULL, NULL, "N", "nominal force (if negative, force is acting as load)", 0, 0, 0, NULL},
    {"ForceDirection", FL_P_BOOL, "true", NULL, "", "same direction of force in both directions of movement", FL_PF_STRUCT, 0, 0, NULL},
    {"v_nominal", FL_P_REAL, NULL, NULL, "m/s", "nominal speed", FL_PF_MIN_EXCL, 0, 0, NULL},
    PAR_USESUPPORT,
};

static double lin_law(const fl_ectx *x, const fl_elem *e, const double *p, double v, double *dfdv)
{
    FL_UNUSED(x);
    FL_UNUSED(e);
    double fn = p[0], vn = p[2];
    if (p[1] != 0) {
        *dfdv = -fn * (v > 0 ? 1 : v < 0 ? -1 : 0) / vn;
        return -fn * fabs(v / vn);
    }
    *dfdv = -fn / vn;
    return -fn * v / vn;
}

static void lin_eval(fl_ectx *x, const fl_elem *e, int n)
{
    law_eval(x, e, n, lin_law);
}

const fl_elem_ops fl_linforce_ops = {
    .dep = dep_v,
    .eval = lin_eval,
    .flags = FL_EK_SOURCE | FL_EK_COMPLIANT,
};
static const fl_class cls_linforce = {
    .path = MTS "LinearSpeedDependentForce",
    .desc = "Linear dependency of force versus speed",
    .ports = pforce_ports,
    .nports = FL_N(pforce_ports),
    .params = lin_params,
    .nparams = FL_N(lin_params),
    .vars = fsvv_vars,
    .nvars = FL_N(fsvv_vars),
    .build = source_build,
    .elem = &fl_linforce_ops,
    .outputs = fsv_outputs,
};

static double quad_law(const fl_ectx *x, const fl_elem *e, const double *p, double v, double *dfdv)
{
    FL_UNUSED(x);
    FL_UNUSED(e);
    double fn = p[0], vn = p[2], r = v / vn;
    if (p[1] != 0) {
        *dfdv = -fn * 2 * r / vn;
        return -fn * r * r;
    }
    /* smooth(1, ...): continuously differentiable at v = 0, no event */
    *dfdv = -fn * 2 * fabs(r) / vn;
    return v >= 0 ? -fn * r * r : fn * r * r;
}

static void quad_eval(fl_ectx *x, const fl_elem *e, int n)
{
    law_eval(x, e, n, quad_law);
}

const fl_elem_ops fl_quadforce_ops = {
    .dep = dep_v,
    .eval = quad_eval,
    .flags = FL_EK_SOURCE | FL_EK_COMPLIANT,
};
static const fl_class cls_quadforce = {
    .path = MTS "QuadraticSpeedDependentForce",
    .desc = "Quadratic dependency of force versus speed",
    .ports = pforce_ports,
    .nports = FL_N(pforce_ports),
    .params = lin_params,
    .nparams = FL_N(lin_params),
    .vars = fsvv_vars,
    .nvars = FL_N(fsvv_vars),
    .build = source_build,
    .elem = &fl_quadforce_ops,
    .outputs = fsv_outputs,
};

static const fl_param_def inv_params[] = {
    {"f_nominal", FL_P_REAL, NULL, NULL, "N", "nominal force (if negative, force is acting as load)", 0, 0, 0, NULL},
    {"ForceDirection", FL_P_BOOL, "true", NULL, "", "same direction of force in both directions of movement", FL_PF_STRUCT, 0, 0, NULL},
    {"v_nominal", FL_P_REAL, NULL, NULL, "m/s", "nominal speed", FL_PF_MIN_EXCL, 0, 0, NULL},
    {"v0", FL_P_REAL, NULL, "0.1", "m/s", "regularization below v0", FL_PF_MIN_EXCL, 0, 0, NULL},
    PAR_USESUPPORT,
};

/* mode = value of the relation abs(v) < v0, frozen between events */
static double inv_law(const fl_ectx *x, const fl_elem *e, const double *p, double v, double *dfdv)
{
    double fn = p[0], vn = p[2], v0 = p[3];
    int low = x->mode[e->mode];
    if (p[1] != 0) {
        if (low) {
            *dfdv = 0;
            return -fn * vn / v0;
        }
        double av = fabs(v);
        *dfdv = fn * vn * (v > 0 ? 1 : -1) / (av * av);
        return -fn * vn / av;
    }
    if (low) {
        *dfdv = -fn / v0;
        return -fn * v / v0;
    }
    *dfdv = fn * vn / (v * v);
    return -fn * vn / v;
}

static void inv_eval(fl_ectx *x, const fl_elem *e, int n)
{
    law_eval(x, e, n, inv_law);
}

static void inv_roots(const fl_ectx *x, const fl_elem *e, int n, double *g)
{
    for (int i = 0; i < n; i++, e++) {
        double v = fl_vrel(x, e), v0 = x->par[e->pofs + 3];
        g[e->root] = v - v0;
        g[e->root + 1] = v + v0;
    }
}

static int inv_event(fl_ectx *x, const fl_elem *e, const int *dir)
{
    int low = !abs_ge(fl_vrel(x, e), x->par[e->pofs + 3], dir);
    if (low == x->mode[e->mode]) return 0;
    x->mode[e->mode] = low;
    return 1;
}

static void inv_init(fl_ectx *x, const fl_elem *e)
{
    x->mode[e->mode] = 1;
    inv_event(x, e, no_dir);
}

const fl_elem_ops fl_invforce_ops = {
    .nroots = 2,
    .nmodes = 1,
    .dep = dep_v,
    .eval = inv_eval,
    .roots = inv_roots,
    .event = inv_event,
    .init_modes = inv_init,
    .flags = FL_EK_SOURCE | FL_EK_COMPLIANT,
};
static const fl_class cls_invforce = {
    .path = MTS "InverseSpeedDependentForce",
    .desc = "Inverse dependency of force versus speed",
    .ports = pforce_ports,
    .nports = FL_N(pforce_ports),
    .params = inv_params,
    .nparams = FL_N(inv_params),
    .vars = fsvv_vars,
    .nvars = FL_N(fsvv_vars),
    .build = source_build,
    .elem = &fl_invforce_ops,
    .outputs = fsv_outputs,
};

const fl_class *const fl_classes_sources[] = {
    &cls_force,   &cls_force2,    &cls_constantforce, &cls_forcestep, &cls_signforce,
    &cls_linforce, &cls_quadforce, &cls_invforce,      NULL,
};
