/* The output image and atomic saving. */
#define _POSIX_C_SOURCE 200809L
#include "bf_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BF_DEFAULT_WRITE_LIMIT ((size_t)1 << 30)

void bf_buffer_free(bf_buffer *b)
{
    free(b->data);
    b->data = NULL;
    b->size = b->cap = 0;
}

void bf_wctx_init(bf_wctx *w, bf_buffer *out, const void *root)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    bf_ctx_init(&w->c, NULL, 0, NULL, &w->err);
    w->c.root = root;
}

static int grow(bf_wctx *w, size_t end, const char *field)
{
    bf_buffer *b = w->out;
    size_t limit = b->limit ? b->limit : BF_DEFAULT_WRITE_LIMIT;
    if (end > limit)
        return bf_fail(&w->c, w->pos, field, "would write up to 0x%zx, past the output limit of %zu bytes", end, limit);
    if (end > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < end)
            cap *= 2;
        uint8_t *bigger = realloc(b->data, cap);
        if (!bigger)
            return bf_fail(&w->c, w->pos, field, "out of memory for %zu output bytes", cap);
        memset(bigger + b->cap, 0, cap - b->cap);
        b->data = bigger;
        b->cap = cap;
    }
    if (end > b->size)
        b->size = end;
    return 1;
}

uint8_t *bf_put(bf_wctx *w, uint64_t n, const char *field)
{
    if (n > SIZE_MAX - w->pos) {
        bf_fail(&w->c, w->pos, field, "%llu bytes do not fit", (unsigned long long)n);
        return NULL;
    }
    if (!grow(w, w->pos + (size_t)n, field))
        return NULL;
    uint8_t *p = w->out->data + w->pos;
    w->pos += (size_t)n;
    return p;
}

int bf_wseek(bf_wctx *w, uint64_t pos, const char *field)
{
    size_t limit = w->out->limit ? w->out->limit : BF_DEFAULT_WRITE_LIMIT;
    if (pos > limit)
        return bf_fail(&w->c, w->pos, field, "position 0x%llx is past the output limit", (unsigned long long)pos);
    w->pos = (size_t)pos;
    return 1;
}

int bf_put_bytes(bf_wctx *w, const uint8_t *bytes, uint64_t len, const char *field)
{
    uint8_t *p = bf_put(w, len, field);
    if (!p)
        return 0;
    if (bytes && len)
        memcpy(p, bytes, (size_t)len);
    else if (len)
        memset(p, 0, (size_t)len);
    return 1;
}

int bf_put_fixed_str(bf_wctx *w, const bf_str *s, uint64_t len, const char *field)
{
    if (s->len > len)
        return bf_fail(&w->c, w->pos, field, "string of %u bytes is longer than its %llu-byte field", s->len,
                       (unsigned long long)len);
    uint8_t *p = bf_put(w, len, field);
    if (!p)
        return 0;
    size_t keep = s->size >= len ? (size_t)len : s->len;
    if (s->ptr && keep)
        memcpy(p, s->ptr, keep);
    return 1;
}

int bf_put_cstr(bf_wctx *w, const bf_str *s, const char *field)
{
    if (s->ptr && memchr(s->ptr, 0, s->len))
        return bf_fail(&w->c, w->pos, field, "string holds a zero byte before its end");
    uint8_t *p = bf_put(w, (uint64_t)s->len + 1, field);
    if (!p)
        return 0;
    if (s->len)
        memcpy(p, s->ptr, s->len);
    p[s->len] = 0;
    return 1;
}

int bf_check_fits(bf_wctx *w, uint64_t v, unsigned bits, const char *field)
{
    if (bits >= 64 || v >> bits == 0)
        return 1;
    return bf_fail(&w->c, w->pos, field, "value 0x%llx does not fit in %u bits", (unsigned long long)v, bits);
}

int bf_check_fits_signed(bf_wctx *w, int64_t v, unsigned bits, const char *field)
{
    int64_t lo = -((int64_t)1 << (bits - 1)), hi = ((int64_t)1 << (bits - 1)) - 1;
    if (bits >= 64 || (v >= lo && v <= hi))
        return 1;
    return bf_fail(&w->c, w->pos, field, "value %lld does not fit in %u signed bits", (long long)v, bits);
}

static int save_fail(bf_error *err, const char *what, const char *path)
{
    memset(err, 0, sizeof *err);
    err->failed = 1;
    snprintf(err->message, sizeof err->message, "cannot %s %s: %s", what, path, strerror(errno));
    return 0;
}

int bf_save_atomic(const char *path, const uint8_t *data, size_t size, bf_error *err)
{
    /* the temporary file goes beside the target, so that rename() stays on one file system */
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp) {
        errno = ENOMEM;
        return save_fail(err, "write", path);
    }
    snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        save_fail(err, "create a temporary file for", path);
        free(tmp);
        return 0;
    }
    /* mkstemp makes the file private: give it the target's mode, or the usual one */
    struct stat st;
    mode_t mode;
    if (stat(path, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode) != 0) {
        save_fail(err, "set the mode of", tmp);
        close(fd);
        unlink(tmp);
        free(tmp);
        return 0;
    }
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, data + done, size - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            save_fail(err, "write", tmp);
            close(fd);
            unlink(tmp);
            free(tmp);
            return 0;
        }
        done += (size_t)w;
    }
    if (fsync(fd) != 0) {
        save_fail(err, "flush", tmp);
        close(fd);
        unlink(tmp);
        free(tmp);
        return 0;
    }
    if (close(fd) != 0 || rename(tmp, path) != 0) {
        save_fail(err, "replace", path);
        unlink(tmp);
        free(tmp);
        return 0;
    }
    free(tmp);
    return 1;
}
