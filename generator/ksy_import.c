/* bfgen import: a Kaitai Struct format (.ksy) -> a readable binform schema (.yaml).
 *
 * Kaitai's types become binform types (CamelCase, nested types flattened), `seq` becomes
 * `fields`, positioned instances become fields with `pos:` after them, value instances named
 * values, enums enums; docs and ids are kept. Whatever binform's language cannot say is an
 * error at the .ksy's line and column naming the Kaitai construct: the importer never writes
 * a schema that reads differently. */
#define _DEFAULT_SOURCE
#include "ksy_import.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "yaml_tree.h"

void ksy_buf_add(ksy_buf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *t = pool_alloc(cap);
        if (b->len)
            memcpy(t, b->text, b->len);
        b->text = t;
        b->cap = cap;
    }
    memcpy(b->text + b->len, s, n + 1);
    b->len += n;
}

const char *ksy_buf_text(ksy_buf *b) { return b->text ? b->text : ""; }

/* ---- the Kaitai file as types and enums with their scopes ---- */

typedef struct kenum {
    const char *name, *bf_name;
    const ynode *node; /* id -> member map */
} kenum;

/* Where a type's `_io` starts: the file, or the type's own start (a `size:` substream). */
typedef enum { IO_UNKNOWN, IO_FILE, IO_START, IO_MIXED } io_origin;

typedef struct kfile kfile;
struct ksy_scope {
    const char *name, *bf_name;
    const ynode *node;
    ksy_scope *parent;
    kfile *file;
    ptr_vec types, enums;
    io_origin io;
    int reached; /* from the root, through fields: only those are written */
    int inline_state; /* refuse_recursion: 1 while its seq is walked, 2 once done */
    /* Kaitai bit fields packed into one integer: name -> "bitsN.name" */
    ptr_vec bit_names, bit_paths;
    int bit_runs;
    /* Kaitai's `_parent.PATH` used in the type: PATH and the parameter that carries it */
    ptr_vec parent_paths, parent_params;
};

struct kfile {
    const char *path, *id;
    ksy_scope *root;
    ptr_vec all_types, all_enums, imports; /* imports: kfile* */
    const char *endian;                    /* "little", "big", or NULL */
    const char *schema_endian;             /* the schema's: endian, else the imports', else little */
    const char *out_path;                  /* where its schema is written */
    int is_import;                         /* written as a library of the main format's types */
    int bit_le;
};

static ptr_vec include_dirs;
static int parent_params_added; /* in this pass: another pass is needed to pass them */
static ptr_vec loaded; /* kfile*, to load each import once; the main format first */
static const char *main_out;

static const char *scalar(const ynode *n) { return n && n->kind == YN_SCALAR ? n->text : NULL; }

static char *camel(const char *snake)
{
    ksy_buf b = {0};
    int up = 1;
    for (const char *p = snake; *p; p++) {
        if (*p == '_') {
            up = 1;
            continue;
        }
        char c[2] = {up ? (char)toupper((unsigned char)*p) : *p, 0};
        ksy_buf_add(&b, c);
        up = 0;
    }
    return (char *)ksy_buf_text(&b);
}

static int taken(const ptr_vec *all, const char *bf_name, size_t skip_struct_offset)
{
    (void)skip_struct_offset;
    for (size_t i = 0; i < all->len; i++) {
        const char *n = *(const char *const *)((const char *)all->items[i] + skip_struct_offset);
        if (strcmp(n, bf_name) == 0)
            return 1;
    }
    return 0;
}

/* A flattened name: in CamelCase, after its outer types' names below the root (so that the
 * names of two files, which binform's imports merge, clash less), and with more of them when
 * another type or enum of the file already has it. */
static const char *flat_name(kfile *f, ksy_scope *outer, const char *name, int is_enum)
{
    const char *bf = outer && outer->parent ? pool_printf("%s%s", outer->bf_name, camel(name)) : camel(name);
    if (outer && outer->parent)
        outer = outer->parent;
    size_t off = is_enum ? offsetof(kenum, bf_name) : offsetof(ksy_scope, bf_name);
    const ptr_vec *all = is_enum ? &f->all_enums : &f->all_types;
    for (ksy_scope *s = outer; s && taken(all, bf, off); s = s->parent)
        bf = pool_printf("%s%s", s->bf_name, camel(name));
    return bf;
}

static void collect(kfile *f, ksy_scope *s)
{
    const ynode *enums = ynode_get(s->node, "enums");
    for (size_t i = 0; enums && enums->kind == YN_MAP && i < enums->len; i++) {
        kenum *e = pool_alloc(sizeof *e);
        e->name = enums->keys[i]->text;
        e->bf_name = flat_name(f, s, e->name, 1);
        e->node = enums->values[i];
        vec_push(&s->enums, e);
        vec_push(&f->all_enums, e);
    }
    const ynode *types = ynode_get(s->node, "types");
    for (size_t i = 0; types && types->kind == YN_MAP && i < types->len; i++) {
        ksy_scope *t = pool_alloc(sizeof *t);
        t->name = types->keys[i]->text;
        t->bf_name = flat_name(f, s, t->name, 0);
        t->node = types->values[i];
        t->parent = s;
        t->file = f;
        vec_push(&s->types, t);
        vec_push(&f->all_types, t);
    }
    for (size_t i = 0; i < s->types.len; i++)
        collect(f, s->types.items[i]);
}

static kfile *load_ksy(const char *path, const char *out_path);

/* Finds an import: beside the importer, then in each -I folder. */
static char *find_import(const char *name, const char *importer)
{
    const char *slash = strrchr(importer, '/');
    char *beside = name[0] == '/' ? NULL
                 : slash ? pool_printf("%.*s/%s.ksy", (int)(slash - importer), importer, name)
                         : pool_printf("%s.ksy", name);
    if (beside && access(beside, R_OK) == 0)
        return beside;
    for (size_t i = 0; i < include_dirs.len; i++) {
        char *p = pool_printf("%s/%s.ksy", (const char *)include_dirs.items[i], name[0] == '/' ? name + 1 : name);
        if (access(p, R_OK) == 0)
            return p;
    }
    return NULL;
}

/* Loads a .ksy once (and what it imports); `out_path` is where its schema will be written. */
static kfile *load_ksy(const char *path, const char *out_path)
{
    for (size_t i = 0; i < loaded.len; i++)
        if (strcmp(((kfile *)loaded.items[i])->path, path) == 0)
            return loaded.items[i];
    ynode *doc = yaml_load_file(path);
    if (!doc)
        return NULL;
    if (doc->kind != YN_MAP) {
        diag_error(doc->loc, "a .ksy file is a map (meta, seq, types, ...)");
        return NULL;
    }
    kfile *f = pool_alloc(sizeof *f);
    f->path = pool_strdup(path);
    vec_push(&loaded, f);
    f->out_path = out_path;
    f->is_import = loaded.len > 1;
    const ynode *meta = ynode_get(doc, "meta");
    f->id = scalar(ynode_get(meta, "id"));
    if (!f->id) {
        diag_error(meta ? meta->loc : doc->loc, "the Kaitai format has no meta/id");
        return NULL;
    }
    const char *endian = scalar(ynode_get(meta, "endian"));
    f->endian = !endian ? NULL : strcmp(endian, "le") == 0 ? "little" : strcmp(endian, "be") == 0 ? "big" : NULL;
    if (ynode_get(meta, "endian") && !f->endian)
        diag_error(ynode_get(meta, "endian")->loc,
                   "Kaitai's byte order chosen at run time (meta/endian: switch-on) cannot be expressed in binform");
    const char *bit_endian = scalar(ynode_get(meta, "bit-endian"));
    f->bit_le = bit_endian && strcmp(bit_endian, "le") == 0;
    ksy_scope *root = pool_alloc(sizeof *root);
    root->name = f->id;
    root->bf_name = camel(f->id);
    root->node = doc;
    root->file = f;
    root->io = IO_FILE;
    f->root = root;
    vec_push(&f->all_types, root);
    collect(f, root);
    const ynode *imports = ynode_get(meta, "imports");
    for (size_t i = 0; imports && imports->kind == YN_SEQ && i < imports->len; i++) {
        const char *name = scalar(imports->values[i]);
        char *found = name ? find_import(name, path) : NULL;
        if (!found) {
            diag_error(imports->values[i]->loc, "import '%s' not found beside %s or in an -I folder", name ? name : "?", path);
            continue;
        }
        /* its schema goes where the importer's `imports:` entry finds it */
        kfile *main_file = loaded.items[0];
        const char *base = name[0] == '/' ? main_file->out_path : f->out_path;
        const char *slash = strrchr(base, '/');
        const char *rel = name[0] == '/' ? name + 1 : name;
        const char *out = slash ? pool_printf("%.*s/%s.yaml", (int)(slash - base), base, rel) : pool_printf("%s.yaml", rel);
        kfile *lib = load_ksy(found, out);
        if (lib)
            vec_push(&f->imports, lib);
    }
    return f;
}

/* ---- name resolution (Kaitai: from the current type outwards, then imports) ---- */

static ksy_scope *child_type(const ksy_scope *s, const char *name, size_t n)
{
    for (size_t i = 0; i < s->types.len; i++) {
        ksy_scope *t = s->types.items[i];
        if (strlen(t->name) == n && strncmp(t->name, name, n) == 0)
            return t;
    }
    return NULL;
}

/* The type the first `::` component names, seen from `s`. */
static ksy_scope *first_type(ksy_scope *s, const char *name, size_t n)
{
    for (ksy_scope *o = s; o; o = o->parent) {
        ksy_scope *t = child_type(o, name, n);
        if (t)
            return t;
        if (!o->parent && strlen(o->name) == n && strncmp(o->name, name, n) == 0)
            return o;
    }
    kfile *f = s->file;
    for (size_t i = 0; i < f->imports.len; i++) {
        kfile *lib = f->imports.items[i];
        if (strlen(lib->id) == n && strncmp(lib->id, name, n) == 0)
            return lib->root;
    }
    return NULL;
}

