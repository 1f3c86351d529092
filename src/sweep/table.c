/* table.c - a study's result table as CSV (one row per run: run, the
 * parameters, status, message, the collected quantities; numbers written
 * so that they read back exactly, an empty field where a failed run has no
 * value, the message always double-quoted), the dispatch between CSV and
 * HDF5 (h5.c). The plot library carries a copy of it to draw studies. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "output/target.h"
#include "sweep.h"
#include "table.h"
#include "util/diag.h"
#include "util/util.h"

char *sw_format_number(double x, char buf[32])
{
    if (isnan(x)) buf[0] = 0;
    else fl_fmt_double(buf, 32, x);
    return buf;
}

void sw_table_free(sw_table *t)
{
    if (!t) return;
    for (int j = 0; j < t->ncols && t->names; j++) free(t->names[j]);
    free(t->names);
    free(t->text);
    if (t->str)
        for (long i = 0; i < t->nrows * t->ncols; i++) free(t->str[i]);
    free(t->str);
    free(t->num);
    free(t->model_name);
    free(t->model_text);
    free(t->version);
    for (int j = 0; j < t->nparam_defs && t->param_defs; j++) free(t->param_defs[j]);
    free(t->param_defs);
    free(t->param_structural);
    for (int k = 0; k < t->nsave && t->save_names; k++) free(t->save_names[k]);
    free(t->save_names);
    if (t->traj)
        for (long i = 0; i < t->nrows; i++) free(t->traj[i]);
    free(t->traj);
    free(t->npts);
    memset(t, 0, sizeof *t);
}

int sw_table_write(const sw_table *t, const char *path, fl_diag *d)
{
    return sw_h5_path(path) ? sw_table_write_h5(t, path, d) : sw_table_write_csv(t, path, d);
}

int sw_table_read(const char *path, sw_table *t, fl_diag *d)
{
    memset(t, 0, sizeof *t);
    return sw_h5_path(path) ? sw_table_read_h5(path, t, d) : sw_table_read_csv(path, t, d);
}

/* ------------------------------------------------------------------------
 * CSV */

static void put_field(FILE *f, const char *s, int always_quote)
{
    if (!always_quote && !strpbrk(s, ",\"\n\r") && s[0] != ' ' && (!*s || s[strlen(s) - 1] != ' ')) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (const char *c = s; *c; c++) {
        if (*c == '"') fputc('"', f);
        fputc(*c == '\n' || *c == '\r' ? ' ' : *c, f);
    }
    fputc('"', f);
}

