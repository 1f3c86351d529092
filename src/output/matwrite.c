/* matwrite.c - writes a run as a MAT result file, the layout Dymola and
 * OpenModelica write (and DyMat, OMEdit, Dymola and scipy.io.loadmat read),
 * through libmatio in the MAT v4 format those tools use:
 *
 *   Aclass       4 x 11 characters, one row each: "Atrajectory", "1.1", "",
 *                "binTrans" (padded with blanks);
 *   name         L x n characters: column i is the name of variable i,
 *                padded with blanks ("binTrans": every matrix below is
 *                stored transposed, one variable per column);
 *   description  M x n characters: column i is "description [unit]";
 *   dataInfo     4 x n int32: column i is (block, signed row, 0, -1):
 *                block 0 for time (the abscissa), 2 for a trajectory in
 *                data_2, 1 for a parameter in data_1; the row is 1-based
 *                in that block (negative for a negated alias: flange
 *                writes none); 0 = linear interpolation; -1 = undefined
 *                outside the time range;
 *   data_1       (1 + parameters) x 2 doubles: row 1 the first and last
 *                output time, then each parameter at those two times;
 *   data_2       (1 + trajectories) x points doubles: row 1 time, then one
 *                row per variable, one column per output point (an event
 *                repeats its time, as in the CSV).
 *
 * The rows are collected in memory (in the order data_2 is stored: one
 * output point after the other) and written when the run succeeded, to a
 * temporary file renamed onto the target (target.c): a failed run leaves
 * the previous file as it was. */
#include <errno.h>
#include <matio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile/compile.h"
#include "output/csvread.h"
#include "output/select.h"
#include "output/target.h"
#include "sim/opts.h"
#include "sim/sim.h"
#include "util/guard.h"

typedef struct matrows {
    double *buf; /* points one after the other: time, then the selected values */
    size_t n, cap; /* doubles */
    const int *sel;
    int nsel;
    int compact; /* vals holds the selected values alone (selected_only) */
    double rows, max_rows;
    fl_diag *d;
} matrows;

static int collect_row(void *user, double t, const double *vals, int nvals)
{
    matrows *m = user;
    FL_UNUSED(nvals);
    if (fl_output_row_over(&m->rows, m->max_rows, t, m->d)) return 1;
    size_t w = (size_t)m->nsel + 1;
    if (m->n + w > m->cap) {
        m->cap = m->cap ? 2 * m->cap : 1024 * w;
        m->buf = fl_xrealloc(m->buf, m->cap * sizeof(double));
    }
    double *p = m->buf + m->n;
    p[0] = t;
    for (int i = 0; i < m->nsel; i++) {
        double v = vals[m->compact ? i : m->sel[i]];
        p[i + 1] = v == 0 ? 0.0 : v; /* 0, never -0, as in the CSV */
    }
    m->n += w;
    return 0;
}

/* The strings as a width x n character matrix, one string per column
 * (column-major: the padded strings one after the other). */
static char *char_columns(char **s, size_t n, size_t *width)
{
    size_t w = 1;
    for (size_t i = 0; i < n; i++) w = FL_MAX(w, strlen(s[i]));
    char *m = fl_xmalloc(w * (n ? n : 1));
    memset(m, ' ', w * (n ? n : 1));
    for (size_t i = 0; i < n; i++) memcpy(m + i * w, s[i], strlen(s[i]));
    *width = w;
    return m;
}

/* "description [unit]", "[unit]", "description" or "". */
static char *describe(const char *desc, const char *unit)
{
    desc = desc ? desc : "";
    if (!unit || !*unit) return fl_xstrdup(desc);
    return fl_xsprintf("%s%s[%s]", desc, *desc ? " " : "", unit);
}

/* What a MAT write holds, released on every way out (also by an
 * out-of-memory failure): the file is closed, the temporary file removed. */
typedef struct matwrite {
    fl_target t;
    mat_t *mat;
    matrows rows;
    int *sel;
    char **names, **descs; /* n each */
    size_t n;
    double *data1;
    int32_t *info;
    char *cname, *cdesc;
} matwrite;

