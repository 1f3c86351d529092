/* test_jacobian.c - the analytic Jacobian of the compliant classes
 * (FL_EK_COMPLIANT: their local Jacobian is fl_compliant_out's df/ds_rel
 * and df/dv_rel, each Jacobian entry reading one of them with its sign in
 * the entry's multiplier, compile/layout.c) against central differences
 * of the residual: F(y, yp) differenced in every unknown and every
 * derivative, J = dF/dy + cj dF/dyp, entry by entry of the pattern, and no
 * difference outside the pattern. Each element sits between the ground
 * and a body of its own, at a state well inside one regime of its law
 * (in contact, in the smooth law's transition, moving into an undamped
 * stop, ...), so the differences cross no kink. A sign or a place wrong
 * in the layout, or a class that writes its Jacobian as a dense block
 * while the layout keeps two values, shows as a wrong entry here. Both
 * the general evaluation (fl_eval_jacobian) and the integrator's batch
 * kernels (fl_eval_jacobian_ida) are checked. */
#include "simrun.h"
#include "sim/sim.h"

#define MTC "Modelica.Mechanics.Translational.Components."
#define MTS "Modelica.Mechanics.Translational.Sources."
#define MRC "Modelica.Mechanics.Rotational.Components."

/* element, its body, and the state (s_rel, v_rel) to evaluate at */
typedef struct at {
    const char *decl, *body;
    double s, v;
} at;

static const at CASES[] = {
    {MTC "Spring e1(c=100, s_rel0=0.1)", "m1", 0.2, 0.3},
    {MTC "Damper e2(d=5)", "m2", 0.1, -0.4},
    {MTC "SpringDamper e3(c=200, d=3, s_rel0=0.01)", "m3", 0.05, 0.2},
    {MTC "ElastoGap e4(c=1e3, d=10, n=1.5, s_rel0=0.05)", "m4", 0.0, -0.1},
    {"Flange.Components.SymmetricHardStop e5(b=0.02, c=5e3, d=2)", "m5", 0.05, 0.2},
    {"Flange.Components.HardStop e6(upper_bnd=0.01, lower_bnd=-0.01, stiff_up=1e4, stiff_low=2e4, D_up=10, "
     "D_low=20)",
     "m6", 0.03, 0.1},
    {"Flange.Components.HardStop e7(hs_model=Flange.Types.HardStopModel.SMOOTH, upper_bnd=0.01, lower_bnd=-0.01, "
     "trans_region=0.01, stiff_up=1e4, D_up=30)",
     "m7", 0.015, 0.05},
    {"Flange.Components.HardStop e8(hs_model=Flange.Types.HardStopModel.FULL_UNDAMPED, upper_bnd=0.01, "
     "lower_bnd=-0.01, stiff_low=3e4, D_low=40)",
     "m8", -0.03, -0.2},
    {MTS "LinearSpeedDependentForce e9(f_nominal=10, v_nominal=2)", "m9", 0.0, 1.5},
    {MTS "QuadraticSpeedDependentForce e10(f_nominal=10, v_nominal=2)", "m10", 0.0, 1.5},
    {MTS "InverseSpeedDependentForce e11(f_nominal=10, v_nominal=2, v0=0.1)", "m11", 0.0, 1.5},
    {MRC "ElastoBacklash e12(b=0.05, c=80, d=0.3, phi_rel0=0.01)", "J12", 0.1, 0.2},
    {MRC "ElastoBacklash2 e13(b=0.04, c=60, d=0.2)", "J13", -0.1, 0.1},
    {MRC "SpringDamper e14(c=40, d=0.5)", "J14", 0.2, 0.3},
};
#define NCASES ((int)(sizeof CASES / sizeof CASES[0]))

static char *model_text(void)
{
    static char buf[8192];
    size_t k = 0;
    k += (size_t)snprintf(buf + k, sizeof buf - k, "model J\n  " MTC "Fixed fixed;\n  " MRC "Fixed rfixed;\n");
    for (int i = 0; i < NCASES; i++) {
        int rot = CASES[i].body[0] == 'J';
        k += (size_t)snprintf(buf + k, sizeof buf - k, "  %s;\n  %s %s(%s=1.5);\n", CASES[i].decl,
                              rot ? MRC "Inertia" : MTC "Mass", CASES[i].body, rot ? "J" : "m");
    }
    k += (size_t)snprintf(buf + k, sizeof buf - k, "equation\n");
    for (int i = 0; i < NCASES; i++) {
        int rot = CASES[i].body[0] == 'J', src = strstr(CASES[i].decl, "Sources.") != NULL;
        int hs = strstr(CASES[i].decl, "Components.HardStop") != NULL;
        char name[8];
        snprintf(name, sizeof name, "e%d", i + 1);
        if (src) { /* the source's flange on the body, its support the ground (useSupport = false) */
            k += (size_t)snprintf(buf + k, sizeof buf - k, "  connect(%s.flange, %s.flange_a);\n", name,
                                  CASES[i].body);
        } else {
            k += (size_t)snprintf(buf + k, sizeof buf - k, "  connect(%s.flange, %s.%s);\n  connect(%s.%s, %s.flange_a);\n",
                                  rot ? "rfixed" : "fixed", name, hs ? "C" : "flange_a", name, hs ? "R" : "flange_b",
                                  CASES[i].body);
        }
    }
    snprintf(buf + k, sizeof buf - k, "end J;\n");
    return buf;
}

