#include "schema_check.h"

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

typedef struct checker {
    const jv *root;
    char *why;
    size_t why_size;
} checker;

static int fail(checker *c, const char *path, const char *what, const char *detail)
{
    snprintf(c->why, c->why_size, "%s: %s%s%s", path[0] ? path : "(top)", what, detail ? " " : "", detail ? detail : "");
    return 0;
}

static int json_equal(const jv *a, const jv *b)
{
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case JV_NULL: return 1;
    case JV_BOOL: return a->boolean == b->boolean;
    case JV_NUMBER: return a->number == b->number;
    case JV_STRING: return a->length == b->length && memcmp(a->string, b->string, a->length) == 0;
    case JV_ARRAY:
    case JV_OBJECT:
        if (a->count != b->count)
            return 0;
        for (size_t i = 0; i < a->count; i++)
            if ((a->kind == JV_OBJECT && strcmp(a->keys[i], b->keys[i]) != 0) || !json_equal(&a->items[i], &b->items[i]))
                return 0;
        return 1;
    }
    return 0;
}

static int is_type(const jv *v, const char *type)
{
    if (strcmp(type, "object") == 0) return v->kind == JV_OBJECT;
    if (strcmp(type, "array") == 0) return v->kind == JV_ARRAY;
    if (strcmp(type, "string") == 0) return v->kind == JV_STRING;
    if (strcmp(type, "null") == 0) return v->kind == JV_NULL;
    if (strcmp(type, "boolean") == 0) return v->kind == JV_BOOL;
    if (strcmp(type, "number") == 0) return v->kind == JV_NUMBER;
    if (strcmp(type, "integer") == 0) return v->kind == JV_NUMBER && v->number == floor(v->number);
    return 0;
}

static int check(checker *c, const jv *s, const jv *v, const char *path);

static int type_ok(const jv *type, const jv *v)
{
    if (type->kind == JV_STRING)
        return is_type(v, type->string);
    for (size_t i = 0; i < type->count; i++)
        if (is_type(v, type->items[i].string))
            return 1;
    return 0;
}

static int pattern_ok(const char *pattern, const char *text)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
        return 0;
    int ok = regexec(&re, text, 0, NULL, 0) == 0;
    regfree(&re);
    return ok;
}

static int count_valid(checker *c, const jv *list, const jv *v, const char *path)
{
    int n = 0;
    char saved[512];
    snprintf(saved, sizeof saved, "%s", c->why);
    for (size_t i = 0; i < list->count; i++)
        n += check(c, &list->items[i], v, path);
    snprintf(c->why, c->why_size, "%s", saved);
    return n;
}

static int check_object(checker *c, const jv *s, const jv *v, const char *path)
{
    const jv *props = jv_get(s, "properties"), *required = jv_get(s, "required"),
             *additional = jv_get(s, "additionalProperties");
    for (size_t i = 0; required && i < required->count; i++)
        if (!jv_get(v, required->items[i].string))
            return fail(c, path, "missing required member", required->items[i].string);
    for (size_t i = 0; i < v->count; i++) {
        char sub[1024];
        snprintf(sub, sizeof sub, "%s.%s", path, v->keys[i]);
        const jv *ps = props ? jv_get(props, v->keys[i]) : NULL;
        if (ps) {
            if (!check(c, ps, &v->items[i], sub))
                return 0;
        } else if (additional && additional->kind == JV_BOOL && !additional->boolean) {
            return fail(c, sub, "member not allowed", NULL);
        }
    }
    return 1;
}

static int check(checker *c, const jv *s, const jv *v, const char *path)
{
    if (s->kind == JV_BOOL)
        return s->boolean || fail(c, path, "schema false", NULL);
    static const char *const known[] = {"$schema", "$ref", "$defs", "title", "description", "readOnly", "type", "const",
                                        "enum", "minimum", "maximum", "pattern", "properties", "required",
                                        "additionalProperties", "items", "minItems", "maxItems", "oneOf", "anyOf", NULL};
    for (size_t i = 0; i < s->count; i++) {
        size_t k = 0;
        while (known[k] && strcmp(known[k], s->keys[i]) != 0)
            k++;
        if (!known[k])
            return fail(c, path, "the checker does not know the keyword", s->keys[i]);
    }
    const jv *x;
    if ((x = jv_get(s, "$ref"))) {
        const char *prefix = "#/$defs/";
        const jv *target = strncmp(x->string, prefix, strlen(prefix)) == 0
                               ? jv_get(jv_get(c->root, "$defs"), x->string + strlen(prefix)) : NULL;
        if (!target)
            return fail(c, path, "unresolved $ref", x->string);
        if (!check(c, target, v, path))
            return 0;
    }
    if ((x = jv_get(s, "type")) && !type_ok(x, v))
        return fail(c, path, "wrong type", NULL);
    if ((x = jv_get(s, "const")) && !json_equal(x, v))
        return fail(c, path, "not the constant", NULL);
    if ((x = jv_get(s, "enum"))) {
        size_t i = 0;
        while (i < x->count && !json_equal(&x->items[i], v))
            i++;
        if (i == x->count)
            return fail(c, path, "not one of the enum's values", v->kind == JV_STRING ? v->string : NULL);
    }
    if (v->kind == JV_NUMBER && (x = jv_get(s, "minimum")) && v->number < x->number)
        return fail(c, path, "below the minimum", NULL);
    if (v->kind == JV_NUMBER && (x = jv_get(s, "maximum")) && v->number > x->number)
        return fail(c, path, "above the maximum", NULL);
    if (v->kind == JV_STRING && (x = jv_get(s, "pattern")) && !pattern_ok(x->string, v->string))
        return fail(c, path, "does not match", x->string);
    if (v->kind == JV_OBJECT && !check_object(c, s, v, path))
        return 0;
    if (v->kind == JV_ARRAY) {
        if ((x = jv_get(s, "minItems")) && v->count < x->number)
            return fail(c, path, "too few items", NULL);
        if ((x = jv_get(s, "maxItems")) && v->count > x->number)
            return fail(c, path, "too many items", NULL);
        if ((x = jv_get(s, "items")))
            for (size_t i = 0; i < v->count; i++) {
                char sub[1024];
                snprintf(sub, sizeof sub, "%s[%zu]", path, i);
                if (!check(c, x, &v->items[i], sub))
                    return 0;
            }
    }
    if ((x = jv_get(s, "oneOf")) && count_valid(c, x, v, path) != 1)
        return fail(c, path, "not exactly one of oneOf", NULL);
    if ((x = jv_get(s, "anyOf")) && count_valid(c, x, v, path) == 0)
        return fail(c, path, "none of anyOf", NULL);
    return 1;
}

int schema_check(const jv *schema, const jv *doc, char *why, size_t why_size)
{
    checker c = {schema, why, why_size};
    why[0] = '\0';
    return check(&c, schema, doc, "");
}
