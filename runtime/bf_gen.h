/* binform runtime, the part only generated code calls: the reading context (cursor, regions,
 * the field path for errors, claims), array storage, strings and padding in the input, and
 * the read steps every generated read function is made of.
 * Users of generated code need only bf_runtime.h; this header may change between runtime
 * versions without notice, as the generated code is made for one runtime version. */
#ifndef BF_GEN_H
#define BF_GEN_H

#include <string.h>

#include "bf_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BF_MAX_DEPTH 64

/* One level of the field path being read: a name, an array index, or both. */
typedef struct bf_frame {
    const char *name;
    int64_t index; /* -1: no index */
} bf_frame;

typedef struct bf_ctx {
    const uint8_t *data; /* the whole input */
    size_t size;
    size_t pos;          /* cursor */
    size_t end;          /* end of the region being read (<= size) */
    bf_arena *arena;
    bf_error *err;
    const void *root;    /* the document's root object, for expressions that say `root.` */
    unsigned depth;
    bf_frame frames[BF_MAX_DEPTH];
    uint8_t *claimed;    /* optional: one bit per input byte, set for every byte a field reads */
    int64_t revision;    /* the format revision being read (0 when the format has none) */
} bf_ctx;

void bf_ctx_init(bf_ctx *c, const uint8_t *data, size_t size, bf_arena *arena, bf_error *err);

/* Records the failure (path from the frames, plus `field` if not NULL) and returns 0.
 * The first failure wins: later calls keep it. */
