/* structure.c - from instances and connections to nodes, rigid bodies,
 * force elements, drivers, initial conditions and signal routes.
 * Also implements the fl_b_* builder primitives that component classes
 * call from build(). */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "model/classtext.h"

typedef struct b_link { int inst, pa, pb; double r, L, m; } b_link;
typedef struct b_ground { int inst, port; double s0; } b_ground;
typedef struct b_driver { int inst, flange, support; } b_driver;
typedef struct b_elem { int inst, att0, att1, natt, xofs; } b_elem; /* attachments 2.. at xports[xofs] */
typedef struct b_state { int inst, var, level, pp, pm; double offset; } b_state;
typedef struct b_initin { int inst, level, pp, pm, input; } b_initin;
typedef struct b_kin { int inst, outport, level, pp, pm; } b_kin;
typedef struct b_obs { int inst, port, level; } b_obs;
typedef struct b_own { int inst, k, var; } b_own;
typedef struct b_irows { int inst; const char *const *labels; } b_irows;
typedef struct b_con { int inst, own, n, k0, irow[2]; double off; } b_con; /* ports, coefficients at cports[k0..] */

struct fl_builder {
    fl_system *s;
    const fl_model *m;
    fl_diag *d;
    int inst;
    int failed;
    int *pnode; /* union-find id of each instance port (global port index), -1 absent */
    FL_VEC(b_link) links;
    FL_VEC(b_ground) grounds;
    FL_VEC(b_driver) drivers;
    FL_VEC(b_elem) elems;
    FL_VEC(int) xports; /* attachments beyond the second (fl_b_element_n) */
    FL_VEC(b_state) states;
    FL_VEC(b_initin) initins;
    FL_VEC(b_kin) kins;
    FL_VEC(b_obs) obs;
    FL_VEC(b_own) owns;
    FL_VEC(b_own) handled; /* fixed attributes the class turned into initial equations */
    FL_VEC(b_irows) irows;
    FL_VEC(b_con) cons;
    FL_VEC(int) cports;
    FL_VEC(double) ccoef;
};

/* ---- builder primitives ------------------------------------------------ */

int fl_b_port(fl_builder *b, const char *name)
{
    const fl_inst_rt *ir = &b->s->insts[b->inst];
    int k = fl_class_port(ir->cls, name);
    if (k < 0) fl_fail_internal("class %s has no port %s", ir->cls->path, name);
    return b->pnode[ir->port0 + k] >= 0 ? k : FL_GROUND;
}

double fl_b_par(fl_builder *b, const char *name)
{
    const fl_inst_rt *ir = &b->s->insts[b->inst];
    int k = fl_class_param(ir->cls, name);
    if (k < 0) fl_fail_internal("class %s has no parameter %s", ir->cls->path, name);
    fl_par_fix(b->s, ir->pofs + k);
    return b->s->par[ir->prow + k];
}

const double *fl_b_params(fl_builder *b)
{
    return b->s->par + b->s->insts[b->inst].prow;
}

void fl_b_fix_par(fl_builder *b, int k)
{
    fl_par_fix(b->s, b->s->insts[b->inst].pofs + k);
}

const char *fl_b_inst_name(fl_builder *b)
{
    return fl_inst_name(b->s, b->inst);
}

const fl_class *fl_b_class(fl_builder *b)
{
    return b->s->insts[b->inst].cls;
}

void fl_b_link(fl_builder *b, int pa, int pb, double L, double m)
{
    fl_b_link_ratio(b, pa, pb, 1, L, m);
}

void fl_b_link_ratio(fl_builder *b, int pa, int pb, double r, double c, double m)
{
    if (!(r != 0) || !isfinite(r) || !isfinite(c)) {
        const fl_class *cls = b->s->insts[b->inst].cls;
        fl_b_error(b, "flanges %s and %s are joined with ratio %g and offset %g: both must be finite, the ratio non-zero",
                   pa >= 0 ? cls->ports[pa].name : "(ground)", pb >= 0 ? cls->ports[pb].name : "(ground)", r, c);
        return;
    }
    b_link l = {b->inst, pa, pb, r, c, m};
    FL_VEC_PUSH(b->links, l);
}

void fl_b_ground(fl_builder *b, int port, double s0)
{
    b_ground g = {b->inst, port, s0};
    FL_VEC_PUSH(b->grounds, g);
}

void fl_b_driver(fl_builder *b, int flange, int support)
{
    b_driver r = {b->inst, flange, support};
    FL_VEC_PUSH(b->drivers, r);
}

void fl_b_element(fl_builder *b, int att0, int att1)
{
    b_elem e = {b->inst, att0, att1, 2, 0};
    FL_VEC_PUSH(b->elems, e);
}

void fl_b_element_n(fl_builder *b, const int *ports, int n)
{
    b_elem e = {b->inst, n > 0 ? ports[0] : FL_GROUND, n > 1 ? ports[1] : FL_GROUND, n < 2 ? 2 : n,
                (int)b->xports.n};
    for (int j = 2; j < n; j++) FL_VEC_PUSH(b->xports, ports[j]);
    FL_VEC_PUSH(b->elems, e);
}

/* Port of attachment j of a builder element. */
static int belem_port(const fl_builder *b, const b_elem *be, int j)
{
    return j == 0 ? be->att0 : j == 1 ? be->att1 : b->xports.v[be->xofs + j - 2];
}

void fl_b_state(fl_builder *b, const char *var, int level, int pp, int pm, double offset)
{
    int k = fl_class_var(b->s->insts[b->inst].cls, var);
    if (k < 0) fl_fail_internal("class %s has no variable %s", b->s->insts[b->inst].cls->path, var);
    b_state st = {b->inst, k, level, pp, pm, offset};
    FL_VEC_PUSH(b->states, st);
}

void fl_b_init_input(fl_builder *b, int level, int pp, int pm, int input)
{
    b_initin x = {b->inst, level, pp, pm, input};
    FL_VEC_PUSH(b->initins, x);
}

void fl_b_kin_output(fl_builder *b, const char *out, int level, int pp, int pm)
{
    int k = fl_class_port(b->s->insts[b->inst].cls, out);
    b_kin x = {b->inst, k, level, pp, pm};
    FL_VEC_PUSH(b->kins, x);
}

void fl_b_observe(fl_builder *b, int port, int level)
{
    b_obs o = {b->inst, port, level};
    FL_VEC_PUSH(b->obs, o);
}

void fl_b_own_state(fl_builder *b, int k, int var)
{
    b_own o = {b->inst, k, var};
    FL_VEC_PUSH(b->owns, o);
}

void fl_b_fixed_handled(fl_builder *b, int var)
{
    b_own o = {b->inst, -1, var};
    FL_VEC_PUSH(b->handled, o);
}

void fl_b_init_rows(fl_builder *b, const char *const *labels)
{
    b_irows r = {b->inst, labels};
    FL_VEC_PUSH(b->irows, r);
}

void fl_b_constraint(fl_builder *b, int own, int n, const int *ports, const double *coef, double offset, int irow_pos,
                     int irow_vel)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(coef[k])) {
            fl_b_error(b, "a coefficient of the constraint among its flanges is not a finite number");
            return;
        }
    if (!isfinite(offset)) {
        fl_b_error(b, "the offset of the constraint among its flanges is not a finite number");
        return;
    }
    b_con c = {b->inst, own, n, (int)b->cports.n, {irow_pos, irow_vel}, offset};
    for (int k = 0; k < n; k++) {
        FL_VEC_PUSH(b->cports, ports[k]);
        FL_VEC_PUSH(b->ccoef, coef[k]);
    }
    FL_VEC_PUSH(b->cons, c);
}

void fl_b_error(fl_builder *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = fl_xvsprintf(fmt, ap);
    va_end(ap);
    const fl_inst_rt *ir = &b->s->insts[b->inst];
    fl_err(b->d, fl_ir_loc(b->s, ir), "%s: %s", fl_ir_name(b->s, ir), msg);
    free(msg);
    b->failed = 1;
}

/* ---- helpers ----------------------------------------------------------- */

/* Node of a class port of an instance (after compression), -1 for ground. */
static int port_node(const fl_system *s, int inst, int port)
{
    if (port < 0) return -1;
    return s->ports[s->insts[inst].port0 + port].node;
}

static int cond_par(void *ctx, int k, fl_value *out)
{
    const fl_inst_rt *ir = ((void **)ctx)[0];
    fl_system *s = ((void **)ctx)[1];
    fl_par_fix(s, ir->pofs + k); /* baked into a connector's condition */
    if (ir->cls->params[k].type == FL_P_BOOL) *out = fl_value_bool(s->par[ir->prow + k] != 0);
    else *out = fl_value_real(s->par[ir->prow + k]);
    return 0;
}

/* ---- ports and nodes --------------------------------------------------- */

char **fl_node_names_build(const fl_system *s)
{
    int nn = s->nnodes;
    /* the ports of each node in port order (counting sort) */
    int *start = fl_xcalloc((size_t)nn + 1, sizeof(int));
    int *port = fl_xmalloc(sizeof(int) * (size_t)(s->nports ? s->nports : 1));
    int *owner = fl_xmalloc(sizeof(int) * (size_t)(s->nports ? s->nports : 1));
    for (int p = 0; p < s->nports; p++)
        if (s->ports[p].node >= 0) start[s->ports[p].node + 1]++;
    for (int n = 0; n < nn; n++) start[n + 1] += start[n];
    for (int i = 0; i < s->ninst; i++)
        for (int k = 0; k < s->insts[i].cls->nports; k++) owner[s->insts[i].port0 + k] = i;
    int *fill = fl_xmalloc(sizeof(int) * (size_t)(nn ? nn : 1));
    for (int n = 0; n < nn; n++) fill[n] = start[n];
    for (int p = 0; p < s->nports; p++)
        if (s->ports[p].node >= 0) port[fill[s->ports[p].node]++] = p;
    free(fill);
    fl_buf b = {0};
    size_t *ofs = fl_xmalloc(sizeof(size_t) * (size_t)(nn ? nn : 1));
    for (int n = 0; n < nn; n++) {
        ofs[n] = b.n;
        fl_buf_addc(&b, '{');
        for (int j = start[n]; j < start[n + 1]; j++) {
            const fl_inst_rt *ir = &s->insts[owner[port[j]]];
            if (j > start[n]) fl_buf_add(&b, ", ");
            fl_buf_add(&b, fl_ir_name(s, ir));
            fl_buf_addc(&b, '.');
            fl_buf_add(&b, ir->cls->ports[port[j] - ir->port0].name);
        }
        fl_buf_addc(&b, '}');
        fl_buf_addc(&b, '\0');
    }
    free(start);
    free(port);
    free(owner);
    char **names = fl_xmalloc(sizeof(char *) * (size_t)(nn + 1));
    char *text = fl_buf_take(&b);
    for (int n = 0; n < nn; n++) names[n] = text + ofs[n];
    names[nn] = text;
    free(ofs);
    return names;
}

