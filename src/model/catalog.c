/* catalog.c - `flange components`: every class a model can name, the C
 * classes of src/components (from their tables) and the classes written
 * in Modelica that flange carries (src/model/msl, bundled.c). It lives in
 * the model layer because it is the one that sees both. */
#include <stdio.h>
#include <string.h>

#include "flange.h"
#include "components/component.h"
#include "model/bundled.h"
#include "util/guard.h"

static const char *ptype_name(const fl_param_def *p)
{
    switch (p->type) {
    case FL_P_REAL: return "Real";
    case FL_P_INT: return "Integer";
    case FL_P_BOOL: return "Boolean";
    case FL_P_ENUM: return strrchr(p->enum_type, '.') ? strrchr(p->enum_type, '.') + 1 : p->enum_type;
    case FL_P_STRING: return "String";
    case FL_P_VECTOR: return "Real[:]";
    case FL_P_MATRIX: return "Real[:,:]";
    }
    return "?";
}

FL_GUARDED_VOID(fl_components_print, (FILE *out), (out), fl_guard_print(&g_, out))
{
    int n = fl_class_count();
    for (int i = 0; i < n; i++) {
        const fl_class *c = fl_class_at(i);
        fprintf(out, "%s\n    %s\n", c->path, c->desc);
        fputs("    ports:", out);
        for (int k = 0; k < c->nports; k++) {
            const fl_port_def *p = &c->ports[k];
            const char *kind = p->kind == FL_PORT_FLANGE ? (p->rot ? "rotational flange" : "flange")
                               : p->kind == FL_PORT_INPUT ? "input"
                                                          : "output";
            fprintf(out, "%s %s", k ? "," : "", p->name);
            if (p->width > 0) fprintf(out, "[%d]", p->width);
            else if (p->width < 0) fputs("[:]", out);
            fprintf(out, " (%s%s%s)", kind, p->cond ? " if " : "", p->cond ? p->cond : "");
        }
        if (!c->nports) fputs(" none", out);
        fputc('\n', out);
        for (int k = 0; k < c->nparams; k++) {
            const fl_param_def *p = &c->params[k];
            fprintf(out, "    parameter %s %s = %s%s", ptype_name(p), p->name,
                    p->def ? p->def : p->start ? p->start : "(required)", !p->def && p->start ? " (start value)" : "");
            if (p->unit && *p->unit) fprintf(out, " [%s]", p->unit);
            fprintf(out, "  %s\n", p->desc);
        }
        for (int k = 0; k < c->nvars; k++) {
            const fl_var_def *v = &c->vars[k];
            fprintf(out, "    variable %s", v->name);
            if (v->unit && *v->unit) fprintf(out, " [%s]", v->unit);
            if (v->flags & FL_VF_ATTR) fputs(" (start/fixed)", out);
            fprintf(out, "  %s\n", v->desc);
        }
    }
    fl_bundled_print(out);
}
