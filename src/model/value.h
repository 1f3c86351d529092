/* value.h - values of parameters and evaluated expressions: numbers,
 * booleans, strings, enumeration literals and real arrays (1-D or 2-D).
 *
 * Why apart from the evaluator (eval.h): values are what the runtime keeps
 * (array parameters of the compiled system, class checks), expressions are
 * syntax trees, which stay in src/model (docs/architecture.md, "Layers"). */
#ifndef FL_VALUE_H
#define FL_VALUE_H

#include <stddef.h>

#include "util/diag.h"
#include "util/util.h"

typedef enum fl_vkind { V_NONE = 0, V_REAL, V_INT, V_BOOL, V_STRING, V_ENUM, V_ARRAY } fl_vkind;

/* 48 bytes, the ints first (a big model sets a value of several
 * parameters per component). */
typedef struct fl_value {
    fl_vkind kind;
    int ndims;             /* V_ARRAY: 1 or 2 */
    int dim[2];            /* V_ARRAY: dim[0] rows (or length), dim[1] columns */
    double num;            /* V_REAL, V_INT, V_BOOL (0/1), V_ENUM (literal index, 1-based) */
    char *str;             /* V_STRING (owned) */
    const char *enum_type; /* V_ENUM: full type path (static) */
    double *data;          /* V_ARRAY: row-major (owned) */
} fl_value;

/* Largest array an expression may build (ranges, zeros/ones/fill, tables)
 * and largest array of variables or components a declaration may make:
 * ten million elements, 80 MB. The fuzzing build (FLANGE_FUZZ_LIMITS) makes
 * it a hundred thousand, so that an input cannot spend its 5 s budget on
 * a legitimately huge model (1.5 million variables take 4.8 s under the
 * sanitizers). */
#ifdef FLANGE_FUZZ_LIMITS
#define FL_MAX_ARRAY 100000
#define FL_MAX_ARRAY_TEXT "100000"
#else
#define FL_MAX_ARRAY 10000000
#define FL_MAX_ARRAY_TEXT "10000000"
#endif

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
