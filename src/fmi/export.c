/* export.c - fl_fmu_export: a model as an FMU (flange.h).
 *
 * The FMU carries no generated code: its binary is a copy of one template
 * shared object (flange_fmu.so, built by CMake) that loads
 * resources/model.mo with the options of resources/flange.cfg and compiles
 * it when instantiated, exactly as `flange simulate` does. The exporter
 * therefore does what such an instance will do (load the resources' text
 * with the configuration's overrides and no library path, compile, build
 * the variable table of vars.c) and describes that table in
 * modelDescription.xml.
 *
 * Top-level RealInput/RealOutput connectors cannot be left open in flange
 * (an input must be connected), so a model with them is wrapped:
 *
 *   model FlangeFMU_M
 *     M fmu_model;
 *     Modelica.Blocks.Sources.Constant in_u(k = start);   one per input
 *     Modelica.Blocks.Math.Gain out_y(k = 1);             one per output
 *   equation
 *     connect(in_u.y, fmu_model.u); connect(fmu_model.y, out_y.u);
 *   end FlangeFMU_M;
 *
 * An input is then the run-time parameter in_u.k (fl_sim_set_param), an
 * output the variable out_y.y; the FMU's other names drop "fmu_model.". */
#define _GNU_SOURCE /* dladdr */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zip.h>

#include "compile/system.h"
#include "fmi/export.h"
#include "model/model.h"
#include "output/target.h"
#include "parse/ast.h"
#include "parse/lexer.h"
#include "sim/sim.h"
#include "sweep/sweep.h"
#include "util/diag.h"
#include "util/guard.h"
#include "util/util.h"

#define WRAPPED "fmu_model"
/* Compilations spent on finding tunable parameters: at most 200, and fewer
 * on big models (a budget of 2e5 element compilations, some seconds), so an
 * export stays quick; counted, not timed, so that the same model always
 * gives the same modelDescription.xml. */
#define TUNABLE_MAX_CANDIDATES 200
#define TUNABLE_ELEMENT_BUDGET 200000.0

/* Everything an export holds, freed in one place (also after a failure
 * that unwinds). */
typedef struct exporter {
    const char *path;
    fl_diag *d;
    char *text;          /* the model file */
    fl_file_ast *ast;
    char *class_path;    /* the user's model in the file ("P.M") */
    char *class_name;    /* its short name */
    char *description;
    char *final_text;    /* resources/model.mo */
    fl_fmu_cfg cfg;
    fl_model *model;     /* the final model */
    fl_system *sys;
    fl_sim *sim;
    fl_fmu_vars vars;
    char **tables;       /* relative table file names */
    int ntables;
    char *template_path;
    char ident[256];     /* modelIdentifier */
} exporter;

static void exporter_free(void *arg)
{
    exporter *x = arg;
    free(x->text);
    fl_file_free(x->ast);
    free(x->class_path);
    free(x->class_name);
    free(x->description);
    free(x->final_text);
    fl_fmu_cfg_free(&x->cfg);
    fl_sim_free(x->sim);
    fl_system_free(x->sys);
    fl_model_free(x->model);
    fl_fmu_vars_free(&x->vars);
    for (int i = 0; i < x->ntables; i++) free(x->tables[i]);
    free(x->tables);
    free(x->template_path);
    memset(x, 0, sizeof *x);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* ---- the template ------------------------------------------------------------ */

static char *exe_dir(void)
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return NULL;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash) return NULL;
    *slash = '\0';
    return fl_xstrdup(buf[0] ? buf : "/");
}

/* The directory of the library this code is in: libflange.so for a program
 * or an interpreter (Python) that loads it, the program itself when it is
 * linked statically. */
static char *lib_dir(void)
{
    Dl_info info;
    if (!dladdr((void *)lib_dir, &info) || !info.dli_fname) return NULL;
    char *real = realpath(info.dli_fname, NULL); /* a static program is named as it was started */
    if (!real) return NULL;
    char *slash = strrchr(real, '/');
    char *dir = slash && slash > real ? fl_xstrndup(real, (size_t)(slash - real)) : NULL;
    free(real);
    return dir;
}

#ifndef FLANGE_FMU_LIBDIR_REL
#define FLANGE_FMU_LIBDIR_REL "../lib/flange" /* installed: from bin to lib/flange */
#endif

static void add_tried(char **tried, int *n, char *p)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(tried[i], p) == 0) {
            free(p);
            return;
        }
    tried[(*n)++] = p;
}

static int find_template(exporter *x, const char *given)
{
    char *tried[6];
    int n = 0;
    if (given && *given) tried[n++] = fl_xstrdup(given);
    const char *env = getenv("FLANGE_FMU_TEMPLATE");
    if (env && *env) tried[n++] = fl_xstrdup(env);
    char *dir = exe_dir(), *ldir = lib_dir();
    if (dir) {
        add_tried(tried, &n, fl_xsprintf("%s/flange_fmu.so", dir));
        add_tried(tried, &n, fl_xsprintf("%s/" FLANGE_FMU_LIBDIR_REL "/flange_fmu.so", dir));
    }
    if (ldir && (!dir || strcmp(ldir, dir) != 0)) {
        /* libflange.so in a program or interpreter (Python): beside it (the
         * build tree), or in its flange/ (installed) */
        add_tried(tried, &n, fl_xsprintf("%s/flange_fmu.so", ldir));
        add_tried(tried, &n, fl_xsprintf("%s/flange/flange_fmu.so", ldir));
    }
    free(dir);
    free(ldir);
    for (int i = 0; i < n; i++)
        if (!x->template_path && is_file(tried[i])) x->template_path = fl_xstrdup(tried[i]);
    if (!x->template_path) {
        fl_buf b = {0};
        for (int i = 0; i < n; i++) fl_buf_printf(&b, "%s%s", i ? ", " : "", tried[i]);
        fl_err(x->d, fl_noloc,
               "no FMU template (flange_fmu.so) found: tried %s (build the CMake target flange_fmu, or name it with "
               "FLANGE_FMU_TEMPLATE)",
               b.n ? b.s : "nothing");
        fl_buf_free(&b);
    }
    for (int i = 0; i < n; i++) free(tried[i]);
    return x->template_path ? 0 : -1;
}

