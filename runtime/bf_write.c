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

void bf_wctx_free(bf_wctx *w)
{
    free(w->queue);
    w->queue = NULL;
    w->queued = w->queue_cap = w->queue_next = 0;
    for (size_t i = 0; i < w->table_count; i++)
        bf_buffer_free(&w->tables[i].bytes);
    w->table_count = 0;
}

int bf_enqueue(bf_wctx *w, int (*place)(bf_wctx *, void *), int64_t (*base)(bf_wctx *, void *), void *owner)
{
    if (w->queued == w->queue_cap) {
        size_t cap = w->queue_cap ? w->queue_cap * 2 : 64;
        bf_placement *bigger = realloc(w->queue, cap * sizeof *bigger);
        if (!bigger)
            return bf_fail(&w->c, w->pos, NULL, "out of memory for the layout queue");
        w->queue = bigger;
        w->queue_cap = cap;
    }
    w->queue[w->queued].place = place;
    w->queue[w->queued].base = base;
    w->queue[w->queued].owner = owner;
    w->queued++;
    return 1;
}

int bf_place_at_end(bf_wctx *w, uint64_t align, const char *field)
{
    uint64_t end = w->out->size;
    if (align > 1)
        end = (end + align - 1) / align * align;
    return bf_wseek(w, end, field);
}

int bf_place_pooled(bf_wctx *w, int64_t region)
{
    for (size_t i = w->queue_next; i < w->queued; i++) {
        bf_placement *p = &w->queue[i];
        if (!p->place || !p->base || p->base(w, p->owner) != region)
            continue;
        int (*place)(bf_wctx *, void *) = p->place;
        p->place = NULL; /* placed: skipped by the queue */
        if (!place(w, p->owner))
            return 0;
    }
    return 1;
}

int bf_place_queued(bf_wctx *w)
{
    while (w->queue_next < w->queued) {
        bf_placement p = w->queue[w->queue_next++];
        if (p.place && !p.place(w, p.owner))
            return 0;
    }
    return 1;
}

static bf_string_table *table_for(bf_wctx *w, const void *key)
{
    for (size_t i = 0; i < w->table_count; i++)
        if (w->tables[i].key == key)
            return &w->tables[i];
    if (w->table_count == BF_MAX_STRING_TABLES)
        return NULL;
    bf_string_table *t = &w->tables[w->table_count++];
    memset(t, 0, sizeof *t);
    t->key = key;
    return t;
}

static int append(bf_buffer *b, const void *bytes, size_t n)
{
    if (b->size + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->size + n)
            cap *= 2;
        uint8_t *bigger = realloc(b->data, cap);
        if (!bigger)
            return 0;
        b->data = bigger;
        b->cap = cap;
    }
    if (n)
        memcpy(b->data + b->size, bytes, n);
    b->size += n;
    return 1;
}

int64_t bf_intern(bf_wctx *w, const void *key, const uint8_t *prefix, size_t prefix_len, const bf_str *s,
                  const char *field)
{
    if (!s->ptr)
        return -1;
    if (memchr(s->ptr, 0, s->len)) {
        bf_fail(&w->c, w->pos, field, "string holds a zero byte before its end");
        return -1;
    }
    bf_string_table *t = table_for(w, key);
    if (!t) {
        bf_fail(&w->c, w->pos, field, "more than %d string tables", BF_MAX_STRING_TABLES);
        return -1;
    }
    if (t->bytes.size == 0 && prefix_len && !append(&t->bytes, prefix, prefix_len)) {
        bf_fail(&w->c, w->pos, field, "out of memory for a string table");
        return -1;
    }
    /* an existing copy of the string with its terminator */
    for (size_t at = prefix_len; at + s->len < t->bytes.size; at++) {
        if (memcmp(t->bytes.data + at, s->ptr, s->len) == 0 && t->bytes.data[at + s->len] == 0 &&
            (at == prefix_len || t->bytes.data[at - 1] == 0))
            return (int64_t)at;
    }
    size_t at = t->bytes.size;
    if (!append(&t->bytes, s->ptr, s->len) || !append(&t->bytes, "", 1)) {
        bf_fail(&w->c, w->pos, field, "out of memory for a string table");
        return -1;
    }
    return (int64_t)at;
}

bf_bytes bf_table_bytes(bf_wctx *w, const void *key)
{
    bf_bytes b = {NULL, 0, 0};
    for (size_t i = 0; i < w->table_count; i++)
        if (w->tables[i].key == key) {
            b.ptr = w->tables[i].bytes.data;
            b.len = w->tables[i].bytes.size;
        }
    return b;
}

int bf_windex(bf_wctx *w, int64_t i, uint64_t n, const char *field)
{
    if (i >= 0 && (uint64_t)i < n)
        return 1;
    return bf_fail(&w->c, w->pos, field, "index %lld is outside an array of %llu elements", (long long)i,
                   (unsigned long long)n);
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
    /* the image reaches every position data starts at, even data of no bytes: an offset
     * the document holds must stay inside the file */
    if (!grow(w, (size_t)pos, field))
        return 0;
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

int bf_build(void *doc, int64_t revision, bf_arena *arena, bf_buffer *out, bf_error *err,
             int (*pass)(bf_wctx *w, void *doc))
{
    /* positions feed offsets written before them: lay out until the image stops changing */
    enum { MAX_PASSES = 6 };
    bf_buffer previous = {0};
    int ok = 0;
    for (int n = 0; n < MAX_PASSES; n++) {
        bf_wctx w;
        bf_buffer_free(out);
        bf_wctx_init(&w, out, doc);
        w.c.revision = revision;
        w.layout = 1;
        w.root = doc;
        w.arena = arena;
        ok = pass(&w, doc) && bf_place_queued(&w);
        *err = w.err;
        bf_wctx_free(&w);
        if (!ok || (n > 0 && previous.size == out->size && memcmp(previous.data, out->data, out->size) == 0))
            break;
        ok = 0;
        bf_buffer_free(&previous);
        previous.data = malloc(out->size + 1);
        if (!previous.data) {
            bf_fail(&w.c, 0, NULL, "out of memory");
            *err = w.err;
            break;
        }
        memcpy(previous.data, out->data, out->size);
        previous.size = out->size;
        if (n == MAX_PASSES - 1) {
            memset(err, 0, sizeof *err);
            err->failed = 1;
            snprintf(err->message, sizeof err->message, "the layout did not settle after %d passes", MAX_PASSES);
        }
    }
    bf_buffer_free(&previous);
    return ok;
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
