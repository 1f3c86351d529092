/* vars.c - the table of FMU variables (fmu.h), built from a compiled system,
 * a sim of it and the FMU's configuration. The exporter writes
 * modelDescription.xml from it and the FMU builds the same table at
 * instantiation, so a value reference means the same variable on both
 * sides.
 *
 * With a generated wrapper (cfg->wrapped = "fmu_model"), the user's model is
 * the instance fmu_model: its names lose the prefix "fmu_model.", and the
 * wrapper's own instances (the constant sources and pass-through blocks that
 * carry the inputs and outputs) are not listed; the inputs and outputs come
 * from the configuration instead. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compile/system.h"
#include "fmi/fmu.h"
#include "util/diag.h"
#include "util/guard.h"
#include "util/util.h"

/* ---- names -------------------------------------------------------------- */

/* The name without the wrapper's prefix; NULL when the name belongs to the
 * wrapper itself (hidden). */
static const char *strip(const char *name, const char *wrapped)
{
    if (!wrapped || !*wrapped) return name;
    size_t n = strlen(wrapped);
    if (strncmp(name, wrapped, n) == 0 && name[n] == '.' && name[n + 1]) return name + n + 1;
    return NULL;
}

static int is_nondigit(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* One component of a structured name: an identifier with optional
 * subscripts "[1,2]", or a quoted name 'a b'. Returns its length in s when
 * it is valid, else 0. */
static size_t valid_component(const char *s, size_t n)
{
    size_t i = 0;
    if (n >= 2 && s[0] == '\'') {
        for (i = 1; i < n; i++) {
            if (s[i] == '\\' && i + 1 < n) i++;
            else if (s[i] == '\'') break;
        }
        if (i >= n || s[i] != '\'') return 0;
        i++;
    } else {
        if (!n || !is_nondigit(s[0])) return 0;
        while (i < n && (is_nondigit(s[i]) || is_digit(s[i]))) i++;
    }
    if (i < n && s[i] == '[') {
        i++;
        for (;;) {
            size_t j = i;
            while (i < n && is_digit(s[i])) i++;
            if (i == j) return 0;
            if (i < n && s[i] == ',') {
                i++;
                continue;
            }
            if (i < n && s[i] == ']') {
                i++;
                break;
            }
            return 0;
        }
    }
    return i == n ? n : 0;
}

/* A name FMI's structured naming convention accepts: components that are
 * not identifiers are quoted ('...'), with ' and \ escaped. */
static char *structured(const char *name)
{
    size_t len = strlen(name);
    if (len > 5 && strncmp(name, "der(", 4) == 0 && name[len - 1] == ')') {
        char *inner = fl_xstrndup(name + 4, len - 5);
        char *s = structured(inner);
        char *r = fl_xsprintf("der(%s)", s);
        free(inner);
        free(s);
        return r;
    }
    fl_buf b = {0};
    const char *p = name;
    for (;;) {
        /* a component ends at a '.' outside brackets and quotes */
        size_t n = 0;
        int depth = 0, quote = 0;
        for (; p[n]; n++) {
            if (quote) {
                if (p[n] == '\\' && p[n + 1]) n++;
                else if (p[n] == '\'') quote = 0;
            } else if (p[n] == '\'' && n == 0) {
                quote = 1;
            } else if (p[n] == '[') {
                depth++;
            } else if (p[n] == ']') {
                depth--;
            } else if (p[n] == '.' && depth <= 0) {
                break;
            }
        }
        if (valid_component(p, n)) {
            fl_buf_addn(&b, p, n);
        } else {
            fl_buf_addc(&b, '\'');
            for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char)p[i];
                if (c == '\'' || c == '\\') fl_buf_addc(&b, '\\');
                /* characters a quoted name cannot hold become '_' */
                fl_buf_addc(&b, c < 0x20 || c >= 0x7f || c == '"' || c == '`' ? '_' : (char)c);
            }
            if (n == 0) fl_buf_addc(&b, '_');
            fl_buf_addc(&b, '\'');
        }
        if (!p[n]) break;
        fl_buf_addc(&b, '.');
        p += n + 1;
    }
    return fl_buf_take(&b);
}

/* ---- the table ------------------------------------------------------------ */

typedef struct builder {
    fl_fmu_vars *t;
    int cap;
    fl_map names;
    fl_diag *d;
    int failed;
} builder;

