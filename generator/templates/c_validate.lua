-- <format>_validate.c: the validators. Every check of the schema (enum membership, flags,
-- `expect` values, type `rules`) is C that evaluates it; the runtime (bf_validate.h) reports
-- a failure with its severity, path, offset, message and origin. A rule is a bf_rule: its
-- message is written next to the code that checks it, named rule_LINE by its schema line.
local names = require("names")
local cexpr = require("cexpr")
local lines = require("c_lines")
local scan = require("scan")

local V = {}

local function ct(fmt, t) return names.ctype(fmt, t) end

local function field_pos(fl, owner)
  owner = owner or "s"
  if fl.offset then return string.format("%s->_offset + %d", owner, fl.offset) end
  return string.format("%s->%s_at", owner, fl.name)
end

local function count_of(fl) return fl.fixed_count and tostring(fl.fixed_count) or ("s->" .. fl.name .. "_count") end

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

-- `static const bf_rule NAME = {...};`, packed into lines `indent` deep; `rule_name` is the
-- rule's stable name (FORMAT.Type.name) that findings carry and `binform check --ignore` takes.
local function rule_decl(name, sev, field, message, origin, indent, rule_name)
  local items = { sev, names.cstring(field or "") }
  for _, it in ipairs(lines.string_items(nil, message, indent + 4)) do items[#items + 1] = it end
  for _, it in ipairs(lines.string_items(nil, origin, indent + 4)) do items[#items + 1] = it end
  if not origin then items[#items + 1] = "NULL" end
  items[#items + 1] = names.cstring(rule_name)
  local pad = string.rep(" ", indent)
  return lines.pack(items, pad .. "static const bf_rule " .. name .. " = {", indent + 4, "};")
end

-- The values of a message, as a bf_rule_value array (NULL when it has none).
local function value_array(values)
  if #values == 0 then return "NULL" end
  return "(const bf_rule_value[]){" .. table.concat(values, ", ") .. "}"
end

-- The C lines of one rule, given an environment for its expressions: the rule, the loops
-- its check needs, the check and, when it fails, the report.
local function rule_lines(fmt, ix, t, r, env, at_path, at_offset, name, rule_name)
  local L = {}
  local sev = r.severity == "warning" and "BF_SEVERITY_WARNING" or "BF_SEVERITY_ERROR"
  -- the check and the message share their quantifiers: each loop runs once
  local quantified = {}
  local pre = {}
  local e2 = setmetatable({ pre = pre, counter = env.counter, quantified = quantified }, { __index = env })
  local check = cexpr.cond(r.check, e2)
  local mpre = {}
  local e3 = setmetatable({ pre = mpre, counter = env.counter, quantified = quantified }, { __index = env })
  local fmt_parts, values = {}, {}
  for _, part in ipairs(r.parts) do
    if part.text then
      fmt_parts[#fmt_parts + 1] = escape_format(part.text)
    elseif part.value.vt == "float" then
      fmt_parts[#fmt_parts + 1] = "%g"
      values[#values + 1] = "{.f = " .. cexpr.cf(part.value, e3) .. "}"
    else
      fmt_parts[#fmt_parts + 1] = part.hex and "0x%x" or "%d"
      values[#values + 1] = "{.i = " .. cexpr.init_i64(part.value, e3) .. "}"
    end
  end
  local at_c = at_offset
  if r.at then
    at_c = cexpr.cond({ k = "call", name = "offset", args = { r.at }, vt = "int" }, e3)
  end
  local decl = rule_decl(name, sev, at_path, table.concat(fmt_parts), r.origin, 4, rule_name)
  for _, l in ipairs(pre) do L[#L + 1] = l end
  local report = string.format("bf_rule_report(v, &%s, %s, %s);", name, at_c, value_array(values))
  if #mpre > 0 then
    L[#L + 1] = string.format("if (bf_rule_fails(v, &%s, %s)) {", name, check)
    for _, l in ipairs(mpre) do L[#L + 1] = "    " .. l end
    L[#L + 1] = "    " .. report
    L[#L + 1] = "}"
  else
    L[#L + 1] = string.format("if (bf_rule_fails(v, &%s, %s))", name, check)
    L[#L + 1] = "    " .. report
  end
  return decl, L
end

-- The path a rule's `at` names, relative to where the finding is reported.
local function at_path(r)
  if not r.at then return "" end
  return (r.at.text:gsub("^_it%.", ""):gsub("^_it$", ""))
end

-- The stable names of a type's rules, in schema order: FORMAT.Type.NAME, NAME the rule's `name`,
-- else the field its `at` names, else its `each` array, else "rule"; a name taken before in the
-- type gets _2, _3, ... (give `name:` to keep a rule's name whatever is added before it).
local function rule_names(fmt, t)
  local out, seen = {}, {}
  for i, r in ipairs(t.rules) do
    local base = r.name
    if not base then
      base = at_path(r):gsub("%[[^%]]*%]", ""):gsub("[^%w_.]", "_"):gsub("^[._]+", ""):gsub("[._]+$", "")
      if base == "" then base = r.each or "rule" end
    end
    seen[base] = (seen[base] or 0) + 1
    out[i] = string.format("%s.%s.%s", fmt.name, t.name, seen[base] > 1 and (base .. "_" .. seen[base]) or base)
  end
  return out
end

-- The enum and flags checks of a format, one table each, shared by every field that uses it.
local function check_tables(fmt, ix, w, used)
  for _, e in ipairs(fmt.enums) do
    if not used[e.name] then -- no field checks it: nothing to write
    elseif not e.flags and not e.open then
      local vals = {}
      for _, v in ipairs(e.values) do
        local small = v.value >= -2147483647 and v.value <= 2147483647
        vals[#vals + 1] = small and string.format("%d", v.value) or names.i64(v.value)
      end
      for _, l in ipairs(lines.pack(vals, string.format("static const int64_t enum_%s_values[] = {", e.name), 4, "};")) do w(l) end
      w(string.format("static const bf_enum_check enum_%s = {%s, %s, enum_%s_values, %d, %s};", e.name,
        names.cstring(e.name), names.cstring(e.name .. ": the values the document lists"), e.name, #e.values,
        names.cstring(fmt.name .. "." .. e.name .. ".enum")))
    elseif e.flags then
      local mask = 0
      for _, v in ipairs(e.values) do mask = mask | (1 << v.value) end
      w(string.format("static const bf_flags_check flags_%s = {%s, %s, UINT64_C(0x%X), %s};", e.name,
        names.cstring(e.name), names.cstring(e.name .. ": the bits the document lists"), mask,
        names.cstring(fmt.name .. "." .. e.name .. ".flags")))
    end
  end
  w()
end

local function field_checks(fmt, ix, t, fl, w)
  local name = fl.name
  local guard = fl.cond and ("if (s->has_" .. name .. ") ") or ""
  -- calls body(value_c, pos_c, field_c, pad) for every element of the field (an element is
  -- reported as name[i]), `pad` starting the line of its statement
  local function each_value(indent, body)
    local pad = string.rep(" ", indent)
    if fl.array then
      w(string.format("%s%sfor (uint32_t i = 0; i < %s; i++) {", pad, guard, count_of(fl)))
      w(string.format('%s    if (bf_push(c, "%s", i)) {', pad, name))
      body(string.format("s->%s[i]", name), string.format("%s + (uint64_t)i * %d", field_pos(fl), fl.prim_size), "NULL",
        pad .. "        ")
      w(pad .. "        bf_pop(c);")
      w(pad .. "    }")
      w(pad .. "}")
    else
      body("s->" .. name, field_pos(fl), '"' .. name .. '"', pad .. guard)
    end
  end
  local e = fl.enum and ix.enums[fl.enum]
  if e and not e.open then
    each_value(4, function(value, pos, field_c, pad)
      w(string.format("%sbf_check_enum(v, &enum_%s, %s, %s, %s);", pad, e.name, value, pos, field_c))
    end)
  end
  if fl.flags then
    each_value(4, function(value, pos, field_c, pad)
      w(string.format("%sbf_check_flags(v, &flags_%s, %s, %s, %s);", pad, fl.flags, value, pos, field_c))
    end)
  end
  if fl.expect then
    local env = { fmt = fmt, ix = ix, self = "s", root = "R", pre = {}, counter = { n = 0 }, memo = true }
    local want = cexpr.c(fl.expect, env)
    local sev = fl.expect_warning and "BF_SEVERITY_WARNING" or "BF_SEVERITY_ERROR"
    local message = "expected " .. escape_format(fl.expect.text) .. ", found %d (0x%x)"
    w("    {")
    local rule_name = string.format("%s.%s.%s.expect", fmt.name, t.name, name)
    for _, l in ipairs(rule_decl("rule", sev, fl.array and "" or name, message, fl.expect_origin, 8, rule_name)) do w(l) end
    each_value(8, function(value, pos, field_c, pad)
      w(string.format("%sif ((int64_t)%s != %s)", pad, value, want))
      w(string.format("%s    bf_rule_add(v, &rule, %s, (const bf_rule_value[]){{.i = %s}, {.i = %s}});", pad:match("^ *"), pos,
        value, value))
    end)
    w("    }")
  end
end

-- The C text without its string literals, to see which names it uses: a literal runs to
-- the next quote not escaped (one pass in C, template_lib.c).
local function code_only(text) return scan.unquoted(text, true) end

-- Whether C text uses a name (not a member of that name, after `.` or `->`).
local function uses(code, name) return scan.uses(code, name, ".") end

function V.function_for(fmt, ix, t, needs, cache_slots)
  local o = {}
  local function w(s) o[#o + 1] = s end
  for _, fl in ipairs(t.fields) do field_checks(fmt, ix, t, fl, w) end
  local counter = { n = 0 }
  local taken = {}
  local stable = rule_names(fmt, t)
  for ri, r in ipairs(t.rules) do
    local env = { fmt = fmt, ix = ix, self = "s", root = "R", counter = counter, memo = true, cache = "VC",
                  cache_slots = cache_slots }
    -- named by its schema line
    local name = "rule_" .. r.line
    while taken[name] do name = name .. "b" end
    taken[name] = true
    if r.each then
      local fl
      for _, f in ipairs(t.fields) do if f.name == r.each then fl = f end end
      local pos, decls = nil, {}
      if fl.kind == "struct" then
        local tc = ct(fmt, fl.type)
        decls.it = string.format("const %s *it = &s->%s[i];", tc, fl.name)
        decls.prev = string.format("const %s *prev = i ? &s->%s[i - 1] : &%s_zero;", tc, fl.name, tc)
        env.it, env.prev = "it", "prev"
        pos = "it->_offset"
      else
        env.it = string.format("s->%s[i]", fl.name)
        env.prev = string.format("(i ? s->%s[i - 1] : 0)", fl.name)
        pos = string.format("%s + (uint64_t)i * %d", field_pos(fl), fl.elem_size or 0)
      end
      env.index = "(int64_t)i"
      env.elem_field = fl
      local decl, body = rule_lines(fmt, ix, t, r, env, at_path(r), pos, name, stable[ri])
      for _, l in ipairs(decl) do w(l) end
      local code = code_only(table.concat(body, "\n"))
      w(string.format("    for (uint32_t i = 0; i < %s; i++) {", count_of(fl)))
      if decls.it and (uses(code, "it") or uses(code, "prev")) then w("        " .. decls.it) end
      if decls.prev and uses(code, "prev") then w("        " .. decls.prev) end
      w(string.format('        if (bf_push(c, "%s", i)) {', fl.name))
      for _, l in ipairs(body) do w("            " .. l) end
      w("            bf_pop(c);")
      w("        }")
      w("    }")
    else
      local decl, body = rule_lines(fmt, ix, t, r, env, at_path(r), "s->_offset", name, stable[ri])
      for _, l in ipairs(decl) do w(l) end
      for _, l in ipairs(body) do w("    " .. l) end
    end
  end
  for _, fl in ipairs(t.fields) do
    local guard = fl.cond and ("if (s->has_" .. fl.name .. ") ") or ""
    if fl.kind == "struct" and needs[fl.type] then
      if fl.array then
        w(string.format("    %sfor (uint32_t i = 0; i < %s; i++) {", guard, count_of(fl)))
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
  -- only the names the body uses
  local code = code_only(table.concat(o, "\n"))
  local head = { string.format("static void validate_%s(bf_vctx *v, const %s *s)", t.name, ct(fmt, t.name)), "{" }
  if uses(code, "c") or uses(code, "R") then head[#head + 1] = "    bf_ctx *c = &v->c;" end
  if uses(code, "R") then head[#head + 1] = "    const " .. ct(fmt, ix.root.name) .. " *R = c->root;" end
  if uses(code, "VC") then head[#head + 1] = "    rule_cache *VC = v->cache;" end
  if not uses(code, "s") then head[#head + 1] = "    (void)s;" end
  if not uses(code, "v") then head[#head + 1] = "    (void)v;" end
  table.move(o, 1, #o, #head + 1, o) -- (moved once, not shifted once per line)
  table.move(head, 1, #head, 1, o)
  w("}")
  return table.concat(o, "\n")
end

-- The named values, memoised for the validator: the validation context is the first member
-- of a structure that also keeps, per value, the last structure it was computed for and the
-- result (bf_memo). A value whose evaluation failed is not kept (the rule using it reports
-- the failure). Returns the structure's C type, or nil when the format has no values.
local function memo_functions(fmt, w)
  local list = {}
  for _, t in ipairs(fmt.types) do
    for _, v in ipairs(t.values) do list[#list + 1] = { t = t, v = v } end
  end
  if #list == 0 then return nil end
  local mt = fmt.name .. "_vmemo"
  w("/* The validation context, and the last result of each named value. */")
  w(string.format("typedef struct %s {", mt))
  w("    bf_vctx v;")
  w(string.format("    bf_memo m[%d];", #list))
  w(string.format("} %s;", mt))
  w()
  w(string.format("static inline bf_memo *memo(bf_ctx *c, int slot)"))
  w("{")
  w(string.format("    return &((%s *)(void *)((char *)c - offsetof(bf_vctx, c)))->m[slot];", mt))
  w("}")
  for i, it in ipairs(list) do
    local float = it.v.expr.vt == "float"
    w()
    w(string.format("static inline %s %s(bf_ctx *c, const %s *s)", float and "double" or "int64_t",
      cexpr.memo_fn(fmt, it.t.name, it.v.name), ct(fmt, it.t.name)))
    w("{")
    w(string.format("    bf_memo *m = memo(c, %d);", i - 1))
    local call = string.format("%s(c, s)", cexpr.value_fn(fmt, it.t.name, it.v.name))
    local line = string.format("    return m->of == s ? m->%s : bf_memo_keep_%s(c, m, s, %s);", float and "f" or "i",
      float and "f" or "i", call)
    w(line)
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
  -- the tables of the enums and flags some validated field checks (an unused static const
  -- is a warning, and -Werror makes it an error)
  local used_checks = {}
  for _, t in ipairs(fmt.types) do
    for _, fl in ipairs(t.fields) do
      if needs[t.name] or roots[t.name] then
        if fl.enum and not ix.enums[fl.enum].open then used_checks[fl.enum] = true end
        if fl.flags then used_checks[fl.flags] = true end
      end
    end
  end
  if next(used_checks) then check_tables(fmt, ix, w, used_checks) end
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
