/* The IR as the templates see it, described once: for each kind of node, which Lua key comes
 * from which member of the C struct and how it is converted. One routine walks the
 * descriptions to build the Lua tables, so a new IR member is one line here. */
#include "ir_lua.h"

#include <lauxlib.h>
#include <stddef.h>
#include <string.h>

#include "bf_version.h"

/* How a member becomes a Lua value. Members that are "left out" leave the key nil. */
typedef enum {
    AS_STR,         /* const char *, left out when NULL */
    AS_INT,         /* int */
    AS_I64,         /* int64_t */
    AS_I64_KNOWN,   /* int64_t, left out when negative (not known statically) */
    AS_I64_NONZERO, /* int64_t, left out when 0 (not declared) */
    AS_U64,         /* uint64_t, as Lua's integer (same bits) */
    AS_NUMBER,      /* double */
    AS_BOOL,        /* int, true or left out */
    AS_PRESENT,     /* pointer: true when not NULL, else left out */
    AS_INDEX1,      /* int, a 0-based index, 1-based in Lua */
    AS_WORD,        /* enum or int member: words[value] */
    AS_LINE,        /* src_loc: its line */
    AS_NAME_OF,     /* pointer to a struct whose first member is its name; left out when NULL */
    AS_PRIM,        /* prim_kind: the primitive's name */
    AS_PRIM_SIZE,   /* prim_kind: its size in bytes */
    AS_PRIM_SIGNED, /* prim_kind: true or left out */
    AS_PRIM_FLOAT,  /* prim_kind: true or left out */
    AS_NODE,        /* pointer to a node: its table (by `node`); left out when NULL */
    AS_SELF,        /* the struct itself, through another description (`node`) */
    AS_LIST,        /* ptr_vec: a list, each slot converted by `item` */
    AS_MAP,         /* ptr_vec of structs named by their first member: name -> `item` of it */
    AS_ARRAY,       /* pointer to an array of `count` pointers (size_t member): like AS_LIST */
    AS_TEXT,        /* the constant string `text` */
    AS_NUMBER_OF,   /* the constant integer `number` */
    AS_CUSTOM,      /* `custom` sets the key itself (values computed from several members) */
} ir_as;

#define IF_TRUE (-1) /* a guard that holds when its member is non-zero */

typedef struct ir_node ir_node;
typedef struct ir_key ir_key;

struct ir_key {
    const char *lua; /* NULL ends a description */
    size_t at;       /* offset of the member in the C struct */
    ir_as as;
    const ir_node *node;        /* AS_NODE, AS_SELF */
    const ir_key *item;         /* AS_LIST, AS_ARRAY: read from each slot (a pointer);
                                   AS_MAP: read from the struct each slot points to */
    const char *const *words;   /* AS_WORD */
    size_t count;               /* AS_ARRAY: offset of the size_t count */
    const char *text;           /* AS_TEXT */
    int64_t number;             /* AS_NUMBER_OF */
    void (*custom)(lua_State *L, const void *obj);
    /* the key is there only when the int (or enum) member at `if_at` is `if_is` */
    int guarded;
    size_t if_at;
    int if_is;
};

struct ir_node {
    const ir_key *keys;
};

static void push_node(lua_State *L, const ir_node *node, const void *obj);

static int member_int(const void *obj, size_t at)
{
    int v;
    memcpy(&v, (const char *)obj + at, sizeof v);
    return v;
}

#define MEMBER(type, obj, at) (*(const type *)(const void *)((const char *)(obj) + (at)))

