#include "explain.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deeper than this is a cycle in a hostile file, not a real structure. */
#define MAX_DEPTH 64
/* Numbers of an array shown in its value. */
#define VALUES_SHOWN 16

/* ---- a growing string ---- */

typedef struct sbuf {
    char *s;
    size_t len, cap;
    int failed;
} sbuf;

static void sb_vprintf(sbuf *b, const char *fmt, va_list ap)
{
    if (b->failed)
        return;
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->failed = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

/* The string built so far (malloc'd, possibly empty), or NULL when out of memory. */
static char *sb_take(sbuf *b)
{
    if (b->failed) {
        free(b->s);
        return NULL;
    }
    if (!b->s)
        return calloc(1, 1);
    return b->s;
}

static char *dupf(const char *fmt, ...)
{
    sbuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    return sb_take(&b);
}

/* ---- nodes ---- */

static void free_node(xnode *n)
{
    free(n->path);
    free(n->name);
    free(n->type);
    free(n->value);
    free(n->starts);
}

/* Appends a node; takes ownership of `type` and `value`. Returns its index, or -1. */
static int add_node(xtree *t, int parent, const char *path, const char *name, char *type, char *value,
                    const bf_field_desc *f, uint64_t start, uint64_t end)
{
    if (t->count >= EXPLAIN_NODES_MAX) { /* a bound on memory, whatever the file holds */
        t->too_many = 1;
        free(type);
        free(value);
        return -1;
    }
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        xnode *nodes = realloc(t->nodes, cap * sizeof *nodes);
        if (!nodes) {
            free(type);
            free(value);
            return -1;
        }
        t->nodes = nodes;
        t->cap = cap;
    }
    xnode *n = &t->nodes[t->count];
    memset(n, 0, sizeof *n);
    if (end < start)
        end = start;
    if (end > t->size) /* a partial document's structure may claim bytes the file lacks */
        end = t->size > start ? t->size : start;
    n->start = start;
    n->end = end;
    n->parent = parent;
    n->depth = parent < 0 ? 0 : t->nodes[parent].depth + 1;
    n->path = dupf("%s", path);
    n->name = dupf("%s", name);
    n->type = type;
    n->value = value;
    n->doc = f ? f->doc : NULL;
    n->erratum = f ? f->erratum : NULL;
    if (!n->path || !n->name || !n->type) {
        free_node(n);
        return -1;
    }
    return (int)t->count++;
}

/* ---- values ---- */

static void quote(sbuf *b, const char *s, size_t len)
{
    sb_printf(b, "\"");
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            sb_printf(b, "\\%c", c);
        else if (c >= 0x20 && c < 0x7F)
            sb_printf(b, "%c", c);
        else
            sb_printf(b, "\\x%02x", c);
    }
    sb_printf(b, "\"");
}

static void number(sbuf *b, const bf_field_desc *f, const void *elem)
{
    if (bf_prim_is_float(f->prim)) {
        sb_printf(b, "%g", bf_prim_double(f->prim, elem));
        return;
    }
    int64_t v = bf_prim_int(f->prim, elem);
    if (f->enumdef && !f->enumdef->is_flags) {
        const char *name = bf_enum_name(f->enumdef, v);
        if (name)
            sb_printf(b, "%s (0x%" PRIX64 ")", name, (uint64_t)v);
        else
            sb_printf(b, "%" PRId64 " (0x%" PRIX64 ", not a %s value)", v, (uint64_t)v, f->enumdef->name);
        return;
    }
    if (f->enumdef) {
        uint64_t known = 0;
        sb_printf(b, "0x%" PRIX64, (uint64_t)v);
        const char *sep = " = ";
        for (size_t i = 0; i < f->enumdef->count; i++) {
            uint64_t bit = UINT64_C(1) << f->enumdef->values[i].value;
            known |= bit;
            if ((uint64_t)v & bit) {
                sb_printf(b, "%s%s", sep, f->enumdef->values[i].name);
                sep = " | ";
            }
        }
        if ((uint64_t)v & ~known)
            sb_printf(b, "%sunknown 0x%" PRIX64, sep, (uint64_t)v & ~known);
        return;
    }
    if (f->prim == BF_U64)
        sb_printf(b, "%" PRIu64, (uint64_t)v);
    else
        sb_printf(b, "%" PRId64, v);
    if (v > 9)
        sb_printf(b, " (0x%" PRIX64 ")", (uint64_t)v);
}

