/* func_rt.h - the run-time side of user functions (func.h): what a
 * simulation needs to call them, without the syntax tree and the compiler.
 * The element of user components (components/user.c) includes only this. */
#ifndef FL_FUNC_RT_H
#define FL_FUNC_RT_H

#include <stddef.h>

#include "util/diag.h"

typedef struct fl_ufuncs fl_ufuncs;

/* A new registry has one holder; fl_ufuncs_retain adds one, fl_ufuncs_free
 * drops one and frees the registry with the last. */
fl_ufuncs *fl_ufuncs_new(void);
void fl_ufuncs_retain(fl_ufuncs *r);
void fl_ufuncs_free(fl_ufuncs *r);

/* ---- calls ----------------------------------------------------------------- */

/* A run-time error: where it happened and what (without the location). */
typedef struct fl_ufunc_err {
    fl_loc loc; /* file name owned by the registry */
    char msg[320];
    int fatal;  /* no other point helps: an endless loop, a memory limit (the run stops) */
} fl_ufunc_err;

/* Call function id with its inputs flattened into in[0..nin) (the sizes of
 * every input must be fixed: by declaration or by a variant) and write its
 * outputs, flattened in order, into out[0..nout). With tangent seeds din
 * (nin values; NULL: none) also the directional derivative of the outputs
 * into dout. Returns the number of output values (at most nout; more
 * needed is an error), or -1 with *err filled. */
int fl_ufunc_call(const fl_ufuncs *r, int id, const double *in, int nin, double *out, int nout, const double *din,
                  double *dout, fl_ufunc_err *err);

/* Run-time state for the programs' callback (fl_scall_fn in prog.h): one
 * per thread (per simulation). It remembers the last evaluation, so that
 * the outputs and partials of one call at one point cost one run each. */
/* One remembered evaluation: function fid of the set r at args, with the
 * partial derivatives by argument wrt-1 (wrt = 0: values only). */
typedef struct fl_ufunc_memo {
    unsigned long long serial; /* of the function set (0: empty); its address may be reused */
    int fid, wrt, nargs, nout;
    double *args, *out, *dout;
    size_t cap_args, cap_out;
} fl_ufunc_memo;

/* Modelica functions are pure: the same function at the same arguments
 * gives the same outputs. The programs ask for a call's outputs one by one
 * and for its partials argument by argument, the residual, the Jacobian
 * and the output program of one point ask again, and two functions of one
 * element alternate, so a few remembered evaluations save most of the work
 * (a function with an inner loop solved at output points ran 14,000 times
 * for 1,000 points with a memory of one). */
#define FL_UFUNC_MEMO 8

typedef struct fl_ufunc_rt {
    const fl_ufuncs *r;
    int failed;         /* an evaluation failed: err says why (the first) */
    fl_ufunc_err err;
    fl_ufunc_memo memo[FL_UFUNC_MEMO];
    int next;           /* the entry the next new evaluation replaces */
} fl_ufunc_rt;

void fl_ufunc_rt_init(fl_ufunc_rt *rt, const fl_ufuncs *r);
void fl_ufunc_rt_free(fl_ufunc_rt *rt);
/* fl_scall_fn: value of flat output `out` of function fid at args
 * (wrt = 0), or its partial derivative with respect to flat argument wrt-1.
 * On a run-time error: NAN, and rt->failed/err say why. */
double fl_ufunc_scall(void *rt, int fid, int out, int wrt, const double *args, int nargs);

#endif
