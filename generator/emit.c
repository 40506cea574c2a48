/* Hands the IR to Lua as plain tables, runs templates/main.lua, writes the results. */
#include "emit.h"

#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "c_wrap.h"
#include "ir_lua.h"
#include "template_lib.h"

static int make_dirs(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return 0;
        *p = '/';
    }
    return 1;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    /* room for the whole file at once, from its size (one more byte to see its end) */
    struct stat st;
    size_t cap = stat(path, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size + 1 : 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
            }
            buf = bigger;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Writes `content` to out_dir/name unless it is already there. */
static int write_output(const char *out_dir, const char *name, const char *content, size_t len, int check)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", out_dir, name);
    size_t old_len = 0;
    char *old = read_all(path, &old_len);
    int same = old && old_len == len && memcmp(old, content, len) == 0;
    free(old);
    if (same)
        return 1;
    if (check) {
        fprintf(stderr, "bfgen: %s is not what the schemas give (run 'make generate')\n", path);
        return 0;
    }
    if (!make_dirs(path)) {
        fprintf(stderr, "bfgen: cannot create the folder for %s: %s\n", path, strerror(errno));
        return 0;
    }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f || fwrite(content, 1, len, f) != len || fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "bfgen: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
        return 0;
    }
    return 1;
}

/* Template errors carry a traceback: they are bugs in the templates, found by their author. */
static int traceback(lua_State *L)
{
    luaL_traceback(L, L, lua_tostring(L, 1), 1);
    return 1;
}

/* Which parts of the output a generated file belongs to. */
static unsigned part_of(const char *name)
{
    size_t n = strlen(name);
    /* the validator reads through the views where the format has them: it needs them too
     * (not their agreement checks, _view_same.c, which are for tests) */
    if ((n > 7 && strcmp(name + n - 7, "_view.h") == 0) || (n > 7 && strcmp(name + n - 7, "_view.c") == 0))
        return EMIT_VIEW | EMIT_VALIDATOR;
    if (strcmp(name, "formats.h") == 0 || strcmp(name, "formats.c") == 0 || strncmp(name, "docs/index.", 11) == 0)
        return EMIT_INDEX;
    if (strncmp(name, "docs/", 5) == 0)
        return EMIT_DOCS;
    static const struct {
        const char *suffix;
        unsigned part;
    } suffixes[] = {{"_write.c", EMIT_WRITER}, {"_validate.c", EMIT_VALIDATOR}, {"_meta.c", EMIT_META},
                    {"_access.h", EMIT_ACCESS}, {"_view.h", EMIT_VIEW}, {"_view.c", EMIT_VIEW},
                    {"_view_same.h", EMIT_VIEW_SAME}, {"_view_same.c", EMIT_VIEW_SAME},
                    {".h", EMIT_HEADER}, {".c", EMIT_READER}};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        size_t m = strlen(suffixes[i].suffix);
        if (n > m && strcmp(name + n - m, suffixes[i].suffix) == 0)
            return suffixes[i].part;
    }
    return EMIT_ALL;
}

/* Calls the function on top of the stack (`nargs` arguments below it) and writes every
 * name -> content pair of the table it returns that belongs to `parts`. */
static int run_and_write(lua_State *L, int nargs, const char *out_dir, int check, unsigned parts, const format *f)
{
    lua_pushcfunction(L, traceback);
    lua_insert(L, -2 - nargs);
    int status = lua_pcall(L, nargs, 1, -2 - nargs);
    lua_remove(L, -2);
    if (status != LUA_OK) {
        /* a schema the checker passed must generate: what fails here is bfgen's bug, told
         * at the schema it met (its first line), the traceback on demand for its authors */
        const char *msg = lua_tostring(L, -1);
        msg = msg ? msg : "(no message)";
        src_loc at = {f ? f->file : NULL, f ? 1 : 0, 1};
        diag_error(at, "bfgen could not generate %s%s: %.*s (a bug in bfgen's templates; "
                   "BFGEN_TRACEBACK=1 shows where)", f ? "format " : "the formats index", f ? f->name : "",
                   (int)strcspn(msg, "\n"), msg);
        if (getenv("BFGEN_TRACEBACK"))
            fprintf(stderr, "%s\n", msg);
        lua_pop(L, 1);
        return 0;
    }
    if (!lua_istable(L, -1)) {
        fprintf(stderr, "bfgen: a template must return a table of file name -> content\n");
        lua_pop(L, 1);
        return 0;
    }
    int ok = 1;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        size_t len;
        const char *content = lua_tolstring(L, -1, &len);
        const char *name = lua_tostring(L, -2);
        if (!content || !name) {
            fprintf(stderr, "bfgen: a template returned a non-string file\n");
            ok = 0;
        } else if (part_of(name) & parts) {
            ok &= write_output(out_dir, name, content, len, check);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return ok;
}

/* An error outside any pcall: bfgen cannot go on. */
static int panic(lua_State *L)
{
    fprintf(stderr, "bfgen: Lua: %s\n", lua_tostring(L, -1));
    return 0;
}

/* Lua's c_wrap.c(text): the text with its long lines broken. */
static int lua_wrap_c(lua_State *L)
{
    size_t len, out_len;
    const char *src = luaL_checklstring(L, 1, &len);
    char *out = c_wrap(src, len, &out_len);
    lua_pushlstring(L, out, out_len);
    free(out);
    return 1;
}

/* c_wrap.files(files): every .c and .h text of a name -> content table wrapped, in place. */
static int lua_wrap_files(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        size_t n;
        const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &n) : NULL;
        if (name && n >= 2 && name[n - 2] == '.' && (name[n - 1] == 'c' || name[n - 1] == 'h')) {
            lua_pushcfunction(L, lua_wrap_c);
            lua_insert(L, -2);
            lua_call(L, 1, 1);
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, 1); /* an existing key: the traversal goes on */
        } else {
            lua_pop(L, 1);
        }
    }
    lua_settop(L, 1);
    return 1;
}

