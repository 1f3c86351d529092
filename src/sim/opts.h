/* opts.h - checks of the run options (fl_sim_opts) shared by every entry
 * point that runs a simulation, and the size of the output grid they give. */
#ifndef FL_OPTS_H
#define FL_OPTS_H

#include "flange.h"

/* 0 if the options describe a run flange can do; otherwise -1 with a
 * message naming the bad option and the accepted range. */
int fl_sim_check_opts(const fl_sim_opts *o, fl_diag *d);

/* Points of the output grid from start_time to stop_time in steps of
 * interval, both ends included (events add two points each on top). */
double fl_output_grid_points(const fl_sim_opts *o);

/* The limit on output points these options set (max_outputs or the default). */
double fl_output_limit(const fl_sim_opts *o);

/* Whether nsel selected outputs are few enough among a system's nvars
 * variables that a selected_only run keeps them alone (at most half);
 * more are kept per variable and copied, which then costs less than
 * where each selected one goes. */
int fl_outputs_few(int nsel, int nvars);

#endif
