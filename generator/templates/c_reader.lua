-- <format>.c, reading part: one read function per type, one link function per type that
-- resolves strings, and the entry points. Each field is one or two calls of the runtime's
-- read steps (bf_gen.h): the checks and their error messages live there, once.
local names = require("names")
local cexpr = require("cexpr")

local R = {}

local function ct(fmt, t) return names.ctype(fmt, t) end

-- A type whose bytes are all inline and fixed: one bounds check covers it. `seen` holds the
-- types on the current path only: two fields of one type are siblings, not a recursion.
-- (asked again and again by every template: the answer for a type is kept)
local flat_of = setmetatable({}, { __mode = "k" })

local function is_flat(ix, t, seen)
  if not t.size then return false end
  if not seen then
    local known = flat_of[t]
    if known == nil then
      known = is_flat(ix, t, {})
      flat_of[t] = known
    end
    return known
  end
  if seen[t.name] then return false end
  seen[t.name] = true
  local flat = true
  for _, fl in ipairs(t.fields) do
    if fl.pos or fl.cond or fl.align or fl.size then flat = false; break end
    if fl.kind == "struct" then
      if not is_flat(ix, ix.types[fl.type], seen) then flat = false; break end
    elseif fl.kind ~= "prim" and fl.kind ~= "str" and fl.kind ~= "bytes" then
      flat = false; break
    end
  end
  seen[t.name] = nil
  return flat
end
R.is_flat = is_flat

local function offset_of(fl)
  if fl.offset then return string.format("s->_offset + %d", fl.offset) end
  return "s->" .. fl.name .. "_at"
end
R.offset_of = offset_of

-- Text of a schema expression inside a C string literal.
local function quoted(text) return (text:gsub("%%", "%%%%"):gsub('"', '\\"')) end

