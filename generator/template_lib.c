/* C helpers for the Lua templates: byte scans of whole texts (require("scan")) and JSON text
 * (require("json")). Each replaced Lua code that tried a pattern or a search at every byte
 * of a generated file. */
#include "template_lib.h"

#include <lauxlib.h>
#include <stdio.h>
#include <string.h>

/* Lua's scan.plain(s): whether s has no byte a C or JSON string literal must escape (a
 * control byte as Lua's %c sees it, '"' or a backslash). The templates' s:find('[%c"\\]')
 * tried the class at every byte; most texts have nothing to escape. */
static int lua_scan_plain(lua_State *L)
{
    size_t len;
    const unsigned char *s = (const unsigned char *)luaL_checklstring(L, 1, &len);
    int plain = 1;
    for (size_t i = 0; i < len && plain; i++)
        plain = s[i] >= 0x20 && s[i] != 0x7f && s[i] != '"' && s[i] != '\\';
    lua_pushboolean(L, plain);
    return 1;
}

/* Lua's scan.space_run(s): whether s has white space other than single spaces (a tab, a
 * newline, \v, \f, \r, or two spaces running): doc text that needs collapsing. Most has
 * none, and six plain searches from Lua cost more than one pass here. */
static int lua_scan_space_run(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    int run = 0;
    for (size_t i = 0; i < len && !run; i++)
        run = (s[i] >= '\t' && s[i] <= '\r') || (s[i] == ' ' && i + 1 < len && s[i + 1] == ' ');
    lua_pushboolean(L, run);
    return 1;
}

/* in[b] is 1 for each byte b of `set` (n bytes), else 0. */
static void byte_set(const char *set, size_t n, unsigned char in[256])
{
    memset(in, 0, 256);
    for (size_t i = 0; i < n; i++)
        in[(unsigned char)set[i]] = 1;
}

/* Lua's scan.any(s, set): whether s has any byte of `set` (the bytes a text must escape,
 * say). One pass here where each byte of the set would be a plain search from Lua. */
static int lua_scan_any(lua_State *L)
{
    size_t len, n;
    const char *s = luaL_checklstring(L, 1, &len);
    const char *set = luaL_checklstring(L, 2, &n);
    unsigned char in_set[256];
    byte_set(set, n, in_set);
    int found = 0;
    for (size_t i = 0; i < len && !found; i++)
        found = in_set[(unsigned char)s[i]];
    lua_pushboolean(L, found);
    return 1;
}


