/* Fit reports: a computed value that does not fit its field is noted (the layout may still
 * bring it back into range) and reported once the layout settles. */
#include "bf_write.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* "value 101184 does not fit in 16 unsigned bits (0 to 65535)" */
static void describe_misfit(char *out, size_t size, int64_t v, unsigned bits, int is_signed)
{
    if (is_signed) {
        long long lo = bits >= 64 ? INT64_MIN : -((long long)1 << (bits - 1));
        long long hi = bits >= 64 ? INT64_MAX : ((long long)1 << (bits - 1)) - 1;
        snprintf(out, size, "value %lld does not fit in %u signed bits (%lld to %lld)", (long long)v, bits, lo, hi);
    } else {
        unsigned long long hi = bits >= 64 ? UINT64_MAX : ((unsigned long long)1 << bits) - 1;
        snprintf(out, size, "value %lld does not fit in %u unsigned bits (0 to %llu)", (long long)v, bits, hi);
    }
}

static void note_overflow(bf_wctx *w, const void *field, int64_t v, unsigned bits, int is_signed, uint64_t at,
                          int rooted, const char *path, va_list ap)
{
    struct bf_overflow_note *note = NULL;
    for (size_t i = 0; i < w->overflow_count && !note; i++)
        if (w->overflows[i].field == field)
            note = &w->overflows[i];
    if (!note) {
        if (w->overflow_count == BF_MAX_OVERFLOW_NOTES)
            return; /* enough to fail with */
        note = &w->overflows[w->overflow_count++];
    }
    char name[BF_PATH_MAX];
    vsnprintf(name, sizeof name, path, ap);
    note->field = field;
    bf_error *e = &note->err;
    memset(e, 0, sizeof *e);
    e->failed = 1;
    e->offset = at;
    if (rooted)
        snprintf(e->path, sizeof e->path, "%s", name);
    else
        bf_format_path(&w->c, name, e->path, sizeof e->path);
    describe_misfit(e->message, sizeof e->message, v, bits, is_signed);
}

void bf_overflow(bf_wctx *w, const void *field, int64_t v, unsigned bits, int is_signed, uint64_t at, int rooted,
                 const char *path, ...)
{
    va_list ap;
    va_start(ap, path);
    note_overflow(w, field, v, bits, is_signed, at, rooted, path, ap);
    va_end(ap);
}

void bf_fit_note(bf_wctx *w, const void *field, int64_t v, unsigned bits, int is_signed, uint64_t at, int rooted,
                 const char *path)
{
    if (!bf_fits(v, bits, is_signed))
        bf_overflow(w, field, v, bits, is_signed, at, rooted, "%s", path);
    else
        bf_overflow_clear(w, field);
}

#define BF_FIT_DEFINE(kind, type, is_signed)                                                                     \
    void bf_fitf_##kind(bf_wctx *w, type *field, int64_t v, unsigned bits, uint64_t at, int rooted,              \
                        const char *path, ...)                                                                   \
    {                                                                                                            \
        type old = *field;                                                                                       \
        *field = (type)v;                                                                                        \
        if (*field != old)                                                                                       \
            w->changes++;                                                                                        \
        if (!bf_fits(v, bits, is_signed)) {                                                                      \
            va_list ap;                                                                                          \
            va_start(ap, path);                                                                                  \
            note_overflow(w, field, v, bits, is_signed, at, rooted, path, ap);                                   \
            va_end(ap);                                                                                          \
        } else if (w->overflow_count) {                                                                          \
            bf_overflow_clear(w, field);                                                                         \
        }                                                                                                        \
    }
BF_FIT_TYPES(BF_FIT_DEFINE)
#undef BF_FIT_DEFINE

void bf_fit_f32(bf_wctx *w, float *field, double v)
{
    float old = *field;
    *field = (float)v;
    if (bf_f32_bits(*field) != bf_f32_bits(old))
        w->changes++;
}

void bf_fit_f64(bf_wctx *w, double *field, double v)
{
    double old = *field;
    *field = v;
    if (bf_f64_bits(*field) != bf_f64_bits(old))
        w->changes++;
}

void bf_overflow_clear(bf_wctx *w, const void *field)
{
    for (size_t i = 0; i < w->overflow_count; i++)
        if (w->overflows[i].field == field) {
            w->overflows[i] = w->overflows[--w->overflow_count];
            return;
        }
}

/* The note about the field lowest in the image, or NULL. */
const bf_error *bf_first_overflow(const bf_wctx *w)
{
    const bf_error *first = NULL;
    for (size_t i = 0; i < w->overflow_count; i++)
        if (!first || w->overflows[i].err.offset < first->offset)
            first = &w->overflows[i].err;
    return first;
}

int bf_check_fits(bf_wctx *w, uint64_t v, unsigned bits, const char *field)
{
    if (bits >= 64 || v >> bits == 0)
        return 1;
    char message[BF_MESSAGE_MAX];
    if (v > INT64_MAX)
        snprintf(message, sizeof message, "value %llu does not fit in %u unsigned bits", (unsigned long long)v, bits);
    else
        describe_misfit(message, sizeof message, (int64_t)v, bits, 0);
    return bf_fail(&w->c, w->pos, field, "%s", message);
}

int bf_check_fits_signed(bf_wctx *w, int64_t v, unsigned bits, const char *field)
{
    if (bf_fits(v, bits, 1))
        return 1;
    char message[BF_MESSAGE_MAX];
    describe_misfit(message, sizeof message, v, bits, 1);
    return bf_fail(&w->c, w->pos, field, "%s", message);
}

