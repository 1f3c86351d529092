/* inst.h - an instance of flange's FMU runtime (flange_fmu.so), shared by
 * the FMI 2.0 (fmi2.c) and FMI 3.0 (fmi3.c) entry points: the model loaded
 * from the FMU's resources and compiled, its simulation, the variable table
 * (fmu.h), the state machine of the standard, the experiment, the FMU
 * states, and the messages for the importer's logger.
 *
 * Every entry point runs its body under a recovery point of the library
 * (FMU_API) with the "C" numeric locale of the instance in force on the
 * calling thread: out of memory and internal errors become an error status
 * with a logged message and leave the instance in the error state (only
 * freeing it is then allowed). Instances share nothing: many of them may run
 * on many threads, one thread per instance at a time (as the standard says).
 * Internal to the runtime. */
#ifndef FL_FMI_INST_H
#define FL_FMI_INST_H

#include <locale.h>
#include <setjmp.h>
#include <stddef.h>

#include "fmi/fmu.h"
#include "flange.h"
#include "util/guard.h"

/* FMI status values (the same numbers in 2.0 and 3.0) */
enum { FMU_OK = 0, FMU_WARNING = 1, FMU_DISCARD = 2, FMU_ERROR = 3, FMU_FATAL = 4 };

/* the states of the standard's state machine (FMI 2.0 and 3.0 share them;
 * FMU_STEP is Co-Simulation's, FMU_EVENT and FMU_CONT Model Exchange's) */
enum { FMU_INSTANTIATED, FMU_INIT, FMU_STEP, FMU_EVENT, FMU_CONT, FMU_TERMINATED, FMU_FAILED };

/* log categories (bits) */
enum { FMU_LOG_EVENTS = 1, FMU_LOG_WARNING = 2, FMU_LOG_ERROR = 4 };

typedef struct fmu_inst fmu_inst;
/* sends one finished message to the importer (the status is FMU_*) */
typedef void (*fmu_log_fn)(fmu_inst *in, int status, const char *category, const char *message);

struct fmu_inst {
    unsigned magic;   /* FMU_MAGIC while alive: a freed or foreign pointer is refused */
    int fmi;          /* 2 or 3 */
    int cs;           /* 1 Co-Simulation, 0 Model Exchange */
    char *name;       /* instance name */
    void *env;        /* the importer's environment pointer */
    void *logger;     /* its logger (fmi2CallbackLogger / fmi3LogMessageCallback), may be NULL */
    fmu_log_fn log;   /* fmi2.c / fmi3.c: calls logger */
    int log_mask;     /* FMU_LOG_* enabled */
    locale_t cloc;    /* the "C" locale the library runs in */
    fl_diag *diag;    /* messages of the current call */

    char *resdir;     /* the resources directory, with a trailing '/' */
    char *model_path; /* resdir + "model.mo" */
    char *model_text; /* its text (the token covers it) */
    fl_fmu_cfg cfg;
    fl_model *model;
    fl_system *sys;
    fl_sim *sim;
    fl_fmu_vars vars;
    double *xbuf;     /* scratch: states, derivatives, indicators */
    void **states;    /* the FMU states this instance handed out and not yet freed */
    int inputs_jumped; /* ME: an input or tunable parameter changed in event mode */
    int nstates;
    size_t xcap;

    /* fixed parameters set before initialisation: "name=value" overrides
     * for the next compilation (name[i] is the FMU name's parameter) */
    char **over_name, **over_text;
    int nover;
    int reload;       /* the overrides changed since the last compilation */
    unsigned char *touched; /* per table entry: an input or tunable parameter the
                               importer set (kept when the model is compiled
                               again); NULL: none yet */
    int compiled_over;/* the system was compiled with overrides */

    int phase;        /* FMU_INSTANTIATED... */
    int begun;        /* a run is begun (fl_step_begin / fl_me_begin) */
    int rebegin;      /* inputs/parameters changed in initialisation mode after begin */
    int values_dirty; /* fl_step_values is due before reading variables */
    int inputs_dirty; /* CS: a discontinuity before the next step; ME: an event to process */
    int terminated;   /* terminate() ended the run */
    double last_time; /* CS: where the last step ended */

    int tol_defined, stop_defined;
    double tol, start, stop;
    int event_mode_used; /* FMI 3 CS: the importer asked for event mode (unsupported: ignored) */
};

#define FMU_MAGIC 0x464c4d55u /* "FLMU" */

/* ---- the entry points' frame ----------------------------------------------- */

/* The instance c points at, or NULL (not one of ours, or freed). */
fmu_inst *fmu_check(void *c);
/* After a failure caught by the recovery point: the message to the log,
 * the instance in the failed state. */
