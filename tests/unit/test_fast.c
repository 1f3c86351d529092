/* test_fast.c - the integrator's fast path (src/sim/fast.c) against the
 * general evaluation, bit for bit. A model with every class that has a
 * fast kernel (Spring, Damper, SpringDamper, ElastoGap, SymmetricHardStop
 * with and without a gap, HardStop in its three stiffness laws; the
 * rotational spring, spring-damper, both hard stops and both elasto-
 * backlashes, with and without play), attached
 * to the ground, behind a rod (an offset) and behind a gear (a ratio), and
 * with classes that have none between them (a restitution stop, friction,
 * a force source): at random states, with contacts stepped through and
 * located, during the initialisation and after a parameter change, the
 * residual of fl_eval_residual_ida equals fl_eval_residual's, the Jacobian
 * of fl_eval_jacobian_ida equals fl_eval_jacobian's, the penetration
 * tracked by batch equals the one tracked element by element, and the
 * energies by batch and the energy audit's rates without motion sources
 * equal those through the whole residual. The plan
 * must find fast batches of both kinds (unit and with ratios or offsets)
 * with their Jacobians, or the comparisons would test nothing. And an
 * ensemble's reset of the parameters between runs reaches the kernels. */
#include "simrun.h"
#include "sim/sim.h"
#include "components/laws.h"
#include "components/common.h"

#define MTC "Modelica.Mechanics.Translational.Components."
#define MRC "Modelica.Mechanics.Rotational.Components."

static const char *MODEL =
    "model T\n"
    "  " MTC "Fixed fixed;\n"
    "  " MTC "Mass m1(m=1), m2(m=2), m3(m=3), m4(m=1.5), m5(m=0.5);\n"
    "  " MTC "Spring s01(c=100, s_rel0=0.05);\n"
    "  " MTC "SpringDamper sd12(c=200, d=3), sd23(c=300, d=4, s_rel0=0.01);\n"
    "  " MTC "Damper d34(d=5), d45(d=5);\n"
    "  Flange.Components.HardStop hs12(upper_bnd=0.01, lower_bnd=-0.02, stiff_up=1e4, stiff_low=2e4, D_up=10,"
    " D_low=20);\n"
    "  Flange.Components.HardStop hs23(hs_model=Flange.Types.HardStopModel.SMOOTH, trans_region=0.005);\n"
    "  Flange.Components.HardStop hs34(hs_model=Flange.Types.HardStopModel.FULL_UNDAMPED, upper_bnd=0.005,"
    " lower_bnd=-0.005);\n"
    "  Flange.Components.HardStop hsr(hs_model=Flange.Types.HardStopModel.RESTITUTION, upper_bnd=0.5,"
    " lower_bnd=-0.5);\n"
    "  " MTC "SupportFriction fr(f_pos=[0, 2; 1, 3]);\n"
    "  Modelica.Mechanics.Translational.Sources.ConstantForce push(f_constant=1);\n"
    "  " MTC "Rod rod(L=0.3);\n"
    "  " MTC "Spring s45(c=70);\n"
    "  " MTC "ElastoGap eg12(c=1e3, d=10, s_rel0=0.001), eg45(c=2e3, d=5, n=1.5, s_rel0=0.3);\n"
    "  Flange.Components.SymmetricHardStop shs12(b=0.004, c=5e3, d=2), shs23(b=0, c=1e3, d=1);\n"
    "  Flange.Components.SymmetricRotationalHardStop srhs(b=0.2, c=50, d=0.1);\n"
    "  " MRC "ElastoBacklash eb(b=0.05, c=80, d=0.3, phi_rel0=0.01);\n"
    "  " MRC "ElastoBacklash2 eb2(b=0.04, c=60, d=0.2);\n"
    "  " MRC "ElastoBacklash eb0(b=0, c=30, d=0.1);\n"
    "  " MRC "Inertia J1(J=0.1), J2(J=0.2);\n"
    "  " MRC "IdealGear gear(ratio=3);\n"
    "  " MRC "SpringDamper rsd(c=40, d=0.5);\n"
    "  " MRC "Spring rs(c=10);\n"
    "  Flange.Components.RotationalHardStop rhs(upper_bnd=0.1, lower_bnd=-0.1);\n"
    "  " MRC "Fixed rfixed;\n"
    "equation\n"
    "  connect(fixed.flange, s01.flange_a);\n"
    "  connect(s01.flange_b, m1.flange_a);\n"
    "  connect(m1.flange_b, sd12.flange_a);\n"
    "  connect(sd12.flange_b, m2.flange_a);\n"
    "  connect(m1.flange_b, hs12.C);\n"
    "  connect(hs12.R, m2.flange_a);\n"
    "  connect(m2.flange_b, sd23.flange_a);\n"
    "  connect(sd23.flange_b, m3.flange_a);\n"
    "  connect(m2.flange_b, hs23.C);\n"
    "  connect(hs23.R, m3.flange_a);\n"
    "  connect(m3.flange_b, d34.flange_a);\n"
    "  connect(d34.flange_b, m4.flange_a);\n"
    "  connect(m4.flange_b, d45.flange_a);\n"
    "  connect(d45.flange_b, m5.flange_a);\n"
    "  connect(m3.flange_b, hs34.C);\n"
    "  connect(hs34.R, m4.flange_a);\n"
    "  connect(m3.flange_b, hsr.C);\n"
    "  connect(hsr.R, m4.flange_a);\n"
    "  connect(m4.flange_b, fr.flange_a);\n"
    "  connect(fr.flange_b, m5.flange_a);\n"
    "  connect(push.flange, m5.flange_b);\n"
    "  connect(m4.flange_b, rod.flange_a);\n"
    "  connect(rod.flange_b, s45.flange_a);\n"
    "  connect(s45.flange_b, m5.flange_a);\n"
    "  connect(J1.flange_b, gear.flange_a);\n"
    "  connect(gear.flange_b, rsd.flange_a);\n"
    "  connect(rsd.flange_b, J2.flange_a);\n"
    "  connect(gear.flange_b, rhs.C);\n"
    "  connect(rhs.R, J2.flange_a);\n"
    "  connect(rfixed.flange, rs.flange_a);\n"
    "  connect(m1.flange_b, eg12.flange_a);\n"
    "  connect(eg12.flange_b, m2.flange_a);\n"
    "  connect(rod.flange_b, eg45.flange_a);\n"
    "  connect(eg45.flange_b, m5.flange_a);\n"
    "  connect(m1.flange_b, shs12.flange_a);\n"
    "  connect(shs12.flange_b, m2.flange_a);\n"
    "  connect(m2.flange_b, shs23.flange_a);\n"
    "  connect(shs23.flange_b, m3.flange_a);\n"
    "  connect(J1.flange_b, srhs.flange_a);\n"
    "  connect(srhs.flange_b, J2.flange_a);\n"
    "  connect(J1.flange_b, eb.flange_a);\n"
    "  connect(eb.flange_b, J2.flange_a);\n"
    "  connect(gear.flange_b, eb2.flange_a);\n"
    "  connect(eb2.flange_b, J2.flange_a);\n"
    "  connect(rfixed.flange, eb0.flange_a);\n"
    "  connect(eb0.flange_b, J2.flange_a);\n"
    "  connect(rs.flange_b, J1.flange_a);\n"
    "end T;\n";

