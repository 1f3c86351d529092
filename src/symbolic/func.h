/* func.h - Modelica functions written by the user, run by an interpreter
 * that also gives exact derivatives.
 *
 * Why an interpreter: user functions have algorithm sections (loops,
 * assignments, early returns) that do not fit the expression graph of the
 * equation layer. The graph keeps a call as one node (SX_CALL in sym.h) and
 * asks, at run time, for the value of an output or its partial derivative
 * with respect to one argument; this module answers both by running the
 * function once with dual numbers (every Real carries its tangent, control
 * flow follows the values), which is exact for piecewise-smooth code.
 *
 * A registry (fl_ufuncs) holds the functions of one model, compiled once
 * from their class ASTs into a resolved form (names to slots, types and
 * array ranks checked, calls of other user functions to registry ids). The
 * compiled form does not point into the AST, which may be freed afterwards.
 * Filling a registry (fl_ufuncs_add, fl_ufunc_variant, the parameter hook)
 * is single-threaded; once filled it is read-only, and any number of
 * threads may call its functions at the same time (each call keeps its
 * state on its stack and in memory of its own).
 *
 * The language inside functions, the limits and the messages are described
 * in README.md ("Functions"). The limits of one evaluation (a call from
 * outside with everything it calls), each a run-time error: */
#ifndef FL_FUNC_H
#define FL_FUNC_H

#include <stddef.h>

#include "func_rt.h"
#include "model/eval.h"
#include "parse/ast.h"
#include "util/diag.h"

#define FL_UFUNC_MAX_DEPTH 100           /* calls active at once (recursion depth) */
/* An evaluation that reaches one of these stops the run with a located
 * error (no other point would help). The fuzzing build (FLANGE_FUZZ) uses
 * smaller ones, so that an endless loop ends within its 5 s budget under
 * the sanitizers; a release evaluation of 1e7 iterations takes about 3 s. */
#ifdef FLANGE_FUZZ_LIMITS
#define FL_UFUNC_MAX_ITER 100000LL
#define FL_UFUNC_MAX_CALLS 100000LL
#else
#define FL_UFUNC_MAX_ITER 10000000LL     /* loop iterations (for, while, comprehensions) in one evaluation,
                                            over all the calls it makes */
#define FL_UFUNC_MAX_CALLS 10000000LL    /* function calls in one evaluation */
#endif
/* and (func_run.c) 4000 expressions and statements nested in one another
 * over all active calls, which bounds the interpreter's C stack; memory of
 * 512 MB; arrays of FL_MAX_ARRAY elements. */

/* How the registry sees the model's names; supplied by the caller, who
 * knows the scopes, imports and packages (instantiation). */
typedef struct fl_ufunc_scope {
    void *ctx;
    /* The class called `written` as seen from inside class `from`
     * (enclosing classes, imports, the within package, full paths). Returns
     * its AST when it is in the model's files, else NULL; sets *path to its
     * full name when known, also for library classes without an AST
     * ("Modelica.Units.SI.Velocity", "Modelica.Math.sin"), else to NULL.
     * *path stays valid until the next call. */
    const fl_class_ast *(*find_class)(void *ctx, const fl_class_ast *from, const char *written, const char **path);
    /* Optional: the value of the constant `written` as seen from `from`
     * (package constants, Integer or Boolean constants): 1 with *out filled,
     * 0 when unknown, -1 after reporting an error. Modelica.Constants.* are
     * built in. */
    int (*constant)(void *ctx, const fl_class_ast *from, const char *written, fl_loc loc, fl_value *out, fl_diag *d);
} fl_ufunc_scope;

/* Register the function class cls under its full name path (once: a path
 * already registered returns its id), with the functions it calls,
 * resolved through scope. Returns the id (>= 0), or -1 after reporting
 * located errors to d (also when a function it calls has errors). */
int fl_ufuncs_add(fl_ufuncs *r, const fl_class_ast *cls, const char *path, const fl_ufunc_scope *scope, fl_diag *d);
/* Id of a registered function (or variant), -1 if none. */
int fl_ufunc_find(const fl_ufuncs *r, const char *path);
int fl_ufuncs_count(const fl_ufuncs *r);

/* ---- signatures ---------------------------------------------------------- */

typedef enum fl_uftype { FL_UF_REAL, FL_UF_INTEGER, FL_UF_BOOLEAN } fl_uftype;

