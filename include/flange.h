/*
 * flange.h - the public interface of libflange.
 *
 * flange simulates 1-D translational and rotational mechanical networks
 * (masses and inertias, springs, dampers, gears, hard stops, friction,
 * clutches, sources, sensors) written in a subset of Modelica, or built
 * component by component through this API, using the SUNDIALS IDA
 * integrator.
 *
 * The life of a simulation has three objects, each owned by the caller:
 *
 *   fl_model   a model description: component instances, parameters,
 *              start values and connections. Loaded from Modelica text
 *              (fl_model_load_file / fl_model_load_string) or built with
 *              fl_model_new + fl_model_add + fl_model_set + fl_model_connect.
 *   fl_system  the compiled, read-only system made from a model: rigid
 *              bodies, unknowns, equations, Jacobian pattern, events and the
 *              table of output variables. One system can be shared by many
 *              simulations (also from several threads).
 *   fl_sim     the mutable simulation state of one run: integrator memory,
 *              current values, statistics.
 *
 * Every function that can fail takes an fl_diag list and records errors and
 * warnings there ("file:line:column: error: ..."); the return value says
 * whether it failed (NULL or a non-zero int). A NULL fl_diag is allowed and
 * discards the messages.
 *
 * Minimal use:
 *
 *   fl_diag *d = fl_diag_new();
 *   fl_model *m = fl_model_load_file("Oscillator.mo", NULL, d);
 *   fl_system *sys = m ? fl_compile(m, d) : NULL;
 *   fl_sim *sim = sys ? fl_sim_new(sys, d) : NULL;
 *   fl_sim_opts o = fl_sim_default_opts(sys);
 *   if (sim) fl_sim_run_csv(sim, &o, "out.csv", NULL, 0, d);
 *   for (int i = 0; i < fl_diag_count(d); i++) puts(fl_diag_text(d, i));
 *   fl_sim_free(sim); fl_system_free(sys); fl_model_free(m); fl_diag_free(d);
 */
#ifndef FLANGE_H
#define FLANGE_H

/* FLANGE_API marks what libflange exports. The library is compiled with
 * hidden visibility and FLANGE_BUILDING defined, so that only the functions
 * declared here are visible in libflange.so; for programs using the library
 * the macro is empty. A host that needs another attribute (a DLL import,
 * say) may define FLANGE_API before including this header. This stays the
 * first definition in the file (tests/cli/exports.sh fails otherwise). */
#ifndef FLANGE_API
#if defined(FLANGE_BUILDING) && (defined(__GNUC__) || defined(__clang__))
#define FLANGE_API __attribute__((visibility("default")))
#else
#define FLANGE_API
#endif
#endif

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header; fl_version() and fl_version_number() give
 * the library's, which differ when a program runs against another build.
 * The number is major * 10000 + minor * 100 + patch. */
#define FLANGE_VERSION "0.1.0"
#define FLANGE_VERSION_NUMBER 100

FLANGE_API const char *fl_version(void);
FLANGE_API int fl_version_number(void);

/* ------------------------------------------------------------------------
 * Out of memory
 * ------------------------------------------------------------------------ */

/* flange never ends the process. When an allocation fails, it calls the
 * handler set here (if any) with the size of the request, then fails the
 * call in progress: that call reports "out of memory" to its fl_diag and
 * returns its failure value (NULL, -1, or as documented). The objects
 * passed to it can still be used and freed, though a change the call was
 * making to one of them (a component being added to a model) may be partly
 * done; what the call was building is freed, a temporary file it was
 * writing removed; some of its work memory may be lost.
 * Functions without an fl_diag have only their failure value: NULL from
 * fl_diag_new, fl_model_new and fl_system_var_name, -1 from
 * fl_system_var_index, 0 from fl_system_motion_vars, NaN from fl_sim_param;
 * fl_system_describe and fl_components_print end their text with a line
 * "error: out of memory".
 *
 * An internal error (a bug in flange) fails the call the same way, with
 * "internal error: ...".
 *
 * The handler may log, or release memory the host holds; it must return
 * and must not call flange. It is process-wide, shared by every thread:
 * set it before flange runs on several threads. NULL removes it.
 * fl_oom_handler returns the current handler (and its user pointer).
 * (flange unwinds its own frames with longjmp; the callbacks you give it
 * must return normally, not longjmp or throw through flange.) */
typedef void (*fl_oom_fn)(void *user, size_t bytes);
FLANGE_API void fl_set_oom_handler(fl_oom_fn fn, void *user);
FLANGE_API fl_oom_fn fl_oom_handler(void **user);

/* ------------------------------------------------------------------------
 * Diagnostics
 * ------------------------------------------------------------------------ */

/* Severities of diagnostics. */
enum { FL_SEV_NOTE = 0, FL_SEV_WARNING = 1, FL_SEV_ERROR = 2 };

/* A list of diagnostics. */
typedef struct fl_diag fl_diag;

FLANGE_API fl_diag *fl_diag_new(void);
FLANGE_API void fl_diag_free(fl_diag *d);
/* Forget all collected messages. */
FLANGE_API void fl_diag_clear(fl_diag *d);
/* Number of messages, and how many of them are errors. */
FLANGE_API int fl_diag_count(const fl_diag *d);
FLANGE_API int fl_diag_errors(const fl_diag *d);
/* Severity (FL_SEV_*) and formatted text of message i, 0 <= i < count. */
FLANGE_API int fl_diag_severity(const fl_diag *d, int i);
FLANGE_API const char *fl_diag_text(const fl_diag *d, int i);

