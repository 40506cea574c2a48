/* The templates' C helpers (generator/template_lib.c) tested through Lua: each replaced Lua
 * code, which the tests keep as the reference, and must give the same results on chosen and
 * on random inputs; a few results are also checked as they are. */
#include <criterion/criterion.h>
#include <lauxlib.h>
#include <lualib.h>

#include "template_lib.h"

/* A state with the helpers as the templates get them. */
static lua_State *open_state(void)
{
    lua_State *L = luaL_newstate();
    cr_assert_not_null(L);
    luaL_openlibs(L);
    template_lib_scan(L);
    lua_setglobal(L, "scan");
    template_lib_json(L);
    lua_setglobal(L, "json");
    return L;
}

/* Runs a chunk that returns nil when all is well, else what went wrong. */
static void check(const char *chunk)
{
    lua_State *L = open_state();
    int status = luaL_dostring(L, chunk);
    cr_assert_eq(status, LUA_OK, "%s", lua_tostring(L, -1));
    cr_assert(lua_isnil(L, -1), "%s", lua_tostring(L, -1));
    lua_close(L);
}

Test(template_lib, replace_squeeze_and_oneline_are_their_patterns)
{
    check("local esc = { ['\"'] = '\\\\\"', ['\\\\'] = '\\\\\\\\', ['\\n'] = '\\\\n', ['<'] = '&lt;' }\n"
          "local alphabet = { ' ', '  ', '\\t', '\\n', '\\r', '\\v', '\\f', 'a', 'bc', '\"', '\\\\', '<', '\\0', '\\xe9' }\n"
          "local function oneline(s)\n"
          "  s = s:gsub('%s+', ' ')\n"
          "  if s:byte(1) == 32 then s = s:sub(2) end\n"
          "  if s:byte(-1) == 32 then s = s:sub(1, -2) end\n"
          "  return s\n"
          "end\n"
          "math.randomseed(11)\n"
          "for i = 1, 5000 do\n"
          "  local parts = {}\n"
          "  for j = 1, math.random(0, 12) do parts[#parts + 1] = alphabet[math.random(#alphabet)] end\n"
          "  local s = table.concat(parts)\n"
          "  if scan.replace(s, '\"\\\\\\n<>', esc) ~= s:gsub('[\"\\\\\\n<>]', esc) then return 'replace ' .. ('%q'):format(s) end\n"
          "  if scan.squeeze(s) ~= s:gsub('%s+', ' ') then return 'squeeze ' .. ('%q'):format(s) end\n"
          "  if scan.oneline(s) ~= oneline(s) then return 'oneline ' .. ('%q'):format(s) end\n"
          "  if scan.any(s, '<\\\\') ~= (s:find('[<\\\\]') ~= nil) then return 'any ' .. ('%q'):format(s) end\n"
          "end\n"
          "if scan.oneline('  two\\n lines  ') ~= 'two lines' then return 'oneline example' end\n");
}

