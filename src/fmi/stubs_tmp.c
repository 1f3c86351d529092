/* TEMPORARY: stand-ins for helper A's src/sim/step.h and helper B's
 * src/fmi/fmu.h functions until they land on main (deleted then). */
#include <math.h>
#include <string.h>
#include "fmi/fmu.h"
#include "sim/step.h"
int fl_step_begin(fl_sim *s, const fl_sim_opts *o, fl_diag *d) { return -1; }
int fl_step_advance(fl_sim *s, double tout, fl_diag *d) { return -1; }
int fl_step_discontinuity(fl_sim *s, fl_diag *d) { return -1; }
double fl_step_time(const fl_sim *s) { return 0; }
int fl_step_values(fl_sim *s, fl_diag *d) { return -1; }
void fl_step_end(fl_sim *s, fl_diag *d) {}
int fl_me_begin(fl_sim *s, const fl_sim_opts *o, fl_diag *d) { return -1; }
int fl_me_nstates(const fl_sim *s) { return 0; }
int fl_me_nindicators(const fl_sim *s) { return 0; }
const char *fl_me_state_name(const fl_sim *s, int k) { return ""; }
void fl_me_get_states(const fl_sim *s, double *x) {}
void fl_me_nominals(const fl_sim *s, double *nominal) {}
void fl_me_set_time(fl_sim *s, double t) {}
void fl_me_set_states(fl_sim *s, const double *x) {}
int fl_me_derivatives(fl_sim *s, double *dx, fl_diag *d) { return -1; }
int fl_me_indicators(fl_sim *s, double *z, fl_diag *d) { return -1; }
int fl_me_completed_step(fl_sim *s, fl_diag *d) { return -1; }
int fl_me_event(fl_sim *s, int *a, int *b, double *c, fl_diag *d) { return -1; }
double fl_me_next_time_event(const fl_sim *s) { return INFINITY; }
void fl_me_end(fl_sim *s, fl_diag *d) {}
size_t fl_sim_snapshot_size(const fl_sim *s) { return 0; }
int fl_sim_snapshot(const fl_sim *s, void *buf, size_t n) { return -1; }
int fl_sim_restore(fl_sim *s, const void *buf, size_t n, const fl_sim_opts *o, fl_diag *d) { return -1; }
int fl_fmu_cfg_parse(const char *text, fl_fmu_cfg *cfg, fl_diag *d) { memset(cfg, 0, sizeof *cfg); return -1; }
void fl_fmu_cfg_free(fl_fmu_cfg *cfg) {}
int fl_fmu_vars_build(const fl_system *sys, fl_sim *sim, const fl_fmu_cfg *cfg, fl_fmu_vars *out, fl_diag *d) { return -1; }
void fl_fmu_vars_free(fl_fmu_vars *t) {}
void fl_fmu_token(const char *model_text, const fl_fmu_cfg *cfg, const fl_fmu_vars *t, char out[40]) { out[0] = 0; }
