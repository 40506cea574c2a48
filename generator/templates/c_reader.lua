-- <format>.c, reading part: one read function per type, one link function per type that
-- resolves strings, and the entry points. Bulk arrays of numbers are read in plain loops.
local names = require("names")
local cexpr = require("cexpr")

local R = {}

local function ct(fmt, t) return names.ctype(fmt, t) end

-- A type whose bytes are all inline and fixed: one bounds check covers it. `seen` holds the
-- types on the current path only: two fields of one type are siblings, not a recursion.
local function is_flat(ix, t, seen)
  if not t.size then return false end
  seen = seen or {}
  if seen[t.name] then return false end
  seen[t.name] = true
  local flat = true
  for _, fl in ipairs(t.fields) do
    if fl.pos or fl.cond or fl.align or fl.size then flat = false; break end
    if fl.kind == "struct" then
      if not is_flat(ix, ix.types[fl.type], seen) then flat = false; break end
    elseif fl.kind ~= "prim" and fl.kind ~= "str" and fl.kind ~= "bytes" then
      flat = false; break
    end
  end
  seen[t.name] = nil
  return flat
end
R.is_flat = is_flat

local function offset_of(fl)
  if fl.offset then return string.format("s->_offset + %d", fl.offset) end
  return "s->" .. fl.name .. "_at"
end
R.offset_of = offset_of

