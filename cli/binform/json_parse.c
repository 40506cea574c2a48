/* The JSON parser is our own, not a library's (jansson, the one Debian keeps well), because
 * what it reads is a dump and what it reports is for the builder (checked against jansson
 * 2.14 with JSON_REJECT_DUPLICATES):
 * - A dump's strings are a file's bytes, not Unicode: json.c writes each byte >= 0x7f as
 *   \u00XX and this parser gives that one byte back. jansson decodes \u00e9 to two bytes of
 *   UTF-8 (c3 a9) and refuses text that is not UTF-8, with no option to do otherwise: every
 *   name outside ASCII would come back changed, and round trips would no longer be exact.
 * - Every error of `binform build` names the value's line and column (an unknown key, a
 *   value out of range, a duplicate key with both of its places). jansson keeps a position
 *   for its own syntax errors only, none per value, and names only the second of two keys.
 * - Memory: jansson allocates each value and hashes each object; its tree of platformer.t3dm's
 *   6.1 MB dump takes 32 MB (this one 15 MB), of 9 MB of [0,0,...] 197 MB (this one 149 MB).
 * The memory is bounded by the text's size: a first pass checks the syntax, refuses numbers
 * beyond a double and counts the values, keys and bytes of decoded text; the second fills
 * exactly sized pools (one 32-byte node a value, no allocation per value, no growing arrays)
 * and refuses duplicate keys. A dump's tree is 2.5 times its text (4.8 for a compact dump); the
 * densest JSON there is (`[0,0,...]`, two bytes a value) 17 times. */
#include "json_parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 200
/* Objects with more members than this find duplicate keys by hashing, not by comparing. */
#define SMALL_OBJECT 8

/* The whole tree in three blocks: the nodes (the root first), the keys' pointers, and the
 * decoded text (strings, numbers' text, keys: each zero-terminated; a key preceded by its
 * position and length, for finding and reporting duplicates). */
typedef struct jv_tree {
    char **keys;
    char *bytes;
    size_t memory; /* the three blocks' sizes */
    jv nodes[];
} jv_tree;

typedef struct parser {
    const char *text, *p, *end;
    char *error;
    size_t error_size;
    int failed;
    int depth;
    int fill; /* 0: the first pass (checking, counting), 1: the second (filling the pools) */
    /* first pass: totals; second: how much of each pool is used */
    size_t nodes, keys, bytes;
    /* each container's element count, in the order the containers open */
    uint32_t *counts;
    size_t count_len, count_cap, count_next;
    jv_tree *tree;
} parser;

void jv_line_col(const char *text, size_t at, int *line, int *col)
{
    *line = 1, *col = 1;
    for (size_t i = 0; i < at && text[i]; i++) {
        if (text[i] == '\n')
            (*line)++, *col = 1;
        else
            (*col)++;
    }
}

static int fail_at(parser *ps, const char *at, const char *what)
{
    if (!ps->failed) {
        int line, col;
        jv_line_col(ps->text, (size_t)(at - ps->text), &line, &col);
        int left = at < ps->end ? (int)(ps->end - at < 20 ? ps->end - at : 20) : 0;
        if (at < ps->end && *at == '\0')
            snprintf(ps->error, ps->error_size, "line %d, column %d: a zero byte (at byte %zu)", line, col,
                     (size_t)(at - ps->text));
        else
            snprintf(ps->error, ps->error_size, "line %d, column %d: %s near '%.*s'", line, col, what, left, at);
    }
    ps->failed = 1;
    return 0;
}

static int fail(parser *ps, const char *what) { return fail_at(ps, ps->p, what); }

/* The next byte, or 0 at the end (a zero byte in the text is no valid JSON either). */
static char peek(const parser *ps) { return ps->p < ps->end ? *ps->p : '\0'; }

static void skip(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t'))
        ps->p++;
}

static int starts(const parser *ps, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(ps->end - ps->p) >= n && memcmp(ps->p, word, n) == 0;
}

static int parse_value(parser *ps, jv *out);

static int hex4(const parser *ps, unsigned *out)
{
    *out = 0;
    if (ps->end - ps->p < 4)
        return 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = (unsigned char)ps->p[i];
        if (!isxdigit(c))
            return 0;
        *out = *out * 16 + (unsigned)(isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
    }
    return 1;
}

