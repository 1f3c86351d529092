/* bundled.c - the Modelica classes flange carries as text: the MSL
 * interface classes user models extend (Translational partials, the
 * Blocks interfaces and adaptors, the heat-port partials) and the library
 * classes written on the equation layer (the Blocks). Their sources are
 * src/model/msl/NAME.mo, named by the within clause of the package they
 * belong to (a package in several files: NAME+PART.mo, as
 * Modelica.Blocks.Continuous+filters.mo), classes nested in classes
 * found by path as well, every name inside a full path, so that they resolve
 * the same from any model; the build compiles them in as byte arrays
 * (cmake/embed_texts.cmake) and this file parses them once per process.
 * The connectors themselves (Flange_a, RealInput, ...) stay built in. */
#include "bundled.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/lexer.h"
#include "util/guard.h"
#include "util/util.h"

/* The parsed files, published together once every one has parsed; built
 * on first use under the lock. An allocation that fails while parsing
 * unwinds through fl_guard_try: the partial work is freed, the lock
 * released, the failure passed on, and the next call parses again. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static fl_file_ast **files;
static char **names;
static char **paths; /* of the models and blocks a model can use (not partial, not the examples' helpers), for suggestions */
static int npaths;

typedef struct parse_job {
    fl_file_ast **files;
    char **names;
    char **paths;
    int npaths;
    fl_diag *d;
} parse_job;

static void parse_job_free(void *arg)
{
    parse_job *j = arg;
    for (int k = 0; k < fl_bundled_ntexts; k++) {
        if (j->files) fl_file_free(j->files[k]);
        if (j->names) free(j->names[k]);
    }
    free(j->files);
    free(j->names);
    for (int i = 0; i < j->npaths; i++) free(j->paths[i]);
    free(j->paths);
    fl_diag_free(j->d);
    memset(j, 0, sizeof *j);
}

static void parse_all(void *arg)
{
    parse_job *j = arg;
    fl_cleanup cl;
    fl_cleanup_push(&cl, parse_job_free, j);
    j->files = fl_xcalloc((size_t)fl_bundled_ntexts, sizeof *j->files);
    j->names = fl_xcalloc((size_t)fl_bundled_ntexts, sizeof *j->names);
    j->d = fl_xcalloc(1, sizeof *j->d); /* (not fl_diag_new: a failure must unwind to our recovery point) */
    for (int k = 0; k < fl_bundled_ntexts; k++) {
        j->names[k] = fl_xsprintf("<flange: %s>", fl_bundled_texts[k].name);
        j->files[k] = fl_parse(fl_bundled_texts[k].text, j->names[k], j->d);
        for (size_t i = 0; j->files[k] && j->files[k]->within && i < j->files[k]->classes.n; i++) {
            const fl_class_ast *c = j->files[k]->classes.v[i];
            if (c->partial || (c->kind != CK_MODEL && c->kind != CK_BLOCK)) continue;
            /* the helpers of the MSL's examples are no components to suggest */
            if (strstr(j->files[k]->within, ".Examples.")) continue;
            j->paths = fl_xrealloc(j->paths, sizeof(char *) * (size_t)(j->npaths + 1));
            j->paths[j->npaths] = NULL;
            j->paths[j->npaths] = fl_xcat(j->files[k]->within, ".", c->name, (char *)NULL);
            j->npaths++;
        }
    }
    fl_cleanup_pop(&cl);
    fl_diag_free(j->d);
    j->d = NULL;
}

/* The parsed files (never NULL: a failure unwinds). */
static fl_file_ast *const *loaded(void)
{
    pthread_mutex_lock(&lock);
    fl_guard g;
    int failed = 0;
    if (!files) {
        parse_job j = {0};
        failed = fl_guard_try(&g, parse_all, &j);
        if (!failed) {
            names = j.names;
            paths = j.paths;
            npaths = j.npaths;
            files = j.files;
        }
    }
    fl_file_ast *const *f = files;
    pthread_mutex_unlock(&lock);
    if (failed) fl_guard_rethrow(&g);
    return f;
}

void fl_bundled_shutdown(void)
{
    pthread_mutex_lock(&lock);
    if (files) {
        parse_job j = {files, names, paths, npaths, NULL};
        parse_job_free(&j);
        files = NULL;
        names = paths = NULL;
        npaths = 0;
    }
    pthread_mutex_unlock(&lock);
}

/* The class at the rest of a path below a class: its nested classes,
 * dot by dot ("Internal.Filter.base.CriticalDamping"). */
