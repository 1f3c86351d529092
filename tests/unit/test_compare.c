/* test_compare.c - tests of the CSV reader and of the MSL-style tube comparison (fl_compare_csv). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "flange.h"
#include "output/csvread.h"

static char tmpdir[] = "/tmp/flange_test_compare_XXXXXX";
static char *created[64];
static int ncreated;
static char report[1 << 16];

/* A path in the temporary directory, remembered for removal at the end. */
static const char *tpath(const char *name)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
    for (int i = 0; i < ncreated; i++)
        if (strcmp(created[i], buf) == 0) return created[i];
    if (ncreated == (int)(sizeof created / sizeof *created)) {
        fprintf(stderr, "too many temporary files\n");
        exit(1);
    }
    created[ncreated] = malloc(strlen(buf) + 1);
    strcpy(created[ncreated], buf);
    return created[ncreated++];
}

static const char *write_text(const char *name, const char *text)
{
    const char *p = tpath(name);
    FILE *f = fopen(p, "wb");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", p);
        exit(1);
    }
    return p;
}

/* Rows of ncols values (time first) written with round-trip precision, so
 * that the test and the comparison see the same doubles. */
static const char *write_table(const char *name, const char *header, size_t nrows, int ncols,
                               const double *rows)
{
    const char *p = tpath(name);
    FILE *f = fopen(p, "wb");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", p);
        exit(1);
    }
    fprintf(f, "%s\n", header);
    for (size_t i = 0; i < nrows; i++)
        for (int j = 0; j < ncols; j++)
            fprintf(f, "%.17g%c", rows[i * (size_t)ncols + (size_t)j], j + 1 < ncols ? ',' : '\n');
    fclose(f);
    return p;
}

/* Runs the comparison, keeping the report text in report[]. */
static int compare(const char *res, const char *ref, const char *sig, double tol, fl_diag *d)
{
    fl_diag_clear(d);
    const char *rp = tpath("report.txt");
    FILE *f = fopen(rp, "w+");
    if (!f) exit(1);
    int rc = fl_compare_csv(res, ref, sig, tol, f, d);
    rewind(f);
    size_t n = fread(report, 1, sizeof report - 1, f);
    report[n] = '\0';
    fclose(f);
    return rc;
}

static int diag_contains(const fl_diag *d, const char *needle)
{
    for (int i = 0; i < fl_diag_count(d); i++)
        if (strstr(fl_diag_text(d, i), needle)) return 1;
    return 0;
}

static void print_diag(const fl_diag *d)
{
    for (int i = 0; i < fl_diag_count(d); i++) fprintf(stderr, "  diag: %s\n", fl_diag_text(d, i));
}

#define NS 1001
#define PI 3.14159265358979323846

