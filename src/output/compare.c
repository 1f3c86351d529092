/* compare.c - fl_compare_csv: checks a result CSV against a reference CSV with the tube criterion of the MSL regression tests. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flange.h"
#include "output/csvread.h"
#include "util/diag.h"
#include "util/util.h"

/* Tube half-height for a reference signal that is identically zero: small
 * enough that any visible deviation fails, large enough to be non-zero. */
#define ZERO_SIGNAL_TUBE 1e-17

typedef struct sigspec {
    char *name;
    int line; /* in the signals file; 0 when taken from the reference */
    int iref, ires;
} sigspec;
typedef FL_VEC(sigspec) sigvec;

typedef struct sigresult {
    int fail;
    double tube;       /* Y */
    double worst;      /* largest deviation beyond the reference envelope */
    double t, y, lo, hi; /* where the worst (or the bad value) was found */
} sigresult;

/* C11 has no strcasecmp. */
static int is_time_name(const char *s)
{
    const char *w = "time";
    for (; *w; s++, w++) {
        char ch = *s;
        if (ch >= 'A' && ch <= 'Z') ch = (char)(ch - 'A' + 'a');
        if (ch != *w) return 0;
    }
    return *s == '\0';
}

static void trim(char **s)
{
    char *b = *s, *e = b + strlen(b);
    while (*b == ' ' || *b == '\t') b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
    *e = '\0';
    if (e - b >= 2 && b[0] == '"' && e[-1] == '"') {
        e[-1] = '\0';
        b++;
    }
    *s = b;
}

static void add_signal(sigvec *v, const char *name, int line)
{
    for (size_t i = 0; i < v->n; i++)
        if (strcmp(v->v[i].name, name) == 0) return; /* listing a signal twice is harmless */
    sigspec s = {fl_xstrdup(name), line, -1, -1};
    FL_VEC_PUSH(*v, s);
}

static void process_signal_line(sigvec *out, fl_buf *line, int lineno)
{
    if (!line->s) return;
    char *s = line->s;
    trim(&s);
    if (*s != '\0' && *s != '#' && !is_time_name(s)) add_signal(out, s, lineno);
    line->n = 0;
    line->s[0] = '\0';
}

static int read_signal_list(const char *path, sigvec *out, fl_diag *d)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fl_err(d, fl_noloc, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    fl_cleanup cl; /* out of memory: the file is closed */
    fl_cleanup_push(&cl, fl_fclose_cleanup, f);
    fl_buf line = {0};
    int lineno = 0, col = 0, ch, binary = 0;
    do {
        ch = getc(f);
        col++;
        if (ch == '\n' || ch == EOF) {
            lineno++;
            col = 0;
            process_signal_line(out, &line, lineno);
        } else if ((ch < 0x20 && ch != '\t' && ch != '\r') || ch == 0x7f) {
            /* binary data is reported, never echoed */
            fl_loc loc = {path, lineno + 1, col};
            fl_err(d, loc, "binary data (byte 0x%02x): not a list of signal names", ch);
            binary = 1;
            break;
        } else {
            fl_buf_addc(&line, (char)ch);
        }
    } while (ch != EOF);
    int err = ferror(f);
    fl_cleanup_pop(&cl);
    fl_buf_free(&line);
    fclose(f);
    if (err) {
        fl_err(d, fl_noloc, "cannot read %s", path);
        return -1;
    }
    return binary ? -1 : 0;
}

/* The sliding-window scheme below needs sorted, finite times: the reader
 * (csvread.c) guarantees both, and finite values. */

static double lerp(const double *t, const double *y, size_t k, double at)
{
    return y[k] + (y[k + 1] - y[k]) * ((at - t[k]) / (t[k + 1] - t[k]));
}

/* Checks result points k0..k1-1 (all inside the reference time range)
 * against the reference polyline (tr, yr, n). The envelope over a window
 * [t-X, t+X] is the extreme of the samples inside it and of the polyline
 * at the window ends. Because result times are sorted, both window ends
 * only move forward: the samples in the window are kept in two monotonic
 * deques (indices with decreasing values for the maximum, increasing for
 * the minimum), which makes the whole pass O(n + m). scratch holds 2n. */
