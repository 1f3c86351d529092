/* model.c - model descriptions: instances, parameter values, attributes and
 * connections, and the public API that builds them. */
#include "model.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

void fl_model_free(fl_model *m)
{
    if (!m) return;
    for (size_t i = 0; i < m->insts.n; i++) {
        fl_minst *in = &m->insts.v[i];
        for (int k = 0; k < in->npars; k++) fl_value_free(&in->pars[k].v);
        free(in->pars);
        free(in->attrs);
        free(in->name);
    }
    FL_VEC_FREE(m->insts);
    FL_VEC_FREE(m->conns);
    fl_map_free(&m->index);
    free(m->path);
    free(m->name);
    free(m);
}

int fl_model_add_inst(fl_model *m, const fl_class *cls, const char *name, fl_loc loc, fl_diag *d)
{
    int prev = fl_map_get(&m->index, name);
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
    fl_map_put(&m->index, name, (int)m->insts.n - 1);
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
        if (!cls) {
            fl_err(d, api_loc, amb ? "component type '%s' is ambiguous: give the full path"
                                   : "unknown component type '%s' (see `flange components`)",
                   type);
            return -1;
        }
    }
    return fl_model_add_inst(m, cls, name, api_loc, d) < 0 ? -1 : 0;
}

/* Split "a.b.c" into an instance (longest matching prefix) and the rest. */
static int split_name(const fl_model *m, const char *name, int *inst, const char **rest)
{
    size_t len = strlen(name);
    for (size_t i = len; i > 0; i--) {
        if (name[i - 1] != '.' && i != len) continue;
        size_t n = (i == len) ? len : i - 1;
        int k = fl_map_getn(&m->index, name, n);
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
        fl_buf b = {0};
        for (int i = 0; i < c->nports; i++) fl_buf_printf(&b, "%s%s", i ? ", " : "", c->ports[i].name);
        fl_err(d, loc, "%s has no connector '%.*s' (%s has: %s)", m->insts.v[inst].name, (int)plen, rest,
               c->path, b.n ? b.s : "none");
        fl_buf_free(&b);
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

const fl_value *fl_minst_par(const fl_minst *in, int k, fl_loc *loc)
{
    for (int j = 0; j < in->npars; j++)
        if (in->pars[j].k == k) {
            if (loc) *loc = in->pars[j].loc;
            return &in->pars[j].v;
        }
    return NULL;
}

const fl_attr *fl_minst_attr(const fl_minst *in, int k)
{
    static const fl_attr none;
    for (int j = 0; j < in->nattrs; j++)
        if (in->attrs[j].var == k) return &in->attrs[j].a;
    return &none;
}

/* The attributes of variable k, added (all unset) when absent. */
static fl_attr *attr_slot(fl_minst *in, int k)
{
    for (int j = 0; j < in->nattrs; j++)
        if (in->attrs[j].var == k) return &in->attrs[j].a;
    if (!(in->nattrs & (in->nattrs - 1)))
        in->attrs = fl_xrealloc(in->attrs, sizeof *in->attrs * (size_t)(in->nattrs ? 2 * in->nattrs : 1));
    fl_mattr *ma = &in->attrs[in->nattrs++];
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
                fl_err(d, loc, "%s (%s) has no parameter '%s'", in->name, in->cls->path, field);
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
    for (int j = 0; j < in->npars && !mp; j++)
        if (in->pars[j].k == k) mp = &in->pars[j];
    if (mp) {
        fl_value_free(&mp->v);
    } else {
        if (!(in->npars & (in->npars - 1))) /* capacity: powers of two */
            in->pars = fl_xrealloc(in->pars, sizeof *in->pars * (size_t)(in->npars ? 2 * in->npars : 1));
        mp = &in->pars[in->npars++];
        mp->k = k;
    }
    mp->v = v;
    mp->loc = loc;
    return 0;
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
    if (k < 0) {
        if (fl_class_param(in->cls, var) >= 0)
            fl_err(d, loc, "%s.%s is a parameter: it has no attribute '%s'", in->name, var, attr);
        else
            fl_err(d, loc, "%s (%s) has no variable '%s'", in->name, in->cls->path, var);
    } else if (!(in->cls->vars[k].flags & FL_VF_ATTR)) {
        fl_err(d, loc, "%s.%s does not accept start/fixed attributes", in->name, var);
    } else {
        fl_attr *a = attr_slot(in, k);
        if (strcmp(attr, "start") == 0 || strcmp(attr, "nominal") == 0) {
            if (!fl_value_is_number(val) || val->kind == V_BOOL) {
                fl_err(d, loc, "%s.%s.%s must be a number", in->name, var, attr);
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
        } else if (strcmp(attr, "stateSelect") == 0 || strcmp(attr, "min") == 0 ||
                   strcmp(attr, "max") == 0 || strcmp(attr, "displayUnit") == 0 ||
                   strcmp(attr, "unit") == 0) {
            rc = 0; /* hints: accepted, no effect on the solution */
        } else {
            fl_err(d, loc, "unknown attribute '%s' of %s.%s", attr, in->name, var);
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

void fl_model_set_experiment(fl_model *m, fl_experiment e)
{
    m->exp = e;
    m->has_exp[0] = m->has_exp[1] = m->has_exp[2] = m->has_exp[3] = 1;
}

typedef struct reading {
    FILE *f;
    fl_buf *b;
} reading;

/* Out of memory while reading: the file is closed, the text freed. */
static void reading_cleanup(void *arg)
{
    reading *r = arg;
    fclose(r->f);
    fl_buf_free(r->b);
}

static char *read_file(const char *path, fl_diag *d)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fl_err(d, fl_noloc, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    fl_buf b = {0};
    reading r = {f, &b};
    fl_cleanup cl;
    fl_cleanup_push(&cl, reading_cleanup, &r);
    /* one read of the whole file when its size is known (a big model is
     * tens of megabytes: no copying while the buffer grows) */
    struct stat st;
    int known = fstat(fileno(f), &st) == 0;
    if (known && S_ISDIR(st.st_mode)) {
        fl_err(d, fl_noloc, "%s is a directory, not a model file", path);
        fl_cleanup_pop(&cl);
        fclose(f);
        return NULL;
    }
    if (known && S_ISREG(st.st_mode) && st.st_size > 0) {
        b.s = fl_xmalloc((size_t)st.st_size + 1);
        b.cap = (size_t)st.st_size + 1;
    }
    char tmp[65536];
    size_t n;
    if (b.cap > 1) {
        while (b.n + 1 < b.cap && (n = fread(b.s + b.n, 1, b.cap - 1 - b.n, f)) > 0) b.n += n;
        b.s[b.n] = '\0';
    }
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) fl_buf_addn(&b, tmp, n);
    int err = ferror(f);
    fl_cleanup_pop(&cl);
    fclose(f);
    if (err) {
        fl_err(d, fl_noloc, "cannot read %s", path);
        fl_buf_free(&b);
        return NULL;
    }
    if (b.n && memchr(b.s, '\0', b.n)) {
        fl_err(d, fl_noloc, "%s is not a text file (it contains NUL bytes)", path);
        fl_buf_free(&b);
        return NULL;
    }
    return fl_buf_take(&b);
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
    char *text = read_file(path, d);
    if (!text) return NULL;
    fl_model *m = fl_model_load_string(text, path, opts, d);
    free(text);
    return m;
}
