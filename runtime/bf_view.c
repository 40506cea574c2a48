/* What generated views share: the zero input and a light reading context. */
#include "bf_view.h"

#include <stdio.h>

const uint8_t bf_view_zeros[BF_VIEW_ZEROS];
const bf_view_doc bf_view_zero_doc = {bf_view_zeros, BF_VIEW_ZEROS, NULL, 0};

void bf_view_ctx(bf_ctx *c, const bf_view_doc *d, bf_error *err)
{
    /* the frames are written before they are read: no need to clear 1 KB per access */
    c->data = d->data;
    c->size = d->size;
    c->pos = 0;
    c->end = d->size;
    c->arena = NULL;
    c->err = err;
    c->root = d->root;
    c->depth = 0;
    c->claimed = NULL;
    c->revision = d->revision;
    err->failed = 0;
}

int bf_view_count_fits(bf_ctx *c, uint64_t count, uint64_t min_encoded, const char *field)
{
    uint64_t remaining = c->end - c->pos;
    if (!min_encoded || count <= remaining / min_encoded)
        return 1;
    return bf_fail(c, c->pos, field, "count %llu needs at least %llu bytes but only %llu remain before 0x%llx",
                   (unsigned long long)count,
                   count > UINT64_MAX / min_encoded ? UINT64_MAX : (unsigned long long)(count * min_encoded),
                   (unsigned long long)remaining, (unsigned long long)c->end);
}

int bf_view_short_run(bf_ctx *c, const bf_view_field *run, size_t count)
{
    uint64_t at = c->pos;
    for (size_t i = 0; i < count; i++) {
        if (run[i].size > c->end - at)
            return bf_fail(c, at, run[i].name, "needs %llu bytes but only %llu remain before 0x%llx",
                           (unsigned long long)run[i].size, (unsigned long long)(c->end - at),
                           (unsigned long long)c->end);
        at += run[i].size;
    }
    return 1; /* (the run fits: the caller's sum was wrong; not reached) */
}

int bf_view_need_elems(bf_ctx *c, uint64_t n, size_t size, const char *field)
{
    uint64_t fit = size ? (c->end - c->pos) / size : n;
    if (fit >= n)
        return 1;
    uint64_t at = c->pos + fit * size;
    if (!bf_push(c, field, (int64_t)fit))
        return 0;
    bf_fail(c, at, NULL, "needs %llu bytes but only %llu remain before 0x%llx", (unsigned long long)size,
            (unsigned long long)(c->end - at), (unsigned long long)c->end);
    bf_pop(c);
    return 0;
}

int64_t bf_view_first_nonzero(const uint8_t *p, size_t count, unsigned width, int big, int64_t otherwise)
{
    for (size_t i = 0; i < count; i++, p += width) {
        uint32_t v;
        if (width == 1)
            v = p[0];
        else if (width == 2)
            v = big ? bf_load_u16be(p) : bf_load_u16le(p);
        else
            v = big ? bf_load_u32be(p) : bf_load_u32le(p);
        if (v != 0)
            return v;
    }
    return otherwise;
}

int bf_view_open_revisions(bf_view_doc *doc, const char *const *revisions, int64_t count, bf_error *err,
                           int (*lay)(bf_ctx *c, void *out, int *laid_all), void *out)
{
    bf_error best;
    int64_t best_revision = -1;
    uint64_t best_reached = 0;
    for (int64_t r = 0; r < count; r++) {
        bf_ctx c;
        int laid_all = 0;
        doc->revision = r;
        bf_view_ctx(&c, doc, err);
        if (lay(&c, out, &laid_all))
            return 1;
        /* how far the attempt got: a failure once all is laid out (strings) got furthest */
        uint64_t reached = laid_all ? (uint64_t)doc->size + 1 : err->offset;
        if (best_revision < 0 || reached > best_reached) {
            best = *err;
            best_revision = r;
            best_reached = reached;
        }
    }
    if (best_revision < 0)
        return 0;
    *err = best;
    char message[sizeof err->message];
    snprintf(message, sizeof message, "%s", best.message);
    if (count > 1)
        snprintf(err->message, sizeof err->message, "no revision reads this file; as '%s' (furthest): %.180s",
                 revisions[best_revision], message);
    else
        snprintf(err->message, sizeof err->message, "as '%s': %.200s", revisions[best_revision], message);
    return 0;
}