static const fl_class_ast *nested(const fl_class_ast *c, const char *rest)
{
    while (c && *rest) {
        const char *dot = strchr(rest, '.');
        size_t n = dot ? (size_t)(dot - rest) : strlen(rest);
        const fl_class_ast *in = NULL;
        for (size_t i = 0; i < c->classes.n && !in; i++)
            if (strlen(c->classes.v[i]->name) == n && strncmp(c->classes.v[i]->name, rest, n) == 0) in = c->classes.v[i];
        c = in;
        rest = dot ? dot + 1 : rest + n;
    }
    return c;
}

const fl_class_ast *fl_bundled_class(const char *path)
{
    fl_file_ast *const *fs = loaded();
    /* a file whose within clause is a prefix of the path, then a class of
     * the file and the classes nested in it */
    for (int k = 0; k < fl_bundled_ntexts; k++) {
        const fl_file_ast *f = fs[k];
        if (!f || !f->within) continue;
        size_t wl = strlen(f->within);
        if (strncmp(f->within, path, wl) != 0 || path[wl] != '.') continue;
        const char *top = path + wl + 1;
        const char *dot = strchr(top, '.');
        size_t n = dot ? (size_t)(dot - top) : strlen(top);
        for (size_t i = 0; i < f->classes.n; i++) {
            const fl_class_ast *c = f->classes.v[i];
            if (strlen(c->name) != n || strncmp(c->name, top, n) != 0) continue;
            const fl_class_ast *r = dot ? nested(c, dot + 1) : c;
            if (r) return r;
        }
    }
    return NULL;
}

int fl_bundled_package(const char *path)
{
    fl_file_ast *const *fs = loaded();
    size_t n = strlen(path);
    for (int k = 0; k < fl_bundled_ntexts; k++) {
        const char *w = fs[k] ? fs[k]->within : NULL;
        if (w && strncmp(w, path, n) == 0 && (w[n] == '\0' || w[n] == '.')) return 1;
    }
    return 0;
}

const char *fl_bundled_within(const fl_class_ast *c)
{
    fl_file_ast *const *fs = loaded();
    for (int k = 0; k < fl_bundled_ntexts; k++)
        for (size_t i = 0; fs[k] && i < fs[k]->classes.n; i++)
            if (fs[k]->classes.v[i] == c) return fs[k]->within;
    return NULL;
}

int fl_bundled_each(void (*fn)(const char *path, const fl_class_ast *c, void *user), void *user, fl_diag *d)
{
    fl_file_ast *const *fs = loaded();
    int bad = 0;
    for (int k = 0; k < fl_bundled_ntexts; k++) {
        /* parsed again for its messages (a file with any is broken) */
        int before = d ? fl_diag_count(d) : 0;
        fl_file_ast *again = d ? fl_parse(fl_bundled_texts[k].text, names[k], d) : NULL;
        fl_file_free(again);
        const fl_file_ast *f = fs[k];
        if (!f || (d && fl_diag_count(d) > before)) {
            bad++;
            continue;
        }
        for (size_t i = 0; i < f->classes.n && fn; i++) {
            char *path = fl_xcat(f->within ? f->within : "", f->within ? "." : "", f->classes.v[i]->name, (char *)NULL);
            fn(path, f->classes.v[i], user);
            free(path);
        }
    }
    return bad;
}

/* ---- the listing of `flange components` ---------------------------------------- */

static const char *last_part(const char *path)
{
    const char *d = strrchr(path, '.');
    return d ? d + 1 : path;
}

/* the kind of a connector type, NULL for a variable or a component */
static const char *port_kind(const char *type)
{
    const char *t = last_part(type);
    if (strcmp(t, "RealInput") == 0 || strcmp(t, "BooleanInput") == 0 || strcmp(t, "IntegerInput") == 0)
        return "input";
    if (strcmp(t, "RealOutput") == 0 || strcmp(t, "BooleanOutput") == 0 || strcmp(t, "IntegerOutput") == 0)
        return "output";
    if (strncmp(t, "Flange", 6) == 0 || strcmp(t, "Support") == 0)
        return strstr(type, "Rotational.") ? "rotational flange" : "flange";
    return NULL;
}

/* one line per declaration of the class and of its bases (bases first);
 * a parameter shows the value the outermost extends modifier gives it and
 * is left out when that modifier is final */
typedef enum { LIST_PORTS, LIST_PARAMS, LIST_VARS } list_what;

typedef struct mod_chain {
    const fl_extends *ext;
    const struct mod_chain *outer;
} mod_chain;

static const fl_mod *outer_mod(const mod_chain *ch, const char *name)
{
    const fl_mod *found = NULL;
    for (; ch; ch = ch->outer)
        for (int i = 0; i < ch->ext->nmods; i++)
            if (strcmp(ch->ext->mods[i].name, name) == 0) found = &ch->ext->mods[i];
    return found;
}

