/* test_tables.c - the interpolation core (components/tables.c) and the
 * table files (components/tablefile.c) directly: row slopes of the spline
 * methods worked out by hand, the fall-back to linear, extrapolation and
 * periodic wrapping, the 2D look-up, and the reader's formats and
 * messages. The CLI tests (blocks_tables.sh) check the blocks. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "components/tablefile.h"
#include "components/tables.h"

static char dir[] = "/tmp/flange_test_tables_XXXXXX";

/* The slope of the spline at row k (from the interval on its left, or on
 * its right for row 0). */
static double slope_at(const fl_tcol *t, int k)
{
    return k == 0 ? fl_tab_spline(t, 0, fl_tcol_x(t, 0), 1) : fl_tab_spline(t, k - 1, fl_tcol_x(t, k), 1);
}

static void test_slopes(void)
{
    /* Fritsch-Butland at x = 1 between differences 1 (h0 = 1) and 0.5
     * (h1 = 2): 3 (1 + 2) / ((1 + 4)/1 + (2 + 2)/0.5) = 9/13; Steffen: the
     * parabola's slope (1*2 + 0.5*1)/3 = 5/6, not limited (5/12 < 0.5). */
    double a[] = {0, 0, 1, 1, 3, 2};
    fl_tcol t = {a, 3, 2, 1, FL_SM_FRITSCH_BUTLAND};
    CHECK_NEAR(slope_at(&t, 1), 9.0 / 13, 1e-15);
    CHECK_NEAR(slope_at(&t, 0), 1, 1e-15);
    CHECK_NEAR(slope_at(&t, 2), 0.5, 1e-15);
    t.smooth = FL_SM_STEFFEN;
    CHECK_NEAR(slope_at(&t, 1), 5.0 / 6, 1e-15);
    /* Steffen limited: differences 1 and 0.1, parabola 0.55, half of it
     * 0.275 > 0.1: the slope is 2 * 0.1 */
    double b[] = {0, 0, 1, 1, 2, 1.1};
    fl_tcol s = {b, 3, 2, 1, FL_SM_STEFFEN};
    CHECK_NEAR(slope_at(&s, 1), 0.2, 1e-15);
    /* a sign change or a flat difference: slope 0 for both monotone methods */
    double c[] = {0, 0, 1, 1, 2, 0};
    fl_tcol m = {c, 3, 2, 1, FL_SM_STEFFEN};
    CHECK(slope_at(&m, 1) == 0);
    m.smooth = FL_SM_FRITSCH_BUTLAND;
    CHECK(slope_at(&m, 1) == 0);
    /* modified Akima keeps a flat stretch flat where Akima's weights are
     * both zero: y = 0, 0, 0, 1, 1, 1 has zero slopes at rows 1 and 4 for
     * both, and at the step rows 2, 3 the modified weights still pick 0 */
    double d[] = {0, 0, 1, 0, 2, 0, 3, 1, 4, 1, 5, 1};
    fl_tcol k = {d, 6, 2, 1, FL_SM_MAKIMA};
    for (int i = 0; i < 6; i++) CHECK(slope_at(&k, i) == 0);
    /* Akima on y = x^2 at x = 0..3: s = 1, 3, 5, continued -1, -3 and 7, 9;
     * all weights 2: the slopes 0, 2, 4, 6 are the parabola's */
    double q[] = {0, 0, 1, 1, 2, 4, 3, 9};
    fl_tcol p = {q, 4, 2, 1, FL_SM_AKIMA};
    for (int i = 0; i < 4; i++) CHECK_NEAR(slope_at(&p, i), 2.0 * i, 1e-15);
    CHECK_NEAR(fl_tab_spline(&p, 1, 1.5, 0), 2.25, 1e-15);
    CHECK_NEAR(fl_tab_spline(&p, 1, 1.5, 2), 2, 1e-14);
}

