/* tables.c - the interpolation methods of Modelica.Blocks.Types.Smoothness
 * and the extrapolations of Modelica.Blocks.Types.Extrapolation, defined
 * once for every table of flange (see tables.h for why slopes are computed
 * per interval). The definitions are those of ModelicaStandardTables:
 *
 *   Akima (ContinuousDerivative): the slope at row k weighs the divided
 *     differences s[k-1] and s[k] by |s[k+1] - s[k]| and |s[k-1] - s[k-2]|;
 *     beyond the ends the differences continue linearly (s[-1] = 2 s[0] -
 *     s[1], s[-2] = 3 s[0] - 2 s[1], likewise at the right end).
 *   Modified Akima (ModifiedContinuousDerivative): the same with the
 *     weights |s[k+1] - s[k]| + |s[k+1] + s[k]|/2 and |s[k-1] - s[k-2]| +
 *     |s[k-1] + s[k-2]|/2, which keeps flat stretches flat.
 *   Fritsch-Butland (MonotoneContinuousDerivative1): the weighted harmonic
 *     mean 3 (h0 + h1) / ((h0 + 2 h1)/s[k-1] + (h1 + 2 h0)/s[k]) inside,
 *     zero at extrema and flat differences, s[0] and s[n-2] at the ends.
 *   Steffen (MonotoneContinuousDerivative2): the slope of the parabola
 *     through three rows, limited to twice the smaller neighbouring
 *     difference; zero at extrema, the end differences at the ends.
 * Splines need three rows; with fewer the table is linear (fl_tab_method). */
#include "tables.h"

#include <math.h>

int fl_tab_is_spline(int smooth)
{
    return smooth == FL_SM_AKIMA || smooth == FL_SM_FRITSCH_BUTLAND || smooth == FL_SM_STEFFEN ||
           smooth == FL_SM_MAKIMA;
}

int fl_tab_method(int smooth, int n)
{
    return fl_tab_is_spline(smooth) && n <= 2 ? FL_SM_LINEAR : smooth;
}

int fl_tab_find(const fl_tcol *t, double x)
{
    int lo = 0, hi = t->n - 1; /* x_lo <= x < x_hi, as far as the rows go */
    if (x < fl_tcol_x(t, 1)) return 0;
    if (x >= fl_tcol_x(t, t->n - 2)) return t->n - 2;
    while (hi > lo + 1) {
        int mid = lo + (hi - lo) / 2;
        if (x < fl_tcol_x(t, mid)) hi = mid;
        else lo = mid;
    }
    return lo;
}

/* ---- slopes at the rows ----------------------------------------------- */

/* Divided difference of interval i (rows i, i+1), 0 <= i <= n-2. */
static double diff(const fl_tcol *t, int i)
{
    return (fl_tcol_y(t, i + 1) - fl_tcol_y(t, i)) / (fl_tcol_x(t, i + 1) - fl_tcol_x(t, i));
}

/* The same for -2 <= i <= n, continued linearly beyond the ends (Akima). */
static double diff_ext(const fl_tcol *t, int i)
{
    int last = t->n - 2;
    if (i < 0) return (1 - i) * diff(t, 0) + i * diff(t, 1);            /* 2 s0 - s1, 3 s0 - 2 s1 */
    if (i > last) return (i - last + 1) * diff(t, last) - (i - last) * diff(t, last - 1);
    return diff(t, i);
}

/* Akima's weighting of the differences around row k; modified: the
 * weights of the modified method. */
static double akima_slope(const fl_tcol *t, int k, int modified)
{
    double sm2 = diff_ext(t, k - 2), sm1 = diff_ext(t, k - 1), s0 = diff_ext(t, k), s1 = diff_ext(t, k + 1);
    double wr = fabs(s1 - s0), wl = fabs(sm1 - sm2);
    if (modified) {
        wr += 0.5 * fabs(s1 + s0);
        wl += 0.5 * fabs(sm1 + sm2);
    }
    double w = wr + wl;
    if (!(w > 0)) return 0.5 * sm1 + 0.5 * s0;
    double a = wl / w;
    return (1 - a) * sm1 + a * s0;
}

static int no_monotone_slope(double a, double b)
{
    return a == 0 || b == 0 || (a < 0 && b > 0) || (a > 0 && b < 0);
}