/* ---- the model's class in the file -------------------------------------------- */

typedef struct found {
    const fl_class_ast *c;
    char *path;
    int n;
} found;

static void find_models(const fl_class_ast *c, fl_buf *path, const char *within, const char *name, found *f)
{
    size_t n0 = path->n;
    if (n0) fl_buf_addc(path, '.');
    fl_buf_add(path, c->name);
    if ((c->kind == CK_MODEL || c->kind == CK_CLASS) && !c->partial) {
        const char *p = path->s;
        int match = !name;
        if (name) {
            size_t lp = strlen(p), ln = strlen(name), lw = within ? strlen(within) : 0;
            match = strcmp(p, name) == 0 || (lp > ln && p[lp - ln - 1] == '.' && strcmp(p + lp - ln, name) == 0) ||
                    (lw && strncmp(name, within, lw) == 0 && name[lw] == '.' && strcmp(name + lw + 1, p) == 0);
        }
        if (match) {
            if (!f->n) {
                f->c = c;
                f->path = fl_xstrdup(p);
            }
            f->n++;
        }
    }
    if (c->kind == CK_PACKAGE)
        for (size_t i = 0; i < c->classes.n; i++) find_models(c->classes.v[i], path, within, name, f);
    path->n = n0;
    path->s[n0] = '\0';
}

/* ---- top-level connectors ------------------------------------------------------- */

typedef struct io_decl {
    const fl_decl *decl;
    int input;     /* else output */
    int connector; /* RealInput/RealOutput (else a plain "output Real") */
} io_decl;

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0 && (n == m || s[n - m - 1] == '.');
}

static const fl_mod *find_mod(const fl_decl *dl, const char *name)
{
    for (int i = 0; i < dl->nmods; i++)
        if (strcmp(dl->mods[i].name, name) == 0) return &dl->mods[i];
    return NULL;
}

/* A literal number (with a sign) of a modifier. */
static int literal_number(const fl_expr *e, double *v)
{
    if (!e) return -1;
    if (e->kind == EX_NUM) {
        *v = e->num;
        return 0;
    }
    if (e->kind == EX_UNARY && e->a && e->a->kind == EX_NUM) {
        *v = e->op == T_MINUS ? -e->a->num : e->a->num;
        return 0;
    }
    return -1;
}

/* The top class's inputs and outputs (checked); -1 with a message for what
 * an FMU does not support yet. */
static int scan_io(exporter *x, const fl_class_ast *top, io_decl **out, int *nout)
{
    *out = NULL;
    *nout = 0;
    int rc = 0;
    for (size_t i = 0; i < top->decls.n; i++) {
        const fl_decl *dl = &top->decls.v[i];
        if (dl->prefix & FL_PFX_PROTECTED) continue;
        const char *t = dl->type;
        int conn_in = ends_with(t, "RealInput"), conn_out = ends_with(t, "RealOutput");
        int other_conn = ends_with(t, "IntegerInput") || ends_with(t, "BooleanInput") ||
                         ends_with(t, "IntegerOutput") || ends_with(t, "BooleanOutput");
        int plain_in = (dl->prefix & FL_PFX_INPUT) != 0, plain_out = (dl->prefix & FL_PFX_OUTPUT) != 0;
        if (other_conn) {
            fl_err(x->d, dl->loc, "%s: %s connectors are not supported yet in an FMU (scalar RealInput and RealOutput are)",
                   dl->name, t);
            rc = -1;
            continue;
        }
        if (!conn_in && !conn_out && !plain_in && !plain_out) continue;
        if (plain_in && !conn_in) {
            fl_err(x->d, dl->loc,
                   "%s: a top-level 'input %s' is not supported yet in an FMU (use a RealInput connector)", dl->name,
                   t);
            rc = -1;
            continue;
        }
        if (plain_out && !conn_out && strcmp(t, "Real") != 0) {
            fl_err(x->d, dl->loc, "%s: a top-level 'output %s' is not supported yet in an FMU (Real outputs are)",
                   dl->name, t);
            rc = -1;
            continue;
        }
        if (dl->ndims || dl->ntype_dims) {
            fl_err(x->d, dl->loc, "%s: array %s are not supported yet in an FMU (scalar RealInput and RealOutput are)",
                   dl->name, conn_in || plain_in ? "inputs" : "outputs");
            rc = -1;
            continue;
        }
        if (dl->cond) {
            fl_err(x->d, dl->loc, "%s: conditional %s are not supported yet in an FMU", dl->name,
                   conn_in ? "inputs" : "outputs");
            rc = -1;
            continue;
        }
        *out = fl_xrealloc(*out, sizeof **out * (size_t)(*nout + 1));
        (*out)[(*nout)++] = (io_decl){dl, conn_in, conn_in || conn_out};
    }
    return rc;
}

/* unit= of a declaration ("" if none), start= (0 if none). */
static int io_attrs(exporter *x, const fl_decl *dl, const char **unit, double *start)
{
    *unit = "";
    *start = 0;
    const fl_mod *m = find_mod(dl, "unit");
    if (m && m->value && m->value->kind == EX_STR) *unit = m->value->str;
    m = find_mod(dl, "start");
    if (m && literal_number(m->value, start)) {
        fl_err(x->d, m->loc, "%s: the start value of an FMU input must be a number", dl->name);
        return -1;
    }
    if (!m && dl->binding) {
        fl_err(x->d, dl->loc, "%s: an FMU input cannot have a binding", dl->name);
        return -1;
    }
    return 0;
}

static void add_number(fl_buf *b, double v)
{
    char num[40];
    fl_fmt_double(num, sizeof num, v);
    fl_buf_add(b, num);
}

