/* prog.c - lowering expression graphs to register programs, and the
 * batch interpreter that runs them (see prog.h). */
#include "prog.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

typedef struct lower {
    fl_sprog *p;
    const fl_sgraph *g;
    fl_sleaf_fn leaf;
    void *ctx;
    int *reg; /* node -> register, -1 */
    FL_VEC(double) konst;
    FL_VEC(fl_sins) ins;
    FL_VEC(fl_sload) ld;
    FL_VEC(int) args;
    int nreg;
    int failed;
} lower;

static void emit(lower *L, fl_sx x, int op, int fn, int flags, int a, int b, int c)
{
    fl_sins i;
    i.op = (uint8_t)op;
    i.fn = (uint8_t)fn;
    i.flags = (uint16_t)flags;
    i.d = L->reg[x] = L->nreg++;
    i.a = a;
    i.b = b;
    i.c = c;
    FL_VEC_PUSH(L->ins, i);
}

/* Constants get their registers first (lower numbers): a first pass
 * collects them. */
static void const_visit(void *cv, fl_sx x)
{
    lower *L = cv;
    const fl_snode *n = &L->g->n[x];
    if (n->op != SX_CONST) return;
    L->reg[x] = (int)L->konst.n;
    FL_VEC_PUSH(L->konst, n->u.v);
}

static int R(const lower *L, fl_sx x)
{
    return L->reg[x];
}

static void lower_visit(void *cv, fl_sx x)
{
    lower *L = cv;
    const fl_snode *n = &L->g->n[x];
    if (n->op == SX_CONST) return;
    int src = 0, idx = 0;
    if (n->op == SX_REL || n->op == SX_SAMPLE || n->op == SX_TIME || n->op == SX_PAR || n->op == SX_VAR ||
        n->op == SX_DER || n->op == SX_PRE || n->op == SX_INITIAL || n->op == SX_TERMINAL) {
        int is_input = L->leaf(L->ctx, n, x, &src, &idx);
        if (is_input) {
            fl_sload l = {L->nreg, src, idx};
            L->reg[x] = L->nreg++;
            FL_VEC_PUSH(L->ld, l);
            return;
        }
        if (n->op != SX_REL && n->op != SX_SAMPLE) {
            L->failed = 1;
            L->reg[x] = L->nreg++; /* keep numbering consistent */
            return;
        }
    }
    switch ((fl_sop)n->op) {
    case SX_ADD: emit(L, x, SI_ADD, 0, 0, R(L, n->a), R(L, n->b), 0); break;
    case SX_SUB: emit(L, x, SI_SUB, 0, 0, R(L, n->a), R(L, n->b), 0); break;
    case SX_MUL: emit(L, x, SI_MUL, 0, 0, R(L, n->a), R(L, n->b), 0); break;
    case SX_DIV: emit(L, x, SI_DIV, 0, 0, R(L, n->a), R(L, n->b), 0); break;
    case SX_POW: emit(L, x, SI_POW, 0, 0, R(L, n->a), R(L, n->b), 0); break;
    case SX_NEG: emit(L, x, SI_NEG, 0, 0, R(L, n->a), 0, 0); break;
    case SX_FN1: emit(L, x, SI_FN1, n->fn, 0, R(L, n->a), 0, 0); break;
    case SX_FN2: emit(L, x, SI_FN2, n->fn, 0, R(L, n->a), R(L, n->b), 0); break;
    case SX_IF: emit(L, x, SI_IF, 0, 0, R(L, n->a), R(L, n->b), R(L, n->c)); break;
    case SX_REL:
        if ((n->flags & FL_SXF_NOEVENT) || idx < 0) emit(L, x, SI_REL, n->fn, 0, R(L, n->a), R(L, n->b), 0);
        else emit(L, x, SI_RELE, n->fn, 0, R(L, n->a), R(L, n->b), idx);
        break;
    case SX_AND: emit(L, x, SI_AND, 0, 0, R(L, n->a), R(L, n->b), 0); break;
    case SX_OR: emit(L, x, SI_OR, 0, 0, R(L, n->a), R(L, n->b), 0); break;
    case SX_NOT: emit(L, x, SI_NOT, 0, 0, R(L, n->a), 0, 0); break;
    case SX_SAMPLE: emit(L, x, SI_SAMPLE, 0, 0, R(L, n->a), R(L, n->b), 0); break;
    case SX_DGIV: L->reg[x] = R(L, n->a); break; /* its value; the derivative is only symbolic */
    case SX_CALL: {
        int off = (int)L->args.n;
        for (int i = 0; i < n->b; i++) FL_VEC_PUSH(L->args, R(L, L->g->args[n->a + i]));
        emit(L, x, SI_CALL, n->fn, n->flags, off, n->b, (int)n->u.k);
        break;
    }
    default:
        L->failed = 1;
        L->reg[x] = L->nreg++;
        break;
    }
}

