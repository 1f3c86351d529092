/* graph.c - building the expression graph: hash-consed nodes, constant
 * folding and the algebraic identities that hold for every finite value.
 *
 * Every constructor goes through intern(), which returns an existing node
 * equal in operator, operands and payload, or appends a new one. Operands
 * of commutative operators are put in a canonical order first, so that
 * a+b and b+a are one node. Traversals are iterative (explicit stacks):
 * equations written by users can nest deeply. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sym.h"
#include "util/util.h"

void fl_sg_init(fl_sgraph *g)
{
    memset(g, 0, sizeof *g);
}

void fl_sg_free(fl_sgraph *g)
{
    free(g->n);
    free(g->ht);
    free(g->args);
    free(g->lt);
    memset(g, 0, sizeof *g);
}

static uint64_t node_hash(const fl_snode *n)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    uint64_t parts[5];
    parts[0] = (uint64_t)n->op | (uint64_t)n->fn << 8 | (uint64_t)n->flags << 16;
    parts[1] = (uint64_t)(uint32_t)n->a;
    parts[2] = (uint64_t)(uint32_t)n->b;
    parts[3] = (uint64_t)(uint32_t)n->c;
    memcpy(&parts[4], &n->u, sizeof parts[4]);
    for (int i = 0; i < 5; i++) {
        h ^= parts[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 33;
    }
    return h;
}

static int node_eq(const fl_snode *x, const fl_snode *y)
{
    return x->op == y->op && x->fn == y->fn && x->flags == y->flags && x->a == y->a && x->b == y->b &&
           x->c == y->c && memcmp(&x->u, &y->u, sizeof x->u) == 0;
}

static void ht_grow(fl_sgraph *g)
{
    size_t cap = g->htcap ? 2 * g->htcap : 256;
    int *ht = fl_xcalloc(cap, sizeof(int));
    for (int i = 0; i < g->nn; i++) {
        size_t j = (size_t)node_hash(&g->n[i]) & (cap - 1);
        while (ht[j]) j = (j + 1) & (cap - 1);
        ht[j] = i + 1;
    }
    free(g->ht);
    g->ht = ht;
    g->htcap = cap;
}

static fl_sx intern(fl_sgraph *g, const fl_snode *proto)
{
    if (2 * ((size_t)g->nn + 1) > g->htcap) ht_grow(g);
    size_t j = (size_t)node_hash(proto) & (g->htcap - 1);
    while (g->ht[j]) {
        if (node_eq(&g->n[g->ht[j] - 1], proto)) return g->ht[j] - 1;
        j = (j + 1) & (g->htcap - 1);
    }
    if (g->nn == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 64;
        g->n = fl_xrealloc(g->n, sizeof(fl_snode) * (size_t)g->cap);
    }
    g->n[g->nn] = *proto;
    g->ht[j] = g->nn + 1;
    return g->nn++;
}

static fl_sx mk(fl_sgraph *g, fl_sop op, int fn, int flags, fl_sx a, fl_sx b, fl_sx c)
{
    fl_snode n;
    memset(&n, 0, sizeof n);
    n.op = (uint8_t)op;
    n.fn = (uint8_t)fn;
    n.flags = (uint16_t)flags;
    n.a = a;
    n.b = b;
    n.c = c;
    return intern(g, &n);
}

static fl_sx leaf(fl_sgraph *g, fl_sop op, int64_t k)
{
    fl_snode n;
    memset(&n, 0, sizeof n);
    n.op = (uint8_t)op;
    n.a = n.b = n.c = FL_SX_NONE;
    n.u.k = k;
    return intern(g, &n);
}

fl_sx fl_sx_const(fl_sgraph *g, double v)
{
    fl_snode n;
    memset(&n, 0, sizeof n);
    n.op = SX_CONST;
    n.a = n.b = n.c = FL_SX_NONE;
    n.u.v = v == 0 ? 0.0 : v; /* -0 and 0 are one constant */
    return intern(g, &n);
}

