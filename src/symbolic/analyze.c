/* analyze.c - the analysis of a cluster of user equations (see analyze.h).
 *
 * Phases, each a function named after it:
 *   classify_discrete   discrete variables and their defining equations
 *   propagate_known     explicit variables from knowns, and the equations
 *                       left without unknowns: constraints between flanges
 *   process_constraint  a constraint becomes a link, a fixed point or a drive
 *                       (among three or more flanges: multi_constraint)
 *   form_groups         flanges joined rigidly: ratios to a representative
 *   group_forces        generalised forces of rigid groups
 *   solve_remaining     states, matching, explicit and implicit unknowns
 *                       (constraint_forces first: the unknown force of each
 *                       constraint among three or more flanges)
 *   finish_values       final expressions of every variable, forces, outputs
 *   collect_events      event relations, time events, samples
 *   finish_discrete     discrete equations in order, when-equations, asserts,
 *                       initial equations in final leaves
 * Index reduction of constraints between states is in index.c. */
#include "analyze.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index.h"

typedef struct actx {
    fl_fcluster *fc;
    fl_sgraph *g;
    fl_ucls *u;
    const double *par;
    const double *start;
    const char *name;
    fl_diag *d;
    int failed;
    int nv;             /* variables (grows with group forces) */
    int capv;
    int neq;
    unsigned char *used; /* per equation: 0 open, 1 consumed, 2 output-time only */
    fl_sx *res;          /* per equation: current residual */
    fl_sx *dval;         /* per variable: time derivative of its value (memo), FL_SX_NONE */
    unsigned char *dval_done;
    int *alg_eq;         /* per variable: the equation defining an implicit algebraic, -1 */
    /* union-find of attachments with ratio/offset to the parent */
    int *att_parent;
    fl_sx *att_ratio, *att_offset;
    fl_smap dummy_of;    /* der(x) that index reduction made an unknown of its own -> that unknown */
} actx;

/* ---- small helpers ---------------------------------------------------------- */

static void grow_vars(actx *c)
{
    int n = (int)c->fc->vars.n;
    if (n <= c->capv) {
        c->nv = n;
        return;
    }
    int cap = FL_MAX(n, 2 * c->capv);
    fl_ucls *u = c->u;
    u->kind = fl_xrealloc(u->kind, sizeof(fl_uvk) * (size_t)cap);
    u->value = fl_xrealloc(u->value, sizeof(fl_sx) * (size_t)cap);
    c->dval = fl_xrealloc(c->dval, sizeof(fl_sx) * (size_t)cap);
    c->dval_done = fl_xrealloc(c->dval_done, (size_t)cap);
    c->alg_eq = fl_xrealloc(c->alg_eq, sizeof(int) * (size_t)cap);
    for (int k = c->capv; k < cap; k++) {
        u->kind[k] = UV_UNKNOWN;
        u->value[k] = FL_SX_NONE;
        c->dval[k] = FL_SX_NONE;
        c->dval_done[k] = 0;
        c->alg_eq[k] = -1;
    }
    c->capv = cap;
    c->nv = n;
}

static int new_var(actx *c, const char *name, fl_fvk kind, fl_loc loc)
{
    int k = fl_fc_add_var(c->fc, name, kind, loc);
    grow_vars(c);
    return k;
}

static const fl_fvar *var(const actx *c, int k)
{
    return &c->fc->vars.v[k];
}

static void vname(void *ctx, fl_buf *b, const fl_snode *n)
{
    const fl_fcluster *fc = ctx;
    if (n->op == SX_PAR) {
        fl_buf_printf(b, "p%lld", (long long)n->u.k);
        return;
    }
    const fl_fvar *v = &fc->vars.v[n->u.k];
    const char *nm = v->name;
    if (n->op == SX_DER) fl_buf_printf(b, "der(%s)", nm);
    else if (n->op == SX_PRE) fl_buf_printf(b, "pre(%s)", nm);
    else fl_buf_add(b, nm);
}

void fl_ucls_print(fl_buf *b, const fl_fcluster *fc, fl_sx x)
{
    fl_sx_print(b, &fc->g, x, vname, (void *)fc);
}

/* A located error about the cluster, with an equation printed. */
static void err_eq(actx *c, fl_loc loc, const char *what, fl_sx eq)
{
    fl_buf b = {0};
    if (eq != FL_SX_NONE) fl_ucls_print(&b, c->fc, eq);
    if (eq != FL_SX_NONE) fl_err(c->d, loc, "%s: %s (as %s = 0)", c->name, what, b.s);
    else fl_err(c->d, loc, "%s: %s", c->name, what);
    fl_buf_free(&b);
    c->failed = 1;
}

typedef struct evctx {
    const fl_sgraph *g;
    const double *par;
    FL_VEC(double) val;
    fl_smap at; /* node -> index into val */
    int bad;
} evctx;

static double ev(const evctx *c, fl_sx x)
{
    int i = fl_smap_get(&c->at, x);
    return i >= 0 ? c->val.v[i] : NAN;
}

static void eval_visit(void *cv, fl_sx x)
{
    evctx *c = cv;
    const fl_snode *n = &c->g->n[x];
    double a = n->a >= 0 && n->op != SX_CALL ? ev(c, n->a) : 0;
    double b = n->b >= 0 && n->op != SX_CALL ? ev(c, n->b) : 0;
    double r = NAN;
    switch ((fl_sop)n->op) {
    case SX_CONST: r = n->u.v; break;
    case SX_PAR:
        if (c->par) r = c->par[n->u.k];
        else c->bad = 1;
        break;
    case SX_ADD: r = a + b; break;
    case SX_SUB: r = a - b; break;
    case SX_MUL: r = a * b; break;
    case SX_DIV: r = a / b; break;
    case SX_POW: r = pow(a, b); break;
    case SX_NEG: r = -a; break;
    case SX_FN1: r = fl_sfn_eval((fl_sfn)n->fn, a, 0); break;
    case SX_FN2: r = fl_sfn_eval((fl_sfn)n->fn, a, b); break;
    case SX_IF: r = a != 0 ? b : ev(c, n->c); break;
    case SX_REL:
        switch (n->fn) {
        case FL_REL_LT: r = a < b; break;
        case FL_REL_LE: r = a <= b; break;
        case FL_REL_GT: r = a > b; break;
        case FL_REL_GE: r = a >= b; break;
        case FL_REL_EQ: r = a == b; break;
        default: r = a != b; break;
        }
        break;
    case SX_AND: r = a != 0 && b != 0; break;
    case SX_OR: r = a != 0 || b != 0; break;
    case SX_NOT: r = a == 0; break;
    case SX_DGIV: r = a; break;
    default: c->bad = 1; break;
    }
    fl_smap_put(&c->at, x, (int)c->val.n);
    FL_VEC_PUSH(c->val, r);
}

double fl_sx_eval_par(const fl_sgraph *g, fl_sx x, const double *par)
{
    evctx c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.par = par;
    fl_sx roots[1] = {x};
    fl_sx_postorder(g, roots, 1, eval_visit, &c);
    double r = c.bad ? NAN : ev(&c, x);
    FL_VEC_FREE(c.val);
    fl_smap_free(&c.at);
    return r;
}

/* Is x a function of parameters and constants only? */
static int par_only_pred(void *ctx, const fl_snode *n)
{
    FL_UNUSED(ctx);
    return n->op != SX_CONST && n->op != SX_PAR && n->op < SX_ADD;
}

static int is_par_only(const actx *c, fl_sx x)
{
    return !fl_sx_depends(c->g, x, par_only_pred, NULL);
}

/* A parameter expression that is zero for the analysed instance (or
 * structurally). */
static int vanishes(const actx *c, fl_sx x)
{
    if (fl_sx_is_const(c->g, x, 0)) return 1;
    if (!is_par_only(c, x)) return 0;
    double v = fl_sx_eval_par(c->g, x, c->par);
    return v == 0;
}

/* Variables (SX_VAR / SX_DER / SX_PRE leaves) of x, distinct, into out. */
typedef FL_VEC(int) int_vec;

typedef struct occ_ctx {
    const fl_sgraph *g;
    int_vec *out;
    fl_smap seen; /* variables already listed */
    int want_der; /* 1: SX_DER leaves count as their variable */
} occ_ctx;

static void occ_visit(void *cv, fl_sx x)
{
    occ_ctx *c = cv;
    const fl_snode *n = &c->g->n[x];
    if (n->op != SX_VAR && !(n->op == SX_DER && c->want_der)) return;
    int k = (int)n->u.k;
    if (fl_smap_get(&c->seen, k) >= 0) return;
    fl_smap_put(&c->seen, k, 1);
    FL_VEC_PUSH(*c->out, k);
}

static void occurrences(actx *c, fl_sx x, int_vec *out, int want_der)
{
    out->n = 0;
    occ_ctx oc;
    memset(&oc, 0, sizeof oc);
    oc.g = c->g;
    oc.out = out;
    oc.want_der = want_der;
    fl_sx roots[1] = {x};
    fl_sx_postorder(c->g, roots, 1, occ_visit, &oc);
    fl_smap_free(&oc.seen);
}

typedef struct leaf_pred {
    fl_sop op;
    int k;
} leaf_pred;

static int is_leaf(void *ctx, const fl_snode *n)
{
    leaf_pred *p = ctx;
    return n->op == p->op && n->u.k == p->k;
}

static int contains(const actx *c, fl_sx x, fl_sop op, int k)
{
    leaf_pred p = {op, k};
    return fl_sx_depends(c->g, x, is_leaf, &p);
}

