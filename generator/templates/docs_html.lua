-- docs/<format>.html and docs/index.html: the pages of docs_common.lua as self-contained
-- HTML (inline CSS, no scripts, nothing fetched from the network).
local common = require("docs_common")

local M = {}

local find = string.find
local scan = require("scan")
local any = scan.any

-- (names, ids and labels come again and again: each is escaped once)
local esc_of = {}
local entities = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;" }

local function esc(s)
  local html = esc_of[s]
  if html then return html end
  -- one pass in C first (a class is tried byte by byte): most text has nothing to escape
  if any(s, '&<>"') then html = scan.replace(s, '&<>"', entities) else html = s end
  esc_of[s] = html
  return html
end

-- Doc text outside code spans: `_word_` is emphasis, as in the documents.
local function plain(s)
  s = esc(s)
  if find(s, "_", 1, true) then s = s:gsub("%f[%w_]_([^_%s][^_]-)_%f[^%w_]", "<em>%1</em>") end
  return s
end

local function doc_text(s)
  if not find(s, "`", 1, true) then return plain(s) end
  local out, i = {}, 1
  while i <= #s do
    local a, b = s:find("`[^`]+`", i)
    if not a then
      out[#out + 1] = plain(s:sub(i))
      break
    end
    out[#out + 1] = plain(s:sub(i, a - 1))
    out[#out + 1] = "<code>" .. esc(s:sub(a + 1, b - 1)) .. "</code>"
    i = b + 1
  end
  return table.concat(out)
end

-- The same texts come again and again (rule sources, "reader", "error"): each is escaped once.
local html_of = {}

-- One piece of rich text.
local function piece(s)
  -- (the cache first: most pieces are texts seen before, and type() is a call)
  local html = html_of[s]
  if html then return html end
  if type(s) == "string" then
    html = doc_text(s)
    html_of[s] = html
    return html
  elseif s.link then
    local label = s.code and ("<code>" .. esc(s.text) .. "</code>") or esc(s.text)
    return '<a href="' .. esc(s.link) .. '">' .. label .. "</a>"
  elseif s.code then
    return "<code>" .. esc(s.code) .. "</code>"
  elseif s.strong then
    return "<strong>" .. esc(s.strong) .. "</strong>"
  elseif s.em then
    return "<em>" .. esc(s.em) .. "</em>"
  elseif s.br then
    return "<br>"
  elseif s.anchor then
    return '<span id="' .. esc(s.anchor) .. '"></span>'
  end
  return ""
end

-- Most rich texts (table cells) are one piece: no list to join for them.
local function rich(r)
  local n = #r
  if n == 1 then return piece(r[1]) end
  if n == 0 then return "" end
  local out = {}
  for i = 1, n do out[i] = piece(r[i]) end
  return table.concat(out)
end

local CSS = [[
:root { --fg: #1c2330; --muted: #5d6776; --line: #d5dbe4; --head: #eef2f7; --code: #f2f4f8;
  --accent: #1f56c3; --warn: #fff3d1; --warnline: #d99a00; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 1.2rem 2rem 4rem; }
h1 { font-size: 1.9rem; margin: .4rem 0 .6rem; }
h2 { font-size: 1.45rem; margin: 2.6rem 0 .8rem; padding-bottom: .3rem; border-bottom: 2px solid var(--line); }
h3 { font-size: 1.2rem; margin: 2.2rem 0 .5rem; padding-top: .4rem; border-top: 1px solid var(--line); }
h4 { font-size: 1rem; margin: 1.2rem 0 .4rem; color: var(--muted); }
p { margin: .5rem 0; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code { font: .88em/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace;
  background: var(--code); padding: .05em .3em; border-radius: 3px; }
table { border-collapse: collapse; margin: .6rem 0 1.1rem; width: 100%; font-size: .93rem; }
th, td { border: 1px solid var(--line); padding: .32rem .55rem; text-align: left; vertical-align: top; }
th { background: var(--head); font-weight: 600; }
table.fields td:first-child { white-space: nowrap; }
tr.erratum > td { background: var(--warn); }
td strong { color: #7a4d00; }
.note { background: var(--warn); border-left: 4px solid var(--warnline); padding: .6rem .9rem; margin: .8rem 0; }
nav.toc { background: var(--head); padding: .5rem 1rem; border-radius: 6px; margin: 1rem 0; columns: 2; }
nav.toc ul { margin: .1rem 0; padding-left: 1.1rem; }
nav.toc > ul { padding-left: .4rem; list-style: none; }
.crumbs { color: var(--muted); }
.layout { display: grid; gap: 2px; margin: .4rem 0 1.4rem; max-width: 780px;
  font: 12px/1.3 ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; }
.layout .lh { color: var(--muted); text-align: center; }
.layout .lo { color: var(--muted); padding: .35rem .2rem; }
.layout .lf { display: block; padding: .35rem .4rem; border-radius: 3px; overflow: hidden; white-space: nowrap;
  text-overflow: ellipsis; color: #10203a; }
.layout .lf:hover { outline: 2px solid var(--accent); text-decoration: none; }
.layout .cont { opacity: .7; }
.c0 { background: #cfe0ff; } .c1 { background: #cdeed6; } .c2 { background: #ffe0c2; }
.c3 { background: #e6d8ff; } .c4 { background: #ffd3dc; } .c5 { background: #cdeeee; }
]]

local function layout(lay)
  local out = {}
  out[1] = string.format('<div class="layout" style="grid-template-columns: 4.5em repeat(%d, minmax(3.4em, 1fr))">',
    lay.width)
  local head = { '<div class="lh"></div>' }
  for i = 0, lay.width - 1 do head[#head + 1] = '<div class="lh">+' .. i .. "</div>" end
  out[2] = table.concat(head)
  for _, row in ipairs(lay.rows) do
    local cells = { '<div class="lo">' .. common.hex(row.offset) .. "</div>" }
    local used = 0
    for _, c in ipairs(row.cells) do
      local last = c.start + c.field_len - 1
      local title = string.format("%s: %s–%s, %d byte%s", c.name, common.hex(c.start), common.hex(last), c.field_len,
        c.field_len == 1 and "" or "s")
      cells[#cells + 1] = string.format('<a class="lf c%d%s" href="#%s" style="grid-column: span %d" title="%s">%s%s</a>',
        c.color, c.first and "" or " cont", esc(common.field_id(lay.type, c.name)), c.len, esc(title),
        c.first and "" or "… ", esc(c.name))
      used = used + c.len
    end
    if used < lay.width then
      cells[#cells + 1] = string.format('<div style="grid-column: span %d"></div>', lay.width - used)
    end
    out[#out + 1] = table.concat(cells)
  end
  out[#out + 1] = "</div>"
  return table.concat(out, "\n")
end

-- A table's HTML, its pieces appended to `out` (one list for the whole page, joined once:
-- a string per cell or table was made and copied again at each level).
local function table_html_into(out, t)
  local n = #out
  out[n + 1], out[n + 2], out[n + 3] = "<table", t.class and (' class="' .. t.class .. '"') or "", ">\n<thead><tr>"
  n = n + 3
  for _, h in ipairs(t.head) do
    out[n + 1], out[n + 2], out[n + 3] = "\n<th>", esc(h), "</th>"
    n = n + 3
  end
  out[n + 1] = "\n</tr></thead>\n<tbody>"
  n = n + 1
  local rows = t.rows
  for r = 1, #rows do -- (numeric loops: ipairs calls its iterator for every cell)
    local row = rows[r]
    out[n + 1] = row.erratum and '\n<tr class="erratum">' or "\n<tr>"
    n = n + 1
    for i = 1, #row do
      local cell = row[i]
      out[n + 1] = "<td>"
      n = n + 1
      for k = 1, #cell do
        out[n + 1] = piece(cell[k])
        n = n + 1
      end
      out[n + 1] = "</td>"
      n = n + 1
    end
    out[n + 1] = "</tr>"
    n = n + 1
  end
  out[n + 1] = "\n</tbody></table>"
end

local function toc(entries)
  local out = { '<nav class="toc"><strong>Contents</strong>', "<ul>" }
  local open = false
  for _, e in ipairs(entries) do
    local item = '<a href="#' .. esc(e.id) .. '">' .. esc(e.text) .. "</a>"
    if e.level == 2 then
      if open then out[#out + 1] = "</ul></li>" end
      out[#out + 1] = "<li>" .. item .. "<ul>"
      open = true
    else
      out[#out + 1] = "<li>" .. item .. "</li>"
    end
  end
  if open then out[#out + 1] = "</ul></li>" end
  out[#out + 1] = "</ul></nav>"
  return table.concat(out, "\n")
end

local function render(title, blocks)
  local out = { table.concat({ "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "<title>" .. esc(title) .. "</title>", "<style>", CSS, "</style>", "</head>", "<body>", "<main>" }, "\n") }
  -- each piece of the page on a line of its own
  local function w(s)
    out[#out + 1] = "\n"
    out[#out + 1] = s
  end
  for _, b in ipairs(blocks) do
    if b.h then
      w(string.format('<h%d id="%s">%s</h%d>', b.h, esc(b.id), rich(b.text), b.h))
    elseif b.p then
      w("<p>" .. rich(b.p) .. "</p>")
    elseif b.note then
      w('<div class="note">' .. rich(b.note) .. "</div>")
    elseif b.table then
      out[#out + 1] = "\n" -- (appended piece by piece, as w would have the table's text)
      table_html_into(out, b.table)
    elseif b.layout then
      w(layout(b.layout))
    elseif b.toc then
      w(toc(b.toc))
    end
  end
  w("</main>")
  w("</body>")
  w("</html>")
  out[#out + 1] = "\n"
  return table.concat(out)
end

function M.page(fmt) return render((fmt.title or fmt.name) .. " — binform", common.page(fmt)) end
function M.index(formats) return render("binform formats", common.index(formats, "html")) end

return M