/* a reproducible pseudo-random number in [-1, 1) */
static double rnd(unsigned *st)
{
    *st = *st * 1103515245u + 12345u;
    return (double)((*st >> 8) & 0xffffff) / 8388608.0 - 1.0;
}

static int same_bits(const double *a, const double *b, int n)
{
    return n == 0 || memcmp(a, b, sizeof(double) * (size_t)n) == 0;
}

/* penetration element by element (how 0: fast kernels and strands hidden),
 * by batch (1: strands hidden) or, where the model has strands, by strand
 * (2: the bodies' kinematics made NaN first when every contact is in a
 * strand, which reads the positions from y itself) */
static void pen_of(fl_sim *s, const double *y, const double *yp, int how, double *out)
{
    const fl_system *sys = s->sys;
    int saved[64], nstrand = s->nstrand;
    for (int g = 0; g < sys->negroups && g < 64; g++) {
        saved[g] = s->fast[g].n;
        if (how == 0) s->fast[g].n = 0;
    }
    if (how < 2) s->nstrand = 0;
    fl_pen_clear(s);
    fl_eval_kinematics(s, 0.5, y, yp);
    if (how == 2 && nstrand && fl_contacts_in_strands(s))
        for (int b = 0; b < sys->nbodies; b++) s->bq[b] = s->bv[b] = NAN;
    fl_track_penetration(s, 0.5, y, yp);
    for (int k = 0; k < s->npen_el; k++) { /* (by contact, in element order) */
        const struct fl_pen *r = fl_pen_of(s, k);
        out[2 * k] = r ? r->ratio : 0;
        out[2 * k + 1] = r ? r->depth : 0;
    }
    for (int g = 0; g < sys->negroups && g < 64; g++) s->fast[g].n = saved[g];
    s->nstrand = nstrand;
}

/* Energies: each fast batch's FL_FAST_ENERGY against its energy(), and
 * the audit's rates without motion sources (kinematics, force sources and
 * the kernels) against the rates through the whole residual, which it
 * takes when a motion source moves a body (forced here). */
