/* units.c - Modelica unit strings (Modelica Language Specification 19.1)
 * in SI base units, for the <UnitDefinitions> of modelDescription.xml.
 *
 *   unit_expression  = unit_numerator [ "/" unit_denominator ]
 *   unit_numerator   = "1" | unit_factors | "(" unit_expression ")"
 *   unit_denominator = unit_factor | "(" unit_expression ")"
 *   unit_factors     = unit_factor [ "." unit_factors ]
 *   unit_factor      = unit_operand [ unit_exponent ]   ("m2", "s-1")
 *   unit_operand     = [ prefix ] unit_symbol           ("mm", "kN")
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmi/export.h"

typedef struct sym {
    const char *name;
    /* kg m s A K mol cd rad */
    signed char e[FL_U_N];
    double factor, offset;
} sym;

#define PI 3.14159265358979323846

static const sym symbols[] = {
    {"kg", {1, 0, 0, 0, 0, 0, 0, 0}, 1, 0},
    {"g", {1, 0, 0, 0, 0, 0, 0, 0}, 1e-3, 0},
    {"m", {0, 1, 0, 0, 0, 0, 0, 0}, 1, 0},
    {"s", {0, 0, 1, 0, 0, 0, 0, 0}, 1, 0},
    {"min", {0, 0, 1, 0, 0, 0, 0, 0}, 60, 0},
    {"h", {0, 0, 1, 0, 0, 0, 0, 0}, 3600, 0},
    {"d", {0, 0, 1, 0, 0, 0, 0, 0}, 86400, 0},
    {"A", {0, 0, 0, 1, 0, 0, 0, 0}, 1, 0},
    {"K", {0, 0, 0, 0, 1, 0, 0, 0}, 1, 0},
    {"degC", {0, 0, 0, 0, 1, 0, 0, 0}, 1, 273.15},
    {"mol", {0, 0, 0, 0, 0, 1, 0, 0}, 1, 0},
    {"cd", {0, 0, 0, 0, 0, 0, 1, 0}, 1, 0},
    {"rad", {0, 0, 0, 0, 0, 0, 0, 1}, 1, 0},
    {"deg", {0, 0, 0, 0, 0, 0, 0, 1}, PI / 180, 0},
    {"rev", {0, 0, 0, 0, 0, 0, 0, 1}, 2 * PI, 0},
    {"sr", {0, 0, 0, 0, 0, 0, 0, 0}, 1, 0},
    {"N", {1, 1, -2, 0, 0, 0, 0, 0}, 1, 0},
    {"J", {1, 2, -2, 0, 0, 0, 0, 0}, 1, 0},
    {"W", {1, 2, -3, 0, 0, 0, 0, 0}, 1, 0},
    {"Pa", {1, -1, -2, 0, 0, 0, 0, 0}, 1, 0},
    {"bar", {1, -1, -2, 0, 0, 0, 0, 0}, 1e5, 0},
    {"Hz", {0, 0, -1, 0, 0, 0, 0, 0}, 1, 0},
    {"C", {0, 0, 1, 1, 0, 0, 0, 0}, 1, 0},
    {"V", {1, 2, -3, -1, 0, 0, 0, 0}, 1, 0},
    {"Ohm", {1, 2, -3, -2, 0, 0, 0, 0}, 1, 0},
    {"S", {-1, -2, 3, 2, 0, 0, 0, 0}, 1, 0},
    {"F", {-1, -2, 4, 2, 0, 0, 0, 0}, 1, 0},
    {"H", {1, 2, -2, -2, 0, 0, 0, 0}, 1, 0},
    {"T", {1, 0, -2, -1, 0, 0, 0, 0}, 1, 0},
    {"Wb", {1, 2, -2, -1, 0, 0, 0, 0}, 1, 0},
    {"l", {0, 3, 0, 0, 0, 0, 0, 0}, 1e-3, 0},
    {"L", {0, 3, 0, 0, 0, 0, 0, 0}, 1e-3, 0},
};

