/* groups.c - independent groups of a compiled system.
 *
 * Bodies and elements that nothing couples integrate on their own: N
 * masses bouncing between their own stops, sharing only the Fixed ground,
 * are N small systems, and one integrator for all of them restarts and
 * refactorises every unknown at every impact of any of them (the cost of
 * an event grows with N, the run with N squared). Here the system is cut
 * into connected components, by union-find over bodies and elements:
 *  - an element joins the bodies it is attached to, the bodies its sensor
 *    inputs read, the elements whose own unknowns its inputs read, and the
 *    bodies of its constraints;
 *  - a prescribed motion whose input is not time alone joins what it reads;
 *  - every Jacobian entry joins the owners of its row and column (a net
 *    under the rules above: whatever is coupled in the equations is coupled
 *    here);
 *  - grounds and bodies moved by time alone couple nothing (their motion
 *    does not depend on any unknown), nor do source blocks (each reader has
 *    its own input reference).
 * The unknowns keep their numbering; each group lists what it owns (global
 * indices, ascending) and carries its slices of the Jacobian patterns, so
 * that sim/ can evaluate and integrate one group alone. Elements that touch
 * no unknown (a damper between the ground and a driven body) ride with
 * group 0. With one group nothing is stored and nothing changes. */
#include <stdlib.h>
#include <string.h>

#include "system.h"

/* ---- union-find over owners (bodies, then elements) ---------------------- */

/* (an index -1, a ground or a body moved by time alone, joins nothing) */
static void uf_union(fl_uf *u, int a, int b)
{
    if (a >= 0 && b >= 0) fl_uf_union(u, a, b);
}

/* ---- per-group lists: (group, index) pairs sorted into CSR --------------- */

typedef struct gpair {
    int g, x;
} gpair;

typedef FL_VEC(gpair) gpair_vec;

typedef struct glist {
    int *ptr; /* ngroups + 1 */
    int *x;
} glist;

static int cmp_gpair(const void *a, const void *b)
{
    const gpair *p = a, *q = b;
    if (p->g != q->g) return p->g < q->g ? -1 : 1;
    return p->x < q->x ? -1 : p->x > q->x;
}

/* Sorted, without duplicates. */
static glist to_glist(gpair_vec *v, int ng)
{
    glist l;
    if (v->n) qsort(v->v, v->n, sizeof(gpair), cmp_gpair);
    l.ptr = fl_xcalloc((size_t)ng + 1, sizeof(int));
    l.x = fl_xmalloc(sizeof(int) * (v->n ? v->n : 1));
    size_t m = 0;
    for (size_t i = 0; i < v->n; i++) {
        if (m && v->v[i].g == v->v[m - 1].g && v->v[i].x == v->v[m - 1].x) continue;
        v->v[m++] = v->v[i];
    }
    for (size_t i = 0; i < m; i++) {
        l.x[i] = v->v[i].x;
        l.ptr[v->v[i].g + 1]++;
    }
    for (int g = 0; g < ng; g++) l.ptr[g + 1] += l.ptr[g];
    FL_VEC_FREE(*v);
    return l;
}

static void add(gpair_vec *v, int g, int x)
{
    gpair p = {g, x};
    FL_VEC_PUSH(*v, p);
}

/* Everything the groups point into. */
struct fl_group_arena {
    glist lists[16];
    int nlists;
    int *jsl, *rsl;
    fl_elem *el;
    fl_egroup *eg;
};

enum { L_U, L_B, L_DV, L_SG, L_E, L_SL, L_CN, L_BR, L_R, L_J, L_JL, L_TB, L_TEV, L_COUNT };

/* The group's slice of pattern p (columns u, rows in the same group). */
static void slice_pattern(const fl_csc *p, const fl_scope *g, const int *loc, fl_csc *out)
{
    out->n = out->ncol = g->nu;
    out->colptr = fl_xmalloc(sizeof(int) * (size_t)(g->nu + 1));
    int nnz = 0;
    for (int k = 0; k < g->nu; k++) nnz += p->colptr[g->u[k] + 1] - p->colptr[g->u[k]];
    out->nnz = nnz;
    out->rowind = fl_xmalloc(sizeof(int) * (size_t)(nnz ? nnz : 1));
    int z = 0;
    for (int k = 0; k < g->nu; k++) {
        out->colptr[k] = z;
        int c = g->u[k];
        for (int q = p->colptr[c]; q < p->colptr[c + 1]; q++) out->rowind[z++] = loc[p->rowind[q]];
    }
    out->colptr[g->nu] = z;
}

