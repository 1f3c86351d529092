/* ast.h - syntax tree of the Modelica subset: classes (packages, models),
 * declarations with modifiers, connect equations, expressions. */
#ifndef FL_AST_H
#define FL_AST_H

#include "util/diag.h"
#include "util/util.h"

typedef struct fl_expr fl_expr;

/* A dotted reference a.b[1].c: one part per identifier, each with optional
 * subscripts. */
typedef struct fl_ref_part {
    char *name;
    fl_expr **subs;
    int nsubs;
} fl_ref_part;

typedef struct fl_ref {
    fl_ref_part *parts;
    int n;
} fl_ref;

typedef enum fl_expr_kind {
    EX_NUM,    /* num (is_int) */
    EX_STR,    /* str */
    EX_BOOL,   /* num = 0/1 */
    EX_REF,    /* ref */
    EX_UNARY,  /* op a: T_MINUS, T_PLUS, K_NOT */
    EX_BINARY, /* a op b */
    EX_CALL,   /* ref(args), args may be named */
    EX_ARRAY,  /* {args} */
    EX_MATRIX, /* [rows; ...] rows are EX_ARRAY-like lists in args of sub-exprs */
    EX_IF,     /* if a then b else c (elseif chains are nested) */
    EX_RANGE,  /* a : b  or a : c : b (step in c) */
    EX_COLON,  /* a lone ':' subscript */
    EX_END,    /* 'end' inside a subscript */
    EX_TUPLE,  /* (a, , b) on the left of an equation or assignment: args, NULL where empty */
    EX_COMPREH /* {a for i in r1, j in r2}: body a, ranges in args, iterator names in argnames */
} fl_expr_kind;

/* (the small fields first: 104 bytes instead of 120 with padding; a big
 * model's text has a few expressions per component) */
struct fl_expr {
    fl_expr_kind kind;
    int is_int;
    int op;
    int nargs;
    fl_loc loc;
    double num;
    char *str;
    fl_expr *a, *b, *c;
    fl_ref ref;
    fl_expr **args;  /* call arguments / array elements / matrix rows */
    char **argnames; /* call: NULL or name per argument */
};

/* A modification: name [= value] or name(sub-modifications) [= value]. The
 * name may be dotted ("s.start" is stored as parts). */
typedef struct fl_mod {
    char *name; /* dotted, e.g. "s" or "flange_a.s" */
    fl_loc loc;
    struct fl_mod *subs;
    fl_expr *value;
    int nsubs;
    unsigned char is_final, is_each; /* (48 bytes: a few per component) */
} fl_mod;

enum {
    FL_PFX_PARAMETER = 1 << 0,
    FL_PFX_CONSTANT = 1 << 1,
    FL_PFX_INPUT = 1 << 2,
    FL_PFX_OUTPUT = 1 << 3,
    FL_PFX_FINAL = 1 << 4,
    FL_PFX_FLOW = 1 << 5,
    FL_PFX_DISCRETE = 1 << 6,
    FL_PFX_PROTECTED = 1 << 7,
    FL_PFX_REPLACEABLE = 1 << 8,
    FL_PFX_INNER = 1 << 9,
    FL_PFX_OUTER = 1 << 10,
    FL_PFX_STREAM = 1 << 11
};

/* A component declaration: [prefixes] Type name[dims](mods) = binding if cond "comment". */
typedef struct fl_decl {
    unsigned prefix;
    int ntype_dims, ndims, nmods; /* (the small fields together: 128 bytes, not 152) */
    fl_loc loc;
    char *type;
    fl_loc type_loc;
    fl_expr **type_dims; /* Real[3] x */
    char *name;
    fl_loc name_loc;
    fl_expr **dims;
    fl_mod *mods;
    fl_expr *binding;
    fl_expr *cond;
    char *comment;
} fl_decl;

typedef struct fl_extends {
    char *base;
    fl_loc loc;
    fl_mod *mods;
    int nmods;
} fl_extends;

typedef struct fl_import {
    char *alias; /* import X = A.B;  NULL otherwise */
    char *path;  /* A.B.C (for A.B.* the package path) */
    int wildcard;
    char **names; /* import A.B.{C, D} */
    int nnames;
    fl_loc loc;
} fl_import;

typedef struct fl_connect {
    fl_ref a, b;
    fl_loc loc, loc_a, loc_b;
} fl_connect;

/* Something in an equation or algorithm section flange does not support;
 * kept so that instantiating the class gives a located error. */
typedef struct fl_unsupported {
    fl_loc loc;
    char *what;
} fl_unsupported;

/* for i in range (one iterator of a for-loop or comprehension) */
typedef struct fl_iter {
    char *name;
    fl_expr *range;
    fl_loc loc;
} fl_iter;

/* Equations. EQ_CALL is a call in place of an equation: reinit, assert,
 * terminate. if- and when-equations have branches (cond NULL for else). */
typedef enum fl_eq_kind { EQ_EQUAL, EQ_CONNECT, EQ_IF, EQ_FOR, EQ_WHEN, EQ_CALL } fl_eq_kind;

typedef struct fl_eq fl_eq;

typedef struct fl_eqbranch {
    fl_expr *cond;
    fl_eq *eqs;
    int n;
} fl_eqbranch;

