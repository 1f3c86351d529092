/* study.c - a parameter study (fl_sweep): its definition, the preparation
 * that turns it into runs and groups, and the results. Preparing decides
 * per parameter how a run changes it: at run time (fl_sim_set_param) when
 * the compiled system allows it and no other parameter's binding depends on
 * it (checked by compiling with a changed value and comparing every other
 * parameter), otherwise by compiling the model again with the value as an
 * override ("structural"). Runs that share the values of their structural
 * parameters form a group and share one compiled system. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/system.h"
#include "model/model.h"
#include "output/select.h"
#include "sim/sim.h"
#include "sweep.h"
#include "table.h"
#include "util/diag.h"
#include "util/util.h"

static char **copy_strings(const char *const *v, int n)
{
    char **c = fl_xcalloc((size_t)(n ? n : 1), sizeof *c);
    for (int i = 0; i < n; i++) c[i] = fl_xstrdup(v[i]);
    return c;
}

static void free_strings(char **v, int n)
{
    for (int i = 0; v && i < n; i++) free(v[i]);
    free(v);
}

FL_GUARDED(fl_sweep *, fl_sweep_new, (const char *path, const fl_load_opts *lo, fl_diag *d), (path, lo, d), NULL,
           d)
{
    if (!path && !(lo && lo->model_name)) {
        fl_err(d, fl_noloc, "fl_sweep_new: neither a model file nor a model name");
        return NULL;
    }
    fl_sweep *s = fl_xcalloc(1, sizeof *s);
    pthread_mutex_init(&s->res_lock, NULL);
    s->start = s->stop = s->interval = s->tolerance = NAN;
    if (path) {
        s->path = fl_xstrdup(path);
        /* read once: every compilation of the study loads this text (fl_model_load_file's own reader) */
        s->model_text = fl_read_model_text(path, d);
        if (!s->model_text) {
            fl_sweep_free(s);
            return NULL;
        }
    }
    if (lo) {
        if (lo->model_name) s->model_opt = fl_xstrdup(lo->model_name);
        s->base_params = copy_strings(lo->params, lo->nparams);
        s->nbase_params = lo->nparams;
        s->libs = copy_strings(lo->libs, lo->nlibs);
        s->nlibs = lo->nlibs;
        if (lo->modelicapath) {
            s->modelicapath = fl_xstrdup(lo->modelicapath);
            s->has_modelicapath = 1;
        }
    }
    return s;
}

void fl_sweep_free(fl_sweep *s)
{
    if (!s) return;
    sw_journal_close(s, 0);
    free(s->path);
    free(s->class_name);
    free(s->model_text);
    free(s->model_opt);
    free_strings(s->base_params, s->nbase_params);
    free_strings(s->libs, s->nlibs);
    free(s->modelicapath);
    for (int j = 0; j < s->npar; j++) sw_param_free(&s->par[j]);
    free(s->par);
    free(s->runs_file);
    for (int j = 0; j < s->ncol; j++) sw_collect_free(&s->col[j]);
    free(s->col);
    free_strings(s->save_globs, s->nsave_globs);
    free_strings(s->save, s->nsave);
    free(s->runs);
    free(s->group_of);
    for (long g = 0; g < s->ngroups; g++) {
        sw_group *gr = &s->groups[g];
        fl_system_free(gr->sys);
        free(gr->error);
        free(gr->out_idx);
        free(gr->col_var);
        pthread_mutex_destroy(&gr->lock);
    }
    free(s->groups);
    for (long r = 0; s->res && r < s->nruns; r++) {
        free(s->res[r].msg);
        free(s->res[r].vals);
        free(s->res[r].traj);
    }
    free(s->res);
    pthread_mutex_destroy(&s->res_lock);
    free(s);
}

static int defining(fl_sweep *s, fl_diag *d)
{
    if (s->prepared) {
        fl_err(d, fl_noloc, "the study is prepared already: define it before fl_sweep_prepare");
        return -1;
    }
    return 0;
}

FL_GUARDED(int, fl_sweep_param, (fl_sweep *s, const char *spec, fl_diag *d), (s, spec, d), -1, d)
{
    if (!s || !spec || defining(s, d)) return -1;
    if (s->runs_file) {
        fl_err(d, fl_noloc, "--param cannot be combined with --runs: the runs file gives every parameter");
        return -1;
    }
    sw_param p;
    if (sw_parse_param(spec, &p, d)) {
        sw_param_free(&p);
        return -1;
    }
    for (int j = 0; j < s->npar; j++)
        if (strcmp(s->par[j].name, p.name) == 0) {
            fl_err(d, fl_noloc, "--param %s is given twice", p.name);
            sw_param_free(&p);
            return -1;
        }
    s->par = fl_xrealloc(s->par, sizeof *s->par * (size_t)(s->npar + 1));
    s->par[s->npar++] = p;
    return 0;
}