fl_sx fl_sx_time(fl_sgraph *g) { return leaf(g, SX_TIME, 0); }
fl_sx fl_sx_par(fl_sgraph *g, int k) { return leaf(g, SX_PAR, k); }
fl_sx fl_sx_var(fl_sgraph *g, int k) { return leaf(g, SX_VAR, k); }
fl_sx fl_sx_der(fl_sgraph *g, int k) { return leaf(g, SX_DER, k); }
fl_sx fl_sx_pre(fl_sgraph *g, int k) { return leaf(g, SX_PRE, k); }
fl_sx fl_sx_initial(fl_sgraph *g) { return leaf(g, SX_INITIAL, 0); }
fl_sx fl_sx_terminal(fl_sgraph *g) { return leaf(g, SX_TERMINAL, 0); }

fl_sx fl_sx_sample(fl_sgraph *g, fl_sx start, fl_sx interval)
{
    return mk(g, SX_SAMPLE, 0, 0, start, interval, FL_SX_NONE);
}

static int is_k(const fl_sgraph *g, fl_sx x)
{
    return g->n[x].op == SX_CONST;
}

static double kv(const fl_sgraph *g, fl_sx x)
{
    return g->n[x].u.v;
}

fl_sx fl_sx_neg(fl_sgraph *g, fl_sx a)
{
    const fl_snode *n = &g->n[a];
    if (n->op == SX_CONST) return fl_sx_const(g, -n->u.v);
    if (n->op == SX_NEG) return n->a;
    if (n->op == SX_SUB) return mk(g, SX_SUB, 0, 0, n->b, n->a, FL_SX_NONE);
    return mk(g, SX_NEG, 0, 0, a, FL_SX_NONE, FL_SX_NONE);
}

fl_sx fl_sx_add(fl_sgraph *g, fl_sx a, fl_sx b)
{
    if (is_k(g, a) && is_k(g, b)) return fl_sx_const(g, kv(g, a) + kv(g, b));
    if (fl_sx_is_const(g, a, 0)) return b;
    if (fl_sx_is_const(g, b, 0)) return a;
    if (g->n[b].op == SX_NEG) return fl_sx_sub(g, a, g->n[b].a);
    if (g->n[a].op == SX_NEG) return fl_sx_sub(g, b, g->n[a].a);
    if (a > b) { /* canonical order: the sum is commutative in IEEE arithmetic */
        fl_sx t = a;
        a = b;
        b = t;
    }
    return mk(g, SX_ADD, 0, 0, a, b, FL_SX_NONE);
}

fl_sx fl_sx_sub(fl_sgraph *g, fl_sx a, fl_sx b)
{
    if (is_k(g, a) && is_k(g, b)) return fl_sx_const(g, kv(g, a) - kv(g, b));
    if (fl_sx_is_const(g, b, 0)) return a;
    if (fl_sx_is_const(g, a, 0)) return fl_sx_neg(g, b);
    if (a == b) return fl_sx_const(g, 0);
    if (g->n[b].op == SX_NEG) return fl_sx_add(g, a, g->n[b].a);
    return mk(g, SX_SUB, 0, 0, a, b, FL_SX_NONE);
}

fl_sx fl_sx_mul(fl_sgraph *g, fl_sx a, fl_sx b)
{
    if (is_k(g, a) && is_k(g, b)) return fl_sx_const(g, kv(g, a) * kv(g, b));
    if (is_k(g, b) && !is_k(g, a)) { /* constants first */
        fl_sx t = a;
        a = b;
        b = t;
    }
    if (is_k(g, a)) {
        double k = kv(g, a);
        if (k == 0) return a;
        if (k == 1) return b;
        if (k == -1) return fl_sx_neg(g, b);
    }
    if (g->n[a].op == SX_NEG && g->n[b].op == SX_NEG) return fl_sx_mul(g, g->n[a].a, g->n[b].a);
    if (g->n[b].op == SX_NEG) return fl_sx_neg(g, fl_sx_mul(g, a, g->n[b].a));
    if (g->n[a].op == SX_NEG) return fl_sx_neg(g, fl_sx_mul(g, g->n[a].a, b));
    if (!is_k(g, a) && a > b) {
        fl_sx t = a;
        a = b;
        b = t;
    }
    return mk(g, SX_MUL, 0, 0, a, b, FL_SX_NONE);
}

