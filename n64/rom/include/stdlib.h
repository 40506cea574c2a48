/* The console's <stdlib.h>: only what n64/rom/libc.c defines (over the bump heap). */
#ifndef ROM_STDLIB_H
#define ROM_STDLIB_H

#include <stddef.h>

void *malloc(size_t size);
void free(void *ptr);
void *realloc(void *ptr, size_t size);

#endif