int fl_sprog_lower(fl_sprog *p, const fl_sgraph *g, const fl_sx *roots, int nroots, fl_sleaf_fn leaf, void *ctx)
{
    memset(p, 0, sizeof *p);
    lower L;
    memset(&L, 0, sizeof L);
    L.p = p;
    L.g = g;
    L.leaf = leaf;
    L.ctx = ctx;
    L.reg = fl_xmalloc(sizeof(int) * (size_t)(g->nn + 1));
    for (int i = 0; i < g->nn; i++) L.reg[i] = -1;
    fl_sx_postorder(g, roots, nroots, const_visit, &L);
    L.nreg = (int)L.konst.n;
    fl_sx_postorder(g, roots, nroots, lower_visit, &L);
    p->nconst = (int)L.konst.n;
    p->konst = L.konst.v;
    p->nreg = L.nreg;
    p->ins = L.ins.v;
    p->nins = (int)L.ins.n;
    p->ld = L.ld.v;
    p->nld = (int)L.ld.n;
    p->argregs = L.args.v;
    p->nargregs = (int)L.args.n;
    p->nout = nroots;
    p->out = fl_xmalloc(sizeof(int) * (size_t)(nroots ? nroots : 1));
    for (int i = 0; i < nroots; i++) p->out[i] = roots[i] == FL_SX_NONE ? -1 : L.reg[roots[i]];
    free(L.reg);
    return L.failed ? -1 : 0;
}

void fl_sprog_free(fl_sprog *p)
{
    free(p->ins);
    free(p->konst);
    free(p->ld);
    free(p->out);
    free(p->argregs);
    memset(p, 0, sizeof *p);
}

double *fl_sprog_scratch(const fl_sprog *p, int B)
{
    double *reg = fl_xcalloc((size_t)(p->nreg ? p->nreg : 1) * (size_t)B, sizeof(double));
    for (int r = 0; r < p->nconst; r++)
        for (int i = 0; i < B; i++) reg[(size_t)r * (size_t)B + (size_t)i] = p->konst[r];
    return reg;
}

void fl_sprog_consts(const fl_sprog *p, double *reg, int B, int n)
{
    for (int r = 0; r < p->nconst; r++)
        for (int i = 0; i < n; i++) reg[(size_t)r * (size_t)B + (size_t)i] = p->konst[r];
}

static double rel_eval(int rel, double a, double b)
{
    switch (rel) {
    case FL_REL_LT: return a < b;
    case FL_REL_LE: return a <= b;
    case FL_REL_GT: return a > b;
    case FL_REL_GE: return a >= b;
    case FL_REL_EQ: return a == b;
    default: return a != b;
    }
}

/* A relation on g = a - b at an event: a root that crossed decides by its
 * direction (robust where g is numerically zero after the event). */
