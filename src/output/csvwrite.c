/* csvwrite.c - writes a run to CSV: header "time" then the selected
 * variables, and beside it RESULT.csv.units (variable,unit lines) for the
 * axis labels of plots. Files are written under a temporary name in the
 * target directory and renamed only when the run succeeded, so a failed run
 * never leaves a half-written file behind. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/sim.h"

typedef struct csvctx {
    FILE *f;
    int *sel;
    int nsel;
    char *buf;
    int io_error;
    char *tmpl; /* the temporary file, removed unless renamed */
} csvctx;

/* Out of memory during the run's setup or ending: no file is left behind. */
static void csv_cleanup(void *arg)
{
    csvctx *c = arg;
    if (c->f) fclose(c->f);
    free(c->buf);
    if (c->tmpl) unlink(c->tmpl);
    free(c->tmpl);
    free(c->sel);
}

static int write_row(void *user, double t, const double *vals, int nvals)
{
    csvctx *c = user;
    FL_UNUSED(nvals);
    char tmp[48];
    fl_fmt_double(tmp, sizeof tmp, t);
    fputs(tmp, c->f);
    for (int i = 0; i < c->nsel; i++) {
        fputc(',', c->f);
        snprintf(tmp, sizeof tmp, "%.12g", vals[c->sel[i]]);
        fputs(tmp, c->f);
    }
    if (fputc('\n', c->f) == EOF) {
        c->io_error = errno ? errno : EIO;
        return 1;
    }
    return 0;
}

/* RESULT.csv.units: the unit of every column, for plots. */
static int write_units(const fl_system *sys, const int *sel, int nsel, const char *path, fl_diag *d)
{
    char *tmp = fl_xsprintf("%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    int ok = f != NULL;
    if (f) {
        fputs("variable,unit\ntime,s\n", f);
        char name[512];
        for (int i = 0; i < nsel; i++) {
            fl_var_name_into(sys, sel[i], name, sizeof name);
            fprintf(f, "%s,%s\n", name, fl_system_var_unit(sys, sel[i]));
        }
        ok = fclose(f) == 0;
    }
    if (ok && rename(tmp, path) == 0) {
        free(tmp);
        return 0;
    }
    fl_err(d, fl_noloc, "cannot write %s: %s", path, strerror(errno));
    unlink(tmp);
    free(tmp);
    return -1;
}

FL_GUARDED(int, fl_sim_run_csv, (fl_sim *sim, const fl_sim_opts *o, const char *path, const char *const *globs,
                                 int nglobs, fl_diag *d),
           (sim, o, path, globs, nglobs, d), -1, d)
{
    if (!sim || !path) return -1;
    const fl_system *sys = sim->sys;
    int nvars = fl_system_nvars(sys);
    csvctx c;
    memset(&c, 0, sizeof c);
    fl_cleanup cl;
    fl_cleanup_push(&cl, csv_cleanup, &c);
    c.sel = fl_xmalloc(sizeof(int) * (size_t)(nvars ? nvars : 1));
    unsigned char *hit = fl_xcalloc((size_t)(nglobs > 0 ? nglobs : 1), 1);
    char name[512];
    for (int i = 0; i < nvars; i++) {
        /* all variables by default; the energy audit's totals only when asked for */
        int keep = nglobs <= 0 && !fl_system_var_on_request(sys, i);
        if (nglobs > 0) fl_var_name_into(sys, i, name, sizeof name); /* no name table for a selection */
        for (int g = 0; g < nglobs; g++)
            if (fl_glob_match(globs[g], name)) keep = hit[g] = 1;
        if (keep) c.sel[c.nsel++] = i;
    }
    for (int g = 0; g < nglobs; g++) {
        if (!hit[g]) {
            fl_err(d, fl_noloc, "no variable matches '%s' (see the header of a full run or `flange check`)", globs[g]);
            free(hit);
            fl_cleanup_pop(&cl);
            free(c.sel);
            return -1;
        }
    }
    free(hit);
    /* temporary file next to the target, so that rename() is atomic */
    char *tmpl = fl_xsprintf("%s.tmpXXXXXX", path);
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        fl_err(d, fl_noloc, "cannot create %s: %s", path, strerror(errno));
        fl_cleanup_pop(&cl);
        free(tmpl);
        free(c.sel);
        return -1;
    }
    c.tmpl = tmpl;
    fchmod(fd, 0644); /* mkstemp creates 0600; results are ordinary files */
    c.f = fdopen(fd, "w");
    if (!c.f) {
        close(fd);
        fl_err(d, fl_noloc, "cannot write %s: %s", path, strerror(errno));
        fl_cleanup_pop(&cl);
        unlink(tmpl);
        free(tmpl);
        free(c.sel);
        return -1;
    }
    c.buf = fl_xmalloc(1 << 20);
    setvbuf(c.f, c.buf, _IOFBF, 1 << 20);
    fputs("time", c.f);
    for (int i = 0; i < c.nsel; i++) {
        fputc(',', c.f);
        fl_var_name_into(sys, c.sel[i], name, sizeof name);
        fputs(name, c.f);
    }
    fputc('\n', c.f);
    fl_sim_opts oo = *o;
    if (!oo.outputs) { /* compute only what is written */
        oo.outputs = c.sel;
        oo.noutputs = c.nsel;
    }
    int rc = fl_sim_run(sim, &oo, write_row, &c, d);
    if (fflush(c.f) != 0 && !c.io_error) c.io_error = errno ? errno : EIO;
    if (fclose(c.f) != 0 && !c.io_error) c.io_error = errno ? errno : EIO;
    c.f = NULL;
    free(c.buf);
    c.buf = NULL;
    if (c.io_error) {
        fl_err(d, fl_noloc, "cannot write %s: %s", path, strerror(c.io_error));
        rc = -1;
    }
    char *upath = fl_xsprintf("%s.units", path);
    if (rc == 0 && write_units(sys, c.sel, c.nsel, upath, d)) rc = -1;
    if (rc == 0 && rename(tmpl, path) != 0) {
        fl_err(d, fl_noloc, "cannot write %s: %s", path, strerror(errno));
        unlink(upath);
        rc = -1;
    }
    fl_cleanup_pop(&cl);
    if (rc != 0) unlink(tmpl);
    free(upath);
    free(tmpl);
    free(c.sel);
    return rc ? -1 : 0;
}