/* ---- knowns and time derivatives ------------------------------------------ */

static fl_sx time_derivative(actx *c, fl_sx x);

/* Derivative of variable k's value (memoised); FL_SX_NONE if it has none. */
static fl_sx der_of_var(actx *c, int k)
{
    fl_ucls *u = c->u;
    if (c->dval_done[k]) return c->dval[k];
    c->dval_done[k] = 1; /* guards against cycles: a variable defined through its own derivative */
    fl_sx r = FL_SX_NONE;
    const fl_fvar *v = var(c, k);
    if (v->kind == FVK_POS || v->kind == FVK_INPUT) {
        if (v->level < 2) {
            int kk = fl_fc_level_var(c->fc, v->kind, v->kind == FVK_POS ? v->att : v->in, v->level + 1);
            grow_vars(c);
            u->kind[kk] = UV_INPUT;
            u->value[kk] = fl_sx_var(c->g, kk);
            r = u->value[kk];
        }
    } else if (u->kind[k] == UV_KNOWN || u->kind[k] == UV_OUTPUT) {
        r = time_derivative(c, u->value[k]);
    } else if (u->kind[k] == UV_DISC || u->kind[k] == UV_INTERNAL) {
        r = fl_sx_const(c->g, 0);
    } else if (u->kind[k] == UV_ALG && c->alg_eq[k] >= 0) {
        /* implicit algebraic: 0 = e(x, ...) gives de/dx der(x) + (rest) = 0 */
        fl_sx e = c->res[c->alg_eq[k]];
        fl_sx xv = fl_sx_var(c->g, k);
        fl_sx dx = fl_sx_partial(c->g, e, xv);
        c->dval[k] = fl_sx_const(c->g, 0); /* der(x) counted separately */
        fl_sx rest = time_derivative(c, e);
        c->dval[k] = FL_SX_NONE;
        if (dx != FL_SX_NONE && rest != FL_SX_NONE) r = fl_sx_neg(c->g, fl_sx_div(c->g, rest, dx));
    } else if (u->kind[k] == UV_STATE || u->kind[k] == UV_UNKNOWN) {
        r = fl_sx_der(c->g, k);
    }
    c->dval[k] = r;
    return r;
}

static fl_sx tseed(void *ctx, fl_sx leaf)
{
    actx *c = ctx;
    fl_sgraph *g = c->g;
    fl_snode n = g->n[leaf];
    switch ((fl_sop)n.op) {
    case SX_TIME: return fl_sx_const(g, 1);
    case SX_PAR:
    case SX_PRE: return fl_sx_const(g, 0);
    case SX_VAR: {
        int k = (int)n.u.k;
        /* while an implicit algebraic is being differentiated, its own leaf counts 0 */
        if (c->dval_done[k] && c->dval[k] != FL_SX_NONE && c->u->kind[k] == UV_ALG) return c->dval[k];
        fl_sx r = der_of_var(c, k);
        return r;
    }
    case SX_DER: return FL_SX_NONE; /* second derivatives of states are not formed here */
    default: return fl_sx_const(g, 0);
    }
}

static fl_sx time_derivative(actx *c, fl_sx x)
{
    return fl_sx_diff(c->g, x, tseed, c);
}

/* Substitute the values of known variables, and der() of knowns. */
static fl_sx known_sub(void *ctx, fl_sx leaf)
{
    actx *c = ctx;
    fl_snode n = c->g->n[leaf];
    if (n.op == SX_DER && c->dummy_of.n) {
        /* (in expressions the index reduction did not rewrite: initial equations) */
        int r = fl_smap_get(&c->dummy_of, leaf);
        if (r >= 0) {
            leaf = (fl_sx)r;
            n = c->g->n[leaf];
        }
    }
    if (n.op != SX_VAR && n.op != SX_DER) return leaf;
    int k = (int)n.u.k;
    fl_uvk kind = c->u->kind[k];
    if (n.op == SX_VAR) {
        if (kind == UV_KNOWN && c->u->value[k] != FL_SX_NONE) return c->u->value[k];
        return leaf;
    }
    if (kind == UV_KNOWN || kind == UV_INPUT || (kind == UV_ALG && c->alg_eq[k] >= 0)) {
        fl_sx d = der_of_var(c, k);
        if (d != FL_SX_NONE) return d;
    }
    return leaf;
}

/* Values of knowns are stored fully substituted, so one pass suffices. */
static fl_sx subst_known(actx *c, fl_sx x)
{
    return fl_sx_subst(c->g, x, known_sub, c);
}

/* Is variable k an unknown of the continuous system (for counting)? */
static int is_unknown(const actx *c, int k)
{
    return c->u->kind[k] == UV_UNKNOWN;
}

/* ---- discrete variables ---------------------------------------------------- */

static void classify_discrete(actx *c)
{
    fl_fcluster *fc = c->fc;
    fl_ucls *u = c->u;
    /* Reals assigned in when-equations are discrete */
    for (size_t w = 0; w < fc->whens.n; w++)
        for (int s = 0; s < fc->whens.v[w].nbody; s++) {
            const fl_fwstmt *st = &fc->whens.v[w].body[s];
            if (st->kind == FW_ASSIGN && fc->vars.v[st->var].kind == FVK_REAL) fc->vars.v[st->var].kind = FVK_DISC;
        }
    for (int k = 0; k < c->nv; k++) {
        const fl_fvar *v = var(c, k);
        switch (v->kind) {
        case FVK_DISC: u->kind[k] = UV_DISC; u->value[k] = fl_sx_var(c->g, k); break;
        case FVK_POS:
        case FVK_INPUT: u->kind[k] = UV_INPUT; u->value[k] = fl_sx_var(c->g, k); break;
        default: u->kind[k] = UV_UNKNOWN; break;
        }
    }
    /* equations defining discrete variables; a variable is assigned in one
     * when-equation (each of its elsewhen branches may assign it), once */
    unsigned char *in_when = fl_xcalloc((size_t)c->nv + 1, 1);
    int *chain_of = fl_xmalloc(sizeof(int) * ((size_t)c->nv + 1));
    for (int k = 0; k < c->nv; k++) chain_of[k] = -1;
    for (size_t w = 0; w < fc->whens.n; w++) {
        const fl_fwhen *wh = &fc->whens.v[w];
        for (int s = 0; s < wh->nbody; s++) {
            const fl_fwstmt *st = &wh->body[s];
            if (st->kind != FW_ASSIGN) continue;
            int k = st->var;
            int twice = 0;
            for (int s2 = 0; s2 < s; s2++) twice |= wh->body[s2].kind == FW_ASSIGN && wh->body[s2].var == k;
            if (twice) {
                fl_err(c->d, st->loc, "%s: '%s' is assigned twice in this when-equation", c->name, var(c, k)->name);
                c->failed = 1;
            } else if (chain_of[k] >= 0 && chain_of[k] != wh->chain) {
                fl_err(c->d, st->loc,
                       "%s: '%s' is assigned in two when-equations (one when-equation with elsewhen branches may "
                       "assign it)",
                       c->name, var(c, k)->name);
                c->failed = 1;
            }
            chain_of[k] = wh->chain;
            in_when[k] = 1;
        }
    }
    free(chain_of);
    unsigned char *defined = fl_xcalloc((size_t)c->nv + 1, 1);
    for (int e = 0; e < c->neq; e++) {
        const fl_feq *q = &fc->eqs.v[e];
        if (q->var < 0 || u->kind[q->var] != UV_DISC) continue;
        if (in_when[q->var] || defined[q->var]) {
            err_eq(c, q->loc, in_when[q->var] ? "a discrete variable assigned in a when-equation has another equation"
                                              : "a discrete variable has two equations",
                   q->res);
            continue;
        }
        defined[q->var] = 1;
        fl_udisc dd = {q->var, q->def, q->loc};
        FL_VEC_PUSH(u->disc, dd);
        c->used[e] = 1;
    }
    for (int k = 0; k < c->nv; k++) {
        if (u->kind[k] != UV_DISC || defined[k] || in_when[k]) continue;
        fl_err(c->d, var(c, k)->loc, "%s: discrete variable '%s' has no equation (define it by an equation '%s = ...' "
               "or assign it in a when-equation)", c->name, var(c, k)->name, var(c, k)->name);
        c->failed = 1;
    }
    /* an equation in which a discrete variable is not the defined one but no
     * continuous unknown appears either is caught by the counting later */
    free(in_when);
    free(defined);
}

/* ---- constraints between attachments ---------------------------------------- */

static int nonpar_pred(void *ctx, const fl_snode *n)
{
    FL_UNUSED(ctx);
    return n->op == SX_VAR || n->op == SX_DER || n->op == SX_PRE || n->op == SX_TIME || n->op == SX_REL ||
           n->op == SX_SAMPLE || n->op == SX_INITIAL || n->op == SX_TERMINAL || n->op == SX_CALL;
}

static void add_drive(actx *c, int att, int sup, int level, fl_sx expr, fl_loc loc, int fixed)
{
    fl_udrive dv;
    memset(&dv, 0, sizeof dv);
    dv.att = att;
    dv.sup = sup;
    dv.level = level;
    dv.loc = loc;
    dv.fixed = fixed;
    dv.s = dv.v = dv.a = FL_SX_NONE;
    if (level == 0) {
        dv.s = expr;
        dv.v = time_derivative(c, expr);
        dv.a = dv.v == FL_SX_NONE ? FL_SX_NONE : time_derivative(c, dv.v);
    } else if (level == 1) {
        dv.v = expr;
        dv.a = time_derivative(c, expr);
    } else {
        dv.a = expr;
    }
    FL_VEC_PUSH(c->u->drives, dv);
}

