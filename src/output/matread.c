/* matread.c - reading MAT result files (the layout of matwrite.c, which is
 * Dymola's and OpenModelica's) into the columns every reader of results
 * uses (fl_csv, csvread.h), with the same rules: finite numbers, time never
 * decreasing, a clear message for anything else and never a byte of the
 * file echoed that is not printable.
 *
 * Only MAT v4 files are read, the version these tools write. Before libmatio
 * sees a file, its structure is walked here (every matrix header sane and
 * its data inside the file), so that a truncated or damaged file is
 * reported with what is wrong and the library only ever reads a
 * well-formed file. */
#include <errno.h>
#include <math.h>
#include <matio.h>
#include <pthread.h>
#include <stdarg.h> /* diag.h uses va_list without including it */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/csvread.h"
#include "util/diag.h"
#include "util/guard.h"
#include "util/util.h"

/* ---- libmatio's messages ---------------------------------------------------- */

/* libmatio prints its messages on stderr and aborts on its errors; flange
 * reports failures itself, so the library's log function discards them. */
static void quiet_log(int level, char *message)
{
    (void)level;
    (void)message;
}

static void install_quiet_log(void)
{
    Mat_LogInitFunc("flange", quiet_log);
}

void fl_matio_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install_quiet_log);
}

int fl_mat_path(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    if (n < 4) return 0;
    const char *e = path + n - 4;
    return e[0] == '.' && (e[1] == 'm' || e[1] == 'M') && (e[2] == 'a' || e[2] == 'A') &&
           (e[3] == 't' || e[3] == 'T');
}

/* ---- the structure of a MAT v4 file ----------------------------------------- */

