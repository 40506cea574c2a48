/* Kaitai Struct expressions -> binform expressions (bfgen import).
 *
 * Parsed with Kaitai's precedence (Python-like: `not` below comparisons, bitwise operators
 * above them) into a small tree, then printed with binform's C-like precedence, so that
 * parentheses are added exactly where the two languages disagree. What binform cannot say
 * is an error at the construct's line and column. */
#include "ksy_import.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef enum { KX_NUM, KX_NAME, KX_MEMBER, KX_INDEX, KX_CALL, KX_UNARY, KX_BINARY, KX_COND } kx_kind;

typedef struct kx kx;
struct kx {
    kx_kind kind;
    const char *text; /* number or name, member name, call name, operator */
    kx *a, *b, *c;
    kx **args;
    size_t nargs;
};

typedef struct kparser {
    const char *src, *p;
    src_loc at;
    ksy_scope *scope;
    int failed;
    int depth; /* of nested parentheses and operators: bounds the recursion */
} kparser;

static kx *node(kx_kind kind, const char *text)
{
    kx *n = pool_alloc(sizeof *n);
    n->kind = kind;
    n->text = text;
    return n;
}

/* Where the parser is, for errors: the scalar's column plus the offset when it is one line. */
static src_loc here(const kparser *k)
{
    src_loc at = k->at;
    if (!strchr(k->src, '\n') && at.col > 0)
        at.col += (int)(k->p - k->src);
    return at;
}

static void fail(kparser *k, const char *msg, const char *what)
{
    if (!k->failed)
        diag_error(here(k), msg, what);
    k->failed = 1;
}

static void skip_space(kparser *k)
{
    while (*k->p == ' ' || *k->p == '\t' || *k->p == '\n' || *k->p == '\r')
        k->p++;
}

static int accept(kparser *k, const char *tok)
{
    skip_space(k);
    size_t n = strlen(tok);
    if (strncmp(k->p, tok, n) != 0)
        return 0;
    /* words end at a word boundary; `<` is not the start of `<<` or `<=` */
    if (isalpha((unsigned char)tok[0]) && (isalnum((unsigned char)k->p[n]) || k->p[n] == '_'))
        return 0;
    if (n == 1 && strchr("<>=!&|", tok[0]) && strchr("<>=&|", k->p[1]) && k->p[1] != '\0')
        return 0;
    k->p += n;
    return 1;
}

static int is_word(char c) { return isalnum((unsigned char)c) || c == '_'; }

static kx *parse_cond(kparser *k);

static kx *parse_number(kparser *k)
{
    const char *s = k->p;
    char buf[128];
    size_t n = 0;
    int is_float = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X' || s[1] == 'b' || s[1] == 'B' || s[1] == 'o' || s[1] == 'O')) {
        char base = (char)tolower((unsigned char)s[1]);
        s += 2;
        const char *digits = base == 'x' ? "0123456789abcdefABCDEF_" : base == 'b' ? "01_" : "01234567_";
        uint64_t v = 0;
        int any = 0;
        while (*s && strchr(digits, *s)) {
            if (*s != '_') {
                int d = isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10;
                v = v * (uint64_t)(base == 'x' ? 16 : base == 'b' ? 2 : 8) + (uint64_t)d;
                any = 1;
            }
            s++;
        }
        if (!any) {
            fail(k, "%s: a number literal without digits", "expression");
            return NULL;
        }
        k->p = s;
        return node(KX_NUM, base == 'b' || base == 'o' ? pool_printf("%llu", (unsigned long long)v)
                                                      : pool_printf("0x%llX", (unsigned long long)v));
    }
    while ((isdigit((unsigned char)*s) || *s == '_' || *s == '.' || *s == 'e' || *s == 'E' ||
            ((*s == '+' || *s == '-') && n > 0 && (buf[n - 1] == 'e' || buf[n - 1] == 'E'))) && n < sizeof buf - 1) {
        if (*s == '.' && !isdigit((unsigned char)s[1]))
            break; /* `1.to_s`: a method on an integer */
        if (*s == '.' || *s == 'e' || *s == 'E')
            is_float = 1;
        if (*s != '_')
            buf[n++] = *s;
        s++;
    }
    buf[n] = '\0';
    k->p = s;
    /* binform reads a leading 0 as octal; Kaitai does not */
    const char *t = buf;
    while (!is_float && t[0] == '0' && t[1])
        t++;
    return node(KX_NUM, pool_strdup(t));
}

