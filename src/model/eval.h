/* eval.h - the evaluator of parameter expressions (eval.c): syntax trees
 * of the parser (fl_expr) to values (value.h), with names looked up
 * through an environment.
 *
 * Model-side only: instantiation, the class tables' text (classtext.c) and
 * the function compiler evaluate expressions; the stages after the model
 * see values and never include this header (docs/architecture.md,
 * "Layers"; tests/cli/layers.sh checks it). */
#ifndef FL_EVAL_H
#define FL_EVAL_H

#include "model/value.h"
#include "parse/ast.h"

/* Name lookup for expression evaluation: fill *out with the value of ref and
 * return 1, return 0 when the name is unknown (the evaluator then tries
 * global constants and enumerations), or -1 after reporting an error. */
typedef int (*fl_lookup_fn)(void *ctx, const fl_ref *ref, fl_loc loc, fl_value *out, fl_diag *d);

typedef struct fl_eval_env {
    fl_lookup_fn lookup;
    void *ctx;
    /* Optional: the full path of a dotted name as written in the model's
     * scope (imports, enclosing packages), or NULL. Used for constants,
     * enumeration literals and function names. The result stays valid
     * until the next call. */
    const char *(*resolve)(void *ctx, const char *written);
} fl_eval_env;

/* Evaluate e. Returns 0 on success, -1 after reporting an error. */
int fl_eval(const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d);

/* Calls of functions that are not built in (the user's functions; see
 * fl_ufunc_eval_hook in symbolic/func.h): returns 1 after evaluating the
 * call e into *out (its arguments evaluated by fl_eval in env, so that they
 * can be bound by name and see the iterators of comprehensions), 0 when the
 * name is not such a function (the evaluator then says "unknown
 * function"), -1 after reporting an error. */
typedef int (*fl_call_fn)(void *call_ctx, const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d);

/* fl_eval with calls of functions that are not built in going to call.
 * The hook rides on the environment (a scope around env), so fl_eval_env
 * and its initialisers stay as they are. */
int fl_eval_calls(const fl_expr *e, const fl_eval_env *env, fl_call_fn call, void *call_ctx, fl_value *out,
                  fl_diag *d);
/* For the function evaluator: the hook of env for the call e (1, 0, -1 as
 * fl_call_fn; 0 without a hook). */
int fl_eval_user_call(const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d);

/* The value of a built-in constant by full path (Modelica.Constants.pi):
 * 1 with *out filled, 0 when there is none. */
int fl_eval_constant(const char *path, fl_value *out);

#endif
