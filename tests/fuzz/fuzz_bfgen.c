/* libFuzzer harness for bfgen's front end: any bytes as a schema, through the YAML loader, the
 * model and the checker and, when the checker passes it, into the Lua tables the templates
 * get (generator/ir_lua.c). Besides crashes, sanitizer reports and timeouts, a finding is an
 * error without a line and a column: every error a user sees is FILE:LINE:COL. */
#include <lauxlib.h>
#include <lua.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"
#include "ir_lua.h"
#include "model.h"
#include "yaml_tree.h"

static lua_State *L;

static void error_is_located(src_loc at)
{
    if (!at.file || at.line < 1 || at.col < 1) {
        fprintf(stderr, "fuzz_bfgen: an error at %s:%d:%d, not located\n", at.file ? at.file : "(no file)", at.line, at.col);
        abort();
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    diag_set_quiet(1);
    diag_error_hook = error_is_located;
    L = luaL_newstate();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int before = diag_error_count();
    ynode *doc = yaml_load_memory("fuzz.yaml", data, size);
    if (doc) {
        format *f = model_build(doc);
        model_check(f);
        if (diag_error_count() == before) {
            int top = lua_gettop(L);
            ir_push_format(L, f);
            lua_settop(L, top);
        }
    }
    pool_release_all();
    return 0;
}
