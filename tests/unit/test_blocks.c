/* test_blocks.c - checks the Modelica.Blocks.Sources classes (blocks.c) directly: values, left limits, derivatives, time events and parameter checks. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "components/component.h"
#include "flange.h"

#define PI 3.14159265358979323846
#define NPAR 32

static const fl_class *find(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "Modelica.Blocks.Sources.%s", name);
    for (int i = 0; fl_classes_blocks[i]; i++)
        if (strcmp(fl_classes_blocks[i]->path, path) == 0) return fl_classes_blocks[i];
    fprintf(stderr, "class %s not found\n", path);
    exit(1);
}

static int pidx(const fl_class *c, const char *name)
{
    for (int k = 0; k < c->nparams; k++)
        if (strcmp(c->params[k].name, name) == 0) return k;
    fprintf(stderr, "%s has no parameter %s\n", c->path, name);
    exit(1);
}

static const fl_param_def *pdef(const fl_class *c, const char *name)
{
    return &c->params[pidx(c, name)];
}

static void set(const fl_class *c, double *par, const char *name, double v)
{
    par[pidx(c, name)] = v;
}

/* A block instance as the engine would hold it: evaluated parameters,
 * derived slots filled by prepare(), and the array table. */
typedef struct blk {
    const fl_class *c;
    double par[NPAR];
    fl_value arrays[4];
    int narrays;
} blk;

static void blk_init(blk *b, const char *name)
{
    memset(b, 0, sizeof *b);
    b->c = find(name);
    if (b->c->nparams + b->c->nderived > NPAR) {
        fprintf(stderr, "too many parameters\n");
        exit(1);
    }
}

static void blk_set(blk *b, const char *name, double v)
{
    set(b->c, b->par, name, v);
}

/* Array parameters point at caller-owned storage (static in the tests). */
static void blk_array(blk *b, const char *name, double *data, int rows, int cols, int ndims)
{
    fl_value *v = &b->arrays[b->narrays];
    memset(v, 0, sizeof *v);
    v->kind = V_ARRAY;
    v->ndims = ndims;
    v->dim[0] = rows;
    v->dim[1] = ndims == 2 ? cols : 0;
    v->data = data;
    blk_set(b, name, b->narrays++);
}

static fl_pctx blk_ctx(const blk *b)
{
    fl_pctx p = {"blk", {"test.mo", 3, 5}, b->par, b->arrays, b->c};
    return p;
}

static void blk_prepare(blk *b)
{
    if (!b->c->prepare) return;
    fl_pctx p = blk_ctx(b);
    b->c->prepare(&p, b->par);
}

static double val(const blk *b, int k, int order, double t, int left)
{
    return b->c->block->value(b->par, b->arrays, k, order, t, left);
}

static double y(const blk *b, double t)
{
    return val(b, 0, 0, t, 0);
}

static double yl(const blk *b, double t)
{
    return val(b, 0, 0, t, 1);
}

static double dy(const blk *b, double t)
{
    return val(b, 0, 1, t, 0);
}

static double next(const blk *b, double t)
{
    return b->c->block->next_event(b->par, b->arrays, t);
}

/* Runs check(); returns its result and copies the first message. */
static int run_check(const blk *b, char *msg, size_t cap)
{
    fl_diag *d = fl_diag_new();
    fl_pctx p = blk_ctx(b);
    int rc = b->c->check ? b->c->check(&p, d) : 0;
    msg[0] = 0;
    if (fl_diag_count(d) > 0) snprintf(msg, cap, "%s", fl_diag_text(d, 0));
    fl_diag_free(d);
    return rc;
}

/* Walks n events from t0 and stores them. */
static void events(const blk *b, double t0, double *ev, int n)
{
    double t = t0;
    for (int i = 0; i < n; i++) {
        ev[i] = next(b, t);
        if (!isfinite(ev[i])) {
            for (; i < n; i++) ev[i] = INFINITY;
            return;
        }
        t = ev[i];
    }
}

/* ---- tests ------------------------------------------------------------ */

