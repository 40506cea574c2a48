/* The console's <string.h>: only what n64/rom/libc.c defines. The ROM is built with
 * -nostdinc, so no host or glibc header can slip in. */
#ifndef ROM_STRING_H
#define ROM_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *p, int c, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);

#endif
