/* rot_stops.c - flange's own stops and limiter on a shaft:
 * Flange.Components.RotationalHardStop (Simscape "Rotational Hard Stop"),
 * SymmetricRotationalHardStop and TorqueLimiter (MapleSim "Torque
 * Limiter"). Each is its translational twin (HardStop, SymmetricHardStop,
 * ForceLimiter) with angle phi for position, torque tau for force and the
 * moment of inertia for mass: the element operations and outputs are
 * theirs (laws.h), with the parameters in the same order; only the names,
 * units, descriptions and the checks' messages are written here. Impacts
 * (RESTITUTION) use fl_impact, which takes J as the mass. */
#include <math.h>

#include "common.h"
#include "laws.h"

#define FLC "Flange.Components."

#define PAR_PHINOM {"phi_nominal", FL_P_REAL, "1e-4", NULL, "rad", "nominal value of phi_rel (scaling)", FL_PF_MIN_EXCL, 0, 0, NULL}

/* ======================================================================
 * SymmetricRotationalHardStop: the law of SymmetricHardStop
 * ====================================================================== */

static const fl_port_def two_ports[] = {
    {"flange_a", FL_PORT_FLANGE, NULL, 0, "", "shaft at the centre of the clearance", 1},
    {"flange_b", FL_PORT_FLANGE, NULL, 0, "", "shaft that turns between the stops", 1},
};

/* order of SymmetricHardStop: b, c, d, stateSelect, s_nominal */
static const fl_param_def srhs_params[] = {
    {"b", FL_P_REAL, "1", NULL, "rad", "angle between the stops (total clearance; the stops are at phi_rel = -b/2 and +b/2)",
     0, 0, 0, NULL},
    {"c", FL_P_REAL, "1e10", NULL, "N.m/rad", "contact spring constant", FL_PF_MIN, 0, 0, NULL},
    {"d", FL_P_REAL, "1e10", NULL, "N.m.s/rad", "contact damping constant", FL_PF_MIN, 0, 0, NULL},
    PAR_STATESELECT("StateSelect.prefer"),
    PAR_PHINOM,
};
static const fl_var_def srhs_vars[] = {
    {"tau", "N.m", "torque at flange_b (= flange_b.tau = -flange_a.tau)", 0, 0, 0},
    {"phi_rel", "rad", "relative rotation angle (= flange_b.phi - flange_a.phi)", FL_VF_ATTR, 0, 0},
    {"w_rel", "rad/s", "relative angular velocity (= der(phi_rel))", FL_VF_ATTR, 0, 0},
    {"lossPower", "W", "power dissipated by the damping while in contact", 0, 0, 0},
    {"contact", "", "-1 lower stop, 0 free, +1 upper stop", FL_VF_INT, 0, 0},
};

static int rel_states_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    fl_b_element(b, pa, pb);
    fl_b_state(b, "phi_rel", 0, pb, pa, 0);
    fl_b_state(b, "w_rel", 1, pb, pa, 0);
    return 0;
}

/* the angles of the shafts matter at the scale phi_nominal (as s_nominal
 * for the translational stop) */
static double srhs_length_scale(const double *par)
{
    return par[4];
}

static const fl_class cls_symrothardstop = {
    .path = FLC "SymmetricRotationalHardStop",
    .desc = "Double-sided rotational hard stop restricting the relative rotation to a clearance b (the rotational "
            "SymmetricHardStop)",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = srhs_params,
    .nparams = FL_N(srhs_params),
    .vars = srhs_vars,
    .nvars = FL_N(srhs_vars),
    .build = rel_states_build,
    .elem = &fl_symhardstop_ops,
    .outputs = fl_symhardstop_outputs,
    .length_scale = srhs_length_scale,
};

/* ======================================================================
 * RotationalHardStop: the four contact models of HardStop
 * ====================================================================== */