static void compare_signal(const double *tr, const double *yr, size_t n, const double *t,
                           const double *y, size_t k0, size_t k1, double X, double tol,
                           size_t *scratch, sigresult *r)
{
    memset(r, 0, sizeof *r);
    double ymin = INFINITY, ymax = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        ymin = FL_MIN(ymin, yr[i]);
        ymax = FL_MAX(ymax, yr[i]);
    }
    double Y = tol * (ymax - ymin);
    if (Y == 0) Y = tol * fabs(ymax);
    if (Y == 0) Y = ZERO_SIGNAL_TUBE;
    r->tube = Y;
    r->t = t[k0];
    r->y = y[k0];
    r->lo = r->hi = yr[0];

    const double t0 = tr[0], tn = tr[n - 1];
    size_t *dmax = scratch, *dmin = scratch + n;
    size_t hmax = 0, emax = 0, hmin = 0, emin = 0; /* head and end of each deque */
    size_t jb = 0; /* next sample to enter the window */
    size_t ia = 0; /* first sample with tr[ia] >= a */
    for (size_t k = k0; k < k1; k++) {
        double a = t[k] - X, b = t[k] + X;
        if (a < t0) a = t0;
        if (b > tn) b = tn;
        for (; jb < n && tr[jb] <= b; jb++) {
            while (emax > hmax && yr[dmax[emax - 1]] <= yr[jb]) emax--;
            dmax[emax++] = jb;
            while (emin > hmin && yr[dmin[emin - 1]] >= yr[jb]) emin--;
            dmin[emin++] = jb;
        }
        while (ia < n && tr[ia] < a) ia++;
        while (hmax < emax && dmax[hmax] < ia) hmax++;
        while (hmin < emin && dmin[hmin] < ia) hmin++;

        double hi = -INFINITY, lo = INFINITY;
        if (hmax < emax) hi = yr[dmax[hmax]];
        if (hmin < emin) lo = yr[dmin[hmin]];
        /* A window end that falls on a sample time is covered by the
         * samples (all of them, for a duplicated event time); otherwise it
         * lies strictly inside one segment. a <= t <= tn and b >= t >= t0
         * guarantee 0 < ia and jb < n in those cases. */
        if (tr[ia] != a) {
            double v = lerp(tr, yr, ia - 1, a);
            hi = FL_MAX(hi, v);
            lo = FL_MIN(lo, v);
        }
        if (tr[jb - 1] != b) {
            double v = lerp(tr, yr, jb - 1, b);
            hi = FL_MAX(hi, v);
            lo = FL_MIN(lo, v);
        }

        double dev = FL_MAX(y[k] - hi, lo - y[k]);
        if (dev > r->worst) {
            r->worst = dev;
            r->t = t[k];
            r->y = y[k];
            r->lo = lo;
            r->hi = hi;
        }
    }
    r->fail = r->worst > Y;
}

/* Enough significant digits that a difference of size res between numbers
 * of magnitude mag stays visible in the report. */
static int digits_for(double mag, double res, int least)
{
    int p = least;
    if (mag > 0 && res > 0 && isfinite(mag / res)) {
        double need = ceil(log10(mag / res)) + 2;
        if (need > p) p = need > 17 ? 17 : (int)need;
    }
    return p;
}

static void format_percent(char *out, size_t cap, double pct)
{
    if (pct >= 100 && pct < 1e6)
        snprintf(out, cap, "%.0f%%", pct);
    else
        snprintf(out, cap, "%.2g%%", pct);
}

/* Tolerances are conventionally written 2e-3, not 0.002. */
static void format_tol(char *out, size_t cap, double tol)
{
    if (tol >= 0.01) {
        snprintf(out, cap, "%g", tol);
        return;
    }
    int e = (int)floor(log10(tol));
    double m = tol / pow(10, e);
    char ms[16];
    snprintf(ms, sizeof ms, "%.6g", m);
    if (strcmp(ms, "10") == 0) {
        snprintf(ms, sizeof ms, "1");
        e++;
    }
    snprintf(out, cap, "%se%d", ms, e);
}

static void report_signal(FILE *out, const char *name, int width, const sigresult *r, double X)
{
    const int tp = digits_for(FL_MAX(fabs(r->t), X), X, 6);
    const double mag = FL_MAX(fabs(r->y), FL_MAX(fabs(r->lo), fabs(r->hi)));
    const int vp = digits_for(mag, r->tube, 4);
    fprintf(out, "%s  %-*s  ", r->fail ? "FAIL" : "PASS", width, name);
    char pct[32];
    format_percent(pct, sizeof pct, 100 * r->worst / r->tube);
    if (!r->fail) {
        if (r->worst > 0)
            fprintf(out, "worst %.1e = %s of tube (t=%.*g)\n", r->worst, pct, tp, r->t);
        else
            fprintf(out, "worst 0 = 0%% of tube\n");
        return;
    }
    fprintf(out, "worst %.1e = %s of tube at t=%.*g (value %.*g, reference range [%.*g, %.*g])\n",
            r->worst, pct, tp, r->t, vp, r->y, vp, r->lo, vp, r->hi);
}

