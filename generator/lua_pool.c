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

/* A large block's header: large blocks are listed so that the pool can free them all. */
typedef struct big_block {
    struct big_block *prev, *next;
} big_block;
_Static_assert(sizeof(big_block) % GRAIN == 0, "a large block's header keeps it aligned");

struct lua_pool {
    free_block *free[CLASSES]; /* by size class: blocks of (class + 1) * GRAIN bytes */
    chunk *chunks;
    char *cursor, *limit; /* the unused rest of the newest chunk */
    big_block big;        /* the list of large blocks (a circle through this one) */
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

static void big_link(lua_pool *p, big_block *b)
{
    b->prev = &p->big;
    b->next = p->big.next;
    b->next->prev = b;
    p->big.next = b;
}

static void big_unlink(big_block *b)
{
    b->prev->next = b->next;
    b->next->prev = b->prev;
}

/* A large block of `size` bytes (NULL when out of memory). */
static void *big_alloc(lua_pool *p, size_t size)
{
    big_block *b = malloc(sizeof *b + size);
    if (!b)
        return NULL;
    big_link(p, b);
    return b + 1;
}

static void big_free(void *ptr)
{
    big_block *b = (big_block *)ptr - 1;
    big_unlink(b);
    free(b);
}

static void *big_realloc(lua_pool *p, void *ptr, size_t size)
{
    big_block *b = (big_block *)ptr - 1;
    big_unlink(b);
    big_block *moved = realloc(b, sizeof *b + size);
    if (!moved) {
        big_link(p, b); /* Lua keeps the old block */
        return NULL;
    }
    big_link(p, moved);
    return moved + 1;
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
        else if (ptr)
            big_free(ptr);
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
                big_free(ptr);
        }
        return out;
    }
    if (ptr && !was_small)
        return big_realloc(p, ptr, nsize);
    void *out = big_alloc(p, nsize);
    if (out && ptr) {
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
    p->big.prev = p->big.next = &p->big;
    lua_State *L = lua_newstate(pool_lua_alloc, p);
    if (!L) {
        free(p);
        return NULL;
    }
    *out = p;
    return L;
}

void lua_pool_release(lua_pool *p)
{
    while (p->chunks) {
        chunk *next = p->chunks->next;
        free(p->chunks);
        p->chunks = next;
    }
    while (p->big.next != &p->big) {
        big_block *b = p->big.next;
        big_unlink(b);
        free(b);
    }
    free(p);
}

void lua_pool_close(lua_State *L, lua_pool *p)
{
    lua_close(L);
    lua_pool_release(p);
}
