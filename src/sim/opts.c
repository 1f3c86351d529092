/* opts.c - what a run accepts, checked before anything is set up: a library
 * user passes fl_sim_opts directly, so the checks live here and not in the
 * command-line tool, and a bad value gets a message naming it instead of
 * an integrator failure later (IDA reports a tolerance of 1e-300 as a
 * failed error test at t = 0). */
#include "sim/opts.h"

#include <math.h>
#include <stdarg.h>

#include "util/diag.h"

double fl_output_grid_points(const fl_sim_opts *o)
{
    double span = o->stop_time - o->start_time;
    /* as the integrator's grid: a last point closer than 1e-9 intervals to
     * the stop time is the stop time */
    return 1 + ceil(span / o->interval - 1e-9);
}

double fl_output_limit(const fl_sim_opts *o)
{
    return o->max_outputs > 0 ? (double)o->max_outputs : FL_MAX_OUTPUTS_DEFAULT;
}

int fl_outputs_few(int nsel, int nvars)
{
    return 2 * (long)nsel <= (long)nvars;
}

int fl_sim_check_opts(const fl_sim_opts *o, fl_diag *d)
{
    if (!isfinite(o->start_time) || !isfinite(o->stop_time)) {
        fl_err(d, fl_noloc, "the start and stop times must be finite numbers (got %g and %g)", o->start_time,
               o->stop_time);
        return -1;
    }
    if (o->stop_time <= o->start_time) {
        fl_err(d, fl_noloc, "the stop time (%g) must be greater than the start time (%g)", o->stop_time, o->start_time);
        return -1;
    }
    if (!isfinite(o->stop_time - o->start_time)) {
        fl_err(d, fl_noloc, "the time span from %g to %g is too large for double precision", o->start_time,
               o->stop_time);
        return -1;
    }
    if (!(o->interval > 0) || !isfinite(o->interval)) {
        fl_err(d, fl_noloc, "the output interval must be a positive finite number (got %g)", o->interval);
        return -1;
    }
    if (!(o->tolerance >= FL_TOLERANCE_MIN && o->tolerance <= FL_TOLERANCE_MAX)) {
        fl_err(d, fl_noloc, "the tolerance must be between %g and %g (got %g)", FL_TOLERANCE_MIN, FL_TOLERANCE_MAX,
               o->tolerance);
        return -1;
    }
    if (o->max_outputs < 0) {
        fl_err(d, fl_noloc, "the limit on output points must not be negative (got %ld)", o->max_outputs);
        return -1;
    }
    double n = fl_output_grid_points(o), lim = fl_output_limit(o);
    if (n > lim) {
        fl_err(d, fl_noloc,
               "the output interval %g from %g to %g gives %.0f output points, more than the limit of %.0f "
               "(choose a larger interval, or raise the limit: fl_sim_opts.max_outputs, flange simulate --max-rows)",
               o->interval, o->start_time, o->stop_time, n, lim);
        return -1;
    }
    if (o->solver < FL_SOLVER_AUTO || o->solver > FL_SOLVER_KLU) {
        fl_err(d, fl_noloc, "unknown linear solver %d", o->solver);
        return -1;
    }
    return 0;
}
