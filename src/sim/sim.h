/* sim.h - the mutable simulation state (fl_sim) and the evaluation entry
 * points shared by the integrator driver, the consistent-initialisation
 * solver and the output stage. */
#ifndef FL_SIM_H
#define FL_SIM_H

#include <math.h>

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include "compile/system.h"

/* A linear system of the (re-)initialisation's Newton iteration (linsys.c):
 * values in the order of pat, factored by a dense LU or KLU; a diagonal
 * pat's values are only divided by. */
typedef struct fl_linsys {
    const fl_csc *pat;
    int n;
    double *data; /* values in pattern order */
    const struct fl_linsys_ops *ops; /* NULL: not made */
    void *impl;
} fl_linsys;

#define FL_NENERGY 5 /* energy.kinetic, .potential, .dissipated, .work, .drift */

typedef struct fl_erates {
    double ekin, upot;   /* kinetic and stored energy */
    double ploss, pwork; /* dissipated power and power of the sources */
} fl_erates;

/* Passes of an event iteration (and of the initial modes) before the modes
 * are declared not to settle. */
#define FL_MAX_EVENT_ITER 50

/* What is under way on a sim (fl_run.kind). */
enum { FL_RUN_NONE, FL_RUN_CS, FL_RUN_ME };

/* A run between its phases (integrate.c): fl_sim_run drives them from the
 * start to the stop time in one call; the stepping functions (step.c) take
 * the same run in pieces, so both compute the same thing. */
typedef struct fl_run {
    double t0, h, tend; /* start, output interval, end of the run (+INFINITY: none, stepping) */
    double t;           /* how far the run has come */
    long kgrid;         /* the next output grid point, t0 + kgrid h */
    long stalled;       /* consecutive steps that did not move time */
    int emit_grid;      /* 1: values on the grid and at both sides of events go to fn
                           (fl_sim_run); 0: none are computed (stepping) */
    fl_output_fn fn;
    void *user;
    int stopped; /* what fn or progress returned to stop the run */
    int (*progress)(void *user, double t, const struct fl_stats *st);
    void *progress_user;
    int energy; /* the energy audit was asked for (s->energy drops when it overflows) */
    int kind;   /* FL_RUN_*: CS or ME between begin and end */
    /* Model Exchange (step.c) */
    int me_dirty;  /* time or states set since the algebraic part was solved */
    int me_zref;   /* z_ref holds indicator values */
    double *z_ref; /* the indicators after the last event or completed step */
} fl_run;

struct fl_ida;

/* The integrator's linear solver (idals.c): makes IDA's matrix and solver
 * over a pattern, and fills the matrix with the Jacobian at (t, y, yp),
 * the evaluation scoped by s->sc (1 when a value is not finite). */
typedef struct fl_ida_ls {
    const char *name;
    int (*make)(struct fl_sim *s, struct fl_ida *I, int n, const fl_csc *pat);
    int (*fill)(struct fl_sim *s, SUNMatrix J, const fl_csc *p, double t, double cj, const double *y,
                const double *yp);
} fl_ida_ls;

/* KLU's (klu != 0) or the dense LU's; name is what fl_stats.linear_solver says. */
const fl_ida_ls *fl_ida_ls_for(int klu);

/* An IDA with its vectors (solution, derivatives, interpolation) and
 * linear solver. (The absolute tolerances are IDA's copy alone: they are
 * rtol x nominal, which fl_first_step reads from the system.) */
typedef struct fl_ida {
    void *mem;
    N_Vector yv, ypv, qy, qyp;
    SUNMatrix A;
    SUNLinearSolver LS;
    const fl_ida_ls *ls;
} fl_ida;

/* The integrator of one independent group (groups.c). */
typedef struct fl_grun {
    struct fl_sim *sim;
    int g;
    fl_ida I;
    int use_klu;
    fl_linsys reinit_ls;  /* re-initialisation over the group's rpat */
    double t, tprev;      /* reached, and the start of the last step */
    double te;            /* its next time event */
    double tstop;         /* the stop time IDA has */
    double t_left;        /* its sources are left limits at this time (te, or NAN) */
    int pending;          /* an event at t not processed yet: 1 state, 2 time */
    int here;             /* its event is the instant being processed */
    long stalled;
    int heap;             /* position in the run's heap, -1 when out of it */
    double e_tprev[4], e_t[4]; /* energy integrals from the start to tprev and to t */
    /* its own balance, when no output point shows the energy: kinetic and
     * stored energy at the start, impact losses and impulsive work of its
     * events, the largest drift seen at the end of a step */
    double e0, imp, impw, dmax;
} fl_grun;

