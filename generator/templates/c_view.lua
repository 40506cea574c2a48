-- <format>_view.h / <format>_view.c: views, the zero-copy reading mode.
--
-- A view of a structure is a small C struct: where the structure starts, its index and
-- parameters, and where each field lies when that is not a constant offset (plus counts,
-- switch kinds and presence). `lay_T` computes it from the input with every check the full
-- reader makes (bounds, counts, offsets, constants, string references); opening a view lays
-- the whole document out once (deep), and accessors lay a sub-structure again on demand
-- (shallow), so nothing is stored but the root's view. Fields are decoded from the input
-- bytes when asked for: bulk arrays of numbers stay where they are.
local names = require("names")
local R = require("c_reader")
local cexpr = require("cexpr")

local M = {}

local function ct(fmt, t) return names.ctype(fmt, t) end
-- (asked for at nearly every line written: made once per type)
local view_names = setmetatable({}, { __mode = "k" })
local function vt(fmt, t)
  local of_fmt = view_names[fmt]
  if not of_fmt then
    of_fmt = {}
    view_names[fmt] = of_fmt
  end
  local name = of_fmt[t]
  if not name then
    name = names.ctype(fmt, t) .. "_view"
    of_fmt[t] = name
  end
  return name
end

-- A construct views do not handle yet: the format then gets no views (its name and the
-- reason are in the generated header comment of formats that do, and in LANGUAGE.md).
local function unsupported(what) error({ views_unsupported = what }) end

local function index(fmt)
  local ix = names.index(fmt)
  ix.view_values = {} -- the named values expressions use: functions over views
  ix.derived = {} -- the `derive:` fields that have an accessor ("Type.field")
  ix.fields = {}
  for _, t in ipairs(fmt.types) do
    local m = {}
    for _, fl in ipairs(t.fields) do m[fl.name] = fl end
    ix.fields[t.name] = m
  end
  return ix
end

local function full_field(ix, ref)
  local m = ix.fields[ref.owner]
  return (m and m[ref.name]) or unsupported("field " .. tostring(ref.name))
end

local function is_flat(ix, t) return R.is_flat(ix, t) and t.size ~= nil and t.size <= 1024 end

-- A structure inline (not located, not in an array, not flat) keeps its view inside its
-- parent's: expressions reach its fields, and accessors need not lay it out again.
local function embedded(ix, fl)
  return fl.kind == "struct" and not fl.array and not fl.pos and not is_flat(ix, ix.types[fl.type])
end

