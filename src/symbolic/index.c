/* index.c - matching on the highest derivatives, Pantelides' algorithm,
 * dummy derivatives, and the block decomposition (see index.h).
 *
 * Variables are handled as (base variable, derivative order) pairs: order 0
 * is the variable itself (SX_VAR), order 1 its derivative (SX_DER), higher
 * orders auxiliary variables of the cluster ("der(der(x))"). Equations that
 * Pantelides' algorithm differentiates are differentiated symbolically
 * (total time derivative). The dummy derivative method (Mattsson and
 * Soederlind) then picks, level by level, the derivatives that become
 * ordinary algebraic unknowns, choosing the columns with the largest
 * pivots of the Jacobian evaluated at the start values (static state
 * selection), so that the final system is index 1. */
#include "index.h"

#include "analyze.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef FL_VEC(int) ivec;
typedef FL_VEC(unsigned char) bvec;

/* A derivative variable: base variable and order; der = the next order, -1. */
typedef struct dvar {
    int base, order;
    int der;     /* index of the next derivative in the dvar table, -1 */
    int leafvar; /* cluster variable representing it (order >= 2 or dummies) */
} dvar;

typedef struct ictx {
    const fl_index_problem *p;
    fl_sgraph *g;
    FL_VEC(dvar) dv;
    int *dv_of_base;  /* cluster variable -> its order-0 dvar, -1 */
    FL_VEC(fl_sx) rows;
    FL_VEC(fl_loc) rloc;
    ivec rder;        /* per row: its derivative row, -1 */
    ivec rsrc;        /* per row: the row it was differentiated from, -1 */
    FL_VEC(ivec) inc; /* per row: dvars it contains */
    ivec assign;      /* per dvar: the row matched to it, -1 */
    int failed;
} ictx;

/* The dvar of (base, order), created on demand (with its leaf variable for
 * orders >= 2). */
static int dvar_get(ictx *c, int base, int order)
{
    int k = c->dv_of_base[base];
    if (k < 0) {
        dvar d = {base, 0, -1, base};
        FL_VEC_PUSH(c->dv, d);
        k = (int)c->dv.n - 1;
        c->dv_of_base[base] = k;
        FL_VEC_PUSH(c->assign, -1);
    }
    for (int o = 0; o < order; o++) {
        if (c->dv.v[k].der < 0) {
            dvar d = {base, o + 1, -1, -1};
            if (o + 1 >= 2) {
                const char *bn = c->p->fc->vars.v[base].name;
                char *nm = fl_xsprintf("der%d(%s)", o + 1, bn);
                d.leafvar = fl_fc_add_var(c->p->fc, nm, FVK_REAL, c->p->fc->vars.v[base].loc);
                free(nm);
            }
            FL_VEC_PUSH(c->dv, d);
            c->dv.v[k].der = (int)c->dv.n - 1;
            FL_VEC_PUSH(c->assign, -1);
        }
        k = c->dv.v[k].der;
    }
    return k;
}

/* Which dvar a leaf stands for (-1: not an unknown). */
static int dvar_of_leaf(ictx *c, const fl_snode *n)
{
    if (n->op != SX_VAR && n->op != SX_DER) return -1;
    int k = (int)n->u.k;
    if (n->op == SX_DER) return k < c->p->nv && c->dv_of_base[k] >= 0 ? dvar_get(c, k, 1) : -1;
    if (k < c->p->nv) return c->dv_of_base[k];
    /* an auxiliary variable: find its dvar */
    for (size_t i = 0; i < c->dv.n; i++)
        if (c->dv.v[i].leafvar == k && c->dv.v[i].order >= 2) return (int)i;
    return -1;
}

typedef struct incctx {
    ictx *c;
    ivec *out;
} incctx;

static void inc_visit(void *cv, fl_sx x)
{
    incctx *ic = cv;
    int d = dvar_of_leaf(ic->c, &ic->c->g->n[x]);
    if (d < 0) return;
    for (size_t i = 0; i < ic->out->n; i++)
        if (ic->out->v[i] == d) return;
    FL_VEC_PUSH(*ic->out, d);
}