fl_sx fl_sx_div(fl_sgraph *g, fl_sx a, fl_sx b)
{
    if (is_k(g, a) && is_k(g, b) && kv(g, b) != 0) return fl_sx_const(g, kv(g, a) / kv(g, b));
    if (fl_sx_is_const(g, b, 1)) return a;
    if (fl_sx_is_const(g, b, -1)) return fl_sx_neg(g, a);
    if (fl_sx_is_const(g, a, 0) && !is_k(g, b)) return a;
    if (a == b && !is_k(g, a)) return fl_sx_const(g, 1);
    if (g->n[a].op == SX_NEG) return fl_sx_neg(g, fl_sx_div(g, g->n[a].a, b));
    return mk(g, SX_DIV, 0, 0, a, b, FL_SX_NONE);
}

fl_sx fl_sx_pow(fl_sgraph *g, fl_sx a, fl_sx b)
{
    if (is_k(g, a) && is_k(g, b)) return fl_sx_const(g, pow(kv(g, a), kv(g, b)));
    if (fl_sx_is_const(g, b, 1)) return a;
    if (fl_sx_is_const(g, b, 0)) return fl_sx_const(g, 1);
    return mk(g, SX_POW, 0, 0, a, b, FL_SX_NONE);
}

static const struct {
    const char *name;
    int arity;
} fn_table[FN_COUNT] = {
    [FN_SIN] = {"sin", 1},     [FN_COS] = {"cos", 1},         [FN_TAN] = {"tan", 1},
    [FN_ASIN] = {"asin", 1},   [FN_ACOS] = {"acos", 1},       [FN_ATAN] = {"atan", 1},
    [FN_SINH] = {"sinh", 1},   [FN_COSH] = {"cosh", 1},       [FN_TANH] = {"tanh", 1},
    [FN_EXP] = {"exp", 1},     [FN_LOG] = {"log", 1},         [FN_LOG10] = {"log10", 1},
    [FN_SQRT] = {"sqrt", 1},   [FN_ABS] = {"abs", 1},         [FN_SIGN] = {"sign", 1},
    [FN_FLOOR] = {"floor", 1}, [FN_CEIL] = {"ceil", 1},       [FN_INTEGER] = {"integer", 1},
    [FN_ATAN2] = {"atan2", 2}, [FN_MIN] = {"min", 2},         [FN_MAX] = {"max", 2},
    [FN_MOD] = {"mod", 2},     [FN_REM] = {"rem", 2},         [FN_DIV] = {"div", 2},
    [FN_SEMILINEAR_UNUSED] = {"", 0},
};

const char *fl_sfn_name(fl_sfn fn)
{
    return fn < FN_COUNT ? fn_table[fn].name : "?";
}

int fl_sfn_arity(fl_sfn fn)
{
    return fn < FN_COUNT ? fn_table[fn].arity : 0;
}

int fl_sfn_find(const char *name)
{
    for (int k = 0; k < FN_COUNT; k++)
        if (fn_table[k].arity && strcmp(fn_table[k].name, name) == 0) return k;
    return -1;
}

