/* Hands the IR to Lua as plain tables, runs templates/main.lua, writes the results. */
#include "emit.h"

#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "bf_version.h"

static void set_str(lua_State *L, const char *key, const char *value)
{
    if (!value)
        return;
    lua_pushstring(L, value);
    lua_setfield(L, -2, key);
}

static void set_int(lua_State *L, const char *key, int64_t value)
{
    lua_pushinteger(L, (lua_Integer)value);
    lua_setfield(L, -2, key);
}

static void set_bool(lua_State *L, const char *key, int value)
{
    if (!value)
        return;
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, key);
}

static void push_strings(lua_State *L, const ptr_vec *v)
{
    lua_newtable(L);
    for (size_t j = 0; j < v->len; j++) {
        lua_pushstring(L, v->items[j]);
        lua_rawseti(L, -2, (lua_Integer)j + 1);
    }
}

/* A file kind's members (file sets), as plain strings: the CLI walks them through the meta tables. */
static void push_members(lua_State *L, const ptr_vec *members)
{
    lua_newtable(L);
    for (size_t i = 0; i < members->len; i++) {
        const member *m = members->items[i];
        lua_newtable(L);
        set_str(L, "name", m->name);
        set_str(L, "doc", m->doc);
        set_str(L, "kind", m->kind);
        set_str(L, "each", m->each);
        set_str(L, "each_type", m->each_type);
        set_str(L, "orphans", m->orphans);
        push_strings(L, &m->files);
        lua_setfield(L, -2, "files");
        lua_newtable(L);
        for (size_t j = 0; j < m->checks.len; j++) {
            const member_check *c = m->checks.items[j];
            lua_newtable(L);
            set_str(L, "values", c->values);
            set_str(L, "origin", c->origin);
            push_strings(L, &c->below);
            lua_setfield(L, -2, "below");
            push_strings(L, &c->among);
            lua_setfield(L, -2, "among");
            lua_pushboolean(L, c->ignore_case);
            lua_setfield(L, -2, "ignore_case");
            set_str(L, "severity", c->warning ? "warning" : "error");
            lua_rawseti(L, -2, (lua_Integer)j + 1);
        }
        lua_setfield(L, -2, "checks");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
}

static void set_loc(lua_State *L, src_loc at)
{
    set_int(L, "line", at.line);
}

static const char *const expr_kinds[] = {"int", "float", "name", "member", "index", "call", "unary", "binary", "cond"};
static const char *const value_kinds[] = {"error", "int", "float", "struct", "array", "bytes", "string", "enum", "switch"};
static const char *const ref_kinds[] = {"none", "field", "param", "root", "index", "prev", "it", "value",
                                        "start", "pos", "end", "size", "enum_type", "enum_const", "bits", "case", "revision", "named"};
static const char *const field_kinds[] = {"prim", "struct", "bytes", "cstr", "str", "switch"};

static void push_expr(lua_State *L, const expr *e);

static void push_field_ref(lua_State *L, const field *fl)
{
    /* enough of the field to render an access to it */
    lua_newtable(L);
    set_str(L, "name", fl->name);
    set_str(L, "kind", field_kinds[fl->kind]);
    set_str(L, "owner", fl->owner->name);
    set_bool(L, "array", fl->is_array);
    int64_t fixed_count;
    if (fl->is_array && fl->count && expr_const_int(fl->count, &fixed_count))
        set_int(L, "fixed_count", fixed_count);
    if (fl->kind == FT_PRIM)
        set_str(L, "prim", prim_name(fl->prim));
    if (fl->type)
        set_str(L, "type", fl->type->name);
    set_bool(L, "located", fl->pos != NULL);
    set_str(L, "prefix", fl->prefix);
    set_bool(L, "computed", fl->computed);
    lua_newtable(L);
    for (size_t i = 0; i < fl->cases.len; i++) {
        const switch_case *c = fl->cases.items[i];
        lua_newtable(L);
        set_int(L, "value", c->value);
        set_bool(L, "default", c->is_default);
        if (c->type)
            set_str(L, "type", c->type->name);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "cases");
    if (fl->static_offset >= 0)
        set_int(L, "offset", fl->static_offset);
    if (fl->elem_size >= 0)
        set_int(L, "elem_size", fl->elem_size);
    set_bool(L, "cond", fl->cond != NULL);
    if (fl->enumdef)
        set_str(L, "enum", fl->enumdef->name);
    lua_newtable(L);
    for (size_t i = 0; i < fl->bits.len; i++) {
        const bit_field *b = fl->bits.items[i];
        lua_newtable(L);
        set_int(L, "width", b->width);
        set_int(L, "shift", b->shift);
        set_bool(L, "signed", b->is_signed);
        lua_setfield(L, -2, b->name);
    }
    lua_setfield(L, -2, "bits");
}

static void set_expr(lua_State *L, const char *key, const expr *e)
{
    if (!e)
        return;
    push_expr(L, e);
    lua_setfield(L, -2, key);
}

static void push_expr(lua_State *L, const expr *e)
{
    lua_newtable(L);
    set_str(L, "k", expr_kinds[e->kind]);
    set_str(L, "vt", value_kinds[e->vt.kind]);
    if (e->vt.type)
        set_str(L, "vtype", e->vt.type->name);
    if (e->kind == EX_INT)
        set_int(L, "v", (int64_t)e->ival);
    if (e->kind == EX_FLOAT) {
        lua_pushnumber(L, e->fval);
        lua_setfield(L, -2, "v");
    }
    set_str(L, "name", e->name);
    set_str(L, "op", e->op);
    set_str(L, "text", e->text);
    set_str(L, "ref", ref_kinds[e->ref]);
    if (e->ref_field) {
        push_field_ref(L, e->ref_field);
        lua_setfield(L, -2, "field");
    }
    if (e->ref == REF_ENUM_CONST)
        set_int(L, "const", e->const_value);
    if (e->ref == REF_PARAM)
        set_int(L, "param", e->ref_param + 1);
    if (e->ref == REF_NAMED && e->ref_value) {
        set_str(L, "value_name", e->ref_value->name);
        set_str(L, "value_owner", e->ref_value->owner->name);
    }
    set_expr(L, "a", e->a);
    set_expr(L, "b", e->b);
    set_expr(L, "c", e->c);
    if (e->nargs) {
        lua_newtable(L);
        for (size_t i = 0; i < e->nargs; i++) {
            push_expr(L, e->args[i]);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        lua_setfield(L, -2, "args");
    }
}

static void push_field(lua_State *L, const field *fl)
{
    lua_newtable(L);
    set_str(L, "name", fl->name);
    set_str(L, "doc", fl->doc);
    set_str(L, "erratum", fl->erratum);
    set_loc(L, fl->loc);
    set_str(L, "kind", field_kinds[fl->kind]);
    set_str(L, "type_text", fl->type_text);
    if (fl->kind == FT_PRIM) {
        set_str(L, "prim", prim_name(fl->prim));
        set_int(L, "prim_size", prim_size(fl->prim));
        set_bool(L, "signed", prim_is_signed(fl->prim));
        set_bool(L, "float", prim_is_float(fl->prim));
    }
    set_str(L, "endian", fl->little_endian ? "le" : "be");
    if (fl->type)
        set_str(L, "type", fl->type->name);
    if (fl->enumdef) {
        set_str(L, fl->enumdef->is_flags ? "flags" : "enum", fl->enumdef->name);
    }
    if (fl->kind == FT_STR)
        set_int(L, "str_len", fl->str_len);
    set_bool(L, "array", fl->is_array);
    set_expr(L, "count", fl->count);
    int64_t fixed_count;
    if (fl->is_array && fl->kind != FT_BYTES && fl->count && expr_const_int(fl->count, &fixed_count))
        set_int(L, "fixed_count", fixed_count);
    set_expr(L, "until", fl->until);
    set_bool(L, "to_end", fl->to_end);
    set_expr(L, "size", fl->size);
    set_expr(L, "pos", fl->pos);
    set_expr(L, "cond", fl->cond);
    if (fl->align)
        set_int(L, "align", fl->align);
    set_expr(L, "const", fl->const_value);
    set_str(L, "const_str", fl->const_str);
    set_expr(L, "expect", fl->expect);
    set_bool(L, "expect_warning", fl->expect_warning);
    set_str(L, "expect_origin", fl->expect_origin);
    set_expr(L, "string_table", fl->string_table);
    if (fl->has_string_null)
        set_int(L, "string_null", fl->string_null);
    if (fl->is_fixed) {
        set_int(L, "fixed_int", fl->fixed_int);
        set_int(L, "fixed_frac", fl->fixed_frac);
    }
    set_expr(L, "derive", fl->derive);
    set_expr(L, "value", fl->value);
    set_str(L, "prefix", fl->prefix);
    set_bool(L, "computed", fl->computed);
    if (fl->has_padding) {
        lua_newtable(L);
        lua_newtable(L);
        for (size_t i = 0; i < fl->pad_fill.len; i++) {
            lua_pushstring(L, fl->pad_fill.items[i]);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        lua_setfield(L, -2, "fill");
        set_expr(L, "unit", fl->pad_unit);
        set_int(L, "below", fl->pad_below);
        lua_setfield(L, -2, "padding");
    }
    set_str(L, "derive_doc", fl->derive_doc);
    if (fl->has_at)
        set_int(L, "at", fl->declared_at);
    if (fl->has_document_at)
        set_int(L, "document_at", fl->document_at);
    if (fl->static_offset >= 0)
        set_int(L, "offset", fl->static_offset);
    if (fl->elem_size >= 0)
        set_int(L, "elem_size", fl->elem_size);
    set_int(L, "min_elem_size", fl->min_elem_size);
    set_bool(L, "used_as_count", fl->used_as_count);
    set_bool(L, "used_as_offset", fl->used_as_offset);
    set_bool(L, "used_as_index", fl->used_as_index);

    lua_newtable(L);
    for (size_t i = 0; i < fl->bits.len; i++) {
        const bit_field *b = fl->bits.items[i];
        lua_newtable(L);
        set_str(L, "name", b->name);
        set_str(L, "doc", b->doc);
        set_int(L, "width", b->width);
        set_int(L, "shift", b->shift);
        set_bool(L, "signed", b->is_signed);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "bits");

    lua_newtable(L);
    for (size_t i = 0; i < fl->args.len; i++) {
        const named_expr *a = fl->args.items[i];
        push_expr(L, a->value);
        lua_setfield(L, -2, a->name);
    }
    lua_setfield(L, -2, "args");

    if (fl->kind == FT_SWITCH) {
        set_expr(L, "switch_on", fl->switch_on);
        lua_newtable(L);
        for (size_t i = 0; i < fl->cases.len; i++) {
            const switch_case *c = fl->cases.items[i];
            lua_newtable(L);
            set_str(L, "label", c->label);
            set_int(L, "value", c->value);
            set_bool(L, "default", c->is_default);
            if (c->align)
                set_int(L, "align", c->align);
            set_bool(L, "pool", c->pool);
            if (c->type)
                set_str(L, "type", c->type->name);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        lua_setfield(L, -2, "cases");
    }
}

static void push_format(lua_State *L, const format *f)
{
    lua_newtable(L);
    set_str(L, "name", f->name);
    set_str(L, "title", f->title);
    set_str(L, "doc", f->doc);
    set_str(L, "document", f->document);
    set_str(L, "document_title", f->document_title);
    set_str(L, "schema", f->file);
    set_str(L, "endian", f->little_endian ? "little" : "big");
    set_str(L, "runtime_version", BF_RUNTIME_VERSION);
    set_int(L, "runtime_version_number", BF_RUNTIME_VERSION_NUMBER);

    lua_newtable(L);
    for (size_t i = 0; i < f->revisions.len; i++) {
        const revision *r = f->revisions.items[i];
        lua_newtable(L);
        set_str(L, "name", r->name);
        set_str(L, "doc", r->doc);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "revisions");

    lua_newtable(L);
    for (size_t i = 0; i < f->entries.len; i++) {
        const entry *e = f->entries.items[i];
        lua_newtable(L);
        set_str(L, "name", e->name);
        set_str(L, "doc", e->doc);
        set_str(L, "root", e->root ? e->root->name : NULL);
        set_str(L, "magic", e->magic);
        set_int(L, "magic_at", e->magic_at);
        lua_newtable(L);
        for (size_t j = 0; j < e->extensions.len; j++) {
            lua_pushstring(L, e->extensions.items[j]);
            lua_rawseti(L, -2, (lua_Integer)j + 1);
        }
        lua_setfield(L, -2, "extensions");
        push_members(L, &e->members);
        lua_setfield(L, -2, "members");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "entries");

    lua_newtable(L);
    for (size_t i = 0; i < f->enums.len; i++) {
        const enum_def *e = f->enums.items[i];
        lua_newtable(L);
        set_str(L, "name", e->name);
        set_str(L, "doc", e->doc);
        set_str(L, "base", prim_name(e->base));
        set_bool(L, "flags", e->is_flags);
        set_bool(L, "open", e->is_open);
        lua_newtable(L);
        for (size_t j = 0; j < e->values.len; j++) {
            const enum_value *v = e->values.items[j];
            lua_newtable(L);
            set_str(L, "name", v->name);
            set_str(L, "doc", v->doc);
            set_int(L, "value", v->value);
            lua_rawseti(L, -2, (lua_Integer)j + 1);
        }
        lua_setfield(L, -2, "values");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "enums");

    lua_newtable(L);
    for (size_t i = 0; i < f->types.len; i++) {
        const type_def *t = f->types.items[i];
        lua_newtable(L);
        set_str(L, "name", t->name);
        set_str(L, "doc", t->doc);
        set_loc(L, t->loc);
        if (t->static_size >= 0)
            set_int(L, "size", t->static_size);
        set_int(L, "min_size", t->min_size);
        set_int(L, "kind_id", t->kind_id);
        if (t->align)
            set_int(L, "align", t->align);
        set_bool(L, "needs_link", t->needs_link);
        lua_newtable(L);
        for (size_t j = 0; j < t->tables.len; j++) {
            lua_pushstring(L, t->tables.items[j]);
            lua_rawseti(L, -2, (lua_Integer)j + 1);
        }
        lua_setfield(L, -2, "tables");
        lua_newtable(L);
        for (size_t j = 0; j < t->absent_rows.len; j++) {
            const absent_row *r = t->absent_rows.items[j];
            lua_newtable(L);
            set_str(L, "row", r->row);
            set_str(L, "reason", r->reason);
            lua_rawseti(L, -2, (lua_Integer)j + 1);
        }
        lua_setfield(L, -2, "absent_rows");
        lua_newtable(L);
        for (size_t j = 0; j < t->rules.len; j++) {
            const rule *r = t->rules.items[j];
            lua_newtable(L);
            set_int(L, "line", r->loc.line);
            set_expr(L, "check", r->check);
            set_str(L, "message", r->message);
            set_str(L, "severity", r->warning ? "warning" : "error");
            set_str(L, "origin", r->origin);
            set_str(L, "each", r->each);
            set_expr(L, "at", r->at);
            lua_newtable(L);
            for (size_t k = 0; k < r->parts.len; k++) {
                const msg_part *p = r->parts.items[k];
                lua_newtable(L);
                set_str(L, "text", p->text);
                set_expr(L, "value", p->value);
                set_bool(L, "hex", p->hex);
                lua_rawseti(L, -2, (lua_Integer)k + 1);
            }
            lua_setfield(L, -2, "parts");
            lua_rawseti(L, -2, (lua_Integer)j + 1);
        }
        lua_setfield(L, -2, "rules");
        lua_newtable(L);
        for (size_t j = 0; j < t->params.len; j++) {
            const param *p = t->params.items[j];
            lua_newtable(L);
            set_str(L, "name", p->name);
            set_str(L, "doc", p->doc);
            lua_rawseti(L, -2, (lua_Integer)j + 1);
        }
        lua_setfield(L, -2, "params");
        lua_newtable(L);
        for (size_t j = 0; j < t->values.len; j++) {
            const named_value *v = t->values.items[j];
            lua_newtable(L);
            set_str(L, "name", v->name);
            set_str(L, "doc", v->doc);
            set_int(L, "line", v->loc.line);
            set_bool(L, "synthetic", v->synthetic);
            set_expr(L, "expr", v->value);
            lua_rawseti(L, -2, (lua_Integer)j + 1);
        }
        lua_setfield(L, -2, "values");
        lua_newtable(L);
        for (size_t j = 0; j < t->fields.len; j++) {
            push_field(L, t->fields.items[j]);
            lua_rawseti(L, -2, (lua_Integer)j + 1);
        }
        lua_setfield(L, -2, "fields");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "types");
}

static int make_dirs(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return 0;
        *p = '/';
    }
    return 1;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
            }
            buf = bigger;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Writes `content` to out_dir/name unless it is already there. */
static int write_output(const char *out_dir, const char *name, const char *content, size_t len, int check)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", out_dir, name);
    size_t old_len = 0;
    char *old = read_all(path, &old_len);
    int same = old && old_len == len && memcmp(old, content, len) == 0;
    free(old);
    if (same)
        return 1;
    if (check) {
        fprintf(stderr, "bfgen: %s is not what the schemas give (run 'make generate')\n", path);
        return 0;
    }
    if (!make_dirs(path)) {
        fprintf(stderr, "bfgen: cannot create the folder for %s: %s\n", path, strerror(errno));
        return 0;
    }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f || fwrite(content, 1, len, f) != len || fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "bfgen: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
        return 0;
    }
    return 1;
}

/* Template errors carry a traceback: they are bugs in the templates, found by their author. */
static int traceback(lua_State *L)
{
    luaL_traceback(L, L, lua_tostring(L, 1), 1);
    return 1;
}

/* Which part of the output a generated file is. */
static unsigned part_of(const char *name)
{
    size_t n = strlen(name);
    if (strcmp(name, "formats.h") == 0 || strcmp(name, "formats.c") == 0 || strncmp(name, "docs/index.", 11) == 0)
        return EMIT_INDEX;
    if (strncmp(name, "docs/", 5) == 0)
        return EMIT_DOCS;
    static const struct {
        const char *suffix;
        unsigned part;
    } suffixes[] = {{"_write.c", EMIT_WRITER}, {"_validate.c", EMIT_VALIDATOR}, {"_meta.c", EMIT_META},
                    {"_access.h", EMIT_ACCESS}, {"_view.h", EMIT_VIEW}, {"_view.c", EMIT_VIEW},
                    {".h", EMIT_HEADER}, {".c", EMIT_READER}};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        size_t m = strlen(suffixes[i].suffix);
        if (n > m && strcmp(name + n - m, suffixes[i].suffix) == 0)
            return suffixes[i].part;
    }
    return EMIT_ALL;
}

