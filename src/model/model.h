/* model.h - the model description (fl_model): flat component instances with
 * their parameter values and variable attributes, and port-to-port
 * connections. Built by instantiating parsed Modelica (instantiate.c) or
 * through the public API (model.c). Read by the compiler. */
#ifndef FL_MODEL_H
#define FL_MODEL_H

#include "components/component.h"
#include "flange.h"
#include "util/names.h"

typedef struct fl_attr {
    double start, nominal;
    fl_loc loc;
    unsigned char has_start, has_fixed, has_nominal, fixed; /* (40 bytes: models set a few per component) */
} fl_attr;

/* A parameter value or variable attributes given to an instance. Only
 * what the model sets is stored (a big model sets a few of each class's
 * parameters): the rest are the class defaults. A number is kept in the
 * record, anything else (a string, an enumeration literal, an array) in
 * a value of its own: 32 bytes per setting instead of a whole fl_value's
 * 72, which a model of 10^5 components setting ten parameters each
 * carries through compiling. Read it with fl_minst_par. */
typedef struct fl_mpar {
    union {
        double num;   /* kind V_REAL, V_INT, V_BOOL */
        fl_value *v;  /* any other kind (owned) */
    } u;
    fl_loc loc;
    int k;              /* class parameter */
    unsigned char kind; /* the value's fl_vkind */
} fl_mpar;

typedef struct fl_mattr {
    fl_attr a;
    int var; /* class variable */
} fl_mattr;

/* A variable of another instance that an input of a class made from
 * user equations reads (mass.s read by an equation). */
typedef struct fl_mobs {
    int inst;  /* the instance read */
    char *var; /* its class variable, or "port.s", "port.f" */
    fl_loc loc; /* where the equations read it */
} fl_mobs;

typedef struct fl_minst {
    char *name; /* full dotted instance path */
    const fl_class *cls;
    fl_loc loc;
    fl_mpar *pars; /* parameters set, npars of them */
    fl_mattr *attrs;
    int npars, nattrs;
    fl_mobs *obs;  /* per input of a user class: what it reads (inst -1: a connection) */
    int nobs;
} fl_minst;

/* The value set for parameter k of an instance, NULL for the class default;
 * *loc (if loc) receives where it was set. A number is written into *buf
 * and buf returned; other values are the setting's own (valid until it
 * changes). */
const fl_value *fl_minst_par(const fl_minst *in, int k, fl_value *buf, fl_loc *loc);
/* Store v (taken over) as the setting mp. */
void fl_mpar_put(fl_mpar *mp, fl_value v);
/* Free what a setting owns. */
void fl_mpar_free(fl_mpar *mp);
/* The attributes set for variable k of an instance (none set: all zero). */
const fl_attr *fl_minst_attr(const fl_minst *in, int k);
/* ... to be set (added, all unset, when absent). */
fl_attr *fl_minst_attr_slot(fl_minst *in, int k);

/* A port of an instance; sub is the element of a vector signal port (0-based). */
typedef struct fl_pref {
    int inst, port, sub;
} fl_pref;

typedef struct fl_mconn {
    fl_pref a, b;
    fl_loc loc;
} fl_mconn;

/* A parameter of the model itself rather than of a library component: one
 * of the top-level model (name "k") or of a component of it that is a
 * model written in Modelica ("sub.k"), as evaluated at instantiation (with
 * the --param overrides). Scalars of type Real, Integer, Boolean and
 * enumeration only, not protected, final or constant. The FMU exporter
 * lists the top-level ones as parameters. */
typedef struct fl_mparam {
    char *name;            /* full dotted name */
    fl_ptype type;         /* FL_P_REAL, FL_P_INT, FL_P_BOOL, FL_P_ENUM */
    double value;          /* Booleans 0/1, enumerations the literal's index (1-based) */
    const char *enum_type; /* FL_P_ENUM: the type's full path (static) */
    char *unit, *desc;     /* "" if none */
} fl_mparam;

/* Copy and free arrays of them (the compiled system keeps a copy). */
fl_mparam *fl_mparams_copy(const fl_mparam *p, int n);
void fl_mparams_free(fl_mparam *p, int n);

struct fl_model {
    char *name;
    FL_VEC(fl_minst) insts;
    fl_names index; /* instance name -> index */
    int ndotted;  /* instance names with a dot (flattened ones): names are split at the longest prefix */
    FL_VEC(fl_mconn) conns;
    fl_experiment exp;
    int has_exp[4]; /* start, stop, interval, tolerance given */
    char *path; /* source file named by the locations (owned); the AST is freed after instantiation */
    FL_VEC(const fl_class *) uclasses; /* classes made from user equations, held by the model */
    char **files; /* library files named by locations (owned), nfiles of them */
    size_t nfiles;
    int strict_init; /* under-determined initial conditions are an error (fl_model_set_strict_init) */
    struct fl_ufuncs *funcs; /* functions of the model's files, held (symbolic/func.h); NULL if none */
    fl_mparam *mparams; /* the model's own parameters, in declaration order */
    int nmparams;
};

fl_model *fl_model_alloc(const char *name);
/* Free a part of m that compiling has read (fl_compile_and_free): the
 * name index (compiling looks up no names), the parameter settings (read
 * by the parameter stage), the connections (read by the structure stage
 * before it lists the initial conditions), or the instances and
 * connections altogether (read up to the end of the structure stage); the
 * rest goes with fl_model_free. */
typedef enum fl_mrelease { FL_MREL_INDEX, FL_MREL_PARS, FL_MREL_CONNS, FL_MREL_PARTS } fl_mrelease;
void fl_model_release(fl_model *m, fl_mrelease what);
/* Add an instance of a resolved class; returns its index or -1 if the name
 * is taken (reported). */
int fl_model_add_inst(fl_model *m, const fl_class *cls, const char *name, fl_loc loc, fl_diag *d);
/* Resolve "inst.port" or "inst.port[k]" (k 1-based) to a port reference. */
int fl_model_port_ref(const fl_model *m, const char *text, fl_pref *out, fl_loc loc, fl_diag *d);
/* Connect two port references, checking kinds (flange-flange, signal-signal). */
int fl_model_connect_refs(fl_model *m, fl_pref a, fl_pref b, fl_loc loc, fl_diag *d);
/* Set a parameter/attribute of an instance from a value. attr is NULL for a
 * parameter, else "start"/"fixed"/"nominal"/"stateSelect" of variable var. */
int fl_model_set_value(fl_model *m, int inst, const char *field, const fl_value *v, fl_loc loc, fl_diag *d);
/* Attribute attr (e.g. "unit") of parameter k of an instance, given the
 * value v: checked (a unit must be the declared one), never stored. */
int fl_model_param_attr(fl_model *m, int inst, int k, const char *attr, const fl_value *v, fl_loc loc, fl_diag *d);
/* Report that an instance has no parameter (as_variable: no variable with
 * start/fixed attributes) called name, with the nearest names. */
void fl_model_no_param(const fl_model *m, int inst, const char *name, int as_variable, fl_loc loc, fl_diag *d);
/* Set parameter k (class table index) of an instance: fl_model_set_value
 * without the name lookup. */
int fl_model_set_param(fl_model *m, int inst, int k, const fl_value *v, fl_loc loc, fl_diag *d);
/* Display name of a port reference ("mass.flange_a", "table.y[2]"). */
char *fl_pref_str(const fl_model *m, fl_pref p);

/* The whole text of a model or library file (a regular file of at most
 * 1 GiB without NUL bytes); NULL on errors, reported. Free it. */
char *fl_read_model_text(const char *path, fl_diag *d);

#endif
