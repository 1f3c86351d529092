/* run.c - executing a study's runs on a pool of threads. Runs are handed
 * out one at a time from a shared counter, in group order, so that long and
 * short runs balance across the threads and a thread keeps its compiled
 * system (and its fl_sim) from one run to the next. A group's system is
 * compiled by the first thread that needs it (the loader and the compiler
 * are thread-safe) and freed when its last run is over and no thread holds
 * it. Every run is executed under a recovery point of its own: running out
 * of memory fails that run, not the study. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile/system.h"
#include "sim/sim.h"
#include "sweep.h"
#include "table.h"
#include "util/diag.h"
#include "util/util.h"

typedef struct pool {
    fl_sweep *s;
    long *todo;
    long ntodo;
    atomic_long next;
    fl_sweep_progress_fn progress;
    void *user;
    pthread_mutex_t progress_lock;
} pool;

typedef struct compile_job {
    fl_sweep *s;
    long g, run;
    fl_diag *d;
} compile_job;

/* Compile group g's system with the structural values of `run` and find the
 * outputs its runs need: the collected variables, then the saved ones. */
static void compile_group(void *arg)
{
    compile_job *cj = arg;
    fl_sweep *s = cj->s;
    sw_group *gr = &s->groups[cj->g];
    fl_diag *d = cj->d;
    int nov = 0;
    char **ov = fl_xcalloc((size_t)(s->npar ? s->npar : 1), sizeof *ov);
    for (int j = 0; j < s->npar; j++)
        if (s->par[j].structural) ov[nov++] = sw_override(s->par[j].name, s->runs[cj->run * s->npar + j]);
    fl_system *sys = sw_compile(s, ov, nov, d);
    for (int i = 0; i < nov; i++) free(ov[i]);
    free(ov);
    if (sys) {
        gr->out_idx = fl_xcalloc((size_t)(s->ncol + s->nsave + 1), sizeof(int));
        gr->col_var = fl_xcalloc((size_t)(s->ncol + 1), sizeof(int));
        for (int j = 0; j < s->ncol && sys; j++) {
            gr->col_var[j] = -1;
            if (!s->col[j].var) continue;
            int v = fl_system_var_index(sys, s->col[j].var);
            if (v < 0) {
                fl_err(d, fl_noloc, "no variable '%s' with these parameter values", s->col[j].var);
                fl_system_free(sys);
                sys = NULL;
                break;
            }
            int k;
            for (k = 0; k < gr->nout && gr->out_idx[k] != v; k++) {}
            if (k == gr->nout) gr->out_idx[gr->nout++] = v;
            gr->col_var[j] = k;
        }
        for (int k = 0; k < s->nsave && sys; k++) {
            int v = fl_system_var_index(sys, s->save[k]);
            if (v < 0) {
                fl_err(d, fl_noloc, "no variable '%s' with these parameter values", s->save[k]);
                fl_system_free(sys);
                sys = NULL;
                break;
            }
            gr->out_idx[gr->nout++] = v; /* the saved ones last, in order (sw_acc_point) */
        }
    }
    if (!sys) gr->error = sw_first_error(d);
    gr->sys = sys;
}

/* The system of group g, compiled on first use; NULL with g->error set when
 * it does not compile. A non-NULL result is a reference the caller holds. */
static fl_system *acquire(fl_sweep *s, long g, long run)
{
    sw_group *gr = &s->groups[g];
    pthread_mutex_lock(&gr->lock);
    if (!gr->tried) {
        gr->tried = 1;
        fl_diag *d = fl_diag_new();
        compile_job cj = {s, g, run, d};
        fl_guard gd;
        if (fl_guard_try(&gd, compile_group, &cj)) {
            fl_system_free(gr->sys);
            gr->sys = NULL;
            free(gr->error);
            gr->error = strdup(gd.failure == FL_FAIL_OOM ? "out of memory" : gd.msg);
        }
        fl_diag_free(d);
    }
    if (gr->sys) gr->users++;
    fl_system *sys = gr->sys;
    pthread_mutex_unlock(&gr->lock);
    return sys;
}

