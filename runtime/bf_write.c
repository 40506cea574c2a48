/* The output image (saving it: bf_save.c). */
#define _POSIX_C_SOURCE 200809L
#include "bf_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BF_DEFAULT_WRITE_LIMIT ((size_t)1 << 30)

void bf_buffer_free(bf_buffer *b)
{
    free(b->data);
    b->data = NULL;
    b->size = b->cap = 0;
}

void bf_wctx_init(bf_wctx *w, bf_buffer *out, const void *root)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    bf_ctx_init(&w->c, NULL, 0, NULL, &w->err);
    w->c.root = root;
}

void bf_wctx_free(bf_wctx *w)
{
    free(w->queue);
    w->queue = NULL;
    w->queued = w->queue_cap = w->queue_next = 0;
    for (size_t i = 0; i < w->group_count; i++)
        free(w->groups[i].waiting.at);
    w->group_count = 0;
    free(w->pooled.at);
    memset(&w->pooled, 0, sizeof w->pooled);
    for (size_t i = 0; i < w->table_count; i++) {
        bf_buffer_free(&w->tables[i].bytes);
        free(w->tables[i].slots);
    }
    w->table_count = 0;
}

/* Empties the context for another layout pass, keeping the memory it grew. */
static void wctx_reset(bf_wctx *w, bf_buffer *out, void *doc)
{
    bf_wctx keep = *w;
    bf_wctx_init(w, out, doc);
    w->queue = keep.queue;
    w->queue_cap = keep.queue_cap;
    w->group_count = keep.group_count;
    for (size_t i = 0; i < keep.group_count; i++) {
        w->groups[i] = keep.groups[i];
        w->groups[i].waiting.len = w->groups[i].waiting.head = 0;
        w->groups[i].draining = 0;
    }
    w->pooled = keep.pooled;
    w->pooled.len = w->pooled.head = 0;
    w->table_count = keep.table_count;
    for (size_t i = 0; i < keep.table_count; i++) {
        bf_string_table *t = &w->tables[i];
        *t = keep.tables[i];
        t->bytes.size = 0;
        t->string_count = 0;
        if (t->slots)
            memset(t->slots, 0, t->slot_count * sizeof *t->slots);
    }
}

static int list_add(bf_index_list *l, size_t at)
{
    if (l->len == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        size_t *bigger = realloc(l->at, cap * sizeof *bigger);
        if (!bigger)
            return 0;
        l->at = bigger;
        l->cap = cap;
    }
    l->at[l->len++] = at;
    return 1;
}

int bf_enqueue_grow(bf_wctx *w, int (*place)(bf_wctx *, void *), int64_t (*base)(bf_wctx *, void *), void *owner,
                    int shared)
{
    if (w->queued == w->queue_cap) {
        size_t cap = w->queue_cap ? w->queue_cap * 2 : 64;
        bf_placement *bigger = realloc(w->queue, cap * sizeof *bigger);
        if (!bigger)
            return bf_fail(&w->c, w->pos, NULL, "out of memory for the layout queue");
        w->queue = bigger;
        w->queue_cap = cap;
    }
    size_t at = w->queued;
    w->queue[at].place = place;
    w->queue[at].base = base;
    w->queue[at].owner = owner;
    w->queued++;
    if (!base)
        return 1;
    bf_index_list *list = NULL;
    if (shared) {
        for (size_t i = 0; i < w->group_count && !list; i++)
            if (w->groups[i].base == base) {
                w->last_group = &w->groups[i];
                list = &w->groups[i].waiting;
            }
        if (!list && w->group_count < BF_MAX_POOL_GROUPS) {
            bf_pool_group *g = &w->groups[w->group_count++];
            memset(g, 0, sizeof *g);
            g->base = base;
            w->last_group = g;
            list = &g->waiting;
        }
    }
    if (!list) /* owner-dependent, or more groups than kept apart: looked at one by one */
        list = &w->pooled;
    if (!list_add(list, at))
        return bf_fail(&w->c, w->pos, NULL, "out of memory for the layout queue");
    return 1;
}

