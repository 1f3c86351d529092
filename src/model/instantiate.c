/* instantiate.c - from a parsed file to a flat model description.
 *
 * Picks the model, resolves type names as Modelica does (enclosing
 * classes, imports, the `within` package, full paths, then flange's short
 * names), evaluates parameters and modifiers in the scope where they are
 * written, expands user-defined composite models (their flange and signal
 * connectors become pass-through nodes), drops disabled conditional
 * components with their connections, and turns connect equations into
 * connections between ports of library components. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "library.h"
#include "model.h"
#include "parse/lexer.h"
#include "util/suggest.h"

#include "bundled.h"
#include "classtext.h"
#include "flatten.h"
#include "scope.h"
#include "symbolic/func.h"
#include "tabload.h"

static const fl_class *tcache_get(const ictx *ic, const fl_class_ast *lex, const char *type)
{
    if (!ic->captc) return NULL;
    size_t j = (((uintptr_t)lex >> 4) * 31 + ((uintptr_t)type >> 4)) & (ic->captc - 1);
    for (; ic->tc[j].type; j = (j + 1) & (ic->captc - 1))
        if (ic->tc[j].type == type && ic->tc[j].lex == lex) return ic->tc[j].cls;
    return NULL;
}

static void tcache_put(ictx *ic, const fl_class_ast *lex, const char *type, const fl_class *cls)
{
    if (2 * (ic->ntc + 1) > ic->captc) {
        size_t ncap = ic->captc ? 2 * ic->captc : 64;
        struct tcache *old = ic->tc;
        size_t oldcap = ic->captc;
        ic->tc = fl_xcalloc(ncap, sizeof *ic->tc);
        ic->captc = ncap;
        ic->ntc = 0;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].type) tcache_put(ic, old[i].lex, old[i].type, old[i].cls);
        free(old);
    }
    size_t j = (((uintptr_t)lex >> 4) * 31 + ((uintptr_t)type >> 4)) & (ic->captc - 1);
    while (ic->tc[j].type) j = (j + 1) & (ic->captc - 1);
    ic->tc[j].lex = lex;
    ic->tc[j].type = type;
    ic->tc[j].cls = cls;
    ic->ntc++;
}


/* ------------------------------------------------------------------------
 * Name resolution
 * ------------------------------------------------------------------------ */

static const char *const known_packages[] = {
    "Modelica", "Modelica.Constants", "Modelica.Math", "Modelica.Units", "Modelica.Units.SI",
    "Modelica.Units.NonSI", "Modelica.SIunits", "Modelica.Icons", "Modelica.Blocks",
    "Modelica.Blocks.Types", "Modelica.Blocks.Interfaces", "Modelica.Mechanics",
    "Modelica.Mechanics.Translational", "Modelica.Mechanics.Translational.Interfaces",
    "Modelica.Mechanics.Rotational", "Modelica.Mechanics.Rotational.Interfaces",
    "Modelica.Mechanics.Translational.Examples", "Modelica.Mechanics.Translational.Examples.Utilities",
    "Modelica.Electrical", "Modelica.Electrical.Machines", "Modelica.Electrical.Machines.Thermal",
    "Modelica.Electrical.Machines.Thermal.Constants", "Flange", "Flange.Types",
};

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Does a library class, package, type or constant of this full path exist? */
static int lib_exists(const char *path)
{
    for (size_t i = 0; i < sizeof known_packages / sizeof known_packages[0]; i++)
        if (strcmp(known_packages[i], path) == 0) return 1;
    if (fl_class_find(path) || fl_package_exists(path) || fl_enum_find(path)) return 1;
    /* the classes flange carries as text and their packages, for names
     * written relative to a within clause (SpringDamperNoRelativeStates in
     * a file within Modelica.Mechanics.Rotational.Examples.Utilities) */
    if (fl_bundled_class(path) || fl_bundled_package(path)) return 1;
    if (starts_with(path, "Modelica.Units.SI.") || starts_with(path, "Modelica.SIunits.") ||
        starts_with(path, "Modelica.Units.NonSI.") || starts_with(path, "Modelica.Icons.") ||
        starts_with(path, "Modelica.Constants.") || starts_with(path, "Modelica.Math.") ||
        starts_with(path, "Modelica.Mechanics.Translational.Interfaces.") ||
        starts_with(path, "Modelica.Mechanics.Rotational.Interfaces.") ||
        starts_with(path, "Modelica.Blocks.Interfaces.") ||
        starts_with(path, "Modelica.Electrical.Machines.Thermal.Constants.") ||
        strcmp(path, "Modelica.Mechanics.Translational.Examples.Utilities.GenerateStribeckFrictionTable") == 0)
        return 1;
    return 0;
}

/* A class nested in c: written inside it, or (a package of a library
 * stored as a directory) in a file of its own, read on first use. */
static const fl_class_ast *find_nested(fl_libs *libs, const fl_class_ast *c, const char *name, size_t len)
{
    for (size_t i = 0; i < c->classes.n; i++)
        if (strlen(c->classes.v[i]->name) == len && strncmp(c->classes.v[i]->name, name, len) == 0)
            return c->classes.v[i];
    return libs ? fl_libs_child(libs, c, name, len) : NULL;
}

/* Follow the remaining dotted parts inside a user class. */
static int descend_user(fl_libs *libs, const fl_class_ast *c, const char *rest, resolved *out)
{
    while (*rest) {
        const char *dot = strchr(rest, '.');
        size_t len = dot ? (size_t)(dot - rest) : strlen(rest);
        c = find_nested(libs, c, rest, len);
        if (!c) return 0;
        rest = dot ? dot + 1 : rest + len;
    }
    out->user = c;
    out->path = NULL;
    return 1;
}

/* The library class of full name path[0..len), NULL if there is none. */
static const fl_class_ast *lib_class(fl_libs *libs, const char *path, size_t len)
{
    const char *end = path + len, *dot = memchr(path, '.', len);
    const fl_class_ast *c = fl_libs_top(libs, path, dot ? (size_t)(dot - path) : len);
    while (c && dot) {
        path = dot + 1;
        dot = memchr(path, '.', (size_t)(end - path));
        c = find_nested(libs, c, path, dot ? (size_t)(dot - path) : (size_t)(end - path));
    }
    return c;
}

/* Resolve a dotted name as written inside lexical class `lex`. Classes of
 * the libraries come last: after the file's classes and flange's. */
static int resolve_name_raw(const ictx *ic, const fl_class_ast *lex, const char *written, resolved *out)
{
    memset(out, 0, sizeof *out);
    fl_libs *libs = ic->libs;
    const char *dot = strchr(written, '.');
    size_t flen = dot ? (size_t)(dot - written) : strlen(written);
    const char *rest = dot ? dot + 1 : "";
    for (const fl_class_ast *c = lex; c; c = c->parent) {
        if (c->name && strlen(c->name) == flen && strncmp(c->name, written, flen) == 0 && c->kind == CK_PACKAGE)
            return descend_user(libs, c, rest, out);
        const fl_class_ast *nested = find_nested(libs, c, written, flen);
        if (nested) return descend_user(libs, nested, rest, out);
        for (size_t i = 0; i < c->imports.n; i++) {
            const fl_import *im = &c->imports.v[i];
            char *base = NULL;
            if (im->alias) {
                if (strlen(im->alias) == flen && strncmp(im->alias, written, flen) == 0) base = fl_xstrdup(im->path);
            } else if (im->wildcard) {
                char *cand = fl_xsprintf("%s.%.*s", im->path, (int)flen, written);
                if (lib_exists(cand) || (libs && lib_class(libs, cand, strlen(cand)))) base = cand;
                else free(cand);
            } else if (im->nnames) {
                for (int k = 0; k < im->nnames; k++)
                    if (strlen(im->names[k]) == flen && strncmp(im->names[k], written, flen) == 0)
                        base = fl_xsprintf("%s.%s", im->path, im->names[k]);
            } else {
                const char *last = strrchr(im->path, '.');
                last = last ? last + 1 : im->path;
                if (strlen(last) == flen && strncmp(last, written, flen) == 0) base = fl_xstrdup(im->path);
            }
            if (base) {
                out->path = *rest ? fl_xsprintf("%s.%s", base, rest) : fl_xstrdup(base);
                free(base);
                /* an imported class of the libraries */
                char *full = out->path, *dot1 = strchr(full, '.');
                size_t len1 = dot1 ? (size_t)(dot1 - full) : strlen(full);
                char *head = fl_xstrndup(full, len1);
                const fl_class_ast *top = libs && !lib_exists(head) ? fl_libs_top(libs, full, len1) : NULL;
                free(head);
                if (!top) return 1;
                int ok = descend_user(libs, top, dot1 ? dot1 + 1 : "", out);
                if (!ok) out->path = NULL;
                free(full);
                return ok;
            }
        }
    }
    /* top-level classes of the file live in the within package */
    for (size_t i = 0; i < ic->file->classes.n; i++) {
        const fl_class_ast *c = ic->file->classes.v[i];
        if (strlen(c->name) == flen && strncmp(c->name, written, flen) == 0) return descend_user(libs, c, rest, out);
    }
    /* the within package and its parents (a library class has them as its
     * enclosing classes: it is not within the model file's package) */
    const fl_class_ast *root = lex;
    while (libs && root && root->parent) root = root->parent;
    const char *within = ic->file->within && !fl_libs_has(libs, root) ? ic->file->within : "";
    char *scope = fl_xstrdup(within);
    for (;;) {
        if (*scope) {
            char *first = fl_xsprintf("%s.%.*s", scope, (int)flen, written);
            int exists = lib_exists(first);
            free(first);
            if (exists) {
                out->path = fl_xsprintf("%s.%s", scope, written);
                free(scope);
                return 1;
            }
            const fl_class_ast *pkg = libs ? lib_class(libs, scope, strlen(scope)) : NULL;
            const fl_class_ast *hit = pkg ? find_nested(libs, pkg, written, flen) : NULL;
            if (hit) {
                free(scope);
                return descend_user(libs, hit, rest, out);
            }
        }
        char *d2 = strrchr(scope, '.');
        if (!*scope) break;
        if (d2) *d2 = '\0';
        else *scope = '\0';
    }
    free(scope);
    /* The MSL packages declare "import SI = Modelica.Units.SI;", which
     * models written within them rely on ("parameter SI.Mass m"). */
    if (flen == 2 && strncmp(written, "SI", 2) == 0 && starts_with(within, "Modelica")) {
        out->path = *rest ? fl_xsprintf("Modelica.Units.SI.%s", rest) : fl_xstrdup("Modelica.Units.SI");
        return 1;
    }
    char *first = fl_xstrndup(written, flen);
    int exists = lib_exists(first) || strcmp(first, "StateSelect") == 0;
    free(first);
    if (exists) {
        out->path = fl_xstrdup(written);
        return 1;
    }
    const fl_class_ast *top = libs ? fl_libs_top(libs, written, flen) : NULL;
    return top ? descend_user(libs, top, rest, out) : 0;
}

typedef FL_VEC(char *) name_vec;

/* Was a name not found because library files on its way have errors? */
static int lib_broken(const ictx *ic, const fl_class_ast *lex, const char *ty)
{
    const char *dot = strchr(ty, '.');
    size_t len = dot ? (size_t)(dot - ty) : strlen(ty);
    int broken = fl_libs_broken(ic->libs, NULL, ty, len);
    for (const fl_class_ast *c = lex; c && !broken; c = c->parent) broken = fl_libs_broken(ic->libs, c, ty, len);
    char *first = fl_xstrndup(ty, len);
    resolved r = {NULL, NULL};
    const fl_class_ast *c = NULL;
    if (!broken && resolve_name(ic, lex, first, &r)) c = r.user;
    free(r.path);
    free(first);
    while (c && dot) {
        const char *part = dot + 1;
        dot = strchr(part, '.');
        len = dot ? (size_t)(dot - part) : strlen(part);
        const fl_class_ast *next = find_nested(ic->libs, c, part, len);
        if (!next) broken = fl_libs_broken(ic->libs, c, part, len);
        c = next;
    }
    return broken;
}

/* What the libraries add to the message about a name that is not found:
 * where its first part was looked for when it is nowhere (into *where),
 * or else the classes of the package its last part is missing from as
 * suggestions (their names kept in *keep until the message is built).
 * Returns 1 when library files it needs are broken (reported already). */
static int lib_hint(const ictx *ic, const fl_class_ast *lex, const char *ty, fl_suggest *sg, name_vec *keep,
                    fl_buf *where)
{
    if (!ic->libs) return 0;
    if (lib_broken(ic, lex, ty)) return 1;
    const char *dot = strchr(ty, '.'), *last = strrchr(ty, '.');
    char *first = fl_xstrndup(ty, dot ? (size_t)(dot - ty) : strlen(ty));
    resolved r;
    int found = resolve_name(ic, lex, first, &r);
    if (found) free(r.path);
    if (!found) {
        fl_buf_printf(where, " ('%s' not found in the model file, flange's library, ", first);
        fl_libs_where(ic->libs, where);
        fl_buf_addc(where, ')');
    } else if (last) {
        char *pkg = fl_xstrndup(ty, (size_t)(last - ty));
        if (resolve_name(ic, lex, pkg, &r) && r.user) {
            int n = 0;
            const char *const *el = fl_libs_elements(ic->libs, r.user, &n);
            for (int i = 0; i < n || (!el && i < (int)r.user->classes.n); i++) {
                const char *nm = el ? el[i] : r.user->classes.v[i]->name;
                FL_VEC_PUSH(*keep, fl_xsprintf("%s.%s", pkg, nm));
                fl_suggest_add(sg, nm, keep->v[keep->n - 1]);
            }
        } else {
            free(r.path);
        }
        free(pkg);
    }
    free(first);
    return 0;
}