/* A shared body (ground, moved by time alone) as -1: it joins nothing. */
static int member(const char *env, int b)
{
    return b >= 0 && !env[b] ? b : -1;
}

static int node_member(const fl_system *s, const char *env, int nd)
{
    return nd >= 0 ? member(env, s->nodes[nd].body) : -1;
}

/* Phase 1: the shared bodies: grounds and bodies moved by time alone. */
static char *find_shared(const fl_system *s)
{
    char *env = fl_xcalloc((size_t)(s->nbodies ? s->nbodies : 1), 1);
    for (int b = 0; b < s->nbodies; b++) {
        const fl_body *bd = &s->bodies[b];
        if (bd->kind == B_GROUND) env[b] = 1;
        if (bd->kind != B_POS) continue;
        const fl_driver *dv = &s->drvs[bd->drv];
        int timeonly = 1;
        for (int q = 0; q < dv->nin; q++) {
            int k = s->sigs[dv->sig + q].kind;
            if (k == SIG_KIN || k == SIG_Y || k == SIG_LATE) timeonly = 0;
        }
        env[b] = (char)timeonly;
    }
    return env;
}

/* Phase 2: the owner of each unknown (body b, or element e as nbodies + e). */
static int *find_owners(const fl_system *s)
{
    int *own_of = fl_xmalloc(sizeof(int) * (size_t)s->n);
    for (int i = 0; i < s->n; i++) own_of[i] = -1;
    for (int b = 0; b < s->nbodies; b++) {
        if (s->bodies[b].qi >= 0) own_of[s->bodies[b].qi] = b;
        if (s->bodies[b].vi >= 0) own_of[s->bodies[b].vi] = b;
    }
    for (int e = 0; e < s->nelem; e++) {
        const fl_elem *el = &s->elems[e];
        const fl_elem_ops *ops = fl_inst_ops(s, el->inst);
        for (int k = 0; k < ops->nown && el->own >= 0; k++) own_of[el->own + k] = s->nbodies + e;
    }
    return own_of;
}

/* Owner x joins what input reference sr reads. */
static void join_input(const fl_system *s, const char *env, fl_uf *uf, int x, const fl_sigref *sr)
{
    if (sr->kind == SIG_KIN) {
        uf_union(uf, x, node_member(s, env, sr->node[0]));
        uf_union(uf, x, node_member(s, env, sr->node[1]));
    } else if (sr->kind == SIG_Y) {
        uf_union(uf, x, s->nbodies + sr->inst);
    }
}

/* Phase 3: join what reads what (the header says which). */
static void join_owners(const fl_system *s, const char *env, const int *own_of, fl_uf *uf)
{
    int nb = s->nbodies;
    for (int e = 0; e < s->nelem; e++) {
        const fl_elem *el = &s->elems[e];
        const fl_elem_ops *ops = fl_inst_ops(s, el->inst);
        for (int j = 0; j < fl_ops_natt(ops); j++) uf_union(uf, nb + e, member(env, s->att_body[fl_att_slot(el, j)]));
        for (int q = 0; q < ops->nin; q++) join_input(s, env, uf, nb + e, &s->sigs[el->sig + q]);
    }
    for (int k = 0; k < s->ndrv; k++) {
        const fl_driver *dv = &s->drvs[k];
        int b = member(env, dv->body);
        for (int q = 0; q < dv->nin && b >= 0; q++) join_input(s, env, uf, b, &s->sigs[dv->sig + q]);
    }
    for (int k = 0; k < s->ncons; k++) {
        const fl_con *c = &s->cons[k];
        for (int i = 0; i < c->n; i++) uf_union(uf, nb + c->elem, node_member(s, env, s->con_node[c->k0 + i]));
    }
    fl_jiter it = fl_jiter_start(s);
    fl_jentry e;
    while (fl_jiter_next(&it, &e)) uf_union(uf, own_of[fl_jent_row(s, &e)], own_of[fl_jent_col(s, &e)]);
}

/* Phase 4: the group of every owner, groups numbered by their first
 * unknown, what touches no unknown with group 0; NULL with one group. */
