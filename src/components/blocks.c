/* blocks.c - the signal sources of Modelica.Blocks.Sources (Constant, Step,
 * Ramp, Sine, Cosine, ExpSine, Pulse, Trapezoid, TimeTable, CombiTimeTable)
 * as stateless functions of time for prescribed motions and force inputs.
 *
 * Every relation on time is evaluated as `before(t, T, left)`: at an event
 * instant the engine asks first for the left limit (left = 1), then for the
 * value after the event (left = 0), which is what Modelica's `time < T`
 * gives. A breakpoint T is always computed by the same helper in value()
 * and next_event(), so that the event time reported is exactly the T the
 * relation switches at. Discrete state of the MSL blocks (Pulse.count,
 * TimeTable.a/b, the table's interval index) is recomputed from time. */
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "common.h"
#include "tablefile.h"
#include "tables.h"

#define MBS "Modelica.Blocks.Sources."
#define SMOOTHNESS "Modelica.Blocks.Types.Smoothness"
#define EXTRAPOLATION "Modelica.Blocks.Types.Extrapolation"
#define TIMEEVENTS "Modelica.Blocks.Types.TimeEvents"

/* Modelica.Constants.small and eps, the limits the MSL declares. */
#define C_SMALL DBL_MIN
#define C_EPS DBL_EPSILON
#define C_PI 3.14159265358979323846

/* Literal indices (1-based) of TimeEvents, in the order of value.c (those
 * of Smoothness and Extrapolation are in tables.h). */
enum { TE_ALWAYS = 1, TE_DISCONT, TE_NONE };

/* ---- shared pieces ----------------------------------------------------- */

static const fl_port_def y_port[] = {{"y", FL_PORT_OUTPUT, NULL, 0, "", "output signal", 0}};
static const fl_port_def y_vec_port[] = {{"y", FL_PORT_OUTPUT, NULL, -1, "", "output signals", 0}};

#define BPAR_OFFSET {"offset", FL_P_REAL, "0", NULL, "", "value added to y", 0, 0, 0, NULL}
#define BPAR_STARTTIME {"startTime", FL_P_REAL, "0", NULL, "s", "before this time y equals offset", 0, 0, 0, NULL}

/* Modelica's `time < T`, or its left limit at the event instant T. */
static int before(double t, double T, int left)
{
    return left ? t <= T : t < T;
}

static int reached(double t, double T, int left)
{
    return !before(t, T, left);
}

static const fl_value *par_array(const double *par, const fl_value *arrays, int k)
{
    return &arrays[(int)par[k]];
}

static int one_output(const double *par, const fl_value *arrays)
{
    FL_UNUSED(par);
    FL_UNUSED(arrays);
    return 1;
}

/* A constant output piece: its value, and zero for every derivative. */
static double level(double y, int order)
{
    return order ? 0.0 : y;
}

/* Index k of a sequence of breakpoints T(k), increasing in k, such that
 * T(k) <= t < T(k+1) (left limit: T(k) < t <= T(k+1)), starting from an
 * estimate. The estimate comes from a division and may be off by one at a
 * breakpoint; the correction uses the same T() as every event time. */
static double fix_index(double k, double t, int left, double (*T)(const void *, double), const void *ctx)
{
    if (!isfinite(k)) return 0;
    for (int i = 0; i < 8 && !reached(t, T(ctx, k), left); i++) k -= 1;
    for (int i = 0; i < 8 && reached(t, T(ctx, k + 1), left); i++) k += 1;
    return k;
}

static int check_positive(const fl_pctx *p, fl_diag *d, int k)
{
    double x = p->par[k];
    if (x > 0 && isfinite(x)) return 0;
    char val[40];
    fl_fmt_double(val, sizeof val, x);
    fl_err(d, p->loc, "%s.%s = %s is invalid: it must be > 0", p->inst, p->cls->params[k].name, val);
    return -1;
}

/* ---- Constant ---------------------------------------------------------- */

static const fl_param_def constant_params[] = {
    {"k", FL_P_REAL, NULL, "1", "", "value of y", 0, 0, 0, NULL},
};

static double constant_value(const double *par, const fl_value *arrays, int k, int order, double t, int left)
{
    FL_UNUSED(arrays);
    FL_UNUSED(k);
    FL_UNUSED(t);
    FL_UNUSED(left);
    return level(par[0], order);
}

static const fl_block_ops constant_ops = {
    .nout = one_output,
    .value = constant_value,
};
static const fl_class cls_constant = {
    .path = MBS "Constant",
    .desc = "Constant output",
    .ports = y_port,
    .nports = FL_N(y_port),
    .params = constant_params,
    .nparams = FL_N(constant_params),
    .block = &constant_ops,
};

/* ---- Step -------------------------------------------------------------- */

enum { STEP_HEIGHT, STEP_OFFSET, STEP_START };
static const fl_param_def step_params[] = {
    {"height", FL_P_REAL, "1", NULL, "", "output change at startTime", 0, 0, 0, NULL},
    BPAR_OFFSET,
    BPAR_STARTTIME,
};

static double step_value(const double *par, const fl_value *arrays, int k, int order, double t, int left)
{
    FL_UNUSED(arrays);
    FL_UNUSED(k);
    double y = par[STEP_OFFSET] + (before(t, par[STEP_START], left) ? 0.0 : par[STEP_HEIGHT]);
    return level(y, order);
}

static double step_next(const double *par, const fl_value *arrays, double t)
{
    FL_UNUSED(arrays);
    return t < par[STEP_START] ? par[STEP_START] : INFINITY;
}

static const fl_block_ops step_ops = {
    .nout = one_output,
    .value = step_value,
    .next_event = step_next,
};
static const fl_class cls_step = {
    .path = MBS "Step",
    .desc = "Step at startTime",
    .ports = y_port,
    .nports = FL_N(y_port),
    .params = step_params,
    .nparams = FL_N(step_params),
    .block = &step_ops,
};