/* The wrapper model and the configuration's inputs and outputs. */
static int make_wrapper(exporter *x, const fl_class_ast *top, const io_decl *io, int nio)
{
    fl_buf b = {0};
    fl_cleanup c;
    fl_cleanup_push(&c, fl_buf_cleanup, &b);
    int connectors = 0;
    for (int i = 0; i < nio; i++) connectors += io[i].connector;
    fl_fmu_cfg *cfg = &x->cfg;
    if (!connectors) {
        /* plain outputs only: the model as it is, each output its own variable */
        for (int i = 0; i < nio; i++) {
            const char *unit;
            double start;
            if (io_attrs(x, io[i].decl, &unit, &start)) goto fail;
            fl_fmu_io o = {fl_xstrdup(io[i].decl->name), fl_xstrdup(io[i].decl->name), fl_xstrdup(unit),
                           fl_xstrdup(io[i].decl->comment ? io[i].decl->comment : ""), 0};
            cfg->outputs = fl_xrealloc(cfg->outputs, sizeof *cfg->outputs * (size_t)(cfg->noutputs + 1));
            cfg->outputs[cfg->noutputs++] = o;
        }
        cfg->model = fl_xstrdup(x->class_path);
        cfg->wrapped = fl_xstrdup("");
        fl_cleanup_pop(&c);
        fl_buf_free(&b);
        x->final_text = fl_xstrdup(x->text);
        return 0;
    }
    char *wname = fl_xsprintf("FlangeFMU_%s", x->ident);
    cfg->model = wname;
    cfg->wrapped = fl_xstrdup(WRAPPED);
    fl_buf_printf(&b, "\n\n// Generated by flange %s for the FMU: the model's inputs and outputs as\n"
                      "// constant sources (set by the importer) and pass-through blocks.\n"
                      "model %s\n  %s " WRAPPED ";\n",
                  fl_version(), wname, x->class_path);
    for (int i = 0; i < nio; i++) {
        const fl_decl *dl = io[i].decl;
        const char *unit;
        double start;
        if (io_attrs(x, dl, &unit, &start)) goto fail;
        fl_fmu_io o = {fl_xstrdup(dl->name), NULL, fl_xstrdup(unit), fl_xstrdup(dl->comment ? dl->comment : ""),
                       start};
        if (io[i].input) {
            o.carrier = fl_xsprintf("in_%s.k", dl->name);
            cfg->inputs = fl_xrealloc(cfg->inputs, sizeof *cfg->inputs * (size_t)(cfg->ninputs + 1));
            cfg->inputs[cfg->ninputs++] = o;
            fl_buf_printf(&b, "  Modelica.Blocks.Sources.Constant in_%s(k = ", dl->name);
            add_number(&b, start);
            fl_buf_add(&b, ");\n");
        } else {
            /* a connector is no variable of its own: a block passes it on;
             * a plain output is one */
            o.carrier = io[i].connector ? fl_xsprintf("out_%s.y", dl->name) : fl_xsprintf(WRAPPED ".%s", dl->name);
            cfg->outputs = fl_xrealloc(cfg->outputs, sizeof *cfg->outputs * (size_t)(cfg->noutputs + 1));
            cfg->outputs[cfg->noutputs++] = o;
            if (io[i].connector) fl_buf_printf(&b, "  Modelica.Blocks.Math.Gain out_%s(k = 1);\n", dl->name);
        }
    }
    fl_buf_add(&b, "equation\n");
    for (int i = 0; i < nio; i++) {
        const char *n = io[i].decl->name;
        if (io[i].input) fl_buf_printf(&b, "  connect(in_%s.y, " WRAPPED ".%s);\n", n, n);
        else if (io[i].connector) fl_buf_printf(&b, "  connect(" WRAPPED ".%s, out_%s.u);\n", n, n);
    }
    /* the experiment: the model's own, or as the loader takes it, that of
     * a base class in the same file */
    const fl_experiment_ast *e = &top->experiment;
    if (!e->has_start && !e->has_stop && !e->has_interval && !e->has_tolerance)
        for (size_t i = 0; i < top->extends.n; i++) {
            fl_buf pb = {0};
            found f = {NULL, NULL, 0};
            for (size_t j = 0; j < x->ast->classes.n; j++)
                find_models(x->ast->classes.v[j], &pb, x->ast->within, top->extends.v[i].base, &f);
            fl_buf_free(&pb);
            free(f.path);
            if (f.n == 1) e = &f.c->experiment;
        }
    if (e->has_start || e->has_stop || e->has_interval || e->has_tolerance) {
        fl_buf_add(&b, "  annotation(experiment(");
        const char *sep = "";
        if (e->has_start) {
            fl_buf_add(&b, "StartTime = ");
            add_number(&b, e->start);
            sep = ", ";
        }
        if (e->has_stop) {
            fl_buf_printf(&b, "%sStopTime = ", sep);
            add_number(&b, e->stop);
            sep = ", ";
        }
        if (e->has_interval) {
            fl_buf_printf(&b, "%sInterval = ", sep);
            add_number(&b, e->interval);
            sep = ", ";
        }
        if (e->has_tolerance) {
            fl_buf_printf(&b, "%sTolerance = ", sep);
            add_number(&b, e->tolerance);
        }
        fl_buf_add(&b, "));\n");
    }
    fl_buf_printf(&b, "end %s;\n", wname);
    x->final_text = fl_xcat(x->text, b.s, (char *)NULL);
    fl_cleanup_pop(&c);
    fl_buf_free(&b);
    return 0;
fail:
    fl_cleanup_pop(&c);
    fl_buf_free(&b);
    return -1;
}

/* ---- parameters ------------------------------------------------------------------ */

/* The definition of parameter name in sys (fl_system_param), or NULL. */
static const fl_param_def *param_def(const fl_system *sys, const char *name)
{
    int i, k = fl_system_param(sys, name, &i);
    return k >= 0 ? &sys->insts[i].cls->params[k] : NULL;
}

static int parse_plain_number(const char *s, double *v)
{
    while (*s == ' ') s++;
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    if (end == s) return -1;
    while (*end == ' ') end++;
    return *end || !isfinite(*v) ? -1 : 0;
}

/* A value of a parameter of type t as the loader takes it (malloc'd), NULL
 * when it has none (not finite, not a literal of the enumeration). */
