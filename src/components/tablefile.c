/* tablefile.c - reads the tables of tableOnFile = true: the MSL text format
 * ("#1", `double NAME(ROWS,COLUMNS)`, numbers) and CSV files (see
 * tablefile.h). One pass over the text, line by line, keeps line and
 * column for every message; only the table asked for is checked number by
 * number, the other tables of a file are skipped (as the MSL does). */
#include "tablefile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

int fl_table_name_given(const char *name)
{
    if (!name || strcmp(name, "NoName") == 0) return 0;
    for (const char *p = name; *p; p++)
        if (*p != ' ') return 1;
    return 0;
}

int fl_table_count(double x)
{
    if (x != x) return -1;
    return x > 1e9 ? 1000000000 : x < -1e9 ? -1000000000 : (int)x;
}

/* ---- the text, line by line --------------------------------------------------- */

typedef struct reader {
    const char *path; /* for locations */
    const char *s;    /* the current line (not terminated) */
    size_t len;
    const char *next; /* the rest of the text */
    int line;
} reader;

static int next_line(reader *r)
{
    if (!r->next) return 0;
    r->s = r->next;
    const char *nl = strchr(r->s, '\n');
    r->len = nl ? (size_t)(nl - r->s) : strlen(r->s);
    r->next = nl ? nl + 1 : NULL;
    if (r->len && r->s[r->len - 1] == '\r') r->len--;
    r->line++;
    return 1;
}

static fl_loc at_col(const reader *r, size_t i)
{
    fl_loc l = {r->path, r->line, (int)i + 1};
    return l;
}

/* The line without its comment. */
static size_t content_len(const reader *r)
{
    const char *h = memchr(r->s, '#', r->len);
    return h ? (size_t)(h - r->s) : r->len;
}

static int is_sep(char c, const char *seps)
{
    return c && strchr(seps, c) != NULL;
}

/* The next token of the line from *i (skipping separators): its start and
 * length, 0 at the end. */
static size_t token(const reader *r, size_t end, size_t *i, const char *seps)
{
    while (*i < end && is_sep(r->s[*i], seps)) (*i)++;
    size_t b = *i;
    while (*i < end && !is_sep(r->s[*i], seps)) (*i)++;
    return *i - b;
}

/* A number token as C writes it; 0, or -1 after reporting it. */
static int number(const reader *r, size_t b, size_t n, const char *what, double *out, fl_diag *d)
{
    char buf[64];
    char shown[40];
    snprintf(shown, sizeof shown, "%.*s%s", (int)(n > 32 ? 32 : n), r->s + b, n > 32 ? "..." : "");
    for (size_t k = 0; k < n && k < 32; k++)
        if (!isprint((unsigned char)shown[k])) shown[k] = '?';
    if (n >= sizeof buf) {
        fl_err(d, at_col(r, b), "'%s' is not a number (%s)", shown, what);
        return -1;
    }
    memcpy(buf, r->s + b, n);
    buf[n] = '\0';
    char *end;
    double x = strtod(buf, &end);
    if (end == buf || *end) {
        fl_err(d, at_col(r, b), "'%s' is not a number (%s)", shown, what);
        return -1;
    }
    if (!isfinite(x)) {
        fl_err(d, at_col(r, b), "'%s' is not a finite number (%s)", shown, what);
        return -1;
    }
    *out = x;
    return 0;
}

/* ---- the text format ------------------------------------------------------------ */

#define NUM_SEPS " \t,;"

typedef struct header {
    char name[128];
    long rows, cols;
} header;

/* Is the line a matrix declaration? 1 with h filled, 0 if it is none (no
 * type word), -1 after reporting a malformed one. */
static int parse_header(const reader *r, header *h, fl_diag *d)
{
    size_t end = content_len(r), i = 0;
    while (i < end && (r->s[i] == ' ' || r->s[i] == '\t')) i++;
    size_t tb = i;
    while (i < end && isalpha((unsigned char)r->s[i])) i++;
    size_t tl = i - tb;
    if (!((tl == 6 && strncmp(r->s + tb, "double", 6) == 0) || (tl == 5 && strncmp(r->s + tb, "float", 5) == 0)))
        return 0;
    if (i < end && r->s[i] != ' ' && r->s[i] != '\t') return 0; /* "doubles", "float3": not a declaration */
    while (i < end && (r->s[i] == ' ' || r->s[i] == '\t')) i++;
    size_t nb = i;
    /* a name: printable ASCII without blanks, commas and parentheses */
    while (i < end && isgraph((unsigned char)r->s[i]) && !((unsigned char)r->s[i] & 0x80) && !strchr("(),", r->s[i]))
        i++;
    size_t nl = i - nb;
    while (i < end && (r->s[i] == ' ' || r->s[i] == '\t')) i++;
    long dims[2] = {0, 0};
    int ok = nl > 0 && nl < sizeof h->name && i < end && r->s[i] == '(';
    if (ok) i++;
    for (int k = 0; k < 2 && ok; k++) {
        while (i < end && (r->s[i] == ' ' || r->s[i] == '\t')) i++;
        size_t db = i;
        while (i < end && isdigit((unsigned char)r->s[i]) && i - db < 9) {
            dims[k] = dims[k] * 10 + (r->s[i] - '0');
            i++;
        }
        ok = i > db && (i >= end || !isdigit((unsigned char)r->s[i]));
        while (ok && i < end && (r->s[i] == ' ' || r->s[i] == '\t')) i++;
        ok = ok && i < end && r->s[i] == (k ? ')' : ',');
        if (ok) i++;
    }
    while (ok && i < end && (r->s[i] == ' ' || r->s[i] == '\t')) i++;
    if (!ok || i < end) {
        fl_err(d, at_col(r, i), "expected a matrix declaration 'double NAME(ROWS, COLUMNS)'");
        return -1;
    }
    memcpy(h->name, r->s + nb, nl);
    h->name[nl] = '\0';
    h->rows = dims[0];
    h->cols = dims[1];
    return 1;
}

