/* sensors.c - Modelica.Mechanics.Translational.Sensors: ideal sensors.
 * Absolute and relative sensors put no force on their flanges; force,
 * power and multi sensors are rigid links that transmit force. */
#include "common.h"
#include "laws.h"

#define MTSE "Modelica.Mechanics.Translational.Sensors."

static const fl_port_def abs_s_ports[] = {
    {"flange", FL_PORT_FLANGE, NULL, 0, "", "flange to be measured", 0},
    {"s", FL_PORT_OUTPUT, NULL, 0, "m", "absolute position of flange as output signal", 0},
};
static const fl_port_def abs_v_ports[] = {
    {"flange", FL_PORT_FLANGE, NULL, 0, "", "flange to be measured", 0},
    {"v", FL_PORT_OUTPUT, NULL, 0, "m/s", "absolute velocity of flange as output signal", 0},
};
static const fl_port_def abs_a_ports[] = {
    {"flange", FL_PORT_FLANGE, NULL, 0, "", "flange to be measured", 0},
    {"a", FL_PORT_OUTPUT, NULL, 0, "m/s2", "absolute acceleration of flange as output signal", 0},
};

/* ---- absolute sensors -------------------------------------------------- */

static const fl_var_def pos_vars[] = {{"s", "m", "absolute position of flange", 0, 0, 0}};
static const fl_var_def spd_vars[] = {{"v", "m/s", "absolute velocity of flange", 0, 0, 0}};
static const fl_var_def acc_vars[] = {
    {"a", "m/s2", "absolute acceleration of flange", 0, 0, 0},
    {"v", "m/s", "absolute velocity of flange", 0, 0, 0},
};

static int pos_build(fl_builder *b)
{
    fl_b_kin_output(b, "s", 0, fl_b_port(b, "flange"), FL_NOPORT);
    return 0;
}

static int spd_build(fl_builder *b)
{
    int p = fl_b_port(b, "flange");
    fl_b_kin_output(b, "v", 1, p, FL_NOPORT);
    fl_b_observe(b, p, 1);
    return 0;
}

static int acc_build(fl_builder *b)
{
    int p = fl_b_port(b, "flange");
    fl_b_kin_output(b, "a", 2, p, FL_NOPORT);
    fl_b_observe(b, p, 2);
    return 0;
}

static void pos_out(const fl_octx *o, double *v)
{
    v[0] = o->ps[0];
}

static void spd_out(const fl_octx *o, double *v)
{
    v[0] = o->pv[0];
}

static void acc_out(const fl_octx *o, double *v)
{
    v[0] = o->pa[0];
    v[1] = o->pv[0];
}

static const fl_class cls_position = {
    .path = MTSE "PositionSensor",
    .desc = "Ideal sensor to measure the absolute position",
    .ports = abs_s_ports,
    .nports = FL_N(abs_s_ports),
    .vars = pos_vars,
    .nvars = FL_N(pos_vars),
    .build = pos_build,
    .outputs = pos_out,
};
static const fl_class cls_speed = {
    .path = MTSE "SpeedSensor",
    .desc = "Ideal sensor to measure the absolute velocity",
    .ports = abs_v_ports,
    .nports = FL_N(abs_v_ports),
    .vars = spd_vars,
    .nvars = FL_N(spd_vars),
    .build = spd_build,
    .outputs = spd_out,
};
static const fl_class cls_acc = {
    .path = MTSE "AccSensor",
    .desc = "Ideal sensor to measure the absolute acceleration",
    .ports = abs_a_ports,
    .nports = FL_N(abs_a_ports),
    .vars = acc_vars,
    .nvars = FL_N(acc_vars),
    .build = acc_build,
    .outputs = acc_out,
};

/* ---- through sensors: rigid links ------------------------------------- */

static const fl_port_def force_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    {"f", FL_PORT_OUTPUT, NULL, 0, "N", "force in flange_a and flange_b (f = flange_a.f = -flange_b.f)", 0},
};
static const fl_port_def power_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    {"power", FL_PORT_OUTPUT, NULL, 0, "W", "power in flange flange_a as output signal", 0},
};
static const fl_port_def multi_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    {"power", FL_PORT_OUTPUT, NULL, 0, "W", "power in flange flange_a as output signal", 0},
    {"f", FL_PORT_OUTPUT, NULL, 0, "N", "force in flange_a and flange_b (f = flange_a.f = -flange_b.f)", 0},
    {"v", FL_PORT_OUTPUT, NULL, 0, "m/s", "absolute velocity of flange as output signal", 0},
};
static const fl_var_def force_vars[] = {{"f", "N", "force in flange_a and flange_b", 0, 0, 0}};
static const fl_var_def power_vars[] = {{"power", "W", "power in flange flange_a", 0, 0, 0}};
static const fl_var_def multi_vars[] = {
    {"power", "W", "power in flange flange_a", 0, 0, 0},
    {"f", "N", "force in flange_a and flange_b", 0, 0, 0},
    {"v", "m/s", "absolute velocity of flange", 0, 0, 0},
};

int fl_link_build(fl_builder *b)
{
    fl_b_link(b, fl_b_port(b, "flange_a"), fl_b_port(b, "flange_b"), 0, 0);
    return 0;
}

