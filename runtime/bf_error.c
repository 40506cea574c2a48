/* Failures: the field path comes from the context's frames, formatted only when needed. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bf_gen.h"

void bf_ctx_init(bf_ctx *c, const uint8_t *data, size_t size, bf_arena *arena, bf_error *err)
{
    memset(c, 0, sizeof *c);
    c->data = data;
    c->size = size;
    c->end = size;
    c->arena = arena;
    c->err = err;
    memset(err, 0, sizeof *err);
}

static size_t append(char *buf, size_t used, size_t size, const char *fmt, ...)
{
    if (used >= size)
        return used;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
    if (n < 0)
        return used;
    return used + (size_t)n < size ? used + (size_t)n : size - 1;
}

void bf_format_path(const bf_ctx *c, const char *field, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (unsigned i = 0; i < c->depth; i++) {
        const bf_frame *f = &c->frames[i];
        if (f->name && f->name[0])
            used = append(out, used, size, "%s%s", used ? "." : "", f->name);
        if (f->index >= 0)
            used = append(out, used, size, "[%lld]", (long long)f->index);
    }
    if (field && field[0])
        append(out, used, size, "%s%s", used ? "." : "", field);
}

int bf_fail(bf_ctx *c, uint64_t offset, const char *field, const char *fmt, ...)
{
    bf_error *e = c->err;
    if (e->failed)
        return 0;
    e->failed = 1;
    e->offset = offset;
    bf_format_path(c, field, e->path, sizeof e->path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    return 0;
}

int bf_error_format(const bf_error *e, const char *file, char *buf, size_t size)
{
    return snprintf(buf, size, "%s%serror: %s @0x%llx: %s", file ? file : "", file ? ": " : "",
                    e->path[0] ? e->path : "(file)", (unsigned long long)e->offset, e->message);
}
