#include "doc_equal.h"

#include <stdio.h>
#include <string.h>

static int str_equal(const bf_str *a, const bf_str *b)
{
    if (!a->ptr || !b->ptr)
        return !a->ptr == !b->ptr;
    return a->len == b->len && memcmp(a->ptr, b->ptr, a->len) == 0;
}

static int differ(char *why, size_t size, const char *path, const char *what)
{
    snprintf(why, size, "%s: %s", path, what);
    return 0;
}

static int equal_at(const bf_type_desc *type, const void *a, const void *b, const char *path, char *why,
                    size_t size, int depth);

static int field_equal(const bf_field_desc *f, const void *a, const void *b, const char *path, char *why,
                       size_t size, int depth)
{
    char sub[512];
    uint64_t na = bf_field_count(f, a), nb = bf_field_count(f, b);
    if (na != nb) {
        snprintf(why, size, "%s.%s: %llu elements against %llu", path, f->name, (unsigned long long)na,
                 (unsigned long long)nb);
        return 0;
    }
    if (f->str_offset) {
        /* a string reference: the text matters, not where the table puts it */
        bf_str sa, sb;
        memcpy(&sa, (const uint8_t *)a + f->str_offset, sizeof sa);
        memcpy(&sb, (const uint8_t *)b + f->str_offset, sizeof sb);
        snprintf(sub, sizeof sub, "%s.%s", path, f->name);
        return str_equal(&sa, &sb) ? 1 : differ(why, size, sub, "different strings");
    }
    if (f->roles & BF_ROLE_OFFSET)
        return 1;
    for (uint64_t i = 0; i < na; i++) {
        snprintf(sub, sizeof sub, "%s.%s[%llu]", path, f->name, (unsigned long long)i);
        const void *ea = bf_field_elem(f, a, i), *eb = bf_field_elem(f, b, i);
        switch (f->kind) {
        case BF_FIELD_PRIM:
            if (bf_prim_is_float(f->prim) ? bf_prim_double(f->prim, ea) != bf_prim_double(f->prim, eb)
                                          : bf_prim_int(f->prim, ea) != bf_prim_int(f->prim, eb)) {
                char what[128];
                snprintf(what, sizeof what, "%g against %g", bf_prim_double(f->prim, ea), bf_prim_double(f->prim, eb));
                return differ(why, size, sub, what);
            }
            break;
        case BF_FIELD_STR:
            if (!str_equal(ea, eb))
                return differ(why, size, sub, "different strings");
            break;
        case BF_FIELD_STRUCT:
            if (!equal_at(f->type, ea, eb, sub, why, size, depth + 1))
                return 0;
            break;
        case BF_FIELD_BYTES:
            break; /* padding, tails and tables: layout, not content */
        case BF_FIELD_SWITCH: {
            bf_switch_view va = bf_field_switch(f, a), vb = bf_field_switch(f, b);
            if (va.type != vb.type)
                return differ(why, size, sub, "different cases");
            if (va.type && !equal_at(va.type, va.ptr, vb.ptr, sub, why, size, depth + 1))
                return 0;
            /* raw bytes left empty are made by the builder (a pool): only filled ones compare */
            if (!va.type && va.raw.len && vb.raw.len &&
                (va.raw.len != vb.raw.len || memcmp(va.raw.ptr, vb.raw.ptr, va.raw.len)))
                return differ(why, size, sub, "different raw bytes");
            break;
        }
        }
    }
    return 1;
}

static int equal_at(const bf_type_desc *type, const void *a, const void *b, const char *path, char *why,
                    size_t size, int depth)
{
    if (depth > 64)
        return differ(why, size, path, "nested too deep");
    for (size_t i = 0; i < type->field_count; i++)
        if (!field_equal(&type->fields[i], a, b, path, why, size, depth))
            return 0;
    return 1;
}

int doc_equal(const bf_type_desc *type, const void *a, const void *b, char *why, size_t why_size)
{
    why[0] = '\0';
    return equal_at(type, a, b, type->name, why, why_size, 0);
}