static ivec incidence(ictx *c, fl_sx r)
{
    ivec v = {0};
    incctx ic = {c, &v};
    fl_sx roots[1] = {r};
    fl_sx_postorder(c->g, roots, 1, inc_visit, &ic);
    return v;
}

static int add_row(ictx *c, fl_sx r, fl_loc loc, int src)
{
    FL_VEC_PUSH(c->rows, r);
    FL_VEC_PUSH(c->rloc, loc);
    FL_VEC_PUSH(c->rder, -1);
    FL_VEC_PUSH(c->rsrc, src);
    ivec inc = incidence(c, r);
    FL_VEC_PUSH(c->inc, inc);
    return (int)c->rows.n - 1;
}

/* Time derivative seed for the unknowns: order k -> order k+1; everything
 * else through the analysis' own derivative. */
typedef struct tseedctx {
    ictx *c;
} tseedctx;

static fl_sx seed(void *cv, fl_sx leaf)
{
    ictx *c = cv;
    fl_snode n = c->g->n[leaf];
    int d = dvar_of_leaf(c, &n);
    if (d >= 0) {
        dvar dd = c->dv.v[d];
        int nx = dvar_get(c, dd.base, dd.order + 1);
        const dvar *x = &c->dv.v[nx];
        return x->order == 1 ? fl_sx_der(c->g, x->base) : fl_sx_var(c->g, x->leafvar);
    }
    if (n.op == SX_TIME) return fl_sx_const(c->g, 1);
    if (n.op == SX_PAR || n.op == SX_PRE || n.op == SX_DER) return fl_sx_const(c->g, 0);
    /* knowns of the cluster: their derivative as the analysis forms it */
    return c->p->tdiff(c->p->tctx, leaf);
}

static fl_sx differentiate(ictx *c, fl_sx r)
{
    return fl_sx_diff(c->g, r, seed, c);
}

/* Is dvar d a highest derivative (no derivative of it in the system)? */
static int highest(const ictx *c, int d)
{
    return c->dv.v[d].der < 0;
}

/* Augmenting path from row i over highest-derivative dvars (iterative). */
static int augment(ictx *c, int i0, unsigned char *rcol, unsigned char *vcol)
{
    ivec srow = {0}, spos = {0}, svar = {0};
    FL_VEC_PUSH(srow, i0);
    FL_VEC_PUSH(spos, 0);
    FL_VEC_PUSH(svar, -1);
    rcol[i0] = 1;
    int found = 0;
    /* first: a free variable directly in the row */
    while (srow.n && !found) {
        size_t top = srow.n - 1;
        int i = srow.v[top];
        const ivec *inc = &c->inc.v[i];
        /* look for an unassigned highest derivative */
        int direct = -1;
        for (size_t k = 0; k < inc->n && direct < 0; k++) {
            int j = inc->v[k];
            if (highest(c, j) && c->assign.v[j] < 0) direct = j;
        }
        if (direct >= 0) {
            svar.v[top] = direct;
            found = 1;
            break;
        }
        int advanced = 0;
        while (spos.v[top] < (int)inc->n) {
            int j = inc->v[spos.v[top]++];
            if (!highest(c, j) || vcol[j]) continue;
            vcol[j] = 1;
            svar.v[top] = j;
            int next = c->assign.v[j];
            rcol[next] = 1;
            FL_VEC_PUSH(srow, next);
            FL_VEC_PUSH(spos, 0);
            FL_VEC_PUSH(svar, -1);
            advanced = 1;
            break;
        }
        if (!advanced) {
            srow.n--;
            spos.n--;
            svar.n--;
        }
    }
    if (found)
        for (size_t t = srow.n; t-- > 0;) c->assign.v[svar.v[t]] = srow.v[t];
    FL_VEC_FREE(srow);
    FL_VEC_FREE(spos);
    FL_VEC_FREE(svar);
    return found;
}

