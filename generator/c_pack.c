/* Packing C initializers and string literals into lines a reader can take in (the rules are
 * templates/c_lines.lua's; they were Lua, and a tenth of the meta tables' time went into
 * growing each line a piece at a time and measuring literals a byte at a time). */
#include "c_pack.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 160 /* the widest line; c_lines.WIDTH is this (c_pack.WIDTH) */

/* A line being put together. */
typedef struct {
    char *data;
    size_t len, cap;
} line_buf;

static void add(line_buf *b, const char *s, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        char *bigger = realloc(b->data, cap);
        if (!bigger) {
            fputs("bfgen: out of memory\n", stderr);
            abort();
        }
        b->data = bigger;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static void add_str(line_buf *b, const char *s) { add(b, s, strlen(s)); }

/* Ends the current line (with `tail`) as the next string of the list at `list`. */
static void emit_line(lua_State *L, int list, line_buf *b, const char *tail)
{
    add_str(b, tail);
    lua_pushlstring(L, b->data, b->len);
    lua_rawseti(L, list, (lua_Integer)lua_rawlen(L, list) + 1);
    b->len = 0;
}

/* c_pack.pack(items, open, indent, close): items joined by ", " into lines of at most WIDTH
 * characters; the first line starts with `open`, the others with `indent` spaces, the last
 * ends with `close`. An item {cont = text} continues the previous one (a string literal) on
 * a line of its own, and a continued literal ends its line. */
static int lua_pack(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    size_t open_len, close_len;
    const char *open = luaL_checklstring(L, 2, &open_len);
    lua_Integer indent = luaL_checkinteger(L, 3);
    const char *close = luaL_checklstring(L, 4, &close_len);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
    luaL_argcheck(L, indent >= 0 && indent < 1000, 3, "indentation out of range");
    /* every item is checked first: no Lua error may leave the line buffer behind */
    for (lua_Integer i = 1; i <= n; i++) {
        int t = lua_rawgeti(L, 1, i);
        if (t == LUA_TTABLE) {
            t = lua_getfield(L, -1, "cont");
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        luaL_argcheck(L, t == LUA_TSTRING, 1, "an item is not a string or {cont = string}");
    }
    char pad[1000];
    memset(pad, ' ', (size_t)indent);
    lua_createtable(L, (int)(n / 2 + 1), 0);
    int list = lua_gettop(L);
    line_buf cur = {0};
    add(&cur, open, open_len);
    int fresh = 1; /* nothing on the current line yet but its opening */
    int it_cont = n > 0 && lua_rawgeti(L, 1, 1) == LUA_TTABLE;
    if (n > 0)
        lua_pop(L, 1);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        size_t len;
        if (it_cont) {
            lua_getfield(L, -1, "cont");
            const char *text = lua_tolstring(L, -1, &len);
            emit_line(L, list, &cur, "");
            add(&cur, pad, (size_t)indent);
            add(&cur, text, len);
            lua_pop(L, 2);
        } else {
            const char *text = lua_tolstring(L, -1, &len);
            size_t sep = fresh ? 0 : 2;
            size_t tail = i == n ? close_len : 1;
            if (!fresh && cur.len + sep + len + tail > WIDTH) {
                emit_line(L, list, &cur, ",");
                add(&cur, pad, (size_t)indent);
            } else {
                add(&cur, ", ", sep);
            }
            add(&cur, text, len);
            lua_pop(L, 1);
        }
        fresh = 0;
        int next = lua_rawgeti(L, 1, i + 1);
        lua_pop(L, 1);
        int next_cont = next == LUA_TTABLE;
        if (!next_cont && it_cont && next != LUA_TNIL) {
            emit_line(L, list, &cur, ",");
            add(&cur, pad, (size_t)indent);
            fresh = 1;
        }
        it_cont = next_cont;
    }
    emit_line(L, list, &cur, close);
    free(cur.data);
    return 1;
}

/* How a byte is written inside a C literal (names.cstring's escapes): NULL when as itself. */
static const char *escape_of(unsigned char c, char octal[5])
{
    switch (c) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\t': return "\\t";
    }
    if (c < 0x20 || c == 0x7f) {
        snprintf(octal, 5, "\\%03o", c);
        return octal;
    }
    return NULL;
}

static size_t literal_width(const char *s, size_t n)
{
    size_t w = 2;
    char octal[5];
    for (size_t i = 0; i < n; i++) {
        const char *e = escape_of((unsigned char)s[i], octal);
        w += e ? strlen(e) : 1;
    }
    return w;
}

/* Appends s as one quoted literal to the list at `list`. */
static void push_literal(lua_State *L, int list, line_buf *b, const char *s, size_t n)
{
    char octal[5];
    b->len = 0;
    add(b, "\"", 1);
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        const char *e = escape_of((unsigned char)s[i], octal);
        if (e) {
            add(b, s + from, i - from);
            add_str(b, e);
            from = i + 1;
        }
    }
    add(b, s + from, n - from);
    emit_line(L, list, b, "\"");
}

/* c_pack.literals(s, first, rest): s as one or more adjacent C literals, the first fitting in
 * `first` columns and the others in `rest`: one literal per line of the text, a line too long
 * cut after its last space (when that keeps a third of what fits), else where it must. */
static int lua_literals(lua_State *L)
{
    size_t n;
    const char *s = luaL_checklstring(L, 1, &n);
    lua_Integer first = luaL_checkinteger(L, 2), rest = luaL_checkinteger(L, 3);
    lua_newtable(L);
    int list = lua_gettop(L);
    line_buf b = {0};
    if ((lua_Integer)literal_width(s, n) <= first) {
        push_literal(L, list, &b, s, n);
        free(b.data);
        return 1;
    }
    lua_Integer room = first;
    size_t at = 0;
    while (at < n) {
        /* a line of the text, its newline included */
        const char *nl = memchr(s + at, '\n', n - at);
        size_t line_end = nl ? (size_t)(nl - s) + 1 : n;
        while (at < line_end) {
            const char *line = s + at;
            size_t len = line_end - at, cut = len;
            if ((lua_Integer)literal_width(line, len) > room) {
                /* the longest prefix whose literal fits (at least one byte) */
                size_t fit = 1, width = 2;
                char octal[5];
                for (size_t k = 0; k < len; k++) {
                    const char *e = escape_of((unsigned char)line[k], octal);
                    width += e ? strlen(e) : 1;
                    if ((lua_Integer)width > room)
                        break;
                    fit = k + 1;
                }
                size_t space = 0; /* 1-based position of the last space in the prefix */
                for (size_t k = fit; k > 0; k--)
                    if (line[k - 1] == ' ') {
                        space = k;
                        break;
                    }
                cut = space && space > fit / 3 ? space : fit;
            }
            push_literal(L, list, &b, line, cut);
            at += cut;
            room = rest;
        }
    }
    free(b.data);
    return 1;
}

void c_pack_open(lua_State *L)
{
    static const luaL_Reg functions[] = {{"pack", lua_pack}, {"literals", lua_literals}, {NULL, NULL}};
    luaL_newlib(L, functions);
    lua_pushinteger(L, WIDTH);
    lua_setfield(L, -2, "WIDTH");
}