static void test_lookup(void)
{
    CHECK(fl_tab_method(FL_SM_AKIMA, 2) == FL_SM_LINEAR);
    CHECK(fl_tab_method(FL_SM_AKIMA, 3) == FL_SM_AKIMA);
    CHECK(fl_tab_method(FL_SM_CONSTANT, 2) == FL_SM_CONSTANT);
    double a[] = {0, 0, 1, 1, 2, 4};
    fl_tcol t = {a, 3, 2, 1, FL_SM_LINEAR};
    double y, dy;
    int side = 0;
    CHECK(fl_tab_lookup(&t, FL_EX_LASTTWO, 3, &y, &dy, &side) == 0 && y == 7 && dy == 3);
    CHECK(fl_tab_lookup(&t, FL_EX_HOLD, -1, &y, &dy, &side) == 0 && y == 0 && dy == 0);
    CHECK(fl_tab_lookup(&t, FL_EX_NONE, 2.5, &y, &dy, &side) == -1 && side == 1);
    CHECK(fl_tab_lookup(&t, FL_EX_NONE, -0.5, &y, &dy, &side) == -1 && side == -1);
    CHECK(fl_tab_lookup(&t, FL_EX_NONE, 2, &y, &dy, &side) == 0 && y == 4);
    /* periodic, far out: 1e6 + 0.5 is 0.5 in a period of 2 */
    CHECK(fl_tab_lookup(&t, FL_EX_PERIODIC, 1e6 + 0.5, &y, &dy, &side) == 0 && y == 0.5 && dy == 1);
    CHECK(fl_tab_lookup(&t, FL_EX_PERIODIC, -0.5, &y, &dy, &side) == 0 && y == 2.5);
    /* constant: the row at or below, the last row at the end */
    t.smooth = FL_SM_CONSTANT;
    CHECK(fl_tab_lookup(&t, FL_EX_HOLD, 0.999, &y, &dy, &side) == 0 && y == 0 && dy == 0);
    CHECK(fl_tab_lookup(&t, FL_EX_HOLD, 1, &y, &dy, &side) == 0 && y == 1);
    CHECK(fl_tab_lookup(&t, FL_EX_HOLD, 2, &y, &dy, &side) == 0 && y == 4);
    /* one row: that row everywhere */
    fl_tcol one = {a, 1, 2, 1, FL_SM_LINEAR};
    CHECK(fl_tab_lookup(&one, FL_EX_NONE, 5, &y, &dy, &side) == 0 && y == 0);

    /* 2D: [0, 0, 1; 0, 1, 4; 1, 3, 7] is 1 + 2 u1 + 3 u2 + u1 u2 */
    double g[] = {0, 0, 1, 0, 1, 4, 1, 3, 7};
    double d1, d2;
    int dim = 0;
    CHECK(fl_tab_lookup2(g, 3, 3, FL_SM_LINEAR, FL_EX_LASTTWO, 0.5, 0.25, &y, &d1, &d2, &dim) == 0);
    CHECK_NEAR(y, 1 + 1 + 0.75 + 0.125, 1e-15);
    CHECK_NEAR(d1, 2 + 0.25, 1e-15);
    CHECK_NEAR(d2, 3 + 0.5, 1e-15);
    CHECK(fl_tab_lookup2(g, 3, 3, FL_SM_LINEAR, FL_EX_HOLD, 2, 0.5, &y, &d1, &d2, &dim) == 0);
    CHECK_NEAR(y, 1 + 2 + 1.5 + 0.5, 1e-15);
    CHECK(d1 == 0);
    CHECK(fl_tab_lookup2(g, 3, 3, FL_SM_LINEAR, FL_EX_NONE, 0.5, 1.5, &y, &d1, &d2, &dim) == -1 && dim == 2);
    CHECK(fl_tab_lookup2(g, 3, 3, FL_SM_CONSTANT, FL_EX_HOLD, 0.9, 0.9, &y, &d1, &d2, &dim) == 0 && y == 1);
    /* a single u1 row: a 1D table in u2 */
    CHECK(fl_tab_lookup2(g, 2, 3, FL_SM_LINEAR, FL_EX_LASTTWO, 7, 0.5, &y, &d1, &d2, &dim) == 0 && y == 2.5 &&
          d1 == 0);
}