/* the position and velocity unknowns of the body named b */
static void unknowns_of(const fl_system *sys, const char *b, int *qi, int *vi)
{
    *qi = *vi = -1;
    char name[64];
    snprintf(name, sizeof name, "%s.%s", b, b[0] == 'J' ? "phi" : "s");
    for (int i = 0; i < sys->n; i++)
        if (strcmp(fl_unk_name(sys, i), name) == 0) *qi = i;
    snprintf(name, sizeof name, "%s.%s", b, b[0] == 'J' ? "w" : "v");
    for (int i = 0; i < sys->n; i++)
        if (strcmp(fl_unk_name(sys, i), name) == 0) *vi = i;
}

static int bad_entries(fl_sim *s, const double *y, const double *yp, double cj, int ida)
{
    const fl_system *sys = s->sys;
    int n = sys->n, nnz = sys->jpat.nnz, bad = 0;
    double *jd = calloc((size_t)nnz, sizeof(double)), *fd = calloc((size_t)n * (size_t)n, sizeof(double));
    double *yy = malloc(sizeof(double) * (size_t)n), *yyp = malloc(sizeof(double) * (size_t)n);
    double *rp = malloc(sizeof(double) * (size_t)n), *rm = malloc(sizeof(double) * (size_t)n);
    if (ida) fl_eval_jacobian_ida(s, 0.5, cj, y, yp, jd);
    else fl_eval_jacobian(s, 0.5, cj, y, yp, jd, NULL, NULL);
    for (int c = 0; c < n; c++) {
        for (int which = 0; which < 2; which++) { /* d/dy, then cj d/dyp */
            memcpy(yy, y, sizeof(double) * (size_t)n);
            memcpy(yyp, yp, sizeof(double) * (size_t)n);
            double *z = which ? yyp : yy, h = 1e-7 * (1 + fabs(z[c])), z0 = z[c];
            z[c] = z0 + h;
            fl_eval_residual(s, 0.5, yy, yyp, rp);
            z[c] = z0 - h;
            fl_eval_residual(s, 0.5, yy, yyp, rm);
            for (int r = 0; r < n; r++) fd[(size_t)c * (size_t)n + (size_t)r] += (which ? cj : 1) * (rp[r] - rm[r]) / (2 * h);
        }
    }
    const fl_csc *p = &sys->jpat;
    for (int c = 0; c < n; c++) {
        for (int k = p->colptr[c]; k < p->colptr[c + 1]; k++) {
            double *f = &fd[(size_t)c * (size_t)n + (size_t)p->rowind[k]];
            if (!(fabs(jd[k] - *f) <= 1e-6 * (1 + fabs(*f)))) {
                fprintf(stderr, "%s: d %s / d %s = %.10g, differences %.10g\n", ida ? "ida" : "general",
                        fl_unk_name(sys, p->rowind[k]), fl_unk_name(sys, c), jd[k], *f);
                bad++;
            }
            *f = 0; /* seen */
        }
        for (int r = 0; r < n; r++)
            if (!(fabs(fd[(size_t)c * (size_t)n + (size_t)r]) <= 1e-6)) {
                fprintf(stderr, "d %s / d %s = %.10g is outside the pattern\n", fl_unk_name(sys, r), fl_unk_name(sys, c),
                        fd[(size_t)c * (size_t)n + (size_t)r]);
                bad++;
            }
    }
    free(jd), free(fd), free(yy), free(yyp), free(rp), free(rm);
    return bad;
}

/* A chain of alike parts (compile/jrules.c keeps its Jacobian entries by
 * rule) with what breaks a rule: a heavier mass in the middle, a damper
 * to the ground on one mass, the first mass's position alone fixed, a
 * force on the last. Its Jacobian against differences as above, and its
 * three matrices (the integrator's, the initialisation's, the
 * re-initialisation's) bit for bit against the same system with every
 * entry stored as a record (fl_jrules_expand). */
