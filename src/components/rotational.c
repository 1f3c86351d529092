/* rotational.c - Modelica.Mechanics.Rotational.Components that are rigid
 * bodies or compliant elements: Fixed, Inertia, Disc, Spring, Damper,
 * SpringDamper, RelativeStates. The network is the translational one with
 * angle phi (rad) for position and torque tau (N.m) for force, so the force
 * laws are the translational classes' (laws.h); only the names differ. */
#include "common.h"
#include "laws.h"

#define MRC "Modelica.Mechanics.Rotational.Components."

static const fl_port_def two_ports[] = {RPORT_FLANGE_A, RPORT_FLANGE_B};

/* ---- Fixed ------------------------------------------------------------- */

static const fl_port_def fixed_ports[] = {{"flange", FL_PORT_FLANGE, NULL, 0, "", "flange fixed in the housing", 1}};
static const fl_param_def fixed_params[] = {
    {"phi0", FL_P_REAL, "0", NULL, "rad", "fixed offset angle of housing", 0, 0, 0, NULL},
};

static int fixed_build(fl_builder *b)
{
    fl_b_ground(b, fl_b_port(b, "flange"), fl_b_par(b, "phi0"));
    return 0;
}

static const fl_class cls_fixed = {
    .path = MRC "Fixed",
    .desc = "Flange fixed in housing at a given angle",
    .ports = fixed_ports,
    .nports = FL_N(fixed_ports),
    .params = fixed_params,
    .nparams = FL_N(fixed_params),
    .build = fixed_build,
};

/* ---- Inertia and Disc -------------------------------------------------- */

static const fl_param_def inertia_params[] = {
    {"J", FL_P_REAL, NULL, "1", "kg.m2", "moment of inertia", FL_PF_MIN, 0, 0, NULL},
    PAR_STATESELECT("StateSelect.default"),
};
static const fl_var_def inertia_vars[] = {
    {"phi", "rad", "absolute rotation angle of component", FL_VF_ATTR, 0, 0},
    {"w", "rad/s", "absolute angular velocity of component (= der(phi))", FL_VF_ATTR, 0, 0},
    {"a", "rad/s2", "absolute angular acceleration of component (= der(w))", FL_VF_ATTR, 0, 0},
};

static int inertia_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    fl_b_link(b, pa, pb, 0, fl_b_par(b, "J"));
    fl_b_state(b, "phi", 0, pa, FL_NOPORT, 0);
    fl_b_state(b, "w", 1, pa, FL_NOPORT, 0);
    fl_b_state(b, "a", 2, pa, FL_NOPORT, 0);
    return 0;
}

/* phi, w, a of flange_a */
static void inertia_outputs(const fl_octx *o, double *v)
{
    v[0] = o->ps[0];
    v[1] = o->pv[0];
    v[2] = o->pa[0];
}

static const fl_class cls_inertia = {
    .path = MRC "Inertia",
    .desc = "1D-rotational component with inertia",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = inertia_params,
    .nparams = FL_N(inertia_params),
    .vars = inertia_vars,
    .nvars = FL_N(inertia_vars),
    .build = inertia_build,
    .outputs = inertia_outputs,
};

/* Disc: a massless rigid piece whose flange_b is turned by deltaPhi
 * against flange_a; phi is the angle of its middle. */
static const fl_param_def disc_params[] = {
    {"deltaPhi", FL_P_REAL, "0", NULL, "rad", "fixed rotation of left flange with respect to right flange (= "
     "flange_b.phi - flange_a.phi)", 0, 0, 0, NULL},
};
static const fl_var_def disc_vars[] = {{"phi", "rad", "absolute rotation angle of component", 0, 0, 0}};

static int disc_build(fl_builder *b)
{
    fl_b_link(b, fl_b_port(b, "flange_a"), fl_b_port(b, "flange_b"), fl_b_par(b, "deltaPhi"), 0);
    return 0;
}

static void disc_outputs(const fl_octx *o, double *v)
{
    v[0] = o->ps[0] + o->par[0] / 2;
}

static const fl_class cls_disc = {
    .path = MRC "Disc",
    .desc = "1-dim. rotational rigid component without inertia, where right flange is rotated by a fixed angle "
            "with respect to left flange",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = disc_params,
    .nparams = FL_N(disc_params),
    .vars = disc_vars,
    .nvars = FL_N(disc_vars),
    .build = disc_build,
    .outputs = disc_outputs,
};

/* ---- compliant elements ------------------------------------------------ */

/* phi_rel (and w_rel, a_rel with relative states) */
static int compliant_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    fl_b_element(b, pa, pb);
    fl_b_state(b, "phi_rel", 0, pb, pa, 0);
    return 0;
}

static int compliant_rs_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    fl_b_element(b, pa, pb);
    fl_b_state(b, "phi_rel", 0, pb, pa, 0);
    fl_b_state(b, "w_rel", 1, pb, pa, 0);
    fl_b_state(b, "a_rel", 2, pb, pa, 0); /* a_rel(fixed = true): der(w_rel) given at the start */
    return 0;
}

#define PAR_PHINOMINAL {"phi_nominal", FL_P_REAL, "1e-4", NULL, "rad", "nominal value of phi_rel (scaling)", FL_PF_MIN, 0, 0, NULL}
#define RS_VARS                                                                                   \
    {"phi_rel", "rad", "relative rotation angle (= flange_b.phi - flange_a.phi)", FL_VF_ATTR, 0, 0}, \
    {"w_rel", "rad/s", "relative angular velocity (= der(phi_rel))", FL_VF_ATTR, 0, 0},               \
    {"a_rel", "rad/s2", "relative angular acceleration (= der(w_rel))", FL_VF_ATTR, 0, 0},            \
    {"tau", "N.m", "torque between flanges (= flange_b.tau)", 0, 0, 0}

