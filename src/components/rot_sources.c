/* rot_sources.c - Modelica.Mechanics.Rotational.Sources: the torque
 * sources (Torque, Torque2, ConstantTorque, TorqueStep, the linear,
 * quadratic and inverse speed-dependent torques, SignTorque) and the motion
 * sources (Position, Speed, Accelerate, Move, ConstantSpeed).
 *
 * Why a file of tables only: each class is its translational twin with
 * angle and torque for position and force, so the torque laws are the force
 * laws of sources.c and the prescribed motions the drivers of motion.c
 * (laws.h): one definition of each, and the parameters here are listed in
 * the order those ops read them (useSupport last). What is rotational is
 * the names, the units and the variables, and one sign: the MSL's rotational
 * tau is the torque that accelerates the flange, tau = -flange.tau, where the
 * translational f is flange.f. The torque sources also accept start/fixed on
 * phi and w (the angle and speed of the flange relative to the support), as
 * the MSL variables do. */
#include "common.h"
#include "laws.h"

#define MRS "Modelica.Mechanics.Rotational.Sources."

/* ---- Torque and Torque2: the input signal -------------------------------- */

static const fl_port_def torque_ports[] = {
    RPORT_FLANGE,
    RPORT_SUPPORT,
    {"tau", FL_PORT_INPUT, NULL, 0, "N.m", "accelerating torque acting at flange (= -flange.tau)", 0},
};
static const fl_param_def support_params[] = {PAR_USESUPPORT};

/* the element between support (attachment 0; ground without support) and
 * flange (attachment 1), as the translational sources */
static int torque_build(fl_builder *b)
{
    fl_b_element(b, fl_b_port(b, "support"), fl_b_port(b, "flange"));
    return 0;
}

static const fl_class cls_torque = {
    .path = MRS "Torque",
    .desc = "Input signal acting as external torque on a flange",
    .ports = torque_ports,
    .nports = FL_N(torque_ports),
    .params = support_params,
    .nparams = FL_N(support_params),
    .build = torque_build,
    .elem = &fl_force_ops,
};

/* flange_a.tau = tau, flange_b.tau = -tau: the force law with flange_a in
 * the place of the support */
static const fl_port_def torque2_ports[] = {
    RPORT_FLANGE_A,
    RPORT_FLANGE_B,
    {"tau", FL_PORT_INPUT, NULL, 0, "N.m", "torque driving the two flanges (a positive value accelerates the flange)", 0},
};

static int torque2_build(fl_builder *b)
{
    fl_b_element(b, fl_b_port(b, "flange_a"), fl_b_port(b, "flange_b"));
    return 0;
}

static const fl_class cls_torque2 = {
    .path = MRS "Torque2",
    .desc = "Input signal acting as torque on two flanges",
    .ports = torque2_ports,
    .nports = FL_N(torque2_ports),
    .build = torque2_build,
    .elem = &fl_force_ops,
};

/* ---- PartialTorque: torque laws of time and speed ----------------------- */

static const fl_port_def ptorque_ports[] = {RPORT_FLANGE, RPORT_SUPPORT};

#define VAR_PHI {"phi", "rad", "angle of flange with respect to support (= flange.phi - support.phi)", FL_VF_ATTR, 0, 0}
#define VAR_W {"w", "rad/s", "angular velocity of flange with respect to support (= der(phi))", FL_VF_ATTR, 0, 0}
#define VAR_TAU {"tau", "N.m", "accelerating torque acting at flange (= -flange.tau)", 0, 0, 0}

static const fl_var_def phi_tau_vars[] = {VAR_PHI, VAR_TAU};
static const fl_var_def phi_w_tau_vars[] = {VAR_PHI, VAR_W, VAR_TAU};

static int ptorque_build(fl_builder *b)
{
    int fl = fl_b_port(b, "flange"), sp = fl_b_port(b, "support");
    fl_b_element(b, sp, fl);
    fl_b_state(b, "phi", 0, fl, sp, 0);
    if (fl_class_var(fl_b_class(b), "w") >= 0) fl_b_state(b, "w", 1, fl, sp, 0);
    return 0;
}

