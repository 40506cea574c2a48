-- bfgen's templates: what files a format gives, and the index over all formats.
local c_header = require("c_header")
local c_reader = require("c_reader")

return {
  format = function(fmt)
    return {
      [fmt.name .. ".h"] = c_header(fmt),
      [fmt.name .. ".c"] = c_reader.source(fmt),
    }
  end,
  index = function(formats)
    return {}
  end,
}
