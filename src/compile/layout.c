/* layout.c - numbers the unknowns, lays out residual rows, builds the
 * Jacobian entry list (how each local partial derivative of a component
 * reaches the global matrices) and the sparse patterns, and checks that the
 * DAE is structurally regular. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"

const char *fl_body_kind_name(fl_body_kind k)
{
    switch (k) {
    case B_GROUND: return "fixed";
    case B_POS: return "prescribed position";
    case B_VEL: return "prescribed speed";
    case B_ACC: return "prescribed acceleration";
    case B_FREE: return "free";
    case B_MLV: return "massless (damped)";
    case B_MLQ: return "massless";
    }
    return "?";
}

/* ---- sparse patterns --------------------------------------------------- */

/* Stable counting sort of the m pair indices in[] by key[in[k] * stride]
 * (keys in [0, nkeys)), into out: the pairs themselves are not copied. */
static void count_sort(const int *in, int *out, int m, const int *key, size_t stride, int nkeys)
{
    int *start = fl_xcalloc((size_t)nkeys + 1, sizeof(int));
    for (int k = 0; k < m; k++) start[key[(size_t)in[k] * stride] + 1]++;
    for (int j = 0; j < nkeys; j++) start[j + 1] += start[j];
    for (int k = 0; k < m; k++) out[start[key[(size_t)in[k] * stride]]++] = in[k];
    free(start);
}

/* fl_csc_build with pair i at rows[i * rstride], cols[i * cstride]. */
static void csc_build(fl_csc *c, int nrow, int ncol, const int *rows, size_t rstride, const int *cols,
                      size_t cstride, int npairs, int *slot)
{
    memset(c, 0, sizeof *c);
    c->n = nrow;
    c->ncol = ncol;
    int *t = fl_xmalloc(sizeof(int) * (size_t)(npairs ? npairs : 1));
    int m = 0;
    for (int i = 0; i < npairs; i++)
        if (rows[(size_t)i * rstride] >= 0 && cols[(size_t)i * cstride] >= 0) t[m++] = i;
    /* by column, then row: two linear passes instead of a comparison sort
     * (through slot, which is filled only afterwards: on a big model these
     * scratch arrays are part of the compile's peak memory) */
    int *u = slot ? slot : fl_xmalloc(sizeof(int) * (size_t)(m ? m : 1));
    count_sort(t, u, m, rows, rstride, nrow);
    count_sort(u, t, m, cols, cstride, ncol);
    if (slot)
        for (int i = 0; i < npairs; i++) slot[i] = -1; /* (pairs left out keep it) */
    else
        free(u);
    c->colptr = fl_xcalloc((size_t)ncol + 1, sizeof(int));
    c->rowind = fl_xmalloc(sizeof(int) * (size_t)(m ? m : 1));
    int nnz = 0, pr = -1, pc = -1;
    for (int k = 0; k < m; k++) {
        int r = rows[(size_t)t[k] * rstride], col = cols[(size_t)t[k] * cstride];
        if (k == 0 || r != pr || col != pc) {
            c->rowind[nnz] = r;
            c->colptr[col + 1]++;
            nnz++;
        }
        pr = r;
        pc = col;
        if (slot) slot[t[k]] = nnz - 1;
    }
    for (int j = 0; j < ncol; j++) c->colptr[j + 1] += c->colptr[j];
    c->nnz = nnz;
    free(t);
    /* duplicates share a slot: the pattern keeps nnz rows, not one per pair */
    c->rowind = fl_shrink(c->rowind, sizeof(int) * (size_t)(nnz ? nnz : 1));
}

void fl_csc_build(fl_csc *c, int nrow, int ncol, const int *rows, const int *cols, int npairs, int *slot)
{
    csc_build(c, nrow, ncol, rows, 1, cols, 1, npairs, slot);
}

void fl_csc_free(fl_csc *c)
{
    free(c->colptr);
    free(c->rowind);
    memset(c, 0, sizeof *c);
}

int fl_csc_diagonal(const fl_csc *c)
{
    if (c->nnz != c->n || c->ncol != c->n) return 0;
    if (!c->colptr) return 1; /* (kept without its arrays) */
    for (int j = 0; j < c->n; j++)
        if (c->colptr[j + 1] != j + 1 || c->rowind[j] != j) return 0;
    return 1;
}