static int *number_groups(const fl_system *s, const int *own_of, fl_uf *uf, int *ng)
{
    int N = s->nbodies + s->nelem;
    int *gid = fl_xmalloc(sizeof(int) * (size_t)N);
    for (int i = 0; i < N; i++) gid[i] = -1;
    *ng = 0;
    for (int i = 0; i < s->n; i++) {
        int r = fl_uf_find(uf, own_of[i]);
        if (gid[r] < 0) gid[r] = (*ng)++;
    }
    int *grp = NULL;
    if (*ng > 1) {
        grp = fl_xmalloc(sizeof(int) * (size_t)N);
        for (int i = 0; i < N; i++) {
            int r = gid[fl_uf_find(uf, i)];
            grp[i] = r >= 0 ? r : 0;
        }
    }
    free(gid);
    return grp;
}

/* Phase 5: each group's lists (L_*): what it owns, then the shared bodies,
 * drivers and inputs its kinematics read, closed over drivers and sensors. */
static void collect_lists(const fl_system *s, const char *env, const int *own_of, const int *grp, int ng,
                          glist L[L_COUNT])
{
    int nb = s->nbodies;
    gpair_vec v[L_COUNT];
    memset(v, 0, sizeof v);
    for (int i = 0; i < s->n; i++) add(&v[L_U], grp[own_of[i]], i);
    for (int e = 0; e < s->nelem; e++) {
        const fl_elem *el = &s->elems[e];
        const fl_elem_ops *ops = fl_inst_ops(s, el->inst);
        int g = grp[nb + e];
        add(&v[L_E], g, e);
        for (int j = 0; j < fl_ops_natt(ops); j++) {
            int sl = fl_att_slot(el, j);
            if (s->att_body[sl] >= 0) add(&v[L_B], g, s->att_body[sl]);
            if (s->elem_frow[sl] >= 0) add(&v[L_SL], g, sl);
        }
        for (int q = 0; q < ops->nin; q++) add(&v[L_SG], g, el->sig + q);
        for (int k = 0; k < ops->nroots; k++) add(&v[L_R], g, el->root + k);
        if (ops->next_time_event) add(&v[L_TEV], g, e);
    }
    for (int b = 0; b < nb; b++) {
        if (env[b]) {
            /* a driven mass's kinetic energy and inertial work are group 0's */
            if (s->bodies[b].mass > 0) add(&v[L_B], 0, b);
            continue;
        }
        add(&v[L_B], grp[b], b);
        const fl_body *bd = &s->bodies[b];
        if (bd->kind == B_FREE || bd->kind == B_MLV || bd->kind == B_ACC || bd->kind == B_VEL) add(&v[L_BR], grp[b], b);
    }
    for (int k = 0; k < s->ncons; k++) {
        const fl_con *c = &s->cons[k];
        int g = grp[nb + c->elem];
        add(&v[L_CN], g, k);
        for (int i = 0; i < c->n; i++)
            if (s->con_node[c->k0 + i] >= 0) add(&v[L_B], g, s->nodes[s->con_node[c->k0 + i]].body);
    }
    /* the drivers of the bodies read, and their inputs */
    glist lb0 = to_glist(&v[L_B], ng);
    for (int g = 0; g < ng; g++)
        for (int k = lb0.ptr[g]; k < lb0.ptr[g + 1]; k++) {
            int b = lb0.x[k];
            add(&v[L_B], g, b);
            if (s->bodies[b].drv >= 0) {
                const fl_driver *dv = &s->drvs[s->bodies[b].drv];
                add(&v[L_DV], g, s->bodies[b].drv);
                for (int q = 0; q < dv->nin; q++) add(&v[L_SG], g, dv->sig + q);
            }
        }
    free(lb0.ptr);
    free(lb0.x);
    /* the bodies (and their drivers) the sensor inputs read, the sources of time events */
    glist lsg = to_glist(&v[L_SG], ng);
    for (int g = 0; g < ng; g++)
        for (int k = lsg.ptr[g]; k < lsg.ptr[g + 1]; k++) {
            const fl_sigref *sr = &s->sigs[lsg.x[k]];
            add(&v[L_SG], g, lsg.x[k]);
            if (sr->kind == SIG_KIN)
                for (int m = 0; m < 2; m++) {
                    int nd = sr->node[m];
                    if (nd < 0) continue;
                    int b = s->nodes[nd].body;
                    add(&v[L_B], g, b);
                    if (s->bodies[b].drv >= 0) add(&v[L_DV], g, s->bodies[b].drv);
                }
            if (sr->kind == SIG_BLOCK && s->insts[sr->inst].cls->block->next_event) add(&v[L_TB], g, sr->inst);
        }
    free(lsg.ptr);
    free(lsg.x);
    /* (a driver added for a sensor's body reads time only: its inputs are
     * source blocks, which need no lists of their own beyond L_SG) */
    glist ldv = to_glist(&v[L_DV], ng);
    for (int g = 0; g < ng; g++)
        for (int k = ldv.ptr[g]; k < ldv.ptr[g + 1]; k++) {
            const fl_driver *dv = &s->drvs[ldv.x[k]];
            add(&v[L_DV], g, ldv.x[k]);
            for (int q = 0; q < dv->nin; q++) {
                add(&v[L_SG], g, dv->sig + q);
                const fl_sigref *sr = &s->sigs[dv->sig + q];
                if (sr->kind == SIG_BLOCK && s->insts[sr->inst].cls->block->next_event) add(&v[L_TB], g, sr->inst);
            }
        }
    free(ldv.ptr);
    free(ldv.x);
    /* Jacobian entries by the group of their row, and the jloc they read */
    for (int i = 0; i < s->njent; i++) {
        int g = grp[own_of[fl_jent_row(s, &s->jent[i])]];
        add(&v[L_J], g, i);
        if (s->jent[i].src >= 0) add(&v[L_JL], g, s->jent[i].src);
    }
    for (int k = 0; k < L_COUNT; k++) L[k] = to_glist(&v[k], ng);
}

