-- docs/<format>.schema.json: the JSON Schema (2020-12) of what `binform dump` prints for the
-- format and `binform build` reads; the shapes are described in cli/binform/dump.c. The member
-- rules mirror c_meta.lua's: which of FIELD_at, _pad, _tail, _str, _value and bits exist.
local names = require("names")
local json = require("json")

-- JSON null (Lua has no null that can sit in a table)
local NULL = setmetatable({}, { __name = "null" })

-- The JSON text of a value: json.encode in C (template_lib.c), where a writer in Lua was a
-- twelfth of the templates' work. Objects are tables { order = keys, values = map }.
local function encode(v) return json.encode(v, NULL) end

local function obj(...)
  local o = { order = {}, values = {} }
  local args = { ... }
  for i = 1, #args, 2 do
    o.order[#o.order + 1] = args[i]
    o.values[args[i]] = args[i + 1]
  end
  return o
end

local function set(o, k, v)
  if o.values[k] == nil then o.order[#o.order + 1] = k end
  o.values[k] = v
end

local function ref(name) return obj("$ref", "#/$defs/" .. name) end

local SAFE = 9007199254740992 -- 2^53

-- The integer primitives JSON numbers hold exactly (up to 32 bits), from bfgen's table.
local prim_range = {}
for name, p in pairs(names.prims) do
  if not p.float and p.size <= 4 then
    local bits = p.size * 8
    prim_range[name] = p.signed and { -(1 << (bits - 1)), (1 << (bits - 1)) - 1 } or { 0, (1 << bits) - 1 }
  end
end

local function prim_defs(defs)
  local order = {}
  for p in pairs(prim_range) do order[#order + 1] = p end
  table.sort(order)
  for _, p in ipairs(order) do
    local r = prim_range[p]
    set(defs, p, obj("type", "integer", "minimum", r[1], "maximum", r[2]))
  end
  set(defs, "u64", obj("oneOf", {
    obj("type", "integer", "minimum", 0, "maximum", SAFE),
    obj("type", "string", "pattern", "^[0-9]+$", "description", "beyond 2^53: a decimal string") }))
  set(defs, "s64", obj("oneOf", {
    obj("type", "integer", "minimum", -SAFE, "maximum", SAFE),
    obj("type", "string", "pattern", "^-?[0-9]+$", "description", "beyond 2^53: a decimal string") }))
  local float = obj("oneOf", {
    obj("type", "number"),
    obj("type", "string", "pattern", "^(inf|-inf|nan:0x[0-9a-f]+)$") })
  set(defs, "f32", float)
  set(defs, "f64", float)
  set(defs, "hex", obj("type", "string", "pattern", "^([0-9a-f][0-9a-f])*$", "description", "bytes, in full"))
  set(defs, "string", obj("type", { "string", "null" }))
  set(defs, "position", obj("type", "integer", "minimum", 0, "description", "where the data starts in the file"))
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

local function enum_def(e)
  local value_names = {}
  for _, v in ipairs(e.values) do value_names[#value_names + 1] = v.name end
  if e.flags then
    return obj("type", "object", "description", e.doc or e.name, "additionalProperties", false,
      "required", { "value", "flags" },
      "properties", obj("value", ref("u64"), "flags", obj("type", "array", "items", obj("enum", value_names))))
  end
  local with_null = { table.unpack(value_names) }
  with_null[#with_null + 1] = NULL
  return obj("type", "object", "description", e.doc or e.name, "additionalProperties", false,
    "required", { "name", "value" },
    "properties", obj("name", obj("enum", with_null), "value", ref("s64")))
end

local function element_schema(fl)
  if fl.kind == "prim" then
    if fl.enum then return ref("enum_" .. fl.enum) end
    if fl.flags then return ref("flags_" .. fl.flags) end
    return ref(fl.prim)
  elseif fl.kind == "struct" then
    return ref(fl.type)
  elseif fl.kind == "bytes" then
    return ref("hex")
  else
    return ref("string")
  end
end

local function switch_schema(fl)
  local labels, values = {}, { obj("type", "null") }
  local seen = {}
  for _, c in ipairs(fl.cases) do
    labels[#labels + 1] = c.default and "default" or c.label
    if c.type and not seen[c.type] then
      seen[c.type] = true
      values[#values + 1] = ref(c.type)
    end
  end
  labels[#labels + 1] = NULL
  return obj("type", "object", "additionalProperties", false, "required", { "case", "value", "raw" },
    "properties", obj("case", obj("enum", labels), "value", obj("anyOf", values), "raw", ref("hex")))
end

local function field_schema(fl)
  local s
  if fl.kind == "switch" then
    s = switch_schema(fl)
  elseif fl.fixed_count or (fl.array and fl.kind ~= "bytes") then
    s = obj("type", "array", "items", element_schema(fl))
    if fl.fixed_count then
      set(s, "minItems", fl.fixed_count)
      set(s, "maxItems", fl.fixed_count)
    end
  else
    s = element_schema(fl)
  end
  if fl.doc then
    -- a $ref with siblings is fine in 2020-12
    set(s, "description", fl.doc)
  end
  return s
end

local function type_def(t)
  local props = obj("_offset", ref("position"))
  local required = { "_offset" }
  for _, fl in ipairs(t.fields) do
    if not fl.cond then required[#required + 1] = fl.name end
    if fl.align and not fl.pos then set(props, fl.name .. "_pad", ref("hex")) end
    if not fl.offset then set(props, fl.name .. "_at", ref("position")) end
    set(props, fl.name, field_schema(fl))
    for _, b in ipairs(fl.bits) do set(props, fl.name .. "_" .. b.name, ref(b.signed and "s64" or "u64")) end
    if fl.derive or fl.fixed_frac then
      local derived = (fl.array and fl.kind ~= "bytes") and obj("type", "array", "items", ref("f64")) or ref("f64")
      set(derived, "readOnly", true)
      set(props, fl.name .. "_value", derived)
    end
    if fl.string_table then set(props, fl.name .. "_str", ref("string")) end
    if fl.size then set(props, fl.name .. "_tail", ref("hex")) end
  end
  -- the named values, computed from the fields (null when they cannot be): read-only
  local computed = obj()
  for _, v in ipairs(t.values) do
    if not v.synthetic then
      local s = obj("anyOf", { ref(v.expr.vt == "float" and "f64" or "s64"), obj("type", "null") })
      if v.doc then set(s, "description", v.doc) end
      set(computed, v.name, s)
    end
  end
  if #computed.order > 0 then
    set(props, "_computed", obj("type", "object", "readOnly", true, "additionalProperties", false,
      "description", "named values computed from the fields (schema `values`); `binform build` ignores them",
      "properties", computed))
  end
  return obj("type", "object", "description", t.doc or t.name, "additionalProperties", false,
    "required", required, "properties", props)
end

return function(fmt)
  local defs = obj()
  prim_defs(defs)
  -- the primitive definitions in a stable order
  local sorted = obj()
  for _, k in ipairs(sorted_keys(defs.values)) do set(sorted, k, defs.values[k]) end
  defs = sorted
  for _, e in ipairs(fmt.enums) do set(defs, (e.flags and "flags_" or "enum_") .. e.name, enum_def(e)) end
  for _, t in ipairs(fmt.types) do set(defs, t.name, type_def(t)) end

  local kinds, by_kind = {}, {}
  for _, e in ipairs(fmt.entries) do
    kinds[#kinds + 1] = e.name
    by_kind[#by_kind + 1] = obj("properties", obj("kind", obj("const", e.name), "root", ref(e.root)))
  end
  local revision = obj("type", "null")
  if #fmt.revisions > 0 then
    local revs = {}
    for _, r in ipairs(fmt.revisions) do revs[#revs + 1] = r.name end
    revision = obj("enum", revs)
  end
  local schema = obj(
    "$schema", "https://json-schema.org/draft/2020-12/schema",
    "title", "binform dump of " .. (fmt.title or fmt.name),
    "description", "What `binform dump` prints for a " .. fmt.name .. " file and `binform build` reads back. Generated by bfgen from " .. fmt.schema .. ".",
    "type", "object",
    "additionalProperties", false,
    "required", { "format", "kind", "revision", "root" },
    "properties", obj("format", obj("const", fmt.name), "kind", obj("enum", kinds), "revision", revision,
      "root", obj("type", "object")),
    "oneOf", by_kind,
    "$defs", defs)
  return encode(schema) .. "\n"
end
