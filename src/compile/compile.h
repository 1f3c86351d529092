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
/* The parameters' storage cut to the rows kept (fl_compile_params keeps
 * a row once per distinct row of a class, par[prow + k]), and the elements
 * read their rows. */
void fl_params_share(fl_system *s);
/* The range check of a numeric parameter value (min, max, integer), with
 * the message naming inst.param; 0 when valid. */
int fl_param_check_number(const char *inst, const fl_param_def *pd, double x, fl_loc loc, fl_diag *d);

/* Does some row of an element with these callbacks depend on local column
 * col (dense masks or the sparse list)? */
int fl_ops_uses_column(const fl_elem_ops *ops, int col);

#endif