/* ---- Ramp -------------------------------------------------------------- */

enum { RAMP_HEIGHT, RAMP_DURATION, RAMP_OFFSET, RAMP_START };
static const fl_param_def ramp_params[] = {
    {"height", FL_P_REAL, "1", NULL, "", "output change over the ramp", 0, 0, 0, NULL},
    {"duration", FL_P_REAL, NULL, "2", "s", "rise time (0: a step)", FL_PF_MIN, 0, 0, NULL},
    BPAR_OFFSET,
    BPAR_STARTTIME,
};

static double ramp_end(const double *par)
{
    return par[RAMP_START] + par[RAMP_DURATION];
}

static double ramp_value(const double *par, const fl_value *arrays, int k, int order, double t, int left)
{
    FL_UNUSED(arrays);
    FL_UNUSED(k);
    double h = par[RAMP_HEIGHT], ts = par[RAMP_START], off = par[RAMP_OFFSET];
    if (before(t, ts, left)) return level(off, order);
    /* With duration 0 this branch is unreachable (t >= ts is not < ts + 0),
     * so the division below never sees a zero duration. */
    if (before(t, ramp_end(par), left)) {
        double dur = par[RAMP_DURATION];
        if (order == 0) return off + (t - ts) * h / dur;
        return order == 1 ? h / dur : 0.0;
    }
    return level(off + h, order);
}

static double ramp_next(const double *par, const fl_value *arrays, double t)
{
    FL_UNUSED(arrays);
    if (t < par[RAMP_START]) return par[RAMP_START];
    double te = ramp_end(par);
    return t < te ? te : INFINITY;
}

static int ramp_check(const fl_pctx *p, fl_diag *d)
{
    double dur = p->par[RAMP_DURATION];
    if (dur >= 0 && isfinite(dur)) return 0;
    char val[40];
    fl_fmt_double(val, sizeof val, dur);
    fl_err(d, p->loc, "%s.duration = %s is invalid: it must be >= 0 (0 gives a step)", p->inst, val);
    return -1;
}

static const fl_block_ops ramp_ops = {
    .nout = one_output,
    .value = ramp_value,
    .next_event = ramp_next,
};
static const fl_class cls_ramp = {
    .path = MBS "Ramp",
    .desc = "Linear rise from offset to offset + height",
    .ports = y_port,
    .nports = FL_N(y_port),
    .params = ramp_params,
    .nparams = FL_N(ramp_params),
    .check = ramp_check,
    .block = &ramp_ops,
};

/* ---- Sine, Cosine, ExpSine --------------------------------------------- */

/* Derivative of the given order of amp*exp(-damping*tau)*g(w*tau + phase)
 * with g = sin or cos. Each derivative keeps the form
 * exp(-damping*tau)*(a*sin(x) + b*cos(x)), so the coefficients are carried
 * exactly instead of differentiating numerically. */
static double wave(double amp, double damping, double w, double phase, double tau, int order, int cosine)
{
    double a = cosine ? 0.0 : 1.0, b = cosine ? 1.0 : 0.0;
    for (int i = 0; i < order; i++) {
        double na = -damping * a - w * b;
        double nb = w * a - damping * b;
        a = na;
        b = nb;
    }
    double x = w * tau + phase;
    double e = damping != 0 ? exp(-tau * damping) : 1.0;
    return amp * e * (a * sin(x) + b * cos(x));
}

enum { SINE_AMP, SINE_F, SINE_PHASE, SINE_CONT, SINE_OFFSET, SINE_START };
static const fl_param_def sine_params[] = {
    {"amplitude", FL_P_REAL, "1", NULL, "", "peak value of the sine", 0, 0, 0, NULL},
    {"f", FL_P_REAL, NULL, "1", "Hz", "cycles per second", 0, 0, 0, NULL},
    {"phase", FL_P_REAL, "0", NULL, "rad", "argument of the sine at startTime", 0, 0, 0, NULL},
    {"continuous", FL_P_BOOL, "false", NULL, "",
     "true: y = offset + amplitude*sin(phase) before startTime instead of offset", FL_PF_STRUCT, 0, 0, NULL},
    BPAR_OFFSET,
    BPAR_STARTTIME,
};
static const fl_param_def cosine_params[] = {
    {"amplitude", FL_P_REAL, "1", NULL, "", "peak value of the cosine", 0, 0, 0, NULL},
    {"f", FL_P_REAL, NULL, "1", "Hz", "cycles per second", 0, 0, 0, NULL},
    {"phase", FL_P_REAL, "0", NULL, "rad", "argument of the cosine at startTime", 0, 0, 0, NULL},
    {"continuous", FL_P_BOOL, "false", NULL, "",
     "true: y = offset + amplitude*cos(phase) before startTime instead of offset", FL_PF_STRUCT, 0, 0, NULL},
    BPAR_OFFSET,
    BPAR_STARTTIME,
};

static double harmonic(const double *par, int order, double t, int left, int cosine)
{
    double amp = par[SINE_AMP], ph = par[SINE_PHASE], off = par[SINE_OFFSET], ts = par[SINE_START];
    if (before(t, ts, left)) {
        if (par[SINE_CONT] == 0) return level(off, order);
        return level(off + amp * (cosine ? cos(ph) : sin(ph)), order);
    }
    double y = wave(amp, 0.0, 2 * C_PI * par[SINE_F], ph, t - ts, order, cosine);
    return order ? y : off + y;
}

static double sine_value(const double *par, const fl_value *arrays, int k, int order, double t, int left)
{
    FL_UNUSED(arrays);
    FL_UNUSED(k);
    return harmonic(par, order, t, left, 0);
}

static double cosine_value(const double *par, const fl_value *arrays, int k, int order, double t, int left)
{
    FL_UNUSED(arrays);
    FL_UNUSED(k);
    return harmonic(par, order, t, left, 1);
}

