/* plot.c - plots of result files (CSV or MAT) with PLplot (cairo devices:
 * PNG, SVG, PDF): signals over time or over another signal (phase plots),
 * of one result or of several overlaid, in one panel (overlay) or one
 * panel per unit (stacked), with axes labelled by name and unit (from
 * RESULT.csv.units when present, from the descriptions of a MAT file) and
 * a legend. What is drawn is a list of series (label, x, y, unit): each
 * result file is read by read_result, the one place that knows the
 * formats, into series of its own (a file may give several series of one
 * signal). The picture is drawn into a temporary file and renamed (or
 * copied) into place when complete (target.c). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <plplot.h>

#include "output/csvread.h"
#include "output/target.h"
#include "sweep/table.h"
#include "util/diag.h"
#include "util/util.h"

/* line colours (cmap0 from index 2; 0 is the background, 1 the axes) */
static const int palette[][3] = {
    {31, 119, 180}, {214, 39, 40}, {44, 160, 44}, {255, 127, 14}, {148, 103, 189},
    {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207},
};
#define NPAL ((int)(sizeof palette / sizeof palette[0]))
#define GRID_COLOR (2 + NPAL)

/* ---- the data: a list of series ------------------------------------------ */

/* One line of the picture. x and y point into data a kept entry of the
 * plotting owns (the columns of a result read once), so that signals of
 * hundreds of megabytes are not copied. */
typedef struct series {
    char *var;   /* the signal's name */
    char *tag;   /* what tells this series from the file's other series of
                    var (a run of a study); NULL when the file has one */
    char *unit;  /* "" when the file does not say */
    char *label; /* the legend entry, made once every file is read */
    int file;    /* index of the result file it comes from */
    size_t n;
    const double *x, *y;
} series;

typedef struct kept {
    void *p;
    void (*free)(void *);
} kept;

/* ---- units side file ---------------------------------------------------- */

typedef struct units {
    int n;
    char **names, **units;
} units;

static void units_read(const char *csv, units *u)
{
    memset(u, 0, sizeof *u);
    char *path = fl_xsprintf("%s.units", csv);
    FILE *f = fopen(path, "r");
    free(path);
    if (!f) return;
    fl_cleanup cl; /* out of memory: the file is closed (the caller frees u) */
    fl_cleanup_push(&cl, fl_fclose_cleanup, f);
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *comma = strchr(line, ',');
        if (!comma || strcmp(line, "variable,unit") == 0) continue;
        *comma = '\0';
        u->names = fl_xrealloc(u->names, sizeof(char *) * (size_t)(u->n + 1));
        u->units = fl_xrealloc(u->units, sizeof(char *) * (size_t)(u->n + 1));
        u->names[u->n] = fl_xstrdup(line);
        u->units[u->n] = fl_xstrdup(comma + 1);
        u->n++;
    }
    fl_cleanup_pop(&cl);
    fclose(f);
}

/* A MAT result carries its units (from the descriptions). */
static void units_from(const fl_csv *c, units *u)
{
    memset(u, 0, sizeof *u);
    u->names = fl_xcalloc((size_t)c->ncols, sizeof(char *));
    u->units = fl_xcalloc((size_t)c->ncols, sizeof(char *));
    for (int j = 0; j < c->ncols; j++, u->n++) {
        u->names[j] = fl_xstrdup(c->names[j]);
        u->units[j] = fl_xstrdup(c->units[j] ? c->units[j] : "");
    }
}

static const char *units_of(const units *u, const char *name)
{
    for (int i = 0; i < u->n; i++)
        if (strcmp(u->names[i], name) == 0) return u->units[i];
    return "";
}

static void units_free(units *u)
{
    for (int i = 0; i < u->n; i++) {
        free(u->names[i]);
        free(u->units[i]);
    }
    free(u->names);
    free(u->units);
}

/* ---- PLplot failures ---------------------------------------------------- */

/* PLplot ends the process on a fatal error unless its exit handler does
 * not return; everything is checked before plotting, so this is the last
 * resort that turns such an error into a message. */
static jmp_buf plot_failed;
static char plot_error[256];

static int on_plplot_exit(const char *msg)
{
    snprintf(plot_error, sizeof plot_error, "%s", msg ? msg : "unknown PLplot error");
    longjmp(plot_failed, 1);
}

