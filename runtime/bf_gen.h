/* binform runtime, the part only generated code calls: the reading context (cursor, regions,
 * the field path for errors, claims), array storage, strings and padding in the input.
 * Users of generated code need only bf_runtime.h; this header may change between runtime
 * versions without notice, as the generated code is made for one runtime version. */
#ifndef BF_GEN_H
#define BF_GEN_H

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

/* A saved cursor, for reading data reached through an offset. */
typedef struct bf_mark {
    size_t pos, end;
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

/* Sets up a read: the context, the budget, and the root object of `root_size` bytes. */
void *bf_begin_read(bf_ctx *c, const uint8_t *data, size_t size, bf_arena *arena,
                    const bf_read_opts *opts, bf_error *err, size_t root_size);

#ifdef __cplusplus
}
#endif

#endif
