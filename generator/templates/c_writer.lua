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
local scan = require("scan")

local W = {}

local function ct(fmt, t) return names.ctype(fmt, t) end

-- The put call writing one number at the cursor.
local function put_one(fl, v)
  local p, e = fl.prim, fl.endian or "be"
  if p == "u8" or p == "s8" or p == "char" then return string.format('bf_put_u8(w, %s, "%s")', v, fl.name) end
  if p == "u24" or p == "s24" then
    return string.format('bf_put_%s(w, %s, %d, "%s")', p, v, e == "be" and 1 or 0, fl.name)
  end
  local kind = p:sub(1, 1) == "f" and p or ("u" .. p:sub(2))
  return string.format('bf_put_%s%s(w, %s, "%s")', kind, e, v, fl.name)
end

local function new_env(fmt, ix)
  return { fmt = fmt, ix = ix, self = "s", root = "R", root_mut = "RW", counter = { n = 0 }, pos = "(int64_t)w->pos",
    plain = ix.plain }
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

-- Lines that run `lines` without counting their changes: a value nothing reads, set before
-- its bytes are written, does not make the layout of the pass setting it stale. `written`:
-- the value only goes into its own bytes (a number, no length), so a measuring pass, whose
-- bytes are never kept, does not compute it at all.
local function unread_change(lines, what, written)
  local o = { written and "if (!w->measure) {" or "{",
    string.format("    size_t seen = w->changes; /* nothing reads %s */", what) }
  for _, l in ipairs(lines) do o[#o + 1] = "    " .. l end
  o[#o + 1] = "    w->changes = seen;"
  o[#o + 1] = "}"
  return o
end

-- Structures of fixed size that hold only numbers, which nothing reads and nothing points
-- into: name -> size. What the builder lays out inside one (its position, packed bits)
-- matters to its own bytes only, so a measuring pass passes over an array of them.
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

-- A field's writing: `calls` are put calls that can share one `if (!a || !b)` with their
-- neighbours, `lines` statements. Exactly one of the two.
local function write_value(fmt, ix, fl, env)
  local name, k = fl.name, fl.kind
  local L = {}
  local function w(s) L[#L + 1] = s end
  local count = count_of(fl)
  if k == "prim" then
    if fl.array then
      local signed = fl.prim:sub(1, 1) == "s" and 1 or 0
      return { calls = { string.format('bf_put_array(w, s->%s, %s, %d, %d, %d, "%s")', name, count, fl.prim_size, signed,
        fl.endian == "be" and 1 or 0, name) }, sizes = { fl.fixed_count and fl.prim_size ~= 3 and fl.fixed_count * fl.prim_size } }
    end
    -- (24-bit numbers are checked as they are written: never passed over)
    return { calls = { put_one(fl, "s->" .. name) }, sizes = { fl.prim_size ~= 3 and fl.prim_size } }
  elseif k == "struct" then
    local T = ix.types[fl.type]
    -- in layout mode the child learns its parameters from here
    local function params(dst, index_c, prev_c)
      if #T.params == 0 then return end
      w("if (w->layout) {")
      for _, p in ipairs(T.params) do
        local e2 = setmetatable({ index = index_c, prev = prev_c, elem_field = fl }, { __index = env })
        w(string.format("    bf_set_i64(w, &%s._p_%s, %s);", dst, p.name, cexpr.value(fl.args[p.name], e2)))
      end
      w("}")
    end
    if fl.array then
      local call = string.format('write_%s(w, &s->%s[i], "%s", i)', fl.type, name, name)
      local size = env.plain[fl.type]
      if size then
        -- a measuring pass needs only the room the elements take; inside them the layout
        -- changes nothing that anything else reads
        w("if (w->measure) {")
        w(string.format('    if (!bf_skip(w, (uint64_t)%s * %d, "%s"))', count, size, name))
        w("        return 0;")
        w("} else {")
        w("    size_t changes = w->changes;")
        w(string.format("    for (uint32_t i = 0; i < %s; i++)", count))
        w("        if (!" .. call .. ")")
        w("            return 0;")
        w("    w->changes = changes;")
        w("}")
        return { lines = L }
      end
      w(string.format("for (uint32_t i = 0; i < %s; i++) {", count))
      local before = #L
      params("s->" .. name .. "[i]", "(int64_t)i", string.format("(i ? &s->%s[i - 1] : &%s_zero)", name, ct(fmt, fl.type)))
      if #L == before then
        L[#L] = string.format("for (uint32_t i = 0; i < %s; i++)", count)
        w("    if (!" .. call .. ")")
        w("        return 0;")
      else
        for j = before + 1, #L do L[j] = "    " .. L[j] end
        w("    if (!" .. call .. ")")
        w("        return 0;")
        w("}")
      end
      return { lines = L }
    end
    params("s->" .. name, "0", "NULL")
    local call = string.format('write_%s(w, &s->%s, "%s", -1)', fl.type, name, name)
    if #L == 0 then return { calls = { call } } end
    w("if (!" .. call .. ")")
    w("    return 0;")
    return { lines = L }
  elseif k == "bytes" then
    return { calls = { string.format('bf_put_bytes(w, s->%s.ptr, s->%s.len, "%s")', name, name, name) } }
  elseif k == "str" or k == "cstr" then
    local one = function(dst)
      if k == "str" then return string.format('bf_put_fixed_str(w, &%s, %d, "%s")', dst, fl.str_len, name) end
      return string.format('bf_put_cstr(w, &%s, "%s")', dst, name)
    end
    if fl.array then
      w(string.format("for (uint32_t i = 0; i < %s; i++)", count))
      w(string.format("    if (!%s)", one("s->" .. name .. "[i]")))
      w("        return 0;")
      return { lines = L }
    end
    return { calls = { one("s->" .. name) } }
  elseif k == "switch" then
    local seen = {}
    local first = true
    for _, case in ipairs(fl.cases) do
      if case.type and not seen[case.type] then
        seen[case.type] = true
        w(string.format("%sif (s->%s.kind == %s) {", first and "" or "} else ", name, names.kind_const(fmt, case.type)))
        w(string.format('    if (!write_%s(w, s->%s.%s, "%s", -1))', case.type, name, case.type, name))
        w("        return 0;")
        first = false
      end
    end
    local pools = {}
    for i, case in ipairs(fl.cases) do
      if case.pool then pools[#pools + 1] = string.format("s->%s.kind == %s", name, names.raw_case_kind(fmt, fl, i)) end
    end
    local skip = ""
    if #pools > 0 then
      -- a pool's bytes are the data placed into it, not its own
      skip = string.format("!(w->layout && (%s)) && ", table.concat(pools, " || "))
    end
    local raw = string.format('%s!bf_put_bytes(w, s->%s.raw.ptr, s->%s.raw.len, "%s")', skip, name, name, name)
    if first then
      w("if (" .. raw .. ")")
      w("    return 0;")
    else
      w("} else if (" .. raw .. ") {")
      w("    return 0;")
      w("}")
    end
    return { lines = L }
  end
  return { lines = L }
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

-- Layout mode: the line recording where field `fl` of `t` starts (a counted change only if
-- something reads that position).
local function set_at(ix, t, fl)
  if ix.reads.ats[t.name .. "." .. fl.name] then return string.format("bf_set_u64(w, &s->%s_at, w->pos);", fl.name) end
  return string.format("bf_set_unread_u64(&s->%s_at, w->pos);", fl.name)
end

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
      local lines, v = dedupe_loops(pre, cexpr.c(fl.value, e2))
      local store = layout.store({}, "s->" .. name, fl.prim, v, own_at(fl), own_path(name))
      if not ix.reads.fields[t.name .. "." .. name] then
        -- what the value needs (a search over a table) goes with it
        for i, l in ipairs(store) do lines[#lines + 1] = l end
        store = unread_change(lines, name, true)
        lines = {}
      end
      for _, l in ipairs(lines) do w(l) end
      for _, l in ipairs(store) do w(l) end
    elseif #fl.bits > 0 then
      -- a part wider than its bits would be cut to them: an error instead. The parts are
      -- the document's own values, so only their range is checked, all at once; the notes
      -- (and clearing an earlier note) are taken only when one is out of range or a note
      -- is waiting
      local parts, checks, fits = {}, {}, {}
      for _, b in ipairs(fl.bits) do
        local part = string.format("%s_%s", name, b.name)
        checks[#checks + 1] = string.format("!bf_fits((int64_t)s->%s, %d, %d)", part, b.width, b.signed and 1 or 0)
        fits[#fits + 1] = layout.fit_call(b.signed and "int64_t" or "uint64_t", "s->" .. part, "(int64_t)s->" .. part,
          b.width, own_at(fl), own_path(part))
        parts[#parts + 1] = string.format("(((uint64_t)s->%s & UINT64_C(0x%X)) << %d)", part, (1 << b.width) - 1, b.shift)
      end
      w(string.format("if (w->overflow_count || %s) {", table.concat(checks, " || ")))
      for _, l in ipairs(fits) do w("    " .. l) end
      w("}")
      w(string.format("s->%s = %s;", name, table.concat(parts, " | ")))
    end
    if fl.string_table then
      local st = fl.string_table
      local tbl = {}
      local key = layout.pointer(st, env, tbl)
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
      for _, l in ipairs(layout.store({}, "s->" .. name, fl.prim, "off", own_at(fl), own_path(name))) do w("    " .. l) end
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
    local solved = layout.solve(fl.count, "(int64_t)s->" .. name .. ".len", env, nil)
    if not solved then
      local size = { string.format("bf_size_padding(w, &s->%s, %s);", name, cexpr.value(fl.count, env)) }
      if not ix.reads.fields[t.name .. "." .. name] then size = unread_change(size, name) end
      for _, l in ipairs(size) do w(l) end
    end
  end
  return L
end

-- Layout-mode lines run at the start of a structure: every count the structure's arrays
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
      emit(layout.solve(fl.count, len, env, nil))
    end
    if fl.kind == "struct" and not fl.array and next(fl.args) then
      local T = ix.types[fl.type]
      for _, cf in ipairs(T.fields) do
        if cf.count and cf.count.k == "name" and cf.count.ref == "param" then
          -- (a bytes field's length is its .len, an array's its _count)
          local len = string.format(cf.kind == "bytes" and "(int64_t)s->%s.%s.len" or "(int64_t)s->%s.%s_count", fl.name, cf.name)
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

-- Text without its string literals (a field named `c` in a message is not the variable):
-- a literal is a quote and the next quote on the same line. (One pass in C, template_lib.c.)
local function code_only(text) return scan.unquoted(text, false) end

-- Whether `code` uses the variable `name` (a name of word bytes): it appears after a byte
-- that is not a word byte, `.` or `>`, and before one that is not a word byte. (In C: a
-- plain search from Lua stopped at every `c` of a function body.)
local function mentions(code, name) return scan.uses(code, name, ".>") end

-- The declarations a function body needs: the reading context `c`, the root `R`, the
-- writable root `RW`, each only where the body uses it.
local function context_lines(fmt, ix, body)
  local code = code_only(table.concat(body, "\n"))
  local rt = ct(fmt, ix.root.name)
  local o = {}
  local use_c, use_r = mentions(code, "c"), mentions(code, "R")
  if use_c then o[#o + 1] = "    bf_ctx *c = &w->c;" end
  if use_r then o[#o + 1] = string.format("    const %s *R = %s;", rt, use_c and "c->root" or "w->c.root") end
  if mentions(code, "RW") then o[#o + 1] = string.format("    %s *RW = w->root;", rt) end
  return o
end

-- `if (!a || !b ...)` over put calls, wrapped to stay short. `size`: the calls write that
-- many bytes of numbers and nothing else; a measuring pass moves the cursor over them.
local function call_chain(calls, indent, size)
  local o, line = {}, indent .. "if ("
  if size then
    o[#o + 1] = indent .. "if (w->measure) {"
    o[#o + 1] = string.format('%s    if (!bf_skip(w, %d, "%s"))', indent, size, calls[1]:match('"([^"]*)"%)$'))
    o[#o + 1] = indent .. "        return 0;"
    line = indent .. "} else if ("
  end
  local more = size and "           " or "    " -- continuation lines start under the first call
  local width = 110
  for n, call in ipairs(calls) do
    local piece = "!" .. call .. (n < #calls and " ||" or ")")
    local open = line:byte(-1) == 40 -- the line ends with "(" (no pattern: it tries every byte)
    if #line + #piece > width and not open then
      o[#o + 1] = line
      line = indent .. more .. piece
    else
      line = line .. (open and "" or " ") .. piece
    end
  end
  o[#o + 1] = line
  o[#o + 1] = indent .. "    return 0;"
  return o
end

-- A body of statements where runs of put calls share one test.
local function body_writer()
  local B = { lines = {}, calls = {}, sizes = {} }
  local depth = 1
  local function ind() return names.indent(depth) end
  function B.flush()
    if #B.calls > 0 then
      -- a run of several fixed-width numbers: one step of the cursor when measuring
      local size = #B.calls > 1 and not B.whole and 0 or nil
      for i = 1, #B.calls do size = size and B.sizes[i] and size + B.sizes[i] or nil end
      for _, l in ipairs(call_chain(B.calls, ind(), size)) do B.lines[#B.lines + 1] = l end
      B.calls, B.sizes = {}, {}
    end
  end
  function B.line(s)
    B.flush()
    B.lines[#B.lines + 1] = ind() .. s
  end
  function B.call(c, size)
    B.calls[#B.calls + 1] = c
    B.sizes[#B.calls] = size or false
  end
  function B.value(v)
    if v.calls then
      for i, c in ipairs(v.calls) do B.call(c, v.sizes and v.sizes[i]) end
    else
      for _, l in ipairs(v.lines) do B.line(l) end
    end
  end
  -- statements run in layout mode only
  function B.layout(lines)
    if #lines == 0 then return end
    B.flush()
    local prev = B.last_layout
    if prev and prev.last == #B.lines and prev.depth == depth then
      -- right after another layout block: one block
      for j = #B.lines, prev.first, -1 do B.lines[j] = nil end
      local all = {}
      for _, l in ipairs(prev.body) do all[#all + 1] = l end
      for _, l in ipairs(lines) do all[#all + 1] = l end
      lines = all
    end
    local first = #B.lines + 1
    if #lines == 1 then
      B.line("if (w->layout)")
      B.line("    " .. lines[1])
    else
      B.line("if (w->layout) {")
      for _, l in ipairs(lines) do B.line("    " .. l) end
      B.line("}")
    end
    B.last_layout = { first = first, last = #B.lines, depth = depth, body = lines }
  end
  function B.open(s) B.line(s); depth = depth + 1 end
  function B.indent(d) B.flush(); depth = depth + d end
  function B.close(s) depth = depth - 1; B.line(s or "}") end
  return B
end

function W.place_function(fmt, ix, t, fl, tables)
  local o = {}
  local env = new_env(fmt, ix)
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
    for _, l in ipairs(context_lines(fmt, ix, { ret })) do o[#o + 1] = l end
    if not mentions(code_only(ret), "R") and not mentions(code_only(ret), "c") and not ret:find("w") then
      o[#o + 1] = "    (void)w;"
    end
    o[#o + 1] = ret
    o[#o + 1] = "}"
    o[#o + 1] = ""
  end
  local B = body_writer()
  B.line(string.format('if (!bf_place_at_end(w, %s, "%s"))', placement_align(fmt, ix, fl), fl.name))
  B.line("    return 0;")
  B.line(set_at(ix, t, fl))
  local solved = layout.solve_pos(fl.pos, string.format("(int64_t)s->%s_at", fl.name), env, fl.name)
  if not solved then
    B.line(string.format('return bf_fail(&w->c, w->pos, "%s", "the builder cannot place data at %%s", %s);', fl.name,
      names.cstring(fl.pos.text)))
  else
    for _, l in ipairs(solved) do B.line(l) end
    if fl.size then B.line(string.format("s->%s_tail.len = 0;", fl.name)) end
    for _, l in ipairs(compute_lines(fmt, ix, t, fl, env, tables)) do B.line(l) end
    B.value(write_value(fmt, ix, fl, env))
    B.line(string.format("return bf_place_pooled(w, (int64_t)s->%s_at);", fl.name))
  end
  B.flush()
  o[#o + 1] = string.format("static int place_%s_%s(bf_wctx *w, void *owner)", t.name, fl.name)
  o[#o + 1] = "{"
  o[#o + 1] = "    " .. tc .. " *s = owner;"
  for _, l in ipairs(context_lines(fmt, ix, B.lines)) do o[#o + 1] = l end
  for _, l in ipairs(B.lines) do o[#o + 1] = l end
  o[#o + 1] = "}"
  return table.concat(o, "\n")
end

function W.function_for(fmt, ix, t, tables)
  local env = new_env(fmt, ix)
  local B = body_writer()
  B.whole = ix.plain[t.name] -- a plain structure is measured whole, by the array holding it
  -- where a structure starts is a change only if something reads it
  local moved_unread = not ix.reads.any_start and not ix.reads.starts[t.name]
  B.line(string.format("if (!bf_begin%s(w, &s->_offset, &s->_index, name, index))", moved_unread and "_unread" or ""))
  B.line("    return 0;")
  B.layout(derive_lines(fmt, ix, t, env))
  for _, fl in ipairs(t.fields) do
    if fl.cond then
      if fl.array and not fl.fixed_count then -- (a fixed array has no count to say it is there)
        B.line(string.format("if (w->layout && s->%s_count > 0)", fl.name))
        B.line(string.format("    s->has_%s = 1;", fl.name))
      end
      B.open(string.format("if (s->has_%s) {", fl.name))
    end
    B.layout(compute_lines(fmt, ix, t, fl, env, tables))
    if fl.align and not fl.pos then
      B.call(string.format('bf_put_pad(w, &s->%s_pad, %d, "%s")', fl.name, fl.align, fl.name))
    end
    local tail = string.format('bf_put_tail(w, &s->%s_tail, "%s")', fl.name, fl.name)
    if fl.pos then
      if layout.placeable(fl.pos) then
        B.open("if (w->layout) {")
        if pool_base(fl) then
          B.line(string.format("if (!bf_enqueue_pooled(w, place_%s_%s, base_%s_%s, s, %d))", t.name, fl.name, t.name,
            fl.name, uses_owner(pool_base(fl)) and 0 or 1))
        else
          B.line(string.format("if (!bf_enqueue(w, place_%s_%s, NULL, s))", t.name, fl.name))
        end
        B.line("    return 0;")
        B.close("} else {")
      else
        -- a view of bytes another field writes: nothing to place
        B.line("if (!w->layout) {")
      end
      B.indent(1)
      -- replay: the data goes back where it was, then the cursor returns
      B.line("size_t resume = w->pos;")
      B.call(string.format('bf_wseek(w, s->%s_at, "%s")', fl.name, fl.name))
      B.value(write_value(fmt, ix, fl, env))
      if fl.size then B.call(tail) end
      B.line("w->pos = resume;")
      B.close()
    else
      if not fl.offset then B.line(set_at(ix, t, fl)) end
      local solved = fl.size and layout.solve(fl.size, "(int64_t)(w->pos - region)", env, nil)
      if solved then B.line("size_t region = w->pos;") end
      B.value(write_value(fmt, ix, fl, env))
      if fl.size then B.call(tail) end
      if solved then B.layout(solved) end
    end
    if fl.cond then B.close() end
  end
  B.line("return bf_end(w, name);")
  B.flush()
  local o = {}
  o[#o + 1] = string.format("static int write_%s(bf_wctx *w, %s *s, const char *name, int64_t index)", t.name, ct(fmt, t.name))
  o[#o + 1] = "{"
  for _, l in ipairs(context_lines(fmt, ix, B.lines)) do o[#o + 1] = l end
  table.move(B.lines, 1, #B.lines, #o + 1, o) -- (one move, not a loop over every line)
  o[#o + 1] = "}"
  return table.concat(o, "\n")
end

function W.source(fmt)
  local ix = names.index(fmt)
  ix.reads = layout_reads(fmt)
  ix.plain = plain_types(fmt, ix.reads)
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
  -- each writer takes its structure's name and index in the path (NULL, -1: the root)
  for _, t in ipairs(fmt.types) do
    w(string.format("static int write_%s(bf_wctx *w, %s *s, const char *name, int64_t index);", t.name, ct(fmt, t.name)))
  end
  w()
  w("#include \"" .. fmt.name .. "_access.h\"")
  w()
  for _, t in ipairs(fmt.types) do
    for _, fl in ipairs(t.fields) do
      if fl.pos and layout.placeable(fl.pos) then
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
    w(string.format("    int ok = write_%s(&w, (%s *)(uintptr_t)doc, NULL, -1);", e.root, rt))
    w("    *err = w.err;")
    w("    bf_wctx_free(&w);")
    w("    return ok;")
    w("}")
    w()
    w(string.format("static int pass_%s(bf_wctx *w, void *doc)", e.name))
    w("{")
    w(string.format("    return write_%s(w, doc, NULL, -1);", e.root))
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