void fl_node_names_free(const fl_system *s, char **names)
{
    if (names) free(names[s->nnodes]);
    free(names);
}

const char *fl_node_name(fl_system *s, int n)
{
    if (!s->node_names) s->node_names = fl_node_names_build(s);
    return s->node_names[n];
}

static int make_ports(fl_system *s, const fl_model *m, fl_builder *b, fl_uf *uf, fl_diag *d)
{
    int nports = 0;
    for (int i = 0; i < s->ninst; i++) {
        s->insts[i].port0 = nports;
        nports += s->insts[i].cls->nports;
    }
    s->nports = nports;
    s->ports = fl_xcalloc((size_t)(nports ? nports : 1), sizeof(fl_port_rt));
    b->pnode = fl_xmalloc(sizeof(int) * (size_t)(nports ? nports : 1));
    int rc = 0;
    for (int i = 0; i < s->ninst; i++) {
        fl_inst_rt *ir = &s->insts[i];
        for (int k = 0; k < ir->cls->nports; k++) {
            int present = 1;
            void *ctx[2] = {(void *)ir, s};
            fl_value v;
            int cond = fl_class_port_cond(ir->cls, k, cond_par, ctx, &v, d);
            if (cond) {
                if (cond < 0 || v.kind != V_BOOL) {
                    fl_err(d, fl_ir_loc(s, ir), "%s: cannot evaluate the condition of connector %s", fl_ir_name(s, ir), ir->cls->ports[k].name);
                    rc = -1;
                }
                present = v.kind == V_BOOL && v.num != 0;
                fl_value_free(&v);
            }
            if (strcmp(ir->cls->ports[k].name, "support") == 0) ir->has_support = present;
            s->ports[ir->port0 + k].node = -1;
            b->pnode[ir->port0 + k] = present ? ir->port0 + k : -1;
            if (ir->cls->ports[k].kind != FL_PORT_FLANGE && present) b->pnode[ir->port0 + k] = -2; /* signal */
        }
    }
    fl_uf_init(uf, nports);
    for (size_t c = 0; c < m->conns.n; c++) {
        const fl_mconn *cn = &m->conns.v[c];
        int pa = s->insts[cn->a.inst].port0 + cn->a.port;
        int pb = s->insts[cn->b.inst].port0 + cn->b.port;
        if (b->pnode[pa] < 0 || b->pnode[pb] < 0) continue; /* signal, or a disabled conditional connector */
        fl_uf_union(uf, pa, pb);
    }
    /* compress to node numbers */
    int *node_of_root = fl_xmalloc(sizeof(int) * (size_t)(nports ? nports : 1));
    for (int p = 0; p < nports; p++) node_of_root[p] = -1;
    int nn = 0;
    for (int p = 0; p < nports; p++) {
        if (b->pnode[p] < 0) continue;
        int r = fl_uf_find(uf, p);
        if (node_of_root[r] < 0) node_of_root[r] = nn++;
        s->ports[p].node = node_of_root[r];
    }
    free(node_of_root);
    s->nnodes = nn;
    s->nodes = fl_xcalloc((size_t)(nn ? nn : 1), sizeof(fl_node));
    for (int i = 0; i < s->ninst; i++) {
        const fl_inst_rt *ir = &s->insts[i];
        for (int k = 0; k < ir->cls->nports; k++) {
            int n = s->ports[ir->port0 + k].node;
            if (n >= 0) s->nodes[n].dom = fl_port_domain(&ir->cls->ports[k]);
        }
    }
    return rc;
}

/* ---- bodies ------------------------------------------------------------ */

/* "2*s1 - 0.5": an affine relation for messages. */
static void affine_text(char *buf, size_t cap, double r, double c)
{
    char rs[40], cs[40];
    snprintf(rs, sizeof rs, "%.9g", r);
    snprintf(cs, sizeof cs, "%.9g", fabs(c));
    snprintf(buf, cap, "%s%s%s%s", r == 1 ? "" : r == -1 ? "-" : rs, r == 1 || r == -1 ? "s1" : "*s1",
             c == 0 ? "" : c > 0 ? " + " : " - ", c == 0 ? "" : cs);
}

/* Link l joins two nodes already rigidly joined by others: if it agrees with
 * them, the forces in the loop are not determined; if not, the positions
 * cannot be satisfied. Either is an error at the component. */
static void check_loop(fl_system *s, int l, fl_diag *d)
{
    const fl_link *lk = &s->links[l];
    const fl_node *na = &s->nodes[lk->node_a], *nb = &s->nodes[lk->node_b];
    const fl_inst_rt *ir = &s->insts[lk->inst];
    /* s_b = rr s_a + cc through the others (s_a = ratio_a q + off_a) */
    double rr = nb->ratio / na->ratio, cc = nb->off - rr * na->off;
    /* said in the order of the nodes (of the model text): s_a = (s_b - L) / r */
    int flip = lk->node_a > lk->node_b;
    const char *n1 = fl_node_name(s, flip ? lk->node_b : lk->node_a), *n2 = fl_node_name(s, flip ? lk->node_a : lk->node_b);
    double tol = 1e-12 * (1 + fabs(cc) + fabs(lk->L));
    if (fabs(rr - lk->r) <= 1e-12 * fabs(lk->r) && fabs(cc - lk->L) <= tol) {
        fl_err(d, fl_ir_loc(s, ir),
               "%s closes a loop of rigid connections (masses, rods, sensors, levers) between %s and %s: "
               "the forces in it are not determined",
               fl_ir_name(s, ir), n1, n2);
        return;
    }
    double r1 = flip ? 1 / lk->r : lk->r, c1 = flip ? -lk->L / lk->r : lk->L;
    double r2 = flip ? 1 / rr : rr, c2 = flip ? -cc / rr : cc;
    char want[100], have[100];
    affine_text(want, sizeof want, r1, c1);
    affine_text(have, sizeof have, r2, c2);
    fl_err(d, fl_ir_loc(s, ir),
           "%s contradicts the rigid connections (masses, rods, sensors, levers) that already join s1 = %s and "
           "s2 = %s: it requires s2 = %s, they give s2 = %s",
           fl_ir_name(s, ir), n1, n2, want, have);
}

/* Links (rigid members) join nodes into bodies: the links copied from the
 * builder, the nodes numbered by body. A link that closes a loop is marked
 * in loop (checked once the ratios and offsets are known); returns -1 if
 * there is one. */
static int join_links(fl_system *s, const fl_builder *b, unsigned char *loop)
{
    int nn = s->nnodes, rc = 0;
    fl_uf uf;
    fl_uf_init(&uf, nn);
    for (int l = 0; l < s->nlinks; l++) {
        const b_link *bl = &b->links.v[l];
        fl_link *k = &s->links[l];
        k->inst = bl->inst;
        k->port_a = bl->pa;
        k->port_b = bl->pb;
        k->node_a = port_node(s, bl->inst, bl->pa);
        k->node_b = port_node(s, bl->inst, bl->pb);
        k->r = bl->r;
        k->L = bl->L;
        k->m = bl->m;
        if (k->node_a < 0 || k->node_b < 0) continue;
        if (fl_uf_find(&uf, k->node_a) == fl_uf_find(&uf, k->node_b)) {
            loop[l] = 1;
            rc = -1;
            continue;
        }
        fl_uf_union(&uf, k->node_a, k->node_b);
    }
    int *body_of_root = fl_xmalloc(sizeof(int) * (size_t)(nn ? nn : 1));
    for (int i = 0; i < nn; i++) body_of_root[i] = -1;
    int nb = 0;
    for (int i = 0; i < nn; i++) {
        int r = fl_uf_find(&uf, i);
        if (body_of_root[r] < 0) body_of_root[r] = nb++;
        s->nodes[i].body = body_of_root[r];
    }
    free(body_of_root);
    fl_uf_free(&uf);
    s->nbodies = nb;
    s->bodies = fl_xcalloc((size_t)(nb ? nb : 1), sizeof(fl_body));
    for (int i = 0; i < nb; i++) {
        s->bodies[i].ref_node = -1;
        s->bodies[i].root = -1;
        s->bodies[i].drv = -1;
        s->bodies[i].qi = s->bodies[i].vi = -1;
    }
    return rc;
}

typedef FL_VEC(int) int_vec;
typedef FL_VEC(double) dbl_vec;

/* Roots, grounds first then drivers: each takes its body (a ground's
 * position, a driver's kind of motion). A second root on a body goes to
 * clash, with the position a ground would give it (reported once the
 * offsets are known, which says whether the two agree); returns -1 if
 * there is one. */
