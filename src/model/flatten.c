/* flatten.c - variables and equations of user classes into the user part
 * of the model (see flatten.h).
 *
 * Equations are converted from the syntax tree into the expression graph
 * of the user part: names are resolved in the instance's scope (for-loop
 * iterators, variables, parameters, connectors, components and their
 * variables, global constants), arrays are expanded into their elements
 * (array equations become one equation per element), for-loops are
 * unrolled, if-equations with parameter conditions keep the branch that
 * holds, if-equations with variable conditions become equations of
 * if-expressions, and when-equations are kept as conditions with their
 * assignments. Parameters are slots with values, except where their value
 * decides the structure (array sizes, subscripts, ranges, conditions of
 * if-equations), where they are constants. */
#include "flatten.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/lexer.h"
#include "symbolic/analyze.h"
#include "symbolic/func.h"
#include "util/suggest.h"

fl_flat *fl_flat_new(void)
{
    fl_flat *f = fl_xcalloc(1, sizeof *f);
    fl_sg_init(&f->g);
    f->strs = fl_arena_new();
    return f;
}

void fl_flat_free(fl_flat *f)
{
    if (!f) return;
    fl_sg_free(&f->g);
    for (size_t i = 0; i < f->vars.n; i++) free(f->vars.v[i].name);
    FL_VEC_FREE(f->vars);
    fl_map_free(&f->vindex);
    FL_VEC_FREE(f->arrays);
    fl_map_free(&f->aindex);
    for (size_t i = 0; i < f->conns.n; i++) free(f->conns.v[i].path);
    FL_VEC_FREE(f->conns);
    fl_map_free(&f->cindex);
    for (size_t i = 0; i < f->uconns.n; i++) {
        free(f->uconns.v[i].path);
        free(f->uconns.v[i].vars);
    }
    FL_VEC_FREE(f->uconns);
    fl_map_free(&f->uindex);
    FL_VEC_FREE(f->ulinks);
    for (size_t i = 0; i < f->pars.n; i++) free(f->pars.v[i].name);
    FL_VEC_FREE(f->pars);
    fl_map_free(&f->pindex);
    FL_VEC_FREE(f->eqs);
    for (size_t i = 0; i < f->whens.n; i++) {
        free(f->whens.v[i].w.conds);
        free(f->whens.v[i].w.body);
    }
    FL_VEC_FREE(f->whens);
    FL_VEC_FREE(f->asserts);
    for (size_t i = 0; i < f->uinsts.n; i++) free(f->uinsts.v[i].prefix);
    FL_VEC_FREE(f->uinsts);
    fl_arena_free(f->strs);
    free(f);
}

int fl_flat_class_has_equations(const fl_class_ast *c)
{
    return c->eqs.n || c->ieqs.n || c->algs.n;
}

int fl_flat_instance(env *e, fl_loc loc)
{
    if (e->uinst >= 0) return e->uinst;
    fl_flat *f = e->ic->flat;
    uinst u;
    u.prefix = fl_xstrdup(e->prefix);
    u.parent = -1;
    u.composite = 0;
    u.nconn = 0;
    u.connector = 0;
    u.nflanges = 0;
    for (env *p = e->up; p; p = p->up)
        if (p->uinst >= 0) {
            u.parent = p->uinst;
            break;
        }
    /* messages about the instance point at its declaration in the user's text */
    u.loc = e->decl_loc.file ? e->decl_loc : loc;
    FL_VEC_PUSH(f->uinsts, u);
    e->uinst = (int)f->uinsts.n - 1;
    return e->uinst;
}

/* ---- types of variables ----------------------------------------------------- */

static const struct {
    const char *name, *unit;
} si_units[] = {
    {"Position", "m"}, {"Length", "m"}, {"Distance", "m"}, {"Velocity", "m/s"}, {"Acceleration", "m/s2"},
    {"Force", "N"}, {"Mass", "kg"}, {"Time", "s"}, {"Frequency", "Hz"}, {"Power", "W"}, {"Energy", "J"},
    {"Angle", "rad"}, {"AngularVelocity", "rad/s"}, {"AngularAcceleration", "rad/s2"}, {"Torque", "N.m"},
    {"Inertia", "kg.m2"}, {"TranslationalSpringConstant", "N/m"}, {"TranslationalDampingConstant", "N.s/m"},
    {"Pressure", "Pa"}, {"Temperature", "K"}, {"Impulse", "N.s"}, {"Work", "J"},
};

static const char *si_unit(const char *path)
{
    const char *last = strrchr(path, '.');
    last = last ? last + 1 : path;
    for (size_t i = 0; i < sizeof si_units / sizeof si_units[0]; i++)
        if (strcmp(si_units[i].name, last) == 0) return si_units[i].unit;
    return "";
}

static int starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static int is_var_type(const ictx *ic, const fl_class_ast *lex, const char *type, unsigned char *vtype,
                       const char **unit, int *nlits, int depth);

int fl_flat_is_var_type(const ictx *ic, const fl_class_ast *lex, const char *type, unsigned char *vtype,
                        const char **unit, int *nlits)
{
    return is_var_type(ic, lex, type, vtype, unit, nlits, 0);
}

/* depth: short type definitions followed so far (type A = B; type B = A; is a cycle) */
static int is_var_type(const ictx *ic, const fl_class_ast *lex, const char *type, unsigned char *vtype,
                       const char **unit, int *nlits, int depth)
{
    *unit = "";
    *nlits = 0;
    if (strcmp(type, "Real") == 0) {
        *vtype = FL_VT_REAL;
        return 1;
    }
    if (strcmp(type, "Integer") == 0) {
        *vtype = FL_VT_INTEGER;
        return 1;
    }
    if (strcmp(type, "Boolean") == 0) {
        *vtype = FL_VT_BOOLEAN;
        return 1;
    }
    resolved r;
    if (!resolve_name(ic, lex, type, &r)) return 0;
    if (r.user) {
        const fl_class_ast *u = r.user;
        if (u->is_enum) {
            *vtype = FL_VT_INTEGER;
            *nlits = u->nenum;
            return 1;
        }
        if (u->kind == CK_TYPE && u->short_base) {
            if (depth >= FL_MAX_CLASS_DEPTH) {
                fl_err(ic->d, u->loc, "type '%s' is defined in terms of itself", u->name);
                return -1;
            }
            return is_var_type(ic, u->parent, u->short_base, vtype, unit, nlits, depth + 1);
        }
        return 0;
    }
    int ok = 0;
    if (starts(r.path, "Modelica.Units.SI.") || starts(r.path, "Modelica.SIunits.") ||
        starts(r.path, "Modelica.Units.NonSI.")) {
        *vtype = FL_VT_REAL;
        *unit = si_unit(r.path);
        ok = 1;
    } else if (fl_enum_find(r.path)) {
        *vtype = FL_VT_INTEGER;
        *nlits = fl_enum_find(r.path)->n;
        ok = 1;
    }
    free(r.path);
    return ok;
}

/* ---- scalar values of expressions in scope ----------------------------------- */

/* Evaluate a structural expression (parameters, iterators, constants). */
static int eval_struct(env *e, const fl_class_ast *lex, const fl_expr *x, fl_value *out)
{
    return eval_in(e, lex, x, out);
}

/* An integer subscript built from numbers and for-loop iterators with + - *,
 * evaluated without messages: 1 with *out, 0 when it is anything else. */
static int quick_index(const env *e, const fl_expr *x, long *out)
{
    switch (x->kind) {
    case EX_NUM:
        if (x->num != floor(x->num) || fabs(x->num) > 1e9) return 0;
        *out = (long)x->num;
        return 1;
    case EX_REF:
        if (x->ref.n != 1 || x->ref.parts[0].nsubs) return 0;
        for (const iterb *it = e->iters; it; it = it->next)
            if (strcmp(it->name, x->ref.parts[0].name) == 0) {
                if (it->value != floor(it->value) || fabs(it->value) > 1e9) return 0;
                *out = (long)it->value;
                return 1;
            }
        return 0;
    case EX_UNARY: {
        long a;
        if (x->op != T_MINUS || !quick_index(e, x->a, &a)) return 0;
        *out = -a;
        return 1;
    }
    case EX_BINARY: {
        long a, b;
        if (!quick_index(e, x->a, &a) || !quick_index(e, x->b, &b)) return 0;
        if (x->op == T_PLUS) *out = a + b;
        else if (x->op == T_MINUS) *out = a - b;
        else if (x->op == T_STAR && labs(a) < 100000 && labs(b) < 100000) *out = a * b;
        else return 0;
        return 1;
    }
    default:
        return 0;
    }
}

static int eval_int(env *e, const fl_class_ast *lex, const fl_expr *x, long *out)
{
    fl_value v;
    if (eval_struct(e, lex, x, &v)) return -1;
    int ok = fl_value_is_number(&v) && v.num == floor(v.num) && fabs(v.num) < 1e9;
    if (ok) *out = (long)v.num;
    fl_value_free(&v);
    if (!ok) fl_err(e->ic->d, x->loc, "expected an integer here");
    return ok ? 0 : -1;
}

/* ---- declarations --------------------------------------------------------------- */

typedef struct binding {
    int first, n;            /* the variables it defines (an array: n elements) */
    const fl_expr *value;
    const fl_class_ast *lex;
    env *where;              /* scope of the value (an outer modifier: the outer scope) */
    fl_loc loc;
    int uinst;               /* the user instance the equation belongs to */
} binding;
typedef FL_VEC(binding) binding_vec;

static int add_var(fl_flat *f, const char *name, int owner, fl_fvk kind, fl_loc loc)
{
    fvar v;
    memset(&v, 0, sizeof v);
    v.name = fl_xstrdup(name);
    v.uinst = owner;
    v.kind = kind;
    v.conn = v.vnode = v.obs_inst = -1;
    v.fixed = -1;
    v.unit = "";
    v.loc = loc;
    FL_VEC_PUSH(f->vars, v);
    int k = (int)f->vars.n - 1;
    fl_map_put(&f->vindex, name, k);
    return k;
}

/* A value for element i of n (an array modifier without 'each'); a scalar
 * variable (is_array 0) takes the value as it is. */
static int take_element(env *e, const fl_expr *x, fl_value *v, int i, int n, int is_array, int each)
{
    if (!is_array || each || v->kind != V_ARRAY) return 0;
    if ((int)fl_value_count(v) != n) {
        fl_err(e->ic->d, x->loc, "this modifier has %d values for %d elements", (int)fl_value_count(v), n);
        return -1;
    }
    double val = v->data[i];
    fl_value_free(v);
    *v = fl_value_real(val);
    return 0;
}

static int apply_var_attr(env *e, int first, int n, int is_array, const pmod *p, const char *attr, const fl_mod *m)
{
    ictx *ic = e->ic;
    fl_flat *f = ic->flat;
    /* a known attribute without a value sets nothing; an unknown one is an error either way */
    if (!m->value && (strcmp(attr, "unit") == 0 || strcmp(attr, "displayUnit") == 0 || strcmp(attr, "quantity") == 0 ||
                      strcmp(attr, "start") == 0 || strcmp(attr, "fixed") == 0 || strcmp(attr, "nominal") == 0 ||
                      strcmp(attr, "stateSelect") == 0 || strcmp(attr, "min") == 0 || strcmp(attr, "max") == 0))
        return 0;
    if (strcmp(attr, "unit") == 0 || strcmp(attr, "displayUnit") == 0 || strcmp(attr, "quantity") == 0) {
        if (strcmp(attr, "unit") == 0 && m->value->kind == EX_STR)
            for (int i = 0; i < n; i++) f->vars.v[first + i].unit = fl_arena_strn(f->strs, m->value->str, strlen(m->value->str));
        return 0;
    }
    if (strcmp(attr, "start") && strcmp(attr, "fixed") && strcmp(attr, "nominal") && strcmp(attr, "stateSelect") &&
        strcmp(attr, "min") && strcmp(attr, "max")) {
        static const char *const known[] = {"start", "fixed", "nominal", "stateSelect", "min", "max", "unit", "displayUnit"};
        fl_suggest sg;
        fl_suggest_init(&sg, attr);
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) fl_suggest_add(&sg, known[k], known[k]);
        fl_buf b = {0};
        fl_buf_printf(&b, "'%s' is not an attribute of a variable", attr);
        fl_suggest_append(&sg, &b);
        fl_err(ic->d, m->loc, "%s", b.s);
        fl_buf_free(&b);
        return -1;
    }
    fl_value v;
    if (eval_in(p->where, p->lex, m->value, &v)) return -1;
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        fl_value vi = fl_value_copy(&v);
        rc = take_element(e, m->value, &vi, i, n, is_array, p->mod->is_each || m->is_each);
        if (!rc && !fl_value_is_number(&vi) && vi.kind != V_ENUM) {
            fl_err(ic->d, m->loc, "the %s attribute must be a number", attr);
            rc = -1;
        }
        fvar *fv = &f->vars.v[first + i];
        if (!rc) {
            if (strcmp(attr, "start") == 0) {
                fv->start = vi.num;
                fv->has_start = 1;
            } else if (strcmp(attr, "fixed") == 0) {
                fv->fixed = vi.num != 0;
            } else if (strcmp(attr, "nominal") == 0) {
                fv->nominal = vi.num;
            } else if (strcmp(attr, "stateSelect") == 0) {
                fv->state_select = (unsigned char)vi.num;
            } else { /* min, max: checked while the model runs, as a warning where it is first violated */
                int ismin = strcmp(attr, "min") == 0;
                fassert fa;
                memset(&fa, 0, sizeof fa);
                fa.uinst = fv->uinst;
                fa.var = first + i;
                fa.a.cond = fl_sx_rel(&f->g, ismin ? FL_REL_GE : FL_REL_LE, fl_sx_var(&f->g, first + i),
                                      fl_sx_const(&f->g, vi.num), 0);
                char *msg = fl_xsprintf("went %s its %s = %.15g", ismin ? "below" : "above", attr, vi.num);
                fa.a.msg = fl_arena_strn(f->strs, msg, strlen(msg));
                free(msg);
                fa.a.warning = 1;
                fa.a.range = 1;
                fa.a.loc = m->loc;
                FL_VEC_PUSH(f->asserts, fa);
            }
        }
        fl_value_free(&vi);
    }
    fl_value_free(&v);
    return rc;
}

