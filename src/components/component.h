/* component.h - the table-driven interface every component class implements.
 *
 * A class is a static fl_class record: its Modelica path, ports, parameters
 * (with defaults written as Modelica expressions, which src/model parses
 * and evaluates: model/classtext.h), variables, and callbacks.
 * At compile time build() describes the component to the engine with a few
 * primitives:
 *
 *   fl_b_link     a rigid member between two flanges (Mass, Rod, through
 *                 sensors): merges them into one rigid body, adds its mass;
 *                 fl_b_link_ratio with a ratio (levers, racks, gears);
 *   fl_b_ground   a flange fixed in space (Fixed);
 *   fl_b_driver   a flange whose motion is prescribed (Position, Speed,
 *                 Accelerate, Move, ConstantSpeed);
 *   fl_b_element  a force element acting on one or two flanges (springs,
 *                 dampers, force sources, contacts, friction): its forces
 *                 come from the class's eval() at run time;
 *   fl_b_state    a variable of the class that is a kinematic quantity of
 *                 its flanges (Mass.s, Spring.s_rel, Damper.v_rel): its
 *                 start/fixed attributes become initial conditions;
 *   fl_b_kin_output  a signal output that is a kinematic quantity (sensors),
 *                 so that it can drive inputs.
 *
 * Force elements are evaluated in batches per class. Their local view is
 * small and fixed: attachments 0 and 1 (position s, velocity v,
 * acceleration a of the flange each is fixed to), own unknowns, input
 * signals. eval() returns the force on the element at each attachment (the
 * Modelica flange.f) and, on request, the local Jacobian; the engine maps
 * both to the global residual and the sparse or dense Jacobian.
 */
#ifndef FL_COMPONENT_H
#define FL_COMPONENT_H

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "model/value.h"

/* ---- static description ---------------------------------------------- */

typedef enum fl_port_kind { FL_PORT_FLANGE, FL_PORT_INPUT, FL_PORT_OUTPUT } fl_port_kind;

typedef struct fl_port_def {
    const char *name;
    fl_port_kind kind;
    const char *cond;  /* parameter expression: port exists iff true; NULL = always */
    int width;         /* signal vector width (Move.u[3]); 0 = scalar; -1 = class-defined (nout) */
    const char *unit;
    const char *desc;
    int rot;           /* flanges: 1 rotational (phi, tau), 0 translational (s, f) */
} fl_port_def;

/* Mechanical domains. Translational flanges (position s in m, force f in N)
 * and rotational ones (angle phi in rad, torque tau in N.m) make the same
 * 1-D network: the compiler and the integrator treat both alike, only the
 * names and units differ, and flanges of different domains never connect
 * (gears and wheels join them through rigid links with a ratio). */
typedef enum fl_domain { FL_DOM_NONE = 0, FL_DOM_TRANS = 1, FL_DOM_ROT = 2 } fl_domain;

typedef struct fl_domain_names {
    const char *word;                /* "translational" */
    const char *pos, *vel, *acc, *flow;  /* "s", "v", "a", "f" */
    const char *pos_unit, *vel_unit, *acc_unit, *flow_unit;
    const char *mass;                /* "m": the parameter of a body's inertia */
} fl_domain_names;

/* Names of a domain (FL_DOM_TRANS or FL_DOM_ROT; anything else: translational). */
const fl_domain_names *fl_domain_info(int dom);

static inline fl_domain fl_port_domain(const fl_port_def *p)
{
    return p->kind != FL_PORT_FLANGE ? FL_DOM_NONE : p->rot ? FL_DOM_ROT : FL_DOM_TRANS;
}

/* More about the ports of classes made from user equations
 * (components/user.c), one per port. */
typedef struct fl_port_ext {
    int observed;        /* input: reads a variable of another instance (fl_minst.obs) instead of a
                            connection */
    int nderiv;          /* input: how many time derivatives the class needs (0..2) */
    int own;             /* output: the own unknown that holds it (-1: none) */
    int dynamic;         /* input: enters what the element computes while integrating (not only
                            its output variables) */
} fl_port_ext;

typedef enum fl_ptype { FL_P_REAL, FL_P_INT, FL_P_BOOL, FL_P_ENUM, FL_P_STRING, FL_P_VECTOR, FL_P_MATRIX } fl_ptype;

enum {
    FL_PF_MIN = 1 << 0,      /* value >= min */
    FL_PF_MAX = 1 << 1,      /* value <= max */
    FL_PF_MIN_EXCL = 1 << 2, /* value > min */
    FL_PF_STRUCT = 1 << 3,   /* structural (Evaluate=true): fixed at compile time */
    FL_PF_INTEGER = 1 << 4,  /* Real-valued but must be an integer */
};

typedef struct fl_param_def {
    const char *name;
    fl_ptype type;
    const char *def;   /* binding as Modelica text, NULL when none */
    const char *start; /* value used, with a warning, when unset and def == NULL */
    const char *unit;
    const char *desc;
    unsigned flags;
    double min, max;
    const char *enum_type; /* FL_P_ENUM: full type path */
} fl_param_def;