static uint32_t get32(const unsigned char *b, int big)
{
    return big ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]
               : (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/* Walks the matrices of a MAT v4 file: each a header of five 32-bit
 * integers (type MOPT, rows, columns, imaginary flag, name length), the
 * name with its NUL, then the data, which must lie inside the file. The
 * variables of a result file (Aclass, name, dataInfo, data_2) must be
 * there. 0, or -1 with a message naming the file as shown. */
int fl_mat_check_file(const char *path, const char *shown, fl_diag *d)
{
    fl_loc loc = {shown, 0, 0};
    FILE *f = fopen(path, "rb");
    if (!f) {
        fl_err(d, fl_noloc, "cannot open %s: %s", shown, strerror(errno));
        return -1;
    }
    int rc = -1, big = -1, seen = 0;
    uint64_t size = 0, off = 0;
    if (fseek(f, 0, SEEK_END) != 0 || ftell(f) < 0) {
        fl_err(d, loc, "cannot read the file: it is not a regular file");
        goto done;
    }
    size = (uint64_t)ftell(f);
    if (size == 0) {
        fl_err(d, loc, "the file is empty: not a MAT file");
        goto done;
    }
    for (int k = 0; off < size; k++) {
        unsigned char h[20];
        if (fseek(f, (long)off, SEEK_SET) != 0 || size - off < 20 || fread(h, 1, 20, f) != 20) {
            if (k)
                fl_err(d, loc, "truncated: the matrix at byte %llu has no complete header", (unsigned long long)off);
            else
                fl_err(d, loc, "too short for a MAT file (%llu bytes)", (unsigned long long)size);
            goto done;
        }
        if (k == 0 && memcmp(h, "MATLAB", 6) == 0) {
            fl_err(d, loc, "a MAT v5/v7 file: flange reads MAT v4 result files (as Dymola and OpenModelica write)");
            goto done;
        }
        if (big < 0) big = get32(h, 0) > 9999; /* the type reads as a small number in the file's byte order */
        uint32_t type = get32(h, big), rows = get32(h + 4, big), cols = get32(h + 8, big);
        uint32_t imag = get32(h + 12, big), namlen = get32(h + 16, big);
        unsigned m = type / 1000, o = type / 100 % 10, p = type / 10 % 10, t = type % 10;
        if (type > 9999 || m != (unsigned)big || o != 0 || p > 5 || t > 1) {
            if (k)
                fl_err(d, loc, "damaged: the matrix at byte %llu has no valid type (%lu)", (unsigned long long)off,
                       (unsigned long)type);
            else
                fl_err(d, loc, "not a MAT v4 file: it does not start with a matrix header");
            goto done;
        }
        if (imag > 1 || namlen < 2 || namlen > 4096 || rows > INT32_MAX || cols > INT32_MAX) {
            fl_err(d, loc, "damaged matrix header at byte %llu", (unsigned long long)off);
            goto done;
        }
        if (imag) {
            fl_err(d, loc, "matrix at byte %llu is complex: not a result file", (unsigned long long)off);
            goto done;
        }
        off += 20;
        char name[4096];
        if (size - off < namlen || fread(name, 1, namlen, f) != namlen) {
            fl_err(d, loc, "truncated in the name of the matrix at byte %llu", (unsigned long long)(off - 20));
            goto done;
        }
        if (name[namlen - 1] != '\0' || strlen(name) != namlen - 1) {
            fl_err(d, loc, "damaged matrix name at byte %llu", (unsigned long long)off);
            goto done;
        }
        off += namlen;
        static const unsigned esize[6] = {8, 4, 4, 2, 2, 1};
        uint64_t left = size - off;
        if (rows && (uint64_t)cols > left / esize[p] / rows) {
            char nm[64];
            fl_csv_printable(nm, sizeof nm, name);
            fl_err(d, loc, "truncated: matrix '%s' (%lu x %lu) needs more bytes than the %llu left in the file", nm,
                   (unsigned long)rows, (unsigned long)cols, (unsigned long long)left);
            goto done;
        }
        uint64_t need = (uint64_t)rows * cols * esize[p];
        off += need;
        static const char *const want[4] = {"Aclass", "name", "dataInfo", "data_2"};
        for (int i = 0; i < 4; i++)
            if (strcmp(name, want[i]) == 0) seen |= 1 << i;
    }
    if (seen != 15) {
        fl_err(d, loc, "not a result file: it lacks %s", !(seen & 1) ? "Aclass" : !(seen & 2) ? "name" :
                       !(seen & 4) ? "dataInfo" : "data_2");
        goto done;
    }
    rc = 0;
done:
    fclose(f);
    return rc;
}

/* ---- reading ------------------------------------------------------------------ */

typedef struct matrix {
    matvar_t *v;
    size_t rows, cols;
} matrix;

/* Element (r, c) of a numeric or character matrix as a double. */
static double at(const matrix *m, size_t r, size_t c)
{
    size_t k = c * m->rows + r;
    const void *p = m->v->data;
    switch (m->v->data_type) {
    case MAT_T_DOUBLE: return ((const double *)p)[k];
    case MAT_T_SINGLE: return ((const float *)p)[k];
    case MAT_T_INT32: return ((const int32_t *)p)[k];
    case MAT_T_INT16: return ((const int16_t *)p)[k];
    case MAT_T_UINT16: return ((const uint16_t *)p)[k];
    case MAT_T_UINT8: return ((const uint8_t *)p)[k];
    case MAT_T_INT8: return ((const int8_t *)p)[k];
    default: return NAN;
    }
}

static int is_known_type(enum matio_types t)
{
    return t == MAT_T_DOUBLE || t == MAT_T_SINGLE || t == MAT_T_INT32 || t == MAT_T_INT16 || t == MAT_T_UINT16 ||
           t == MAT_T_UINT8 || t == MAT_T_INT8;
}

/* Reads variable name as a 2-D matrix; a missing optional one gives 0 with
 * m->v NULL. */
static int get(mat_t *mat, const char *name, int required, matrix *m, fl_loc loc, fl_diag *d)
{
    memset(m, 0, sizeof *m);
    m->v = Mat_VarRead(mat, name);
    if (!m->v) {
        if (!required) return 0;
        fl_err(d, loc, "the MAT file has no readable variable '%s'", name);
        return -1;
    }
    if (m->v->rank != 2 || m->v->isComplex || !m->v->data || !is_known_type(m->v->data_type)) {
        if (m->v->rank == 2 && (m->v->dims[0] == 0 || m->v->dims[1] == 0) && m->v->data == NULL) {
            m->rows = m->v->dims[0], m->cols = m->v->dims[1]; /* empty */
            return 0;
        }
        fl_err(d, loc, "variable '%s' is not a real matrix", name);
        return -1;
    }
    m->rows = m->v->dims[0];
    m->cols = m->v->dims[1];
    return 0;
}

/* String i of a character matrix: row i, or column i when trans; trailing
 * blanks and NULs removed. NULL (with a message) when it holds a byte that
 * is not printable. */
static char *string_of(const matrix *m, size_t i, int trans, const char *what, fl_loc loc, fl_diag *d)
{
    size_t len = trans ? m->rows : m->cols;
    char *s = fl_xmalloc(len + 1);
    for (size_t k = 0; k < len; k++) {
        double x = trans ? at(m, k, i) : at(m, i, k);
        s[k] = x >= 0 && x < 256 ? (char)(unsigned char)x : '?';
        if (x == 0) s[k] = ' ';
    }
    while (len > 0 && s[len - 1] == ' ') len--;
    s[len] = '\0';
    for (size_t k = 0; k < len; k++) {
        unsigned char ch = (unsigned char)s[k];
        if (ch < 0x20 || ch >= 0x7f) {
            char shown[64];
            fl_csv_printable(shown, sizeof shown, s);
            fl_err(d, loc, "%s %zu ('%s') has a byte that is not printable", what, i + 1, shown);
            free(s);
            return NULL;
        }
    }
    return s;
}

/* The unit at the end of a description: "... [m]" (Dymola also writes
 * "[unit|displayUnit]"); "" when there is none. */
static char *unit_of(const char *desc)
{
    size_t n = strlen(desc);
    const char *open = n && desc[n - 1] == ']' ? strrchr(desc, '[') : NULL;
    if (!open) return fl_xstrdup("");
    size_t len = (size_t)(desc + n - 1 - (open + 1));
    const char *bar = memchr(open + 1, '|', len);
    if (bar) len = (size_t)(bar - (open + 1));
    return fl_xsprintf("%.*s", (int)len, open + 1);
}

typedef struct matread {
    mat_t *mat;
    matrix aclass, name, desc, info, d1, d2;
    fl_csv *c;
    char *nm;
} matread;

static void matread_release(void *arg)
{
    matread *r = arg;
    matrix *all[] = {&r->aclass, &r->name, &r->desc, &r->info, &r->d1, &r->d2};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        Mat_VarFree(all[i]->v);
        all[i]->v = NULL;
    }
    if (r->mat) Mat_Close(r->mat);
    r->mat = NULL;
    free(r->nm);
    r->nm = NULL;
}

