-- Naming rules and lookups shared by every template.
local scan = require("scan")
local M = {}

function M.index(fmt)
  -- Maps from names to IR tables, built once per format.
  local ix = { types = {}, enums = {} }
  for _, t in ipairs(fmt.types) do ix.types[t.name] = t end
  for _, e in ipairs(fmt.enums) do ix.enums[e.name] = e end
  ix.root = fmt.entries[1] and ix.types[fmt.entries[1].root]
  return ix
end

function M.ctype(fmt, type_name) return fmt.name .. "_" .. type_name end

-- An int64_t constant in C. INT64_C(-9223372036854775808) is not one: C reads the minus as an
-- operator on a number too large for int64_t.
function M.i64(v)
  if v == math.mininteger then return "INT64_MIN" end
  return string.format("INT64_C(%d)", v)
end

-- (names come again and again: each is made once)
local upper_of = {}

function M.upper(s)
  local up = upper_of[s]
  if not up then
    up = s:gsub("(%l)(%u)", "%1_%2"):upper()
    upper_of[s] = up
  end
  return up
end

function M.enum_const(fmt, enum, member)
  return fmt.name:upper() .. "_" .. M.upper(enum) .. "_" .. M.upper(member)
end

-- A switch's raw-bytes case: its (negative) kind's name.
function M.raw_case_const(fmt, type_name, field_name, label)
  return fmt.name:upper() .. "_" .. M.upper(type_name) .. "_" .. field_name:upper() .. "_" .. M.upper(label)
end

-- The kind of switch field `fl`'s i-th case when it is raw bytes: the header's name for it.
function M.raw_case_kind(fmt, fl, i)
  for _, t in ipairs(fmt.types) do
    for _, f in ipairs(t.fields) do
      if f == fl then return M.raw_case_const(fmt, t.name, fl.name, fl.cases[i].label) end
    end
  end
  return string.format("-%d", i)
end

function M.kind_const(fmt, type_name) return fmt.name:upper() .. "_KIND_" .. M.upper(type_name) end

-- The primitive types come from bfgen's table (model.c): name -> { size, signed, float, ctype }.
local prims = require("prims")
M.prims = prims

function M.prim_ctype(prim)
  local p = prims[prim]
  return p and p.ctype
end

-- The C load of one primitive at byte pointer `p`.
function M.load(prim, endian, p)
  local info = prims[prim]
  if not info then return nil end
  if info.size == 1 then
    if info.signed then return "bf_s8(" .. p .. "[0])" end
    return p .. "[0]"
  end
  local bits = info.size * 8
  local load = "bf_load_u" .. bits .. endian .. "(" .. p .. ")"
  if info.float then return "bf_f" .. bits .. "_from_bits(" .. load .. ")" end
  if info.signed then return "bf_s" .. bits .. "(" .. load .. ")" end
  return load
end

-- `src` with `prefix` put before every call `STEMname(` whose STEM follows a character that
-- is not part of a name (and not one an earlier call took), as
-- src:gsub("([^_%w])STEM(%w+)%(", "%1" .. prefix .. "STEM%2(") would, but with plain searches:
-- a pattern tried at every byte of a whole generated file is slow.
function M.prefix_calls(src, stem, prefix)
  local out, from, pos, taken = {}, 1, 1, 1
  local find, byte = string.find, string.byte
  while true do
    local a = find(src, stem, pos, true)
    if not a then break end
    local _, call_end = find(src, "^%w+%(", a + #stem)
    local c = a > taken and byte(src, a - 1)
    local after_name_char = c and (c == 95 or (c >= 48 and c <= 57) or (c >= 65 and c <= 90) or (c >= 97 and c <= 122))
    if call_end and c and not after_name_char then
      out[#out + 1] = src:sub(from, a - 1)
      out[#out + 1] = prefix
      from, pos, taken = a, call_end + 1, call_end + 1
    else
      pos = a + 1
    end
  end
  out[#out + 1] = src:sub(from)
  return table.concat(out)
end

-- A C string literal for any Lua string.
local c_escape = { ['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\t'] = '\\t' }
for b = 0, 127 do
  local ch = string.char(b)
  if ch:match("%c") and not c_escape[ch] then c_escape[ch] = string.format("\\%03o", b) end
end
M.c_escape = c_escape

-- The bytes a literal escapes: what the class [%c"\\] matches.
local special = {}
for b = 0, 255 do
  if string.char(b):match('[%c"\\]') then special[#special + 1] = string.char(b) end
end
special = table.concat(special)

-- A function making a quoted literal of a Lua string, escaping with the table `escape`
-- (a C or JSON literal). Each text is quoted once: the same texts come from several
-- templates, and scan.plain is C where a class search such as s:find('[%c"\\]') tries the
-- class at every byte.
function M.quoter(escape)
  local quoted = {}
  return function(s)
    local lit = quoted[s]
    if lit then return lit end
    -- (scan.replace is s:gsub('[%c"\\]', escape) in one pass in C)
    if scan.plain(s) then lit = '"' .. s .. '"' else lit = '"' .. scan.replace(s, special, escape) .. '"' end
    quoted[s] = lit
    return lit
  end
end

-- A C string literal for any Lua string.
M.cstring = M.quoter(c_escape)

-- Four spaces `depth` times, made once per depth (templates indent every line they write).
local indents = {}

function M.indent(depth)
  local pad = indents[depth]
  if not pad then
    pad = string.rep("    ", depth)
    indents[depth] = pad
  end
  return pad
end

-- A doc string as a one-line C comment body.
local comment_of = {}

function M.comment(s)
  if not s then return "" end
  local body = comment_of[s]
  if body then return body end
  body = s
  if scan.space_run(body) then body = scan.squeeze(body) end -- (passes in C, template_lib.c)
  if body:find("*/", 1, true) then body = body:gsub("%*/", "* /") end
  comment_of[s] = body
  return body
end


return M