/* A value given with its derivative (SX_DGIV) whose derivative is what the
 * value's own derivative is anyway (a position passed on with the speed of
 * the same flange, as the signal adaptors of a model exported in pieces
 * do) is just the value: the flanges on both sides are then rigidly joined. */
static int dgiv_node(void *cv, fl_sx x, const fl_sx *ops, fl_sx *out)
{
    actx *c = cv;
    if (c->g->n[x].op != SX_DGIV) return 0;
    fl_sx d = time_derivative(c, ops[0]);
    *out = d != FL_SX_NONE && d == ops[1] ? ops[0] : fl_sx_dgiv(c->g, ops[0], ops[1]);
    return 1;
}

static fl_sx fold_given_derivatives(actx *c, fl_sx x)
{
    return fl_sx_rewrite(c->g, x, dgiv_node, c);
}

/* An equation among the positions of three or more attachments: a linear
 * constraint with parameter coefficients and a constant offset (a gear on a
 * moving support, a planetary gear) that the body structure cannot fold;
 * it becomes a row of its own (fl_ucon: solve_remaining gives it the force
 * of one of its flanges as unknown). */
static void multi_constraint(actx *c, int e, fl_sx r, const int *pvars, int np)
{
    fl_loc loc = c->fc->eqs.v[e].loc;
    for (int i = 0; i < np; i++)
        if (var(c, pvars[i])->level != 0) {
            err_eq(c, loc,
                   "this equation ties the velocities or accelerations of more than two flanges together; flange "
                   "supports constraints among three or more flanges on their positions only",
                   r);
            return;
        }
    fl_ucon k;
    memset(&k, 0, sizeof k);
    k.n = np;
    k.att = fl_xmalloc(sizeof(int) * (size_t)np);
    k.coef = fl_xmalloc(sizeof(fl_sx) * (size_t)np);
    k.var = k.own = -1;
    k.loc = loc;
    fl_sx rest = r;
    const char *why = NULL;
    for (int i = 0; i < np && !why; i++) {
        fl_sx cf, rr;
        k.att[i] = var(c, pvars[i])->att;
        if (!fl_sx_linear(c->g, rest, fl_sx_var(c->g, pvars[i]), &cf, &rr) || !is_par_only(c, cf))
            why = "this equation relates flange positions nonlinearly, or with coefficients that are not parameters; "
                  "flange supports only linear relations with constant coefficients between flanges";
        else if (vanishes(c, cf))
            why = "a flange position in this equation has a coefficient that is zero for these parameters";
        k.coef[i] = cf;
        rest = rr;
    }
    if (!why && !is_par_only(c, rest))
        why = "this equation relates more than two flange positions with time or other variables; flange supports "
              "constraints among three or more flanges with constant offsets only";
    if (why) {
        err_eq(c, loc, why, r);
        free(k.att);
        free(k.coef);
        return;
    }
    k.offset = rest;
    FL_VEC_PUSH(c->u->cons, k);
}

/* An equation among knowns only: it must relate attachment positions (or
 * velocities, accelerations) affinely with parameter coefficients. */
static void process_constraint(actx *c, int e, fl_sx r)
{
    r = fold_given_derivatives(c, r);
    fl_loc loc = c->fc->eqs.v[e].loc;
    int_vec occ = {0};
    occurrences(c, r, &occ, 0);
    int_vec pv = {0}; /* the attachment variables, in the order met */
    int other = 0;    /* inputs, discrete variables */
    for (size_t i = 0; i < occ.n; i++) {
        if (var(c, occ.v[i])->kind == FVK_POS) FL_VEC_PUSH(pv, occ.v[i]);
        else other = 1;
    }
    FL_VEC_FREE(occ);
    int np = (int)pv.n;
    if (np > 2) {
        /* a position whose coefficient is zero for these parameters is not
         * in the relation (an IdealGear of ratio 1 on a support: phi_a -
         * phi_s = 1*(phi_b - phi_s) ties the two shafts only) */
        int kept = 0;
        for (int i = 0; i < np; i++) {
            fl_sx cf, rr;
            if (fl_sx_linear(c->g, r, fl_sx_var(c->g, pv.v[i]), &cf, &rr) && is_par_only(c, cf) && vanishes(c, cf))
                r = rr;
            else
                pv.v[kept++] = pv.v[i];
        }
        pv.n = (size_t)kept;
        np = kept;
    }
    if (np > 2) {
        multi_constraint(c, e, r, pv.v, np);
        FL_VEC_FREE(pv);
        return;
    }
    int atts[2] = {0, 0}, lev[2] = {0, 0}, pvars[2] = {0, 0};
    for (int i = 0; i < np; i++) {
        pvars[i] = pv.v[i];
        atts[i] = var(c, pv.v[i])->att;
        lev[i] = var(c, pv.v[i])->level;
    }
    FL_VEC_FREE(pv);
    if (np == 0) {
        if (!other && is_par_only(c, r)) {
            double v = fl_sx_eval_par(c->g, r, c->par);
            err_eq(c, loc, v == 0 ? "this equation determines no variable (it holds anyway: remove it)"
                                  : "this equation determines no variable and does not hold for the parameter values",
                   r);
        } else {
            err_eq(c, loc, "this equation determines no variable: it relates only inputs, parameters and time", r);
        }
        return;
    }
    if (np == 2 && lev[0] != lev[1]) {
        err_eq(c, loc, "this equation mixes positions and velocities of flanges", r);
        return;
    }
    /* coefficients: r = c0 p0 + c1 p1 + g */
    fl_sx coef[2], rest = r;
    for (int i = 0; i < np; i++) {
        fl_sx cf, rr;
        if (!fl_sx_linear(c->g, rest, fl_sx_var(c->g, pvars[i]), &cf, &rr) || !is_par_only(c, cf)) {
            err_eq(c, loc, "this equation relates flange positions nonlinearly, or with coefficients that are not "
                           "parameters; flange folds only linear relations with constant ratios into rigid bodies",
                   r);
            return;
        }
        coef[i] = cf;
        rest = rr;
    }
    for (int i = 0; i < np; i++)
        if (vanishes(c, coef[i])) {
            err_eq(c, loc, "a flange position in this equation has a coefficient that is zero for these parameters", r);
            return;
        }
    int level = lev[0];
    int const_rest = !fl_sx_depends(c->g, rest, nonpar_pred, NULL);
    if (np == 2 && level == 0 && const_rest) {
        /* p1 = -(c0/c1) p0 - g/c1, with p0 the lower attachment */
        int i0 = atts[0] < atts[1] ? 0 : 1, i1 = 1 - i0;
        fl_ulink lk;
        lk.a = atts[i0];
        lk.b = atts[i1];
        lk.ratio = fl_sx_neg(c->g, fl_sx_div(c->g, coef[i0], coef[i1]));
        lk.offset = fl_sx_neg(c->g, fl_sx_div(c->g, rest, coef[i1]));
        lk.loc = loc;
        FL_VEC_PUSH(c->u->links, lk);
        return;
    }
    if (np == 1) {
        fl_sx expr = fl_sx_neg(c->g, fl_sx_div(c->g, rest, coef[0]));
        add_drive(c, atts[0], -1, level, expr, loc, level == 0 && const_rest);
        return;
    }
    /* two flanges and time: relative motion, c0 p0 + c1 p1 + g = 0 with c0 = -c1 */
    fl_sx sum = fl_sx_add(c->g, coef[0], coef[1]);
    if (!vanishes(c, sum) && !(is_par_only(c, sum) && fabs(fl_sx_eval_par(c->g, sum, c->par)) < 1e-14)) {
        err_eq(c, loc, "this equation prescribes a motion of one flange relative to another with a ratio; only equal "
                       "and opposite coefficients (s_a - s_b = f(t)) are supported",
               r);
        return;
    }
    /* the flange with the positive coefficient moves relative to the other */
    double c0 = fl_sx_eval_par(c->g, coef[0], c->par);
    int f = c0 > 0 ? 0 : 1, s = 1 - f;
    fl_sx expr = fl_sx_neg(c->g, fl_sx_div(c->g, rest, coef[f]));
    add_drive(c, atts[f], atts[s], level, expr, loc, 0);
}

/* ---- the forward pass: explicit variables and constraints ------------------ */

