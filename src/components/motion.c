/* motion.c - sources that prescribe motion: Position (exact or through a
 * 2nd-order filter), Speed (exact or 1st-order filter), Accelerate, Move,
 * ConstantSpeed. They drive the rigid body at their flange relative to
 * their support; their force is the reaction. */
#include <math.h>

#include "common.h"
#include "laws.h"

#define MTS "Modelica.Mechanics.Translational.Sources."

static const double pi = 3.14159265358979323846;

static int driver_build(fl_builder *b)
{
    fl_b_driver(b, fl_b_port(b, "flange"), fl_b_port(b, "support"));
    return 0;
}

/* ---- Position ---------------------------------------------------------- */

static const fl_port_def pos_ports[] = {
    PORT_FLANGE,
    PORT_SUPPORT,
    {"s_ref", FL_PORT_INPUT, NULL, 0, "m", "reference position of flange as input signal", 0},
};
static const fl_param_def pos_params[] = {
    {"exact", FL_P_BOOL, "false", NULL, "", "true/false exact treatment/filtering the input signal", FL_PF_STRUCT, 0, 0, NULL},
    {"f_crit", FL_P_REAL, "50", NULL, "Hz", "if exact=false, critical frequency of filter to filter input signal", FL_PF_MIN_EXCL, 0, 0, NULL},
    PAR_USESUPPORT,
};
enum { POS_EXACT, POS_FCRIT };
static const fl_var_def pos_vars[] = {
    {"s", "m", "distance between flange and support (= flange.s - support.s)", FL_VF_ATTR, 0, 0},
    {"v", "m/s", "if exact=false, velocity of flange with respect to support", FL_VF_ATTR | FL_VF_WEAK, 0, 0},
    {"a", "m/s2", "if exact=false, acceleration of flange with respect to support", FL_VF_ATTR, 0, 0},
};

/* filter constants of the MSL source (Bessel-type 2nd order) */
static const double af = 1.3617, bf = 0.6180;

static fl_drv_kind pos_kind(const double *p)
{
    return p[POS_EXACT] != 0 ? FL_DRV_POS : FL_DRV_ACC;
}

static void pos_drive(const fl_drv_in *in, fl_drv_out *out)
{
    if (in->par[POS_EXACT] != 0) {
        out->s = in->u[0];
        out->v = in->du[0];
        out->a = in->ddu[0];
        return;
    }
    double w = 2 * pi * in->par[POS_FCRIT];
    out->a = ((in->u[0] - in->s) * w - af * in->v) * (w / bf);
    out->da_ds = -w * w / bf;
    out->da_dv = -af * w / bf;
}

static int pos_build(fl_builder *b)
{
    int fl = fl_b_port(b, "flange"), sp = fl_b_port(b, "support");
    fl_b_driver(b, fl, sp);
    if (fl_b_par(b, "exact") == 0) {
        fl_b_init_input(b, 0, fl, sp, 0);
        fl_b_state(b, "v", 1, fl, sp, 0);
        fl_b_state(b, "a", 2, fl, sp, 0);
    }
    return 0;
}

static void pos_outputs(const fl_octx *o, double *v)
{
    v[0] = o->ps[0] - o->ps[1];
    if (o->par[POS_EXACT] != 0) {
        v[1] = v[2] = 0; /* placeholders in the MSL source, not the flange motion */
    } else {
        v[1] = o->pv[0] - o->pv[1];
        v[2] = o->pa[0] - o->pa[1];
    }
}

const fl_drv_ops fl_position_drv = {
    .kind = pos_kind,
    .nderiv = 2,
    .drive = pos_drive,
};
static const fl_class cls_position = {
    .path = MTS "Position",
    .desc = "Forced movement of a flange according to a reference position",
    .ports = pos_ports,
    .nports = FL_N(pos_ports),
    .params = pos_params,
    .nparams = FL_N(pos_params),
    .vars = pos_vars,
    .nvars = FL_N(pos_vars),
    .build = pos_build,
    .drv = &fl_position_drv,
    .outputs = pos_outputs,
};

/* ---- Speed ------------------------------------------------------------- */

