/* uconn.c - connectors of user-defined connector classes and the
 * equations their connections make.
 *
 * flange's own connectors (flanges, signals) are nodes of the connection
 * graph; a connector class of the user's (connector Pin Real v; flow Real
 * i; end Pin;) is a group of variables instead, and connect() between two
 * of them gives Modelica's connection equations: within each connection
 * set the potential variables are equal and the flow variables sum to
 * zero, those of connectors of components (inside) counted positive,
 * those of the class making the connection (outside) negative; a flow
 * variable of a component's connector connected nowhere is zero. */
#include <stdlib.h>
#include <string.h>

#include "flatten.h"
#include "scope.h"

void fl_uconn_declare(ictx *ic, const char *path, int top, fl_loc loc)
{
    fl_flat *f = ic->flat;
    size_t n = strlen(path);
    uconn u;
    memset(&u, 0, sizeof u);
    u.path = fl_xstrdup(path);
    u.top = top;
    u.loc = loc;
    /* its variables: the declared ones whose names continue the path */
    FL_VEC(int) vs = {0};
    for (size_t k = 0; k < f->vars.n; k++) {
        const char *nm = f->vars.v[k].name;
        if (strncmp(nm, path, n) == 0 && nm[n] == '.' && !strchr(nm + n + 1, '.')) FL_VEC_PUSH(vs, (int)k);
    }
    u.vars = vs.v;
    u.nvars = (int)vs.n;
    for (int i = 0; i < u.nvars; i++) f->uinsts.v[f->vars.v[u.vars[i]].uinst].connector = 1;
    FL_VEC_PUSH(f->uconns, u);
    fl_map_put(&f->uindex, path, (int)f->uconns.n - 1);
}

/* The connector a side of connect() names in scope e: its index and
 * whether it is the class's own (outside); -1 if it is no user connector. */
static int side(env *e, const fl_ref *r, int *outside)
{
    if (r->n > 2) return -1;
    fl_buf b = {0};
    fl_buf_add(&b, e->prefix);
    for (int i = 0; i < r->n; i++) {
        if (i) fl_buf_addc(&b, '.');
        fl_buf_add(&b, r->parts[i].name);
        if (r->parts[i].nsubs) { /* an element of an array of connectors */
            fl_buf_addc(&b, '[');
            for (int k = 0; k < r->parts[i].nsubs; k++) {
                fl_value v;
                if (eval_in(e, e->lex_for_eval ? e->lex_for_eval : e->cls, r->parts[i].subs[k], &v)) {
                    fl_buf_free(&b);
                    return -2;
                }
                fl_buf_printf(&b, "%s%ld", k ? "," : "", fl_value_is_number(&v) ? (long)v.num : 0L);
                fl_value_free(&v);
            }
            fl_buf_addc(&b, ']');
        }
    }
    int k = b.s ? fl_map_get(&e->ic->flat->uindex, b.s) : -1;
    fl_buf_free(&b);
    *outside = r->n == 1;
    return k;
}

int fl_uconn_connect(env *e, const fl_connect *cn)
{
    fl_flat *f = e->ic->flat;
    if (!f->uconns.n) return 0;
    int oa = 0, ob = 0;
    int a = side(e, &cn->a, &oa), b = side(e, &cn->b, &ob);
    if (a == -2 || b == -2) {
        e->ic->failed = 1;
        return -1;
    }
    if (a < 0 && b < 0) return 0;
    if (a < 0 || b < 0) {
        char *sa = fl_ref_str(&cn->a), *sb = fl_ref_str(&cn->b);
        fl_err(e->ic->d, cn->loc, "cannot connect %s to %s: only connectors of the same class connect", sa, sb);
        free(sa);
        free(sb);
        e->ic->failed = 1;
        return -1;
    }
    const uconn *ua = &f->uconns.v[a], *ub = &f->uconns.v[b];
    int same = ua->nvars == ub->nvars;
    for (int i = 0; same && i < ua->nvars; i++) {
        const fvar *va = &f->vars.v[ua->vars[i]], *vb = &f->vars.v[ub->vars[i]];
        same = strcmp(strrchr(va->name, '.'), strrchr(vb->name, '.')) == 0 && va->flow == vb->flow;
    }
    if (!same) {
        fl_err(e->ic->d, cn->loc, "cannot connect %s to %s: their variables differ", ua->path, ub->path);
        e->ic->failed = 1;
        return -1;
    }
    ulink l = {a, b, oa, ob, cn->loc};
    FL_VEC_PUSH(f->ulinks, l);
    return 1;
}

