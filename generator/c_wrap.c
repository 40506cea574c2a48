/* Keeps generated C within 160 columns: every C file bfgen writes goes through here last.
 *
 * A longer line is broken between its tokens (never inside a name, number or operator): at
 * the top-level separators of the outermost bracket that has them, the loosest kind first
 * (`;` and `,` after, then `=`, `?:`, `||`, `&&` and the other binary operators before).
 * Continuation lines are aligned after the open bracket, or indented 8 more than the line
 * when that is too far right. String literals too long for a line become adjacent literals
 * ("..." "..." is one string to C: the bytes do not change), and long comments go on on the
 * next lines. Newlines and spaces between tokens are all this adds, so the program is the
 * same (nothing generated uses __LINE__). Preprocessor lines are left alone but for comments.
 *
 * It was a Lua template (c_wrap.lua) and took a third of bfgen's time; this is the same
 * algorithm, rule for rule, so the output did not change by a byte. */
#include "c_wrap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT 160
/* Past this column, a bracket's contents start on a new line instead of after it. */
#define ALIGN_MAX 100
/* A line may end this much short of the limit to break at a shallower place. */
#define SLACK 40

/* ---- memory: a buffer that grows, and an arena freed after each long line ---------------- */

typedef struct {
    char *data;
    size_t len, cap;
} buf;

static void *checked(void *p)
{
    if (!p) {
        fputs("bfgen: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* Room for `n` more bytes and a terminator. */
static void buf_reserve(buf *b, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + n + 1 > cap)
            cap *= 2;
        b->data = checked(realloc(b->data, cap));
        b->cap = cap;
    }
}

static void buf_add(buf *b, const char *s, size_t n)
{
    buf_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

typedef struct block {
    struct block *next;
    size_t used, size;
    _Alignas(max_align_t) char data[];
} block;

static block *arena;

static void *arena_alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!arena || arena->size - arena->used < n) {
        size_t size = n > 65536 ? n : 65536;
        block *b = checked(malloc(sizeof *b + size));
        b->next = arena;
        b->used = 0;
        b->size = size;
        arena = b;
    }
    void *p = arena->data + arena->used;
    arena->used += n;
    return p;
}

static void arena_free(void)
{
    while (arena) {
        block *next = arena->next;
        free(arena);
        arena = next;
    }
}

/* ---- tokens ------------------------------------------------------------------------------ */

enum kind { K_WS, K_COMMENT, K_STR, K_CHR, K_WORD, K_OP, K_OPEN, K_CLOSE, K_GROUP };

/* A token, or a bracket group: a stretch of the line (`p`, `w` bytes). A group has its
 * brackets and the items between them. */
typedef struct node {
    enum kind kind;
    int p, w;
    struct node *open, *close;
    struct node **items;
    int n, cap;
} node;

