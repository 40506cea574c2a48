/* Writing: an output image built in memory by position (bf_write.c), the builder's placement
 * queue (bf_place.c), string tables (bf_intern.c), fit reports (bf_fit.c) and passes
 * (bf_build.c); the image is saved atomically (bf_save.h). */
#ifndef BF_WRITE_H
#define BF_WRITE_H

#include "bf_gen.h"
#include "bf_save.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A growing output image; bytes never written are zero. */
typedef struct bf_buffer {
    uint8_t *data;
    size_t size; /* the image's length: the end of the furthest byte written */
    size_t cap;
    size_t limit; /* refuse positions past this (0: 1 GiB) */
} bf_buffer;

void bf_buffer_free(bf_buffer *b);

struct bf_wctx;

/* Data reached through an offset, waiting to be placed by the builder. */
typedef struct bf_placement {
    int (*place)(struct bf_wctx *w, void *owner);
    /* pooled data goes right after the region whose offset `base` gives, inside it */
    int64_t (*base)(struct bf_wctx *w, void *owner);
    void *owner;
} bf_placement;

/* A list of queue positions (pooled data still waiting for its region). */
typedef struct bf_index_list {
    size_t *at;
    size_t len, cap, head;
} bf_index_list;

/* Pooled data whose base does not depend on its owner (every part's indices go into the
 * one index chunk): the base is computed once for the whole group, not once per element. */
typedef struct bf_pool_group {
    int64_t (*base)(struct bf_wctx *w, void *owner);
    bf_index_list waiting;
    int draining; /* being placed after its base region: not compared with other regions meanwhile */
} bf_pool_group;

#define BF_MAX_STRING_TABLES 4
#define BF_MAX_POOL_GROUPS 32 /* at most 32: a placement keeps its groups in the bits of a uint32_t */
#define BF_MAX_OVERFLOW_NOTES 8

/* A string table the builder fills: each string once, in the order first met. */
typedef struct bf_string_table {
    const void *key; /* which table: the address of the document's bf_bytes field that holds it */
    bf_buffer bytes;
    /* open addressing over the strings' offsets (+1; 0: empty slot), for finding a string
     * again without scanning the table */
    uint32_t *slots;
    size_t slot_count, string_count;
} bf_string_table;

/* The writer's context: the image, a cursor, and the path of what is being written.
 * The builder's layout solver uses it too, over a counting sink (an image that keeps no
 * bytes): structures are placed where the cursor is, data reached through offsets is queued
 * and placed after everything before it, and counts, sizes, offsets and string references
 * are computed into the document, which the writer then puts. */
typedef struct bf_wctx {
    bf_buffer *out;
    size_t pos;
    bf_ctx c; /* frames and error, as for reading (data: none) */
    bf_error err;
    int layout;      /* a pass of the layout solver, into a counting sink */
    int built;       /* the writer putting a document the builder laid out */
    int pack;        /* the layout solver packs the bits of plain structures' elements (bf_build) */
    void *root;      /* the document, writable (the layout solver fills it in) */
    bf_arena *arena; /* what the builder allocates (computed tables) */
    bf_placement *queue;
    size_t queued, queue_cap, queue_next;
    bf_pool_group groups[BF_MAX_POOL_GROUPS];
    size_t group_count;
    bf_pool_group *last_group; /* the group data was last queued into (NULL: none yet) */
    bf_index_list pooled; /* pooled data whose base depends on its owner */
    bf_string_table tables[BF_MAX_STRING_TABLES];
    size_t table_count;
    /* layout solver: the computed values of this pass that do not fit their fields (a later
     * value that fits clears its field's note); the build fails with the lowest in the file
     * once the layout has settled */
    struct bf_overflow_note {
        const void *field;
        bf_error err;
    } overflows[BF_MAX_OVERFLOW_NOTES];
    size_t overflow_count;
    /* the cursor may move up to here without growing the image: the image's capacity,
     * capped by its limit (0 until the image first grows; the output limit in the sink) */
    size_t room;
    /* layout solver: how many values this pass changed in the document (positions, computed
     * values, counts) that something reads; a pass that changed none gives the final layout */
    size_t changes;
} bf_wctx;

void bf_wctx_init(bf_wctx *w, bf_buffer *out, const void *root);
void bf_wctx_free(bf_wctx *w);

/* ---- the builder's layout ---- */