/* Library paths of the interface classes flange carries as text become
 * user classes (their variables and equations join the model). */
int resolve_name(const ictx *ic, const fl_class_ast *lex, const char *written, resolved *out)
{
    if (!resolve_name_raw(ic, lex, written, out)) return 0;
    if (!out->user && out->path) {
        const fl_class_ast *b = fl_bundled_class(out->path);
        if (b) {
            free(out->path);
            out->path = NULL;
            out->user = b;
        }
    }
    return 1;
}

/* ---- functions of the model's files ------------------------------------------ */

/* Full name of a class of the model's files or libraries: its enclosing
 * classes, and for the model file's own classes its within package. */
static char *class_full_path(const ictx *ic, const fl_class_ast *c)
{
    const fl_class_ast *root = c;
    size_t len = 0;
    for (const fl_class_ast *p = c; p; p = p->parent) {
        len += strlen(p->name) + 1;
        root = p;
    }
    const char *bw = fl_bundled_within(root); /* a class flange carries as text */
    const char *within = bw ? bw : ic->file->within && !fl_libs_has(ic->libs, root) ? ic->file->within : "";
    len += strlen(within) + 1;
    char *s = fl_xmalloc(len + 1), *end = s + len;
    *end = '\0';
    for (const fl_class_ast *p = c; p; p = p->parent) {
        size_t n = strlen(p->name);
        end -= n;
        memcpy(end, p->name, n);
        if (p->parent || *within) *--end = '.';
    }
    size_t w = strlen(within);
    end -= w;
    memcpy(end, within, w);
    memmove(s, end, strlen(end) + 1);
    return s;
}

static const fl_class_ast *scope_find_class(void *ctx, const fl_class_ast *from, const char *written, const char **path)
{
    ictx *ic = ctx;
    resolved r;
    *path = NULL;
    free(ic->fpath);
    ic->fpath = NULL;
    if (!resolve_name(ic, from, written, &r)) return NULL;
    ic->fpath = r.user ? class_full_path(ic, r.user) : r.path;
    *path = ic->fpath;
    return r.user;
}

static fl_ufuncs *model_funcs(ictx *ic)
{
    if (!ic->funcs) ic->funcs = fl_ufuncs_new();
    return ic->funcs;
}

int user_function(ictx *ic, const fl_class_ast *lex, const char *written, fl_loc loc)
{
    resolved r;
    FL_UNUSED(loc);
    if (!resolve_name(ic, lex, written, &r)) return -2;
    if (!r.user) {
        free(r.path);
        return -2;
    }
    if (r.user->kind != CK_FUNCTION) return -2;
    char *path = class_full_path(ic, r.user);
    fl_ufunc_scope sc = {ic, scope_find_class, NULL};
    int id = fl_ufuncs_add(model_funcs(ic), r.user, path, &sc, ic->d);
    free(path);
    if (id < 0) ic->failed = 1;
    return id;
}

static const char *resolve_cb(void *ctx, const char *written)
{
    env *e = ctx;
    ictx *ic = e->ic;
    resolved r;
    if (!resolve_name(ic, e->lex_for_eval ? e->lex_for_eval : e->cls, written, &r) || r.user) return NULL;
    free(ic->resolved);
    ic->resolved = r.path;
    return ic->resolved;
}

/* ------------------------------------------------------------------------
 * Parameters of user classes
 * ------------------------------------------------------------------------ */


/* The type of a parameter declaration, through chains of short type
 * definitions (type Length = Real(unit="m")) followed by a loop; a
 * circular chain is found with Brent's method (-3). */
static int param_type(ictx *ic, const fl_class_ast *lex, const fl_decl *dc, ptype *t, const char **enum_type)
{
    const char *ty = dc->type;
    *enum_type = NULL;
    const fl_class_ast *mark = NULL;
    size_t power = 1, lam = 0;
    for (;;) {
        if (strcmp(ty, "Real") == 0) *t = PT_REAL;
        else if (strcmp(ty, "Integer") == 0) *t = PT_INT;
        else if (strcmp(ty, "Boolean") == 0) *t = PT_BOOL;
        else if (strcmp(ty, "String") == 0) *t = PT_STRING;
        else {
            resolved r;
            if (!resolve_name(ic, lex, ty, &r)) return -1;
            if (r.user) {
                if (r.user->is_enum) return -2; /* user enumerations are not supported */
                if (r.user->kind == CK_TYPE && r.user->short_base) {
                    if (r.user == mark) return -3;
                    if (++lam == power) {
                        mark = r.user;
                        power *= 2;
                        lam = 0;
                    }
                    ty = r.user->short_base;
                    lex = r.user->parent;
                    continue;
                }
                return -1;
            }
            int rc = -1;
            if (starts_with(r.path, "Modelica.Units.SI.") || starts_with(r.path, "Modelica.SIunits.") ||
                starts_with(r.path, "Modelica.Units.NonSI.")) {
                *t = PT_REAL;
                rc = 0;
            } else if (fl_enum_find(r.path)) {
                *t = PT_ENUM;
                *enum_type = fl_enum_find(r.path)->path;
                rc = 0;
            }
            free(r.path);
            return rc;
        }
        return 0;
    }
}

static int check_ptype(env *e, pslot *s, fl_loc loc)
{
    fl_value *v = &s->val;
    int ok = 1;
    if (v->kind == V_ARRAY) return 0; /* array parameters: trust the declaration */
    switch (s->type) {
    case PT_REAL: ok = fl_value_is_number(v) && v->kind != V_BOOL; v->kind = V_REAL; break;
    case PT_INT: ok = fl_value_is_number(v) && v->kind != V_BOOL && v->num == floor(v->num); v->kind = V_INT; break;
    case PT_BOOL: ok = v->kind == V_BOOL; break;
    case PT_STRING: ok = v->kind == V_STRING; break;
    case PT_ENUM: ok = v->kind == V_ENUM && strcmp(v->enum_type, s->enum_type) == 0; break;
    }
    if (!ok) {
        fl_err(e->ic->d, loc, "value of parameter '%s%s' does not match its type %s", e->prefix, s->name, s->decl->type);
        return -1;
    }
    if (s->type == PT_INT && (v->num < FL_INT_MIN || v->num > FL_INT_MAX)) {
        fl_err(e->ic->d, loc, "value of Integer parameter '%s%s' is outside the Integer range (-2147483648 to 2147483647)",
               e->prefix, s->name);
        return -1;
    }
    return 0;
}

fl_loc fl_scope_user_loc(const env *e, fl_loc loc)
{
    if (!fl_loc_is_bundled(loc)) return loc;
    while (e && e->up && fl_loc_is_bundled(e->decl_loc)) e = e->up;
    return e && e->decl_loc.file ? e->decl_loc : loc;
}

/* An array value against the sizes its declaration gives (k[nu],
 * K[2, :]; ':' takes any): -1 after reporting a mismatch, or when a size
 * waits for a parameter not evaluated yet (e->need says which). */
static int check_pshape(env *e, pslot *s, fl_loc loc)
{
    const fl_decl *dc = s->decl;
    const fl_value *v = &s->val;
    int nd = dc->ndims + dc->ntype_dims;
    if (nd == 0 || nd > 2 || v->kind != V_ARRAY) return 0;
    int want[2] = {-1, -1}, known = 0;
    /* a size may name the parameter itself (A[:, size(A, 1)]): its value is known now */
    int state = s->state;
    s->state = 2;
    for (int k = 0; k < nd; k++) {
        const fl_expr *x = k < dc->ndims ? dc->dims[k] : dc->type_dims[k - dc->ndims];
        if (x->kind == EX_COLON) continue;
        fl_value d;
        if (eval_in(e, s->lex, x, &d)) {
            s->state = state;
            return -1;
        }
        if (fl_value_is_number(&d) && d.num == floor(d.num) && d.num >= 0 && d.num <= FL_MAX_ARRAY) {
            want[k] = (int)d.num;
            known = 1;
        }
        fl_value_free(&d);
    }
    s->state = state;
    int ok = v->ndims == nd;
    for (int k = 0; k < nd && ok; k++) ok = want[k] < 0 || want[k] == v->dim[k];
    if (ok || !known) return 0;
    char ws[48], vs[48];
    if (nd == 1) snprintf(ws, sizeof ws, "%d element%s", want[0], want[0] == 1 ? "" : "s");
    else if (want[0] < 0) snprintf(ws, sizeof ws, "%d columns", want[1]);
    else if (want[1] < 0) snprintf(ws, sizeof ws, "%d rows", want[0]);
    else snprintf(ws, sizeof ws, "%dx%d elements", want[0], want[1]);
    if (v->ndims == 1) snprintf(vs, sizeof vs, "%d element%s", v->dim[0], v->dim[0] == 1 ? "" : "s");
    else snprintf(vs, sizeof vs, "%dx%d elements", v->dim[0], v->dim[1]);
    fl_err(e->ic->d, loc, "parameter '%s%s' is declared with %s, but its value has %s", e->prefix, s->name, ws, vs);
    return -1;
}

/* The value of s from its modifier, binding or start value. */
static int eval_value(env *e, pslot *s)
{
    int rc;
    if (s->over.mod && s->over.mod->value) {
        rc = eval_pmod(&s->over, s->over.mod->value, &s->val);
        if (!rc) rc = check_ptype(e, s, s->over.mod->loc);
        if (!rc) rc = check_pshape(e, s, s->over.mod->value->loc);
    } else if (s->decl->binding) {
        rc = eval_in(e, s->lex, s->decl->binding, &s->val);
        if (!rc) rc = check_ptype(e, s, s->decl->binding->loc);
        if (!rc) rc = check_pshape(e, s, s->decl->binding->loc);
    } else {
        /* a start attribute serves as value, with a warning (as Modelica tools do) */
        const fl_mod *start = NULL;
        for (int i = 0; i < s->decl->nmods; i++)
            if (strcmp(s->decl->mods[i].name, "start") == 0) start = &s->decl->mods[i];
        if (start && start->value) {
            rc = eval_in(e, s->lex, start->value, &s->val);
            if (!rc) {
                fl_warn(e->ic->d, fl_scope_user_loc(e, s->decl->name_loc),
                        "parameter '%s%s' has no value; using its start value", e->prefix, s->name);
                rc = check_ptype(e, s, s->decl->name_loc);
            }
        } else {
            fl_err(e->ic->d, fl_scope_user_loc(e, s->decl->name_loc), "parameter '%s%s' has no value", e->prefix,
                   s->name);
            rc = -1;
        }
    }
    return rc;
}

typedef FL_VEC(int) int_vec;

/* Push the pending parameters of this scope that the expression of s may
 * need (every name in it, taken branch or not). */
static int push_dependencies(env *e, const pslot *s, int_vec *st)
{
    const fl_expr *x = NULL;
    if (s->over.mod && s->over.mod->value) {
        if (s->over.where == e) x = s->over.mod->value;
    } else if (s->decl->binding) {
        x = s->decl->binding;
    } else {
        for (int i = 0; i < s->decl->nmods; i++)
            if (strcmp(s->decl->mods[i].name, "start") == 0) x = s->decl->mods[i].value;
    }
    size_t n0 = st->n;
    FL_VEC(const fl_expr *) walk = {0};
    while (x) {
        if (x->kind == EX_REF && x->ref.n == 1) {
            int k = fl_map_get(&e->pindex, x->ref.parts[0].name);
            if (k >= 0 && e->params.v[k].state == 0) FL_VEC_PUSH(*st, k);
        }
        if (x->a) FL_VEC_PUSH(walk, x->a);
        if (x->b) FL_VEC_PUSH(walk, x->b);
        if (x->c) FL_VEC_PUSH(walk, x->c);
        for (int i = 0; i < x->nargs; i++) FL_VEC_PUSH(walk, x->args[i]);
        for (int i = 0; i < x->ref.n; i++)
            for (int j = 0; j < x->ref.parts[i].nsubs; j++) FL_VEC_PUSH(walk, x->ref.parts[i].subs[j]);
        x = walk.n ? walk.v[--walk.n] : NULL;
    }
    FL_VEC_FREE(walk);
    return st->n > n0;
}

/* Evaluate parameter s, and before it the parameters of its scope it
 * needs, with an explicit stack instead of recursion through the
 * evaluator: a chain p1 = p2, p2 = p3, ... may be as long as the file.
 * The names in an expression go on the stack first; a parameter reached
 * only through a cycle of names stops the evaluation that needs it
 * (lookup_cb sets e->need) and is evaluated before that one is retried,
 * so a parameter needed while it is being evaluated is a true cycle. */
static int eval_param(env *e, pslot *s)
{
    if (s->state == 2) return 0;
    if (s->state == 3) return -1;
    if (s->state == 1) {
        fl_err(e->ic->d, s->decl->name_loc, "parameter '%s%s' depends on itself", e->prefix, s->name);
        s->state = 3;
        return -1;
    }
    int_vec st = {0};
    FL_VEC_PUSH(st, (int)(s - e->params.v));
    int outer = e->stacking;
    e->stacking = 1;
    while (st.n) {
        pslot *t = &e->params.v[st.v[st.n - 1]];
        if (t->state >= 2) {
            st.n--;
            continue;
        }
        if (!t->scanned) {
            t->scanned = 1;
            if (push_dependencies(e, t, &st)) continue;
        }
        t->state = 1;
        e->need = -1;
        int rc = eval_value(e, t);
        if (e->need >= 0) { /* a pending parameter first, then t again */
            fl_value_free(&t->val);
            FL_VEC_PUSH(st, e->need);
            continue;
        }
        t->state = rc ? 3 : 2;
        st.n--;
    }
    e->stacking = outer;
    FL_VEC_FREE(st);
    return s->state == 2 ? 0 : -1;
}

