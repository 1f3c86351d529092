/* ensemble.c - parameter studies on one compiled system: per-simulation
 * parameter changes (fl_sim_set_param) and a thread pool that runs many
 * simulations of a shared, read-only fl_system (fl_ensemble_run). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "compile/compile.h"
#include "sim.h"
#include "sim/opts.h"

/* Instance and parameter slot of "inst.param", or -1 (reported). */
static int find_param(const fl_sim *sim, const char *name, int *inst, int *k, fl_diag *d)
{
    const fl_system *sys = sim->sys;
    const char *dot = name ? strrchr(name, '.') : NULL;
    int i, j = fl_system_param(sys, name, &i); /* a bare name: a parameter the top-level equations read */
    if (i < 0 || (!dot && j < 0)) {
        fl_err(d, fl_noloc, "no component for parameter '%s' (write component.parameter)", name ? name : "");
        return -1;
    }
    const fl_class *c = sys->insts[i].cls;
    if (j < 0) {
        fl_err(d, fl_noloc, "%s (%s) has no parameter '%s'", fl_inst_name(sys, i), c->path, dot + 1);
        return -1;
    }
    *inst = i;
    *k = j;
    return 0;
}

FL_GUARDED(double, fl_sim_param, (const fl_sim *sim, const char *name), (sim, name), NAN, NULL)
{
    int i, k;
    if (!sim || find_param(sim, name, &i, &k, NULL)) return NAN;
    return sim->par[fl_sim_prow(sim, &sim->sys->insts[i]) + k];
}

FL_GUARDED(int, fl_sim_set_param, (fl_sim *sim, const char *name, double value, fl_diag *d),
           (sim, name, value, d), -1, d)
{
    int why;
    return fl_sim_set_param_why(sim, name, value, d, &why);
}

/* dst: the n elements of src, each reading its instance's own row. */
static void elems_reading_own_rows(fl_elem *dst, const fl_elem *src, int n, const fl_system *sys)
{
    for (int e = 0; e < n; e++) {
        dst[e] = src[e];
        dst[e].pofs = sys->insts[dst[e].inst].pofs;
    }
}

/* A row per instance (the system's rows copied to each instance that
 * shares them), and the elements that read them. */
void fl_sim_own_par(fl_sim *s)
{
    if (s->par_own) return;
    const fl_system *sys = s->sys;
    const fl_elem *base = fl_groups_elems(sys);
    size_t ne = (size_t)(sys->nelem ? sys->nelem : 1);
    /* one block for both copies, kept by the simulation before the
     * parameters' (out of memory there leaves it freed with the
     * simulation, which still reads the system's) */
    if (!s->elems_own) s->elems_own = fl_xmalloc(sizeof(fl_elem) * ne * (base ? 2 : 1));
    fl_elem *el = s->elems_own;
    double *p = fl_xmalloc(sizeof(double) * (size_t)(sys->npar ? sys->npar : 1));
    fl_elem *gel = base ? el + ne : NULL;
    elems_reading_own_rows(el, sys->elems, sys->nelem, sys);
    if (gel) elems_reading_own_rows(gel, base, sys->nelem, sys);
    s->par = p;
    s->par_own = 1;
    fl_sim_reset_par(s);
    s->elems = el;
    s->gel = gel;
    s->gel_base = base;
}

void fl_sim_reset_par(fl_sim *s)
{
    const fl_system *sys = s->sys;
    if (!s->par_own) return; /* (the system's, unchanged) */
    for (int i = 0; i < sys->ninst; i++) {
        const fl_inst_rt *ir = &sys->insts[i];
        memcpy(s->par + ir->pofs, sys->par + ir->prow, sizeof(double) * (size_t)(ir->cls->nparams + ir->cls->nderived));
    }
}

