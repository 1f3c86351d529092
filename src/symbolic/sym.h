/* sym.h - the expression graph of the equation layer.
 *
 * User equations are turned into one graph per analysis unit: a DAG of
 * nodes identified by small integers. Nodes are hash-consed (building the
 * same operation on the same operands twice returns the same node), so
 * common subexpressions are shared without a separate pass, derivatives of
 * big expressions stay linear in size, and two nodes are structurally equal
 * exactly when their ids are. Construction folds constants and applies the
 * identities that never change a value (x+0, x*1, x*0 for finite x ...).
 *
 * Leaves are constants, time, parameters (slot k of the instance's
 * parameter block), variables (index k of the unit's variable table, whose
 * meaning the analysis decides) and pre(variable). Booleans are numbers
 * 0/1. Relations carry a flag saying whether they generate events. */
#ifndef FL_SYM_H
#define FL_SYM_H

#include <stddef.h>
#include <stdint.h>

typedef int fl_sx; /* node id; FL_SX_NONE for none */
#define FL_SX_NONE (-1)

typedef enum fl_sop {
    SX_CONST = 0, /* u.v */
    SX_TIME,
    SX_PAR,       /* u.k: parameter slot */
    SX_VAR,       /* u.k: variable */
    SX_DER,       /* u.k: der(variable) as an unknown of its own */
    SX_PRE,       /* u.k: pre(variable) */
    SX_ADD,       /* a + b */
    SX_SUB,       /* a - b */
    SX_MUL,       /* a * b */
    SX_DIV,       /* a / b */
    SX_POW,       /* a ^ b */
    SX_NEG,       /* -a */
    SX_FN1,       /* fn(a) */
    SX_FN2,       /* fn(a, b) */
    SX_IF,        /* a ? b : c, a Boolean */
    SX_REL,       /* fn = relation (FL_REL_*): a rel b; flags FL_SXF_NOEVENT */
    SX_AND,
    SX_OR,
    SX_NOT,
    SX_CALL,      /* user function: u.k = function, fn = output index, args at a (count b);
                     flags: 0 value, else derivative with respect to argument flags-1 */
    SX_SAMPLE,    /* sample(a, b): true at the instants a + k b (u.k: sample index) */
    SX_INITIAL,   /* initial() */
    SX_TERMINAL,  /* terminal() */
    SX_DGIV,      /* the value a whose time derivative is b (Modelica's derivative annotation, as in
                     Modelica.Blocks.Interfaces.Adaptors.Functions.state1/state2): a partial derivative
                     goes through a, a time derivative is b */
    SX_NOP
} fl_sop;

/* Functions of one argument (SX_FN1) and two (SX_FN2). */
typedef enum fl_sfn {
    FN_SIN, FN_COS, FN_TAN, FN_ASIN, FN_ACOS, FN_ATAN, FN_SINH, FN_COSH, FN_TANH, FN_EXP,
    FN_LOG, FN_LOG10, FN_SQRT, FN_ABS, FN_SIGN, FN_FLOOR, FN_CEIL, FN_INTEGER,
    FN_ATAN2, FN_MIN, FN_MAX, FN_MOD, FN_REM, FN_DIV, FN_SEMILINEAR_UNUSED,
    FN_COUNT
} fl_sfn;

typedef enum fl_srel { FL_REL_LT, FL_REL_LE, FL_REL_GT, FL_REL_GE, FL_REL_EQ, FL_REL_NE } fl_srel;

enum {
    FL_SXF_NOEVENT = 1 << 0, /* relation evaluated literally, no zero crossing (noEvent, smooth) */
};

typedef struct fl_snode {
    uint8_t op;     /* fl_sop */
    uint8_t fn;     /* fl_sfn, fl_srel, or call output index */
    uint16_t flags;
    fl_sx a, b, c;
    union {
        double v;   /* SX_CONST */
        int64_t k;  /* SX_PAR, SX_VAR, SX_DER, SX_PRE, SX_CALL, SX_SAMPLE */
    } u;
} fl_snode;

typedef struct fl_sgraph {
    fl_snode *n;
    int nn, cap;
    int *ht; /* open addressing over node ids (+1, 0 = empty) */
    size_t htcap;
    fl_sx *args; /* argument lists of calls */
    int nargs, argcap;
    int *lt; /* argument lists by content: (offset + 1, count) pairs */
    size_t lcap, nlists;
} fl_sgraph;

void fl_sg_init(fl_sgraph *g);
void fl_sg_free(fl_sgraph *g);

static inline const fl_snode *fl_sg_node(const fl_sgraph *g, fl_sx x)
{
    return &g->n[x];
}
static inline int fl_sx_is_const(const fl_sgraph *g, fl_sx x, double v)
{
    return g->n[x].op == SX_CONST && g->n[x].u.v == v;
}

/* Leaves. */
fl_sx fl_sx_const(fl_sgraph *g, double v);
fl_sx fl_sx_time(fl_sgraph *g);
fl_sx fl_sx_par(fl_sgraph *g, int k);
fl_sx fl_sx_var(fl_sgraph *g, int k);
fl_sx fl_sx_der(fl_sgraph *g, int k);
fl_sx fl_sx_pre(fl_sgraph *g, int k);
fl_sx fl_sx_initial(fl_sgraph *g);
fl_sx fl_sx_terminal(fl_sgraph *g);
fl_sx fl_sx_sample(fl_sgraph *g, fl_sx start, fl_sx interval);

