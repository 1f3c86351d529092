/* prog.h - expressions lowered to a flat register program, evaluated for a
 * batch of elements at once.
 *
 * A program computes a list of root expressions of one graph. Every node
 * it needs gets a register; registers [0, nconst) hold constants (written
 * once into a scratch file by fl_sprog_scratch), the inputs are loaded by
 * the caller into the registers the program names (fl_sload), and the
 * instructions run in dependency order. Registers are laid out by batch:
 * register r of element i is reg[r * B + i], so that each instruction is a
 * tight loop over the B elements of a class (no tree walk, no dispatch per
 * element and operation). */
#ifndef FL_PROG_H
#define FL_PROG_H

#include "sym.h"

/* Where an input comes from; the meaning of the source numbers belongs to
 * the caller (its leaf function decides them). */
typedef struct fl_sload {
    int reg;
    int src, idx;
} fl_sload;

typedef enum fl_siop {
    SI_ADD, SI_SUB, SI_MUL, SI_DIV, SI_POW, SI_NEG, SI_FN1, SI_FN2, SI_IF,
    SI_REL,   /* literal relation: fn = FL_REL_* */
    SI_RELE,  /* event relation (event programs): decided by the crossing direction
                 of root c when it crossed, else literally; the value is stored */
    SI_AND, SI_OR, SI_NOT, SI_CALL, SI_SAMPLE
} fl_siop;

typedef struct fl_sins {
    uint8_t op, fn;
    uint16_t flags;
    int d, a, b, c;
} fl_sins;

typedef struct fl_sprog {
    fl_sins *ins;
    int nins;
    int nreg, nconst;
    double *konst;   /* values of registers 0..nconst-1 */
    fl_sload *ld;    /* inputs */
    int nld;
    int *out;        /* register of each root */
    int nout;
    int *argregs;    /* argument registers of calls (SI_CALL: a = offset, b = count) */
    int nargregs;
} fl_sprog;

/* What lowering asks about a node that may be an input: return 1 and fill
 * *src, *idx to load it from the caller's source src[idx]; return 0 to have
 * the program compute it (only meaningful for SX_REL and SX_SAMPLE, which
 * the program can compute; every other leaf must be loaded). For event
 * relations in event programs, return 0 and set *idx to the relation's
 * root number (used by SI_RELE), or to -1 for a relation decided by its
 * value. */
typedef int (*fl_sleaf_fn)(void *ctx, const fl_snode *n, fl_sx x, int *src, int *idx);

/* Lower the roots. Returns 0, or -1 when a leaf could not be placed (the
 * leaf function refused a variable). */
int fl_sprog_lower(fl_sprog *p, const fl_sgraph *g, const fl_sx *roots, int nroots, fl_sleaf_fn leaf, void *ctx);
void fl_sprog_free(fl_sprog *p);

/* A register file for batches of B: nreg * B doubles with the constants in
 * place. Free with free(). */
double *fl_sprog_scratch(const fl_sprog *p, int B);
/* Write the constants into a register file of batch size B shared between
 * programs (first n elements). */
void fl_sprog_consts(const fl_sprog *p, double *reg, int B, int n);

/* Calls of user functions during execution: value of output `out` of
 * function fid (wrt = 0) or its partial derivative with respect to argument
 * wrt-1. */
typedef double (*fl_scall_fn)(void *ctx, int fid, int out, int wrt, const double *args, int nargs);

typedef struct fl_sexec {
    double t;            /* model time (SI_SAMPLE) */
    const int *dir;      /* SI_RELE: crossing direction of each root (NULL: none) */
    double *relout;      /* SI_RELE: where the decided relation values go (NULL: not kept) */
    double *gout;        /* SI_RELE: where each relation's a - b goes (NULL: not kept) */
    const double *gref;  /* SI_RELE: a - b when the crossing was decided; a relation that has
                          * moved away from it is decided by its value, not by dir (NULL: dir) */
    fl_scall_fn call;
    void *call_ctx;
    double sample_eps;   /* SI_SAMPLE: how close t must be to an instant */
} fl_sexec;

/* Run the program on n <= B elements whose inputs are loaded into reg. */
void fl_sprog_run(const fl_sprog *p, double *reg, int B, int n, const fl_sexec *x);

#endif
