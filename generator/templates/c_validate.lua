-- <format>_validate.c: the validators. Every rule of the schema (enum membership, `expect`
-- values, type `rules`) becomes C that adds a finding with severity, path, offset and origin.
local names = require("names")
local cexpr = require("cexpr")

local V = {}

local function ct(fmt, t) return names.ctype(fmt, t) end

local function field_pos(fl, owner)
  owner = owner or "s"
  if fl.offset then return string.format("(%s)->_offset + %d", owner, fl.offset) end
  return string.format("(%s)->%s_at", owner, fl.name)
end

-- Which types have something to check, themselves or below them.
local function needs_map(fmt, ix)
  local memo, busy = {}, {}
  local function needs(t)
    if memo[t.name] ~= nil then return memo[t.name] end
    if busy[t.name] then return false end
    busy[t.name] = true
    local r = #t.rules > 0
    for _, fl in ipairs(t.fields) do
      if (fl.enum and not ix.enums[fl.enum].open) or fl.flags or fl.expect then r = true end
      if fl.kind == "struct" and needs(ix.types[fl.type]) then r = true end
      for _, c in ipairs(fl.cases or {}) do
        if c.type and needs(ix.types[c.type]) then r = true end
      end
    end
    busy[t.name] = nil
    memo[t.name] = r
    return r
  end
  for _, t in ipairs(fmt.types) do needs(t) end
  return memo
end

local function escape_format(text) return (text:gsub("%%", "%%%%")) end

