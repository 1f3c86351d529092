/* library.h - Modelica libraries stored in the file system (--lib entries
 * and MODELICAPATH directories), loaded lazily into class trees.
 *
 * Why a separate loader: a model file is one syntax tree, but a library
 * is a tree of files (Modelica Language Specification, "Mapping package/
 * class structures to a hierarchical file system"):
 *
 *   P.mo              within; package P ... end P;   a package in one file
 *   P/package.mo      within; package P ... end P;   a package as a directory
 *   P/X.mo            within P; model X ... end X;   one class per file
 *   P/Sub/package.mo  within P; package Sub ...      subpackages
 *   P/package.order   the element names in order (optional)
 *
 * Every file is parsed into its own fl_file_ast; the loader joins them
 * into one class tree per top-level package by setting `parent` (a class
 * of P/Sub/X.mo has P.Sub's class as parent, so name lookup inside it
 * follows Modelica scoping through P.Sub and P), and checks that each file
 * holds the class its name says, with the right `within`. Nothing is read
 * before it is needed: package.mo when P is first referenced, X.mo when
 * P.X is, so one class of a big library costs its own files and those of
 * its enclosing packages. Lookups are remembered (found, absent or broken),
 * so a broken file is reported once.
 *
 * The top-level names Modelica and Flange are flange's built-in classes:
 * a library of that name on the path is never read (README.md, "Models"). */
#ifndef FL_LIBRARY_H
#define FL_LIBRARY_H

#include "parse/ast.h"

typedef struct fl_libs fl_libs;

/* The search path: each of libs (a package directory holding package.mo, a
 * single-file package P.mo, or a directory of packages), then each
 * directory of modelicapath (':'-separated; NULL or "" for none). A libs
 * entry that does not exist or is neither kind is an error; a missing
 * MODELICAPATH directory is skipped (and named in "not found" messages).
 * *out is NULL when there is nothing to search. Returns -1 on errors
 * (reported to d, which the loader keeps for its later messages). */
int fl_libs_open(const char *const *libs, int nlibs, const char *modelicapath, fl_diag *d, fl_libs **out);
void fl_libs_free(fl_libs *L);

/* The top-level class `name` (len characters) of the first entry that has
 * it, loaded on first use; NULL when none has it or its file is broken
 * (reported once). */
const fl_class_ast *fl_libs_top(fl_libs *L, const char *name, size_t len);
/* Class `name` of package pkg stored in a file or directory of its own,
 * loaded on first use; NULL when pkg is not a package directory of a
 * library or has no such file (classes written inside package.mo are
 * pkg's nested classes, not looked up here). */
const fl_class_ast *fl_libs_child(fl_libs *L, const fl_class_ast *pkg, const char *name, size_t len);
/* Did looking up `name` in pkg (NULL: at the top level) fail because the
 * files holding it have errors (reported when they were read)? */
int fl_libs_broken(const fl_libs *L, const fl_class_ast *pkg, const char *name, size_t len);
/* Was c read from a library (rather than the model file)? */
int fl_libs_has(const fl_libs *L, const fl_class_ast *c);
/* The names of pkg's classes (nested in package.mo, and files and
 * directories for a package directory), in the order of package.order,
 * those it does not list after it by name. Owned by L. */
const char *const *fl_libs_elements(fl_libs *L, const fl_class_ast *pkg, int *n);
/* Where libraries are searched, for messages: "--lib A, MODELICAPATH B, C". */
void fl_libs_where(const fl_libs *L, fl_buf *b);
/* Hand the names of the files read over to the caller (push onto *paths):
 * locations point to them, so they must outlive the syntax trees. */
void fl_libs_take_paths(fl_libs *L, char ***paths, size_t *n);

#endif
