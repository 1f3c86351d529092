/* analyze.h - from a cluster of user equations to what the engine runs.
 *
 * The analysis decides, for one cluster (see flat.h):
 *  - which variables are known functions of the network's kinematics,
 *    inputs, parameters and time (solved explicitly, in dependency order);
 *  - which equations only relate attachment positions: these are rigid
 *    members (a link with ratio and offset: a rod, a lever, a gear), fixed
 *    points or prescribed motions, and become part of the body structure, so
 *    the DAE stays index 1; a linear relation among three or more flanges
 *    stays a constraint (fl_ucon) whose row the compiler differentiates as
 *    the bodies require;
 *  - for attachments joined rigidly inside the component, the generalised
 *    force on the common body (its part proportional to the acceleration is
 *    a mass, the rest a force), the individual flange forces being internal
 *    forces the network recovers at output time;
 *  - the states (variables under der()), index reduction where equations
 *    constrain states, explicit assignments and the residual rows of the
 *    own unknowns (states and algebraic loops);
 *  - event relations (zero crossings, time events), discrete equations and
 *    when-equations, initial equations.
 * Every expression in the result lives in the cluster's graph and uses
 * these leaves only: SX_VAR of an attachment level (FVK_POS), an input level
 * (FVK_INPUT), an own unknown (value), a discrete variable, or a group force
 * at output time; SX_DER of a state (its derivative); SX_PRE; SX_PAR;
 * time; and event relations (SX_REL without FL_SXF_NOEVENT), which hold their
 * value between events. */
#ifndef FL_ANALYZE_H
#define FL_ANALYZE_H

#include "flat.h"

/* What a variable became. */
typedef enum fl_uvk {
    UV_UNKNOWN = 0, /* (during the analysis) */
    UV_KNOWN,       /* explicit: value[k] gives it */
    UV_STATE,       /* own unknown with its derivative (differential) */
    UV_ALG,         /* own unknown, algebraic (implicit equation or loop) */
    UV_DISC,        /* discrete: kept between events */
    UV_INPUT,       /* attachment kinematics, inputs: given */
    UV_INTERNAL,    /* flange force inside a rigid group: known at output time only */
    UV_OUTPUT       /* defined from internal forces: known at output time only */
} fl_uvk;

/* flange b position = ratio * flange a position + offset (both parameter
 * expressions). */
typedef struct fl_ulink {
    int a, b;
    fl_sx ratio, offset;
    fl_loc loc;
} fl_ulink;

/* Prescribed motion of attachment att relative to attachment sup (-1:
 * relative to the origin): at level 0 the position s(t) (with v, a its
 * derivatives), at level 1 the velocity (v, a), at level 2 the
 * acceleration (a). A level-0 drive whose s is a parameter expression is a
 * fixed point. */
typedef struct fl_udrive {
    int att, sup;
    int level;
    fl_sx s, v, a;
    int fixed; /* s is constant: a ground */
    fl_loc loc;
} fl_udrive;

/* A linear constraint among three or more attachment positions (a gear on
 * a support that moves, a planetary gear): sum of coef[i] * position of
 * att[i], plus offset, is zero (coefficients and offset parameter
 * expressions). The body structure cannot fold it (a node would depend on
 * two bodies), so the force of one of the attachments (var, own unknown
 * own) is left as the constraint's multiplier and its residual row is the
 * constraint itself, which the compiler writes at the level of
 * differentiation the bodies of the attachments allow: positions if one of
 * them is massless between springs, velocities if one is massless and
 * damped, accelerations if all have mass (index reduction by
 * differentiation; see fl_b_constraint). irow[0], irow[1]: initial equations
 * (indices into init_res) of the constraint on positions and on velocities,
 * which hold the differentiated ones to the original constraint. */
typedef struct fl_ucon {
    int n;
    int *att;
    fl_sx *coef;
    fl_sx offset;
    int var, own;
    int irow[2];
    fl_loc loc;
} fl_ucon;

/* Attachments joined rigidly inside the component: positions
 * s_j = ratio_j * s_rep + offset_j. mass is the coefficient of the
 * representative's acceleration in the generalised force (a parameter
 * expression, 0 if none); the rest of the generalised force acts at the
 * representative (force[rep]). */
typedef struct fl_ugroup {
    int rep;
    fl_sx mass;
    int gvar; /* the variable holding the generalised force */
} fl_ugroup;

/* An own unknown of the element and its residual row. */
typedef struct fl_uown {
    int var;
    int diff; /* 1: differential (a state) */
    fl_sx res;
    fl_loc loc;
} fl_uown;

/* An event relation: a zero crossing of g (= a - b of the relation), or a
 * time event at `at` (a parameter expression) when the relation compares
 * time with a constant. */
typedef struct fl_urel {
    fl_sx node;
    fl_sx g;
    int time_event;
    fl_sx at;
} fl_urel;

/* A sample(start, interval) of the cluster: time events. */
typedef struct fl_usample {
    fl_sx node, start, interval;
} fl_usample;

/* A discrete variable defined by an equation (in dependency order). */
typedef struct fl_udisc {
    int var;
    fl_sx def;
    fl_loc loc;
} fl_udisc;

typedef struct fl_ucls {
    fl_fcluster *fc;   /* owned: the variables, the graph of every expression */
    fl_uvk *kind;      /* per variable */
    fl_sx *value;      /* per variable: its value (UV_KNOWN, UV_OUTPUT), its leaf otherwise */
    int *group_of;     /* per attachment: its group (index into groups), -1 */
    FL_VEC(fl_ulink) links;
    FL_VEC(fl_udrive) drives;
    FL_VEC(fl_ugroup) groups;
    FL_VEC(fl_ucon) cons;
    FL_VEC(fl_uown) own;
    fl_sx *force;      /* per attachment: force on the component during integration */
    fl_sx *out;        /* per output signal: its value */
    FL_VEC(fl_urel) rels;
    FL_VEC(fl_usample) samples;
    FL_VEC(fl_udisc) disc;
    FL_VEC(fl_fwhen) whens;     /* as in the cluster, with expressions in final leaves */
    FL_VEC(fl_fassert) asserts;
    FL_VEC(fl_sx) init_res;     /* initial equations, residual form */
    FL_VEC(fl_loc) init_loc;
    FL_VEC(int) fixed_init;     /* variables whose fixed start value became an initial equation */
    int uses_accel;    /* some force or residual depends on an attachment acceleration */
} fl_ucls;

/* Analyse a cluster (taken over: freed with the result, also on failure).
 * par holds one instance's parameter values and start one start value per
 * variable (NAN: none): used where a decision needs numbers (a coefficient
 * that must not vanish, the choice of states in index reduction). name is
 * the instance path for messages. Returns NULL after reporting errors. */
fl_ucls *fl_analyze(fl_fcluster *fc, const double *par, const double *start, const char *name, fl_diag *d);
void fl_ucls_free(fl_ucls *u);

/* Evaluate an expression of parameters (and constants) with values par;
 * NAN if it depends on anything else. */
double fl_sx_eval_par(const fl_sgraph *g, fl_sx x, const double *par);

/* Text of an expression with the cluster's names (for messages, `check`). */
void fl_ucls_print(fl_buf *b, const fl_fcluster *fc, fl_sx x);

#endif
