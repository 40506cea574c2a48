-- The builder's algebra: making an expression of the schema true by setting the one field
-- of the document it depends on. `count: part_count` sets part_count to the array's length;
-- `pos: 60 + address - root.header.salt` sets address from where the data was placed.
local names = require("names")
local cexpr = require("cexpr")

local L = {}

-- Whether the expression is a number field of the document (something that can be set).
local function settable(e)
  if e.ref == "field" and e.field and e.field.kind == "prim" and not e.field.array then
    return e.k == "name" or e.k == "member"
  end
  if e.k == "index" and e.a.ref == "field" and e.a.field and e.a.field.kind == "prim" then return true end
  if e.k == "name" and e.ref == "param" then return true end
  return false
end

-- Whether solving for a field inside `e` is possible (it holds a settable term).
local function has_target(e)
  if not e then return false end
  if settable(e) then return true end
  if e.k == "binary" and (e.op == "+" or e.op == "-" or e.op == "*" or e.op == "/") then
    return has_target(e.a) or has_target(e.b)
  end
  return false
end

-- A field of the structure being written is the natural one to set (index_offset rather
-- than the index chunk's offset in `chunks[i].offset + index_offset`).
local function own(e)
  return settable(e) and e.k == "name"
end

-- C lines that evaluate a writable path (root.chunks[i].offset) and the lvalue they give.
local function lvalue(e, env, lines)
  if e.k == "name" and e.ref == "field" then return "s->" .. e.name end
  if e.k == "name" and e.ref == "param" then return nil end
  if e.k == "name" and e.ref == "root" then return env.root_mut end
  if e.k == "member" then
    local base = L.pointer(e.a, env, lines)
    return base and (base .. "->" .. e.name) or nil
  end
  if e.k == "index" then
    local fl = e.a.field
    local owner = e.a.k == "name" and "s" or L.pointer(e.a.a, env, lines)
    if not owner then return nil end
    local n = fl.fixed_count and tostring(fl.fixed_count) or (owner .. "->" .. fl.name .. "_count")
    env.counter.n = env.counter.n + 1
    local ix = "ix" .. env.counter.n
    lines[#lines + 1] = string.format("int64_t %s = %s;", ix, cexpr.c(e.b, env))
    lines[#lines + 1] = string.format('if (!bf_windex(w, %s, %s, "%s"))', ix, n, fl.name)
    lines[#lines + 1] = "    return 0;"
    return string.format("%s->%s[%s]", owner, fl.name, ix)
  end
  return nil
end

-- A writable pointer to the structure an expression names.
function L.pointer(e, env, lines)
  if e.k == "name" and e.ref == "root" then return env.root_mut end
  if e.k == "name" and e.ref == "field" then return "(&s->" .. e.name .. ")" end
  local lv = lvalue(e, env, lines)
  return lv and ("(&" .. lv .. ")") or nil
end

-- Lines that make `e` equal to `value_c`, or nil when it cannot be solved. Parameters are
-- solved through `params` (the argument expressions the parent passes).
function L.solve(e, value_c, env, params)
  if settable(e) then
    if e.k == "name" and e.ref == "param" then
      local arg = params and params[e.name]
      if not arg then return nil end
      return L.solve(arg, value_c, env, nil)
    end
    local lines = {}
    local lv = lvalue(e, env, lines)
    if not lv then return nil end
    lines[#lines + 1] = string.format("%s = %s;", lv, value_c)
    return lines
  end
  if e.k ~= "binary" then return nil end
  local a, b = e.a, e.b
  local ta, tb = has_target(a), has_target(b)
  local function rv(x) return cexpr.c(x, env) end
  if e.op == "+" then
    if ta and (not tb or own(a) or not own(b)) then return L.solve(a, string.format("bf_sub(%s, %s)", value_c, rv(b)), env, params) end
    if tb then return L.solve(b, string.format("bf_sub(%s, %s)", value_c, rv(a)), env, params) end
  elseif e.op == "-" then
    if ta and (not tb or own(a) or not own(b)) then return L.solve(a, string.format("bf_add(%s, %s)", value_c, rv(b)), env, params) end
    if tb then return L.solve(b, string.format("bf_sub(%s, %s)", rv(a), value_c), env, params) end
  elseif e.op == "*" then
    if ta and not tb then return L.solve(a, string.format("bf_div(c, %s, %s)", value_c, rv(b)), env, params) end
    if tb and not ta then return L.solve(b, string.format("bf_div(c, %s, %s)", value_c, rv(a)), env, params) end
  elseif e.op == "/" then
    if ta and not tb then return L.solve(a, string.format("bf_mul(%s, %s)", value_c, rv(b)), env, params) end
  end
  return nil
end

-- Whether an expression names any field the builder could set.
L.has_target = has_target

return L