int bf_fail(bf_ctx *c, uint64_t offset, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The field path of the current frames plus `field`, like "chunks[3].offset". */
void bf_format_path(const bf_ctx *c, const char *field, char *out, size_t size);

/* 1 when `n` more bytes lie inside the current region, else fails naming `field`. */
static inline int bf_need(bf_ctx *c, uint64_t n, const char *field)
{
    if (n <= (uint64_t)(c->end - c->pos))
        return 1;
    return bf_fail(c, c->pos, field, "needs %llu bytes but only %llu remain before 0x%llx",
                   (unsigned long long)n, (unsigned long long)(c->end - c->pos),
                   (unsigned long long)c->end);
}

static inline int bf_push(bf_ctx *c, const char *name, int64_t index)
{
    if (c->depth >= BF_MAX_DEPTH)
        return bf_fail(c, c->pos, name, "nesting deeper than %d levels", BF_MAX_DEPTH);
    c->frames[c->depth].name = name;
    c->frames[c->depth].index = index;
    c->depth++;
    return 1;
}

static inline void bf_pop(bf_ctx *c) { c->depth--; }

/* Marks [offset, offset + len) as read, when the caller asked for a claim map. */
void bf_claim_range(bf_ctx *c, uint64_t offset, uint64_t len);
static inline void bf_claim(bf_ctx *c, uint64_t offset, uint64_t len)
{
    if (c->claimed)
        bf_claim_range(c, offset, len);
}

/* Array storage for `count` elements of `elem_size` bytes in memory, each taking at least
 * `min_encoded` bytes in the file. A count the remaining region cannot hold is refused
 * before anything is allocated. Returns NULL on failure (error set), or a valid pointer
 * for count 0. */
void *bf_alloc_array(bf_ctx *c, uint64_t count, size_t elem_size, uint64_t min_encoded,
                     const char *field);

/* A saved cursor, for reading data reached through an offset or inside a region. `next` is
 * where bf_leave_region puts the cursor: back at `pos` after an offset, past the region after
 * a sized region. */
typedef struct bf_mark {
    size_t pos, end, next;
} bf_mark;

/* Moves the cursor to absolute `pos`, with a region of `size` bytes (or to the end of the
 * input when `size` is UINT64_MAX). Fails when the region is not inside the input. */
int bf_seek(bf_ctx *c, uint64_t pos, uint64_t size, const char *field, bf_mark *saved);
static inline void bf_restore(bf_ctx *c, const bf_mark *m)
{
    c->pos = m->pos;
    c->end = m->end;
}

/* A zero-terminated string at the cursor, inside the region (the terminator is consumed). */
int bf_read_cstr(bf_ctx *c, const char *field, bf_str *out);
/* A fixed-length string field: `len` bytes, the string ending at the first zero. */
int bf_read_fixed_str(bf_ctx *c, uint64_t len, const char *field, bf_str *out);
/* Resolves an offset into a string table [table_pos, table_pos + table_size): the string
 * must start inside the table and end with a zero inside it. */
int bf_resolve_str(bf_ctx *c, uint64_t table_pos, uint64_t table_size, uint64_t ref,
                   uint64_t at, const char *field, bf_str *out);

/* A text that padding bytes repeat from its start (J3D: "This is padding data to align..."). */
typedef struct bf_fill {
    const char *text;
    size_t len;
} bf_fill;

/* Where the trailing padding of [pos, end) begins: the first offset pos + k * unit from which
 * the bytes up to `end` are fewer than `below` and a prefix of one of the fill texts; `end`
 * when there is none (then the region holds no known padding). */
uint64_t bf_padding_start(const uint8_t *data, uint64_t pos, uint64_t end, int64_t unit, uint64_t below,
                          const bf_fill *fills, size_t fill_count);

/* Grows an array being read element by element (terminated arrays). Returns the new
 * buffer (contents kept) or NULL with an error when the budget is exhausted. */
void *bf_grow(bf_ctx *c, void *buf, uint32_t used, uint32_t *cap, size_t elem_size, const char *field);

/* Fails unless the `len` bytes at `got` equal `expected` (a magic or constant string). */
int bf_expect_bytes(bf_ctx *c, uint64_t at, const char *field, const uint8_t *got, const char *expected,
                    size_t len);

/* A sign-extended bit field. */
static inline int64_t bf_sext(uint64_t v, unsigned width)
{
    uint64_t sign = (uint64_t)1 << (width - 1);
    return bf_s64((v ^ sign) - sign);
}

/* ---- the steps of generated read functions -------------------------------------- */

/* Enters a structure read as `field` (NULL for the document's root), at `index` in its array
 * (-1 outside arrays): its frame in the field path, where it starts and its index (0 outside
 * arrays). bf_leave ends it; a failure in between leaves the frame for the error path. */
static inline int bf_enter(bf_ctx *c, const char *field, int64_t index, uint64_t *offset, int64_t *stored_index)
{
    if (field && !bf_push(c, field, index))
        return 0;
    *offset = c->pos;
    *stored_index = index < 0 ? 0 : index;
    return 1;
}
/* The same for a pass over a structure already read (strings resolved by link functions). */
static inline int bf_enter_again(bf_ctx *c, const char *field, int64_t index)
{
    return !field || bf_push(c, field, index);
}
static inline int bf_leave(bf_ctx *c, const char *field)
{
    if (field)
        bf_pop(c);
    return 1;
}

/* A structure of fixed size and layout: one bounds check and one claim for all its bytes,
 * then its fields are taken with bf_take_* without checks of their own. */
static inline int bf_need_all(bf_ctx *c, uint64_t size)
{
    if (!bf_need(c, size, NULL))
        return 0;
    bf_claim(c, c->pos, size);
    return 1;
}

/* Unsigned numbers at the cursor, moving it past them; the caller has checked the bytes. */
static inline uint8_t bf_take_u8(bf_ctx *c) { return c->data[c->pos++]; }
static inline uint16_t bf_take_u16be(bf_ctx *c) { const uint8_t *p = c->data + c->pos; c->pos += 2; return bf_load_u16be(p); }
static inline uint16_t bf_take_u16le(bf_ctx *c) { const uint8_t *p = c->data + c->pos; c->pos += 2; return bf_load_u16le(p); }
static inline uint32_t bf_take_u24be(bf_ctx *c) { const uint8_t *p = c->data + c->pos; c->pos += 3; return bf_load_u24be(p); }
static inline uint32_t bf_take_u24le(bf_ctx *c) { const uint8_t *p = c->data + c->pos; c->pos += 3; return bf_load_u24le(p); }
static inline uint32_t bf_take_u32be(bf_ctx *c) { const uint8_t *p = c->data + c->pos; c->pos += 4; return bf_load_u32be(p); }
static inline uint32_t bf_take_u32le(bf_ctx *c) { const uint8_t *p = c->data + c->pos; c->pos += 4; return bf_load_u32le(p); }
static inline uint64_t bf_take_u64be(bf_ctx *c) { const uint8_t *p = c->data + c->pos; c->pos += 8; return bf_load_u64be(p); }
static inline uint64_t bf_take_u64le(bf_ctx *c) { const uint8_t *p = c->data + c->pos; c->pos += 8; return bf_load_u64le(p); }

/* One number at the cursor with its own bounds check and claim (a field of a structure
 * that is not flat): bf_read_u16be(c, "count", &s->count). 0 when the bytes are missing. */
#define BF_READ_NUMBER(name, type, width, load)                  \
    static inline int bf_read_##name(bf_ctx *c, const char *field, type *out) \
    {                                                            \
        if (!bf_need(c, width, field))                           \
            return 0;                                            \
        const uint8_t *p = c->data + c->pos;                     \
        *out = load;                                             \
        bf_claim(c, c->pos, width);                              \
        c->pos += width;                                         \
        return 1;                                                \
    }
BF_READ_NUMBER(u8, uint8_t, 1, p[0])
BF_READ_NUMBER(s8, int8_t, 1, bf_s8(p[0]))
BF_READ_NUMBER(u16be, uint16_t, 2, bf_load_u16be(p))
BF_READ_NUMBER(u16le, uint16_t, 2, bf_load_u16le(p))
BF_READ_NUMBER(s16be, int16_t, 2, bf_s16(bf_load_u16be(p)))
BF_READ_NUMBER(s16le, int16_t, 2, bf_s16(bf_load_u16le(p)))
BF_READ_NUMBER(u24be, uint32_t, 3, bf_load_u24be(p))
BF_READ_NUMBER(u24le, uint32_t, 3, bf_load_u24le(p))
BF_READ_NUMBER(s24be, int32_t, 3, bf_s24(bf_load_u24be(p)))
BF_READ_NUMBER(s24le, int32_t, 3, bf_s24(bf_load_u24le(p)))
BF_READ_NUMBER(u32be, uint32_t, 4, bf_load_u32be(p))
BF_READ_NUMBER(u32le, uint32_t, 4, bf_load_u32le(p))
BF_READ_NUMBER(s32be, int32_t, 4, bf_s32(bf_load_u32be(p)))
BF_READ_NUMBER(s32le, int32_t, 4, bf_s32(bf_load_u32le(p)))
BF_READ_NUMBER(u64be, uint64_t, 8, bf_load_u64be(p))
BF_READ_NUMBER(u64le, uint64_t, 8, bf_load_u64le(p))
BF_READ_NUMBER(s64be, int64_t, 8, bf_s64(bf_load_u64be(p)))
BF_READ_NUMBER(s64le, int64_t, 8, bf_s64(bf_load_u64le(p)))
BF_READ_NUMBER(f32be, float, 4, bf_f32_from_bits(bf_load_u32be(p)))
BF_READ_NUMBER(f32le, float, 4, bf_f32_from_bits(bf_load_u32le(p)))
BF_READ_NUMBER(f64be, double, 8, bf_f64_from_bits(bf_load_u64be(p)))
BF_READ_NUMBER(f64le, double, 8, bf_f64_from_bits(bf_load_u64le(p)))
#undef BF_READ_NUMBER

/* Storage for an array whose count an expression gave: fails when the expression failed or
 * the count is outside 0..UINT32_MAX, then as bf_alloc_array. Sets *stored_count on success. */
static inline void *bf_alloc_counted(bf_ctx *c, int64_t count, size_t elem_size, uint64_t min_encoded, const char *field,
                       uint32_t *stored_count)
{
    if (c->err->failed)
        return NULL;
    if (count < 0 || count > (int64_t)UINT32_MAX) {
        bf_fail(c, c->pos, field, "count %lld is out of range", (long long)count);
        return NULL;
    }
    void *p = bf_alloc_array(c, (uint64_t)count, elem_size, min_encoded, field);
    if (p)
        *stored_count = (uint32_t)count;
    return p;
}

/* Storage for the structure a switch case holds; `*kind` is set once it exists, so that a
 * partial document never names a member that is not there. */
static inline void *bf_alloc_case(bf_ctx *c, size_t size, int *kind, int case_kind, const char *field)
{
    void *p = bf_alloc_array(c, 1, size, 0, field);
    if (p)
        *kind = case_kind;
    return p;
}

/* `n` numbers of `width` bytes at the cursor into `dst` (see bf_load_array), checked and claimed.
 * `flags`: BF_BIG_ENDIAN, BF_SIGN24 (s24 elements). */
#define BF_BIG_ENDIAN 1
#define BF_SIGN24 2
static inline int bf_read_numbers(bf_ctx *c, void *dst, uint64_t n, unsigned width, unsigned flags, const char *field)
{
    if (!bf_need(c, n * width, field))
        return 0;
    if (width == 1) /* bytes need no decoding: a copy the compiler sees (a constant count inlines) */
        memcpy(dst, c->data + c->pos, (size_t)n);
    else
        bf_load_array(dst, c->data + c->pos, (size_t)n, width, (flags & BF_BIG_ENDIAN) != 0, (flags & BF_SIGN24) != 0);
    bf_claim(c, c->pos, n * width);
    c->pos += (size_t)n * width;
    return 1;
}

/* A byte run of `len` bytes (an expression: it may have failed or be negative) at the cursor. */
static inline int bf_read_bytes(bf_ctx *c, int64_t len, const char *field, bf_bytes *out)
{
    if (c->err->failed)
        return 0;
    if (len < 0)
        return bf_fail(c, c->pos, field, "length %lld is negative", (long long)len);
    if (!bf_need(c, (uint64_t)len, field))
        return 0;
    out->ptr = c->data + c->pos;
    out->len = (size_t)len;
    out->offset = c->pos;
    bf_claim(c, c->pos, (uint64_t)len);
    c->pos += (size_t)len;
    return 1;
}
/* The rest of the region, up to its end (raw switch cases, what a sized region leaves). */
static inline void bf_read_rest(bf_ctx *c, bf_bytes *out)
{
    out->ptr = c->data + c->pos;
    out->len = c->end - c->pos;
    out->offset = c->pos;
    bf_claim(c, c->pos, c->end - c->pos);
    c->pos = c->end;
}
/* The padding that moves the cursor to a multiple of `align`. */
static inline int bf_read_align(bf_ctx *c, size_t align, const char *field, bf_bytes *out)
{
    size_t pad = (align - c->pos % align) % align;
    if (!bf_need(c, pad, field))
        return 0;
    *out = (bf_bytes){c->data + c->pos, pad, c->pos};
    bf_claim(c, c->pos, pad);
    c->pos += pad;
    return 1;
}

/* Enters the region of a field placed at offset `at` (BF_AT, pos:) and/or of `size` bytes
 * (BF_SIZED, size:; without it a placed field reaches to the end of the file). Fails when an
 * expression failed, a value is negative or the region is not inside the input (a sized
 * region at the cursor: inside the current region). bf_leave_region goes back. */
#define BF_AT 1
#define BF_SIZED 2
int bf_enter_region(bf_ctx *c, unsigned how, int64_t at, int64_t size, const char *field, bf_mark *saved);
static inline void bf_leave_region(bf_ctx *c, const bf_mark *m)
{
    c->pos = m->next;
    c->end = m->end;
}
/* The same for a sized region whose rest (after the field's value) is kept as its tail. */
static inline void bf_leave_region_tail(bf_ctx *c, const bf_mark *m, bf_bytes *tail)
{
    bf_read_rest(c, tail);
    bf_leave_region(c, m);
}

/* Ends the current region where its trailing padding begins (bf_padding_start, with `unit`
 * from an expression that may have failed). The caller keeps the old end to restore. */
int bf_end_before_padding(bf_ctx *c, int64_t unit, uint64_t below, const bf_fill *fills, size_t fill_count);

/* What a format's read entry point reads: the root type through `read`, which reads the
 * structure (setting *read_all once it is read) and then resolves its strings. With
 * revisions, each is tried in order (or only opts->revision) and the error kept is the one
 * of the attempt that got furthest. */
typedef struct bf_document {
    const char *format;
    const char *const *revisions; /* NULL: the format has none */
    size_t revision_count;
    size_t root_size;
    int (*read)(bf_ctx *c, void *root, int *read_all);
} bf_document;
int bf_read_document(const bf_document *d, const uint8_t *data, size_t size, bf_arena *arena,
                     const bf_read_opts *opts, bf_error *err, void **out);

/* Sets up a read: the context, the budget, and the root object of `root_size` bytes. */
void *bf_begin_read(bf_ctx *c, const uint8_t *data, size_t size, bf_arena *arena,
                    const bf_read_opts *opts, bf_error *err, size_t root_size);

#ifdef __cplusplus
}
#endif

#endif