static int make_roots(fl_system *s, const fl_builder *b, int_vec *clash, dbl_vec *clash_pos)
{
    int rc = 0;
    s->nroots_r = (int)(b->grounds.n + b->drivers.n);
    s->roots = fl_xcalloc((size_t)(s->nroots_r ? s->nroots_r : 1), sizeof(fl_root));
    s->ndrv = (int)b->drivers.n;
    s->drvs = fl_xcalloc((size_t)(s->ndrv ? s->ndrv : 1), sizeof(fl_driver));
    int nr = 0;
    /* ground_pos[i] is the position of root i (one per ground, not per
     * body: several grounds may share a body, which is the over-determined
     * error) */
    double *ground_pos = fl_xcalloc(b->grounds.n ? b->grounds.n : 1, sizeof(double));
    for (size_t g = 0; g < b->grounds.n; g++) {
        const b_ground *bg = &b->grounds.v[g];
        fl_root *r = &s->roots[nr];
        r->inst = bg->inst;
        r->port = bg->port;
        r->node = port_node(s, bg->inst, bg->port);
        r->drv = -1;
        ground_pos[nr] = bg->s0;
        nr++;
    }
    for (size_t k = 0; k < b->drivers.n; k++) {
        const b_driver *bd = &b->drivers.v[k];
        fl_driver *dv = &s->drvs[k];
        const fl_inst_rt *ir = &s->insts[bd->inst];
        dv->inst = bd->inst;
        dv->kind = ir->cls->drv->kind(s->par + ir->prow);
        dv->flange_port = bd->flange;
        dv->support_port = bd->support;
        dv->support_node = port_node(s, bd->inst, bd->support);
        dv->sig = ir->in0;
        dv->nin = fl_class_nin(ir->cls);
        s->insts[bd->inst].drv = (int)k;
        fl_root *r = &s->roots[nr++];
        r->inst = bd->inst;
        r->port = bd->flange;
        r->node = port_node(s, bd->inst, bd->flange);
        r->drv = (int)k;
    }
    for (int i = 0; i < s->nroots_r; i++) {
        fl_root *r = &s->roots[i];
        if (r->node < 0) continue;
        fl_body *bd = &s->bodies[s->nodes[r->node].body];
        if (bd->root >= 0) {
            FL_VEC_PUSH(*clash, i);
            FL_VEC_PUSH(*clash_pos, r->drv < 0 ? ground_pos[i] : 0.0);
            rc = -1;
            continue;
        }
        bd->root = i;
        bd->ref_node = r->node;
        if (r->drv < 0) {
            bd->kind = B_GROUND;
            bd->q0 = ground_pos[i];
        } else {
            fl_driver *dv = &s->drvs[r->drv];
            dv->body = (int)(bd - s->bodies);
            bd->drv = r->drv;
            bd->kind = dv->kind == FL_DRV_POS ? B_POS : dv->kind == FL_DRV_VEL ? B_VEL : B_ACC;
        }
    }
    free(ground_pos);
    return rc;
}

/* A driver's support must not move: its body must be grounded (a body
 * without a root is free or massless, and its kind is not set yet). */
static int check_driver_supports(const fl_system *s, fl_diag *d)
{
    for (int k = 0; k < s->ndrv; k++) {
        const fl_driver *dv = &s->drvs[k];
        if (dv->support_node < 0) continue;
        const fl_body *sb = &s->bodies[s->nodes[dv->support_node].body];
        if (sb->root < 0 || sb->kind != B_GROUND) {
            fl_err(d, fl_inst_loc(s, dv->inst),
                   "%s: a support that moves is not supported for prescribed-motion sources; connect %s.support to a Fixed",
                   fl_inst_name(s, dv->inst), fl_inst_name(s, dv->inst));
            return -1;
        }
    }
    return 0;
}

/* Each node's ratio and offset on its body, breadth-first over the links
 * from the body's reference node (a root's node, else its first node),
 * and the order in which internal forces are eliminated (leaves first:
 * reverse breadth-first order). Returns -1 if levers multiply a motion out
 * of range. */
static int place_nodes(fl_system *s, const unsigned char *loop, fl_diag *d)
{
    int nn = s->nnodes, nb = s->nbodies, rc = 0;
    int *adj0 = fl_xcalloc((size_t)nn + 1, sizeof(int));
    for (int l = 0; l < s->nlinks; l++) {
        if (s->links[l].node_a < 0 || s->links[l].node_b < 0 || loop[l]) continue;
        adj0[s->links[l].node_a + 1]++;
        adj0[s->links[l].node_b + 1]++;
    }
    for (int i = 0; i < nn; i++) adj0[i + 1] += adj0[i];
    int *adj = fl_xmalloc(sizeof(int) * (size_t)(2 * s->nlinks + 1));
    int *fill = fl_xcalloc((size_t)(nn ? nn : 1), sizeof(int));
    for (int l = 0; l < s->nlinks; l++) {
        if (s->links[l].node_a < 0 || s->links[l].node_b < 0 || loop[l]) continue;
        int a = s->links[l].node_a, c = s->links[l].node_b;
        adj[adj0[a] + fill[a]++] = l;
        adj[adj0[c] + fill[c]++] = l;
    }
    free(fill);
    for (int i = 0; i < nn; i++) {
        fl_body *bd = &s->bodies[s->nodes[i].body];
        if (bd->ref_node < 0) bd->ref_node = i;
    }
    int *queue = fl_xmalloc(sizeof(int) * (size_t)(nn ? nn : 1));
    int *seen = fl_xcalloc((size_t)(nn ? nn : 1), sizeof(int));
    int *via = fl_xmalloc(sizeof(int) * (size_t)(nn ? nn : 1)); /* link that reached the node */
    FL_VEC(fl_elim) elim = {0};
    for (int bi = 0; bi < nb; bi++) {
        fl_body *bd = &s->bodies[bi];
        int head = 0, tail = 0;
        queue[tail++] = bd->ref_node;
        seen[bd->ref_node] = 1;
        via[bd->ref_node] = -1;
        s->nodes[bd->ref_node].ratio = 1;
        s->nodes[bd->ref_node].off = 0;
        while (head < tail) {
            int n = queue[head++];
            for (int k = adj0[n]; k < adj0[n + 1]; k++) {
                const fl_link *lk = &s->links[adj[k]];
                int other = lk->node_a == n ? lk->node_b : lk->node_a;
                if (seen[other]) continue;
                seen[other] = 1;
                via[other] = adj[k];
                /* s_b = r s_a + L, s_n = ratio_n q + off_n */
                const fl_node *nd = &s->nodes[n];
                fl_node *no = &s->nodes[other];
                if (lk->node_a == n) {
                    no->ratio = lk->r * nd->ratio;
                    no->off = lk->r * nd->off + lk->L;
                } else {
                    no->ratio = nd->ratio / lk->r;
                    no->off = (nd->off - lk->L) / lk->r;
                }
                if (!isfinite(no->ratio) || no->ratio == 0 || !isfinite(no->off)) {
                    char r[40];
                    fl_fmt_double(r, sizeof r, no->ratio);
                    fl_err(d, fl_inst_loc(s, lk->inst),
                           "%s: the levers joining %s to %s multiply the motion of the first by %s, which is out "
                           "of range",
                           fl_inst_name(s, lk->inst), fl_node_name(s, other), fl_node_name(s, bd->ref_node), r);
                    no->ratio = 1;
                    no->off = 0;
                    rc = -1;
                }
                queue[tail++] = other;
            }
        }
        bd->order0 = (int)elim.n;
        for (int k = tail - 1; k > 0; k--) {
            int n = queue[k];
            const fl_link *lk = &s->links[via[n]];
            fl_elim e = {via[n], lk->node_a == n ? 0 : 1, n};
            FL_VEC_PUSH(elim, e);
        }
        bd->norder = (int)elim.n - bd->order0;
    }
    s->elim = fl_shrink(elim.v, sizeof(fl_elim) * (elim.n ? elim.n : 1)); /* (a vector grown by doubling) */
    s->nelim = (int)elim.n;
    free(queue);
    free(seen);
    free(via);
    free(adj);
    free(adj0);
    return rc;
}

/* The second roots of bodies (make_roots): where they agree and where not. */
static void report_clashes(fl_system *s, const int_vec *clash, const dbl_vec *clash_pos, fl_diag *d)
{
    for (size_t k = 0; k < clash->n; k++) {
        const fl_root *r = &s->roots[clash->v[k]];
        const fl_body *bd = &s->bodies[s->nodes[r->node].body];
        const fl_root *o = &s->roots[bd->root];
        const fl_node *rn = &s->nodes[r->node];
        fl_buf what = {0};
        if (o->drv < 0 && r->drv < 0) {
            /* both fixed: where the first puts the second's flange, and where the second wants it */
            double implied = rn->ratio * bd->q0 + rn->off, own = clash_pos->v[k];
            char a[40], bb[40];
            fl_fmt_double(a, sizeof a, implied);
            fl_fmt_double(bb, sizeof bb, own);
            const char *pname = s->insts[r->inst].cls->ports[r->port].name;
            if (fabs(implied - own) <= 1e-12 * fmax(1, fabs(own)))
                fl_buf_printf(&what, "they agree (%s.%s at %s), one of them is redundant", fl_inst_name(s, r->inst),
                              pname, bb);
            else
                fl_buf_printf(&what, "through it %s puts %s.%s at %s, %s holds it at %s", fl_inst_name(s, o->inst),
                              fl_inst_name(s, r->inst), pname, a, fl_inst_name(s, r->inst), bb);
        } else {
            fl_buf_printf(&what, "%s prescribes its motion", r->drv >= 0 ? fl_inst_name(s, r->inst) : fl_inst_name(s, o->inst));
        }
        fl_err(d, fl_inst_loc(s, r->inst),
               "%s and %s both impose the position of the same rigid body %s: %s; the system is over-determined",
               fl_inst_name(s, o->inst), fl_inst_name(s, r->inst), fl_node_name(s, r->node), what.s);
        fl_buf_free(&what);
    }
}

/* Each body's mass (kinetic energy m v_a^2 / 2 = m ratio_a^2 v^2 / 2 of
 * the masses on it) and the position of prescribed bodies' supports (a
 * ground's reference node is its root node: q0 is its position). */