static void matwrite_release(void *arg)
{
    matwrite *w = arg;
    if (w->mat) Mat_Close(w->mat);
    w->mat = NULL;
    fl_target_discard(&w->t);
    for (size_t i = 0; i < w->n; i++) {
        free(w->names[i]);
        free(w->descs[i]);
    }
    free(w->names);
    free(w->descs);
    free(w->rows.buf);
    free(w->sel);
    free(w->data1);
    free(w->info);
    free(w->cname);
    free(w->cdesc);
    memset(w, 0, sizeof *w);
    w->t.slot = -1;
}

static int put(mat_t *m, const char *name, enum matio_classes cls, enum matio_types ty, size_t rows, size_t cols,
               void *data)
{
    size_t dims[2] = {rows, cols};
    matvar_t *v = Mat_VarCreate(name, cls, ty, 2, dims, data, MAT_F_DONT_COPY_DATA);
    if (!v) return -1;
    int rc = Mat_VarWrite(m, v, MAT_COMPRESSION_NONE);
    Mat_VarFree(v);
    return rc ? -1 : 0;
}

/* The scalar parameters of the system (Real, Integer, Boolean,
 * enumeration) with this simulation's values. */
static int scalar_param(const fl_param_def *pd)
{
    return pd->type == FL_P_REAL || pd->type == FL_P_INT || pd->type == FL_P_BOOL || pd->type == FL_P_ENUM;
}

static int write_file(matwrite *w, const fl_sim *sim, fl_diag *d)
{
    const fl_system *sys = sim->sys;
    size_t npts = w->rows.n / ((size_t)w->rows.nsel + 1);
    size_t ntraj = (size_t)w->rows.nsel;
    size_t npar = 0;
    for (int i = 0; i < sys->ninst; i++)
        for (int k = 0; k < sys->insts[i].cls->nparams; k++) npar += scalar_param(&sys->insts[i].cls->params[k]);
    size_t n = 1 + ntraj + npar;
    w->names = fl_xcalloc(n, sizeof(char *));
    w->descs = fl_xcalloc(n, sizeof(char *));
    w->info = fl_xcalloc(4 * n, sizeof(int32_t));
    w->data1 = fl_xmalloc(2 * (1 + npar) * sizeof(double));
    double t0 = npts ? w->rows.buf[0] : 0, t1 = npts ? w->rows.buf[(npts - 1) * (ntraj + 1)] : 0;
    size_t v = 0;
    w->names[v] = fl_xstrdup("time");
    w->descs[v] = fl_xstrdup("Simulation time [s]");
    w->n = ++v;
    w->info[0] = 0, w->info[1] = 1, w->info[2] = 0, w->info[3] = -1;
    char name[512];
    for (size_t j = 0; j < ntraj; j++, v++) {
        fl_var_name_into(sys, w->sel[j], name, sizeof name);
        w->names[v] = fl_xstrdup(name);
        w->descs[v] = describe(fl_system_var_desc(sys, w->sel[j]), fl_system_var_unit(sys, w->sel[j]));
        w->n = v + 1;
        int32_t *in = w->info + 4 * v;
        in[0] = 2, in[1] = (int32_t)(j + 2), in[2] = 0, in[3] = -1;
    }
    /* data_1, column-major (1 + npar) x 2: the start column, then the end column */
    size_t r1 = 1 + npar;
    w->data1[0] = t0;
    w->data1[r1] = t1;
    size_t p = 1;
    for (int i = 0; i < sys->ninst; i++) {
        const fl_inst_rt *ir = &sys->insts[i];
        for (int k = 0; k < ir->cls->nparams; k++) {
            const fl_param_def *pd = &ir->cls->params[k];
            if (!scalar_param(pd)) continue;
            double x = sim->par[fl_sim_prow(sim, ir) + k];
            w->data1[p] = w->data1[r1 + p] = x == 0 ? 0.0 : x;
            w->names[v] = fl_xsprintf("%s.%s", fl_ir_name(sys, ir), pd->name);
            w->descs[v] = describe(pd->desc, pd->type == FL_P_REAL ? pd->unit : NULL);
            w->n = v + 1;
            int32_t *in = w->info + 4 * v;
            in[0] = 1, in[1] = (int32_t)(p + 1), in[2] = 0, in[3] = 0;
            p++, v++;
        }
    }
    size_t wn, wd;
    w->cname = char_columns(w->names, n, &wn);
    w->cdesc = char_columns(w->descs, n, &wd);
    /* Aclass: 4 rows of 11 characters, column-major */
    static const char *const aclass[4] = {"Atrajectory", "1.1", "", "binTrans"};
    char ac[44];
    memset(ac, ' ', sizeof ac);
    for (int r = 0; r < 4; r++)
        for (size_t c = 0; c < strlen(aclass[r]); c++) ac[c * 4 + (size_t)r] = aclass[r][c];

    w->mat = Mat_CreateVer(w->t.tmp, NULL, MAT_FT_MAT4);
    if (!w->mat) {
        fl_err(d, fl_noloc, "cannot write %s: %s", w->t.path, errno ? strerror(errno) : "cannot create the file");
        return -1;
    }
    errno = 0;
    int rc = put(w->mat, "Aclass", MAT_C_CHAR, MAT_T_UINT8, 4, 11, ac);
    if (!rc) rc = put(w->mat, "name", MAT_C_CHAR, MAT_T_UINT8, wn, n, w->cname);
    if (!rc) rc = put(w->mat, "description", MAT_C_CHAR, MAT_T_UINT8, wd, n, w->cdesc);
    if (!rc) rc = put(w->mat, "dataInfo", MAT_C_INT32, MAT_T_INT32, 4, n, w->info);
    if (!rc) rc = put(w->mat, "data_1", MAT_C_DOUBLE, MAT_T_DOUBLE, r1, 2, w->data1);
    if (!rc) rc = put(w->mat, "data_2", MAT_C_DOUBLE, MAT_T_DOUBLE, ntraj + 1, npts, w->rows.buf);
    int err = errno;
    int closed = Mat_Close(w->mat);
    w->mat = NULL;
    if (rc || closed) {
        fl_err(d, fl_noloc, "cannot write %s: %s", w->t.path, err ? strerror(err) : "the MAT library failed");
        return -1;
    }
    /* matio does not always see a failed write (a full disk): the file
     * must read back as a complete MAT v4 file with every variable */
    if (fl_mat_check_file(w->t.tmp, w->t.path, d)) return -1;
    return 0;
}

