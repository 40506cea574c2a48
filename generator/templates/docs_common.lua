-- The content of the documentation pages, shared by docs_md.lua and docs_html.lua so that
-- both show the same things. A page is a list of blocks; text is "rich text": a list of
-- segments, each a string (schema doc text, where `code` spans are kept) or a table:
--   {code = "x"}                 code
--   {link = "#id", text = "x", code = true?}
--   {strong = "x"}  {em = "x"}  {br = true}
-- Blocks: {h = level, id = "anchor", text = rich}, {p = rich}, {note = rich, kind = "erratum"},
-- {table = {head = {...}, rows = {{rich...}}, id = "anchor"?}}, {list = {rich...}},
-- {layout = {...}} (see layout()), {toc = {{level, id, text}...}}.
local names = require("names")

local M = {}

-- (the same offsets and sizes come thousands of times: each is formatted once)
local hex_of = {}

local function hex(n)
  local s = hex_of[n]
  if s then return s end
  -- (-n of the smallest integer is itself: its digits are written out)
  if n == math.mininteger then s = "-0x8000000000000000"
  elseif n < 0 then s = "-" .. hex(-n) else s = string.format("0x%02X", n) end
  hex_of[n] = s
  return s
end
M.hex = hex

-- Anchors: types, enums, rules and field rows of a page.
function M.type_id(name) return "type-" .. name end
function M.enum_id(name) return "enum-" .. name end
function M.field_id(tname, fname) return "f-" .. tname .. "-" .. fname end
function M.rules_id(tname) return "rules-" .. tname end

-- Pieces are never changed once made, so the same piece serves every use of a text: the
-- renderers then escape each once (they cache by piece).
local type_links, enum_links, code_pieces = {}, {}, {}

-- The code link to `id` shown as `text`, made once per text (`cache`).
local function cached_link(cache, text, id)
  local p = cache[text]
  if not p then
    p = { link = "#" .. id, text = text, code = true }
    cache[text] = p
  end
  return p
end
local function type_link(name, suffix)
  return cached_link(type_links, suffix and name .. suffix or name, M.type_id(name))
end
local function enum_link(name) return cached_link(enum_links, name, M.enum_id(name)) end