static int same_energy(fl_sim *s, const double *y, const double *yp)
{
    const fl_system *sys = s->sys;
    int same = 1;
    fl_eval_kinematics(s, 0.5, y, yp);
    fl_ectx x;
    fl_init_ectx(s, &x, 0.5, 0, y, yp, s->res, 0);
    fl_fast_ready(s);
    double *U = calloc((size_t)sys->nelem, sizeof(double)), *L = calloc((size_t)sys->nelem, sizeof(double));
    double *out = calloc((size_t)(2 * sys->nelem), sizeof(double));
    for (int g = 0; g < sys->negroups; g++) {
        const fl_egroup *eg = &sys->egroups[g];
        if (!s->fast[g].n) continue;
        eg->ops->energy(&x, &s->elems[eg->first], eg->n, U, L);
        eg->ops->fast(&s->fast[g], &x, FL_FAST_ENERGY, out);
        for (int i = 0; i < eg->n; i++)
            same &= same_bits(&out[2 * i], &U[eg->first + i], 1) && same_bits(&out[2 * i + 1], &L[eg->first + i], 1);
    }
    fl_erates lean, full;
    fl_energy_alloc(s); /* (a run makes them when it audits; this one did not) */
    fl_energy_rates(s, 0.5, y, yp, &lean);
    int nd = s->fbod.ndriven;
    s->fbod.ndriven = 1;
    fl_energy_rates(s, 0.5, y, yp, &full);
    s->fbod.ndriven = nd;
    same &= same_bits(&lean.ekin, &full.ekin, 1) && same_bits(&lean.upot, &full.upot, 1) &&
            same_bits(&lean.ploss, &full.ploss, 1) && same_bits(&lean.pwork, &full.pwork, 1);
    free(U), free(L), free(out);
    return same;
}

/* the fast residual, Jacobian and penetration at `rounds` random states */
static void compare(fl_sim *s, unsigned seed, int rounds, double scale)
{
    const fl_system *sys = s->sys;
    int n = sys->n, nnz = sys->jpat.nnz;
    double *y = calloc((size_t)n, sizeof(double)), *yp = calloc((size_t)n, sizeof(double));
    double *r1 = calloc((size_t)n, sizeof(double)), *r2 = calloc((size_t)n, sizeof(double));
    double *j1 = calloc((size_t)nnz, sizeof(double)), *j2 = calloc((size_t)nnz, sizeof(double));
    double *p1 = calloc((size_t)(2 * sys->nelem), sizeof(double)), *p2 = calloc((size_t)(2 * sys->nelem), sizeof(double));
    int bad_r = 0, bad_j = 0, bad_p = 0, bad_e = 0, moved = 0, bad_alike = 0, pens = 0;
    for (int k = 0; k < rounds; k++) {
        for (int i = 0; i < n; i++) {
            y[i] = scale * rnd(&seed);
            yp[i] = 10 * scale * rnd(&seed);
        }
        for (int i = 0; i < sys->nmodes; i++) s->mode[i] = (int)(3 * (rnd(&seed) + 1) / 2) - 1;
        /* every other round the bodies sit at one offset and the elements'
         * discrete Real states are alike (a chain that has not had an event
         * since it started from one place): the strands and kernels read the
         * one value (fast.c, uniform), the same bits as the rows */
        int alike = k % 2;
        double q1 = scale * rnd(&seed), r1v = 0.01 * rnd(&seed);
        for (int b = 0; b < sys->nbodies; b++) s->qoff[b] = alike ? q1 : scale * rnd(&seed);
        for (int i = 0; i < sys->nreal; i++) s->rs[i] = alike ? r1v : 0.01 * rnd(&seed);
        fl_states_changed(s);
        int a = fl_eval_residual(s, 0.5, y, yp, r1), b = fl_eval_residual_ida(s, 0.5, y, yp, r2);
        if (a != b || !same_bits(r1, r2, n)) bad_r++;
        for (int i = 0; i < s->nstrand; i++) bad_alike += s->strand[i].uqoff != alike;
        for (int g = 0; g < sys->negroups; g++)
            if (s->fast[g].n > 1 && s->fast[g].nreal) bad_alike += (s->fast[g].rstep == 0) != alike;
        for (int i = 0; i < n; i++) moved += r1[i] != 0;
        double cj = 1e3 * (rnd(&seed) + 1.5);
        fl_eval_jacobian(s, 0.5, cj, y, yp, j1, NULL, NULL);
        memset(j2, 0, sizeof(double) * (size_t)nnz);
        fl_eval_jacobian_ida(s, 0.5, cj, y, yp, j2);
        if (!same_bits(j1, j2, nnz)) bad_j++;
        pen_of(s, y, yp, 1, p1);
        pen_of(s, y, yp, 0, p2);
        if (!same_bits(p1, p2, 2 * s->npen_el)) bad_p++;
        pen_of(s, y, yp, 2, p2);
        if (!same_bits(p1, p2, 2 * s->npen_el)) bad_p++;
        for (int i = 0; i < s->npen_el; i++) pens += p1[2 * i] > 0;
        bad_e += !same_energy(s, y, yp);
    }
    CHECK(bad_r == 0);
    CHECK(bad_j == 0);
    CHECK(bad_p == 0);
    CHECK(bad_e == 0);
    CHECK(bad_alike == 0);
    CHECK(moved > rounds); /* the states give forces, not zeros */
    CHECK(!s->npen_el || pens > rounds / 2); /* and contacts in touch */
    free(y), free(yp), free(r1), free(r2), free(j1), free(j2), free(p1), free(p2);
}