static char *put(const char *name, const char *text)
{
    char *path = malloc(strlen(dir) + strlen(name) + 2);
    sprintf(path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* Loads file (relative to dir) and returns the first message, or "" on
 * success with the matrix in *out. */
static const char *load(const char *file, const char *table, const char *delim, int nheader, fl_value *out)
{
    static char msg[512];
    char *base = malloc(strlen(dir) + 16);
    sprintf(base, "%s/model.mo", dir);
    fl_diag *d = fl_diag_new();
    fl_loc at = {"model.mo", 4, 7};
    memset(out, 0, sizeof *out);
    int rc = fl_table_load("tab", file, table, delim, nheader, base, at, out, d);
    snprintf(msg, sizeof msg, "%s", fl_diag_count(d) ? fl_diag_text(d, 0) : "");
    CHECK((rc == 0) == (msg[0] == 0));
    /* file names of messages without the scratch directory */
    char *p = strstr(msg, dir);
    if (p) memmove(p, p + strlen(dir) + 1, strlen(p + strlen(dir) + 1) + 1);
    fl_diag_free(d);
    free(base);
    return msg;
}

static void test_files(void)
{
    fl_value v;
    free(put("a.txt", "\xEF\xBB\xBF#1 version\n\n# comment\nfloat first(2,2)\n1 2 3 4\ndouble second( 2 , 3 ) # x\n"
                      "1,2;3\t4 5\n  6 # six\n"));
    CHECK(strcmp(load("a.txt", "second", ",", 0, &v), "") == 0);
    CHECK(v.dim[0] == 2 && v.dim[1] == 3 && v.data[2] == 3 && v.data[5] == 6);
    fl_value_free(&v);
    CHECK(strcmp(load("a.txt", "first", ",", 0, &v), "") == 0 && v.data[3] == 4);
    fl_value_free(&v);
    free(put("b.txt", "#1\ndouble t(2,2)\n1 2\n3 4 5\n"));
    CHECK(strcmp(load("b.txt", "t", ",", 0, &v), "b.txt:4:5: error: table 't' has more values than its size 2 x 2") == 0);
    free(put("c.txt", "1\ndouble t(1,1)\n1\n"));
    CHECK(strcmp(load("c.txt", "t", ",", 0, &v),
                 "c.txt:1:1: error: a table file must start with '#1' (the version of the MSL text format)") == 0);
    free(put("d.txt", "#1\ndouble t(2 2)\n"));
    CHECK(strcmp(load("d.txt", "t", ",", 0, &v),
                 "d.txt:2:12: error: expected a matrix declaration 'double NAME(ROWS, COLUMNS)'") == 0);
    free(put("e.txt", "#1\ndouble t(1,2)\n1 inf\n"));
    CHECK(strcmp(load("e.txt", "t", ",", 0, &v),
                 "e.txt:3:3: error: 'inf' is not a finite number (table 't', row 1, column 2)") == 0);
    /* CSV: a header line, blank-separated fields, a row too short */
    free(put("f.csv", "time value\n0   1\n1 \t 3\n"));
    CHECK(strcmp(load("f.csv", "NoName", " ", 1, &v), "") == 0);
    CHECK(v.dim[0] == 2 && v.dim[1] == 2 && v.data[3] == 3);
    fl_value_free(&v);
    free(put("g.CSV", "0;1\n1\n"));
    CHECK(strcmp(load("g.CSV", "NoName", ";", 0, &v), "g.CSV:2:1: error: this row has 1 values, the rows above 2") == 0);
    CHECK(strcmp(load("none.txt", "t", ",", 0, &v),
                 "model.mo:4:7: error: tab: cannot open none.txt: No such file or directory") == 0);
    CHECK(strcmp(load("NoName", "t", ",", 0, &v),
                 "model.mo:4:7: error: tab: tableOnFile = true and no file name given (set fileName)") == 0);
    CHECK(strcmp(load("modelica://Lib/x.txt", "t", ",", 0, &v),
                 "model.mo:4:7: error: tab: modelica://Lib/x.txt: modelica:// resources are not supported; give the "
                 "file's path") == 0);
    free(put("h.txt", "#1\n"));
    CHECK(strcmp(load("h.txt", "t", ",", 0, &v), "model.mo:4:7: error: tab: h.txt has no table 't' (it has none)") == 0);
    const char *names[] = {"a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.csv", "g.CSV", "h.txt"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[256];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_slopes();
    test_lookup();
    test_files();
    rmdir(dir);
    return check_done();
}
