/* func_int.h - the compiled form of user functions, shared by the compiler
 * (func_compile.c), the interpreter (func_run.c) and the registry
 * (func.c). Nothing here points into a syntax tree: names, strings and the
 * file names of locations live in the registry's arena. */
#ifndef FL_FUNC_INT_H
#define FL_FUNC_INT_H

#include <stdatomic.h>

#include "func.h"
#include "util/util.h"

/* Value types (Integer and Boolean values are exact doubles). */
enum { UT_REAL = FL_UF_REAL, UT_INT = FL_UF_INTEGER, UT_BOOL = FL_UF_BOOLEAN, UT_STR };

/* Operators of FX_BIN chains. */
enum {
    BO_ADD, BO_SUB, BO_MUL, BO_DIV, BO_POW,       /* Modelica's array semantics */
    BO_EADD, BO_ESUB, BO_EMUL, BO_EDIV, BO_EPOW,  /* element-wise .+ .- .* ./ .^ */
    BO_LT, BO_LE, BO_GT, BO_GE, BO_EQ, BO_NE,
    BO_AND, BO_OR                                 /* short-circuit */
};

typedef enum fx_op {
    FX_CONST,   /* k, or an array constant: data (nd, dim) */
    FX_STR,     /* s: a string (assert messages only) */
    FX_VAR,     /* fn: slot */
    FX_INDEX,   /* a[0] the array, a[1..] subscripts (FX_COLON, scalar or vector Integer) */
    FX_COLON,
    FX_END,     /* the size of the dimension being subscripted */
    FX_NEG, FX_NOT,
    FX_BIN,     /* a[0] ops[0] a[1] ops[1] a[2] ...: a left-deep chain, evaluated by a loop */
    FX_IF,      /* a[0] ? a[1] : a[2] ? a[3] : ... : a[na-1] (elseif chains flat) */
    FX_ARRAY,   /* {a...} */
    FX_MATRIX,  /* [rows]: a[i] are FX_ARRAY rows (their elements concatenated) */
    FX_RANGE,   /* a[0] : a[1] (step a[2] when na == 3) */
    FX_COMPREH, /* {a[0] for slot fn in a[1]} */
    FX_BUILTIN, /* fn: BI_*, args a */
    FX_CALL     /* fn: function id, out: output; args a in input order, NULL: the default */
} fx_op;

typedef struct fx fx;
struct fx {
    unsigned char op, ty, nd; /* result type (UT_*) and number of dimensions */
    int fn, out;
    double k;
    const double *data; /* FX_CONST arrays */
    int dim[2];
    const char *s;      /* FX_STR */
    fx **a;
    int na;
    int *ops;           /* FX_BIN: na - 1 operators (BO_*) */
    fl_loc *oplocs;     /* FX_BIN: where each operator is written */
    fl_loc loc;
};

/* Built-in functions. */
enum {
    BI_SIN, BI_COS, BI_TAN, BI_ASIN, BI_ACOS, BI_ATAN, BI_SINH, BI_COSH, BI_TANH, BI_EXP, BI_LOG,
    BI_LOG10, BI_SQRT, /* element-wise, Real */
    BI_ABS, BI_SIGN, BI_FLOOR, BI_CEIL, BI_INTEGER,
    BI_ATAN2, BI_MIN, BI_MAX, BI_MOD, BI_REM, BI_DIV,
    BI_SUM, BI_PRODUCT, BI_SIZE, BI_NDIMS, BI_ZEROS, BI_ONES, BI_FILL, BI_LINSPACE, BI_CAT,
    BI_TRANSPOSE, BI_SCALAR, BI_VECTOR, BI_MATRIX, BI_IDENTITY, BI_DIAGONAL, BI_CROSS,
    BI_STRING, /* String(x) in assert messages */
    BI_COUNT
};
extern const char *const fl_ufunc_bi_names[BI_COUNT];

/* Roles of variables. */
enum { UR_INPUT, UR_OUTPUT, UR_LOCAL, UR_CONST, UR_ITER };

typedef struct uvar {
    const char *name;
    unsigned char ty, nd, role;
    fx *dim[2];   /* size expressions (NULL: ':' for outputs and locals, taken from assignments) */
    int kdim[2];  /* the size when it is a constant, else -1 */
    int flex;     /* some size is ':' (set by whole assignments; inputs: by the call) */
    fx *bind;     /* inputs: the default; others: the binding */
    int has_bind;
    fl_loc loc;
} uvar;

typedef enum fs_kind { FS_ASSIGN, FS_IF, FS_FOR, FS_WHILE, FS_BREAK, FS_RETURN, FS_ASSERT, FS_CALL } fs_kind;

/* A place assigned to: variable slot with optional subscripts (slot -1: a
 * skipped position of a tuple). */
typedef struct flv {
    int slot;
    fx **subs;
    int nsubs;
    int nd;      /* dimensions of the selection */
    fl_loc loc;
} flv;

typedef struct fs fs;
typedef struct fblock {
    fs *st;
    int n;
} fblock;