/* A parameter of one of flange's library components (a C class) read by a
 * parameter expression of the model: `y_start = positionStep.offset`. Its
 * value is the one its modifier set, else the class default evaluated as
 * the compiler will (params.c). The component must be declared before the
 * expression is evaluated (above it in the class). */
typedef struct libpar {
    const fl_minst *in;
    fl_diag *d;
    int depth;
} libpar;

static int lib_param(void *ctx, int k, fl_value *out)
{
    libpar *c = ctx;
    fl_value buf;
    const fl_value *given = fl_minst_par(c->in, k, &buf, NULL);
    if (given && given->kind != V_NONE) {
        *out = fl_value_copy(given);
        return 0;
    }
    if (++c->depth > 20) { /* the class tables' defaults form no cycle; a guard, not a rule */
        fl_err(c->d, c->in->loc, "parameter %s.%s depends on itself", c->in->name, c->in->cls->params[k].name);
        return -1;
    }
    int rc = fl_class_param_text(c->in->cls, k, 0, lib_param, c, out, c->d);
    if (rc == 0) rc = fl_class_param_text(c->in->cls, k, 1, lib_param, c, out, c->d);
    c->depth--;
    if (rc == 0) fl_err(c->d, c->in->loc, "parameter %s.%s has no value", c->in->name, c->in->cls->params[k].name);
    return rc > 0 ? 0 : -1;
}

static int lookup_lib_param(env *e, const fl_ref *ref, fl_value *out, fl_diag *d)
{
    if (ref->n != 2 || ref->parts[0].nsubs) return 0;
    int kind = fl_map_get(&e->elems, ref->parts[0].name);
    if (kind < 0 || (kind & 7) != EL_LIB || (kind >> 3) == 0) return 0;
    const fl_minst *in = &e->ic->m->insts.v[(kind >> 3) - 1];
    for (int k = 0; k < in->cls->nparams; k++) {
        if (strcmp(in->cls->params[k].name, ref->parts[1].name) != 0) continue;
        libpar c = {in, d, 0};
        return lib_param(&c, k, out) ? -1 : 1;
    }
    return 0;
}

static int variable_shape(env *e, const char *name, fl_value *out);

static int lookup_cb(void *ctx, const fl_ref *ref, fl_loc loc, fl_value *out, fl_diag *d)
{
    env *e = ctx;
    FL_UNUSED(loc);
    if (ref->n == 2) return lookup_lib_param(e, ref, out, d);
    if (ref->n != 1) return 0;
    if (!ref->parts[0].nsubs)
        for (const iterb *it = e->iters; it; it = it->next)
            if (strcmp(it->name, ref->parts[0].name) == 0) {
                *out = fl_value_real(it->value);
                out->kind = V_INT;
                return 1;
            }
    int k = fl_map_get(&e->pindex, ref->parts[0].name);
    if (k < 0) return ref->parts[0].nsubs ? 0 : variable_shape(e, ref->parts[0].name, out);
    pslot *s = &e->params.v[k];
    if (s->state == 0 && e->stacking) { /* eval_param evaluates it first, then asks again */
        e->need = k;
        return -1;
    }
    if (eval_param(e, s)) return -1;
    *out = fl_value_copy(&s->val);
    return 1;
}

int eval_pmod(const pmod *p, const fl_expr *value, fl_value *out)
{
    if (eval_in(p->where, p->lex, value, out)) return -1;
    if (p->nelem <= 0 || p->mod->is_each || out->kind != V_ARRAY) return 0;
    /* an array of components modified with an array: each its element */
    if ((int)fl_value_count(out) != p->nelem) {
        fl_err(p->where->ic->d, value->loc, "this modifier has %d values for %d components", (int)fl_value_count(out),
               p->nelem);
        fl_value_free(out);
        return -1;
    }
    double x = out->data[p->elem];
    fl_value_free(out);
    *out = fl_value_real(x);
    return 0;
}

int eval_in(env *e, const fl_class_ast *lex, const fl_expr *x, fl_value *out)
{
    const fl_class_ast *saved = e->lex_for_eval;
    e->lex_for_eval = lex;
    fl_eval_env ev = {lookup_cb, e, resolve_cb};
    fl_ufunc_scope sc = {e->ic, scope_find_class, NULL};
    fl_ufunc_hook h = {model_funcs(e->ic), &sc, lex};
    fl_tabload_hook th = {&h, e}; /* the tables of Modelica.Blocks.Tables, then the user's functions */
    int rc = fl_eval_calls(x, &ev, fl_tabload_eval_hook, &th, out, e->ic->d);
    e->lex_for_eval = saved;
    return rc;
}

/* ------------------------------------------------------------------------
 * Connection graph
 * ------------------------------------------------------------------------ */

int vnode_get(ictx *ic, const char *path, int is_flange, fl_loc loc)
{
    int k = fl_map_get(&ic->node_index, path);
    if (k >= 0) return k;
    vnode n;
    memset(&n, 0, sizeof n);
    n.parent = (int)ic->nodes.n;
    n.is_flange = is_flange;
    n.loc = loc;
    FL_VEC_PUSH(ic->nodes, n);
    fl_map_put(&ic->node_index, path, (int)ic->nodes.n - 1);
    return (int)ic->nodes.n - 1;
}

static uint64_t leaf_key(fl_pref p)
{
    return ((uint64_t)(unsigned)p.inst << 32 | (uint64_t)(unsigned)p.port << 16 | (uint64_t)(unsigned)p.sub) + 1;
}

static size_t leaf_slot(const ictx *ic, uint64_t key)
{
    uint64_t h = key; /* murmur3's finaliser: every key bit moves the slot */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    size_t j = (size_t)h & (ic->leaves.cap - 1);
    while (ic->leaves.keys[j] && ic->leaves.keys[j] != key) j = (j + 1) & (ic->leaves.cap - 1);
    return j;
}

/* The graph node of a library port, created on first use. */
static int leaf_get(ictx *ic, fl_pref p, fl_loc loc);

int fl_lib_port_node(ictx *ic, fl_pref p, fl_loc loc)
{
    return leaf_get(ic, p, loc);
}

static int leaf_get(ictx *ic, fl_pref p, fl_loc loc)
{
    if (2 * (ic->leaves.n + 1) > ic->leaves.cap) {
        size_t oldcap = ic->leaves.cap;
        uint64_t *ok = ic->leaves.keys;
        int *ov = ic->leaves.vals;
        ic->leaves.cap = oldcap ? 2 * oldcap : 1024;
        ic->leaves.keys = fl_xcalloc(ic->leaves.cap, sizeof(uint64_t));
        ic->leaves.vals = fl_xmalloc(sizeof(int) * ic->leaves.cap);
        for (size_t i = 0; i < oldcap; i++) {
            if (!ok[i]) continue;
            size_t j = leaf_slot(ic, ok[i]);
            ic->leaves.keys[j] = ok[i];
            ic->leaves.vals[j] = ov[i];
        }
        free(ok);
        free(ov);
    }
    uint64_t key = leaf_key(p);
    size_t j = leaf_slot(ic, key);
    if (ic->leaves.keys[j]) return ic->leaves.vals[j];
    vnode n;
    memset(&n, 0, sizeof n);
    n.parent = (int)ic->nodes.n;
    n.is_flange = fl_port_domain(&ic->m->insts.v[p.inst].cls->ports[p.port]);
    n.loc = loc;
    n.is_leaf = 1;
    n.leaf = p;
    FL_VEC_PUSH(ic->nodes, n);
    ic->leaves.keys[j] = key;
    ic->leaves.vals[j] = (int)ic->nodes.n - 1;
    ic->leaves.n++;
    return (int)ic->nodes.n - 1;
}

/* "inst.port" of library component inst without building strings: 0 and
 * *p set, or -1 when the slow path (subscripts, messages) must decide. */
static int lib_port_fast(env *e, int inst, const fl_ref *r, fl_pref *p)
{
    if (inst < 0 || r->parts[1].nsubs) return -1;
    const fl_class *c = e->ic->m->insts.v[inst].cls;
    int port = fl_class_port(c, r->parts[1].name);
    if (port < 0 || c->ports[port].width != 0) return -1;
    p->inst = inst;
    p->port = port;
    p->sub = 0;
    return 0;
}

int vfind(ictx *ic, int x)
{
    while (ic->nodes.v[x].parent != x) {
        ic->nodes.v[x].parent = ic->nodes.v[ic->nodes.v[x].parent].parent;
        x = ic->nodes.v[x].parent;
    }
    return x;
}

/* Offer the keys of a map that start with prefix and have no further dot
 * (the elements of one scope, the connectors of one composite). */
static void suggest_keys(fl_suggest *sg, const fl_map *m, const char *prefix)
{
    size_t n = strlen(prefix);
    for (size_t j = 0; j < m->cap; j++) {
        const char *k = fl_map_slot_key(m, j);
        if (k && strncmp(k, prefix, n) == 0 && !strchr(k + n, '.')) fl_suggest_add(sg, k + n, k + n);
    }
}

/* The name of element k (0-based, row-major) of an array declared with
 * nd dimensions dims: "m[3]", "grid[2,1]" (as connect() references and
 * results name it). */
static char *element_name(const char *name, int k, int nd, const int *dims)
{
    if (nd == 2 && dims[1] > 0) return fl_xsprintf("%s[%d,%d]", name, k / dims[1] + 1, k % dims[1] + 1);
    return fl_xsprintf("%s[%d]", name, k + 1);
}

/* The name of a part of a connect() reference with its subscripts
 * evaluated ("m[3]", "grid[2,1]"; for-loop iterators in scope), NULL after
 * reporting. Elements of component and connector arrays are named so. */
static char *evaluated_part(env *e, const fl_ref_part *p, fl_loc loc)
{
    if (!p->nsubs) return fl_xstrdup(p->name);
    fl_buf b = {0};
    fl_buf_printf(&b, "%s[", p->name);
    for (int k = 0; k < p->nsubs; k++) {
        fl_value v;
        if (eval_in(e, e->lex_for_eval ? e->lex_for_eval : e->cls, p->subs[k], &v)) {
            fl_buf_free(&b);
            return NULL;
        }
        double x = fl_value_is_number(&v) ? v.num : NAN;
        fl_value_free(&v);
        if (!(x >= 1 && x <= 1e9 && x == floor(x))) {
            fl_err(e->ic->d, p->subs[k]->loc, "the subscript of '%s' in connect() must be a positive Integer", p->name);
            fl_buf_free(&b);
            return NULL;
        }
        fl_buf_printf(&b, "%s%ld", k ? "," : "", (long)x);
    }
    fl_buf_addc(&b, ']');
    return fl_buf_take(&b);
}

/* Resolve one side of a connect() in scope e to a graph node; returns -2 if
 * it refers to a disabled conditional component (drop the connect). */
static int connect_side(env *e, const fl_ref *r, fl_loc loc)
{
    /* subscripts: the same reference with evaluated element names */
    int subs = 0;
    for (int i = 0; i < r->n; i++) subs |= r->parts[i].nsubs > 0;
    if (subs) {
        int base = fl_map_get(&e->elems, r->parts[0].name);
        if (base >= 0 && ((base & 7) == EL_FAILED || (base & 7) == EL_DISABLED)) return -2;
        fl_ref_part parts[8];
        fl_ref er = {parts, r->n};
        int node = -3;
        if (r->n <= 8) {
            int ok = 1;
            for (int i = 0; i < r->n; i++) {
                parts[i].subs = NULL;
                parts[i].nsubs = 0;
                parts[i].name = ok ? evaluated_part(e, &r->parts[i], loc) : NULL;
                if (!parts[i].name) ok = 0;
            }
            if (ok) node = connect_side(e, &er, loc);
            else e->ic->failed = 1;
            for (int i = 0; i < r->n; i++) free(parts[i].name);
        }
        return node;
    }
    ictx *ic = e->ic;
    char *text = NULL;
    int node = -1;
    const char *first = r->parts[0].name;
    fl_pref p;
    int el = fl_map_get(&e->elems, first);
    int kind = el < 0 ? -1 : el & 7, inst = el < 0 ? -1 : (el >> 3) - 1;
    if (kind == EL_DISABLED || kind == EL_FAILED) {
        node = -2; /* absent, or its error is reported: no follow-up messages */
    } else if (kind == EL_CONNECTOR && r->n == 1) {
        char *path = fl_xcat(e->prefix, first, (char *)NULL);
        node = fl_map_get(&ic->node_index, path);
        free(path);
    } else if (kind == EL_COMPOSITE && r->n == 2 && !r->parts[1].nsubs) {
        char *path = fl_xsprintf("%s%s.%s", e->prefix, first, r->parts[1].name);
        node = fl_map_get(&ic->node_index, path);
        free(path);
        if (node < 0) {
            char *inner = fl_xsprintf("%s%s.", e->prefix, first);
            fl_suggest sg;
            fl_suggest_init(&sg, r->parts[1].name);
            suggest_keys(&sg, &ic->node_index, inner);
            fl_buf b = {0};
            fl_buf_printf(&b, "'%s' has no connector '%s'", first, r->parts[1].name);
            fl_suggest_append(&sg, &b);
            fl_err(ic->d, loc, "%s", b.s);
            fl_buf_free(&b);
            free(inner);
            node = -3;
        }
    } else if (kind == EL_LIB && r->n == 2 && lib_port_fast(e, inst, r, &p) == 0) {
        node = leaf_get(ic, p, loc);
    } else if (kind == EL_LIB && r->n == 2) {
        text = fl_ref_str(r);
        char *path = fl_xsprintf("%s%s", e->prefix, text);
        node = fl_model_port_ref(ic->m, path, &p, loc, ic->d) == 0 ? leaf_get(ic, p, loc) : -3;
        free(path);
    } else if (kind < 0) {
        fl_suggest sg;
        fl_suggest_init(&sg, first);
        suggest_keys(&sg, &e->elems, "");
        fl_buf b = {0};
        fl_buf_printf(&b, "unknown component '%s' in connect()", first);
        fl_suggest_append(&sg, &b);
        fl_err(ic->d, loc, "%s", b.s);
        fl_buf_free(&b);
        node = -3;
    } else {
        text = fl_ref_str(r);
        fl_err(ic->d, loc, "cannot connect '%s': expected component.connector", text);
        node = -3;
    }
    free(text);
    return node;
}