static int place_one(bf_wctx *w, size_t at)
{
    int (*place)(bf_wctx *, void *) = w->queue[at].place;
    w->queue[at].place = NULL; /* placed: skipped by the queue */
    return place(w, w->queue[at].owner);
}

int bf_place_pooled_from(bf_wctx *w, int64_t region, size_t found)
{
    /* the waiting data whose base is `region`, in queue order. A group's data shares one base,
     * so each group's base is looked at once for the region, and the groups found drain: the
     * regions placed inside them are not compared with their base again (a base that moves
     * while they drain is a change, and the next pass places them anew). The owner-dependent
     * data is looked at one by one, in one forward sweep (data queued meanwhile included). */
    uint32_t looked = 0, matched = 0; /* groups by bit: base looked at, base is `region` */
    size_t last_matched = found;
    if (found != SIZE_MAX) {
        looked = matched = (uint32_t)1 << found;
        w->groups[found].draining = 1;
    }
    bf_index_list *own = &w->pooled;
    while (own->head < own->len && !bf_waiting(w, own->at[own->head]))
        own->head++;
    size_t sweep = own->head;
    size_t best;
    int ok = 1;
    for (;;) {
        /* one group draining alone (no other group to look at, no owner-dependent data):
         * its data in order, until something is queued that the general loop must see */
        if (matched && (matched & (matched - 1)) == 0 && looked == ((uint64_t)1 << w->group_count) - 1 &&
            sweep == own->len) {
            size_t groups = w->group_count, owned = own->len;
            bf_index_list *l = &w->groups[last_matched].waiting;
            while (ok && w->group_count == groups && own->len == owned) {
                while (l->head < l->len && !bf_waiting(w, l->at[l->head]))
                    l->head++;
                if (l->head == l->len)
                    break;
                ok = place_one(w, l->at[l->head]);
            }
            if (!ok)
                break;
        }
        best = SIZE_MAX;
        for (size_t g = 0; g < w->group_count; g++) {
            uint32_t bit = (uint32_t)1 << g;
            bf_pool_group *pg = &w->groups[g];
            if (pg->draining && !(matched & bit)) /* an outer placement drains it */
                continue;
            bf_index_list *l = &pg->waiting;
            while (l->head < l->len && !bf_waiting(w, l->at[l->head]))
                l->head++;
            if (l->head == l->len)
                continue;
            if (!(looked & bit)) {
                looked |= bit;
                if (pg->base(w, w->queue[l->at[l->head]].owner) == region) {
                    matched |= bit;
                    last_matched = g;
                    pg->draining = 1;
                }
            }
            if ((matched & bit) && l->at[l->head] < best)
                best = l->at[l->head];
        }
        while (sweep < own->len) {
            size_t at = own->at[sweep];
            if (at > best)
                break;
            if (bf_waiting(w, at) && w->queue[at].base(w, w->queue[at].owner) == region) {
                best = at;
                break;
            }
            sweep++;
        }
        if (best == SIZE_MAX || !(ok = place_one(w, best)))
            break;
    }
    for (size_t g = 0; g < w->group_count; g++)
        if (matched & ((uint32_t)1 << g))
            w->groups[g].draining = 0;
    return ok;
}

int bf_place_queued(bf_wctx *w)
{
    while (w->queue_next < w->queued) {
        /* pooled data placed after its region is marked placed: past it in one loop */
        size_t next = w->queue_next, queued = w->queued;
        const bf_placement *q = w->queue;
        while (next < queued && !q[next].place)
            next++;
        if (next == queued) {
            w->queue_next = next;
            break;
        }
        bf_placement p = q[next];
        w->queue_next = next + 1;
        if (!p.place(w, p.owner))
            return 0;
    }
    return 1;
}

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

int bf_windex(bf_wctx *w, int64_t i, uint64_t n, const char *field)
{
    if (i >= 0 && (uint64_t)i < n)
        return 1;
    return bf_fail(&w->c, w->pos, field, "index %lld is outside an array of %llu elements", (long long)i,
                   (unsigned long long)n);
}

