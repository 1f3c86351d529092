/* spec.c - the runs of a study: parameter definitions as the user writes
 * them ("1,2,5", "0:1:11", "log(1e-3:1:4)", "uniform(0,1)"), expanded to a
 * table of runs by full-factorial grid, random or Latin hypercube sampling,
 * or read from a CSV file of explicit sets. The random numbers come from a
 * generator of our own (splitmix64), so a seed gives the same runs on every
 * machine and with every thread count. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"
#include "util/diag.h"
#include "util/util.h"

/* A number filling the whole of [s, e) (blanks around allowed). */
static int number(const char *s, const char *e, double *x)
{
    while (s < e && isspace((unsigned char)*s)) s++;
    while (e > s && isspace((unsigned char)e[-1])) e--;
    if (s == e || e - s > 60) return -1;
    char tmp[64];
    memcpy(tmp, s, (size_t)(e - s));
    tmp[e - s] = 0;
    char *end;
    errno = 0;
    *x = strtod(tmp, &end);
    if (*end || !isfinite(*x)) return -1;
    return 0;
}

/* "start:stop:n" into n values, geometric when logarithmic. */
static int range(const char *s, const char *e, int logarithmic, sw_param *p, fl_diag *d)
{
    const char *c1 = memchr(s, ':', (size_t)(e - s));
    const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(e - c1 - 1)) : NULL;
    double a, b, n;
    if (!c2 || memchr(c2 + 1, ':', (size_t)(e - c2 - 1)) || number(s, c1, &a) || number(c1 + 1, c2, &b) ||
        number(c2 + 1, e, &n)) {
        fl_err(d, fl_noloc, "--param %s: a range is START:STOP:N (N values from START to STOP), e.g. 0:1:11",
               p->name);
        return -1;
    }
    if (n != floor(n) || n < 1 || n > 1e7 || (n == 1 && a != b)) {
        fl_err(d, fl_noloc, "--param %s: the number of values N of START:STOP:N must be a whole number from 2 "
               "to 10000000 (1 when START = STOP)", p->name);
        return -1;
    }
    if (logarithmic && (a <= 0 || b <= 0)) {
        fl_err(d, fl_noloc, "--param %s: log(START:STOP:N) needs START > 0 and STOP > 0", p->name);
        return -1;
    }
    p->nvals = (int)n;
    p->vals = fl_xmalloc(sizeof(double) * (size_t)p->nvals);
    for (int i = 0; i < p->nvals; i++) {
        double f = p->nvals > 1 ? (double)i / (p->nvals - 1) : 0;
        if (i == p->nvals - 1) f = 1;
        p->vals[i] = logarithmic ? exp(log(a) + f * (log(b) - log(a))) : a + f * (b - a);
    }
    /* the ends exactly as written */
    p->vals[0] = a;
    p->vals[p->nvals - 1] = b;
    return 0;
}

/* "f(a,b)" with f one of the distributions. */
static int distribution(const char *s, const char *e, sw_param *p, fl_diag *d)
{
    static const struct { const char *name; sw_kind kind; } dists[] = {
        {"uniform", SW_UNIFORM}, {"normal", SW_NORMAL}, {"loguniform", SW_LOGUNIFORM}};
    for (size_t i = 0; i < sizeof dists / sizeof *dists; i++) {
        size_t n = strlen(dists[i].name);
        if ((size_t)(e - s) <= n + 1 || strncmp(s, dists[i].name, n) || s[n] != '(') continue;
        const char *comma = memchr(s + n + 1, ',', (size_t)(e - s - (long)n - 1));
        if (e[-1] != ')' || !comma || number(s + n + 1, comma, &p->a) || number(comma + 1, e - 1, &p->b)) {
            fl_err(d, fl_noloc, "--param %s: write %s(%s)", p->name, dists[i].name,
                   dists[i].kind == SW_NORMAL ? "MEAN,SIGMA" : "LOW,HIGH");
            return -1;
        }
        p->kind = dists[i].kind;
        if (p->kind == SW_NORMAL ? !(p->b > 0) : !(p->b > p->a)) {
            fl_err(d, fl_noloc, "--param %s: %s", p->name,
                   p->kind == SW_NORMAL ? "normal(MEAN,SIGMA) needs SIGMA > 0" : "the interval needs HIGH > LOW");
            return -1;
        }
        if (p->kind == SW_LOGUNIFORM && !(p->a > 0)) {
            fl_err(d, fl_noloc, "--param %s: loguniform(LOW,HIGH) needs LOW > 0", p->name);
            return -1;
        }
        return 1;
    }
    return 0;
}