int fl_unsized_length(const fl_decl *dc, const pmod_vec *mods)
{
    const fl_expr *v = dc->binding;
    for (size_t i = mods ? mods->n : 0; i-- > 0;)
        if (!*mods->v[i].name && mods->v[i].mod->value) {
            v = mods->v[i].mod->value;
            break;
        }
    return v && v->kind == EX_ARRAY ? v->nargs : -1;
}

int fl_flat_declare_var(env *e, const fl_decl *dc, const fl_class_ast *lex, const pmod_vec *mods, int vnode_signal)
{
    ictx *ic = e->ic;
    fl_flat *f = ic->flat;
    int ui = fl_flat_instance(e, dc->name_loc);
    unsigned char vtype = vnode_signal ? (unsigned char)(vnode_signal - 1) : FL_VT_REAL;
    const char *unit = "";
    int nlits = 0;
    int isvar = vnode_signal ? 1 : fl_flat_is_var_type(ic, lex, dc->type, &vtype, &unit, &nlits);
    if (isvar <= 0) {
        if (isvar == 0) fl_err(ic->d, dc->type_loc, "'%s' is not a type of variables", dc->type);
        return -1;
    }
    /* shape */
    int nd = dc->ndims + dc->ntype_dims, dim[2] = {1, 1};
    if (nd > 2) {
        fl_err(ic->d, dc->loc, "arrays of more than two dimensions are not supported ('%s')", dc->name);
        return -1;
    }
    for (int k = 0; k < nd; k++) {
        const fl_expr *x = k < dc->ntype_dims ? dc->type_dims[k] : dc->dims[k - dc->ntype_dims];
        long n = nd == 1 && x->kind == EX_COLON ? fl_unsized_length(dc, mods) : 0;
        if (x->kind == EX_COLON && n < 0) {
            fl_err(ic->d, x->loc, "the size of '%s' must be given (or follow from an array {...} it is bound to)",
                   dc->name);
            return -1;
        }
        if (x->kind != EX_COLON && eval_int(e, lex, x, &n)) return -1;
        if (n < 0 || n > FL_MAX_ARRAY) {
            fl_err(ic->d, x->loc, "array size %ld of '%s' is out of range", n, dc->name);
            return -1;
        }
        dim[k] = (int)n;
        if (k == 1 && (long long)dim[0] * dim[1] > FL_MAX_ARRAY) { /* the product too (and no int overflow) */
            fl_err(ic->d, x->loc, "array '%s' of %d x %d elements is larger than " FL_MAX_ARRAY_TEXT " elements",
                   dc->name, dim[0], dim[1]);
            return -1;
        }
    }
    int n = dim[0] * (nd == 2 ? dim[1] : 1);
    if (nd == 0) n = 1;
    char *base = fl_xcat(e->prefix, dc->name, (char *)NULL);
    int first = (int)f->vars.n;
    fl_fvk kind = (dc->prefix & FL_PFX_DISCRETE) || vtype != FL_VT_REAL ? FVK_DISC : FVK_REAL;
    for (int i = 0; i < n; i++) {
        char *nm;
        if (nd == 0) nm = fl_xstrdup(base);
        else if (nd == 1) nm = fl_xsprintf("%s[%d]", base, i + 1);
        else nm = fl_xsprintf("%s[%d,%d]", base, i / dim[1] + 1, i % dim[1] + 1);
        if (fl_map_get(&f->vindex, nm) >= 0) {
            fl_err(ic->d, dc->name_loc, "duplicate declaration of '%s'", dc->name);
            free(nm);
            free(base);
            return -1;
        }
        int k = add_var(f, nm, ui, kind, dc->name_loc); /* (messages move a bundled place to the instance) */
        f->vars.v[k].vtype = vtype;
        f->vars.v[k].unit = unit;
        f->vars.v[k].is_input = (dc->prefix & FL_PFX_INPUT) != 0;
        f->vars.v[k].is_output = (dc->prefix & FL_PFX_OUTPUT) != 0;
        f->vars.v[k].flow = (dc->prefix & FL_PFX_FLOW) != 0;
        free(nm);
    }
    if (nd) {
        farray a = {first, nd, {dim[0], nd == 2 ? dim[1] : 0}};
        FL_VEC_PUSH(f->arrays, a);
        fl_map_put(&f->aindex, base, (int)f->arrays.n - 1);
    }
    /* signal connectors keep their place in the connection graph */
    if (vnode_signal)
        for (int i = 0; i < n; i++) {
            char *nm = nd ? fl_xsprintf("%s[%d]", dc->name, i + 1) : fl_xstrdup(dc->name);
            char *path = fl_xcat(e->prefix, nm, (char *)NULL);
            int node = vnode_get(ic, path, 0, dc->name_loc);
            ic->nodes.v[node].vtype = vtype;
            f->vars.v[first + i].vnode = node;
            free(path);
            free(nm);
        }
    free(base);
    /* attributes and bindings: mods hold the declaration's own first and the
     * outer ones after them (element_mods); the outermost wins, so walk from
     * the end and keep the first setting of each attribute */
    int rc = 0;
    const fl_expr *bind = dc->binding;
    env *bind_where = e;
    const fl_class_ast *bind_lex = lex;
    fl_loc bind_loc = dc->binding ? dc->binding->loc : dc->name_loc;
    unsigned char *set = fl_xcalloc(16, 1);
    static const char *const order[] = {"start", "fixed", "nominal", "stateSelect", "min", "max", "unit"};
    for (size_t i = mods ? mods->n : 0; i-- > 0;) {
        const pmod *p = &mods->v[i];
        if (!*p->name) { /* the variable itself: x = value, x(start = 1, fixed = true) */
            if (p->mod->value && bind == dc->binding) {
                bind = p->mod->value;
                bind_where = p->where;
                bind_lex = p->lex;
                bind_loc = p->mod->loc;
            }
            for (int s = 0; s < p->mod->nsubs; s++) {
                const fl_mod *sm = &p->mod->subs[s];
                int slot = -1;
                for (int k = 0; k < 7; k++)
                    if (strcmp(order[k], sm->name) == 0) slot = k;
                if (slot >= 0 && set[slot]) continue; /* an outer modifier set it already */
                if (slot >= 0) set[slot] = 1;
                if (apply_var_attr(e, first, n, nd > 0, p, sm->name, sm)) rc = -1;
            }
            continue;
        }
        const char *dot = strchr(p->name, '.');
        const char *attr = dot ? dot + 1 : p->name;
        /* s(start = 1): the sub-modifiers; s.start = 1: the dotted form */
        if (!dot && p->mod->nsubs == 0) { /* also without a value: x(fixue) is checked as a name */
            int slot = -1;
            for (int k = 0; k < 7; k++)
                if (strcmp(order[k], attr) == 0) slot = k;
            if (slot >= 0 && set[slot]) continue; /* an outer modifier set it already */
            if (slot >= 0 && p->mod->value) set[slot] = 1;
            if (apply_var_attr(e, first, n, nd > 0, p, attr, p->mod)) rc = -1;
        } else if (dot) {
            int slot = -1;
            for (int k = 0; k < 7; k++)
                if (strcmp(order[k], attr) == 0) slot = k;
            if (slot >= 0 && set[slot]) continue;
            if (slot >= 0) set[slot] = 1;
            if (apply_var_attr(e, first, n, nd > 0, p, attr, p->mod)) rc = -1;
        }
    }
    free(set);
    if (bind) {
        /* a value from outside (start(reset = {stop.on})) may read components
         * declared after this one: it waits for the equations of the scope
         * it is written in, and stays this instance's equation */
        env *wait = bind_where && bind_where != e ? bind_where : e;
        binding_vec *pend = wait->pending;
        if (!pend) {
            pend = fl_xcalloc(1, sizeof *pend);
            wait->pending = pend;
        }
        binding b = {first, n, bind, bind_lex, bind_where, bind_loc, ui};
        FL_VEC_PUSH(*pend, b);
    }
    return rc;
}

void fl_flat_drop_pending(env *e)
{
    binding_vec *pend = e->pending;
    if (!pend) return;
    FL_VEC_FREE(*pend);
    free(pend);
    e->pending = NULL;
}

/* ---- expressions ------------------------------------------------------------------- */

/* A converted expression: a scalar (nd = 0, el[0]) or an array. */
typedef struct fx {
    int nd;
    int dim[2];
    fl_sx *el;
    fl_sx one;
    const char *str; /* a string (assert messages) */
} fx;

typedef struct fctx {
    env *e;
    const fl_class_ast *lex;
    fl_flat *f;
    fl_sgraph *g;
    fl_diag *d;
    fl_arena *ar;     /* element arrays of this equation */
    int failed;
    int owner;        /* the user instance of the equations added, -1: e's */
} fctx;

static int fx_count(const fx *x)
{
    return x->nd == 0 ? 1 : x->nd == 1 ? x->dim[0] : x->dim[0] * x->dim[1];
}

static fx fx_scalar(fl_sx s)
{
    fx x;
    memset(&x, 0, sizeof x);
    x.one = s;
    x.el = NULL;
    return x;
}

static fl_sx *fx_els(fx *x)
{
    return x->nd == 0 ? &x->one : x->el;
}

static fx fx_array(fctx *c, int nd, int d0, int d1)
{
    fx x;
    memset(&x, 0, sizeof x);
    x.nd = nd;
    x.dim[0] = d0;
    x.dim[1] = nd == 2 ? d1 : 0;
    int n = nd == 1 ? d0 : d0 * d1;
    x.el = fl_arena_alloc(c->ar, sizeof(fl_sx) * (size_t)(n ? n : 1));
    return x;
}

static int cerr(fctx *c, fl_loc loc, const char *fmt, const char *arg)
{
    if (!c->failed) fl_err(c->d, loc, fmt, arg);
    c->failed = 1;
    return -1;
}

static int conv(fctx *c, const fl_expr *x, fx *out);

/* The parameter slot of a scalar parameter value (created on first use). */
static fl_sx par_slot(fctx *c, const char *name, double value, fl_loc loc)
{
    fl_flat *f = c->f;
    int k = fl_map_get(&f->pindex, name);
    if (k < 0) {
        fpar p;
        p.name = fl_xstrdup(name);
        p.value = value;
        p.unit = "";
        p.loc = loc;
        FL_VEC_PUSH(f->pars, p);
        k = (int)f->pars.n - 1;
        fl_map_put(&f->pindex, name, k);
    }
    return fl_sx_par(c->g, k);
}

void fl_flat_export_params(env *e)
{
    fl_flat *f = e->ic->flat;
    for (size_t i = 0; i < e->params.n; i++) {
        const pslot *s = &e->params.v[i];
        if (s->state != 2 || s->type != PT_REAL || !fl_value_is_number(&s->val)) continue;
        char *name = fl_xcat(e->prefix, s->name, (char *)NULL);
        if (fl_map_get(&f->pindex, name) < 0) {
            fpar p;
            p.name = name;
            p.value = s->val.num;
            p.unit = "";
            p.loc = s->decl->name_loc;
            FL_VEC_PUSH(f->pars, p);
            fl_map_put(&f->pindex, name, (int)f->pars.n - 1);
        } else {
            free(name);
        }
    }
}

/* A value (parameter or constant) as an expression: numbers of
 * parameters become slots named after them, constants and structural
 * values constants. */