/* A batch's local Jacobian blocks jloc[jbase, jend), whether its fast
 * kernel gives them (ok: a compliant class), and the run of entries
 * jent[j0, j1) that read them: when every element has m of them alike
 * (the t-th reading value dv[t] of its two, none with cj), m >= 0, else
 * -1 (fast.c). Where the system keeps a run of them by rule (a chain of
 * alike parts, compile/jrules.c), the scatter takes each element's slots
 * from the rule's steps instead of records. */
typedef struct fl_fast_jac {
    int ok, jbase, jend, j0, j1, m;
    int r0, nrule; /* the system's rules (fl_jrule) inside its entries: jrule[r0 ..] */
    unsigned char dv[8];
} fl_fast_jac;

/* The bodies of the whole system for the kinematics and the residual
 * (fast.c): the n free bodies (B_FREE) as structure of arrays (body,
 * position and velocity unknowns, mass), the other bodies' numbers, the
 * residual rows that are not a free body's (nrest), and per body the
 * position unknown of a massless body whose velocity is its derivative
 * (B_MLQ; -1 otherwise: the energy audit's powers). */
typedef struct fl_fast_bodies {
    int n, nother, nrest, ndriven; /* ndriven: bodies moved by a motion source (B_POS, B_VEL, B_ACC) */
    int *b, *qi, *vi, *other, *rest, *mlq;
    double *mass;
} fl_fast_bodies;

/* A strand (fast.c): consecutive batches g0 .. g1-1 of compliant classes
 * with a fast kernel and n elements each, element i of every one of them
 * between free bodies b0 + i (attachment 0) and b0 + i + 1 (attachment
 * 1), with ratio 1 and offset 0 (a chain of alike parts). Body b0 + j has
 * its position unknown at y[q0 + j dq] and its velocity unknown, which is
 * its residual row, at y[q0 + j dq + dv]. The integrator's residual walks
 * a strand a block of elements at a time: the positions and velocities
 * of the block's bodies from y, the forces of each batch's block into a
 * buffer, then each body's row. A body no element outside the strand, no
 * signal and no constraint reads or adds to is fused (fused[j]): the
 * strand alone gives its kinematics and its row, body term included
 * (mass[j]), and the residual's body passes skip it (fl_sim.fkeep). */
typedef struct fl_strand {
    int g0, g1, n, b0, q0, dq, dv;
    unsigned char *fused;
    double *mass;
    /* every body's mass (umass), every body's position offset (uqoff,
     * fl_sim.qoff) the same bit for bit: the strand reads the one value
     * instead of an array (fl_fast_ready) */
    int umass, uqoff;
    double mass0, qoff0;
} fl_strand;
/* Elements a strand evaluates per block, and the most batches it has. */
#define FL_STRAND_BLOCK 256
#define FL_STRAND_MAXB 4

/* The deepest penetration of a contact that went into its stop: depth
 * over gap (ratio), at time t. */
struct fl_pen {
    double ratio, depth, gap, t;
};

