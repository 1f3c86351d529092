/* nvec.h - optimised serial vector operations for IDA (see nvec.c). */
#ifndef FL_SIM_NVEC_H
#define FL_SIM_NVEC_H

#include <sundials/sundials_nvector.h>

/* Points the standard operations of a serial vector (N_VNew_Serial) at
 * flange's compiled copies: the same arithmetic in the same order, so the
 * same bits, without Debian's unoptimised SUNDIALS kernels. Vectors cloned
 * from it afterwards (IDA's own) inherit them. Call before IDAInit. Does
 * nothing to NULL or a vector of another kind. */
void fl_nvec_fast(N_Vector v);

#endif
