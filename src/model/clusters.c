/* clusters.c - the user part of a model (flatten.c) split into clusters,
 * each analysed and made a model instance of a class of its own.
 *
 * Phases, one function each:
 *   resolve_signals   signal connections between variables and library
 *                     ports: equations between variables, inputs fed by
 *                     library outputs, outputs feeding library inputs
 *   partition         user instances joined by equations that use each
 *                     other's variables form one cluster
 *   build_cluster     the cluster's own graph: local variables,
 *                     attachments, inputs, outputs and parameter slots
 *   class_for         the class of a cluster: one analysis per structure
 *                     (a structural key of the local graph; 10^4 couplers
 *                     of one class share one analysis and one class)
 *   make_instance     the model instance: parameters, attributes, what its
 *                     observed inputs read, and its ports in the
 *                     connection graph */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "components/user.h"
#include "flatten.h"
#include "symbolic/analyze.h"

typedef FL_VEC(int) ivec;

/* What the signal connections decided for a variable. */
enum { SG_NONE = 0, SG_INPUT, SG_OUTPUT };

typedef struct fctx {
    ictx *ic;
    fl_flat *f;
    int *sig_role;   /* per variable: SG_* */
    int *sig_root;   /* per variable with a role: its signal set (graph root) */
    unsigned char *passthru; /* per output variable: its block's input is in its set (connect(u, y) inside) */
    int *uroot;      /* per user instance: its cluster (union-find) */
    /* classes by structure */
    struct ckey {
        uint64_t hash;
        unsigned char *bytes;
        size_t n;
        fl_uclass *cls;
    } *keys;
    size_t nkeys, capkeys;
} fctx;