struct fl_sim {
    const fl_system *sys;
    /* Evaluation restricted to one independent group (NULL: the whole
     * system): eval.c, consistent.c, events.c and energy.c walk the
     * group's lists instead of everything. */
    const fl_scope *sc;
    /* grouped integration (groups.c): one integrator per group */
    fl_grun *grun;
    int ngrun;
    int one_integrator;   /* the run's option: no grouped integration */
    int solver_choice;    /* the run's option: FL_SOLVER_* */
    int *heap;            /* two heaps of groups by the time they reached (groups.c) */
    long gsteps;          /* steps of groups since the last progress call */
    double *gy, *gyp, *gres; /* the whole-system vectors a group's callbacks evaluate in */
    int *gdir;            /* crossing directions by global root index (zero outside a call) */
    double *gscr[3];      /* whole-system scratch vectors for a group's event handling */
    /* Outputs of a grouped run that selects positions and velocities only:
     * the groups they need (interpolated at output points; NULL: all), and
     * a scope with the bodies, drivers and inputs their kinematics read. */
    int *gout, ngout;
    unsigned char *gneed; /* per group: gout has it */
    fl_scope *osc;
    fl_run run;
    SUNContext ctx;
    /* The parameters: the system's rows (par[prow + k], alike instances
     * sharing one) until a parameter changes; then (par_own,
     * fl_sim_own_par) a row per instance of its own, par[pofs + k], read
     * through its own copies of the elements (elems, and gel for the
     * groups' scopes, gel_base being the system's copies they replace):
     * elements always read par + their pofs, instances at fl_sim_prow. */
    double *par;
    int par_own;
    const fl_elem *elems; /* the system's elements, or (par_own) elems_own */
    fl_elem *elems_own, *gel; /* (one block: gel follows the elements in it) */
    const fl_elem *gel_base;
    int *mode;
    double *rs;           /* discrete Real states of the elements */
    double *bminv;        /* per body: 1/mass, 0 if fixed or prescribed, NAN if massless */
    int *bvi;             /* per body: velocity index in y or -1 */
    int *bqi;             /* per body: position index in y or -1 */
    char elem_err[FL_ERRLEN]; /* message of an element's failed event */
    int terminate;        /* an element asked to end the run (terminate()) */
    int terminal;         /* the event update at the end of the run is in progress (terminal()) */
    int samples_off;      /* the event update that ends an event instant is in progress */
    char term_msg[FL_ERRLEN]; /* where and why */
    char func_err[FL_ERRLEN]; /* the first failure of a user function in this run */
    fl_loc elem_err_loc;  /* where elem_err points in the model, file NULL: nowhere */
    char elem_warn[FL_ERRLEN]; /* a warning of the last event update */
    fl_loc elem_warn_loc;
    int func_fatal; /* a user function failed so that the run must stop (fl_ectx.func_fatal) */
    int elem_warn_elem; /* >= 0: the warning is about this element's variable; its name goes first */
    char last_warn[FL_ERRLEN]; /* the last one reported, and when: once per event instant */
    double last_warn_t;
    int last_changed;     /* element whose discrete state changed last (messages) */
    double impact_loss;   /* energy lost in impacts so far (closed form, fl_impact) */
    double impulse_work[2]; /* work of motion sources through impulses so far: signed, absolute */
    int contact_events;
    /* energy audit */
    int energy;
    double e_diss, e_work, e_work_abs, e_balance0, e_initial, e_drift_max;
    double e_loss_neg; /* integral of the negative part of the loss power (<= 0; any is a bug) */
    double e_seen_max; /* largest energy quantity seen (floor of the throughput) */
    double *eU, *eloss, *bodyF;
    /* deepest penetration of the contact elements that went into their
     * stops (warnings): contact k (element pen_el[k]) has record
     * pen.v[pen_at[k] - 1], none while pen_at[k] is 0 (most of a big
     * model's never touch); fl_pen_of, fl_pen_add, fl_pen_clear */
    FL_VEC(struct fl_pen) pen;
    int *pen_at;
    int *pen_el, npen_el; /* the contact elements whose penetration is tracked */
    N_Vector qy, qyp;     /* interpolated solution at quadrature points */
    double *bq, *bv, *ba; /* body reference position, velocity, acceleration */
    /* Body positions are integrated as displacements from their initial
     * position (bq = qoff + y[qi]), so that the relative tolerance acts on
     * motion, not on how far from the origin a body happens to sit. */
    double *qoff;
    double *u, *du, *ddu; /* input signals and (for drivers) their derivatives */
    fl_drv_out *drv;      /* current prescribed motion of each driver */
    double *f;            /* element attachment forces */
    /* per element batch (system egroup): its fast kernel's view (n = 0:
     * none; fast.c), the elements' offsets into the table of the
     * parameters the kernels read, and whether a parameter changed since
     * the table was made */
    fl_fast *fast;
    fl_fast_jac *fastj;
    fl_fast_bodies fbod;
    /* strands (fast.c), in batch order; the free bodies none of them
     * fuses (n, b, qi, vi, mass as in fbod; the integrator's residual
     * walks these, the fused ones in their strands; b NULL when no body
     * is fused: it walks fbod); ident: 0, 1, 1, 2, ..., the bodies of a
     * block's elements in its local arrays */
    fl_strand *strand;
    int nstrand;
    fl_fast_bodies fkeep;
    /* the rows the integrator's residual clears, as nzrow ranges [zrow[2k],
     * zrow[2k+1]) (NULL: all): not the fused bodies' (fast.c) */
    int *zrow, nzrow;
    int *strand_ident;
    int *fast_pofs;
    double *fast_tab;
    double *fast_place; /* the batches' off and ratio where not unit (fl_fast_plan) */
    int fast_stale;
    /* the position offsets or discrete Real states may have changed since
     * fl_fast_ready looked whether they are alike (fl_states_changed) */
    int uni_stale;
    double *jloc;
    double *res;          /* residual scratch */
    double *jdata;        /* IDA Jacobian values (jpat order) for the dense solver (fl_ida_create) */
    double *y, *yp;       /* current solution (the whole-system integrator returns its steps here: fl_ida_create) */
    double *ypol;         /* polished derivatives for output (with nodeE, linkf, portf: made when outputs first need them, eval.c) */
    double *yo, *ypo;     /* consistent copies of the interpolated solution for output (NULL: no algebraic unknowns) */
    /* outputs */
    double *nodeE, *linkf, *rootf, *portf, *vals;
    double *g;            /* root function values and the directions of the crossings: */
    int *rootdir;         /* made when a run looks for roots (fl_roots_room) */
    /* event handling */
    double t_left;  /* signals are evaluated as left limits at exactly this time */
    /* Cache of the time-only sources (the SIG_BLOCK entries of u, du, ddu):
     * while src_ok they hold the values at time src_t (as left limits if
     * src_left), and fl_eval_kinematics does not evaluate them again at that
     * same time point (the residual calls of a Newton iteration, the
     * Jacobian). A block's value depends only on its parameters, t and the
     * left flag, so the cached values are bit for bit those it would
     * compute; fl_sources_stale drops them wherever parameters may change
     * (fl_sim_set_param, snapshot restore, the start of a run) and at
     * events and restarts. */
    double src_t;
    int src_left, src_ok;
    const fl_scope *src_sc; /* the scope whose sources the cache holds */
    int initial;
    /* integrator */
    void *ida;
    N_Vector yv, ypv;
    SUNMatrix A;
    SUNLinearSolver LS;
    fl_linsys init_ls, reinit_ls;
    fl_csc ipat; /* init_ls's pattern (fl_init_pattern), made and freed with it */
    int use_klu;                /* the solvers' choice: KLU, else dense */
    const fl_ida_ls *ida_ls;    /* the integrator's (fl_ida_ls_for(use_klu)) */
    double rtol;
    double t_end, h_out;  /* stop time and output interval of the run */
    /* output selection of the run: variables, and the instances whose
     * class outputs they need (NULL: all) */
    int *out_vars;
    fl_var *out_def; /* what each of them is (fl_system_var) */
    int nout_vars;
    unsigned char *out_inst;
    int *out_ilist, nout_ilist; /* the instances out_inst marks, in order */
    /* selected_only runs (select_outputs): the selected values, cvals[k]
     * that of out_vars[k]; then vals (per variable) is made only when
     * outputs read forces known at output points (SIG_LATE) or when most
     * variables are selected (fl_outputs_few), and cvals gathered from
     * it. Per entry of out_ilist, its selected class variables:
     * oc_def/oc_k[oc0[j] .. oc0[j + 1]) (the class variable and its k),
     * computed into oscr; osort: (variable, k) pairs ordered by variable
     * (fl_sim_value). */
    double *cvals, *oscr;
    int *oc0, *oc_def, *oc_k, *osort;
    int maxp;          /* the most ports of an instance */
    int out_kinematic; /* the selected outputs are positions and velocities only: no force balance at output points */
    int erows;         /* a grouped run's output points compute the energy audit's values */
    int *tev, ntev;    /* elements with time events (asked at every step) */
    fl_stats stats;
    fl_diag *diag;
    char ida_msg[512];
    int have_values;
};