/* The evaluated parts of a connect() side (subscripts of component arrays
 * as element names, "blk[2]"); with elem > 0 part `at` names that
 * element: of its vector ("y[3]", whatever subscript it had: a slice or
 * ':'), or of an array of components ("sine[3]" in sine.y). NULL after
 * reporting a bad subscript. Free with free_parts. */
static fl_ref_part *evaluated_parts(env *e, const fl_ref *r, int elem, int at, fl_loc loc)
{
    fl_ref_part *parts = fl_xcalloc((size_t)r->n, sizeof *parts);
    for (int i = 0; i < r->n; i++) {
        if (elem > 0 && i == at) parts[i].name = fl_xsprintf("%s[%d]", r->parts[i].name, elem);
        else parts[i].name = evaluated_part(e, &r->parts[i], loc);
        if (!parts[i].name) {
            for (int j = 0; j < i; j++) free(parts[j].name);
            free(parts);
            return NULL;
        }
    }
    return parts;
}

static void free_parts(fl_ref_part *parts, int n)
{
    for (int i = 0; parts && i < n; i++) free(parts[i].name);
    free(parts);
}

/* A connect() side as a vector of signals. */
typedef struct vside {
    int n;    /* how many: 0 a scalar connector or one element; -1 a vector of a library
               * class whose width the compiler decides (CombiTimeTable.y); -2 after
               * reporting; -3 a component that is absent or in error (the connect goes,
               * without further messages) */
    int *idx; /* the element numbers of a slice (y[2:3], y[{1, 3}]); NULL: 1..n */
    int at;   /* the part the element number goes to: the last (a vector connector),
               * or the first (an array of components, sine.y for sine[3]) */
} vside;

/* The elements a slice subscript (a range or an array; ':' is the whole
 * vector) selects: 0 and s->idx set, 1 for another subscript, -1 after
 * reporting. */
static int slice_side(env *e, const fl_ref_part *p, vside *s)
{
    const fl_expr *x = p->subs[0];
    if (x->kind == EX_COLON) return 0;
    if (x->kind != EX_RANGE && x->kind != EX_ARRAY) return 1;
    fl_value v;
    if (eval_in(e, e->lex_for_eval ? e->lex_for_eval : e->cls, x, &v)) return -1;
    int ok = v.kind == V_ARRAY && v.ndims == 1;
    for (int k = 0; ok && k < v.dim[0]; k++) ok = v.data[k] >= 1 && v.data[k] <= 1e9 && v.data[k] == floor(v.data[k]);
    if (ok) {
        s->n = v.dim[0];
        s->idx = fl_xmalloc(sizeof(int) * (size_t)(s->n ? s->n : 1));
        for (int k = 0; k < s->n; k++) s->idx[k] = (int)v.data[k];
    } else {
        fl_err(e->ic->d, x->loc, "the subscript of '%s' in connect() must be positive Integers", p->name);
    }
    fl_value_free(&v);
    return ok ? 0 : -1;
}

/* The vector of signals a connect() side names (see vside). Whole vectors
 * and slices connect element by element, as Modelica does. */
static vside side_width(env *e, const fl_ref *r, fl_loc loc)
{
    vside s = {0, NULL, r->n - 1};
    if (r->n < 1 || r->n > 2) return s;
    ictx *ic = e->ic;
    const fl_ref_part *last = &r->parts[r->n - 1];
    if (last->nsubs > 1) return s;
    if (last->nsubs == 1) {
        int rc = slice_side(e, last, &s);
        if (rc > 0) return s;
        if (rc < 0) {
            ic->failed = 1;
            s.n = -2;
            return s;
        }
    }
    /* the component (an element of an array evaluated), its kind */
    char *first = evaluated_part(e, &r->parts[0], loc);
    if (!first) {
        ic->failed = 1;
        free(s.idx);
        s.idx = NULL;
        s.n = -2;
        return s;
    }
    int el = fl_map_get(&e->elems, first);
    int kind = el < 0 ? -1 : el & 7, n = 0;
    if (kind == EL_DISABLED || kind == EL_FAILED) {
        free(s.idx);
        s.idx = NULL;
        s.n = -3;
    } else if (s.idx) {
        /* a slice: its elements, found or reported when each is connected */
    } else if (r->n == 1 && (kind == EL_CONNECTOR || kind == EL_ARRAY)) {
        for (;;) {
            char *en = fl_xsprintf("%s[%d]", first, n + 1);
            int ek = fl_map_get(&e->elems, en);
            free(en);
            if (ek < 0 || (ek & 7) != EL_CONNECTOR) break;
            n++;
        }
        s.n = n;
    } else if (r->n == 2 && kind == EL_COMPOSITE) {
        for (;;) {
            char *path = fl_xsprintf("%s%s.%s[%d]", e->prefix, first, last->name, n + 1);
            int node = fl_map_get(&ic->node_index, path);
            free(path);
            if (node < 0 || ic->nodes.v[node].is_flange) break;
            n++;
        }
        s.n = n;
    } else if (r->n == 2 && kind == EL_ARRAY && !last->nsubs && !r->parts[0].nsubs) {
        /* a connector of every element of an array of components (sine.y
         * of sine[3]): a vector, element k being sine[k].y */
        for (;;) {
            char *en = fl_xsprintf("%s[%d]", first, n + 1);
            int ek = fl_map_get(&e->elems, en);
            free(en);
            if (ek < 0) break;
            n++;
        }
        s.n = n;
        s.at = 0;
    } else if (r->n == 2 && kind == EL_LIB) {
        const fl_class *c = ic->m->insts.v[(el >> 3) - 1].cls;
        int port = fl_class_port(c, last->name);
        if (port >= 0 && c->ports[port].kind != FL_PORT_FLANGE) s.n = c->ports[port].width;
    }
    free(first);
    return s;
}

static int connect_nodes(env *e, const fl_connect *cn);

/* connect() of vectors: element k of one side to element k of the other;
 * the sizes must agree (a library vector of open width takes the other
 * side's). */
static void connect_vectors(env *e, const fl_connect *cn, const vside *a, const vside *b)
{
    ictx *ic = e->ic;
    int wa = a->n, wb = b->n;
    int n = wa > 0 || a->idx ? wa : wb;
    if (wa >= 0 && wb >= 0 && (wa != wb || (!wa && (a->idx || b->idx)))) {
        char *sa = fl_ref_str(&cn->a), *sb = fl_ref_str(&cn->b);
        int na = wa || a->idx ? wa : 1, nb = wb || b->idx ? wb : 1;
        fl_err(ic->d, cn->loc, "cannot connect %s (%d signal%s) to %s (%d signal%s): the sizes differ", sa, na,
               na == 1 ? "" : "s", sb, nb, nb == 1 ? "" : "s");
        free(sa);
        free(sb);
        ic->failed = 1;
        return;
    }
    int bad = 0;
    for (int k = 1; k <= n && !bad; k++) {
        int ea = a->idx ? a->idx[k - 1] : wa ? k : 0, eb = b->idx ? b->idx[k - 1] : wb ? k : 0;
        fl_ref_part *pa = evaluated_parts(e, &cn->a, ea, a->at, cn->loc_a);
        fl_ref_part *pb = pa ? evaluated_parts(e, &cn->b, eb, b->at, cn->loc_b) : NULL;
        if (pa && pb) {
            fl_connect one = *cn;
            one.a.parts = pa;
            one.b.parts = pb;
            bad = connect_nodes(e, &one);
        } else {
            ic->failed = bad = 1;
        }
        free_parts(pa, cn->a.n);
        free_parts(pb, cn->b.n);
    }
}

void add_connect(env *e, const fl_connect *cn)
{
    if (fl_uconn_connect(e, cn)) return; /* connectors of user connector classes */
    vside a = side_width(e, &cn->a, cn->loc_a);
    vside b = {0, NULL, 0};
    if (a.n != -2) b = side_width(e, &cn->b, cn->loc_b);
    /* a vector or a slice on either side; a library vector against a
     * scalar or another open one keeps the message that it needs an index */
    if (a.n <= -2 || b.n <= -2) {
        /* reported, or absent */
    } else if (a.n > 0 || b.n > 0 || a.idx || b.idx) {
        connect_vectors(e, cn, &a, &b);
    } else {
        (void)connect_nodes(e, cn);
    }
    free(a.idx);
    free(b.idx);
}

/* connect() of two scalar connectors: their graph nodes joined; -1
 * after reporting. */
static int connect_nodes(env *e, const fl_connect *cn)
{
    ictx *ic = e->ic;
    int a = connect_side(e, &cn->a, cn->loc_a);
    int b = connect_side(e, &cn->b, cn->loc_b);
    if (a == -3 || b == -3) {
        ic->failed = 1;
        return -1;
    }
    if (a == -2 || b == -2) return 0; /* conditional component absent: connect removed */
    if (a < 0 || b < 0) {
        fl_err(ic->d, cn->loc, "cannot resolve connect()");
        ic->failed = 1;
        return -1;
    }
    if (!ic->nodes.v[a].is_flange != !ic->nodes.v[b].is_flange) {
        char *sa = fl_ref_str(&cn->a), *sb = fl_ref_str(&cn->b);
        fl_err(ic->d, cn->loc, "cannot connect %s %s to %s %s", ic->nodes.v[a].is_flange ? "flange" : "signal",
               sa, ic->nodes.v[b].is_flange ? "flange" : "signal", sb);
        free(sa);
        free(sb);
        ic->failed = 1;
        return -1;
    }
    if (ic->nodes.v[a].is_flange != ic->nodes.v[b].is_flange) {
        char *sa = fl_ref_str(&cn->a), *sb = fl_ref_str(&cn->b);
        fl_err(ic->d, cn->loc, "cannot connect %s flange %s to %s flange %s (a gear or a wheel joins the domains)",
               fl_domain_info(ic->nodes.v[a].is_flange)->word, sa, fl_domain_info(ic->nodes.v[b].is_flange)->word, sb);
        free(sa);
        free(sb);
        ic->failed = 1;
        return -1;
    }
    if (ic->nodes.v[a].vtype != ic->nodes.v[b].vtype) {
        static const char *const tname[] = {"Real", "Integer", "Boolean"};
        char *sa = fl_ref_str(&cn->a), *sb = fl_ref_str(&cn->b);
        fl_err(ic->d, cn->loc, "cannot connect %s signal %s to %s signal %s", tname[ic->nodes.v[a].vtype], sa,
               tname[ic->nodes.v[b].vtype], sb);
        free(sa);
        free(sb);
        ic->failed = 1;
        return -1;
    }
    int ra = vfind(ic, a), rb = vfind(ic, b);
    if (ra != rb) ic->nodes.v[rb].parent = ra;
    return 0;
}

/* ------------------------------------------------------------------------
 * Modifiers
 * ------------------------------------------------------------------------ */

/* The modifications of one instance by the first part of their names: a
 * component may carry thousands of modifiers and its class thousands of
 * elements, so each element finds its own without a scan of all of them.
 * head maps a first part to the first index, next[i] is the next index
 * with the same first part (in order), -1 at the end. */
typedef struct mod_index {
    fl_map head;
    int *next;
} mod_index;

static size_t first_part_len(const char *dotted)
{
    const char *dot = strchr(dotted, '.');
    return dot ? (size_t)(dot - dotted) : strlen(dotted);
}

static void mod_index_build(mod_index *x, const pmod_vec *all)
{
    memset(x, 0, sizeof *x);
    x->next = fl_xmalloc(sizeof(int) * (all->n ? all->n : 1));
    for (size_t i = all->n; i-- > 0;) {
        char *key = fl_xstrndup(all->v[i].name, first_part_len(all->v[i].name));
        x->next[i] = fl_map_get(&x->head, key);
        fl_map_put(&x->head, key, (int)i);
        free(key);
    }
}

static void mod_index_free(mod_index *x)
{
    fl_map_free(&x->head);
    free(x->next);
}

/* Modifications in `all` that target element `name`, as sub-modifications. */
static void mods_for(pmod_vec *all, const mod_index *x, const char *name, pmod_vec *out)
{
    size_t n = strlen(name);
    for (int i = fl_map_get(&x->head, name); i >= 0; i = x->next[i]) {
        pmod *p = &all->v[i];
        if (p->name[n] == '\0') {
            for (int k = 0; k < p->mod->nsubs; k++) {
                pmod q = {&p->mod->subs[k], p->mod->subs[k].name, p->where, p->lex, p->elem, p->nelem};
                FL_VEC_PUSH(*out, q);
            }
            if (p->mod->value) {
                /* a value for the element itself, e.g. "s = 1" on a variable: handled by the caller */
                pmod q = {p->mod, "", p->where, p->lex, p->elem, p->nelem};
                FL_VEC_PUSH(*out, q);
            }
        } else {
            pmod q = {p->mod, p->name + n + 1, p->where, p->lex, p->elem, p->nelem};
            FL_VEC_PUSH(*out, q);
        }
    }
}