static double rel_event(int rel, double a, double b, int dir)
{
    if (!dir || rel == FL_REL_EQ || rel == FL_REL_NE) return rel_eval(rel, a, b);
    int pos = dir > 0; /* g > 0 after the crossing */
    switch (rel) {
    case FL_REL_LT:
    case FL_REL_LE: return !pos;
    default: return pos;
    }
}

static double sample_eval(double t, double start, double interval, double eps)
{
    if (!(interval > 0) || t < start - eps) return 0;
    double k = floor((t - start) / interval + 0.5);
    return fabs(t - (start + k * interval)) <= eps;
}

void fl_sprog_run(const fl_sprog *p, double *reg, int B, int n, const fl_sexec *x)
{
    for (int k = 0; k < p->nins; k++) {
        const fl_sins *in = &p->ins[k];
        double *d = reg + (size_t)in->d * (size_t)B;
        const double *a = reg + (size_t)in->a * (size_t)B;
        const double *b = reg + (size_t)in->b * (size_t)B;
        const double *c = reg + (size_t)in->c * (size_t)B;
        switch ((fl_siop)in->op) {
        case SI_ADD: for (int i = 0; i < n; i++) d[i] = a[i] + b[i]; break;
        case SI_SUB: for (int i = 0; i < n; i++) d[i] = a[i] - b[i]; break;
        case SI_MUL: for (int i = 0; i < n; i++) d[i] = a[i] * b[i]; break;
        case SI_DIV: for (int i = 0; i < n; i++) d[i] = a[i] / b[i]; break;
        case SI_POW: for (int i = 0; i < n; i++) d[i] = pow(a[i], b[i]); break;
        case SI_NEG: for (int i = 0; i < n; i++) d[i] = -a[i]; break;
        case SI_FN1: for (int i = 0; i < n; i++) d[i] = fl_sfn_eval((fl_sfn)in->fn, a[i], 0); break;
        case SI_FN2: for (int i = 0; i < n; i++) d[i] = fl_sfn_eval((fl_sfn)in->fn, a[i], b[i]); break;
        case SI_IF: for (int i = 0; i < n; i++) d[i] = a[i] != 0 ? b[i] : c[i]; break;
        case SI_REL: for (int i = 0; i < n; i++) d[i] = rel_eval(in->fn, a[i], b[i]); break;
        case SI_RELE:
            /* event programs run one element at a time */
            for (int i = 0; i < n; i++) {
                int dir = x && x->dir ? x->dir[in->c] : 0;
                double g = a[i] - b[i];
                if (dir && x->gref && fabs(g - x->gref[in->c]) > 1e-9 * (fabs(a[i]) + fabs(b[i]))) dir = 0;
                if (x && x->gout) x->gout[in->c] = g;
                d[i] = rel_event(in->fn, a[i], b[i], dir);
                if (x && x->relout) x->relout[in->c] = d[i];
            }
            break;
        case SI_AND: for (int i = 0; i < n; i++) d[i] = a[i] != 0 && b[i] != 0; break;
        case SI_OR: for (int i = 0; i < n; i++) d[i] = a[i] != 0 || b[i] != 0; break;
        case SI_NOT: for (int i = 0; i < n; i++) d[i] = a[i] == 0; break;
        case SI_SAMPLE: {
            double eps = x ? x->sample_eps : 0;
            for (int i = 0; i < n; i++) d[i] = x ? sample_eval(x->t, a[i], b[i], eps) : 0;
            break;
        }
        case SI_CALL: {
            double args[32];
            int na = in->b;
            for (int i = 0; i < n; i++) {
                double *av = na <= 32 ? args : fl_xmalloc(sizeof(double) * (size_t)na);
                for (int j = 0; j < na; j++) av[j] = reg[(size_t)p->argregs[in->a + j] * (size_t)B + (size_t)i];
                d[i] = x && x->call ? x->call(x->call_ctx, in->c, in->fn, in->flags, av, na) : NAN;
                if (av != args) free(av);
            }
            break;
        }
        }
    }
}