void fmu_failed(fmu_inst *in, const fl_guard *g);
/* Pass the messages collected during the call to the importer's logger. */
void fmu_flush(fmu_inst *in);
/* An error / a warning for the log (printf format). FMU_ERROR / FMU_WARNING. */
int fmu_error(fmu_inst *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fmu_warning(fmu_inst *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A note under the category logEvents (sent when debug logging is on). */
void fmu_note(fmu_inst *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Refuse a call in the wrong state: FMU_OK when the phase is one of the
 * bits in allowed (1 << FMU_*), else an error naming the function. */
int fmu_allowed(fmu_inst *in, const char *fn, unsigned allowed);
#define FMU_IN(p) (1u << (p))

/* Define the exported FMI function NAME (result T) as the block that
 * follows: the instance expression C is checked first (FAIL if it is not an
 * instance), then the body runs under the instance's locale and a recovery
 * point; its messages go to the logger when it returns. */
#define FMU_API(T, NAME, PARAMS, ARGS, C, FAIL)                                                                \
    static T NAME##_body PARAMS;                                                                              \
    __attribute__((visibility("default"))) T NAME PARAMS                                                       \
    {                                                                                                          \
        fmu_inst *in_ = fmu_check(C);                                                                          \
        if (!in_) return FAIL;                                                                                 \
        locale_t old_ = uselocale(in_->cloc);                                                                  \
        fl_guard g_;                                                                                           \
        fl_guard_push(&g_);                                                                                    \
        if (setjmp(g_.jb)) {                                                                                   \
            fmu_failed(in_, &g_);                                                                              \
            uselocale(old_);                                                                                   \
            return FAIL;                                                                                       \
        }                                                                                                      \
        T r_ = NAME##_body ARGS;                                                                               \
        fl_guard_pop(&g_);                                                                                     \
        fmu_flush(in_);                                                                                        \
        uselocale(old_);                                                                                       \
        return r_;                                                                                             \
    }                                                                                                          \
    static T NAME##_body PARAMS

/* ---- instances ------------------------------------------------------------ */

/* A new instance: reads the resources (resloc: a file: URI, a path, or
 * NULL for the directory beside the shared object), loads and compiles the
 * model, builds the variable table and checks the token against the one
 * given. The caller fills env/logger/log first in *proto (the rest is
 * ignored). NULL after logging why. Runs its own recovery point. */
fmu_inst *fmu_new(const fmu_inst *proto, const char *token, const char *resloc, int logging_on);
void fmu_free(fmu_inst *in);
/* SetDebugLogging: categories NULL/ncat 0 means all. */
int fmu_set_logging(fmu_inst *in, int on, size_t ncat, const char *const *cats);

/* ---- the state machine ---------------------------------------------------- */

int fmu_setup(fmu_inst *in, int tol_defined, double tol, double start, int stop_defined, double stop);
int fmu_enter_init(fmu_inst *in);
int fmu_exit_init(fmu_inst *in);
int fmu_terminate(fmu_inst *in);
int fmu_reset(fmu_inst *in);

/* ---- variables: index = table index (fmu.h); vr translation is the caller's */

int fmu_get_real(fmu_inst *in, const unsigned *idx, size_t n, double *out, unsigned base);
int fmu_get_int(fmu_inst *in, const unsigned *idx, size_t n, int *out, unsigned base);
/* Booleans as 0/1 */
int fmu_get_bool(fmu_inst *in, const unsigned *idx, size_t n, int *out, unsigned base);
int fmu_set_real(fmu_inst *in, const unsigned *idx, size_t n, const double *v, unsigned base);
int fmu_set_int(fmu_inst *in, const unsigned *idx, size_t n, const int *v, unsigned base);
int fmu_set_bool(fmu_inst *in, const unsigned *idx, size_t n, const int *v, unsigned base);
/* The current time of the run (the start time before it begins). */
double fmu_time(const fmu_inst *in);

/* ---- Co-Simulation ---------------------------------------------------------- */

/* FMU_OK, FMU_DISCARD (terminate() inside the step: in->terminated and
 * in->last_time say where) or FMU_ERROR. */
int fmu_do_step(fmu_inst *in, double t, double h);

/* ---- Model Exchange --------------------------------------------------------- */

int fmu_nstates(const fmu_inst *in);
int fmu_nindicators(const fmu_inst *in);
int fmu_set_time(fmu_inst *in, double t);
int fmu_set_states(fmu_inst *in, const double *x, size_t nx);
int fmu_get_states(fmu_inst *in, double *x, size_t nx);
int fmu_get_nominals(fmu_inst *in, double *x, size_t nx);
int fmu_get_derivatives(fmu_inst *in, double *dx, size_t nx);
int fmu_get_indicators(fmu_inst *in, double *z, size_t nz);
int fmu_completed_step(fmu_inst *in, int *enter_event, int *terminate);
int fmu_enter_event(fmu_inst *in);
int fmu_update_discrete(fmu_inst *in, int *states_changed, int *terminate, int *next_defined, double *next);
int fmu_enter_cont(fmu_inst *in);

/* ---- FMU states ------------------------------------------------------------- */

/* *state: NULL for a new one, or one to overwrite */
int fmu_state_get(fmu_inst *in, void **state);
int fmu_state_set(fmu_inst *in, const void *state);
int fmu_state_free(fmu_inst *in, void **state);
int fmu_state_size(fmu_inst *in, const void *state, size_t *size);
int fmu_state_serialize(fmu_inst *in, const void *state, void *bytes, size_t size);
int fmu_state_deserialize(fmu_inst *in, const void *bytes, size_t size, void **state);

#endif