static int is_word(unsigned char c) { return c == '_' || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/* scan.unquoted(text, escapes): the text with its string literals emptied ("..." -> ""), to
 * see which names its code uses. Without `escapes` a literal is a quote and the next quote
 * on the same line (as text:gsub('"[^"\n]-"', '""') would make it; a quote whose next quote
 * is on another line starts none); with `escapes` it runs to the next quote not escaped by a
 * backslash, and an unclosed one to the end of the text. */
static int lua_scan_unquoted(lua_State *L)
{
    size_t n;
    const char *s = luaL_checklstring(L, 1, &n);
    int escapes = lua_toboolean(L, 2);
    const char *q = memchr(s, '"', n);
    if (!q) {
        lua_settop(L, 1);
        return 1;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    const char *from = s, *end = s + n;
    while (q) {
        const char *close = q + 1;
        if (escapes) {
            size_t at = 1, left = (size_t)(end - q);
            while (at < left && q[at] != '"')
                at += q[at] == '\\' ? 2 : 1;
            close = at < left ? q + at : NULL;
            if (!close) { /* unclosed: the rest is in the literal */
                luaL_addlstring(&b, from, (size_t)(q - from));
                luaL_addstring(&b, "\"\"");
                from = end;
                break;
            }
        } else {
            close = memchr(q + 1, '"', (size_t)(end - q - 1));
            if (!close)
                break;
            const char *nl = memchr(q + 1, '\n', (size_t)(close - q - 1));
            if (nl) { /* no literal starts at q: try the closing quote */
                q = close;
                continue;
            }
        }
        luaL_addlstring(&b, from, (size_t)(q - from));
        luaL_addstring(&b, "\"\"");
        from = close + 1;
        q = from < end ? memchr(from, '"', (size_t)(end - from)) : NULL;
    }
    luaL_addlstring(&b, from, (size_t)(end - from));
    luaL_pushresult(&b);
    return 1;
}

/* scan.uses(code, name, member): whether C code uses `name` (a word) as itself, not inside
 * a longer word: the byte after it is no word byte, nor the byte before it. `member` says
 * which names are members of something else, and do not count: "." (after `.` or `->`) or
 * ".>" (after `.` or `>`; and not at the very start of the code). */
static int lua_scan_uses(lua_State *L)
{
    size_t n, len;
    const char *s = luaL_checklstring(L, 1, &n);
    const char *name = luaL_checklstring(L, 2, &len);
    const char *member = luaL_checkstring(L, 3);
    int any_gt = strcmp(member, ".>") == 0;
    int found = 0;
    for (size_t a = any_gt ? 1 : 0; !found && len > 0 && a + len <= n; a++) {
        /* (memchr to each candidate: most bytes are not the name's first) */
        const char *hit = memchr(s + a, name[0], n - len + 1 - a);
        if (!hit)
            break;
        a = (size_t)(hit - s);
        if (memcmp(s + a, name, len) != 0)
            continue;
        if (a + len < n && is_word((unsigned char)s[a + len]))
            continue;
        if (a == 0) {
            found = 1;
            continue;
        }
        unsigned char before = (unsigned char)s[a - 1];
        if (is_word(before) || before == '.')
            continue;
        if (before == '>' && (any_gt || (a >= 2 && s[a - 2] == '-')))
            continue;
        found = 1;
    }
    lua_pushboolean(L, found);
    return 1;
}

/* scan.replace(s, set, map): s with each byte of `set` replaced by map[that byte] (a string;
 * the byte stays when map has none), as s:gsub("[set]", map) would. Escaping a text this way
 * tried the class at every byte and copied the others one by one. */
static int lua_scan_replace(lua_State *L)
{
    size_t n, nset;
    const char *s = luaL_checklstring(L, 1, &n);
    const char *set = luaL_checklstring(L, 2, &nset);
    luaL_checktype(L, 3, LUA_TTABLE);
    unsigned char in_set[256];
    byte_set(set, nset, in_set);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        if (!in_set[(unsigned char)s[i]])
            continue;
        lua_pushlstring(L, s + i, 1);
        lua_gettable(L, 3);
        size_t len;
        const char *with = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
        /* (popped before the buffer is touched, which uses the stack; map keeps the string) */
        lua_pop(L, 1);
        if (with) {
            luaL_addlstring(&b, s + from, i - from);
            luaL_addlstring(&b, with, len);
            from = i + 1;
        }
    }
    luaL_addlstring(&b, s + from, n - from);
    luaL_pushresult(&b);
    return 1;
}

static int is_lua_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* The string at index 1 with every run of white space (as Lua's %s: space, \t, \n, \v, \f,
 * \r) made one space; with `trim`, none at either end. */
static int squeeze(lua_State *L, int trim)
{
    size_t n;
    const char *s = luaL_checklstring(L, 1, &n);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    int space = 0; /* a run of white space is pending */
    for (size_t i = 0; i < n; i++) {
        if (is_lua_space(s[i])) {
            space = !trim || luaL_bufflen(&b) > 0;
            continue;
        }
        if (space)
            luaL_addchar(&b, ' ');
        space = 0;
        luaL_addchar(&b, s[i]);
    }
    if (space && !trim)
        luaL_addchar(&b, ' ');
    luaL_pushresult(&b);
    return 1;
}

/* scan.squeeze(s): as s:gsub("%s+", " ") would give. */
static int lua_scan_squeeze(lua_State *L) { return squeeze(L, 0); }

/* scan.oneline(s): doc text as one line: squeezed, no space at either end (as squeezing,
 * then dropping a space at each end, in three calls, made it). */
static int lua_scan_oneline(lua_State *L) { return squeeze(L, 1); }

void template_lib_scan(lua_State *L)
{
    static const luaL_Reg functions[] = {{"plain", lua_scan_plain}, {"space_run", lua_scan_space_run},
                                         {"any", lua_scan_any},     {"unquoted", lua_scan_unquoted},
                                         {"uses", lua_scan_uses},   {"replace", lua_scan_replace},
                                         {"squeeze", lua_scan_squeeze}, {"oneline", lua_scan_oneline},
                                         {NULL, NULL}};
    luaL_newlib(L, functions);
}

/* ---- require("json"): json.encode(v, null), the JSON text of a Lua value ----
 * What json_schema.lua's Lua writer did, a twelfth of the templates' work: strings quoted and
 * escaped, numbers and booleans as tostring() has them, the table `null` as null, a table
 * with `order` an object (keys in that order, values in its `values`), any other table an
 * array, on one line when no item is an array or object. Objects and long arrays open a line
 * for each item, indented two spaces a level. */

/* The text so far, in a userdata at stack slot `slot` (Lua frees it, even on an error). */
typedef struct json_out {
    lua_State *L;
    int slot;
    char *p;
    size_t len, cap;
} json_out;

static void json_add(json_out *o, const char *s, size_t n)
{
    if (o->len + n > o->cap) {
        size_t cap = o->cap * 2;
        while (cap < o->len + n)
            cap *= 2;
        char *p = lua_newuserdatauv(o->L, cap, 0);
        memcpy(p, o->p, o->len);
        lua_replace(o->L, o->slot);
        o->p = p;
        o->cap = cap;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
}

static void json_newline(json_out *o, int depth)
{
    json_add(o, "\n", 1);
    for (int i = 0; i < depth; i++)
        json_add(o, "  ", 2);
}

/* The string at `idx` quoted: '"', '\\', \n, \t and \r as such, other control bytes (as
 * Lua's %c sees them) as \u00XX, the rest as it is. */
static void json_string(json_out *o, int idx)
{
    size_t len;
    const char *s = lua_tolstring(o->L, idx, &len);
    json_add(o, "\"", 1);
    size_t from = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != 0x7f && c != '"' && c != '\\')
            continue;
        char esc[8];
        size_t n = 2;
        esc[0] = '\\';
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\n': esc[1] = 'n'; break;
        case '\t': esc[1] = 't'; break;
        case '\r': esc[1] = 'r'; break;
        default: n = (size_t)snprintf(esc, sizeof esc, "\\u%04x", c);
        }
        json_add(o, s + from, i - from);
        json_add(o, esc, n);
        from = i + 1;
    }
    json_add(o, s + from, len - from);
    json_add(o, "\"", 1);
}

