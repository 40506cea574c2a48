/* The dump's shapes, the same for every format:
 *   structure   {"_offset": N, FIELD: VALUE, ...} in schema order, with beside a field the
 *               members that make the file exact: FIELD_at (where located data starts),
 *               FIELD_pad (alignment bytes before it), FIELD_tail (bytes after it in its
 *               region), FIELD_str (the string an offset points at), FIELD_BITNAME (packed
 *               bits), and the read-only FIELD_value (a derived number); after `_offset`, the
 *               read-only "_computed": {VALUE: N or null} (the type's named values, schema
 *               `values`: computed from the fields, not stored; null when they cannot be).
 *   integer     a number, or a decimal string beyond 2^53 (JSON readers round those)
 *   float       a number (shortest exact), or "inf", "-inf", "nan:0xBITS"
 *   enum        {"name": NAME or null, "value": N};  flags {"value": N, "flags": [NAME...]}
 *   bytes       a hex string, in full
 *   string      its text; a fixed-length string with bytes after its terminator keeps them
 *               ("abc\u0000xyz")
 *   switch      {"case": LABEL, "value": STRUCTURE or null, "raw": HEX}
 *   absent      a field its `if:` left out is not there at all */
#include "dump.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAFE_INTEGER 9007199254740992.0 /* 2^53: JSON readers hold integers exactly up to here */

/* What named values need besides their structure: the document's root, its revision and the
 * size of the input (`_size`). */
typedef struct dump_doc {
    const void *root;
    int64_t revision;
    size_t size;
} dump_doc;

static void dump_object(json *j, const dump_doc *doc, const bf_type_desc *type, const void *obj);

static void dump_int64(json *j, int64_t v, int is_unsigned)
{
    char text[32];
    if (is_unsigned) {
        uint64_t u = (uint64_t)v;
        snprintf(text, sizeof text, (double)u > SAFE_INTEGER ? "\"%" PRIu64 "\"" : "%" PRIu64, u);
    } else {
        snprintf(text, sizeof text, fabs((double)v) > SAFE_INTEGER ? "\"%" PRId64 "\"" : "%" PRId64, v);
    }
    json_raw(j, text);
}

static void dump_float(json *j, bf_prim prim, const void *elem)
{
    char text[48];
    double v = bf_prim_double(prim, elem);
    if (isnan(v)) {
        uint64_t bits = 0;
        memcpy(&bits, elem, prim == BF_F32 ? 4 : 8); /* the payload, kept exact */
        snprintf(text, sizeof text, "\"nan:0x%0*" PRIx64 "\"", prim == BF_F32 ? 8 : 16, bits);
    } else if (isinf(v)) {
        snprintf(text, sizeof text, "\"%s\"", v > 0 ? "inf" : "-inf");
    } else {
        /* the shortest text that reads back to the same value */
        for (int digits = prim == BF_F32 ? 6 : 15; digits <= 17; digits++) {
            snprintf(text, sizeof text, "%.*g", digits, v);
            double back = strtod(text, NULL);
            if (prim == BF_F32 ? (float)back == (float)v : back == v)
                break;
        }
    }
    json_raw(j, text);
}

static void dump_hex(json *j, const uint8_t *p, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    char small[256];
    char *text = 2 * len + 3 <= sizeof small ? small : malloc(2 * len + 3);
    if (!text) {
        json_null(j); /* out of memory: the dump says so by failing to build back */
        return;
    }
    size_t n = 0;
    text[n++] = '"';
    for (size_t i = 0; i < len; i++) {
        text[n++] = digits[p[i] >> 4];
        text[n++] = digits[p[i] & 15];
    }
    text[n++] = '"';
    text[n] = '\0';
    json_raw(j, text);
    if (text != small)
        free(text);
}

