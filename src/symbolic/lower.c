/* lower.c - from an analysed cluster to the element's programs (see
 * lower.h): numbering of own unknowns, inputs, discrete slots and
 * relations, the Jacobian's structural dependencies from symbolic
 * partial derivatives, and the programs with their input sources. */
#include "lower.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef FL_VEC(fl_sx) sx_vec;
typedef FL_VEC(int) int_vec;

typedef struct lctx {
    const fl_ucls *u;
    fl_sgraph *g;
    fl_ulow *L;
    int *own_of_var;   /* variable -> own unknown, -1 */
    int *disc_of_var;  /* variable -> discrete slot, -1 */
    fl_smap rel_of;    /* relation node -> relation index */
    int event_mode;    /* relations computed (event program) */
    int *def_of_var;   /* variable -> its discrete definition (u->disc), -1 */
    fl_sx *def_sub;    /* per definition: its value with defined variables substituted */
    unsigned char *def_state; /* 0 not yet, 1 being substituted (a loop), 2 done */
    const char *name;
    fl_diag *d;
    int failed;
    const char *what;  /* the program being lowered (messages) */
    fl_sx *der_val;    /* variable -> its derivative from the states (explicit_derivatives), or FL_SX_NONE */
    int sub_der;       /* final() replaces der() by der_val (relations, root functions, outputs) */
    int init_cols;     /* partials of initial equations: inputs' derivatives have columns */
} lctx;

static const fl_fvar *cvar(const lctx *c, int k)
{
    return &c->u->fc->vars.v[k];
}

/* Where a leaf of the final expressions comes from. */
static int leaf_src(void *cv, const fl_snode *n, fl_sx x, int *src, int *idx)
{
    lctx *c = cv;
    switch ((fl_sop)n->op) {
    case SX_TIME: *src = US_TIME; *idx = 0; return 1;
    case SX_PAR: *src = US_PAR; *idx = (int)n->u.k; return 1;
    case SX_INITIAL: *src = US_INIT; *idx = 0; return 1;
    case SX_TERMINAL: *src = US_TERM; *idx = c->event_mode ? 0 : -1; return 1; /* false but at the end */
    case SX_SAMPLE:
        if (c->event_mode) return 0;
        *src = US_INIT; /* sample() is false between events: any zero will do */
        *idx = -1;
        return 1;
    case SX_REL: {
        int r = fl_smap_get(&c->rel_of, x);
        if (n->flags & FL_SXF_NOEVENT) return 0;
        if (r < 0) { /* not one of the relations (one the event program made by putting in discrete
                        definitions, y >= z + 0.5 with z's new value): decided by its value */
            *idx = -1;
            return 0;
        }
        if (c->event_mode) {
            *idx = r;
            return 0;
        }
        *src = US_REL;
        *idx = r;
        return 1;
    }
    case SX_VAR:
    case SX_PRE: {
        int k = (int)n->u.k;
        const fl_fvar *v = cvar(c, k);
        if (v->kind == FVK_POS) {
            *src = US_KIN;
            *idx = 3 * v->att + v->level;
            return 1;
        }
        if (v->kind == FVK_INPUT) {
            *src = US_IN;
            *idx = 3 * v->in + v->level;
            return 1;
        }
        if (c->disc_of_var[k] >= 0) {
            /* at an event pre() is the value before the instant; between events the value */
            *src = n->op == SX_PRE && c->event_mode ? US_DPRE : US_DISC;
            *idx = c->disc_of_var[k];
            return 1;
        }
        if (c->own_of_var[k] >= 0) {
            *src = US_Y;
            *idx = c->own_of_var[k];
            return 1;
        }
        if (c->u->kind[k] == UV_INTERNAL && v->kind == FVK_FORCE) {
            *src = US_PF;
            *idx = v->att;
            return 1;
        }
        if (!c->failed)
            fl_err(c->d, v->loc, "%s: internal error: variable '%s' has no value in the %s program", c->name, v->name,
                   c->what);
        c->failed = 1;
        *src = US_TIME;
        *idx = 0;
        return 1;
    }
    case SX_DER: {
        int k = (int)n->u.k;
        if (c->own_of_var[k] >= 0) {
            *src = US_YP;
            *idx = c->own_of_var[k];
            return 1;
        }
        if (!c->failed) fl_err(c->d, cvar(c, k)->loc, "%s: internal error: der(%s) has no value", c->name, cvar(c, k)->name);
        c->failed = 1;
        *src = US_TIME;
        *idx = 0;
        return 1;
    }
    default:
        return 0;
    }
}