static void test_registry(void)
{
    int n = 0;
    for (; fl_classes_blocks[n]; n++) {
        const fl_class *c = fl_classes_blocks[n];
        CHECK(c->block != NULL && c->block->value != NULL && c->block->nout != NULL);
        CHECK(c->nvars == 0 && c->outputs == NULL && c->build == NULL);
        CHECK(c->nports == 1 && strcmp(c->ports[0].name, "y") == 0 && c->ports[0].kind == FL_PORT_OUTPUT);
    }
    CHECK(n == 10);
    CHECK(find("CombiTimeTable")->ports[0].width == -1);
    CHECK(find("Step")->ports[0].width == 0);

    /* declared defaults, start values and units follow the MSL */
    const fl_class *s = find("Sine");
    CHECK(pdef(s, "f")->def == NULL && strcmp(pdef(s, "f")->start, "1") == 0);
    CHECK(strcmp(pdef(s, "f")->unit, "Hz") == 0);
    CHECK(strcmp(pdef(s, "phase")->unit, "rad") == 0 && strcmp(pdef(s, "phase")->def, "0") == 0);
    CHECK(strcmp(pdef(s, "continuous")->def, "false") == 0);
    CHECK(strcmp(pdef(s, "startTime")->unit, "s") == 0);
    CHECK(strcmp(pdef(find("ExpSine"), "f")->start, "2") == 0);
    CHECK(strcmp(pdef(find("ExpSine"), "damping")->unit, "s-1") == 0);
    CHECK(pdef(find("Constant"), "k")->def == NULL && strcmp(pdef(find("Constant"), "k")->start, "1") == 0);
    CHECK(strcmp(pdef(find("Ramp"), "duration")->start, "2") == 0);
    const fl_param_def *w = pdef(find("Pulse"), "width");
    CHECK(strcmp(w->def, "50") == 0 && (w->flags & FL_PF_MAX) && w->max == 100 && w->min > 0);
    CHECK(strcmp(pdef(find("Trapezoid"), "width")->def, "0.5") == 0);
    CHECK(strcmp(pdef(find("TimeTable"), "shiftTime")->def, "startTime") == 0);
    const fl_class *ct = find("CombiTimeTable");
    CHECK(strcmp(pdef(ct, "columns")->def, "2:size(table, 2)") == 0);
    CHECK(strcmp(pdef(ct, "extrapolation")->def, "Modelica.Blocks.Types.Extrapolation.LastTwoPoints") == 0);
    CHECK(strcmp(pdef(ct, "smoothness")->enum_type, "Modelica.Blocks.Types.Smoothness") == 0);
    CHECK(strcmp(pdef(ct, "timeEvents")->def, "Modelica.Blocks.Types.TimeEvents.Always") == 0);
    CHECK(pdef(ct, "offset")->type == FL_P_VECTOR && pdef(ct, "table")->type == FL_P_MATRIX);
}

static void test_constant_step(void)
{
    blk b;
    blk_init(&b, "Constant");
    blk_set(&b, "k", 4.5);
    CHECK(y(&b, 3) == 4.5);
    CHECK(dy(&b, 3) == 0);
    CHECK(b.c->block->nout(b.par, b.arrays) == 1);

    blk_init(&b, "Step");
    blk_set(&b, "height", 2);
    blk_set(&b, "offset", 0.5);
    blk_set(&b, "startTime", 1);
    blk_prepare(&b);
    CHECK(y(&b, 0.5) == 0.5);
    CHECK(yl(&b, 1) == 0.5);
    CHECK(y(&b, 1) == 2.5);
    CHECK(y(&b, 7) == 2.5);
    CHECK(dy(&b, 1) == 0);
    CHECK(next(&b, 0) == 1);
    CHECK(isinf(next(&b, 1)));
}

static void test_ramp(void)
{
    blk b;
    char msg[512];
    blk_init(&b, "Ramp");
    blk_set(&b, "height", 3);
    blk_set(&b, "duration", 2);
    blk_set(&b, "offset", 1);
    blk_set(&b, "startTime", 0.5);
    blk_prepare(&b);
    CHECK(run_check(&b, msg, sizeof msg) == 0);
    CHECK(y(&b, 0) == 1);
    CHECK_NEAR(y(&b, 1.5), 2.5, 1e-15);
    CHECK_NEAR(dy(&b, 1.5), 1.5, 1e-15);
    CHECK(val(&b, 0, 2, 1.5, 0) == 0);
    CHECK(yl(&b, 0.5) == 1 && y(&b, 0.5) == 1);
    CHECK(val(&b, 0, 1, 0.5, 1) == 0);
    CHECK(val(&b, 0, 1, 0.5, 0) == 1.5);
    CHECK(yl(&b, 2.5) == 4 && y(&b, 2.5) == 4);
    CHECK(val(&b, 0, 1, 2.5, 1) == 1.5);
    CHECK(val(&b, 0, 1, 2.5, 0) == 0);
    CHECK(next(&b, 0) == 0.5);
    CHECK(next(&b, 0.5) == 2.5);
    CHECK(isinf(next(&b, 2.5)));

    /* duration 0 is a step, without a division by zero */
    blk_set(&b, "duration", 0);
    CHECK(run_check(&b, msg, sizeof msg) == 0);
    CHECK(yl(&b, 0.5) == 1);
    CHECK(y(&b, 0.5) == 4);
    CHECK(dy(&b, 0.5) == 0 && val(&b, 0, 1, 0.5, 1) == 0);
    CHECK(next(&b, 0) == 0.5 && isinf(next(&b, 0.5)));

    blk_set(&b, "duration", -1);
    CHECK(run_check(&b, msg, sizeof msg) == -1);
    CHECK_STR_CONTAINS(msg, "blk.duration");
    CHECK_STR_CONTAINS(msg, ">= 0");
}