static int value_fx(fctx *c, const fl_value *v, const char *name, int as_slot, fl_loc loc, fx *out)
{
    if (v->kind == V_STRING) {
        *out = fx_scalar(FL_SX_NONE);
        out->str = fl_arena_strn(c->f->strs, v->str, strlen(v->str));
        return 0;
    }
    if (fl_value_is_number(v) || v->kind == V_ENUM) {
        *out = fx_scalar(as_slot && v->kind == V_REAL ? par_slot(c, name, v->num, loc) : fl_sx_const(c->g, v->num));
        return 0;
    }
    if (v->kind == V_ARRAY) {
        *out = fx_array(c, v->ndims, v->dim[0], v->dim[1]);
        int n = fx_count(out);
        for (int i = 0; i < n; i++) {
            if (as_slot) {
                char *nm = v->ndims == 1 ? fl_xsprintf("%s[%d]", name, i + 1)
                                          : fl_xsprintf("%s[%d,%d]", name, i / v->dim[1] + 1, i % v->dim[1] + 1);
                out->el[i] = par_slot(c, nm, v->data[i], loc);
                free(nm);
            } else {
                out->el[i] = fl_sx_const(c->g, v->data[i]);
            }
        }
        return 0;
    }
    return cerr(c, loc, "this value cannot be used in an equation%s", "");
}

/* Subscripts applied to an array fx (structural indices, ':' and ranges). */
static int subscript_fx(fctx *c, fx *a, fl_expr **subs, int nsubs, fl_loc loc)
{
    if (a->nd == 0) return cerr(c, loc, "subscript of a scalar%s", "");
    if (nsubs != a->nd) return cerr(c, loc, "wrong number of subscripts%s", "");
    int idx[2][64], cnt[2] = {0, 0}, keep[2] = {0, 0};
    int *big[2] = {NULL, NULL};
    for (int k = 0; k < nsubs; k++) {
        const fl_expr *s = subs[k];
        int extent = a->dim[k];
        if (s->kind == EX_COLON) {
            keep[k] = 1;
            big[k] = fl_arena_alloc(c->ar, sizeof(int) * (size_t)(extent ? extent : 1));
            for (int i = 0; i < extent; i++) big[k][i] = i;
            cnt[k] = extent;
            continue;
        }
        if (s->kind == EX_END) {
            idx[k][0] = extent - 1;
            cnt[k] = 1;
            big[k] = idx[k];
            continue;
        }
        fl_value v;
        if (eval_struct(c->e, c->lex, s, &v)) {
            c->failed = 1;
            return -1;
        }
        if (fl_value_is_number(&v)) {
            if (v.num != floor(v.num) || v.num < 1 || v.num > extent) {
                fl_err(c->d, s->loc, "array index %g out of range 1..%d", v.num, extent);
                fl_value_free(&v);
                c->failed = 1;
                return -1;
            }
            idx[k][0] = (int)v.num - 1;
            cnt[k] = 1;
            big[k] = idx[k];
        } else if (v.kind == V_ARRAY && v.ndims == 1) {
            keep[k] = 1;
            cnt[k] = v.dim[0];
            big[k] = fl_arena_alloc(c->ar, sizeof(int) * (size_t)(cnt[k] ? cnt[k] : 1));
            for (int i = 0; i < cnt[k]; i++) {
                double q = v.data[i];
                if (q != floor(q) || q < 1 || q > extent) {
                    fl_err(c->d, s->loc, "array index %g out of range 1..%d", q, extent);
                    fl_value_free(&v);
                    c->failed = 1;
                    return -1;
                }
                big[k][i] = (int)q - 1;
            }
        } else {
            fl_value_free(&v);
            return cerr(c, s->loc, "subscripts must be integers or ranges%s", "");
        }
        fl_value_free(&v);
    }
    int nd = keep[0] + (nsubs == 2 ? keep[1] : 0);
    int n0 = cnt[0], n1 = nsubs == 2 ? cnt[1] : 1;
    fx r = nd == 0 ? fx_scalar(FL_SX_NONE) : fx_array(c, nd, nd == 2 ? n0 : (keep[0] ? n0 : n1), n1);
    fl_sx *dst = fx_els(&r);
    int w = nsubs == 2 ? a->dim[1] : 1;
    int q = 0;
    for (int i = 0; i < n0; i++)
        for (int j = 0; j < n1; j++) dst[q++] = a->el[big[0][i] * w + (nsubs == 2 ? big[1][j] : 0)];
    *a = r;
    return 0;
}

/* Variables of a full name: a scalar or an array (*found 0 if neither). */
static int var_fx(fctx *c, const char *full, fx *out)
{
    fl_flat *f = c->f;
    int k = fl_map_get(&f->vindex, full);
    if (k >= 0) {
        *out = fx_scalar(fl_sx_var(c->g, k));
        return 1;
    }
    int a = fl_map_get(&f->aindex, full);
    if (a < 0) return 0;
    const farray *ar = &f->arrays.v[a];
    *out = fx_array(c, ar->nd, ar->dim[0], ar->dim[1]);
    int n = fx_count(out);
    for (int i = 0; i < n; i++) out->el[i] = fl_sx_var(c->g, ar->first + i);
    return 1;
}

/* The attachment variable (position or force) of a flange connector. */
static fl_sx conn_var(fctx *c, const char *path, int own, int node, int force, fl_loc loc)
{
    fl_flat *f = c->f;
    int k = fl_map_get(&f->cindex, path);
    if (k < 0) {
        fconn cn;
        memset(&cn, 0, sizeof cn);
        cn.path = fl_xstrdup(path);
        cn.uinst = own ? fl_flat_instance(c->e, loc) : -1;
        cn.own = own;
        cn.vnode = node;
        cn.pos = cn.force = -1;
        cn.loc = loc;
        FL_VEC_PUSH(f->conns, cn);
        k = (int)f->conns.n - 1;
        fl_map_put(&f->cindex, path, k);
    }
    fconn *cn = &f->conns.v[k];
    int *slot = force ? &cn->force : &cn->pos;
    if (*slot < 0) {
        const fl_domain_names *dn = fl_domain_info(c->e->ic->nodes.v[node].is_flange);
        char *nm = fl_xcat(path, ".", force ? dn->flow : dn->pos, (char *)NULL);
        int owner = cn->uinst >= 0 ? cn->uinst : fl_flat_instance(c->e, loc);
        *slot = add_var(f, nm, owner, force ? FVK_FORCE : FVK_POS, loc);
        f->vars.v[*slot].conn = k;
        f->vars.v[*slot].unit = force ? dn->flow_unit : dn->pos_unit;
        free(nm);
        cn = &f->conns.v[k];
    }
    return fl_sx_var(c->g, *slot);
}

/* A name in an equation. */
static int ref_fx(fctx *c, const fl_expr *x, fx *out)
{
    env *e = c->e;
    ictx *ic = e->ic;
    const fl_ref *r = &x->ref;
    const fl_ref_part *p0 = &r->parts[0];
    /* iterators */
    if (r->n == 1)
        for (const iterb *it = e->iters; it; it = it->next)
            if (strcmp(it->name, p0->name) == 0) {
                *out = fx_scalar(fl_sx_const(c->g, it->value));
                if (p0->nsubs) return cerr(c, x->loc, "subscript of an iterator%s", "");
                return 0;
            }
    if (r->n == 1 && !p0->nsubs && strcmp(p0->name, "time") == 0) {
        *out = fx_scalar(fl_sx_time(c->g));
        return 0;
    }
    /* a variable of this instance or of a component of it: the longest
     * prefix of the name (without subscripts) that names variables */
    fl_buf b = {0};
    fl_buf_add(&b, e->prefix);
    for (int i = 0; i < r->n; i++) {
        if (i) fl_buf_addc(&b, '.');
        fl_buf_add(&b, r->parts[i].name);
        if (r->parts[i].nsubs && i + 1 < r->n) {
            /* a subscripted component (m[2].s): evaluate into the name */
            fl_buf_addc(&b, '[');
            for (int k = 0; k < r->parts[i].nsubs; k++) {
                long q;
                if (eval_int(e, c->lex, r->parts[i].subs[k], &q)) {
                    fl_buf_free(&b);
                    c->failed = 1;
                    return -1;
                }
                fl_buf_printf(&b, "%s%ld", k ? "," : "", q);
            }
            fl_buf_addc(&b, ']');
        }
    }
    char *full = fl_buf_take(&b);
    /* x[i] with integer subscripts (a for-loop's iterator, i + 1): the
     * element itself, without building the whole array first (a loop over
     * N elements would cost N^2) */
    const fl_ref_part *pl = &r->parts[r->n - 1];
    if (pl->nsubs && pl->nsubs <= 2) {
        long q[2];
        int quick = 1;
        for (int k = 0; k < pl->nsubs && quick; k++) quick = quick_index(e, pl->subs[k], &q[k]);
        if (quick) {
            char *el = pl->nsubs == 1 ? fl_xsprintf("%s[%ld]", full, q[0]) : fl_xsprintf("%s[%ld,%ld]", full, q[0], q[1]);
            int k = fl_map_get(&c->f->vindex, el);
            free(el);
            if (k >= 0) {
                free(full);
                *out = fx_scalar(fl_sx_var(c->g, k));
                return 0;
            }
        }
    }
    int found = var_fx(c, full, out);
    if (found && r->parts[r->n - 1].nsubs) {
        if (subscript_fx(c, out, r->parts[r->n - 1].subs, r->parts[r->n - 1].nsubs, x->loc)) found = -1;
    }
    if (found) {
        free(full);
        return found > 0 ? 0 : -1;
    }
    if (r->n >= 2 && !r->parts[r->n - 1].nsubs) {
        /* a parameter of a component with equations (spring.c) */
        int ps = fl_map_get(&c->f->pindex, full);
        if (ps >= 0) {
            free(full);
            *out = fx_scalar(fl_sx_par(c->g, ps));
            return 0;
        }
    }
    /* elements of this scope: parameters, connectors, components */
    int rc = -2;
    int pk = r->n == 1 ? fl_map_get(&e->pindex, p0->name) : -1;
    if (pk >= 0) {
        fl_value v;
        fl_ref bare = *r;
        fl_ref_part bp = *p0;
        bp.nsubs = 0;
        bp.subs = NULL;
        bare.parts = &bp;
        fl_expr tmp = *x;
        tmp.ref = bare;
        if (eval_struct(e, c->lex, &tmp, &v)) {
            rc = -1;
        } else {
            const pslot *s = &e->params.v[pk];
            int as_slot = !(s->decl->prefix & FL_PFX_CONSTANT) && s->type == PT_REAL;
            char *pname = fl_xcat(e->prefix, p0->name, (char *)NULL);
            rc = value_fx(c, &v, pname, as_slot, x->loc, out);
            free(pname);
            fl_value_free(&v);
            if (!rc && p0->nsubs) rc = subscript_fx(c, out, p0->subs, p0->nsubs, x->loc);
        }
    } else {
        int el = p0->nsubs ? -1 : fl_map_get(&e->elems, p0->name);
        int kind = el < 0 ? -1 : el & 7;
        if (kind == EL_ARRAY && r->n >= 2) {
            /* a variable of every element of a component array (osc.x): a vector */
            int n = 0;
            for (;;) {
                char *en = fl_xsprintf("%s[%d]", p0->name, n + 1);
                int ek = fl_map_get(&e->elems, en);
                free(en);
                if (ek < 0) break;
                n++;
            }
            const char *rest = strchr(full + strlen(e->prefix), '.');
            if (n > 0 && rest) {
                fx arr = fx_array(c, 1, n, 0);
                for (int i = 0; i < n && rc != -1; i++) {
                    char *nm = fl_xsprintf("%s%s[%d]%s", e->prefix, p0->name, i + 1, rest);
                    fx one;
                    int got = var_fx(c, nm, &one);
                    if (got <= 0 || one.nd) {
                        if (got == 0) cerr(c, x->loc, "'%s' is not a scalar variable of the component array", nm);
                        rc = -1;
                    } else {
                        arr.el[i] = one.one;
                    }
                    free(nm);
                }
                if (rc != -1) {
                    *out = arr;
                    rc = 0;
                }
            }
        }
        if (kind == EL_CONNECTOR && r->n == 2 && !r->parts[1].nsubs) {
            char *path = fl_xcat(e->prefix, p0->name, (char *)NULL);
            int vn = fl_map_get(&ic->node_index, path);
            const fl_domain_names *dn = vn >= 0 ? fl_domain_info(ic->nodes.v[vn].is_flange) : NULL;
            if (vn >= 0 && ic->nodes.v[vn].is_flange &&
                (strcmp(r->parts[1].name, dn->pos) == 0 || strcmp(r->parts[1].name, dn->flow) == 0)) {
                *out = fx_scalar(conn_var(c, path, 1, vn, strcmp(r->parts[1].name, dn->flow) == 0, x->loc));
                rc = 0;
            }
            free(path);
        } else if (kind == EL_LIB && r->n >= 2) {
            /* a variable of a library component: observed */
            int inst = (el >> 3) - 1;
            const fl_class *cls = ic->m->insts.v[inst].cls;
            char *sub = fl_ref_str(r);
            const char *vname = strchr(sub, '.') + 1;
            int vk = fl_class_var(cls, vname);
            int port = -1, sport = r->n == 2 && vk < 0 ? fl_class_port(cls, r->parts[1].name) : -1;
            if (vk < 0 && r->n == 3) {
                port = fl_class_port(cls, r->parts[1].name);
                const fl_domain_names *dn = port >= 0 ? fl_domain_info(fl_port_domain(&cls->ports[port])) : NULL;
                if (port >= 0 && (cls->ports[port].kind != FL_PORT_FLANGE ||
                                  (strcmp(r->parts[2].name, dn->pos) != 0 && strcmp(r->parts[2].name, dn->flow) != 0)))
                    port = -1;
            }
            if (sport >= 0 && cls->ports[sport].kind != FL_PORT_FLANGE && cls->ports[sport].width == 0) {
                /* a signal of a library component (sine.y, force.f): a variable in its signal set */
                char *hidden = fl_xsprintf("(%s%s)", e->prefix, sub);
                int k = fl_map_get(&c->f->vindex, hidden);
                if (k < 0) {
                    k = add_var(c->f, hidden, fl_flat_instance(e, x->loc), FVK_REAL, x->loc);
                    fl_pref pr = {inst, sport, 0};
                    c->f->vars.v[k].vnode = fl_lib_port_node(ic, pr, x->loc);
                }
                free(hidden);
                *out = fx_scalar(fl_sx_var(c->g, k));
                rc = 0;
            } else if (vk < 0 && (r->n != 2 || fl_class_param(cls, vname) < 0) && port < 0) {
                fl_err(c->d, x->loc, "%s (%s) has no variable '%s' flange equations can read", ic->m->insts.v[inst].name,
                       cls->path, vname);
                c->failed = 1;
                rc = -1;
            } else if (vk < 0 && port < 0) {
                /* a parameter of a library component */
                fl_value pbuf;
                const fl_value *pv = fl_minst_par(&ic->m->insts.v[inst], fl_class_param(cls, vname), &pbuf, NULL);
                if (pv && fl_value_is_number(pv)) {
                    *out = fx_scalar(fl_sx_const(c->g, pv->num));
                    rc = 0;
                } else {
                    fl_err(c->d, x->loc, "the value of parameter '%s' of %s is not known when equations are read; set it "
                                         "in the model",
                           vname, ic->m->insts.v[inst].name);
                    c->failed = 1;
                    rc = -1;
                }
            } else {
                char *full2 = fl_xcat(e->prefix, sub, (char *)NULL);
                int k = fl_map_get(&c->f->vindex, full2);
                if (k < 0) {
                    k = add_var(c->f, full2, fl_flat_instance(e, x->loc), FVK_INPUT, x->loc);
                    c->f->vars.v[k].obs_inst = inst;
                    c->f->vars.v[k].obs_var = fl_arena_strn(c->f->strs, vname, strlen(vname));
                }
                free(full2);
                *out = fx_scalar(fl_sx_var(c->g, k));
                rc = 0;
            }
            free(sub);
        } else if ((kind == EL_COMPOSITE || kind == EL_CONNECTOR) && r->n >= 2) {
            /* a flange connector of a component without equations: its position */
            char *sub = fl_ref_str(r);
            char *dotf = strrchr(sub, '.');
            *dotf = '\0';
            char *path = fl_xcat(e->prefix, sub, (char *)NULL);
            int vn = fl_map_get(&ic->node_index, path);
            const fl_domain_names *dn = vn >= 0 ? fl_domain_info(ic->nodes.v[vn].is_flange) : NULL;
            if (vn >= 0 && ic->nodes.v[vn].is_flange && strcmp(dotf + 1, dn->pos) == 0) {
                *out = fx_scalar(conn_var(c, path, 0, vn, 0, x->loc));
                rc = 0;
            } else if (vn >= 0 && ic->nodes.v[vn].is_flange && strcmp(dotf + 1, dn->flow) == 0) {
                fl_err(c->d, x->loc, "the %s of connector %s of another component cannot be read in equations",
                       ic->nodes.v[vn].is_flange == FL_DOM_ROT ? "torque" : "force", sub);
                c->failed = 1;
                rc = -1;
            }
            free(path);
            free(sub);
        }
    }
    if (rc == -2) {
        int el0 = fl_map_get(&e->elems, p0->name);
        if (el0 >= 0 && (el0 & 7) == EL_FAILED) {
            /* a declaration in error, reported there */
            free(full);
            c->failed = 1;
            return -1;
        }
    }
    if (rc == -2) {
        /* global constants and enumeration literals */
        fl_value v;
        fl_diag *scratch = fl_diag_new();
        int ev = eval_in(e, c->lex, x, &v);
        fl_diag_free(scratch);
        if (!ev && (fl_value_is_number(&v) || v.kind == V_ENUM || v.kind == V_ARRAY)) {
            rc = value_fx(c, &v, full, 0, x->loc, out);
            fl_value_free(&v);
        } else {
            if (!ev) fl_value_free(&v);
            /* eval_in reported "unknown name": keep that message */
            c->failed = 1;
            rc = -1;
        }
    }
    free(full);
    return rc;
}