static void lower_prog(lctx *c, fl_sprog *p, const fl_sx *roots, int n, int event_mode, const char *what)
{
    c->event_mode = event_mode;
    c->what = what;
    if (fl_sprog_lower(p, c->g, roots, n, leaf_src, c)) c->failed = 1;
    c->event_mode = 0;
}

static int is_initial(void *ctx, const fl_snode *n)
{
    FL_UNUSED(ctx);
    return n->op == SX_INITIAL;
}

/* pre(x) of a continuous variable is its value (the left limit): replaced
 * by the variable's value before lowering. */
static fl_sx final(lctx *c, fl_sx x);

static fl_sx pre_sub(void *cv, fl_sx leaf)
{
    lctx *c = cv;
    const fl_snode *n = &c->g->n[leaf];
    if (n->op == SX_DER) {
        int k = (int)n->u.k;
        if (!c->sub_der || c->der_val[k] == FL_SX_NONE) return leaf;
        return final(c, c->der_val[k]);
    }
    if (n->op != SX_PRE) return leaf;
    int k = (int)n->u.k;
    if (c->disc_of_var[k] >= 0) return leaf;
    return c->u->value[k];
}

static fl_sx final(lctx *c, fl_sx x)
{
    return x == FL_SX_NONE ? x : fl_sx_subst(c->g, x, pre_sub, c);
}

/* At an event a pass computes the discrete definitions and everything
 * that reads them (when-conditions, edge(), statement values) together:
 * a defined variable read there is replaced by its definition, in
 * dependency order, while pre() keeps the stored value. Definitions in a
 * loop keep the stored value where the loop closes; the event iteration
 * settles them. */
static fl_sx def_value(lctx *c, int i);
static fl_sx ev_final(lctx *c, fl_sx x);

static fl_sx ev_sub(void *cv, fl_sx leaf)
{
    lctx *c = cv;
    const fl_snode *n = &c->g->n[leaf];
    if (n->op == SX_PRE) return pre_sub(cv, leaf);
    if (n->op == SX_DER) {
        int k = (int)n->u.k;
        if (c->der_val[k] == FL_SX_NONE) return leaf;
        return ev_final(c, c->der_val[k]);
    }
    if (n->op != SX_VAR) return leaf;
    int i = c->def_of_var[n->u.k];
    if (i < 0 || c->def_state[i] == 1) return leaf;
    return def_value(c, i);
}

static fl_sx def_value(lctx *c, int i)
{
    if (c->def_state[i] == 2) return c->def_sub[i];
    c->def_state[i] = 1;
    fl_sx v = fl_sx_subst(c->g, c->u->disc.v[i].def, ev_sub, c);
    c->def_sub[i] = v;
    c->def_state[i] = 2;
    return v;
}

static fl_sx ev_final(lctx *c, fl_sx x)
{
    return x == FL_SX_NONE ? x : fl_sx_subst(c->g, x, ev_sub, c);
}

/* The equations of a when-equation hold together, as Modelica solves
 * them: a value that reads a variable another equation of the same
 * when-equation assigns reads its new value (T = time + (endValue -
 * pre(y))/rate beside endValue = ...). Values in dependency order; where
 * they read each other in a loop, the stored value closes it. */
typedef struct wctx {
    lctx *c;
    const fl_fwhen *wh;
    fl_sx *val;
    unsigned char *state; /* per statement: 0 open, 1 in progress, 2 done */
} wctx;

static fl_sx when_value(wctx *w, int i);