static int pantelides(ictx *c)
{
    int nrows0 = (int)c->rows.n;
    for (int k = 0; k < nrows0 && !c->failed; k++) {
        int i = k;
        for (int guard = 0; guard < 8; guard++) {
            size_t nr = c->rows.n, nd = c->dv.n;
            unsigned char *rcol = fl_xcalloc(nr + 1, 1), *vcol = fl_xcalloc(nd + 1, 1);
            int ok = augment(c, i, rcol, vcol);
            if (ok) {
                free(rcol);
                free(vcol);
                break;
            }
            if (guard == 7) {
                c->failed = 1;
                free(rcol);
                free(vcol);
                break;
            }
            /* differentiate the colored variables and equations */
            for (size_t j = 0; j < nd; j++)
                if (vcol[j]) dvar_get(c, c->dv.v[j].base, c->dv.v[j].order + 1);
            for (size_t l = 0; l < nr; l++) {
                if (!rcol[l]) continue;
                fl_sx dr = differentiate(c, c->rows.v[l]);
                if (dr == FL_SX_NONE) {
                    c->failed = 2;
                    break;
                }
                int nl = add_row(c, dr, c->rloc.v[l], (int)l);
                c->rder.v[l] = nl;
            }
            if (c->failed) {
                free(rcol);
                free(vcol);
                break;
            }
            for (size_t j = 0; j < nd; j++)
                if (vcol[j]) {
                    int a = c->assign.v[j];
                    c->assign.v[c->dv.v[j].der] = a >= 0 ? c->rder.v[a] : -1;
                }
            i = c->rder.v[i];
            free(rcol);
            free(vcol);
        }
    }
    return c->failed ? -1 : 0;
}

/* ---- dummy derivatives ----------------------------------------------------------- */

/* Numeric value of an expression at the start point: parameters, start
 * values of variables (0 where none), everything else 0. */
typedef struct nval {
    const ictx *c;
    double *val;
} nval;

static void nval_visit(void *cv, fl_sx x)
{
    nval *nv = cv;
    const fl_sgraph *g = nv->c->g;
    const fl_snode *n = &g->n[x];
    double a = n->a >= 0 && n->op != SX_CALL ? nv->val[n->a] : 0;
    double b = n->b >= 0 && n->op != SX_CALL ? nv->val[n->b] : 0;
    double r = 0;
    switch ((fl_sop)n->op) {
    case SX_CONST: r = n->u.v; break;
    case SX_PAR: r = nv->c->p->par ? nv->c->p->par[n->u.k] : 0; break;
    case SX_VAR:
        r = n->u.k < nv->c->p->nv && nv->c->p->start ? nv->c->p->start[n->u.k] : 0;
        if (!isfinite(r)) r = 0;
        break;
    case SX_ADD: r = a + b; break;
    case SX_SUB: r = a - b; break;
    case SX_MUL: r = a * b; break;
    case SX_DIV: r = b != 0 ? a / b : 0; break;
    case SX_POW: r = pow(a, b); break;
    case SX_NEG: r = -a; break;
    case SX_FN1: r = fl_sfn_eval((fl_sfn)n->fn, a, 0); break;
    case SX_FN2: r = fl_sfn_eval((fl_sfn)n->fn, a, b); break;
    case SX_IF: r = a != 0 ? b : nv->val[n->c]; break;
    case SX_DGIV: r = a; break;
    default: r = 0; break;
    }
    nv->val[x] = isfinite(r) ? r : 0;
}

static double num_at_start(const ictx *c, fl_sx x)
{
    nval nv = {c, fl_xmalloc(sizeof(double) * (size_t)(c->g->nn + 1))};
    fl_sx roots[1] = {x};
    fl_sx_postorder(c->g, roots, 1, nval_visit, &nv);
    double r = nv.val[x];
    free(nv.val);
    return r;
}

static fl_sx leaf_of(ictx *c, int d)
{
    const dvar *x = &c->dv.v[d];
    if (x->order == 0) return fl_sx_var(c->g, x->base);
    if (x->order == 1) return fl_sx_der(c->g, x->base);
    return fl_sx_var(c->g, x->leafvar);
}

/* From the candidate columns cand, choose as many as there are rows with a
 * regular submatrix (largest pivots, preferring what stateSelect prefers
 * to keep as derivatives); marks them in dummy[]. */
