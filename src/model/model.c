/* model.c - model descriptions: instances, parameter values, attributes and
 * connections, and the public API that builds them. */
#include "model.h"
#include "bundled.h"
#include "eval.h"
#include "instantiate.h"
#include "symbolic/func.h"
#include "components/user.h"
#include "util/suggest.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const fl_loc api_loc = {NULL, 0, 0};

fl_model *fl_model_alloc(const char *name)
{
    fl_model *m = fl_xcalloc(1, sizeof *m);
    m->name = fl_xstrdup(name ? name : "model");
    m->exp.start_time = 0;
    m->exp.stop_time = 1;
    m->exp.interval = 0; /* 0 = (stop-start)/500 */
    m->exp.tolerance = 1e-6;
    return m;
}

FL_GUARDED(fl_model *, fl_model_new, (const char *name), (name), NULL, NULL)
{
    return fl_model_alloc(name);
}

const char *fl_model_name(const fl_model *m)
{
    return m ? m->name : NULL;
}

/* What fl_compile_and_free has read of m goes as soon as it has read it;
 * the model stays a valid one to free (fl_model_free) but no longer one to
 * compile. No heap trim here: the next stage of compiling reuses what was
 * freed. */
void fl_model_release(fl_model *m, fl_mrelease what)
{
    if (what == FL_MREL_INDEX) {
        fl_names_free(&m->index);
    } else if (what == FL_MREL_PARS) {
        for (size_t i = 0; i < m->insts.n; i++) {
            fl_minst *in = &m->insts.v[i];
            for (int k = 0; k < in->npars; k++) fl_mpar_free(&in->pars[k]);
            free(in->pars);
            in->pars = NULL;
            in->npars = 0;
        }
    } else if (what == FL_MREL_CONNS) {
        FL_VEC_FREE(m->conns);
    } else {
        fl_model_release(m, FL_MREL_INDEX);
        fl_model_release(m, FL_MREL_PARS);
        for (size_t i = 0; i < m->insts.n; i++) {
            fl_minst *in = &m->insts.v[i];
            free(in->name);
            free(in->attrs);
            for (int k = 0; k < in->nobs; k++) free(in->obs[k].var);
            free(in->obs);
        }
        FL_VEC_FREE(m->insts);
        FL_VEC_FREE(m->conns);
    }
}

void fl_model_free(fl_model *m)
{
    if (!m) return;
    fl_model_release(m, FL_MREL_PARTS); /* the instances, their settings, the connections, the index */
    for (size_t i = 0; i < m->uclasses.n; i++) fl_class_release(m->uclasses.v[i]);
    fl_ufuncs_free(m->funcs);
    FL_VEC_FREE(m->uclasses);
    free(m->path);
    for (size_t i = 0; i < m->nfiles; i++) free(m->files[i]);
    free(m->files);
    fl_mparams_free(m->mparams, m->nmparams);
    free(m->name);
    free(m);
}

fl_mparam *fl_mparams_copy(const fl_mparam *p, int n)
{
    if (n <= 0) return NULL;
    fl_mparam *c = fl_xmalloc(sizeof *c * (size_t)n);
    for (int i = 0; i < n; i++) {
        c[i] = p[i];
        c[i].name = fl_xstrdup(p[i].name);
        c[i].unit = fl_xstrdup(p[i].unit);
        c[i].desc = fl_xstrdup(p[i].desc);
    }
    return c;
}

void fl_mparams_free(fl_mparam *p, int n)
{
    for (int i = 0; i < n; i++) {
        free(p[i].name);
        free(p[i].unit);
        free(p[i].desc);
    }
    free(p);
}

int fl_model_add_inst(fl_model *m, const fl_class *cls, const char *name, fl_loc loc, fl_diag *d)
{
    size_t len = strlen(name);
    int prev = fl_names_get(&m->index, name, len);
    if (prev >= 0) {
        const fl_minst *p = &m->insts.v[prev];
        if (p->loc.file && p->loc.line)
            fl_err(d, loc, "duplicate component name '%s' (first declared at line %d)", name, p->loc.line);
        else
            fl_err(d, loc, "duplicate component name '%s'", name);
        return -1;
    }
    fl_minst in;
    memset(&in, 0, sizeof in);
    in.name = fl_xstrdup(name);
    in.cls = cls;
    in.loc = loc;
    FL_VEC_PUSH(m->insts, in);
    fl_names_put(&m->index, name, len, (int)m->insts.n - 1);
    if (strchr(name, '.')) m->ndotted++;
    return (int)m->insts.n - 1;
}

static int valid_identifier(const char *s)
{
    if (!*s) return 0;
    for (const char *p = s; *p; p++) {
        int ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
                 (p != s && ((*p >= '0' && *p <= '9') || *p == '.'));
        if (!ok) return 0;
    }
    return s[strlen(s) - 1] != '.';
}

