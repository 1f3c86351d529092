/* system.h - the compiled, read-only system (fl_system).
 *
 * Flanges joined by connections form nodes; nodes joined by rigid members
 * (Mass, Rod, through-sensors, levers and gears of user classes) form
 * bodies. Each body has one reference coordinate q; a node sits at
 * ratio * q + off (ratio 1 unless a lever joins it), so its velocity and
 * acceleration are ratio times the body's. A body is
 *   GROUND  fixed in space (Fixed),
 *   POS     moved along a prescribed path (exact Position, Move),
 *   VEL     moved at a prescribed speed (ConstantSpeed, exact Speed): q is
 *           a state with q' = v(t),
 *   ACC     accelerated as prescribed (Accelerate, filtered Position and
 *           Speed): q, v are states with v' = a(t, q, v),
 *   FREE    with mass M > 0: q' = v, M v' + sum of flange forces = 0
 *           (M = sum of m ratio^2 over the masses on it, and each force
 *           counts times the ratio of its node: virtual work),
 *   MLV     massless with damping attached: q' = v, 0 = force balance
 *           (v algebraic),
 *   MLQ     massless between springs only: 0 = force balance (q algebraic).
 * The unknown vector y holds q (and v) of the non-prescribed bodies and the
 * own unknowns of force elements. Residual rows coincide with unknowns. */
#ifndef FL_SYSTEM_H
#define FL_SYSTEM_H

#include <pthread.h>
#include "components/component.h"
#include "model/model.h"

/* Systems with more unknowns than this use KLU by default (dense LU below). */
#define FL_KLU_THRESHOLD 100

typedef enum fl_body_kind { B_GROUND, B_POS, B_VEL, B_ACC, B_FREE, B_MLV, B_MLQ } fl_body_kind;

/* (the doubles first: 48 bytes; its residual row is fl_body_frow's) */
typedef struct fl_body {
    double mass; /* sum of m ratio^2 of the masses on it (kinetic energy M v^2 / 2) */
    double q0;   /* GROUND: reference position; prescribed: support position */
    fl_body_kind kind;
    int qi, vi;  /* indices in y, -1 if not unknowns */
    int drv;     /* driver, -1 if none */
    int ref_node; /* the node at q (ratio 1, off 0): the root's node if it has one */
    int root;    /* root (ground/driver reaction) record, -1 if none */
    int order0, norder; /* elimination steps for internal forces */
} fl_body;

/* The residual row collecting a body's flange forces: its velocity's (its
 * position's for a massless body at a position), -1 for prescribed ones. */
static inline int fl_body_frow(const fl_body *bd)
{
    return (bd->kind == B_FREE || bd->kind == B_MLV) ? bd->vi : bd->kind == B_MLQ ? bd->qi : -1;
}

/* A rigid member: position(b) = r * position(a) + L (r = 1: two flanges at
 * distance L; r != 1: a lever, rack or gear), with mass m moving with
 * flange a. Its flange forces satisfy f_a + r f_b = m a_a. */
typedef struct fl_link {
    int inst;
    int port_a, port_b; /* class port indices */
    int node_a, node_b;
    double r, L, m;
} fl_link;

/* Step of the internal force computation of a body: link `link` has its
 * `end` (0 = a, 1 = b) at leaf node `node`. */
typedef struct fl_elim {
    int link, end, node;
} fl_elim;

/* A ground or a driver: the flange whose position is imposed; its force is
 * the reaction. */
typedef struct fl_root {
    int inst, port, node;
    int drv; /* driver index, -1 for a ground */
} fl_root;

typedef struct fl_driver {
    int inst;
    int body;
    fl_drv_kind kind;
    int sig;  /* first input reference */
    int nin;
    int support_port, support_node; /* -1: support absent (at 0) */
    int flange_port;
} fl_driver;

/* A linear constraint among the nodes of an element's ports that the bodies
 * cannot fold (fl_b_constraint): sum of coef[k] * position(node[k]) + off
 * = 0, the residual row of the element's own unknown `row` (its multiplier),
 * differentiated `level` times (0, 1 or 2): the lowest order among the
 * bodies it moves (massless between springs 0, massless damped 1, with
 * mass 2), so that the row determines that body's position, velocity or
 * acceleration and the DAE stays index 1. Nodes -1 are the ground. */
