/* library.c - Modelica libraries stored in the file system: the search
 * path, lazy loading of package directories and class files, and the
 * checks of the storage conventions (see library.h for the layout and the
 * reasons). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "library.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model.h"
#include "parse/lexer.h"

typedef enum entry_kind { E_PKGDIR, E_FILE, E_DIR } entry_kind;

/* One place to search: a --lib argument or a MODELICAPATH directory. */
typedef struct entry {
    char *path;   /* as given, without trailing slashes */
    entry_kind kind;
    char *name;   /* E_PKGDIR, E_FILE: the package it holds */
    int from_env; /* a MODELICAPATH directory */
    int missing;  /* a MODELICAPATH directory that does not exist */
} entry;

/* A package stored as a directory. */
typedef struct pkgdir {
    fl_class_ast *cls; /* from its package.mo */
    char *dir;
    char *full;        /* "Lib.Sub" */
    dev_t dev;
    ino_t ino;
    int up;            /* the enclosing package directory, -1 at the top */
    char **order;      /* names of package.order */
    int norder;
    char **elems;      /* fl_libs_elements, built on first request */
    int nelems, has_elems;
} pkgdir;

struct fl_libs {
    entry *e;
    int ne;
    fl_diag *d;
    FL_VEC(fl_file_ast *) files;
    FL_VEC(pkgdir) pkgs;
    fl_map cls_of; /* "%p" of a class read from a library -> pkgdir index + 1, 0 for a class file */
    fl_map memo;   /* "<pkgdir index or -1>/<name>" -> 2 * index into found + 1 if broken */
    FL_VEC(const fl_class_ast *) found; /* NULL: absent or broken */
};

static int is_ident(const char *s, size_t n)
{
    if (n == 0 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_')) return 0;
    for (size_t i = 1; i < n; i++)
        if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '_'))
            return 0;
    return 1;
}

/* flange's own top-level packages: never looked up in libraries */
static int reserved(const char *s, size_t n)
{
    return (n == 8 && strncmp(s, "Modelica", 8) == 0) || (n == 6 && strncmp(s, "Flange", 6) == 0);
}

static void ptr_key(char *key, size_t cap, const void *p)
{
    snprintf(key, cap, "%p", p);
}

static int pkg_index(const fl_libs *L, const fl_class_ast *c)
{
    char key[2 * sizeof(void *) + 8];
    ptr_key(key, sizeof key, c);
    int v = fl_map_get(&L->cls_of, key);
    return v > 0 ? v - 1 : -1;
}

int fl_libs_has(const fl_libs *L, const fl_class_ast *c)
{
    if (!L || !c) return 0;
    char key[2 * sizeof(void *) + 8];
    ptr_key(key, sizeof key, c);
    return fl_map_get(&L->cls_of, key) >= 0;
}

/* 1 if path exists (stat in *st), 0 if not, -1 if it cannot be examined
 * (reported). */
static int probe(fl_libs *L, const char *path, struct stat *st)
{
    if (stat(path, st) == 0) return 1;
    if (errno == ENOENT || errno == ENOTDIR) return 0;
    fl_err(L->d, fl_noloc, "cannot open %s: %s", path, strerror(errno));
    return -1;
}

/* ------------------------------------------------------------------------
 * The search path
 * ------------------------------------------------------------------------ */

/* The class name a file or directory stands for: its base name without
 * ".mo" and without a version ("Lib 1.2" is Lib). */
static char *stored_name(const char *path, int is_file)
{
    const char *slash = strrchr(path, '/');
    char *base = fl_xstrdup(slash ? slash + 1 : path);
    if (strcmp(base, ".") == 0 || strcmp(base, "..") == 0 || !*base) {
        char real[PATH_MAX];
        free(base);
        if (!realpath(path, real)) return fl_xstrdup("");
        slash = strrchr(real, '/');
        base = fl_xstrdup(slash ? slash + 1 : real);
    }
    size_t n = strlen(base);
    if (is_file && n > 3 && strcmp(base + n - 3, ".mo") == 0) base[n - 3] = '\0';
    char *sp = strchr(base, ' ');
    if (sp) *sp = '\0';
    return base;
}

