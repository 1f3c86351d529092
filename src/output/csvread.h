/* csvread.h - reading numeric CSV result files (a header row of names, then rows of numbers) into columns. */
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
} fl_csv;

/* Read a whole CSV file. Values are parsed with strtod, so "nan" and "inf"
 * are accepted and left for the caller to judge. Returns NULL and records
 * an error naming the file (and the line, for a bad row) on failure. */
fl_csv *fl_csv_read(const char *path, fl_diag *d);

/* Index of the first column with this exact name, or -1. */
int fl_csv_column(const fl_csv *c, const char *name);

void fl_csv_free(fl_csv *c);

#endif
