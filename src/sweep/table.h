/* table.h - a study's result table, independent of how it was produced:
 * the rows of runs (number and text columns), the study's metadata and
 * the saved trajectories. The sweep fills one from its results; --merge
 * reads shards into one. Each file format has one writer and one reader:
 * table.c (CSV, which keeps the rows only), h5.c (HDF5, everything). */
#ifndef FL_SWEEP_TABLE_H
#define FL_SWEEP_TABLE_H

#include "flange.h"

typedef struct sw_table {
    int ncols;
    char **names;        /* column names: "run", the parameters, "status", "message", the collected */
    unsigned char *text; /* per column: 1 text ("status", "message"), 0 number */
    long nrows;
    double *num;         /* nrows x ncols, row-major: number columns (NaN: no value) */
    char **str;          /* nrows x ncols: text columns (NULL elsewhere) */
    /* metadata (HDF5 attributes; a CSV file has none of it) */
    char *model_name;    /* NULL: unknown */
    char *model_text;
    char *version;       /* flange's version that wrote it */
    char **param_defs;   /* "mass.m=1:2:3" as given, one per parameter */
    unsigned char *param_structural;
    int nparam_defs;
    long nruns_total;    /* runs of the whole study (a shard holds a slice); 0: unknown */
    /* saved trajectories (HDF5 only): row r has npts[r] points of
     * (time, save_names...) in traj[r], row-major (npts x (1 + nsave)) */
    int nsave;
    char **save_names;
    long *npts;
    double **traj;
} sw_table;

/* Write t to path, CSV or HDF5 by the name's ending (".h5", ".hdf5"), into
 * a temporary file beside it renamed over it when complete (fl_sim_run_csv's
 * rules): a failure leaves an existing file untouched. 0 or -1 (reported). */
int sw_table_write(const sw_table *t, const char *path, fl_diag *d);
/* Read a table written by sw_table_write. 0 or -1 (reported with file:line:column
 * for CSV). */
int sw_table_read(const char *path, sw_table *t, fl_diag *d);
void sw_table_free(sw_table *t);

/* 1 when path names an HDF5 file by its ending (".h5", ".hdf5", any case). */
int sw_h5_path(const char *path);
/* The formats' own halves (the dispatch above calls them). */
int sw_table_write_csv(const sw_table *t, const char *path, fl_diag *d);
int sw_table_read_csv(const char *path, sw_table *t, fl_diag *d);
int sw_table_write_h5(const sw_table *t, const char *path, fl_diag *d);
int sw_table_read_h5(const char *path, sw_table *t, fl_diag *d);

/* Shortest text that reads back as exactly x ("%.17g" at most); "" for NaN. */
char *sw_format_number(double x, char buf[32]);

#endif