void fl_csc_drop_diagonal(fl_csc *c)
{
    if (!c->colptr || !fl_csc_diagonal(c)) return;
    free(c->colptr);
    free(c->rowind);
    c->colptr = c->rowind = NULL;
}

/* Maximum matching by augmenting paths (iterative depth-first search, so
 * that chains of a million bodies do not exhaust the stack). */
int fl_match(const fl_csc *c, int nrow, int *row_of_col, int *col_of_row)
{
    int ncol = c->ncol;
    for (int j = 0; j < ncol; j++) row_of_col[j] = -1;
    for (int i = 0; i < nrow; i++) col_of_row[i] = -1;
    /* row -> columns adjacency (transpose) */
    int *rp = fl_xcalloc((size_t)nrow + 1, sizeof(int));
    for (int k = 0; k < c->nnz; k++) rp[c->rowind[k] + 1]++;
    for (int i = 0; i < nrow; i++) rp[i + 1] += rp[i];
    int *ci = fl_xmalloc(sizeof(int) * (size_t)(c->nnz ? c->nnz : 1));
    int *fill = fl_xcalloc((size_t)(nrow ? nrow : 1), sizeof(int));
    for (int j = 0; j < ncol; j++)
        for (int k = c->colptr[j]; k < c->colptr[j + 1]; k++) {
            int r = c->rowind[k];
            ci[rp[r] + fill[r]++] = j;
        }
    free(fill);
    int matched = 0;
    /* Cheap greedy pass first. Columns are tried from the highest index
     * down: in the initialisation system the derivatives come last, so the
     * model equations take derivatives and conditions keep their states,
     * which makes the unmatched columns name what is really missing. */
    for (int i = 0; i < nrow; i++)
        for (int k = rp[i + 1] - 1; k >= rp[i]; k--)
            if (row_of_col[ci[k]] < 0) {
                row_of_col[ci[k]] = i;
                col_of_row[i] = ci[k];
                matched++;
                break;
            }
    int *visit = fl_xcalloc((size_t)(ncol ? ncol : 1), sizeof(int));
    int *stack_row = fl_xmalloc(sizeof(int) * (size_t)(nrow + 1));
    int *stack_pos = fl_xmalloc(sizeof(int) * (size_t)(nrow + 1));
    int *stack_col = fl_xmalloc(sizeof(int) * (size_t)(nrow + 1));
    int stamp = 0;
    for (int i0 = 0; i0 < nrow; i0++) {
        if (col_of_row[i0] >= 0) continue;
        stamp++;
        int top = 0;
        stack_row[0] = i0;
        stack_pos[0] = rp[i0];
        int found = -1;
        while (top >= 0 && found < 0) {
            int r = stack_row[top];
            if (stack_pos[top] >= rp[r + 1]) {
                top--;
                continue;
            }
            int j = ci[stack_pos[top]++];
            if (visit[j] == stamp) continue;
            visit[j] = stamp;
            stack_col[top] = j;
            if (row_of_col[j] < 0) {
                found = top;
                break;
            }
            top++;
            stack_row[top] = row_of_col[j];
            stack_pos[top] = rp[row_of_col[j]];
        }
        if (found >= 0) {
            for (int t = found; t >= 0; t--) {
                int r = stack_row[t], j = stack_col[t];
                row_of_col[j] = r;
                col_of_row[r] = j;
            }
            matched++;
        }
    }
    free(visit);
    free(stack_row);
    free(stack_pos);
    free(stack_col);
    free(rp);
    free(ci);
    return matched;
}

int fl_ops_uses_column(const fl_elem_ops *ops, int col)
{
    if (ops->ndep) {
        for (int k = 0; k < ops->ndep; k++)
            if (ops->dep_rc[2 * k + 1] == col) return 1;
        return 0;
    }
    if (col >= 64) return 0;
    for (int r = 0; r < 2 + ops->nown; r++)
        if (ops->dep[r] & (1ULL << col)) return 1;
    return 0;
}

/* ---- unknowns ---------------------------------------------------------- */

