-- Schema expressions -> C expressions.
--
-- Integers are evaluated as int64_t through the runtime's wrapping helpers (no signed
-- overflow, no division by zero, no oversized shifts: hostile files cannot cause
-- undefined behaviour). Struct values are pointers; arrays are {ptr, count} places.
--
-- Each rendered piece carries its C precedence (`prec`) and what its C type is known to be
-- (`ty`), so that the text gets parentheses and casts only where C needs them:
--   i64  int64_t            int  promotes to int (value in int range; `nn`: never negative)
--   u32  unsigned int       u64  uint64_t (always converted to int64_t before an operator)
--   any  unknown: converted to int64_t before use, as before
-- Values must stay exactly those of int64_t arithmetic.
local names = require("names")
local M = {}

-- C precedence levels (higher binds tighter).
local P = { primary = 16, unary = 15, mul = 13, add = 12, shift = 11, rel = 10, eq = 9,
  band = 8, bxor = 7, bor = 6, land = 5, lor = 4, cond = 3 }
local op_prec = { ["*"] = P.mul, ["/"] = P.mul, ["+"] = P.add, ["-"] = P.add,
  ["<"] = P.rel, [">"] = P.rel, ["<="] = P.rel, [">="] = P.rel, ["=="] = P.eq, ["!="] = P.eq,
  ["&"] = P.band, ["^"] = P.bxor, ["|"] = P.bor, ["&&"] = P.land, ["||"] = P.lor }

local function paren(p, min)
  if p.prec < min then return "(" .. p.c .. ")" end
  return p.c
end

-- The C type a loaded integer primitive has in an expression (what its value fits: int up
-- to 16 unsigned or 32 signed bits), and which are never negative; from bfgen's table.
local prim_ty, prim_nn = {}, {}
for name, p in pairs(names.prims) do
  if not p.float then
    if p.size == 8 then prim_ty[name] = p.signed and "i64" or "u64"
    elseif p.signed or p.size <= 2 then prim_ty[name] = "int"
    else prim_ty[name] = "u32" end
    prim_nn[name] = not p.signed or nil
  end
end

local function int_piece(c, prec, ty, nn) return { kind = "int", c = c, prec = prec, ty = ty, nn = nn } end
-- A truth value (comparison, &&, ||, !): an int that is 0 or 1.
local function truth_piece(c, prec) return { kind = "int", c = c, prec = prec, ty = "int", nn = true, truth = true } end

-- An integer literal: a plain number where int is wide enough, else INT64_C.
local function literal(v)
  if v >= -2147483647 and v <= 2147483647 then
    if v < 0 then return { kind = "int", c = tostring(v), prec = P.unary, ty = "int", nn = false, lit = v } end
    return { kind = "int", c = tostring(v), prec = P.primary, ty = "int", nn = true, lit = v }
  end
  return { kind = "int", c = names.i64(v), prec = P.primary, ty = "i64", lit = v }
end

-- The piece converted to int64_t (text of type int64_t).
local function as_i64(p)
  if p.ty == "i64" then return p end
  if p.lit then return int_piece(names.i64(p.lit), P.primary, "i64") end
  return int_piece("(int64_t)" .. paren(p, P.unary), P.unary, "i64")
end

-- The piece as a double, with the value the int64_t conversion would give.
local function as_double(p)
  if p.kind == "float" then return p end
  if p.ty == "u64" or p.ty == "any" then p = as_i64(p) end
  if p.lit and p.ty == "int" then return { kind = "float", c = string.format("%d.0", p.lit), prec = p.prec, ty = "double" } end
  return { kind = "float", c = "(double)" .. paren(p, P.unary), prec = P.unary, ty = "double" }
end

-- Two integer operands of a native C operator (comparison, bitwise, ?: branches): kept as
-- they are when C's usual conversions preserve every value, else converted to int64_t.
local function same_values(a, b)
  local ta, tb = a.ty, b.ty
  if ta == "u64" or tb == "u64" or ta == "any" or tb == "any" then return false end
  if ta == "i64" or tb == "i64" then return true end -- int and unsigned int both fit
  if ta == "int" and tb == "int" then return true end
  if ta == "u32" and tb == "u32" then return true end
  if ta == "u32" then return b.nn == true end
  return a.nn == true