/* Apply a scalar operation element by element with broadcasting. */
typedef fl_sx (*binfn)(fl_sgraph *, fl_sx, fl_sx);

static int elementwise(fctx *c, const fx *a, const fx *b, binfn op, fl_loc loc, fx *out)
{
    if (a->nd == 0 && b->nd == 0) {
        *out = fx_scalar(op(c->g, a->one, b->one));
        return 0;
    }
    const fx *shape = a->nd ? a : b;
    if (a->nd && b->nd && (a->nd != b->nd || a->dim[0] != b->dim[0] || a->dim[1] != b->dim[1]))
        return cerr(c, loc, "the operands have different sizes%s", "");
    *out = fx_array(c, shape->nd, shape->dim[0], shape->dim[1]);
    int n = fx_count(out);
    for (int i = 0; i < n; i++) {
        fl_sx x = a->nd ? a->el[i] : a->one, y = b->nd ? b->el[i] : b->one;
        out->el[i] = op(c->g, x, y);
    }
    return 0;
}

/* a * b with Modelica's array rules: scalars scale, vector*vector is the
 * scalar product, matrix*vector, vector*matrix and matrix*matrix multiply. */
static int multiply(fctx *c, const fx *a, const fx *b, fl_loc loc, fx *out)
{
    if (a->nd == 0 || b->nd == 0) return elementwise(c, a, b, fl_sx_mul, loc, out);
    int ar = a->nd == 2 ? a->dim[0] : 1, ac = a->nd == 2 ? a->dim[1] : a->dim[0];
    int br = b->dim[0], bc = b->nd == 2 ? b->dim[1] : 1;
    if (ac != br) return cerr(c, loc, "the sizes of the factors do not match for a product%s", "");
    if (a->nd == 1 && b->nd == 1) {
        fl_sx s = fl_sx_const(c->g, 0);
        for (int i = 0; i < ac; i++) s = fl_sx_add(c->g, s, fl_sx_mul(c->g, a->el[i], b->el[i]));
        *out = fx_scalar(s);
        return 0;
    }
    int rnd = (a->nd == 2 && b->nd == 2) ? 2 : 1;
    *out = fx_array(c, rnd, rnd == 2 ? ar : (a->nd == 2 ? ar : bc), bc);
    for (int i = 0; i < ar; i++)
        for (int j = 0; j < bc; j++) {
            fl_sx s = fl_sx_const(c->g, 0);
            for (int k = 0; k < ac; k++)
                s = fl_sx_add(c->g, s, fl_sx_mul(c->g, a->el[i * ac + k], b->el[k * bc + j]));
            if (rnd == 2) out->el[i * bc + j] = s;
            else out->el[a->nd == 2 ? i : j] = s;
        }
    return 0;
}

static fl_sx sx_pow(fl_sgraph *g, fl_sx a, fl_sx b) { return fl_sx_pow(g, a, b); }

static fl_sx rel_of(fl_sgraph *g, int op, fl_sx a, fl_sx b)
{
    switch (op) {
    case T_LT: return fl_sx_rel(g, FL_REL_LT, a, b, 0);
    case T_LE: return fl_sx_rel(g, FL_REL_LE, a, b, 0);
    case T_GT: return fl_sx_rel(g, FL_REL_GT, a, b, 0);
    case T_GE: return fl_sx_rel(g, FL_REL_GE, a, b, 0);
    case T_EQEQ: return fl_sx_rel(g, FL_REL_EQ, a, b, 1);
    default: return fl_sx_rel(g, FL_REL_NE, a, b, 1);
    }
}

static int binary_fx(fctx *c, int op, const fx *a, const fx *b, fl_loc loc, fx *out)
{
    switch (op) {
    case T_PLUS: return elementwise(c, a, b, fl_sx_add, loc, out);
    case T_MINUS: return elementwise(c, a, b, fl_sx_sub, loc, out);
    case T_STAR: return multiply(c, a, b, loc, out);
    case T_DSTAR: return elementwise(c, a, b, fl_sx_mul, loc, out);
    case T_SLASH:
        if (b->nd) return cerr(c, loc, "division by an array%s", "");
        return elementwise(c, a, b, fl_sx_div, loc, out);
    case T_DSLASH: return elementwise(c, a, b, fl_sx_div, loc, out);
    case T_CARET:
    case T_DCARET:
        if (op == T_CARET && (a->nd || b->nd)) return cerr(c, loc, "'^' of arrays (use '.^')%s", "");
        return elementwise(c, a, b, sx_pow, loc, out);
    case K_AND: return elementwise(c, a, b, fl_sx_and, loc, out);
    case K_OR: return elementwise(c, a, b, fl_sx_or, loc, out);
    case T_LT: case T_LE: case T_GT: case T_GE: case T_EQEQ: case T_NEQ:
        if (a->nd || b->nd) return cerr(c, loc, "relations of arrays are not supported%s", "");
        *out = fx_scalar(rel_of(c->g, op, a->one, b->one));
        return 0;
    default: return cerr(c, loc, "unsupported operator%s", "");
    }
}

/* Apply a one-argument function element by element. */
static int map1(fctx *c, fx *a, fl_sx (*fn)(fctx *, fl_sx, void *), void *arg)
{
    fl_sx *el = fx_els(a);
    int n = fx_count(a);
    fx r = a->nd ? fx_array(c, a->nd, a->dim[0], a->dim[1]) : fx_scalar(FL_SX_NONE);
    fl_sx *dst = fx_els(&r);
    for (int i = 0; i < n; i++) dst[i] = fn(c, el[i], arg);
    *a = r;
    return 0;
}

static fl_sx fn_apply1(fctx *c, fl_sx x, void *arg)
{
    return fl_sx_fn1(c->g, (fl_sfn)(intptr_t)arg, x);
}

static fl_sx seed_der(void *ctx, fl_sx leaf)
{
    fl_sgraph *g = ctx;
    const fl_snode *n = &g->n[leaf];
    if (n->op == SX_VAR) return fl_sx_der(g, (int)n->u.k);
    if (n->op == SX_TIME) return fl_sx_const(g, 1);
    if (n->op == SX_DER) return FL_SX_NONE;
    return fl_sx_const(g, 0);
}

/* der(x) inside the argument of der() (der(der(s)), der(v + der(s))):
 * an auxiliary variable "der(s)" with the equation der(s) = der(s) of the
 * variable stands for it, made once per variable, so that the second
 * derivative is a derivative of a variable. */
typedef struct der_aux_ctx {
    fctx *c;
    fl_loc loc;
} der_aux_ctx;

static fl_sx der_aux(void *cv, fl_sx leaf)
{
    der_aux_ctx *a = cv;
    fctx *c = a->c;
    const fl_snode *n = &c->g->n[leaf];
    if (n->op != SX_DER) return leaf;
    int k = (int)n->u.k;
    fvar *v = &c->f->vars.v[k];
    char *name = fl_xsprintf("der(%s)", v->name);
    int aux = fl_map_get(&c->f->vindex, name);
    if (aux < 0) {
        aux = add_var(c->f, name, v->uinst, FVK_REAL, a->loc);
        feq q = {fl_sx_var(c->g, aux), fl_sx_der(c->g, k), a->loc, c->f->vars.v[aux].uinst, 0, 0};
        FL_VEC_PUSH(c->f->eqs, q);
    }
    free(name);
    return fl_sx_var(c->g, aux);
}

static fl_sx fn_der(fctx *c, fl_sx x, void *arg)
{
    fl_sx d = fl_sx_diff(c->g, x, seed_der, c->g);
    if (d == FL_SX_NONE) {
        der_aux_ctx a = {c, *(const fl_loc *)arg};
        d = fl_sx_diff(c->g, fl_sx_subst(c->g, x, der_aux, &a), seed_der, c->g);
    }
    if (d == FL_SX_NONE) {
        cerr(c, *(const fl_loc *)arg, "this derivative cannot be formed%s", "");
        return fl_sx_const(c->g, 0);
    }
    return d;
}

