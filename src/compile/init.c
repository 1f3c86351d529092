/* init.c - the initialisation system: the DAE residuals plus one equation
 * per initial condition (start values with fixed = true, initial equations
 * of filtered sources), in the unknowns y and the derivatives of the
 * differential unknowns. Checks by structural matching that it is square
 * and regular, naming the states that lack a condition or the conditions
 * that are redundant; weak conditions (documented tool defaults such as
 * ConstantSpeed.s = 0) fill gaps only. */
#include <stdlib.h>
#include <string.h>

#include "compile.h"

typedef FL_VEC(int) ivec;
typedef FL_VEC(double) dvec;

/* Init-matrix column of a node's kinematic quantity, or -1 if it is known. */
static int cond_col(const fl_system *s, int node, int level)
{
    if (node < 0) return -1;
    const fl_body *bd = &s->bodies[s->nodes[node].body];
    if (level == 0) return bd->qi;
    if (bd->kind == B_VEL || bd->kind == B_POS || bd->kind == B_GROUND) return -1;
    if (level == 1) return bd->vi;
    return bd->vi >= 0 && s->dpos[bd->vi] >= 0 ? s->n + s->dpos[bd->vi] : -1;
}

/* Build the init pattern for the given condition list; fills islot of the
 * Jacobian entries and the condition entries. */
static void build_pattern(fl_system *s, const int *conds, int ncond, fl_csc *pat, ivec *crow, ivec *ccol,
                          dvec *ccoef, int fill_slots)
{
    int n = s->n, N = n + s->nd;
    ivec rows = {0}, cols = {0};
    for (int i = 0; i < s->njent; i++) {
        int r = s->jent_rc[2 * i], c = s->jent_rc[2 * i + 1];
        if (s->jent[i].cj) c = s->dpos[c] >= 0 ? n + s->dpos[c] : -1;
        FL_VEC_PUSH(rows, r);
        FL_VEC_PUSH(cols, c);
    }
    size_t cbase = rows.n;
    for (int k = 0; k < ncond; k++) {
        const fl_cond *c = &s->conds[conds[k]];
        int cp = cond_col(s, c->node_p, c->level), cm = cond_col(s, c->node_m, c->level);
        if (cp >= 0) {
            FL_VEC_PUSH(rows, n + k);
            FL_VEC_PUSH(cols, cp);
            if (crow) {
                FL_VEC_PUSH(*crow, n + k);
                FL_VEC_PUSH(*ccol, cp);
                FL_VEC_PUSH(*ccoef, 1.0);
            }
        }
        if (cm >= 0) {
            FL_VEC_PUSH(rows, n + k);
            FL_VEC_PUSH(cols, cm);
            if (crow) {
                FL_VEC_PUSH(*crow, n + k);
                FL_VEC_PUSH(*ccol, cm);
                FL_VEC_PUSH(*ccoef, -1.0);
            }
        }
    }
    int *slot = fl_xmalloc(sizeof(int) * (rows.n ? rows.n : 1));
    fl_csc_build(pat, n + ncond, N, rows.v, cols.v, (int)rows.n, slot);
    if (fill_slots) {
        for (int i = 0; i < s->njent; i++) s->jent[i].islot = slot[i];
        s->ncentry = (int)(rows.n - cbase);
        s->centry = fl_xmalloc(sizeof(*s->centry) * (size_t)(s->ncentry ? s->ncentry : 1));
        for (int k = 0; k < s->ncentry; k++) {
            s->centry[k].row = crow->v[k];
            s->centry[k].col = ccol->v[k];
            s->centry[k].coef = ccoef->v[k];
            s->centry[k].islot = slot[cbase + (size_t)k];
        }
    }
    free(slot);
    FL_VEC_FREE(rows);
    FL_VEC_FREE(cols);
}