end

local function unify(a, b)
  if a.kind == "float" or b.kind == "float" then return as_double(a), as_double(b) end
  if same_values(a, b) then return a, b end
  -- an int literal keeps its value against an int64_t
  return a.lit and a.ty == "int" and a or as_i64(a), b.lit and b.ty == "int" and b or as_i64(b)
end

local function common_ty(a, b)
  if a.ty == "i64" or b.ty == "i64" then return "i64" end
  if a.ty == "u32" or b.ty == "u32" then return "u32" end
  return "int"
end

-- The precedence of a C text a template hands in (a builtin's value): plain names and member
-- chains need no parentheses, anything else is treated as the loosest expression.
local prec_of = {} -- (the same few texts come again and again: each is looked at once)
local text_prec_of

local function text_prec(c)
  local p = prec_of[c]
  if not p then
    p = text_prec_of(c)
    prec_of[c] = p
  end
  return p
end

function text_prec_of(c)
  if c:sub(1, 1) == "(" and c:sub(-1) == ")" then
    -- wholly parenthesised: the first parenthesis closes at the end
    local depth = 0
    for i = 1, #c do
      local ch = c:sub(i, i)
      if ch == "(" then depth = depth + 1 elseif ch == ")" then depth = depth - 1 end
      if depth == 0 then
        if i == #c then return P.primary end
        break
      end
    end
  end
  -- a member chain, optionally indexed by a name: s->a.b, s->a[i1]
  local function chain(t)
    t = t:gsub("%[[%w_]+%]$", ""):gsub("%->", ".")
    return t:match("^[%a_][%w_%.]*$") ~= nil and not t:find("%.%.") and t:sub(-1) ~= "."
  end
  if chain(c) then return P.primary end
  if c:sub(1, 9) == "(int64_t)" and chain(c:sub(10)) then return P.unary end
  return 0
end

-- env: fmt, ix (names.index), self (C pointer to the current struct), root (C pointer to
-- the root), it / prev / value (C for the builtins), index, start; `places` (optional):
-- how fields, elements and builtins are reached, when they are not members of the reader's
-- structs (the views' hooks, c_view.lua; the reader's are `reader_places` below).
local render
local constant_comparison

-- An expression this kind of code cannot render: the places' `refuse` says why (views then
-- leave the format out), else it is the template's error.
local function refuse(env, what)
  local pl = env.places
  if pl and pl.refuse then pl.refuse(what) end
  error(what)
end

-- What goes before a member name of the structure place `obj`: `s->header.` when the
-- structure is a member itself, else `p->`.
local function member_prefix(obj)
  if obj.lv then return obj.lv .. "." end
  return paren(obj, P.primary) .. "->"
end

local function field_place(prefix, fl_ref)
  -- An access to field `fl_ref` of the struct `prefix` leads into.
  local fl = fl_ref
  local base = prefix .. fl.name
  if fl.array then
    local count = fl.fixed_count and tostring(fl.fixed_count) or (base .. "_count")
    return { kind = "array", ptr = base, count = count, field = fl }
  end
  if fl.kind == "struct" then return { kind = "struct", c = "&" .. base, prec = P.unary, lv = base, type = fl.type } end
  if fl.kind == "switch" then return { kind = "switch", c = base, kind_c = base .. ".kind", prec = P.primary, field = fl } end
  if fl.kind == "bytes" then return { kind = "bytes", c = base, prec = P.primary } end
  if fl.kind == "str" or fl.kind == "cstr" then return { kind = "string", c = base, prec = P.primary } end
  if fl.prim == "f64" then return { kind = "float", c = base, prec = P.primary, ty = "double" } end
  if fl.prim == "f32" then return { kind = "float", c = "(double)" .. base, prec = P.unary, ty = "double" } end
  local p = int_piece(base, P.primary, prim_ty[fl.prim] or "any", prim_nn[fl.prim])
  p.prim = fl.prim
  return p
