/* lower.h - an analysed cluster (analyze.h) lowered to the programs the
 * generic element of user classes runs (components/user.c).
 *
 * The element's local view follows the engine's convention: attachments
 * (position, velocity, acceleration of each), own unknowns (value and
 * derivative), inputs (value and, where needed, derivatives). Every
 * program reads its inputs from sources named here (fl_usrc) and computes
 * a list of roots:
 *   cont   forces at the attachments, residuals of the own unknowns
 *   jac    the same, then the Jacobian values of the structural
 *          dependencies (dep_rc: local row, local column)
 *   roots  zero-crossing functions of the state-event relations
 *   event  relation values, discrete definitions, when-conditions, values
 *          of when-statements, assert conditions (run at events)
 *   wleft  the when-conditions between events (their left limits at the
 *          next event)
 *   out    every variable of the cluster (output points)
 *   init   initial equations and their Jacobian (init_dep_rc)
 *   times  thresholds of time-event relations, start and interval of
 *          samples (parameters only)
 *   drive  position, velocity and acceleration of a prescribed motion
 *   links  ratio and offset of rigid connections, masses of rigid groups,
 *          fixed positions (parameters only, evaluated at build time) */
#ifndef FL_LOWER_H
#define FL_LOWER_H

#include "analyze.h"
#include "prog.h"

typedef enum fl_usrc {
    US_KIN,  /* idx = 3 attachment + level */
    US_IN,   /* idx = 3 input + order */
    US_Y,    /* own unknown idx */
    US_YP,   /* its derivative */
    US_DISC, /* discrete slot idx (value kept between events) */
    US_DPRE, /* its value before the event instant (pre() in the event program) */
    US_REL,  /* relation idx (value kept between events) */
    US_PAR,  /* parameter idx of the instance */
    US_TIME,
    US_INIT, /* 1 during initialisation */
    US_TERM, /* 1 at the end of the run */
    US_PF    /* outputs: force at attachment idx */
} fl_usrc;

/* What a when-statement does at run time. */
typedef struct fl_ustmt {
    fl_fwk kind;
    int disc;      /* FW_ASSIGN: discrete slot */
    int own;       /* FW_REINIT of an own state: its index, else -1 */
    int att, level; /* FW_REINIT of a kinematic variable: var = coef * level-quantity(att) + offset */
    int val;       /* root of the event program with its value (FW_ASSERT: the condition) */
    int coef_root, off_root; /* FW_REINIT kinematic: roots of the event program with coef and offset */
    const char *msg;
    fl_loc loc;
} fl_ustmt;

typedef struct fl_uwhen {
    int chain;
    int cond0, ncond;  /* when-condition slots (their pre values are kept) */
    int stmt0, nstmt;
    int at_init;       /* a condition uses initial(): it may fire at the initialisation */
} fl_uwhen;

typedef struct fl_ulow {
    int natt, nin, nout, nown, npar, nvars;
    int ndisc, nrel, nstate_rel, nwcond;
    int *own_var;        /* per own unknown: cluster variable */
    unsigned char *own_diff;
    int *in_nderiv;      /* per input: derivatives needed */
    int *disc_var;       /* per discrete slot: cluster variable */
    int *rel_root;       /* per relation: root function index, -1 for time events */
    fl_sprog cont, jac, roots, event, wleft, out, init, times, drive, links;
    int ndep, *dep_rc;   /* jac: after natt + nown roots */
    int ninit, ninit_dep, *init_dep_rc; /* init: ninit rows, then the dependencies */
    /* event program roots: [nrel relations][ndisc definitions (ndef of them)][when conditions]
     * [statement values][assert conditions] */
    int ndef, *def_disc; /* definitions: their discrete slot */
    int ev_def0, ev_cond0, ev_stmt0, ev_assert0;
    FL_VEC(fl_uwhen) whens;
    FL_VEC(fl_ustmt) stmts;
    FL_VEC(fl_fassert) asserts;
    /* times program: [time-event thresholds (per relation, NAN where none)][the coefficient of time in
     * each relation (its crossing direction)][sample start, interval pairs] */
    int nsample;
    /* drive: at most one */
    int drive_att, drive_sup, drive_level, has_drive, drive_fixed;
    /* links program roots: [per link ratio, offset][per group mass][per fixed drive position] */
    int nlinks, *link_a, *link_b;
    int ngroups, *group_rep;
    int uses_accel;
    char **init_label;   /* per initial row: the equation as text */
} fl_ulow;

/* Lower u (which keeps ownership of its graph). Returns 0, or -1 after
 * reporting (name: the instance, for messages). */
int fl_lower(const fl_ucls *u, fl_ulow *L, const char *name, fl_diag *d);
void fl_ulow_free(fl_ulow *L);

#endif