/* A string: checked and measured (first pass), or decoded into `to` (second). \u escapes
 * below 0x100 are single bytes (dumps keep the file's bytes that way); above, UTF-8.
 * Returns the decoded length, or -1. */
static long long parse_string(parser *ps, char *to)
{
    if (peek(ps) != '"')
        return fail(ps, "string expected"), -1;
    ps->p++;
    size_t n = 0;
    while (peek(ps) != '"') {
        if (ps->p >= ps->end || (unsigned char)*ps->p < 0x20)
            return fail(ps, "unterminated string or raw control character"), -1;
        char c = *ps->p++;
        if (c != '\\') {
            if (to)
                to[n] = c;
            n++;
            continue;
        }
        char e = peek(ps);
        ps->p++;
        const char *map = "\"\\/bfnrt", *was = "\"\\/\b\f\n\r\t";
        const char *m = e ? strchr(map, e) : NULL;
        unsigned u;
        char utf8[3];
        size_t k = 0;
        if (m) {
            utf8[k++] = was[m - map];
        } else if (e == 'u' && hex4(ps, &u)) {
            ps->p += 4;
            if (u < 0x100) {
                utf8[k++] = (char)u;
            } else if (u < 0x800) {
                utf8[k++] = (char)(0xC0 | u >> 6);
                utf8[k++] = (char)(0x80 | (u & 0x3F));
            } else {
                utf8[k++] = (char)(0xE0 | u >> 12);
                utf8[k++] = (char)(0x80 | (u >> 6 & 0x3F));
                utf8[k++] = (char)(0x80 | (u & 0x3F));
            }
        } else {
            ps->p -= 2;
            return fail(ps, "bad escape"), -1;
        }
        if (to)
            memcpy(to + n, utf8, k);
        n += k;
    }
    ps->p++;
    if (to)
        to[n] = '\0';
    return (long long)n;
}

/* A string value or key: counted (first pass), or decoded into the pool (second; decoding
 * never makes it longer than it was measured). A key is preceded by its position and length. */
static int string_into(parser *ps, char **out, uint32_t *length, int is_key)
{
    size_t header = is_key ? 2 * sizeof(uint32_t) : 0;
    uint32_t at = (uint32_t)(ps->p - ps->text);
    char *to = ps->fill ? ps->tree->bytes + ps->bytes + header : NULL;
    long long n = parse_string(ps, to);
    if (n < 0)
        return 0;
    ps->bytes += header + (size_t)n + 1;
    if (!ps->fill)
        return 1;
    if (is_key) {
        uint32_t len = (uint32_t)n;
        memcpy(to - header, &at, sizeof at);
        memcpy(to - header + sizeof at, &len, sizeof len);
    }
    *out = to;
    if (length)
        *length = (uint32_t)n;
    return 1;
}

static uint32_t key_at(const char *key)
{
    uint32_t at;
    memcpy(&at, key - 2 * sizeof(uint32_t), sizeof at);
    return at;
}

static uint32_t key_length(const char *key)
{
    uint32_t len;
    memcpy(&len, key - sizeof(uint32_t), sizeof len);
    return len;
}

static int same_key(const char *a, const char *b)
{
    return key_length(a) == key_length(b) && memcmp(a, b, key_length(a)) == 0;
}

static int duplicate(parser *ps, const char *first, const char *second)
{
    int line, col, first_line, first_col;
    jv_line_col(ps->text, key_at(second), &line, &col);
    jv_line_col(ps->text, key_at(first), &first_line, &first_col);
    snprintf(ps->error, ps->error_size, "line %d, column %d: duplicate key '%.60s' (first at line %d, column %d)", line,
             col, second, first_line, first_col);
    ps->failed = 1;
    return 0;
}

