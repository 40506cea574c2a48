-- Packing C initializers and string literals into lines a reader can take in: at most
-- M.WIDTH characters, long strings split into adjacent literals (C joins them).
local names = require("names")

local M = {}
M.WIDTH = 160

-- How wide each byte is inside a C literal (names.cstring escapes byte by byte).
local literal_width = {}
for b = 0, 255 do literal_width[b] = #(names.c_escape[string.char(b)] or "x") end

-- A string as one or more adjacent C literals, the first fitting in `first` columns and the
-- others in `rest`: one literal per line of the text, a line too long split after a space.
function M.literals(s, first, rest)
  if #names.cstring(s) <= first then return { names.cstring(s) } end
  local out, room = {}, first
  for line in s:gmatch("[^\n]*\n?") do
    while line ~= "" do
      local cut = #line
      if #names.cstring(line) > room then
        -- the longest prefix whose literal fits, cut after its last space when it has one
        local fit, width, byte = 1, 2, string.byte
        for n = 1, #line do
          width = width + literal_width[byte(line, n)]
          if width > room then break end
          fit = n
        end
        local sp = line:sub(1, fit):match("^.*() ")
        cut = (sp and sp > fit // 3) and sp or fit
      end
      out[#out + 1] = names.cstring(line:sub(1, cut))
      line = line:sub(cut + 1)
      room = rest
    end
  end
  return out
end

-- `key = "text"` as items for M.pack: one item when it fits a line, else the key with the
-- first literal and one item per further literal.
function M.string_items(key, s, indent)
  if not s then return {} end
  local head = key and (key .. " = ") or ""
  local lits = M.literals(s, M.WIDTH - indent - #head - 2, M.WIDTH - indent - 2)
  local items = { head .. lits[1] }
  for i = 2, #lits do items[#items + 1] = { cont = lits[i] } end
  return items
end

-- Items joined by ", " into lines: the first starts with `open`, the others with `indent`
-- spaces, the last ends with `close`. An item {cont = text} continues the previous one
-- (a string literal) on a line of its own.
function M.pack(items, open, indent, close)
  local lines, cur = {}, open
  local pad = string.rep(" ", indent)
  local fresh = true -- nothing on the current line yet but its opening
  local n, width = #items, M.WIDTH
  -- (which items are literals continued is asked once per item: type() is a call)
  local it_cont = n > 0 and type(items[1]) == "table"
  for i = 1, n do
    local it = items[i]
    if it_cont then
      lines[#lines + 1] = cur
      cur = pad .. it.cont
    else
      local sep = fresh and "" or ", "
      local tail = i == n and close or ","
      if not fresh and #cur + #sep + #it + #tail > width then
        lines[#lines + 1] = cur .. ","
        cur = pad .. it
      else
        cur = cur .. sep .. it
      end
    end
    fresh = false
    -- a continued literal ends its line
    local nxt = items[i + 1]
    local nxt_cont = nxt ~= nil and type(nxt) == "table"
    if nxt_cont then
      -- nothing: the next item starts its own line
    elseif it_cont and nxt then
      lines[#lines + 1] = cur .. ","
      cur = pad
      fresh = true
    end
    it_cont = nxt_cont
  end
  lines[#lines + 1] = cur .. close
  return lines
end

return M