static void propagate_known(actx *c)
{
    fl_fcluster *fc = c->fc;
    fl_ucls *u = c->u;
    int neq = c->neq;
    /* occurrence lists: equation -> unknown variables, variable -> equations */
    int_vec *eqv = fl_xcalloc((size_t)(neq ? neq : 1), sizeof(int_vec));
    int *cnt = fl_xcalloc((size_t)(neq ? neq : 1), sizeof(int));
    int *vstart = fl_xcalloc((size_t)c->nv + 2, sizeof(int));
    int_vec occ = {0};
    for (int e = 0; e < neq; e++) {
        if (c->used[e]) continue;
        occurrences(c, c->res[e], &occ, 1);
        for (size_t i = 0; i < occ.n; i++) {
            int k = occ.v[i];
            if (k >= c->nv) continue;
            if (is_unknown(c, k)) {
                FL_VEC_PUSH(eqv[e], k);
                cnt[e]++;
                vstart[k + 1]++;
            }
        }
    }
    for (int k = 0; k < c->nv; k++) vstart[k + 1] += vstart[k];
    int *veq = fl_xmalloc(sizeof(int) * (size_t)(vstart[c->nv] + 1));
    int *fill = fl_xcalloc((size_t)c->nv + 1, sizeof(int));
    for (int e = 0; e < neq; e++)
        for (size_t i = 0; i < eqv[e].n; i++) {
            int k = eqv[e].v[i];
            veq[vstart[k] + fill[k]++] = e;
        }
    free(fill);
    int nv0 = c->nv;
    int_vec work = {0};
    /* equations that would make their one unknown implicit wait until no
     * explicit solution is left: another equation may still give it */
    int_vec deferred = {0};
    for (int e = neq - 1; e >= 0; e--)
        if (!c->used[e] && cnt[e] <= 1) FL_VEC_PUSH(work, e);
    while ((work.n || deferred.n) && !c->failed) {
        int forced = !work.n;
        int e = forced ? deferred.v[--deferred.n] : work.v[--work.n];
        if (c->used[e]) continue;
        int x = -1;
        for (size_t i = 0; i < eqv[e].n; i++)
            if (is_unknown(c, eqv[e].v[i])) x = eqv[e].v[i];
        if (x < 0) {
            fl_sx r = subst_known(c, c->res[e]);
            c->res[e] = r;
            c->used[e] = 1;
            process_constraint(c, e, r);
            continue;
        }
        if (var(c, x)->kind == FVK_FORCE) continue; /* forces wait for the rigid groups */
        fl_sx r = subst_known(c, c->res[e]);
        c->res[e] = r;
        if (contains(c, r, SX_DER, x)) continue; /* x is a state: this is its equation */
        fl_sx xv = fl_sx_var(c->g, x), coef, rest;
        if (fl_sx_linear(c->g, r, xv, &coef, &rest) && !contains(c, coef, SX_VAR, x) && !vanishes(c, coef)) {
            u->kind[x] = UV_KNOWN;
            u->value[x] = fl_sx_neg(c->g, fl_sx_div(c->g, rest, coef));
        } else if (!forced) {
            FL_VEC_PUSH(deferred, e);
            continue;
        } else {
            u->kind[x] = UV_ALG; /* implicit: an own unknown with this residual */
            u->value[x] = xv;
            c->alg_eq[x] = e;
            fl_uown o = {x, 0, r, fc->eqs.v[e].loc};
            FL_VEC_PUSH(u->own, o);
        }
        c->used[e] = 1;
        for (int i = vstart[x]; i < vstart[x + 1]; i++) {
            int e2 = veq[i];
            if (c->used[e2]) continue;
            if (--cnt[e2] <= 1) FL_VEC_PUSH(work, e2);
        }
    }
    FL_UNUSED(nv0);
    FL_VEC_FREE(work);
    FL_VEC_FREE(deferred);
    FL_VEC_FREE(occ);
    for (int e = 0; e < neq; e++) FL_VEC_FREE(eqv[e]);
    free(eqv);
    free(cnt);
    free(vstart);
    free(veq);
}

/* ---- rigid groups ----------------------------------------------------------- */

/* Root of attachment a, with its position as ratio * root + offset. */
static int att_find(actx *c, int a, fl_sx *ratio, fl_sx *offset)
{
    fl_sx r = fl_sx_const(c->g, 1), o = fl_sx_const(c->g, 0);
    /* p_start = r p_x + o, and p_x = R_x p_parent + C_x on the way up */
    while (c->att_parent[a] != a) {
        fl_sx R = c->att_ratio[a], C = c->att_offset[a];
        o = fl_sx_add(c->g, o, fl_sx_mul(c->g, r, C));
        r = fl_sx_mul(c->g, r, R);
        a = c->att_parent[a];
    }
    *ratio = r;
    *offset = o;
    return a;
}

static void form_groups(actx *c)
{
    fl_ucls *u = c->u;
    int na = c->fc->natt;
    for (int a = 0; a < na; a++) {
        c->att_parent[a] = a;
        c->att_ratio[a] = fl_sx_const(c->g, 1);
        c->att_offset[a] = fl_sx_const(c->g, 0);
    }
    for (size_t l = 0; l < u->links.n; l++) {
        const fl_ulink *lk = &u->links.v[l];
        fl_sx ra, oa, rb, ob;
        int ka = att_find(c, lk->a, &ra, &oa), kb = att_find(c, lk->b, &rb, &ob);
        /* p_b = r p_a + o; p_a = ra p_ka + oa; p_b = rb p_kb + ob */
        fl_sx rr = fl_sx_mul(c->g, lk->ratio, ra);
        fl_sx oo = fl_sx_sub(c->g, fl_sx_add(c->g, fl_sx_mul(c->g, lk->ratio, oa), lk->offset), ob);
        if (ka == kb) {
            /* must agree: rb == rr and 0 == oo */
            double d1 = fl_sx_eval_par(c->g, fl_sx_sub(c->g, rr, rb), c->par);
            double d2 = fl_sx_eval_par(c->g, oo, c->par);
            err_eq(c, lk->loc,
                   fabs(d1) < 1e-12 && fabs(d2) < 1e-12
                       ? "this equation repeats a rigid connection the component's equations already make"
                       : "this equation contradicts a rigid connection the component's equations already make",
                   FL_SX_NONE);
            continue;
        }
        /* p_kb = (rr p_ka + oo) / rb: attach the higher root under the lower */
        fl_sx R = fl_sx_div(c->g, rr, rb), C = fl_sx_div(c->g, oo, rb);
        if (ka < kb) {
            c->att_parent[kb] = ka;
            c->att_ratio[kb] = R;
            c->att_offset[kb] = C;
        } else {
            /* p_ka = (p_kb - C) / R */
            c->att_parent[ka] = kb;
            c->att_ratio[ka] = fl_sx_div(c->g, fl_sx_const(c->g, 1), R);
            c->att_offset[ka] = fl_sx_neg(c->g, fl_sx_div(c->g, C, R));
        }
    }
    /* groups: one per root with more than one member */
    int *members = fl_xcalloc((size_t)(na ? na : 1), sizeof(int));
    for (int a = 0; a < na; a++) {
        fl_sx r, o;
        members[att_find(c, a, &r, &o)]++;
    }
    for (int a = 0; a < na; a++) u->group_of[a] = -1;
    for (int a = 0; a < na; a++) {
        if (c->att_parent[a] != a || members[a] < 2) continue;
        fl_ugroup gr;
        gr.rep = a;
        gr.mass = fl_sx_const(c->g, 0);
        /* the generalised force gets a variable of its own */
        char label[64];
        snprintf(label, sizeof label, "(generalized force %d)", (int)u->groups.n + 1);
        gr.gvar = new_var(c, label, FVK_REAL, c->fc->vars.n ? var(c, 0)->loc : fl_noloc);
        u->kind[gr.gvar] = UV_UNKNOWN;
        FL_VEC_PUSH(u->groups, gr);
    }
    for (int a = 0; a < na; a++) {
        fl_sx r, o;
        int root = att_find(c, a, &r, &o);
        for (size_t g = 0; g < u->groups.n; g++)
            if (u->groups.v[g].rep == root) u->group_of[a] = (int)g;
    }
    free(members);
}

/* Accelerations of the members of group g in terms of the representative's
 * (acc): a_j = ratio_j * a_rep, so that a mass written at any member is
 * found as a mass of the group. */
struct member_acc {
    actx *c;
    int g, acc;
};

static fl_sx member_acc_sub(void *ctx, fl_sx leaf)
{
    const struct member_acc *m = ctx;
    actx *c = m->c;
    const fl_snode *n = &c->g->n[leaf];
    if (n->op != SX_VAR || n->u.k >= c->nv || (int)n->u.k == m->acc) return leaf;
    const fl_fvar *v = var(c, (int)n->u.k);
    if (v->kind != FVK_POS || v->level != 2 || c->u->group_of[v->att] != m->g) return leaf;
    fl_sx r, o;
    att_find(c, v->att, &r, &o);
    return fl_sx_mul(c->g, r, fl_sx_var(c->g, m->acc));
}

/* The force variable of attachment a (-1 if the cluster has none). */
static int force_var(const actx *c, int a)
{
    for (int k = 0; k < c->nv; k++)
        if (var(c, k)->kind == FVK_FORCE && var(c, k)->att == a) return k;
    return -1;
}

static fl_sx subst_known_out(actx *c, fl_sx x);

/* The force at a driven or fixed attachment is the reaction the network
 * computes; equations that use it define other variables at output time,
 * except the support balance of a relative drive (flange.f + support.f =
 * 0), which the drive itself satisfies. */
static void reaction_forces(actx *c)
{
    fl_ucls *u = c->u;
    for (size_t i = 0; i < u->drives.n; i++) {
        const fl_udrive *dv = &u->drives.v[i];
        int ff = force_var(c, dv->att), fs = dv->sup >= 0 ? force_var(c, dv->sup) : -1;
        int fk[2] = {ff, fs};
        for (int j = 0; j < 2; j++)
            if (fk[j] >= 0) {
                u->kind[fk[j]] = UV_INTERNAL;
                u->value[fk[j]] = fl_sx_var(c->g, fk[j]);
            }
        for (int e = 0; e < c->neq; e++) {
            if (c->used[e]) continue;
            fl_sx r = subst_known(c, c->res[e]);
            int has_f = ff >= 0 && contains(c, r, SX_VAR, ff), has_s = fs >= 0 && contains(c, r, SX_VAR, fs);
            if (has_f && has_s) {
                fl_sx cf, rr, cs, rr2;
                if (fl_sx_linear(c->g, r, fl_sx_var(c->g, ff), &cf, &rr) &&
                    fl_sx_linear(c->g, rr, fl_sx_var(c->g, fs), &cs, &rr2) && cf == cs &&
                    fl_sx_is_const(c->g, rr2, 0))
                    c->used[e] = 1;
            }
        }
    }
}