static void test_sine_cosine(void)
{
    blk b;
    blk_init(&b, "Sine");
    blk_set(&b, "amplitude", 2);
    blk_set(&b, "f", 3);
    blk_set(&b, "phase", 0.4);
    blk_set(&b, "offset", 1);
    blk_set(&b, "startTime", 0.1);
    blk_prepare(&b);
    double w = 2 * PI * 3, x = w * (0.37 - 0.1) + 0.4;
    CHECK_NEAR(y(&b, 0.37), 1 + 2 * sin(x), 1e-13);
    CHECK_REL(dy(&b, 0.37), 2 * w * cos(x), 1e-13);
    CHECK_REL(val(&b, 0, 2, 0.37, 0), -2 * w * w * sin(x), 1e-13);
    CHECK_REL(val(&b, 0, 3, 0.37, 0), -2 * w * w * w * cos(x), 1e-13);
    CHECK(y(&b, 0.05) == 1 && dy(&b, 0.05) == 0);
    CHECK(yl(&b, 0.1) == 1);
    CHECK_NEAR(y(&b, 0.1), 1 + 2 * sin(0.4), 1e-15);
    CHECK(next(&b, 0) == 0.1 && isinf(next(&b, 0.1)));
    /* continuous = true starts at offset + amplitude*sin(phase) */
    blk_set(&b, "continuous", 1);
    CHECK_NEAR(y(&b, 0.05), 1 + 2 * sin(0.4), 1e-15);
    CHECK_NEAR(yl(&b, 0.1), y(&b, 0.1), 1e-15);
    CHECK(dy(&b, 0.05) == 0);

    blk_init(&b, "Cosine");
    blk_set(&b, "amplitude", 2);
    blk_set(&b, "f", 3);
    blk_set(&b, "phase", 0.4);
    blk_set(&b, "offset", 1);
    blk_set(&b, "startTime", 0.1);
    CHECK_NEAR(y(&b, 0.37), 1 + 2 * cos(x), 1e-13);
    CHECK_REL(dy(&b, 0.37), -2 * w * sin(x), 1e-13);
    CHECK_REL(val(&b, 0, 2, 0.37, 0), -2 * w * w * cos(x), 1e-13);
    /* continuous = false jumps from offset to offset + amplitude*cos(phase) */
    CHECK(yl(&b, 0.1) == 1);
    CHECK_NEAR(y(&b, 0.1), 1 + 2 * cos(0.4), 1e-15);
    blk_set(&b, "continuous", 1);
    CHECK_NEAR(y(&b, 0), 1 + 2 * cos(0.4), 1e-15);
}

static void test_expsine(void)
{
    blk b;
    blk_init(&b, "ExpSine");
    blk_set(&b, "amplitude", 2);
    blk_set(&b, "f", 1.5);
    blk_set(&b, "phase", 0.3);
    blk_set(&b, "damping", 0.7);
    blk_set(&b, "offset", 0.5);
    blk_set(&b, "startTime", 0.2);
    double w = 2 * PI * 1.5, d = 0.7, tau = 0.9, x = w * tau + 0.3, e = exp(-d * tau);
    CHECK_NEAR(y(&b, 1.1), 0.5 + 2 * e * sin(x), 1e-13);
    CHECK_REL(dy(&b, 1.1), 2 * e * (-d * sin(x) + w * cos(x)), 1e-12);
    CHECK_REL(val(&b, 0, 2, 1.1, 0), 2 * e * ((d * d - w * w) * sin(x) - 2 * d * w * cos(x)), 1e-12);
    /* the derivative agrees with a central difference of the value */
    double h = 1e-6;
    CHECK_REL(dy(&b, 1.1), (y(&b, 1.1 + h) - y(&b, 1.1 - h)) / (2 * h), 1e-7);
    CHECK(y(&b, 0.1) == 0.5 && yl(&b, 0.2) == 0.5);
    CHECK_NEAR(y(&b, 0.2), 0.5 + 2 * sin(0.3), 1e-15);
    CHECK(next(&b, -1) == 0.2 && isinf(next(&b, 0.2)));
}

