/* lexer.c - turns Modelica source text into tokens with line:column. */
#include "lexer.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>

#include "util/util.h"

/* sorted: fl_lex_next looks keywords up among those of the same first letter */
static const char *const kw_names[] = {
    "algorithm", "and", "annotation", "block", "break", "class", "connect", "connector",
    "constant", "constrainedby", "discrete", "each", "else", "elseif", "elsewhen",
    "encapsulated", "end", "enumeration", "equation", "expandable", "extends", "external",
    "false", "final", "flow", "for", "function", "if", "import", "impure", "in", "initial",
    "inner", "input", "loop", "model", "not", "operator", "or", "outer", "output", "package",
    "parameter", "partial", "protected", "public", "pure", "record", "redeclare",
    "replaceable", "return", "stream", "then", "true", "type", "when", "while", "within",
};

/* The keyword s[0..n) (index into kw_names) or -1: kw_names is sorted, so
 * the keywords of one first letter are a range, found once. */
static unsigned char kw_lo[26], kw_hi[26];
static pthread_once_t kw_once = PTHREAD_ONCE_INIT;

static void kw_ranges(void)
{
    int n = T_KW_LAST - T_KW_FIRST;
    for (int k = n - 1; k >= 0; k--) kw_lo[kw_names[k][0] - 'a'] = (unsigned char)k;
    for (int k = 0; k < n; k++) kw_hi[kw_names[k][0] - 'a'] = (unsigned char)(k + 1);
}

static int kw_find(const char *s, size_t n)
{
    pthread_once(&kw_once, kw_ranges);
    int c = s[0] - 'a';
    for (int k = kw_lo[c]; k < kw_hi[c]; k++)
        if (strlen(kw_names[k]) == n && memcmp(kw_names[k], s, n) == 0) return k;
    return -1;
}

const char *fl_tok_name(fl_tok_kind k)
{
    static const char *const punct[] = {
        "end of file", "identifier", "number", "string", "'('", "')'", "'{'", "'}'", "'['",
        "']'", "','", "';'", "'.'", "':'", "':='", "'='", "'+'", "'-'", "'*'", "'/'", "'^'",
        "'.+'", "'.-'", "'.*'", "'./'", "'.^'", "'=='", "'<>'", "'<'", "'<='", "'>'", "'>='",
    };
    if (k < T_KW_FIRST) return punct[k];
    if (k < T_KW_LAST) return kw_names[k - T_KW_FIRST];
    return "?";
}

void fl_lex_init(fl_lexer *lx, const char *src, const char *file, fl_diag *d)
{
    memset(lx, 0, sizeof *lx);
    /* a UTF-8 byte-order mark (written by some Windows editors) is not
     * text: skipped, and columns of the first line count from after it */
    if ((unsigned char)src[0] == 0xEF && (unsigned char)src[1] == 0xBB && (unsigned char)src[2] == 0xBF) src += 3;
    lx->src = lx->p = lx->line_start = src;
    lx->file = file;
    lx->line = 1;
    lx->diag = d;
}

void fl_lex_free(fl_lexer *lx)
{
    for (size_t i = 0; i < lx->strings.n; i++) free(lx->strings.v[i]);
    FL_VEC_FREE(lx->strings);
}

static fl_loc here(const fl_lexer *lx, const char *p)
{
    fl_loc l = {lx->file, lx->line, (int)(p - lx->line_start) + 1};
    return l;
}

static void newline(fl_lexer *lx, const char *after)
{
    lx->line++;
    lx->line_start = after;
}

/* Skip blanks and comments; returns 0 on an unterminated block comment. */
static int skip_space(fl_lexer *lx)
{
    for (;;) {
        char c = *lx->p;
        if (c == '\n') {
            lx->p++;
            newline(lx, lx->p);
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->p++;
        } else if (c == '/' && lx->p[1] == '/') {
            while (*lx->p && *lx->p != '\n') lx->p++;
        } else if (c == '/' && lx->p[1] == '*') {
            fl_loc start = here(lx, lx->p);
            lx->p += 2;
            while (*lx->p && !(lx->p[0] == '*' && lx->p[1] == '/')) {
                if (*lx->p == '\n') newline(lx, lx->p + 1);
                lx->p++;
            }
            if (!*lx->p) {
                fl_err(lx->diag, start, "unterminated comment");
                lx->failed = 1;
                return 0;
            }
            lx->p += 2;
        } else {
            return 1;
        }
    }
}