/* Equations that still use a reaction force after the chains defined
 * from internal forces are followed define something at output time. */
static void reaction_equations(actx *c)
{
    fl_ucls *u = c->u;
    for (size_t i = 0; i < u->drives.n; i++) {
        const fl_udrive *dv = &u->drives.v[i];
        int fk[2] = {force_var(c, dv->att), dv->sup >= 0 ? force_var(c, dv->sup) : -1};
        for (int e = 0; e < c->neq; e++) {
            if (c->used[e]) continue;
            fl_sx r = subst_known_out(c, c->res[e]);
            for (int j = 0; j < 2; j++)
                if (fk[j] >= 0 && contains(c, r, SX_VAR, fk[j])) c->used[e] = 2;
        }
    }
}

/* Substitute knowns and the variables defined from internal forces. */
static fl_sx out_sub(void *ctx, fl_sx leaf)
{
    actx *c = ctx;
    fl_snode n = c->g->n[leaf];
    if (n.op == SX_VAR && c->u->kind[n.u.k] == UV_OUTPUT && c->u->value[n.u.k] != FL_SX_NONE)
        return fl_sx_subst(c->g, c->u->value[n.u.k], out_sub, c);
    return known_sub(ctx, leaf);
}

static fl_sx subst_known_out(actx *c, fl_sx x)
{
    return fl_sx_subst(c->g, x, out_sub, c);
}

/* A variable that an equation defines from internal forces of a rigid group
 * alone (u = flange.f, then y = -u ...) is known at output time only; once
 * such chains are followed, the equations that remain among the group's
 * forces show their generalised force (an adaptor's "force out" passed on
 * to the other side: flange_a.f + flange_b.f = 0). */
static void defined_from_forces(actx *c)
{
    fl_ucls *u = c->u;
    int_vec occ = {0};
    for (int progress = 1; progress && !c->failed;) {
        progress = 0;
        for (int e = 0; e < c->neq; e++) {
            if (c->used[e]) continue;
            fl_sx r = subst_known_out(c, c->res[e]);
            occurrences(c, r, &occ, 1);
            int x = -1, nx = 0, nf = 0, der = 0;
            for (size_t i = 0; i < occ.n; i++) {
                int k = occ.v[i];
                if (k >= c->nv) continue;
                if (u->kind[k] == UV_INTERNAL) nf++;
                else if (is_unknown(c, k)) {
                    x = k;
                    nx++;
                }
            }
            if (nx != 1 || nf == 0) continue;
            if (contains(c, r, SX_DER, x)) der = 1;
            fl_sx coef, rest;
            if (der || !fl_sx_linear(c->g, r, fl_sx_var(c->g, x), &coef, &rest) || contains(c, coef, SX_VAR, x) ||
                vanishes(c, coef))
                continue;
            u->kind[x] = UV_OUTPUT;
            u->value[x] = fl_sx_neg(c->g, fl_sx_div(c->g, rest, coef));
            c->used[e] = 1;
            progress = 1;
        }
    }
    FL_VEC_FREE(occ);
}

static void group_forces(actx *c)
{
    fl_ucls *u = c->u;
    int na = c->fc->natt;
    reaction_forces(c);
    int *fv = fl_xmalloc(sizeof(int) * (size_t)(na ? na : 1));
    for (int a = 0; a < na; a++) fv[a] = force_var(c, a);
    for (int a = 0; a < na; a++)
        if (u->group_of[a] >= 0 && fv[a] >= 0) {
            u->kind[fv[a]] = UV_INTERNAL;
            u->value[fv[a]] = fl_sx_var(c->g, fv[a]);
        }
    defined_from_forces(c);
    reaction_equations(c);
    if (!u->groups.n) {
        free(fv);
        return;
    }
    for (int e = 0; e < c->neq && !c->failed; e++) {
        if (c->used[e]) continue;
        fl_sx r = subst_known_out(c, c->res[e]);
        for (size_t g = 0; g < u->groups.n; g++) {
            const fl_ugroup *gr = &u->groups.v[g];
            int any = 0;
            fl_sx lambda = FL_SX_NONE, rest = r;
            int proportional = 1;
            for (int a = 0; a < na; a++) {
                if (u->group_of[a] != (int)g || fv[a] < 0) continue;
                fl_sx fvx = fl_sx_var(c->g, fv[a]);
                if (!contains(c, rest, SX_VAR, fv[a])) {
                    proportional = 0; /* a zero coefficient: proportional only if every one is */
                    continue;
                }
                any = 1;
                fl_sx cf, rr;
                if (!fl_sx_linear(c->g, rest, fvx, &cf, &rr)) {
                    err_eq(c, c->fc->eqs.v[e].loc, "flange forces must enter the equations linearly", r);
                    break;
                }
                rest = rr;
                fl_sx ra, oa;
                att_find(c, a, &ra, &oa);
                fl_sx lam = fl_sx_div(c->g, cf, ra);
                if (lambda == FL_SX_NONE) {
                    lambda = lam;
                } else if (lam != lambda) {
                    fl_sx diff = fl_sx_sub(c->g, lam, lambda);
                    double dv = is_par_only(c, diff) ? fl_sx_eval_par(c->g, diff, c->par) : NAN;
                    if (!(fabs(dv) <= 1e-12 * (1 + fabs(fl_sx_eval_par(c->g, lambda, c->par))))) proportional = 0;
                }
            }
            if (!any || c->failed) continue;
            if (proportional) {
                r = fl_sx_add(c->g, fl_sx_mul(c->g, lambda, fl_sx_var(c->g, gr->gvar)), rest);
            } else {
                c->used[e] = 2; /* defines something from internal forces: output time */
                break;
            }
        }
        if (c->used[e] == 0) c->res[e] = r;
    }
    free(fv);
}

/* ---- the remaining system ------------------------------------------------------ */

/* A variable as the user knows it: the generalised force of flanges
 * joined rigidly inside the component is the sum of their forces. */
static void name_var(actx *c, fl_buf *b, int k)
{
    for (size_t g = 0; g < c->u->groups.n; g++) {
        if (c->u->groups.v[g].gvar != k) continue;
        int first = 1;
        fl_buf_add(b, "the force balance ");
        for (int a = 0; a < c->fc->natt; a++) {
            if (c->u->group_of[a] != (int)g) continue;
            int fv = force_var(c, a), pv = -1;
            for (int q = 0; q < c->nv && fv < 0 && pv < 0; q++)
                if (var(c, q)->kind == FVK_POS && var(c, q)->att == a && var(c, q)->level == 0) pv = q;
            if (!first) fl_buf_add(b, " + ");
            if (fv >= 0) fl_buf_add(b, var(c, fv)->name);
            else if (pv >= 0) fl_buf_printf(b, "%.*s.f", (int)strlen(var(c, pv)->name) - 2, var(c, pv)->name);
            else fl_buf_add(b, "?");
            first = 0;
        }
        fl_buf_add(b, " of the flanges it joins rigidly");
        return;
    }
    fl_buf_add(b, var(c, k)->name);
}

static void name_list(actx *c, fl_buf *b, const int *vars, int n)
{
    for (int i = 0; i < n && i < 8; i++) {
        if (i) fl_buf_add(b, ", ");
        name_var(c, b, vars[i]);
    }
    if (n > 8) fl_buf_printf(b, " and %d more", n - 8);
}

static fl_sx tdiff_cb(void *ctx, fl_sx x)
{
    actx *c = ctx;
    if (c->g->n[x].op == SX_VAR) return der_of_var(c, (int)c->g->n[x].u.k);
    return time_derivative(c, x);
}

/* Each constraint among three or more flanges (u->cons) takes the force of
 * one of its flanges as its unknown: the one that a structural matching of
 * the remaining equations leaves to it, its row standing on the forces of
 * its flanges. That force becomes an own algebraic unknown whose residual
 * row the compiler writes (the constraint, differentiated as the bodies
 * require: fl_b_constraint); the forces of the other flanges follow from it
 * by the component's equations. The constraint on positions and on
 * velocities become initial equations, which the compiler keeps where the
 * row is a derivative of the constraint. */
