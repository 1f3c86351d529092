/* simrun.h - running a model text through the library in the C tests:
 * load, compile, simulate with every variable recorded, and look values up
 * by name, row or time. */
#ifndef FL_SIMRUN_H
#define FL_SIMRUN_H

#include "check.h"
#include "flange.h"

typedef struct run {
    fl_model *m;
    fl_system *sys;
    check_rec r;
    fl_stats st;
    int rc;
    char err[1024]; /* the last error message of a failed run */
} run;

/* Compile a loaded model and simulate it, every variable recorded. stop,
 * interval, tol <= 0 keep the model's experiment settings. */
static inline void simulate_model(run *c, fl_diag *d, double stop, double interval, double tol, int energy,
                                  int expect_ok)
{
    c->sys = c->m ? fl_compile(c->m, d) : NULL;
    fl_sim *sim = c->sys ? fl_sim_new(c->sys, d) : NULL;
    c->rc = -1;
    if (sim) {
        fl_sim_opts o = fl_sim_default_opts(c->sys);
        if (stop > 0) o.stop_time = stop;
        if (interval > 0) o.interval = interval;
        if (tol > 0) o.tolerance = tol;
        o.energy = energy;
        c->r.nvars = fl_system_nvars(c->sys);
        c->rc = fl_sim_run(sim, &o, check_record, &c->r, d);
        c->st = fl_sim_stats(sim);
    }
    for (int i = 0; i < fl_diag_count(d); i++)
        if (strstr(fl_diag_text(d, i), "error")) snprintf(c->err, sizeof c->err, "%s", fl_diag_text(d, i));
    if (c->rc && expect_ok)
        for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "  %s\n", fl_diag_text(d, i));
    if (expect_ok) CHECK(c->rc == 0);
    fl_sim_free(sim);
}

/* Simulate "model T <body> end T;" to stop with output interval interval
 * at tolerance tol; expect_ok: CHECK that the run succeeds. */
static inline void simulate_tol(run *c, const char *body, double stop, double interval, double tol, int energy,
                                int expect_ok)
{
    static char text[65536];
    snprintf(text, sizeof text, "model T\n%s\nend T;\n", body);
    memset(c, 0, sizeof *c);
    fl_diag *d = fl_diag_new();
    c->m = fl_model_load_string(text, "t.mo", NULL, d);
    simulate_model(c, d, stop, interval, tol, energy, expect_ok);
    fl_diag_free(d);
}

/* Simulate a model file of the source tree with its experiment settings
 * (tolerance tol if > 0). */
static inline void simulate_file(run *c, const char *rel, double tol, int energy)
{
    memset(c, 0, sizeof *c);
    fl_diag *d = fl_diag_new();
    c->m = fl_model_load_file(check_src_path(rel), NULL, d);
    simulate_model(c, d, 0, 0, tol, energy, 1);
    fl_diag_free(d);
}

static inline void simulate(run *c, const char *body, double stop, double interval, int energy)
{
    simulate_tol(c, body, stop, interval, 1e-8, energy, 1);
}

/* Load a model text (file: the name its messages give), compile it and
 * make a simulation of it, CHECKing that it got that far (the messages on
 * stderr if not); *m and *sys get the model and the system, NULL from the
 * stage that failed on. */
static inline fl_sim *sim_of_text(const char *text, const char *file, fl_diag *d, fl_model **m, fl_system **sys)
{
    *m = fl_model_load_string(text, file, NULL, d);
    *sys = *m ? fl_compile(*m, d) : NULL;
    fl_sim *sim = *sys ? fl_sim_new(*sys, d) : NULL;
    CHECK(sim != NULL);
    if (!sim)
        for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "%s\n", fl_diag_text(d, i));
    return sim;
}

/* The model text must not compile, with a message containing fragment. */
static inline void expect_compile_error(const char *text, const char *fragment)
{
    fl_diag *d = fl_diag_new();
    fl_model *m = fl_model_load_string(text, "t.mo", NULL, d);
    fl_system *sys = m ? fl_compile(m, d) : NULL;
    CHECK(sys == NULL);
    int found = 0;
    for (int i = 0; i < fl_diag_count(d); i++) found |= strstr(fl_diag_text(d, i), fragment) != NULL;
    if (!found) {
        fprintf(stderr, "expected '%s' for\n%s\ngot:\n", fragment, text);
        for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "  %s\n", fl_diag_text(d, i));
    }
    CHECK(found);
    fl_system_free(sys);
    fl_model_free(m);
    fl_diag_free(d);
}

static inline void done(run *c)
{
    free(c->r.t);
    free(c->r.v);
    fl_system_free(c->sys);
    fl_model_free(c->m);
}

static inline double val(const run *c, int row, const char *var)
{
    int k = fl_system_var_index(c->sys, var);
    if (row < 0 || row >= c->r.n) {
        fprintf(stderr, "no row %d for %s\n", row, var);
        check_failures++;
        return NAN;
    }
    if (k < 0) {
        fprintf(stderr, "no variable %s\n", var);
        check_failures++;
        return NAN;
    }
    return c->r.v[(size_t)row * (size_t)c->r.nvars + (size_t)k];
}

/* Row index of the k-th change (k = 0, 1, ...) of a variable; the row
 * returned is the one after the change. -1 if none. */
static inline int change(const run *c, const char *var, int k)
{
    for (int i = 1; i < c->r.n; i++)
        if (val(c, i, var) != val(c, i - 1, var) && k-- == 0) return i;
    return -1;
}

/* The last row at time t (after an event there), -1 if none. */
static inline int row_at(const run *c, double t)
{
    int found = -1;
    for (int i = 0; i < c->r.n; i++)
        if (fabs(c->r.t[i] - t) <= 1e-9 * fmax(1, fabs(t))) found = i;
    return found;
}

static inline double maxof(const run *c, const char *var, double t0, double t1, double *tmax)
{
    double m = -INFINITY;
    for (int i = 0; i < c->r.n; i++) {
        if (c->r.t[i] < t0 || c->r.t[i] > t1) continue;
        double x = val(c, i, var);
        if (x > m) {
            m = x;
            if (tmax) *tmax = c->r.t[i];
        }
    }
    return m;
}

/* worst energy drift relative to the throughput; INFINITY when the audit's
 * own verdict is that the balance does not close (negative dissipation) */
static inline double balance(const run *c)
{
    if (c->st.e_closed != 1) return INFINITY;
    return c->st.e_throughput > 0 ? c->st.e_drift_max / c->st.e_throughput : INFINITY;
}

#endif