/* An object's keys are all different (each the first of its name). */
static int keys_differ(parser *ps, char **keys, uint32_t count)
{
    if (count <= SMALL_OBJECT) {
        for (uint32_t j = 1; j < count; j++)
            for (uint32_t i = 0; i < j; i++)
                if (same_key(keys[i], keys[j]))
                    return duplicate(ps, keys[i], keys[j]);
        return 1;
    }
    size_t slots = 16;
    while (slots < 2 * (size_t)count)
        slots *= 2;
    uint32_t *slot = calloc(slots, sizeof *slot); /* key index + 1; 0: empty */
    if (!slot)
        return fail(ps, "out of memory");
    int ok = 1;
    for (uint32_t j = 0; j < count && ok; j++) {
        uint64_t h = 1469598103934665603u; /* FNV-1a */
        for (uint32_t b = 0; b < key_length(keys[j]); b++)
            h = (h ^ (unsigned char)keys[j][b]) * 1099511628211u;
        size_t s = (size_t)h & (slots - 1);
        while (slot[s] && !same_key(keys[slot[s] - 1], keys[j]))
            s = (s + 1) & (slots - 1);
        if (slot[s])
            ok = duplicate(ps, keys[slot[s] - 1], keys[j]);
        slot[s] = j + 1;
    }
    free(slot);
    return ok;
}

static int parse_container(parser *ps, jv *out, int object)
{
    char close = object ? '}' : ']';
    ps->p++;
    if (++ps->depth > MAX_DEPTH)
        return fail(ps, "nesting too deep");
    uint32_t count = 0;
    size_t counted = 0;
    if (!ps->fill) { /* its count comes at its end: keep its place */
        if (ps->count_len == ps->count_cap) {
            size_t cap = ps->count_cap ? ps->count_cap * 2 : 64;
            uint32_t *bigger = realloc(ps->counts, cap * sizeof *bigger);
            if (!bigger)
                return fail(ps, "out of memory");
            ps->counts = bigger, ps->count_cap = cap;
        }
        counted = ps->count_len++;
    } else {
        uint32_t n = ps->counts[ps->count_next++];
        out->kind = object ? JV_OBJECT : JV_ARRAY;
        out->count = n;
        out->items = ps->tree->nodes + ps->nodes;
        ps->nodes += n;
        if (object) {
            out->keys = ps->tree->keys + ps->keys;
            ps->keys += n;
        }
    }
    skip(ps);
    if (peek(ps) != close) {
        for (;;) {
            if (count == UINT32_MAX)
                return fail(ps, "too many elements");
            if (object) {
                skip(ps);
                if (!string_into(ps, ps->fill ? &out->keys[count] : NULL, NULL, 1))
                    return 0;
                skip(ps);
                if (peek(ps) != ':')
                    return fail(ps, "':' expected");
                ps->p++;
            }
            if (!parse_value(ps, ps->fill ? &out->items[count] : NULL))
                return 0;
            count++;
            skip(ps);
            if (peek(ps) == ',') {
                ps->p++;
                continue;
            }
            if (peek(ps) == close)
                break;
            return fail(ps, "',' or end of container expected");
        }
    }
    ps->p++;
    ps->depth--;
    if (!ps->fill) {
        ps->counts[counted] = count;
        ps->nodes += count;
        if (object)
            ps->keys += count;
        return 1;
    }
    return !object || keys_differ(ps, out->keys, count);
}

static int parse_number(parser *ps, jv *out)
{
    /* JSON numbers: no leading zeros, no hex, digits after a dot and in an exponent */
    const char *p = ps->p, *q = p + (p < ps->end && *p == '-');
#define DIGIT(at) ((at) < ps->end && isdigit((unsigned char)*(at)))
    if (!DIGIT(q) || (q[0] == '0' && DIGIT(q + 1)))
        return fail(ps, "bad number");
    while (DIGIT(q))
        q++;
    if (q < ps->end && *q == '.') {
        q++;
        if (!DIGIT(q))
            return fail(ps, "bad number");
        while (DIGIT(q))
            q++;
    }
    if (q < ps->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < ps->end && (*q == '+' || *q == '-'))
            q++;
        if (!DIGIT(q))
            return fail(ps, "bad number");
        while (DIGIT(q))
            q++;
    }
#undef DIGIT
    size_t n = (size_t)(q - p);
    if (!ps->fill) {
        /* its value, from a zero-terminated copy (the text may end right after it) */
        char small[64], *copy = n < sizeof small ? small : malloc(n + 1);
        if (!copy)
            return fail(ps, "out of memory");
        memcpy(copy, p, n);
        copy[n] = '\0';
        double d = strtod(copy, NULL);
        if (copy != small)
            free(copy);
        if (isinf(d))
            return fail(ps, "number out of range (beyond a double's largest, about 1.8e308)");
    } else {
        out->kind = JV_NUMBER;
        out->string = ps->tree->bytes + ps->bytes;
        memcpy(out->string, p, n);
        out->string[n] = '\0';
        out->length = (uint32_t)n;
        out->number = strtod(out->string, NULL);
    }
    ps->bytes += n + 1;
    ps->p = q;
    return 1;
}

