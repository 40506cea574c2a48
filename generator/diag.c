#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int error_count;
static int quiet;

void diag_set_quiet(int on) { quiet = on; }

static void report(src_loc at, const char *kind, const char *fmt, va_list ap)
{
    if (quiet)
        return;
    if (at.file && at.line)
        fprintf(stderr, "%s:%d:%d: %s: ", at.file, at.line, at.col, kind);
    else if (at.file)
        fprintf(stderr, "%s: %s: ", at.file, kind);
    else
        fprintf(stderr, "bfgen: %s: ", kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void (*diag_error_hook)(src_loc at);

void diag_error(src_loc at, const char *fmt, ...)
{
    if (diag_error_hook)
        diag_error_hook(at);
    va_list ap;
    va_start(ap, fmt);
    report(at, "error", fmt, ap);
    va_end(ap);
    error_count++;
}

void diag_warning(src_loc at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(at, "warning", fmt, ap);
    va_end(ap);
}

void diag_note(src_loc at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(at, "note", fmt, ap);
    va_end(ap);
}

int diag_error_count(void) { return error_count; }

typedef struct pool_block {
    struct pool_block *next;
} pool_block;

static pool_block *pool_head;

void *pool_alloc(size_t size)
{
    /* Each allocation is its own block: simple, and fine at bfgen's scale. The header is
     * padded to keep the payload aligned for any type. */
    size_t header = (sizeof(pool_block) + 15) & ~(size_t)15;
    pool_block *b = calloc(1, header + size);
    if (!b) {
        fprintf(stderr, "bfgen: out of memory\n");
        exit(2);
    }
    b->next = pool_head;
    pool_head = b;
    return (char *)b + header;
}

char *pool_strndup(const char *s, size_t n)
{
    char *p = pool_alloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *pool_strdup(const char *s) { return pool_strndup(s, strlen(s)); }

char *pool_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = pool_alloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void pool_release_all(void)
{
    while (pool_head) {
        pool_block *next = pool_head->next;
        free(pool_head);
        pool_head = next;
    }
}

void vec_push(ptr_vec *v, void *item)
{
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 8;
        void **items = pool_alloc(cap * sizeof *items);
        if (v->len)
            memcpy(items, v->items, v->len * sizeof *items);
        v->items = items;
        v->cap = cap;
    }
    v->items[v->len++] = item;
}
