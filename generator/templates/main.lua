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

return {
  format = function(fmt)
    return {
      [fmt.name .. ".h"] = c_header(fmt),
      [fmt.name .. ".c"] = c_reader.source(fmt),
      [fmt.name .. "_meta.c"] = c_meta(fmt),
      ["docs/" .. fmt.name .. ".md"] = docs_md.page(fmt),
      ["docs/" .. fmt.name .. ".html"] = docs_html.page(fmt),
      [fmt.name .. "_validate.c"] = c_validate.source(fmt),
      [fmt.name .. "_write.c"] = c_writer.source(fmt),
      [fmt.name .. "_access.h"] = c_access(fmt),
    }
  end,
  index = function(formats)
    table.sort(formats, function(a, b) return a.name < b.name end)
    return {
      ["formats.h"] = c_index.header(formats),
      ["formats.c"] = c_index.source(formats),
      ["docs/index.md"] = docs_md.index(formats),
      ["docs/index.html"] = docs_html.index(formats),
    }
  end,
}