/* port 0 flange, port 1 support (its angle and speed 0 when absent) */
static void phi_tau_out(const fl_octx *o, double *v)
{
    v[0] = o->ps[0] - o->ps[1];
    v[1] = -o->pf[0];
}

static void phi_w_tau_out(const fl_octx *o, double *v)
{
    v[0] = o->ps[0] - o->ps[1];
    v[1] = o->pv[0] - o->pv[1];
    v[2] = -o->pf[0];
}

/* ConstantTorque: tau = tau_constant */
static const fl_param_def ct_params[] = {
    {"tau_constant", FL_P_REAL, NULL, NULL, "N.m",
     "constant torque (if negative, torque is acting as load in positive direction of rotation)", 0, 0, 0, NULL},
    PAR_USESUPPORT,
};

static const fl_class cls_constanttorque = {
    .path = MRS "ConstantTorque",
    .desc = "Constant torque, not dependent on speed",
    .ports = ptorque_ports,
    .nports = FL_N(ptorque_ports),
    .params = ct_params,
    .nparams = FL_N(ct_params),
    .vars = phi_w_tau_vars,
    .nvars = FL_N(phi_w_tau_vars),
    .build = ptorque_build,
    .elem = &fl_constantforce_ops,
    .outputs = phi_w_tau_out,
};

/* TorqueStep: tau = offsetTorque + (if time < startTime then 0 else stepTorque) */
static const fl_param_def ts_params[] = {
    {"stepTorque", FL_P_REAL, NULL, "1", "N.m", "height of torque step (if negative, torque is acting as load)", 0, 0, 0,
     NULL},
    {"offsetTorque", FL_P_REAL, NULL, "0", "N.m", "offset of torque", 0, 0, 0, NULL},
    {"startTime", FL_P_REAL, "0", NULL, "s", "torque = offset for time < startTime", 0, 0, 0, NULL},
    PAR_USESUPPORT,
};

static const fl_class cls_torquestep = {
    .path = MRS "TorqueStep",
    .desc = "Constant torque, not dependent on speed", /* sic: the MSL's description */
    .ports = ptorque_ports,
    .nports = FL_N(ptorque_ports),
    .params = ts_params,
    .nparams = FL_N(ts_params),
    .vars = phi_tau_vars,
    .nvars = FL_N(phi_tau_vars),
    .build = ptorque_build,
    .elem = &fl_forcestep_ops,
    .outputs = phi_tau_out,
};

/* Linear / quadratic: tau = tau_nominal |w/w_nominal|^n (TorqueDirection)
 * or with the sign of w */
#define PAR_TAUNOMINAL                                                                                                 \
    {"tau_nominal", FL_P_REAL, NULL, NULL, "N.m",                                                                      \
     "nominal torque (if negative, torque is acting as load in positive direction of rotation)", 0, 0, 0, NULL}
#define PAR_TORQUEDIRECTION                                                                                            \
    {"TorqueDirection", FL_P_BOOL, "true", NULL, "", "same direction of torque in both directions of rotation",         \
     FL_PF_STRUCT, 0, 0, NULL}
#define PAR_WNOMINAL {"w_nominal", FL_P_REAL, NULL, NULL, "rad/s", "nominal speed", FL_PF_MIN_EXCL, 0, 0, NULL}
#define PAR_W0 {"w0", FL_P_REAL, NULL, "0.1", "rad/s", "regularization below w0", FL_PF_MIN_EXCL, 0, 0, NULL}

static const fl_param_def lin_params[] = {PAR_TAUNOMINAL, PAR_TORQUEDIRECTION, PAR_WNOMINAL, PAR_USESUPPORT};

static const fl_class cls_lintorque = {
    .path = MRS "LinearSpeedDependentTorque",
    .desc = "Linear dependency of torque versus speed",
    .ports = ptorque_ports,
    .nports = FL_N(ptorque_ports),
    .params = lin_params,
    .nparams = FL_N(lin_params),
    .vars = phi_w_tau_vars,
    .nvars = FL_N(phi_w_tau_vars),
    .build = ptorque_build,
    .elem = &fl_linforce_ops,
    .outputs = phi_w_tau_out,
};