/* ------------------------------------------------------------------------
 * Model descriptions
 * ------------------------------------------------------------------------ */

typedef struct fl_model fl_model;

/* Options for loading Modelica text. All fields may be zero. */
typedef struct fl_load_opts {
    /* Which model to load when the text holds several (a package): its
     * name, or its dotted path inside the file's packages. NULL picks the
     * only model; it is an error if there are several. */
    const char *model_name;
    /* Parameter overrides "name=value", applied while the model is
     * instantiated, so that bindings depending on them see the new value.
     * name is a model parameter ("k") or a component parameter ("mass.m");
     * value is a Modelica expression ("2.5", "true", "{1,2}"). */
    const char *const *params;
    int nparams;
    /* Libraries: where classes the model text does not define are looked
     * up, in this order. Each entry is a package stored as a directory
     * (it holds package.mo), a package in one file (P.mo), or a directory
     * of such packages. Read lazily: a file is parsed when a class in it is
     * first used. */
    const char *const *libs;
    int nlibs;
    /* Directories of packages separated by ':', searched after libs. NULL
     * reads the environment variable MODELICAPATH; "" searches nothing.
     * The top-level names Modelica and Flange always are flange's own
     * classes, whatever the libraries hold. */
    const char *modelicapath;
} fl_load_opts;

/* Load a model from a Modelica file / from text. source_name is used in
 * messages. Returns NULL on error. opts->model_name may also name a model
 * of the libraries by its full path ("Lib.Examples.Demo"). */
FLANGE_API fl_model *fl_model_load_file(const char *path, const fl_load_opts *opts, fl_diag *d);
FLANGE_API fl_model *fl_model_load_string(const char *text, const char *source_name,
                                          const fl_load_opts *opts, fl_diag *d);
/* Load the model with the full Modelica name `name` ("Lib.Examples.Demo")
 * from the libraries of opts (opts->libs, then the MODELICAPATH);
 * opts->model_name is ignored. Returns NULL on error. */
FLANGE_API fl_model *fl_model_load_class(const char *name, const fl_load_opts *opts, fl_diag *d);

/* An empty model to be built through the API. */
FLANGE_API fl_model *fl_model_new(const char *name);
FLANGE_API void fl_model_free(fl_model *m);
FLANGE_API const char *fl_model_name(const fl_model *m);

/* Add a component instance. type is a full Modelica path
 * ("Modelica.Mechanics.Translational.Components.Mass") or a short name that
 * is unique among flange's components ("Mass", "HardStop", "Inertia"); a
 * short name that a translational and a rotational class share ("Spring",
 * "Damper", "Fixed") means the translational one. Returns 0 on success. */
FLANGE_API int fl_model_add(fl_model *m, const char *type, const char *name, fl_diag *d);

/* Set a parameter ("mass.m") or a variable attribute ("mass.s.start",
 * "mass.s.fixed" with 0/1, "spring.s_rel.start") to a number. */
FLANGE_API int fl_model_set(fl_model *m, const char *name, double value, fl_diag *d);

/* Set a parameter from Modelica expression text: "true",
 * "Modelica.Blocks.Types.Regularization.Linear", "[0, 1; 1, 2]", "2*pi". */
FLANGE_API int fl_model_set_expr(fl_model *m, const char *name, const char *expr, fl_diag *d);

/* Set a matrix (rows x cols, row-major) or vector (rows = 1) parameter. */
FLANGE_API int fl_model_set_array(fl_model *m, const char *name, int rows, int cols,
                                  const double *data, fl_diag *d);

/* Connect two flanges ("mass.flange_b", "spring.flange_a") or a signal
 * output to a signal input ("sine.y", "force.f"). */
FLANGE_API int fl_model_connect(fl_model *m, const char *a, const char *b, fl_diag *d);

/* Experiment settings (from the experiment annotation of loaded models). */
typedef struct fl_experiment {
    double start_time;
    double stop_time;
    double interval;  /* output grid spacing */
    double tolerance; /* relative tolerance */
} fl_experiment;
FLANGE_API fl_experiment fl_model_experiment(const fl_model *m);
FLANGE_API void fl_model_set_experiment(fl_model *m, fl_experiment e);

/* ------------------------------------------------------------------------
 * Compiled systems
 * ------------------------------------------------------------------------ */

typedef struct fl_system fl_system;

/* Compile a model: evaluate and check parameters, build connection sets and
 * rigid bodies, lay out the DAE, check its structure and the initial
 * conditions. Returns NULL on error. The model may be freed afterwards. */
FLANGE_API fl_system *fl_compile(const fl_model *m, fl_diag *d);
/* fl_compile followed by fl_model_free(m), for a model not needed after
 * compiling: each part of the model is freed as soon as compiling has
 * read it (names and parameter settings early, the rest once the
 * structure is built), so that a big model and its compiled system are
 * not held in full at the same time. m is freed in every case, also when
 * compiling fails. */