/* Drop a reference; the last one after the group's last run frees the system. */
static void release(fl_sweep *s, long g)
{
    sw_group *gr = &s->groups[g];
    pthread_mutex_lock(&gr->lock);
    if (--gr->users == 0 && gr->left == 0) {
        fl_system_free(gr->sys);
        gr->sys = NULL;
    }
    pthread_mutex_unlock(&gr->lock);
}

static void finished(fl_sweep *s, long g)
{
    sw_group *gr = &s->groups[g];
    pthread_mutex_lock(&gr->lock);
    gr->left--;
    pthread_mutex_unlock(&gr->lock);
}

static int on_output(void *user, double t, const double *vals, int nvals)
{
    (void)nvals;
    return sw_acc_point(user, t, vals);
}

typedef struct one_run {
    fl_sweep *s;
    fl_sim *sim;
    long run, g;
    fl_diag *d;
    int status;
    char *msg;
    double *vals;
    sw_acc acc;
} one_run;

static void execute(void *arg)
{
    one_run *o = arg;
    fl_sweep *s = o->s;
    const sw_group *gr = &s->groups[o->g];
    fl_sim *sim = o->sim;
    fl_sim_reset_par(sim);
    fl_params_changed(sim);
    for (int j = 0; j < s->npar; j++) {
        if (s->par[j].structural) continue;
        int why;
        if (fl_sim_set_param_why(sim, s->par[j].name, s->runs[o->run * s->npar + j], o->d, &why)) {
            o->msg = sw_first_error(o->d);
            return;
        }
    }
    fl_sim_opts opts = s->opts;
    opts.outputs = gr->out_idx;
    opts.noutputs = gr->nout;
    sw_acc_init(&o->acc, s, gr);
    if (fl_sim_run(sim, &opts, on_output, &o->acc, o->d)) {
        o->msg = sw_first_error(o->d);
        return;
    }
    fl_stats st = fl_sim_stats(sim);
    o->vals = fl_xmalloc(sizeof(double) * (size_t)(s->ncol + 1));
    sw_acc_finish(&o->acc, &st, o->vals);
    o->status = 0;
}

/* One run on this thread's sim; stores its result. */
static void run_one(fl_sweep *s, fl_sim *sim, long run, long g, fl_diag *d)
{
    one_run o = {s, sim, run, g, d, 1, NULL, NULL, {0}};
    fl_diag_clear(d);
    const sw_group *gr = &s->groups[g];
    if (!sim) {
        o.msg = fl_xstrdup(gr->error ? gr->error : "the simulation could not be set up");
    } else {
        fl_guard gd;
        if (fl_guard_try(&gd, execute, &o)) {
            fl_diag_clear(d);
            fl_guard_report(&gd, d);
            free(o.msg);
            o.msg = sw_first_error(d);
            free(o.vals);
            o.vals = NULL;
            o.status = 1;
        }
    }
    if (o.status) {
        free(o.vals);
        o.vals = fl_xmalloc(sizeof(double) * (size_t)(s->ncol + 1));
        for (int j = 0; j < s->ncol; j++) o.vals[j] = NAN;
    }
    double *traj = NULL;
    long npts = 0;
    if (!o.status && s->nsave) {
        traj = o.acc.traj;
        npts = o.acc.npts;
        o.acc.traj = NULL;
    }
    sw_acc_free(&o.acc);
    sw_store(s, run, o.status, o.status ? o.msg : NULL, o.vals, npts, traj);
    if (!o.status) free(o.msg);
}

typedef struct worker_state {
    pool *p;
    fl_diag *d;
    long cur;      /* the group whose system this thread holds, -1: none */
    int held;      /* 1: a reference to that group's system */
    fl_sim *sim;
    long run;      /* the run in progress */
} worker_state;

static void drop_group(worker_state *w)
{
    fl_sim_free(w->sim);
    w->sim = NULL;
    if (w->held) release(w->p->s, w->cur);
    w->held = 0;
    w->cur = -1;
}

/* One run handed out to this thread. */
static void iteration(void *arg)
{
    worker_state *w = arg;
    fl_sweep *s = w->p->s;
    long run = w->run, g = s->group_of[run];
    if (g != w->cur) {
        drop_group(w);
        w->cur = g;
        fl_system *sys = acquire(s, g, run);
        w->held = sys != NULL;
        w->sim = sys ? fl_sim_new(sys, w->d) : NULL;
        if (sys && !w->sim) {
            pthread_mutex_lock(&s->groups[g].lock);
            if (!s->groups[g].error) s->groups[g].error = sw_first_error(w->d);
            pthread_mutex_unlock(&s->groups[g].lock);
        }
    }
    run_one(s, w->sim, run, g, w->d);
}

