-- Packing C initializers and string literals into lines a reader can take in: at most
-- M.WIDTH characters, long strings split into adjacent literals (C joins them).

-- (pack and literals are C, c_pack.c: they run for every member of every meta table)
local c_pack = require("c_pack")

local M = {}
M.WIDTH = c_pack.WIDTH -- 160, where c_pack.c packs

-- A string as one or more adjacent C literals, the first fitting in `first` columns and the
-- others in `rest`: one literal per line of the text, a line too long split after a space.
M.literals = c_pack.literals

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
M.pack = c_pack.pack

return M