static void add_entry(fl_libs *L, const char *path, entry_kind kind, char *name, int from_env, int missing)
{
    L->e = fl_xrealloc(L->e, sizeof *L->e * (size_t)(L->ne + 1));
    entry *e = &L->e[L->ne++];
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    e->path = fl_xstrndup(path, n);
    e->kind = kind;
    e->name = name;
    e->from_env = from_env;
    e->missing = missing;
}

static int add_lib(fl_libs *L, const char *path)
{
    static const fl_loc lib_loc = {"--lib", 0, 0};
    struct stat st;
    if (!path || !*path) {
        fl_err(L->d, lib_loc, "empty library path");
        return -1;
    }
    if (stat(path, &st) != 0) {
        fl_err(L->d, lib_loc, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    entry_kind kind;
    if (S_ISREG(st.st_mode)) {
        size_t n = strlen(path);
        if (n < 3 || strcmp(path + n - 3, ".mo") != 0) {
            fl_err(L->d, lib_loc, "%s is neither a directory nor a .mo file", path);
            return -1;
        }
        kind = E_FILE;
    } else if (S_ISDIR(st.st_mode)) {
        char *pm = fl_xsprintf("%s/package.mo", path);
        struct stat pst;
        int r = probe(L, pm, &pst);
        free(pm);
        if (r < 0) return -1;
        kind = r ? E_PKGDIR : E_DIR;
    } else {
        fl_err(L->d, lib_loc, "%s is neither a directory nor a .mo file", path);
        return -1;
    }
    char *name = NULL;
    if (kind != E_DIR) {
        name = stored_name(path, kind == E_FILE);
        if (!is_ident(name, strlen(name))) {
            fl_err(L->d, lib_loc, "%s cannot hold a package: '%s' is not a Modelica class name", path, name);
            free(name);
            return -1;
        }
        if (reserved(name, strlen(name)))
            fl_warn(L->d, lib_loc, "%s is ignored: %s is flange's built-in library, which a library cannot replace",
                    path, name);
    }
    add_entry(L, path, kind, name, 0, 0);
    return 0;
}

int fl_libs_open(const char *const *libs, int nlibs, const char *modelicapath, fl_diag *d, fl_libs **out)
{
    *out = NULL;
    fl_libs *L = fl_xcalloc(1, sizeof *L);
    L->d = d;
    int rc = 0;
    for (int i = 0; i < nlibs; i++)
        if (add_lib(L, libs ? libs[i] : NULL)) rc = -1;
    for (const char *p = modelicapath ? modelicapath : ""; *p;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        if (n) {
            char *dir = fl_xstrndup(p, n);
            struct stat st;
            int missing = stat(dir, &st) != 0 || !S_ISDIR(st.st_mode);
            add_entry(L, dir, E_DIR, NULL, 1, missing);
            free(dir);
        }
        p += n + (colon ? 1 : 0);
    }
    if (rc || L->ne == 0) {
        fl_libs_free(L);
        return rc;
    }
    *out = L;
    return 0;
}

void fl_libs_free(fl_libs *L)
{
    if (!L) return;
    for (int i = 0; i < L->ne; i++) {
        free(L->e[i].path);
        free(L->e[i].name);
    }
    free(L->e);
    for (size_t i = 0; i < L->files.n; i++) fl_file_free(L->files.v[i]);
    FL_VEC_FREE(L->files);
    for (size_t i = 0; i < L->pkgs.n; i++) {
        pkgdir *p = &L->pkgs.v[i];
        free(p->dir);
        free(p->full);
        for (int k = 0; k < p->norder; k++) free(p->order[k]);
        free(p->order);
        for (int k = 0; k < p->nelems; k++) free(p->elems[k]);
        free(p->elems);
    }
    FL_VEC_FREE(L->pkgs);
    fl_map_free(&L->cls_of);
    fl_map_free(&L->memo);
    FL_VEC_FREE(L->found);
    free(L);
}

void fl_libs_where(const fl_libs *L, fl_buf *b)
{
    int first_env = 1;
    for (int i = 0; i < L->ne; i++) {
        const entry *e = &L->e[i];
        if (i) fl_buf_add(b, ", ");
        if (!e->from_env) fl_buf_printf(b, "--lib %s", e->path);
        else fl_buf_printf(b, "%s%s%s", first_env ? "MODELICAPATH " : "", e->path,
                           e->missing ? " (not a directory)" : "");
        if (e->from_env) first_env = 0;
    }
}

void fl_libs_take_paths(fl_libs *L, char ***paths, size_t *n)
{
    if (!L || !L->files.n) return;
    *paths = fl_xrealloc(*paths, sizeof **paths * (*n + L->files.n));
    for (size_t i = 0; i < L->files.n; i++) {
        (*paths)[(*n)++] = L->files.v[i]->path;
        L->files.v[i]->path = NULL;
    }
}

/* ------------------------------------------------------------------------
 * Reading one file
 * ------------------------------------------------------------------------ */

static const char *kind_name(fl_class_kind k)
{
    static const char *const names[] = {"class", "model", "package", "block", "connector", "record",
                                        "type", "function", "operator"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "class";
}

/* Where the file's first token is (its within clause, if any). */
static fl_loc first_token(const char *text, const char *path)
{
    fl_lexer lx;
    fl_lex_init(&lx, text, path, NULL);
    fl_token t = fl_lex_next(&lx);
    fl_loc loc = t.loc;
    fl_lex_free(&lx);
    if (loc.line < 1) loc.line = loc.col = 1;
    return loc;
}

/* Read and check the file holding class `name` (len characters) of
 * package `within` ("" at the top level): its within clause, that it
 * holds that one class, and (is_pkg) that it is a package. */
static fl_class_ast *load_file(fl_libs *L, const char *path, const char *name, size_t len, const char *within,
                               fl_class_ast *parent, int is_pkg)
{
    char *text = fl_read_model_text(path, L->d);
    if (!text) return NULL;
    fl_file_ast *f = fl_parse(text, path, L->d);
    if (!f) {
        free(text);
        return NULL;
    }
    FL_VEC_PUSH(L->files, f);
    int ok = 1;
    const char *w = f->within ? f->within : "";
    if (strcmp(w, within) != 0) {
        fl_loc loc = first_token(text, f->path);
        if (!*within)
            fl_err(L->d, loc, "'within %s;' does not match where the file is stored: %.*s is a top-level class here "
                   "(expected 'within;' or none)", w, (int)len, name);
        else if (!f->within)
            fl_err(L->d, loc, "the file has no within clause: expected 'within %s;' (it is stored in package %s)",
                   within, within);
        else
            fl_err(L->d, loc, "'within %s;' does not match where the file is stored: expected 'within %s;'", w, within);
        ok = 0;
    }
    fl_class_ast *c = f->classes.v[0];
    if (f->classes.n > 1) {
        fl_err(L->d, f->classes.v[1]->loc, "a library file holds one class: '%s' is a second one",
               f->classes.v[1]->name);
        ok = 0;
    }
    if (strlen(c->name) != len || strncmp(c->name, name, len) != 0) {
        fl_err(L->d, c->loc, "the file declares '%s', but its %s says '%.*s'", c->name,
               is_pkg ? "directory's name" : "name", (int)len, name);
        ok = 0;
    } else if (is_pkg && c->kind != CK_PACKAGE) {
        fl_err(L->d, c->loc, "package.mo holds %s '%s': a directory holds a package", kind_name(c->kind), c->name);
        ok = 0;
    }
    free(text);
    if (!ok) return NULL;
    c->parent = parent;
    char key[2 * sizeof(void *) + 8];
    ptr_key(key, sizeof key, c);
    fl_map_put(&L->cls_of, key, 0);
    return c;
}

/* ------------------------------------------------------------------------
 * Package directories
 * ------------------------------------------------------------------------ */

/* Does package directory k have an element `name` as a file or directory
 * (1), neither (0), or cannot it be examined (-1)? *is_dir tells which. */
static int stored_child(fl_libs *L, const char *dir, const char *name, size_t len, const char *full, int *is_dir,
                        char **where)
{
    char *file = fl_xsprintf("%s/%.*s.mo", dir, (int)len, name);
    char *sub = fl_xsprintf("%s/%.*s", dir, (int)len, name);
    char *pm = fl_xsprintf("%s/package.mo", sub);
    struct stat st;
    int has_file = probe(L, file, &st);
    int has_dir = probe(L, sub, &st);
    if (has_dir > 0) has_dir = S_ISDIR(st.st_mode) ? probe(L, pm, &st) : 0;
    int r;
    if (has_file < 0 || has_dir < 0) {
        r = -1;
    } else if (has_file && has_dir) {
        fl_loc loc = {file, 0, 0};
        fl_err(L->d, loc, "class %s%s%.*s is stored twice: here and in %s", full, *full ? "." : "", (int)len, name,
               pm);
        r = -1;
    } else {
        r = has_file || has_dir;
    }
    *is_dir = has_dir > 0;
    *where = r > 0 ? (has_dir > 0 ? fl_xstrdup(sub) : fl_xstrdup(file)) : NULL;
    free(file);
    free(sub);
    free(pm);
    return r;
}

/* A line of package.order, its entries warned about where they are wrong. */
static void read_order(fl_libs *L, int k)
{
    char *path = fl_xsprintf("%s/package.order", L->pkgs.v[k].dir);
    struct stat st;
    if (probe(L, path, &st) <= 0) {
        free(path);
        return;
    }
    char *text = fl_read_model_text(path, L->d);
    if (!text) {
        free(path);
        return;
    }
    fl_map seen = {0};
    int line = 0;
    for (char *p = text; *p;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        line++;
        char *s = p;
        while (n && (*s == ' ' || *s == '\t')) s++, n--;
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
        fl_loc loc = {path, line, (int)(s - p) + 1};
        pkgdir *pk = &L->pkgs.v[k];
        if (!n) {
        } else if (!is_ident(s, n)) {
            fl_warn(L->d, loc, "'%.*s' is not a class name", (int)n, s);
        } else if (fl_map_getn(&seen, s, n) >= 0) {
            fl_warn(L->d, loc, "'%.*s' is listed twice (first on line %d)", (int)n, s, fl_map_getn(&seen, s, n));
        } else {
            char *nm = fl_xstrndup(s, n);
            fl_map_put(&seen, nm, line);
            int nested = 0;
            for (size_t i = 0; i < pk->cls->classes.n; i++)
                if (strcmp(pk->cls->classes.v[i]->name, nm) == 0) nested = 1;
            char *file = fl_xsprintf("%s/%s.mo", pk->dir, nm), *pm = fl_xsprintf("%s/%s/package.mo", pk->dir, nm);
            int stored = !nested && (stat(file, &st) == 0 || stat(pm, &st) == 0);
            free(file);
            free(pm);
            if (nested || stored) {
                pk->order = fl_xrealloc(pk->order, sizeof *pk->order * (size_t)(pk->norder + 1));
                pk->order[pk->norder++] = nm;
                nm = NULL;
            } else {
                fl_warn(L->d, loc, "package.order lists '%s', which %s does not have (no class %s in package.mo, "
                        "no %s.mo, no directory %s)", nm, pk->full, nm, nm, nm);
            }
            free(nm);
        }
        if (!nl) break;
        p = nl + 1;
    }
    fl_map_free(&seen);
    free(text);
    free(path);
}

/* A class written in package.mo must not also have a file of its own. */
static void check_nested(fl_libs *L, int k)
{
    const pkgdir *pk = &L->pkgs.v[k];
    for (size_t i = 0; i < pk->cls->classes.n; i++) {
        const fl_class_ast *c = pk->cls->classes.v[i];
        char *file = fl_xsprintf("%s/%s.mo", pk->dir, c->name);
        char *pm = fl_xsprintf("%s/%s/package.mo", pk->dir, c->name);
        struct stat st;
        const char *other = probe(L, file, &st) > 0 ? file : probe(L, pm, &st) > 0 ? pm : NULL;
        if (other) fl_err(L->d, c->loc, "class %s.%s is defined twice: here and in %s", pk->full, c->name, other);
        free(file);
        free(pm);
    }
}

/* Read package directory `dir` holding package `name` inside package
 * directory up (-1: a top-level package). */
static fl_class_ast *load_pkgdir(fl_libs *L, const char *dir, const char *name, size_t len, int up)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        fl_err(L->d, fl_noloc, "cannot open %s: %s", dir, strerror(errno));
        return NULL;
    }
    for (int k = up; k >= 0; k = L->pkgs.v[k].up)
        if (L->pkgs.v[k].dev == st.st_dev && L->pkgs.v[k].ino == st.st_ino) {
            fl_loc loc = {dir, 0, 0};
            fl_err(L->d, loc, "this directory is package %s again (a cycle of symbolic links)", L->pkgs.v[k].full);
            return NULL;
        }
    const char *within = up >= 0 ? L->pkgs.v[up].full : "";
    char *pm = fl_xsprintf("%s/package.mo", dir);
    fl_class_ast *c = load_file(L, pm, name, len, within, up >= 0 ? L->pkgs.v[up].cls : NULL, 1);
    free(pm);
    if (!c) return NULL;
    pkgdir p;
    memset(&p, 0, sizeof p);
    p.cls = c;
    p.dir = fl_xstrdup(dir);
    p.full = *within ? fl_xsprintf("%s.%.*s", within, (int)len, name) : fl_xstrndup(name, len);
    p.dev = st.st_dev;
    p.ino = st.st_ino;
    p.up = up;
    FL_VEC_PUSH(L->pkgs, p);
    int k = (int)L->pkgs.n - 1;
    char key[2 * sizeof(void *) + 8];
    ptr_key(key, sizeof key, c);
    fl_map_put(&L->cls_of, key, k + 1);
    check_nested(L, k);
    read_order(L, k);
    return c;
}

/* ------------------------------------------------------------------------
 * Lookup
 * ------------------------------------------------------------------------ */

/* Remembered result of a lookup: 1 and *c when known (*broken: its files
 * had errors). */
static int memo_get(const fl_libs *L, int k, const char *name, size_t len, const fl_class_ast **c, int *broken)
{
    char *key = fl_xsprintf("%d/%.*s", k, (int)len, name);
    int v = fl_map_get(&L->memo, key);
    free(key);
    if (v < 0) return 0;
    *c = L->found.v[v / 2];
    *broken = v % 2;
    return 1;
}

/* Remember the result of a lookup that began with `errors` errors in d. */
static const fl_class_ast *memo_put(fl_libs *L, int k, const char *name, size_t len, const fl_class_ast *c,
                                    int errors)
{
    char *key = fl_xsprintf("%d/%.*s", k, (int)len, name);
    FL_VEC_PUSH(L->found, c);
    fl_map_put(&L->memo, key, 2 * ((int)L->found.n - 1) + (!c && fl_diag_errors(L->d) > errors));
    free(key);
    return c;
}

int fl_libs_broken(const fl_libs *L, const fl_class_ast *pkg, const char *name, size_t len)
{
    const fl_class_ast *c = NULL;
    int broken = 0;
    int k = pkg ? pkg_index(L, pkg) : -1;
    if (!L || (pkg && k < 0)) return 0;
    return memo_get(L, k, name, len, &c, &broken) && broken;
}

const fl_class_ast *fl_libs_child(fl_libs *L, const fl_class_ast *pkg, const char *name, size_t len)
{
    if (!L || !pkg) return NULL;
    int k = pkg_index(L, pkg);
    const fl_class_ast *c = NULL;
    int broken, errors = fl_diag_errors(L->d);
    if (k < 0 || !is_ident(name, len)) return NULL;
    if (memo_get(L, k, name, len, &c, &broken)) return c;
    int is_dir = 0;
    char *where = NULL;
    char *dir = fl_xstrdup(L->pkgs.v[k].dir), *full = fl_xstrdup(L->pkgs.v[k].full);
    if (stored_child(L, dir, name, len, full, &is_dir, &where) > 0)
        c = is_dir ? load_pkgdir(L, where, name, len, k)
                   : load_file(L, where, name, len, full, L->pkgs.v[k].cls, 0);
    free(where);
    free(dir);
    free(full);
    return memo_put(L, k, name, len, c, errors);
}

/* Compare versions by their numbers ("1.10" after "1.9"). */
static int version_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            char *ea, *eb;
            unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
            if (x != y) return x < y ? -1 : 1;
            a = ea;
            b = eb;
        } else {
            if (*a != *b) return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
            a++;
            b++;
        }
    }
    return *a ? 1 : *b ? -1 : 0;
}

