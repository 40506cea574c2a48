/* C helpers for the Lua templates, where a Lua loop over the bytes of a text costs too much. */
#ifndef BFGEN_TEMPLATE_LIB_H
#define BFGEN_TEMPLATE_LIB_H

#include <lua.h>

/* Pushes the module the templates get with require("scan"). */
void template_lib_scan(lua_State *L);

/* Pushes the module the templates get with require("json"): json.encode(v, null). */
void template_lib_json(lua_State *L);

#endif
