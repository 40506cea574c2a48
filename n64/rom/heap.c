/* The ROM's bump heap (see heap.h). */
#include "heap.h"

static uint8_t *heap_start, *heap_top, *heap_end, *heap_max;

void heap_init(uint8_t *start, size_t size)
{
    heap_start = heap_top = heap_max = start;
    heap_end = start + size;
}

void *heap_alloc(size_t size, size_t align)
{
    uintptr_t at = ((uintptr_t)heap_top + (align - 1)) & ~(uintptr_t)(align - 1);
    if (at < (uintptr_t)heap_top || at > (uintptr_t)heap_end || size > (uintptr_t)heap_end - at)
        return NULL;
    heap_top = (uint8_t *)at + size;
    if (heap_top > heap_max)
        heap_max = heap_top;
    return (void *)at;
}

void heap_release(void *ptr, size_t size)
{
    if ((uint8_t *)ptr + size == heap_top)
        heap_top = ptr;
}

size_t heap_used(void) { return (size_t)(heap_top - heap_start); }
size_t heap_peak(void) { return (size_t)(heap_max - heap_start); }

static void *hook_alloc(void *user, size_t size)
{
    (void)user;
    return heap_alloc(size, 16);
}

static void hook_release(void *user, void *ptr, size_t size)
{
    (void)user;
    heap_release(ptr, size);
}

bf_alloc heap_bf_alloc(void)
{
    bf_alloc a = {hook_alloc, hook_release, NULL};
    return a;
}