/* The derived doubles of a field (fixed point, derive:), as a number field of their own. */
static bf_field_desc derived_desc(const bf_field_desc *f)
{
    bf_field_desc d = *f;
    d.kind = BF_FIELD_PRIM;
    d.prim = BF_F64;
    d.offset = f->value_offset;
    d.enumdef = NULL;
    return d;
}

/* The value of a number field: the numbers, then what the tables add to them. */
static char *prim_value(const bf_field_desc *f, const void *obj, uint64_t n)
{
    sbuf b = {0};
    if (f->array == BF_SCALAR) {
        number(&b, f, bf_field_elem(f, obj, 0));
    } else {
        sb_printf(&b, "[");
        for (uint64_t i = 0; i < n && i < VALUES_SHOWN; i++) {
            sb_printf(&b, "%s", i ? ", " : "");
            number(&b, f, bf_field_elem(f, obj, i));
        }
        sb_printf(&b, "%s]", n > VALUES_SHOWN ? ", …" : "");
    }
    for (size_t i = 0; i < f->bit_count; i++) {
        const bf_bits_desc *bits = &f->bits[i];
        uint64_t raw;
        memcpy(&raw, (const uint8_t *)obj + bits->offset, sizeof raw);
        sb_printf(&b, i ? ", " : " {");
        if (bits->is_signed)
            sb_printf(&b, "%s=%" PRId64, bits->name, (int64_t)raw);
        else
            sb_printf(&b, "%s=%" PRIu64, bits->name, raw);
        if (i + 1 == f->bit_count)
            sb_printf(&b, "}");
    }
    if (f->value_offset) {
        bf_field_desc d = derived_desc(f);
        sb_printf(&b, " → ");
        if (f->array == BF_SCALAR) {
            sb_printf(&b, "%g", bf_prim_double(BF_F64, bf_field_elem(&d, obj, 0)));
        } else {
            sb_printf(&b, "[");
            for (uint64_t i = 0; i < n && i < VALUES_SHOWN; i++)
                sb_printf(&b, "%s%g", i ? ", " : "", bf_prim_double(BF_F64, bf_field_elem(&d, obj, i)));
            sb_printf(&b, "%s]", n > VALUES_SHOWN ? ", …" : "");
        }
    }
    if (f->str_offset) {
        bf_str s;
        memcpy(&s, (const uint8_t *)obj + f->str_offset, sizeof s);
        sb_printf(&b, " → ");
        if (s.ptr)
            quote(&b, s.ptr, s.len);
        else
            sb_printf(&b, "(none)");
    }
    return sb_take(&b);
}

static char *prim_type(const bf_field_desc *f, uint64_t n)
{
    const char *base = bf_prim_name(f->prim);
    const char *en = f->enumdef ? f->enumdef->name : NULL;
    if (f->array == BF_SCALAR)
        return en ? dupf("%s (%s)", base, en) : dupf("%s", base);
    return en ? dupf("%s[%" PRIu64 "] (%s)", base, n, en) : dupf("%s[%" PRIu64 "]", base, n);
}

/* ---- the walk ---- */

static char *join(const char *parent_path, const char *name)
{
    return parent_path[0] ? dupf("%s.%s", parent_path, name) : dupf("%s", name);
}

static int walk_object(xtree *t, const bf_type_desc *type, const void *obj, int parent, const char *path,
                       const char *name, char *type_label, const bf_field_desc *f, const char *fail);