typedef struct pend {
    int row, col;
    fl_jentry e;
} pend;
typedef FL_VEC(pend) pend_vec;

static void add_entry(pend_vec *v, int row, int col, int src, double mult, int cj)
{
    if (row < 0 || col < 0) return;
    pend p;
    p.row = row;
    p.col = col;
    p.e.src = src;
    p.e.mult = mult;
    p.e.cj = cj != 0;
    p.e.slot = p.e.islot = p.e.rslot = -1;
    FL_VEC_PUSH(*v, p);
}

/* Columns of the kinematic quantity `level` of a node: adds entries for
 * row with local source src and multiplier sign times the node's ratio
 * (d s_node / d q = ratio, and so for v and a). */
static void add_kin(const fl_system *s, pend_vec *v, int row, int node, int level, int src, double sign)
{
    if (node < 0) return;
    const fl_body *bd = &s->bodies[s->nodes[node].body];
    sign *= s->nodes[node].ratio;
    if (level == 0) add_entry(v, row, bd->qi, src, sign, 0);
    else if (level == 1 && bd->kind != B_VEL) add_entry(v, row, bd->vi, src, sign, 0);
    else if (level == 2 && bd->kind != B_VEL) add_entry(v, row, bd->vi, src, sign, 1);
}

/* The global columns of local column c of an element, for the entry
 * at `row` whose value is jloc[src] times rmult (the ratio of the
 * attachment whose force the row collects, 1 for own rows). */
static void add_local(const fl_system *s, pend_vec *pv, const fl_elem *el, const fl_elem_ops *ops, int row, int c,
                      int src, double rmult)
{
    int na = fl_ops_natt(ops);
    if (c < 3 * na) {
        add_kin(s, pv, row, s->elem_node[fl_att_slot(el, c / 3)], c % 3, src, rmult);
    } else if (c < 3 * na + ops->nown) {
        add_entry(pv, row, el->own + c - 3 * na, src, rmult, 0);
    } else if (c < 3 * na + 2 * ops->nown) {
        add_entry(pv, row, el->own + c - 3 * na - ops->nown, src, rmult, 1);
    } else {
        const fl_sigref *sr = &s->sigs[el->sig + c - 3 * na - 2 * ops->nown];
        if (sr->kind == SIG_KIN) {
            add_kin(s, pv, row, sr->node[0], sr->level, src, rmult);
            add_kin(s, pv, row, sr->node[1], sr->level, src, -rmult);
        } else if (sr->kind == SIG_Y) {
            add_entry(pv, row, s->elems[sr->inst].own + sr->out, src, rmult, 0);
        }
    }
}

/* Unknowns: position (and velocity) of each body that is not prescribed,
 * then the elements' own; the row each body's forces go to. */
static void number_unknowns(fl_system *s)
{
    int n = 0;
    for (int b = 0; b < s->nbodies; b++) {
        fl_body *bd = &s->bodies[b];
        switch (bd->kind) {
        case B_FREE:
        case B_MLV:
        case B_ACC:
            bd->qi = n++;
            bd->vi = n++;
            break;
        case B_MLQ:
        case B_VEL:
            bd->qi = n++;
            break;
        default:
            break;
        }
    }
    for (int e = 0; e < s->nelem; e++) {
        const fl_elem_ops *ops = fl_inst_ops(s, s->elems[e].inst);
        if (ops->nown) {
            s->elems[e].own = n;
            n += ops->nown;
        }
    }
    s->n = n;
    /* the row of each attachment's force: its body's */
    for (int e = 0; e < s->nelem; e++)
        for (int j = 0; j < fl_ops_natt(fl_inst_ops(s, s->elems[e].inst)); j++) {
            int slot = fl_att_slot(&s->elems[e], j);
            int b = s->att_body[slot];
            s->elem_frow[slot] = b >= 0 ? fl_body_frow(&s->bodies[b]) : -1;
        }
}

/* Which unknowns are differential (and their position among those), and
 * the hints of messages about them. Their names are made on first use
 * (fl_unk_name). */