/* Spring: the translational law with c, phi_rel0 in place of c, s_rel0. */
static const fl_param_def spring_params[] = {
    {"c", FL_P_REAL, NULL, "1e5", "N.m/rad", "spring constant", FL_PF_MIN, 0, 0, NULL},
    {"phi_rel0", FL_P_REAL, "0", NULL, "rad", "unstretched spring angle", 0, 0, 0, NULL},
};
static const fl_var_def spring_vars[] = {
    {"phi_rel", "rad", "relative rotation angle (= flange_b.phi - flange_a.phi)", FL_VF_ATTR, 0, 0},
    {"tau", "N.m", "torque between flanges (= flange_b.tau)", 0, 0, 0},
};

static void spring_outputs(const fl_octx *o, double *v)
{
    v[0] = o->ps[1] - o->ps[0];
    v[1] = o->par[0] * (v[0] - o->par[1]);
}

static const fl_class cls_spring = {
    .path = MRC "Spring",
    .desc = "Linear 1D rotational spring",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = spring_params,
    .nparams = FL_N(spring_params),
    .vars = spring_vars,
    .nvars = FL_N(spring_vars),
    .build = compliant_build,
    .elem = &fl_spring_ops,
    .outputs = spring_outputs,
};

static const fl_param_def damper_params[] = {
    {"d", FL_P_REAL, NULL, "0", "N.m.s/rad", "damping constant", FL_PF_MIN, 0, 0, NULL},
    PAR_STATESELECT("StateSelect.prefer"),
    PAR_PHINOMINAL,
    PAR_USEHEATPORT,
};
static const fl_var_def damper_vars[] = {
    RS_VARS,
    {"lossPower", "W", "loss power leaving the component via heatPort", 0, 0, 0},
};

static void damper_outputs(const fl_octx *o, double *v)
{
    fl_relstates_outputs(o, v);
    v[3] = o->par[0] * v[1];
    v[4] = v[3] * v[1];
}

static const fl_class cls_damper = {
    .path = MRC "Damper",
    .desc = "Linear 1D rotational damper",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = damper_params,
    .nparams = FL_N(damper_params),
    .vars = damper_vars,
    .nvars = FL_N(damper_vars),
    .build = compliant_rs_build,
    .elem = &fl_damper_ops,
    .outputs = damper_outputs,
};

/* the order of c, d, phi_rel0 is the translational law's (c, d, s_rel0) */
static const fl_param_def sd_params[] = {
    {"c", FL_P_REAL, NULL, "1e5", "N.m/rad", "spring constant", FL_PF_MIN, 0, 0, NULL},
    {"d", FL_P_REAL, NULL, "0", "N.m.s/rad", "damping constant", FL_PF_MIN, 0, 0, NULL},
    {"phi_rel0", FL_P_REAL, "0", NULL, "rad", "unstretched spring angle", 0, 0, 0, NULL},
    PAR_STATESELECT("StateSelect.prefer"),
    PAR_PHINOMINAL,
    PAR_USEHEATPORT,
};
static const fl_var_def sd_vars[] = {
    RS_VARS,
    {"lossPower", "W", "loss power leaving the component via heatPort", 0, 0, 0},
};

static void sd_outputs(const fl_octx *o, double *v)
{
    const double *p = o->par;
    fl_relstates_outputs(o, v);
    double td = p[1] * v[1];
    v[3] = p[0] * (v[0] - p[2]) + td;
    v[4] = td * v[1];
}

static const fl_class cls_springdamper = {
    .path = MRC "SpringDamper",
    .desc = "Linear 1D rotational spring and damper in parallel",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = sd_params,
    .nparams = FL_N(sd_params),
    .vars = sd_vars,
    .nvars = FL_N(sd_vars),
    .build = compliant_rs_build,
    .elem = &fl_springdamper_ops,
    .outputs = sd_outputs,
};

/* ---- RelativeStates ---------------------------------------------------- */

static const fl_param_def rs_params[] = {PAR_STATESELECT("StateSelect.prefer")};
static const fl_var_def rs_vars[] = {
    {"phi_rel", "rad", "relative rotation angle used as state variable", FL_VF_ATTR, 0, 0},
    {"w_rel", "rad/s", "relative angular velocity used as state variable", FL_VF_ATTR, 0, 0},
    {"a_rel", "rad/s2", "relative angular acceleration", 0, 0, 0},
};

static int rs_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    fl_b_state(b, "phi_rel", 0, pb, pa, 0);
    fl_b_state(b, "w_rel", 1, pb, pa, 0);
    fl_b_observe(b, pa, 1);
    fl_b_observe(b, pb, 1);
    return 0;
}

static const fl_class cls_relstates = {
    .path = MRC "RelativeStates",
    .desc = "Definition of relative state variables",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = rs_params,
    .nparams = FL_N(rs_params),
    .vars = rs_vars,
    .nvars = FL_N(rs_vars),
    .build = rs_build,
    .outputs = fl_relstates_outputs,
};

const fl_class *const fl_classes_rotational[] = {
    &cls_fixed, &cls_inertia, &cls_disc, &cls_spring, &cls_damper, &cls_springdamper, &cls_relstates,
    NULL,
};
