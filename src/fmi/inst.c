/* inst.c - an instance of the FMU runtime (see inst.h): resources, loading
 * and compiling the model, the state machine of FMI 2.0/3.0, variable
 * access through the table of fmu.h, Co-Simulation steps and Model
 * Exchange calls over src/sim/step.h, FMU states, and logging. */
#define _GNU_SOURCE /* dladdr */
#include "inst.h"

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "components/user.h"
#include "components/component.h"
#include "model/bundled.h"
#include "model/classtext.h"
#include "model/model.h"
#include "sim/step.h"
#include "util/diag.h"
#include "util/util.h"

/* ---- unloading -------------------------------------------------------------- */

/* When the importer unloads the FMU, no thread may later run a destructor
 * that went away with it (the register files of user classes, user.c), and
 * the library's process-wide tables (the class registry, the parsed class
 * texts and bundled classes) are freed, else every load and unload of the
 * FMU (FMPy does one per simulation) would lose them. */
static atomic_int live_instances; /* instances not yet freed */

/* A process that exits while threads still simulate (or an importer that
 * unloads the FMU with instances alive) runs this too: the tables are in
 * use then, and are left to the operating system. */
__attribute__((destructor)) static void fmu_unload(void)
{
    if (atomic_load(&live_instances) > 0) return;
    fl_user_regs_shutdown();
    fl_class_texts_shutdown();
    fl_registry_shutdown();
    fl_bundled_shutdown();
}

/* ---- messages ------------------------------------------------------------- */

fmu_inst *fmu_check(void *c)
{
    fmu_inst *in = c;
    return (in && in->magic == FMU_MAGIC) ? in : NULL;
}

static void vmsg(fmu_inst *in, int sev, const char *fmt, va_list ap)
{
    fl_diag_vadd(in->diag, sev, fl_noloc, fmt, ap);
}

int fmu_error(fmu_inst *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(in, FL_SEV_ERROR, fmt, ap);
    va_end(ap);
    return FMU_ERROR;
}

void fmu_warning(fmu_inst *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(in, FL_SEV_WARNING, fmt, ap);
    va_end(ap);
}

void fmu_note(fmu_inst *in, const char *fmt, ...)
{
    if (!(in->log_mask & FMU_LOG_EVENTS)) return;
    va_list ap;
    va_start(ap, fmt);
    vmsg(in, FL_SEV_NOTE, fmt, ap);
    va_end(ap);
}

void fmu_flush(fmu_inst *in)
{
    int n = fl_diag_count(in->diag);
    for (int i = 0; i < n; i++) {
        int sev = fl_diag_severity(in->diag, i);
        int status = sev == FL_SEV_ERROR ? FMU_ERROR : sev == FL_SEV_WARNING ? FMU_WARNING : FMU_OK;
        int bit = sev == FL_SEV_ERROR ? FMU_LOG_ERROR : sev == FL_SEV_WARNING ? FMU_LOG_WARNING : FMU_LOG_EVENTS;
        const char *cat = sev == FL_SEV_ERROR ? "logStatusError"
                          : sev == FL_SEV_WARNING ? "logStatusWarning"
                                                  : "logEvents";
        if ((in->log_mask & bit) && in->logger && in->log) in->log(in, status, cat, fl_diag_text(in->diag, i));
    }
    fl_diag_clear(in->diag);
}

void fmu_failed(fmu_inst *in, const fl_guard *g)
{
    fl_guard_report(g, in->diag);
    in->phase = FMU_FAILED;
    fmu_flush(in);
}

static const char *phase_name(int p)
{
    static const char *const names[] = {"instantiated",         "initialization mode", "step mode", "event mode",
                                        "continuous-time mode", "terminated",          "error"};
    return (p >= 0 && p <= FMU_FAILED) ? names[p] : "?";
}

int fmu_allowed(fmu_inst *in, const char *fn, unsigned allowed)
{
    if (allowed & FMU_IN(in->phase)) return FMU_OK;
    if (in->phase == FMU_FAILED)
        return fmu_error(in, "%s: the instance failed earlier; only freeing (or resetting) it is allowed", fn);
    return fmu_error(in, "%s is not allowed in %s", fn, phase_name(in->phase));
}

int fmu_set_logging(fmu_inst *in, int on, size_t ncat, const char *const *cats)
{
    if (ncat == 0 || !cats) {
        if (on) in->log_mask = FMU_LOG_EVENTS | FMU_LOG_WARNING | FMU_LOG_ERROR;
        else in->log_mask &= ~FMU_LOG_EVENTS;
        return FMU_OK;
    }
    int rc = FMU_OK;
    for (size_t i = 0; i < ncat; i++) {
        const char *c = cats[i] ? cats[i] : "";
        int bit = !strcmp(c, "logEvents")          ? FMU_LOG_EVENTS
                  : !strcmp(c, "logStatusWarning") ? FMU_LOG_WARNING
                  : !strcmp(c, "logStatusError")   ? FMU_LOG_ERROR
                                                   : 0;
        if (!bit) {
            rc = fmu_error(in, "unknown log category '%s' (the categories are logEvents, logStatusWarning, "
                               "logStatusError)", c);
            continue;
        }
        if (on) in->log_mask |= bit;
        else in->log_mask &= ~bit;
    }
    return rc;
}

/* ---- resources -------------------------------------------------------------- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The resources directory from the location the importer gave: a file URI
 * ("file:///dir/resources/", "file://localhost/dir/...", "file:/dir/..."),
 * percent-decoded, or a plain path (FMI 3's resourcePath); NULL or "": the
 * directory resources/ two levels above this shared object
 * (binaries/<platform>/<id>.so). Ends with '/'. NULL after an error. */
