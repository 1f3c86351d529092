/* functions.c - built-in and library functions for parameter expressions. */
#include "functions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct fn_args {
    fl_value *v;
    const char *const *names; /* formal names, positional order */
    int n;
} fn_args;

typedef double (*fn1)(double);

static const struct {
    const char *name;
    fn1 f;
} math1[] = {
    {"sin", sin},   {"cos", cos},     {"tan", tan},   {"asin", asin}, {"acos", acos},
    {"atan", atan}, {"sinh", sinh},   {"cosh", cosh}, {"tanh", tanh}, {"exp", exp},
    {"log", log},   {"log10", log10}, {"sqrt", sqrt}, {"abs", fabs},  {"floor", floor},
    {"ceil", ceil},
};

static double sign_fn(double x)
{
    return x > 0 ? 1 : x < 0 ? -1 : 0;
}

static int bad_arg(fl_diag *d, fl_loc loc, const char *fn, const char *what)
{
    fl_err(d, loc, "%s(): %s", fn, what);
    return -1;
}

/* Collect positional/named actual arguments into the formal order. */
static int bind_args(const fl_expr *e, const fl_eval_env *env, const char *fname,
                     const char *const *formals, const char *const *defaults, int nformal,
                     fl_value *vals, fl_diag *d)
{
    int *set = fl_xcalloc((size_t)nformal, sizeof(int));
    int rc = 0, pos = 0;
    for (int i = 0; i < e->nargs && !rc; i++) {
        int k = -1;
        if (e->argnames && e->argnames[i]) {
            for (int j = 0; j < nformal; j++)
                if (strcmp(formals[j], e->argnames[i]) == 0) k = j;
            if (k < 0) {
                fl_err(d, e->args[i]->loc, "%s() has no argument named '%s'", fname, e->argnames[i]);
                rc = -1;
                break;
            }
        } else {
            k = pos++;
            if (k >= nformal) {
                fl_err(d, e->args[i]->loc, "%s() takes at most %d arguments", fname, nformal);
                rc = -1;
                break;
            }
        }
        if (set[k]) {
            fl_err(d, e->args[i]->loc, "%s(): argument '%s' given twice", fname, formals[k]);
            rc = -1;
            break;
        }
        rc = fl_eval(e->args[i], env, &vals[k], d);
        set[k] = 1;
    }
    for (int j = 0; j < nformal && !rc; j++) {
        if (set[j]) continue;
        if (defaults && defaults[j]) {
            vals[j] = fl_value_real(atof(defaults[j]));
        } else {
            fl_err(d, e->loc, "%s(): missing argument '%s'", fname, formals[j]);
            rc = -1;
        }
    }
    free(set);
    return rc;
}

/* Table of the Stribeck friction curve for SupportFriction.f_pos:
 * rows (v_i, F_Coulomb + F_prop*v_i + F_Stribeck*exp(-fexp*v_i)) for
 * v_i evenly spaced from 0 to v_max. */
static int generate_stribeck(const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d)
{
    static const char *const formals[] = {"F_prop", "F_Coulomb", "F_Stribeck", "fexp", "v_max", "nTable"};
    static const char *const defaults[] = {NULL, NULL, NULL, NULL, NULL, "100"};
    const char *fname = "GenerateStribeckFrictionTable";
    fl_value v[6];
    memset(v, 0, sizeof v);
    int rc = bind_args(e, env, fname, formals, defaults, 6, v, d);
    for (int i = 0; i < 6 && !rc; i++)
        if (!fl_value_is_number(&v[i])) rc = bad_arg(d, e->loc, fname, "arguments must be numbers");
    if (!rc) {
        /* the range is checked before the conversion to int */
        int n = v[5].num == floor(v[5].num) && v[5].num >= 2 && v[5].num <= FL_MAX_ARRAY ? (int)v[5].num : 0;
        if (!n) rc = bad_arg(d, e->loc, fname, "nTable must be an integer from 2 to " FL_MAX_ARRAY_TEXT);
        else if (v[0].num < 0) rc = bad_arg(d, e->loc, fname, "F_prop must be >= 0");
        else if (v[3].num < 0) rc = bad_arg(d, e->loc, fname, "fexp must be >= 0");
        else {
            memset(out, 0, sizeof *out);
            out->kind = V_ARRAY;
            out->ndims = 2;
            out->dim[0] = n;
            out->dim[1] = 2;
            out->data = fl_xmalloc(sizeof(double) * 2 * (size_t)n);
            for (int i = 0; i < n; i++) {
                double vi = v[4].num * i / (n - 1);
                out->data[2 * i] = vi;
                out->data[2 * i + 1] = v[1].num + v[0].num * vi + v[2].num * exp(-v[3].num * vi);
            }
        }
    }
    for (int i = 0; i < 6; i++) fl_value_free(&v[i]);
    return rc;
}

