/* func_native.c - the functions of the bundled Modelica text whose body is
 * C: the look-ups of Modelica.Blocks.Tables (CombiTable1Ds, CombiTable1Dv,
 * CombiTable2Ds) in the tables their parameter tableID names.
 *
 * Why: the table blocks are written as Modelica on the equation layer (so
 * that their inputs and outputs connect like every other block's), but the
 * interpolation is the C of components/tables.c, one definition shared
 * with CombiTimeTable. A block's equations call
 * Modelica.Blocks.Tables.Internal.getTable1DValue(tableID, i, u) like any
 * function (an SX_CALL node, its partial derivative by the tangent), and
 * the table itself is kept once in the model's function registry, where
 * tableID, an Integer parameter, finds it: the call passes three numbers,
 * not the table. Tables are added while the model is instantiated
 * (fl_ufunc_table_add, from model/tables.c) and only read afterwards, by
 * any number of simulation threads. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "components/tables.h"
#include "func_int.h"

enum { N_VALUE1D = 1, N_UMIN1D, N_UMAX1D, N_VALUE2D, N_UMIN2D, N_UMAX2D };

static const char *const native_paths[] = {
    NULL,
    "Modelica.Blocks.Tables.Internal.getTable1DValue",
    "Modelica.Blocks.Tables.Internal.getTable1DAbscissaUmin",
    "Modelica.Blocks.Tables.Internal.getTable1DAbscissaUmax",
    "Modelica.Blocks.Tables.Internal.getTable2DValue",
    "Modelica.Blocks.Tables.Internal.getTable2DAbscissaUmin",
    "Modelica.Blocks.Tables.Internal.getTable2DAbscissaUmax",
};

int fl_native_find(const char *path)
{
    for (int k = 1; k < (int)(sizeof native_paths / sizeof native_paths[0]); k++)
        if (strcmp(path, native_paths[k]) == 0) return k;
    return 0;
}

void fl_native_tables_free(fl_ufuncs *r)
{
    for (size_t i = 0; i < r->tables.n; i++) {
        free(r->tables.v[i].d);
        free(r->tables.v[i].cols);
    }
    FL_VEC_FREE(r->tables);
    fl_map_free(&r->table_keys);
}

/* ---- adding tables ------------------------------------------------------------- */

static const char *lit(const char *type, int k)
{
    const fl_enum_type *t = fl_enum_find(type);
    return t && k >= 1 && k <= t->n ? t->lits[k - 1] : "?";
}

/* Grid values g[k*stride], k = 0..n-1, strictly increasing; else reported. */
static int check_grid(const double *g, long stride, int n, const char *inst, const char *what, int first, fl_loc loc,
                      fl_diag *d)
{
    for (int k = 1; k < n; k++) {
        double a = g[(k - 1) * stride], b = g[k * stride];
        if (b > a) continue;
        char va[40], vb[40];
        fl_fmt_double(va, sizeof va, a);
        fl_fmt_double(vb, sizeof vb, b);
        fl_err(d, loc, "%s.table: the %s must be strictly increasing: element %d (%s) is not greater than element %d (%s)",
               inst, what, first + k, vb, first + k - 1, va);
        return -1;
    }
    return 0;
}