static char *resource_dir(fmu_inst *in, const char *loc)
{
    fl_buf b = {0};
    if (!loc || !*loc) {
        Dl_info info;
        if (!dladdr((void *)&fmu_new, &info) || !info.dli_fname) {
            fmu_error(in, "no resource location given, and the FMU's own file cannot be found");
            return NULL;
        }
        char *p = fl_xstrdup(info.dli_fname);
        for (int up = 0; up < 3; up++) {
            char *slash = strrchr(p, '/');
            if (slash) *slash = '\0';
            else p[0] = '\0';
        }
        fl_buf_add(&b, *p ? p : ".");
        fl_buf_add(&b, "/resources");
        free(p);
    } else if (!strncmp(loc, "file:", 5)) {
        const char *p = loc + 5;
        if (!strncmp(p, "//", 2)) {
            p += 2;
            const char *slash = strchr(p, '/');
            size_t hl = slash ? (size_t)(slash - p) : strlen(p);
            if (hl && !(hl == 9 && !strncmp(p, "localhost", 9))) {
                fmu_error(in, "resource location '%s': only local files are supported", loc);
                return NULL;
            }
            p += hl;
        }
        for (; *p; p++) {
            if (*p == '%') {
                int hi = hexval((unsigned char)p[1]), lo = hi >= 0 ? hexval((unsigned char)p[2]) : -1;
                if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
                    fl_buf_free(&b);
                    fmu_error(in, "resource location '%s': a bad percent escape", loc);
                    return NULL;
                }
                fl_buf_addc(&b, (char)(hi * 16 + lo));
                p += 2;
            } else if (*p == '?' || *p == '#') {
                break;
            } else {
                fl_buf_addc(&b, *p);
            }
        }
    } else if (strstr(loc, "://")) {
        fmu_error(in, "resource location '%s': only file: locations are supported", loc);
        return NULL;
    } else {
        fl_buf_add(&b, loc);
    }
    char *dir = fl_buf_take(&b);
    size_t len = strlen(dir);
    if (!len || dir[len - 1] != '/') {
        char *d2 = fl_xcat(dir, "/", (char *)NULL);
        free(dir);
        dir = d2;
    }
    return dir;
}

/* The whole of a small text file (flange.cfg), NULL after an error. */
static char *read_text(fmu_inst *in, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fmu_error(in, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    fl_cleanup c;
    fl_cleanup_push(&c, fl_fclose_cleanup, f);
    fl_buf b = {0};
    char chunk[4096];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) fl_buf_addn(&b, chunk, k);
    int bad = ferror(f);
    fl_cleanup_pop(&c);
    fclose(f);
    if (bad) {
        fl_buf_free(&b);
        fmu_error(in, "cannot read %s", path);
        return NULL;
    }
    return fl_buf_take(&b);
}

/* ---- loading and compiling -------------------------------------------------- */

typedef struct built {
    fl_model *model;
    fl_system *sys;
    fl_sim *sim;
    fl_fmu_vars vars;
    int have_vars;
} built;

static void built_free(built *b)
{
    if (b->have_vars) fl_fmu_vars_free(&b->vars);
    fl_sim_free(b->sim);
    fl_system_free(b->sys);
    fl_model_free(b->model);
    memset(b, 0, sizeof *b);
}

static void built_cleanup(void *p)
{
    built_free(p);
}

/* Load resources/model.mo with the export-time parameters and the overrides
 * set since, compile it, and build the variable table. 0 or -1. */
static int build(fmu_inst *in, built *b)
{
    memset(b, 0, sizeof *b);
    int np = in->cfg.nparams + in->nover;
    char **params = fl_xcalloc(np ? (size_t)np : 1, sizeof *params);
    int k = 0;
    for (int i = 0; i < in->cfg.nparams; i++) {
        int replaced = 0;
        for (int j = 0; j < in->nover; j++)
            if (!strcmp(in->over_name[j], in->cfg.param_names[i])) replaced = 1;
        if (replaced) continue;
        params[k++] = fl_xcat(in->cfg.param_names[i], "=", in->cfg.param_values[i], (char *)NULL);
    }
    for (int j = 0; j < in->nover; j++) params[k++] = fl_xstrdup(in->over_text[j]);
    fl_load_opts lo = {0};
    lo.model_name = in->cfg.model;
    lo.params = (const char *const *)params;
    lo.nparams = k;
    lo.modelicapath = ""; /* the host's MODELICAPATH must not change the model */
    b->model = fl_model_load_file(in->model_path, &lo, in->diag);
    for (int i = 0; i < k; i++) free(params[i]);
    free(params);
    if (!b->model) return -1;
    b->sys = fl_compile(b->model, in->diag);
    if (!b->sys) goto fail;
    b->sim = fl_sim_new(b->sys, in->diag);
    if (!b->sim) goto fail;
    if (fl_fmu_vars_build(b->sys, b->sim, &in->cfg, &b->vars, in->diag)) goto fail;
    b->have_vars = 1;
    return 0;
fail:
    built_free(b);
    return -1;
}

static void install(fmu_inst *in, built *b)
{
    in->model = b->model;
    in->sys = b->sys;
    in->sim = b->sim;
    in->vars = b->vars;
    memset(b, 0, sizeof *b);
    size_t need = (size_t)(in->vars.nstates > in->vars.nindicators ? in->vars.nstates : in->vars.nindicators);
    if (need > in->xcap) {
        free(in->xbuf);
        in->xbuf = fl_xcalloc(need, sizeof(double));
        in->xcap = need;
    }
}

static void uninstall(fmu_inst *in)
{
    built b = {in->model, in->sys, in->sim, in->vars, in->sim != NULL};
    in->model = NULL;
    in->sys = NULL;
    in->sim = NULL;
    memset(&in->vars, 0, sizeof in->vars);
    built_free(&b);
}

static int same_table(const fl_fmu_vars *a, const fl_fmu_vars *b)
{
    if (a->n != b->n || a->nstates != b->nstates || a->nindicators != b->nindicators) return 0;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->v[i].name, b->v[i].name) || a->v[i].kind != b->v[i].kind || a->v[i].type != b->v[i].type)
            return 0;
    return 1;
}

static void end_run(fmu_inst *in)
{
    if (!in->begun) return;
    if (in->cs) fl_step_end(in->sim, in->diag);
    else fl_me_end(in->sim, in->diag);
    in->begun = 0;
}

/* Compile again with the overrides of fixed parameters: the table must come
 * out the same. Inputs and tunable parameters keep the values set on the
 * previous simulation. 0 or -1. */
static int reload(fmu_inst *in)
{
    built b;
    fl_cleanup c;
    if (build(in, &b)) {
        in->phase = FMU_FAILED;
        return -1;
    }
    fl_cleanup_push(&c, built_cleanup, &b);
    if (!same_table(&in->vars, &b.vars)) {
        fl_buf names = {0};
        for (int j = 0; j < in->nover; j++) fl_buf_printf(&names, "%s%s", j ? ", " : "", in->over_name[j]);
        char *s = fl_buf_take(&names);
        fmu_error(in, "changing %s changes the model's structure: export the FMU again with --param (flange fmu)", s);
        free(s);
        fl_cleanup_pop(&c);
        built_free(&b);
        in->phase = FMU_FAILED;
        return -1;
    }
    for (int i = 0; i < in->vars.n; i++) {
        const fl_fmu_var *v = &in->vars.v[i];
        /* only what the importer set: the others take their values from
         * the new compilation (a binding may read the fixed parameter) */
        if (!(v->kind == FL_FMU_INPUT || (v->kind == FL_FMU_PARAM && v->tunable)) || !in->touched || !in->touched[i])
            continue;
        double old = fl_sim_param(in->sim, v->pname), now = fl_sim_param(b.sim, v->pname);
        if (old != now && !isnan(old) && fl_sim_set_param(b.sim, v->pname, old, in->diag)) {
            fl_cleanup_pop(&c);
            built_free(&b);
            in->phase = FMU_FAILED;
            return -1;
        }
    }
    fl_cleanup_pop(&c);
    end_run(in);
    uninstall(in);
    install(in, &b);
    in->reload = 0;
    in->compiled_over = in->nover > 0;
    return 0;
}