typedef struct fl_con {
    int elem, row;
    int n, k0;  /* nodes and coefficients at con_node[k0 ..], con_coef[k0 ..] */
    double off;
    int level;
    int irow[2]; /* the element's initial rows on positions and velocities */
} fl_con;

/* SIG_LATE: a variable of another instance that flange knows at output
 * points only (a force of a library component read by equations that
 * define output variables): inst is that instance, out its class variable
 * (or -1: the force at its port `level`). */
enum { SIG_NONE = 0, SIG_BLOCK, SIG_KIN, SIG_Y, SIG_LATE };

/* Where an input signal comes from. */
typedef struct fl_sigref {
    int kind;
    int inst, out;   /* SIG_BLOCK: block instance and output index; SIG_Y: element and its own
                        unknown that holds the signal (an output of a user class) */
    int level;       /* SIG_KIN: 0 position, 1 velocity, 2 acceleration */
    int node[2];     /* SIG_KIN: value = level(node[0]) - level(node[1]) + offset; -1 = none */
    double offset;
    int nderiv;      /* time derivatives the reading element needs (du, ddu) */
} fl_sigref;

enum { PC_ELEM = 0, PC_LINK, PC_ROOT, PC_DRVSUP };

/* One contribution to the force of a port, in 4 bytes (a big model has
 * one or two per port): the index of the element's attachment slot, the
 * link, root or driver times 8, the end of a link times 4, the type
 * (PC_*). Indices stay below FL_PC_MAX (fl_compile_structure refuses
 * larger systems). */
typedef uint32_t fl_pcontrib;
#define FL_PC_MAX (1 << 29)
static inline fl_pcontrib fl_pc_make(int type, int index, int end)
{
    return (uint32_t)index << 3 | (uint32_t)(end & 1) << 2 | (uint32_t)type;
}
static inline int fl_pc_type(fl_pcontrib c)
{
    return (int)(c & 3);
}
static inline int fl_pc_index(fl_pcontrib c)
{
    return (int)(c >> 3);
}
static inline int fl_pc_end(fl_pcontrib c)
{
    return (int)(c >> 2 & 1);
}

/* A port: its contributions are contrib[c0 .. fl_port_cend(s, p)) (the
 * next port's c0, or ncontrib after the last port); an input port's first
 * input reference is fl_port_sig's. */
typedef struct fl_port_rt {
    int node;  /* -1 when absent (or a signal port) */
    int c0;     /* first contribution in sys->contrib */
} fl_port_rt;

/* An instance, 48 bytes (a big model has several per part): its name is
 * at inst_names + name_at (fl_inst_name) and its location in the side
 * table inst_loc (fl_inst_loc), which a model built through the API, with
 * no locations, does not have. Its parameters have two places: pofs
 * numbers them (parameter pofs + k is its class parameter k, as
 * fl_par_fixed, the FMU's value references and a simulation that changed
 * a parameter see them), prow is where the compiled system keeps their
 * values (par[prow + k]), a row that alike instances share (see par). */
typedef struct fl_inst_rt {
    const fl_class *cls;
    uint32_t name_at;
    int pofs;  /* its parameters' numbers: pofs + k */
    int prow;  /* their values in the compiled system: par[prow + k] */
    int port0; /* ports at ports[port0 + k] */
    int elem, drv;  /* its element (its callbacks: fl_inst_ops), -1 if none */
    int in0;      /* inputs at sigs[in0 ..], as many as fl_class_nin(cls) */
    int var0;     /* first output variable */
    int nout : 30;     /* blocks: output width */
    unsigned has_support : 1;
    unsigned has_late : 1;  /* an input reads a variable known at output points only (SIG_LATE) */
} fl_inst_rt;

/* Sources of initial conditions: a start value of a kinematic quantity,
 * an input at the start time (filtered sources), the start value of an
 * own unknown of an element, a row an element computes (initial
 * equations of user classes). */
enum { CV_ATTR = 0, CV_INPUT, CV_OWN, CV_ELEM };