/* Whether the value at `idx` is written as an array or object (a table, not null). */
static int json_nested(lua_State *L, int idx, int null)
{
    return lua_type(L, idx) == LUA_TTABLE && !lua_rawequal(L, idx, null);
}

static void json_value(json_out *o, int idx, int null, int depth)
{
    lua_State *L = o->L;
    luaL_checkstack(L, 4, "JSON nests too deeply");
    int type = lua_type(L, idx);
    if (type == LUA_TSTRING) {
        json_string(o, idx);
        return;
    }
    if (type == LUA_TNUMBER || type == LUA_TBOOLEAN) {
        size_t n;
        const char *s = luaL_tolstring(L, idx, &n);
        json_add(o, s, n);
        lua_pop(L, 1);
        return;
    }
    if (lua_rawequal(L, idx, null)) {
        json_add(o, "null", 4);
        return;
    }
    if (type != LUA_TTABLE)
        luaL_error(L, "json.encode: a %s is not JSON", luaL_typename(L, idx));
    if (lua_getfield(L, idx, "order") != LUA_TNIL) {
        int order = lua_gettop(L);
        lua_Integer n = (lua_Integer)lua_rawlen(L, order);
        if (n == 0) {
            json_add(o, "{}", 2);
        } else {
            lua_getfield(L, idx, "values");
            int values = lua_gettop(L);
            for (lua_Integer i = 1; i <= n; i++) {
                json_add(o, i == 1 ? "{" : ",", 1);
                json_newline(o, depth + 1);
                lua_rawgeti(L, order, i);
                lua_pushvalue(L, -1); /* (a number key is quoted as text, looked up as itself) */
                json_string(o, -1);
                lua_pop(L, 1);
                json_add(o, ": ", 2);
                lua_gettable(L, values);
                json_value(o, lua_gettop(L), null, depth + 1);
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
            json_newline(o, depth);
            json_add(o, "}", 1);
        }
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
    int simple = 1;
    for (lua_Integer i = 1; i <= n && simple; i++) {
        lua_rawgeti(L, idx, i);
        simple = !json_nested(L, -1, null);
        lua_pop(L, 1);
    }
    json_add(o, "[", 1);
    for (lua_Integer i = 1; i <= n; i++) {
        if (!simple)
            json_newline(o, depth + 1);
        lua_rawgeti(L, idx, i);
        json_value(o, lua_gettop(L), null, depth + 1);
        lua_pop(L, 1);
        if (i < n)
            json_add(o, simple ? ", " : ",", simple ? 2 : 1);
    }
    if (!simple)
        json_newline(o, depth);
    json_add(o, "]", 1);
}

static int lua_json_encode(lua_State *L)
{
    lua_settop(L, 2);
    json_out o = {L, 3, NULL, 0, 4096};
    o.p = lua_newuserdatauv(L, o.cap, 0);
    json_value(&o, 1, 2, 0);
    lua_pushlstring(L, o.p, o.len);
    return 1;
}

void template_lib_json(lua_State *L)
{
    static const luaL_Reg functions[] = {{"encode", lua_json_encode}, {NULL, NULL}};
    luaL_newlib(L, functions);
}
