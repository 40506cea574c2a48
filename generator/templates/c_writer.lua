-- <format>_write.c: the writers.
--
-- Replay (`<fmt>_write_<kind>`): every field is written back from the document at the
-- position it was read from, padding, tails and unknown bytes included, so that reading
-- then writing reproduces a file byte for byte.
--
-- Layout (`<fmt>_build_<kind>`): the document is laid out anew. Structures go where the
-- cursor is; data reached through offsets is queued and placed after what comes before it,
-- aligned as its type says (pooled data right after the region its offset is relative to);
-- counts, sizes, offsets, string references, constants, packed bits and `value:` formulas
-- are computed; passes repeat until the image no longer changes.
local names = require("names")
local cexpr = require("cexpr")
local layout = require("c_layout")

local W = {}

local function ct(fmt, t) return names.ctype(fmt, t) end

local stores = {
  u8 = function(p, v) return string.format("%s[0] = (uint8_t)(%s);", p, v) end,
  char = function(p, v) return string.format("%s[0] = (uint8_t)(%s);", p, v) end,
  s8 = function(p, v) return string.format("%s[0] = (uint8_t)(%s);", p, v) end,
  u16 = function(p, v, e) return string.format("bf_store_u16%s(%s, (uint16_t)(%s));", e, p, v) end,
  s16 = function(p, v, e) return string.format("bf_store_u16%s(%s, (uint16_t)(%s));", e, p, v) end,
  u24 = function(p, v, e) return string.format("bf_store_u24%s(%s, (uint32_t)(%s));", e, p, v) end,
  s24 = function(p, v, e) return string.format("bf_store_u24%s(%s, (uint32_t)(%s) & 0xFFFFFFu);", e, p, v) end,
  u32 = function(p, v, e) return string.format("bf_store_u32%s(%s, (uint32_t)(%s));", e, p, v) end,
  s32 = function(p, v, e) return string.format("bf_store_u32%s(%s, (uint32_t)(%s));", e, p, v) end,
  u64 = function(p, v, e) return string.format("bf_store_u64%s(%s, (uint64_t)(%s));", e, p, v) end,
  s64 = function(p, v, e) return string.format("bf_store_u64%s(%s, (uint64_t)(%s));", e, p, v) end,
  f32 = function(p, v, e) return string.format("bf_store_u32%s(%s, bf_f32_bits(%s));", e, p, v) end,
  f64 = function(p, v, e) return string.format("bf_store_u64%s(%s, bf_f64_bits(%s));", e, p, v) end,
}

-- 24-bit fields are held in 32 bits: a value that no longer fits is an error, not a wrap.
local function range_check(fl, v)
  if fl.prim == "u24" then return string.format('if (!bf_check_fits(w, (uint64_t)(%s), 24, "%s")) return 0;', v, fl.name) end
  if fl.prim == "s24" then return string.format('if (!bf_check_fits_signed(w, (int64_t)(%s), 24, "%s")) return 0;', v, fl.name) end
  return nil
end

local function new_env(fmt, ix)
  return { fmt = fmt, ix = ix, self = "s", root = "R", root_mut = "RW", counter = { n = 0 }, pos = "(int64_t)w->pos" }
end

-- String tables: the fields some string reference points into.
local function table_fields(fmt)
  local t = {}
  for _, ty in ipairs(fmt.types) do
    for _, fl in ipairs(ty.fields) do
      local st = fl.string_table
      if st and st.field then t[st.field.owner .. "." .. st.field.name] = st end
    end
  end
  return t
end

local function count_of(fl) return fl.fixed_count and tostring(fl.fixed_count) or ("s->" .. fl.name .. "_count") end

