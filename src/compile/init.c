/* init.c - the initialisation system: the DAE residuals plus one equation
 * per initial condition (start values with fixed = true, initial equations
 * of filtered sources), in the unknowns y and the derivatives of the
 * differential unknowns. Checks by structural matching that it is square
 * and regular, naming the states that lack a condition or the conditions
 * that are redundant; weak conditions (documented tool defaults such as
 * ConstantSpeed.s = 0) fill gaps only. Where the model leaves states
 * undetermined, the start values of the variables that are not fixed
 * complete the conditions with a warning each, as Modelica tools do
 * (strict: an error instead). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"

/* Per-variable warnings about start values used; the rest are counted. */
#define FL_FILL_WARNINGS 20

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

/* What locating a condition's entries reads: the fields of a compiling
 * fl_cond or of a run's fl_rcond (whose ref is the element). */
typedef struct cond_key {
    int source, elem, row, node_p, node_m, level;
} cond_key;

static cond_key key_of(const fl_cond *c)
{
    return (cond_key){(int)c->source, c->elem, c->row, c->node_p, c->node_m, c->level};
}

static cond_key rkey_of(const fl_rcond *c)
{
    return (cond_key){(int)c->source, c->ref, c->row, c->node_p, c->node_m, (int)c->level};
}

static int key_cols(const fl_system *s, const cond_key *c, int col[2], double coef[2])
{
    if (c->source == CV_OWN) {
        col[0] = s->elems[c->elem].own + c->row;
        coef[0] = 1;
        return 1;
    }
    if (c->source == CV_ELEM) return 0; /* several columns, computed by the element */
    /* a node moves with ratio times its body's coordinate */
    col[0] = cond_col(s, c->node_p, c->level);
    coef[0] = c->node_p >= 0 ? s->nodes[c->node_p].ratio : 1;
    col[1] = cond_col(s, c->node_m, c->level);
    coef[1] = c->node_m >= 0 ? -s->nodes[c->node_m].ratio : -1;
    if (col[0] >= 0 && col[0] == col[1]) {
        /* two points of one body: a lever's relative motion still moves with it */
        double sum = coef[0] + coef[1];
        col[1] = -1;
        if (fabs(sum) <= 1e-12 * (fabs(coef[0]) + fabs(coef[1]))) col[0] = -1;
        coef[0] = sum;
    }
    return 2;
}

int fl_cond_cols(const fl_system *s, const fl_cond *c, int col[2], double coef[2])
{
    cond_key k = key_of(c);
    return key_cols(s, &k, col, coef);
}

/* Init-matrix column of local column lc of element e (initial rows), and
 * in *mult the factor of the local partial there (a node's ratio). */
static int elem_init_cols(const fl_system *s, const fl_elem *el, int lc, int col[2], double mult[2])
{
    const fl_elem_ops *ops = fl_inst_ops(s, el->inst);
    int na = fl_ops_natt(ops), n = s->n;
    mult[0] = mult[1] = 1;
    if (lc < 3 * na) {
        int node = s->elem_node[fl_att_slot(el, lc / 3)];
        if (node >= 0) mult[0] = s->nodes[node].ratio;
        col[0] = cond_col(s, node, lc % 3);
        return 1;
    }
    lc -= 3 * na;
    if (lc < ops->nown) {
        col[0] = el->own + lc;
        return 1;
    }
    lc -= ops->nown;
    if (lc < ops->nown) {
        col[0] = s->dpos[el->own + lc] >= 0 ? n + s->dpos[el->own + lc] : -1;
        return 1;
    }
    lc -= ops->nown;
    if (ops->nin <= 0) return 0;
    /* an input (d = 0) or its d-th time derivative (the columns after the
     * inputs' own, initial equations only: der(spring.w_rel) = 0) */
    int d = lc / ops->nin, in = lc % ops->nin;
    const fl_sigref *sr = &s->sigs[el->sig + in];
    if (sr->kind == SIG_KIN && sr->level + d <= 2) {
        int k = 0;
        for (int j = 0; j < 2; j++) {
            int node = sr->node[j];
            if (node < 0) continue;
            col[k] = cond_col(s, node, sr->level + d);
            mult[k] = (j ? -1 : 1) * s->nodes[node].ratio;
            k++;
        }
        return k;
    }
    if (sr->kind == SIG_Y && d == 0) {
        col[0] = s->elems[sr->inst].own + sr->out;
        return 1;
    }
    return 0;
}