/* R and C in HardStop's order (its outputs read them by position) */
static const fl_port_def rhs_ports[] = {
    {"R", FL_PORT_FLANGE, NULL, 0, "", "rotor (slider) turning between the stops of the case", 1},
    {"C", FL_PORT_FLANGE, NULL, 0, "", "case carrying the two stops", 1},
};
/* HardStop's order: upper_bnd, lower_bnd, stiff_up, stiff_low, D_up, D_low,
 * hs_model, trans_region, cor, v_static, f_release, x_start */
static const fl_param_def rhs_params[] = {
    {"upper_bnd", FL_P_REAL, "0.1", NULL, "rad", "gap between rotor and upper stop (from the initial rotor angle)", 0, 0, 0,
     NULL},
    {"lower_bnd", FL_P_REAL, "-0.1", NULL, "rad", "gap between rotor and lower stop (negative for an open gap)", 0, 0, 0,
     NULL},
    {"stiff_up", FL_P_REAL, "1e6", NULL, "N.m/rad", "contact stiffness at upper bound", FL_PF_MIN_EXCL, 0, 0, NULL},
    {"stiff_low", FL_P_REAL, "1e6", NULL, "N.m/rad", "contact stiffness at lower bound", FL_PF_MIN_EXCL, 0, 0, NULL},
    {"D_up", FL_P_REAL, "150", NULL, "N.m.s/rad", "contact damping at upper bound", FL_PF_MIN, 0, 0, NULL},
    {"D_low", FL_P_REAL, "150", NULL, "N.m.s/rad", "contact damping at lower bound", FL_PF_MIN, 0, 0, NULL},
    {"hs_model", FL_P_ENUM, "Flange.Types.HardStopModel.FULL_DAMPED", NULL, "",
     "contact model: FULL_DAMPED, FULL_UNDAMPED (damping only while turning in), SMOOTH, RESTITUTION", FL_PF_STRUCT, 0, 0,
     "Flange.Types.HardStopModel"},
    {"trans_region", FL_P_REAL, "1e-4", NULL, "rad", "angular width of the transition region (SMOOTH)", FL_PF_MIN_EXCL, 0,
     0, NULL},
    {"cor", FL_P_REAL, "0.8", NULL, "1", "coefficient of restitution (RESTITUTION)", FL_PF_MIN | FL_PF_MAX, 0, 1, NULL},
    {"w_static", FL_P_REAL, "1e-3", NULL, "rad/s",
     "impact speed below which the rotor stays in static contact (RESTITUTION; HardStop's v_static)", FL_PF_MIN_EXCL, 0, 0,
     NULL},
    {"tau_release", FL_P_REAL, "0", NULL, "N.m",
     "static contact ends when the stop would have to pull with more than this torque (RESTITUTION; HardStop's "
     "f_release)",
     FL_PF_MIN, 0, 0, NULL},
    {"phi_start", FL_P_REAL, "0", NULL, "rad", "initial angle of the rotor relative to the case (HardStop's x_start)", 0, 0,
     0, NULL},
};
enum { RHS_GP, RHS_GN, RHS_MODEL = 6, RHS_DTR = 7, RHS_X0 = 11 };
enum { RHS_RESTITUTION = 4 };

/* HardStop's variables F, x, v, contact, mode, lossPower, impactEnergy */
static const fl_var_def rhs_vars[] = {
    {"tau", "N.m", "interaction torque between rotor and case (positive from R to C)", 0, 0, 0},
    {"phi", "rad", "rotor angle relative to the case (from phi_start)", 0, 0, 0},
    {"w", "rad/s", "rotor angular velocity relative to the case (w_R - w_C)", 0, 0, 0},
    {"contact", "", "-1 lower stop, 0 free, +1 upper stop", FL_VF_INT, 0, 0},
    {"mode", "", "RESTITUTION: -1 static at the lower stop, 0 free, +1 static at the upper stop", FL_VF_INT, 0, 0},
    {"lossPower", "W", "power dissipated by the contact damping", 0, 0, 0},
    {"impactEnergy", "J", "kinetic energy lost in the last impact (RESTITUTION)", 0, 0, 0},
};