Test(template_lib, unquoted_and_uses_follow_the_generators_rules)
{
    check("-- the Lua these replaced (c_writer.lua, c_validate.lua)\n"
          "local function unquoted_lines(text) return (text:gsub('\"[^\"\\n]-\"', '\"\"')) end\n"
          "local function unquoted_escapes(text)\n"
          "  local out, i, n = {}, 1, #text\n"
          "  while i <= n do\n"
          "    local q = text:find('\"', i, true)\n"
          "    if not q then out[#out + 1] = text:sub(i) break end\n"
          "    out[#out + 1] = text:sub(i, q - 1) .. '\"\"'\n"
          "    local j = q + 1\n"
          "    i = n + 1\n"
          "    while true do\n"
          "      local e = text:find('[\\\\\"]', j)\n"
          "      if not e then break end\n"
          "      if text:sub(e, e) == '\\\\' then j = e + 2 else i = e + 1 break end\n"
          "    end\n"
          "  end\n"
          "  return table.concat(out)\n"
          "end\n"
          "local function word(b) return b and string.char(b):match('[%w_]') ~= nil end\n"
          "local function uses_any_gt(code, name)\n"
          "  local init = 2\n"
          "  while true do\n"
          "    local a, b = code:find(name, init, true)\n"
          "    if not a then return false end\n"
          "    local before, after = code:byte(a - 1), code:byte(b + 1)\n"
          "    if not (word(before) or before == 46 or before == 62) and not word(after) then return true end\n"
          "    init = a + 1\n"
          "  end\n"
          "end\n"
          "local function uses_arrow(code, name)\n"
          "  local init = 1\n"
          "  while true do\n"
          "    local a, b = code:find(name, init, true)\n"
          "    if not a then return false end\n"
          "    local before = code:byte(a - 1)\n"
          "    if not word(before) and not word(code:byte(b + 1)) then\n"
          "      if before ~= 46 and not (before == 62 and code:byte(a - 2) == 45) then return true end\n"
          "    end\n"
          "    init = a + 1\n"
          "  end\n"
          "end\n"
          "local alphabet = { '\"', '\\\\', '\\n', 'c', 'R', 'W', 's', 'it', '.', '>', '-', '_', 'a', ' ', 'x1', '(' }\n"
          "math.randomseed(5)\n"
          "for i = 1, 5000 do\n"
          "  local parts = {}\n"
          "  for j = 1, math.random(0, 30) do parts[#parts + 1] = alphabet[math.random(#alphabet)] end\n"
          "  local t = table.concat(parts)\n"
          "  if scan.unquoted(t, false) ~= unquoted_lines(t) then return 'unquoted ' .. ('%q'):format(t) end\n"
          "  if scan.unquoted(t, true) ~= unquoted_escapes(t) then return 'unquoted escapes ' .. ('%q'):format(t) end\n"
          "  for _, n in ipairs({ 'c', 'R', 'RW', 'it' }) do\n"
          "    if scan.uses(t, n, '.>') ~= uses_any_gt(t, n) then return 'uses .> ' .. n .. ('%q'):format(t) end\n"
          "    if scan.uses(t, n, '.') ~= uses_arrow(t, n) then return 'uses . ' .. n .. ('%q'):format(t) end\n"
          "  end\n"
          "end\n"
          "if scan.uses('s->c + c', 'c', '.') ~= true or scan.uses('s->c', 'c', '.') ~= false then return 'uses example' end\n");
}

/* json.encode against the Lua writer it replaced, on random values of every kind. */
Test(template_lib, json_encode_writes_what_the_lua_writer_wrote)
{
    check(
          "local NULL = setmetatable({}, { __name = \"null\" })\n"
          "local esc = { ['\"'] = '\\\\\"', ['\\\\'] = '\\\\\\\\', ['\\n'] = '\\\\n', ['\\t'] = '\\\\t', ['\\r'] = '\\\\r' }\n"
          "for b = 0, 127 do\n"
          "  local ch = string.char(b)\n"
          "  if ch:match('%c') and not esc[ch] then esc[ch] = string.format('\\\\u%04x', b) end\n"
          "end\n"
          "local function str(s) return '\"' .. tostring(s):gsub('[%c\"\\\\]', esc) .. '\"' end\n"
          "-- json_schema.lua's writer before it moved to C\n"
          "local function enc(v, indent)\n"
          "  if type(v) == 'string' then return str(v) end\n"
          "  if type(v) == 'number' or type(v) == 'boolean' then return tostring(v) end\n"
          "  if v == NULL then return 'null' end\n"
          "  local inner = indent .. '  '\n"
          "  if v.order then\n"
          "    if #v.order == 0 then return '{}' end\n"
          "    local out = {}\n"
          "    for i, k in ipairs(v.order) do\n"
          "      out[i] = (i == 1 and '{\\n' or ',\\n') .. inner .. str(k) .. ': ' .. enc(v.values[k], inner)\n"
          "    end\n"
          "    return table.concat(out) .. '\\n' .. indent .. '}'\n"
          "  end\n"
          "  local simple = true\n"
          "  for _, x in ipairs(v) do if type(x) == 'table' and x ~= NULL then simple = false end end\n"
          "  local out = {}\n"
          "  for i, x in ipairs(v) do out[i] = enc(x, inner) end\n"
          "  if simple then return '[' .. table.concat(out, ', ') .. ']' end\n"
          "  return '[\\n' .. inner .. table.concat(out, ',\\n' .. inner) .. '\\n' .. indent .. ']'\n"
          "end\n"
          "local leaves = { '', 'a b', 'q\"\\\\', 'n\\nt\\tr\\r', '\\0\\1\\31\\127', '\\xc3\\xa9', 0, -7, 2.5, 1e300, 2.0, math.mininteger,\n"
          "  true, false, NULL }\n"
          "math.randomseed(15)\n"
          "local function value(depth)\n"
          "  local r = math.random(depth > 3 and 1 or 4)\n"
          "  if r <= 2 then return leaves[math.random(#leaves)] end\n"
          "  local n = math.random(0, 4)\n"
          "  if r == 3 then\n"
          "    local a = {}\n"
          "    for i = 1, n do a[i] = value(depth + 1) end\n"
          "    return a\n"
          "  end\n"
          "  local o = { order = {}, values = {} }\n"
          "  for i = 1, n do\n"
          "    local k = leaves[math.random(6)] .. i\n"
          "    o.order[i] = k\n"
          "    o.values[k] = value(depth + 1)\n"
          "  end\n"
          "  return o\n"
          "end\n"
          "for _ = 1, 2000 do\n"
          "  local v = value(0)\n"
          "  local want, got = enc(v, ''), json.encode(v, NULL)\n"
          "  if want ~= got then return want .. '\\n/\\n' .. got end\n"
          "end\n"
          "local o = { order = { 'a', 'b' }, values = { a = { 1, 'x' }, b = { { order = {}, values = {} } } } }\n"
          "local text = json.encode(o, NULL)\n"
          "if text ~= '{\\n  \"a\": [1, \"x\"],\\n  \"b\": [\\n    {}\\n  ]\\n}' then return text end\n"
          "if pcall(json.encode, { print }, NULL) then return 'a function encoded' end\n");
}

