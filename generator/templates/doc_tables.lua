-- Reads the layout tables of a format document, whatever its style:
--   Markdown pipe tables ("| Offset | Type | Description |", or "| Type | Value | Description"
--   without offsets), under a "#" heading;
--   plain-text pipe rows ("Offset | Type | Meaning |", a row's cells may continue on the next
--   lines), under a title line;
--   whitespace rows ("Offset Type Description", then "0x00 Int32 The size"), under a title
--   line that stands alone between blank lines.
-- A wiki page holding a revision diff is read from its latest revision on.
-- Each table: {title, line, rows = {{table, line, offset_text, offsets = {n...}, type, description}}}.
local M = {}

local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end

-- A cell's text without Markdown: links, code marks, escapes, <br>.
local function clean(s)
  s = s:gsub("%[([^%]]*)%]%b()", "%1")
  s = s:gsub("<br%s*/?>", " ")
  s = s:gsub("`", "")
  s = s:gsub("\\(.)", "%1")
  s = s:gsub("%s+", " ")
  return trim(s)
end
M.clean = clean

-- The numbers of an offset cell: "0x1C" -> {28}, "+56 / +60" -> {56, 60}, "~~" or "0x??" -> {}.
function M.offsets(text)
  local out = {}
  if text:find("0[xX]") then
    for h in text:gmatch("0[xX](%x+)") do out[#out + 1] = tonumber(h, 16) end
  else
    for d in text:gmatch("%d+") do out[#out + 1] = tonumber(d) end
  end
  return out
end

-- Splits "| a | b \| c |" into cells; pipes escaped with a backslash stay in their cell.
local function split_cells(line)
  local cells, cur, i = {}, {}, 1
  while i <= #line do
    local ch = line:sub(i, i)
    if ch == "\\" and line:sub(i + 1, i + 1) == "|" then
      cur[#cur + 1] = "|"
      i = i + 2
    else
      if ch == "|" then
        cells[#cells + 1] = table.concat(cur)
        cur = {}
      else
        cur[#cur + 1] = ch
      end
      i = i + 1
    end
  end
  cells[#cells + 1] = table.concat(cur)
  local t = trim(line)
  if t:sub(1, 1) == "|" then table.remove(cells, 1) end
  if t:sub(-1) == "|" and not t:match("\\|$") then table.remove(cells) end
  for k, c in ipairs(cells) do cells[k] = trim(c) end
  return cells
end

-- Which columns hold the offset, the type and the description; nil when the table is not a
-- layout table (enums, flags, bit tables).
local function columns(head)
  local cols = {}
  for i, h in ipairs(head) do
    local name = clean(h):lower()
    if name == "offset" then cols.offset = i end
    if name == "type" then cols.type = i end
    if name == "description" or name == "meaning" then cols.desc = i end
  end
  if cols.type and cols.desc then return cols end
  return nil
end

local function make_row(tbl, cols, cells, line)
  local offset_text = cols.offset and clean(cells[cols.offset] or "") or nil
  return {
    table = tbl.title, line = line, offset_text = offset_text,
    offsets = offset_text and M.offsets(offset_text) or {},
    type = clean(cells[cols.type] or ""), description = clean(cells[cols.desc] or ""),
  }
end

-- A line that reads like a section title: short, capitalised, no sentence punctuation.
local function title_like(s)
  s = trim(s)
  if s == "" or s:find("|", 1, true) or s:match("^0[xXb]") then return false end
  if not s:match("^%u") then return false end
  if s:match("[%.:;,%?!]$") then return false end
  local words = 0
  for _ in s:gmatch("%S+") do words = words + 1 end
  return words <= 8
end

local function markdown_tables(lines, first, out)
  local heading
  local i = first
  while i <= #lines do
    local l = lines[i]
    local h = l:match("^#+%s+(.-)%s*#*%s*$")
    if h then heading = clean(h) end
    if trim(l):sub(1, 1) == "|" and lines[i + 1] and trim(lines[i + 1]):match("^|?%s*:?%-+") then
      local head = split_cells(l)
      local cols = columns(head)
      local tbl = { title = heading or ("table at line " .. i), line = i, rows = {}, has_offset = cols and cols.offset ~= nil }
      local j = i + 2
      while lines[j] and trim(lines[j]):sub(1, 1) == "|" do
        if cols then tbl.rows[#tbl.rows + 1] = make_row(tbl, cols, split_cells(lines[j]), j) end
        j = j + 1
      end
      if cols then out[#out + 1] = tbl end
      i = j
    else
      i = i + 1
    end
  end
end

local function plain_pipe_tables(lines, first, out)
  local title
  local i = first
  while i <= #lines do
    local l = trim(lines[i])
    if l:sub(1, 1) ~= "|" and l:match("^Offset%s*|") and lines[i + 1] and trim(lines[i + 1]):match("^%-%-%-") then
      local head = split_cells(l)
      local cols = columns(head)
      local tbl = { title = title or ("table at line " .. i), line = i, rows = {}, has_offset = true }
      local pending, start = {}, nil
      local j = i + 2
      while lines[j] and trim(lines[j]):find("|", 1, true) and not trim(lines[j]):match("^Offset%s*|") do
        local cells = split_cells(lines[j])
        start = start or j
        for _, c in ipairs(cells) do pending[#pending + 1] = c end
        if #pending >= #head then
          if cols then tbl.rows[#tbl.rows + 1] = make_row(tbl, cols, pending, start) end
          pending, start = {}, nil
        end
        j = j + 1
      end
      if cols and #pending > 0 then tbl.rows[#tbl.rows + 1] = make_row(tbl, cols, pending, start) end
      if cols then out[#out + 1] = tbl end
      title = nil
      i = j
    else
      if title_like(l) then title = clean(l) end
      i = i + 1
    end
  end
end

local function whitespace_tables(lines, first, out)
  local title, tbl
  local function blank(k) return lines[k] == nil or trim(lines[k]) == "" end
  for i = first, #lines do
    local l = trim(lines[i])
    local standalone = title_like(l) and blank(i - 1) and blank(i + 1)
    if l:match("^Offset%s+Type%s+Description$") then
      tbl = { title = title or ("table at line " .. i), line = i, rows = {}, has_offset = true }
      out[#out + 1] = tbl
    elseif l:match("^Value%s+") or standalone then
      tbl = nil
      if standalone then title = clean(l) end
    elseif tbl then
      local off, ty, desc = l:match("^(0[xX]%x+)%s+(%a[%w_%[%]]*)%s+(.*)$")
      if off then
        tbl.rows[#tbl.rows + 1] = { table = tbl.title, line = i, offset_text = off, offsets = M.offsets(off),
          type = ty, description = clean(desc) }
      end
    end
  end
end

-- The layout tables of a document, in order.
function M.parse(text)
  local lines = {}
  for l in (text .. "\n"):gmatch("(.-)\r?\n") do lines[#lines + 1] = l end
  local first = 1
  for i, l in ipairs(lines) do
    if l:match("^Latest revision as of") then
      first = i + 1
      break
    end
  end
  local found = {}
  markdown_tables(lines, first, found)
  plain_pipe_tables(lines, first, found)
  whitespace_tables(lines, first, found)
  table.sort(found, function(a, b) return a.line < b.line end)
  return found
end

return M