local function write_value(fmt, ix, fl, L, env)
  local name, k = fl.name, fl.kind
  local function w(s) L[#L + 1] = s end
  local count = count_of(fl)
  if k == "prim" then
    local size = fl.prim_size
    if fl.array then
      w("{")
      w(string.format('    uint8_t *p = bf_put(w, (uint64_t)%s * %d, "%s");', count, size, name))
      w("    if (!p)")
      w("        return 0;")
      local chk = range_check(fl, "s->" .. name .. "[i]")
      if fl.fixed_count or chk then -- a few elements, or each one checked: inline
        w(string.format("    for (uint32_t i = 0; i < (uint32_t)%s; i++) {", count))
        if chk then w("        " .. chk) end
        w("        " .. stores[fl.prim](string.format("(p + (size_t)i * %d)", size), "s->" .. name .. "[i]", fl.endian))
        w("    }")
      else -- any count the file claims: one runtime call
        w(string.format("    bf_store_array(p, s->%s, (size_t)%s, %d, %d);", name, count, size, fl.endian == "be" and 1 or 0))
      end
      w("}")
    else
      w("{")
      local chk = range_check(fl, "s->" .. name)
      if chk then w("    " .. chk) end
      w(string.format('    uint8_t *p = bf_put(w, %d, "%s");', size, name))
      w("    if (!p)")
      w("        return 0;")
      w("    " .. stores[fl.prim]("p", "s->" .. name, fl.endian))
      w("}")
    end
  elseif k == "struct" then
    local T = ix.types[fl.type]
    local function child(dst, index_c, prev_c)
      -- in layout mode the child learns its index and parameters from here
      w(string.format("    if (w->layout) {"))
      w(string.format("        %s._index = %s;", dst, index_c))
      for _, p in ipairs(T.params) do
        local e2 = setmetatable({ index = index_c, prev = prev_c, elem_field = fl }, { __index = env })
        w(string.format("        %s._p_%s = %s;", dst, p.name, cexpr.value(fl.args[p.name], e2)))
      end
      w("    }")
    end
    if fl.array then
      w(string.format("for (uint32_t i = 0; i < (uint32_t)%s; i++) {", count))
      child("s->" .. name .. "[i]", "(int64_t)i", string.format("(i ? &s->%s[i - 1] : &%s_zero)", name, ct(fmt, fl.type)))
      w(string.format('    if (!bf_push(&w->c, "%s", i) || !write_%s(w, &s->%s[i]))', name, fl.type, name))
      w("        return 0;")
      w("    bf_pop(&w->c);")
      w("}")
    else
      w("{")
      child("s->" .. name, "0", "NULL")
      w(string.format('    if (!bf_push(&w->c, "%s", -1) || !write_%s(w, &s->%s))', name, fl.type, name))
      w("        return 0;")
      w("    bf_pop(&w->c);")
      w("}")
    end
  elseif k == "bytes" then
    w(string.format('if (!bf_put_bytes(w, s->%s.ptr, s->%s.len, "%s"))', name, name, name))
    w("    return 0;")
  elseif k == "str" or k == "cstr" then
    local one = function(dst)
      if k == "str" then return string.format('bf_put_fixed_str(w, &%s, %d, "%s")', dst, fl.str_len, name) end
      return string.format('bf_put_cstr(w, &%s, "%s")', dst, name)
    end
    if fl.array then
      w(string.format("for (uint32_t i = 0; i < (uint32_t)%s; i++)", count))
      w(string.format("    if (!%s)", one("s->" .. name .. "[i]")))
      w("        return 0;")
    else
      w(string.format("if (!%s)", one("s->" .. name)))
      w("    return 0;")
    end
  elseif k == "switch" then
    local seen = {}
    local first = true
    for _, case in ipairs(fl.cases) do
      if case.type and not seen[case.type] then
        seen[case.type] = true
        w(string.format("%sif (s->%s.kind == %s) {", first and "" or "} else ", name, names.kind_const(fmt, case.type)))
        w(string.format('    if (!bf_push(&w->c, "%s", -1) || !write_%s(w, s->%s.%s))', name, case.type, name, case.type))
        w("        return 0;")
        w("    bf_pop(&w->c);")
        first = false
      end
    end
    w(string.format("%s{", first and "" or "} else "))
    local pools = {}
    for i, case in ipairs(fl.cases) do
      if case.pool then pools[#pools + 1] = string.format("s->%s.kind == %s", name, names.raw_case_kind(fmt, fl, i)) end
    end
    local skip = ""
    if #pools > 0 then
      -- a pool's bytes are the data placed into it, not its own
      skip = string.format("!(w->layout && (%s)) && ", table.concat(pools, " || "))
    end
    w(string.format('    if (%s!bf_put_bytes(w, s->%s.raw.ptr, s->%s.raw.len, "%s"))', skip, name, name, name))
    w("        return 0;")
    w("}")
  end
end

-- Where a field of the structure being written starts: its static offset in the
-- structure, else the cursor (the field is written next).
local function own_at(fl)
  if fl.offset then return string.format("(uint64_t)s->_offset + %d", fl.offset) end
  return "(uint64_t)w->pos"
end

local function own_path(name) return { fmt = name, args = {}, rooted = false } end

-- Layout-mode lines computing a field's own value before it is written.
local function compute_lines(fmt, ix, t, fl, env, tables)
  local L = {}
  local function w(s) L[#L + 1] = s end
  local name = fl.name
  local pre = {}
  local e2 = setmetatable({ pre = pre }, { __index = env })
  if fl.kind == "prim" and not fl.array then
    if fl.const then
      w(string.format("s->%s = %s;", name, cexpr.value(fl.const, e2)))
    elseif fl.value then
      local v = cexpr.c(fl.value, e2)
      for _, l in ipairs(pre) do w(l) end
      for _, l in ipairs(layout.store({}, "s->" .. name, fl.prim, v, own_at(fl), own_path(name))) do w(l) end
    elseif #fl.bits > 0 then
      local parts = {}
      for _, b in ipairs(fl.bits) do
        -- a part wider than its bits would be cut to them: an error instead
        local part = string.format("%s_%s", name, b.name)
        w(string.format("if (!bf_fits((int64_t)s->%s, %d, %d))", part, b.width, b.signed and 1 or 0))
        w(string.format('    bf_overflow(w, &s->%s, (int64_t)s->%s, %d, %d, %s, 0, "%s");', part, part, b.width,
          b.signed and 1 or 0, own_at(fl), part))
        w("else if (w->overflow_count)")
        w(string.format("    bf_overflow_clear(w, &s->%s);", part))
        parts[#parts + 1] = string.format("(((uint64_t)s->%s & UINT64_C(0x%X)) << %d)", part, (1 << b.width) - 1, b.shift)
      end
      w(string.format("s->%s = %s;", name, table.concat(parts, " | ")))
    end
    if fl.string_table then
      local st = fl.string_table
      local tbl = {}
      local key = layout.pointer(st, env, tbl)
      for _, l in ipairs(tbl) do w(l) end
      local prefix = st.field.prefix or ""
      w(string.format('{ int64_t off = bf_intern(w, %s, (const uint8_t *)%s, %d, &s->%s_str, "%s");', key, names.cstring(prefix), #prefix, name, name))
      w("  if (w->err.failed)")
      w("      return 0;")
      if fl.string_null then
        w(string.format("  if (off < 0) off = %d;", fl.string_null))
      else
        w(string.format('  if (off < 0) return bf_fail(&w->c, w->pos, "%s", "the string is missing");', name))
      end
      for _, l in ipairs(layout.store({}, "s->" .. name, fl.prim, "off", own_at(fl), own_path(name))) do w("  " .. l) end
      w("}")
    end
  end
  if (fl.kind == "str") and fl.const_str then
    w(string.format("s->%s.ptr = %s;", name, names.cstring(fl.const_str)))
    w(string.format("s->%s.len = %d;", name, #fl.const_str))
    w(string.format("s->%s.size = 0;", name))
  end
  if fl.kind == "bytes" and tables[t.name .. "." .. name] then
    w(string.format("s->%s = bf_table_bytes(w, &s->%s);", name, name))
  end
  if fl.computed then
    -- a table the builder makes: as many zeroed elements as its count says
    local tc = ct(fmt, fl.type)
    w("{")
    w(string.format("    int64_t n = %s;", cexpr.value(fl.count, env)))
    w(string.format("    if (n < 0 || n > (int64_t)UINT32_MAX)"))
    w(string.format('        return bf_fail(&w->c, w->pos, "%s", "count %%lld is out of range", (long long)n);', name))
    w(string.format("    if ((uint64_t)n != s->%s_count) {", name))
    w(string.format("        %s *a = bf_arena_alloc(w->arena, (size_t)n * sizeof *a + 1);", tc))
    w("        if (!a)")
    w(string.format('            return bf_fail(&w->c, w->pos, "%s", "out of memory");', name))
    w(string.format("        s->%s = a;", name))
    w(string.format("        s->%s_count = (uint32_t)n;", name))
    w("    }")
    w("}")
  end
  if fl.kind == "bytes" and fl.count and not tables[t.name .. "." .. name] then
    -- bytes whose length an expression gives (padding to something placed later)
    local solved = layout.solve(fl.count, "(int64_t)s->" .. name .. ".len", env, nil)
    if not solved then
      w("{")
      w(string.format("    int64_t n = %s;", cexpr.value(fl.count, env)))
      w("    w->err.failed = 0; /* an expression over what is not placed yet: fixed by the next pass */")
      w("    if (n < 0)")
      w("        n = 0;")
      w(string.format("    if (!s->%s.ptr || s->%s.len != (size_t)n) {", name, name))
      w(string.format("        s->%s.ptr = NULL;", name))
      w(string.format("        s->%s.len = (size_t)n;", name))
      w("    }")
      w("}")
    end
  end
  return L
end

-- Layout-mode lines run at the start of a structure: every count the structure's arrays
-- (and, through parameters, its children's arrays) determine.
local function derive_lines(fmt, ix, t, env)
  local L = {}
  for _, fl in ipairs(t.fields) do
    local guard = fl.cond and ("if (s->has_" .. fl.name .. ") ") or ""
    local function emit(solved)
      if not solved then return end
      L[#L + 1] = guard .. "{"
      for _, l in ipairs(solved) do L[#L + 1] = "    " .. l end
      L[#L + 1] = "}"
    end
    if fl.count and not fl.fixed_count and not fl.computed then
      local len = fl.kind == "bytes" and ("(int64_t)s->" .. fl.name .. ".len") or ("(int64_t)s->" .. fl.name .. "_count")
      emit(layout.solve(fl.count, len, env, nil))
    end
    if fl.kind == "struct" and not fl.array and next(fl.args) then
      local T = ix.types[fl.type]
      for _, cf in ipairs(T.fields) do
        if cf.count and cf.count.k == "name" and cf.count.ref == "param" then
          local len = string.format("(int64_t)s->%s.%s_count", fl.name, cf.name)
          emit(layout.solve(cf.count, len, env, fl.args))
        end
      end
    end
  end
  return L
end

-- Alignment of located data, by the type (or case) placed.
local function placement_align(fmt, ix, fl)
  if fl.align then return tostring(fl.align) end
  if fl.kind == "struct" then return tostring(ix.types[fl.type].align or 1) end
  if fl.kind == "switch" then
    local c = "1"
    for i = #fl.cases, 1, -1 do
      local case = fl.cases[i]
      local a = case.align or (case.type and ix.types[case.type].align) or 1
      if case.default then
        c = tostring(a)
      else
        local kind = case.type and names.kind_const(fmt, case.type) or names.raw_case_kind(fmt, fl, i)
        c = string.format("(s->%s.kind == %s ? %d : %s)", fl.name, kind, a, c)
      end
    end
    return c
  end
  return "1"
end

-- The pooled base of a located field `pos: BASE + own_field`, or nil.
local function pool_base(fl)
  local e = fl.pos
  if e.k == "binary" and e.op == "+" then
    if e.b.k == "name" and e.b.ref == "field" then return e.a end
    if e.a.k == "name" and e.a.ref == "field" then return e.b end
  end
  return nil
end

-- Whether an expression's value depends on the structure it is evaluated for (its fields,
-- parameters, index, position) rather than only on the root.
local owner_refs = { field = true, param = true, index = true, start = true, pos = true, ["end"] = true, size = true, bits = true }
local function uses_owner(e)
  if not e then return false end
  if e.k == "name" and owner_refs[e.ref] then return true end
  if uses_owner(e.a) or uses_owner(e.b) or uses_owner(e.c) then return true end
  for _, arg in ipairs(e.args or {}) do
    if uses_owner(arg) then return true end
  end
  return false
end

function W.place_function(fmt, ix, t, fl, tables)
  local o = {}
  local depth = 1
  local function w(s) o[#o + 1] = string.rep("    ", depth) .. s end
  local env = new_env(fmt, ix)
  local tc = ct(fmt, t.name)
  local base = pool_base(fl)
  if base then
    o[#o + 1] = string.format("static int64_t base_%s_%s(bf_wctx *w, void *owner)", t.name, fl.name)
    o[#o + 1] = "{"
    w(tc .. " *s = owner;")
    w("bf_ctx *c = &w->c;")
    w("const " .. ct(fmt, ix.root.name) .. " *R = c->root;")
    w("(void)R;")
    w("(void)s;")
    w("return " .. cexpr.value(base, env) .. ";")
    o[#o + 1] = "}"
    o[#o + 1] = ""
  end
  o[#o + 1] = string.format("static int place_%s_%s(bf_wctx *w, void *owner)", t.name, fl.name)
  o[#o + 1] = "{"
  w(tc .. " *s = owner;")
  w("bf_ctx *c = &w->c;")
  w("const " .. ct(fmt, ix.root.name) .. " *R = c->root;")
  w(ct(fmt, ix.root.name) .. " *RW = w->root;")
  w("(void)R;")
  w("(void)RW;")
  w(string.format('if (!bf_place_at_end(w, %s, "%s"))', placement_align(fmt, ix, fl), fl.name))
  w("    return 0;")
  w(string.format("s->%s_at = w->pos;", fl.name))
  local solved = layout.solve(fl.pos, string.format("(int64_t)s->%s_at", fl.name), env, nil)
  if not solved then
    w(string.format('return bf_fail(&w->c, w->pos, "%s", "the builder cannot place data at %%s", %s);', fl.name,
      names.cstring(fl.pos.text)))
    o[#o + 1] = "}"
    return table.concat(o, "\n")
  end
  for _, l in ipairs(solved) do w(l) end
  if fl.size then w(string.format("s->%s_tail.len = 0;", fl.name)) end
  for _, l in ipairs(compute_lines(fmt, ix, t, fl, env, tables)) do w(l) end
  local L = {}
  write_value(fmt, ix, fl, L, env)
  for _, l in ipairs(L) do w(l) end
  w(string.format("return bf_place_pooled(w, (int64_t)s->%s_at);", fl.name))
  o[#o + 1] = "}"
  return table.concat(o, "\n")
end

function W.function_for(fmt, ix, t, tables)
  local o = {}
  local depth = 1
  local function w(s) o[#o + 1] = string.rep("    ", depth) .. s end
  local env = new_env(fmt, ix)
  o[#o + 1] = string.format("static int write_%s(bf_wctx *w, %s *s)", t.name, ct(fmt, t.name))
  o[#o + 1] = "{"
  w("bf_ctx *c = &w->c;")
  w("const " .. ct(fmt, ix.root.name) .. " *R = c->root;")
  w(ct(fmt, ix.root.name) .. " *RW = w->root;")
  w("(void)c;")
  w("(void)R;")
  w("(void)RW;")
  w("if (w->layout) {")
  w("    s->_offset = w->pos;")
  for _, l in ipairs(derive_lines(fmt, ix, t, env)) do w("    " .. l) end
  w("} else if (!bf_wseek(w, s->_offset, NULL)) {")
  w("    return 0;")
  w("}")
  for _, fl in ipairs(t.fields) do
    w("/* " .. fl.name .. " */")
    if fl.cond then
      if fl.array then
        w(string.format("if (w->layout && s->%s_count > 0)", fl.name))
        w(string.format("    s->has_%s = 1;", fl.name))
      end
      w(string.format("if (s->has_%s) {", fl.name))
      depth = depth + 1
    end
    local compute = compute_lines(fmt, ix, t, fl, env, tables)
    if #compute > 0 then
      w("if (w->layout) {")
      for _, l in ipairs(compute) do w("    " .. l) end
      w("}")
    end
    if fl.align and not fl.pos then
      w("if (w->layout) {")
      w(string.format("    s->%s_pad.ptr = NULL;", fl.name))
      w(string.format("    s->%s_pad.len = (%d - w->pos %% %d) %% %d;", fl.name, fl.align, fl.align, fl.align))
      w("}")
      w(string.format('if (!bf_put_bytes(w, s->%s_pad.ptr, s->%s_pad.len, "%s"))', fl.name, fl.name, fl.name))
      w("    return 0;")
    end
    if fl.pos then
      w("if (w->layout) {")
      if layout.has_target(fl.pos) and pool_base(fl) then
        w(string.format("    if (!bf_enqueue_pooled(w, place_%s_%s, base_%s_%s, s, %d))", t.name, fl.name, t.name,
          fl.name, uses_owner(pool_base(fl)) and 0 or 1))
        w("        return 0;")
      elseif layout.has_target(fl.pos) then
        w(string.format("    if (!bf_enqueue(w, place_%s_%s, NULL, s))", t.name, fl.name))
        w("        return 0;")
      else
        w("    /* a view of bytes another field writes: nothing to place */")
      end
      w("} else {")
      depth = depth + 1
      w("size_t resume = w->pos;")
      w(string.format('if (!bf_wseek(w, s->%s_at, "%s"))', fl.name, fl.name))
      w("    return 0;")
    else
      if not fl.offset then w(string.format("s->%s_at = w->pos;", fl.name)) end
      if fl.size then
        w("size_t region = w->pos;")
        w("(void)region;")
      end
    end
    local L = {}
    write_value(fmt, ix, fl, L, env)
    for _, l in ipairs(L) do w(l) end
    if fl.size then
      w("if (w->layout)")
      w(string.format("    s->%s_tail.len = 0;", fl.name))
      w(string.format('if (!bf_put_bytes(w, s->%s_tail.ptr, s->%s_tail.len, "%s"))', fl.name, fl.name, fl.name))
      w("    return 0;")
      if not fl.pos then
        local solved = layout.solve(fl.size, "(int64_t)(w->pos - region)", env, nil)
        if solved then
          w("if (w->layout) {")
          for _, l in ipairs(solved) do w("    " .. l) end
          w("}")
        end
      end
    end
    if fl.pos then
      w("w->pos = resume;")
      depth = depth - 1
      w("}")
    end
    if fl.cond then
      depth = depth - 1
      w("}")
    end
  end
  w("return 1;")
  o[#o + 1] = "}"
  return table.concat(o, "\n")
end

function W.source(fmt)
  local ix = names.index(fmt)
  local tables = table_fields(fmt)
  local o = {}
  local function w(s) o[#o + 1] = s or "" end
  w("/* Generated by bfgen from " .. fmt.schema .. ". Do not edit: change the schema. */")
  w("#include \"" .. fmt.name .. ".h\"")
  w()
  w("#include <stdio.h>")
  w("#include <stdlib.h>")
  w("#include <string.h>")
  w()
  w("#include \"bf_expr.h\"")
  w("#include \"bf_write.h\"")
  w()
  for _, t in ipairs(fmt.types) do
    w(string.format("static int write_%s(bf_wctx *w, %s *s);", t.name, ct(fmt, t.name)))
  end
  w()
  w("#include \"" .. fmt.name .. "_access.h\"")
  w()
  for _, t in ipairs(fmt.types) do
    for _, fl in ipairs(t.fields) do
      if fl.pos and layout.has_target(fl.pos) then
        w(W.place_function(fmt, ix, t, fl, tables))
        w()
      end
    end
  end
  for _, t in ipairs(fmt.types) do
    w(W.function_for(fmt, ix, t, tables))
    w()
  end
  for _, e in ipairs(fmt.entries) do
    local rt = ct(fmt, e.root)
    w(string.format("int %s_write_%s(const %s *doc, struct bf_buffer *out, bf_error *err)", fmt.name, e.name, rt))
    w("{")
    w("    bf_wctx w;")
    w("    bf_wctx_init(&w, out, doc);")
    if #fmt.revisions > 0 then w("    w.c.revision = doc->_revision;") end
    w("    /* replay never changes the document: the cast only matches the shared functions */")
    w(string.format("    int ok = write_%s(&w, (%s *)(uintptr_t)doc);", e.root, rt))
    w("    *err = w.err;")
    w("    bf_wctx_free(&w);")
    w("    return ok;")
    w("}")
    w()
    w(string.format("static int pass_%s(bf_wctx *w, void *doc)", e.name))
    w("{")
    w(string.format("    return write_%s(w, doc);", e.root))
    w("}")
    w()
    w(string.format("int %s_build_%s(%s *doc, bf_arena *arena, struct bf_buffer *out, bf_error *err)", fmt.name, e.name, rt))
    w("{")
    w(string.format("    return bf_build(doc, %s, arena, out, err, pass_%s);", #fmt.revisions > 0 and "doc->_revision" or "0", e.name))
    w("}")
    w()
  end
  return table.concat(o, "\n")
end

return W