static int select_dummies(ictx *c, const ivec *rows, const ivec *cand, unsigned char *dummy)
{
    int m = (int)rows->n, n = (int)cand->n;
    if (m == 0) return 0;
    if (n < m) return -1;
    double *J = fl_xcalloc((size_t)m * (size_t)n, sizeof(double));
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            fl_sx pd = fl_sx_partial(c->g, c->rows.v[rows->v[i]], leaf_of(c, cand->v[j]));
            J[i * n + j] = pd == FL_SX_NONE ? 0 : num_at_start(c, pd);
            /* a structurally present entry that happens to vanish numerically
             * still counts a little, so that the choice falls back on the structure */
            if (pd != FL_SX_NONE && !fl_sx_is_const(c->g, pd, 0) && J[i * n + j] == 0) J[i * n + j] = 1e-9;
        }
    /* weights: prefer to make dummies of what stateSelect avoids, and of
     * higher orders */
    double *w = fl_xmalloc(sizeof(double) * (size_t)n);
    for (int j = 0; j < n; j++) {
        const dvar *x = &c->dv.v[cand->v[j]];
        int ss = c->p->fc->vars.v[x->base].state_select;
        w[j] = 1.0 + 0.5 * (x->order >= 2);
        if (ss == FL_SS_AVOID || ss == FL_SS_NEVER) w[j] *= 4;
        if (ss == FL_SS_PREFER) w[j] *= 0.25;
        if (ss == FL_SS_ALWAYS) w[j] *= 1e-6;
    }
    unsigned char *used = fl_xcalloc((size_t)n, 1);
    int ok = 0;
    for (int step = 0; step < m; step++) {
        /* row step: pick the column with the largest weighted pivot */
        int best = -1;
        double bv = 0;
        for (int j = 0; j < n; j++) {
            if (used[j]) continue;
            double v = fabs(J[step * n + j]) * w[j];
            if (v > bv) {
                bv = v;
                best = j;
            }
        }
        if (best < 0) break;
        used[best] = 1;
        dummy[cand->v[best]] = 1;
        ok++;
        /* eliminate the column from the rows below */
        double piv = J[step * n + best];
        for (int i = step + 1; i < m; i++) {
            double f = J[i * n + best] / piv;
            if (f == 0) continue;
            for (int j = 0; j < n; j++) J[i * n + j] -= f * J[step * n + j];
        }
    }
    free(J);
    free(w);
    free(used);
    return ok == m ? 0 : -1;
}

static int dummy_derivatives(ictx *c, unsigned char *dummy)
{
    int nr = (int)c->rows.n;
    /* G1: the highest derivative of every differentiated equation */
    ivec G = {0};
    for (int r = 0; r < nr; r++)
        if (c->rder.v[r] < 0 && c->rsrc.v[r] >= 0) FL_VEC_PUSH(G, r);
    /* candidates at level 1: highest derivatives that are derivatives (order >= 1) */
    ivec cand = {0};
    for (size_t d = 0; d < c->dv.n; d++)
        if (highest(c, (int)d) && c->dv.v[d].order >= 1) FL_VEC_PUSH(cand, (int)d);
    int rc = 0;
    while (G.n) {
        /* restrict the candidates to those the rows contain */
        ivec cc = {0};
        for (size_t j = 0; j < cand.n; j++) {
            int in = 0;
            for (size_t i = 0; i < G.n && !in; i++) {
                const ivec *inc = &c->inc.v[G.v[i]];
                for (size_t k = 0; k < inc->n && !in; k++) in = inc->v[k] == cand.v[j];
            }
            if (in) FL_VEC_PUSH(cc, cand.v[j]);
        }
        unsigned char *sel = fl_xcalloc(c->dv.n + 1, 1);
        if (select_dummies(c, &G, &cc, sel)) {
            rc = -1;
            free(sel);
            FL_VEC_FREE(cc);
            break;
        }
        /* next level: the rows one differentiation lower, and the selected
         * columns one order lower */
        ivec G2 = {0}, cand2 = {0};
        for (size_t i = 0; i < G.n; i++) {
            int src = c->rsrc.v[G.v[i]];
            if (src >= 0 && c->rsrc.v[src] >= 0) FL_VEC_PUSH(G2, src);
        }
        for (size_t d = 0; d < c->dv.n; d++) {
            if (!sel[d]) continue;
            dummy[d] = 1;
            /* the dvar one order lower */
            const dvar *x = &c->dv.v[d];
            if (x->order >= 2)
                for (size_t e = 0; e < c->dv.n; e++)
                    if (c->dv.v[e].base == x->base && c->dv.v[e].order == x->order - 1) FL_VEC_PUSH(cand2, (int)e);
        }
        free(sel);
        FL_VEC_FREE(cc);
        FL_VEC_FREE(G);
        FL_VEC_FREE(cand);
        G = G2;
        cand = cand2;
    }
    FL_VEC_FREE(G);
    FL_VEC_FREE(cand);
    return rc;
}