/* ---- the failing path ----
 *
 * A failed read gives the path of the field it failed in ("sections[1].body.formats[3].attr").
 * The walk follows it: at each structure on it, the fields before the named one were read
 * whole, the named one as far as the rest of the path says, the later ones not at all. `fail`
 * is the rest of the path below the node being walked: NULL off the path, "" at the failure. */

/* Length of the first name of `p` (up to '.' or '['). */
static size_t name_len(const char *p)
{
    size_t n = 0;
    while (p[n] && p[n] != '.' && p[n] != '[')
        n++;
    return n;
}

/* "[12]..." gives 12 and the rest after ']'; -1 when `p` does not start with an index. */
static int64_t path_index(const char *p, const char **rest)
{
    if (*p != '[')
        return -1;
    char *end;
    long long v = strtoll(p + 1, &end, 10);
    if (end == p + 1 || *end != ']' || v < 0)
        return -1;
    *rest = end + 1;
    return v;
}

/* Below a field: what follows its name ("" when it is the failing one, ".x" or "[i]..."). */
static const char *skip_dot(const char *p) { return *p == '.' ? p + 1 : p; }

static void mark_failed(xtree *t, int idx)
{
    if (idx < 0)
        return;
    t->nodes[idx].failed = 1;
    if (t->fail_node < 0)
        t->fail_node = idx;
}

/* The end of a node whose size is not fixed: its children, as far as they follow each other. */
static void extend_over_children(xtree *t, int idx)
{
    uint64_t end = t->nodes[idx].end;
    for (size_t i = (size_t)idx + 1; i < t->count; i++) {
        const xnode *c = &t->nodes[i];
        if (c->parent == idx && c->start <= end && c->end > end)
            end = c->end;
    }
    t->nodes[idx].end = end;
}

/* Drops the nodes from `from` on (used to measure elements that are not shown). */
static void truncate_tree(xtree *t, size_t from)
{
    for (size_t i = from; i < t->count; i++)
        free_node(&t->nodes[i]);
    t->count = from;
}

static int add_bytes(xtree *t, int parent, const char *path, const char *name, char *type, const bf_bytes *b,
                     const bf_field_desc *f)
{
    char *value = dupf("%zu byte%s", b->len, b->len == 1 ? "" : "s");
    return add_node(t, parent, path, name, type, value, f, b->offset, b->offset + b->len);
}

static uint64_t str_start(const xtree *t, const bf_str *s, uint64_t fallback)
{
    if (s->ptr && (const uint8_t *)s->ptr >= t->data && (const uint8_t *)s->ptr <= t->data + t->size)
        return (uint64_t)((const uint8_t *)s->ptr - t->data);
    return fallback;
}

/* Structure arrays: the first elements one by one, the others as one node (whose elements a
 * byte can still be located in). On the failing path, the elements before the failing one and
 * that one as far as it was read. */