/* fast.c: the fast kernels' views of the element batches */
void fl_fast_plan(fl_sim *s);
void fl_fast_plan_free(fl_sim *s);
/* The table of the kernels' parameters, made again from s->par if a
 * parameter changed since (fast_stale); and which position offsets and
 * discrete Real states are alike, looked at again if they may have changed
 * (uni_stale). Allocates only for the table. */
void fl_fast_ready(fl_sim *s);
/* The forces of strand st added into x->res at (x->y, x->yp), with x
 * prepared for the integrator's residual: the rows of its bodies get the additions the
 * batches would give them one after another, in the same order; the fused
 * bodies' rows are finished (body terms). Returns 0 if a finished row is
 * not finite, else 1. */
int fl_strand_forces(fl_sim *s, const fl_strand *st, const fl_ectx *x);
/* The depth and gap of each contact of strand st at x->y (its batches
 * with penetration(): FL_FAST_PEN), a block at a time as
 * fl_strand_forces reads the positions: no kinematics of the whole system
 * needed. each(s, g, i0, m, out, t) receives elements i0 .. i0+m-1 of
 * batch g, element i0 + i's depth and gap at out[2 i], out[2 i + 1]. */
typedef void (*fl_pen_fn)(fl_sim *s, int g, int i0, int m, const double *out, double t);
void fl_strand_pen(fl_sim *s, const fl_strand *st, const fl_ectx *x, fl_pen_fn each, double t);