/* bf_enqueue_pooled where the queue or a list must grow first, or the group is another. */
int bf_enqueue_grow(bf_wctx *w, int (*place)(bf_wctx *, void *), int64_t (*base)(bf_wctx *, void *), void *owner,
                    int shared);
/* Queues pooled data (`base` not NULL) whose base is the same whatever the owner
 * (`shared`): placing such data costs one call of `base` per region, not one per element.
 * Inline: a part of a model queues its indices into the group the part before it used. */
static inline int bf_enqueue_pooled(bf_wctx *w, int (*place)(bf_wctx *, void *), int64_t (*base)(bf_wctx *, void *),
                                    void *owner, int shared)
{
    bf_pool_group *g = w->last_group;
    if (w->queued < w->queue_cap && base && shared && g && g->base == base && g->waiting.len < g->waiting.cap) {
        size_t at = w->queued++;
        w->queue[at].place = place;
        w->queue[at].base = base;
        w->queue[at].owner = owner;
        g->waiting.at[g->waiting.len++] = at;
        return 1;
    }
    return bf_enqueue_grow(w, place, base, owner, shared);
}
/* Queues data reached through an offset. */
static inline int bf_enqueue(bf_wctx *w, int (*place)(bf_wctx *, void *), int64_t (*base)(bf_wctx *, void *),
                             void *owner)
{
    return bf_enqueue_grow(w, place, base, owner, 0);
}
/* Places queued data in order (pooled data right after its region) until none is left. */
int bf_place_queued(bf_wctx *w);
/* Whether the queued data at `at` still waits (not placed, not taken by the queue yet). */
static inline int bf_waiting(const bf_wctx *w, size_t at)
{
    return at >= w->queue_next && w->queue[at].place != NULL;
}
/* bf_place_pooled once group `found` is known to have `region` for its base (SIZE_MAX: no
 * group looked at yet). */
int bf_place_pooled_from(bf_wctx *w, int64_t region, size_t found);
/* Places pooled data whose base is `region` (just written), in queue order. Inline: most
 * regions are no data's base, which the first waiting element of each group tells (each
 * group's base once, as bf_place_pooled_from would; a group being drained is not looked
 * at); owner-dependent data waiting, or a base found, goes on out of line from where this
 * stopped. */
static inline int bf_place_pooled(bf_wctx *w, int64_t region)
{
    if (w->pooled.head < w->pooled.len)
        return bf_place_pooled_from(w, region, SIZE_MAX);
    for (size_t g = 0; g < w->group_count; g++) {
        if (w->groups[g].draining)
            continue;
        bf_index_list *l = &w->groups[g].waiting;
        while (l->head < l->len && !bf_waiting(w, l->at[l->head]))
            l->head++;
        if (l->head < l->len && w->groups[g].base(w, w->queue[l->at[l->head]].owner) == region)
            return bf_place_pooled_from(w, region, g);
    }
    return 1;
}
/* The offset of `s` in the string table `key`, adding it if it is new; the table starts with
 * `prefix` (`prefix_len` bytes). `s->ptr` NULL: returns -1. */
int64_t bf_intern(bf_wctx *w, const void *key, const uint8_t *prefix, size_t prefix_len, const bf_str *s,
                  const char *field);
/* The bytes a built string table holds (a zero-length view when it has none). */
bf_bytes bf_table_bytes(bf_wctx *w, const void *key);
/* The same for a table that always holds a string (schema `never_empty`): with none interned,
 * the empty string, after the table's prefix. On error the view is empty and w->err says why. */
bf_bytes bf_table_bytes_never_empty(bf_wctx *w, const void *key, const uint8_t *prefix, size_t prefix_len,
                                    const char *field);
/* The document keeps the string tables it was built with (copied into `arena`). 0: the
 * arena refused. */
int bf_keep_string_tables(bf_wctx *w, bf_arena *arena);
/* A checked index for writing into an array that the document holds. */
int bf_windex(bf_wctx *w, int64_t i, uint64_t n, const char *field);

/* bf_put and bf_wseek where the image must grow first (or refuse, past its limit). */
uint8_t *bf_put_grow(bf_wctx *w, uint64_t n, const char *field);
int bf_wseek_grow(bf_wctx *w, uint64_t pos, const char *field);

