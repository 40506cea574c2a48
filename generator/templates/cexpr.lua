-- Schema expressions -> C expressions.
--
-- Integers are evaluated as int64_t through the runtime's wrapping helpers (no signed
-- overflow, no division by zero, no oversized shifts: hostile files cannot cause
-- undefined behaviour). Struct values are pointers; arrays are {ptr, count} places.
local names = require("names")
local M = {}

-- env: fmt, ix (names.index), self (C pointer to the current struct), root (C pointer to
-- the root), it / prev / value (C for the builtins), index, start.
local render

local function field_place(env, owner, fl_ref)
  -- An access to field `fl_ref` of the struct `owner` points at.
  local fl = fl_ref
  local base = owner .. "->" .. fl.name
  if fl.array then
    local count = fl.fixed_count and tostring(fl.fixed_count) or (owner .. "->" .. fl.name .. "_count")
    return { kind = "array", ptr = base, count = count, field = fl }
  end
  if fl.kind == "struct" then return { kind = "struct", c = "(&" .. base .. ")", type = fl.type } end
  if fl.kind == "switch" then return { kind = "switch", c = base, field = fl } end
  if fl.kind == "bytes" then return { kind = "bytes", c = base } end
  if fl.kind == "str" or fl.kind == "cstr" then return { kind = "string", c = base } end
  if fl.prim == "f32" or fl.prim == "f64" then return { kind = "float", c = "(double)" .. base } end
  return { kind = "int", c = "(int64_t)" .. base }
end

local function value_place(env, c, fl, vt)
  -- A builtin that stands for one element of field `fl` (_it, _prev, _value).
  if vt == "struct" then return { kind = "struct", c = c, type = fl and fl.type } end
  if vt == "float" then return { kind = "float", c = "(double)(" .. c .. ")" } end
  if vt == "string" then return { kind = "string", c = c } end
  return { kind = "int", c = "(int64_t)(" .. c .. ")" }
end

-- A named value of the structure `obj` points at: a call of its function in <format>_access.h.
local function named_place(env, e, obj)
  -- validators call the memoised form (<format>_validate.c), so a value rules use is computed
  -- once per structure, not once per element of an `each`
  local fn = env.memo and M.memo_fn or M.value_fn
  local c = string.format("%s(c, %s)", fn(env.fmt, e.value_owner, e.value_name), obj)
  return { kind = e.vt == "float" and "float" or "int", c = c }
end

function M.value_fn(fmt, owner, name) return names.ctype(fmt, owner) .. "_v_" .. name end
function M.memo_fn(fmt, owner, name) return names.ctype(fmt, owner) .. "_m_" .. name end

local function as_c(p)
  if p.kind == "array" or p.kind == "bytes" then
    error("an array or bytes value cannot be used as a number here")
  end
  return p.c
end

local function num(e, env, want_float)
  local p = render(e, env)
  local c = as_c(p)
  if want_float and p.kind == "int" then return "(double)" .. c end
  return c
end

local int_ops = {
  ["+"] = "bf_add", ["-"] = "bf_sub", ["*"] = "bf_mul", ["<<"] = "bf_shl", [">>"] = "bf_shr",
}