FL_GUARDED(int, fl_sweep_samples, (fl_sweep *s, long n, unsigned long long seed, int lhs, fl_diag *d),
           (s, n, seed, lhs, d), -1, d)
{
    if (!s || defining(s, d)) return -1;
    if (n < 1 || n > 100000000L) {
        fl_err(d, fl_noloc, "--samples: the number of samples must be from 1 to 100000000");
        return -1;
    }
    s->nsamples = n;
    s->seed = seed;
    s->lhs = lhs != 0;
    return 0;
}

FL_GUARDED(int, fl_sweep_runs_file, (fl_sweep *s, const char *path, fl_diag *d), (s, path, d), -1, d)
{
    if (!s || !path || defining(s, d)) return -1;
    if (s->npar) {
        fl_err(d, fl_noloc, "--runs cannot be combined with --param: the runs file gives every parameter");
        return -1;
    }
    free(s->runs_file);
    s->runs_file = fl_xstrdup(path);
    return 0;
}

FL_GUARDED(int, fl_sweep_collect, (fl_sweep *s, const char *exprs, fl_diag *d), (s, exprs, d), -1, d)
{
    if (!s || !exprs || defining(s, d)) return -1;
    /* split at the commas outside parentheses and brackets */
    const char *a = exprs;
    for (;;) {
        int depth = 0;
        const char *p = a;
        while (*p && !(*p == ',' && depth == 0)) {
            if (*p == '(' || *p == '[') depth++;
            if ((*p == ')' || *p == ']') && depth) depth--;
            p++;
        }
        char *one = fl_xstrndup(a, (size_t)(p - a));
        sw_collect c;
        int rc = 0;
        const char *t = one;
        while (*t == ' ') t++;
        if (strcmp(t, "status") == 0) { /* always a column */
            free(one);
        } else {
            rc = sw_parse_collect(one, &c, d);
            free(one);
            if (!rc)
                for (int j = 0; j < s->ncol; j++)
                    if (strcmp(s->col[j].text, c.text) == 0) {
                        fl_err(d, fl_noloc, "--collect %s is given twice", c.text);
                        rc = -1;
                    }
            if (rc) {
                sw_collect_free(&c);
                return -1;
            }
            s->col = fl_xrealloc(s->col, sizeof *s->col * (size_t)(s->ncol + 1));
            s->col[s->ncol++] = c;
        }
        if (!*p) break;
        a = p + 1;
    }
    return 0;
}

FL_GUARDED(int, fl_sweep_save, (fl_sweep *s, const char *globs, fl_diag *d), (s, globs, d), -1, d)
{
    if (!s || !globs || defining(s, d)) return -1;
    for (const char *a = globs;;) {
        const char *c = strchr(a, ',');
        size_t n = c ? (size_t)(c - a) : strlen(a);
        while (n && *a == ' ') a++, n--;
        while (n && a[n - 1] == ' ') n--;
        if (!n) {
            fl_err(d, fl_noloc, "--save: an empty variable name in '%s'", globs);
            return -1;
        }
        s->save_globs = fl_xrealloc(s->save_globs, sizeof(char *) * (size_t)(s->nsave_globs + 1));
        s->save_globs[s->nsave_globs++] = fl_xstrndup(a, n);
        if (!c) break;
        a = c + 1;
    }
    return 0;
}

int fl_sweep_set_times(fl_sweep *s, double start, double stop, double interval, double tolerance)
{
    if (!s || s->prepared) return -1;
    s->start = start;
    s->stop = stop;
    s->interval = interval;
    s->tolerance = tolerance;
    return 0;
}

int fl_sweep_set_solver(fl_sweep *s, int solver)
{
    if (!s || s->prepared) return -1;
    s->solver = solver;
    return 0;
}

/* ------------------------------------------------------------------------
 * Loading and compiling with overrides. */