static const fl_class cls_quadtorque = {
    .path = MRS "QuadraticSpeedDependentTorque",
    .desc = "Quadratic dependency of torque versus speed",
    .ports = ptorque_ports,
    .nports = FL_N(ptorque_ports),
    .params = lin_params,
    .nparams = FL_N(lin_params),
    .vars = phi_w_tau_vars,
    .nvars = FL_N(phi_w_tau_vars),
    .build = ptorque_build,
    .elem = &fl_quadforce_ops,
    .outputs = phi_w_tau_out,
};

/* Inverse: tau = tau_nominal w_nominal / |w| (or / w), regularised below w0 */
static const fl_param_def inv_params[] = {PAR_TAUNOMINAL, PAR_TORQUEDIRECTION, PAR_WNOMINAL, PAR_W0, PAR_USESUPPORT};

static const fl_class cls_invtorque = {
    .path = MRS "InverseSpeedDependentTorque",
    .desc = "Torque reciprocal dependent on speed",
    .ports = ptorque_ports,
    .nports = FL_N(ptorque_ports),
    .params = inv_params,
    .nparams = FL_N(inv_params),
    .vars = phi_w_tau_vars,
    .nvars = FL_N(phi_w_tau_vars),
    .build = ptorque_build,
    .elem = &fl_invforce_ops,
    .outputs = phi_w_tau_out,
};

/* SignTorque: tau = tau_nominal * (sign(w) regularised below w0) */
static const fl_param_def sign_params[] = {
    {"tau_nominal", FL_P_REAL, NULL, NULL, "N.m", "nominal torque (if negative, torque is acting as load)", 0, 0, 0,
     NULL},
    {"reg", FL_P_ENUM, "Modelica.Blocks.Types.Regularization.Exp", NULL, "", "type of regularization", FL_PF_STRUCT, 0,
     0, "Modelica.Blocks.Types.Regularization"},
    PAR_W0,
    PAR_USESUPPORT,
};

static const fl_class cls_signtorque = {
    .path = MRS "SignTorque",
    .desc = "Constant torque changing sign with speed",
    .ports = ptorque_ports,
    .nports = FL_N(ptorque_ports),
    .params = sign_params,
    .nparams = FL_N(sign_params),
    .vars = phi_w_tau_vars,
    .nvars = FL_N(phi_w_tau_vars),
    .build = ptorque_build,
    .elem = &fl_signforce_ops,
    .outputs = phi_w_tau_out,
};

/* ---- motion sources ------------------------------------------------------ */

/* relative motion of flange (port 0) and support (port 1) */
static void rel_phi_w_a(const fl_octx *o, double *v)
{
    v[0] = o->ps[0] - o->ps[1];
    v[1] = o->pv[0] - o->pv[1];
    v[2] = o->pa[0] - o->pa[1];
}

/* Position: phi = phi_ref (exact) or through the 2nd-order Bessel filter of
 * critical frequency f_crit, started at phi = phi_ref */
static const fl_port_def pos_ports[] = {
    RPORT_FLANGE,
    RPORT_SUPPORT,
    {"phi_ref", FL_PORT_INPUT, NULL, 0, "rad", "reference angle of flange with respect to support as input signal", 0},
};
static const fl_param_def exact_params[] = {
    {"exact", FL_P_BOOL, "false", NULL, "", "true/false exact treatment/filtering the input signal", FL_PF_STRUCT, 0, 0,
     NULL},
    {"f_crit", FL_P_REAL, "50", NULL, "Hz", "if exact=false, critical frequency of filter to filter input signal",
     FL_PF_MIN_EXCL, 0, 0, NULL},
    PAR_USESUPPORT,
};
static const fl_var_def pos_vars[] = {
    {"phi", "rad", "rotation angle of flange with respect to support", FL_VF_ATTR, 0, 0},
    {"w", "rad/s", "if exact=false, angular velocity of flange with respect to support, else 0", FL_VF_ATTR | FL_VF_WEAK,
     0, 0},
    {"a", "rad/s2", "if exact=false, angular acceleration of flange with respect to support, else 0", FL_VF_ATTR, 0, 0},
};