local function place(e, env)
  local k = e.k
  if k == "int" then return { kind = "int", c = string.format("INT64_C(%d)", e.v) } end
  if k == "float" then return { kind = "float", c = string.format("%.17g", e.v) } end
  if k == "name" then
    local r = e.ref
    if r == "field" then return field_place(env, env.self, e.field) end
    if r == "param" then return { kind = "int", c = env.self .. "->_p_" .. e.name } end
    if r == "root" then return { kind = "struct", c = env.root, type = e.vtype } end
    if r == "index" then return { kind = "int", c = env.index or (env.self .. "->_index") } end
    if r == "start" then return { kind = "int", c = "(int64_t)" .. env.self .. "->_offset" } end
    if r == "pos" then return { kind = "int", c = env.pos or "(int64_t)c->pos" } end
    if r == "end" then return { kind = "int", c = "(int64_t)c->end" } end
    if r == "size" then return { kind = "int", c = "(int64_t)c->size" } end
    if r == "revision" then return { kind = "int", c = "c->revision" } end
    if r == "named" then return named_place(env, e, env.self) end
    if r == "it" then return value_place(env, env.it, env.elem_field, e.vt) end
    if r == "prev" then return value_place(env, env.prev, env.elem_field, e.vt) end
    if r == "value" then return value_place(env, env.value, env.elem_field, e.vt) end
    error("cannot render name " .. e.name)
  end
  if k == "member" then
    if e.ref == "enum_const" then return { kind = "int", c = string.format("INT64_C(%d)", e.const) } end
    local obj = place(e.a, env)
    if e.ref == "case" then
      local zero = names.ctype(env.fmt, e.name) .. "_zero"
      return { kind = "struct", type = e.name,
        c = string.format("(%s.kind == %s ? %s.%s : &%s)", obj.c, names.kind_const(env.fmt, e.name), obj.c, e.name, zero) }
    end
    if e.ref == "named" then return named_place(env, e, obj.c) end
    if e.ref == "bits" then
      -- computed from the packed value, so that it works on any place (_value, _it, fields)
      local b = e.field.bits[e.name]
      local raw = string.format("((uint64_t)(%s) >> %d)", obj.c, b.shift)
      local masked = string.format("(%s & UINT64_C(0x%X))", raw, (1 << b.width) - 1)
      if b.signed then return { kind = "int", c = string.format("bf_sext(%s, %d)", masked, b.width) } end
      return { kind = "int", c = "(int64_t)" .. masked }
    end
    if obj.kind ~= "struct" then error("member access on a non-structure") end
    return field_place(env, obj.c, e.field)
  end
  if k == "index" then
    local arr = place(e.a, env)
    local i = num(e.b, env)
    local fl = arr.field
    if fl.kind == "struct" then
      return { kind = "struct", type = fl.type,
        c = string.format("%s_at(c, %s, %s, %s)", names.ctype(env.fmt, fl.type), arr.ptr, arr.count, i) }
    end
    local kind = (fl.prim == "f32" or fl.prim == "f64") and "float" or "int"
    return { kind = kind, c = string.format("bf_at_%s(c, %s, %s, %s)", fl.prim, arr.ptr, arr.count, i) }
  end
  if k == "call" then
    if M.quantifiers[e.name] then return M.quantifier(e, env) end
    if e.name == "tag" then
      -- the case value of the switch's active case: its type's kind, or the raw case's number
      local sw = place(e.args[1], env)
      local c = "INT64_C(0)"
      local cases = sw.field.cases
      for i = #cases, 1, -1 do
        local case = cases[i]
        if not case.default then
          local kind = case.type and names.kind_const(env.fmt, case.type) or string.format("-%d", i)
          c = string.format("(%s.kind == %s ? INT64_C(%d) : %s)", sw.c, kind, case.value, c)
        end
      end
      return { kind = "int", c = c }
    end
    if e.name == "offset" then
      local a = e.args[1]
      local owner = a.k == "member" and place(a.a, env).c or env.self
      local fl = a.field
      if fl.offset and not fl.located then
        return { kind = "int", c = string.format("(int64_t)((%s)->_offset + %d)", owner, fl.offset) }
      end
      return { kind = "int", c = string.format("(int64_t)(%s)->%s_at", owner, fl.name) }
    end
    if e.name == "indexof" then
      local x = num(e.args[1], env)
      local c = "INT64_C(-1)"
      for i = #e.args, 2, -1 do
        c = string.format("(%s == %s ? INT64_C(%d) : %s)", x, num(e.args[i], env), i - 2, c)
      end
      return { kind = "int", c = c }
    end
    if e.name == "first_nonzero" then
      local c = num(e.args[#e.args], env)
      for i = #e.args - 1, 1, -1 do c = string.format("bf_nonzero_or(%s, %s)", num(e.args[i], env), c) end
      return { kind = "int", c = c }
    end
    if e.name == "lz4_size" then
      local b = place(e.args[1], env)
      return { kind = "int", c = string.format("bf_lz4_size(%s.ptr, %s.len, %s)", b.c, b.c, num(e.args[2], env)) }
    end
    if e.name == "len" then
      local a = place(e.args[1], env)
      if a.kind == "array" then return { kind = "int", c = "(int64_t)" .. a.count } end
      return { kind = "int", c = "(int64_t)" .. a.c .. ".len" }
    end
    local fl = e.vt == "float"
    local a, b = num(e.args[1], env, fl), num(e.args[2], env, fl)
    local fn = (e.name == "min" and "bf_min" or "bf_max") .. (fl and "f" or "")
    return { kind = fl and "float" or "int", c = string.format("%s(%s, %s)", fn, a, b) }
  end
  if k == "unary" then
    local fl = e.vt == "float"
    local a = num(e.a, env, fl)
    if e.op == "-" then
      return { kind = e.vt, c = fl and "(-" .. a .. ")" or "bf_neg(" .. a .. ")" }
    end
    return { kind = "int", c = "((int64_t)(" .. e.op .. a .. "))" }
  end
  if k == "binary" then
    local op = e.op
    local float = e.a.vt == "float" or e.b.vt == "float"
    local a, b = num(e.a, env, float), num(e.b, env, float)
    if op == "&&" or op == "||" or op == "==" or op == "!=" or op == "<" or op == ">" or op == "<=" or op == ">=" then
      return { kind = "int", c = string.format("((int64_t)(%s %s %s))", a, op, b) }
    end
    if float then return { kind = "float", c = string.format("(%s %s %s)", a, op, b) } end
    if op == "/" then return { kind = "int", c = string.format("bf_div(c, %s, %s)", a, b) } end
    if op == "%" then return { kind = "int", c = string.format("bf_mod(c, %s, %s)", a, b) } end
    if int_ops[op] then return { kind = "int", c = string.format("%s(%s, %s)", int_ops[op], a, b) } end
    return { kind = "int", c = string.format("(%s %s %s)", a, op, b) }
  end
  if k == "cond" then
    local float = e.vt == "float"
    return { kind = float and "float" or "int",
      c = string.format("(%s ? %s : %s)", num(e.a, env), num(e.b, env, float), num(e.c, env, float)) }
  end
  error("unknown expression kind " .. tostring(k))
end
render = place

-- Quantifiers are loops: they are hoisted into statements (env.pre) before the expression
-- that uses them, and stand in it as a local variable.
M.quantifiers = { count = true, all = true, any = true, sum = true, first = true }

-- Whether an expression mentions anything but the root and constants: the structure it is
-- evaluated for (its fields, parameters, index, position) or an element a quantifier
-- outside it binds (`free` also counts _it, _prev and _value).
local owner_refs = { field = true, param = true, index = true, start = true, pos = true, ["end"] = true, size = true, bits = true }
local bound_refs = { it = true, prev = true, value = true }
local function mentions_owner(e, free)
  if not e then return false end
  if e.k == "name" and (owner_refs[e.ref] or (free and bound_refs[e.ref])) then return true end
  if mentions_owner(e.a, free) or mentions_owner(e.b, free) or mentions_owner(e.c, free) then return true end
  for _, arg in ipairs(e.args or {}) do
    if mentions_owner(arg, free) then return true end
  end
  return false
end
M.mentions_owner = mentions_owner

-- A quantifier over the root alone (`sum(root.chunk_data, ...)` in a rule of every part)
-- has one value per document: validators compute it once (env.cache names the cache and
-- env.cache_slots numbers the expressions) instead of once per structure.
-- The same expression gets the same text (sub-expressions carry no source text).
local function key(e)
  if not e then return "" end
  local parts = { e.k, e.name or "", e.ref or "", e.op or "", tostring(e.v or ""), e.vt or "",
    e.field and (e.field.owner .. "." .. e.field.name) or "", key(e.a), key(e.b), key(e.c) }
  for _, arg in ipairs(e.args or {}) do parts[#parts + 1] = key(arg) end
  return "(" .. table.concat(parts, " ") .. ")"
end

local function cache_slot(e, env)
  if not env.cache then return nil end
  if mentions_owner(e.args[1], true) or mentions_owner(e.args[2], false) then return nil end
  local slots, k = env.cache_slots, key(e)
  if not slots[k] then
    slots.n = slots.n + 1
    slots[k] = slots.n - 1
  end
  return slots[k]
end

function M.quantifier(e, env)
  if not env.pre then error(e.name .. "() can only be used in rules") end
  env.counter.n = env.counter.n + 1
  local n = env.counter.n
  local arr = place(e.args[1], env)
  local fl = arr.field
  local acc, i, it = "q" .. n, "i" .. n, "it" .. n
  local float = e.vt == "float"
  local init = ({ count = "0", sum = "0", all = "1", any = "0", first = "-1" })[e.name]
  local pre = env.pre
  local slot = cache_slot(e, env)
  local slot_value = slot and string.format("%s->%s[%d]", env.cache, float and "f" or "i", slot)
  pre[#pre + 1] = string.format("%s %s = %s;", float and "double" or "int64_t", acc, init)
  if slot then
    pre[#pre + 1] = string.format("if (%s->set[%d]) %s = %s; else", env.cache, slot, acc, slot_value)
  end
  pre[#pre + 1] = string.format("for (uint32_t %s = 0; %s < (uint32_t)(%s); %s++) {", i, i, arr.count, i)
  local elem_env = setmetatable({ index = "(int64_t)" .. i, elem_field = fl, pre = {} }, { __index = env })
  if fl.kind == "struct" then
    local tc = names.ctype(env.fmt, fl.type)
    pre[#pre + 1] = string.format("    const %s *%s = &(%s)[%s];", tc, it, arr.ptr, i)
    pre[#pre + 1] = string.format("    (void)%s;", it)
    elem_env.it = it
    elem_env.prev = string.format("(%s ? &(%s)[%s - 1] : &%s_zero)", i, arr.ptr, i, tc)
  else
    elem_env.it = string.format("(%s)[%s]", arr.ptr, i)
    elem_env.prev = string.format("(%s ? (%s)[%s - 1] : 0)", i, arr.ptr, i)
  end
  local body = num(e.args[2], elem_env, float)
  for _, l in ipairs(elem_env.pre) do pre[#pre + 1] = "    " .. l end
  if e.name == "count" then
    pre[#pre + 1] = string.format("    %s += (%s) ? 1 : 0;", acc, body)
  elseif e.name == "sum" then
    pre[#pre + 1] = string.format("    %s = %s;", acc, float and (acc .. " + " .. body) or ("bf_add(" .. acc .. ", " .. body .. ")"))
  elseif e.name == "first" then
    pre[#pre + 1] = string.format("    if (%s) { %s = (int64_t)%s; break; }", body, acc, i)
  elseif e.name == "all" then
    pre[#pre + 1] = string.format("    if (!(%s)) { %s = 0; break; }", body, acc)
  else
    pre[#pre + 1] = string.format("    if (%s) { %s = 1; break; }", body, acc)
  end
  pre[#pre + 1] = "}"
  if slot then
    -- kept only when it evaluated cleanly: a failure is reported again wherever it is used
    pre[#pre + 1] = string.format("if (!%s->set[%d] && !c->err->failed) {", env.cache, slot)
    pre[#pre + 1] = string.format("    %s->set[%d] = 1;", env.cache, slot)
    pre[#pre + 1] = string.format("    %s = %s;", slot_value, acc)
    pre[#pre + 1] = "}"
  end
  return { kind = float and "float" or "int", c = acc }
end

-- The C text of an expression used as a number.
function M.c(e, env) return num(e, env) end
-- The C text as a double.
function M.cf(e, env) return num(e, env, true) end
-- The place (for bytes tables and arrays).
M.place = place

return M