/* Pushes the value of `k` read from `obj`; returns 0 (pushing nothing) when it is left out. */
static int push_value(lua_State *L, const ir_key *k, const void *obj)
{
    switch (k->as) {
    case AS_STR: {
        const char *s = MEMBER(const char *, obj, k->at);
        if (!s)
            return 0;
        lua_pushstring(L, s);
        return 1;
    }
    case AS_INT: lua_pushinteger(L, MEMBER(int, obj, k->at)); return 1;
    case AS_I64: lua_pushinteger(L, (lua_Integer)MEMBER(int64_t, obj, k->at)); return 1;
    case AS_I64_KNOWN:
    case AS_I64_NONZERO: {
        int64_t v = MEMBER(int64_t, obj, k->at);
        if (k->as == AS_I64_KNOWN ? v < 0 : v == 0)
            return 0;
        lua_pushinteger(L, (lua_Integer)v);
        return 1;
    }
    case AS_U64: lua_pushinteger(L, (lua_Integer)MEMBER(uint64_t, obj, k->at)); return 1;
    case AS_NUMBER: lua_pushnumber(L, MEMBER(double, obj, k->at)); return 1;
    case AS_BOOL:
        if (!MEMBER(int, obj, k->at))
            return 0;
        lua_pushboolean(L, 1);
        return 1;
    case AS_PRESENT:
        if (!MEMBER(const void *, obj, k->at))
            return 0;
        lua_pushboolean(L, 1);
        return 1;
    case AS_INDEX1: lua_pushinteger(L, (lua_Integer)MEMBER(int, obj, k->at) + 1); return 1;
    case AS_WORD: lua_pushstring(L, k->words[member_int(obj, k->at)]); return 1;
    case AS_LINE: lua_pushinteger(L, MEMBER(src_loc, obj, k->at).line); return 1;
    case AS_NAME_OF: {
        const void *p = MEMBER(const void *, obj, k->at);
        if (!p)
            return 0;
        lua_pushstring(L, MEMBER(const char *, p, 0));
        return 1;
    }
    case AS_PRIM:
    case AS_PRIM_SIZE:
    case AS_PRIM_SIGNED:
    case AS_PRIM_FLOAT: {
        const prim_info *p = prim_get((prim_kind)member_int(obj, k->at));
        if (k->as == AS_PRIM)
            lua_pushstring(L, p->name);
        else if (k->as == AS_PRIM_SIZE)
            lua_pushinteger(L, p->size);
        else if (k->as == AS_PRIM_SIGNED ? p->is_signed : p->is_float)
            lua_pushboolean(L, 1);
        else
            return 0;
        return 1;
    }
    case AS_NODE: {
        const void *p = MEMBER(const void *, obj, k->at);
        if (!p)
            return 0;
        push_node(L, k->node, p);
        return 1;
    }
    case AS_SELF: push_node(L, k->node, (const char *)obj + k->at); return 1;
    case AS_LIST:
    case AS_ARRAY: {
        void *const *items;
        size_t len;
        if (k->as == AS_LIST) {
            const ptr_vec *v = (const ptr_vec *)(const void *)((const char *)obj + k->at);
            items = v->items;
            len = v->len;
        } else {
            items = *(void *const *const *)(const void *)((const char *)obj + k->at);
            len = MEMBER(size_t, obj, k->count);
            if (!len)
                return 0;
        }
        lua_createtable(L, (int)len, 0);
        for (size_t i = 0; i < len; i++) {
            if (!push_value(L, k->item, &items[i]))
                lua_pushnil(L);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        return 1;
    }
    case AS_MAP: {
        const ptr_vec *v = (const ptr_vec *)(const void *)((const char *)obj + k->at);
        lua_createtable(L, 0, (int)v->len);
        for (size_t i = 0; i < v->len; i++) {
            if (push_value(L, k->item, v->items[i]))
                lua_setfield(L, -2, MEMBER(const char *, v->items[i], 0));
        }
        return 1;
    }
    case AS_TEXT: lua_pushstring(L, k->text); return 1;
    case AS_NUMBER_OF: lua_pushinteger(L, (lua_Integer)k->number); return 1;
    case AS_CUSTOM: break;
    }
    return 0;
}

/* Whether push_node sets key `k` of `obj` (as push_value and the guards decide). Only sizes
 * the table: a wrong answer costs a rehash, nothing else. */
static int present(const ir_key *k, const void *obj)
{
    if (k->guarded) {
        int v = member_int(obj, k->if_at);
        if (k->if_is == IF_TRUE ? !v : v != k->if_is)
            return 0;
    }
    switch (k->as) {
    case AS_STR:
    case AS_PRESENT:
    case AS_NAME_OF:
    case AS_NODE: return MEMBER(const void *, obj, k->at) != NULL;
    case AS_I64_KNOWN: return MEMBER(int64_t, obj, k->at) >= 0;
    case AS_I64_NONZERO: return MEMBER(int64_t, obj, k->at) != 0;
    case AS_BOOL: return MEMBER(int, obj, k->at) != 0;
    case AS_ARRAY: return MEMBER(size_t, obj, k->count) != 0;
    case AS_PRIM_SIGNED: return prim_get((prim_kind)member_int(obj, k->at))->is_signed;
    case AS_PRIM_FLOAT: return prim_get((prim_kind)member_int(obj, k->at))->is_float;
    default: return 1;
    }
}

static void push_node(lua_State *L, const ir_node *node, const void *obj)
{
    /* room for the keys it will have at once: growing a table key by key rehashes it again
     * and again, and room for every key it might have is three times too much for most */
    int keys = 0;
    for (const ir_key *k = node->keys; k->lua; k++)
        keys += present(k, obj);
    /* nodes nest (expressions within expressions): each level takes a few stack slots */
    luaL_checkstack(L, 4, "the IR nests too deeply");
    lua_createtable(L, 0, keys);
    for (const ir_key *k = node->keys; k->lua; k++) {
        if (k->guarded) {
            int v = member_int(obj, k->if_at);
            if (k->if_is == IF_TRUE ? !v : v != k->if_is)
                continue;
        }
        if (k->as == AS_CUSTOM)
            k->custom(L, obj);
        else if (push_value(L, k, obj))
            lua_setfield(L, -2, k->lua);
    }
}

/* ---- values computed from several members ---- */

static void set_fixed_count(lua_State *L, const field *fl, int bytes_too)
{
    int64_t n;
    if (fl->is_array && (bytes_too || fl->kind != FT_BYTES) && fl->count && expr_const_int(fl->count, &n)) {
        lua_pushinteger(L, (lua_Integer)n);
        lua_setfield(L, -2, "fixed_count");
    }
}
/* a field's own table leaves fixed_count out for byte arrays (their count is a length) */
static void field_fixed_count(lua_State *L, const void *obj) { set_fixed_count(L, obj, 0); }
static void ref_fixed_count(lua_State *L, const void *obj) { set_fixed_count(L, obj, 1); }

/* `enum = NAME` or `flags = NAME` */
static void field_enum(lua_State *L, const void *obj)
{
    const field *fl = obj;
    if (!fl->enumdef)
        return;
    lua_pushstring(L, fl->enumdef->name);
    lua_setfield(L, -2, fl->enumdef->is_flags ? "flags" : "enum");
}

static void expr_named_value(lua_State *L, const void *obj)
{
    const expr *e = obj;
    if (!e->ref_value)
        return;
    lua_pushstring(L, e->ref_value->name);
    lua_setfield(L, -2, "value_name");
    lua_pushstring(L, e->ref_value->owner->name);
    lua_setfield(L, -2, "value_owner");
}

/* ---- the descriptions ---- */

#define KEY(type, name, member, how, ...) {.lua = name, .at = offsetof(type, member), .as = how, __VA_ARGS__}
/* present only when `cond_member` is `value` (IF_TRUE: non-zero) */
#define WHEN(type, cond_member, value) .guarded = 1, .if_at = offsetof(type, cond_member), .if_is = value
#define CUSTOM(name, fn, ...) {.lua = name, .as = AS_CUSTOM, .custom = fn, __VA_ARGS__}
#define END {.lua = NULL}

static const char *const expr_kinds[] = {"int", "float", "name", "member", "index", "call", "unary", "binary", "cond"};
static const char *const value_kinds[] = {"error", "int", "float", "struct", "array", "bytes", "string", "enum", "switch"};
static const char *const ref_kinds[] = {"none", "field", "param", "root", "index", "prev", "it", "value",
                                        "start", "pos", "end", "size", "enum_type", "enum_const", "bits", "case", "revision", "named"};
static const char *const field_kinds[] = {"prim", "struct", "bytes", "cstr", "str", "switch"};
static const char *const field_endians[] = {"be", "le"};
static const char *const format_endians[] = {"big", "little"};
static const char *const severities[] = {"error", "warning"};

/* Nodes refer to each other (an expression names a field, a field holds expressions). */
static const ir_node expr_node, field_ref_node, field_node, type_node, format_node;

static const ir_key a_string = {.as = AS_STR};
static const ir_key an_expr = {.as = AS_NODE, .node = &expr_node};
#define LIST_OF(node_) (&(const ir_key){.as = AS_NODE, .node = &(node_)})

/* A switch case, as an expression's field reference shows it. */
static const ir_node case_ref_node = {(const ir_key[]){
    KEY(switch_case, "value", value, AS_I64),
    KEY(switch_case, "default", is_default, AS_BOOL),
    KEY(switch_case, "type", type, AS_NAME_OF),
    END,
}};

/* A bit field, as an expression's field reference shows it (keyed by name). */
static const ir_node bit_ref_node = {(const ir_key[]){
    KEY(bit_field, "width", width, AS_INT),
    KEY(bit_field, "shift", shift, AS_INT),
    KEY(bit_field, "signed", is_signed, AS_BOOL),
    END,
}};

/* The field an expression names: enough of it to render an access to it. */
static const ir_node field_ref_node = {(const ir_key[]){
    KEY(field, "name", name, AS_STR),
    KEY(field, "kind", kind, AS_WORD, .words = field_kinds),
    KEY(field, "owner", owner, AS_NAME_OF),
    KEY(field, "array", is_array, AS_BOOL),
    CUSTOM("fixed_count", ref_fixed_count),
    KEY(field, "prim", prim, AS_PRIM, WHEN(field, kind, FT_PRIM)),
    KEY(field, "type", type, AS_NAME_OF),
    KEY(field, "located", pos, AS_PRESENT),
    KEY(field, "prefix", prefix, AS_STR),
    KEY(field, "computed", computed, AS_BOOL),
    KEY(field, "cases", cases, AS_LIST, .item = LIST_OF(case_ref_node)),
    KEY(field, "offset", static_offset, AS_I64_KNOWN),
    KEY(field, "elem_size", elem_size, AS_I64_KNOWN),
    KEY(field, "cond", cond, AS_PRESENT),
    KEY(field, "enum", enumdef, AS_NAME_OF),
    KEY(field, "bits", bits, AS_MAP, .item = &(const ir_key){.as = AS_SELF, .node = &bit_ref_node}),
    END,
}};

static const ir_node expr_node = {(const ir_key[]){
    KEY(expr, "k", kind, AS_WORD, .words = expr_kinds),
    KEY(expr, "vt", vt.kind, AS_WORD, .words = value_kinds),
    KEY(expr, "vtype", vt.type, AS_NAME_OF),
    KEY(expr, "v", ival, AS_U64, WHEN(expr, kind, EX_INT)),
    KEY(expr, "v", fval, AS_NUMBER, WHEN(expr, kind, EX_FLOAT)),
    KEY(expr, "name", name, AS_STR),
    KEY(expr, "op", op, AS_STR),
    KEY(expr, "text", text, AS_STR),
    KEY(expr, "ref", ref, AS_WORD, .words = ref_kinds),
    KEY(expr, "field", ref_field, AS_NODE, .node = &field_ref_node),
    KEY(expr, "const", const_value, AS_I64, WHEN(expr, ref, REF_ENUM_CONST)),
    KEY(expr, "param", ref_param, AS_INDEX1, WHEN(expr, ref, REF_PARAM)),
    CUSTOM("value_name", expr_named_value, WHEN(expr, ref, REF_NAMED)),
    KEY(expr, "a", a, AS_NODE, .node = &expr_node),
    KEY(expr, "b", b, AS_NODE, .node = &expr_node),
    KEY(expr, "c", c, AS_NODE, .node = &expr_node),
    KEY(expr, "args", args, AS_ARRAY, .count = offsetof(expr, nargs), .item = &an_expr),
    END,
}};

static const ir_node bit_node = {(const ir_key[]){
    KEY(bit_field, "name", name, AS_STR),
    KEY(bit_field, "doc", doc, AS_STR),
    KEY(bit_field, "width", width, AS_INT),
    KEY(bit_field, "shift", shift, AS_INT),
    KEY(bit_field, "signed", is_signed, AS_BOOL),
    END,
}};

static const ir_node case_node = {(const ir_key[]){
    KEY(switch_case, "label", label, AS_STR),
    KEY(switch_case, "value", value, AS_I64),
    KEY(switch_case, "default", is_default, AS_BOOL),
    KEY(switch_case, "align", align, AS_I64_NONZERO),
    KEY(switch_case, "pool", pool, AS_BOOL),
    KEY(switch_case, "type", type, AS_NAME_OF),
    END,
}};

/* `padding:` of a field */
static const ir_node padding_node = {(const ir_key[]){
    KEY(field, "fill", pad_fill, AS_LIST, .item = &a_string),
    KEY(field, "unit", pad_unit, AS_NODE, .node = &expr_node),
    KEY(field, "below", pad_below, AS_I64),
    END,
}};

/* `fill_to:` of a field */
static const ir_node fill_to_node = {(const ir_key[]){
    KEY(field, "align", fill_align, AS_I64),
    KEY(field, "fill", tail_fill, AS_LIST, .item = &a_string),
    END,
}};

static const ir_node field_node = {(const ir_key[]){
    KEY(field, "name", name, AS_STR),
    KEY(field, "doc", doc, AS_STR),
    KEY(field, "erratum", erratum, AS_STR),
    KEY(field, "line", loc, AS_LINE),
    KEY(field, "kind", kind, AS_WORD, .words = field_kinds),
    KEY(field, "type_text", type_text, AS_STR),
    KEY(field, "prim", prim, AS_PRIM, WHEN(field, kind, FT_PRIM)),
    KEY(field, "prim_size", prim, AS_PRIM_SIZE, WHEN(field, kind, FT_PRIM)),
    KEY(field, "signed", prim, AS_PRIM_SIGNED, WHEN(field, kind, FT_PRIM)),
    KEY(field, "float", prim, AS_PRIM_FLOAT, WHEN(field, kind, FT_PRIM)),
    KEY(field, "endian", little_endian, AS_WORD, .words = field_endians),
    KEY(field, "type", type, AS_NAME_OF),
    CUSTOM("enum", field_enum), /* or "flags" */
    KEY(field, "str_len", str_len, AS_I64, WHEN(field, kind, FT_STR)),
    KEY(field, "array", is_array, AS_BOOL),
    KEY(field, "count", count, AS_NODE, .node = &expr_node),
    CUSTOM("fixed_count", field_fixed_count),
    KEY(field, "until", until, AS_NODE, .node = &expr_node),
    KEY(field, "to_end", to_end, AS_BOOL),
    KEY(field, "size", size, AS_NODE, .node = &expr_node),
    KEY(field, "pos", pos, AS_NODE, .node = &expr_node),
    KEY(field, "cond", cond, AS_NODE, .node = &expr_node),
    KEY(field, "align", align, AS_I64_NONZERO),
    KEY(field, "const", const_value, AS_NODE, .node = &expr_node),
    KEY(field, "const_str", const_str, AS_STR),
    KEY(field, "expect", expect, AS_NODE, .node = &expr_node),
    KEY(field, "expect_warning", expect_warning, AS_BOOL),
    KEY(field, "expect_origin", expect_origin, AS_STR),
    KEY(field, "string_table", string_table, AS_NODE, .node = &expr_node),
    KEY(field, "string_null", string_null, AS_I64, WHEN(field, has_string_null, IF_TRUE)),
    KEY(field, "fixed_int", fixed_int, AS_INT, WHEN(field, is_fixed, IF_TRUE)),
    KEY(field, "fixed_frac", fixed_frac, AS_INT, WHEN(field, is_fixed, IF_TRUE)),
    KEY(field, "derive", derive, AS_NODE, .node = &expr_node),
    KEY(field, "value", value, AS_NODE, .node = &expr_node),
    KEY(field, "prefix", prefix, AS_STR),
    KEY(field, "never_empty", never_empty, AS_BOOL),
    KEY(field, "computed", computed, AS_BOOL),
    {.lua = "padding", .as = AS_SELF, .node = &padding_node, WHEN(field, has_padding, IF_TRUE)},
    {.lua = "fill_to", .as = AS_SELF, .node = &fill_to_node, WHEN(field, has_fill_to, IF_TRUE)},
    KEY(field, "derive_doc", derive_doc, AS_STR),
    KEY(field, "at", declared_at, AS_I64, WHEN(field, has_at, IF_TRUE)),
    KEY(field, "document_at", document_at, AS_I64, WHEN(field, has_document_at, IF_TRUE)),
    KEY(field, "offset", static_offset, AS_I64_KNOWN),
    KEY(field, "elem_size", elem_size, AS_I64_KNOWN),
    KEY(field, "min_elem_size", min_elem_size, AS_I64),
    KEY(field, "used_as_count", used_as_count, AS_BOOL),
    KEY(field, "used_as_offset", used_as_offset, AS_BOOL),
    KEY(field, "used_as_index", used_as_index, AS_BOOL),
    KEY(field, "bits", bits, AS_LIST, .item = LIST_OF(bit_node)),
    /* arguments of a parameterized type: name -> expression */
    KEY(field, "args", args, AS_MAP, .item = &(const ir_key){.at = offsetof(named_expr, value), .as = AS_NODE, .node = &expr_node}),
    KEY(field, "switch_on", switch_on, AS_NODE, .node = &expr_node, WHEN(field, kind, FT_SWITCH)),
    KEY(field, "cases", cases, AS_LIST, .item = LIST_OF(case_node), WHEN(field, kind, FT_SWITCH)),
    END,
}};

static const ir_node absent_row_node = {(const ir_key[]){
    KEY(absent_row, "row", row, AS_STR),
    KEY(absent_row, "reason", reason, AS_STR),
    END,
}};

static const ir_node msg_part_node = {(const ir_key[]){
    KEY(msg_part, "text", text, AS_STR),
    KEY(msg_part, "value", value, AS_NODE, .node = &expr_node),
    KEY(msg_part, "hex", hex, AS_BOOL),
    END,
}};

static const ir_node rule_node = {(const ir_key[]){
    KEY(rule, "line", loc, AS_LINE),
    KEY(rule, "check", check, AS_NODE, .node = &expr_node),
    KEY(rule, "message", message, AS_STR),
    KEY(rule, "severity", warning, AS_WORD, .words = severities),
    KEY(rule, "origin", origin, AS_STR),
    KEY(rule, "each", each, AS_STR),
    KEY(rule, "name", name, AS_STR),
    KEY(rule, "at", at, AS_NODE, .node = &expr_node),
    KEY(rule, "parts", parts, AS_LIST, .item = LIST_OF(msg_part_node)),
    END,
}};

static const ir_node param_node = {(const ir_key[]){
    KEY(param, "name", name, AS_STR),
    KEY(param, "doc", doc, AS_STR),
    END,
}};

static const ir_node named_value_node = {(const ir_key[]){
    KEY(named_value, "name", name, AS_STR),
    KEY(named_value, "doc", doc, AS_STR),
    KEY(named_value, "line", loc, AS_LINE),
    KEY(named_value, "synthetic", synthetic, AS_BOOL),
    KEY(named_value, "expr", value, AS_NODE, .node = &expr_node),
    END,
}};

static const ir_node image_node = {(const ir_key[]){
    KEY(image_def, "codec", codec, AS_STR),
    KEY(image_def, "codec_by", codec_by, AS_STR),
    KEY(image_def, "codec_cases", codec_cases, AS_LIST, .item = &a_string),
    KEY(image_def, "format", format, AS_STR),
    KEY(image_def, "width", width, AS_STR),
    KEY(image_def, "height", height, AS_STR),
    KEY(image_def, "pixels", pixels, AS_STR),
    KEY(image_def, "palette", palette, AS_STR),
    KEY(image_def, "palette_format", palette_format, AS_STR),
    KEY(image_def, "compression", compression, AS_STR),
    KEY(image_def, "pad_short", pad_short, AS_BOOL),
    END,
}};

static const ir_node type_node = {(const ir_key[]){
    KEY(type_def, "name", name, AS_STR),
    KEY(type_def, "doc", doc, AS_STR),
    KEY(type_def, "line", loc, AS_LINE),
    KEY(type_def, "size", static_size, AS_I64_KNOWN),
    KEY(type_def, "min_size", min_size, AS_I64),
    KEY(type_def, "kind_id", kind_id, AS_INT),
    KEY(type_def, "align", align, AS_I64_NONZERO),
    KEY(type_def, "needs_link", needs_link, AS_BOOL),
    KEY(type_def, "tables", tables, AS_LIST, .item = &a_string),
    KEY(type_def, "absent_rows", absent_rows, AS_LIST, .item = LIST_OF(absent_row_node)),
    KEY(type_def, "rules", rules, AS_LIST, .item = LIST_OF(rule_node)),
    KEY(type_def, "params", params, AS_LIST, .item = LIST_OF(param_node)),
    KEY(type_def, "values", values, AS_LIST, .item = LIST_OF(named_value_node)),
    KEY(type_def, "fields", fields, AS_LIST, .item = LIST_OF(field_node)),
    KEY(type_def, "image", image, AS_NODE, .node = &image_node),
    END,
}};

static const ir_node enum_value_node = {(const ir_key[]){
    KEY(enum_value, "name", name, AS_STR),
    KEY(enum_value, "doc", doc, AS_STR),
    KEY(enum_value, "value", value, AS_I64),
    END,
}};

static const ir_node enum_node = {(const ir_key[]){
    KEY(enum_def, "name", name, AS_STR),
    KEY(enum_def, "doc", doc, AS_STR),
    KEY(enum_def, "base", base, AS_PRIM),
    KEY(enum_def, "flags", is_flags, AS_BOOL),
    KEY(enum_def, "open", is_open, AS_BOOL),
    KEY(enum_def, "values", values, AS_LIST, .item = LIST_OF(enum_value_node)),
    END,
}};

/* A cross-file check of a member (file sets). */
static const ir_node member_check_node = {(const ir_key[]){
    KEY(member_check, "values", values, AS_STR),
    KEY(member_check, "origin", origin, AS_STR),
    KEY(member_check, "below", below, AS_LIST, .item = &a_string),
    KEY(member_check, "among", among, AS_LIST, .item = &a_string),
    KEY(member_check, "equals", equals, AS_LIST, .item = &a_string),
    KEY(member_check, "counts", counts, AS_BOOL),
    KEY(member_check, "ignore_case", ignore_case, AS_BOOL),
    KEY(member_check, "severity", warning, AS_WORD, .words = severities),
    END,
}};

/* A file kind's members (file sets), as plain strings: the CLI walks them through the meta tables. */
static const ir_node member_node = {(const ir_key[]){
    KEY(member, "name", name, AS_STR),
    KEY(member, "doc", doc, AS_STR),
    KEY(member, "kind", kind, AS_STR),
    KEY(member, "each", each, AS_STR),
    KEY(member, "each_type", each_type, AS_STR),
    KEY(member, "orphans", orphans, AS_STR),
    KEY(member, "files", files, AS_LIST, .item = &a_string),
    KEY(member, "checks", checks, AS_LIST, .item = LIST_OF(member_check_node)),
    END,
}};

static const ir_node entry_node = {(const ir_key[]){
    KEY(entry, "name", name, AS_STR),
    KEY(entry, "doc", doc, AS_STR),
    KEY(entry, "root", root, AS_NAME_OF),
    KEY(entry, "magic", magic, AS_STR),
    KEY(entry, "magic_at", magic_at, AS_I64),
    KEY(entry, "extensions", extensions, AS_LIST, .item = &a_string),
    KEY(entry, "members", members, AS_LIST, .item = LIST_OF(member_node)),
    END,
}};

static const ir_node revision_node = {(const ir_key[]){
    KEY(revision, "name", name, AS_STR),
    KEY(revision, "doc", doc, AS_STR),
    END,
}};

static const ir_node format_node = {(const ir_key[]){
    KEY(format, "name", name, AS_STR),
    KEY(format, "title", title, AS_STR),
    KEY(format, "doc", doc, AS_STR),
    KEY(format, "document", document, AS_STR),
    KEY(format, "document_title", document_title, AS_STR),
    KEY(format, "schema", file, AS_STR),
    KEY(format, "endian", little_endian, AS_WORD, .words = format_endians),
    {.lua = "runtime_version", .as = AS_TEXT, .text = BF_RUNTIME_VERSION},
    {.lua = "runtime_version_number", .as = AS_NUMBER_OF, .number = BF_RUNTIME_VERSION_NUMBER},
    KEY(format, "revisions", revisions, AS_LIST, .item = LIST_OF(revision_node)),
    KEY(format, "entries", entries, AS_LIST, .item = LIST_OF(entry_node)),
    KEY(format, "enums", enums, AS_LIST, .item = LIST_OF(enum_node)),
    KEY(format, "types", types, AS_LIST, .item = LIST_OF(type_node)),
    END,
}};

/* AS_NAME_OF reads the first member of what it points to. */
_Static_assert(offsetof(type_def, name) == 0 && offsetof(enum_def, name) == 0 && offsetof(named_value, name) == 0,
               "AS_NAME_OF needs the name first");
_Static_assert(offsetof(bit_field, name) == 0 && offsetof(named_expr, name) == 0, "AS_MAP needs the name first");

void ir_push_format(lua_State *L, const format *f) { push_node(L, &format_node, f); }

void ir_push_prims(lua_State *L)
{
    lua_newtable(L);
    for (int p = 0; p < PRIM_COUNT; p++) {
        const prim_info *info = prim_get((prim_kind)p);
        lua_newtable(L);
        lua_pushstring(L, info->name);
        lua_setfield(L, -2, "name");
        lua_pushinteger(L, info->size);
        lua_setfield(L, -2, "size");
        lua_pushboolean(L, info->is_signed);
        lua_setfield(L, -2, "signed");
        lua_pushboolean(L, info->is_float);
        lua_setfield(L, -2, "float");
        lua_pushstring(L, info->ctype);
        lua_setfield(L, -2, "ctype");
        lua_setfield(L, -2, info->name);
    }
}