static void name_unknowns(fl_system *s)
{
    int n = s->n;
    unsigned char *diff = fl_xcalloc((size_t)(n ? n : 1), 1); /* which are differential */
    s->dpos = fl_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    s->unk_hint = fl_xcalloc((size_t)(n ? n : 1), sizeof(char *));
    for (int b = 0; b < s->nbodies; b++) {
        const fl_body *bd = &s->bodies[b];
        if (bd->qi < 0) continue;
        diff[bd->qi] = bd->kind != B_MLQ;
        if (bd->vi >= 0) diff[bd->vi] = bd->kind != B_MLV;
    }
    int hints = 0;
    for (int e = 0; e < s->nelem; e++) {
        const fl_elem *el = &s->elems[e];
        const fl_elem_ops *ops = fl_inst_ops(s, el->inst);
        for (int k = 0; k < ops->nown; k++) {
            diff[el->own + k] = ops->own_diff ? ops->own_diff[k] : 0;
            s->unk_hint[el->own + k] = ops->own_hint;
            hints |= ops->own_hint != NULL;
        }
    }
    if (!hints) { /* (the common case: no element names one) */
        free(s->unk_hint);
        s->unk_hint = NULL;
    }
    int nd = 0;
    for (int i = 0; i < n; i++) s->dpos[i] = diff[i] ? nd++ : -1;
    free(diff);
    s->nd = nd;
}

/* The names of the unknowns, "mass.s", "spring.s_rel", "node {a.flange_b,
 * b.flange_a}.s" for a massless body, into one block: the table a message
 * or a snapshot's fingerprint reads, built on first use under the
 * system's lock (a run that says nothing about its unknowns never makes
 * it; at 10^5 wagons it is 3 MB). As build_var_names: the table is
 * published only when complete. */
static void build_unk_names(void *arg)
{
    fl_system *s = arg;
    int n = s->n;
    fl_buf text = {0};
    fl_cleanup cl;
    fl_cleanup_push(&cl, fl_buf_cleanup, &text);
    size_t *ofs = fl_xmalloc(sizeof(size_t) * (size_t)(n ? n : 1));
    int *first_mass = fl_xmalloc(sizeof(int) * (size_t)(s->nbodies ? s->nbodies : 1));
    for (int b = 0; b < s->nbodies; b++) first_mass[b] = -1;
    /* preferably a mass that moves as the body's coordinate (ratio 1, not behind a lever) */
    for (int pass = 0; pass < 2; pass++)
        for (int l = s->nlinks - 1; l >= 0; l--) {
            const fl_link *lk = &s->links[l];
            if (lk->node_a >= 0 && lk->m > 0 && (pass == 0 || s->nodes[lk->node_a].ratio == 1))
                first_mass[s->nodes[lk->node_a].body] = l;
        }
    char **node_names = NULL; /* for massless bodies, made when one is met */
    for (int i = 0; i < n; i++) ofs[i] = SIZE_MAX; /* (none: an unknown no body or element names) */
    for (int b = 0; b < s->nbodies; b++) {
        const fl_body *bd = &s->bodies[b];
        if (bd->qi < 0) continue;
        if (first_mass[b] < 0 && !node_names) node_names = fl_node_names_build(s);
        const char *label = first_mass[b] >= 0 ? fl_inst_name(s, s->links[first_mass[b]].inst) : NULL;
        const fl_domain_names *dn = fl_domain_info(s->nodes[bd->ref_node].dom);
        for (int lv = 0; lv < 2; lv++) {
            int u = lv ? bd->vi : bd->qi;
            if (u < 0) continue;
            ofs[u] = text.n;
            if (label) fl_buf_printf(&text, "%s.%s", label, lv ? dn->vel : dn->pos);
            else fl_buf_printf(&text, "node %s.%s", node_names[bd->ref_node], lv ? dn->vel : dn->pos);
            fl_buf_addn(&text, "", 1);
        }
    }
    if (node_names) fl_node_names_free(s, node_names);
    free(first_mass);
    for (int e = 0; e < s->nelem; e++) {
        const fl_elem *el = &s->elems[e];
        const fl_elem_ops *ops = fl_inst_ops(s, el->inst);
        const char *in = fl_inst_name(s, el->inst); /* "": the equations of the model itself */
        for (int k = 0; k < ops->nown; k++) {
            ofs[el->own + k] = text.n;
            if (ops->own_names) fl_buf_printf(&text, "%s%s%s", in, in[0] ? "." : "", ops->own_names[k]);
            else fl_buf_printf(&text, "%s (internal %d)", in, k + 1);
            fl_buf_addn(&text, "", 1);
        }
    }
    const char **p = fl_xmalloc(sizeof(char *) * (size_t)(n ? n : 1));
    fl_cleanup_pop(&cl);
    s->unk_names = fl_buf_take(&text);
    for (int i = 0; i < n; i++) p[i] = ofs[i] == SIZE_MAX ? NULL : s->unk_names + ofs[i];
    free(ofs);
    s->unk_name = p;
}

