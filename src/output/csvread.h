/* csvread.h - reading result files (a header row of names, then rows of numbers) into columns. */
#ifndef FL_CSVREAD_H
#define FL_CSVREAD_H

#include <stddef.h>

#include "flange.h"

typedef struct fl_csv {
    char *path;    /* as given to fl_csv_read; used in messages */
    int ncols;
    char **names;  /* header names, quotes and surrounding blanks removed */
    size_t nrows;  /* data rows; blank lines are not counted */
    double **cols; /* cols[j][i]: column j, data row i */
    char **units;  /* MAT files: the unit of each column ("" if none); NULL for CSV */
    unsigned char *constant; /* MAT files: 1 for a parameter (data_1), not a trajectory; NULL for CSV */
} fl_csv;

/* Read a whole result file, with the one set of rules every reader of
 * results (compare, plot) applies: text without control bytes; a header of
 * names, 'time' first (any case); rows of as many finite numbers; time never
 * decreasing (an event repeats its time). Blank lines, CRLF, a UTF-8 byte
 * order mark and double-quoted fields ("x[1,2]") are accepted. Returns NULL
 * and records an error at file:line:column on failure; a message never
 * quotes a byte of the file that is not printable ASCII. */
fl_csv *fl_csv_read(const char *path, fl_diag *d);

/* A name ending in .mat (any case): fl_csv_read reads it as a MAT file. */
int fl_mat_path(const char *path);

/* Reads a MAT v4 result file (Aclass, name, description, dataInfo, data_1,
 * data_2, as Dymola, OpenModelica and fl_sim_run_mat write, transposed or
 * not) into columns: time, then every variable in file order (a
 * parameter of data_1 as a constant column, marked in constant), units
 * from the descriptions' trailing "[unit]". Same rules and messages as
 * fl_csv_read (called by it for .mat names). */
fl_csv *fl_mat_read(const char *path, fl_diag *d);

/* Checks that path holds a complete MAT v4 file with the variables of a
 * result (shown names the file in messages): 0 or -1 with a message. */
int fl_mat_check_file(const char *path, const char *shown, fl_diag *d);

/* Silences libmatio's own messages (once per process). */
void fl_matio_init(void);

/* s for a message: printable ASCII as it is, other bytes as \xHH, cut
 * after about 40 characters ("..."). out must hold at least 8 bytes. */
void fl_csv_printable(char *out, size_t cap, const char *s);

/* Index of the first column with this exact name, or -1. */
int fl_csv_column(const fl_csv *c, const char *name);

void fl_csv_free(fl_csv *c);

#endif