/* ---- instances ------------------------------------------------------------ */

static void end_run_cb(void *p)
{
    end_run(p);
}

static void inst_free(fmu_inst *in)
{
    if (!in) return;
    if (in->sim && in->begun) {
        fl_guard g;
        if (fl_guard_try(&g, end_run_cb, in)) in->begun = 0; /* a failure while ending: nothing to report to */
        fl_diag_clear(in->diag);
    }
    uninstall(in);
    fl_fmu_cfg_free(&in->cfg);
    for (int j = 0; j < in->nover; j++) {
        free(in->over_name[j]);
        free(in->over_text[j]);
    }
    free(in->over_name);
    free(in->over_text);
    free(in->touched);
    free(in->xbuf);
    for (int k = 0; k < in->nstates; k++) free(in->states[k]);
    free(in->states);
    free(in->model_text);
    free(in->model_path);
    free(in->resdir);
    free(in->name);
    fl_diag_free(in->diag);
    if (in->cloc) freelocale(in->cloc);
    if (in->magic == FMU_MAGIC) atomic_fetch_sub(&live_instances, 1);
    in->magic = 0;
    free(in);
}

typedef struct new_args {
    fmu_inst *in;
    const char *token, *resloc;
    int ok;
} new_args;

static void new_body(void *p)
{
    new_args *a = p;
    fmu_inst *in = a->in;
    in->resdir = resource_dir(in, a->resloc);
    if (!in->resdir) return;
    struct stat st;
    if (stat(in->resdir, &st) || !S_ISDIR(st.st_mode)) {
        fmu_error(in, "the FMU's resources directory %s does not exist", in->resdir);
        return;
    }
    char *cfgpath = fl_xcat(in->resdir, "flange.cfg", (char *)NULL);
    char *text = read_text(in, cfgpath);
    if (!text) {
        free(cfgpath);
        return;
    }
    int rc = fl_fmu_cfg_parse(text, &in->cfg, in->diag);
    free(text);
    free(cfgpath);
    if (rc) return;
    if (in->cfg.fmi != in->fmi) {
        fmu_error(in, "this FMU was exported for FMI %d.0, not FMI %d.0", in->cfg.fmi, in->fmi);
        return;
    }
    if (!a->token || !in->cfg.token || strcmp(a->token, in->cfg.token)) {
        fmu_error(in, "the %s '%s' is not this FMU's (%s)", in->fmi == 2 ? "GUID" : "instantiation token",
                  a->token ? a->token : "(null)", in->cfg.token ? in->cfg.token : "none");
        return;
    }
    in->model_path = fl_xcat(in->resdir, "model.mo", (char *)NULL);
    in->model_text = fl_read_model_text(in->model_path, in->diag);
    if (!in->model_text) return;
    built b;
    if (build(in, &b)) return;
    install(in, &b);
    char tok[40];
    fl_fmu_token(in->model_text, &in->cfg, &in->vars, tok);
    if (strcmp(tok, in->cfg.token)) {
        fmu_error(in, "the FMU's resources do not match its token %s (recomputed %s): exported by another "
                      "flange version (%s; this is %s) or edited", in->cfg.token, tok,
                  in->cfg.flange_version ? in->cfg.flange_version : "?", fl_version());
        return;
    }
    fl_sim_opts o = fl_sim_default_opts(in->sys);
    in->start = o.start_time;
    in->stop = o.stop_time;
    in->tol = o.tolerance;
    in->phase = FMU_INSTANTIATED;
    a->ok = 1;
}

fmu_inst *fmu_new(const fmu_inst *proto, const char *token, const char *resloc, int logging_on)
{
    fmu_inst *in = calloc(1, sizeof *in);
    if (!in) return NULL;
    in->magic = FMU_MAGIC;
    atomic_fetch_add(&live_instances, 1);
    in->fmi = proto->fmi;
    in->cs = proto->cs;
    in->env = proto->env;
    in->logger = proto->logger;
    in->log = proto->log;
    in->event_mode_used = proto->event_mode_used;
    in->log_mask = FMU_LOG_WARNING | FMU_LOG_ERROR | (logging_on ? FMU_LOG_EVENTS : 0);
    in->name = strdup(proto->name ? proto->name : "");
    in->diag = fl_diag_new();
    in->cloc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (!in->name || !in->diag || !in->cloc) {
        if (in->logger && in->log && in->name)
            in->log(in, FMU_ERROR, "logStatusError", "error: out of memory creating the instance");
        inst_free(in);
        return NULL;
    }
    locale_t old = uselocale(in->cloc);
    new_args a = {in, token, resloc, 0};
    fl_guard g;
    if (fl_guard_try(&g, new_body, &a)) fl_guard_report(&g, in->diag);
    fmu_flush(in);
    uselocale(old);
    if (!a.ok) {
        inst_free(in);
        return NULL;
    }
    return in;
}

void fmu_free(fmu_inst *in)
{
    locale_t old = uselocale(in->cloc);
    inst_free(in);
    uselocale(old);
}

/* ---- the state machine ---------------------------------------------------- */

int fmu_setup(fmu_inst *in, int tol_defined, double tol, double start, int stop_defined, double stop)
{
    if (fmu_allowed(in, "setting up the experiment", FMU_IN(FMU_INSTANTIATED))) return FMU_ERROR;
    if (!isfinite(start)) return fmu_error(in, "the start time %g is not finite", start);
    if (stop_defined && !(stop > start)) return fmu_error(in, "the stop time %g is not after the start time %g", stop, start);
    if (tol_defined) {
        if (!(tol > 0) || !isfinite(tol)) return fmu_error(in, "the tolerance %g is not a positive number", tol);
        double t = tol < FL_TOLERANCE_MIN ? FL_TOLERANCE_MIN : tol > FL_TOLERANCE_MAX ? FL_TOLERANCE_MAX : tol;
        if (t != tol) fmu_warning(in, "tolerance %g outside [%g, %g]: %g used", tol, FL_TOLERANCE_MIN, FL_TOLERANCE_MAX, t);
        in->tol = t;
    } else {
        in->tol = fl_sim_default_opts(in->sys).tolerance;
    }
    in->tol_defined = tol_defined;
    in->start = start;
    in->stop_defined = stop_defined;
    in->stop = stop_defined ? stop : INFINITY;
    return FMU_OK;
}