static int unk_names_ready(const fl_system *s)
{
    return s->unk_name != NULL;
}

const char *fl_unk_name(const fl_system *s, int i)
{
    fl_system_once(s, unk_names_ready, build_unk_names); /* the names are made on first use */
    return s->unk_name[i];
}

/* Absolute tolerance scale of body positions: the smallest length scale
 * (s_nominal, phi_nominal) of the elements attached, so that their relative
 * positions are controlled as MSL's nominal attribute intends (1 m by
 * default); a length at a node with ratio r is a length / |r| of q. Then
 * the nominal attributes the user gave (mass.s(nominal = 1e-3)). */
static void nominal_scales(fl_system *s)
{
    s->nominal = fl_xmalloc(sizeof(double) * (size_t)(s->n ? s->n : 1));
    for (int i = 0; i < s->n; i++) s->nominal[i] = 1.0;
    for (int e = 0; e < s->nelem; e++) {
        const fl_class *c = s->insts[s->elems[e].inst].cls;
        const double *par = s->par + s->elems[e].pofs;
        double nom = 0;
        if (c->length_scale) {
            nom = c->length_scale(par);
        } else {
            int k = fl_class_param(c, "s_nominal");
            if (k < 0) k = fl_class_param(c, "phi_nominal"); /* the rotational twin */
            if (k >= 0) nom = par[k];
        }
        for (int j = 0; j < fl_ops_natt(fl_inst_ops(s, s->elems[e].inst)); j++) {
            int slot = fl_att_slot(&s->elems[e], j);
            int b = s->att_body[slot];
            double q = nom / fabs(fl_sys_slot_ratio(s, slot));
            if (b >= 0 && s->bodies[b].qi >= 0 && q > 0 && q < s->nominal[s->bodies[b].qi])
                s->nominal[s->bodies[b].qi] = q;
        }
    }
    for (int k = 0; k < s->ncond; k++) {
        const fl_cond *c = &s->conds[k];
        if (!(c->nominal > 0) || c->level > 1) continue;
        for (int j = 0; j < 2; j++) {
            int node = j ? c->node_m : c->node_p;
            if (node < 0) continue;
            const fl_body *bd = &s->bodies[s->nodes[node].body];
            int i = c->level == 0 ? bd->qi : bd->vi;
            double q = c->nominal / fabs(s->nodes[node].ratio);
            if (i >= 0 && q < s->nominal[i]) s->nominal[i] = q;
        }
    }
}

/* Where each element's local Jacobian sits in jloc (dense rows x columns,
 * or the sparse list); the drivers' da/ds, da/dv after them, from the
 * returned offset. */
static int local_blocks(fl_system *s)
{
    int njloc = 0;
    for (int e = 0; e < s->nelem; e++) {
        const fl_elem_ops *ops = fl_inst_ops(s, s->elems[e].inst);
        int na = fl_ops_natt(ops);
        int R = na + ops->nown, C = 3 * na + 2 * ops->nown + ops->nin;
        s->elems[e].jofs = njloc;
        njloc += (ops->flags & FL_EK_COMPLIANT) ? 2 : ops->ndep ? ops->ndep : R * C;
    }
    int drv0 = njloc;
    s->njloc = njloc + 2 * s->ndrv;
    return drv0;
}

/* ---- the entry list, alike units kept by rule -------------------------- */

/* While listing: the entries stored so far (with their rows and columns),
 * the rules (compile/jrules.c) with the steps of their rows and columns,
 * and the run of alike units being followed: its first unit's entries
 * stored at st[j0], the steps that give the others. A chain's entries are
 * never all listed one by one: this is one of compiling's peaks. */