end

local function value_place(env, name, vt)
  -- A builtin that stands for one element of field `fl` (_it, _prev, _value).
  local c = env[name]
  local prec = text_prec(c)
  if vt == "struct" then
    local fl = env.elem_field
    return { kind = "struct", c = c, prec = prec, type = fl and fl.type }
  end
  local p = { kind = "int", c = c, prec = prec, ty = "any" }
  if vt == "float" then return { kind = "float", c = "(double)" .. paren(p, P.unary), prec = P.unary, ty = "double" } end
  if vt == "string" then return { kind = "string", c = c, prec = prec } end
  -- the element's own C type is known when the same environment binds it and its field
  local fl = rawget(env, "elem_field")
  if name ~= "value" and fl and rawget(env, name) == c and fl.prim then
    p.ty, p.nn = prim_ty[fl.prim] or "any", prim_nn[fl.prim]
  end
  return p
end

-- A named value of the structure `obj` points at: a call of its function in <format>_access.h.
local function named_place(env, e, obj)
  -- validators call the memoised form (<format>_validate.c), so a value rules use is computed
  -- once per structure, not once per element of an `each`
  local fn = env.memo and M.memo_fn or M.value_fn
  local c = string.format("%s(c, %s)", fn(env.fmt, e.value_owner, e.value_name), obj)
  if e.vt == "float" then return { kind = "float", c = c, prec = P.primary, ty = "double" } end
  return int_piece(c, P.primary, "i64")
end

function M.value_fn(fmt, owner, name) return names.ctype(fmt, owner) .. "_v_" .. name end
function M.memo_fn(fmt, owner, name) return names.ctype(fmt, owner) .. "_m_" .. name end

-- A number: an int piece (any integer type; `want_float` makes it a double).
local function num(e, env, want_float)
  local p = render(e, env)
  -- (a view's structures and switches have no C value of their own)
  if p.kind == "array" or p.kind == "bytes" or not p.c then refuse(env, "a " .. p.kind .. " used as a number") end
  if want_float then return as_double(p) end
  return p
end

-- An argument of a runtime helper taking int64_t: converted by the call itself.
local function arg(p) return p.c end

local int_ops = {
  ["+"] = "bf_add", ["-"] = "bf_sub", ["*"] = "bf_mul", ["<<"] = "bf_shl", [">>"] = "bf_shr",
}

-- The header's name of a switch's raw-bytes case (its kind is negative).
local function raw_case_name(env, fl, i)
  local t = env.ix and env.ix.types[fl.owner]
  if t then
    for _, full in ipairs(t.fields) do
      if full.name == fl.name and full.cases and full.cases[i] and full.cases[i].label then
        return names.raw_case_const(env.fmt, fl.owner, fl.name, full.cases[i].label)
      end
    end
  end
  return string.format("-%d", i)
end

local function enum_const_piece(e, env)
  local enum = e.a and e.a.name and env.ix and env.ix.enums[e.a.name]
  if enum then
    for _, v in ipairs(enum.values) do
      local value = enum.flags and (1 << v.value) or v.value
      local fits = enum.flags and v.value >= 0 and v.value <= 30 or
        (not enum.flags and value >= -2147483647 and value <= 2147483647)
      if value == e.const and fits then
        -- flags are defined as (1u << n): unsigned int; values as plain (int) numbers
        return int_piece(names.enum_const(env.fmt, enum.name, v.name), value < 0 and P.unary or P.primary,
          enum.flags and "u32" or "int", value >= 0)
      end
    end
  end
  return literal(e.const)
end

-- The reader's places: members of its structs (and the validators', which use the same).
local reader_places = {}

function reader_places.field(env, obj, fl)
  return field_place(obj and member_prefix(obj) or (env.self .. "->"), fl)