/* ---- matching and blocks of the final system ------------------------------------ */

int fl_sym_match(int nrows, int ncols, const int *rowptr, const int *cols, int *col_of_row, int *row_of_col)
{
    for (int i = 0; i < nrows; i++) col_of_row[i] = -1;
    for (int j = 0; j < ncols; j++) row_of_col[j] = -1;
    int matched = 0;
    int *seen = fl_xcalloc((size_t)(ncols ? ncols : 1), sizeof(int));
    int stamp = 0;
    ivec sr = {0}, sp = {0}, sc = {0};
    for (int i0 = 0; i0 < nrows; i0++) {
        stamp++;
        sr.n = sp.n = sc.n = 0;
        FL_VEC_PUSH(sr, i0);
        FL_VEC_PUSH(sp, rowptr[i0]);
        FL_VEC_PUSH(sc, -1);
        int found = -1;
        while (sr.n && found < 0) {
            size_t t = sr.n - 1;
            int r = sr.v[t];
            if (sp.v[t] >= rowptr[r + 1]) {
                sr.n--;
                sp.n--;
                sc.n--;
                continue;
            }
            int j = cols[sp.v[t]++];
            if (seen[j] == stamp) continue;
            seen[j] = stamp;
            sc.v[t] = j;
            if (row_of_col[j] < 0) {
                found = (int)t;
                break;
            }
            FL_VEC_PUSH(sr, row_of_col[j]);
            FL_VEC_PUSH(sp, rowptr[row_of_col[j]]);
            FL_VEC_PUSH(sc, -1);
        }
        if (found >= 0) {
            for (int t = found; t >= 0; t--) {
                row_of_col[sc.v[t]] = sr.v[t];
                col_of_row[sr.v[t]] = sc.v[t];
            }
            matched++;
        }
    }
    FL_VEC_FREE(sr);
    FL_VEC_FREE(sp);
    FL_VEC_FREE(sc);
    free(seen);
    return matched;
}

/* fl_sym_match over per-row vectors. */
static int match_rows(int nrows, int ncols, const ivec *adj, int *col_of_row, int *row_of_col)
{
    int *rp = fl_xmalloc(sizeof(int) * (size_t)(nrows + 1));
    rp[0] = 0;
    for (int i = 0; i < nrows; i++) rp[i + 1] = rp[i] + (int)adj[i].n;
    int *ci = fl_xmalloc(sizeof(int) * (size_t)(rp[nrows] + 1));
    for (int i = 0; i < nrows; i++)
        if (adj[i].n) memcpy(ci + rp[i], adj[i].v, sizeof(int) * adj[i].n);
    int m = fl_sym_match(nrows, ncols, rp, ci, col_of_row, row_of_col);
    free(rp);
    free(ci);
    return m;
}

/* The unknowns of the final system. For each base variable with derivative
 * orders 0..m in the system: the orders below q (the last non-dummy
 * derivative) are states, order q is the derivative of the last state (or,
 * q = 0, the variable itself, algebraic), and the dummy orders above q are
 * algebraic unknowns of their own. leaf[d] receives the leaf each dvar
 * becomes; chains of more than one state get the equations der(x_o) =
 * x_(o+1) (their dvars in extra). */
