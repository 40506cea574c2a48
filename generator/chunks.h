/* The templates' Lua bytecode, compiled at build time (chunks.c says when it is used). */
#ifndef BFGEN_CHUNKS_H
#define BFGEN_CHUNKS_H

#include <lua.h>

/* Where the compiled templates go (the Makefile gives the build folder's). */
#ifndef BFGEN_CHUNK_DIR
#define BFGEN_CHUNK_DIR "build/templates"
#endif

/* Like luaL_loadfile(L, source), from the compiled chunk of `source` when it is current. */
int chunks_load(lua_State *L, const char *source);
/* `require` of a template finds its compiled chunk first (template_dir: where the sources are). */
void chunks_install_searcher(lua_State *L, const char *template_dir);
/* Compiles every template of `template_dir` into the chunk folder; 0 when all went well. */
int chunks_precompile(lua_State *L, const char *template_dir);

#endif