static fl_fmu_var *add(builder *b, const char *name, const char *unit, const char *desc, fl_fmu_kind kind,
                       fl_fmu_type type, int index)
{
    fl_fmu_vars *t = b->t;
    char *sname = structured(name);
    if (fl_map_get(&b->names, sname) >= 0) {
        fl_err(b->d, fl_noloc, "two FMU variables would be called '%s': rename one in the model", sname);
        free(sname);
        b->failed = 1;
        return NULL;
    }
    if (t->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        t->v = fl_xrealloc(t->v, sizeof *t->v * (size_t)b->cap);
    }
    fl_fmu_var *v = &t->v[t->n];
    memset(v, 0, sizeof *v);
    v->name = sname;
    fl_map_put(&b->names, sname, t->n);
    t->n++;
    v->unit = fl_xstrdup(unit ? unit : "");
    v->desc = fl_xstrdup(desc ? desc : "");
    v->kind = kind;
    v->type = type;
    v->index = index;
    v->state = -1;
    return v;
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* The type of output variable i: Integer and Boolean variables of
 * equations are discrete. */
static fl_fmu_type var_type(const fl_system *sys, int i)
{
    fl_var vv = fl_system_var(sys, i);
    const fl_var *v = &vv;
    if (v->kind != OV_CLASS) return FL_FMU_REAL;
    const fl_class *c = sys->insts[v->inst].cls;
    if (!c->vars || v->def >= c->nvars) return FL_FMU_REAL;
    unsigned f = c->vars[v->def].flags;
    return f & FL_VF_BOOL ? FL_FMU_BOOLEAN : f & FL_VF_INT ? FL_FMU_INTEGER : FL_FMU_REAL;
}

static const char *var_desc(const fl_system *sys, int i)
{
    fl_var vv = fl_system_var(sys, i);
    const fl_var *v = &vv;
    if (v->kind != OV_CLASS) return "";
    const fl_class *c = sys->insts[v->inst].cls;
    if (!c->vars || v->def >= c->nvars || !c->vars[v->def].desc) return "";
    return c->vars[v->def].desc;
}

static int is_tunable(const fl_fmu_cfg *cfg, const char *name)
{
    for (int i = 0; i < cfg->ntunable; i++)
        if (strcmp(cfg->tunable[i], name) == 0) return 1;
    return 0;
}

/* The unit of a state's derivative. */
static char *deriv_unit(const char *u)
{
    if (!*u) return fl_xstrdup("1/s");
    static const char *const map[][2] = {{"m", "m/s"}, {"m/s", "m/s2"}, {"rad", "rad/s"}, {"rad/s", "rad/s2"},
                                         {"1", "1/s"}, {"N", "N/s"}, {"N.m", "N.m/s"}, {"m/s2", "m/s3"}};
    for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
        if (strcmp(u, map[k][0]) == 0) return fl_xstrdup(map[k][1]);
    return fl_xsprintf("%s.s-1", u);
}

static void vars_cleanup(void *t)
{
    fl_fmu_vars_free(t);
}

int fl_fmu_vars_build(const fl_system *sys, fl_sim *sim, const fl_fmu_cfg *cfg, fl_fmu_vars *out, fl_diag *d)
{
    memset(out, 0, sizeof *out);
    builder b = {out, 0, {0}, d, 0};
    const char *w = cfg->wrapped;
    fl_cleanup cl, ct; /* a failure (out of memory) frees what was built */
    fl_cleanup_push(&ct, vars_cleanup, out);
    fl_cleanup_push(&cl, fl_map_cleanup, &b.names);

    /* inputs: constant sources of the wrapper, their k a parameter */
    for (int i = 0; i < cfg->ninputs && !b.failed; i++) {
        const fl_fmu_io *io = &cfg->inputs[i];
        if (isnan(fl_sim_param(sim, io->carrier))) {
            fl_err(d, fl_noloc, "input %s: the model has no parameter %s", io->name, io->carrier);
            b.failed = 1;
            break;
        }
        fl_fmu_var *v = add(&b, io->name, io->unit, io->desc, FL_FMU_INPUT, FL_FMU_REAL, -1);
        if (!v) break;
        v->pname = fl_xstrdup(io->carrier);
        v->start = io->start;
    }
    /* outputs: variables of the wrapper's pass-through blocks */
    for (int i = 0; i < cfg->noutputs && !b.failed; i++) {
        const fl_fmu_io *io = &cfg->outputs[i];
        int k = fl_system_var_index(sys, io->carrier);
        if (k < 0) {
            fl_err(d, fl_noloc, "output %s: the model has no variable %s", io->name, io->carrier);
            b.failed = 1;
            break;
        }
        const char *unit = io->unit && *io->unit ? io->unit : fl_system_var_unit(sys, k);
        if (!add(&b, io->name, unit, io->desc, FL_FMU_OUTPUT, var_type(sys, k), k)) break;
    }
    /* parameters: every Real, Integer, Boolean and enumeration parameter of
     * a component that fl_sim_param reads back by its name; those of the
     * instance of the top-level equations (named "") are the model's own
     * that the equations read */
    for (int i = 0; i < sys->ninst && !b.failed; i++) {
        const fl_inst_rt *ir = &sys->insts[i];
        for (int k = 0; k < ir->cls->nparams && !b.failed; k++) {
            const fl_param_def *pd = &ir->cls->params[k];
            fl_fmu_type type;
            if (pd->type == FL_P_REAL) type = FL_FMU_REAL;
            else if (pd->type == FL_P_INT) type = FL_FMU_INTEGER;
            else if (pd->type == FL_P_BOOL) type = FL_FMU_BOOLEAN;
            else if (pd->type == FL_P_ENUM && pd->enum_type) type = FL_FMU_INTEGER; /* the literal's index */
            else continue; /* strings, arrays */
            const char *in = fl_ir_name(sys, ir);
            char *full = *in ? fl_xsprintf("%s.%s", in, pd->name) : fl_xstrdup(pd->name);
            const char *name = strip(full, w);
            double val = sys->par[ir->prow + k];
            int pi, pk = fl_system_param(sys, full, &pi); /* the name reaches this very parameter */
            if (name && pi == i && pk == k && isfinite(val) && same_bits(fl_sim_param(sim, full), val)) {
                /* the declaration's unit and description for the model's own */
                const char *unit = pd->unit, *desc = pd->desc;
                for (int j = 0; j < sys->nmparams; j++)
                    if (!strcmp(sys->mparams[j].name, full)) {
                        if (!unit || !*unit) unit = sys->mparams[j].unit;
                        if (!desc || !*desc) desc = sys->mparams[j].desc;
                    }
                fl_fmu_var *v = add(&b, name, unit, desc, FL_FMU_PARAM, type, ir->pofs + k);
                if (v) {
                    v->pname = full;
                    full = NULL;
                    v->start = val;
                    v->tunable = type == FL_FMU_REAL && is_tunable(cfg, v->pname);
                    v->enum_type = pd->type == FL_P_ENUM ? pd->enum_type : NULL;
                }
            }
            free(full);
        }
    }
    /* the parameters of the model itself (its top level; without the
     * wrapper's prefix), but those a component's already stand for (the
     * instance of a wrapped model's equations): fixed, their value the one
     * compiled */
    for (int i = 0; i < sys->nmparams && !b.failed; i++) {
        const fl_mparam *mp = &sys->mparams[i];
        const char *name = strip(mp->name, w);
        if (!name || strchr(name, '.')) continue;
        fl_fmu_type type = mp->type == FL_P_REAL ? FL_FMU_REAL : mp->type == FL_P_BOOL ? FL_FMU_BOOLEAN : FL_FMU_INTEGER;
        char *sname = structured(name);
        int taken = fl_map_get(&b.names, sname) >= 0;
        free(sname);
        if (taken || !isfinite(mp->value)) continue;
        fl_fmu_var *v = add(&b, name, mp->unit, mp->desc, FL_FMU_PARAM, type, -1);
        if (!v) break;
        v->pname = fl_xstrdup(mp->name);
        v->start = mp->value;
        v->enum_type = mp->type == FL_P_ENUM ? mp->enum_type : NULL;
    }
    /* the model's variables, but the energy audit and those an output
     * already stands for */
    for (int i = 0; i < sys->nvars && !b.failed; i++) {
        if (fl_system_var_on_request(sys, i)) continue;
        int is_output = 0;
        for (int j = 0; j < out->n && !is_output; j++)
            is_output = out->v[j].kind == FL_FMU_OUTPUT && out->v[j].index == i;
        if (is_output) continue;
        const char *full = fl_system_var_name(sys, i);
        if (!full) fl_fail_oom(0);
        const char *name = strip(full, w);
        if (!name) continue;
        /* the wrapped model's connector u, when its equations read it, is
         * the input u (equal to it); y is the output y */
        char *sname = structured(name);
        int k = fl_map_get(&b.names, sname);
        free(sname);
        if (k >= 0 && (out->v[k].kind == FL_FMU_INPUT || out->v[k].kind == FL_FMU_OUTPUT)) continue;
        add(&b, name, fl_system_var_unit(sys, i), var_desc(sys, i), FL_FMU_VAR, var_type(sys, i), i);
    }
    /* continuous states and their derivatives, in system order */
    int ns = 0;
    for (int i = 0; i < sys->n; i++)
        if (fl_unk_diff(sys, i)) ns++;
    out->first_state = out->n;
    out->nstates = ns;
    for (int i = 0, k = 0; i < sys->n && !b.failed; i++) {
        if (!fl_unk_diff(sys, i)) continue;
        const char *un = fl_unk_name(sys, i);
        if (!un) un = "";
        const char *s = strip(un, w);
        char *name = fl_xsprintf("_x.%s", s ? s : un);
        int vi = fl_system_var_index(sys, un);
        const char *unit = vi >= 0 ? fl_system_var_unit(sys, vi) : "";
        int is_q = 0;
        for (int j = 0; j < sys->nbodies; j++)
            if (sys->bodies[j].qi == i) is_q = 1;
        char *desc = is_q ? fl_xsprintf("continuous state: displacement of %s from its initial position", s ? s : un)
                          : fl_xsprintf("continuous state: %s", s ? s : un);
        add(&b, name, unit, desc, FL_FMU_STATE, FL_FMU_REAL, k++);
        free(name);
        free(desc);
    }
    out->first_deriv = out->n;
    for (int k = 0; k < ns && !b.failed; k++) {
        const fl_fmu_var *st = &out->v[out->first_state + k];
        char *name = fl_xsprintf("der(%s)", st->name);
        char *unit = deriv_unit(st->unit);
        char *desc = fl_xsprintf("derivative of %s", st->name);
        fl_fmu_var *v = add(&b, name, unit, desc, FL_FMU_DERIV, FL_FMU_REAL, k);
        if (v) v->state = out->first_state + k;
        free(name);
        free(unit);
        free(desc);
    }
    /* event indicators */
    out->first_indicator = out->n;
    out->nindicators = sys->nroot_fns;
    for (int k = 0; k < sys->nroot_fns && !b.failed; k++) {
        char name[32];
        snprintf(name, sizeof name, "_z[%d]", k + 1);
        add(&b, name, "", "event indicator", FL_FMU_INDICATOR, FL_FMU_REAL, k);
    }
    fl_cleanup_pop(&cl);
    fl_cleanup_pop(&ct);
    fl_map_free(&b.names);
    if (b.failed) {
        fl_fmu_vars_free(out);
        return -1;
    }
    return 0;
}

void fl_fmu_vars_free(fl_fmu_vars *t)
{
    if (!t) return;
    for (int i = 0; i < t->n; i++) {
        free(t->v[i].name);
        free(t->v[i].unit);
        free(t->v[i].desc);
        free(t->v[i].pname);
    }
    free(t->v);
    memset(t, 0, sizeof *t);
}

/* ---- the instantiation token ----------------------------------------------- */

/* 128-bit FNV-1a */
__extension__ typedef unsigned __int128 u128;

static void fnv(u128 *h, const void *data, size_t n)
{
    const u128 prime = ((u128)1 << 88) + ((u128)1 << 8) + 0x3b;
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        *h ^= p[i];
        *h *= prime;
    }
}

static void fnv_str(u128 *h, const char *s)
{
    fnv(h, s ? s : "", s ? strlen(s) + 1 : 1); /* the NUL separates the fields */
}

void fl_fmu_token(const char *model_text, const fl_fmu_cfg *cfg, const fl_fmu_vars *t, char out[40])
{
    u128 h = ((u128)0x6c62272e07bb0142ULL << 64) | 0x62b821756295c58dULL;
    fnv_str(&h, FLANGE_VERSION);
    fnv_str(&h, model_text);
    fl_fmu_cfg c = *cfg;
    c.token = NULL;
    char *text = fl_fmu_cfg_format(&c);
    fnv_str(&h, text);
    free(text);
    for (int i = 0; t && i < t->n; i++) fnv_str(&h, t->v[i].name);
    uint64_t hi = (uint64_t)(h >> 64), lo = (uint64_t)h;
    snprintf(out, 40, "{%08x-%04x-%04x-%04x-%012llx}", (unsigned)(hi >> 32), (unsigned)(hi >> 16) & 0xffff,
             (unsigned)hi & 0xffff, (unsigned)(lo >> 48), (unsigned long long)(lo & 0xffffffffffffULL));
}