/* attachment 0 = C, 1 = R: tau is the compliant torque (R.tau = tau, C.tau = -tau) */
static int rhs_build(fl_builder *b)
{
    fl_b_element(b, fl_b_port(b, "C"), fl_b_port(b, "R"));
    return 0;
}

static int rhs_check(const fl_pctx *p, fl_diag *d)
{
    const double *par = p->par;
    if (!(par[RHS_GP] > par[RHS_GN])) {
        fl_err(d, p->loc, "%s: upper_bnd (%g rad) must be greater than lower_bnd (%g rad)", p->inst, par[RHS_GP],
               par[RHS_GN]);
        return -1;
    }
    if ((int)par[RHS_MODEL] == RHS_RESTITUTION && !(par[RHS_X0] >= par[RHS_GN] && par[RHS_X0] <= par[RHS_GP])) {
        fl_err(d, p->loc,
               "%s: with hs_model = RESTITUTION the rotor must start between the stops "
               "(lower_bnd <= phi_start <= upper_bnd), phi_start = %g rad",
               p->inst, par[RHS_X0]);
        return -1;
    }
    return 0;
}

/* angles near the stops matter at the scale of the transition region */
static double rhs_length_scale(const double *par)
{
    return fmin(par[RHS_DTR], par[RHS_GP] - par[RHS_GN]);
}

static const fl_class cls_rothardstop = {
    .path = FLC "RotationalHardStop",
    .desc = "Double-sided rotational hard stop between a rotor R and a case C (Simscape Rotational Hard Stop)",
    .ports = rhs_ports,
    .nports = FL_N(rhs_ports),
    .params = rhs_params,
    .nparams = FL_N(rhs_params),
    .vars = rhs_vars,
    .nvars = FL_N(rhs_vars),
    .check = rhs_check,
    .build = rhs_build,
    .elem = &fl_hardstop_ops,
    .elem_for = fl_rot_hardstop_select,
    .outputs = fl_hardstop_outputs,
    .length_scale = rhs_length_scale,
};

/* ======================================================================
 * TorqueLimiter: the law of ForceLimiter
 * ====================================================================== */

