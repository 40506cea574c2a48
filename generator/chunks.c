/* The templates compiled once, at build time: parsing them took 38 M of bfgen's 1.1 G
 * instructions on every run. `bfgen --precompile` (run by the Makefile after linking) writes
 * each template's Lua bytecode, with its debug information, to BFGEN_CHUNK_DIR. A compiled
 * chunk is used only when it is at least as new as its template and was compiled from that
 * very file (its chunk name says which): an edited template, or one from another folder, is
 * read from its source as before. */
#define _POSIX_C_SOURCE 200809L
#include "chunks.h"

#include <dirent.h>
#include <errno.h>
#include <lauxlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Where the compiled form of the template `source` goes: the chunk folder, its base name,
 * .luac instead of .lua. 0 when the name does not fit. */
static int chunk_path(const char *source, char *out, size_t size)
{
    const char *base = strrchr(source, '/');
    base = base ? base + 1 : source;
    size_t n = strlen(base);
    if (n < 4 || strcmp(base + n - 4, ".lua") != 0)
        return 0;
    int w = snprintf(out, size, "%s/%.*sc", BFGEN_CHUNK_DIR, (int)n, base);
    return w > 0 && (size_t)w < size;
}

static int newer_or_same(const struct stat *a, const struct stat *b)
{
    if (a->st_mtim.tv_sec != b->st_mtim.tv_sec)
        return a->st_mtim.tv_sec > b->st_mtim.tv_sec;
    return a->st_mtim.tv_nsec >= b->st_mtim.tv_nsec;
}

/* The compiled chunk of `source` on the stack (1), or nothing pushed (0). */
static int load_compiled(lua_State *L, const char *source)
{
    char path[4096];
    struct stat src, bin;
    if (!chunk_path(source, path, sizeof path) || stat(source, &src) != 0 || stat(path, &bin) != 0 ||
        !newer_or_same(&bin, &src))
        return 0;
    if (luaL_loadfilex(L, path, "b") != LUA_OK) {
        lua_pop(L, 1);
        return 0;
    }
    /* compiled from this file: its chunk name is "@" and the path it was loaded by */
    lua_Debug ar;
    lua_pushvalue(L, -1);
    lua_getinfo(L, ">S", &ar);
    if (!(ar.source[0] == '@' && strcmp(ar.source + 1, source) == 0)) {
        lua_pop(L, 1);
        return 0;
    }
    return 1;
}

int chunks_load(lua_State *L, const char *source)
{
    if (load_compiled(L, source))
        return LUA_OK;
    return luaL_loadfile(L, source);
}

/* package.searchers entry: a template module from its compiled chunk, when there is one;
 * else a message, and Lua's own searcher (next in the list) reads the source. */
static int search_compiled(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const char *dir = lua_tostring(L, lua_upvalueindex(1));
    char source[4096];
    int w = snprintf(source, sizeof source, "%s/%s.lua", dir, name);
    if (w > 0 && (size_t)w < sizeof source && !strchr(name, '.') && load_compiled(L, source)) {
        lua_pushstring(L, source);
        return 2;
    }
    lua_pushfstring(L, "\n\tno compiled chunk for '%s'", name);
    return 1;
}

void chunks_install_searcher(lua_State *L, const char *template_dir)
{
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "searchers");
    /* before the Lua file searcher (2), after the preload one (1): shift 2..n up by one */
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    for (lua_Integer i = n; i >= 2; i--) {
        lua_rawgeti(L, -1, i);
        lua_rawseti(L, -2, i + 1);
    }
    lua_pushstring(L, template_dir);
    lua_pushcclosure(L, search_compiled, 1);
    lua_rawseti(L, -2, 2);
    lua_pop(L, 2);
}

static int write_chunk(lua_State *L, const void *p, size_t size, void *ud)
{
    (void)L;
    return fwrite(p, 1, size, ud) != size;
}

int chunks_precompile(lua_State *L, const char *template_dir)
{
    if (mkdir(BFGEN_CHUNK_DIR, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "bfgen: cannot create %s: %s\n", BFGEN_CHUNK_DIR, strerror(errno));
        return 1;
    }
    DIR *d = opendir(template_dir);
    if (!d) {
        fprintf(stderr, "bfgen: cannot read the templates in %s: %s\n", template_dir, strerror(errno));
        return 1;
    }
    int status = 0;
    struct dirent *e;
    while (status == 0 && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".lua") != 0)
            continue;
        char source[4096], path[4096], tmp[4200];
        snprintf(source, sizeof source, "%s/%s", template_dir, e->d_name);
        if (!chunk_path(source, path, sizeof path)) {
            status = 1;
            break;
        }
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        if (luaL_loadfile(L, source) != LUA_OK) {
            fprintf(stderr, "bfgen: %s\n", lua_tostring(L, -1));
            status = 1;
        } else {
            /* not stripped: a template error's traceback still names the file and line */
            FILE *f = fopen(tmp, "wb");
            int dumped = f && lua_dump(L, write_chunk, f, 0) == 0;
            if (f && fclose(f) != 0)
                dumped = 0;
            if (!dumped || rename(tmp, path) != 0) {
                fprintf(stderr, "bfgen: cannot write %s: %s\n", path, strerror(errno));
                remove(tmp);
                status = 1;
            }
        }
        lua_pop(L, 1);
    }
    closedir(d);
    return status;
}