static void test_pulse(void)
{
    blk b;
    char msg[512];
    double ev[12];
    blk_init(&b, "Pulse");
    blk_set(&b, "amplitude", 2);
    blk_set(&b, "width", 30);
    blk_set(&b, "period", 1);
    blk_set(&b, "nperiod", -1);
    blk_set(&b, "offset", 0.5);
    blk_set(&b, "startTime", 0);
    blk_prepare(&b);
    CHECK(run_check(&b, msg, sizeof msg) == 0);
    CHECK(y(&b, -0.5) == 0.5);
    CHECK(yl(&b, 0) == 0.5 && y(&b, 0) == 2.5);
    CHECK(y(&b, 0.2) == 2.5);
    CHECK(yl(&b, 0.3) == 2.5 && y(&b, 0.3) == 0.5);
    CHECK(y(&b, 0.7) == 0.5);
    CHECK(yl(&b, 1) == 0.5 && y(&b, 1) == 2.5);
    CHECK(yl(&b, 1.3) == 2.5 && y(&b, 1.3) == 0.5);
    CHECK(y(&b, 5.25) == 2.5 && y(&b, 5.5) == 0.5);
    CHECK(dy(&b, 0.2) == 0);
    events(&b, -1, ev, 8);
    double want[] = {0, 0.3, 1, 1.3, 2, 2.3, 3, 3.3};
    for (int i = 0; i < 8; i++) CHECK_NEAR(ev[i], want[i], 1e-14);

    /* a period that is not a binary fraction: at every reported event the
     * left and right values differ, i.e. the event is exactly where the
     * output switches */
    blk_set(&b, "period", 0.1);
    blk_set(&b, "width", 50);
    blk_set(&b, "startTime", 0.05);
    double t = 0;
    int bad = 0;
    for (int i = 0; i < 200; i++) {
        t = next(&b, t);
        int start = i % 2 == 0; /* events alternate: period start, pulse end */
        double l = yl(&b, t), r = y(&b, t);
        if (start ? !(l == 0.5 && r == 2.5) : !(l == 2.5 && r == 0.5)) bad++;
    }
    CHECK(bad == 0);
    CHECK_NEAR(t, 0.05 + 99 * 0.1 + 0.05, 1e-12);

    /* nperiod limits the number of pulses */
    blk_set(&b, "period", 1);
    blk_set(&b, "width", 30);
    blk_set(&b, "startTime", 0);
    blk_set(&b, "nperiod", 2);
    CHECK(y(&b, 1.1) == 2.5);
    CHECK(yl(&b, 2) == 0.5 && y(&b, 2) == 0.5 && y(&b, 2.1) == 0.5);
    events(&b, -1, ev, 6);
    CHECK(ev[0] == 0 && ev[2] == 1 && ev[4] == 2 && isinf(ev[5]));
    CHECK_NEAR(ev[1], 0.3, 1e-15);
    CHECK_NEAR(ev[3], 1.3, 1e-15);
    blk_set(&b, "nperiod", 0);
    CHECK(y(&b, 0) == 0.5 && y(&b, 0.1) == 0.5 && y(&b, 1.1) == 0.5);
    CHECK(next(&b, -1) == 0 && isinf(next(&b, 0)));

    /* width 100: high for the whole period */
    blk_set(&b, "nperiod", -1);
    blk_set(&b, "width", 100);
    CHECK(y(&b, 0.999) == 2.5 && yl(&b, 1) == 2.5 && y(&b, 1) == 2.5);
    CHECK(next(&b, 0) == 1 && next(&b, 1) == 2);

    blk_set(&b, "width", 30);
    blk_set(&b, "period", 0);
    CHECK(run_check(&b, msg, sizeof msg) == -1);
    CHECK_STR_CONTAINS(msg, "blk.period");
    CHECK_STR_CONTAINS(msg, "must be > 0");
}