typedef struct lrc {
    int row[FL_JRULE_M], col[FL_JRULE_M];
} lrc;
typedef struct lcollect {
    pend_vec st;
    FL_VEC(fl_jrule) rules;
    FL_VEC(lrc) steps; /* per rule: its rows' and columns' steps */
    int on, key, n, m, j0, nvirt;
    lrc d;
    int dsrc[FL_JRULE_M];
} lcollect;

/* Whether unit u (m entries) is the run's first moved n times by its
 * steps; the second unit sets them. */
static int unit_follows(lcollect *c, const pend *u, int m)
{
    const pend *T = c->st.v + c->j0;
    for (int t = 0; t < m; t++) {
        const pend *x = &T[t], *y = &u[t];
        if (x->e.cj != y->e.cj || memcmp(&x->e.mult, &y->e.mult, sizeof(double)) != 0 || (x->e.src < 0) != (y->e.src < 0))
            return 0;
        if (c->n == 1) {
            c->d.row[t] = y->row - x->row;
            c->d.col[t] = y->col - x->col;
            c->dsrc[t] = x->e.src >= 0 ? y->e.src - x->e.src : 0;
        } else if (y->row != x->row + c->n * c->d.row[t] || y->col != x->col + c->n * c->d.col[t] ||
                   (x->e.src >= 0 && y->e.src != x->e.src + c->n * c->dsrc[t])) {
            return 0;
        }
    }
    return 1;
}

/* The run ends: a rule when it is long enough, else its units stored. */
static void run_close(lcollect *c)
{
    if (!c->on) return;
    c->on = 0;
    if (c->n >= FL_JRULE_MIN) {
        fl_jrule r;
        memset(&r, 0, sizeof r);
        r.j0 = c->j0;
        r.n = c->n;
        r.m = c->m;
        memcpy(r.src, c->dsrc, sizeof r.src);
        FL_VEC_PUSH(c->rules, r);
        FL_VEC_PUSH(c->steps, c->d);
        return;
    }
    for (int i = 1; i < c->n; i++)
        for (int t = 0; t < c->m; t++) {
            pend p = c->st.v[c->j0 + t];
            p.row += i * c->d.row[t];
            p.col += i * c->d.col[t];
            if (p.e.src >= 0) p.e.src = p.e.src + i * c->dsrc[t];
            FL_VEC_PUSH(c->st, p);
        }
}

/* Unit u's entries (a body's or an element's; key: what makes units
 * comparable, -1 none): the run goes on, or they are stored. */
static void add_unit(lcollect *c, int key, pend_vec *u)
{
    int m = (int)u->n;
    c->nvirt += m;
    if (c->on && key == c->key && m == c->m && unit_follows(c, u->v, m)) {
        c->n++;
        u->n = 0;
        return;
    }
    run_close(c);
    if (key >= 0 && m > 0 && m <= FL_JRULE_M) {
        c->on = 1;
        c->key = key;
        c->n = 1;
        c->m = m;
        c->j0 = (int)c->st.n;
    }
    for (size_t k = 0; k < u->n; k++) FL_VEC_PUSH(c->st, u->v[k]);
    u->n = 0;
}

/* The Jacobian entries: the bodies' own rows, the elements' local
 * Jacobians at the rows their forces and own unknowns go to, and the
 * constraints among three or more flanges; into s->jent, alike units by
 * rule (s->jrule). Returns the (row, column) of every entry, each rule's
 * run expanded (*npairs of them, for build_patterns, which frees them). */
