/* lexer.h - tokens of the Modelica subset flange reads. */
#ifndef FL_LEXER_H
#define FL_LEXER_H

#include "util/diag.h"
#include "util/util.h"

typedef enum fl_tok_kind {
    T_EOF = 0,
    T_IDENT,  /* identifier, including quoted 'df/dv' (quotes kept) */
    T_NUMBER, /* unsigned integer or real literal */
    T_STRING, /* string literal, escapes decoded */
    /* punctuation */
    T_LPAREN, T_RPAREN, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK,
    T_COMMA, T_SEMI, T_DOT, T_COLON, T_ASSIGN /* := */, T_EQ /* = */,
    T_PLUS, T_MINUS, T_STAR, T_SLASH, T_CARET,
    T_DPLUS, T_DMINUS, T_DSTAR, T_DSLASH, T_DCARET, /* .+ .- .* ./ .^ */
    T_EQEQ, T_NEQ, T_LT, T_LE, T_GT, T_GE,
    /* keywords */
    T_KW_FIRST,
    K_ALGORITHM = T_KW_FIRST, K_AND, K_ANNOTATION, K_BLOCK, K_BREAK, K_CLASS, K_CONNECT,
    K_CONNECTOR, K_CONSTANT, K_CONSTRAINEDBY, K_DISCRETE, K_EACH, K_ELSE, K_ELSEIF,
    K_ELSEWHEN, K_ENCAPSULATED, K_END, K_ENUMERATION, K_EQUATION, K_EXPANDABLE, K_EXTENDS,
    K_EXTERNAL, K_FALSE, K_FINAL, K_FLOW, K_FOR, K_FUNCTION, K_IF, K_IMPORT, K_IMPURE, K_IN,
    K_INITIAL, K_INNER, K_INPUT, K_LOOP, K_MODEL, K_NOT, K_OPERATOR, K_OR, K_OUTER, K_OUTPUT,
    K_PACKAGE, K_PARAMETER, K_PARTIAL, K_PROTECTED, K_PUBLIC, K_PURE, K_RECORD, K_REDECLARE,
    K_REPLACEABLE, K_RETURN, K_STREAM, K_THEN, K_TRUE, K_TYPE, K_WHEN, K_WHILE, K_WITHIN,
    T_KW_LAST
} fl_tok_kind;

typedef struct fl_token {
    fl_tok_kind kind;
    fl_loc loc;
    const char *start; /* into the source text */
    int len;
    double num;  /* T_NUMBER */
    int is_int;  /* T_NUMBER written without '.' or exponent */
    char *str;   /* T_STRING (decoded, owned by the lexer) */
} fl_token;

typedef struct fl_lexer {
    const char *src, *p;
    const char *file;
    int line;
    const char *line_start;
    fl_diag *diag;
    int failed;
    FL_VEC(char *) strings; /* decoded string literals, freed with the lexer */
} fl_lexer;

void fl_lex_init(fl_lexer *lx, const char *src, const char *file, fl_diag *d);
void fl_lex_free(fl_lexer *lx);
/* Next token; on a lexical error reports it, sets lx->failed and returns T_EOF. */
fl_token fl_lex_next(fl_lexer *lx);
const char *fl_tok_name(fl_tok_kind k);

#endif
