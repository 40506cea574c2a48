/* The output image: a buffer that grows as the cursor moves, and the puts that fill it. */
#include "bf_write.h"

#include <stdlib.h>
#include <string.h>

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
    if (end > b->cap || !b->data) { /* an empty image has no bytes to point into, even for 0 */
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < end)
            cap *= 2;
        uint8_t *bigger = realloc(b->data, cap);
        if (!bigger)
            return bf_fail(&w->c, w->pos, field, "out of memory for %zu output bytes", cap);
        memset(bigger + b->cap, 0, cap - b->cap); /* bytes never written are zero */
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

int bf_put_pad(bf_wctx *w, const bf_bytes *pad, const char *field)
{
    return bf_put_bytes(w, pad->ptr, pad->len, field);
}

int bf_size_pad(bf_wctx *w, bf_bytes *pad, uint64_t align, const char *field)
{
    pad->ptr = NULL;
    pad->len = (size_t)((align - w->pos % align) % align);
    return bf_skip(w, pad->len, field);
}

int bf_put_tail(bf_wctx *w, const bf_bytes *tail, const char *field)
{
    return bf_put_bytes(w, tail->ptr, tail->len, field);
}

int bf_skip_far(bf_wctx *w, uint64_t n, const char *field)
{
    size_t limit = w->out->limit ? w->out->limit : BF_DEFAULT_WRITE_LIMIT;
    if (n > SIZE_MAX - w->pos)
        return bf_fail(&w->c, w->pos, field, "%llu bytes do not fit", (unsigned long long)n);
    return bf_fail(&w->c, w->pos, field, "would write up to 0x%zx, past the output limit of %zu bytes",
                   w->pos + (size_t)n, limit);
}

int bf_size_fill(bf_wctx *w, bf_bytes *tail, uint64_t align, const bf_fill *fills, size_t fill_count, const char *field)
{
    size_t n = align > 1 ? (size_t)((align - w->pos % align) % align) : 0;
    const bf_fill *use = fill_count ? &fills[0] : NULL;
    for (size_t i = 0; i < fill_count && tail->ptr && tail->len; i++) {
        size_t k = tail->len < fills[i].len ? tail->len : fills[i].len;
        if (memcmp(tail->ptr, fills[i].text, k) == 0) {
            use = &fills[i];
            break;
        }
    }
    if (n && (!use || n > use->len))
        return bf_fail(&w->c, w->pos, field, "padding of %zu bytes is longer than its fill text", n);
    const uint8_t *text = use ? (const uint8_t *)use->text : NULL;
    if (tail->len != n || tail->ptr != text) {
        if (tail->len != n)
            w->changes++;
        tail->ptr = n ? text : NULL;
        tail->len = n;
    }
    tail->offset = w->pos; /* where the writer puts it: the region's data may come before it */
    return bf_skip(w, n, field);
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

