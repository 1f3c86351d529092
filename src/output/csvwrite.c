/* csvwrite.c - writes a run to CSV: header "time" then the selected
 * variables, and beside it RESULT.csv.units (variable,unit lines) for the
 * axis labels of plots. Files go through output targets (target.c): a
 * regular file is replaced by a temporary file renamed when the run
 * succeeded, so a failed run never leaves a half-written file behind;
 * devices, FIFOs and the standard streams are written in place. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/select.h"
#include "output/target.h"
#include "sim/opts.h"
#include "sim/sim.h"
#include "util/guard.h"

/* Upper bounds of a written number with its separator: the time is
 * written to round-trip (up to 24 characters), values with %.12g (19). */
#define TIME_BYTES 25
#define VALUE_BYTES 20

typedef struct csvctx {
    FILE *f;
    int *sel;
    int nsel;
    int io_error;
    int compact; /* vals holds the written columns alone (selected_only) */
    double rows, max_rows;
    fl_diag *d;
} csvctx;

static int write_row(void *user, double t, const double *vals, int nvals)
{
    csvctx *c = user;
    FL_UNUSED(nvals);
    if (fl_output_row_over(&c->rows, c->max_rows, t, c->d)) return 1;
    char tmp[48];
    fl_fmt_double(tmp, sizeof tmp, t);
    fputs(tmp, c->f);
    for (int i = 0; i < c->nsel; i++) {
        fputc(',', c->f);
        double v = vals[c->compact ? i : c->sel[i]];
        snprintf(tmp, sizeof tmp, "%.12g", v == 0 ? 0.0 : v); /* 0, never -0 */
        fputs(tmp, c->f);
    }
    if (fputc('\n', c->f) == EOF) {
        c->io_error = errno ? errno : EIO;
        return 1;
    }
    return 0;
}

int fl_output_row_over(double *rows, double max_rows, double t, fl_diag *d)
{
    if (++*rows <= max_rows) return 0;
    /* events beyond what the grid check could foresee */
    fl_err(d, fl_noloc,
           "the run was stopped at t = %.9g: it reached the limit of %.0f output points (events add up to two "
           "each; fl_sim_opts.max_outputs, flange simulate --max-rows)",
           t, max_rows);
    return 1;
}

int *fl_select_columns(const fl_system *sys, const char *const *globs, int nglobs, int *nsel, fl_diag *d)
{
    int nvars = fl_system_nvars(sys);
    int *sel = fl_xmalloc(sizeof(int) * (size_t)(nvars ? nvars : 1));
    unsigned char *hit = fl_xcalloc((size_t)(nglobs > 0 ? nglobs : 1), 1);
    char name[512];
    *nsel = 0;
    for (int i = 0; i < nvars; i++) {
        /* all variables by default; the energy audit's totals only when asked for */
        int keep = nglobs <= 0 && !fl_system_var_on_request(sys, i);
        if (nglobs > 0) fl_var_name_into(sys, i, name, sizeof name); /* no name table for a selection */
        for (int g = 0; g < nglobs; g++)
            if (fl_glob_match(globs[g], name)) keep = hit[g] = 1;
        if (keep) sel[(*nsel)++] = i;
    }
    int ok = 1;
    for (int g = 0; g < nglobs && ok; g++) {
        if (!hit[g]) {
            fl_err(d, fl_noloc, "no variable matches '%s' (see the header of a full run or `flange check`)", globs[g]);
            ok = 0;
        }
    }
    free(hit);
    if (!ok) {
        free(sel);
        return NULL;
    }
    return sel;
}

/* RESULT.csv.units: the unit of every column, for plots. */
static int write_units(const fl_system *sys, const int *sel, int nsel, fl_target *t, const char *path, fl_diag *d)
{
    int fd = fl_target_open(t, path, FL_TARGET_STREAM, d);
    if (fd < 0) return -1;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        fl_err(d, fl_noloc, "cannot write %s: %s", path, strerror(errno));
        fl_target_discard(t);
        return -1;
    }
    fputs("variable,unit\ntime,s\n", f);
    char name[512];
    for (int i = 0; i < nsel; i++) {
        fl_var_name_into(sys, sel[i], name, sizeof name);
        fprintf(f, "%s,%s\n", name, fl_system_var_unit(sys, sel[i]));
    }
    if (fclose(f) != 0) {
        fl_err(d, fl_noloc, "cannot write %s: %s", path, strerror(errno));
        fl_target_discard(t);
        return -1;
    }
    return 0;
}

/* The header and the run's rows into f (flushed). what names f in messages. */
static int write_csv(fl_sim *sim, const fl_sim_opts *o, FILE *f, const char *what, int *sel, int nsel, fl_diag *d)
{
    csvctx c;
    memset(&c, 0, sizeof c);
    c.f = f;
    c.sel = sel;
    c.nsel = nsel;
    c.d = d;
    c.max_rows = fl_output_limit(o);
    char name[512];
    fputs("time", f);
    for (int i = 0; i < nsel; i++) {
        fputc(',', f);
        fl_var_name_into(sim->sys, sel[i], name, sizeof name);
        fputs(name, f);
    }
    fputc('\n', f);
    fl_sim_opts oo = *o;
    /* compute only what is written, and keep only that when it is a few */
    c.compact = oo.selected_only = !oo.outputs && fl_outputs_few(nsel, sim->sys->nvars);
    if (!oo.outputs) {
        oo.outputs = sel;
        oo.noutputs = nsel;
    }
    int rc = fl_sim_run(sim, &oo, write_row, &c, d);
    if (fflush(f) != 0 && !c.io_error) c.io_error = errno ? errno : EIO;
    if (ferror(f) && !c.io_error) c.io_error = EIO;
    if (c.io_error) {
        fl_err(d, fl_noloc, "cannot write %s: %s", what, strerror(c.io_error));
        rc = -1;
    }
    return rc ? -1 : 0;
}