/* Makes room for `n` bytes at the cursor and returns where they go (NULL: error set). */
static inline uint8_t *bf_put(bf_wctx *w, uint64_t n, const char *field)
{
    size_t pos = w->pos;
    if (w->room && pos <= w->room && n <= w->room - pos) { /* inside the image already */
        w->pos = pos + (size_t)n;
        if (w->pos > w->out->size)
            w->out->size = w->pos;
        return w->out->data + pos;
    }
    return bf_put_grow(w, n, field);
}
/* bf_skip past the room of the sink: an error (the output limit). */
int bf_skip_far(bf_wctx *w, uint64_t n, const char *field);
/* The layout solver's put: the cursor moves `n` bytes on in the counting sink, which keeps
 * the image's size and no bytes (its room is the output limit). */
static inline int bf_skip(bf_wctx *w, uint64_t n, const char *field)
{
    size_t pos = w->pos;
    if (pos <= w->room && n <= w->room - pos) {
        w->pos = pos + (size_t)n;
        if (w->pos > w->out->size)
            w->out->size = w->pos;
        return 1;
    }
    return bf_skip_far(w, n, field);
}
/* Moves the cursor to an absolute position (data reached through an offset). */
static inline int bf_wseek(bf_wctx *w, uint64_t pos, const char *field)
{
    if (w->room && pos <= w->room) {
        w->pos = (size_t)pos;
        if (w->pos > w->out->size)
            w->out->size = w->pos;
        return 1;
    }
    return bf_wseek_grow(w, pos, field);
}
/* Moves the cursor to the end of the image, rounded up to `align`. Inline: every piece of
 * data reached through an offset starts here. */
static inline int bf_place_at_end(bf_wctx *w, uint64_t align, const char *field)
{
    uint64_t end = w->out->size;
    if (align > 1)
        end = (end + align - 1) / align * align;
    return bf_wseek(w, end, field);
}

/* One number at the cursor, in the field's width and byte order. */
#define BF_PUT_ONE(name, type, width, store)                              \
    static inline int name(bf_wctx *w, type v, const char *field)         \
    {                                                                     \
        uint8_t *p = bf_put(w, width, field);                             \
        if (!p)                                                           \
            return 0;                                                     \
        store;                                                            \
        return 1;                                                         \
    }
BF_PUT_ONE(bf_put_u8, uint8_t, 1, p[0] = v)
BF_PUT_ONE(bf_put_u16be, uint16_t, 2, bf_store_u16be(p, v))
BF_PUT_ONE(bf_put_u16le, uint16_t, 2, bf_store_u16le(p, v))
BF_PUT_ONE(bf_put_u32be, uint32_t, 4, bf_store_u32be(p, v))
BF_PUT_ONE(bf_put_u32le, uint32_t, 4, bf_store_u32le(p, v))
BF_PUT_ONE(bf_put_u64be, uint64_t, 8, bf_store_u64be(p, v))
BF_PUT_ONE(bf_put_u64le, uint64_t, 8, bf_store_u64le(p, v))
BF_PUT_ONE(bf_put_f32be, float, 4, bf_store_u32be(p, bf_f32_bits(v)))
BF_PUT_ONE(bf_put_f32le, float, 4, bf_store_u32le(p, bf_f32_bits(v)))
BF_PUT_ONE(bf_put_f64be, double, 8, bf_store_u64be(p, bf_f64_bits(v)))
BF_PUT_ONE(bf_put_f64le, double, 8, bf_store_u64le(p, bf_f64_bits(v)))
#undef BF_PUT_ONE
/* 24-bit numbers are held in 32 bits: a value that does not fit is an error, not a wrap. */
int bf_put_u24(bf_wctx *w, uint32_t v, int big_endian, const char *field);
int bf_put_s24(bf_wctx *w, int32_t v, int big_endian, const char *field);
int bf_put_array24(bf_wctx *w, const void *values, uint64_t n, int is_signed, int big_endian, const char *field);
/* `n` numbers of `width` bytes from memory (24-bit ones from 32 bits, each checked to fit).
 * Inline: the arrays of a few numbers (a vector, a colour) cost no call. */
