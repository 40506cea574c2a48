-- The builder's layout solver (`solve_<T>`, `place_<T>_<field>`), for <format>_write.c: the
-- document is laid out anew into a counting sink, which keeps positions and no bytes.
-- Structures go where the cursor is; data reached through offsets is queued and placed after
-- what comes before it, aligned as its type says (pooled data right after the region its
-- offset is relative to); counts, sizes, offsets, string references, constants, packed bits
-- and `value:` formulas are computed (c_equations.lua solves an expression for the field to
-- set); bf_build repeats the passes until the layout no longer changes, then the writer
-- (c_writer.lua) puts the document's bytes.
local names = require("names")
local cexpr = require("cexpr")
local equations = require("c_equations")
local body = require("c_write_body")

local S = {}

local function ct(fmt, t) return names.ctype(fmt, t) end
local count_of = body.count_of
local mentions, code_only = body.mentions, body.code_only

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

-- The keys a field of a plain structure may have: a number or a fixed-length array of
-- numbers, written as the document holds it (packed bits aside).
local plain_keys = {
  args = true, array = true, at = true, bits = true, count = true, doc = true, elem_size = true, endian = true,
  enum = true, flags = true, fixed_count = true, fixed_frac = true, fixed_int = true, float = true, kind = true,
  line = true, min_elem_size = true, name = true, offset = true, prim = true, prim_size = true, signed = true,
  type_text = true,
}