/* (a), (b): identical result; offsets of half and one and a half tubes. */
static void test_offsets(fl_diag *d)
{
    static double ref[NS * 3], res[NS * 3];
    const double tol = 2e-3;
    for (int i = 0; i < NS; i++) {
        double t = i / (double)(NS - 1);
        ref[3 * i] = t;
        ref[3 * i + 1] = 2 + 3 * sin(2 * PI * t); /* range 6 */
        ref[3 * i + 2] = t * t;                     /* range 1 */
    }
    const char *rp = write_table("ref.csv", "\"time\",\"x\",\"q\"", NS, 3, ref);
    const char *same = write_table("same.csv", "\"time\",\"x\",\"q\"", NS, 3, ref);
    CHECK(compare(same, rp, NULL, tol, d) == 0);
    CHECK_STR_CONTAINS(report, "PASS  x");
    CHECK_STR_CONTAINS(report, "2 of 2 signals inside the 2e-3 tube");
    CHECK(fl_diag_count(d) == 0);

    const double Y = tol * 6;
    for (int sign = -1; sign <= 1; sign += 2) {
        memcpy(res, ref, sizeof res);
        for (int i = 0; i < NS; i++) res[3 * i + 1] += sign * 0.5 * Y;
        const char *p = write_table("off.csv", "time,x,q", NS, 3, res);
        CHECK(compare(p, rp, NULL, tol, d) == 0);

        for (int i = 0; i < NS; i++) res[3 * i + 1] = ref[3 * i + 1] + sign * 1.5 * Y;
        p = write_table("off.csv", "time,x,q", NS, 3, res);
        CHECK(compare(p, rp, NULL, tol, d) == 1);
        CHECK_STR_CONTAINS(report, "FAIL  x");
        CHECK_STR_CONTAINS(report, "PASS  q");
        CHECK_STR_CONTAINS(report, "1 of 2 signals outside the 2e-3 tube");
        /* The worst point of a vertical offset is at an extremum of the
         * sine, where the time tube cannot help: 150 % of the tube. */
        CHECK_STR_CONTAINS(report, "= 150% of tube");
    }

    /* A coarser result grid than the reference is fine. */
    for (int i = 0; i < 101; i++) {
        double t = i / 100.0;
        res[3 * i] = t;
        res[3 * i + 1] = 2 + 3 * sin(2 * PI * t);
        res[3 * i + 2] = t * t;
    }
    CHECK(compare(write_table("coarse.csv", "time,x,q", 101, 3, res), rp, NULL, tol, d) == 0);

    CHECK(compare(same, rp, NULL, 0, d) == -1);
    CHECK(compare(same, rp, NULL, 1, d) == -1);
    CHECK(compare(same, rp, NULL, NAN, d) == -1);
}

/* (c) A step with a vertical segment in the reference; the result's step
 * moved in time by a fraction of the time tube X. */
static void test_step(fl_diag *d)
{
    static double ref[103 * 2], res[5003 * 2];
    const double tol = 2e-3, X = tol * 1.0;
    size_t n = 0;
    for (int i = 0; i <= 100; i++) {
        double t = i / 100.0;
        if (i == 50) {
            ref[2 * n] = t, ref[2 * n + 1] = 0, n++;
            ref[2 * n] = t, ref[2 * n + 1] = 1, n++;
        } else {
            ref[2 * n] = t, ref[2 * n + 1] = t < 0.5 ? 0 : 1, n++;
        }
    }
    const char *rp = write_table("step_ref.csv", "time,s", n, 2, ref);
    CHECK(compare(rp, rp, NULL, tol, d) == 0);

    const double shifts[] = {0.5 * X, -0.5 * X, 2 * X, -2 * X};
    for (int s = 0; s < 4; s++) {
        double ts = 0.5 + shifts[s];
        size_t m = 0;
        int done = 0;
        for (int i = 0; i <= 5000; i++) {
            double t = i / 5000.0;
            if (!done && t >= ts) {
                res[2 * m] = ts, res[2 * m + 1] = 0, m++;
                res[2 * m] = ts, res[2 * m + 1] = 1, m++;
                done = 1;
            }
            if (t != ts) res[2 * m] = t, res[2 * m + 1] = t < ts ? 0 : 1, m++;
        }
        const char *p = write_table("step_res.csv", "time,s", m, 2, res);
        int rc = compare(p, rp, NULL, tol, d);
        if (s < 2) {
            CHECK(rc == 0);
        } else {
            CHECK(rc == 1);
            CHECK_STR_CONTAINS(report, "FAIL  s");
        }
        if (rc < 0) print_diag(d);
    }
}

