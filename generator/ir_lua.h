/* The IR -> Lua tables the templates read (the keys are described in ir_lua.c). */
#ifndef BFGEN_IR_LUA_H
#define BFGEN_IR_LUA_H

#include <lua.h>

#include "model.h"

/* Pushes the table of format `f`. */
void ir_push_format(lua_State *L, const format *f);
/* Pushes the primitive types, name -> { name, size, signed, float, ctype }. */
void ir_push_prims(lua_State *L);

#endif
