/* Templates from their build-time bytecode (template_load.h says when and why). */
#include "template_load.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file, or NULL (when it cannot be read: luaL_loadfile then says why). */
static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 64 * 1024, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        unsigned char *more = realloc(buf, cap * 2);
        if (!more) {
            free(buf);
            buf = NULL;
        } else {
            buf = more;
            cap *= 2;
        }
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* lua_load's reader over the bytecode with the chunk name put back: the head, the name as
 * lua_dump writes a string (template_dump_size, then its bytes), the rest. */
typedef struct chunk_reader {
    const template_bytecode *t;
    unsigned char size[16];
    size_t size_len;
    const char *chunkname;
    int part;
} chunk_reader;

static const char *read_chunk(lua_State *L, void *ud, size_t *size)
{
    (void)L;
    chunk_reader *r = ud;
    switch (r->part++) {
    case 0: *size = r->t->head; return (const char *)r->t->code;
    case 1: *size = r->size_len; return (const char *)r->size;
    case 2: *size = strlen(r->chunkname); return r->chunkname;
    case 3: *size = r->t->len - r->t->head; return (const char *)r->t->code + r->t->head;
    default: *size = 0; return NULL;
    }
}

static int load_bytecode(lua_State *L, const template_bytecode *t, const char *chunkname)
{
    chunk_reader r = {t, {0}, 0, chunkname, 0};
    r.size_len = template_dump_size(strlen(chunkname), r.size);
    return lua_load(L, read_chunk, &r, chunkname, "b");
}

static const template_bytecode *find_bytecode(const char *name)
{
    for (size_t i = 0; i < template_bytecode_count; i++)
        if (strcmp(template_bytecodes[i].name, name) == 0)
            return &template_bytecodes[i];
    return NULL;
}

int template_load_file(lua_State *L, const char *path, const char *name)
{
    const template_bytecode *t = find_bytecode(name);
    size_t len;
    unsigned char *source = t ? read_file(path, &len) : NULL;
    int same = source && len == t->source_len && template_source_hash(source, len) == t->source_hash;
    free(source);
    if (!same)
        return luaL_loadfile(L, path);
    lua_pushfstring(L, "@%s", path);
    int status = load_bytecode(L, t, lua_tostring(L, -1));
    lua_remove(L, -2);
    return status;
}

/* A package.searchers entry: the loader and file name of template `name`, or nil (Lua's own
 * searcher then looks, and says what is missing). Only names the build compiled: they have
 * no dots, so their file is where Lua's searcher would look. */
static int search_template(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    if (!find_bytecode(name))
        return 0;
    const char *path = lua_pushfstring(L, "%s/%s.lua", lua_tostring(L, lua_upvalueindex(1)), name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fclose(f);
    if (template_load_file(L, path, name) != LUA_OK)
        return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name, path, lua_tostring(L, -1));
    lua_pushstring(L, path);
    return 2;
}

void template_load_searcher(lua_State *L, const char *template_dir)
{
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "searchers");
    lua_Integer n = (lua_Integer)luaL_len(L, -1);
    for (lua_Integer i = n; i >= 2; i--) { /* after the preload searcher, before the rest */
        lua_rawgeti(L, -1, i);
        lua_rawseti(L, -2, i + 1);
    }
    lua_pushstring(L, template_dir);
    lua_pushcclosure(L, search_template, 1);
    lua_rawseti(L, -2, 2);
    lua_pop(L, 2);
}