static kx *parse_primary(kparser *k)
{
    skip_space(k);
    char c = *k->p;
    if (isdigit((unsigned char)c))
        return parse_number(k);
    if (c == '(') {
        k->p++;
        if (++k->depth > 256) {
            fail(k, "%s nests too deeply", "expression");
            return NULL;
        }
        kx *e = parse_cond(k);
        k->depth--;
        if (!accept(k, ")"))
            fail(k, "%s: ')' expected", "expression");
        return e;
    }
    if (c == '"' || c == '\'') {
        fail(k, "Kaitai's %s cannot be expressed in binform (strings are not values yet)", "string literal");
        return NULL;
    }
    if (c == '[') {
        fail(k, "Kaitai's %s cannot be expressed in binform", "array or byte-array literal");
        return NULL;
    }
    if (isalpha((unsigned char)c) || c == '_') {
        const char *s = k->p;
        while (is_word(*k->p) || (k->p[0] == ':' && k->p[1] == ':' && is_word(k->p[2])))
            k->p += k->p[0] == ':' ? 2 : 1;
        char *word = pool_strndup(s, (size_t)(k->p - s));
        if (strcmp(word, "sizeof") == 0 && *k->p == '<') {
            const char *end = strchr(k->p, '>');
            if (!end) {
                fail(k, "%s: '>' expected", "sizeof");
                return NULL;
            }
            const char *n = ksy_sizeof_type(k->scope, pool_strndup(k->p + 1, (size_t)(end - k->p - 1)), here(k));
            k->p = end + 1;
            if (!n) {
                k->failed = 1;
                return NULL;
            }
            return node(KX_NUM, n);
        }
        if (strcmp(word, "sizeof") == 0 || strcmp(word, "bitsizeof") == 0) {
            fail(k, "Kaitai's %s<...> cannot be expressed in binform", word);
            return NULL;
        }
        if (strcmp(word, "true") == 0)
            return node(KX_NUM, "1");
        if (strcmp(word, "false") == 0)
            return node(KX_NUM, "0");
        if (strstr(word, "::")) {
            const char *bf = ksy_enum_literal(k->scope, word, here(k));
            if (!bf) {
                k->failed = 1;
                return NULL;
            }
            return node(KX_NAME, bf);
        }
        return node(KX_NAME, ksy_local_name(k->scope, word));
    }
    fail(k, "%s: unexpected character in a Kaitai expression", "expression");
    return NULL;
}

static kx *member(kx *a, const char *name)
{
    kx *m = node(KX_MEMBER, name);
    m->a = a;
    return m;
}

static kx *call1(const char *name, kx *arg)
{
    kx *c = node(KX_CALL, name);
    c->args = pool_alloc(sizeof *c->args);
    c->args[0] = arg;
    c->nargs = 1;
    return c;
}

static int is_name(const kx *e, const char *name) { return e && e->kind == KX_NAME && strcmp(e->text, name) == 0; }

/* `x.name` as Kaitai means it: fields, or the methods binform has a counterpart for. */
static kx *postfix_member(kparser *k, kx *a, const char *name)
{
    if (is_name(a, "_io")) {
        const char *io = ksy_io_member(k->scope, name, here(k));
        if (!io) {
            k->failed = 1;
            return NULL;
        }
        return node(KX_NAME, io);
    }
    if (strcmp(name, "_sizeof") == 0 && a->kind == KX_NAME) {
        const char *n = ksy_sizeof_field(k->scope, a->text, here(k));
        if (!n) {
            k->failed = 1;
            return NULL;
        }
        return node(KX_NUM, n);
    }
    if (strcmp(name, "length") == 0 || strcmp(name, "size") == 0)
        return call1("len", a);
    if (strcmp(name, "to_i") == 0) {
        if (a->kind == KX_NUM ? strchr(a->text, '.') != NULL : a->kind == KX_NAME && ksy_is_float(k->scope, a->text)) {
            fail(k, "Kaitai's '%s' of a float (truncation) cannot be expressed in binform", ".to_i");
            return NULL;
        }
        return a; /* enums and integers: the number itself */
    }
    if (strcmp(name, "first") == 0) {
        kx *i = node(KX_INDEX, NULL);
        i->a = a;
        i->b = node(KX_NUM, "0");
        return i;
    }
    if (strcmp(name, "last") == 0) {
        kx *i = node(KX_INDEX, NULL), *minus = node(KX_BINARY, "-");
        minus->a = call1("len", a);
        minus->b = node(KX_NUM, "1");
        i->a = a;
        i->b = minus;
        return i;
    }
    static const char *const methods[] = {"to_s", "reverse", "min", "max", "substring", "to_f", "eof",
                                          "pos", "is_eof", "as", "sizeof", "_sizeof", NULL};
    for (size_t i = 0; methods[i]; i++)
        if (strcmp(name, methods[i]) == 0) {
            fail(k, "Kaitai's method '.%s' cannot be expressed in binform", name);
            return NULL;
        }
    if (strcmp(name, "_parent") == 0 || strcmp(name, "_root") == 0 || strcmp(name, "_io") == 0) {
        fail(k, "Kaitai's '.%s' of another structure cannot be expressed in binform", name);
        return NULL;
    }
    return member(a, name);
}

