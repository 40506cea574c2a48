/* Packing C initializers and string literals into lines (the C half of templates/c_lines.lua). */
#ifndef BFGEN_C_PACK_H
#define BFGEN_C_PACK_H

#include <lua.h>

/* Pushes the module the templates get with require("c_pack"): pack and literals. */
void c_pack_open(lua_State *L);

#endif