/* The model with the base overrides and `extra` (nextra "name=value"). */
fl_system *sw_compile(const fl_sweep *s, char **extra, int nextra, fl_diag *d)
{
    int n = s->nbase_params + nextra;
    const char **ps = fl_xcalloc((size_t)(n ? n : 1), sizeof *ps);
    for (int i = 0; i < s->nbase_params; i++) ps[i] = s->base_params[i];
    for (int i = 0; i < nextra; i++) ps[s->nbase_params + i] = extra[i];
    fl_load_opts lo = {s->model_opt, ps, n, (const char *const *)s->libs, s->nlibs,
                       s->has_modelicapath ? s->modelicapath : NULL};
    fl_model *m = s->path ? fl_model_load_string(s->model_text, s->path, &lo, d)
                          : fl_model_load_class(s->model_opt, &lo, d);
    free(ps);
    if (!m) return NULL;
    return fl_compile_and_free(m, d);
}

char *sw_override(const char *name, double v)
{
    char buf[32];
    return fl_xsprintf("%s=%s", name, sw_format_number(v, buf));
}

/* A message of the loader or a run without the "error: " every entry of a
 * failed-run column would repeat, and without the "--param: " of a value
 * given as a load override. */
static const char *bare_error(const char *t)
{
    if (strncmp(t, "--param: ", 9) == 0) t += 9;
    if (strncmp(t, "error: ", 7) == 0) t += 7;
    return t;
}