static void constraint_forces(actx *c)
{
    fl_ucls *u = c->u;
    int ncon = (int)u->cons.n;
    if (!ncon) return;
    for (int j = 0; j < ncon; j++)
        for (int i = 0; i < u->cons.v[j].n; i++)
            if (u->group_of[u->cons.v[j].att[i]] >= 0) {
                err_eq(c, u->cons.v[j].loc,
                       "this equation ties three or more flanges together, one of which the component's equations also "
                       "join rigidly to another flange; flange cannot combine the two",
                       FL_SX_NONE);
                return;
            }
    int_vec rows = {0}, occ = {0}, ci = {0};
    for (int e = 0; e < c->neq; e++)
        if (!c->used[e]) {
            c->res[e] = subst_known(c, c->res[e]);
            FL_VEC_PUSH(rows, e);
        }
    int *col_of_var = fl_xmalloc(sizeof(int) * (size_t)(c->nv + 1));
    int_vec cols = {0};
    for (int k = 0; k < c->nv; k++) {
        col_of_var[k] = is_unknown(c, k) ? (int)cols.n : -1;
        if (col_of_var[k] >= 0) FL_VEC_PUSH(cols, k);
    }
    int nr = (int)rows.n + ncon, nc = (int)cols.n;
    int *rp = fl_xcalloc((size_t)nr + 1, sizeof(int));
    for (int r = 0; r < nr; r++) {
        if (r < (int)rows.n) {
            occurrences(c, c->res[rows.v[r]], &occ, 1);
        } else {
            const fl_ucon *k = &u->cons.v[r - (int)rows.n];
            occ.n = 0;
            for (int i = 0; i < k->n; i++) {
                int fv = force_var(c, k->att[i]);
                if (fv >= 0) FL_VEC_PUSH(occ, fv);
            }
        }
        for (size_t i = 0; i < occ.n; i++)
            if (occ.v[i] < c->nv && col_of_var[occ.v[i]] >= 0) FL_VEC_PUSH(ci, col_of_var[occ.v[i]]);
        rp[r + 1] = (int)ci.n;
    }
    int *cor = fl_xmalloc(sizeof(int) * (size_t)(nr ? nr : 1)), *roc = fl_xmalloc(sizeof(int) * (size_t)(nc ? nc : 1));
    fl_sym_match(nr, nc, rp, ci.v, cor, roc);
    for (int j = 0; j < ncon && !c->failed; j++) {
        fl_ucon *k = &u->cons.v[j];
        int col = cor[(int)rows.n + j];
        if (col < 0) {
            err_eq(c, k->loc,
                   "this equation ties three or more flanges together, but the component's equations leave none of "
                   "their forces free to carry the constraint",
                   FL_SX_NONE);
            break;
        }
        int x = cols.v[col];
        u->kind[x] = UV_ALG;
        u->value[x] = fl_sx_var(c->g, x);
        k->var = x;
        k->own = (int)u->own.n;
        fl_uown o = {x, 0, fl_sx_const(c->g, 0), k->loc};
        FL_VEC_PUSH(u->own, o);
        for (int level = 0; level < 2; level++) {
            fl_sx sum = level == 0 ? k->offset : fl_sx_const(c->g, 0);
            for (int i = 0; i < k->n; i++) {
                int pv = fl_fc_level_var(c->fc, FVK_POS, k->att[i], level);
                grow_vars(c);
                u->kind[pv] = UV_INPUT;
                u->value[pv] = fl_sx_var(c->g, pv);
                sum = fl_sx_add(c->g, sum, fl_sx_mul(c->g, k->coef[i], fl_sx_var(c->g, pv)));
            }
            k->irow[level] = (int)u->init_res.n;
            FL_VEC_PUSH(u->init_res, sum);
            FL_VEC_PUSH(u->init_loc, k->loc);
        }
    }
    FL_VEC_FREE(rows);
    FL_VEC_FREE(occ);
    FL_VEC_FREE(ci);
    FL_VEC_FREE(cols);
    free(col_of_var);
    free(rp);
    free(cor);
    free(roc);
}

static void solve_remaining(actx *c)
{
    fl_ucls *u = c->u;
    constraint_forces(c);
    if (c->failed) return;
    /* the unknowns left, and which of them appear differentiated */
    int_vec occ = {0};
    unsigned char *is_state = fl_xcalloc((size_t)c->nv + 1, 1);
    int_vec rows = {0};
    for (int e = 0; e < c->neq; e++) {
        if (c->used[e]) continue;
        c->res[e] = subst_known(c, c->res[e]);
        FL_VEC_PUSH(rows, e);
        occurrences(c, c->res[e], &occ, 1);
        for (size_t i = 0; i < occ.n; i++) {
            int k = occ.v[i];
            if (is_unknown(c, k) && contains(c, c->res[e], SX_DER, k)) is_state[k] = 1;
        }
    }
    /* a known variable whose derivative could not be formed */
    for (size_t i = 0; i < rows.n; i++) {
        int e = rows.v[i];
        occurrences(c, c->res[e], &occ, 1);
        for (size_t j = 0; j < occ.n; j++) {
            int k = occ.v[j];
            if (u->kind[k] != UV_UNKNOWN && u->kind[k] != UV_STATE && contains(c, c->res[e], SX_DER, k)) {
                fl_buf b = {0};
                fl_buf_printf(&b, "der(%s) is needed but %s is a known function of the flange motion whose derivative "
                                  "flange cannot form (it would need the derivative of an acceleration or of an input "
                                  "without one)",
                              var(c, k)->name, var(c, k)->name);
                err_eq(c, c->fc->eqs.v[e].loc, b.s, c->res[e]);
                fl_buf_free(&b);
            }
        }
    }
    /* columns: algebraic unknowns and derivatives of states */
    int_vec cols = {0};
    int *col_of_var = fl_xmalloc(sizeof(int) * (size_t)(c->nv + 1));
    for (int k = 0; k < c->nv; k++) {
        col_of_var[k] = -1;
        if (!is_unknown(c, k)) continue;
        col_of_var[k] = (int)cols.n;
        FL_VEC_PUSH(cols, k);
    }
    int nr = (int)rows.n, nc = (int)cols.n;
    if (!c->failed && nr != nc) {
        /* a matching of rows to the unknowns they can determine names what
         * is missing (unmatched unknowns) or extra (unmatched equations) */
        int *rp = fl_xcalloc((size_t)nr + 1, sizeof(int));
        int_vec ci = {0};
        for (int r = 0; r < nr; r++) {
            occurrences(c, c->res[rows.v[r]], &occ, 1);
            for (size_t i = 0; i < occ.n; i++)
                if (col_of_var[occ.v[i]] >= 0) FL_VEC_PUSH(ci, col_of_var[occ.v[i]]);
            rp[r + 1] = (int)ci.n;
        }
        int *cor = fl_xmalloc(sizeof(int) * (size_t)(nr ? nr : 1)), *roc = fl_xmalloc(sizeof(int) * (size_t)(nc ? nc : 1));
        fl_sym_match(nr, nc, rp, ci.v, cor, roc);
        fl_buf b = {0};
        if (nr < nc) {
            int_vec list = {0};
            for (int j = 0; j < nc; j++)
                if (roc[j] < 0) FL_VEC_PUSH(list, cols.v[j]);
            fl_buf_printf(&b, "%d equation%s too few: nothing determines ", nc - nr, nc - nr > 1 ? "s" : "");
            name_list(c, &b, list.v, (int)list.n);
            fl_err(c->d, list.n ? var(c, list.v[0])->loc : fl_noloc, "%s: the equations are under-determined, %s",
                   c->name, b.s);
            FL_VEC_FREE(list);
        } else {
            int bad = nr - 1;
            for (int r = nr - 1; r >= 0; r--)
                if (cor[r] < 0) bad = r;
            fl_buf_printf(&b, "%d equation%s too many", nr - nc, nr - nc > 1 ? "s" : "");
            fl_buf eq = {0};
            fl_ucls_print(&eq, c->fc, c->res[rows.v[bad]]);
            fl_err(c->d, c->fc->eqs.v[rows.v[bad]].loc,
                   "%s: the equations are over-determined, %s: this one (as %s = 0) determines nothing the others "
                   "leave open",
                   c->name, b.s, eq.s);
            fl_buf_free(&eq);
        }
        fl_buf_free(&b);
        free(rp);
        FL_VEC_FREE(ci);
        free(cor);
        free(roc);
        c->failed = 1;
    }
    if (c->failed) goto out;
    /* structural matching on the highest derivatives; index reduction where
     * equations constrain states */
    {
        fl_index_problem ip;
        memset(&ip, 0, sizeof ip);
        ip.g = c->g;
        ip.nrows = nr;
        ip.res = fl_xmalloc(sizeof(fl_sx) * (size_t)(nr ? nr : 1));
        ip.loc = fl_xmalloc(sizeof(fl_loc) * (size_t)(nr ? nr : 1));
        for (int r = 0; r < nr; r++) {
            ip.res[r] = c->res[rows.v[r]];
            ip.loc[r] = c->fc->eqs.v[rows.v[r]].loc;
        }
        ip.nunk = nc;
        ip.unk = cols.v;
        ip.is_state = is_state;
        ip.nv = c->nv;
        ip.fc = c->fc;
        ip.par = c->par;
        ip.start = c->start;
        ip.tdiff = tdiff_cb;
        ip.tctx = c;
        ip.name = c->name;
        ip.d = c->d;
        fl_index_result ir;
        if (fl_index_reduce(&ip, &ir)) {
            c->failed = 1;
        } else {
            grow_vars(c);
            for (int i = 0; i < ir.nmap; i++) fl_smap_put(&c->dummy_of, ir.map_from[i], ir.map_to[i]);
            /* ir lists every row (original and differentiated) with the
             * unknown it is matched to; unknowns are states (with der),
             * algebraic variables, and dummy derivatives */
            for (int i = 0; i < ir.nunk; i++) {
                int k = ir.unk[i];
                u->kind[k] = ir.diff[i] ? UV_STATE : UV_UNKNOWN;
                if (u->kind[k] == UV_STATE) u->value[k] = fl_sx_var(c->g, k);
            }
            /* explicit algebraic unknowns in block order */
            for (int i = 0; i < ir.nblocks; i++) {
                int r = ir.block_row[i], k = ir.block_var[i];
                fl_sx e = fl_sx_subst(c->g, ir.res[r], known_sub, c);
                e = subst_known(c, e);
                fl_sx xv = fl_sx_var(c->g, k), coef, rest;
                if (!ir.block_implicit[i] && fl_sx_linear(c->g, e, xv, &coef, &rest) && !contains(c, coef, SX_VAR, k) &&
                    !vanishes(c, coef)) {
                    u->kind[k] = UV_KNOWN;
                    u->value[k] = fl_sx_neg(c->g, fl_sx_div(c->g, rest, coef));
                } else {
                    u->kind[k] = UV_ALG;
                    u->value[k] = xv;
                    fl_uown o = {k, 0, e, ir.loc[r]};
                    FL_VEC_PUSH(u->own, o);
                }
                ir.res[r] = FL_SX_NONE; /* consumed */
            }
            /* state rows */
            for (int r = 0; r < ir.nrows; r++) {
                if (ir.res[r] == FL_SX_NONE) continue;
                int k = ir.row_var[r];
                fl_sx e = subst_known(c, ir.res[r]);
                fl_uown o = {k, u->kind[k] == UV_STATE, e, ir.loc[r]};
                if (u->kind[k] != UV_STATE) {
                    u->kind[k] = UV_ALG;
                    u->value[k] = fl_sx_var(c->g, k);
                }
                FL_VEC_PUSH(u->own, o);
            }
            fl_index_result_free(&ir);
        }
        free(ip.res);
        free(ip.loc);
    }
out:
    FL_VEC_FREE(occ);
    FL_VEC_FREE(rows);
    FL_VEC_FREE(cols);
    free(col_of_var);
    free(is_state);
}