end
reader_places.value = value_place
function reader_places.root(env, e) return { kind = "struct", c = env.root, prec = text_prec(env.root), type = e.vtype } end
function reader_places.named(env, e, obj) return named_place(env, e, obj and obj.c or env.self) end

-- Element `i` (an int piece) of the array place `arr`.
function reader_places.element(env, arr, i)
  local fl = arr.field
  if fl.kind == "struct" then
    return { kind = "struct", type = fl.type, prec = P.primary,
      c = string.format("%s_at(c, %s, %s, %s)", names.ctype(env.fmt, fl.type), arr.ptr, arr.count, arg(i)) }
  end
  local call = string.format("bf_at_%s(c, %s, %s, %s)", fl.prim, arr.ptr, arr.count, arg(i))
  if fl.prim == "f32" or fl.prim == "f64" then return { kind = "float", c = call, prec = P.primary, ty = "double" } end
  return int_piece(call, P.primary, "i64")
end

-- The selected case `e.name` of the switch place `obj` (a view over zeros when another is).
function reader_places.case(env, e, obj)
  local zero = names.ctype(env.fmt, e.name) .. "_zero"
  local sw = paren(obj, P.primary)
  return { kind = "struct", type = e.name, prec = P.cond,
    c = string.format("%s.kind == %s ? %s.%s : &%s", sw, names.kind_const(env.fmt, e.name), sw, e.name, zero) }
end

-- offset(a): where field `a` starts in the input.
function reader_places.offset(env, a)
  local prefix = a.k == "member" and member_prefix(render(a.a, env)) or (env.self .. "->")
  local fl = a.field
  if fl.offset and not fl.located then
    return int_piece(string.format("(int64_t)(%s_offset + %d)", prefix, fl.offset), P.unary, "i64")
  end
  return int_piece(string.format("(int64_t)%s%s_at", prefix, fl.name), P.unary, "i64")
end

-- len(a) of an array or bytes place.
function reader_places.len(env, a)
  if a.kind == "array" then
    if a.field.fixed_count then return literal(a.field.fixed_count) end
    return int_piece("(int64_t)" .. a.count, P.unary, "i64")
  end
  return int_piece("(int64_t)" .. a.c .. ".len", P.unary, "i64")
end

-- lz4_size(b, n) of a bytes place; `n` is C text of an int64_t.
function reader_places.lz4_size(env, b, n)
  return int_piece(string.format("bf_lz4_size(%s.ptr, %s.len, %s)", b.c, b.c, n), P.primary, "i64")
end