static int eval_args(const fl_expr *e, const fl_eval_env *env, fl_value *v, int n, const char *fname, fl_diag *d)
{
    if (e->nargs != n) {
        fl_err(d, e->loc, "%s() takes %d argument%s, %d given", fname, n, n == 1 ? "" : "s", e->nargs);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (e->argnames && e->argnames[i]) {
            fl_err(d, e->loc, "%s() takes positional arguments only", fname);
            return -1;
        }
        if (fl_eval(e->args[i], env, &v[i], d)) return -1;
    }
    return 0;
}

static int builtin(const char *name, const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d)
{
    fl_value a[3];
    memset(a, 0, sizeof a);
    int rc = 1; /* 1 = not a builtin */
    for (size_t i = 0; i < sizeof math1 / sizeof math1[0]; i++) {
        if (strcmp(name, math1[i].name) != 0) continue;
        rc = eval_args(e, env, a, 1, name, d);
        if (!rc && fl_value_is_number(&a[0])) {
            double r = math1[i].f(a[0].num);
            if (!isfinite(r)) rc = bad_arg(d, e->loc, name, "argument outside the domain of the function");
            else *out = fl_value_real(r);
        } else if (!rc && a[0].kind == V_ARRAY && (strcmp(name, "abs") == 0)) {
            *out = fl_value_copy(&a[0]);
            for (size_t k = 0; k < fl_value_count(out); k++) out->data[k] = fabs(out->data[k]);
        } else if (!rc) {
            rc = bad_arg(d, e->loc, name, "argument must be a number");
        }
        goto done;
    }
    if (strcmp(name, "sign") == 0 || strcmp(name, "integer") == 0) {
        rc = eval_args(e, env, a, 1, name, d);
        if (!rc && !fl_value_is_number(&a[0])) rc = bad_arg(d, e->loc, name, "argument must be a number");
        if (!rc) {
            *out = fl_value_real(name[0] == 's' ? sign_fn(a[0].num) : floor(a[0].num));
            if (name[0] == 'i') out->kind = V_INT;
        }
    } else if (strcmp(name, "noEvent") == 0 || strcmp(name, "smooth") == 0) {
        /* no events in parameter expressions: the argument itself */
        int k = name[0] == 's' ? 1 : 0;
        if (e->nargs != k + 1) rc = bad_arg(d, e->loc, name, "wrong number of arguments");
        else rc = fl_eval(e->args[k], env, out, d);
    } else if (strcmp(name, "atan2") == 0 || strcmp(name, "mod") == 0 || strcmp(name, "rem") == 0 ||
               strcmp(name, "div") == 0) {
        rc = eval_args(e, env, a, 2, name, d);
        if (!rc && (!fl_value_is_number(&a[0]) || !fl_value_is_number(&a[1])))
            rc = bad_arg(d, e->loc, name, "arguments must be numbers");
        if (!rc) {
            double x = a[0].num, y = a[1].num, r = 0;
            if (name[0] == 'a') r = atan2(x, y);
            else if (y == 0) rc = bad_arg(d, e->loc, name, "division by zero");
            else if (name[0] == 'm') r = x - floor(x / y) * y;
            else if (name[0] == 'r') r = x - trunc(x / y) * y;
            else r = trunc(x / y);
            if (!rc) *out = fl_value_real(r);
        }
    } else if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) {
        int ismax = name[1] == 'a';
        if (e->nargs == 2) {
            rc = eval_args(e, env, a, 2, name, d);
            if (!rc && (!fl_value_is_number(&a[0]) || !fl_value_is_number(&a[1])))
                rc = bad_arg(d, e->loc, name, "arguments must be numbers");
            if (!rc) *out = fl_value_real(ismax ? fmax(a[0].num, a[1].num) : fmin(a[0].num, a[1].num));
        } else {
            rc = eval_args(e, env, a, 1, name, d);
            if (!rc && (a[0].kind != V_ARRAY || fl_value_count(&a[0]) == 0))
                rc = bad_arg(d, e->loc, name, "needs two numbers or a non-empty array");
            if (!rc) {
                double r = a[0].data[0];
                for (size_t k = 1; k < fl_value_count(&a[0]); k++)
                    r = ismax ? fmax(r, a[0].data[k]) : fmin(r, a[0].data[k]);
                *out = fl_value_real(r);
            }
        }
    } else if (strcmp(name, "sum") == 0) {
        rc = eval_args(e, env, a, 1, name, d);
        if (!rc && a[0].kind != V_ARRAY) rc = bad_arg(d, e->loc, name, "argument must be an array");
        if (!rc) {
            double s = 0;
            for (size_t k = 0; k < fl_value_count(&a[0]); k++) s += a[0].data[k];
            *out = fl_value_real(s);
        }
    } else if (strcmp(name, "size") == 0) {
        if (e->nargs == 2) rc = eval_args(e, env, a, 2, name, d);
        else rc = eval_args(e, env, a, 1, name, d);
        if (!rc && a[0].kind != V_ARRAY) rc = bad_arg(d, e->loc, name, "first argument must be an array");
        if (!rc && e->nargs == 2) {
            double x = a[1].num;
            int k = fl_value_is_number(&a[1]) && x == floor(x) && x >= 1 && x <= a[0].ndims ? (int)x : 0;
            if (!k)
                rc = bad_arg(d, e->loc, name, "dimension out of range");
            else {
                *out = fl_value_real(a[0].dim[k - 1]);
                out->kind = V_INT;
            }
        } else if (!rc) {
            memset(out, 0, sizeof *out);
            out->kind = V_ARRAY;
            out->ndims = 1;
            out->dim[0] = a[0].ndims;
            out->data = fl_xmalloc(sizeof(double) * 2);
            out->data[0] = a[0].dim[0];
            out->data[1] = a[0].dim[1];
        }
    } else if (strcmp(name, "zeros") == 0 || strcmp(name, "ones") == 0 || strcmp(name, "fill") == 0) {
        int skip = name[0] == 'f' ? 1 : 0;
        int nd = e->nargs - skip;
        if (nd < 1 || nd > 2) {
            rc = bad_arg(d, e->loc, name, "1 or 2 dimensions are supported");
        } else {
            rc = eval_args(e, env, a, e->nargs, name, d);
            double fillv = name[0] == 'o' ? 1 : name[0] == 'z' ? 0 : a[0].num;
            double count = 1;
            for (int k = skip; k < e->nargs && !rc; k++) {
                if (!fl_value_is_number(&a[k]) || a[k].num < 0 || a[k].num != floor(a[k].num))
                    rc = bad_arg(d, e->loc, name, "dimensions must be non-negative integers");
                else
                    count *= a[k].num;
            }
            if (!rc && count > FL_MAX_ARRAY)
                rc = bad_arg(d, e->loc, name, "more than " FL_MAX_ARRAY_TEXT " elements");
            if (!rc) {
                memset(out, 0, sizeof *out);
                out->kind = V_ARRAY;
                out->ndims = nd;
                out->dim[0] = (int)a[skip].num;
                out->dim[1] = nd == 2 ? (int)a[skip + 1].num : 0;
                size_t n = fl_value_count(out);
                out->data = fl_xmalloc(sizeof(double) * (n ? n : 1));
                for (size_t k = 0; k < n; k++) out->data[k] = fillv;
            }
        }
    } else {
        return 1;
    }
