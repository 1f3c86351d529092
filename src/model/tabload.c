/* tabload.c - initTable1D/initTable2D of the bundled Modelica.Blocks.Tables
 * (see tabload.h): the table of a block from its parameters or its file,
 * kept in the function registry for the look-up functions. */
#include "tabload.h"

#include <stdlib.h>
#include <string.h>

#include "components/tablefile.h"
#include "scope.h"

#define INIT1D "Modelica.Blocks.Tables.Internal.initTable1D"
#define INIT2D "Modelica.Blocks.Tables.Internal.initTable2D"

/* The arguments of the calls, in order:
 *   initTable1D(tableOnFile, table, tableName, fileName, delimiter, nHeaderLines, columns, smoothness, extrapolation)
 *   initTable2D(tableOnFile, table, tableName, fileName, delimiter, nHeaderLines, smoothness, extrapolation) */
enum { A_ONFILE, A_TABLE, A_NAME, A_FILE, A_DELIM, A_HEADER, A_COLS };

/* Where the block sets parameter name (its modifier), else where the block
 * is declared. */
static fl_loc where_set(const env *e, const char *name)
{
    for (size_t i = 0; i < e->params.n; i++) {
        const pslot *s = &e->params.v[i];
        if (strcmp(s->name, name) == 0 && s->over.mod && s->over.mod->loc.file) return s->over.mod->loc;
    }
    return e->decl_loc;
}

static int is_string(const fl_value *v)
{
    return v->kind == V_STRING && v->str;
}

int fl_tabload_eval_hook(void *call_ctx, const fl_expr *call, const fl_eval_env *ev, fl_value *out, fl_diag *d)
{
    fl_tabload_hook *h = call_ctx;
    char *written = fl_ref_str(&call->ref);
    int dims = strcmp(written, INIT1D) == 0 ? 1 : strcmp(written, INIT2D) == 0 ? 2 : 0;
    free(written);
    if (!dims) return fl_ufunc_eval_hook(h->inner, call, ev, out, d);
    int nargs = dims == 1 ? 9 : 8;
    if (call->nargs != nargs || call->argnames) {
        fl_err(d, call->loc, "%s takes %d arguments by position", dims == 1 ? INIT1D : INIT2D, nargs);
        return -1;
    }
    fl_value a[9];
    memset(a, 0, sizeof a);
    int rc = 0;
    for (int i = 0; i < nargs && !rc; i++) rc = fl_eval(call->args[i], ev, &a[i], d);
    int ism = dims == 1 ? 7 : 6, iex = ism + 1;
    const env *e = h->e;
    size_t pl = strlen(e->prefix);
    char *inst = fl_xstrndup(e->prefix, pl && e->prefix[pl - 1] == '.' ? pl - 1 : pl);
    if (!rc && (!is_string(&a[A_NAME]) || !is_string(&a[A_FILE]) || !is_string(&a[A_DELIM]) ||
                a[A_TABLE].kind != V_ARRAY || (dims == 1 && a[A_COLS].kind != V_ARRAY) || a[ism].kind != V_ENUM ||
                a[iex].kind != V_ENUM)) {
        fl_err(d, call->loc, "%s: arguments of the wrong kinds", dims == 1 ? INIT1D : INIT2D);
        rc = -1;
    }
    fl_value file;
    memset(&file, 0, sizeof file);
    const fl_value *tab = &a[A_TABLE];
    fl_loc at = where_set(e, "table");
    if (!rc && a[A_ONFILE].num != 0) {
        at = where_set(e, "fileName");
        rc = fl_table_load(inst, a[A_FILE].str, a[A_NAME].str, a[A_DELIM].str, fl_table_count(a[A_HEADER].num),
                           e->ic->m->path, at, &file, d);
        tab = &file;
    }
    if (!rc) {
        static const fl_value none = {.kind = V_NONE};
        int id = fl_ufunc_table_add(h->inner->r, tab, dims, dims == 1 ? &a[A_COLS] : &none, (int)a[ism].num,
                                    (int)a[iex].num, inst, at, d);
        if (id < 0) rc = -1;
        else {
            *out = fl_value_real(id);
            out->kind = V_INT;
        }
    }
    fl_value_free(&file);
    for (int i = 0; i < nargs; i++) fl_value_free(&a[i]);
    free(inst);
    return rc ? -1 : 1;
}