static void final_unknowns(ictx *c, const unsigned char *dummy, fl_sx *leaf, ivec *unk, bvec *diff, ivec *extra)
{
    const fl_index_problem *p = c->p;
    for (size_t d0 = 0; d0 < c->dv.n; d0++) {
        if (c->dv.v[d0].order != 0) continue;
        int chain[16], nch = 0;
        for (int d = (int)d0; d >= 0 && nch < 16; d = c->dv.v[d].der) chain[nch++] = d;
        int q = 0;
        while (q + 1 < nch && !dummy[chain[q + 1]]) q++;
        int base = c->dv.v[d0].base;
        for (int o = 0; o < nch; o++) {
            int d = chain[o];
            if (o == q && q > 0) {
                int prev = chain[q - 1];
                leaf[d] = fl_sx_der(c->g, q - 1 == 0 ? base : c->dv.v[prev].leafvar);
                continue;
            }
            int v = o == 0 ? base : c->dv.v[d].leafvar;
            if (v < 0) { /* a derivative of order 1 that needs a variable of its own */
                char *nm = fl_xsprintf("der(%s)", p->fc->vars.v[base].name);
                v = fl_fc_add_var(p->fc, nm, FVK_REAL, p->fc->vars.v[base].loc);
                free(nm);
                c->dv.v[d].leafvar = v;
            }
            leaf[d] = fl_sx_var(c->g, v);
            FL_VEC_PUSH(*unk, v);
            FL_VEC_PUSH(*diff, (unsigned char)(o < q));
        }
        for (int o = 0; o + 1 < q; o++) FL_VEC_PUSH(*extra, chain[o]);
    }
}

typedef struct lmap_ctx {
    fl_smap map; /* original leaf -> final leaf */
} lmap_ctx;

static fl_sx lmap_sub(void *ctx, fl_sx leaf)
{
    lmap_ctx *m = ctx;
    int r = fl_smap_get(&m->map, leaf);
    return r >= 0 ? r : leaf;
}

/* Every row with its leaves rewritten, then the state-chain rows. */
static void rewrite_rows(ictx *c, const fl_sx *leaf, const ivec *extra, fl_index_result *r)
{
    lmap_ctx m;
    memset(&m, 0, sizeof m);
    r->nmap = 0;
    r->map_from = fl_xmalloc(sizeof(fl_sx) * (c->dv.n + 1));
    r->map_to = fl_xmalloc(sizeof(fl_sx) * (c->dv.n + 1));
    for (size_t d = 0; d < c->dv.n; d++) {
        fl_sx o = leaf_of(c, (int)d);
        if (o != leaf[d]) {
            fl_smap_put(&m.map, o, leaf[d]);
            r->map_from[r->nmap] = o;
            r->map_to[r->nmap++] = leaf[d];
        }
    }
    int nfin = (int)c->rows.n + (int)extra->n;
    r->nrows = nfin;
    r->res = fl_xmalloc(sizeof(fl_sx) * (size_t)(nfin ? nfin : 1));
    r->loc = fl_xmalloc(sizeof(fl_loc) * (size_t)(nfin ? nfin : 1));
    r->row_var = fl_xmalloc(sizeof(int) * (size_t)(nfin ? nfin : 1));
    for (size_t i = 0; i < c->rows.n; i++) {
        r->res[i] = m.map.n ? fl_sx_subst(c->g, c->rows.v[i], lmap_sub, &m) : c->rows.v[i];
        r->loc[i] = c->rloc.v[i];
    }
    for (size_t k = 0; k < extra->n; k++) {
        const dvar *x = &c->dv.v[extra->v[k]];
        int v = x->order == 0 ? x->base : x->leafvar;
        size_t i = c->rows.n + k;
        r->res[i] = fl_sx_sub(c->g, fl_sx_der(c->g, v), leaf[x->der]);
        r->loc[i] = c->p->fc->vars.v[x->base].loc;
    }
    fl_smap_free(&m.map);
}

/* Columns (unknowns, or derivatives of states) each row contains. */
typedef struct colctx {
    const fl_index_result *r;
    fl_smap col_of_leaf;
    ivec *out;
    const fl_sgraph *g;
} colctx;

