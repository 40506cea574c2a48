-- What the writer (c_writer.lua) and the builder's layout solver (c_builder.lua) share: the
-- body of a function whose runs of calls share one test, and the declarations it needs.
local names = require("names")
local scan = require("scan")

local B = {}

function B.new_env(fmt, ix)
  return { fmt = fmt, ix = ix, self = "s", root = "R", root_mut = "RW", counter = { n = 0 }, pos = "(int64_t)w->pos",
    plain = ix.plain }
end

function B.count_of(fl) return fl.fixed_count and tostring(fl.fixed_count) or ("s->" .. fl.name .. "_count") end

-- Text without its string literals (a field named `c` in a message is not the variable):
-- a literal is a quote and the next quote on the same line. (One pass in C, template_lib.c.)
function B.code_only(text) return scan.unquoted(text, false) end

-- Whether `code` uses the variable `name` (a name of word bytes): it appears after a byte
-- that is not a word byte, `.` or `>`, and before one that is not a word byte. (In C: a
-- plain search from Lua stopped at every `c` of a function body.)
function B.mentions(code, name) return scan.uses(code, name, ".>") end

-- The declarations a function body needs: the reading context `c`, the root `R`, the
-- writable root `RW`, each only where the body uses it.
function B.context_lines(fmt, ix, body)
  local code = B.code_only(table.concat(body, "\n"))
  local rt = names.ctype(fmt, ix.root.name)
  local o = {}
  local use_c, use_r = B.mentions(code, "c"), B.mentions(code, "R")
  if use_c then o[#o + 1] = "    bf_ctx *c = &w->c;" end
  if use_r then o[#o + 1] = string.format("    const %s *R = %s;", rt, use_c and "c->root" or "w->c.root") end
  if B.mentions(code, "RW") then o[#o + 1] = string.format("    %s *RW = w->root;", rt) end
  return o
end

-- `if (!a || !b ...)` over calls, wrapped to stay short.
local function call_chain(calls, indent)
  local o, line = {}, indent .. "if ("
  local width = 110
  for n, call in ipairs(calls) do
    local piece = "!" .. call .. (n < #calls and " ||" or ")")
    local open = line:byte(-1) == 40 -- the line ends with "(" (no pattern: it tries every byte)
    if #line + #piece > width and not open then
      o[#o + 1] = line
      line = indent .. "    " .. piece
    else
      line = line .. (open and "" or " ") .. piece
    end
  end
  o[#o + 1] = line
  o[#o + 1] = indent .. "    return 0;"
  return o
end

-- A body of statements where runs of calls share one test.
function B.body()
  local F = { lines = {}, calls = {} }
  local depth = 1
  local function ind() return names.indent(depth) end
  function F.flush()
    if #F.calls > 0 then
      for _, l in ipairs(call_chain(F.calls, ind())) do F.lines[#F.lines + 1] = l end
      F.calls = {}
    end
  end
  function F.line(s)
    F.flush()
    F.lines[#F.lines + 1] = ind() .. s
  end
  function F.call(c) F.calls[#F.calls + 1] = c end
  -- a field's statements: `calls` that can join the run, or `lines`
  function F.value(v)
    if v.calls then
      for _, c in ipairs(v.calls) do F.call(c) end
    else
      for _, l in ipairs(v.lines) do F.line(l) end
    end
  end
  function F.open(s) F.line(s); depth = depth + 1 end
  function F.indent(d) F.flush(); depth = depth + d end
  function F.close(s) depth = depth - 1; F.line(s or "}") end
  return F
end

-- `static int NAME(ARGS)` with the body's declarations and lines.
function B.func(fmt, ix, head, first, F)
  F.flush()
  local o = { head, "{" }
  for _, l in ipairs(first or {}) do o[#o + 1] = l end
  for _, l in ipairs(B.context_lines(fmt, ix, F.lines)) do o[#o + 1] = l end
  table.move(F.lines, 1, #F.lines, #o + 1, o) -- (one move, not a loop over every line)
  o[#o + 1] = "}"
  return table.concat(o, "\n")
end

-- A switch field's cases, for the writer and the solver alike: `call` ("write" or "solve")
-- for each case's type; `pool_line` (or nil) for the raw cases data is pooled into; `raw_line`
-- for the bytes of any other tag. Lines go to `w`.
function B.switch_cases(fmt, fl, w, call, pool_line, raw_line)
  local name = fl.name
  w(string.format("switch (s->%s.kind) {", name))
  local seen = {}
  for _, case in ipairs(fl.cases) do
    if case.type and not seen[case.type] then
      seen[case.type] = true
      w(string.format("case %s:", names.kind_const(fmt, case.type)))
      w(string.format('    if (!%s_%s(w, s->%s.%s, "%s", -1))', call, case.type, name, case.type, name))
      w("        return 0;")
      w("    break;")
    end
  end
  local pools = {}
  for i, case in ipairs(fl.cases) do
    if case.pool then pools[#pools + 1] = names.raw_case_kind(fmt, fl, i) end
  end
  if #pools > 0 then
    -- a pool's bytes are the data the builder placed into it, not its own
    for _, kind in ipairs(pools) do w(string.format("case %s:", kind)) end
    if pool_line then
      w("    " .. pool_line)
      w("        return 0;")
    end
    w("    break;")
  end
  w("default:")
  w("    " .. raw_line)
  w("        return 0;")
  w("}")
end

return B
