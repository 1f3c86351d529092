/* rot_sensors.c - Modelica.Mechanics.Rotational.Sensors: ideal sensors of
 * angle, speed, acceleration (absolute and relative), torque and power.
 *
 * Why its own file: the translational sensors (sensors.c) have no law to
 * share - a sensor is a build that ties its outputs to the kinematics of
 * the network (fl_b_kin_output) or a rigid link that transmits the torque
 * (fl_b_link) - and their port and variable names are what differs. The
 * absolute and relative sensors put no torque on their flanges; the torque,
 * power and multi sensors are massless rigid links between flange_a and
 * flange_b whose outputs read the cut torque tau = flange_a.tau. */
#include "common.h"
#include "laws.h"

#define MRSE "Modelica.Mechanics.Rotational.Sensors."

/* ---- absolute sensors ---------------------------------------------------- */

#define RPORT_MEASURED {"flange", FL_PORT_FLANGE, NULL, 0, "", "flange of shaft from which sensor information is measured", 1}

static const fl_port_def angle_ports[] = {
    RPORT_MEASURED,
    {"phi", FL_PORT_OUTPUT, NULL, 0, "rad", "absolute angle of flange as output signal", 0},
};
static const fl_port_def speed_ports[] = {
    RPORT_MEASURED,
    {"w", FL_PORT_OUTPUT, NULL, 0, "rad/s", "absolute angular velocity of flange as output signal", 0},
};
static const fl_port_def acc_ports[] = {
    RPORT_MEASURED,
    {"a", FL_PORT_OUTPUT, NULL, 0, "rad/s2", "absolute angular acceleration of flange as output signal", 0},
};

static const fl_var_def angle_vars[] = {{"phi", "rad", "absolute angle of flange", 0, 0, 0}};
static const fl_var_def speed_vars[] = {{"w", "rad/s", "absolute angular velocity of flange", 0, 0, 0}};
static const fl_var_def acc_vars[] = {
    {"w", "rad/s", "absolute angular velocity of flange", 0, 0, 0},
    {"a", "rad/s2", "absolute angular acceleration of flange", 0, 0, 0},
};

/* output `out` = level-quantity of the flange */
static int abs_build(fl_builder *b, const char *out, int level)
{
    int p = fl_b_port(b, "flange");
    fl_b_kin_output(b, out, level, p, FL_NOPORT);
    if (level) fl_b_observe(b, p, level);
    return 0;
}

static int angle_build(fl_builder *b)
{
    return abs_build(b, "phi", 0);
}

static int speed_build(fl_builder *b)
{
    return abs_build(b, "w", 1);
}

static int acc_build(fl_builder *b)
{
    return abs_build(b, "a", 2);
}

static void angle_out(const fl_octx *o, double *v)
{
    v[0] = o->ps[0];
}

static void speed_out(const fl_octx *o, double *v)
{
    v[0] = o->pv[0];
}

static void acc_out(const fl_octx *o, double *v)
{
    v[0] = o->pv[0];
    v[1] = o->pa[0];
}

static const fl_class cls_angle = {
    .path = MRSE "AngleSensor",
    .desc = "Ideal sensor to measure the absolute flange angle",
    .ports = angle_ports,
    .nports = FL_N(angle_ports),
    .vars = angle_vars,
    .nvars = FL_N(angle_vars),
    .build = angle_build,
    .outputs = angle_out,
};
static const fl_class cls_speed = {
    .path = MRSE "SpeedSensor",
    .desc = "Ideal sensor to measure the absolute flange angular velocity",
    .ports = speed_ports,
    .nports = FL_N(speed_ports),
    .vars = speed_vars,
    .nvars = FL_N(speed_vars),
    .build = speed_build,
    .outputs = speed_out,
};
static const fl_class cls_acc = {
    .path = MRSE "AccSensor",
    .desc = "Ideal sensor to measure the absolute flange angular acceleration",
    .ports = acc_ports,
    .nports = FL_N(acc_ports),
    .vars = acc_vars,
    .nvars = FL_N(acc_vars),
    .build = acc_build,
    .outputs = acc_out,
};

