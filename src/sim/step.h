/* step.h - a run taken in pieces, for the FMU runtime (src/fmi): Co-Simulation
 * advances the run to communication points with IDA inside; Model Exchange
 * hands the continuous states, their derivatives and the event indicators to
 * the importer's integrator and processes the events it reports; a snapshot
 * saves and restores the whole state of a run. fl_sim_run is the same
 * machinery driven from start to stop (integrate.c), so an FMU computes what
 * `flange simulate` computes. Internal: not in flange.h.
 *
 * Every function runs under the library's recovery point (out of memory and
 * internal errors return -1 with a message in d); d may be NULL. */
#ifndef FL_STEP_H
#define FL_STEP_H

#include <stddef.h>

#include "flange.h"

/* ---- Co-Simulation ------------------------------------------------------ */

/* Initialise at o->start_time exactly as fl_sim_run does (seeds, modes,
 * initial solve, the initial event iteration, relations leaving zero) and set
 * up IDA. o->stop_time is the end the run may be asked to reach (+INFINITY:
 * none); o->interval is not used. All output variables at the start are
 * available through fl_step_values afterwards. 0 or -1. */
int fl_step_begin(fl_sim *s, const fl_sim_opts *o, fl_diag *d);

/* Integrate from the current time to tout (> current time), locating and
 * processing every state and time event on the way, an event exactly at
 * tout included (the values at tout are the values after it). Returns 0
 * with the state at tout, 1 when terminate() ended the run earlier (the
 * current time says when), -1 on failure. */
int fl_step_advance(fl_sim *s, double tout, fl_diag *d);

/* Parameters (tunable ones, or the constant sources that carry the FMU's
 * inputs) were changed with fl_sim_set_param between two steps: re-solve the
 * algebraic part, run the event iteration at the current time and restart
 * the integrator there (a discontinuity). 0 or -1. */
int fl_step_discontinuity(fl_sim *s, fl_diag *d);

/* The current time of a run begun with fl_step_begin or fl_me_begin. */
double fl_step_time(const fl_sim *s);

/* Every output variable at the current time (consistent with the current
 * state and parameters) into the values fl_sim_value reads. 0 or -1 (a value
 * is not finite: the message names it). */
int fl_step_values(fl_sim *s, fl_diag *d);

/* End the run: terminal() of the equations, the integrator freed. A sim may
 * be begun again afterwards. */
void fl_step_end(fl_sim *s, fl_diag *d);

/* ---- Model Exchange ----------------------------------------------------- */

/* Initialise as fl_step_begin, without an integrator. The continuous states
 * are the differential unknowns (body positions as displacements from their
 * initial place, velocities, states of the equations), in system order. */
int fl_me_begin(fl_sim *s, const fl_sim_opts *o, fl_diag *d);
int fl_me_nstates(const fl_sim *s);
int fl_me_nindicators(const fl_sim *s);
/* The name of state k ("mass.s", "mass.v", as the system names its unknown). */
const char *fl_me_state_name(const fl_sim *s, int k);
void fl_me_get_states(const fl_sim *s, double *x);
void fl_me_nominals(const fl_sim *s, double *nominal);
/* Set the time / the states; the algebraic part is solved lazily, at the next
 * call that needs it. */
void fl_me_set_time(fl_sim *s, double t);
/* Parameters or inputs changed (fl_sim_set_param): the algebraic part and
 * the derivatives are solved again at the next call that needs them. */
void fl_me_invalidate(fl_sim *s);
void fl_me_set_states(fl_sim *s, const double *x);
/* Derivatives of the states (the algebraic part solved at the current time
 * and states). In a CS run: the derivatives at the communication point, as
 * the integrator left them. 0 or -1. */
int fl_me_derivatives(fl_sim *s, double *dx, fl_diag *d);
/* The event indicators: the root functions of the relations, contacts and
 * friction switches (the functions IDA's root finding sees in a CS run; in a
 * CS run evaluated at the communication point). */
int fl_me_indicators(fl_sim *s, double *z, fl_diag *d);
/* After an accepted integrator step: the indicator values become the
 * reference the next event's crossing directions are taken against. 1 (and
 * the reference kept) when an indicator changed sign since the reference:
 * the importer must enter event mode now (FMI's enterEventMode); 0 or -1. */
int fl_me_completed_step(fl_sim *s, fl_diag *d);
/* Event mode at the current time: a time event, a state event (the
 * indicators that changed sign since the reference crossed), or a change of
 * inputs/parameters. Runs the event iteration and everything fl_sim_run does
 * at an event. *states_changed: a continuous state jumped (an impact, a
 * locking friction, reinit) or a discrete state changed (the derivatives
 * jump: the importer must restart its integrator); *terminate: terminate() was called;
 * *next_time: the next time event (+INFINITY: none). 0 or -1. */
int fl_me_event(fl_sim *s, int *states_changed, int *terminate, double *next_time, fl_diag *d);
/* The first time event after the current time (+INFINITY: none). */
double fl_me_next_time_event(const fl_sim *s);
void fl_me_end(fl_sim *s, fl_diag *d);

/* ---- Snapshots (FMU state) ---------------------------------------------- */

/* The bytes a snapshot of the run takes, and the snapshot itself (n must be
 * that size): time, every unknown and its derivative, discrete states,
 * parameters, the counters and warnings of the run, and whether it is a CS
 * or an ME run. Raw host byte order; a header (magic, flange version,
 * the system's sizes) guards restore. */
size_t fl_sim_snapshot_size(const fl_sim *s);
int fl_sim_snapshot(const fl_sim *s, void *buf, size_t n);
/* Restore a snapshot taken of a sim of the same system. A CS run restarts
 * IDA at the restored point (IDA's step history cannot be restored: the
 * continuation agrees with the uninterrupted run to the tolerance; restoring
 * the same snapshot twice gives the same results bit for bit). The sim need
 * not have begun a run: restore begins it (CS or ME as saved) with the
 * options given (o may be NULL for the defaults). 0 or -1 (a snapshot of
 * another system, version or size is refused with a message). */
int fl_sim_restore(fl_sim *s, const void *buf, size_t n, const fl_sim_opts *o, fl_diag *d);

#endif
