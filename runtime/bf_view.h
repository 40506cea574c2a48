/* Views: reading without copying (DESIGN.md, "Reading without copying").
 *
 * A generated view is a small struct that says where a structure lies in the input; its
 * accessors decode fields straight from the input bytes on demand. Opening a view checks
 * every count, offset and bound the structure needs once, so an accessor never reads outside
 * the input. Nothing here allocates. */
#ifndef BF_VIEW_H
#define BF_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bf_gen.h" /* the reading context its accessors lay structures out with */

#ifdef __cplusplus
extern "C" {
#endif

/* The input a view reads and the root of its document (what `root.` means in a schema). */
typedef struct bf_view_doc {
    const uint8_t *data;
    size_t size;
    const void *root;
    int64_t revision;
} bf_view_doc;

/* Zero bytes: what an absent structure (`_prev` of the first element, an element asked for
 * past the end of its array) reads as, like the full reader's zero structures. */
#define BF_VIEW_ZEROS 1024
extern const uint8_t bf_view_zeros[BF_VIEW_ZEROS];
/* A document over bf_view_zeros, for views of elements that do not exist. */
extern const bf_view_doc bf_view_zero_doc;

/* A reading context over `d` without clearing its frame stack (accessors set one up for
 * each call that has to lay a structure out again). */
void bf_view_ctx(bf_ctx *c, const bf_view_doc *d, bf_error *err);

/* Element `i` of `count` elements of `width` bytes at `base` (in expressions): an index out
 * of range is an error, and the element then reads as zeros. */
static inline const uint8_t *bf_view_elem(bf_ctx *c, const uint8_t *base, size_t width, uint64_t count,
                                          int64_t i)
{
    if (i >= 0 && (uint64_t)i < count)
        return base + (size_t)i * width;
    bf_fail(c, c->pos, NULL, "index %lld is outside an array of %llu elements", (long long)i,
            (unsigned long long)count);
    return bf_view_zeros;
}

/* The length of a fixed-size string (char[N]) at `p`: up to its first zero byte, else `size`,
 * as the full reader's bf_str has it. */
static inline int64_t bf_view_fixed_str_len(const uint8_t *p, size_t size)
{
    const uint8_t *nul = (const uint8_t *)memchr(p, 0, size);
    return nul ? (int64_t)(nul - p) : (int64_t)size;
}

/* Refuses a count the rest of the region cannot hold at `min_encoded` bytes per element,
 * like the full reader does before it allocates. */
int bf_view_count_fits(bf_ctx *c, uint64_t count, uint64_t min_encoded, const char *field);

/* A field of a run of fixed-size fields (numbers, fixed strings, flat structures) that a
 * view checks with one bound. */
typedef struct bf_view_field {
    const char *name;
    uint32_t size;
} bf_view_field;

/* Fails naming the first field of `run` that does not fit before c->end, at its offset. */
int bf_view_short_run(bf_ctx *c, const bf_view_field *run, size_t count);

/* 1 when the `size` bytes of a run of `count` fields fit before c->end. */
static inline int bf_view_need_run(bf_ctx *c, size_t size, const bf_view_field *run, size_t count)
{
    if (size <= c->end - c->pos)
        return 1;
    return bf_view_short_run(c, run, count);
}

/* 1 when `n` elements of `size` bytes fit before c->end; else fails at the first that does
 * not, named with its index ("field[i]"), as the reader's check of that element does. */
int bf_view_need_elems(bf_ctx *c, uint64_t n, size_t size, const char *field);

/* first_nonzero() over `count` consecutive unsigned fields of `width` bytes (1, 2 or 4) at
 * `p`, big-endian when `big`: the first that is not 0, else `otherwise`. */
int64_t bf_view_first_nonzero(const uint8_t *p, size_t count, unsigned width, int big, int64_t otherwise);

/* Opens a document of a format with revisions as the full reader reads it: `lay` is tried
 * with doc->revision set to each in turn (it sets *laid_all once every structure is laid
 * out, before string references are checked); the first that succeeds wins, else the error
 * of the attempt that got furthest, named like the reader's (bf_read_document). */
int bf_view_open_revisions(bf_view_doc *doc, const char *const *revisions, int64_t count, bf_error *err,
                           int (*lay)(bf_ctx *c, void *out, int *laid_all), void *out);


#ifdef __cplusplus
}
#endif

#endif