static void test_trapezoid(void)
{
    blk b;
    double ev[12];
    blk_init(&b, "Trapezoid");
    blk_set(&b, "amplitude", 2);
    blk_set(&b, "rising", 0.2);
    blk_set(&b, "width", 0.3);
    blk_set(&b, "falling", 0.1);
    blk_set(&b, "period", 1);
    blk_set(&b, "nperiod", -1);
    blk_set(&b, "offset", 1);
    blk_set(&b, "startTime", 0.5);
    CHECK(y(&b, 0.2) == 1);
    CHECK_NEAR(y(&b, 0.6), 2, 1e-14);
    CHECK_NEAR(dy(&b, 0.6), 10, 1e-12);
    CHECK(y(&b, 0.8) == 3 && dy(&b, 0.8) == 0);
    CHECK_NEAR(y(&b, 1.05), 2, 1e-13);
    CHECK_NEAR(dy(&b, 1.05), -20, 1e-11);
    CHECK(val(&b, 0, 2, 1.05, 0) == 0);
    CHECK(y(&b, 1.2) == 1);
    CHECK_NEAR(y(&b, 1.55), 1.5, 1e-13);
    /* derivative at the corners is that of the side evaluated */
    double c1 = next(&b, 0.5);
    CHECK_NEAR(c1, 0.7, 1e-15);
    CHECK_NEAR(val(&b, 0, 1, c1, 1), 10, 1e-12);
    CHECK(val(&b, 0, 1, c1, 0) == 0);
    CHECK_NEAR(yl(&b, c1), 3, 1e-14);
    CHECK(y(&b, c1) == 3);
    events(&b, 0, ev, 9);
    double want[] = {0.5, 0.7, 1.0, 1.1, 1.5, 1.7, 2.0, 2.1, 2.5};
    for (int i = 0; i < 9; i++) CHECK_NEAR(ev[i], want[i], 1e-14);

    /* zero rising/falling: jumps, never a division by zero */
    blk_set(&b, "rising", 0);
    blk_set(&b, "falling", 0);
    CHECK(yl(&b, 0.5) == 1 && y(&b, 0.5) == 3);
    CHECK(dy(&b, 0.5) == 0);
    double te = next(&b, 0.5);
    CHECK_NEAR(te, 0.8, 1e-15);
    CHECK(yl(&b, te) == 3 && y(&b, te) == 1);
    CHECK(next(&b, te) == 1.5);
    int bad = 0;
    for (double t = 0; t < 5; t += 0.01)
        if (!isfinite(y(&b, t)) || !isfinite(dy(&b, t)) || !isfinite(yl(&b, t))) bad++;
    CHECK(bad == 0);

    /* one period only */
    blk_set(&b, "rising", 0.2);
    blk_set(&b, "falling", 0.1);
    blk_set(&b, "nperiod", 1);
    events(&b, 0, ev, 7);
    CHECK(ev[0] == 0.5 && ev[4] == 1.5 && isinf(ev[5]));
    CHECK(y(&b, 1.6) == 1 && y(&b, 1.8) == 1);
}