/* ---- final expressions -------------------------------------------------------- */

static void finish_values(actx *c)
{
    fl_ucls *u = c->u;
    /* own residuals in final leaves */
    for (size_t i = 0; i < u->own.n; i++) u->own.v[i].res = subst_known(c, u->own.v[i].res);
    /* equations for output time (internal forces): solve the one unknown each */
    for (int pass = 0; pass < 8; pass++) {
        int progress = 0;
        for (int e = 0; e < c->neq; e++) {
            if (c->used[e] != 2) continue;
            fl_sx r = subst_known(c, c->res[e]);
            int_vec occ = {0};
            occurrences(c, r, &occ, 0);
            int x = -1, n = 0;
            for (size_t i = 0; i < occ.n; i++)
                if (u->kind[occ.v[i]] == UV_UNKNOWN) {
                    x = occ.v[i];
                    n++;
                }
            FL_VEC_FREE(occ);
            if (n != 1) continue;
            fl_sx coef, rest;
            if (!fl_sx_linear(c->g, r, fl_sx_var(c->g, x), &coef, &rest)) continue;
            u->kind[x] = UV_OUTPUT;
            u->value[x] = fl_sx_neg(c->g, fl_sx_div(c->g, rest, coef));
            c->used[e] = 1;
            progress = 1;
        }
        if (!progress) break;
    }
    for (int e = 0; e < c->neq; e++)
        if (c->used[e] == 2) {
            err_eq(c, c->fc->eqs.v[e].loc,
                   "this equation uses flange forces of flanges joined rigidly inside the component in a way flange "
                   "cannot resolve",
                   c->res[e]);
        }
    for (int k = 0; k < c->nv; k++) {
        if (u->kind[k] == UV_UNKNOWN && var(c, k)->kind != FVK_FORCE) {
            fl_err(c->d, var(c, k)->loc, "%s: nothing determines '%s'", c->name, var(c, k)->name);
            c->failed = 1;
        }
        if (u->value[k] == FL_SX_NONE) u->value[k] = fl_sx_var(c->g, k);
        else u->value[k] = subst_known(c, u->value[k]);
    }
    /* forces during integration */
    int na = c->fc->natt;
    for (int a = 0; a < na; a++) {
        int fvk = force_var(c, a);
        int g = u->group_of[a];
        if (g < 0) {
            u->force[a] = fvk >= 0 && u->kind[fvk] != UV_INTERNAL ? u->value[fvk] : fl_sx_const(c->g, 0);
            if (fvk >= 0 && u->kind[fvk] == UV_UNKNOWN) {
                fl_err(c->d, var(c, fvk)->loc, "%s: nothing determines the force '%s'", c->name, var(c, fvk)->name);
                c->failed = 1;
            }
            continue;
        }
        fl_ugroup *gr = &u->groups.v[g];
        if (a != gr->rep) {
            u->force[a] = fl_sx_const(c->g, 0);
            continue;
        }
        fl_sx G = u->value[gr->gvar];
        if (u->kind[gr->gvar] != UV_KNOWN) {
            fl_err(c->d, var(c, fvk >= 0 ? fvk : 0)->loc,
                   "%s: the forces of the flanges joined rigidly inside the component are not given by an explicit "
                   "force balance",
                   c->name);
            c->failed = 1;
            u->force[a] = fl_sx_const(c->g, 0);
            continue;
        }
        /* mass: the part of G proportional to the representative's acceleration
         * (a member's acceleration is its ratio times the representative's) */
        int acc = fl_fc_level_var(c->fc, FVK_POS, a, 2);
        grow_vars(c);
        u->kind[acc] = UV_INPUT;
        struct member_acc ma = {c, g, acc};
        G = fl_sx_subst(c->g, G, member_acc_sub, &ma);
        fl_sx coef, rest;
        if (fl_sx_linear(c->g, G, fl_sx_var(c->g, acc), &coef, &rest) && is_par_only(c, coef)) {
            gr->mass = coef;
            u->force[a] = rest;
        } else {
            fl_err(c->d, var(c, fvk >= 0 ? fvk : 0)->loc,
                   "%s: the inertia of the rigid part of the component must be a constant times its acceleration",
                   c->name);
            c->failed = 1;
            u->force[a] = G;
        }
    }
    for (int k = 0; k < c->nv; k++) {
        const fl_fvar *v = var(c, k);
        if (v->out >= 0 && v->out < c->fc->nout) u->out[v->out] = u->value[k];
    }
    /* accelerations in forces or residuals */
    for (int k = 0; k < c->nv && !u->uses_accel; k++) {
        const fl_fvar *v = var(c, k);
        if (v->kind != FVK_POS || v->level != 2) continue;
        for (int a = 0; a < na && !u->uses_accel; a++) u->uses_accel = contains(c, u->force[a], SX_VAR, k);
        for (size_t i = 0; i < u->own.n && !u->uses_accel; i++) u->uses_accel = contains(c, u->own.v[i].res, SX_VAR, k);
    }
}

/* ---- events ---------------------------------------------------------------------- */

typedef struct ev_ctx {
    actx *c;
    fl_smap seen;
    int_vec found; /* relations and samples, in the order met */
} ev_ctx;

static void ev_visit(void *cv, fl_sx x)
{
    ev_ctx *ec = cv;
    const fl_snode *n = &ec->c->g->n[x];
    if (n->op != SX_SAMPLE && !(n->op == SX_REL && !(n->flags & FL_SXF_NOEVENT))) return;
    if (fl_smap_get(&ec->seen, x) >= 0) return;
    fl_smap_put(&ec->seen, x, 1);
    FL_VEC_PUSH(ec->found, x);
}

/* An event relation or sample met in some expression. */
static void add_event(actx *c, fl_sx x)
{
    fl_snode n = c->g->n[x];
    if (n.op == SX_SAMPLE) {
        fl_usample s = {x, n.a, n.b};
        FL_VEC_PUSH(c->u->samples, s);
        return;
    }
    if (n.op != SX_REL || (n.flags & FL_SXF_NOEVENT)) return;
    fl_urel r;
    r.node = x;
    r.g = fl_sx_sub(c->g, n.a, n.b);
    r.time_event = 0;
    r.at = FL_SX_NONE;
    /* time compared with a parameter expression: a time event */
    fl_sx coef, rest;
    if (fl_sx_linear(c->g, r.g, fl_sx_time(c->g), &coef, &rest) && !fl_sx_is_const(c->g, coef, 0) &&
        is_par_only(c, coef) && is_par_only(c, rest)) {
        r.time_event = 1;
        r.at = fl_sx_neg(c->g, fl_sx_div(c->g, rest, coef));
    }
    FL_VEC_PUSH(c->u->rels, r);
}

static void scan_events(ev_ctx *ec, fl_sx x)
{
    if (x == FL_SX_NONE) return;
    fl_sx roots[1] = {x};
    fl_sx_postorder(ec->c->g, roots, 1, ev_visit, ec);
}

static void finish_discrete(actx *c);

static void fixed_starts(actx *c);

static void collect_events(actx *c)
{
    fl_ucls *u = c->u;
    finish_discrete(c);
    ev_ctx ec;
    memset(&ec, 0, sizeof ec);
    ec.c = c;
    int na = c->fc->natt;
    for (int a = 0; a < na; a++) scan_events(&ec, u->force[a]);
    for (size_t i = 0; i < u->own.n; i++) scan_events(&ec, u->own.v[i].res);
    for (int k = 0; k < c->nv; k++) scan_events(&ec, u->value[k]);
    for (size_t i = 0; i < u->disc.n; i++) scan_events(&ec, u->disc.v[i].def);
    for (size_t w = 0; w < u->whens.n; w++) {
        for (int i = 0; i < u->whens.v[w].nconds; i++) scan_events(&ec, u->whens.v[w].conds[i]);
        for (int i = 0; i < u->whens.v[w].nbody; i++) scan_events(&ec, u->whens.v[w].body[i].value);
    }
    for (size_t i = 0; i < u->asserts.n; i++) scan_events(&ec, u->asserts.v[i].cond);
    for (size_t i = 0; i < u->drives.n; i++) {
        scan_events(&ec, u->drives.v[i].s);
        scan_events(&ec, u->drives.v[i].v);
        scan_events(&ec, u->drives.v[i].a);
    }
    for (size_t i = 0; i < ec.found.n; i++) add_event(c, ec.found.v[i]);
    FL_VEC_FREE(ec.found);
    fl_smap_free(&ec.seen);
}