#define NCHAIN 24
static void chain_rules(void)
{
    static char buf[16384];
    size_t k = 0;
    k += (size_t)snprintf(buf + k, sizeof buf - k, "model C\n  " MTC "Fixed fixed;\n  Modelica.Mechanics.Translational.Sources.ConstantForce f(f_constant=3);\n  " MTC "Damper g(d=7);\n");
    for (int i = 1; i <= NCHAIN; i++) {
        k += (size_t)snprintf(buf + k, sizeof buf - k, "  " MTC "Mass m%d(m=%g, s(start=%g, fixed=true)%s);\n", i,
                              i == 12 ? 2.5 : 1.0, 0.1 * i, i == 1 ? "" : ", v(fixed=true)");
        if (i < NCHAIN)
            k += (size_t)snprintf(buf + k, sizeof buf - k,
                                  "  " MTC "SpringDamper c%d(c=%g, d=2);\n  Flange.Components.HardStop b%d(upper_bnd=0.05, "
                                  "lower_bnd=-0.05, stiff_up=1e3, stiff_low=1e3, D_up=1, D_low=1);\n",
                                  i, 100.0 + (i == 5 ? 50 : 0), i);
    }
    k += (size_t)snprintf(buf + k, sizeof buf - k, "equation\n");
    for (int i = 1; i < NCHAIN; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k,
                              "  connect(m%d.flange_b, c%d.flange_a);\n  connect(c%d.flange_b, m%d.flange_a);\n"
                              "  connect(m%d.flange_b, b%d.C);\n  connect(b%d.R, m%d.flange_a);\n",
                              i, i, i, i + 1, i, i, i, i + 1);
    snprintf(buf + k, sizeof buf - k,
             "  connect(f.flange, m%d.flange_b);\n  connect(fixed.flange, g.flange_a);\n  connect(g.flange_b, m7.flange_a);\nend C;\n",
             NCHAIN);
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(buf, "c.mo", NULL, d);
    fl_system *sys = m ? fl_compile(m, d) : NULL, *all = m ? fl_compile(m, d) : NULL;
    for (int i = 0; i < fl_diag_count(d); i++)
        if (!strstr(fl_diag_text(d, i), "warning")) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    CHECK(sys != NULL && all != NULL);
    if (!sys || !all) {
        fl_system_free(sys), fl_system_free(all), fl_model_free(m), fl_diag_free(d);
        return;
    }
    /* kept by rule where the parts are alike, split where they are not
     * (here 3 rules and 206 records for 441 entries) */
    int total = fl_jent_total(sys);
    CHECK(sys->njrule >= 3 && 2 * sys->njent < total);
    if (!(sys->njrule >= 3 && 2 * sys->njent < total))
        fprintf(stderr, "%d rules, %d records for %d entries\n", sys->njrule, sys->njent, total);
    fl_jrules_expand(all);
    CHECK(all->njrule == 0 && all->njent == total);
    fl_sim *s = fl_sim_new(sys, d), *sa = fl_sim_new(all, d);
    int n = sys->n;
    double *y = malloc(sizeof(double) * (size_t)n), *yp = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++) { /* relative positions inside the stops' regimes, away from their kinks */
        y[i] = (i % 2 ? 0.3 * sin(i) : 0.1 * (i / 2) + 0.02 * cos(i));
        yp[i] = 0.5 * cos(3.0 * i);
    }
    s->contact_events = sa->contact_events = 0;
    CHECK(bad_entries(s, y, yp, 250.0, 0) == 0);
    CHECK(bad_entries(s, y, yp, 250.0, 1) == 0);
    size_t nj = (size_t)sys->jpat.nnz, ni = (size_t)sys->ipat.nnz, nr = (size_t)sys->rpat.nnz;
    CHECK(nj == (size_t)all->jpat.nnz && ni == (size_t)all->ipat.nnz && nr == (size_t)all->rpat.nnz);
    double *a = calloc(nj + ni + nr, sizeof(double)), *b = calloc(nj + ni + nr, sizeof(double));
    fl_eval_jacobian(s, 0.5, 250.0, y, yp, a, a + nj, a + nj + ni);
    fl_eval_jacobian(sa, 0.5, 250.0, y, yp, b, b + nj, b + nj + ni);
    CHECK(memcmp(a, b, sizeof(double) * (nj + ni + nr)) == 0);
    memset(a, 0, sizeof(double) * nj);
    memset(b, 0, sizeof(double) * nj);
    fl_eval_jacobian_ida(s, 0.5, 250.0, y, yp, a);
    fl_eval_jacobian_ida(sa, 0.5, 250.0, y, yp, b);
    CHECK(memcmp(a, b, sizeof(double) * nj) == 0);
    free(a), free(b), free(y), free(yp);
    fl_sim_free(s), fl_sim_free(sa);
    fl_system_free(sys), fl_system_free(all);
    fl_model_free(m);
    fl_diag_free(d);
}

/* The initialisation matrix's condition rows carry each condition's
 * coefficients: s_rel = m2.s - m1.s fixed gives +1 at m2.s and -1 at m1.s
 * in its row, m1.s and the velocities +1 at theirs (the system keeps no
 * coefficient when all are 1, and these must not be taken for that). */