/* "P 1.2/" or "P 1.2.mo" in dir when there is no plain P: the highest
 * version. Returns its file or directory name (owned) or NULL. */
static char *versioned(const char *dir, const char *name, size_t len)
{
    DIR *dh = opendir(dir);
    if (!dh) return NULL;
    char *best = NULL;
    struct dirent *de;
    while ((de = readdir(dh))) {
        if (strncmp(de->d_name, name, len) != 0 || de->d_name[len] != ' ') continue;
        if (!best || version_cmp(de->d_name + len + 1, best + len + 1) > 0) {
            free(best);
            best = fl_xstrdup(de->d_name);
        }
    }
    closedir(dh);
    return best;
}

/* Top-level class `name` in a directory of packages (0: not there). */
static int from_dir(fl_libs *L, const entry *e, const char *name, size_t len, const fl_class_ast **c)
{
    int is_dir = 0;
    char *where = NULL;
    int r = stored_child(L, e->path, name, len, "", &is_dir, &where);
    if (r < 0) return 1;
    if (r == 0) {
        char *v = versioned(e->path, name, len);
        if (!v) return 0;
        where = fl_xsprintf("%s/%s", e->path, v);
        size_t n = strlen(v);
        is_dir = !(n > 3 && strcmp(v + n - 3, ".mo") == 0);
        free(v);
    }
    *c = is_dir ? load_pkgdir(L, where, name, len, -1) : load_file(L, where, name, len, "", NULL, 0);
    free(where);
    return 1;
}