static int pos_build(fl_builder *b)
{
    int fl = fl_b_port(b, "flange"), sp = fl_b_port(b, "support");
    fl_b_driver(b, fl, sp);
    if (fl_b_par(b, "exact") == 0) {
        fl_b_init_input(b, 0, fl, sp, 0);
        fl_b_state(b, "w", 1, fl, sp, 0);
        fl_b_state(b, "a", 2, fl, sp, 0);
    }
    return 0;
}

/* exact: w and a are 0 in the MSL (placeholders, not the flange's motion) */
static void pos_out(const fl_octx *o, double *v)
{
    rel_phi_w_a(o, v);
    if (o->par[0] != 0) v[1] = v[2] = 0;
}

static const fl_class cls_position = {
    .path = MRS "Position",
    .desc = "Forced movement of a flange according to a reference angle signal",
    .ports = pos_ports,
    .nports = FL_N(pos_ports),
    .params = exact_params,
    .nparams = FL_N(exact_params),
    .vars = pos_vars,
    .nvars = FL_N(pos_vars),
    .build = pos_build,
    .drv = &fl_position_drv,
    .outputs = pos_out,
};

/* Speed: w = w_ref (exact) or through a 1st-order filter started at
 * w = w_ref; phi starts at 0 (fixed) */
static const fl_port_def speed_ports[] = {
    RPORT_FLANGE,
    RPORT_SUPPORT,
    {"w_ref", FL_PORT_INPUT, NULL, 0, "rad/s",
     "reference angular velocity of flange with respect to support as input signal", 0},
};
static const fl_var_def speed_vars[] = {
    {"phi", "rad", "rotation angle of flange with respect to support", FL_VF_ATTR, 0, 1},
    {"w", "rad/s", "angular velocity of flange with respect to support", FL_VF_ATTR, 0, 0},
    {"a", "rad/s2", "if exact=false, angular acceleration of flange with respect to support, else 0", FL_VF_ATTR, 0, 0},
};

static int speed_build(fl_builder *b)
{
    int fl = fl_b_port(b, "flange"), sp = fl_b_port(b, "support");
    fl_b_driver(b, fl, sp);
    fl_b_state(b, "phi", 0, fl, sp, 0);
    if (fl_b_par(b, "exact") == 0) {
        fl_b_init_input(b, 1, fl, sp, 0);
        fl_b_state(b, "a", 2, fl, sp, 0);
    }
    return 0;
}

static void speed_out(const fl_octx *o, double *v)
{
    rel_phi_w_a(o, v);
    if (o->par[0] != 0) v[2] = 0;
}

static const fl_class cls_speed = {
    .path = MRS "Speed",
    .desc = "Forced movement of a flange according to a reference angular velocity signal",
    .ports = speed_ports,
    .nports = FL_N(speed_ports),
    .params = exact_params,
    .nparams = FL_N(exact_params),
    .vars = speed_vars,
    .nvars = FL_N(speed_vars),
    .build = speed_build,
    .drv = &fl_speed_drv,
    .outputs = speed_out,
};

/* Accelerate: a = a_ref, phi and w start at 0 (fixed) */
static const fl_port_def acc_ports[] = {
    RPORT_FLANGE,
    RPORT_SUPPORT,
    {"a_ref", FL_PORT_INPUT, NULL, 0, "rad/s2",
     "absolute angular acceleration of flange with respect to support as input signal", 0},
};
static const fl_var_def acc_vars[] = {
    {"phi", "rad", "rotation angle of flange with respect to support", FL_VF_ATTR, 0, 1},
    {"w", "rad/s", "angular velocity of flange with respect to support", FL_VF_ATTR, 0, 1},
    {"a", "rad/s2", "angular acceleration of flange with respect to support", 0, 0, 0},
};

