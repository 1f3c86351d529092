/* api_oscillator.c - builds a damped spring-mass oscillator through the C
 * API (no Modelica text), simulates it, and prints the result next to the
 * closed-form solution.
 *
 *   fixed --- spring (c = 100 N/m) ---+--- mass (m = 1 kg)
 *         \-- damper (d = 2 N.s/m) ---/
 *
 * The mass starts 0.01 m from the unstretched position, at rest:
 *   s(t) = 0.01 exp(-t) (cos(w t) + sin(w t)/w),  w = sqrt(99).
 *
 * Build: make (it lands in build/examples/api_oscillator), or after
 * `make install`:  cc api_oscillator.c $(pkg-config --cflags --libs flange) -lm */
#include <math.h>
#include <stdio.h>

#include "flange.h"

typedef struct printer {
    int s_index;
    double next; /* print every 0.25 s */
} printer;

static int print_row(void *user, double t, const double *vals, int nvals)
{
    printer *p = user;
    (void)nvals;
    if (t + 1e-12 < p->next) return 0;
    p->next += 0.25;
    double w = sqrt(99.0);
    double exact = 0.01 * exp(-t) * (cos(w * t) + sin(w * t) / w);
    printf("%6.2f  %+.9f  %+.9f\n", t, vals[p->s_index], exact);
    return 0;
}

int main(void)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_new("ApiOscillator");
    int rc = 0;
    rc |= fl_model_add(m, "Fixed", "fixed", d);
    rc |= fl_model_add(m, "Spring", "spring", d);
    rc |= fl_model_add(m, "Damper", "damper", d);
    rc |= fl_model_add(m, "Modelica.Mechanics.Translational.Components.Mass", "mass", d);
    rc |= fl_model_set(m, "spring.c", 100, d);
    rc |= fl_model_set(m, "damper.d", 2, d);
    rc |= fl_model_set(m, "mass.m", 1, d);
    rc |= fl_model_set(m, "mass.s.start", 0.01, d);
    rc |= fl_model_set(m, "mass.s.fixed", 1, d);
    rc |= fl_model_set(m, "mass.v.fixed", 1, d);
    rc |= fl_model_connect(m, "fixed.flange", "spring.flange_a", d);
    rc |= fl_model_connect(m, "fixed.flange", "damper.flange_a", d);
    rc |= fl_model_connect(m, "spring.flange_b", "mass.flange_a", d);
    rc |= fl_model_connect(m, "damper.flange_b", "mass.flange_a", d);

    fl_system *sys = rc ? NULL : fl_compile(m, d);
    fl_sim *sim = sys ? fl_sim_new(sys, d) : NULL;
    if (sim) {
        fl_sim_opts o = fl_sim_default_opts(sys);
        o.stop_time = 2;
        o.interval = 0.01;
        o.tolerance = 1e-8;
        printer p = {fl_system_var_index(sys, "mass.s"), 0};
        printf("     t  mass.s (flange)  closed form\n");
        rc = fl_sim_run(sim, &o, print_row, &p, d);
        if (rc == 0) {
            fl_stats st = fl_sim_stats(sim);
            printf("%ld steps, %ld residual evaluations, linear solver %s\n", st.steps, st.res_evals,
                   st.linear_solver);
        }
    } else {
        rc = 1;
    }
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    fl_sim_free(sim);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
    return rc ? 1 : 0;
}