static void body_masses(fl_system *s)
{
    for (int l = 0; l < s->nlinks; l++) {
        const fl_link *lk = &s->links[l];
        if (lk->node_a < 0) continue;
        const fl_node *na = &s->nodes[lk->node_a];
        s->bodies[na->body].mass += lk->m * na->ratio * na->ratio;
    }
    for (int k = 0; k < s->ndrv; k++) {
        fl_driver *dv = &s->drvs[k];
        double sup = 0;
        if (dv->support_node >= 0) {
            const fl_node *sn = &s->nodes[dv->support_node];
            sup = sn->ratio * s->bodies[sn->body].q0 + sn->off;
        }
        s->bodies[dv->body].q0 = sup;
    }
}

static int make_bodies(fl_system *s, fl_builder *b, fl_diag *d)
{
    s->nlinks = (int)b->links.n;
    s->links = fl_xcalloc((size_t)(s->nlinks ? s->nlinks : 1), sizeof(fl_link));
    unsigned char *loop = fl_xcalloc((size_t)(s->nlinks ? s->nlinks : 1), 1);
    int_vec clash = {0};
    dbl_vec clash_pos = {0};
    int rc = join_links(s, b, loop);
    if (make_roots(s, b, &clash, &clash_pos)) rc = -1;
    if (!rc && check_driver_supports(s, d)) rc = -1;
    if (place_nodes(s, loop, d)) rc = -1;
    for (int l = 0; l < s->nlinks; l++)
        if (loop[l]) check_loop(s, l, d);
    free(loop);
    report_clashes(s, &clash, &clash_pos, d);
    FL_VEC_FREE(clash);
    FL_VEC_FREE(clash_pos);
    body_masses(s);
    return rc;
}

/* ---- elements ---------------------------------------------------------- */

/* A class's place in the registry (user classes after all of them); the
 * last few asked are remembered: elements come in instance order, a few
 * classes taking turns, and the registry is searched from the start. */
typedef struct rank_memo {
    const fl_class *cls[4];
    int rank[4], next;
} rank_memo;

static int class_rank(rank_memo *mo, const fl_class *c)
{
    for (int k = 0; k < 4; k++)
        if (mo->cls[k] == c) return mo->rank[k];
    int n = fl_class_count(), r = n;
    for (int i = 0; i < n && r == n; i++)
        if (fl_class_at(i) == c) r = i;
    mo->cls[mo->next] = c;
    mo->rank[mo->next] = r;
    mo->next = (mo->next + 1) % 4;
    return r;
}

static void make_elements(fl_system *s, fl_builder *b)
{
    int ne = (int)b->elems.n;
    s->nelem = ne;
    s->elems = fl_xcalloc((size_t)(ne ? ne : 1), sizeof(fl_elem));
    /* attachment slots: two per element, then the extra ones of wide elements */
    int nslots = 2 * ne;
    for (int k = 0; k < ne; k++) nslots += b->elems.v[k].natt - 2;
    s->nslots = nslots;
    s->elem_node = fl_xmalloc(sizeof(int) * (size_t)(nslots + 1));
    s->elem_frow = fl_xmalloc(sizeof(int) * (size_t)(nslots + 1));
    s->att_body = fl_xmalloc(sizeof(int) * (size_t)(nslots + 1));
    int xnext = 2 * ne;
    /* the elements by class (classes with several callback sets by them,
     * to batch alike), in their order within a class: a counting sort */
    int *rank = fl_xmalloc(sizeof(int) * (size_t)(ne ? ne : 1));
    int nrank = 4 * (fl_class_count() + 1);
    int *start = fl_xcalloc((size_t)nrank + 1, sizeof(int));
    rank_memo mo = {{NULL}, {0}, 0};
    const fl_elem_ops **ops_of = fl_xmalloc(sizeof *ops_of * (size_t)(ne ? ne : 1)); /* by builder element */
    for (int k = 0; k < ne; k++) {
        const fl_inst_rt *ir = &s->insts[b->elems.v[k].inst];
        ops_of[k] = ir->cls->elem_for ? ir->cls->elem_for(s->par + ir->prow) : ir->cls->elem;
        rank[k] = 4 * class_rank(&mo, ir->cls) + (ops_of[k] == ir->cls->elem ? 0 : 1);
        start[rank[k] + 1]++;
    }
    for (int r = 0; r < nrank; r++) start[r + 1] += start[r];
    int *ord = fl_xmalloc(sizeof(int) * (size_t)(ne ? ne : 1));
    for (int k = 0; k < ne; k++) ord[start[rank[k]]++] = k;
    free(start);
    free(rank);
    FL_VEC(fl_egroup) groups = {0};
    int nmodes = 0, nroots = 0, nreal = 0;
    for (int i = 0; i < ne; i++) {
        const b_elem *be = &b->elems.v[ord[i]];
        fl_inst_rt *ir = &s->insts[be->inst];
        const fl_elem_ops *ops = ops_of[ord[i]];
        fl_elem *e = &s->elems[i];
        e->idx = i;
        e->inst = be->inst;
        e->pofs = ir->prow;
        e->own = -1;
        e->sig = ir->in0;
        e->mode = nmodes;
        e->root = nroots;
        e->rs = nreal;
        nmodes += ops->nmodes;
        nroots += ops->nroots;
        nreal += ops->nreal;
        e->user = ir->cls->user;
        e->xatt = be->natt > 2 ? xnext : -1;
        if (be->natt > 2) xnext += be->natt - 2;
        for (int j = 0; j < be->natt; j++) {
            int n = port_node(s, be->inst, belem_port(b, be, j));
            int slot = fl_att_slot(e, j);
            s->elem_node[slot] = n;
            s->att_body[slot] = n >= 0 ? s->nodes[n].body : -1;
        }
        ir->elem = i;
        if (!groups.n || groups.v[groups.n - 1].ops != ops) {
            fl_egroup g = {ir->cls, ops, i, 0};
            FL_VEC_PUSH(groups, g);
        }
        groups.v[groups.n - 1].n++;
    }
    free(ord);
    free(ops_of);
    s->egroups = groups.v;
    s->negroups = (int)groups.n;
    s->nmodes = nmodes;
    s->nroot_fns = nroots;
    s->nreal = nreal;
}

/* ---- port force contributions ----------------------------------------- */

/* A contribution c to the force of port p: counted (at NULL), or placed
 * after the port's others (at[p]: the next free place). */
static void put_contrib(fl_system *s, int *at, int p, fl_pcontrib c)
{
    if (at) s->contrib[at[p]++] = c;
    else s->ports[p].c0++;
}

/* Every contribution to a port's force, in the order they are summed. */
static void list_contribs(fl_system *s, fl_builder *b, const int *elem_of, int *at)
{
    for (int e = 0; e < s->nelem; e++) {
        const b_elem *be = &b->elems.v[elem_of[s->elems[e].inst]];
        for (int j = 0; j < be->natt; j++) {
            int port = belem_port(b, be, j);
            if (port >= 0)
                put_contrib(s, at, s->insts[be->inst].port0 + port, fl_pc_make(PC_ELEM, fl_att_slot(&s->elems[e], j), j));
        }
    }
    for (int l = 0; l < s->nlinks; l++) {
        const fl_link *lk = &s->links[l];
        if (lk->port_a >= 0) put_contrib(s, at, s->insts[lk->inst].port0 + lk->port_a, fl_pc_make(PC_LINK, l, 0));
        if (lk->port_b >= 0) put_contrib(s, at, s->insts[lk->inst].port0 + lk->port_b, fl_pc_make(PC_LINK, l, 1));
    }
    for (int r = 0; r < s->nroots_r; r++)
        put_contrib(s, at, s->insts[s->roots[r].inst].port0 + s->roots[r].port, fl_pc_make(PC_ROOT, r, 0));
    for (int k = 0; k < s->ndrv; k++)
        if (s->drvs[k].support_port >= 0)
            put_contrib(s, at, s->insts[s->drvs[k].inst].port0 + s->drvs[k].support_port, fl_pc_make(PC_DRVSUP, k, 0));
}

/* The contributions grouped by port, each port's in the order listed:
 * counted first (into the ports' c0), then placed (a counting sort
 * without a list of them all, which at 10^6 parts is 100 MB of pages
 * touched once). */
static void make_contribs(fl_system *s, fl_builder *b)
{
    int *elem_of = fl_xmalloc(sizeof(int) * (size_t)(s->ninst ? s->ninst : 1)); /* instance -> builder element */
    for (int i = 0; i < s->ninst; i++) elem_of[i] = -1;
    for (size_t k = 0; k < b->elems.n; k++) elem_of[b->elems.v[k].inst] = (int)k;
    for (int p = 0; p < s->nports; p++) s->ports[p].c0 = 0;
    list_contribs(s, b, elem_of, NULL);
    int n = 0;
    for (int p = 0; p < s->nports; p++) {
        int c = s->ports[p].c0;
        s->ports[p].c0 = n;
        n += c;
    }
    s->ncontrib = n;
    s->contrib = fl_xmalloc(sizeof(fl_pcontrib) * (size_t)(n ? n : 1));
    int *at = fl_xmalloc(sizeof(int) * (size_t)(s->nports ? s->nports : 1));
    for (int p = 0; p < s->nports; p++) at[p] = s->ports[p].c0;
    list_contribs(s, b, elem_of, at);
    free(at);
    free(elem_of);
}

/* ---- body kinds -------------------------------------------------------- */

/* Does some row of element e depend on level `level` of its attachment j? */
static int elem_uses(const fl_system *s, int e, int j, int level)
{
    const fl_elem_ops *ops = fl_inst_ops(s, s->elems[e].inst);
    return fl_ops_uses_column(ops, 3 * j + level);
}

static int elem_depends_on_motion(const fl_system *s, int e, int j)
{
    return elem_uses(s, e, j, 1) || elem_uses(s, e, j, 2);
}

