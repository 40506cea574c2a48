/* Walking generated documents through their reflection tables. */
#include <string.h>

#include "bf_gen.h"
#include "bf_meta.h"

static const uint8_t *at(const void *obj, size_t offset) { return (const uint8_t *)obj + offset; }

static uint32_t load_u32_member(const void *obj, size_t offset)
{
    uint32_t v;
    memcpy(&v, at(obj, offset), sizeof v);
    return v;
}

static uint64_t load_u64_member(const void *obj, size_t offset)
{
    uint64_t v;
    memcpy(&v, at(obj, offset), sizeof v);
    return v;
}

int bf_prim_size(bf_prim p)
{
    static const int sizes[] = {1, 2, 3, 4, 8, 1, 2, 3, 4, 8, 4, 8, 1};
    return sizes[p];
}

const char *bf_prim_name(bf_prim p)
{
    static const char *const names[] = {"u8", "u16", "u24", "u32", "u64", "s8", "s16", "s24", "s32", "s64",
                                        "f32", "f64", "char"};
    return names[p];
}

int bf_prim_is_float(bf_prim p) { return p == BF_F32 || p == BF_F64; }

size_t bf_field_elem_mem_size(const bf_field_desc *f)
{
    switch (f->kind) {
    case BF_FIELD_PRIM: {
        static const size_t sizes[] = {1, 2, 4, 4, 8, 1, 2, 4, 4, 8, sizeof(float), sizeof(double), 1};
        return sizes[f->prim];
    }
    case BF_FIELD_STRUCT:
        return f->type->size;
    case BF_FIELD_STR:
        return sizeof(bf_str);
    case BF_FIELD_BYTES:
        return sizeof(bf_bytes);
    case BF_FIELD_SWITCH:
        return 0;
    }
    return 0;
}

uint64_t bf_field_count(const bf_field_desc *f, const void *obj)
{
    if (f->has_offset && !*at(obj, f->has_offset))
        return 0;
    switch (f->array) {
    case BF_SCALAR:
        return 1;
    case BF_ARRAY_FIXED:
        return f->fixed_count;
    case BF_ARRAY:
        return load_u32_member(obj, f->count_offset);
    }
    return 0;
}

const void *bf_field_elem(const bf_field_desc *f, const void *obj, uint64_t i)
{
    if (f->array == BF_ARRAY) {
        const uint8_t *base;
        memcpy(&base, at(obj, f->offset), sizeof base);
        return base + i * bf_field_elem_mem_size(f);
    }
    return at(obj, f->offset + (size_t)i * bf_field_elem_mem_size(f));
}

/* Converting a NaN, an infinity or a value out of int64's range is undefined behaviour;
 * files hold such floats, so saturate (NaN: 0). */
static int64_t double_to_int(double v)
{
    if (v != v)
        return 0;
    if (v >= 9223372036854775808.0)
        return INT64_MAX;
    if (v < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)v;
}

int64_t bf_prim_int(bf_prim p, const void *elem)
{
    switch (p) {
    case BF_U8: case BF_CHAR: { uint8_t v; memcpy(&v, elem, 1); return v; }
    case BF_S8: { int8_t v; memcpy(&v, elem, 1); return v; }
    case BF_U16: { uint16_t v; memcpy(&v, elem, 2); return v; }
    case BF_S16: { int16_t v; memcpy(&v, elem, 2); return v; }
    case BF_U24: case BF_U32: { uint32_t v; memcpy(&v, elem, 4); return v; }
    case BF_S24: case BF_S32: { int32_t v; memcpy(&v, elem, 4); return v; }
    case BF_U64: { uint64_t v; memcpy(&v, elem, 8); return bf_s64(v); }
    case BF_S64: { int64_t v; memcpy(&v, elem, 8); return v; }
    case BF_F32: { float v; memcpy(&v, elem, 4); return double_to_int(v); }
    case BF_F64: { double v; memcpy(&v, elem, 8); return double_to_int(v); }
    }
    return 0;
}

double bf_prim_double(bf_prim p, const void *elem)
{
    if (p == BF_F32) {
        float v;
        memcpy(&v, elem, 4);
        return v;
    }
    if (p == BF_F64) {
        double v;
        memcpy(&v, elem, 8);
        return v;
    }
    if (p == BF_U64) {
        uint64_t v;
        memcpy(&v, elem, 8);
        return (double)v;
    }
    return (double)bf_prim_int(p, elem);
}

uint64_t bf_field_pos(const bf_field_desc *f, const void *obj)
{
    if (f->at_offset)
        return load_u64_member(obj, f->at_offset);
    return bf_obj_offset(obj) + (uint64_t)(f->static_offset < 0 ? 0 : f->static_offset);
}

bf_switch_view bf_field_switch(const bf_field_desc *f, const void *obj)
{
    bf_switch_view v;
    memset(&v, 0, sizeof v);
    memcpy(&v.kind, at(obj, f->offset), sizeof v.kind);
    memcpy(&v.raw, at(obj, f->switch_raw_offset), sizeof v.raw);
    for (size_t i = 0; v.kind && i < f->case_count; i++) {
        if (f->cases[i].type && f->cases[i].type->kind_id == v.kind) {
            v.type = f->cases[i].type;
            memcpy(&v.ptr, at(obj, f->cases[i].ptr_offset), sizeof v.ptr);
            break;
        }
    }
    return v;
}

int bf_value_get(const bf_value_desc *v, const void *root, int64_t revision, size_t size, const void *obj, int64_t *i,
                 double *f, bf_error *err)
{
    bf_ctx c;
    /* values compute from the structures, never the bytes; `_size` is the input's size, as
     * the reader and the validator see it */
    bf_ctx_init(&c, NULL, size, NULL, err);
    c.root = root;
    c.revision = revision;
    if (v->is_float)
        *f = v->float_of(&c, obj);
    else
        *i = v->int_of(&c, obj);
    return !err->failed;
}

const char *bf_enum_name(const bf_enum_desc *e, int64_t value)
{
    for (size_t i = 0; e && i < e->count; i++)
        if (!e->is_flags && e->values[i].value == value)
            return e->values[i].name;
    return NULL;
}

static int has_extension(const char *path, const char *ext)
{
    size_t n = strlen(path), m = strlen(ext);
    return n > m && path[n - m - 1] == '.' && strcmp(path + n - m, ext) == 0;
}

const bf_entry_desc *bf_detect(const bf_format_desc *const *formats, const uint8_t *data, size_t size,
                               const char *path, const bf_format_desc **format_out)
{
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; formats[i]; i++) {
            for (size_t j = 0; j < formats[i]->entry_count; j++) {
                const bf_entry_desc *e = &formats[i]->entries[j];
                int match = 0;
                if (pass == 0)
                    match = e->magic && e->magic_at <= size && e->magic_len <= size - e->magic_at &&
                            memcmp(data + e->magic_at, e->magic, e->magic_len) == 0;
                else
                    for (size_t k = 0; path && e->extensions && e->extensions[k]; k++)
                        match |= has_extension(path, e->extensions[k]);
                if (match) {
                    if (format_out)
                        *format_out = formats[i];
                    return e;
                }
            }
        }
    }
    return NULL;
}
