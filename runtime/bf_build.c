/* The builder's passes: the document laid out again until its layout settles. */
#include "bf_write.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Empties the context for another layout pass, keeping the memory it grew. Field by field:
 * the context is some 8 KB (frames, error texts, overflow notes), and copying and clearing
 * it whole at every pass was a third of a small file's build. */
static void wctx_reset(bf_wctx *w, bf_buffer *out, void *doc)
{
    w->out = out;
    w->pos = 0;
    bf_ctx_init(&w->c, NULL, 0, NULL, &w->err);
    w->c.root = doc;
    w->layout = w->built = w->pack = 0;
    w->root = NULL;
    w->arena = NULL;
    w->queued = w->queue_next = 0;
    for (size_t i = 0; i < w->group_count; i++) {
        w->groups[i].waiting.len = w->groups[i].waiting.head = 0;
        w->groups[i].draining = 0;
    }
    w->last_group = NULL;
    w->pooled.len = w->pooled.head = 0;
    for (size_t i = 0; i < w->table_count; i++) {
        bf_string_table *t = &w->tables[i];
        t->bytes.size = 0;
        t->string_count = 0;
        if (t->slots)
            memset(t->slots, 0, t->slot_count * sizeof *t->slots);
    }
    w->overflow_count = 0;
    w->room = 0;
    w->changes = 0;
}

/* Swaps two images' bytes (not their limits). */
static void swap_images(bf_buffer *a, bf_buffer *b)
{
    bf_buffer t = *a;
    a->data = b->data, a->size = b->size, a->cap = b->cap;
    b->data = t.data, b->size = t.size, b->cap = t.cap;
}

/* The counting sink a layout pass writes into: positions and a size, no bytes. Its room is
 * the output limit, up to which the cursor moves freely. */
#define BF_DEFAULT_BUILD_LIMIT ((size_t)1 << 30)

/* A fresh layout context for one pass over `doc` into the sink. `size`: what `_size` gives in
 * a value, the file's size, which is the last pass's (it settles with the layout, so a header
 * that counts the bytes after it comes out right). */
static void start_pass(bf_wctx *w, bf_buffer *sink, void *doc, int64_t revision, bf_arena *arena, size_t size)
{
    sink->size = 0;
    wctx_reset(w, sink, doc);
    w->layout = 1;
    w->room = sink->limit ? sink->limit : BF_DEFAULT_BUILD_LIMIT;
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

/* Writes the laid-out `doc` into `out`, whose image the layout says is `size` bytes: its memory
 * taken at once, zeroed (bytes never written are zero). */
static int write_image(void *doc, int64_t revision, size_t size, bf_buffer *out, bf_error *err,
                       int (*write)(bf_wctx *w, void *doc))
{
    size_t want = size ? size : 1;
    if (out->cap < want) {
        free(out->data);
        out->data = calloc(want, 1);
        out->cap = out->data ? want : 0;
        if (!out->data) {
            build_error(err, "out of memory for %zu output bytes", want);
            return 0;
        }
    } else {
        memset(out->data, 0, out->cap);
    }
    out->size = 0;
    bf_wctx w;
    bf_wctx_init(&w, out, doc);
    w.built = 1;
    w.c.revision = revision;
    w.c.size = size;
    size_t limit = out->limit ? out->limit : BF_DEFAULT_BUILD_LIMIT;
    w.room = out->cap < limit ? out->cap : limit;
    int ok = write(&w, doc);
    *err = w.err;
    bf_wctx_free(&w);
    return ok;
}

int bf_build(void *doc, int64_t revision, bf_arena *arena, bf_buffer *out, bf_error *err,
             int (*solve)(bf_wctx *w, void *doc), int (*write)(bf_wctx *w, void *doc))
{
    /* positions feed offsets written before them: lay out until a pass changes nothing in
     * the document (the next pass would give the same layout), or, for a document whose
     * values go back and forth within a pass, until two passes give the same image (from
     * the third pass on, each pass's document is written and compared with the last).
     * Changes to values nothing reads are not counted. Passes lay out into a counting sink;
     * the writer puts the settled document's bytes once.
     * Before them, a walk of the document without placing anything reached through an
     * offset: it computes what a header reads from the tables after it (which chunk is the
     * index chunk), so that the first pass places data where the later ones will. */
    enum { MAX_PASSES = 6, FIRST_COMPARED = 3 };
    bf_buffer sink = {0}, previous = {0};
    sink.limit = previous.limit = out->limit;
    bf_wctx w;
    memset(&w, 0, sizeof w);
    int ok = 0, written = 0;
    size_t last_size = 0;
    start_pass(&w, &sink, doc, revision, arena, 0);
    (void)solve(&w, doc); /* what fails here fails again, and is reported, in the first pass */
    int noted = 0;
    for (int n = 0; n < MAX_PASSES; n++) {
        start_pass(&w, &sink, doc, revision, arena, last_size);
        /* the bits of plain structures (numbers that nothing reads) are packed by the first
         * pass, which reaches every one of them: their parts are the document's own, which no
         * pass changes. After a pass that noted a value out of range, the next packs again:
         * the note must stand until the layout settles, or go if the value was another */
        w.pack = n == 0 || noted;
        ok = solve(&w, doc) && bf_place_queued(&w);
        int same_size = last_size == sink.size;
        last_size = sink.size;
        int settled = ok && n > 0 && same_size && w.changes == 0;
        /* a pass that failed says why; a value that did not fit is reported once the layout
         * has settled (a note of an early pass may be gone in the next one) */
        const bf_error *overflow = bf_first_overflow(&w);
        noted = overflow != NULL;
        *err = ok && overflow ? *overflow : w.err;
        if (ok && !overflow && !settled && n >= FIRST_COMPARED) {
            swap_images(out, &previous);
            ok = write_image(doc, revision, last_size, out, err, write);
            written = ok;
            settled = ok && same_size && previous.size == out->size && memcmp(previous.data, out->data, out->size) == 0;
        }
        if (!ok || overflow) {
            if (!ok || settled || n == MAX_PASSES - 1) {
                ok = 0;
                break;
            }
            ok = 0;
            continue; /* a later pass may bring the value back into range */
        }
        if (settled) {
            if (!written)
                ok = write_image(doc, revision, last_size, out, err, write);
            break;
        }
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
