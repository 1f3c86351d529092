/* user.h - the one generic class of components written as equations.
 *
 * An analysed and lowered cluster of user equations (symbolic/lower.h)
 * becomes a class like every library class: a table of ports, parameters
 * and variables, a build() that declares its rigid connections, fixed
 * points, prescribed motion, element and initial conditions, and element
 * callbacks that run its programs in batches. Classes are made at load
 * time, shared by every instance of the same structure, and reference
 * counted (the model and every system compiled from it hold them). */
#ifndef FL_USER_H
#define FL_USER_H

#include "component.h"
#include "symbolic/lower.h"

typedef struct fl_uclass fl_uclass;

/* What the class looks like from outside. Names are copied. */
typedef struct fl_uclass_desc {
    const char *path;          /* shown as the class (messages, `check`) */
    int npar;
    const char *const *par_names; /* relative to the instance */
    const char *const *par_units;
    const char *const *att_names; /* flange ports, natt of them */
    const unsigned char *att_rot; /* per flange port: 1 if rotational */
    const char *const *in_names;  /* input ports */
    const unsigned char *in_observed; /* per input: reads a variable of another instance */
    const char *const *out_names; /* output ports */
    const int *disc_start_par;    /* per discrete slot: the parameter holding its start value, -1 */
    struct fl_ufuncs *funcs;      /* the functions the equations call (held by the class), NULL */
} fl_uclass_desc;

/* Lower an analysis (taken over, also on failure) into a class. NULL
 * after reporting. */
fl_uclass *fl_uclass_new(fl_ucls *u, const fl_uclass_desc *desc, const char *name, fl_diag *d);
const fl_class *fl_uclass_class(const fl_uclass *c);
/* The class variable of cluster variable k (-1: not shown). */
int fl_uclass_var(const fl_uclass *c, int k);

/* Give up the per-thread register files: the calling thread's is freed,
 * the thread key deleted, so that no thread exiting later runs this
 * library's destructor. For the FMU runtime (src/fmi/inst.c), whose copy
 * of the library goes away when the importer unloads the FMU while its
 * threads live on; their register files are then lost. */
void fl_user_regs_shutdown(void);

/* Holders of a class made from user equations (no-ops for library classes). */
void fl_class_retain(const fl_class *c);
void fl_class_release(const fl_class *c);

#endif
