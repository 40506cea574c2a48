/* Schema expressions: C-like syntax, parsed to a tree the checker then resolves. */
#ifndef BFGEN_EXPR_H
#define BFGEN_EXPR_H

#include <stdint.h>

#include "diag.h"

typedef enum {
    EX_INT,    /* 42, 0x1F, 0b101, 'O' */
    EX_FLOAT,  /* 256.0 */
    EX_NAME,   /* field, parameter, builtin (_index, _prev, ...), root, enum name */
    EX_MEMBER, /* a.name */
    EX_INDEX,  /* a[b] */
    EX_CALL,   /* name(args) */
    EX_UNARY,  /* op a */
    EX_BINARY, /* a op b */
    EX_COND    /* a ? b : c */
} expr_kind;

struct field;
struct type_def;
struct enum_def;
struct named_value;

/* What an expression's value is, as the checker sees it. */
typedef enum {
    VT_ERROR, VT_INT, VT_FLOAT, VT_STRUCT, VT_ARRAY, VT_BYTES, VT_STRING, VT_ENUM_NAME, VT_SWITCH
} value_kind;

typedef struct value_type {
    value_kind kind;
    struct type_def *type;     /* VT_STRUCT, or element type of VT_ARRAY of structs */
    const struct field *field; /* the field this value comes from, when it is one */
    struct enum_def *enumdef;  /* VT_ENUM_NAME */
    int array_elem_int;        /* VT_ARRAY of integers */
} value_type;

/* How a name was resolved. */
typedef enum {
    REF_NONE, REF_FIELD, REF_PARAM, REF_ROOT, REF_INDEX, REF_PREV, REF_IT, REF_VALUE,
    REF_START, REF_POS, REF_END, REF_SIZE, REF_ENUM_TYPE, REF_ENUM_CONST, REF_BITS, REF_CASE, REF_REVISION,
    REF_NAMED
} ref_kind;

/* An expression nests at most this deep (operators, calls, parentheses) and a call takes at
 * most this many arguments: everything that walks an expression, here and in the templates,
 * recurses or builds its text level by level, so depth bounds both stack and time. */
#define EXPR_MAX_DEPTH 256
#define EXPR_MAX_ARGS 256

typedef struct expr expr;
struct expr {
    expr_kind kind;
    src_loc loc;
    int depth; /* of the tree below and including this node */
    uint64_t ival;
    double fval;
    const char *name; /* EX_NAME, EX_MEMBER, EX_CALL */
    const char *op;   /* EX_UNARY, EX_BINARY */
    expr *a, *b, *c;
    expr **args;
    size_t nargs;
    const char *text; /* the source text of the whole expression (root node only) */

    /* set by the checker */
    value_type vt;
    ref_kind ref;
    const struct field *ref_field; /* REF_FIELD / REF_BITS (the packed field) */
    int64_t const_value;           /* REF_ENUM_CONST */
    int ref_param;                 /* REF_PARAM: index */
    const struct named_value *ref_value; /* REF_NAMED */
};

/* Parses `text`; `at` is where the text starts in the schema. Reports errors, returns NULL. */
expr *expr_parse(const char *text, src_loc at);
/* Evaluates a constant integer expression (literals and operators only). */
int expr_const_int(const expr *e, int64_t *out);

#endif