FL_GUARDED(int, fl_model_add, (fl_model *m, const char *type, const char *name, fl_diag *d),
           (m, type, name, d), -1, d)
{
    if (!m || !type || !name) return -1;
    if (!valid_identifier(name)) {
        fl_err(d, api_loc, "'%s' is not a valid component name", name);
        return -1;
    }
    const fl_class *cls = fl_class_find(type);
    if (!cls) {
        int amb = 0;
        cls = fl_class_find_short(type, &amb);
        if (!cls && amb) {
            fl_err(d, api_loc, "component type '%s' is ambiguous: give the full path", type);
            return -1;
        }
        if (!cls) {
            const char *last = strrchr(type, '.');
            fl_suggest sg;
            fl_suggest_init(&sg, last ? last + 1 : type);
            fl_class_suggest(type, &sg);
            fl_buf b = {0};
            if (fl_bundled_class(type)) {
                /* the blocks flange carries as Modelica text need the equation layer of a model text */
                fl_buf_printf(&b,
                              "component type '%s' is written in Modelica: use it in a model text "
                              "(fl_model_load_string, fl_model_load_file); fl_model_add takes flange's C classes",
                              type);
            } else if (fl_class_msl_unsupported(type)) {
                fl_buf_printf(&b, "component type '%s' is not supported by flange (see `flange components`)", type);
            } else {
                fl_bundled_suggest(type, &sg);
                fl_buf_printf(&b, "unknown component type '%s'", type);
                if (!fl_suggest_append(&sg, &b)) fl_buf_add(&b, " (see `flange components`)");
            }
            fl_err(d, api_loc, "%s", b.s);
            fl_buf_free(&b);
            return -1;
        }
    }
    return fl_model_add_inst(m, cls, name, api_loc, d) < 0 ? -1 : 0;
}

/* Split "a.b.c" into an instance (longest matching prefix) and the rest.
 * Without dotted instance names that is the part before the first dot:
 * one look-up instead of one per dot (a big model's map misses the cache
 * at each). */
static int split_name(const fl_model *m, const char *name, int *inst, const char **rest)
{
    if (!m->ndotted) {
        const char *dot = strchr(name, '.');
        int k = dot ? fl_names_get(&m->index, name, (size_t)(dot - name)) : -1;
        if (k < 0) return 0;
        *inst = k;
        *rest = dot + 1;
        return 1;
    }
    size_t len = strlen(name);
    for (size_t i = len; i > 0; i--) {
        if (name[i - 1] != '.' && i != len) continue;
        size_t n = (i == len) ? len : i - 1;
        int k = fl_names_get(&m->index, name, n);
        if (k >= 0 && n < len) {
            *inst = k;
            *rest = name + n + 1;
            return 1;
        }
    }
    return 0;
}

char *fl_pref_str(const fl_model *m, fl_pref p)
{
    const fl_minst *in = &m->insts.v[p.inst];
    const fl_port_def *pd = &in->cls->ports[p.port];
    if (pd->width != 0) return fl_xsprintf("%s.%s[%d]", in->name, pd->name, p.sub + 1);
    return fl_xsprintf("%s.%s", in->name, pd->name);
}

int fl_model_port_ref(const fl_model *m, const char *text, fl_pref *out, fl_loc loc, fl_diag *d)
{
    int inst;
    const char *rest;
    if (!split_name(m, text, &inst, &rest)) {
        fl_err(d, loc, "unknown component in '%s'", text);
        return -1;
    }
    const fl_class *c = m->insts.v[inst].cls;
    const char *br = strchr(rest, '[');
    size_t plen = br ? (size_t)(br - rest) : strlen(rest);
    int port = -1;
    for (int i = 0; i < c->nports; i++)
        if (strlen(c->ports[i].name) == plen && strncmp(c->ports[i].name, rest, plen) == 0) port = i;
    if (port < 0) {
        char *wanted = fl_xstrndup(rest, plen);
        fl_suggest sg;
        fl_suggest_init(&sg, wanted);
        fl_buf b = {0};
        fl_buf_printf(&b, "%s has no connector '%s'", m->insts.v[inst].name, wanted);
        for (int i = 0; i < c->nports; i++) fl_suggest_add(&sg, c->ports[i].name, c->ports[i].name);
        fl_suggest_append(&sg, &b);
        fl_buf_printf(&b, " (%s has: ", c->path);
        for (int i = 0; i < c->nports; i++) fl_buf_printf(&b, "%s%s", i ? ", " : "", c->ports[i].name);
        fl_buf_add(&b, c->nports ? ")" : "none)");
        fl_err(d, loc, "%s", b.s);
        fl_buf_free(&b);
        free(wanted);
        return -1;
    }
    int sub = 0;
    const fl_port_def *pd = &c->ports[port];
    if (br) {
        char *end;
        long k = strtol(br + 1, &end, 10);
        if (*end != ']' || end[1] != '\0' || k < 1) {
            fl_err(d, loc, "bad subscript in '%s'", text);
            return -1;
        }
        if (pd->width == 0) {
            fl_err(d, loc, "connector '%s' of %s is not a vector", pd->name, m->insts.v[inst].name);
            return -1;
        }
        if (pd->width > 0 && k > pd->width) {
            fl_err(d, loc, "index %ld out of range 1..%d for '%s.%s'", k, pd->width, m->insts.v[inst].name, pd->name);
            return -1;
        }
        sub = (int)k - 1;
    } else if (pd->width != 0) {
        fl_err(d, loc, "vector connector '%s.%s' needs an index, e.g. %s.%s[1]", m->insts.v[inst].name,
               pd->name, m->insts.v[inst].name, pd->name);
        return -1;
    }
    out->inst = inst;
    out->port = port;
    out->sub = sub;
    return 0;
}