/* ---- relative sensors ---------------------------------------------------- */

static const fl_port_def rangle_ports[] = {
    RPORT_FLANGE_A,
    RPORT_FLANGE_B,
    {"phi_rel", FL_PORT_OUTPUT, NULL, 0, "rad",
     "relative angle between two flanges (= flange_b.phi - flange_a.phi) as output signal", 0},
};
static const fl_port_def rspeed_ports[] = {
    RPORT_FLANGE_A,
    RPORT_FLANGE_B,
    {"w_rel", FL_PORT_OUTPUT, NULL, 0, "rad/s",
     "relative angular velocity between two flanges (= der(flange_b.phi) - der(flange_a.phi)) as output signal", 0},
};
static const fl_port_def racc_ports[] = {
    RPORT_FLANGE_A,
    RPORT_FLANGE_B,
    {"a_rel", FL_PORT_OUTPUT, NULL, 0, "rad/s2", "relative angular acceleration between two flanges as output signal",
     0},
};

#define VAR_PHIREL {"phi_rel", "rad", "relative angle between two flanges (= flange_b.phi - flange_a.phi)", 0, 0, 0}
#define VAR_WREL {"w_rel", "rad/s", "relative angular velocity between two flanges", 0, 0, 0}
#define VAR_AREL {"a_rel", "rad/s2", "relative angular acceleration between two flanges", 0, 0, 0}
static const fl_var_def rangle_vars[] = {VAR_PHIREL};
static const fl_var_def rspeed_vars[] = {VAR_PHIREL, VAR_WREL};
static const fl_var_def racc_vars[] = {VAR_PHIREL, VAR_WREL, VAR_AREL};

/* output `out` = level-quantity of flange_b minus that of flange_a */
static int rel_build(fl_builder *b, const char *out, int level)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    fl_b_kin_output(b, out, level, pb, pa);
    if (level) {
        fl_b_observe(b, pa, level);
        fl_b_observe(b, pb, level);
    }
    return 0;
}

static int rangle_build(fl_builder *b)
{
    return rel_build(b, "phi_rel", 0);
}

static int rspeed_build(fl_builder *b)
{
    return rel_build(b, "w_rel", 1);
}

static int racc_build(fl_builder *b)
{
    return rel_build(b, "a_rel", 2);
}

/* phi_rel, w_rel, a_rel as far as the class has them */
static void rel_out(const fl_octx *o, double *v, int n)
{
    v[0] = o->ps[1] - o->ps[0];
    if (n > 1) v[1] = o->pv[1] - o->pv[0];
    if (n > 2) v[2] = o->pa[1] - o->pa[0];
}

static void rangle_out(const fl_octx *o, double *v)
{
    rel_out(o, v, 1);
}

static void rspeed_out(const fl_octx *o, double *v)
{
    rel_out(o, v, 2);
}

static void racc_out(const fl_octx *o, double *v)
{
    rel_out(o, v, 3);
}

static const fl_class cls_rangle = {
    .path = MRSE "RelAngleSensor",
    .desc = "Ideal sensor to measure the relative angle between two flanges",
    .ports = rangle_ports,
    .nports = FL_N(rangle_ports),
    .vars = rangle_vars,
    .nvars = FL_N(rangle_vars),
    .build = rangle_build,
    .outputs = rangle_out,
};
static const fl_class cls_rspeed = {
    .path = MRSE "RelSpeedSensor",
    .desc = "Ideal sensor to measure the relative angular velocity between two flanges",
    .ports = rspeed_ports,
    .nports = FL_N(rspeed_ports),
    .vars = rspeed_vars,
    .nvars = FL_N(rspeed_vars),
    .build = rspeed_build,
    .outputs = rspeed_out,
};
static const fl_class cls_racc = {
    .path = MRSE "RelAccSensor",
    .desc = "Ideal sensor to measure the relative angular acceleration between two flanges",
    .ports = racc_ports,
    .nports = FL_N(racc_ports),
    .vars = racc_vars,
    .nvars = FL_N(racc_vars),
    .build = racc_build,
    .outputs = racc_out,
};