static inline int bf_put_array(bf_wctx *w, const void *values, uint64_t n, unsigned width, int is_signed,
                               int big_endian, const char *field)
{
    if (width == 3)
        return bf_put_array24(w, values, n, is_signed, big_endian, field);
    uint8_t *p = bf_put(w, n * width, field);
    if (!p)
        return 0;
    const uint8_t *in = values;
    if (width == 1) {
        if (n)
            memcpy(p, in, (size_t)n);
        return 1;
    }
    for (size_t i = 0; i < (size_t)n; i++) {
        const uint8_t *from = in + i * width;
        uint8_t *to = p + i * width;
        if (width == 2) {
            uint16_t v;
            memcpy(&v, from, sizeof v);
            big_endian ? bf_store_u16be(to, v) : bf_store_u16le(to, v);
        } else if (width == 4) {
            uint32_t v;
            memcpy(&v, from, sizeof v);
            big_endian ? bf_store_u32be(to, v) : bf_store_u32le(to, v);
        } else {
            uint64_t v;
            memcpy(&v, from, sizeof v);
            big_endian ? bf_store_u64be(to, v) : bf_store_u64le(to, v);
        }
    }
    return 1;
}

/* Alignment bytes before a field, as the document holds them. */
int bf_put_pad(bf_wctx *w, const bf_bytes *pad, const char *field);
/* The layout solver's alignment: as many zeros as reach the next multiple of `align`. */
int bf_size_pad(bf_wctx *w, bf_bytes *pad, uint64_t align, const char *field);
/* The layout solver: the padding that ends a field's region at a multiple of `align`, a
 * prefix of a fill text (the one the document's tail begins, else the first), so that the
 * reader takes it for padding, never for entries; its offset is where it goes, and the
 * cursor moves past it. */
int bf_size_fill(bf_wctx *w, bf_bytes *tail, uint64_t align, const bf_fill *fills, size_t fill_count, const char *field);
/* The bytes after a field inside its region (the layout solver leaves none). */
int bf_put_tail(bf_wctx *w, const bf_bytes *tail, const char *field);
/* The layout solver: `n` zero bytes (none when negative) for bytes whose length an expression
 * gives, keeping the document's bytes when it already has that many. The expression may
 * name what is not placed yet: its failure is forgotten, the next pass fixes the value. */
void bf_size_padding(bf_wctx *w, bf_bytes *b, int64_t n);

/* The writer at the start of a structure: the cursor goes where it starts. A named
 * structure (not the root) gets a frame in the path, which bf_end takes away. */
static inline int bf_begin(bf_wctx *w, uint64_t offset, const char *name, int64_t i)
{
    if (name && !bf_push(&w->c, name, i))
        return 0;
    return bf_wseek(w, offset, NULL);
}
/* The layout solver at the start of a structure: it goes where the cursor is (its position
 * and index recorded; a new position is a change when `counted`). */
static inline int bf_place_begin_at(bf_wctx *w, uint64_t *offset, int64_t *index, const char *name, int64_t i,
                                    int counted)
{
    if (name && !bf_push(&w->c, name, i))
        return 0;
    *index = i < 0 ? 0 : i;
    if (counted && *offset != w->pos)
        w->changes++;
    *offset = w->pos;
    return 1;
}
static inline int bf_place_begin(bf_wctx *w, uint64_t *offset, int64_t *index, const char *name, int64_t i)
{
    return bf_place_begin_at(w, offset, index, name, i, 1);
}
/* bf_place_begin for a structure whose start nothing reads (no expression, no error about a
 * field solved for): where it lands is no change a later pass needs. */
static inline int bf_place_begin_unread(bf_wctx *w, uint64_t *offset, int64_t *index, const char *name, int64_t i)
{
    return bf_place_begin_at(w, offset, index, name, i, 0);
}
static inline int bf_end(bf_wctx *w, const char *name)
{
    if (name)
        bf_pop(&w->c);
    return 1;
}

/* The layout solver: sets a position or parameter, counting a change. */
static inline void bf_set_u64(bf_wctx *w, uint64_t *field, uint64_t v)
{
    if (*field != v) {
        *field = v;
        w->changes++;
    }
}
static inline void bf_set_i64(bf_wctx *w, int64_t *field, int64_t v)
{
    if (*field != v) {
        *field = v;
        w->changes++;
    }
}
/* The same for a position nothing reads: not a change a later pass needs. */
static inline void bf_set_unread_u64(uint64_t *field, uint64_t v)
{
    *field = v;
}
/* Writes `len` bytes (may be NULL: zeros). */
int bf_put_bytes(bf_wctx *w, const uint8_t *bytes, uint64_t len, const char *field);
/* A fixed-length string of `len` bytes: its stored bytes when it has them, else the text
 * and zeros after it. Fails when the text is longer than the field. */
