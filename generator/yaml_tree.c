/* libyaml events -> ynode tree, keeping file:line:col on every node. */
#include "yaml_tree.h"

#include "name_map.h"

#include <stdio.h>
#include <string.h>
#include <yaml.h>

/* Schemas nest a few levels (types, fields, a field's keys, a switch's cases); the limit
 * keeps the tree's recursive readers within the stack whatever the input. */
#define YAML_MAX_DEPTH 64

typedef struct loader {
    yaml_parser_t parser;
    const char *file;
    const unsigned char *text; /* the whole schema, for locating errors */
    size_t len;
    int failed;
    int depth;
} loader;

static src_loc mark_loc(const loader *l, yaml_mark_t m)
{
    src_loc at = {l->file, (int)m.line + 1, (int)m.column + 1};
    return at;
}

static ynode *new_node(ynode_kind kind, src_loc at)
{
    ynode *n = pool_alloc(sizeof *n);
    n->kind = kind;
    n->loc = at;
    return n;
}

/* In flow style (`{ name: d, type: Color[n] }`) YAML reads `[` as the start of a list, so an
 * array type must be quoted. Finds such a type on `line` of the schema and notes the fix. */
static void note_unquoted_flow_type(const loader *l, int line)
{
    const char *p = (const char *)l->text, *end = p + l->len;
    for (int at = 1; at < line && p < end; at++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    char text[1024];
    size_t n = 0;
    while (p + n < end && p[n] != '\n' && p[n] != '\0' && n < sizeof text - 1)
        n++;
    memcpy(text, p, n);
    text[n] = '\0';
    if (!strchr(text, '{'))
        return;
    const char *key = strstr(text, "type:");
    if (!key)
        return;
    const char *v = key + 5;
    while (*v == ' ')
        v++;
    size_t len = strcspn(v, ",}\r\n");
    if (*v == '"' || *v == '\'' || !memchr(v, '[', len))
        return;
    while (len && v[len - 1] == ' ')
        len--;
    src_loc loc = {l->file, line, (int)(v - text) + 1};
    diag_note(loc, "in flow style an array type must be quoted: write type: \"%.*s\"", (int)len, v);
}

/* libyaml's reader (encoding, control characters) reports a byte offset, not a mark: the
 * line and column (in characters, as the parser counts them) are found in the file. */
static src_loc offset_loc(const loader *l, size_t offset)
{
    src_loc at = {l->file, 1, 1};
    for (size_t i = 0; i < offset && i < l->len; i++) {
        unsigned char c = l->text[i];
        if (c == '\n') {
            at.line++;
            at.col = 1;
        } else if ((c & 0xC0) != 0x80) {
            at.col++;
        }
    }
    return at;
}

static int next_event(loader *l, yaml_event_t *ev)
{
    if (yaml_parser_parse(&l->parser, ev))
        return 1;
    src_loc at = l->parser.error == YAML_READER_ERROR ? offset_loc(l, l->parser.problem_offset)
                                                     : mark_loc(l, l->parser.problem_mark);
    diag_error(at, "YAML syntax: %s%s%s", l->parser.problem ? l->parser.problem : "parse error",
               l->parser.context ? " " : "", l->parser.context ? l->parser.context : "");
    note_unquoted_flow_type(l, at.line);
    l->failed = 1;
    return 0;
}

static ynode *parse_node(loader *l, yaml_event_t *ev);

/* Reads children until the closing event; `is_map` pairs them up. */
static ynode *parse_collection(loader *l, ynode *n, int is_map)
{
    ptr_vec keys = {0}, values = {0};
    name_map seen = {0}; /* hashed: a 100,000-key mapping compared pairwise took most of a minute */
    for (;;) {
        yaml_event_t ev;
        if (!next_event(l, &ev))
            return NULL;
        if (ev.type == YAML_MAPPING_END_EVENT || ev.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        ynode *child = parse_node(l, &ev);
        if (!child)
            return NULL;
        if (is_map) {
            if (child->kind != YN_SCALAR) {
                diag_error(child->loc, "mapping keys must be plain names");
                l->failed = 1;
                /* kept as a key with a text, so that nothing reading the tree meets a NULL */
                child->kind = YN_SCALAR;
                child->text = "?";
            } else {
                ynode *first = name_map_put(&seen, child->text, child);
                if (first) {
                    diag_error(child->loc, "duplicate key '%s' (first at line %d)", child->text, first->loc.line);
                    l->failed = 1;
                }
            }
            vec_push(&keys, child);
            yaml_event_t vev;
            if (!next_event(l, &vev))
                return NULL;
            ynode *value = parse_node(l, &vev);
            if (!value)
                return NULL;
            vec_push(&values, value);
        } else {
            vec_push(&values, child);
        }
    }
    n->len = values.len;
    n->keys = (ynode **)keys.items;
    n->values = (ynode **)values.items;
    return n;
}

static ynode *parse_node(loader *l, yaml_event_t *ev)
{
    src_loc at = mark_loc(l, ev->start_mark);
    ynode *n = NULL;
    switch (ev->type) {
    case YAML_SCALAR_EVENT:
        n = new_node(YN_SCALAR, at);
        n->text = pool_strndup((const char *)ev->data.scalar.value, ev->data.scalar.length);
        n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        yaml_event_delete(ev);
        return n;
    case YAML_MAPPING_START_EVENT:
    case YAML_SEQUENCE_START_EVENT: {
        int is_map = ev->type == YAML_MAPPING_START_EVENT;
        yaml_event_delete(ev);
        if (l->depth >= YAML_MAX_DEPTH) {
            diag_error(at, "the schema nests more than %d levels deep here", YAML_MAX_DEPTH);
            l->failed = 1;
            return NULL;
        }
        l->depth++;
        n = parse_collection(l, new_node(is_map ? YN_MAP : YN_SEQ, at), is_map);
        l->depth--;
        return n;
    }
    case YAML_ALIAS_EVENT:
        diag_error(at, "YAML aliases are not supported in schemas: write the value out");
        break;
    default:
        diag_error(at, "unexpected YAML event");
        break;
    }
    yaml_event_delete(ev);
    l->failed = 1;
    return NULL;
}

ynode *yaml_load_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        src_loc at = {path, 0, 0};
        diag_error(at, "cannot open schema");
        return NULL;
    }
    /* read whole: errors are located in the text (libyaml's reader only gives an offset) */
    size_t cap = 65536, total = 0, n;
    unsigned char *text = pool_alloc(cap);
    while ((n = fread(text + total, 1, cap - total, f)) > 0) {
        total += n;
        if (total == cap) {
            unsigned char *bigger = pool_alloc(cap * 2);
            memcpy(bigger, text, total);
            text = bigger;
            cap *= 2;
        }
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        src_loc at = {path, 0, 0};
        diag_error(at, "cannot read schema");
        return NULL;
    }
    return yaml_load_memory(path, text, total);
}