static const struct {
    const char *p;
    double f;
} prefixes[] = {{"da", 1e1}, {"Y", 1e24}, {"Z", 1e21}, {"E", 1e18}, {"P", 1e15}, {"T", 1e12}, {"G", 1e9},
                {"M", 1e6},  {"k", 1e3},  {"h", 1e2},  {"d", 1e-1}, {"c", 1e-2}, {"m", 1e-3}, {"u", 1e-6},
                {"n", 1e-9}, {"p", 1e-12}, {"f", 1e-15}, {"a", 1e-18}, {"z", 1e-21}, {"y", 1e-24}};

static const sym *find_sym(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++)
        if (strlen(symbols[i].name) == n && memcmp(symbols[i].name, s, n) == 0) return &symbols[i];
    return NULL;
}

typedef struct parser {
    const char *p;
} parser;

static void unit_one(fl_unit_si *u)
{
    memset(u, 0, sizeof *u);
    u->factor = 1;
}

/* u = u * v^power (offsets only survive a lone operand) */
static void mul(fl_unit_si *u, const fl_unit_si *v, int power)
{
    for (int k = 0; k < FL_U_N; k++) u->exp[k] += power * v->exp[k];
    u->factor *= pow(v->factor, power);
    u->offset = 0;
}

static int is_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int parse_expr(parser *ps, fl_unit_si *u);

/* operand [exponent] */
static int parse_factor(parser *ps, fl_unit_si *u)
{
    const char *s = ps->p;
    size_t n = 0;
    while (is_letter(s[n])) n++;
    if (!n) return -1;
    fl_unit_si v;
    unit_one(&v);
    const sym *sy = find_sym(s, n);
    double pf = 1;
    if (!sy) {
        for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0] && !sy; i++) {
            size_t lp = strlen(prefixes[i].p);
            if (n > lp && memcmp(s, prefixes[i].p, lp) == 0 && (sy = find_sym(s + lp, n - lp))) pf = prefixes[i].f;
        }
    }
    if (!sy) return -1;
    for (int k = 0; k < FL_U_N; k++) v.exp[k] = sy->e[k];
    v.factor = sy->factor * pf;
    v.offset = sy->offset;
    ps->p += n;
    int power = 1;
    if (*ps->p == '+' || *ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9')) {
        char *end;
        long e = strtol(ps->p, &end, 10);
        if (end == ps->p || e < -99 || e > 99) return -1;
        power = (int)e;
        ps->p = end;
    }
    if (power == 1) {
        *u = v;
        return 0;
    }
    unit_one(u);
    mul(u, &v, power);
    return 0;
}

static int parse_numerator(parser *ps, fl_unit_si *u)
{
    if (*ps->p == '(') {
        ps->p++;
        if (parse_expr(ps, u) || *ps->p != ')') return -1;
        ps->p++;
        return 0;
    }
    if (*ps->p == '1' && !(ps->p[1] >= '0' && ps->p[1] <= '9')) {
        ps->p++;
        unit_one(u);
        return 0;
    }
    if (parse_factor(ps, u)) return -1;
    int nf = 1;
    while (*ps->p == '.') {
        ps->p++;
        fl_unit_si v;
        if (parse_factor(ps, &v)) return -1;
        mul(u, &v, 1);
        nf++;
    }
    if (nf > 1) u->offset = 0;
    return 0;
}

static int parse_expr(parser *ps, fl_unit_si *u)
{
    if (parse_numerator(ps, u)) return -1;
    if (*ps->p == '/') {
        ps->p++;
        fl_unit_si v;
        if (*ps->p == '(') {
            ps->p++;
            if (parse_expr(ps, &v) || *ps->p != ')') return -1;
            ps->p++;
        } else if (parse_factor(ps, &v)) {
            return -1;
        }
        mul(u, &v, -1);
    }
    return 0;
}

int fl_unit_parse(const char *text, fl_unit_si *u)
{
    unit_one(u);
    if (!text || !*text) return 0;
    parser ps = {text};
    if (parse_expr(&ps, u) || *ps.p) return -1;
    return 0;
}