static fl_sim_opts run_opts(const fmu_inst *in)
{
    fl_sim_opts o = fl_sim_default_opts(in->sys);
    o.start_time = in->start;
    o.stop_time = in->stop_defined ? in->stop : INFINITY;
    o.tolerance = in->tol;
    o.contacts = FL_CONTACTS_AUTO;
    o.energy = 0;
    o.outputs = NULL;
    o.noutputs = 0;
    o.progress = NULL;
    return o;
}

/* Begin the run (initialisation) with the current parameters and inputs. */
static int begin(fmu_inst *in)
{
    if (in->reload && reload(in)) return FMU_ERROR;
    end_run(in);
    fl_sim_opts o = run_opts(in);
    int rc = in->cs ? fl_step_begin(in->sim, &o, in->diag) : fl_me_begin(in->sim, &o, in->diag);
    if (rc) {
        in->phase = FMU_FAILED;
        return fmu_error(in, "the initialisation at t = %g failed", in->start);
    }
    in->begun = 1;
    in->rebegin = 0;
    in->values_dirty = 1;
    in->inputs_dirty = 0;
    in->terminated = 0;
    in->last_time = in->start;
    return FMU_OK;
}

int fmu_enter_init(fmu_inst *in)
{
    if (fmu_allowed(in, "entering initialization mode", FMU_IN(FMU_INSTANTIATED))) return FMU_ERROR;
    if (in->reload && reload(in)) return FMU_ERROR;
    in->phase = FMU_INIT;
    return FMU_OK;
}

int fmu_exit_init(fmu_inst *in)
{
    if (fmu_allowed(in, "exiting initialization mode", FMU_IN(FMU_INIT))) return FMU_ERROR;
    if ((!in->begun || in->rebegin || in->reload) && begin(in)) return FMU_ERROR;
    in->phase = in->cs ? FMU_STEP : FMU_EVENT;
    fmu_note(in, "initialised at t = %.17g", in->start);
    return FMU_OK;
}

int fmu_terminate(fmu_inst *in)
{
    if (fmu_allowed(in, "terminating",
                    FMU_IN(FMU_STEP) | FMU_IN(FMU_EVENT) | FMU_IN(FMU_CONT) | FMU_IN(FMU_INIT) | FMU_IN(FMU_TERMINATED)))
        return FMU_ERROR;
    if (in->phase == FMU_TERMINATED) return FMU_OK;
    if (in->begun && in->values_dirty && fl_step_values(in->sim, in->diag) == 0) in->values_dirty = 0;
    in->phase = FMU_TERMINATED;
    return FMU_OK;
}

int fmu_reset(fmu_inst *in)
{
    end_run(in);
    int had_over = in->compiled_over || in->nover;
    for (int j = 0; j < in->nover; j++) {
        free(in->over_name[j]);
        free(in->over_text[j]);
    }
    in->nover = 0;
    in->reload = 0;
    free(in->touched);
    in->touched = NULL;
    if (had_over && in->compiled_over) {
        if (reload(in)) return FMU_ERROR;
    } else {
        fl_sim *s = fl_sim_new(in->sys, in->diag);
        if (!s) {
            in->phase = FMU_FAILED;
            return FMU_ERROR;
        }
        fl_sim_free(in->sim);
        in->sim = s;
    }
    fl_sim_opts o = fl_sim_default_opts(in->sys);
    in->start = o.start_time;
    in->stop = o.stop_time;
    in->tol = o.tolerance;
    in->tol_defined = in->stop_defined = 0;
    in->terminated = 0;
    in->rebegin = in->values_dirty = in->inputs_dirty = 0;
    in->phase = FMU_INSTANTIATED;
    return FMU_OK;
}

/* ---- variables ------------------------------------------------------------ */

double fmu_time(const fmu_inst *in)
{
    return in->begun ? fl_step_time(in->sim) : in->start;
}

static const char *type_name(int t)
{
    return t == FL_FMU_REAL ? "Real" : t == FL_FMU_INTEGER ? "Integer" : "Boolean";
}

/* The table entry of a value reference, checked against the type asked for. */
static const fl_fmu_var *lookup(fmu_inst *in, unsigned vr, unsigned base, int type, const char *what)
{
    if (vr < base || vr - base >= (unsigned)in->vars.n) {
        fmu_error(in, "%s: no variable has value reference %u", what, vr);
        return NULL;
    }
    const fl_fmu_var *v = &in->vars.v[vr - base];
    if ((int)v->type != type) {
        fmu_error(in, "%s: %s (value reference %u) is a%s %s variable, not a%s %s one", what, v->name, vr,
                  v->type == FL_FMU_INTEGER ? "n" : "", type_name(v->type), type == FL_FMU_INTEGER ? "n" : "",
                  type_name(type));
        return NULL;
    }
    return v;
}

/* The run is at the point to read: begun (lazily in initialisation mode)
 * and the output variables computed. */
static int ready(fmu_inst *in, const fl_fmu_var *v)
{
    if (!in->begun || in->rebegin || in->reload) {
        if (in->phase != FMU_INIT) {
            if (in->begun && in->phase == FMU_TERMINATED) return FMU_OK;
            return fmu_error(in, "%s has no value before initialization mode", v->name);
        }
        if (begin(in)) return FMU_ERROR;
    }
    if (in->values_dirty && in->phase != FMU_TERMINATED) {
        if (fl_step_values(in->sim, in->diag)) return FMU_ERROR;
        in->values_dirty = 0;
    }
    return FMU_OK;
}

/* Derivatives and event indicators: in Model Exchange the algebraic part
 * solved at the importer's time and states; in Co-Simulation the run's own
 * solution at the communication point (step.h serves both). */
static int derivatives(fmu_inst *in, double *dx)
{
    return fl_me_derivatives(in->sim, dx, in->diag);
}

static int indicators(fmu_inst *in, double *z)
{
    return fl_me_indicators(in->sim, z, in->diag);
}

