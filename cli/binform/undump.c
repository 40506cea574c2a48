/* Every key of the JSON must mean something: unknown keys are errors, so that a typo in an
 * edited dump is not silently dropped. Missing fields are zero (the builder computes counts,
 * offsets and sizes), missing optional fields are absent. */
#define _POSIX_C_SOURCE 200809L
#include "undump.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bf_gen.h"
#include "known_formats.h"

typedef struct undump {
    const char *text;
    bf_arena *arena;
    char *error;
    size_t error_size;
    int depth;
} undump;

static int fail(undump *u, const jv *at, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int fail(undump *u, const jv *at, const char *path, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    int line = 0, col = 0;
    if (at)
        jv_line_col(u->text, at->at, &line, &col);
    snprintf(u->error, u->error_size, "%s (line %d, column %d): %s", path, line, col, what);
    return 0;
}

/* A sub-path: PATH + the formatted rest (cut short rather than overflow). */
static void subpath(char *out, size_t size, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void subpath(char *out, size_t size, const char *path, const char *fmt, ...)
{
    size_t n = strlen(path) < size ? strlen(path) : size - 1;
    memcpy(out, path, n);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out + n, size - n, fmt, ap);
    va_end(ap);
}

static void *alloc(undump *u, size_t size) { return bf_arena_alloc(u->arena, size ? size : 1); }

static uint8_t *member(void *obj, size_t offset) { return (uint8_t *)obj + offset; }

/* ---- numbers ---- */

static const char *kind_name(jv_kind k)
{
    static const char *const names[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
    return names[k];
}

/* An integer: a JSON integer, or a decimal string (beyond 2^53). */
static int read_integer(undump *u, const jv *v, const char *path, int is_unsigned, int64_t *out)
{
    const char *text = v->kind == JV_NUMBER || v->kind == JV_STRING ? v->string : NULL;
    if (!text)
        return fail(u, v, path, "an integer expected, not %s", kind_name(v->kind));
    char *end;
    errno = 0;
    if (is_unsigned) {
        if (text[0] == '-')
            return fail(u, v, path, "%s is negative", text);
        uint64_t x = strtoull(text, &end, 10);
        *out = bf_s64(x);
    } else {
        *out = strtoll(text, &end, 10);
    }
    if (end == text || *end || errno)
        return fail(u, v, path, "'%s' is not an integer%s", text, errno ? " in 64 bits" : "");
    return 1;
}

static int fits(bf_prim p, int64_t v)
{
    switch (p) {
    case BF_U8: case BF_CHAR: return v >= 0 && v <= UINT8_MAX;
    case BF_U16: return v >= 0 && v <= UINT16_MAX;
    case BF_U24: return v >= 0 && v <= 0xFFFFFF;
    case BF_U32: return v >= 0 && v <= UINT32_MAX;
    case BF_S8: return v >= INT8_MIN && v <= INT8_MAX;
    case BF_S16: return v >= INT16_MIN && v <= INT16_MAX;
    case BF_S24: return v >= -0x800000 && v <= 0x7FFFFF;
    case BF_S32: return v >= INT32_MIN && v <= INT32_MAX;
    default: return 1;
    }
}

static void store_int(bf_prim p, void *at, int64_t v)
{
    switch (p) {
    case BF_U8: case BF_S8: case BF_CHAR: { uint8_t x = (uint8_t)v; memcpy(at, &x, 1); break; }
    case BF_U16: case BF_S16: { uint16_t x = (uint16_t)v; memcpy(at, &x, 2); break; }
    case BF_U24: case BF_U32: case BF_S24: case BF_S32: { uint32_t x = (uint32_t)v; memcpy(at, &x, 4); break; }
    default: memcpy(at, &v, 8); break;
    }
}

static int read_float(undump *u, const jv *v, const char *path, bf_prim p, void *at)
{
    double d;
    if (v->kind == JV_NUMBER) {
        d = strtod(v->string, NULL);
    } else if (v->kind == JV_STRING && strncmp(v->string, "nan:0x", 6) == 0) {
        char *end;
        uint64_t bits = strtoull(v->string + 6, &end, 16);
        if (*end || end == v->string + 6)
            return fail(u, v, path, "'%s' is not nan:0xBITS", v->string);
        if (p == BF_F32) {
            uint32_t low = (uint32_t)bits;
            memcpy(at, &low, 4);
        } else {
            memcpy(at, &bits, 8);
        }
        return 1;
    } else if (v->kind == JV_STRING && (strcmp(v->string, "inf") == 0 || strcmp(v->string, "-inf") == 0)) {
        d = v->string[0] == '-' ? -INFINITY : INFINITY;
    } else if (v->kind == JV_STRING && strcmp(v->string, "nan") == 0) {
        d = NAN;
    } else {
        return fail(u, v, path, "a number expected, not %s", kind_name(v->kind));
    }
    if (p == BF_F32) {
        float f = (float)d;
        if (isinf(f) && !isinf(d)) /* "inf" says so; a number too large for 32 bits does not */
            return fail(u, v, path, "%s is out of range of f32 (largest about 3.4e38)", v->string);
        memcpy(at, &f, 4);
    } else {
        memcpy(at, &d, 8);
    }
    return 1;
}

static int enum_value_named(const bf_enum_desc *e, const char *name, int64_t *out)
{
    for (size_t i = 0; i < e->count; i++)
        if (strcmp(e->values[i].name, name) == 0) {
            *out = e->is_flags ? (int64_t)((uint64_t)1 << e->values[i].value) : e->values[i].value;
            return 1;
        }
    return 0;
}

/* {"name", "value"}: either will do; both must agree. A bare number or name is taken too. */
static int read_enum(undump *u, const jv *v, const char *path, const bf_field_desc *f, int64_t *out)
{
    const bf_enum_desc *e = f->enumdef;
    int is_unsigned = f->prim == BF_U64;
    if (v->kind == JV_NUMBER)
        return read_integer(u, v, path, is_unsigned, out);
    if (v->kind == JV_STRING) {
        if (!e->is_flags && enum_value_named(e, v->string, out))
            return 1;
        return read_integer(u, v, path, is_unsigned, out) ||
               fail(u, v, path, "'%s' is not a value of %s", v->string, e->name);
    }
    if (v->kind != JV_OBJECT)
        return fail(u, v, path, "%s expected ({\"%s\": ..., \"value\": N}), not %s", e->name,
                    e->is_flags ? "flags" : "name", kind_name(v->kind));
    const jv *value = jv_get(v, "value"), *named = jv_get(v, e->is_flags ? "flags" : "name");
    for (size_t i = 0; i < v->count; i++)
        if (strcmp(v->keys[i], "value") != 0 && strcmp(v->keys[i], e->is_flags ? "flags" : "name") != 0)
            return fail(u, &v->items[i], path, "unknown key '%s' in %s %s", v->keys[i], e->is_flags ? "flags" : "enum",
                        e->name);
    int64_t by_value = 0, by_name = 0;
    int have_value = value != NULL, have_name = named && named->kind != JV_NULL;
    if (have_value && !read_integer(u, value, path, is_unsigned, &by_value))
        return 0;
    if (have_name && !e->is_flags) {
        if (named->kind != JV_STRING || !enum_value_named(e, named->string, &by_name))
            return fail(u, named, path, "'%s' is not a value of %s", named->kind == JV_STRING ? named->string : "?",
                        e->name);
    } else if (have_name) {
        if (named->kind != JV_ARRAY)
            return fail(u, named, path, "flags: a list of names expected");
        for (size_t i = 0; i < named->count; i++) {
            int64_t bit;
            if (named->items[i].kind != JV_STRING || !enum_value_named(e, named->items[i].string, &bit))
                return fail(u, &named->items[i], path, "not a flag of %s", e->name);
            by_name |= bit;
        }
    }
    if (!have_value && !have_name)
        return fail(u, v, path, "%s: neither a value nor a %s", e->name, e->is_flags ? "flag list" : "name");
    if (have_value && have_name) {
        /* flags: the names cover the known bits only */
        uint64_t known = 0;
        for (size_t i = 0; e->is_flags && i < e->count; i++)
            known |= (uint64_t)1 << e->values[i].value;
        int64_t compared = e->is_flags ? (int64_t)((uint64_t)by_value & known) : by_value;
        if (compared != by_name)
            return fail(u, v, path, "%s: the %s and the value (%" PRId64 ") disagree; change both or leave one out",
                        e->name, e->is_flags ? "flags" : "name", by_value);
    }
    *out = have_value ? by_value : by_name;
    return 1;
}

static int read_prim(undump *u, const jv *v, const char *path, const bf_field_desc *f, void *at)
{
    if (bf_prim_is_float(f->prim))
        return read_float(u, v, path, f->prim, at);
    int64_t x;
    if (f->enumdef ? !read_enum(u, v, path, f, &x) : !read_integer(u, v, path, f->prim == BF_U64, &x))
        return 0;
    if (!fits(f->prim, x))
        return fail(u, v, path, "%" PRId64 " does not fit in %s", x, bf_prim_name(f->prim));
    store_int(f->prim, at, x);
    return 1;
}

/* ---- strings and bytes ---- */

static int read_str(undump *u, const jv *v, const char *path, bf_str *out)
{
    memset(out, 0, sizeof *out);
    if (v->kind == JV_NULL)
        return 1;
    if (v->kind != JV_STRING)
        return fail(u, v, path, "a string expected, not %s", kind_name(v->kind));
    char *copy = alloc(u, v->length + 1);
    if (!copy)
        return fail(u, v, path, "out of memory");
    memcpy(copy, v->string, v->length);
    out->ptr = copy;
    out->len = (uint32_t)strnlen(copy, v->length);
    out->size = out->len < v->length ? (uint32_t)v->length : 0; /* stored bytes after the text */
    return 1;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int read_hex(undump *u, const jv *v, const char *path, bf_bytes *out)
{
    memset(out, 0, sizeof *out);
    if (v->kind == JV_NULL)
        return 1;
    if (v->kind != JV_STRING)
        return fail(u, v, path, "bytes as a hex string expected, not %s", kind_name(v->kind));
    if (v->length % 2)
        return fail(u, v, path, "an odd number of hex digits");
    uint8_t *bytes = alloc(u, v->length / 2);
    if (!bytes)
        return fail(u, v, path, "out of memory");
    for (size_t i = 0; i < v->length / 2; i++) {
        int hi = hex_digit(v->string[2 * i]), lo = hex_digit(v->string[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return fail(u, v, path, "'%c%c' at character %zu is not hex", v->string[2 * i], v->string[2 * i + 1],
                        2 * i);
        bytes[i] = (uint8_t)(hi << 4 | lo);
    }
    out->ptr = bytes;
    out->len = v->length / 2;
    return 1;
}

/* ---- structures ---- */

static int read_object(undump *u, const bf_type_desc *type, const jv *v, const char *path, void *obj);

static int read_switch(undump *u, const bf_field_desc *f, const jv *v, const char *path, void *obj)
{
    if (v->kind != JV_OBJECT)
        return fail(u, v, path, "a switch {\"case\", \"value\", \"raw\"} expected, not %s", kind_name(v->kind));
    for (size_t i = 0; i < v->count; i++)
        if (strcmp(v->keys[i], "case") && strcmp(v->keys[i], "value") && strcmp(v->keys[i], "raw"))
            return fail(u, &v->items[i], path, "unknown key '%s' in a switch (case, value, raw)", v->keys[i]);
    const jv *label = jv_get(v, "case"), *value = jv_get(v, "value"), *raw = jv_get(v, "raw");
    int kind = 0;
    const bf_case_desc *chosen = NULL;
    if (label && label->kind == JV_STRING) {
        for (size_t i = 0; i < f->case_count && !chosen; i++)
            if (strcmp(f->cases[i].label, label->string) == 0) {
                chosen = &f->cases[i];
                kind = chosen->type ? chosen->type->kind_id : strcmp(chosen->label, "default") == 0 ? 0 : -(int)i - 1;
            }
        if (!chosen) {
            char list[512] = "";
            for (size_t i = 0; i < f->case_count; i++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", f->cases[i].label);
            return fail(u, label, path, "no case '%s' (cases: %s)", label->string, list);
        }
    } else if (label && label->kind != JV_NULL) {
        return fail(u, label, path, "case: a label expected");
    }
    memcpy(member(obj, f->offset), &kind, sizeof kind);
    char sub[1024];
    subpath(sub, sizeof sub, path, ".value");
    if (chosen && chosen->type) {
        if (!value || value->kind != JV_OBJECT)
            return fail(u, value ? value : v, sub, "case %s holds a %s: an object expected", chosen->label,
                        chosen->type->name);
        void *case_obj = alloc(u, chosen->type->size);
        if (!case_obj)
            return fail(u, v, path, "out of memory");
        memcpy(member(obj, chosen->ptr_offset), &case_obj, sizeof case_obj);
        if (!read_object(u, chosen->type, value, sub, case_obj))
            return 0;
    } else if (value && value->kind != JV_NULL) {
        return fail(u, value, sub, "case %s holds raw bytes: value must be null", chosen ? chosen->label : "(none)");
    }
    subpath(sub, sizeof sub, path, ".raw");
    return !raw || read_hex(u, raw, sub, (bf_bytes *)member(obj, f->switch_raw_offset));
}

static int read_element(undump *u, const bf_field_desc *f, const jv *v, const char *path, void *elem)
{
    switch (f->kind) {
    case BF_FIELD_PRIM:
        return read_prim(u, v, path, f, elem);
    case BF_FIELD_STRUCT:
        return read_object(u, f->type, v, path, elem);
    case BF_FIELD_STR:
        return read_str(u, v, path, elem);
    case BF_FIELD_BYTES:
        return read_hex(u, v, path, elem);
    case BF_FIELD_SWITCH:
        break;
    }
    return 0;
}

/* The field's value: one element, or an array of them. */
static int read_field_value(undump *u, const bf_field_desc *f, const jv *v, const char *path, void *obj)
{
    if (f->kind == BF_FIELD_SWITCH)
        return read_switch(u, f, v, path, obj);
    if (f->array == BF_SCALAR)
        return read_element(u, f, v, path, member(obj, f->offset));
    if (v->kind != JV_ARRAY)
        return fail(u, v, path, "an array expected, not %s", kind_name(v->kind));
    if (f->array == BF_ARRAY_FIXED && v->count != f->fixed_count)
        return fail(u, v, path, "%" PRIu32 " elements where the format has exactly %" PRIu32, v->count, f->fixed_count);
    if (f->array == BF_ARRAY) {
        void *elems = alloc(u, bf_field_elem_mem_size(f) * v->count);
        if (!elems)
            return fail(u, v, path, "out of memory");
        memcpy(member(obj, f->offset), &elems, sizeof elems);
        uint32_t count = (uint32_t)v->count;
        memcpy(member(obj, f->count_offset), &count, sizeof count);
    }
    for (size_t i = 0; i < v->count; i++) {
        char sub[1024];
        subpath(sub, sizeof sub, path, "[%zu]", i);
        if (!read_element(u, f, &v->items[i], sub, (void *)bf_field_elem(f, obj, i)))
            return 0;
    }
    return 1;
}

/* Which of the field's JSON keys `key` is: 0 none, else one of these. */
enum { KEY_VALUE = 1, KEY_AT, KEY_PAD, KEY_TAIL, KEY_STR, KEY_DERIVED, KEY_BITS };

static int key_role(const bf_field_desc *f, const char *key, size_t *bit)
{
    size_t n = strlen(f->name);
    if (strncmp(key, f->name, n) != 0)
        return 0;
    const char *rest = key + n;
    if (!*rest)
        return KEY_VALUE;
    if (*rest != '_')
        return 0;
    rest++;
    if (f->at_offset && strcmp(rest, "at") == 0)
        return KEY_AT;
    if (f->pad_offset && strcmp(rest, "pad") == 0)
        return KEY_PAD;
    if (f->tail_offset && strcmp(rest, "tail") == 0)
        return KEY_TAIL;
    if (f->str_offset && strcmp(rest, "str") == 0)
        return KEY_STR;
    if (f->value_offset && strcmp(rest, "value") == 0)
        return KEY_DERIVED;
    for (size_t b = 0; b < f->bit_count; b++)
        if (strcmp(rest, f->bits[b].name) == 0) {
            *bit = b;
            return KEY_BITS;
        }
    return 0;
}

static int read_member(undump *u, const bf_field_desc *f, int role, size_t bit, const jv *v, const char *path,
                       void *obj)
{
    int64_t x;
    switch (role) {
    case KEY_VALUE:
        if (f->has_offset)
            *member(obj, f->has_offset) = 1;
        return read_field_value(u, f, v, path, obj);
    case KEY_AT:
        if (!read_integer(u, v, path, 1, &x))
            return 0;
        memcpy(member(obj, f->at_offset), &x, sizeof x);
        return 1;
    case KEY_PAD:
        return read_hex(u, v, path, (bf_bytes *)member(obj, f->pad_offset));
    case KEY_TAIL:
        return read_hex(u, v, path, (bf_bytes *)member(obj, f->tail_offset));
    case KEY_STR:
        return read_str(u, v, path, (bf_str *)member(obj, f->str_offset));
    case KEY_DERIVED:
        return 1; /* computed by the reader from the stored value: read-only */
    case KEY_BITS:
        if (!read_integer(u, v, path, !f->bits[bit].is_signed, &x))
            return 0;
        memcpy(member(obj, f->bits[bit].offset), &x, sizeof x);
        return 1;
    }
    return 0;
}

/* ---- bit sub-fields ---- */

/* The stored bits of an integer member (store_int's inverse, not sign-extended). */
static uint64_t load_raw(bf_prim p, const void *at)
{
    switch (p) {
    case BF_U8: case BF_S8: case BF_CHAR: { uint8_t x; memcpy(&x, at, 1); return x; }
    case BF_U16: case BF_S16: { uint16_t x; memcpy(&x, at, 2); return x; }
    case BF_U24: case BF_U32: case BF_S24: case BF_S32: { uint32_t x; memcpy(&x, at, 4); return x; }
    default: { uint64_t x; memcpy(&x, at, 8); return x; }
    }
}

static int bits_fit(int64_t v, unsigned width, int is_signed)
{
    if (width >= 64)
        return 1;
    if (is_signed)
        return v >= -((int64_t)1 << (width - 1)) && v < ((int64_t)1 << (width - 1));
    return v >= 0 && (uint64_t)v >> width == 0;
}

/* A field split into bit sub-fields (schema `bits`) has two spellings in a dump: the
 * stored number ("normal") and its parts ("normal_x", ...). The replay writer writes the
 * number, the builder makes it from the parts: both see the same file only if the two agree.
 * So the parts given must fit their widths, and with the number given too must agree with it
 * (change both or leave one out); then the number is made from what was given and every part
 * from the number. */
static int settle_bits(undump *u, const bf_field_desc *f, const jv *v, const char *path, void *obj)
{
    const jv *raw = NULL, *part[64] = {0};
    int parts = 0;
    for (size_t k = 0; k < v->count; k++) {
        size_t bit = 0;
        int role = key_role(f, v->keys[k], &bit);
        if (role == KEY_VALUE)
            raw = &v->items[k];
        else if (role == KEY_BITS && bit < 64)
            part[bit] = &v->items[k], parts = 1;
    }
    if (!parts && !raw)
        return 1; /* neither: zero, as any missing field */
    uint64_t number = load_raw(f->prim, member(obj, f->offset)), made = number;
    for (size_t b = 0; b < f->bit_count && b < 64; b++) {
        const bf_bits_desc *d = &f->bits[b];
        int64_t x;
        memcpy(&x, member(obj, d->offset), sizeof x);
        char sub[1024];
        subpath(sub, sizeof sub, path, ".%s_%s", f->name, d->name);
        if (part[b] && !bits_fit(x, d->width, d->is_signed))
            return fail(u, part[b], sub, "%" PRId64 " does not fit in %u bits%s", x, d->width,
                        d->is_signed ? " (signed)" : "");
        if (!part[b] || d->width >= 64)
            continue;
        uint64_t mask = ((uint64_t)1 << d->width) - 1;
        made = (made & ~(mask << d->shift)) | (((uint64_t)x & mask) << d->shift);
    }
    if (raw && made != number) {
        char sub[1024];
        subpath(sub, sizeof sub, path, ".%s", f->name);
        return fail(u, raw, sub, "%" PRIu64 " and its parts (%s_%s, ...) disagree: they make %" PRIu64
                    "; change both or leave one out", number, f->name, f->bits[0].name, made);
    }
    store_int(f->prim, member(obj, f->offset), (int64_t)made);
    for (size_t b = 0; b < f->bit_count; b++) {
        const bf_bits_desc *d = &f->bits[b];
        uint64_t x = d->width >= 64 ? made : made >> d->shift & (((uint64_t)1 << d->width) - 1);
        int64_t value = d->is_signed && d->width < 64 ? bf_sext(x, d->width) : (int64_t)x;
        memcpy(member(obj, d->offset), &value, sizeof value);
    }
    return 1;
}

static int read_object(undump *u, const bf_type_desc *type, const jv *v, const char *path, void *obj)
{
    if (v->kind != JV_OBJECT)
        return fail(u, v, path, "%s: an object expected, not %s", type->name, kind_name(v->kind));
    if (++u->depth > 64)
        return fail(u, v, path, "nested too deep");
    for (size_t k = 0; k < v->count; k++) {
        const char *key = v->keys[k];
        const jv *value = &v->items[k];
        char sub[1024];
        subpath(sub, sizeof sub, path, ".%s", key);
        if (strcmp(key, "_offset") == 0) {
            int64_t x;
            if (!read_integer(u, value, sub, 1, &x))
                return 0;
            memcpy(obj, &x, sizeof x);
            continue;
        }
        if (strcmp(key, "_computed") == 0)
            continue; /* named values: the builder computes them from the fields */
        int role = 0;
        size_t bit = 0, i = 0;
        for (; i < type->field_count && !role; i++)
            role = key_role(&type->fields[i], key, &bit);
        if (!role)
            return fail(u, value, sub, "%s has no field '%s'", type->name, key);
        const bf_field_desc *f = &type->fields[i - 1];
        if (role != KEY_VALUE)
            subpath(sub, sizeof sub, path, ".%s", key);
        if (!read_member(u, f, role, bit, value, sub, obj))
            return 0;
    }
    u->depth--;
    for (size_t i = 0; i < type->field_count; i++)
        if (type->fields[i].bit_count && !settle_bits(u, &type->fields[i], v, path, obj))
            return 0;
    return 1;
}

int undump_document(const jv *v, const char *text, bf_arena *arena, undump_result *out)
{
    memset(out, 0, sizeof *out);
    undump u = {text, arena, out->error, sizeof out->error, 0};
    if (v->kind != JV_OBJECT)
        return fail(&u, v, "(top)", "an object {\"format\", \"kind\", \"revision\", \"root\"} expected");
    for (size_t i = 0; i < v->count; i++)
        if (strcmp(v->keys[i], "format") && strcmp(v->keys[i], "kind") && strcmp(v->keys[i], "revision") &&
            strcmp(v->keys[i], "root"))
            return fail(&u, &v->items[i], v->keys[i], "unknown key at the top (format, kind, revision, root)");
    const jv *format = jv_get(v, "format"), *kind = jv_get(v, "kind"), *revision = jv_get(v, "revision"),
             *root = jv_get(v, "root");
    if (!format || format->kind != JV_STRING)
        return fail(&u, format ? format : v, "format", "the format's name expected (see 'binform formats')");
    for (size_t i = 0; known_formats()[i] && !out->format; i++)
        if (strcmp(known_formats()[i]->name, format->string) == 0)
            out->format = known_formats()[i];
    if (!out->format)
        return fail(&u, format, "format", "unknown format '%s' (see 'binform formats')", format->string);
    if (kind && kind->kind != JV_STRING)
        return fail(&u, kind, "kind", "the kind of file expected, as a string");
    out->entry = &out->format->entries[0];
    for (size_t i = 0; kind && i < out->format->entry_count; i++)
        if (strcmp(out->format->entries[i].name, kind->string) == 0)
            out->entry = &out->format->entries[i];
    if (kind && strcmp(out->entry->name, kind->string) != 0)
        return fail(&u, kind, "kind", "%s has no kind of file '%s'", out->format->name, kind->string);
    if (revision && revision->kind == JV_STRING) {
        size_t r = 0;
        while (r < out->format->revision_count && strcmp(out->format->revisions[r], revision->string) != 0)
            r++;
        if (r == out->format->revision_count)
            return fail(&u, revision, "revision", "%s has no revision '%s'", out->format->name, revision->string);
        out->revision = (int64_t)r;
    } else if (revision && revision->kind != JV_NULL) {
        return fail(&u, revision, "revision", "a revision name or null expected");
    }
    if (!root)
        return fail(&u, v, "root", "no root: the document itself");
    out->root = alloc(&u, out->entry->root->size);
    if (!out->root)
        return fail(&u, root, "root", "out of memory");
    if (out->entry->revision_offset)
        memcpy(member(out->root, out->entry->revision_offset), &out->revision, sizeof out->revision);
    return read_object(&u, out->entry->root, root, "root", out->root);
}
