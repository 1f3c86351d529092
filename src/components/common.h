/* common.h - shared pieces of the component families: port and parameter
 * table shorthands and the force/Jacobian output of two-flange elements
 * whose force depends on s_rel = s1 - s0 and v_rel = v1 - v0. */
#ifndef FL_COMPONENTS_COMMON_H
#define FL_COMPONENTS_COMMON_H

#include <string.h>

#include "component.h"

#define FL_N(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define FL_BIT(c) (1ULL << (c))

/* Ports. */
#define PORT_FLANGE_A {"flange_a", FL_PORT_FLANGE, NULL, 0, "", "left flange", 0}
#define PORT_FLANGE_B {"flange_b", FL_PORT_FLANGE, NULL, 0, "", "right flange", 0}
#define PORT_FLANGE {"flange", FL_PORT_FLANGE, NULL, 0, "", "flange", 0}
#define PORT_SUPPORT {"support", FL_PORT_FLANGE, "useSupport", 0, "", "support/housing (if useSupport)", 0}
#define RPORT_FLANGE_A {"flange_a", FL_PORT_FLANGE, NULL, 0, "", "left flange of shaft", 1}
#define RPORT_FLANGE_B {"flange_b", FL_PORT_FLANGE, NULL, 0, "", "right flange of shaft", 1}
#define RPORT_FLANGE {"flange", FL_PORT_FLANGE, NULL, 0, "", "flange of shaft", 1}
#define RPORT_SUPPORT {"support", FL_PORT_FLANGE, "useSupport", 0, "", "support/housing (if useSupport)", 1}

/* Common parameters. */
#define PAR_USESUPPORT {"useSupport", FL_P_BOOL, "false", NULL, "", "true: support connector enabled", FL_PF_STRUCT, 0, 0, NULL}
#define PAR_STATESELECT(def) {"stateSelect", FL_P_ENUM, def, NULL, "", "priority of the states (accepted, no effect)", 0, 0, 0, "StateSelect"}
#define PAR_SNOMINAL {"s_nominal", FL_P_REAL, "1e-4", NULL, "m", "nominal value of s_rel (scaling)", FL_PF_MIN_EXCL, 0, 0, NULL}
#define PAR_USEHEATPORT {"useHeatPort", FL_P_BOOL, "false", NULL, "", "true: heat port enabled (accepted; losses are in lossPower)", FL_PF_STRUCT, 0, 0, NULL}

/* Local Jacobian of a two-attachment element with ncols columns. */
static inline double *fl_jrow(fl_ectx *x, const fl_elem *e, int row, int ncols)
{
    return x->jloc + e->jofs + row * ncols;
}

/* Force f of a compliant element (FL_EK_COMPLIANT: flange_b.f = f,
 * flange_a.f = -f) with df/ds_rel and df/dv_rel, its local Jacobian
 * (fl_compliant_place). */
static inline void fl_compliant_out(fl_ectx *x, const fl_elem *e, double f, double dfds, double dfdv)
{
    x->f[2 * e->idx] = -f;
    x->f[2 * e->idx + 1] = f;
    if (x->want_jac) {
        x->jloc[e->jofs] = dfds;
        x->jloc[e->jofs + 1] = dfdv;
    }
}

/* The fast residual of two-attachment elements (fl_elem_ops.fast): the
 * position and velocity of attachment k of a batch, as fl_att_s and
 * fl_att_v give them, and the force f of element i (flange_b.f = f,
 * flange_a.f = -f) added to the rows of its bodies as the residual's
 * scatter adds it. */
static inline double fl_fast_s(const fl_fast *z, const fl_ectx *x, int k)
{
    int b = z->body[k];
    if (z->unit) return x->bq[b] + 0.0; /* 1 * q + 0, bit for bit (-0 + 0 is +0) */
    return b >= 0 ? z->ratio[k] * x->bq[b] + z->off[k] : z->off[k];
}
static inline double fl_fast_v(const fl_fast *z, const fl_ectx *x, int k)
{
    int b = z->body[k];
    if (z->unit) return x->bv[b];
    return b >= 0 ? z->ratio[k] * x->bv[b] : 0.0;
}
static inline double fl_fast_srel(const fl_fast *z, const fl_ectx *x, int i)
{
    return fl_fast_s(z, x, 2 * i + 1) - fl_fast_s(z, x, 2 * i);
}
static inline double fl_fast_vrel(const fl_fast *z, const fl_ectx *x, int i)
{
    return fl_fast_v(z, x, 2 * i + 1) - fl_fast_v(z, x, 2 * i);
}
/* The row last added to is held in a register (a chain of elements adds
 * to each body's row from two elements in turn: through memory, every
 * addition would wait for the store before it). Each row gets the same
 * additions in the same order; fl_fast_done stores the last one. */
typedef struct fl_fast_acc {
    int row;
    double val;
} fl_fast_acc;
#define FL_FAST_ACC {-1, 0.0}
static inline void fl_fast_add(const fl_ectx *x, fl_fast_acc *a, int r, double v)
{
    if (r < 0) return;
    if (r != a->row) {
        if (a->row >= 0) x->res[a->row] = a->val;
        a->row = r;
        a->val = x->res[r];
    }
    a->val += v;
}
static inline void fl_fast_force(const fl_fast *z, const fl_ectx *x, fl_fast_acc *a, int i, double f)
{
    fl_fast_add(x, a, z->row[2 * i], z->unit ? -f : z->ratio[2 * i] * -f);
    fl_fast_add(x, a, z->row[2 * i + 1], z->unit ? f : z->ratio[2 * i + 1] * f);
}
static inline void fl_fast_done(const fl_ectx *x, fl_fast_acc *a)
{
    if (a->row >= 0) x->res[a->row] = a->val;
}
/* The Jacobian of element i: df/ds_rel and df/dv_rel (fl_compliant_out). */
static inline void fl_fast_put_jac(double *jl, int i, double dfds, double dfdv)
{
    jl[2 * i] = dfds;
    jl[2 * i + 1] = dfdv;
}