/* (d) Header styles, CRLF, blank lines, no final newline. */
static void test_formats(fl_diag *d)
{
    const char *a = write_text("crlf.csv",
                               "\"time\", \"mass.s\" ,\"a[1,2]\"\r\n"
                               "0,1,2\r\n"
                               "\r\n"
                               "0.5, 1.5 ,2.5\r\n"
                               "1,2,3\r\n");
    const char *b = write_text("plain.csv",
                               "\n"
                               " time , mass.s,\"a[1,2]\"\n"
                               "0,1,2\n"
                               "\n"
                               "  \n"
                               "0.25,1.25,2.25\n"
                               "1,2,3");
    fl_diag_clear(d);
    fl_csv *c = fl_csv_read(a, d);
    CHECK(c != NULL);
    if (c) {
        CHECK(c->ncols == 3);
        CHECK(c->nrows == 3);
        CHECK(strcmp(c->names[0], "time") == 0);
        CHECK(strcmp(c->names[1], "mass.s") == 0);
        CHECK(strcmp(c->names[2], "a[1,2]") == 0);
        CHECK(fl_csv_column(c, "mass.s") == 1);
        CHECK(fl_csv_column(c, "a[1,2]") == 2);
        CHECK(fl_csv_column(c, "nope") == -1);
        CHECK(c->cols[1][1] == 1.5);
        CHECK(c->cols[2][2] == 3);
        CHECK(strcmp(c->path, a) == 0);
        fl_csv_free(c);
    }
    c = fl_csv_read(b, d);
    CHECK(c != NULL);
    if (c) {
        CHECK(c->ncols == 3);
        CHECK(c->nrows == 3);
        CHECK(strcmp(c->names[0], "time") == 0);
        CHECK(strcmp(c->names[1], "mass.s") == 0);
        CHECK(c->cols[0][1] == 0.25);
        CHECK(c->cols[2][2] == 3);
        fl_csv_free(c);
    }
    CHECK(compare(b, a, NULL, 1e-3, d) == 0);
    CHECK(compare(a, b, NULL, 1e-3, d) == 0);
    CHECK_STR_CONTAINS(report, "1e-3 tube");

    /* Header only: a valid table with no rows, but nothing to compare. */
    const char *h = write_text("header_only.csv", "Time,mass.s,\"a[1,2]\"\n");
    c = fl_csv_read(h, d);
    CHECK(c != NULL && c->nrows == 0 && c->ncols == 3);
    fl_csv_free(c);
    CHECK(compare(h, a, NULL, 1e-3, d) == -1);
    CHECK(diag_contains(d, "no point inside"));
    CHECK(compare(a, h, NULL, 1e-3, d) == -1);

    /* The first column must be time. */
    const char *nt = write_text("notime.csv", "t,mass.s,x\n0,1,2\n1,2,3\n");
    CHECK(compare(nt, a, NULL, 1e-3, d) == -1);
    CHECK(diag_contains(d, "notime.csv") && diag_contains(d, "'t'"));

    /* Time must not decrease. */
    const char *back = write_text("back.csv", "time,mass.s,a[1\n0,1,2\n1,2,3\n0.5,1,1\n");
    CHECK(compare(back, a, NULL, 1e-3, d) == -1);
    CHECK(diag_contains(d, "decreases"));

    /* A result that stops early passes on what it has but is warned about. */
    const char *half = write_text("half.csv", "time,mass.s,\"a[1,2]\"\n0,1,2\n0.5,1.5,2.5\n");
    CHECK(compare(half, a, NULL, 1e-3, d) == 0);
    CHECK(fl_diag_errors(d) == 0 && diag_contains(d, "covers only"));
}