static int grow(bf_wctx *w, size_t end, const char *field)
{
    bf_buffer *b = w->out;
    size_t limit = b->limit ? b->limit : BF_DEFAULT_WRITE_LIMIT;
    if (end > limit)
        return bf_fail(&w->c, w->pos, field, "would write up to 0x%zx, past the output limit of %zu bytes", end, limit);
    if (end > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < end)
            cap *= 2;
        uint8_t *bigger = realloc(b->data, cap);
        if (!bigger)
            return bf_fail(&w->c, w->pos, field, "out of memory for %zu output bytes", cap);
        /* bytes never written are zero; a measuring pass's image is never read, and the
         * first writing pass clears all of it */
        if (!w->measure)
            memset(bigger + b->cap, 0, cap - b->cap);
        b->data = bigger;
        b->cap = cap;
    }
    if (end > b->size)
        b->size = end;
    w->room = b->cap < limit ? b->cap : limit;
    return 1;
}

uint8_t *bf_put_grow(bf_wctx *w, uint64_t n, const char *field)
{
    if (n > SIZE_MAX - w->pos) {
        bf_fail(&w->c, w->pos, field, "%llu bytes do not fit", (unsigned long long)n);
        return NULL;
    }
    if (!grow(w, w->pos + (size_t)n, field))
        return NULL;
    uint8_t *p = w->out->data + w->pos;
    w->pos += (size_t)n;
    return p;
}

int bf_wseek_grow(bf_wctx *w, uint64_t pos, const char *field)
{
    size_t limit = w->out->limit ? w->out->limit : BF_DEFAULT_WRITE_LIMIT;
    if (pos > limit)
        return bf_fail(&w->c, w->pos, field, "position 0x%llx is past the output limit", (unsigned long long)pos);
    /* the image reaches every position data starts at, even data of no bytes: an offset
     * the document holds must stay inside the file */
    if (!grow(w, (size_t)pos, field))
        return 0;
    w->pos = (size_t)pos;
    return 1;
}

int bf_put_bytes(bf_wctx *w, const uint8_t *bytes, uint64_t len, const char *field)
{
    uint8_t *p = bf_put(w, len, field);
    if (!p)
        return 0;
    if (w->measure) /* a measuring pass's bytes are never read */
        return 1;
    if (bytes && len)
        memcpy(p, bytes, (size_t)len);
    else if (len)
        memset(p, 0, (size_t)len);
    return 1;
}

int bf_put_fixed_str(bf_wctx *w, const bf_str *s, uint64_t len, const char *field)
{
    if (s->len > len)
        return bf_fail(&w->c, w->pos, field, "string of %u bytes is longer than its %llu-byte field", s->len,
                       (unsigned long long)len);
    uint8_t *p = bf_put(w, len, field);
    if (!p)
        return 0;
    size_t keep = s->size >= len ? (size_t)len : s->len;
    if (s->ptr && keep)
        memcpy(p, s->ptr, keep);
    return 1;
}

int bf_put_cstr(bf_wctx *w, const bf_str *s, const char *field)
{
    if (s->ptr && memchr(s->ptr, 0, s->len))
        return bf_fail(&w->c, w->pos, field, "string holds a zero byte before its end");
    uint8_t *p = bf_put(w, (uint64_t)s->len + 1, field);
    if (!p)
        return 0;
    if (s->len)
        memcpy(p, s->ptr, s->len);
    p[s->len] = 0;
    return 1;
}

int bf_put_u24(bf_wctx *w, uint32_t v, int big_endian, const char *field)
{
    if (!bf_check_fits(w, v, 24, field))
        return 0;
    uint8_t *p = bf_put(w, 3, field);
    if (!p)
        return 0;
    big_endian ? bf_store_u24be(p, v) : bf_store_u24le(p, v);
    return 1;
}

int bf_put_s24(bf_wctx *w, int32_t v, int big_endian, const char *field)
{
    if (!bf_check_fits_signed(w, v, 24, field))
        return 0;
    uint8_t *p = bf_put(w, 3, field);
    if (!p)
        return 0;
    uint32_t bits = (uint32_t)v & 0xFFFFFFu;
    big_endian ? bf_store_u24be(p, bits) : bf_store_u24le(p, bits);
    return 1;
}