/* eval.c */
void fl_eval_kinematics(fl_sim *s, double t, const double *y, const double *yp);
int fl_eval_residual(fl_sim *s, double t, const double *y, const double *yp, double *res);
/* The same residual for the integrator: batches with a fast kernel add
 * their forces straight into the rows and leave s->f as it was. */
int fl_eval_residual_ida(fl_sim *s, double t, const double *y, const double *yp, double *res);
/* The integrator's Jacobian into jdata (its values already zero): the
 * same values as fl_eval_jacobian, the batches with a fast kernel
 * without their local Jacobian blocks. */
void fl_eval_jacobian_ida(fl_sim *s, double t, double cj, const double *y, const double *yp, double *jdata);
/* Fill the Jacobian entries: IDA matrix (if jdata), initialisation matrix
 * (if idata) and re-initialisation matrix (if rdata). */
void fl_eval_jacobian(fl_sim *s, double t, double cj, const double *y, const double *yp, double *jdata,
                      double *idata, double *rdata);
void fl_eval_roots(fl_sim *s, double t, const double *y, const double *yp, double *g);
/* The output variables at (t, y, yp) into s->vals, or (a selected_only
 * run that keeps the selected alone) into s->cvals. */
void fl_eval_outputs(fl_sim *s, double t, const double *y, const double *yp);
/* The value of every output variable (vals) where a run keeps it, made
 * if there is none, each set to fill (0: left as it is, zero when made). */
void fl_sim_full_values(fl_sim *s, double fill);
/* Frees the output selection of the last run (not vals). */
void fl_outputs_free(fl_sim *s);
/* Earliest time event strictly after t (INFINITY if none). */
double fl_next_time_event(const fl_sim *s, double t);
/* Event iteration of the discrete states at t; dir[k] crossing direction
 * of root k (NULL: none). Returns 1 when something changed, -1 when an
 * element failed (its message in s->elem_err). */
int fl_event_update(fl_sim *s, double t, double *y, const double *yp, const int *dir);
/* An evaluation context for the element callbacks at (t, y, yp) with the
 * current kinematics. */
void fl_init_ectx(fl_sim *s, fl_ectx *x, double t, double cj, const double *y, const double *yp, double *res,
                  int want_jac);
/* The elements' initial discrete states at (t, y, yp); returns 1 if any
 * differs from before the call. */
int fl_init_modes(fl_sim *s, double t, const double *y, const double *yp);
/* The elements' start hooks, after initialisation. */
void fl_start_elements(fl_sim *s, double t, const double *y, const double *yp);

/* integrate.c: the phases of a run. fl_sim_run = fl_run_init +
 * fl_run_start_ida + fl_run_advance(tend) + fl_run_end + fl_run_close. */
/* Options checked, the run's state reset, outputs selected, the
 * initialisation (seeds, modes, initial solve, start hooks, the initial
 * event iteration, relations leaving zero, samples ended); with emit_grid
 * the values at t0 go to fn. No integrator (Model Exchange uses it too).
 * check: run fl_sim_check_opts first. 0 or -1. */
int fl_run_init(fl_sim *s, const fl_sim_opts *o, int check, int emit_grid, fl_output_fn fn, void *user,
                fl_diag *d);
/* The first part of fl_run_init: the integrator freed, the run's state and
 * counters reset, the outputs selected; no initialisation (a snapshot's
 * restore writes the state). 0 or -1. */
int fl_run_reset(fl_sim *s, const fl_sim_opts *o, int emit_grid, fl_output_fn fn, void *user, fl_diag *d);
/* IDA set up at (run.t, y, yp) with the algebraic rates (a (re)start).
 * s->t_end and s->h_out must be set (the first step's size). 0 or -1. */
int fl_run_start_ida(fl_sim *s);
/* Integrate to target (<= run.tend), processing every event on the way; an
 * event exactly at target is processed unless target is the end of the run.
 * 0 with run.t == target and y, yp there, 1 when terminate() ended the run
 * earlier (run.t says when), -1 on failure (or run.stopped). */
int fl_run_advance(fl_sim *s, double target);
/* The end of a run at run.t: terminal(), the energy balance, the
 * penetration warnings. 0 or -1. */