-- Types in an order where an embedded view is defined before the view holding it.
local function view_order(fmt, ix)
  local out, done = {}, {}
  local function visit(t)
    if done[t.name] then return end
    done[t.name] = true
    for _, fl in ipairs(t.fields) do
      if embedded(ix, fl) then visit(ix.types[fl.type]) end
    end
    out[#out + 1] = t
  end
  for _, t in ipairs(fmt.types) do visit(t) end
  return out
end

-- Any check inside a flat structure (constants): then its elements are laid out one by one.
local function flat_has_checks(ix, t, seen)
  seen = seen or {}
  if seen[t.name] then return false end
  seen[t.name] = true
  for _, fl in ipairs(t.fields) do
    if fl.const or fl.const_str then return true end
    if fl.kind == "struct" and flat_has_checks(ix, ix.types[fl.type], seen) then return true end
  end
  return false
end

local function uses_prev(e)
  if type(e) ~= "table" then return false end
  if e.k == "name" and e.ref == "prev" then return true end
  for k, v in pairs(e) do
    if k ~= "field" and type(v) == "table" and uses_prev(v) then return true end
  end
  return false
end

-- ---- expressions over views: cexpr.lua with these places ------------------------------
--
-- A structure is a "struct" piece: `view = "rec"`, a view (`v`, a pointer, or `lv`, the
-- view itself, when it is embedded; `guard`, a condition it depends on: an optional one or
-- the NULL of a first element's _prev), or `view = "flat"`, the address `p` of a structure
-- of a fixed size in the input. Numbers are loaded from the input where they lie.
local P = cexpr.P
local places = {}

function places.refuse(what) unsupported(what) end

-- The C load of primitive field `fl` at byte address `ptr` (C text), as a piece.
local function load_piece(fl, ptr)
  if fl.prim_size == 1 then
    -- a byte is indexed: `base + n` as base[n] (names.load adds the [0])
    local base, n = ptr:match("^([%w_]+[%w_>%-]*) %+ (.+)$")
    if base and not n:find("[?:]") then return cexpr.prim_piece(fl.prim, names.load(fl.prim, fl.endian, base):gsub("%[0%]", "[" .. n .. "]", 1)) end
    ptr = "(" .. ptr .. ")"
  end
  return cexpr.prim_piece(fl.prim, names.load(fl.prim, fl.endian, ptr))
end

local function self_view(env) return env.self_flat or { kind = "struct", view = "rec", v = env.self } end

-- What goes before a member of the view `o`.
local function arrow(o)
  if o.lv then return o.lv .. "." end
  return o.v .. "->"
end

-- Text guarded by `guard`: `otherwise` when it does not hold.
local function guarded(guard, c, otherwise)
  if not guard then return c end
  return string.format("%s ? %s : %s", guard, c, otherwise)
end

function places.field(env, owner, ref)
  owner = owner or self_view(env)
  local fl = full_field(env.ix, ref)
  local ptr, count, has
  if owner.view == "rec" then
    local pre = arrow(owner)
    local at = fl.offset and string.format("%s_offset + %d", pre, fl.offset) or (pre .. fl.name .. "_at")
    ptr = "c->data + " .. at
    count = fl.fixed_count and tostring(fl.fixed_count) or (pre .. fl.name .. "_count")
    if fl.cond then has = pre .. "has_" .. fl.name end
    local g = owner.guard
    if g then
      ptr = "(" .. guarded(g, ptr, "bf_view_zeros") .. ")"
      if not fl.fixed_count then count = "(" .. guarded(g, count, "0") .. ")" end
      if has then has = g .. " && " .. has end
    end
  else
    if not fl.offset or fl.cond then unsupported("an expression reaching " .. fl.name .. ", which has no fixed offset") end
    ptr = fl.offset == 0 and owner.p or string.format("%s + %d", owner.p, fl.offset)
    count = fl.fixed_count and tostring(fl.fixed_count)
  end
  local k = fl.kind
  if k == "prim" and not fl.array then
    local p = load_piece(fl, ptr)
    if has then
      p = { kind = p.kind, c = guarded(has, p.c, "0"), prec = P.cond, ty = p.ty, nn = p.nn }
    end
    return p
  end
  if k == "prim" or (k == "struct" and fl.array) then
    local width = fl.prim_size
    if k == "struct" then
      local sub = env.ix.types[fl.type]
      if not is_flat(env.ix, sub) then unsupported("an expression indexing " .. fl.type) end
      width = sub.size
    end
    if not count then unsupported("variable array in a flat structure") end
    return { kind = "array", p = ptr, count = count, field = fl, width = width }
  end
  if k == "struct" then
    if owner.view == "rec" and embedded(env.ix, fl) then
      local lv = arrow(owner) .. fl.name
      return { kind = "struct", view = "rec", lv = lv, v = "(&" .. lv .. ")", type = fl.type, guard = has or owner.guard }
    end
    if has then unsupported("an expression reaching into an optional structure") end
    return { kind = "struct", view = "flat", p = ptr, type = fl.type }
  end
  if k == "bytes" then return { kind = "bytes", p = ptr, len = count } end
  if k == "switch" and owner.view == "rec" then
    return { kind = "switch", kind_c = arrow(owner) .. fl.name .. "_kind", field = ref }
  end
  unsupported("an expression using a " .. k .. " field")
end

-- _it, _prev, _value: C text the environment binds, of element field env.elem_field.
function places.value(env, name, vtype)
  local c = env[name]
  if not c then unsupported("the name _" .. name) end
  local fl = env.elem_field
  if vtype == "struct" then
    local sub = fl and env.ix.types[fl.type]
    if sub and is_flat(env.ix, sub) and env.flat_elems then return { kind = "struct", view = "flat", p = c, type = fl.type } end
    return { kind = "struct", view = "rec", v = c, type = fl and fl.type, guard = name == "prev" and c or nil }
  end
  if vtype == "string" then unsupported("string values") end
  -- typed when the same environment binds it and its field (an outer _value is not this one)
  if fl and fl.prim and rawget(env, name) == c and rawget(env, "elem_field") == fl then return cexpr.prim_piece(fl.prim, c) end
  local p = cexpr.int_piece(c, cexpr.text_prec(c), "any")
  if vtype == "float" then return { kind = "float", c = "(double)" .. cexpr.paren(p, P.unary), prec = P.unary, ty = "double" } end
  return p
end

function places.root(env, e)
  return { kind = "struct", view = "rec", v = string.format("((const %s *)c->root)", vt(env.fmt, e.vtype)), type = e.vtype }
end

-- The function computing named value `name` of `owner` over a view (over the bytes of a
-- structure of a fixed size when `flat`).
local function value_fn(fmt, owner, name, flat)
  return string.format("%s_%s_%s", vt(fmt, owner), flat and "fv" or "v", name)
end

-- A named value: a call of its function (see value_functions), written once per format.
function places.named(env, e, obj)
  obj = obj or self_view(env)
  if obj.guard then unsupported("a named value of an optional structure") end
  local flat = obj.view == "flat"
  local key = e.value_owner .. "." .. e.value_name .. (flat and ".flat" or "")
  local used = env.ix.view_values
  if not used[key] then
    used[key] = true
    used[#used + 1] = { owner = e.value_owner, name = e.value_name, flat = flat }
  end
  local c = string.format("%s(c, %s)", value_fn(env.fmt, e.value_owner, e.value_name, flat),
    flat and obj.p or obj.lv and ("&" .. obj.lv) or obj.v)
  if e.vt == "float" then return { kind = "float", c = c, prec = P.primary, ty = "double" } end
  return cexpr.int_piece(c, P.primary, "i64")
end

function places.case() unsupported("a switch case in an expression") end

-- first_nonzero() whose leading arguments are 3 or more consecutive unsigned fields of the
-- view (a table of offsets, each table running to the next): one runtime call over their
-- bytes; nil for cexpr's chain of bf_nonzero_or.
local function scannable(fl)
  local info = fl.kind == "prim" and not fl.array and not fl.cond and fl.offset and names.prims[fl.prim]
  return info and not info.signed and not info.float and info.size <= 4 and info.size ~= 3
end

function places.first_nonzero(env, e)
  local owner = self_view(env)
  if owner.view ~= "rec" or owner.guard then return nil end
  local first, n
  for i, a in ipairs(e.args) do
    if a.k ~= "name" or a.ref ~= "field" then break end
    local fl = full_field(env.ix, a.field)
    if not scannable(fl) then break end
    if not first then
      first = fl
    elseif fl.prim ~= first.prim or fl.endian ~= first.endian or fl.offset ~= first.offset + (i - 1) * fl.prim_size then
      break
    end
    n = i
  end
  if not n or n < 3 then return nil end
  local rest = { table.unpack(e.args, n + 1) }
  local otherwise = "0" -- (all of them zero: the last one's value)
  if #rest == 1 then
    otherwise = cexpr.value(rest[1], env)
  elseif #rest > 1 then
    otherwise = cexpr.value({ k = "call", name = "first_nonzero", args = rest, vt = e.vt }, env)
  end
  local c = string.format("bf_view_first_nonzero(c->data + %s_offset + %d, %d, %d, %d, %s)", arrow(owner), first.offset, n,
    first.prim_size, first.endian == "be" and 1 or 0, otherwise)
  return cexpr.int_piece(c, P.primary, "i64")
end

function places.element(env, arr, i)
  local elem = string.format("bf_view_elem(c, %s, %d, %s, %s)", arr.p, arr.width, arr.count, i.c)
  local fl = arr.field
  if fl.kind == "struct" then return { kind = "struct", view = "flat", p = elem, type = fl.type } end
  return load_piece(fl, elem)
end

function places.each(env, arr, i, it, elem_env, pre)
  local fl = arr.field
  pre[#pre + 1] = string.format("    const uint8_t *%s = %s + (size_t)%s * %d;", it, arr.p, i, arr.width)
  if fl.kind == "struct" then
    elem_env.flat_elems = true
    elem_env.it = it
    elem_env.prev = string.format("(%s ? %s - %d : bf_view_zeros)", i, it, arr.width)
  else
    elem_env.it = load_piece(fl, it).c
    elem_env.prev = string.format("(%s ? %s : 0)", i, names.load(fl.prim, fl.endian, string.format("(%s - %d)", it, arr.width)))
  end
end

function places.offset(env, a)
  local owner = a.k == "member" and cexpr.place(a.a, env) or self_view(env)
  local fl = full_field(env.ix, a.field)
  if owner.view == "flat" then
    return cexpr.int_piece(string.format("(int64_t)(%s + %d - c->data)", owner.p, fl.offset), P.unary, "i64")
  end
  if owner.view ~= "rec" or owner.guard then unsupported("offset() of this place") end
  local pre = arrow(owner)
  if fl.offset then return cexpr.int_piece(string.format("(int64_t)(%s_offset + %d)", pre, fl.offset), P.unary, "i64") end
  return cexpr.int_piece(string.format("(int64_t)%s%s_at", pre, fl.name), P.unary, "i64")
end

function places.len(env, a)
  if a.kind == "array" and a.field.fixed_count then return cexpr.literal(a.field.fixed_count) end
  local n = a.count or a.len
  if a.kind ~= "array" and a.kind ~= "bytes" or not n then unsupported("len() of this place") end
  return cexpr.int_piece("(int64_t)" .. n, P.unary, "i64")
end

function places.lz4_size(env, b, n)
  return cexpr.int_piece(string.format("bf_lz4_size(%s, %s, %s)", b.p, b.len, n), P.primary, "i64")
end

-- An environment over the view `self` (C text of its pointer).
local function view_env(fmt, ix, self)
  return { fmt = fmt, ix = ix, self = self, places = places }
end

-- ---- the view structs --------------------------------------------------------------------

-- Where a field's value starts, as a C offset into the input, for view `v`.
local function at_c(fl, v)
  if fl.offset then return string.format("%s->_offset + %d", v, fl.offset) end
  return string.format("%s->%s_at", v, fl.name)
end

local function needs_count(fl)
  return (fl.array and not fl.fixed_count) or fl.kind == "bytes"
end

local function view_struct(fmt, ix, t)
  local o = {}
  local function w(s) o[#o + 1] = s end
  w(string.format("/* %s */", names.comment(t.doc)))
  w(string.format("struct %s {", vt(fmt, t.name)))
  w("    const bf_view_doc *_doc;")
  w("    size_t _offset;   /* where it starts in the input */")
  w("    size_t _end;      /* where the cursor was after it */")
  w("    size_t _lim;      /* end of the region it was laid out in */")
  w("    int64_t _index;   /* its index in the array holding it, else 0 */")
  for _, p in ipairs(t.params) do w("    int64_t _p_" .. p.name .. ";") end
  for _, fl in ipairs(t.fields) do
    if not fl.offset then w(string.format("    size_t %s_at;", fl.name)) end
    if needs_count(fl) then w(string.format("    size_t %s_count;", fl.name)) end
    if fl.kind == "struct" or fl.kind == "switch" then w(string.format("    size_t %s_lim;", fl.name)) end
    if fl.kind == "switch" then w(string.format("    int %s_kind;", fl.name)) end
    if fl.cond then w(string.format("    uint8_t has_%s;", fl.name)) end
    if embedded(ix, fl) then w(string.format("    %s %s;", vt(fmt, fl.type), fl.name)) end
  end
  w("};")
  return table.concat(o, "\n")
end

-- ---- laying a structure out --------------------------------------------------------------

local function lay_sig(fmt, t)
  local sig = { "bf_ctx *c", "const bf_view_doc *d", vt(fmt, t.name) .. " *v", "int64_t index", "int deep" }
  for _, p in ipairs(t.params) do sig[#sig + 1] = "int64_t p_" .. p.name end
  return string.format("int %s_view_lay_%s(%s)", fmt.name, t.name, table.concat(sig, ", "))
end

-- The arguments of a call to lay_<field's type> for element `index_c`, evaluated over the
-- parent view `self` (and `prev_c`, the previous element's view or NULL).
local function args_c(env, fl, index_c, prev_c)
  local t = env.ix.types[fl.type]
  local parts = {}
  local e2 = setmetatable({ index = "(int64_t)" .. index_c, prev = prev_c, elem_field = fl }, { __index = env })
  for _, p in ipairs(t.params) do parts[#parts + 1] = ", " .. cexpr.value(fl.args[p.name], e2) end
  return table.concat(parts)
end

local function fail_c(what, name, fmt_s, ...)
  return string.format('return bf_fail(c, c->pos, "%s", "%s"%s);', name, fmt_s, select("#", ...) > 0 and (", " .. table.concat({ ... }, ", ")) or "")
end

-- The bytes of a field that only needs its bytes to be there (a number, a fixed-size string
-- or number array, a flat structure without checks), or nil: a run of such fields is laid
-- out with one bounds check.
local function plain_size(ix, fl)
  if fl.cond or fl.align or fl.pos or fl.size or fl.padding or fl.const or fl.const_str then return nil end
  if fl.array and not fl.fixed_count then return nil end
  local n, k = fl.fixed_count or 1, fl.kind
  if k == "prim" then return n * fl.prim_size end
  if k == "str" and fl.str_len then return n * fl.str_len end
  if k == "struct" then
    local T = ix.types[fl.type]
    if is_flat(ix, T) and #T.params == 0 and not flat_has_checks(ix, T) then return n * T.size end
  end
  return nil
end

-- Writes the C laying out field `fl` through `w` (which indents it).
local function lay_value(fmt, ix, t, fl, env, w)
  local name, k = fl.name, fl.kind
  -- (inside the block that declares n)
  local function checked_count(min)
    local function w2(s) w("    " .. s) end
    w2(string.format("int64_t n = %s;", cexpr.value(fl.count, env)))
    w2("if (c->err->failed)")
    w2("    return 0;")
    w2("if (n < 0 || n > (int64_t)UINT32_MAX)")
    w2(string.format('    return bf_fail(c, c->pos, "%s", "count %%lld is out of range", (long long)n);', name))
    if min then
      w2(string.format('if (!bf_view_count_fits(c, (uint64_t)n, %d, "%s"))', min, name))
      w2("    return 0;")
    end
  end
  if fl.string_table and fl.array then unsupported("arrays of string references") end

  if k == "prim" and not fl.array then
    local wsz = fl.prim_size
    w(string.format('if (!bf_need(c, %d, "%s"))', wsz, name))
    w("    return 0;")
    if fl.const then
      R.check_const(w, fl, names.load(fl.prim, fl.endian, "(c->data + c->pos)"), "c->pos", env)
    end
    w(string.format("c->pos += %d;", wsz))
    return
  end

  if k == "prim" then
    local wsz = fl.prim_size
    w("{")
    if fl.fixed_count then
      w(string.format("    const int64_t n = %d;", fl.fixed_count))
    elseif fl.count then
      checked_count(wsz)
      w(string.format("    v->%s_count = (size_t)n;", name))
    elseif fl.to_end then
      -- whole elements up to the end; a partial last one fails like the reader's
      w(string.format("    const int64_t n = (int64_t)((c->end - c->pos) / %d);", wsz))
      w(string.format("    v->%s_count = (size_t)n;", name))
      w(string.format("    if ((c->end - c->pos) %% %d) {", wsz))
      w(string.format("        c->pos += (size_t)n * %d;", wsz))
      w(string.format('        return bf_need(c, %d, "%s");', wsz, name))
      w("    }")
    else
      -- until: element by element, the condition on each
      w("    int64_t n = 0;")
      w("    for (;;) {")
      w(string.format("        if (c->pos + %d > c->end)", wsz))
      w(string.format('            return bf_fail(c, c->pos, "%s", "ends without its terminator (%s)");', name, fl["until"].text:gsub('"', '\\"'):gsub("%%", "%%%%")))
      local e2 = setmetatable({ it = names.load(fl.prim, fl.endian, "(c->data + c->pos)"), elem_field = fl }, { __index = env })
      w(string.format("        int stop = %s;", cexpr.truth(fl["until"], e2)))
      w(string.format("        c->pos += %d;", wsz))
      w("        n++;")
      w("        if (stop)")
      w("            break;")
      w("    }")
      w(string.format("    v->%s_count = (size_t)n;", name))
      w(string.format("    c->pos -= (size_t)n * %d; /* moved past below, with the others */", wsz))
    end
    w(string.format('    if (!bf_need(c, (uint64_t)n * %d, "%s"))', wsz, name))
    w("        return 0;")
    w(string.format("    c->pos += (size_t)n * %d;", wsz))
    w("}")
    return
  end

  if k == "struct" then
    local T = ix.types[fl.type]
    local flat = is_flat(ix, T)
    w(string.format("v->%s_lim = c->end;", name))
    if not fl.array and embedded(ix, fl) then
      w(string.format('if (!bf_push(c, "%s", -1) || !lay_%s(c, d, &v->%s, 0, deep%s))', name, fl.type, name, args_c(env, fl, "0", "NULL")))
      w("    return 0;")
      w("bf_pop(c);")
      return
    end
    if not fl.array then
      local e = "e_" .. name
      local skip = fl.pos and "1" or (T.size and not (flat and flat_has_checks(ix, T)) and "1")
      if skip and fl.pos then
        w("if (deep) {") -- (a located structure: nothing to move past)
      elseif skip then
        w("if (!deep) {")
        w(string.format('    if (!bf_need(c, %d, "%s"))', T.size, name))
        w("        return 0;")
        w(string.format("    c->pos += %d;", T.size))
        w("} else {")
      else
        w("{")
      end
      w(string.format("    %s %s;", vt(fmt, fl.type), e))
      w(string.format('    if (!bf_push(c, "%s", -1) || !lay_%s(c, d, &%s, 0, deep%s))', name, fl.type, e, args_c(env, fl, "0", "NULL")))
      w("        return 0;")
      w("    bf_pop(c);")
      w("}")
      return
    end
    local prev_used = uses_prev(fl.args)
    w("{")
    local bounded = fl.count or fl.fixed_count
    if fl.fixed_count then
      w(string.format("    const int64_t n = %d;", fl.fixed_count))
    elseif fl.count then
      checked_count(T.min_size)
      w(string.format("    v->%s_count = (size_t)n;", name))
    end
    if bounded and T.size and not prev_used and not (flat and flat_has_checks(ix, T)) then
      -- elements of a fixed size: one bound covers them, failing at the first element that
      -- does not fit, as the reader's check of a flat element does; others are laid out one
      -- by one when deep, and fail inside, as the reader's
      if flat then
        w(string.format('    if (!bf_view_need_elems(c, (uint64_t)n, %d, "%s"))', T.size, name))
        w("        return 0;")
        w(string.format("    c->pos += (size_t)n * %d;", T.size))
        w("}")
        return
      end
      w("    if (!deep) {")
      w(string.format('        if (!bf_need(c, (uint64_t)n * %d, "%s"))', T.size, name))
      w("            return 0;")
      w(string.format("        c->pos += (size_t)n * %d;", T.size))
      w("    } else {")
      w(string.format("        %s e;", vt(fmt, fl.type)))
      w("        for (int64_t i = 0; i < n; i++) {")
      w(string.format('            if (!bf_push(c, "%s", i) || !lay_%s(c, d, &e, i, deep%s))', name, fl.type, args_c(env, fl, "i", "NULL")))
      w("                return 0;")
      w("            bf_pop(c);")
      w("        }")
      w("    }")
      w("}")
      return
    end
    if fl.to_end and not prev_used and T.size and T.size > 0 and plain_size(ix, { kind = "struct", type = fl.type }) then
      -- elements of a fixed size that need only their bytes: as many as fit, a partial last
      -- one fails like the reader's
      w(string.format("    const int64_t n = (int64_t)((c->end - c->pos) / %d);", T.size))
      w(string.format("    v->%s_count = (size_t)n;", name))
      w(string.format("    if ((c->end - c->pos) %% %d != 0)", T.size))
      w(string.format('        return bf_view_need_elems(c, (uint64_t)n + 1, %d, "%s");', T.size, name))
      w(string.format("    c->pos += (size_t)n * %d;", T.size))
      w("}")
      return
    end
    local V = vt(fmt, fl.type)
    if prev_used then
      w(string.format("    %s e[2];", V))
    else
      w(string.format("    %s e;", V))
    end
    if bounded then
      w("    for (int64_t i = 0; i < n; i++) {")
    else
      w("    int64_t i = 0;")
      if fl.to_end then
        w("    for (; c->pos < c->end; i++) {")
      else
        w("    for (;; i++) {")
        w("        if (c->pos >= c->end)")
        w(string.format('            return bf_fail(c, c->pos, "%s", "ends without its terminator (%s)");', name, fl["until"].text:gsub('"', '\\"'):gsub("%%", "%%%%")))
      end
      w("        size_t before = c->pos;")
    end
    if prev_used then
      w(string.format("        %s *cur = &e[i & 1];", V))
      w(string.format("        const %s *prev = i ? &e[(i - 1) & 1] : NULL;", V))
    else
      w(string.format("        %s *cur = &e;", V))
    end
    w(string.format('        if (!bf_push(c, "%s", i) || !lay_%s(c, d, cur, i, deep%s))', name, fl.type, args_c(env, fl, "i", "prev")))
    w("            return 0;")
    w("        bf_pop(c);")
    if not bounded then
      if fl["until"] then
        local e2 = setmetatable({ it = "cur", elem_field = fl }, { __index = env })
        w(string.format("        if (%s) {", cexpr.cond(fl["until"], e2)))
        w("            i++;")
        w("            break;")
        w("        }")
      end
      w("        if (c->pos == before)")
      w(string.format('            return bf_fail(c, c->pos, "%s", "element %%u takes no bytes: the array would never end", (unsigned)i);', name))
    end
    w("    }")
    if not bounded then w(string.format("    v->%s_count = (size_t)i;", name)) end
    w("}")
    return
  end

  if k == "bytes" then
    w("{")
    if fl.count then
      w(string.format("    int64_t n = %s;", cexpr.value(fl.count, env)))
      w("    if (c->err->failed)")
      w("        return 0;")
      w("    if (n < 0)")
      w(string.format('        return bf_fail(c, c->pos, "%s", "length %%lld is negative", (long long)n);', name))
    else
      w("    int64_t n = (int64_t)(c->end - c->pos);")
    end
    w(string.format('    if (!bf_need(c, (uint64_t)n, "%s"))', name))
    w("        return 0;")
    w(string.format("    v->%s_count = (size_t)n;", name))
    w("    c->pos += (size_t)n;")
    w("}")
    return
  end

  if k == "str" or k == "cstr" then
    local function one(ind)
      if k == "cstr" then
        w(ind .. string.format('if (!bf_read_cstr(c, "%s", &s))', name))
      else
        w(ind .. string.format('if (!bf_read_fixed_str(c, %d, "%s", &s))', fl.str_len, name))
      end
      w(ind .. "    return 0;")
      if fl.const_str then
        local len = k == "str" and fl.str_len or #fl.const_str
        w(ind .. string.format('if (!bf_expect_bytes(c, c->pos - %d, "%s", (const uint8_t *)s.ptr, %s, %d))', k == "str" and fl.str_len or (len + 1), name, names.cstring(fl.const_str), len))
        w(ind .. "    return 0;")
      end
    end
    w("{")
    w("    bf_str s;")
    if not fl.array then
      one("    ")
    else
      if k == "cstr" then unsupported("arrays of zero-terminated strings") end
      if fl.fixed_count then
        w(string.format("    const int64_t n = %d;", fl.fixed_count))
      else
        checked_count(fl.min_elem_size)
        w(string.format("    v->%s_count = (size_t)n;", name))
      end
      w("    for (int64_t i = 0; i < n; i++) {")
      one("        ")
      w("    }")
    end
    w("}")
    return
  end

  if k == "switch" then
    w("{")
    w(string.format("    int64_t tag = %s;", cexpr.value(fl.switch_on, env)))
    w("    if (c->err->failed)")
    w("        return 0;")
    w(string.format("    v->%s_lim = c->end;", name))
    w("    switch (tag) {")
    local default
    local function lay_case(case, kind_c)
      if case.type then
        local T = ix.types[case.type]
        if #T.params > 0 then unsupported("switch cases with parameters") end
        w(string.format("        v->%s_kind = %s;", name, names.kind_const(fmt, case.type)))
        if fl.pos then w("        if (deep) {") else w("        {") end
        w(string.format("            %s e;", vt(fmt, case.type)))
        w(string.format('            if (!bf_push(c, "%s", -1) || !lay_%s(c, d, &e, 0, deep))', name, case.type))
        w("                return 0;")
        w("            bf_pop(c);")
        w("        }")
      else
        if kind_c then w(string.format("        v->%s_kind = %s;", name, kind_c)) end
        w("        c->pos = c->end;")
      end
    end
    for case_no, case in ipairs(fl.cases) do
      if case.default then
        default = case
      else
        w(string.format("    case %s: /* %s */", names.i64(case.value), case.label))
        lay_case(case, names.raw_case_kind(fmt, fl, case_no))
        w("        break;")
      end
    end
    w("    default:")
    if default then
      lay_case(default, nil)
    else
      w(string.format('        return bf_fail(c, c->pos, "%s", "no case for tag %%lld (0x%%llx)", (long long)tag, (unsigned long long)tag);', name))
    end
    w("        break;")
    w("    }")
    w("}")
    return
  end
  unsupported("field kind " .. k)
end

-- Appends the C of field `fl` to the function's lines `L`, one level in.
local function lay_field(fmt, ix, t, fl, env, L)
  local lines = R.field_frame(fl, env, 1, "v", false, "/* " .. fl.name .. " */",
    function(w) lay_value(fmt, ix, t, fl, env, w) end)
  table.move(lines, 1, #lines, #L + 1, L)
  return L
end

-- One check for a run of plain fields; when it fails, the runtime names the field the input
-- ends in, as checking them one by one would.
local function lay_run(w, run)
  local total, entries = 0, {}
  for _, r in ipairs(run) do
    entries[#entries + 1] = string.format('{"%s", %d}', r.fl.name, r.size)
    total = total + r.size
  end
  local first = run[1].fl.name
  w(string.format("    /* %s .. %s: %d bytes */", first, run[#run].fl.name, total))
  w(string.format("    static const bf_view_field %s_run[] = {%s};", first, table.concat(entries, ", ")))
  w(string.format("    if (!bf_view_need_run(c, %d, %s_run, %d))", total, first, #run))
  w("        return 0;")
  local at = 0
  for _, r in ipairs(run) do
    if not r.fl.offset then w(string.format("    v->%s_at = c->pos + %d;", r.fl.name, at)) end
    if r.fl.kind == "struct" then w(string.format("    v->%s_lim = c->end;", r.fl.name)) end
    at = at + r.size
  end
  w(string.format("    c->pos += %d;", total))
end

-- The body of a structure the reader checks as a whole (R.is_flat): one bound, as the
-- reader's, then only its constants, at their fixed offsets (nested ones laid out, for their
-- paths). nil when a field has a check this does not know (then fields are laid one by one).
local function lay_flat(fmt, ix, t)
  local o = {}
  local function w(s) o[#o + 1] = "    " .. s end
  w(string.format("if (!bf_need(c, %d, NULL))", t.size))
  w("    return 0;")
  for _, fl in ipairs(t.fields) do
    local name, at = fl.name, string.format("c->pos + %d", fl.offset)
    if fl.kind == "struct" then
      local T = ix.types[fl.type]
      w(string.format("v->%s_lim = c->end;", name))
      if flat_has_checks(ix, T) then
        local n = fl.fixed_count or 1
        w("{")
        w("    const size_t at = c->pos;")
        w(string.format("    %s e;", vt(fmt, fl.type)))
        w(string.format("    for (int64_t i = 0; i < %d; i++) {", n))
        w(string.format("        c->pos = at + %d + (size_t)i * %d;", fl.offset, T.size))
        w(string.format('        if (!bf_push(c, "%s", %s) || !lay_%s(c, d, &e, i, deep))', name, fl.array and "i" or "-1", fl.type))
        w("            return 0;")
        w("        bf_pop(c);")
        w("    }")
        w("    c->pos = at;")
        w("}")
      end
    elseif fl.const then
      if fl.kind ~= "prim" or fl.array then return nil end
      R.check_const(w, fl, names.load(fl.prim, fl.endian, "(c->data + " .. at .. ")"), at, view_env(fmt, ix, "v"))
    elseif fl.const_str then
      if fl.kind ~= "str" or fl.array then return nil end
      w(string.format('if (!bf_expect_bytes(c, %s, "%s", c->data + %s, %s, %d))', at, name, at, names.cstring(fl.const_str), fl.str_len))
      w("    return 0;")
    end
  end
  w(string.format("c->pos += %d;", t.size))
  return o
end

local function lay_function(fmt, ix, t)
  local o = {}
  local function w(s) o[#o + 1] = s end
  local env = view_env(fmt, ix, "v")
  w(lay_sig(fmt, t))
  w("{")
  -- (an assignment, not memset: a compiler stores a small view inline, and the sanitizer
  -- build does not intercept it; laying out an element is the hot path of a walk)
  w(string.format("    *v = (%s){._doc = d, ._offset = c->pos, ._lim = c->end, ._index = index};", vt(fmt, t.name)))
  w("    (void)deep;")
  for _, p in ipairs(t.params) do w("    v->_p_" .. p.name .. " = p_" .. p.name .. ";") end
  local flat = R.is_flat(ix, t) and lay_flat(fmt, ix, t)
  if flat then
    table.move(flat, 1, #flat, #o + 1, o)
    w("    v->_end = c->pos;")
    w("    return 1;")
    w("}")
    return table.concat(o, "\n")
  end
  local fields, i = t.fields, 1
  while i <= #fields do
    local run = {}
    while fields[i + #run] do
      local size = plain_size(ix, fields[i + #run])
      if not size then break end
      run[#run + 1] = { fl = fields[i + #run], size = size }
    end
    if #run >= 2 then
      lay_run(w, run)
      i = i + #run
    else
      lay_field(fmt, ix, t, fields[i], env, o)
      i = i + 1
    end
  end
  w("    v->_end = c->pos;")
  w("    return 1;")
  w("}")
  return table.concat(o, "\n")
end

-- ---- accessors ---------------------------------------------------------------------------

-- How the elements of a struct field are reached: "flat" (a constant stride, built inline),
-- "stride" (a constant stride, laid out on access), "walk" (one after another: first/next).
local function reach(ix, fl)
  local T = ix.types[fl.type]
  if uses_prev(fl.args) or not T.size then return "walk" end
  if is_flat(ix, T) and #T.params == 0 then return "flat" end
  return "stride"
end

-- A `derive:` value, computed from the raw value over the view (left out, and not listed in
-- ix.derived, when its expression needs what views do not reach).
local function derive_accessor(fmt, ix, t, fl, h, cc, indexed)
  local V = vt(fmt, t.name)
  local pre = V .. "_"
  local env = view_env(fmt, ix, "v")
  env.pre, env.counter = {}, { n = 0 }
  local e2 = setmetatable({ value = pre .. fl.name .. (indexed and "(v, i)" or "(v)") }, { __index = env })
  local ok, body = pcall(cexpr.cf, fl.derive, e2)
  if not ok and not (type(body) == "table" and body.views_unsupported) then error(body, 0) end
  if not ok or #env.pre > 0 then return end
  ix.derived[t.name .. "." .. fl.name] = true
  local sig = string.format("double %s%s_value(const %s *v%s)", pre, fl.name, V, indexed and ", size_t i" or "")
  h("/* Derived: " .. names.comment(fl.derive_doc or fl.derive.text) .. " */")
  h(sig .. ";")
  for _, l in ipairs({ sig, "{", "    bf_ctx ctx, *c = &ctx;", "    bf_error e;", "    bf_view_ctx(c, v->_doc, &e);",
    "    (void)c;", "    return " .. body .. ";", "}" }) do cc(l) end
end

-- Accessors declared in the header (inline ones defined there), and the .c bodies.
local function accessors(fmt, ix, t, H, C)
  local V = vt(fmt, t.name)
  local env = view_env(fmt, ix, "v")
  local function h(s) H[#H + 1] = s end
  local function cc(s) C[#C + 1] = s end
  local pre = vt(fmt, t.name) .. "_"
  for _, fl in ipairs(t.fields) do
    local name = fl.name
    local at = at_c(fl, "v")
    local count = fl.fixed_count and tostring(fl.fixed_count) or ("v->" .. name .. "_count")
    local doc = names.comment(fl.doc)
    if fl.cond then
      h(string.format("/* 1 when %s is present. */", name))
      h(string.format("static inline int %shas_%s(const %s *v) { return v->has_%s; }", pre, name, V, name))
    end
    if fl.kind == "bytes" and fl.count and fl.count.k == "int" then
      count = tostring(fl.count.v)
    end
    if (fl.array and not fl.fixed_count) or fl.kind == "bytes" then
      h(string.format("static inline size_t %s%s_count(const %s *v) { (void)v; return %s; }", pre, name, V, count))
    end
    if fl.kind == "prim" then
      local ctype = names.prim_ctype(fl.prim)
      local load = names.load(fl.prim, fl.endian, "p")
      h("/* " .. doc .. " */")
      if not fl.array then
        h(string.format("static inline %s %s%s(const %s *v)", ctype, pre, name, V))
        h("{")
        h(string.format("    const uint8_t *p = v->_doc->data + %s;", at))
        h(string.format("    return (%s)%s;", ctype, load))
        h("}")
        for _, b in ipairs(fl.bits) do
          local mask = string.format("UINT64_C(0x%X)", (1 << b.width) - 1)
          local raw = string.format("(((uint64_t)%s%s(v) >> %d) & %s)", pre, name, b.shift, mask)
          h(string.format("static inline %s %s%s_%s(const %s *v)", b.signed and "int64_t" or "uint64_t", pre, name, b.name, V))
          h(string.format("{ return %s; }", b.signed and string.format("bf_sext(%s, %d)", raw, b.width) or raw))
        end
        if fl.fixed_frac then
          h(string.format("static inline double %s%s_value(const %s *v) { return (double)%s%s(v) / %d.0; }", pre, name, V, pre, name, 1 << fl.fixed_frac))
        end
        if fl.derive and not fl.fixed_frac then derive_accessor(fmt, ix, t, fl, h, cc, false) end
        if fl.string_table then
          h(string.format("/* The string %s refers to ({NULL, 0} for none). */", name))
          h(string.format("bf_str %s%s_str(const %s *v);", pre, name, V))
          local tbl = cexpr.place(fl.string_table, env)
          if tbl.kind ~= "bytes" then unsupported("a string table that is not bytes") end
          cc(string.format("bf_str %s%s_str(const %s *v)", pre, name, V))
          cc("{")
          cc("    bf_ctx ctx, *c = &ctx;")
          cc("    bf_error e;")
          cc("    bf_view_ctx(c, v->_doc, &e);")
          cc("    bf_str s = {NULL, 0, 0};")
          cc(string.format("    uint64_t ref = (uint64_t)%s%s(v);", pre, name))
          if fl.string_null then cc(string.format("    if (ref == UINT64_C(%d))", fl.string_null)); cc("        return s;") end
          cc(string.format('    if (!bf_resolve_str(c, (uint64_t)(%s - c->data), %s, ref, %s, "%s", &s))', tbl.p, tbl.len, at, name))
          cc("        s = (bf_str){NULL, 0, 0};")
          cc("    return s;")
          cc("}")
        end
      else
        h(string.format("static inline %s %s%s(const %s *v, size_t i)", ctype, pre, name, V))
        h("{")
        h(string.format("    if (i >= %s)", count))
        h("        return 0;")
        h(string.format("    const uint8_t *p = v->_doc->data + %s + i * %d;", at, fl.prim_size))
        h(string.format("    return (%s)%s;", ctype, load))
        h("}")
        if fl.fixed_frac then
          h(string.format("static inline double %s%s_value(const %s *v, size_t i) { return (double)%s%s(v, i) / %d.0; }", pre, name, V, pre, name, 1 << fl.fixed_frac))
        end
        if fl.derive and not fl.fixed_frac then derive_accessor(fmt, ix, t, fl, h, cc, true) end
        h(string.format("/* The encoded bytes of %s, in place. */", name))
        h(string.format("static inline const uint8_t *%s%s_bytes(const %s *v) { return v->_doc->data + %s; }", pre, name, V, at))
      end
    elseif fl.kind == "bytes" then
      h("/* " .. doc .. " */")
      h(string.format("static inline bf_bytes %s%s(const %s *v)", pre, name, V))
      h(string.format("{ return (bf_bytes){v->_doc->data + %s, %s, %s}; }", at, count, at))
    elseif fl.kind == "str" or fl.kind == "cstr" then
      h("/* " .. doc .. " */")
      local idx = fl.array and ", size_t i" or ""
      h(string.format("bf_str %s%s(const %s *v%s);", pre, name, V, idx))
      cc(string.format("bf_str %s%s(const %s *v%s)", pre, name, V, idx))
      cc("{")
      cc("    bf_ctx ctx, *c = &ctx;")
      cc("    bf_error e;")
      cc("    bf_view_ctx(c, v->_doc, &e);")
      cc("    bf_str s = {NULL, 0, 0};")
      if fl.array then
        cc(string.format("    if (i >= %s)", count))
        cc("        return s;")
        cc(string.format("    c->pos = %s + i * %d;", at, fl.str_len))
      else
        cc(string.format("    c->pos = %s;", at))
      end
      if fl.kind == "cstr" then
        cc(string.format('    if (!bf_read_cstr(c, "%s", &s))', name))
      else
        cc(string.format('    if (!bf_read_fixed_str(c, %d, "%s", &s))', fl.str_len, name))
      end
      cc("        s = (bf_str){NULL, 0, 0};")
      cc("    return s;")
      cc("}")
    elseif fl.kind == "struct" then
      local T = ix.types[fl.type]
      local S = vt(fmt, fl.type)
      local flat = is_flat(ix, T) and #T.params == 0
      h("/* " .. doc .. " */")
      if not fl.array and embedded(ix, fl) then
        h(string.format("static inline %s %s%s(const %s *v) { return v->%s; }", S, pre, name, V, name))
      elseif not fl.array then
        if flat then
          h(string.format("static inline %s %s%s(const %s *v)", S, pre, name, V))
          h(string.format("{ return (%s){._doc = v->_doc, ._offset = %s, ._end = %s + %d, ._lim = v->_lim}; }", S, at, at, T.size))
        else
          h(string.format("%s %s%s(const %s *v);", S, pre, name, V))
          cc(string.format("static int sub_%s_%s(bf_ctx *c, const %s *v, %s *out)", t.name, name, V, S))
          cc("{")
          cc(string.format("    c->pos = %s;", at))
          cc(string.format("    c->end = v->%s_lim;", name))
          cc(string.format("    return lay_%s(c, v->_doc, out, 0, 0%s);", fl.type, args_c(env, fl, "0", "NULL")))
          cc("}")
          cc(string.format("%s %s%s(const %s *v)", S, pre, name, V))
          cc("{")
          cc("    bf_ctx ctx;")
          cc("    bf_error e;")
          cc("    bf_view_ctx(&ctx, v->_doc, &e);")
          cc(string.format("    %s s;", S))
          cc(string.format("    if (!sub_%s_%s(&ctx, v, &s))", t.name, name))
          cc(string.format("        memset(&s, 0, sizeof s), s._doc = &bf_view_zero_doc;"))
          cc("    return s;")
          cc("}")
        end
      else
        local how = reach(ix, fl)
        if how == "flat" then
          h(string.format("/* Element i of %s (a view over zeros when i is out of range). */", name))
          h(string.format("static inline %s %s%s_at(const %s *v, size_t i)", S, pre, name, V))
          h("{")
          h(string.format("    if (i >= %s)", count))
          h(string.format("        return (%s){._doc = &bf_view_zero_doc, ._end = %d, ._lim = BF_VIEW_ZEROS};", S, T.size))
          h(string.format("    size_t at = %s + i * %d;", at, T.size))
          h(string.format("    return (%s){._doc = v->_doc, ._offset = at, ._end = at + %d, ._lim = v->_lim, ._index = (int64_t)i};", S, T.size))
          h("}")
        else
          -- laid out again on access: random access with a stride, else a walk
          cc(string.format("static int sub_%s_%s(bf_ctx *c, const %s *v, size_t i, const %s *prev, %s *out)", t.name, name, V, S, S))
          cc("{")
          cc("    (void)prev;")
          if how == "stride" then
            cc(string.format("    c->pos = %s + i * %d;", at, T.size))
          else
            cc(string.format("    c->pos = prev ? prev->_end : %s;", at))
          end
          cc(string.format("    c->end = v->%s_lim;", name))
          cc(string.format("    return lay_%s(c, v->_doc, out, (int64_t)i, 0%s);", fl.type, args_c(env, fl, "i", "prev")))
          cc("}")
          if how == "stride" then
            h(string.format("%s %s%s_at(const %s *v, size_t i);", S, pre, name, V))
            cc(string.format("%s %s%s_at(const %s *v, size_t i)", S, pre, name, V))
            cc("{")
            cc("    bf_ctx ctx;")
            cc("    bf_error e;")
            cc("    bf_view_ctx(&ctx, v->_doc, &e);")
            cc(string.format("    %s s;", S))
            cc(string.format("    if (i >= %s || !sub_%s_%s(&ctx, v, i, NULL, &s))", count, t.name, name))
            cc(string.format("        memset(&s, 0, sizeof s), s._doc = &bf_view_zero_doc;"))
            cc("    return s;")
            cc("}")
          end
          h(string.format("/* Walks %s: the first element into *it (0 when there is none), then the next. */", name))
          h(string.format("int %s%s_first(const %s *v, %s *it);", pre, name, V, S))
          h(string.format("int %s%s_next(const %s *v, %s *it);", pre, name, V, S))
          cc(string.format("int %s%s_first(const %s *v, %s *it)", pre, name, V, S))
          cc("{")
          cc("    bf_ctx ctx;")
          cc("    bf_error e;")
          cc("    bf_view_ctx(&ctx, v->_doc, &e);")
          cc(string.format("    return %s > 0 && sub_%s_%s(&ctx, v, 0, NULL, it);", count, t.name, name))
          cc("}")
          cc(string.format("int %s%s_next(const %s *v, %s *it)", pre, name, V, S))
          cc("{")
          cc(string.format("    if ((size_t)it->_index + 1 >= %s)", count))
          cc("        return 0;")
          cc("    bf_ctx ctx;")
          cc("    bf_error e;")
          cc("    bf_view_ctx(&ctx, v->_doc, &e);")
          cc(string.format("    %s prev = *it;", S))
          cc(string.format("    return sub_%s_%s(&ctx, v, (size_t)prev._index + 1, &prev, it);", t.name, name))
          cc("}")
        end
      end
    elseif fl.kind == "switch" then
      h("/* " .. doc .. " Which case it holds (a kind constant of the reader's header). */")
      h(string.format("static inline int %s%s_kind(const %s *v) { return v->%s_kind; }", pre, name, V, name))
      local seen = {}
      for _, case in ipairs(fl.cases) do
        if case.type and not seen[case.type] then
          seen[case.type] = true
          local S = vt(fmt, case.type)
          h(string.format("/* The %s case (a view over zeros when it holds another). */", case.type))
          h(string.format("%s %s%s_%s(const %s *v);", S, pre, name, case.type, V))
          cc(string.format("%s %s%s_%s(const %s *v)", S, pre, name, case.type, V))
          cc("{")
          cc(string.format("    %s s;", S))
          cc("    bf_ctx ctx;")
          cc("    bf_error e;")
          cc("    bf_view_ctx(&ctx, v->_doc, &e);")
          cc(string.format("    ctx.pos = %s;", at))
          cc(string.format("    ctx.end = v->%s_lim;", name))
          cc(string.format("    if (v->%s_kind != %s || !lay_%s(&ctx, v->_doc, &s, 0, 0))", name, names.kind_const(fmt, case.type), case.type))
          cc(string.format("        memset(&s, 0, sizeof s), s._doc = &bf_view_zero_doc;"))
          cc("    return s;")
          cc("}")
        end
      end
      h(string.format("/* The bytes of a raw case (from the field to the end of its region). */"))
      h(string.format("static inline bf_bytes %s%s_raw(const %s *v)", pre, name, V))
      h(string.format("{ return (bf_bytes){v->_doc->data + %s, v->%s_lim - (%s), %s}; }", at, name, at, at))
    end
  end
end

-- ---- string references: checked once the whole document is laid out, like the reader's link

local function link_function(fmt, ix, t)
  local o = {}
  local function w(s) o[#o + 1] = s end
  local V = vt(fmt, t.name)
  local env = view_env(fmt, ix, "v")
  w(string.format("int %s_view_link_%s(bf_ctx *c, const %s *v);", fmt.name, t.name, V))
  w(string.format("int %s_view_link_%s(bf_ctx *c, const %s *v)", fmt.name, t.name, V))
  w("{")
  for _, fl in ipairs(t.fields) do
    local ind = "    "
    if fl.cond then
      w("    if (v->has_" .. fl.name .. ") {")
      ind = "        "
    end
    local pre = vt(fmt, t.name) .. "_"
    if fl.string_table then
      local tbl = cexpr.place(fl.string_table, env)
      w(ind .. "{")
      w(string.format("%s    uint64_t ref = (uint64_t)%s%s(v);", ind, pre, fl.name))
      w(ind .. "    bf_str s;")
      local null = fl.string_null and string.format("ref != UINT64_C(%d) && ", fl.string_null) or ""
      w(string.format('%s    if (%s!bf_resolve_str(c, (uint64_t)(%s - c->data), %s, ref, %s, "%s", &s))', ind, null, tbl.p, tbl.len, at_c(fl, "v"), fl.name))
      w(ind .. "        return 0;")
      w(ind .. "}")
    end
    if fl.kind == "struct" and ix.types[fl.type].needs_link then
      local S = vt(fmt, fl.type)
      local T = ix.types[fl.type]
      local flat = is_flat(ix, T) and #T.params == 0
      if not fl.array then
        w(ind .. "{")
        w(string.format("%s    %s s;", ind, S))
        if flat or embedded(ix, fl) then
          w(string.format("%s    s = %s%s(v);", ind, pre, fl.name))
        else
          w(string.format("%s    size_t pos = c->pos, end = c->end;", ind))
          w(string.format("%s    if (!sub_%s_%s(c, v, &s))", ind, t.name, fl.name))
          w(ind .. "        return 0;")
          w(ind .. "    c->pos = pos, c->end = end;")
        end
        w(string.format('%s    if (!bf_push(c, "%s", -1) || !link_%s(c, &s))', ind, fl.name, fl.type))
        w(ind .. "        return 0;")
        w(ind .. "    bf_pop(c);")
        w(ind .. "}")
      else
        local count = fl.fixed_count and tostring(fl.fixed_count) or ("v->" .. fl.name .. "_count")
        local how = reach(ix, fl)
        w(ind .. "{")
        w(string.format("%s    %s s[2];", ind, S))
        w(string.format("%s    for (size_t i = 0; i < %s; i++) {", ind, count))
        if how == "flat" then
          w(string.format("%s        s[0] = %s%s_at(v, i);", ind, pre, fl.name))
          w(string.format('%s        if (!bf_push(c, "%s", (int64_t)i) || !link_%s(c, &s[0]))', ind, fl.name, fl.type))
        else
          w(string.format("%s        size_t pos = c->pos, end = c->end;", ind))
          w(string.format("%s        if (!sub_%s_%s(c, v, i, i ? &s[(i - 1) & 1] : NULL, &s[i & 1]))", ind, t.name, fl.name))
          w(ind .. "            return 0;")
          w(ind .. "        c->pos = pos, c->end = end;")
          w(string.format('%s        if (!bf_push(c, "%s", (int64_t)i) || !link_%s(c, &s[i & 1]))', ind, fl.name, fl.type))
        end
        w(ind .. "            return 0;")
        w(ind .. "        bf_pop(c);")
        w(ind .. "    }")
        w(ind .. "}")
      end
    end
    if fl.kind == "switch" then
      local seen = {}
      for _, case in ipairs(fl.cases) do
        if case.type and not seen[case.type] and ix.types[case.type].needs_link then
          seen[case.type] = true
          w(string.format("%sif (v->%s_kind == %s) {", ind, fl.name, names.kind_const(fmt, case.type)))
          w(string.format("%s    %s s = %s%s_%s(v);", ind, vt(fmt, case.type), pre, fl.name, case.type))
          w(string.format('%s    if (!bf_push(c, "%s", -1) || !link_%s(c, &s))', ind, fl.name, case.type))
          w(ind .. "        return 0;")
          w(ind .. "    bf_pop(c);")
          w(ind .. "}")
        end
      end
    end
    if fl.cond then w("    }") end
  end
  w("    (void)c;")
  w("    (void)v;")
  w("    return 1;")
  w("}")
  return table.concat(o, "\n")
end


-- ---- named values: one function over the view each, for those expressions use ------------

-- Appends the functions to C (a value may use others: the list grows while it is written) and
-- returns their prototypes. `pl`: other places than the views' (the validators').
local function value_functions(fmt, ix, C, pl)
  local protos, used, i = {}, ix.view_values, 1
  while used[i] do
    local u = used[i]
    local value
    for _, v in ipairs(ix.types[u.owner].values) do
      if v.name == u.name then value = v end
    end
    local float = value.expr.vt == "float"
    local env = view_env(fmt, ix, "v")
    env.places = pl or env.places
    env.pre, env.counter = {}, { n = 0 }
    if u.flat then env.self_flat = { kind = "struct", view = "flat", p = "v", type = u.owner } end
    local body = float and cexpr.cf(value.expr, env) or cexpr.value(value.expr, env)
    local sig = string.format("static %s %s(bf_ctx *c, const %s *v)", float and "double" or "int64_t",
      value_fn(fmt, u.owner, u.name, u.flat), u.flat and "uint8_t" or vt(fmt, u.owner))
    protos[#protos + 1] = sig .. ";"
    C[#C + 1] = "/* " .. u.owner .. "." .. u.name .. (value.doc and (": " .. names.comment(value.doc)) or "") .. " */"
    C[#C + 1] = sig
    C[#C + 1] = "{"
    C[#C + 1] = "    (void)c;"
    C[#C + 1] = "    (void)v;"
    for _, l in ipairs(env.pre) do C[#C + 1] = "    " .. l end
    C[#C + 1] = "    return " .. body .. ";"
    C[#C + 1] = "}"
    C[#C + 1] = ""
    i = i + 1
  end
  return protos
end

-- ---- the files ---------------------------------------------------------------------------

-- The index of each format's last generation, by name: its `derived` set is what the views'
-- agreement checks compare (c_view_same.lua).
M.generated_index = {}

local function generate(fmt)
  local ix = index(fmt)
  M.generated_index[fmt.name] = ix
  -- a view over zeros (an element past the end) must read inside bf_view_zeros
  for _, t in ipairs(fmt.types) do
    for _, fl in ipairs(t.fields) do
      local width = fl.elem_size or fl.prim_size or 0
      if fl.kind == "bytes" and fl.count and fl.count.k == "int" then width = fl.count.v end
      if fl.offset and fl.offset + width * (fl.fixed_count or 1) > 1024 then
        unsupported(t.name .. "." .. fl.name .. " lies beyond the 1 KB of zeros a missing element reads")
      end
    end
  end
  local H, C = {}, {}
  local function h(s) H[#H + 1] = s or "" end
  local guard = fmt.name:upper() .. "_VIEW_H"
  h("/* Generated by bfgen from " .. fmt.schema .. ". Do not edit: change the schema. */")
  h("/* Views of " .. fmt.name .. " files: zero-copy reading (LANGUAGE.md, \"Generated C\", \"Views\"). */")
  h("#ifndef " .. guard)
  h("#define " .. guard)
  h()
  h("#include \"" .. fmt.name .. ".h\"")
  h("#include \"bf_view.h\"")
  h()
  h("#ifdef __cplusplus")
  h("extern \"C\" {")
  h("#endif")
  h()
  for _, t in ipairs(fmt.types) do h(string.format("typedef struct %s %s;", vt(fmt, t.name), vt(fmt, t.name))) end
  h()
  for _, t in ipairs(view_order(fmt, ix)) do
    h(view_struct(fmt, ix, t))
    h()
  end
  for _, e in ipairs(fmt.entries) do
    local RV = vt(fmt, e.root)
    h(string.format("/* An open %s view: the input and the root's view. Do not move it while views taken", e.name))
    h(" * from it are in use (they point at its `doc`). */")
    h(string.format("typedef struct %s_%s_view {", fmt.name, e.name))
    h("    bf_view_doc doc;")
    h(string.format("    %s root;", RV))
    h(string.format("} %s_%s_view;", fmt.name, e.name))
    h()
    h(string.format("/* Checks every count, offset, bound, constant and string reference of a %s in", e.name))
    h(" * `data` (which must outlive the view) and fills *out. No allocation. 0 when the full reader")
    h(" * would refuse the input too, with `err` set as the reader sets it: message, path, offset. */")
    h(string.format("int %s_view_open_%s(const uint8_t *data, size_t size, %s_%s_view *out, bf_error *err);", fmt.name, e.name, fmt.name, e.name))
    h()
  end
  local Cacc = {}
  for _, t in ipairs(fmt.types) do
    local Ht = {}
    accessors(fmt, ix, t, Ht, Cacc)
    if #Ht > 0 then
      h("/* ---- " .. t.name .. " ---- */")
      table.move(Ht, 1, #Ht, #H + 1, H)
      h()
    end
  end
  h("#ifdef __cplusplus")
  h("}")
  h("#endif")
  h()
  h("#endif")

  local function c(s) C[#C + 1] = s or "" end
  c("/* Generated by bfgen from " .. fmt.schema .. ". Do not edit: change the schema. */")
  c("#include \"" .. fmt.name .. "_view.h\"")
  c()
  c("#include <string.h>")
  c()
  c("#include \"bf_expr.h\"")
  c()
  for _, t in ipairs(fmt.types) do c(lay_sig(fmt, t) .. ";") end
  local values_at = #C + 1 -- the named values' prototypes go here, once they are known
  for _, t in ipairs(fmt.types) do
    if t.needs_link then c(string.format("int link_%s(bf_ctx *c, const %s *v);", t.name, vt(fmt, t.name))) end
  end
  c()
  for _, t in ipairs(fmt.types) do
    c(lay_function(fmt, ix, t))
    c()
  end
  table.move(Cacc, 1, #Cacc, #C + 1, C)
  c()
  for _, t in ipairs(fmt.types) do
    if t.needs_link then
      c(link_function(fmt, ix, t))
      c()
    end
  end
  local entries_at = #C + 1
  for _, e in ipairs(fmt.entries) do
    local rt = ix.types[e.root]
    c(string.format("int %s_view_open_%s(const uint8_t *data, size_t size, %s_%s_view *out, bf_error *err)", fmt.name, e.name, fmt.name, e.name))
    c("{")
    c("    out->doc = (bf_view_doc){data, size, &out->root, 0};")
    local nrev = #fmt.revisions
    if nrev == 0 then
      c("    bf_ctx c;")
      c("    bf_view_ctx(&c, &out->doc, err); /* not bf_ctx_init: clearing 1.6 KB costs small files */")
      c(string.format("    if (!lay_%s(&c, &out->doc, &out->root, 0, 1))", e.root))
      c("        return 0;")
      if rt.needs_link then
        c(string.format("    if (!link_%s(&c, &out->root))", e.root))
        c("        return 0;")
      end
      c("    return 1;")
    else
      -- the first revision that reads the file, as the full reader picks it (and, when none
      -- does, the furthest attempt's error, as the reader names it)
      c(string.format("    return bf_view_open_revisions(&out->doc, revisions, %d, err, open_revision_%s, out);", nrev, e.name))
    end
    c("}")
    c()
  end
  if #fmt.revisions > 0 then
    local list = {}
    for _, r in ipairs(fmt.revisions) do list[#list + 1] = names.cstring(r.name) end
    local R = { string.format("static const char *const revisions[] = {%s};", table.concat(list, ", ")), "" }
    for _, e in ipairs(fmt.entries) do
      local rt = ix.types[e.root]
      R[#R + 1] = "/* One revision's attempt (bf_view_open_revisions): every structure, then the strings. */"
      R[#R + 1] = string.format("static int open_revision_%s(bf_ctx *c, void *out, int *laid_all)", e.name)
      R[#R + 1] = "{"
      R[#R + 1] = string.format("    %s_%s_view *v = out;", fmt.name, e.name)
      R[#R + 1] = string.format("    if (!lay_%s(c, &v->doc, &v->root, 0, 1))", e.root)
      R[#R + 1] = "        return 0;"
      R[#R + 1] = "    *laid_all = 1;"
      R[#R + 1] = rt.needs_link and string.format("    return link_%s(c, &v->root);", e.root) or "    return 1;"
      R[#R + 1] = "}"
      R[#R + 1] = ""
    end
    -- before the entry points that use them
    local at = entries_at
    table.move(C, at, #C, at + #R)
    table.move(R, 1, #R, at, C)
  end
  local protos = value_functions(fmt, ix, C)
  -- (moved once, not shifted once per prototype)
  local rest = table.move(C, values_at, #C, 1, {})
  table.move(protos, 1, #protos, values_at, C)
  table.move(rest, 1, #rest, values_at + #protos, C)
  -- lay_T / link_T are external (a type only ever reached in bulk is never called)
  local csrc = table.concat(C, "\n") .. "\n"
  csrc = names.prefix_calls(csrc, "lay_", fmt.name .. "_view_")
  csrc = names.prefix_calls(csrc, "link_", fmt.name .. "_view_")
  return table.concat(H, "\n") .. "\n", csrc
end

-- The files of a format (header, views), or nil and the reason views cannot be generated for
-- it yet.
function M.files(fmt)
  local ok, h, c = pcall(generate, fmt)
  if not ok then
    if type(h) == "table" and h.views_unsupported then return nil, h.views_unsupported end
    error(h, 0)
  end
  return h, c
end

-- For c_view_same.lua and the validators over views (c_validate.lua): the views' names,
-- places and shapes.
M.view_type = vt
M.index = index
M.places = places
M.is_flat = is_flat
M.embedded = embedded
M.reach = reach
M.lay_sig = lay_sig
M.value_fn = value_fn
M.value_functions = value_functions

return M
