/* nvec.c - IDA's serial vector operations, compiled with flange.
 *
 * Debian's SUNDIALS 6.4 is built without optimisation: its serial vector
 * kernels (N_VLinearSum, N_VWrmsNorm, ...) keep every loop variable on the
 * stack, and on large models they took more time than the model itself
 * (the wagon chain at N = 1000: about half of the run, 29 % in the weighted
 * sum of squares alone). fl_nvec_fast() points a serial vector's standard
 * operations at the functions below; IDA's clones copy the table, so every
 * vector of an integrator made from it uses them.
 *
 * Each function does the same floating-point operations in the same order
 * as SUNDIALS' serial vector (the same special cases of the linear sum,
 * the same sequential sums), so results are bit-identical: only the
 * compiler's work differs. The fused and vector-array operations stay
 * unset, as in N_VNew_Serial: SUNDIALS then composes them from these. */
#include <math.h>

#include <nvector/nvector_serial.h>

#include "sim/nvec.h"

#define LEN(v) ((sunindextype)NV_LENGTH_S(v))
#define DATA(v) NV_DATA_S(v)

/* the special cases of z = a x + b y, as SUNDIALS takes them */
static void lin_sum(realtype a, N_Vector x, realtype b, N_Vector y, N_Vector z)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x), *yd = DATA(y);
    double *zd = DATA(z);
    if (b == 1.0 && z == y) { /* y += a x */
        double *w = DATA(y);
        if (a == 1.0)
            for (sunindextype i = 0; i < n; i++) w[i] += xd[i];
        else if (a == -1.0)
            for (sunindextype i = 0; i < n; i++) w[i] -= xd[i];
        else
            for (sunindextype i = 0; i < n; i++) w[i] += a * xd[i];
        return;
    }
    if (a == 1.0 && z == x) { /* x += b y */
        double *w = DATA(x);
        if (b == 1.0)
            for (sunindextype i = 0; i < n; i++) w[i] += yd[i];
        else if (b == -1.0)
            for (sunindextype i = 0; i < n; i++) w[i] -= yd[i];
        else
            for (sunindextype i = 0; i < n; i++) w[i] += b * yd[i];
        return;
    }
    if (a == 1.0 && b == 1.0) {
        for (sunindextype i = 0; i < n; i++) zd[i] = xd[i] + yd[i];
        return;
    }
    if (a == 1.0 && b == -1.0) {
        for (sunindextype i = 0; i < n; i++) zd[i] = xd[i] - yd[i];
        return;
    }
    if (a == -1.0 && b == 1.0) {
        for (sunindextype i = 0; i < n; i++) zd[i] = yd[i] - xd[i];
        return;
    }
    if (a == 1.0) { /* z = b y + x */
        for (sunindextype i = 0; i < n; i++) zd[i] = (b * yd[i]) + xd[i];
        return;
    }
    if (b == 1.0) { /* z = a x + y */
        for (sunindextype i = 0; i < n; i++) zd[i] = (a * xd[i]) + yd[i];
        return;
    }
    if (a == -1.0) { /* z = b y - x */
        for (sunindextype i = 0; i < n; i++) zd[i] = (b * yd[i]) - xd[i];
        return;
    }
    if (b == -1.0) { /* z = a x - y */
        for (sunindextype i = 0; i < n; i++) zd[i] = (a * xd[i]) - yd[i];
        return;
    }
    if (a == b) {
        for (sunindextype i = 0; i < n; i++) zd[i] = a * (xd[i] + yd[i]);
        return;
    }
    if (a == -b) {
        for (sunindextype i = 0; i < n; i++) zd[i] = a * (xd[i] - yd[i]);
        return;
    }
    for (sunindextype i = 0; i < n; i++) zd[i] = (a * xd[i]) + (b * yd[i]);
}

static void vconst(realtype c, N_Vector z)
{
    sunindextype n = LEN(z);
    double *zd = DATA(z);
    for (sunindextype i = 0; i < n; i++) zd[i] = c;
}

static void prod(N_Vector x, N_Vector y, N_Vector z)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x), *yd = DATA(y);
    double *zd = DATA(z);
    for (sunindextype i = 0; i < n; i++) zd[i] = xd[i] * yd[i];
}

static void vdiv(N_Vector x, N_Vector y, N_Vector z)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x), *yd = DATA(y);
    double *zd = DATA(z);
    for (sunindextype i = 0; i < n; i++) zd[i] = xd[i] / yd[i];
}

static void scale(realtype c, N_Vector x, N_Vector z)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x);
    double *zd = DATA(z);
    if (z == x)
        for (sunindextype i = 0; i < n; i++) zd[i] *= c;
    else if (c == 1.0)
        for (sunindextype i = 0; i < n; i++) zd[i] = xd[i];
    else if (c == -1.0)
        for (sunindextype i = 0; i < n; i++) zd[i] = -xd[i];
    else
        for (sunindextype i = 0; i < n; i++) zd[i] = c * xd[i];
}

static void vabs(N_Vector x, N_Vector z)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x);
    double *zd = DATA(z);
    for (sunindextype i = 0; i < n; i++) zd[i] = fabs(xd[i]);
}

static void inv(N_Vector x, N_Vector z)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x);
    double *zd = DATA(z);
    for (sunindextype i = 0; i < n; i++) zd[i] = 1.0 / xd[i];
}

