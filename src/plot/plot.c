/* plot.c - plots of result files (CSV or MAT) with PLplot (cairo devices:
 * PNG, SVG, PDF): signals over time or over another signal (phase plots),
 * in one panel (overlay) or one panel per unit (stacked), with axes
 * labelled by name and unit (from RESULT.csv.units when present, from the
 * descriptions of a MAT file) and a legend. The
 * picture is drawn into a temporary file and renamed (or copied) into place
 * when complete (target.c). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <plplot.h>

#include "output/csvread.h"
#include "output/target.h"
#include "util/diag.h"
#include "util/util.h"

/* line colours (cmap0 from index 2; 0 is the background, 1 the axes) */
static const int palette[][3] = {
    {31, 119, 180}, {214, 39, 40}, {44, 160, 44}, {255, 127, 14}, {148, 103, 189},
    {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207},
};
#define NPAL ((int)(sizeof palette / sizeof palette[0]))
#define GRID_COLOR (2 + NPAL)

typedef struct signal {
    int col;
    const char *name, *unit;
} signal;

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

/* One panel: the signals sig[0..n) over column xcol, in viewport
 * [y0, y1] of the page; x tick labels only on the bottom panel. */
static void draw_panel(const fl_csv *c, int xcol, const char *xlabel, double xmin, double xmax, const signal *sig,
                       int n, int first_color, double y0, double y1, int bottom, int top, const char *title)
{
    double ymin = INFINITY, ymax = -INFINITY;
    for (int k = 0; k < n; k++) {
        double lo, hi;
        range_of(c->cols[sig[k].col], c->nrows, &lo, &hi);
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
    /* y label: the signal (one) or the unit (several, named in the legend) */
    char *ylabel = n == 1 ? axis_label(sig[0].name, sig[0].unit)
                          : (sig[0].unit[0] ? fl_xsprintf("%s [%s]", quantity_of(sig[0].unit), sig[0].unit)
                                            : fl_xstrdup(""));
    pllab(bottom ? xlabel : "", ylabel, top && title ? title : "");
    free(ylabel);
    plwidth(1.6);
    for (int k = 0; k < n; k++) {
        plcol0(2 + (first_color + k) % NPAL);
        plline((PLINT)c->nrows, c->cols[xcol], c->cols[sig[k].col]);
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
            text[k] = sig[k].name;
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

static void draw(const fl_csv *c, int xcol, const char *xlabel, const signal *sig, int n, fl_plot_layout layout,
                 const char *title)
{
    double xmin, xmax;
    range_of(c->cols[xcol], c->nrows, &xmin, &xmax);
    pad_range(&xmin, &xmax, xcol == 0 ? 0 : 0.05);
    /* panels: all signals, or runs of signals with the same unit */
    int *group = fl_xcalloc((size_t)n, sizeof(int)), ngroups = 0;
    signal *ord = fl_xcalloc((size_t)n, sizeof(signal));
    int norder = 0;
    if (layout == FL_PLOT_STACKED) {
        for (int k = 0; k < n; k++) {
            int seen = 0;
            for (int j = 0; j < k && !seen; j++) seen = strcmp(sig[j].unit, sig[k].unit) == 0;
            if (seen) continue;
            for (int j = k; j < n; j++)
                if (strcmp(sig[j].unit, sig[k].unit) == 0) {
                    ord[norder] = sig[j];
                    group[norder++] = ngroups;
                }
            ngroups++;
        }
    } else {
        for (int k = 0; k < n; k++) ord[k] = sig[k];
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
        draw_panel(c, xcol, xlabel, xmin, xmax, ord + from, at - from, from, y1 - h, y1, g == ngroups - 1, g == 0,
                   title);
    }
    free(group);
    free(ord);
}

/* ---- entry point ---------------------------------------------------------- */

/* What fl_plot_csv holds: freed on every way out, also by the recovery
 * point's cleanup when memory runs out while reading or drawing. */
typedef struct plotting {
    fl_csv *c;
    units u;
    signal *sig;
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
    free(p->sig);
    units_free(&p->u);
    fl_csv_free(p->c);
}

/* Draw the picture into the target's temporary file with PLplot: 0, or -1 with a message. */
static int draw_file(plotting *P, const char *dev, int w, int h, int xcol, int n, const fl_plot_opts *o,
                     const char *out, fl_diag *d)
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
    draw(P->c, xcol, P->xlabel, P->sig, n, o->layout, o->title);
    plend();
    plsexit(NULL);
    P->drawing = 0;
    return 0;
}

FL_GUARDED(int, fl_plot_csv, (const char *csv, const char *out, const fl_plot_opts *o, fl_diag *d), (csv, out, o, d),
           -1, d)
{
    if (!csv || !out || !o) return -1;
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
    fl_cleanup cl;
    fl_cleanup_push(&cl, plotting_free, &P);
    int rc = -1;
    fl_csv *c = P.c = fl_csv_read(csv, d);
    if (!c) goto out;
    if (c->units)
        units_from(c, &P.u);
    else
        units_read(csv, &P.u);
    signal *sig = P.sig = fl_xcalloc((size_t)c->ncols, sizeof(signal));
    int n = 0, xcol = 0;
    if (c->nrows < 2 || c->ncols < 2) {
        fl_err(d, fl_noloc, "%s: nothing to plot (a signal besides time and at least two rows are needed)", csv);
        goto out;
    }
    if (o->x) {
        xcol = fl_csv_column(c, o->x);
        if (xcol < 0) {
            fl_err(d, fl_noloc, "%s: no signal '%s' for the x axis", csv, o->x);
            goto out;
        }
    }
    /* the signals, in the order of the patterns, each once */
    for (int g = 0; g < o->ny; g++) {
        int any = 0;
        for (int j = 1; j < c->ncols; j++) {
            if (!fl_glob_match(o->y[g], c->names[j])) continue;
            any = 1;
            int dup = 0;
            for (int k = 0; k < n && !dup; k++) dup = sig[k].col == j;
            if (dup || j == xcol) continue;
            sig[n].col = j;
            sig[n].name = c->names[j];
            sig[n].unit = units_of(&P.u, c->names[j]);
            n++;
        }
        if (!any) {
            fl_err(d, fl_noloc, "%s: no signal matches '%s' (the file has %d signals, e.g. %s)", csv, o->y[g],
                   c->ncols - 1, c->names[1]);
            goto out;
        }
    }
    if (n == 0) {
        fl_err(d, fl_noloc, "%s: nothing to plot against %s", csv, o->x);
        goto out;
    }
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
    P.xlabel = o->x ? axis_label(c->names[xcol], units_of(&P.u, c->names[xcol])) : fl_xstrdup("time [s]");
    if (draw_file(&P, dev, w, h, xcol, n, o, out, d)) goto out;
    rc = fl_target_commit(&P.target, d);
out:
    fl_cleanup_pop(&cl);
    plotting_free(&P);
    return rc;
}
