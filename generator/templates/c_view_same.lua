-- <format>_view_same.h/.c: the views' agreement checks with the struct reader, every field
-- through the accessors. For the tests only (bfgen --emit view-same, into the test build): they
-- are as large as the views, and no user calls them.
local names = require("names")
local V = require("c_view")

local function ct(fmt, t) return names.ctype(fmt, t) end
local vt = V.view_type

local function same_function(fmt, ix, t)
  local o = {}
  local function w(s) o[#o + 1] = s end
  local VT, S = vt(fmt, t.name), ct(fmt, t.name)
  local pre = VT .. "_"
  w(string.format("static int same_%s(const %s *v, const %s *s, char *where, size_t n)", t.name, VT, S))
  w("{")
  w(string.format('    if (v->_offset != s->_offset || v->_index != s->_index)'))
  w(string.format('        return differs(where, n, "%s", "", -1);', t.name))
  local function differ(name, i) return string.format('return differs(where, n, "%s", "%s", %s);', t.name, name, i or "-1") end
  local function eq_num(fl, a, b)
    if fl.prim == "f32" then return string.format("bf_f32_bits((float)(%s)) == bf_f32_bits((float)(%s))", a, b) end
    if fl.prim == "f64" then return string.format("bf_f64_bits((double)(%s)) == bf_f64_bits((double)(%s))", a, b) end
    return string.format("(int64_t)(%s) == (int64_t)(%s)", a, b)
  end
  local function eq_str(a, b) return string.format("(%s).ptr == (%s).ptr && (%s).len == (%s).len", a, b, a, b) end
  for _, fl in ipairs(t.fields) do
    local name = fl.name
    local ind = "    "
    if fl.cond then
      w(string.format("    if (%shas_%s(v) != s->has_%s)", pre, name, name))
      w("        " .. differ(name))
      w(string.format("    if (s->has_%s) {", name))
      ind = "        "
    end
    local count = fl.fixed_count and tostring(fl.fixed_count) or ("s->" .. name .. "_count")
    if fl.array and not fl.fixed_count then
      w(string.format("%sif (%s%s_count(v) != s->%s_count)", ind, pre, name, name))
      w(ind .. "    " .. differ(name))
    end
    if fl.kind == "prim" and not fl.array then
      w(string.format("%sif (!(%s))", ind, eq_num(fl, pre .. name .. "(v)", "s->" .. name)))
      w(ind .. "    " .. differ(name))
      for _, b in ipairs(fl.bits) do
        w(string.format("%sif ((int64_t)%s%s_%s(v) != (int64_t)s->%s_%s)", ind, pre, name, b.name, name, b.name))
        w(ind .. "    " .. differ(name .. "." .. b.name))
      end
      if fl.fixed_frac or ix.derived[t.name .. "." .. name] then
        w(string.format("%sif (bf_f64_bits(%s%s_value(v)) != bf_f64_bits(s->%s_value))", ind, pre, name, name))
        w(ind .. "    " .. differ(name))
      end
      if fl.string_table then
        w(string.format("%sif (!(%s))", ind, eq_str(pre .. name .. "_str(v)", "s->" .. name .. "_str")))
        w(ind .. "    " .. differ(name))
      end
    elseif fl.kind == "prim" then
      w(string.format("%sfor (size_t i = 0; i < %s; i++) {", ind, count))
      w(string.format("%s    if (!(%s))", ind, eq_num(fl, pre .. name .. "(v, i)", "s->" .. name .. "[i]")))
      w(ind .. "        " .. differ(name, "(int64_t)i"))
      if fl.fixed_frac or ix.derived[t.name .. "." .. name] then
        w(string.format("%s    if (bf_f64_bits(%s%s_value(v, i)) != bf_f64_bits(s->%s_value[i]))", ind, pre, name, name))
        w(ind .. "        " .. differ(name, "(int64_t)i"))
      end
      w(ind .. "}")
    elseif fl.kind == "bytes" then
      w(string.format("%s{", ind))
      w(string.format("%s    bf_bytes b = %s%s(v);", ind, pre, name))
      w(string.format("%s    if (b.ptr != s->%s.ptr || b.len != s->%s.len || b.offset != s->%s.offset)", ind, name, name, name))
      w(ind .. "        " .. differ(name))
      w(ind .. "}")
    elseif fl.kind == "str" or fl.kind == "cstr" then
      if fl.array then
        w(string.format("%sfor (size_t i = 0; i < %s; i++)", ind, count))
        w(string.format("%s    if (!(%s))", ind, eq_str(pre .. name .. "(v, i)", "s->" .. name .. "[i]")))
        w(ind .. "        " .. differ(name, "(int64_t)i"))
      else
        w(string.format("%sif (!(%s))", ind, eq_str(pre .. name .. "(v)", "s->" .. name)))
        w(ind .. "    " .. differ(name))
      end
    elseif fl.kind == "struct" then
      local SV = vt(fmt, fl.type)
      if not fl.array then
        w(string.format("%s{", ind))
        w(string.format("%s    %s e = %s%s(v);", ind, SV, pre, name))
        w(string.format("%s    if (!same_%s(&e, &s->%s, where, n))", ind, fl.type, name))
        w(ind .. "        return 0;")
        w(ind .. "}")
      elseif V.reach(ix, fl) == "walk" then
        w(string.format("%s{", ind))
        w(string.format("%s    %s e;", ind, SV))
        w(string.format("%s    size_t i = 0;", ind))
        w(string.format("%s    for (int more = %s%s_first(v, &e); more; more = %s%s_next(v, &e), i++)", ind, pre, name, pre, name))
        w(string.format("%s        if (i >= %s || !same_%s(&e, &s->%s[i], where, n))", ind, count, fl.type, name))
        w(ind .. "            " .. differ(name, "(int64_t)i"))
        w(string.format("%s    if (i != %s)", ind, count))
        w(ind .. "        " .. differ(name))
        w(ind .. "}")
      else
        w(string.format("%sfor (size_t i = 0; i < %s; i++) {", ind, count))
        w(string.format("%s    %s e = %s%s_at(v, i);", ind, SV, pre, name))
        w(string.format("%s    if (!same_%s(&e, &s->%s[i], where, n))", ind, fl.type, name))
        w(ind .. "        return 0;")
        w(ind .. "}")
      end
    elseif fl.kind == "switch" then
      w(string.format("%sif (%s%s_kind(v) != s->%s.kind)", ind, pre, name, name))
      w(ind .. "    " .. differ(name))
      local seen = {}
      for _, case in ipairs(fl.cases) do
        if case.type and not seen[case.type] then
          seen[case.type] = true
          w(string.format("%sif (s->%s.kind == %s) {", ind, name, names.kind_const(fmt, case.type)))
          w(string.format("%s    %s e = %s%s_%s(v);", ind, vt(fmt, case.type), pre, name, case.type))
          w(string.format("%s    if (!same_%s(&e, s->%s.%s, where, n))", ind, case.type, name, case.type))
          w(ind .. "        return 0;")
          w(ind .. "}")
        end
      end
      w(string.format("%sif (s->%s.kind <= 0) {", ind, name))
      w(string.format("%s    bf_bytes b = %s%s_raw(v);", ind, pre, name))
      w(string.format("%s    if (b.ptr != s->%s.raw.ptr || b.len != s->%s.raw.len)", ind, name, name))
      w(ind .. "        " .. differ(name))
      w(ind .. "}")
    end
    if fl.cond then w("    }") end
  end
  w("    (void)where;")
  w("    (void)n;")
  w("    return 1;")
  w("}")
  return table.concat(o, "\n")
end

local function same_header(fmt)
  local guard = fmt.name:upper() .. "_VIEW_SAME_H"
  local H = {
    "/* Generated by bfgen from " .. fmt.schema .. ". Do not edit: change the schema. */",
    "/* Views against the full reader (for tests; not part of the generated library). */",
    "#ifndef " .. guard,
    "#define " .. guard,
    "",
    "#include \"" .. fmt.name .. "_view.h\"",
    "",
  }
  for _, e in ipairs(fmt.entries) do
    H[#H + 1] = "/* 1 when the view of `data` and the full reader's document agree on every field. */"
    H[#H + 1] = string.format("int %s_view_same_%s(const %s_%s_view *v, const %s *s, char *where, size_t where_size);",
      fmt.name, e.name, fmt.name, e.name, ct(fmt, e.root))
    H[#H + 1] = ""
  end
  H[#H + 1] = "#endif"
  return table.concat(H, "\n") .. "\n"
end

local function same_file(fmt, ix)
  local S = {}
  local function c(s) S[#S + 1] = s or "" end
  c("/* Generated by bfgen from " .. fmt.schema .. ". Do not edit: change the schema. */")
  c("/* Views against the full reader, every field through the accessors (for tests). */")
  c("#include \"" .. fmt.name .. "_view_same.h\"")
  c()
  c("#include <stdio.h>")
  c()
  c("/* Writes \"type.field[index]\" into `where`; returns 0, for `return differs(...)`. */")
  c("static int differs(char *where, size_t size, const char *type, const char *field, int64_t index)")
  c("{")
  c("    if (index >= 0)")
  c("        snprintf(where, size, \"%s.%s[%lld]\", type, field, (long long)index);")
  c("    else")
  c("        snprintf(where, size, \"%s.%s\", type, field);")
  c("    return 0;")
  c("}")
  c()
  for _, t in ipairs(fmt.types) do
    c(string.format("static int same_%s(const %s *v, const %s *s, char *where, size_t n);", t.name, vt(fmt, t.name), ct(fmt, t.name)))
  end
  c()
  for _, t in ipairs(fmt.types) do
    c(same_function(fmt, ix, t))
    c()
  end
  for _, e in ipairs(fmt.entries) do
    c(string.format("int %s_view_same_%s(const %s_%s_view *v, const %s *s, char *where, size_t where_size)", fmt.name, e.name, fmt.name, e.name, ct(fmt, e.root)))
    c("{")
    c(string.format("    return same_%s(&v->root, s, where, where_size);", e.root))
    c("}")
    c()
  end
  S[#S] = nil -- (no blank line at the end)
  return table.concat(S, "\n") .. "\n"
end

-- The two files of a format whose views c_view.lua generates: { h = ..., c = ... }.
return function(fmt)
  local ix = V.generated_index[fmt.name] or names.index(fmt) -- c_view.files ran first
  ix.derived = ix.derived or {}
  return { h = same_header(fmt), c = same_file(fmt, ix) }
end