/* A body is free (with mass), or massless: damped (its velocity an
 * algebraic unknown) or between springs (its position one). A massless
 * body that a constraint among three or more flanges moves and whose
 * acceleration an element needs (the ring of a planetary gear held by a
 * brake and a clutch: locked friction asks for the acceleration) is a free
 * body of zero mass: the constraint, written on accelerations, gives its
 * acceleration, its force balance gives the constraint's force, and the
 * system stays index 1. So is a massless body that two or more such
 * constraints move (the shaft between a gear on a fixed support and the sun
 * of a planetary gear): as a position or a velocity unknown every
 * constraint would determine it again, and its one force balance could
 * not give the forces of them all. */
static void classify_bodies(fl_system *s, const fl_builder *b)
{
    int *damped = fl_xcalloc((size_t)(s->nbodies ? s->nbodies : 1), sizeof(int));
    int *accel = fl_xcalloc((size_t)(s->nbodies ? s->nbodies : 1), sizeof(int));
    int *constrained = fl_xcalloc((size_t)(s->nbodies ? s->nbodies : 1), sizeof(int)); /* how many constraints */
    int *last = fl_xcalloc((size_t)(s->nbodies ? s->nbodies : 1), sizeof(int)); /* the last one counted + 1 */
    for (int e = 0; e < s->nelem; e++) {
        const fl_elem_ops *ops = fl_inst_ops(s, s->elems[e].inst);
        for (int j = 0; j < fl_ops_natt(ops); j++) {
            int bd = s->att_body[fl_att_slot(&s->elems[e], j)];
            if (bd >= 0 && elem_depends_on_motion(s, e, j)) damped[bd] = 1;
            if (bd >= 0 && elem_uses(s, e, j, 2)) accel[bd] = 1;
        }
    }
    for (size_t k = 0; k < b->cons.n; k++) {
        const b_con *bc = &b->cons.v[k];
        for (int i = 0; i < bc->n; i++) {
            int node = port_node(s, bc->inst, b->cports.v[bc->k0 + i]);
            if (node < 0) continue;
            int bd = s->nodes[node].body;
            if (last[bd] != (int)k + 1) constrained[bd]++;
            last[bd] = (int)k + 1;
        }
    }
    for (int i = 0; i < s->nbodies; i++) {
        fl_body *bd = &s->bodies[i];
        if (bd->root >= 0) continue;
        if (bd->mass > 0 || (accel[i] && constrained[i]) || constrained[i] >= 2) bd->kind = B_FREE;
        else bd->kind = damped[i] ? B_MLV : B_MLQ;
    }
    free(damped);
    free(accel);
    free(constrained);
    free(last);
}

/* ---- constraints among three or more flanges ---------------------------- */

/* The derivative of a body's position a constraint row can determine: its
 * position if it is massless between springs (the force balance then gives
 * the multiplier), its velocity if it is massless and damped, its
 * acceleration if it has mass; -1 for a body whose motion is given. */
static int body_order(const fl_body *bd)
{
    switch (bd->kind) {
    case B_MLQ: return 0;
    case B_MLV: return 1;
    case B_FREE: return 2;
    default: return -1;
    }
}

/* The constraints of fl_b_constraint with their nodes, each differentiated
 * to the lowest order among the bodies it moves. */
static int make_cons(fl_system *s, fl_builder *b, fl_diag *d)
{
    int rc = 0, nc = (int)b->cons.n;
    s->ncons = nc;
    s->cons = fl_xcalloc((size_t)(nc ? nc : 1), sizeof(fl_con));
    s->con_node = fl_xmalloc(sizeof(int) * (b->cports.n ? b->cports.n : 1));
    s->con_coef = fl_xmalloc(sizeof(double) * (b->cports.n ? b->cports.n : 1));
    for (int k = 0; k < nc; k++) {
        const b_con *bc = &b->cons.v[k];
        fl_con *c = &s->cons[k];
        c->elem = s->insts[bc->inst].elem;
        c->row = bc->own;
        c->n = bc->n;
        c->k0 = bc->k0;
        c->off = bc->off;
        c->irow[0] = bc->irow[0];
        c->irow[1] = bc->irow[1];
        int level = 3;
        for (int i = 0; i < bc->n; i++) {
            int node = port_node(s, bc->inst, b->cports.v[bc->k0 + i]);
            s->con_node[bc->k0 + i] = node;
            s->con_coef[bc->k0 + i] = b->ccoef.v[bc->k0 + i];
            int o = node >= 0 ? body_order(&s->bodies[s->nodes[node].body]) : -1;
            if (o >= 0 && o < level) level = o;
        }
        if (level == 3) {
            fl_err(d, fl_inst_loc(s, bc->inst),
                   "%s: its equations tie flanges together whose motion is all given (fixed or prescribed): nothing "
                   "is left to satisfy the constraint among them",
                   fl_inst_name(s, bc->inst));
            rc = -1;
            level = 0;
        }
        c->level = level;
    }
    return rc;
}

/* Is initial row q of the element of instance inst the constraint on
 * positions or velocities that its row is not a derivative of (then the
 * row itself says it)? */
static int con_row_dropped(const fl_system *s, const fl_builder *b, int inst, int q)
{
    for (size_t k = 0; k < b->cons.n; k++) {
        const b_con *bc = &b->cons.v[k];
        if (bc->inst != inst) continue;
        if ((q == bc->irow[0] && s->cons[k].level < 1) || (q == bc->irow[1] && s->cons[k].level < 2)) return 1;
    }
    return 0;
}

/* ---- signals ----------------------------------------------------------- */

/* An input of a user class that reads a variable of a library instance
 * (mass.s, spring.s_rel, mass.flange_a.s): the kinematic quantity the
 * class's build() declared for it. */
static int observe_signal(fl_system *s, const fl_model *m, fl_builder *b, int inst, int input, fl_sigref *sr,
                          const fl_port_ext *px, fl_diag *d)
{
    const fl_minst *mi = &m->insts.v[inst];
    if (input >= mi->nobs || mi->obs[input].inst < 0) {
        fl_err(d, fl_inst_loc(s, inst), "%s: internal error: an observed input without a target", fl_inst_name(s, inst));
        return -1;
    }
    int oi = mi->obs[input].inst;
    const fl_inst_rt *ir = &s->insts[oi];
    const char *name = mi->obs[input].var;
    const char *dot = strchr(name, '.');
    if (dot) { /* a port position (flange.s, flange.phi) */
        char *pn = fl_xstrndup(name, (size_t)(dot - name));
        int port = fl_class_port(ir->cls, pn);
        free(pn);
        if (port >= 0 && ir->cls->ports[port].kind == FL_PORT_FLANGE &&
            strcmp(dot + 1, fl_domain_info(fl_port_domain(&ir->cls->ports[port]))->pos) == 0) {
            sr->kind = SIG_KIN;
            sr->level = 0;
            sr->node[0] = port_node(s, oi, port);
            sr->node[1] = -1;
            sr->offset = 0;
            return 0;
        }
    }
    int var = fl_class_var(ir->cls, name);
    for (size_t j = 0; var >= 0 && j < b->states.n; j++) {
        const b_state *st = &b->states.v[j];
        if (st->inst != oi || st->var != var) continue;
        sr->kind = SIG_KIN;
        sr->level = st->level;
        sr->node[0] = port_node(s, oi, st->pp);
        sr->node[1] = st->pm == FL_NOPORT ? -1 : port_node(s, oi, st->pm);
        sr->offset = st->offset;
        return 0;
    }
    /* anything else (forces) is known at output points: fine for equations
     * that only define output variables */
    int port = -1;
    if (dot) { /* a port force (flange.f, flange.tau) */
        char *pn = fl_xstrndup(name, (size_t)(dot - name));
        port = fl_class_port(ir->cls, pn);
        free(pn);
        if (port >= 0 && (ir->cls->ports[port].kind != FL_PORT_FLANGE ||
                          strcmp(dot + 1, fl_domain_info(fl_port_domain(&ir->cls->ports[port]))->flow) != 0))
            port = -1;
    }
    if (!px->dynamic && (var >= 0 || port >= 0)) {
        sr->kind = SIG_LATE;
        sr->inst = oi;
        sr->out = var;
        sr->level = port;
        s->insts[inst].has_late = 1;
        s->has_late = 1;
        return 0;
    }
    fl_err(d, fl_system_loc(s, mi->obs[input].loc),
           "%s: equations read %s.%s, which flange knows only at output points: it can define output variables, not "
           "enter equations that determine the motion (those can read positions, velocities and accelerations of "
           "library components)",
           fl_inst_name(s, inst)[0] ? fl_inst_name(s, inst) : "the model", fl_ir_name(s, ir), name);
    return -1;
}

/* global index of a scalar signal element: port slot + sub */
typedef struct sigport { int inst, port, sub; } sigport;