static void *worker(void *arg)
{
    pool *p = arg;
    fl_sweep *s = p->s;
    worker_state w = {p, fl_diag_new(), -1, 0, NULL, -1};
    for (;;) {
        long k = atomic_fetch_add(&p->next, 1);
        if (k >= p->ntodo) break;
        w.run = p->todo[k];
        fl_guard gd;
        if (fl_guard_try(&gd, iteration, &w)) {
            /* out of memory outside the run itself: the run fails, the thread goes on afresh */
            drop_group(&w);
            sw_store(s, w.run, 1, strdup(gd.failure == FL_FAIL_OOM ? "out of memory" : gd.msg), NULL, 0, NULL);
        }
        finished(s, s->group_of[w.run]);
        if (p->progress) {
            pthread_mutex_lock(&p->progress_lock);
            pthread_mutex_lock(&s->res_lock);
            long done = s->ndone, failed = s->nfailed;
            pthread_mutex_unlock(&s->res_lock);
            p->progress(p->user, done, failed, s->nruns);
            pthread_mutex_unlock(&p->progress_lock);
        }
    }
    drop_group(&w);
    fl_diag_free(w.d);
    return NULL;
}

/* The runs in group order (a counting sort, stable: by run within a group). */
static void sort_by_group(fl_sweep *s, long *todo, long n)
{
    long *count = fl_xcalloc((size_t)s->ngroups + 1, sizeof(long));
    for (long i = 0; i < n; i++) count[s->group_of[todo[i]] + 1]++;
    for (long g = 0; g < s->ngroups; g++) count[g + 1] += count[g];
    long *out = fl_xmalloc(sizeof(long) * (size_t)(n ? n : 1));
    for (long i = 0; i < n; i++) out[count[s->group_of[todo[i]]]++] = todo[i];
    memcpy(todo, out, sizeof(long) * (size_t)n);
    free(out);
    free(count);
}

FL_GUARDED(long, fl_sweep_run, (fl_sweep *s, const long *runs, long n, int nthreads, fl_sweep_progress_fn progress,
                                void *user, fl_diag *d),
           (s, runs, n, nthreads, progress, user, d), -1, d)
{
    if (!s || !s->prepared) {
        fl_err(d, fl_noloc, "fl_sweep_run: the study is not prepared (fl_sweep_prepare)");
        return -1;
    }
    /* the runs to do: those asked for (all when runs is NULL) without a result yet */
    long *todo = fl_xmalloc(sizeof(long) * (size_t)(s->nruns ? s->nruns : 1));
    long ntodo = 0;
    if (!runs) n = s->nruns;
    for (long i = 0; i < n; i++) {
        long r = runs ? runs[i] : i;
        if (r < 0 || r >= s->nruns) {
            free(todo);
            fl_err(d, fl_noloc, "fl_sweep_run: run %ld is not in the study (0 to %ld)", r, s->nruns - 1);
            return -1;
        }
        if (!s->res[r].done) todo[ntodo++] = r;
    }
    sort_by_group(s, todo, ntodo);
    if (nthreads <= 0) {
        long nc = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = nc > 0 ? (int)nc : 1;
    }
    if (nthreads > ntodo) nthreads = ntodo > 0 ? (int)ntodo : 1;
    pool p = {s, todo, ntodo, 0, progress, user, PTHREAD_MUTEX_INITIALIZER};
    long failed0 = s->nfailed;
    if (nthreads == 1) {
        worker(&p);
    } else {
        pthread_t *th = fl_xcalloc((size_t)nthreads, sizeof *th);
        int started = 0;
        for (int t = 0; t < nthreads; t++) {
            if (pthread_create(&th[t], NULL, worker, &p)) break;
            started++;
        }
        if (!started) worker(&p); /* no thread to be had: run them here */
        for (int t = 0; t < started; t++) pthread_join(th[t], NULL);
        free(th);
    }
    free(todo);
    return s->nfailed - failed0;
}
