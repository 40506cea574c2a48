/* binform runtime, the part a user of generated code calls: allocator hooks and the arena,
 * errors, strings and bytes in the input, read options, LZ4 blocks, files. What only
 * generated code needs (the reading context) is in bf_gen.h.
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

/* ---- reading -------------------------------------------------------------------- */

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
/* Decodes a whole LZ4 frame (magic 0x184D2204, descriptor, blocks up to the end mark) from the
 * start of `src` into `dst` (`cap` bytes); bytes after the frame are not looked at. Checksums
 * are skipped, not verified. Returns the decoded length, or -1 when the frame is malformed,
 * uses a dictionary, or does not fit in `cap`. */
int64_t bf_lz4_frame(const uint8_t *src, size_t n, uint8_t *dst, size_t cap);

/* ---- files ----------------------------------------------------------------------- */

/* Reads a whole file into memory from `alloc`. On failure returns 0 and writes a message
 * (with the OS's reason) into `err`. */
int bf_file_load(const char *path, bf_alloc alloc, uint8_t **data, size_t *size, bf_error *err);
void bf_file_unload(bf_alloc alloc, uint8_t *data, size_t size);

#ifdef __cplusplus
}
#endif

#endif