static const fl_port_def tl_ports[] = {
    {"flange_a", FL_PORT_FLANGE, NULL, 0, "", "driving shaft (flange_a.tau = -tau)", 1},
    {"flange_b", FL_PORT_FLANGE, NULL, 0, "", "driven shaft (flange_b.tau = tau)", 1},
    {"taumax", FL_PORT_INPUT, "useTaumaxInput", 0, "N.m", "upper torque limit (if useTaumaxInput)", 0},
    {"taumin", FL_PORT_INPUT, "useTauminInput", 0, "N.m", "lower torque limit (if useTauminInput)", 0},
};
/* ForceLimiter's order: useFmaxInput, useFminInput, f_max, f_min, m, d, dfdv, dvdf */
static const fl_param_def tl_params[] = {
    {"useTaumaxInput", FL_P_BOOL, "false", NULL, "", "true: the upper limit comes from input taumax", FL_PF_STRUCT, 0, 0,
     NULL},
    {"useTauminInput", FL_P_BOOL, "false", NULL, "", "true: the lower limit comes from input taumin", FL_PF_STRUCT, 0, 0,
     NULL},
    {"tau_max", FL_P_REAL, "1", NULL, "N.m", "maximum torque tau = flange_b.tau (if not from input)", 0, 0, 0, NULL},
    {"tau_min", FL_P_REAL, "-1", NULL, "N.m", "minimum torque tau = flange_b.tau (if not from input)", 0, 0, 0, NULL},
    {"J", FL_P_REAL, "0", NULL, "kg.m2", "relative rotational inertia (tau includes J*a_rel)", FL_PF_MIN, 0, 0, NULL},
    {"d", FL_P_REAL, "0", NULL, "N.m.s/rad", "relative rotational damping constant", FL_PF_MIN, 0, 0, NULL},
    {"dtaudw", FL_P_REAL, "0", NULL, "N.m.s/rad", "slope of tau versus w_rel while torque limited ('dtau/dw')", FL_PF_MIN,
     0, 0, NULL},
    {"dwdtau", FL_P_REAL, "0", NULL, "rad/(N.m.s)",
     "inverse slope of w_rel versus tau while not limited ('dw/dtau'; 0: rigid)", FL_PF_MIN, 0, 0, NULL},
};
enum { TL_USEMAX, TL_USEMIN, TL_MAX, TL_MIN };
/* ForceLimiter's f, s_rel, v_rel, s, f_lim, limit, lossPower, mode, startForward, startBackward */
static const fl_var_def tl_vars[] = {
    {"tau", "N.m", "torque between the shafts (= flange_b.tau = -flange_a.tau)", 0, 0, 0},
    {"phi_rel", "rad", "relative rotation angle (= flange_b.phi - flange_a.phi)", FL_VF_ATTR, 0, 0},
    {"w_rel", "rad/s", "relative angular velocity (= der(phi_rel))", FL_VF_ATTR, 0, 0},
    {"s", "", "curve parameter of the torque-speed characteristic", 0, 0, 0},
    {"tau_lim", "N.m", "the limiter part of tau (without J*a_rel + d*w_rel)", 0, 0, 0},
    {"limit", "", "+1 limited at the maximum, 0 not limited, -1 limited at the minimum", FL_VF_INT, 0, 0},
    {"lossPower", "W", "dissipated power (tau_lim + d*w_rel)*w_rel", 0, 0, 0},
    {"mode", "", "ideal limiter: -1 slipping backward, 0 stuck, 1 slipping forward (MSL encoding)", FL_VF_INT, 0, 0},
    {"startForward", "", "ideal limiter: start of forward slip", FL_VF_BOOL, 0, 0},
    {"startBackward", "", "ideal limiter: start of backward slip", FL_VF_BOOL, 0, 0},
};

static int tl_check(const fl_pctx *p, fl_diag *d)
{
    const double *par = p->par;
    int umax = par[TL_USEMAX] != 0, umin = par[TL_USEMIN] != 0;
    if (!umax && !umin && !(par[TL_MAX] >= par[TL_MIN])) {
        fl_err(d, p->loc, "%s: tau_max (%g N.m) must not be less than tau_min (%g N.m)", p->inst, par[TL_MAX], par[TL_MIN]);
        return -1;
    }
    if ((!umax && par[TL_MAX] < 0) || (!umin && par[TL_MIN] > 0))
        fl_warn(d, p->loc, "%s: the torque band [%g, %g] N.m does not contain 0, so the limiter drives the motion", p->inst,
                umin ? NAN : par[TL_MIN], umax ? NAN : par[TL_MAX]);
    return 0;
}

static const fl_class cls_torquelimiter = {
    .path = FLC "TorqueLimiter",
    .desc = "Limits the torque transmitted between two shafts (the rotational ForceLimiter; MapleSim Torque Limiter)",
    .ports = tl_ports,
    .nports = FL_N(tl_ports),
    .params = tl_params,
    .nparams = FL_N(tl_params),
    .vars = tl_vars,
    .nvars = FL_N(tl_vars),
    .check = tl_check,
    .build = rel_states_build,
    .elem = &fl_limiter_ops,
    .elem_for = fl_limiter_select,
    .outputs = fl_limiter_outputs,
};

const fl_class *const fl_classes_rot_stops[] = {
    &cls_rothardstop, &cls_symrothardstop, &cls_torquelimiter, NULL,
};