static int value_of(fmu_inst *in, const fl_fmu_var *v, double *out)
{
    switch (v->kind) {
    case FL_FMU_INPUT:
    case FL_FMU_PARAM: {
        if (v->kind == FL_FMU_PARAM && !v->tunable) {
            for (int j = in->nover - 1; j >= 0; j--)
                if (!strcmp(in->over_name[j], v->pname)) {
                    const char *eq = strchr(in->over_text[j], '=');
                    const char *val = eq ? eq + 1 : "0";
                    fl_value e;
                    memset(&e, 0, sizeof e);
                    if (v->enum_type && fl_enum_parse(val, &e) == 1) *out = e.num;
                    else *out = !strcmp(val, "true") ? 1 : !strcmp(val, "false") ? 0 : strtod(val, NULL);
                    return FMU_OK;
                }
        }
        /* the model's own parameters: the value compiled */
        *out = v->kind == FL_FMU_PARAM && v->index < 0 ? v->start : fl_sim_param(in->sim, v->pname);
        return FMU_OK;
    }
    case FL_FMU_OUTPUT:
    case FL_FMU_VAR:
        if (ready(in, v)) return FMU_ERROR;
        *out = fl_sim_value(in->sim, v->index);
        return FMU_OK;
    case FL_FMU_STATE:
        if (ready(in, v)) return FMU_ERROR;
        fl_me_get_states(in->sim, in->xbuf);
        *out = in->xbuf[v->index];
        return FMU_OK;
    case FL_FMU_DERIV:
        if (ready(in, v)) return FMU_ERROR;
        if (derivatives(in, in->xbuf)) return FMU_ERROR;
        *out = in->xbuf[v->index];
        return FMU_OK;
    case FL_FMU_INDICATOR:
        if (ready(in, v)) return FMU_ERROR;
        if (indicators(in, in->xbuf)) return FMU_ERROR;
        *out = in->xbuf[v->index];
        return FMU_OK;
    }
    return fmu_error(in, "internal: variable kind %d", (int)v->kind);
}

static int get_any(fmu_inst *in, const unsigned *vr, size_t n, unsigned base, int type, double *out, const char *what)
{
    if (fmu_allowed(in, what, ~(FMU_IN(FMU_FAILED)))) return FMU_ERROR;
    if (n && (!vr || !out)) return fmu_error(in, "%s: NULL arrays", what);
    for (size_t i = 0; i < n; i++) {
        if (base == 1 && vr[i] == 0 && type == FL_FMU_REAL) {
            out[i] = fmu_time(in);
            continue;
        }
        const fl_fmu_var *v = lookup(in, vr[i], base, type, what);
        if (!v || value_of(in, v, &out[i])) return FMU_ERROR;
    }
    return FMU_OK;
}

int fmu_get_real(fmu_inst *in, const unsigned *idx, size_t n, double *out, unsigned base)
{
    return get_any(in, idx, n, base, FL_FMU_REAL, out, in->fmi == 2 ? "fmi2GetReal" : "fmi3GetFloat64");
}

static int get_ints(fmu_inst *in, const unsigned *idx, size_t n, int *out, unsigned base, int type, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        double v;
        if (get_any(in, idx + i, 1, base, type, &v, what)) return FMU_ERROR;
        out[i] = type == FL_FMU_BOOLEAN ? (v != 0) : (isfinite(v) ? (int)lrint(v) : 0);
    }
    return FMU_OK;
}

int fmu_get_int(fmu_inst *in, const unsigned *idx, size_t n, int *out, unsigned base)
{
    if (n && !out) return fmu_error(in, "NULL value array");
    return get_ints(in, idx, n, out, base, FL_FMU_INTEGER, in->fmi == 2 ? "fmi2GetInteger" : "fmi3GetInt32");
}

int fmu_get_bool(fmu_inst *in, const unsigned *idx, size_t n, int *out, unsigned base)
{
    if (n && !out) return fmu_error(in, "NULL value array");
    return get_ints(in, idx, n, out, base, FL_FMU_BOOLEAN, in->fmi == 2 ? "fmi2GetBoolean" : "fmi3GetBoolean");
}

/* Remember the override "name=text" of a fixed parameter for the next
 * compilation. */
static void add_override(fmu_inst *in, const char *name, const char *text)
{
    for (int j = 0; j < in->nover; j++)
        if (!strcmp(in->over_name[j], name)) {
            free(in->over_text[j]);
            in->over_text[j] = fl_xstrdup(text);
            return;
        }
    in->over_name = fl_xrealloc(in->over_name, (size_t)(in->nover + 1) * sizeof *in->over_name);
    in->over_text = fl_xrealloc(in->over_text, (size_t)(in->nover + 1) * sizeof *in->over_text);
    in->over_name[in->nover] = fl_xstrdup(name);
    in->over_text[in->nover] = fl_xstrdup(text);
    in->nover++;
}

static int set_one(fmu_inst *in, const fl_fmu_var *v, double x, const char *what)
{
    int before = in->phase == FMU_INSTANTIATED || in->phase == FMU_INIT;
    int running = in->phase == FMU_STEP || in->phase == FMU_EVENT || in->phase == FMU_CONT;
    if (v->kind == FL_FMU_INPUT || (v->kind == FL_FMU_PARAM && v->tunable)) {
        if (!before && !running)
            return fmu_error(in, "%s: %s cannot be set in %s", what, v->name, phase_name(in->phase));
        if (v->kind == FL_FMU_PARAM && in->phase == FMU_CONT)
            return fmu_error(in, "%s: the tunable parameter %s can be set in event mode, not in continuous-time mode",
                             what, v->name);
        if (!in->touched) in->touched = fl_xcalloc((size_t)in->vars.n, 1);
        double cur = fl_sim_param(in->sim, v->pname);
        if (cur == x) { /* importers set inputs at every step: unchanged is no discontinuity */
            in->touched[v - in->vars.v] = 1;
            return FMU_OK;
        }
        if (!isfinite(x)) return fmu_error(in, "%s: %s = %g is not finite", what, v->name, x);
        if (fl_sim_set_param(in->sim, v->pname, x, in->diag))
            return fmu_error(in, "%s: %s cannot be set to %.17g", what, v->name, x);
        in->touched[v - in->vars.v] = 1;
        if (in->begun) {
            if (before) in->rebegin = 1;
            else {
                in->inputs_dirty = 1;
                in->values_dirty = 1;
                if (!in->cs) fl_me_invalidate(in->sim); /* the algebraic part again */
                if (!in->cs && in->phase == FMU_EVENT) in->inputs_jumped = 1;
            }
        }
        return FMU_OK;
    }
    if (v->kind == FL_FMU_PARAM) {
        if (!before)
            return fmu_error(in, "%s: %s is a fixed parameter: it can be set before initialization only "
                                 "(or exported with another value: flange fmu --param)", what, v->name);
        double cur;
        if (value_of(in, v, &cur)) return FMU_ERROR;
        if (cur == x) return FMU_OK;
        char text[64];
        const fl_enum_type *et = v->enum_type ? fl_enum_find(v->enum_type) : NULL;
        if (v->enum_type && (!et || x < 1 || x > et->n))
            return fmu_error(in, "%s: %s = %.0f is not the index of a literal of %s (1 to %d)", what, v->name, x,
                             v->enum_type, et ? et->n : 0);
        if (v->type == FL_FMU_BOOLEAN) snprintf(text, sizeof text, "%s", x != 0 ? "true" : "false");
        else if (et) {
            char *ov = fl_xcat(v->pname, "=", et->path, ".", et->lits[(int)x - 1], (char *)NULL);
            add_override(in, v->pname, ov);
            free(ov);
            in->reload = 1;
            return FMU_OK;
        } else if (v->type == FL_FMU_INTEGER) snprintf(text, sizeof text, "%d", (int)x);
        else {
            if (!isfinite(x)) return fmu_error(in, "%s: %s = %g is not finite", what, v->name, x);
            snprintf(text, sizeof text, "%.17g", x);
        }
        char *ov = fl_xcat(v->pname, "=", text, (char *)NULL);
        add_override(in, v->pname, ov);
        free(ov);
        in->reload = 1;
        return FMU_OK;
    }
    return fmu_error(in, "%s: %s cannot be set (only inputs and parameters can)", what, v->name);
}