-- A quantifier's element `i` of `arr`: binds elem_env.it and .prev, declaring `it` in `pre`.
-- (Other places are also given the expression evaluated for each element.)
function reader_places.each(env, arr, i, it, elem_env, pre)
  local fl = arr.field
  if fl.kind == "struct" then
    local tc = names.ctype(env.fmt, fl.type)
    pre[#pre + 1] = string.format("    const %s *%s = &%s[%s];", tc, it, arr.ptr, i)
    pre[#pre + 1] = string.format("    (void)%s;", it)
    elem_env.it = it
    elem_env.prev = string.format("(%s ? &%s[%s - 1] : &%s_zero)", i, arr.ptr, i, tc)
  else
    elem_env.it = string.format("%s[%s]", arr.ptr, i)
    elem_env.prev = string.format("(%s ? %s[%s - 1] : 0)", i, arr.ptr, i)
  end
end

-- The values a loaded integer primitive can have (64-bit ones: any, not listed).
local prim_range = { u8 = { 0, 0xFF }, u16 = { 0, 0xFFFF }, u24 = { 0, 0xFFFFFF }, u32 = { 0, 0xFFFFFFFF },
  s8 = { -0x80, 0x7F }, s16 = { -0x8000, 0x7FFF }, s24 = { -0x800000, 0x7FFFFF }, s32 = { -0x80000000, 0x7FFFFFFF } }

-- A field compared with a constant its type decides (u8 <= 255, u32 >= 0): C compilers
-- call that comparison always true or false (-Wtype-limits), so it is written as its
-- value, the field still evaluated. nil when the comparison depends on the field.
function constant_comparison(a, op, b)
  local x, lit = a, b.lit
  if not (a.prim and lit) then
    if not (b.prim and a.lit) then return nil end
    x, lit = b, a.lit -- L op x is x op' L
    op = ({ ["<"] = ">", [">"] = "<", ["<="] = ">=", [">="] = "<=" })[op] or op
  end
  local r = prim_range[x.prim]
  if not r then return nil end
  local lo, hi = r[1], r[2]
  local always, never -- true whatever the field holds; false whatever it holds
  if op == "<" then always, never = hi < lit, lo >= lit
  elseif op == "<=" then always, never = hi <= lit, lo > lit
  elseif op == ">" then always, never = lo > lit, hi <= lit
  elseif op == ">=" then always, never = lo >= lit, hi < lit
  elseif op == "==" then always, never = false, lit < lo or lit > hi
  elseif op == "!=" then always, never = lit < lo or lit > hi, false end
  if not always and not never then return nil end
  return truth_piece(string.format("((void)%s, %d)", x.c, always and 1 or 0), P.primary)
end

local function place(e, env)
  local pl = env.places or reader_places
  local k = e.k
  if k == "int" then return literal(e.v) end
  if k == "float" then
    local c = string.format("%.17g", e.v)
    return { kind = "float", c = c, prec = c:sub(1, 1) == "-" and P.unary or P.primary, ty = "double" }
  end
  if k == "name" then
    local r = e.ref
    if r == "field" then return pl.field(env, nil, e.field) end
    if r == "param" then return int_piece(env.self .. "->_p_" .. e.name, P.primary, "i64") end
    if r == "root" then return pl.root(env, e) end
    if r == "index" then
      if env.index then return int_piece(env.index, text_prec(env.index), "i64") end
      return int_piece(env.self .. "->_index", P.primary, "i64")
    end
    if r == "start" then return int_piece("(int64_t)" .. env.self .. "->_offset", P.unary, "i64") end
    if r == "pos" then
      if env.pos then return int_piece(env.pos, text_prec(env.pos), "i64") end
      return int_piece("(int64_t)c->pos", P.unary, "i64")
    end
    if r == "end" then return int_piece("(int64_t)c->end", P.unary, "i64") end
    if r == "size" then return int_piece("(int64_t)c->size", P.unary, "i64") end
    if r == "revision" then return int_piece("c->revision", P.primary, "i64") end
    if r == "named" then return pl.named(env, e, nil) end
    if r == "it" or r == "prev" or r == "value" then return pl.value(env, r, e.vt) end
    refuse(env, "the name " .. tostring(e.name))
  end
  if k == "member" then
    if e.ref == "enum_const" then return enum_const_piece(e, env) end
    local obj = place(e.a, env)
    if e.ref == "case" then return pl.case(env, e, obj) end
    if e.ref == "named" then return pl.named(env, e, obj) end
    if e.ref == "bits" then
      -- computed from the packed value, so that it works on any place (_value, _it, fields)
      local b = e.field.bits[e.name]
      local raw = "(uint64_t)" .. paren(obj, P.unary)
      if b.shift > 0 then raw = string.format("(%s >> %d)", raw, b.shift) end
      local masked = string.format("%s & UINT64_C(0x%X)", raw, (1 << b.width) - 1)
      if b.signed then return int_piece(string.format("bf_sext(%s, %d)", masked, b.width), P.primary, "i64") end
      return int_piece("(int64_t)(" .. masked .. ")", P.unary, "i64")
    end
    if obj.kind ~= "struct" then refuse(env, "member access on a " .. obj.kind) end
    return pl.field(env, obj, e.field)
  end
  if k == "index" then
    local arr = place(e.a, env)
    if arr.kind ~= "array" then refuse(env, "indexing a " .. arr.kind) end
    return pl.element(env, arr, num(e.b, env))
  end
  if k == "call" then
    if M.quantifiers[e.name] then return M.quantifier(e, env) end
    if e.name == "tag" then
      -- the case value of the switch's active case: its type's kind, or the raw case's number
      local sw = place(e.args[1], env)
      if sw.kind ~= "switch" then refuse(env, "tag() of a " .. sw.kind) end
      local p = literal(0)
      local cases = sw.field.cases
      for i = #cases, 1, -1 do
        local case = cases[i]
        if not case.default then
          local kind = case.type and names.kind_const(env.fmt, case.type) or raw_case_name(env, sw.field, i)
          local v = literal(case.value)
          p = int_piece(string.format("%s == %s ? %s : %s", sw.kind_c, kind, paren(v, P.lor), paren(p, P.cond)),
            P.cond, common_ty(v, p), v.nn and p.nn)
        end
      end
      return p
    end
    if e.name == "offset" then return pl.offset(env, e.args[1]) end
    if e.name == "indexof" then
      local x = num(e.args[1], env)
      local p = literal(-1)
      for i = #e.args, 2, -1 do
        local a, b = unify(x, num(e.args[i], env))
        p = int_piece(string.format("%s == %s ? %d : %s", paren(a, P.shift), paren(b, P.shift), i - 2,
          paren(p, P.cond)), P.cond, "int")
      end
      return p
    end
    if e.name == "first_nonzero" then
      if #e.args == 1 then return num(e.args[1], env) end
      -- (views read runs of consecutive fields with one call)
      local p = pl.first_nonzero and pl.first_nonzero(env, e)
      if p then return p end
      local c = arg(num(e.args[#e.args], env))
      for i = #e.args - 1, 1, -1 do c = string.format("bf_nonzero_or(%s, %s)", arg(num(e.args[i], env)), c) end
      return int_piece(c, P.primary, "i64")
    end
    if e.name == "lz4_size" then
      local b = place(e.args[1], env)
      if b.kind ~= "bytes" then refuse(env, "lz4_size() of a " .. b.kind) end
      return pl.lz4_size(env, b, arg(num(e.args[2], env)))
    end
    if e.name == "len" then
      local a = place(e.args[1], env)
      return pl.len(env, a)
    end
    local fl = e.vt == "float"
    local a, b = num(e.args[1], env, fl), num(e.args[2], env, fl)
    local fn = (e.name == "min" and "bf_min" or "bf_max") .. (fl and "f" or "")
    local c = string.format("%s(%s, %s)", fn, arg(a), arg(b))
    if fl then return { kind = "float", c = c, prec = P.primary, ty = "double" } end
    return int_piece(c, P.primary, "i64")
  end
  if k == "unary" then
    local fl = e.vt == "float"
    local a = num(e.a, env, fl)
    if e.op == "-" then
      if a.lit and a.lit ~= math.mininteger then return literal(-a.lit) end
      if fl then return { kind = "float", c = "-" .. paren(a, P.unary), prec = P.unary, ty = "double" } end
      return int_piece("bf_neg(" .. arg(a) .. ")", P.primary, "i64")
    end
    if e.op == "!" then return truth_piece("!" .. paren(a, P.unary), P.unary) end
    -- ~: sign extension commutes with it, so int and int64_t operands keep their value
    if a.ty ~= "int" and a.ty ~= "i64" then a = as_i64(a) end
    return int_piece(e.op .. paren(a, P.unary), P.unary, a.ty, false)
  end
  if k == "binary" then
    local op = e.op
    local float = e.a.vt == "float" or e.b.vt == "float"
    local a, b = num(e.a, env, float), num(e.b, env, float)
    local prec = op_prec[op]
    if op == "&&" or op == "||" then
      -- truth values: any scalar type tests the same
      local function side(p)
        if p.prec >= P.bor and p.prec <= P.band or p.prec == P.land and prec == P.lor then return "(" .. p.c .. ")" end
        return paren(p, prec)
      end
      return truth_piece(side(a) .. " " .. op .. " " .. side(b), prec)
    end
    local function side(p, right)
      -- comparisons and mixed bitwise operators are parenthesised for the reader (and -Wparentheses)
      if p.prec >= P.lor and p.prec <= P.rel and (p.prec ~= prec or prec == P.rel or prec == P.eq) then
        return "(" .. p.c .. ")"
      end
      return paren(p, right and prec + 1 or prec)
    end
    if prec == P.rel or prec == P.eq then
      local known = constant_comparison(a, op, b)
      if known ~= nil then return known end
      a, b = unify(a, b)
      return truth_piece(side(a) .. " " .. op .. " " .. side(b, true), prec)
    end
    if float then return { kind = "float", c = side(a) .. " " .. op .. " " .. side(b, true), prec = prec, ty = "double" } end
    if op == "/" then return int_piece(string.format("bf_div(c, %s, %s)", arg(a), arg(b)), P.primary, "i64") end
    if op == "%" then return int_piece(string.format("bf_mod(c, %s, %s)", arg(a), arg(b)), P.primary, "i64") end
    if int_ops[op] then
      return int_piece(string.format("%s(%s, %s)", int_ops[op], arg(a), arg(b)), P.primary, "i64")
    end
    -- & | ^: same values as on int64_t when the usual conversions keep both operands' values
    a, b = unify(a, b)
    local nn
    if op == "&" then nn = a.nn or b.nn else nn = a.nn and b.nn end
    return int_piece(side(a) .. " " .. op .. " " .. side(b, true), prec, common_ty(a, b), nn or false)
  end
  if k == "cond" then
    local float = e.vt == "float"
    local cond = num(e.a, env)
    local t, f = num(e.b, env, float), num(e.c, env, float)
    t, f = unify(t, f)
    local c = string.format("%s ? %s : %s", paren(cond, P.lor), paren(t, P.lor), paren(f, P.cond))
    if float then return { kind = "float", c = c, prec = P.cond, ty = "double" } end
    return int_piece(c, P.cond, common_ty(t, f), t.nn and f.nn)
  end
  refuse(env, "expression kind " .. tostring(k))
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
-- (expressions never change: each one's key is made once)
local key_of = setmetatable({}, { __mode = "k" })

local function key(e)
  if not e then return "" end
  local k = key_of[e]
  if k then return k end
  local parts = { e.k, e.name or "", e.ref or "", e.op or "", tostring(e.v or ""), e.vt or "",
    e.field and (e.field.owner .. "." .. e.field.name) or "", key(e.a), key(e.b), key(e.c) }
  for _, arg in ipairs(e.args or {}) do parts[#parts + 1] = key(arg) end
  k = "(" .. table.concat(parts, " ") .. ")"
  key_of[e] = k
  return k
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
  if not env.pre then refuse(env, e.name .. "() outside rules") end
  -- env.quantified (only where set, not inherited by loop bodies): the same quantifier
  -- twice in one rule, or again in its message, is one loop
  local memo = rawget(env, "quantified")
  local k = memo and key(e)
  if memo and memo[k] then return memo[k]() end
  local piece = M.quantifier_loop(e, env)
  if memo then
    memo[k] = function()
      local copy = {}
      for name, value in pairs(piece) do copy[name] = value end
      return copy
    end
  end
  return piece
end

function M.quantifier_loop(e, env)
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
  local loop_at = #pre + 1
  pre[#pre + 1] = string.format("for (uint32_t %s = 0; %s < (uint32_t)(%s); %s++) {", i, i, arr.count, i)
  local elem_env = setmetatable({ index = "(int64_t)" .. i, elem_field = fl, pre = {} }, { __index = env })
  local declared_from = #pre + 1
  -- (`outer`: what the places declare before the loop, kept from one element to the next)
  local outer = {}
  ;(env.places or reader_places).each(env, arr, i, it, elem_env, pre, e.args[2], outer)
  local declared_to = #pre
  local body = num(e.args[2], elem_env, float)
  for _, l in ipairs(elem_env.pre) do pre[#pre + 1] = "    " .. l end
  -- a condition that does not use the element (first(a, a[_index] == 2)) leaves the
  -- variable the places declared for it unused, which -Werror refuses
  local word = "%f[%w_]" .. it .. "%f[^%w_]"
  local declares, uses = false, body.c:find(word) ~= nil
  for j = declared_from, declared_to do declares = declares or pre[j]:find(word .. " =") ~= nil end
  for j = declared_to + 1, #pre do uses = uses or pre[j]:find(word) ~= nil end
  if declares and not uses then table.insert(pre, declared_to + 1, "    (void)" .. it .. ";") end
  if e.name == "count" then
    pre[#pre + 1] = string.format("    %s += %s;", acc, body.truth and body.c or (paren(body, P.shift) .. " != 0"))
  elseif e.name == "sum" then
    pre[#pre + 1] = string.format("    %s = %s;", acc, float and (acc .. " + " .. paren(body, P.mul)) or ("bf_add(" .. acc .. ", " .. body.c .. ")"))
  elseif e.name == "first" then
    pre[#pre + 1] = string.format("    if (%s) { %s = %s; break; }", body.c, acc, i)
  elseif e.name == "all" then
    pre[#pre + 1] = string.format("    if (!%s) { %s = 0; break; }", paren(body, P.unary), acc)
  else
    pre[#pre + 1] = string.format("    if (%s) { %s = 1; break; }", body.c, acc)
  end
  pre[#pre + 1] = "}"
  if #outer > 0 then -- the loop in a block of its own, after those declarations
    for j = loop_at, #pre do pre[j] = "    " .. pre[j] end
    for j = #outer, 1, -1 do table.insert(pre, loop_at, "    " .. outer[j]) end
    table.insert(pre, loop_at, "{")
    pre[#pre + 1] = "}"
  end
  if slot then
    -- kept only when it evaluated cleanly: a failure is reported again wherever it is used
    pre[#pre + 1] = string.format("if (!%s->set[%d] && !c->err->failed) {", env.cache, slot)
    pre[#pre + 1] = string.format("    %s->set[%d] = 1;", env.cache, slot)
    pre[#pre + 1] = string.format("    %s = %s;", slot_value, acc)
    pre[#pre + 1] = "}"
  end
  if float then return { kind = "float", c = acc, prec = P.primary, ty = "double" } end
  return int_piece(acc, P.primary, "i64")
end

-- The C text of an expression used as a number: an int64_t, safe inside any larger expression.
function M.c(e, env) return paren(as_i64(num(e, env)), P.unary) end
-- The same where nothing binds to it: the right of `=`, a call's argument, `return`.
function M.value(e, env) return as_i64(num(e, env)).c end
-- The C text of an integer to initialise an int64_t with: as it is where C's conversion
-- keeps its value, else converted like M.value.
function M.init_i64(e, env)
  local p = num(e, env)
  if p.kind == "float" or p.ty == "u64" or p.ty == "any" then return as_i64(p).c end
  return p.c
end
-- The C text as a double, for the same places as M.value.
function M.cf(e, env) return as_double(num(e, env)).c end
-- The C text of an expression used as a condition (`if (...)`): any scalar type tests the same.
function M.cond(e, env) return num(e, env).c end
-- The C text of an expression's truth as an int, 0 or 1.
function M.truth(e, env)
  local p = num(e, env)
  if p.truth then return p.c end
  return paren(p, P.shift) .. " != 0"
end
-- The place (for bytes tables and arrays).
M.place = place

-- For other places (c_view.lua): pieces and their precedence.
M.P = P
M.paren = paren
M.literal = literal
M.int_piece = int_piece
-- A value of a primitive's C type (`c` binds as tightly as a call), as a piece.
function M.prim_piece(prim, c)
  if prim == "f64" then return { kind = "float", c = c, prec = P.primary, ty = "double" } end
  if prim == "f32" then return { kind = "float", c = "(double)" .. c, prec = P.unary, ty = "double" } end
  local p = int_piece(c, P.primary, prim_ty[prim] or "any", prim_nn[prim])
  p.prim = prim
  return p
end
M.text_prec = text_prec

return M
