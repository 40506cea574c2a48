/* binform runtime: what generated readers, writers and validators stand on.
 *
 * C99, no dependencies beyond the C library. Knows nothing about any format. */
#ifndef BF_RUNTIME_H
#define BF_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "bf_endian.h"
#include "bf_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- allocator hooks and the arena ------------------------------------------------ */

/* Where memory comes from. `alloc` returns NULL on failure; `release` gets the size back
 * so that counting allocators (fuzzers, budgets) need no header of their own. */
typedef struct bf_alloc {
    void *(*alloc)(void *user, size_t size);
    void (*release)(void *user, void *ptr, size_t size);
    void *user;
} bf_alloc;

/* The C library's malloc/free. */
bf_alloc bf_alloc_default(void);

typedef struct bf_arena_block bf_arena_block;

/* Everything a parsed document owns lives in one arena, freed at once. `budget` caps the
 * bytes taken from the allocator, block headers and unused block space included (0: no
 * cap); readers set it from the input size so that lying counts cannot make memory grow
 * beyond a small multiple of the file. */
typedef struct bf_arena {
    bf_alloc alloc;
    bf_arena_block *head;
    size_t used; /* bytes taken from the allocator */
    size_t budget;
} bf_arena;

void bf_arena_init(bf_arena *a, bf_alloc alloc, size_t budget);
/* Zeroed, 16-byte aligned; NULL when the budget or the allocator says no. */
void *bf_arena_alloc(bf_arena *a, size_t size);
void bf_arena_free(bf_arena *a);
/* Moves everything `src` holds into `dst` (same allocator): a read attempt made in its own
 * arena is kept when it succeeds, and freed alone when it does not. */
void bf_arena_adopt(bf_arena *dst, bf_arena *src);

/* ---- errors ---------------------------------------------------------------------- */

#define BF_PATH_MAX 256
#define BF_MESSAGE_MAX 256

/* A failure names the field path (`chunks[3].offset`) and the byte offset it concerns. */
typedef struct bf_error {
    int failed;
    uint64_t offset;
    char path[BF_PATH_MAX];
    char message[BF_MESSAGE_MAX];
} bf_error;

/* "FILE: error: PATH @0xOFF: MESSAGE" (FILE may be NULL). Returns snprintf's count. */
int bf_error_format(const bf_error *e, const char *file, char *buf, size_t size);

/* ---- views into the input -------------------------------------------------------- */

/* A string inside the input buffer (not copied). `ptr` is NULL for an absent string.
 * `size` is how many bytes `ptr` holds in all: a fixed-length string keeps the bytes after its
 * terminator (files carry garbage there) so that writing it back is exact; 0 means `len`. */
typedef struct bf_str {
    const char *ptr;
    uint32_t len;
    uint32_t size;
} bf_str;

/* Bytes inside the input buffer (not copied), and where they were. */
typedef struct bf_bytes {
    const uint8_t *ptr;
    size_t len;
    uint64_t offset;
} bf_bytes;

/* ---- the reading context --------------------------------------------------------- */

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

/* Options of a read. */
typedef struct bf_read_opts {
    uint8_t *claimed;     /* optional: (size + 7) / 8 zeroed bytes; gets a bit per byte read */
    const char *revision; /* formats with revisions: read as this one; NULL: detect */
    void **partial;       /* optional: when the read fails, gets the root as far as it was read
                           * (in the arena; arrays hold the elements read so far, the failing
                           * one included; see LANGUAGE.md, "Partial documents") */
} bf_read_opts;

/* The default memory budget for reading `size` input bytes. */
size_t bf_default_budget(size_t size);

/* Sets up a read: the context, the budget, and the root object of `root_size` bytes. */
void *bf_begin_read(bf_ctx *c, const uint8_t *data, size_t size, bf_arena *arena,
                    const bf_read_opts *opts, bf_error *err, size_t root_size);

/* ---- LZ4 blocks ------------------------------------------------------------------ */

/* Decodes one LZ4 block (the raw format, as inside an LZ4 frame) of `n` bytes into `dst`
 * (`cap` bytes). Matches may reach `history` bytes before `dst` (output of earlier blocks the
 * caller keeps there; 0 for an independent block). With `dst` NULL nothing is written and
 * only the decoded length is computed, with the same checks. Returns the decoded length, or
 * -1 when the block is malformed (a length or offset outside the input, the output or its
 * history) or does not fit in `cap`. */
int64_t bf_lz4_block(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t history);
/* The decoded length of a block whose matches may reach `window` earlier bytes, or -1
 * (`lz4_size(bytes, window)` in schema expressions). */
int64_t bf_lz4_size(const uint8_t *src, size_t n, int64_t window);

/* ---- files ----------------------------------------------------------------------- */

/* Reads a whole file into memory from `alloc`. On failure returns 0 and writes a message
 * (with the OS's reason) into `err`. */
int bf_file_load(const char *path, bf_alloc alloc, uint8_t **data, size_t *size, bf_error *err);
void bf_file_unload(bf_alloc alloc, uint8_t *data, size_t size);

#ifdef __cplusplus
}
#endif

#endif
