/* Reading helpers that are too big to inline: arrays, seeks, strings, claims. */
#include <stdio.h>
#include <string.h>

#include "bf_gen.h"

void bf_claim_range(bf_ctx *c, uint64_t offset, uint64_t len)
{
    if (offset > c->size)
        return;
    if (len > c->size - offset)
        len = c->size - offset;
    uint64_t i = offset, end = offset + len;
    /* bit by bit up to a byte boundary, whole bytes in the middle (arrays of vertices are
     * claimed in one call: this was the hottest line of a read with claims), bits at the end */
    for (; i < end && (i & 7); i++)
        c->claimed[i >> 3] |= (uint8_t)(1u << (i & 7));
    if (end - i >= 8) {
        memset(c->claimed + (i >> 3), 0xFF, (size_t)((end - i) >> 3));
        i += (end - i) & ~(uint64_t)7;
    }
    for (; i < end; i++)
        c->claimed[i >> 3] |= (uint8_t)(1u << (i & 7));
}

void *bf_alloc_array(bf_ctx *c, uint64_t count, size_t elem_size, uint64_t min_encoded,
                     const char *field)
{
    uint64_t remaining = c->end - c->pos;
    if (min_encoded && count > remaining / min_encoded) {
        bf_fail(c, c->pos, field,
                "count %llu needs at least %llu bytes but only %llu remain before 0x%llx",
                (unsigned long long)count,
                count > UINT64_MAX / min_encoded ? UINT64_MAX : (unsigned long long)(count * min_encoded),
                (unsigned long long)remaining, (unsigned long long)c->end);
        return NULL;
    }
    if (elem_size && count > SIZE_MAX / elem_size) {
        bf_fail(c, c->pos, field, "count %llu is too large", (unsigned long long)count);
        return NULL;
    }
    void *p = bf_arena_alloc(c->arena, (size_t)count * elem_size);
    if (!p)
        bf_fail(c, c->pos, field, "count %llu exceeds the memory budget of %llu bytes",
                (unsigned long long)count, (unsigned long long)c->arena->budget);
    return p;
}

int bf_seek(bf_ctx *c, uint64_t pos, uint64_t size, const char *field, bf_mark *saved)
{
    if (pos > c->size)
        return bf_fail(c, c->pos, field, "offset 0x%llx is past the end of the file (%llu bytes)",
                       (unsigned long long)pos, (unsigned long long)c->size);
    if (size == UINT64_MAX)
        size = c->size - pos;
    else if (size > c->size - pos)
        return bf_fail(c, pos, field, "region of %llu bytes at 0x%llx runs past the end of the file (%llu bytes)",
                       (unsigned long long)size, (unsigned long long)pos, (unsigned long long)c->size);
    saved->pos = c->pos;
    saved->end = c->end;
    c->pos = (size_t)pos;
    c->end = (size_t)(pos + size);
    return 1;
}

int bf_read_cstr(bf_ctx *c, const char *field, bf_str *out)
{
    const uint8_t *start = c->data + c->pos;
    const uint8_t *nul = memchr(start, 0, c->end - c->pos);
    if (!nul)
        return bf_fail(c, c->pos, field, "string has no terminating zero before 0x%llx",
                       (unsigned long long)c->end);
    out->ptr = (const char *)start;
    out->len = (uint32_t)(nul - start);
    bf_claim(c, c->pos, out->len + 1u);
    c->pos += out->len + 1u;
    return 1;
}

int bf_read_fixed_str(bf_ctx *c, uint64_t len, const char *field, bf_str *out)
{
    if (!bf_need(c, len, field))
        return 0;
    const uint8_t *start = c->data + c->pos;
    const uint8_t *nul = memchr(start, 0, (size_t)len);
    out->ptr = (const char *)start;
    out->len = (uint32_t)(nul ? (size_t)(nul - start) : (size_t)len);
    out->size = (uint32_t)len;
    bf_claim(c, c->pos, len);
    c->pos += (size_t)len;
    return 1;
}