/* ---- through sensors: rigid links --------------------------------------- */

#define OUT_TAU                                                                                                        \
    {"tau", FL_PORT_OUTPUT, NULL, 0, "N.m",                                                                            \
     "torque in flange flange_a and flange_b (tau = flange_a.tau = -flange_b.tau) as output signal", 0}
#define OUT_POWER {"power", FL_PORT_OUTPUT, NULL, 0, "W", "power in flange flange_a as output signal", 0}

static const fl_port_def torque_ports[] = {RPORT_FLANGE_A, RPORT_FLANGE_B, OUT_TAU};
static const fl_port_def power_ports[] = {RPORT_FLANGE_A, RPORT_FLANGE_B, OUT_POWER};
static const fl_port_def multi_ports[] = {
    RPORT_FLANGE_A,
    RPORT_FLANGE_B,
    OUT_POWER,
    {"w", FL_PORT_OUTPUT, NULL, 0, "rad/s", "absolute angular velocity of flange_a as output signal", 0},
    OUT_TAU,
};

#define VAR_TAU {"tau", "N.m", "torque in flange flange_a and flange_b (= flange_a.tau = -flange_b.tau)", 0, 0, 0}
#define VAR_POWER {"power", "W", "power in flange flange_a (= flange_a.tau * der(flange_a.phi))", 0, 0, 0}
static const fl_var_def torque_vars[] = {VAR_TAU};
static const fl_var_def power_vars[] = {VAR_POWER};
static const fl_var_def multi_vars[] = {
    VAR_POWER,
    {"w", "rad/s", "absolute angular velocity of flange_a", 0, 0, 0},
    VAR_TAU,
};

static void torque_out(const fl_octx *o, double *v)
{
    v[0] = o->pf[0];
}

static void power_out(const fl_octx *o, double *v)
{
    v[0] = o->pf[0] * o->pv[0];
}

static void multi_out(const fl_octx *o, double *v)
{
    v[1] = o->pv[0];
    v[2] = o->pf[0];
    v[0] = v[2] * v[1];
}

static const fl_class cls_torque = {
    .path = MRSE "TorqueSensor",
    .desc = "Ideal sensor to measure the torque between two flanges (= flange_a.tau)",
    .ports = torque_ports,
    .nports = FL_N(torque_ports),
    .vars = torque_vars,
    .nvars = FL_N(torque_vars),
    .build = fl_link_build,
    .outputs = torque_out,
};
static const fl_class cls_power = {
    .path = MRSE "PowerSensor",
    .desc = "Ideal sensor to measure the power between two flanges (= flange_a.tau*der(flange_a.phi))",
    .ports = power_ports,
    .nports = FL_N(power_ports),
    .vars = power_vars,
    .nvars = FL_N(power_vars),
    .build = fl_link_observe_build,
    .outputs = power_out,
};
static const fl_class cls_multi = {
    .path = MRSE "MultiSensor",
    .desc = "Ideal sensor to measure the torque and power between two flanges and the absolute angular velocity",
    .ports = multi_ports,
    .nports = FL_N(multi_ports),
    .vars = multi_vars,
    .nvars = FL_N(multi_vars),
    .build = fl_link_observe_build,
    .outputs = multi_out,
};

const fl_class *const fl_classes_rot_sensors[] = {
    &cls_angle, &cls_speed, &cls_acc, &cls_rangle, &cls_rspeed, &cls_racc, &cls_torque, &cls_power, &cls_multi, NULL,
};