/* `time < startTime` is a time event even where the output does not jump. */
static double sine_next(const double *par, const fl_value *arrays, double t)
{
    FL_UNUSED(arrays);
    return t < par[SINE_START] ? par[SINE_START] : INFINITY;
}

static const fl_block_ops sine_ops = {
    .nout = one_output,
    .value = sine_value,
    .next_event = sine_next,
};
static const fl_class cls_sine = {
    .path = MBS "Sine",
    .desc = "Sine wave from startTime",
    .ports = y_port,
    .nports = FL_N(y_port),
    .params = sine_params,
    .nparams = FL_N(sine_params),
    .block = &sine_ops,
};
static const fl_block_ops cosine_ops = {
    .nout = one_output,
    .value = cosine_value,
    .next_event = sine_next,
};
static const fl_class cls_cosine = {
    .path = MBS "Cosine",
    .desc = "Cosine wave from startTime",
    .ports = y_port,
    .nports = FL_N(y_port),
    .params = cosine_params,
    .nparams = FL_N(cosine_params),
    .block = &cosine_ops,
};

enum { EXPS_AMP, EXPS_F, EXPS_PHASE, EXPS_DAMPING, EXPS_OFFSET, EXPS_START };
static const fl_param_def expsine_params[] = {
    {"amplitude", FL_P_REAL, "1", NULL, "", "initial peak value of the decaying sine", 0, 0, 0, NULL},
    {"f", FL_P_REAL, NULL, "2", "Hz", "cycles per second", 0, 0, 0, NULL},
    {"phase", FL_P_REAL, "0", NULL, "rad", "argument of the sine at startTime", 0, 0, 0, NULL},
    {"damping", FL_P_REAL, NULL, "1", "s-1", "decay rate of the envelope exp(-damping*(time - startTime))",
     0, 0, 0, NULL},
    BPAR_OFFSET,
    BPAR_STARTTIME,
};

static double expsine_value(const double *par, const fl_value *arrays, int k, int order, double t, int left)
{
    FL_UNUSED(arrays);
    FL_UNUSED(k);
    double off = par[EXPS_OFFSET], ts = par[EXPS_START];
    if (before(t, ts, left)) return level(off, order);
    double y = wave(par[EXPS_AMP], par[EXPS_DAMPING], 2 * C_PI * par[EXPS_F], par[EXPS_PHASE], t - ts, order, 0);
    return order ? y : off + y;
}

static double expsine_next(const double *par, const fl_value *arrays, double t)
{
    FL_UNUSED(arrays);
    return t < par[EXPS_START] ? par[EXPS_START] : INFINITY;
}

static const fl_block_ops expsine_ops = {
    .nout = one_output,
    .value = expsine_value,
    .next_event = expsine_next,
};
static const fl_class cls_expsine = {
    .path = MBS "ExpSine",
    .desc = "Sine wave with exponentially decaying amplitude",
    .ports = y_port,
    .nports = FL_N(y_port),
    .params = expsine_params,
    .nparams = FL_N(expsine_params),
    .block = &expsine_ops,
};

/* ---- periodic sources (Pulse, Trapezoid) ------------------------------- */

/* Period starts of Pulse and Trapezoid: startTime + k*period. */
typedef struct periodic {
    double ts, period;
} periodic;

static double period_start(const void *ctx, double k)
{
    const periodic *p = ctx;
    return p->ts + k * p->period;
}

/* MSL's count: the number of the period containing t. */
static double period_number(const periodic *p, double t, int left)
{
    return fix_index(floor((t - p->ts) / p->period), t, left, period_start, p);
}

/* Output is offset: before startTime, with nperiod = 0, or after the
 * last of nperiod > 0 periods. Otherwise *m is the current period. */
static int periodic_idle(const periodic *p, double nperiod, double t, int left, double *m)
{
    if (before(t, p->ts, left) || nperiod == 0) return 1;
    *m = period_number(p, t, left);
    return nperiod > 0 && *m >= nperiod;
}

/* Next period start after period m, if nperiod lets one come. */
static double periodic_next_start(const periodic *p, double nperiod, double m)
{
    if (nperiod >= 0 && m + 1 > nperiod) return INFINITY;
    return period_start(p, m + 1);
}

enum { PULSE_AMP, PULSE_WIDTH, PULSE_PERIOD, PULSE_NPERIOD, PULSE_OFFSET, PULSE_START };
static const fl_param_def pulse_params[] = {
    {"amplitude", FL_P_REAL, "1", NULL, "", "output rise during a pulse", 0, 0, 0, NULL},
    {"width", FL_P_REAL, "50", NULL, "%", "share of the period the pulse is high, in percent",
     FL_PF_MIN | FL_PF_MAX, C_SMALL, 100, NULL},
    {"period", FL_P_REAL, NULL, "1", "s", "repetition interval", FL_PF_MIN, C_SMALL, 0, NULL},
    {"nperiod", FL_P_INT, "-1", NULL, "", "how many periods to generate (< 0: no limit)", FL_PF_INTEGER,
     0, 0, NULL},
    BPAR_OFFSET,
    BPAR_STARTTIME,
};

static periodic pulse_timing(const double *par)
{
    periodic p = {par[PULSE_START], par[PULSE_PERIOD]};
    return p;
}

/* End of the pulse of period m (MSL: T_start + T_width). */
static double pulse_end(const double *par, const periodic *p, double m)
{
    return period_start(p, m) + par[PULSE_PERIOD] * par[PULSE_WIDTH] / 100;
}

