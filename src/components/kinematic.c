/* kinematic.c - Modelica.Blocks.Sources.KinematicPTP and KinematicPTP2:
 * point-to-point motion as fast as the velocity and acceleration limits
 * allow, as signal sources (stateless functions of time, like blocks.c).
 *
 * Why C and not equations: the profile is a closed form in time, and these
 * sources drive prescribed motions (Position from q, Accelerate from the
 * acceleration), which need the exact first and second derivatives that a
 * block's value() gives; breakpoints are time events.
 *
 * The MSL's construction: every axis i moves p_deltaq[i]*s(t) with one
 * common path s from 0 to 1. With sd_max = 1/max|deltaq/qd_max| and
 * sdd_max = 1/max|deltaq/qdd_max|, the path accelerates with sdd_max for
 * Ta2 = sd_max/sdd_max, cruises at sd_max until Tv = 1/sd_max, and brakes
 * until Te = Tv + Ta2; when the cruise speed is never reached (Ta2 >= Ta1 =
 * sqrt(1/sdd_max), "noWphase") it accelerates for Ta1 and brakes until
 * Te = 2 Ta1. All times count from startTime. */
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "common.h"

#define MBS "Modelica.Blocks.Sources."

/* Modelica's `time < T`, or its left limit at the event instant T. */
static int before(double t, double T, int left)
{
    return left ? t <= T : t < T;
}

/* Vector parameters of size 1 apply to every axis (the MSL's p_deltaq...). */
static double axis_value(const fl_value *v, int i)
{
    size_t n = fl_value_count(v);
    return n == 0 ? 0 : n == 1 ? v->data[0] : v->data[i];
}

static int max_count(const double *par, const fl_value *arrays, const int *k, int nk)
{
    int n = 0;
    for (int j = 0; j < nk; j++) {
        int c = (int)fl_value_count(&arrays[(int)par[k[j]]]);
        if (c > n) n = c;
    }
    return n;
}

/* The path of both blocks, from the distances and the limits. */
typedef struct path {
    int moves;           /* 0: the distances are zero (no motion) */
    int now;             /* noWphase */
    double sd, sdd;      /* sd_max, sdd_max */
    double ta, tv, te;   /* end of acceleration, of cruising, of braking (from startTime) */
} path;

static path make_path(int n, const fl_value *dq, const fl_value *dq2, const fl_value *qd, const fl_value *qdd,
                      double eps)
{
    path p = {0, 0, 0, 0, 0, 0, 0};
    double a1 = 0, a2 = 0;
    for (int i = 0; i < n; i++) {
        double d = axis_value(dq, i) - (dq2 ? axis_value(dq2, i) : 0);
        double x1 = fabs(d / axis_value(qd, i)), x2 = fabs(d / axis_value(qdd, i));
        if (x1 > a1) a1 = x1;
        if (x2 > a2) a2 = x2;
    }
    if (a1 <= eps || a2 <= eps) return p;
    p.moves = 1;
    p.sd = 1 / a1;
    p.sdd = 1 / a2;
    double ta1 = sqrt(1 / p.sdd), ta2 = p.sd / p.sdd;
    p.now = ta2 >= ta1;
    p.ta = p.now ? ta1 : ta2;
    p.tv = p.now ? ta1 : 1 / p.sd;
    p.te = p.now ? ta1 + ta1 : p.tv + ta2;
    return p;
}

/* The breakpoints of the path after t (absolute times), INFINITY after
 * the last. */
static double path_next(const path *p, double ts, double t)
{
    if (t < ts) return ts;
    if (!p->moves) return INFINITY;
    double T[3] = {p->ta + ts, p->tv + ts, p->te + ts};
    for (int i = 0; i < 3; i++)
        if (T[i] > t) return T[i];
    return INFINITY;
}

/* The path s(t) (order 0) or its derivatives (1, 2) at t, as the MSL
 * writes s piece by piece. */
static double path_s(const path *p, double ts, double t, int order, int left)
{
    if (!p->moves || before(t, ts, left)) return 0;
    double sdd = p->sdd;
    if (p->now) {
        double ta1s = p->ta + ts, tes = p->te + ts, sd2 = sdd * p->ta;
        if (before(t, ta1s, left)) {
            double u = t - ts;
            return order == 0 ? sdd / 2 * u * u : order == 1 ? sdd * u : order == 2 ? sdd : 0;
        }
        double s1 = sdd * p->ta * p->ta / 2;
        if (before(t, tes, left)) {
            double u = t - ta1s;
            return order == 0 ? s1 + sd2 * u - sdd / 2 * u * u : order == 1 ? sd2 - sdd * u : order == 2 ? -sdd : 0;
        }
        double de = p->te - p->ta;
        return order ? 0 : s1 + sd2 * de - sdd / 2 * de * de;
    }
    double ta2s = p->ta + ts, tvs = p->tv + ts, tes = p->te + ts, sd = p->sd;
    double s1 = sdd * p->ta * p->ta / 2, s2 = s1 + sd * (p->tv - p->ta);
    if (before(t, ta2s, left)) {
        double u = t - ts;
        return order == 0 ? sdd / 2 * u * u : order == 1 ? sdd * u : order == 2 ? sdd : 0;
    }
    if (before(t, tvs, left)) {
        double u = t - ta2s;
        return order == 0 ? s1 + sd * u : order == 1 ? sd : 0;
    }
    if (before(t, tes, left)) {
        double u = t - tvs;
        return order == 0 ? s2 + sd * u - sdd / 2 * u * u : order == 1 ? sd - sdd * u : order == 2 ? -sdd : 0;
    }
    double de = p->te - p->tv;
    return order ? 0 : s2 + sd * de - sdd / 2 * de * de;
}