int fl_model_connect_refs(fl_model *m, fl_pref a, fl_pref b, fl_loc loc, fl_diag *d)
{
    fl_port_kind ka = m->insts.v[a.inst].cls->ports[a.port].kind;
    fl_port_kind kb = m->insts.v[b.inst].cls->ports[b.port].kind;
    if ((ka == FL_PORT_FLANGE) != (kb == FL_PORT_FLANGE)) {
        char *sa = fl_pref_str(m, a), *sb = fl_pref_str(m, b);
        fl_err(d, loc, "cannot connect %s %s to %s %s", ka == FL_PORT_FLANGE ? "flange" : "signal", sa,
               kb == FL_PORT_FLANGE ? "flange" : "signal", sb);
        free(sa);
        free(sb);
        return -1;
    }
    fl_domain da = fl_port_domain(&m->insts.v[a.inst].cls->ports[a.port]);
    fl_domain db = fl_port_domain(&m->insts.v[b.inst].cls->ports[b.port]);
    if (da != db) {
        char *sa = fl_pref_str(m, a), *sb = fl_pref_str(m, b);
        fl_err(d, loc, "cannot connect %s flange %s to %s flange %s (a gear or a wheel joins the domains)",
               fl_domain_info(da)->word, sa, fl_domain_info(db)->word, sb);
        free(sa);
        free(sb);
        return -1;
    }
    if (a.inst == b.inst && a.port == b.port && a.sub == b.sub) {
        char *sa = fl_pref_str(m, a);
        fl_err(d, loc, "connector %s is connected to itself", sa);
        free(sa);
        return -1;
    }
    fl_mconn c = {a, b, loc};
    FL_VEC_PUSH(m->conns, c);
    return 0;
}

FL_GUARDED(int, fl_model_connect, (fl_model *m, const char *a, const char *b, fl_diag *d), (m, a, b, d), -1, d)
{
    fl_pref pa, pb;
    if (!m || !a || !b) return -1;
    if (fl_model_port_ref(m, a, &pa, api_loc, d) || fl_model_port_ref(m, b, &pb, api_loc, d)) return -1;
    return fl_model_connect_refs(m, pa, pb, api_loc, d);
}

/* Convert v to the declared type of parameter k; reports mismatches. */
static int coerce_param(const fl_minst *in, int k, fl_value *v, fl_loc loc, fl_diag *d)
{
    const fl_param_def *pd = &in->cls->params[k];
    const char *want = NULL;
    switch (pd->type) {
    case FL_P_REAL:
        if (v->kind == V_INT) v->kind = V_REAL;
        if (v->kind != V_REAL) want = "a Real number";
        break;
    case FL_P_INT:
        if (v->kind == V_REAL && v->num == floor(v->num)) v->kind = V_INT;
        if (v->kind != V_INT) want = "an Integer";
        else if (v->num < FL_INT_MIN || v->num > FL_INT_MAX) {
            fl_err(d, loc, "%s.%s is outside the Integer range (-2147483648 to 2147483647)", in->name, pd->name);
            return -1;
        }
        break;
    case FL_P_BOOL:
        if (v->kind != V_BOOL) want = "true or false";
        break;
    case FL_P_ENUM:
        if (v->kind != V_ENUM || strcmp(v->enum_type, pd->enum_type) != 0) {
            fl_err(d, loc, "%s.%s must be a literal of %s", in->name, pd->name, pd->enum_type);
            return -1;
        }
        break;
    case FL_P_STRING:
        if (v->kind != V_STRING) want = "a string";
        break;
    case FL_P_VECTOR:
        if (fl_value_is_number(v) && v->kind != V_BOOL) { /* a scalar where a vector is wanted: {x} */
            double x = v->num;
            memset(v, 0, sizeof *v);
            v->kind = V_ARRAY;
            v->ndims = 1;
            v->dim[0] = 1;
            v->data = fl_xmalloc(sizeof(double));
            v->data[0] = x;
        }
        if (v->kind == V_ARRAY && v->ndims == 2 && (v->dim[0] == 1 || v->dim[1] == 1)) {
            v->dim[0] = v->dim[0] * v->dim[1];
            v->dim[1] = 0;
            v->ndims = 1;
        }
        if (v->kind != V_ARRAY || v->ndims != 1) want = "a vector {a, b, ...}";
        break;
    case FL_P_MATRIX:
        if (v->kind == V_ARRAY && v->ndims == 1) { /* {a, b} as a one-row matrix */
            v->ndims = 2;
            v->dim[1] = v->dim[0];
            v->dim[0] = 1;
        }
        if (v->kind != V_ARRAY || v->ndims != 2) want = "a matrix [a, b; c, d]";
        break;
    }
    if (want) {
        fl_err(d, loc, "%s.%s must be %s, not %s", in->name, pd->name, want, fl_vkind_name(v->kind));
        return -1;
    }
    return 0;
}