/* Initial condition: level-quantity(node_p) - level-quantity(node_m) +
 * offset = value (or = input at t0). The doubles and pointers first and
 * the small fields last (80 bytes: big models have several per
 * component). */
typedef struct fl_cond {
    double offset;
    double value;
    double nominal; /* the nominal attribute the user gave, 0 if none */
    char *label; /* "mass1.s" */
    fl_loc loc;
    int node_p, node_m; /* -1: nothing */
    int sig;
    int elem, row; /* CV_OWN: element and own unknown (y[own + row] = value); CV_ELEM: element and row */
    int prio;    /* weak 2: lower is taken first to complete the conditions
                    (a start value the user gave, then by stateSelect) */
    signed char level;
    signed char source;  /* CV_* */
    signed char weak;    /* 1: used only if the conditions are otherwise incomplete;
                            2: not fixed: used only to complete under-determined
                            initial conditions (filled), else named in messages */
    signed char guess;   /* a start value the user gave: a first guess for the initialisation */
    signed char filled;  /* weak 2, taken: the conditions were under-determined */
    signed char quiet;   /* weak 2: a start value of flange's own Modelica text (a NoInit block): taken silently */
} fl_cond;

/* A condition as a run reads it (fl_system.rconds; 40 bytes, fl_cond's
 * 80 less what only compiling reads: where it was given, its nominal
 * value and priority): the same meanings; ref is fl_cond's sig for
 * CV_INPUT and its elem for CV_OWN and CV_ELEM; its label is at
 * cond_labels + label_at (fl_rcond_label). */
typedef struct fl_rcond {
    double offset;
    double value;
    int node_p, node_m;
    int ref, row;
    uint32_t label_at;
    unsigned level : 2, source : 2, weak : 2, guess : 1, filled : 1;
} fl_rcond;

enum { OV_CLASS = 0, OV_PORT_S, OV_PORT_F, OV_INPUT, OV_BLOCK_OUT, OV_ENERGY };

/* An output variable, 12 bytes: big models have tens of them per
 * component, so names and units are derived (fl_system_var_name builds the
 * names on first use). */
typedef struct fl_var {
    int inst;
    unsigned char kind;       /* OV_* */
    unsigned char on_request; /* written only when asked for (energy audit) */
    unsigned short def;       /* class variable or port of the class */
    int index;                /* class var, port, or input/output element */
} fl_var;

/* Jacobian entry: value = (src >= 0 ? jloc[src] : 1) * mult, times cj when
 * cj != 0; added to the IDA matrix at slot, and to the initialisation and
 * re-initialisation matrices at islot/rslot (-1: not there). */
typedef struct fl_jentry {
    double mult;
    int src : 31;   /* 24 bytes with the flag: a big model has tens of entries per component */
    unsigned cj : 1;
    int slot, islot, rslot;
} fl_jentry;

/* Jacobian entries kept by rule (compile/jrules.c): n consecutive units
 * of the entry list (bodies of one kind, or elements of one batch) with m
 * entries each, unit i's t-th entry being the first unit's with src,
 * slot, islot and rslot moved by i times src[t], slot[t], islot[t],
 * rslot[t] (a -1 stays -1) and the same multiplier and cj: a chain of
 * alike parts. Only the first unit's m entries are stored, at
 * jent[j0 .. j0 + m); the rules are in the order of their j0. */
#define FL_JRULE_M 8
/* Runs shorter than this stay records: a rule must save more than its
 * own size, and small models keep the plain path. */
#define FL_JRULE_MIN 4
typedef struct fl_jrule {
    int j0, n, m;
    int src[FL_JRULE_M], slot[FL_JRULE_M], islot[FL_JRULE_M], rslot[FL_JRULE_M];
} fl_jrule;

/* Compressed sparse column pattern. A diagonal one (n == ncol == nnz,
 * entry k at row k of column k) may be kept without its arrays
 * (fl_csc_drop_diagonal): fl_csc_diagonal says so for both forms. */
typedef struct fl_csc {
    int n, ncol, nnz;
    int *colptr, *rowind;
} fl_csc;

typedef struct fl_egroup {
    const fl_class *cls;
    const fl_elem_ops *ops;
    int first, n;
} fl_egroup;