/* Kaitai methods and properties that end a `_parent.a.b` path. */
static int is_method(const char *name)
{
    static const char *const methods[] = {"length", "size", "to_i", "first", "last", "to_s", "reverse", "min", "max",
                                          "substring", "to_f", "as", "_io", "_root", "_sizeof", NULL};
    for (size_t i = 0; methods[i]; i++)
        if (strcmp(name, methods[i]) == 0)
            return 1;
    return 0;
}

/* `_parent.a.b`: the parent's value becomes a parameter of this type that the parent passes. */
static kx *parent_path(kparser *k)
{
    ksy_buf path = {0};
    int names = 0;
    ksy_buf_add(&path, "_parent");
    for (;;) {
        skip_space(k);
        if (k->p[0] != '.' || !(isalpha((unsigned char)k->p[1]) || k->p[1] == '_'))
            break;
        const char *s = k->p + 1, *e = s;
        while (is_word(*e))
            e++;
        char *name = pool_strndup(s, (size_t)(e - s));
        if (is_method(name) || (names && strcmp(name, "_parent") == 0))
            break;
        if (strcmp(name, "_parent") != 0)
            names++;
        k->p = e;
        ksy_buf_add(&path, ".");
        ksy_buf_add(&path, name);
    }
    if (!names) {
        fail(k, "Kaitai's '%s' as a whole structure cannot be expressed in binform (only its numbers, as parameters)",
             "_parent");
        return NULL;
    }
    const char *param = ksy_parent_param(k->scope, ksy_buf_text(&path) + strlen("_parent."), here(k));
    if (!param) {
        k->failed = 1;
        return NULL;
    }
    return node(KX_NAME, param);
}

static kx *parse_postfix(kparser *k)
{
    skip_space(k);
    kx *e = NULL;
    if (strncmp(k->p, "_parent", 7) == 0 && !is_word(k->p[7])) {
        k->p += 7;
        e = parent_path(k);
    } else
        e = parse_primary(k);
    while (e && !k->failed) {
        skip_space(k);
        if (k->p[0] == '.' && (isalpha((unsigned char)k->p[1]) || k->p[1] == '_')) {
            k->p++;
            const char *s = k->p;
            while (is_word(*k->p))
                k->p++;
            char *name = pool_strndup(s, (size_t)(k->p - s));
            if (strcmp(name, "as") == 0 && *k->p == '<') {
                /* a cast: binform's values carry their type, so it changes nothing */
                const char *end = strchr(k->p, '>');
                if (!end) {
                    fail(k, "%s: '>' expected", "cast");
                    return NULL;
                }
                k->p = end + 1;
                continue;
            }
            if (*k->p == '(') {
                fail(k, "Kaitai's method call '.%s(...)' cannot be expressed in binform", name);
                return NULL;
            }
            e = postfix_member(k, e, name);
        } else if (k->p[0] == '[') {
            k->p++;
            kx *i = node(KX_INDEX, NULL);
            i->a = e;
            i->b = parse_cond(k);
            if (!accept(k, "]"))
                fail(k, "%s: ']' expected", "expression");
            e = i;
        } else if (k->p[0] == '(') {
            fail(k, "%s: a call cannot be expressed in binform", "expression");
            return NULL;
        } else
            break;
    }
    return e;
}

static kx *parse_unary_inner(kparser *k);

static kx *parse_unary(kparser *k)
{
    if (++k->depth > 256) {
        fail(k, "%s nests too deeply", "expression");
        return NULL;
    }
    kx *e = parse_unary_inner(k);
    k->depth--;
    return e;
}

