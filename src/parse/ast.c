/* ast.c - freeing, copying and printing syntax trees. */
#include "ast.h"

#include <stdlib.h>
#include <string.h>

#include "lexer.h"

typedef FL_VEC(fl_expr *) expr_stack;

/* Frees a heap tree with an explicit stack: a tree may be as deep as the
 * longest operator chain in the text. */
void fl_expr_free(fl_expr *e)
{
    expr_stack st = {0};
    while (e) {
        if (e->a) FL_VEC_PUSH(st, e->a);
        if (e->b) FL_VEC_PUSH(st, e->b);
        if (e->c) FL_VEC_PUSH(st, e->c);
        for (int i = 0; i < e->ref.n; i++) {
            for (int j = 0; j < e->ref.parts[i].nsubs; j++)
                if (e->ref.parts[i].subs[j]) FL_VEC_PUSH(st, e->ref.parts[i].subs[j]);
            free(e->ref.parts[i].name);
            free(e->ref.parts[i].subs);
        }
        free(e->ref.parts);
        for (int i = 0; i < e->nargs; i++) {
            if (e->args[i]) FL_VEC_PUSH(st, e->args[i]);
            if (e->argnames) free(e->argnames[i]);
        }
        free(e->args);
        free(e->argnames);
        free(e->str);
        free(e);
        e = st.n ? st.v[--st.n] : NULL;
    }
    FL_VEC_FREE(st);
}

static void ref_copy(fl_ref *dst, const fl_ref *src)
{
    dst->n = src->n;
    dst->parts = src->n ? fl_xcalloc((size_t)src->n, sizeof *dst->parts) : NULL;
    for (int i = 0; i < src->n; i++) {
        dst->parts[i].name = fl_xstrdup(src->parts[i].name);
        dst->parts[i].nsubs = src->parts[i].nsubs;
        if (src->parts[i].nsubs) {
            dst->parts[i].subs = fl_xmalloc(sizeof(fl_expr *) * (size_t)src->parts[i].nsubs);
            for (int j = 0; j < src->parts[i].nsubs; j++)
                dst->parts[i].subs[j] = fl_expr_clone(src->parts[i].subs[j]);
        }
    }
}

/* One node with copies of its children; a binary node's left operand is
 * left to the caller (it may head a long chain). */
static fl_expr *clone_node(const fl_expr *e, int skip_a)
{
    fl_expr *c = fl_xmalloc(sizeof *c);
    *c = *e;
    c->str = e->str ? fl_xstrdup(e->str) : NULL;
    c->a = skip_a ? NULL : fl_expr_clone(e->a);
    c->b = fl_expr_clone(e->b);
    c->c = fl_expr_clone(e->c);
    ref_copy(&c->ref, &e->ref);
    if (e->nargs) {
        c->args = fl_xmalloc(sizeof(fl_expr *) * (size_t)e->nargs);
        for (int i = 0; i < e->nargs; i++) c->args[i] = fl_expr_clone(e->args[i]);
    } else {
        c->args = NULL;
    }
    if (e->argnames) {
        c->argnames = fl_xcalloc((size_t)e->nargs, sizeof(char *));
        for (int i = 0; i < e->nargs; i++)
            c->argnames[i] = e->argnames[i] ? fl_xstrdup(e->argnames[i]) : NULL;
    }
    return c;
}

/* The left spine of a chain a + b + c + ... is copied by a loop, the rest
 * by recursion (whose depth the parser's nesting limit bounds). */
fl_expr *fl_expr_clone(const fl_expr *e)
{
    if (!e) return NULL;
    FL_VEC(const fl_expr *) spine = {0};
    while (e->kind == EX_BINARY && e->a) {
        FL_VEC_PUSH(spine, e);
        e = e->a;
    }
    fl_expr *c = clone_node(e, 0);
    while (spine.n) {
        fl_expr *up = clone_node(spine.v[--spine.n], 1);
        up->a = c;
        c = up;
    }
    FL_VEC_FREE(spine);
    return c;
}

void fl_mod_free_array(fl_mod *mods, int n)
{
    for (int i = 0; i < n; i++) {
        free(mods[i].name);
        fl_mod_free_array(mods[i].subs, mods[i].nsubs);
        fl_expr_free(mods[i].value);
    }
    free(mods);
}

void fl_class_free(fl_class_ast *c)
{
    if (!c) return;
    FL_VEC_FREE(c->decls);
    FL_VEC_FREE(c->extends);
    FL_VEC_FREE(c->imports);
    FL_VEC_FREE(c->connects);
    FL_VEC_FREE(c->eqs);
    FL_VEC_FREE(c->ieqs);
    FL_VEC_FREE(c->algs);
    FL_VEC_FREE(c->unsupported);
    for (size_t i = 0; i < c->classes.n; i++) fl_class_free(c->classes.v[i]);
    FL_VEC_FREE(c->classes);
}

void fl_file_free(fl_file_ast *f)
{
    if (!f) return;
    for (size_t i = 0; i < f->classes.n; i++) fl_class_free(f->classes.v[i]);
    FL_VEC_FREE(f->classes);
    fl_arena_free(f->arena);
    free(f->path);
    free(f);
}

