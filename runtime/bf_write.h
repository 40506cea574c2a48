/* Writing: an output image built in memory by position, then saved atomically. */
#ifndef BF_WRITE_H
#define BF_WRITE_H

#include "bf_runtime.h"

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

/* The writer's context: the image, a cursor, and the path of what is being written. */
typedef struct bf_wctx {
    bf_buffer *out;
    size_t pos;
    bf_ctx c; /* frames and error, as for reading (data: none) */
    bf_error err;
} bf_wctx;

void bf_wctx_init(bf_wctx *w, bf_buffer *out, const void *root);

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

/* Writes the image to `path` atomically: a temporary file in the same folder, flushed and
 * synced, then renamed over the target. On any error the target is untouched, the
 * temporary file is removed, and `err` says why. */
int bf_save_atomic(const char *path, const uint8_t *data, size_t size, bf_error *err);

#ifdef __cplusplus
}
#endif

#endif