int fl_run_end(fl_sim *s);
/* After the phases (ret: their result): the note on a failed user function,
 * IDA's counters added to the statistics, no run under way. Returns ret or
 * the code fn/progress stopped the run with. */
int fl_run_close(fl_sim *s, int ret);
/* Restart IDA at t after a discontinuity (positions rebased, the
 * algebraic rates solved). 0 or -1. */
int fl_run_restart(fl_sim *s, double t);
/* Every selected output at (t, y, yp) into s->vals, the algebraic unknowns
 * re-solved consistently first; -1 with a message when one is not finite. */
int fl_run_values(fl_sim *s, double t, const double *y, const double *yp);
/* IDA and the linear systems freed. */
void fl_free_integrator(fl_sim *s);
/* An IDA over n unknowns of the system (unknown u[k], or k when u is
 * NULL) at (t0, s->y, s->yp): vectors, tolerances, which are
 * differential, the first step, the linear solver ls over pat,
 * the Jacobian, and nroots root functions (0: none); user goes to the
 * callbacks. The one way integrate.c and groups.c make one. 0 or -1 (then
 * I holds what was made, for fl_ida_free). */
int fl_ida_create(fl_sim *s, fl_ida *I, int n, const int *u, double t0, const fl_csc *pat, const fl_ida_ls *ls,
                  IDAResFn res, IDALsJacFn jac, IDARootFn root, int nroots, void *user);
void fl_ida_free(fl_ida *I);
/* The first step after a (re)start over those unknowns (integrate.c says
 * why it is capped). */
double fl_first_step(const fl_sim *s, int n, const int *u, double t);
/* The name of the unknown with the largest weighted local error in IDA's
 * last step over n unknowns (as fl_ida_create's u), for failure messages. */
const char *fl_worst_unknown(fl_sim *s, void *ida, int n, const int *u);
/* The messages of a failed IDA step at t (returns -1) and of steps that
 * no longer move time, naming fl_worst_unknown's unknown; one integrator
 * (u NULL) or a group's. */
int fl_fail_solver(fl_sim *s, void *ida, int n, const int *u, double t, int flag);
void fl_fail_stalled(fl_sim *s, void *ida, int n, const int *u, double t);
/* The energy integrals over [a, b] inside the last step of an integrator
 * (integrate.c). */
int fl_energy_quad(fl_sim *s, void *ida, N_Vector qy, N_Vector qyp, const fl_scope *sc, double t_left, double a,
                   double b, double inc[4]);
/* The deepest penetration of the contacts of s->sc (NULL: all) at
 * (t, y, yp), the kinematics evaluated there (for the warnings). */
void fl_track_penetration(fl_sim *s, double t, const double *y, const double *yp);
/* The run's progress callback at t with the counters so far: 0, or -1 when
 * it stopped the run (run.stopped, and the message). */
int fl_run_progress(fl_sim *s, double t);
/* An IDA's counters added to st. */
void fl_ida_counters(void *ida, fl_stats *st);
/* IDA's counters since its last (re)start added to st. */
void fl_add_ida_stats(const fl_sim *s, fl_stats *st);

/* groups.c: grouped integration (fl_run_start_ida and fl_run_advance
 * hand a run over when the system has independent groups). */
int fl_groups_wanted(const fl_sim *s);
/* A whole-system run whose selected outputs are positions and velocities
 * (no energy audit), with every contact in a strand or contact events on:
 * an output point evaluates the kinematics of the bodies those outputs
 * read only (s->osc), not every body's. */
void fl_output_scope(fl_sim *s);
/* Whether every batch of contacts (penetration()) lies in a strand, whose
 * depths fl_track_penetration then reads from y (fl_strand_pen). */
int fl_contacts_in_strands(const fl_sim *s);
int fl_groups_start(fl_sim *s);
int fl_groups_advance(fl_sim *s, double target);
void fl_groups_free_run(fl_sim *s);
void fl_groups_add_stats(const fl_sim *s, fl_stats *st);
/* Index of the scope s->sc among the groups (-1: whole system). */
static inline int fl_scope_index(const fl_sim *s)
{
    return s->sc ? (int)(s->sc - s->sys->groups) : -1;
}

/* events.c */
const char *fl_elem_name(const fl_sim *s, int e);
/* Event iteration at t: update the discrete states until nothing changes,
 * re-solving the continuous equations in between (force_resolve: also
 * before the first pass, after inputs jumped). dir: crossing direction of
 * each root function (NULL: none). The passes that changed something, or -1. */