-- The keys of a field that hold an expression (ir_lua.c's field_node).
local FIELD_EXPRS = { "count", "until", "size", "pos", "cond", "const", "expect", "string_table", "derive", "value",
  "switch_on" }

-- What the builder's expressions read (validation rules aside): `fields["T.f"]`, the value
-- of field f of T; `starts["T"]`, where a T starts; `ats["T.f"]`, where field f starts;
-- `any_start`, whether some expression reads its own structure's start (`_start`);
-- `owners["T"]`, whether some expression reads a field of T.
-- A number field may be what an offset or count is solved for, and the error naming it
-- gives where it lies: its position counts as read too.
local function layout_reads(fmt)
  local r = { fields = {}, starts = {}, ats = {}, any_start = false, owners = {} }
  local function position(fl)
    if fl.offset and not fl.located then
      r.starts[fl.owner] = true
    else
      r.ats[fl.owner .. "." .. fl.name] = true
    end
  end
  local seen = {}
  -- (an expression's field, arguments and operands are tables or nil: no type() calls, and
  -- numeric loops, as ipairs calls its iterator for every element)
  local function walk(v)
    if not v or seen[v] then return end
    seen[v] = true
    local fl = v.field
    if fl and fl.owner then
      r.owners[fl.owner] = true
      if fl.name then
        r.fields[fl.owner .. "." .. fl.name] = true
        if fl.kind == "prim" then position(fl) end
      end
    end
    if v.k == "name" and v.ref == "start" then r.any_start = true end
    local args = v.args
    if v.name == "offset" and args and args[1] then
      local a = args[1].field
      if a and a.owner and a.name then position(a) end
    end
    walk(v.a)
    walk(v.b)
    walk(v.c)
    if args then
      for i = 1, #args do walk(args[i]) end
    end
  end
  -- the expressions of the IR (rules aside): the keys of ir_lua.c that hold one, and lists
  -- of them; a walk over every key of every table cost more than the rest of this file
  for _, t in ipairs(fmt.types) do
    for _, v in ipairs(t.values) do walk(v.expr) end
    for _, fl in ipairs(t.fields) do
      for i = 1, #FIELD_EXPRS do
        local e = fl[FIELD_EXPRS[i]]
        if e then walk(e) end -- (most keys are absent: no call for them)
      end
      if fl.padding then walk(fl.padding.unit) end
      for _, e in pairs(fl.args) do walk(e) end
    end
  end
  return r
end

-- Lines that run `lines` without counting their changes: a value nothing reads does not make
-- the layout of the pass setting it stale.
local function unread_change(lines, what)
  local o = { "{",
    string.format("    size_t seen = w->changes; /* nothing reads %s */", what) }
  for _, l in ipairs(lines) do o[#o + 1] = "    " .. l end
  o[#o + 1] = "    w->changes = seen;"
  o[#o + 1] = "}"
  return o
end

-- Structures of fixed size that hold only numbers, which nothing reads and nothing points
-- into: name -> size. What the builder lays out inside one (its position, packed bits)
-- matters to its own bytes only: the writer puts them where the cursor is, and the solver
-- passes over an array of them by its room when it has nothing to compute inside.
local function plain_types(fmt, reads)
  local plain, read = {}, reads.owners
  for _, t in ipairs(fmt.types) do
    local ok, at = #t.params == 0 and t.size and not read[t.name], 0
    for _, fl in ipairs(t.fields) do
      if not ok then break end
      for key in pairs(fl) do
        if not plain_keys[key] then
          ok = false
          break
        end
      end
      ok = ok and fl.kind == "prim" and not fl.cond and (not fl.array or fl.fixed_count) and fl.offset == at
      if ok then at = at + fl.prim_size * (fl.array and fl.fixed_count or 1) end
    end
    if ok and at == t.size then plain[t.name] = t.size end
  end
  return plain
end

-- Quantifier loops the same expression hoisted twice (`q3 < 0 ? n : q3`): the second copy
-- goes, its accumulator is the first's. Returns the lines kept and the renamed value.
local function dedupe_loops(pre, value)
  local blocks, i = {}, 1
  while i <= #pre do
    local acc = pre[i]:match("^int64_t (q%d+) = ") or pre[i]:match("^double (q%d+) = ")
    local j = i
    if acc then
      while j <= #pre and pre[j] ~= "}" do j = j + 1 end
    end
    local b = {}
    for k = i, math.min(j, #pre) do b[#b + 1] = pre[k] end
    blocks[#blocks + 1] = { acc = acc, lines = b }
    i = j + 1
  end
  local out, seen, rename = {}, {}, {}
  for _, b in ipairs(blocks) do
    local text = table.concat(b.lines, "\n")
    for from, to in pairs(rename) do text = text:gsub("%f[%w_]" .. from .. "%f[^%w_]", to) end
    local canon = text
    if b.acc then
      local n = b.acc:sub(2)
      canon = text:gsub("%f[%w_](%a+)" .. n .. "%f[^%w_]", "%1#")
    end
    if b.acc and seen[canon] then
      rename[b.acc] = seen[canon]
    else
      if b.acc then seen[canon] = b.acc end
      for l in (text .. "\n"):gmatch("(.-)\n") do
        local it = l:match("^%s*%(void%)(it%d+);$")
        -- `(void)itN;` only where nothing else uses the element
        if not (it and select(2, text:gsub("%f[%w_]" .. it .. "%f[^%w_]", "")) > 2) then out[#out + 1] = l end
      end
    end
  end
  for from, to in pairs(rename) do value = value:gsub("%f[%w_]" .. from .. "%f[^%w_]", to) end
  return out, value
end

-- Where a field of the structure being written starts: its static offset in the
-- structure, else the cursor (the field is written next).
local function own_at(fl)
  if fl.offset == 0 then return "(uint64_t)s->_offset" end
  if fl.offset then return string.format("(uint64_t)s->_offset + %d", fl.offset) end
  return "(uint64_t)w->pos"
end

local function own_path(name) return { fmt = name, args = {}, rooted = false } end

-- The line recording where field `fl` of `t` starts (a counted change only if
-- something reads that position).
local function set_at(ix, t, fl)
  if ix.reads.ats[t.name .. "." .. fl.name] then return string.format("bf_set_u64(w, &s->%s_at, w->pos);", fl.name) end
  return string.format("bf_set_unread_u64(&s->%s_at, w->pos);", fl.name)
end

-- Lines packing a field's bit parts into it; `at_c`: where the field is. A part wider than
-- its bits would be cut to them: an error instead. The parts are the document's own values,
-- so only their range is checked, all at once; the notes (and clearing an earlier note) are
-- taken only when one is out of range or a note is waiting. `frame`: the notes' path frame
-- (name, index), pushed only to take them.
local function bits_lines(fl, at_c, frame)
  local L = {}
  local parts, checks, fits = {}, {}, {}
  for _, b in ipairs(fl.bits) do
    local part = string.format("%s_%s", fl.name, b.name)
    checks[#checks + 1] = string.format("!bf_fits((int64_t)s->%s, %d, %d)", part, b.width, b.signed and 1 or 0)
    fits[#fits + 1] = equations.fit_call(b.signed and "int64_t" or "uint64_t", "s->" .. part, "(int64_t)s->" .. part,
      b.width, at_c, own_path(part))
    parts[#parts + 1] = string.format("(((uint64_t)s->%s & UINT64_C(0x%X)) << %d)", part, (1 << b.width) - 1, b.shift)
  end
  L[#L + 1] = string.format("if (w->overflow_count || %s) {", table.concat(checks, " || "))
  if frame then
    L[#L + 1] = string.format("    if (!bf_push(&w->c, %s, %s))", frame[1], frame[2])
    L[#L + 1] = "        return 0;"
  end
  for _, l in ipairs(fits) do L[#L + 1] = "    " .. l end
  if frame then L[#L + 1] = "    bf_pop(&w->c);" end
  L[#L + 1] = "}"
  L[#L + 1] = string.format("s->%s = %s;", fl.name, table.concat(parts, " | "))
  return L
end

-- Lines computing a field's own value before it is written.
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
      local lines, v = dedupe_loops(pre, cexpr.c(fl.value, e2))
      local store = equations.store({}, "s->" .. name, fl.prim, v, own_at(fl), own_path(name))
      if not ix.reads.fields[t.name .. "." .. name] then
        -- what the value needs (a search over a table) goes with it
        for i, l in ipairs(store) do lines[#lines + 1] = l end
        store = unread_change(lines, name)
        lines = {}
      end
      for _, l in ipairs(lines) do w(l) end
      for _, l in ipairs(store) do w(l) end
    elseif #fl.bits > 0 then
      for _, l in ipairs(bits_lines(fl, own_at(fl))) do w(l) end
    end
    if fl.string_table then
      local st = fl.string_table
      local tbl = {}
      local key = equations.pointer(st, env, tbl)
      for _, l in ipairs(tbl) do w(l) end
      local prefix = st.field.prefix or ""
      key = key:match("^%((&.+)%)$") or key
      w("{")
      w(string.format('    int64_t off = bf_intern(w, %s, (const uint8_t *)%s, %d, &s->%s_str, "%s");', key, names.cstring(prefix),
        #prefix, name, name))
      w("    if (w->err.failed)")
      w("        return 0;")
      if fl.string_null then
        w("    if (off < 0)")
        w(string.format("        off = %d;", fl.string_null))
      else
        w("    if (off < 0)")
        w(string.format('        return bf_fail(&w->c, w->pos, "%s", "the string is missing");', name))
      end
      for _, l in ipairs(equations.store({}, "s->" .. name, fl.prim, "off", own_at(fl), own_path(name))) do w("    " .. l) end
      w("}")
    end
  end
  if (fl.kind == "str") and fl.const_str then
    w(string.format("s->%s = (bf_str){%s, %d, 0};", name, names.cstring(fl.const_str), #fl.const_str))
  end
  if fl.kind == "bytes" and tables[t.name .. "." .. name] then
    -- set again before it is read: not a change the next pass starts from
    if fl.never_empty then
      local prefix = fl.prefix or ""
      w(string.format('s->%s = bf_table_bytes_never_empty(w, &s->%s, (const uint8_t *)%s, %d, "%s");', name, name,
        names.cstring(prefix), #prefix, name))
      w("if (w->err.failed)")
      w("    return 0;")
    else
      w(string.format("s->%s = bf_table_bytes(w, &s->%s);", name, name))
    end
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
    w("        w->changes++;")
    w("    }")
    w("}")
  end
  if fl.kind == "bytes" and fl.count and not tables[t.name .. "." .. name] then
    -- bytes whose length an expression gives (padding to something placed later)
    local solved = equations.solve(fl.count, "(int64_t)s->" .. name .. ".len", env, nil)
    if not solved then
      local size = { string.format("bf_size_padding(w, &s->%s, %s);", name, cexpr.value(fl.count, env)) }
      if not ix.reads.fields[t.name .. "." .. name] then size = unread_change(size, name) end
      for _, l in ipairs(size) do w(l) end
    end
  end
  return L
end

-- Lines run at the start of a structure: every count the structure's arrays
-- (and, through parameters, its children's arrays) determine.
local function derive_lines(fmt, ix, t, env)
  local L = {}
  for _, fl in ipairs(t.fields) do
    local function emit(solved)
      if not solved then return end
      -- a count two arrays give: the last one stored wins, the store before it would only
      -- make every pass change the field twice
      local target = #solved == 1 and not fl.cond and solved[1]:match("^bf_fitf?_%w+%(w, ([^,]+),")
      if target then
        for j = #L, 1, -1 do
          if L[j]:match("^bf_fitf?_%w+%(w, ([^,]+),") == target then table.remove(L, j) end
        end
      end
      if fl.cond then
        L[#L + 1] = "if (s->has_" .. fl.name .. ")" .. (#solved > 1 and " {" or "")
        for _, l in ipairs(solved) do L[#L + 1] = "    " .. l end
        if #solved > 1 then L[#L + 1] = "}" end
      else
        for _, l in ipairs(solved) do L[#L + 1] = l end
      end
    end
    if fl.count and not fl.fixed_count and not fl.computed then
      local len = fl.kind == "bytes" and ("(int64_t)s->" .. fl.name .. ".len") or ("(int64_t)s->" .. fl.name .. "_count")
      emit(equations.solve(fl.count, len, env, nil))
    end
    if fl.kind == "struct" and not fl.array and next(fl.args) then
      local T = ix.types[fl.type]
      for _, cf in ipairs(T.fields) do
        if cf.count and cf.count.k == "name" and cf.count.ref == "param" then
          -- (a bytes field's length is its .len, an array's its _count)
          local len = string.format(cf.kind == "bytes" and "(int64_t)s->%s.%s.len" or "(int64_t)s->%s.%s_count", fl.name, cf.name)
          emit(equations.solve(cf.count, len, env, fl.args))
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

-- Whether an expression depends on nothing but its structure's start and constants
-- (`_start - 8`: J3D's section-relative offsets).
local function start_only(e)
  if not e then return true end
  if e.k == "name" then return e.ref == "start" end
  if e.k == "int" then return true end
  if e.k ~= "binary" then return false end
  return start_only(e.a) and start_only(e.b)
end

-- The C values of the bases of a structure's pooled fields that its own start gives, once
-- each: that data is placed before the structure ends, inside it (a J3D section's tables,
-- which the section's size covers), not after everything queued. Not in an element of an
-- array (an entry of a table: its data cannot be between the entries).
local function own_pools(t, env)
  if env.ix.elements[t.name] then return {} end
  local bases, seen = {}, {}
  for _, fl in ipairs(t.fields) do
    local base = fl.pos and equations.placeable(fl.pos) and pool_base(fl)
    local c = base and start_only(base) and cexpr.value(base, env)
    if c and not seen[c] then
      seen[c] = true
      bases[#bases + 1] = c
    end
  end
  return bases
end

-- Plain structures with nothing to compute inside (no packed bits): an array of them is
-- passed over by its room alone.
local function nothing_inside(t)
  for _, fl in ipairs(t.fields) do
    if #fl.bits > 0 then return false end
  end
  return true
end

-- A field's room in the counting sink, with what its children compute: `skip`, a constant
-- number of bytes (merged with its neighbours'), or `lines`.
local function size_value(fmt, ix, fl, env)
  local name, k = fl.name, fl.kind
  local L = {}
  local function w(s) L[#L + 1] = s end
  local count = count_of(fl)
  local function skip(n_c) return { lines = { string.format('if (!bf_skip(w, %s, "%s"))', n_c, name), "    return 0;" } } end
  local function skip_after(lines, n_c)
    lines[#lines + 1] = string.format('if (!bf_skip(w, %s, "%s"))', n_c, name)
    lines[#lines + 1] = "    return 0;"
    return { lines = lines }
  end
  if k == "prim" then
    if not fl.array then return { skip = fl.prim_size } end
    if fl.fixed_count then return { skip = fl.fixed_count * fl.prim_size } end
    return skip(string.format("(uint64_t)%s * %d", count, fl.prim_size))
  elseif k == "struct" then
    local T = ix.types[fl.type]
    -- the child learns its parameters from here
    local function params(dst, index_c, prev_c)
      for _, p in ipairs(T.params) do
        local e2 = setmetatable({ index = index_c, prev = prev_c, elem_field = fl }, { __index = env })
        w(string.format("bf_set_i64(w, &%s._p_%s, %s);", dst, p.name, cexpr.value(fl.args[p.name], e2)))
      end
    end
    if fl.array then
      local call = string.format('solve_%s(w, &s->%s[i], "%s", i)', fl.type, name, name)
      local size = ix.plain[fl.type]
      if size and nothing_inside(T) then return skip(string.format("(uint64_t)%s * %d", count, size)) end
      if size then
        -- their bits packed in place when bf_build says (their parts are the document's
        -- own, which the layout never changes); inside them the layout changes nothing
        -- that anything else reads
        w("if (w->pack) {")
        w("    size_t changes = w->changes;")
        w(string.format("    for (uint32_t i = 0; i < %s; i++)", count))
        w(string.format('        if (!pack_%s(w, &s->%s[i], w->pos + (uint64_t)i * %d, "%s", i))', fl.type, name, size, name))
        w("            return 0;")
        w("    w->changes = changes;")
        w("}")
        return skip_after(L, string.format("(uint64_t)%s * %d", count, size))
      end
      local inner = {}
      L, inner = inner, L
      params("s->" .. name .. "[i]", "(int64_t)i", string.format("(i ? &s->%s[i - 1] : &%s_zero)", name, ct(fmt, fl.type)))
      L, inner = inner, L
      if #inner == 0 then
        w(string.format("for (uint32_t i = 0; i < %s; i++)", count))
        w("    if (!" .. call .. ")")
        w("        return 0;")
      else
        w(string.format("for (uint32_t i = 0; i < %s; i++) {", count))
        for _, l in ipairs(inner) do w("    " .. l) end
        w("    if (!" .. call .. ")")
        w("        return 0;")
        w("}")
      end
      return { lines = L }
    end
    if ix.plain[fl.type] and nothing_inside(T) then return { skip = ix.plain[fl.type] } end -- (no position to keep)
    if ix.plain[fl.type] then
      w(string.format('if (w->pack && !pack_%s(w, &s->%s, w->pos, "%s", -1))', fl.type, name, name))
      w("    return 0;")
      return skip_after(L, tostring(ix.plain[fl.type]))
    end
    params("s->" .. name, "0", "NULL")
    w(string.format('if (!solve_%s(w, &s->%s, "%s", -1))', fl.type, name, name))
    w("    return 0;")
    return { lines = L }
  elseif k == "bytes" then
    return skip(string.format("s->%s.len", name))
  elseif k == "str" then
    if fl.array and not fl.fixed_count then return skip(string.format("(uint64_t)%s * %d", count, fl.str_len)) end
    return { skip = fl.str_len * (fl.array and fl.fixed_count or 1) }
  elseif k == "cstr" then
    if fl.array then
      w(string.format("for (uint32_t i = 0; i < %s; i++)", count))
      w(string.format('    if (!bf_skip(w, (uint64_t)s->%s[i].len + 1, "%s"))', name, name))
      w("        return 0;")
      return { lines = L }
    end
    return skip(string.format("(uint64_t)s->%s.len + 1", name))
  elseif k == "switch" then
    body.switch_cases(fmt, fl, w, "solve", nil, string.format('if (!bf_skip(w, s->%s.raw.len, "%s"))', name, name))
    return { lines = L }
  end
  return { lines = L }
end

-- A solver body: fixed rooms waiting to be skipped in one step, and lines.
local function solver_body()
  local F = body.body()
  local pending, first = 0, nil
  local line = F.line
  function F.flush_skip()
    if pending > 0 then
      local n = pending
      pending = 0
      line(string.format('if (!bf_skip(w, %d, "%s"))', n, first))
      line("    return 0;")
    end
  end
  function F.line(s)
    F.flush_skip()
    line(s)
  end
  function F.size(v, name)
    if v.skip then
      if pending == 0 then first = name end
      pending = pending + v.skip
    else
      for _, l in ipairs(v.lines) do F.line(l) end
    end
  end
  function F.lines_of(lines)
    for _, l in ipairs(lines) do F.line(l) end
  end
  return F
end

-- pack_<T> for a plain structure with bits: its parts packed into their fields, `at` being
-- where it lies (a plain structure is written where the cursor is, not placed).
local function pack_function(fmt, t)
  local o = {}
  o[#o + 1] = string.format("static int pack_%s(bf_wctx *w, %s *s, uint64_t at, const char *name, int64_t index)",
    t.name, ct(fmt, t.name))
  o[#o + 1] = "{"
  o[#o + 1] = "    s->_offset = at; /* (where the packing pass put it) */"
  o[#o + 1] = "    s->_index = index < 0 ? 0 : index;"
  for _, fl in ipairs(t.fields) do
    if #fl.bits > 0 then
      local at = fl.offset == 0 and "at" or string.format("at + %d", fl.offset)
      for _, l in ipairs(bits_lines(fl, at, { "name", "index" })) do o[#o + 1] = "    " .. l end
    end
  end
  o[#o + 1] = "    return 1;"
  o[#o + 1] = "}"
  return table.concat(o, "\n")
end

function S.placeable(fl) return fl.pos and equations.placeable(fl.pos) end

-- Lines that end a field's region padded with a prefix of a fill text, or nil: `fill_to:`
-- (J3D's sections, to 32 bytes), or a located field with `padding:` and `align:`, which ends
-- aligned as it starts (J3D's MAT3 tables, to 4 bytes), its padding never read as entries.
local function fill_lines(fl)
  local align, texts
  if fl.size and fl.fill_to then
    align, texts = fl.fill_to.align, fl.fill_to.fill
  elseif fl.size and fl.pos and fl.padding and fl.align then
    align, texts = fl.align, fl.padding.fill
  else
    return nil
  end
  local fills = {}
  for _, text in ipairs(texts) do fills[#fills + 1] = string.format("{%s, %d}", names.cstring(text), #text) end
  return {
    "{",
    string.format("    static const bf_fill fills[] = {%s};", table.concat(fills, ", ")),
    string.format('    if (!bf_size_fill(w, &s->%s_tail, %d, fills, %d, "%s"))', fl.name, align, #fills, fl.name),
    "        return 0;",
    "}",
  }
end

function S.place_function(fmt, ix, t, fl)
  local o = {}
  local env = body.new_env(fmt, ix)
  local tc = ct(fmt, t.name)
  local base = pool_base(fl)
  if base then
    local ret = "    return " .. cexpr.value(base, env) .. ";"
    o[#o + 1] = string.format("static int64_t base_%s_%s(bf_wctx *w, void *owner)", t.name, fl.name)
    o[#o + 1] = "{"
    if mentions(code_only(ret), "s") then
      o[#o + 1] = "    " .. tc .. " *s = owner;"
    else
      o[#o + 1] = "    (void)owner;"
    end
    for _, l in ipairs(body.context_lines(fmt, ix, { ret })) do o[#o + 1] = l end
    if not mentions(code_only(ret), "R") and not mentions(code_only(ret), "c") and not ret:find("w") then
      o[#o + 1] = "    (void)w;"
    end
    o[#o + 1] = ret
    o[#o + 1] = "}"
    o[#o + 1] = ""
  end
  local F = solver_body()
  F.line(string.format('if (!bf_place_at_end(w, %s, "%s"))', placement_align(fmt, ix, fl), fl.name))
  F.line("    return 0;")
  F.line(set_at(ix, t, fl))
  local solved = equations.solve_pos(fl.pos, string.format("(int64_t)s->%s_at", fl.name), env, fl.name)
  if not solved then
    F.line(string.format('return bf_fail(&w->c, w->pos, "%s", "the builder cannot place data at %%s", %s);', fl.name,
      names.cstring(fl.pos.text)))
  else
    F.lines_of(solved)
    local fill = fill_lines(fl)
    if fl.size and not fill then F.line(string.format("s->%s_tail.len = 0;", fl.name)) end
    F.lines_of(compute_lines(fmt, ix, t, fl, env, ix.tables))
    F.size(size_value(fmt, ix, fl, env), fl.name)
    if fill then F.lines_of(fill) end
    F.line(string.format("return bf_place_pooled(w, (int64_t)s->%s_at);", fl.name))
  end
  local head = string.format("static int place_%s_%s(bf_wctx *w, void *owner)", t.name, fl.name)
  o[#o + 1] = body.func(fmt, ix, head, { "    " .. tc .. " *s = owner;" }, F)
  return table.concat(o, "\n")
end

-- The names of the structure's own fields an expression reads, into `set`.
local function own_names(e, set)
  if not e then return set end
  if e.k == "name" and e.ref == "field" then set[e.name] = true end
  own_names(e.a, set)
  own_names(e.b, set)
  own_names(e.c, set)
  for _, arg in ipairs(e.args or {}) do own_names(arg, set) end
  return set
end

-- The structure's fields in the order the solver lays them out: as the schema lists them,
-- except that located data whose region ends at another's offset (a `size:` that reads the
-- offset the other's `pos:` is solved for: MAT3's materials run to the remap table) is
-- queued before it, so that the offsets come out in the order the reader expects. Only the
-- slots of located fields are refilled; inline fields keep theirs.
local function layout_order(t)
  local located, slots = {}, {}
  for i, fl in ipairs(t.fields) do
    if fl.pos and equations.placeable(fl.pos) then
      located[#located + 1] = fl
      slots[#slots + 1] = i
    end
  end
  if #located < 2 then return t.fields end
  local pos_names, size_names = {}, {}
  for i, fl in ipairs(located) do
    pos_names[i] = own_names(fl.pos, {})
    size_names[i] = own_names(fl.size, {})
  end
  -- before[j][i]: field i must come before field j (i's region ends at j's offset)
  local before, waiting = {}, {}
  for j = 1, #located do
    before[j], waiting[j] = {}, 0
    for i = 1, #located do
      if i ~= j then
        for name in pairs(pos_names[j]) do
          if size_names[i][name] and not pos_names[i][name] then
            before[j][i] = true
            waiting[j] = waiting[j] + 1
            break
          end
        end
      end
    end
  end
  local order, done = {}, {}
  while #order < #located do
    local pick
    for j = 1, #located do
      if not done[j] and waiting[j] == 0 then
        pick = j
        break
      end
    end
    if not pick then return t.fields end -- (regions that end at each other: the schema's order)
    done[pick] = true
    order[#order + 1] = located[pick]
    for j = 1, #located do
      if before[j][pick] then waiting[j] = waiting[j] - 1 end
    end
  end
  local fields = {}
  for i, fl in ipairs(t.fields) do fields[i] = fl end
  for k, i in ipairs(slots) do fields[i] = order[k] end
  return fields
end

-- For located data present only when its offset is nonzero (`if: name_table_offset != 0`):
-- the lines that set that offset to 0 when the document has none of it, so that the file
-- says it is absent (a J3D table whose offset equals the next one's was empty, and holds
-- nothing in the dump). Nil for any other condition.
local function absent_offset(fl, env)
  local c = fl.cond
  if not (c.k == "binary" and c.op == "!=" and c.b.k == "int" and tonumber(c.b.v) == 0) then return nil end
  if not (c.a.k == "name" and c.a.ref == "field" and own_names(fl.pos, {})[c.a.name]) then return nil end
  return equations.solve(c.a, "0", env, nil)
end

function S.solver_for(fmt, ix, t)
  local env = body.new_env(fmt, ix)
  local F = solver_body()
  -- where a structure starts is a change only if something reads it
  local moved_unread = not ix.reads.any_start and not ix.reads.starts[t.name]
  F.line(string.format("if (!bf_place_begin%s(w, &s->_offset, &s->_index, name, index))", moved_unread and "_unread" or ""))
  F.line("    return 0;")
  F.lines_of(derive_lines(fmt, ix, t, env))
  for _, fl in ipairs(layout_order(t)) do
    if fl.cond then
      if fl.array and not fl.fixed_count then -- (a fixed array has no count to say it is there)
        F.line(string.format("if (s->%s_count > 0)", fl.name))
        F.line(string.format("    s->has_%s = 1;", fl.name))
      end
      F.open(string.format("if (s->has_%s) {", fl.name))
    end
    F.lines_of(compute_lines(fmt, ix, t, fl, env, ix.tables))
    if fl.align and not fl.pos then
      F.line(string.format('if (!bf_size_pad(w, &s->%s_pad, %d, "%s"))', fl.name, fl.align, fl.name))
      F.line("    return 0;")
    end
    if fl.pos then
      if equations.placeable(fl.pos) then
        if pool_base(fl) then
          F.line(string.format("if (!bf_enqueue_pooled(w, place_%s_%s, base_%s_%s, s, %d))", t.name, fl.name, t.name,
            fl.name, uses_owner(pool_base(fl)) and 0 or 1))
        else
          F.line(string.format("if (!bf_enqueue(w, place_%s_%s, NULL, s))", t.name, fl.name))
        end
        F.line("    return 0;")
      end
      -- (a view of bytes another field writes: nothing to place)
    else
      if not fl.offset then F.line(set_at(ix, t, fl)) end
      -- one start per sized field: a structure may hold several (`size: n`, `size: 32 - n`)
      local start = "region_" .. fl.name
      local solved = fl.size and equations.solve(fl.size, "(int64_t)(w->pos - " .. start .. ")", env, nil)
      if solved then F.line("size_t " .. start .. " = w->pos;") end
      F.size(size_value(fmt, ix, fl, env), fl.name)
      local fill = fill_lines(fl)
      if fill then
        F.lines_of(fill)
      elseif fl.size then
        F.line(string.format("s->%s_tail.len = 0;", fl.name))
      end
      if solved then F.lines_of(solved) end
    end
    local absent = fl.cond and fl.pos and absent_offset(fl, env)
    if absent then
      F.close("} else {")
      F.indent(1)
      F.lines_of(absent)
    end
    if fl.cond then F.close() end
  end
  local pools = own_pools(t, env)
  for _, base in ipairs(pools) do
    F.line(string.format("if (!bf_place_pooled(w, %s))", base))
    F.line("    return 0;")
  end

  F.line("return bf_end(w, name);")
  local head = string.format("static int solve_%s(bf_wctx *w, %s *s, const char *name, int64_t index)", t.name,
    ct(fmt, t.name))
  return body.func(fmt, ix, head, nil, F)
end

-- What the solver needs to know of the format, into `ix`.
function S.prepare(fmt, ix)
  ix.reads = layout_reads(fmt)
  ix.plain = plain_types(fmt, ix.reads)
  ix.tables = table_fields(fmt)
  ix.elements = {} -- the types of array elements
  for _, t in ipairs(fmt.types) do
    for _, fl in ipairs(t.fields) do
      if fl.kind == "struct" and fl.array then ix.elements[fl.type] = true end
    end
  end
end

-- The solver's declarations and functions: place functions, and the solvers of the types
-- something calls (plain structures with nothing inside are passed over by their room).
function S.functions(fmt, ix)
  local called, count, packed = {}, 0, {}
  local function calls(code)
    for name in code:gmatch("solve_([%w_]+)%(w,") do
      if not called[name] then called[name], count = true, count + 1 end
    end
    for name in code:gmatch("pack_([%w_]+)%(w,") do packed[name] = true end
  end
  -- each type's solver with the place functions of its located fields
  local text = {}
  for _, t in ipairs(fmt.types) do
    local parts = {}
    for _, fl in ipairs(t.fields) do
      if S.placeable(fl) then parts[#parts + 1] = S.place_function(fmt, ix, t, fl) end
    end
    parts[#parts + 1] = S.solver_for(fmt, ix, t)
    text[t.name] = parts
  end
  for _, e in ipairs(fmt.entries) do calls("solve_" .. e.root .. "(w,") end
  -- what the called solvers call, until no more
  local seen = -1
  while seen ~= count do
    seen = count
    for _, t in ipairs(fmt.types) do
      if called[t.name] then
        for _, part in ipairs(text[t.name]) do calls(part) end
      end
    end
  end
  local decls, places, solvers = {}, {}, {}
  for _, t in ipairs(fmt.types) do
    if packed[t.name] then places[#places + 1] = pack_function(fmt, t) end
  end
  for _, t in ipairs(fmt.types) do
    if called[t.name] then
      decls[#decls + 1] = string.format("static int solve_%s(bf_wctx *w, %s *s, const char *name, int64_t index);",
        t.name, ct(fmt, t.name))
      local parts = text[t.name]
      for k = 1, #parts - 1 do places[#places + 1] = parts[k] end
      solvers[#solvers + 1] = parts[#parts]
    end
  end
  for _, f in ipairs(solvers) do places[#places + 1] = f end
  return decls, places
end

return S
