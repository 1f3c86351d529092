/* mechanics.c - Modelica.Mechanics.Translational.Components: Fixed, Mass,
 * Rod, Spring, Damper, SpringDamper, RelativeStates. */
#include "common.h"
#include "laws.h"

#define MTC "Modelica.Mechanics.Translational.Components."

/* ---- Fixed ------------------------------------------------------------- */

static const fl_port_def fixed_ports[] = {{"flange", FL_PORT_FLANGE, NULL, 0, "", "flange fixed in the housing", 0}};
static const fl_param_def fixed_params[] = {
    {"s0", FL_P_REAL, "0", NULL, "m", "fixed offset position of housing", 0, 0, 0, NULL},
};

static int fixed_build(fl_builder *b)
{
    fl_b_ground(b, fl_b_port(b, "flange"), fl_b_par(b, "s0"));
    return 0;
}

static const fl_class cls_fixed = {
    .path = MTC "Fixed",
    .desc = "Fixed flange",
    .ports = fixed_ports,
    .nports = FL_N(fixed_ports),
    .params = fixed_params,
    .nparams = FL_N(fixed_params),
    .build = fixed_build,
};

/* ---- Mass -------------------------------------------------------------- */

static const fl_port_def two_ports[] = {PORT_FLANGE_A, PORT_FLANGE_B};
static const fl_param_def mass_params[] = {
    {"m", FL_P_REAL, NULL, "1", "kg", "mass of the sliding mass", FL_PF_MIN, 0, 0, NULL},
    {"L", FL_P_REAL, "0", NULL, "m", "length of component, from left flange to right flange", 0, 0, 0, NULL},
    PAR_STATESELECT("StateSelect.default"),
};
enum { MASS_M, MASS_L };
static const fl_var_def mass_vars[] = {
    {"s", "m", "absolute position of the center of the component", FL_VF_ATTR, 0, 0},
    {"v", "m/s", "absolute velocity of the component", FL_VF_ATTR, 0, 0},
    {"a", "m/s2", "absolute acceleration of the component", FL_VF_ATTR, 0, 0},
};

static int mass_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    double L = fl_b_par(b, "L");
    fl_b_link(b, pa, pb, L, fl_b_par(b, "m"));
    fl_b_state(b, "s", 0, pa, FL_NOPORT, L / 2);
    fl_b_state(b, "v", 1, pa, FL_NOPORT, 0);
    fl_b_state(b, "a", 2, pa, FL_NOPORT, 0);
    return 0;
}

static void mass_outputs(const fl_octx *o, double *v)
{
    v[0] = o->ps[0] + o->par[MASS_L] / 2;
    v[1] = o->pv[0];
    v[2] = o->pa[0];
}

static const fl_class cls_mass = {
    .path = MTC "Mass",
    .desc = "Sliding mass with inertia",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = mass_params,
    .nparams = FL_N(mass_params),
    .vars = mass_vars,
    .nvars = FL_N(mass_vars),
    .build = mass_build,
    .outputs = mass_outputs,
};

/* ---- Rod --------------------------------------------------------------- */

static const fl_param_def rod_params[] = {
    {"L", FL_P_REAL, NULL, "0", "m", "length of component, from left flange to right flange", 0, 0, 0, NULL},
};
static const fl_var_def rod_vars[] = {
    {"s", "m", "absolute position of the center of the component", 0, 0, 0},
};

static int rod_build(fl_builder *b)
{
    fl_b_link(b, fl_b_port(b, "flange_a"), fl_b_port(b, "flange_b"), fl_b_par(b, "L"), 0);
    return 0;
}

static void rod_outputs(const fl_octx *o, double *v)
{
    v[0] = o->ps[0] + o->par[0] / 2;
}

static const fl_class cls_rod = {
    .path = MTC "Rod",
    .desc = "Rod without inertia",
    .ports = two_ports,
    .nports = FL_N(two_ports),
    .params = rod_params,
    .nparams = FL_N(rod_params),
    .vars = rod_vars,
    .nvars = FL_N(rod_vars),
    .build = rod_build,
    .outputs = rod_outputs,
};

/* ---- compliant elements: common build --------------------------------- */

static int compliant_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    fl_b_element(b, pa, pb);
    fl_b_state(b, "s_rel", 0, pb, pa, 0);
    return 0;
}

static int compliant_rs_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    fl_b_element(b, pa, pb);
    fl_b_state(b, "s_rel", 0, pb, pa, 0);
    fl_b_state(b, "v_rel", 1, pb, pa, 0);
    return 0;
}

/* ---- Spring ------------------------------------------------------------ */

static const fl_param_def spring_params[] = {
    {"c", FL_P_REAL, NULL, "1", "N/m", "spring constant", FL_PF_MIN, 0, 0, NULL},
    {"s_rel0", FL_P_REAL, "0", NULL, "m", "unstretched spring length", FL_PF_MIN, 0, 0, NULL},
};
static const fl_var_def spring_vars[] = {
    {"s_rel", "m", "relative distance (= flange_b.s - flange_a.s)", FL_VF_ATTR, 0, 0},
    {"f", "N", "force between flanges (positive in direction of flange axis R)", 0, 0, 0},
};
static const uint64_t dep_s[] = {DEP_S, DEP_S};

