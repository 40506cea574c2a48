/* Build step: compiles the templates given on the command line to Lua bytecode and writes
 * them as a C table for bfgen (template_load.h): dump_templates OUT.c FILE.lua... */
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template_load.h"

typedef struct buffer {
    unsigned char *data;
    size_t len, cap;
} buffer;

static int append(lua_State *L, const void *p, size_t n, void *ud)
{
    (void)L;
    buffer *b = ud;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *data = realloc(b->data, cap);
        if (!data)
            return 1;
        b->data = data;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
    return 0;
}

/* The string `s` as lua_dump writes it (template_load.c loads it back). */
static size_t dumped_string(const char *s, unsigned char *out)
{
    size_t n = template_dump_size(strlen(s), out);
    memcpy(out + n, s, strlen(s));
    return n + strlen(s);
}

static void write_bytes(FILE *out, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%u,%s", p[i], i % 24 == 23 ? "\n" : "");
}

/* The header, then the main function's upvalue count: the source name comes next. */
#define HEAD 32

/* Appends template `path` to `out` as code_`i`, and its entry to `table`; 0 on failure. */
static int dump_one(lua_State *L, const char *path, int i, FILE *out, FILE *table)
{
    if (luaL_loadfile(L, path) != LUA_OK) {
        fprintf(stderr, "dump_templates: %s\n", lua_tostring(L, -1));
        return 0;
    }
    buffer code = {0}, source = {0};
    int ok = lua_dump(L, append, &code, 0) == 0;
    lua_pop(L, 1);
    /* the source name must be where load_bytecode puts it back */
    char chunkname[4096];
    unsigned char name[sizeof chunkname + 16];
    snprintf(chunkname, sizeof chunkname, "@%s", path);
    size_t name_len = dumped_string(chunkname, name);
    if (ok && (code.len < HEAD + name_len || memcmp(code.data + HEAD, name, name_len) != 0)) {
        fprintf(stderr, "dump_templates: %s: the source name is not where it was expected\n", path);
        ok = 0;
    }
    FILE *f = fopen(path, "rb");
    unsigned char chunk[8192];
    size_t n;
    while (f && ok && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        ok = append(L, chunk, n, &source) == 0;
    if (!f || ferror(f))
        ok = 0;
    if (f)
        fclose(f);
    if (ok) {
        fprintf(out, "static const unsigned char code_%d[] = {\n", i);
        write_bytes(out, code.data, HEAD);
        write_bytes(out, code.data + HEAD + name_len, code.len - HEAD - name_len);
        fputs("};\n", out);
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        size_t len = strlen(base);
        if (len > 4 && strcmp(base + len - 4, ".lua") == 0)
            len -= 4;
        fprintf(table, "    {\"%.*s\", %zu, UINT64_C(%llu), code_%d, %d, sizeof code_%d},\n", (int)len, base, source.len,
                (unsigned long long)template_source_hash(source.data, source.len), i, HEAD, i);
    }
    free(code.data);
    free(source.data);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: dump_templates OUT.c FILE.lua...\n", stderr);
        return 2;
    }
    FILE *out = fopen(argv[1], "w");
    FILE *table = tmpfile();
    lua_State *L = luaL_newstate();
    if (!out || !table || !L) {
        perror(argv[1]);
        return 1;
    }
    fputs("/* Written by generator/tools/dump_templates.c from generator/templates: do not edit. */\n"
          "#include \"template_load.h\"\n\n",
          out);
    int ok = 1;
    for (int i = 2; i < argc && ok; i++)
        ok = dump_one(L, argv[i], i, out, table);
    fputs("\nconst template_bytecode template_bytecodes[] = {\n", out);
    rewind(table);
    int c;
    while ((c = fgetc(table)) != EOF)
        fputc(c, out);
    fprintf(out, "    {NULL, 0, 0, NULL, 0, 0}, /* (an empty list is no valid C) */\n};\n"
                 "const size_t template_bytecode_count = %d;\n", argc - 2);
    fclose(table);
    lua_close(L);
    if (fclose(out) != 0)
        ok = 0;
    if (!ok)
        remove(argv[1]);
    return ok ? 0 : 1;
}
