-- <format>_validate.c: the validators. Every check of the schema (enum membership, flags,
-- `expect` values, type `rules`) is C that evaluates it; the runtime (bf_validate.h) reports
-- a failure with its severity, path, offset, message and origin. A rule is a bf_rule: its
-- message is written next to the code that checks it, named rule_LINE by its schema line.
--
-- Where a format has views, the validators read the input through them (no allocation, no
-- document): `validate_T` takes a view, the rules' expressions use the views' places
-- (c_view.lua), and `<format>_validate_<entry>` opens a view of the bytes the document was read
-- from. A format without views, or whose rules reach what views cannot, validates the full
-- reader's document (the same rules over its structs).
local names = require("names")
local cexpr = require("cexpr")
local lines = require("c_lines")
local scan = require("scan")
local c_view = require("c_view")

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

-- ---- the two ways of reaching fields: the reader's structs, or views of the input --------
--
-- A mode says how a validator reaches what it checks: the C type of a structure, a number
-- field's value, the environment of expressions, and how elements and sub-structures are
-- visited.

-- The reader's structs (formats without views).
local function struct_mode(fmt, ix)
  local m = { ix = ix }
  function m.self_type(tname) return ct(fmt, tname) end
  function m.value(fl, i) return i and string.format("s->%s[%s]", fl.name, i) or ("s->" .. fl.name) end
  function m.env(extra)
    local env = { fmt = fmt, ix = ix, self = "s", root = "R" }
    for k, v in pairs(extra) do env[k] = v end
    return env
  end
  -- an `each` over a struct array: declarations before the loop, of `it` and of `prev`
  function m.each_struct(fl, env)
    local tc = ct(fmt, fl.type)
    env.it, env.prev = "it", "prev"
    return { it = string.format("const %s *it = &s->%s[i];", tc, fl.name),
      prev = string.format("const %s *prev = i ? &s->%s[i - 1] : &%s_zero;", tc, fl.name, tc), pos = "it->_offset" }
  end
  -- the C lines validating sub-structure field `fl` (element i when an array), `pad` deep
  function m.visit_struct(fl, w, guard)
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
  function m.visit_case(fl, case, w)
    w(string.format('    if (s->%s.kind == %s && bf_push(c, "%s", -1)) {', fl.name, names.kind_const(fmt, case.type), fl.name))
    w(string.format("        validate_%s(v, s->%s.%s);", case.type, fl.name, case.type))
    w("        bf_pop(c);")
    w("    }")
  end
  return m
end

-- Views: c_validate_views.lua.
local view_mode = require("c_validate_views")(field_pos, count_of)

local function field_checks(fmt, ix, t, fl, w, mode)
  local name = fl.name
  local guard = fl.cond and ("if (s->has_" .. name .. ") ") or ""
  -- calls body(value_c, pos_c, field_c, pad) for every element of the field (an element is
  -- reported as name[i]), `pad` starting the line of its statement
  local function each_value(indent, body)
    local pad = string.rep(" ", indent)
    if fl.array then
      w(string.format("%s%sfor (uint32_t i = 0; i < %s; i++) {", pad, guard, count_of(fl)))
      w(string.format('%s    if (bf_push(c, "%s", i)) {', pad, name))
      body(mode.value(fl, "i"), string.format("%s + (uint64_t)i * %d", field_pos(fl), fl.prim_size), "NULL",
        pad .. "        ")
      w(pad .. "        bf_pop(c);")
      w(pad .. "    }")
      w(pad .. "}")
    else
      body(mode.value(fl), field_pos(fl), '"' .. name .. '"', pad .. guard)
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
    local env = mode.env({ pre = {}, counter = { n = 0 }, memo = true })
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