/* The init-matrix entries of the initial equation `row` that element
 * elem computes (a CV_ELEM condition): fn(u, dep, col, mult) for each of
 * its columns that is an unknown, dep its class's dependency. */
typedef void (*entry_fn)(void *u, int dep, int col, double mult);
static void elem_row_entries(const fl_system *s, int elem, int row, entry_fn fn, void *u)
{
    const fl_elem *el = &s->elems[elem];
    const fl_elem_ops *ops = fl_inst_ops(s, el->inst);
    for (int q = 0; q < ops->ninit_dep; q++) {
        if (ops->init_dep_rc[2 * q] != row) continue;
        int col[2];
        double mult[2];
        int nc = elem_init_cols(s, el, ops->init_dep_rc[2 * q + 1], col, mult);
        for (int j = 0; j < nc; j++)
            if (col[j] >= 0) fn(u, q, col[j], mult[j]);
    }
}

static void count_entry(void *u, int dep, int col, double mult)
{
    (void)dep, (void)col, (void)mult;
    ++*(int *)u;
}

/* Does condition c involve an unknown (is it more than a statement about
 * known quantities)? */
static int cond_involves(const fl_system *s, const fl_cond *c)
{
    if (c->source == CV_ELEM) {
        int n = 0;
        elem_row_entries(s, c->elem, c->row, count_entry, &n);
        return n > 0;
    }
    int col[2];
    double coef[2];
    int n = fl_cond_cols(s, c, col, coef);
    for (int i = 0; i < n; i++)
        if (col[i] >= 0) return 1;
    return 0;
}

/* Does condition c fix column i directly? */
static int cond_on_col(const fl_system *s, const fl_cond *c, int i)
{
    int col[2];
    double coef[2];
    int n = fl_cond_cols(s, c, col, coef);
    for (int k = 0; k < n; k++)
        if (col[k] == i) return 1;
    return 0;
}

/* The initialisation's pattern for a list of conditions (rows n + k),
 * with what keeping it as the system's needs: the data slot of every
 * pair listed (the Jacobian's entries in their order, then the
 * conditions', then the rows elements compute), and the conditions'
 * entries and the elements' rows as records. */
typedef struct ipattern {
    fl_csc pat;
    int *slot;
    size_t cbase, ebase; /* where the conditions' pairs and the elements' rows start */
    ivec crow, ccol;
    dvec ccoef;
    FL_VEC(struct fl_ientry) ient;
} ipattern;

static void ipattern_free(ipattern *ip)
{
    fl_csc_free(&ip->pat);
    free(ip->slot);
    FL_VEC_FREE(ip->crow);
    FL_VEC_FREE(ip->ccol);
    FL_VEC_FREE(ip->ccoef);
    FL_VEC_FREE(ip->ient);
    memset(ip, 0, sizeof *ip);
}

/* An element row's entry pushed as build_pattern lists them. */
typedef struct push_at {
    ivec *rows, *cols;
    ipattern *ip;
    int row, elem;
} push_at;

static void push_entry(void *u, int dep, int col, double mult)
{
    push_at *pa = u;
    FL_VEC_PUSH(*pa->rows, pa->row);
    FL_VEC_PUSH(*pa->cols, col);
    struct fl_ientry ie = {pa->elem, dep, -1, mult};
    FL_VEC_PUSH(pa->ip->ient, ie);
}