int sw_table_write_csv(const sw_table *t, const char *path, fl_diag *d)
{
    fl_target tg = {0};
    tg.slot = -1;
    int fd = fl_target_open(&tg, path, FL_TARGET_STREAM, d);
    if (fd < 0) return -1;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        fl_target_discard(&tg);
        fl_err(d, fl_noloc, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    for (int j = 0; j < t->ncols; j++) {
        if (j) fputc(',', f);
        put_field(f, t->names[j], 0);
    }
    fputc('\n', f);
    char buf[32];
    for (long i = 0; i < t->nrows; i++) {
        for (int j = 0; j < t->ncols; j++) {
            if (j) fputc(',', f);
            if (t->text[j]) {
                const char *s = t->str[i * t->ncols + j] ? t->str[i * t->ncols + j] : "";
                put_field(f, s, strcmp(t->names[j], "message") == 0);
            } else {
                double v = t->num[i * t->ncols + j];
                fputs(sw_format_number(v == 0 ? 0.0 : v, buf), f);
            }
        }
        fputc('\n', f);
    }
    int err = ferror(f);
    int e = errno;
    if (fclose(f)) err = 1, e = errno;
    if (err) {
        fl_target_discard(&tg);
        fl_err(d, fl_noloc, "%s: cannot write: %s", path, strerror(e ? e : EIO));
        return -1;
    }
    return fl_target_commit(&tg, d);
}

/* One CSV field from *p (quoted or not); NULL at a malformed quote. */
static char *get_field(const char **p, int *quoted)
{
    const char *c = *p;
    fl_buf b = {0};
    *quoted = 0;
    if (*c == '"') {
        *quoted = 1;
        c++;
        for (;;) {
            if (!*c) {
                fl_buf_free(&b);
                return NULL;
            }
            if (*c == '"') {
                if (c[1] == '"') {
                    fl_buf_addc(&b, '"');
                    c += 2;
                    continue;
                }
                c++;
                break;
            }
            fl_buf_addc(&b, *c++);
        }
        if (*c && *c != ',') {
            fl_buf_free(&b);
            return NULL;
        }
    } else {
        while (*c && *c != ',') fl_buf_addc(&b, *c++);
    }
    *p = c;
    return fl_buf_take(&b);
}

int sw_table_read_csv(const char *path, sw_table *t, fl_diag *d)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fl_err(d, fl_noloc, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0, rcap = 0;
    int ok = 0;
    memset(t, 0, sizeof *t);
    while ((n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if ((size_t)n != strlen(line)) {
            fl_err(d, fl_noloc, "%s:%ld: not a text file (a NUL byte)", path, lineno);
            goto out;
        }
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        if (!n) continue;
        const char *p = line;
        if (lineno == 1 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF)
            p += 3;
        if (!t->ncols) { /* the header */
            for (;;) {
                int q;
                const char *at = p;
                char *name = get_field(&p, &q);
                if (!name) {
                    fl_err(d, fl_noloc, "%s:%ld:%ld: an unterminated quote", path, lineno, (long)(at - line) + 1);
                    goto out;
                }
                t->names = fl_xrealloc(t->names, sizeof *t->names * (size_t)(t->ncols + 1));
                t->text = fl_xrealloc(t->text, (size_t)(t->ncols + 1));
                t->text[t->ncols] = strcmp(name, "status") == 0 || strcmp(name, "message") == 0;
                t->names[t->ncols++] = name;
                if (!*p) break;
                p++;
            }
            if (strcmp(t->names[0], "run") != 0) {
                fl_err(d, fl_noloc, "%s:1:1: not a study table of flange sweep (its first column is not 'run')", path);
                goto out;
            }
            continue;
        }
        if (t->nrows == rcap) {
            rcap = rcap ? 2 * rcap : 64;
            t->num = fl_xrealloc(t->num, sizeof(double) * (size_t)rcap * (size_t)t->ncols);
            t->str = fl_xrealloc(t->str, sizeof(char *) * (size_t)rcap * (size_t)t->ncols);
            memset(t->str + t->nrows * t->ncols, 0, sizeof(char *) * (size_t)(rcap - t->nrows) * (size_t)t->ncols);
        }
        long i = t->nrows++;
        for (int j = 0;; j++) {
            const char *at = p;
            if (j >= t->ncols) {
                fl_err(d, fl_noloc, "%s:%ld:%ld: more fields than the %d columns of the header", path, lineno,
                       (long)(at - line) + 1, t->ncols);
                goto out;
            }
            int q;
            char *v = get_field(&p, &q);
            if (!v) {
                fl_err(d, fl_noloc, "%s:%ld:%ld: an unterminated quote", path, lineno, (long)(at - line) + 1);
                goto out;
            }
            if (t->text[j]) {
                t->str[i * t->ncols + j] = v;
                t->num[i * t->ncols + j] = NAN;
            } else {
                char *end;
                double x = *v ? strtod(v, &end) : NAN;
                if (*v && (*end || !isfinite(x))) {
                    fl_err(d, fl_noloc, "%s:%ld:%ld: '%s' is not a number (column %s)", path, lineno,
                           (long)(at - line) + 1, v, t->names[j]);
                    free(v);
                    goto out;
                }
                free(v);
                t->num[i * t->ncols + j] = x;
            }
            if (!*p) {
                if (j + 1 < t->ncols) {
                    fl_err(d, fl_noloc, "%s:%ld: %d fields where the header has %d columns", path, lineno, j + 1,
                           t->ncols);
                    goto out;
                }
                break;
            }
            p++;
        }
        double run = t->num[i * t->ncols];
        if (!(run >= 0) || run != floor(run)) {
            fl_err(d, fl_noloc, "%s:%ld:1: the run number must be a whole number >= 0", path, lineno);
            goto out;
        }
    }
    if (!t->ncols) {
        fl_err(d, fl_noloc, "%s: empty: not a study table of flange sweep", path);
        goto out;
    }
    t->npts = fl_xcalloc((size_t)(t->nrows ? t->nrows : 1), sizeof *t->npts);
    t->traj = fl_xcalloc((size_t)(t->nrows ? t->nrows : 1), sizeof *t->traj);
    ok = 1;
out:
    free(line);
    fclose(f);
    if (!ok) sw_table_free(t);
    return ok ? 0 : -1;
}

