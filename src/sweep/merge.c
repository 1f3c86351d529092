/* merge.c - joining the shards of a study (flange sweep --merge): the rows
 * of several study files of one study, checked (the same columns, every run
 * exactly once) and ordered by run, written as one file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "util/diag.h"
#include "util/util.h"

static int by_run(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

FL_GUARDED(int, fl_sweep_merge, (const char *const *inputs, int n, const char *out, fl_diag *d), (inputs, n, out, d),
           -1, d)
{
    if (!inputs || n < 1 || !out) {
        fl_err(d, fl_noloc, "--merge: give the output (-o) and at least one shard");
        return -1;
    }
    sw_table all = {0}, t;
    fl_cleanup c;
    fl_cleanup_push(&c, (void (*)(void *))sw_table_free, &all);
    int rc = 0;
    for (int f = 0; f < n && !rc; f++) {
        if (sw_table_read(inputs[f], &t, d)) {
            rc = -1;
            break;
        }
        if (f == 0) {
            all = t;
            continue;
        }
        int same = t.ncols == all.ncols && t.nsave == all.nsave;
        for (int j = 0; same && j < t.ncols; j++) same = strcmp(t.names[j], all.names[j]) == 0;
        for (int k = 0; same && k < t.nsave; k++) same = strcmp(t.save_names[k], all.save_names[k]) == 0;
        if (!same || (t.nruns_total && all.nruns_total && t.nruns_total != all.nruns_total)) {
            fl_err(d, fl_noloc, "%s: its columns (or saved variables, or study size) differ from those of %s: "
                   "not a shard of the same study", inputs[f], inputs[0]);
            sw_table_free(&t);
            rc = -1;
            break;
        }
        long m = all.nrows + t.nrows;
        all.num = fl_xrealloc(all.num, sizeof(double) * (size_t)(m ? m : 1) * (size_t)all.ncols);
        all.str = fl_xrealloc(all.str, sizeof(char *) * (size_t)(m ? m : 1) * (size_t)all.ncols);
        all.npts = fl_xrealloc(all.npts, sizeof(long) * (size_t)(m ? m : 1));
        all.traj = fl_xrealloc(all.traj, sizeof(double *) * (size_t)(m ? m : 1));
        memcpy(all.num + all.nrows * all.ncols, t.num, sizeof(double) * (size_t)t.nrows * (size_t)t.ncols);
        memcpy(all.str + all.nrows * all.ncols, t.str, sizeof(char *) * (size_t)t.nrows * (size_t)t.ncols);
        memcpy(all.npts + all.nrows, t.npts, sizeof(long) * (size_t)t.nrows);
        memcpy(all.traj + all.nrows, t.traj, sizeof(double *) * (size_t)t.nrows);
        all.nrows = m;
        if (!all.nruns_total) all.nruns_total = t.nruns_total;
        /* the rows moved over: free the rest of t */
        memset(t.str, 0, sizeof(char *) * (size_t)t.nrows * (size_t)t.ncols);
        memset(t.traj, 0, sizeof(double *) * (size_t)t.nrows);
        sw_table_free(&t);
    }
    if (!rc) {
        /* order by run: sort row indices by the run column */
        long m = all.nrows;
        double *key = fl_xmalloc(sizeof(double) * 2 * (size_t)(m ? m : 1));
        for (long i = 0; i < m; i++) {
            key[2 * i] = all.num[i * all.ncols];
            key[2 * i + 1] = (double)i;
        }
        qsort(key, (size_t)m, 2 * sizeof(double), by_run);
        /* every run 0 .. N - 1 exactly once (N: the study's size when the files say it) */
        long total = all.nruns_total ? all.nruns_total : m;
        for (long i = 0; i < m && !rc; i++) {
            if (key[2 * i] == (double)i) continue;
            if (i > 0 && key[2 * i] == key[2 * i - 2])
                fl_err(d, fl_noloc, "--merge: run %.0f is in more than one shard", key[2 * i]);
            else if (all.nruns_total)
                fl_err(d, fl_noloc, "--merge: run %ld is missing (the study has %ld runs, the shards hold %ld)", i,
                       total, m);
            else
                fl_err(d, fl_noloc, "--merge: run %ld is missing (the shards hold %ld runs)", i, m);
            rc = -1;
        }
        if (!rc && total != m) {
            fl_err(d, fl_noloc, "--merge: run %ld is missing (the study has %ld runs, the shards hold %ld)", m, total,
                   m);
            rc = -1;
        }
        if (!rc) {
            double *num = fl_xmalloc(sizeof(double) * (size_t)(m ? m : 1) * (size_t)all.ncols);
            char **str = fl_xmalloc(sizeof(char *) * (size_t)(m ? m : 1) * (size_t)all.ncols);
            long *npts = fl_xmalloc(sizeof(long) * (size_t)(m ? m : 1));
            double **traj = fl_xmalloc(sizeof(double *) * (size_t)(m ? m : 1));
            for (long i = 0; i < m; i++) {
                long from = (long)key[2 * i + 1];
                memcpy(num + i * all.ncols, all.num + from * all.ncols, sizeof(double) * (size_t)all.ncols);
                memcpy(str + i * all.ncols, all.str + from * all.ncols, sizeof(char *) * (size_t)all.ncols);
                npts[i] = all.npts[from];
                traj[i] = all.traj[from];
            }
            free(all.num);
            free(all.str);
            free(all.npts);
            free(all.traj);
            all.num = num;
            all.str = str;
            all.npts = npts;
            all.traj = traj;
            all.nruns_total = m;
            if (all.nsave && !sw_h5_path(out))
                fl_warn(d, fl_noloc, "%s: a CSV file holds the table only: the saved trajectories are left out", out);
            rc = sw_table_write(&all, out, d);
        }
        free(key);
    }
    fl_cleanup_pop(&c);
    sw_table_free(&all);
    return rc;
}