int bf_resolve_str(bf_ctx *c, uint64_t table_pos, uint64_t table_size, uint64_t ref,
                   uint64_t at, const char *field, bf_str *out)
{
    if (table_pos > c->size || table_size > c->size - table_pos)
        return bf_fail(c, at, field, "string table at 0x%llx is not inside the file",
                       (unsigned long long)table_pos);
    if (ref >= table_size)
        return bf_fail(c, at, field, "string offset 0x%llx is outside the string table (%llu bytes)",
                       (unsigned long long)ref, (unsigned long long)table_size);
    const uint8_t *start = c->data + table_pos + ref;
    const uint8_t *nul = memchr(start, 0, (size_t)(table_size - ref));
    if (!nul)
        return bf_fail(c, at, field, "string at table offset 0x%llx has no terminating zero",
                       (unsigned long long)ref);
    out->ptr = (const char *)start;
    out->len = (uint32_t)(nul - start);
    return 1;
}

void *bf_grow(bf_ctx *c, void *buf, uint32_t used, uint32_t *cap, size_t elem_size, const char *field)
{
    if (*cap >= UINT32_MAX / 2) {
        bf_fail(c, c->pos, field, "more than %u elements", (unsigned)*cap);
        return NULL;
    }
    uint32_t new_cap = *cap ? *cap * 2 : 8;
    void *bigger = bf_alloc_array(c, new_cap, elem_size, 0, field);
    if (!bigger)
        return NULL;
    if (used)
        memcpy(bigger, buf, (size_t)used * elem_size);
    *cap = new_cap;
    return bigger;
}

static void escape(char *out, size_t size, const uint8_t *s, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 5 < size; i++) {
        if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\')
            out[o++] = (char)s[i];
        else
            o += (size_t)snprintf(out + o, size - o, "\\x%02x", s[i]);
    }
    out[o] = '\0';
}

int bf_expect_bytes(bf_ctx *c, uint64_t at, const char *field, const uint8_t *got, const char *expected,
                    size_t len)
{
    if (memcmp(got, expected, len) == 0)
        return 1;
    char want[64], found[64];
    escape(want, sizeof want, (const uint8_t *)expected, len);
    escape(found, sizeof found, got, len);
    return bf_fail(c, at, field, "expected \"%s\", found \"%s\"", want, found);
}

uint64_t bf_padding_start(const uint8_t *data, uint64_t pos, uint64_t end, int64_t unit, uint64_t below,
                          const bf_fill *fills, size_t fill_count)
{
    if (end <= pos)
        return end;
    uint64_t len = end - pos;
    uint64_t u = unit > 0 ? (uint64_t)unit : 1;
    /* the smallest k with len - k * u < below, then each boundary up to the end */
    uint64_t k = len >= below ? (len - below) / u + 1 : 0;
    for (; k <= len / u; k++) {
        uint64_t at = k * u, rest = len - at;
        if (rest == 0)
            break;
        for (size_t i = 0; i < fill_count; i++)
            if (rest <= fills[i].len && memcmp(data + pos + at, fills[i].text, (size_t)rest) == 0)
                return pos + at;
    }
    return end;
}

size_t bf_default_budget(size_t size)
{
    /* Structures in memory are a few times larger than in the file (pointers, counts,
     * derived values); 64x plus a floor leaves room for that and no more. */
    size_t floor = 1u << 20;
    return size > (SIZE_MAX - floor) / 64 ? SIZE_MAX : size * 64 + floor;
}

void *bf_begin_read(bf_ctx *c, const uint8_t *data, size_t size, bf_arena *arena,
                    const bf_read_opts *opts, bf_error *err, size_t root_size)
{
    bf_ctx_init(c, data, size, arena, err);
    if (opts)
        c->claimed = opts->claimed;
    if (!arena->budget)
        arena->budget = bf_default_budget(size);
    void *root = bf_arena_alloc(arena, root_size);
    if (!root)
        bf_fail(c, 0, NULL, "out of memory");
    c->root = root;
    return root;
}

/* ---- the steps of generated read functions (bf_gen.h) ---- */






