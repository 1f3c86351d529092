/* tables.h - interpolation in a column of a table, one definition of each
 * method of Modelica.Blocks.Types.Smoothness and Extrapolation, shared by
 * the time tables (blocks.c: CombiTimeTable, with their time events) and
 * the look-up tables of Modelica.Blocks.Tables (evaluated for the equation
 * layer through symbolic/func_native.c).
 *
 * Why slopes are computed where they are needed: every cubic Hermite
 * method of the MSL (Akima, Fritsch-Butland, Steffen, modified Akima)
 * sets the slope at a row from at most the two intervals on either side,
 * so an interval needs a handful of neighbouring rows and no table of
 * coefficients. The blocks stay stateless functions of their parameters,
 * and the arithmetic is that of ModelicaStandardTables: the slopes, then
 * y = y0 + ((c0 v + c1) v + c2) v over v = x - x0 in the interval. */
#ifndef FL_TABLES_H
#define FL_TABLES_H

/* Literals of the enumerations (1-based, in the order of model/value.c). */
enum {
    FL_SM_LINEAR = 1,      /* LinearSegments */
    FL_SM_AKIMA,           /* ContinuousDerivative */
    FL_SM_CONSTANT,        /* ConstantSegments */
    FL_SM_FRITSCH_BUTLAND, /* MonotoneContinuousDerivative1 */
    FL_SM_STEFFEN,         /* MonotoneContinuousDerivative2 */
    FL_SM_MAKIMA           /* ModifiedContinuousDerivative */
};
enum { FL_EX_HOLD = 1, FL_EX_LASTTWO, FL_EX_PERIODIC, FL_EX_NONE };

/* One ordinate column of a row-major table whose column 0 is the abscissa
 * (n rows, nc columns). The abscissae of a spline's rows increase
 * strictly. */
typedef struct fl_tcol {
    const double *d;
    int n, nc;
    int col;    /* the ordinate column, 0-based */
    int smooth; /* FL_SM_*, after fl_tab_method */
} fl_tcol;

static inline double fl_tcol_x(const fl_tcol *t, int i)
{
    return t->d[(long)i * t->nc];
}

static inline double fl_tcol_y(const fl_tcol *t, int i)
{
    return t->d[(long)i * t->nc + t->col];
}

/* The method a table of n rows uses: the splines need three rows and fall
 * back to LinearSegments below (as the MSL does). */
int fl_tab_method(int smooth, int n);
int fl_tab_is_spline(int smooth);

/* Index j in [0, n-2] of the interval of x: the last row j with x_j <= x
 * (0 left of the table, n-2 at and right of its end). n >= 2. */
int fl_tab_find(const fl_tcol *t, double x);

/* The cubic Hermite spline of interval j (x_j <= x <= x_{j+1}) at x:
 * value (order 0) or derivative (order 1, 2; 0 above). */
double fl_tab_spline(const fl_tcol *t, int j, double x, int order);

/* Extrapolation beyond the end `side` (-1: left of the first row, +1:
 * right of the last) with LastTwoPoints: the straight line through the two
 * end rows for LinearSegments and ConstantSegments, the end slope of the
 * spline otherwise. */
double fl_tab_extend(const fl_tcol *t, int side, double x, int order);

/* A one-dimensional look-up (Modelica.Blocks.Tables): value and dy/dx of
 * the column at x with the given extrapolation (the rows strictly
 * increasing). Returns 0, or -1 when x is outside the table and
 * extrapolation is NoExtrapolation (side in *out_side, -1 or +1). */
int fl_tab_lookup(const fl_tcol *t, int extrap, double x, double *y, double *dy, int *out_side);

/* A two-dimensional look-up of a matrix [0, u2 grid; u1 grid, values]
 * (nr rows, nc columns, both grids strictly increasing): bilinear
 * (LinearSegments) or piecewise constant (ConstantSegments) with the
 * extrapolation given; value and the partial derivatives. Returns 0, or
 * -1 outside with NoExtrapolation (*out_dim: 1 or 2, the input outside). */
int fl_tab_lookup2(const double *d, int nr, int nc, int smooth, int extrap, double u1, double u2, double *y,
                   double *dy1, double *dy2, int *out_dim);

#endif