-- The C lines of one rule, given an environment for its expressions.
local function rule_lines(fmt, ix, t, r, env, at_path, at_offset)
  local L = {}
  local sev = r.severity == "warning" and "BF_SEVERITY_WARNING" or "BF_SEVERITY_ERROR"
  local origin = r.origin and names.cstring(r.origin) or "NULL"
  local pre = {}
  local e2 = setmetatable({ pre = pre, counter = env.counter }, { __index = env })
  local check = cexpr.truth(r.check, e2)
  for _, l in ipairs(pre) do L[#L + 1] = l end
  L[#L + 1] = string.format("int ok = %s;", check)
  L[#L + 1] = string.format("if (!bf_eval_failed(v, %s, %s) && !ok) {", names.cstring(at_path), origin)
  local mpre = {}
  local e3 = setmetatable({ pre = mpre, counter = env.counter }, { __index = env })
  local fmt_parts, args = {}, {}
  for _, part in ipairs(r.parts) do
    if part.text then
      fmt_parts[#fmt_parts + 1] = escape_format(part.text)
    elseif part.value.vt == "float" then
      fmt_parts[#fmt_parts + 1] = "%g"
      args[#args + 1] = cexpr.cf(part.value, e3)
    elseif part.hex then
      fmt_parts[#fmt_parts + 1] = "0x%llx"
      args[#args + 1] = "(unsigned long long)(" .. cexpr.c(part.value, e3) .. ")"
    else
      fmt_parts[#fmt_parts + 1] = "%lld"
      args[#args + 1] = "(long long)(" .. cexpr.c(part.value, e3) .. ")"
    end
  end
  for _, l in ipairs(mpre) do L[#L + 1] = "    " .. l end
  local at_c = at_offset
  if r.at then
    at_c = cexpr.c({ k = "call", name = "offset", args = { r.at }, vt = "int" }, e3)
  end
  L[#L + 1] = string.format("    bf_report(v, %s, (uint64_t)(%s), %s, %s, %s%s);", sev, at_c, names.cstring(at_path), origin,
    names.cstring(table.concat(fmt_parts)), #args > 0 and (", " .. table.concat(args, ", ")) or "")
  L[#L + 1] = string.format("    bf_eval_failed(v, %s, %s);", names.cstring(at_path), origin)
  L[#L + 1] = "}"
  return L
end

-- The path a rule's `at` names, relative to where the finding is reported.
local function at_path(r)
  if not r.at then return "" end
  return (r.at.text:gsub("^_it%.", ""):gsub("^_it$", ""))
end

local function field_checks(fmt, ix, t, fl, w)
  local name = fl.name
  local function each_value(body)
    -- calls body(value_c, pos_c, field_c) for every element of the field; an element is
    -- reported as name[i]
    if fl.array then
      local n = fl.fixed_count and tostring(fl.fixed_count) or ("s->" .. name .. "_count")
      w(string.format("    for (uint32_t i = 0; i < %s; i++)", n))
      w(string.format('        if (bf_push(c, "%s", i)) {', name))
      body(string.format("(int64_t)s->%s[i]", name), string.format("%s + (uint64_t)i * %d", field_pos(fl), fl.prim_size), "NULL")
      w("            bf_pop(c);")
      w("        }")
    else
      body(string.format("(int64_t)s->%s", name), field_pos(fl), '"' .. name .. '"')
    end
  end
  local guard = fl.cond and ("if (s->has_" .. name .. ") ") or ""
  local e = fl.enum and ix.enums[fl.enum]
  if e and not e.open then
    local cases = {}
    for _, v in ipairs(e.values) do cases[#cases + 1] = string.format("%s != INT64_C(%d)", "x", v.value) end
    each_value(function(value, pos, field_c)
      w(string.format("    %s{", guard))
      w(string.format("        int64_t x = %s;", value))
      w(string.format("        if (%s)", table.concat(cases, " && ")))
      w(string.format('            bf_report(v, BF_SEVERITY_ERROR, %s, %s, %s, "%%lld (0x%%llx) is not a value of %s", (long long)x, (unsigned long long)x);', pos, field_c, names.cstring(e.name .. ": the values the document lists"), e.name))
      w("    }")
    end)
  end
  local f = fl.flags and ix.enums[fl.flags]
  if f then
    local mask = 0
    for _, v in ipairs(f.values) do mask = mask | (1 << v.value) end
    each_value(function(value, pos, field_c)
      w(string.format("    %sif ((uint64_t)%s & ~UINT64_C(0x%X))", guard, value, mask))
      w(string.format('        bf_report(v, BF_SEVERITY_WARNING, %s, %s, %s, "bits 0x%%llx are not %s flags", (unsigned long long)((uint64_t)%s & ~UINT64_C(0x%X)));', pos, field_c, names.cstring(f.name .. ": the bits the document lists"), f.name, value, mask))
    end)
  end
  if fl.expect then
    local env = { fmt = fmt, ix = ix, self = "s", root = "R", pre = {}, counter = { n = 0 }, memo = true }
    local want = cexpr.c(fl.expect, env)
    local sev = fl.expect_warning and "BF_SEVERITY_WARNING" or "BF_SEVERITY_ERROR"
    local origin = fl.expect_origin and names.cstring(fl.expect_origin) or "NULL"
    each_value(function(value, pos, field_c)
      w(string.format("    %sif (%s != %s)", guard, value, want))
      w(string.format('        bf_report(v, %s, %s, %s, %s, "expected %s, found %%lld (0x%%llx)", (long long)%s, (unsigned long long)%s);', sev, pos, field_c, origin, escape_format(fl.expect.text:gsub('"', '\\"')), value, value))
    end)
  end
end

function V.function_for(fmt, ix, t, needs, cache_slots)
  local o = {}
  local function w(s) o[#o + 1] = s end
  w(string.format("static void validate_%s(bf_vctx *v, const %s *s)", t.name, ct(fmt, t.name)))
  w("{")
  w("    bf_ctx *c = &v->c;")
  w("    const " .. ct(fmt, ix.root.name) .. " *R = c->root;")
  w("    rule_cache *VC = v->cache;")
  w("    (void)c;")
  w("    (void)R;")
  w("    (void)VC;")
  w("    (void)s;")
  for _, fl in ipairs(t.fields) do field_checks(fmt, ix, t, fl, w) end
  local counter = { n = 0 }
  for _, r in ipairs(t.rules) do
    w(string.format("    /* %s (schema line %d) */", names.comment(r.origin or r.message), r.line))
    local env = { fmt = fmt, ix = ix, self = "s", root = "R", counter = counter, memo = true, cache = "VC",
                  cache_slots = cache_slots }
    if r.each then
      local fl
      for _, f in ipairs(t.fields) do if f.name == r.each then fl = f end end
      local n = fl.fixed_count and tostring(fl.fixed_count) or ("s->" .. fl.name .. "_count")
      w(string.format("    for (uint32_t i = 0; i < %s; i++) {", n))
      local pos
      if fl.kind == "struct" then
        local tc = ct(fmt, fl.type)
        w(string.format("        const %s *it = &s->%s[i];", tc, fl.name))
        w(string.format("        const %s *prev = i ? &s->%s[i - 1] : &%s_zero;", tc, fl.name, tc))
        w("        (void)it;")
        w("        (void)prev;")
        env.it, env.prev = "it", "prev"
        pos = "it->_offset"
      else
        env.it = string.format("s->%s[i]", fl.name)
        env.prev = string.format("(i ? s->%s[i - 1] : 0)", fl.name)
        pos = string.format("%s + (uint64_t)i * %d", field_pos(fl), fl.elem_size or 0)
      end
      env.index = "(int64_t)i"
      env.elem_field = fl
      w(string.format('        if (bf_push(c, "%s", i)) {', fl.name))
      w("            {")
      for _, l in ipairs(rule_lines(fmt, ix, t, r, env, at_path(r), pos)) do w("                " .. l) end
      w("            }")
      w("            bf_pop(c);")
      w("        }")
      w("    }")
    else
      w("    {")
      for _, l in ipairs(rule_lines(fmt, ix, t, r, env, at_path(r), "s->_offset")) do w("        " .. l) end
      w("    }")
    end
  end
  for _, fl in ipairs(t.fields) do
    local guard = fl.cond and ("if (s->has_" .. fl.name .. ") ") or ""
    if fl.kind == "struct" and needs[fl.type] then
      if fl.array then
        local n = fl.fixed_count and tostring(fl.fixed_count) or ("s->" .. fl.name .. "_count")
        w(string.format("    %sfor (uint32_t i = 0; i < %s; i++) {", guard, n))
        w(string.format('        if (bf_push(c, "%s", i)) {', fl.name))
        w(string.format("            validate_%s(v, &s->%s[i]);", fl.type, fl.name))
        w("            bf_pop(c);")
        w("        }")
        w("    }")
      else
        w(string.format('    %sif (bf_push(c, "%s", -1)) {', guard, fl.name))
        w(string.format("        validate_%s(v, &s->%s);", fl.type, fl.name))
        w("        bf_pop(c);")
        w("    }")
      end
    end
    if fl.kind == "switch" then
      local seen = {}
      for _, case in ipairs(fl.cases) do
        if case.type and not seen[case.type] and needs[case.type] then
          seen[case.type] = true
          w(string.format('    if (s->%s.kind == %s && bf_push(c, "%s", -1)) {', fl.name, names.kind_const(fmt, case.type), fl.name))
          w(string.format("        validate_%s(v, s->%s.%s);", case.type, fl.name, case.type))
          w("        bf_pop(c);")
          w("    }")
        end
      end
    end
  end
  w("}")
  return table.concat(o, "\n")
end

-- The named values, memoised for the validator: the validation context is the first member
-- of a structure that also keeps, per value, the last structure it was computed for and the
-- result. A value whose evaluation failed is not kept (the rule using it reports the failure).
-- Returns the structure's C type, or nil when the format has no values.
local function memo_functions(fmt, w)
  local list = {}
  for _, t in ipairs(fmt.types) do
    for _, v in ipairs(t.values) do list[#list + 1] = { t = t, v = v } end
  end
  if #list == 0 then return nil end
  local mt = fmt.name .. "_vmemo"
  w("/* The validation context, and the last result of each named value. */")
  w("typedef struct " .. mt .. " {")
  w("    bf_vctx v;")
  for i, it in ipairs(list) do
    local float = it.v.expr.vt == "float"
    w(string.format("    struct { const void *of; %s value; } m%d; /* %s.%s */", float and "double" or "int64_t", i, it.t.name, it.v.name))
  end
  w("} " .. mt .. ";")
  for i, it in ipairs(list) do
    local float = it.v.expr.vt == "float"
    local tc = ct(fmt, it.t.name)
    w()
    w(string.format("static inline %s %s(bf_ctx *c, const %s *s)", float and "double" or "int64_t",
      cexpr.memo_fn(fmt, it.t.name, it.v.name), tc))
    w("{")
    w(string.format("    %s *m = (%s *)(void *)((char *)c - offsetof(bf_vctx, c));", mt, mt))
    w(string.format("    if (m->m%d.of == s)", i))
    w(string.format("        return m->m%d.value;", i))
    w("    int failed = c->err->failed;")
    w(string.format("    %s x = %s(c, s);", float and "double" or "int64_t", cexpr.value_fn(fmt, it.t.name, it.v.name)))
    w("    if (!failed && !c->err->failed) {")
    w(string.format("        m->m%d.of = s;", i))
    w(string.format("        m->m%d.value = x;", i))
    w("    }")
    w("    return x;")
    w("}")
  end
  w()
  return mt
end

function V.source(fmt)
  local ix = names.index(fmt)
  local needs = needs_map(fmt, ix)
  local roots = {}
  for _, e in ipairs(fmt.entries) do roots[e.root] = true end
  local o = {}
  local function w(s) o[#o + 1] = s or "" end
  local has_values = false
  for _, t in ipairs(fmt.types) do has_values = has_values or #t.values > 0 end
  w("/* Generated by bfgen from " .. fmt.schema .. ". Do not edit: change the schema. */")
  w("#include \"" .. fmt.name .. ".h\"")
  w()
  if has_values then w("#include <stddef.h>") end
  w("#include <string.h>")
  w()
  w("#include \"bf_expr.h\"")
  w("#include \"bf_validate.h\"")
  w()
  for _, t in ipairs(fmt.types) do
    if needs[t.name] or roots[t.name] then
      w(string.format("static void validate_%s(bf_vctx *v, const %s *s);", t.name, ct(fmt, t.name)))
    end
  end
  w()
  w("#include \"" .. fmt.name .. "_access.h\"")
  w()
  local memo = memo_functions(fmt, w)
  local cache_slots = { n = 0 }
  local bodies = {}
  for _, t in ipairs(fmt.types) do
    if needs[t.name] or roots[t.name] then
      bodies[#bodies + 1] = V.function_for(fmt, ix, t, needs, cache_slots)
    end
  end
  local slots = math.max(cache_slots.n, 1)
  w("/* Quantifiers over the root alone, computed once per validation (set: computed). */")
  w("typedef struct rule_cache {")
  w(string.format("    uint8_t set[%d];", slots))
  w(string.format("    int64_t i[%d];", slots))
  w(string.format("    double f[%d];", slots))
  w("} rule_cache;")
  w()
  for _, b in ipairs(bodies) do
    w(b)
    w()
  end
  for _, e in ipairs(fmt.entries) do
    w(string.format("int %s_validate_%s(const %s *doc, const uint8_t *data, size_t size, struct bf_findings *out)",
      fmt.name, e.name, ct(fmt, e.root)))
    w("{")
    -- with named values, the context lives in the structure that memoises them
    local v = memo and "m.v" or "v"
    if memo then
      w(string.format("    %s m;", memo))
      w("    memset(&m, 0, sizeof m);")
    else
      w("    bf_vctx v;")
    end
    w("    rule_cache cache;")
    w("    size_t errors_before = out->errors;")
    w(string.format("    bf_vctx_init(&%s, doc, data, size, out);", v))
    w("    memset(cache.set, 0, sizeof cache.set);")
    w(string.format("    %s.cache = &cache;", v))
    if #fmt.revisions > 0 then w(string.format("    %s.c.revision = doc->_revision;", v)) end
    w(string.format("    validate_%s(&%s, doc);", e.root, v))
    w("    return out->errors == errors_before;")
    w("}")
    w()
  end
  return table.concat(o, "\n")
end

return V
