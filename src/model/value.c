/* value.c - parameter values and the enumeration types flange knows. */
#include "value.h"
#include "util/suggest.h"

#include <stdlib.h>
#include <string.h>

void fl_value_free(fl_value *v)
{
    free(v->str);
    free(v->data);
    memset(v, 0, sizeof *v);
}

fl_value fl_value_copy(const fl_value *v)
{
    fl_value c = *v;
    if (v->str) c.str = fl_xstrdup(v->str);
    if (v->kind == V_ARRAY) {
        size_t n = fl_value_count(v);
        c.data = fl_xmalloc(sizeof(double) * (n ? n : 1));
        if (n) memcpy(c.data, v->data, sizeof(double) * n);
    }
    return c;
}

fl_value fl_value_real(double x)
{
    fl_value v;
    memset(&v, 0, sizeof v);
    v.kind = V_REAL;
    v.num = x;
    return v;
}

fl_value fl_value_bool(int b)
{
    fl_value v;
    memset(&v, 0, sizeof v);
    v.kind = V_BOOL;
    v.num = b ? 1 : 0;
    return v;
}

int fl_value_is_number(const fl_value *v)
{
    return v->kind == V_REAL || v->kind == V_INT || v->kind == V_BOOL;
}

size_t fl_value_count(const fl_value *v)
{
    if (v->kind != V_ARRAY) return 1;
    return v->ndims == 1 ? (size_t)v->dim[0] : (size_t)v->dim[0] * (size_t)v->dim[1];
}

const char *fl_vkind_name(fl_vkind k)
{
    switch (k) {
    case V_REAL: return "Real";
    case V_INT: return "Integer";
    case V_BOOL: return "Boolean";
    case V_STRING: return "String";
    case V_ENUM: return "enumeration";
    case V_ARRAY: return "array";
    default: return "nothing";
    }
}

static void print_num(fl_buf *b, double x)
{
    char tmp[40];
    fl_fmt_double(tmp, sizeof tmp, x);
    fl_buf_add(b, tmp);
}

void fl_value_print(fl_buf *b, const fl_value *v)
{
    switch (v->kind) {
    case V_REAL:
    case V_INT: print_num(b, v->num); break;
    case V_BOOL: fl_buf_add(b, v->num != 0 ? "true" : "false"); break;
    case V_STRING: fl_buf_printf(b, "\"%s\"", v->str ? v->str : ""); break;
    case V_ENUM: {
        const fl_enum_type *t = fl_enum_find(v->enum_type);
        int i = (int)v->num - 1;
        const char *last = strrchr(v->enum_type, '.');
        fl_buf_printf(b, "%s.%s", last ? last + 1 : v->enum_type,
                      t && i >= 0 && i < t->n ? t->lits[i] : "?");
        break;
    }
    case V_ARRAY:
        if (v->ndims == 1) {
            fl_buf_addc(b, '{');
            for (int i = 0; i < v->dim[0]; i++) {
                if (i) fl_buf_add(b, ", ");
                print_num(b, v->data[i]);
            }
            fl_buf_addc(b, '}');
        } else {
            fl_buf_addc(b, '[');
            for (int i = 0; i < v->dim[0]; i++) {
                if (i) fl_buf_add(b, "; ");
                for (int j = 0; j < v->dim[1]; j++) {
                    if (j) fl_buf_add(b, ", ");
                    print_num(b, v->data[i * v->dim[1] + j]);
                }
            }
            fl_buf_addc(b, ']');
        }
        break;
    default: fl_buf_add(b, "(none)"); break;
    }
}

/* ---- enumerations ---- */

static const char *const lits_stateselect[] = {"never", "avoid", "default", "prefer", "always"};
static const char *const lits_smoothness[] = {
    "LinearSegments", "ContinuousDerivative", "ConstantSegments",
    "MonotoneContinuousDerivative1", "MonotoneContinuousDerivative2",
    "ModifiedContinuousDerivative"};