-- The read call's arguments after the field name: the element's index, then the type's
-- parameters (in them, _index is the element's index).
local function args_c(ix, env, fl, index_c)
  local t = ix.types[fl.type]
  local parts = { index_c }
  -- outside arrays the frame has no index (-1) and _index is 0
  env = setmetatable({ index = "(int64_t)" .. (index_c == "-1" and "0" or index_c) }, { __index = env })
  for _, p in ipairs(t.params) do parts[#parts + 1] = cexpr.value(fl.args[p.name], env) end
  return table.concat(parts, ", ")
end

-- The check of number field `fl`'s constant (`const:`) on its value `val` (C text), failing
-- at byte offset `at`: the reader's and the views' (c_view.lua), so that both say the same.
function R.check_const(w, fl, val, at, env)
  local e2 = setmetatable({ value = val, elem_field = fl }, { __index = env })
  local text = quoted(fl.const.text)
  if fl.float then
    w(string.format("if ((double)%s != (double)(%s))", val, cexpr.cf(fl.const, e2)))
    w(string.format('    return bf_fail(c, %s, "%s", "expected %s, found %%g", (double)%s);', at, fl.name, text, val))
  else
    w(string.format("if ((int64_t)%s != %s)", val, cexpr.c(fl.const, e2)))
    w(string.format('    return bf_fail(c, %s, "%s", "expected %s, found %%lld (0x%%llx)",', at, fl.name, text))
    w(string.format("                   (long long)%s, (unsigned long long)%s);", val, val))
  end
end

-- The runtime's name for a number's encoding: u16be, s24le, f32be, u8...
local function encoding(fl)
  local prim = fl.prim == "char" and "u8" or fl.prim
  if fl.prim_size == 1 then return prim end
  return prim .. fl.endian
end

-- One number taken at the cursor inside a structure checked as a whole (bf_need_all).
local function take_c(fl)
  local bits = fl.prim_size * 8
  local unsigned = string.format("bf_take_u%d%s(c)", bits, bits > 8 and fl.endian or "")
  local wrap = {
    s8 = "bf_s8", s16 = "bf_s16", s24 = "bf_s24", s32 = "bf_s32", s64 = "bf_s64",
    f32 = "bf_f32_from_bits", f64 = "bf_f64_from_bits",
  }
  return wrap[fl.prim] and string.format("%s(%s)", wrap[fl.prim], unsigned) or unsigned
end

local function derive_c(fl, env, value_c)
  if fl.fixed_frac then
    return string.format("(double)(%s) / %d.0", value_c, 1 << fl.fixed_frac)
  end
  local e2 = setmetatable({ value = value_c }, { __index = env })
  return cexpr.cf(fl.derive, e2)
end

-- Storage for an array field whose count the file gives: `min` bytes per element at least.
-- `also` is a further step that must succeed (the elements' read), else nil.
local function alloc_counted(w, fl, env, min, also)
  w(string.format('s->%s = bf_alloc_counted(c, %s, sizeof *s->%s, %d, "%s", &s->%s_count);',
    fl.name, cexpr.value(fl.count, env), fl.name, min, fl.name, fl.name))
  w(string.format("if (!s->%s%s)", fl.name, also and (" || !" .. also) or ""))
  w("    return 0;")
end

-- The loop over an array field's elements, each read by the lines `body` gives for element
-- `i`. The count is copied: stores into the elements could otherwise alias it.
local function each(w, fl, body)
  if fl.fixed_count then
    w(string.format("for (uint32_t i = 0; i < %d; i++)", fl.fixed_count))
  else
    w(string.format("for (int64_t i = 0, n = s->%s_count; i < n; i++)", fl.name))
  end
  for _, l in ipairs(body("i")) do w("    " .. l) end
end

-- Reading a field's value (no cond/align/pos/size around it), by the field's kind. Each
-- function gets `w` (adds a line), the field, the read function's env and whether the type is
-- flat (its bytes checked and claimed at once).
local read_kind = {}

local function read_number(w, fl, env, flat)
  local name = fl.name
  if flat then
    w(string.format("s->%s = %s;", name, take_c(fl)))
  else
    w(string.format('if (!bf_read_%s(c, "%s", &s->%s))', encoding(fl), name, name))
    w("    return 0;")
  end
  if fl.const then
    local at = flat and string.format("s->_offset + %d", fl.offset) or string.format("c->pos - %d", fl.prim_size)
    R.check_const(w, fl, "s->" .. name, at, env)
  end
  for _, b in ipairs(fl.bits) do
    local mask = b.width >= 64 and "UINT64_MAX" or string.format("UINT64_C(0x%X)", (1 << b.width) - 1)
    local raw = string.format("((uint64_t)s->%s >> %d) & %s", name, b.shift, mask)
    if b.shift == 0 then raw = string.format("(uint64_t)s->%s & %s", name, mask) end
    if b.signed then raw = string.format("bf_sext(%s, %d)", raw, b.width) end
    w(string.format("s->%s_%s = %s;", name, b.name, raw))
  end
  if fl.derive or fl.fixed_frac then
    w(string.format("s->%s_value = %s;", name, derive_c(fl, env, "s->" .. name)))
  end
end

-- An array of numbers: counted (one runtime call), or read element by element up to a
-- terminator or the region's end.
local function read_numbers(w, fl, env, flat)
  local name, width = fl.name, fl.prim_size
  if fl.fixed_count and flat then -- a few elements, checked with the structure: unrolled
    w(string.format("for (int i = 0; i < %d; i++)", fl.fixed_count))
    local load = width == 1 and (fl.prim == "s8" and "bf_s8(c->data[c->pos + i])" or "c->data[c->pos + i]")
      or names.load(fl.prim, fl.endian, string.format("c->data + c->pos + %d * i", width))
    w(string.format("    s->%s[i] = %s;", name, load))
    w(string.format("c->pos += %d;", fl.fixed_count * width))
  elseif fl.count then
    local flags = {}
    if width > 1 and fl.endian == "be" then flags[#flags + 1] = "BF_BIG_ENDIAN" end
    if fl.prim == "s24" then flags[#flags + 1] = "BF_SIGN24" end
    local function read(n_c)
      return string.format('bf_read_numbers(c, s->%s, %s, %d, %s, "%s")', name, n_c, width,
        #flags > 0 and table.concat(flags, " | ") or "0", name)
    end
    if fl.fixed_count then
      w(string.format("if (!%s)", read(tostring(fl.fixed_count))))
      w("    return 0;")
    else
      alloc_counted(w, fl, env, width, read(string.format("s->%s_count", name)))
    end
  else
    w("{")
    w("    uint32_t n = 0, cap = 0;")
    w(string.format("    %s *buf = NULL;", names.prim_ctype(fl.prim)))
    w("    for (;;) {")
    if fl.to_end then
      w("        if (c->pos >= c->end)")
      w("            break;")
    end
    w(string.format('        if (n == cap && !(buf = bf_grow(c, buf, n, &cap, sizeof *buf, "%s")))', name))
    w("            return 0;")
    if fl["until"] then
      w(string.format("        if (c->pos + %d > c->end)", width))
      w(string.format('            return bf_fail(c, c->pos, "%s", "ends without its terminator (%s)");', name, quoted(fl["until"].text)))
    end
    w(string.format('        if (!bf_read_%s(c, "%s", &buf[n]))', encoding(fl), name))
    w("            return 0;")
    w("        n++;")
    if fl["until"] then
      local e2 = setmetatable({ it = "buf[n - 1]", elem_field = fl }, { __index = env })
      w(string.format("        if (%s)", cexpr.cond(fl["until"], e2)))
      w("            break;")
    end
    w("    }")
    w(string.format("    s->%s = buf;", name))
    w(string.format("    s->%s_count = n;", name))
    w("}")
  end
  if fl.derive or fl.fixed_frac then
    if not fl.fixed_count then
      w(string.format('s->%s_value = bf_alloc_array(c, s->%s_count, sizeof(double), 0, "%s");', name, name, name))
      w(string.format("if (!s->%s_value)", name))
      w("    return 0;")
    end
    each(w, fl, function(i)
      return { string.format("s->%s_value[%s] = %s;", name, i, derive_c(fl, env, string.format("s->%s[%s]", name, i))) }
    end)
  end
end

function read_kind.prim(w, fl, env, flat)
  if fl.array then read_numbers(w, fl, env, flat) else read_number(w, fl, env, flat) end
end

-- Structures read up to a terminating element (until:) or the region's end (to_end:).
local function read_structs_until(w, fmt, ix, fl, env)
  local name, tc = fl.name, ct(fmt, fl.type)
  local prev = setmetatable({ prev = string.format("(n ? &buf[n - 1] : &%s_zero)", tc), elem_field = fl }, { __index = env })
  w("{")
  w("    uint32_t cap = 0;")
  w(string.format("    %s *buf = NULL;", tc))
  w("    for (uint32_t n = 0;; n++) {")
  w("        if (c->pos >= c->end)")
  if fl.to_end then
    w("            break;")
  else
    w(string.format('            return bf_fail(c, c->pos, "%s", "ends without its terminator (%s)");', name, quoted(fl["until"].text)))
  end
  w(string.format('        if (n == cap && !(buf = bf_grow(c, buf, n, &cap, sizeof *buf, "%s")))', name))
  w("            return 0;")
  w(string.format("        s->%s = buf; /* what is read so far stays visible in a partial document */", name))
  w(string.format("        s->%s_count = n + 1;", name))
  w("        size_t before = c->pos;")
  w(string.format('        if (!read_%s(c, &buf[n], "%s", %s))', fl.type, name, args_c(ix, prev, fl, "n")))
  w("            return 0;")
  if fl["until"] then
    local e2 = setmetatable({ it = "(&buf[n])", elem_field = fl }, { __index = env })
    w(string.format("        if (%s)", cexpr.cond(fl["until"], e2)))
    w("            break;")
  end
  w("        if (c->pos == before)")
  w(string.format('            return bf_fail(c, c->pos, "%s", "element %%u takes no bytes: the array would never end", (unsigned)n);', name))
  w("    }")
  w("}")
end

function read_kind.struct(w, fl, env, flat, fmt, ix)
  local name, tc = fl.name, ct(fmt, fl.type)
  if not fl.array then
    w(string.format('if (!read_%s(c, &s->%s, "%s", %s))', fl.type, name, name, args_c(ix, env, fl, "-1")))
    w("    return 0;")
  elseif fl.count then
    if not fl.fixed_count then alloc_counted(w, fl, env, ix.types[fl.type].min_size) end
    local prev = setmetatable({ prev = string.format("(i ? &s->%s[i - 1] : &%s_zero)", name, tc), elem_field = fl }, { __index = env })
    each(w, fl, function(i)
      return {
        string.format('if (!read_%s(c, &s->%s[%s], "%s", %s))', fl.type, name, i, name, args_c(ix, prev, fl, i)),
        "    return 0;",
      }
    end)
  else
    read_structs_until(w, fmt, ix, fl, env)
  end
end

function read_kind.bytes(w, fl, env)
  if fl.count then
    w(string.format('if (!bf_read_bytes(c, %s, "%s", &s->%s))', cexpr.value(fl.count, env), fl.name, fl.name))
    w("    return 0;")
  else
    w(string.format("bf_read_rest(c, &s->%s);", fl.name))
  end
end

-- Strings: fixed-length (str) or zero-terminated (cstr), one or an array of them.
local function read_string(w, fl, env, flat, fmt, ix)
  local name, k = fl.name, fl.kind
  local function one(dst)
    local L = {}
    if k == "cstr" then
      L[#L + 1] = string.format('if (!bf_read_cstr(c, "%s", &%s))', name, dst)
    else
      L[#L + 1] = string.format('if (!bf_read_fixed_str(c, %d, "%s", &%s))', fl.str_len, name, dst)
    end
    L[#L + 1] = "    return 0;"
    if fl.const_str then
      local len = k == "str" and fl.str_len or #fl.const_str
      L[#L + 1] = string.format('if (!bf_expect_bytes(c, c->pos - %d, "%s", (const uint8_t *)%s.ptr, %s, %d))',
        k == "str" and fl.str_len or (len + 1), name, dst, names.cstring(fl.const_str), len)
      L[#L + 1] = "    return 0;"
    end
    return L
  end
  if not fl.array then
    for _, l in ipairs(one("s->" .. name)) do w(l) end
    return
  end
  if not fl.fixed_count then alloc_counted(w, fl, env, fl.min_elem_size) end
  w(string.format("for (uint32_t i = 0; i < %s; i++) {", fl.fixed_count or string.format("s->%s_count", name)))
  for _, l in ipairs(one("s->" .. name .. "[i]")) do w("    " .. l) end
  w("}")
end
read_kind.str = read_string
read_kind.cstr = read_string

-- A case label: the enum's constant when the tag is an enum field and the case one of its
-- members, else the number.
local function case_label(fmt, ix, fl, case)
  local tag = fl.switch_on.field
  local enum = tag and tag.enum and ix.enums[tag.enum]
  if enum and not enum.flags then
    for _, v in ipairs(enum.values) do
      if v.name == case.label and v.value == case.value and v.value >= -2147483647 and v.value <= 2147483647 then
        return names.enum_const(fmt, enum.name, v.name)
      end
    end
  end
  local num = case.value >= -2147483647 and case.value <= 2147483647 and tostring(case.value)
    or names.i64(case.value)
  if case.label ~= tostring(case.value) then num = num .. " /* " .. names.comment(case.label) .. " */" end
  return num
end

function read_kind.switch(w, fl, env, flat, fmt, ix)
  local name = fl.name
  local function case_body(case, kind_c)
    if case.type then
      local dst = string.format("s->%s.%s", name, case.type)
      w(string.format('    %s = bf_alloc_case(c, sizeof *%s, &s->%s.kind, %s, "%s");', dst, dst, name,
        names.kind_const(fmt, case.type), name))
      w(string.format('    if (!%s || !read_%s(c, %s, "%s", -1))', dst, case.type, dst, name))
      w("        return 0;")
    else
      if kind_c then w(string.format("    s->%s.kind = %s; /* this raw case, not the default */", name, kind_c)) end
      w(string.format("    bf_read_rest(c, &s->%s.raw);", name))
    end
    w("    break;")
  end
  w(string.format("const int64_t %s_tag = %s;", name, cexpr.value(fl.switch_on, env)))
  w("if (c->err->failed)")
  w("    return 0;")
  w(string.format("switch (%s_tag) {", name))
  local default
  for case_no, case in ipairs(fl.cases) do
    if case.default then
      default = case
    else
      w(string.format("case %s:", case_label(fmt, ix, fl, case)))
      case_body(case, not case.type and names.raw_case_kind(fmt, fl, case_no))
    end
  end
  w("default:")
  if default then
    case_body(default, nil)
  else
    w(string.format('    return bf_fail(c, c->pos, "%s", "no case for tag %%lld (0x%%llx)", (long long)%s_tag, (unsigned long long)%s_tag);',
      name, name, name))
  end
  w("}")
end

-- A field in its own region (size:) or at its own offset (pos:): the C that enters it and
-- leaves it, the same in the reader and in the views (c_view.lua). `cx` renders an
-- expression; `name` is the field's name in error paths. The mark (and the size) are named
-- after the field: a function may enter several regions in one block.
function R.open_region(w, fl, name, cx)
  local mark = fl.name .. "_mark"
  w(string.format("bf_mark %s;", mark))
  local at, size = "0", "0"
  local how = {}
  if fl.pos then how[#how + 1] = "BF_AT"; at = cx(fl.pos) end
  if fl.size then how[#how + 1] = "BF_SIZED"; size = cx(fl.size) end
  if fl.pos and fl.size then
    -- the size first, as the schema says it (either expression may fail, the first one wins)
    w(string.format("const int64_t %s_size = %s;", fl.name, size))
    size = fl.name .. "_size"
  end
  w(string.format('if (!bf_enter_region(c, %s, %s, %s, "%s", &%s))', table.concat(how, " | "), at, size, name, mark))
  w("    return 0;")
end

function R.close_region(w, fl)
  w(string.format("bf_leave_region(c, &%s_mark);", fl.name))
end

-- The field's region ends where its trailing padding (a prefix of a fill text) begins; the
-- caller restores c->end from padded_end after the value.
function R.open_padding(w, fl, cx)
  local pad = fl.padding
  local fills = {}
  for _, text in ipairs(pad.fill) do fills[#fills + 1] = string.format("{%s, %d}", names.cstring(text), #text) end
  local unit = pad.unit and cx(pad.unit) or tostring(fl.elem_size or fl.prim_size or 1)
  w(string.format("static const bf_fill fills[] = {%s};", table.concat(fills, ", ")))
  w("size_t padded_end = c->end;")
  w(string.format("if (!bf_end_before_padding(c, %s, %d, fills, %d))", unit, pad.below, #fills))
  w("    return 0;")
end

-- The lines around a field's value, the same for the reader and the views (c_view.lua): its
-- condition (if:), alignment, region (pos:, size:), where it starts and its trailing padding;
-- `value(w)` writes the value itself. `self` is the C name of the struct or view being filled;
-- `keep`: the alignment and the region's tail are kept (the reader's, for writing back).
-- Indented `depth` levels.
function R.field_frame(fl, env, depth, self, keep, comment, value)
  local L = {}
  local function w(s) L[#L + 1] = names.indent(depth) .. s end
  local name = fl.name
  local function cx(e) return cexpr.value(e, env) end
  w(comment)
  if fl.cond then
    w(string.format("if (%s) {", cexpr.cond(fl.cond, env)))
    depth = depth + 1
    w(self .. "->has_" .. name .. " = 1;")
  end
  if fl.align and not fl.pos then
    if keep then
      w(string.format('if (!bf_read_align(c, %d, "%s", &%s->%s_pad))', fl.align, name, self, name))
      w("    return 0;")
    else
      w("{")
      w("    bf_bytes pad;")
      w(string.format('    if (!bf_read_align(c, %d, "%s", &pad))', fl.align, name))
      w("        return 0;")
      w("}")
    end
  end
  local region = fl.pos or fl.size
  if region then R.open_region(w, fl, name, cx) end
  if not fl.offset then w(string.format("%s->%s_at = c->pos;", self, name)) end
  local pad = fl.padding
  if pad then
    w("{")
    depth = depth + 1
    R.open_padding(w, fl, cx)
  end
  value(w)
  if pad then
    w("c->end = padded_end;")
    depth = depth - 1
    w("}")
  end
  if region then
    if keep and fl.size then -- what the value leaves of its region is its tail
      w(string.format("bf_leave_region_tail(c, &%s_mark, &%s->%s_tail);", name, self, name))
    else
      R.close_region(w, fl)
    end
  end
  if fl.cond then
    depth = depth - 1
    w("}")
  end
  return L
end

-- The lines reading field `fl`, indented `depth` levels (0 when not given).
function R.read_field(fmt, ix, t, fl, env, flat, depth)
  local kind = read_kind[fl.kind] or error("cannot read field kind " .. fl.kind)
  return R.field_frame(fl, env, depth or 0, "s", true, "/* " .. fl.name .. ": " .. names.comment(fl.doc) .. " */",
    function(w) kind(w, fl, env, flat, fmt, ix) end)
end

-- `const <root> *R` for a function whose body refers to the document's root.
local function root_decl(fmt, ix, body)
  -- (one search of the whole body first: most functions have no R at all)
  if not table.concat(body):find("R", 1, true) then return {} end
  for _, l in ipairs(body) do
    -- (most lines have no R at all, and need no more looking at)
    if l:find("R", 1, true) then
      l = l:gsub("/%*.-%*/", ""):gsub('"[^"]*"', '""') -- code only: not comments, not messages
      if l:find("%f[%w_]R%->") or l:find("%f[%w_]R[,)]") then
        return { "    const " .. ct(fmt, ix.root.name) .. " *R = c->root;" }
      end
    end
  end
  return {}
end

local function read_sig(fmt, t)
  local sig = { "bf_ctx *c", ct(fmt, t.name) .. " *s", "const char *field", "int64_t index" }
  for _, p in ipairs(t.params) do sig[#sig + 1] = "int64_t p_" .. p.name end
  return string.format("static int read_%s(%s)", t.name, table.concat(sig, ", "))
end

local function link_sig(fmt, t)
  return string.format("static int link_%s(bf_ctx *c, %s *s, const char *field, int64_t index)", t.name, ct(fmt, t.name))
end

function R.read_function(fmt, ix, t)
  local flat = is_flat(ix, t)
  local env = { fmt = fmt, ix = ix, self = "s", root = "R" }
  local body = {}
  local function w(s) body[#body + 1] = s end
  -- a flat type's bytes are checked (and claimed) at once, after its parameters are kept
  local need_all = flat and string.format("!bf_need_all(c, %d)", t.size)
  if need_all and #t.params == 0 then
    w("    if (!bf_enter(c, field, index, &s->_offset, &s->_index) || " .. need_all .. ")")
    need_all = nil
  else
    w("    if (!bf_enter(c, field, index, &s->_offset, &s->_index))")
  end
  w("        return 0;")
  for _, p in ipairs(t.params) do w("    s->_p_" .. p.name .. " = p_" .. p.name .. ";") end
  if need_all then
    w("    if (" .. need_all .. ")")
    w("        return 0;")
  end
  for _, fl in ipairs(t.fields) do
    local lines = R.read_field(fmt, ix, t, fl, env, flat, 1)
    table.move(lines, 1, #lines, #body + 1, body)
  end
  w("    return bf_leave(c, field);")
  local o = { read_sig(fmt, t), "{" }
  for _, l in ipairs(root_decl(fmt, ix, body)) do o[#o + 1] = l end
  table.move(body, 1, #body, #o + 1, o)
  o[#o + 1] = "}"
  return table.concat(o, "\n")
end

-- Link pass: strings resolved once the whole file is read.
function R.link_function(fmt, ix, t)
  local body = {}
  local function w(s) body[#body + 1] = s end
  local env = { fmt = fmt, ix = ix, self = "s", root = "R" }
  w("    if (!bf_enter_again(c, field, index))")
  w("        return 0;")
  for _, fl in ipairs(t.fields) do
    local ind = "    "
    if fl.cond then
      w("    if (s->has_" .. fl.name .. ") {")
      ind = "        "
    end
    if fl.string_table then
      local tbl = cexpr.place(fl.string_table, env)
      local null = fl.string_null and string.format("(uint64_t)s->%s != UINT64_C(%d) && ", fl.name, fl.string_null) or ""
      w(string.format("%sif (%s!bf_resolve_str(c, %s.offset, %s.len, (uint64_t)s->%s, %s, \"%s\", &s->%s_str))",
        ind, null, tbl.c, tbl.c, fl.name, offset_of(fl), fl.name, fl.name))
      w(ind .. "    return 0;")
    end
    if fl.kind == "struct" and ix.types[fl.type].needs_link then
      if fl.array then
        local n = fl.fixed_count and tostring(fl.fixed_count) or ("s->" .. fl.name .. "_count")
        w(string.format("%sfor (uint32_t i = 0; i < %s; i++)", ind, n))
        w(string.format('%s    if (!link_%s(c, &s->%s[i], "%s", i))', ind, fl.type, fl.name, fl.name))
        w(ind .. "        return 0;")
      else
        w(string.format('%sif (!link_%s(c, &s->%s, "%s", -1))', ind, fl.type, fl.name, fl.name))
        w(ind .. "    return 0;")
      end
    end
    if fl.kind == "switch" then
      local seen = {}
      for _, case in ipairs(fl.cases) do
        if case.type and not seen[case.type] and ix.types[case.type].needs_link then
          seen[case.type] = true
          w(string.format('%sif (s->%s.kind == %s && !link_%s(c, s->%s.%s, "%s", -1))', ind, fl.name,
            names.kind_const(fmt, case.type), case.type, fl.name, case.type, fl.name))
          w(ind .. "    return 0;")
        end
      end
    end
    if fl.cond then w("    }") end
  end
  w("    return bf_leave(c, field);")
  local o = { link_sig(fmt, t), "{" }
  for _, l in ipairs(root_decl(fmt, ix, body)) do o[#o + 1] = l end
  table.move(body, 1, #body, #o + 1, o)
  o[#o + 1] = "}"
  return table.concat(o, "\n")
end

-- An entry point: the root type read (and linked) by the runtime's bf_read_document, which
-- also tries the format's revisions.
local function entry_point(fmt, ix, e, w)
  local tc = ct(fmt, e.root)
  local rt = ix.types[e.root]
  w(string.format("static int read_%s_root(bf_ctx *c, void *root, int *read_all)", e.name))
  w("{")
  w(string.format("    %s *s = root;", tc))
  if #fmt.revisions > 0 then w("    s->_revision = c->revision;") end
  w(string.format("    *read_all = read_%s(c, s, NULL, -1);", e.root))
  w(string.format("    return *read_all%s;", rt.needs_link and (" && link_" .. e.root .. "(c, s, NULL, -1)") or ""))
  w("}")
  w()
  w(string.format("int %s_read_%s(const uint8_t *data, size_t size, bf_arena *arena, const bf_read_opts *opts,", fmt.name, e.name))
  w(string.format("        %s **out, bf_error *err)", tc))
  w("{")
  if #fmt.revisions > 0 then
    w(string.format("    static const bf_document doc = {\"%s\", revisions, %d, sizeof(%s), read_%s_root};", fmt.name,
      #fmt.revisions, tc, e.name))
  else
    w(string.format("    static const bf_document doc = {\"%s\", NULL, 0, sizeof(%s), read_%s_root};", fmt.name, tc, e.name))
  end
  w("    void *root;")
  w("    if (!bf_read_document(&doc, data, size, arena, opts, err, &root))")
  w("        return 0;")
  w("    *out = root;")
  w("    return 1;")
  w("}")
  w()
end

function R.source(fmt)
  local ix = names.index(fmt)
  local o = {}
  local function w(s) o[#o + 1] = s or "" end
  w("/* Generated by bfgen from " .. fmt.schema .. ". Do not edit: change the schema. */")
  w("#include \"" .. fmt.name .. ".h\"")
  w()
  w("#include \"bf_expr.h\"")
  w()
  for _, t in ipairs(fmt.types) do
    w(read_sig(fmt, t) .. ";")
    if t.needs_link then w(link_sig(fmt, t) .. ";") end
  end
  w()
  w("#include \"" .. fmt.name .. "_access.h\"")
  w()
  if #fmt.revisions > 0 then
    local list = {}
    for _, r in ipairs(fmt.revisions) do list[#list + 1] = names.cstring(r.name) end
    w(string.format("static const char *const revisions[] = {%s};", table.concat(list, ", ")))
    w()
  end
  for _, t in ipairs(fmt.types) do
    w(R.read_function(fmt, ix, t))
    w()
    if t.needs_link then
      w(R.link_function(fmt, ix, t))
      w()
    end
  end
  for _, e in ipairs(fmt.entries) do entry_point(fmt, ix, e, w) end
  return table.concat(o, "\n")
end

return R