static fl_sx fn_pre(fctx *c, fl_sx x, void *arg)
{
    const fl_snode *n = &c->g->n[x];
    if (n->op != SX_VAR) {
        cerr(c, *(fl_loc *)arg, "pre() needs a variable%s", "");
        return x;
    }
    return fl_sx_pre(c->g, (int)n->u.k);
}

static fl_sx fn_noevent(fctx *c, fl_sx x, void *arg)
{
    FL_UNUSED(arg);
    return fl_sx_noevent(c->g, x);
}

/* Arguments of a call, converted (named arguments only where allowed). */
static int call_args(fctx *c, const fl_expr *x, fx *args, int max, int min_n, int max_n, const char *fname)
{
    if (x->nargs < min_n || x->nargs > max_n) {
        if (!c->failed) {
            if (min_n == max_n)
                fl_err(c->d, x->loc, "%s() takes %d argument%s, not %d", fname, min_n, min_n == 1 ? "" : "s", x->nargs);
            else
                fl_err(c->d, x->loc, "%s() takes %d to %d arguments, not %d", fname, min_n, max_n, x->nargs);
        }
        c->failed = 1;
        return -1;
    }
    for (int i = 0; i < x->nargs && i < max; i++) {
        if (x->argnames && x->argnames[i] && strcmp(fname, "homotopy") && strcmp(fname, "assert")) {
            if (!c->failed) fl_err(c->d, x->args[i]->loc, "%s() has no named arguments", fname);
            c->failed = 1;
            return -1;
        }
        if (conv(c, x->args[i], &args[i])) return -1;
    }
    return 0;
}

static int scalar_arg(fctx *c, const fx *a, fl_loc loc, const char *fname)
{
    if (a->nd) {
        if (!c->failed) fl_err(c->d, loc, "%s() needs a scalar argument here", fname);
        c->failed = 1;
        return -1;
    }
    return 0;
}

/* Reductions and array constructors over a converted array. */
static int reduce(fctx *c, const fx *a, const char *fname, fx *out)
{
    int n = fx_count(a);
    const fl_sx *el = a->nd ? a->el : &a->one;
    fl_sx r;
    if (strcmp(fname, "sum") == 0) {
        r = fl_sx_const(c->g, 0);
        for (int i = 0; i < n; i++) r = fl_sx_add(c->g, r, el[i]);
    } else if (strcmp(fname, "product") == 0) {
        r = fl_sx_const(c->g, 1);
        for (int i = 0; i < n; i++) r = fl_sx_mul(c->g, r, el[i]);
    } else {
        if (n == 0) return cerr(c, fl_noloc, "%s() of an empty array", fname);
        r = el[0];
        for (int i = 1; i < n; i++) r = fl_sx_fn2(c->g, strcmp(fname, "min") == 0 ? FN_MIN : FN_MAX, r, el[i]);
    }
    *out = fx_scalar(r);
    return 0;
}

/* A comprehension {e for i in r}: the body converted for each iterator value. */
static int comprehension(fctx *c, const fl_expr *x, fx *out)
{
    if (x->nargs != 1) return cerr(c, x->loc, "comprehensions over several iterators are not supported%s", "");
    fl_value rv;
    if (eval_struct(c->e, c->lex, x->args[0], &rv)) {
        c->failed = 1;
        return -1;
    }
    if (rv.kind != V_ARRAY) {
        fl_value_free(&rv);
        return cerr(c, x->loc, "the range of a comprehension must be a vector%s", "");
    }
    int n = rv.dim[0];
    *out = fx_array(c, 1, n, 0);
    env *e = c->e;
    const iterb *saved = e->iters;
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        iterb it = {x->argnames[0], rv.data[i], saved};
        e->iters = &it;
        fx v;
        rc = conv(c, x->a, &v);
        if (!rc && v.nd) rc = cerr(c, x->a->loc, "the elements of a comprehension must be scalars%s", "");
        if (!rc) out->el[i] = v.one;
        e->iters = saved;
    }
    fl_value_free(&rv);
    return rc;
}

/* A call of function id (user_function) with the arguments of x, bound by
 * position and by name: its first nout outputs into outs[] (NULL where not
 * wanted), one SX_CALL node per value of an output, all with the same flat
 * arguments (at run time the function is evaluated once for all of them). */
static int user_call(fctx *c, const fl_expr *x, int id, const char *fname, fx *outs, int nout)
{
    fl_ufuncs *R = c->e->ic->funcs;
    int nin = fl_ufunc_ninputs(R, id);
    int have_out = fl_ufunc_noutputs(R, id);
    char buf[320];
    if (nout > have_out) {
        snprintf(buf, sizeof buf, "function '%s' has %d output%s, not %d", fname, have_out, have_out == 1 ? "" : "s",
                 nout);
        return cerr(c, x->loc, "%s", buf);
    }
    fx *args = fl_arena_alloc(c->ar, sizeof(fx) * (size_t)(nin + 1));
    unsigned char *given = fl_arena_alloc(c->ar, (size_t)nin + 1);
    int(*dims)[2] = fl_arena_alloc(c->ar, sizeof(int[2]) * (size_t)(nin + 1));
    memset(given, 0, (size_t)nin + 1);
    int named = 0;
    for (int i = 0; i < x->nargs; i++) {
        int k = -1;
        const char *an = x->argnames ? x->argnames[i] : NULL;
        if (an) {
            named = 1;
            for (int q = 0; q < nin && k < 0; q++) {
                fl_ufarg a;
                if (!fl_ufunc_input(R, id, q, &a) && strcmp(a.name, an) == 0) k = q;
            }
            if (k < 0) {
                snprintf(buf, sizeof buf, "function '%s' has no input '%s'", fname, an);
                return cerr(c, x->args[i]->loc, "%s", buf);
            }
        } else {
            if (named) return cerr(c, x->args[i]->loc, "a positional argument after named ones%s", "");
            k = i;
            if (k >= nin) {
                snprintf(buf, sizeof buf, "function '%s' takes %d input%s, not %d", fname, nin, nin == 1 ? "" : "s",
                         x->nargs);
                return cerr(c, x->loc, "%s", buf);
            }
        }
        if (given[k]) {
            fl_ufarg a;
            fl_ufunc_input(R, id, k, &a);
            snprintf(buf, sizeof buf, "input '%s' of '%s' is given twice", a.name, fname);
            return cerr(c, x->args[i]->loc, "%s", buf);
        }
        if (conv(c, x->args[i], &args[k])) return -1;
        if (args[k].str) return cerr(c, x->args[i]->loc, "a string cannot be passed to a function here%s", "");
        fl_ufarg a;
        fl_ufunc_input(R, id, k, &a);
        if (a.ndims != args[k].nd) {
            static const char *const rank[] = {"a scalar", "a vector", "a matrix"};
            snprintf(buf, sizeof buf, "input '%s' of '%s' is %s, the argument %s", a.name, fname, rank[a.ndims],
                     args[k].nd == 0 ? "a scalar" : args[k].nd == 1 ? "a vector" : "a matrix");
            return cerr(c, x->args[i]->loc, "%s", buf);
        }
        given[k] = 1;
        dims[k][0] = args[k].dim[0];
        dims[k][1] = args[k].dim[1];
    }
    int vid = fl_ufunc_variant(R, id, given, (const int(*)[2])dims, x->loc, c->d);
    if (vid < 0) {
        c->failed = 1;
        return -1;
    }
    /* the flat arguments */
    int nflat = 0;
    for (int k = 0; k < nin; k++)
        if (given[k]) nflat += fx_count(&args[k]);
    if (nflat > 65535) return cerr(c, x->loc, "more than 65535 argument values in one call%s", "");
    fl_sx *flat = fl_arena_alloc(c->ar, sizeof(fl_sx) * (size_t)(nflat + 1));
    int j = 0;
    for (int k = 0; k < nin; k++) {
        if (!given[k]) continue;
        const fl_sx *el = args[k].nd ? args[k].el : &args[k].one;
        for (int q = 0; q < fx_count(&args[k]); q++) flat[j++] = el[q];
    }
    /* the outputs, flattened in order */
    int off = 0;
    for (int o = 0; o < nout; o++) {
        fl_ufarg a;
        fl_ufunc_output(R, vid, o, &a);
        int n = a.ndims == 0 ? 1 : a.ndims == 1 ? a.dim[0] : a.dim[0] * a.dim[1];
        if ((a.ndims >= 1 && a.dim[0] < 0) || (a.ndims == 2 && a.dim[1] < 0)) {
            snprintf(buf, sizeof buf, "the size of output '%s' of '%s' is not known before the run", a.name, fname);
            return cerr(c, x->loc, "%s", buf);
        }
        if (off + n > 256) return cerr(c, x->loc, "more than 256 output values of one call are not supported%s", "");
        if (outs[o].nd >= 0) {
            fx v = a.ndims ? fx_array(c, a.ndims, a.dim[0], a.dim[1]) : fx_scalar(FL_SX_NONE);
            fl_sx *el = fx_els(&v);
            for (int q = 0; q < n; q++) el[q] = fl_sx_call(c->g, vid, off + q, flat, nflat, 0);
            outs[o] = v;
        }
        off += n;
    }
    return 0;
}

/* Modelica.Blocks.Interfaces.Adaptors.Functions.state1({u, du}, time) and
 * state2({u, du, ddu}, time) are u, declared (through derivative
 * annotations) to have the time derivatives du and ddu: the signal adaptors
 * that drive a flange from a position and its derivatives given as inputs.
 * Returns 1 when x is one of them (*rc, *out set). */
static int adaptor_state(fctx *c, const fl_expr *x, const char *written, int *rc, fx *out)
{
    size_t n = strlen(written);
    if (n < 6 || (strcmp(written + n - 6, "state1") != 0 && strcmp(written + n - 6, "state2") != 0)) return 0;
    resolved r;
    if (!resolve_name(c->e->ic, c->lex, written, &r)) return 0;
    int which = 0;
    if (!r.user && r.path) {
        if (strcmp(r.path, "Modelica.Blocks.Interfaces.Adaptors.Functions.state1") == 0) which = 1;
        if (strcmp(r.path, "Modelica.Blocks.Interfaces.Adaptors.Functions.state2") == 0) which = 2;
    }
    free(r.path);
    if (!which) return 0;
    fx a[2];
    memset(a, 0, sizeof a);
    *rc = call_args(c, x, a, 2, 2, 2, which == 1 ? "state1" : "state2");
    if (*rc) return 1;
    if (a[0].nd != 1 || a[0].dim[0] != which + 1) {
        *rc = cerr(c, x->loc, which == 1 ? "state1() takes {u, der(u)} and time%s" : "state2() takes {u, der(u), der2(u)} and time%s", "");
        return 1;
    }
    fl_sx *el = a[0].el;
    fl_sx v = which == 1 ? el[1] : fl_sx_dgiv(c->g, el[1], el[2]);
    *out = fx_scalar(fl_sx_dgiv(c->g, el[0], v));
    return 1;
}

/* Text of a message (assert): String(x) of a parameter expression is its
 * value, formatted as String() of a Real inside functions ("%g"); the
 * value of a variable is not known before the run and shows as '?'. */
static int string_fx(fctx *c, const fl_expr *x, fx *out)
{
    if (x->nargs < 1) return cerr(c, x->loc, "String() needs an argument%s", "");
    fx a;
    if (conv(c, x->args[0], &a)) return -1;
    *out = fx_scalar(FL_SX_NONE);
    if (a.str) {
        out->str = a.str;
        return 0;
    }
    if (a.nd) return cerr(c, x->loc, "String() of an array%s", "");
    double *par = fl_xmalloc(sizeof(double) * (c->f->pars.n + 1));
    for (size_t i = 0; i < c->f->pars.n; i++) par[i] = c->f->pars.v[i].value;
    double v = fl_sx_eval_par(c->g, a.one, par);
    free(par);
    char *t = isfinite(v) ? fl_xsprintf("%g", v) : fl_xstrdup("?");
    out->str = fl_arena_strn(c->f->strs, t, strlen(t));
    free(t);
    return 0;
}

/* "a" + "b" in a message: the texts joined. */
static int concat_fx(fctx *c, int op, const fx *a, const fx *b, fl_loc loc, fx *out)
{
    if (op != T_PLUS) return cerr(c, loc, "strings can only be joined with '+'%s", "");
    if (!a->str || !b->str) return cerr(c, loc, "only a string can be joined to a string (String(x) makes one of x)%s", "");
    size_t na = strlen(a->str), nb = strlen(b->str);
    char *t = fl_xmalloc(na + nb + 1);
    memcpy(t, a->str, na);
    memcpy(t + na, b->str, nb + 1);
    *out = fx_scalar(FL_SX_NONE);
    out->str = fl_arena_strn(c->f->strs, t, na + nb);
    free(t);
    return 0;
}