static void build_pattern(fl_system *s, const int *conds, int ncond, ipattern *ip)
{
    int n = s->n, N = n + s->nd;
    memset(ip, 0, sizeof *ip);
    ivec rows = {0}, cols = {0};
    /* the Jacobian's entries and at most two per condition: no doubling on the way */
    int nent = fl_jent_total(s);
    size_t cap = (size_t)nent + 2 * (size_t)ncond + 8;
    rows.v = fl_xmalloc(sizeof(int) * cap);
    rows.cap = cap;
    cols.v = fl_xmalloc(sizeof(int) * cap);
    cols.cap = cap;
    fl_jiter it = fl_jiter_start(s);
    fl_jentry e;
    while (fl_jiter_next(&it, &e)) { /* (entries kept by rule: compile/jrules.c) */
        int r = fl_jent_row(s, &e), c = fl_jent_col(s, &e);
        if (e.cj) c = s->dpos[c] >= 0 ? n + s->dpos[c] : -1;
        FL_VEC_PUSH(rows, r);
        FL_VEC_PUSH(cols, c);
    }
    ip->cbase = rows.n;
    for (int k = 0; k < ncond; k++) {
        const fl_cond *c = &s->conds[conds[k]];
        int col[2];
        double coef[2];
        int nc = fl_cond_cols(s, c, col, coef);
        for (int q = 0; q < nc; q++) {
            if (col[q] < 0) continue;
            FL_VEC_PUSH(rows, n + k);
            FL_VEC_PUSH(cols, col[q]);
            FL_VEC_PUSH(ip->crow, n + k);
            FL_VEC_PUSH(ip->ccol, col[q]);
            FL_VEC_PUSH(ip->ccoef, coef[q]);
        }
    }
    /* rows elements compute: after the constant ones */
    ip->ebase = rows.n;
    for (int k = 0; k < ncond; k++) {
        const fl_cond *c = &s->conds[conds[k]];
        if (c->source != CV_ELEM) continue;
        push_at pa = {&rows, &cols, ip, n + k, c->elem};
        elem_row_entries(s, c->elem, c->row, push_entry, &pa);
    }
    ip->slot = fl_xmalloc(sizeof(int) * (rows.n ? rows.n : 1));
    fl_csc_build(&ip->pat, n + ncond, N, rows.v, cols.v, (int)rows.n, ip->slot);
    FL_VEC_FREE(rows);
    FL_VEC_FREE(cols);
}

/* The pattern's slots go to the Jacobian's entries (islot) and to the
 * conditions' and elements' entries; the system keeps its dimensions
 * alone (ipat): a run makes its arrays again from the slots for its
 * initialisation (fl_init_pattern), which at 10^5 wagons saves 6 MB
 * through the whole run. */
static void keep_pattern(fl_system *s, ipattern *ip)
{
    s->ipat = (fl_csc){ip->pat.n, ip->pat.ncol, ip->pat.nnz, NULL, NULL};
    fl_jrules_set(s, ip->slot, FL_JR_ISLOT);
    s->ncentry = (int)(ip->ebase - ip->cbase);
    s->cslot = fl_xmalloc(sizeof(int) * (size_t)(s->ncentry ? s->ncentry : 1));
    int ones = 1;
    for (int k = 0; k < s->ncentry; k++) {
        s->cslot[k] = ip->slot[ip->cbase + (size_t)k];
        ones &= ip->ccoef.v[k] == 1.0;
    }
    if (!ones) {
        s->ccoef = fl_xmalloc(sizeof(double) * (size_t)s->ncentry);
        memcpy(s->ccoef, ip->ccoef.v, sizeof(double) * (size_t)s->ncentry);
    }
    s->nientry = (int)ip->ient.n;
    s->ientry = ip->ient.v;
    ip->ient.v = NULL;
    for (int k = 0; k < s->nientry; k++) s->ientry[k].islot = ip->slot[ip->ebase + (size_t)k];
    ipattern_free(ip);
}

