/* The arena: blocks taken from the allocator hooks, all released together. */
#include <stdlib.h>
#include <string.h>

#include "bf_runtime.h"

#define BF_ARENA_ALIGN 16
#define BF_ARENA_BLOCK 16384

struct bf_arena_block {
    bf_arena_block *next;
    size_t size; /* usable bytes after the header */
    size_t used;
};

/* The header is padded so that the first allocation is aligned. */
#define BF_BLOCK_HEADER ((sizeof(bf_arena_block) + BF_ARENA_ALIGN - 1) & ~(size_t)(BF_ARENA_ALIGN - 1))

static void *default_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void default_release(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

bf_alloc bf_alloc_default(void)
{
    bf_alloc a = {default_alloc, default_release, NULL};
    return a;
}

void bf_arena_init(bf_arena *a, bf_alloc alloc, size_t budget)
{
    a->alloc = alloc;
    a->head = NULL;
    a->used = 0;
    a->budget = budget;
}

void *bf_arena_alloc(bf_arena *a, size_t size)
{
    size_t rounded = (size + BF_ARENA_ALIGN - 1) & ~(size_t)(BF_ARENA_ALIGN - 1);
    if (rounded < size)
        return NULL;
    if (rounded == 0)
        rounded = BF_ARENA_ALIGN;
    if (a->budget && (rounded > a->budget || a->used > a->budget - rounded))
        return NULL;

    bf_arena_block *b = a->head;
    if (!b || b->size - b->used < rounded) {
        size_t want = rounded > BF_ARENA_BLOCK ? rounded : BF_ARENA_BLOCK;
        if (want > SIZE_MAX - BF_BLOCK_HEADER)
            return NULL;
        b = a->alloc.alloc(a->alloc.user, BF_BLOCK_HEADER + want);
        if (!b)
            return NULL;
        b->size = want;
        b->used = 0;
        /* A big one-off allocation goes behind the current block so that the current
         * block's free space stays usable. */
        if (a->head && want == rounded) {
            b->next = a->head->next;
            a->head->next = b;
        } else {
            b->next = a->head;
            a->head = b;
        }
    }
    uint8_t *p = (uint8_t *)b + BF_BLOCK_HEADER + b->used;
    b->used += rounded;
    a->used += rounded;
    memset(p, 0, rounded);
    return p;
}

void bf_arena_free(bf_arena *a)
{
    bf_arena_block *b = a->head;
    while (b) {
        bf_arena_block *next = b->next;
        a->alloc.release(a->alloc.user, b, BF_BLOCK_HEADER + b->size);
        b = next;
    }
    a->head = NULL;
    a->used = 0;
}
