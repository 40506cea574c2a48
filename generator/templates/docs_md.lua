-- docs/<format>.md and docs/index.md: the pages of docs_common.lua as GitHub Markdown.
local common = require("docs_common")

local M = {}

-- Text outside code spans: no raw HTML, and no column breaks inside tables.
local find = string.find
local any = require("scan").any

local function plain(s, in_table)
  -- one pass in C first: most text has nothing to escape
  if not any(s, in_table and "<>|" or "<>") then return s end
  s = s:gsub("<", "&lt;"):gsub(">", "&gt;")
  if in_table then s = s:gsub("|", "\\|") end
  return s
end

local function code_span(s, in_table)
  if in_table and find(s, "|", 1, true) then s = s:gsub("|", "\\|") end
  if s:find("`", 1, true) then return "`` " .. s .. " ``" end
  return "`" .. s .. "`"
end

-- Schema doc text: its `code` spans are kept as they are.
local function doc_text(s, in_table)
  if not find(s, "`", 1, true) then return plain(s, in_table) end
  local out, i = {}, 1
  while i <= #s do
    local a, b = s:find("`[^`]+`", i)
    if not a then
      out[#out + 1] = plain(s:sub(i), in_table)
      break
    end
    out[#out + 1] = plain(s:sub(i, a - 1), in_table)
    out[#out + 1] = code_span(s:sub(a + 1, b - 1), in_table)
    i = b + 1
  end
  return table.concat(out)
end

-- The same texts come again and again (rule sources, "reader", "error"): each is escaped once.
local md_of, md_in_table = {}, {}

-- Code spans, the same way.
local code_of, code_in_table = {}, {}

local function cached_code_span(s, in_table)
  local cache = in_table and code_in_table or code_of
  local md = cache[s]
  if not md then
    md = code_span(s, in_table)
    cache[s] = md
  end
  return md
end

-- One piece of rich text.
local function piece(s, in_table)
  -- (the cache first: most pieces are texts seen before, and type() is a call)
  local cache = in_table and md_in_table or md_of
  local md = cache[s]
  if md then return md end
  if type(s) == "string" then
    md = doc_text(s, in_table)
    cache[s] = md
    return md
  elseif s.link then
    local label = s.code and cached_code_span(s.text, in_table) or plain(s.text, in_table)
    return "[" .. label .. "](" .. (s.md_link or s.link) .. ")"
  elseif s.code then
    return cached_code_span(s.code, in_table)
  elseif s.strong then
    return "**" .. plain(s.strong, in_table) .. "**"
  elseif s.em then
    return "*" .. plain(s.em, in_table) .. "*"
  elseif s.br then
    return "<br>"
  elseif s.anchor then
    return '<a id="' .. s.anchor .. '"></a>'
  end
  return ""
end

-- Most rich texts (table cells) are one piece: no list to join for them.
local function rich(r, in_table)
  local n = #r
  if n == 1 then return piece(r[1], in_table) end
  if n == 0 then return "" end
  local out = {}
  for i = 1, n do out[i] = piece(r[i], in_table) end
  return table.concat(out)
end

local function pad(s, n) return s .. string.rep(" ", n - #s) end

-- A fixed-size structure as an ASCII grid: one row of `width` bytes per line.
local function layout(lay)
  local cell = 7 -- a separator and six characters per byte
  local lines = {}
  local head = "      "
  for i = 0, lay.width - 1 do head = head .. string.format(" %-6s", "+" .. i) end
  lines[1] = head:gsub("%s+$", "")
  local function rule(n) return "      +" .. string.rep("------+", n) end
  local first_row_bytes = math.min(lay.width, lay.size)
  lines[#lines + 1] = rule(first_row_bytes)
  for _, row in ipairs(lay.rows) do
    local n = math.min(lay.width, lay.size - row.offset)
    local text = pad(common.hex(row.offset), 6) .. "|"
    for _, c in ipairs(row.cells) do
      local inner = c.len * cell - 1
      local label = c.first and c.name or ("…" .. c.name)
      local chars = utf8.len(label)
      if chars > inner then
        local keep = inner - 1
        label = (c.first and c.name:sub(1, keep) or ("…" .. c.name:sub(1, keep - 1))) .. "…"
        chars = inner
      end
      text = text .. label .. string.rep(" ", inner - chars) .. "|"
    end
    lines[#lines + 1] = text
    lines[#lines + 1] = rule(n)
  end
  return "```text\n" .. table.concat(lines, "\n") .. "\n```"
end

-- A table's Markdown, its pieces appended to `out` (one list for the whole page, joined
-- once: a string per cell, row or table was made and copied again at each level).
local function table_md_into(out, t)
  local n = #out
  local head, sep = {}, {}
  for i, h in ipairs(t.head) do
    head[i] = h
    sep[i] = "---"
  end
  out[n + 1] = "| " .. table.concat(head, " | ") .. " |\n|" .. table.concat(sep, "|") .. "|"
  n = n + 1
  local rows = t.rows
  for r = 1, #rows do -- (numeric loops: ipairs calls its iterator for every cell)
    local row = rows[r]
    out[n + 1] = "\n| "
    n = n + 1
    for i = 1, #row do
      if i > 1 then
        out[n + 1] = " | "
        n = n + 1
      end
      local cell = row[i]
      local before = n
      for k = 1, #cell do
        local text = piece(cell[k], true)
        if text ~= "" then
          out[n + 1] = text
          n = n + 1
        end
      end
      if n == before then -- an empty cell: a space keeps the row's columns
        out[n + 1] = " "
        n = n + 1
      end
    end
    out[n + 1] = " |"
    n = n + 1
  end
end

local function render(blocks)
  local out = {}
  -- each piece of the page on a line of its own (pieces end in a newline: a blank line between)
  local function w(s)
    if #out > 0 then out[#out + 1] = "\n" end
    out[#out + 1] = s
  end
  for _, b in ipairs(blocks) do
    if b.h then
      if b.id and b.h > 1 then w('<a id="' .. b.id .. '"></a>\n') end
      w(string.rep("#", b.h) .. " " .. rich(b.text) .. "\n")
    elseif b.p then
      w(rich(b.p) .. "\n")
    elseif b.note then
      w("> " .. rich(b.note) .. "\n")
    elseif b.table then
      -- (appended piece by piece, as w would have the table's text)
      if #out > 0 then out[#out + 1] = "\n" end
      table_md_into(out, b.table)
      out[#out + 1] = "\n"
    elseif b.layout then
      w(layout(b.layout) .. "\n")
    elseif b.toc then
      local items = {}
      for _, e in ipairs(b.toc) do
        items[#items + 1] = string.rep("  ", e.level - 2) .. "- [" .. plain(e.text) .. "](#" .. e.id .. ")"
      end
      w("Contents:\n\n" .. table.concat(items, "\n") .. "\n")
    end
  end
  return table.concat(out)
end

function M.page(fmt) return render(common.page(fmt)) end
function M.index(formats) return render(common.index(formats, "md")) end

return M