FLANGE_API fl_system *fl_compile_and_free(fl_model *m, fl_diag *d);
FLANGE_API void fl_system_free(fl_system *sys);

/* Initial conditions that leave states undetermined: by default fl_compile
 * completes them, as Modelica tools do, with the start values of variables
 * that are not fixed (those the model gives a start value first, then by
 * the components' stateSelect), recording a warning "initial conditions are
 * under-determined: using the start value of mass.s (= 0)" per variable
 * (after 20, one warning counts the rest). strict = 1 makes them an error
 * naming what is undetermined instead. Applies to later fl_compile calls. */
FLANGE_API void fl_model_set_strict_init(fl_model *m, int strict);

/* The output variables: "time" is not among them. Index i in
 * 0..fl_system_nvars-1; names are Modelica instance paths ("mass.s",
 * "spring.f", "mass.flange_a.f"). */
FLANGE_API int fl_system_nvars(const fl_system *sys);
FLANGE_API const char *fl_system_var_name(const fl_system *sys, int i);
FLANGE_API const char *fl_system_var_unit(const fl_system *sys, int i); /* "" if none */
/* The positions and then the velocities of the components that carry mass
 * ("mass.s", ..., "mass.v", ...), at most max, for a default plot; returns
 * their number. The names live as long as sys. */
FLANGE_API int fl_system_motion_vars(const fl_system *sys, const char **names, int max);
FLANGE_API int fl_system_var_index(const fl_system *sys, const char *name); /* -1 if absent */
/* 1 for variables that are written only when asked for: the energy audit
 * energy.kinetic, .potential, .dissipated, .work, .drift (J), computed
 * when fl_sim_opts.energy is set (0 otherwise). */
FLANGE_API int fl_system_var_on_request(const fl_system *sys, int i);

/* Print the flattened structure (components, connection sets, bodies,
 * states, initial conditions, events, linear solver) as text. */
FLANGE_API void fl_system_describe(const fl_system *sys, FILE *out);

/* Print every component class flange knows, with ports and parameters. */
FLANGE_API void fl_components_print(FILE *out);

/* ------------------------------------------------------------------------
 * Simulation
 * ------------------------------------------------------------------------ */

typedef struct fl_sim fl_sim;

/* Linear solver used inside IDA's Newton iteration. */
enum { FL_SOLVER_AUTO = 0, FL_SOLVER_DENSE = 1, FL_SOLVER_KLU = 2 };

struct fl_stats; /* counters of a run, below */

enum { FL_CONTACTS_AUTO = 0, FL_CONTACTS_EVENTS = 1, FL_CONTACTS_STEP = 2 };
#define FL_CONTACTS_AUTO_MAX 20

typedef struct fl_sim_opts {
    double start_time, stop_time, interval, tolerance;
    int solver;   /* FL_SOLVER_*; AUTO picks dense for small, KLU for large systems */
    int quiet;    /* reserved for progress reporting */
    /* How compliant contacts (ElastoGap, SymmetricHardStop, HardStop with
     * stiffness) switch their force law: FL_CONTACTS_EVENTS locates every
     * onset and release as an event (exact, restarts the integrator);
     * FL_CONTACTS_STEP switches where the relation says and leaves it to
     * step-size control (faster with many contacts); FL_CONTACTS_AUTO
     * (default) locates them unless the model has more than
     * FL_CONTACTS_AUTO_MAX such contacts, all of moderate stiffness
     * (<= 1e8 N/m). Restitution contacts and friction always use events. */
    int contacts;
    /* 1: keep the energy audit (kinetic, potential, dissipated energy, work
     * of sources) and fill the energy.* output variables. */
    int energy;
    /* Optional: called after every integration step with the model time
     * reached and the counters so far (for a progress display). A non-zero
     * return stops the run, which then fails with that code. */
    int (*progress)(void *user, double t, const struct fl_stats *st);
    void *progress_user;
    /* Optional: the output variables the run must compute (indices, see
     * fl_system_var_index); NULL: all. Outputs of a large model cost as
     * much as its residual: select what you use. The values of the others
     * in the output callback are NaN. */
    const int *outputs;
    int noutputs;
    /* With outputs: 1 = the output callback receives the selected outputs
     * only, vals[k] being the value of outputs[k] and nvals = noutputs, and
     * the run keeps no value per variable of the model (8 bytes each: 22 MB
     * for a model of 2.8 million variables). fl_sim_value still takes a
     * variable's index (NaN for one not selected). 0 (default): vals[i] is
     * the value of variable i. */
    int selected_only;
    /* The most output points a run may produce: a run whose output grid
     * ((stop_time - start_time) / interval + 1 points) is larger is refused
     * before it starts, and fl_sim_run_csv stops a run that writes more rows
     * (each event adds up to two). 0: FL_MAX_OUTPUTS_DEFAULT. */
    long max_outputs;
    /* 1: integrate the whole model with one integrator. By default (0) a
     * model whose bodies fall into independent groups (nothing couples
     * them: a shared Fixed ground, a motion source driven by time alone
     * and a source block read by both do not) runs one integrator per
     * group, each with its own step size and events, so that an event
     * costs what its group costs (fl_system_describe names the groups).
     * Runs taken in steps (FMUs) always use one integrator. */
    int one_integrator;
} fl_sim_opts;