enum {
    FL_VF_ATTR = 1 << 0,  /* accepts start/fixed/nominal modifiers */
    FL_VF_BOOL = 1 << 1,  /* written as 0/1 */
    FL_VF_INT = 1 << 2,   /* integer valued */
    FL_VF_WEAK = 1 << 3,  /* start value is a default initial condition used only
                             when the initial conditions are otherwise incomplete */
};

typedef struct fl_var_def {
    const char *name;
    const char *unit;
    const char *desc;
    unsigned flags;
    double start;  /* default start value */
    int fixed;     /* default fixed attribute */
} fl_var_def;

/* ---- run-time records ------------------------------------------------- */

/* A force element. Attachment j sits on body[j] (or on ground at position
 * off[j] when body[j] < 0) at position ratio[j] * bq[body] + off[j], and
 * moves with ratio[j] times the body's velocity and acceleration (ratio 1
 * unless a lever joins it to the body's reference). */
typedef struct fl_elem {
    int idx;       /* element number (forces go to f[2*idx + j], j = 0, 1) */
    int xatt;      /* attachments j >= 2 (elements of user classes): at slot xatt + j - 2 of the
                      per-attachment arrays (f, att_body, att_node); -1 if none */
    int inst;      /* instance number */
    int pofs;      /* parameters of the instance start at par[pofs] */
    int own;  /* first own unknown (index in y), -1 if none */
    int mode; /* first discrete state in the mode array */
    int root; /* first root function */
    int sig;  /* first input reference; inputs are u[sig + k] */
    int jofs; /* local Jacobian at jloc[jofs] */
    int rs;   /* first discrete Real state */
    const void *user; /* classes made from user equations: their description (components/user.c) */
} fl_elem;

/* A node (a connection set of flanges): where it sits on its body. */
typedef struct fl_node {
    int body;
    int dom;      /* FL_DOM_TRANS or FL_DOM_ROT (names of its quantities) */
    double ratio; /* node position = ratio * body reference position + off */
    double off;
} fl_node;

/* Evaluation context passed to eval(), roots() and event(). */
typedef struct fl_ectx {
    double t;
    double cj;             /* IDA's Jacobian scaling: d(yp)/d(y) */
    const double *y, *yp;  /* unknowns and their derivatives */
    const double *bq, *bv, *ba; /* body reference position, velocity, acceleration */
    const int *att_body;   /* per attachment slot: body (-1: ground) and node (-1: none); */
    const int *att_node;   /* the attachment is at ratio * bq[body] + off of its node */
    const fl_node *nodes;  /* (fl_slot_ratio, fl_slot_offset) */
    const double *du, *ddu; /* first and second time derivatives of the inputs (where asked for) */
    const double *par;     /* parameter storage */
    const double *u;       /* input signal values */
    int *mode;             /* discrete states (events may change them) */
    int want_jac;
    double *f;    /* out: attachment forces, 2 per element */
    double *res;  /* out: residual vector (own rows at res[own + k]) */
    double *jloc; /* out: local Jacobians (zeroed before eval) */
    int initial;  /* evaluating during initialisation */
    double t_left; /* time events at exactly this time are evaluated as left limits */
    double *rs;    /* discrete Real states */
    int contact_events; /* 0: compliant contacts follow their relations without events */
    /* during event updates only: the unknowns may be changed (impulses) */
    double *yw;
    const double *bminv; /* per body: 1/mass; 0 for fixed or prescribed bodies; NAN if massless */
    const int *bvi;      /* per body: index of its velocity in y, -1 if none */
    const int *bqi;      /* per body: index of its position in y, -1 if none */
    double *impact_loss; /* accumulated energy lost in impacts (closed form, fl_impact) */
    double *impulse_work; /* [0] accumulated work of motion sources through impulses, [1] its
                             absolute value */
    const fl_value *arrays; /* array parameters (tables); par holds their index */
    double rtol;         /* the run's relative tolerance: how exactly roots are located */
    char *err;           /* an event that fails writes its message here (FL_ERRLEN) */
    int *terminate;      /* an event that ends the run (terminate()) sets it */
    int terminal;        /* 1 in the event update at the end of the run (terminal()) */
    int samples_off;     /* 1 in the event update that ends an event instant: sample() is false again */
    char *term_msg;      /* and writes its message here (FL_ERRLEN) */
    char *func_err;      /* a user function that failed writes its message here, when empty (FL_ERRLEN) */
    int *func_fatal;     /* ... and sets this when no other point can help (an endless loop): the run stops */
    fl_loc *err_loc;     /* where the failure in err is (a statement of the model), file NULL: none */
    char *warn;          /* a warning of an event (an assert of level warning), when empty (FL_ERRLEN) */
    fl_loc *warn_loc;
    int *warn_elem;      /* the element whose warning names it (a variable out of its min/max), -1 */
} fl_ectx;

#define FL_ERRLEN 512

/* Report a failure from an event callback (which then returns -1): the run
 * stops with this message. */