/* Parameters and attributes set on an instance are kept sorted by their
 * index: a component made from equations may set hundreds of thousands
 * (one start value per array element), looked up one by one. The first
 * element not below k: */
static int par_pos(const fl_minst *in, int k)
{
    return fl_lower_bound(in->pars, in->npars, sizeof *in->pars, offsetof(fl_mpar, k), k);
}

static int attr_pos(const fl_minst *in, int k)
{
    return fl_lower_bound(in->attrs, in->nattrs, sizeof *in->attrs, offsetof(fl_mattr, var), k);
}

static int inline_kind(fl_vkind kind)
{
    return kind == V_REAL || kind == V_INT || kind == V_BOOL;
}

const fl_value *fl_minst_par(const fl_minst *in, int k, fl_value *buf, fl_loc *loc)
{
    int j = par_pos(in, k);
    if (j >= in->npars || in->pars[j].k != k) return NULL;
    const fl_mpar *mp = &in->pars[j];
    if (loc) *loc = mp->loc;
    if (!inline_kind((fl_vkind)mp->kind)) return mp->u.v;
    memset(buf, 0, sizeof *buf);
    buf->kind = (fl_vkind)mp->kind;
    buf->num = mp->u.num;
    return buf;
}

void fl_mpar_put(fl_mpar *mp, fl_value v)
{
    mp->kind = (unsigned char)v.kind;
    if (inline_kind(v.kind)) {
        mp->u.num = v.num;
        return;
    }
    mp->u.v = fl_xmalloc(sizeof *mp->u.v);
    *mp->u.v = v;
}

void fl_mpar_free(fl_mpar *mp)
{
    if (!inline_kind((fl_vkind)mp->kind) && mp->u.v) {
        fl_value_free(mp->u.v);
        free(mp->u.v);
    }
    mp->u.v = NULL;
    mp->kind = V_NONE;
}

const fl_attr *fl_minst_attr(const fl_minst *in, int k)
{
    static const fl_attr none;
    int j = attr_pos(in, k);
    return j < in->nattrs && in->attrs[j].var == k ? &in->attrs[j].a : &none;
}

fl_attr *fl_minst_attr_slot(fl_minst *in, int k)
{
    int j = attr_pos(in, k);
    if (j < in->nattrs && in->attrs[j].var == k) return &in->attrs[j].a;
    if (!(in->nattrs & (in->nattrs - 1)))
        in->attrs = fl_xrealloc(in->attrs, sizeof *in->attrs * (size_t)(in->nattrs ? 2 * in->nattrs : 1));
    memmove(&in->attrs[j + 1], &in->attrs[j], sizeof *in->attrs * (size_t)(in->nattrs - j));
    in->nattrs++;
    fl_mattr *ma = &in->attrs[j];
    memset(ma, 0, sizeof *ma);
    ma->var = k;
    return &ma->a;
}

static int set_attr(fl_model *m, int inst, const char *field, const char *dot, const fl_value *val, fl_loc loc,
                    fl_diag *d);

int fl_model_set_value(fl_model *m, int inst, const char *field, const fl_value *val, fl_loc loc, fl_diag *d)
{
    fl_minst *in = &m->insts.v[inst];
    const char *dot = strchr(field, '.');
    if (!dot) {
        int k = fl_class_param(in->cls, field);
        if (k < 0) {
            if (fl_class_var(in->cls, field) >= 0)
                fl_err(d, loc, "%s.%s is a variable, not a parameter: set %s(start = ..., fixed = true)",
                       in->name, field, field);
            else
                fl_model_no_param(m, inst, field, 0, loc, d);
            return -1;
        }
        return fl_model_set_param(m, inst, k, val, loc, d);
    }
    return set_attr(m, inst, field, dot, val, loc, d);
}

