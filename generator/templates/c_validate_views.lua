-- The validators' way through views (c_validate.lua's view mode): how a validator over views
-- reaches what its rules check. Expressions are cexpr.lua's with c_view.lua's places, extended
-- here for what rules reach that layout expressions do not: arrays of structures laid out
-- again (or read where they lie when only numbers at fixed offsets are used), sub-structures
-- and switch cases (views declared before the expression), named values memoised per
-- structure, absent structures read as zeros.
local names = require("names")
local cexpr = require("cexpr")
local c_view = require("c_view")

-- `field_pos(fl)`, `count_of(fl)`: C of where field `fl` of `s` starts, and its count.
return function(field_pos, count_of)

-- C text without the parentheses around all of it, if it has them (for `if (...)`, where
-- clang warns about doubled ones).
local function unwrapped(c)
  if c:sub(1, 1) ~= "(" or c:sub(-1) ~= ")" then return c end
  local depth = 0
  for i = 1, #c do
    local ch = c:sub(i, i)
    if ch == "(" then depth = depth + 1 elseif ch == ")" then depth = depth - 1 end
    if depth == 0 and i < #c then return c end
  end
  return c:sub(2, -2)
end
-- Views: numbers loaded from the input where they lie, sub-structures through the accessors.
local function view_mode(fmt)
  local ix = c_view.index(fmt)
  local m = { ix = ix, views = true, memos = {} }
  local function t_of() return m.owner end -- (the type whose validator is being written)
  -- (`base`: where the structure being validated starts, declared when used)
  local function start_of(fl)
    if fl.offset then return fl.offset == 0 and "base" or string.format("base + %d", fl.offset) end
    return string.format("c->data + s->%s_at", fl.name)
  end
  local vt = function(tname) return c_view.view_type(fmt, tname) end
  local acc = function(tname, what) return vt(tname) .. "_" .. what end
  -- named values through memo functions (m.memos lists them, in the order first used)
  local places = setmetatable({}, { __index = c_view.places })
  -- whether a named value reads through `root.` (itself or through the values it uses)
  local function reads_root(owner, name, seen)
    seen = seen or {}
    if seen[owner .. "." .. name] then return false end
    seen[owner .. "." .. name] = true
    local found = false
    local function walk(e)
      if type(e) ~= "table" or found then return end
      if e.k == "name" and e.ref == "root" then found = true return end
      if e.value_owner and e.value_name and reads_root(e.value_owner, e.value_name, seen) then found = true return end
      walk(e.a); walk(e.b); walk(e.c)
      for _, x in ipairs(e.args or {}) do walk(x) end
    end
    for _, v in ipairs(ix.types[owner].values) do
      if v.name == name then walk(v.expr) end
    end
    return found
  end
  m.zeros = {} -- the named values computed over a structure of zeros (an absent one)
  function places.named(env, e, obj)
    if obj and obj.guard and obj.view == "rec" then
      -- an absent structure is the reader's zero structure: the value over zero bytes (not
      -- when it reads the root, which a context over zeros does not have)
      if reads_root(e.value_owner, e.value_name) then c_view.places.refuse("a named value of an optional structure") end
      local present = places.named(env, e, { kind = "struct", view = "rec", v = obj.v, type = obj.type })
      local key = e.value_owner .. "." .. e.value_name
      if not m.zeros[key] then
        m.zeros[#m.zeros + 1] = { owner = e.value_owner, name = e.value_name, float = e.vt == "float" }
        m.zeros[key] = true
      end
      local zero = string.format("%s_z_%s(c)", vt(e.value_owner), e.value_name)
      return { kind = present.kind, c = string.format("(%s ? %s : %s)", obj.guard, present.c, zero), prec = cexpr.P.cond,
        ty = present.ty }
    end
    local p = c_view.places.named(env, e, obj) -- (registers the value's function)
    if not env.memo then return p end
    local flat = p.c:match("^[%w_]+_fv_") ~= nil
    local key = e.value_owner .. "." .. e.value_name .. (flat and ".flat" or "")
    if not m.memos[key] then
      m.memos[#m.memos + 1] = { owner = e.value_owner, name = e.value_name, flat = flat, float = e.vt == "float" }
      m.memos[key] = #m.memos
    end
    local fn = c_view.value_fn(fmt, e.value_owner, e.value_name, flat)
    local memo = fn:gsub(flat and "_fv_([%w_]+)$" or "_v_([%w_]+)$", flat and "_fm_%1" or "_m_%1")
    return { kind = p.kind, c = memo .. p.c:sub(#fn + 1), prec = p.prec, ty = p.ty }
  end
  -- Arrays of structures that are not flat, and switch cases: views laid out again on access
  -- (the reader's validator reaches them through its structs).
  local function self_view(env) return env.self_flat or { kind = "struct", view = "rec", v = env.self } end
  local function arrow(o) return o.lv and (o.lv .. ".") or (o.v .. "->") end
  function places.field(env, owner, ref)
    local o = owner or self_view(env)
    local fl = ix.fields[ref.owner] and ix.fields[ref.owner][ref.name]
    if fl and o.view == "rec" and fl.kind == "struct" and fl.array and not c_view.is_flat(ix, ix.types[fl.type]) then
      local count = fl.fixed_count and tostring(fl.fixed_count) or (arrow(o) .. fl.name .. "_count")
      if o.guard and not fl.fixed_count then count = string.format("(%s ? %s : 0)", o.guard, count) end
      local at = fl.offset and string.format("%s_offset + %d", arrow(o), fl.offset) or (arrow(o) .. fl.name .. "_at")
      local p = "c->data + " .. at
      if o.guard then p = string.format("(%s ? %s : bf_view_zeros)", o.guard, p) end
      return { kind = "array", rec = true, field = fl, count = count, owner_t = ref.owner, p = p,
        owner_v = o.lv and ("&" .. o.lv) or o.v, walk = c_view.reach(ix, fl) == "walk" }
    end
    if fl and o.view == "rec" and fl.kind == "struct" and not fl.array and not c_view.embedded(ix, fl)
        and not c_view.is_flat(ix, ix.types[fl.type]) then
      -- laid out again into a view declared before the expression
      if not env.pre then c_view.places.refuse("a structure reached here") end
      env.counter.n = env.counter.n + 1
      local name = "sub" .. env.counter.n
      local call = string.format("%s(%s)", acc(ref.owner, fl.name), o.lv and ("&" .. o.lv) or o.v)
      local guard = fl.cond and (arrow(o) .. "has_" .. fl.name)
      if o.guard then
        -- (an absent owner has no view to lay it out from: it reads as zeros)
        env.pre[#env.pre + 1] = string.format("%s %s;", vt(fl.type), name)
        env.pre[#env.pre + 1] = string.format("if (%s)", unwrapped(o.guard))
        env.pre[#env.pre + 1] = string.format("    %s = %s;", name, call)
        env.pre[#env.pre + 1] = "else"
        env.pre[#env.pre + 1] = string.format("    memset(&%s, 0, sizeof %s);", name, name)
        guard = guard and string.format("%s && %s", o.guard, guard) or o.guard
      else
        env.pre[#env.pre + 1] = string.format("%s %s = %s;", vt(fl.type), name, call)
      end
      return { kind = "struct", view = "rec", v = "(&" .. name .. ")", type = fl.type, guard = guard }
    end
    if fl and not owner and env.self == "s" and not env.self_flat and fl.offset and not fl.cond and fl.kind == "prim" then
      -- a number of the structure being validated: from where it starts
      local ptr = start_of(fl)
      if not fl.array then
        if fl.prim_size == 1 then -- (a byte is indexed: base[n])
          return cexpr.prim_piece(fl.prim, (names.load(fl.prim, fl.endian, "base"):gsub("%[0%]", "[" .. fl.offset .. "]", 1)))
        end
        return cexpr.prim_piece(fl.prim, names.load(fl.prim, fl.endian, ptr))
      end
      if fl.fixed_count then return { kind = "array", p = ptr, count = tostring(fl.fixed_count), field = fl, width = fl.prim_size } end
    end
    if fl and fl.kind == "str" and fl.str_len and not fl.array and (fl.offset or o.view == "rec") then
      -- a fixed-size string: where it lies (for len())
      local ptr
      if o.view == "flat" then
        ptr = fl.offset == 0 and o.p or string.format("%s + %d", o.p, fl.offset)
      elseif not owner and env.self == "s" and not env.self_flat then
        ptr = start_of(fl)
      else
        ptr = "c->data + " .. (fl.offset and string.format("%s_offset + %d", arrow(o), fl.offset) or (arrow(o) .. fl.name .. "_at"))
        if o.guard then ptr = string.format("(%s ? %s : bf_view_zeros)", o.guard, ptr) end
      end
      return { kind = "string", p = ptr, size = fl.str_len }
    end
    local p = c_view.places.field(env, owner, ref)
    if p.kind == "switch" and o.view == "rec" and not o.guard then
      p.owner_t, p.owner_v = ref.owner, o.lv and ("&" .. o.lv) or o.v
    end
    return p
  end
  function places.each(env, arr, i, it, elem_env, pre, body, outer)
    if not arr.rec then return c_view.places.each(env, arr, i, it, elem_env, pre) end
    local fl = arr.field
    if arr.walk then
      -- one after the other: each element starts where the one before ends
      outer[#outer + 1] = string.format("%s %s;", vt(fl.type), it)
      pre[#pre + 1] = string.format("    if (!(%s ? %s(%s, &%s) : %s(%s, &%s)))", i, acc(arr.owner_t, fl.name .. "_next"),
        arr.owner_v, it, acc(arr.owner_t, fl.name .. "_first"), arr.owner_v, it)
      pre[#pre + 1] = "        break;"
      elem_env.it = "(&" .. it .. ")"
      return
    end
    if m.reads_only_fixed({ body }, fl.type) then
      -- only numbers at fixed offsets: read where the element lies, without laying it out
      pre[#pre + 1] = string.format("    const uint8_t *%s = %s + (size_t)%s * %d;", it, arr.p, i, ix.types[fl.type].size)
      elem_env.it, elem_env.it_bytes = it, it
      return
    end
    pre[#pre + 1] = string.format("    %s %s = %s(%s, %s);", vt(fl.type), it, acc(arr.owner_t, fl.name .. "_at"), arr.owner_v, i)
    elem_env.it = "(&" .. it .. ")"
  end
  -- offset(a): a place in an absent structure is where the reader's zero structure puts it
  function places.offset(env, a)
    local owner = a.k == "member" and cexpr.place(a.a, env) or self_view(env)
    local fl = ix.fields[a.field.owner][a.field.name]
    if owner.view == "flat" then
      return cexpr.int_piece(string.format("(int64_t)(%s + %d - c->data)", owner.p, fl.offset), cexpr.P.unary, "i64")
    end
    local pre = arrow(owner)
    local at = fl.offset and string.format("%s_offset + %d", pre, fl.offset) or (pre .. fl.name .. "_at")
    if owner.guard then at = string.format("%s ? %s : %d", owner.guard, at, fl.offset or 0) end
    return cexpr.int_piece(string.format("(int64_t)(%s)", at), cexpr.P.unary, "i64")
  end
  -- the root, in a validator: R, declared when used
  function places.root(env, e)
    if env.self ~= "s" then return c_view.places.root(env, e) end
    return { kind = "struct", view = "rec", v = "R", type = e.vtype }
  end
  function places.len(env, a)
    if a.kind == "string" and a.p then
      return cexpr.int_piece(string.format("bf_view_fixed_str_len(%s, %d)", a.p, a.size), cexpr.P.primary, "i64")
    end
    return c_view.places.len(env, a)
  end
  function places.value(env, name, vtype)
    if vtype == "struct" and name == "it" and env.it_bytes and env.it_bytes == env.it then
      return { kind = "struct", view = "flat", p = env.it, type = env.elem_field.type }
    end
    return c_view.places.value(env, name, vtype)
  end
  function places.element(env, arr, i)
    if arr.rec then
      -- an element of a fixed size: its bytes (what needs it laid out is then refused)
      local size = ix.types[arr.field.type].size
      if arr.walk or not size then c_view.places.refuse("indexing an array of " .. arr.field.type) end
      local n = tonumber(arr.count)
      local p = string.format("bf_view_elem(c, %s, %d, %s, %s)", arr.p, size, arr.count, i.c)
      if i.lit and n and i.lit >= 0 and i.lit < n then p = string.format("(%s + %d)", arr.p, i.lit * size) end
      return { kind = "struct", view = "flat", p = p, type = arr.field.type }
    end
    local n = tonumber(arr.count)
    if i.lit and n and i.lit >= 0 and i.lit < n and arr.field.kind == "prim" then
      -- a constant index inside a constant count: no check to make
      local fl = arr.field
      if fl.prim_size == 1 then
        return cexpr.prim_piece(fl.prim, names.load(fl.prim, fl.endian, "(" .. arr.p .. ")"):gsub("%[0%]", "[" .. i.lit .. "]", 1))
      end
      local ptr, k = arr.p, i.lit * arr.width
      local head, at = ptr:match("^(.-) %+ (%d+)$")
      if head and not head:find("[?:]") then ptr, k = head, k + tonumber(at) end
      ptr = k == 0 and ptr or string.format("%s + %d", ptr, k)
      return cexpr.prim_piece(fl.prim, names.load(fl.prim, fl.endian, ptr))
    end
    return c_view.places.element(env, arr, i)
  end
  -- a case of a switch: its view, declared before the expression (a view over zeros when the
  -- switch holds another case, which the guard makes read as zeros)
  function places.case(env, e, obj)
    if not obj.owner_v or not rawget(env, "pre") and not env.pre then c_view.places.refuse("a switch case here") end
    env.counter.n = env.counter.n + 1
    local name = "case" .. env.counter.n
    env.pre[#env.pre + 1] = string.format("%s %s = %s(%s);", vt(e.name), name,
      acc(obj.owner_t, obj.field.name .. "_" .. e.name), obj.owner_v)
    return { kind = "struct", view = "rec", v = "(&" .. name .. ")", type = e.name,
      guard = string.format("(%s == %s)", obj.kind_c, names.kind_const(fmt, e.name)) }
  end
  m.places = places
  -- (env.it_bytes: the `_it` that is an element's bytes rather than its view.)
  -- Whether expressions use the element `_it` (of type `tname`) only for numbers at fixed
  -- offsets in it: then an element of a fixed size need not be laid out to evaluate them.
  -- (A quantifier inside binds its own _it: only its array is looked at.)
  function m.reads_only_fixed(exprs, tname)
    local fields = ix.fields[tname]
    local function fixed(ref)
      local fl = ref and ref.owner == tname and fields[ref.name]
      return fl and fl.offset and not fl.cond and fl.kind == "prim" and (not fl.array or fl.fixed_count) and true
    end
    local ok = true
    local function walk(e)
      if type(e) ~= "table" or not ok then return end
      if e.k == "name" and (e.ref == "it" or e.ref == "prev") then ok = false return end
      if e.k == "member" and e.a and e.a.k == "name" and e.a.ref == "it" then
        if e.ref == "named" or e.ref == "case" or not fixed(e.field) then ok = false end
        return
      end
      if e.k == "call" and cexpr.quantifiers[e.name] then return walk(e.args[1]) end
      walk(e.a); walk(e.b); walk(e.c)
      for _, x in ipairs(e.args or {}) do walk(x) end
    end
    for _, e in ipairs(exprs) do walk(e) end
    return ok and ix.types[tname].size ~= nil
  end
  function m.self_type(tname) return vt(tname) end
  function m.value(fl, i)
    if fl.kind ~= "prim" then c_view.places.refuse("a check of a " .. fl.kind .. " field") end
    if i then
      if i:find(" ") then i = "(" .. i .. ")" end
      return names.load(fl.prim, fl.endian, string.format("(%s + (size_t)%s * %d)", start_of(fl), i, fl.prim_size))
    end
    if fl.prim_size == 1 then return names.load(fl.prim, fl.endian, "(" .. start_of(fl) .. ")") end
    return names.load(fl.prim, fl.endian, start_of(fl))
  end
  function m.env(extra)
    local env = { fmt = fmt, ix = ix, self = "s", places = places }
    for k, v in pairs(extra) do env[k] = v end
    return env
  end
  function m.each_struct(fl, env, r)
    local T = ix.types[fl.type]
    local how = c_view.reach(ix, fl)
    local exprs = { r.check, r.at }
    for _, part in ipairs(r.parts) do exprs[#exprs + 1] = part.value end
    if how == "stride" and m.reads_only_fixed(exprs, fl.type) then
      how, env.it_bytes = "flat", "it" -- (only numbers at fixed offsets: no need to lay it out)
    end
    if how == "flat" then
      -- a structure of a fixed size: its bytes
      env.flat_elems = true
      env.it, env.prev = "it", "prev"
      return { it = string.format("const uint8_t *it = c->data + %s + (size_t)i * %d;", field_pos(fl), T.size),
        prev = string.format("const uint8_t *prev = i ? it - %d : bf_view_zeros;", T.size), pos = "(int64_t)(it - c->data)" }
    end
    -- laid out again, one after the other (the previous one kept for _prev)
    local S = vt(fl.type)
    env.it, env.prev = "(&ev)", "(i ? &pv : NULL)"
    local next_c = how == "stride" and string.format("ev = %s(s, i);", acc(t_of(fl), fl.name .. "_at")) or
      string.format("(void)(i ? %s(s, &ev) : %s(s, &ev));", acc(t_of(fl), fl.name .. "_next"), acc(t_of(fl), fl.name .. "_first"))
    return { outer = string.format("%s ev = {0};", S), outer_prev = string.format("%s pv = {0};", S), it = next_c,
      prev_keep = "pv = ev;", pos = "(int64_t)ev._offset" }
  end
  function m.visit_struct(fl, w, guard)
    local S, owner = vt(fl.type), t_of(fl)
    if not fl.array then
      w(string.format('    %sif (bf_push(c, "%s", -1)) {', guard, fl.name))
      if c_view.embedded(ix, fl) then
        w(string.format("        validate_%s(v, &s->%s);", fl.type, fl.name))
      else
        w(string.format("        %s e = %s(s);", S, acc(owner, fl.name)))
        w(string.format("        validate_%s(v, &e);", fl.type))
      end
      w("        bf_pop(c);")
      w("    }")
      return
    end
    local how = c_view.reach(ix, fl)
    local block = guard ~= "" or how == "walk" -- (a walk's element lives in a block of its own)
    local pad = block and "    " or ""
    if block then w("    " .. guard .. "{") end
    if how == "walk" then w(string.format("%s    %s e;", pad, S)) end
    w(string.format("%s    for (uint32_t i = 0; i < %s; i++) {", pad, count_of(fl)))
    if how == "walk" then
      -- (every element is walked to: the next starts where it ends)
      w(string.format("%s        if (!(i ? %s(s, &e) : %s(s, &e)))", pad, acc(owner, fl.name .. "_next"), acc(owner, fl.name .. "_first")))
      w(pad .. "            break;")
    else
      w(string.format("%s        %s e = %s(s, i);", pad, S, acc(owner, fl.name .. "_at")))
    end
    w(string.format('%s        if (bf_push(c, "%s", i)) {', pad, fl.name))
    w(string.format("%s            validate_%s(v, &e);", pad, fl.type))
    w(pad .. "            bf_pop(c);")
    w(pad .. "        }")
    w(pad .. "    }")
    if block then w("    }") end
  end
  function m.visit_case(fl, case, w)
    w(string.format('    if (s->%s_kind == %s && bf_push(c, "%s", -1)) {', fl.name, names.kind_const(fmt, case.type), fl.name))
    w(string.format("        %s e = %s(s);", vt(case.type), acc(t_of(fl), fl.name .. "_" .. case.type)))
    w(string.format("        validate_%s(v, &e);", case.type))
    w("        bf_pop(c);")
    w("    }")
  end
  return m
end

return view_mode
end
