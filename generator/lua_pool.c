/* Lua's memory in bfgen. The templates make millions of small strings and tables that live
 * briefly; malloc/free of each cost more than the templates' own work. Lua tells the allocator
 * the size of every block it frees, so small blocks can be kept in free lists by size class
 * with no header at all, carved from large chunks; large blocks go to malloc. */
#include "lua_pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRAIN 16
#define SMALL_MAX 512 /* blocks up to this size are pooled */
#define CLASSES (SMALL_MAX / GRAIN)
#define CHUNK_SIZE (256 * 1024)

typedef struct free_block {
    struct free_block *next;
} free_block;

typedef struct chunk {
    struct chunk *next;
} chunk;

struct lua_pool {
    free_block *free[CLASSES]; /* by size class: blocks of (class + 1) * GRAIN bytes */
    chunk *chunks;
    char *cursor, *limit; /* the unused rest of the newest chunk */
};

static size_t class_of(size_t size) { return (size + GRAIN - 1) / GRAIN - 1; }

static void *small_alloc(lua_pool *p, size_t size)
{
    size_t c = class_of(size);
    free_block *b = p->free[c];
    if (b) {
        p->free[c] = b->next;
        return b;
    }
    size_t bytes = (c + 1) * GRAIN;
    if ((size_t)(p->limit - p->cursor) < bytes) {
        /* the rest of the old chunk is dropped: at most SMALL_MAX bytes per chunk */
        chunk *k = malloc(CHUNK_SIZE);
        if (!k) {
            /* Lua may not see a failure when it shrinks a block; bfgen stops on no memory anyway */
            fputs("bfgen: out of memory\n", stderr);
            abort();
        }
        k->next = p->chunks;
        p->chunks = k;
        p->cursor = (char *)k + GRAIN; /* keeps blocks aligned to GRAIN */
        p->limit = (char *)k + CHUNK_SIZE;
    }
    void *out = p->cursor;
    p->cursor += bytes;
    return out;
}

static void small_free(lua_pool *p, void *ptr, size_t size)
{
    free_block *b = ptr;
    size_t c = class_of(size);
    b->next = p->free[c];
    p->free[c] = b;
}

/* The lua_Alloc contract: free when nsize is 0, else (re)allocate; osize is the block's size
 * when ptr is not NULL. */
static void *pool_lua_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    lua_pool *p = ud;
    if (!ptr)
        osize = 0;
    int was_small = ptr && osize <= SMALL_MAX;
    if (nsize == 0) {
        if (was_small)
            small_free(p, ptr, osize);
        else
            free(ptr);
        return NULL;
    }
    if (nsize <= SMALL_MAX) {
        if (was_small && class_of(osize) == class_of(nsize))
            return ptr;
        void *out = small_alloc(p, nsize);
        if (ptr) {
            memcpy(out, ptr, osize < nsize ? osize : nsize);
            if (was_small)
                small_free(p, ptr, osize);
            else
                free(ptr);
        }
        return out;
    }
    if (!was_small)
        return realloc(ptr, nsize);
    void *out = malloc(nsize);
    if (out) {
        memcpy(out, ptr, osize);
        small_free(p, ptr, osize);
    }
    return out;
}

lua_State *lua_pool_newstate(lua_pool **out)
{
    lua_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    lua_State *L = lua_newstate(pool_lua_alloc, p);
    if (!L) {
        free(p);
        return NULL;
    }
    *out = p;
    return L;
}

void lua_pool_close(lua_State *L, lua_pool *p)
{
    lua_close(L);
    while (p->chunks) {
        chunk *next = p->chunks->next;
        free(p->chunks);
        p->chunks = next;
    }
    free(p);
}
