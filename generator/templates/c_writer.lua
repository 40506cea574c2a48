-- <format>_write.c: the writer and the builder.
--
-- The writer (`write_<T>`, `<fmt>_write_<kind>`) puts every field of the document at the
-- position the document gives: structures at their `_offset`, data reached through an
-- offset at its `_at`, padding, tails and unknown bytes included, one put per field. Reading
-- then writing reproduces a file byte for byte.
--
-- The builder (`<fmt>_build_<kind>`) first lays the document out anew with the layout solver
-- (c_builder.lua), which computes the positions, counts, sizes, offsets and string tables,
-- then writes it with the same writer.
local names = require("names")
local body = require("c_write_body")
local builder = require("c_builder")

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

-- A field's puts: `calls` that can share one `if (!a || !b)` with their neighbours, or
-- `lines` of statements.
local function write_value(fmt, fl)
  local name, k = fl.name, fl.kind
  local L = {}
  local function w(s) L[#L + 1] = s end
  local count = body.count_of(fl)
  if k == "prim" then
    if fl.array then
      local signed = fl.prim:sub(1, 1) == "s" and 1 or 0
      return { calls = { string.format('bf_put_array(w, s->%s, %s, %d, %d, %d, "%s")', name, count, fl.prim_size, signed,
        fl.endian == "be" and 1 or 0, name) } }
    end
    return { calls = { put_one(fl, "s->" .. name) } }
  elseif k == "struct" then
    if fl.array then
      w(string.format("for (uint32_t i = 0; i < %s; i++)", count))
      w(string.format('    if (!write_%s(w, &s->%s[i], "%s", i))', fl.type, name, name))
      w("        return 0;")
      return { lines = L }
    end
    return { calls = { string.format('write_%s(w, &s->%s, "%s", -1)', fl.type, name, name) } }
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
    local raw = string.format('bf_put_bytes(w, s->%s.raw.ptr, s->%s.raw.len, "%s")', name, name, name)
    body.switch_cases(fmt, fl, w, "write", "if (!w->built && !" .. raw .. ")", "if (!" .. raw .. ")")
    return { lines = L }
  end
  return { lines = L }
end

-- write_<T>: the structure's fields, each where the document says.
local function writer_for(fmt, ix, t)
  local F = body.body()
  if ix.plain[t.name] then
    -- numbers only, where the cursor is (the builder does not place its elements one by one)
    F.line("if (name && !bf_push(&w->c, name, index))")
  else
    F.line("if (!bf_begin(w, s->_offset, name, index))")
  end
  F.line("    return 0;")
  for _, fl in ipairs(t.fields) do
    if fl.cond then F.open(string.format("if (s->has_%s) {", fl.name)) end
    if fl.align and not fl.pos then
      F.call(string.format('bf_put_pad(w, &s->%s_pad, "%s")', fl.name, fl.name))
    end
    local tail = string.format('bf_put_tail(w, &s->%s_tail, "%s")', fl.name, fl.name)
    if fl.pos then
      local placed = builder.placeable(fl)
      -- a view of bytes another field writes: that field's bytes are the built ones
      if not placed then F.open("if (!w->built) {") else F.open("{") end
      F.line("size_t resume = w->pos;")
      F.call(string.format('bf_wseek(w, s->%s_at, "%s")', fl.name, fl.name))
      F.value(write_value(fmt, fl))
      if fl.size then F.call(tail) end
      F.line("w->pos = resume;")
      F.close()
    else
      F.value(write_value(fmt, fl))
      if fl.fill_to then
        -- the builder's padding ends the region, after the data placed inside it
        F.open("if (w->built) {")
        F.call(string.format('bf_wseek(w, s->%s_tail.offset, "%s")', fl.name, fl.name))
        F.close()
      end
      if fl.size then F.call(tail) end
    end
    if fl.cond then F.close() end
  end
  F.line("return bf_end(w, name);")
  local head = string.format("static int write_%s(bf_wctx *w, const %s *s, const char *name, int64_t index)", t.name,
    ct(fmt, t.name))
  return body.func(fmt, ix, head, nil, F)
end

function W.source(fmt)
  local ix = names.index(fmt)
  builder.prepare(fmt, ix)
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
  -- each takes its structure's name and index in the path (NULL, -1: the root)
  for _, t in ipairs(fmt.types) do
    w(string.format("static int write_%s(bf_wctx *w, const %s *s, const char *name, int64_t index);", t.name,
      ct(fmt, t.name)))
  end
  local solver_decls, solvers = builder.functions(fmt, ix)
  for _, line in ipairs(solver_decls) do w(line) end
  w()
  w("#include \"" .. fmt.name .. "_access.h\"")
  w()
  for _, t in ipairs(fmt.types) do
    w(writer_for(fmt, ix, t))
    w()
  end
  for _, f in ipairs(solvers) do
    w(f)
    w()
  end
  for _, e in ipairs(fmt.entries) do
    local rt = ct(fmt, e.root)
    w(string.format("int %s_write_%s(const %s *doc, struct bf_buffer *out, bf_error *err)", fmt.name, e.name, rt))
    w("{")
    w("    bf_wctx w;")
    w("    bf_wctx_init(&w, out, doc);")
    if #fmt.revisions > 0 then w("    w.c.revision = doc->_revision;") end
    w(string.format("    int ok = write_%s(&w, doc, NULL, -1);", e.root))
    w("    *err = w.err;")
    w("    bf_wctx_free(&w);")
    w("    return ok;")
    w("}")
    w()
    w(string.format("static int solve_entry_%s(bf_wctx *w, void *doc)", e.name))
    w("{")
    w(string.format("    return solve_%s(w, doc, NULL, -1);", e.root))
    w("}")
    w()
    w(string.format("static int write_entry_%s(bf_wctx *w, void *doc)", e.name))
    w("{")
    w(string.format("    return write_%s(w, doc, NULL, -1);", e.root))
    w("}")
    w()
    w(string.format("int %s_build_%s(%s *doc, bf_arena *arena, struct bf_buffer *out, bf_error *err)", fmt.name, e.name, rt))
    w("{")
    w(string.format("    return bf_build(doc, %s, arena, out, err, solve_entry_%s, write_entry_%s);",
      #fmt.revisions > 0 and "doc->_revision" or "0", e.name, e.name))
    w("}")
    w()
  end
  return table.concat(o, "\n")
end

return W
