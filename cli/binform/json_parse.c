#include "json_parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 200

typedef struct parser {
    const char *text, *p;
    char *error;
    size_t error_size;
    int failed;
    int depth;
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

static int fail(parser *ps, const char *what)
{
    if (!ps->failed) {
        int line, col;
        jv_line_col(ps->text, (size_t)(ps->p - ps->text), &line, &col);
        snprintf(ps->error, ps->error_size, "line %d, column %d: %s near '%.20s'", line, col, what, ps->p);
    }
    ps->failed = 1;
    return 0;
}

static void skip(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t')
        ps->p++;
}

static int parse_value(parser *ps, jv *out);

/* Appends one byte to a growing buffer. */
static int put(char **s, size_t *n, size_t *cap, char c)
{
    if (*n + 1 >= *cap) {
        char *bigger = realloc(*s, *cap *= 2);
        if (!bigger)
            return 0;
        *s = bigger;
    }
    (*s)[(*n)++] = c;
    return 1;
}

static int hex4(const char *p, unsigned *out)
{
    *out = 0;
    for (int i = 0; i < 4; i++) {
        if (!isxdigit((unsigned char)p[i]))
            return 0;
        *out = *out * 16 + (unsigned)(isdigit((unsigned char)p[i]) ? p[i] - '0' : (tolower((unsigned char)p[i]) - 'a' + 10));
    }
    return 1;
}

/* \u escapes below 0x100 are single bytes (dumps keep the file's bytes that way); above,
 * UTF-8. */
static char *parse_string(parser *ps, size_t *length)
{
    if (*ps->p != '"') {
        fail(ps, "string expected");
        return NULL;
    }
    ps->p++;
    size_t cap = 16, n = 0;
    char *s = malloc(cap);
    int ok = s != NULL;
    while (ok && *ps->p != '"') {
        char c = *ps->p++;
        if (!c || (unsigned char)c < 0x20) {
            ps->p--;
            ok = fail(ps, "unterminated string or raw control character");
            break;
        }
        if (c != '\\') {
            ok = put(&s, &n, &cap, c);
            continue;
        }
        char e = *ps->p++;
        const char *map = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
        const char *m = e ? strchr(map, e) : NULL;
        unsigned u;
        if (m) {
            ok = put(&s, &n, &cap, to[m - map]);
        } else if (e == 'u' && hex4(ps->p, &u)) {
            ps->p += 4;
            if (u < 0x100) {
                ok = put(&s, &n, &cap, (char)u);
            } else if (u < 0x800) {
                ok = put(&s, &n, &cap, (char)(0xC0 | u >> 6)) && put(&s, &n, &cap, (char)(0x80 | (u & 0x3F)));
            } else {
                ok = put(&s, &n, &cap, (char)(0xE0 | u >> 12)) && put(&s, &n, &cap, (char)(0x80 | (u >> 6 & 0x3F))) &&
                     put(&s, &n, &cap, (char)(0x80 | (u & 0x3F)));
            }
        } else {
            ps->p -= 2;
            ok = fail(ps, "bad escape");
        }
    }
    if (!ok) {
        if (!ps->failed)
            fail(ps, "out of memory");
        free(s);
        return NULL;
    }
    ps->p++;
    s[n] = '\0';
    if (length)
        *length = n;
    return s;
}

static int parse_container(parser *ps, jv *out, int object)
{
    out->kind = object ? JV_OBJECT : JV_ARRAY;
    ps->p++;
    if (++ps->depth > MAX_DEPTH)
        return fail(ps, "nesting too deep");
    skip(ps);
    if (*ps->p == (object ? '}' : ']')) {
        ps->p++;
        ps->depth--;
        return 1;
    }
    size_t cap = 0;
    for (;;) {
        if (out->count == cap) {
            cap = cap ? cap * 2 : 4;
            jv *items = realloc(out->items, cap * sizeof *items);
            if (!items)
                return fail(ps, "out of memory");
            out->items = items;
            if (object) {
                char **keys = realloc(out->keys, cap * sizeof *keys);
                if (!keys)
                    return fail(ps, "out of memory");
                out->keys = keys;
            }
        }
        memset(&out->items[out->count], 0, sizeof *out->items);
        if (object) {
            skip(ps);
            out->keys[out->count] = parse_string(ps, NULL);
            out->count++;
            if (!out->keys[out->count - 1])
                return 0;
            skip(ps);
            if (*ps->p != ':')
                return fail(ps, "':' expected");
            ps->p++;
        } else {
            out->count++;
        }
        if (!parse_value(ps, &out->items[out->count - 1]))
            return 0;
        skip(ps);
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p == (object ? '}' : ']')) {
            ps->p++;
            ps->depth--;
            return 1;
        }
        return fail(ps, "',' or end of container expected");
    }
}