int fl_compile_init(fl_system *s, fl_diag *d)
{
    int n = s->n, N = n + s->nd;
    /* every condition must involve an unknown */
    int rc = 0;
    for (int k = 0; k < s->ncond; k++) {
        const fl_cond *c = &s->conds[k];
        if (c->weak == 2) continue;
        if (cond_col(s, c->node_p, c->level) < 0 && cond_col(s, c->node_m, c->level) < 0) {
            if (c->weak) continue;
            fl_err(d, c->loc,
                   "initial conditions are over-determined: %s is fixed, but it is already determined "
                   "by what it is rigidly attached to (remove fixed = true)",
                   c->label);
            rc = -1;
        }
    }
    if (rc) return rc;
    if (n == 0) {
        s->ncond_used = 0;
        return 0;
    }
    /* strong conditions first, then weak ones (matched only if needed) */
    ivec order = {0};
    for (int k = 0; k < s->ncond; k++)
        if (!s->conds[k].weak) FL_VEC_PUSH(order, k);
    int nstrong = (int)order.n;
    for (int k = 0; k < s->ncond; k++)
        if (s->conds[k].weak == 1 && (cond_col(s, s->conds[k].node_p, s->conds[k].level) >= 0 ||
                                 cond_col(s, s->conds[k].node_m, s->conds[k].level) >= 0))
            FL_VEC_PUSH(order, k);
    fl_csc pat;
    build_pattern(s, order.v, (int)order.n, &pat, NULL, NULL, NULL, 0);
    int nrow = n + (int)order.n;
    int *roc = fl_xmalloc(sizeof(int) * (size_t)(N ? N : 1));
    int *cor = fl_xmalloc(sizeof(int) * (size_t)(nrow ? nrow : 1));
    fl_match(&pat, nrow, roc, cor);
    fl_csc_free(&pat);

    ivec used = {0};
    fl_buf over = {0};
    int nover = 0;
    for (int k = 0; k < (int)order.n; k++) {
        if (cor[n + k] >= 0) FL_VEC_PUSH(used, order.v[k]);
        else if (k < nstrong) {
            fl_buf_printf(&over, "%s%s", nover ? ", " : "", s->conds[order.v[k]].label);
            nover++;
        }
    }
    fl_buf under = {0}, cand = {0};
    int nunder = 0, ncand = 0;
    for (int c = 0; c < N; c++) {
        if (roc[c] >= 0) continue;
        /* a missing derivative means its state lacks a start condition */
        int i = c;
        if (c >= n) {
            for (int j = 0; j < n; j++)
                if (s->dpos[j] == c - n) i = j;
            /* der(q) = v: an unmatched der(q) stands for a missing velocity */
            for (int b = 0; b < s->nbodies; b++)
                if (s->bodies[b].qi == i && s->bodies[b].vi >= 0) {
                    i = s->bodies[b].vi;
                    break;
                }
        }
        if (nunder < 12) fl_buf_printf(&under, "%s%s", nunder ? ", " : "", s->unk_name[i]);
        nunder++;
        for (int k = 0; k < s->ncond && ncand < 8; k++) {
            const fl_cond *cd = &s->conds[k];
            if (cd->weak != 2 || cd->level > 1) continue;
            if (cond_col(s, cd->node_p, cd->level) != i && cond_col(s, cd->node_m, cd->level) != i) continue;
            if (cand.s && strstr(cand.s, cd->label)) continue;
            fl_buf_printf(&cand, "%s%s", ncand ? ", " : "", cd->label);
            ncand++;
        }
    }
    int model_rows_unmatched = 0;
    for (int r = 0; r < n; r++)
        if (cor[r] < 0) model_rows_unmatched++;
    if (nover) {
        fl_err(d, s->conds[order.v[0]].loc,
               "initial conditions are over-determined: %s %s redundant (%s already determined by the "
               "other conditions and the model); remove fixed = true from %s",
               over.s, nover == 1 ? "is" : "are", nover == 1 ? "it is" : "they are", nover == 1 ? "it" : "some");
        rc = -1;
    }
    if (nunder) {
        if (ncand)
            fl_err(d, fl_noloc,
                   "initial conditions are under-determined: %d more needed; nothing fixes %s%s; "
                   "set fixed = true (and a start value) on %s%s",
                   nunder, under.s, nunder > 12 ? ", ..." : "", nunder > 1 ? "some of: " : "one of: ", cand.s);
        else
            fl_err(d, fl_noloc,
                   "initial conditions are under-determined: %d more needed; nothing fixes %s%s "
                   "(set e.g. s(fixed = true) and v(fixed = true) of a mass, or s_rel/v_rel of a spring-damper)",
                   nunder, under.s, nunder > 12 ? ", ..." : "");
        rc = -1;
    } else if (model_rows_unmatched) {
        fl_err(d, fl_noloc, "the initialisation problem is structurally singular");
        rc = -1;
    }
    fl_buf_free(&over);
    fl_buf_free(&under);
    fl_buf_free(&cand);
    free(roc);
    free(cor);
    FL_VEC_FREE(order);
    if (rc) {
        FL_VEC_FREE(used);
        return rc;
    }
    s->cond_used = used.v;
    s->ncond_used = (int)used.n;
    ivec crow = {0}, ccol = {0};
    dvec ccoef = {0};
    build_pattern(s, s->cond_used, s->ncond_used, &s->ipat, &crow, &ccol, &ccoef, 1);
    FL_VEC_FREE(crow);
    FL_VEC_FREE(ccol);
    FL_VEC_FREE(ccoef);
    return 0;
}
