/* suggest.h - "did you mean ...?" for misspelt names. A message about an
 * unknown class, parameter, attribute, connector or literal offers the few
 * known names nearest to what was written, by edit distance. */
#ifndef FL_SUGGEST_H
#define FL_SUGGEST_H

#include "util.h"

#define FL_SUGGEST_MAX 3

/* The nearest candidates seen so far, best first. */
typedef struct fl_suggest {
    const char *wanted;
    int limit;                         /* largest distance worth suggesting */
    int n;
    int dist[FL_SUGGEST_MAX];
    const char *name[FL_SUGGEST_MAX]; /* not owned: must outlive the fl_suggest */
} fl_suggest;

/* Edit distance (insertions, deletions, substitutions, swaps of neighbours)
 * between a and b; any value above max is returned as max + 1. */
int fl_edit_distance(const char *a, const char *b, int max);

/* Start a search for names near wanted; the distance allowed grows with
 * its length (1 for up to 2 characters, 2 up to 8, 3 beyond). */
void fl_suggest_init(fl_suggest *s, const char *wanted);
/* Consider candidate `shown`, compared by `key` (the same text, or the
 * part of it that corresponds to what was written). */
void fl_suggest_add(fl_suggest *s, const char *key, const char *shown);
/* Consider a candidate at a distance computed by the caller. */
void fl_suggest_add_dist(fl_suggest *s, int dist, const char *shown);
/* Append "; did you mean 'a', 'b' or 'c'?" (nothing without candidates);
 * returns the number of names offered. */
int fl_suggest_append(const fl_suggest *s, fl_buf *b);

#endif