/* Calls the function on top of the stack (`nargs` arguments below it) and writes every
 * name -> content pair of the table it returns that belongs to `parts`. */
static int run_and_write(lua_State *L, int nargs, const char *out_dir, int check, unsigned parts)
{
    lua_pushcfunction(L, traceback);
    lua_insert(L, -2 - nargs);
    int status = lua_pcall(L, nargs, 1, -2 - nargs);
    lua_remove(L, -2);
    if (status != LUA_OK) {
        fprintf(stderr, "bfgen: template error: %s\n", lua_tostring(L, -1));
        lua_pop(L, 1);
        return 0;
    }
    if (!lua_istable(L, -1)) {
        fprintf(stderr, "bfgen: a template must return a table of file name -> content\n");
        lua_pop(L, 1);
        return 0;
    }
    int ok = 1;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        size_t len;
        const char *content = lua_tolstring(L, -1, &len);
        const char *name = lua_tostring(L, -2);
        if (!content || !name) {
            fprintf(stderr, "bfgen: a template returned a non-string file\n");
            ok = 0;
        } else if (part_of(name) & parts) {
            ok &= write_output(out_dir, name, content, len, check);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return ok;
}

static lua_State *open_templates(const char *template_dir)
{
    lua_State *L = luaL_newstate();
    if (!L)
        return NULL;
    luaL_openlibs(L);
    /* templates `require` each other from their folder only */
    lua_getglobal(L, "package");
    lua_pushfstring(L, "%s/?.lua", template_dir);
    lua_setfield(L, -2, "path");
    lua_pushstring(L, "");
    lua_setfield(L, -2, "cpath");
    lua_pop(L, 1);
    return L;
}

int emit_report(format **formats, size_t count, const char *template_dir, const char *name, int argc, char **argv)
{
    lua_State *L = open_templates(template_dir);
    if (!L)
        return 2;
    char path[4096];
    snprintf(path, sizeof path, "%s/report_%s.lua", template_dir, name);
    if (luaL_dofile(L, path) != LUA_OK) {
        fprintf(stderr, "bfgen: report error: %s\n", lua_tostring(L, -1));
        lua_close(L);
        return 2;
    }
    lua_newtable(L);
    for (size_t i = 0; i < count; i++) {
        push_format(L, formats[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_newtable(L);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    int status = 2;
    if (lua_pcall(L, 2, 1, 0) != LUA_OK)
        fprintf(stderr, "bfgen: report error: %s\n", lua_tostring(L, -1));
    else
        status = (int)lua_tointeger(L, -1);
    lua_close(L);
    return status;
}

/* Names of formats generated into `out_dir` before (a FORMAT_meta.c there) that are not among
 * `formats`, as a Lua list on the stack: the index keeps them. */
static void push_other_formats(lua_State *L, format **formats, size_t count, const char *out_dir)
{
    lua_newtable(L);
    DIR *d = opendir(out_dir);
    if (!d)
        return;
    lua_Integer n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len <= 7 || strcmp(e->d_name + len - 7, "_meta.c") != 0)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(len - 7), e->d_name);
        int known = 0;
        for (size_t i = 0; i < count; i++)
            known |= strcmp(formats[i]->name, name) == 0;
        if (!known) {
            lua_pushstring(L, name);
            lua_rawseti(L, -2, ++n);
        }
    }
    closedir(d);
}

int emit_all(format **formats, size_t count, const char *template_dir, const char *out_dir, int check,
             unsigned parts)
{
    lua_State *L = open_templates(template_dir);
    if (!L)
        return 1;

    char main_path[4096];
    snprintf(main_path, sizeof main_path, "%s/main.lua", template_dir);
    int ok = 1;
    if (luaL_dofile(L, main_path) != LUA_OK) {
        fprintf(stderr, "bfgen: template error: %s\n", lua_tostring(L, -1));
        lua_close(L);
        return 1;
    }
    int templates = lua_gettop(L);
    for (size_t i = 0; i < count && ok; i++) {
        lua_getfield(L, templates, "format");
        push_format(L, formats[i]);
        ok &= run_and_write(L, 1, out_dir, check, parts);
    }
    if (ok && (parts & EMIT_INDEX)) {
        lua_getfield(L, templates, "index");
        lua_newtable(L);
        for (size_t i = 0; i < count; i++) {
            push_format(L, formats[i]);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        push_other_formats(L, formats, count, out_dir);
        ok &= run_and_write(L, 2, out_dir, check, parts);
    }
    lua_close(L);
    return ok ? 0 : 1;
}