static int parse_value(parser *ps, jv *out)
{
    skip(ps);
    const char *p = ps->p;
    if (ps->fill)
        out->at = (uint32_t)(p - ps->text);
    else
        ps->nodes += ps->depth == 0; /* the root: the others are counted by their container */
    char c = peek(ps);
    if (c == '{' || c == '[')
        return parse_container(ps, out, c == '{');
    if (c == '"') {
        if (ps->fill)
            out->kind = JV_STRING;
        return string_into(ps, ps->fill ? &out->string : NULL, ps->fill ? &out->length : NULL, 0);
    }
    if (starts(ps, "true") || starts(ps, "false")) {
        if (ps->fill)
            out->kind = JV_BOOL, out->boolean = c == 't';
        ps->p += c == 't' ? 4 : 5;
        return 1;
    }
    if (starts(ps, "null")) {
        if (ps->fill)
            out->kind = JV_NULL;
        ps->p += 4;
        return 1;
    }
    if (c == '-' || isdigit((unsigned char)c))
        return parse_number(ps, out);
    return fail(ps, "value expected");
}

/* One pass over the whole text: the value and nothing after it. */
static int parse_all(parser *ps, jv *root)
{
    ps->p = ps->text;
    ps->depth = 0;
    if (!parse_value(ps, root))
        return 0;
    skip(ps);
    return ps->p == ps->end || fail(ps, "text after the value");
}

jv *jv_parse_n(const char *text, size_t size, char *error, size_t error_size)
{
    parser ps = {.text = text, .p = text, .end = text + size, .error = error, .error_size = error_size};
    if (size >= UINT32_MAX) {
        snprintf(error, error_size, "%zu bytes: JSON of 4 GiB or more is not read", size);
        return NULL;
    }
    if (!parse_all(&ps, NULL)) {
        free(ps.counts);
        return NULL;
    }
    size_t nodes = ps.nodes, keys = ps.keys, bytes = ps.bytes;
    jv_tree *tree = calloc(1, sizeof *tree + nodes * sizeof(jv));
    if (tree) {
        tree->keys = malloc((keys ? keys : 1) * sizeof *tree->keys);
        tree->bytes = malloc(bytes ? bytes : 1);
    }
    if (!tree || !tree->keys || !tree->bytes) {
        snprintf(error, error_size, "out of memory (%zu values in %zu bytes of JSON)", nodes, size);
        if (tree)
            free(tree->keys), free(tree->bytes);
        free(tree);
        free(ps.counts);
        return NULL;
    }
    tree->memory = sizeof *tree + nodes * sizeof(jv) + keys * sizeof *tree->keys + bytes;
    ps.tree = tree;
    ps.fill = 1;
    ps.nodes = 1, ps.keys = 0, ps.bytes = 0; /* the root is nodes[0] */
    int ok = parse_all(&ps, &tree->nodes[0]);
    free(ps.counts);
    if (!ok) { /* a duplicate key */
        jv_free(&tree->nodes[0]);
        return NULL;
    }
    return &tree->nodes[0];
}

jv *jv_parse(const char *text, char *error, size_t error_size)
{
    return jv_parse_n(text, strlen(text), error, error_size);
}

static jv_tree *tree_of(jv *root) { return (jv_tree *)((char *)root - offsetof(jv_tree, nodes)); }

void jv_free(jv *v)
{
    if (!v)
        return;
    jv_tree *tree = tree_of(v);
    free(tree->keys);
    free(tree->bytes);
    free(tree);
}

size_t jv_memory(const jv *v)
{
    return tree_of((jv *)v)->memory;
}

const jv *jv_get(const jv *object, const char *key)
{
    if (!object || object->kind != JV_OBJECT)
        return NULL;
    for (size_t i = 0; i < object->count; i++)
        if (strcmp(object->keys[i], key) == 0)
            return &object->items[i];
    return NULL;
}