static inline int fl_elem_fail(fl_ectx *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (x->err) vsnprintf(x->err, FL_ERRLEN, fmt, ap);
    va_end(ap);
    return -1;
}

/* The same for a failure at a place of the model's text (an assert). */
static inline int fl_elem_fail_at(fl_ectx *x, fl_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (x->err) vsnprintf(x->err, FL_ERRLEN, fmt, ap);
    va_end(ap);
    if (x->err_loc) *x->err_loc = loc;
    return -1;
}

/* Slot of attachment j of an element in the per-attachment arrays. */
static inline int fl_att_slot(const fl_elem *e, int j)
{
    return j < 2 ? 2 * e->idx + j : e->xatt + j - 2;
}

/* Attachment j of element e: its body (-1: the ground) and the ratio and
 * offset of its node on that body (1 and 0 without a node). */
static inline int fl_att_body(const fl_ectx *x, const fl_elem *e, int j)
{
    return x->att_body[fl_att_slot(e, j)];
}
/* The ratio and offset of the node of slot in node_of (1 and 0 without
 * one): the one lookup behind fl_slot_ratio and fl_sys_slot_ratio. */
static inline double fl_node_ratio_at(const fl_node *nodes, const int *node_of, int slot)
{
    int n = node_of[slot];
    return n >= 0 ? nodes[n].ratio : 1.0;
}
static inline double fl_node_offset_at(const fl_node *nodes, const int *node_of, int slot)
{
    int n = node_of[slot];
    return n >= 0 ? nodes[n].off : 0.0;
}
static inline double fl_slot_ratio(const fl_ectx *x, int slot)
{
    return fl_node_ratio_at(x->nodes, x->att_node, slot);
}
static inline double fl_slot_offset(const fl_ectx *x, int slot)
{
    return fl_node_offset_at(x->nodes, x->att_node, slot);
}
static inline double fl_att_ratio(const fl_ectx *x, const fl_elem *e, int j)
{
    return fl_slot_ratio(x, fl_att_slot(e, j));
}
static inline double fl_att_offset(const fl_ectx *x, const fl_elem *e, int j)
{
    return fl_slot_offset(x, fl_att_slot(e, j));
}

/* The row of a locked element (stuck friction, a locked gear) holds a1 - a0
 * = 0 scaled well above the other entries of the bodies' velocity columns
 * (its entries there are K ratio, against M cj in the bodies' own rows), so
 * that the LU factorisation pivots on it: a body stuck to the ground then
 * keeps a velocity of exactly zero. */
static inline double fl_lock_scale(const fl_ectx *x, const fl_elem *e)
{
    double m = 1;
    for (int j = 0; j < 2; j++) {
        int b = fl_att_body(x, e, j);
        if (b >= 0 && x->bminv[b] > 0) m += 1 / (x->bminv[b] * fabs(fl_att_ratio(x, e, j)));
    }
    return 1e6 * m;
}

/* An impact between the bodies at the two attachments of an element during
 * an event: the relative velocity v_rel = v1 - v0 becomes -cor * v_rel
 * through an impulse P = (1 + cor) mu v_rel (N.s, positive in the sense of a
 * positive element force: it pushes attachment 0 in +s and attachment 1 in
 * -s), with mu the reduced mass, 1/mu = sum of ratio^2/M over the sides (a
 * fixed or motion-driven side counts as infinite mass; an attachment joined
 * to its body by a lever of ratio r sees the body's mass as M / r^2, and
 * both attachments on one body give (ratio1 - ratio0)^2 / M).
 *
 * A free side changes its velocity by its share of the impulse. A fixed or
 * driven side keeps its velocity: its source delivers the opposite impulse
 * and with it the work -P_j v_j, which goes to *impulse_work (work of the
 * sources, like their integrated power). The loss is not measured from the
 * velocities but taken from the closed form 0.5 (1 - cor^2) mu v_rel^2, so
 * that the energy audit compares it with the kinetic energies it measures;
 * it is added to *impact_loss and returned (J). cor = 0 is a plastic impact.
 * Nothing happens (0 returned) outside an event update, with a massless
 * side or with no free side. */
static inline double fl_impact(fl_ectx *x, const fl_elem *e, double cor)
{
    double v[2] = {0, 0}, minv = 0;
    int free_side[2] = {0, 0};
    if (!x->yw) return 0;
    for (int j = 0; j < 2; j++) {
        int b = fl_att_body(x, e, j);
        if (b < 0) continue; /* ground: at rest, infinite mass */
        double mi = x->bminv[b];
        if (!(mi >= 0)) return 0; /* massless: no defined velocity jump */
        free_side[j] = mi > 0 && x->bvi[b] >= 0;
        v[j] = fl_att_ratio(x, e, j) * (free_side[j] ? x->yw[x->bvi[b]] : x->bv[b]);
        if (free_side[j]) minv += fl_att_ratio(x, e, j) * fl_att_ratio(x, e, j) * mi;
    }
    if (free_side[0] && fl_att_body(x, e, 1) == fl_att_body(x, e, 0)) { /* one body: the impulses act together */
        double dr = fl_att_ratio(x, e, 1) - fl_att_ratio(x, e, 0);
        minv = dr * dr * x->bminv[fl_att_body(x, e, 0)];
    }
    if (!(minv > 0)) return 0;
    double vrel = v[1] - v[0];
    double P = (1 + cor) * vrel / minv;
    for (int j = 0; j < 2; j++) {
        int b = fl_att_body(x, e, j);
        double Pj = j == 0 ? P : -P; /* the impulse the element gives side j */
        if (free_side[j]) {
            x->yw[x->bvi[b]] += fl_att_ratio(x, e, j) * Pj * x->bminv[b]; /* its generalised impulse is ratio * Pj */
        } else if (b >= 0 && x->impulse_work) {
            double w = -Pj * v[j]; /* the source holds v[j] against the impulse */
            x->impulse_work[0] += w;
            x->impulse_work[1] += fabs(w);
        }
    }
    double lost = 0.5 * (1 - cor * cor) * vrel * vrel / minv;
    if (x->impact_loss) *x->impact_loss += lost;
    return lost;
}