/* An attribute given to parameter k of a library instance ("unit" of
 * s_rel0(unit = "mm") = 5): checked by the model's rules for attributes. */
static int param_attr(const pmod *p, int inst, int k, const fl_mod *am, const char *attr)
{
    ictx *ic = p->where->ic;
    if (!am->value) return 0;
    fl_value v;
    if (eval_pmod(p, am->value, &v)) return -1;
    int rc = fl_model_param_attr(ic->m, inst, k, attr, &v, am->loc, ic->d);
    fl_value_free(&v);
    return rc;
}

/* Apply modifications to a library component instance. */
static int apply_lib_mods(env *e, int inst, pmod_vec *mods)
{
    ictx *ic = e->ic;
    fl_minst *in = &ic->m->insts.v[inst];
    int rc = 0;
    for (size_t i = 0; i < mods->n; i++) {
        pmod *p = &mods->v[i];
        const fl_mod *md = p->mod;
        if (!*p->name) {
            fl_err(ic->d, md->loc, "a component cannot be given a value");
            rc = -1;
            continue;
        }
        const char *dot = strchr(p->name, '.');
        char *owned = dot ? fl_xstrndup(p->name, (size_t)(dot - p->name)) : NULL;
        const char *head = owned ? owned : p->name;
        int k = fl_class_param(in->cls, head);
        int vk = fl_class_var(in->cls, head);
        if (k >= 0 && !dot) {
            if (md->value) {
                fl_value v;
                if (eval_pmod(p, md->value, &v)) {
                    rc = -1;
                } else {
                    /* (a modifier in flange's MSL text: messages point at the user's declaration) */
                    if (fl_model_set_param(ic->m, inst, k, &v, fl_scope_user_loc(p->where, md->loc), ic->d)) rc = -1;
                    fl_value_free(&v);
                }
            }
            /* attributes of parameters: a unit must be the declared one, the
             * rest (displayUnit, min, ...) carry no meaning here */
            for (int s = 0; s < md->nsubs; s++)
                if (param_attr(p, inst, k, &md->subs[s], md->subs[s].name)) rc = -1;
        } else if (k >= 0) {
            /* m.unit = "g" */
            if (param_attr(p, inst, k, md, dot + 1)) rc = -1;
        } else if (vk >= 0) {
            /* s(start = 1, fixed = true) or s.start = 1 */
            if (dot) {
                if (md->value) {
                    fl_value v;
                    if (eval_pmod(p, md->value, &v)) rc = -1;
                    else {
                        if (fl_model_set_value(ic->m, inst, p->name, &v, md->loc, ic->d)) rc = -1;
                        fl_value_free(&v);
                    }
                }
            } else {
                if (md->value) {
                    fl_err(ic->d, md->loc, "%s.%s is a variable; set its start value with %s(start = ...)",
                           in->name, head, head);
                    rc = -1;
                }
                for (int s = 0; s < md->nsubs; s++) {
                    const fl_mod *sm = &md->subs[s];
                    if (!sm->value) continue;
                    fl_value v;
                    if (eval_pmod(p, sm->value, &v)) {
                        rc = -1;
                        continue;
                    }
                    char *field = fl_xcat(head, ".", sm->name, (char *)NULL);
                    if (fl_model_set_value(ic->m, inst, field, &v, sm->loc, ic->d)) rc = -1;
                    free(field);
                    fl_value_free(&v);
                }
            }
        } else if (fl_class_port(in->cls, head) >= 0) {
            fl_err(ic->d, md->loc, "modifying connector '%s' of %s is not supported", head, in->name);
            rc = -1;
        } else {
            fl_model_no_param(ic->m, inst, head, !md->value && md->nsubs, md->loc, ic->d);
            rc = -1;
        }
        free(owned);
    }
    return rc;
}

/* ------------------------------------------------------------------------
 * Classes
 * ------------------------------------------------------------------------ */

/* Icon classes (Modelica.Icons.*, Modelica.Blocks.Icons.*, the Icons
 * package of any library of the MSL) carry only graphics: extending them
 * adds nothing. */
static int is_icon(const char *path)
{
    return starts_with(path, "Modelica.") && (starts_with(path, "Modelica.Icons.") || strstr(path, ".Icons.") != NULL);
}

typedef enum conn_kind { CONN_NONE, CONN_FLANGE, CONN_SIGNAL } conn_kind;

/* The signal connectors of Modelica.Blocks.Interfaces and the type of
 * their value (the Vector forms are the same connectors, drawn
 * differently). */
static const struct {
    const char *name;
    unsigned char vtype;
} signal_connectors[] = {
    {"RealInput", FL_VT_REAL},          {"RealOutput", FL_VT_REAL},
    {"RealVectorInput", FL_VT_REAL},    {"RealVectorOutput", FL_VT_REAL},
    {"BooleanInput", FL_VT_BOOLEAN},    {"BooleanOutput", FL_VT_BOOLEAN},
    {"BooleanVectorInput", FL_VT_BOOLEAN}, {"BooleanVectorOutput", FL_VT_BOOLEAN},
    {"IntegerInput", FL_VT_INTEGER},    {"IntegerOutput", FL_VT_INTEGER},
    {"IntegerVectorInput", FL_VT_INTEGER}, {"IntegerVectorOutput", FL_VT_INTEGER},
};

/* The domain of a flange connector of the MSL (0: not one). */
static int connector_domain(const char *path)
{
    static const char *const pkgs[] = {"Modelica.Mechanics.Translational.Interfaces.",
                                       "Modelica.Mechanics.Rotational.Interfaces."};
    static const char *const names[] = {"Flange_a", "Flange_b", "Flange", "Support"};
    for (int d = 0; d < 2; d++) {
        size_t n = strlen(pkgs[d]);
        if (strncmp(path, pkgs[d], n) != 0) continue;
        for (int k = 0; k < 4; k++)
            if (strcmp(path + n, names[k]) == 0) return d ? FL_DOM_ROT : FL_DOM_TRANS;
    }
    return 0;
}

/* *vtype: the value type of a signal connector (FL_VT_*). */
static conn_kind connector_kind(const char *path, unsigned char *vtype)
{
    *vtype = FL_VT_REAL;
    if (connector_domain(path)) return CONN_FLANGE;
    static const char pkg[] = "Modelica.Blocks.Interfaces.";
    if (strncmp(path, pkg, sizeof pkg - 1) != 0) return CONN_NONE;
    for (size_t i = 0; i < sizeof signal_connectors / sizeof signal_connectors[0]; i++)
        if (strcmp(path + sizeof pkg - 1, signal_connectors[i].name) == 0) {
            *vtype = signal_connectors[i].vtype;
            return CONN_SIGNAL;
        }
    return CONN_NONE;
}

/* Collect declarations of a class and its (user) base classes. */
typedef struct elem {
    const fl_decl *decl;
    const fl_class_ast *lex;
    pmod_vec extra; /* modifiers from extends clauses */
} elem;
typedef FL_VEC(elem) elem_vec;

typedef FL_VEC(const fl_connect *) connect_vec;
typedef FL_VEC(eqlist) eqlist_vec;

/* Base classes of base classes ... (README.md, "Limits"). */
#define FL_MAX_EXTENDS_DEPTH 20

/* seen: the classes already collected for this instance. A class reached
 * again through another extends clause (A extends B, C; C extends B)
 * adds nothing new (Modelica merges identical inherited elements), and
 * collecting it once keeps a lattice of extends clauses linear instead of
 * exponential. */
static int collect(ictx *ic, env *e, const fl_class_ast *c, elem_vec *els, connect_vec *conns, eqlist_vec *eqs,
                   pmod_vec *ext_mods, int depth, fl_map *seen)
{
    char key[2 * sizeof(void *) + 8];
    snprintf(key, sizeof key, "%p", (const void *)c);
    int state = fl_map_get(seen, key); /* 1: its extends are being collected, 2: done */
    if (state == 2) return 0;
    if (state == 1) {
        fl_err(ic->d, c->loc, "class '%s' extends itself (through its base classes)", c->name);
        return -1;
    }
    if (depth > FL_MAX_EXTENDS_DEPTH) {
        fl_err(ic->d, c->loc, "extends clauses nested more than %d levels deep (in '%s')", FL_MAX_EXTENDS_DEPTH,
               c->name);
        return -1;
    }
    fl_map_put(seen, key, 1);
    for (size_t i = 0; i < c->unsupported.n; i++) {
        fl_err(ic->d, c->unsupported.v[i].loc, "%s are not supported by flange", c->unsupported.v[i].what);
        ic->failed = 1;
    }
    for (size_t i = 0; i < c->extends.n; i++) {
        const fl_extends *ex = &c->extends.v[i];
        resolved r;
        if (!resolve_name(ic, c, ex->base, &r)) {
            fl_buf where = {0};
            fl_suggest sg;
            name_vec keep = {0};
            const char *last = strrchr(ex->base, '.');
            fl_suggest_init(&sg, last ? last + 1 : ex->base);
            if (lib_hint(ic, c, ex->base, &sg, &keep, &where)) {
                fl_err(ic->d, ex->loc, "class '%s' cannot be used: library files defining it have errors", ex->base);
            } else {
                fl_suggest_append(&sg, &where);
                fl_err(ic->d, ex->loc, "unknown class '%s' in extends%s", ex->base, where.n ? where.s : "");
            }
            fl_buf_free(&where);
            for (size_t k = 0; k < keep.n; k++) free(keep.v[k]);
            FL_VEC_FREE(keep);
            return -1;
        }
        if (!r.user) {
            int icon = is_icon(r.path);
            if (!icon)
                fl_err(ic->d, ex->loc,
                       "extending '%s' is not supported (flange extends the classes of the model's files and "
                       "libraries, the MSL interface classes of README.md, \"Writing your own components\", and icons)",
                       r.path);
            free(r.path);
            if (!icon) return -1;
            continue;
        }
        if (r.user->kind == CK_PACKAGE || r.user->kind == CK_FUNCTION || r.user->kind == CK_TYPE) {
            fl_err(ic->d, ex->loc, "cannot extend '%s' here", ex->base);
            return -1;
        }
        /* modifiers of the extends clause apply to inherited elements, evaluated here */
        /* (pushed before the base's own extends modifiers, so they take precedence) */
        for (int k = 0; k < ex->nmods; k++) {
            pmod p = {&ex->mods[k], ex->mods[k].name, e, c, 0, 0};
            FL_VEC_PUSH(*ext_mods, p);
        }
        if (collect(ic, e, r.user, els, conns, eqs, ext_mods, depth + 1, seen)) return -1;
    }
    for (size_t i = 0; i < c->decls.n; i++) {
        elem el;
        memset(&el, 0, sizeof el);
        el.decl = &c->decls.v[i];
        el.lex = c;
        FL_VEC_PUSH(*els, el);
    }
    for (size_t i = 0; i < c->connects.n; i++) FL_VEC_PUSH(*conns, &c->connects.v[i]);
    if (c->eqs.n) {
        eqlist l = {c->eqs.v, (int)c->eqs.n, c, 0};
        FL_VEC_PUSH(*eqs, l);
    }
    if (c->ieqs.n) {
        eqlist l = {c->ieqs.v, (int)c->ieqs.n, c, 1};
        FL_VEC_PUSH(*eqs, l);
    }
    for (size_t i = 0; i < c->algs.n; i++) {
        fl_err(ic->d, c->algs.v[i].loc, "algorithm sections in models are not supported (write equations, or call a "
                                        "function from an equation)");
        ic->failed = 1;
    }
    fl_map_put(seen, key, 2);
    return 0;
}

static int eval_cond(env *e, const elem *el, int *present)
{
    fl_value v;
    if (eval_in(e, el->lex, el->decl->cond, &v)) return -1;
    if (v.kind != V_BOOL) {
        fl_err(e->ic->d, el->decl->cond->loc, "the condition of a conditional component must be Boolean");
        fl_value_free(&v);
        return -1;
    }
    *present = v.num != 0;
    return 0;
}

static void env_free(env *e)
{
    for (size_t i = 0; i < e->params.n; i++) fl_value_free(&e->params.v[i].val);
    FL_VEC_FREE(e->params);
    fl_map_free(&e->pindex);
    fl_map_free(&e->elems);
    free(e->prefix);
}

/* A declaration in error: connect() equations naming it are dropped
 * without further messages. Returns -1 for the caller's status. */
static int decl_failed(env *e, const fl_decl *dc)
{
    fl_map_put(&e->elems, dc->name, EL_FAILED);
    return -1;
}

/* A type that is not a class of flange: a real MSL class that flange lacks
 * is "not supported"; anything else is unknown, a slip answered with the
 * nearest class names (flange's and the file's own). path is what the
 * name resolved to, NULL if it did not. */