/* What fl_sim_run accepts (anything else is refused with a message before
 * the run starts): finite start and stop times with stop > start, a
 * positive finite interval, and a relative tolerance in
 * [FL_TOLERANCE_MIN, FL_TOLERANCE_MAX]. Tighter than 1e-14 IDA gives up
 * near the rounding unit (every example fails at 1e-17); looser than 1e-2
 * the steps no longer resolve the motion (energy balance off by 2-80 % at
 * 0.1, and stick-slip runs that do not finish). */
#define FL_TOLERANCE_MIN 1e-14
#define FL_TOLERANCE_MAX 1e-2
#define FL_MAX_OUTPUTS_DEFAULT 100000000L

/* Options from the model's experiment annotation (StartTime 0, StopTime 1,
 * Interval (stop-start)/500 and Tolerance 1e-6 where absent). */
FLANGE_API fl_sim_opts fl_sim_default_opts(const fl_system *sys);

/* Called at every output point: on the Interval grid and on both sides of
 * every event. vals[i] is the value of output variable i. Return non-zero to
 * stop the run (fl_sim_run then fails with that code). */
typedef int (*fl_output_fn)(void *user, double t, const double *vals, int nvals);

FLANGE_API fl_sim *fl_sim_new(const fl_system *sys, fl_diag *d);
FLANGE_API void fl_sim_free(fl_sim *sim);

/* Initialise and integrate from start_time to stop_time. fn may be NULL.
 * The options are checked first (see FL_TOLERANCE_MIN). Returns 0 on
 * success. */
FLANGE_API int fl_sim_run(fl_sim *sim, const fl_sim_opts *o, fl_output_fn fn, void *user, fl_diag *d);

/* As fl_sim_run, writing a CSV file: header "time" then the selected
 * variables, one row per output point, and beside it PATH.units (a
 * "variable,unit" line per column, for plots). globs selects variables by
 * name ("mass*.s"); NULL or nglobs = 0 writes all. Where it writes:
 *  - a path that does not exist or names a regular file: to a temporary
 *    file beside it (PATH.tmpXXXXXX), renamed over it on success only, so
 *    a failed run leaves the previous file (or none) untouched; a replaced
 *    file keeps its permissions;
 *  - a symbolic link is followed and the file it leads to is replaced the
 *    same way: the link stays a link;
 *  - anything else (a character device such as /dev/null, a FIFO, a
 *    terminal, /dev/stdout on a pipe) and a file open as this process's
 *    standard output or error: written in place, with no PATH.units and
 *    no protection against a failed run;
 *  - a directory: an error.
 * The name is not checked: the file is CSV whatever it is called. */
FLANGE_API int fl_sim_run_csv(fl_sim *sim, const fl_sim_opts *o, const char *path,
                              const char *const *globs, int nglobs, fl_diag *d);

/* As fl_sim_run_csv, writing a MAT result file in the layout Dymola and
 * OpenModelica write (MAT v4, as they do; readable by DyMat, OMEdit,
 * Dymola, MATLAB/Octave and scipy.io.loadmat), through libmatio:
 *   Aclass       4 rows of text: "Atrajectory", "1.1", "", "binTrans";
 *   name         the names, one per column (binTrans: every matrix is
 *                stored transposed), padded with blanks; "time" first;
 *   description  one per column: "description [unit]" (the component's
 *                text, the unit in brackets; either may be missing);
 *   dataInfo     int32, one column per name: (block, row, 0, -1): block 0
 *                for time, 2 for a variable in row `row` of data_2, 1 for
 *                a parameter in row `row` of data_1 (a negative row would
 *                be a negated alias: flange writes none);
 *   data_1       one row per parameter (the first row is time), two
 *                columns: the value at the first and at the last output
 *                time. Every Real, Integer, Boolean and enumeration
 *                parameter of every component is there (array and String
 *                parameters are not);
 *   data_2       time in the first row, then one row per selected variable,
 *                one column per output point (an event repeats its time).
 * The values are the run's doubles (not the CSV's 12 significant digits).
 * The rows are kept in memory until the run ends (8 bytes per value). The
 * file goes where fl_sim_run_csv's would, by the same rules, with no
 * PATH.units (the units are in the descriptions): a regular file is
 * replaced only when the run succeeded, a device is written in place
 * (copied from a temporary file in TMPDIR when complete). flange silences
 * libmatio's own messages (Mat_LogInitFunc) and reports failures itself.
 * The name is not checked: the file is a MAT file whatever it is called. */
FLANGE_API int fl_sim_run_mat(fl_sim *sim, const fl_sim_opts *o, const char *path,
                              const char *const *globs, int nglobs, fl_diag *d);

/* As fl_sim_run_csv, writing the CSV to an open stream (flushed, not
 * closed), with no units file. A write error stops the run with a message. */
FLANGE_API int fl_sim_run_csv_stream(fl_sim *sim, const fl_sim_opts *o, FILE *out,
                                     const char *const *globs, int nglobs, fl_diag *d);

/* The size of the CSV fl_sim_run_csv would write with these options and
 * globs, for a warning before a big run: *rows the points of the output grid
 * (each event adds up to two more), *cols the columns (time and the selected
 * variables), *bytes an upper bound of the file size (25 bytes for a time
 * and 20 for a value with its separator; the examples' files are 30-50 %
 * smaller).
 * Any pointer may be NULL. Returns 0, or -1 with a message for options
 * fl_sim_run would refuse or a glob that matches nothing. */
