/* instantiate.h - the entry of the instantiation stage (instantiate.c),
 * apart from model.h because it takes a syntax tree: model.h is read by
 * the compiler, which must not see one (docs/architecture.md, "Layers"). */
#ifndef FL_INSTANTIATE_H
#define FL_INSTANTIATE_H

#include "model.h"
#include "parse/ast.h"

/* Instantiate a parsed file. A file without classes (from
 * fl_model_load_class) takes opts->model_name from the libraries. */
fl_model *fl_instantiate(fl_file_ast *ast, const fl_load_opts *opts, fl_diag *d);

#endif