static char *value_text(int t, const char *enum_type, double v)
{
    if (!isfinite(v)) return NULL;
    if (t == FL_P_BOOL) return fl_xstrdup(v != 0 ? "true" : "false");
    if (t == FL_P_ENUM) {
        const fl_enum_type *et = enum_type ? fl_enum_find(enum_type) : NULL;
        if (!et || v < 1 || v > et->n || v != floor(v)) return NULL;
        return fl_xcat(et->path, ".", et->lits[(int)v - 1], (char *)NULL);
    }
    return fl_xsprintf("%.17g", v);
}

/* --param overrides in the configuration, evaluated, as the loader takes
 * them (names as the loaded model spells them: with the wrapper's prefix):
 * read back from a first compilation of the model with the overrides as
 * given. */
static int export_overrides(exporter *x, const fl_fmu_opts *o, const fl_system *sys, fl_sim *sim)
{
    fl_fmu_cfg *cfg = &x->cfg;
    const char *prefix = cfg->wrapped[0] ? WRAPPED "." : "";
    for (int i = 0; i < o->nparams; i++) {
        const char *s = o->params[i];
        const char *eq = strchr(s, '=');
        if (!eq) continue; /* the loader said so */
        char *name = fl_xstrndup(s, (size_t)(eq - s));
        char *nm = name;
        while (*nm == ' ') nm++;
        size_t n = strlen(nm);
        while (n && nm[n - 1] == ' ') nm[--n] = '\0';
        char *full = fl_xsprintf("%s%s", prefix, nm);
        free(name);
        char *text = NULL;
        int type = -1;
        const fl_param_def *pd = param_def(sys, full);
        const fl_mparam *mp = NULL;
        for (int j = 0; !pd && j < sys->nmparams && !mp; j++)
            if (strcmp(sys->mparams[j].name, full) == 0) mp = &sys->mparams[j];
        if (pd) {
            type = (int)pd->type;
            if (type <= FL_P_ENUM) text = value_text(type, pd->enum_type, fl_sim_param(sim, full));
        } else if (mp) {
            type = (int)mp->type;
            text = value_text(type, mp->enum_type, mp->value);
        } else {
            double v; /* another parameter of the model (nested deeper): a number as given */
            if (parse_plain_number(eq + 1, &v) == 0) text = fl_xsprintf("%.17g", v);
        }
        if (!text) {
            fl_err(x->d, fl_noloc,
                   "--param %s: not supported yet in an FMU: only numbers, Booleans and enumeration literals can be "
                   "given to its parameters (this is %s)",
                   s, type == FL_P_STRING ? "a String parameter" : type >= 0 ? "an array parameter" : "no number");
            free(full);
            return -1;
        }
        int j;
        for (j = 0; j < cfg->nparams && strcmp(cfg->param_names[j], full) != 0; j++) {}
        if (j == cfg->nparams) {
            cfg->param_names = fl_xrealloc(cfg->param_names, sizeof(char *) * (size_t)(j + 1));
            cfg->param_values = fl_xrealloc(cfg->param_values, sizeof(char *) * (size_t)(j + 1));
            cfg->param_names[j] = full;
            cfg->param_values[j] = NULL;
            cfg->nparams++;
        } else {
            free(full);
        }
        free(cfg->param_values[j]);
        cfg->param_values[j] = text;
    }
    return 0;
}

/* The FMU's model: the resources' text, the configuration's overrides (and
 * name = value when name is not NULL, in place of the configuration's value
 * of it), no libraries: what an instance of the FMU loads. */
static fl_model *load_as_fmu(exporter *x, const char *name, double value, fl_diag *d)
{
    const fl_fmu_cfg *cfg = &x->cfg;
    char **ps = fl_xcalloc((size_t)cfg->nparams + 1, sizeof *ps);
    int n = 0, replaced = 0;
    for (int i = 0; i < cfg->nparams; i++) {
        int here = name && strcmp(cfg->param_names[i], name) == 0;
        ps[n++] = here ? fl_xsprintf("%s=%.17g", name, value)
                       : fl_xcat(cfg->param_names[i], "=", cfg->param_values[i], (char *)NULL);
        replaced |= here;
    }
    if (name && !replaced) ps[n++] = fl_xsprintf("%s=%.17g", name, value);
    fl_load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.model_name = cfg->model;
    lo.params = (const char *const *)ps;
    lo.nparams = n;
    lo.modelicapath = "";
    fl_model *m = fl_model_load_string(x->final_text, x->path, &lo, d);
    for (int i = 0; i < n; i++) free(ps[i]);
    free(ps);
    return m;
}

static fl_system *compile_with(exporter *x, const char *name, double value, fl_diag *d)
{
    fl_model *m = load_as_fmu(x, name, value, d);
    return m ? fl_compile_and_free(m, d) : NULL;
}

/* Tunable parameters: Real ones fl_sim_set_param accepts at run time and
 * whose change moves no other parameter (the study's test, sweep/study.c),
 * within a budget of compilations; the rest stay fixed. */
static void classify_tunable(exporter *x, int *nskipped)
{
    fl_fmu_cfg *cfg = &x->cfg;
    const fl_fmu_vars *t = &x->vars;
    int tried = 0;
    double cost = (double)x->sys->nelem + 1; /* of one compilation, in elements */
    *nskipped = 0;
    fl_diag *pd = fl_diag_new();
    fl_sim *probe = fl_sim_new(x->sys, pd);
    for (int i = 0; probe && i < t->n; i++) {
        const fl_fmu_var *v = &t->v[i];
        if (v->kind != FL_FMU_PARAM || v->type != FL_FMU_REAL || v->index < 0 || fl_par_fixed(x->sys, v->index)) continue;
        double probe_v = v->start != 0 ? v->start * (1 + 1e-3) : 1e-3;
        int why = 0;
        fl_diag_clear(pd);
        if (fl_sim_set_param_why(probe, v->pname, probe_v, pd, &why)) {
            /* out of range (a limit of the parameter): try the other side */
            probe_v = v->start != 0 ? v->start * (1 - 1e-3) : -1e-3;
            fl_diag_clear(pd);
            if (why || fl_sim_set_param_why(probe, v->pname, probe_v, pd, &why)) continue;
        }
        fl_sim_set_param(probe, v->pname, v->start, NULL);
        if (tried >= TUNABLE_MAX_CANDIDATES || (tried + 1) * cost > TUNABLE_ELEMENT_BUDGET) {
            (*nskipped)++;
            continue;
        }
        tried++;
        fl_diag_clear(pd);
        fl_system *other = compile_with(x, v->pname, probe_v, pd);
        if (other && sw_param_runtime(x->sys, other, v->pname, &probe_v, 1, 1)) {
            cfg->tunable = fl_xrealloc(cfg->tunable, sizeof(char *) * (size_t)(cfg->ntunable + 1));
            cfg->tunable[cfg->ntunable++] = fl_xstrdup(v->pname);
        }
        fl_system_free(other);
    }
    fl_sim_free(probe);
    fl_diag_free(pd);
}