static int uf_find(int *p, int x)
{
    while (p[x] != x) {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

static void uf_union(int *p, int a, int b)
{
    a = uf_find(p, a);
    b = uf_find(p, b);
    if (a == b) return;
    if (a < b) p[b] = a; /* the lower index is the enclosing instance */
    else p[a] = b;
}

/* ---- signals ------------------------------------------------------------------- */

static void vars_of(const fl_sgraph *g, const fl_sx *roots, int nroots, ivec *out);

/* Is user instance a inside instance b (a component of it, or deeper)? */
static int inside(const fl_flat *f, int a, int b)
{
    const char *pa = f->uinsts.v[a].prefix, *pb = f->uinsts.v[b].prefix;
    size_t nb = strlen(pb);
    return strlen(pa) > nb && strncmp(pa, pb, nb) == 0;
}

/* Of two outputs in one signal set, the one that feeds it: an output
 * connector of a block is, seen from inside the block, where a component's
 * output goes (the inner one feeds), or where the block's own input goes
 * (connect(numberPort, showNumber): what feeds the input feeds it). */
static int feeding_output(const fctx *c, int a, int b)
{
    if (c->passthru[a] != c->passthru[b]) return c->passthru[a] ? b : a;
    return inside(c->f, c->f->vars.v[b].uinst, c->f->vars.v[a].uinst) ? b : a;
}

/* The outputs whose block connects an input of its own to them. */
static void find_passthru(fctx *c)
{
    ictx *ic = c->ic;
    fl_flat *f = c->f;
    fl_map ins = {0};
    char key[48];
    for (size_t k = 0; k < f->vars.n; k++) {
        const fvar *v = &f->vars.v[k];
        if (v->vnode < 0 || !v->is_input) continue;
        snprintf(key, sizeof key, "%d:%d", vfind(ic, v->vnode), v->uinst);
        fl_map_put(&ins, key, 1);
    }
    for (size_t k = 0; k < f->vars.n; k++) {
        const fvar *v = &f->vars.v[k];
        if (v->vnode < 0 || !v->is_output) continue;
        snprintf(key, sizeof key, "%d:%d", vfind(ic, v->vnode), v->uinst);
        c->passthru[k] = fl_map_get(&ins, key) >= 0;
    }
    fl_map_free(&ins);
}

/* Signal sets of user blocks worded as for library blocks: two outputs
 * joined, or an input that no output feeds and no equation of another
 * instance gives. Returns -1 after reporting. */
static int check_signal_sets(fctx *c, const int *has_out)
{
    ictx *ic = c->ic;
    fl_flat *f = c->f;
    int nn = (int)ic->nodes.n, rc = 0;
    int *out_var = fl_xmalloc(sizeof(int) * (size_t)(nn + 1));
    for (int i = 0; i < nn; i++) out_var[i] = -1;
    unsigned char *given = fl_xcalloc(f->vars.n + 1, 1); /* used by an equation of another instance */
    ivec vs = {0};
    for (size_t e = 0; e < f->eqs.n; e++) {
        fl_sx roots[2] = {f->eqs.v[e].lhs, f->eqs.v[e].rhs};
        vars_of(&f->g, roots, 2, &vs);
        for (size_t i = 0; i < vs.n; i++)
            if (f->vars.v[vs.v[i]].uinst != f->eqs.v[e].uinst) given[vs.v[i]] = 1;
    }
    FL_VEC_FREE(vs);
    for (size_t k = 0; k < f->vars.n && !rc; k++) {
        const fvar *v = &f->vars.v[k];
        if (v->vnode < 0 || !v->is_output || v->name[0] == '(') continue;
        int r = vfind(ic, v->vnode);
        if (has_out[r]) continue;
        int o = out_var[r];
        if (o >= 0 && f->vars.v[o].uinst != v->uinst && !inside(f, v->uinst, f->vars.v[o].uinst) &&
            !inside(f, f->vars.v[o].uinst, v->uinst) && !c->passthru[o] && !c->passthru[k]) {
            fl_err(ic->d, f->uinsts.v[v->uinst].loc, "outputs %s and %s are connected to each other",
                   f->vars.v[o].name, v->name);
            rc = -1;
        }
        out_var[r] = o >= 0 ? feeding_output(c, o, (int)k) : (int)k;
    }
    for (size_t k = 0; k < f->vars.n && !rc; k++) {
        const fvar *v = &f->vars.v[k];
        if (v->vnode < 0 || !v->is_input || given[k] || v->name[0] == '(') continue;
        int r = vfind(ic, v->vnode);
        if (has_out[r] || out_var[r] >= 0) continue;
        int fed = 0; /* another variable of the set that equations determine */
        for (size_t j = 0; j < f->vars.n && !fed; j++)
            fed = j != k && f->vars.v[j].vnode >= 0 && vfind(ic, f->vars.v[j].vnode) == r && !f->vars.v[j].is_input;
        if (fed || v->uinst < 0 || !f->uinsts.v[v->uinst].prefix[0]) continue; /* the model's own inputs */
        fl_err(ic->d, f->uinsts.v[v->uinst].loc, "input %s is not connected to any signal source", v->name);
        rc = -1;
    }
    free(out_var);
    free(given);
    return rc;
}

/* Modelica's rule for a component of its own (a balanced model): as many
 * equations as variables, less the inputs and the flow variables of its
 * connectors, which the connections give. Checked for components without
 * components of their own, so that a force law given twice or missing is
 * said to be that, not found later as a strange constraint. */
static int check_balance(fctx *c)
{
    ictx *ic = c->ic;
    fl_flat *f = c->f;
    int nu = (int)f->uinsts.n, rc = 0;
    long *neq = fl_xcalloc((size_t)nu + 1, sizeof(long)), *nvar = fl_xcalloc((size_t)nu + 1, sizeof(long));
    long *nfree = fl_xcalloc((size_t)nu + 1, sizeof(long));
    /* the variables of a connector belong to the component that has it */
    int *owner = fl_xmalloc(sizeof(int) * ((size_t)nu + 1));
    fl_map byprefix = {0};
    for (int u = 0; u < nu; u++) fl_map_put(&byprefix, f->uinsts.v[u].prefix, u);
    for (int u = 0; u < nu; u++) {
        owner[u] = u;
        const char *p = f->uinsts.v[u].prefix;
        size_t n = strlen(p);
        if (!f->uinsts.v[u].connector || n < 2) continue;
        size_t cut = n - 1;
        while (cut > 0 && p[cut - 1] != '.') cut--;
        char *up = fl_xstrndup(p, cut);
        int o = fl_map_get(&byprefix, up);
        free(up);
        owner[u] = o >= 0 ? o : -1;
    }
    fl_map_free(&byprefix);
    for (size_t k = 0; k < f->vars.n; k++) {
        const fvar *v = &f->vars.v[k];
        if (v->uinst < 0 || v->name[0] == '(' || v->obs_inst >= 0 || owner[v->uinst] < 0) continue;
        if (v->kind == FVK_POS || v->kind == FVK_FORCE) continue; /* flanges: counted whole below */
        nvar[owner[v->uinst]]++;
        if (v->is_input || v->flow || v->kind == FVK_FORCE) nfree[owner[v->uinst]]++;
    }
    for (int u = 0; u < nu; u++) { /* a flange: its position, and its force from outside */
        nvar[u] += 2L * f->uinsts.v[u].nflanges;
        nfree[u] += f->uinsts.v[u].nflanges;
    }
    for (size_t e = 0; e < f->eqs.n; e++)
        if (!f->eqs.v[e].initial && f->eqs.v[e].uinst >= 0) neq[f->eqs.v[e].uinst]++;
    /* a when-equation counts once per variable it assigns */
    for (size_t w = 0; w < f->whens.n; w++) {
        const fwhen *fw = &f->whens.v[w];
        for (int s = 0; s < fw->w.nbody; s++) {
            if (fw->w.body[s].kind != FW_ASSIGN) continue;
            int first = 1; /* not already counted by an earlier branch of the chain */
            for (size_t w2 = 0; w2 <= w && first; w2++) {
                const fwhen *o = &f->whens.v[w2];
                if (o->w.chain != fw->w.chain) continue;
                int upto = w2 == w ? s : o->w.nbody;
                for (int s2 = 0; s2 < upto && first; s2++)
                    if (o->w.body[s2].kind == FW_ASSIGN && o->w.body[s2].var == fw->w.body[s].var) first = 0;
            }
            if (first) neq[fw->uinst]++;
        }
    }
    for (int u = 0; u < nu; u++) {
        const uinst *ui = &f->uinsts.v[u];
        if (ui->composite || ui->connector || !ui->prefix[0] || !nvar[u]) continue;
        long need = nvar[u] - nfree[u], have = neq[u] - ui->nconn;
        /* too few: the analysis names what nothing determines */
        if (have <= need) continue;
        int n = (int)strlen(ui->prefix);
        fl_err(ic->d, ui->loc,
               "%.*s: the equations are over-determined: %ld equations for %ld variables, %ld of them given from "
               "outside (inputs, flange forces and other flow variables), which leaves %ld to determine",
               n - 1, ui->prefix, have, nvar[u], nfree[u], need);
        rc = -1;
    }
    free(neq);
    free(nvar);
    free(nfree);
    free(owner);
    return rc;
}

static void resolve_signals(fctx *c)
{
    ictx *ic = c->ic;
    fl_flat *f = c->f;
    int nn = (int)ic->nodes.n;
    /* per signal set: its library ports and variables */
    int *has_out = fl_xcalloc((size_t)nn + 1, sizeof(int));
    int *has_in = fl_xcalloc((size_t)nn + 1, sizeof(int));
    int *first = fl_xmalloc(sizeof(int) * (size_t)(nn + 1));
    for (int i = 0; i < nn; i++) first[i] = -1;
    for (int i = 0; i < nn; i++) {
        const vnode *v = &ic->nodes.v[i];
        if (!v->is_leaf || v->is_flange || v->leaf.inst < 0) continue;
        const fl_class *cls = ic->m->insts.v[v->leaf.inst].cls;
        int r = vfind(ic, i);
        if (cls->ports[v->leaf.port].kind == FL_PORT_OUTPUT) has_out[r] = 1;
        else has_in[r] = 1;
    }
    find_passthru(c);
    if (check_signal_sets(c, has_out)) ic->failed = 1;
    for (size_t k = 0; k < f->vars.n; k++) {
        fvar *v = &f->vars.v[k];
        if (v->vnode < 0) continue;
        int r = vfind(ic, v->vnode);
        c->sig_root[k] = r;
        if (has_out[r]) {
            /* fed by a library output: an input of its cluster */
            c->sig_role[k] = SG_INPUT;
            v->kind = FVK_INPUT;
            continue;
        }
        /* variables of one set are equal; the preferred one (a declared
         * output) feeds the library inputs of the set */
        if (first[r] < 0 || (!f->vars.v[first[r]].is_output && v->is_output)) first[r] = (int)k;
        else if (f->vars.v[first[r]].is_output && v->is_output) first[r] = feeding_output(c, first[r], (int)k);
    }
    /* second pass: equations and the source of each set */
    for (size_t k = 0; k < f->vars.n; k++) {
        fvar *v = &f->vars.v[k];
        if (v->vnode < 0 || c->sig_role[k] == SG_INPUT) continue;
        int r = c->sig_root[k];
        int a = first[r];
        if (a != (int)k) {
            /* a discrete variable is defined by the lone variable of its
             * equation's left side: the set's source defines the others */
            fl_sx va = fl_sx_var(&f->g, a), vk = fl_sx_var(&f->g, (int)k);
            int disc = v->vtype != FL_VT_REAL;
            feq q = {disc ? vk : va, disc ? va : vk, v->loc, f->vars.v[a].uinst, 0, 0};
            FL_VEC_PUSH(f->eqs, q);
            f->uinsts.v[f->vars.v[a].uinst].nconn++;
        } else if (has_in[r]) {
            c->sig_role[k] = SG_OUTPUT;
        }
    }
    free(has_out);
    free(has_in);
    free(first);
}

/* ---- clusters --------------------------------------------------------------------- */

typedef struct occ {
    const fl_sgraph *g;
    ivec *vars;
} occ;

static void occ_visit(void *cv, fl_sx x)
{
    occ *o = cv;
    const fl_snode *n = &o->g->n[x];
    if (n->op == SX_VAR || n->op == SX_DER || n->op == SX_PRE) FL_VEC_PUSH(*o->vars, (int)n->u.k);
}

static void vars_of(const fl_sgraph *g, const fl_sx *roots, int nroots, ivec *out)
{
    out->n = 0;
    occ o = {g, out};
    fl_sx_postorder(g, roots, nroots, occ_visit, &o);
}

static void partition(fctx *c)
{
    fl_flat *f = c->f;
    int nu = (int)f->uinsts.n;
    for (int u = 0; u < nu; u++) c->uroot[u] = u;
    ivec vs = {0};
    for (size_t e = 0; e < f->eqs.n; e++) {
        fl_sx roots[2] = {f->eqs.v[e].lhs, f->eqs.v[e].rhs};
        vars_of(&f->g, roots, 2, &vs);
        for (size_t i = 0; i < vs.n; i++) uf_union(c->uroot, f->eqs.v[e].uinst, f->vars.v[vs.v[i]].uinst);
    }
    for (size_t w = 0; w < f->whens.n; w++) {
        const fwhen *fw = &f->whens.v[w];
        vars_of(&f->g, fw->w.conds, fw->w.nconds, &vs);
        for (size_t i = 0; i < vs.n; i++) uf_union(c->uroot, fw->uinst, f->vars.v[vs.v[i]].uinst);
        for (int s = 0; s < fw->w.nbody; s++) {
            if (fw->w.body[s].var >= 0) uf_union(c->uroot, fw->uinst, f->vars.v[fw->w.body[s].var].uinst);
            if (fw->w.body[s].value == FL_SX_NONE) continue;
            vars_of(&f->g, &fw->w.body[s].value, 1, &vs);
            for (size_t i = 0; i < vs.n; i++) uf_union(c->uroot, fw->uinst, f->vars.v[vs.v[i]].uinst);
        }
    }
    for (size_t a = 0; a < f->asserts.n; a++) {
        vars_of(&f->g, &f->asserts.v[a].a.cond, 1, &vs);
        for (size_t i = 0; i < vs.n; i++) uf_union(c->uroot, f->asserts.v[a].uinst, f->vars.v[vs.v[i]].uinst);
    }
    FL_VEC_FREE(vs);
}

/* One cluster being built: its members and local numbering. */
typedef struct cbuild {
    int root;              /* its first user instance (where messages point) */
    char *prefix;          /* the path its members share ("" or "a.b."): its instance's name */
    ivec vars, eqs, whens, asserts;
    int *local;            /* global variable -> local, -1 */
    fl_smap par_local;     /* global parameter slot -> local */
    ivec pars;             /* local -> global slot */
    fl_smap att_of_conn;   /* connector -> attachment */
    ivec atts;             /* attachment -> connector */
    ivec ins, outs;        /* input / output -> global variable */
    fl_fcluster *fc;
    fl_smap node_map;      /* global node -> local node */
    const fl_sgraph *gg;
} cbuild;

/* Copy a global expression into the cluster's graph (iterative, each node once). */
static void copy_visit(void *cv, fl_sx x)
{
    cbuild *b = cv;
    const fl_sgraph *gg = b->gg;
    fl_sgraph *g = &b->fc->g;
    const fl_snode *n = &gg->n[x];
    fl_sx r = FL_SX_NONE;
#define M(y) fl_smap_get(&b->node_map, (y))
    switch ((fl_sop)n->op) {
    case SX_CONST: r = fl_sx_const(g, n->u.v); break;
    case SX_TIME: r = fl_sx_time(g); break;
    case SX_INITIAL: r = fl_sx_initial(g); break;
    case SX_TERMINAL: r = fl_sx_terminal(g); break;
    case SX_PAR: {
        int l = fl_smap_get(&b->par_local, (int)n->u.k);
        if (l < 0) {
            l = (int)b->pars.n;
            FL_VEC_PUSH(b->pars, (int)n->u.k);
            fl_smap_put(&b->par_local, (int)n->u.k, l);
        }
        r = fl_sx_par(g, l);
        break;
    }
    case SX_VAR: r = fl_sx_var(g, b->local[n->u.k]); break;
    case SX_DER: r = fl_sx_der(g, b->local[n->u.k]); break;
    case SX_PRE: r = fl_sx_pre(g, b->local[n->u.k]); break;
    case SX_ADD: r = fl_sx_add(g, M(n->a), M(n->b)); break;
    case SX_SUB: r = fl_sx_sub(g, M(n->a), M(n->b)); break;
    case SX_MUL: r = fl_sx_mul(g, M(n->a), M(n->b)); break;
    case SX_DIV: r = fl_sx_div(g, M(n->a), M(n->b)); break;
    case SX_POW: r = fl_sx_pow(g, M(n->a), M(n->b)); break;
    case SX_NEG: r = fl_sx_neg(g, M(n->a)); break;
    case SX_FN1: r = fl_sx_fn1(g, (fl_sfn)n->fn, M(n->a)); break;
    case SX_FN2: r = fl_sx_fn2(g, (fl_sfn)n->fn, M(n->a), M(n->b)); break;
    case SX_IF: r = fl_sx_if(g, M(n->a), M(n->b), M(n->c)); break;
    case SX_REL: r = fl_sx_rel(g, (fl_srel)n->fn, M(n->a), M(n->b), n->flags & FL_SXF_NOEVENT); break;
    case SX_AND: r = fl_sx_and(g, M(n->a), M(n->b)); break;
    case SX_OR: r = fl_sx_or(g, M(n->a), M(n->b)); break;
    case SX_NOT: r = fl_sx_not(g, M(n->a)); break;
    case SX_SAMPLE: r = fl_sx_sample(g, M(n->a), M(n->b)); break;
    case SX_DGIV: r = fl_sx_dgiv(g, M(n->a), M(n->b)); break;
    case SX_CALL: {
        fl_sx tmp[32];
        fl_sx *args = n->b <= 32 ? tmp : fl_xmalloc(sizeof(fl_sx) * (size_t)n->b);
        for (int i = 0; i < n->b; i++) args[i] = M(gg->args[n->a + i]);
        r = fl_sx_call(g, (int)n->u.k, n->fn, args, n->b, n->flags);
        if (args != tmp) free(args);
        break;
    }
    case SX_NOP: break;
    }
#undef M
    fl_smap_put(&b->node_map, x, r);
}

static fl_sx copy_expr(cbuild *b, fl_sx x)
{
    if (x == FL_SX_NONE) return x;
    int have = fl_smap_get(&b->node_map, x);
    if (have >= 0) return have;
    fl_sx roots[1] = {x};
    fl_sx_postorder(b->gg, roots, 1, copy_visit, b);
    return fl_smap_get(&b->node_map, x);
}

/* Names inside the cluster are relative to its instance. */
static const char *rel_name(const char *prefix, const char *full)
{
    size_t n = strlen(prefix);
    return strncmp(full, prefix, n) == 0 ? full + n : full;
}

/* The longest common prefix of a and b made of whole name parts (it ends
 * with a dot or is empty), written over a. */
static void common_prefix(char *a, const char *b)
{
    size_t keep = 0;
    for (size_t i = 0; a[i] && a[i] == b[i]; i++)
        if (a[i] == '.') keep = i + 1;
    a[keep] = '\0';
}

/* Each cluster's prefix: what the paths of its members share. A cluster
 * spanning several components is named after their common enclosing path
 * ("" for the model itself), so that its variables keep their full names;
 * clusters that would get the same name are joined into one. */
static void cluster_prefixes(fctx *c, char **prefix)
{
    fl_flat *f = c->f;
    int nu = (int)f->uinsts.n;
    for (int pass = 0; pass < 2; pass++) {
        for (int u = 0; u < nu; u++) {
            free(prefix[u]);
            prefix[u] = NULL;
        }
        for (int u = 0; u < nu; u++) {
            int r = uf_find(c->uroot, u);
            if (!prefix[r]) prefix[r] = fl_xstrdup(f->uinsts.v[u].prefix);
            else common_prefix(prefix[r], f->uinsts.v[u].prefix);
        }
        if (pass) break;
        fl_map seen = {0};
        int joined = 0;
        for (int u = 0; u < nu; u++) {
            if (uf_find(c->uroot, u) != u) continue;
            int other = fl_map_get(&seen, prefix[u]);
            if (other >= 0) {
                uf_union(c->uroot, other, u);
                joined = 1;
            } else {
                fl_map_put(&seen, prefix[u], u);
            }
        }
        fl_map_free(&seen);
        if (!joined) break;
    }
}

static void build_cluster(fctx *c, cbuild *b)
{
    fl_flat *f = c->f;
    fl_fcluster *fc = fl_xmalloc(sizeof *fc);
    fl_fc_init(fc);
    b->fc = fc;
    b->gg = &f->g;
    /* variables first (the order the structure keys depend on) */
    for (size_t i = 0; i < b->vars.n; i++) {
        int k = b->vars.v[i];
        const fvar *v = &f->vars.v[k];
        int l = fl_fc_add_var(fc, rel_name(b->prefix, v->name), v->kind, v->loc);
        b->local[k] = l;
        fl_fvar *lv = &fc->vars.v[l];
        lv->vtype = v->vtype;
        lv->state_select = v->state_select;
        lv->unit = fl_arena_strn(fc->names, v->unit, strlen(v->unit));
        if (v->kind == FVK_POS || v->kind == FVK_FORCE) {
            int a = fl_smap_get(&b->att_of_conn, v->conn);
            if (a < 0) {
                a = (int)b->atts.n;
                FL_VEC_PUSH(b->atts, v->conn);
                fl_smap_put(&b->att_of_conn, v->conn, a);
            }
            lv->att = a;
        }
        if (v->kind == FVK_INPUT) {
            lv->in = (int)b->ins.n;
            FL_VEC_PUSH(b->ins, k);
        }
        if (c->sig_role[k] == SG_OUTPUT) {
            lv->out = (int)b->outs.n;
            FL_VEC_PUSH(b->outs, k);
        }
    }
    fc->natt = (int)b->atts.n;
    fc->nin = (int)b->ins.n;
    fc->nout = (int)b->outs.n;
    /* fixed start values: parameters of the instance (the analysis turns
     * those of variables that are not states into initial equations) */
    for (size_t i = 0; i < b->vars.n; i++) {
        int k = b->vars.v[i];
        const fvar *v = &f->vars.v[k];
        if (v->kind != FVK_REAL || v->fixed != 1 || !v->has_start) continue;
        char *pname = fl_xcat(v->name, ".start", (char *)NULL);
        int slot = fl_map_get(&f->pindex, pname);
        if (slot < 0) {
            fpar p;
            p.name = pname;
            p.value = v->start;
            p.unit = v->unit;
            p.loc = v->loc;
            FL_VEC_PUSH(f->pars, p);
            slot = (int)f->pars.n - 1;
            fl_map_put(&f->pindex, pname, slot);
        } else {
            free(pname);
        }
        fc->vars.v[b->local[k]].fixed_start = copy_expr(b, fl_sx_par(&f->g, slot));
    }
    for (size_t i = 0; i < b->eqs.n; i++) {
        const feq *q = &f->eqs.v[b->eqs.v[i]];
        fl_fc_add_eq(fc, copy_expr(b, q->lhs), copy_expr(b, q->rhs), q->loc, q->initial);
    }
    for (size_t i = 0; i < b->whens.n; i++) {
        const fl_fwhen *w = &f->whens.v[b->whens.v[i]].w;
        fl_fwhen lw = *w;
        lw.conds = fl_xmalloc(sizeof(fl_sx) * (size_t)(w->nconds ? w->nconds : 1));
        lw.body = fl_xmalloc(sizeof(fl_fwstmt) * (size_t)(w->nbody ? w->nbody : 1));
        for (int k = 0; k < w->nconds; k++) lw.conds[k] = copy_expr(b, w->conds[k]);
        for (int k = 0; k < w->nbody; k++) {
            lw.body[k] = w->body[k];
            if (w->body[k].var >= 0) lw.body[k].var = b->local[w->body[k].var];
            lw.body[k].value = copy_expr(b, w->body[k].value);
        }
        FL_VEC_PUSH(fc->whens, lw);
    }
    for (size_t i = 0; i < b->asserts.n; i++) {
        fl_fassert a = f->asserts.v[b->asserts.v[i]].a;
        a.cond = copy_expr(b, a.cond);
        if (a.range) { /* "x went below its min = 0": the variable named from the cluster's instance */
            const char *vn = rel_name(b->prefix, f->vars.v[f->asserts.v[b->asserts.v[i]].var].name);
            char *msg = fl_xcat(vn, " ", a.msg, (char *)NULL);
            a.msg = fl_arena_strn(fc->names, msg, strlen(msg));
            free(msg);
        }
        FL_VEC_PUSH(fc->asserts, a);
    }
    /* start values of discrete variables: parameters of their own */
    fc->npar = (int)b->pars.n;
}

/* ---- classes by structure -------------------------------------------------------------- */

static void key_add(fl_buf *k, const void *p, size_t n)
{
    if (n) fl_buf_addn(k, p, n); /* p may be NULL when n is 0 (a graph without call arguments) */
}

/* The bytes that decide a cluster's analysis: variables (kinds, levels,
 * attachments, inputs, outputs, types), every node of its graph, the
 * equations, when-equations and asserts, the number of parameters. */
static void structure_key(const cbuild *b, fl_buf *k)
{
    const fl_fcluster *fc = b->fc;
    int hdr[4] = {fc->natt, fc->nin, fc->nout, fc->npar};
    key_add(k, hdr, sizeof hdr);
    for (size_t i = 0; i < fc->vars.n; i++) {
        const fl_fvar *v = &fc->vars.v[i];
        int rec[8] = {v->kind, v->level, v->att, v->in, v->out, v->vtype, v->state_select, v->fixed_start};
        key_add(k, rec, sizeof rec);
        key_add(k, v->name, strlen(v->name) + 1);
    }
    for (int i = 0; i < fc->g.nn; i++) key_add(k, &fc->g.n[i], sizeof(fl_snode));
    key_add(k, fc->g.args, sizeof(fl_sx) * (size_t)fc->g.nargs);
    for (size_t i = 0; i < fc->eqs.n; i++) key_add(k, &fc->eqs.v[i].res, sizeof(fl_sx));
    int sep = -7;
    key_add(k, &sep, sizeof sep);
    for (size_t i = 0; i < fc->ieqs.n; i++) key_add(k, &fc->ieqs.v[i].res, sizeof(fl_sx));
    for (size_t i = 0; i < fc->whens.n; i++) {
        const fl_fwhen *w = &fc->whens.v[i];
        int h[3] = {w->chain, w->nconds, w->nbody};
        key_add(k, h, sizeof h);
        key_add(k, w->conds, sizeof(fl_sx) * (size_t)w->nconds);
        for (int s = 0; s < w->nbody; s++) {
            int st[3] = {w->body[s].kind, w->body[s].var, w->body[s].value};
            key_add(k, st, sizeof st);
        }
    }
    for (size_t i = 0; i < fc->asserts.n; i++) key_add(k, &fc->asserts.v[i].cond, sizeof(fl_sx));
}

static uint64_t fnv(const unsigned char *p, size_t n)
{
    return fl_fnv1a(FL_FNV1A_INIT, p, n);
}

static fl_uclass *find_class(fctx *c, uint64_t h, const fl_buf *k)
{
    for (size_t i = 0; i < c->nkeys; i++)
        if (c->keys[i].hash == h && c->keys[i].n == k->n && memcmp(c->keys[i].bytes, k->s, k->n) == 0)
            return c->keys[i].cls;
    return NULL;
}

/* The class of a cluster: found by structure, or made by analysing it
 * with this instance's numbers. */
static fl_uclass *class_for(fctx *c, cbuild *b, const double *par, const double *start, int npar_disc, fl_diag *d)
{
    fl_flat *f = c->f;
    fl_buf key = {0};
    structure_key(b, &key);
    key_add(&key, &npar_disc, sizeof npar_disc);
    uint64_t h = fnv((const unsigned char *)key.s, key.n);
    fl_uclass *cls = find_class(c, h, &key);
    if (cls) {
        fl_buf_free(&key);
        fl_fc_free(b->fc);
        free(b->fc);
        b->fc = NULL;
        return cls;
    }
    const char *inst = b->prefix;
    char *name = inst[0] ? fl_xstrndup(inst, strlen(inst) - 1) : fl_xstrdup("");
    fl_fcluster *fc = b->fc;
    b->fc = NULL;
    /* the names of what the class shows */
    int npar = fc->npar;
    const char **pn = fl_xcalloc((size_t)(npar + npar_disc + 1), sizeof(char *));
    const char **pu = fl_xcalloc((size_t)(npar + npar_disc + 1), sizeof(char *));
    char **owned = fl_xcalloc((size_t)(npar + npar_disc + 1), sizeof(char *));
    for (int k = 0; k < npar; k++) {
        const fpar *p = &f->pars.v[b->pars.v[k]];
        pn[k] = rel_name(b->prefix, p->name);
        pu[k] = p->unit;
    }
    const char **an = fl_xcalloc((size_t)(fc->natt + 1), sizeof(char *));
    unsigned char *arot = fl_xcalloc((size_t)(fc->natt + 1), 1);
    for (int a = 0; a < fc->natt; a++) {
        an[a] = rel_name(b->prefix, f->conns.v[b->atts.v[a]].path);
        int vn = f->conns.v[b->atts.v[a]].vnode;
        arot[a] = vn >= 0 && c->ic->nodes.v[vn].is_flange == FL_DOM_ROT;
    }
    const char **in = fl_xcalloc((size_t)(fc->nin + 1), sizeof(char *));
    unsigned char *obs = fl_xcalloc((size_t)(fc->nin + 1), 1);
    for (int i = 0; i < fc->nin; i++) {
        const fvar *v = &f->vars.v[b->ins.v[i]];
        in[i] = rel_name(b->prefix, v->name);
        obs[i] = v->obs_inst >= 0;
    }
    const char **on = fl_xcalloc((size_t)(fc->nout + 1), sizeof(char *));
    for (int o = 0; o < fc->nout; o++) on[o] = rel_name(b->prefix, f->vars.v[b->outs.v[o]].name);
    fl_ucls *u = fl_analyze(fc, par, start, name, d);
    int *dsp = NULL;
    int nowned = npar + npar_disc + 1;
    if (u) {
        /* the start value of each discrete slot: a parameter after the others */
        int nd = 0;
        for (size_t k = 0; k < u->fc->vars.n; k++) nd += u->kind[k] == UV_DISC;
        dsp = fl_xmalloc(sizeof(int) * (size_t)(nd + 1));
        if (npar + nd + 1 > nowned) { /* the analysis may find more discrete variables than declared */
            pn = fl_xrealloc(pn, sizeof(char *) * (size_t)(npar + nd + 1));
            pu = fl_xrealloc(pu, sizeof(char *) * (size_t)(npar + nd + 1));
            owned = fl_xrealloc(owned, sizeof(char *) * (size_t)(npar + nd + 1));
            for (int k = nowned; k < npar + nd + 1; k++) owned[k] = NULL;
            nowned = npar + nd + 1;
        }
        int q = 0;
        for (size_t k = 0; k < u->fc->vars.n; k++)
            if (u->kind[k] == UV_DISC) {
                owned[npar + q] = fl_xcat(u->fc->vars.v[k].name, ".start", (char *)NULL);
                pn[npar + q] = owned[npar + q];
                pu[npar + q] = "";
                dsp[q] = npar + q;
                q++;
            }
        /* the start parameters were counted per discrete declared variable; the
         * analysis may make more discrete (Reals assigned in when) */
        (void)npar_disc;
        fl_uclass_desc desc;
        memset(&desc, 0, sizeof desc);
        char *path = fl_xsprintf("equations of %s", name[0] ? name : "the model");
        desc.path = path;
        desc.npar = npar + q;
        desc.par_names = pn;
        desc.par_units = pu;
        desc.att_names = an;
        desc.att_rot = arot;
        desc.in_names = in;
        desc.in_observed = obs;
        desc.out_names = on;
        desc.disc_start_par = dsp;
        desc.funcs = c->ic->funcs;
        cls = fl_uclass_new(u, &desc, name, d);
        free(path);
    }
    for (int k = 0; k < nowned; k++) free(owned[k]);
    free(owned);
    free(pn);
    free(pu);
    free(an);
    free(arot);
    free(in);
    free(obs);
    free(on);
    free(dsp);
    free(name);
    if (!cls) {
        fl_buf_free(&key);
        return NULL;
    }
    if (c->nkeys == c->capkeys) {
        c->capkeys = c->capkeys ? 2 * c->capkeys : 16;
        c->keys = fl_xrealloc(c->keys, sizeof *c->keys * c->capkeys);
    }
    c->keys[c->nkeys].hash = h;
    c->keys[c->nkeys].n = key.n;
    c->keys[c->nkeys].bytes = (unsigned char *)fl_buf_take(&key);
    c->keys[c->nkeys].cls = cls;
    c->nkeys++;
    FL_VEC_PUSH(c->ic->m->uclasses, fl_uclass_class(cls));
    return cls;
}

/* ---- instances -------------------------------------------------------------------------------- */

/* A leaf of the connection graph for port `port` of model instance inst,
 * joined to graph node `node`. */
static void join_port(ictx *ic, int inst, int port, int node, fl_loc loc)
{
    vnode n;
    memset(&n, 0, sizeof n);
    n.parent = (int)ic->nodes.n;
    n.is_flange = fl_port_domain(&ic->m->insts.v[inst].cls->ports[port]);
    n.is_leaf = 1;
    n.leaf.inst = inst;
    n.leaf.port = port;
    n.loc = loc;
    FL_VEC_PUSH(ic->nodes, n);
    int leaf = (int)ic->nodes.n - 1;
    int a = vfind(ic, node), b = vfind(ic, leaf);
    if (a != b) ic->nodes.v[b].parent = a;
}

static int make_instance(fctx *c, cbuild *b, fl_uclass *cls, const double *par, int npar_total)
{
    ictx *ic = c->ic;
    fl_flat *f = c->f;
    const uinst *ui = &f->uinsts.v[b->root];
    char *name = b->prefix[0] ? fl_xstrndup(b->prefix, strlen(b->prefix) - 1) : fl_xstrdup("");
    const fl_class *k = fl_uclass_class(cls);
    int inst = fl_model_add_inst(ic->m, k, name, ui->loc, ic->d);
    free(name);
    if (inst < 0) return -1;
    fl_minst *mi = &ic->m->insts.v[inst];
    /* parameters: all of them, values of this instance */
    mi->pars = fl_xcalloc((size_t)(npar_total ? npar_total : 1), sizeof(fl_mpar)); /* fl_model_set_param grows it by one */
    mi->npars = npar_total < k->nparams ? npar_total : k->nparams;
    for (int q = 0; q < mi->npars; q++) {
        mi->pars[q].k = q;
        mi->pars[q].loc = ui->loc;
        fl_mpar_put(&mi->pars[q], fl_value_real(par[q]));
    }
    /* attributes of the variables shown */
    for (size_t i = 0; i < b->vars.n; i++) {
        const fvar *v = &f->vars.v[b->vars.v[i]];
        int cv = fl_uclass_var(cls, b->local[b->vars.v[i]]);
        if (cv < 0 || (!v->has_start && v->fixed < 0 && !(v->nominal > 0))) continue;
        fl_attr *a = fl_minst_attr_slot(mi, cv);
        a->has_start = v->has_start;
        a->start = v->start;
        a->has_fixed = v->fixed >= 0;
        a->fixed = v->fixed > 0;
        a->has_nominal = v->nominal > 0;
        a->nominal = v->nominal;
        a->loc = v->loc;
    }
    /* what the observed inputs read */
    mi->nobs = (int)b->ins.n;
    mi->obs = fl_xcalloc((size_t)(mi->nobs ? mi->nobs : 1), sizeof(fl_mobs));
    int natt = (int)b->atts.n;
    for (size_t i = 0; i < b->ins.n; i++) {
        const fvar *v = &f->vars.v[b->ins.v[i]];
        mi->obs[i].inst = v->obs_inst;
        mi->obs[i].var = v->obs_var ? fl_xstrdup(v->obs_var) : NULL;
        mi->obs[i].loc = v->loc;
        if (v->obs_inst < 0) join_port(ic, inst, natt + (int)i, c->sig_root[b->ins.v[i]], v->loc);
    }
    for (int a = 0; a < natt; a++) {
        const fconn *cn = &f->conns.v[b->atts.v[a]];
        join_port(ic, inst, a, cn->vnode, cn->loc);
    }
    for (size_t o = 0; o < b->outs.n; o++)
        join_port(ic, inst, natt + (int)b->ins.n + (int)o, c->sig_root[b->outs.v[o]], f->vars.v[b->outs.v[o]].loc);
    return 0;
}

/* Initial equations z = value and pre(z) = value of a variable that a
 * when-equation assigns: its value before the start (its start value);
 * of other variables they stay initial equations. */
static void initial_starts(fl_flat *f)
{
    unsigned char *assigned = fl_xcalloc(f->vars.n + 1, 1);
    for (size_t w = 0; w < f->whens.n; w++)
        for (int s = 0; s < f->whens.v[w].w.nbody; s++)
            if (f->whens.v[w].w.body[s].kind == FW_ASSIGN) assigned[f->whens.v[w].w.body[s].var] = 1;
    size_t n = 0;
    for (size_t e = 0; e < f->eqs.n; e++) {
        feq *q = &f->eqs.v[e];
        if (q->initial == 2) {
            fvar *v = &f->vars.v[f->g.n[q->lhs].u.k];
            if (assigned[f->g.n[q->lhs].u.k]) {
                v->start = q->value;
                v->has_start = 1;
                continue;
            }
            q->initial = 1;
        }
        f->eqs.v[n++] = *q;
    }
    f->eqs.n = n;
    free(assigned);
}

int fl_flat_finish(ictx *ic)
{
    fl_flat *f = ic->flat;
    fl_uconn_equations(ic);
    if (!f->uinsts.n) return 0;
    initial_starts(f);
    fctx c;
    memset(&c, 0, sizeof c);
    c.ic = ic;
    c.f = f;
    c.sig_role = fl_xcalloc(f->vars.n + 1, sizeof(int));
    c.sig_root = fl_xmalloc(sizeof(int) * (f->vars.n + 1));
    c.passthru = fl_xcalloc(f->vars.n + 1, 1);
    for (size_t k = 0; k < f->vars.n; k++) c.sig_root[k] = -1;
    c.uroot = fl_xmalloc(sizeof(int) * (f->uinsts.n + 1));
    resolve_signals(&c);
    if (check_balance(&c)) ic->failed = 1;
    if (ic->failed) {
        free(c.sig_role);
        free(c.sig_root);
        free(c.passthru);
        free(c.uroot);
        return -1;
    }
    partition(&c);
    /* members of each cluster, in order */
    int nu = (int)f->uinsts.n;
    char **prefix = fl_xcalloc((size_t)nu + 1, sizeof(char *));
    cluster_prefixes(&c, prefix);
    cbuild *bs = fl_xcalloc((size_t)nu, sizeof(cbuild));
    for (int u = 0; u < nu; u++) bs[u].root = -1;
    for (int u = 0; u < nu; u++) {
        int r = uf_find(c.uroot, u);
        bs[r].root = r;
        bs[r].prefix = prefix[r];
    }
    for (size_t k = 0; k < f->vars.n; k++) FL_VEC_PUSH(bs[uf_find(c.uroot, f->vars.v[k].uinst)].vars, (int)k);
    for (size_t e = 0; e < f->eqs.n; e++) FL_VEC_PUSH(bs[uf_find(c.uroot, f->eqs.v[e].uinst)].eqs, (int)e);
    for (size_t w = 0; w < f->whens.n; w++) FL_VEC_PUSH(bs[uf_find(c.uroot, f->whens.v[w].uinst)].whens, (int)w);
    for (size_t a = 0; a < f->asserts.n; a++)
        FL_VEC_PUSH(bs[uf_find(c.uroot, f->asserts.v[a].uinst)].asserts, (int)a);
    int *local = fl_xmalloc(sizeof(int) * (f->vars.n + 1));
    int rc = 0;
    for (int u = 0; u < nu && !rc; u++) {
        cbuild *b = &bs[u];
        if (b->root < 0 || (!b->vars.n && !b->eqs.n && !b->whens.n && !b->asserts.n)) continue;
        for (size_t k = 0; k < b->vars.n; k++) local[b->vars.v[k]] = -1;
        b->local = local;
        build_cluster(&c, b);
        /* numbers of this instance: parameter values, then the start values
         * of discrete variables; start values of all variables */
        int npar = (int)b->pars.n, ndisc = 0;
        for (size_t k = 0; k < b->vars.n; k++) ndisc += f->vars.v[b->vars.v[k]].kind == FVK_DISC;
        /* Reals assigned in when-equations become discrete in the analysis */
        for (size_t w = 0; w < b->whens.n; w++) ndisc += f->whens.v[b->whens.v[w]].w.nbody;
        double *par = fl_xcalloc((size_t)(npar + ndisc + 1), sizeof(double));
        for (int q = 0; q < npar; q++) par[q] = f->pars.v[b->pars.v[q]].value;
        double *start = fl_xmalloc(sizeof(double) * (b->vars.n + 1));
        for (size_t k = 0; k < b->vars.n; k++) {
            const fvar *v = &f->vars.v[b->vars.v[k]];
            start[k] = v->has_start ? v->start : NAN;
        }
        fl_uclass *cls = class_for(&c, b, par, start, 0, ic->d);
        if (!cls) {
            rc = -1;
        } else {
            /* discrete start values, in the order of the class's discrete slots */
            const fl_class *k = fl_uclass_class(cls);
            int q = npar;
            fl_map byname = {0}; /* the cluster's variables by name (a network of blocks has thousands) */
            if (k->nparams > npar)
                for (size_t j = 0; j < b->vars.n; j++) fl_map_put(&byname, rel_name(b->prefix, f->vars.v[b->vars.v[j]].name), (int)j);
            for (int p = npar; p < k->nparams; p++) {
                const char *pname = k->params[p].name;
                size_t len = strlen(pname) - strlen(".start");
                int j = fl_map_getn(&byname, pname, len);
                const fvar *v = j >= 0 ? &f->vars.v[b->vars.v[j]] : NULL;
                double sv = v && v->has_start ? v->start : 0;
                if (q < npar + ndisc) par[q++] = sv;
            }
            fl_map_free(&byname);
            rc = make_instance(&c, b, cls, par, k->nparams);
        }
        free(par);
        free(start);
        if (b->fc) {
            fl_fc_free(b->fc);
            free(b->fc);
        }
        fl_smap_free(&b->par_local);
        fl_smap_free(&b->att_of_conn);
        fl_smap_free(&b->node_map);
    }
    for (int u = 0; u < nu; u++) {
        FL_VEC_FREE(bs[u].vars);
        FL_VEC_FREE(bs[u].eqs);
        FL_VEC_FREE(bs[u].whens);
        FL_VEC_FREE(bs[u].asserts);
        FL_VEC_FREE(bs[u].pars);
        FL_VEC_FREE(bs[u].atts);
        FL_VEC_FREE(bs[u].ins);
        FL_VEC_FREE(bs[u].outs);
    }
    free(bs);
    for (int u = 0; u < nu; u++) free(prefix[u]);
    free(prefix);
    free(local);
    for (size_t i = 0; i < c.nkeys; i++) free(c.keys[i].bytes);
    free(c.keys);
    free(c.sig_role);
    free(c.sig_root);
    free(c.passthru);
    free(c.uroot);
    return rc;
}