static int make_signals(fl_system *s, const fl_model *m, fl_builder *b, fl_diag *d)
{
    int rc = 0;
    /* scalar signal elements: inputs and outputs of every instance */
    FL_VEC(sigport) els = {0};
    int *el0 = fl_xmalloc(sizeof(int) * (size_t)(s->nports ? s->nports : 1));
    for (int i = 0; i < s->ninst; i++) {
        fl_inst_rt *ir = &s->insts[i];
        for (int k = 0; k < ir->cls->nports; k++) {
            const fl_port_def *pd = &ir->cls->ports[k];
            el0[ir->port0 + k] = (int)els.n;
            if (pd->kind == FL_PORT_FLANGE) continue;
            int w = pd->width > 0 ? pd->width : pd->width < 0 ? ir->nout : 1;
            if (b->pnode[ir->port0 + k] == -1) w = 0; /* absent conditional input */
            for (int q = 0; q < w; q++) {
                sigport sp = {i, k, q};
                FL_VEC_PUSH(els, sp);
            }
        }
    }
    int nel = (int)els.n;
    fl_uf uf;
    fl_uf_init(&uf, nel);
    for (size_t c = 0; c < m->conns.n; c++) {
        const fl_mconn *cn = &m->conns.v[c];
        const fl_inst_rt *ia = &s->insts[cn->a.inst], *ib = &s->insts[cn->b.inst];
        if (ia->cls->ports[cn->a.port].kind == FL_PORT_FLANGE) continue;
        if (b->pnode[ia->port0 + cn->a.port] == -1 || b->pnode[ib->port0 + cn->b.port] == -1) continue;
        int wa = ia->cls->ports[cn->a.port].width < 0 ? ia->nout : 0;
        int wb = ib->cls->ports[cn->b.port].width < 0 ? ib->nout : 0;
        if ((wa && cn->a.sub >= wa) || (wb && cn->b.sub >= wb)) {
            char *sa = fl_pref_str(m, wa && cn->a.sub >= wa ? cn->a : cn->b);
            fl_err(d, cn->loc, "%s does not exist: the block has %d outputs", sa, wa ? wa : wb);
            free(sa);
            rc = -1;
            continue;
        }
        int ea = el0[ia->port0 + cn->a.port] + cn->a.sub;
        int eb = el0[ib->port0 + cn->b.port] + cn->b.sub;
        fl_uf_union(&uf, ea, eb);
    }
    /* the source of each group */
    int *src = fl_xmalloc(sizeof(int) * (size_t)(nel ? nel : 1));
    for (int i = 0; i < nel; i++) src[i] = -1;
    for (int i = 0; i < nel && !rc; i++) {
        const sigport *sp = &els.v[i];
        if (s->insts[sp->inst].cls->ports[sp->port].kind != FL_PORT_OUTPUT) continue;
        int r = fl_uf_find(&uf, i);
        if (src[r] >= 0) {
            const sigport *o = &els.v[src[r]];
            fl_pref pa = {o->inst, o->port, o->sub}, pb = {sp->inst, sp->port, sp->sub};
            char *sa = fl_pref_str(m, pa), *sb = fl_pref_str(m, pb);
            fl_err(d, fl_inst_loc(s, sp->inst), "outputs %s and %s are connected to each other", sa, sb);
            free(sa);
            free(sb);
            rc = -1;
        }
        src[r] = i;
    }
    /* input references */
    int nin = 0;
    for (int i = 0; i < s->ninst; i++) {
        s->insts[i].in0 = nin;
        nin += fl_class_nin(s->insts[i].cls);
    }
    s->nsig = nin;
    s->sigs = fl_xcalloc((size_t)(nin ? nin : 1), sizeof(fl_sigref));
    for (int i = 0; i < s->ninst && !rc; i++) {
        fl_inst_rt *ir = &s->insts[i];
        int k_in = 0;
        for (int k = 0; k < ir->cls->nports; k++) {
            const fl_port_def *pd = &ir->cls->ports[k];
            if (pd->kind != FL_PORT_INPUT) continue;
            int w = pd->width > 0 ? pd->width : 1;
            for (int q = 0; q < w; q++, k_in++) {
                fl_sigref *sr = &s->sigs[ir->in0 + k_in];
                if (b->pnode[ir->port0 + k] == -1) continue; /* absent input */
                const fl_port_ext *px = ir->cls->port_ext ? &ir->cls->port_ext[k] : NULL;
                if (px) sr->nderiv = px->nderiv;
                if (px && px->observed) {
                    if (observe_signal(s, m, b, i, k_in, sr, px, d)) rc = -1;
                    continue;
                }
                int el = el0[ir->port0 + k] + q;
                int srcel = src[fl_uf_find(&uf, el)];
                if (srcel < 0) {
                    fl_pref p = {i, k, q};
                    char *sp = fl_pref_str(m, p);
                    fl_err(d, fl_ir_loc(s, ir), "input %s is not connected to any signal source", sp);
                    free(sp);
                    rc = -1;
                    continue;
                }
                const sigport *so = &els.v[srcel];
                const fl_inst_rt *si = &s->insts[so->inst];
                if (si->cls->block) {
                    sr->kind = SIG_BLOCK;
                    sr->inst = so->inst;
                    sr->out = fl_block_out(si->cls, si->nout, so->port, so->sub);
                    continue;
                }
                if (si->cls->port_ext && si->cls->port_ext[so->port].own >= 0 && si->elem >= 0) {
                    /* an output of a user class: the own unknown that holds it */
                    if (sr->nderiv) {
                        fl_pref p = {so->inst, so->port, so->sub}, q2 = {i, k, q};
                        char *sp = fl_pref_str(m, p), *sq = fl_pref_str(m, q2);
                        fl_err(d, fl_ir_loc(s, ir), "%s needs the derivative of %s, which is computed by equations: connect it "
                                           "to a signal source block or a sensor",
                               sq, sp);
                        free(sp);
                        free(sq);
                        rc = -1;
                        continue;
                    }
                    sr->kind = SIG_Y;
                    sr->inst = si->elem;
                    sr->out = si->cls->port_ext[so->port].own;
                    continue;
                }
                const b_kin *kin = NULL;
                for (size_t t = 0; t < b->kins.n; t++)
                    if (b->kins.v[t].inst == so->inst && b->kins.v[t].outport == so->port) kin = &b->kins.v[t];
                if (!kin) {
                    fl_pref p = {so->inst, so->port, so->sub}, q2 = {i, k, q};
                    char *sp = fl_pref_str(m, p), *sq = fl_pref_str(m, q2);
                    fl_err(d, fl_ir_loc(s, ir),
                           "%s cannot drive %s: only signal sources and position/speed/acceleration sensors can feed inputs",
                           sp, sq);
                    free(sp);
                    free(sq);
                    rc = -1;
                    continue;
                }
                sr->kind = SIG_KIN;
                sr->level = kin->level;
                sr->node[0] = port_node(s, kin->inst, kin->pp);
                sr->node[1] = kin->pm == FL_NOPORT ? -1 : port_node(s, kin->inst, kin->pm);
                if (kin->level + sr->nderiv > 2) {
                    /* the derivative of an acceleration (or a velocity's second) is not formed */
                    fl_pref p = {so->inst, so->port, so->sub}, q2 = {i, k, q};
                    char *sp = fl_pref_str(m, p), *sq = fl_pref_str(m, q2);
                    fl_err(d, fl_ir_loc(s, ir),
                           "%s: the equations need the %s derivative of %s, which comes from %s (%s): flange does not "
                           "form derivatives of accelerations",
                           fl_ir_name(s, ir), sr->nderiv == 1 ? "first" : "second", sq, sp,
                           kin->level == 2 ? "an acceleration" : "a velocity");
                    free(sp);
                    free(sq);
                    rc = -1;
                }
            }
        }
    }
    /* drivers need their inputs from signal blocks (derivatives, no algebraic loops) */
    for (int k = 0; k < s->ndrv && !rc; k++) {
        const fl_driver *dv = &s->drvs[k];
        for (int q = 0; q < dv->nin; q++) {
            if (s->sigs[dv->sig + q].kind == SIG_Y && dv->kind != FL_DRV_ACC) {
                /* an exact position or speed needs the input's derivatives, which only the
                 * signal source blocks give (they would be taken as zero) */
                fl_err(d, fl_inst_loc(s, dv->inst),
                       "%s: an exact %s source needs the derivative%s of its input, which a block of equations does "
                       "not give: feed it from a signal source block, or set exact = false (a filter)",
                       fl_inst_name(s, dv->inst), dv->kind == FL_DRV_POS ? "position" : "speed",
                       dv->kind == FL_DRV_POS ? "s" : "");
                rc = -1;
                break;
            }
            if (s->sigs[dv->sig + q].kind == SIG_KIN) {
                fl_err(d, fl_inst_loc(s, dv->inst),
                       "%s: the input of a prescribed-motion source must come from a signal source block, not a sensor",
                       fl_inst_name(s, dv->inst));
                rc = -1;
                break;
            }
        }
    }
    FL_VEC(int) blocks = {0};
    for (int i = 0; i < s->ninst; i++)
        if (s->insts[i].cls->block) FL_VEC_PUSH(blocks, i);
    s->blocks = blocks.v;
    s->nblocks = (int)blocks.n;
    free(src);
    free(el0);
    fl_uf_free(&uf);
    FL_VEC_FREE(els);
    return rc;
}

/* ---- initial conditions ------------------------------------------------ */

/* fixed = true on a variable that is not a state of this configuration
 * (e.g. v of an exact Position source) would be silently ignored: refuse. */
static int check_fixed_attrs(fl_system *s, const fl_model *m, fl_builder *b, fl_diag *d)
{
    int rc = 0;
    /* the declared states of each instance: a flag per class variable */
    size_t *var0 = fl_xmalloc(sizeof(size_t) * (size_t)(s->ninst + 1));
    size_t total = 0;
    for (int i = 0; i < s->ninst; i++) {
        var0[i] = total;
        total += (size_t)s->insts[i].cls->nvars;
    }
    unsigned char *declared = fl_xcalloc(total + 1, 1);
    for (size_t j = 0; j < b->states.n; j++) declared[var0[b->states.v[j].inst] + (size_t)b->states.v[j].var] = 1;
    for (size_t j = 0; j < b->owns.n; j++) declared[var0[b->owns.v[j].inst] + (size_t)b->owns.v[j].var] = 1;
    for (size_t j = 0; j < b->handled.n; j++)
        declared[var0[b->handled.v[j].inst] + (size_t)b->handled.v[j].var] = 1;
    for (int i = 0; i < s->ninst; i++) {
        const fl_minst *in = &m->insts.v[i];
        for (int j = 0; j < in->nattrs; j++) {
            int k = in->attrs[j].var;
            const fl_attr *a = &in->attrs[j].a;
            if (!a->has_fixed || !a->fixed || declared[var0[i] + (size_t)k]) continue;
            fl_err(d, a->loc.file ? a->loc : in->loc,
                   "%s%s%s cannot be fixed: it is not a state of this component in this configuration", in->name,
                   in->name[0] ? "." : "", in->cls->vars[k].name);
            rc = -1;
        }
    }
    free(declared);
    free(var0);
    return rc;
}