char *fl_ref_str(const fl_ref *r)
{
    fl_buf b = {0};
    for (int i = 0; i < r->n; i++) {
        if (i) fl_buf_addc(&b, '.');
        fl_buf_add(&b, r->parts[i].name);
        if (r->parts[i].nsubs) {
            fl_buf_addc(&b, '[');
            for (int j = 0; j < r->parts[i].nsubs; j++) {
                if (j) fl_buf_add(&b, ", ");
                fl_expr_print(&b, r->parts[i].subs[j]);
            }
            fl_buf_addc(&b, ']');
        }
    }
    return fl_buf_take(&b);
}

static const char *op_text(int op)
{
    switch (op) {
    case T_PLUS: return " + ";
    case T_MINUS: return " - ";
    case T_STAR: return "*";
    case T_SLASH: return "/";
    case T_CARET: return "^";
    case T_DSTAR: return " .* ";
    case T_DSLASH: return " ./ ";
    case T_DCARET: return " .^ ";
    case T_LT: return " < ";
    case T_LE: return " <= ";
    case T_GT: return " > ";
    case T_GE: return " >= ";
    case T_EQEQ: return " == ";
    case T_NEQ: return " <> ";
    case K_AND: return " and ";
    case K_OR: return " or ";
    default: return " ? ";
    }
}

void fl_expr_print(fl_buf *b, const fl_expr *e)
{
    if (!e) return;
    switch (e->kind) {
    case EX_NUM: {
        char tmp[40];
        fl_fmt_double(tmp, sizeof tmp, e->num);
        fl_buf_add(b, tmp);
        break;
    }
    case EX_STR:
        fl_buf_printf(b, "\"%s\"", e->str);
        break;
    case EX_BOOL:
        fl_buf_add(b, e->num != 0 ? "true" : "false");
        break;
    case EX_REF: {
        char *s = fl_ref_str(&e->ref);
        fl_buf_add(b, s);
        free(s);
        break;
    }
    case EX_UNARY:
        fl_buf_add(b, e->op == K_NOT ? "not " : e->op == T_MINUS ? "-" : "+");
        fl_expr_print(b, e->a);
        break;
    case EX_BINARY: {
        /* "((a + b) + c)": the left spine by a loop */
        FL_VEC(const fl_expr *) spine = {0};
        const fl_expr *x = e;
        for (; x->kind == EX_BINARY && x->a; x = x->a) FL_VEC_PUSH(spine, x);
        for (size_t i = 0; i < spine.n; i++) fl_buf_addc(b, '(');
        fl_expr_print(b, x);
        while (spine.n) {
            const fl_expr *y = spine.v[--spine.n];
            fl_buf_add(b, op_text(y->op));
            fl_expr_print(b, y->b);
            fl_buf_addc(b, ')');
        }
        FL_VEC_FREE(spine);
        break;
    }
    case EX_CALL: {
        char *s = fl_ref_str(&e->ref);
        fl_buf_add(b, s);
        free(s);
        fl_buf_addc(b, '(');
        for (int i = 0; i < e->nargs; i++) {
            if (i) fl_buf_add(b, ", ");
            if (e->argnames && e->argnames[i]) fl_buf_printf(b, "%s=", e->argnames[i]);
            fl_expr_print(b, e->args[i]);
        }
        fl_buf_addc(b, ')');
        break;
    }
    case EX_ARRAY:
        fl_buf_addc(b, '{');
        for (int i = 0; i < e->nargs; i++) {
            if (i) fl_buf_add(b, ", ");
            fl_expr_print(b, e->args[i]);
        }
        fl_buf_addc(b, '}');
        break;
    case EX_MATRIX:
        fl_buf_addc(b, '[');
        for (int i = 0; i < e->nargs; i++) {
            if (i) fl_buf_add(b, "; ");
            const fl_expr *row = e->args[i];
            for (int j = 0; j < row->nargs; j++) {
                if (j) fl_buf_add(b, ", ");
                fl_expr_print(b, row->args[j]);
            }
        }
        fl_buf_addc(b, ']');
        break;
    case EX_IF:
        fl_buf_add(b, "if ");
        fl_expr_print(b, e->a);
        fl_buf_add(b, " then ");
        fl_expr_print(b, e->b);
        fl_buf_add(b, " else ");
        fl_expr_print(b, e->c);
        break;
    case EX_RANGE:
        fl_expr_print(b, e->a);
        fl_buf_addc(b, ':');
        if (e->c) {
            fl_expr_print(b, e->c);
            fl_buf_addc(b, ':');
        }
        fl_expr_print(b, e->b);
        break;
    case EX_COLON:
        fl_buf_addc(b, ':');
        break;
    case EX_END:
        fl_buf_add(b, "end");
        break;
    case EX_TUPLE:
        fl_buf_addc(b, '(');
        for (int i = 0; i < e->nargs; i++) {
            if (i) fl_buf_add(b, ", ");
            fl_expr_print(b, e->args[i]);
        }
        fl_buf_addc(b, ')');
        break;
    case EX_COMPREH:
        fl_expr_print(b, e->a);
        for (int i = 0; i < e->nargs; i++) {
            fl_buf_printf(b, "%s%s in ", i ? ", " : " for ", e->argnames[i]);
            fl_expr_print(b, e->args[i]);
        }
        break;
    }
}