static int set_any(fmu_inst *in, const unsigned *vr, size_t n, unsigned base, int type, const double *x,
                   const char *what)
{
    if (fmu_allowed(in, what,
                    FMU_IN(FMU_INSTANTIATED) | FMU_IN(FMU_INIT) | FMU_IN(FMU_STEP) | FMU_IN(FMU_EVENT) | FMU_IN(FMU_CONT)))
        return FMU_ERROR;
    if (n && !vr) return fmu_error(in, "%s: NULL arrays", what);
    for (size_t i = 0; i < n; i++) {
        if (base == 1 && vr[i] == 0) return fmu_error(in, "%s: time (value reference 0) cannot be set", what);
        const fl_fmu_var *v = lookup(in, vr[i], base, type, what);
        if (!v || set_one(in, v, x[i], what)) return FMU_ERROR;
    }
    return FMU_OK;
}

int fmu_set_real(fmu_inst *in, const unsigned *idx, size_t n, const double *v, unsigned base)
{
    if (n && !v) return fmu_error(in, "NULL value array");
    return set_any(in, idx, n, base, FL_FMU_REAL, v, in->fmi == 2 ? "fmi2SetReal" : "fmi3SetFloat64");
}

static int set_ints(fmu_inst *in, const unsigned *idx, size_t n, const int *v, unsigned base, int type, const char *what)
{
    if (n && !v) return fmu_error(in, "NULL value array");
    for (size_t i = 0; i < n; i++) {
        double x = type == FL_FMU_BOOLEAN ? (v[i] != 0) : (double)v[i];
        if (set_any(in, idx + i, 1, base, type, &x, what)) return FMU_ERROR;
    }
    return FMU_OK;
}

int fmu_set_int(fmu_inst *in, const unsigned *idx, size_t n, const int *v, unsigned base)
{
    return set_ints(in, idx, n, v, base, FL_FMU_INTEGER, in->fmi == 2 ? "fmi2SetInteger" : "fmi3SetInt32");
}

int fmu_set_bool(fmu_inst *in, const unsigned *idx, size_t n, const int *v, unsigned base)
{
    return set_ints(in, idx, n, v, base, FL_FMU_BOOLEAN, in->fmi == 2 ? "fmi2SetBoolean" : "fmi3SetBoolean");
}

/* ---- Co-Simulation ---------------------------------------------------------- */

int fmu_do_step(fmu_inst *in, double t, double h)
{
    if (!in->cs) return fmu_error(in, "doStep: this instance is a Model Exchange instance");
    if (fmu_allowed(in, "doStep", FMU_IN(FMU_STEP))) return FMU_ERROR;
    if (in->terminated) return fmu_error(in, "doStep: the model terminated the simulation at t = %.17g", in->last_time);
    double now = fl_step_time(in->sim);
    if (!isfinite(t) || fabs(t - now) > 1e-9 * fmax(1.0, fabs(now)))
        return fmu_error(in, "doStep from t = %.17g, but the FMU is at t = %.17g", t, now);
    if (!(h >= 0) || !isfinite(h)) return fmu_error(in, "doStep: the step size %g is not a positive number", h);
    if (in->inputs_dirty) {
        if (fl_step_discontinuity(in->sim, in->diag)) {
            in->phase = FMU_FAILED;
            return FMU_ERROR;
        }
        in->inputs_dirty = 0;
        in->values_dirty = 1;
    }
    if (h == 0) return FMU_OK;
    double tout = t + h;
    if (in->stop_defined && tout > in->stop) {
        if (tout > in->stop + 1e-9 * fmax(1.0, fabs(in->stop)))
            return fmu_error(in, "doStep to t = %.17g goes past the stop time %.17g", tout, in->stop);
        tout = in->stop;
    }
    int rc = fl_step_advance(in->sim, tout, in->diag);
    in->values_dirty = 1;
    in->last_time = fl_step_time(in->sim);
    if (rc == 1) {
        in->terminated = 1;
        fmu_note(in, "the model terminated the simulation at t = %.17g", in->last_time);
        return FMU_DISCARD;
    }
    if (rc) {
        in->phase = FMU_FAILED;
        return fmu_error(in, "the step from t = %.17g to %.17g failed", now, tout);
    }
    return FMU_OK;
}

/* ---- Model Exchange --------------------------------------------------------- */

int fmu_nstates(const fmu_inst *in)
{
    return in->vars.nstates;
}

int fmu_nindicators(const fmu_inst *in)
{
    return in->vars.nindicators;
}

static int me_call(fmu_inst *in, const char *what, unsigned allowed, size_t n, size_t want, const void *arr)
{
    if (in->cs) return fmu_error(in, "%s: this instance is a Co-Simulation instance", what);
    if (fmu_allowed(in, what, allowed)) return FMU_ERROR;
    if (n != want) return fmu_error(in, "%s: %zu values given, the model has %zu", what, n, want);
    if (n && !arr) return fmu_error(in, "%s: NULL array", what);
    if (!in->begun || in->rebegin || in->reload) {
        if (in->phase != FMU_INIT) return fmu_error(in, "%s: no run yet", what);
        if (begin(in)) return FMU_ERROR;
    }
    return FMU_OK;
}