int fl_model_set_param(fl_model *m, int inst, int k, const fl_value *val, fl_loc loc, fl_diag *d)
{
    fl_minst *in = &m->insts.v[inst];
    fl_value v = fl_value_copy(val);
    if (coerce_param(in, k, &v, loc, d)) {
        fl_value_free(&v);
        return -1;
    }
    fl_mpar *mp = NULL;
    int j = par_pos(in, k);
    if (j < in->npars && in->pars[j].k == k) {
        mp = &in->pars[j];
        fl_mpar_free(mp);
    } else {
        /* no growth slack: an instance sets few parameters, and a big model
         * has many instances (the settings live until the model is freed) */
        in->pars = fl_xrealloc(in->pars, sizeof *in->pars * (size_t)(in->npars + 1));
        memmove(&in->pars[j + 1], &in->pars[j], sizeof *in->pars * (size_t)(in->npars - j));
        in->npars++;
        mp = &in->pars[j];
        mp->k = k;
    }
    fl_mpar_put(mp, v);
    mp->loc = loc;
    return 0;
}

/* The attributes of a Real variable or parameter. start, fixed, nominal
 * and unit have meaning in flange; the others are accepted as hints. */
static const char *const attr_names[] = {"start", "fixed", "nominal", "stateSelect", "unit",
                                         "displayUnit", "min", "max", "quantity"};

static int known_attr(const char *attr)
{
    for (size_t i = 0; i < sizeof attr_names / sizeof attr_names[0]; i++)
        if (strcmp(attr_names[i], attr) == 0) return 1;
    return 0;
}

static void unknown_attr(const char *inst, const char *var, const char *attr, fl_loc loc, fl_diag *d)
{
    fl_suggest sg;
    fl_suggest_init(&sg, attr);
    for (size_t i = 0; i < sizeof attr_names / sizeof attr_names[0]; i++) fl_suggest_add(&sg, attr_names[i], attr_names[i]);
    fl_buf b = {0};
    fl_buf_printf(&b, "unknown attribute '%s' of %s.%s", attr, inst, var);
    if (!fl_suggest_append(&sg, &b)) {
        fl_buf_add(&b, " (the attributes are ");
        for (size_t i = 0; i < sizeof attr_names / sizeof attr_names[0]; i++)
            fl_buf_printf(&b, "%s%s", i ? ", " : "", attr_names[i]);
        fl_buf_addc(&b, ')');
    }
    fl_err(d, loc, "%s", b.s);
    fl_buf_free(&b);
}

/* flange computes in the units the library declares and converts nothing:
 * a unit attribute is accepted only when it repeats the declared one
 * (s_rel0(unit = "mm") = 5 would otherwise silently mean 5 m). */
static int check_unit(const char *owner, const char *declared, const fl_value *v, fl_loc loc, fl_diag *d)
{
    if (v->kind != V_STRING) {
        fl_err(d, loc, "%s.unit must be a string", owner);
        return -1;
    }
    const char *given = v->str ? v->str : "";
    const char *decl = declared && strcmp(declared, "1") != 0 ? declared : "";
    if (strcmp(given, decl) == 0 || (strcmp(given, "1") == 0 && !*decl)) return 0;
    if (*decl)
        fl_err(d, loc, "%s is declared in \"%s\": it cannot be given the unit \"%s\" (flange does not convert units; "
                       "give the value in %s)", owner, decl, given, decl);
    else
        fl_err(d, loc, "%s has no unit: it cannot be given the unit \"%s\"", owner, given);
    return -1;
}

int fl_model_param_attr(fl_model *m, int inst, int k, const char *attr, const fl_value *v, fl_loc loc, fl_diag *d)
{
    const fl_minst *in = &m->insts.v[inst];
    const fl_param_def *pd = &in->cls->params[k];
    if (strcmp(attr, "unit") == 0) {
        char *owner = fl_xcat(in->name, ".", pd->name, (char *)NULL);
        int rc = check_unit(owner, pd->unit, v, loc, d);
        free(owner);
        return rc;
    }
    if (!known_attr(attr)) {
        unknown_attr(in->name, pd->name, attr, loc, d);
        return -1;
    }
    if (strcmp(attr, "displayUnit") == 0 || strcmp(attr, "min") == 0 || strcmp(attr, "max") == 0 ||
        strcmp(attr, "quantity") == 0)
        return 0; /* no meaning for the value of a parameter */
    fl_err(d, loc, "%s.%s is a parameter: it has no attribute '%s' (give it a value: %s = ...)", in->name, pd->name,
           attr, pd->name);
    return -1;
}