/* Each vector parameter k[j] has 1 or n elements, finite; the limits
 * (positive[j]) are > 0 (Modelica.Constants.small, the MSL's min). */
static int check_sizes(const fl_pctx *p, fl_diag *d, const int *k, const int *positive, int nk, int n)
{
    int rc = 0;
    for (int j = 0; j < nk; j++) {
        const fl_value *v = &p->arrays[(int)p->par[k[j]]];
        int c = (int)fl_value_count(v);
        const char *name = p->cls->params[k[j]].name;
        if (c != 1 && c != n) {
            fl_err(d, p->loc, "%s.%s: has %d elements; it needs 1 (for every axis) or %d (one per axis)", p->inst, name,
                   c, n);
            rc = -1;
        }
        for (int i = 0; i < c; i++) {
            double x = v->data[i];
            if (isfinite(x) && (!positive[j] || x >= DBL_MIN)) continue;
            char val[40];
            fl_fmt_double(val, sizeof val, x);
            fl_err(d, p->loc, "%s.%s[%d] = %s is invalid: it must be %s", p->inst, name, i + 1, val,
                   isfinite(x) ? "> 0" : "a finite number");
            rc = -1;
        }
    }
    return rc;
}

/* ---- KinematicPTP ------------------------------------------------------ */

enum { PTP_DELTAQ, PTP_QD, PTP_QDD, PTP_START };
static const fl_param_def ptp_params[] = {
    {"deltaq", FL_P_VECTOR, "{1}", NULL, "", "distance to move (one per axis, or one for all)", 0, 0, 0, NULL},
    {"qd_max", FL_P_VECTOR, "{1}", NULL, "", "largest speed der(q) of each axis (> 0)", 0, 0, 0, NULL},
    {"qdd_max", FL_P_VECTOR, "{1}", NULL, "", "largest acceleration der(qd) of each axis (> 0)", 0, 0, 0, NULL},
    {"startTime", FL_P_REAL, "0", NULL, "s", "time at which the motion starts", 0, 0, 0, NULL},
};
static const int ptp_vectors[] = {PTP_DELTAQ, PTP_QD, PTP_QDD};
static const fl_port_def ptp_ports[] = {{"y", FL_PORT_OUTPUT, NULL, -1, "", "acceleration of each axis", 0}};

static int ptp_nout(const double *par, const fl_value *arrays)
{
    return max_count(par, arrays, ptp_vectors, 3);
}

static path ptp_path(const double *par, const fl_value *arrays)
{
    int n = ptp_nout(par, arrays);
    return make_path(n, &arrays[(int)par[PTP_DELTAQ]], NULL, &arrays[(int)par[PTP_QD]], &arrays[(int)par[PTP_QDD]], 0);
}

static double ptp_value(const double *par, const fl_value *arrays, int k, int order, double t, int left)
{
    path p = ptp_path(par, arrays);
    /* y = deltaq * sdd: piecewise constant */
    if (order) return 0;
    return axis_value(&arrays[(int)par[PTP_DELTAQ]], k) * path_s(&p, par[PTP_START], t, 2, left);
}

static double ptp_next(const double *par, const fl_value *arrays, double t)
{
    path p = ptp_path(par, arrays);
    return path_next(&p, par[PTP_START], t);
}

static int ptp_check(const fl_pctx *p, fl_diag *d)
{
    static const int positive[] = {0, 1, 1};
    return check_sizes(p, d, ptp_vectors, positive, 3, ptp_nout(p->par, p->arrays));
}

static const fl_block_ops ptp_ops = {
    .nout = ptp_nout,
    .value = ptp_value,
    .next_event = ptp_next,
};
static const fl_class cls_ptp = {
    .path = MBS "KinematicPTP",
    .desc = "Acceleration of the fastest point-to-point motion under speed and acceleration limits",
    .ports = ptp_ports,
    .nports = FL_N(ptp_ports),
    .params = ptp_params,
    .nparams = FL_N(ptp_params),
    .check = ptp_check,
    .block = &ptp_ops,
};

/* ---- KinematicPTP2 ----------------------------------------------------- */

/* eps of the MSL block: distances below it do not move */
#define PTP2_EPS (10 * DBL_EPSILON)