static int read_columns(matread *r, const char *path, fl_diag *d)
{
    fl_loc loc = {path, 0, 0};
    r->mat = Mat_Open(path, MAT_ACC_RDONLY);
    if (!r->mat) {
        fl_err(d, loc, "cannot read the MAT file");
        return -1;
    }
    if (get(r->mat, "Aclass", 1, &r->aclass, loc, d)) return -1;
    if (r->aclass.v->class_type != MAT_C_CHAR || r->aclass.rows < 4) {
        fl_err(d, loc, "Aclass is not 4 rows of text: not a Modelica result file");
        return -1;
    }
    char *a0 = string_of(&r->aclass, 0, 0, "Aclass row", loc, d);
    char *a3 = a0 ? string_of(&r->aclass, 3, 0, "Aclass row", loc, d) : NULL;
    int trans = a3 && strcmp(a3, "binTrans") == 0;
    int ok = a0 && a3 && strcmp(a0, "Atrajectory") == 0 && (trans || strcmp(a3, "binNormal") == 0);
    if (a0 && a3 && !ok) {
        char s0[64], s3[64];
        fl_csv_printable(s0, sizeof s0, a0);
        fl_csv_printable(s3, sizeof s3, a3);
        fl_err(d, loc, "Aclass is '%s' ... '%s', not 'Atrajectory' ... 'binTrans' or 'binNormal': not a result file",
               s0, s3);
    }
    free(a0);
    free(a3);
    if (!ok) return -1;
    if (get(r->mat, "name", 1, &r->name, loc, d) || get(r->mat, "description", 0, &r->desc, loc, d) ||
        get(r->mat, "dataInfo", 1, &r->info, loc, d) || get(r->mat, "data_1", 0, &r->d1, loc, d) ||
        get(r->mat, "data_2", 1, &r->d2, loc, d))
        return -1;
    /* in the file's orientation: n variables, and per block rows x points */
    size_t n = trans ? r->name.cols : r->name.rows;
    size_t ninfo = trans ? r->info.cols : r->info.rows, iw = trans ? r->info.rows : r->info.cols;
    if (r->name.v->class_type != MAT_C_CHAR || (r->desc.v && r->desc.v->class_type != MAT_C_CHAR)) {
        fl_err(d, loc, "name and description must be text matrices");
        return -1;
    }
    if (ninfo != n || iw < 2 || (r->desc.v && (trans ? r->desc.cols : r->desc.rows) != n)) {
        fl_err(d, loc, "name, description and dataInfo do not describe the same %zu variables", n);
        return -1;
    }
    size_t npts = trans ? r->d2.cols : r->d2.rows, nrow2 = trans ? r->d2.rows : r->d2.cols;
    size_t nrow1 = r->d1.v ? (trans ? r->d1.rows : r->d1.cols) : 0, n1pts = r->d1.v ? (trans ? r->d1.cols : r->d1.rows) : 0;
    if (nrow2 < 1) {
        fl_err(d, loc, "data_2 has no time row");
        return -1;
    }
    fl_csv *c = r->c;
    c->ncols = 1;
    c->names = fl_xcalloc(n + 1, sizeof(char *));
    c->cols = fl_xcalloc(n + 1, sizeof(double *));
    c->units = fl_xcalloc(n + 1, sizeof(char *));
    c->constant = fl_xcalloc(n + 1, 1);
    c->nrows = npts;
    c->names[0] = fl_xstrdup("time");
    c->units[0] = fl_xstrdup("s");
    c->cols[0] = fl_xmalloc(sizeof(double) * (npts ? npts : 1));
    for (size_t k = 0; k < npts; k++) {
        double t = trans ? at(&r->d2, 0, k) : at(&r->d2, k, 0);
        if (!isfinite(t)) {
            fl_err(d, loc, "time at point %zu is not a finite number", k + 1);
            return -1;
        }
        if (k && t < c->cols[0][k - 1]) {
            fl_err(d, loc, "time goes back at point %zu (%.17g after %.17g)", k + 1, t, c->cols[0][k - 1]);
            return -1;
        }
        c->cols[0][k] = t;
    }
    for (size_t i = 0; i < n; i++) {
        double blk = trans ? at(&r->info, 0, i) : at(&r->info, i, 0);
        double idx = trans ? at(&r->info, 1, i) : at(&r->info, i, 1);
        free(r->nm);
        r->nm = string_of(&r->name, i, trans, "name", loc, d);
        if (!r->nm) return -1;
        if (blk == 0) continue; /* the abscissa: time */
        size_t row = (size_t)fabs(idx);
        int neg = idx < 0;
        int ok1 = blk == 1 && row >= 1 && row <= nrow1 && n1pts >= 1;
        int ok2 = blk == 2 && row >= 1 && row <= nrow2;
        if ((!ok1 && !ok2) || idx != floor(idx)) {
            char shown[64];
            fl_csv_printable(shown, sizeof shown, r->nm);
            fl_err(d, loc, "dataInfo of '%s' points to data_%g row %g, which the file does not have", shown, blk,
                   idx);
            return -1;
        }
        int j = c->ncols;
        double *col = fl_xmalloc(sizeof(double) * (npts ? npts : 1));
        c->cols[j] = col;
        c->names[j] = r->nm;
        r->nm = NULL;
        c->ncols++;
        if (ok2) {
            for (size_t k = 0; k < npts; k++) col[k] = trans ? at(&r->d2, row - 1, k) : at(&r->d2, k, row - 1);
        } else {
            /* a parameter: its value at the start and the end, in between on a line */
            double v0 = trans ? at(&r->d1, row - 1, 0) : at(&r->d1, 0, row - 1);
            double v1 = n1pts > 1 ? (trans ? at(&r->d1, row - 1, 1) : at(&r->d1, 1, row - 1)) : v0;
            double t0 = npts ? c->cols[0][0] : 0, t1 = npts ? c->cols[0][npts - 1] : 0;
            for (size_t k = 0; k < npts; k++)
                col[k] = v0 == v1 || !(t1 > t0) ? v0 : v0 + (v1 - v0) * (c->cols[0][k] - t0) / (t1 - t0);
            c->constant[j] = 1;
        }
        for (size_t k = 0; k < npts; k++) {
            if (neg) col[k] = -col[k];
            if (!isfinite(col[k])) {
                char shown[64];
                fl_csv_printable(shown, sizeof shown, c->names[j]);
                fl_err(d, loc, "'%s' at point %zu (t = %.9g) is not a finite number", shown, k + 1,
                       npts ? c->cols[0][k] : 0.0);
                return -1;
            }
        }
        char *desc = r->desc.v ? string_of(&r->desc, i, trans, "description", loc, d) : fl_xstrdup("");
        if (!desc) return -1;
        c->units[j] = unit_of(desc);
        free(desc);
    }
    return 0;
}

fl_csv *fl_mat_read(const char *path, fl_diag *d)
{
    fl_matio_init();
    if (fl_mat_check_file(path, path, d)) return NULL;
    matread r;
    memset(&r, 0, sizeof r);
    r.c = fl_xcalloc(1, sizeof *r.c);
    r.c->path = fl_xstrdup(path);
    fl_cleanup cl;
    fl_cleanup_push(&cl, matread_release, &r);
    int rc = read_columns(&r, path, d);
    fl_cleanup_pop(&cl);
    matread_release(&r);
    if (rc) {
        fl_csv_free(r.c);
        return NULL;
    }
    return r.c;
}
