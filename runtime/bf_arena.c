/* The arena: blocks taken from the allocator hooks, all released together. */
#include <stdlib.h>
#include <string.h>

#include "bf_runtime.h"

#define BF_ARENA_ALIGN 16
/* Blocks grow with the arena, from BF_ARENA_FIRST to BF_ARENA_BLOCK: a small file's document
 * does not sit in 16 KB (a 386-byte model took 42 times its size), and a large one still
 * takes few blocks. Each new block is as large as all before it, so at most half is unused. */
#define BF_ARENA_FIRST 1024
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

    bf_arena_block *b = a->head;
    if (!b || b->size - b->used < rounded) {
        size_t grown = a->used < BF_ARENA_FIRST ? BF_ARENA_FIRST : a->used < BF_ARENA_BLOCK ? a->used : BF_ARENA_BLOCK;
        size_t want = rounded > grown ? rounded : grown;
        if (want > SIZE_MAX - BF_BLOCK_HEADER)
            return NULL;
        /* The budget counts what the allocator gives (blocks and headers), not what is
         * handed out: blocks left partly empty must not let memory grow past it. The last
         * block is cut to what the budget has left. */
        if (a->budget) {
            size_t left = a->used < a->budget ? a->budget - a->used : 0;
            if (left < BF_BLOCK_HEADER || left - BF_BLOCK_HEADER < rounded)
                return NULL;
            if (want > left - BF_BLOCK_HEADER)
                want = left - BF_BLOCK_HEADER;
        }
        b = a->alloc.alloc(a->alloc.user, BF_BLOCK_HEADER + want);
        if (!b)
            return NULL;
        a->used += BF_BLOCK_HEADER + want;
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

void bf_arena_adopt(bf_arena *dst, bf_arena *src)
{
    if (!src->head)
        return;
    bf_arena_block *tail = src->head;
    while (tail->next)
        tail = tail->next;
    tail->next = dst->head;
    dst->head = src->head;
    dst->used += src->used;
    src->head = NULL;
    src->used = 0;
}
