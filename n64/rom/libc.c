/* The few C library functions the runtime, the generated code and the
 * renderer call, written for the ROM (nothing of a C library is linked):
 * memory and string functions, and malloc/realloc/free over a bump heap
 * (heap.c hands out the memory; free only takes back the latest block). */
#include "heap.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *memcpy(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    if (d < s) {
        while (n--)
            *d++ = *s++;
    } else {
        while (n--)
            d[n] = s[n];
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    uint8_t *d = dst;
    while (n--)
        *d++ = (uint8_t)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const uint8_t *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

void *memchr(const void *p, int c, size_t n)
{
    const uint8_t *s = p;
    for (size_t i = 0; i < n; i++)
        if (s[i] == (uint8_t)c)
            return (void *)(s + i);
    return NULL;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

/* Each block is preceded by its size, for realloc. */
#define HEADER 16u

void *malloc(size_t size)
{
    uint8_t *p = heap_alloc(size + HEADER, 16);
    if (!p)
        return NULL;
    *(size_t *)p = size;
    return p + HEADER;
}

void free(void *ptr)
{
    if (ptr)
        heap_release((uint8_t *)ptr - HEADER, *(size_t *)((uint8_t *)ptr - HEADER) + HEADER);
}

void *realloc(void *ptr, size_t size)
{
    if (!ptr)
        return malloc(size);
    size_t old = *(size_t *)((uint8_t *)ptr - HEADER);
    if (size <= old)
        return ptr;
    void *p = malloc(size);
    if (p) {
        memcpy(p, ptr, old);
        free(ptr);
    }
    return p;
}
