/* diag.h - diagnostics (errors, warnings, notes) with source locations.
 * Every stage reports through one fl_diag list so that the CLI can print
 * "file:line:column: error: message" and exit non-zero. */
#ifndef FL_DIAG_H
#define FL_DIAG_H

#include <stdarg.h>

#include "flange.h"

typedef struct fl_loc {
    const char *file; /* not owned; NULL when there is no source */
    int line, col;    /* 1-based; 0 when unknown */
} fl_loc;

typedef struct fl_diag_item {
    int severity; /* FL_SEV_* from flange.h */
    char *text;   /* fully formatted: "file:line:col: error: msg" */
} fl_diag_item;

struct fl_diag {
    fl_diag_item *items;
    int n, cap;
    int nerrors;
    int max_errors; /* stop collecting after this many (0 = 50) */
};

void fl_diag_add(fl_diag *d, int severity, fl_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void fl_diag_vadd(fl_diag *d, int severity, fl_loc loc, const char *fmt, va_list ap);
#define fl_err(d, loc, ...) fl_diag_add((d), FL_SEV_ERROR, (loc), __VA_ARGS__)
#define fl_warn(d, loc, ...) fl_diag_add((d), FL_SEV_WARNING, (loc), __VA_ARGS__)
#define fl_note(d, loc, ...) fl_diag_add((d), FL_SEV_NOTE, (loc), __VA_ARGS__)

extern const fl_loc fl_noloc;
/* A place in the Modelica text flange carries (src/model/msl, named
 * "<flange: PACKAGE>" by bundled.c): messages move to the user's model. */
int fl_loc_is_bundled(fl_loc loc);

#endif
