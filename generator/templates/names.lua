-- Naming rules and lookups shared by every template.
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

function M.upper(s) return (s:gsub("(%l)(%u)", "%1_%2"):upper()) end

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

local prim_ctypes = {
  u8 = "uint8_t", u16 = "uint16_t", u24 = "uint32_t", u32 = "uint32_t", u64 = "uint64_t",
  s8 = "int8_t", s16 = "int16_t", s24 = "int32_t", s32 = "int32_t", s64 = "int64_t",
  f32 = "float", f64 = "double", char = "uint8_t",
}
function M.prim_ctype(prim) return prim_ctypes[prim] end

-- The C load of one primitive at byte pointer `p`.
function M.load(prim, endian, p)
  local e = endian
  local loads = {
    u8 = p .. "[0]", char = p .. "[0]",
    s8 = "bf_s8(" .. p .. "[0])",
    u16 = "bf_load_u16" .. e .. "(" .. p .. ")",
    s16 = "bf_s16(bf_load_u16" .. e .. "(" .. p .. "))",
    u24 = "bf_load_u24" .. e .. "(" .. p .. ")",
    s24 = "bf_s24(bf_load_u24" .. e .. "(" .. p .. "))",
    u32 = "bf_load_u32" .. e .. "(" .. p .. ")",
    s32 = "bf_s32(bf_load_u32" .. e .. "(" .. p .. "))",
    u64 = "bf_load_u64" .. e .. "(" .. p .. ")",
    s64 = "bf_s64(bf_load_u64" .. e .. "(" .. p .. "))",
    f32 = "bf_f32_from_bits(bf_load_u32" .. e .. "(" .. p .. "))",
    f64 = "bf_f64_from_bits(bf_load_u64" .. e .. "(" .. p .. "))",
  }
  return loads[prim]
end

-- A C string literal for any Lua string.
function M.cstring(s)
  return '"' .. s:gsub('[%c"\\]', function(ch)
    local map = { ['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\t'] = '\\t' }
    return map[ch] or string.format("\\%03o", ch:byte())
  end) .. '"'
end

-- A doc string as a one-line C comment body.
function M.comment(s)
  if not s then return "" end
  s = s:gsub("%s+", " "):gsub("%*/", "* /")
  return s
end


return M