static int parse_number(parser *ps, jv *out)
{
    /* JSON numbers: no leading zeros, no hex, digits after a dot and in an exponent */
    const char *p = ps->p, *q = p + (*p == '-');
    if (!isdigit((unsigned char)*q) || (q[0] == '0' && isdigit((unsigned char)q[1])))
        return fail(ps, "bad number");
    while (isdigit((unsigned char)*q))
        q++;
    if (*q == '.') {
        if (!isdigit((unsigned char)*++q))
            return fail(ps, "bad number");
        while (isdigit((unsigned char)*q))
            q++;
    }
    if (*q == 'e' || *q == 'E') {
        q++;
        if (*q == '+' || *q == '-')
            q++;
        if (!isdigit((unsigned char)*q))
            return fail(ps, "bad number");
        while (isdigit((unsigned char)*q))
            q++;
    }
    out->kind = JV_NUMBER;
    out->number = strtod(p, NULL);
    out->length = (size_t)(q - p);
    out->string = malloc(out->length + 1);
    if (!out->string)
        return fail(ps, "out of memory");
    memcpy(out->string, p, out->length);
    out->string[out->length] = '\0';
    ps->p = q;
    return 1;
}

static int parse_value(parser *ps, jv *out)
{
    skip(ps);
    const char *p = ps->p;
    out->at = (size_t)(p - ps->text);
    if (*p == '{' || *p == '[')
        return parse_container(ps, out, *p == '{');
    if (*p == '"') {
        out->kind = JV_STRING;
        out->string = parse_string(ps, &out->length);
        return out->string != NULL;
    }
    if (strncmp(p, "true", 4) == 0 || strncmp(p, "false", 5) == 0) {
        out->kind = JV_BOOL;
        out->boolean = *p == 't';
        ps->p += out->boolean ? 4 : 5;
        return 1;
    }
    if (strncmp(p, "null", 4) == 0) {
        out->kind = JV_NULL;
        ps->p += 4;
        return 1;
    }
    if (*p == '-' || isdigit((unsigned char)*p))
        return parse_number(ps, out);
    return fail(ps, "value expected");
}

jv *jv_parse(const char *text, char *error, size_t error_size)
{
    parser ps = {text, text, error, error_size, 0, 0};
    jv *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    int ok = parse_value(&ps, v);
    skip(&ps);
    if (ok && *ps.p)
        ok = fail(&ps, "text after the value");
    if (!ok) {
        jv_free(v);
        return NULL;
    }
    return v;
}

static void free_inner(jv *v)
{
    for (size_t i = 0; i < v->count; i++) {
        free_inner(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
}

void jv_free(jv *v)
{
    if (!v)
        return;
    free_inner(v);
    free(v);
}

const jv *jv_get(const jv *object, const char *key)
{
    if (!object || object->kind != JV_OBJECT)
        return NULL;
    for (size_t i = 0; i < object->count; i++)
        if (object->keys[i] && strcmp(object->keys[i], key) == 0)
            return &object->items[i];
    return NULL;
}
