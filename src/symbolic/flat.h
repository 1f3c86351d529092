/* flat.h - a cluster of user equations, as the flattener hands it to the
 * analysis.
 *
 * A cluster is the part of a model written as equations that the analysis
 * treats as one element: the variables and equations of one user
 * component instance, or of several that refer to each other's variables.
 * Everything outside it is seen through attachments (flanges joined to the
 * bodies of the mechanical network: positions known, forces to be given)
 * and input signals. Leaves of the equations are SX_VAR(k) for variable k
 * of the cluster, SX_DER(k) for der(variable k), SX_PRE(k), SX_PAR(k) for
 * parameter slot k (values per instance), and time. */
#ifndef FL_FLAT_H
#define FL_FLAT_H

#include "sym.h"
#include "util/diag.h"
#include "util/util.h"

typedef enum fl_fvk {
    FVK_REAL,  /* continuous Real: an unknown */
    FVK_DISC,  /* discrete (Integer, Boolean, discrete Real, assigned in when): changes at events */
    FVK_POS,   /* position (level 0), velocity (1) or acceleration (2) of attachment att:
                  known from the network */
    FVK_FORCE, /* force on the component at attachment att (flange.f): an unknown */
    FVK_INPUT  /* input signal `in` (level 0) or its time derivative (level 1, 2): known */
} fl_fvk;

enum { FL_VT_REAL = 0, FL_VT_INTEGER, FL_VT_BOOLEAN };
enum { FL_SS_NEVER = 1, FL_SS_AVOID, FL_SS_DEFAULT, FL_SS_PREFER, FL_SS_ALWAYS };

typedef struct fl_fvar {
    const char *name; /* relative to the cluster's instance: "s_rel", "flange_a.f" */
    fl_fvk kind;
    unsigned char vtype;   /* FL_VT_* */
    unsigned char state_select;
    unsigned char level;   /* FVK_POS, FVK_INPUT: derivative order */
    int att;               /* FVK_POS / FVK_FORCE */
    int in;                /* FVK_INPUT */
    int out;               /* output signal port number, -1 */
    fl_loc loc;
    const char *unit;
    fl_sx fixed_start;     /* fixed = true: its start value (a parameter), else FL_SX_NONE */
} fl_fvar;

/* An equation lhs = rhs, kept as res = lhs - rhs. When one side is a lone
 * variable (z = expr), var says which and def is the other side: discrete
 * variables must be defined that way. */
typedef struct fl_feq {
    fl_sx res;
    int var;
    fl_sx def;
    fl_loc loc;
} fl_feq;

typedef enum fl_fwk { FW_ASSIGN, FW_REINIT, FW_ASSERT, FW_TERMINATE } fl_fwk;

typedef struct fl_fwstmt {
    fl_fwk kind;
    int var;       /* FW_ASSIGN, FW_REINIT: the variable */
    fl_sx value;   /* FW_ASSIGN, FW_REINIT: new value; FW_ASSERT: condition */
    const char *msg;
    fl_loc loc;
} fl_fwstmt;

/* One branch of a when-equation: it fires at an instant where one of its
 * conditions becomes true, unless an earlier branch of the same chain
 * (when ... elsewhen ...) fires. */
typedef struct fl_fwhen {
    fl_sx *conds;
    int nconds;
    fl_fwstmt *body;
    int nbody;
    int chain;     /* branches of one when-equation share a chain number, in order */
    fl_loc loc;
} fl_fwhen;

/* assert(cond, msg, level) outside when: checked at steps and events. */
typedef struct fl_fassert {
    fl_sx cond;
    const char *msg;
    int warning;   /* AssertionLevel.warning */
    int range;     /* the min/max attribute of a variable: a warning whose message names the
                      variable relative to its instance, reported after the instance's name */
    fl_loc loc;
} fl_fassert;

typedef struct fl_fcluster {
    fl_sgraph g;
    FL_VEC(fl_fvar) vars;
    FL_VEC(fl_feq) eqs;
    FL_VEC(fl_feq) ieqs; /* initial equations */
    FL_VEC(fl_fwhen) whens;
    FL_VEC(fl_fassert) asserts;
    int natt, nin, nout, npar;
    fl_arena *names;     /* strings of the cluster */
} fl_fcluster;

void fl_fc_init(fl_fcluster *c);
void fl_fc_free(fl_fcluster *c);
/* Add a variable (name copied); returns its index. */
int fl_fc_add_var(fl_fcluster *c, const char *name, fl_fvk kind, fl_loc loc);
/* The variable for level `level` of attachment att (FVK_POS) or of input
 * `in` (FVK_INPUT), created on first use. */
int fl_fc_level_var(fl_fcluster *c, fl_fvk kind, int index, int level);
void fl_fc_add_eq(fl_fcluster *c, fl_sx lhs, fl_sx rhs, fl_loc loc, int initial);

#endif