static const char *device_for(const char *out)
{
    const char *dot = strrchr(out, '.');
    if (!dot) return NULL;
    if (strcmp(dot, ".png") == 0) return "pngcairo";
    if (strcmp(dot, ".svg") == 0) return "svgcairo";
    if (strcmp(dot, ".pdf") == 0) return "pdfcairo";
    return NULL;
}

static int device_available(const char *dev)
{
    /* plgDevs fills arrays of the size given in n */
    const char *menu_v[128], *names_v[128];
    const char **menu = menu_v, **names = names_v;
    int n = 128;
    plgDevs(&menu, &names, &n);
    int found = 0;
    for (int i = 0; i < n && !found; i++) found = strcmp(names[i], dev) == 0;
    return found;
}

/* ---- drawing ------------------------------------------------------------ */

static void range_of(const double *v, size_t n, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < *lo) *lo = v[i];
        if (v[i] > *hi) *hi = v[i];
    }
}

/* a range with some air around the data, never empty */
static void pad_range(double *lo, double *hi, double frac)
{
    double span = *hi - *lo;
    if (!(span > 1e-12 * fmax(fabs(*lo), fabs(*hi)))) {
        double c = 0.5 * (*lo + *hi), w = fabs(c) > 0 ? 0.05 * fabs(c) : 1;
        *lo = c - w;
        *hi = c + w;
        return;
    }
    *lo -= frac * span;
    *hi += frac * span;
}

static char *axis_label(const char *name, const char *unit)
{
    return unit && unit[0] ? fl_xsprintf("%s [%s]", name, unit) : fl_xstrdup(name);
}

/* what a panel of several signals with this unit shows */
static const char *quantity_of(const char *unit)
{
    static const char *const map[][2] = {{"m", "position"}, {"m/s", "velocity"}, {"m/s2", "acceleration"},
                                         {"N", "force"},    {"W", "power"},      {"J", "energy"},
                                         {"s", "time"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i][0], unit) == 0) return map[i][1];
    return "";
}

/* One panel: the series s[0..n), in viewport [y0, y1] of the page; x tick
 * labels only on the bottom panel; first_color is the colour of s[0]. */
static void draw_panel(const series *s, int n, const char *xlabel, double xmin, double xmax, int first_color,
                       double y0, double y1, int bottom, int top, const char *title)
{
    double ymin = INFINITY, ymax = -INFINITY;
    for (int k = 0; k < n; k++) {
        double lo, hi;
        range_of(s[k].y, s[k].n, &lo, &hi);
        ymin = fmin(ymin, lo);
        ymax = fmax(ymax, hi);
    }
    pad_range(&ymin, &ymax, 0.05);
    plvpor(0.12, 0.95, y0, y1);
    plwind(xmin, xmax, ymin, ymax);
    plcol0(GRID_COLOR);
    plwidth(0.5);
    plbox("g", 0, 0, "g", 0, 0);
    plcol0(1);
    plwidth(1);
    plbox(bottom ? "bcnst" : "bcst", 0, 0, "bcnstv", 0, 0);
    /* y label: the signal (one, also when drawn from several files) or the
     * unit (several, named in the legend) */
    int one_var = 1;
    for (int k = 1; k < n && one_var; k++) one_var = strcmp(s[k].var, s[0].var) == 0;
    char *ylabel = one_var ? axis_label(s[0].var, s[0].unit)
                           : (s[0].unit[0] ? fl_xsprintf("%s [%s]", quantity_of(s[0].unit), s[0].unit)
                                           : fl_xstrdup(""));
    pllab(bottom ? xlabel : "", ylabel, top && title ? title : "");
    free(ylabel);
    plwidth(1.6);
    for (int k = 0; k < n; k++) {
        plcol0(2 + (first_color + k) % NPAL);
        plline((PLINT)s[k].n, s[k].x, s[k].y);
    }
    plwidth(1);
    if (n > 1) {
        PLINT *opt = fl_xcalloc((size_t)n, sizeof(PLINT)), *lcol = fl_xcalloc((size_t)n, sizeof(PLINT));
        PLINT *lsty = fl_xcalloc((size_t)n, sizeof(PLINT)), *tcol = fl_xcalloc((size_t)n, sizeof(PLINT));
        PLFLT *lw = fl_xcalloc((size_t)n, sizeof(PLFLT));
        const char **text = fl_xcalloc((size_t)n, sizeof(char *));
        for (int k = 0; k < n; k++) {
            opt[k] = PL_LEGEND_LINE;
            lcol[k] = 2 + (first_color + k) % NPAL;
            lsty[k] = 1;
            lw[k] = 1.6;
            tcol[k] = 1;
            text[k] = s[k].label;
        }
        PLFLT lwidth, lheight;
        pllegend(&lwidth, &lheight, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX,
                 PL_POSITION_TOP | PL_POSITION_RIGHT | PL_POSITION_INSIDE, 0.01, 0.01, 0.08, 0, 1, 1, 0, 0, n, opt,
                 0.8, 0.8, 1.8, 0, tcol, text, NULL, NULL, NULL, NULL, lcol, lsty, lw, NULL, NULL, NULL, NULL);
        free(opt);
        free(lcol);
        free(lsty);
        free(tcol);
        free(lw);
        free(text);
    }
}