/* An ensemble reuses one simulation per thread and starts every run from
 * the compiled parameters: the fast kernels' table must follow that reset
 * too (run 1 changes nothing, and must equal a run of its own). */
static const char *OSC = "model Osc\n"
                         "  " MTC "Fixed fixed;\n"
                         "  " MTC "SpringDamper sd(c=100, d=1);\n"
                         "  " MTC "Mass m(m=1, s(start=0.1, fixed=true), v(start=0, fixed=true));\n"
                         "equation\n"
                         "  connect(fixed.flange, sd.flange_a);\n"
                         "  connect(sd.flange_b, m.flange_a);\n"
                         "end Osc;\n";

typedef struct osc_out {
    int var;     /* m.s */
    double x[2]; /* at the stop time, per run */
} osc_out;

static int osc_setup(fl_sim *sim, int k, fl_diag *rd, void *user)
{
    (void)user;
    return k == 0 ? fl_sim_set_param(sim, "sd.c", 400, rd) : 0;
}

static void osc_done(fl_sim *sim, int k, int status, const fl_diag *rd, void *user)
{
    (void)rd;
    osc_out *out = user;
    out->x[k] = status ? NAN : fl_sim_value(sim, out->var);
}

static void test_ensemble_reset(void)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(OSC, "osc.mo", NULL, d);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    CHECK(sys != NULL);
    if (!sys) return;
    fl_sim_opts o = fl_sim_default_opts(sys);
    o.stop_time = 0.7;
    o.energy = 0;
    osc_out out = {fl_system_var_index(sys, "m.s"), {NAN, NAN}};
    const double *x = out.x;
    CHECK(fl_ensemble_run(sys, &o, 2, 1, osc_setup, osc_done, &out, d) == 0);
    fl_sim *sim = fl_sim_new(sys, d);
    CHECK(sim && fl_sim_run(sim, &o, NULL, NULL, d) == 0);
    double alone = sim ? fl_sim_value(sim, fl_system_var_index(sys, "m.s")) : NAN;
    CHECK(x[1] == alone); /* the same run, bit for bit */
    CHECK(fabs(x[0] - alone) > 1e-3); /* run 0's stiffer spring did change it */
    fl_sim_free(sim);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

/* A class whose local Jacobian is kept as fl_compliant_out's two values
 * must have the shape that layout assumes (two attachments, two rows,
 * columns s and v only, nothing own), and every fast kernel's class is one
 * (its Jacobian goes where fl_compliant_out's would). */
static int compliant_shape_ok(const fl_elem_ops *o)
{
    uint64_t sv = (1ULL << FL_J_S0) | (1ULL << FL_J_V0) | (1ULL << FL_J_S1) | (1ULL << FL_J_V1);
    return !o->nown && !o->nin && !o->ndep && fl_ops_natt(o) == 2 && o->dep && !(o->dep[0] & ~sv) &&
           !(o->dep[1] & ~sv);
}

static void test_compliant_classes(void)
{
    int ncompliant = 0, nfast = 0;
    for (int i = 0; i < fl_class_count(); i++) {
        const fl_elem_ops *o = fl_class_at(i)->elem;
        if (!o) continue;
        if (o->flags & FL_EK_COMPLIANT) {
            ncompliant++;
            if (!compliant_shape_ok(o)) fprintf(stderr, "%s: compliant but not of that shape\n", fl_class_at(i)->path);
            CHECK(compliant_shape_ok(o));
        }
        if (o->fast) {
            nfast++;
            CHECK(o->flags & FL_EK_COMPLIANT);
        }
    }
    double par[16] = {0};
    for (int model = 1; model <= 4; model++) { /* HardStop's laws, in both domains */
        par[6] = model; /* HS_MODEL */
        const fl_elem_ops *ops[2] = {fl_hardstop_select(par), fl_rot_hardstop_select(par)};
        for (int k = 0; k < 2; k++)
            CHECK(!(ops[k]->flags & FL_EK_COMPLIANT) == (model == 4) && (model == 4 || compliant_shape_ok(ops[k])));
    }
    CHECK(ncompliant >= 10);
    CHECK(nfast >= 5);
}