int bf_put_fixed_str(bf_wctx *w, const bf_str *s, uint64_t len, const char *field);
/* A zero-terminated string. */
int bf_put_cstr(bf_wctx *w, const bf_str *s, const char *field);
/* Whether `v` fits in an integer field of `bits` bits, signed or not. */
static inline int bf_fits(int64_t v, unsigned bits, int is_signed)
{
    if (is_signed)
        return bits >= 64 || (v >= -((int64_t)1 << (bits - 1)) && v < ((int64_t)1 << (bits - 1)));
    return v >= 0 && (bits >= 64 || (uint64_t)v >> bits == 0);
}
/* The layout solver: notes that the computed `v` does not fit `field` (its address), at `at` in
 * the image, named by the printf format `path` (below the current frames, or from the root
 * when `rooted`). The pass goes on: a later value that fits clears the note
 * (bf_overflow_clear), and the build fails if a note is left when the layout settles. */
void bf_overflow(bf_wctx *w, const void *field, int64_t v, unsigned bits, int is_signed, uint64_t at, int rooted,
                 const char *path, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 8, 9)))
#endif
    ;
/* The layout solver: stores the computed `v` in an integer field of `bits` bits (24-bit fields
 * are held in 32), counting a change when the field's value changes. A value that does not
 * fit is noted as bf_overflow does (at `at`, named by `path`, from the root when `rooted`),
 * one that fits clears the field's note. bf_fit_<type>: a path without arguments, inline;
 * bf_fitf_<type>: a printf format of a path with indices. */
void bf_fit_note(bf_wctx *w, const void *field, int64_t v, unsigned bits, int is_signed, uint64_t at, int rooted,
                 const char *path);
#if defined(__GNUC__)
#define BF_FIT_FORMAT __attribute__((format(printf, 7, 8)))
#else
#define BF_FIT_FORMAT
#endif
#define BF_FIT_DECLARE(kind, type, is_signed)                                                                        \
    static inline void bf_fit_##kind(bf_wctx *w, type *field, int64_t v, unsigned bits, uint64_t at, int rooted,    \
                                     const char *path)                                                             \
    {                                                                                                              \
        type old = *field;                                                                                         \
        *field = (type)v;                                                                                          \
        if (*field != old)                                                                                         \
            w->changes++;                                                                                          \
        if (!bf_fits(v, bits, is_signed) || w->overflow_count)                                                    \
            bf_fit_note(w, field, v, bits, is_signed, at, rooted, path);                                           \
    }                                                                                                              \
    void bf_fitf_##kind(bf_wctx *w, type *field, int64_t v, unsigned bits, uint64_t at, int rooted, const char *path, \
                        ...) BF_FIT_FORMAT;
/* The field types a computed value is stored into: X(kind, C type, signed), once for the
 * declarations here and the definitions in bf_fit.c. */
#define BF_FIT_TYPES(X)                                                                                               \
    X(u8, uint8_t, 0) X(u16, uint16_t, 0) X(u32, uint32_t, 0) X(u64, uint64_t, 0)                                     \
    X(s8, int8_t, 1) X(s16, int16_t, 1) X(s32, int32_t, 1) X(s64, int64_t, 1)
BF_FIT_TYPES(BF_FIT_DECLARE)
#undef BF_FIT_DECLARE
#undef BF_FIT_FORMAT
/* The same for computed floats (no range to check). */
void bf_fit_f32(bf_wctx *w, float *field, double v);
void bf_fit_f64(bf_wctx *w, double *field, double v);
/* A value that fits was stored in `field`: any note about it no longer holds. */
void bf_overflow_clear(bf_wctx *w, const void *field);
/* The note about the field lowest in the image, or NULL. */
const bf_error *bf_first_overflow(const bf_wctx *w);
/* Fails unless `v` fits in an unsigned field of `bits` bits. */
int bf_check_fits(bf_wctx *w, uint64_t v, unsigned bits, const char *field);
int bf_check_fits_signed(bf_wctx *w, int64_t v, unsigned bits, const char *field);

/* Lays `doc` out with `solve` (the generated root's layout solver), pass after pass in a
 * counting sink, until the layout stops changing, then writes it into `out` with `write`
 * (the generated root writer). The string tables the document ends up holding are copied
 * into `arena`: the document may be written again after the build, as long as the arena
 * lives. */
int bf_build(void *doc, int64_t revision, bf_arena *arena, bf_buffer *out, bf_error *err,
             int (*solve)(bf_wctx *w, void *doc), int (*write)(bf_wctx *w, void *doc));

#ifdef __cplusplus
}
#endif

#endif