/* The panels: every series in one, or one per unit (in the order the
 * units first appear); timed: the abscissa is time (no air around it). */
static void draw(const series *s, int n, const char *xlabel, int timed, fl_plot_layout layout, const char *title)
{
    double xmin = INFINITY, xmax = -INFINITY;
    for (int k = 0; k < n; k++) {
        double lo, hi;
        range_of(s[k].x, s[k].n, &lo, &hi);
        xmin = fmin(xmin, lo);
        xmax = fmax(xmax, hi);
    }
    pad_range(&xmin, &xmax, timed ? 0 : 0.05);
    /* panels: all series, or runs of series with the same unit */
    int *group = fl_xcalloc((size_t)n, sizeof(int)), ngroups = 0;
    series *ord = fl_xcalloc((size_t)n, sizeof(series));
    int norder = 0;
    if (layout == FL_PLOT_STACKED) {
        for (int k = 0; k < n; k++) {
            int seen = 0;
            for (int j = 0; j < k && !seen; j++) seen = strcmp(s[j].unit, s[k].unit) == 0;
            if (seen) continue;
            for (int j = k; j < n; j++)
                if (strcmp(s[j].unit, s[k].unit) == 0) {
                    ord[norder] = s[j];
                    group[norder++] = ngroups;
                }
            ngroups++;
        }
    } else {
        for (int k = 0; k < n; k++) ord[k] = s[k];
        norder = n;
        ngroups = 1;
    }
    double top = title ? 0.92 : 0.96, bottom = 0.10, gap = 0.03;
    double h = (top - bottom - gap * (ngroups - 1)) / ngroups;
    int at = 0;
    for (int g = 0; g < ngroups; g++) {
        int from = at;
        while (at < norder && group[at] == g) at++;
        double y1 = top - g * (h + gap);
        draw_panel(ord + from, at - from, xlabel, xmin, xmax, from, y1 - h, y1, g == ngroups - 1, g == 0, title);
    }
    free(group);
    free(ord);
}

/* ---- reading: result files into series ------------------------------------ */

/* What fl_plot_results holds: freed on every way out, also by the recovery
 * point's cleanup when memory runs out while reading or drawing. */
typedef struct plotting {
    const char *const *files;
    int nfiles;
    FL_VEC(series) s;  /* what is drawn, in legend order once every file is read */
    FL_VEC(kept) keep; /* the data the series point into */
    FL_VEC(int) pick;  /* select_signals: the chosen signals of one file */
    units u;           /* the units of the file being read */
    char *xunit;       /* phase plots: the abscissa's unit, first given by file xunit_file */
    int xunit_file;
    const char **tails; /* make_labels: how each file is named in the legend */
    char *xlabel;
    fl_target target; /* the temporary file PLplot draws into */
    int opened;       /* target is open */
    int drawing;      /* the PLplot stream is open on the temporary file */
} plotting;