static int walk_struct_array(xtree *t, const bf_field_desc *f, const void *obj, int parent, const char *path,
                             uint64_t n, uint64_t pos, const char *fail)
{
    uint64_t fail_at = UINT64_MAX;
    const char *fail_rest = NULL;
    if (fail) {
        int64_t i = path_index(fail, &fail_rest);
        if (i >= 0 && (uint64_t)i < n) {
            fail_at = (uint64_t)i;
            fail_rest = skip_dot(fail_rest);
            n = fail_at + 1;
        } else {
            n = 0; /* the array itself failed: nothing of it was read */
        }
    }
    char *type = dupf("%s[%" PRIu64 "]", f->type->name, n);
    int idx = add_node(t, parent, path, f->name, type, NULL, f, pos, pos);
    if (idx < 0)
        return 0;
    if (fail && fail_at == UINT64_MAX)
        mark_failed(t, idx);
    uint64_t shown = n < EXPLAIN_ELEMENTS ? n : EXPLAIN_ELEMENTS;
    if (fail_at != UINT64_MAX && fail_at >= shown)
        shown = EXPLAIN_ELEMENTS; /* the failing element comes after the group of the others */
    for (uint64_t i = 0; i < shown && i < n; i++) {
        char *ep = dupf("%s[%" PRIu64 "]", path, i);
        char *en = dupf("[%" PRIu64 "]", i);
        int e = ep && en ? walk_object(t, f->type, bf_field_elem(f, obj, i), idx, ep, en, dupf("%s", f->type->name), f,
                                       i == fail_at ? fail_rest : NULL)
                         : -1;
        free(ep);
        free(en);
        if (e < 0)
            return 0;
        /* an element is described by its type; the array node has the field's doc */
        t->nodes[e].doc = f->type->doc;
        t->nodes[e].erratum = NULL;
    }
    /* past the elements shown one by one: one node for the rest, up to the failing element */
    uint64_t rest_end = fail_at != UINT64_MAX && fail_at >= shown ? fail_at : n;
    if (shown < rest_end) {
        /* the rest: from the first of them to the end of the last */
        uint64_t start = bf_obj_offset(bf_field_elem(f, obj, shown));
        uint64_t end = start;
        uint64_t *starts = NULL;
        if (f->type->encoded_size >= 0) {
            end = start + (rest_end - shown) * (uint64_t)f->type->encoded_size;
        } else {
            starts = malloc((size_t)(rest_end - shown) * sizeof *starts);
            if (!starts)
                return 0;
            for (uint64_t i = shown; i < rest_end; i++) {
                size_t mark = t->count;
                starts[i - shown] = bf_obj_offset(bf_field_elem(f, obj, i));
                int e = walk_object(t, f->type, bf_field_elem(f, obj, i), idx, "", "", dupf("%s", f->type->name), f, NULL);
                if (e < 0) {
                    free(starts);
                    return 0;
                }
                if (t->nodes[e].end > end)
                    end = t->nodes[e].end;
                truncate_tree(t, mark);
            }
        }
        char *gp = dupf("%s[%" PRIu64 "..%" PRIu64 "]", path, shown, rest_end - 1);
        char *gn = dupf("[%" PRIu64 "..%" PRIu64 "]", shown, rest_end - 1);
        char *value = dupf("%" PRIu64 " more element%s, not shown one by one", rest_end - shown,
                           rest_end - shown == 1 ? "" : "s");
        int g = gp && gn ? add_node(t, idx, gp, gn, dupf("%s[%" PRIu64 "]", f->type->name, rest_end - shown), value, f,
                                    start, end)
                         : -1;
        free(gp);
        free(gn);
        if (g < 0) {
            free(starts);
            return 0;
        }
        t->nodes[g].first_index = shown;
        t->nodes[g].elem_size = f->type->encoded_size >= 0 ? f->type->encoded_size : 0;
        t->nodes[g].starts = starts;
        t->nodes[g].nstarts = starts ? (size_t)(rest_end - shown) : 0;
    }
    if (fail_at != UINT64_MAX && fail_at >= shown) {
        char *ep = dupf("%s[%" PRIu64 "]", path, fail_at);
        char *en = dupf("[%" PRIu64 "]", fail_at);
        int e = ep && en ? walk_object(t, f->type, bf_field_elem(f, obj, fail_at), idx, ep, en, dupf("%s", f->type->name),
                                       f, fail_rest)
                         : -1;
        free(ep);
        free(en);
        if (e < 0)
            return 0;
        t->nodes[e].doc = f->type->doc;
        t->nodes[e].erratum = NULL;
    }
    if (f->elem_size >= 0 && !fail)
        t->nodes[idx].end = pos + n * (uint64_t)f->elem_size;
    else
        extend_over_children(t, idx);
    return 1;
}

