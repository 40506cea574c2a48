-- bfgen's templates: what files a format gives, and the index over all formats.
local c_header = require("c_header")
local c_reader = require("c_reader")
local c_meta = require("c_meta")
local c_index = require("c_index")
local docs_md = require("docs_md")
local docs_html = require("docs_html")
local c_validate = require("c_validate")
local c_writer = require("c_writer")
local c_access = require("c_access")
local json_schema = require("json_schema")
local c_view = require("c_view")
local c_view_same = require("c_view_same")
local c_wrap = require("c_wrap")

return {
  format = function(fmt)
    local files = {
      [fmt.name .. ".h"] = c_header(fmt),
      [fmt.name .. ".c"] = c_reader.source(fmt),
      [fmt.name .. "_meta.c"] = c_meta(fmt),
      ["docs/" .. fmt.name .. ".md"] = docs_md.page(fmt),
      ["docs/" .. fmt.name .. ".html"] = docs_html.page(fmt),
      [fmt.name .. "_write.c"] = c_writer.source(fmt),
      [fmt.name .. "_access.h"] = c_access(fmt),
      ["docs/" .. fmt.name .. ".schema.json"] = json_schema(fmt),
    }
    -- views, for the formats whose constructs they handle (c_view.lua says which not)
    local view_h, view_c = c_view.files(fmt)
    -- the validator runs on the views where it can (c_validate.lua)
    local validate_c, on_views = c_validate.source(fmt, view_h ~= nil)
    files[fmt.name .. "_validate.c"] = validate_c
    if on_views then view_h = c_validate.declare_in_view_header(fmt, view_h) end
    if view_h then
      files[fmt.name .. "_view.h"] = view_h
      files[fmt.name .. "_view.c"] = view_c
      -- the agreement checks: for the tests only (bfgen writes them with --emit view-same)
      local same = c_view_same(fmt)
      files[fmt.name .. "_view_same.h"] = same.h
      files[fmt.name .. "_view_same.c"] = same.c
    end
    return c_wrap.files(files)
  end,
  -- `others`: names of formats generated into the folder earlier; the formats table keeps
  -- them, and the docs index (which needs their schemas) is then left as it is.
  index = function(formats, others)
    table.sort(formats, function(a, b) return a.name < b.name end)
    local listed = {}
    for _, f in ipairs(formats) do listed[#listed + 1] = { name = f.name } end
    for _, name in ipairs(others or {}) do listed[#listed + 1] = { name = name } end
    table.sort(listed, function(a, b) return a.name < b.name end)
    local files = {
      ["formats.h"] = c_index.header(listed),
      ["formats.c"] = c_index.source(listed),
    }
    if #(others or {}) == 0 then
      files["docs/index.md"] = docs_md.index(formats)
      files["docs/index.html"] = docs_html.index(formats)
    end
    return c_wrap.files(files)
  end,
}