static void plotting_free(void *arg)
{
    plotting *p = arg;
    if (p->drawing) {
        plend();
        plsexit(NULL);
        p->drawing = 0;
    }
    if (p->opened) fl_target_discard(&p->target);
    p->opened = 0;
    free(p->xlabel);
    free((void *)p->tails);
    free(p->xunit);
    units_free(&p->u);
    FL_VEC_FREE(p->pick);
    for (size_t i = 0; i < p->s.n; i++) {
        free(p->s.v[i].var);
        free(p->s.v[i].tag);
        free(p->s.v[i].unit);
        free(p->s.v[i].label);
    }
    FL_VEC_FREE(p->s);
    for (size_t i = 0; i < p->keep.n; i++) p->keep.v[i].free(p->keep.v[i].p);
    FL_VEC_FREE(p->keep);
}

static void csv_free(void *c)
{
    fl_csv_free(c);
}

/* Room for one more kept entry, made before the data exists so that
 * keeping it cannot fail (and lose it). */
static void keep_room(plotting *P)
{
    if (P->keep.n < P->keep.cap) return;
    size_t cap = P->keep.cap ? 2 * P->keep.cap : 8;
    P->keep.v = fl_xrealloc(P->keep.v, cap * sizeof *P->keep.v);
    P->keep.cap = cap;
}

/* A new series of file at the end of the list, its strings and data unset. */
static series *add_series(plotting *P, int file)
{
    series z;
    memset(&z, 0, sizeof z);
    z.file = file;
    FL_VEC_PUSH(P->s, z);
    return &P->s.v[P->s.n - 1];
}

/* The signals of a result (names[1..n); names[0] is time) that the
 * patterns of o->y select, into P->pick: in the order of the patterns,
 * each once, never skip (the abscissa). Every pattern must match a signal
 * of the file. 0, or -1 with a message naming path. */
static int select_signals(plotting *P, const char *path, char *const *names, int n, int skip, const fl_plot_opts *o,
                          fl_diag *d)
{
    P->pick.n = 0;
    for (int g = 0; g < o->ny; g++) {
        int any = 0;
        for (int j = 1; j < n; j++) {
            if (!fl_glob_match(o->y[g], names[j])) continue;
            any = 1;
            int dup = j == skip;
            for (size_t k = 0; k < P->pick.n && !dup; k++) dup = P->pick.v[k] == j;
            if (!dup) FL_VEC_PUSH(P->pick, j);
        }
        if (!any) {
            fl_err(d, fl_noloc, "%s: no signal matches '%s' (the file has %d signals, e.g. %s)", path, o->y[g], n - 1,
                   names[1]);
            return -1;
        }
    }
    if (P->pick.n == 0) {
        fl_err(d, fl_noloc, "%s: nothing to plot against %s", path, o->x);
        return -1;
    }
    return 0;
}

/* The abscissa's unit for a phase plot: the same in every file that gives one. */
static int note_xunit(plotting *P, int file, const char *x, const char *unit, fl_diag *d)
{
    if (!unit[0]) return 0;
    if (!P->xunit) {
        P->xunit = fl_xstrdup(unit);
        P->xunit_file = file;
    } else if (strcmp(P->xunit, unit) != 0) {
        fl_err(d, fl_noloc, "%s: signal '%s' has unit '%s', but '%s' in %s", P->files[file], x, unit, P->xunit,
               P->files[P->xunit_file]);
        return -1;
    }
    return 0;
}

/* ---- studies (flange sweep): a table of runs, saved trajectories ------------ */

static void table_free(void *t)
{
    sw_table_free(t);
    free(t);
}

/* 1 when path is a study of flange sweep: an HDF5 file, or a CSV table
 * whose first column is "run". */
static int is_study(const char *path)
{
    if (sw_h5_path(path)) return 1;
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    char head[8] = {0};
    size_t n = fread(head, 1, 4, f);
    fclose(f);
    return n == 4 && memcmp(head, "run,", 4) == 0;
}

/* Saved trajectories: one series per run and selected variable, over time
 * (or over a saved variable), tagged "run N". */