void fl_model_no_param(const fl_model *m, int inst, const char *name, int as_variable, fl_loc loc, fl_diag *d)
{
    const fl_minst *in = &m->insts.v[inst];
    const fl_class *c = in->cls;
    fl_suggest sg;
    fl_suggest_init(&sg, name);
    fl_buf b = {0}, all = {0};
    fl_buf_printf(&b, "%s (%s) has no %s '%s'", in->name, c->path, as_variable ? "variable" : "parameter", name);
    /* names of MSL 3 that MSL 4 renamed (its conversion script): a text
     * written for the older library names the new one */
    static const char *const renamed[][2] = {{"freqHz", "f"}, {"mue_pos", "mu_pos"}};
    for (size_t i = 0; !as_variable && i < sizeof renamed / sizeof renamed[0]; i++) {
        if (strcmp(name, renamed[i][0]) != 0 || fl_class_param(c, renamed[i][1]) < 0) continue;
        fl_buf_printf(&b, ": MSL 4 renamed it '%s'", renamed[i][1]);
        fl_err(d, loc, "%s", b.s);
        fl_buf_free(&b);
        return;
    }
    if (as_variable) {
        for (int i = 0; i < c->nvars; i++) {
            if (!(c->vars[i].flags & FL_VF_ATTR)) continue;
            fl_suggest_add(&sg, c->vars[i].name, c->vars[i].name);
            fl_buf_printf(&all, "%s%s", all.n ? ", " : "", c->vars[i].name);
        }
    } else {
        for (int i = 0; i < c->nparams; i++) {
            fl_suggest_add(&sg, c->params[i].name, c->params[i].name);
            fl_buf_printf(&all, "%s%s", all.n ? ", " : "", c->params[i].name);
        }
    }
    if (!fl_suggest_append(&sg, &b)) {
        if (all.n) fl_buf_printf(&b, "; its %s are: %s", as_variable ? "variables with start values" : "parameters", all.s);
        else fl_buf_printf(&b, "; it has no %s", as_variable ? "variables with start values" : "parameters");
    }
    fl_err(d, loc, "%s", b.s);
    fl_buf_free(&b);
    fl_buf_free(&all);
}

/* field = "var.attr" (dot at the '.') */
static int set_attr(fl_model *m, int inst, const char *field, const char *dot, const fl_value *val, fl_loc loc,
                    fl_diag *d)
{
    fl_minst *in = &m->insts.v[inst];
    char *var = fl_xstrndup(field, (size_t)(dot - field));
    const char *attr = dot + 1;
    int k = fl_class_var(in->cls, var);
    int rc = -1;
    int kp = k < 0 ? fl_class_param(in->cls, var) : -1;
    if (kp >= 0) {
        rc = fl_model_param_attr(m, inst, kp, attr, val, loc, d);
    } else if (k < 0) {
        fl_model_no_param(m, inst, var, 1, loc, d);
    } else if (!(in->cls->vars[k].flags & FL_VF_ATTR)) {
        fl_err(d, loc, "%s.%s does not accept start/fixed attributes", in->name, var);
    } else {
        fl_attr *a = fl_minst_attr_slot(in, k);
        if (strcmp(attr, "start") == 0 || strcmp(attr, "nominal") == 0) {
            if (!fl_value_is_number(val) || val->kind == V_BOOL) {
                fl_err(d, loc, "%s.%s.%s must be a number", in->name, var, attr);
            } else if (!isfinite(val->num)) {
                fl_err(d, loc, "%s.%s.%s is not a finite number", in->name, var, attr);
            } else if (attr[0] == 's') {
                a->has_start = 1;
                a->start = val->num;
                a->loc = loc;
                rc = 0;
            } else if (val->num <= 0) {
                fl_err(d, loc, "%s.%s.nominal must be > 0", in->name, var);
            } else {
                a->has_nominal = 1;
                a->nominal = val->num;
                rc = 0;
            }
        } else if (strcmp(attr, "fixed") == 0) {
            if (val->kind != V_BOOL && !(fl_value_is_number(val) && (val->num == 0 || val->num == 1))) {
                fl_err(d, loc, "%s.%s.fixed must be true or false", in->name, var);
            } else {
                a->has_fixed = 1;
                a->fixed = val->num != 0;
                if (!a->loc.file) a->loc = loc;
                rc = 0;
            }
        } else if (strcmp(attr, "unit") == 0) {
            char *owner = fl_xcat(in->name, ".", var, (char *)NULL);
            rc = check_unit(owner, in->cls->vars[k].unit, val, loc, d);
            free(owner);
        } else if (known_attr(attr)) {
            rc = 0; /* hints: accepted, no effect on the solution */
        } else {
            unknown_attr(in->name, var, attr, loc, d);
        }
    }
    free(var);
    return rc;
}