FLANGE_API int fl_sim_csv_size(const fl_sim *sim, const fl_sim_opts *o, const char *const *globs, int nglobs,
                               double *rows, int *cols, double *bytes, fl_diag *d);

/* Removes the temporary files of the writes in progress in this process
 * (fl_sim_run_csv and fl_plot_csv write to a temporary file and rename it
 * when complete); returns how many it removed. It is async-signal-safe:
 * the library installs no signal handlers, so a program that ends on
 * SIGINT or SIGTERM calls it from its own handler before the process ends
 * (as the flange tool does), and no PATH.tmpXXXXXX is left behind. The
 * interrupted writes themselves fail if the process goes on. At most 16
 * writes in progress at once are covered. Pictures drawn through the
 * shared libflange-plot.so are listed inside that library and not covered
 * (with the static libflange-plot.a, as in the flange tool, they are). */
FLANGE_API int fl_remove_temp_files(void);

/* Value of output variable i at the last output point. */
FLANGE_API double fl_sim_value(const fl_sim *sim, int i);

/* Counters of the last run. */
typedef struct fl_stats {
    long steps, res_evals, jac_evals, lin_setups, err_test_fails, nonlin_conv_fails;
    long time_events, state_events, outputs;
    const char *linear_solver; /* "dense" or "klu" */
    /* energy audit (opts.energy), J, at the end of the run: e_dissipated is
     * the integrated loss power of the elements, e_impacts the energy lost in
     * impacts (0.5 (1 - e^2) mu v_rel^2 each), e_work the work of the
     * sources including e_impulse_work, the work motion sources do through
     * the impulses of impacts against the bodies they drive */
    double e_kinetic, e_potential, e_dissipated, e_impacts, e_work, e_impulse_work;
    double e_drift_max;   /* largest |balance - initial balance| at output points and the end */
    double e_throughput;  /* initial mechanical energy + |work| of the sources, at least the
                             largest energy quantity of the balance */
    /* 1: the balance closes (drift within 1e-2 of the throughput and no
     * negative dissipation); 0: it does not (or the audit stopped early);
     * -1: no verdict (the audit was off, or the run failed before its end) */
    int e_closed;
} fl_stats;
FLANGE_API fl_stats fl_sim_stats(const fl_sim *sim);

/* ------------------------------------------------------------------------
 * Parameter studies
 * ------------------------------------------------------------------------ */

/* Change a Real parameter ("stop.stiff_up", or "d", a parameter of the
 * model itself that its equations read) for the following runs of this
 * simulation only: the compiled system is untouched, so simulations of one
 * system can differ in parameters. The value is range-checked as at compile
 * time and the component's derived quantities are recomputed. Refused, with
 * a message, are parameters the structure was built from (masses and
 * lengths of bodies, fixed positions, initial conditions, connector
 * conditions), Integer/Boolean/enumeration parameters, and values that
 * would switch a component's contact model: change those in the model and
 * compile again. Modifiers written in the model as expressions of the
 * changed parameter keep their compiled values. Returns 0 on success. */
FLANGE_API int fl_sim_set_param(fl_sim *sim, const char *name, double value, fl_diag *d);
/* Current value of a parameter of this simulation (NaN if unknown). */
FLANGE_API double fl_sim_param(const fl_sim *sim, const char *name);

/* Called on a worker thread before run k: set the run's parameters with
 * fl_sim_set_param (messages to run_diag); non-zero marks the run failed
 * and skips it. */
typedef int (*fl_ensemble_setup_fn)(fl_sim *sim, int run, fl_diag *run_diag, void *user);
/* Called on the same thread after run k: status 0 on success; read results
 * with fl_sim_value and fl_sim_stats; run_diag holds the run's messages. */
typedef void (*fl_ensemble_done_fn)(fl_sim *sim, int run, int status, const fl_diag *run_diag, void *user);

/* Run nruns simulations of one compiled system with options o on nthreads
 * threads (0: one per online core). Each thread owns one fl_sim and reuses
 * it; the system is shared read-only. Runs are handed out one at a time, and
 * each starts from the compiled parameters before setup is called. The
 * callbacks run concurrently on different threads: they must touch only
 * their sim and per-run data. A failed run does not stop the others.
 * Returns the number of failed runs, or -1 (reported to d) if nothing could
 * start. */
FLANGE_API int fl_ensemble_run(const fl_system *sys, const fl_sim_opts *o, int nruns, int nthreads,
                               fl_ensemble_setup_fn setup, fl_ensemble_done_fn done, void *user, fl_diag *d);