static const fl_port_def speed_ports[] = {
    PORT_FLANGE,
    PORT_SUPPORT,
    {"v_ref", FL_PORT_INPUT, NULL, 0, "m/s", "reference speed of flange as input signal", 0},
};
static const fl_var_def speed_vars[] = {
    {"s", "m", "distance between flange and support (= flange.s - support.s)", FL_VF_ATTR, 0, 1},
    {"v", "m/s", "velocity of flange with respect to support (= der(s))", FL_VF_ATTR, 0, 0},
    {"a", "m/s2", "if exact=false, acceleration of flange with respect to support", FL_VF_ATTR, 0, 0},
};

static fl_drv_kind speed_kind(const double *p)
{
    return p[POS_EXACT] != 0 ? FL_DRV_VEL : FL_DRV_ACC;
}

static void speed_drive(const fl_drv_in *in, fl_drv_out *out)
{
    if (in->par[POS_EXACT] != 0) {
        out->v = in->u[0];
        out->a = in->du[0];
        return;
    }
    double w = 2 * pi * in->par[POS_FCRIT];
    out->a = (in->u[0] - in->v) * w;
    out->da_ds = 0;
    out->da_dv = -w;
}

static int speed_build(fl_builder *b)
{
    int fl = fl_b_port(b, "flange"), sp = fl_b_port(b, "support");
    fl_b_driver(b, fl, sp);
    fl_b_state(b, "s", 0, fl, sp, 0);
    if (fl_b_par(b, "exact") == 0) {
        fl_b_init_input(b, 1, fl, sp, 0);
        fl_b_state(b, "a", 2, fl, sp, 0);
    }
    return 0;
}

static void speed_outputs(const fl_octx *o, double *v)
{
    v[0] = o->ps[0] - o->ps[1];
    v[1] = o->pv[0] - o->pv[1];
    v[2] = o->par[POS_EXACT] != 0 ? 0 : o->pa[0] - o->pa[1];
}

const fl_drv_ops fl_speed_drv = {
    .kind = speed_kind,
    .nderiv = 1,
    .drive = speed_drive,
};
static const fl_class cls_speed = {
    .path = MTS "Speed",
    .desc = "Forced movement of a flange according to a reference speed",
    .ports = speed_ports,
    .nports = FL_N(speed_ports),
    .params = pos_params,
    .nparams = FL_N(pos_params),
    .vars = speed_vars,
    .nvars = FL_N(speed_vars),
    .build = speed_build,
    .drv = &fl_speed_drv,
    .outputs = speed_outputs,
};

/* ---- Accelerate -------------------------------------------------------- */

static const fl_port_def acc_ports[] = {
    PORT_FLANGE,
    PORT_SUPPORT,
    {"a_ref", FL_PORT_INPUT, NULL, 0, "m/s2", "absolute acceleration of flange as input signal", 0},
};
static const fl_param_def acc_params[] = {PAR_USESUPPORT};
static const fl_var_def acc_vars[] = {
    {"s", "m", "distance between flange and support (= flange.s - support.s)", FL_VF_ATTR, 0, 1},
    {"v", "m/s", "absolute velocity of flange", FL_VF_ATTR, 0, 1},
    {"a", "m/s2", "absolute acceleration of flange", 0, 0, 0},
};

static fl_drv_kind acc_kind(const double *p)
{
    FL_UNUSED(p);
    return FL_DRV_ACC;
}

static void acc_drive(const fl_drv_in *in, fl_drv_out *out)
{
    out->a = in->u[0];
}

static int acc_build(fl_builder *b)
{
    int fl = fl_b_port(b, "flange"), sp = fl_b_port(b, "support");
    fl_b_driver(b, fl, sp);
    fl_b_state(b, "s", 0, fl, sp, 0);
    fl_b_state(b, "v", 1, fl, sp, 0);
    return 0;
}

static void acc_outputs(const fl_octx *o, double *v)
{
    v[0] = o->ps[0] - o->ps[1];
    v[1] = o->pv[0] - o->pv[1];
    v[2] = o->pa[0] - o->pa[1];
}