static double spring_force(const double *p, double s_rel)
{
    return p[0] * (s_rel - p[1]);
}

static void spring_eval(fl_ectx *x, const fl_elem *e, int n)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        fl_compliant_out(x, e, spring_force(p, fl_srel(x, e)), p[0], 0);
    }
}

static double spring_energy_of(const double *p, double s_rel)
{
    double ds = s_rel - p[1];
    return 0.5 * p[0] * ds * ds;
}

FL_FAST_LAW spring_law(const fl_fast *z, const fl_ectx *x, int i, const double *p, fl_fast_out *o)
{
    double s = fl_fast_srel(z, x, i);
    o->f = spring_force(p, s);
    o->dfds = p[0];
    o->dfdv = 0;
    o->U = spring_energy_of(p, s);
    o->loss = 0;
}

static void spring_fast(const fl_fast *z, const fl_ectx *x, int what, double *out)
{
    FL_FAST_RUN(z, x, what, out, spring_law);
}

static void spring_outputs(const fl_octx *o, double *v)
{
    v[0] = o->ps[1] - o->ps[0];
    v[1] = o->par[0] * (v[0] - o->par[1]);
}

static void spring_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    for (int i = 0; i < n; i++, e++) {
        U[e->idx] = spring_energy_of(x->par + e->pofs, fl_srel(x, e));
        loss[e->idx] = 0;
    }
}

const fl_elem_ops fl_spring_ops = {
    .dep = dep_s,
    .flags = FL_EK_COMPLIANT,
    .eval = spring_eval,
    .energy = spring_energy,
    .fast = spring_fast,
    .fast_npar = 2,
};
static const fl_class cls_spring = {
    .path = MTC "Spring",
    .desc = "Linear 1D translational spring",
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

/* ---- Damper ------------------------------------------------------------ */

static const fl_param_def damper_params[] = {
    {"d", FL_P_REAL, NULL, "0", "N.s/m", "damping constant", FL_PF_MIN, 0, 0, NULL},
    PAR_STATESELECT("StateSelect.prefer"),
    PAR_SNOMINAL,
    PAR_USEHEATPORT,
};
static const fl_var_def damper_vars[] = {
    {"s_rel", "m", "relative distance (= flange_b.s - flange_a.s)", FL_VF_ATTR, 0, 0},
    {"v_rel", "m/s", "relative velocity (= der(s_rel))", FL_VF_ATTR, 0, 0},
    {"f", "N", "forces between flanges (= flange_b.f)", 0, 0, 0},
    {"lossPower", "W", "loss power leaving the component via heatPort", 0, 0, 0},
};
static const uint64_t dep_v[] = {DEP_V, DEP_V};

/* the damping force and the power it dissipates at v_rel */
static double damper_force(double d, double v_rel)
{
    return d * v_rel;
}
static double damper_loss(double d, double v_rel)
{
    return d * v_rel * v_rel;
}

static void damper_eval(fl_ectx *x, const fl_elem *e, int n)
{
    for (int i = 0; i < n; i++, e++) {
        double d = x->par[e->pofs];
        fl_compliant_out(x, e, damper_force(d, fl_vrel(x, e)), 0, d);
    }
}

FL_FAST_LAW damper_law(const fl_fast *z, const fl_ectx *x, int i, const double *p, fl_fast_out *o)
{
    double d = p[0], v = fl_fast_vrel(z, x, i);
    o->f = damper_force(d, v);
    o->dfds = 0;
    o->dfdv = d;
    o->U = 0;
    o->loss = damper_loss(d, v);
}

static void damper_fast(const fl_fast *z, const fl_ectx *x, int what, double *out)
{
    FL_FAST_RUN(z, x, what, out, damper_law);
}

static void damper_outputs(const fl_octx *o, double *v)
{
    v[0] = o->ps[1] - o->ps[0];
    v[1] = o->pv[1] - o->pv[0];
    v[2] = o->par[0] * v[1];
    v[3] = v[2] * v[1];
}

static void damper_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    for (int i = 0; i < n; i++, e++) {
        U[e->idx] = 0;
        loss[e->idx] = damper_loss(x->par[e->pofs], fl_vrel(x, e));
    }
}