/* The model text compiled into a simulation (NULL, the messages
 * printed, if that fails); *m and *sys to free with it. */
static fl_sim *sim_of(const char *text, const char *file, fl_model **m, fl_system **sys, fl_diag *d)
{
    *m = fl_model_load_string(text, file, NULL, d);
    *sys = *m ? fl_compile(*m, d) : NULL;
    fl_sim *s = *sys ? fl_sim_new(*sys, d) : NULL;
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    return s;
}

/* A chain of n bodies of class body (its mass or inertia the parameter
 * bpar, a little different for each), elements of the classes
 * cls[0 .. nc) with the modifiers mod[k] between each two neighbours (the
 * element's two ports pa[k] and pb[k]), as Modelica text; extra: more
 * declarations and equations. */
static char *chain_text(const char *body, const char *bpar, int n, const char *const *cls, const char *const *mod,
                        const char *const *pa, const char *const *pb, int nc, const char *extra_decl,
                        const char *extra_eq)
{
    size_t cap = 4096 + (size_t)n * (size_t)(nc + 1) * 200, len = 0;
    char *t = malloc(cap);
    len += (size_t)snprintf(t + len, cap - len, "model C\n");
    for (int i = 1; i <= n; i++) {
        len += (size_t)snprintf(t + len, cap - len, "  %s b%d(%s=%g);\n", body, i, bpar, 0.5 + 0.001 * i);
        for (int k = 0; k < nc && i < n; k++)
            len += (size_t)snprintf(t + len, cap - len, "  %s e%d_%d%s;\n", cls[k], k, i, mod[k]);
    }
    len += (size_t)snprintf(t + len, cap - len, "%sequation\n%s", extra_decl, extra_eq);
    for (int i = 1; i < n; i++)
        for (int k = 0; k < nc; k++)
            len += (size_t)snprintf(t + len, cap - len, "  connect(b%d.flange_b, e%d_%d.%s);\n  connect(e%d_%d.%s, b%d.flange_a);\n", i, k,
                                    i, pa[k], k, i, pb[k], i + 1);
    snprintf(t + len, cap - len, "end C;\n");
    return t;
}

/* Strands (fast.c): chains of alike parts whose batches the integrator's
 * residual walks a block of elements at a time, the bodies no one else
 * touches finished there; bit for bit the residual of the general
 * evaluation, over several blocks, with bodies that are not fused (a
 * force on the first, a damper to the ground on one in the middle), and with more
 * batches than a strand holds (two strands on the same bodies: none
 * fused), and on the rotational side. Their Jacobians, whose entries repeat one pattern of matrix
 * slots from element to element but at the chain's ends, likewise. */