static fl_sx when_sub(void *cv, fl_sx leaf)
{
    wctx *w = cv;
    const fl_snode *n = &w->c->g->n[leaf];
    if (n->op != SX_VAR) return leaf;
    for (int j = 0; j < w->wh->nbody; j++)
        if (w->wh->body[j].kind == FW_ASSIGN && w->wh->body[j].var == (int)n->u.k && w->state[j] != 1)
            return when_value(w, j);
    return leaf;
}

static fl_sx when_value(wctx *w, int i)
{
    if (w->state[i] == 2) return w->val[i];
    w->state[i] = 1;
    fl_sx v = fl_sx_subst(w->c->g, w->wh->body[i].value, when_sub, w);
    w->val[i] = v;
    w->state[i] = 2;
    return v;
}

/* ---- the Jacobian: local columns of the leaves of an expression ---------- */

typedef struct colctx {
    lctx *c;
    int_vec cols;
    sx_vec leaves;
} colctx;

static int leaf_col(lctx *c, const fl_snode *n)
{
    const fl_ulow *L = c->L;
    if (n->op != SX_VAR && n->op != SX_DER) return -1;
    int k = (int)n->u.k;
    const fl_fvar *v = cvar(c, k);
    if (n->op == SX_DER) return c->own_of_var[k] >= 0 ? 3 * L->natt + L->nown + c->own_of_var[k] : -1;
    if (v->kind == FVK_POS) return 3 * v->att + v->level;
    /* an input's derivatives have columns in the initial equations only
     * (after the inputs' own: the engine maps a kinematic input's
     * derivative to the next derivative of its flanges' motion) */
    if (v->kind == FVK_INPUT)
        return v->level == 0 || c->init_cols ? 3 * L->natt + 2 * L->nown + v->level * L->nin + v->in : -1;
    if (c->own_of_var[k] >= 0) return 3 * L->natt + c->own_of_var[k];
    return -1;
}

static void col_visit(void *cv, fl_sx x)
{
    colctx *cc = cv;
    int col = leaf_col(cc->c, &cc->c->g->n[x]);
    if (col < 0) return;
    FL_VEC_PUSH(cc->cols, col);
    FL_VEC_PUSH(cc->leaves, x);
}

/* Partial derivatives of row expression x (local row r) with respect to
 * every local column it depends on: appended to roots, and the (row,
 * column) pairs to deps. */
static void partials(lctx *c, fl_sx x, int r, sx_vec *roots, int_vec *deps)
{
    colctx cc;
    memset(&cc, 0, sizeof cc);
    cc.c = c;
    fl_sx rt[1] = {x};
    fl_sx_postorder(c->g, rt, 1, col_visit, &cc);
    for (size_t i = 0; i < cc.leaves.n; i++) {
        fl_sx p = fl_sx_partial(c->g, x, cc.leaves.v[i]);
        if (p == FL_SX_NONE) {
            if (!c->failed)
                fl_err(c->d, fl_noloc, "%s: an equation uses a function whose derivative flange cannot form "
                                       "(second derivatives of functions)",
                       c->name);
            c->failed = 1;
            continue;
        }
        if (fl_sx_is_const(c->g, p, 0)) continue;
        FL_VEC_PUSH(*roots, p);
        FL_VEC_PUSH(*deps, r);
        FL_VEC_PUSH(*deps, cc.cols.v[i]);
    }
    FL_VEC_FREE(cc.cols);
    FL_VEC_FREE(cc.leaves);
}

/* ---- when-statements ------------------------------------------------------------ */

/* reinit of a known variable: it must be coef * (a quantity of one
 * attachment) + offset; the engine then changes that attachment's body. */