static int study_trajectories(plotting *P, int file, const sw_table *t, const fl_plot_opts *o, fl_diag *d)
{
    const char *path = P->files[file];
    int w = 1 + t->nsave;
    char **names = fl_xcalloc((size_t)w, sizeof *names);
    names[0] = "time";
    for (int k = 0; k < t->nsave; k++) names[1 + k] = t->save_names[k];
    int xcol = 0;
    if (o->x) {
        for (xcol = 1; xcol < w && strcmp(names[xcol], o->x) != 0; xcol++) {}
        if (xcol == w) {
            free(names);
            fl_err(d, fl_noloc, "%s: no saved trajectory '%s' for the x axis", path, o->x);
            return -1;
        }
    }
    int rc = select_signals(P, path, names, w, xcol, o, d);
    free(names);
    if (rc) return -1;
    int runcol = 0;
    for (long r = 0; r < t->nrows; r++) {
        long n = t->npts[r];
        if (n < 2) continue; /* a failed run */
        /* the run's points as columns */
        keep_room(P);
        double *cols = fl_xmalloc(sizeof(double) * (size_t)n * (size_t)w);
        P->keep.v[P->keep.n++] = (kept){cols, free};
        for (long i = 0; i < n; i++)
            for (int k = 0; k < w; k++) cols[(size_t)k * (size_t)n + (size_t)i] = t->traj[r][i * w + k];
        for (size_t q = 0; q < P->pick.n; q++) {
            int j = P->pick.v[q];
            series *sr = add_series(P, file);
            sr->n = (size_t)n;
            sr->x = cols + (size_t)xcol * (size_t)n;
            sr->y = cols + (size_t)j * (size_t)n;
            sr->var = fl_xstrdup(t->save_names[j - 1]);
            sr->tag = fl_xsprintf("run %.0f", t->num[r * t->ncols + runcol]);
            sr->unit = fl_xstrdup("");
        }
    }
    if (P->s.n == 0) {
        fl_err(d, fl_noloc, "%s: no run has a saved trajectory to plot", path);
        return -1;
    }
    return 0;
}

/* A row of a study table with what orders it: the parameters other than
 * x (columns 1 .. npar, in order), then x, then the row's place. */
typedef struct row_key {
    const double *row;
    int xcol, npar;
    long idx;
} row_key;

static int by_row_key(const void *pa, const void *pb)
{
    const row_key *a = pa, *b = pb;
    for (int c = 1; c <= a->npar + 1; c++) {
        int col = c <= a->npar ? c : a->xcol; /* x last */
        if (c <= a->npar && c == a->xcol) continue;
        if (a->row[col] != b->row[col]) return a->row[col] < b->row[col] ? -1 : 1;
    }
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The table: collected quantities (o->y) over a parameter (o->x), one
 * series per combination of the other parameters' values (the tag names
 * them), through the runs that have a value, in the order of x. */
