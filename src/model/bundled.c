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

#include "util/util.h"

static fl_file_ast **files;
static char **names;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void parse_all(void)
{
    /* (parsed once for the life of the process, like a static table) */
    files = calloc((size_t)fl_bundled_ntexts, sizeof *files);
    names = calloc((size_t)fl_bundled_ntexts, sizeof *names);
    if (!files || !names) return;
    fl_diag *d = fl_diag_new();
    for (int k = 0; k < fl_bundled_ntexts; k++) {
        size_t n = strlen(fl_bundled_texts[k].name) + 12;
        names[k] = malloc(n);
        if (!names[k]) continue;
        snprintf(names[k], n, "<flange: %s>", fl_bundled_texts[k].name);
        files[k] = fl_parse(fl_bundled_texts[k].text, names[k], d);
    }
    fl_diag_free(d);
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
    pthread_once(&once, parse_all);
    if (!files) return NULL;
    /* a file whose within clause is a prefix of the path, then a class of
     * the file and the classes nested in it */
    for (int k = 0; k < fl_bundled_ntexts; k++) {
        const fl_file_ast *f = files[k];
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

const char *fl_bundled_within(const fl_class_ast *c)
{
    pthread_once(&once, parse_all);
    for (int k = 0; files && k < fl_bundled_ntexts; k++)
        for (size_t i = 0; files[k] && i < files[k]->classes.n; i++)
            if (files[k]->classes.v[i] == c) return files[k]->within;
    return NULL;
}

int fl_bundled_each(void (*fn)(const char *path, const fl_class_ast *c, void *user), void *user, fl_diag *d)
{
    pthread_once(&once, parse_all);
    int bad = 0;
    for (int k = 0; k < fl_bundled_ntexts; k++) {
        /* parsed again for its messages (a file with any is broken) */
        int before = d ? fl_diag_count(d) : 0;
        fl_file_ast *again = d ? fl_parse(fl_bundled_texts[k].text, names && names[k] ? names[k] : "?", d) : NULL;
        fl_file_free(again);
        const fl_file_ast *f = files ? files[k] : NULL;
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