/* Lua as it comes: its allocator, loader and string.format, in one process. Each piece
 * bfgen once had in their place was measured (all schemas, instructions under callgrind and
 * CPU time side by side) and none saved the 20 % of bfgen's time that would pay for its
 * code: a pool allocator 12 %, a C string.format 6 %, templates precompiled to bytecode 4 %,
 * C line packing (c_lines.lua) 2 %; forked processes cost 5-15 % more CPU, not less. */
static lua_State *open_templates(const char *template_dir)
{
    lua_State *L = luaL_newstate();
    if (!L)
        return NULL;
    lua_atpanic(L, panic);
    /* a short batch run: collect when memory has grown 4x rather than 2x (~40 MB at most
     * for all schemas), which saves a good part of the collector's work */
    lua_gc(L, LUA_GCINC, 400, 200, 0);
    luaL_openlibs(L);
    /* templates `require` each other from their folder only */
    lua_getglobal(L, "package");
    lua_pushfstring(L, "%s/?.lua", template_dir);
    lua_setfield(L, -2, "path");
    lua_pushstring(L, "");
    lua_setfield(L, -2, "cpath");
    lua_pop(L, 1);
    /* require("prims"): the primitive types, from the generator's own table */
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    ir_push_prims(L);
    lua_setfield(L, -2, "prims");
    /* require("c_wrap"): the line breaking of generated C, in C for speed (c_wrap.c) */
    static const luaL_Reg wrap_functions[] = {{"c", lua_wrap_c}, {"files", lua_wrap_files}, {NULL, NULL}};
    luaL_newlib(L, wrap_functions);
    lua_setfield(L, -2, "c_wrap");
    /* require("scan"): byte tests the templates make on every text (template_lib.c) */
    template_lib_scan(L);
    lua_setfield(L, -2, "scan");
    /* require("json"): JSON text from Lua values (template_lib.c) */
    template_lib_json(L);
    lua_setfield(L, -2, "json");
    lua_pop(L, 1);
    return L;
}

int emit_report(format **formats, size_t count, const char *template_dir, const char *name, int argc, char **argv)
{
    lua_State *L = open_templates(template_dir);
    if (!L)
        return 2;
    char path[4096];
    snprintf(path, sizeof path, "%s/report_%s.lua", template_dir, name);
    if (luaL_loadfile(L, path) != LUA_OK || lua_pcall(L, 0, LUA_MULTRET, 0) != LUA_OK) {
        fprintf(stderr, "bfgen: report error: %s\n", lua_tostring(L, -1));
        lua_close(L);
        return 2;
    }
    lua_newtable(L);
    for (size_t i = 0; i < count; i++) {
        ir_push_format(L, formats[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_newtable(L);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    int status = 2;
    if (lua_pcall(L, 2, 1, 0) != LUA_OK)
        fprintf(stderr, "bfgen: report error: %s\n", lua_tostring(L, -1));
    else
        status = (int)lua_tointeger(L, -1);
    lua_close(L);
    return status;
}

/* Names of formats generated into `out_dir` before (a FORMAT_meta.c there) that are not among
 * `formats`, as a Lua list on the stack: the index keeps them. */
static void push_other_formats(lua_State *L, format **formats, size_t count, const char *out_dir)
{
    lua_newtable(L);
    DIR *d = opendir(out_dir);
    if (!d)
        return;
    lua_Integer n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len <= 7 || strcmp(e->d_name + len - 7, "_meta.c") != 0)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(len - 7), e->d_name);
        int known = 0;
        for (size_t i = 0; i < count; i++)
            known |= strcmp(formats[i]->name, name) == 0;
        if (!known) {
            lua_pushstring(L, name);
            lua_rawseti(L, -2, ++n);
        }
    }
    closedir(d);
}

int emit_all(format **formats, size_t count, const char *template_dir, const char *out_dir, int check,
             unsigned parts)
{
    lua_State *L = open_templates(template_dir);
    if (!L)
        return 1;

    char main_path[4096];
    snprintf(main_path, sizeof main_path, "%s/main.lua", template_dir);
    if (luaL_loadfile(L, main_path) != LUA_OK || lua_pcall(L, 0, LUA_MULTRET, 0) != LUA_OK) {
        fprintf(stderr, "bfgen: template error: %s\n", lua_tostring(L, -1));
        lua_close(L);
        return 1;
    }
    int templates = lua_gettop(L);
    /* each format's table is made once: the index gets the same tables */
    lua_createtable(L, (int)count, 0);
    int tables = lua_gettop(L);
    int ok = 1;
    for (size_t i = 0; i < count; i++) {
        lua_getfield(L, templates, "format");
        ir_push_format(L, formats[i]);
        lua_pushvalue(L, -1);
        lua_rawseti(L, tables, (lua_Integer)i + 1);
        ok &= run_and_write(L, 1, out_dir, check, parts, formats[i]);
    }
    if (ok && (parts & EMIT_INDEX)) {
        lua_getfield(L, templates, "index");
        lua_pushvalue(L, tables);
        push_other_formats(L, formats, count, out_dir);
        ok &= run_and_write(L, 2, out_dir, check, parts, NULL);
    }
    lua_close(L);
    return ok ? 0 : 1;
}