/* Move attachment j of an element to position target during an event
 * (reinit of a position); returns -1 if its body has no free position. */
static inline int fl_move_attachment(fl_ectx *x, const fl_elem *e, int j, double target)
{
    int b = fl_att_body(x, e, j);
    if (b < 0 || !x->yw || x->bqi[b] < 0) return -1;
    x->yw[x->bqi[b]] += (target - (fl_att_ratio(x, e, j) * x->bq[b] + fl_att_offset(x, e, j))) / fl_att_ratio(x, e, j);
    return 0;
}

/* The value of the relation g > 0 at an event: a root that has just been
 * crossed (dir = +1/-1) decides it by the direction of the crossing, which
 * is robust where g is numerically zero; otherwise by the sign of g. */
static inline int fl_rel_gt(double g, int dir)
{
    return dir ? dir > 0 : g > 0;
}

/* "time < T" of a time relation, as a left limit at the event instant. */
static inline int fl_time_before(const fl_ectx *x, double T)
{
    return x->t < T || (x->t == T && x->t == x->t_left);
}

static inline double fl_att_s(const fl_ectx *x, const fl_elem *e, int j)
{
    int b = fl_att_body(x, e, j);
    return b >= 0 ? fl_att_ratio(x, e, j) * x->bq[b] + fl_att_offset(x, e, j) : fl_att_offset(x, e, j);
}
static inline double fl_att_v(const fl_ectx *x, const fl_elem *e, int j)
{
    int b = fl_att_body(x, e, j);
    return b >= 0 ? fl_att_ratio(x, e, j) * x->bv[b] : 0.0;
}
static inline double fl_att_a(const fl_ectx *x, const fl_elem *e, int j)
{
    int b = fl_att_body(x, e, j);
    return b >= 0 ? fl_att_ratio(x, e, j) * x->ba[b] : 0.0;
}

/* Local Jacobian layout: rows are [f0, f1, own residuals]; columns are
 * [s0, v0, a0, s1, v1, a1, own y..., own yp..., inputs...]. An element
 * with natt attachments has natt force rows and 3 natt columns first. */
enum { FL_J_S0 = 0, FL_J_V0, FL_J_A0, FL_J_S1, FL_J_V1, FL_J_A1, FL_J_OWN };

/* A rigid relation between attachments j0 and j1 of an element:
 * k1 a(j1) = k0 a(j0) for their accelerations. lock: FL_RIGID_ALWAYS for
 * a constraint of every mode, FL_RIGID_LOCK for the element's lock (which
 * is set idle when the others imply it), FL_RIGID_START for a start of
 * sliding, which holds nothing but is asked whether the locks hold it at
 * zero speed (it is then set idle too: held at its limit). */
enum { FL_RIGID_ALWAYS, FL_RIGID_LOCK, FL_RIGID_START };
typedef struct fl_rigid {
    int j0, j1;
    double k0, k1;
    int lock;
    int dir; /* FL_RIGID_START: +1 a start forward (a(j1) - a(j0) > 0), -1 backward */
} fl_rigid;
#define FL_MAX_RIGID 4

/* A batch of n elements of one class, numbered consecutively, as
 * structure of arrays (sim/fast.c): attachment k = 2 i + j of element i
 * has body[k] (-1: ground), off[k], ratio[k] (these point into the
 * system's attachment arrays) and the residual row row[k] its force adds
 * to (-1: none); the first fast_npar parameters of element i are at
 * par + pofs[i] (copies, shared by elements with the same values); its
 * discrete states at mode0 + i * nmodes, its discrete Real states at
 * rs0 + i * rstep: rstep is the class's nreal, or 0 while every
 * element's states are the same bit for bit (then all read element 0's
 * instead of a row each: sim/fast.c, fl_fast_ready). unit: every
 * attachment is on a body, with ratio 1 and offset +0 (off and ratio need
 * not be read). */
