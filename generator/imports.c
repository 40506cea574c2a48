/* Schema imports (imports.h). */
#define _DEFAULT_SOURCE
#include "imports.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static ptr_vec search_dirs;
static int env_read;
static ptr_vec files_read;

void imports_add_search_dir(const char *dir) { vec_push(&search_dirs, pool_strdup(dir)); }

const ptr_vec *imports_files(void) { return &files_read; }

static void read_env(void)
{
    if (env_read)
        return;
    env_read = 1;
    const char *env = getenv("BINFORM_SCHEMA_PATH");
    for (const char *p = env; p && *p;) {
        size_t n = strcspn(p, ":");
        if (n)
            vec_push(&search_dirs, pool_strndup(p, n));
        p += n + (p[n] == ':');
    }
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The file `name` names, seen from `importer`: absolute, beside the importer, or in a search
 * folder. NULL when none is a file. */
static char *find_import(const char *name, const char *importer)
{
    if (name[0] == '/')
        return is_file(name) ? pool_strdup(name) : NULL;
    const char *slash = strrchr(importer, '/');
    char *beside = slash ? pool_printf("%.*s/%s", (int)(slash - importer), importer, name) : pool_strdup(name);
    if (is_file(beside))
        return beside;
    for (size_t i = 0; i < search_dirs.len; i++) {
        char *candidate = pool_printf("%s/%s", (const char *)search_dirs.items[i], name);
        if (is_file(candidate))
            return candidate;
    }
    return NULL;
}

/* The files being imported, outermost first (their real paths): a cycle is one of them
 * imported again. */
typedef struct chain {
    const char *real, *path;
    const struct chain *outer;
} chain;

static void remove_key(ynode *map, const char *key)
{
    for (size_t i = 0; i < map->len; i++)
        if (strcmp(map->keys[i]->text, key) == 0) {
            memmove(map->keys + i, map->keys + i + 1, (map->len - i - 1) * sizeof *map->keys);
            memmove(map->values + i, map->values + i + 1, (map->len - i - 1) * sizeof *map->values);
            map->len--;
            return;
        }
}

/* Appends the pairs of map `from` to map `to`. */
static void append_pairs(ynode *to, const ynode *from)
{
    ynode **keys = pool_alloc((to->len + from->len) * sizeof *keys);
    ynode **values = pool_alloc((to->len + from->len) * sizeof *values);
    if (to->len) { /* an empty map may have no arrays at all */
        memcpy(keys, to->keys, to->len * sizeof *keys);
        memcpy(values, to->values, to->len * sizeof *values);
    }
    if (from->len) {
        memcpy(keys + to->len, from->keys, from->len * sizeof *keys);
        memcpy(values + to->len, from->values, from->len * sizeof *values);
    }
    to->keys = keys;
    to->values = values;
    to->len += from->len;
}

/* Merges `section` (types, enums or flags) of the imported `lib` into `doc`. A name the
 * importer (or an earlier import) already declares is an error at the imported one. */
static void merge_section(ynode *doc, const ynode *lib, const char *section, const ynode *import_at)
{
    const ynode *from = ynode_get(lib, section);
    if (!from || from->kind != YN_MAP || from->len == 0)
        return;
    ynode *to = ynode_get(doc, section);
    if (!to) {
        ynode *key = pool_alloc(sizeof *key);
        key->kind = YN_SCALAR;
        key->loc = import_at->loc;
        key->text = section;
        key->plain = 1;
        to = pool_alloc(sizeof *to);
        to->kind = YN_MAP;
        to->loc = import_at->loc;
        ynode pair = {.kind = YN_MAP, .len = 1, .keys = &key, .values = &to};
        append_pairs(doc, &pair);
    } else if (to->kind != YN_MAP)
        return; /* the model says what is wrong with it */
    static const char *const sections[] = {"types", "enums", "flags"};
    for (size_t i = 0; i < from->len; i++)
        for (size_t s = 0; s < 3; s++) {
            const ynode *names = ynode_get(doc, sections[s]);
            if (names && names->kind == YN_MAP && ynode_get(names, from->keys[i]->text)) {
                diag_error(from->keys[i]->loc, "'%s' is imported by %s:%d, which declares it too", from->keys[i]->text,
                           import_at->loc.file, import_at->loc.line);
                return;
            }
        }
    append_pairs(to, from);
}

static int resolve(ynode *doc, const char *path, const chain *outer, ptr_vec *merged);

/* One import of `doc` (read from `path`), named by scalar node `at`. */
static int import_one(ynode *doc, const char *path, const ynode *at, const chain *outer, ptr_vec *merged)
{
    char *found = find_import(at->text, path);
    if (!found) {
        read_env();
        diag_error(at->loc, "cannot find the schema '%s' to import: not beside %s%s", at->text, path,
                   search_dirs.len ? " nor in a --schema-path or BINFORM_SCHEMA_PATH folder"
                                   : " (--schema-path DIR or BINFORM_SCHEMA_PATH look elsewhere too)");
        return 0;
    }
    char real[PATH_MAX];
    if (!realpath(found, real)) {
        diag_error(at->loc, "cannot open the schema '%s' to import", found);
        return 0;
    }
    for (const chain *c = outer; c; c = c->outer)
        if (strcmp(c->real, real) == 0) {
            /* the cycle, from the file imported again to itself: "a.yaml -> b.yaml -> a.yaml" */
            char *cycle = pool_strdup(found);
            for (const chain *d = outer; d != c->outer; d = d->outer)
                cycle = pool_printf("%s -> %s", d->path, cycle);
            diag_error(at->loc, "imports make a cycle: %s", cycle);
            return 0;
        }
    for (size_t i = 0; i < merged->len; i++)
        if (strcmp(merged->items[i], real) == 0)
            return 1; /* imported already, through another file */
    vec_push(merged, pool_strdup(real));
    ynode *lib = yaml_load_file(found);
    if (!lib)
        return 0;
    vec_push(&files_read, found);
    if (lib->kind != YN_MAP) {
        diag_error(lib->loc, "an imported schema is a map (types, enums, flags)");
        return 0;
    }
    chain here = {pool_strdup(real), found, outer};
    if (!resolve(lib, found, &here, merged))
        return 0;
    int before = diag_error_count();
    merge_section(doc, lib, "enums", at);
    merge_section(doc, lib, "flags", at);
    merge_section(doc, lib, "types", at);
    return diag_error_count() == before;
}

static int resolve(ynode *doc, const char *path, const chain *outer, ptr_vec *merged)
{
    if (!doc || doc->kind != YN_MAP)
        return 1;
    ynode *list = ynode_get(doc, "imports");
    if (!list)
        return 1;
    read_env();
    int ok = 1;
    if (list->kind == YN_SCALAR)
        ok = import_one(doc, path, list, outer, merged);
    else if (list->kind == YN_SEQ) {
        for (size_t i = 0; i < list->len; i++) {
            if (list->values[i]->kind != YN_SCALAR) {
                diag_error(list->values[i]->loc, "an import is a schema file's name");
                ok = 0;
                continue;
            }
            ok &= import_one(doc, path, list->values[i], outer, merged);
        }
    } else {
        diag_error(list->loc, "'imports' is a list of schema files");
        ok = 0;
    }
    remove_key(doc, "imports");
    return ok;
}

int imports_resolve(ynode *doc, const char *path)
{
    char real[PATH_MAX];
    chain top = {realpath(path, real) ? pool_strdup(real) : path, path, NULL};
    ptr_vec merged = {0};
    return resolve(doc, path, &top, &merged);
}