local function args_c(ix, env, fl, index_c)
  local t = ix.types[fl.type]
  local parts = { index_c }
  -- in an array's args, _index is the element's index
  env = setmetatable({ index = "(int64_t)" .. index_c }, { __index = env })
  for _, p in ipairs(t.params) do parts[#parts + 1] = cexpr.value(fl.args[p.name], env) end
  return table.concat(parts, ", ")
end

-- Lines that read one number at the cursor into `dst`, with the checks a field asks for.
local function read_prim(fl, dst, flat, ind)
  local w = fl.prim_size
  local L = {}
  if not flat then L[#L + 1] = string.format('if (!bf_need(c, %d, "%s")) return 0;', w, fl.name) end
  L[#L + 1] = string.format("%s = %s;", dst, names.load(fl.prim, fl.endian, "(c->data + c->pos)"))
  if not flat then L[#L + 1] = string.format("bf_claim(c, c->pos, %d);", w) end
  L[#L + 1] = string.format("c->pos += %d;", w)
  for i, l in ipairs(L) do L[i] = ind .. l end
  return L
end

local function derive_c(fl, env, value_c)
  if fl.fixed_frac then
    return string.format("(double)(%s) / %d.0", value_c, 1 << fl.fixed_frac)
  end
  local e2 = setmetatable({ value = value_c }, { __index = env })
  return cexpr.cf(fl.derive, e2)
end

function R.read_function(fmt, ix, t)
  local o = {}
  local function w(s) o[#o + 1] = s end
  local flat = is_flat(ix, t)
  local env = { fmt = fmt, ix = ix, self = "s", root = "R" }
  local sig = { "bf_ctx *c", ct(fmt, t.name) .. " *s", "int64_t index" }
  for _, p in ipairs(t.params) do sig[#sig + 1] = "int64_t p_" .. p.name end
  w(string.format("static int read_%s(%s)", t.name, table.concat(sig, ", ")))
  w("{")
  w("    const " .. ct(fmt, ix.root.name) .. " *R = c->root;")
  w("    (void)R;")
  w("    s->_offset = c->pos;")
  w("    s->_index = index;")
  for _, p in ipairs(t.params) do w("    s->_p_" .. p.name .. " = p_" .. p.name .. ";") end
  if flat then
    w(string.format("    if (!bf_need(c, %d, NULL))", t.size))
    w("        return 0;")
    w(string.format("    bf_claim(c, c->pos, %d);", t.size))
  end
  for _, fl in ipairs(t.fields) do
    for _, l in ipairs(R.read_field(fmt, ix, t, fl, env, flat)) do w("    " .. l) end
  end
  w("    return 1;")
  w("}")
  return table.concat(o, "\n")
end

-- The value part of a field (no cond/align/pos/size wrapping).
local function read_value(fmt, ix, t, fl, env, flat)
  local L = {}
  local function w(s) L[#L + 1] = s end
  local name = fl.name
  local k = fl.kind
  local count_c = fl.count and not fl.fixed_count and cexpr.value(fl.count, env)

  local function checked_count()
    w(string.format("int64_t n = %s;", count_c))
    w("if (c->err->failed)")
    w("    return 0;")
    w("if (n < 0 || n > (int64_t)UINT32_MAX)")
    w(string.format('    return bf_fail(c, c->pos, "%s", "count %%lld is out of range", (long long)n);', name))
  end

  if k == "prim" and not fl.array then
    for _, l in ipairs(read_prim(fl, "s->" .. name, flat, "")) do w(l) end
    if fl.const then
      local want = cexpr.c(fl.const, setmetatable({ value = "s->" .. name }, { __index = env }))
      local at = flat and string.format("s->_offset + %d", fl.offset) or string.format("c->pos - %d", fl.prim_size)
      if fl.float then
        w(string.format("if ((double)s->%s != (double)(%s))", name, want))
        w(string.format('    return bf_fail(c, %s, "%s", "expected %s, found %%g", (double)s->%s);', at, name, fl.const.text:gsub("%%", "%%%%"):gsub('"', '\\"'), name))
      else
        w(string.format("if ((int64_t)s->%s != %s)", name, want))
        w(string.format('    return bf_fail(c, %s, "%s", "expected %s, found %%lld (0x%%llx)", (long long)s->%s, (unsigned long long)s->%s);', at, name, fl.const.text:gsub("%%", "%%%%"):gsub('"', '\\"'), name, name))
      end
    end
    for _, b in ipairs(fl.bits) do
      local mask = b.width >= 64 and "UINT64_MAX" or string.format("UINT64_C(0x%X)", (1 << b.width) - 1)
      local raw = string.format("(((uint64_t)s->%s >> %d) & %s)", name, b.shift, mask)
      if b.signed then raw = string.format("bf_sext(%s, %d)", raw, b.width) end
      w(string.format("s->%s_%s = %s;", name, b.name, raw))
    end
    if fl.derive or fl.fixed_frac then
      w(string.format("s->%s_value = %s;", name, derive_c(fl, env, "s->" .. name)))
    end
    return L
  end

  if k == "prim" then
    local ctype = names.prim_ctype(fl.prim)
    local wsz = fl.prim_size
    if fl.count then
      w("{")
      if fl.fixed_count then
        w(string.format("    const int64_t n = %d;", fl.fixed_count))
      else
        local inner = {}
        local save = L
        L = inner
        checked_count()
        L = save
        for _, l in ipairs(inner) do w("    " .. l) end
        w(string.format('    s->%s = bf_alloc_array(c, (uint64_t)n, sizeof *s->%s, %d, "%s");', name, name, wsz, name))
        w(string.format("    if (!s->%s)", name))
        w("        return 0;")
        w(string.format("    s->%s_count = (uint32_t)n;", name))
      end
      if not flat then
        w(string.format('    if (!bf_need(c, (uint64_t)n * %d, "%s"))', wsz, name))
        w("        return 0;")
      end
      if fl.fixed_count then -- a few elements: inline, where the compiler unrolls it
        w("    const uint8_t *p = c->data + c->pos;")
        w("    for (int64_t i = 0; i < n; i++)")
        w(string.format("        s->%s[i] = %s;", name, names.load(fl.prim, fl.endian, string.format("(p + i * %d)", wsz))))
      else -- any count the file claims: one runtime call
        w(string.format("    bf_load_array(s->%s, c->data + c->pos, (size_t)n, %d, %d, %d);", name, wsz,
          fl.endian == "be" and 1 or 0, fl.prim == "s24" and 1 or 0))
      end
      if not flat then w(string.format("    bf_claim(c, c->pos, (uint64_t)n * %d);", wsz)) end
      w(string.format("    c->pos += (size_t)n * %d;", wsz))
    else
      w("{")
      w("    uint32_t n = 0, cap = 0;")
      w(string.format("    %s *buf = NULL;", ctype))
      w("    for (;;) {")
      if fl.to_end then
        w("        if (c->pos >= c->end)")
        w("            break;")
      end
      w("        if (n == cap && !(buf = bf_grow(c, buf, n, &cap, sizeof *buf, \"" .. name .. "\")))")
      w("            return 0;")
      if fl["until"] then
        w(string.format('        if (c->pos + %d > c->end)', wsz))
        w(string.format('            return bf_fail(c, c->pos, "%s", "ends without its terminator (%s)");', name, fl["until"].text:gsub('"', '\\"'):gsub("%%", "%%%%")))
      end
      for _, l in ipairs(read_prim(fl, "buf[n]", false, "        ")) do w(l) end
      w("        n++;")
      if fl["until"] then
        local e2 = setmetatable({ it = "buf[n - 1]", elem_field = fl }, { __index = env })
        w(string.format("        if (%s)", cexpr.cond(fl["until"], e2)))
        w("            break;")
      end
      w("    }")
      w(string.format("    s->%s = buf;", name))
      w(string.format("    s->%s_count = n;", name))
      w("    const int64_t n_read = n;")
      w("    (void)n_read;")
    end
    if fl.derive or fl.fixed_frac then
      local n = fl.count and "n" or "n_read"
      if not fl.fixed_count then
        w(string.format('    s->%s_value = bf_alloc_array(c, (uint64_t)%s, sizeof(double), 0, "%s");', name, n, name))
        w(string.format("    if (!s->%s_value)", name))
        w("        return 0;")
      end
      w(string.format("    for (int64_t i = 0; i < %s; i++)", n))
      w(string.format("        s->%s_value[i] = %s;", name, derive_c(fl, env, "s->" .. name .. "[i]")))
    end
    w("}")
    return L
  end

  if k == "struct" then
    local T = ix.types[fl.type]
    local tc = ct(fmt, fl.type)
    if not fl.array then
      w(string.format('if (!bf_push(c, "%s", -1) || !read_%s(c, &s->%s, %s))', name, fl.type, name, args_c(ix, env, fl, "0")))
      w("    return 0;")
      w("bf_pop(c);")
      return L
    end
    local prev_env = setmetatable({ prev = string.format("(i ? &s->%s[i - 1] : &%s_zero)", name, tc), elem_field = fl }, { __index = env })
    if fl.count then
      w("{")
      if fl.fixed_count then
        w(string.format("    const int64_t n = %d;", fl.fixed_count))
      else
        local inner = {}
        local save = L
        L = inner
        checked_count()
        L = save
        for _, l in ipairs(inner) do w("    " .. l) end
        w(string.format('    s->%s = bf_alloc_array(c, (uint64_t)n, sizeof *s->%s, %d, "%s");', name, name, T.min_size, name))
        w(string.format("    if (!s->%s)", name))
        w("        return 0;")
        w(string.format("    s->%s_count = (uint32_t)n;", name))
      end
      w("    for (int64_t i = 0; i < n; i++) {")
      w(string.format('        if (!bf_push(c, "%s", i) || !read_%s(c, &s->%s[i], %s))', name, fl.type, name, args_c(ix, prev_env, fl, "i")))
      w("            return 0;")
      w("        bf_pop(c);")
      w("    }")
      w("}")
    else
      local prev_grow = setmetatable({ prev = string.format("(n ? &buf[n - 1] : &%s_zero)", tc), elem_field = fl }, { __index = env })
      w("{")
      w("    uint32_t n = 0, cap = 0;")
      w(string.format("    %s *buf = NULL;", tc))
      w("    for (;;) {")
      if fl.to_end then
        w("        if (c->pos >= c->end)")
        w("            break;")
      else
        w("        if (c->pos >= c->end)")
        w(string.format('            return bf_fail(c, c->pos, "%s", "ends without its terminator (%s)");', name, fl["until"].text:gsub('"', '\\"'):gsub("%%", "%%%%")))
      end
      w(string.format('        if (n == cap && !(buf = bf_grow(c, buf, n, &cap, sizeof *buf, "%s")))', name))
      w("            return 0;")
      w("        /* what is read so far stays visible when the read fails (a partial document) */")
      w(string.format("        s->%s = buf;", name))
      w(string.format("        s->%s_count = n + 1;", name))
      w("        size_t before = c->pos;")
      w(string.format('        if (!bf_push(c, "%s", n) || !read_%s(c, &buf[n], %s))', name, fl.type, args_c(ix, prev_grow, fl, "n")))
      w("            return 0;")
      w("        bf_pop(c);")
      w("        n++;")
      if fl["until"] then
        local e2 = setmetatable({ it = "(&buf[n - 1])", elem_field = fl }, { __index = env })
        w(string.format("        if (%s)", cexpr.cond(fl["until"], e2)))
        w("            break;")
      end
      w("        if (c->pos == before)")
      w(string.format('            return bf_fail(c, c->pos, "%s", "element %%u takes no bytes: the array would never end", (unsigned)(n - 1));', name))
      w("    }")
      w(string.format("    s->%s = buf;", name))
      w(string.format("    s->%s_count = n;", name))
      w("}")
    end
    return L
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
    if not flat then
      w(string.format('    if (!bf_need(c, (uint64_t)n, "%s"))', name))
      w("        return 0;")
    end
    w(string.format("    s->%s.ptr = c->data + c->pos;", name))
    w(string.format("    s->%s.len = (size_t)n;", name))
    w(string.format("    s->%s.offset = c->pos;", name))
    if not flat then w("    bf_claim(c, c->pos, (uint64_t)n);") end
    w("    c->pos += (size_t)n;")
    w("}")
    return L
  end

  if k == "str" or k == "cstr" then
    local function one(dst)
      local at = "c->pos"
      if k == "cstr" then
        w(string.format('if (!bf_read_cstr(c, "%s", &%s))', name, dst))
      else
        w(string.format('if (!bf_read_fixed_str(c, %d, "%s", &%s))', fl.str_len, name, dst))
      end
      w("    return 0;")
      if fl.const_str then
        local len = k == "str" and fl.str_len or #fl.const_str
        w(string.format('if (!bf_expect_bytes(c, c->pos - %d, "%s", (const uint8_t *)%s.ptr, %s, %d))', k == "str" and fl.str_len or (len + 1), name, dst, names.cstring(fl.const_str), len))
        w("    return 0;")
      end
      return at
    end
    if not fl.array then
      one("s->" .. name)
      return L
    end
    w("{")
    if fl.fixed_count then
      w(string.format("    const int64_t n = %d;", fl.fixed_count))
    else
      local inner = {}
      local save = L
      L = inner
      checked_count()
      L = save
      for _, l in ipairs(inner) do w("    " .. l) end
      w(string.format('    s->%s = bf_alloc_array(c, (uint64_t)n, sizeof *s->%s, %d, "%s");', name, name, fl.min_elem_size, name))
      w(string.format("    if (!s->%s)", name))
      w("        return 0;")
      w(string.format("    s->%s_count = (uint32_t)n;", name))
    end
    w("    for (int64_t i = 0; i < n; i++) {")
    local save = L
    local inner = {}
    L = inner
    one("s->" .. name .. "[i]")
    L = save
    for _, l in ipairs(inner) do w("        " .. l) end
    w("    }")
    w("}")
    return L
  end

  if k == "switch" then
    w("{")
    w(string.format("    int64_t tag = %s;", cexpr.value(fl.switch_on, env)))
    w("    if (c->err->failed)")
    w("        return 0;")
    w("    switch (tag) {")
    local default
    for case_no, case in ipairs(fl.cases) do
      if case.default then
        default = case
      else
        w(string.format("    case INT64_C(%d): /* %s */", case.value, case.label))
        if case.type then
          local tc = ct(fmt, case.type)
          w(string.format('        s->%s.%s = bf_alloc_array(c, 1, sizeof(%s), 0, "%s");', name, case.type, tc, name))
          w(string.format("        if (!s->%s.%s)", name, case.type))
          w("            return 0;")
          w(string.format("        s->%s.kind = %s;", name, names.kind_const(fmt, case.type)))
          w(string.format('        if (!bf_push(c, "%s", -1) || !read_%s(c, s->%s.%s, 0))', name, case.type, name, case.type))
          w("            return 0;")
          w("        bf_pop(c);")
        else
          w(string.format("        s->%s.raw = (bf_bytes){c->data + c->pos, c->end - c->pos, c->pos};", name))
          w(string.format("        s->%s.kind = %s; /* this raw case, told apart from the default */", name,
            names.raw_case_kind(fmt, fl, case_no)))
          w("        bf_claim(c, c->pos, c->end - c->pos);")
          w("        c->pos = c->end;")
        end
        w("        break;")
      end
    end
    w("    default:")
    if default and default.type then
      local tc = ct(fmt, default.type)
      w(string.format('        s->%s.%s = bf_alloc_array(c, 1, sizeof(%s), 0, "%s");', name, default.type, tc, name))
      w(string.format("        if (!s->%s.%s)", name, default.type))
      w("            return 0;")
      w(string.format("        s->%s.kind = %s;", name, names.kind_const(fmt, default.type)))
      w(string.format('        if (!bf_push(c, "%s", -1) || !read_%s(c, s->%s.%s, 0))', name, default.type, name, default.type))
      w("            return 0;")
      w("        bf_pop(c);")
    elseif default then
      w(string.format("        s->%s.raw = (bf_bytes){c->data + c->pos, c->end - c->pos, c->pos};", name))
      w("        bf_claim(c, c->pos, c->end - c->pos);")
      w("        c->pos = c->end;")
    else
      w(string.format('        return bf_fail(c, c->pos, "%s", "no case for tag %%lld (0x%%llx)", (long long)tag, (unsigned long long)tag);', name))
    end
    w("        break;")
    w("    }")
    w("}")
    return L
  end
  error("cannot read field kind " .. k)
end

-- A field in its own region (size:) or at its own offset (pos:): the C that enters it and
-- leaves it, the same in the reader and in the views (c_view.lua). `cx` renders an
-- expression; `name` is the field's name in error paths.
function R.open_region(w, fl, name, cx)
  w("bf_mark m;")
  if fl.size then w(string.format("int64_t region = %s;", cx(fl.size))) end
  if fl.pos then w(string.format("int64_t at = %s;", cx(fl.pos))) end
  w("if (c->err->failed)")
  w("    return 0;")
  if fl.size then
    w("if (region < 0)")
    w(string.format('    return bf_fail(c, c->pos, "%s", "size %%lld is negative", (long long)region);', name))
  end
  if fl.pos then
    w("if (at < 0)")
    w(string.format('    return bf_fail(c, c->pos, "%s", "offset %%lld is negative", (long long)at);', name))
    w(string.format('if (!bf_seek(c, (uint64_t)at, %s, "%s", &m))', fl.size and "(uint64_t)region" or "UINT64_MAX", name))
    w("    return 0;")
  else
    w(string.format('if (!bf_need(c, (uint64_t)region, "%s") || !bf_seek(c, c->pos, (uint64_t)region, "%s", &m))', name, name))
    w("    return 0;")
  end
end

function R.close_region(w, fl)
  if fl.pos then
    w("bf_restore(c, &m);")
  else
    w("c->pos = m.pos + (size_t)region;")
    w("c->end = m.end;")
  end
end

-- The field's region ends where its trailing padding (a prefix of a fill text) begins; the
-- caller restores c->end from padded_end after the value.
function R.open_padding(w, fl, cx)
  local pad = fl.padding
  local fills = {}
  for _, text in ipairs(pad.fill) do fills[#fills + 1] = string.format("{%s, %d}", names.cstring(text), #text) end
  local unit = pad.unit and cx(pad.unit) or tostring(fl.elem_size or fl.prim_size or 1)
  w(string.format("static const bf_fill fills[] = {%s};", table.concat(fills, ", ")))
  w(string.format("int64_t unit = %s;", unit))
  w("if (c->err->failed)")
  w("    return 0;")
  w("size_t padded_end = c->end;")
  w(string.format("c->end = (size_t)bf_padding_start(c->data, c->pos, c->end, unit, %d, fills, %d);", pad.below, #fills))
end

function R.read_field(fmt, ix, t, fl, env, flat)
  local L = {}
  local depth = 0
  local function w(s) L[#L + 1] = string.rep("    ", depth) .. s end
  local name = fl.name
  w("/* " .. name .. ": " .. names.comment(fl.doc) .. " */")
  if fl.cond then
    w(string.format("if (%s) {", cexpr.cond(fl.cond, env)))
    depth = depth + 1
    w("s->has_" .. name .. " = 1;")
  end
  if fl.align and not fl.pos then
    w("{")
    w(string.format("    size_t pad = (%d - c->pos %% %d) %% %d;", fl.align, fl.align, fl.align))
    w(string.format('    if (!bf_need(c, pad, "%s"))', name))
    w("        return 0;")
    w(string.format("    s->%s_pad = (bf_bytes){c->data + c->pos, pad, c->pos};", name))
    w("    bf_claim(c, c->pos, pad);")
    w("    c->pos += pad;")
    w("}")
  end
  local region = fl.pos or fl.size
  if region then
    w("{")
    depth = depth + 1
    R.open_region(w, fl, name, function(e) return cexpr.value(e, env) end)
  end
  if not fl.offset then w(string.format("s->%s_at = c->pos;", name)) end
  local pad = fl.padding
  if pad then
    -- the field's region ends where its trailing padding (a prefix of a fill text) begins
    w("{")
    depth = depth + 1
    R.open_padding(w, fl, function(e) return cexpr.value(e, env) end)
  end
  for _, l in ipairs(read_value(fmt, ix, t, fl, env, flat)) do w(l) end
  if pad then
    w("c->end = padded_end;")
    depth = depth - 1
    w("}")
  end
  if region then
    if fl.size then
      w(string.format("s->%s_tail = (bf_bytes){c->data + c->pos, c->end - c->pos, c->pos};", name))
      w("bf_claim(c, c->pos, c->end - c->pos);")
    end
    R.close_region(w, fl)
    depth = depth - 1
    w("}")
  end
  if fl.cond then
    depth = depth - 1
    w("}")
  end
  return L
end

-- Link pass: strings resolved once the whole file is read.
function R.link_function(fmt, ix, t)
  local o = {}
  local function w(s) o[#o + 1] = s end
  local env = { fmt = fmt, ix = ix, self = "s", root = "R" }
  w(string.format("static int link_%s(bf_ctx *c, %s *s)", t.name, ct(fmt, t.name)))
  w("{")
  w("    const " .. ct(fmt, ix.root.name) .. " *R = c->root;")
  w("    (void)R;")
  for _, fl in ipairs(t.fields) do
    local ind = "    "
    if fl.cond then
      w("    if (s->has_" .. fl.name .. ") {")
      ind = "        "
    end
    if fl.string_table then
      local tbl = cexpr.place(fl.string_table, env)
      local null = fl.string_null and string.format("(uint64_t)s->%s != UINT64_C(%d) && ", fl.name, fl.string_null) or ""
      w(string.format("%sif (%s!bf_resolve_str(c, %s.offset, %s.len, (uint64_t)s->%s, %s, \"%s\", &s->%s_str))", ind, null, tbl.c, tbl.c, fl.name, offset_of(fl), fl.name, fl.name))
      w(ind .. "    return 0;")
    end
    if fl.kind == "struct" and ix.types[fl.type].needs_link then
      if fl.array then
        local n = fl.fixed_count and tostring(fl.fixed_count) or ("s->" .. fl.name .. "_count")
        w(string.format("%sfor (uint32_t i = 0; i < %s; i++) {", ind, n))
        w(string.format('%s    if (!bf_push(c, "%s", i) || !link_%s(c, &s->%s[i]))', ind, fl.name, fl.type, fl.name))
        w(ind .. "        return 0;")
        w(ind .. "    bf_pop(c);")
        w(ind .. "}")
      else
        w(string.format('%sif (!bf_push(c, "%s", -1) || !link_%s(c, &s->%s))', ind, fl.name, fl.type, fl.name))
        w(ind .. "    return 0;")
        w(ind .. "bf_pop(c);")
      end
    end
    if fl.kind == "switch" then
      local seen = {}
      for _, case in ipairs(fl.cases) do
        if case.type and not seen[case.type] and ix.types[case.type].needs_link then
          seen[case.type] = true
          w(string.format("%sif (s->%s.kind == %s) {", ind, fl.name, names.kind_const(fmt, case.type)))
          w(string.format('%s    if (!bf_push(c, "%s", -1) || !link_%s(c, s->%s.%s))', ind, fl.name, case.type, fl.name, case.type))
          w(ind .. "        return 0;")
          w(ind .. "    bf_pop(c);")
          w(ind .. "}")
        end
      end
    end
    if fl.cond then w("    }") end
  end
  w("    return 1;")
  w("}")
  return table.concat(o, "\n")
end

function R.source(fmt)
  local ix = names.index(fmt)
  local o = {}
  local function w(s) o[#o + 1] = s or "" end
  w("/* Generated by bfgen from " .. fmt.schema .. ". Do not edit: change the schema. */")
  w("#include \"" .. fmt.name .. ".h\"")
  w()
  w("#include <stdio.h>")
  w("#include <string.h>")
  w()
  w("#include \"bf_expr.h\"")
  w()
  for _, t in ipairs(fmt.types) do
    local tc = ct(fmt, t.name)
    local sig = { "bf_ctx *c", tc .. " *s", "int64_t index" }
    for _, p in ipairs(t.params) do sig[#sig + 1] = "int64_t p_" .. p.name end
    w(string.format("static int read_%s(%s);", t.name, table.concat(sig, ", ")))
    if t.needs_link then w(string.format("static int link_%s(bf_ctx *c, %s *s);", t.name, tc)) end
  end
  w()
  w("#include \"" .. fmt.name .. "_access.h\"")
  w()
  for _, t in ipairs(fmt.types) do
    w(R.read_function(fmt, ix, t))
    w()
    if t.needs_link then
      w(R.link_function(fmt, ix, t))
      w()
    end
  end
  for _, e in ipairs(fmt.entries) do
    local tc = ct(fmt, e.root)
    local rt = ix.types[e.root]
    local link = rt.needs_link and (" && link_" .. e.root .. "(&c, s)") or ""
    w(string.format("int %s_read_%s(const uint8_t *data, size_t size, bf_arena *arena, const bf_read_opts *opts,", fmt.name, e.name))
    w(string.format("        %s **out, bf_error *err)", tc))
    w("{")
    if #fmt.revisions == 0 then
      w("    bf_ctx c;")
      w(string.format("    %s *s = bf_begin_read(&c, data, size, arena, opts, err, sizeof *s);", tc))
      w(string.format("    if (!s || !(read_%s(&c, s, 0)%s)) {", e.root, link))
      w("        if (s && opts && opts->partial)")
      w("            *opts->partial = s; /* what was read before the failure, in `arena` */")
      w("        return 0;")
      w("    }")
      w("    *out = s;")
      w("    return 1;")
    else
      local list = {}
      for _, r in ipairs(fmt.revisions) do list[#list + 1] = names.cstring(r.name) end
      w(string.format("    static const char *const revisions[] = {%s};", table.concat(list, ", ")))
      w(string.format("    int64_t first = 0, last = %d;", #fmt.revisions - 1))
      w("    if (opts && opts->revision) {")
      w("        while (first <= last && strcmp(revisions[first], opts->revision) != 0)")
      w("            first++;")
      w("        if (first > last) {")
      w("            memset(err, 0, sizeof *err);")
      w("            err->failed = 1;")
      w(string.format([[            snprintf(err->message, sizeof err->message, "%s has no revision '%%s'", opts->revision);]], fmt.name))
      w("            return 0;")
      w("        }")
      w("        last = first;")
      w("    }")
      w("    /* each revision is tried in its own arena; the error kept is the one that got furthest */")
      w("    bf_error best;")
      w("    int64_t best_revision = -1;")
      w("    uint64_t best_reached = 0;")
      w("    bf_arena best_arena; /* the furthest attempt, kept for a partial document */")
      w(string.format("    %s *best_doc = NULL;", tc))
      w("    for (int64_t r = first; r <= last; r++) {")
      w("        bf_arena attempt;")
      w("        bf_arena_init(&attempt, arena->alloc, arena->budget);")
      w("        if (opts && opts->claimed)")
      w("            memset(opts->claimed, 0, (size + 7) / 8);")
      w("        bf_ctx c;")
      w(string.format("        %s *s = bf_begin_read(&c, data, size, &attempt, opts, err, sizeof *s);", tc))
      w("        c.revision = r;")
      w(string.format("        int read_all = s && read_%s(&c, s, 0);", e.root))
      w(string.format("        if (read_all%s) {", link))
      w("            s->_revision = r;")
      w("            bf_arena_adopt(arena, &attempt);")
      w("            *out = s;")
      w("            return 1;")
      w("        }")
      w("        /* how far the attempt got: a failure after the whole file was read (strings) got furthest */")
      w("        uint64_t reached = read_all ? (uint64_t)size + 1 : err->offset;")
      w("        if (best_revision < 0 || reached > best_reached) {")
      w("            best = *err;")
      w("            best_revision = r;")
      w("            best_reached = reached;")
      w("            if (opts && opts->partial && s) {")
      w("                if (best_doc)")
      w("                    bf_arena_free(&best_arena);")
      w("                s->_revision = r;")
      w("                best_arena = attempt;")
      w("                best_doc = s;")
      w("                continue;")
      w("            }")
      w("        }")
      w("        bf_arena_free(&attempt);")
      w("    }")
      w("    if (best_doc) {")
      w("        bf_arena_adopt(arena, &best_arena);")
      w("        *opts->partial = best_doc;")
      w("    }")
      w("    *err = best;")
      w("    char message[sizeof err->message];")
      w('    snprintf(message, sizeof message, "%s", best.message);')
      w("    if (last > first)")
      w([[        snprintf(err->message, sizeof err->message, "no revision reads this file; as '%s' (furthest): %.180s", revisions[best_revision], message);]])
      w("    else")
      w([[        snprintf(err->message, sizeof err->message, "as '%s': %.200s", revisions[best_revision], message);]])
      w("    return 0;")
    end
    w("}")
    w()
  end
  return table.concat(o, "\n")
end

return R