static fl_token make(fl_lexer *lx, fl_tok_kind k, const char *start, fl_loc loc)
{
    fl_token t;
    memset(&t, 0, sizeof t);
    t.kind = k;
    t.loc = loc;
    t.start = start;
    t.len = (int)(lx->p - start);
    return t;
}

static fl_token lex_error(fl_lexer *lx, fl_loc loc)
{
    lx->failed = 1;
    fl_token t;
    memset(&t, 0, sizeof t);
    t.kind = T_EOF;
    t.loc = loc;
    t.start = lx->p;
    return t;
}

static fl_token lex_string(fl_lexer *lx, fl_loc loc)
{
    const char *start = lx->p;
    fl_buf b = {0};
    lx->p++; /* opening quote */
    for (;;) {
        char c = *lx->p;
        if (!c) {
            fl_buf_free(&b);
            fl_err(lx->diag, loc, "unterminated string");
            return lex_error(lx, loc);
        }
        if (c == '"') {
            lx->p++;
            break;
        }
        if (c == '\\' && lx->p[1]) {
            char e = lx->p[1];
            lx->p += 2;
            switch (e) {
            case 'n': fl_buf_addc(&b, '\n'); break;
            case 't': fl_buf_addc(&b, '\t'); break;
            case 'r': fl_buf_addc(&b, '\r'); break;
            case '\n': newline(lx, lx->p); fl_buf_addc(&b, '\n'); break;
            default: fl_buf_addc(&b, e); break; /* \" \\ \' \? and others */
            }
            continue;
        }
        if (c == '\n') newline(lx, lx->p + 1);
        fl_buf_addc(&b, c);
        lx->p++;
    }
    fl_token t = make(lx, T_STRING, start, loc);
    t.str = fl_buf_take(&b);
    FL_VEC_PUSH(lx->strings, t.str);
    return t;
}

/* The token text for a message: long literals are cut to their first
 * digits and an ellipsis. */
static void number_excerpt(char *out, size_t size, const char *start, size_t n)
{
    if (n < size) {
        memcpy(out, start, n);
        out[n] = '\0';
    } else {
        snprintf(out, size, "%.*s... (%zu characters)", (int)(size - 24), start, n);
    }
}

/* A numeric literal of any length, converted by strtod on its whole text
 * (correctly rounded). Values beyond the largest double and non-zero
 * values that would round to zero are errors; values below the smallest
 * normal double are kept as the denormal strtod gives. Integer literals
 * (no '.', no exponent) are Integers when they fit the Integer range
 * (32 bits, like Modelica tools), otherwise Real literals. */
static fl_token lex_number(fl_lexer *lx, fl_loc loc)
{
    const char *start = lx->p;
    int is_int = 1, nonzero = 0;
    for (; isdigit((unsigned char)*lx->p); lx->p++) nonzero |= *lx->p != '0';
    if (*lx->p == '.' && isdigit((unsigned char)lx->p[1])) {
        is_int = 0;
        lx->p++;
        for (; isdigit((unsigned char)*lx->p); lx->p++) nonzero |= *lx->p != '0';
    } else if (*lx->p == '.' && (lx->p[1] == 'e' || lx->p[1] == 'E') &&
               (isdigit((unsigned char)lx->p[2]) ||
                ((lx->p[2] == '+' || lx->p[2] == '-') && isdigit((unsigned char)lx->p[3])))) {
        is_int = 0; /* "1.e-14": the exponent follows */
        lx->p++;
    } else if (*lx->p == '.' && !isalpha((unsigned char)lx->p[1]) && lx->p[1] != '_' &&
               lx->p[1] != '*' && lx->p[1] != '/' && lx->p[1] != '^' && lx->p[1] != '+' &&
               lx->p[1] != '-') {
        is_int = 0; /* "1." */
        lx->p++;
    }
    if (*lx->p == 'e' || *lx->p == 'E') {
        const char *q = lx->p + 1;
        if (*q == '+' || *q == '-') q++;
        if (isdigit((unsigned char)*q)) {
            is_int = 0;
            lx->p = q;
            while (isdigit((unsigned char)*lx->p)) lx->p++;
        } else {
            fl_err(lx->diag, loc, "malformed number: exponent without digits");
            return lex_error(lx, loc);
        }
    }
    if (isalpha((unsigned char)*lx->p) || *lx->p == '_') {
        fl_err(lx->diag, loc, "malformed number '%.*s'", (int)FL_MIN(lx->p - start + 1, 60), start);
        return lex_error(lx, loc);
    }
    fl_token t = make(lx, T_NUMBER, start, loc);
    size_t n = (size_t)(lx->p - start);
    char tmp[64];
    char *text = n < sizeof tmp ? tmp : fl_xmalloc(n + 1);
    memcpy(text, start, n);
    text[n] = '\0';
    t.num = strtod(text, NULL);
    if (text != tmp) free(text);
    if (isinf(t.num) || (t.num == 0 && nonzero)) {
        char ex[64];
        number_excerpt(ex, sizeof ex, start, n);
        fl_err(lx->diag, loc, isinf(t.num) ? "number out of range: %s is larger than the largest Real (about 1.8e308)"
                                           : "number out of range: %s is too small: it would round to zero",
               ex);
        return lex_error(lx, loc);
    }
    t.is_int = is_int && t.num <= INT_MAX;
    return t;
}