int fl_event_iteration(fl_sim *s, double t, const int *dir, int force_resolve);
/* Relations whose root function is exactly zero at a (re)start decided by
 * the side the motion moves them to. >= 0 or -1. */
int fl_settle_zero_roots(fl_sim *s, double t);
/* The end of a sample() instant at t: 1 when values changed, 0, -1. */
int fl_end_samples(fl_sim *s, double t);
/* Roots of the relations of a model with nothing to integrate in (a, *b]:
 * 1 when one crosses (*b the first instant after it, s->rootdir which). */
int fl_time_roots(fl_sim *s, double a, double *b);

/* energy.c */
/* The audit's per-element and per-body arrays (eU, eloss, bodyF), made
 * when a run first audits (fl_run_reset) rather than for every
 * simulation: a run without the audit never touches them. */
void fl_energy_alloc(fl_sim *s);
void fl_energy_rates(fl_sim *s, double t, const double *y, const double *yp, fl_erates *r);
void fl_energy_point(fl_sim *s, double t, const double *y, const double *yp, double out[FL_NENERGY]);
void fl_energy_begin(fl_sim *s, double t, const double *y, const double *yp);

/* A balance closes when its worst drift is within this fraction of the
 * throughput (a percent off means the solution itself is wrong). */
#define FL_ENERGY_CLOSE_TOL 1e-2
/* Dissipated energy more negative than this fraction of the throughput is
 * not rounding. */
#define FL_ENERGY_ROUNDING 1e-9

/* The quantities of an energy balance, J. */
typedef struct fl_ebalance {
    double e0;             /* kinetic + stored energy at the start of the audit (plus losses, less
                              impulsive work, of impacts at the start before it began) */
    double kinetic, stored; /* at the end, measured from the state */
    double dissipated;     /* integrated loss power of the elements */
    double impacts;        /* energy lost in impacts (closed form) */
    double work;           /* work of the sources: integrated power + impulsive work */
    double loss_negative;  /* integral of the negative part of the loss power (<= 0) */
    double drift_max;      /* largest |E_kin + E_stored + E_diss - W - e0| seen during the run */
    double throughput;     /* energy moved: initial energy + |work| in either direction */
    double seen_max;       /* largest energy quantity seen during the run */
} fl_ebalance;

typedef struct fl_everdict {
    int closed;        /* 1: the balance closes */
    int negative_loss; /* a dissipated quantity is negative beyond rounding */
    double drift;      /* worst |drift|: drift_max or the drift of the end values, J */
    double throughput; /* the scale the drift is measured against, J (never 0 when energy moved) */
} fl_everdict;

/* Decide whether a balance closes to tol (a fraction of the throughput):
 * the drift is recomputed from the end values, the throughput floored by
 * the largest quantity involved, and negative dissipation fails. */
fl_everdict fl_energy_verdict(const fl_ebalance *b, double tol);
/* The end of an audited run at (t, s->y, s->yp): the totals and the
 * verdict into s->stats, a warning (to d) when the balance does not close. */
void fl_energy_finish(fl_sim *s, double t, fl_diag *d);

/* Contact k's deepest penetration so far (NULL: it has not touched). */
static inline const struct fl_pen *fl_pen_of(const fl_sim *s, int k)
{
    return s->pen_at[k] ? &s->pen.v[s->pen_at[k] - 1] : NULL;
}
/* Contact k's record, made (zero) if it has none. */
struct fl_pen *fl_pen_add(fl_sim *s, int k);
/* No contact has a record (a run's start, a snapshot restored). */
void fl_pen_clear(fl_sim *s);

/* linsys.c */
/* Make ls over pat (KLU when s->use_klu, else dense); -1 if it cannot be. */
int fl_linsys_init(fl_sim *s, fl_linsys *ls, const fl_csc *pat);
int fl_linsys_ready(const fl_linsys *ls);
/* Factor the values in ls->data. Returns 0, or the 1-based column of a zero
 * pivot (dense), or -1. */
int fl_linsys_factor(fl_linsys *ls);
/* x = A^-1 rhs with the last factors (x may be rhs); -1 if that fails or is
 * not finite. */
int fl_linsys_solve(fl_linsys *ls, const double *rhs, double *x);
/* Drop the factors, keep what the next factorisation reuses (KLU's
 * ordering): for a solver that is used again only much later. A diagonal
 * one keeps nothing (not ready: the next use makes it again). */