double fl_sfn_eval(fl_sfn fn, double a, double b)
{
    switch (fn) {
    case FN_SIN: return sin(a);
    case FN_COS: return cos(a);
    case FN_TAN: return tan(a);
    case FN_ASIN: return asin(a);
    case FN_ACOS: return acos(a);
    case FN_ATAN: return atan(a);
    case FN_SINH: return sinh(a);
    case FN_COSH: return cosh(a);
    case FN_TANH: return tanh(a);
    case FN_EXP: return exp(a);
    case FN_LOG: return log(a);
    case FN_LOG10: return log10(a);
    case FN_SQRT: return sqrt(a);
    case FN_ABS: return fabs(a);
    case FN_SIGN: return a > 0 ? 1 : a < 0 ? -1 : 0;
    case FN_FLOOR:
    case FN_INTEGER: return floor(a);
    case FN_CEIL: return ceil(a);
    case FN_ATAN2: return atan2(a, b);
    case FN_MIN: return a < b ? a : b;
    case FN_MAX: return a > b ? a : b;
    case FN_MOD: return a - floor(a / b) * b;
    case FN_REM: return a - trunc(a / b) * b;
    case FN_DIV: return trunc(a / b);
    default: return NAN;
    }
}

fl_sx fl_sx_fn1(fl_sgraph *g, fl_sfn fn, fl_sx a)
{
    if (is_k(g, a)) return fl_sx_const(g, fl_sfn_eval(fn, kv(g, a), 0));
    return mk(g, SX_FN1, fn, 0, a, FL_SX_NONE, FL_SX_NONE);
}

fl_sx fl_sx_fn2(fl_sgraph *g, fl_sfn fn, fl_sx a, fl_sx b)
{
    if (is_k(g, a) && is_k(g, b)) return fl_sx_const(g, fl_sfn_eval(fn, kv(g, a), kv(g, b)));
    if ((fn == FN_MIN || fn == FN_MAX) && a == b) return a;
    return mk(g, SX_FN2, fn, 0, a, b, FL_SX_NONE);
}

fl_sx fl_sx_if(fl_sgraph *g, fl_sx cond, fl_sx a, fl_sx b)
{
    if (is_k(g, cond)) return kv(g, cond) != 0 ? a : b;
    if (a == b) return a;
    return mk(g, SX_IF, 0, 0, cond, a, b);
}

static int rel_value(fl_srel r, double a, double b)
{
    switch (r) {
    case FL_REL_LT: return a < b;
    case FL_REL_LE: return a <= b;
    case FL_REL_GT: return a > b;
    case FL_REL_GE: return a >= b;
    case FL_REL_EQ: return a == b;
    case FL_REL_NE: return a != b;
    }
    return 0;
}

fl_sx fl_sx_rel(fl_sgraph *g, fl_srel rel, fl_sx a, fl_sx b, int noevent)
{
    if (is_k(g, a) && is_k(g, b)) return fl_sx_const(g, rel_value(rel, kv(g, a), kv(g, b)));
    return mk(g, SX_REL, rel, noevent ? FL_SXF_NOEVENT : 0, a, b, FL_SX_NONE);
}

fl_sx fl_sx_and(fl_sgraph *g, fl_sx a, fl_sx b)
{
    if (is_k(g, a)) return kv(g, a) != 0 ? b : a;
    if (is_k(g, b)) return kv(g, b) != 0 ? a : b;
    if (a == b) return a;
    if (a > b) {
        fl_sx t = a;
        a = b;
        b = t;
    }
    return mk(g, SX_AND, 0, 0, a, b, FL_SX_NONE);
}

fl_sx fl_sx_or(fl_sgraph *g, fl_sx a, fl_sx b)
{
    if (is_k(g, a)) return kv(g, a) != 0 ? a : b;
    if (is_k(g, b)) return kv(g, b) != 0 ? b : a;
    if (a == b) return a;
    if (a > b) {
        fl_sx t = a;
        a = b;
        b = t;
    }
    return mk(g, SX_OR, 0, 0, a, b, FL_SX_NONE);
}

fl_sx fl_sx_dgiv(fl_sgraph *g, fl_sx a, fl_sx b)
{
    return mk(g, SX_DGIV, 0, 0, a, b, FL_SX_NONE);
}

fl_sx fl_sx_not(fl_sgraph *g, fl_sx a)
{
    if (is_k(g, a)) return fl_sx_const(g, kv(g, a) == 0);
    if (g->n[a].op == SX_NOT) return g->n[a].a;
    return mk(g, SX_NOT, 0, 0, a, FL_SX_NONE, FL_SX_NONE);
}