const fl_class_ast *fl_libs_top(fl_libs *L, const char *name, size_t len)
{
    const fl_class_ast *c = NULL;
    int broken, errors = L ? fl_diag_errors(L->d) : 0;
    if (!L || !is_ident(name, len) || reserved(name, len)) return NULL;
    if (memo_get(L, -1, name, len, &c, &broken)) return c;
    for (int i = 0; i < L->ne; i++) {
        const entry *e = &L->e[i];
        if (e->missing) continue;
        if (e->kind == E_DIR) {
            if (from_dir(L, e, name, len, &c)) break;
        } else if (strlen(e->name) == len && strncmp(e->name, name, len) == 0) {
            c = e->kind == E_PKGDIR ? load_pkgdir(L, e->path, name, len, -1)
                                    : load_file(L, e->path, name, len, "", NULL, 0);
            break;
        }
    }
    return memo_put(L, -1, name, len, c, errors);
}

/* ------------------------------------------------------------------------
 * Listing a package
 * ------------------------------------------------------------------------ */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

const char *const *fl_libs_elements(fl_libs *L, const fl_class_ast *pkg, int *n)
{
    *n = 0;
    int k = L ? pkg_index(L, pkg) : -1;
    if (k < 0) return NULL;
    pkgdir *p = &L->pkgs.v[k];
    if (p->has_elems) {
        *n = p->nelems;
        return (const char *const *)p->elems;
    }
    FL_VEC(char *) rest = {0};
    for (size_t i = 0; i < p->cls->classes.n; i++) FL_VEC_PUSH(rest, fl_xstrdup(p->cls->classes.v[i]->name));
    DIR *dh = opendir(p->dir);
    struct dirent *de;
    while (dh && (de = readdir(dh))) {
        size_t len = strlen(de->d_name);
        if (len > 3 && strcmp(de->d_name + len - 3, ".mo") == 0 && strcmp(de->d_name, "package.mo") != 0 &&
            is_ident(de->d_name, len - 3)) {
            FL_VEC_PUSH(rest, fl_xstrndup(de->d_name, len - 3));
        } else if (is_ident(de->d_name, len)) {
            char *pm = fl_xsprintf("%s/%s/package.mo", p->dir, de->d_name);
            struct stat st;
            if (stat(pm, &st) == 0) FL_VEC_PUSH(rest, fl_xstrdup(de->d_name));
            free(pm);
        }
    }
    if (dh) closedir(dh);
    if (rest.n) qsort(rest.v, rest.n, sizeof *rest.v, cmp_str);
    fl_map have = {0};
    p->elems = fl_xcalloc((size_t)p->norder + rest.n + 1, sizeof *p->elems);
    for (int i = 0; i < p->norder; i++) {
        p->elems[p->nelems++] = fl_xstrdup(p->order[i]);
        fl_map_put(&have, p->order[i], 1);
    }
    for (size_t i = 0; i < rest.n; i++) {
        if (fl_map_get(&have, rest.v[i]) < 0) {
            fl_map_put(&have, rest.v[i], 1);
            p->elems[p->nelems++] = rest.v[i];
        } else {
            free(rest.v[i]);
        }
    }
    FL_VEC_FREE(rest);
    fl_map_free(&have);
    p->has_elems = 1;
    *n = p->nelems;
    return (const char *const *)p->elems;
}