/* `a::b::c` -> the type it names, or NULL. */
static ksy_scope *resolve_type(ksy_scope *s, const char *path)
{
    const char *sep = strstr(path, "::");
    size_t n = sep ? (size_t)(sep - path) : strlen(path);
    ksy_scope *t = first_type(s, path, n);
    while (t && sep) {
        path = sep + 2;
        sep = strstr(path, "::");
        n = sep ? (size_t)(sep - path) : strlen(path);
        t = child_type(t, path, n);
    }
    return t;
}

static kenum *enum_in(const ksy_scope *s, const char *name)
{
    for (size_t i = 0; i < s->enums.len; i++)
        if (strcmp(((kenum *)s->enums.items[i])->name, name) == 0)
            return s->enums.items[i];
    return NULL;
}

/* `enum` or `type::enum` -> the enum, or NULL. */
static kenum *resolve_enum(ksy_scope *s, const char *path)
{
    const char *last = path;
    for (const char *p = strstr(path, "::"); p; p = strstr(p + 2, "::"))
        last = p + 2;
    if (last == path) {
        for (ksy_scope *o = s; o; o = o->parent) {
            kenum *e = enum_in(o, path);
            if (e)
                return e;
        }
        return NULL;
    }
    ksy_scope *t = resolve_type(s, pool_strndup(path, (size_t)(last - 2 - path)));
    return t ? enum_in(t, last) : NULL;
}

int ksy_enum_value(ksy_scope *scope, const char *word, src_loc at, int64_t *out, const char **member)
{
    const char *last = word;
    for (const char *p = strstr(word, "::"); p; p = strstr(p + 2, "::"))
        last = p + 2;
    kenum *e = last == word ? NULL : resolve_enum(scope, pool_strndup(word, (size_t)(last - 2 - word)));
    if (!e) {
        diag_error(at, "no enum for '%s'", word);
        return 0;
    }
    for (size_t i = 0; e->node->kind == YN_MAP && i < e->node->len; i++) {
        const ynode *v = e->node->values[i];
        const char *id = v->kind == YN_MAP ? scalar(ynode_get(v, "id")) : scalar(v);
        if (id && strcmp(id, last) == 0) {
            *out = (int64_t)strtoll(e->node->keys[i]->text, NULL, 0);
            if (member)
                *member = id;
            return 1;
        }
    }
    diag_error(at, "enum '%s' has no member '%s'", e->name, last);
    return 0;
}

const char *ksy_enum_literal(ksy_scope *scope, const char *word, src_loc at)
{
    int64_t v;
    const char *member;
    if (!ksy_enum_value(scope, word, at, &v, &member))
        return NULL;
    const char *last = word;
    for (const char *p = strstr(word, "::"); p; p = strstr(p + 2, "::"))
        last = p + 2;
    kenum *e = resolve_enum(scope, pool_strndup(word, (size_t)(last - 2 - word)));
    return pool_printf("%s.%s", e->bf_name, member);
}

const char *ksy_io_member(ksy_scope *scope, const char *name, src_loc at)
{
    if (scope->io != IO_FILE && scope->io != IO_START) {
        diag_error(at, "Kaitai's '_io.%s' in type '%s', whose stream is not known (read without a size inside a "
                   "substream, both inside and outside substreams, or not at all), cannot be expressed in binform",
                   name, scope->name);
        return NULL;
    }
    if (strcmp(name, "pos") == 0)
        return scope->io == IO_FILE ? "_pos" : "(_pos - _start)";
    if (strcmp(name, "size") == 0)
        return scope->io == IO_FILE ? "_size" : "(_end - _start)";
    if (strcmp(name, "eof") == 0 || strcmp(name, "is_eof") == 0)
        return "(_pos >= _end)";
    diag_error(at, "Kaitai's '_io.%s' cannot be expressed in binform", name);
    return NULL;
}

static ksy_scope *struct_of_path(ksy_scope *s, const char *text, int depth);
static int number_type(const char *t, const char **bf, const char **endian);
static int bits_type(const char *t, int *width, int *le);
static const char *split_args(const char *type, ptr_vec *args);
static int same_text(const char *a, const char *b);

/* The user type a seq item or instance `name` of type `s` reads, or NULL (a number, bytes, a
 * switch, or not a name of `s`). */
static ksy_scope *struct_of_name(ksy_scope *s, const char *name, int depth)
{
    const ynode *seq = ynode_get(s->node, "seq"), *inst = ynode_get(s->node, "instances"), *item = NULL;
    for (size_t i = 0; seq && seq->kind == YN_SEQ && i < seq->len && !item; i++)
        if (same_text(scalar(ynode_get(seq->values[i], "id")), name))
            item = seq->values[i];
    for (size_t i = 0; inst && inst->kind == YN_MAP && i < inst->len && !item; i++)
        if (strcmp(inst->keys[i]->text, name) == 0)
            item = inst->values[i];
    if (!item || item->kind != YN_MAP)
        return NULL;
    const ynode *value = ynode_get(item, "value");
    if (value)
        return scalar(value) ? struct_of_path(s, scalar(value), depth + 1) : NULL;
    const char *t = scalar(ynode_get(item, "type")), *bf, *endian;
    int w, le;
    if (!t || number_type(t, &bf, &endian) || bits_type(t, &w, &le) || !strcmp(t, "str") || !strcmp(t, "strz"))
        return NULL;
    ptr_vec args = {0};
    return resolve_type(s, split_args(t, &args));
}

/* The user type a Kaitai path (`_root.headers[i].body`: names, members, indexes) leads to, or
 * NULL when it is not such a path or ends on a number. */
static ksy_scope *struct_of_path(ksy_scope *s, const char *text, int depth)
{
    if (depth > 8)
        return NULL;
    ksy_scope *cur = s;
    const char *p = text;
    for (int first = 1;; first = 0) {
        while (*p == ' ')
            p++;
        const char *start = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        if (p == start || isdigit((unsigned char)*start))
            return NULL;
        const char *word = pool_strndup(start, (size_t)(p - start));
        if (first && strcmp(word, "_root") == 0)
            cur = s->file->root;
        else if (!(cur = struct_of_name(cur, word, depth)))
            return NULL;
        while (*p == '[') { /* an element of a repeated field: the same type */
            int open = 0;
            do {
                open += *p == '[' ? 1 : *p == ']' ? -1 : 0;
                p++;
            } while (*p && open);
            if (open)
                return NULL;
        }
        while (*p == ' ')
            p++;
        if (!*p)
            return cur;
        if (*p != '.')
            return NULL;
        p++;
    }
}

const char *ksy_local_name(ksy_scope *scope, const char *name)
{
    for (size_t i = 0; i < scope->bit_names.len; i++)
        if (strcmp(scope->bit_names.items[i], name) == 0)
            return scope->bit_paths.items[i];
    /* a value instance naming a structure (`_root.headers[idx]`): binform's values are numbers,
     * so the path is written where the name is used */
    const ynode *inst = ynode_get(scope->node, "instances");
    const ynode *item = inst && inst->kind == YN_MAP ? ynode_get(inst, name) : NULL;
    const ynode *value = item && item->kind == YN_MAP ? ynode_get(item, "value") : NULL;
    static int depth;
    if (scalar(value) && depth < 8 && struct_of_path(scope, scalar(value), 0)) {
        depth++;
        const char *path = ksy_expr(scope, scalar(value), value->loc);
        depth--;
        if (path)
            return path;
    }
    return name;
}

const char *ksy_parent_param(ksy_scope *scope, const char *path, src_loc at)
{
    if (!scope->parent && !scope->file->is_import) {
        diag_error(at, "Kaitai's '_parent' in the root type (which has no parent) cannot be expressed in binform");
        return NULL;
    }
    for (size_t i = 0; i < scope->parent_paths.len; i++)
        if (strcmp(scope->parent_paths.items[i], path) == 0)
            return scope->parent_params.items[i];
    ksy_buf name = {0};
    ksy_buf_add(&name, "parent_");
    for (const char *p = path; *p; p++) {
        char c[2] = {*p == '.' ? '_' : *p, 0};
        if (*p == '_' && (p == path || p[-1] == '.') && strncmp(p, "_parent", 7) == 0)
            continue; /* `_parent._parent.x` -> parent_parent_x */
        ksy_buf_add(&name, c);
    }
    vec_push(&scope->parent_paths, pool_strdup(path));
    vec_push(&scope->parent_params, (void *)ksy_buf_text(&name));
    parent_params_added++;
    return ksy_buf_text(&name);
}

int ksy_is_float(ksy_scope *scope, const char *name)
{
    const ynode *seq = ynode_get(scope->node, "seq"), *inst = ynode_get(scope->node, "instances");
    for (size_t i = 0; seq && seq->kind == YN_SEQ && i < seq->len; i++) {
        const char *id = scalar(ynode_get(seq->values[i], "id")), *t = scalar(ynode_get(seq->values[i], "type"));
        if (id && t && strcmp(id, name) == 0 && t[0] == 'f' && isdigit((unsigned char)t[1]))
            return 1;
    }
    const ynode *item = inst && inst->kind == YN_MAP ? ynode_get(inst, name) : NULL;
    const char *v = item ? scalar(ynode_get(item, "value")) : NULL, *t = item ? scalar(ynode_get(item, "type")) : NULL;
    if (t && t[0] == 'f' && isdigit((unsigned char)t[1]))
        return 1;
    for (const char *p = v; p && *p; p++)
        if (isdigit((unsigned char)p[0]) && p[1] == '.' && isdigit((unsigned char)p[2]))
            return 1;
    return 0;
}

/* ---- YAML output ---- */