/* What a class's law gives for one element: its force and the
 * derivatives eval() passes to fl_compliant_out, the energy it stores and
 * the power it dissipates as energy() reports them. */
typedef struct fl_fast_out {
    double f, dfds, dfdv, U, loss;
} fl_fast_out;

/* A class's fast kernel for FL_FAST_FORCE, FL_FAST_JAC and FL_FAST_ENERGY
 * from its law, law(z, x, i, p, &o) for element i with its parameter row p. A macro, so that each
 * loop calls the law directly and the compiler puts it inline there
 * (FL_FAST_LAW): what a loop does not use is then not computed, and
 * there is no call per element. */
#if defined(__GNUC__)
#define FL_FAST_LAW static inline __attribute__((always_inline)) void
#else
#define FL_FAST_LAW static inline void
#endif
/* The loops of FL_FAST_RUN, with P the parameter row of element i_. */
#define FL_FAST_LOOPS(z, x, what, out, law, P)                                                                     \
    do {                                                                                                           \
        fl_fast_out o_;                                                                                            \
        if ((what) == FL_FAST_JAC) {                                                                               \
            for (int i_ = 0; i_ < (z)->n; i_++) {                                                                  \
                law((z), (x), i_, (P), &o_);                                                                       \
                fl_fast_put_jac((out), i_, o_.dfds, o_.dfdv);                                                      \
            }                                                                                                      \
        } else if ((what) == FL_FAST_FORCE) {                                                                      \
            fl_fast_acc a_ = FL_FAST_ACC;                                                                          \
            for (int i_ = 0; i_ < (z)->n; i_++) {                                                                  \
                law((z), (x), i_, (P), &o_);                                                                       \
                fl_fast_force((z), (x), &a_, i_, o_.f);                                                            \
            }                                                                                                      \
            fl_fast_done((x), &a_);                                                                                \
        } else if ((what) == FL_FAST_ENERGY) {                                                                     \
            for (int i_ = 0; i_ < (z)->n; i_++) {                                                                  \
                law((z), (x), i_, (P), &o_);                                                                       \
                (out)[2 * i_] = o_.U;                                                                              \
                (out)[2 * i_ + 1] = o_.loss;                                                                       \
            }                                                                                                      \
        } else if ((what) == FL_FAST_F) {                                                                          \
            for (int i_ = 0; i_ < (z)->n; i_++) {                                                                  \
                law((z), (x), i_, (P), &o_);                                                                       \
                (out)[i_] = o_.f;                                                                                  \
            }                                                                                                      \
        }                                                                                                          \
    } while (0)
/* Each loop runs on a local copy of the batch's view with `unit` a known
 * constant, so that the per-attachment test of fl_fast_s/fl_fast_v folds
 * away. A batch whose elements all read one row (fl_fast.upar) reads it
 * from a local copy: the loop's stores into the residual cannot change a
 * local, so the compiler keeps the parameters in registers instead of
 * loading them again for every element. */
#define FL_FAST_RUN_UNIT(z, x, what, out, law, P)                                                                  \
    do {                                                                                                           \
        if ((z)->unit) {                                                                                           \
            (z)->unit = 1;                                                                                         \
            FL_FAST_LOOPS(z, x, what, out, law, P);                                                                \
        } else {                                                                                                   \
            (z)->unit = 0;                                                                                         \
            FL_FAST_LOOPS(z, x, what, out, law, P);                                                                \
        }                                                                                                          \
    } while (0)
#define FL_FAST_RUN(z, x, what, out, law)                                                                          \
    do {                                                                                                           \
        fl_fast z_ = *(z);                                                                                         \
        if (z_.upar) {                                                                                             \
            double pl_[FL_FAST_NPAR_MAX];                                                                          \
            memcpy(pl_, z_.upar, sizeof(double) * (size_t)z_.npar);                                                \
            FL_FAST_RUN_UNIT(&z_, x, what, out, law, pl_);                                                         \
        } else {                                                                                                   \
            FL_FAST_RUN_UNIT(&z_, x, what, out, law, z_.par + z_.pofs[i_]);                                        \
        }                                                                                                          \
    } while (0)

/* fmax(a, b) as C defines it (a NaN argument gives the other one), written
 * out: GCC calls libm's fmax for every use unless NaNs are ruled out, and
 * the contacts' depth checks take it twice per element at every output
 * point. (Of +0 and -0 either may come back, as with fmax.) */
static inline double fl_fmax(double a, double b)
{
    return (a > b || isnan(b)) ? a : b;
}

static inline double fl_srel(const fl_ectx *x, const fl_elem *e)
{
    return fl_att_s(x, e, 1) - fl_att_s(x, e, 0);
}

static inline double fl_vrel(const fl_ectx *x, const fl_elem *e)
{
    return fl_att_v(x, e, 1) - fl_att_v(x, e, 0);
}

/* Contacts are left only a few rounding units beyond the touch position:
 * right after a contact starts, the gap is numerically zero and rounding
 * noise in it must not end the contact again. */
static inline double fl_touch_band(const fl_ectx *x, const fl_elem *e)
{
    return 64 * 2.220446049250313e-16 * (fabs(fl_att_s(x, e, 0)) + fabs(fl_att_s(x, e, 1)) + 1e-300);
}

/* Dependency masks of compliant elements. */
#define DEP_S (FL_BIT(FL_J_S0) | FL_BIT(FL_J_S1))
#define DEP_V (FL_BIT(FL_J_V0) | FL_BIT(FL_J_V1))

#endif