struct fl_eq {
    fl_eq_kind kind;
    int nbr, niters, nbody;  /* (the small fields together: 152 bytes, not 168) */
    fl_loc loc;
    fl_expr *lhs, *rhs;      /* EQ_EQUAL: lhs = rhs; EQ_CALL: the call in rhs */
    fl_connect conn;         /* EQ_CONNECT */
    fl_eqbranch *br;         /* EQ_IF, EQ_WHEN: nbr of them */
    fl_iter *iters;          /* EQ_FOR: niters of them, over nbody equations in body */
    fl_eq *body;
};

/* Statements of algorithm sections (functions and models). */
typedef enum fl_st_kind { ST_ASSIGN, ST_CALL, ST_IF, ST_FOR, ST_WHILE, ST_WHEN, ST_RETURN, ST_BREAK } fl_st_kind;

typedef struct fl_stmt fl_stmt;

typedef struct fl_stbranch {
    fl_expr *cond;
    fl_stmt *st;
    int n;
} fl_stbranch;

struct fl_stmt {
    fl_st_kind kind;
    fl_loc loc;
    fl_expr *lhs, *rhs;      /* ST_ASSIGN: lhs (a reference or a tuple) := rhs; ST_CALL: rhs */
    fl_stbranch *br;         /* ST_IF, ST_WHEN; ST_WHILE: br[0] */
    int nbr;
    fl_iter *iters;          /* ST_FOR */
    int niters;
    fl_stmt *body;
    int nbody;
};

/* One algorithm section. */
typedef struct fl_algorithm {
    fl_stmt *st;
    int n;
    int initial;
    fl_loc loc;
} fl_algorithm;

typedef enum fl_class_kind {
    CK_CLASS, CK_MODEL, CK_PACKAGE, CK_BLOCK, CK_CONNECTOR, CK_RECORD, CK_TYPE, CK_FUNCTION,
    CK_OPERATOR
} fl_class_kind;

typedef struct fl_experiment_ast {
    int has_start, has_stop, has_interval, has_tolerance;
    double start, stop, interval, tolerance;
    fl_loc loc;
} fl_experiment_ast;

typedef struct fl_class_ast fl_class_ast;
struct fl_class_ast {
    char *name;
    fl_class_kind kind;
    int partial;
    fl_loc loc;
    char *comment;
    fl_class_ast *parent;
    FL_VEC(fl_decl) decls;
    FL_VEC(fl_extends) extends;
    FL_VEC(fl_import) imports;
    FL_VEC(fl_connect) connects; /* plain connect() equations (the common case) */
    FL_VEC(fl_eq) eqs;           /* every other equation, in order */
    FL_VEC(fl_eq) ieqs;          /* initial equations */
    FL_VEC(fl_algorithm) algs;   /* algorithm sections (and initial algorithms) */
    FL_VEC(fl_unsupported) unsupported;
    FL_VEC(fl_class_ast *) classes;
    /* short class definition: type X = Real(...) / enumeration(a, b) */
    char *short_base;
    char **enum_lits;
    int nenum;
    int is_enum;
    fl_experiment_ast experiment;
};

typedef struct fl_file_ast {
    fl_arena *arena; /* every node and string of the tree */
    char *path;
    char *within; /* NULL when absent; "" for "within;" */
    FL_VEC(fl_class_ast *) classes;
} fl_file_ast;

/* Limits of nesting (documented in README.md, "Limits"). The parser,
 * and every walk of a tree after it, handle nested constructs by
 * recursion; past these depths the parser reports a located error
 * ("... nested more than N levels deep") instead of running out of
 * stack. They are far beyond real models (the MSL nests packages about
 * 8 deep and expressions rarely beyond 20) and safe with a 1 MB stack in
 * a sanitizer build. Long chains of one operator (a + b + c + ...) are
 * not nesting: their left-deep trees are walked by loops. */
#define FL_MAX_NESTING 200       /* expressions (parentheses, calls, subscripts, if) and modifications */
#define FL_MAX_CLASS_DEPTH 100   /* classes (packages) inside classes */
#define FL_MAX_BLOCK_NESTING 100 /* if/for/when equations and statements inside each other */

/* Parse text into a file AST (text need not outlive the call). Returns NULL on syntax errors, which
 * are reported to d with file:line:column. */
fl_file_ast *fl_parse(const char *text, const char *path, fl_diag *d);
/* Parse a lone expression (parameter defaults, --param values). */
fl_expr *fl_parse_expr(const char *text, const char *source, fl_diag *d);

/* A file's tree is freed as a whole (its arena); fl_class_free releases
 * only the growable arrays of a class (and of its nested classes), for the
 * parser's error paths. */
void fl_file_free(fl_file_ast *f);
void fl_class_free(fl_class_ast *c);
/* Heap trees — from fl_parse_expr, fl_expr_clone or built by hand — are
 * freed node by node with these; never use them on a file's tree. */
void fl_expr_free(fl_expr *e);
void fl_mod_free_array(fl_mod *mods, int n);
fl_expr *fl_expr_clone(const fl_expr *e); /* a heap copy */

/* "a.b[1].c" */
char *fl_ref_str(const fl_ref *r);
/* Expression back to text (for messages and `flange check`). */
void fl_expr_print(fl_buf *b, const fl_expr *e);

#endif
