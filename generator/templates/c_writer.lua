-- <format>_write.c: the writers. Every field is written back from the document at the
-- position it was read from (padding, tails and unknown bytes included), so that reading
-- then writing reproduces a file byte for byte.
local names = require("names")

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

local function write_value(fmt, ix, fl, L)
  local name, k = fl.name, fl.kind
  local function w(s) L[#L + 1] = s end
  local count = fl.fixed_count and tostring(fl.fixed_count) or ("s->" .. name .. "_count")
  if k == "prim" then
    local size = fl.prim_size
    if fl.array then
      w("{")
      w(string.format('    uint8_t *p = bf_put(w, (uint64_t)%s * %d, "%s");', count, size, name))
      w("    if (!p)")
      w("        return 0;")
      w(string.format("    for (uint32_t i = 0; i < (uint32_t)%s; i++) {", count))
      local chk = range_check(fl, "s->" .. name .. "[i]")
      if chk then w("        " .. chk) end
      w("        " .. stores[fl.prim](string.format("(p + (size_t)i * %d)", size), "s->" .. name .. "[i]", fl.endian))
      w("    }")
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
    if fl.array then
      w(string.format("for (uint32_t i = 0; i < (uint32_t)%s; i++) {", count))
      w(string.format('    if (!bf_push(&w->c, "%s", i) || !write_%s(w, &s->%s[i]))', name, fl.type, name))
      w("        return 0;")
      w("    bf_pop(&w->c);")
      w("}")
    else
      w(string.format('if (!bf_push(&w->c, "%s", -1) || !write_%s(w, &s->%s))', name, fl.type, name))
      w("    return 0;")
      w("bf_pop(&w->c);")
    end
  elseif k == "bytes" then
    w(string.format('if (!bf_put_bytes(w, s->%s.ptr, s->%s.len, "%s"))', name, name, name))
    w("    return 0;")
  elseif k == "str" or k == "cstr" then
    local one = function(dst)
      if k == "str" then
        return string.format('bf_put_fixed_str(w, &%s, %d, "%s")', dst, fl.str_len, name)
      end
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
    w(string.format('    if (!bf_put_bytes(w, s->%s.raw.ptr, s->%s.raw.len, "%s"))', name, name, name))
    w("        return 0;")
    w("}")
  end
end

function W.function_for(fmt, ix, t)
  local o = {}
  local depth = 1
  local function w(s) o[#o + 1] = string.rep("    ", depth) .. s end
  o[#o + 1] = string.format("static int write_%s(bf_wctx *w, const %s *s)", t.name, ct(fmt, t.name))
  o[#o + 1] = "{"
  w("/* every structure starts where it was read from, or where the layout put it */")
  w("if (!bf_wseek(w, s->_offset, NULL))")
  w("    return 0;")
  for _, fl in ipairs(t.fields) do
    w("/* " .. fl.name .. " */")
    if fl.cond then
      w(string.format("if (s->has_%s) {", fl.name))
      depth = depth + 1
    end
    if fl.align then
      w(string.format('if (!bf_put_bytes(w, s->%s_pad.ptr, s->%s_pad.len, "%s"))', fl.name, fl.name, fl.name))
      w("    return 0;")
    end
    if fl.pos then
      w("{")
      depth = depth + 1
      w("size_t resume = w->pos;")
      w(string.format('if (!bf_wseek(w, s->%s_at, "%s"))', fl.name, fl.name))
      w("    return 0;")
    end
    local L = {}
    write_value(fmt, ix, fl, L)
    for _, l in ipairs(L) do w(l) end
    if fl.size then
      w(string.format('if (!bf_put_bytes(w, s->%s_tail.ptr, s->%s_tail.len, "%s"))', fl.name, fl.name, fl.name))
      w("    return 0;")
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
  local o = {}
  local function w(s) o[#o + 1] = s or "" end
  w("/* Generated by bfgen from " .. fmt.schema .. ". Do not edit: change the schema. */")
  w("#include \"" .. fmt.name .. ".h\"")
  w()
  w("#include \"bf_write.h\"")
  w()
  for _, t in ipairs(fmt.types) do
    w(string.format("static int write_%s(bf_wctx *w, const %s *s);", t.name, ct(fmt, t.name)))
  end
  w()
  for _, t in ipairs(fmt.types) do
    w(W.function_for(fmt, ix, t))
    w()
  end
  for _, e in ipairs(fmt.entries) do
    w(string.format("int %s_write_%s(const %s *doc, struct bf_buffer *out, bf_error *err)", fmt.name, e.name, ct(fmt, e.root)))
    w("{")
    w("    bf_wctx w;")
    w("    bf_wctx_init(&w, out, doc);")
    if #fmt.revisions > 0 then w("    w.c.revision = doc->_revision;") end
    w(string.format("    int ok = write_%s(&w, doc);", e.root))
    w("    *err = w.err;")
    w("    return ok;")
    w("}")
    w()
  end
  return table.concat(o, "\n")
end

return W