/* ------------------------------------------------------------------------
 * Studies: many runs of one model with parameters from a grid, random or
 * Latin hypercube samples or a table (what `flange sweep` does)
 *
 * A study is defined (fl_sweep_param, _samples, _runs_file, _collect,
 * _save, _set_times), prepared (fl_sweep_prepare: the runs are expanded
 * and each parameter is classified), run (fl_sweep_run, on threads; any
 * subset, any number of times: a run with a result is not run again) and
 * written (fl_sweep_write). Its result is a table with one row per run:
 * "run" (0, 1, ...), one column per parameter, "status" ("ok" or "failed"),
 * "message" (why a run failed), one column per collected quantity named as
 * written. A failed run is recorded and never stops the study.
 *
 * Parameters a run can change in the compiled system (fl_sim_set_param
 * accepts them and no other parameter's binding depends on them) are set at
 * run time; the others ("structural": masses, Integer parameters, the
 * model's own parameters, parameters that other bindings use) are applied
 * as load overrides, compiling the model once per distinct combination of
 * their values (a group); runs are executed group by group.
 * ------------------------------------------------------------------------ */

typedef struct fl_sweep fl_sweep;

/* A study of the model in file path (the options as for
 * fl_model_load_file; opts->params are overrides every run has), or with
 * path NULL of the library class opts->model_name. NULL on error. */
FLANGE_API fl_sweep *fl_sweep_new(const char *path, const fl_load_opts *opts, fl_diag *d);
FLANGE_API void fl_sweep_free(fl_sweep *s);

/* A swept parameter, "NAME=VALUES": a list "1,2,5", a range "0:1:11"
 * (START:STOP:N, N values evenly spaced, both ends included), a logarithmic
 * range "log(1e-3:1:4)", or, with fl_sweep_samples, a distribution
 * "uniform(A,B)", "normal(MEAN,SIGMA)", "loguniform(A,B)". Several list
 * parameters form the full-factorial grid, the last one varying fastest;
 * with samples, the runs are the grid times N samples (run = grid point * N
 * + sample). NAME is a component parameter ("spring.c") or a parameter of
 * the model ("k"). */
FLANGE_API int fl_sweep_param(fl_sweep *s, const char *spec, fl_diag *d);
/* Draw n samples of the distribution parameters with this seed: independent
 * random draws, or with lhs = 1 a Latin hypercube (each parameter's range
 * cut into n strata of equal probability, one value in each, the strata
 * paired at random). The generator is flange's own: a seed gives the same
 * runs on every machine. */
FLANGE_API int fl_sweep_samples(fl_sweep *s, long n, unsigned long long seed, int lhs, fl_diag *d);
/* Explicit runs from a CSV file: a header of parameter names, then one row
 * of numbers per run. Not combined with fl_sweep_param. */
FLANGE_API int fl_sweep_runs_file(fl_sweep *s, const char *path, fl_diag *d);
/* Quantities collected of each run, comma-separated: final(v), max(v),
 * min(v), mean(v) (the time average over the run, trapezoid rule over the
 * output points), at(v, t) (linear between the output points around t; at
 * an event time the value after the event), each of a variable v or of
 * abs(v); count_events (time and state events of the run); "status" is
 * accepted and always a column anyway. The values are computed from every
 * output point (the Interval grid and both sides of each event). */
FLANGE_API int fl_sweep_collect(fl_sweep *s, const char *exprs, fl_diag *d);
/* Variables (names or globs, comma-separated) whose trajectories every run
 * keeps: written only to HDF5 files. */
FLANGE_API int fl_sweep_save(fl_sweep *s, const char *globs, fl_diag *d);
/* Start, stop, output interval and relative tolerance of every run; NaN
 * keeps the model's experiment annotation. 0, or -1 once prepared. */
FLANGE_API int fl_sweep_set_times(fl_sweep *s, double start, double stop, double interval, double tolerance);
/* The linear solver of every run (FL_SOLVER_*). */
FLANGE_API int fl_sweep_set_solver(fl_sweep *s, int solver);

/* Expand the runs, compile the model, check the collected and saved
 * variables and classify the parameters (run time or structural, which
 * compiles the model once more per parameter). Returns the number of runs,
 * or -1 with messages. */
FLANGE_API long fl_sweep_prepare(fl_sweep *s, fl_diag *d);
FLANGE_API long fl_sweep_nruns(const fl_sweep *s);      /* -1 before prepare */
FLANGE_API long fl_sweep_ngroups(const fl_sweep *s);    /* compilations the runs need */
FLANGE_API int fl_sweep_nparams(const fl_sweep *s);
FLANGE_API const char *fl_sweep_param_name(const fl_sweep *s, int j);
/* 1: structural, 0: set at run time, -1: not prepared or no such j. */
FLANGE_API int fl_sweep_param_structural(const fl_sweep *s, int j);

/* Called after each finished run with the runs done and failed so far (of
 * all runs, including those recovered from a journal); from the worker
 * threads, one call at a time. */
typedef void (*fl_sweep_progress_fn)(void *user, long done, long failed, long total);

/* Run the listed runs (runs NULL: all) that have no result yet on nthreads
 * threads (0: one per online core). Runs are handed out one at a time, so
 * long and short runs balance; each thread keeps one simulation per group.
 * Returns the number of runs that failed in this call, or -1 if nothing
 * could start. */
FLANGE_API long fl_sweep_run(fl_sweep *s, const long *runs, long n, int nthreads, fl_sweep_progress_fn progress,
                             void *user, fl_diag *d);

/* The result table: columns 0 .. fl_sweep_ncols - 1 named by
 * fl_sweep_col_name. fl_sweep_value gives number columns (run, parameters,
 * status as 0/1, collected quantities; NaN where a failed run has none, and
 * for a run without a result); fl_sweep_text the text columns "status" and
 * "message" (NULL for a run without a result and for number columns). */