static int call_fx(fctx *c, const fl_expr *x, fx *out)
{
    char *fname_full = fl_ref_str(&x->ref);
    const char *fname = fname_full;
    if (starts(fname, "Modelica.Math.")) fname = fname + strlen("Modelica.Math.");
    fx a[3];
    memset(a, 0, sizeof a);
    int rc = 0;
    int fn = fl_sfn_find(fname);
    if (strcmp(fname, "der") == 0) {
        rc = call_args(c, x, a, 1, 1, 1, "der");
        if (!rc) {
            *out = a[0];
            fl_loc loc = x->loc;
            rc = map1(c, out, fn_der, &loc);
        }
    } else if (strcmp(fname, "pre") == 0) {
        rc = call_args(c, x, a, 1, 1, 1, "pre");
        if (!rc) {
            *out = a[0];
            fl_loc loc = x->loc;
            rc = map1(c, out, fn_pre, &loc);
        }
    } else if (strcmp(fname, "edge") == 0 || strcmp(fname, "change") == 0) {
        rc = call_args(c, x, a, 1, 1, 1, fname) || scalar_arg(c, &a[0], x->loc, fname);
        if (!rc && fname[0] == 'e') {
            /* edge() of a Boolean (a Real never "becomes true") */
            const fl_snode *an = &c->g->n[a[0].one];
            const fvar *av = an->op == SX_VAR ? &c->f->vars.v[an->u.k] : NULL;
            if (!av || av->vtype != FL_VT_BOOLEAN) rc = cerr(c, x->loc, "edge() takes a Boolean variable%s", "");
        }
        if (!rc) {
            fl_loc loc = x->loc;
            fl_sx v = a[0].one, p = fn_pre(c, v, &loc);
            *out = fx_scalar(fname[0] == 'e' ? fl_sx_and(c->g, v, fl_sx_not(c->g, p))
                                             : fl_sx_rel(c->g, FL_REL_NE, v, p, 1));
        }
    } else if (strcmp(fname, "initial") == 0 || strcmp(fname, "terminal") == 0) {
        rc = call_args(c, x, a, 0, 0, 0, fname);
        if (!rc) *out = fx_scalar(fname[0] == 'i' ? fl_sx_initial(c->g) : fl_sx_terminal(c->g));
    } else if (strcmp(fname, "sample") == 0) {
        rc = call_args(c, x, a, 2, 2, 2, "sample") || scalar_arg(c, &a[0], x->loc, "sample") ||
             scalar_arg(c, &a[1], x->loc, "sample");
        if (!rc) *out = fx_scalar(fl_sx_sample(c->g, a[0].one, a[1].one));
    } else if (strcmp(fname, "noEvent") == 0) {
        rc = call_args(c, x, a, 1, 1, 1, "noEvent");
        if (!rc) {
            *out = a[0];
            rc = map1(c, out, fn_noevent, NULL);
        }
    } else if (strcmp(fname, "smooth") == 0) {
        rc = call_args(c, x, a, 2, 2, 2, "smooth");
        if (!rc) {
            *out = a[1];
            rc = map1(c, out, fn_noevent, NULL);
        }
    } else if (strcmp(fname, "homotopy") == 0) {
        /* homotopy(actual, simplified): flange solves the actual problem */
        rc = call_args(c, x, a, 2, 2, 2, "homotopy");
        if (!rc) *out = a[0];
    } else if (strcmp(fname, "sum") == 0 || strcmp(fname, "product") == 0 ||
               ((strcmp(fname, "min") == 0 || strcmp(fname, "max") == 0) && x->nargs == 1)) {
        if (x->nargs == 1 && x->args[0]->kind == EX_COMPREH) rc = comprehension(c, x->args[0], &a[0]);
        else rc = call_args(c, x, a, 1, 1, 1, fname);
        if (!rc) rc = reduce(c, &a[0], fname, out);
    } else if (fn >= 0 && fl_sfn_arity((fl_sfn)fn) == 1) {
        rc = call_args(c, x, a, 1, 1, 1, fname);
        if (!rc) {
            *out = a[0];
            rc = map1(c, out, fn_apply1, (void *)(intptr_t)fn);
        }
    } else if (fn >= 0 && fl_sfn_arity((fl_sfn)fn) == 2) {
        rc = call_args(c, x, a, 2, 2, 2, fname) || scalar_arg(c, &a[0], x->loc, fname) ||
             scalar_arg(c, &a[1], x->loc, fname);
        if (!rc) *out = fx_scalar(fl_sx_fn2(c->g, (fl_sfn)fn, a[0].one, a[1].one));
    } else if (strcmp(fname, "size") == 0 || strcmp(fname, "ones") == 0 || strcmp(fname, "zeros") == 0 ||
               strcmp(fname, "fill") == 0 || strcmp(fname, "linspace") == 0 || strcmp(fname, "integer") == 0) {
        /* structural: evaluate (size of variables through their declarations) */
        if (strcmp(fname, "size") == 0 && x->nargs >= 1 && x->args[0]->kind == EX_REF) {
            fx arr;
            rc = conv(c, x->args[0], &arr);
            if (!rc) {
                long dim = 1;
                if (x->nargs == 2) rc = eval_int(c->e, c->lex, x->args[1], &dim);
                if (!rc && (dim < 1 || dim > arr.nd)) rc = cerr(c, x->loc, "size(): no such dimension%s", "");
                if (!rc) *out = fx_scalar(fl_sx_const(c->g, arr.dim[dim - 1]));
            }
        } else {
            fl_value v;
            rc = eval_struct(c->e, c->lex, x, &v);
            if (rc) c->failed = 1;
            else {
                rc = value_fx(c, &v, fname, 0, x->loc, out);
                fl_value_free(&v);
            }
        }
    } else if (strcmp(fname, "String") == 0) {
        rc = string_fx(c, x, out);
    } else if (adaptor_state(c, x, fname_full, &rc, out)) {
        /* Modelica.Blocks.Interfaces.Adaptors.Functions.state1/state2 */
    } else {
        int id = user_function(c->e->ic, c->lex, fname_full, x->loc);
        if (id >= 0) {
            if (fl_ufunc_noutputs(c->e->ic->funcs, id) < 1)
                rc = cerr(c, x->loc, "function '%s' has no output to use in an expression", fname_full);
            else {
                memset(out, 0, sizeof *out);
                rc = user_call(c, x, id, fname_full, out, 1);
            }
        } else {
            static const char *const unsupported[] = {"delay", "spatialDistribution", "cardinality", "semiLinear",
                                                      "reinit", "getInstanceName", "inStream", "actualStream",
                                                      "Clock", "hold", "sample", "subSample", "superSample",
                                                      "shiftSample", "backSample", "previous", "interval"};
            int known = 0;
            for (size_t k = 0; k < sizeof unsupported / sizeof *unsupported; k++) known |= strcmp(fname, unsupported[k]) == 0;
            if (id == -2 && known)
                fl_err(c->d, x->loc, "%s() is not supported in equations%s", fname,
                       strcmp(fname, "reinit") == 0 ? " (only inside a when-equation)" : "");
            else if (id == -2) fl_err(c->d, x->loc, "unknown function '%s'", fname_full);
            c->failed = 1;
            rc = -1;
        }
    }
    free(fname_full);
    return rc;
}

/* Binary chains are walked in a loop on their left spine (a + b + c ...
 * of any length without recursion), other nesting by recursion (bounded
 * by the parser's nesting limit). */
