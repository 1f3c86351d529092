/* sweep.h - parameter studies (fl_sweep, `flange sweep`): what the files of
 * src/sweep/ share. A study is a model, parameter definitions that expand to
 * a table of runs (spec.c), quantities collected per run (collect.c), runs
 * grouped by the structure they need and executed on a pool of threads
 * (study.c, run.c), results kept in memory, journalled for --resume
 * (journal.c) and written as a table (table.c: CSV; h5.c: HDF5). */
#ifndef FL_SWEEP_H
#define FL_SWEEP_H

#include <pthread.h>
#include <stdint.h>

#include "flange.h"

/* How a parameter's values are given. */
typedef enum { SW_LIST, SW_UNIFORM, SW_NORMAL, SW_LOGUNIFORM, SW_FILE } sw_kind;

typedef struct sw_param {
    char *name;       /* "mass.m", "k" */
    char *spec;       /* the definition as written ("1:2:3"), for the output's metadata */
    sw_kind kind;
    double a, b;      /* distribution parameters */
    double *vals;     /* SW_LIST: the values */
    int nvals;
    int structural;   /* 1: changed by compiling again (decided by fl_sweep_prepare) */
} sw_param;

/* What is collected of a run. */
typedef enum { SW_FINAL, SW_MAX, SW_MIN, SW_MEAN, SW_AT, SW_EVENTS } sw_agg;

typedef struct sw_collect {
    char *text;  /* as written: the column name */
    sw_agg agg;
    int absval;  /* of abs(var) */
    char *var;   /* NULL for count_events */
    double t;    /* SW_AT */
} sw_collect;

/* The result of one run. */
typedef struct sw_result {
    int done;      /* 1 when the run has a result */
    int status;    /* 0 ok, 1 failed */
    char *msg;     /* the failure's message ("" when ok) */
    double *vals;  /* ncollect values (NaN for a failed run) */
    long npts;     /* saved trajectory: npts points of (time, nsave values) */
    double *traj;
} sw_result;

/* A set of runs that share the values of the structural parameters: one
 * compiled system serves all of them. */
typedef struct sw_group {
    pthread_mutex_t lock;
    fl_system *sys;   /* compiled on first use, freed after its last run */
    char *error;      /* the compile failure every run of the group reports */
    int tried;
    int users;        /* threads holding sys */
    long left;        /* runs not yet finished */
    int *out_idx;     /* output variable indices: the collected, then the saved */
    int nout;
    int *col_var;     /* per collected quantity: position in out_idx, -1 (count_events) */
} sw_group;

struct fl_sweep {
    char *path;           /* model file, or NULL (a library class) */
    char *class_name;     /* the model's name */
    char *model_text;     /* the file's text (for the output's metadata) */
    /* load options, owned copies */
    char *model_opt;
    char **base_params;   /* overrides every run has (--model-param), "name=value" */
    int nbase_params;
    char **libs;
    int nlibs;
    char *modelicapath;
    int has_modelicapath;
    double start, stop, interval, tolerance; /* NaN: the model's experiment */
    int solver;

    sw_param *par;
    int npar;
    long nsamples;        /* 0: grid */
    uint64_t seed;
    int lhs;
    char *runs_file;

    sw_collect *col;
    int ncol;
    char **save_globs;
    int nsave_globs;
    char **save;          /* the saved variables' names (prepare) */
    int nsave;

    /* prepared */
    int prepared;
    fl_sim_opts opts;
    long nruns;
    double *runs;         /* nruns x npar values */
    long *group_of;       /* per run */
    sw_group *groups;
    long ngroups;
    sw_result *res;
    long ndone, nfailed;
    pthread_mutex_t res_lock;

    /* journal (journal.c) */
    FILE *journal;
    char *journal_path;
};

/* spec.c */
int sw_parse_param(const char *spec, sw_param *p, fl_diag *d);
void sw_param_free(sw_param *p);
int sw_expand_runs(fl_sweep *s, fl_diag *d);

/* collect.c */
int sw_parse_collect(const char *text, sw_collect *c, fl_diag *d);
void sw_collect_free(sw_collect *c);
/* Accumulator of one run. */
typedef struct sw_acc {
    const fl_sweep *s;
    const sw_group *g;
    double *acc;     /* per collected quantity: running value */
    double *prev_y;  /* per collected quantity: last value (mean, at) */
    double t0, tprev;
    long npts;
    double *traj;    /* saved trajectory */
    long traj_cap;
} sw_acc;
void sw_acc_init(sw_acc *a, const fl_sweep *s, const sw_group *g);
int sw_acc_point(sw_acc *a, double t, const double *vals);
void sw_acc_finish(sw_acc *a, const fl_stats *st, double *out);
void sw_acc_free(sw_acc *a);

/* journal.c */
int sw_journal_open(fl_sweep *s, const char *path, int resume, fl_diag *d);
void sw_journal_append(fl_sweep *s, long run);
void sw_journal_close(fl_sweep *s, int remove_it);
uint64_t sw_signature(const fl_sweep *s);

/* study.c: store a finished run's result (takes msg, vals and traj; vals
 * may be NULL for a failed run); the first error of d as one line; the
 * model compiled with the base overrides and nextra more "name=value" */
void sw_store(fl_sweep *s, long run, int status, char *msg, double *vals, long npts, double *traj);
char *sw_first_error(const fl_diag *d);
char *sw_override(const char *name, double v); /* "name=value", the value exactly */
fl_system *sw_compile(const fl_sweep *s, char **extra, int nextra, fl_diag *d);
/* study.c: 1 when the Real parameter name of base can change at run time
 * with the values values[r * stride], r < n; other is base compiled with one
 * of them (also the FMU exporter's test of tunable parameters) */
int sw_param_runtime(const fl_system *base, const fl_system *other, const char *name, const double *values, long n,
                     long stride);

/* study.c: the table of runs [first, first + count) (table.h) */
struct sw_table;
void sw_fill_table(const fl_sweep *s, long first, long count, struct sw_table *t);

#endif