static int *list_entries(fl_system *s, int drv0, int *npairs)
{
    pend_vec pv = {0};
    lcollect lc;
    memset(&lc, 0, sizeof lc);
    int cursor = 0;
    for (int b = 0; b < s->nbodies; b++) {
        const fl_body *bd = &s->bodies[b];
        switch (bd->kind) {
        case B_FREE:
            add_entry(&pv, bd->qi, bd->qi, -1, 1, 1);
            add_entry(&pv, bd->qi, bd->vi, -1, -1, 0);
            add_entry(&pv, bd->vi, bd->vi, -1, bd->mass, 1);
            break;
        case B_MLV:
            add_entry(&pv, bd->qi, bd->qi, -1, 1, 1);
            add_entry(&pv, bd->qi, bd->vi, -1, -1, 0);
            break;
        case B_ACC:
            add_entry(&pv, bd->qi, bd->qi, -1, 1, 1);
            add_entry(&pv, bd->qi, bd->vi, -1, -1, 0);
            add_entry(&pv, bd->vi, bd->vi, -1, 1, 1);
            add_entry(&pv, bd->vi, bd->qi, drv0 + 2 * bd->drv, -1, 0);
            add_entry(&pv, bd->vi, bd->vi, drv0 + 2 * bd->drv + 1, -1, 0);
            break;
        case B_VEL:
            add_entry(&pv, bd->qi, bd->qi, -1, 1, 1);
            break;
        default:
            break;
        }
        add_unit(&lc, fl_jrule_key(s, b, &cursor), &pv);
    }
    for (int e = 0; e < s->nelem; e++) {
        const fl_elem *el = &s->elems[e];
        const fl_elem_ops *ops = fl_inst_ops(s, el->inst);
        int na = fl_ops_natt(ops);
        int R = na + ops->nown, C = 3 * na + 2 * ops->nown + ops->nin;
        int nentries = ops->ndep ? ops->ndep : R * C;
        for (int k = 0; k < nentries; k++) {
            int r = ops->ndep ? ops->dep_rc[2 * k] : k / C, c = ops->ndep ? ops->dep_rc[2 * k + 1] : k % C;
            if (!ops->ndep && !(ops->dep[r] & (1ULL << c))) continue;
            /* a force enters its body's row times the ratio of its node */
            int row = r < na ? s->elem_frow[fl_att_slot(el, r)] : el->own + r - na;
            if (row < 0) continue;
            double rmult = r < na ? fl_sys_slot_ratio(s, fl_att_slot(el, r)) : 1.0;
            int src = el->jofs + k;
            if (ops->flags & FL_EK_COMPLIANT) { /* one of its two values, its sign in the multiplier */
                int dv, neg;
                fl_compliant_place(r, c, &dv, &neg);
                src = el->jofs + dv;
                if (neg) rmult = -rmult;
            }
            add_local(s, &pv, el, ops, row, c, src, rmult);
        }
        add_unit(&lc, fl_jrule_key(s, s->nbodies + e, &cursor), &pv);
    }
    /* constraints: their rows, at their level (d row / d q = coefficient
     * times the ratio of the node); all of them one unit, never by rule */
    for (int k = 0; k < s->ncons; k++) {
        const fl_con *c = &s->cons[k];
        int row = s->elems[c->elem].own + c->row;
        for (int i = 0; i < c->n; i++)
            add_kin(s, &pv, row, s->con_node[c->k0 + i], c->level, -1, s->con_coef[c->k0 + i]);
    }
    add_unit(&lc, -1, &pv);
    run_close(&lc);
    FL_VEC_FREE(pv);
    /* every entry's (row, column), each rule's run expanded */
    int nv = *npairs = lc.nvirt, np = (int)lc.st.n;
    int *rc = fl_xmalloc(sizeof(int) * (size_t)(2 * nv + 1));
    for (int j = 0, k = 0, r = 0; j < np;) {
        if (r < (int)lc.rules.n && lc.rules.v[r].j0 == j) {
            const fl_jrule *jr = &lc.rules.v[r];
            const lrc *d = &lc.steps.v[r++];
            for (int i = 0; i < jr->n; i++)
                for (int t = 0; t < jr->m; t++, k++) {
                    rc[2 * k] = lc.st.v[j + t].row + i * d->row[t];
                    rc[2 * k + 1] = lc.st.v[j + t].col + i * d->col[t];
                }
            j += jr->m;
            continue;
        }
        rc[2 * k] = lc.st.v[j].row;
        rc[2 * k + 1] = lc.st.v[j].col;
        j++, k++;
    }
    FL_VEC_FREE(lc.steps);
    /* the entries take the pending list's place (fl_jentry is smaller than
     * pend, so entry i is written before pend i + 1 is read) */
    for (int i = 0; i < np; i++) {
        fl_jentry e = lc.st.v[i].e;
        memcpy((char *)lc.st.v + sizeof(fl_jentry) * (size_t)i, &e, sizeof e);
    }
    fl_jent_keep(s, (fl_jentry *)(void *)lc.st.v, np, lc.rules.v, (int)lc.rules.n);
    return rc;
}

