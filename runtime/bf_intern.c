/* The string tables the builder fills: each string once, in the order first met, found
 * again through a hash index. */
#include "bf_write.h"

#include <stdlib.h>
#include <string.h>

static bf_string_table *table_for(bf_wctx *w, const void *key)
{
    for (size_t i = 0; i < w->table_count; i++)
        if (w->tables[i].key == key)
            return &w->tables[i];
    if (w->table_count == BF_MAX_STRING_TABLES)
        return NULL;
    bf_string_table *t = &w->tables[w->table_count++];
    memset(t, 0, sizeof *t);
    t->key = key;
    return t;
}

/* Room for `n` more bytes at the end of `b`, growing it geometrically. */
static int reserve(bf_buffer *b, size_t n)
{
    if (b->size + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->size + n)
            cap *= 2;
        uint8_t *bigger = realloc(b->data, cap);
        if (!bigger)
            return 0;
        b->data = bigger;
        b->cap = cap;
    }
    return 1;
}

static int append(bf_buffer *b, const void *bytes, size_t n)
{
    if (!reserve(b, n))
        return 0;
    if (n)
        memcpy(b->data + b->size, bytes, n);
    b->size += n;
    return 1;
}

/* FNV-1a */
static uint32_t hash_bytes(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

/* The slot holding `s` in the table's index, or the empty slot where it would go. */
static uint32_t *find_slot(bf_string_table *t, const char *s, size_t n, uint32_t h)
{
    size_t mask = t->slot_count - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        uint32_t *slot = &t->slots[i];
        if (*slot == 0)
            return slot;
        size_t at = *slot - 1;
        if (at + n < t->bytes.size && memcmp(t->bytes.data + at, s, n) == 0 && t->bytes.data[at + n] == 0)
            return slot;
    }
}

/* Keeps the index at most half full. */
static int index_room(bf_string_table *t)
{
    if ((t->string_count + 1) * 2 <= t->slot_count)
        return 1;
    size_t count = t->slot_count ? t->slot_count * 2 : 64;
    uint32_t *slots = calloc(count, sizeof *slots);
    if (!slots)
        return 0;
    uint32_t *old = t->slots;
    size_t old_count = t->slot_count;
    t->slots = slots;
    t->slot_count = count;
    for (size_t i = 0; i < old_count; i++) {
        if (!old[i])
            continue;
        const char *str = (const char *)t->bytes.data + old[i] - 1;
        size_t n = strlen(str);
        *find_slot(t, str, n, hash_bytes(str, n)) = old[i];
    }
    free(old);
    return 1;
}

int64_t bf_intern(bf_wctx *w, const void *key, const uint8_t *prefix, size_t prefix_len, const bf_str *s,
                  const char *field)
{
    if (!s->ptr)
        return -1;
    /* one look at the bytes: their hash (as hash_bytes), and a zero byte before the end */
    uint32_t h = 2166136261u;
    int zero = 0;
    for (size_t i = 0; i < s->len; i++) {
        uint8_t b = (uint8_t)s->ptr[i];
        zero |= b == 0;
        h = (h ^ b) * 16777619u;
    }
    if (zero) {
        bf_fail(&w->c, w->pos, field, "string holds a zero byte before its end");
        return -1;
    }
    bf_string_table *t = table_for(w, key);
    if (!t) {
        bf_fail(&w->c, w->pos, field, "more than %d string tables", BF_MAX_STRING_TABLES);
        return -1;
    }
    if (t->bytes.size == 0 && prefix_len && !append(&t->bytes, prefix, prefix_len)) {
        bf_fail(&w->c, w->pos, field, "out of memory for a string table");
        return -1;
    }
    if (t->bytes.size + s->len + 1 > UINT32_MAX) {
        bf_fail(&w->c, w->pos, field, "a string table past 4 GiB");
        return -1;
    }
    if (!index_room(t)) {
        bf_fail(&w->c, w->pos, field, "out of memory for a string table");
        return -1;
    }
    /* an existing copy of the string with its terminator */
    uint32_t *slot = find_slot(t, s->ptr, s->len, h);
    if (*slot)
        return (int64_t)*slot - 1;
    size_t at = t->bytes.size;
    if (!reserve(&t->bytes, (size_t)s->len + 1)) {
        bf_fail(&w->c, w->pos, field, "out of memory for a string table");
        return -1;
    }
    if (s->len)
        memcpy(t->bytes.data + at, s->ptr, s->len);
    t->bytes.data[at + s->len] = 0;
    t->bytes.size = at + s->len + 1;
    *slot = (uint32_t)at + 1;
    t->string_count++;
    return (int64_t)at;
}

bf_bytes bf_table_bytes(bf_wctx *w, const void *key)
{
    bf_bytes b = {NULL, 0, 0};
    for (size_t i = 0; i < w->table_count; i++)
        if (w->tables[i].key == key && w->tables[i].bytes.size) {
            b.ptr = w->tables[i].bytes.data;
            b.len = w->tables[i].bytes.size;
        }
    return b;
}

bf_bytes bf_table_bytes_never_empty(bf_wctx *w, const void *key, const uint8_t *prefix, size_t prefix_len,
                                    const char *field)
{
    bf_bytes b = bf_table_bytes(w, key);
    if (b.len)
        return b;
    const bf_str empty = {"", 0, 0};
    if (bf_intern(w, key, prefix, prefix_len, &empty, field) < 0)
        return b;
    return bf_table_bytes(w, key);
}


/* The document keeps the string tables it was built with: each one that a bytes field of
 * the document (its key) holds goes into the build's arena, as the other tables the builder
 * makes do, since the table's own memory is freed with the layout context. A field that
 * holds something else (or no table) is left alone. 0: the arena refused (the field is
 * then emptied, so that the document points to nothing freed). */
int bf_keep_string_tables(bf_wctx *w, bf_arena *arena)
{
    int ok = 1;
    for (size_t i = 0; i < w->table_count; i++) {
        bf_string_table *t = &w->tables[i];
        bf_bytes *field = (bf_bytes *)(uintptr_t)t->key;
        if (!t->bytes.data || field->ptr != t->bytes.data)
            continue;
        uint8_t *copy = field->len <= t->bytes.size ? bf_arena_alloc(arena, field->len) : NULL;
        if (copy) {
            memcpy(copy, field->ptr, field->len);
        } else {
            ok = 0;
            field->len = 0;
        }
        field->ptr = copy;
    }
    return ok;
}