static int plain_ok(const char *s)
{
    if (!*s)
        return 0;
    static const char *const words[] = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~", NULL};
    for (size_t i = 0; words[i]; i++)
        if (strcasecmp(s, words[i]) == 0)
            return 0;
    if (!isalpha((unsigned char)s[0]) && s[0] != '_' && !isdigit((unsigned char)s[0]))
        return 0;
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("_./-", *p))
            return 0;
    return 1;
}

/* A scalar, plain when YAML reads it back as the same string, else double-quoted. */
static void put_scalar(ksy_buf *o, const char *s)
{
    if (plain_ok(s)) {
        ksy_buf_add(o, s);
        return;
    }
    ksy_buf_add(o, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char c[8];
        if (*p == '"' || *p == '\\')
            snprintf(c, sizeof c, "\\%c", *p);
        else if (*p == '\n')
            snprintf(c, sizeof c, "\\n");
        else if (*p == '\t')
            snprintf(c, sizeof c, "\\t");
        else if (*p < 0x20 || *p == 0x7F)
            snprintf(c, sizeof c, "\\x%02X", *p);
        else
            snprintf(c, sizeof c, "%c", *p);
        ksy_buf_add(o, c);
    }
    ksy_buf_add(o, "\"");
}

static void put_line(ksy_buf *o, int indent, const char *key, const char *value)
{
    for (int i = 0; i < indent; i++)
        ksy_buf_add(o, " ");
    ksy_buf_add(o, key);
    ksy_buf_add(o, ":");
    if (value) {
        ksy_buf_add(o, " ");
        put_scalar(o, value);
    }
    ksy_buf_add(o, "\n");
}

/* `doc` with `doc-ref` appended, trailing new lines dropped; NULL when neither is there. */
static const char *doc_of(const ynode *n)
{
    const char *doc = scalar(ynode_get(n, "doc"));
    const ynode *ref = ynode_get(n, "doc-ref");
    ksy_buf b = {0};
    if (doc)
        ksy_buf_add(&b, doc);
    for (size_t i = 0; ref && i < (ref->kind == YN_SEQ ? ref->len : 1); i++) {
        const char *r = scalar(ref->kind == YN_SEQ ? ref->values[i] : ref);
        if (r) {
            ksy_buf_add(&b, b.len ? "\nSee " : "See ");
            ksy_buf_add(&b, r);
        }
    }
    if (!b.len)
        return NULL;
    while (b.len && (b.text[b.len - 1] == '\n' || b.text[b.len - 1] == ' '))
        b.text[--b.len] = '\0';
    return b.text;
}

/* ---- fields ---- */

typedef struct out_field {
    ksy_buf text; /* the field's keys, each "KEY: VALUE" line without indentation */
} out_field;

static void add_key(ksy_buf *f, const char *key, const char *value)
{
    put_line(f, 0, key, value);
}

static void add_raw(ksy_buf *f, const char *key, const char *raw)
{
    ksy_buf_add(f, key);
    ksy_buf_add(f, raw[0] == '\n' ? ":" : ": ");
    ksy_buf_add(f, raw);
    ksy_buf_add(f, "\n");
}

static const char *expr_of(ksy_scope *s, const ynode *n)
{
    const char *t = scalar(n);
    if (!t) {
        diag_error(n->loc, "an expression is expected here");
        return NULL;
    }
    return ksy_expr(s, t, n->loc);
}

static int is_c_keyword(const char *s)
{
    static const char *const kw[] = {"auto", "break", "case", "char", "const", "continue", "default", "do",
                                     "double", "else", "enum", "extern", "float", "for", "goto", "if", "inline",
                                     "int", "long", "register", "restrict", "return", "short", "signed", "sizeof",
                                     "static", "struct", "switch", "typedef", "union", "unsigned", "void",
                                     "volatile", "while", "bool", "true", "false", NULL};
    for (size_t i = 0; kw[i]; i++)
        if (strcmp(s, kw[i]) == 0)
            return 1;
    return 0;
}

/* Kaitai integer and float type names: u1..u8, s1..s8, f4, f8, with le/be. */
static int number_type(const char *t, const char **bf, const char **endian)
{
    *endian = NULL;
    if ((t[0] != 'u' && t[0] != 's' && t[0] != 'f') || !isdigit((unsigned char)t[1]))
        return 0;
    int size = t[1] - '0';
    const char *rest = t + 2;
    if (*rest == 'l' && strcmp(rest, "le") == 0)
        *endian = "little";
    else if (*rest == 'b' && strcmp(rest, "be") == 0)
        *endian = "big";
    else if (*rest)
        return 0;
    if (t[0] == 'f') {
        if (size != 4 && size != 8)
            return 0;
        *bf = size == 4 ? "f32" : "f64";
        return 1;
    }
    if (size != 1 && size != 2 && size != 4 && size != 8)
        return 0;
    *bf = pool_printf("%c%d", t[0], size * 8);
    return 1;
}

static int bits_type(const char *t, int *width, int *le)
{
    if (t[0] != 'b' || !isdigit((unsigned char)t[1]))
        return 0;
    char *end;
    long w = strtol(t + 1, &end, 10);
    *le = -1;
    if (strcmp(end, "le") == 0)
        *le = 1;
    else if (strcmp(end, "be") == 0)
        *le = 0;
    else if (*end)
        return 0;
    *width = (int)w;
    return w >= 1 && w <= 64;
}

static const char *const known_attrs[] = {"id", "type", "size", "size-eos", "repeat", "repeat-expr", "repeat-until",
                                          "if", "enum", "contents", "encoding", "doc", "doc-ref", "terminator",
                                          "consume", "include", "eos-error", "pad-right", "process", "valid", "pos",
                                          "io", "value", "parent", NULL};