/* "component.field" for the API setters; reports a name that is not one. */
static int api_target(fl_model *m, const char *name, int *inst, const char **rest, fl_diag *d)
{
    if (!m || !name) return -1;
    if (!split_name(m, name, inst, rest)) {
        fl_err(d, api_loc, "'%s' does not name a component parameter (component.parameter)", name);
        return -1;
    }
    return 0;
}

static int set_field(fl_model *m, const char *name, const fl_value *v, fl_diag *d)
{
    int inst;
    const char *rest;
    if (api_target(m, name, &inst, &rest, d)) return -1;
    return fl_model_set_value(m, inst, rest, v, api_loc, d);
}

FL_GUARDED(int, fl_model_set, (fl_model *m, const char *name, double value, fl_diag *d), (m, name, value, d), -1, d)
{
    int inst;
    const char *rest;
    if (api_target(m, name, &inst, &rest, d)) return -1;
    fl_value v = fl_value_real(value);
    /* numbers for Boolean and enumeration parameters, as a convenience */
    int k = strchr(rest, '.') ? -1 : fl_class_param(m->insts.v[inst].cls, rest);
    if (k >= 0) {
        const fl_param_def *pd = &m->insts.v[inst].cls->params[k];
        if (pd->type == FL_P_BOOL && (value == 0 || value == 1)) v = fl_value_bool(value != 0);
        if (pd->type == FL_P_INT && value == floor(value)) v.kind = V_INT;
        if (pd->type == FL_P_ENUM) {
            const fl_enum_type *t = fl_enum_find(pd->enum_type);
            if (t && value == floor(value) && value >= 1 && value <= t->n) {
                v.kind = V_ENUM;
                v.enum_type = t->path;
            }
        }
    }
    if (strstr(rest, ".fixed")) v = fl_value_bool(value != 0);
    return fl_model_set_value(m, inst, rest, &v, api_loc, d);
}

FL_GUARDED(int, fl_model_set_expr, (fl_model *m, const char *name, const char *text, fl_diag *d),
           (m, name, text, d), -1, d)
{
    if (!m || !name || !text) return -1;
    fl_expr *e = fl_parse_expr(text, "<value>", d);
    if (!e) return -1;
    fl_value v;
    int rc = fl_eval(e, NULL, &v, d);
    fl_expr_free(e);
    if (rc) return -1;
    rc = set_field(m, name, &v, d);
    fl_value_free(&v);
    return rc;
}

FL_GUARDED(int, fl_model_set_array, (fl_model *m, const char *name, int rows, int cols, const double *data, fl_diag *d),
           (m, name, rows, cols, data, d), -1, d)
{
    if (rows < 1 || cols < 1 || !data) {
        fl_err(d, api_loc, "fl_model_set_array(%s): need rows >= 1, cols >= 1 and data", name ? name : "");
        return -1;
    }
    fl_value v;
    memset(&v, 0, sizeof v);
    v.kind = V_ARRAY;
    v.ndims = rows == 1 ? 1 : 2;
    v.dim[0] = rows == 1 ? cols : rows;
    v.dim[1] = rows == 1 ? 0 : cols;
    v.data = fl_xmalloc(sizeof(double) * (size_t)rows * (size_t)cols);
    memcpy(v.data, data, sizeof(double) * (size_t)rows * (size_t)cols);
    int rc = set_field(m, name, &v, d);
    fl_value_free(&v);
    return rc;
}

fl_experiment fl_model_experiment(const fl_model *m)
{
    fl_experiment e = m->exp;
    if (e.interval <= 0) e.interval = (e.stop_time - e.start_time) / 500;
    return e;
}

void fl_model_set_strict_init(fl_model *m, int strict)
{
    if (m) m->strict_init = strict != 0;
}

void fl_model_set_experiment(fl_model *m, fl_experiment e)
{
    m->exp = e;
    m->has_exp[0] = m->has_exp[1] = m->has_exp[2] = m->has_exp[3] = 1;
}

/* Largest model file flange reads (README.md, "Limits"): the 1e5-wagon
 * benchmark file is 48 MB. */
#define FL_MAX_MODEL_FILE ((size_t)1 << 30)