FLANGE_API int fl_sweep_ncols(const fl_sweep *s);
FLANGE_API const char *fl_sweep_col_name(const fl_sweep *s, int j);
FLANGE_API int fl_sweep_has_result(const fl_sweep *s, long run);
FLANGE_API double fl_sweep_value(const fl_sweep *s, long run, int j);
FLANGE_API const char *fl_sweep_text(const fl_sweep *s, long run, int j);
/* The saved trajectory of a run: returns its number of points (-1 without
 * a result), *data the points row by row (time, then the *nsaved saved
 * variables named by fl_sweep_saved_name); valid until fl_sweep_free. */
FLANGE_API long fl_sweep_trajectory(const fl_sweep *s, long run, const double **data, int *nsaved);
FLANGE_API const char *fl_sweep_saved_name(const fl_sweep *s, int k);

/* Write the rows of runs first .. first + count - 1 that have a result
 * (count < 0: to the end) to path: HDF5 when the name ends in .h5 or .hdf5
 * (the table, the study's definition, the model text, flange's version and
 * the saved trajectories; layout in the README), CSV otherwise (the table
 * only: numbers that read back exactly, an empty field where a failed run
 * has no value, the message double-quoted). Written to a temporary file
 * renamed over path when complete (fl_sim_run_csv's rules). */
FLANGE_API int fl_sweep_write(const fl_sweep *s, const char *path, long first, long count, fl_diag *d);
/* Join study files holding slices of one study (shards, fl_sweep_write
 * with first/count) into out, ordered by run: the columns must agree and
 * every run of the study must be there exactly once. */
FLANGE_API int fl_sweep_merge(const char *const *inputs, int n, const char *out, fl_diag *d);

/* Record every result as it is stored into the journal file path (flushed
 * per run), so that an interrupted study can go on: with resume = 1 the
 * results an existing journal holds are taken back (a damaged last record
 * is dropped) and those runs are not run again; with resume = 0 an
 * existing journal is an error. A journal of a different study (model,
 * parameters, runs, collected quantities, times) is refused. Returns the
 * number of results taken back, or -1. fl_sweep_journal_close closes it,
 * removing the file when remove_it (after the output is written). */
FLANGE_API long fl_sweep_journal(fl_sweep *s, const char *path, int resume, fl_diag *d);
FLANGE_API void fl_sweep_journal_close(fl_sweep *s, int remove_it);

/* A run's result as a self-checking record of bytes (to send it to another
 * process of the same study, e.g. over MPI): returns its size, writing it
 * to buf when cap is large enough (0 when the run has no result).
 * fl_sweep_unpack stores such a record in another fl_sweep of the same
 * definition (a run with a result already keeps it). */
FLANGE_API size_t fl_sweep_pack(const fl_sweep *s, long run, void *buf, size_t cap);
FLANGE_API int fl_sweep_unpack(fl_sweep *s, const void *buf, size_t n, fl_diag *d);

/* ------------------------------------------------------------------------
 * FMU export (FMI 2.0 and 3.0, Co-Simulation and Model Exchange)
 * ------------------------------------------------------------------------ */

typedef struct fl_fmu_opts {
    /* The model to export, as fl_load_opts.model_name (NULL: the only
     * model of the file). */
    const char *model_name;
    /* 2 or 3 (FMI 2.0 or 3.0); 0 means 2. */
    int fmi;
    /* Parameter overrides "name=value" baked into the FMU (its parameters'
     * start values), as fl_load_opts.params: a number or an expression for
     * a Real or Integer parameter, true/false for a Boolean, a literal for
     * an enumeration. */
    const char *const *params;
    int nparams;
    /* The FMU's binary, one shared object for every model (the CMake
     * target flange_fmu, installed as LIBDIR/flange/flange_fmu.so). NULL
     * searches: the environment variable FLANGE_FMU_TEMPLATE, then
     * flange_fmu.so beside the running program, then LIBDIR/flange/ seen
     * from the program's directory (BINDIR), then flange_fmu.so beside
     * libflange.so and in its flange/ directory (a program or interpreter
     * that loads the shared library). */
    const char *template_path;
} fl_fmu_opts;

/* Export the model in the file path as an FMU, the zip out (a .fmu):
 *   modelDescription.xml  FMI 2.0 or 3.0, with both <ModelExchange> and
 *                         <CoSimulation>; modelIdentifier: the model's
 *                         class name, characters other than letters,
 *                         digits and '_' replaced by '_';
 *   binaries/linux64/ID.so (FMI 2) or binaries/x86_64-linux/ID.so (FMI 3):
 *                         a copy of the template, which loads and compiles
 *                         the resources when instantiated;
 *   resources/model.mo    the model text (with a generated wrapper model
 *                         when the model has top-level RealInput/RealOutput
 *                         connectors: they become the FMU's inputs and
 *                         outputs), resources/flange.cfg, and the table
 *                         files (tableOnFile) the model names by a path
 *                         relative to its file;
 *   documentation/index.html.
 * The FMU's variables are the model's variables (names as in
 * fl_system_var_name, causality local), its inputs and outputs, the Real,
 * Integer and Boolean parameters of its components (tunable where
 * fl_sim_set_param can change them during a run without changing any other
 * parameter, fixed otherwise), the continuous states "_x.NAME" with their
 * derivatives "der(_x.NAME)", and in FMI 3 the event indicators "_z[k]".
 * Refused, with a message saying it is not supported yet: array, Integer
 * and Boolean connectors and plain "input Real" at the top level, models
 * that use libraries (--lib, MODELICAPATH), table files named by an
 * absolute path. The model must load and compile. out is written as a
 * temporary file beside it and renamed when complete (fl_sim_run_csv's
 * rules): a failed export leaves no file and an existing one unchanged.
 * Returns 0 on success. */
