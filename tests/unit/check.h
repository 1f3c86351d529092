/* check.h - a minimal test harness for the C tests: CHECK macros that count
 * failures and print file:line, and helpers to locate test inputs. Each test
 * program returns check_done() from main. */
#ifndef FL_CHECK_H
#define FL_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures = 0;
static int check_count = 0;

#define CHECK(cond)                                                             \
    do {                                                                        \
        check_count++;                                                          \
        if (!(cond)) {                                                          \
            check_failures++;                                                   \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                       \
    } while (0)

/* |a - b| <= tol (absolute) */
#define CHECK_NEAR(a, b, tol)                                                   \
    do {                                                                        \
        double ca_ = (a), cb_ = (b), ct_ = (tol);                               \
        check_count++;                                                          \
        if (!(fabs(ca_ - cb_) <= ct_)) {                                        \
            check_failures++;                                                   \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.12g, %s = %.12g, |diff| = %.3g > %.3g\n", \
                    __FILE__, __LINE__, #a, ca_, #b, cb_, fabs(ca_ - cb_), ct_); \
        }                                                                       \
    } while (0)

/* |a - b| <= rel * |b| */
#define CHECK_REL(a, b, rel)                                                    \
    do {                                                                        \
        double ca_ = (a), cb_ = (b), cr_ = (rel);                               \
        check_count++;                                                          \
        if (!(fabs(ca_ - cb_) <= cr_ * fabs(cb_))) {                            \
            check_failures++;                                                   \
            fprintf(stderr, "%s:%d: CHECK_REL failed: %s = %.12g, %s = %.12g, rel diff = %.3g > %.3g\n", \
                    __FILE__, __LINE__, #a, ca_, #b, cb_,                        \
                    cb_ != 0 ? fabs(ca_ - cb_) / fabs(cb_) : INFINITY, cr_);    \
        }                                                                       \
    } while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                         \
    do {                                                                        \
        const char *ch_ = (hay), *cn_ = (needle);                               \
        check_count++;                                                          \
        if (!ch_ || !strstr(ch_, cn_)) {                                        \
            check_failures++;                                                   \
            fprintf(stderr, "%s:%d: CHECK_STR_CONTAINS failed: \"%s\" not in \"%s\"\n", \
                    __FILE__, __LINE__, cn_, ch_ ? ch_ : "(null)");             \
        }                                                                       \
    } while (0)

static inline int check_done(void)
{
    if (check_failures) {
        fprintf(stderr, "%d of %d checks failed\n", check_failures, check_count);
        return 1;
    }
    printf("%d checks passed\n", check_count);
    return 0;
}

/* A recorded run: every variable at every output point, v[i * nvars + k];
 * check_record is the output callback that fills it. */
typedef struct check_rec {
    int nvars, n, cap;
    double *t, *v;
} check_rec;

static inline int check_record(void *user, double t, const double *vals, int nvals)
{
    check_rec *r = user;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 1024;
        r->t = realloc(r->t, sizeof(double) * (size_t)r->cap);
        r->v = realloc(r->v, sizeof(double) * (size_t)r->cap * (size_t)nvals);
        if (!r->t || !r->v) abort();
    }
    r->nvars = nvals;
    r->t[r->n] = t;
    memcpy(r->v + (size_t)r->n * (size_t)nvals, vals, sizeof(double) * (size_t)nvals);
    r->n++;
    return 0;
}

/* Path of a file in the source tree (FLANGE_SRC is set by ctest). */
static inline const char *check_src_path(const char *rel)
{
    static char buf[4096];
    const char *root = getenv("FLANGE_SRC");
    snprintf(buf, sizeof buf, "%s/%s", root ? root : ".", rel);
    return buf;
}

#endif