-- Appends one segment (or the segments of a rich list) to a rich text.
local function add_one(r, s)
  if type(s) ~= "table" then
    r[#r + 1] = s
  elseif s[1] ~= nil then
    for i = 1, #s do r[#r + 1] = s[i] end
  elseif next(s) ~= nil then
    r[#r + 1] = s
  end -- an empty rich text adds nothing
end

-- Appends segments (and rich lists) to a rich text; as ipairs would, nothing after a nil.
-- (Named arguments, not select: this runs for every piece of every page.)
local function add(r, a, b, c, d, e, f, ...)
  if a == nil then return r end
  add_one(r, a)
  if b == nil then return r end
  add_one(r, b)
  if c == nil then return r end
  add_one(r, c)
  if d == nil then return r end
  add_one(r, d)
  if e == nil then return r end
  add_one(r, e)
  if f == nil then return r end
  add_one(r, f)
  return add(r, ...)
end

local function code(s)
  local p = code_pieces[s]
  if not p then
    p = { code = s }
    code_pieces[s] = p
  end
  return p
end

-- The source document of a format, by its title (the stored file name says nothing to a reader;
-- the format page gives it as well, as the project's copy).
local function document_cell(f, with_file)
  if not f.document then return { "—" } end
  if not f.document_title then return { code(f.document) } end
  if with_file then return { f.document_title, " (the project's copy: ", code(f.document), ")" } end
  return { f.document_title }
end

-- Whether `s` has white space other than single spaces: one pass in C (template_lib.c), where a
-- class would be tried byte by byte from Lua.
local scan = require("scan")
M.has_space_run = scan.space_run

-- One line of doc text: whitespace (newlines included) collapsed.
local function oneline(s) return scan.oneline(s or "") end -- (one pass in C)
M.oneline = oneline

-- Doc text as paragraphs: blank lines separate them, single newlines join.
local function paragraphs(s)
  local out = {}
  for para in ((s or "") .. "\n\n"):gmatch("(.-)\n%s*\n") do
    local p = oneline(para)
    if p ~= "" then out[#out + 1] = { p = { p } } end
  end
  return out
end

local function array_suffix(fl)
  if fl.fixed_count then return "[" .. fl.fixed_count .. "]" end
  if fl.count then return "[" .. fl.count.text .. "]" end
  return "[]"
end

-- The Type column: `u16[count]`, a link to the structure, the enum beside its number type.
local function type_cell(fmt, fl)
  local r = {}
  local k = fl.kind
  if k == "prim" then
    add(r, code(fl.prim .. (fl.array and array_suffix(fl) or "")))
    if fl.enum then add(r, " (", enum_link(fl.enum), ")") end
    if fl.flags then add(r, " (", enum_link(fl.flags), ")") end
  elseif k == "struct" then
    add(r, type_link(fl.type, fl.array and array_suffix(fl) or ""))
  elseif k == "str" then
    add(r, code("char[" .. fl.str_len .. "]"))
  elseif k == "cstr" then
    add(r, code(fl.array and ("cstr" .. array_suffix(fl)) or "cstr"))
  elseif k == "bytes" then
    add(r, code(fl.count and ("bytes[" .. fl.count.text .. "]") or "bytes[]"))
  elseif k == "switch" then
    add(r, code("switch"))
  end
  -- a byte order of its own, when it differs from the format's
  local own = fl.endian == "le" and "little" or "big"
  if k == "prim" and own ~= fmt.endian then add(r, " (" .. own .. " endian)") end
  return r
end

-- Where the previous inline field is, for "after X".
local function previous_inline(t, i)
  for j = i - 1, 1, -1 do
    if not t.fields[j].pos then return t.fields[j] end
  end
  return nil
end

-- Whether the document puts a field elsewhere than real files have it.
local function moved(fl)
  return fl.document_at ~= nil and fl.document_at ~= (fl.at or fl.offset)
end

-- The Offset column: hex when fixed, "@ expr" when located, else relative to the field before.
local function offset_cell(t, i)
  local fl = t.fields[i]
  local r = {}
  if fl.pos then
    add(r, "@ ", code(fl.pos.text))
  elseif fl.offset and not fl.align then
    add(r, hex(fl.offset))
  else
    local prev = previous_inline(t, i)
    if prev then
      add(r, "after ", { link = "#" .. M.field_id(t.name, prev.name), text = prev.name, code = true })
    else
      add(r, "start")
    end
    if fl.align then add(r, { br = true }, "aligned to " .. fl.align) end
  end
  if moved(fl) then add(r, { br = true }, { em = "document: " .. hex(fl.document_at) }) end
  return r
end

local function sorted_keys(map)
  local keys = {}
  if not map or next(map) == nil then return keys end -- (most fields have no arguments)
  for k in pairs(map or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

-- Sentences added to a field's doc: how it is read and what it means.
local function field_notes(fl)
  local r = {}
  local function sentence(...)
    if #r > 0 then add(r, { br = true }) end
    add(r, ...)
  end
  if fl.cond then sentence("Present only if ", code(fl.cond.text), ".") end
  if fl.const then sentence("Always ", code(fl.const.text), ".") end
  if fl.const_str then sentence("Always ", code('"' .. fl.const_str .. '"'), ".") end
  if fl.expect then sentence("Expected: ", code(fl.expect.text), ".") end
  if fl.enum then sentence("A value of ", enum_link(fl.enum), ".") end
  if fl.flags then sentence("Flags of ", enum_link(fl.flags), ".") end
  if fl.string_table then
    if fl.string_null ~= nil then
      sentence("Offset of a string in ", code(fl.string_table.text), "; ", code(tostring(fl.string_null)), " for none.")
    else
      sentence("Offset of a string in ", code(fl.string_table.text), ".")
    end
  end
  if fl.fixed_frac == 0 then
    sentence("Fixed point " .. fl.fixed_int .. ".0: whole numbers.")
  elseif fl.fixed_frac then
    sentence("Fixed point " .. fl.fixed_int .. "." .. fl.fixed_frac .. ": the value is the raw number / 2^" .. fl.fixed_frac .. ".")
  end
  if fl.derive then
    sentence("Value: ", code(fl.derive.text), fl.derive_doc and (" — " .. oneline(fl.derive_doc)) or "", ".")
  end
  if fl["until"] then sentence("Ends with the first element for which ", code(fl["until"].text), " (included).") end
  if fl.to_end then sentence("Runs to the end of its region.") end
  if fl.size then sentence("Read in a region of ", code(fl.size.text), " bytes; bytes left over are kept as its tail.") end
  if fl.align then sentence("Aligned to " .. fl.align .. " bytes from the start of the file; the padding is kept.") end
  local args = sorted_keys(fl.args)
  if #args > 0 then
    local parts = {}
    for _, a in ipairs(args) do parts[#parts + 1] = a .. " = " .. fl.args[a].text end
    sentence("Arguments: ", code(table.concat(parts, ", ")), ".")
  end
  if fl.kind == "switch" then
    sentence("By ", code(fl.switch_on.text), ": ")
    for i, c in ipairs(fl.cases) do
      if i > 1 then add(r, ", ") end
      add(r, code(c.default and "default" or c.label), " → ", c.type and type_link(c.type) or code("bytes"))
    end
    add(r, ".")
  end
  return r
end

local function description_cell(fl)
  local r = {}
  add(r, oneline(fl.doc))
  local notes = field_notes(fl)
  if #notes > 0 then
    if #r > 0 and r[1] ~= "" then add(r, { br = true }) end
    add(r, notes)
  end
  if fl.erratum then
    add(r, { br = true }, { strong = "⚠ Erratum:" }, " ", oneline(fl.erratum))
  end
  return r
end

-- The byte layout of a fixed-size structure: the inline fields with their byte ranges.
-- segments = {{name, start, len, first}} split at rows of `width` bytes.
local LAYOUT_WIDTH = 8
local function layout(t)
  if not t.size or t.size == 0 then return nil end
  local inline = {}
  for _, fl in ipairs(t.fields) do
    if not fl.pos and fl.offset then inline[#inline + 1] = fl end
  end
  table.sort(inline, function(a, b) return a.offset < b.offset end)
  local spans = {}
  for i, fl in ipairs(inline) do
    local stop = inline[i + 1] and inline[i + 1].offset or t.size
    if stop > fl.offset then
      spans[#spans + 1] = { name = fl.name, start = fl.offset, len = stop - fl.offset, index = #spans }
    end
  end
  local rows = {}
  local first = 1 -- spans are in order and do not overlap: each row looks at its own only
  for row_start = 0, t.size - 1, LAYOUT_WIDTH do
    local row = { offset = row_start, cells = {} }
    local row_end = math.min(row_start + LAYOUT_WIDTH, t.size)
    while spans[first] and spans[first].start + spans[first].len <= row_start do first = first + 1 end
    for k = first, #spans do
      local s = spans[k]
      if s.start >= row_end then break end
      local a, b = math.max(s.start, row_start), math.min(s.start + s.len, row_end)
      if a < b then
        row.cells[#row.cells + 1] = { name = s.name, col = a - row_start, len = b - a, first = a == s.start,
          start = s.start, field_len = s.len, color = s.index % 6 }
      end
    end
    rows[#rows + 1] = row
  end
  return { type = t.name, size = t.size, width = LAYOUT_WIDTH, rows = rows }
end

-- The expressions of a field that may index arrays.
local EXPR_KEYS = { "count", "pos", "size", "cond", "switch_on", "until" }

-- Index expressions inside an expression: each `a[i]` read must have `i` in range.
local function index_exprs(e, out)
  if not e then return end -- (an expression or nothing: no type() call per node)
  if e.k == "index" and e.a and e.b then out[#out + 1] = e end
  index_exprs(e.a, out)
  index_exprs(e.b, out)
  index_exprs(e.c, out)
  local args = e.args
  if args then
    for _, a in ipairs(args) do index_exprs(a, out) end
  end
end

-- Text of a sub-expression: the parser keeps `text` on the expressions it was given; for
-- sub-expressions the text is rebuilt.
local function expr_text(e)
  if e.text then return e.text end
  local k = e.k
  if k == "int" then return tostring(e.v) end
  if k == "float" then return tostring(e.v) end
  if k == "name" then return e.name end
  if k == "member" then return expr_text(e.a) .. "." .. e.name end
  if k == "index" then return expr_text(e.a) .. "[" .. expr_text(e.b) .. "]" end
  if k == "call" then
    local a = {}
    for _, x in ipairs(e.args or {}) do a[#a + 1] = expr_text(x) end
    return e.name .. "(" .. table.concat(a, ", ") .. ")"
  end
  if k == "unary" then return e.op .. expr_text(e.a) end
  if k == "binary" then return "(" .. expr_text(e.a) .. " " .. e.op .. " " .. expr_text(e.b) .. ")" end
  if k == "cond" then return "(" .. expr_text(e.a) .. " ? " .. expr_text(e.b) .. " : " .. expr_text(e.c) .. ")" end
  return "?"
end

-- A rule's message, its {value} parts shown as code.
local function rule_message(r)
  if not r.parts or #r.parts == 0 then return { oneline(r.message or "") } end
  local out = {}
  for _, part in ipairs(r.parts) do
    if part.text then
      add(out, oneline(part.text) == "" and " " or scan.squeeze(part.text))
    elseif part.value then
      add(out, code("{" .. expr_text(part.value) .. (part.hex and ":x" or "") .. "}"))
    end
  end
  return out
end

-- The rules that apply to a type: what the reader enforces (structure), what the validator
-- checks (enums, flags, expected values, the type's `rules`).
local function type_rules(t, ix)
  local rows = {}
  local function rule(subject, text, by, severity)
    rows[#rows + 1] = { subject, text, { by }, { severity } }
  end
  local function fref(fl) return { { link = "#" .. M.field_id(t.name, fl.name), text = fl.name, code = true } } end
  if t.size and t.size > 0 then
    rule({ "(structure)" }, { "Takes exactly " .. hex(t.size) .. " bytes, which must fit in its region." }, "reader", "error")
  end
  for _, fl in ipairs(t.fields) do
    local s = fref(fl)
    if fl.const then rule(s, { "Must be ", code(fl.const.text), "." }, "reader", "error") end
    if fl.const_str then rule(s, { "Must be ", code('"' .. fl.const_str .. '"'), "." }, "reader", "error") end
    if fl.enum then
      local e = ix.enums[fl.enum]
      local members = {}
      for _, v in ipairs(e and e.values or {}) do members[#members + 1] = v.name end
      rule(s, { "Must be a value of ", enum_link(fl.enum), " (", code(table.concat(members, ", ")), ")." }, "validator", "error")
    end
    if fl.flags then
      rule(s, { "Only the bits of ", enum_link(fl.flags), " may be set." }, "validator", "warning")
    end
    if fl.expect then rule(s, { "Expected to be ", code(fl.expect.text), "." }, "validator", "error") end
    if fl.count and not fl.fixed_count then
      rule(s, { code(fl.count.text), " must be ≥ 0, and that many elements must fit in the bytes that remain." },
        "reader", "error")
    end
    if fl["until"] then
      rule(s, { "The region must hold an element for which ", code(fl["until"].text), " (the terminator)." }, "reader", "error")
    end
    if fl.to_end then rule(s, { "Must fill its region exactly: no partial last element." }, "reader", "error") end
    if fl.pos then rule(s, { "The offset ", code(fl.pos.text), " must be inside the file." }, "reader", "error") end
    if fl.size then
      rule(s, { "The size ", code(fl.size.text), " must be ≥ 0 and fit in the enclosing region." }, "reader", "error")
    end
    if fl.string_table then
      local null = fl.string_null ~= nil and { " or ", code(tostring(fl.string_null)) } or {}
      rule(s, add({ "Must be an offset inside ", code(fl.string_table.text) }, null,
        ", naming a zero-terminated string." ), "reader", "error")
    end
    if fl.kind == "switch" then
      local has_default = false
      for _, c in ipairs(fl.cases) do if c.default then has_default = true end end
      if not has_default then
        rule(s, { "The tag ", code(fl.switch_on.text), " must name one of the cases." }, "reader", "error")
      end
    end
    local idx, seen = {}, {}
    for i = 1, #EXPR_KEYS do index_exprs(fl[EXPR_KEYS[i]], idx) end
    for _, a in ipairs(sorted_keys(fl.args)) do index_exprs(fl.args[a], idx) end
    for _, e in ipairs(idx) do
      local text = expr_text(e.b) .. " in " .. expr_text(e.a)
      if not seen[text] then
        seen[text] = true
        rule(s, { code(expr_text(e.b)), " must be a valid index into ", code(expr_text(e.a)), "." }, "reader", "error")
      end
    end
  end
  for _, r in ipairs(t.rules or {}) do
    local text = rule_message(r)
    if r.check and r.check.text then add(text, { br = true }, "Check: ", code(r.check.text)) end
    if r.each then add(text, { br = true }, "For each element of ", code(r.each)) end
    if r.at and r.at.text then add(text, { br = true }, "Reported at ", code(r.at.text)) end
    if r.origin then add(text, { br = true }, { em = "Origin: " .. oneline(r.origin) }) end
    local subject = { "(rule)" }
    for _, fl in ipairs(t.fields) do
      if r.each == fl.name then subject = fref(fl) end
    end
    rule(subject, text, "validator", r.severity or "error")
  end
  return rows
end

-- Who uses each type and enum: {name -> list of "Type.field"}.
local function users(fmt)
  local types, enums = {}, {}
  local function push(map, key, who)
    map[key] = map[key] or {}
    local list = map[key]
    if list[#list] ~= who then list[#list + 1] = who end
  end
  for _, t in ipairs(fmt.types) do
    for _, fl in ipairs(t.fields) do
      local who = { t = t.name, f = fl.name }
      if fl.type then push(types, fl.type, who) end
      if fl.cases then
        for _, c in ipairs(fl.cases) do if c.type then push(types, c.type, who) end end
      end
      if fl.enum or fl.flags then push(enums, fl.enum or fl.flags, who) end
    end
  end
  return types, enums
end

local function used_by_text(list)
  local r = { "Used by " }
  for i, u in ipairs(list) do
    if i > 1 then add(r, ", ") end
    add(r, { link = "#" .. M.field_id(u.t, u.f), text = u.t .. "." .. u.f, code = true })
  end
  add(r, ".")
  return r
end

local function enum_value_cell(e, v)
  local s = hex(v.value) .. " (" .. v.value .. ")"
  if v.value >= 0x21 and v.value <= 0x7E and e.base == "u8" then
    s = s .. " '" .. string.char(v.value) .. "'"
  end
  return s
end

local function file_kinds(fmt)
  local rows = {}
  for _, e in ipairs(fmt.entries) do
    local exts = {}
    for _, x in ipairs(e.extensions) do exts[#exts + 1] = "." .. x end
    local magic = e.magic and { code(e.magic), " at " .. hex(e.magic_at or 0) } or { "—" }
    rows[#rows + 1] = { { code(e.name) }, { type_link(e.root) }, { #exts > 0 and table.concat(exts, " ") or "—" }, magic,
      { oneline(e.doc) } }
  end
  return rows
end

-- ---- file sets: the files a file kind reads with it (schema key `members`) ----

function M.members_id(kind) return "members-" .. kind end

local members_note = "A pattern is relative to the file's folder: `{stem}` is the file's name without its last extension, "
  .. "`{n}` counts the structures the member is read for from 0, `{a.b}` is a field of the file's root, and a `*` in the "
  .. "file name stands for any characters (the member is then every matching file of that folder). The first pattern "
  .. "that finds a file is used. A path starting `owner.` is in this file (the structure the member is read for), "
  .. "`member.` in the member file."

local function member_rows(e)
  local rows = {}
  for _, m in ipairs(e.members) do
    local files = {}
    for i, f in ipairs(m.files) do
      if i > 1 then add(files, { br = true }) end
      add(files, i .. ". ", code(f))
    end
    if m.each then
      add(files, { br = true }, "One per ", code(m.each_type or "element"), " of ", code(m.each), ".")
    end
    if m.orphans then
      add(files, { br = true }, "A file the ", code("{n}"), " pattern matches beyond the count (an orphan): ",
        m.orphans == "error" and "an error." or "a warning.")
    end
    rows[#rows + 1] = { { code(m.name) }, { code(m.kind) }, files, { oneline(m.doc) } }
  end
  return rows
end

local function member_check_rows(e)
  local rows = {}
  for _, m in ipairs(e.members) do
    for _, c in ipairs(m.checks) do
      local text = { "Every ", code(c.values) }
      if #c.below > 0 then
        add(text, " must be below ", #c.below > 1 and "the sum " or "", code(table.concat(c.below, " + ")), ".")
      else
        add(text, " must be one of ", code(table.concat(c.among, " or ")), c.ignore_case and " (ignoring case)." or ".")
      end
      if c.origin then add(text, { br = true }, { em = "Origin: " .. oneline(c.origin) }) end
      rows[#rows + 1] = { { code(m.name) }, text, { c.severity or "error" } }
    end
  end
  return rows
end

-- The page of one format. The Markdown and the HTML page render the same model (and do not
-- change it): it is built once per format.
local pages = setmetatable({}, { __mode = "k" })
local build_page
function M.page(fmt)
  if not pages[fmt] then pages[fmt] = build_page(fmt) end
  return pages[fmt]
end

function build_page(fmt)
  local ix = names.index(fmt)
  local type_users, enum_users = users(fmt)
  local blocks = {}
  local function b(x) blocks[#blocks + 1] = x end
  local toc = {}
  b({ h = 1, id = "top", text = { fmt.title or fmt.name } })
  b({ p = { { link = "index.html", md_link = "index.md", text = "All formats" }, " · generated by bfgen from ",
    code(fmt.schema), "; do not edit." } })
  b({ toc = toc })

  local function section(level, id, text)
    toc[#toc + 1] = { level = level, id = id, text = text }
    b({ h = level, id = id, text = { text } })
  end

  section(2, "overview", "Overview")
  for _, p in ipairs(paragraphs(fmt.doc)) do b(p) end
  b({ table = { head = { "Property", "Value" }, rows = {
    { { "Format" }, { code(fmt.name) } },
    { { "Byte order" }, { fmt.endian .. " endian" } },
    { { "Document" }, document_cell(fmt, true) },
    { { "Schema" }, { code(fmt.schema) } },
  } } })

  section(2, "files", "File kinds")
  b({ table = { head = { "Kind", "Root type", "Extensions", "Magic", "Description" }, rows = file_kinds(fmt) } })
  for _, e in ipairs(fmt.entries) do
    if #e.members > 0 then
      section(3, M.members_id(e.name), "Files read with " .. e.name)
      b({ p = { code("binform check"), " reads these files with every ", code(e.name), " file (not with ", code("--no-set"),
        "). ", members_note } })
      b({ table = { head = { "Member", "Kind", "Files, searched in order", "Description" }, rows = member_rows(e) } })
      local checks = member_check_rows(e)
      if #checks > 0 then
        b({ table = { head = { "Member", "Check", "Severity" }, rows = checks } })
      end
    end
  end

  section(2, "types", "Types")
  b({ p = { "Offsets are in hex from the start of the structure; ", code("@ expr"),
    " marks data reached through an offset (it takes no bytes where it is declared), \"after X\" a field whose offset depends on the data before it." } })
  for _, t in ipairs(fmt.types) do
    section(3, M.type_id(t.name), t.name)
    for _, p in ipairs(paragraphs(t.doc)) do b(p) end
    local facts = {}
    if t.size == 0 then
      add(facts, "Takes no bytes where it is declared: its data is reached through offsets.")
    elseif t.size then
      add(facts, "Size: " .. hex(t.size) .. " bytes.")
    else
      add(facts, "Size: variable, at least " .. hex(t.min_size or 0) .. " bytes.")
    end
    if #(t.tables or {}) > 0 then
      add(facts, " Mirrors the document's table", #t.tables > 1 and "s " or " ")
      for i, name in ipairs(t.tables) do
        if i > 1 then add(facts, ", ") end
        add(facts, { em = name })
      end
      add(facts, ".")
    end
    if type_users[t.name] then add(facts, " ", used_by_text(type_users[t.name])) end
    b({ p = facts })
    if #t.params > 0 then
      local rows = {}
      for _, p in ipairs(t.params) do rows[#rows + 1] = { { code(p.name) }, { oneline(p.doc) } } end
      b({ table = { head = { "Parameter", "Description" }, rows = rows } })
    end
    local vrows = {}
    for _, v in ipairs(t.values or {}) do
      if not v.synthetic then vrows[#vrows + 1] = { { code(v.name) }, { code(v.expr.text or "") }, { oneline(v.doc) } } end
    end
    if #vrows > 0 then
      b({ p = { "Named values, computed from the fields:" } })
      b({ table = { head = { "Value", "Expression", "Description" }, rows = vrows } })
    end
    local rows = {}
    for i, fl in ipairs(t.fields) do
      rows[#rows + 1] = { offset_cell(t, i), type_cell(fmt, fl), { { anchor = M.field_id(t.name, fl.name) }, code(fl.name) },
        description_cell(fl), erratum = fl.erratum ~= nil }
    end
    b({ table = { head = { "Offset", "Type", "Name", "Description" }, rows = rows, class = "fields" } })
    for _, fl in ipairs(t.fields) do
      if #fl.bits > 0 then
        local size_bits = (fl.prim_size or 0) * 8
        local brows = {}
        for _, bf in ipairs(fl.bits) do
          local hi, lo = bf.shift + bf.width - 1, bf.shift
          local range = hi == lo and tostring(hi) or (hi .. "–" .. lo)
          brows[#brows + 1] = { { range }, { code(bf.name) }, { oneline(bf.doc), (bf.signed and not (bf.doc or ""):find("signed")) and " (signed)" or "" } }
        end
        b({ p = { "Bits of ", code(fl.name), " (" .. size_bits .. " bits, most significant first):" } })
        b({ table = { head = { "Bits", "Name", "Description" }, rows = brows } })
      end
    end
    local lay = layout(t)
    if lay then
      b({ p = { "Byte layout:" } })
      b({ layout = lay })
    end
    local rules = type_rules(t, ix)
    if #rules > 0 then
      b({ h = 4, id = M.rules_id(t.name), text = { "Validation rules of " .. t.name } })
      b({ table = { head = { "Subject", "Rule", "Checked by", "Severity" }, rows = rules } })
    end
  end

  if #fmt.enums > 0 then
    section(2, "enums", "Enums and flags")
    for _, e in ipairs(fmt.enums) do
      section(3, M.enum_id(e.name), e.name)
      for _, p in ipairs(paragraphs(e.doc)) do b(p) end
      local facts = { (e.flags and "Flag set" or "Enum") .. " stored as ", code(e.base), "." }
      if enum_users[e.name] then add(facts, " ", used_by_text(enum_users[e.name])) end
      b({ p = facts })
      local rows = {}
      if e.flags then
        for _, v in ipairs(e.values) do
          rows[#rows + 1] = { { tostring(v.value) }, { hex(1 << v.value) }, { code(v.name) }, { oneline(v.doc) } }
        end
        b({ table = { head = { "Bit", "Mask", "Name", "Description" }, rows = rows } })
      else
        for _, v in ipairs(e.values) do
          rows[#rows + 1] = { { enum_value_cell(e, v) }, { code(v.name) }, { oneline(v.doc) } }
        end
        b({ table = { head = { "Value", "Name", "Description" }, rows = rows } })
      end
    end
  end

  local errata = {}
  for _, t in ipairs(fmt.types) do
    for _, fl in ipairs(t.fields) do
      if fl.erratum or moved(fl) then
        local where = {}
        if moved(fl) then
          add(where, "document: " .. hex(fl.document_at))
          if fl.at or fl.offset then add(where, { br = true }, "real files: " .. hex(fl.at or fl.offset)) end
        elseif fl.offset then
          add(where, hex(fl.offset))
        end
        errata[#errata + 1] = { { { link = "#" .. M.field_id(t.name, fl.name), text = t.name .. "." .. fl.name, code = true } },
          where, { fl.erratum and oneline(fl.erratum) or ("The document puts this at " .. hex(fl.document_at)
            .. "; real files have it at " .. hex(fl.at or fl.offset or 0) .. ".") }, erratum = true }
      end
    end
    for _, r in ipairs(t.absent_rows or {}) do
      errata[#errata + 1] = { { type_link(t.name) }, { "document row " .. r.row }, { "Not in real files: ", oneline(r.reason) },
        erratum = true }
    end
  end
  if #errata > 0 then
    section(2, "errata", "Errata")
    b({ note = { { strong = "Where real files differ from the document." },
      " The document's text is kept where it is right; these are the places where the files written by the real tools disagree with it." },
      kind = "erratum" })
    b({ table = { head = { "Field", "Offset", "Erratum" }, rows = errata } })
  end
  return blocks
end

-- The index of all formats.
function M.index(formats, ext)
  local blocks = {}
  blocks[#blocks + 1] = { h = 1, id = "top", text = { "binform formats" } }
  blocks[#blocks + 1] = { p = { "Generated by bfgen from ", code("schemas/*.yaml"), "; do not edit. One page per format: its types with offsets, enums and flags, byte layouts, validation rules and errata." } }
  local rows = {}
  for _, f in ipairs(formats) do
    local kinds = {}
    for i, e in ipairs(f.entries) do
      if i > 1 then add(kinds, ", ") end
      local exts = {}
      for _, x in ipairs(e.extensions) do exts[#exts + 1] = "." .. x end
      add(kinds, code(e.name), #exts > 0 and (" (" .. table.concat(exts, " ") .. ")") or "")
    end
    local types = #f.types
    rows[#rows + 1] = { { { link = f.name .. "." .. ext, text = f.name, code = true } }, { f.title or "" },
      { f.endian }, kinds, { tostring(types) }, document_cell(f, false) }
  end
  blocks[#blocks + 1] = { table = { head = { "Format", "Title", "Byte order", "File kinds", "Types", "Document" }, rows = rows } }
  return blocks
end

return M