static void test_strands(void)
{
    static const char *const cls[] = {
        MTC "SpringDamper", "Flange.Components.HardStop", MTC "ElastoGap", MTC "Spring", MTC "Damper",
        "Flange.Components.SymmetricHardStop",
    };
    static const char *const mod[] = {
        "(c=1e3, d=2, s_rel0=0.1)",
        "(upper_bnd=0.02, lower_bnd=-0.03, stiff_up=1e5, stiff_low=2e5, D_up=30, D_low=40)",
        "(c=1e4, d=5, s_rel0=0.01)",
        "(c=300, s_rel0=0.05)",
        "(d=0.7)",
        "(b=0.004, c=5e3, d=2)",
    };
    static const char *const pa[] = {"flange_a", "C", "flange_a", "flange_a", "flange_a", "flange_a"};
    static const char *const pb[] = {"flange_b", "R", "flange_b", "flange_b", "flange_b", "flange_b"};
    /* the rotational side: backlash, hard stop, spring-damper between inertias */
    static const char *const rcls[] = {MRC "ElastoBacklash", "Flange.Components.RotationalHardStop", MRC "SpringDamper"};
    static const char *const rmod[] = {"(b=0.05, c=80, d=0.3, phi_rel0=0.01)", "(upper_bnd=0.1, lower_bnd=-0.1)",
                                       "(c=40, d=0.5)"};
    static const char *const rpa[] = {"flange_a", "C", "flange_a"}, *const rpb[] = {"flange_b", "R", "flange_b"};
    struct {
        int n, nc;
        const char *extra_decl, *extra_eq;
        int nstrand, nbatch, nfused;
        int rot;
    } cases[] = {
        /* 599 elements per batch: three blocks; b1 pushed, b300 damped to the ground */
        {600, 2,
         "  Modelica.Mechanics.Translational.Sources.ConstantForce push(f_constant=5);\n"
         "  " MTC "Fixed fx;\n  " MTC "Damper dg(d=1);\n",
         "  connect(push.flange, b1.flange_a);\n  connect(fx.flange, dg.flange_a);\n  connect(dg.flange_b, b300.flange_b);\n",
         1, 2, 598, 0},
        /* six classes: a strand of four, then one of two on the same bodies */
        {40, 6, "", "", 2, 4, 0, 0},
        /* one batch, every body fused, a block and a bit */
        {258, 1, "", "", 1, 1, 258, 0},
        /* rotational: three batches, the first inertia driven by a torque */
        {300, 3, "  Modelica.Mechanics.Rotational.Sources.ConstantTorque tq(tau_constant=2);\n",
         "  connect(tq.flange, b1.flange_a);\n", 1, 3, 299, 1},
    };
    for (int c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++) {
        int rot = cases[c].rot;
        char *text = chain_text(rot ? MRC "Inertia" : MTC "Mass", rot ? "J" : "m", cases[c].n, rot ? rcls : cls,
                                rot ? rmod : mod, rot ? rpa : pa, rot ? rpb : pb, cases[c].nc, cases[c].extra_decl,
                                cases[c].extra_eq);
        fl_diag *d = fl_diag_new();
        fl_model *m;
        fl_system *sys;
        fl_sim *s = sim_of(text, "c.mo", &m, &sys, d);
        CHECK(s != NULL);
        if (s) {
            int nfused = 0;
            for (int k = 0; k < s->nstrand; k++)
                for (int j = 0; j <= s->strand[k].n; j++) nfused += s->strand[k].fused[j];
            CHECK(s->nstrand == cases[c].nstrand);
            CHECK(s->nstrand > 0 && s->strand[0].g1 - s->strand[0].g0 == cases[c].nbatch);
            CHECK(s->nstrand > 0 && s->strand[0].n == cases[c].n - 1);
            CHECK(nfused == cases[c].nfused);
            /* the residual's body passes walk the others; with none fused, fbod itself */
            CHECK(nfused ? s->fkeep.n == s->fbod.n - nfused : s->fkeep.b == NULL);
            /* a chain's Jacobian entries repeat their pattern but at its ends:
             * kept by rule (compile/jrules.c), a few elements' entries stored
             * of each batch's hundreds, and scattered by the rule */
            for (int k = 0; k < s->nstrand; k++)
                for (int g = s->strand[k].g0; g < s->strand[k].g1; g++) {
                    const fl_fast_jac *fj = &s->fastj[g];
                    CHECK(fj->m > 0 && fj->nrule >= 1 && fj->j1 - fj->j0 <= 8 * fj->m);
                    if (!(fj->m > 0 && fj->nrule >= 1 && fj->j1 - fj->j0 <= 8 * fj->m))
                        fprintf(stderr, "case %d batch %d: m %d, %d rules, %d entries stored\n", c, g, fj->m, fj->nrule,
                                fj->j1 - fj->j0);
                }
            if (s->nstrand != cases[c].nstrand || nfused != cases[c].nfused)
                fprintf(stderr, "case %d: %d strands, %d fused\n", c, s->nstrand, nfused);
            s->contact_events = 0;
            compare(s, 11u + (unsigned)c, 40, 0.05);
            s->contact_events = 1;
            compare(s, 21u + (unsigned)c, 40, 0.05);
        }
        if (s && s->nstrand) { /* the last body's row not finite (fused in the first and third case): both say so */
            int n = sys->n, last = s->strand[0].q0 + s->strand[0].n * s->strand[0].dq;
            double *y = calloc((size_t)n, sizeof(double)), *yp = calloc((size_t)n, sizeof(double));
            double *r = calloc((size_t)n, sizeof(double));
            yp[last + s->strand[0].dv] = NAN;
            CHECK(fl_eval_residual(s, 0.5, y, yp, r) != 0);
            CHECK(fl_eval_residual_ida(s, 0.5, y, yp, r) != 0);
            yp[last + s->strand[0].dv] = 0;
            CHECK(fl_eval_residual_ida(s, 0.5, y, yp, r) == 0);
            free(y), free(yp), free(r);
        }
        fl_sim_free(s);
        fl_system_free(sys);
        fl_model_free(m);
        fl_diag_free(d);
        free(text);
    }
}