static int walk_strings(xtree *t, const bf_field_desc *f, const void *obj, int parent, const char *path, uint64_t n,
                        uint64_t pos)
{
    if (f->array == BF_SCALAR) {
        const bf_str *s = bf_field_elem(f, obj, 0);
        uint64_t start = str_start(t, s, pos);
        uint64_t len = f->elem_size >= 0 ? (uint64_t)f->elem_size : (uint64_t)s->len + 1;
        sbuf b = {0};
        quote(&b, s->ptr ? s->ptr : "", s->len);
        char *type = f->elem_size >= 0 ? dupf("char[%" PRId64 "]", f->elem_size) : dupf("cstr");
        return add_node(t, parent, path, f->name, type, sb_take(&b), f, start, start + len) >= 0;
    }
    int idx = add_node(t, parent, path, f->name, dupf("string[%" PRIu64 "]", n), NULL, f, pos, pos);
    if (idx < 0)
        return 0;
    for (uint64_t i = 0; i < n && i < EXPLAIN_ELEMENTS; i++) {
        const bf_str *s = bf_field_elem(f, obj, i);
        uint64_t start = str_start(t, s, pos);
        uint64_t len = f->elem_size >= 0 ? (uint64_t)f->elem_size : (uint64_t)s->len + 1;
        sbuf b = {0};
        quote(&b, s->ptr ? s->ptr : "", s->len);
        char *ep = dupf("%s[%" PRIu64 "]", path, i);
        char *en = dupf("[%" PRIu64 "]", i);
        int ok = ep && en && add_node(t, idx, ep, en, dupf("string"), sb_take(&b), f, start, start + len) >= 0;
        free(ep);
        free(en);
        if (!ok)
            return 0;
    }
    extend_over_children(t, idx);
    return 1;
}

/* A switch: the structure of its case, or the raw bytes when the case is bytes. */
static int walk_switch(xtree *t, const bf_field_desc *f, const void *obj, int parent, const char *path, uint64_t pos,
                       const char *fail)
{
    bf_switch_view v = bf_field_switch(f, obj);
    if (v.type && v.ptr) {
        const char *label = "?";
        for (size_t i = 0; i < f->case_count; i++)
            if (f->cases[i].type == v.type)
                label = f->cases[i].label;
        int e = walk_object(t, v.type, v.ptr, parent, path, f->name, dupf("%s (case %s)", v.type->name, label), f,
                            fail ? skip_dot(fail) : NULL);
        if (e >= 0 && v.type->doc)
            t->nodes[e].doc = v.type->doc; /* the case's own description says more than "by its type" */
        return e >= 0;
    }
    /* which tag chose bytes is not kept: name every case that gives bytes */
    sbuf b = {0};
    sb_printf(&b, "bytes (case ");
    int first = 1;
    for (size_t i = 0; i < f->case_count; i++)
        if (!f->cases[i].type) {
            sb_printf(&b, "%s%s", first ? "" : ", ", f->cases[i].label);
            first = 0;
        }
    sb_printf(&b, ")");
    bf_bytes raw = v.raw;
    if (!raw.ptr && !raw.len)
        raw.offset = pos;
    int e = add_bytes(t, parent, path, f->name, sb_take(&b), &raw, f);
    if (e >= 0 && fail)
        mark_failed(t, e);
    return e >= 0;
}

