/* Loading a template: from the bytecode compiled into bfgen when the file is the one it was
 * compiled from, else from the file itself. Compiling the templates was a twentieth of
 * bfgen's run. */
#ifndef TEMPLATE_LOAD_H
#define TEMPLATE_LOAD_H

#include <lua.h>
#include <stddef.h>
#include <stdint.h>

/* One template as the build compiled it (generator/tools/dump_templates.c writes the table).
 * `code` is lua_dump's output without the main function's source name, which depends on
 * where the templates are found at run time: `head` bytes, the name left out, the rest. */
typedef struct template_bytecode {
    const char *name;    /* the module name: "c_view" for c_view.lua */
    size_t source_len;   /* the .lua file's length and FNV-1a hash: which file this is */
    uint64_t source_hash;
    const unsigned char *code;
    size_t head, len;
} template_bytecode;

extern const template_bytecode template_bytecodes[];
extern const size_t template_bytecode_count;

/* FNV-1a, 64 bits (here, so that the build and bfgen hash alike). */
static inline uint64_t template_source_hash(const unsigned char *s, size_t len)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < len; i++) {
        h ^= s[i];
        h *= 1099511628211u;
    }
    return h;
}

/* A string's length as lua_dump writes it before the string (its length + 1 in 7-bit groups,
 * most significant first, the last marked by 0x80): the bytes in `out`, their count. */
static inline size_t template_dump_size(size_t len, unsigned char out[16])
{
    unsigned char groups[16];
    size_t n = 0, x = len + 1;
    do {
        groups[n++] = x & 0x7f;
        x >>= 7;
    } while (x);
    for (size_t i = 0; i < n; i++)
        out[i] = groups[n - 1 - i];
    out[n - 1] |= 0x80;
    return n;
}

/* As luaL_loadfile(L, path) (same chunk name, same errors), for the template `name`. */
int template_load_file(lua_State *L, const char *path, const char *name);

/* Puts a searcher before Lua's own in package.searchers that finds `require`d templates in
 * `template_dir` through template_load_file. */
void template_load_searcher(lua_State *L, const char *template_dir);

#endif