static kx *parse_unary_inner(kparser *k)
{
    skip_space(k);
    if (*k->p == '-' || *k->p == '~' || (*k->p == '!' && k->p[1] != '=')) {
        char op[2] = {*k->p, 0};
        k->p++;
        kx *u = node(KX_UNARY, pool_strdup(op));
        u->a = parse_unary(k);
        return u->a ? u : NULL;
    }
    if (*k->p == '+') {
        k->p++;
        return parse_unary(k);
    }
    return parse_postfix(k);
}

/* One left-associative level of binary operators; `ops` is NULL-terminated, `out` their
 * binform spelling in the same order. */
static kx *binary_level(kparser *k, kx *(*next)(kparser *), const char *const *ops, const char *const *out)
{
    kx *e = next(k);
    while (e && !k->failed) {
        size_t i = 0;
        for (; ops[i]; i++)
            if (accept(k, ops[i]))
                break;
        if (!ops[i])
            break;
        kx *b = node(KX_BINARY, out[i]);
        b->a = e;
        b->b = next(k);
        if (!b->b)
            return NULL;
        if (strcmp(out[i], "%") == 0) {
            /* Kaitai's modulo takes the divisor's sign (Python's); binform's, C's, the
             * dividend's: (a % b + b) % b is Kaitai's for either sign of a */
            kx *plus = node(KX_BINARY, "+"), *outer = node(KX_BINARY, "%");
            plus->a = b;
            plus->b = b->b;
            outer->a = plus;
            outer->b = b->b;
            b = outer;
        }
        e = b;
    }
    return e;
}

static kx *parse_mul(kparser *k)
{
    static const char *const ops[] = {"*", "/", "%", NULL};
    return binary_level(k, parse_unary, ops, ops);
}
static kx *parse_add(kparser *k)
{
    static const char *const ops[] = {"+", "-", NULL};
    return binary_level(k, parse_mul, ops, ops);
}
static kx *parse_shift(kparser *k)
{
    static const char *const ops[] = {"<<", ">>", NULL};
    return binary_level(k, parse_add, ops, ops);
}
static kx *parse_band(kparser *k)
{
    static const char *const ops[] = {"&", NULL};
    return binary_level(k, parse_shift, ops, ops);
}
static kx *parse_bxor(kparser *k)
{
    static const char *const ops[] = {"^", NULL};
    return binary_level(k, parse_band, ops, ops);
}
static kx *parse_bor(kparser *k)
{
    static const char *const ops[] = {"|", NULL};
    return binary_level(k, parse_bxor, ops, ops);
}
static kx *parse_compare(kparser *k)
{
    static const char *const ops[] = {"==", "!=", "<=", ">=", "<", ">", NULL};
    return binary_level(k, parse_bor, ops, ops);
}
static kx *parse_not(kparser *k)
{
    if (accept(k, "not")) {
        kx *u = node(KX_UNARY, "!");
        u->a = parse_not(k);
        return u->a ? u : NULL;
    }
    return parse_compare(k);
}
static kx *parse_and(kparser *k)
{
    static const char *const ops[] = {"and", NULL}, *const out[] = {"&&", NULL};
    return binary_level(k, parse_not, ops, out);
}
static kx *parse_or(kparser *k)
{
    static const char *const ops[] = {"or", NULL}, *const out[] = {"||", NULL};
    return binary_level(k, parse_and, ops, out);
}
static kx *parse_cond(kparser *k)
{
    kx *e = parse_or(k);
    if (!e || k->failed)
        return NULL;
    if (accept(k, "?")) {
        kx *c = node(KX_COND, NULL);
        c->a = e;
        c->b = parse_cond(k);
        if (!accept(k, ":")) {
            fail(k, "%s: ':' expected", "expression");
            return NULL;
        }
        c->c = parse_cond(k);
        return c->b && c->c ? c : NULL;
    }
    return e;
}

/* binform's precedence of an operator (LANGUAGE.md, Expressions). */
static int precedence(const kx *e)
{
    static const struct {
        const char *op;
        int prec;
    } table[] = {{"||", 1}, {"&&", 2}, {"|", 3}, {"^", 4}, {"&", 5}, {"==", 6}, {"!=", 6}, {"<", 7},
                 {">", 7},  {"<=", 7}, {">=", 7}, {"<<", 8}, {">>", 8}, {"+", 9}, {"-", 9}, {"*", 10},
                 {"/", 10}, {"%", 10}};
    switch (e->kind) {
    case KX_COND: return 0;
    case KX_UNARY: return 11;
    case KX_BINARY:
        for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
            if (strcmp(table[i].op, e->text) == 0)
                return table[i].prec;
        return 0;
    default: return 12;
    }
}