typedef struct fl_fast {
    int n, unit;
    const int *body, *row, *pofs;
    const double *off, *ratio, *par;
    int mode0, nmodes, rs0, rstep;
    int nreal;          /* the class's discrete Real states per element */
    int npar;           /* parameters a row holds (fl_elem_ops.fast_npar) */
    const double *upar; /* the one row every element reads, else NULL */
} fl_fast;
/* The most parameters a fast kernel reads per element. */
#define FL_FAST_NPAR_MAX 16

/* What fast() computes: FORCE adds the forces into the residual rows,
 * JAC writes df/ds_rel, df/dv_rel of element i at out[2 i], out[2 i + 1],
 * PEN the depth and gap of a contact there, ENERGY the stored energy and
 * the power lost there, F the force f of element i at out[i] (a strand:
 * sim/fast.c adds them into the rows). */
enum { FL_FAST_FORCE, FL_FAST_JAC, FL_FAST_PEN, FL_FAST_ENERGY, FL_FAST_F };

/* Element callbacks for a class. */
typedef struct fl_elem_ops {
    int nown;             /* own unknowns (each with its own residual row) */
    const int *own_diff;  /* per own unknown: 1 if it appears differentiated */
    int nroots;           /* root (zero-crossing) functions */
    int nmodes;           /* discrete states */
    int nin;              /* input signals (scalar) */
    /* Structural dependency: bit c of dep[r] is set when local row r depends
     * on local column c (layout above). */
    const uint64_t *dep;
    /* Forces (and residuals of own unknowns) for n elements of this class. */
    void (*eval)(fl_ectx *x, const fl_elem *e, int n);
    /* Root functions g[e->root + k]; relations change value where g crosses 0. */
    void (*roots)(const fl_ectx *x, const fl_elem *e, int n, double *g);
    /* Event update of the discrete states of one element from pre-values
     * (already in x->mode) and the current continuous values. dir[k] is the
     * crossing direction of root k (+1/-1) or 0 if it did not cross.
     * Returns 1 when a discrete state changed, -1 on failure (with
     * fl_elem_fail). */
    int (*event)(fl_ectx *x, const fl_elem *e, const int *dir);
    /* Initial discrete states from the initial values in x: called before
     * the initialisation (positions at their first guesses, velocities 0)
     * and again with its solution, until the states no longer change. */
    void (*init_modes)(fl_ectx *x, const fl_elem *e);
    /* Next time event of the element after t (INFINITY if none). */
    double (*next_time_event)(const double *par, const fl_elem *e, double t);
    int nreal;   /* discrete Real states (rs[e->rs + k]): values kept between events */
    unsigned flags; /* FL_EK_* */
    /* Called once after initialisation (e.g. to remember initial values). */
    void (*start)(fl_ectx *x, const fl_elem *e);
    /* Energy bookkeeping: stored (potential) energy U[e->idx] and the
     * dissipated power loss[e->idx] >= 0 of n elements. */
    void (*energy)(const fl_ectx *x, const fl_elem *e, int n, double *U, double *loss);
    /* Optional, contacts: how far the element is into its stop (m, 0 when
     * not in contact) and the gap that depth is measured against; the run
     * warns when a contact goes deeper than a tenth of its gap. */
    double (*penetration)(const fl_ectx *x, const fl_elem *e, double *gap);
    /* Optional, compliant contacts: the stiffest spring constant (N/m) of
     * the element with these parameters; only contacts of moderate
     * stiffness are ever stepped through without events by default. */
    double (*stiffness)(const double *par);
    /* Optional: names of the own unknowns (for messages), and what to say
     * when one of them is not determined (a singular system). */
    const char *const *own_names;
    const char *own_hint;
    const fl_loc *own_locs; /* optional: where each own unknown is declared (classes made from equations) */
    /* Elements of user classes: natt attachments (0 means 2), and the
     * structural dependencies as a list of ndep (row, column) pairs in
     * place of dep masks; the local Jacobian is then ndep values in the
     * order of the list. */
    int natt;
    int ndep;
    const int *dep_rc;
    /* Rows of the initialisation the element computes (initial equations):
     * ninit rows with values g[k] at (x->y, x->yp); their Jacobian over the
     * local columns, ninit_dep values in the order of init_dep_rc (row,
     * column) pairs, when jac is not NULL. */
    int ninit;
    int ninit_dep;
    const int *init_dep_rc;
    void (*init_eval)(fl_ectx *x, const fl_elem *e, double *g, double *jac);
    /* Optional, elements that can lock (the stick-slip machine, friction.h):
     * the rigid relations the element holds now, at most FL_MAX_RIGID,
     * returned in out (the count is returned). The engine finds the locks
     * that other relations already imply (parallel locks on one rigid
     * body) and sets them idle (set_idle returns 1 when that changed
     * something): see resolve_locks in sim/eval.c. set_idle's value: 0
     * not held, 1 held by the others, and for a start that was held until
     * now 2 (let go as its group breaks away in its direction: it goes on)
     * or 3 (let go as the holder breaks away the other way: it locks). */
    int (*rigid)(const fl_ectx *x, const fl_elem *e, fl_rigid *out);
    int (*set_idle)(fl_ectx *x, const fl_elem *e, int idle);
    /* Optional, two-attachment elements without own unknowns whose local
     * Jacobian is that of fl_compliant_out: a batch at once, over
     * structure of arrays (sim/fast.c). what = FL_FAST_FORCE: the forces
     * added straight into the residual rows of their bodies (out unused;
     * x->f is not filled: the outputs and the energy audit use eval());
     * FL_FAST_JAC: df/ds_rel and df/dv_rel of element i into out[2 i],
     * out[2 i + 1]; FL_FAST_PEN (classes with penetration()): its depth
     * and gap into out[2 i], out[2 i + 1]; FL_FAST_ENERGY: the stored
     * energy and the loss power energy() reports, into out[2 i] and
     * out[2 i + 1]. The same values as eval(), penetration() and energy()
     * give, bit for bit: write it with the helpers of common.h around the
     * laws they use. */
    void (*fast)(const fl_fast *z, const fl_ectx *x, int what, double *out);
    int fast_npar; /* the leading parameters fast() reads (z->par holds copies of them) */
} fl_elem_ops;


