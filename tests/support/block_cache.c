/* Released blocks kept by size for the next request of that size (block_cache.h). */
#include "block_cache.h"

#include <stdlib.h>
#include <string.h>

#include <sanitizer/asan_interface.h>

/* A read of the largest sample takes a few dozen blocks; the caps bound what a test keeps. */
#define KEPT_MAX 256
#define KEPT_BYTES ((size_t)64 << 20)

typedef struct kept_block {
    void *ptr;
    size_t size;
} kept_block;

/* Oldest first. One process per Criterion test, each single-threaded: no locking. */
static kept_block kept[KEPT_MAX];
static size_t kept_count, kept_bytes;

static void *take(size_t i)
{
    void *p = kept[i].ptr;
    kept_bytes -= kept[i].size;
    memmove(&kept[i], &kept[i + 1], (kept_count - i - 1) * sizeof *kept);
    kept_count--;
    return p;
}

void *block_cache_alloc(size_t size)
{
    /* the most recently kept first: a read asks for its blocks in the order the last one did */
    for (size_t i = kept_count; i-- > 0;) {
        if (kept[i].size == size) {
            void *p = take(i);
            ASAN_UNPOISON_MEMORY_REGION(p, size);
            return p;
        }
    }
    return malloc(size);
}

void block_cache_release(void *ptr, size_t size)
{
    if (!ptr)
        return;
    if (size > KEPT_BYTES) {
        free(ptr);
        return;
    }
    /* full: the oldest go (sizes a mutated count asked for once are not asked for again) */
    while (kept_count == KEPT_MAX || size > KEPT_BYTES - kept_bytes) {
        size_t old_size = kept[0].size;
        void *old = take(0);
        ASAN_UNPOISON_MEMORY_REGION(old, old_size); /* back as malloc gave it, for free() */
        free(old);
    }
    ASAN_POISON_MEMORY_REGION(ptr, size);
    kept[kept_count++] = (kept_block){ptr, size};
    kept_bytes += size;
}

static void *hook_alloc(void *user, size_t size)
{
    (void)user;
    return block_cache_alloc(size);
}

static void hook_release(void *user, void *ptr, size_t size)
{
    (void)user;
    block_cache_release(ptr, size);
}

bf_alloc block_cache_hooks(void)
{
    bf_alloc a = {hook_alloc, hook_release, NULL};
    return a;
}