static void condition_rows(void)
{
    const char *text = "model R\n  " MTC "Fixed fixed;\n  " MTC "Mass m1(m=1, s(start=1, fixed=true), v(fixed=true));\n  "
                       MTC "Mass m2(m=2, v(fixed=true));\n  " MTC "Spring sp(c=10, s_rel(start=0.5, fixed=true));\n"
                       "equation\n  connect(m1.flange_b, sp.flange_a);\n  connect(sp.flange_b, m2.flange_a);\nend R;\n";
    fl_diag *d = fl_diag_new();
    fl_model *m;
    fl_system *sys;
    fl_sim *s = sim_of_text(text, "r.mo", d, &m, &sys);
    if (!s) {
        fl_system_free(sys), fl_model_free(m), fl_diag_free(d);
        return;
    }
    int n = sys->n, q1, v1, q2, v2;
    unknowns_of(sys, "m1", &q1, &v1);
    unknowns_of(sys, "m2", &q2, &v2);
    CHECK(n == 4 && q1 >= 0 && q2 >= 0 && sys->ncond_used == 4);
    double y[4] = {1, 0, 1.5, 0}, yp[4] = {0};
    size_t nj = (size_t)sys->jpat.nnz, ni = (size_t)sys->ipat.nnz, nr = (size_t)sys->rpat.nnz;
    double *a = calloc(nj + ni + nr, sizeof(double));
    fl_eval_jacobian(s, 0, 0, y, yp, a, a + nj, a + nj + ni);
    /* the conditions' entries: rows n and on, columns of the positions
     * (the pattern a run makes: the compiled system keeps its size alone) */
    fl_csc ip;
    CHECK(sys->ipat.colptr == NULL && fl_init_pattern(sys, &ip) == 0);
    int plus = 0, minus = 0, other = 0;
    for (int c = 0; c < ip.ncol; c++)
        for (int k = ip.colptr[c]; k < ip.colptr[c + 1]; k++) {
            if (ip.rowind[k] < n) continue;
            double x = a[nj + (size_t)k];
            if (x == 1) plus++;
            else if (x == -1 && c == q1) minus++;
            else other++;
        }
    CHECK(minus == 1 && plus == 4 && other == 0);
    if (!(minus == 1 && plus == 4 && other == 0)) fprintf(stderr, "condition entries: %d of +1, %d of -1, %d other\n", plus, minus, other);
    fl_csc_free(&ip);
    free(a);
    fl_sim_free(s);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

int main(void)
{
    condition_rows();
    chain_rules();
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(model_text(), "j.mo", NULL, d);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    fl_sim *s = sys ? fl_sim_new(sys, d) : NULL;
    for (int i = 0; i < fl_diag_count(d); i++)
        if (!strstr(fl_diag_text(d, i), "warning")) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    CHECK(s != NULL);
    if (!s) return check_done();
    /* every element is of a compliant class */
    int ncompliant = 0;
    for (int g = 0; g < sys->negroups; g++)
        if (sys->egroups[g].ops->flags & FL_EK_COMPLIANT) ncompliant += sys->egroups[g].n;
    CHECK(ncompliant == NCASES);
    if (ncompliant != NCASES)
        for (int g = 0; g < sys->negroups; g++)
            fprintf(stderr, "batch %s n=%d compliant=%d\n", sys->egroups[g].cls->path, sys->egroups[g].n,
                    (sys->egroups[g].ops->flags & FL_EK_COMPLIANT) != 0);

    int n = sys->n;
    double *y = calloc((size_t)n, sizeof(double)), *yp = calloc((size_t)n, sizeof(double));
    int placed = 0;
    for (int i = 0; i < NCASES; i++) {
        int qi, vi;
        unknowns_of(sys, CASES[i].body, &qi, &vi);
        if (qi < 0 || vi < 0) continue;
        y[qi] = CASES[i].s;
        y[vi] = CASES[i].v;
        yp[qi] = CASES[i].v;
        yp[vi] = 0.7 * (i + 1);
        placed++;
    }
    CHECK(placed == NCASES);
    s->contact_events = 0; /* contacts from the state, as when stepped through */
    double r[64];
    CHECK(n <= 64 && fl_eval_residual(s, 0.5, y, yp, r) == 0);
    int nonzero = 0;
    for (int i = 0; i < n && i < 64; i++) nonzero += r[i] != 0;
    CHECK(nonzero >= NCASES); /* the states give forces */
    CHECK(bad_entries(s, y, yp, 250.0, 0) == 0);
    CHECK(bad_entries(s, y, yp, 250.0, 1) == 0);
    free(y), free(yp);
    fl_sim_free(s);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
    return check_done();
}
