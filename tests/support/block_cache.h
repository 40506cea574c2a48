/* Test helper: allocator hooks that keep released blocks for the next read of the same size.
 * The mutation tests read one file thousands of times; under ASan each large arena block is
 * a fresh mapping, faulted in page by page and unmapped again (test_views spent a fifth of its
 * time in page faults). A kept block is poisoned while it waits, so a use after release is
 * still an ASan report, and it is handed out again only for the same size, so ASan still
 * reports a read one byte past it. */
#ifndef BF_TEST_BLOCK_CACHE_H
#define BF_TEST_BLOCK_CACHE_H

#include <stddef.h>

#include "bf_runtime.h"

void *block_cache_alloc(size_t size);
void block_cache_release(void *ptr, size_t size);

/* The two as bf_alloc hooks, for bf_arena_init. */
bf_alloc block_cache_hooks(void);

#endif
