-- bfgen --report ir SCHEMA.yaml...: the IR the templates get, one sorted `path = value` line
-- per value, so that two bfgens (or two versions of ir_lua.c) can be compared with diff.
local function key_text(k)
  if type(k) == "number" then return "[" .. k .. "]" end
  return "." .. tostring(k)
end

local function value_text(v)
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) == "number" then return math.type(v) .. ":" .. string.format("%.17g", v) end
  return tostring(v)
end

local function dump(v, path, out)
  if type(v) ~= "table" then
    out[#out + 1] = path .. " = " .. value_text(v)
    return
  end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) ~= type(b) then return type(a) < type(b) end
    return a < b
  end)
  if #keys == 0 then out[#out + 1] = path .. " = {}" end
  for _, k in ipairs(keys) do dump(v[k], path .. key_text(k), out) end
end

return function(formats)
  local out = {}
  for _, f in ipairs(formats) do dump(f, f.name, out) end
  io.write(table.concat(out, "\n"), "\n")
  return 0
end