/* A condition that final modifiers make false (a port that is not there):
 * a parameter set final false, or an and of such. */
static int final_false(const mod_chain *ch, const fl_expr *e)
{
    if (e->kind == EX_BINARY && e->op == K_AND) return final_false(ch, e->a) || final_false(ch, e->b);
    if (e->kind != EX_REF) return 0;
    char *cn = fl_ref_str(&e->ref);
    const fl_mod *cm = outer_mod(ch, cn);
    free(cn);
    return cm && cm->is_final && cm->value && cm->value->kind == EX_BOOL && cm->value->num == 0;
}

static void list_decls(FILE *out, const fl_class_ast *c, const mod_chain *ch, list_what what, int *count, int depth)
{
    if (!c || depth > 20) return;
    for (size_t i = 0; i < c->extends.n; i++) {
        mod_chain in = {&c->extends.v[i], ch};
        list_decls(out, fl_bundled_class(c->extends.v[i].base), &in, what, count, depth + 1);
    }
    fl_buf b = {0};
    for (size_t i = 0; i < c->decls.n; i++) {
        const fl_decl *dc = &c->decls.v[i];
        if (dc->prefix & FL_PFX_PROTECTED) continue;
        const char *pk = port_kind(dc->type);
        int is_par = (dc->prefix & (FL_PFX_PARAMETER | FL_PFX_CONSTANT)) != 0;
        const fl_mod *m = outer_mod(ch, dc->name);
        if (what == LIST_PORTS && pk && dc->cond && final_false(ch, dc->cond)) continue;
        if (what == LIST_PORTS && pk) {
            b.n = 0;
            if (b.s) b.s[0] = '\0';
            if (dc->cond) fl_expr_print(&b, dc->cond);
            fprintf(out, "%s %s%s (%s%s%s)", (*count)++ ? "," : "", dc->name, dc->ndims ? "[:]" : "", pk,
                    dc->cond ? " if " : "", dc->cond ? b.s : "");
        } else if (what == LIST_PARAMS && is_par && !(dc->prefix & FL_PFX_CONSTANT) && !(dc->prefix & FL_PFX_FINAL) &&
                   !(m && m->is_final)) {
            const fl_expr *v = m && m->value ? m->value : dc->binding;
            b.n = 0;
            if (b.s) b.s[0] = '\0';
            if (v) fl_expr_print(&b, v);
            fprintf(out, "    parameter %s%s %s = %s  %s\n", last_part(dc->type), dc->ndims ? "[:]" : "", dc->name,
                    v ? b.s : "(required)", dc->comment ? dc->comment : "");
            (*count)++;
        } else if (what == LIST_VARS && !pk && !is_par) {
            fprintf(out, "    variable %s%s  %s\n", dc->name, dc->ndims ? "[:]" : "", dc->comment ? dc->comment : "");
            (*count)++;
        }
    }
    fl_buf_free(&b);
}

static void print_class(const char *path, const fl_class_ast *c, void *user)
{
    FILE *out = user;
    if (c->partial || (c->kind != CK_MODEL && c->kind != CK_BLOCK)) return;
    fprintf(out, "%s\n    %s (Modelica text)\n    ports:", path, c->comment ? c->comment : "");
    int n = 0;
    list_decls(out, c, NULL, LIST_PORTS, &n, 0);
    fputs(n ? "\n" : " none\n", out);
    list_decls(out, c, NULL, LIST_PARAMS, &n, 0);
    list_decls(out, c, NULL, LIST_VARS, &n, 0);
}

void fl_bundled_print(FILE *out)
{
    fl_bundled_each(print_class, out, NULL);
}

/* ---- suggestions for a misspelt class ---------------------------------------------- */

static const char *path_tail(const char *path, int n)
{
    const char *p = path + strlen(path);
    while (p > path) {
        if (p[-1] == '.' && --n == 0) return p;
        p--;
    }
    return path;
}

void fl_bundled_suggest(const char *written, fl_suggest *s)
{
    loaded();
    int parts = 1;
    for (const char *p = written; *p; p++) parts += *p == '.';
    const char *last = path_tail(written, 1);
    for (int i = 0; i < npaths; i++) {
        /* as written against as many trailing parts of the path, and the
         * class name alone (one more when packages are written) */
        int d = fl_edit_distance(written, path_tail(paths[i], parts), s->limit);
        if (d == 0) d = 1;
        int dl = fl_edit_distance(last, path_tail(paths[i], 1), s->limit) + (parts > 1);
        fl_suggest_add_dist(s, d < dl ? d : dl, paths[i]);
    }
}
