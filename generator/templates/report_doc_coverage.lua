-- bfgen --report doc_coverage SCHEMAS... -- DOCUMENT_OR_FOLDER...
-- Every row of the documents' layout tables, and whether a schema has its counterpart: a field
-- of a type that declares the table in `tables:` (at the row's offset: `document_at`, else `at`;
-- rows without an offset, and tables without offsets, by their description), or an entry in
-- the type's `absent_rows`. Prints the rows without one, then covered/total per document.
-- Schemas without a `document` are listed as "no document". Exit status: 0, or 1 when a schema
-- names a table or an absent row its document does not have, or tables without a document.
local doc_tables = require("doc_tables")

local function basename(p) return (p:gsub("^.*/", "")) end

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return text
end

-- The documents named by the arguments: files as given, folders by their *.txt files.
local function documents(args)
  local out = {}
  for _, a in ipairs(args) do
    local text = read(a)
    if text then
      out[#out + 1] = { path = a, text = text }
    else
      local p = io.popen("ls -1 '" .. a:gsub("'", "'\\''") .. "' 2>/dev/null")
      local names = {}
      for name in p:lines() do
        if name:match("%.txt$") then names[#names + 1] = name end
      end
      p:close()
      if #names == 0 then
        io.stderr:write("doc_coverage: no documents in " .. a .. "\n")
        return nil
      end
      table.sort(names)
      for _, name in ipairs(names) do
        local path = a:gsub("/$", "") .. "/" .. name
        out[#out + 1] = { path = path, text = read(path) or "" }
      end
    end
  end
  return out
end

-- Table titles and descriptions compare without case, Markdown or punctuation.
local function norm(s) return (doc_tables.clean(s or ""):lower():gsub("%s+", " ")) end
local function words(s) return (" " .. (s or ""):lower():gsub("[^%w]+", " ") .. " "):gsub("%s+", " ") end

local function starts_with_words(a, b)
  -- whether the words of `b` begin the words of `a`
  local wa, wb = words(a), words(b)
  return #wb > 2 and wa:sub(1, #wb) == wb
end

-- The offset the schema declares for a field: where the document puts it, else `at`.
local function field_offset(fl)
  if fl.document_at then return fl.document_at end
  return fl.at
end

local function describes(fl, row)
  local d = row.description
  return starts_with_words(fl.doc, d) or starts_with_words(d, fl.doc) or words(fl.name:gsub("_", " ")) == words(d)
end

local function in_list(list, n)
  for _, x in ipairs(list) do if x == n then return true end end
  return false
end

-- The absent row of `types` that names `row`, if any.
local function absent_entry(types, row, used)
  for _, t in ipairs(types) do
    for k, r in ipairs(t.absent_rows or {}) do
      local key = norm(r.row)
      local n = tonumber(r.row)
      local hit = (row.offset_text and key == norm(row.offset_text)) or (n and in_list(row.offsets, n))
        or key == norm(row.description)
      if hit then
        used[t.name .. "#" .. k] = true
        return r, t
      end
    end
  end
  return nil
end

local function counterpart(types, row, has_offset)
  for _, t in ipairs(types) do
    for _, fl in ipairs(t.fields) do
      if has_offset and #row.offsets > 0 then
        if in_list(row.offsets, field_offset(fl)) then return t, fl end
      elseif describes(fl, row) then
        return t, fl
      end
    end
  end
  return nil
end

local function percent(c, n) return n == 0 and "—" or (math.floor(100 * c / n) .. "%") end

local function show_row(row)
  local off = row.offset_text and row.offset_text ~= "" and (row.offset_text .. " | ") or ""
  return string.format("%s | %s%s | %s  (line %d)", row.table, off, row.type, row.description, row.line)
end

return function(formats, args)
  if #args == 0 then
    io.stderr:write("usage: bfgen --report doc_coverage SCHEMA.yaml... -- DOCUMENT_OR_FOLDER...\n")
    return 2
  end
  local docs = documents(args)
  if not docs then return 2 end
  local status = 0
  local summary = {}
  for _, doc in ipairs(docs) do
    local name = basename(doc.path)
    local fmts, by_title = {}, {}
    for _, f in ipairs(formats) do
      if f.document and basename(f.document) == name then
        fmts[#fmts + 1] = f.name
        for _, t in ipairs(f.types) do
          for _, title in ipairs(t.tables or {}) do
            local key = norm(title)
            by_title[key] = by_title[key] or {}
            table.insert(by_title[key], t)
          end
        end
      end
    end
    table.sort(fmts)
    local tables = doc_tables.parse(doc.text)
    local total, covered = 0, 0
    local missing, absent, used, seen_titles = {}, {}, {}, {}
    for _, tbl in ipairs(tables) do
      seen_titles[norm(tbl.title)] = true
      local types = by_title[norm(tbl.title)] or {}
      for _, row in ipairs(tbl.rows) do
        total = total + 1
        local r, at = absent_entry(types, row, used)
        if r then
          covered = covered + 1
          absent[#absent + 1] = string.format("  absent   %s\n           %s.absent_rows: %s", show_row(row), at.name,
            doc_tables.clean(r.reason))
        elseif counterpart(types, row, tbl.has_offset) then
          covered = covered + 1
        else
          missing[#missing + 1] = "  missing  " .. show_row(row) .. (#types == 0 and "  [no type mirrors this table]" or "")
        end
      end
    end
    local problems = {}
    for _, f in ipairs(formats) do
      if f.document and basename(f.document) == name then
        for _, t in ipairs(f.types) do
          for _, title in ipairs(t.tables or {}) do
            if not seen_titles[norm(title)] then
              problems[#problems + 1] = string.format("  error    %s: %s.tables names '%s', which is not a table of %s",
                f.schema, t.name, title, name)
            end
          end
          for k, r in ipairs(t.absent_rows or {}) do
            if not used[t.name .. "#" .. k] then
              problems[#problems + 1] = string.format("  error    %s: %s.absent_rows names row '%s', which no table of %s mirrored by %s has",
                f.schema, t.name, r.row, name, t.name)
            end
          end
        end
      end
    end
    local schema = #fmts > 0 and table.concat(fmts, ", ") or "no schema"
    print(string.format("== %s (%s): %d tables, %d rows", name, schema, #tables, total))
    for _, l in ipairs(absent) do print(l) end
    for _, l in ipairs(missing) do print(l) end
    for _, l in ipairs(problems) do print(l) end
    if #problems > 0 then status = 1 end
    print(string.format("   covered %d/%d (%s)", covered, total, percent(covered, total)))
    summary[#summary + 1] = string.format("  %-28s %9s  %4s  %s", name, covered .. "/" .. total, percent(covered, total), schema)
  end
  -- Schemas written from sources other than a document (libdragon's sprite, from its code):
  -- legitimate, listed as such; naming document tables without a document is an error.
  local undocumented = {}
  for _, f in ipairs(formats) do
    if not f.document then
      undocumented[#undocumented + 1] = f
    end
  end
  table.sort(undocumented, function(a, b) return a.name < b.name end)
  for _, f in ipairs(undocumented) do
    print(string.format("== %s (%s): no document", f.name, f.schema))
    for _, t in ipairs(f.types) do
      for _, title in ipairs(t.tables or {}) do
        print(string.format("  error    %s: %s.tables names '%s', but the schema has no document", f.schema, t.name, title))
        status = 1
      end
    end
    summary[#summary + 1] = string.format("  %-28s %9s  %4s  %s", "(no document)", "—", "—", f.name)
  end
  print("")
  print("document coverage (rows of the documents' tables with a counterpart in the schemas):")
  for _, l in ipairs(summary) do print(l) end
  return status
end
