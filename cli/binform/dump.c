#include "dump.h"

#include <string.h>

/* Byte fields up to this size are written out as hex; larger ones by position only. */
#define DUMP_HEX_LIMIT 256

static void dump_bytes(json *j, const bf_bytes *b)
{
    json_begin_object(j);
    json_key(j, "offset");
    json_uint(j, b->offset);
    json_key(j, "length");
    json_uint(j, b->len);
    if (b->len <= DUMP_HEX_LIMIT) {
        char hex[2 * DUMP_HEX_LIMIT + 1];
        for (size_t i = 0; i < b->len; i++)
            snprintf(hex + 2 * i, 3, "%02x", b->ptr[i]);
        json_key(j, "hex");
        json_string(j, hex, 2 * b->len);
    }
    json_end_object(j);
}

static void dump_number(json *j, const bf_field_desc *f, const void *elem)
{
    if (bf_prim_is_float(f->prim)) {
        json_double(j, bf_prim_double(f->prim, elem));
        return;
    }
    int64_t v = bf_prim_int(f->prim, elem);
    const char *name = f->enumdef ? bf_enum_name(f->enumdef, v) : NULL;
    if (name)
        json_cstring(j, name);
    else if (f->prim == BF_U64)
        json_uint(j, (uint64_t)v);
    else
        json_int(j, v);
}

static void dump_element(json *j, const bf_field_desc *f, const void *elem)
{
    switch (f->kind) {
    case BF_FIELD_PRIM:
        dump_number(j, f, elem);
        break;
    case BF_FIELD_STRUCT:
        dump_object(j, f->type, elem);
        break;
    case BF_FIELD_STR: {
        const bf_str *s = elem;
        json_string(j, s->ptr ? s->ptr : "", s->len);
        break;
    }
    case BF_FIELD_BYTES:
        dump_bytes(j, elem);
        break;
    case BF_FIELD_SWITCH:
        break;
    }
}

/* Flags as the list of the names of their set bits. */
static void dump_flags(json *j, const bf_enum_desc *e, int64_t v)
{
    json_begin_array(j);
    for (size_t i = 0; i < e->count; i++)
        if ((uint64_t)v >> e->values[i].value & 1)
            json_cstring(j, e->values[i].name);
    json_end_array(j);
}

static void dump_field(json *j, const bf_field_desc *f, const void *obj)
{
    char key[256];
    uint64_t n = bf_field_count(f, obj);
    if (f->has_offset != BF_NONE && n == 0)
        return; /* left out by its `if:` */
    if (f->kind == BF_FIELD_SWITCH) {
        bf_switch_view v = bf_field_switch(f, obj);
        json_key(j, f->name);
        if (v.type) {
            json_begin_object(j);
            json_key(j, "_type");
            json_cstring(j, v.type->name);
            json_key(j, "_value");
            dump_object(j, v.type, v.ptr);
            json_end_object(j);
        } else {
            dump_bytes(j, &v.raw);
        }
    } else {
        json_key(j, f->name);
        if (f->array == BF_SCALAR) {
            dump_element(j, f, bf_field_elem(f, obj, 0));
        } else {
            if (f->kind == BF_FIELD_PRIM)
                json_begin_inline_array(j);
            else
                json_begin_array(j);
            for (uint64_t i = 0; i < n; i++)
                dump_element(j, f, bf_field_elem(f, obj, i));
            json_end_array(j);
        }
    }
    if (f->enumdef && f->enumdef->is_flags && f->array == BF_SCALAR) {
        snprintf(key, sizeof key, "%s_flags", f->name);
        json_key(j, key);
        dump_flags(j, f->enumdef, bf_prim_int(f->prim, bf_field_elem(f, obj, 0)));
    }
    for (size_t b = 0; b < f->bit_count; b++) {
        int64_t v;
        memcpy(&v, (const uint8_t *)obj + f->bits[b].offset, sizeof v);
        snprintf(key, sizeof key, "%s_%s", f->name, f->bits[b].name);
        json_key(j, key);
        json_int(j, v);
    }
    if (f->value_offset != BF_NONE) {
        snprintf(key, sizeof key, "%s_value", f->name);
        json_key(j, key);
        bf_field_desc as_double = *f;
        as_double.kind = BF_FIELD_PRIM;
        as_double.prim = BF_F64;
        as_double.offset = f->value_offset;
        as_double.enumdef = NULL;
        if (f->array == BF_SCALAR) {
            json_double(j, bf_prim_double(BF_F64, bf_field_elem(&as_double, obj, 0)));
        } else {
            json_begin_inline_array(j);
            for (uint64_t i = 0; i < n; i++)
                json_double(j, bf_prim_double(BF_F64, bf_field_elem(&as_double, obj, i)));
            json_end_array(j);
        }
    }
    if (f->str_offset != BF_NONE) {
        bf_str s;
        memcpy(&s, (const uint8_t *)obj + f->str_offset, sizeof s);
        snprintf(key, sizeof key, "%s_str", f->name);
        json_key(j, key);
        if (s.ptr)
            json_string(j, s.ptr, s.len);
        else
            json_null(j);
    }
    if (f->tail_offset != BF_NONE) {
        bf_bytes tail;
        memcpy(&tail, (const uint8_t *)obj + f->tail_offset, sizeof tail);
        if (tail.len) {
            snprintf(key, sizeof key, "%s_tail", f->name);
            json_key(j, key);
            dump_bytes(j, &tail);
        }
    }
}

void dump_object(json *j, const bf_type_desc *type, const void *obj)
{
    json_begin_object(j);
    json_key(j, "_offset");
    json_uint(j, bf_obj_offset(obj));
    for (size_t i = 0; i < type->field_count; i++)
        dump_field(j, &type->fields[i], obj);
    json_end_object(j);
}
