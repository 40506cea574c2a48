#include "json_parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *p;
    char *error;
    size_t error_size;
    int failed;
    int depth;
} parser;

static void fail(parser *ps, const char *what)
{
    if (!ps->failed)
        snprintf(ps->error, ps->error_size, "%s near '%.20s'", what, ps->p);
    ps->failed = 1;
}

static void skip(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t')
        ps->p++;
}

static int parse_value(parser *ps, jv *out);

static char *parse_string(parser *ps)
{
    if (*ps->p != '"') {
        fail(ps, "string expected");
        return NULL;
    }
    ps->p++;
    size_t cap = 16, n = 0;
    char *s = malloc(cap);
    while (*ps->p != '"') {
        char c = *ps->p++;
        if (!c || (unsigned char)c < 0x20) {
            fail(ps, "unterminated string or raw control character");
            free(s);
            return NULL;
        }
        if (c == '\\') {
            char e = *ps->p++;
            const char *map = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
            const char *m = e ? strchr(map, e) : NULL;
            if (m) {
                c = to[m - map];
            } else if (e == 'u' && isxdigit((unsigned char)ps->p[0]) && isxdigit((unsigned char)ps->p[1]) &&
                       isxdigit((unsigned char)ps->p[2]) && isxdigit((unsigned char)ps->p[3])) {
                char hex[5] = {ps->p[0], ps->p[1], ps->p[2], ps->p[3], 0};
                c = (char)strtol(hex, NULL, 16);
                ps->p += 4;
            } else {
                fail(ps, "bad escape");
                free(s);
                return NULL;
            }
        }
        if (n + 1 >= cap)
            s = realloc(s, cap *= 2);
        s[n++] = c;
    }
    ps->p++;
    s[n] = '\0';
    return s;
}

static int parse_container(parser *ps, jv *out, int object)
{
    out->kind = object ? JV_OBJECT : JV_ARRAY;
    ps->p++;
    if (++ps->depth > 200) {
        fail(ps, "nesting too deep");
        return 0;
    }
    skip(ps);
    if (*ps->p == (object ? '}' : ']')) {
        ps->p++;
        ps->depth--;
        return 1;
    }
    for (;;) {
        out->items = realloc(out->items, (out->count + 1) * sizeof *out->items);
        memset(&out->items[out->count], 0, sizeof *out->items);
        if (object) {
            out->keys = realloc(out->keys, (out->count + 1) * sizeof *out->keys);
            skip(ps);
            out->keys[out->count] = parse_string(ps);
            out->count++;
            if (!out->keys[out->count - 1])
                return 0;
            skip(ps);
            if (*ps->p != ':') {
                fail(ps, "':' expected");
                return 0;
            }
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
        fail(ps, "',' or end of container expected");
        return 0;
    }
}

static int parse_value(parser *ps, jv *out)
{
    skip(ps);
    const char *p = ps->p;
    if (*p == '{' || *p == '[')
        return parse_container(ps, out, *p == '{');
    if (*p == '"') {
        out->kind = JV_STRING;
        out->string = parse_string(ps);
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
    if (*p == '-' || isdigit((unsigned char)*p)) {
        /* JSON numbers: no leading zeros, no hex, no trailing dot */
        const char *q = p + (*p == '-');
        if (!isdigit((unsigned char)*q) || (q[0] == '0' && isdigit((unsigned char)q[1]))) {
            fail(ps, "bad number");
            return 0;
        }
        char *end;
        out->kind = JV_NUMBER;
        out->number = strtod(p, &end);
        if (end[-1] == '.') {
            fail(ps, "bad number");
            return 0;
        }
        ps->p = end;
        return 1;
    }
    fail(ps, "value expected");
    return 0;
}

jv *jv_parse(const char *text, char *error, size_t error_size)
{
    parser ps = {text, error, error_size, 0, 0};
    jv *v = calloc(1, sizeof *v);
    int ok = parse_value(&ps, v);
    skip(&ps);
    if (ok && *ps.p) {
        fail(&ps, "text after the value");
        ok = 0;
    }
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