done:
    for (int i = 0; i < 3; i++) fl_value_free(&a[i]);
    return rc;
}

int fl_eval_call(const fl_expr *e, const fl_eval_env *env, fl_value *out, fl_diag *d)
{
    char *written = fl_ref_str(&e->ref);
    const char *full = env && env->resolve ? env->resolve(env->ctx, written) : NULL;
    const char *name = full ? full : written;
    int rc = 1;
    if (strncmp(name, "Modelica.Math.", 14) == 0 && !strchr(name + 14, '.'))
        rc = builtin(name + 14, e, env, out, d);
    else if (!strchr(written, '.'))
        rc = builtin(written, e, env, out, d);
    if (rc == 1) {
        const char *last = strrchr(name, '.');
        if (strcmp(name, "Modelica.Mechanics.Translational.Examples.Utilities.GenerateStribeckFrictionTable") == 0 ||
            (!full && last && strcmp(last + 1, "GenerateStribeckFrictionTable") == 0) ||
            strcmp(written, "GenerateStribeckFrictionTable") == 0)
            rc = generate_stribeck(e, env, out, d);
    }
    if (rc == 1) {
        int r = fl_eval_user_call(e, env, out, d); /* the user's functions */
        rc = r > 0 ? 0 : r < 0 ? -1 : 1;
    }
    if (rc == 1) {
        fl_err(d, e->loc, "unknown function '%s'", written);
        rc = -1;
    }
    free(written);
    return rc;
}