fl_token fl_lex_next(fl_lexer *lx)
{
    if (lx->failed || !skip_space(lx)) return lex_error(lx, here(lx, lx->p));
    const char *s = lx->p;
    fl_loc loc = here(lx, s);
    char c = *s;
    if (!c) return make(lx, T_EOF, s, loc);
    if (isalpha((unsigned char)c) || c == '_') {
        while (isalnum((unsigned char)*lx->p) || *lx->p == '_') lx->p++;
        fl_token t = make(lx, T_IDENT, s, loc);
        /* keywords: lower case, at most 13 letters (most identifiers are not) */
        if (c >= 'a' && c <= 'z' && t.len <= 13) {
            int k = kw_find(s, (size_t)t.len);
            if (k >= 0) t.kind = (fl_tok_kind)(T_KW_FIRST + k);
        }
        return t;
    }
    if (c == '\'') { /* quoted identifier, e.g. 'df/dv' */
        lx->p++;
        while (*lx->p && *lx->p != '\'' && *lx->p != '\n') {
            if (*lx->p == '\\' && lx->p[1]) lx->p++;
            lx->p++;
        }
        if (*lx->p != '\'') {
            fl_err(lx->diag, loc, "unterminated quoted identifier");
            return lex_error(lx, loc);
        }
        lx->p++;
        return make(lx, T_IDENT, s, loc);
    }
    if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)s[1]))) return lex_number(lx, loc);
    if (c == '"') return lex_string(lx, loc);
    lx->p++;
    switch (c) {
    case '(': return make(lx, T_LPAREN, s, loc);
    case ')': return make(lx, T_RPAREN, s, loc);
    case '{': return make(lx, T_LBRACE, s, loc);
    case '}': return make(lx, T_RBRACE, s, loc);
    case '[': return make(lx, T_LBRACK, s, loc);
    case ']': return make(lx, T_RBRACK, s, loc);
    case ',': return make(lx, T_COMMA, s, loc);
    case ';': return make(lx, T_SEMI, s, loc);
    case '+': return make(lx, T_PLUS, s, loc);
    case '-': return make(lx, T_MINUS, s, loc);
    case '*': return make(lx, T_STAR, s, loc);
    case '/': return make(lx, T_SLASH, s, loc);
    case '^': return make(lx, T_CARET, s, loc);
    case ':':
        if (*lx->p == '=') {
            lx->p++;
            return make(lx, T_ASSIGN, s, loc);
        }
        return make(lx, T_COLON, s, loc);
    case '=':
        if (*lx->p == '=') {
            lx->p++;
            return make(lx, T_EQEQ, s, loc);
        }
        return make(lx, T_EQ, s, loc);
    case '<':
        if (*lx->p == '=') {
            lx->p++;
            return make(lx, T_LE, s, loc);
        }
        if (*lx->p == '>') {
            lx->p++;
            return make(lx, T_NEQ, s, loc);
        }
        return make(lx, T_LT, s, loc);
    case '>':
        if (*lx->p == '=') {
            lx->p++;
            return make(lx, T_GE, s, loc);
        }
        return make(lx, T_GT, s, loc);
    case '.':
        switch (*lx->p) {
        case '+': lx->p++; return make(lx, T_DPLUS, s, loc);
        case '-': lx->p++; return make(lx, T_DMINUS, s, loc);
        case '*': lx->p++; return make(lx, T_DSTAR, s, loc);
        case '/': lx->p++; return make(lx, T_DSLASH, s, loc);
        case '^': lx->p++; return make(lx, T_DCARET, s, loc);
        default: return make(lx, T_DOT, s, loc);
        }
    default:
        break;
    }
    if ((unsigned char)c >= 0x80)
        fl_err(lx->diag, loc, "unexpected non-ASCII character outside a string or comment");
    else
        fl_err(lx->diag, loc, "unexpected character '%c'", c);
    return lex_error(lx, loc);
}