static void add_const(N_Vector x, realtype b, N_Vector z)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x);
    double *zd = DATA(z);
    for (sunindextype i = 0; i < n; i++) zd[i] = xd[i] + b;
}

static realtype dot(N_Vector x, N_Vector y)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x), *yd = DATA(y);
    double sum = 0;
    for (sunindextype i = 0; i < n; i++) sum += xd[i] * yd[i];
    return sum;
}

static realtype max_norm(N_Vector x)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x);
    double m = 0;
    for (sunindextype i = 0; i < n; i++)
        if (fabs(xd[i]) > m) m = fabs(xd[i]);
    return m;
}

static realtype wsqr_sum(N_Vector x, N_Vector w)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x), *wd = DATA(w);
    double sum = 0;
    for (sunindextype i = 0; i < n; i++) {
        double p = xd[i] * wd[i];
        sum += p * p;
    }
    return sum;
}

static realtype wsqr_sum_mask(N_Vector x, N_Vector w, N_Vector id)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x), *wd = DATA(w), *idd = DATA(id);
    double sum = 0;
    for (sunindextype i = 0; i < n; i++)
        if (idd[i] > 0) {
            double p = xd[i] * wd[i];
            sum += p * p;
        }
    return sum;
}

static realtype wrms_norm(N_Vector x, N_Vector w)
{
    return sqrt(wsqr_sum(x, w) / (double)LEN(x));
}

static realtype wrms_norm_mask(N_Vector x, N_Vector w, N_Vector id)
{
    return sqrt(wsqr_sum_mask(x, w, id) / (double)LEN(x));
}

static realtype vmin(N_Vector x)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x);
    double m = xd[0];
    for (sunindextype i = 1; i < n; i++)
        if (xd[i] < m) m = xd[i];
    return m;
}

static realtype wl2_norm(N_Vector x, N_Vector w)
{
    return sqrt(wsqr_sum(x, w));
}

static realtype l1_norm(N_Vector x)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x);
    double sum = 0;
    for (sunindextype i = 0; i < n; i++) sum += fabs(xd[i]);
    return sum;
}

static void compare(realtype c, N_Vector x, N_Vector z)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x);
    double *zd = DATA(z);
    for (sunindextype i = 0; i < n; i++) zd[i] = fabs(xd[i]) >= c ? 1.0 : 0.0;
}

static booleantype inv_test(N_Vector x, N_Vector z)
{
    sunindextype n = LEN(x);
    const double *xd = DATA(x);
    double *zd = DATA(z);
    booleantype ok = SUNTRUE;
    for (sunindextype i = 0; i < n; i++) {
        if (xd[i] == 0.0)
            ok = SUNFALSE;
        else
            zd[i] = 1.0 / xd[i];
    }
    return ok;
}

static booleantype constr_mask(N_Vector c, N_Vector x, N_Vector m)
{
    sunindextype n = LEN(x);
    const double *cd = DATA(c), *xd = DATA(x);
    double *md = DATA(m);
    int violated = 0;
    for (sunindextype i = 0; i < n; i++) {
        md[i] = 0.0;
        if (cd[i] == 0.0) continue;
        if ((fabs(cd[i]) > 1.5 && xd[i] * cd[i] <= 0.0) || (fabs(cd[i]) > 0.5 && xd[i] * cd[i] < 0.0)) {
            md[i] = 1.0;
            violated = 1;
        }
    }
    return violated ? SUNFALSE : SUNTRUE;
}

static realtype min_quotient(N_Vector num, N_Vector denom)
{
    sunindextype n = LEN(num);
    const double *nd = DATA(num), *dd = DATA(denom);
    int first = 1;
    double m = BIG_REAL;
    for (sunindextype i = 0; i < n; i++) {
        if (dd[i] == 0.0) continue;
        double q = nd[i] / dd[i];
        if (first) {
            m = q;
            first = 0;
        } else {
            m = m < q ? m : q;
        }
    }
    return m;
}

void fl_nvec_fast(N_Vector v)
{
    if (!v || !v->ops || N_VGetVectorID(v) != SUNDIALS_NVEC_SERIAL) return;
    N_Vector_Ops o = v->ops;
    o->nvlinearsum = lin_sum;
    o->nvconst = vconst;
    o->nvprod = prod;
    o->nvdiv = vdiv;
    o->nvscale = scale;
    o->nvabs = vabs;
    o->nvinv = inv;
    o->nvaddconst = add_const;
    o->nvdotprod = dot;
    o->nvmaxnorm = max_norm;
    o->nvwrmsnormmask = wrms_norm_mask;
    o->nvwrmsnorm = wrms_norm;
    o->nvmin = vmin;
    o->nvwl2norm = wl2_norm;
    o->nvl1norm = l1_norm;
    o->nvcompare = compare;
    o->nvinvtest = inv_test;
    o->nvconstrmask = constr_mask;
    o->nvminquotient = min_quotient;
    o->nvdotprodlocal = dot;
    o->nvmaxnormlocal = max_norm;
    o->nvminlocal = vmin;
    o->nvl1normlocal = l1_norm;
    o->nvinvtestlocal = inv_test;
    o->nvconstrmasklocal = constr_mask;
    o->nvminquotientlocal = min_quotient;
    o->nvwsqrsumlocal = wsqr_sum;
    o->nvwsqrsummasklocal = wsqr_sum_mask;
}