/* (e) Missing signals and signals files. */
static void test_missing(fl_diag *d)
{
    const char *ref = write_text("m_ref.csv", "time,x,y\n0,0,0\n1,1,1\n");
    const char *res = write_text("m_res.csv", "time,x\n0,0\n1,1\n");
    CHECK(compare(res, ref, NULL, 2e-3, d) == -1);
    CHECK(diag_contains(d, "'y'") && diag_contains(d, "m_res.csv"));
    CHECK(report[0] == '\0');

    const char *sig = write_text("sig.txt", "# signals\ntime\n\n  x  \r\nnosuch\n");
    CHECK(compare(res, ref, sig, 2e-3, d) == -1);
    CHECK(diag_contains(d, "'nosuch'") && diag_contains(d, "m_ref.csv") && diag_contains(d, "sig.txt:5"));

    const char *sig2 = write_text("sig2.txt", "Time\n\"x\"\n# y is not in the result\n");
    CHECK(compare(res, ref, sig2, 2e-3, d) == 0);
    CHECK_STR_CONTAINS(report, "1 of 1 signals inside");

    const char *sig3 = write_text("sig3.txt", "time\n# nothing\n");
    CHECK(compare(res, ref, sig3, 2e-3, d) == -1);
    CHECK(diag_contains(d, "no signals"));

    CHECK(compare(res, ref, tpath("no_such_signals.txt"), 2e-3, d) == -1);
    CHECK(diag_contains(d, "no_such_signals.txt"));
    CHECK(compare(tpath("no_such.csv"), ref, NULL, 2e-3, d) == -1);
    CHECK(diag_contains(d, "no_such.csv"));
}

