/* bundled.h - the Modelica classes flange carries as text
 * (src/model/msl/NAME.mo, compiled in by cmake/embed_texts.cmake), found by
 * their full path. */
#ifndef FL_BUNDLED_H
#define FL_BUNDLED_H

#include <stdio.h>

#include "parse/ast.h"
#include "util/suggest.h"

/* One file of src/model/msl: its name (the package its within clause
 * names, "Modelica.Blocks.Math") and its text. */
typedef struct fl_bundled_text {
    const char *name;
    const char *text;
} fl_bundled_text;
extern const fl_bundled_text fl_bundled_texts[];
extern const int fl_bundled_ntexts;

/* The class of full path `path` ("Modelica.Mechanics.Translational.
 * Interfaces.PartialCompliant"), NULL if flange does not carry it. */
const fl_class_ast *fl_bundled_class(const char *path);

/* Is `path` a package flange carries classes of (the within clause of
 * one of its files, or a package enclosing one)? */
int fl_bundled_package(const char *path);

/* The within clause of the file that holds the top-level class c, NULL
 * if c is none of flange's (the full path of a class nested in one). */
const char *fl_bundled_within(const fl_class_ast *c);

/* Every class flange carries: calls fn(path, class, user) for each, in
 * file order (the component listing, the tests). Returns the number of
 * files that did not parse, with their messages in d (none in a release). */
int fl_bundled_each(void (*fn)(const char *path, const fl_class_ast *c, void *user), void *user, fl_diag *d);

/* Print the blocks and models flange carries as Modelica text (not the
 * partial classes) as `flange components` lists its C classes: path,
 * description, ports, parameters with their defaults, variables. */
void fl_bundled_print(FILE *out);

/* Offer the bundled models and blocks nearest to a misspelt class name
 * (as fl_class_suggest does for the C classes). */
void fl_bundled_suggest(const char *written, fl_suggest *s);

/* Free the parsed bundled classes (parsed again on the next use).
 * For the FMU runtime (src/fmi/inst.c), whose copy of the library is unmapped
 * when the importer unloads the FMU: what it allocated for the whole process
 * would be lost with every unload. No simulation may be alive. */
void fl_bundled_shutdown(void);

#endif