static void test_timetable(void)
{
    static double tab[] = {0, 0, 1, 2, 1, 5, 3, 1};
    static double empty[] = {0};
    static double decr[] = {0, 0, 2, 1, 1, 2};
    static double first[] = {1, 0, 2, 1};
    static double triple[] = {0, 0, 1, 1, 1, 2, 1, 3};
    static double onerow[] = {0, 3};
    static double three[] = {0, 1, 2, 1, 3, 4};
    char msg[512];
    blk b;
    blk_init(&b, "TimeTable");
    blk_array(&b, "table", tab, 4, 2, 2);
    blk_set(&b, "timeScale", 1);
    blk_set(&b, "offset", 0.5);
    blk_set(&b, "startTime", 0);
    blk_set(&b, "shiftTime", 0);
    blk_prepare(&b);
    CHECK(run_check(&b, msg, sizeof msg) == 0);
    CHECK(y(&b, -1) == 0.5);
    CHECK(y(&b, 0.5) == 1.5 && dy(&b, 0.5) == 2);
    /* repeated time: left limit is the earlier row, the later row applies at the instant */
    CHECK(yl(&b, 1) == 2.5 && val(&b, 0, 1, 1, 1) == 2);
    CHECK(y(&b, 1) == 5.5 && dy(&b, 1) == -2);
    CHECK(y(&b, 2) == 3.5);
    /* beyond the last row: the last interval extended */
    CHECK(y(&b, 3) == 1.5);
    CHECK(y(&b, 4) == -0.5 && dy(&b, 4) == -2);
    CHECK(next(&b, -1) == 0 && next(&b, 0) == 1 && next(&b, 1) == 3 && isinf(next(&b, 3)));

    /* scaled and shifted time axis: row i at shiftTime + timeScale*t_i */
    blk_set(&b, "startTime", 1);
    blk_set(&b, "shiftTime", 2);
    blk_set(&b, "timeScale", 2);
    CHECK(y(&b, 0.5) == 0.5);
    CHECK(y(&b, 1.5) == 0); /* between startTime and the first row: first interval extended back */
    CHECK(y(&b, 3) == 1.5 && dy(&b, 3) == 1);
    CHECK(yl(&b, 4) == 2.5 && y(&b, 4) == 5.5);
    double ev[6];
    events(&b, 0, ev, 6);
    CHECK(ev[0] == 1 && ev[1] == 2 && ev[2] == 4 && ev[3] == 8 && isinf(ev[4]));

    blk_init(&b, "TimeTable");
    blk_array(&b, "table", onerow, 1, 2, 2);
    blk_set(&b, "timeScale", 1);
    blk_set(&b, "offset", 1);
    blk_set(&b, "startTime", 0.5);
    blk_set(&b, "shiftTime", 0.5);
    CHECK(run_check(&b, msg, sizeof msg) == 0);
    CHECK(y(&b, 0) == 1 && y(&b, 0.5) == 4 && y(&b, 9) == 4 && dy(&b, 9) == 0);
    CHECK(next(&b, 0) == 0.5 && isinf(next(&b, 0.5)));

    b.narrays = 0;
    blk_array(&b, "table", empty, 0, 2, 2);
    CHECK(run_check(&b, msg, sizeof msg) == -1);
    CHECK_STR_CONTAINS(msg, "blk.table");
    CHECK_STR_CONTAINS(msg, "table is empty");
    CHECK_STR_CONTAINS(msg, "test.mo:3:5");
    b.narrays = 0;
    blk_array(&b, "table", decr, 3, 2, 2);
    CHECK(run_check(&b, msg, sizeof msg) == -1);
    CHECK_STR_CONTAINS(msg, "blk.table: time values must be non-decreasing: row 3");
    b.narrays = 0;
    blk_array(&b, "table", first, 2, 2, 2);
    CHECK(run_check(&b, msg, sizeof msg) == -1);
    CHECK_STR_CONTAINS(msg, "first time value must be 0");
    b.narrays = 0;
    blk_array(&b, "table", triple, 4, 2, 2);
    CHECK(run_check(&b, msg, sizeof msg) == -1);
    CHECK_STR_CONTAINS(msg, "at most two rows");
    b.narrays = 0;
    blk_array(&b, "table", three, 2, 3, 2);
    CHECK(run_check(&b, msg, sizeof msg) == -1);
    CHECK_STR_CONTAINS(msg, "2 columns");
    b.narrays = 0;
    blk_array(&b, "table", tab, 4, 2, 2);
    blk_set(&b, "timeScale", 0);
    CHECK(run_check(&b, msg, sizeof msg) == -1);
    CHECK_STR_CONTAINS(msg, "blk.timeScale");
}

enum { HOLD = 1, LASTTWO, PERIODIC, NOEXTRAP };

/* CombiTimeTable over [0, 0, 10; 1, 1, 20; 2, 4, 20], columns {2, 3}. */
static void combi_init(blk *b, double *tab, int rows, double *cols, int ncols, double *offs, int noffs)
{
    blk_init(b, "CombiTimeTable");
    blk_set(b, "tableOnFile", 0);
    blk_array(b, "table", tab, rows, 3, 2);
    blk_array(b, "columns", cols, ncols, 0, 1);
    blk_array(b, "offset", offs, noffs, 0, 1);
    blk_set(b, "smoothness", 1);
    blk_set(b, "extrapolation", LASTTWO);
    blk_set(b, "timeScale", 1);
    blk_set(b, "startTime", 0);
    blk_set(b, "shiftTime", 0);
    blk_set(b, "timeEvents", 1);
    blk_prepare(b);
}