static double fritsch_butland_slope(const fl_tcol *t, int k)
{
    if (k == 0) return diff(t, 0);
    if (k == t->n - 1) return diff(t, t->n - 2);
    double a = diff(t, k - 1), b = diff(t, k);
    if (no_monotone_slope(a, b)) return 0;
    double h0 = fl_tcol_x(t, k) - fl_tcol_x(t, k - 1), h1 = fl_tcol_x(t, k + 1) - fl_tcol_x(t, k);
    return 3 * (h0 + h1) / ((h0 + 2 * h1) / a + (h1 + 2 * h0) / b);
}

static double steffen_slope(const fl_tcol *t, int k)
{
    if (k == 0) return diff(t, 0);
    if (k == t->n - 1) return diff(t, t->n - 2);
    double a = diff(t, k - 1), b = diff(t, k);
    if (no_monotone_slope(a, b)) return 0;
    double h0 = fl_tcol_x(t, k) - fl_tcol_x(t, k - 1), h1 = fl_tcol_x(t, k + 1) - fl_tcol_x(t, k);
    double p = (a * h1 + b * h0) / (h0 + h1);
    double half = 0.5 * fabs(p), fa = fabs(a), fb = fabs(b);
    if (half > fa || half > fb) p = (a > 0 ? 2 : -2) * (fa < fb ? fa : fb);
    return p;
}

static double row_slope(const fl_tcol *t, int k)
{
    switch (t->smooth) {
    case FL_SM_AKIMA: return akima_slope(t, k, 0);
    case FL_SM_MAKIMA: return akima_slope(t, k, 1);
    case FL_SM_FRITSCH_BUTLAND: return fritsch_butland_slope(t, k);
    case FL_SM_STEFFEN: return steffen_slope(t, k);
    default: return 0;
    }
}

/* ---- evaluation --------------------------------------------------------- */

double fl_tab_spline(const fl_tcol *t, int j, double x, int order)
{
    double x0 = fl_tcol_x(t, j), h = fl_tcol_x(t, j + 1) - x0;
    double s = diff(t, j), m0 = row_slope(t, j), m1 = row_slope(t, j + 1);
    double c0 = (m0 + m1 - 2 * s) / (h * h), c1 = (3 * s - 2 * m0 - m1) / h, c2 = m0;
    double v = x - x0;
    switch (order) {
    case 0: return fl_tcol_y(t, j) + ((c0 * v + c1) * v + c2) * v;
    case 1: return (3 * c0 * v + 2 * c1) * v + c2;
    case 2: return 6 * c0 * v + 2 * c1;
    case 3: return 6 * c0;
    default: return 0;
    }
}