static int walk_field(xtree *t, const bf_field_desc *f, const void *obj, int parent, const char *parent_path,
                      const char *fail)
{
    uint64_t n = bf_field_count(f, obj);
    if (f->has_offset && n == 0 && !fail)
        return 1; /* left out by its `if:` */
    uint64_t pos = bf_field_pos(f, obj);
    char *path = join(parent_path, f->name);
    if (!path)
        return 0;
    int ok = 1;
    size_t first = t->count;
    if (f->pad_offset && !fail) {
        bf_bytes pad;
        memcpy(&pad, (const uint8_t *)obj + f->pad_offset, sizeof pad);
        if (pad.len) {
            char *pp = dupf("%s (padding)", path);
            ok = pp && add_bytes(t, parent, pp, "(padding)", dupf("alignment"), &pad, NULL) >= 0;
            free(pp);
        }
    }
    /* the failing field itself: nothing of it can be trusted; it is shown where it starts */
    int leaf_failed = fail && !fail[0];
    switch (f->kind) {
    case BF_FIELD_PRIM: {
        uint64_t size = f->elem_size >= 0 ? (uint64_t)f->elem_size : (uint64_t)bf_prim_size(f->prim);
        if (leaf_failed) {
            ok = ok && add_node(t, parent, path, f->name, prim_type(f, n), dupf("(not read)"), f, pos, pos) >= 0;
            break;
        }
        int e = ok ? add_node(t, parent, path, f->name, prim_type(f, n), prim_value(f, obj, n), f, pos, pos + n * size) : -1;
        ok = e >= 0;
        if (ok && f->array != BF_SCALAR) {
            t->nodes[e].elem_prim = 1 + (int)f->prim;
            t->nodes[e].elem_little = f->little_endian;
            t->nodes[e].elem_size = (int64_t)size;
        }
        break;
    }
    case BF_FIELD_STR:
        if (leaf_failed)
            ok = ok && add_node(t, parent, path, f->name, dupf("string"), dupf("(not read)"), f, pos, pos) >= 0;
        else
            ok = ok && walk_strings(t, f, obj, parent, path, n, pos);
        break;
    case BF_FIELD_BYTES:
        if (leaf_failed)
            ok = ok && add_node(t, parent, path, f->name, dupf("bytes"), dupf("(not read)"), f, pos, pos) >= 0;
        else
            ok = ok && add_bytes(t, parent, path, f->name, dupf("bytes"), bf_field_elem(f, obj, 0), f) >= 0;
        break;
    case BF_FIELD_STRUCT:
        if (f->array == BF_SCALAR)
            ok = ok && walk_object(t, f->type, bf_field_elem(f, obj, 0), parent, path, f->name, dupf("%s", f->type->name), f,
                                   fail ? skip_dot(fail) : NULL) >= 0;
        else
            ok = ok && walk_struct_array(t, f, obj, parent, path, n, pos, fail);
        break;
    case BF_FIELD_SWITCH:
        if (leaf_failed && !bf_field_switch(f, obj).type)
            ok = ok && add_node(t, parent, path, f->name, dupf("switch"), dupf("(not read)"), f, pos, pos) >= 0;
        else
            ok = ok && walk_switch(t, f, obj, parent, path, pos, fail);
        break;
    }
    if (ok && leaf_failed && t->count > first)
        mark_failed(t, (int)t->count - 1);
    if (ok && f->tail_offset && !fail) {
        bf_bytes tail;
        memcpy(&tail, (const uint8_t *)obj + f->tail_offset, sizeof tail);
        if (tail.len) {
            char *tp = dupf("%s (tail)", path);
            ok = tp && add_bytes(t, parent, tp, "(tail)", dupf("bytes after the data of its region"), &tail, NULL) >= 0;
            free(tp);
        }
    }
    free(path);
    return ok;
}

/* A structure and its fields; returns its node, or -1 when out of memory. */
static int walk_object(xtree *t, const bf_type_desc *type, const void *obj, int parent, const char *path,
                       const char *name, char *type_label, const bf_field_desc *f, const char *fail)
{
    uint64_t start = bf_obj_offset(obj);
    int idx = add_node(t, parent, path, name, type_label, NULL, f, start, start);
    if (idx < 0)
        return -1;
    if (t->nodes[idx].depth > MAX_DEPTH)
        return idx;
    if (!f)
        t->nodes[idx].doc = type->doc;
    /* on the failing path: the field it names, and the fields before it */
    size_t last = type->field_count;
    const char *below = NULL;
    if (fail) {
        size_t len = name_len(fail);
        last = SIZE_MAX;
        for (size_t i = 0; len && i < type->field_count && last == SIZE_MAX; i++)
            if (strlen(type->fields[i].name) == len && strncmp(type->fields[i].name, fail, len) == 0)
                last = i;
        if (last == SIZE_MAX) {
            /* the structure itself failed (a fixed-size one cut short, or an expression of it),
             * or the path names nothing in it: none of its fields is known to be read */
            mark_failed(t, idx);
            return idx;
        }
        below = fail + len;
        last++;
    }
    for (size_t i = 0; i < last; i++)
        if (!walk_field(t, &type->fields[i], obj, idx, path, fail && i + 1 == last ? below : NULL))
            return -1;
    if (type->encoded_size >= 0 && !fail)
        t->nodes[idx].end = start + (uint64_t)type->encoded_size;
    else
        extend_over_children(t, idx);
    return idx;
}