/* An independent group (groups.c): unknowns that no element, signal,
 * constraint or Jacobian entry couples to the unknowns of another group
 * (a shared Fixed ground, a prescribed motion driven by time alone or a
 * source block read by both do not couple). Each group integrates with
 * its own IDA, events and step size (sim/groups.c); evaluation restricted
 * to a group (fl_sim.sc) walks these lists instead of the whole system.
 * Indices are global (into y, bodies, elements, ...), in ascending order,
 * which is the order of the whole-system loops. */
typedef struct fl_scope {
    int nu, nd;      /* unknowns u[0 .. nu), of them nd differential */
    int *u;
    int nb, *b;      /* bodies to update: its own and the ground / time-driven bodies it reads */
    int ndv, *dv;    /* drivers of those bodies */
    int nsg, *sg;    /* input references of its elements and drivers */
    int ne, *e;      /* its elements */
    fl_elem *el;     /* copies of them, batched by class in eg (callbacks take arrays of elements) */
    fl_egroup *eg;   /* first: index into el */
    int neg;
    int nsl, *sl;    /* attachment slots of its elements that have a residual row */
    int ncn, *cn;    /* constraints */
    int nbr, *br;    /* bodies with residual rows (the body rows) */
    int nr, *r;      /* root functions: local k is global r[k] */
    int nj, *j;      /* Jacobian entries (rows in the group), */
    int *jsl, *rsl;  /* their slots in the group's jpat and rpat (-1: not in rpat) */
    int njl, *jl;    /* jloc entries those entries read */
    fl_csc jpat, rpat; /* the group's slices of the system's patterns, local indices */
    int ntb, *tb;    /* source blocks with time events it reads */
    int ntev, *tev;  /* elements with time events */
    int npen;        /* contact elements whose penetration is tracked */
    int linsolver;   /* FL_SOLVER_DENSE or KLU chosen for auto, by its size */
    int discrete;    /* some element has modes or discrete Real states */
    int rigid;       /* some element locks (ops->rigid) */
    int sample;      /* some element reads sample() */
    int terminates;  /* some element may end the run (terminate()) */
    int roots_other; /* some root function is not a contact's */
} fl_scope;

struct fl_system {
    char *name;
    fl_experiment exp;
    fl_inst_rt *insts;
    int ninst;
    char *inst_names; /* the instances' names (one block, fl_inst_name) */
    fl_loc *inst_loc;  /* per instance: where it was declared; NULL when none was (fl_inst_loc) */
    fl_port_rt *ports;
    int nports;
    fl_pcontrib *contrib;
    int ncontrib;

    /* The parameters' values: a row per distinct row of values of a
     * class, kept as the rows are evaluated (fl_compile_params: the alike
     * parts of a big model share one), par[prow + k]; a parameter's
     * number is pofs + k (marks, FMU value references, sweeps). npar
     * counts the parameters (a row per instance), npar_rows what par
     * holds. A simulation reads the
     * compiled rows until it changes a parameter, then a row per
     * instance of its own (fl_sim_own_par). */
    double *par;
    int npar, npar_rows;
    /* a bit per parameter (fl_par_fixed): set for those the structure was
     * built from (body masses, lengths, fixed positions, initial
     * conditions), which fl_sim_set_param refuses */
    unsigned char *par_fixed;
    fl_value *arrays;
    int narrays;

    fl_node *nodes;
    int nnodes;
    char **node_names; /* "{mass.flange_b, spring.flange_a}": while compiling only, on first use (fl_node_name) */
    fl_body *bodies;
    int nbodies;
    fl_link *links;
    int nlinks;
    fl_elim *elim;
    int nelim;
    fl_root *roots;
    int nroots_r;
    fl_driver *drvs;
    int ndrv;
    fl_elem *elems;
    int nelem;
    fl_con *cons;
    int ncons;
    int *con_node;
    double *con_coef;
    /* Per attachment slot (fl_att_slot: 2e+j for j < 2, wide elements'
     * further attachments after 2 nelem): */
    int nslots;
    int *elem_node; /* node, -1 for ground */
    int *elem_frow; /* residual row, -1 if none */
    int *att_body;  /* body, -1 for ground (its node's ratio and offset on
                       it: fl_sys_slot_ratio, fl_sys_slot_offset) */
    fl_egroup *egroups;
    int negroups;
    fl_sigref *sigs;
    int nsig;
    int *blocks; /* instances that are signal sources */
    int nblocks;