double fl_tab_extend(const fl_tcol *t, int side, double x, int order)
{
    int n = t->n;
    if (fl_tab_is_spline(t->smooth)) {
        /* the tangent at the end row */
        int end = side < 0 ? 0 : n - 1;
        double slope = side < 0 ? row_slope(t, 0) : fl_tab_spline(t, n - 2, fl_tcol_x(t, n - 1), 1);
        if (order > 1) return 0;
        return order ? slope : fl_tcol_y(t, end) + slope * (x - fl_tcol_x(t, end));
    }
    int a = side < 0 ? 0 : n - 2;
    double x0 = fl_tcol_x(t, a), x1 = fl_tcol_x(t, a + 1), y0 = fl_tcol_y(t, a), y1 = fl_tcol_y(t, a + 1);
    if (order > 1) return 0;
    if (order == 1) return (y1 - y0) / (x1 - x0);
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

/* Value and slope inside the table (x_0 <= x <= x_{n-1}). */
static void inside(const fl_tcol *t, double x, double *y, double *dy)
{
    int j = fl_tab_find(t, x);
    switch (t->smooth) {
    case FL_SM_CONSTANT:
        if (x >= fl_tcol_x(t, j + 1)) j++;
        *y = fl_tcol_y(t, j);
        *dy = 0;
        return;
    case FL_SM_LINEAR: {
        double x0 = fl_tcol_x(t, j), x1 = fl_tcol_x(t, j + 1), y0 = fl_tcol_y(t, j), y1 = fl_tcol_y(t, j + 1);
        *dy = (y1 - y0) / (x1 - x0);
        *y = y0 + (y1 - y0) * (x - x0) / (x1 - x0);
        return;
    }
    default:
        *y = fl_tab_spline(t, j, x, 0);
        *dy = fl_tab_spline(t, j, x, 1);
        return;
    }
}

/* x moved into [lo, hi] by whole periods hi - lo. */
static double wrap(double x, double lo, double hi)
{
    double T = hi - lo;
    if (x >= lo && x <= hi) return x;
    double r = x - T * floor((x - lo) / T);
    return r < lo ? lo : r > hi ? hi : r;
}

int fl_tab_lookup(const fl_tcol *t, int extrap, double x, double *y, double *dy, int *out_side)
{
    int n = t->n;
    if (n == 1) {
        *y = fl_tcol_y(t, 0);
        *dy = 0;
        return 0;
    }
    double lo = fl_tcol_x(t, 0), hi = fl_tcol_x(t, n - 1);
    int side = x < lo ? -1 : x > hi ? 1 : 0;
    if (extrap == FL_EX_PERIODIC) {
        inside(t, wrap(x, lo, hi), y, dy);
        return 0;
    }
    if (!side) {
        inside(t, x, y, dy);
        return 0;
    }
    switch (extrap) {
    case FL_EX_LASTTWO:
        *y = fl_tab_extend(t, side, x, 0);
        *dy = fl_tab_extend(t, side, x, 1);
        return 0;
    case FL_EX_NONE:
        if (out_side) *out_side = side;
        *y = fl_tcol_y(t, side < 0 ? 0 : n - 1);
        *dy = 0;
        return -1;
    default: /* HoldLastPoint */
        *y = fl_tcol_y(t, side < 0 ? 0 : n - 1);
        *dy = 0;
        return 0;
    }
}

/* ---- two dimensions ----------------------------------------------------- */

/* One axis of a 2D table: n grid values g[k*stride], k = 0..n-1. Finds the
 * interval (*j, with the weight *w of its upper end and dw/du in *dw) of u
 * under the extrapolation; constant: the grid point at or below u instead
 * (*w 0 or 1). Returns 0, or -1 outside with NoExtrapolation. */
static int axis(const double *g, int stride, int n, int smooth, int extrap, double u, int *j, double *w, double *dw)
{
    double lo = g[0], hi = g[(long)(n - 1) * stride];
    *j = 0;
    *w = 0;
    *dw = 0;
    if (n == 1) return 0;
    int out = u < lo || u > hi;
    if (out && extrap == FL_EX_NONE) return -1;
    if (extrap == FL_EX_PERIODIC) {
        u = wrap(u, lo, hi);
        out = 0;
    } else if (out && extrap == FL_EX_HOLD) {
        *j = u < lo ? 0 : n - 2;
        *w = u < lo ? 0 : 1;
        return 0;
    }
    int a = 0, b = n - 1;
    if (u < lo) b = 1;
    else if (u >= g[(long)(n - 2) * stride]) a = n - 2;
    while (b > a + 1) {
        int m = a + (b - a) / 2;
        if (u < g[(long)m * stride]) b = m;
        else a = m;
    }
    *j = a;
    double g0 = g[(long)a * stride], g1 = g[(long)(a + 1) * stride];
    if (smooth == FL_SM_CONSTANT && !out) {
        *w = u >= g1 ? 1 : 0;
        return 0;
    }
    *w = (u - g0) / (g1 - g0);
    *dw = 1 / (g1 - g0);
    return 0;
}

int fl_tab_lookup2(const double *d, int nr, int nc, int smooth, int extrap, double u1, double u2, double *y,
                   double *dy1, double *dy2, int *out_dim)
{
    int j1, j2;
    double w1, w2, dw1, dw2;
    /* the u1 grid is column 0 below row 0, the u2 grid row 0 right of column 0 */
    if (axis(d + nc, nc, nr - 1, smooth, extrap, u1, &j1, &w1, &dw1)) {
        if (out_dim) *out_dim = 1;
        *y = *dy1 = *dy2 = 0;
        return -1;
    }
    if (axis(d + 1, 1, nc - 1, smooth, extrap, u2, &j2, &w2, &dw2)) {
        if (out_dim) *out_dim = 2;
        *y = *dy1 = *dy2 = 0;
        return -1;
    }
    int r0 = 1 + j1, r1 = nr > 2 ? r0 + 1 : r0, c0 = 1 + j2, c1 = nc > 2 ? c0 + 1 : c0;
    double y00 = d[(long)r0 * nc + c0], y01 = d[(long)r0 * nc + c1];
    double y10 = d[(long)r1 * nc + c0], y11 = d[(long)r1 * nc + c1];
    double a = y00 + w2 * (y01 - y00), b = y10 + w2 * (y11 - y10);
    *y = a + w1 * (b - a);
    *dy1 = dw1 * (b - a);
    *dy2 = dw2 * ((y01 - y00) + w1 * ((y11 - y10) - (y01 - y00)));
    return 0;
}