/* Phase 6: the scopes over the lists, with their element copies batched as
 * the system's, and the local index of every unknown in its group. */
static void make_scopes(fl_system *s, struct fl_group_arena *a, const glist L[L_COUNT], int *loc)
{
    int ne = s->nelem, neg = 0;
    a->el = fl_xmalloc(sizeof(fl_elem) * (size_t)(ne ? ne : 1));
    a->eg = fl_xmalloc(sizeof(fl_egroup) * (size_t)(ne ? ne : 1));
    int *eg_of = fl_xmalloc(sizeof(int) * (size_t)(ne ? ne : 1));
    for (int k = 0; k < s->negroups; k++)
        for (int e = s->egroups[k].first; e < s->egroups[k].first + s->egroups[k].n; e++) eg_of[e] = k;
    for (int g = 0; g < s->ngroups; g++) {
        fl_scope *sc = &s->groups[g];
#define TAKE(field, cnt, k) (sc->cnt = L[k].ptr[g + 1] - L[k].ptr[g], sc->field = L[k].x + L[k].ptr[g])
        TAKE(u, nu, L_U);
        TAKE(b, nb, L_B);
        TAKE(dv, ndv, L_DV);
        TAKE(sg, nsg, L_SG);
        TAKE(e, ne, L_E);
        TAKE(sl, nsl, L_SL);
        TAKE(cn, ncn, L_CN);
        TAKE(br, nbr, L_BR);
        TAKE(r, nr, L_R);
        TAKE(j, nj, L_J);
        TAKE(jl, njl, L_JL);
        TAKE(tb, ntb, L_TB);
        TAKE(tev, ntev, L_TEV);
#undef TAKE
        for (int k = 0; k < sc->nu; k++) {
            s->unk_group[sc->u[k]] = g;
            loc[sc->u[k]] = k;
            sc->nd += fl_unk_diff(s, sc->u[k]);
        }
        sc->el = a->el + L[L_E].ptr[g];
        sc->eg = a->eg + neg;
        for (int k = 0; k < sc->ne; k++) {
            int e = sc->e[k];
            const fl_elem_ops *ops = fl_inst_ops(s, s->elems[e].inst);
            sc->el[k] = s->elems[e];
            if (!k || eg_of[e] != eg_of[sc->e[k - 1]]) {
                fl_egroup *b = &a->eg[neg++];
                *b = s->egroups[eg_of[e]];
                b->first = k;
                b->n = 0;
                sc->neg++;
            }
            a->eg[neg - 1].n++;
            if (ops->nmodes || ops->nreal) sc->discrete = 1;
            if (ops->rigid) sc->rigid = 1;
            if (ops->flags & FL_EK_SAMPLE) sc->sample = 1;
            if (ops->flags & FL_EK_TERMINATE) sc->terminates = 1;
            if (ops->penetration) sc->npen++;
            if (ops->nroots && !(ops->flags & FL_EK_CONTACT)) sc->roots_other = 1;
        }
        sc->linsolver = sc->nu > FL_KLU_THRESHOLD ? FL_SOLVER_KLU : FL_SOLVER_DENSE;
    }
    free(eg_of);
}