/* One augmenting-path search from row r0 (depth first, with an explicit
 * stack): matches r0 without unmatching any row matched before. Columns
 * marked with this stamp are known to lead nowhere. Returns 1 on success. */
static int augment(int r0, const int *rp, const int *ci, int *roc, int *cor, int *visit, int stamp, int *srow,
                   int *spos, int *scol)
{
    int top = 0;
    srow[0] = r0;
    spos[0] = rp[r0];
    while (top >= 0) {
        int r = srow[top];
        if (spos[top] >= rp[r + 1]) {
            top--;
            continue;
        }
        int j = ci[spos[top]++];
        if (visit[j] == stamp) continue;
        visit[j] = stamp;
        scol[top] = j;
        if (roc[j] < 0) {
            for (int t = top; t >= 0; t--) {
                roc[scol[t]] = srow[t];
                cor[srow[t]] = scol[t];
            }
            return 1;
        }
        top++;
        srow[top] = roc[j];
        spos[top] = rp[roc[j]];
    }
    return 0;
}

/* Under-determined initial conditions: complete them from the start values
 * of variables that are not fixed, in the order of their priority (a start
 * value the model gives first, then by stateSelect), taking a condition
 * only where it determines something still free. The matching roc/cor of
 * the model rows and the conditions in `order` is extended: a condition
 * taken never displaces one matched before. Appends the conditions taken
 * to used, with a warning each; returns how many. */
static int fill_from_start_values(fl_system *s, const int *order, int norder, int *roc, int **cor, ivec *used,
                                  fl_diag *d)
{
    int n = s->n, N = n + s->nd;
    FL_VEC(int) cand = {0};
    for (int k = 0; k < s->ncond; k++) {
        const fl_cond *c = &s->conds[k];
        if (c->weak != 2 || c->level > 1 || (c->source != CV_ATTR && c->source != CV_OWN)) continue;
        if (!cond_involves(s, c)) continue;
        FL_VEC_PUSH(cand, k);
    }
    /* by priority, then in the order of the model (a stable sort by index) */
    for (size_t i = 1; i < cand.n; i++) {
        int x = cand.v[i];
        size_t j = i;
        while (j > 0 && s->conds[cand.v[j - 1]].prio > s->conds[x].prio) {
            cand.v[j] = cand.v[j - 1];
            j--;
        }
        cand.v[j] = x;
    }
    int nrow0 = n + norder, nrow = nrow0 + (int)cand.n;
    int *all = fl_xmalloc(sizeof(int) * (size_t)(nrow - n ? nrow - n : 1));
    if (norder) memcpy(all, order, sizeof(int) * (size_t)norder);
    if (cand.n) memcpy(all + norder, cand.v, sizeof(int) * cand.n);
    ipattern ip;
    build_pattern(s, all, nrow - n, &ip);
    free(all);
    fl_csc pat = ip.pat;
    memset(&ip.pat, 0, sizeof ip.pat);
    ipattern_free(&ip);
    /* rows -> columns */
    int *rp = fl_xcalloc((size_t)nrow + 1, sizeof(int));
    for (int k = 0; k < pat.nnz; k++) rp[pat.rowind[k] + 1]++;
    for (int i = 0; i < nrow; i++) rp[i + 1] += rp[i];
    int *ci = fl_xmalloc(sizeof(int) * (size_t)(pat.nnz ? pat.nnz : 1));
    int *fill = fl_xcalloc((size_t)nrow + 1, sizeof(int));
    for (int j = 0; j < N; j++)
        for (int k = pat.colptr[j]; k < pat.colptr[j + 1]; k++) ci[rp[pat.rowind[k]] + fill[pat.rowind[k]]++] = j;
    free(fill);
    fl_csc_free(&pat);
    *cor = fl_xrealloc(*cor, sizeof(int) * (size_t)(nrow ? nrow : 1));
    for (int r = nrow0; r < nrow; r++) (*cor)[r] = -1;
    int *visit = fl_xcalloc((size_t)(N ? N : 1), sizeof(int));
    int *srow = fl_xmalloc(sizeof(int) * (size_t)(nrow + 1));
    int *spos = fl_xmalloc(sizeof(int) * (size_t)(nrow + 1));
    int *scol = fl_xmalloc(sizeof(int) * (size_t)(nrow + 1));
    int free_cols = 0;
    for (int j = 0; j < N; j++) free_cols += roc[j] < 0;
    int stamp = 1, taken = 0, warned = 0;
    for (size_t i = 0; i < cand.n && free_cols > 0; i++) {
        if (!augment(nrow0 + (int)i, rp, ci, roc, *cor, visit, stamp, srow, spos, scol)) continue;
        stamp++; /* the matching changed: forget the dead ends */
        free_cols--;
        fl_cond *c = &s->conds[cand.v[i]];
        c->filled = 1;
        FL_VEC_PUSH(*used, cand.v[i]);
        taken++;
        if (c->quiet) continue; /* a NoInit block's x_start, y_start: as Modelica tools, silently */
        if (warned++ < FL_FILL_WARNINGS) {
            char v[40];
            fl_fmt_double(v, sizeof v, c->value);
            fl_warn(d, c->loc, "initial conditions are under-determined: using the start value of %s (= %s)",
                    c->label, v);
        }
    }
    if (warned > FL_FILL_WARNINGS)
        fl_warn(d, fl_noloc,
                "initial conditions are under-determined: the start values of %d more variables are used as well "
                "(`flange check` lists them all)",
                warned - FL_FILL_WARNINGS);
    free(visit);
    free(srow);
    free(spos);
    free(scol);
    free(rp);
    free(ci);
    FL_VEC_FREE(cand);
    return taken;
}