static void col_visit(void *cv, fl_sx x)
{
    colctx *cc = cv;
    int j = fl_smap_get(&cc->col_of_leaf, x);
    if (j < 0) return;
    for (size_t i = 0; i < cc->out->n; i++)
        if (cc->out->v[i] == j) return;
    FL_VEC_PUSH(*cc->out, j);
}

/* Tarjan's strongly connected components over the algebraic unknowns
 * (edges: unknown -> the algebraic unknowns of its matched row), emitted
 * dependencies first (iterative). */
static void blocks(const ivec *adj, const int *roc, fl_index_result *r)
{
    int nc = r->nunk;
    int *idx = fl_xmalloc(sizeof(int) * (size_t)(nc ? nc : 1)), *low = fl_xmalloc(sizeof(int) * (size_t)(nc ? nc : 1));
    unsigned char *on = fl_xcalloc((size_t)nc + 1, 1);
    for (int j = 0; j < nc; j++) idx[j] = -1;
    ivec st = {0}, cs = {0}, cp = {0};
    int counter = 0;
    r->block_row = fl_xmalloc(sizeof(int) * (size_t)(nc ? nc : 1));
    r->block_var = fl_xmalloc(sizeof(int) * (size_t)(nc ? nc : 1));
    r->block_implicit = fl_xcalloc((size_t)(nc ? nc : 1), 1);
    for (int j0 = 0; j0 < nc; j0++) {
        if (r->diff[j0] || idx[j0] >= 0) continue;
        idx[j0] = low[j0] = counter++;
        FL_VEC_PUSH(st, j0);
        on[j0] = 1;
        FL_VEC_PUSH(cs, j0);
        FL_VEC_PUSH(cp, 0);
        while (cs.n) {
            int j = cs.v[cs.n - 1];
            const ivec *a = &adj[roc[j]];
            if (cp.v[cs.n - 1] < (int)a->n) {
                int w = a->v[cp.v[cs.n - 1]++];
                if (r->diff[w] || w == j) continue;
                if (idx[w] < 0) {
                    idx[w] = low[w] = counter++;
                    FL_VEC_PUSH(st, w);
                    on[w] = 1;
                    FL_VEC_PUSH(cs, w);
                    FL_VEC_PUSH(cp, 0);
                } else if (on[w] && idx[w] < low[j]) {
                    low[j] = idx[w];
                }
                continue;
            }
            cs.n--;
            cp.n--;
            if (cs.n && low[j] < low[cs.v[cs.n - 1]]) low[cs.v[cs.n - 1]] = low[j];
            if (low[j] != idx[j]) continue;
            size_t start = st.n;
            while (st.v[start - 1] != j) start--;
            start--;
            int size = (int)(st.n - start);
            for (size_t t = start; t < st.n; t++) {
                int v = st.v[t];
                on[v] = 0;
                r->block_var[r->nblocks] = r->unk[v];
                r->block_row[r->nblocks] = roc[v];
                r->block_implicit[r->nblocks] = size > 1;
                r->nblocks++;
            }
            st.n = start;
        }
    }
    FL_VEC_FREE(st);
    FL_VEC_FREE(cs);
    FL_VEC_FREE(cp);
    free(idx);
    free(low);
    free(on);
}

