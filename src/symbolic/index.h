/* index.h - structure of the remaining equations of a cluster: matching on
 * the highest derivatives, index reduction (Pantelides' algorithm with
 * dummy derivatives) where equations constrain states, and the block
 * decomposition that orders explicit assignments. */
#ifndef FL_INDEX_H
#define FL_INDEX_H

#include "flat.h"

typedef struct fl_index_problem {
    fl_sgraph *g;
    fl_fcluster *fc;     /* variables (auxiliary ones are added to it) */
    int nrows;
    fl_sx *res;          /* residuals of the equations */
    fl_loc *loc;
    int nunk;
    const int *unk;      /* the unknown variables */
    const unsigned char *is_state; /* per variable: appears under der() */
    int nv;
    const double *par, *start; /* numbers for the choice of states */
    /* total time derivative of an expression (knowns substituted) */
    fl_sx (*tdiff)(void *ctx, fl_sx x);
    void *tctx;
    const char *name;
    fl_diag *d;
} fl_index_problem;

typedef struct fl_index_result {
    int nrows;
    fl_sx *res;          /* every row (original, then differentiated), leaves rewritten */
    fl_loc *loc;
    int *row_var;        /* the unknown each row is matched to */
    int nunk;
    int *unk;            /* unknowns: the original ones and those index reduction added */
    unsigned char *diff; /* per unknown: a state (its derivative is SX_DER) */
    int nblocks;         /* algebraic unknowns in dependency order */
    int *block_row, *block_var;
    unsigned char *block_implicit; /* part of an algebraic loop */
    int nmap;            /* leaves the rows were rewritten with: a derivative that became a */
    fl_sx *map_from;     /* dummy (an unknown of its own) -> that unknown, for the */
    fl_sx *map_to;       /* expressions outside the rows (initial equations) */
} fl_index_result;

/* Maximum bipartite matching of rows to columns (adjacency in CSR form:
 * the columns of row i are cols[rowptr[i] .. rowptr[i+1])); returns the
 * number of matched rows. Iterative augmenting paths. */
int fl_sym_match(int nrows, int ncols, const int *rowptr, const int *cols, int *col_of_row, int *row_of_col);

/* Returns 0, or -1 after reporting a structurally singular system. */
int fl_index_reduce(const fl_index_problem *p, fl_index_result *r);
void fl_index_result_free(fl_index_result *r);

#endif