/* What a CSV write holds, released by an out-of-memory failure too: the
 * temporary files are removed, the stream closed. */
typedef struct csvwrite {
    fl_target csv, units;
    FILE *f;
    char *buf, *upath;
    int *sel;
} csvwrite;

static void csvwrite_release(void *arg)
{
    csvwrite *w = arg;
    if (w->f) fclose(w->f);
    w->f = NULL;
    fl_target_discard(&w->units);
    fl_target_discard(&w->csv);
    free(w->buf);
    free(w->upath);
    free(w->sel);
    w->buf = w->upath = NULL;
    w->sel = NULL;
}

FL_GUARDED(int, fl_sim_run_csv, (fl_sim *sim, const fl_sim_opts *o, const char *path, const char *const *globs,
                                 int nglobs, fl_diag *d),
           (sim, o, path, globs, nglobs, d), -1, d)
{
    if (!sim || !o || !path) return -1;
    if (fl_sim_check_opts(o, d)) return -1; /* before a file is created */
    csvwrite w;
    memset(&w, 0, sizeof w);
    w.csv.slot = w.units.slot = -1;
    fl_cleanup cl;
    fl_cleanup_push(&cl, csvwrite_release, &w);
    int nsel;
    w.sel = fl_select_columns(sim->sys, globs, nglobs, &nsel, d);
    int rc = w.sel ? 0 : -1;
    int fd = rc ? -1 : fl_target_open(&w.csv, path, FL_TARGET_STREAM, d);
    if (!rc && fd < 0) rc = -1;
    if (!rc) {
        w.f = fdopen(fd, "w");
        if (!w.f) {
            close(fd);
            fl_err(d, fl_noloc, "cannot write %s: %s", path, strerror(errno));
            rc = -1;
        }
    }
    if (!rc) {
        w.buf = fl_xmalloc(1 << 20);
        setvbuf(w.f, w.buf, _IOFBF, 1 << 20);
        rc = write_csv(sim, o, w.f, path, w.sel, nsel, d);
        int closed = fclose(w.f) == 0 ? 0 : errno;
        w.f = NULL;
        if (closed && rc == 0) {
            fl_err(d, fl_noloc, "cannot write %s: %s", path, strerror(closed));
            rc = -1;
        }
    }
    /* units beside a file only: not beside /dev/null or a FIFO */
    if (rc == 0 && w.csv.dest) {
        w.upath = fl_xsprintf("%s.units", path);
        if (write_units(sim->sys, w.sel, nsel, &w.units, w.upath, d)) rc = -1;
        /* the units first: a result is never left without them */
        if (rc == 0 && fl_target_commit(&w.units, d)) rc = -1;
    }
    if (rc == 0 && fl_target_commit(&w.csv, d)) {
        if (w.units.path) unlink(w.upath);
        rc = -1;
    }
    fl_cleanup_pop(&cl);
    csvwrite_release(&w);
    return rc;
}

static void free_cleanup(void *p)
{
    free(*(void **)p);
}

FL_GUARDED(int, fl_sim_run_csv_stream, (fl_sim *sim, const fl_sim_opts *o, FILE *out, const char *const *globs,
                                        int nglobs, fl_diag *d),
           (sim, o, out, globs, nglobs, d), -1, d)
{
    if (!sim || !o || !out) return -1;
    if (fl_sim_check_opts(o, d)) return -1;
    int nsel;
    int *sel = fl_select_columns(sim->sys, globs, nglobs, &nsel, d);
    if (!sel) return -1;
    fl_cleanup cl;
    fl_cleanup_push(&cl, free_cleanup, &sel);
    int rc = write_csv(sim, o, out, "the CSV output", sel, nsel, d);
    fl_cleanup_pop(&cl);
    free(sel);
    return rc;
}

FL_GUARDED(int, fl_sim_csv_size, (const fl_sim *sim, const fl_sim_opts *o, const char *const *globs, int nglobs,
                                  double *rows, int *cols, double *bytes, fl_diag *d),
           (sim, o, globs, nglobs, rows, cols, bytes, d), -1, d)
{
    if (!sim || !o) return -1;
    if (fl_sim_check_opts(o, d)) return -1;
    int nsel;
    int *sel = fl_select_columns(sim->sys, globs, nglobs, &nsel, d);
    if (!sel) return -1;
    double n = fl_output_grid_points(o);
    double header = 5;
    char name[512];
    for (int i = 0; i < nsel; i++) {
        fl_var_name_into(sim->sys, sel[i], name, sizeof name);
        header += (double)strlen(name) + 1;
    }
    if (rows) *rows = n;
    if (cols) *cols = nsel + 1;
    if (bytes) *bytes = header + n * (TIME_BYTES + VALUE_BYTES * (double)nsel);
    free(sel);
    return 0;
}