static void test_combitimetable(void)
{
    static double tab[] = {0, 0, 10, 1, 1, 20, 2, 4, 20};
    static double cols[] = {2, 3};
    static double off1[] = {0.5};
    static double off2[] = {1, -1};
    static double off3[] = {1, 2, 3};
    char msg[512];
    blk b;
    combi_init(&b, tab, 3, cols, 2, off1, 1);
    CHECK(run_check(&b, msg, sizeof msg) == 0);
    CHECK(b.c->block->nout(b.par, b.arrays) == 2);
    CHECK(val(&b, 0, 0, 0.5, 0) == 1 && val(&b, 1, 0, 0.5, 0) == 15.5);
    CHECK(val(&b, 0, 1, 0.5, 0) == 1 && val(&b, 1, 1, 0.5, 0) == 10);
    CHECK(val(&b, 0, 0, -1, 0) == 0.5 && val(&b, 1, 0, -1, 0) == 0.5); /* before startTime: offset */
    /* LastTwoPoints */
    CHECK(val(&b, 0, 0, 3, 0) == 7.5 && val(&b, 1, 0, 3, 0) == 20.5);
    CHECK(val(&b, 0, 1, 3, 0) == 3 && val(&b, 1, 1, 3, 0) == 0);
    CHECK(next(&b, -1) == 0 && next(&b, 0) == 1 && next(&b, 1) == 2 && isinf(next(&b, 2)));
    /* HoldLastPoint, and NoExtrapolation which holds the end values too */
    blk_set(&b, "extrapolation", HOLD);
    CHECK(val(&b, 0, 0, 3, 0) == 4.5 && val(&b, 1, 0, 3, 0) == 20.5 && val(&b, 0, 1, 3, 0) == 0);
    CHECK(val(&b, 0, 1, 2, 1) == 3 && val(&b, 0, 1, 2, 0) == 0);
    blk_set(&b, "extrapolation", NOEXTRAP);
    CHECK(run_check(&b, msg, sizeof msg) == 0);
    CHECK(val(&b, 0, 0, 3, 0) == 4.5);
    /* Periodic: period 2 */
    blk_set(&b, "extrapolation", PERIODIC);
    CHECK(val(&b, 0, 0, 2.5, 0) == 1 && val(&b, 1, 0, 2.5, 0) == 15.5);
    CHECK(val(&b, 0, 0, 3.5, 0) == 3 && val(&b, 0, 1, 3.5, 0) == 3);
    CHECK(val(&b, 0, 0, 2, 1) == 4.5 && val(&b, 0, 0, 2, 0) == 0.5);
    CHECK(val(&b, 1, 0, 2, 1) == 20.5 && val(&b, 1, 0, 2, 0) == 10.5);
    CHECK(val(&b, 0, 0, 101, 0) == 1.5);
    double ev[8];
    events(&b, 0.5, ev, 8);
    for (int i = 0; i < 8; i++) CHECK(ev[i] == 1 + i);

    /* ConstantSegments: the row at or below the time */
    blk_set(&b, "smoothness", 3);
    blk_set(&b, "extrapolation", HOLD);
    CHECK(val(&b, 0, 0, 0.5, 0) == 0.5 && val(&b, 0, 1, 0.5, 0) == 0);
    CHECK(val(&b, 0, 0, 1, 1) == 0.5 && val(&b, 0, 0, 1, 0) == 1.5);
    CHECK(val(&b, 0, 0, 1.999, 0) == 1.5 && val(&b, 0, 0, 2, 0) == 4.5);
    blk_set(&b, "extrapolation", PERIODIC);
    CHECK(val(&b, 0, 0, 2.5, 0) == 0.5 && val(&b, 0, 0, 3.5, 0) == 1.5);
    CHECK(val(&b, 0, 0, 4, 1) == 1.5 && val(&b, 0, 0, 4, 0) == 0.5);
    /* AtDiscontinuities: every row of a piecewise-constant table is one */
    blk_set(&b, "extrapolation", HOLD);
    blk_set(&b, "timeEvents", 2);
    CHECK(next(&b, 0) == 1 && next(&b, 1) == 2);

    /* shiftTime, timeScale, one offset per column */
    combi_init(&b, tab, 3, cols, 2, off2, 2);
    blk_set(&b, "startTime", 1);
    blk_set(&b, "shiftTime", 1);
    blk_set(&b, "timeScale", 2);
    CHECK(run_check(&b, msg, sizeof msg) == 0);
    CHECK(val(&b, 0, 0, 0.5, 0) == 1 && val(&b, 1, 0, 0.5, 0) == -1);
    CHECK(val(&b, 0, 0, 2, 0) == 1.5 && val(&b, 1, 0, 2, 0) == 14);
    CHECK(val(&b, 0, 1, 2, 0) == 0.5 && val(&b, 1, 1, 2, 0) == 5);
    CHECK(next(&b, 0) == 1 && next(&b, 1) == 3 && next(&b, 3) == 5 && isinf(next(&b, 5)));
    /* before the first row: LastTwoPoints extends the first interval, HoldLastPoint holds row 1 */
    blk_set(&b, "startTime", 0);
    blk_set(&b, "shiftTime", 2);
    blk_set(&b, "timeScale", 1);
    CHECK(val(&b, 0, 0, 1, 0) == 0 && val(&b, 0, 1, 1, 0) == 1);
    blk_set(&b, "extrapolation", HOLD);
    CHECK(val(&b, 0, 0, 1, 0) == 1 && val(&b, 0, 1, 1, 0) == 0);
    blk_set(&b, "timeEvents", 3);
    CHECK(next(&b, -1) == 0 && isinf(next(&b, 0)));

    /* a jump, and AtDiscontinuities events only there */
    static double jtab[] = {0, 0, 0, 1, 1, 1, 1, 3, 3, 2, 3, 3};
    static double col2[] = {2};
    static double off0[] = {0};
    combi_init(&b, jtab, 4, col2, 1, off0, 1);
    CHECK(run_check(&b, msg, sizeof msg) == 0);
    CHECK(b.c->block->nout(b.par, b.arrays) == 1);
    CHECK(val(&b, 0, 0, 1, 1) == 1 && val(&b, 0, 0, 1, 0) == 3);
    CHECK(val(&b, 0, 1, 1, 1) == 1 && val(&b, 0, 1, 1, 0) == 0);
    blk_set(&b, "timeEvents", 2);
    CHECK(next(&b, 0) == 1 && isinf(next(&b, 1)));
    blk_set(&b, "timeEvents", 1);
    CHECK(next(&b, 0) == 1 && next(&b, 1) == 2);

    /* periodic table with a period that is not a binary fraction: every
     * event is a row or a period start, and the left and right values
     * there are the table's, not a value interpolated across the seam */
    static double ptab[] = {0, 0, 0, 0.1, 1, 0, 0.3, 2, 0};
    combi_init(&b, ptab, 3, col2, 1, off0, 1);
    blk_set(&b, "extrapolation", PERIODIC);
    double t = 0;
    int bad = 0;
    for (int i = 0; i < 300; i++) {
        t = next(&b, t);
        double l = val(&b, 0, 0, t, 1), r = val(&b, 0, 0, t, 0);
        int seam = i % 2 == 1;
        if (seam ? !(l == 2 && r == 0) : !(fabs(l - 1) < 1e-12 && fabs(r - 1) < 1e-12)) bad++;
    }
    CHECK(bad == 0);
    CHECK_NEAR(t, 45, 1e-9);

    /* rejections */
    combi_init(&b, jtab, 4, col2, 1, off0, 1);
    blk_set(&b, "smoothness", 2);
    CHECK(run_check(&b, msg, sizeof msg) == -1);
    CHECK(strcmp(msg, "test.mo:3:5: error: blk.table: time values must be strictly increasing for smoothness = "
                      "ContinuousDerivative: rows 2 and 3 both have t = 1") == 0);
    combi_init(&b, tab, 3, cols, 2, off1, 1);
    static double badcols[] = {2, 4};
    b.arrays[1].data = badcols;
    CHECK(run_check(&b, msg, sizeof msg) == -1);
    CHECK_STR_CONTAINS(msg, "blk.columns[2] = 4 is out of range");
    b.arrays[1].data = cols;
    static double decr[] = {0, 0, 0, 2, 1, 1, 1, 2, 2};
    b.arrays[0].data = decr;
    CHECK(run_check(&b, msg, sizeof msg) == -1);
    CHECK_STR_CONTAINS(msg, "blk.table: time values must be non-decreasing: row 3");
    b.arrays[0].dim[0] = 0;
    CHECK(run_check(&b, msg, sizeof msg) == -1);
    CHECK_STR_CONTAINS(msg, "blk.table: table is empty");
    combi_init(&b, tab, 3, cols, 2, off3, 3);
    CHECK(b.c->block->nout(b.par, b.arrays) == 3);
    CHECK(run_check(&b, msg, sizeof msg) == -1);
    CHECK_STR_CONTAINS(msg, "blk.offset");
}

int main(void)
{
    test_registry();
    test_constant_step();
    test_ramp();
    test_sine_cosine();
    test_expsine();
    test_pulse();
    test_trapezoid();
    test_timetable();
    test_combitimetable();
    return check_done();
}