/* Operations (with folding and identities). */
fl_sx fl_sx_add(fl_sgraph *g, fl_sx a, fl_sx b);
fl_sx fl_sx_sub(fl_sgraph *g, fl_sx a, fl_sx b);
fl_sx fl_sx_mul(fl_sgraph *g, fl_sx a, fl_sx b);
fl_sx fl_sx_div(fl_sgraph *g, fl_sx a, fl_sx b);
fl_sx fl_sx_pow(fl_sgraph *g, fl_sx a, fl_sx b);
fl_sx fl_sx_neg(fl_sgraph *g, fl_sx a);
fl_sx fl_sx_fn1(fl_sgraph *g, fl_sfn fn, fl_sx a);
fl_sx fl_sx_fn2(fl_sgraph *g, fl_sfn fn, fl_sx a, fl_sx b);
fl_sx fl_sx_if(fl_sgraph *g, fl_sx cond, fl_sx a, fl_sx b);
fl_sx fl_sx_rel(fl_sgraph *g, fl_srel rel, fl_sx a, fl_sx b, int noevent);
fl_sx fl_sx_and(fl_sgraph *g, fl_sx a, fl_sx b);
fl_sx fl_sx_or(fl_sgraph *g, fl_sx a, fl_sx b);
fl_sx fl_sx_not(fl_sgraph *g, fl_sx a);
/* A call of user function fid, output index out, with n arguments;
 * wrt > 0 asks for the partial derivative with respect to argument wrt-1. */
fl_sx fl_sx_call(fl_sgraph *g, int fid, int out, const fl_sx *args, int n, int wrt);

/* a, with the time derivative b (SX_DGIV). */
fl_sx fl_sx_dgiv(fl_sgraph *g, fl_sx a, fl_sx b);

/* The same expression with every relation marked as noEvent (noEvent(e),
 * smooth(p, e)). */
fl_sx fl_sx_noevent(fl_sgraph *g, fl_sx e);

/* Names and arities, for printing and the program. */
const char *fl_sfn_name(fl_sfn fn);
int fl_sfn_arity(fl_sfn fn);
/* fn by Modelica name ("sin", "atan2", ...); -1 if none. */
int fl_sfn_find(const char *name);

/* Evaluate fn(a[, b]) (what the program does). */
double fl_sfn_eval(fl_sfn fn, double a, double b);

/* ---- traversal helpers --------------------------------------------------- */

/* A map from node ids to ints, sized by what is put into it (traversals of
 * a small expression in a big graph cost the expression, not the graph). */
typedef struct fl_smap {
    int *keys; /* id + 1, 0: empty */
    int *vals;
    size_t cap, n;
} fl_smap;
int fl_smap_get(const fl_smap *m, fl_sx x); /* -1 when absent */
void fl_smap_put(fl_smap *m, fl_sx x, int v);
void fl_smap_free(fl_smap *m);

/* Call visit(ctx, x) for every node reachable from the roots, children
 * before parents, each once (iterative, any depth). */
void fl_sx_postorder(const fl_sgraph *g, const fl_sx *roots, int nroots, void (*visit)(void *ctx, fl_sx x),
                     void *ctx);

/* Does x depend on a leaf for which pred(ctx, leaf) is true? */
int fl_sx_depends(const fl_sgraph *g, fl_sx x, int (*pred)(void *ctx, const fl_snode *leaf), void *ctx);

/* Replace leaves: sub(ctx, leaf id) returns the replacement (or the leaf
 * itself); the result is rebuilt with simplification. */
fl_sx fl_sx_subst(fl_sgraph *g, fl_sx x, fl_sx (*sub)(void *ctx, fl_sx leaf), void *ctx);

/* Rebuild x bottom-up: node_fn(ctx, node, ops, &out) sees each inner node
 * with its operands already rebuilt (ops) and returns 1 after setting out
 * to its replacement, or 0 to rebuild it as it is. */
fl_sx fl_sx_rewrite(fl_sgraph *g, fl_sx x, int (*node_fn)(void *ctx, fl_sx x, const fl_sx *ops, fl_sx *out),
                    void *ctx);

/* ---- differentiation (diff.c) ------------------------------------------- */

/* The total time derivative of x: seed(ctx, leaf) gives the derivative of
 * each leaf (SX_VAR, SX_DER, SX_TIME, SX_PAR, SX_PRE; return
 * fl_sx_const(g, 0) for none). The rules treat relations and
 * if-conditions as constant between events, abs/min/max piecewise, user
 * calls through their argument partials, and SX_DGIV(a, b) as b. Returns
 * FL_SX_NONE when x has no derivative (discontinuous functions with a
 * non-constant argument are reported as 0 as Modelica does: floor, ceil,
 * integer, sign). */
fl_sx fl_sx_diff(fl_sgraph *g, fl_sx x, fl_sx (*seed)(void *ctx, fl_sx leaf), void *ctx);

/* Partial derivative with respect to variable node var (an SX_VAR,
 * SX_DER or SX_TIME node). */
fl_sx fl_sx_partial(fl_sgraph *g, fl_sx x, fl_sx var);

/* If x is linear in var (an SX_VAR/SX_DER leaf): *coef = dx/dvar, which
 * does not depend on var, and *rest = x with var set to 0, so that
 * x = coef*var + rest; returns 1. Returns 0 if x is not linear in var. */
int fl_sx_linear(fl_sgraph *g, fl_sx x, fl_sx var, fl_sx *coef, fl_sx *rest);

/* ---- printing ------------------------------------------------------------- */

struct fl_buf;
/* Text of x in Modelica syntax; name(ctx, leaf) names variables and
 * parameters (NULL: v3, p2). */
void fl_sx_print(struct fl_buf *b, const fl_sgraph *g, fl_sx x,
                 void (*name)(void *ctx, struct fl_buf *b, const fl_snode *leaf), void *ctx);

#endif