static inline int fl_ops_natt(const fl_elem_ops *o)
{
    return o->natt ? o->natt : 2;
}

enum {
    FL_EK_SOURCE = 1 << 0,  /* its power is work done on the system (force sources) */
    FL_EK_CONTACT = 1 << 1, /* compliant contact: events can be switched off (contact_events = 0) */
    FL_EK_IMPULSE = 1 << 2, /* applies impulses: both sides need mass, at least one side free */
    FL_EK_SAMPLE = 1 << 3,  /* reads sample(): its event update runs once more as an instant ends */
    FL_EK_TERMINATE = 1 << 4, /* may end the run (terminate()) */
    /* two attachments, no own unknowns or inputs, a force depending on
     * s_rel and v_rel: its local Jacobian is fl_compliant_out's two values
     * (below), not the dense block */
    FL_EK_COMPLIANT = 1 << 5,
};

/* A compliant element (FL_EK_COMPLIANT) keeps df/ds_rel at jloc[jofs] and
 * df/dv_rel at jloc[jofs + 1]. Entry (row, col) of its block (rows: the
 * forces on attachments 0 and 1, -f and +f; columns FL_J_*) is the one of
 * them fl_compliant_place gives (*dv), negated if *neg: s and v of
 * attachment 1 enter f with +, the force on attachment 0 is -f. */
static inline void fl_compliant_place(int row, int col, int *dv, int *neg)
{
    *dv = col == FL_J_V0 || col == FL_J_V1;
    *neg = (col == FL_J_S1 || col == FL_J_V1) != (row == 1);
}

/* Prescribed motion (drivers). */
typedef enum fl_drv_kind { FL_DRV_POS = 1, FL_DRV_VEL, FL_DRV_ACC } fl_drv_kind;

typedef struct fl_drv_in {
    const void *user;     /* classes made from user equations: their description */
    double t;
    const double *par;
    const double *u;      /* input values, u[0..nin-1] of the driver */
    const double *du;     /* first time derivatives of the inputs (POS/VEL exact) */
    const double *ddu;    /* second derivatives (POS exact) */
    double s, v;          /* current relative position/velocity (VEL/ACC) */
} fl_drv_in;

typedef struct fl_drv_out {
    double s, v, a;        /* prescribed relative motion (what applies to the kind) */
    double da_ds, da_dv;   /* ACC: partial derivatives of a */
} fl_drv_out;

typedef struct fl_drv_ops {
    fl_drv_kind (*kind)(const double *par); /* may depend on parameters (exact) */
    int nderiv;          /* derivatives of inputs needed: 0, 1 or 2 */
    void (*drive)(const fl_drv_in *in, fl_drv_out *out);
} fl_drv_ops;

/* Signal sources (Modelica.Blocks.Sources). */
typedef struct fl_block_ops {
    int (*nout)(const double *par, const fl_value *arrays); /* output width */
    /* Output k (0-based) or its time derivative of the given order at t.
     * left = 1 asks for the left limit at a discontinuity at t. The
     * outputs of a block with several output ports are numbered port
     * after port (fl_block_out). */
    double (*value)(const double *par, const fl_value *arrays, int k, int order, double t, int left);
    /* Next discontinuity strictly after t (INFINITY if none). */
    double (*next_event)(const double *par, const fl_value *arrays, double t);
} fl_block_ops;

/* Output context: everything a class needs to compute its variables. */
typedef struct fl_octx {
    double t;
    const double *par;
    const fl_value *arrays;
    const double *ps, *pv, *pa, *pf; /* per port of the instance: s, v, a, f (NAN if n/a) */
    const double *u;                 /* inputs of the instance */
    const double *own, *ownp;        /* own unknowns and derivatives */
    const double *du, *ddu;          /* derivatives of the inputs (where computed) */
    const void *user;                /* classes made from user equations: their description */
    const int *mode;
    const double *rs;                /* discrete Real states of the element */
    int has_support;                 /* convenience: useSupport evaluated */
    int contact_events;              /* as in fl_ectx */
    char *func_err;                  /* as in fl_ectx: a user function that failed (FL_ERRLEN) */
} fl_octx;

