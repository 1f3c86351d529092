/* names.h - a map from component names to indices (fl_names), for the
 * model's and the compiled system's instance look-ups. See names.c for
 * why it is not a plain hash map. */
#ifndef FL_NAMES_H
#define FL_NAMES_H

#include <stddef.h>

#include "util.h"

/* The numbered names of one family ("m1", "m2", ... or "m[1]", "m[2]",
 * ...): the value of the name with number k at idx[k] (plus 1; 0: none). */
typedef struct fl_name_family {
    int *idx;
    int cap, n;
} fl_name_family;

typedef struct fl_names {
    fl_map fams;            /* a family's key (names.c: family_key) -> index into fam */
    fl_name_family *fam;
    int nfam, capfam;
    fl_map rest;            /* the other names */
} fl_names;

/* Map name[0 .. len) to val (>= 0), replacing any value it had. */
void fl_names_put(fl_names *x, const char *name, size_t len, int val);
/* The value of name[0 .. len), -1 when absent. Reads only: safe from
 * several threads at once. */
int fl_names_get(const fl_names *x, const char *name, size_t len);
void fl_names_free(fl_names *x);

#endif