/* templates/c_lines.lua (its pack and literals were C, c_pack.c, until measured to save 2 %
 * of bfgen's time): chosen examples, and on random texts literals that give the text back
 * and fit their room, and lines that fit 160 columns unless one item alone is wider. */
Test(c_lines, pack_and_literals_keep_their_rules)
{
    check("package.path = '" BF_PROJECT_DIR "/generator/templates/?.lua'\n"
          "package.loaded.scan = scan\n"
          "package.preload.prims = function() return {} end\n"
          "local c_lines = require('c_lines')\n"
          "local function same(a, b)\n"
          "  if #a ~= #b then return false end\n"
          "  for i = 1, #a do if a[i] ~= b[i] then return false end end\n"
          "  return true\n"
          "end\n"
          "local lits = c_lines.literals('one two three', 9, 9)\n"
          "if not same(lits, { '\"one \"', '\"two \"', '\"three\"' }) then return 'literals example: ' .. table.concat(lits, ' ') end\n"
          "local lines = c_lines.pack({ '.a = 1', '.b = 2', { cont = '\"x\"' }, '.c = 3' }, '{', 1, '},')\n"
          "if not same(lines, { '{.a = 1, .b = 2', ' \"x\",', ' .c = 3},' }) then return 'pack example: ' .. table.concat(lines, '|') end\n"
          "local unescape = { n = '\\n', t = '\\t', ['\"'] = '\"', ['\\\\'] = '\\\\' }\n"
          "local function text_of(lit)\n"
          "  lit = lit:sub(2, -2):gsub('\\\\(%d%d%d)', function(o) return string.char(tonumber(o, 8)) end)\n"
          "  return (lit:gsub('\\\\(.)', unescape))\n"
          "end\n"
          "local alphabet = { 'a', 'b', ' ', ' ', '\\n', '\"', '\\\\', '\\t', '\\1', '\\127', '\\xe9', 'word', 'longer words here' }\n"
          "math.randomseed(7)\n"
          "for i = 1, 2000 do\n"
          "  local parts = {}\n"
          "  for j = 1, math.random(1, 80) do parts[#parts + 1] = alphabet[math.random(#alphabet)] end\n"
          "  local s = table.concat(parts)\n"
          "  local first, rest = math.random(7, 60), math.random(7, 60)\n"
          "  local got, back = c_lines.literals(s, first, rest), {}\n"
          "  for k, lit in ipairs(got) do\n"
          "    back[k] = text_of(lit)\n"
          "    if #lit > (k == 1 and first or rest) and #back[k] > 1 then return 'too wide ' .. ('%q'):format(s) end\n"
          "  end\n"
          "  if table.concat(back) ~= s then return 'literals ' .. ('%q'):format(s) end\n"
          "  local items = {}\n"
          "  for j = 1, math.random(1, 30) do items[j] = ('.f%d = %s'):format(j, ('x'):rep(math.random(0, 40))) end\n"
          "  local packed = c_lines.pack(items, '{', 4, '},')\n"
          "  for _, line in ipairs(packed) do\n"
          "    if #line > c_lines.WIDTH and line:find(', ', 1, true) then return 'line too long: ' .. line end\n"
          "  end\n"
          "  local joined = table.concat(packed, ' '):gsub('%s+', ' ')\n"
          "  if joined ~= '{' .. table.concat(items, ', ') .. '},' then return 'pack ' .. joined end\n"
          "end\n");
}
