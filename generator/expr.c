/* A Pratt parser for schema expressions. */
#include "expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define EXPR_TEXT(n) #n
#define EXPR_TEXT_OF(n) EXPR_TEXT(n)
#define EXPR_LIMIT_TEXT EXPR_TEXT_OF(EXPR_MAX_DEPTH)

typedef struct parser {
    const char *text;
    const char *p;
    src_loc at;
    int failed;
    int nesting; /* parse_expr calls under way */
} parser;

static src_loc here(const parser *ps)
{
    src_loc l = ps->at;
    l.col += (int)(ps->p - ps->text);
    return l;
}

static void fail(parser *ps, const char *msg)
{
    /* a long expression is quoted by its start: the location says where the problem is */
    if (!ps->failed)
        diag_error(here(ps), "%s in expression '%.60s%s'", msg, ps->text, strlen(ps->text) > 60 ? "..." : "");
    ps->failed = 1;
}

static void skip_space(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n')
        ps->p++;
}

static expr *node(parser *ps, expr_kind kind)
{
    expr *e = pool_alloc(sizeof *e);
    e->kind = kind;
    e->loc = here(ps);
    e->depth = 1;
    return e;
}

/* Notes that `child` hangs below `e`; refuses a tree deeper than EXPR_MAX_DEPTH. */
static void below(parser *ps, expr *e, const expr *child)
{
    if (child && child->depth + 1 > e->depth)
        e->depth = child->depth + 1;
    if (e->depth > EXPR_MAX_DEPTH)
        fail(ps, "expression nested more than " EXPR_LIMIT_TEXT " levels deep");
}

static const char *const binary_ops[] = {
    "||", "&&", "==", "!=", "<=", ">=", "<<", ">>", "|", "^", "&", "<", ">", "+", "-", "*", "/", "%", NULL};

static int precedence(const char *op)
{
    static const struct { const char *op; int prec; } table[] = {
        {"||", 1}, {"&&", 2}, {"|", 3}, {"^", 4}, {"&", 5}, {"==", 6}, {"!=", 6},
        {"<", 7}, {">", 7}, {"<=", 7}, {">=", 7}, {"<<", 8}, {">>", 8},
        {"+", 9}, {"-", 9}, {"*", 10}, {"/", 10}, {"%", 10}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].op, op) == 0)
            return table[i].prec;
    return 0;
}

static const char *peek_binary(parser *ps)
{
    skip_space(ps);
    for (int i = 0; binary_ops[i]; i++) {
        size_t n = strlen(binary_ops[i]);
        if (strncmp(ps->p, binary_ops[i], n) == 0) {
            /* '|' must not be the start of '||' etc.: the table lists longer ops first */
            return binary_ops[i];
        }
    }
    return NULL;
}

static expr *parse_expr(parser *ps, int min_prec);
static expr *parse_expr_at(parser *ps, int min_prec);

static expr *parse_number(parser *ps)
{
    expr *e = node(ps, EX_INT);
    const char *start = ps->p;
    char *end;
    /* a number C cannot write (1e400 is inf, 2^64 wraps) is refused where it is written */
    errno = 0;
    if (start[0] == '0' && (start[1] == 'b' || start[1] == 'B')) {
        e->ival = strtoull(start + 2, &end, 2);
        if (end == start + 2)
            fail(ps, "binary digits expected");
    } else {
        e->ival = strtoull(start, &end, 0);
        if (*end == '.' || *end == 'e' || *end == 'E') {
            e->kind = EX_FLOAT;
            errno = 0;
            e->fval = strtod(start, &end);
            if (errno == ERANGE && (e->fval > 1 || e->fval < -1))
                fail(ps, "number too large for a double");
            errno = 0;
        }
    }
    if (errno == ERANGE)
        fail(ps, "number too large for 64 bits");
    if (isalnum((unsigned char)*end) || *end == '_') {
        ps->p = end;
        fail(ps, "malformed number");
    }
    ps->p = end;
    return e;
}