typedef struct fl_builder fl_builder;

/* Parameter access during check/prepare: values by name. */
typedef struct fl_pctx {
    const char *inst;     /* instance name, for messages */
    fl_loc loc;           /* declaration location */
    const double *par;    /* scalar parameter values in param-table order */
    const fl_value *arrays;
    const struct fl_class *cls;
} fl_pctx;

typedef struct fl_class {
    const char *path;
    const char *desc;
    const fl_port_def *ports;
    int nports;
    const fl_param_def *params;
    int nparams;
    const fl_var_def *vars;
    int nvars;
    int nderived; /* parameter slots after the declared ones, filled by prepare() */
    int (*check)(const fl_pctx *p, fl_diag *d);
    void (*prepare)(const fl_pctx *p, double *par);
    int (*build)(fl_builder *b);
    const fl_elem_ops *elem;
    const fl_drv_ops *drv;
    const fl_block_ops *block;
    /* Values of the class variables (vars[] order) at an output point. */
    void (*outputs)(const fl_octx *o, double *vals);
    /* Optional: element callbacks chosen by parameter values (e.g. the
     * contact model of HardStop); default `elem`. */
    const fl_elem_ops *(*elem_for)(const double *par);
    /* Optional: the length at which the element's positions matter (the
     * absolute tolerance scale of the bodies it attaches to); default the
     * parameter s_nominal if the class has one. */
    double (*length_scale)(const double *par);
    /* Classes made from user equations: per port (NULL for library
     * classes), and their description (components/user.c). */
    const fl_port_ext *port_ext;
    const void *user;
    /* Optional indexes of parameters and variables by name (classes made
     * from equations may have hundreds of thousands), NULL: searched. */
    const struct fl_map *param_index, *var_index;
    const fl_loc *var_locs; /* optional: where each variable is declared (classes made from equations) */
    /* Optional: called by the compiler with an instance's evaluated
     * parameter values (vals, in params order, strings included; locs[k]:
     * where parameter k is set, else the declaration) before they are
     * stored, to replace values (the table of tableOnFile = true). base:
     * the model file, against whose directory relative file names resolve
     * (NULL: none). Returns 0, or -1 after reporting errors. */
    int (*load)(const char *inst, const fl_loc *locs, const char *base, fl_value *vals, fl_diag *d);
} fl_class;

/* ---- builder primitives (called from build) --------------------------- */

#define FL_GROUND (-1) /* "attached to ground at 0" in place of a port */
#define FL_NOPORT (-2)

/* Port index if the port exists, FL_GROUND if it is a conditional port that
 * is absent (support with useSupport = false). */
int fl_b_port(fl_builder *b, const char *name);
/* Parameter value by name (scalar). */
double fl_b_par(fl_builder *b, const char *name);
/* The instance's parameter values (class order); fl_b_fix_par marks one
 * as structural (fl_sim_set_param refuses it). */
const double *fl_b_params(fl_builder *b);
void fl_b_fix_par(fl_builder *b, int k);
/* The instance's name and model description (user classes read their
 * attributes). */
const char *fl_b_inst_name(fl_builder *b);
const fl_class *fl_b_class(fl_builder *b);
/* A rigid member: position(port_b) = position(port_a) + L, with mass m. */
void fl_b_link(fl_builder *b, int port_a, int port_b, double L, double m);
/* A rigid member with a ratio (a lever, rack or gear): position(port_b) =
 * r * position(port_a) + c, r finite and non-zero; its mass m moves with
 * port_a (kinetic energy m v_a^2 / 2), and its flange forces satisfy
 * f_a + r f_b = m a_a. fl_b_link is the case r = 1. */
void fl_b_link_ratio(fl_builder *b, int port_a, int port_b, double r, double c, double m);
void fl_b_ground(fl_builder *b, int port, double s0);
/* Prescribe the motion of flange relative to support (FL_GROUND if none);
 * inputs are the instance's input ports in order. */
void fl_b_driver(fl_builder *b, int flange, int support);
/* Declare the instance's force element with its two attachments. */
void fl_b_element(fl_builder *b, int att0, int att1);
/* ... or with n attachments (ports; FL_GROUND for none), the element ops' natt. */
void fl_b_element_n(fl_builder *b, const int *ports, int n);
/* Class variable var equals level-quantity (0 s, 1 v, 2 a) of port_p minus
 * that of port_m (FL_NOPORT: nothing subtracted), plus offset. */
void fl_b_state(fl_builder *b, const char *var, int level, int port_p, int port_m, double offset);
/* Initial equation: level-quantity(port_p) - level-quantity(port_m) equals
 * input k of the instance at the start time (filtered sources). */
void fl_b_init_input(fl_builder *b, int level, int port_p, int port_m, int input);
/* Signal output port `out` equals level-quantity(port_p) - level-quantity(port_m). */
void fl_b_kin_output(fl_builder *b, const char *out, int level, int port_p, int port_m);
/* Mark that the class needs the velocity / acceleration of a port for its
 * outputs (sensors): compile fails where it is undetermined. */
