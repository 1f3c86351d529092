/* functions.h - functions callable in parameter expressions: Modelica
 * built-ins (sin, abs, size, ...) and library functions flange implements
 * (GenerateStribeckFrictionTable). */
#ifndef FL_FUNCTIONS_H
#define FL_FUNCTIONS_H

#include "eval.h"

/* Evaluate a call expression. Returns 0 or -1 after reporting an error. */
int fl_eval_call(const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d);

#endif