static int reinit_target(lctx *c, int k, fl_ustmt *st, sx_vec *roots, fl_loc loc)
{
    const fl_ucls *u = c->u;
    fl_sx val = u->value[k];
    int found = -1;
    for (size_t v = 0; v < u->fc->vars.n; v++) {
        const fl_fvar *fv = &u->fc->vars.v[v];
        if (fv->kind != FVK_POS) continue;
        fl_sx leaf = fl_sx_var(c->g, (int)v);
        fl_sx coef, rest;
        if (!fl_sx_linear(c->g, val, leaf, &coef, &rest) || fl_sx_is_const(c->g, coef, 0)) continue;
        if (found >= 0 || fv->level > 1) {
            fl_err(c->d, loc, "%s: reinit(%s, ...) must name a state, or a position or velocity of one flange", c->name,
                   cvar(c, k)->name);
            c->failed = 1;
            return -1;
        }
        found = (int)v;
        st->att = fv->att;
        st->level = fv->level;
        st->coef_root = (int)roots->n;
        FL_VEC_PUSH(*roots, coef);
        st->off_root = (int)roots->n;
        FL_VEC_PUSH(*roots, rest);
    }
    if (found < 0) {
        fl_err(c->d, loc, "%s: reinit(%s, ...): %s is not a state", c->name, cvar(c, k)->name, cvar(c, k)->name);
        c->failed = 1;
        return -1;
    }
    return 0;
}

/* ---- entry --------------------------------------------------------------------------- */

/* ---- derivatives of states read by relations and outputs ------------------ */

static int is_der_leaf(void *ctx, const fl_snode *n)
{
    FL_UNUSED(ctx);
    return n->op == SX_DER;
}

/* A state whose residual row is der(x) - f with f free of derivatives (the
 * blocks' der(y) = (k*u - y)/T) has its derivative as a function of the
 * states: f. Relations, root functions, the event program and the output
 * values that read der(x) (a Der block, y = der(u), feeding a limiter) get
 * f instead of the integrator's current derivative, as Modelica tools
 * evaluate state derivatives: the two agree on the solution, but the
 * integrator's value is an interpolation, and a relation decided at an
 * event on consistent values while its root function saw the interpolation
 * found the root again and again (a slew-rate limiter behind a Der block
 * stalled the integrator in a loop of events). The residual rows keep
 * der(x): the DAE the integrator solves does not change. Rows read
 * derivatives of other such states through theirs, so f is resolved in
 * passes. The relations get their substituted nodes as second names, so
 * that expressions rebuilt around them still read the decided values. */
static void explicit_derivatives(lctx *c)
{
    const fl_ucls *u = c->u;
    int nv = (int)u->fc->vars.n;
    for (int k = 0; k < nv; k++) c->der_val[k] = FL_SX_NONE;
    fl_sx *rest = fl_xmalloc(sizeof(fl_sx) * (u->own.n + 1));
    for (size_t i = 0; i < u->own.n; i++) {
        const fl_uown *o = &u->own.v[i];
        fl_sx coef;
        rest[i] = FL_SX_NONE;
        if (!o->diff) continue;
        if (!fl_sx_linear(c->g, o->res, fl_sx_der(c->g, o->var), &coef, &rest[i])) continue;
        const fl_snode *cn = &c->g->n[coef];
        if (cn->op != SX_CONST || cn->u.v == 0) {
            rest[i] = FL_SX_NONE;
            continue;
        }
        rest[i] = fl_sx_div(c->g, fl_sx_neg(c->g, rest[i]), coef);
    }
    c->sub_der = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < u->own.n; i++) {
            int k = u->own.v[i].var;
            if (rest[i] == FL_SX_NONE || c->der_val[k] != FL_SX_NONE) continue;
            if (fl_sx_depends(c->g, final(c, rest[i]), is_der_leaf, NULL)) continue;
            c->der_val[k] = rest[i];
            changed = 1;
        }
    }
    for (int r = 0; r < (int)u->rels.n; r++) {
        fl_sx x = final(c, u->rels.v[r].node);
        if (x != u->rels.v[r].node && fl_smap_get(&c->rel_of, x) < 0) fl_smap_put(&c->rel_of, x, r);
    }
    c->sub_der = 0;
    free(rest);
}