/* ---- table files ------------------------------------------------------------------ */

/* The relative names of the files tables read (tableOnFile = true);
 * -1 for names an FMU cannot carry. */
static int collect_tables(exporter *x, const fl_model *m)
{
    int rc = 0;
    for (size_t i = 0; i < m->insts.n; i++) {
        const fl_minst *in = &m->insts.v[i];
        int kt = fl_class_param(in->cls, "tableOnFile"), kf = fl_class_param(in->cls, "fileName");
        if (kt < 0 || kf < 0 || in->cls->params[kt].type != FL_P_BOOL || in->cls->params[kf].type != FL_P_STRING)
            continue;
        fl_value onbuf, fnbuf;
        const fl_value *on = fl_minst_par(in, kt, &onbuf, NULL);
        fl_loc loc;
        const fl_value *fn = fl_minst_par(in, kf, &fnbuf, &loc);
        if (!on || on->num == 0 || !fn || !fn->str) continue;
        const char *f = fn->str;
        if (strncmp(f, "file://", 7) == 0) f += 7;
        int bad = f[0] == '/' || strstr(f, "://") != NULL;
        for (const char *p = f; *p && !bad; p = strchr(p, '/') ? strchr(p, '/') + 1 : p + strlen(p))
            if (strncmp(p, "..", 2) == 0 && (p[2] == '/' || !p[2])) bad = 1;
        if (bad) {
            fl_err(x->d, loc,
                   "%s.fileName = \"%s\": not supported yet in an FMU: it carries table files named relative to the "
                   "model's file, inside its directory",
                   in->name, fn->str);
            rc = -1;
            continue;
        }
        int seen = 0;
        for (int j = 0; j < x->ntables && !seen; j++) seen = strcmp(x->tables[j], f) == 0;
        if (seen) continue;
        x->tables = fl_xrealloc(x->tables, sizeof(char *) * (size_t)(x->ntables + 1));
        x->tables[x->ntables++] = fl_xstrdup(f);
    }
    return rc;
}

/* ---- documentation ------------------------------------------------------------------ */

static void html_list(fl_buf *b, const fl_fmu_vars *t, fl_fmu_kind kind, int tunable_only, const char *title)
{
    int n = 0;
    for (int i = 0; i < t->n; i++) n += t->v[i].kind == kind && (!tunable_only || t->v[i].tunable);
    if (!n) return;
    fl_buf_printf(b, "<h2>%s (%d)</h2>\n<table>\n<tr><th>name</th><th>unit</th><th>start</th><th>description</th></tr>\n",
                  title, n);
    for (int i = 0; i < t->n; i++) {
        const fl_fmu_var *v = &t->v[i];
        if (v->kind != kind || (tunable_only && !v->tunable)) continue;
        fl_buf_add(b, "<tr><td>");
        fl_xml_escape(b, v->name);
        fl_buf_add(b, "</td><td>");
        fl_xml_escape(b, v->unit);
        fl_buf_add(b, "</td><td>");
        if (kind == FL_FMU_INPUT || kind == FL_FMU_PARAM) add_number(b, v->start);
        fl_buf_add(b, "</td><td>");
        fl_xml_escape(b, v->desc);
        fl_buf_add(b, "</td></tr>\n");
    }
    fl_buf_add(b, "</table>\n");
}