int sw_parse_param(const char *spec, sw_param *p, fl_diag *d)
{
    memset(p, 0, sizeof *p);
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec) {
        fl_err(d, fl_noloc, "--param '%s': write NAME=VALUES (e.g. spring.c=1e3,1e4 or mass.m=1:2:5)", spec);
        return -1;
    }
    const char *ns = spec, *ne = eq;
    while (ns < ne && isspace((unsigned char)*ns)) ns++;
    while (ne > ns && isspace((unsigned char)ne[-1])) ne--;
    p->name = fl_xstrndup(ns, (size_t)(ne - ns));
    for (const char *c = p->name; *c; c++)
        if (!(isalnum((unsigned char)*c) || *c == '_' || *c == '.' || *c == '[' || *c == ']' || *c == ',')) {
            fl_err(d, fl_noloc, "--param '%s': '%s' is not a parameter name", spec, p->name);
            return -1;
        }
    const char *s = eq + 1, *e = s + strlen(s);
    while (s < e && isspace((unsigned char)*s)) s++;
    while (e > s && isspace((unsigned char)e[-1])) e--;
    p->spec = fl_xstrndup(s, (size_t)(e - s));
    if (s == e) {
        fl_err(d, fl_noloc, "--param %s: no values after '='", p->name);
        return -1;
    }
    int r = distribution(s, e, p, d);
    if (r) return r < 0 ? -1 : 0;
    p->kind = SW_LIST;
    if (e - s > 5 && strncmp(s, "log(", 4) == 0 && e[-1] == ')') return range(s + 4, e - 1, 1, p, d);
    if (memchr(s, ':', (size_t)(e - s))) return range(s, e, 0, p, d);
    /* a list */
    int cap = 0;
    for (const char *a = s;;) {
        const char *c = memchr(a, ',', (size_t)(e - a));
        const char *b = c ? c : e;
        double x;
        if (number(a, b, &x)) {
            fl_err(d, fl_noloc, "--param %s: '%.*s' is not a number (values are a list A,B,C, a range "
                   "START:STOP:N, log(START:STOP:N), or with --samples uniform(A,B), normal(MEAN,SIGMA), "
                   "loguniform(A,B))", p->name, (int)(b - a), a);
            return -1;
        }
        if (p->nvals == cap) {
            cap = cap ? 2 * cap : 8;
            p->vals = fl_xrealloc(p->vals, sizeof(double) * (size_t)cap);
        }
        p->vals[p->nvals++] = x;
        if (!c) break;
        a = c + 1;
    }
    return 0;
}

void sw_param_free(sw_param *p)
{
    free(p->name);
    free(p->spec);
    free(p->vals);
}

/* ------------------------------------------------------------------------
 * Random numbers: splitmix64 (Steele, Lea, Flood 2014), 53-bit uniforms. */

