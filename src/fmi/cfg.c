/* cfg.c - resources/flange.cfg of an FMU (the format is in fmu.h): written
 * by the exporter, read by the FMU at instantiation.
 *
 * Values are the rest of the line after "key=". The fields of input= and
 * output= are separated by '|'; inside a field (and in every other value)
 * a backslash escapes: "\\" is a backslash, "\|" a bar, "\n" a line end,
 * so a description may hold any text. Numbers are written with %.17g and
 * read back exactly. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmi/fmu.h"
#include "model/value.h"
#include "util/diag.h"
#include "util/util.h"

/* ---- writing ------------------------------------------------------------- */

static void add_escaped(fl_buf *b, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '\\') fl_buf_add(b, "\\\\");
        else if (*s == '|') fl_buf_add(b, "\\|");
        else if (*s == '\n') fl_buf_add(b, "\\n");
        else if (*s == '\r') fl_buf_add(b, "\\r");
        else fl_buf_addc(b, *s);
    }
}

static void add_number(fl_buf *b, double x)
{
    fl_buf_printf(b, "%.17g", x);
}

/* key name|carrier|unit[|start]|description: an input has a start value,
 * an output none */
static void add_io(fl_buf *b, const char *key, const fl_fmu_io *io, int with_start)
{
    fl_buf_add(b, key);
    add_escaped(b, io->name);
    fl_buf_addc(b, '|');
    add_escaped(b, io->carrier);
    fl_buf_addc(b, '|');
    add_escaped(b, io->unit);
    fl_buf_addc(b, '|');
    if (with_start) {
        add_number(b, io->start);
        fl_buf_addc(b, '|');
    }
    add_escaped(b, io->desc);
    fl_buf_addc(b, '\n');
}

char *fl_fmu_cfg_format(const fl_fmu_cfg *c)
{
    fl_buf b = {0};
    fl_buf_add(&b, "flange=");
    add_escaped(&b, c->flange_version);
    fl_buf_printf(&b, "\nfmi=%d\nmodel=", c->fmi);
    add_escaped(&b, c->model);
    fl_buf_add(&b, "\nwrapped=");
    add_escaped(&b, c->wrapped);
    fl_buf_addc(&b, '\n');
    for (int i = 0; i < c->nparams; i++) {
        fl_buf_add(&b, "param=");
        add_escaped(&b, c->param_names[i]);
        fl_buf_addc(&b, '=');
        add_escaped(&b, c->param_values[i]);
        fl_buf_addc(&b, '\n');
    }
    for (int i = 0; i < c->ntunable; i++) {
        fl_buf_add(&b, "tunable=");
        add_escaped(&b, c->tunable[i]);
        fl_buf_addc(&b, '\n');
    }
    for (int i = 0; i < c->ninputs; i++) add_io(&b, "input=", &c->inputs[i], 1);
    for (int i = 0; i < c->noutputs; i++) add_io(&b, "output=", &c->outputs[i], 0);
    if (c->token) {
        fl_buf_add(&b, "token=");
        add_escaped(&b, c->token);
        fl_buf_addc(&b, '\n');
    }
    return fl_buf_take(&b);
}

/* ---- reading ------------------------------------------------------------- */

/* The fields of value[0..n) split at unescaped bars, unescaped; returns
 * their number (at most max), or -1 for a bad escape. */
static int split_fields(const char *v, size_t n, char **out, int max)
{
    int k = 0;
    fl_buf f = {0};
    for (size_t i = 0; i <= n; i++) {
        if (i == n || v[i] == '|') {
            if (k < max) out[k] = fl_buf_take(&f);
            else fl_buf_free(&f);
            k++;
            continue;
        }
        if (v[i] == '\\') {
            if (++i == n) {
                fl_buf_free(&f);
                goto bad;
            }
            char e = v[i] == 'n' ? '\n' : v[i] == 'r' ? '\r' : v[i] == '\\' || v[i] == '|' ? v[i] : 0;
            if (!e) {
                fl_buf_free(&f);
                goto bad;
            }
            fl_buf_addc(&f, e);
        } else {
            fl_buf_addc(&f, v[i]);
        }
    }
    return k;
bad:
    for (int j = 0; j < k && j < max; j++) free(out[j]);
    return -1;
}

static int parse_number(const char *s, double *x)
{
    char *end;
    errno = 0;
    *x = strtod(s, &end);
    return *s && !*end && !isnan(*x) ? 0 : -1;
}

/* A parameter's value as the loader takes it: a number, true or false, or
 * an enumeration literal by its full name. */
static int param_value_ok(const char *s)
{
    double x;
    if (!parse_number(s, &x) || !strcmp(s, "true") || !strcmp(s, "false")) return 1;
    fl_value e;
    memset(&e, 0, sizeof e);
    int ok = fl_enum_parse(s, &e) == 1 && e.kind == V_ENUM;
    fl_value_free(&e);
    return ok;
}

#define PUSH(arr, n, x)                                                   \
    do {                                                                  \
        (arr) = fl_xrealloc((arr), sizeof *(arr) * (size_t)((n) + 1));   \
        (arr)[(n)++] = (x);                                               \
    } while (0)