static const char *file_kind(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

static void not_regular(const char *path, mode_t mode, fl_diag *d)
{
    if (S_ISDIR(mode)) fl_err(d, fl_noloc, "%s is a directory, not a model file", path);
    else fl_err(d, fl_noloc, "%s is %s, not a model file (a model file must be a regular file)", path, file_kind(mode));
}

/* A NUL byte would end the text early: an error at its place. */
static int check_nul(const char *path, const char *text, size_t n, fl_diag *d)
{
    const char *z = n ? memchr(text, '\0', n) : NULL;
    if (!z) return 0;
    int line = 1;
    const char *line_start = text;
    for (const char *q = text; q < z; q++)
        if (*q == '\n') {
            line++;
            line_start = q + 1;
        }
    fl_loc loc = {path, line, (int)(z - line_start) + 1};
    fl_err(d, loc, "NUL byte in the model text (is %s a text file?)", path);
    return -1;
}

/* The whole text of a model file. Only regular files are read (a symbolic
 * link to one is fine): the type is checked before the file is opened,
 * since opening a FIFO waits for a writer and opening a device may act on
 * it, and again on the open file, which is opened without waiting in case
 * it was replaced in between. */
typedef struct reading {
    int fd;
    char *text;
} reading;

/* Out of memory while reading: the file is closed, the text freed. */
static void reading_cleanup(void *arg)
{
    reading *r = arg;
    close(r->fd);
    free(r->text);
}

char *fl_read_model_text(const char *path, fl_diag *d)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fl_err(d, fl_noloc, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        not_regular(path, st.st_mode, d);
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        fl_err(d, fl_noloc, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        not_regular(path, st.st_mode, d);
        close(fd);
        return NULL;
    }
    /* one read of the whole file when its size is known (a big model is
     * tens of megabytes: no copying while the buffer grows) */
    size_t cap = st.st_size > 0 && (uintmax_t)st.st_size <= FL_MAX_MODEL_FILE ? (size_t)st.st_size + 1 : 65536;
    reading r = {fd, NULL};
    fl_cleanup cl;
    fl_cleanup_push(&cl, reading_cleanup, &r);
    char *text = NULL;
    size_t n = 0;
    int err = 0, too_big = (uintmax_t)st.st_size > FL_MAX_MODEL_FILE;
    if (!too_big) text = r.text = fl_xmalloc(cap);
    while (!too_big) {
        if (n + 1 == cap) { /* full: the end, or the file grew since fstat */
            char c;
            ssize_t k = read(fd, &c, 1);
            if (k < 0 && errno == EINTR) continue;
            if (k < 0) err = errno;
            if (k <= 0) break;
            if (n >= FL_MAX_MODEL_FILE) {
                too_big = 1;
                break;
            }
            cap = FL_MIN(2 * cap, FL_MAX_MODEL_FILE + 1);
            text = r.text = fl_xrealloc(text, cap);
            text[n++] = c;
            continue;
        }
        ssize_t k = read(fd, text + n, cap - 1 - n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) err = errno;
        if (k <= 0) break;
        n += (size_t)k;
    }
    fl_cleanup_pop(&cl);
    close(fd);
    if (too_big) {
        fl_err(d, fl_noloc, "%s is larger than 1 GiB, the largest model file flange reads", path);
        free(text);
        return NULL;
    }
    if (err) {
        fl_err(d, fl_noloc, "cannot read %s: %s", path, strerror(err));
        free(text);
        return NULL;
    }
    text[n] = '\0';
    if (check_nul(path, text, n, d)) {
        free(text);
        return NULL;
    }
    return text;
}

FL_GUARDED(fl_model *, fl_model_load_string, (const char *text, const char *source_name, const fl_load_opts *opts,
                                              fl_diag *d),
           (text, source_name, opts, d), NULL, d)
{
    if (!text) return NULL;
    fl_file_ast *ast = fl_parse(text, source_name ? source_name : "<string>", d);
    if (!ast) return NULL;
    return fl_instantiate(ast, opts, d);
}

FL_GUARDED(fl_model *, fl_model_load_file, (const char *path, const fl_load_opts *opts, fl_diag *d),
           (path, opts, d), NULL, d)
{
    if (!path) return NULL;
    char *text = fl_read_model_text(path, d);
    if (!text) return NULL;
    fl_file_ast *ast = fl_parse(text, path, d);
    free(text); /* the syntax tree keeps nothing of it: a big file goes before instantiating */
    if (!ast) return NULL;
    return fl_instantiate(ast, opts, d);
}

/* A class of the libraries: instantiated from a model file without
 * classes, so that everything it uses comes through the library lookup. */
fl_model *fl_model_load_class(const char *name, const fl_load_opts *opts, fl_diag *d)
{
    if (!name) return NULL;
    fl_load_opts o;
    if (opts) o = *opts;
    else memset(&o, 0, sizeof o);
    o.model_name = name;
    fl_file_ast *none = fl_xcalloc(1, sizeof *none);
    none->arena = fl_arena_new();
    return fl_instantiate(none, &o, d);
}