FL_GUARDED(int, fl_sim_run_mat, (fl_sim *sim, const fl_sim_opts *o, const char *path, const char *const *globs,
                                 int nglobs, fl_diag *d),
           (sim, o, path, globs, nglobs, d), -1, d)
{
    if (!sim || !o || !path) return -1;
    if (fl_sim_check_opts(o, d)) return -1; /* before a file is created */
    fl_matio_init();
    matwrite w;
    memset(&w, 0, sizeof w);
    w.t.slot = -1;
    fl_cleanup cl;
    fl_cleanup_push(&cl, matwrite_release, &w);
    int nsel;
    w.sel = fl_select_columns(sim->sys, globs, nglobs, &nsel, d);
    int rc = w.sel ? 0 : -1;
    /* always a temporary file (matio writes by name), renamed onto a
     * regular file or copied into a device at the end */
    int fd = rc ? -1 : fl_target_open(&w.t, path, FL_TARGET_FILE, d);
    if (!rc && fd < 0) rc = -1;
    if (fd >= 0) close(fd);
    if (!rc) {
        w.rows.sel = w.sel;
        w.rows.nsel = nsel;
        w.rows.d = d;
        w.rows.max_rows = fl_output_limit(o);
        fl_sim_opts oo = *o;
        /* compute only what is written, and keep only that when it is a few */
        w.rows.compact = oo.selected_only = !oo.outputs && fl_outputs_few(nsel, sim->sys->nvars);
        if (!oo.outputs) {
            oo.outputs = w.sel;
            oo.noutputs = nsel;
        }
        rc = fl_sim_run(sim, &oo, collect_row, &w.rows, d) ? -1 : 0;
    }
    if (!rc) rc = write_file(&w, sim, d);
    if (!rc && fl_target_commit(&w.t, d)) rc = -1;
    fl_cleanup_pop(&cl);
    matwrite_release(&w);
    return rc;
}