ynode *yaml_load_memory(const char *name, const unsigned char *text, size_t len)
{
    loader l = {.file = pool_strdup(name), .text = text, .len = len};
    yaml_parser_initialize(&l.parser);
    yaml_parser_set_input_string(&l.parser, text, len);

    ynode *root = NULL;
    yaml_event_t ev;
    /* stream start, document start, the node, document end */
    while (!l.failed && next_event(&l, &ev)) {
        yaml_event_type_t type = ev.type;
        if (type == YAML_STREAM_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        if (type == YAML_STREAM_START_EVENT || type == YAML_DOCUMENT_START_EVENT ||
            type == YAML_DOCUMENT_END_EVENT) {
            yaml_event_delete(&ev);
            continue;
        }
        if (root) {
            diag_error(mark_loc(&l, ev.start_mark), "a schema holds one YAML document");
            yaml_event_delete(&ev);
            l.failed = 1;
            break;
        }
        root = parse_node(&l, &ev);
    }
    yaml_parser_delete(&l.parser);
    if (l.failed)
        return NULL;
    if (!root) {
        src_loc at = {l.file, 1, 1};
        diag_error(at, "the schema is empty");
    }
    return root;
}

ynode *ynode_get(const ynode *map, const char *key)
{
    if (!map || map->kind != YN_MAP)
        return NULL;
    for (size_t i = 0; i < map->len; i++)
        if (strcmp(map->keys[i]->text, key) == 0)
            return map->values[i];
    return NULL;
}

const char *ynode_kind_name(ynode_kind k)
{
    return k == YN_SCALAR ? "a scalar" : k == YN_MAP ? "a mapping" : "a sequence";
}