#define ME_ANY (FMU_IN(FMU_INIT) | FMU_IN(FMU_EVENT) | FMU_IN(FMU_CONT) | FMU_IN(FMU_TERMINATED))

int fmu_set_time(fmu_inst *in, double t)
{
    if (me_call(in, "setting the time", FMU_IN(FMU_EVENT) | FMU_IN(FMU_CONT), 0, 0, NULL)) return FMU_ERROR;
    if (!isfinite(t)) return fmu_error(in, "the time %g is not finite", t);
    fl_me_set_time(in->sim, t);
    in->values_dirty = 1;
    return FMU_OK;
}

int fmu_set_states(fmu_inst *in, const double *x, size_t nx)
{
    if (me_call(in, "setting the continuous states", FMU_IN(FMU_EVENT) | FMU_IN(FMU_CONT), nx,
                (size_t)in->vars.nstates, x))
        return FMU_ERROR;
    fl_me_set_states(in->sim, x);
    in->values_dirty = 1;
    return FMU_OK;
}

int fmu_get_states(fmu_inst *in, double *x, size_t nx)
{
    if (me_call(in, "getting the continuous states", ME_ANY, nx, (size_t)in->vars.nstates, x)) return FMU_ERROR;
    fl_me_get_states(in->sim, x);
    return FMU_OK;
}

int fmu_get_nominals(fmu_inst *in, double *x, size_t nx)
{
    if (in->cs) return fmu_error(in, "nominals: this instance is a Co-Simulation instance");
    if (fmu_allowed(in, "getting the nominals", ~FMU_IN(FMU_FAILED))) return FMU_ERROR;
    if (nx != (size_t)in->vars.nstates)
        return fmu_error(in, "nominals: %zu values asked for, the model has %d states", nx, in->vars.nstates);
    if (nx && !x) return fmu_error(in, "nominals: NULL array");
    if (nx) fl_me_nominals(in->sim, x);
    return FMU_OK;
}

int fmu_get_derivatives(fmu_inst *in, double *dx, size_t nx)
{
    if (me_call(in, "getting the derivatives", ME_ANY, nx, (size_t)in->vars.nstates, dx)) return FMU_ERROR;
    if (nx && fl_me_derivatives(in->sim, dx, in->diag)) return FMU_ERROR;
    return FMU_OK;
}

int fmu_get_indicators(fmu_inst *in, double *z, size_t nz)
{
    if (me_call(in, "getting the event indicators", ME_ANY, nz, (size_t)in->vars.nindicators, z)) return FMU_ERROR;
    if (nz && fl_me_indicators(in->sim, z, in->diag)) return FMU_ERROR;
    return FMU_OK;
}

int fmu_completed_step(fmu_inst *in, int *enter_event, int *terminate)
{
    if (me_call(in, "completedIntegratorStep", FMU_IN(FMU_CONT), 0, 0, NULL)) return FMU_ERROR;
    int crossed = fl_me_completed_step(in->sim, in->diag);
    if (crossed < 0) return FMU_ERROR;
    if (enter_event) *enter_event = crossed;
    if (terminate) *terminate = 0;
    return FMU_OK;
}

int fmu_enter_event(fmu_inst *in)
{
    if (me_call(in, "entering event mode", FMU_IN(FMU_CONT) | FMU_IN(FMU_EVENT), 0, 0, NULL)) return FMU_ERROR;
    in->phase = FMU_EVENT;
    in->inputs_dirty = 1; /* something happened: the event iteration runs at the next update */
    return FMU_OK;
}

int fmu_update_discrete(fmu_inst *in, int *states_changed, int *terminate, int *next_defined, double *next)
{
    if (me_call(in, "the event update", FMU_IN(FMU_EVENT), 0, 0, NULL)) return FMU_ERROR;
    int changed = 0, term = 0;
    double te;
    if (in->inputs_dirty) {
        if (fl_me_event(in->sim, &changed, &term, &te, in->diag)) {
            in->phase = FMU_FAILED;
            return fmu_error(in, "the event iteration at t = %.17g failed", fl_step_time(in->sim));
        }
        in->inputs_dirty = 0;
        in->values_dirty = 1;
        /* an input that jumped changes the derivatives discontinuously: the
         * importer restarts its integrator only when told the states changed */
        changed |= in->inputs_jumped;
        in->inputs_jumped = 0;
        fmu_note(in, "event at t = %.17g%s%s", fl_step_time(in->sim), changed ? ": the states jumped" : "",
                 term ? ": terminate" : "");
    } else {
        te = fl_me_next_time_event(in->sim);
    }
    if (term) in->terminated = 1;
    *states_changed = changed;
    *terminate = term;
    *next_defined = isfinite(te) != 0;
    *next = isfinite(te) ? te : 0;
    return FMU_OK;
}

int fmu_enter_cont(fmu_inst *in)
{
    if (me_call(in, "entering continuous-time mode", FMU_IN(FMU_EVENT), 0, 0, NULL)) return FMU_ERROR;
    in->phase = FMU_CONT;
    return FMU_OK;
}

/* ---- FMU states ------------------------------------------------------------- */

/* A saved state: the instance's own part, then the simulation's snapshot
 * (step.h). The serialized form is the same bytes. */
typedef struct saved {
    char magic[8]; /* "FLFMUS01" */
    uint32_t fmi, cs, phase, terminated, inputs_dirty, tol_defined, stop_defined, pad;
    double tol, start, stop, last_time;
    uint64_t nsim;
} saved;

static const char saved_magic[8] = {'F', 'L', 'F', 'M', 'U', 'S', '0', '1'};

/* The states an instance handed out are kept in a list: freeing checks it
 * (a pointer that is not one of them is refused, not freed), the instance
 * frees the ones the importer forgot, and a free that is given the state
 * itself instead of its address (fmusim 0.0.38 does so) is recognised. */
static int state_index(const fmu_inst *in, const void *p)
{
    for (int k = 0; p && k < in->nstates; k++)
        if (in->states[k] == p) return k;
    return -1;
}

static void state_track(fmu_inst *in, void *p)
{
    in->states = fl_xrealloc(in->states, sizeof(void *) * (size_t)(in->nstates + 1));
    in->states[in->nstates++] = p;
}

static void state_drop(fmu_inst *in, int k)
{
    free(in->states[k]);
    in->states[k] = in->states[--in->nstates];
}

/* Put a new state where the importer asked: an earlier state of this
 * instance there is replaced (FMI: "the state is updated"). */