static void dump_enum(json *j, const bf_enum_desc *e, int64_t v)
{
    json_begin_object(j);
    if (e->is_flags) {
        json_key(j, "value");
        dump_int64(j, v, 1);
        json_key(j, "flags");
        json_begin_inline_array(j);
        for (size_t i = 0; i < e->count; i++)
            if (e->values[i].value < 64 && ((uint64_t)v >> e->values[i].value & 1))
                json_cstring(j, e->values[i].name);
        json_end_array(j);
    } else {
        json_key(j, "name");
        const char *name = bf_enum_name(e, v);
        name ? json_cstring(j, name) : json_null(j);
        json_key(j, "value");
        dump_int64(j, v, 0);
    }
    json_end_object(j);
}

static void dump_number(json *j, const bf_field_desc *f, const void *elem)
{
    if (bf_prim_is_float(f->prim))
        dump_float(j, f->prim, elem);
    else if (f->enumdef)
        dump_enum(j, f->enumdef, bf_prim_int(f->prim, elem));
    else
        dump_int64(j, bf_prim_int(f->prim, elem), f->prim == BF_U64);
}

/* A string's stored bytes: the text, and whatever follows its terminator when not zeros. */
static void dump_str(json *j, const bf_str *s)
{
    if (!s->ptr) {
        json_null(j);
        return;
    }
    size_t n = s->len;
    for (size_t i = s->len; i < s->size; i++)
        if (s->ptr[i])
            n = s->size;
    json_string(j, s->ptr, n);
}

static void dump_bytes_member(json *j, const char *field, const char *suffix, const void *obj, size_t offset)
{
    bf_bytes b;
    memcpy(&b, (const uint8_t *)obj + offset, sizeof b);
    if (!b.len)
        return;
    char key[256];
    snprintf(key, sizeof key, "%s%s", field, suffix);
    json_key(j, key);
    dump_hex(j, b.ptr, b.len);
}

static void dump_switch(json *j, const dump_doc *doc, const bf_field_desc *f, const void *obj)
{
    bf_switch_view v = bf_field_switch(f, obj);
    const char *label = NULL;
    for (size_t i = 0; i < f->case_count && !label; i++) {
        const bf_case_desc *c = &f->cases[i];
        if (v.type ? c->type == v.type : (v.kind < 0 ? (int64_t)i == -(int64_t)v.kind - 1 : !c->type && c->tag == 0))
            label = c->label;
    }
    json_begin_object(j);
    json_key(j, "case");
    label ? json_cstring(j, label) : json_null(j);
    json_key(j, "value");
    if (v.type)
        dump_object(j, doc, v.type, v.ptr);
    else
        json_null(j);
    json_key(j, "raw");
    dump_hex(j, v.raw.ptr, v.raw.len);
    json_end_object(j);
}

static void dump_element(json *j, const dump_doc *doc, const bf_field_desc *f, const void *elem)
{
    switch (f->kind) {
    case BF_FIELD_PRIM:
        dump_number(j, f, elem);
        break;
    case BF_FIELD_STRUCT:
        dump_object(j, doc, f->type, elem);
        break;
    case BF_FIELD_STR:
        dump_str(j, elem);
        break;
    case BF_FIELD_BYTES: {
        const bf_bytes *b = elem;
        dump_hex(j, b->ptr, b->len);
        break;
    }
    case BF_FIELD_SWITCH:
        break;
    }
}

static void dump_derived(json *j, const bf_field_desc *f, const void *obj, uint64_t n)
{
    char key[256];
    snprintf(key, sizeof key, "%s_value", f->name);
    json_key(j, key);
    bf_field_desc as_double = *f;
    as_double.kind = BF_FIELD_PRIM;
    as_double.prim = BF_F64;
    as_double.offset = f->value_offset;
    as_double.enumdef = NULL;
    if (f->array != BF_SCALAR)
        json_begin_inline_array(j);
    for (uint64_t i = 0; i < n; i++)
        dump_float(j, BF_F64, bf_field_elem(&as_double, obj, i));
    if (f->array != BF_SCALAR)
        json_end_array(j);
}