enum { PTP2_QBEGIN, PTP2_QEND, PTP2_QD, PTP2_QDD, PTP2_START };
static const fl_param_def ptp2_params[] = {
    {"q_begin", FL_P_VECTOR, "{0}", NULL, "", "start position (one per axis, or one for all)", 0, 0, 0, NULL},
    {"q_end", FL_P_VECTOR, "{1}", NULL, "", "end position (one per axis, or one for all)", 0, 0, 0, NULL},
    {"qd_max", FL_P_VECTOR, "{1}", NULL, "", "largest speed der(q) of each axis (> 0)", 0, 0, 0, NULL},
    {"qdd_max", FL_P_VECTOR, "{1}", NULL, "", "largest acceleration der(qd) of each axis (> 0)", 0, 0, 0, NULL},
    {"startTime", FL_P_REAL, "0", NULL, "s", "time at which the motion starts", 0, 0, 0, NULL},
};
static const int ptp2_vectors[] = {PTP2_QBEGIN, PTP2_QEND, PTP2_QD, PTP2_QDD};
enum { OUT_Q, OUT_QD, OUT_QDD, OUT_MOVING };
static const fl_port_def ptp2_ports[] = {
    {"q", FL_PORT_OUTPUT, NULL, -1, "", "reference position", 0},
    {"qd", FL_PORT_OUTPUT, NULL, -1, "", "reference speed der(q)", 0},
    {"qdd", FL_PORT_OUTPUT, NULL, -1, "", "reference acceleration der(qd)", 0},
    {"moving", FL_PORT_OUTPUT, NULL, -1, "", "true (1) while the axis has not reached its end position", 0},
};
static const fl_var_def ptp2_vars[] = {
    {"endTime", "s", "time at which the motion ends", 0, 0, 0},
};

static int ptp2_nout(const double *par, const fl_value *arrays)
{
    return max_count(par, arrays, ptp2_vectors, 4);
}

static path ptp2_path(const double *par, const fl_value *arrays)
{
    int n = ptp2_nout(par, arrays);
    return make_path(n, &arrays[(int)par[PTP2_QEND]], &arrays[(int)par[PTP2_QBEGIN]], &arrays[(int)par[PTP2_QD]],
                     &arrays[(int)par[PTP2_QDD]], PTP2_EPS);
}

/* endTime: the end of braking (0 without motion, as the MSL sets it). */
static double ptp2_end(const path *p, double ts)
{
    return p->moves ? p->te + ts : 0;
}

static double ptp2_value(const double *par, const fl_value *arrays, int k, int order, double t, int left)
{
    int n = ptp2_nout(par, arrays);
    if (n < 1) return 0;
    int port = k / n, i = k % n;
    path p = ptp2_path(par, arrays);
    double ts = par[PTP2_START];
    double qb = axis_value(&arrays[(int)par[PTP2_QBEGIN]], i), qe = axis_value(&arrays[(int)par[PTP2_QEND]], i);
    double dq = qe - qb;
    switch (port) {
    case OUT_Q: return order ? dq * path_s(&p, ts, t, order, left) : qb + dq * path_s(&p, ts, t, 0, left);
    case OUT_QD: return dq * path_s(&p, ts, t, order + 1, left);
    case OUT_QDD: return order ? 0 : dq * path_s(&p, ts, t, 2, left);
    default: /* moving = time < endTime for an axis that has somewhere to go */
        if (order || !(fabs(qb - qe) > PTP2_EPS)) return 0;
        return before(t, ptp2_end(&p, ts), left) ? 1 : 0;
    }
}

static double ptp2_next(const double *par, const fl_value *arrays, double t)
{
    path p = ptp2_path(par, arrays);
    double next = path_next(&p, par[PTP2_START], t), end = ptp2_end(&p, par[PTP2_START]);
    return end > t && end < next ? end : next; /* moving switches at endTime */
}

static int ptp2_check(const fl_pctx *p, fl_diag *d)
{
    static const int positive[] = {0, 0, 1, 1};
    return check_sizes(p, d, ptp2_vectors, positive, 4, ptp2_nout(p->par, p->arrays));
}

static void ptp2_outputs(const fl_octx *o, double *vals)
{
    path p = ptp2_path(o->par, o->arrays);
    vals[0] = ptp2_end(&p, o->par[PTP2_START]);
}

static const fl_block_ops ptp2_ops = {
    .nout = ptp2_nout,
    .value = ptp2_value,
    .next_event = ptp2_next,
};
static const fl_class cls_ptp2 = {
    .path = MBS "KinematicPTP2",
    .desc = "Position, speed and acceleration of the fastest point-to-point motion under speed and acceleration "
            "limits",
    .ports = ptp2_ports,
    .nports = FL_N(ptp2_ports),
    .params = ptp2_params,
    .nparams = FL_N(ptp2_params),
    .vars = ptp2_vars,
    .nvars = FL_N(ptp2_vars),
    .check = ptp2_check,
    .block = &ptp2_ops,
    .outputs = ptp2_outputs,
};

const fl_class *const fl_classes_kinematic[] = {&cls_ptp, &cls_ptp2, NULL};
