/* jrules.c - the Jacobian's entries of a chain of alike parts kept once,
 * with the rule that gives the others.
 *
 * Why: every body and every element lists its Jacobian entries (source
 * value, multiplier, slot in the integrator's, the initialisation's and
 * the re-initialisation's matrices: 24 bytes each), 19 per wagon of the
 * benchmark chain, the compiled system's largest array (43.5 MB of its
 * 185 at 10^5 wagons) and alive for as long as the system. In a chain of
 * alike parts declared in order, consecutive bodies of one kind and
 * consecutive elements of one batch have the same entries moved by a
 * constant step per entry: their slots advance by the same amount from
 * one part to the next, their sources by the part's local block. Such a
 * run of units is stored as its first unit's entries and the steps
 * (fl_jrule); fl_jrule_entry gives any of the others, and the Jacobian's
 * scatter (sim/eval.c) and the fast batches' plan (sim/fast.c) walk the
 * rule instead of the records. Nothing computed changes: every entry has
 * the same values, visited in the same order.
 *
 * The rules are made as the entries are listed (compile/layout.c:
 * rows, columns and sources that move by one step per unit), so that a
 * chain's entries are never all records while compiling, whose peak
 * memory this is part of. The slots come after, from the patterns built
 * over every entry's row and column: fl_jrules_set puts them into the
 * rules and splits a rule where its slots do not move by one step (the
 * chain's ends, a body with a condition the others have not). The later
 * stages read the entries through fl_jiter, and a system that falls into
 * several groups has them stored one by one again (fl_jrules_expand: its
 * scopes name them by number). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "system.h"

int fl_jrule_key(const fl_system *s, int u, int *g)
{
    if (u < s->nbodies) return s->bodies[u].kind;
    int e = u - s->nbodies;
    while (*g < s->negroups && s->egroups[*g].first + s->egroups[*g].n <= e) (*g)++;
    if (*g >= s->negroups || s->egroups[*g].first > e) return -1;
    return 1000 + *g;
}

int fl_jrule_from(const fl_system *s, int j)
{
    return fl_lower_bound(s->jrule, s->njrule, sizeof *s->jrule, offsetof(fl_jrule, j0), j);
}

int fl_jent_total(const fl_system *s)
{
    int n = s->njent;
    for (int r = 0; r < s->njrule; r++) n += (s->jrule[r].n - 1) * s->jrule[r].m;
    return n;
}

void fl_jrules_expand(fl_system *s)
{
    if (!s->njrule) return;
    int total = fl_jent_total(s);
    fl_jentry *all = fl_xmalloc(sizeof *all * (size_t)(total ? total : 1)), e;
    fl_jiter it = fl_jiter_start(s);
    while (fl_jiter_next(&it, &e)) all[it.k] = e;
    free(s->jent);
    free(s->jrule);
    s->jent = all;
    s->njent = total;
    s->jrule = NULL;
    s->njrule = 0;
}

/* The field of entry e that which names. */
static int *field_of(fl_jentry *e, int which)
{
    return which == FL_JR_SLOT ? &e->slot : which == FL_JR_ISLOT ? &e->islot : &e->rslot;
}

static int *step_of(fl_jrule *r, int which)
{
    return which == FL_JR_SLOT ? r->slot : which == FL_JR_ISLOT ? r->islot : r->rslot;
}

/* Whether unit i of a rule of m entries per unit (values v from its first
 * entry on) has unit a's values moved i - a times by d (a -1 stays -1). */
static int unit_on_steps(const int *v, int m, int a, int i, const int *d)
{
    for (int t = 0; t < m; t++) {
        int first = v[a * m + t], x = v[i * m + t];
        if (first >= 0 ? x < 0 || x != first + (i - a) * d[t] : x >= 0) return 0;
    }
    return 1;
}

/* Where the run of units from unit a (of n, m entries each: values v
 * from the first entry on) that move by one step ends, with the steps d
 * from unit a to unit a + 1 (0 for a -1). */
static int run_end(const int *v, int m, int n, int a, int *d)
{
    int b = a + 1;
    for (int t = 0; t < m; t++) d[t] = b < n && v[a * m + t] >= 0 ? v[b * m + t] - v[a * m + t] : 0;
    while (b < n && unit_on_steps(v, m, a, b, d)) b++;
    return b;
}

void fl_jent_keep(fl_system *s, fl_jentry *e, int n, fl_jrule *r, int nr)
{
    s->njent = n;
    s->jent = n ? fl_shrink(e, sizeof *e * (size_t)n) : fl_xcalloc(1, sizeof *e);
    if (!n) free(e);
    s->njrule = nr;
    s->jrule = nr ? fl_shrink(r, sizeof *r * (size_t)nr) : NULL;
    if (!nr) free(r);
}

void fl_jrules_set(fl_system *s, const int *v, int which)
{
    int k = 0, ok = 1;
    for (int j = 0, r = 0; j < s->njent && ok;) {
        if (r < s->njrule && s->jrule[r].j0 == j) {
            fl_jrule *jr = &s->jrule[r++];
            int d[FL_JRULE_M];
            ok = run_end(v + k, jr->m, jr->n, 0, d) == jr->n;
            memcpy(step_of(jr, which), d, sizeof d);
            for (int t = 0; t < jr->m; t++) *field_of(&s->jent[j + t], which) = v[k + t];
            k += jr->n * jr->m;
            j += jr->m;
            continue;
        }
        *field_of(&s->jent[j++], which) = v[k++];
    }
    if (ok) return;
    /* a rule's run breaks these slots' step (the chain's first or last
     * part, a body with a condition the others have not): the rules split
     * where it does, their pieces kept by rule or stored (short ones) */
    FL_VEC(fl_jentry) nj = {0};
    FL_VEC(fl_jrule) nr = {0};
    k = 0;
    for (int j = 0, r = 0; j < s->njent;) {
        if (!(r < s->njrule && s->jrule[r].j0 == j)) {
            fl_jentry e = s->jent[j++];
            *field_of(&e, which) = v[k++];
            FL_VEC_PUSH(nj, e);
            continue;
        }
        const fl_jrule *jr = &s->jrule[r++];
        int m = jr->m, d[FL_JRULE_M];
        for (int a = 0, b; a < jr->n; a = b) {
            b = run_end(v + k, m, jr->n, a, d);
            int keep = b - a >= FL_JRULE_MIN;
            if (keep) {
                fl_jrule piece = *jr;
                piece.j0 = (int)nj.n;
                piece.n = b - a;
                memcpy(step_of(&piece, which), d, sizeof d);
                FL_VEC_PUSH(nr, piece);
            }
            for (int i = a; i < (keep ? a + 1 : b); i++)
                for (int t = 0; t < m; t++) {
                    fl_jentry e = fl_jrule_entry(s, jr, i, t);
                    *field_of(&e, which) = v[k + i * m + t];
                    FL_VEC_PUSH(nj, e);
                }
        }
        k += jr->n * m;
        j += m;
    }
    free(s->jent);
    free(s->jrule);
    fl_jent_keep(s, nj.v, (int)nj.n, nr.v, (int)nr.n);
}