static void report_bad_type(ictx *ic, const fl_class_ast *lex, const fl_decl *dc, const char *path)
{
    const char *ty = dc->type;
    int shown = path && strcmp(ty, path) != 0;
    if (path && fl_class_msl_unsupported(path)) {
        fl_err(ic->d, dc->type_loc, "component type '%s'%s%s%s is not supported by flange (see `flange components`)",
               ty, shown ? " (" : "", shown ? path : "", shown ? ")" : "");
        return;
    }
    const char *last = strrchr(ty, '.');
    last = last ? last + 1 : ty;
    fl_suggest sg;
    fl_suggest_init(&sg, last);
    fl_class_suggest(ty, &sg);
    fl_bundled_suggest(ty, &sg);
    /* models of the file, visible from where the type is written */
    if (last == ty) {
        for (const fl_class_ast *c = lex; c; c = c->parent)
            for (size_t i = 0; i < c->classes.n; i++) fl_suggest_add(&sg, c->classes.v[i]->name, c->classes.v[i]->name);
        for (size_t i = 0; i < ic->file->classes.n; i++)
            fl_suggest_add(&sg, ic->file->classes.v[i]->name, ic->file->classes.v[i]->name);
    }
    fl_buf b = {0}, where = {0};
    name_vec keep = {0};
    if (!path && lib_hint(ic, lex, ty, &sg, &keep, &where)) {
        fl_buf_printf(&b, "component type '%s' cannot be used: library files defining it have errors", ty);
    } else {
        fl_buf_printf(&b, "unknown component type '%s'", ty);
        if (shown) fl_buf_printf(&b, " (%s)", path);
        if (where.n) fl_buf_add(&b, where.s);
        if (!fl_suggest_append(&sg, &b) && !where.n) fl_buf_add(&b, " (see `flange components`)");
    }
    fl_err(ic->d, dc->type_loc, "%s", b.s);
    fl_buf_free(&b);
    fl_buf_free(&where);
    for (size_t i = 0; i < keep.n; i++) free(keep.v[i]);
    FL_VEC_FREE(keep);
}

/* Everything one instance is made of, gathered from its class and bases. */
typedef struct iparts {
    elem_vec els;
    connect_vec conns;
    eqlist_vec eqs;
    pmod_vec ext_mods;
    pmod_vec all;   /* outer modifiers first, then those of extends clauses */
    mod_index mix;
    fl_map elnames;
    int collected;  /* 0: a broken extends left the class incomplete */
    int has_eqs;    /* equations other than plain connects: its signal connectors are variables */
} iparts;

static void iparts_free(iparts *ip)
{
    for (size_t i = 0; i < ip->els.n; i++) FL_VEC_FREE(ip->els.v[i].extra);
    FL_VEC_FREE(ip->els);
    FL_VEC_FREE(ip->conns);
    FL_VEC_FREE(ip->eqs);
    FL_VEC_FREE(ip->ext_mods);
    FL_VEC_FREE(ip->all);
    mod_index_free(&ip->mix);
    fl_map_free(&ip->elnames);
}

/* Declarations, connects, equations and modifiers of the class and its
 * bases; every outer modifier must name an element. */
static int gather_parts(env *e, const fl_class_ast *c, pmod_vec *mods, iparts *ip)
{
    ictx *ic = e->ic;
    fl_map seen = {0};
    int rc = collect(ic, e, c, &ip->els, &ip->conns, &ip->eqs, &ip->ext_mods, 0, &seen);
    fl_map_free(&seen);
    ip->collected = !rc;
    for (size_t i = 0; i < ip->eqs.n; i++)
        if (!ip->eqs.v[i].initial || ip->eqs.v[i].n) ip->has_eqs = 1;
    if (mods) {
        for (size_t i = 0; i < mods->n; i++) {
            pmod p = mods->v[i];
            if (!p.where) p.where = e; /* --param overrides: evaluated in the model itself */
            FL_VEC_PUSH(ip->all, p);
        }
    }
    for (size_t i = 0; i < ip->ext_mods.n; i++) FL_VEC_PUSH(ip->all, ip->ext_mods.v[i]);
    mod_index_build(&ip->mix, &ip->all);
    for (size_t k = 0; k < ip->els.n; k++) fl_map_put(&ip->elnames, ip->els.v[k].decl->name, (int)k);
    /* a value given to a variable (BooleanOutput y = true, or y = ... from
     * outside) is an equation as well: its signal connectors are variables */
    for (size_t k = 0; k < ip->els.n; k++) {
        const fl_decl *dc = ip->els.v[k].decl;
        if (dc->binding && !(dc->prefix & (FL_PFX_PARAMETER | FL_PFX_CONSTANT))) ip->has_eqs = 1;
    }
    for (size_t i = 0; i < ip->all.n; i++) {
        int k = ip->all.v[i].mod->value && !strchr(ip->all.v[i].name, '.') ? fl_map_get(&ip->elnames, ip->all.v[i].name)
                                                                             : -1;
        if (k >= 0 && !(ip->els.v[k].decl->prefix & (FL_PFX_PARAMETER | FL_PFX_CONSTANT))) ip->has_eqs = 1;
    }
    for (size_t i = 0; ip->collected && i < ip->all.n; i++) {
        int found = fl_map_getn(&ip->elnames, ip->all.v[i].name, first_part_len(ip->all.v[i].name)) >= 0;
        if (!found) {
            const char *dot = strchr(ip->all.v[i].name, '.');
            fl_err(ic->d, ip->all.v[i].mod->loc, "'%s' has no element '%.*s'", c->name,
                   dot ? (int)(dot - ip->all.v[i].name) : (int)strlen(ip->all.v[i].name), ip->all.v[i].name);
            rc = -1;
        }
    }
    return rc;
}

/* Pass 1: parameters (evaluated lazily, in any order). A declaration in
 * error is reported and the others are still checked: one run lists
 * every independent error. A parameter that failed stays in the table,
 * failed, so that what refers to it fails without more messages. */
static void element_mods(env *e, iparts *ip, const elem *el, pmod_vec *sub);

/* A variable array of the instance read by a parameter's expression: its
 * shape, for size(reset, 1) (the MSL's RadioButtonSource), with values
 * that are no numbers. 1, or 0 when name is no variable array of it. */
static int variable_shape(env *e, const char *name, fl_value *out)
{
    iparts *ip = e->ip;
    int k = ip ? fl_map_get(&ip->elnames, name) : -1;
    if (k < 0) return 0;
    const elem *el = &ip->els.v[k];
    const fl_decl *dc = el->decl;
    int nd = dc->ndims + dc->ntype_dims;
    if ((dc->prefix & (FL_PFX_PARAMETER | FL_PFX_CONSTANT)) || nd < 1 || nd > 2) return 0;
    unsigned char vt;
    const char *unit;
    int nlits;
    if (!fl_flat_is_var_type(e->ic, el->lex, dc->type, &vt, &unit, &nlits)) return 0;
    long dim[2] = {0, 0};
    for (int j = 0; j < nd; j++) {
        const fl_expr *x = j < dc->ntype_dims ? dc->type_dims[j] : dc->dims[j - dc->ntype_dims];
        if (x->kind == EX_COLON) {
            pmod_vec sub = {0};
            element_mods(e, ip, el, &sub);
            dim[j] = nd == 1 ? fl_unsized_length(dc, &sub) : -1;
            FL_VEC_FREE(sub);
            if (dim[j] < 0) return 0;
            continue;
        }
        fl_value v;
        if (eval_in(e, el->lex, x, &v)) return -1;
        int ok = fl_value_is_number(&v) && v.num == floor(v.num) && v.num >= 0 && v.num <= FL_MAX_ARRAY;
        dim[j] = ok ? (long)v.num : 0;
        fl_value_free(&v);
        if (!ok) return 0;
    }
    size_t n = (size_t)dim[0] * (size_t)(nd == 2 ? dim[1] : 1);
    if (n > FL_MAX_ARRAY) return 0; /* the declaration says so when it is made */
    memset(out, 0, sizeof *out);
    out->kind = V_ARRAY;
    out->ndims = nd;
    out->dim[0] = (int)dim[0];
    out->dim[1] = nd == 2 ? (int)dim[1] : 0;
    out->data = fl_xmalloc(sizeof(double) * (n ? n : 1));
    for (size_t i = 0; i < n; i++) out->data[i] = NAN;
    return 1;
}

static int declare_params(env *e, iparts *ip)
{
    ictx *ic = e->ic;
    int rc = 0;
    for (size_t i = 0; ip->collected && i < ip->els.n; i++) {
        const fl_decl *dc = ip->els.v[i].decl;
        if (!(dc->prefix & (FL_PFX_PARAMETER | FL_PFX_CONSTANT))) continue;
        if (fl_map_get(&e->pindex, dc->name) >= 0) {
            fl_err(ic->d, dc->name_loc, "duplicate declaration of '%s'", dc->name);
            rc = -1;
            continue;
        }
        pslot s;
        memset(&s, 0, sizeof s);
        s.name = dc->name;
        s.decl = dc;
        s.lex = ip->els.v[i].lex;
        int tr = param_type(ic, s.lex, dc, &s.type, &s.enum_type);
        if (tr == -3) {
            fl_err(ic->d, dc->type_loc, "type '%s' of parameter '%s' is defined in terms of itself", dc->type, dc->name);
            rc = -1;
            break;
        }
        if (tr == -2 || (tr < 0 && fl_class_find(dc->type))) {
            fl_err(ic->d, dc->type_loc, "'%s' cannot be the type of parameter '%s'", dc->type, dc->name);
            s.state = 3;
        } else if (tr < 0) {
            fl_err(ic->d, dc->type_loc, "unknown type '%s' of parameter '%s'", dc->type, dc->name);
            s.state = 3;
        }
        for (int k = fl_map_get(&ip->mix.head, dc->name); k >= 0 && !s.over.mod; k = ip->mix.next[k])
            if (strcmp(ip->all.v[k].name, dc->name) == 0) s.over = ip->all.v[k];
        if (!s.state && (dc->prefix & FL_PFX_FINAL) && s.over.mod && s.over.mod->value) {
            fl_err(ic->d, s.over.mod->loc, "parameter '%s' is final and cannot be modified", dc->name);
            s.state = 3;
        }
        if (s.state) rc = -1;
        FL_VEC_PUSH(e->params, s);
        fl_map_put(&e->pindex, dc->name, (int)e->params.n - 1);
    }
    for (size_t i = 0; i < e->params.n; i++)
        if (e->params.v[i].state != 3 && eval_param(e, &e->params.v[i])) rc = -1;
    return rc;
}

/* The modifiers of element name: outer ones first (they win), then the
 * declaration's own, in the order they are applied. */
static void element_mods(env *e, iparts *ip, const elem *el, pmod_vec *sub)
{
    const fl_decl *dc = el->decl;
    mods_for(&ip->all, &ip->mix, dc->name, sub);
    for (int k = dc->nmods; k-- > 0;) { /* backwards: in text order after the reversal */
        pmod p = {&dc->mods[k], dc->mods[k].name, e, el->lex, 0, 0};
        FL_VEC_PUSH(*sub, p);
    }
    /* later entries are applied last, so reverse to let outer ones win */
    for (size_t a = 0, b = sub->n ? sub->n - 1 : 0; a < b; a++, b--) {
        pmod t = sub->v[a];
        sub->v[a] = sub->v[b];
        sub->v[b] = t;
    }
}

/* The shape of a declaration (array dimensions, evaluated): 0 for a
 * scalar, or the number of elements; -1 after reporting. */
static int decl_count(env *e, const elem *el, int *dims, int *nd)
{
    const fl_decl *dc = el->decl;
    *nd = dc->ndims + dc->ntype_dims;
    if (*nd == 0) return 0;
    if (*nd > 2) {
        fl_err(e->ic->d, dc->loc, "arrays of components have one or two dimensions ('%s')", dc->name);
        return -1;
    }
    long total = 1;
    for (int k = 0; k < *nd; k++) {
        /* the dimensions after the name, then those of the type (Mass[2] m[3]: 3 x 2) */
        const fl_expr *x = k < dc->ndims ? dc->dims[k] : dc->type_dims[k - dc->ndims];
        fl_value v;
        if (eval_in(e, el->lex, x, &v)) return -1;
        int ok = fl_value_is_number(&v) && v.num == floor(v.num) && v.num >= 0 && v.num <= FL_MAX_ARRAY;
        if (ok) dims[k] = (int)v.num;
        else fl_err(e->ic->d, x->loc, "the size of '%s' must be a non-negative integer", dc->name);
        fl_value_free(&v);
        if (!ok) return -1;
        total *= dims[k];
    }
    if (total > FL_MAX_ARRAY) {
        fl_err(e->ic->d, dc->loc, "'%s' has %ld elements: at most " FL_MAX_ARRAY_TEXT " components per array", dc->name,
               total);
        return -1;
    }
    return (int)total;
}

static int instantiate_class(ictx *ic, const fl_class_ast *c, const char *prefix, pmod_vec *mods, fl_loc loc,
                             env *up);

/* A connector class of the user's that only renames one of flange's
 * connectors (connector MyFlange = Modelica...Flange_a, or extends it with
 * nothing added) is that connector. */
static void connector_alias(ictx *ic, resolved *r)
{
    const fl_class_ast *u = r->user;
    if (!u || u->kind != CK_CONNECTOR || u->decls.n || u->extends.n != 1 || u->extends.v[0].nmods) return;
    resolved b;
    if (!resolve_name(ic, u, u->extends.v[0].base, &b)) return;
    unsigned char vt;
    if (!b.user && b.path && connector_kind(b.path, &vt) != CONN_NONE) {
        r->user = NULL;
        r->path = b.path;
        return;
    }
    free(b.path);
}

/* A component of a class: a library instance or an instance of a user
 * model (name may be an array element "m[3]"). */