int fl_lower(const fl_ucls *u, fl_ulow *L, const char *name, fl_diag *d)
{
    memset(L, 0, sizeof *L);
    fl_fcluster *fc = u->fc;
    lctx c;
    memset(&c, 0, sizeof c);
    c.u = u;
    c.g = &fc->g;
    c.L = L;
    c.name = name && *name ? name : "the model";
    c.d = d;
    int nv = (int)fc->vars.n;
    L->nvars = nv;
    /* the engine's elements have at least two attachments: a component
     * with fewer gets ground ones, with no force */
    L->natt = fc->natt < 2 ? 2 : fc->natt;
    L->nin = fc->nin;
    L->nout = fc->nout;
    L->npar = fc->npar;
    c.own_of_var = fl_xmalloc(sizeof(int) * (size_t)(nv + 1));
    c.disc_of_var = fl_xmalloc(sizeof(int) * (size_t)(nv + 1));
    c.def_of_var = fl_xmalloc(sizeof(int) * (size_t)(nv + 1));
    for (int k = 0; k < nv; k++) c.own_of_var[k] = c.disc_of_var[k] = c.def_of_var[k] = -1;
    c.def_sub = fl_xcalloc(u->disc.n + 1, sizeof(fl_sx));
    c.def_state = fl_xcalloc(u->disc.n + 1, 1);
    for (size_t i = 0; i < u->disc.n; i++) c.def_of_var[u->disc.v[i].var] = (int)i;
    c.der_val = fl_xmalloc(sizeof(fl_sx) * (size_t)(nv + 1));
    /* own unknowns: the analysis', then one per output signal */
    int nown = (int)u->own.n + fc->nout;
    L->nown = nown;
    L->own_var = fl_xmalloc(sizeof(int) * (size_t)(nown + 1));
    L->own_diff = fl_xcalloc((size_t)nown + 1, 1);
    for (size_t i = 0; i < u->own.n; i++) {
        L->own_var[i] = u->own.v[i].var;
        L->own_diff[i] = (unsigned char)u->own.v[i].diff;
        c.own_of_var[u->own.v[i].var] = (int)i;
    }
    /* outputs: their own unknown holds the value (variable k of the output) */
    for (int o = 0; o < fc->nout; o++) {
        int k = -1;
        for (int v = 0; v < nv; v++)
            if (fc->vars.v[v].out == o) k = v;
        L->own_var[u->own.n + (size_t)o] = k;
    }
    /* discrete slots */
    int nd = 0;
    for (int k = 0; k < nv; k++)
        if (u->kind[k] == UV_DISC) c.disc_of_var[k] = nd++;
    L->ndisc = nd;
    L->disc_var = fl_xmalloc(sizeof(int) * (size_t)(nd + 1));
    for (int k = 0; k < nv; k++)
        if (c.disc_of_var[k] >= 0) L->disc_var[c.disc_of_var[k]] = k;
    /* relations */
    L->nrel = (int)u->rels.n;
    L->rel_root = fl_xmalloc(sizeof(int) * (size_t)(L->nrel + 1));
    for (int r = 0; r < L->nrel; r++) {
        fl_smap_put(&c.rel_of, u->rels.v[r].node, r);
        L->rel_root[r] = u->rels.v[r].time_event ? -1 : L->nstate_rel++;
    }
    explicit_derivatives(&c);
    /* inputs: derivatives needed */
    L->in_nderiv = fl_xcalloc((size_t)(fc->nin + 1), sizeof(int));
    for (int k = 0; k < nv; k++) {
        const fl_fvar *v = &fc->vars.v[k];
        if (v->kind == FVK_INPUT && v->in >= 0 && v->in < fc->nin && v->level > L->in_nderiv[v->in])
            L->in_nderiv[v->in] = v->level;
    }
    L->uses_accel = u->uses_accel;

    /* rows: forces, then residuals (own unknowns, then outputs: y_o - value) */
    sx_vec rows = {0};
    for (int a = 0; a < L->natt; a++) FL_VEC_PUSH(rows, a < fc->natt ? final(&c, u->force[a]) : fl_sx_const(c.g, 0));
    for (size_t i = 0; i < u->own.n; i++) FL_VEC_PUSH(rows, final(&c, u->own.v[i].res));
    for (int o = 0; o < fc->nout; o++) {
        int k = L->own_var[u->own.n + (size_t)o];
        /* the output's own unknown: a fresh leaf standing for it */
        fl_sx val = final(&c, u->out[o]);
        fl_sx leaf = FL_SX_NONE;
        if (k >= 0 && c.own_of_var[k] < 0) {
            c.own_of_var[k] = (int)u->own.n + o;
            leaf = fl_sx_var(c.g, k);
        }
        FL_VEC_PUSH(rows, leaf == FL_SX_NONE ? fl_sx_const(c.g, 0) : fl_sx_sub(c.g, leaf, val));
    }
    lower_prog(&c, &L->cont, rows.v, (int)rows.n, 0, "residual");
    /* Jacobian */
    sx_vec jroots = {0};
    int_vec deps = {0};
    for (size_t r = 0; r < rows.n; r++) FL_VEC_PUSH(jroots, rows.v[r]);
    for (size_t r = 0; r < rows.n; r++) partials(&c, rows.v[r], (int)r, &jroots, &deps);
    L->ndep = (int)deps.n / 2;
    L->dep_rc = deps.v;
    lower_prog(&c, &L->jac, jroots.v, (int)jroots.n, 0, "Jacobian");
    FL_VEC_FREE(jroots);
    /* root functions */
    sx_vec rr = {0};
    for (int r = 0; r < L->nrel; r++)
        if (L->rel_root[r] >= 0) {
            c.sub_der = 1;
            FL_VEC_PUSH(rr, final(&c, u->rels.v[r].g));
            c.sub_der = 0;
        }
    lower_prog(&c, &L->roots, rr.v, (int)rr.n, 0, "root");
    FL_VEC_FREE(rr);
    /* event program */
    sx_vec ev = {0};
    c.sub_der = 1;
    for (int r = 0; r < L->nrel; r++) FL_VEC_PUSH(ev, final(&c, u->rels.v[r].node));
    c.sub_der = 0;
    L->ev_def0 = (int)ev.n;
    L->ndef = (int)u->disc.n;
    L->def_disc = fl_xmalloc(sizeof(int) * (size_t)(L->ndef + 1));
    for (size_t i = 0; i < u->disc.n; i++) {
        L->def_disc[i] = c.disc_of_var[u->disc.v[i].var];
        FL_VEC_PUSH(ev, def_value(&c, (int)i));
    }
    L->ev_cond0 = (int)ev.n;
    for (size_t w = 0; w < u->whens.n; w++) {
        const fl_fwhen *wh = &u->whens.v[w];
        fl_uwhen uw = {wh->chain, L->nwcond, wh->nconds, 0, 0, 0};
        for (int i = 0; i < wh->nconds; i++) {
            fl_sx initial = fl_sx_initial(c.g);
            if (wh->conds[i] == initial || fl_sx_depends(c.g, wh->conds[i], is_initial, NULL)) uw.at_init = 1;
        }
        for (int i = 0; i < wh->nconds; i++) FL_VEC_PUSH(ev, ev_final(&c, wh->conds[i]));
        L->nwcond += wh->nconds;
        FL_VEC_PUSH(L->whens, uw);
    }
    L->ev_stmt0 = (int)ev.n;
    for (size_t w = 0; w < u->whens.n; w++) {
        const fl_fwhen *wh = &u->whens.v[w];
        L->whens.v[w].stmt0 = (int)L->stmts.n;
        wctx wc = {&c, wh, fl_xcalloc((size_t)wh->nbody + 1, sizeof(fl_sx)), fl_xcalloc((size_t)wh->nbody + 1, 1)};
        for (int i = 0; i < wh->nbody; i++) {
            const fl_fwstmt *b = &wh->body[i];
            fl_ustmt st;
            memset(&st, 0, sizeof st);
            st.kind = b->kind;
            st.disc = st.own = st.att = -1;
            st.val = -1;
            st.coef_root = st.off_root = -1;
            st.msg = b->msg;
            st.loc = b->loc;
            if (b->value != FL_SX_NONE) {
                st.val = (int)ev.n;
                FL_VEC_PUSH(ev, ev_final(&c, when_value(&wc, i)));
            }
            if (b->kind == FW_ASSIGN) st.disc = c.disc_of_var[b->var];
            if (b->kind == FW_REINIT) {
                if (c.own_of_var[b->var] >= 0 && u->kind[b->var] == UV_STATE) st.own = c.own_of_var[b->var];
                else reinit_target(&c, b->var, &st, &ev, b->loc);
            }
            FL_VEC_PUSH(L->stmts, st);
        }
        free(wc.val);
        free(wc.state);
        L->whens.v[w].nstmt = wh->nbody;
    }
    L->ev_assert0 = (int)ev.n;
    for (size_t i = 0; i < u->asserts.n; i++) {
        FL_VEC_PUSH(ev, ev_final(&c, u->asserts.v[i].cond));
        FL_VEC_PUSH(L->asserts, u->asserts.v[i]);
    }
    lower_prog(&c, &L->event, ev.v, (int)ev.n, 1, "event");
    FL_VEC_FREE(ev);
    /* the when-conditions as they hold between events (their values just
     * before the next one: sample() false, relations as last decided) */
    sx_vec wl = {0};
    for (size_t w = 0; w < u->whens.n; w++)
        for (int i = 0; i < u->whens.v[w].nconds; i++) {
            c.sub_der = 1;
            FL_VEC_PUSH(wl, final(&c, u->whens.v[w].conds[i]));
            c.sub_der = 0;
        }
    lower_prog(&c, &L->wleft, wl.v, (int)wl.n, 0, "when-condition");
    FL_VEC_FREE(wl);
    /* outputs: every variable */
    sx_vec ov = {0};
    c.sub_der = 1;
    for (int k = 0; k < nv; k++) FL_VEC_PUSH(ov, final(&c, u->value[k]));
    c.sub_der = 0;
    lower_prog(&c, &L->out, ov.v, (int)ov.n, 0, "output");
    FL_VEC_FREE(ov);
    /* initial equations */
    sx_vec ir = {0};
    int_vec ideps = {0};
    L->ninit = (int)u->init_res.n;
    L->init_label = fl_xcalloc((size_t)L->ninit + 1, sizeof(char *));
    for (int i = 0; i < L->ninit; i++) {
        FL_VEC_PUSH(ir, final(&c, u->init_res.v[i]));
        fl_buf b = {0};
        fl_ucls_print(&b, fc, u->init_res.v[i]);
        const char *what = "initial equation";
        for (size_t k = 0; k < u->cons.n; k++) /* a constraint among three or more flanges, at the start */
            if (u->cons.v[k].irow[0] == i || u->cons.v[k].irow[1] == i)
                what = u->cons.v[k].irow[0] == i ? "constraint on positions" : "constraint on velocities";
        L->init_label[i] = fl_xsprintf("%s: %s %s = 0", c.name, what, b.s);
        fl_buf_free(&b);
    }
    c.init_cols = 1;
    for (int i = 0; i < L->ninit; i++) partials(&c, ir.v[i], i, &ir, &ideps);
    c.init_cols = 0;
    L->ninit_dep = (int)ideps.n / 2;
    L->init_dep_rc = ideps.v;
    lower_prog(&c, &L->init, ir.v, (int)ir.n, 0, "initial");
    FL_VEC_FREE(ir);
    /* time events (threshold, and the sign of time in the relation: the
     * direction in which it is crossed) and samples */
    sx_vec tm = {0};
    for (int r = 0; r < L->nrel; r++)
        FL_VEC_PUSH(tm, u->rels.v[r].time_event ? u->rels.v[r].at : fl_sx_const(c.g, NAN));
    for (int r = 0; r < L->nrel; r++) {
        fl_sx coef = fl_sx_const(c.g, 0), rest;
        if (u->rels.v[r].time_event) fl_sx_linear(c.g, u->rels.v[r].g, fl_sx_time(c.g), &coef, &rest);
        FL_VEC_PUSH(tm, coef);
    }
    L->nsample = (int)u->samples.n;
    for (size_t i = 0; i < u->samples.n; i++) {
        FL_VEC_PUSH(tm, u->samples.v[i].start);
        FL_VEC_PUSH(tm, u->samples.v[i].interval);
    }
    lower_prog(&c, &L->times, tm.v, (int)tm.n, 0, "time event");
    FL_VEC_FREE(tm);
    /* prescribed motion (at most one) */
    int ndrive = 0;
    for (size_t i = 0; i < u->drives.n; i++) {
        const fl_udrive *dv = &u->drives.v[i];
        if (dv->fixed) continue;
        if (ndrive++) {
            fl_err(d, dv->loc, "%s: more than one prescribed motion in one component is not supported", c.name);
            c.failed = 1;
            break;
        }
        L->has_drive = 1;
        L->drive_att = dv->att;
        L->drive_sup = dv->sup;
        L->drive_level = dv->level;
        fl_sx zero = fl_sx_const(c.g, 0);
        fl_sx dr[3] = {dv->s == FL_SX_NONE ? zero : final(&c, dv->s), dv->v == FL_SX_NONE ? zero : final(&c, dv->v),
                       dv->a == FL_SX_NONE ? zero : final(&c, dv->a)};
        lower_prog(&c, &L->drive, dr, 3, 0, "prescribed motion");
    }
    /* links, masses, fixed points: parameter expressions */
    sx_vec lk = {0};
    L->nlinks = (int)u->links.n;
    L->link_a = fl_xmalloc(sizeof(int) * (size_t)(L->nlinks + 1));
    L->link_b = fl_xmalloc(sizeof(int) * (size_t)(L->nlinks + 1));
    for (int i = 0; i < L->nlinks; i++) {
        L->link_a[i] = u->links.v[i].a;
        L->link_b[i] = u->links.v[i].b;
        FL_VEC_PUSH(lk, u->links.v[i].ratio);
        FL_VEC_PUSH(lk, u->links.v[i].offset);
    }
    L->ngroups = (int)u->groups.n;
    L->group_rep = fl_xmalloc(sizeof(int) * (size_t)(L->ngroups + 1));
    for (int i = 0; i < L->ngroups; i++) {
        L->group_rep[i] = u->groups.v[i].rep;
        FL_VEC_PUSH(lk, u->groups.v[i].mass);
    }
    for (size_t i = 0; i < u->drives.n; i++)
        if (u->drives.v[i].fixed) FL_VEC_PUSH(lk, u->drives.v[i].s);
    lower_prog(&c, &L->links, lk.v, (int)lk.n, 0, "structure");
    FL_VEC_FREE(lk);
    FL_VEC_FREE(rows);
    fl_smap_free(&c.rel_of);
    free(c.own_of_var);
    free(c.disc_of_var);
    free(c.def_of_var);
    free(c.def_sub);
    free(c.der_val);
    free(c.def_state);
    return c.failed ? -1 : 0;
}

void fl_ulow_free(fl_ulow *L)
{
    free(L->own_var);
    free(L->own_diff);
    free(L->in_nderiv);
    free(L->disc_var);
    free(L->rel_root);
    fl_sprog_free(&L->cont);
    fl_sprog_free(&L->jac);
    fl_sprog_free(&L->roots);
    fl_sprog_free(&L->event);
    fl_sprog_free(&L->wleft);
    fl_sprog_free(&L->out);
    fl_sprog_free(&L->init);
    fl_sprog_free(&L->times);
    fl_sprog_free(&L->drive);
    fl_sprog_free(&L->links);
    free(L->dep_rc);
    free(L->init_dep_rc);
    free(L->def_disc);
    FL_VEC_FREE(L->whens);
    FL_VEC_FREE(L->stmts);
    FL_VEC_FREE(L->asserts);
    free(L->link_a);
    free(L->link_b);
    free(L->group_rep);
    if (L->init_label)
        for (int i = 0; i < L->ninit; i++) free(L->init_label[i]);
    free(L->init_label);
    memset(L, 0, sizeof *L);
}