static double pulse_value(const double *par, const fl_value *arrays, int k, int order, double t, int left)
{
    FL_UNUSED(arrays);
    FL_UNUSED(k);
    periodic p = pulse_timing(par);
    double off = par[PULSE_OFFSET], m = 0;
    if (periodic_idle(&p, par[PULSE_NPERIOD], t, left, &m)) return level(off, order);
    /* width = 100 keeps the output high for the whole period even where
     * rounding puts the pulse end a hair before the next period start */
    if (par[PULSE_WIDTH] >= 100 || before(t, pulse_end(par, &p, m), left))
        return level(off + par[PULSE_AMP], order);
    return level(off, order);
}

static double pulse_next(const double *par, const fl_value *arrays, double t)
{
    FL_UNUSED(arrays);
    periodic p = pulse_timing(par);
    double nper = par[PULSE_NPERIOD];
    if (t < p.ts) return p.ts;
    if (nper == 0) return INFINITY;
    double m = period_number(&p, t, 0);
    if (nper > 0 && m >= nper) return INFINITY;
    double next = periodic_next_start(&p, nper, m);
    if (par[PULSE_WIDTH] < 100) {
        double te = pulse_end(par, &p, m);
        if (te > t && te < period_start(&p, m + 1)) return te;
    }
    return next;
}

static int pulse_check(const fl_pctx *p, fl_diag *d)
{
    int rc = check_positive(p, d, PULSE_PERIOD);
    double w = p->par[PULSE_WIDTH];
    if (!(w > 0 && w <= 100)) {
        char val[40];
        fl_fmt_double(val, sizeof val, w);
        fl_err(d, p->loc, "%s.width = %s is invalid: it is a percentage of the period and must be in (0, 100]",
               p->inst, val);
        rc = -1;
    }
    return rc;
}

static const fl_block_ops pulse_ops = {
    .nout = one_output,
    .value = pulse_value,
    .next_event = pulse_next,
};
static const fl_class cls_pulse = {
    .path = MBS "Pulse",
    .desc = "Periodic rectangular pulses",
    .ports = y_port,
    .nports = FL_N(y_port),
    .params = pulse_params,
    .nparams = FL_N(pulse_params),
    .check = pulse_check,
    .block = &pulse_ops,
};

enum { TRAP_AMP, TRAP_RISING, TRAP_WIDTH, TRAP_FALLING, TRAP_PERIOD, TRAP_NPERIOD, TRAP_OFFSET, TRAP_START };
static const fl_param_def trapezoid_params[] = {
    {"amplitude", FL_P_REAL, "1", NULL, "", "output rise at the top of the trapezoid", 0, 0, 0, NULL},
    {"rising", FL_P_REAL, "0", NULL, "s", "time from offset up to the top", FL_PF_MIN, 0, 0, NULL},
    {"width", FL_P_REAL, "0.5", NULL, "s", "time at the top", FL_PF_MIN, 0, 0, NULL},
    {"falling", FL_P_REAL, "0", NULL, "s", "time from top back to offset", FL_PF_MIN, 0, 0, NULL},
    {"period", FL_P_REAL, NULL, "1", "s", "repetition interval", FL_PF_MIN, C_SMALL, 0, NULL},
    {"nperiod", FL_P_INT, "-1", NULL, "", "how many periods to generate (< 0: no limit)", FL_PF_INTEGER,
     0, 0, NULL},
    BPAR_OFFSET,
    BPAR_STARTTIME,
};

/* Corners of the trapezoid of period m: end of rise, end of top, end of
 * fall, accumulated as MSL's protected T_rising, T_width, T_falling so that
 * a zero rising or falling gives exactly coinciding corners. */
static void trapezoid_corners(const double *par, const periodic *p, double m, double c[3])
{
    double tk = period_start(p, m);
    double t_rising = par[TRAP_RISING];
    double t_width = t_rising + par[TRAP_WIDTH];
    double t_falling = t_width + par[TRAP_FALLING];
    c[0] = tk + t_rising;
    c[1] = tk + t_width;
    c[2] = tk + t_falling;
}

static periodic trapezoid_timing(const double *par)
{
    periodic p = {par[TRAP_START], par[TRAP_PERIOD]};
    return p;
}

static double trapezoid_value(const double *par, const fl_value *arrays, int k, int order, double t, int left)
{
    FL_UNUSED(arrays);
    FL_UNUSED(k);
    periodic p = trapezoid_timing(par);
    double off = par[TRAP_OFFSET], amp = par[TRAP_AMP], m = 0, c[3];
    if (periodic_idle(&p, par[TRAP_NPERIOD], t, left, &m)) return level(off, order);
    trapezoid_corners(par, &p, m, c);
    double tk = period_start(&p, m);
    /* A zero rising (falling) makes its branch unreachable: t has reached
     * the period start, which equals the corner, so no division by zero. */
    if (before(t, c[0], left)) {
        double r = par[TRAP_RISING];
        if (order == 0) return off + amp * (t - tk) / r;
        return order == 1 ? amp / r : 0.0;
    }
    if (before(t, c[1], left)) return level(off + amp, order);
    if (before(t, c[2], left)) {
        double f = par[TRAP_FALLING];
        if (order == 0) return off + amp * (c[2] - t) / f;
        return order == 1 ? -amp / f : 0.0;
    }
    return level(off, order);
}

static double trapezoid_next(const double *par, const fl_value *arrays, double t)
{
    FL_UNUSED(arrays);
    periodic p = trapezoid_timing(par);
    double nper = par[TRAP_NPERIOD], c[3];
    if (t < p.ts) return p.ts;
    if (nper == 0) return INFINITY;
    double m = period_number(&p, t, 0);
    if (nper > 0 && m >= nper) return INFINITY;
    double end = period_start(&p, m + 1);
    trapezoid_corners(par, &p, m, c);
    for (int i = 0; i < 3; i++)
        if (c[i] > t && c[i] < end) return c[i];
    return periodic_next_start(&p, nper, m);
}