static void dump_field(json *j, const dump_doc *doc, const bf_field_desc *f, const void *obj)
{
    char key[256];
    uint64_t n = bf_field_count(f, obj);
    if (f->has_offset && n == 0)
        return; /* left out by its `if:` */
    if (f->pad_offset)
        dump_bytes_member(j, f->name, "_pad", obj, f->pad_offset);
    if (f->at_offset) {
        snprintf(key, sizeof key, "%s_at", f->name);
        json_key(j, key);
        json_uint(j, bf_field_pos(f, obj));
    }
    json_key(j, f->name);
    if (f->kind == BF_FIELD_SWITCH) {
        dump_switch(j, doc, f, obj);
    } else if (f->array == BF_SCALAR) {
        dump_element(j, doc, f, bf_field_elem(f, obj, 0));
    } else {
        if (f->kind == BF_FIELD_PRIM && !f->enumdef)
            json_begin_inline_array(j);
        else
            json_begin_array(j);
        for (uint64_t i = 0; i < n; i++)
            dump_element(j, doc, f, bf_field_elem(f, obj, i));
        json_end_array(j);
    }
    for (size_t b = 0; b < f->bit_count; b++) {
        int64_t v;
        memcpy(&v, (const uint8_t *)obj + f->bits[b].offset, sizeof v);
        snprintf(key, sizeof key, "%s_%s", f->name, f->bits[b].name);
        json_key(j, key);
        dump_int64(j, v, !f->bits[b].is_signed);
    }
    if (f->value_offset)
        dump_derived(j, f, obj, n);
    if (f->str_offset) {
        bf_str s;
        memcpy(&s, (const uint8_t *)obj + f->str_offset, sizeof s);
        snprintf(key, sizeof key, "%s_str", f->name);
        json_key(j, key);
        dump_str(j, &s);
    }
    if (f->tail_offset)
        dump_bytes_member(j, f->name, "_tail", obj, f->tail_offset);
}

/* The type's named values, marked as computed: they are not in the file. */
static void dump_computed(json *j, const dump_doc *doc, const bf_type_desc *type, const void *obj)
{
    json_key(j, "_computed");
    json_begin_object(j);
    for (size_t i = 0; i < type->value_count; i++) {
        const bf_value_desc *v = &type->values[i];
        int64_t n = 0;
        double x = 0;
        bf_error err;
        json_key(j, v->name);
        if (!bf_value_get(v, doc->root, doc->revision, doc->size, obj, &n, &x, &err))
            json_null(j);
        else if (v->is_float)
            dump_float(j, BF_F64, &x);
        else
            dump_int64(j, n, 0);
    }
    json_end_object(j);
}

static void dump_object(json *j, const dump_doc *doc, const bf_type_desc *type, const void *obj)
{
    json_begin_object(j);
    json_key(j, "_offset");
    json_uint(j, bf_obj_offset(obj));
    if (type->value_count)
        dump_computed(j, doc, type, obj);
    for (size_t i = 0; i < type->field_count; i++)
        dump_field(j, doc, &type->fields[i], obj);
    json_end_object(j);
}

void dump_document(json *j, const bf_format_desc *format, const bf_entry_desc *entry, const char *revision,
                   const void *root, size_t size)
{
    json_begin_object(j);
    json_key(j, "format");
    json_cstring(j, format->name);
    json_key(j, "kind");
    json_cstring(j, entry->name);
    json_key(j, "revision");
    revision ? json_cstring(j, revision) : json_null(j);
    json_key(j, "root");
    dump_doc doc = {root, 0, size};
    if (entry->revision_offset)
        memcpy(&doc.revision, (const uint8_t *)root + entry->revision_offset, sizeof doc.revision);
    dump_object(j, &doc, entry->root, root);
    json_end_object(j);
}