static uint64_t args_hash(const fl_sx *args, int n)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)n;
    for (int i = 0; i < n; i++) {
        h ^= (uint64_t)(uint32_t)args[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* The offset of an argument list equal to args in g->args, stored on first
 * use: the list is part of a call node's identity, so equal calls must
 * point to the same offset. */
static int args_intern(fl_sgraph *g, const fl_sx *args, int n)
{
    if (2 * ((size_t)g->nlists + 1) > g->lcap) {
        size_t cap = g->lcap ? 2 * g->lcap : 64;
        int *lt = fl_xcalloc(cap, 2 * sizeof(int));
        for (size_t i = 0; i < g->lcap; i++) {
            if (!g->lt[2 * i]) continue;
            int off = g->lt[2 * i] - 1, cnt = g->lt[2 * i + 1];
            size_t j = (size_t)args_hash(g->args + off, cnt) & (cap - 1);
            while (lt[2 * j]) j = (j + 1) & (cap - 1);
            lt[2 * j] = off + 1;
            lt[2 * j + 1] = cnt;
        }
        free(g->lt);
        g->lt = lt;
        g->lcap = cap;
    }
    size_t j = (size_t)args_hash(args, n) & (g->lcap - 1);
    while (g->lt[2 * j]) {
        int off = g->lt[2 * j] - 1;
        if (g->lt[2 * j + 1] == n && (n == 0 || memcmp(g->args + off, args, sizeof(fl_sx) * (size_t)n) == 0))
            return off;
        j = (j + 1) & (g->lcap - 1);
    }
    if (g->nargs + n > g->argcap) {
        g->argcap = FL_MAX(2 * g->argcap, g->nargs + n + 16);
        g->args = fl_xrealloc(g->args, sizeof(fl_sx) * (size_t)g->argcap);
    }
    int at = g->nargs;
    if (n) memcpy(g->args + at, args, sizeof(fl_sx) * (size_t)n);
    g->nargs += n;
    g->lt[2 * j] = at + 1;
    g->lt[2 * j + 1] = n;
    g->nlists++;
    return at;
}

fl_sx fl_sx_call(fl_sgraph *g, int fid, int out, const fl_sx *args, int n, int wrt)
{
    int at = args_intern(g, args, n);
    fl_snode nd;
    memset(&nd, 0, sizeof nd);
    nd.op = SX_CALL;
    nd.fn = (uint8_t)out;
    nd.flags = (uint16_t)wrt;
    nd.a = at;
    nd.b = n;
    nd.c = FL_SX_NONE;
    nd.u.k = fid;
    return intern(g, &nd);
}

/* ---- traversals ------------------------------------------------------------ */

/* Children of node x into ch (at most 3 plus call arguments); returns their count. */
static int children(const fl_sgraph *g, fl_sx x, const fl_sx **list, fl_sx ch[3])
{
    const fl_snode *n = &g->n[x];
    *list = ch;
    switch ((fl_sop)n->op) {
    case SX_CALL:
        *list = g->args + n->a;
        return n->b;
    case SX_CONST: case SX_TIME: case SX_PAR: case SX_VAR: case SX_DER: case SX_PRE:
    case SX_INITIAL: case SX_TERMINAL: case SX_NOP:
        return 0;
    default: {
        int k = 0;
        if (n->a != FL_SX_NONE) ch[k++] = n->a;
        if (n->b != FL_SX_NONE) ch[k++] = n->b;
        if (n->c != FL_SX_NONE) ch[k++] = n->c;
        return k;
    }
    }
}

static size_t smap_slot(const fl_smap *m, fl_sx x)
{
    uint64_t h = (uint64_t)(uint32_t)x * 0x9e3779b97f4a7c15ULL;
    size_t j = (size_t)(h >> 20) & (m->cap - 1);
    while (m->keys[j] && m->keys[j] != x + 1) j = (j + 1) & (m->cap - 1);
    return j;
}

int fl_smap_get(const fl_smap *m, fl_sx x)
{
    if (!m->cap) return -1;
    size_t j = smap_slot(m, x);
    return m->keys[j] ? m->vals[j] : -1;
}

void fl_smap_put(fl_smap *m, fl_sx x, int v)
{
    if (2 * (m->n + 1) > m->cap) {
        fl_smap old = *m;
        m->cap = old.cap ? 2 * old.cap : 64;
        m->keys = fl_xcalloc(m->cap, sizeof(int));
        m->vals = fl_xmalloc(sizeof(int) * m->cap);
        m->n = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.keys[i]) fl_smap_put(m, old.keys[i] - 1, old.vals[i]);
        free(old.keys);
        free(old.vals);
    }
    size_t j = smap_slot(m, x);
    if (!m->keys[j]) {
        m->keys[j] = x + 1;
        m->n++;
    }
    m->vals[j] = v;
}

void fl_smap_free(fl_smap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

void fl_sx_postorder(const fl_sgraph *g, const fl_sx *roots, int nroots, void (*visit)(void *ctx, fl_sx x),
                     void *ctx)
{
    fl_smap state = {0}; /* 1 open, 2 done */
    FL_VEC(fl_sx) stack = {0};
    for (int r = 0; r < nroots; r++) {
        if (roots[r] == FL_SX_NONE || fl_smap_get(&state, roots[r]) > 0) continue;
        FL_VEC_PUSH(stack, roots[r]);
        while (stack.n) {
            fl_sx x = stack.v[stack.n - 1];
            int st = fl_smap_get(&state, x);
            if (st == 2) {
                stack.n--;
                continue;
            }
            if (st == 1) {
                fl_smap_put(&state, x, 2);
                stack.n--;
                visit(ctx, x);
                continue;
            }
            fl_smap_put(&state, x, 1);
            fl_sx ch[3];
            const fl_sx *list;
            int nc = children(g, x, &list, ch);
            for (int i = nc - 1; i >= 0; i--)
                if (fl_smap_get(&state, list[i]) <= 0) FL_VEC_PUSH(stack, list[i]);
        }
    }
    FL_VEC_FREE(stack);
    fl_smap_free(&state);
}

typedef struct dep_ctx {
    const fl_sgraph *g;
    int (*pred)(void *, const fl_snode *);
    void *ctx;
    int found;
} dep_ctx;

static void dep_visit(void *c, fl_sx x)
{
    dep_ctx *d = c;
    if (!d->found && d->pred(d->ctx, &d->g->n[x])) d->found = 1;
}

int fl_sx_depends(const fl_sgraph *g, fl_sx x, int (*pred)(void *ctx, const fl_snode *leaf), void *ctx)
{
    dep_ctx d = {g, pred, ctx, 0};
    fl_sx roots[1] = {x};
    fl_sx_postorder(g, roots, 1, dep_visit, &d);
    return d.found;
}

/* Rebuild node x from new operands (with simplification). */
static fl_sx rebuild(fl_sgraph *g, fl_sx x, const fl_sx *na)
{
    fl_snode n = g->n[x]; /* copy: the graph may grow */
    switch ((fl_sop)n.op) {
    case SX_ADD: return fl_sx_add(g, na[0], na[1]);
    case SX_SUB: return fl_sx_sub(g, na[0], na[1]);
    case SX_MUL: return fl_sx_mul(g, na[0], na[1]);
    case SX_DIV: return fl_sx_div(g, na[0], na[1]);
    case SX_POW: return fl_sx_pow(g, na[0], na[1]);
    case SX_NEG: return fl_sx_neg(g, na[0]);
    case SX_FN1: return fl_sx_fn1(g, (fl_sfn)n.fn, na[0]);
    case SX_FN2: return fl_sx_fn2(g, (fl_sfn)n.fn, na[0], na[1]);
    case SX_IF: return fl_sx_if(g, na[0], na[1], na[2]);
    case SX_REL: return fl_sx_rel(g, (fl_srel)n.fn, na[0], na[1], n.flags & FL_SXF_NOEVENT);
    case SX_AND: return fl_sx_and(g, na[0], na[1]);
    case SX_OR: return fl_sx_or(g, na[0], na[1]);
    case SX_NOT: return fl_sx_not(g, na[0]);
    case SX_DGIV: return fl_sx_dgiv(g, na[0], na[1]);
    case SX_SAMPLE: return fl_sx_sample(g, na[0], na[1]);
    case SX_CALL: return fl_sx_call(g, (int)n.u.k, n.fn, na, n.b, n.flags);
    default: return x;
    }
}

typedef struct map_ctx {
    fl_smap map; /* node -> replacement */
    fl_sgraph *g;
    fl_sx (*sub)(void *, fl_sx);
    int (*node_fn)(void *, fl_sx, const fl_sx *, fl_sx *); /* optional rewriting of inner nodes */
    void *ctx;
} map_ctx;

static void map_visit(void *c, fl_sx x)
{
    map_ctx *m = c;
    fl_sgraph *g = m->g;
    fl_sx ch[3];
    const fl_sx *list;
    int nc = children(g, x, &list, ch);
    if (nc == 0 && g->n[x].op != SX_CALL) {
        fl_smap_put(&m->map, x, m->sub ? m->sub(m->ctx, x) : x);
        return;
    }
    fl_sx na_small[3] = {FL_SX_NONE, FL_SX_NONE, FL_SX_NONE};
    fl_sx *na = nc <= 3 ? na_small : fl_xmalloc(sizeof(fl_sx) * (size_t)nc);
    int same = 1;
    for (int i = 0; i < nc; i++) {
        /* list may point into g->args, which rebuilding can move: index it afresh */
        fl_sx child = g->n[x].op == SX_CALL ? g->args[g->n[x].a + i] : list[i];
        na[i] = fl_smap_get(&m->map, child);
        same &= na[i] == child;
    }
    fl_sx r = x;
    if (m->node_fn && m->node_fn(m->ctx, x, na, &r)) {
        /* rewritten by the caller */
    } else if (!same) {
        r = rebuild(g, x, na);
    }
    fl_smap_put(&m->map, x, r);
    if (na != na_small) free(na);
}

static fl_sx map_graph(fl_sgraph *g, fl_sx x, fl_sx (*sub)(void *, fl_sx),
                       int (*node_fn)(void *, fl_sx, const fl_sx *, fl_sx *), void *ctx)
{
    map_ctx m;
    memset(&m, 0, sizeof m);
    m.g = g;
    m.sub = sub;
    m.node_fn = node_fn;
    m.ctx = ctx;
    /* the graph grows while we rebuild, but only nodes reachable from x are visited */
    fl_sx roots[1] = {x};
    fl_sx_postorder(g, roots, 1, map_visit, &m);
    fl_sx r = fl_smap_get(&m.map, x);
    fl_smap_free(&m.map);
    return r;
}

fl_sx fl_sx_rewrite(fl_sgraph *g, fl_sx x, int (*node_fn)(void *ctx, fl_sx x, const fl_sx *ops, fl_sx *out),
                    void *ctx)
{
    return map_graph(g, x, NULL, node_fn, ctx);
}

fl_sx fl_sx_subst(fl_sgraph *g, fl_sx x, fl_sx (*sub)(void *ctx, fl_sx leaf), void *ctx)
{
    return map_graph(g, x, sub, NULL, ctx);
}

static int noevent_node(void *ctx, fl_sx x, const fl_sx *na, fl_sx *out)
{
    fl_sgraph *g = ctx;
    if (g->n[x].op != SX_REL) return 0;
    *out = fl_sx_rel(g, (fl_srel)g->n[x].fn, na[0], na[1], 1);
    return 1;
}

fl_sx fl_sx_noevent(fl_sgraph *g, fl_sx e)
{
    return map_graph(g, e, NULL, noevent_node, g);
}