function V.function_for(fmt, ix, t, needs, cache_slots, mode)
  mode = mode or struct_mode(fmt, ix)
  mode.owner = t.name
  ix = mode.ix
  local o = {}
  local function w(s) o[#o + 1] = s end
  for _, fl in ipairs(t.fields) do field_checks(fmt, ix, t, fl, w, mode) end
  local counter = { n = 0 }
  local taken = {}
  local stable = rule_names(fmt, t)
  for ri, r in ipairs(t.rules) do
    local env = mode.env({ counter = counter, memo = true, cache = "VC", cache_slots = cache_slots })
    -- named by its schema line
    local name = "rule_" .. r.line
    while taken[name] do name = name .. "b" end
    taken[name] = true
    if r.each then
      local fl
      for _, f in ipairs(t.fields) do if f.name == r.each then fl = f end end
      local pos, decls = nil, {}
      if fl.kind == "struct" then
        decls = mode.each_struct(fl, env, r)
        pos = decls.pos
      else
        env.it = mode.value(fl, "i")
        env.prev = string.format("(i ? %s : 0)", mode.value(fl, "i - 1"))
        pos = string.format("%s + (uint64_t)i * %d", field_pos(fl), fl.elem_size or 0)
      end
      env.index = "(int64_t)i"
      env.elem_field = fl
      local decl, body = rule_lines(fmt, ix, t, r, env, at_path(r), pos, name, stable[ri])
      for _, l in ipairs(decl) do w(l) end
      local code = code_only(table.concat(body, "\n"))
      local uses_it = uses(code, "it") or uses(code, "prev") or uses(code, "ev") or uses(code, "pv")
      local uses_prev = uses(code, "prev") or uses(code, "pv")
      if decls.outer and uses_it then
        w("    {")
        w("    " .. decls.outer)
        if uses_prev then w("    " .. decls.outer_prev) end
      end
      w(string.format("    for (uint32_t i = 0; i < %s; i++) {", count_of(fl)))
      if decls.prev_keep and uses_prev then w("        " .. decls.prev_keep) end
      if decls.it and uses_it then w("        " .. decls.it) end
      if decls.prev and uses(code, "prev") then w("        " .. decls.prev) end
      w(string.format('        if (bf_push(c, "%s", i)) {', fl.name))
      for _, l in ipairs(body) do w("            " .. l) end
      w("            bf_pop(c);")
      w("        }")
      w("    }")
      if decls.outer and uses_it then w("    }") end
    else
      local decl, body = rule_lines(fmt, ix, t, r, env, at_path(r), "s->_offset", name, stable[ri])
      for _, l in ipairs(decl) do w(l) end
      for _, l in ipairs(body) do w("    " .. l) end
    end
  end
  for _, fl in ipairs(t.fields) do
    local guard = fl.cond and ("if (s->has_" .. fl.name .. ") ") or ""
    if fl.kind == "struct" and needs[fl.type] then mode.visit_struct(fl, w, guard) end
    if fl.kind == "switch" then
      local seen = {}
      for _, case in ipairs(fl.cases) do
        if case.type and not seen[case.type] and needs[case.type] then
          seen[case.type] = true
          mode.visit_case(fl, case, w)
        end
      end
    end
  end
  -- only the names the body uses
  local code = code_only(table.concat(o, "\n"))
  local head = { string.format("static void validate_%s(bf_vctx *v, const %s *s)", t.name, mode.self_type(t.name)), "{" }
  if uses(code, "c") or uses(code, "R") or uses(code, "base") then head[#head + 1] = "    bf_ctx *c = &v->c;" end
  if uses(code, "base") then head[#head + 1] = "    const uint8_t *base = c->data + s->_offset;" end
  if uses(code, "R") then head[#head + 1] = "    const " .. mode.self_type(ix.root.name) .. " *R = c->root;" end
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
local function memo_head(fmt, w, n)
  local mt = fmt.name .. "_vmemo"
  w("/* The validation context, and the last result of each named value. */")
  w(string.format("typedef struct %s {", mt))
  w("    bf_vctx v;")
  w(string.format("    bf_memo m[%d];", n))
  w(string.format("} %s;", mt))
  w()
  w(string.format("static inline bf_memo *memo(bf_ctx *c, int slot)"))
  w("{")
  w(string.format("    return &((%s *)(void *)((char *)c - offsetof(bf_vctx, c)))->m[slot];", mt))
  w("}")
  return mt
end

local function memo_functions(fmt, w)
  local list = {}
  for _, t in ipairs(fmt.types) do
    for _, v in ipairs(t.values) do list[#list + 1] = { t = t, v = v } end
  end
  if #list == 0 then return nil end
  local mt = memo_head(fmt, w, #list)
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

-- The same over views, for the values the rules use (mode.memos): a structure of a fixed size
-- is known by its address in the input, a view by where it starts and its index.
local function view_memo_functions(fmt, mode, protos, w)
  if #mode.memos == 0 then return nil end
  local mt = memo_head(fmt, w, #mode.memos)
  for i, u in ipairs(mode.memos) do
    local fi = u.float and "f" or "i"
    local fn = c_view.value_fn(fmt, u.owner, u.name, u.flat)
    local memo = fn:gsub(u.flat and "_fv_([%w_]+)$" or "_v_([%w_]+)$", u.flat and "_fm_%1" or "_m_%1")
    w()
    w(string.format("static inline %s %s(bf_ctx *c, const %s *s)", u.float and "double" or "int64_t", memo,
      u.flat and "uint8_t" or c_view.view_type(fmt, u.owner)))
    w("{")
    w(string.format("    bf_memo *m = memo(c, %d);", i - 1))
    if u.flat then
      w(string.format("    return m->of == s ? m->%s : bf_memo_keep_%s(c, m, s, %s(c, s));", fi, fi, fn))
    else
      w(string.format("    if (bf_memo_at(m, s->_offset, s->_index))"))
      w(string.format("        return m->%s;", fi))
      w(string.format("    return bf_memo_keep_at_%s(c, m, s->_offset, s->_index, %s(c, s));", fi, fn))
    end
    w("}")
  end
  w()
  return mt
end

-- The enum and flags tables the validated types use, and whether the format has named values.
local function tables(fmt, ix, needs, roots, w)
  local used_checks = {}
  for _, t in ipairs(fmt.types) do
    for _, fl in ipairs(t.fields) do
      if needs[t.name] or roots[t.name] then
        if fl.enum and not ix.enums[fl.enum].open then used_checks[fl.enum] = true end
        if fl.flags then used_checks[fl.flags] = true end
      end
    end
  end
  -- (an unused static const is a warning, and -Werror makes it an error)
  if next(used_checks) then check_tables(fmt, ix, w, used_checks) end
end

local function rule_cache_decl(w, cache_slots)
  local slots = math.max(cache_slots.n, 1)
  w("/* Quantifiers over the root alone, computed once per validation (set: computed). */")
  w("typedef struct rule_cache {")
  w(string.format("    uint8_t set[%d];", slots))
  w(string.format("    int64_t i[%d];", slots))
  w(string.format("    double f[%d];", slots))
  w("} rule_cache;")
  w()
end

-- The validator over the reader's structs.
local function struct_source(fmt, ix, needs, roots, why)
  local o = {}
  local function w(s) o[#o + 1] = s or "" end
  local has_values = false
  for _, t in ipairs(fmt.types) do has_values = has_values or #t.values > 0 end
  w("/* Generated by bfgen from " .. fmt.schema .. ". Do not edit: change the schema. */")
  if why then w("/* The rules over the full reader's structs, not over views yet: " .. names.comment(why) .. ". */") end
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
  tables(fmt, ix, needs, roots, w)
  local memo = memo_functions(fmt, w)
  local cache_slots = { n = 0 }
  local mode = struct_mode(fmt, ix)
  local bodies = {}
  for _, t in ipairs(fmt.types) do
    if needs[t.name] or roots[t.name] then
      bodies[#bodies + 1] = V.function_for(fmt, ix, t, needs, cache_slots, mode)
    end
  end
  rule_cache_decl(w, cache_slots)
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

-- The validator over views; errors with {views_unsupported = why} when a rule reaches what
-- views cannot.
local function view_source(fmt, needs, roots)
  local mode = view_mode(fmt)
  local ix = mode.ix
  local cache_slots = { n = 0 }
  local bodies = {}
  for _, t in ipairs(fmt.types) do
    if needs[t.name] or roots[t.name] then
      bodies[#bodies + 1] = V.function_for(fmt, ix, t, needs, cache_slots, mode)
    end
  end
  local values = {}
  local protos = c_view.value_functions(fmt, ix, values, mode.places)
  local o = {}
  local function w(s) o[#o + 1] = s or "" end
  w("/* Generated by bfgen from " .. fmt.schema .. ". Do not edit: change the schema. */")
  w("/* The schema's rules over views of the input (" .. fmt.name .. "_view.h): nothing is allocated. */")
  w("#include \"" .. fmt.name .. "_view.h\"")
  w()
  if #mode.memos > 0 then w("#include <stddef.h>") end
  w("#include <string.h>")
  w()
  w("#include \"bf_expr.h\"")
  w("#include \"bf_validate.h\"")
  w()
  for _, t in ipairs(fmt.types) do
    if needs[t.name] or roots[t.name] then
      w(string.format("static void validate_%s(bf_vctx *v, const %s *s);", t.name, mode.self_type(t.name)))
    end
  end
  for _, p in ipairs(protos) do w(p) end
  w()
  tables(fmt, ix, needs, roots, w)
  local memo = view_memo_functions(fmt, mode, protos, w)
  for _, z in ipairs(mode.zeros) do
    -- over zeros: a view of zeros in a context over bf_view_zeros (failures still reported)
    local V = c_view.view_type(fmt, z.owner)
    w(string.format("static %s %s_z_%s(bf_ctx *c)", z.float and "double" or "int64_t", V, z.name))
    w("{")
    w("    bf_ctx zc = *c;")
    w("    zc.data = bf_view_zeros;")
    w("    zc.size = zc.end = BF_VIEW_ZEROS;")
    w("    zc.pos = 0;")
    w(string.format("    %s zv;", V))
    w("    memset(&zv, 0, sizeof zv);")
    w(string.format("    return %s(&zc, &zv);", c_view.value_fn(fmt, z.owner, z.name, false)))
    w("}")
    w()
  end
  rule_cache_decl(w, cache_slots)
  for _, b in ipairs(bodies) do
    w(b)
    w()
  end
  for _, l in ipairs(values) do w(l) end
  local nrev = #fmt.revisions
  for _, e in ipairs(fmt.entries) do
    local EV = string.format("%s_%s_view", fmt.name, e.name)
    w(string.format("int %s_view_validate_%s(const %s *mv, struct bf_findings *out)", fmt.name, e.name, EV))
    w("{")
    -- with named values, the context lives in the structure that memoises them (only the
    -- memos cleared: bf_vctx_init sets what the context needs)
    local v = memo and "m.v" or "v"
    if memo then
      w(string.format("    %s m;", memo))
      w("    memset(m.m, 0, sizeof m.m);")
    else
      w("    bf_vctx v;")
    end
    w("    rule_cache cache;")
    w("    size_t errors_before = out->errors;")
    w(string.format("    bf_vctx_init(&%s, &mv->root, mv->doc.data, mv->doc.size, out);", v))
    w("    memset(cache.set, 0, sizeof cache.set);")
    w(string.format("    %s.cache = &cache;", v))
    if nrev > 0 then w(string.format("    %s.c.revision = mv->doc.revision;", v)) end
    w(string.format("    validate_%s(&%s, &mv->root);", e.root, v))
    w("    return out->errors == errors_before;")
    w("}")
    w()
    local rt = ix.types[e.root]
    if nrev > 0 then
      -- the view of the revision the document was read as (which need not be the first that reads)
      w(c_view.lay_sig(fmt, rt) .. ";")
      if rt.needs_link then
        w(string.format("int %s_view_link_%s(bf_ctx *c, const %s *v);", fmt.name, e.root, c_view.view_type(fmt, e.root)))
      end
      w()
      w(string.format("static int open_%s(const uint8_t *data, size_t size, int64_t revision, %s *out, bf_error *err)",
        e.name, EV))
      w("{")
      w("    bf_ctx c;")
      w("    out->doc = (bf_view_doc){data, size, &out->root, revision};")
      w("    bf_view_ctx(&c, &out->doc, err);")
      local link = rt.needs_link and string.format(" && %s_view_link_%s(&c, &out->root)", fmt.name, e.root) or ""
      w(string.format("    return %s_view_lay_%s(&c, &out->doc, &out->root, 0, 1)%s;", fmt.name, e.root, link))
      w("}")
      w()
    end
    w(string.format("int %s_validate_%s(const %s *doc, const uint8_t *data, size_t size, struct bf_findings *out)",
      fmt.name, e.name, ct(fmt, e.root)))
    w("{")
    w(string.format("    %s mv;", EV))
    w("    bf_error err;")
    if nrev > 0 then
      w(string.format("    if (!open_%s(data, size, doc->_revision, &mv, &err)) {", e.name))
    else
      w("    (void)doc;")
      w(string.format("    if (!%s_view_open_%s(data, size, &mv, &err)) {", fmt.name, e.name))
    end
    w("        /* (not the bytes the document was read from) */")
    w("        bf_findings_add(out, BF_SEVERITY_ERROR, err.offset, err.path, err.message, NULL);")
    w("        return 0;")
    w("    }")
    w(string.format("    return %s_view_validate_%s(&mv, out);", fmt.name, e.name))
    w("}")
    w()
  end
  return table.concat(o, "\n")
end

-- <format>_validate.c, and whether it validates views (then the views declare its entries).
-- `has_views`: the format has views.
function V.source(fmt, has_views)
  local ix = names.index(fmt)
  local needs = needs_map(fmt, ix)
  local roots = {}
  for _, e in ipairs(fmt.entries) do roots[e.root] = true end
  local why -- (why the rules cannot run on views)
  if has_views then
    local ok, src = pcall(view_source, fmt, needs, roots)
    if ok then return src, true end
    if not (type(src) == "table" and src.views_unsupported) then error(src, 0) end
    why = src.views_unsupported
  end
  return struct_source(fmt, ix, needs, roots, why), false
end

-- The view header `h` with the validators over views declared (before its closing lines).
function V.declare_in_view_header(fmt, h)
  local d = {}
  for _, e in ipairs(fmt.entries) do
    d[#d + 1] = string.format("/* Every rule of the schema over an open %s view (%s_validate.c): adds each finding to", e.name, fmt.name)
    d[#d + 1] = " * `out` (bf_validate.h); 1 when none is an error. Nothing is allocated but the findings. */"
    d[#d + 1] = string.format("int %s_view_validate_%s(const %s_%s_view *v, struct bf_findings *out);", fmt.name, e.name, fmt.name,
      e.name)
  end
  local tail = "#ifdef __cplusplus\n}\n#endif\n\n#endif\n"
  assert(h:sub(-#tail) == tail, "the view header's end")
  return h:sub(1, #h - #tail) .. table.concat(d, "\n") .. "\n\n" .. tail
end

return V
