/* bundled.h - the MSL interface classes flange carries as Modelica text
 * (bundled.c), found by their full path. */
#ifndef FL_BUNDLED_H
#define FL_BUNDLED_H

#include "parse/ast.h"

/* The class of full path `path` ("Modelica.Mechanics.Translational.
 * Interfaces.PartialCompliant"), NULL if flange does not carry it. */
const fl_class_ast *fl_bundled_class(const char *path);

#endif