typedef struct fl_ufarg {
    const char *name;
    fl_uftype type;
    int ndims;       /* 0 scalar, 1 vector, 2 matrix */
    int dim[2];      /* sizes; -1 where the call decides (x[:], x[n] with n an input) */
    int has_default; /* inputs: a default value (input Real c = 1) */
} fl_ufarg;

const char *fl_ufunc_path(const fl_ufuncs *r, int id);
int fl_ufunc_ninputs(const fl_ufuncs *r, int id);
int fl_ufunc_noutputs(const fl_ufuncs *r, int id);
/* Input or output k (0-based, in declaration order) of function id; 0, or
 * -1 when out of range. For a variant, the inputs are those it takes. */
int fl_ufunc_input(const fl_ufuncs *r, int id, int k, fl_ufarg *out);
int fl_ufunc_output(const fl_ufuncs *r, int id, int k, fl_ufarg *out);

/* A variant of function id for flat calls (fl_ufunc_call, SX_CALL nodes):
 * given[k] says whether input k is passed (the others take their default
 * values; NULL: all passed) and dims[k] fixes the sizes of input k where
 * the declaration leaves them open (NULL: as declared). Its inputs are the
 * given ones, flattened in order, row-major. Returns the variant's id
 * (the same for equal variants; id itself when nothing changes), or -1
 * after reporting an error at loc (a missing input without default, sizes
 * that contradict the declaration). */
int fl_ufunc_variant(fl_ufuncs *r, int id, const unsigned char *given, const int (*dims)[2], fl_loc loc,
                     fl_diag *d);

/* ---- parameter expressions -------------------------------------------------- */

/* Evaluate the call e of function id in a parameter expression: the
 * arguments are evaluated by fl_eval in env and bound by position and by
 * name, the missing ones take their defaults; *out is the first output (a
 * number or an fl_value array). Returns 0, or -1 after reporting an error
 * (a run-time error is located where it happened, with a note at e). */
int fl_ufunc_eval_call(const fl_ufuncs *r, int id, const fl_expr *e, const fl_eval_env *env, fl_value *out,
                       fl_diag *d);

/* A ready-made hook for fl_eval_calls (eval.h; call_ctx: an
 * fl_ufunc_hook): resolves the called name from `from` through scope,
 * registers the function on first use and evaluates the call. Returns 0
 * for names that are not user functions. Plugging it in (instantiation):
 *     fl_ufunc_hook h = {registry, &scope, class_of_the_expression};
 *     rc = fl_eval_calls(expr, &env, fl_ufunc_eval_hook, &h, &value, d); */
typedef struct fl_ufunc_hook {
    fl_ufuncs *r;
    const fl_ufunc_scope *scope;
    const fl_class_ast *from;
} fl_ufunc_hook;
int fl_ufunc_eval_hook(void *call_ctx, const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d);

/* ---- tables of Modelica.Blocks.Tables ---------------------------------------- */

/* Keep a table for the look-up functions of the bundled Modelica.Blocks.Tables
 * (Modelica.Blocks.Tables.Internal.getTable1DValue and friends, whose
 * bodies are C: func_native.c), checked as the MSL checks it: dims 1 (the
 * abscissa in column 0, the outputs from the columns cols, 1-based) or 2
 * (the u1 grid in column 0, the u2 grid in row 0), with the smoothness and
 * extrapolation literals (1-based). Returns the table's id (>= 1; equal
 * tables share one), or -1 after reporting what is wrong with it at loc,
 * naming the block inst. */
int fl_ufunc_table_add(fl_ufuncs *r, const fl_value *tab, int dims, const fl_value *cols, int smooth, int extrap,
                       const char *inst, fl_loc loc, fl_diag *d);

/* ---- a simple scope ------------------------------------------------------- */

/* Lexical lookup in one file (enclosing classes, then the file's top
 * level, relative to its within package; no imports), with package
 * constants whose bindings are literal expressions. A reference for
 * callers and what the tests use: scope = {&lex, fl_ufunc_lex_find_class,
 * fl_ufunc_lex_constant} with lex = {file, NULL}; free lex.path after. */
typedef struct fl_ufunc_lex {
    const fl_file_ast *file;
    char *path;
} fl_ufunc_lex;
const fl_class_ast *fl_ufunc_lex_find_class(void *ctx, const fl_class_ast *from, const char *written, const char **path);
int fl_ufunc_lex_constant(void *ctx, const fl_class_ast *from, const char *written, fl_loc loc, fl_value *out,
                          fl_diag *d);

#endif
