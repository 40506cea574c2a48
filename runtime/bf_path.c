/* Field paths walked through the reflection tables (bf_path.h). */
#include "bf_path.h"

#include <string.h>

/* Appends n characters to the path of length *len, cut to fit `size` with its zero. */
static void put(char *path, size_t size, size_t *len, const char *text, size_t n)
{
    if (*len + n >= size)
        n = *len + 1 < size ? size - 1 - *len : 0;
    memcpy(path + *len, text, n);
    *len += n;
    path[*len] = '\0';
}

/* Appends ".name" or ".name[i]" (no dot first); returns the new length. Written by hand: it
 * runs for every element a check walks, and snprintf there was most of a set check's time. */
static size_t append_step(char *path, size_t size, size_t len, const bf_field_desc *f, uint64_t i)
{
    if (len >= size)
        return len;
    if (len)
        put(path, size, &len, ".", 1);
    put(path, size, &len, f->name, strlen(f->name));
    if (f->array != BF_SCALAR) {
        char digits[24];
        size_t n = sizeof digits;
        digits[--n] = ']';
        do
            digits[--n] = (char)('0' + i % 10);
        while ((i /= 10) != 0);
        digits[--n] = '[';
        put(path, size, &len, digits + n, sizeof digits - n);
    }
    return len;
}

const bf_field_desc *bf_field_named(const bf_type_desc *t, const char *name, size_t len)
{
    for (size_t k = 0; k < t->field_count; k++)
        if (strlen(t->fields[k].name) == len && memcmp(t->fields[k].name, name, len) == 0)
            return &t->fields[k];
    return NULL;
}

/* bf_path_walk from `obj`, with `rest` the names still to walk and `path` (of length `len`,
 * BF_PATH_MAX bytes) where the walk is. */
static int walk(const bf_type_desc *t, const void *obj, const char *rest, const char *only, char *path, size_t len,
                bf_found_fn fn, void *ctx)
{
    size_t n = 0; /* the name's length (by hand: the console ROM's C library has no strchr) */
    while (rest[n] && rest[n] != '.')
        n++;
    const char *dot = rest[n] ? rest + n : NULL;
    const bf_field_desc *f = bf_field_named(t, rest, n);
    if (!f)
        return 0;
    uint64_t count = bf_field_count(f, obj);
    int ok = 1;
    for (uint64_t i = 0; i < count && ok; i++) {
        size_t here = append_step(path, BF_PATH_MAX, len, f, i);
        const bf_type_desc *st = NULL;
        const void *sobj = NULL;
        if (f->kind == BF_FIELD_STRUCT) {
            st = f->type;
            sobj = bf_field_elem(f, obj, i);
        } else if (f->kind == BF_FIELD_SWITCH) {
            bf_switch_view v = bf_field_switch(f, obj);
            st = v.type;
            sobj = v.ptr;
        }
        if (dot) {
            if (st && sobj)
                ok = walk(st, sobj, dot + 1, only, path, here, fn, ctx);
        } else if (st && sobj) {
            if (!only || strcmp(st->name, only) == 0)
                fn(&(bf_found){.type = st, .obj = sobj, .offset = bf_obj_offset(sobj), .path = path}, ctx);
        } else if (f->kind == BF_FIELD_STR) {
            const bf_str *str = bf_field_elem(f, obj, i);
            fn(&(bf_found){.str = str, .offset = bf_field_pos(f, obj), .path = path}, ctx);
        } else if (f->kind == BF_FIELD_PRIM && !bf_prim_is_float(f->prim)) {
            uint64_t step = f->elem_size > 0 ? (uint64_t)f->elem_size : (uint64_t)bf_prim_size(f->prim);
            bf_found x = {.value = bf_prim_int(f->prim, bf_field_elem(f, obj, i)), .is_char = f->prim == BF_CHAR,
                          .offset = bf_field_pos(f, obj) + i * step, .path = path};
            fn(&x, ctx);
        }
        path[len] = '\0';
    }
    return ok;
}

int bf_path_walk(const bf_type_desc *type, const void *obj, const char *path, const char *only, bf_found_fn fn,
                 void *ctx)
{
    char where[BF_PATH_MAX] = "";
    return walk(type, obj, path, only, where, 0, fn, ctx);
}