static char *documentation(const exporter *x, int nskipped)
{
    const fl_fmu_vars *t = &x->vars;
    int count[7] = {0}, ntun = 0;
    for (int i = 0; i < t->n; i++) {
        count[t->v[i].kind]++;
        ntun += t->v[i].tunable;
    }
    fl_buf b = {0};
    fl_buf_add(&b, "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>");
    fl_xml_escape(&b, x->class_name);
    fl_buf_add(&b, "</title>\n<style>body{font-family:sans-serif;max-width:60em}td,th{padding:0 0.6em;text-align:left}"
                   "</style>\n</head>\n<body>\n<h1>");
    fl_xml_escape(&b, x->class_name);
    fl_buf_add(&b, "</h1>\n");
    if (x->description[0]) {
        fl_buf_add(&b, "<p>");
        fl_xml_escape(&b, x->description);
        fl_buf_add(&b, "</p>\n");
    }
    fl_buf_printf(&b, "<p>FMI %d.0 FMU (Co-Simulation and Model Exchange) exported by flange %s from the Modelica "
                      "model <code>",
                  x->cfg.fmi, fl_version());
    fl_xml_escape(&b, x->class_path);
    fl_buf_add(&b, "</code> (in <code>resources/model.mo</code>). The binary loads and compiles that model when it "
                   "is instantiated and simulates it with the same code as <code>flange simulate</code>: "
                   "Co-Simulation integrates with IDA (variable steps, located events) inside each communication "
                   "step; Model Exchange gives the importer the continuous states and their derivatives, the event "
                   "indicators and the time events.</p>\n");
    fl_buf_printf(&b, "<p>%d inputs, %d outputs, %d parameters (%d tunable), %d variables, %d continuous states, "
                      "%d event indicators.</p>\n",
                  count[FL_FMU_INPUT], count[FL_FMU_OUTPUT], count[FL_FMU_PARAM], ntun, count[FL_FMU_VAR],
                  count[FL_FMU_STATE], count[FL_FMU_INDICATOR]);
    fl_buf_add(&b, "<h2>Names</h2>\n<ul>\n<li>Model variables keep their Modelica names (<code>mass.s</code>); "
                   "parameters are the model's own top-level parameters (<code>k</code>) and the components' "
                   "Real, Integer, Boolean and enumeration parameters (an enumeration is an Integer: the index of "
                   "its literal, from 1).</li>\n"
                   "<li><code>_x.NAME</code> are the continuous states (body positions as displacements from the "
                   "initial position, velocities, states of equations) and <code>der(_x.NAME)</code> their "
                   "derivatives; <code>_z[k]</code> are the event indicators (FMI 3).</li>\n"
                   "<li>Tunable parameters may be changed during a run; fixed ones only before initialisation "
                   "(the model is then compiled again with the new value).</li>\n</ul>\n");
    if (nskipped)
        fl_buf_printf(&b, "<p>%d parameters were not tested for run-time changes (the export's budget of compilations) and are "
                          "fixed.</p>\n",
                      nskipped);
    html_list(&b, t, FL_FMU_INPUT, 0, "Inputs");
    html_list(&b, t, FL_FMU_OUTPUT, 0, "Outputs");
    html_list(&b, t, FL_FMU_PARAM, 1, "Tunable parameters");
    fl_buf_add(&b, "<h2>Not supported yet</h2>\n<ul>\n"
                   "<li>array, Integer and Boolean input/output connectors, and plain <code>input Real</code> at "
                   "the top level;</li>\n"
                   "<li>models using libraries (<code>--lib</code>, <code>MODELICAPATH</code>);</li>\n"
                   "<li>String and array parameters, and the parameters of models nested inside the model (set "
                   "them at export with <code>--param</code>);</li>\n"
                   "<li>start values of the states as parameters;</li>\n"
                   "<li>directional derivatives and sparse dependencies in ModelStructure;</li>\n"
                   "<li>FMI 3 event mode in Co-Simulation, early return, clocks and arrays;</li>\n"
                   "<li>restoring an FMU state in Co-Simulation restarts the integrator (the result agrees with an "
                   "uninterrupted run to the tolerance, not bit for bit);</li>\n"
                   "<li>the energy audit outputs (<code>energy.*</code>);</li>\n"
                   "<li>platforms other than x86_64 Linux.</li>\n</ul>\n</body>\n</html>\n");
    return fl_buf_take(&b);
}

/* ---- the zip ------------------------------------------------------------------------ */

/* When the FMU is made (generationDateAndTime, the members' times): now, or
 * SOURCE_DATE_EPOCH when set (reproducible builds: the same model then gives
 * the same FMU byte for byte). */
static time_t generation_time(void)
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    if (sde && *sde) {
        char *end;
        long long v = strtoll(sde, &end, 10);
        if (!*end && v >= 0) return (time_t)v;
    }
    return time(NULL);
}

typedef struct zipper {
    zip_source_t *src;
    zip_t *za;
} zipper;

static void zipper_free(void *arg)
{
    zipper *z = arg;
    if (z->za) zip_discard(z->za);
    if (z->src) zip_source_free(z->src);
    z->za = NULL;
    z->src = NULL;
}

