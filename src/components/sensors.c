/* sensors.c - Modelica.Mechanics.Translational.Sensors: ideal sensors.
 * Absolute and relative sensors put no force on their flanges; force,
 * power and multi sensors are rigid links that transmit force. */
#include "common.h"

#define MTSE "Modelica.Mechanics.Translational.Sensors."

static const fl_port_def abs_s_ports[] = {
    {"flange", FL_PORT_FLANGE, NULL, 0, "", "flange to be measured"},
    {"s", FL_PORT_OUTPUT, NULL, 0, "m", "absolute position of flange as output signal"},
};
static const fl_port_def abs_v_ports[] = {
    {"flange", FL_PORT_FLANGE, NULL, 0, "", "flange to be measured"},
    {"v", FL_PORT_OUTPUT, NULL, 0, "m/s", "absolute velocity of flange as output signal"},
};
static const fl_port_def abs_a_ports[] = {
    {"flange", FL_PORT_FLANGE, NULL, 0, "", "flange to be measured"},
    {"a", FL_PORT_OUTPUT, NULL, 0, "m/s2", "absolute acceleration of flange as output signal"},
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
    MTSE "PositionSensor", "Ideal sensor to measure the absolute position", abs_s_ports, FL_N(abs_s_ports), NULL,
    0, pos_vars, FL_N(pos_vars), 0, NULL, NULL, pos_build, NULL, NULL, NULL, pos_out,
};
static const fl_class cls_speed = {
    MTSE "SpeedSensor", "Ideal sensor to measure the absolute velocity", abs_v_ports, FL_N(abs_v_ports), NULL, 0,
    spd_vars, FL_N(spd_vars), 0, NULL, NULL, spd_build, NULL, NULL, NULL, spd_out,
};
static const fl_class cls_acc = {
    MTSE "AccSensor", "Ideal sensor to measure the absolute acceleration", abs_a_ports, FL_N(abs_a_ports), NULL,
    0, acc_vars, FL_N(acc_vars), 0, NULL, NULL, acc_build, NULL, NULL, NULL, acc_out,
};

/* ---- through sensors: rigid links ------------------------------------- */

static const fl_port_def force_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    {"f", FL_PORT_OUTPUT, NULL, 0, "N", "force in flange_a and flange_b (f = flange_a.f = -flange_b.f)"},
};
static const fl_port_def power_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    {"power", FL_PORT_OUTPUT, NULL, 0, "W", "power in flange flange_a as output signal"},
};
static const fl_port_def multi_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    {"power", FL_PORT_OUTPUT, NULL, 0, "W", "power in flange flange_a as output signal"},
    {"f", FL_PORT_OUTPUT, NULL, 0, "N", "force in flange_a and flange_b (f = flange_a.f = -flange_b.f)"},
    {"v", FL_PORT_OUTPUT, NULL, 0, "m/s", "absolute velocity of flange as output signal"},
};
static const fl_var_def force_vars[] = {{"f", "N", "force in flange_a and flange_b", 0, 0, 0}};
static const fl_var_def power_vars[] = {{"power", "W", "power in flange flange_a", 0, 0, 0}};
static const fl_var_def multi_vars[] = {
    {"power", "W", "power in flange flange_a", 0, 0, 0},
    {"f", "N", "force in flange_a and flange_b", 0, 0, 0},
    {"v", "m/s", "absolute velocity of flange", 0, 0, 0},
};

static int link_build(fl_builder *b)
{
    fl_b_link(b, fl_b_port(b, "flange_a"), fl_b_port(b, "flange_b"), 0, 0);
    return 0;
}

static int link_v_build(fl_builder *b)
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
    MTSE "ForceSensor", "Ideal sensor to measure the force between two flanges", force_ports, FL_N(force_ports),
    NULL, 0, force_vars, FL_N(force_vars), 0, NULL, NULL, link_build, NULL, NULL, NULL, force_out,
};
static const fl_class cls_power = {
    MTSE "PowerSensor", "Ideal sensor to measure the power between two flanges (= flange_a.f*der(flange_a.s))",
    power_ports, FL_N(power_ports), NULL, 0, power_vars, FL_N(power_vars), 0, NULL, NULL, link_v_build, NULL,
    NULL, NULL, power_out,
};
static const fl_class cls_multi = {
    MTSE "MultiSensor", "Ideal sensor to measure the absolute velocity, force and power between two flanges",
    multi_ports, FL_N(multi_ports), NULL, 0, multi_vars, FL_N(multi_vars), 0, NULL, NULL, link_v_build, NULL,
    NULL, NULL, multi_out,
};

/* ---- relative sensors -------------------------------------------------- */

static const fl_port_def rpos_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    {"s_rel", FL_PORT_OUTPUT, NULL, 0, "m", "distance between two flanges (= flange_b.s - flange_a.s)"},
};
static const fl_port_def rspd_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    {"v_rel", FL_PORT_OUTPUT, NULL, 0, "m/s", "relative velocity between two flanges (= der(flange_b.s) - der(flange_a.s))"},
};
static const fl_port_def racc_ports[] = {
    PORT_FLANGE_A,
    PORT_FLANGE_B,
    {"a_rel", FL_PORT_OUTPUT, NULL, 0, "m/s2", "relative acceleration between two flanges"},
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
    MTSE "RelPositionSensor", "Ideal sensor to measure the relative position", rpos_ports, FL_N(rpos_ports), NULL,
    0, rpos_vars, FL_N(rpos_vars), 0, NULL, NULL, rpos_build, NULL, NULL, NULL, rpos_out,
};
static const fl_class cls_rspd = {
    MTSE "RelSpeedSensor", "Ideal sensor to measure the relative speed", rspd_ports, FL_N(rspd_ports), NULL, 0,
    rspd_vars, FL_N(rspd_vars), 0, NULL, NULL, rspd_build, NULL, NULL, NULL, rspd_out,
};
static const fl_class cls_racc = {
    MTSE "RelAccSensor", "Ideal sensor to measure the relative acceleration", racc_ports, FL_N(racc_ports), NULL,
    0, racc_vars, FL_N(racc_vars), 0, NULL, NULL, racc_build, NULL, NULL, NULL, racc_out,
};

const fl_class *const fl_classes_sensors[] = {
    &cls_position, &cls_speed, &cls_acc, &cls_force, &cls_power, &cls_multi, &cls_rpos, &cls_rspd, &cls_racc, NULL,
};