static int study_table(plotting *P, int file, const sw_table *t, const fl_plot_opts *o, fl_diag *d)
{
    const char *path = P->files[file];
    int status = -1;
    for (int j = 0; j < t->ncols; j++)
        if (t->text[j] && strcmp(t->names[j], "status") == 0) status = j;
    if (!o->x) {
        fl_err(d, fl_noloc, "%s: a study table: give the parameter for the x axis (--x %s)", path,
               status > 1 ? t->names[1] : "PARAMETER");
        return -1;
    }
    int xcol = -1;
    for (int j = 0; j < t->ncols; j++)
        if (!t->text[j] && strcmp(t->names[j], o->x) == 0) xcol = j;
    if (xcol < 0) {
        fl_err(d, fl_noloc, "%s: no column '%s' for the x axis", path, o->x);
        return -1;
    }
    /* the number columns, "run" first (select_signals never picks names[0]) */
    char **names = fl_xcalloc((size_t)t->ncols, sizeof *names);
    int *col = fl_xcalloc((size_t)t->ncols, sizeof *col);
    int nn = 0, xi = 0;
    for (int j = 0; j < t->ncols; j++)
        if (!t->text[j]) {
            if (j == xcol) xi = nn;
            col[nn] = j;
            names[nn++] = t->names[j];
        }
    int rc = select_signals(P, path, names, nn, xi, o, d);
    free(names);
    if (rc) {
        free(col);
        return -1;
    }
    /* rows in order of the other parameters' values, then of x, then of the file */
    long nr = t->nrows;
    int npar = status > 0 ? status - 1 : 0; /* the parameters: columns 1 .. status - 1 */
    row_key *rk = fl_xmalloc(sizeof *rk * (size_t)(nr ? nr : 1));
    for (long r = 0; r < nr; r++) rk[r] = (row_key){t->num + r * t->ncols, xcol, npar, r};
    qsort(rk, (size_t)nr, sizeof *rk, by_row_key);
    long *ord = fl_xmalloc(sizeof(long) * (size_t)(nr ? nr : 1));
    for (long r = 0; r < nr; r++) ord[r] = rk[r].idx;
    free(rk);
    /* cut into groups of equal other parameters; one series per group and quantity */
    keep_room(P);
    double *data = fl_xmalloc(sizeof(double) * 2 * (size_t)(nr ? nr : 1) * (P->pick.n ? P->pick.n : 1));
    P->keep.v[P->keep.n++] = (kept){data, free};
    size_t used = 0;
    for (long a = 0; a < nr;) {
        long b = a + 1;
        for (; b < nr; b++) {
            int same = 1;
            for (int c = 1; c <= npar && same; c++)
                if (c != xcol) same = t->num[ord[a] * t->ncols + c] == t->num[ord[b] * t->ncols + c];
            if (!same) break;
        }
        fl_buf tag = {0};
        for (int c = 1; c <= npar; c++) {
            if (c == xcol) continue;
            char v[32];
            fl_buf_printf(&tag, "%s%s=%s", tag.n ? ", " : "", t->names[c], sw_format_number(t->num[ord[a] * t->ncols + c], v));
        }
        for (size_t q = 0; q < P->pick.n; q++) {
            int j = col[P->pick.v[q]];
            double *x = data + used, *y = x + (b - a);
            size_t n = 0;
            for (long r = a; r < b; r++) {
                double yv = t->num[ord[r] * t->ncols + j], xv = t->num[ord[r] * t->ncols + xcol];
                if (!isfinite(yv) || !isfinite(xv)) continue; /* a failed run */
                x[n] = xv;
                y[n++] = yv;
            }
            used += 2 * (size_t)(b - a);
            if (!n) continue;
            series *sr = add_series(P, file);
            sr->n = n;
            sr->x = x;
            sr->y = y;
            sr->var = fl_xstrdup(t->names[j]);
            sr->tag = tag.n ? fl_xstrdup(tag.s) : NULL;
            sr->unit = fl_xstrdup("");
        }
        fl_buf_free(&tag);
        a = b;
    }
    free(ord);
    free(col);
    return 0;
}

static int read_study(plotting *P, int file, const fl_plot_opts *o, fl_diag *d)
{
    keep_room(P);
    sw_table *t = fl_xcalloc(1, sizeof *t);
    P->keep.v[P->keep.n++] = (kept){t, table_free};
    if (sw_table_read(P->files[file], t, d)) return -1;
    /* trajectories when the file has them and the x axis is not a column of the table */
    int in_table = 0;
    for (int j = 0; o->x && j < t->ncols; j++) in_table |= strcmp(t->names[j], o->x) == 0;
    return t->nsave > 0 && !in_table ? study_trajectories(P, file, t, o, d) : study_table(P, file, t, o, d);
}

/* Appends the series of result file P->files[file]: for every signal o->y
 * selects, one series over time, or over o->x for a phase plot, with the
 * unit the file gives. The one place that knows the formats of results:
 * CSV (units from FILE.units) and MAT (units from the descriptions), one
 * run each, so one series per signal. 0, or -1 with a message naming the
 * file. */
static int read_result(plotting *P, int file, const fl_plot_opts *o, fl_diag *d)
{
    const char *path = P->files[file];
    if (is_study(path)) return read_study(P, file, o, d);
    keep_room(P);
    fl_csv *c = fl_csv_read(path, d);
    if (!c) return -1;
    P->keep.v[P->keep.n++] = (kept){c, csv_free};
    units_free(&P->u);
    memset(&P->u, 0, sizeof P->u);
    if (c->units)
        units_from(c, &P->u);
    else
        units_read(path, &P->u);
    if (c->nrows < 2 || c->ncols < 2) {
        fl_err(d, fl_noloc, "%s: nothing to plot (a signal besides time and at least two rows are needed)", path);
        return -1;
    }
    int xcol = 0;
    if (o->x) {
        xcol = fl_csv_column(c, o->x);
        if (xcol < 0) {
            fl_err(d, fl_noloc, "%s: no signal '%s' for the x axis", path, o->x);
            return -1;
        }
        if (note_xunit(P, file, o->x, units_of(&P->u, o->x), d)) return -1;
    }
    if (select_signals(P, path, c->names, c->ncols, xcol, o, d)) return -1;
    for (size_t k = 0; k < P->pick.n; k++) {
        int j = P->pick.v[k];
        series *t = add_series(P, file);
        t->n = c->nrows;
        t->x = c->cols[xcol];
        t->y = c->cols[j];
        t->var = fl_xstrdup(c->names[j]);
        t->unit = fl_xstrdup(units_of(&P->u, c->names[j]));
    }
    return 0;
}

