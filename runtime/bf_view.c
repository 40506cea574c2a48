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

int bf_view_differs(char *where, size_t size, const char *type, const char *field, int64_t index)
{
    if (index >= 0)
        snprintf(where, size, "%s.%s[%lld]", type, field, (long long)index);
    else
        snprintf(where, size, "%s.%s", type, field);
    return 0;
}