static int declare_component(env *e, const elem *el, const fl_class *cls, const resolved *r, const char *ename,
                             pmod_vec *sub)
{
    ictx *ic = e->ic;
    if (r->user == NULL || r->user->kind != CK_CONNECTOR) e->has_components = 1;
    const fl_decl *dc = el->decl;
    char *name = fl_xcat(e->prefix, ename, (char *)NULL);
    int rc = 0;
    if (cls) {
        int inst = fl_model_add_inst(ic->m, cls, name, fl_scope_user_loc(e, dc->name_loc), ic->d);
        if (inst < 0 || apply_lib_mods(e, inst, sub)) rc = -1;
        /* the kind, and the instance for connect() to find without a second lookup */
        fl_map_put(&e->elems, ename, EL_LIB | (inst >= 0 ? (inst + 1) << 3 : 0));
    } else if (r->user->kind == CK_CONNECTOR) {
        /* a connector class of the user's: its variables, and connect() gives its equations */
        char *subprefix = fl_xsprintf("%s.", name);
        pmod_vec fwd = {0};
        for (size_t k = sub->n; k-- > 0;) FL_VEC_PUSH(fwd, sub->v[k]);
        int failed = instantiate_class(ic, r->user, subprefix, &fwd, dc->name_loc, e);
        FL_VEC_FREE(fwd);
        free(subprefix);
        fl_map_put(&e->elems, ename, EL_COMPOSITE);
        if (failed) rc = decl_failed(e, dc);
        else fl_uconn_declare(ic, name, e->prefix[0] == '\0', dc->name_loc);
    } else if (r->user->kind != CK_MODEL && r->user->kind != CK_CLASS && r->user->kind != CK_BLOCK) {
        fl_err(ic->d, dc->type_loc, "'%s' is not a model", dc->type);
        rc = decl_failed(e, dc);
    } else if (r->user->partial) {
        fl_err(ic->d, dc->type_loc, "'%s' is partial and cannot be instantiated", dc->type);
        rc = decl_failed(e, dc);
    } else {
        /* modifiers of a composite are evaluated where written: keep pmod.where */
        char *subprefix = fl_xsprintf("%s.", name);
        pmod_vec fwd = {0};
        for (size_t k = sub->n; k-- > 0;) FL_VEC_PUSH(fwd, sub->v[k]);
        int failed = instantiate_class(ic, r->user, subprefix, &fwd, dc->name_loc, e);
        FL_VEC_FREE(fwd);
        free(subprefix);
        fl_map_put(&e->elems, ename, EL_COMPOSITE);
        if (failed) rc = decl_failed(e, dc);
    }
    free(name);
    return rc;
}

/* Pass 2: components, connectors and variables; a declaration in error is
 * marked failed (connections to it are dropped without more messages)
 * and the others are still checked. */
static int declare_elements(env *e, iparts *ip)
{
    ictx *ic = e->ic;
    const char *prefix = e->prefix;
    int rc = 0;
    for (size_t i = 0; ip->collected && i < ip->els.n; i++) {
        const elem *el = &ip->els.v[i];
        const fl_decl *dc = el->decl;
        if (dc->prefix & (FL_PFX_PARAMETER | FL_PFX_CONSTANT)) continue;
        if (fl_map_get(&e->elems, dc->name) >= 0 || fl_map_get(&e->pindex, dc->name) >= 0) {
            fl_err(ic->d, dc->name_loc, "duplicate declaration of '%s'", dc->name);
            rc = -1;
            continue;
        }
        if (dc->prefix & (FL_PFX_INNER | FL_PFX_OUTER)) {
            fl_err(ic->d, dc->loc, "inner/outer components are not supported");
            rc = decl_failed(e, dc);
            continue;
        }
        if (dc->cond) {
            int present = 0;
            if (eval_cond(e, el, &present)) {
                rc = decl_failed(e, dc);
                continue;
            }
            if (!present) {
                fl_map_put(&e->elems, dc->name, EL_DISABLED);
                continue;
            }
        }
        pmod_vec sub = {0};
        element_mods(e, ip, el, &sub);
        /* a variable: Real, Integer, Boolean and their types */
        unsigned char vt;
        const char *unit;
        int nlits;
        int isvar = fl_flat_is_var_type(ic, el->lex, dc->type, &vt, &unit, &nlits);
        if (isvar < 0) { /* a cycle of type definitions, reported */
            rc = decl_failed(e, dc);
            FL_VEC_FREE(sub);
            continue;
        }
        if (isvar) {
            if (fl_flat_declare_var(e, dc, el->lex, &sub, 0)) rc = decl_failed(e, dc);
            else fl_map_put(&e->elems, dc->name, EL_VAR);
            FL_VEC_FREE(sub);
            continue;
        }
        if (strcmp(dc->type, "String") == 0) {
            fl_err(ic->d, dc->loc, "String variables are not supported (String parameters are): '%s'", dc->name);
            rc = decl_failed(e, dc);
            FL_VEC_FREE(sub);
            continue;
        }
        resolved r;
        memset(&r, 0, sizeof r);
        const char *ty = dc->type;
        const fl_class *cls = tcache_get(ic, el->lex, ty);
        int skip = 0;
        if (cls) {
            /* a library class seen before under this name */
        } else if (resolve_name(ic, el->lex, ty, &r)) {
            connector_alias(ic, &r);
            if (!r.user) {
                cls = fl_class_find(r.path);
                unsigned char svt = FL_VT_REAL;
                conn_kind ck = cls ? CONN_NONE : connector_kind(r.path, &svt);
                if (!cls && ck != CONN_NONE) {
                    int dims[2], nd;
                    int n = decl_count(e, el, dims, &nd);
                    /* support(phi = phi_support) would bind the flange's variables: not
                     * done (it was dropped silently), so an error says how to write it */
                    for (size_t q = 0; ck == CONN_FLANGE && q < sub.n && n >= 0; q++) {
                        const pmod *pm = &sub.v[q];
                        const char *var = *pm->name ? pm->name : pm->mod->nsubs ? pm->mod->subs[0].name : NULL;
                        if (!var) continue;
                        fl_err(ic->d, pm->mod->loc,
                               "a modifier of flange connector '%s' is not supported: write it as an equation (%s.%s "
                               "= ...)",
                               dc->name, dc->name, var);
                        n = -1;
                    }
                    if (n < 0) {
                        rc = decl_failed(e, dc);
                    } else if (ck == CONN_SIGNAL && ip->has_eqs) {
                        /* the signal connectors of a class with equations are its variables */
                        size_t first = ic->flat->vars.n;
                        if (fl_flat_declare_var(e, dc, el->lex, &sub, 1 + svt)) rc = decl_failed(e, dc);
                        else fl_map_put(&e->elems, dc->name, EL_CONNECTOR);
                        /* their causality is the connector's (RealInput, RealOutput) */
                        size_t plen = strlen(r.path);
                        int in = plen >= 5 && strcmp(r.path + plen - 5, "Input") == 0;
                        int out = plen >= 6 && strcmp(r.path + plen - 6, "Output") == 0;
                        for (size_t q = first; q < ic->flat->vars.n; q++) {
                            ic->flat->vars.v[q].is_input |= (unsigned char)in;
                            ic->flat->vars.v[q].is_output |= (unsigned char)out;
                        }
                        for (int k = 0; k < n && !rc; k++) {
                            char *en = element_name(dc->name, k, nd, dims);
                            fl_map_put(&e->elems, en, EL_CONNECTOR);
                            free(en);
                        }
                    } else if (nd) {
                        if (ck == CONN_FLANGE) e->nflanges += n;
                        for (int k = 0; k < n; k++) {
                            char *en = element_name(dc->name, k, nd, dims);
                            char *path = fl_xcat(prefix, en, (char *)NULL);
                            int node = vnode_get(ic, path, ck == CONN_FLANGE ? connector_domain(r.path) : 0, dc->name_loc);
                            ic->nodes.v[node].vtype = svt;
                            fl_map_put(&e->elems, en, EL_CONNECTOR);
                            free(path);
                            free(en);
                        }
                        fl_map_put(&e->elems, dc->name, EL_ARRAY);
                    } else {
                        if (ck == CONN_FLANGE) e->nflanges++;
                        char *path = fl_xcat(prefix, dc->name, (char *)NULL);
                        int node = vnode_get(ic, path, ck == CONN_FLANGE ? connector_domain(r.path) : 0, dc->name_loc);
                        ic->nodes.v[node].vtype = svt;
                        free(path);
                        fl_map_put(&e->elems, dc->name, EL_CONNECTOR);
                    }
                    free(r.path);
                    FL_VEC_FREE(sub);
                    continue;
                }
                if (!cls) {
                    report_bad_type(ic, el->lex, dc, r.path);
                    free(r.path);
                    rc = decl_failed(e, dc);
                    skip = 1;
                } else {
                    free(r.path);
                    tcache_put(ic, el->lex, ty, cls);
                }
            }
        } else if (!strchr(ty, '.')) {
            int amb = 0;
            cls = fl_class_find_short(ty, &amb);
            if (!cls) {
                if (amb) fl_err(ic->d, dc->type_loc, "component type '%s' is ambiguous: write its full path", ty);
                else report_bad_type(ic, el->lex, dc, NULL);
                rc = decl_failed(e, dc);
                skip = 1;
            }
        } else {
            report_bad_type(ic, el->lex, dc, NULL);
            rc = decl_failed(e, dc);
            skip = 1;
        }
        if (!skip && dc->binding) {
            fl_err(ic->d, dc->binding->loc, "a component cannot have a value binding ('%s = ...')", dc->name);
            rc = decl_failed(e, dc);
            skip = 1;
        }
        if (skip) {
            FL_VEC_FREE(sub);
            continue;
        }
        int dims[2], nd;
        int n = decl_count(e, el, dims, &nd);
        if (n < 0) {
            rc = decl_failed(e, dc);
        } else if (nd == 0) {
            if (declare_component(e, el, cls, &r, dc->name, &sub)) rc = -1;
        } else {
            /* an array of components: each element gets its share of the modifiers */
            for (int k = 0; k < n; k++) {
                pmod_vec esub = {0};
                for (size_t q = 0; q < sub.n; q++) {
                    pmod p = sub.v[q];
                    p.elem = k;
                    p.nelem = n;
                    FL_VEC_PUSH(esub, p);
                }
                char *en = element_name(dc->name, k, nd, dims);
                if (declare_component(e, el, cls, &r, en, &esub)) rc = -1;
                free(en);
                FL_VEC_FREE(esub);
            }
            if (fl_map_get(&e->elems, dc->name) < 0) fl_map_put(&e->elems, dc->name, EL_ARRAY);
        }
        FL_VEC_FREE(sub);
    }
    return rc;
}

/* The model's own parameters (fl_mparam): those of the top-level model and
 * of its components that are models in Modelica, evaluated. */
static void record_params(env *e)
{
    const char *dot = strchr(e->prefix, '.');
    if (dot && strchr(dot + 1, '.')) return; /* deeper than a component of the top level */
    fl_model *m = e->ic->m;
    for (size_t i = 0; i < e->params.n; i++) {
        const pslot *s = &e->params.v[i];
        const fl_decl *dc = s->decl;
        if (s->state != 2 || (dc->prefix & (FL_PFX_CONSTANT | FL_PFX_PROTECTED | FL_PFX_FINAL)) || dc->ndims ||
            dc->ntype_dims)
            continue;
        fl_ptype t;
        if (s->type == PT_REAL && fl_value_is_number(&s->val)) t = FL_P_REAL;
        else if (s->type == PT_INT && s->val.kind == V_INT) t = FL_P_INT;
        else if (s->type == PT_BOOL && s->val.kind == V_BOOL) t = FL_P_BOOL;
        else if (s->type == PT_ENUM && s->val.kind == V_ENUM && s->val.enum_type) t = FL_P_ENUM;
        else continue;
        const char *unit = "";
        for (int k = 0; k < dc->nmods; k++)
            if (strcmp(dc->mods[k].name, "unit") == 0 && dc->mods[k].value && dc->mods[k].value->kind == EX_STR)
                unit = dc->mods[k].value->str;
        if (!*unit && t == FL_P_REAL) {
            unsigned char vt;
            int nlits;
            const char *u = "";
            if (fl_flat_is_var_type(e->ic, s->lex, dc->type, &vt, &u, &nlits) == 1) unit = u;
        }
        m->mparams = fl_xrealloc(m->mparams, sizeof *m->mparams * (size_t)(m->nmparams + 1));
        fl_mparam *p = &m->mparams[m->nmparams++];
        memset(p, 0, sizeof *p);
        p->type = t;
        p->value = s->val.num;
        p->enum_type = t == FL_P_ENUM ? s->val.enum_type : NULL;
        p->name = fl_xcat(e->prefix, s->name, (char *)NULL);
        p->unit = fl_xstrdup(unit);
        p->desc = fl_xstrdup(dc->comment ? dc->comment : "");
    }
}

static int instantiate_class(ictx *ic, const fl_class_ast *c, const char *prefix, pmod_vec *mods, fl_loc loc, env *up)
{
    if (ic->depth > 30) {
        fl_err(ic->d, loc, "model nesting too deep (recursive model?)");
        return -1;
    }
    /* a class that contains itself (directly or through others) would be
     * infinite; caught at once, before its copies multiply */
    for (int i = 0; i < ic->depth; i++)
        if (ic->inside[i] == c) {
            int n = (int)strlen(prefix);
            fl_err(ic->d, loc, "component '%.*s' of type %s lies inside an instance of %s: a model cannot contain itself",
                   n > 0 ? n - 1 : 0, prefix, c->name, c->name);
            return -1;
        }
    ic->inside[ic->depth] = c;
    ic->depth++;
    env e;
    memset(&e, 0, sizeof e);
    e.ic = ic;
    e.cls = c;
    e.prefix = fl_xstrdup(prefix);
    e.up = up;
    e.uinst = -1;
    e.decl_loc = loc;
    iparts ip;
    memset(&ip, 0, sizeof ip);
    int rc = gather_parts(&e, c, mods, &ip);
    e.ip = &ip;
    if (declare_params(&e, &ip)) rc = -1;
    else record_params(&e);
    if (declare_elements(&e, &ip)) rc = -1;
    /* equations (their connects inside for-loops and if-equations too),
     * then the plain connects (those of failed declarations are dropped) */
    /* (bindings of declarations, Real y = 2*x, are equations too: a class
     * whose only equations they are goes through here as well) */
    if (ip.collected && (ip.eqs.n || e.pending) && fl_flat_equations(&e, ip.eqs.v, (int)ip.eqs.n)) rc = -1;
    fl_flat_drop_pending(&e);
    for (size_t i = 0; ip.collected && i < ip.conns.n; i++) add_connect(&e, ip.conns.v[i]);
    /* parameters of a component with equations: the enclosing model's equations may read them */
    if (e.uinst >= 0) {
        fl_flat_export_params(&e);
        ic->flat->uinsts.v[e.uinst].composite = e.has_components;
        ic->flat->uinsts.v[e.uinst].nflanges = e.nflanges;
    }
    iparts_free(&ip);
    env_free(&e);
    ic->depth--;
    return rc || ic->failed ? -1 : 0;
}