/* rows of a run's selected outputs */
typedef struct rows {
    int n, w;
    double v[4096];
} rows;

static int keep_rows(void *user, double t, const double *vals, int nvals)
{
    rows *r = user;
    (void)t;
    r->w = nvals < 3 ? nvals : 3; /* the first three: the positions and velocities */
    for (int k = 0; k < r->w && r->n * 3 + k < 4096; k++) r->v[r->n * 3 + k] = vals[k];
    r->n++;
    return 0;
}

/* A run that shows positions and velocities only, on a chain whose
 * contacts all lie in a strand, evaluates at its output points the
 * kinematics of the bodies shown alone (fl_output_scope), and each
 * contact's depth from its strand: the values bit for bit those of a run
 * that shows a force too (every body's kinematics, no scope), and the
 * same deepest penetration of every contact. */
static void test_output_scope(void)
{
    static const char *const cls[] = {MTC "SpringDamper", "Flange.Components.HardStop"};
    static const char *const mod[] = {"(c=1e3, d=2)", "(upper_bnd=0.01, lower_bnd=-0.01, stiff_up=1e5, stiff_low=1e5)"};
    static const char *const pa[] = {"flange_a", "C"}, *const pb[] = {"flange_b", "R"};
    char *text = chain_text(MTC "Mass", "m", 300, cls, mod, pa, pb, 2,
                            "  Modelica.Mechanics.Translational.Sources.ConstantForce push(f_constant=50);\n",
                            "  connect(push.flange, b1.flange_a);\n");
    fl_diag *d = fl_diag_new();
    fl_model *m;
    fl_system *sys;
    fl_sim *s = sim_of(text, "c.mo", &m, &sys, d);
    CHECK(s != NULL && s->nstrand == 1);
    if (s) {
        static rows a, b;
        int out[4] = {fl_system_var_index(sys, "b1.s"), fl_system_var_index(sys, "b5.v"),
                      fl_system_var_index(sys, "b20.flange_b.s"), fl_system_var_index(sys, "e0_1.f")};
        fl_sim_opts o = fl_sim_default_opts(sys);
        o.stop_time = 0.5;
        o.interval = 0.002;
        o.energy = 0;
        o.contacts = FL_CONTACTS_STEP;
        o.selected_only = 1;
        o.outputs = out;
        o.noutputs = 3;
        CHECK(fl_sim_run(s, &o, keep_rows, &a, d) == 0);
        CHECK(s->osc != NULL && s->osc->nb == 3); /* the three bodies shown */
        double *pa_ = malloc(sizeof(double) * 2 * (size_t)s->npen_el);
        int touched = 0;
        for (int k = 0; k < s->npen_el; k++) {
            const struct fl_pen *r = fl_pen_of(s, k);
            pa_[2 * k] = r ? r->ratio : 0;
            pa_[2 * k + 1] = r ? r->depth : 0;
            touched += r && r->ratio > 0;
        }
        o.noutputs = 4; /* a force: every body's kinematics at output points */
        CHECK(fl_sim_run(s, &o, keep_rows, &b, d) == 0);
        CHECK(s->osc == NULL);
        CHECK(a.n == b.n && a.n == 251 && a.w == 3 && b.w == 3);
        CHECK(same_bits(a.v, b.v, 3 * a.n));
        int same_pen = 1;
        for (int k = 0; k < s->npen_el; k++) {
            const struct fl_pen *r = fl_pen_of(s, k);
            double ratio = r ? r->ratio : 0, depth = r ? r->depth : 0;
            same_pen &= same_bits(&pa_[2 * k], &ratio, 1) && same_bits(&pa_[2 * k + 1], &depth, 1);
        }
        CHECK(same_pen);
        CHECK(touched > 20); /* (the push reaches 47 of the 299 stops in 0.5 s) */
        free(pa_);
    }
    for (int i = 0; i < fl_diag_count(d); i++)
        if (fl_diag_severity(d, i) == FL_SEV_ERROR) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    fl_sim_free(s);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
    free(text);
}

