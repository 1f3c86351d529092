/* select.h - what the result writers (CSV, MAT) share: the variables a run
 * writes. */
#ifndef FL_SELECT_H
#define FL_SELECT_H

#include "flange.h"

/* The variables the globs select (all but the on-request ones when there
 * are none), into a new array of *nsel indices; NULL with a message when a
 * glob matches nothing. */
int *fl_select_columns(const fl_system *sys, const char *const *globs, int nglobs, int *nsel, fl_diag *d);

/* Counts one more output point in *rows: 0 within max_rows, else 1 with
 * the message that the run was stopped at t (both writers stop there). */
int fl_output_row_over(double *rows, double max_rows, double t, fl_diag *d);

/* The description of output variable i ("" when it has none). */
const char *fl_system_var_desc(const fl_system *sys, int i);

#endif