/* Read the numbers of the matrix declared by h (the reader just past its
 * declaration) into out. */
static int read_matrix(reader *r, const header *h, fl_loc decl, fl_value *out, fl_diag *d)
{
    if (h->rows < 1 || h->cols < 1) {
        fl_err(d, decl, "table '%s' has size %ld x %ld: it needs at least one row and one column", h->name, h->rows,
               h->cols);
        return -1;
    }
    if ((double)h->rows * (double)h->cols > FL_MAX_ARRAY) {
        fl_err(d, decl, "table '%s' has %ld x %ld values, more than the " FL_MAX_ARRAY_TEXT " flange reads", h->name,
               h->rows, h->cols);
        return -1;
    }
    size_t need = (size_t)h->rows * (size_t)h->cols, got = 0;
    out->kind = V_ARRAY;
    out->ndims = 2;
    out->dim[0] = (int)h->rows;
    out->dim[1] = (int)h->cols;
    out->data = fl_xmalloc(sizeof(double) * need);
    while (next_line(r)) {
        header other;
        fl_diag *scratch = fl_diag_new();
        int is_header = parse_header(r, &other, scratch);
        fl_diag_free(scratch);
        size_t end = content_len(r), i = 0;
        if (is_header) {
            if (got < need) break;
            return 0;
        }
        for (;;) {
            size_t n = token(r, end, &i, NUM_SEPS);
            if (!n) break;
            size_t b = i - n;
            if (got == need) {
                fl_err(d, at_col(r, b), "table '%s' has more values than its size %ld x %ld", h->name, h->rows,
                       h->cols);
                return -1;
            }
            char what[200];
            snprintf(what, sizeof what, "table '%s', row %zu, column %zu", h->name, got / (size_t)h->cols + 1,
                     got % (size_t)h->cols + 1);
            if (number(r, b, n, what, &out->data[got], d)) return -1;
            got++;
        }
    }
    if (got < need) {
        fl_err(d, at_col(r, 0), "table '%s' ends after %zu of its %ld x %ld values", h->name, got, h->rows, h->cols);
        return -1;
    }
    return 0;
}