/* A signal's unit is the same in every file that gives one (the series
 * from first on are new); a file that gives none takes it from the others. */
static int check_units(plotting *P, size_t first, fl_diag *d)
{
    for (size_t i = first; i < P->s.n; i++) {
        series *a = &P->s.v[i];
        for (size_t j = 0; j < first; j++) {
            series *b = &P->s.v[j];
            if (strcmp(a->var, b->var) != 0) continue;
            if (a->unit[0] && b->unit[0] && strcmp(a->unit, b->unit) != 0) {
                fl_err(d, fl_noloc, "%s: signal '%s' has unit '%s', but '%s' in %s", P->files[a->file], a->var,
                       a->unit, b->unit, P->files[b->file]);
                return -1;
            }
        }
    }
    for (size_t i = 0; i < P->s.n; i++) {
        series *a = &P->s.v[i];
        for (size_t j = 0; j < P->s.n && !a->unit[0]; j++)
            if (P->s.v[j].unit[0] && strcmp(a->var, P->s.v[j].var) == 0) {
                char *u = fl_xstrdup(P->s.v[j].unit);
                free(a->unit);
                a->unit = u;
            }
    }
    return 0;
}

/* Legend order: the signals in the order they first appear, each followed
 * by its series from every file (and run), in the order they were read. */
static void order_series(plotting *P)
{
    size_t n = P->s.n;
    if (n < 2) return;
    series *out = fl_xcalloc(n, sizeof(series) + 1);
    unsigned char *taken = (unsigned char *)(out + n);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (taken[i]) continue;
        for (size_t j = i; j < n; j++)
            if (!taken[j] && strcmp(P->s.v[j].var, P->s.v[i].var) == 0) {
                out[m++] = P->s.v[j];
                taken[j] = 1;
            }
    }
    /* the same series (and strings), in the new order */
    memcpy(P->s.v, out, n * sizeof(series));
    free(out);
}

/* The last k components of path ("runs/a/r.csv", 2: "a/r.csv"); the whole
 * path when it has no more. */
static const char *path_tail(const char *path, int k)
{
    const char *p = path + strlen(path);
    for (int i = 0; i < k; i++) {
        if (i > 0) {
            while (p > path && p[-1] == '/') p--;
            if (p == path) return path;
        }
        while (p > path && p[-1] != '/') p--;
        if (p == path) return path;
    }
    return p;
}

/* The legend entries: "VAR" for one file, "FILE: VAR" for several, FILE
 * being the file's name without its directory, or with as much of the
 * path as tells the files apart; a series' tag (a run) follows FILE. */
static void make_labels(plotting *P)
{
    int nf = P->nfiles;
    P->tails = fl_xcalloc((size_t)nf, sizeof(char *));
    for (int k = 1;; k++) {
        int clash = 0, grew = 0;
        for (int i = 0; i < nf; i++) {
            const char *t = path_tail(P->files[i], k);
            grew = grew || k == 1 || t != P->tails[i];
            P->tails[i] = t;
        }
        for (int i = 0; i < nf && !clash; i++)
            for (int j = 0; j < i && !clash; j++)
                clash = strcmp(P->tails[i], P->tails[j]) == 0 && strcmp(P->files[i], P->files[j]) != 0;
        if (!clash || !grew) break;
    }
    for (size_t i = 0; i < P->s.n; i++) {
        series *s = &P->s.v[i];
        const char *file = nf > 1 ? P->tails[s->file] : NULL;
        if (file && s->tag)
            s->label = fl_xsprintf("%s %s: %s", file, s->tag, s->var);
        else if (file || s->tag)
            s->label = fl_xsprintf("%s: %s", file ? file : s->tag, s->var);
        else
            s->label = fl_xstrdup(s->var);
    }
}