/* Discrete definitions in dependency order; when-equations, asserts and
 * initial equations with final leaves. */
static void finish_discrete(actx *c)
{
    fl_ucls *u = c->u;
    int nd = (int)u->disc.n;
    for (int i = 0; i < nd; i++) u->disc.v[i].def = subst_known(c, u->disc.v[i].def);
    /* order: a definition after those of the discrete variables it reads */
    int *pos_of = fl_xmalloc(sizeof(int) * (size_t)(c->nv + 1));
    for (int k = 0; k < c->nv; k++) pos_of[k] = -1;
    for (int i = 0; i < nd; i++) pos_of[u->disc.v[i].var] = i;
    unsigned char *state = fl_xcalloc((size_t)(nd ? nd : 1), 1);
    fl_udisc *ordered = fl_xmalloc(sizeof(fl_udisc) * (size_t)(nd ? nd : 1));
    int no = 0;
    int_vec occ = {0}, stack = {0};
    for (int i0 = 0; i0 < nd && !c->failed; i0++) {
        if (state[i0]) continue;
        FL_VEC_PUSH(stack, i0);
        while (stack.n && !c->failed) {
            int i = stack.v[stack.n - 1];
            if (state[i] == 2) {
                stack.n--;
                continue;
            }
            if (state[i] == 0) {
                state[i] = 1;
                occurrences(c, u->disc.v[i].def, &occ, 0);
                for (size_t j = 0; j < occ.n; j++) {
                    int p = pos_of[occ.v[j]];
                    if (p < 0 || p == i) continue;
                    if (state[p] == 1) {
                        fl_err(c->d, u->disc.v[i].loc, "%s: the discrete variables %s and %s are defined through each other",
                               c->name, var(c, u->disc.v[i].var)->name, var(c, u->disc.v[p].var)->name);
                        c->failed = 1;
                    } else if (state[p] == 0) {
                        FL_VEC_PUSH(stack, p);
                    }
                }
                continue;
            }
            state[i] = 2;
            stack.n--;
            ordered[no++] = u->disc.v[i];
        }
    }
    if (!c->failed && nd) memcpy(u->disc.v, ordered, sizeof(fl_udisc) * (size_t)nd);
    free(ordered);
    free(state);
    free(pos_of);
    FL_VEC_FREE(occ);
    FL_VEC_FREE(stack);
    /* when-equations */
    for (size_t w = 0; w < c->fc->whens.n; w++) {
        fl_fwhen wh = c->fc->whens.v[w];
        fl_fwhen cp = wh;
        cp.conds = fl_xmalloc(sizeof(fl_sx) * (size_t)(wh.nconds ? wh.nconds : 1));
        cp.body = fl_xmalloc(sizeof(fl_fwstmt) * (size_t)(wh.nbody ? wh.nbody : 1));
        for (int i = 0; i < wh.nconds; i++) cp.conds[i] = subst_known(c, wh.conds[i]);
        for (int i = 0; i < wh.nbody; i++) {
            cp.body[i] = wh.body[i];
            if (wh.body[i].value != FL_SX_NONE) cp.body[i].value = subst_known(c, wh.body[i].value);
            if (wh.body[i].kind == FW_REINIT) {
                int k = wh.body[i].var;
                fl_uvk kk = u->kind[k];
                if (kk != UV_STATE && kk != UV_KNOWN) {
                    fl_err(c->d, wh.body[i].loc, "%s: reinit(%s, ...): %s is not a state", c->name, var(c, k)->name,
                           var(c, k)->name);
                    c->failed = 1;
                }
            }
        }
        FL_VEC_PUSH(u->whens, cp);
    }
    for (size_t i = 0; i < c->fc->asserts.n; i++) {
        fl_fassert a = c->fc->asserts.v[i];
        a.cond = subst_known(c, a.cond);
        FL_VEC_PUSH(u->asserts, a);
    }
    for (size_t i = 0; i < c->fc->ieqs.n; i++) {
        fl_sx r = subst_known(c, c->fc->ieqs.v[i].res);
        FL_VEC_PUSH(u->init_res, r);
        FL_VEC_PUSH(u->init_loc, c->fc->ieqs.v[i].loc);
    }
    fixed_starts(c);
}

static int own_leaf(void *ctx, const fl_snode *n)
{
    const actx *c = ctx;
    if (n->op == SX_DER) return 1;
    return n->op == SX_VAR && (c->u->kind[n->u.k] == UV_STATE || c->u->kind[n->u.k] == UV_ALG);
}

/* fixed = true on a variable the analysis made no state: as Modelica
 * tools do, its start value becomes an initial equation (x = x.start),
 * when the variable depends on the element's unknowns (an alias of a
 * state's derivative after index reduction, an algebraic function of
 * states). States keep theirs as initial conditions; a variable that
 * follows from the flange motion alone is a condition on that motion
 * (user.c declares it). */
static void fixed_starts(actx *c)
{
    fl_ucls *u = c->u;
    for (int k = 0; k < c->nv; k++) {
        fl_sx st = var(c, k)->fixed_start;
        if (st == FL_SX_NONE || u->kind[k] != UV_KNOWN) continue;
        fl_sx val = u->value[k];
        if (!fl_sx_depends(c->g, val, own_leaf, c)) continue;
        FL_VEC_PUSH(u->init_res, fl_sx_sub(c->g, val, st));
        FL_VEC_PUSH(u->init_loc, var(c, k)->loc);
        FL_VEC_PUSH(u->fixed_init, k);
    }
}

/* ---- entry --------------------------------------------------------------------- */

void fl_ucls_free(fl_ucls *u)
{
    if (!u) return;
    if (u->fc) {
        fl_fc_free(u->fc);
        free(u->fc);
    }
    free(u->kind);
    free(u->value);
    free(u->group_of);
    FL_VEC_FREE(u->links);
    FL_VEC_FREE(u->drives);
    FL_VEC_FREE(u->groups);
    for (size_t i = 0; i < u->cons.n; i++) {
        free(u->cons.v[i].att);
        free(u->cons.v[i].coef);
    }
    FL_VEC_FREE(u->cons);
    FL_VEC_FREE(u->own);
    free(u->force);
    free(u->out);
    FL_VEC_FREE(u->rels);
    FL_VEC_FREE(u->samples);
    FL_VEC_FREE(u->disc);
    for (size_t w = 0; w < u->whens.n; w++) {
        free(u->whens.v[w].conds);
        free(u->whens.v[w].body);
    }
    FL_VEC_FREE(u->whens);
    FL_VEC_FREE(u->asserts);
    FL_VEC_FREE(u->init_res);
    FL_VEC_FREE(u->fixed_init);
    FL_VEC_FREE(u->init_loc);
    free(u);
}

fl_ucls *fl_analyze(fl_fcluster *fc, const double *par, const double *start, const char *name, fl_diag *d)
{
    fl_ucls *u = fl_xcalloc(1, sizeof *u);
    u->fc = fc;
    actx c;
    memset(&c, 0, sizeof c);
    c.fc = fc;
    c.g = &fc->g;
    c.u = u;
    c.par = par;
    c.start = start;
    c.name = name && *name ? name : "the model";
    c.d = d;
    c.neq = (int)fc->eqs.n;
    grow_vars(&c);
    c.used = fl_xcalloc((size_t)(c.neq ? c.neq : 1), 1);
    c.res = fl_xmalloc(sizeof(fl_sx) * (size_t)(c.neq ? c.neq : 1));
    for (int e = 0; e < c.neq; e++) c.res[e] = fc->eqs.v[e].res;
    int na = fc->natt;
    c.att_parent = fl_xmalloc(sizeof(int) * (size_t)(na ? na : 1));
    c.att_ratio = fl_xmalloc(sizeof(fl_sx) * (size_t)(na ? na : 1));
    c.att_offset = fl_xmalloc(sizeof(fl_sx) * (size_t)(na ? na : 1));
    u->group_of = fl_xmalloc(sizeof(int) * (size_t)(na ? na : 1));
    u->force = fl_xmalloc(sizeof(fl_sx) * (size_t)(na ? na : 1));
    u->out = fl_xmalloc(sizeof(fl_sx) * (size_t)(fc->nout ? fc->nout : 1));
    for (int o = 0; o < fc->nout; o++) u->out[o] = fl_sx_const(c.g, 0);

    /* a development aid: FLANGE_DUMP_CLUSTERS=1 prints each cluster's equations */
    const char *dump = getenv("FLANGE_DUMP_CLUSTERS");
    if (dump && *dump == '1') {
        fl_buf b = {0};
        fl_buf_printf(&b, "cluster %s: %d variables, %d attachments, %d equations\n", c.name, c.nv, na, c.neq);
        for (int e = 0; e < c.neq; e++) {
            fl_buf_add(&b, "  0 = ");
            fl_ucls_print(&b, fc, c.res[e]);
            fl_buf_addc(&b, '\n');
        }
        fputs(b.s, stderr);
        fl_buf_free(&b);
    }
    classify_discrete(&c);
    if (!c.failed) propagate_known(&c);
    if (!c.failed) form_groups(&c);
    if (!c.failed) group_forces(&c);
    if (!c.failed) solve_remaining(&c);
    if (!c.failed) finish_values(&c);
    if (!c.failed) collect_events(&c);

    free(c.used);
    free(c.res);
    free(c.dval);
    free(c.dval_done);
    free(c.alg_eq);
    free(c.att_parent);
    free(c.att_ratio);
    free(c.att_offset);
    fl_smap_free(&c.dummy_of);
    if (c.failed) {
        fl_ucls_free(u);
        return NULL;
    }
    return u;
}