const fl_drv_ops fl_accelerate_drv = {
    .kind = acc_kind,
    .drive = acc_drive,
};
static const fl_class cls_accelerate = {
    .path = MTS "Accelerate",
    .desc = "Forced movement of a flange according to an acceleration signal",
    .ports = acc_ports,
    .nports = FL_N(acc_ports),
    .params = acc_params,
    .nparams = FL_N(acc_params),
    .vars = acc_vars,
    .nvars = FL_N(acc_vars),
    .build = acc_build,
    .drv = &fl_accelerate_drv,
    .outputs = acc_outputs,
};

/* ---- Move -------------------------------------------------------------- */

static const fl_port_def move_ports[] = {
    PORT_FLANGE,
    PORT_SUPPORT,
    {"u", FL_PORT_INPUT, NULL, 3, "", "flange position, velocity, acceleration as input signals", 0},
};
static const fl_var_def move_vars[] = {
    {"s", "m", "distance between flange and support (= flange.s - support.s)", 0, 0, 0},
};

static fl_drv_kind move_kind(const double *p)
{
    FL_UNUSED(p);
    return FL_DRV_POS;
}

/* the declared derivatives u[2], u[3] are used as given, even if they are
 * not the derivatives of u[1] (as in the MSL) */
static void move_drive(const fl_drv_in *in, fl_drv_out *out)
{
    out->s = in->u[0];
    out->v = in->u[1];
    out->a = in->u[2];
}

static void move_outputs(const fl_octx *o, double *v)
{
    v[0] = o->ps[0] - o->ps[1];
}

const fl_drv_ops fl_move_drv = {
    .kind = move_kind,
    .drive = move_drive,
};
static const fl_class cls_move = {
    .path = MTS "Move",
    .desc = "Forced movement of a flange according to a position, velocity and acceleration signal",
    .ports = move_ports,
    .nports = FL_N(move_ports),
    .params = acc_params,
    .nparams = FL_N(acc_params),
    .vars = move_vars,
    .nvars = FL_N(move_vars),
    .build = driver_build,
    .drv = &fl_move_drv,
    .outputs = move_outputs,
};

/* ---- ConstantSpeed ----------------------------------------------------- */

static const fl_port_def cs_ports[] = {PORT_FLANGE, PORT_SUPPORT};
static const fl_param_def cs_params[] = {
    {"v_fixed", FL_P_REAL, NULL, NULL, "m/s", "fixed speed (if negative, force is acting as load)", 0, 0, 0, NULL},
    PAR_USESUPPORT,
};
static const fl_var_def cs_vars[] = {
    {"f", "N", "accelerating force acting at flange (= flange.f)", 0, 0, 0},
    {"s", "m", "distance between flange and support (= flange.s - support.s)", FL_VF_ATTR | FL_VF_WEAK, 0, 0},
    {"v", "m/s", "velocity of flange with respect to support (= der(s))", 0, 0, 0},
};

static fl_drv_kind cs_kind(const double *p)
{
    FL_UNUSED(p);
    return FL_DRV_VEL;
}

static void cs_drive(const fl_drv_in *in, fl_drv_out *out)
{
    out->v = in->par[0];
    out->a = 0;
}

static int cs_build(fl_builder *b)
{
    int fl = fl_b_port(b, "flange"), sp = fl_b_port(b, "support");
    fl_b_driver(b, fl, sp);
    fl_b_state(b, "s", 0, fl, sp, 0);
    return 0;
}

static void cs_outputs(const fl_octx *o, double *v)
{
    v[0] = o->pf[0];
    v[1] = o->ps[0] - o->ps[1];
    v[2] = o->pv[0] - o->pv[1];
}

const fl_drv_ops fl_constantspeed_drv = {
    .kind = cs_kind,
    .drive = cs_drive,
};
static const fl_class cls_constantspeed = {
    .path = MTS "ConstantSpeed",
    .desc = "Constant speed, not dependent on force",
    .ports = cs_ports,
    .nports = FL_N(cs_ports),
    .params = cs_params,
    .nparams = FL_N(cs_params),
    .vars = cs_vars,
    .nvars = FL_N(cs_vars),
    .build = cs_build,
    .drv = &fl_constantspeed_drv,
    .outputs = cs_outputs,
};

const fl_class *const fl_classes_motion[] = {
    &cls_position, &cls_speed, &cls_accelerate, &cls_move, &cls_constantspeed, NULL,
};
