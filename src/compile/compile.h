/* compile.h - the stages of compilation, in order:
 *   params     evaluate and check parameters
 *   structure  ports, nodes, build() primitives, bodies, signals
 *   layout     unknowns, residual rows, Jacobian patterns and entries
 *   init       initial conditions and their structural check
 *   vars       the output variable table */
#ifndef FL_COMPILE_H
#define FL_COMPILE_H

#include "system.h"

int fl_compile_params(fl_system *s, const fl_model *m, fl_diag *d);

#endif
