/* The builder's passes: the document laid out again until its layout settles. */
#include "bf_write.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Empties the context for another layout pass, keeping the memory it grew. */
static void wctx_reset(bf_wctx *w, bf_buffer *out, void *doc)
{
    bf_wctx keep = *w;
    bf_wctx_init(w, out, doc);
    w->queue = keep.queue;
    w->queue_cap = keep.queue_cap;
    w->group_count = keep.group_count;
    for (size_t i = 0; i < keep.group_count; i++) {
        w->groups[i] = keep.groups[i];
        w->groups[i].waiting.len = w->groups[i].waiting.head = 0;
        w->groups[i].draining = 0;
    }
    w->pooled = keep.pooled;
    w->pooled.len = w->pooled.head = 0;
    w->table_count = keep.table_count;
    for (size_t i = 0; i < keep.table_count; i++) {
        bf_string_table *t = &w->tables[i];
        *t = keep.tables[i];
        t->bytes.size = 0;
        t->string_count = 0;
        if (t->slots)
            memset(t->slots, 0, t->slot_count * sizeof *t->slots);
    }
}

/* Swaps two images' bytes (not their limits). */
static void swap_images(bf_buffer *a, bf_buffer *b)
{
    bf_buffer t = *a;
    a->data = b->data, a->size = b->size, a->cap = b->cap;
    b->data = t.data, b->size = t.size, b->cap = t.cap;
}

/* A fresh layout context for one pass over `doc` into `out`. `size`: what `_size` gives in a
 * value, the file's size, which is the last pass's (it settles with the layout, so a header
 * that counts the bytes after it comes out right). */
static void start_pass(bf_wctx *w, bf_buffer *out, void *doc, int64_t revision, bf_arena *arena, size_t size,
                       int measure)
{
    wctx_reset(w, out, doc);
    w->layout = 1;
    w->measure = measure;
    w->c.revision = revision;
    w->c.size = size;
    w->root = doc;
    w->arena = arena;
}

/* A build's own failure (not one of a field), at no offset. */
static void build_error(bf_error *err, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    memset(err, 0, sizeof *err);
    err->failed = 1;
    vsnprintf(err->message, sizeof err->message, format, ap);
    va_end(ap);
}

int bf_build(void *doc, int64_t revision, bf_arena *arena, bf_buffer *out, bf_error *err,
             int (*pass)(bf_wctx *w, void *doc))
{
    /* positions feed offsets written before them: lay out until a pass changes nothing in
     * the document (the next pass would give the same image), or, for a document whose
     * values go back and forth within a pass, until two passes give the same image. Only
     * those need the previous image: the first passes reuse one image, zeroed.
     * The first pass only measures (arrays of plain elements get their room, not their
     * bytes); only the last pass's bytes are kept. Changes to values nothing reads, made
     * before their bytes are written, are not counted: a fresh document settles in a
     * measuring pass and a writing one when what its first pass reads before computing it
     * does not move the layout.
     * Before them, a walk of the document without placing anything reached through an
     * offset: it computes what a header reads from the tables after it (which chunk is the
     * index chunk), so that the measuring pass places data where the writing pass will. */
    enum { MAX_PASSES = 6, FIRST_COMPARED = 3, MEASURE_PASSES = 1 };
    int quiet = 0, cleared = 0;
    bf_buffer previous = {0};
    bf_wctx w;
    memset(&w, 0, sizeof w);
    int ok = 0;
    size_t last_size = 0;
    out->size = 0;
    start_pass(&w, out, doc, revision, arena, 0, 1);
    (void)pass(&w, doc); /* what fails here fails again, and is reported, in the first pass */
    for (int n = 0; n < MAX_PASSES; n++) {
        if (n >= FIRST_COMPARED)
            swap_images(out, &previous);
        if (!out->data && previous.cap) { /* as large as the last image at once, not by doubling */
            out->data = calloc(previous.cap, 1);
            out->cap = out->data ? previous.cap : 0;
        }
        /* bytes never written are zero. A measuring pass's image is never kept and never
         * read (only its positions and size are), so it may start from whatever the caller's
         * memory holds; the first writing pass clears all of that memory, the later ones
         * what the pass before them wrote */
        int measure = n < MEASURE_PASSES && !quiet;
        if (out->data && !measure && !cleared)
            memset(out->data, 0, out->cap), cleared = 1;
        else if (out->data && !measure)
            memset(out->data, 0, out->size);
        out->size = 0;
        start_pass(&w, out, doc, revision, arena, last_size, measure);
        ok = pass(&w, doc) && bf_place_queued(&w);
        quiet = ok && w.changes == 0;
        int settled = ok && !measure && n > 0 && last_size == out->size &&
                      (w.changes == 0 ||
                       (n >= FIRST_COMPARED && memcmp(previous.data, out->data, out->size) == 0));
        last_size = out->size;
        /* a pass that failed says why; a value that did not fit is reported once the layout
         * has settled (a note of an early pass may be gone in the next one) */
        const bf_error *overflow = bf_first_overflow(&w);
        *err = ok && overflow ? *overflow : w.err;
        if (!ok || overflow) {
            if (!ok || settled || n == MAX_PASSES - 1) {
                ok = 0;
                break;
            }
            ok = 0;
            continue; /* a later pass may bring the value back into range */
        }
        if (settled)
            break;
        ok = 0;
        if (n == MAX_PASSES - 1)
            build_error(err, "the layout did not settle after %d passes", MAX_PASSES);
    }
    if (!bf_keep_string_tables(&w, arena) && ok) {
        ok = 0;
        build_error(err, "out of memory for the built string tables");
    }
    bf_wctx_free(&w);
    bf_buffer_free(&previous);
    if (!ok) /* a failed build leaves no image behind */
        bf_buffer_free(out);
    return ok;
}