static int conv(fctx *c, const fl_expr *x, fx *out)
{
    if (c->failed) return -1;
    switch (x->kind) {
    case EX_NUM:
    case EX_BOOL:
        *out = fx_scalar(fl_sx_const(c->g, x->num));
        return 0;
    case EX_STR:
        *out = fx_scalar(FL_SX_NONE);
        out->str = fl_arena_strn(c->f->strs, x->str, strlen(x->str));
        return 0;
    case EX_REF:
        return ref_fx(c, x, out);
    case EX_CALL:
        return call_fx(c, x, out);
    case EX_UNARY: {
        if (conv(c, x->a, out)) return -1;
        if (x->op == T_PLUS) return 0;
        fl_sx *el = fx_els(out);
        for (int i = 0; i < fx_count(out); i++)
            el[i] = x->op == K_NOT ? fl_sx_not(c->g, el[i]) : fl_sx_neg(c->g, el[i]);
        return 0;
    }
    case EX_BINARY: {
        /* the left spine of a chain */
        const fl_expr *spine[64];
        FL_VEC(const fl_expr *) big = {0};
        const fl_expr *y = x;
        int n = 0;
        while (y->kind == EX_BINARY) {
            if (n < 64) spine[n] = y;
            else FL_VEC_PUSH(big, y);
            n++;
            y = y->a;
        }
        fx acc;
        if (conv(c, y, &acc)) {
            FL_VEC_FREE(big);
            return -1;
        }
        for (int i = n - 1; i >= 0; i--) {
            const fl_expr *op = i < 64 ? spine[i] : big.v[i - 64];
            fx b, r;
            if (conv(c, op->b, &b) ||
                (acc.str || b.str ? concat_fx(c, op->op, &acc, &b, op->loc, &r)
                                  : binary_fx(c, op->op, &acc, &b, op->loc, &r))) {
                FL_VEC_FREE(big);
                return -1;
            }
            acc = r;
        }
        FL_VEC_FREE(big);
        *out = acc;
        return 0;
    }
    case EX_IF: {
        fx cond, a, b;
        if (conv(c, x->a, &cond) || conv(c, x->b, &a) || conv(c, x->c, &b)) return -1;
        if (cond.nd) return cerr(c, x->a->loc, "the condition of 'if' must be a scalar%s", "");
        if (a.str || b.str) { /* strings (a message): the first branch's text */
            *out = fx_scalar(FL_SX_NONE);
            out->str = a.str ? a.str : b.str;
            return 0;
        }
        if (a.nd != b.nd || a.dim[0] != b.dim[0] || a.dim[1] != b.dim[1])
            return cerr(c, x->loc, "the branches of 'if' have different sizes%s", "");
        *out = a.nd ? fx_array(c, a.nd, a.dim[0], a.dim[1]) : fx_scalar(FL_SX_NONE);
        fl_sx *d = fx_els(out), *ea = fx_els(&a), *eb = fx_els(&b);
        for (int i = 0; i < fx_count(out); i++) d[i] = fl_sx_if(c->g, cond.one, ea[i], eb[i]);
        return 0;
    }
    case EX_ARRAY: {
        if (x->nargs == 1 && x->args[0]->kind == EX_COMPREH) return comprehension(c, x->args[0], out);
        int n = x->nargs;
        fx *el = fl_arena_alloc(c->ar, sizeof(fx) * (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++)
            if (conv(c, x->args[i], &el[i])) return -1;
        if (n && el[0].nd == 1) { /* {vector, vector}: a matrix */
            *out = fx_array(c, 2, n, el[0].dim[0]);
            for (int i = 0; i < n; i++) {
                if (el[i].nd != 1 || el[i].dim[0] != el[0].dim[0])
                    return cerr(c, x->loc, "the rows of an array must have one length%s", "");
                memcpy(out->el + (size_t)i * (size_t)el[0].dim[0], el[i].el, sizeof(fl_sx) * (size_t)el[0].dim[0]);
            }
            return 0;
        }
        *out = fx_array(c, 1, n, 0);
        for (int i = 0; i < n; i++) {
            if (el[i].nd) return cerr(c, x->loc, "arrays of arrays of different shapes%s", "");
            out->el[i] = el[i].one;
        }
        return 0;
    }
    case EX_MATRIX: {
        int rows = x->nargs, cols = -1;
        FL_VEC(fl_sx) data = {0};
        for (int i = 0; i < rows; i++) {
            const fl_expr *row = x->args[i];
            int rc = 0;
            for (int j = 0; j < row->nargs; j++) {
                fx v;
                if (conv(c, row->args[j], &v)) {
                    FL_VEC_FREE(data);
                    return -1;
                }
                fl_sx *ve = fx_els(&v);
                for (int k = 0; k < fx_count(&v); k++) FL_VEC_PUSH(data, ve[k]);
                rc += fx_count(&v);
            }
            if (cols >= 0 && rc != cols) {
                FL_VEC_FREE(data);
                return cerr(c, row->loc, "the rows of a matrix must have one length%s", "");
            }
            cols = rc;
        }
        *out = fx_array(c, 2, rows, cols < 0 ? 0 : cols);
        if (data.n) memcpy(out->el, data.v, sizeof(fl_sx) * data.n);
        FL_VEC_FREE(data);
        return 0;
    }
    case EX_RANGE: {
        fl_value v;
        if (eval_struct(c->e, c->lex, x, &v)) {
            c->failed = 1;
            return -1;
        }
        int rc = value_fx(c, &v, "range", 0, x->loc, out);
        fl_value_free(&v);
        return rc;
    }
    case EX_COMPREH:
        return comprehension(c, x, out);
    case EX_TUPLE:
        return cerr(c, x->loc, "a tuple is only allowed on the left of an equation%s", "");
    case EX_COLON:
    case EX_END:
        return cerr(c, x->loc, "':' and 'end' are only allowed as subscripts%s", "");
    }
    return cerr(c, x->loc, "cannot use this expression in an equation%s", "");
}

/* ---- equations ---------------------------------------------------------------------- */

/* Parameters and the pre() values known at the start as constants: what
 * an initial equation pre(z) = ... gives, when it is a number. */
static fl_sx start_value_sub(void *cv, fl_sx leaf)
{
    fctx *c = cv;
    const fl_snode *n = fl_sg_node(c->g, leaf);
    if (n->op == SX_PAR) return fl_sx_const(c->g, c->f->pars.v[n->u.k].value);
    if (n->op == SX_PRE && c->f->vars.v[n->u.k].kind == FVK_DISC && c->f->vars.v[n->u.k].has_start)
        return fl_sx_const(c->g, c->f->vars.v[n->u.k].start);
    return leaf;
}

/* An initial equation that gives a discrete variable its value before the
 * start, which is what flange starts discrete variables from (their start
 * value): pre(z) = value (the MSL's pre(y) = pre_y_start), or z = value for
 * a z that a when-equation assigns (pulseStart = startTime), the value an
 * expression of parameters. Returns -1 when it was the first (the start
 * value is set), 2 when it may be the second (the value in *value;
 * fl_flat_finish decides, knowing the when-equations), 1 otherwise. */
static int start_equation(fctx *c, fl_sx lhs, fl_sx rhs, double *value)
{
    /* (copies: the substitution below may grow the graph's node array) */
    const fl_snode *l = fl_sg_node(c->g, lhs);
    int lop = l->op, lk = l->u.k;
    if (lop != SX_PRE && lop != SX_VAR) return 1;
    fvar *v = &c->f->vars.v[lk];
    if (v->kind != FVK_DISC && v->kind != FVK_REAL) return 1;
    fl_sx val = fl_sx_subst(c->g, rhs, start_value_sub, c);
    const fl_snode *n = fl_sg_node(c->g, val);
    if (n->op != SX_CONST) return 1;
    if (lop == SX_PRE && v->kind == FVK_DISC) {
        v->start = n->u.v;
        v->has_start = 1;
        return -1;
    }
    *value = n->u.v;
    return 2;
}

static void add_eq(fctx *c, fl_sx lhs, fl_sx rhs, fl_loc loc, int initial)
{
    double value = 0;
    if (initial && (initial = start_equation(c, lhs, rhs, &value)) < 0) return;
    feq q = {lhs, rhs, loc, c->owner >= 0 ? c->owner : c->e->uinst, initial, value};
    FL_VEC_PUSH(c->f->eqs, q);
}

/* lhs = rhs element by element. */
static int equate(fctx *c, fx *a, fx *b, fl_loc loc, int initial)
{
    if (a->str || b->str) return cerr(c, loc, "strings cannot be equated%s", "");
    if (a->nd != b->nd || a->dim[0] != b->dim[0] || a->dim[1] != b->dim[1])
        return cerr(c, loc, "the two sides of the equation have different sizes%s", "");
    fl_sx *ea = fx_els(a), *eb = fx_els(b);
    for (int i = 0; i < fx_count(a); i++) add_eq(c, ea[i], eb[i], loc, initial);
    return 0;
}

/* Residuals (lhs - rhs) of a list of equations, for if-equations with
 * variable conditions; connect() and when are not allowed there. */
typedef FL_VEC(fl_sx) sx_vec;
typedef FL_VEC(fl_loc) loc_vec;
typedef FL_VEC(fl_fwstmt) stmt_vec;

static int flatten_list(fctx *c, const fl_eq *eqs, int n, int initial, int in_when, sx_vec *collect_res,
                        loc_vec *collect_loc);

static int when_body(fctx *c, const fl_eq *eqs, int n, stmt_vec *body);

static int not_par_leaf(void *ctx, const fl_snode *n)
{
    FL_UNUSED(ctx);
    return n->op != SX_PAR && n->op != SX_CONST;
}

/* Do the conditions of an if-equation depend on parameters only? */
static int if_is_structural(fctx *c, const fl_eq *q)
{
    for (int b = 0; b < q->nbr; b++) {
        if (!q->br[b].cond) continue;
        fx cond;
        if (conv(c, q->br[b].cond, &cond)) return 1; /* its error is reported */
        if (cond.nd || fl_sx_depends(c->g, cond.one, not_par_leaf, NULL)) return 0;
    }
    return 1;
}

/* An if-equation inside a when-equation with conditions that change in
 * time: each branch assigns the same variables (a missing else keeps
 * them); the statements become assignments of if-expressions. */
static int when_if(fctx *c, const fl_eq *q, stmt_vec *body)
{
    int nb = q->nbr;
    stmt_vec *br = fl_xcalloc((size_t)nb, sizeof(stmt_vec));
    fl_sx *cond = fl_xcalloc((size_t)nb, sizeof(fl_sx));
    int rc = 0;
    for (int b = 0; b < nb && !rc; b++) {
        cond[b] = FL_SX_NONE;
        if (q->br[b].cond) {
            fx cf;
            rc = conv(c, q->br[b].cond, &cf);
            if (!rc && cf.nd) rc = cerr(c, q->br[b].cond->loc, "the condition must be a scalar%s", "");
            if (!rc) cond[b] = cf.one;
        }
        if (!rc) rc = when_body(c, q->br[b].eqs, q->br[b].n, &br[b]);
    }
    /* every statement of the first branch, matched in the others */
    for (size_t i = 0; !rc && i < br[0].n; i++) {
        fl_fwstmt st = br[0].v[i];
        if (st.kind == FW_TERMINATE) {
            rc = cerr(c, st.loc, "terminate() inside an if-equation in a when-equation is not supported%s", "");
            break;
        }
        /* what holds when no condition does: the else branch, or the value kept */
        fl_sx v = st.kind == FW_ASSERT ? fl_sx_const(c->g, 1) : fl_sx_var(c->g, st.var);
        for (int b = nb - 1; b >= 0 && !rc; b--) {
            fl_sx vb = FL_SX_NONE;
            for (size_t j = 0; j < br[b].n; j++)
                if (br[b].v[j].kind == st.kind && br[b].v[j].var == st.var &&
                    (st.kind != FW_ASSERT || j == i))
                    vb = br[b].v[j].value;
            if (vb == FL_SX_NONE && st.kind == FW_ASSERT) vb = fl_sx_const(c->g, 1);
            if (vb == FL_SX_NONE) {
                rc = cerr(c, q->br[b].cond ? q->br[b].cond->loc : q->loc,
                          "each branch of an if-equation in a when-equation must assign the same variables%s", "");
                break;
            }
            v = cond[b] == FL_SX_NONE ? vb : fl_sx_if(c->g, cond[b], vb, v);
        }
        st.value = v;
        FL_VEC_PUSH(*body, st);
    }
    for (int b = 1; b < nb && !rc; b++)
        if (br[b].n != br[0].n)
            rc = cerr(c, q->br[b].cond ? q->br[b].cond->loc : q->loc,
                      "each branch of an if-equation in a when-equation must assign the same variables%s", "");
    for (int b = 0; b < nb; b++) FL_VEC_FREE(br[b]);
    free(br);
    free(cond);
    return rc;
}

static int when_body(fctx *c, const fl_eq *eqs, int n, stmt_vec *body)
{
    for (int i = 0; i < n && !c->failed; i++) {
        const fl_eq *q = &eqs[i];
        fl_fwstmt st;
        memset(&st, 0, sizeof st);
        st.loc = q->loc;
        st.var = -1;
        st.value = FL_SX_NONE;
        if (q->kind == EQ_EQUAL) {
            fx l, r;
            if (conv(c, q->lhs, &l) || conv(c, q->rhs, &r)) return -1;
            if (l.nd != r.nd || l.dim[0] != r.dim[0]) return cerr(c, q->loc, "the two sides have different sizes%s", "");
            fl_sx *el = fx_els(&l), *er = fx_els(&r);
            for (int k = 0; k < fx_count(&l); k++) {
                const fl_snode *ln = &c->g->n[el[k]];
                if (ln->op != SX_VAR) return cerr(c, q->loc, "the left side of an equation in a when-equation must be a variable%s", "");
                st.kind = FW_ASSIGN;
                st.var = (int)ln->u.k;
                st.value = er[k];
                FL_VEC_PUSH(*body, st);
            }
        } else if (q->kind == EQ_CALL) {
            const fl_expr *call = q->rhs;
            char *nm = fl_ref_str(&call->ref);
            if (strcmp(nm, "reinit") == 0) {
                if (call->nargs != 2) {
                    free(nm);
                    return cerr(c, q->loc, "reinit() takes a state and its new value%s", "");
                }
                fx v, e;
                if (conv(c, call->args[0], &v) || conv(c, call->args[1], &e)) {
                    free(nm);
                    return -1;
                }
                if (v.nd || c->g->n[v.one].op != SX_VAR) {
                    free(nm);
                    return cerr(c, q->loc, "reinit() needs a variable%s", "");
                }
                st.kind = FW_REINIT;
                st.var = (int)c->g->n[v.one].u.k;
                st.value = e.one;
                FL_VEC_PUSH(*body, st);
            } else if (strcmp(nm, "terminate") == 0 || strcmp(nm, "assert") == 0) {
                fx a[2];
                memset(a, 0, sizeof a);
                int is_t = nm[0] == 't';
                if (call->nargs < (is_t ? 1 : 2)) {
                    free(nm);
                    return cerr(c, q->loc, "%s() needs a message", is_t ? "terminate" : "assert");
                }
                if (!is_t && conv(c, call->args[0], &a[0])) {
                    free(nm);
                    return -1;
                }
                if (conv(c, call->args[is_t ? 0 : 1], &a[1])) {
                    free(nm);
                    return -1;
                }
                st.kind = is_t ? FW_TERMINATE : FW_ASSERT;
                if (!is_t) st.loc = fl_scope_user_loc(c->e, q->loc); /* a failed assert of a library class: at its use */
                st.value = is_t ? FL_SX_NONE : a[0].one;
                st.msg = a[1].str ? a[1].str : "";
                FL_VEC_PUSH(*body, st);
            } else {
                free(nm);
                return cerr(c, q->loc, "this call is not allowed in a when-equation%s", "");
            }
            free(nm);
        } else if (q->kind == EQ_IF && !if_is_structural(c, q)) {
            if (when_if(c, q, body)) return -1;
        } else if (q->kind == EQ_IF) {
            /* conditions on parameters: the branch taken, as written */
            int taken = -1;
            for (int b = 0; b < q->nbr && taken < 0; b++) {
                if (!q->br[b].cond) {
                    taken = b;
                    break;
                }
                fl_value v;
                if (eval_struct(c->e, c->lex, q->br[b].cond, &v)) {
                    c->failed = 1;
                    return -1;
                }
                if (v.kind == V_BOOL && v.num != 0) taken = b;
                fl_value_free(&v);
            }
            if (taken >= 0 && when_body(c, q->br[taken].eqs, q->br[taken].n, body)) return -1;
        } else if (q->kind == EQ_FOR) {
            return cerr(c, q->loc, "for-loops inside when-equations are not supported%s", "");
        } else {
            return cerr(c, q->loc, "this equation is not allowed inside a when-equation%s", "");
        }
    }
    return c->failed ? -1 : 0;
}

static int flatten_when(fctx *c, const fl_eq *q)
{
    int chain = c->f->nchains++;
    for (int b = 0; b < q->nbr && !c->failed; b++) {
        fwhen fw;
        memset(&fw, 0, sizeof fw);
        fw.uinst = c->e->uinst;
        fw.w.chain = chain;
        fw.w.loc = q->br[b].cond ? q->br[b].cond->loc : q->loc;
        fx cond;
        if (conv(c, q->br[b].cond, &cond)) return -1;
        int nc = fx_count(&cond);
        fw.w.nconds = nc;
        fw.w.conds = fl_xmalloc(sizeof(fl_sx) * (size_t)(nc ? nc : 1));
        memcpy(fw.w.conds, fx_els(&cond), sizeof(fl_sx) * (size_t)nc);
        stmt_vec body = {0};
        if (when_body(c, q->br[b].eqs, q->br[b].n, &body)) {
            free(fw.w.conds);
            FL_VEC_FREE(body);
            return -1;
        }
        fw.w.body = body.v;
        fw.w.nbody = (int)body.n;
        FL_VEC_PUSH(c->f->whens, fw);
    }
    return c->failed ? -1 : 0;
}

/* A connect() inside a for-loop or if-equation: subscripts of component
 * arrays are evaluated by add_connect with the iterators in scope. */
static int flatten_connect(fctx *c, const fl_eq *q)
{
    add_connect(c->e, &q->conn);
    return 0;
}

static int flatten_for(fctx *c, const fl_eq *q, int initial, int in_when, sx_vec *res, loc_vec *rloc)
{
    /* nested iterators: the first varies slowest */
    int ni = q->niters;
    fl_value *ranges = fl_xcalloc((size_t)ni, sizeof *ranges);
    int rc = 0;
    for (int i = 0; i < ni && !rc; i++) {
        if (eval_struct(c->e, c->lex, q->iters[i].range, &ranges[i])) {
            rc = -1;
            c->failed = 1;
        } else if (ranges[i].kind != V_ARRAY) {
            if (fl_value_is_number(&ranges[i])) {
                double x = ranges[i].num;
                fl_value_free(&ranges[i]);
                ranges[i].kind = V_ARRAY;
                ranges[i].ndims = 1;
                ranges[i].dim[0] = 1;
                ranges[i].data = fl_xmalloc(sizeof(double));
                ranges[i].data[0] = x;
            } else {
                rc = cerr(c, q->iters[i].loc, "the range of a for-loop must be a vector%s", "");
            }
        }
    }
    size_t total = 1;
    for (int i = 0; i < ni && !rc; i++) total *= fl_value_count(&ranges[i]);
    env *e = c->e;
    const iterb *saved = e->iters;
    iterb *its = fl_xcalloc((size_t)(ni ? ni : 1), sizeof *its);
    for (size_t k = 0; k < total && !rc; k++) {
        size_t rest = k;
        for (int i = ni - 1; i >= 0; i--) {
            size_t m = fl_value_count(&ranges[i]);
            its[i].name = q->iters[i].name;
            its[i].value = ranges[i].data[rest % m];
            its[i].next = i ? &its[i - 1] : saved;
            rest /= m;
        }
        e->iters = &its[ni - 1];
        rc = flatten_list(c, q->body, q->nbody, initial, in_when, res, rloc);
        e->iters = saved;
    }
    free(its);
    for (int i = 0; i < ni; i++) fl_value_free(&ranges[i]);
    free(ranges);
    return rc;
}

/* An if-equation: a branch chosen by parameters, or residuals combined
 * with if-expressions when the conditions depend on variables. */
static int flatten_if(fctx *c, const fl_eq *q, int initial, int in_when, sx_vec *res, loc_vec *rloc)
{
    int structural = 1;
    int taken = -1;
    for (int b = 0; b < q->nbr && structural && taken < 0; b++) {
        if (!q->br[b].cond) {
            taken = b;
            break;
        }
        fl_value v;
        fl_diag *scratch = fl_diag_new();
        fl_diag *saved = c->e->ic->d;
        c->e->ic->d = scratch;
        int ev = eval_struct(c->e, c->lex, q->br[b].cond, &v);
        c->e->ic->d = saved;
        fl_diag_free(scratch);
        if (ev || v.kind != V_BOOL) {
            structural = 0;
            if (!ev) fl_value_free(&v);
            break;
        }
        if (v.num != 0) taken = b;
        fl_value_free(&v);
    }
    if (structural) return taken >= 0 ? flatten_list(c, q->br[taken].eqs, q->br[taken].n, initial, in_when, res, rloc) : 0;
    /* variable conditions: every branch gives the same number of residuals */
    int nb = q->nbr;
    int has_else = !q->br[nb - 1].cond;
    sx_vec *br = fl_xcalloc((size_t)nb, sizeof *br);
    loc_vec *bl = fl_xcalloc((size_t)nb, sizeof *bl);
    fx *cond = fl_xcalloc((size_t)nb, sizeof *cond);
    int rc = 0;
    for (int b = 0; b < nb && !rc; b++) {
        if (q->br[b].cond && conv(c, q->br[b].cond, &cond[b])) rc = -1;
        if (!rc) rc = flatten_list(c, q->br[b].eqs, q->br[b].n, initial, in_when, &br[b], &bl[b]);
    }
    if (!rc && !has_else) rc = cerr(c, q->loc, "an if-equation whose conditions depend on variables needs an else branch%s", "");
    for (int b = 1; b < nb && !rc; b++)
        if (br[b].n != br[0].n) rc = cerr(c, q->loc, "the branches of this if-equation have different numbers of equations%s", "");
    if (!rc)
        for (size_t i = 0; i < br[0].n; i++) {
            fl_sx r = br[nb - 1].v[i];
            for (int b = nb - 2; b >= 0; b--) r = fl_sx_if(c->g, cond[b].one, br[b].v[i], r);
            if (res) {
                FL_VEC_PUSH(*res, r);
                FL_VEC_PUSH(*rloc, bl[0].v[i]);
            } else {
                add_eq(c, r, fl_sx_const(c->g, 0), bl[0].v[i], initial);
            }
        }
    for (int b = 0; b < nb; b++) {
        FL_VEC_FREE(br[b]);
        FL_VEC_FREE(bl[b]);
    }
    free(br);
    free(bl);
    free(cond);
    return rc;
}

/* (a, , b) = f(x): output k of f equals tuple element k, where given. */
static int tuple_equation(fctx *c, const fl_eq *q, int initial, sx_vec *res, loc_vec *rloc)
{
    const fl_expr *t = q->lhs, *x = q->rhs;
    if (x->kind != EX_CALL) return cerr(c, q->loc, "a tuple (a, b) equals a call of a function with several outputs%s", "");
    char *fname = fl_ref_str(&x->ref);
    int id = user_function(c->e->ic, c->lex, fname, x->loc);
    if (id < 0) {
        if (id == -2) fl_err(c->d, x->loc, "'%s' is no function of the model with several outputs", fname);
        c->failed = 1;
        free(fname);
        return -1;
    }
    fx *outs = fl_arena_alloc(c->ar, sizeof(fx) * (size_t)(t->nargs + 1));
    for (int k = 0; k < t->nargs; k++) {
        memset(&outs[k], 0, sizeof outs[k]);
        if (!t->args[k]) outs[k].nd = -1; /* (a, , b): not wanted */
    }
    int rc = user_call(c, x, id, fname, outs, t->nargs);
    free(fname);
    for (int k = 0; k < t->nargs && !rc; k++) {
        if (!t->args[k]) continue;
        fx l;
        if (conv(c, t->args[k], &l)) return -1;
        if (res) {
            if (l.nd != outs[k].nd || l.dim[0] != outs[k].dim[0] || l.dim[1] != outs[k].dim[1])
                return cerr(c, t->args[k]->loc, "the two sides of the equation have different sizes%s", "");
            fl_sx *el = fx_els(&l), *er = fx_els(&outs[k]);
            for (int i = 0; i < fx_count(&l); i++) {
                FL_VEC_PUSH(*res, fl_sx_sub(c->g, el[i], er[i]));
                FL_VEC_PUSH(*rloc, q->loc);
            }
        } else if (equate(c, &l, &outs[k], q->loc, initial)) {
            return -1;
        }
    }
    return rc;
}

/* Flatten equations; with res set, collect residuals instead of adding
 * equations (inside if-equations with variable conditions). */
static int flatten_list(fctx *c, const fl_eq *eqs, int n, int initial, int in_when, sx_vec *res,
                        loc_vec *rloc)
{
    for (int i = 0; i < n && !c->failed; i++) {
        const fl_eq *q = &eqs[i];
        switch (q->kind) {
        case EQ_EQUAL: {
            if (q->lhs->kind == EX_TUPLE) {
                if (tuple_equation(c, q, initial, res, rloc)) return -1;
                break;
            }
            fx l, r;
            if (conv(c, q->lhs, &l) || conv(c, q->rhs, &r)) return -1;
            if (res) {
                if (l.nd != r.nd || l.dim[0] != r.dim[0] || l.dim[1] != r.dim[1])
                    return cerr(c, q->loc, "the two sides of the equation have different sizes%s", "");
                fl_sx *el = fx_els(&l), *er = fx_els(&r);
                for (int k = 0; k < fx_count(&l); k++) {
                    FL_VEC_PUSH(*res, fl_sx_sub(c->g, el[k], er[k]));
                    FL_VEC_PUSH(*rloc, q->loc);
                }
            } else if (equate(c, &l, &r, q->loc, initial)) {
                return -1;
            }
            break;
        }
        case EQ_CONNECT:
            if (res || initial) return cerr(c, q->loc, "connect() is not allowed here%s", "");
            flatten_connect(c, q);
            break;
        case EQ_IF:
            if (flatten_if(c, q, initial, in_when, res, rloc)) return -1;
            break;
        case EQ_FOR:
            if (flatten_for(c, q, initial, in_when, res, rloc)) return -1;
            break;
        case EQ_WHEN:
            if (res || initial) return cerr(c, q->loc, "a when-equation is not allowed here%s", "");
            if (flatten_when(c, q)) return -1;
            break;
        case EQ_CALL: {
            const fl_expr *call = q->rhs;
            char *nm = fl_ref_str(&call->ref);
            int rc = 0;
            if (strcmp(nm, "assert") == 0) {
                fx a[3];
                memset(a, 0, sizeof a);
                if (call->nargs < 2 || call->nargs > 3) rc = cerr(c, q->loc, "assert() takes a condition, a message and a level%s", "");
                for (int k = 0; k < call->nargs && k < 2 && !rc; k++) rc = conv(c, call->args[k], &a[k]);
                int warning = 0;
                if (!rc && call->nargs == 3) {
                    /* the level: AssertionLevel.error or AssertionLevel.warning */
                    const fl_expr *lx = call->args[2];
                    char *lv = lx->kind == EX_REF ? fl_ref_str(&lx->ref) : NULL;
                    size_t ln = lv ? strlen(lv) : 0;
                    if (lv && ln >= 7 && strcmp(lv + ln - 7, "warning") == 0 && strstr(lv, "AssertionLevel")) warning = 1;
                    else if (!(lv && ln >= 5 && strcmp(lv + ln - 5, "error") == 0 && strstr(lv, "AssertionLevel")))
                        rc = cerr(c, lx->loc, "the level of assert() is AssertionLevel.error or AssertionLevel.warning%s",
                                  "");
                    free(lv);
                }
                if (!rc) {
                    fassert fa;
                    memset(&fa, 0, sizeof fa);
                    fa.uinst = c->e->uinst;
                    fa.a.cond = a[0].one;
                    fa.a.msg = a[1].str ? a[1].str : "";
                    fa.a.loc = fl_scope_user_loc(c->e, q->loc);
                    fa.a.warning = warning;
                    FL_VEC_PUSH(c->f->asserts, fa);
                }
            } else if (strcmp(nm, "reinit") == 0 || strcmp(nm, "terminate") == 0) {
                rc = cerr(c, q->loc, "%s() is only allowed inside a when-equation", nm);
            } else {
                rc = cerr(c, q->loc, "'%s' cannot be called as an equation", nm);
            }
            free(nm);
            if (rc) return -1;
            break;
        }
        }
    }
    return c->failed ? -1 : 0;
}

int fl_flat_equations(env *e, const eqlist *lists, int nlists)
{
    ictx *ic = e->ic;
    fctx c;
    memset(&c, 0, sizeof c);
    c.e = e;
    c.f = ic->flat;
    c.g = &ic->flat->g;
    c.d = ic->d;
    c.ar = fl_arena_new();
    c.owner = -1;
    int rc = 0;
    /* bindings of declarations first (y = 2*x written as Real y = 2*x) */
    binding_vec *pend = e->pending;
    for (size_t i = 0; pend && i < pend->n; i++) {
        const binding *b = &pend->v[i];
        env *saved_e = c.e;
        c.e = b->where;
        c.lex = b->lex;
        c.failed = 0;
        fx r;
        if (conv(&c, b->value, &r)) {
            rc = -1;
        } else if (r.str) { /* Real x = if ... then "a" else "b": a String is no number */
            fl_err(ic->d, b->loc, "the binding is a String, not a number");
            rc = -1;
        } else {
            int n = fx_count(&r);
            if (n != b->n) {
                fl_err(ic->d, b->loc, "the binding has %d values for %d elements", n, b->n);
                rc = -1;
            } else {
                fl_sx *el = fx_els(&r);
                c.e = e;
                c.owner = b->uinst;
                for (int k = 0; k < n; k++) add_eq(&c, fl_sx_var(c.g, b->first + k), el[k], b->loc, 0);
                c.owner = -1;
                /* inputs given a value from outside: given, as by a connection */
                if (b->uinst != e->uinst && ic->flat->vars.v[b->first].is_input) ic->flat->uinsts.v[b->uinst].nconn += n;
            }
        }
        c.e = saved_e;
    }
    fl_flat_drop_pending(e);
    for (int l = 0; l < nlists; l++) {
        c.lex = lists[l].lex;
        c.failed = 0;
        if (lists[l].n) fl_flat_instance(e, lists[l].eqs[0].loc);
        if (flatten_list(&c, lists[l].eqs, lists[l].n, lists[l].initial, 0, NULL, NULL)) rc = -1;
    }
    fl_arena_free(c.ar);
    return rc;
}