FLANGE_API int fl_fmu_export(const char *path, const fl_fmu_opts *o, const char *out, fl_diag *d);

/* ------------------------------------------------------------------------
 * Result comparison
 * ------------------------------------------------------------------------ */

/* Compare the signals of a result CSV with a reference CSV in the manner of
 * the MSL regression tests: every result point must lie in a tube around the
 * reference of half-width tol*(time span) in time and tol*(value range) in
 * value. signals_file lists one signal per line (NULL: every column of the
 * reference). Writes one line per signal to report. Returns 0 when all pass,
 * 1 when some fail, -1 on error (unreadable file, missing signal).
 * Both files must be result tables: a header of names with 'time' first
 * (any case), then rows of as many finite numbers, with time never
 * decreasing (an event repeats its time); blank lines, CRLF line ends, a
 * UTF-8 byte order mark and double-quoted fields are accepted. Anything
 * else (binary data, a missing header, a short or long row, text or NaN
 * where a number belongs, time going back) is an error located at
 * file:line:column. A file whose name ends in .mat (either one) is read as
 * a MAT v4 result file instead (fl_sim_run_mat's layout, which is
 * Dymola's and OpenModelica's, stored transposed or not): its trajectories
 * are the signals; its parameters (data_1) can be named with
 * signals_file but are not compared by default. A damaged, truncated or
 * MAT v5/v7 file is an error naming the file and what is wrong. */
FLANGE_API int fl_compare_csv(const char *result, const char *reference, const char *signals_file,
                              double tol, FILE *report, fl_diag *d);

/* ------------------------------------------------------------------------
 * Plots (PLplot; PNG, SVG or PDF)
 *
 * These live in a library of their own, libflange-plot, so that libflange
 * itself does not depend on PLplot: link with -lflange-plot -lflange
 * (pkg-config flange-plot). libflange-plot must come from the same build
 * as libflange.
 * ------------------------------------------------------------------------ */

typedef enum fl_plot_layout {
    FL_PLOT_OVERLAY = 0, /* every signal in one panel */
    FL_PLOT_STACKED = 1  /* one panel per unit (positions, velocities, forces, ...) */
} fl_plot_layout;

typedef struct fl_plot_opts {
    const char *const *y; /* signals to plot: names or globs ('*' within a name
                             component, '**' across), in legend order */
    int ny;
    const char *x;         /* the abscissa: NULL for time, or a signal (phase plot) */
    const char *title;     /* NULL: none */
    fl_plot_layout layout;
    int width, height;     /* pixels (PNG) or points (SVG, PDF); 0: 900 x 600 */
} fl_plot_opts;

/* Plot signals of a result CSV (as written by fl_sim_run_csv, read with
 * the rules of fl_compare_csv) into the picture out, whose format follows
 * its extension (.png, .svg, .pdf). Axis labels carry the units from
 * RESULT.csv.units when that file exists. A result whose name ends in
 * .mat is read as a MAT file (see fl_compare_csv), its units taken from
 * the descriptions' "[unit]". The picture is drawn into a
 * temporary file and then renamed over out (a new path, a regular file, or
 * the file a symbolic link leads to) or copied into it (a device, a FIFO).
 * Not thread-safe (PLplot keeps global state). Returns 0 on success.
 * The same as fl_plot_results with the one file csv. */
FLANGE_API int fl_plot_csv(const char *csv, const char *out, const fl_plot_opts *o, fl_diag *d);

/* Overlay several results (files[0..nfiles), CSV or MAT, read as by
 * fl_plot_csv) in one picture: every signal o->y selects is drawn from
 * every file, each file's series over its own time (files of different
 * spans and steps mix) or, with o->x, over that file's o->x. Each pattern
 * of o->y must match a signal of every file; an error names the file and
 * the pattern as for one file. Units come from each file (FILE.units, the
 * MAT descriptions); files that give a signal different units are an
 * error naming both files; a file without units takes them from the
 * others. Legend entries read "FILE: VAR", FILE being the file's name
 * without its directory (or with as many trailing path components as
 * tell the files apart when names repeat), in the order of the signals,
 * each followed by its series from every file in the order of files; a
 * single file gives plain "VAR", as fl_plot_csv. Colours cycle over the
 * series; FL_PLOT_STACKED makes one panel per unit across all files.
 * Nothing is written when any file fails. Not thread-safe. Returns 0 on
 * success. */
FLANGE_API int fl_plot_results(const char *const *files, int nfiles, const char *out, const fl_plot_opts *o,
                               fl_diag *d);

#ifdef __cplusplus
}
#endif

#endif
