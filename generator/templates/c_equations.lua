-- The builder's equation solver: making an expression of the schema true by setting the one
-- field of the document it depends on. `count: part_count` sets part_count to the array's length;
-- `pos: 60 + address - root.header.salt` sets address from where the data was placed.
local names = require("names")
local cexpr = require("cexpr")

local L = {}

-- `p->name` for a pointer text, `x.name` when the pointer is `(&x)`.
local function arrow(p, name)
  local inner = p:match("^%(&(.+)%)$")
  if inner then return inner .. "." .. name end
  return p .. "->" .. name
end
L.arrow = arrow

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

-- How an error names a place: a path format (from the root, or below the structure being
-- written) with the C expressions of its indices.
local function below(p, name, arg)
  local args = {}
  for _, a in ipairs(p.args) do args[#args + 1] = a end
  if arg then args[#args + 1] = arg end
  return { fmt = p.fmt == "" and name or (p.fmt .. "." .. name), args = args, rooted = p.rooted }
end

-- C lines that evaluate a writable path (root.chunks[i].offset); returns the lvalue they
-- give and the place it is (its path, the structure holding it, the field).
local function lvalue(e, env, lines)
  if e.k == "name" and e.ref == "field" then
    local p = below({ fmt = "", args = {}, rooted = false }, e.name)
    p.owner, p.field = "s", e.field
    return "s->" .. e.name, p
  end
  if e.k == "name" and e.ref == "param" then return nil end
  if e.k == "name" and e.ref == "root" then return env.root_mut, { fmt = "", args = {}, rooted = true } end
  if e.k == "member" then
    local base, bp = L.pointer(e.a, env, lines)
    if not base then return nil end
    local p = below(bp, e.name)
    p.owner, p.field = base, e.field
    return arrow(base, e.name), p
  end
  if e.k == "index" then
    local fl = e.a.field
    local owner, op
    if e.a.k == "name" then
      owner, op = "s", { fmt = "", args = {}, rooted = false }
    else
      owner, op = L.pointer(e.a.a, env, lines)
    end
    if not owner then return nil end
    local n = fl.fixed_count and tostring(fl.fixed_count) or arrow(owner, fl.name .. "_count")
    -- a constant index into a fixed-size array is checked here, once, not at every write
    local k = e.b.k == "int" and math.tointeger(tonumber(e.b.v))
    if k and fl.fixed_count and k >= 0 and k < fl.fixed_count then
      local p = below(op, string.format("%s[%d]", fl.name, k))
      p.owner, p.field, p.element = owner, fl, tostring(k)
      return string.format("%s[%d]", arrow(owner, fl.name), k), p
    end
    env.counter.n = env.counter.n + 1
    local ix = "ix" .. env.counter.n
    lines[#lines + 1] = string.format("int64_t %s = %s;", ix, cexpr.value(e.b, env))
    lines[#lines + 1] = string.format('if (!bf_windex(w, %s, %s, "%s"))', ix, n, fl.name)
    lines[#lines + 1] = "    return 0;"
    local p = below(op, fl.name .. "[%lld]", "(long long)" .. ix)
    p.owner, p.field, p.element = owner, fl, ix
    return string.format("%s[%s]", arrow(owner, fl.name), ix), p
  end
  return nil
end

-- A writable pointer to the structure an expression names, and its place.
function L.pointer(e, env, lines)
  if e.k == "name" and e.ref == "root" then return env.root_mut, { fmt = "", args = {}, rooted = true } end
  if e.k == "name" and e.ref == "field" then
    return "(&s->" .. e.name .. ")", { fmt = e.name, args = {}, rooted = false }
  end
  local lv, p = lvalue(e, env, lines)
  return lv and ("(&" .. lv .. ")") or nil, p
end

-- The width of an integer field and whether it is signed (nil for floats).
function L.int_bits(prim)
  local p = names.prims[prim]
  if not p or p.float then return nil end
  return p.size * 8, p.signed
end

-- Where a field starts in the image being built: its structure's start plus its static
-- offset, or the position it was last written at.
local function place_at(p)
  local fl = p.field
  local at
  if fl.offset then
    at = string.format("(uint64_t)%s", arrow(p.owner, "_offset"))
    if fl.offset ~= 0 then at = at .. " + " .. fl.offset end
  else
    at = string.format("(uint64_t)%s", arrow(p.owner, fl.name .. "_at"))
  end
  if p.element and fl.elem_size then
    at = string.format("%s + (uint64_t)%s * %d", at, p.element, fl.elem_size)
  end
  return at
end

-- The line storing the computed `value_c` into a number field (bf_fit_* counts the change): a
-- value an integer field cannot hold is noted as an error (bf_overflow) instead of being cut
-- to its low bits unseen. `at` is the C offset to name, `path` the place ({fmt, args, rooted}).
function L.store(lines, lv, prim, value_c, at, path)
  local bits = L.int_bits(prim)
  if not bits then
    lines[#lines + 1] = string.format("bf_fit_%s(w, &%s, %s);", prim, lv, value_c)
    return lines
  end
  lines[#lines + 1] = L.fit_call(names.prim_ctype(prim), lv, value_c, bits, at, path)
  return lines
end

-- bf_fit_<type>(...) for an integer field of C type `ctype` (uint32_t: u32).
function L.fit_call(ctype, lv, value_c, bits, at, path)
  local args = ""
  for _, a in ipairs(path.args) do args = args .. ", " .. a end
  local kind = ctype:match("^u?int(%d+)_t$")
  kind = (ctype:sub(1, 1) == "u" and "u" or "s") .. kind
  -- a path with indices is a printf format (bf_fitf_*)
  return string.format('bf_fit%s_%s(w, &%s, %s, %d, %s, %d, "%s"%s);', args ~= "" and "f" or "", kind, lv, value_c, bits, at,
    path.rooted and 1 or 0, path.fmt, args)
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
    local lv, p = lvalue(e, env, lines)
    if not lv then return nil end
    return L.store(lines, lv, p.field.prim, value_c, place_at(p), p)
  end
  if e.k ~= "binary" then return nil end
  local a, b = e.a, e.b
  local ta, tb = has_target(a), has_target(b)
  local function rv(x) return cexpr.value(x, env) end
  -- both sides may hold a term to set: the preferred one first, the other when the first
  -- cannot be solved (a parameter no argument says how to set: `table_start + offset`)
  local function either(prefer_a, solve_a, solve_b)
    local first, second = solve_a, solve_b
    if not prefer_a then first, second = solve_b, solve_a end
    return first() or second()
  end
  if e.op == "+" then
    return either(ta and (not tb or own(a) or not own(b)),
      function() return ta and L.solve(a, string.format("bf_sub(%s, %s)", value_c, rv(b)), env, params) or nil end,
      function() return tb and L.solve(b, string.format("bf_sub(%s, %s)", value_c, rv(a)), env, params) or nil end)
  elseif e.op == "-" then
    return either(ta and (not tb or own(a) or not own(b)),
      function() return ta and L.solve(a, string.format("bf_add(%s, %s)", value_c, rv(b)), env, params) or nil end,
      function() return tb and L.solve(b, string.format("bf_sub(%s, %s)", rv(a), value_c), env, params) or nil end)
  elseif e.op == "*" then
    if ta and not tb then return L.solve(a, string.format("bf_div(c, %s, %s)", value_c, rv(b)), env, params) end
    if tb and not ta then return L.solve(b, string.format("bf_div(c, %s, %s)", value_c, rv(a)), env, params) end
  elseif e.op == "/" then
    if ta and not tb then return L.solve(a, string.format("bf_mul(%s, %s)", value_c, rv(b)), env, params) end
  end
  return nil
end

-- Whether the builder can place data at `pos`: the expression holds a field it can set, or
-- it is a choice (`c ? a : b`) of which a branch does.
function L.placeable(pos)
  if pos.k == "cond" then return has_target(pos.b) or has_target(pos.c) end
  return has_target(pos)
end

-- Lines that make the position expression `pos` equal to `at_c`, where the data named `name`
-- was placed, or nil. A choice is solved through the branch its condition takes now; a
-- branch that names a fixed place (`0x7C`, nothing to set) is where the data must have
-- landed, and the build fails, naming the field, if it did not.
function L.solve_pos(pos, at_c, env, name)
  if pos.k ~= "cond" then return L.solve(pos, at_c, env, nil) end
  local function branch(e)
    local lines = L.solve(e, at_c, env, nil)
    if lines or has_target(e) then return lines end
    local want = cexpr.value(e, env)
    return {
      string.format("if (%s != %s)", at_c, want),
      string.format('    return bf_fail(&w->c, w->pos, "%s", "the builder placed this at %%lld, but pos: %%s puts it at %%lld", (long long)%s,', name, at_c),
      string.format("                   %s, (long long)(%s));", names.cstring(pos.text), want),
    }
  end
  local yes, no = branch(pos.b), branch(pos.c)
  if not yes or not no then return nil end
  local lines = { string.format("if (%s) {", cexpr.cond(pos.a, env)) }
  for _, l in ipairs(yes) do lines[#lines + 1] = "    " .. l end
  lines[#lines + 1] = "} else {"
  for _, l in ipairs(no) do lines[#lines + 1] = "    " .. l end
  lines[#lines + 1] = "}"
  return lines
end

return L
