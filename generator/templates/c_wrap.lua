-- Keeps generated C within 160 columns: every C file bfgen writes goes through here last.
--
-- A longer line is broken between its tokens (never inside a name, number or operator): at
-- the top-level separators of the outermost bracket that has them, the loosest kind first
-- (`;` and `,` after, then `=`, `?:`, `||`, `&&` and the other binary operators before).
-- Continuation lines are aligned after the open bracket, or indented 8 more than the line
-- when that is too far right. String literals too long for a line become adjacent literals
-- ("..." "..." is one string to C: the bytes do not change), and long comments go on on the
-- next lines. Newlines and spaces between tokens are all this adds, so the program is the
-- same (nothing here uses __LINE__). Preprocessor lines are left alone but for comments.
local M = {}

local LIMIT = 160
-- Past this column, a bracket's contents start on a new line instead of after it.
local ALIGN_MAX = 100

-- ---- tokens ---------------------------------------------------------------------------

local ops3 = { ["<<="] = true, [">>="] = true, ["..."] = true }
local ops2 = {}
for _, op in ipairs({ "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=",
  "%=", "&=", "^=", "|=", "##" }) do ops2[op] = true end

-- The kind of token each byte starts (one lookup instead of pattern matches per character).
local starts = {}
for b = 0, 255 do
  local ch = string.char(b)
  if ch:match("%s") then starts[b] = "ws"
  elseif ch:match("%d") then starts[b] = "num"
  elseif ch:match("[%w_]") then starts[b] = "word"
  elseif ch == '"' or ch == "'" then starts[b] = "quote"
  elseif ch:match("[%(%[{]") then starts[b] = "open"
  elseif ch:match("[%)%]}]") then starts[b] = "close"
  elseif ch == "/" then starts[b] = "slash"
  else starts[b] = "op" end
end
local literal_end = { [34] = '[\\"]', [39] = "[\\']" }

-- The tokens of `line`: { t = kind, s = text, p = first byte, e = last byte }, kinds ws, comment, str, chr, word, op, open,
-- close. `in_comment`: the line starts inside a /* comment. Returns the tokens and whether
-- the line ends inside one.
local function tokens(line, in_comment)
  local byte, find, sub = string.byte, string.find, string.sub
  local out, c, i, n = {}, 0, 1, #line
  if in_comment then
    local e = find(line, "*/", 1, true)
    if not e then return { { t = "comment", s = line, p = 1, e = n } }, true end
    c = 1
    out[1] = { t = "comment", s = sub(line, 1, e + 1), p = 1, e = e + 1 }
    i = e + 2
  end
  while i <= n do
    local b = byte(line, i)
    local kind = starts[b]
    local t, j = kind, i
    if kind == "ws" then
      local _, e = find(line, "^%s*", i)
      j = e
    elseif kind == "word" then
      local _, e = find(line, "^[%w_]*", i)
      j = e
    elseif kind == "num" then
      -- a number, with the sign of its exponent (1e-3, 0x1p+4)
      t = "word"
      while j <= n do
        local ch = sub(line, j + 1, j + 1)
        if ch:match("[%w_%.]") then j = j + 1
        elseif (ch == "+" or ch == "-") and sub(line, j, j):match("[eEpP]") and not sub(line, i, i + 1):match("0[xX]") then j = j + 1
        elseif (ch == "+" or ch == "-") and sub(line, j, j):match("[pP]") then j = j + 1
        else break end
      end
    elseif kind == "quote" then
      t = b == 34 and "str" or "chr"
      local pat = literal_end[b]
      j = i + 1
      while true do
        local q = find(line, pat, j)
        if not q then j = n; break end
        if byte(line, q) == 92 then j = q + 2 else j = q; break end
      end
    elseif kind == "slash" and byte(line, i + 1) == 42 then -- /*
      t = "comment"
      local e = find(line, "*/", i + 2, true)
      if not e then
        out[c + 1] = { t = "comment", s = sub(line, i), p = i, e = n }
        return out, true
      end
      j = e + 1
    elseif kind == "slash" and byte(line, i + 1) == 47 then -- //
      t, j = "comment", n
    elseif kind == "op" or kind == "slash" then
      t = "op"
      if ops3[sub(line, i, i + 2)] then j = i + 2
      elseif ops2[sub(line, i, i + 1)] then j = i + 1 end
    end
    c = c + 1
    out[c] = { t = t, s = sub(line, i, j), p = i, e = j }
    i = j + 1
  end
  return out, false
end

