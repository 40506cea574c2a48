/* Writing: an output image built in memory by position, then saved atomically. */
#ifndef BF_WRITE_H
#define BF_WRITE_H

#include "bf_gen.h"

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

#define BF_MAX_STRING_TABLES 4

/* A string table the builder fills: each string once, in the order first met. */
typedef struct bf_string_table {
    const void *key; /* which table (the address of its bytes field) */
    bf_buffer bytes;
} bf_string_table;

/* The writer's context: the image, a cursor, and the path of what is being written.
 * In layout mode (the builder) structures are placed where the cursor is, data reached
 * through offsets is queued and placed after everything before it, and counts, sizes,
 * offsets and string references are computed instead of taken from the document. */
typedef struct bf_wctx {
    bf_buffer *out;
    size_t pos;
    bf_ctx c; /* frames and error, as for reading (data: none) */
    bf_error err;
    int layout;
    void *root;      /* the document, writable (layout mode fills it in) */
    bf_arena *arena; /* what the builder allocates (computed tables) */
    bf_placement *queue;
    size_t queued, queue_cap, queue_next;
    bf_string_table tables[BF_MAX_STRING_TABLES];
    size_t table_count;
} bf_wctx;

void bf_wctx_init(bf_wctx *w, bf_buffer *out, const void *root);
void bf_wctx_free(bf_wctx *w);

/* ---- the builder's layout ---- */

/* Queues data reached through an offset. */
int bf_enqueue(bf_wctx *w, int (*place)(bf_wctx *, void *), int64_t (*base)(bf_wctx *, void *), void *owner);
/* Places queued data in order (pooled data right after its region) until none is left. */
int bf_place_queued(bf_wctx *w);
/* Moves the cursor to the end of the image, rounded up to `align`. */
int bf_place_at_end(bf_wctx *w, uint64_t align, const char *field);
/* Places pooled data whose base is `region` (just written). */
int bf_place_pooled(bf_wctx *w, int64_t region);
/* The offset of `s` in the string table `key`, adding it if it is new; the table starts with
 * `prefix` (`prefix_len` bytes). `s->ptr` NULL: returns -1. */
int64_t bf_intern(bf_wctx *w, const void *key, const uint8_t *prefix, size_t prefix_len, const bf_str *s,
                  const char *field);
/* The bytes a built string table holds (a zero-length view when it has none). */
bf_bytes bf_table_bytes(bf_wctx *w, const void *key);
/* A checked index for writing into an array that the document holds. */
int bf_windex(bf_wctx *w, int64_t i, uint64_t n, const char *field);

/* Makes room for `n` bytes at the cursor and returns where they go (NULL: error set). */
uint8_t *bf_put(bf_wctx *w, uint64_t n, const char *field);
/* Moves the cursor to an absolute position (data reached through an offset). */
int bf_wseek(bf_wctx *w, uint64_t pos, const char *field);
/* Writes `len` bytes (may be NULL: zeros). */
int bf_put_bytes(bf_wctx *w, const uint8_t *bytes, uint64_t len, const char *field);
/* A fixed-length string of `len` bytes: its stored bytes when it has them, else the text
 * and zeros after it. Fails when the text is longer than the field. */
int bf_put_fixed_str(bf_wctx *w, const bf_str *s, uint64_t len, const char *field);
/* A zero-terminated string. */
int bf_put_cstr(bf_wctx *w, const bf_str *s, const char *field);
/* Fails unless `v` fits in an unsigned field of `bits` bits. */
int bf_check_fits(bf_wctx *w, uint64_t v, unsigned bits, const char *field);
int bf_check_fits_signed(bf_wctx *w, int64_t v, unsigned bits, const char *field);

/* Runs a builder's layout passes until the image stops changing: each pass lays `doc` out
 * with `pass` (the generated root writer) in a fresh layout context. */
int bf_build(void *doc, int64_t revision, bf_arena *arena, bf_buffer *out, bf_error *err,
             int (*pass)(bf_wctx *w, void *doc));

/* Writes the image to `path` atomically: a temporary file in the same folder, flushed and
 * synced, then renamed over the target. On any error the target is untouched, the
 * temporary file is removed, and `err` says why. */
int bf_save_atomic(const char *path, const uint8_t *data, size_t size, bf_error *err);

#ifdef __cplusplus
}
#endif

#endif