const fl_elem_ops fl_damper_ops = {
    .dep = dep_v,
    .flags = FL_EK_COMPLIANT,
    .eval = damper_eval,
    .energy = damper_energy,
    .fast = damper_fast,
    .fast_npar = 1,
};
static const fl_class cls_damper = {
    .path = MTC "Damper",
    .desc = "Linear 1D translational damper",
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

/* ---- SpringDamper ------------------------------------------------------ */

static const fl_param_def sd_params[] = {
    {"c", FL_P_REAL, NULL, "1", "N/m", "spring constant", FL_PF_MIN, 0, 0, NULL},
    {"d", FL_P_REAL, NULL, "1", "N.s/m", "damping constant", FL_PF_MIN, 0, 0, NULL},
    {"s_rel0", FL_P_REAL, "0", NULL, "m", "unstretched spring length", 0, 0, 0, NULL},
    PAR_STATESELECT("StateSelect.prefer"),
    PAR_SNOMINAL,
    PAR_USEHEATPORT,
};
enum { SD_C, SD_D, SD_S0 };
static const fl_var_def sd_vars[] = {
    {"s_rel", "m", "relative distance (= flange_b.s - flange_a.s)", FL_VF_ATTR, 0, 0},
    {"v_rel", "m/s", "relative velocity (= der(s_rel))", FL_VF_ATTR, 0, 0},
    {"f", "N", "forces between flanges (= flange_b.f)", 0, 0, 0},
    {"lossPower", "W", "loss power leaving the component via heatPort", 0, 0, 0},
    {"f_c", "N", "spring force", 0, 0, 0},
    {"f_d", "N", "linear damping force", 0, 0, 0},
};
static const uint64_t dep_sv[] = {DEP_S | DEP_V, DEP_S | DEP_V};

static double sd_force(const double *p, double s_rel, double v_rel)
{
    return p[SD_C] * (s_rel - p[SD_S0]) + p[SD_D] * v_rel;
}

static void sd_eval(fl_ectx *x, const fl_elem *e, int n)
{
    for (int i = 0; i < n; i++, e++) {
        const double *p = x->par + e->pofs;
        fl_compliant_out(x, e, sd_force(p, fl_srel(x, e), fl_vrel(x, e)), p[SD_C], p[SD_D]);
    }
}

/* the energy stored and the power lost at s_rel, v_rel */
static void sd_energy_of(const double *p, double s_rel, double v_rel, double *U, double *loss)
{
    double ds = s_rel - p[SD_S0];
    *U = 0.5 * p[SD_C] * ds * ds;
    *loss = p[SD_D] * v_rel * v_rel;
}

FL_FAST_LAW sd_law(const fl_fast *z, const fl_ectx *x, int i, const double *p, fl_fast_out *o)
{
    double s = fl_fast_srel(z, x, i), v = fl_fast_vrel(z, x, i);
    o->f = sd_force(p, s, v);
    o->dfds = p[SD_C];
    o->dfdv = p[SD_D];
    sd_energy_of(p, s, v, &o->U, &o->loss);
}

static void sd_fast(const fl_fast *z, const fl_ectx *x, int what, double *out)
{
    FL_FAST_RUN(z, x, what, out, sd_law);
}

static void sd_outputs(const fl_octx *o, double *v)
{
    const double *p = o->par;
    v[0] = o->ps[1] - o->ps[0];
    v[1] = o->pv[1] - o->pv[0];
    v[4] = p[SD_C] * (v[0] - p[SD_S0]);
    v[5] = p[SD_D] * v[1];
    v[2] = v[4] + v[5];
    v[3] = v[5] * v[1];
}

static void sd_energy(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss)
{
    for (int i = 0; i < n; i++, e++) sd_energy_of(x->par + e->pofs, fl_srel(x, e), fl_vrel(x, e), &U[e->idx], &loss[e->idx]);
}

const fl_elem_ops fl_springdamper_ops = {
    .dep = dep_sv,
    .flags = FL_EK_COMPLIANT,
    .eval = sd_eval,
    .energy = sd_energy,
    .fast = sd_fast,
    .fast_npar = SD_S0 + 1,
};
static const fl_class cls_springdamper = {
    .path = MTC "SpringDamper",
    .desc = "Linear 1D translational spring and damper in parallel",
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
    {"s_rel", "m", "relative position used as state variable", FL_VF_ATTR, 0, 0},
    {"v_rel", "m/s", "relative velocity used as state variable", FL_VF_ATTR, 0, 0},
    {"a_rel", "m/s2", "relative acceleration", 0, 0, 0},
};

static int rs_build(fl_builder *b)
{
    int pa = fl_b_port(b, "flange_a"), pb = fl_b_port(b, "flange_b");
    fl_b_state(b, "s_rel", 0, pb, pa, 0);
    fl_b_state(b, "v_rel", 1, pb, pa, 0);
    fl_b_observe(b, pa, 1);
    fl_b_observe(b, pb, 1);
    return 0;
}

void fl_relstates_outputs(const fl_octx *o, double *v)
{
    v[0] = o->ps[1] - o->ps[0];
    v[1] = o->pv[1] - o->pv[0];
    v[2] = o->pa[1] - o->pa[0];
}

static const fl_class cls_relstates = {
    .path = MTC "RelativeStates",
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

const fl_class *const fl_classes_mechanics[] = {
    &cls_fixed, &cls_mass, &cls_rod, &cls_spring, &cls_damper, &cls_springdamper, &cls_relstates, NULL,
};