static int trapezoid_check(const fl_pctx *p, fl_diag *d)
{
    int rc = check_positive(p, d, TRAP_PERIOD);
    for (int k = TRAP_RISING; k <= TRAP_FALLING; k++) {
        double x = p->par[k];
        if (x >= 0 && isfinite(x)) continue;
        char val[40];
        fl_fmt_double(val, sizeof val, x);
        fl_err(d, p->loc, "%s.%s = %s is invalid: it must be >= 0", p->inst, p->cls->params[k].name, val);
        rc = -1;
    }
    return rc;
}

static const fl_block_ops trapezoid_ops = {
    .nout = one_output,
    .value = trapezoid_value,
    .next_event = trapezoid_next,
};
static const fl_class cls_trapezoid = {
    .path = MBS "Trapezoid",
    .desc = "Periodic trapezoids",
    .ports = y_port,
    .nports = FL_N(y_port),
    .params = trapezoid_params,
    .nparams = FL_N(trapezoid_params),
    .check = trapezoid_check,
    .block = &trapezoid_ops,
};

/* ---- time tables ------------------------------------------------------- */

/* A table seen on the time axis: row i sits at shift + scale*t_i. For
 * periodic extrapolation, `m` selects one repetition; its rows are clamped
 * into [start of period m, start of period m+1] and the first and last
 * table time map exactly onto those period starts, so the end of one
 * period and the start of the next are the same floating-point number. */
typedef struct tgrid {
    const double *d; /* row-major */
    int n, nc;
    double shift, scale;
    int periodic;
    double span, m;
    int combi; /* CombiTimeTable's test of equal times (else TimeTable's) */
} tgrid;

static double tg_t(const tgrid *g, int i)
{
    return g->d[(size_t)i * (size_t)g->nc];
}

static double tg_y(const tgrid *g, int i, int col)
{
    return g->d[(size_t)i * (size_t)g->nc + (size_t)col];
}

static double tg_pstart(const void *ctx, double m)
{
    const tgrid *g = ctx;
    return g->shift + g->scale * (tg_t(g, 0) + m * g->span);
}

static double tg_time(const tgrid *g, int i)
{
    double ti = tg_t(g, i);
    if (!g->periodic) return g->shift + g->scale * ti;
    double lo = tg_pstart(g, g->m), hi = tg_pstart(g, g->m + 1);
    if (ti <= tg_t(g, 0)) return lo;
    if (ti >= tg_t(g, g->n - 1)) return hi;
    double T = g->shift + g->scale * (ti + g->m * g->span);
    return T < lo ? lo : T > hi ? hi : T;
}

static void tg_set_period(tgrid *g, double t, int left)
{
    double tau = (t - g->shift) / g->scale;
    g->m = fix_index(floor((tau - tg_t(g, 0)) / g->span), t, left, tg_pstart, g);
}