    /* the DAE */
    int n;        /* unknowns */
    int nd;       /* differential unknowns */
    int *dpos;    /* position among differential unknowns, -1 for algebraic ones (fl_unk_diff) */
    double *nominal; /* scaling of the absolute tolerance */
    int uses_accel;  /* some element force depends on accelerations */
    int has_late;   /* some input is SIG_LATE */
    char *var_names;        /* arena of the output variable names, built on first use */
    const char **var_name;  /* per variable, into var_names */
    /* instance name -> index, built on first use (inst_index_built) */
    fl_names inst_index;
    int inst_index_built;
    fl_map *inst_vars; /* per instance with many variables: name -> variable, built on first use */
    pthread_mutex_t index_lock;
    /* source file names of the locations kept here (the system outlives
     * the model it was compiled from) */
    char **files;
    int nfiles;
    const char **unk_name; /* "mass.s" for messages, built on first use (fl_unk_name); NULL: none named */
    char *unk_names;  /* their text (one block) */
    const char **unk_hint; /* what to say when the unknown is not determined (NULL: generic; the
                              array NULL when no unknown has one) */
    int nroot_fns;
    int nmodes;
    int nreal; /* discrete Real states */
    int njloc;

    /* the Jacobian's entries: the bodies' (in body order), the elements'
     * (in element order), the constraints'; runs of alike units stored
     * once with their rule (jrule, fl_jrule_entry) */
    fl_jentry *jent;
    int njent;
    fl_jrule *jrule;
    int njrule;
    fl_csc jpat;   /* IDA Jacobian dF/dy + cj dF/dyp */
    fl_csc ipat;   /* initialisation: rows n + ncond_used, cols n + nd; its dimensions alone
                      once compiled (a run's: fl_init_pattern) */
    fl_csc rpat;   /* re-initialisation: rows n, cols (alg y, yp of differential); once
                      compiled, without its arrays when diagonal (fl_csc_drop_diagonal) */
    int *jpat_col; /* column of each slot of jpat, while compiling (fl_jent_col) */

    /* The initial conditions while compiling (conds), then only those a
     * run reads, as it reads them (rconds): those in the initialisation
     * system and the first guesses of fl_seed_initial (weak 0, a start
     * value given, or filled); the others only served the messages of
     * compiling. ncond counts either. */
    fl_cond *conds;
    fl_rcond *rconds;
    int ncond;
    /* Conditions left out of conds while compiling (make_conds): start
     * values nobody gave of variables that are not fixed, with no
     * attribute set (weak 2, not a guess). They serve only to complete
     * under-determined initial conditions and to say what is missing, so
     * they are put in their places (fl_conds_wake) only when the
     * conditions turn out under-determined: a big model has several per
     * component, in 32 bytes each instead of a condition's 80 and its
     * label. pos is the index the condition has among all of them. */
    struct fl_idle_cond {
        int pos, inst, var, node_p, node_m, level;
        double offset;
    } *idle;
    int nidle;
    char *cond_labels; /* the labels of rconds (one buffer) */
    fl_arena *cond_text; /* the labels of all conditions while compiling (a label's bytes only, no heap block each) */
    int *cond_used; /* conditions in the initialisation system, in order (indices into conds, then
                       rconds; compiled, NULL when they are rconds in order: fl_cond_used) */
    int ncond_used;
    /* the entries of the condition rows in the init matrix: entry k adds
     * ccoef[k] (1 for every k when ccoef is NULL, as for conditions on
     * positions and velocities of bodies without levers) at slot cslot[k] */
    int *cslot;
    double *ccoef;
    int ncentry;
    /* entries of rows elements compute (CV_ELEM): dependency dep of the
     * element's initial rows, times mult (the ratio of a node), goes to
     * init matrix slot islot */
    struct fl_ientry {
        int elem, dep, islot;
        double mult;
    } *ientry;
    int nientry;

    int nvars;       /* output variables (fl_system_var): the instances' from insts[].var0, then the energy audit's */
    int energy_var0; /* first of the energy.* variables (on request, FL_NENERGY of them) */
    int linsolver; /* FL_SOLVER_DENSE or KLU chosen for auto */