/* Draw the picture into the target's temporary file with PLplot: 0, or -1 with a message. */
static int draw_file(plotting *P, const char *dev, int w, int h, const fl_plot_opts *o, const char *out, fl_diag *d)
{
    P->drawing = 1;
    if (setjmp(plot_failed)) {
        /* PLplot gave up: its stream is not to be touched again */
        P->drawing = 0;
        fl_err(d, fl_noloc, "cannot draw %s: %s", out, plot_error);
        return -1;
    }
    plsexit(on_plplot_exit);
    plsdev(dev);
    plsfnam(P->target.tmp);
    plspage(0, 0, w, h, 0, 0);
    plscolbg(255, 255, 255);
    plscmap0n(3 + NPAL);
    plscol0(1, 0, 0, 0);
    for (int k = 0; k < NPAL; k++) plscol0(2 + k, palette[k][0], palette[k][1], palette[k][2]);
    plscol0(GRID_COLOR, 225, 225, 225);
    plinit();
    pladv(0);
    plschr(0, 0.9);
    draw(P->s.v, (int)P->s.n, P->xlabel, !o->x, o->layout, o->title);
    plend();
    plsexit(NULL);
    P->drawing = 0;
    return 0;
}

/* ---- entry points ---------------------------------------------------------- */

FL_GUARDED(int, fl_plot_results,
           (const char *const *files, int nfiles, const char *out, const fl_plot_opts *o, fl_diag *d),
           (files, nfiles, out, o, d), -1, d)
{
    if (!out || !o) return -1;
    if (!files || nfiles < 1) {
        fl_err(d, fl_noloc, "no result file to plot");
        return -1;
    }
    for (int i = 0; i < nfiles; i++)
        if (!files[i]) {
            fl_err(d, fl_noloc, "result file %d of %d is NULL", i + 1, nfiles);
            return -1;
        }
    const char *dev = device_for(out);
    if (!dev) {
        const char *dot = strrchr(out, '.');
        fl_err(d, fl_noloc, "%s: unknown picture format '%s' (use .png, .svg or .pdf)", out, dot ? dot : "");
        return -1;
    }
    if (o->ny <= 0) {
        fl_err(d, fl_noloc, "no signals to plot");
        return -1;
    }
    int w = o->width > 0 ? o->width : 900, h = o->height > 0 ? o->height : 600;
    if (w < 100 || h < 100 || w > 10000 || h > 10000) {
        fl_err(d, fl_noloc, "picture size %dx%d: each side must be between 100 and 10000", w, h);
        return -1;
    }
    plotting P;
    memset(&P, 0, sizeof P);
    P.files = files;
    P.nfiles = nfiles;
    fl_cleanup cl;
    fl_cleanup_push(&cl, plotting_free, &P);
    int rc = -1;
    for (int i = 0; i < nfiles; i++) {
        size_t first = P.s.n;
        if (read_result(&P, i, o, d) || check_units(&P, first, d)) goto out;
    }
    if (P.s.n > (size_t)INT_MAX / 2) {
        fl_err(d, fl_noloc, "%zu series are too many to draw", P.s.n);
        goto out;
    }
    order_series(&P);
    make_labels(&P);
    if (!device_available(dev)) {
        fl_err(d, fl_noloc, "cannot write %s: PLplot's cairo driver is missing (Debian package plplot-driver-cairo)",
               out);
        goto out;
    }
    /* a temporary file, renamed or copied into place when the picture is complete */
    int fd = fl_target_open(&P.target, out, FL_TARGET_FILE, d);
    if (fd < 0) goto out;
    close(fd); /* PLplot opens it by name */
    P.opened = 1;
    P.xlabel = o->x ? axis_label(o->x, P.xunit ? P.xunit : "") : fl_xstrdup("time [s]");
    if (draw_file(&P, dev, w, h, o, out, d)) goto out;
    rc = fl_target_commit(&P.target, d);
out:
    fl_cleanup_pop(&cl);
    plotting_free(&P);
    return rc;
}

int fl_plot_csv(const char *csv, const char *out, const fl_plot_opts *o, fl_diag *d)
{
    const char *files[1] = {csv};
    return fl_plot_results(csv ? files : NULL, csv ? 1 : 0, out, o, d);
}