/* Phase 7: each group's slices of the Jacobian patterns, and its entries'
 * slots in them (block-diagonal: an entry across groups is a bug). */
static void slice_patterns(fl_system *s, struct fl_group_arena *a, const int *loc)
{
    a->jsl = fl_xmalloc(sizeof(int) * (size_t)(s->njent ? s->njent : 1));
    a->rsl = fl_xmalloc(sizeof(int) * (size_t)(s->njent ? s->njent : 1));
    int j0 = 0;
    for (int g = 0; g < s->ngroups; g++) {
        fl_scope *sc = &s->groups[g];
        slice_pattern(&s->jpat, sc, loc, &sc->jpat);
        slice_pattern(&s->rpat, sc, loc, &sc->rpat);
        sc->jsl = a->jsl + j0;
        sc->rsl = a->rsl + j0;
        j0 += sc->nj;
        for (int k = 0; k < sc->nj; k++) {
            int i = sc->j[k], c = fl_jent_col(s, &s->jent[i]), r = fl_jent_row(s, &s->jent[i]);
            if (s->unk_group[c] != g || s->unk_group[r] != g)
                fl_fail_internal("Jacobian entry (%d, %d) crosses groups", r, c);
            sc->jsl[k] = sc->jpat.colptr[loc[c]] + s->jent[i].slot - s->jpat.colptr[c];
            sc->rsl[k] = s->jent[i].rslot < 0 ? -1 : sc->rpat.colptr[loc[c]] + s->jent[i].rslot - s->rpat.colptr[c];
        }
    }
}

void fl_compile_groups(fl_system *s)
{
    s->ngroups = 1;
    s->groups = NULL;
    s->unk_group = NULL;
    s->body_group = NULL;
    if (s->n < 2) return;
    char *env = find_shared(s);
    int *own_of = find_owners(s);
    fl_uf uf;
    fl_uf_init(&uf, s->nbodies + s->nelem);
    join_owners(s, env, own_of, &uf);
    int ng;
    int *grp = number_groups(s, own_of, &uf, &ng);
    fl_uf_free(&uf);
    if (grp) {
        fl_jrules_expand(s); /* the scopes list their entries by number */
        glist L[L_COUNT];
        collect_lists(s, env, own_of, grp, ng, L);
        struct fl_group_arena *a = fl_xcalloc(1, sizeof *a);
        for (int k = 0; k < L_COUNT; k++) a->lists[a->nlists++] = L[k];
        s->garena = a;
        s->ngroups = ng;
        s->groups = fl_xcalloc((size_t)ng, sizeof(fl_scope));
        s->unk_group = fl_xmalloc(sizeof(int) * (size_t)s->n);
        s->body_group = fl_xmalloc(sizeof(int) * (size_t)(s->nbodies ? s->nbodies : 1));
        for (int b = 0; b < s->nbodies; b++) s->body_group[b] = env[b] ? -1 : grp[b];
        int *loc = fl_xmalloc(sizeof(int) * (size_t)s->n); /* local index of each unknown in its group */
        make_scopes(s, a, L, loc);
        slice_patterns(s, a, loc);
        free(loc);
    }
    free(grp);
    free(own_of);
    free(env);
}

const fl_elem *fl_groups_elems(const fl_system *s)
{
    return s->garena ? s->garena->el : NULL;
}

void fl_groups_free(fl_system *s)
{
    struct fl_group_arena *a = s->garena;
    for (int g = 0; s->groups && g < s->ngroups; g++) {
        fl_csc_free(&s->groups[g].jpat);
        fl_csc_free(&s->groups[g].rpat);
    }
    free(s->groups);
    free(s->unk_group);
    free(s->body_group);
    if (a) {
        for (int k = 0; k < a->nlists; k++) {
            free(a->lists[k].ptr);
            free(a->lists[k].x);
        }
        free(a->jsl);
        free(a->rsl);
        free(a->el);
        free(a->eg);
        free(a);
    }
    s->groups = NULL;
    s->unk_group = NULL;
    s->body_group = NULL;
    s->garena = NULL;
    s->ngroups = 1;
}