int bf_put_array24(bf_wctx *w, const void *values, uint64_t n, int is_signed, int big_endian, const char *field)
{
    uint8_t *p = bf_put(w, n * 3, field);
    if (!p)
        return 0;
    /* held in 32 bits: each must fit (checked once the room is made) */
    const uint8_t *in = values;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t v;
        memcpy(&v, in + 4 * i, sizeof v);
        if (is_signed ? !bf_check_fits_signed(w, (int32_t)v, 24, field) : !bf_check_fits(w, v, 24, field))
            return 0;
    }
    bf_store_array(p, values, (size_t)n, 3, big_endian);
    return 1;
}

int bf_put_pad(bf_wctx *w, bf_bytes *pad, uint64_t align, const char *field)
{
    if (w->layout) {
        pad->ptr = NULL;
        pad->len = (size_t)((align - w->pos % align) % align);
    }
    return bf_put_bytes(w, pad->ptr, pad->len, field);
}

int bf_put_tail(bf_wctx *w, bf_bytes *tail, const char *field)
{
    if (w->layout)
        tail->len = 0;
    return bf_put_bytes(w, tail->ptr, tail->len, field);
}

void bf_size_padding(bf_wctx *w, bf_bytes *b, int64_t n)
{
    w->err.failed = 0;
    if (n < 0)
        n = 0;
    if (!b->ptr || b->len != (size_t)n) {
        if (b->len != (size_t)n)
            w->changes++;
        b->ptr = NULL;
        b->len = (size_t)n;
    }
}

/* "value 101184 does not fit in 16 unsigned bits (0 to 65535)" */
static void describe_misfit(char *out, size_t size, int64_t v, unsigned bits, int is_signed)
{
    if (is_signed) {
        long long lo = bits >= 64 ? INT64_MIN : -((long long)1 << (bits - 1));
        long long hi = bits >= 64 ? INT64_MAX : ((long long)1 << (bits - 1)) - 1;
        snprintf(out, size, "value %lld does not fit in %u signed bits (%lld to %lld)", (long long)v, bits, lo, hi);
    } else {
        unsigned long long hi = bits >= 64 ? UINT64_MAX : ((unsigned long long)1 << bits) - 1;
        snprintf(out, size, "value %lld does not fit in %u unsigned bits (0 to %llu)", (long long)v, bits, hi);
    }
}

static void note_overflow(bf_wctx *w, const void *field, int64_t v, unsigned bits, int is_signed, uint64_t at,
                          int rooted, const char *path, va_list ap)
{
    struct bf_overflow_note *note = NULL;
    for (size_t i = 0; i < w->overflow_count && !note; i++)
        if (w->overflows[i].field == field)
            note = &w->overflows[i];
    if (!note) {
        if (w->overflow_count == BF_MAX_OVERFLOW_NOTES)
            return; /* enough to fail with */
        note = &w->overflows[w->overflow_count++];
    }
    char name[BF_PATH_MAX];
    vsnprintf(name, sizeof name, path, ap);
    note->field = field;
    bf_error *e = &note->err;
    memset(e, 0, sizeof *e);
    e->failed = 1;
    e->offset = at;
    if (rooted)
        snprintf(e->path, sizeof e->path, "%s", name);
    else
        bf_format_path(&w->c, name, e->path, sizeof e->path);
    describe_misfit(e->message, sizeof e->message, v, bits, is_signed);
}

void bf_overflow(bf_wctx *w, const void *field, int64_t v, unsigned bits, int is_signed, uint64_t at, int rooted,
                 const char *path, ...)
{
    va_list ap;
    va_start(ap, path);
    note_overflow(w, field, v, bits, is_signed, at, rooted, path, ap);
    va_end(ap);
}

void bf_fit_note(bf_wctx *w, const void *field, int64_t v, unsigned bits, int is_signed, uint64_t at, int rooted,
                 const char *path)
{
    if (!bf_fits(v, bits, is_signed))
        bf_overflow(w, field, v, bits, is_signed, at, rooted, "%s", path);
    else
        bf_overflow_clear(w, field);
}