/* Match the final rows to their unknowns and order the algebraic ones. */
static int match_final(ictx *c, fl_index_result *r)
{
    int nfin = r->nrows, nc = r->nunk;
    colctx cc;
    memset(&cc, 0, sizeof cc);
    cc.r = r;
    cc.g = c->g;
    for (int j = 0; j < nc; j++) {
        int v = r->unk[j];
        fl_smap_put(&cc.col_of_leaf, r->diff[j] ? fl_sx_der(c->g, v) : fl_sx_var(c->g, v), j);
    }
    ivec *adj = fl_xcalloc((size_t)(nfin ? nfin : 1), sizeof(ivec));
    for (int i = 0; i < nfin; i++) {
        cc.out = &adj[i];
        fl_sx roots[1] = {r->res[i]};
        fl_sx_postorder(c->g, roots, 1, col_visit, &cc);
    }
    fl_smap_free(&cc.col_of_leaf);
    int *cor = fl_xmalloc(sizeof(int) * (size_t)(nfin ? nfin : 1));
    int *roc = fl_xmalloc(sizeof(int) * (size_t)(nc ? nc : 1));
    int matched = match_rows(nfin, nc, adj, cor, roc);
    int rc = 0;
    if (matched < nfin || nfin != nc) {
        int bad = 0;
        for (int i = nfin - 1; i >= 0; i--)
            if (cor[i] < 0) bad = i;
        fl_buf b = {0};
        fl_ucls_print(&b, c->p->fc, r->res[bad]);
        fl_err(c->p->d, r->loc[bad], "%s: the equations are structurally singular: this one (as %s = 0) determines no "
                                     "unknown the others leave open",
               c->p->name, b.s);
        fl_buf_free(&b);
        rc = -1;
    } else {
        for (int i = 0; i < nfin; i++) r->row_var[i] = r->unk[cor[i]];
        blocks(adj, roc, r);
    }
    for (int i = 0; i < nfin; i++) FL_VEC_FREE(adj[i]);
    free(adj);
    free(cor);
    free(roc);
    return rc;
}

int fl_index_reduce(const fl_index_problem *p, fl_index_result *r)
{
    memset(r, 0, sizeof *r);
    ictx c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.g = p->g;
    c.dv_of_base = fl_xmalloc(sizeof(int) * (size_t)(p->nv + 1));
    for (int k = 0; k <= p->nv; k++) c.dv_of_base[k] = -1;
    for (int i = 0; i < p->nunk; i++) dvar_get(&c, p->unk[i], p->is_state[p->unk[i]] ? 1 : 0);
    for (int i = 0; i < p->nrows; i++) add_row(&c, p->res[i], p->loc[i], -1);
    int rc = 0;
    unsigned char *dummy = NULL;
    if (pantelides(&c)) {
        fl_err(p->d, p->nrows ? p->loc[0] : fl_noloc, "%s: %s", p->name,
               c.failed == 2 ? "an equation that index reduction must differentiate contains something flange cannot "
                               "differentiate (a derivative of a function's derivative)"
                             : "the equations are structurally singular: some of them determine no unknown (they "
                               "repeat or contradict the others)");
        rc = -1;
        goto done;
    }
    dummy = fl_xcalloc(c.dv.n + 1, 1);
    if ((int)c.rows.n > p->nrows && dummy_derivatives(&c, dummy)) {
        fl_err(p->d, p->loc[0], "%s: index reduction found no regular choice of states at the start values", p->name);
        rc = -1;
        goto done;
    }
    {
        fl_sx *leaf = fl_xmalloc(sizeof(fl_sx) * (c.dv.n + 1));
        ivec unk = {0}, extra = {0};
        bvec diff = {0};
        final_unknowns(&c, dummy, leaf, &unk, &diff, &extra);
        rewrite_rows(&c, leaf, &extra, r);
        r->nunk = (int)unk.n;
        r->unk = unk.v;
        r->diff = diff.v;
        free(leaf);
        FL_VEC_FREE(extra);
        rc = match_final(&c, r);
    }
done:
    free(dummy);
    for (size_t i = 0; i < c.inc.n; i++) FL_VEC_FREE(c.inc.v[i]);
    FL_VEC_FREE(c.inc);
    FL_VEC_FREE(c.rows);
    FL_VEC_FREE(c.rloc);
    FL_VEC_FREE(c.rder);
    FL_VEC_FREE(c.rsrc);
    FL_VEC_FREE(c.assign);
    FL_VEC_FREE(c.dv);
    free(c.dv_of_base);
    return rc;
}

void fl_index_result_free(fl_index_result *r)
{
    free(r->res);
    free(r->loc);
    free(r->row_var);
    free(r->unk);
    free(r->diff);
    free(r->block_row);
    free(r->block_var);
    free(r->block_implicit);
    free(r->map_from);
    free(r->map_to);
    memset(r, 0, sizeof *r);
}