/* Kaitai keys binform has no counterpart for: an error each, naming the key. */
static int refuse_attrs(const ynode *item)
{
    int ok = 1;
    for (size_t i = 0; i < item->len; i++) {
        const char *k = item->keys[i]->text;
        if (k[0] == '-')
            continue; /* -webide-representation, -orig-id, ...: tools' notes */
        size_t j = 0;
        while (known_attrs[j] && strcmp(known_attrs[j], k) != 0)
            j++;
        if (!known_attrs[j]) {
            diag_error(item->keys[i]->loc, "Kaitai's key '%s' is not known to bfgen import", k);
            ok = 0;
        }
    }
    static const struct {
        const char *key, *what;
    } refused[] = {
        {"process", "'process' (decompression, xor, rotation)"},
        {"io", "'io' (reading from another structure's stream)"},
        {"pad-right", "'pad-right'"},
        {"include", "'include' (a terminator kept in the value)"},
        {"eos-error", "'eos-error'"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        const ynode *v = ynode_get(item, refused[i].key);
        if (v) {
            diag_error(v->loc, "Kaitai's %s cannot be expressed in binform", refused[i].what);
            ok = 0;
        }
    }
    const ynode *consume = ynode_get(item, "consume");
    if (consume && scalar(consume) && strcmp(scalar(consume), "false") == 0) {
        diag_error(consume->loc, "Kaitai's 'consume: false' cannot be expressed in binform");
        ok = 0;
    }
    return ok;
}

/* Only encodings whose characters binform's byte strings hold as they are. */
static int encoding_ok(const ynode *item, const kfile *f)
{
    const ynode *enc = ynode_get(item, "encoding");
    const char *e = scalar(enc);
    if (!e) {
        const ynode *meta = ynode_get(f->root->node, "meta");
        enc = ynode_get(meta, "encoding");
        e = scalar(enc);
    }
    if (!e)
        return 1;
    static const char *const ok[] = {"ASCII", "UTF-8", "utf-8", "ascii", "UTF8", "utf8", NULL};
    for (size_t i = 0; ok[i]; i++)
        if (strcmp(e, ok[i]) == 0)
            return 1;
    diag_error(enc->loc, "Kaitai's encoding '%s' cannot be expressed in binform (strings are bytes; ASCII and UTF-8 only)", e);
    return 0;
}

/* Kaitai `contents`: binform's `const` on a string (printable ASCII) or on a big-endian
 * integer of the same bytes. */
static int contents_field(const ynode *c, ksy_buf *f)
{
    unsigned char bytes[8];
    size_t n = 0;
    int printable = 1;
    const ynode *items = c;
    size_t count = c->kind == YN_SEQ ? c->len : 1;
    for (size_t i = 0; i < count; i++) {
        const ynode *it = c->kind == YN_SEQ ? items->values[i] : c;
        const char *t = scalar(it);
        if (!t)
            goto refuse;
        if (it->plain && (isdigit((unsigned char)t[0]))) {
            if (n == sizeof bytes)
                goto refuse;
            bytes[n++] = (unsigned char)strtoul(t, NULL, 0);
        } else {
            for (const char *p = t; *p; p++) {
                if (n == sizeof bytes)
                    goto refuse;
                bytes[n++] = (unsigned char)*p;
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        if (bytes[i] < 0x20 || bytes[i] > 0x7E || bytes[i] == '"' || bytes[i] == '\\')
            printable = 0;
    if (n == 0)
        goto refuse;
    if (printable) {
        add_raw(f, "type", pool_printf("\"char[%zu]\"", n));
        char s[9];
        memcpy(s, bytes, n);
        s[n] = '\0';
        add_key(f, "const", s);
        return 1;
    }
    if (n == 1 || n == 2 || n == 3 || n == 4 || n == 8) {
        uint64_t v = 0;
        for (size_t i = 0; i < n; i++)
            v = v << 8 | bytes[i];
        add_key(f, "type", pool_printf("u%zu", n * 8));
        add_key(f, "endian", "big");
        add_raw(f, "const", pool_printf("0x%llX", (unsigned long long)v));
        return 1;
    }
refuse:
    diag_error(c->loc, "Kaitai's 'contents' of this length or kind cannot be expressed in binform "
               "(a string of printable ASCII up to 8 bytes, or 1, 2, 3, 4 or 8 other bytes)");
    return 0;
}

/* `foo(a, b)` -> "foo" and its argument texts. */
static const char *split_args(const char *type, ptr_vec *args)
{
    const char *open = strchr(type, '(');
    if (!open)
        return type;
    const char *p = open + 1;
    int depth = 0;
    const char *start = p;
    for (; *p; p++) {
        if (*p == '(' || *p == '[')
            depth++;
        else if ((*p == ')' || *p == ']') && depth > 0)
            depth--;
        else if ((*p == ',' && depth == 0) || (*p == ')' && depth == 0)) {
            vec_push(args, pool_strndup(start, (size_t)(p - start)));
            start = p + 1;
            if (*p == ')')
                break;
        }
    }
    return pool_strndup(type, (size_t)(open - type));
}

/* A plain decimal or hexadecimal number, without reporting anything. */
static int const_scalar(const ynode *n, long long *out)
{
    const char *t = scalar(n);
    if (!t || !isdigit((unsigned char)t[0]))
        return 0;
    char *end;
    *out = strtoll(t, &end, 0);
    return *end == '\0';
}

/* Two texts, either possibly NULL, alike. */
static int same_text(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

/* A meta map's fixed byte order ("little", "big"), or NULL. */
static const char *endian_of(const ynode *meta)
{
    const char *e = scalar(ynode_get(meta, "endian"));
    return !e ? NULL : strcmp(e, "le") == 0 ? "little" : strcmp(e, "be") == 0 ? "big" : NULL;
}

/* The byte order of a type's numbers: its own meta/endian, else its outer types', else the
 * file's (Kaitai's scoping); binform writes it on each field where it differs from the schema. */
static const char *type_endian(const ksy_scope *s)
{
    for (const ksy_scope *t = s; t; t = t->parent) {
        const char *e = endian_of(ynode_get(t->node, "meta"));
        if (e)
            return e;
    }
    return s->file->endian;
}

/* Translates one seq item or positioned instance into `f` (the field's keys). */
static int field(ksy_scope *s, const ynode *item, const char *id, ksy_buf *f, int is_instance)
{
    kfile *file = s->file;
    int ok = refuse_attrs(item);
    if (is_c_keyword(id) || id[0] == '_') {
        diag_error(item->loc, "Kaitai's id '%s' is not a binform field name (a C keyword or a name starting with '_')", id);
        return 0;
    }
    add_key(f, "name", id);
    const ynode *type_n = ynode_get(item, "type"), *size_n = ynode_get(item, "size");
    if (ynode_get(item, "parent") && (!type_n || type_n->kind != YN_SCALAR)) {
        diag_error(ynode_get(item, "parent")->loc, "Kaitai's 'parent' here cannot be expressed in binform");
        return 0;
    }
    const ynode *eos_n = ynode_get(item, "size-eos"), *repeat_n = ynode_get(item, "repeat");
    const ynode *contents_n = ynode_get(item, "contents"), *term_n = ynode_get(item, "terminator");
    const char *type = scalar(type_n);
    int size_eos = eos_n && scalar(eos_n) && strcmp(scalar(eos_n), "true") == 0;
    const char *repeat = scalar(repeat_n);
    const char *count = NULL, *until = NULL, *size = NULL;
    if (repeat_n) {
        if (!repeat || (strcmp(repeat, "expr") && strcmp(repeat, "eos") && strcmp(repeat, "until"))) {
            diag_error(repeat_n->loc, "Kaitai's repeat is 'expr', 'eos' or 'until'");
            return 0;
        }
        if (strcmp(repeat, "expr") == 0) {
            const ynode *n = ynode_get(item, "repeat-expr");
            if (!n || !(count = expr_of(s, n)))
                return n ? 0 : (diag_error(repeat_n->loc, "repeat: expr needs repeat-expr"), 0);
        } else if (strcmp(repeat, "until") == 0) {
            const ynode *n = ynode_get(item, "repeat-until");
            if (!n || !(until = expr_of(s, n)))
                return n ? 0 : (diag_error(repeat_n->loc, "repeat: until needs repeat-until"), 0);
        }
    }
    if (size_n && !(size = expr_of(s, size_n)))
        return 0;
    if (ynode_get(item, "pos")) {
        if (!is_instance) {
            diag_error(ynode_get(item, "pos")->loc, "'pos' belongs to instances");
            return 0;
        }
        if (s->io != IO_FILE && s->io != IO_START) {
            diag_error(ynode_get(item, "pos")->loc, "Kaitai's positioned instance in type '%s', whose stream is not known "
                       "(read without a size inside a substream, both inside and outside substreams, or not at all), "
                       "cannot be expressed in binform", s->name);
            return 0;
        }
        const char *pos = expr_of(s, ynode_get(item, "pos"));
        if (!pos)
            return 0;
        add_key(f, "pos", s->io == IO_FILE ? pos : pool_printf("_start + %s", pos));
    }
    if (contents_n) {
        if (repeat_n || type_n) {
            diag_error(contents_n->loc, "Kaitai's 'contents' with a type or repeat cannot be expressed in binform");
            return 0;
        }
        if (!contents_field(contents_n, f))
            return 0;
    } else if (!type_n || (type && !strcmp(type, "str")) || (type && !strcmp(type, "strz"))) {
        int is_str = type != NULL;
        if (is_str && !encoding_ok(item, file))
            ok = 0;
        int zero_term = type && !strcmp(type, "strz");
        if (term_n) {
            const char *t = scalar(term_n);
            if (!t || strtol(t, NULL, 0) != 0 || !is_str) {
                diag_error(term_n->loc, "Kaitai's 'terminator' other than 0 on a string cannot be expressed in binform");
                return 0;
            }
            zero_term = 1;
        }
        long long len = 0;
        if (is_str && repeat_n && !count) {
            diag_error(repeat_n->loc, "Kaitai's repeated strings with repeat: %s cannot be expressed in binform "
                       "(arrays of strings need a count)", repeat);
            return 0;
        }
        if (zero_term && !size_n && !size_eos) {
            add_raw(f, "type", repeat_n ? "\"cstr[]\"" : "cstr");
        } else if (is_str && size_n && const_scalar(size_n, &len) && len > 0) {
            add_raw(f, "type", pool_printf("\"char[%lld]\"", len));
            if (!zero_term) /* said where a reader of the schema sees it */
                ksy_buf_add(f, "# Kaitai's str keeps zero bytes inside its size; char[N] ends at the first one\n");
        } else if (is_str) {
            diag_error(type_n->loc, "Kaitai's variable-length string (str with a size from an expression, size-eos or "
                       "a terminator inside a size) cannot be expressed in binform (strings need a constant length)");
            return 0;
        } else if (repeat_n) {
            diag_error(repeat_n->loc, "Kaitai's repeated byte arrays cannot be expressed in binform (an array of 'bytes')");
            return 0;
        } else if (size_n) {
            add_key(f, "type", "bytes");
            add_key(f, "size", size);
            size = NULL;
        } else if (size_eos) {
            add_key(f, "type", "bytes");
            add_raw(f, "to_end", "true");
        } else {
            diag_error(item->loc, "a field without type needs 'size', 'size-eos' or 'contents'");
            return 0;
        }
    } else if (type_n && type_n->kind == YN_MAP) {
        /* switch-on */
        const ynode *on = ynode_get(type_n, "switch-on"), *cases = ynode_get(type_n, "cases");
        if (!on || !cases || cases->kind != YN_MAP) {
            diag_error(type_n->loc, "a Kaitai switch type needs 'switch-on' and 'cases'");
            return 0;
        }
        if (repeat_n) {
            diag_error(repeat_n->loc, "Kaitai's repeated switch type cannot be expressed in binform (a switch is not an array)");
            return 0;
        }
        const char *tag = expr_of(s, on);
        if (!tag)
            return 0;
        ksy_buf sw = {0};
        ksy_buf_add(&sw, "\n  switch: ");
        put_scalar(&sw, tag);
        ksy_buf_add(&sw, "\n  cases:\n");
        const char *deflt = NULL;
        for (size_t i = 0; i < cases->len; i++) {
            const char *label = cases->keys[i]->text, *ct = scalar(cases->values[i]);
            if (!ct) {
                diag_error(cases->values[i]->loc, "a case's type is a name");
                return 0;
            }
            if (strchr(ct, '(')) {
                diag_error(cases->values[i]->loc, "Kaitai's switch case with arguments cannot be expressed in binform");
                return 0;
            }
            const char *bf_type;
            ksy_scope *t = resolve_type(s, ct);
            if (t && t->parent_paths.len) {
                diag_error(cases->values[i]->loc, "Kaitai's '_parent' in a type read as a switch case cannot be expressed "
                           "in binform (a case's type takes no parameters)");
                return 0;
            }
            if (t)
                bf_type = t->bf_name;
            else if (!strcmp(ct, "bytes"))
                bf_type = "bytes";
            else {
                diag_error(cases->values[i]->loc, "Kaitai's switch case of type '%s' cannot be expressed in binform "
                           "(cases are structures or bytes)", ct);
                return 0;
            }
            if (strcmp(label, "_") == 0) {
                deflt = bf_type;
                continue;
            }
            int64_t v;
            const char *member = NULL;
            if (strstr(label, "::")) {
                if (!ksy_enum_value(s, label, cases->keys[i]->loc, &v, &member))
                    return 0;
            } else if (!ksy_const_int(s, label, cases->keys[i]->loc, &v))
                return 0;
            /* a member's name when the tag is a field with that enum, else the number */
            const char *key = member && plain_ok(tag) && !strchr(tag, '.') ? member : pool_printf("%lld", (long long)v);
            ksy_buf_add(&sw, "    ");
            put_scalar(&sw, key);
            ksy_buf_add(&sw, ": ");
            ksy_buf_add(&sw, bf_type);
            ksy_buf_add(&sw, "\n");
        }
        if (!deflt && (size_n || size_eos))
            deflt = "bytes"; /* Kaitai keeps an unknown case's bytes */
        if (deflt) {
            ksy_buf_add(&sw, "  default: ");
            ksy_buf_add(&sw, deflt);
            ksy_buf_add(&sw, "\n");
        }
        sw.text[--sw.len] = '\0';
        add_raw(f, "type", sw.text);
    } else {
        const char *bf, *endian;
        int width, le;
        if (!type) {
            diag_error(type_n->loc, "a type is a name");
            return 0;
        }
        if (number_type(type, &bf, &endian)) {
            add_raw(f, "type", repeat_n ? pool_printf("\"%s[]\"", bf) : bf);
            const char *own = type_endian(s);
            /* an imported type takes the importer's byte order: say its own */
            if (!endian && bf[1] != '8' && own && (file->is_import || !same_text(own, file->schema_endian)))
                endian = own; /* the type's meta/endian, where it differs from the schema's */
            if (endian)
                add_key(f, "endian", endian);
            else if (bf[1] != '8' && !file->endian) {
                diag_error(type_n->loc, "'%s' without a byte order (meta/endian or a le/be suffix)", type);
                return 0;
            }
            if (size_n) {
                diag_error(size_n->loc, "Kaitai's 'size' on a number cannot be expressed in binform");
                return 0;
            }
        } else if (bits_type(type, &width, &le)) {
            diag_error(type_n->loc, "Kaitai's bit-sized field '%s' here (in an array, with if, after a partial byte "
                       "or not filling whole bytes) cannot be expressed in binform", type);
            return 0;
        } else if (strcmp(type, "bytes") == 0) {
            diag_error(type_n->loc, "'bytes' is written as a field without type");
            return 0;
        } else {
            ptr_vec args = {0};
            const char *name = split_args(type, &args);
            ksy_scope *t = resolve_type(s, name);
            if (!t) {
                diag_error(type_n->loc, "no type '%s' (Kaitai's built-in type or a type of this file or its imports)", name);
                return 0;
            }
            add_raw(f, "type", repeat_n ? pool_printf("\"%s[]\"", t->bf_name) : t->bf_name);
            const ynode *parent_n = ynode_get(item, "parent");
            if (parent_n && t->parent_paths.len) {
                /* without `_parent` in the type, who its parent is changes nothing */
                diag_error(parent_n->loc, "Kaitai's 'parent' (another structure as the parent) of a type that uses "
                           "_parent cannot be expressed in binform");
                return 0;
            }
            const ynode *params = ynode_get(t->node, "params");
            size_t nparams = params && params->kind == YN_SEQ ? params->len : 0;
            if (args.len != nparams) {
                diag_error(type_n->loc, "type '%s' takes %zu arguments, not %zu", name, nparams, args.len);
                return 0;
            }
            if (nparams || t->parent_paths.len) {
                ksy_buf a = {0};
                ksy_buf_add(&a, "{ ");
                for (size_t i = 0; i < nparams + t->parent_paths.len; i++) {
                    /* the type's own parameters, then what it uses of its parent (`_parent.x`) */
                    const char *pid = i < nparams ? scalar(ynode_get(params->values[i], "id"))
                                                  : t->parent_params.items[i - nparams];
                    const char *v = ksy_expr(s, i < nparams ? args.items[i] : t->parent_paths.items[i - nparams],
                                             type_n->loc);
                    if (!v || !pid)
                        return 0;
                    ksy_buf_add(&a, i ? ", " : "");
                    ksy_buf_add(&a, pid);
                    ksy_buf_add(&a, ": ");
                    put_scalar(&a, v);
                }
                ksy_buf_add(&a, " }");
                add_raw(f, "args", a.text);
            }
            if (size_eos && !repeat_n) {
                add_key(f, "size", "_end - _pos");
            }
            if (size_n && repeat_n) {
                diag_error(size_n->loc, "Kaitai's 'size' of each element of a repeated structure cannot be expressed "
                           "in binform (a size covers the whole array)");
                return 0;
            }
        }
    }
    if (size && !contents_n) {
        if (!type_n || (type && (!strcmp(type, "str") || !strcmp(type, "strz"))))
            ; /* taken by the type */
        else
            add_key(f, "size", size);
    }
    if (count)
        add_key(f, "count", count);
    if (until)
        add_key(f, "until", until);
    if (repeat && !strcmp(repeat, "eos"))
        add_raw(f, "to_end", "true");
    const ynode *if_n = ynode_get(item, "if");
    if (if_n) {
        const char *c = expr_of(s, if_n);
        if (!c)
            return 0;
        add_key(f, "if", c);
    }
    const ynode *enum_n = ynode_get(item, "enum");
    if (enum_n) {
        kenum *e = scalar(enum_n) ? resolve_enum(s, scalar(enum_n)) : NULL;
        if (!e) {
            diag_error(enum_n->loc, "no enum '%s'", scalar(enum_n) ? scalar(enum_n) : "?");
            return 0;
        }
        add_key(f, "enum", e->bf_name);
    }
    const ynode *valid = ynode_get(item, "valid");
    if (valid && repeat_n) {
        diag_error(valid->loc, "Kaitai's 'valid' on a repeated field cannot be expressed in binform (const is for single values)");
        return 0;
    }
    if (valid) {
        const ynode *eq = valid->kind == YN_MAP ? ynode_get(valid, "eq") : valid;
        if (!eq || (valid->kind == YN_MAP && valid->len != 1)) {
            const char *what = valid->kind == YN_MAP && valid->len ? valid->keys[0]->text : "?";
            diag_error(valid->loc, "Kaitai's 'valid' with '%s' cannot be expressed in binform (only an equality)", what);
            return 0;
        }
        int64_t v;
        if (!scalar(eq) || !ksy_const_int(s, scalar(eq), eq->loc, &v))
            return 0;
        add_raw(f, "const", pool_printf("%lld", (long long)v));
    }
    const char *doc = doc_of(item);
    if (doc)
        add_key(f, "doc", doc);
    return ok;
}

/* The output of one type's fields: each field's lines, indented as a list item. */
static void put_field(ksy_buf *o, const ksy_buf *f)
{
    const char *p = f->text;
    int first = 1;
    while (p && *p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        ksy_buf_add(o, first ? "      - " : "        ");
        ksy_buf_add(o, pool_strndup(p, n));
        ksy_buf_add(o, "\n");
        first = 0;
        p = nl ? nl + 1 : p + n;
    }
}

/* Consecutive Kaitai bit fields from a byte boundary, filling whole bytes: one binform integer
 * split with `bits:`. Returns how many items it took, 0 when they do not fit. */
static size_t bit_run(ksy_scope *s, const ynode *seq, size_t from, ksy_buf *o)
{
    int total = 0, run_le = -1, bytes = 0;
    size_t n = 0, len = 0;
    for (size_t i = from; i < seq->len; i++) {
        const ynode *it = seq->values[i];
        const char *t = scalar(ynode_get(it, "type"));
        int w, le;
        if (!t || !bits_type(t, &w, &le) || ynode_get(it, "repeat") || ynode_get(it, "if") || !scalar(ynode_get(it, "id")))
            break;
        if (le < 0)
            le = s->file->bit_le;
        if ((run_le >= 0 && le != run_le) || total + w > 64)
            break;
        run_le = le;
        total += w;
        len++;
        /* a prefix that ends on a byte boundary, or that ends the run (the lowest bits of its
         * last byte unused: big-endian bit order only) */
        const ynode *next = i + 1 < seq->len ? seq->values[i + 1] : NULL;
        const char *nt = next ? scalar(ynode_get(next, "type")) : NULL;
        int nw, nle;
        int run_ends = !nt || !bits_type(nt, &nw, &nle);
        int b = (total + 7) / 8;
        if ((total % 8 == 0 || (run_ends && !run_le)) && b != 5 && b != 6 && b != 7 && (b != 8 || total == 64)) {
            n = len;
            bytes = b;
        }
    }
    if (!n)
        return 0;
    int width = bytes * 8;
    const char *name = pool_printf("bits%d", s->bit_runs++);
    ksy_buf f = {0};
    add_key(&f, "name", name);
    add_key(&f, "type", pool_printf("u%d", width));
    add_key(&f, "endian", run_le ? "little" : "big");
    const char *first = scalar(ynode_get(seq->values[from], "id")), *last = scalar(ynode_get(seq->values[from + n - 1], "id"));
    add_key(&f, "doc", n == 1 ? pool_printf("Kaitai's bit field %s, in %d bits.", first, width)
                              : pool_printf("Kaitai's bit fields %s to %s, packed in %d bits.", first, last, width));
    ksy_buf_add(&f, "bits:\n");
    /* binform lists sub-fields from the most significant bit down; Kaitai's little-endian bit
     * order takes the least significant first */
    for (size_t k = 0; k < n; k++) {
        size_t i = run_le ? from + n - 1 - k : from + k;
        const ynode *it = seq->values[i];
        int w, le;
        bits_type(scalar(ynode_get(it, "type")), &w, &le);
        const char *id = scalar(ynode_get(it, "id"));
        ksy_buf_add(&f, pool_printf("  - { name: %s, width: %d", id, w));
        const char *doc = doc_of(it);
        if (doc) {
            ksy_buf_add(&f, ", doc: ");
            put_scalar(&f, doc);
        }
        ksy_buf_add(&f, " }\n");
        vec_push(&s->bit_names, (void *)id);
        vec_push(&s->bit_paths, pool_printf("%s.%s", name, id));
        if (ynode_get(it, "enum") || ynode_get(it, "valid") || ynode_get(it, "contents")) {
            diag_error(it->loc, "Kaitai's bit field with enum or valid cannot be expressed in binform");
            return 0;
        }
    }
    put_field(o, &f);
    return n;
}

static void put_params(ksy_buf *o, ksy_scope *s)
{
    const ynode *params = ynode_get(s->node, "params");
    size_t n = params && params->kind == YN_SEQ ? params->len : 0;
    if (!n && !s->parent_paths.len)
        return;
    ksy_buf_add(o, "    params:\n");
    for (size_t i = 0; i < s->parent_paths.len; i++)
        ksy_buf_add(o, pool_printf("      - { name: %s, doc: \"Kaitai's _parent.%s, passed by the parent.\" }\n",
                                   (const char *)s->parent_params.items[i], (const char *)s->parent_paths.items[i]));
    for (size_t i = 0; i < n; i++) {
        const ynode *p = params->values[i];
        const char *id = scalar(ynode_get(p, "id")), *t = scalar(ynode_get(p, "type"));
        const char *bf = "", *endian;
        int number = t && number_type(t, &bf, &endian);
        if (!id || !t || !(number || !strcmp(t, "bool") || resolve_enum(s, t)) || bf[0] == 'f') {
            diag_error(p->loc, "Kaitai's parameter of type '%s' cannot be expressed in binform (parameters are integers)",
                       t ? t : "?");
            continue;
        }
        ksy_buf_add(o, "      - ");
        const char *doc = doc_of(p);
        if (doc) {
            ksy_buf_add(o, "{ name: ");
            ksy_buf_add(o, id);
            ksy_buf_add(o, ", doc: ");
            put_scalar(o, doc);
            ksy_buf_add(o, " }\n");
        } else {
            ksy_buf_add(o, id);
            ksy_buf_add(o, "\n");
        }
    }
}

/* Whether `name` appears as a word in the scalars of `n` (its keys' values, not ids or docs);
 * `only_before` keeps to the keys Kaitai evaluates before the item is read. */
static int mentions_name(const ynode *n, const char *name, int only_before)
{
    if (!n)
        return 0;
    if (n->kind == YN_SCALAR) {
        size_t len = strlen(name);
        for (const char *p = strstr(n->text, name); p; p = strstr(p + 1, name))
            if ((p == n->text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.')) &&
                !(isalnum((unsigned char)p[len]) || p[len] == '_'))
                return 1;
        return 0;
    }
    static const char *const before[] = {"if", "repeat-expr", "size", "pos", "type", "switch-on", NULL};
    for (size_t i = 0; i < n->len; i++) {
        if (n->kind == YN_MAP) {
            const char *k = n->keys[i]->text;
            if (!strcmp(k, "id") || !strcmp(k, "doc") || !strcmp(k, "doc-ref") || !strcmp(k, "cases"))
                continue;
            size_t j = 0;
            while (only_before && before[j] && strcmp(before[j], k) != 0)
                j++;
            if (only_before && !before[j])
                continue;
        }
        if (mentions_name(n->values[i], name, only_before))
            return 1;
    }
    return 0;
}

/* Whether seq item `item` uses positioned instance `name`, directly or through value
 * instances; `only_before` as above. */
static int item_uses(const ynode *inst, const ynode *item, const char *name, int only_before)
{
    if (mentions_name(item, name, only_before))
        return 1;
    /* value instances that use it, then those that use them, ... (bounded: one per round) */
    ptr_vec names = {0};
    vec_push(&names, (void *)name);
    for (size_t round = 0; round < names.len && round <= inst->len; round++)
        for (size_t i = 0; i < inst->len; i++) {
            const ynode *v = ynode_get(inst->values[i], "value");
            if (!v || !mentions_name(v, names.items[round], 0))
                continue;
            size_t k = 0;
            while (k < names.len && strcmp(names.items[k], inst->keys[i]->text) != 0)
                k++;
            if (k < names.len)
                continue;
            vec_push(&names, (void *)inst->keys[i]->text);
            if (mentions_name(item, inst->keys[i]->text, only_before))
                return 1;
        }
    return 0;
}

/* Writes positioned instance `i` (and first the positioned instances its own keys use). A
 * Kaitai instance is read when first used; binform reads fields in order, and a `pos:` field
 * takes no inline bytes, so it goes right before the first field that uses it. */
static void put_instance(ksy_scope *s, const ynode *inst, size_t i, char *done, ksy_buf *fields)
{
    if (done[i])
        return;
    done[i] = 1;
    for (size_t j = 0; j < inst->len; j++)
        if (j != i && !done[j] && ynode_get(inst->values[j], "pos") && item_uses(inst, inst->values[i], inst->keys[j]->text, 0))
            put_instance(s, inst, j, done, fields);
    ksy_buf f = {0};
    if (field(s, inst->values[i], inst->keys[i]->text, &f, 1))
        put_field(fields, &f);
}

/* The positioned instances seq item `item` uses, written before it. One whose position uses
 * `_io` (where the reader is) only when the item uses it before it is read (if, size,
 * repeat-expr, ...), where Kaitai's reader is where binform's is. */
static void put_instances_used(ksy_scope *s, const ynode *inst, const ynode *item, char *done, ksy_buf *fields)
{
    for (size_t i = 0; inst && inst->kind == YN_MAP && i < inst->len; i++) {
        const ynode *it = inst->values[i];
        const ynode *pos = ynode_get(it, "pos");
        if (done[i] || it->kind != YN_MAP || !pos)
            continue;
        int uses_io = scalar(pos) && strstr(scalar(pos), "_io");
        if (item_uses(inst, item, inst->keys[i]->text, uses_io))
            put_instance(s, inst, i, done, fields);
    }
}

static void put_type(ksy_buf *o, ksy_scope *s)
{
    const ynode *n = s->node;
    s->bit_names.len = s->bit_paths.len = 0; /* each pass packs the bits anew */
    s->bit_runs = 0;
    ksy_buf_add(o, pool_printf("  %s:\n", s->bf_name));
    if (n->kind != YN_MAP) {
        diag_error(n->loc, "a Kaitai type is a map (seq, instances, types, ...)");
        return;
    }
    static const char *const type_keys[] = {"meta", "seq", "types", "enums", "instances", "doc", "doc-ref", "params", NULL};
    for (size_t i = 0; i < n->len; i++) {
        const char *k = n->keys[i]->text;
        size_t j = 0;
        while (type_keys[j] && strcmp(type_keys[j], k) != 0)
            j++;
        if (!type_keys[j] && k[0] != '-')
            diag_error(n->keys[i]->loc, "Kaitai's type key '%s' cannot be expressed in binform", k);
    }
    const ynode *meta = ynode_get(n, "meta");
    if (meta && meta->kind == YN_MAP && s->parent) {
        for (size_t i = 0; i < meta->len; i++)
            if (strcmp(meta->keys[i]->text, "id") != 0 && !(strcmp(meta->keys[i]->text, "endian") == 0 && endian_of(meta)))
                diag_error(meta->keys[i]->loc, "Kaitai's per-type meta/%s cannot be expressed in binform (byte order is per schema)",
                           meta->keys[i]->text);
    }
    const char *doc = doc_of(n);
    if (doc)
        put_line(o, 4, "doc", doc);
    put_params(o, s);
    const ynode *seq = ynode_get(n, "seq");
    const ynode *inst = ynode_get(n, "instances");
    static const struct {
        const char *key;
        ynode_kind kind;
    } shapes[] = {{"seq", YN_SEQ}, {"instances", YN_MAP}, {"types", YN_MAP}, {"enums", YN_MAP}, {"params", YN_SEQ}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const ynode *v = ynode_get(n, shapes[i].key);
        if (v && v->kind != shapes[i].kind)
            diag_error(v->loc, "Kaitai's '%s' is a %s", shapes[i].key, shapes[i].kind == YN_SEQ ? "list" : "map");
    }
    /* bits first: value instances may name bit fields */
    ksy_buf fields = {0};
    char *done = pool_alloc(inst && inst->kind == YN_MAP ? inst->len + 1 : 1); /* positioned instances written */
    for (size_t i = 0; seq && seq->kind == YN_SEQ && i < seq->len;) {
        const ynode *item = seq->values[i];
        if (item->kind != YN_MAP) {
            diag_error(item->loc, "a seq item is a map (id, type, ...)");
            i++;
            continue;
        }
        put_instances_used(s, inst, item, done, &fields);
        size_t took = bit_run(s, seq, i, &fields);
        if (took) {
            i += took;
            continue;
        }
        const char *id = scalar(ynode_get(item, "id"));
        if (!id)
            id = pool_printf("unnamed%zu", i);
        ksy_buf f = {0};
        if (field(s, item, id, &f, 0))
            put_field(&fields, &f);
        i++;
    }
    ksy_buf values = {0};
    for (size_t i = 0; inst && inst->kind == YN_MAP && i < inst->len; i++) {
        const ynode *item = inst->values[i];
        const char *id = inst->keys[i]->text;
        if (item->kind != YN_MAP) {
            diag_error(item->loc, "an instance is a map (pos, value, type, ...)");
            continue;
        }
        const ynode *value = ynode_get(item, "value");
        if (value) {
            for (size_t k = 0; k < item->len; k++) {
                const char *key = item->keys[k]->text;
                if (strcmp(key, "value") && strcmp(key, "doc") && strcmp(key, "doc-ref") && key[0] != '-')
                    diag_error(item->keys[k]->loc, "Kaitai's '%s' on a value instance cannot be expressed in binform", key);
            }
            if (scalar(value) && struct_of_path(s, scalar(value), 0))
                continue; /* a structure: written where it is used (ksy_local_name) */
            const char *v = expr_of(s, value);
            if (!v)
                continue;
            const char *vdoc = doc_of(item);
            ksy_buf_add(&values, pool_printf("      %s:", id));
            if (vdoc) {
                ksy_buf_add(&values, " { value: ");
                put_scalar(&values, v);
                ksy_buf_add(&values, ", doc: ");
                put_scalar(&values, vdoc);
                ksy_buf_add(&values, " }\n");
            } else {
                ksy_buf_add(&values, " ");
                put_scalar(&values, v);
                ksy_buf_add(&values, "\n");
            }
        } else if (ynode_get(item, "pos")) {
            put_instance(s, inst, i, done, &fields);
        } else {
            diag_error(item->loc, "Kaitai's instance '%s' without 'pos' or 'value' (read lazily where it is used) cannot "
                       "be expressed in binform", id);
        }
    }
    /* other types name a bit field by its Kaitai name (`_it.has_next`, `groups[0].value`):
     * a value of that name gives it to them */
    for (size_t i = 0; i < s->bit_names.len; i++)
        ksy_buf_add(&values, pool_printf("      %s: %s\n", (const char *)s->bit_names.items[i],
                                         (const char *)s->bit_paths.items[i]));
    if (values.len) {
        ksy_buf_add(o, "    values:\n");
        ksy_buf_add(o, values.text);
    }
    ksy_buf_add(o, "    fields:");
    ksy_buf_add(o, fields.len ? "\n" : " []\n");
    if (fields.len)
        ksy_buf_add(o, fields.text);
}

/* The smallest binform integer that holds every value of an enum. */
static const char *enum_int_type(const ynode *values)
{
    int64_t lo = 0;
    uint64_t hi = 0;
    for (size_t i = 0; values && values->kind == YN_MAP && i < values->len; i++) {
        const char *k = values->keys[i]->text;
        if (k[0] == '-') {
            int64_t v = strtoll(k, NULL, 0);
            if (v < lo)
                lo = v;
        } else {
            uint64_t v = strtoull(k, NULL, 0);
            if (v > hi)
                hi = v;
        }
    }
    if (lo < 0)
        return lo >= -128 && hi <= 127 ? "s8" : lo >= -32768 && hi <= 32767 ? "s16"
             : lo >= INT32_MIN && hi <= INT32_MAX ? "s32" : "s64";
    return hi <= 0xFF ? "u8" : hi <= 0xFFFF ? "u16" : hi <= 0xFFFFFFFF ? "u32" : "u64";
}

static void put_enum(ksy_buf *o, const kenum *e)
{
    ksy_buf_add(o, pool_printf("  %s:\n", e->bf_name));
    ksy_buf_add(o, pool_printf("    type: %s\n    open: true\n    values:\n", enum_int_type(e->node)));
    for (size_t i = 0; e->node->kind == YN_MAP && i < e->node->len; i++) {
        const ynode *v = e->node->values[i];
        const char *id = v->kind == YN_MAP ? scalar(ynode_get(v, "id")) : scalar(v);
        if (!id) {
            diag_error(v->loc, "an enum member needs an id");
            continue;
        }
        const char *k = e->node->keys[i]->text;
        int64_t num = k[0] == '-' ? strtoll(k, NULL, 0) : (int64_t)strtoull(k, NULL, 0);
        const char *lit = k[0] == '-' ? pool_printf("%lld", (long long)num) : pool_printf("0x%llX", (unsigned long long)num);
        const char *doc = v->kind == YN_MAP ? doc_of(v) : NULL;
        ksy_buf_add(o, pool_printf("      %s: ", id));
        if (doc) {
            ksy_buf_add(o, pool_printf("{ value: %s, doc: ", lit));
            put_scalar(o, doc);
            ksy_buf_add(o, " }\n");
        } else {
            ksy_buf_add(o, lit);
            ksy_buf_add(o, "\n");
        }
    }
}

/* ---- Kaitai's sizeof<T>: a constant where the type's layout is fixed ---- */

static long long static_size_of_type(ksy_scope *t, int depth);

/* The bytes a seq item takes whatever the input, or -1. */
static long long static_size_of_item(ksy_scope *s, const ynode *item, int depth)
{
    if (item->kind != YN_MAP || ynode_get(item, "if") || ynode_get(item, "pos") || ynode_get(item, "size-eos") ||
        ynode_get(item, "terminator") || ynode_get(item, "process"))
        return -1;
    long long count = 1, size;
    const ynode *repeat = ynode_get(item, "repeat");
    if (repeat && !(scalar(repeat) && !strcmp(scalar(repeat), "expr") && const_scalar(ynode_get(item, "repeat-expr"), &count)))
        return -1;
    const ynode *contents = ynode_get(item, "contents"), *size_n = ynode_get(item, "size"), *type_n = ynode_get(item, "type");
    const char *type = scalar(type_n), *bf, *endian;
    if (contents) {
        if (contents->kind == YN_SEQ)
            size = (long long)contents->len;
        else if (scalar(contents))
            size = (long long)strlen(scalar(contents));
        else
            return -1;
    } else if (size_n) {
        if (!const_scalar(size_n, &size))
            return -1;
    } else if (type && number_type(type, &bf, &endian)) {
        size = atoi(bf + 1) / 8;
    } else if (type && strcmp(type, "str") && strcmp(type, "strz")) {
        ptr_vec args = {0};
        ksy_scope *t = resolve_type(s, split_args(type, &args));
        if (!t || (size = static_size_of_type(t, depth + 1)) < 0)
            return -1;
    } else
        return -1;
    return count * size;
}

static long long static_size_of_type(ksy_scope *t, int depth)
{
    const ynode *seq = ynode_get(t->node, "seq");
    if (depth > 64 || (seq && seq->kind != YN_SEQ))
        return -1;
    long long total = 0;
    for (size_t i = 0; seq && i < seq->len; i++) {
        long long n = static_size_of_item(t, seq->values[i], depth);
        if (n < 0)
            return -1;
        total += n;
    }
    return total;
}

const char *ksy_sizeof_type(ksy_scope *scope, const char *name, src_loc at)
{
    ksy_scope *t = resolve_type(scope, name);
    long long n = t ? static_size_of_type(t, 0) : -1;
    if (n < 0) {
        diag_error(at, "Kaitai's sizeof<%s> of a type %s cannot be expressed in binform", name,
                   t ? "whose size depends on the input (or on bit fields)" : "it cannot find");
        return NULL;
    }
    return pool_printf("%lld", n);
}

const char *ksy_sizeof_field(ksy_scope *scope, const char *name, src_loc at)
{
    const ynode *seq = ynode_get(scope->node, "seq");
    for (size_t i = 0; seq && seq->kind == YN_SEQ && i < seq->len; i++) {
        const ynode *item = seq->values[i];
        const char *id = scalar(ynode_get(item, "id"));
        if (!id || strcmp(id, name) != 0)
            continue;
        long long n = static_size_of_item(scope, item, 0);
        if (n >= 0)
            return pool_printf("%lld", n);
    }
    diag_error(at, "Kaitai's '%s._sizeof' of a field whose size is not fixed cannot be expressed in binform", name);
    return NULL;
}

/* ---- where each type's `_io` starts ---- */

static void note_io(ksy_scope *t, io_origin o)
{
    if (t->io == IO_UNKNOWN)
        t->io = o;
    else if (t->io != o && t->parent) /* the root's stream is the file's */
        t->io = IO_MIXED;
}

/* A type read inside `size:` has its own stream; one read without it shares its reader's. */
static void infer_io(void)
{
    for (int pass = 0; pass < 8; pass++) {
        for (size_t i = 0, fi = 0; fi < loaded.len; i < ((kfile *)loaded.items[fi])->all_types.len ? i++ : (i = 0, fi++)) {
            kfile *f = loaded.items[fi];
            if (i >= f->all_types.len)
                continue;
            ksy_scope *s = f->all_types.items[i];
            if (s->io == IO_UNKNOWN)
                continue;
            for (int part = 0; part < 2; part++) {
                const ynode *items = ynode_get(s->node, part ? "instances" : "seq");
                for (size_t k = 0; items && k < items->len; k++) {
                    const ynode *it = items->values[k];
                    if (it->kind != YN_MAP)
                        continue;
                    const ynode *tn = ynode_get(it, "type");
                    int sized = ynode_get(it, "size") || ynode_get(it, "size-eos");
                    ptr_vec names = {0};
                    if (tn && tn->kind == YN_SCALAR)
                        vec_push(&names, (void *)tn->text);
                    const ynode *cases = tn && tn->kind == YN_MAP ? ynode_get(tn, "cases") : NULL;
                    for (size_t c = 0; cases && cases->kind == YN_MAP && c < cases->len; c++)
                        if (scalar(cases->values[c]))
                            vec_push(&names, (void *)cases->values[c]->text);
                    for (size_t c = 0; c < names.len; c++) {
                        ptr_vec args = {0};
                        ksy_scope *t = resolve_type(s, split_args(names.items[c], &args));
                        if (t)
                            /* unsized inside a substream: relative to a start no name reaches */
                            note_io(t, sized ? IO_START : s->io == IO_FILE ? IO_FILE : IO_MIXED);
                    }
                }
            }
        }
    }
}

/* The types the root reads, through fields, positioned instances and switch cases: binform
 * refuses a type nothing reads, and Kaitai's formats keep some for other formats to use. */
static void mark_reached(ksy_scope *s)
{
    if (s->reached)
        return;
    s->reached = 1;
    for (int part = 0; part < 2; part++) {
        const ynode *items = ynode_get(s->node, part ? "instances" : "seq");
        for (size_t k = 0; items && k < items->len; k++) {
            const ynode *tn = items->values[k]->kind == YN_MAP ? ynode_get(items->values[k], "type") : NULL;
            ptr_vec names = {0};
            if (tn && tn->kind == YN_SCALAR)
                vec_push(&names, (void *)tn->text);
            const ynode *cases = tn && tn->kind == YN_MAP ? ynode_get(tn, "cases") : NULL;
            for (size_t c = 0; cases && cases->kind == YN_MAP && c < cases->len; c++)
                if (scalar(cases->values[c]))
                    vec_push(&names, (void *)cases->values[c]->text);
            for (size_t c = 0; c < names.len; c++) {
                ptr_vec args = {0};
                ksy_scope *t = resolve_type(s, split_args(names.items[c], &args));
                if (t)
                    mark_reached(t); /* in this file or an imported one */
            }
        }
    }
}

/* Kaitai reads a type inside itself through its seq (a tree of chunks: `type: chunk` with
 * `repeat: eos` in chunk); binform holds a structure field inline, even with a size or a
 * repeat, and reaches a type inside itself only through `pos` or a switch (whose cases it
 * does not hold inline), so each seq item that closes such a loop is refused at its type. */
static void refuse_recursion(ksy_scope *s)
{
    if (s->inline_state)
        return;
    s->inline_state = 1;
    const ynode *seq = ynode_get(s->node, "seq");
    for (size_t k = 0; seq && seq->kind == YN_SEQ && k < seq->len; k++) {
        const ynode *item = seq->values[k];
        const ynode *tn = item->kind == YN_MAP ? ynode_get(item, "type") : NULL;
        if (!scalar(tn))
            continue;
        ptr_vec args = {0};
        ksy_scope *t = resolve_type(s, split_args(scalar(tn), &args));
        if (t && t->inline_state == 1)
            diag_error(tn->loc, "Kaitai's type '%s' read inside itself through seq cannot be expressed in binform "
                       "(a structure field is held inline; a type reaches itself only through 'pos' or a switch)",
                       t->name);
        else if (t)
            refuse_recursion(t);
    }
    s->inline_state = 2;
}

/* ---- the command ---- */

static const char *translate(kfile *f)
{
    ksy_buf o = {0};
    const ynode *doc = f->root->node, *meta = ynode_get(doc, "meta");
    static const char *const top_keys[] = {"meta", "seq", "types", "enums", "instances", "doc", "doc-ref", "params", NULL};
    for (size_t i = 0; i < doc->len; i++) {
        size_t j = 0;
        while (top_keys[j] && strcmp(top_keys[j], doc->keys[i]->text) != 0)
            j++;
        if (!top_keys[j] && doc->keys[i]->text[0] != '-')
            diag_error(doc->keys[i]->loc, "Kaitai's key '%s' is not known to bfgen import", doc->keys[i]->text);
    }
    static const char *const meta_keys[] = {"id", "title", "endian", "bit-endian", "imports", "encoding", "application",
                                            "file-extension", "xref", "license", "ks-version", "ks-debug",
                                            "ks-opaque-types", "tags", NULL};
    for (size_t i = 0; meta && meta->kind == YN_MAP && i < meta->len; i++) {
        const char *k = meta->keys[i]->text;
        size_t j = 0;
        while (meta_keys[j] && strcmp(meta_keys[j], k) != 0)
            j++;
        if (!meta_keys[j] && k[0] != '-')
            diag_error(meta->keys[i]->loc, "Kaitai's meta/%s is not known to bfgen import", k);
        if (!strcmp(k, "ks-opaque-types") && scalar(meta->values[i]) && !strcmp(scalar(meta->values[i]), "true"))
            diag_error(meta->keys[i]->loc, "Kaitai's opaque types cannot be expressed in binform");
    }
    if (ynode_get(doc, "params") && !f->is_import)
        diag_error(ynode_get(doc, "params")->loc, "Kaitai's parameters of the root type cannot be expressed in binform "
                   "(a file's root takes no parameters)");
    if (f->is_import) {
        kfile *main_file = loaded.items[0];
        ksy_buf_add(&o, pool_printf("# Imported from %s by bfgen import, for %s: the types it reads.\n", f->path,
                                    main_file->path));
    } else {
        ksy_buf_add(&o, pool_printf("# Imported from %s by bfgen import.\n", f->path));
        put_line(&o, 0, "format", f->id);
    }
    const char *title = scalar(ynode_get(meta, "title"));
    if (title)
        put_line(&o, 0, "title", title);
    /* a format without a byte order has no numbers that need one: its imports' will do */
    f->schema_endian = f->endian;
    for (size_t i = 0; i < f->imports.len && !f->schema_endian; i++)
        f->schema_endian = ((kfile *)f->imports.items[i])->endian;
    if (!f->schema_endian)
        f->schema_endian = "little";
    put_line(&o, 0, "endian", f->schema_endian);
    const char *d = doc_of(doc);
    if (d)
        put_line(&o, 0, "doc", d);
    const ynode *imports = ynode_get(meta, "imports");
    for (size_t i = 0; i < f->imports.len; i++) {
        /* binform gives an imported type the importer's byte order where its fields do not say */
        kfile *lib = f->imports.items[i];
        if (lib->endian && !same_text(lib->endian, f->schema_endian))
            diag_error(imports->loc, "Kaitai's import of '%s' (%s-endian) into a %s format cannot be expressed in binform "
                       "(imported types take the importer's byte order)", lib->id, lib->endian,
                       f->endian ? pool_printf("%s-endian", f->endian) : "byte-order-less");
    }
    if (imports && imports->kind == YN_SEQ && imports->len) {
        ksy_buf_add(&o, "imports:\n");
        for (size_t i = 0; i < imports->len; i++) {
            const char *name = scalar(imports->values[i]);
            if (!name)
                continue;
            ksy_buf_add(&o, "  - ");
            put_scalar(&o, pool_printf("%s.yaml", name[0] == '/' ? name + 1 : name));
            ksy_buf_add(&o, "\n");
        }
    }
    const ynode *ext = ynode_get(meta, "file-extension");
    if (!f->is_import) {
        ksy_buf_add(&o, "files:\n  - name: file\n");
        put_line(&o, 4, "root", f->root->bf_name);
        if (scalar(ext))
            ksy_buf_add(&o, pool_printf("    extensions: [%s]\n", scalar(ext)));
    }
    if (f->all_enums.len) {
        ksy_buf_add(&o, "enums:\n");
        for (size_t i = 0; i < f->all_enums.len; i++)
            put_enum(&o, f->all_enums.items[i]);
    }
    mark_reached(((kfile *)loaded.items[0])->root);
    size_t reached = 0;
    for (size_t i = 0; i < f->all_types.len; i++)
        reached += ((ksy_scope *)f->all_types.items[i])->reached;
    ksy_buf_add(&o, reached ? "types:\n" : "types: {}\n");
    for (size_t i = 0; i < f->all_types.len; i++) {
        ksy_scope *t = f->all_types.items[i];
        if (t->reached)
            put_type(&o, t);
        else
            ksy_buf_add(&o, pool_printf("  # Kaitai's type '%s' is left out: this format does not read it.\n", t->name));
    }
    return ksy_buf_text(&o);
}

/* The folders on the way to `path`, for imports written into subfolders. */
static void make_parent_dirs(const char *path)
{
    char *p = pool_strdup(path);
    for (char *slash = strchr(p + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(p, 0777); /* exists already, or fopen reports */
        *slash = '/';
    }
}

static void import_usage(FILE *out)
{
    fprintf(out, "usage: bfgen import FILE.ksy [-I DIR]... -o FILE.yaml\n"
                 "  translates a Kaitai Struct format into a binform schema; what binform cannot\n"
                 "  express is an error at the .ksy's file:line:col naming the Kaitai construct.\n"
                 "  -I DIR     where imported .ksy files are looked for (after the importer's folder)\n"
                 "  -o FILE    the schema to write (- for standard output); the formats it imports are\n"
                 "             written beside it (their imports: names), with the types it reads\n");
}

int ksy_import_main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            import_usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "-I") || !strcmp(argv[i], "-o")) {
            if (i + 1 == argc) {
                fprintf(stderr, "bfgen import: option '%s' needs a value\n", argv[i]);
                return 2;
            }
            if (argv[i][1] == 'I')
                vec_push(&include_dirs, argv[++i]);
            else
                out = argv[++i];
        } else if (!strncmp(argv[i], "-I", 2)) {
            vec_push(&include_dirs, argv[i] + 2);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "bfgen import: unknown option '%s'\n", argv[i]);
            import_usage(stderr);
            return 2;
        } else if (in) {
            fprintf(stderr, "bfgen import: one .ksy file at a time\n");
            return 2;
        } else
            in = argv[i];
    }
    if (!in || !out) {
        import_usage(stderr);
        return 2;
    }
    main_out = strcmp(out, "-") == 0 ? "./-" : out;
    kfile *f = load_ksy(in, main_out);
    if (f) {
        infer_io();
        refuse_recursion(f->root);
    }
    /* `_parent.x` makes a parameter of the type, which the types that read it must pass: quiet
     * passes until no parameter is added, then the one that reports and writes */
    int quiet_errors = 0;
    for (int pass = 0; f && !diag_error_count() && pass < 32; pass++) {
        parent_params_added = 0;
        int before = diag_error_count();
        diag_set_quiet(1);
        for (size_t i = 0; i < loaded.len; i++)
            translate(loaded.items[i]);
        diag_set_quiet(0);
        quiet_errors += diag_error_count() - before;
        if (!parent_params_added)
            break;
    }
    const char **texts = pool_alloc(sizeof *texts * (loaded.len + 1));
    for (size_t i = 0; f && i < loaded.len; i++)
        texts[i] = translate(loaded.items[i]);
    int errors = diag_error_count() - quiet_errors;
    if (errors || !f) {
        fprintf(stderr, "bfgen import: %d error%s\n", errors, errors == 1 ? "" : "s");
        pool_release_all();
        return 1;
    }
    int status = 0;
    for (size_t i = 0; i < loaded.len && !status; i++) {
        /* the main format to OUT; what it imports beside it, where its `imports:` finds them */
        kfile *k = loaded.items[i];
        const char *path = i == 0 ? out : k->out_path;
        if (i && strcmp(out, "-") == 0) {
            fprintf(stderr, "bfgen import: %s imports %s: give -o FILE to write both\n", in, k->path);
            status = 2;
            break;
        }
        make_parent_dirs(path);
        FILE *o = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
        if (!o || fputs(texts[i], o) == EOF || (o != stdout && fclose(o) != 0)) {
            fprintf(stderr, "bfgen import: cannot write %s\n", path);
            status = 2;
        }
    }
    pool_release_all();
    return status;
}