#define BF_FIT_DEFINE(kind, type, is_signed)                                                                     \
    void bf_fitf_##kind(bf_wctx *w, type *field, int64_t v, unsigned bits, uint64_t at, int rooted,              \
                        const char *path, ...)                                                                   \
    {                                                                                                            \
        type old = *field;                                                                                       \
        *field = (type)v;                                                                                        \
        if (*field != old)                                                                                       \
            w->changes++;                                                                                        \
        if (!bf_fits(v, bits, is_signed)) {                                                                      \
            va_list ap;                                                                                          \
            va_start(ap, path);                                                                                  \
            note_overflow(w, field, v, bits, is_signed, at, rooted, path, ap);                                   \
            va_end(ap);                                                                                          \
        } else if (w->overflow_count) {                                                                          \
            bf_overflow_clear(w, field);                                                                         \
        }                                                                                                        \
    }
BF_FIT_TYPES(BF_FIT_DEFINE)
#undef BF_FIT_DEFINE

void bf_fit_f32(bf_wctx *w, float *field, double v)
{
    float old = *field;
    *field = (float)v;
    if (bf_f32_bits(*field) != bf_f32_bits(old))
        w->changes++;
}

void bf_fit_f64(bf_wctx *w, double *field, double v)
{
    double old = *field;
    *field = v;
    if (bf_f64_bits(*field) != bf_f64_bits(old))
        w->changes++;
}

void bf_overflow_clear(bf_wctx *w, const void *field)
{
    for (size_t i = 0; i < w->overflow_count; i++)
        if (w->overflows[i].field == field) {
            w->overflows[i] = w->overflows[--w->overflow_count];
            return;
        }
}

/* The note about the field lowest in the image, or NULL. */
static const bf_error *first_overflow(const bf_wctx *w)
{
    const bf_error *first = NULL;
    for (size_t i = 0; i < w->overflow_count; i++)
        if (!first || w->overflows[i].err.offset < first->offset)
            first = &w->overflows[i].err;
    return first;
}

int bf_check_fits(bf_wctx *w, uint64_t v, unsigned bits, const char *field)
{
    if (bits >= 64 || v >> bits == 0)
        return 1;
    char message[BF_MESSAGE_MAX];
    if (v > INT64_MAX)
        snprintf(message, sizeof message, "value %llu does not fit in %u unsigned bits", (unsigned long long)v, bits);
    else
        describe_misfit(message, sizeof message, (int64_t)v, bits, 0);
    return bf_fail(&w->c, w->pos, field, "%s", message);
}

int bf_check_fits_signed(bf_wctx *w, int64_t v, unsigned bits, const char *field)
{
    if (bf_fits(v, bits, 1))
        return 1;
    char message[BF_MESSAGE_MAX];
    describe_misfit(message, sizeof message, v, bits, 1);
    return bf_fail(&w->c, w->pos, field, "%s", message);
}

/* The document keeps the string tables it was built with: each one that a bytes field of
 * the document (its key) holds goes into the build's arena, as the other tables the builder
 * makes do, since the table's own memory is freed with the layout context. A field that
 * holds something else (or no table) is left alone. 0: the arena refused (the field is
 * then emptied, so that the document points to nothing freed). */
static int keep_string_tables(bf_wctx *w, bf_arena *arena)
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

/* Swaps two images' bytes (not their limits). */
static void swap_images(bf_buffer *a, bf_buffer *b)
{
    bf_buffer t = *a;
    a->data = b->data, a->size = b->size, a->cap = b->cap;
    b->data = t.data, b->size = t.size, b->cap = t.cap;
}

/* A fresh layout context for one pass over `doc` into `out`. `size`: what `_size` gives in a
 * value, the file's size, which is the last pass's (it settles with the layout, so a header
 * that counts the bytes after it comes out right). */
