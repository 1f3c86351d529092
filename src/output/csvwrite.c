/* csvwrite.c - writes a run to CSV: header "time" then the selected
 * variables. The file is written under a temporary name in the target
 * directory and renamed only when the run succeeded, so a failed run never
 * leaves a half-written file behind. */
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
} csvctx;

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

int fl_sim_run_csv(fl_sim *sim, const fl_sim_opts *o, const char *path, const char *const *globs, int nglobs,
                   fl_diag *d)
{
    if (!sim || !path) return -1;
    const fl_system *sys = sim->sys;
    int nvars = fl_system_nvars(sys);
    csvctx c;
    memset(&c, 0, sizeof c);
    c.sel = fl_xmalloc(sizeof(int) * (size_t)(nvars ? nvars : 1));
    for (int i = 0; i < nvars; i++) {
        const char *name = fl_system_var_name(sys, i);
        /* all variables by default; the energy audit only when it runs */
        int keep = nglobs <= 0 && (!fl_system_var_on_request(sys, i) || o->energy);
        for (int g = 0; g < nglobs && !keep; g++) keep = fl_glob_match(globs[g], name);
        if (keep) c.sel[c.nsel++] = i;
    }
    for (int g = 0; g < nglobs; g++) {
        int any = 0;
        for (int i = 0; i < nvars && !any; i++) any = fl_glob_match(globs[g], fl_system_var_name(sys, i));
        if (!any) {
            fl_err(d, fl_noloc, "no variable matches '%s' (see the header of a full run or `flange check`)", globs[g]);
            free(c.sel);
            return -1;
        }
    }
    /* temporary file next to the target, so that rename() is atomic */
    char *tmpl = fl_xsprintf("%s.tmpXXXXXX", path);
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        fl_err(d, fl_noloc, "cannot create %s: %s", path, strerror(errno));
        free(tmpl);
        free(c.sel);
        return -1;
    }
    fchmod(fd, 0644); /* mkstemp creates 0600; results are ordinary files */
    c.f = fdopen(fd, "w");
    if (!c.f) {
        close(fd);
        unlink(tmpl);
        fl_err(d, fl_noloc, "cannot write %s: %s", path, strerror(errno));
        free(tmpl);
        free(c.sel);
        return -1;
    }
    c.buf = fl_xmalloc(1 << 20);
    setvbuf(c.f, c.buf, _IOFBF, 1 << 20);
    fputs("time", c.f);
    for (int i = 0; i < c.nsel; i++) {
        fputc(',', c.f);
        fputs(fl_system_var_name(sys, c.sel[i]), c.f);
    }
    fputc('\n', c.f);
    int rc = fl_sim_run(sim, o, write_row, &c, d);
    if (fflush(c.f) != 0 && !c.io_error) c.io_error = errno ? errno : EIO;
    if (fclose(c.f) != 0 && !c.io_error) c.io_error = errno ? errno : EIO;
    free(c.buf);
    if (c.io_error) {
        fl_err(d, fl_noloc, "cannot write %s: %s", path, strerror(c.io_error));
        rc = -1;
    }
    if (rc == 0 && rename(tmpl, path) != 0) {
        fl_err(d, fl_noloc, "cannot write %s: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc != 0) unlink(tmpl);
    free(tmpl);
    free(c.sel);
    return rc ? -1 : 0;
}