/* The first error of d as one line (the run's message). */
char *sw_first_error(const fl_diag *d)
{
    for (int i = 0; i < fl_diag_count(d); i++)
        if (fl_diag_severity(d, i) == FL_SEV_ERROR) {
            char *m = fl_xstrdup(bare_error(fl_diag_text(d, i)));
            for (char *c = m; *c; c++)
                if (*c == '\n' || *c == '\r') *c = ' ';
            return m;
        }
    return fl_xstrdup("failed");
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

/* Whether a Real parameter can change at run time (fl_sim_set_param) with
 * the values values[0], values[stride], ... (n of them): base is the model
 * compiled, other the model compiled with the parameter changed to one of
 * those values. Run time means: fl_sim_set_param may change it in base (a
 * Real parameter the structure was not built from), compiling with another
 * value changed no other parameter slot (no other binding depends on it,
 * other than the component's own derived quantities), and no value would
 * switch the component's law (a contact model). 1 run time, 0 structural.
 * Shared by the study (classify) and the FMU exporter (tunable parameters). */
int sw_param_runtime(const fl_system *base, const fl_system *other, const char *name, const double *values, long n,
                     long stride)
{
    int i, k = fl_system_param(base, name, &i);
    if (k < 0 || base->insts[i].cls->params[k].type != FL_P_REAL || fl_par_fixed(base, base->insts[i].pofs + k) ||
        other->npar != base->npar || other->ninst != base->ninst)
        return 0;
    /* run time, unless another parameter moved with it (other than the
     * component's derived quantities) */
    for (int j = 0; j < base->ninst; j++) {
        const fl_inst_rt *a = &base->insts[j], *b = &other->insts[j];
        int len = a->cls->nparams + a->cls->nderived;
        if (b->cls->nparams + b->cls->nderived != len) return 0;
        for (int q = 0; q < len; q++) {
            if (j == i && (q == k || q >= a->cls->nparams)) continue;
            if (!same_bits(base->par[a->prow + q], other->par[b->prow + q])) return 0;
        }
    }
    /* and unless a value would switch the element's law (a contact model) */
    int structural = 0;
    fl_diag *pd = fl_diag_new();
    fl_sim *probe = fl_sim_new(base, pd);
    for (long r = 0; probe && r < n && !structural; r++) {
        int why = 0;
        if (fl_sim_set_param_why(probe, name, values[r * stride], pd, &why) && why) structural = 1;
    }
    fl_sim_free(probe);
    fl_diag_free(pd);
    return !structural;
}

/* Decide how parameter j changes: 0 at run time, 1 structural, -1 error. */
static int classify(fl_sweep *s, const fl_system *base, int j, fl_diag *d)
{
    const char *name = s->par[j].name;
    int i, k = fl_system_param(base, name, &i);
    /* a value of the runs that differs from the compiled one */
    double v0 = k >= 0 ? base->par[base->insts[i].prow + k] : NAN;
    double v = NAN;
    for (long r = 0; r < s->nruns; r++)
        if (!same_bits(s->runs[r * s->npar + j], v0)) {
            v = s->runs[r * s->npar + j];
            break;
        }
    if (k >= 0 && isnan(v)) return 0; /* every run has the compiled value */
    fl_diag *cd = fl_diag_new();
    char *ov = sw_override(name, isnan(v) ? s->runs[j] : v);
    fl_system *other = sw_compile(s, &ov, 1, cd);
    free(ov);
    int structural = 1;
    if (!other) {
        /* A value may be invalid (that run fails, the study goes on); but
         * when up to three different values all fail, the name is wrong
         * (an unknown parameter) or the study pointless: stop here. */
        int tried = 1, loaded = 0;
        for (long r = 0; r < s->nruns && tried < 3 && !loaded; r++) {
            double x = s->runs[r * s->npar + j];
            int seen = same_bits(x, isnan(v) ? s->runs[j] : v);
            for (long q = 0; q < r && !seen; q++) seen = same_bits(x, s->runs[q * s->npar + j]);
            if (seen) continue;
            tried++;
            fl_diag *xd = fl_diag_new();
            char *xo = sw_override(name, x);
            fl_system *xs = sw_compile(s, &xo, 1, xd);
            loaded = xs != NULL;
            fl_system_free(xs);
            free(xo);
            fl_diag_free(xd);
        }
        if (!loaded) {
            for (int e = 0; e < fl_diag_count(cd); e++)
                if (fl_diag_severity(cd, e) == FL_SEV_ERROR)
                    fl_err(d, fl_noloc, "--param %s: %s%s", name, bare_error(fl_diag_text(cd, e)),
                           tried > 1 ? " (and with every other value tried)" : "");
            fl_diag_free(cd);
            return -1;
        }
    } else {
        structural = !sw_param_runtime(base, other, name, &s->runs[j], s->nruns, s->npar);
    }
    fl_system_free(other);
    fl_diag_free(cd);
    return structural;
}

/* Group the runs by the values of their structural parameters. */
static void make_groups(fl_sweep *s)
{
    fl_map keys = {0};
    s->group_of = fl_xmalloc(sizeof(long) * (size_t)s->nruns);
    long cap = 0;
    for (long r = 0; r < s->nruns; r++) {
        fl_buf key = {0};
        char buf[32];
        for (int j = 0; j < s->npar; j++)
            if (s->par[j].structural) {
                fl_buf_add(&key, sw_format_number(s->runs[r * s->npar + j], buf));
                fl_buf_addc(&key, ';');
            }
        fl_buf_addc(&key, 0);
        int g = fl_map_get(&keys, key.s);
        if (g < 0) {
            g = (int)s->ngroups++;
            fl_map_put(&keys, key.s, g);
            if (s->ngroups > cap) {
                cap = cap ? 2 * cap : 8;
                s->groups = fl_xrealloc(s->groups, sizeof *s->groups * (size_t)cap);
            }
            memset(&s->groups[g], 0, sizeof s->groups[g]);
            pthread_mutex_init(&s->groups[g].lock, NULL);
        }
        s->groups[g].left++;
        s->group_of[r] = g;
        fl_buf_free(&key);
    }
    fl_map_free(&keys);
}

/* The names of the collected and saved variables, checked against the
 * compiled model (the groups check them again in their own systems). */
static int check_vars(fl_sweep *s, const fl_system *base, fl_diag *d)
{
    for (int j = 0; j < s->ncol; j++) {
        const sw_collect *c = &s->col[j];
        if (c->var && fl_system_var_index(base, c->var) < 0) {
            fl_err(d, fl_noloc, "--collect %s: the model has no variable '%s' (flange check lists them)", c->text,
                   c->var);
            return -1;
        }
        if (c->agg == SW_AT && (c->t < s->opts.start_time || c->t > s->opts.stop_time)) {
            fl_err(d, fl_noloc, "--collect %s: the time %g is outside the runs' span [%g, %g]", c->text, c->t,
                   s->opts.start_time, s->opts.stop_time);
            return -1;
        }
    }
    if (s->nsave_globs) {
        int nsel = 0;
        int *sel = fl_select_columns(base, (const char *const *)s->save_globs, s->nsave_globs, &nsel, d);
        if (!sel) return -1;
        s->save = fl_xcalloc((size_t)nsel, sizeof *s->save);
        for (int k = 0; k < nsel; k++) s->save[k] = fl_xstrdup(fl_system_var_name(base, sel[k]));
        s->nsave = nsel;
        free(sel);
    }
    return 0;
}

FL_GUARDED(long, fl_sweep_prepare, (fl_sweep *s, fl_diag *d), (s, d), -1, d)
{
    if (!s) return -1;
    if (s->prepared) return s->nruns;
    if (!s->ncol && !s->nsave_globs) {
        fl_err(d, fl_noloc, "nothing to collect: give --collect (e.g. max(mass.s),final(mass.v)) or --save");
        return -1;
    }
    if (sw_expand_runs(s, d)) return -1;
    fl_system *base = sw_compile(s, NULL, 0, d);
    if (!base) return -1;
    s->class_name = fl_xstrdup(base->name ? base->name : "");
    s->opts = fl_sim_default_opts(base);
    if (!isnan(s->start)) s->opts.start_time = s->start;
    if (!isnan(s->stop)) s->opts.stop_time = s->stop;
    if (!isnan(s->interval)) s->opts.interval = s->interval;
    if (!isnan(s->tolerance)) s->opts.tolerance = s->tolerance;
    s->opts.solver = s->solver;
    int rc = check_vars(s, base, d);
    for (int j = 0; !rc && j < s->npar; j++) {
        int k = classify(s, base, j, d);
        if (k < 0) rc = -1;
        else s->par[j].structural = k;
    }
    fl_system_free(base);
    if (rc) return -1;
    make_groups(s);
    s->res = fl_xcalloc((size_t)s->nruns, sizeof *s->res);
    s->prepared = 1;
    return s->nruns;
}

long fl_sweep_nruns(const fl_sweep *s)
{
    return s && s->prepared ? s->nruns : -1;
}

int fl_sweep_nparams(const fl_sweep *s)
{
    return s ? s->npar : 0;
}

const char *fl_sweep_param_name(const fl_sweep *s, int j)
{
    return s && j >= 0 && j < s->npar ? s->par[j].name : NULL;
}

int fl_sweep_param_structural(const fl_sweep *s, int j)
{
    return s && s->prepared && j >= 0 && j < s->npar ? s->par[j].structural : -1;
}

long fl_sweep_ngroups(const fl_sweep *s)
{
    return s && s->prepared ? s->ngroups : -1;
}

/* ------------------------------------------------------------------------
 * Results. */

void sw_store(fl_sweep *s, long run, int status, char *msg, double *vals, long npts, double *traj)
{
    pthread_mutex_lock(&s->res_lock);
    sw_result *r = &s->res[run];
    if (r->done) { /* a run delivered twice (resume, MPI): the first one stays */
        pthread_mutex_unlock(&s->res_lock);
        free(msg);
        free(vals);
        free(traj);
        return;
    }
    r->done = 1;
    r->status = status;
    r->msg = msg;
    r->vals = vals;
    r->npts = npts;
    r->traj = traj;
    s->ndone++;
    if (status) s->nfailed++;
    sw_journal_append(s, run);
    pthread_mutex_unlock(&s->res_lock);
}

/* Columns: run, the parameters, status, message, the collected. */
int fl_sweep_ncols(const fl_sweep *s)
{
    return s ? 3 + s->npar + s->ncol : 0;
}

const char *fl_sweep_col_name(const fl_sweep *s, int j)
{
    if (!s || j < 0 || j >= fl_sweep_ncols(s)) return NULL;
    if (j == 0) return "run";
    if (j <= s->npar) return s->par[j - 1].name;
    if (j == s->npar + 1) return "status";
    if (j == s->npar + 2) return "message";
    return s->col[j - s->npar - 3].text;
}

int fl_sweep_has_result(const fl_sweep *s, long run)
{
    return s && s->prepared && run >= 0 && run < s->nruns && s->res[run].done;
}

double fl_sweep_value(const fl_sweep *s, long run, int j)
{
    if (!s || !s->prepared || run < 0 || run >= s->nruns || j < 0 || j >= fl_sweep_ncols(s)) return NAN;
    if (j == 0) return (double)run;
    if (j <= s->npar) return s->runs[run * s->npar + j - 1];
    const sw_result *r = &s->res[run];
    if (!r->done) return NAN;
    if (j == s->npar + 1) return r->status;
    if (j == s->npar + 2) return NAN;
    return r->vals ? r->vals[j - s->npar - 3] : NAN;
}

const char *fl_sweep_text(const fl_sweep *s, long run, int j)
{
    if (!s || !s->prepared || run < 0 || run >= s->nruns || !s->res[run].done) return NULL;
    if (j == s->npar + 1) return s->res[run].status ? "failed" : "ok";
    if (j == s->npar + 2) return s->res[run].msg ? s->res[run].msg : "";
    return NULL;
}

long fl_sweep_trajectory(const fl_sweep *s, long run, const double **data, int *nsaved)
{
    if (nsaved) *nsaved = s ? s->nsave : 0;
    if (data) *data = NULL;
    if (!s || !s->prepared || run < 0 || run >= s->nruns || !s->res[run].done) return -1;
    if (data) *data = s->res[run].traj;
    return s->res[run].npts;
}

const char *fl_sweep_saved_name(const fl_sweep *s, int k)
{
    return s && k >= 0 && k < s->nsave ? s->save[k] : NULL;
}

void sw_fill_table(const fl_sweep *s, long first, long count, sw_table *t)
{
    memset(t, 0, sizeof *t);
    t->ncols = fl_sweep_ncols(s);
    t->names = fl_xcalloc((size_t)t->ncols, sizeof *t->names);
    t->text = fl_xcalloc((size_t)t->ncols, 1);
    for (int j = 0; j < t->ncols; j++) t->names[j] = fl_xstrdup(fl_sweep_col_name(s, j));
    t->text[s->npar + 1] = t->text[s->npar + 2] = 1;
    long n = 0;
    for (long r = first; r < first + count; r++) n += s->res[r].done;
    t->nrows = n;
    t->num = fl_xmalloc(sizeof(double) * (size_t)(n ? n : 1) * (size_t)t->ncols);
    t->str = fl_xcalloc((size_t)(n ? n : 1) * (size_t)t->ncols, sizeof *t->str);
    t->nsave = s->nsave;
    t->save_names = copy_strings((const char *const *)s->save, s->nsave);
    t->npts = fl_xcalloc((size_t)(n ? n : 1), sizeof *t->npts);
    t->traj = fl_xcalloc((size_t)(n ? n : 1), sizeof *t->traj);
    long i = 0;
    for (long r = first; r < first + count; r++) {
        const sw_result *res = &s->res[r];
        if (!res->done) continue;
        for (int j = 0; j < t->ncols; j++) {
            t->num[i * t->ncols + j] = t->text[j] ? NAN : fl_sweep_value(s, r, j);
            if (t->text[j]) t->str[i * t->ncols + j] = fl_xstrdup(fl_sweep_text(s, r, j));
        }
        if (s->nsave && res->npts) {
            size_t sz = sizeof(double) * (size_t)res->npts * (size_t)(1 + s->nsave);
            t->traj[i] = fl_xmalloc(sz);
            memcpy(t->traj[i], res->traj, sz);
            t->npts[i] = res->npts;
        }
        i++;
    }
    t->model_name = fl_xstrdup(s->class_name ? s->class_name : "");
    if (s->model_text) t->model_text = fl_xstrdup(s->model_text);
    t->version = fl_xstrdup(fl_version());
    t->nparam_defs = s->npar;
    t->param_defs = fl_xcalloc((size_t)(s->npar ? s->npar : 1), sizeof *t->param_defs);
    t->param_structural = fl_xcalloc((size_t)(s->npar ? s->npar : 1), 1);
    for (int j = 0; j < s->npar; j++) {
        t->param_defs[j] = fl_xsprintf("%s=%s", s->par[j].name, s->par[j].spec);
        t->param_structural[j] = (unsigned char)s->par[j].structural;
    }
    t->nruns_total = s->nruns;
}

FL_GUARDED(int, fl_sweep_write, (const fl_sweep *s, const char *path, long first, long count, fl_diag *d),
           (s, path, first, count, d), -1, d)
{
    if (!s || !s->prepared || !path) {
        fl_err(d, fl_noloc, "fl_sweep_write: no prepared study or no path");
        return -1;
    }
    if (first < 0) first = 0;
    if (count < 0 || first + count > s->nruns) count = s->nruns - first;
    if (s->nsave && !sw_h5_path(path)) {
        fl_err(d, fl_noloc, "%s: saved trajectories (--save) need an HDF5 file (-o NAME.h5)", path);
        return -1;
    }
    sw_table t;
    sw_fill_table(s, first, count, &t);
    fl_cleanup c;
    fl_cleanup_push(&c, (void (*)(void *))sw_table_free, &t);
    int rc = sw_table_write(&t, path, d);
    fl_cleanup_pop(&c);
    sw_table_free(&t);
    return rc;
}
