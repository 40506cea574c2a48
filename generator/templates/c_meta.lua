-- <format>_meta.c: reflection tables (types, fields, enums, entries) for format-blind tools.
local names = require("names")
local lines = require("c_lines")
local cexpr = require("cexpr")

-- bf_meta.h names each primitive type BF_<NAME>
local prim_enum = {}
for name in pairs(names.prims) do prim_enum[name] = "BF_" .. name:upper() end
local kind_enum = { prim = "BF_FIELD_PRIM", struct = "BF_FIELD_STRUCT", bytes = "BF_FIELD_BYTES",
  str = "BF_FIELD_STR", cstr = "BF_FIELD_STR", switch = "BF_FIELD_SWITCH" }

local function q(s) return s and names.cstring(s) or "NULL" end

-- The file-set members of a file kind: strings only, walked by the CLI through the meta tables.
local function emit_members(w, p, e)
  if #e.members == 0 then return end
  local function strings(name, list)
    if #list == 0 then return "NULL" end
    local qs = {}
    for _, s in ipairs(list) do qs[#qs + 1] = q(s) end
    w(string.format("static const char *const %s[] = {%s};", name, table.concat(qs, ", ")))
    return name
  end
  for i, m in ipairs(e.members) do
    local rows = {}
    for j, c in ipairs(m.checks) do
      local suffix = string.format("%s_%d_%d", e.name, i, j)
      local below = strings(p .. "member_below_" .. suffix, c.below)
      local among = strings(p .. "member_among_" .. suffix, c.among)
      local equals = strings(p .. "member_equals_" .. suffix, c.equals)
      local items = { ".values = " .. q(c.values) }
      if c.counts then items[#items + 1] = ".counts = 1" end
      if #c.below > 0 then items[#items + 1] = string.format(".below = %s, .below_count = %d", below, #c.below) end
      if #c.equals > 0 then items[#items + 1] = string.format(".equals = %s, .equals_count = %d", equals, #c.equals) end
      if #c.among > 0 then items[#items + 1] = string.format(".among = %s, .among_count = %d", among, #c.among) end
      if c.ignore_case then items[#items + 1] = ".ignore_case = 1" end
      if c.severity == "warning" then items[#items + 1] = ".warning = 1" end
      for _, it in ipairs(lines.string_items(".origin", c.origin, 5)) do items[#items + 1] = it end
      rows[#rows + 1] = items
    end
    if #m.checks > 0 then
      w(string.format("static const bf_member_check_desc %smember_checks_%s_%d[] = {", p, e.name, i))
      for _, items in ipairs(rows) do
        for _, l in ipairs(lines.pack(items, "    {", 5, "},")) do w(l) end
      end
      w("};")
    end
    local files = {}
    for _, f in ipairs(m.files) do files[#files + 1] = q(f) end
    files[#files + 1] = "NULL"
    w(string.format("static const char *const %smember_files_%s_%d[] = {%s};", p, e.name, i, table.concat(files, ", ")))
  end
  w(string.format("static const bf_member_desc %smembers_%s[] = {", p, e.name))
  for i, m in ipairs(e.members) do
    local items = { ".name = " .. q(m.name), ".kind = " .. q(m.kind) }
    if m.each then items[#items + 1] = ".each = " .. q(m.each) end
    if m.each_type then items[#items + 1] = ".each_type = " .. q(m.each_type) end
    if m.orphans then items[#items + 1] = ".orphans = " .. q(m.orphans) end
    items[#items + 1] = string.format(".files = %smember_files_%s_%d", p, e.name, i)
    if #m.checks > 0 then
      items[#items + 1] = string.format(".checks = %smember_checks_%s_%d, .check_count = %d", p, e.name, i, #m.checks)
    end
    for _, it in ipairs(lines.string_items(".doc", m.doc, 5)) do items[#items + 1] = it end
    for _, l in ipairs(lines.pack(items, "    {", 5, "},")) do w(l) end
  end
  w("};")
end

-- One field's descriptor: only the members that differ from their defaults (0, NULL,
-- BF_SCALAR; an offset of 0 means "no such member"), packed into lines.
local function field_lines(fmt, p, t, ct, fl)
  local function off(member) return string.format("offsetof(%s, %s)", ct, member) end
  local array = fl.fixed_count and "BF_ARRAY_FIXED" or ((fl.array and fl.kind ~= "bytes") and "BF_ARRAY" or "BF_SCALAR")
  local items = { ".name = " .. q(fl.name), ".kind = " .. kind_enum[fl.kind] }
  local function add(s) items[#items + 1] = s end
  if fl.kind == "prim" then add(".prim = " .. prim_enum[fl.prim]) end
  if fl.endian == "le" then add(".little_endian = 1") end
  if array ~= "BF_SCALAR" then add(".array = " .. array) end
  if fl.fixed_count then add(".fixed_count = " .. fl.fixed_count) end
  if fl.type then add(".type = &" .. p .. "type_" .. fl.type) end
  local en = fl.enum or fl.flags
  if en then add(".enumdef = &" .. p .. "enum_" .. en) end
  if fl.offset then add(".static_offset = " .. fl.offset) end
  add(".elem_size = " .. (fl.elem_size or -1))
  local roles = {}
  if fl.used_as_count then roles[#roles + 1] = "BF_ROLE_COUNT" end
  if fl.used_as_offset then roles[#roles + 1] = "BF_ROLE_OFFSET" end
  if fl.used_as_index then roles[#roles + 1] = "BF_ROLE_INDEX" end
  if #roles > 0 then add(".roles = " .. table.concat(roles, " | ")) end
  add(".offset = " .. off(fl.kind == "switch" and (fl.name .. ".kind") or fl.name))
  if array == "BF_ARRAY" then add(".count_offset = " .. off(fl.name .. "_count")) end
  if fl.cond then add(".has_offset = " .. off("has_" .. fl.name)) end
  if not fl.offset then add(".at_offset = " .. off(fl.name .. "_at")) end
  if fl.derive or fl.fixed_frac then add(".value_offset = " .. off(fl.name .. "_value")) end
  if fl.string_table then add(".str_offset = " .. off(fl.name .. "_str")) end
  if fl.size then add(".tail_offset = " .. off(fl.name .. "_tail")) end
  if fl.align and not fl.pos then add(".pad_offset = " .. off(fl.name .. "_pad")) end
  if #fl.bits > 0 then add(string.format(".bits = %sbits_%s_%s, .bit_count = %d", p, t.name, fl.name, #fl.bits)) end
  if fl.kind == "switch" then
    add(string.format(".cases = %scases_%s_%s, .case_count = %d", p, t.name, fl.name, #fl.cases))
    add(".switch_raw_offset = " .. off(fl.name .. ".raw"))
  end
  for _, it in ipairs(lines.string_items(".doc", fl.doc, 5)) do add(it) end
  for _, it in ipairs(lines.string_items(".erratum", fl.erratum, 5)) do add(it) end
  return lines.pack(items, "    {", 5, "},")
end

-- A type's `image:`: the names of the fields and values that make its objects images, for
-- `binform textures` to look up through these tables.
local function image_table(p, t, w)
  local im = t.image
  if im.codec_cases and #im.codec_cases > 0 then
    local parts = {}
    for _, c in ipairs(im.codec_cases) do parts[#parts + 1] = q(c) end
    parts[#parts + 1] = "NULL"
    w(string.format("static const char *const %simage_%s_cases[] = {%s};", p, t.name, table.concat(parts, ", ")))
  end
  local items = {}
  for _, role in ipairs({ "codec", "codec_by", "format", "width", "height", "pixels", "palette", "palette_format",
      "compression" }) do
    if im[role] then items[#items + 1] = string.format(".%s = %s", role, q(im[role])) end
  end
  if im.codec_cases and #im.codec_cases > 0 then
    items[#items + 1] = string.format(".codec_cases = %simage_%s_cases", p, t.name)
  end
  if im.pad_short then items[#items + 1] = ".pad_short = 1" end
  for _, l in ipairs(lines.pack(items, string.format("static const bf_image_desc %simage_%s = {", p, t.name), 4, "};")) do
    w(l)
  end
end

-- A type's named values: a function each that the table can point at (the generated ones
-- take the type's own structure), and the table.
local function named_values(t)
  local list = {}
  for _, v in ipairs(t.values) do
    if not v.synthetic then list[#list + 1] = v end -- synthetic ones are lifted quantifiers
  end
  return list
end

local function value_table(fmt, p, t, ct, w)
  for _, v in ipairs(named_values(t)) do
    local float = v.expr.vt == "float"
    local head = string.format("static %s %svalue_%s_%s(bf_ctx *c, const void *s)", float and "double" or "int64_t", p, t.name, v.name)
    local body = string.format("{ return %s(c, (const %s *)s); }", cexpr.value_fn(fmt, t.name, v.name), ct)
    if #head + 1 + #body <= lines.WIDTH then
      w(head .. " " .. body)
    else
      w(head)
      w(body)
    end
  end
  w(string.format("static const bf_value_desc %svalues_%s[] = {", p, t.name))
  for _, v in ipairs(named_values(t)) do
    local float = v.expr.vt == "float"
    local items = { ".name = " .. q(v.name) }
    if float then
      items[#items + 1] = string.format(".is_float = 1, .float_of = %svalue_%s_%s", p, t.name, v.name)
    else
      items[#items + 1] = string.format(".int_of = %svalue_%s_%s", p, t.name, v.name)
    end
    for _, it in ipairs(lines.string_items(".doc", v.doc, 5)) do items[#items + 1] = it end
    for _, l in ipairs(lines.pack(items, "    {", 5, "},")) do w(l) end
  end
  w("};")
end

return function(fmt)
  local ix = names.index(fmt)
  local o = {}
  local function w(s) o[#o + 1] = s or "" end
  local p = fmt.name .. "_"
  local has_values = false
  for _, t in ipairs(fmt.types) do has_values = has_values or #named_values(t) > 0 end
  w("/* Generated by bfgen from " .. fmt.schema .. ". Do not edit: change the schema. */")
  w("#include <stddef.h>")
  w()
  w("#include \"" .. fmt.name .. ".h\"")
  w("#include \"bf_meta.h\"")
  if has_values then w("#include \"" .. fmt.name .. "_access.h\"") end
  w()
  for _, e in ipairs(fmt.enums) do
    w(string.format("static const bf_enum_value_desc %senum_%s_values[] = {", p, e.name))
    for _, v in ipairs(e.values) do
      local items = { ".name = " .. q(v.name), ".value = " .. names.i64(v.value) }
      for _, it in ipairs(lines.string_items(".doc", v.doc, 5)) do items[#items + 1] = it end
      for _, l in ipairs(lines.pack(items, "    {", 5, "},")) do w(l) end
    end
    w("};")
    local items = { q(e.name) }
    for _, it in ipairs(lines.string_items(nil, e.doc, 4)) do items[#items + 1] = it end
    if not e.doc then items[#items + 1] = "NULL" end
    items[#items + 1] = tostring(e.flags and 1 or 0)
    items[#items + 1] = string.format("%senum_%s_values", p, e.name)
    items[#items + 1] = tostring(#e.values)
    for _, l in ipairs(lines.pack(items, string.format("static const bf_enum_desc %senum_%s = {", p, e.name), 4, "};")) do w(l) end
  end
  w()
  for _, t in ipairs(fmt.types) do
    w(string.format("static const bf_type_desc %stype_%s;", p, t.name))
  end
  w()
  for _, t in ipairs(fmt.types) do
    local ct = names.ctype(fmt, t.name)
    for _, fl in ipairs(t.fields) do
      if #fl.bits > 0 then
        w(string.format("static const bf_bits_desc %sbits_%s_%s[] = {", p, t.name, fl.name))
        for _, b in ipairs(fl.bits) do
          local items = { ".name = " .. q(b.name), ".width = " .. b.width, ".shift = " .. b.shift }
          if b.signed then items[#items + 1] = ".is_signed = 1" end
          items[#items + 1] = string.format(".offset = offsetof(%s, %s_%s)", ct, fl.name, b.name)
          for _, it in ipairs(lines.string_items(".doc", b.doc, 5)) do items[#items + 1] = it end
          for _, l in ipairs(lines.pack(items, "    {", 5, "},")) do w(l) end
        end
        w("};")
      end
      if fl.kind == "switch" then
        w(string.format("static const bf_case_desc %scases_%s_%s[] = {", p, t.name, fl.name))
        for _, c in ipairs(fl.cases) do
          w(string.format("    {%s, %s, %s, %s},", names.i64(c.value or 0), q(c.default and "default" or c.label),
            c.type and ("&" .. p .. "type_" .. c.type) or "NULL",
            c.type and string.format("offsetof(%s, %s.%s)", ct, fl.name, c.type) or "0"))
        end
        w("};")
      end
    end
    if #named_values(t) > 0 then value_table(fmt, p, t, ct, w) end
    w(string.format("static const bf_field_desc %sfields_%s[] = {", p, t.name))
    for _, fl in ipairs(t.fields) do
      for _, l in ipairs(field_lines(fmt, p, t, ct, fl)) do w(l) end
    end
    w("};")
    local items = { ".name = " .. q(t.name), ".kind_id = " .. t.kind_id, string.format(".size = sizeof(%s)", ct),
      ".encoded_size = " .. (t.size or -1), string.format(".fields = %sfields_%s, .field_count = %d", p, t.name, #t.fields) }
    if #named_values(t) > 0 then
      items[#items + 1] = string.format(".values = %svalues_%s, .value_count = %d", p, t.name, #named_values(t))
    end
    if t.image then
      image_table(p, t, w)
      items[#items + 1] = string.format(".image = &%simage_%s", p, t.name)
    end
    for _, it in ipairs(lines.string_items(".doc", t.doc, 4)) do items[#items + 1] = it end
    for _, l in ipairs(lines.pack(items, string.format("static const bf_type_desc %stype_%s = {", p, t.name), 4, "};")) do w(l) end
    w()
  end
  for _, e in ipairs(fmt.entries) do
    local ct = names.ctype(fmt, e.root)
    w(string.format("static int %sentry_read_%s(const uint8_t *data, size_t size, bf_arena *arena, const bf_read_opts *opts,", p, e.name))
    w("        void **out, bf_error *err)")
    w("{")
    w(string.format("    %s *doc;", ct))
    w(string.format("    if (!%sread_%s(data, size, arena, opts, &doc, err))", p, e.name))
    w("        return 0;")
    w("    *out = doc;")
    w("    return 1;")
    w("}")
    w(string.format("static int %sentry_validate_%s(const void *doc, const uint8_t *data, size_t size, struct bf_findings *out)", p, e.name))
    w("{")
    w(string.format("    return %svalidate_%s(doc, data, size, out);", p, e.name))
    w("}")
    w(string.format("static int %sentry_write_%s(const void *doc, struct bf_buffer *out, bf_error *err)", p, e.name))
    w("{")
    w(string.format("    return %swrite_%s(doc, out, err);", p, e.name))
    w("}")
    w(string.format("static int %sentry_build_%s(void *doc, bf_arena *arena, struct bf_buffer *out, bf_error *err)", p, e.name))
    w("{")
    w(string.format("    return %sbuild_%s(doc, arena, out, err);", p, e.name))
    w("}")
    local exts = {}
    for _, x in ipairs(e.extensions) do exts[#exts + 1] = q(x) end
    exts[#exts + 1] = "NULL"
    w(string.format("static const char *const %sextensions_%s[] = {%s};", p, e.name, table.concat(exts, ", ")))
    emit_members(w, p, e)
  end
  w(string.format("static const bf_entry_desc %sentries[] = {", p))
  for _, e in ipairs(fmt.entries) do
    local items = { ".name = " .. q(e.name), string.format(".root = &%stype_%s", p, e.root),
      string.format(".extensions = %sextensions_%s", p, e.name) }
    if e.magic then
      items[#items + 1] = string.format(".magic = %s, .magic_len = %d, .magic_at = UINT64_C(%d)", q(e.magic), #e.magic, e.magic_at or 0)
    end
    items[#items + 1] = string.format(".read = %sentry_read_%s, .validate = %sentry_validate_%s", p, e.name, p, e.name)
    items[#items + 1] = string.format(".write = %sentry_write_%s, .build = %sentry_build_%s", p, e.name, p, e.name)
    if #fmt.revisions > 0 then
      items[#items + 1] = string.format(".revision_offset = offsetof(%s, _revision)", names.ctype(fmt, e.root))
    end
    if #e.members > 0 then
      items[#items + 1] = string.format(".members = %smembers_%s, .member_count = %d", p, e.name, #e.members)
    end
    for _, it in ipairs(lines.string_items(".doc", e.doc, 5)) do items[#items + 1] = it end
    for _, l in ipairs(lines.pack(items, "    {", 5, "},")) do w(l) end
  end
  w("};")
  w(string.format("static const bf_type_desc *const %stypes[] = {", p))
  for _, t in ipairs(fmt.types) do w(string.format("    &%stype_%s,", p, t.name)) end
  w("};")
  if #fmt.revisions > 0 then
    local list = {}
    for _, r in ipairs(fmt.revisions) do list[#list + 1] = q(r.name) end
    w(string.format("static const char *const %srevisions[] = {%s};", p, table.concat(list, ", ")))
  end
  if #fmt.enums > 0 then
    w(string.format("static const bf_enum_desc *const %senums[] = {", p))
    for _, e in ipairs(fmt.enums) do w(string.format("    &%senum_%s,", p, e.name)) end
    w("};")
  end
  local items = { ".name = " .. q(fmt.name), ".endian = " .. q(fmt.endian),
    string.format(".entries = %sentries, .entry_count = %d", p, #fmt.entries),
    string.format(".types = %stypes, .type_count = %d", p, #fmt.types) }
  if #fmt.revisions > 0 then items[#items + 1] = string.format(".revisions = %srevisions, .revision_count = %d", p, #fmt.revisions) end
  if #fmt.enums > 0 then items[#items + 1] = string.format(".enums = %senums, .enum_count = %d", p, #fmt.enums) end
  for _, it in ipairs(lines.string_items(".title", fmt.title, 4)) do items[#items + 1] = it end
  for _, it in ipairs(lines.string_items(".doc", fmt.doc, 4)) do items[#items + 1] = it end
  for _, l in ipairs(lines.pack(items, string.format("const bf_format_desc %sformat = {", p), 4, "};")) do w(l) end
  return table.concat(o, "\n") .. "\n"
end