int main(void)
{
    test_strands();
    test_output_scope();
    test_compliant_classes();
    /* the depth checks' maximum is C's fmax, NaN arguments included */
    CHECK(fl_fmax(2, 1) == 2 && fl_fmax(1, 2) == 2 && fl_fmax(-1, -3) == -1);
    CHECK(fl_fmax(0, NAN) == 0 && fl_fmax(NAN, 1.5) == 1.5 && isnan(fl_fmax(NAN, NAN)));
    CHECK(fl_fmax(0, INFINITY) == INFINITY && fl_fmax(-INFINITY, 0) == 0);
    test_ensemble_reset();
    fl_diag *d = fl_diag_new();
    fl_model *m;
    fl_system *sys;
    fl_sim *s = sim_of(MODEL, "t.mo", &m, &sys, d);
    CHECK(s != NULL);
    if (!s) return check_done();
    CHECK(sys->negroups <= 64);

    /* the plan: fast batches of both kinds, their Jacobians, general ones between */
    int nfast = 0, nunit = 0, nplain = 0, njac = 0, ngeneral = 0, nfree = s->fbod.n;
    for (int g = 0; g < sys->negroups; g++) {
        if (!s->fast[g].n) {
            ngeneral++;
            continue;
        }
        nfast++;
        if (s->fast[g].unit) nunit++;
        else nplain++;
        if (s->fastj[g].ok) njac++;
    }
    /* Spring, Damper, SpringDamper, ElastoGap, SymmetricHardStop,
     * HardStop's stiffness laws; the rotational Spring, SpringDamper, the
     * two rotational hard stops, ElastoBacklash and ElastoBacklash2 */
    CHECK(nfast == 12);
    CHECK(nunit >= 2);
    CHECK(nplain >= 2);
    /* every fast batch gives its own Jacobian, into the compact local
     * blocks of compliant classes (two values per element, where
     * fl_compliant_out writes them): also the translational springs'
     * batch with a grounded element (one Jacobian entry) and a free one
     * (four), and the elasto-backlashes' with one grounded (two entries) */
    CHECK(njac == nfast);
    int ncompact = 0;
    for (int g = 0; g < sys->negroups; g++)
        ncompact += s->fast[g].n && s->fastj[g].jend - s->fastj[g].jbase == 2 * sys->egroups[g].n;
    CHECK(ncompact == nfast);
    /* and scatters it through the batch's run of entries, alike per element
     * except in those two batches (each entry then read through its source) */
    int nalike = 0, nirregular = 0;
    for (int g = 0; g < sys->negroups; g++) {
        nalike += s->fast[g].n && s->fastj[g].m > 0;
        nirregular += s->fast[g].n && s->fastj[g].m < 0;
    }
    CHECK(nirregular == 2);
    CHECK(nalike == nfast - 2);
    CHECK(ngeneral >= 3); /* restitution, friction, force source */
    CHECK(nfree >= 5);
    if (nfast != 12 || njac != nfast) {
        for (int g = 0; g < sys->negroups; g++)
            fprintf(stderr, "batch %d: %s n=%d fast=%d unit=%d jac=%d m=%d\n", g, sys->egroups[g].cls->path,
                    sys->egroups[g].n, s->fast[g].n, s->fast[g].unit, s->fastj[g].ok, s->fastj[g].m);
    }

    /* contacts stepped through, and located (modes read) */
    s->contact_events = 0;
    compare(s, 1u, 200, 0.05);
    s->contact_events = 1;
    compare(s, 2u, 200, 0.05);
    /* deep in the stops (the smooth law's saturated branch), and far apart */
    compare(s, 3u, 100, 1.0);
    /* the initialisation's view (HardStop at x_start, no stiffness) */
    s->initial = 1;
    compare(s, 4u, 50, 0.05);
    s->initial = 0;
    /* a parameter changed after a fast evaluation: the kernels' table follows */
    compare(s, 5u, 5, 0.05);
    /* batches whose elements all read one parameter row run on a local
     * copy of it (fl_fast.upar): the dampers (equal), not the
     * spring-dampers (different); until the dampers differ */
    int damp = -1, sdg = -1;
    for (int g = 0; g < sys->negroups; g++) {
        if (strcmp(sys->egroups[g].cls->path, MTC "Damper") == 0) damp = g;
        if (strcmp(sys->egroups[g].cls->path, MTC "SpringDamper") == 0) sdg = g;
    }
    CHECK(damp >= 0 && sdg >= 0);
    if (damp < 0 || sdg < 0) return check_done();
    CHECK(sys->egroups[damp].n == 2 && s->fast[damp].upar != NULL);
    CHECK(sys->egroups[sdg].n == 2 && s->fast[sdg].upar == NULL);
    CHECK(fl_sim_set_param(s, "d45.d", 6.5, d) == 0);
    compare(s, 7u, 20, 0.05);
    CHECK(s->fast[damp].upar == NULL);
    CHECK(fl_sim_set_param(s, "sd12.c", 1234.5, d) == 0);
    CHECK(fl_sim_set_param(s, "hs12.stiff_up", 3e4, d) == 0);
    CHECK(fl_sim_set_param(s, "rsd.d", 0.75, d) == 0);
    compare(s, 6u, 100, 0.05);

    fl_sim_free(s);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
    return check_done();
}
