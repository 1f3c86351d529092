/* value.h - values of parameters and evaluated expressions: numbers,
 * booleans, strings, enumeration literals and real arrays (1-D or 2-D). */
#ifndef FL_VALUE_H
#define FL_VALUE_H

#include "parse/ast.h"

typedef enum fl_vkind { V_NONE = 0, V_REAL, V_INT, V_BOOL, V_STRING, V_ENUM, V_ARRAY } fl_vkind;

typedef struct fl_value {
    fl_vkind kind;
    double num;            /* V_REAL, V_INT, V_BOOL (0/1), V_ENUM (literal index, 1-based) */
    char *str;             /* V_STRING (owned) */
    const char *enum_type; /* V_ENUM: full type path (static) */
    int ndims;             /* V_ARRAY: 1 or 2 */
    int dim[2];            /* V_ARRAY: dim[0] rows (or length), dim[1] columns */
    double *data;          /* V_ARRAY: row-major (owned) */
} fl_value;

/* Largest array an expression may build (ranges, zeros/ones/fill, tables):
 * ten million elements, 80 MB. */
#define FL_MAX_ARRAY 10000000
#define FL_MAX_ARRAY_TEXT "10000000"

/* Range of Integer values (32 bits, as in Modelica tools): Integer
 * parameters outside it are errors, integer literals beyond it are Real. */
#define FL_INT_MIN (-2147483647.0 - 1)
#define FL_INT_MAX 2147483647.0

void fl_value_free(fl_value *v);
fl_value fl_value_copy(const fl_value *v);
fl_value fl_value_real(double x);
fl_value fl_value_bool(int b);
int fl_value_is_number(const fl_value *v); /* REAL, INT, BOOL */
size_t fl_value_count(const fl_value *v);  /* number of array elements */
/* Text for messages and `flange check`. */
void fl_value_print(fl_buf *b, const fl_value *v);
const char *fl_vkind_name(fl_vkind k);

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

/* Known enumeration types: full path, literals. */
typedef struct fl_enum_type {
    const char *path;
    const char *const *lits;
    int n;
} fl_enum_type;
const fl_enum_type *fl_enum_find(const char *path);
/* Try to read "<enum path>.<Literal>" from a dotted name. */
int fl_enum_parse(const char *dotted, fl_value *out);
/* Report lit as not a literal of t, with the nearest and all literals. */
void fl_enum_unknown_literal(const fl_enum_type *t, const char *lit, fl_loc loc, fl_diag *d);

#endif