/* Where to point at for an undetermined unknown i: a variable one could
 * fix, else a component attached to it. */
static fl_loc unknown_loc(const fl_system *s, int i)
{
    for (int k = 0; k < s->ncond; k++) {
        const fl_cond *c = &s->conds[k];
        if (c->weak == 2 && c->level <= 1 && c->loc.file && cond_on_col(s, c, i)) return c->loc;
    }
    return fl_unknown_loc(s, i);
}

fl_loc fl_unknown_loc(const fl_system *s, int i)
{
    for (int b = 0; b < s->nbodies; b++) {
        if (s->bodies[b].qi != i && s->bodies[b].vi != i) continue;
        for (int k = 0; k < s->ninst; k++)
            for (int p = s->insts[k].port0; p < s->insts[k].port0 + s->insts[k].cls->nports; p++)
                if (s->ports[p].node >= 0 && s->nodes[s->ports[p].node].body == b) return fl_inst_loc(s, k);
    }
    for (int e = 0; e < s->nelem; e++) {
        const fl_elem *el = &s->elems[e];
        const fl_elem_ops *ops = fl_inst_ops(s, el->inst);
        if (el->own >= 0 && i >= el->own && i < el->own + ops->nown) {
            if (ops->own_locs && ops->own_locs[i - el->own].file && !fl_loc_is_bundled(ops->own_locs[i - el->own]))
                return ops->own_locs[i - el->own];
            return fl_inst_loc(s, el->inst);
        }
    }
    return fl_noloc;
}