int fl_sim_set_param_why(fl_sim *sim, const char *name, double value, fl_diag *d, int *structural)
{
    *structural = 0;
    if (!sim) return -1;
    int i, k;
    if (find_param(sim, name, &i, &k, d)) return -1;
    const fl_system *sys = sim->sys;
    const fl_inst_rt *ir = &sys->insts[i];
    const fl_param_def *pd = &ir->cls->params[k];
    if (pd->type != FL_P_REAL) {
        fl_err(d, fl_noloc, "%s is not a Real parameter: it selects the model's structure; change it in the model "
               "and compile again", name);
        *structural = 1;
        return -1;
    }
    if (fl_par_fixed(sys, ir->pofs + k)) {
        fl_err(d, fl_noloc, "%s was used to build the model's structure (bodies, fixed positions, initial "
               "conditions): change it in the model and compile again", name);
        *structural = 1;
        return -1;
    }
    if (fl_param_check_number(fl_ir_name(sys, ir), pd, value, fl_noloc, d)) return -1;
    fl_sim_own_par(sim);
    double *par = sim->par + ir->pofs;
    int nslots = ir->cls->nparams + ir->cls->nderived;
    double saved[64];
    if (nslots > 64) { /* no class has that many; keep the restore below simple */
        fl_err(d, fl_noloc, "%s: too many parameters to change at run time", fl_ir_name(sys, ir));
        return -1;
    }
    memcpy(saved, par, sizeof(double) * (size_t)nslots);
    fl_params_changed(sim);
    par[k] = value;
    fl_pctx pc = {fl_ir_name(sys, ir), fl_ir_loc(sys, ir), par, sys->arrays, ir->cls};
    int rc = ir->cls->check ? ir->cls->check(&pc, d) : 0;
    if (!rc && ir->cls->elem_for && ir->cls->elem_for(par) != fl_inst_ops(sys, i)) {
        fl_err(d, fl_noloc, "%s = %g would change the contact model of %s: change it in the model and compile "
               "again", name, value, fl_ir_name(sys, ir));
        *structural = 1;
        rc = -1;
    }
    if (rc) {
        memcpy(par, saved, sizeof(double) * (size_t)nslots);
        return -1;
    }
    if (ir->cls->prepare) ir->cls->prepare(&pc, par);
    return 0;
}

/* ------------------------------------------------------------------------
 * The thread pool: runs are handed out one at a time from a shared counter,
 * so long and short runs balance across the threads. */

typedef struct ens {
    const fl_system *sys;
    const fl_sim_opts *o;
    int nruns;
    fl_ensemble_setup_fn setup;
    fl_ensemble_done_fn done;
    void *user;
    atomic_int next;
    atomic_int failed;
} ens;

static void *worker(void *arg)
{
    ens *e = arg;
    fl_diag *rd = fl_diag_new();
    fl_sim *sim = fl_sim_new(e->sys, rd);
    for (;;) {
        int k = atomic_fetch_add(&e->next, 1);
        if (k >= e->nruns) break;
        fl_diag_clear(rd);
        int rc = -1;
        if (sim) {
            /* every run starts from the compiled parameters */
            fl_sim_reset_par(sim);
            fl_params_changed(sim);
            rc = e->setup ? e->setup(sim, k, rd, e->user) : 0;
            if (!rc) rc = fl_sim_run(sim, e->o, NULL, NULL, rd);
        }
        if (rc) atomic_fetch_add(&e->failed, 1);
        if (e->done) e->done(sim, k, rc, rd, e->user);
    }
    fl_sim_free(sim);
    fl_diag_free(rd);
    return NULL;
}

FL_GUARDED(int, fl_ensemble_run, (const fl_system *sys, const fl_sim_opts *o, int nruns, int nthreads,
                                  fl_ensemble_setup_fn setup, fl_ensemble_done_fn done, void *user, fl_diag *d),
           (sys, o, nruns, nthreads, setup, done, user, d), -1, d)
{
    if (!sys || !o || nruns < 0) {
        fl_err(d, fl_noloc, "fl_ensemble_run: no system, no options or a negative number of runs");
        return -1;
    }
    if (fl_sim_check_opts(o, d)) return -1; /* once, not once per run */
    if (nthreads <= 0) {
        long nc = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = nc > 0 ? (int)nc : 1;
    }
    if (nthreads > nruns) nthreads = nruns > 0 ? nruns : 1;
    ens e = {sys, o, nruns, setup, done, user, 0, 0};
    pthread_t *th = fl_xcalloc((size_t)nthreads, sizeof *th);
    int started = 0;
    for (int t = 0; t < nthreads; t++) {
        if (pthread_create(&th[t], NULL, worker, &e)) break;
        started++;
    }
    if (!started) {
        free(th);
        fl_err(d, fl_noloc, "fl_ensemble_run: cannot start a thread");
        return -1;
    }
    for (int t = 0; t < started; t++) pthread_join(th[t], NULL);
    free(th);
    return atomic_load(&e.failed);
}