void fl_b_observe(fl_builder *b, int port, int level);
/* Initial condition on own unknown k of the instance's element: the start
 * value of class variable var (its fixed attribute decides whether it is
 * a condition or a first guess). */
void fl_b_own_state(fl_builder *b, int k, int var);
/* The element's initial rows (ops->ninit) become conditions; labels name
 * them in messages. */
void fl_b_init_rows(fl_builder *b, const char *const *labels);
/* A linear constraint among n ports of the instance that the bodies cannot
 * fold (a gear on a moving support, a planetary gear: a node would depend
 * on two bodies): the sum of coef[k] times the position of ports[k], plus
 * offset, is zero. Own unknown `own` of the instance's element is its
 * multiplier (the element's row for it must be zero: the compiler writes
 * the row). The compiler differentiates the constraint as the bodies of the
 * ports require for an index-1 DAE (not at all if one is massless between
 * springs, once if one is massless and damped, twice if all have mass) and
 * keeps the element's initial rows irow_pos and irow_vel (the constraint on
 * positions and on velocities) as conditions where the row is such a
 * derivative; it drops them otherwise. */
void fl_b_constraint(fl_builder *b, int own, int n, const int *ports, const double *coef, double offset, int irow_pos,
                     int irow_vel);
/* Class variable var's fixed start value is one of the element's initial
 * equations (a variable that is no state): not a condition of its own. */
void fl_b_fixed_handled(fl_builder *b, int var);
/* Fail the build with a message (located at the declaration). */
void fl_b_error(fl_builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- registry --------------------------------------------------------- */

int fl_class_count(void);
const fl_class *fl_class_at(int i);
/* Free the table of classes (built again on the next use).
 * For the FMU runtime (src/fmi/inst.c), whose copy of the library is unmapped
 * when the importer unloads the FMU: what it allocated for the whole process
 * would be lost with every unload. No simulation may be alive. */
void fl_registry_shutdown(void);
const fl_class *fl_class_find(const char *path);
/* Unique class whose last path component is name; NULL if none or several
 * (*ambiguous set). */
const fl_class *fl_class_find_short(const char *name, int *ambiguous);
/* Is path a package prefix of some registered class ("Modelica.Mechanics")? */
int fl_package_exists(const char *path);
/* Is path a real MSL class that flange does not have ("not supported", as
 * opposed to an unknown name)? */
int fl_class_msl_unsupported(const char *path);
/* Offer to s (see util/suggest.h, initialised with the last component of
 * the name) the classes of flange nearest to the type name written, dotted
 * or not, by their full paths. */
struct fl_suggest;
void fl_class_suggest(const char *written, struct fl_suggest *s);
int fl_class_port(const fl_class *c, const char *name);
int fl_class_param(const fl_class *c, const char *name);
int fl_class_var(const fl_class *c, const char *name);
int fl_class_nin(const fl_class *c); /* number of scalar input signals */

/* Class tables, one per family file. */
extern const fl_class *const fl_classes_mechanics[];
extern const fl_class *const fl_classes_sources[];
extern const fl_class *const fl_classes_motion[];
extern const fl_class *const fl_classes_sensors[];
extern const fl_class *const fl_classes_blocks[];
extern const fl_class *const fl_classes_kinematic[];
extern const fl_class *const fl_classes_contacts[];
extern const fl_class *const fl_classes_friction[];
extern const fl_class *const fl_classes_stops[];
extern const fl_class *const fl_classes_limiter[];
extern const fl_class *const fl_classes_rotational[];
extern const fl_class *const fl_classes_rot_backlash[];
extern const fl_class *const fl_classes_rot_stops[];

extern const fl_class *const fl_classes_rot_sources[];
extern const fl_class *const fl_classes_rot_sensors[];

extern const fl_class *const fl_classes_rot_friction[];
extern const fl_class *const fl_classes_lossygear[];

/* Width of port p of an instance whose class-defined width is nout. */
static inline int fl_port_width(const fl_class *c, int p, int nout)
{
    int w = c->ports[p].width;
    return w > 0 ? w : w < 0 ? nout : 1;
}

/* The number k of a block's value() for element sub of its output port
 * `port`: the outputs of the ports before it come first. */
static inline int fl_block_out(const fl_class *c, int nout, int port, int sub)
{
    int k = 0;
    for (int p = 0; p < port; p++)
        if (c->ports[p].kind == FL_PORT_OUTPUT) k += fl_port_width(c, p, nout);
    return k + sub;
}

/* The output port of a block's value number k, and the element (*sub). */
static inline int fl_block_port(const fl_class *c, int nout, int k, int *sub)
{
    for (int p = 0; p < c->nports; p++) {
        if (c->ports[p].kind != FL_PORT_OUTPUT) continue;
        int w = fl_port_width(c, p, nout);
        if (k < w) {
            *sub = k;
            return p;
        }
        k -= w;
    }
    *sub = k;
    return -1;
}

/* Helpers for class code: parameter by declaration order. */
#define FL_PAR(par, k) ((par)[(k)])

#endif