int fl_link_observe_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a");
    fl_b_link(b, pa, fl_b_port(b, "flange_b"), 0, 0);
    fl_b_observe(b, pa, 1);
    return 0;
}

static void force_out(const fl_octx *o, double *v)
{
    v[0] = o->pf[0];
}

static void power_out(const fl_octx *o, double *v)
{
    v[0] = o->pf[0] * o->pv[0];
}

static void multi_out(const fl_octx *o, double *v)
{
    v[1] = o->pf[0];
    v[2] = o->pv[0];
    v[0] = v[1] * v[2];
}

static const fl_class cls_force = {
    .path = MTSE "ForceSensor",
    .desc = "Ideal sensor to measure the force between two flanges",
    .ports = force_ports,
    .nports = FL_N(force_ports),
    .vars = force_vars,
    .nvars = FL_N(force_vars),
    .build = fl_link_build,
    .outputs = force_out,
};
static const fl_class cls_power = {
    .path = MTSE "PowerSensor",
    .desc = "Ideal sensor to measure the power between two flanges (= flange_a.f*der(flange_a.s))",
    .ports = power_ports,
    .nports = FL_N(power_ports),
    .vars = power_vars,
    .nvars = FL_N(power_vars),
    .build = fl_link_observe_build,
    .outputs = power_out,
};
static const fl_class cls_multi = {
    .path = MTSE "MultiSensor",
    .desc = "Ideal sensor to measure the absolute velocity, force and power between two flanges",
    .ports = multi_ports,
    .nports = FL_N(multi_ports),
    .vars = multi_vars,
    .nvars = FL_N(multi_vars),
    .build = fl_link_observe_build,
    .outputs = multi_out,
};

/* ---- relative sensors -------------------------------------------------- */

static const fl_port_def rpos_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    {"s_rel", FL_PORT_OUTPUT, NULL, 0, "m", "distance between two flanges (= flange_b.s - flange_a.s)", 0},
};
static const fl_port_def rspd_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    {"v_rel", FL_PORT_OUTPUT, NULL, 0, "m/s", "relative velocity between two flanges (= der(flange_b.s) - der(flange_a.s))", 0},
};
static const fl_port_def racc_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    {"a_rel", FL_PORT_OUTPUT, NULL, 0, "m/s2", "relative acceleration between two flanges", 0},
};
static const fl_var_def rpos_vars[] = {{"s_rel", "m", "distance between two flanges", 0, 0, 0}};
static const fl_var_def rspd_vars[] = {
    {"v_rel", "m/s", "relative velocity between two flanges", 0, 0, 0},
    {"s_rel", "m", "distance between two flanges", 0, 0, 0},
};
static const fl_var_def racc_vars[] = {
    {"a_rel", "m/s2", "relative acceleration between two flanges", 0, 0, 0},
    {"s_rel", "m", "distance between two flanges", 0, 0, 0},
    {"v_rel", "m/s", "relative velocity between two flanges", 0, 0, 0},
};

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

static int rpos_build(fl_builder *b)
{
    return rel_build(b, "s_rel", 0);
}

static int rspd_build(fl_builder *b)
{
    return rel_build(b, "v_rel", 1);
}

static int racc_build(fl_builder *b)
{
    return rel_build(b, "a_rel", 2);
}

static void rpos_out(const fl_octx *o, double *v)
{
    v[0] = o->ps[1] - o->ps[0];
}

static void rspd_out(const fl_octx *o, double *v)
{
    v[0] = o->pv[1] - o->pv[0];
    v[1] = o->ps[1] - o->ps[0];
}

static void racc_out(const fl_octx *o, double *v)
{
    v[0] = o->pa[1] - o->pa[0];
    v[1] = o->ps[1] - o->ps[0];
    v[2] = o->pv[1] - o->pv[0];
}

static const fl_class cls_rpos = {
    .path = MTSE "RelPositionSensor",
    .desc = "Ideal sensor to measure the relative position",
    .ports = rpos_ports,
    .nports = FL_N(rpos_ports),
    .vars = rpos_vars,
    .nvars = FL_N(rpos_vars),
    .build = rpos_build,
    .outputs = rpos_out,
};
static const fl_class cls_rspd = {
    .path = MTSE "RelSpeedSensor",
    .desc = "Ideal sensor to measure the relative speed",
    .ports = rspd_ports,
    .nports = FL_N(rspd_ports),
    .vars = rspd_vars,
    .nvars = FL_N(rspd_vars),
    .build = rspd_build,
    .outputs = rspd_out,
};
static const fl_class cls_racc = {
    .path = MTSE "RelAccSensor",
    .desc = "Ideal sensor to measure the relative acceleration",
    .ports = racc_ports,
    .nports = FL_N(racc_ports),
    .vars = racc_vars,
    .nvars = FL_N(racc_vars),
    .build = racc_build,
    .outputs = racc_out,
};

const fl_class *const fl_classes_sensors[] = {
    &cls_position, &cls_speed, &cls_acc, &cls_force, &cls_power, &cls_multi, &cls_rpos, &cls_rspd, &cls_racc, NULL,
};