int bf_enter_region(bf_ctx *c, unsigned how, int64_t at, int64_t size, const char *field, bf_mark *saved)
{
    if (c->err->failed)
        return 0;
    if ((how & BF_SIZED) && size < 0)
        return bf_fail(c, c->pos, field, "size %lld is negative", (long long)size);
    if (how & BF_AT) {
        if (at < 0)
            return bf_fail(c, c->pos, field, "offset %lld is negative", (long long)at);
        if (!bf_seek(c, (uint64_t)at, (how & BF_SIZED) ? (uint64_t)size : UINT64_MAX, field, saved))
            return 0;
        saved->next = saved->pos;
        return 1;
    }
    if (!bf_need(c, (uint64_t)size, field) || !bf_seek(c, c->pos, (uint64_t)size, field, saved))
        return 0;
    saved->next = saved->pos + (size_t)size;
    return 1;
}

int bf_end_before_padding(bf_ctx *c, int64_t unit, uint64_t below, const bf_fill *fills, size_t fill_count)
{
    if (c->err->failed)
        return 0;
    c->end = (size_t)bf_padding_start(c->data, c->pos, c->end, unit, below, fills, fill_count);
    return 1;
}

/* One attempt of a document without revisions, in the caller's arena. */
static int read_once(const bf_document *d, const uint8_t *data, size_t size, bf_arena *arena,
                     const bf_read_opts *opts, bf_error *err, void **out)
{
    bf_ctx c;
    int read_all = 0;
    void *s = bf_begin_read(&c, data, size, arena, opts, err, d->root_size);
    if (!s || !d->read(&c, s, &read_all)) {
        if (s && opts && opts->partial)
            *opts->partial = s; /* what was read before the failure, in `arena` */
        return 0;
    }
    *out = s;
    return 1;
}

int bf_read_document(const bf_document *d, const uint8_t *data, size_t size, bf_arena *arena,
                     const bf_read_opts *opts, bf_error *err, void **out)
{
    if (!d->revisions)
        return read_once(d, data, size, arena, opts, err, out);
    int64_t first = 0, last = (int64_t)d->revision_count - 1;
    if (opts && opts->revision) {
        while (first <= last && strcmp(d->revisions[first], opts->revision) != 0)
            first++;
        if (first > last) {
            memset(err, 0, sizeof *err);
            err->failed = 1;
            snprintf(err->message, sizeof err->message, "%s has no revision '%s'", d->format, opts->revision);
            return 0;
        }
        last = first;
    }
    /* each revision is tried in its own arena; the error kept is the one that got furthest */
    bf_error best;
    int64_t best_revision = -1;
    uint64_t best_reached = 0;
    bf_arena best_arena; /* the furthest attempt, kept for a partial document */
    void *best_doc = NULL;
    for (int64_t r = first; r <= last; r++) {
        bf_arena attempt;
        bf_arena_init(&attempt, arena->alloc, arena->budget);
        if (opts && opts->claimed)
            memset(opts->claimed, 0, (size + 7) / 8);
        bf_ctx c;
        void *s = bf_begin_read(&c, data, size, &attempt, opts, err, d->root_size);
        c.revision = r;
        int read_all = 0;
        if (s && d->read(&c, s, &read_all)) {
            if (best_doc) /* an earlier attempt's partial document is not wanted now */
                bf_arena_free(&best_arena);
            bf_arena_adopt(arena, &attempt);
            *out = s;
            return 1;
        }
        /* how far the attempt got: a failure after the whole file was read (strings) got furthest */
        uint64_t reached = read_all ? (uint64_t)size + 1 : err->offset;
        if (best_revision < 0 || reached > best_reached) {
            best = *err;
            best_revision = r;
            best_reached = reached;
            if (opts && opts->partial && s) {
                if (best_doc)
                    bf_arena_free(&best_arena);
                best_arena = attempt;
                best_doc = s;
                continue;
            }
        }
        bf_arena_free(&attempt);
    }
    if (best_doc) {
        bf_arena_adopt(arena, &best_arena);
        *opts->partial = best_doc;
    }
    *err = best;
    char message[sizeof err->message];
    snprintf(message, sizeof message, "%s", best.message);
    if (last > first)
        snprintf(err->message, sizeof err->message, "no revision reads this file; as '%s' (furthest): %.180s",
                 d->revisions[best_revision], message);
    else
        snprintf(err->message, sizeof err->message, "as '%s': %.200s", d->revisions[best_revision], message);
    return 0;
}