/* Which start values complete under-determined initial conditions first,
 * as Modelica tools choose their states: those the model gives, then by
 * the component's stateSelect (always, prefer, default; a class without
 * one - Spring.s_rel, never a state in Modelica - after default; avoid,
 * never last). */
static int start_prio(const fl_system *s, int inst, int user_start)
{
    const fl_inst_rt *ir = &s->insts[inst];
    int k = fl_class_param(ir->cls, "stateSelect");
    int rank = 3;
    if (k >= 0) {
        static const int by_select[] = {5, 4, 2, 1, 0}; /* never, avoid, default, prefer, always */
        int sel = (int)s->par[ir->prow + k];
        if (sel >= 1 && sel <= 5) rank = by_select[sel - 1];
    }
    return (user_start ? 0 : 8) + rank;
}

/* A condition's label in the system's condition text (fl_system.cond_text). */
static char *cond_label(fl_system *s, const char *a, const char *b, const char *c)
{
    const char *parts[3] = {a, b, c};
    if (!s->cond_text) s->cond_text = fl_arena_new();
    return fl_arena_cat(s->cond_text, parts, c ? 3 : b ? 2 : 1);
}

/* The condition of idle condition x (system.h): what make_conds makes of
 * a state whose variable has no attribute set and is not fixed. */
static fl_cond idle_cond(fl_system *s, const struct fl_idle_cond *x)
{
    const fl_inst_rt *ir = &s->insts[x->inst];
    const fl_var_def *vd = &ir->cls->vars[x->var];
    fl_cond c;
    memset(&c, 0, sizeof c);
    c.level = (signed char)x->level;
    c.node_p = x->node_p;
    c.node_m = x->node_m;
    c.offset = x->offset;
    c.source = CV_ATTR;
    c.value = vd->start;
    c.weak = 2;
    c.prio = start_prio(s, x->inst, 0);
    c.label = cond_label(s, fl_ir_name(s, ir), ".", vd->name);
    c.loc = fl_ir_loc(s, ir);
    return c;
}

void fl_conds_wake(fl_system *s)
{
    if (!s->nidle) return;
    int n = s->ncond + s->nidle;
    fl_cond *all = fl_xmalloc(sizeof(fl_cond) * (size_t)n);
    for (int k = 0, i = 0, j = 0; k < n; k++)
        all[k] = i < s->nidle && s->idle[i].pos == k ? idle_cond(s, &s->idle[i++]) : s->conds[j++];
    free(s->conds);
    s->conds = all;
    s->ncond = n;
    free(s->idle);
    s->idle = NULL;
    s->nidle = 0;
}

static void make_conds(fl_system *s, const fl_model *m, fl_builder *b)
{
    /* sized at once: grown by doubling, a big model's copies would each
     * stay behind in the heap (about half again the conditions' size) */
    FL_VEC(fl_cond) conds = {0};
    FL_VEC(struct fl_idle_cond) idle = {0};
    conds.cap = b->states.n + b->initins.n + b->owns.n;
    for (size_t k = 0; k < b->irows.n; k++) conds.cap += (size_t)fl_inst_ops(s, b->irows.v[k].inst)->ninit;
    conds.v = fl_xmalloc(sizeof(fl_cond) * (conds.cap ? conds.cap : 1));
    idle.cap = b->states.n;
    idle.v = fl_xmalloc(sizeof *idle.v * (idle.cap ? idle.cap : 1));
    for (size_t k = 0; k < b->states.n; k++) {
        const b_state *st = &b->states.v[k];
        const fl_minst *in = &m->insts.v[st->inst];
        const fl_var_def *vd = &in->cls->vars[st->var];
        const fl_attr *a = fl_minst_attr(in, st->var);
        int fixed = a->has_fixed ? a->fixed : vd->fixed;
        double start = a->has_start ? a->start : vd->start;
        int weak = 0;
        if (!fixed) weak = (vd->flags & FL_VF_WEAK) ? 1 : 2; /* 2: only a suggestion for messages */
        int node_p = port_node(s, st->inst, st->pp);
        int node_m = st->pm == FL_NOPORT ? -1 : port_node(s, st->inst, st->pm);
        if (weak == 2 && !a->has_start && !a->has_fixed && !a->has_nominal && !a->loc.file) {
            /* idle_cond makes the same condition if it is needed */
            struct fl_idle_cond x = {(int)(conds.n + idle.n), st->inst, st->var, node_p, node_m, st->level, st->offset};
            FL_VEC_PUSH(idle, x);
            continue;
        }
        fl_cond c;
        memset(&c, 0, sizeof c);
        c.level = st->level;
        c.node_p = node_p;
        c.node_m = node_m;
        c.offset = st->offset;
        c.source = CV_ATTR;
        c.value = start;
        c.weak = weak;
        c.guess = fixed || a->has_start;
        c.prio = start_prio(s, st->inst, a->has_start);
        c.nominal = a->has_nominal ? a->nominal : 0;
        c.label = cond_label(s, in->name, ".", vd->name);
        c.loc = fl_system_loc(s, a->loc.file ? a->loc : in->loc);
        FL_VEC_PUSH(conds, c);
    }
    for (size_t k = 0; k < b->initins.n; k++) {
        const b_initin *x = &b->initins.v[k];
        const fl_inst_rt *ir = &s->insts[x->inst];
        fl_cond c;
        memset(&c, 0, sizeof c);
        c.level = x->level;
        c.node_p = port_node(s, x->inst, x->pp);
        c.node_m = x->pm == FL_NOPORT ? -1 : port_node(s, x->inst, x->pm);
        c.source = CV_INPUT;
        c.sig = ir->in0 + x->input;
        const fl_domain_names *dn = fl_domain_info(fl_port_domain(&ir->cls->ports[x->pp]));
        char *text = fl_xsprintf("%s.%s = %s_ref (initial equation)", fl_ir_name(s, ir), x->level == 0 ? dn->pos : dn->vel,
                                 x->level == 0 ? dn->pos : dn->vel);
        c.label = cond_label(s, text, NULL, NULL);
        free(text);
        c.loc = fl_ir_loc(s, ir);
        FL_VEC_PUSH(conds, c);
    }
    /* own unknowns of user classes: their start values */
    for (size_t k = 0; k < b->owns.n; k++) {
        const b_own *o = &b->owns.v[k];
        const fl_minst *in = &m->insts.v[o->inst];
        const fl_var_def *vd = &in->cls->vars[o->var];
        const fl_attr *a = fl_minst_attr(in, o->var);
        int fixed = a->has_fixed ? a->fixed : vd->fixed;
        fl_cond c;
        memset(&c, 0, sizeof c);
        c.level = 0;
        c.node_p = c.node_m = -1;
        c.source = CV_OWN;
        c.elem = s->insts[o->inst].elem;
        c.row = o->k;
        c.value = a->has_start ? a->start : vd->start;
        c.weak = fixed ? 0 : 2;
        c.guess = fixed || a->has_start;
        c.prio = start_prio(s, o->inst, a->has_start);
        c.nominal = a->has_nominal ? a->nominal : 0;
        c.label = in->name[0] ? cond_label(s, in->name, ".", vd->name) : cond_label(s, vd->name, NULL, NULL);
        fl_loc decl = in->cls->var_locs && in->cls->var_locs[o->var].file ? in->cls->var_locs[o->var] : in->loc;
        fl_loc at = a->loc.file ? a->loc : decl;
        /* a start value in flange's own text: silent, and any message about it at the instance */
        c.quiet = fl_loc_is_bundled(at);
        c.loc = fl_system_loc(s, c.quiet ? in->loc : at);
        FL_VEC_PUSH(conds, c);
    }
    for (size_t k = 0; k < b->irows.n; k++) {
        const b_irows *r = &b->irows.v[k];
        const fl_inst_rt *ir = &s->insts[r->inst];
        for (int q = 0; q < fl_inst_ops(s, r->inst)->ninit; q++) {
            if (con_row_dropped(s, b, r->inst, q)) continue;
            fl_cond c;
            memset(&c, 0, sizeof c);
            c.node_p = c.node_m = -1;
            c.source = CV_ELEM;
            c.elem = ir->elem;
            c.row = q;
            c.label = cond_label(s, r->labels && r->labels[q] ? r->labels[q] : "initial equation", NULL, NULL);
            c.loc = fl_ir_loc(s, ir);
            FL_VEC_PUSH(conds, c);
        }
    }
    /* no growth slack: the conditions live as long as the system */
    s->conds = fl_shrink(conds.v, sizeof(fl_cond) * (conds.n ? conds.n : 1));
    s->ncond = (int)conds.n;
    s->idle = fl_shrink(idle.v, sizeof *idle.v * (idle.n ? idle.n : 1));
    s->nidle = (int)idle.n;
}

/* ---- massless masses ---------------------------------------------------- */

/* "{a.flange_b, b.flange_a, ...}": the flanges of a body, for messages. */
static char *body_ports(const fl_system *s, int body)
{
    fl_buf b = {0};
    int n = 0;
    for (int i = 0; i < s->ninst; i++) {
        const fl_inst_rt *ir = &s->insts[i];
        for (int k = 0; k < ir->cls->nports; k++) {
            int nd = s->ports[ir->port0 + k].node;
            if (nd < 0 || s->nodes[nd].body != body) continue;
            if (n < 8) fl_buf_printf(&b, "%s%s.%s", n ? ", " : "{", fl_ir_name(s, ir), ir->cls->ports[k].name);
            n++;
        }
    }
    if (n > 8) fl_buf_add(&b, ", ...");
    fl_buf_add(&b, n ? "}" : "{}");
    return fl_buf_take(&b);
}