void fl_linsys_release(fl_linsys *ls);
void fl_linsys_free(fl_linsys *ls);
/* The initialisation's linear system and its pattern freed (consistent.c). */
void fl_init_ls_free(fl_sim *s);
/* The dense matrix A with the values v of pattern p (zero elsewhere): the
 * dense LU of a linear system and of the integrator (idals.c). */
void fl_dense_from_pattern(SUNMatrix A, const fl_csc *p, const double *v);

/* consistent.c */
/* First guesses of the positions in y from the position conditions. */
void fl_seed_initial(fl_sim *s, double t0, double *y, const double *yp);
/* Solve the initialisation system at t0 for y, yp. */
int fl_solve_initial(fl_sim *s, double t0, double *y, double *yp);
/* Derivatives of the algebraic unknowns (into yp) at a (re)start. */
void fl_algebraic_rates(fl_sim *s, double t, const double *y, double *yp);
/* Keep the differential unknowns, solve for the algebraic ones and all
 * derivatives (after events). */
int fl_solve_consistent(fl_sim *s, double t, double *y, double *yp);

/* consecutive steps that do not move time before the run is given up */
#define FL_MAX_STALLED_STEPS 200

/* Output points and events closer than rounding are the same instant. */
static inline int fl_same_time(double a, double b)
{
    return fabs(a - b) <= 1e-12 * fmax(1.0, fabs(b));
}

/* Output grid point k: t0 + k h, snapped to the stop time at the end. */
static inline double fl_grid_time(double t0, double h, double tend, long k)
{
    double t = t0 + (double)k * h;
    return (t > tend || tend - t < 1e-9 * h) ? tend : t;
}

/* An output point of a run with an output grid (run.emit_grid): the
 * values at (t, s->y, s->yp), then the run's fn. 0 or -1. */
int fl_run_emit(fl_sim *s, double t);
/* The same at (t, y, yp): a point interpolated inside a step. */
int fl_run_emit_at(fl_sim *s, double t, const double *y, const double *yp);

/* fl_sim_set_param, telling why a refusal happened: *structural = 1 when
 * the parameter (or this value of it) needs a new compilation, 0 when the
 * value is out of range or the name unknown. */
int fl_sim_set_param_why(fl_sim *sim, const char *name, double value, fl_diag *d, int *structural);
/* Before writing s->par: the parameters become the simulation's own copy
 * (until then s->par is the system's, read-only and shared by every
 * simulation of it: a big model has tens of parameters per component). */
void fl_sim_own_par(fl_sim *s);
/* The compiled parameters again (a simulation of its own rows gets the
 * system's values back). */
void fl_sim_reset_par(fl_sim *s);
/* Where the parameters of instance ir are in s->par. */
static inline int fl_sim_prow(const fl_sim *s, const fl_inst_rt *ir)
{
    return s->par_own ? ir->pofs : ir->prow;
}
/* The elements of group scope sc as this simulation reads them. */
static inline const fl_elem *fl_sim_scope_el(const fl_sim *s, const fl_scope *sc)
{
    return s->gel ? s->gel + (sc->el - s->gel_base) : sc->el;
}
/* Room for every root function in s->g and s->rootdir, made when a run
 * first looks for roots (outside the integrator's callbacks): a model
 * whose contacts are stepped through has none to watch, and a big one
 * several per part. */
void fl_roots_room(fl_sim *s);

/* The cached values of the time-only sources are no longer valid (see
 * fl_sim.src_ok): parameters changed, a run starts, an event or restart. */
static inline void fl_sources_stale(fl_sim *s) { s->src_ok = 0; }
/* The values in s->par changed (fl_sim_set_param, a reset to the compiled
 * ones, a snapshot restored): the source cache goes, and the fast
 * kernels' copies of the parameters are made again. */
static inline void fl_params_changed(fl_sim *s)
{
    fl_sources_stale(s);
    s->fast_stale = 1;
}
/* The position offsets (qoff) or the discrete Real states (rs) may have
 * changed (a start, an event, a restart, a snapshot restored): which of
 * them are alike is looked at again before the fast kernels next run. */
static inline void fl_states_changed(fl_sim *s)
{
    s->uni_stale = 1;
}

/* How a root function went from a to b: +1 it crossed rising (from below
 * zero to zero or above), -1 falling, 0 not at all (as IDA's root finding
 * reports directions). */
static inline int fl_crossing(double a, double b)
{
    return (a < 0 && b >= 0) ? 1 : (a > 0 && b <= 0) ? -1 : 0;
}

#endif
