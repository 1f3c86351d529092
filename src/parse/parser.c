/* parser.c - recursive-descent parser for the Modelica subset: packages and
 * models, declarations with modifiers, extends/import, connect equations,
 * expressions; annotations are skipped except experiment(...). Constructs
 * outside the subset inside equation/algorithm sections are recorded as
 * "unsupported" and only become errors if the class is instantiated.
 *
 * The tree of a file lives in one arena (fl_file_ast.arena), freed with the
 * file: nodes are never freed one by one, so error paths just drop what
 * they built, and equal names share one interned copy. */
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "lexer.h"

typedef struct parser {
    fl_lexer lx;
    fl_token tok;  /* current token */
    fl_token next; /* one token of look-ahead */
    int have_next;
    fl_diag *diag;
    int failed;
    const char *path;
    int nesting;     /* expressions and modifications being parsed, one inside the other */
    int class_depth; /* classes being parsed, one inside the other */
    int block_depth; /* equations and statements being parsed, one inside the other */
} parser;

/* The arena of the tree being built (one parse at a time per thread). */
static _Thread_local fl_arena *ar;

static void *anew(size_t n)
{
    return fl_arena_alloc(ar, n);
}

/* A growable array built on the heap, moved into the arena at its final size. */
static void *avec(void *heap, size_t n, size_t size)
{
    void *a = NULL;
    if (n) {
        a = anew(n * size);
        memcpy(a, heap, n * size);
    }
    free(heap);
    return a;
}

/* A string builder's text, moved into the arena. */
static char *abuf(fl_buf *b)
{
    char *s = fl_arena_strn(ar, b->s ? b->s : "", b->n);
    fl_buf_free(b);
    return s;
}

static void advance(parser *p)
{
    if (p->have_next) {
        p->tok = p->next;
        p->have_next = 0;
    } else {
        p->tok = fl_lex_next(&p->lx);
    }
    if (p->lx.failed) p->failed = 1;
}

static const fl_token *peek(parser *p)
{
    if (!p->have_next) {
        p->next = fl_lex_next(&p->lx);
        p->have_next = 1;
        if (p->lx.failed) p->failed = 1;
    }
    return &p->next;
}

static void syntax_error(parser *p, const char *expected)
{
    if (p->failed) return; /* report only the first error of a parse */
    p->failed = 1;
    if (p->tok.kind == T_EOF)
        fl_err(p->diag, p->tok.loc, "syntax error: expected %s before end of file", expected);
    else
        fl_err(p->diag, p->tok.loc, "syntax error: expected %s, found '%.*s'", expected,
               p->tok.len > 40 ? 40 : p->tok.len, p->tok.start);
}

static int accept(parser *p, fl_tok_kind k)
{
    if (p->failed || p->tok.kind != k) return 0;
    advance(p);
    return 1;
}

static int expect(parser *p, fl_tok_kind k, const char *what)
{
    if (accept(p, k)) return 1;
    syntax_error(p, what);
    return 0;
}

/* Enter one more level of a construct the parser (and every later walk
 * of the tree) handles by recursion; past the limit (ast.h) a located
 * error instead of a stack overflow. Leave with p->nesting--. */
static int enter_nesting(parser *p, const char *what)
{
    if (p->nesting >= FL_MAX_NESTING) {
        if (!p->failed)
            fl_err(p->diag, p->tok.loc, "%s nested more than %d levels deep", what, FL_MAX_NESTING);
        p->failed = 1;
        return 0;
    }
    p->nesting++;
    return 1;
}

/* An identifier's text. Plain copies: instance names are mostly unique, and
 * interning them would cost a lookup in a big table per token; dotted
 * names (types, modifier names), which repeat, are interned instead. */
static char *tok_text(const fl_token *t)
{
    char *c = anew((size_t)t->len + 1);
    memcpy(c, t->start, (size_t)t->len);
    return c;
}

/* IDENT { '.' IDENT } as a string */
static char *parse_dotted_name(parser *p, const char *what)
{
    if (p->tok.kind != T_IDENT) {
        syntax_error(p, what);
        return NULL;
    }
    char tmp[256]; /* names fit; longer ones go through a builder */
    tmp[0] = '\0';
    size_t n = 0;
    fl_buf b = {0};
    for (int first = 1;; first = 0) {
        if (!first) {
            if (!(p->tok.kind == T_DOT && peek(p)->kind == T_IDENT)) break;
            advance(p);
        }
        size_t len = (size_t)p->tok.len + (first ? 0 : 1);
        if (!b.s && n + len < sizeof tmp) {
            if (!first) tmp[n++] = '.';
            memcpy(tmp + n, p->tok.start, (size_t)p->tok.len);
            n += (size_t)p->tok.len;
        } else {
            if (!b.s) fl_buf_addn(&b, tmp, n);
            if (!first) fl_buf_addc(&b, '.');
            fl_buf_addn(&b, p->tok.start, (size_t)p->tok.len);
        }
        advance(p);
    }
    if (b.s) return abuf(&b);
    return fl_arena_strn(ar, tmp, n);
}

/* ------------------------------------------------------------------------
 * Expressions
 * ------------------------------------------------------------------------ */

static fl_expr *parse_expr(parser *p);

static fl_expr *new_expr(fl_expr_kind k, fl_loc loc)
{
    fl_expr *e = anew(sizeof *e);
    e->kind = k;
    e->loc = loc;
    return e;
}

typedef FL_VEC(fl_expr *) expr_vec;
typedef FL_VEC(char *) str_vec;

static void take_args(fl_expr *e, expr_vec *args, str_vec *names)
{
    e->nargs = (int)args->n;
    e->args = avec(args->v, args->n, sizeof *args->v);
    if (names) e->argnames = avec(names->v, names->n, sizeof *names->v);
}

static int parse_subscripts(parser *p, fl_ref_part *part)
{
    expr_vec subs = {0};
    advance(p); /* [ */
    do {
        fl_expr *s;
        if (p->tok.kind == T_COLON && (peek(p)->kind == T_COMMA || peek(p)->kind == T_RBRACK)) {
            s = new_expr(EX_COLON, p->tok.loc);
            advance(p);
        } else {
            s = parse_expr(p);
        }
        if (!s) break;
        FL_VEC_PUSH(subs, s);
    } while (accept(p, T_COMMA));
    part->nsubs = (int)subs.n;
    part->subs = avec(subs.v, subs.n, sizeof *subs.v);
    return expect(p, T_RBRACK, "']'");
}

/* component reference: ['.'] IDENT [subs] { '.' IDENT [subs] } */
static int parse_ref(parser *p, fl_ref *r)
{
    memset(r, 0, sizeof *r);
    FL_VEC(fl_ref_part) parts = {0};
    accept(p, T_DOT); /* global name */
    for (;;) {
        if (p->tok.kind != T_IDENT) {
            syntax_error(p, "a name");
            break;
        }
        fl_ref_part part = {tok_text(&p->tok), NULL, 0};
        advance(p);
        if (p->tok.kind == T_LBRACK) parse_subscripts(p, &part);
        FL_VEC_PUSH(parts, part);
        if (p->tok.kind == T_DOT && peek(p)->kind == T_IDENT) {
            advance(p);
            continue;
        }
        break;
    }
    r->n = (int)parts.n;
    r->parts = avec(parts.v, parts.n, sizeof *parts.v);
    return !p->failed;
}