static void state_store(fmu_inst *in, void **state, void *s)
{
    int k = state_index(in, *state);
    if (k >= 0) state_drop(in, k);
    state_track(in, s);
    *state = s;
}

int fmu_state_get(fmu_inst *in, void **state)
{
    if (!state) return fmu_error(in, "getting the FMU state: NULL pointer");
    if (fmu_allowed(in, "getting the FMU state", FMU_IN(FMU_STEP) | FMU_IN(FMU_EVENT) | FMU_IN(FMU_CONT) |
                                                      FMU_IN(FMU_TERMINATED) | FMU_IN(FMU_INIT)))
        return FMU_ERROR;
    if (!in->begun || in->rebegin || in->reload) {
        if (in->phase != FMU_INIT) return fmu_error(in, "getting the FMU state: the run has ended");
        if (begin(in)) return FMU_ERROR;
    }
    size_t n = fl_sim_snapshot_size(in->sim);
    saved *s = fl_xmalloc(sizeof *s + n);
    memset(s, 0, sizeof *s);
    memcpy(s->magic, saved_magic, 8);
    s->fmi = (uint32_t)in->fmi;
    s->cs = (uint32_t)in->cs;
    s->phase = (uint32_t)(in->phase == FMU_INIT ? (in->cs ? FMU_STEP : FMU_EVENT) : in->phase);
    s->terminated = (uint32_t)in->terminated;
    s->inputs_dirty = (uint32_t)in->inputs_dirty;
    s->tol_defined = (uint32_t)in->tol_defined;
    s->stop_defined = (uint32_t)in->stop_defined;
    s->tol = in->tol;
    s->start = in->start;
    s->stop = in->stop;
    s->last_time = in->last_time;
    s->nsim = n;
    if (fl_sim_snapshot(in->sim, s + 1, n)) {
        free(s);
        return fmu_error(in, "getting the FMU state failed");
    }
    state_store(in, state, s);
    return FMU_OK;
}

static int check_saved(fmu_inst *in, const saved *s, size_t size, const char *what)
{
    if (size < sizeof *s || memcmp(s->magic, saved_magic, 8))
        return fmu_error(in, "%s: not an FMU state of flange", what);
    if (s->nsim != size - sizeof *s) return fmu_error(in, "%s: the state is %zu bytes, it should be %zu", what, size,
                                                      (size_t)(sizeof *s + s->nsim));
    if ((int)s->fmi != in->fmi || (int)s->cs != in->cs)
        return fmu_error(in, "%s: a state of an FMI %u %s instance, this is an FMI %d %s one", what, s->fmi,
                         s->cs ? "Co-Simulation" : "Model Exchange", in->fmi, in->cs ? "Co-Simulation" : "Model Exchange");
    if (s->phase != FMU_STEP && s->phase != FMU_EVENT && s->phase != FMU_CONT && s->phase != FMU_TERMINATED)
        return fmu_error(in, "%s: a damaged state (mode %u)", what, s->phase);
    return FMU_OK;
}

int fmu_state_set(fmu_inst *in, const void *state)
{
    const saved *s = state;
    if (!s) return fmu_error(in, "setting the FMU state: NULL state");
    if (state_index(in, s) < 0) return fmu_error(in, "setting the FMU state: not a state of this instance");
    if (fmu_allowed(in, "setting the FMU state", FMU_IN(FMU_INSTANTIATED) | FMU_IN(FMU_INIT) | FMU_IN(FMU_STEP) |
                                                      FMU_IN(FMU_EVENT) | FMU_IN(FMU_CONT) | FMU_IN(FMU_TERMINATED)))
        return FMU_ERROR;
    if (check_saved(in, s, sizeof *s + s->nsim, "setting the FMU state")) return FMU_ERROR;
    if (in->reload && reload(in)) return FMU_ERROR;
    in->tol = s->tol;
    in->start = s->start;
    in->stop = s->stop;
    in->tol_defined = (int)s->tol_defined;
    in->stop_defined = (int)s->stop_defined;
    fl_sim_opts o = run_opts(in);
    if (fl_sim_restore(in->sim, s + 1, (size_t)s->nsim, &o, in->diag)) {
        in->begun = 0;
        return fmu_error(in, "setting the FMU state failed");
    }
    in->begun = 1;
    in->rebegin = 0;
    in->values_dirty = 1;
    in->inputs_dirty = (int)s->inputs_dirty;
    in->terminated = (int)s->terminated;
    in->last_time = s->last_time;
    /* the mode the state was saved in, also right after instantiation (fmusim
     * --initial-fmu-state-file restores and goes on stepping without initialising) */
    in->phase = (int)s->phase;
    return FMU_OK;
}

int fmu_state_free(fmu_inst *in, void **state)
{
    if (!state) return FMU_OK;
    int k = state_index(in, state); /* given the state itself */
    if (k >= 0) {
        state_drop(in, k);
        return FMU_OK;
    }
    if (!*state) return FMU_OK;
    k = state_index(in, *state);
    if (k < 0) return fmu_error(in, "freeing an FMU state: not a state of this instance");
    state_drop(in, k);
    *state = NULL;
    return FMU_OK;
}

int fmu_state_size(fmu_inst *in, const void *state, size_t *size)
{
    const saved *s = state;
    if (!s || !size) return fmu_error(in, "the size of an FMU state: NULL argument");
    if (state_index(in, s) < 0) return fmu_error(in, "the size of an FMU state: not a state of this instance");
    *size = sizeof *s + (size_t)s->nsim;
    return FMU_OK;
}

int fmu_state_serialize(fmu_inst *in, const void *state, void *bytes, size_t size)
{
    size_t need = 0;
    if (fmu_state_size(in, state, &need)) return FMU_ERROR;
    if (!bytes || size < need)
        return fmu_error(in, "serializing an FMU state: %zu bytes given, it takes %zu", bytes ? size : 0, need);
    memcpy(bytes, state, need);
    return FMU_OK;
}

int fmu_state_deserialize(fmu_inst *in, const void *bytes, size_t size, void **state)
{
    if (!bytes || !state) return fmu_error(in, "deserializing an FMU state: NULL argument");
    saved head;
    if (size < sizeof head) return fmu_error(in, "deserializing an FMU state: %zu bytes is too short", size);
    memcpy(&head, bytes, sizeof head);
    if (check_saved(in, &head, size, "deserializing an FMU state")) return FMU_ERROR;
    void *s = fl_xmalloc(size);
    memcpy(s, bytes, size);
    state_store(in, state, s);
    return FMU_OK;
}