static int acc_build(fl_builder *b)
{
    int fl = fl_b_port(b, "flange"), sp = fl_b_port(b, "support");
    fl_b_driver(b, fl, sp);
    fl_b_state(b, "phi", 0, fl, sp, 0);
    fl_b_state(b, "w", 1, fl, sp, 0);
    return 0;
}

static const fl_class cls_accelerate = {
    .path = MRS "Accelerate",
    .desc = "Forced movement of a flange according to an acceleration signal",
    .ports = acc_ports,
    .nports = FL_N(acc_ports),
    .params = support_params,
    .nparams = FL_N(support_params),
    .vars = acc_vars,
    .nvars = FL_N(acc_vars),
    .build = acc_build,
    .drv = &fl_accelerate_drv,
    .outputs = rel_phi_w_a,
};

/* Move: phi = u[1]; u[2], u[3] are taken as its derivatives as given */
static const fl_port_def move_ports[] = {
    RPORT_FLANGE,
    RPORT_SUPPORT,
    {"u", FL_PORT_INPUT, NULL, 3, "",
     "angle, angular velocity and angular acceleration of flange with respect to support as input signals", 0},
};
static const fl_var_def move_vars[] = {
    {"phi", "rad", "rotation angle of flange with respect to support", 0, 0, 0},
};

static int move_build(fl_builder *b)
{
    fl_b_driver(b, fl_b_port(b, "flange"), fl_b_port(b, "support"));
    return 0;
}

static void phi_out(const fl_octx *o, double *v)
{
    v[0] = o->ps[0] - o->ps[1];
}

static const fl_class cls_move = {
    .path = MRS "Move",
    .desc = "Forced movement of a flange according to an angle, speed and angular acceleration signal",
    .ports = move_ports,
    .nports = FL_N(move_ports),
    .params = support_params,
    .nparams = FL_N(support_params),
    .vars = move_vars,
    .nvars = FL_N(move_vars),
    .build = move_build,
    .drv = &fl_move_drv,
    .outputs = phi_out,
};

/* ConstantSpeed: w = w_fixed; phi a state without a fixed start */
static const fl_param_def cs_params[] = {
    {"w_fixed", FL_P_REAL, NULL, NULL, "rad/s", "fixed speed", 0, 0, 0, NULL},
    PAR_USESUPPORT,
};
static const fl_var_def cs_vars[] = {
    {"phi", "rad", "angle of flange with respect to support (= flange.phi - support.phi)", FL_VF_ATTR | FL_VF_WEAK, 0,
     0},
    {"w", "rad/s", "angular velocity of flange with respect to support (= der(phi))", 0, 0, 0},
};

static int cs_build(fl_builder *b)
{
    int fl = fl_b_port(b, "flange"), sp = fl_b_port(b, "support");
    fl_b_driver(b, fl, sp);
    fl_b_state(b, "phi", 0, fl, sp, 0);
    return 0;
}

static void cs_out(const fl_octx *o, double *v)
{
    v[0] = o->ps[0] - o->ps[1];
    v[1] = o->pv[0] - o->pv[1];
}

static const fl_class cls_constantspeed = {
    .path = MRS "ConstantSpeed",
    .desc = "Constant speed, not dependent on torque",
    .ports = ptorque_ports,
    .nports = FL_N(ptorque_ports),
    .params = cs_params,
    .nparams = FL_N(cs_params),
    .vars = cs_vars,
    .nvars = FL_N(cs_vars),
    .build = cs_build,
    .drv = &fl_constantspeed_drv,
    .outputs = cs_out,
};

const fl_class *const fl_classes_rot_sources[] = {
    &cls_torque,    &cls_torque2,    &cls_constanttorque, &cls_torquestep, &cls_lintorque, &cls_quadtorque,
    &cls_signtorque, &cls_invtorque, &cls_constantspeed,  &cls_speed,      &cls_position,  &cls_accelerate,
    &cls_move,      NULL,
};