    int has_time_events;
    /* independent groups (groups.c): 1 and NULL when everything is coupled */
    int ngroups;
    fl_scope *groups;
    int *unk_group; /* per unknown: its group (NULL with one group) */
    int *body_group; /* per body: its group, -1 for grounds and bodies moved by time alone */
    struct fl_group_arena *garena; /* what the groups point into */
    fl_mparam *mparams; /* the model's own parameters (a copy of the model's) */
    int nmparams;
};

/* The callbacks of element e: its batch's (the batches are consecutive
 * runs of the elements, by class). */
static inline const fl_elem_ops *fl_elem_ops_of(const fl_system *s, int e)
{
    int lo = 0, hi = s->negroups - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (s->egroups[mid].first <= e) lo = mid;
        else hi = mid - 1;
    }
    return s->egroups[lo].ops;
}

/* The element callbacks of instance i (NULL: it has no element). */
static inline const fl_elem_ops *fl_inst_ops(const fl_system *s, int i)
{
    int e = s->insts[i].elem;
    return e < 0 ? NULL : fl_elem_ops_of(s, e);
}

/* The first input reference of input port p of instance ir: its inputs
 * follow the class's input ports in order, each as wide as declared. */
static inline int fl_port_sig(const fl_inst_rt *ir, int p)
{
    int k_in = 0;
    for (int k = 0; k < p; k++)
        if (ir->cls->ports[k].kind == FL_PORT_INPUT) k_in += ir->cls->ports[k].width > 0 ? ir->cls->ports[k].width : 1;
    return ir->in0 + k_in;
}

/* Whether unknown i is differential (appears differentiated). */
static inline int fl_unk_diff(const fl_system *s, int i)
{
    return s->dpos[i] >= 0;
}

/* The ratio of attachment slot k's node on its body (1 without a node):
 * the slot is at ratio * q + offset of its node (no per-slot copy). */
static inline double fl_sys_slot_ratio(const fl_system *s, int slot)
{
    return fl_node_ratio_at(s->nodes, s->elem_node, slot);
}
static inline double fl_sys_slot_offset(const fl_system *s, int slot)
{
    return fl_node_offset_at(s->nodes, s->elem_node, slot);
}

/* Whether parameter k (an index into par) is one the structure was built
 * from; fl_par_fix marks it so. */
static inline int fl_par_fixed(const fl_system *s, int k)
{
    return (s->par_fixed[k >> 3] >> (k & 7)) & 1;
}
static inline void fl_par_fix(fl_system *s, int k)
{
    s->par_fixed[k >> 3] |= (unsigned char)(1u << (k & 7));
}

/* The name of instance i ("mass1"; "" for the model's own equations). */
static inline const char *fl_inst_name(const fl_system *s, int i)
{
    return s->inst_names + s->insts[i].name_at;
}
static inline const char *fl_ir_name(const fl_system *s, const fl_inst_rt *ir)
{
    return s->inst_names + ir->name_at;
}
/* Where instance i was declared (fl_noloc when it was built through the API). */
static inline fl_loc fl_inst_loc(const fl_system *s, int i)
{
    return s->inst_loc ? s->inst_loc[i] : fl_noloc;
}
static inline fl_loc fl_ir_loc(const fl_system *s, const fl_inst_rt *ir)
{
    return fl_inst_loc(s, (int)(ir - s->insts));
}

/* The label of run condition c ("mass1.s"). */
static inline const char *fl_rcond_label(const fl_system *s, const fl_rcond *c)
{
    return s->cond_labels + c->label_at;
}

/* The k-th condition of the initialisation system (compiled: in rconds). */
static inline int fl_cond_used(const fl_system *s, int k)
{
    return s->cond_used ? s->cond_used[k] : k;
}

/* One past the last force contribution of port p. */
static inline int fl_port_cend(const fl_system *s, int p)
{
    return p + 1 < s->nports ? s->ports[p + 1].c0 : s->ncontrib;
}

/* compile stages (compile/...) */
/* take: NULL, or m itself when compiling frees it as it goes
 * (fl_compile_and_free): its connections are freed once read. */
