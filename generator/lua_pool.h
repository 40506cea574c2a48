/* A Lua state whose small blocks come from size-class free lists (see lua_pool.c). */
#ifndef BFGEN_LUA_POOL_H
#define BFGEN_LUA_POOL_H

#include <lua.h>

typedef struct lua_pool lua_pool;

/* A new Lua state and its pool (NULL when out of memory). */
lua_State *lua_pool_newstate(lua_pool **pool);
/* Closes the state, then frees the pool. */
void lua_pool_close(lua_State *L, lua_pool *pool);
/* Frees the pool, and with it all of its state's memory at once, without closing the state
 * (no finalizers run, no files are closed: for a state that holds nothing but memory). */
void lua_pool_release(lua_pool *pool);

#endif