/* A component with a mass parameter set to 0 (Mass m = 0) on a body that
 * has no mass at all: the body is then a massless node, whose velocity is
 * not determined when nothing damps it (and whose acceleration never is),
 * yet the component reports both. Refused before integration, naming the
 * components, instead of a non-finite solution at the first step. Massless
 * nodes without such a component (springs joined directly) are legal. */
/* The parameter that gives a linking class its inertia ("m" of a Mass, "J"
 * of an Inertia), NULL for massless links (Rod, sensors). */
static const char *inertia_param(const fl_class *c)
{
    if (fl_class_param(c, "m") >= 0) return "m";
    if (fl_class_param(c, "J") >= 0) return "J";
    return NULL;
}

static int check_massless(fl_system *s, fl_diag *d)
{
    int rc = 0;
    int *first = fl_xmalloc(sizeof(int) * (size_t)(s->nbodies ? s->nbodies : 1));
    for (int b = 0; b < s->nbodies; b++) first[b] = -1;
    for (int l = 0; l < s->nlinks; l++) {
        const fl_link *lk = &s->links[l];
        if (lk->node_a < 0 || lk->m != 0 || !inertia_param(s->insts[lk->inst].cls)) continue;
        int b = s->nodes[lk->node_a].body;
        if ((s->bodies[b].kind == B_MLQ || s->bodies[b].kind == B_MLV) && first[b] < 0) first[b] = l;
    }
    for (int b = 0; b < s->nbodies; b++) {
        if (first[b] < 0) continue;
        const fl_body *bd = &s->bodies[b];
        const fl_inst_rt *ir = &s->insts[s->links[first[b]].inst];
        fl_buf who = {0};
        int nwho = 0;
        for (int l = first[b]; l < s->nlinks; l++) {
            const fl_link *lk = &s->links[l];
            if (lk->node_a < 0 || lk->m != 0 || s->nodes[lk->node_a].body != b ||
                !inertia_param(s->insts[lk->inst].cls))
                continue;
            const fl_inst_rt *o = &s->insts[lk->inst];
            fl_loc ol = fl_ir_loc(s, o);
            fl_buf_printf(&who, "%s%s.%s = 0", nwho ? " and " : "", fl_ir_name(s, o), inertia_param(o->cls));
            if (nwho && ol.line) fl_buf_printf(&who, " (line %d)", ol.line);
            nwho++;
        }
        char *ports = body_ports(s, b);
        if (bd->kind == B_MLQ) {
            int springs = 0, forces = 0;
            for (int e = 0; e < s->nelem; e++)
                for (int j = 0; j < 2; j++)
                    if (s->att_body[fl_att_slot(&s->elems[e], j)] == b) {
                        if (fl_inst_ops(s, s->elems[e].inst)->flags & FL_EK_SOURCE) forces = 1;
                        else springs = 1;
                    }
            const char *acting = springs && forces ? "only springs and forces act on it"
                                 : springs         ? "only springs act on it"
                                 : forces          ? "only forces act on it"
                                                   : "nothing acts on it";
            fl_err(d, fl_ir_loc(s, ir),
                   "%s leave%s the rigid body %s without mass, and %s: its motion is not determined (give it "
                   "mass, or attach a damper)",
                   who.s, nwho > 1 ? "" : "s", ports, acting);
        } else {
            fl_err(d, fl_ir_loc(s, ir),
                   "%s leave%s the rigid body %s without mass: its acceleration %s.a is not determined (give it "
                   "mass)",
                   who.s, nwho > 1 ? "" : "s", ports, fl_ir_name(s, ir));
        }
        free(ports);
        fl_buf_free(&who);
        rc = -1;
    }
    free(first);
    return rc;
}

/* ---- impulses ----------------------------------------------------------- */

/* An element that applies impulses changes the velocities of the bodies on
 * both sides in proportion to 1/mass: a massless side has no defined
 * velocity jump, and two immovable sides cannot take an impulse at all. */
static int check_impulses(fl_system *s, fl_diag *d)
{
    int rc = 0;
    for (int e = 0; e < s->nelem; e++) {
        const fl_elem *el = &s->elems[e];
        const fl_inst_rt *ir = &s->insts[el->inst];
        if (!(fl_inst_ops(s, el->inst)->flags & FL_EK_IMPULSE)) continue;
        int movable = 0;
        for (int j = 0; j < 2; j++) {
            int b = s->att_body[fl_att_slot(el, j)];
            if (b < 0) continue;
            fl_body_kind k = s->bodies[b].kind;
            if (k == B_MLV || k == B_MLQ) {
                fl_err(d, fl_ir_loc(s, ir),
                       "%s: an impact needs mass on both sides, but %s has none (attach a mass, or use a "
                       "stiffness-based contact model)",
                       fl_ir_name(s, ir), fl_node_name(s, s->elem_node[fl_att_slot(el, j)]));
                rc = -1;
            }
            if (k == B_FREE) movable = 1;
        }
        if (!movable && !rc) {
            fl_err(d, fl_ir_loc(s, ir), "%s: both sides are fixed or have prescribed motion, so an impact cannot change "
                               "their velocities",
                   fl_ir_name(s, ir));
            rc = -1;
        }
    }
    return rc;
}

/* ---- observers --------------------------------------------------------- */

static int check_observers(fl_system *s, fl_builder *b, fl_diag *d)
{
    int rc = 0;
    for (size_t k = 0; k < b->obs.n; k++) {
        const b_obs *o = &b->obs.v[k];
        int n = port_node(s, o->inst, o->port);
        if (n < 0) continue;
        const fl_body *bd = &s->bodies[s->nodes[n].body];
        if (o->level >= 1 && bd->kind == B_MLQ) {
            fl_err(d, fl_inst_loc(s, o->inst),
                   "%s needs the velocity of %s, a massless node between springs whose velocity is not "
                   "determined; add a mass or a damper there",
                   fl_inst_name(s, o->inst), fl_node_name(s, n));
            rc = -1;
        } else if (o->level == 2 && bd->kind == B_MLV) {
            fl_err(d, fl_inst_loc(s, o->inst),
                   "%s needs the acceleration of %s, a massless node: it is not available; add a mass there",
                   fl_inst_name(s, o->inst), fl_node_name(s, n));
            rc = -1;
        }
    }
    for (int e = 0; e < s->nelem; e++) {
        const fl_elem_ops *ops = fl_inst_ops(s, s->elems[e].inst);
        for (int j = 0; j < fl_ops_natt(ops); j++) {
            int slot = fl_att_slot(&s->elems[e], j);
            int bd = s->att_body[slot];
            if (bd < 0) continue;
            if (elem_uses(s, e, j, 2) && (s->bodies[bd].kind == B_MLV || s->bodies[bd].kind == B_MLQ)) {
                fl_err(d, fl_inst_loc(s, s->elems[e].inst), "%s needs the acceleration of the massless node %s; add a mass there",
                       fl_inst_name(s, s->elems[e].inst), fl_node_name(s, s->elem_node[slot]));
                rc = -1;
            }
        }
    }
    return rc;
}

int fl_compile_structure(fl_system *s, const fl_model *m, fl_model *take, fl_diag *d)
{
    fl_builder b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.m = m;
    b.d = d;
    fl_uf uf;
    int rc = make_ports(s, m, &b, &uf, d);
    fl_uf_free(&uf);
    /* outputs widths of blocks */
    for (int i = 0; i < s->ninst; i++) {
        fl_inst_rt *ir = &s->insts[i];
        ir->elem = ir->drv = -1;
        ir->nout = ir->cls->block ? ir->cls->block->nout(s->par + ir->prow, s->arrays) : 0;
    }
    for (int i = 0; i < s->ninst && !rc; i++) {
        b.inst = i;
        if (s->insts[i].cls->build && s->insts[i].cls->build(&b)) b.failed = 1;
    }
    if (b.failed) rc = -1;
    if (!rc) rc = make_bodies(s, &b, d);
    if (!rc) {
        int nin = 0;
        for (int i = 0; i < s->ninst; i++) {
            s->insts[i].in0 = nin;
            nin += fl_class_nin(s->insts[i].cls);
        }
        for (int k = 0; k < s->ndrv; k++) {
            s->drvs[k].sig = s->insts[s->drvs[k].inst].in0;
            s->drvs[k].nin = fl_class_nin(s->insts[s->drvs[k].inst].cls);
        }
        make_elements(s, &b);
        classify_bodies(s, &b);
        if (s->nslots >= FL_PC_MAX || s->nlinks >= FL_PC_MAX) {
            fl_err(d, fl_noloc, "the model is too large: %d attachments and %d rigid members (at most %d each)",
                   s->nslots, s->nlinks, FL_PC_MAX - 1);
            rc = -1;
        } else {
            make_contribs(s, &b);
            rc = make_cons(s, &b, d);
        }
        if (!rc) rc = make_signals(s, m, &b, d);
    }
    if (take) fl_model_release(take, FL_MREL_CONNS); /* (the conditions reuse their memory) */
    if (!rc) rc = check_massless(s, d);
    if (!rc) rc = check_impulses(s, d);
    if (!rc) rc = check_observers(s, &b, d);
    if (!rc) rc = check_fixed_attrs(s, m, &b, d);
    /* what the conditions do not read goes before they are made (their
     * peak is the compiling's on a big model) */
    free(b.pnode);
    FL_VEC_FREE(b.links);
    FL_VEC_FREE(b.grounds);
    FL_VEC_FREE(b.drivers);
    FL_VEC_FREE(b.elems);
    FL_VEC_FREE(b.xports);
    FL_VEC_FREE(b.kins);
    FL_VEC_FREE(b.obs);
    FL_VEC_FREE(b.handled);
    FL_VEC_FREE(b.cports);
    FL_VEC_FREE(b.ccoef);
    if (!rc) make_conds(s, m, &b);
    FL_VEC_FREE(b.cons);
    FL_VEC_FREE(b.states);
    FL_VEC_FREE(b.initins);
    FL_VEC_FREE(b.owns);
    FL_VEC_FREE(b.irows);
    return rc;
}