int fl_compile_structure(fl_system *s, const fl_model *m, fl_model *take, fl_diag *d);
int fl_compile_layout(fl_system *s, fl_diag *d);
/* strict: under-determined initial conditions are an error instead of being
 * completed from start values. */
int fl_compile_init(fl_system *s, int strict, fl_diag *d);
/* Put the idle conditions into conds at their places (none left idle). */
void fl_conds_wake(fl_system *s);
/* The name of unknown i, "mass.s", for messages (thread-safe: the names
 * are made on first use); NULL if nothing names it. */
const char *fl_unk_name(const fl_system *s, int i);
/* Where unknown i comes from, for messages: the declaration of the first
 * component attached to its body, or of the element it belongs to. */
fl_loc fl_unknown_loc(const fl_system *s, int i);
void fl_compile_vars(fl_system *s);
/* Output variable v (0 <= v < nvars): its instance, kind and what of the
 * class it shows, decoded from the instances' layout (O(log instances +
 * ports)). */
fl_var fl_system_var(const fl_system *s, int v);
/* The k-th output variable of instance i (variable insts[i].var0 + k). */
fl_var fl_system_inst_var(const fl_system *s, int i, int k);
/* One past the last output variable of instance i. */
static inline int fl_inst_vars_end(const fl_system *s, int i)
{
    return i + 1 < s->ninst ? s->insts[i + 1].var0 : s->energy_var0;
}
/* The row and column of Jacobian entry e (a record, or one fl_jiter
 * gives), from its slot in jpat (every entry has one); the column only
 * while compiling (jpat_col). */
static inline int fl_jent_row(const fl_system *s, const fl_jentry *e)
{
    return s->jpat.rowind[e->slot];
}
static inline int fl_jent_col(const fl_system *s, const fl_jentry *e)
{
    return s->jpat_col[e->slot];
}
/* Entry t of unit i (0 <= i < r->n) of rule r. */
static inline fl_jentry fl_jrule_entry(const fl_system *s, const fl_jrule *r, int i, int t)
{
    fl_jentry e = s->jent[r->j0 + t];
    if (e.src >= 0) e.src = e.src + i * r->src[t];
    e.slot += i * r->slot[t];
    if (e.islot >= 0) e.islot += i * r->islot[t];
    if (e.rslot >= 0) e.rslot += i * r->rslot[t];
    return e;
}
/* The first rule whose template starts at or after stored entry j. */
int fl_jrule_from(const fl_system *s, int j);
/* What makes units u of the entry list comparable (bodies, then
 * elements): the body's kind, or 1000 + the element's batch (*g: a cursor
 * over the batches, units in order); -1 for none. */
int fl_jrule_key(const fl_system *s, int u, int *g);
/* Every entry in the order they were listed, each rule's run expanded:
 *   fl_jiter it = fl_jiter_start(s); fl_jentry e;
 *   while (fl_jiter_next(&it, &e)) ... (it.k: the entry's number) */
typedef struct fl_jiter {
    const fl_system *s;
    int j, r, i, t, k;
} fl_jiter;
static inline fl_jiter fl_jiter_start(const fl_system *s)
{
    fl_jiter it = {s, 0, 0, 0, 0, -1};
    return it;
}
static inline int fl_jiter_next(fl_jiter *it, fl_jentry *e)
{
    const fl_system *s = it->s;
    if (it->r < s->njrule && it->j == s->jrule[it->r].j0) {
        const fl_jrule *r = &s->jrule[it->r];
        *e = fl_jrule_entry(s, r, it->i, it->t);
        it->k++;
        if (++it->t == r->m) {
            it->t = 0;
            if (++it->i == r->n) {
                it->i = 0;
                it->j += r->m;
                it->r++;
            }
        }
        return 1;
    }
    if (it->j >= s->njent) return 0;
    *e = s->jent[it->j++];
    it->k++;
    return 1;
}
/* The system takes the records e (n of them) and the rules r (nr), each
 * array cut to its size (compile/layout.c, jrules.c). */
void fl_jent_keep(fl_system *s, fl_jentry *e, int n, fl_jrule *r, int nr);
/* How many entries there are, each rule's run counted whole. */
int fl_jent_total(const fl_system *s);
/* Every entry stored again as its own record, no rules (for the groups'
 * scopes, which list their entries by number). */
