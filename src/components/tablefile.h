/* tablefile.h - tables read from files (tableOnFile = true of the MSL table
 * blocks): the MSL text format and CSV files.
 *
 * Text format (as ModelicaStandardTables reads it): the file starts with
 * "#1"; each matrix is declared by a line `double NAME(ROWS,COLUMNS)` (or
 * `float`), followed by its ROWS*COLUMNS numbers in row order, separated by
 * blanks, tabs, commas or semicolons, over as many lines as needed; `#`
 * starts a comment anywhere. Several matrices may follow one another.
 * A file whose name ends in ".csv" is read as comma-separated values
 * instead: nHeaderLines lines skipped, then one row per line, split at the
 * delimiter.
 *
 * Why here (src/components) and not model-side: the compiler reads
 * CombiTimeTable's file when it decides the block's parameters
 * (fl_class.load), and the look-up tables of the equation layer read the
 * same files through the same function. */
#ifndef FL_TABLEFILE_H
#define FL_TABLEFILE_H

#include "model/value.h"
#include "util/diag.h"

/* Is a table or file name given? ("NoName" and blank names are not, as in
 * the MSL.) */
int fl_table_name_given(const char *name);

/* A count parameter (nHeaderLines) as an int, whatever the number (values
 * beyond the int range become its ends; the reader rejects them). */
int fl_table_count(double x);

/* Read the table of a block `inst` with tableOnFile = true: file relative
 * to the directory of the model file `base` (NULL or no directory: the
 * working directory), table `name` of a text file or the rows of a CSV file
 * (delim, nheader). Errors about the names and the file as a whole are
 * located at `at` (where the block sets them), errors in the file's
 * contents at their line and column there. Returns 0 with the matrix in
 * *out (2 dimensions, owned by the caller), or -1. */
int fl_table_load(const char *inst, const char *file, const char *name, const char *delim, int nheader,
                  const char *base, fl_loc at, fl_value *out, fl_diag *d);

#endif
