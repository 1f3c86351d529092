/* flatten.h - the user part of a model: every variable and equation written
 * in user classes, gathered while the model is instantiated, in one
 * expression graph (internal to src/model).
 *
 * instantiate.c calls in for each instance of a user class that declares
 * variables or equations: its variables (fl_flat_declare_var), then its
 * equations (fl_flat_equations). Names of variables are full instance
 * paths ("coupler[3].s_rel"); parameters referenced by equations get
 * numbered slots holding their values. Flange connectors that equations
 * use become attachments (fconn); variables bound to signal connectors keep
 * their place in the connection graph (vnode). clusters.c then splits the
 * user part into clusters, analyses them and makes the model instances
 * that carry them. */
#ifndef FL_FLATTEN_H
#define FL_FLATTEN_H

#include "scope.h"
#include "symbolic/flat.h"

/* A scalar variable of the user part. */
typedef struct fvar {
    char *name;           /* full path */
    int uinst;            /* the user instance that declares it */
    fl_fvk kind;          /* FVK_REAL, FVK_DISC; FVK_POS/FVK_FORCE of a connector; FVK_INPUT observed */
    unsigned char vtype;  /* FL_VT_* */
    unsigned char state_select;
    unsigned char is_input, is_output, flow;
    int conn;             /* FVK_POS / FVK_FORCE: the connector (fconn) */
    int vnode;            /* bound to a signal connector's graph node, -1 */
    int obs_inst;         /* FVK_INPUT observing a library instance: its model instance */
    const char *obs_var;  /* ... and the class variable (or "port.s") it reads */
    int has_start, fixed; /* fixed: -1 unset, 0, 1 */
    double start, nominal;
    const char *unit;
    fl_loc loc;
} fvar;

/* A flange connector used by equations: an attachment of its cluster. */
typedef struct fconn {
    char *path;   /* "coupler.flange_a" */
    int uinst;    /* the user instance it belongs to (-1: a connector read from outside) */
    int own;      /* 1: the instance's own connector (its force is the component's) */
    int vnode;
    int pos, force; /* its variables, -1 until used */
    fl_loc loc;
} fconn;

typedef struct feq {
    fl_sx lhs, rhs;
    fl_loc loc;
    int uinst;
    int initial; /* 1: an initial equation; 2: z = value or pre(z) = value, a start value if a
                    when-equation assigns z (fl_flat_finish decides) */
    double value; /* initial 2: the value */
} feq;

/* A parameter value referenced by equations (a slot). */
typedef struct fpar {
    char *name;
    double value;
    const char *unit;
    fl_loc loc;
} fpar;

/* when-equations, asserts: as in the analysis' cluster (symbolic/flat.h),
 * with variables numbered globally, and their instance. */
typedef struct fwhen {
    fl_fwhen w;
    int uinst;
} fwhen;

typedef struct fassert {
    fl_fassert a;
    int uinst;
    int var; /* a.range: the variable whose min/max it checks */
} fassert;

typedef struct uinst {
    char *prefix;   /* "coupler[3]." ("" at the top) */
    int parent;     /* enclosing user instance, -1 */
    fl_loc loc;
    int composite;  /* it has components of its own (its balance is not checked alone) */
    int nconn;      /* equations of connections filed under it (not its own) */
    int connector;  /* a connector of a user connector class: its variables are its owner's */
    int nflanges;   /* flange connectors declared in it */
} uinst;

/* An array of variables (or of variables bound to connectors): its first
 * element and shape, by name. */
typedef struct farray {
    int first;
    int nd, dim[2];
} farray;

typedef struct fl_flat {
    fl_sgraph g;
    FL_VEC(fvar) vars;
    fl_map vindex;           /* full name -> variable */
    FL_VEC(farray) arrays;
    fl_map aindex;           /* full name of an array -> arrays */
    FL_VEC(fconn) conns;
    fl_map cindex;           /* connector path -> conns */
    FL_VEC(fpar) pars;
    fl_map pindex;           /* full parameter name (with subscript) -> slot */
    FL_VEC(feq) eqs;
    FL_VEC(fwhen) whens;
    FL_VEC(fassert) asserts;
    FL_VEC(uinst) uinsts;
    int nchains;             /* when-equations numbered across the model */
    fl_arena *strs;          /* strings of messages */
    /* connectors of user-defined connector classes (uconn.c) */
    FL_VEC(struct uconn) uconns;
    fl_map uindex;           /* connector path -> uconns */
    FL_VEC(struct ulink) ulinks;
} fl_flat;

/* A connector of a user connector class (connector Pin Real v; flow Real
 * i; end Pin;): its variables, by their full names "r1.p.v". */
typedef struct uconn {
    char *path;
    int *vars;    /* its scalar variables */
    int nvars;
    int top;      /* a connector of the model itself: connected from inside only */
    fl_loc loc;
} uconn;

/* connect(a, b) of two of them: side 0 inside (a connector of a component,
 * c.p), 1 outside (a connector of the class that makes the connection). */
typedef struct ulink {
    int a, b;
    int side_a, side_b;
    fl_loc loc;
} ulink;

fl_flat *fl_flat_new(void);
void fl_flat_free(fl_flat *f);

/* Does class c (its own declarations, not its bases) have anything the
 * user part takes: equations other than plain connects, variables? */
int fl_flat_class_has_equations(const fl_class_ast *c);

/* The user instance of scope e, created on first use. */
int fl_flat_instance(env *e, fl_loc loc);

/* A declaration that is a variable (type Real, Integer, Boolean, an SI
 * or short type of them, an enumeration, or a signal connector of a
 * class with equations): its scalar variables with their attributes from
 * the modifiers (mods, outer ones first). vnode_signal: 0 for a variable,
 * 1 + FL_VT_* for a signal connector (RealInput, BooleanOutput, ...) of
 * that value type. Returns 0, or -1 after reporting. */
int fl_flat_declare_var(env *e, const fl_decl *dc, const fl_class_ast *lex, const pmod_vec *mods, int vnode_signal);

/* The equations of an instance: eqs/ieqs lists from the class and its
 * bases, each with its lexical class. */
typedef struct eqlist {
    const fl_eq *eqs;
    int n;
    const fl_class_ast *lex;
    int initial;
} eqlist;
int fl_flat_equations(env *e, const eqlist *lists, int nlists);
/* Forget the bindings of declarations not turned into equations (a class
 * that failed before its equations). */
void fl_flat_drop_pending(env *e);

/* Is the declaration's type a variable type (not a component or connector)? 1 yes (*unit gets
 * its unit), 0 no, -1 a cycle of short type definitions (reported). */
int fl_flat_is_var_type(const ictx *ic, const fl_class_ast *lex, const char *type, unsigned char *vtype,
                        const char **unit, int *nlits);

/* uconn.c: a declared connector of a user connector class (its variables
 * are already declared under path); a connect() between two of them in
 * scope e: 1 when it was one (0 otherwise: flanges, signals), -1 after an
 * error; the connection equations, before the clusters are formed. */
void fl_uconn_declare(ictx *ic, const char *path, int top, fl_loc loc);
int fl_uconn_connect(env *e, const fl_connect *cn);
int fl_uconn_equations(ictx *ic);

/* The numeric parameters of instance scope e as slots of the user part
 * (spring.c read by an equation of the enclosing model). */
void fl_flat_export_params(env *e);

/* clusters.c: split, analyse, make the instances and connect them. */
int fl_flat_finish(ictx *ic);

#endif