static const char *const lits_extrapolation[] = {"HoldLastPoint", "LastTwoPoints", "Periodic",
                                                 "NoExtrapolation"};
static const char *const lits_timeevents[] = {"Always", "AtDiscontinuities", "NoTimeEvents"};
static const char *const lits_regularization[] = {"Exp", "Sine", "Linear", "Cosine"};
static const char *const lits_init[] = {"NoInit", "SteadyState", "InitialState", "InitialOutput"};
static const char *const lits_simplecontroller[] = {"P", "PI", "PD", "PID"};
static const char *const lits_limiterhomotopy[] = {"NoHomotopy", "Linear", "UpperLimit", "LowerLimit"};
static const char *const lits_varlimiterhomotopy[] = {"NoHomotopy", "Linear", "Fixed"};
static const char *const lits_filtertype[] = {"LowPass", "HighPass", "BandPass", "BandStop"};
static const char *const lits_analogfilter[] = {"CriticalDamping", "Bessel", "Butterworth", "ChebyshevI"};
static const char *const lits_hsmodel[] = {"FULL_DAMPED", "FULL_UNDAMPED", "SMOOTH", "RESTITUTION"};

static const fl_enum_type enum_types[] = {
    {"StateSelect", lits_stateselect, 5},
    {"Modelica.Blocks.Types.Smoothness", lits_smoothness, 6},
    {"Modelica.Blocks.Types.Extrapolation", lits_extrapolation, 4},
    {"Modelica.Blocks.Types.TimeEvents", lits_timeevents, 3},
    {"Modelica.Blocks.Types.Regularization", lits_regularization, 4},
    {"Modelica.Blocks.Types.Init", lits_init, 4},
    {"Modelica.Blocks.Types.SimpleController", lits_simplecontroller, 4},
    {"Modelica.Blocks.Types.LimiterHomotopy", lits_limiterhomotopy, 4},
    {"Modelica.Blocks.Types.VariableLimiterHomotopy", lits_varlimiterhomotopy, 3},
    {"Modelica.Blocks.Types.FilterType", lits_filtertype, 4},
    {"Modelica.Blocks.Types.AnalogFilter", lits_analogfilter, 4},
    {"Flange.Types.HardStopModel", lits_hsmodel, 4},
};

const fl_enum_type *fl_enum_find(const char *path)
{
    if (!path) return NULL;
    for (size_t i = 0; i < sizeof enum_types / sizeof enum_types[0]; i++)
        if (strcmp(enum_types[i].path, path) == 0) return &enum_types[i];
    return NULL;
}

int fl_enum_parse(const char *dotted, fl_value *out)
{
    const char *dot = strrchr(dotted, '.');
    if (!dot) return 0;
    char *type = fl_xstrndup(dotted, (size_t)(dot - dotted));
    const fl_enum_type *t = fl_enum_find(type);
    free(type);
    if (!t) return 0;
    for (int i = 0; i < t->n; i++) {
        if (strcmp(t->lits[i], dot + 1) == 0) {
            memset(out, 0, sizeof *out);
            out->kind = V_ENUM;
            out->enum_type = t->path;
            out->num = i + 1;
            return 1;
        }
    }
    return 0;
}

void fl_enum_unknown_literal(const fl_enum_type *t, const char *lit, fl_loc loc, fl_diag *d)
{
    fl_suggest sg;
    fl_suggest_init(&sg, lit);
    for (int i = 0; i < t->n; i++) fl_suggest_add(&sg, t->lits[i], t->lits[i]);
    fl_buf b = {0};
    fl_buf_printf(&b, "'%s' is not a literal of %s", lit, t->path);
    fl_suggest_append(&sg, &b);
    fl_buf_add(&b, " (its literals are ");
    for (int i = 0; i < t->n; i++) fl_buf_printf(&b, "%s%s", i ? ", " : "", t->lits[i]);
    fl_buf_addc(&b, ')');
    fl_err(d, loc, "%s", b.s);
    fl_buf_free(&b);
}
