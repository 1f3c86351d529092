/* fmu.h - what the FMU exporter (export.c, md.c) and the FMU runtime
 * (inst.c, fmi2.c, fmi3.c) must agree on: the resources' configuration file
 * and the table of FMU variables. Both build the table with the same function
 * from the same compiled system, so the value references of
 * modelDescription.xml are the ones the runtime serves. Internal. */
#ifndef FL_FMU_H
#define FL_FMU_H

#include "flange.h"

/* resources/flange.cfg, one "key=value" per line (UTF-8, '\n'):
 *   flange=<flange version that exported it>
 *   fmi=2|3
 *   model=<class to load from resources/model.mo>
 *   wrapped=<instance name of the user's model inside the generated wrapper,
 *            "" when the model is loaded as it is>
 *   param=<name>=<value>                 (repeated: --param overrides at export,
 *                                         as the loader takes them: a number
 *                                         %.17g, true/false, or an enumeration
 *                                         literal by its full name)
 *   tunable=<name>                       (repeated: parameters fl_sim_set_param
 *                                         may change during a run; names as the
 *                                         loaded model spells them)
 *   input=<fmu name>|<parameter carrying it>|<unit>|<start %.17g>|<description>
 *   output=<fmu name>|<variable carrying it>|<unit>|<description>
 *   token=<instantiation token / guid>
 * Order of repeated keys is kept. Unknown keys are an error. */
typedef struct fl_fmu_io {
    char *name;  /* FMU name, e.g. "f" */
    char *carrier; /* "in_f.k" (input: a parameter) or "out_s.y" (output: a variable) */
    char *unit;
    char *desc;
    double start; /* inputs */
} fl_fmu_io;

typedef struct fl_fmu_cfg {
    char *flange_version;
    int fmi; /* 2 or 3 */
    char *model;
    char *wrapped; /* "" if none */
    char **param_names;
    char **param_values; /* the text of each value (see param= above) */
    int nparams;
    char **tunable;
    int ntunable;
    fl_fmu_io *inputs, *outputs;
    int ninputs, noutputs;
    char *token;
} fl_fmu_cfg;

/* Parse the text of flange.cfg (errors name "flange.cfg:LINE"). 0 or -1. */
int fl_fmu_cfg_parse(const char *text, fl_fmu_cfg *cfg, fl_diag *d);
/* The text of flange.cfg (malloc'd). */
char *fl_fmu_cfg_format(const fl_fmu_cfg *cfg);
void fl_fmu_cfg_free(fl_fmu_cfg *cfg);

typedef enum fl_fmu_type { FL_FMU_REAL, FL_FMU_INTEGER, FL_FMU_BOOLEAN } fl_fmu_type;

typedef enum fl_fmu_kind {
    FL_FMU_INPUT,     /* causality input; value = parameter `carrier` (fl_sim_set_param) */
    FL_FMU_OUTPUT,    /* causality output; value = system variable `index` */
    FL_FMU_PARAM,     /* causality parameter; value = fl_sim_param(pname), or for a
                         parameter of the model itself (index -1, never tunable)
                         the value it was compiled with (start) */
    FL_FMU_VAR,       /* causality local; value = system variable `index` */
    FL_FMU_STATE,     /* local continuous state `index` (fl_me_get_states order) */
    FL_FMU_DERIV,     /* der() of state `index` */
    FL_FMU_INDICATOR  /* event indicator `index` (FMI 3 lists them; FMI 2 does not) */
} fl_fmu_kind;

typedef struct fl_fmu_var {
    char *name;   /* FMU name: the model's name with the wrapper's prefix removed;
                     states "_x.<unknown>", derivatives "der(_x.<unknown>)",
                     indicators "_z[k]" (k from 1) */
    char *unit;   /* "" if none */
    char *desc;   /* "" if none */
    fl_fmu_kind kind;
    fl_fmu_type type;
    int index;    /* see fl_fmu_kind; PARAM: slot in sys->par, -1 for the model's own */
    char *pname;  /* INPUT/PARAM: the name fl_sim_param / fl_sim_set_param and
                     the loader's overrides take (with the wrapper's prefix) */
    const char *enum_type; /* PARAM of an enumeration (an FMU Integer: the
                     literal's index from 1): the type's full path; else NULL */
    int tunable;  /* PARAM: changeable during a run */
    double start; /* INPUT/PARAM: the exported value */
    int state;    /* DERIV: table index of its state; else -1 */
} fl_fmu_var;

/* The variable table, in value-reference order: FMI 2 value reference =
 * table index; FMI 3 value reference = table index + 1 (0 is time). Order:
 * inputs, outputs, parameters, other model variables, states, derivatives,
 * indicators. */
typedef struct fl_fmu_vars {
    fl_fmu_var *v;
    int n;
    int nstates, nindicators;
    int first_state, first_deriv, first_indicator; /* table indices */
} fl_fmu_vars;

/* Build the table from a compiled system and a sim of it (parameter values
 * are read from the sim) and the configuration (wrapper, inputs, outputs,
 * tunable names). Deterministic: the exporter and every instance get the
 * same table. 0 or -1. */
int fl_fmu_vars_build(const fl_system *sys, fl_sim *sim, const fl_fmu_cfg *cfg, fl_fmu_vars *out, fl_diag *d);
void fl_fmu_vars_free(fl_fmu_vars *t);

/* The instantiation token of an FMU: a hash of the flange version, the model
 * text, the configuration without its token line, and the table's names,
 * written as a GUID "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}" (39 bytes with
 * the NUL). */
void fl_fmu_token(const char *model_text, const fl_fmu_cfg *cfg, const fl_fmu_vars *t, char out[40]);

#endif
