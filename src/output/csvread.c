/* csvread.c - the one reader of result files (compare, plot), fast enough
 * for files of hundreds of megabytes, with one set of rules (csvread.h) so
 * that a file one command accepts is not refused by another. */
#include "output/csvread.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h> /* diag.h uses va_list without including it */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "util/util.h"

typedef struct field {
    char *text; /* NUL-terminated, inside the line buffer */
    int col;    /* 1-based column in the line where the field starts */
} field;
typedef FL_VEC(field) fieldvec;

/* Reads the file in a few large fread calls into one NUL-terminated
 * buffer: parsing from memory is several times faster than stdio per
 * value, and lets the lines be split in place without copies. */
static char *slurp(const char *path, size_t *len, fl_diag *d)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fl_err(d, fl_noloc, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    fl_cleanup cl; /* out of memory: the file is closed */
    fl_cleanup_push(&cl, fl_fclose_cleanup, f);
    size_t cap = (size_t)1 << 16;
    /* The size is only a hint (pipes have none); the loop below copes
     * with the file growing or shrinking meanwhile. */
    if (fseek(f, 0, SEEK_END) == 0) {
        long sz = ftell(f);
        if (sz > 0) cap = (size_t)sz + 1;
        rewind(f);
    }
    char *buf = fl_xmalloc(cap);
    size_t n = 0;
    for (;;) {
        if (n + 1 >= cap) {
            /* Probe before growing so that an exactly sized buffer is
             * not doubled just to discover end of file. */
            int ch = getc(f);
            if (ch == EOF) break;
            cap *= 2;
            buf = fl_xrealloc(buf, cap);
            buf[n++] = (char)ch;
            continue;
        }
        size_t want = cap - 1 - n;
        size_t got = fread(buf + n, 1, want, f);
        n += got;
        if (got < want) break;
    }
    if (ferror(f)) {
        fl_err(d, fl_noloc, "cannot read %s: %s", path, strerror(errno));
        fl_cleanup_pop(&cl);
        fclose(f);
        free(buf);
        return NULL;
    }
    fl_cleanup_pop(&cl);
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

static int is_blank(char ch)
{
    return ch == ' ' || ch == '\t';
}

void fl_csv_printable(char *out, size_t cap, const char *s)
{
    size_t n = 0;
    for (int shown = 0; *s && n + 8 < cap; s++, shown++) {
        unsigned char ch = (unsigned char)*s;
        if (shown == 40) {
            memcpy(out + n, "...", 3);
            n += 3;
            break;
        }
        if (ch >= 0x20 && ch < 0x7f)
            out[n++] = (char)ch;
        else
            n += (size_t)snprintf(out + n, cap - n, "\\x%02x", ch);
    }
    out[n] = '\0';
}

/* A text file has no control bytes but tab and the line ends: anything else
 * is binary data (an image, an executable, a MAT file), reported at its
 * first such byte and never echoed. */
static int check_text(const char *b, const char *e, fl_loc loc, fl_diag *d)
{
    for (const char *q = b; q < e; q++) {
        unsigned char ch = (unsigned char)*q;
        if ((ch < 0x20 && ch != '\t' && ch != '\r') || ch == 0x7f) {
            loc.col = (int)(q - b) + 1;
            fl_err(d, loc, "binary data (byte 0x%02x): not a CSV table", ch);
            return -1;
        }
        if (ch == '\r' && q + 1 < e) {
            loc.col = (int)(q - b) + 1;
            fl_err(d, loc, "a carriage return inside a line: lines must end in LF or CRLF");
            return -1;
        }
    }
    return 0;
}

static int is_number(const char *t)
{
    char *e;
    strtod(t, &e);
    return e != t && *e == '\0';
}

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

/* Splits one NUL-terminated line into comma-separated fields in place.
 * Blanks around a field and the double quotes of a quoted field are
 * removed; inside quotes a comma is literal and "" is one quote, so that
 * names such as "x[1,2]" survive. Returns the number of fields, or -1
 * (unterminated quote) / -2 (text after a closing quote) with *errcol. */
static int split_fields(char *line, fieldvec *out, int *errcol)
{
    out->n = 0;
    char *s = line;
    for (;;) {
        while (is_blank(*s)) s++;
        field f = {s, (int)(s - line) + 1};
        char *r;
        if (*s == '"') {
            char *w = s;
            r = s + 1;
            for (;;) {
                if (*r == '\0') {
                    *errcol = f.col;
                    return -1;
                }
                if (*r == '"') {
                    if (r[1] != '"') break;
                    r++;
                }
                *w++ = *r++;
            }
            r++;
            while (is_blank(*r)) r++;
            if (*r != ',' && *r != '\0') {
                *errcol = (int)(r - line) + 1;
                return -2;
            }
            int more = *r == ',';
            *w = '\0';
            FL_VEC_PUSH(*out, f);
            if (!more) break;
        } else {
            r = s;
            while (*r != ',' && *r != '\0') r++;
            int more = *r == ',';
            char *e = r;
            while (e > s && is_blank(e[-1])) e--;
            *e = '\0';
            FL_VEC_PUSH(*out, f);
            if (!more) break;
        }
        s = r + 1;
    }
    return (int)out->n;
}

/* The common case: exactly ncols plain numbers. Returns 0 when the line
 * needs the careful path (quotes, wrong count, bad text); values already
 * stored for such a row are overwritten or discarded by the caller. */
static int parse_row_fast(const char *s, int ncols, double **cols, size_t row)
{
    for (int j = 0; j < ncols; j++) {
        char *e;
        double v = strtod(s, &e);
        if (e == s || !isfinite(v)) return 0;
        while (is_blank(*e)) e++;
        if (j < ncols - 1) {
            if (*e != ',') return 0;
            s = e + 1;
        } else if (*e != '\0') {
            return 0;
        }
        cols[j][row] = v;
    }
    return 1;
}

/* The slow path: stores the row, or explains exactly what is wrong. */
static int parse_row_careful(fl_csv *c, char *line, fieldvec *fv, fl_loc loc, fl_diag *d)
{
    int errcol = 0, len = (int)strlen(line);
    int n = split_fields(line, fv, &errcol);
    if (n < 0) {
        loc.col = errcol;
        fl_err(d, loc, n == -1 ? "unterminated quoted field" : "unexpected text after a quoted field");
        return -1;
    }
    if (n != c->ncols) {
        /* at the first extra value, or where a missing one would start */
        loc.col = n > c->ncols ? fv->v[c->ncols].col : len + 1;
        fl_err(d, loc, "expected %d values, found %d", c->ncols, n);
        return -1;
    }
    for (int j = 0; j < n; j++) {
        const char *t = fv->v[j].text;
        char *e;
        loc.col = fv->v[j].col;
        if (*t == '\0') {
            char shown[200];
            fl_csv_printable(shown, sizeof shown, c->names[j]);
            fl_err(d, loc, "empty value in column %d ('%s')", j + 1, shown);
            return -1;
        }
        double v = strtod(t, &e);
        if (e == t || *e != '\0' || !isfinite(v)) {
            char shown[200];
            fl_csv_printable(shown, sizeof shown, t);
            fl_err(d, loc, e == t || *e != '\0' ? "'%s' is not a number" : "'%s' is not a finite number", shown);
            return -1;
        }
        c->cols[j][c->nrows] = v;
    }
    return 0;
}

static int parse_header(fl_csv *c, char *line, size_t max_rows, fieldvec *fv, fl_loc loc, fl_diag *d)
{
    int errcol = 0;
    int n = split_fields(line, fv, &errcol);
    if (n < 0) {
        loc.col = errcol;
        fl_err(d, loc, n == -1 ? "unterminated quoted name in the header"
                               : "unexpected text after a quoted name in the header");
        return -1;
    }
    int numbers = 1;
    for (int j = 0; j < n; j++) {
        if (fv->v[j].text[0] == '\0') {
            loc.col = fv->v[j].col;
            fl_err(d, loc, "empty name for column %d in the header", j + 1);
            return -1;
        }
        numbers = numbers && is_number(fv->v[j].text);
    }
    loc.col = fv->v[0].col;
    if (numbers) {
        fl_err(d, loc, "no header: the first line holds numbers where the column names (time, ...) belong");
        return -1;
    }
    if (!is_time_name(fv->v[0].text)) {
        char shown[200];
        fl_csv_printable(shown, sizeof shown, fv->v[0].text);
        fl_err(d, loc, "the first column is '%s', expected 'time'", shown);
        return -1;
    }
    c->ncols = n;
    c->names = fl_xcalloc((size_t)n, sizeof *c->names);
    c->cols = fl_xcalloc((size_t)n, sizeof *c->cols);
    for (int j = 0; j < n; j++) {
        c->names[j] = fl_xstrdup(fv->v[j].text);
        c->cols[j] = fl_xmalloc(max_rows * sizeof(double));
    }
    return 0;
}

fl_csv *fl_csv_read(const char *path, fl_diag *d)
{
    if (fl_mat_path(path)) return fl_mat_read(path, d);
    size_t len = 0;
    char *buf = slurp(path, &len, d);
    if (!buf) return NULL;

    fl_csv *c = fl_xcalloc(1, sizeof *c);
    c->path = fl_xstrdup(path);

    /* One pass of memchr is cheap next to strtod and bounds the number of
     * data rows, so the columns are allocated once instead of grown. */
    size_t nlines = 1;
    for (const char *q = buf; (q = memchr(q, '\n', (size_t)(buf + len - q))) != NULL; q++) nlines++;

    char *p = buf, *end = buf + len;
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3; /* UTF-8 byte order mark */

    fieldvec fv = {0};
    fl_loc loc = {c->path, 0, 0};
    int ok = 1, have_header = 0;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *le = nl ? nl : end;
        char *next = nl ? nl + 1 : end;
        loc.line++;
        loc.col = 0;
        if (check_text(p, le, loc, d)) {
            ok = 0;
            break;
        }
        char *line = p;
        while (le > p && (le[-1] == '\r' || is_blank(le[-1]))) le--;
        *le = '\0';
        char *s = p;
        p = next;
        while (is_blank(*s)) s++;
        if (*s == '\0') continue;

        if (!have_header) {
            if (parse_header(c, line, nlines, &fv, loc, d) != 0) {
                ok = 0;
                break;
            }
            have_header = 1;
            continue;
        }
        if (!parse_row_fast(line, c->ncols, c->cols, c->nrows) &&
            parse_row_careful(c, line, &fv, loc, d) != 0) {
            ok = 0;
            break;
        }
        const double *t = c->cols[0];
        if (c->nrows > 0 && t[c->nrows] < t[c->nrows - 1]) {
            char a[32], b[32];
            fl_fmt_double(a, sizeof a, t[c->nrows - 1]);
            fl_fmt_double(b, sizeof b, t[c->nrows]);
            loc.col = (int)(s - line) + 1;
            fl_err(d, loc, "time decreases from %s to %s", a, b);
            ok = 0;
            break;
        }
        c->nrows++;
    }
    if (ok && !have_header) {
        loc.line = 0;
        fl_err(d, loc, "empty file (no header)");
        ok = 0;
    }
    FL_VEC_FREE(fv);
    free(buf);
    if (!ok) {
        fl_csv_free(c);
        return NULL;
    }
    /* Give back the slack of the row estimate (blank lines, header). */
    for (int j = 0; j < c->ncols; j++) c->cols[j] = fl_xrealloc(c->cols[j], c->nrows * sizeof(double));
    return c;
}

int fl_csv_column(const fl_csv *c, const char *name)
{
    if (!c || !name) return -1;
    for (int j = 0; j < c->ncols; j++)
        if (strcmp(c->names[j], name) == 0) return j;
    return -1;
}

void fl_csv_free(fl_csv *c)
{
    if (!c) return;
    for (int j = 0; j < c->ncols; j++) {
        free(c->names[j]);
        free(c->cols[j]);
        if (c->units) free(c->units[j]);
    }
    free(c->units);
    free(c->constant);
    free(c->names);
    free(c->cols);
    free(c->path);
    free(c);
}