-- Tokens into a tree: a group is { t = "group", open, items, close }. Brackets the line does
-- not close (or closes without opening) stay plain tokens.
local function tree(toks)
  local root = { items = {} }
  local stack = { root }
  for _, tk in ipairs(toks) do
    local top = stack[#stack]
    if tk.t == "open" then
      local g = { t = "group", open = tk, items = {} }
      top.items[#top.items + 1] = g
      stack[#stack + 1] = g
    elseif tk.t == "close" and #stack > 1 then
      top.close = tk
      top.p, top.e = top.open.p, tk.e
      stack[#stack] = nil
    else
      top.items[#top.items + 1] = tk
    end
  end
  -- unclosed groups: their bracket and items go back into the parent, in order
  while #stack > 1 do
    local g = table.remove(stack)
    local parent = stack[#stack].items
    table.remove(parent)
    parent[#parent + 1] = g.open
    for _, it in ipairs(g.items) do parent[#parent + 1] = it end
  end
  return root.items
end

-- The line being laid out: every item is a stretch of it (p to e), so the text of a group
-- or of a run of items is one sub.
local line_src = ""

local function text(it)
  return it.s or string.sub(line_src, it.p, it.e)
end

local function width(it)
  return it.e - it.p + 1
end

local function seq_text(items, from, to)
  from, to = from or 1, to or #items
  if from > to then return "" end
  return string.sub(line_src, items[from].p, items[to].e)
end

-- Without the white space at both ends.
local function trim(items)
  local a, b = 1, #items
  while a <= b and items[a].t == "ws" do a = a + 1 end
  while b >= a and items[b].t == "ws" do b = b - 1 end
  return table.move(items, a, b, 1, {})
end

-- ---- where a sequence may break ------------------------------------------------------------

-- The assignment operators: one class of separators, broken after the first only.
local assign = { ["="] = true, ["+="] = true, ["-="] = true, ["*="] = true, ["/="] = true, ["%="] = true,
  ["&="] = true, ["^="] = true, ["|="] = true, ["<<="] = true, [">>="] = true }
-- Each separator's class (its index, loosest first): `?` and `:` only in a conditional.
local class_of = { [";"] = 1, [","] = 2, ["?"] = 4, [":"] = 4, ["||"] = 5, ["&&"] = 6, ["|"] = 7, ["^"] = 8,
  ["&"] = 9, ["=="] = 10, ["!="] = 10, ["<"] = 11, [">"] = 11, ["<="] = 11, [">="] = 11, ["<<"] = 12,
  [">>"] = 12, ["+"] = 13, ["-"] = 13 }
for op in pairs(assign) do class_of[op] = 3 end
local CLASSES = 13
local break_after = { true, true, true }
local first_only = { [3] = true }
-- the operators that are separators only as binary ones (not unary & + -, not a cast's *)
local binary_only = { [7] = true, [8] = true, [9] = true, [11] = true, [13] = true }

local keywords = { ["return"] = true, ["case"] = true, ["sizeof"] = true, ["else"] = true }

-- Whether the token before position k ends an operand (so that an operator at k is binary).
local function after_operand(items, k)
  for j = k - 1, 1, -1 do
    local it = items[j]
    if it.t ~= "ws" and it.t ~= "comment" then
      return (it.t == "word" and not keywords[it.s]) or it.t == "group" or it.t == "str" or it.t == "chr" or it.t == "close"
    end
  end
  return false
end

-- The top-level separators of `items` of the loosest class present: their positions and
-- whether the break comes after them. nil when there are none.
local function separators(items)
  local cond, n = false, #items
  for k = 1, n do
    local it = items[k]
    if it.t == "op" and it.s == "?" then cond = true; break end
  end
  local found = {}
  for k = 2, n do
    local it = items[k]
    if it.t == "op" then
      local cl = class_of[it.s]
      if cl and (cl ~= 4 or cond) and (not binary_only[cl] or after_operand(items, k)) then
        local at = found[cl]
        if not at then at = {}; found[cl] = at end
        at[#at + 1] = k
      end
    end
  end
  for cl = 1, CLASSES do
    local at = found[cl]
    if at then
      -- a break after the last token gains nothing
      if break_after[cl] and at[#at] == n then at[#at] = nil end
      if #at > 0 then
        if first_only[cl] then return { at[1] }, true end -- one assignment: break after the first
        return at, break_after[cl] == true
      end
    end
  end
  return nil
end

-- ---- laying out -----------------------------------------------------------------------------

local Layout = {}
Layout.__index = Layout

local function new_layout()
  return setmetatable({ lines = {}, cur = "" }, Layout)
end

function Layout:col() return #self.cur end
function Layout:emit(s) self.cur = self.cur .. s end
function Layout:newline(col)
  self.lines[#self.lines + 1] = (self.cur:gsub("%s+$", ""))
  self.cur = string.rep(" ", col)
end

-- Splits a string literal into adjacent ones that fit, breaking after a space where it can.
function Layout:string(s, cont, reserve)
  local units = {}
  local body = s:sub(2, -2)
  local i = 1
  while i <= #body do
    local j = i
    if body:sub(i, i) == "\\" then
      local nx = body:sub(i + 1, i + 1)
      if nx == "x" then j = (body:find("[^%x]", i + 2) or #body + 1) - 1
      elseif nx:match("[0-7]") then j = i + #body:match("^[0-7]+", i + 1):sub(1, 3)
      else j = i + 1 end
    else
      -- a UTF-8 sequence stays whole
      while body:sub(j + 1, j + 1):match("[\128-\191]") do j = j + 1 end
    end
    units[#units + 1] = body:sub(i, j)
    i = j + 1
  end
  local k = 1
  while k <= #units do
    local room = LIMIT - self:col() - 2
    local rest = 0
    for m = k, #units do rest = rest + #units[m] end
    if rest + reserve <= room then
      self:emit('"' .. table.concat(units, "", k) .. '"')
      return
    end
    -- as many units as fit (one left for the next line), ending after the last \n or else
    -- the last space in the second half when there is one
    local take, used, space, nl = k - 1, 0, nil, nil
    while take < #units - 1 and used + #units[take + 1] <= room do
      take = take + 1
      used = used + #units[take]
      if used > room / 2 then
        if units[take] == " " then space = take elseif units[take] == "\\n" then nl = take end
      end
    end
    space = nl or space
    if take < k then
      if self:col() > cont then self:newline(cont) else take = k end
    end
    if take >= k then
      if space and take < #units then take = space end
      self:emit('"' .. table.concat(units, "", k, take) .. '"')
      k = take + 1
      if k <= #units then self:newline(cont) end
    end
  end
end

-- Breaks a /* */ (or //) comment at its spaces; its lines go on under its text.
function Layout:comment(s, reserve)
  local col = self:col()
  local line_comment = s:sub(1, 2) == "//"
  local words = {}
  for w in s:gmatch("%S+") do words[#words + 1] = w end
  local cont = line_comment and col or col + 3
  local first = true
  for k, w in ipairs(words) do
    local r = k == #words and reserve or 0
    if first then
      self:emit(w)
      first = false
    elseif self:col() + 1 + #w + r <= LIMIT or self:col() <= cont + 3 then
      self:emit(" " .. w)
    else
      self:newline(cont)
      self:emit((line_comment and "// " or "") .. w)
    end
  end
end

-- Whether a bracket's contents have anywhere to break (a cast like (int64_t) has not).
local function breakable(items)
  for _, it in ipairs(items) do
    if it.t == "group" or it.t == "str" or it.t == "comment" or (it.t == "op" and it.s ~= "->" and it.s ~= ".") then return true end
  end
  return false
end

-- The tokens of `items` as parallel lists of kind, text and bracket depth (a bracket has
-- its outside's depth), and the running total of the texts' widths.
local function flatten(items, depth, kind, txt, dep, upto)
  for _, it in ipairs(items) do
    if it.t == "group" then
      flatten({ it.open }, depth, kind, txt, dep, upto)
      flatten(it.items, depth + 1, kind, txt, dep, upto)
      flatten({ it.close }, depth, kind, txt, dep, upto)
    else
      local k = #kind + 1
      kind[k], txt[k], dep[k] = it.t, it.s, depth
      upto[k] = upto[k - 1] + #it.s
    end
  end
end

-- A line may end this much short of the limit to break at a shallower place.
local SLACK = 40

-- Fills lines with `items`, breaking after a comma or before && || ? : at any depth, on
-- each line at the shallowest such place in its last SLACK columns: for calls nested in
-- calls, which aligned would run off to the right.
function Layout:fill(items, cont, reserve)
  local kind, txt, dep, upto = {}, {}, {}, { [0] = 0 }
  flatten(items, 0, kind, txt, dep, upto)
  local n = #kind
  local ternary = false
  for k = 1, n do
    if kind[k] == "op" and txt[k] == "?" then ternary = true; break end
  end
  -- brk[k]: a line may end after token k
  local brk = {}
  for k = 1, n do
    if kind[k] == "op" then
      local s = txt[k]
      if s == "," or s == ";" then brk[k] = dep[k] end
      if s == "&&" or s == "||" or (ternary and (s == "?" or s == ":")) then
        local j = k - 1
        while j > 0 and kind[j] == "ws" do j = j - 1 end
        if j > 0 then brk[j] = dep[k] end
      end
    end
  end
  local pos = 1
  while pos <= n do
    while pos <= n and kind[pos] == "ws" and self.cur:match("^%s*$") do pos = pos + 1 end
    -- the best place to end this line: the shallowest in its last SLACK columns, the farthest
    local start, best, best_depth, rest_fits = self:col() - upto[pos - 1], nil, math.huge, false
    for k = pos, n do
      local col = start + upto[k]
      if k == n then
        rest_fits = col + reserve <= LIMIT
        break
      end
      if col > LIMIT then break end
      local d = brk[k]
      if d then
        local weight = col >= LIMIT - SLACK and d or d + 1000
        if weight <= best_depth then best, best_depth = k, weight end
      end
    end
    if rest_fits then
      self:emit(table.concat(txt, "", pos, n))
      return
    end
    local last = best
    if not last then
      -- nothing fits: up to the next break, its strings and comments split
      last = n
      for k = pos, n - 1 do
        if brk[k] then last = k; break end
      end
      for k = pos, last do
        local s = txt[k]
        local after = upto[last] - upto[k]
        if last == n then after = after + reserve end
        if kind[k] == "str" and self:col() + #s + after > LIMIT then
          self:string(s, cont, after)
        elseif kind[k] == "comment" and self:col() + #s + after > LIMIT then
          self:comment(s, after)
        else
          self:emit(s)
        end
      end
    else
      self:emit(table.concat(txt, "", pos, last))
    end
    pos = last + 1
    if pos <= n then self:newline(cont) end
  end
end

-- Lays `items` out from the current column; continuation lines start at `cont`, and
-- `reserve` columns must stay free after the last item (what follows it on the line).
function Layout:seq(items, cont, reserve)
  items = trim(items)
  if #items == 0 then return end
  local total = 0
  for _, it in ipairs(items) do total = total + width(it) end
  if self:col() + total + reserve <= LIMIT then
    self:emit(seq_text(items))
    return
  end
  local at, after = separators(items)
  if at then
    -- segments between the separators: each on the line if it fits, else on a new one,
    -- when every one fits on a line of its own; else the whole is filled (nested calls)
    local segs, from = {}, 1
    for _, k in ipairs(at) do
      local to = after and k or k - 1
      segs[#segs + 1] = { from, to }
      from = to + 1
    end
    segs[#segs + 1] = { from, #items }
    for n, sg in ipairs(segs) do
      local seg = trim(table.move(items, sg[1], sg[2], 1, {}))
      local w = 0
      for _, it in ipairs(seg) do w = w + width(it) end
      segs[n] = { items = seg, w = w, r = n == #segs and reserve or 0 }
    end
    if #segs == 2 and after and assign[items[at[1]].s] then
      -- `x = value`: the value on this line, or on the next, or broken itself
      self:emit(seq_text(segs[1].items))
      local v = segs[2]
      if self:col() + 1 + v.w + v.r > LIMIT and cont + v.w + v.r <= LIMIT then
        self:newline(cont)
      else
        self:emit(" ")
      end
      return self:seq(v.items, cont, v.r)
    end
    for n, sg in ipairs(segs) do
      if cont + sg.w + sg.r > LIMIT and (n > 1 or self:col() + sg.w + sg.r > LIMIT) then
        return self:fill(items, cont > ALIGN_MAX and self.base + 8 or cont, reserve)
      end
    end
    for n, sg in ipairs(segs) do
      if n > 1 then
        if self:col() + 1 + sg.w + sg.r <= LIMIT then self:emit(" ") else self:newline(cont) end
      end
      self:emit(seq_text(sg.items))
    end
    return
  end
  -- no separator: tokens as they are, brackets opened where they do not fit
  for k, it in ipairs(items) do
    -- what must follow on this line: up to the next bracket that could open
    local r = 0
    local m = k + 1
    while m <= #items and items[m].t ~= "group" do
      r = r + width(items[m])
      m = m + 1
    end
    if m > #items then r = r + reserve else r = r + 1 end
    if it.t == "group" and self:col() + width(it) + r > LIMIT and breakable(it.items) then
      self:emit(it.open.s)
      local inner = self:col()
      if inner > ALIGN_MAX then
        inner = self.base + 8
        self:newline(inner)
      end
      self:seq(it.items, inner, r + #it.close.s)
      self:emit(it.close.s)
    elseif it.t == "str" and self:col() + width(it) + r > LIMIT then
      self:string(it.s, self:col() > ALIGN_MAX and self.base + 8 or self:col(), r)
    elseif it.t == "comment" and self:col() + width(it) + r > LIMIT then
      self:comment(it.s, r)
    elseif it.t == "ws" and self.cur:match("^%s*$") then
      -- no white space at the start of a continuation line
    else
      self:emit(text(it))
    end
  end
end

-- ---- lines and files ------------------------------------------------------------------------

-- The lines a long line becomes (`in_comment`: it starts inside a comment).
-- Whether a comment is still open after `line` (one was open before it: `in_comment`),
-- skipping string and character literals and // comments: the short lines' cheap path.
local function comment_after(line, in_comment)
  local i = 1
  while true do
    if in_comment then
      local e = line:find("*/", i, true)
      if not e then return true end
      in_comment, i = false, e + 2
    else
      local at = line:find("[\"'/]", i)
      if not at then return false end
      local ch = line:sub(at, at)
      if ch == "/" then
        local nx = line:sub(at + 1, at + 1)
        if nx == "*" then in_comment, i = true, at + 2
        elseif nx == "/" then return false
        else i = at + 1 end
      else -- a literal: to its closing quote, past escapes
        i = at + 1
        while true do
          local q = line:find("[\\" .. ch .. "]", i)
          if not q then return false end
          if line:sub(q, q) == "\\" then i = q + 2 else i = q + 1; break end
        end
      end
    end
  end
end

local function wrap_line(line, in_comment)
  if #line <= LIMIT then return { line }, comment_after(line, in_comment) end
  local toks, still = tokens(line, in_comment)
  if #line <= LIMIT then return { line }, still end
  line_src = line
  local lead = line:match("^%s*")
  local out = new_layout()
  out.cur = lead
  out.base = #lead
  if in_comment or line:match("^%s*#") then
    -- comments only: a preprocessor line's code would need backslashes
    for _, tk in ipairs(toks) do
      if tk.t == "comment" and out:col() + #tk.s > LIMIT then
        if in_comment and tk == toks[1] then
          local star = tk.s:match("^%s*%*%s") or lead
          out.cur = ""
          out:emit(star)
          local body = tk.s:sub(#star + 1)
          local cont = #star
          for w in body:gmatch("%S+") do
            if out:col() > cont and out:col() + 1 + #w > LIMIT then
              out:newline(0)
              out:emit(star)
              out:emit(w)
            else
              out:emit((out:col() > cont and " " or "") .. w)
            end
          end
        else
          out:comment(tk.s, 0)
        end
      elseif not (tk.t == "ws" and out.cur:match("^%s*$")) then
        out:emit(tk.s)
      end
    end
  else
    out:seq(tree(toks), #lead + 8, 0)
  end
  out.lines[#out.lines + 1] = (out.cur:gsub("%s+$", ""))
  return out.lines, still
end

-- The C text `src` with no line over LIMIT columns (where the rules above can break it).
-- Short lines are copied in runs as they are; only a line with a `/` (or one inside a
-- comment) is looked at, to know whether a comment is open at the next long line.
function M.c(src)
  local find, sub = string.find, string.sub
  local ends_nl = sub(src, -1) == "\n"
  if not ends_nl then src = src .. "\n" end
  local out, in_comment, pos, copied, n = {}, false, 1, 1, #src
  local slash = find(src, "/", 1, true) or n + 1
  while pos <= n do
    local e = find(src, "\n", pos, true)
    if e - pos > LIMIT then
      out[#out + 1] = sub(src, copied, pos - 1)
      local lines
      lines, in_comment = wrap_line(sub(src, pos, e - 1), in_comment)
      out[#out + 1] = table.concat(lines, "\n") .. "\n"
      copied = e + 1
    else
      if slash < pos then slash = find(src, "/", pos, true) or n + 1 end
      if in_comment or slash < e then in_comment = comment_after(sub(src, pos, e - 1), in_comment) end
    end
    pos = e + 1
  end
  out[#out + 1] = sub(src, copied)
  local res = table.concat(out)
  return ends_nl and res or sub(res, 1, -2)
end

-- Every .c and .h file of a template's `files` table, wrapped.
function M.files(files)
  for name, src in pairs(files) do
    if name:match("%.[ch]$") then files[name] = M.c(src) end
  end
  return files
end

return M