static expr *parse_primary(parser *ps)
{
    skip_space(ps);
    char ch = *ps->p;
    expr *e = NULL;
    if (isdigit((unsigned char)ch)) {
        e = parse_number(ps);
    } else if (ch == '\'') {
        /* 'O' is a character; 'INF1' packs up to 8 characters big-endian, as four-character
         * codes are stored in big-endian files */
        e = node(ps, EX_INT);
        const char *close = strchr(ps->p + 1, '\'');
        size_t n = close ? (size_t)(close - ps->p - 1) : 0;
        if (n >= 1 && n <= 8) {
            for (size_t i = 0; i < n; i++)
                e->ival = e->ival << 8 | (unsigned char)ps->p[1 + i];
            ps->p = close + 1;
        } else {
            fail(ps, "a character literal holds 1 to 8 characters, like 'O' or 'INF1'");
        }
    } else if (isalpha((unsigned char)ch) || ch == '_') {
        const char *start = ps->p;
        while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
            ps->p++;
        e = node(ps, EX_NAME);
        e->loc.col -= (int)(ps->p - start);
        e->name = pool_strndup(start, (size_t)(ps->p - start));
        skip_space(ps);
        if (*ps->p == '(') {
            ps->p++;
            e->kind = EX_CALL;
            ptr_vec args = {0};
            skip_space(ps);
            if (*ps->p != ')') {
                for (;;) {
                    expr *a = parse_expr(ps, 1);
                    vec_push(&args, a);
                    below(ps, e, a);
                    if (args.len > EXPR_MAX_ARGS) {
                        fail(ps, "a call takes at most " EXPR_TEXT_OF(EXPR_MAX_ARGS) " arguments");
                        break;
                    }
                    if (ps->failed)
                        break;
                    skip_space(ps);
                    if (*ps->p == ',') {
                        ps->p++;
                        continue;
                    }
                    break;
                }
            }
            if (*ps->p != ')')
                fail(ps, "')' expected after arguments");
            else
                ps->p++;
            e->args = (expr **)args.items;
            e->nargs = args.len;
        }
    } else if (ch == '(') {
        ps->p++;
        e = parse_expr(ps, 1);
        skip_space(ps);
        if (*ps->p != ')')
            fail(ps, "')' expected");
        else
            ps->p++;
    } else if (ch == '-' || ch == '!' || ch == '~') {
        e = node(ps, EX_UNARY);
        e->op = ch == '-' ? "-" : ch == '!' ? "!" : "~";
        ps->p++;
        if (++ps->nesting > EXPR_MAX_DEPTH) {
            fail(ps, "expression nested more than " EXPR_LIMIT_TEXT " levels deep");
            return e;
        }
        e->a = parse_primary(ps);
        ps->nesting--;
        below(ps, e, e->a);
        return e;
    } else {
        fail(ps, ch ? "value expected" : "expression ends too early");
        return node(ps, EX_INT);
    }
    /* postfix: member access and indexing */
    for (;;) {
        skip_space(ps);
        if (*ps->p == '.' && (isalpha((unsigned char)ps->p[1]) || ps->p[1] == '_')) {
            ps->p++;
            const char *start = ps->p;
            while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
                ps->p++;
            expr *m = node(ps, EX_MEMBER);
            m->a = e;
            below(ps, m, e);
            m->name = pool_strndup(start, (size_t)(ps->p - start));
            e = m;
        } else if (*ps->p == '[') {
            ps->p++;
            expr *ix = node(ps, EX_INDEX);
            ix->a = e;
            ix->b = parse_expr(ps, 1);
            below(ps, ix, ix->a);
            below(ps, ix, ix->b);
            if (ps->failed)
                return ix;
            skip_space(ps);
            if (*ps->p != ']')
                fail(ps, "']' expected");
            else
                ps->p++;
            e = ix;
        } else {
            return e;
        }
    }
}

static expr *parse_expr(parser *ps, int min_prec)
{
    if (ps->nesting >= EXPR_MAX_DEPTH) {
        fail(ps, "expression nested more than " EXPR_LIMIT_TEXT " levels deep");
        return node(ps, EX_INT);
    }
    ps->nesting++;
    expr *left = parse_expr_at(ps, min_prec);
    ps->nesting--;
    return left;
}

static expr *parse_expr_at(parser *ps, int min_prec)
{
    expr *left = parse_primary(ps);
    for (;;) {
        if (ps->failed)
            return left;
        const char *op = peek_binary(ps);
        skip_space(ps);
        if (*ps->p == '?' && min_prec <= 1) {
            expr *c = node(ps, EX_COND);
            ps->p++;
            c->a = left;
            c->b = parse_expr(ps, 1);
            skip_space(ps);
            if (*ps->p != ':') {
                fail(ps, "':' expected in a ? b : c");
                return c;
            }
            ps->p++;
            c->c = parse_expr(ps, 1);
            below(ps, c, c->a);
            below(ps, c, c->b);
            below(ps, c, c->c);
            return c;
        }
        if (!op || precedence(op) < min_prec)
            return left;
        expr *b = node(ps, EX_BINARY);
        ps->p += strlen(op);
        b->op = op;
        b->a = left;
        b->b = parse_expr(ps, precedence(op) + 1);
        below(ps, b, b->a);
        below(ps, b, b->b);
        left = b;
    }
}

expr *expr_parse(const char *text, src_loc at)
{
    parser ps = {text, text, at, 0, 0};
    expr *e = parse_expr(&ps, 1);
    skip_space(&ps);
    if (!ps.failed && *ps.p)
        fail(&ps, "unexpected text");
    if (ps.failed)
        return NULL;
    e->text = pool_strdup(text);
    return e;
}

int expr_const_int(const expr *e, int64_t *out)
{
    int64_t a, b;
    switch (e->kind) {
    case EX_INT:
        *out = (int64_t)e->ival;
        return 1;
    case EX_UNARY:
        if (!expr_const_int(e->a, &a))
            return 0;
        *out = e->op[0] == '-' ? (int64_t)(0 - (uint64_t)a) : e->op[0] == '~' ? ~a : !a;
        return 1;
    case EX_BINARY:
        if (!expr_const_int(e->a, &a) || !expr_const_int(e->b, &b))
            return 0;
        switch (e->op[0]) {
        case '+': *out = (int64_t)((uint64_t)a + (uint64_t)b); return 1;
        case '-': *out = (int64_t)((uint64_t)a - (uint64_t)b); return 1;
        case '*': *out = (int64_t)((uint64_t)a * (uint64_t)b); return 1;
        case '/': if (!b || (b == -1 && a == INT64_MIN)) return 0; *out = a / b; return 1;
        case '%': if (!b || b == -1) return 0; *out = a % b; return 1;
        case '<': *out = e->op[1] == '<' ? (int64_t)((uint64_t)a << (b & 63)) : e->op[1] == '=' ? a <= b : a < b; return 1;
        case '>': *out = e->op[1] == '>' ? (int64_t)((uint64_t)a >> (b & 63)) : e->op[1] == '=' ? a >= b : a > b; return 1;
        case '&': *out = e->op[1] == '&' ? (a && b) : (a & b); return 1;
        case '|': *out = e->op[1] == '|' ? (a || b) : (a | b); return 1;
        case '^': *out = a ^ b; return 1;
        case '=': *out = a == b; return 1;
        case '!': *out = a != b; return 1;
        default: return 0;
        }
    default:
        return 0;
    }
}