static int read_text(const char *path, const char *text, const char *inst, const char *name, fl_loc at,
                     fl_value *out, fl_diag *d)
{
    reader r = {path, NULL, 0, text, 0};
    if (!next_line(&r)) r.len = 0;
    size_t skip = r.len >= 3 && memcmp(r.s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* a UTF-8 byte order mark */
    if (r.len < skip + 2 || memcmp(r.s + skip, "#1", 2) != 0) {
        fl_err(d, at_col(&r, skip), "a table file must start with '#1' (the version of the MSL text format)");
        return -1;
    }
    fl_buf names = {0};
    int count = 0;
    while (next_line(&r)) {
        header h;
        int k = parse_header(&r, &h, d);
        if (k < 0) {
            fl_buf_free(&names);
            return -1;
        }
        if (!k) {
            if (count == 0) {
                /* numbers or anything else before the first declaration */
                size_t end = content_len(&r), i = 0;
                if (token(&r, end, &i, " \t")) {
                    size_t b = i;
                    while (b > 0 && !strchr(" \t", r.s[b - 1])) b--;
                    fl_err(d, at_col(&r, b), "expected a matrix declaration 'double NAME(ROWS, COLUMNS)'");
                    fl_buf_free(&names);
                    return -1;
                }
            }
            continue;
        }
        if (strcmp(h.name, name) == 0) {
            fl_buf_free(&names);
            fl_loc decl = at_col(&r, 0);
            int rc = read_matrix(&r, &h, decl, out, d);
            if (rc) fl_value_free(out);
            return rc;
        }
        fl_buf_printf(&names, "%s%s", count ? ", " : "", h.name);
        count++;
    }
    fl_err(d, at, "%s: %s has no table '%s' (%s%s)", inst, path, name, count ? "it has " : "it has none",
           count ? names.s : "");
    fl_buf_free(&names);
    return -1;
}

/* ---- CSV ---------------------------------------------------------------------------- */

static int read_csv(const char *path, const char *text, const char *delim, int nheader, const char *inst, fl_loc at,
                    fl_value *out, fl_diag *d)
{
    reader r = {path, NULL, 0, text, 0};
    char seps[4] = {delim && delim[0] ? delim[0] : ',', 0, 0, 0};
    if (seps[0] == ' ') strcpy(seps, " \t");
    for (int k = 0; k < nheader; k++)
        if (!next_line(&r)) break;
    FL_VEC(double) vals = {0};
    long cols = -1, rows = 0;
    while (next_line(&r)) {
        size_t i = 0, end = r.len, n;
        long c = 0;
        int blank = 1;
        for (size_t k = 0; k < end; k++)
            if (!isspace((unsigned char)r.s[k])) blank = 0;
        if (blank) continue;
        for (;;) {
            /* a field: up to the next delimiter, blanks around it trimmed */
            size_t b = i;
            while (i < end && !is_sep(r.s[i], seps)) i++;
            size_t e = i;
            while (b < e && isspace((unsigned char)r.s[b])) b++;
            while (e > b && isspace((unsigned char)r.s[e - 1])) e--;
            n = e - b;
            char what[80];
            snprintf(what, sizeof what, "row %ld, column %ld", rows + 1, c + 1);
            double x = 0;
            if (!n) {
                fl_err(d, at_col(&r, b), "an empty field (%s)", what);
                FL_VEC_FREE(vals);
                return -1;
            }
            if (number(&r, b, n, what, &x, d)) {
                FL_VEC_FREE(vals);
                return -1;
            }
            FL_VEC_PUSH(vals, x);
            c++;
            if (i >= end) break;
            i++; /* the delimiter */
            if (seps[1]) /* blank-separated: runs of blanks are one delimiter */
                while (i < end && is_sep(r.s[i], seps)) i++;
            if (i >= end) break;
        }
        if (cols >= 0 && c != cols) {
            fl_err(d, at_col(&r, 0), "this row has %ld values, the rows above %ld", c, cols);
            FL_VEC_FREE(vals);
            return -1;
        }
        cols = c;
        rows++;
        if (vals.n > FL_MAX_ARRAY) {
            fl_err(d, at_col(&r, 0), "more than " FL_MAX_ARRAY_TEXT " values: larger than flange reads");
            FL_VEC_FREE(vals);
            return -1;
        }
    }
    if (rows == 0) {
        fl_err(d, at, "%s: %s has no rows of numbers after its %d header line%s", inst, path, nheader,
               nheader == 1 ? "" : "s");
        FL_VEC_FREE(vals);
        return -1;
    }
    out->kind = V_ARRAY;
    out->ndims = 2;
    out->dim[0] = (int)rows;
    out->dim[1] = (int)cols;
    out->data = vals.v;
    return 0;
}

/* ---- the file --------------------------------------------------------------------- */

static int ends_with_csv(const char *s)
{
    size_t n = strlen(s);
    return n >= 4 && s[n - 4] == '.' && tolower((unsigned char)s[n - 3]) == 'c' &&
           tolower((unsigned char)s[n - 2]) == 's' && tolower((unsigned char)s[n - 1]) == 'v';
}

/* file relative to the directory of base (owned result). */
static char *resolve(const char *file, const char *base)
{
    if (strncmp(file, "file://", 7) == 0) file += 7;
    const char *slash = base ? strrchr(base, '/') : NULL;
    if (file[0] == '/' || !slash) return fl_xstrdup(file);
    return fl_xsprintf("%.*s/%s", (int)(slash - base), base, file);
}

int fl_table_load(const char *inst, const char *file, const char *name, const char *delim, int nheader,
                  const char *base, fl_loc at, fl_value *out, fl_diag *d)
{
    memset(out, 0, sizeof *out);
    int csv = file && ends_with_csv(file);
    if (!fl_table_name_given(file)) {
        fl_err(d, at, "%s: tableOnFile = true and no file name given (set fileName)", inst);
        return -1;
    }
    if (!csv && !fl_table_name_given(name)) {
        fl_err(d, at, "%s: tableOnFile = true and no table name given (set tableName)", inst);
        return -1;
    }
    if (strncmp(file, "modelica://", 11) == 0) {
        fl_err(d, at, "%s: %s: modelica:// resources are not supported; give the file's path", inst, file);
        return -1;
    }
    if (csv && nheader < 0) {
        fl_err(d, at, "%s: nHeaderLines = %d is invalid: it must be >= 0", inst, nheader);
        return -1;
    }
    char *path = resolve(file, base);
    fl_diag *tmp = fl_diag_new();
    char *text = fl_read_model_text(path, tmp);
    if (!text) {
        const char *msg = fl_diag_count(tmp) ? fl_diag_text(tmp, 0) : "cannot read it";
        const char *e = strstr(msg, "error: ");
        fl_err(d, at, "%s: %s", inst, e ? e + 7 : msg);
        fl_diag_free(tmp);
        free(path);
        return -1;
    }
    fl_diag_free(tmp);
    int rc = csv ? read_csv(path, text, delim, nheader, inst, at, out, d) : read_text(path, text, inst, name, at, out, d);
    free(text);
    free(path);
    return rc;
}