static int build(xtree *t, const bf_type_desc *type, const void *root, const uint8_t *data, size_t size,
                 const uint8_t *claimed, const bf_error *failure)
{
    memset(t, 0, sizeof *t);
    t->data = data;
    t->size = size;
    t->claimed = claimed;
    t->fail_node = -1;
    const char *fail = NULL;
    if (failure) {
        t->failed = 1;
        t->fail_offset = failure->offset;
        snprintf(t->fail_path, sizeof t->fail_path, "%s", failure->path);
        snprintf(t->fail_message, sizeof t->fail_message, "%s", failure->message);
        fail = t->fail_path;
    }
    int root_node;
    if (root) {
        root_node = walk_object(t, type, root, -1, "", type->name, dupf("%s", type->name), NULL, fail);
    } else {
        /* nothing was read at all: the root alone, failed */
        root_node = add_node(t, -1, "", type->name, dupf("%s", type->name), NULL, NULL, 0, 0);
        if (root_node >= 0)
            t->nodes[root_node].doc = type->doc;
    }
    if (root_node < 0 || t->too_many)
        return 0;
    /* the root is the whole file, whatever its fields claim */
    t->nodes[root_node].start = 0;
    t->nodes[root_node].end = size;
    if (failure && t->fail_node < 0)
        mark_failed(t, root_node);
    return 1;
}

int explain_build(xtree *t, const bf_type_desc *type, const void *root, const uint8_t *data, size_t size,
                  const uint8_t *claimed)
{
    return build(t, type, root, data, size, claimed, NULL);
}

int explain_build_partial(xtree *t, const bf_type_desc *type, const void *root, const uint8_t *data,
                          size_t size, const uint8_t *claimed, const bf_error *failure)
{
    return build(t, type, root, data, size, claimed, failure);
}

/* The order nodes are painted in by explain_owners: shallow before deep; at one depth, large
 * before small; then in tree order. Later paint wins. */
typedef struct paint {
    int depth;
    uint64_t size;
    int32_t index;
} paint;

static int paint_order(const void *a, const void *b)
{
    const paint *x = a, *y = b;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

int32_t *explain_owners(const xtree *t)
{
    if (!t->size)
        return NULL;
    int32_t *owner = malloc(t->size * sizeof *owner);
    paint *order = malloc((t->count ? t->count : 1) * sizeof *order);
    if (!owner || !order) {
        free(owner);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < t->size; i++)
        owner[i] = -1;
    size_t n = 0;
    /* the root is the whole file whatever its fields read: it holds no byte of its own */
    for (size_t i = 0; i < t->count; i++)
        if (t->nodes[i].end > t->nodes[i].start && t->nodes[i].parent >= 0)
            order[n++] = (paint){t->nodes[i].depth, t->nodes[i].end - t->nodes[i].start, (int32_t)i};
    qsort(order, n, sizeof *order, paint_order);
    for (size_t k = 0; k < n; k++) {
        const xnode *x = &t->nodes[order[k].index];
        for (uint64_t b = x->start; b < x->end && b < t->size; b++)
            owner[b] = order[k].index;
    }
    free(order);
    return owner;
}

void explain_free(xtree *t)
{
    for (size_t i = 0; i < t->count; i++)
        free_node(&t->nodes[i]);
    free(t->nodes);
    memset(t, 0, sizeof *t);
}

int explain_has_children(const xtree *t, size_t i)
{
    return i + 1 < t->count && t->nodes[i + 1].parent == (int)i;
}

int explain_claimed(const xtree *t, uint64_t i)
{
    return t->claimed && i < t->size && (t->claimed[i >> 3] >> (i & 7) & 1);
}

uint64_t explain_unclaimed_count(const xtree *t)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i < t->size; i++)
        n += !explain_claimed(t, i);
    return n;
}