/* ------------------------------------------------------------------------
 * Entry point
 * ------------------------------------------------------------------------ */

typedef FL_VEC(const fl_class_ast *) class_vec;
typedef FL_VEC(char *) str_vec;

/* Models of the file with their dotted paths; path holds the path of c's
 * package and is restored on return (no copy of it per level). */
static void collect_models(const fl_class_ast *c, fl_buf *path, class_vec *out, str_vec *paths)
{
    size_t n0 = path->n;
    if (n0) fl_buf_addc(path, '.');
    fl_buf_add(path, c->name);
    if ((c->kind == CK_MODEL || c->kind == CK_CLASS) && !c->partial) {
        FL_VEC_PUSH(*out, c);
        FL_VEC_PUSH(*paths, fl_xstrndup(path->s, path->n));
    }
    if (c->kind == CK_PACKAGE)
        for (size_t i = 0; i < c->classes.n; i++) collect_models(c->classes.v[i], path, out, paths);
    path->n = n0;
    path->s[n0] = '\0';
}

/* A model of the libraries by its full name (when the file has none of
 * that name); NULL with a message when it is not one. */
static const fl_class_ast *pick_lib_model(fl_file_ast *ast, fl_libs *libs, const char *name, char *const *here,
                                          size_t nhere, fl_diag *d)
{
    fl_loc floc = {ast->path, 0, 0};
    int errors = fl_diag_errors(d);
    const fl_class_ast *c = libs ? lib_class(libs, name, strlen(name)) : NULL;
    fl_buf b = {0};
    if (!c && fl_diag_errors(d) > errors) {
        /* found, but its files are broken: said already */
    } else if (!c) {
        if (ast->classes.n) fl_buf_printf(&b, "no model '%s' in the file or in ", name);
        else fl_buf_printf(&b, "class '%s' not found in ", name);
        if (libs) fl_libs_where(libs, &b);
        else fl_buf_add(&b, "any library: none given (--lib DIR, MODELICAPATH)");
        for (size_t i = 0; ast->classes.n && i < nhere; i++)
            fl_buf_printf(&b, "%s%s", i ? ", " : "; models in the file: ", here[i]);
        fl_err(d, floc, "%s", b.s);
    } else if (c->kind == CK_PACKAGE) {
        int n = 0;
        const char *const *el = fl_libs_elements(libs, c, &n);
        for (int i = 0; i < n || (!el && i < (int)c->classes.n); i++)
            fl_buf_printf(&b, "%s%s", i ? ", " : "", el ? el[i] : c->classes.v[i]->name);
        fl_err(d, floc, "'%s' is a package, not a model; its classes: %s", name, b.n ? b.s : "none");
        c = NULL;
    } else if ((c->kind != CK_MODEL && c->kind != CK_CLASS) || c->partial) {
        fl_err(d, c->loc, c->partial ? "'%s' is a partial model: it cannot be simulated" : "'%s' is not a model", name);
        c = NULL;
    }
    fl_buf_free(&b);
    return c;
}

static const fl_class_ast *pick_model(fl_file_ast *ast, fl_libs *libs, const char *name, fl_diag *d)
{
    class_vec models = {0};
    str_vec paths = {0};
    fl_buf path = {0};
    for (size_t i = 0; i < ast->classes.n; i++) collect_models(ast->classes.v[i], &path, &models, &paths);
    fl_buf_free(&path);
    const fl_class_ast *found = NULL;
    int nfound = 0;
    fl_loc floc = {ast->path, 0, 0};
    if (name) {
        for (size_t i = 0; i < models.n; i++) {
            const char *p = paths.v[i];
            size_t lp = strlen(p), ln = strlen(name);
            int match = strcmp(p, name) == 0 || (lp > ln && p[lp - ln - 1] == '.' && strcmp(p + lp - ln, name) == 0);
            /* the full name, with the file's within package in front
             * (ModelicaTest.Rotational.TestFriction for a file "within
             * ModelicaTest; package Rotational ...") */
            size_t lw = ast->within ? strlen(ast->within) : 0;
            if (lw && strncmp(name, ast->within, lw) == 0 && name[lw] == '.' && strcmp(name + lw + 1, p) == 0)
                match = 1;
            if (match) {
                found = models.v[i];
                nfound++;
            }
        }
        if (nfound == 0 && (libs || !ast->classes.n)) {
            /* a name the file does not define: a model of the libraries */
            found = pick_lib_model(ast, libs, name, paths.v, paths.n, d);
        } else if (nfound != 1) {
            fl_buf b = {0};
            for (size_t i = 0; i < models.n; i++) fl_buf_printf(&b, "%s%s", i ? ", " : "", paths.v[i]);
            fl_err(d, floc, nfound ? "model name '%s' is ambiguous; models in the file: %s"
                                   : "no model '%s' in the file; models in the file: %s",
                   name, b.n ? b.s : "none");
            fl_buf_free(&b);
            found = NULL;
        }
    } else if (models.n == 1) {
        found = models.v[0];
    } else if (models.n == 0) {
        fl_err(d, floc, "the file contains no (non-partial) model");
    } else {
        fl_buf b = {0};
        for (size_t i = 0; i < models.n; i++) fl_buf_printf(&b, "%s%s", i ? ", " : "", paths.v[i]);
        fl_err(d, floc, "the file holds several models (%s): choose one with --model NAME", b.s);
        fl_buf_free(&b);
    }
    for (size_t i = 0; i < paths.n; i++) free(paths.v[i]);
    FL_VEC_FREE(paths);
    FL_VEC_FREE(models);
    return found;
}

/* Parse "--param" overrides into modifications "a.b = expr". */
static int parse_overrides(const fl_load_opts *opts, fl_mod **out, int *n, fl_diag *d)
{
    *out = NULL;
    *n = 0;
    if (!opts || opts->nparams <= 0) return 0;
    fl_mod *mods = fl_xcalloc((size_t)opts->nparams, sizeof *mods);
    int rc = 0;
    for (int i = 0; i < opts->nparams; i++) {
        const char *s = opts->params[i];
        const char *eq = s ? strchr(s, '=') : NULL;
        fl_loc loc = {"--param", 0, 0};
        if (!eq || eq == s) {
            fl_err(d, loc, "'%s' must have the form name=value", s ? s : "");
            rc = -1;
            continue;
        }
        mods[*n].name = fl_xstrndup(s, (size_t)(eq - s));
        /* trim spaces in the name */
        char *nm = mods[*n].name;
        while (*nm == ' ') memmove(nm, nm + 1, strlen(nm));
        while (*nm && nm[strlen(nm) - 1] == ' ') nm[strlen(nm) - 1] = '\0';
        mods[*n].loc = loc;
        mods[*n].value = fl_parse_expr(eq + 1, "--param", d);
        if (!mods[*n].value) rc = -1;
        (*n)++;
    }
    *out = mods;
    return rc;
}

/* Out of memory while instantiating: the syntax tree, the work tables and
 * the model so far are freed. */
typedef struct inst_undo {
    fl_file_ast *ast;
    ictx *ic;
    fl_mod **over;
    int *nover;
} inst_undo;

static void inst_cleanup(void *arg)
{
    inst_undo *u = arg;
    FL_VEC_FREE(u->ic->nodes);
    fl_map_free(&u->ic->node_index);
    free(u->ic->leaves.keys);
    free(u->ic->leaves.vals);
    free(u->ic->resolved);
    free(u->ic->tc);
    free(u->ic->fpath);
    fl_flat_free(u->ic->flat);
    fl_ufuncs_free(u->ic->funcs);
    fl_libs_free(u->ic->libs);
    fl_model_free(u->ic->m);
    fl_mod_free_array(*u->over, *u->nover);
    fl_file_free(u->ast);
}

fl_model *fl_instantiate(fl_file_ast *ast, const fl_load_opts *opts, fl_diag *d)
{
    fl_mod *over = NULL;
    int nover = 0;
    ictx ic;
    memset(&ic, 0, sizeof ic);
    inst_undo u = {ast, &ic, &over, &nover};
    fl_cleanup cl;
    fl_cleanup_push(&cl, inst_cleanup, &u);
    /* the libraries: --lib entries, then MODELICAPATH (library.c) */
    fl_libs *libs = NULL;
    const char *mp = opts && opts->modelicapath ? opts->modelicapath : getenv("MODELICAPATH");
    const fl_class_ast *top = NULL;
    if (!fl_libs_open(opts ? opts->libs : NULL, opts ? opts->nlibs : 0, mp, d, &libs))
        top = pick_model(ast, libs, opts ? opts->model_name : NULL, d);
    ic.libs = libs;
    if (!top) {
        fl_cleanup_pop(&cl);
        fl_libs_free(libs);
        fl_file_free(ast);
        return NULL;
    }
    if (parse_overrides(opts, &over, &nover, d)) {
        fl_cleanup_pop(&cl);
        fl_mod_free_array(over, nover);
        fl_libs_free(libs);
        fl_file_free(ast);
        return NULL;
    }
    ic.file = ast;
    ic.libs = libs;
    ic.d = d;
    ic.m = fl_model_alloc(top->name);
    /* the model outlives the syntax tree: it takes over the file name that
     * every location points to */
    ic.m->path = ast->path;
    ast->path = NULL;
    /* overrides are outer modifications of the top-level model */
    pmod_vec mods = {0};
    for (int i = 0; i < nover; i++) {
        pmod p = {&over[i], over[i].name, NULL, top, 0, 0};
        FL_VEC_PUSH(mods, p);
    }
    ic.flat = fl_flat_new();
    int rc = instantiate_class(&ic, top, "", &mods, top->loc, NULL);
    /* the user part: clusters of equations become model instances */
    if (!rc && fl_flat_finish(&ic)) rc = -1;
    FL_VEC_FREE(mods);

    /* connections: every group of library ports joined through the graph */
    if (!rc) {
        int n = (int)ic.nodes.n;
        int *first = fl_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++) first[i] = -1;
        for (int i = 0; i < n; i++) {
            if (!ic.nodes.v[i].is_leaf) continue;
            int r = vfind(&ic, i);
            if (first[r] < 0) {
                first[r] = i;
                continue;
            }
            fl_pref a = ic.nodes.v[first[r]].leaf, b = ic.nodes.v[i].leaf;
            if (fl_model_connect_refs(ic.m, a, b, ic.nodes.v[i].loc, d)) rc = -1;
        }
        free(first);
    }

    /* experiment annotation of the model (or inherited from a base class) */
    const fl_class_ast *xc = top;
    if (!xc->experiment.has_stop && !xc->experiment.has_interval && !xc->experiment.has_start &&
        !xc->experiment.has_tolerance) {
        for (size_t i = 0; i < top->extends.n; i++) {
            resolved r;
            if (resolve_name(&ic, top, top->extends.v[i].base, &r)) {
                if (r.user) xc = r.user;
                else free(r.path);
            }
        }
    }
    const fl_experiment_ast *x = &xc->experiment;
    fl_model *m = ic.m;
    if (x->has_start) m->exp.start_time = x->start;
    if (x->has_stop) m->exp.stop_time = x->stop;
    if (x->has_interval) m->exp.interval = x->interval;
    if (x->has_tolerance) m->exp.tolerance = x->tolerance;
    m->has_exp[0] = x->has_start;
    m->has_exp[1] = x->has_stop;
    m->has_exp[2] = x->has_interval;
    m->has_exp[3] = x->has_tolerance;
    if (!x->has_stop) m->exp.stop_time = m->exp.start_time + 1;
    if (x->has_stop && x->stop <= m->exp.start_time) {
        fl_err(d, x->loc, "experiment StopTime (%g) must be greater than StartTime (%g)", x->stop, m->exp.start_time);
        rc = -1;
    }
    if (x->has_interval && x->interval <= 0) {
        fl_err(d, x->loc, "experiment Interval must be positive");
        rc = -1;
    }
    if (x->has_tolerance && (x->tolerance <= 0 || x->tolerance >= 1)) {
        fl_err(d, x->loc, "experiment Tolerance must be between 0 and 1");
        rc = -1;
    }

    fl_cleanup_pop(&cl);
    FL_VEC_FREE(ic.nodes);
    fl_map_free(&ic.node_index);
    free(ic.leaves.keys);
    free(ic.leaves.vals);
    free(ic.resolved);
    free(ic.tc);
    free(ic.fpath);
    fl_flat_free(ic.flat);
    m->funcs = ic.funcs; /* the model holds the registry (classes of user components too) */
    fl_mod_free_array(over, nover);
    fl_libs_take_paths(libs, &m->files, &m->nfiles); /* locations in the model name them */
    fl_libs_free(libs);
    fl_file_free(ast);
    if (rc || fl_diag_errors(d)) {
        fl_model_free(m);
        return NULL;
    }
    return m;
}