void fl_jrules_expand(fl_system *s);
/* A slot of every entry (v[k] for entry k in the listed order: the
 * integrator's, the initialisation's or the re-initialisation's, as
 * which says) into the records and the rules' steps; where a rule's run
 * does not move them by one step, the rule is split where they break it
 * (its pieces kept by rule, or stored when short). */
enum { FL_JR_SLOT, FL_JR_ISLOT, FL_JR_RSLOT };
void fl_jrules_set(fl_system *s, const int *v, int which);

/* Split the compiled system into independent groups (after
 * fl_compile_init; reads fl_jent_col). Nothing is stored for one group. */
void fl_compile_groups(fl_system *s);
void fl_groups_free(fl_system *s);
/* The groups' copies of the elements (every element once; the scopes' el
 * point into them), NULL with one group. */
const fl_elem *fl_groups_elems(const fl_system *s);

/* Build a CSC pattern from (row, col) pairs; slot[i] receives the data index
 * of pair i (duplicates share a slot). */
void fl_csc_build(fl_csc *c, int nrow, int ncol, const int *rows, const int *cols, int npairs, int *slot);
void fl_csc_free(fl_csc *c);
/* Whether c is the diagonal pattern (with its arrays or without them). */
int fl_csc_diagonal(const fl_csc *c);
/* A diagonal c's arrays freed (a big chain's re-initialisation pattern:
 * 16 MB at 10^6 wagons), its dimensions kept; any other c unchanged. */
void fl_csc_drop_diagonal(fl_csc *c);

/* Structural matching (maximum bipartite matching of rows to columns) of a
 * pattern; returns the number of matched pairs and fills row_of_col /
 * col_of_row (-1 unmatched). */
int fl_match(const fl_csc *c, int nrow, int *row_of_col, int *col_of_row);

const char *fl_body_kind_name(fl_body_kind k);

/* The name of every node, "{mass.flange_b, spring.flange_a}", for
 * messages: names[n] (a node without ports "{}"); the text is one block.
 * The system keeps them only while it is compiled (they cost about 80
 * bytes a node). Free with fl_node_names_free. */
char **fl_node_names_build(const fl_system *s);
void fl_node_names_free(const fl_system *s, char **names);
/* The name of node n for a message of compiling: the system's table
 * (node_names) is built on first use, which a model without errors and
 * without massless bodies never makes (fl_compile frees it). */
const char *fl_node_name(fl_system *s, int n);

/* The init-matrix columns of a condition with their coefficients (linear
 * conditions); returns their number (at most 2); -1 entries are known
 * quantities. */
int fl_cond_cols(const fl_system *s, const fl_cond *c, int col[2], double coef[2]);
/* The initialisation's pattern (ipat's arrays, which the compiled system
 * does not keep: a run needs them for its initialisation alone), made
 * again from the entries' slots; p's arrays are the caller's. -1 if the
 * system's records disagree with its dimensions. */
int fl_init_pattern(const fl_system *s, fl_csc *p);

/* A location whose file name the system owns. */
fl_loc fl_system_loc(fl_system *s, fl_loc loc);

/* Name of output variable v written into buf (the names are not stored). */
void fl_var_name_into(const fl_system *s, int v, char *buf, size_t cap);

/* What a read-only system makes on first use (names, indexes): build(s)
 * under the system's lock unless ready(s) says it is there; an allocation
 * failure is passed on after unlocking, build leaving nothing half made. */
void fl_system_once(const fl_system *s, int (*ready)(const fl_system *s), void (*build)(void *w));
/* Index of the instance whose name is name[0..len), -1 if none (thread-safe). */
int fl_system_inst_index(const fl_system *s, const char *name, size_t len);
/* The parameter called name: "inst.param" of a component, or else a
 * parameter of the model itself that its top-level equations read (one of
 * the instance of those equations, named "", by its full name: "c",
 * "sub.p"). Its class parameter index with *inst (the instance, -1 if none
 * was found), or -1 (thread-safe). */
int fl_system_param(const fl_system *s, const char *name, int *inst);

#endif