/* The integrator's pattern and the re-initialisation's (whose unknowns
 * are the algebraic y and the yp of differential y) from every entry's
 * (row, column) rc (np of them, each rule's run expanded), which it
 * frees, with each entry's slot in both (fl_jrules_set: a rule whose
 * slots do not move by one step is split); and the column of each slot
 * of jpat, which the later compile stages read instead of rc (a fifth of
 * its size). */
static void build_patterns(fl_system *s, int *rc, int np)
{
    int n = s->n;
    int *slot = fl_xmalloc(sizeof(int) * (size_t)(np ? np : 1));
    csc_build(&s->jpat, n, n, rc, 2, rc + 1, 2, np, slot);
    fl_jrules_set(s, slot, FL_JR_SLOT);
    /* the re-initialisation's columns in place of rc's (rc is not read again) */
    fl_jiter it = fl_jiter_start(s);
    fl_jentry e;
    while (fl_jiter_next(&it, &e)) {
        int col = rc[2 * it.k + 1];
        rc[2 * it.k + 1] = fl_unk_diff(s, col) == (e.cj != 0) ? col : -1;
    }
    csc_build(&s->rpat, n, n, rc, 2, rc + 1, 2, np, slot);
    fl_jrules_set(s, slot, FL_JR_RSLOT);
    free(slot);
    free(rc);
    s->jpat_col = fl_xmalloc(sizeof(int) * (size_t)(s->jpat.nnz ? s->jpat.nnz : 1));
    for (int j = 0; j < s->jpat.ncol; j++)
        for (int k = s->jpat.colptr[j]; k < s->jpat.colptr[j + 1]; k++) s->jpat_col[k] = j;
}

/* Structural regularity of the iteration matrix: a maximum matching of
 * its pattern, and what is left unmatched named (at most five places). */
static int check_regular(fl_system *s, fl_diag *d)
{
    int n = s->n, rc = 0;
    if (n == 0) return 0;
    int *roc = fl_xmalloc(sizeof(int) * (size_t)n), *cor = fl_xmalloc(sizeof(int) * (size_t)n);
    int matched = fl_match(&s->jpat, n, roc, cor);
    if (matched < n) {
        int reported = 0;
        for (int b = 0; b < s->nbodies && reported < 5; b++) {
            const fl_body *bd = &s->bodies[b];
            int row = fl_body_frow(bd);
            if (row < 0) row = bd->qi;
            if (row < 0 || cor[row] >= 0) continue;
            if (bd->kind == B_MLQ || bd->kind == B_MLV)
                fl_err(d, fl_noloc,
                       "the system is structurally singular: the position of %s is not determined "
                       "(a massless node needs a spring or damper tying it to the rest, not only forces)",
                       fl_node_name(s, bd->ref_node));
            else
                fl_err(d, fl_noloc, "the system is structurally singular at %s (%s body)",
                       fl_node_name(s, bd->ref_node), fl_body_kind_name(bd->kind));
            reported++;
        }
        for (int e = 0; e < s->nelem && !reported; e++) {
            const fl_elem *el = &s->elems[e];
            const fl_elem_ops *ops = fl_inst_ops(s, el->inst);
            for (int k = 0; k < ops->nown; k++)
                if (cor[el->own + k] < 0 && !reported++)
                    fl_err(d, fl_inst_loc(s, el->inst), "the system is structurally singular at %s",
                           fl_inst_name(s, el->inst));
        }
        if (!reported) fl_err(d, fl_noloc, "the system is structurally singular");
        rc = -1;
    }
    free(roc);
    free(cor);
    return rc;
}

int fl_compile_layout(fl_system *s, fl_diag *d)
{
    number_unknowns(s);
    name_unknowns(s);
    nominal_scales(s);
    int np;
    int *rc = list_entries(s, local_blocks(s), &np);
    build_patterns(s, rc, np);
    return check_regular(s, d);
}