/* Number of rows whose time t has reached. */
static int tg_count(const tgrid *g, double t, int left)
{
    int lo = 0, hi = g->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (reached(t, tg_time(g, mid), left)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Table times a <= b this close count as one instant: TimeTable's test
 * (b - a <= 100 eps |b|) or CombiTimeTable's (relative 1e-10), as the MSL
 * blocks have them. */
static int same_time(const tgrid *g, double a, double b)
{
    if (!g->combi) return b - a <= 100 * C_EPS * fabs(b);
    double m = fmax(fmax(fabs(a), fabs(b)), 1e-10);
    return fabs(b - a) < 1e-10 * m;
}

/* Straight line through rows a and b in column col. Where both rows share
 * a time the line is vertical; the value of row `jump` is used instead. */
static double tg_line(const tgrid *g, int a, int b, int col, double t, int order, int jump)
{
    double ya = tg_y(g, a, col), yb = tg_y(g, b, col);
    double Ta = tg_time(g, a), Tb = tg_time(g, b);
    if (same_time(g, tg_t(g, a), tg_t(g, b)) || !(Tb > Ta)) return level(tg_y(g, jump, col), order);
    if (order == 1) return (yb - ya) / (Tb - Ta);
    if (order > 1) return 0.0;
    double f = (t - Ta) / (Tb - Ta);
    /* exact row values at f = 0 and f = 1 */
    return (1 - f) * ya + f * yb;
}

/* Validation shared by TimeTable and CombiTimeTable. */
static int check_table(const fl_pctx *p, fl_diag *d, const fl_value *tab, int min_cols)
{
    if (tab->ndims != 2) {
        fl_err(d, p->loc, "%s.table: must be a matrix (rows of time and values)", p->inst);
        return -1;
    }
    int n = tab->dim[0], nc = tab->dim[1];
    if (n == 0 || nc == 0) {
        fl_err(d, p->loc, "%s.table: table is empty (it needs at least one row)", p->inst);
        return -1;
    }
    if (nc < min_cols) {
        fl_err(d, p->loc, "%s.table: has %d column%s, needs at least %d (time, then values)", p->inst, nc,
               nc == 1 ? "" : "s", min_cols);
        return -1;
    }
    for (int i = 0; i < n; i++)
        for (int c = 0; c < nc; c++)
            if (!isfinite(tab->data[(size_t)i * (size_t)nc + (size_t)c])) {
                fl_err(d, p->loc, "%s.table: element [%d, %d] is not a finite number", p->inst, i + 1, c + 1);
                return -1;
            }
    for (int i = 1; i < n; i++) {
        double t0 = tab->data[(size_t)(i - 1) * (size_t)nc], t1 = tab->data[(size_t)i * (size_t)nc];
        int triple = i >= 2 && t1 == t0 && tab->data[(size_t)(i - 2) * (size_t)nc] == t1;
        if (!(t1 < t0) && !triple) continue;
        char v0[40], v1[40];
        fl_fmt_double(v0, sizeof v0, t0);
        fl_fmt_double(v1, sizeof v1, t1);
        if (t1 < t0)
            fl_err(d, p->loc,
                   "%s.table: time values must be non-decreasing: row %d (t = %s) is less than row %d (t = %s)",
                   p->inst, i + 1, v1, i, v0);
        else
            fl_err(d, p->loc, "%s.table: rows %d to %d all have time %s; at most two rows may share a time (a jump)",
                   p->inst, i - 1, i + 1, v1);
        return -1;
    }
    return 0;
}

/* ---- TimeTable --------------------------------------------------------- */

enum { TT_TABLE, TT_TIMESCALE, TT_OFFSET, TT_START, TT_SHIFT };
static const fl_param_def timetable_params[] = {
    {"table", FL_P_MATRIX, "fill(0.0, 0, 2)", NULL, "",
     "rows of (time, value); time 0 first when there is more than one row", 0, 0, 0, NULL},
    {"timeScale", FL_P_REAL, "1", NULL, "s", "seconds per unit of the table's time column", FL_PF_MIN, C_EPS, 0, NULL},
    BPAR_OFFSET,
    BPAR_STARTTIME,
    {"shiftTime", FL_P_REAL, "startTime", NULL, "s", "time at which table time 0 is reached", 0, 0, 0, NULL},
};

static tgrid timetable_grid(const double *par, const fl_value *arrays)
{
    const fl_value *tab = par_array(par, arrays, TT_TABLE);
    tgrid g = {tab->data, tab->dim[0], tab->dim[1], par[TT_SHIFT], par[TT_TIMESCALE], 0, 0, 0, 0};
    return g;
}

static double timetable_value(const double *par, const fl_value *arrays, int k, int order, double t, int left)
{
    FL_UNUSED(k);
    double off = par[TT_OFFSET];
    if (before(t, par[TT_START], left)) return level(off, order);
    tgrid g = timetable_grid(par, arrays);
    if (g.n < 2) return level(off + (g.n ? tg_y(&g, 0, 1) : 0.0), order);
    /* The MSL block always interpolates in an interval of two rows: before
     * the first row it extends the first interval, after the last row the
     * last one, and at a shared time it takes the later row. */
    int j = tg_count(&g, t, left);
    if (j < 1) j = 1;
    if (j > g.n - 1) j = g.n - 1;
    double y = tg_line(&g, j - 1, j, 1, t, order, j);
    return order ? y : off + y;
}

static double timetable_next(const double *par, const fl_value *arrays, double t)
{
    if (t < par[TT_START]) return par[TT_START];
    tgrid g = timetable_grid(par, arrays);
    if (g.n < 2) return INFINITY;
    int j = tg_count(&g, t, 0);
    return j < g.n ? tg_time(&g, j) : INFINITY;
}

static int timetable_check(const fl_pctx *p, fl_diag *d)
{
    const fl_value *tab = par_array(p->par, p->arrays, TT_TABLE);
    int rc = check_positive(p, d, TT_TIMESCALE);
    if (check_table(p, d, tab, 2)) return -1;
    if (tab->dim[1] != 2) {
        fl_err(d, p->loc, "%s.table: must have exactly 2 columns (time, value), not %d", p->inst, tab->dim[1]);
        return -1;
    }
    if (tab->dim[0] > 1 && tab->data[0] != 0) {
        char v[40];
        fl_fmt_double(v, sizeof v, tab->data[0]);
        fl_err(d, p->loc, "%s.table: the first time value must be 0 when the table has more than one row, not %s",
               p->inst, v);
        return -1;
    }
    return rc;
}

static const fl_block_ops timetable_ops = {
    .nout = one_output,
    .value = timetable_value,
    .next_event = timetable_next,
};
static const fl_class cls_timetable = {
    .path = MBS "TimeTable",
    .desc = "Piecewise-linear signal from a (time, value) table",
    .ports = y_port,
    .nports = FL_N(y_port),
    .params = timetable_params,
    .nparams = FL_N(timetable_params),
    .check = timetable_check,
    .block = &timetable_ops,
};

/* ---- CombiTimeTable ---------------------------------------------------- */

/* NoExtrapolation is an error in the MSL at run time; here it holds the end
 * values (like HoldLastPoint) so that the output stays a number. */
enum {
    CT_ONFILE, CT_TABLE, CT_TABLENAME, CT_FILENAME, CT_DELIM, CT_HEADER, CT_VERBOSEREAD, CT_COLUMNS,
    CT_SMOOTH, CT_EXTRAP, CT_TIMESCALE, CT_OFFSET, CT_START, CT_SHIFT, CT_TIMEEVENTS, CT_VERBOSEEXTRAP
};
static const fl_param_def combi_params[] = {
    {"tableOnFile", FL_P_BOOL, "false", NULL, "", "true: the table comes from fileName", FL_PF_STRUCT, 0, 0, NULL},
    {"table", FL_P_MATRIX, "fill(0.0, 0, 2)", NULL, "", "rows of (time, value1, value2, ...)", 0, 0, 0, NULL},
    {"tableName", FL_P_STRING, "\"NoName\"", NULL, "", "name of the table in a text file", 0, 0, 0, NULL},
    {"fileName", FL_P_STRING, "\"NoName\"", NULL, "",
     "file of the table (MSL text format, or CSV by its extension), relative to the model file", 0, 0, 0, NULL},
    {"delimiter", FL_P_STRING, "\",\"", NULL, "", "column separator of a CSV file", 0, 0, 0, NULL},
    {"nHeaderLines", FL_P_INT, "0", NULL, "", "lines skipped at the top of a CSV file", FL_PF_INTEGER, 0, 0, NULL},
    {"verboseRead", FL_P_BOOL, "true", NULL, "", "report reading the file (accepted, no message)", 0, 0, 0, NULL},
    {"columns", FL_P_VECTOR, "2:size(table, 2)", NULL, "", "table column of each output (column 1 is time)", 0, 0, 0,
     NULL},
    {"smoothness", FL_P_ENUM, SMOOTHNESS ".LinearSegments", NULL, "",
     "interpolation between rows: linear, constant, or a spline (Akima, Fritsch-Butland, Steffen, modified Akima)",
     0, 0, 0, SMOOTHNESS},
    {"extrapolation", FL_P_ENUM, EXTRAPOLATION ".LastTwoPoints", NULL, "",
     "output outside the table's time range (NoExtrapolation holds the end values)", 0, 0, 0, EXTRAPOLATION},
    {"timeScale", FL_P_REAL, "1", NULL, "s", "seconds per unit of the table's time column", FL_PF_MIN, C_EPS, 0, NULL},
    {"offset", FL_P_VECTOR, "{0}", NULL, "", "value added to each output (a single value is used for all)", 0, 0, 0,
     NULL},
    BPAR_STARTTIME,
    {"shiftTime", FL_P_REAL, "startTime", NULL, "s", "time at which table time 0 is reached", 0, 0, 0, NULL},
    {"timeEvents", FL_P_ENUM, TIMEEVENTS ".Always", NULL, "",
     "which table times are time events (LinearSegments; ConstantSegments: always, splines: none)", 0, 0, 0,
     TIMEEVENTS},
    {"verboseExtrapolation", FL_P_BOOL, "false", NULL, "", "warn when extrapolating (accepted, no effect)", 0, 0, 0,
     NULL},
};

static int combi_nout(const double *par, const fl_value *arrays)
{
    int nc = (int)fl_value_count(par_array(par, arrays, CT_COLUMNS));
    int no = (int)fl_value_count(par_array(par, arrays, CT_OFFSET));
    return nc > no ? nc : no;
}

static tgrid combi_grid(const double *par, const fl_value *arrays)
{
    const fl_value *tab = par_array(par, arrays, CT_TABLE);
    tgrid g = {tab->data, tab->dim[0], tab->dim[1], par[CT_SHIFT], par[CT_TIMESCALE], 0, 0, 0, 1};
    if ((int)par[CT_EXTRAP] == FL_EX_PERIODIC && g.n > 1) {
        g.periodic = 1;
        g.span = tg_t(&g, g.n - 1) - tg_t(&g, 0);
    }
    return g;
}

/* The interpolation method the table uses (splines need three rows). */
static int combi_method(const double *par, const fl_value *arrays)
{
    return fl_tab_method((int)par[CT_SMOOTH], par_array(par, arrays, CT_TABLE)->dim[0]);
}

static fl_tcol combi_col(const tgrid *g, int col, int smooth)
{
    fl_tcol c = {g->d, g->n, g->nc, col, smooth};
    return c;
}

/* The spline of rows a, a+1 at time t: table time runs linearly from row
 * a's to row a+1's between their instants (exact at both, also across a
 * periodic seam), and each derivative takes the factor of that map. */
static double tg_spline(const tgrid *g, const fl_tcol *c, int a, double t, int order)
{
    double Ta = tg_time(g, a), Tb = tg_time(g, a + 1);
    double ta = tg_t(g, a), tb = tg_t(g, a + 1);
    double q = Tb > Ta ? (tb - ta) / (Tb - Ta) : 1 / g->scale;
    double tau = t <= Ta ? ta : t >= Tb ? tb : ta + (t - Ta) * q;
    double y = fl_tab_spline(c, a, tau, order);
    for (int k = 0; k < order; k++) y *= q;
    return y;
}

/* Outside the table range (side < 0: before the first row). */
static double combi_extrapolate(const tgrid *g, const fl_tcol *c, int extrap, int side, double t, int order)
{
    int outer = side < 0 ? 0 : g->n - 1;
    if (extrap != FL_EX_LASTTWO) return level(tg_y(g, outer, c->col), order);
    if (fl_tab_is_spline(c->smooth)) {
        double y = fl_tab_extend(c, side, (t - g->shift) / g->scale, order);
        return order == 1 ? y / g->scale : y;
    }
    /* the MSL extends the end interval for ConstantSegments as well */
    int a = side < 0 ? 0 : g->n - 2;
    return tg_line(g, a, a + 1, c->col, t, order, outer);
}

static double combi_value(const double *par, const fl_value *arrays, int k, int order, double t, int left)
{
    const fl_value *cols = par_array(par, arrays, CT_COLUMNS), *offs = par_array(par, arrays, CT_OFFSET);
    size_t ncols = fl_value_count(cols), noffs = fl_value_count(offs);
    if (k < 0 || (size_t)k >= ncols || noffs == 0) return 0.0;
    double off = noffs == 1 ? offs->data[0] : offs->data[k];
    if (before(t, par[CT_START], left)) return level(off, order);
    tgrid g = combi_grid(par, arrays);
    int sm = combi_method(par, arrays);
    fl_tcol c = combi_col(&g, (int)cols->data[k] - 1, sm);
    double y;
    if (g.n == 1) {
        y = level(tg_y(&g, 0, c.col), order);
    } else {
        if (g.periodic) tg_set_period(&g, t, left);
        int j = tg_count(&g, t, left);
        if (g.periodic) j = j < 1 ? 1 : j > g.n - 1 ? g.n - 1 : j;
        if (j == 0) y = combi_extrapolate(&g, &c, (int)par[CT_EXTRAP], -1, t, order);
        else if (j == g.n) y = combi_extrapolate(&g, &c, (int)par[CT_EXTRAP], 1, t, order);
        else if (sm == FL_SM_CONSTANT) y = level(tg_y(&g, j - 1, c.col), order);
        else if (fl_tab_is_spline(sm)) y = tg_spline(&g, &c, j - 1, t, order);
        else y = tg_line(&g, j - 1, j, c.col, t, order, j);
    }
    return order ? y : off + y;
}

/* Does row i produce a time event under timeEvents = AtDiscontinuities? */
static int combi_discontinuous(const tgrid *g, int i)
{
    return (i > 0 && same_time(g, tg_t(g, i - 1), tg_t(g, i))) ||
           (i + 1 < g->n && same_time(g, tg_t(g, i), tg_t(g, i + 1)));
}

/* The time events of the table's rows: as timeEvents says for
 * LinearSegments, at every row for ConstantSegments, none for the
 * splines (their first derivative is continuous), as in the MSL. */
static int combi_time_events(const double *par, int smooth)
{
    if (smooth == FL_SM_CONSTANT) return TE_ALWAYS;
    if (fl_tab_is_spline(smooth)) return TE_NONE;
    return (int)par[CT_TIMEEVENTS];
}

static double combi_next(const double *par, const fl_value *arrays, double t)
{
    if (t < par[CT_START]) return par[CT_START];
    int te = combi_time_events(par, combi_method(par, arrays));
    tgrid g = combi_grid(par, arrays);
    if (te == TE_NONE || g.n < 2) return INFINITY;
    if (g.periodic) tg_set_period(&g, t, 0);
    int last = g.periodic ? g.n - 1 : g.n; /* the last row of a period is the next period's start */
    for (int i = tg_count(&g, t, 0); i < last; i++) {
        if (te == TE_DISCONT && !combi_discontinuous(&g, i)) continue;
        double T = tg_time(&g, i);
        if (T > t) return T;
    }
    return g.periodic ? tg_pstart(&g, g.m + 1) : INFINITY;
}

/* tableOnFile = true: the table read from the file replaces `table`
 * before anything else sees it (the columns default to the empty table's,
 * as in the MSL). */
static int combi_load(const char *inst, const fl_loc *locs, const char *base, fl_value *vals, fl_diag *d)
{
    if (vals[CT_ONFILE].num == 0) return 0;
    fl_value tab;
    fl_loc at = locs[CT_FILENAME];
    if (fl_table_load(inst, vals[CT_FILENAME].str, vals[CT_TABLENAME].str, vals[CT_DELIM].str,
                      fl_table_count(vals[CT_HEADER].num), base, at, &tab, d))
        return -1;
    fl_value_free(&vals[CT_TABLE]);
    vals[CT_TABLE] = tab;
    return 0;
}

/* Splines need strictly increasing times (no jumps). */
static int check_increasing(const fl_pctx *p, fl_diag *d, const fl_value *tab, int smooth)
{
    int nc = tab->dim[1];
    for (int i = 1; i < tab->dim[0]; i++) {
        double t0 = tab->data[(size_t)(i - 1) * (size_t)nc], t1 = tab->data[(size_t)i * (size_t)nc];
        if (t1 > t0) continue;
        const fl_enum_type *et = fl_enum_find(SMOOTHNESS);
        char v[40];
        fl_fmt_double(v, sizeof v, t1);
        fl_err(d, p->loc, "%s.table: time values must be strictly increasing for smoothness = %s: rows %d and %d both "
                          "have t = %s",
               p->inst, et && smooth >= 1 && smooth <= et->n ? et->lits[smooth - 1] : "?", i, i + 1, v);
        return -1;
    }
    return 0;
}

static int combi_check(const fl_pctx *p, fl_diag *d)
{
    const fl_value *tab = par_array(p->par, p->arrays, CT_TABLE);
    const fl_value *cols = par_array(p->par, p->arrays, CT_COLUMNS);
    const fl_value *offs = par_array(p->par, p->arrays, CT_OFFSET);
    int rc = check_positive(p, d, CT_TIMESCALE);
    if (check_table(p, d, tab, 1)) return -1;
    int n = tab->dim[0], nc = tab->dim[1];
    if (fl_tab_is_spline(fl_tab_method((int)p->par[CT_SMOOTH], n)) &&
        check_increasing(p, d, tab, (int)p->par[CT_SMOOTH]))
        return -1;
    size_t ncols = fl_value_count(cols), noffs = fl_value_count(offs);
    if (ncols == 0) {
        fl_err(d, p->loc, "%s.columns: is empty, so there is no output (the table has %d column%s)", p->inst, nc,
               nc == 1 ? "" : "s");
        return -1;
    }
    for (size_t i = 0; i < ncols; i++) {
        double c = cols->data[i];
        if (c != floor(c) || c < 1 || c > nc) {
            char v[40];
            fl_fmt_double(v, sizeof v, c);
            fl_err(d, p->loc, "%s.columns[%zu] = %s is out of range: it must be a column number from 1 to %d", p->inst,
                   i + 1, v, nc);
            rc = -1;
        }
    }
    if (noffs != 1 && noffs != ncols) {
        fl_err(d, p->loc, "%s.offset: has %zu elements; it needs 1 (for all outputs) or %zu (one per column)", p->inst,
               noffs, ncols);
        rc = -1;
    }
    if ((int)p->par[CT_EXTRAP] == FL_EX_PERIODIC && n > 1 &&
        !(tab->data[(size_t)(n - 1) * (size_t)nc] > tab->data[0])) {
        fl_err(d, p->loc, "%s.table: Periodic extrapolation needs a time range of positive length", p->inst);
        rc = -1;
    }
    return rc;
}

static const fl_block_ops combi_ops = {
    .nout = combi_nout,
    .value = combi_value,
    .next_event = combi_next,
};
static const fl_class cls_combitimetable = {
    .path = MBS "CombiTimeTable",
    .desc = "Signals from the columns of a time table (from the model or a file), all smoothness and extrapolation "
            "options",
    .ports = y_vec_port,
    .nports = FL_N(y_vec_port),
    .params = combi_params,
    .nparams = FL_N(combi_params),
    .check = combi_check,
    .block = &combi_ops,
    .load = combi_load,
};

const fl_class *const fl_classes_blocks[] = {
    &cls_constant, &cls_step,   &cls_ramp,      &cls_sine,      &cls_cosine,         &cls_expsine,
    &cls_pulse,    &cls_trapezoid, &cls_timetable, &cls_combitimetable, NULL,
};