/* (f) Reader errors carry file and line. */
static void test_bad_files(fl_diag *d)
{
    char want[600];
    const char *p = write_text("bad.csv", "time,x,y\n0,1,2\n\n0.5,abc,3\n1,2,3\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    snprintf(want, sizeof want, "%s:4", p);
    CHECK(diag_contains(d, want));
    CHECK(diag_contains(d, "'abc' is not a number"));

    p = write_text("short.csv", "time,x,y\n0,1,2\n0.5,1\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    snprintf(want, sizeof want, "%s:3", p);
    CHECK(diag_contains(d, want));
    CHECK(diag_contains(d, "expected 3 values, found 2"));

    p = write_text("long.csv", "time,x\r\n0,1\r\n0.5,1,7\r\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(diag_contains(d, "expected 2 values, found 3"));

    p = write_text("trail.csv", "time,x\n0,1x\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(diag_contains(d, "'1x' is not a number"));

    p = write_text("empty_val.csv", "time,x\n0,\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(diag_contains(d, "empty value"));

    p = write_text("quote.csv", "\"time,x\n0,1\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(diag_contains(d, "unterminated"));

    p = write_text("empty.csv", "");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(diag_contains(d, "empty file (no header)"));
    snprintf(want, sizeof want, "%s: ", p);
    CHECK(diag_contains(d, want));

    p = write_text("blank.csv", "\r\n  \n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(diag_contains(d, "empty file"));

    fl_diag_clear(d);
    CHECK(fl_csv_read(tpath("absent.csv"), d) == NULL);
    CHECK(diag_contains(d, "cannot open") && diag_contains(d, "absent.csv") &&
          diag_contains(d, "No such file"));

    /* Quoted numbers are unusual but unambiguous. */
    p = write_text("qnum.csv", "time,x\n\"0\",\"1.5\"\n");
    fl_diag_clear(d);
    fl_csv *c = fl_csv_read(p, d);
    CHECK(c && c->nrows == 1 && c->cols[1][0] == 1.5);
    fl_csv_free(c);
}

/* The only message of d is exactly "<path><rest>". */
static int only_error(const fl_diag *d, const char *path, const char *rest)
{
    char want[600];
    snprintf(want, sizeof want, "%s%s", path, rest);
    int ok = fl_diag_count(d) == 1 && fl_diag_errors(d) == 1 && strcmp(fl_diag_text(d, 0), want) == 0;
    if (!ok) {
        fprintf(stderr, "  want: %s\n", want);
        print_diag(d);
    }
    return ok;
}

/* (g) One reader, one set of rules: a non-finite value, in a result or a
 * reference, time or signal, is an error at its place in the file (not a
 * failed comparison), and no report is written. */
static void test_nonfinite(fl_diag *d)
{
    const char *ref = write_text("nf_ref.csv", "time,x,y\n0,0,1\n0.5,1,1\n1,0,1\n");
    const char *res = write_text("nf_res.csv", "time,x,y\n0,0,1\n0.5,nan,1\n1,0,1\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(res, d) == NULL);
    CHECK(only_error(d, res, ":3:5: error: 'nan' is not a finite number"));
    CHECK(compare(res, ref, NULL, 2e-3, d) == -1);
    CHECK(only_error(d, res, ":3:5: error: 'nan' is not a finite number"));
    CHECK(report[0] == '\0');

    res = write_text("nf_res2.csv", "time,x,y\n0,0,1\n0.5,1, -inf\n1,0,1\n");
    CHECK(compare(ref, res, NULL, 2e-3, d) == -1); /* as a reference */
    CHECK(only_error(d, res, ":3:8: error: '-inf' is not a finite number"));
    CHECK(report[0] == '\0');

    res = write_text("nf_res3.csv", "time,x,y\n0,0,1\nnan,1,1\n1,0,1\n");
    CHECK(compare(res, ref, NULL, 2e-3, d) == -1);
    CHECK(only_error(d, res, ":3:1: error: 'nan' is not a finite number"));

    /* a value too large for a double is not finite either */
    res = write_text("nf_res4.csv", "time,x,y\n0,0,1\n1,1e999,1\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(res, d) == NULL);
    CHECK(only_error(d, res, ":3:3: error: '1e999' is not a finite number"));
}

/* (g2) The rest of the rules, with the exact messages: binary data (never
 * echoed), no header, time not first, ragged rows, text, time going back
 * (equal times, as at an event, are fine), a lone carriage return. */
static void test_rules(fl_diag *d)
{
    const char *p = write_text("bin.csv", "time,x\n0,1\n1,\x01\x02\x7f ELF\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(only_error(d, p, ":3:3: error: binary data (byte 0x01): not a CSV table"));

    /* a NUL inside a line is found, though the C string ends there */
    static const char nul[] = "time,x\n0,1\n1,2\0garbage\n";
    const char *pn = tpath("nul.csv");
    FILE *f = fopen(pn, "wb");
    CHECK(f && fwrite(nul, 1, sizeof nul - 1, f) == sizeof nul - 1);
    if (f) fclose(f);
    fl_diag_clear(d);
    CHECK(fl_csv_read(pn, d) == NULL);
    CHECK(only_error(d, pn, ":3:4: error: binary data (byte 0x00): not a CSV table"));

    p = write_text("nohead.csv", "0,1\n1,2\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(only_error(d, p, ":1:1: error: no header: the first line holds numbers where the column names (time, ...) "
                           "belong"));

    p = write_text("xfirst.csv", "\n  x,time\n0,1\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(only_error(d, p, ":2:3: error: the first column is 'x', expected 'time'"));

    p = write_text("ragged.csv", "time,x\n0,1\n1,2,3\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(only_error(d, p, ":3:5: error: expected 2 values, found 3"));
    p = write_text("short2.csv", "time,x,y\n0,1,2\n1,2\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(only_error(d, p, ":3:4: error: expected 3 values, found 2"));

    p = write_text("high.csv", "time,x\n0,1\n1,\xff\xfe\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(only_error(d, p, ":3:3: error: '\\xff\\xfe' is not a number"));

    p = write_text("back2.csv", "time,x\n0,1\n0.5,1\n0.5,2\n 0.25,3\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(only_error(d, p, ":5:2: error: time decreases from 0.5 to 0.25"));

    p = write_text("event.csv", "time,x\n0,1\n0.5,1\n0.5,2\n1,3\n");
    fl_diag_clear(d);
    fl_csv *c = fl_csv_read(p, d);
    CHECK(c && c->nrows == 4 && c->cols[1][2] == 2 && fl_diag_count(d) == 0);
    fl_csv_free(c);

    p = write_text("cr.csv", "time,x\r0,1\r1,2\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(only_error(d, p, ":1:7: error: a carriage return inside a line: lines must end in LF or CRLF"));

    /* a long field is cut in the message */
    p = write_text("longfield.csv", "time,x\n0,1234567890abcdefghij1234567890abcdefghijXYZ\n");
    fl_diag_clear(d);
    CHECK(fl_csv_read(p, d) == NULL);
    CHECK(only_error(d, p, ":2:3: error: '1234567890abcdefghij1234567890abcdefghij...' is not a number"));

    /* a signals file of binary data is not echoed either */
    const char *ref = write_text("r_ref.csv", "time,x\n0,0\n1,1\n");
    const char *sig = write_text("bin_signals.txt", "x\n\x1b[31mred\n");
    CHECK(compare(ref, ref, sig, 2e-3, d) == -1);
    CHECK(only_error(d, sig, ":2:1: error: binary data (byte 0x1b): not a list of signal names"));
}

/* (h) A constant zero must be matched exactly; a constant non-zero within
 * tol of its value. */
static void test_constants(fl_diag *d)
{
    const char *ref = write_text("c_ref.csv", "time,z,k\n0,0,5\n1,0,5\n2,0,5\n");
    const char *ok = write_text("c_ok.csv", "time,z,k\n0,0,5.009\n2,0,4.991\n");
    CHECK(compare(ok, ref, NULL, 2e-3, d) == 0);
    const char *tiny = write_text("c_tiny.csv", "time,z,k\n0,0,5\n1,1e-12,5\n2,0,5\n");
    CHECK(compare(tiny, ref, NULL, 2e-3, d) == 1);
    CHECK_STR_CONTAINS(report, "FAIL  z");
    CHECK_STR_CONTAINS(report, "PASS  k");
    const char *off = write_text("c_off.csv", "time,z,k\n0,0,5\n1,0,5.02\n2,0,5\n");
    CHECK(compare(off, ref, NULL, 2e-3, d) == 1);
    CHECK_STR_CONTAINS(report, "FAIL  k");

    /* Result points outside the reference time range are ignored. */
    const char *wide = write_text("c_wide.csv", "time,z,k\n-1,7,7\n0,0,5\n2,0,5\n3,7,7\n");
    CHECK(compare(wide, ref, NULL, 2e-3, d) == 0);
    const char *outside = write_text("c_out.csv", "time,z,k\n3,0,5\n4,0,5\n");
    CHECK(compare(outside, ref, NULL, 2e-3, d) == -1);

    /* A one-row reference: a zero-width time tube at that instant. */
    const char *one = write_text("c_one.csv", "time,z,k\n1,0,5\n");
    CHECK(compare(ref, one, NULL, 2e-3, d) == 0);
}

/* ---- random cross-check against a direct O(n*m) evaluation ---- */

static unsigned long long rng_state = 88172645463325252ULL;
static double urand(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* The values of the reference polyline at time e: every sample at e (a
 * duplicated time gives several), else the interpolation. */
static void envelope_at(const double *tr, const double *yr, int n, double e, double *lo, double *hi)
{
    int found = 0;
    for (int i = 0; i < n; i++) {
        if (tr[i] == e) {
            *lo = fmin(*lo, yr[i]);
            *hi = fmax(*hi, yr[i]);
            found = 1;
        }
    }
    if (found) return;
    for (int i = 0; i + 1 < n; i++) {
        if (tr[i] < e && e < tr[i + 1]) {
            double v = yr[i] + (yr[i + 1] - yr[i]) * ((e - tr[i]) / (tr[i + 1] - tr[i]));
            *lo = fmin(*lo, v);
            *hi = fmax(*hi, v);
        }
    }
}

/* Worst deviation divided by the tube half-height, or -1 without points. */
static double brute_ratio(const double *tr, const double *yr, int n, const double *t, const double *y,
                          int m, double tol)
{
    double t0 = tr[0], tn = tr[n - 1], X = tol * (tn - t0);
    double ymin = INFINITY, ymax = -INFINITY;
    for (int i = 0; i < n; i++) ymin = fmin(ymin, yr[i]), ymax = fmax(ymax, yr[i]);
    double Y = tol * (ymax - ymin);
    if (Y == 0) Y = tol * fabs(ymax);
    if (Y == 0) Y = 1e-17;
    double worst = -1;
    for (int k = 0; k < m; k++) {
        if (t[k] < t0 || t[k] > tn) continue;
        double a = fmax(t[k] - X, t0), b = fmin(t[k] + X, tn);
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < n; i++)
            if (a <= tr[i] && tr[i] <= b) lo = fmin(lo, yr[i]), hi = fmax(hi, yr[i]);
        envelope_at(tr, yr, n, a, &lo, &hi);
        envelope_at(tr, yr, n, b, &lo, &hi);
        double dev = fmax(fmax(y[k] - hi, lo - y[k]), 0);
        worst = fmax(worst, dev / Y);
    }
    return worst;
}

static void test_random(fl_diag *d)
{
    enum { NMAX = 60, MMAX = 80 };
    const double tols[] = {2e-3, 0.03, 0.2, 0.45};
    double ref[NMAX * 2], res[MMAX * 2], tr[NMAX], yr[NMAX], t[MMAX], y[MMAX];
    int agree = 0, borderline = 0, failing = 0;
    for (int trial = 0; trial < 400; trial++) {
        int n = 1 + (int)(urand() * (NMAX - 1));
        int m = 1 + (int)(urand() * (MMAX - 1));
        double tol = tols[trial % 4];
        double tc = urand();
        for (int i = 0; i < n; i++) {
            if (i > 0 && urand() > 0.2) tc += urand() * 0.1; /* else a duplicate time */
            tr[i] = tc;
            yr[i] = i > 0 && urand() < 0.1 ? yr[i - 1] : urand() * 4 - 2;
        }
        double span = tr[n - 1] - tr[0];
        for (int k = 0; k < m; k++) t[k] = tr[0] - 0.05 + urand() * (span + 0.1);
        t[0] = tr[0] + urand() * span; /* at least one point inside */
        for (int k = 1; k < m; k++) /* insertion sort */
            for (int j = k; j > 0 && t[j] < t[j - 1]; j--) {
                double s = t[j];
                t[j] = t[j - 1];
                t[j - 1] = s;
            }
        if (m > 2 && urand() < 0.3) t[1] = t[2]; /* a duplicated result time */
        /* Noise up to 0.8, 1.3 or 3 tube heights: always inside, often
         * rescued by the time tube, mostly outside. */
        double ymin = INFINITY, ymax = -INFINITY;
        for (int i = 0; i < n; i++) ymin = fmin(ymin, yr[i]), ymax = fmax(ymax, yr[i]);
        double Y = tol * (ymax > ymin ? ymax - ymin : fmax(fabs(ymax), 1e-15));
        double scale = (const double[]){0.8, 1.3, 3}[trial % 3];
        for (int k = 0; k < m; k++) {
            double lo = INFINITY, hi = -INFINITY;
            envelope_at(tr, yr, n, fmin(fmax(t[k], tr[0]), tr[n - 1]), &lo, &hi);
            y[k] = (urand() < 0.5 ? lo : hi) + (2 * urand() - 1) * scale * Y;
        }
        for (int i = 0; i < n; i++) ref[2 * i] = tr[i], ref[2 * i + 1] = yr[i];
        for (int k = 0; k < m; k++) res[2 * k] = t[k], res[2 * k + 1] = y[k];
        const char *rp = write_table("r_ref.csv", "time,v", (size_t)n, 2, ref);
        const char *sp = write_table("r_res.csv", "time,v", (size_t)m, 2, res);
        double ratio = brute_ratio(tr, yr, n, t, y, m, tol);
        int rc = compare(sp, rp, NULL, tol, d);
        if (ratio < 0) {
            CHECK(rc == -1);
            continue;
        }
        if (fabs(ratio - 1) < 1e-6) {
            borderline++;
            continue;
        }
        int want = ratio > 1;
        if (rc != want) {
            fprintf(stderr, "random trial %d: n=%d m=%d tol=%g brute ratio %.9g, compare returned %d\n%s",
                    trial, n, m, tol, ratio, rc, report);
            print_diag(d);
        }
        CHECK(rc == want);
        /* The reported worst percentage must match the direct evaluation. */
        const char *w = strstr(report, " = ");
        double pct = -1;
        if (w && ratio > 0 && sscanf(w, " = %lf%%", &pct) == 1) {
            CHECK_NEAR(pct, 100 * ratio, 0.051 * 100 * ratio + 1e-9);
        } else if (ratio == 0) {
            CHECK_STR_CONTAINS(report, "worst 0 ");
        } else {
            CHECK(0);
        }
        agree += rc == want;
        failing += want;
    }
    printf("random cross-check: %d trials agree (%d of them failing), %d borderline skipped\n", agree,
           failing, borderline);
    CHECK(agree > 300);
    CHECK(failing > 50 && failing < agree - 50);
}

/* 10^5 rows with wide windows: quadratic work would not finish. */
static void test_large(fl_diag *d)
{
    enum { N = 100000 };
    double *rows = malloc(sizeof(double) * N * 3);
    for (int i = 0; i < N; i++) {
        double t = i / (double)(N - 1);
        rows[3 * i] = t;
        rows[3 * i + 1] = sin(40 * t);
        rows[3 * i + 2] = cos(3 * t) + (i % 1000 == 0);
    }
    const char *rp = write_table("big_ref.csv", "time,a,b", N, 3, rows);
    for (int i = 0; i < N; i++) rows[3 * i + 1] += 1e-4;
    const char *sp = write_table("big_res.csv", "time,a,b", N, 3, rows);
    CHECK(compare(sp, rp, NULL, 0.4, d) == 0);
    CHECK(compare(sp, rp, NULL, 1e-6, d) == 1);
    CHECK_STR_CONTAINS(report, "FAIL  a");
    CHECK_STR_CONTAINS(report, "PASS  b");
    free(rows);
}

/* The MSL reference of the Oscillator against itself, when ../shared is
 * available. */
static void test_msl_oscillator(fl_diag *d)
{
    const char *shared = getenv("FLANGE_SHARED");
    char ref[4096], sig[4096];
    snprintf(ref, sizeof ref, "%s/validation/msl/Oscillator/reference.csv", shared ? shared : "");
    snprintf(sig, sizeof sig, "%s/validation/msl/Oscillator/signals.txt", shared ? shared : "");
    if (!shared || access(ref, R_OK) != 0 || access(sig, R_OK) != 0) {
        printf("note: FLANGE_SHARED/validation/msl/Oscillator not found, MSL self-comparison skipped\n");
        return;
    }
    int rc = compare(ref, ref, sig, 2e-3, d);
    CHECK(rc == 0);
    if (rc != 0) print_diag(d);
    CHECK_STR_CONTAINS(report, "PASS  mass1.s");
    CHECK_STR_CONTAINS(report, "4 of 4 signals inside the 2e-3 tube");
    printf("%s", report);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    fl_diag *d = fl_diag_new();
    test_offsets(d);
    test_step(d);
    test_formats(d);
    test_missing(d);
    test_bad_files(d);
    test_nonfinite(d);
    test_rules(d);
    test_constants(d);
    test_random(d);
    test_large(d);
    test_msl_oscillator(d);
    fl_diag_free(d);
    for (int i = 0; i < ncreated; i++) {
        remove(created[i]);
        free(created[i]);
    }
    rmdir(tmpdir);
    return check_done();
}