static void start_pass(bf_wctx *w, bf_buffer *out, void *doc, int64_t revision, bf_arena *arena, size_t size,
                       int measure)
{
    wctx_reset(w, out, doc);
    w->layout = 1;
    w->measure = measure;
    w->c.revision = revision;
    w->c.size = size;
    w->root = doc;
    w->arena = arena;
}

/* A build's own failure (not one of a field), at no offset. */
static void build_error(bf_error *err, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    memset(err, 0, sizeof *err);
    err->failed = 1;
    vsnprintf(err->message, sizeof err->message, format, ap);
    va_end(ap);
}

int bf_build(void *doc, int64_t revision, bf_arena *arena, bf_buffer *out, bf_error *err,
             int (*pass)(bf_wctx *w, void *doc))
{
    /* positions feed offsets written before them: lay out until a pass changes nothing in
     * the document (the next pass would give the same image), or, for a document whose
     * values go back and forth within a pass, until two passes give the same image. Only
     * those need the previous image: the first passes reuse one image, zeroed.
     * The first pass only measures (arrays of plain elements get their room, not their
     * bytes); only the last pass's bytes are kept. Changes to values nothing reads, made
     * before their bytes are written, are not counted: a fresh document settles in a
     * measuring pass and a writing one when what its first pass reads before computing it
     * does not move the layout.
     * Before them, a walk of the document without placing anything reached through an
     * offset: it computes what a header reads from the tables after it (which chunk is the
     * index chunk), so that the measuring pass places data where the writing pass will. */
    enum { MAX_PASSES = 6, FIRST_COMPARED = 3, MEASURE_PASSES = 1 };
    int quiet = 0, cleared = 0;
    bf_buffer previous = {0};
    bf_wctx w;
    memset(&w, 0, sizeof w);
    int ok = 0;
    size_t last_size = 0;
    out->size = 0;
    start_pass(&w, out, doc, revision, arena, 0, 1);
    (void)pass(&w, doc); /* what fails here fails again, and is reported, in the first pass */
    for (int n = 0; n < MAX_PASSES; n++) {
        if (n >= FIRST_COMPARED)
            swap_images(out, &previous);
        if (!out->data && previous.cap) { /* as large as the last image at once, not by doubling */
            out->data = calloc(previous.cap, 1);
            out->cap = out->data ? previous.cap : 0;
        }
        /* bytes never written are zero. A measuring pass's image is never kept and never
         * read (only its positions and size are), so it may start from whatever the caller's
         * memory holds; the first writing pass clears all of that memory, the later ones
         * what the pass before them wrote */
        int measure = n < MEASURE_PASSES && !quiet;
        if (out->data && !measure && !cleared)
            memset(out->data, 0, out->cap), cleared = 1;
        else if (out->data && !measure)
            memset(out->data, 0, out->size);
        out->size = 0;
        start_pass(&w, out, doc, revision, arena, last_size, measure);
        ok = pass(&w, doc) && bf_place_queued(&w);
        quiet = ok && w.changes == 0;
        int settled = ok && !measure && n > 0 && last_size == out->size &&
                      (w.changes == 0 ||
                       (n >= FIRST_COMPARED && memcmp(previous.data, out->data, out->size) == 0));
        last_size = out->size;
        /* a pass that failed says why; a value that did not fit is reported once the layout
         * has settled (a note of an early pass may be gone in the next one) */
        const bf_error *overflow = first_overflow(&w);
        *err = ok && overflow ? *overflow : w.err;
        if (!ok || overflow) {
            if (!ok || settled || n == MAX_PASSES - 1) {
                ok = 0;
                break;
            }
            ok = 0;
            continue; /* a later pass may bring the value back into range */
        }
        if (settled)
            break;
        ok = 0;
        if (n == MAX_PASSES - 1)
            build_error(err, "the layout did not settle after %d passes", MAX_PASSES);
    }
    if (!keep_string_tables(&w, arena) && ok) {
        ok = 0;
        build_error(err, "out of memory for the built string tables");
    }
    bf_wctx_free(&w);
    bf_buffer_free(&previous);
    if (!ok) /* a failed build leaves no image behind */
        bf_buffer_free(out);
    return ok;
}