static int parse_iterators(parser *p, fl_iter **out, int *n);

/* body for i in r, j in r2: the comprehension of a reduction call
 * (sum(x[i] for i in 1:n)) or an array constructor. */
static fl_expr *parse_comprehension(parser *p, fl_expr *body)
{
    fl_expr *e = new_expr(EX_COMPREH, body->loc);
    e->a = body;
    advance(p); /* for */
    fl_iter *it = NULL;
    int n = 0;
    if (!parse_iterators(p, &it, &n)) return NULL;
    e->nargs = n;
    e->args = anew(sizeof(fl_expr *) * (size_t)(n ? n : 1));
    e->argnames = anew(sizeof(char *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        e->args[i] = it[i].range;
        e->argnames[i] = it[i].name;
    }
    return e;
}

static fl_expr *parse_call_args(parser *p, fl_expr *call)
{
    expr_vec args = {0};
    str_vec names = {0};
    int any_named = 0;
    advance(p); /* ( */
    if (p->tok.kind != T_RPAREN) {
        do {
            char *name = NULL;
            if (p->tok.kind == T_IDENT && peek(p)->kind == T_EQ) {
                name = tok_text(&p->tok);
                advance(p);
                advance(p);
                any_named = 1;
            }
            fl_expr *a = parse_expr(p);
            if (!a) break;
            if (p->tok.kind == K_FOR && !name && args.n == 0) {
                a = parse_comprehension(p, a);
                if (!a) break;
            }
            FL_VEC_PUSH(args, a);
            FL_VEC_PUSH(names, name);
        } while (accept(p, T_COMMA));
    }
    expect(p, T_RPAREN, "')'");
    take_args(call, &args, any_named ? &names : NULL);
    if (!any_named) FL_VEC_FREE(names);
    return call;
}

static fl_expr *parse_primary(parser *p)
{
    fl_loc loc = p->tok.loc;
    fl_expr *e;
    switch (p->tok.kind) {
    case T_NUMBER:
        e = new_expr(EX_NUM, loc);
        e->num = p->tok.num;
        e->is_int = p->tok.is_int;
        advance(p);
        return e;
    case T_STRING: {
        e = new_expr(EX_STR, loc);
        fl_buf b = {0};
        while (p->tok.kind == T_STRING) { /* adjacent literals are not Modelica, but be lenient */
            fl_buf_add(&b, p->tok.str);
            advance(p);
            if (p->tok.kind == T_PLUS && peek(p)->kind == T_STRING) advance(p);
            else break;
        }
        e->str = abuf(&b);
        return e;
    }
    case K_TRUE:
    case K_FALSE:
        e = new_expr(EX_BOOL, loc);
        e->num = p->tok.kind == K_TRUE;
        advance(p);
        return e;
    case K_END:
        e = new_expr(EX_END, loc);
        advance(p);
        return e;
    case T_LPAREN: {
        advance(p);
        /* (a, b) and (a, , b): a tuple, valid on the left of an equation or
         * assignment (the flattener says so elsewhere) */
        if (p->tok.kind == T_COMMA || p->tok.kind == T_RPAREN) {
            e = NULL;
        } else {
            e = parse_expr(p);
        }
        if (p->tok.kind == T_COMMA || (!e && p->tok.kind == T_RPAREN)) {
            fl_expr *t = new_expr(EX_TUPLE, loc);
            expr_vec items = {0};
            FL_VEC_PUSH(items, e);
            while (accept(p, T_COMMA)) {
                fl_expr *x = NULL;
                if (p->tok.kind != T_COMMA && p->tok.kind != T_RPAREN) {
                    x = parse_expr(p);
                    if (!x) break;
                }
                FL_VEC_PUSH(items, x);
            }
            take_args(t, &items, NULL);
            e = t;
        }
        expect(p, T_RPAREN, "')'");
        return e;
    }
    case T_LBRACE: {
        e = new_expr(EX_ARRAY, loc);
        expr_vec args = {0};
        advance(p);
        if (p->tok.kind != T_RBRACE) {
            do {
                fl_expr *a = parse_expr(p);
                if (!a) break;
                if (p->tok.kind == K_FOR && args.n == 0) {
                    a = parse_comprehension(p, a);
                    if (!a) break;
                    FL_VEC_PUSH(args, a);
                    break;
                }
                FL_VEC_PUSH(args, a);
            } while (accept(p, T_COMMA));
        }
        expect(p, T_RBRACE, "'}'");
        take_args(e, &args, NULL);
        return e;
    }
    case T_LBRACK: {
        e = new_expr(EX_MATRIX, loc);
        expr_vec rows = {0};
        advance(p);
        do {
            fl_expr *row = new_expr(EX_ARRAY, p->tok.loc);
            expr_vec cols = {0};
            do {
                fl_expr *a = parse_expr(p);
                if (!a) break;
                FL_VEC_PUSH(cols, a);
            } while (accept(p, T_COMMA));
            take_args(row, &cols, NULL);
            FL_VEC_PUSH(rows, row);
        } while (!p->failed && accept(p, T_SEMI));
        expect(p, T_RBRACK, "']'");
        take_args(e, &rows, NULL);
        return e;
    }
    case K_INITIAL:
    case T_IDENT:
    case T_DOT: {
        if (p->tok.kind == K_INITIAL) { /* initial() */
            e = new_expr(EX_CALL, loc);
            e->ref.parts = anew(sizeof(fl_ref_part));
            e->ref.parts[0].name = fl_arena_strn(ar, "initial", 7);
            e->ref.n = 1;
            advance(p);
            if (p->tok.kind != T_LPAREN) {
                syntax_error(p, "'('");
                return e;
            }
            return parse_call_args(p, e);
        }
        fl_ref r;
        parse_ref(p, &r);
        if (p->tok.kind == T_LPAREN) {
            e = new_expr(EX_CALL, loc);
            e->ref = r;
            return parse_call_args(p, e);
        }
        e = new_expr(EX_REF, loc);
        e->ref = r;
        return e;
    }
    default:
        syntax_error(p, "an expression");
        return NULL;
    }
}

static fl_expr *binary(fl_loc loc, int op, fl_expr *a, fl_expr *b)
{
    fl_expr *e = new_expr(EX_BINARY, loc);
    e->op = op;
    e->a = a;
    e->b = b;
    return e;
}

static fl_expr *parse_factor(parser *p)
{
    fl_expr *a = parse_primary(p);
    while (a && (p->tok.kind == T_CARET || p->tok.kind == T_DCARET)) {
        int op_caret = p->tok.kind;
        fl_loc loc = p->tok.loc;
        advance(p);
        fl_expr *b = parse_primary(p);
        if (!b) return NULL;
        a = binary(loc, op_caret, a, b);
    }
    return a;
}

static fl_expr *parse_term(parser *p)
{
    fl_expr *a = parse_factor(p);
    while (a && (p->tok.kind == T_STAR || p->tok.kind == T_SLASH || p->tok.kind == T_DSTAR ||
                 p->tok.kind == T_DSLASH)) {
        int op = p->tok.kind; /* element-wise .* ./ kept apart: they differ on arrays */
        fl_loc loc = p->tok.loc;
        advance(p);
        fl_expr *b = parse_factor(p);
        if (!b) return NULL;
        a = binary(loc, op, a, b);
    }
    return a;
}

static fl_expr *parse_arith(parser *p)
{
    fl_expr *a;
    if (p->tok.kind == T_MINUS || p->tok.kind == T_PLUS || p->tok.kind == T_DMINUS ||
        p->tok.kind == T_DPLUS) {
        int op = (p->tok.kind == T_MINUS || p->tok.kind == T_DMINUS) ? T_MINUS : T_PLUS;
        fl_loc loc = p->tok.loc;
        advance(p);
        fl_expr *t = parse_term(p);
        if (!t) return NULL;
        a = new_expr(EX_UNARY, loc);
        a->op = op;
        a->a = t;
    } else {
        a = parse_term(p);
    }
    while (a && (p->tok.kind == T_PLUS || p->tok.kind == T_MINUS || p->tok.kind == T_DPLUS ||
                 p->tok.kind == T_DMINUS)) {
        int op = (p->tok.kind == T_PLUS || p->tok.kind == T_DPLUS) ? T_PLUS : T_MINUS;
        fl_loc loc = p->tok.loc;
        advance(p);
        fl_expr *b = parse_term(p);
        if (!b) return NULL;
        a = binary(loc, op, a, b);
    }
    return a;
}

static fl_expr *parse_relation(parser *p)
{
    fl_expr *a = parse_arith(p);
    switch (p->tok.kind) {
    case T_LT: case T_LE: case T_GT: case T_GE: case T_EQEQ: case T_NEQ: {
        int op = p->tok.kind;
        fl_loc loc = p->tok.loc;
        advance(p);
        fl_expr *b = parse_arith(p);
        if (!a || !b) return NULL;
        return binary(loc, op, a, b);
    }
    default:
        return a;
    }
}

static fl_expr *parse_lfactor(parser *p)
{
    if (p->tok.kind == K_NOT) {
        fl_loc loc = p->tok.loc;
        advance(p);
        fl_expr *a = parse_relation(p);
        if (!a) return NULL;
        fl_expr *e = new_expr(EX_UNARY, loc);
        e->op = K_NOT;
        e->a = a;
        return e;
    }
    return parse_relation(p);
}

static fl_expr *parse_lterm(parser *p)
{
    fl_expr *a = parse_lfactor(p);
    while (a && p->tok.kind == K_AND) {
        fl_loc loc = p->tok.loc;
        advance(p);
        fl_expr *b = parse_lfactor(p);
        if (!b) return NULL;
        a = binary(loc, K_AND, a, b);
    }
    return a;
}

static fl_expr *parse_lexpr(parser *p)
{
    fl_expr *a = parse_lterm(p);
    while (a && p->tok.kind == K_OR) {
        fl_loc loc = p->tok.loc;
        advance(p);
        fl_expr *b = parse_lterm(p);
        if (!b) return NULL;
        a = binary(loc, K_OR, a, b);
    }
    return a;
}

static fl_expr *parse_simple(parser *p)
{
    fl_expr *a = parse_lexpr(p);
    if (a && p->tok.kind == T_COLON) {
        fl_loc loc = p->tok.loc;
        advance(p);
        fl_expr *b = parse_lexpr(p);
        fl_expr *c = NULL;
        if (b && accept(p, T_COLON)) {
            c = b; /* a : step : b */
            b = parse_lexpr(p);
        }
        if (!b) return NULL;
        fl_expr *r = new_expr(EX_RANGE, loc);
        r->a = a;
        r->b = b;
        r->c = c;
        return r;
    }
    return a;
}

static fl_expr *parse_if_or_simple(parser *p);

/* Every nested expression (parentheses, arguments, subscripts, array
 * elements, if branches) comes through here: that is where its depth is
 * counted. */
static fl_expr *parse_expr(parser *p)
{
    if (p->failed || !enter_nesting(p, "expression")) return NULL;
    fl_expr *e = parse_if_or_simple(p);
    p->nesting--;
    return e;
}

static fl_expr *parse_if_or_simple(parser *p)
{
    if (p->tok.kind == K_IF) {
        fl_loc loc = p->tok.loc;
        advance(p);
        fl_expr *cond = parse_expr(p);
        expect(p, K_THEN, "'then'");
        fl_expr *then = parse_expr(p);
        fl_expr *els = NULL;
        if (p->tok.kind == K_ELSEIF) {
            p->tok.kind = K_IF; /* treat "elseif" as a nested "if" */
            els = parse_expr(p);
        } else {
            expect(p, K_ELSE, "'else'");
            els = parse_expr(p);
        }
        if (!cond || !then || !els) return NULL;
        fl_expr *e = new_expr(EX_IF, loc);
        e->a = cond;
        e->b = then;
        e->c = els;
        return e;
    }
    return parse_simple(p);
}

/* ------------------------------------------------------------------------
 * Modifications, annotations
 * ------------------------------------------------------------------------ */

static int parse_mod_list(parser *p, fl_mod **out, int *nout);
static void skip_annotation(parser *p, fl_experiment_ast *exp);

static void skip_string_comment(parser *p, char **comment)
{
    if (p->tok.kind != T_STRING) return;
    fl_buf b = {0};
    while (p->tok.kind == T_STRING) {
        fl_buf_add(&b, p->tok.str);
        advance(p);
        if (p->tok.kind == T_PLUS && peek(p)->kind == T_STRING) advance(p);
        else break;
    }
    if (comment) *comment = abuf(&b);
    else fl_buf_free(&b);
}

/* comment: [string] [annotation(...)] */
static void parse_comment(parser *p, char **comment, fl_experiment_ast *exp)
{
    skip_string_comment(p, comment);
    if (p->tok.kind == K_ANNOTATION) skip_annotation(p, exp);
}

/* One argument of a modification list. Supports
 *   [each] [final] name [(mods)] [= expr] [string-comment]
 *   [each] [final] name := expr
 *   redeclare/replaceable forms are rejected. */
static int parse_mod(parser *p, fl_mod *m)
{
    memset(m, 0, sizeof *m);
    for (;;) {
        if (accept(p, K_EACH)) m->is_each = 1;
        else if (accept(p, K_FINAL)) m->is_final = 1;
        else break;
    }
    if (p->tok.kind == K_REDECLARE || p->tok.kind == K_REPLACEABLE) {
        fl_err(p->diag, p->tok.loc, "'%s' modifications are not supported", fl_tok_name(p->tok.kind));
        p->failed = 1;
        return 0;
    }
    m->loc = p->tok.loc;
    m->name = parse_dotted_name(p, "a modifier name");
    if (!m->name) return 0;
    if (p->tok.kind == T_LPAREN) {
        if (!parse_mod_list(p, &m->subs, &m->nsubs)) return 0;
    }
    if (p->tok.kind == T_EQ || p->tok.kind == T_ASSIGN) {
        advance(p);
        m->value = parse_expr(p);
        if (!m->value) return 0;
    }
    skip_string_comment(p, NULL);
    return !p->failed;
}

/* Leaf assignments of a modification as dotted paths ("s.start"). */
typedef struct mod_leaf {
    char *path;
    fl_loc loc;
} mod_leaf;
typedef FL_VEC(mod_leaf) mod_leaves;

static void collect_leaves(const fl_mod *mods, int n, const char *prefix, mod_leaves *out)
{
    for (int i = 0; i < n; i++) {
        char *path = fl_xsprintf("%s%s%s", prefix, prefix[0] ? "." : "", mods[i].name);
        if (mods[i].value) {
            mod_leaf l = {fl_xstrdup(path), mods[i].loc};
            FL_VEC_PUSH(*out, l);
        }
        collect_leaves(mods[i].subs, mods[i].nsubs, path, out);
        free(path);
    }
}

/* The first of n (path, location) pairs whose path came before: a short
 * list is compared pairwise, a long one through a hash map (a modifier
 * list may have thousands of arguments). */
static int first_repeat(const mod_leaf *v, size_t n, size_t *earlier)
{
    if (n <= 16) {
        for (size_t i = 1; i < n; i++)
            for (size_t j = 0; j < i; j++)
                if (strcmp(v[i].path, v[j].path) == 0) {
                    *earlier = j;
                    return (int)i;
                }
        return -1;
    }
    fl_map seen = {0};
    int found = -1;
    for (size_t i = 0; i < n && found < 0; i++) {
        int j = fl_map_get(&seen, v[i].path);
        if (j >= 0) {
            *earlier = (size_t)j;
            found = (int)i;
        } else {
            fl_map_put(&seen, v[i].path, (int)i);
        }
    }
    fl_map_free(&seen);
    return found;
}

/* Two arguments of a modification must not set the same attribute. */
static void check_duplicate_mods(parser *p, const fl_mod *mods, int n)
{
    int flat = 1;
    for (int i = 0; i < n && flat; i++) flat = mods[i].nsubs == 0;
    mod_leaves leaves = {0};
    if (flat) { /* the common case: plain name = value pairs, no paths to build */
        for (int i = 0; i < n; i++)
            if (mods[i].value) {
                mod_leaf l = {mods[i].name, mods[i].loc};
                FL_VEC_PUSH(leaves, l);
            }
    } else {
        collect_leaves(mods, n, "", &leaves);
    }
    size_t j = 0;
    int i = first_repeat(leaves.v, leaves.n, &j);
    if (i >= 0) {
        fl_err(p->diag, leaves.v[i].loc, "'%s' is modified twice (first at %d:%d)", leaves.v[i].path,
               leaves.v[j].loc.line, leaves.v[j].loc.col);
        p->failed = 1;
    }
    if (!flat)
        for (size_t k = 0; k < leaves.n; k++) free(leaves.v[k].path);
    FL_VEC_FREE(leaves);
}

static int parse_mod_list(parser *p, fl_mod **out, int *nout)
{
    *out = NULL;
    *nout = 0;
    if (!enter_nesting(p, "modification")) return 0;
    FL_VEC(fl_mod) mods = {0};
    advance(p); /* ( */
    if (p->tok.kind != T_RPAREN) {
        do {
            fl_mod m;
            if (!parse_mod(p, &m)) break;
            FL_VEC_PUSH(mods, m);
        } while (accept(p, T_COMMA));
    }
    expect(p, T_RPAREN, "')'");
    *nout = (int)mods.n;
    *out = avec(mods.v, mods.n, sizeof *mods.v);
    if (!p->failed) check_duplicate_mods(p, *out, *nout);
    p->nesting--;
    return !p->failed;
}

/* Skip tokens of one balanced item until ',' or the closing bracket at depth 0. */
static void skip_balanced_item(parser *p)
{
    int depth = 0;
    while (!p->failed && p->tok.kind != T_EOF) {
        fl_tok_kind k = p->tok.kind;
        if (depth == 0 && (k == T_COMMA || k == T_RPAREN)) return;
        if (k == T_LPAREN || k == T_LBRACE || k == T_LBRACK) depth++;
        if (k == T_RPAREN || k == T_RBRACE || k == T_RBRACK) depth--;
        advance(p);
    }
}

static double mod_number(parser *p, const fl_mod *m, int *ok)
{
    const fl_expr *e = m->value;
    double sign = 1;
    if (e && e->kind == EX_UNARY && e->op == T_MINUS) {
        sign = -1;
        e = e->a;
    }
    if (!e || e->kind != EX_NUM) {
        fl_err(p->diag, m->loc, "experiment(%s = ...) must be a number", m->name);
        *ok = 0;
        return 0;
    }
    return sign * e->num;
}

/* annotation(... experiment(StartTime=..., ...) ...): everything except the
 * experiment settings is skipped without interpreting it. */
static void skip_annotation(parser *p, fl_experiment_ast *exp)
{
    advance(p); /* annotation */
    if (p->tok.kind != T_LPAREN) {
        syntax_error(p, "'(' after 'annotation'");
        return;
    }
    advance(p);
    while (!p->failed && p->tok.kind != T_RPAREN && p->tok.kind != T_EOF) {
        if (exp && p->tok.kind == T_IDENT && p->tok.len == 10 &&
            memcmp(p->tok.start, "experiment", 10) == 0 && peek(p)->kind == T_LPAREN) {
            fl_loc loc = p->tok.loc;
            advance(p);
            fl_mod *mods = NULL;
            int n = 0;
            if (parse_mod_list(p, &mods, &n)) {
                exp->loc = loc;
                for (int i = 0; i < n; i++) {
                    int ok = 1;
                    const char *nm = mods[i].name;
                    if (!mods[i].value) continue;
                    if (strcmp(nm, "StartTime") == 0) {
                        exp->start = mod_number(p, &mods[i], &ok);
                        exp->has_start = ok;
                    } else if (strcmp(nm, "StopTime") == 0) {
                        exp->stop = mod_number(p, &mods[i], &ok);
                        exp->has_stop = ok;
                    } else if (strcmp(nm, "Interval") == 0) {
                        exp->interval = mod_number(p, &mods[i], &ok);
                        exp->has_interval = ok;
                    } else if (strcmp(nm, "Tolerance") == 0) {
                        exp->tolerance = mod_number(p, &mods[i], &ok);
                        exp->has_tolerance = ok;
                    }
                    if (!ok) p->failed = 1;
                }
            }
        } else {
            skip_balanced_item(p);
        }
        if (!accept(p, T_COMMA)) break;
    }
    expect(p, T_RPAREN, "')' closing the annotation");
}

/* ------------------------------------------------------------------------
 * Class bodies
 * ------------------------------------------------------------------------ */

static fl_class_ast *parse_class(parser *p, fl_class_ast *parent, unsigned prefixes);

static int is_class_keyword(fl_tok_kind k)
{
    return k == K_MODEL || k == K_PACKAGE || k == K_BLOCK || k == K_CONNECTOR || k == K_RECORD ||
           k == K_TYPE || k == K_FUNCTION || k == K_CLASS || k == K_OPERATOR ||
           k == K_EXPANDABLE || k == K_PURE || k == K_IMPURE;
}

static int parse_import(parser *p, fl_class_ast *c)
{
    fl_import im;
    memset(&im, 0, sizeof im);
    im.loc = p->tok.loc;
    advance(p); /* import */
    if (p->tok.kind == T_IDENT && peek(p)->kind == T_EQ) {
        im.alias = tok_text(&p->tok);
        advance(p);
        advance(p);
        im.path = parse_dotted_name(p, "a package name");
    } else {
        if (p->tok.kind != T_IDENT) {
            syntax_error(p, "a package name after 'import'");
            return 0;
        }
        fl_buf b = {0};
        fl_buf_addn(&b, p->tok.start, (size_t)p->tok.len);
        advance(p);
        while (p->tok.kind == T_DOT || p->tok.kind == T_DSTAR) {
            if (p->tok.kind == T_DSTAR) { /* ".*" lexes as the element-wise operator */
                im.wildcard = 1;
                advance(p);
                break;
            }
            advance(p);
            if (p->tok.kind == T_STAR) {
                im.wildcard = 1;
                advance(p);
                break;
            }
            if (p->tok.kind == T_LBRACE) {
                advance(p);
                FL_VEC(char *) names = {0};
                do {
                    if (p->tok.kind != T_IDENT) {
                        syntax_error(p, "a name");
                        break;
                    }
                    FL_VEC_PUSH(names, tok_text(&p->tok));
                    advance(p);
                } while (accept(p, T_COMMA));
                expect(p, T_RBRACE, "'}'");
                im.nnames = (int)names.n;
                im.names = avec(names.v, names.n, sizeof *names.v);
                break;
            }
            if (p->tok.kind != T_IDENT) {
                syntax_error(p, "a name after '.'");
                break;
            }
            fl_buf_addc(&b, '.');
            fl_buf_addn(&b, p->tok.start, (size_t)p->tok.len);
            advance(p);
        }
        im.path = abuf(&b);
    }
    parse_comment(p, NULL, NULL);
    expect(p, T_SEMI, "';' after import");
    FL_VEC_PUSH(c->imports, im);
    return !p->failed;
}

static int parse_extends(parser *p, fl_class_ast *c)
{
    fl_extends ex;
    memset(&ex, 0, sizeof ex);
    ex.loc = p->tok.loc;
    advance(p); /* extends */
    ex.base = parse_dotted_name(p, "a class name after 'extends'");
    if (!ex.base) return 0;
    if (p->tok.kind == T_LPAREN) parse_mod_list(p, &ex.mods, &ex.nmods);
    if (p->tok.kind == K_ANNOTATION) skip_annotation(p, NULL);
    expect(p, T_SEMI, "';' after extends clause");
    FL_VEC_PUSH(c->extends, ex);
    return !p->failed;
}

static unsigned parse_prefixes(parser *p)
{
    unsigned pf = 0;
    for (;;) {
        switch (p->tok.kind) {
        case K_PARAMETER: pf |= FL_PFX_PARAMETER; break;
        case K_CONSTANT: pf |= FL_PFX_CONSTANT; break;
        case K_INPUT: pf |= FL_PFX_INPUT; break;
        case K_OUTPUT: pf |= FL_PFX_OUTPUT; break;
        case K_FINAL: pf |= FL_PFX_FINAL; break;
        case K_FLOW: pf |= FL_PFX_FLOW; break;
        case K_STREAM: pf |= FL_PFX_STREAM; break;
        case K_DISCRETE: pf |= FL_PFX_DISCRETE; break;
        case K_REPLACEABLE: pf |= FL_PFX_REPLACEABLE; break;
        case K_INNER: pf |= FL_PFX_INNER; break;
        case K_OUTER: pf |= FL_PFX_OUTER; break;
        case K_REDECLARE:
            fl_err(p->diag, p->tok.loc, "'redeclare' is not supported");
            p->failed = 1;
            return pf;
        default:
            return pf;
        }
        advance(p);
    }
}

static void parse_dims(parser *p, fl_expr ***dims, int *ndims)
{
    fl_ref_part tmp = {NULL, NULL, 0};
    parse_subscripts(p, &tmp);
    *dims = tmp.subs;
    *ndims = tmp.nsubs;
}

/* Type a(...), b(...) "comment" annotation(...); -- one or more components. */
static int parse_component_clause(parser *p, fl_class_ast *c, unsigned prefixes)
{
    fl_loc type_loc = p->tok.loc;
    char *type = parse_dotted_name(p, "a type name");
    if (!type) return 0;
    fl_expr **tdims = NULL;
    int ntdims = 0;
    if (p->tok.kind == T_LBRACK) parse_dims(p, &tdims, &ntdims);
    do {
        fl_decl d;
        memset(&d, 0, sizeof d);
        d.loc = type_loc;
        d.prefix = prefixes;
        d.type = type; /* the declarations of one clause share their type (the tree is read-only) */
        d.type_loc = type_loc;
        d.type_dims = tdims;
        d.ntype_dims = ntdims;
        if (p->tok.kind != T_IDENT) {
            syntax_error(p, "a component name");
            FL_VEC_PUSH(c->decls, d);
            return 0;
        }
        d.name = tok_text(&p->tok);
        d.name_loc = p->tok.loc;
        advance(p);
        if (p->tok.kind == T_LBRACK) parse_dims(p, &d.dims, &d.ndims);
        if (p->tok.kind == T_LPAREN) parse_mod_list(p, &d.mods, &d.nmods);
        if (p->tok.kind == T_EQ || p->tok.kind == T_ASSIGN) {
            advance(p);
            d.binding = parse_expr(p);
        }
        if (p->tok.kind == K_IF) {
            advance(p);
            d.cond = parse_expr(p);
        }
        parse_comment(p, &d.comment, NULL);
        FL_VEC_PUSH(c->decls, d);
        if (p->failed) return 0;
    } while (accept(p, T_COMMA));
    if (p->tok.kind == K_CONSTRAINEDBY) {
        fl_err(p->diag, p->tok.loc, "'constrainedby' is not supported");
        p->failed = 1;
        return 0;
    }
    expect(p, T_SEMI, "';' after a declaration");
    return !p->failed;
}

/* ---- equations and statements ---------------------------------------------- */

static void add_unsupported(fl_class_ast *c, fl_loc loc, const char *what)
{
    fl_unsupported u = {loc, fl_arena_strn(ar, what, strlen(what))};
    FL_VEC_PUSH(c->unsupported, u);
}

/* Equations and statements nest (if, for, when inside each other); their
 * depth counts like that of expressions. */
static int block_enter(parser *p)
{
    if (p->block_depth >= FL_MAX_BLOCK_NESTING) {
        if (!p->failed)
            fl_err(p->diag, p->tok.loc, "equations or statements nested more than %d levels deep", FL_MAX_BLOCK_NESTING);
        p->failed = 1;
        return 0;
    }
    p->block_depth++;
    return 1;
}

/* i in range {, j in range} */
static int parse_iterators(parser *p, fl_iter **out, int *n)
{
    FL_VEC(fl_iter) its = {0};
    do {
        fl_iter it;
        memset(&it, 0, sizeof it);
        it.loc = p->tok.loc;
        if (p->tok.kind != T_IDENT) {
            syntax_error(p, "an iterator name");
            break;
        }
        it.name = tok_text(&p->tok);
        advance(p);
        if (p->tok.kind != K_IN) {
            if (!p->failed)
                fl_err(p->diag, p->tok.loc, "a for-loop needs its range ('for %s in 1:n'); implicit ranges are not "
                                            "supported",
                       it.name);
            p->failed = 1;
            break;
        }
        advance(p);
        it.range = parse_expr(p);
        if (!it.range) break;
        FL_VEC_PUSH(its, it);
    } while (accept(p, T_COMMA));
    *n = (int)its.n;
    *out = avec(its.v, its.n, sizeof *its.v);
    return !p->failed;
}

/* Does the token end a list of equations or statements? */
static int ends_list(fl_tok_kind k)
{
    return k == K_END || k == K_ELSE || k == K_ELSEIF || k == K_ELSEWHEN || k == K_EQUATION || k == K_ALGORITHM ||
           k == K_PUBLIC || k == K_PROTECTED || k == K_INITIAL || k == K_EXTERNAL || k == K_ANNOTATION || k == T_EOF;
}

/* 'end' followed by the keyword that closes the construct, then ';' */
static int expect_end(parser *p, fl_tok_kind kw, const char *what)
{
    if (!expect(p, K_END, what)) return 0;
    if (p->tok.kind != kw) {
        syntax_error(p, what);
        return 0;
    }
    advance(p);
    return expect(p, T_SEMI, "';'");
}

static int parse_equation(parser *p, fl_eq *q);

/* Equations up to a token that ends the list. */
static int parse_eq_list(parser *p, fl_eq **out, int *n)
{
    FL_VEC(fl_eq) v = {0};
    while (!p->failed && !ends_list(p->tok.kind)) {
        fl_eq q;
        if (!parse_equation(p, &q)) break;
        FL_VEC_PUSH(v, q);
    }
    *n = (int)v.n;
    *out = avec(v.v, v.n, sizeof *v.v);
    return !p->failed;
}

/* if/when with elseif/elsewhen branches; closes with 'end if' / 'end when'. */
static int parse_eq_branches(parser *p, fl_eq *q, fl_tok_kind open, fl_tok_kind mid)
{
    FL_VEC(fl_eqbranch) br = {0};
    for (;;) {
        fl_eqbranch b;
        memset(&b, 0, sizeof b);
        advance(p); /* if / elseif / when / elsewhen */
        b.cond = parse_expr(p);
        if (!b.cond) break;
        if (!expect(p, K_THEN, "'then'")) break;
        if (!parse_eq_list(p, &b.eqs, &b.n)) break;
        FL_VEC_PUSH(br, b);
        if (p->tok.kind == mid) continue;
        if (open == K_IF && p->tok.kind == K_ELSE) {
            fl_eqbranch e;
            memset(&e, 0, sizeof e);
            advance(p);
            if (!parse_eq_list(p, &e.eqs, &e.n)) break;
            FL_VEC_PUSH(br, e);
        }
        break;
    }
    q->nbr = (int)br.n;
    q->br = avec(br.v, br.n, sizeof *br.v);
    if (p->failed) return 0;
    return expect_end(p, open, open == K_IF ? "'end if'" : "'end when'");
}

static int parse_equation(parser *p, fl_eq *q)
{
    memset(q, 0, sizeof *q);
    q->loc = p->tok.loc;
    if (!block_enter(p)) return 0;
    int ok = 1;
    switch (p->tok.kind) {
    case K_CONNECT:
        q->kind = EQ_CONNECT;
        q->conn.loc = p->tok.loc;
        advance(p);
        if (!expect(p, T_LPAREN, "'(' after connect")) {
            ok = 0;
            break;
        }
        q->conn.loc_a = p->tok.loc;
        parse_ref(p, &q->conn.a);
        expect(p, T_COMMA, "',' between the connectors");
        q->conn.loc_b = p->tok.loc;
        parse_ref(p, &q->conn.b);
        expect(p, T_RPAREN, "')'");
        parse_comment(p, NULL, NULL);
        ok = expect(p, T_SEMI, "';' after connect(...)");
        break;
    case K_IF:
        q->kind = EQ_IF;
        ok = parse_eq_branches(p, q, K_IF, K_ELSEIF);
        break;
    case K_WHEN:
        q->kind = EQ_WHEN;
        ok = parse_eq_branches(p, q, K_WHEN, K_ELSEWHEN);
        break;
    case K_FOR:
        q->kind = EQ_FOR;
        advance(p);
        ok = parse_iterators(p, &q->iters, &q->niters) && expect(p, K_LOOP, "'loop'") &&
             parse_eq_list(p, &q->body, &q->nbody) && expect_end(p, K_FOR, "'end for'");
        break;
    default: {
        fl_expr *lhs = parse_simple(p);
        if (!lhs) {
            ok = 0;
            break;
        }
        if (accept(p, T_EQ)) {
            q->kind = EQ_EQUAL;
            q->lhs = lhs;
            q->rhs = parse_expr(p);
            if (!q->rhs) {
                ok = 0;
                break;
            }
        } else if (lhs->kind == EX_CALL) {
            q->kind = EQ_CALL;
            q->rhs = lhs;
        } else {
            syntax_error(p, "'=' in an equation");
            ok = 0;
            break;
        }
        parse_comment(p, NULL, NULL);
        ok = expect(p, T_SEMI, "';' after an equation");
        break;
    }
    }
    p->block_depth--;
    return ok && !p->failed;
}

static int parse_equation_section(parser *p, fl_class_ast *c, int initial)
{
    while (!p->failed && !ends_list(p->tok.kind)) {
        fl_eq q;
        if (!parse_equation(p, &q)) return 0;
        if (q.kind == EQ_CONNECT && !initial) {
            FL_VEC_PUSH(c->connects, q.conn); /* the plain connects of big models stay cheap */
        } else if (initial) {
            FL_VEC_PUSH(c->ieqs, q);
        } else {
            FL_VEC_PUSH(c->eqs, q);
        }
    }
    return !p->failed;
}

static int parse_statement(parser *p, fl_stmt *s);

static int parse_st_list(parser *p, fl_stmt **out, int *n)
{
    FL_VEC(fl_stmt) v = {0};
    while (!p->failed && !ends_list(p->tok.kind)) {
        fl_stmt s;
        if (!parse_statement(p, &s)) break;
        FL_VEC_PUSH(v, s);
    }
    *n = (int)v.n;
    *out = avec(v.v, v.n, sizeof *v.v);
    return !p->failed;
}

static int parse_st_branches(parser *p, fl_stmt *s, fl_tok_kind open, fl_tok_kind mid)
{
    FL_VEC(fl_stbranch) br = {0};
    for (;;) {
        fl_stbranch b;
        memset(&b, 0, sizeof b);
        advance(p);
        b.cond = parse_expr(p);
        if (!b.cond) break;
        if (!expect(p, K_THEN, "'then'")) break;
        if (!parse_st_list(p, &b.st, &b.n)) break;
        FL_VEC_PUSH(br, b);
        if (p->tok.kind == mid) continue;
        if (open == K_IF && p->tok.kind == K_ELSE) {
            fl_stbranch e;
            memset(&e, 0, sizeof e);
            advance(p);
            if (!parse_st_list(p, &e.st, &e.n)) break;
            FL_VEC_PUSH(br, e);
        }
        break;
    }
    s->nbr = (int)br.n;
    s->br = avec(br.v, br.n, sizeof *br.v);
    if (p->failed) return 0;
    return expect_end(p, open, open == K_IF ? "'end if'" : "'end when'");
}

static int parse_statement(parser *p, fl_stmt *s)
{
    memset(s, 0, sizeof *s);
    s->loc = p->tok.loc;
    if (!block_enter(p)) return 0;
    int ok = 1;
    switch (p->tok.kind) {
    case K_IF:
        s->kind = ST_IF;
        ok = parse_st_branches(p, s, K_IF, K_ELSEIF);
        break;
    case K_WHEN:
        s->kind = ST_WHEN;
        ok = parse_st_branches(p, s, K_WHEN, K_ELSEWHEN);
        break;
    case K_FOR:
        s->kind = ST_FOR;
        advance(p);
        ok = parse_iterators(p, &s->iters, &s->niters) && expect(p, K_LOOP, "'loop'") &&
             parse_st_list(p, &s->body, &s->nbody) && expect_end(p, K_FOR, "'end for'");
        break;
    case K_WHILE: {
        s->kind = ST_WHILE;
        fl_stbranch *b = anew(sizeof *b);
        advance(p);
        b->cond = parse_expr(p);
        ok = b->cond && expect(p, K_LOOP, "'loop'") && parse_st_list(p, &b->st, &b->n) &&
             expect_end(p, K_WHILE, "'end while'");
        s->br = b;
        s->nbr = 1;
        break;
    }
    case K_RETURN:
    case K_BREAK:
        s->kind = p->tok.kind == K_RETURN ? ST_RETURN : ST_BREAK;
        advance(p);
        parse_comment(p, NULL, NULL);
        ok = expect(p, T_SEMI, "';'");
        break;
    default: {
        fl_expr *lhs = parse_simple(p);
        if (!lhs) {
            ok = 0;
            break;
        }
        if (accept(p, T_ASSIGN)) {
            s->kind = ST_ASSIGN;
            s->lhs = lhs;
            s->rhs = parse_expr(p);
            if (!s->rhs) {
                ok = 0;
                break;
            }
        } else if (lhs->kind == EX_CALL) {
            s->kind = ST_CALL;
            s->rhs = lhs;
        } else {
            if (!p->failed && p->tok.kind == T_EQ)
                fl_err(p->diag, p->tok.loc, "syntax error: statements assign with ':=', not '='");
            else
                syntax_error(p, "':=' in a statement");
            p->failed = 1;
            ok = 0;
            break;
        }
        parse_comment(p, NULL, NULL);
        ok = expect(p, T_SEMI, "';' after a statement");
        break;
    }
    }
    p->block_depth--;
    return ok && !p->failed;
}

static void parse_algorithm_section(parser *p, fl_class_ast *c, int initial, fl_loc loc)
{
    fl_algorithm a;
    memset(&a, 0, sizeof a);
    a.initial = initial;
    a.loc = loc;
    if (parse_st_list(p, &a.st, &a.n)) FL_VEC_PUSH(c->algs, a);
}

static int parse_body(parser *p, fl_class_ast *c)
{
    int in_protected = 0;
    for (;;) {
        if (p->failed) return 0;
        fl_tok_kind k = p->tok.kind;
        if (k == K_END || k == T_EOF) return 1;
        if (k == K_PUBLIC) {
            in_protected = 0;
            advance(p);
            continue;
        }
        if (k == K_PROTECTED) {
            in_protected = 1;
            advance(p);
            continue;
        }
        if (k == K_EQUATION) {
            advance(p);
            parse_equation_section(p, c, 0);
            continue;
        }
        if (k == K_INITIAL && peek(p)->kind == K_EQUATION) {
            advance(p);
            advance(p);
            parse_equation_section(p, c, 1);
            continue;
        }
        if (k == K_ALGORITHM || (k == K_INITIAL && peek(p)->kind == K_ALGORITHM)) {
            fl_loc loc = p->tok.loc;
            if (k == K_INITIAL) advance(p);
            advance(p);
            parse_algorithm_section(p, c, k == K_INITIAL, loc);
            continue;
        }
        if (k == K_EXTERNAL) {
            /* external "C" ...: recorded, an error when the function is used */
            add_unsupported(c, p->tok.loc, "external functions");
            while (!p->failed && p->tok.kind != T_SEMI && p->tok.kind != T_EOF) advance(p);
            expect(p, T_SEMI, "';' after the external clause");
            continue;
        }
        if (k == K_ANNOTATION) { /* class annotation */
            skip_annotation(p, &c->experiment);
            expect(p, T_SEMI, "';' after the class annotation");
            continue;
        }
        if (k == K_IMPORT) {
            parse_import(p, c);
            continue;
        }
        if (k == K_EXTENDS) {
            parse_extends(p, c);
            continue;
        }
        unsigned pf = 0;
        int partial = 0;
        if (k == K_ENCAPSULATED) advance(p);
        if (p->tok.kind == K_PARTIAL) {
            partial = 1;
            advance(p);
        }
        pf = parse_prefixes(p);
        if (p->failed) return 0;
        if (is_class_keyword(p->tok.kind)) {
            fl_class_ast *sub = parse_class(p, c, pf);
            if (!sub) return 0;
            sub->partial |= partial;
            FL_VEC_PUSH(c->classes, sub);
            continue;
        }
        if (p->tok.kind == T_IDENT || p->tok.kind == T_DOT) {
            if (in_protected) pf |= FL_PFX_PROTECTED;
            parse_component_clause(p, c, pf);
            continue;
        }
        syntax_error(p, "a declaration, 'equation' or 'end'");
        return 0;
    }
}

static fl_class_kind class_kind(parser *p)
{
    /* prefixes like "expandable connector", "pure function", "operator record" */
    while (p->tok.kind == K_EXPANDABLE || p->tok.kind == K_PURE || p->tok.kind == K_IMPURE)
        advance(p);
    fl_tok_kind k = p->tok.kind;
    advance(p);
    switch (k) {
    case K_MODEL: return CK_MODEL;
    case K_PACKAGE: return CK_PACKAGE;
    case K_BLOCK: return CK_BLOCK;
    case K_CONNECTOR: return CK_CONNECTOR;
    case K_RECORD: return CK_RECORD;
    case K_TYPE: return CK_TYPE;
    case K_FUNCTION: return CK_FUNCTION;
    case K_OPERATOR:
        if (p->tok.kind == K_RECORD || p->tok.kind == K_FUNCTION) advance(p);
        return CK_OPERATOR;
    default: return CK_CLASS;
    }
}

static fl_class_ast *parse_class_body(parser *p, fl_class_ast *parent);

/* Classes nest by recursion (and instantiation and the name lookup walk
 * the nesting): their depth is limited like that of expressions. */
static fl_class_ast *parse_class(parser *p, fl_class_ast *parent, unsigned prefixes)
{
    FL_UNUSED(prefixes);
    if (p->class_depth >= FL_MAX_CLASS_DEPTH) {
        if (!p->failed)
            fl_err(p->diag, p->tok.loc, "class nested more than %d levels deep", FL_MAX_CLASS_DEPTH);
        p->failed = 1;
        return NULL;
    }
    p->class_depth++;
    fl_class_ast *c = parse_class_body(p, parent);
    p->class_depth--;
    return c;
}

static fl_class_ast *parse_class_body(parser *p, fl_class_ast *parent)
{
    fl_class_ast *c = anew(sizeof *c);
    c->parent = parent;
    c->loc = p->tok.loc;
    c->kind = class_kind(p);
    if (p->tok.kind != T_IDENT) {
        syntax_error(p, "a class name");
        fl_class_free(c);
        return NULL;
    }
    c->name = tok_text(&p->tok);
    c->loc = p->tok.loc;
    advance(p);
    if (p->tok.kind == T_EQ) { /* short class definition */
        advance(p);
        if (p->tok.kind == K_ENUMERATION) {
            advance(p);
            c->is_enum = 1;
            expect(p, T_LPAREN, "'('");
            FL_VEC(char *) lits = {0};
            if (p->tok.kind != T_RPAREN) {
                do {
                    if (p->tok.kind == T_COLON) {
                        advance(p);
                        break;
                    }
                    if (p->tok.kind != T_IDENT) {
                        syntax_error(p, "an enumeration literal");
                        break;
                    }
                    FL_VEC_PUSH(lits, tok_text(&p->tok));
                    advance(p);
                    parse_comment(p, NULL, NULL);
                } while (accept(p, T_COMMA));
            }
            expect(p, T_RPAREN, "')'");
            c->nenum = (int)lits.n;
            c->enum_lits = avec(lits.v, lits.n, sizeof *lits.v);
        } else {
            parse_prefixes(p);
            fl_loc base_loc = p->tok.loc;
            c->short_base = parse_dotted_name(p, "a type name");
            fl_mod *mods = NULL;
            int nmods = 0;
            if (p->tok.kind == T_LBRACK) {
                fl_expr **dims = NULL;
                int nd = 0;
                if (c->kind != CK_TYPE && !p->failed) {
                    fl_err(p->diag, p->tok.loc, "array dimensions in a short class definition are not supported");
                    p->failed = 1;
                }
                parse_dims(p, &dims, &nd);
            }
            if (p->tok.kind == T_LPAREN) parse_mod_list(p, &mods, &nmods);
            if (c->kind != CK_TYPE && c->short_base) {
                /* model M2 = M(m = 2) is model M2 extends M(m = 2); end M2 */
                fl_extends e = {c->short_base, base_loc, mods, nmods};
                FL_VEC_PUSH(c->extends, e);
                c->short_base = NULL;
            }
        }
        parse_comment(p, &c->comment, &c->experiment);
        expect(p, T_SEMI, "';' after a short class definition");
        if (p->failed) {
            fl_class_free(c);
            return NULL;
        }
        return c;
    }
    if (p->tok.kind == T_LPAREN) { /* model M(mods) -- class modification on a long definition */
        fl_mod *mods = NULL;
        int n = 0;
        parse_mod_list(p, &mods, &n);
    }
    skip_string_comment(p, &c->comment);
    parse_body(p, c);
    if (p->failed) {
        fl_class_free(c);
        return NULL;
    }
    /* a big model's declarations and equations: no growth slack while they are instantiated */
    FL_VEC_SHRINK(c->decls);
    FL_VEC_SHRINK(c->connects);
    FL_VEC_SHRINK(c->eqs);
    FL_VEC_SHRINK(c->ieqs);
    fl_loc end_loc = p->tok.loc;
    if (!expect(p, K_END, "'end'")) {
        fl_class_free(c);
        return NULL;
    }
    if (p->tok.kind != T_IDENT || (size_t)p->tok.len != strlen(c->name) ||
        memcmp(p->tok.start, c->name, (size_t)p->tok.len) != 0) {
        if (!p->failed) {
            if (p->tok.kind == T_IDENT)
                fl_err(p->diag, p->tok.loc, "'end %.*s' does not match '%s %s' opened at line %d",
                       p->tok.len, p->tok.start, c->kind == CK_PACKAGE ? "package" : "model", c->name,
                       c->loc.line);
            else
                fl_err(p->diag, end_loc, "expected 'end %s;'", c->name);
            p->failed = 1;
        }
        fl_class_free(c);
        return NULL;
    }
    advance(p);
    if (!expect(p, T_SEMI, "';' after 'end'")) {
        fl_class_free(c);
        return NULL;
    }
    return c;
}

/* Out of memory while parsing: the tree so far and the lexer's strings are
 * freed, and the arena of the enclosing parse (if any) is current again. */
typedef struct parse_undo {
    fl_file_ast *f;
    fl_arena *scratch, *outer;
    fl_lexer *lx;
} parse_undo;

static void parse_cleanup(void *arg)
{
    parse_undo *u = arg;
    fl_lex_free(u->lx);
    fl_file_free(u->f);
    fl_arena_free(u->scratch);
    ar = u->outer;
}

fl_file_ast *fl_parse(const char *text, const char *path, fl_diag *d)
{
    fl_file_ast *f = fl_xcalloc(1, sizeof *f);
    f->path = fl_xstrdup(path ? path : "<string>");
    f->arena = fl_arena_new();
    ar = f->arena;
    parser p;
    memset(&p, 0, sizeof p);
    parse_undo u = {f, NULL, NULL, &p.lx};
    fl_cleanup cl;
    fl_cleanup_push(&cl, parse_cleanup, &u);
    p.diag = d;
    p.path = f->path;
    fl_lex_init(&p.lx, text, f->path, d); /* the AST keeps no pointer into text */
    advance(&p);
    if (p.tok.kind == K_WITHIN) {
        advance(&p);
        if (p.tok.kind == T_SEMI) f->within = fl_arena_strn(ar, "", 0);
        else f->within = parse_dotted_name(&p, "a package name after 'within'");
        expect(&p, T_SEMI, "';' after within");
    }
    while (!p.failed && p.tok.kind != T_EOF) {
        if (p.tok.kind == K_ENCAPSULATED) advance(&p);
        int partial = accept(&p, K_PARTIAL);
        unsigned pf = parse_prefixes(&p);
        if (!is_class_keyword(p.tok.kind)) {
            syntax_error(&p, "'model' or 'package'");
            break;
        }
        fl_class_ast *c = parse_class(&p, NULL, pf);
        if (!c) break;
        c->partial = partial;
        FL_VEC_PUSH(f->classes, c);
    }
    int failed = p.failed || p.lx.failed;
    fl_cleanup_pop(&cl);
    fl_lex_free(&p.lx);
    ar = NULL;
    if (failed) {
        fl_file_free(f);
        return NULL;
    }
    if (f->classes.n == 0) {
        fl_loc floc = {f->path, 0, 0};
        fl_err(d, floc, "no model or package in the file");
        fl_file_free(f);
        return NULL;
    }
    return f;
}

/* A lone expression is parsed in a scratch arena and handed out as an
 * ordinary heap tree (free it with fl_expr_free). */
fl_expr *fl_parse_expr(const char *text, const char *source, fl_diag *d)
{
    fl_arena *scratch = fl_arena_new(), *outer = ar;
    ar = scratch;
    parser p;
    memset(&p, 0, sizeof p);
    parse_undo u = {NULL, scratch, outer, &p.lx};
    fl_cleanup cl;
    fl_cleanup_push(&cl, parse_cleanup, &u);
    p.diag = d;
    p.path = source;
    fl_lex_init(&p.lx, text, source, d);
    advance(&p);
    fl_expr *e = parse_expr(&p);
    if (e && !p.failed && p.tok.kind != T_EOF) {
        syntax_error(&p, "end of expression");
    }
    int failed = p.failed || p.lx.failed;
    fl_lex_free(&p.lx);
    fl_expr *heap = failed ? NULL : fl_expr_clone(e);
    fl_cleanup_pop(&cl);
    fl_arena_free(scratch);
    ar = outer;
    return heap;
}
