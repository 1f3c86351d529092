/* tabload.h - the tables of the bundled Modelica.Blocks.Tables blocks,
 * made while their parameters are evaluated: the binding of a block's
 * tableID calls Modelica.Blocks.Tables.Internal.initTable1D or initTable2D,
 * which this hook answers by reading the table (from the model, or from
 * fileName with tableOnFile = true), checking it and keeping it in the
 * model's function registry (symbolic/func.h: fl_ufunc_table_add); the
 * value is the table's id. Every other call goes on to the hook of the
 * user functions.
 *
 * Why in instantiation: the file name is a String parameter, which only
 * the model side has, and a message about the file or the table must point
 * where the model sets them. */
#ifndef FL_TABLOAD_H
#define FL_TABLOAD_H

#include "model/eval.h"
#include "symbolic/func.h"

struct env;

typedef struct fl_tabload_hook {
    fl_ufunc_hook *inner; /* every other call */
    struct env *e;        /* the block whose parameter is evaluated */
} fl_tabload_hook;

/* An fl_call_fn (model/eval.h) with call_ctx an fl_tabload_hook. */
int fl_tabload_eval_hook(void *call_ctx, const fl_expr *call, const fl_eval_env *ev, fl_value *out, fl_diag *d);

#endif