static uint64_t next64(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* uniform in (0, 1): never 0 or 1, so that the inverse distributions stay finite */
static double uniform01(uint64_t *st)
{
    return ((double)(next64(st) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* The standard normal quantile: bisection of the normal CDF,
 * Phi(x) = erfc(-x / sqrt 2) / 2, on [-40, 40] (robust in the tails, where
 * Newton's method overshoots; 90 halvings reach the rounding unit). */
static double normal_quantile(double u)
{
    double lo = -40, hi = 40;
    for (int it = 0; it < 90 && hi - lo > 0; it++) {
        double mid = 0.5 * (lo + hi);
        if (mid == lo || mid == hi) break;
        if (0.5 * erfc(-mid / sqrt(2.0)) < u) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

static double draw(const sw_param *p, double u)
{
    switch (p->kind) {
    case SW_UNIFORM: return p->a + u * (p->b - p->a);
    case SW_LOGUNIFORM: return exp(log(p->a) + u * (log(p->b) - log(p->a)));
    case SW_NORMAL: return p->a + p->b * normal_quantile(u);
    default: return NAN;
    }
}

/* ------------------------------------------------------------------------
 * The runs file: a header of parameter names, then one row of numbers per
 * run (comma-separated; blank lines and a trailing CR ignored). */

static int read_runs_file(fl_sweep *s, fl_diag *d)
{
    FILE *f = fopen(s->runs_file, "rb");
    if (!f) {
        fl_err(d, fl_noloc, "%s: cannot open: %s", s->runs_file, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0, rows = 0, rcap = 0;
    int ok = 0;
    while ((n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if ((size_t)n != strlen(line)) {
            fl_err(d, fl_noloc, "%s:%ld: not a text file (a NUL byte)", s->runs_file, lineno);
            goto out;
        }
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        char *p = line;
        if (lineno == 1 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF)
            p += 3;
        const char *q = p;
        while (*q == ' ' || *q == '\t') q++;
        if (!*q) continue;
        if (!s->npar) { /* the header */
            for (char *a = p;;) {
                char *c = strchr(a, ',');
                if (c) *c = 0;
                char *b = a, *e = a + strlen(a);
                while (*b == ' ' || *b == '\t' || *b == '"') b++;
                while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '"')) e--;
                if (b == e) {
                    fl_err(d, fl_noloc, "%s:%ld:%ld: an empty parameter name in the header", s->runs_file, lineno,
                           (long)(a - line) + 1);
                    goto out;
                }
                s->par = fl_xrealloc(s->par, sizeof *s->par * (size_t)(s->npar + 1));
                sw_param *pp = &s->par[s->npar++];
                memset(pp, 0, sizeof *pp);
                pp->name = fl_xstrndup(b, (size_t)(e - b));
                pp->spec = fl_xsprintf("from %s", s->runs_file);
                pp->kind = SW_FILE;
                if (!c) break;
                a = c + 1;
            }
            continue;
        }
        if (rows == rcap) {
            rcap = rcap ? 2 * rcap : 64;
            s->runs = fl_xrealloc(s->runs, sizeof(double) * (size_t)rcap * (size_t)s->npar);
        }
        int j = 0;
        for (char *a = p;; j++) {
            char *c = strchr(a, ',');
            char *e = c ? c : a + strlen(a);
            if (j >= s->npar) {
                fl_err(d, fl_noloc, "%s:%ld:%ld: more values than the %d parameter(s) of the header", s->runs_file,
                       lineno, (long)(a - line) + 1, s->npar);
                goto out;
            }
            if (number(a, e, &s->runs[rows * s->npar + j])) {
                fl_err(d, fl_noloc, "%s:%ld:%ld: '%.*s' is not a number (%s)", s->runs_file, lineno,
                       (long)(a - line) + 1, (int)(e - a), a, s->par[j].name);
                goto out;
            }
            if (!c) break;
            a = c + 1;
        }
        if (j + 1 < s->npar) {
            fl_err(d, fl_noloc, "%s:%ld: %d value(s) where the header names %d parameter(s)", s->runs_file, lineno,
                   j + 1, s->npar);
            goto out;
        }
        rows++;
    }
    if (ferror(f)) {
        fl_err(d, fl_noloc, "%s: read error", s->runs_file);
        goto out;
    }
    if (!s->npar) {
        fl_err(d, fl_noloc, "%s: empty: the first line names the parameters, each further line is one run",
               s->runs_file);
        goto out;
    }
    if (!rows) {
        fl_err(d, fl_noloc, "%s: no runs after the header", s->runs_file);
        goto out;
    }
    s->nruns = rows;
    ok = 1;
out:
    free(line);
    fclose(f);
    return ok ? 0 : -1;
}

/* ------------------------------------------------------------------------
 * Expansion. Grid: the last --param varies fastest. With --samples N, the
 * runs are the grid of the list parameters times N samples of the
 * distributions (run = grid point * N + sample). */

int sw_expand_runs(fl_sweep *s, fl_diag *d)
{
    if (s->runs_file) return read_runs_file(s, d);
    int ndist = 0;
    double grid = 1;
    for (int j = 0; j < s->npar; j++) {
        if (s->par[j].kind == SW_LIST) grid *= s->par[j].nvals;
        else ndist++;
    }
    if (ndist && !s->nsamples) {
        fl_err(d, fl_noloc, "a distribution (uniform, normal, loguniform) needs --samples N");
        return -1;
    }
    if (s->nsamples && !ndist) {
        fl_err(d, fl_noloc, "--samples needs a parameter given as a distribution (uniform(A,B), normal(MEAN,SIGMA), "
               "loguniform(A,B))");
        return -1;
    }
    double total = grid * (double)(s->nsamples ? s->nsamples : 1);
    if (total > 1e8) {
        fl_err(d, fl_noloc, "the study has %.4g runs: at most 100000000 are allowed", total);
        return -1;
    }
    long ng = (long)grid, ns = s->nsamples ? s->nsamples : 1;
    s->nruns = ng * ns;
    if (!s->npar) s->nruns = 1;
    s->runs = fl_xmalloc(sizeof(double) * (size_t)(s->nruns ? s->nruns : 1) * (size_t)(s->npar ? s->npar : 1));
    /* the samples: one column of ns values per distribution parameter */
    double *smp = fl_xmalloc(sizeof(double) * (size_t)ns * (size_t)(ndist ? ndist : 1));
    uint64_t st = s->seed;
    long *perm = s->lhs ? fl_xmalloc(sizeof(long) * (size_t)ns) : NULL;
    for (int j = 0, k = 0; j < s->npar; j++) {
        const sw_param *p = &s->par[j];
        if (p->kind == SW_LIST) continue;
        if (s->lhs) { /* one value in each of ns equal-probability strata, in random order */
            for (long i = 0; i < ns; i++) perm[i] = i;
            for (long i = ns - 1; i > 0; i--) {
                long r = (long)(next64(&st) % (uint64_t)(i + 1));
                long t = perm[i];
                perm[i] = perm[r];
                perm[r] = t;
            }
            for (long i = 0; i < ns; i++) smp[(size_t)k * (size_t)ns + (size_t)i] = draw(p, ((double)perm[i] + uniform01(&st)) / (double)ns);
        } else {
            for (long i = 0; i < ns; i++) smp[(size_t)k * (size_t)ns + (size_t)i] = draw(p, uniform01(&st));
        }
        k++;
    }
    free(perm);
    for (long r = 0; r < s->nruns && s->npar; r++) {
        long g = r / ns, i = r % ns;
        /* the grid index: mixed radix, last list parameter fastest */
        for (int j = s->npar - 1, k = ndist - 1; j >= 0; j--) {
            const sw_param *p = &s->par[j];
            if (p->kind == SW_LIST) {
                s->runs[r * s->npar + j] = p->vals[g % p->nvals];
                g /= p->nvals;
            } else {
                s->runs[r * s->npar + j] = smp[(size_t)k * (size_t)ns + (size_t)i];
                k--;
            }
        }
    }
    free(smp);
    return 0;
}