static int zip_add_copy(exporter *x, zipper *z, const char *name, const void *data, size_t n)
{
    /* libzip copies nothing: the buffer must live until zip_close, so it is
     * handed over (freep = 1) as a copy */
    void *copy = malloc(n ? n : 1);
    if (!copy) fl_fail_oom(n);
    memcpy(copy, data, n);
    zip_source_t *s = zip_source_buffer(z->za, copy, n, 1);
    if (!s) {
        free(copy);
        fl_err(x->d, fl_noloc, "cannot add %s to the FMU: %s", name, zip_strerror(z->za));
        return -1;
    }
    zip_int64_t idx = zip_file_add(z->za, name, s, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
    if (idx < 0) {
        zip_source_free(s);
        fl_err(x->d, fl_noloc, "cannot add %s to the FMU: %s", name, zip_strerror(z->za));
        return -1;
    }
    zip_file_set_mtime(z->za, (zip_uint64_t)idx, generation_time(), 0);
    return 0;
}

static int zip_add_text(exporter *x, zipper *z, const char *name, const char *text)
{
    return zip_add_copy(x, z, name, text, strlen(text));
}

/* A file read whole (fl_read_model_text refuses NUL bytes, which a shared
 * object has). */
static char *read_binary(exporter *x, const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fl_err(x->d, fl_noloc, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    fl_cleanup c;
    fl_cleanup_push(&c, fl_fclose_cleanup, f);
    size_t cap = 1 << 20, len = 0;
    char *buf = fl_xmalloc(cap);
    size_t k;
    while ((k = fread(buf + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) buf = fl_xrealloc(buf, cap *= 2);
    }
    int err = ferror(f);
    fl_cleanup_pop(&c);
    fclose(f);
    if (err) {
        fl_err(x->d, fl_noloc, "cannot read %s", path);
        free(buf);
        return NULL;
    }
    *n = len;
    return buf;
}

static int write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void target_cleanup(void *t)
{
    fl_target_discard(t);
}

/* The archive, written to out through a temporary file. */
static int write_fmu(exporter *x, const char *out, const char *xml, const char *cfg_text, const char *doc)
{
    zipper z = {NULL, NULL};
    fl_cleanup c;
    fl_cleanup_push(&c, zipper_free, &z);
    zip_error_t ze;
    zip_error_init(&ze);
    int rc = -1;
    char *so_name = NULL, *so = NULL, *bytes = NULL;
    z.src = zip_source_buffer_create(NULL, 0, 0, &ze);
    if (z.src) {
        zip_source_keep(z.src);
        z.za = zip_open_from_source(z.src, ZIP_TRUNCATE, &ze);
    }
    if (!z.za) {
        fl_err(x->d, fl_noloc, "cannot make the FMU archive: %s", zip_error_strerror(&ze));
        goto done;
    }
    so_name = fl_xsprintf("binaries/%s/%s.so", x->cfg.fmi == 3 ? "x86_64-linux" : "linux64", x->ident);
    size_t so_n = 0;
    so = read_binary(x, x->template_path, &so_n);
    if (!so) goto done;
    if (zip_add_text(x, &z, "modelDescription.xml", xml) || zip_add_copy(x, &z, so_name, so, so_n) ||
        zip_add_text(x, &z, "resources/model.mo", x->final_text) ||
        zip_add_text(x, &z, "resources/flange.cfg", cfg_text) ||
        zip_add_text(x, &z, "documentation/index.html", doc))
        goto done;
    free(so);
    so = NULL;
    /* table files, under resources/ at their relative names */
    const char *slash = strrchr(x->path, '/');
    for (int i = 0; i < x->ntables; i++) {
        char *src = slash ? fl_xsprintf("%.*s/%s", (int)(slash - x->path), x->path, x->tables[i])
                          : fl_xstrdup(x->tables[i]);
        size_t n = 0;
        char *data = read_binary(x, src, &n);
        free(src);
        if (!data) goto done;
        char *name = fl_xsprintf("resources/%s", x->tables[i]);
        int bad = zip_add_copy(x, &z, name, data, n);
        free(name);
        free(data);
        if (bad) goto done;
    }
    /* the shared object must keep its execute bits when unpacked */
    zip_int64_t idx = zip_name_locate(z.za, so_name, 0);
    if (idx >= 0) zip_file_set_external_attributes(z.za, (zip_uint64_t)idx, 0, ZIP_OPSYS_UNIX, (0100755u) << 16);
    if (zip_close(z.za) < 0) {
        fl_err(x->d, fl_noloc, "cannot make the FMU archive: %s", zip_strerror(z.za));
        goto done;
    }
    z.za = NULL;
    /* the archive's bytes */
    zip_stat_t st;
    if (zip_source_open(z.src) < 0 || zip_source_stat(z.src, &st) < 0 || !(st.valid & ZIP_STAT_SIZE)) {
        fl_err(x->d, fl_noloc, "cannot read the FMU archive back: %s", zip_error_strerror(zip_source_error(z.src)));
        goto done;
    }
    bytes = fl_xmalloc(st.size ? (size_t)st.size : 1);
    zip_int64_t got = zip_source_read(z.src, bytes, st.size);
    zip_source_close(z.src);
    if (got < 0 || (zip_uint64_t)got != st.size) {
        fl_err(x->d, fl_noloc, "cannot read the FMU archive back");
        goto done;
    }
    /* and the file */
    fl_target t;
    int fd = fl_target_open(&t, out, FL_TARGET_FILE, x->d);
    if (fd < 0) goto done;
    fl_cleanup tc;
    fl_cleanup_push(&tc, target_cleanup, &t);
    int werr = write_all(fd, bytes, (size_t)st.size) ? errno : 0;
    if (!werr && fsync(fd) != 0 && errno != EINVAL && errno != EROFS) werr = errno;
    if (close(fd) != 0 && !werr) werr = errno;
    fl_cleanup_pop(&tc);
    if (werr) {
        fl_err(x->d, fl_noloc, "cannot write %s: %s", out, strerror(werr));
        fl_target_discard(&t);
        goto done;
    }
    rc = fl_target_commit(&t, x->d);
done:
    fl_cleanup_pop(&c);
    zipper_free(&z);
    free(so_name);
    free(so);
    free(bytes);
    return rc;
}

/* ---- the export ------------------------------------------------------------------------ */

static int out_dir_exists(exporter *x, const char *out)
{
    const char *slash = strrchr(out, '/');
    if (!slash || slash == out) return 0;
    char *dir = fl_xstrndup(out, (size_t)(slash - out));
    struct stat st;
    int rc = 0;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fl_err(x->d, fl_noloc, "cannot write %s: the directory %s does not exist", out, dir);
        rc = -1;
    }
    free(dir);
    return rc;
}

/* Messages about the wrapped model name its components without the
 * wrapper's prefix, as the user wrote them. */
static void unwrap_messages(fl_diag *d, int from)
{
    if (!d) return;
    const char *pre = WRAPPED ".";
    size_t n = strlen(pre);
    for (int i = from; i < d->n; i++) {
        char *t = d->items[i].text, *w = t;
        for (const char *r = t; *r;) {
            if (strncmp(r, pre, n) == 0 && (r == t || !(isalnum((unsigned char)r[-1]) || r[-1] == '_' || r[-1] == '.')))
                r += n;
            else
                *w++ = *r++;
        }
        *w = '\0';
    }
}

static void utc_now(char out[32])
{
    time_t t = generation_time();
    struct tm tm;
    if (gmtime_r(&t, &tm)) strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
    else out[0] = '\0';
}

static int export_model(exporter *x, const char *path, const fl_fmu_opts *o, const char *out)
{
    fl_diag *d = x->d;
    x->path = path;
    int fmi = o->fmi ? o->fmi : 2;
    if (fmi != 2 && fmi != 3) {
        fl_err(d, fl_noloc, "FMI version %d: flange exports FMI 2 and 3", fmi);
        return -1;
    }
    if (!out || !*out) {
        fl_err(d, fl_noloc, "no output file for the FMU");
        return -1;
    }
    if (out_dir_exists(x, out) || find_template(x, o->template_path)) return -1;
    x->text = fl_read_model_text(path, d);
    if (!x->text) return -1;
    x->ast = fl_parse(x->text, path, d);
    if (!x->ast) return -1;

    /* the model's class: found as the loader finds it; when this does not
     * find exactly one, the loader says why */
    fl_buf pb = {0};
    found f = {NULL, NULL, 0};
    for (size_t i = 0; i < x->ast->classes.n; i++)
        find_models(x->ast->classes.v[i], &pb, x->ast->within, o->model_name, &f);
    fl_buf_free(&pb);
    if (f.n != 1) {
        free(f.path);
        fl_load_opts lo;
        memset(&lo, 0, sizeof lo);
        lo.model_name = o->model_name;
        fl_model *m = fl_model_load_string(x->text, path, &lo, d);
        if (m) fl_err(d, fl_noloc, "%s: cannot find the model's class in the file", path);
        fl_model_free(m);
        return -1;
    }
    const fl_class_ast *top = f.c;
    x->class_path = f.path;
    x->class_name = fl_xstrdup(top->name);
    /* modelIdentifier: the class name, characters other than letters,
     * digits and '_' replaced by '_' (a quoted Modelica name) */
    snprintf(x->ident, sizeof x->ident, "%s", top->name);
    for (char *p = x->ident; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) *p = '_';
    x->description = fl_xstrdup(top->comment ? top->comment : "");

    /* inputs and outputs: the wrapper */
    io_decl *io = NULL;
    int nio = 0;
    int bad = scan_io(x, top, &io, &nio);
    if (!bad) bad = make_wrapper(x, top, io, nio);
    free(io);
    if (bad) return -1;
    x->cfg.fmi = fmi;
    x->cfg.flange_version = fl_xstrdup(fl_version());

    /* a first load as the user gave it (libraries as the environment says:
     * an FMU cannot use them) */
    {
        const char **ps = fl_xcalloc((size_t)o->nparams + 1, sizeof *ps);
        fl_cleanup pc;
        fl_cleanup_push(&pc, free, ps);
        for (int i = 0; i < o->nparams; i++)
            ps[i] = x->cfg.wrapped[0] ? fl_xsprintf(WRAPPED ".%s", o->params[i]) : fl_xstrdup(o->params[i]);
        fl_cleanup_pop(&pc);
        fl_load_opts lo;
        memset(&lo, 0, sizeof lo);
        lo.model_name = x->cfg.model;
        lo.params = ps;
        lo.nparams = o->nparams;
        fl_model *m = fl_model_load_string(x->final_text, path, &lo, d);
        for (int i = 0; i < o->nparams; i++) free((char *)ps[i]);
        free(ps);
        if (!m) return -1;
        x->model = m;
        if (m->nfiles) {
            fl_err(d, fl_noloc, "%s uses the library file %s: not supported yet in an FMU (it carries the model's "
                                "own file only)", x->class_path, m->files[0]);
            return -1;
        }
        if (collect_tables(x, m)) return -1;
        x->sys = fl_compile(m, d);
        if (!x->sys) return -1;
        x->sim = fl_sim_new(x->sys, d);
        if (!x->sim) return -1;
        if (export_overrides(x, o, x->sys, x->sim)) return -1;
        fl_sim_free(x->sim);
        fl_system_free(x->sys);
        fl_model_free(x->model);
        x->sim = NULL;
        x->sys = NULL;
        x->model = NULL;
    }

    /* the FMU's own load: the resources' text, the configuration's
     * overrides, no libraries */
    int nerr = fl_diag_errors(d);
    x->model = load_as_fmu(x, NULL, 0, d);
    x->sys = x->model ? fl_compile(x->model, d) : NULL;
    x->sim = x->sys ? fl_sim_new(x->sys, d) : NULL;
    if (!x->sim) {
        if (fl_diag_errors(d) == nerr) fl_err(d, fl_noloc, "%s: the model does not load as the FMU loads it", path);
        return -1;
    }
    if (fl_fmu_vars_build(x->sys, x->sim, &x->cfg, &x->vars, d)) return -1;
    int nskipped;
    classify_tunable(x, &nskipped);
    fl_fmu_vars_free(&x->vars);
    if (fl_fmu_vars_build(x->sys, x->sim, &x->cfg, &x->vars, d)) return -1;
    for (int i = 0; i < x->vars.n; i++)
        if (x->vars.v[i].kind != FL_FMU_STATE && x->vars.v[i].kind != FL_FMU_DERIV &&
            x->vars.v[i].kind != FL_FMU_INDICATOR &&
            (strncmp(x->vars.v[i].name, "_x.", 3) == 0 || strncmp(x->vars.v[i].name, "_z[", 3) == 0)) {
            fl_err(d, fl_noloc, "the model's variable %s would clash with the FMU's state and indicator names "
                                "(_x.*, _z[*]): rename it", x->vars.v[i].name);
            return -1;
        }
    char token[40];
    fl_fmu_token(x->final_text, &x->cfg, &x->vars, token);
    x->cfg.token = fl_xstrdup(token);

    char date[32];
    utc_now(date);
    fl_md_info info = {fmi, x->class_name, NULL, x->description, token, date[0] ? date : NULL,
                       fl_model_experiment(x->model)};
    info.identifier = x->ident;
    char *xml = fl_fmu_model_description(&info, &x->vars);
    fl_cleanup c1, c2, c3;
    fl_cleanup_push(&c1, free, xml);
    char *cfg_text = fl_fmu_cfg_format(&x->cfg);
    fl_cleanup_push(&c2, free, cfg_text);
    char *doc = documentation(x, nskipped);
    fl_cleanup_push(&c3, free, doc);
    int rc = write_fmu(x, out, xml, cfg_text, doc);
    fl_cleanup_pop(&c3);
    fl_cleanup_pop(&c2);
    fl_cleanup_pop(&c1);
    free(xml);
    free(cfg_text);
    free(doc);
    return rc;
}

FL_GUARDED(int, fl_fmu_export, (const char *path, const fl_fmu_opts *o, const char *out, fl_diag *d),
           (path, o, out, d), -1, d)
{
    if (!path) {
        fl_err(d, fl_noloc, "fl_fmu_export: no model file");
        return -1;
    }
    fl_fmu_opts none;
    memset(&none, 0, sizeof none);
    exporter x;
    memset(&x, 0, sizeof x);
    x.d = d;
    fl_cleanup c;
    fl_cleanup_push(&c, exporter_free, &x);
    int from = d ? d->n : 0;
    int rc = export_model(&x, path, o ? o : &none, out);
    if (x.cfg.wrapped && x.cfg.wrapped[0]) unwrap_messages(d, from);
    fl_cleanup_pop(&c);
    exporter_free(&x);
    return rc;
}