struct fs {
    unsigned char kind;
    fl_loc loc;
    flv *lhs;        /* FS_ASSIGN: one, or a tuple */
    int nlhs;
    fx *rhs;         /* FS_ASSIGN, FS_CALL: the value; FS_ASSERT: the condition; FS_FOR: the range */
    fx **conds;      /* FS_IF (NULL for else), FS_WHILE (one) */
    fblock *blocks;
    int nbr;
    int iter;        /* FS_FOR: the iterator's slot */
    fblock body;     /* FS_FOR */
    fx **msg;        /* FS_ASSERT: parts of the message */
    int nmsg;
    int warning;     /* FS_ASSERT: AssertionLevel.warning (not checked) */
};

/* A compiled function, or a variant of one (base >= 0: the inputs it is
 * given and their sizes; everything else is the base's). */
typedef struct ufn {
    const char *path, *name; /* full and last part */
    fl_loc loc;
    uvar *vars;
    int nvars;  /* including iterators */
    int *in, nin, *out, nout;
    fblock body;
    int *callees;  /* user functions it calls (ids) */
    int ncallees;
    int state;  /* UF_* */
    int native; /* a function with a C body (func_native.c): its number + 1; 0 for Modelica code */
    int base;
    unsigned char *given; /* variant: per input of the base */
    int (*vdims)[2];      /* variant: per input of the base, -1 where open */
} ufn;

enum { UF_SIGNATURE, UF_READY, UF_FAILED };

/* A function whose body is still to compile (only during fl_ufuncs_add). */
typedef struct ufpending {
    int id;
    const fl_class_ast *cls;
    const fl_ufunc_scope *scope;
} ufpending;

/* A table of Modelica.Blocks.Tables, kept for the look-up functions
 * (func_native.c); read-only once added. */
typedef struct utable {
    double *d;        /* row-major, nr x nc */
    int nr, nc;
    int dims;         /* 1: column 0 the abscissa; 2: row 0 and column 0 the grids */
    int smooth, extrap;
    int *cols, ncols; /* 1D: the table column (0-based) of each output */
} utable;

struct fl_ufuncs {
    atomic_int refs; /* holders: the model, the classes whose programs call its functions */
    unsigned long long serial; /* unique in the process: names the set where its address may be reused */
    FL_VEC(ufn *) fns;
    fl_map bypath;   /* originals by path, variants by their key */
    fl_arena *ar;
    FL_VEC(ufpending) pending;
    int draining;
    FL_VEC(utable) tables; /* id k + 1 is tables.v[k] */
    fl_map table_keys;     /* content hash -> index, equal tables stored once */
};


/* Compiler (func_compile.c): the signature of cls (variables, roles,
 * types, ranks) into f; then its body (sizes, bindings, statements), which
 * may register the functions it calls (their bodies pending). */
int fl_ufunc_compile_signature(fl_ufuncs *r, ufn *f, const fl_class_ast *cls, const fl_ufunc_scope *scope,
                               fl_diag *d);
int fl_ufunc_compile_body(fl_ufuncs *r, int id, const fl_class_ast *cls, const fl_ufunc_scope *scope, fl_diag *d);
/* Register a signature (func.c): the id of path, compiled on first use. */
int fl_ufunc_declare(fl_ufuncs *r, const fl_class_ast *cls, const char *path, const fl_ufunc_scope *scope,
                     fl_diag *d);
/* Copy of a location with its file name in the registry's arena. */
fl_loc fl_ufunc_loc(fl_ufuncs *r, fl_loc loc);

/* Interpreter (func_run.c): one argument of a call. */
typedef struct ufarg {
    int given;
    unsigned char ty, nd;
    int dim[2];
    double x, dx;         /* scalars */
    const double *v, *dv; /* arrays: values and tangents (dv NULL: zero) */
} ufarg;

/* One output of a call, in memory the caller owns after the call:
 * scalars in x/dx, arrays malloc'ed (free v and dv). */
typedef struct ufres {
    unsigned char ty, nd;
    int dim[2];
    double x, dx;
    double *v, *dv;
} ufres;

/* Run function f (an original, not a variant) on the arguments (one per
 * input; ad: tangents wanted) and return its first nres outputs. Returns
 * 0, or -1 with *err filled. */
int fl_ufunc_run(const fl_ufuncs *r, const ufn *f, const ufarg *args, int ad, ufres *res, int nres,
                 fl_ufunc_err *err);

/* Functions with a C body (func_native.c): declared in the bundled Modelica
 * text, their signature compiled from it, their body this code. */
#define FL_NATIVE_MAXOUT 4
/* The native function of path: its number + 1, 0 if none. */
int fl_native_find(const char *path);
/* Run native function k + 1 == native on the arguments (one per input, all
 * given): its outputs flattened into y[] and, with ad, their tangents into
 * dy[]. Returns the number of values, or -1 with the message in msg. */
int fl_native_run(const fl_ufuncs *r, int native, const ufarg *args, int nargs, int ad, double *y, double *dy,
                  char *msg, size_t cap);
void fl_native_tables_free(fl_ufuncs *r);

#endif