static int check_table(const fl_value *tab, int dims, const fl_value *cols, int smooth, int extrap, const char *inst,
                       fl_loc loc, fl_diag *d)
{
    if (tab->kind != V_ARRAY || tab->ndims != 2) {
        fl_err(d, loc, "%s.table: must be a matrix", inst);
        return -1;
    }
    int nr = tab->dim[0], nc = tab->dim[1];
    if (dims == 1 && (nr < 1 || nc < 2)) {
        fl_err(d, loc, "%s.table: has size %d x %d; a 1D table needs at least one row and two columns (abscissa, "
                       "values)",
               inst, nr, nc);
        return -1;
    }
    if (dims == 2 && (nr < 2 || nc < 2)) {
        fl_err(d, loc, "%s.table: has size %d x %d; a 2D table needs at least two rows and two columns (the u2 grid "
                       "in row 1, the u1 grid in column 1)",
               inst, nr, nc);
        return -1;
    }
    for (size_t i = 0; i < (size_t)nr * (size_t)nc; i++)
        if (!isfinite(tab->data[i])) {
            fl_err(d, loc, "%s.table: element [%zu, %zu] is not a finite number", inst, i / (size_t)nc + 1,
                   i % (size_t)nc + 1);
            return -1;
        }
    if (dims == 1) {
        if (check_grid(tab->data, nc, nr, inst, "values of column 1", 1, loc, d)) return -1;
        size_t n = fl_value_count(cols);
        if (n == 0) {
            fl_err(d, loc, "%s.columns: is empty, so there is no output", inst);
            return -1;
        }
        for (size_t i = 0; i < n; i++) {
            double c = cols->data[i];
            if (c == floor(c) && c >= 1 && c <= nc) continue;
            char v[40];
            fl_fmt_double(v, sizeof v, c);
            fl_err(d, loc, "%s.columns[%zu] = %s is out of range: it must be a column number from 1 to %d", inst, i + 1,
                   v, nc);
            return -1;
        }
        if (extrap == FL_EX_PERIODIC && nr > 1 && !(tab->data[(size_t)(nr - 1) * (size_t)nc] > tab->data[0])) {
            fl_err(d, loc, "%s.table: Periodic extrapolation needs an abscissa range of positive length", inst);
            return -1;
        }
        return 0;
    }
    if (smooth != FL_SM_LINEAR && smooth != FL_SM_CONSTANT) {
        fl_err(d, loc, "%s.smoothness = %s is not supported for 2D tables (LinearSegments and ConstantSegments are)",
               inst, lit("Modelica.Blocks.Types.Smoothness", smooth));
        return -1;
    }
    if (check_grid(tab->data + nc, nc, nr - 1, inst, "u1 grid (column 1)", 2, loc, d)) return -1;
    if (check_grid(tab->data + 1, 1, nc - 1, inst, "u2 grid (row 1)", 2, loc, d)) return -1;
    return 0;
}


static int same_table(const utable *t, const utable *u)
{
    return t->nr == u->nr && t->nc == u->nc && t->dims == u->dims && t->smooth == u->smooth &&
           t->extrap == u->extrap && t->ncols == u->ncols &&
           memcmp(t->d, u->d, sizeof(double) * (size_t)t->nr * (size_t)t->nc) == 0 &&
           (!t->ncols || memcmp(t->cols, u->cols, sizeof(int) * (size_t)t->ncols) == 0);
}

int fl_ufunc_table_add(fl_ufuncs *r, const fl_value *tab, int dims, const fl_value *cols, int smooth, int extrap,
                       const char *inst, fl_loc loc, fl_diag *d)
{
    if (check_table(tab, dims, cols, smooth, extrap, inst, loc, d)) return -1;
    utable t;
    memset(&t, 0, sizeof t);
    t.nr = tab->dim[0];
    t.nc = tab->dim[1];
    t.dims = dims;
    t.smooth = dims == 1 ? fl_tab_method(smooth, t.nr) : smooth;
    t.extrap = extrap;
    size_t n = (size_t)t.nr * (size_t)t.nc;
    t.d = fl_xmalloc(sizeof(double) * n);
    memcpy(t.d, tab->data, sizeof(double) * n);
    if (dims == 1) {
        t.ncols = (int)fl_value_count(cols);
        t.cols = fl_xmalloc(sizeof(int) * (size_t)t.ncols);
        for (int i = 0; i < t.ncols; i++) t.cols[i] = (int)cols->data[i] - 1;
    }
    uint64_t h = FL_FNV1A_INIT; /* over the table and its interpretation */
    int meta[6] = {t.nr, t.nc, t.dims, t.smooth, t.extrap, t.ncols};
    h = fl_fnv1a(h, meta, sizeof meta);
    h = fl_fnv1a(h, t.d, sizeof(double) * n);
    if (t.ncols) h = fl_fnv1a(h, t.cols, sizeof(int) * (size_t)t.ncols);
    /* equal hashes chain through their order of arrival: key "h#k" */
    for (int k = 0;; k++) {
        char key[48];
        snprintf(key, sizeof key, "%016llx#%d", (unsigned long long)h, k);
        int i = fl_map_get(&r->table_keys, key);
        if (i < 0) {
            FL_VEC_PUSH(r->tables, t);
            fl_map_put(&r->table_keys, key, (int)r->tables.n - 1);
            return (int)r->tables.n;
        }
        if (same_table(&r->tables.v[i], &t)) {
            free(t.d);
            free(t.cols);
            return i + 1;
        }
    }
}

/* ---- the look-ups ---------------------------------------------------------------- */