static void print(const kx *e, int min_prec, ksy_buf *out);

static void print_names(const kx *e, ksy_buf *out)
{
    if (strcmp(e->text, "_root") == 0)
        ksy_buf_add(out, "root");
    else if (strcmp(e->text, "_") == 0)
        ksy_buf_add(out, "_it");
    else
        ksy_buf_add(out, e->text);
}

static void print(const kx *e, int min_prec, ksy_buf *out)
{
    int prec = precedence(e);
    int paren = prec < min_prec;
    if (paren)
        ksy_buf_add(out, "(");
    switch (e->kind) {
    case KX_NUM: ksy_buf_add(out, e->text); break;
    case KX_NAME: print_names(e, out); break;
    case KX_MEMBER:
        print(e->a, 12, out);
        ksy_buf_add(out, ".");
        ksy_buf_add(out, e->text);
        break;
    case KX_INDEX:
        print(e->a, 12, out);
        ksy_buf_add(out, "[");
        print(e->b, 0, out);
        ksy_buf_add(out, "]");
        break;
    case KX_CALL:
        ksy_buf_add(out, e->text);
        ksy_buf_add(out, "(");
        for (size_t i = 0; i < e->nargs; i++) {
            if (i)
                ksy_buf_add(out, ", ");
            print(e->args[i], 0, out);
        }
        ksy_buf_add(out, ")");
        break;
    case KX_UNARY:
        ksy_buf_add(out, e->text);
        print(e->a, 11, out);
        break;
    case KX_BINARY:
        print(e->a, prec, out);
        ksy_buf_add(out, " ");
        ksy_buf_add(out, e->text);
        ksy_buf_add(out, " ");
        print(e->b, prec + 1, out);
        break;
    case KX_COND:
        print(e->a, 1, out);
        ksy_buf_add(out, " ? ");
        print(e->b, 0, out);
        ksy_buf_add(out, " : ");
        print(e->c, 0, out);
        break;
    }
    if (paren)
        ksy_buf_add(out, ")");
}

static int mentions(const kx *e, const char *name)
{
    if (!e)
        return 0;
    if ((e->kind == KX_NAME) && strcmp(e->text, name) == 0)
        return 1;
    if (mentions(e->a, name) || mentions(e->b, name) || mentions(e->c, name))
        return 1;
    for (size_t i = 0; i < e->nargs; i++)
        if (mentions(e->args[i], name))
            return 1;
    return 0;
}

const char *ksy_expr(ksy_scope *scope, const char *text, src_loc at)
{
    kparser k = {text, text, at, scope, 0, 0};
    kx *e = parse_cond(&k);
    if (e && !k.failed) {
        skip_space(&k);
        if (*k.p)
            fail(&k, "%s: unexpected text after the expression", "expression");
    }
    if (!e || k.failed)
        return NULL;
    static const char *const unsupported[] = {"_on", "_is_le", "_sizeof", NULL};
    for (size_t i = 0; unsupported[i]; i++)
        if (mentions(e, unsupported[i])) {
            diag_error(at, "Kaitai's '%s' cannot be expressed in binform", unsupported[i]);
            return NULL;
        }
    ksy_buf out = {0};
    print(e, 0, &out);
    return ksy_buf_text(&out);
}

/* A case label or constant of a switch: an integer (or `true`/`false`, or an enum literal,
 * given back as its member name). Returns 0 and reports otherwise. */
int ksy_const_int(ksy_scope *scope, const char *text, src_loc at, int64_t *out)
{
    while (*text == ' ')
        text++;
    if (strstr(text, "::"))
        return ksy_enum_value(scope, text, at, out, NULL);
    kparser k = {text, text, at, scope, 0, 0};
    kx *e = parse_cond(&k);
    if (!e || k.failed)
        return 0;
    int neg = 0;
    if (e->kind == KX_UNARY && strcmp(e->text, "-") == 0) {
        neg = 1;
        e = e->a;
    }
    if (e->kind != KX_NUM || strchr(e->text, '.')) {
        diag_error(at, "'%s' is not an integer constant", text);
        return 0;
    }
    uint64_t v = strtoull(e->text, NULL, 0);
    *out = neg ? -(int64_t)v : (int64_t)v;
    return 1;
}
