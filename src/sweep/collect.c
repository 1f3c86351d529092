/* collect.c - the quantities a study keeps of each run, computed on the fly
 * from the output points so that no trajectory is stored unless asked for
 * (--save): final(v), max(v), min(v), mean(v) (the time average, trapezoid
 * rule over the output points), at(v, t) (linear between the output points
 * around t; at an event time the value after the event), each of v or of
 * abs(v), and count_events. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"
#include "util/diag.h"
#include "util/util.h"

static const char *skip(const char *p)
{
    while (isspace((unsigned char)*p)) p++;
    return p;
}

/* a variable name: letters, digits, '_', '.', '[', ']' and ',' inside brackets */
static const char *name_end(const char *p)
{
    int depth = 0;
    while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '[' || (*p == ']' && depth) ||
                  (*p == ',' && depth))) {
        if (*p == '[') depth++;
        if (*p == ']') depth--;
        p++;
    }
    return p;
}

static int bad(const char *text, fl_diag *d)
{
    fl_err(d, fl_noloc, "--collect '%s': write final(v), max(v), min(v), mean(v), at(v, t) (of a variable v or "
           "abs(v)), count_events or status", text);
    return -1;
}

int sw_parse_collect(const char *text, sw_collect *c, fl_diag *d)
{
    memset(c, 0, sizeof *c);
    const char *p = skip(text);
    const char *e = text + strlen(text);
    while (e > p && isspace((unsigned char)e[-1])) e--;
    c->text = fl_xstrndup(p, (size_t)(e - p));
    if (strcmp(c->text, "count_events") == 0) {
        c->agg = SW_EVENTS;
        return 0;
    }
    static const struct { const char *name; sw_agg agg; } aggs[] = {
        {"final", SW_FINAL}, {"max", SW_MAX}, {"min", SW_MIN}, {"mean", SW_MEAN}, {"at", SW_AT}};
    size_t i, n = 0;
    for (i = 0; i < sizeof aggs / sizeof *aggs; i++) {
        n = strlen(aggs[i].name);
        if (strncmp(p, aggs[i].name, n) == 0 && *skip(p + n) == '(') break;
    }
    if (i == sizeof aggs / sizeof *aggs) return bad(c->text, d);
    c->agg = aggs[i].agg;
    p = skip(skip(p + n) + 1);
    if (strncmp(p, "abs", 3) == 0 && *skip(p + 3) == '(') {
        c->absval = 1;
        p = skip(skip(p + 3) + 1);
    }
    const char *ne = name_end(p);
    if (ne == p) return bad(c->text, d);
    c->var = fl_xstrndup(p, (size_t)(ne - p));
    p = skip(ne);
    if (c->absval) {
        if (*p != ')') return bad(c->text, d);
        p = skip(p + 1);
    }
    if (c->agg == SW_AT) {
        if (*p != ',') return bad(c->text, d);
        char *end;
        c->t = strtod(p + 1, &end);
        if (end == p + 1 || !isfinite(c->t)) return bad(c->text, d);
        p = skip(end);
    }
    if (*p != ')' || *skip(p + 1)) return bad(c->text, d);
    return 0;
}

void sw_collect_free(sw_collect *c)
{
    free(c->text);
    free(c->var);
}

/* ------------------------------------------------------------------------
 * Accumulation over a run's output points. */

void sw_acc_init(sw_acc *a, const fl_sweep *s, const sw_group *g)
{
    memset(a, 0, sizeof *a);
    a->s = s;
    a->g = g;
    a->acc = fl_xcalloc((size_t)s->ncol + 1, sizeof(double));
    a->prev_y = fl_xcalloc((size_t)s->ncol + 1, sizeof(double));
    for (int j = 0; j < s->ncol; j++) a->acc[j] = NAN;
}

int sw_acc_point(sw_acc *a, double t, const double *vals)
{
    const fl_sweep *s = a->s;
    const sw_group *g = a->g;
    for (int j = 0; j < s->ncol; j++) {
        const sw_collect *c = &s->col[j];
        if (c->agg == SW_EVENTS) continue;
        double y = vals[g->out_idx[g->col_var[j]]];
        if (c->absval) y = fabs(y);
        double *v = &a->acc[j];
        switch (c->agg) {
        case SW_FINAL: *v = y; break;
        case SW_MAX: if (a->npts == 0 || y > *v || isnan(y)) *v = y; break;
        case SW_MIN: if (a->npts == 0 || y < *v || isnan(y)) *v = y; break;
        case SW_MEAN:
            if (a->npts == 0) *v = 0;
            else *v += 0.5 * (y + a->prev_y[j]) * (t - a->tprev);
            break;
        case SW_AT:
            /* before or at t: the latest value (after an event); first point past t: interpolate */
            if (a->npts == 0 || t <= c->t) *v = y;
            else if (a->tprev < c->t) *v = a->prev_y[j] + (y - a->prev_y[j]) * (c->t - a->tprev) / (t - a->tprev);
            break;
        default: break;
        }
        a->prev_y[j] = y;
    }
    if (s->nsave) {
        long w = 1 + s->nsave;
        if (a->npts == a->traj_cap) {
            long cap = a->traj_cap ? 2 * a->traj_cap : 256;
            a->traj = fl_xrealloc(a->traj, sizeof(double) * (size_t)cap * (size_t)w);
            a->traj_cap = cap;
        }
        double *row = a->traj + a->npts * w;
        row[0] = t;
        for (int k = 0; k < s->nsave; k++) row[1 + k] = vals[g->out_idx[g->nout - s->nsave + k]];
    }
    if (a->npts == 0) a->t0 = t;
    a->tprev = t;
    a->npts++;
    return 0;
}

void sw_acc_finish(sw_acc *a, const fl_stats *st, double *out)
{
    const fl_sweep *s = a->s;
    for (int j = 0; j < s->ncol; j++) {
        const sw_collect *c = &s->col[j];
        double v = a->acc[j];
        if (c->agg == SW_EVENTS) v = (double)(st->time_events + st->state_events);
        else if (c->agg == SW_MEAN) v = a->tprev > a->t0 ? v / (a->tprev - a->t0) : a->prev_y[j];
        out[j] = v;
    }
}

void sw_acc_free(sw_acc *a)
{
    free(a->acc);
    free(a->prev_y);
    free(a->traj);
    a->acc = a->prev_y = a->traj = NULL;
}