int fl_compile_init(fl_system *s, int strict, fl_diag *d)
{
    int n = s->n, N = n + s->nd;
    /* every condition must involve an unknown */
    int rc = 0;
    for (int k = 0; k < s->ncond; k++) {
        const fl_cond *c = &s->conds[k];
        if (c->weak == 2) continue;
        if (!cond_involves(s, c)) {
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
    /* strong conditions first, then weak ones (matched only if needed);
     * among the strong ones first the initial rows of flange's own classes,
     * which are equations of the model (LossyGear's angle relation), so that
     * a redundant condition named is one the user wrote */
    ivec order = {0};
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < s->ncond; k++) {
            const fl_cond *c = &s->conds[k];
            int model_row = c->source == CV_ELEM && !s->insts[s->elems[c->elem].inst].cls->user;
            if (!c->weak && model_row == !pass) FL_VEC_PUSH(order, k);
        }
    int nstrong = (int)order.n;
    for (int k = 0; k < s->ncond; k++)
        if (s->conds[k].weak == 1 && cond_involves(s, &s->conds[k]))
            FL_VEC_PUSH(order, k);
    /* (kept for the system's pattern, which it is when every condition
     * listed is used in this order: the common case) */
    ipattern ip;
    build_pattern(s, order.v, (int)order.n, &ip);
    int nrow = n + (int)order.n;
    int *roc = fl_xmalloc(sizeof(int) * (size_t)(N ? N : 1));
    int *cor = fl_xmalloc(sizeof(int) * (size_t)(nrow ? nrow : 1));
    fl_match(&ip.pat, nrow, roc, cor);

    ivec used = {0};
    fl_buf over = {0};
    int nover = 0, over_first = -1;
    for (int k = 0; k < (int)order.n; k++) {
        if (cor[n + k] >= 0) FL_VEC_PUSH(used, order.v[k]);
        else if (k < nstrong) {
            if (over_first < 0) over_first = order.v[k];
            fl_buf_printf(&over, "%s%s", nover ? ", " : "", s->conds[order.v[k]].label);
            nover++;
        }
    }
    int nfree = 0;
    for (int c = 0; c < N; c++) nfree += roc[c] < 0;
    if (nfree && s->nidle) {
        /* under-determined: completing the conditions, or saying what is
         * missing, reads the start values nobody gave; with them in
         * place (weak 2: no part of the order, the pattern or the matching
         * above), the same analysis again */
        fl_buf_free(&over);
        FL_VEC_FREE(used);
        free(roc);
        free(cor);
        FL_VEC_FREE(order);
        ipattern_free(&ip);
        fl_conds_wake(s);
        return fl_compile_init(s, strict, d);
    }
    if (nfree && !strict) fill_from_start_values(s, order.v, (int)order.n, roc, &cor, &used, d);
    fl_buf under = {0}, cand = {0};
    int nunder = 0, ncand = 0;
    fl_loc under_loc = fl_noloc;
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
        if (nunder < 12) fl_buf_printf(&under, "%s%s", nunder ? ", " : "", fl_unk_name(s, i));
        if (!nunder) under_loc = unknown_loc(s, i);
        nunder++;
        for (int k = 0; k < s->ncond && ncand < 8; k++) {
            const fl_cond *cd = &s->conds[k];
            if (cd->weak != 2 || cd->level > 1) continue;
            if (!cond_on_col(s, cd, i)) continue;
            if (cand.s && strstr(cand.s, cd->label)) continue;
            fl_buf_printf(&cand, "%s%s", ncand ? ", " : "", cd->label);
            ncand++;
        }
    }
    int model_rows_unmatched = 0;
    for (int r = 0; r < n; r++)
        if (cor[r] < 0) model_rows_unmatched++;
    if (nover) {
        fl_err(d, s->conds[over_first].loc,
               "initial conditions are over-determined: %s %s redundant (%s already determined by the "
               "other conditions and the model); remove fixed = true from %s",
               over.s, nover == 1 ? "is" : "are", nover == 1 ? "it is" : "they are", nover == 1 ? "it" : "some");
        rc = -1;
    }
    if (nunder) {
        if (ncand)
            fl_err(d, under_loc,
                   "initial conditions are under-determined: %d more needed; nothing fixes %s%s; "
                   "set fixed = true (and a start value) on %s%s",
                   nunder, under.s, nunder > 12 ? ", ..." : "", nunder > 1 ? "some of: " : "one of: ", cand.s);
        else
            fl_err(d, under_loc,
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
    int same = used.n == order.n && (!used.n || memcmp(used.v, order.v, sizeof(int) * used.n) == 0);
    FL_VEC_FREE(order);
    if (rc || !same) ipattern_free(&ip);
    if (rc) {
        FL_VEC_FREE(used);
        return rc;
    }
    s->cond_used = used.v;
    s->ncond_used = (int)used.n;
    if (!same) build_pattern(s, s->cond_used, s->ncond_used, &ip);
    keep_pattern(s, &ip);
    return 0;
}

/* ---- the pattern again, for a run ------------------------------------- */

/* Where fl_init_pattern writes: an entry's row at its slot, and its
 * column's end at least past it. */
typedef struct ipat_fill {
    fl_csc *p;
    const struct fl_ientry *ient; /* the element rows' entries, in order */
    int next, row;
} ipat_fill;

static void ipat_put(fl_csc *p, int slot, int row, int col)
{
    p->rowind[slot] = row;
    if (p->colptr[col + 1] < slot + 1) p->colptr[col + 1] = slot + 1;
}

static void fill_entry(void *u, int dep, int col, double mult)
{
    (void)dep, (void)mult;
    ipat_fill *f = u;
    ipat_put(f->p, f->ient[f->next++].islot, f->row, col);
}

/* The column of slot k of a pattern (its colptr's last start at or before k). */
static int csc_col(const fl_csc *p, int k)
{
    int lo = 0, hi = p->ncol; /* colptr[lo] <= k < colptr[hi] */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (p->colptr[mid] <= k) lo = mid;
        else hi = mid;
    }
    return lo;
}

int fl_init_pattern(const fl_system *s, fl_csc *p)
{
    int n = s->n;
    memset(p, 0, sizeof *p);
    p->n = s->ipat.n;
    p->ncol = s->ipat.ncol;
    p->nnz = s->ipat.nnz;
    p->colptr = fl_xcalloc((size_t)p->ncol + 1, sizeof(int));
    p->rowind = fl_xmalloc(sizeof(int) * (size_t)(p->nnz ? p->nnz : 1));
    /* the entries as build_pattern listed them, each at the slot keep_pattern gave it */
    fl_jiter it = fl_jiter_start(s);
    fl_jentry e;
    while (fl_jiter_next(&it, &e)) {
        if (e.islot < 0) continue;
        int c = csc_col(&s->jpat, e.slot);
        ipat_put(p, e.islot, s->jpat.rowind[e.slot], e.cj ? n + s->dpos[c] : c);
    }
    int j = 0;
    for (int k = 0; k < s->ncond_used; k++) {
        cond_key key = rkey_of(&s->rconds[fl_cond_used(s, k)]);
        int col[2];
        double coef[2];
        int nc = key_cols(s, &key, col, coef);
        for (int q = 0; q < nc; q++)
            if (col[q] >= 0) ipat_put(p, s->cslot[j++], n + k, col[q]);
    }
    ipat_fill f = {p, s->ientry, 0, 0};
    for (int k = 0; k < s->ncond_used; k++) {
        const fl_rcond *c = &s->rconds[fl_cond_used(s, k)];
        if (c->source != CV_ELEM) continue;
        f.row = n + k;
        elem_row_entries(s, c->ref, c->row, fill_entry, &f);
    }
    for (int c = 0; c < p->ncol; c++)
        if (p->colptr[c + 1] < p->colptr[c]) p->colptr[c + 1] = p->colptr[c]; /* (empty columns) */
    if (j == s->ncentry && f.next == s->nientry && p->colptr[p->ncol] == p->nnz) return 0;
    fl_csc_free(p); /* (a system whose records disagree: not one compiling made) */
    return -1;
}