static const utable *table_of(const fl_ufuncs *r, double id, int dims, char *msg, size_t cap)
{
    if (!(id >= 1 && id <= (double)r->tables.n) || id != floor(id)) {
        snprintf(msg, cap, "no table with id %g", id);
        return NULL;
    }
    const utable *t = &r->tables.v[(size_t)id - 1];
    if (t->dims != dims) {
        snprintf(msg, cap, "table %g is not a %dD table", id, dims);
        return NULL;
    }
    return t;
}

/* Modelica.Blocks.Tables' wording for an abscissa outside the table. */
static void extrapolation_error(char *msg, size_t cap, const char *u, double x, int side, const char *bound, double b)
{
    snprintf(msg, cap,
             "Extrapolation error: the value %s (= %g) must be %s or equal than the %s abscissa value %s (= %g) "
             "defined in the table (extrapolation = NoExtrapolation)",
             u, x, side < 0 ? "greater" : "less", side < 0 ? "minimum" : "maximum", bound, b);
}

static int value1d(const utable *t, const ufarg *args, int ad, double *y, double *dy, char *msg, size_t cap)
{
    double icol = args[1].x, u = args[2].x;
    if (!(icol >= 1 && icol <= t->ncols) || icol != floor(icol)) {
        snprintf(msg, cap, "output %g of a table with %d output%s", icol, t->ncols, t->ncols == 1 ? "" : "s");
        return -1;
    }
    fl_tcol c = {t->d, t->nr, t->nc, t->cols[(int)icol - 1], t->smooth};
    double slope;
    int side = 0;
    if (fl_tab_lookup(&c, t->extrap, u, y, &slope, &side)) {
        int end = side < 0 ? 0 : t->nr - 1;
        extrapolation_error(msg, cap, "u", u, side, side < 0 ? "u_min" : "u_max", fl_tcol_x(&c, end));
        return -1;
    }
    *dy = ad ? slope * args[2].dx : 0;
    return 1;
}

static int value2d(const utable *t, const ufarg *args, int ad, double *y, double *dy, char *msg, size_t cap)
{
    double u1 = args[1].x, u2 = args[2].x, d1, d2;
    int dim = 0;
    if (fl_tab_lookup2(t->d, t->nr, t->nc, t->smooth, t->extrap, u1, u2, y, &d1, &d2, &dim)) {
        double x = dim == 1 ? u1 : u2;
        double lo = dim == 1 ? t->d[t->nc] : t->d[1];
        double hi = dim == 1 ? t->d[(size_t)(t->nr - 1) * (size_t)t->nc] : t->d[t->nc - 1];
        int side = x < lo ? -1 : 1;
        char bound[16];
        snprintf(bound, sizeof bound, "u_%s[%d]", side < 0 ? "min" : "max", dim);
        extrapolation_error(msg, cap, dim == 1 ? "u1" : "u2", x, side, bound, side < 0 ? lo : hi);
        return -1;
    }
    *dy = ad ? d1 * args[1].dx + d2 * args[2].dx : 0;
    return 1;
}

int fl_native_run(const fl_ufuncs *r, int native, const ufarg *args, int nargs, int ad, double *y, double *dy,
                  char *msg, size_t cap)
{
    if (nargs < 1) {
        snprintf(msg, cap, "missing table id");
        return -1;
    }
    int dims = native <= N_UMAX1D ? 1 : 2;
    const utable *t = table_of(r, args[0].x, dims, msg, cap);
    if (!t) return -1;
    dy[0] = dy[1] = 0;
    switch (native) {
    case N_VALUE1D:
    case N_VALUE2D:
        if (nargs != 3) {
            snprintf(msg, cap, "a table look-up takes 3 arguments, not %d", nargs);
            return -1;
        }
        return native == N_VALUE1D ? value1d(t, args, ad, y, dy, msg, cap) : value2d(t, args, ad, y, dy, msg, cap);
    case N_UMIN1D: y[0] = t->d[0]; return 1;
    case N_UMAX1D: y[0] = t->d[(size_t)(t->nr - 1) * (size_t)t->nc]; return 1;
    case N_UMIN2D:
        y[0] = t->d[t->nc];
        y[1] = t->d[1];
        return 2;
    case N_UMAX2D:
        y[0] = t->d[(size_t)(t->nr - 1) * (size_t)t->nc];
        y[1] = t->d[t->nc - 1];
        return 2;
    default: snprintf(msg, cap, "no native function %d", native); return -1;
    }
}