static int uf_find(int *p, int x)
{
    while (p[x] != x) {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

static void add_eq(fl_flat *f, fl_sx lhs, fl_sx rhs, fl_loc loc, int owner)
{
    feq q = {lhs, rhs, loc, owner, 0, 0};
    FL_VEC_PUSH(f->eqs, q);
    f->uinsts.v[owner].nconn++; /* a connection's, not the instance's own */
}

int fl_uconn_equations(ictx *ic)
{
    fl_flat *f = ic->flat;
    int n = (int)f->uconns.n;
    if (!n) return 0;
    /* elements: connector k inside (2k) and outside (2k + 1) */
    int *p = fl_xmalloc(sizeof(int) * (size_t)(2 * n));
    unsigned char *used = fl_xcalloc((size_t)(2 * n), 1);
    fl_loc *where = fl_xcalloc((size_t)(2 * n), sizeof(fl_loc));
    for (int i = 0; i < 2 * n; i++) p[i] = i;
    for (size_t i = 0; i < f->ulinks.n; i++) {
        const ulink *l = &f->ulinks.v[i];
        int x = 2 * l->a + l->side_a, y = 2 * l->b + l->side_b;
        used[x] = used[y] = 1;
        where[x] = where[y] = l->loc;
        x = uf_find(p, x);
        y = uf_find(p, y);
        if (x != y) p[y] = x;
    }
    for (int r = 0; r < 2 * n; r++) {
        if (uf_find(p, r) != r) continue;
        /* the members of set r */
        FL_VEC(int) m = {0};
        for (int i = 0; i < 2 * n; i++)
            if (uf_find(p, i) == r && (used[i] || (i % 2 == 0 && !f->uconns.v[i / 2].top))) FL_VEC_PUSH(m, i);
        if (!m.n) {
            FL_VEC_FREE(m);
            continue;
        }
        const uconn *u0 = &f->uconns.v[m.v[0] / 2];
        fl_loc loc = used[m.v[0]] ? where[m.v[0]] : u0->loc;
        /* each connector once for the potentials (it may be in the set inside and outside) */
        FL_VEC(int) distinct = {0};
        for (size_t j = 0; j < m.n; j++) {
            int k = m.v[j] / 2, seen = 0;
            for (size_t i = 0; i < distinct.n; i++) seen |= distinct.v[i] == k;
            if (!seen) FL_VEC_PUSH(distinct, k);
        }
        for (int q = 0; q < u0->nvars; q++) {
            const fvar *v0 = &f->vars.v[u0->vars[q]];
            if (v0->flow) {
                fl_sx sum = fl_sx_const(&f->g, 0);
                for (size_t j = 0; j < m.n; j++) {
                    const uconn *u = &f->uconns.v[m.v[j] / 2];
                    fl_sx x = fl_sx_var(&f->g, u->vars[q]);
                    sum = m.v[j] % 2 ? fl_sx_sub(&f->g, sum, x) : fl_sx_add(&f->g, sum, x);
                }
                add_eq(f, sum, fl_sx_const(&f->g, 0), loc, v0->uinst);
            } else {
                for (size_t j = 1; j < distinct.n; j++) {
                    const uconn *u = &f->uconns.v[distinct.v[j]];
                    add_eq(f, fl_sx_var(&f->g, u->vars[q]), fl_sx_var(&f->g, u0->vars[q]), loc, v0->uinst);
                }
            }
        }
        FL_VEC_FREE(distinct);
        FL_VEC_FREE(m);
    }
    free(p);
    free(used);
    free(where);
    return 0;
}