/* Resolves every signal in both files first, so that all missing names
 * are reported together and no partial report is written. */
static int resolve_signals(sigvec *sigs, const fl_csv *res, const fl_csv *ref, const char *signals_file,
                           fl_diag *d)
{
    int ok = 1;
    if (sigs->n == 0) {
        if (signals_file)
            fl_err(d, fl_noloc, "%s lists no signals to compare", signals_file);
        else
            fl_err(d, fl_noloc, "%s has no signals besides time", ref->path);
        return -1;
    }
    for (size_t i = 0; i < sigs->n; i++) {
        sigspec *s = &sigs->v[i];
        fl_loc loc = {signals_file, s->line, 0};
        if (!signals_file) loc = fl_noloc;
        s->iref = fl_csv_column(ref, s->name);
        s->ires = fl_csv_column(res, s->name);
        char shown[200];
        fl_csv_printable(shown, sizeof shown, s->name);
        if (s->iref < 0) {
            fl_err(d, loc, "signal '%s' is missing from the reference %s", shown, ref->path);
            ok = 0;
        }
        if (s->ires < 0) {
            fl_err(d, loc, "signal '%s' is missing from the result %s", shown, res->path);
            ok = 0;
        }
    }
    return ok ? 0 : -1;
}

FL_GUARDED(int, fl_compare_csv, (const char *result, const char *reference, const char *signals_file, double tol,
                                 FILE *report, fl_diag *d),
           (result, reference, signals_file, tol, report, d), -1, d)
{
    if (!(tol > 0 && tol < 1)) {
        fl_err(d, fl_noloc, "the tolerance must be between 0 and 1 (exclusive), got %g", tol);
        return -1;
    }
    int rc = -1;
    sigvec sigs = {0};
    size_t *scratch = NULL;
    fl_csv *ref = fl_csv_read(reference, d);
    fl_csv *res = fl_csv_read(result, d);
    if (!ref || !res) goto done;
    if (ref->nrows == 0) {
        fl_loc loc = {ref->path, 0, 0};
        fl_err(d, loc, "the reference has no data rows");
        goto done;
    }

    if (signals_file) {
        if (read_signal_list(signals_file, &sigs, d) != 0) goto done;
    } else {
        for (int j = 1; j < ref->ncols; j++) /* a MAT file's parameters only when asked for */
            if (!ref->constant || !ref->constant[j]) add_signal(&sigs, ref->names[j], 0);
    }
    if (resolve_signals(&sigs, res, ref, signals_file, d) != 0) goto done;

    const double *tr = ref->cols[0], *t = res->cols[0];
    const double t0 = tr[0], tn = tr[ref->nrows - 1];
    size_t k0 = 0, k1 = res->nrows;
    while (k0 < k1 && t[k0] < t0) k0++;
    while (k1 > k0 && t[k1 - 1] > tn) k1--;
    if (k0 == k1) {
        fl_err(d, fl_noloc, "the result %s has no point inside the time range [%g, %g] of the reference %s",
               res->path, t0, tn, ref->path);
        goto done;
    }
    const double X = tol * (tn - t0);
    /* Points outside the reference range are ignored, so a run that
     * stopped early would pass silently without this. */
    if (t[k0] > t0 + X || t[k1 - 1] < tn - X)
        fl_warn(d, fl_noloc, "the result %s covers only t in [%g, %g] of the reference time range [%g, %g]",
                res->path, t[k0], t[k1 - 1], t0, tn);

    int width = 0;
    for (size_t i = 0; i < sigs.n; i++) width = FL_MAX(width, (int)strlen(sigs.v[i].name));
    scratch = fl_xmalloc(2 * ref->nrows * sizeof *scratch);
    size_t nfail = 0;
    for (size_t i = 0; i < sigs.n; i++) {
        sigresult r;
        compare_signal(tr, ref->cols[sigs.v[i].iref], ref->nrows, t, res->cols[sigs.v[i].ires], k0, k1,
                       X, tol, scratch, &r);
        if (r.fail) nfail++;
        if (report) report_signal(report, sigs.v[i].name, width, &r, X);
    }
    if (report) {
        char ts[48];
        format_tol(ts, sizeof ts, tol);
        if (nfail)
            fprintf(report, "%zu of %zu signals outside the %s tube\n", nfail, sigs.n, ts);
        else
            fprintf(report, "%zu of %zu signals inside the %s tube\n", sigs.n, sigs.n, ts);
    }
    rc = nfail ? 1 : 0;

done:
    for (size_t i = 0; i < sigs.n; i++) free(sigs.v[i].name);
    FL_VEC_FREE(sigs);
    free(scratch);
    fl_csv_free(ref);
    fl_csv_free(res);
    return rc;
}
