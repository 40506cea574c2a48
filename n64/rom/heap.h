/* The ROM's heap: a bump allocator over the RDRAM between the program and
 * the renderer's RDRAM image. The runtime's allocator hooks (bf_alloc) and
 * malloc take their memory here. */
#ifndef N64_ROM_HEAP_H
#define N64_ROM_HEAP_H

#include "bf_runtime.h"

#include <stddef.h>
#include <stdint.h>

void heap_init(uint8_t *start, size_t size);
/* size bytes aligned to align (a power of two), or NULL when they do not fit. */
void *heap_alloc(size_t size, size_t align);
/* Gives the block back if it is the latest one; otherwise keeps it. */
void heap_release(void *ptr, size_t size);
size_t heap_used(void);
size_t heap_peak(void);
/* Allocator hooks for bf_arena over this heap. */
bf_alloc heap_bf_alloc(void);

#endif