int fl_fmu_cfg_parse(const char *text, fl_fmu_cfg *c, fl_diag *d)
{
    memset(c, 0, sizeof *c);
    int line = 0, have_fmi = 0, have_model = 0;
    const char *p = text ? text : "";
    while (*p) {
        line++;
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *next = e ? e + 1 : p + len;
        if (len && p[len - 1] == '\r') len--;
        if (len == 0) {
            p = next;
            continue;
        }
        const char *eq = memchr(p, '=', len);
        if (!eq) {
            fl_err(d, fl_noloc, "flange.cfg:%d: expected key=value", line);
            goto fail;
        }
        size_t klen = (size_t)(eq - p);
        const char *v = eq + 1;
        size_t vlen = len - klen - 1;
#define KEY(s) (klen == strlen(s) && memcmp(p, s, klen) == 0)
        char *f[6] = {0};
        int nf = -1, want = 1;
        if (KEY("input")) want = 5;
        else if (KEY("output")) want = 4;
        if (KEY("param")) {
            /* name=value: the name has no '=' */
            const char *eq2 = memchr(v, '=', vlen);
            if (!eq2) {
                fl_err(d, fl_noloc, "flange.cfg:%d: param needs name=value", line);
                goto fail;
            }
            char *name = NULL, *val = NULL;
            nf = split_fields(v, (size_t)(eq2 - v), &name, 1);
            if (nf != 1) {
                if (nf > 1) free(name);
                fl_err(d, fl_noloc, "flange.cfg:%d: bad escape or '|' in a parameter name", line);
                goto fail;
            }
            val = fl_xstrndup(eq2 + 1, vlen - (size_t)(eq2 + 1 - v));
            if (!param_value_ok(val) || !*name) {
                fl_err(d, fl_noloc, "flange.cfg:%d: param %s: '%s' is not a number, true, false or an enumeration "
                       "literal", line, name, val);
                free(name);
                free(val);
                goto fail;
            }
            c->param_values = fl_xrealloc(c->param_values, sizeof(char *) * (size_t)(c->nparams + 1));
            c->param_values[c->nparams] = val;
            PUSH(c->param_names, c->nparams, name);
            p = next;
            continue;
        }
        nf = split_fields(v, vlen, f, 6);
        if (nf < 0) {
            fl_err(d, fl_noloc, "flange.cfg:%d: bad escape in the value", line);
            goto fail;
        }
        if (nf != want) {
            for (int j = 0; j < nf && j < 6; j++) free(f[j]);
            fl_err(d, fl_noloc, "flange.cfg:%d: %.*s needs %d field%s separated by '|', got %d", line, (int)klen, p,
                   want, want > 1 ? "s" : "", nf);
            goto fail;
        }
        if (KEY("flange")) {
            free(c->flange_version);
            c->flange_version = f[0];
        } else if (KEY("fmi")) {
            int ok = strcmp(f[0], "2") == 0 || strcmp(f[0], "3") == 0;
            c->fmi = f[0][0] - '0';
            if (!ok) {
                fl_err(d, fl_noloc, "flange.cfg:%d: fmi must be 2 or 3, not '%s'", line, f[0]);
                free(f[0]);
                goto fail;
            }
            free(f[0]);
            have_fmi = 1;
        } else if (KEY("model")) {
            free(c->model);
            c->model = f[0];
            have_model = 1;
        } else if (KEY("wrapped")) {
            free(c->wrapped);
            c->wrapped = f[0];
        } else if (KEY("tunable")) {
            PUSH(c->tunable, c->ntunable, f[0]);
        } else if (KEY("token")) {
            free(c->token);
            c->token = f[0];
        } else if (KEY("input") || KEY("output")) {
            int in = KEY("input");
            fl_fmu_io io = {f[0], f[1], f[2], NULL, 0};
            io.desc = in ? f[4] : f[3];
            if (in && parse_number(f[3], &io.start)) {
                fl_err(d, fl_noloc, "flange.cfg:%d: input %s: start '%s' is not a number", line, f[0], f[3]);
                for (int j = 0; j < nf; j++) free(f[j]);
                goto fail;
            }
            if (in) free(f[3]);
            if (!*io.name || !*io.carrier) {
                fl_err(d, fl_noloc, "flange.cfg:%d: %s without a name or carrier", line, in ? "input" : "output");
                free(io.name);
                free(io.carrier);
                free(io.unit);
                free(io.desc);
                goto fail;
            }
            if (in) PUSH(c->inputs, c->ninputs, io);
            else PUSH(c->outputs, c->noutputs, io);
        } else {
            fl_err(d, fl_noloc, "flange.cfg:%d: unknown key '%.*s'", line, (int)klen, p);
            free(f[0]);
            goto fail;
        }
#undef KEY
        p = next;
    }
    if (!have_fmi || !have_model || !c->model[0]) {
        fl_err(d, fl_noloc, "flange.cfg: %s missing", !have_fmi ? "fmi=" : "model=");
        goto fail;
    }
    if (!c->wrapped) c->wrapped = fl_xstrdup("");
    if (!c->flange_version) c->flange_version = fl_xstrdup("");
    return 0;
fail:
    fl_fmu_cfg_free(c);
    return -1;
}

static void free_io(fl_fmu_io *io)
{
    free(io->name);
    free(io->carrier);
    free(io->unit);
    free(io->desc);
}

void fl_fmu_cfg_free(fl_fmu_cfg *c)
{
    if (!c) return;
    free(c->flange_version);
    free(c->model);
    free(c->wrapped);
    for (int i = 0; i < c->nparams; i++) {
        free(c->param_names[i]);
        free(c->param_values[i]);
    }
    free(c->param_names);
    free(c->param_values);
    for (int i = 0; i < c->ntunable; i++) free(c->tunable[i]);
    free(c->tunable);
    for (int i = 0; i < c->ninputs; i++) free_io(&c->inputs[i]);
    free(c->inputs);
    for (int i = 0; i < c->noutputs; i++) free_io(&c->outputs[i]);
    free(c->outputs);
    free(c->token);
    memset(c, 0, sizeof *c);
}