/* White space, digits and word bytes as Lua's %s, %d and [%w_] see them (the C locale). */
static int is_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int is_word(unsigned char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

static int is_op3(const char *s) { return !memcmp(s, "<<=", 3) || !memcmp(s, ">>=", 3) || !memcmp(s, "...", 3); }

static int is_op2(const char *s)
{
    static const char ops[][3] = {"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
                                  "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "##"};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (s[0] == ops[i][0] && s[1] == ops[i][1])
            return 1;
    return 0;
}

/* Where "*" "/" starts at or after `from`, or -1. */
static int find_comment_end(const char *s, int n, int from)
{
    for (int i = from; i + 1 < n; i++)
        if (s[i] == '*' && s[i + 1] == '/')
            return i;
    return -1;
}

typedef struct {
    node *v;
    int n;
} token_list;

static void push_token(token_list *t, enum kind kind, int p, int w)
{
    node *k = &t->v[t->n++];
    memset(k, 0, sizeof *k);
    k->kind = kind;
    k->p = p;
    k->w = w;
}

/* The tokens of `s` (`n` bytes); `in_comment`: it starts inside a comment. Returns whether
 * the line ends inside one. */
static int tokenize(const char *s, int n, int in_comment, token_list *out)
{
    out->v = arena_alloc(sizeof *out->v * (size_t)(n + 1));
    out->n = 0;
    int i = 0;
    if (in_comment) {
        int e = find_comment_end(s, n, 0);
        if (e < 0) {
            push_token(out, K_COMMENT, 0, n);
            return 1;
        }
        push_token(out, K_COMMENT, 0, e + 2);
        i = e + 2;
    }
    while (i < n) {
        unsigned char b = (unsigned char)s[i];
        enum kind t = K_OP;
        int j = i; /* the token's last byte */
        if (is_space(b)) {
            t = K_WS;
            while (j + 1 < n && is_space((unsigned char)s[j + 1]))
                j++;
        } else if (is_digit(b)) {
            /* a number, with the sign of its exponent (1e-3, 0x1p+4) */
            t = K_WORD;
            int hex = b == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X');
            while (j + 1 < n) {
                unsigned char ch = (unsigned char)s[j + 1], at = (unsigned char)s[j];
                if (is_word(ch) || ch == '.')
                    j++;
                else if ((ch == '+' || ch == '-') && (at == 'p' || at == 'P' || (!hex && (at == 'e' || at == 'E'))))
                    j++;
                else
                    break;
            }
        } else if (is_word(b)) {
            t = K_WORD;
            while (j + 1 < n && is_word((unsigned char)s[j + 1]))
                j++;
        } else if (b == '"' || b == '\'') {
            t = b == '"' ? K_STR : K_CHR;
            int q = i + 1;
            for (;;) {
                while (q < n && s[q] != '\\' && s[q] != (char)b)
                    q++;
                if (q >= n) {
                    j = n - 1;
                    break;
                }
                if (s[q] == '\\') {
                    q += 2;
                } else {
                    j = q;
                    break;
                }
            }
        } else if (b == '(' || b == '[' || b == '{') {
            t = K_OPEN;
        } else if (b == ')' || b == ']' || b == '}') {
            t = K_CLOSE;
        } else if (b == '/' && i + 1 < n && s[i + 1] == '*') {
            t = K_COMMENT;
            int e = find_comment_end(s, n, i + 2);
            if (e < 0) {
                push_token(out, K_COMMENT, i, n - i);
                return 1;
            }
            j = e + 1;
        } else if (b == '/' && i + 1 < n && s[i + 1] == '/') {
            t = K_COMMENT;
            j = n - 1;
        } else {
            if (i + 2 < n && is_op3(s + i))
                j = i + 2;
            else if (i + 1 < n && is_op2(s + i))
                j = i + 1;
        }
        push_token(out, t, i, j - i + 1);
        i = j + 1;
    }
    return 0;
}

static void add_item(node *g, node *it)
{
    if (g->n == g->cap) {
        int cap = g->cap ? g->cap * 2 : 8;
        node **items = arena_alloc(sizeof *items * (size_t)cap);
        if (g->n)
            memcpy(items, g->items, sizeof *items * (size_t)g->n);
        g->items = items;
        g->cap = cap;
    }
    g->items[g->n++] = it;
}

/* Tokens into a tree of groups. Brackets the line does not close (or closes without
 * opening) stay plain tokens. Returns the root, whose items are the line's. */
static node *tree(token_list *toks)
{
    node *root = arena_alloc(sizeof *root);
    memset(root, 0, sizeof *root);
    node **stack = arena_alloc(sizeof *stack * (size_t)(toks->n + 1));
    int depth = 0;
    stack[0] = root;
    for (int i = 0; i < toks->n; i++) {
        node *tk = &toks->v[i], *top = stack[depth];
        if (tk->kind == K_OPEN) {
            node *g = arena_alloc(sizeof *g);
            memset(g, 0, sizeof *g);
            g->kind = K_GROUP;
            g->open = tk;
            add_item(top, g);
            stack[++depth] = g;
        } else if (tk->kind == K_CLOSE && depth > 0) {
            top->close = tk;
            top->p = top->open->p;
            top->w = tk->p + tk->w - top->open->p;
            depth--;
        } else {
            add_item(top, tk);
        }
    }
    /* unclosed groups: their bracket and items go back into the parent, in order */
    while (depth > 0) {
        node *g = stack[depth--], *parent = stack[depth];
        parent->n--;
        add_item(parent, g->open);
        for (int i = 0; i < g->n; i++)
            add_item(parent, g->items[i]);
    }
    return root;
}

/* ---- the line being laid out --------------------------------------------------------------- */

typedef struct {
    const char *src; /* the line: every item is a stretch of it */
    buf *out;        /* finished lines go here */
    buf cur;         /* the line being filled */
    int base;        /* the line's indent */
} layout;

static int is_text(const node *it, const char *src, const char *s)
{
    size_t n = strlen(s);
    return (size_t)it->w == n && memcmp(src + it->p, s, n) == 0;
}

static int col(const layout *L) { return (int)L->cur.len; }

static void emit(layout *L, const char *s, size_t n) { buf_add(&L->cur, s, n); }

static void emit_item(layout *L, const node *it) { emit(L, L->src + it->p, (size_t)it->w); }

/* The items from..to (inclusive) as they are in the line. */
static void emit_run(layout *L, node **items, int from, int to)
{
    if (from <= to)
        emit(L, L->src + items[from]->p, (size_t)(items[to]->p + items[to]->w - items[from]->p));
}

static int cur_blank(const layout *L)
{
    for (size_t i = 0; i < L->cur.len; i++)
        if (!is_space((unsigned char)L->cur.data[i]))
            return 0;
    return 1;
}

/* The line so far, without white space at its end, goes out. */
static void finish_line(layout *L)
{
    size_t n = L->cur.len;
    while (n > 0 && is_space((unsigned char)L->cur.data[n - 1]))
        n--;
    buf_add(L->out, L->cur.data ? L->cur.data : "", n);
    buf_add(L->out, "\n", 1);
}

static void newline(layout *L, int indent)
{
    finish_line(L);
    L->cur.len = 0;
    for (int i = 0; i < indent; i++)
        emit(L, " ", 1);
}

/* ---- strings and comments -------------------------------------------------------------------- */

typedef struct {
    int p, w;
} unit;

/* Splits a string literal into adjacent ones that fit, breaking after a space where it can. */
static void lay_string(layout *L, const char *s, int len, int cont, int reserve)
{
    /* the body between the quotes, in units that stay whole: escapes, UTF-8 sequences */
    const char *body = s + 1;
    int n = len - 2 > 0 ? len - 2 : 0;
    unit *units = arena_alloc(sizeof *units * (size_t)(n + 1));
    int count = 0;
    for (int i = 0; i < n;) {
        int j = i;
        if (body[i] == '\\') {
            char nx = i + 1 < n ? body[i + 1] : 0;
            if (nx == 'x') {
                j = i + 2;
                while (j < n && strchr("0123456789abcdefABCDEF", body[j]) && body[j])
                    j++;
                j--;
            } else if (nx >= '0' && nx <= '7') {
                int digits = 0;
                while (digits < 3 && i + 1 + digits < n && body[i + 1 + digits] >= '0' && body[i + 1 + digits] <= '7')
                    digits++;
                j = i + digits;
            } else {
                j = i + 1;
            }
        } else {
            while (j + 1 < n && ((unsigned char)body[j + 1] & 0xC0) == 0x80)
                j++;
        }
        int end = j < n ? j : n - 1;
        units[count].p = i;
        units[count].w = end - i + 1;
        count++;
        i = j + 1;
    }
    int k = 0;
    while (k < count) {
        int room = LIMIT - col(L) - 2;
        int rest = 0;
        for (int m = k; m < count; m++)
            rest += units[m].w;
        if (rest + reserve <= room) {
            emit(L, "\"", 1);
            emit(L, body + units[k].p, (size_t)(units[count - 1].p + units[count - 1].w - units[k].p));
            emit(L, "\"", 1);
            return;
        }
        /* as many units as fit (one left for the next line), ending after the last \n or
         * else the last space in the second half when there is one */
        int take = k - 1, used = 0, space = -1, nl = -1;
        while (take < count - 2 && used + units[take + 1].w <= room) {
            take++;
            used += units[take].w;
            if (2 * used > room) {
                const unit *u = &units[take];
                if (u->w == 1 && body[u->p] == ' ')
                    space = take;
                else if (u->w == 2 && body[u->p] == '\\' && body[u->p + 1] == 'n')
                    nl = take;
            }
        }
        if (nl >= 0)
            space = nl;
        if (take < k) {
            if (col(L) > cont)
                newline(L, cont);
            else
                take = k;
        }
        if (take >= k) {
            if (space >= 0 && take < count - 1)
                take = space;
            emit(L, "\"", 1);
            emit(L, body + units[k].p, (size_t)(units[take].p + units[take].w - units[k].p));
            emit(L, "\"", 1);
            k = take + 1;
            if (k < count)
                newline(L, cont);
        }
    }
}

/* The next word (run of non-space bytes) of s[*i..n), or 0 when there is none. */
static int next_word(const char *s, int n, int *i, int *start)
{
    while (*i < n && is_space((unsigned char)s[*i]))
        (*i)++;
    if (*i >= n)
        return 0;
    *start = *i;
    while (*i < n && !is_space((unsigned char)s[*i]))
        (*i)++;
    return *i - *start;
}

/* Breaks a comment at its spaces; its lines go on under its text. */
static void lay_comment(layout *L, const char *s, int len, int reserve)
{
    int line_comment = len >= 2 && s[0] == '/' && s[1] == '/';
    int cont = line_comment ? col(L) : col(L) + 3;
    int i = 0, start, w, first = 1;
    while ((w = next_word(s, len, &i, &start))) {
        int probe = i, ignored;
        int r = next_word(s, len, &probe, &ignored) ? 0 : reserve; /* the last word keeps room */
        if (first) {
            emit(L, s + start, (size_t)w);
            first = 0;
        } else if (col(L) + 1 + w + r <= LIMIT || col(L) <= cont + 3) {
            emit(L, " ", 1);
            emit(L, s + start, (size_t)w);
        } else {
            newline(L, cont);
            if (line_comment)
                emit(L, "// ", 3);
            emit(L, s + start, (size_t)w);
        }
    }
}

/* ---- where a sequence may break ------------------------------------------------------------- */

/* Each separator's class, loosest first: `;` 1, `,` 2, the assignments 3 (broken after the
 * first only), `?` and `:` 4 (only in a conditional), then `||`, `&&`, `|`, `^`, `&`,
 * equality, comparison, shifts, `+ -`. 0: not a separator. */
#define CLASSES 13
#define ASSIGN 3
#define COND 4

static int class_of(const node *it, const char *src)
{
    static const struct {
        const char *op;
        int cls;
    } table[] = {{";", 1}, {",", 2}, {"=", 3}, {"+=", 3}, {"-=", 3}, {"*=", 3}, {"/=", 3}, {"%=", 3},
                 {"&=", 3}, {"^=", 3}, {"|=", 3}, {"<<=", 3}, {">>=", 3}, {"?", 4}, {":", 4}, {"||", 5},
                 {"&&", 6}, {"|", 7}, {"^", 8}, {"&", 9}, {"==", 10}, {"!=", 10}, {"<", 11}, {">", 11},
                 {"<=", 11}, {">=", 11}, {"<<", 12}, {">>", 12}, {"+", 13}, {"-", 13}};
    if (it->kind != K_OP)
        return 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (is_text(it, src, table[i].op))
            return table[i].cls;
    return 0;
}

/* the classes broken after the separator rather than before */
static int breaks_after(int cls) { return cls <= ASSIGN; }
/* the operators that are separators only as binary ones (not unary & + -, not a cast's *) */
static int binary_only(int cls) { return cls == 7 || cls == 8 || cls == 9 || cls == 11 || cls == 13; }

/* Whether the token before items[k] ends an operand (so that an operator at k is binary). */
static int after_operand(node **items, int k, const char *src)
{
    for (int j = k - 1; j >= 0; j--) {
        const node *it = items[j];
        if (it->kind == K_WS || it->kind == K_COMMENT)
            continue;
        if (it->kind == K_WORD)
            return !(is_text(it, src, "return") || is_text(it, src, "case") || is_text(it, src, "sizeof") ||
                     is_text(it, src, "else"));
        return it->kind == K_GROUP || it->kind == K_STR || it->kind == K_CHR || it->kind == K_CLOSE;
    }
    return 0;
}

/* The top-level separators of items[0..n) of the loosest class present: their positions go
 * to `at` (room for n), the count is returned (0: none), `*after` says whether the break
 * comes after them. */
static int separators(node **items, int n, const char *src, int *at, int *after)
{
    int cond = 0;
    for (int k = 0; k < n && !cond; k++)
        cond = items[k]->kind == K_OP && is_text(items[k], src, "?");
    int *cls = arena_alloc(sizeof *cls * (size_t)(n + 1));
    int count[CLASSES + 1] = {0}, last[CLASSES + 1] = {0};
    cls[0] = 0;
    for (int k = 1; k < n; k++) {
        int c = class_of(items[k], src);
        if (c && (c != COND || cond) && (!binary_only(c) || after_operand(items, k, src))) {
            count[c]++;
            last[c] = k;
        } else {
            c = 0;
        }
        cls[k] = c;
    }
    for (int c = 1; c <= CLASSES; c++) {
        if (!count[c])
            continue;
        /* a break after the last token gains nothing */
        int upto = n;
        if (breaks_after(c) && last[c] == n - 1) {
            count[c]--;
            upto = n - 1;
        }
        if (!count[c])
            continue;
        *after = breaks_after(c);
        int found = 0;
        for (int k = 1; k < upto; k++)
            if (cls[k] == c) {
                at[found++] = k;
                if (c == ASSIGN)
                    return 1; /* one assignment: break after the first */
            }
        return found;
    }
    return 0;
}

/* ---- laying out -------------------------------------------------------------------------- */

/* Without the white space at both ends: the first item and the count. */
static int trim(node **items, int n, int *first)
{
    int a = 0, b = n - 1;
    while (a <= b && items[a]->kind == K_WS)
        a++;
    while (b >= a && items[b]->kind == K_WS)
        b--;
    *first = a;
    return b - a + 1;
}

static int total_width(node **items, int n)
{
    int w = 0;
    for (int i = 0; i < n; i++)
        w += items[i]->w;
    return w;
}

/* Whether a bracket's contents have anywhere to break (a cast like (int64_t) has not). */
static int breakable(const node *g, const char *src)
{
    for (int i = 0; i < g->n; i++) {
        const node *it = g->items[i];
        if (it->kind == K_GROUP || it->kind == K_STR || it->kind == K_COMMENT ||
            (it->kind == K_OP && !is_text(it, src, "->") && !is_text(it, src, ".")))
            return 1;
    }
    return 0;
}

/* The tokens of items as a flat list with their bracket depth (a bracket has its outside's
 * depth). */
typedef struct {
    node **tok;
    int *depth;
    int n;
} flat;

static void flatten(node **items, int n, int depth, flat *f)
{
    for (int i = 0; i < n; i++) {
        node *it = items[i];
        if (it->kind == K_GROUP) {
            flatten(&it->open, 1, depth, f);
            flatten(it->items, it->n, depth + 1, f);
            flatten(&it->close, 1, depth, f);
        } else {
            f->tok[f->n] = it;
            f->depth[f->n] = depth;
            f->n++;
        }
    }
}

static int count_tokens(node **items, int n)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += items[i]->kind == K_GROUP ? 2 + count_tokens(items[i]->items, items[i]->n) : 1;
    return c;
}

/* Fills lines with the items, breaking after a comma or before && || ? : at any depth, on
 * each line at the shallowest such place in its last SLACK columns: for calls nested in
 * calls, which aligned would run off to the right. */
static void fill(layout *L, node **items, int count, int cont, int reserve)
{
    const char *src = L->src;
    int total = count_tokens(items, count);
    flat f = {arena_alloc(sizeof *f.tok * (size_t)(total + 1)), arena_alloc(sizeof *f.depth * (size_t)(total + 1)), 0};
    flatten(items, count, 0, &f);
    int n = f.n;
    /* 1-based below, as upto[0] is the width before the first token */
    int *upto = arena_alloc(sizeof *upto * (size_t)(n + 1));
    int *brk = arena_alloc(sizeof *brk * (size_t)(n + 1)); /* a line may end after token k: its depth, or -1 */
    upto[0] = 0;
    int ternary = 0;
    for (int k = 1; k <= n; k++) {
        upto[k] = upto[k - 1] + f.tok[k - 1]->w;
        brk[k] = -1;
        if (f.tok[k - 1]->kind == K_OP && is_text(f.tok[k - 1], src, "?"))
            ternary = 1;
    }
    for (int k = 1; k <= n; k++) {
        const node *t = f.tok[k - 1];
        if (t->kind != K_OP)
            continue;
        if (is_text(t, src, ",") || is_text(t, src, ";"))
            brk[k] = f.depth[k - 1];
        if (is_text(t, src, "&&") || is_text(t, src, "||") || (ternary && (is_text(t, src, "?") || is_text(t, src, ":")))) {
            int j = k - 1;
            while (j > 0 && f.tok[j - 1]->kind == K_WS)
                j--;
            if (j > 0)
                brk[j] = f.depth[k - 1];
        }
    }
    int pos = 1;
    while (pos <= n) {
        while (pos <= n && f.tok[pos - 1]->kind == K_WS && cur_blank(L))
            pos++;
        /* the best place to end this line: the shallowest in its last SLACK columns, the farthest */
        int start = col(L) - upto[pos - 1], best = 0, best_depth = 1 << 30, rest_fits = 0;
        for (int k = pos; k <= n; k++) {
            int c = start + upto[k];
            if (k == n) {
                rest_fits = c + reserve <= LIMIT;
                break;
            }
            if (c > LIMIT)
                break;
            if (brk[k] >= 0) {
                int weight = c >= LIMIT - SLACK ? brk[k] : brk[k] + 1000;
                if (weight <= best_depth) {
                    best = k;
                    best_depth = weight;
                }
            }
        }
        if (rest_fits) {
            for (int k = pos; k <= n; k++)
                emit_item(L, f.tok[k - 1]);
            return;
        }
        int last = best;
        if (!last) {
            /* nothing fits: up to the next break, its strings and comments split */
            last = n;
            for (int k = pos; k < n; k++)
                if (brk[k] >= 0) {
                    last = k;
                    break;
                }
            for (int k = pos; k <= last; k++) {
                const node *t = f.tok[k - 1];
                int after = upto[last] - upto[k] + (last == n ? reserve : 0);
                if (t->kind == K_STR && col(L) + t->w + after > LIMIT)
                    lay_string(L, src + t->p, t->w, cont, after);
                else if (t->kind == K_COMMENT && col(L) + t->w + after > LIMIT)
                    lay_comment(L, src + t->p, t->w, after);
                else
                    emit_item(L, t);
            }
        } else {
            for (int k = pos; k <= last; k++)
                emit_item(L, f.tok[k - 1]);
        }
        pos = last + 1;
        if (pos <= n)
            newline(L, cont);
    }
}

typedef struct {
    node **items;
    int n, w, r;
} segment;

/* Lays the items out from the current column; continuation lines start at `cont`, and
 * `reserve` columns must stay free after the last item (what follows it on the line). */
static void seq(layout *L, node **all, int count, int cont, int reserve)
{
    const char *src = L->src;
    int first;
    int n = trim(all, count, &first);
    node **items = all + first;
    if (n <= 0)
        return;
    if (col(L) + total_width(items, n) + reserve <= LIMIT) {
        emit_run(L, items, 0, n - 1);
        return;
    }
    int *at = arena_alloc(sizeof *at * (size_t)n);
    int after = 0;
    int nat = separators(items, n, src, at, &after);
    if (nat) {
        /* segments between the separators: each on the line if it fits, else on a new one,
         * when every one fits on a line of its own; else the whole is filled (nested calls) */
        int nsegs = nat + 1;
        segment *segs = arena_alloc(sizeof *segs * (size_t)nsegs);
        int from = 0;
        for (int s = 0; s < nsegs; s++) {
            int to = s < nat ? (after ? at[s] : at[s] - 1) : n - 1;
            int f0;
            segs[s].n = trim(items + from, to - from + 1, &f0);
            segs[s].items = items + from + f0;
            if (segs[s].n < 0)
                segs[s].n = 0;
            segs[s].w = total_width(segs[s].items, segs[s].n);
            segs[s].r = s == nsegs - 1 ? reserve : 0;
            from = to + 1;
        }
        if (nsegs == 2 && after && class_of(items[at[0]], src) == ASSIGN) {
            /* `x = value`: the value on this line, or on the next, or broken itself */
            emit_run(L, segs[0].items, 0, segs[0].n - 1);
            const segment *v = &segs[1];
            if (col(L) + 1 + v->w + v->r > LIMIT && cont + v->w + v->r <= LIMIT)
                newline(L, cont);
            else
                emit(L, " ", 1);
            seq(L, v->items, v->n, cont, v->r);
            return;
        }
        for (int s = 0; s < nsegs; s++)
            if (cont + segs[s].w + segs[s].r > LIMIT && (s > 0 || col(L) + segs[s].w + segs[s].r > LIMIT)) {
                fill(L, items, n, cont > ALIGN_MAX ? L->base + 8 : cont, reserve);
                return;
            }
        for (int s = 0; s < nsegs; s++) {
            if (s > 0) {
                if (col(L) + 1 + segs[s].w + segs[s].r <= LIMIT)
                    emit(L, " ", 1);
                else
                    newline(L, cont);
            }
            emit_run(L, segs[s].items, 0, segs[s].n - 1);
        }
        return;
    }
    /* no separator: tokens as they are, brackets opened where they do not fit */
    for (int k = 0; k < n; k++) {
        const node *it = items[k];
        /* what must follow on this line: up to the next bracket that could open */
        int r = 0, m = k + 1;
        while (m < n && items[m]->kind != K_GROUP)
            r += items[m++]->w;
        r += m >= n ? reserve : 1;
        if (it->kind == K_GROUP && col(L) + it->w + r > LIMIT && breakable(it, src)) {
            emit_item(L, it->open);
            int inner = col(L);
            if (inner > ALIGN_MAX) {
                inner = L->base + 8;
                newline(L, inner);
            }
            seq(L, it->items, it->n, inner, r + it->close->w);
            emit_item(L, it->close);
        } else if (it->kind == K_STR && col(L) + it->w + r > LIMIT) {
            lay_string(L, src + it->p, it->w, col(L) > ALIGN_MAX ? L->base + 8 : col(L), r);
        } else if (it->kind == K_COMMENT && col(L) + it->w + r > LIMIT) {
            lay_comment(L, src + it->p, it->w, r);
        } else if (it->kind == K_WS && cur_blank(L)) {
            /* no white space at the start of a continuation line */
        } else {
            emit_item(L, it);
        }
    }
}

/* ---- lines and files ------------------------------------------------------------------------ */

/* Whether a comment is still open after s[0..n) (one was open before it: `in_comment`),
 * skipping string and character literals and // comments: the short lines' cheap path. */
static int comment_after(const char *s, int n, int in_comment)
{
    int i = 0;
    for (;;) {
        if (in_comment) {
            int e = find_comment_end(s, n, i);
            if (e < 0)
                return 1;
            in_comment = 0;
            i = e + 2;
            continue;
        }
        while (i < n && s[i] != '"' && s[i] != '\'' && s[i] != '/')
            i++;
        if (i >= n)
            return 0;
        char ch = s[i];
        if (ch == '/') {
            char nx = i + 1 < n ? s[i + 1] : 0;
            if (nx == '*') {
                in_comment = 1;
                i += 2;
            } else if (nx == '/') {
                return 0;
            } else {
                i++;
            }
        } else { /* a literal: to its closing quote, past escapes */
            i++;
            for (;;) {
                while (i < n && s[i] != '\\' && s[i] != ch)
                    i++;
                if (i >= n)
                    return 0;
                if (s[i] == '\\') {
                    i += 2;
                } else {
                    i++;
                    break;
                }
            }
        }
    }
}

/* Writes the lines a long line becomes, each with its newline, to `out`. Returns whether a
 * comment is open after it. */
static int wrap_line(const char *s, int n, int in_comment, buf *out)
{
    token_list toks;
    int still = tokenize(s, n, in_comment, &toks);
    layout L = {s, out, {0}, 0};
    int lead = 0;
    while (lead < n && is_space((unsigned char)s[lead]))
        lead++;
    emit(&L, s, (size_t)lead);
    L.base = lead;
    if (in_comment || (lead < n && s[lead] == '#')) {
        /* comments only: a preprocessor line's code would need backslashes */
        for (int i = 0; i < toks.n; i++) {
            const node *tk = &toks.v[i];
            if (tk->kind == K_COMMENT && col(&L) + tk->w > LIMIT) {
                if (in_comment && i == 0) {
                    /* a comment's middle line: its words go on under the same " * " */
                    const char *c = s + tk->p;
                    int star = 0;
                    while (star < tk->w && is_space((unsigned char)c[star]))
                        star++;
                    if (star + 1 < tk->w && c[star] == '*' && is_space((unsigned char)c[star + 1]))
                        star += 2;
                    else
                        star = lead;
                    L.cur.len = 0;
                    emit(&L, s, (size_t)star); /* the same bytes: `star` or the lead both start the line */
                    int j = star, start, w;
                    while ((w = next_word(c, tk->w, &j, &start))) {
                        if (col(&L) > star && col(&L) + 1 + w > LIMIT) {
                            newline(&L, 0);
                            emit(&L, s, (size_t)star);
                            emit(&L, c + start, (size_t)w);
                        } else {
                            if (col(&L) > star)
                                emit(&L, " ", 1);
                            emit(&L, c + start, (size_t)w);
                        }
                    }
                } else {
                    lay_comment(&L, s + tk->p, tk->w, 0);
                }
            } else if (!(tk->kind == K_WS && cur_blank(&L))) {
                emit_item(&L, tk);
            }
        }
    } else {
        node *root = tree(&toks);
        seq(&L, root->items, root->n, lead + 8, 0);
    }
    finish_line(&L);
    free(L.cur.data);
    arena_free();
    return still;
}

char *c_wrap(const char *src, size_t len, size_t *out_len)
{
    buf out = {0};
    buf_reserve(&out, len + len / 8 + 1); /* the text and what breaking its lines adds, mostly */
    int in_comment = 0;
    size_t pos = 0, copied = 0;
    while (pos < len) {
        const char *nl = memchr(src + pos, '\n', len - pos);
        size_t e = nl ? (size_t)(nl - src) : len; /* a last line without a newline ends here */
        if (e - pos > LIMIT) {
            buf_add(&out, src + copied, pos - copied);
            in_comment = wrap_line(src + pos, (int)(e - pos), in_comment, &out);
            if (!nl)
                out.len--; /* it had no newline, and gets none */
            copied = nl ? e + 1 : len;
        } else if (in_comment || memchr(src + pos, '/', e - pos)) {
            in_comment = comment_after(src + pos, (int)(e - pos), in_comment);
        }
        pos = e + 1;
    }
    if (copied < len)
        buf_add(&out, src + copied, len - copied);
    if (!out.data)
        out.data = checked(malloc(1));
    *out_len = out.len;
    return out.data;
}
