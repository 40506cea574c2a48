/* Schema tree -> IR. Every key is known here: an unknown key is an error. */
#include "model.h"
#include "suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const prim_info prims[PRIM_COUNT] = {
    [PRIM_U8] = {"u8", "uint8_t", 1, 0, 0},     [PRIM_U16] = {"u16", "uint16_t", 2, 0, 0},
    [PRIM_U24] = {"u24", "uint32_t", 3, 0, 0},  [PRIM_U32] = {"u32", "uint32_t", 4, 0, 0},
    [PRIM_U64] = {"u64", "uint64_t", 8, 0, 0},  [PRIM_S8] = {"s8", "int8_t", 1, 1, 0},
    [PRIM_S16] = {"s16", "int16_t", 2, 1, 0},   [PRIM_S24] = {"s24", "int32_t", 3, 1, 0},
    [PRIM_S32] = {"s32", "int32_t", 4, 1, 0},   [PRIM_S64] = {"s64", "int64_t", 8, 1, 0},
    [PRIM_F32] = {"f32", "float", 4, 0, 1},     [PRIM_F64] = {"f64", "double", 8, 0, 1},
    [PRIM_CHAR] = {"char", "uint8_t", 1, 0, 0},
};

const prim_info *prim_get(prim_kind p) { return &prims[p]; }
const char *prim_name(prim_kind p) { return prims[p].name; }
int prim_size(prim_kind p) { return prims[p].size; }
int prim_is_signed(prim_kind p) { return prims[p].is_signed; }
int prim_is_float(prim_kind p) { return prims[p].is_float; }

static int parse_prim(const char *s, prim_kind *out)
{
    for (int i = 0; i < PRIM_COUNT; i++)
        if (strcmp(s, prims[i].name) == 0) {
            *out = (prim_kind)i;
            return 1;
        }
    return 0;
}

type_def *find_type(const format *f, const char *name) { return name_map_get(&f->type_names, name); }
enum_def *find_enum(const format *f, const char *name) { return name_map_get(&f->enum_names, name); }
field *find_field(const type_def *t, const char *name) { return name_map_get(&t->field_names, name); }

/* ---- small helpers for reading the tree ---- */

static int expect_kind(const ynode *n, ynode_kind kind, const char *what)
{
    if (n->kind == kind)
        return 1;
    diag_error(n->loc, "%s must be %s, not %s", what, ynode_kind_name(kind), ynode_kind_name(n->kind));
    return 0;
}

/* Reports keys of `map` that are not in the NULL-terminated `allowed` list. */
static void check_keys(const ynode *map, const char *what, const char *const *allowed)
{
    for (size_t i = 0; i < map->len; i++) {
        const char *k = map->keys[i]->text;
        int ok = 0;
        for (int j = 0; allowed[j]; j++)
            if (strcmp(k, allowed[j]) == 0)
                ok = 1;
        if (!ok) {
            char list[512] = "";
            size_t used = 0;
            for (int j = 0; allowed[j] && used < sizeof list - 64; j++)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "", allowed[j]);
            suggest_list near;
            suggest_begin(&near, k);
            suggest_offer_all(&near, allowed);
            if (near.best)
                diag_error(map->keys[i]->loc, "unknown key '%s' in %s%s", k, what, suggest_hint(&near));
            else
                diag_error(map->keys[i]->loc, "unknown key '%s' in %s (known keys: %s)", k, what, list);
        }
    }
}

static const char *scalar(const ynode *n, const char *what)
{
    if (!n)
        return NULL;
    if (!expect_kind(n, YN_SCALAR, what))
        return NULL;
    return n->text;
}

static int is_identifier(const char *s)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

/* C keywords cannot name a struct member: the generated C would not compile. */
static int is_c_keyword(const char *s)
{
    static const char *const kw[] = {"auto", "break", "case", "char", "const", "continue", "default", "do",
                                      "double", "else", "enum", "extern", "float", "for", "goto", "if",
                                      "inline", "int", "long", "register", "restrict", "return", "short",
                                      "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
                                      "unsigned", "void", "volatile", "while", "bool", "true", "false", NULL};
    for (int i = 0; kw[i]; i++)
        if (strcmp(s, kw[i]) == 0)
            return 1;
    return 0;
}

static int parse_int(const ynode *n, const char *what, int64_t *out)
{
    const char *s = scalar(n, what);
    if (!s)
        return 0;
    expr *e = expr_parse(s, n->loc);
    if (!e)
        return 0;
    if (!expr_const_int(e, out)) {
        diag_error(n->loc, "%s must be a constant integer, not '%s'", what, s);
        return 0;
    }
    return 1;
}

static int parse_bool(const ynode *n, const char *what)
{
    const char *s = scalar(n, what);
    if (!s)
        return 0;
    if (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0)
        return 1;
    if (strcmp(s, "false") != 0 && strcmp(s, "no") != 0)
        diag_error(n->loc, "%s must be true or false", what);
    return 0;
}

static expr *parse_expr_node(const ynode *n, const char *what)
{
    const char *s = scalar(n, what);
    if (!s)
        return NULL;
    /* quoted scalars start one column later than their text */
    src_loc at = n->loc;
    if (!n->plain)
        at.col++;
    return expr_parse(s, at);
}

/* ---- enums and flags ---- */

static enum_def *build_enum(format *f, const ynode *key, const ynode *n, int is_flags)
{
    static const char *const keys[] = {"type", "doc", "values", "open", NULL};
    static const char *const flag_keys[] = {"type", "doc", "bits", NULL};
    enum_def *e = pool_alloc(sizeof *e);
    e->name = key->text;
    e->loc = key->loc;
    e->is_flags = is_flags;
    e->base = PRIM_U32;
    if (!is_identifier(e->name))
        diag_error(key->loc, "'%s' is not a valid name", e->name);
    if (!expect_kind(n, YN_MAP, is_flags ? "a flag set" : "an enum"))
        return e;
    check_keys(n, is_flags ? "flags" : "enum", is_flags ? flag_keys : keys);
    e->doc = scalar(ynode_get(n, "doc"), "doc");
    const ynode *open = ynode_get(n, "open");
    e->is_open = open && parse_bool(open, "open");
    const ynode *t = ynode_get(n, "type");
    if (t && scalar(t, "type") && (!parse_prim(t->text, &e->base) || prim_is_float(e->base)))
        diag_error(t->loc, "an enum's type must be an integer type, not '%s'", t->text);
    const ynode *vals = ynode_get(n, is_flags ? "bits" : "values");
    if (!vals) {
        diag_error(n->loc, "%s '%s' needs '%s'", is_flags ? "flag set" : "enum", e->name, is_flags ? "bits" : "values");
        return e;
    }
    if (!expect_kind(vals, YN_MAP, is_flags ? "bits" : "values"))
        return e;
    name_map by_value = {0}, by_folded_name = {0}; /* for clashes, found in constant time */
    for (size_t i = 0; i < vals->len; i++) {
        enum_value *v = pool_alloc(sizeof *v);
        v->name = vals->keys[i]->text;
        v->loc = vals->keys[i]->loc;
        if (!is_identifier(v->name))
            diag_error(v->loc, "'%s' is not a valid name", v->name);
        const ynode *vn = vals->values[i];
        const char *num_key = is_flags ? "bit" : "value";
        if (vn->kind == YN_SCALAR) {
            parse_int(vn, num_key, &v->value);
        } else if (expect_kind(vn, YN_MAP, "an enum value")) {
            const char *const vkeys[] = {num_key, "doc", NULL};
            check_keys(vn, is_flags ? "a flag bit" : "an enum value", vkeys);
            const ynode *num = ynode_get(vn, num_key);
            if (!num)
                diag_error(vn->loc, "'%s' needs '%s'", v->name, num_key);
            else
                parse_int(num, num_key, &v->value);
            v->doc = scalar(ynode_get(vn, "doc"), "doc");
        }
        enum_value *o = name_map_put(&by_value, pool_printf("%lld", (long long)v->value), v);
        if (o)
            diag_error(v->loc, "'%s' has the same value as '%s'", v->name, o->name);
        char *folded = pool_strdup(v->name);
        for (char *c = folded; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        if ((o = name_map_put(&by_folded_name, folded, v)))
            diag_error(v->loc, "'%s' and '%s' differ only in case: their C constants would clash", v->name, o->name);
        name_map_put(&e->value_names, v->name, v);
        /* the generated constants are of the enum's type: a value outside it cannot be read */
        int bits = prim_size(e->base) * 8;
        int64_t low = 0, high = 0;
        if (bits < 64) {
            low = prim_is_signed(e->base) ? -(INT64_C(1) << (bits - 1)) : 0;
            high = prim_is_signed(e->base) ? (INT64_C(1) << (bits - 1)) - 1 : (INT64_C(1) << bits) - 1;
        }
        if (!is_flags && bits < 64 && (v->value < low || v->value > high))
            diag_error(v->loc, "value %lld of '%s' does not fit in %s", (long long)v->value, v->name, prim_name(e->base));
        if (is_flags && (v->value < 0 || v->value >= prim_size(e->base) * 8))
            diag_error(v->loc, "bit %lld does not fit in %s", (long long)v->value, prim_name(e->base));
        vec_push(&e->values, v);
    }
    (void)f;
    return e;
}

/* ---- fields ---- */

static const char *const field_keys[] = {
    "name", "type", "doc", "erratum", "at", "count", "until", "to_end", "size", "pos", "if",
    "align", "const", "expect", "enum", "flags", "bits", "string", "fixed", "derive", "args",
    "endian", "document_at", "value", "prefix", "never_empty", "computed", "padding", "fill_to", NULL};

static void build_switch(field *fl, const ynode *n)
{
    static const char *const keys[] = {"switch", "cases", "default", NULL};
    check_keys(n, "a switch type", keys);
    fl->kind = FT_SWITCH;
    fl->type_text = "switch";
    const ynode *on = ynode_get(n, "switch");
    if (!on) {
        diag_error(n->loc, "a switch type needs 'switch: EXPRESSION'");
        return;
    }
    fl->switch_on = parse_expr_node(on, "switch");
    const ynode *cases = ynode_get(n, "cases");
    if (!cases || !expect_kind(cases, YN_MAP, "cases")) {
        if (!cases)
            diag_error(n->loc, "a switch type needs 'cases'");
        return;
    }
    for (size_t i = 0; i <= cases->len; i++) {
        const ynode *k, *v;
        if (i < cases->len) {
            k = cases->keys[i];
            v = cases->values[i];
        } else {
            v = ynode_get(n, "default");
            if (!v)
                break;
            k = NULL;
        }
        switch_case *c = pool_alloc(sizeof *c);
        c->loc = k ? k->loc : v->loc;
        c->label = k ? k->text : "default";
        c->is_default = k == NULL;
        const char *tn = NULL;
        if (v->kind == YN_MAP) {
            /* { type: Name, align: N } */
            static const char *const ckeys[] = {"type", "align", "pool", NULL};
            check_keys(v, "a case", ckeys);
            tn = scalar(ynode_get(v, "type"), "a case's type");
            const ynode *al = ynode_get(v, "align");
            if (al && parse_int(al, "align", &c->align) && (c->align < 1 || (c->align & (c->align - 1))))
                diag_error(al->loc, "align must be a power of two");
            if (!tn)
                diag_error(v->loc, "a case needs 'type'");
            const ynode *pl = ynode_get(v, "pool");
            c->pool = pl && parse_bool(pl, "pool");
            if (c->pool && tn && strcmp(tn, "bytes") != 0)
                diag_error(pl->loc, "only a bytes case can be a pool");
        } else {
            tn = scalar(v, "a case's type");
        }
        if (tn && strcmp(tn, "bytes") != 0) {
            c->type_name = tn; /* resolved by the checker */
        }
        vec_push(&fl->cases, c);
    }
}

/* `u16`, `s16[3]`, `char[4]`, `Part[part_count]`, `Bone[]`, `cstr`, `bytes`, `TypeName`. */
static void parse_type_text(field *fl, const ynode *n)
{
    const char *text = n->text;
    fl->type_text = text;
    const char *br = strchr(text, '[');
    char *base = br ? pool_strndup(text, (size_t)(br - text)) : pool_strdup(text);
    if (br) {
        size_t len = strlen(br);
        if (len < 2 || br[len - 1] != ']') {
            diag_error(n->loc, "malformed array type '%s' (expected TYPE[COUNT] or TYPE[])", text);
            return;
        }
        char *inside = pool_strndup(br + 1, len - 2);
        fl->is_array = 1;
        if (inside[0]) {
            src_loc at = n->loc;
            at.col += (int)(br - text) + 1 + (n->plain ? 0 : 1);
            fl->count = expr_parse(inside, at);
        }
    }
    if (strcmp(base, "char") == 0 && br) {
        /* char[N]: a fixed-length string */
        fl->kind = FT_STR;
        fl->is_array = 0;
        int64_t n_len = 0;
        if (!fl->count || !expr_const_int(fl->count, &n_len) || n_len <= 0 || n_len > 0xFFFFFFFF) {
            diag_error(n->loc, "char[N] is a fixed-length string and needs a constant length (1 to 0xFFFFFFFF)");
            n_len = 1;
        }
        fl->str_len = n_len;
        fl->count = NULL;
    } else if (parse_prim(base, &fl->prim)) {
        fl->kind = FT_PRIM;
    } else if (strcmp(base, "cstr") == 0) {
        fl->kind = FT_CSTR;
    } else if (strcmp(base, "bytes") == 0) {
        fl->kind = FT_BYTES;
        fl->is_array = 0;
        /* bytes[N] reads N bytes: the count is the length */
    } else if (is_identifier(base)) {
        fl->kind = FT_STRUCT;
        fl->type_name = base; /* resolved by the checker */
    } else {
        diag_error(n->loc, "'%s' is not a type", text);
    }
}

static void build_bits(field *fl, const ynode *n)
{
    if (!expect_kind(n, YN_SEQ, "bits"))
        return;
    for (size_t i = 0; i < n->len; i++) {
        const ynode *b = n->values[i];
        if (!expect_kind(b, YN_MAP, "a bit field"))
            continue;
        static const char *const keys[] = {"name", "width", "signed", "doc", NULL};
        check_keys(b, "a bit field", keys);
        bit_field *bf = pool_alloc(sizeof *bf);
        bf->loc = b->loc;
        bf->name = scalar(ynode_get(b, "name"), "name");
        if (!bf->name || !is_identifier(bf->name)) {
            diag_error(b->loc, "a bit field needs a valid 'name'");
            bf->name = "?"; /* the checker compares names: never NULL */
        }
        int64_t w = 0;
        const ynode *wn = ynode_get(b, "width");
        if (!wn)
            diag_error(b->loc, "a bit field needs 'width'");
        else if (parse_int(wn, "width", &w) && (w < 1 || w > 64))
            diag_error(wn->loc, "width must be between 1 and 64");
        bf->width = w >= 1 && w <= 64 ? (int)w : 1; /* after an error, a width the sums can take */
        const ynode *sn = ynode_get(b, "signed");
        bf->is_signed = sn ? parse_bool(sn, "signed") : 0;
        bf->doc = scalar(ynode_get(b, "doc"), "doc");
        vec_push(&fl->bits, bf);
    }
}

static field *build_field(type_def *t, const ynode *n, int index)
{
    field *fl = pool_alloc(sizeof *fl);
    fl->owner = t;
    fl->index = index;
    fl->loc = n->loc;
    fl->static_offset = -1;
    if (!expect_kind(n, YN_MAP, "a field"))
        return NULL;
    check_keys(n, "a field", field_keys);

    fl->name = scalar(ynode_get(n, "name"), "name");
    if (!fl->name) {
        diag_error(n->loc, "a field needs a 'name'");
        fl->name = "?";
    } else if (!is_identifier(fl->name) || fl->name[0] == '_') {
        diag_error(ynode_get(n, "name")->loc, "'%s' is not a valid field name (letters, digits, '_'; not starting with '_')", fl->name);
    } else if (is_c_keyword(fl->name)) {
        diag_error(ynode_get(n, "name")->loc, "'%s' is a C keyword: the generated structure cannot have a member of that name", fl->name);
    }
    fl->doc = scalar(ynode_get(n, "doc"), "doc");
    if (!fl->doc)
        diag_warning(n->loc, "field '%s' has no 'doc': the generated docs will have nothing to say about it", fl->name);
    fl->erratum = scalar(ynode_get(n, "erratum"), "erratum");

    const ynode *ty = ynode_get(n, "type");
    if (!ty)
        diag_error(n->loc, "field '%s' needs a 'type'", fl->name);
    else if (ty->kind == YN_MAP)
        build_switch(fl, ty);
    else if (expect_kind(ty, YN_SCALAR, "type"))
        parse_type_text(fl, ty);

    const ynode *v;
    if ((v = ynode_get(n, "at"))) {
        fl->has_at = parse_int(v, "at", &fl->declared_at);
    }
    if ((v = ynode_get(n, "value")))
        fl->value = parse_expr_node(v, "value");
    if ((v = ynode_get(n, "prefix")))
        fl->prefix = scalar(v, "prefix");
    if ((v = ynode_get(n, "never_empty")))
        fl->never_empty = parse_bool(v, "never_empty");
    if ((v = ynode_get(n, "computed")))
        fl->computed = parse_bool(v, "computed");
    if ((v = ynode_get(n, "document_at")))
        fl->has_document_at = parse_int(v, "document_at", &fl->document_at);
    if ((v = ynode_get(n, "count"))) {
        if (fl->count)
            diag_error(v->loc, "'%s' already has a count in its type", fl->name);
        fl->count = parse_expr_node(v, "count");
        if (fl->kind != FT_BYTES && fl->count)
            fl->is_array = 1;
    }
    if ((v = ynode_get(n, "until"))) {
        fl->until = parse_expr_node(v, "until");
        fl->is_array = fl->until != NULL;
    }
    if ((v = ynode_get(n, "to_end"))) {
        fl->to_end = parse_bool(v, "to_end");
        if (fl->to_end && fl->kind != FT_BYTES)
            fl->is_array = 1;
    }
    if ((v = ynode_get(n, "size")))
        fl->size = parse_expr_node(v, "size");
    if ((v = ynode_get(n, "pos")))
        fl->pos = parse_expr_node(v, "pos");
    if ((v = ynode_get(n, "if")))
        fl->cond = parse_expr_node(v, "if");
    if ((v = ynode_get(n, "align")) && parse_int(v, "align", &fl->align) &&
        (fl->align < 1 || (fl->align & (fl->align - 1))))
        diag_error(v->loc, "align must be a power of two");
    if ((v = ynode_get(n, "const"))) {
        if (fl->kind == FT_STR || fl->kind == FT_CSTR) {
            fl->const_str = scalar(v, "const");
            /* a char[N] constant fills the field exactly: a shorter one could never match */
            if (fl->const_str && fl->kind == FT_STR && (int64_t)strlen(fl->const_str) != fl->str_len)
                diag_error(v->loc, "const '%s' has %zu characters but the field is char[%lld]", fl->const_str,
                           strlen(fl->const_str), (long long)fl->str_len);
        }
        else
            fl->const_value = parse_expr_node(v, "const");
    }
    if ((v = ynode_get(n, "expect"))) {
        if (v->kind == YN_MAP) {
            /* { value: 0, severity: warning, origin: "..." } */
            static const char *const ekeys[] = {"value", "severity", "origin", NULL};
            check_keys(v, "expect", ekeys);
            const ynode *ev = ynode_get(v, "value");
            if (!ev)
                diag_error(v->loc, "expect needs 'value'");
            else
                fl->expect = parse_expr_node(ev, "expect");
            const ynode *sv = ynode_get(v, "severity");
            if (sv && scalar(sv, "severity")) {
                fl->expect_warning = strcmp(sv->text, "warning") == 0;
                if (!fl->expect_warning && strcmp(sv->text, "error") != 0)
                    diag_error(sv->loc, "severity must be 'error' or 'warning'");
            }
            fl->expect_origin = scalar(ynode_get(v, "origin"), "origin");
        } else {
            fl->expect = parse_expr_node(v, "expect");
        }
    }
    const ynode *en = ynode_get(n, "enum"), *fn = ynode_get(n, "flags");
    if (en && fn)
        diag_error(fn->loc, "a field has either 'enum' or 'flags', not both");
    if (en || fn)
        fl->enum_name = scalar(en ? en : fn, en ? "enum" : "flags");
    if ((v = ynode_get(n, "bits")))
        build_bits(fl, v);
    if ((v = ynode_get(n, "string"))) {
        if (v->kind == YN_SCALAR) {
            fl->string_table = parse_expr_node(v, "string");
        } else if (expect_kind(v, YN_MAP, "string")) {
            static const char *const keys[] = {"table", "null", NULL};
            check_keys(v, "string", keys);
            const ynode *tb = ynode_get(v, "table");
            if (!tb)
                diag_error(v->loc, "string needs 'table'");
            else
                fl->string_table = parse_expr_node(tb, "table");
            const ynode *nu = ynode_get(v, "null");
            if (nu)
                fl->has_string_null = parse_int(nu, "null", &fl->string_null);
        }
    }
    if ((v = ynode_get(n, "fixed")) && scalar(v, "fixed")) {
        int i_bits = 0, f_bits = 0;
        /* (a malformed one is reported once, not again by its size) */
        fl->is_fixed = sscanf(v->text, "%3d.%3d", &i_bits, &f_bits) == 2 && i_bits >= 0 && f_bits >= 0 &&
                       i_bits <= 64 && f_bits <= 64;
        if (!fl->is_fixed)
            diag_error(v->loc, "fixed must be INT.FRAC bits, like 10.6");
        fl->fixed_int = i_bits;
        fl->fixed_frac = f_bits;
    }
    if ((v = ynode_get(n, "derive"))) {
        if (v->kind == YN_MAP) {
            static const char *const keys[] = {"value", "doc", NULL};
            check_keys(v, "derive", keys);
            const ynode *dv = ynode_get(v, "value");
            if (dv)
                fl->derive = parse_expr_node(dv, "derive");
            else
                diag_error(v->loc, "derive needs 'value'");
            fl->derive_doc = scalar(ynode_get(v, "doc"), "doc");
        } else {
            fl->derive = parse_expr_node(v, "derive");
        }
    }
    if ((v = ynode_get(n, "args")) && expect_kind(v, YN_MAP, "args")) {
        for (size_t i = 0; i < v->len; i++) {
            named_expr *a = pool_alloc(sizeof *a);
            a->name = v->keys[i]->text;
            a->loc = v->keys[i]->loc;
            a->value = parse_expr_node(v->values[i], "an argument");
            vec_push(&fl->args, a);
        }
    }
    if ((v = ynode_get(n, "padding")) && expect_kind(v, YN_MAP, "padding")) {
        /* { fill: [TEXT, ...], unit: EXPR, below: N } */
        static const char *const keys[] = {"fill", "unit", "below", NULL};
        check_keys(v, "padding", keys);
        fl->has_padding = 1;
        const ynode *fi = ynode_get(v, "fill");
        if (!fi)
            diag_error(v->loc, "padding needs 'fill': the texts the padding bytes are a prefix of");
        else if (expect_kind(fi, YN_SEQ, "fill"))
            for (size_t i = 0; i < fi->len; i++) {
                const char *text = scalar(fi->values[i], "a fill text");
                if (text && !text[0])
                    diag_error(fi->values[i]->loc, "a fill text cannot be empty");
                else if (text)
                    vec_push(&fl->pad_fill, (void *)text);
            }
        const ynode *un = ynode_get(v, "unit");
        if (un)
            fl->pad_unit = parse_expr_node(un, "unit");
        const ynode *be = ynode_get(v, "below");
        if (!be)
            diag_error(v->loc, "padding needs 'below': the padding is shorter than this many bytes");
        else if (parse_int(be, "below", &fl->pad_below) && fl->pad_below < 1)
            diag_error(be->loc, "below must be at least 1");
    }
    if ((v = ynode_get(n, "fill_to")) && expect_kind(v, YN_MAP, "fill_to")) {
        /* { align: N, fill: [TEXT, ...] } */
        static const char *const keys[] = {"align", "fill", NULL};
        check_keys(v, "fill_to", keys);
        fl->has_fill_to = 1;
        const ynode *al = ynode_get(v, "align");
        if (!al)
            diag_error(v->loc, "fill_to needs 'align': the region ends at a multiple of this many bytes");
        else if (parse_int(al, "align", &fl->fill_align) && fl->fill_align < 1)
            diag_error(al->loc, "align must be at least 1");
        const ynode *fi = ynode_get(v, "fill");
        if (!fi)
            diag_error(v->loc, "fill_to needs 'fill': the texts the padding is a prefix of");
        else if (expect_kind(fi, YN_SEQ, "fill"))
            for (size_t i = 0; i < fi->len; i++) {
                const char *text = scalar(fi->values[i], "a fill text");
                if (text && !text[0])
                    diag_error(fi->values[i]->loc, "a fill text cannot be empty");
                else if (text)
                    vec_push(&fl->tail_fill, (void *)text);
            }
    }
    if ((v = ynode_get(n, "endian")) && scalar(v, "endian")) {
        if (strcmp(v->text, "little") == 0)
            fl->little_endian = 1;
        else if (strcmp(v->text, "big") == 0)
            fl->little_endian = 0;
        else
            diag_error(v->loc, "endian must be 'big' or 'little'");
        fl->little_endian += 2; /* marks an explicit choice; the checker folds it */
    }
    return fl;
}

/* ---- rules ---- */

/* Splits "offset {offset:x} is past {_size}" into literal and value parts. */
static void parse_message(rule *r, const ynode *n)
{
    const char *p = r->message;
    while (*p) {
        const char *open = strchr(p, '{');
        msg_part *lit = pool_alloc(sizeof *lit);
        lit->text = pool_strndup(p, open ? (size_t)(open - p) : strlen(p));
        if (lit->text[0])
            vec_push(&r->parts, lit);
        if (!open)
            break;
        const char *close = strchr(open, '}');
        if (!close) {
            diag_error(n->loc, "'{' without '}' in message");
            return;
        }
        char *inner = pool_strndup(open + 1, (size_t)(close - open - 1));
        msg_part *val = pool_alloc(sizeof *val);
        size_t len = strlen(inner);
        if (len > 2 && strcmp(inner + len - 2, ":x") == 0) {
            val->hex = 1;
            inner[len - 2] = '\0';
        }
        src_loc at = n->loc;
        at.col += (int)(open - r->message) + 1 + (n->plain ? 0 : 1);
        val->value = expr_parse(inner, at);
        vec_push(&r->parts, val);
        p = close + 1;
    }
}

static rule *build_rule(const ynode *n)
{
    static const char *const keys[] = {"check", "message", "severity", "origin", "each", "at", "name", NULL};
    rule *r = pool_alloc(sizeof *r);
    r->loc = n->loc;
    if (!expect_kind(n, YN_MAP, "a rule"))
        return NULL;
    check_keys(n, "a rule", keys);
    const ynode *v;
    if (!(v = ynode_get(n, "check")))
        diag_error(n->loc, "a rule needs 'check' (an expression that holds for valid files)");
    else
        r->check = parse_expr_node(v, "check");
    if (!(v = ynode_get(n, "message")))
        diag_error(n->loc, "a rule needs 'message' (what is wrong when the check fails)");
    else if ((r->message = scalar(v, "message")))
        parse_message(r, v);
    if ((v = ynode_get(n, "severity")) && scalar(v, "severity")) {
        if (strcmp(v->text, "warning") == 0)
            r->warning = 1;
        else if (strcmp(v->text, "error") != 0)
            diag_error(v->loc, "severity must be 'error' or 'warning'");
    }
    r->origin = scalar(ynode_get(n, "origin"), "origin");
    r->each = scalar(ynode_get(n, "each"), "each");
    if ((v = ynode_get(n, "name")) && (r->name = scalar(v, "name")) && !is_identifier(r->name))
        diag_error(v->loc, "a rule's name is a C identifier (letters, digits, '_'), not '%s'", r->name);
    if ((v = ynode_get(n, "at")))
        r->at = parse_expr_node(v, "at");
    return r;
}

/* ---- named values ---- */

/* `values: { name: EXPR, name: { value: EXPR, doc: TEXT } }` */
static void build_values(type_def *t, const ynode *map)
{
    for (size_t i = 0; i < map->len; i++) {
        const ynode *key = map->keys[i], *vn = map->values[i];
        named_value *nv = pool_alloc(sizeof *nv);
        nv->name = key->text;
        nv->loc = key->loc;
        nv->owner = t;
        nv->last_field = -1;
        if (!is_identifier(nv->name) || nv->name[0] == '_' || is_c_keyword(nv->name))
            diag_error(key->loc, "'%s' is not a valid value name (a C identifier, not a keyword, not starting with '_')", nv->name);
        if (vn->kind == YN_SCALAR) {
            nv->value = parse_expr_node(vn, "a value");
        } else if (expect_kind(vn, YN_MAP, "a value")) {
            static const char *const vkeys[] = {"value", "doc", NULL};
            check_keys(vn, "a value", vkeys);
            const ynode *e = ynode_get(vn, "value");
            if (e)
                nv->value = parse_expr_node(e, "value");
            else
                diag_error(vn->loc, "value '%s' needs 'value' (its expression)", nv->name);
            nv->doc = scalar(ynode_get(vn, "doc"), "doc");
        }
        named_value *o = name_map_put(&t->value_names, nv->name, nv);
        if (o)
            diag_error(key->loc, "value '%s' is declared twice in '%s' (first at line %d)", nv->name, t->name, o->loc.line);
        vec_push(&t->values, nv);
    }
}

/* ---- types ---- */

/* The codecs `binform textures` knows (cli/binform/texture_codec.h). */
static const char *const image_codecs[] = {"gx", "dds", "n64", "rgba8888", "bgra8888", "rgb888", "argb1555",
                                           "argb4444", "argb2222", NULL};

static const char *image_codec(const ynode *v)
{
    const char *c = scalar(v, "a codec");
    if (!c)
        return NULL;
    for (size_t i = 0; image_codecs[i]; i++)
        if (strcmp(c, image_codecs[i]) == 0)
            return c;
    diag_error(v->loc, "unknown image codec '%s' (gx, dds, n64, rgba8888, bgra8888, rgb888, argb1555, argb4444, argb2222)",
               c);
    return NULL;
}

/* `image:` of a type: which of its fields and values make it an image. */
static image_def *build_image(const ynode *n)
{
    static const char *const keys[] = {"codec", "format", "width", "height", "pixels", "palette", "palette_format",
                                       "compression", "short_pixels", NULL};
    image_def *im = pool_alloc(sizeof *im);
    im->loc = n->loc;
    check_keys(n, "an image", keys);
    const ynode *c = ynode_get(n, "codec");
    if (!c) {
        diag_error(n->loc, "an image needs 'codec'");
    } else if (c->kind == YN_SCALAR) {
        im->codec = image_codec(c);
    } else if (expect_kind(c, YN_MAP, "codec")) {
        static const char *const ckeys[] = {"by", "cases", NULL};
        check_keys(c, "an image codec", ckeys);
        im->codec_by = scalar(ynode_get(c, "by"), "by");
        const ynode *cases = ynode_get(c, "cases");
        if (!im->codec_by || !cases)
            diag_error(c->loc, "a codec chosen by a field needs 'by' (the field) and 'cases' (its labels' codecs)");
        else if (expect_kind(cases, YN_MAP, "cases"))
            for (size_t i = 0; i < cases->len; i++) {
                const char *codec = image_codec(cases->values[i]);
                if (codec) {
                    vec_push(&im->codec_cases, (void *)cases->keys[i]->text);
                    vec_push(&im->codec_cases, (void *)codec);
                }
            }
    }
    im->format = scalar(ynode_get(n, "format"), "format");
    im->width = scalar(ynode_get(n, "width"), "width");
    im->height = scalar(ynode_get(n, "height"), "height");
    im->pixels = scalar(ynode_get(n, "pixels"), "pixels");
    im->palette = scalar(ynode_get(n, "palette"), "palette");
    im->palette_format = scalar(ynode_get(n, "palette_format"), "palette_format");
    const ynode *sv = ynode_get(n, "short_pixels");
    const char *short_pixels = sv ? scalar(sv, "short_pixels") : NULL;
    if (short_pixels && strcmp(short_pixels, "pad") != 0 && strcmp(short_pixels, "error") != 0)
        diag_error(sv->loc, "short_pixels is 'error' (the default) or 'pad', not '%s'", short_pixels);
    im->pad_short = short_pixels && strcmp(short_pixels, "pad") == 0;
    const ynode *cv = ynode_get(n, "compression");
    if (cv && (im->compression = scalar(cv, "compression")) && strcmp(im->compression, "lz4_frame") != 0) {
        diag_error(cv->loc, "unknown image compression '%s' (lz4_frame)", im->compression);
        im->compression = NULL;
    }
    if (!im->width || !im->height || !im->pixels)
        diag_error(n->loc, "an image needs 'width', 'height' and 'pixels'");
    return im;
}

static type_def *build_type(const ynode *key, const ynode *n)
{
    static const char *const keys[] = {"doc", "size", "align", "params", "values", "fields", "tables", "absent_rows", "rules",
                                       "image", NULL};
    type_def *t = pool_alloc(sizeof *t);
    t->name = key->text;
    t->loc = key->loc;
    t->static_size = -1;
    if (!is_identifier(t->name))
        diag_error(key->loc, "'%s' is not a valid type name", t->name);
    if (!expect_kind(n, YN_MAP, "a type"))
        return t;
    check_keys(n, "a type", keys);
    t->doc = scalar(ynode_get(n, "doc"), "doc");
    const ynode *v;
    if ((v = ynode_get(n, "size")))
        t->has_size = parse_int(v, "size", &t->declared_size);
    if ((v = ynode_get(n, "align")) && parse_int(v, "align", &t->align) && (t->align < 1 || (t->align & (t->align - 1))))
        diag_error(v->loc, "align must be a power of two");
    if ((v = ynode_get(n, "tables")) && expect_kind(v, YN_SEQ, "tables"))
        for (size_t i = 0; i < v->len; i++)
            if (scalar(v->values[i], "a table title"))
                vec_push(&t->tables, (void *)v->values[i]->text);
    if ((v = ynode_get(n, "absent_rows")) && expect_kind(v, YN_SEQ, "absent_rows")) {
        for (size_t i = 0; i < v->len; i++) {
            const ynode *rn = v->values[i];
            if (!expect_kind(rn, YN_MAP, "an absent row"))
                continue;
            static const char *const rkeys[] = {"row", "reason", NULL};
            check_keys(rn, "an absent row", rkeys);
            absent_row *r = pool_alloc(sizeof *r);
            r->loc = rn->loc;
            r->row = scalar(ynode_get(rn, "row"), "row");
            r->reason = scalar(ynode_get(rn, "reason"), "reason");
            if (!r->row || !r->reason)
                diag_error(rn->loc, "an absent row needs 'row' (its offset or description) and 'reason'");
            vec_push(&t->absent_rows, r);
        }
    }
    if ((v = ynode_get(n, "params")) && expect_kind(v, YN_SEQ, "params")) {
        for (size_t i = 0; i < v->len; i++) {
            const ynode *pn = v->values[i];
            param *p = pool_alloc(sizeof *p);
            p->loc = pn->loc;
            if (pn->kind == YN_SCALAR) {
                p->name = pn->text;
            } else if (expect_kind(pn, YN_MAP, "a parameter")) {
                static const char *const pkeys[] = {"name", "doc", NULL};
                check_keys(pn, "a parameter", pkeys);
                p->name = scalar(ynode_get(pn, "name"), "name");
                p->doc = scalar(ynode_get(pn, "doc"), "doc");
            }
            if (!p->name || !is_identifier(p->name)) {
                diag_error(pn->loc, "a parameter needs a valid name");
                p->name = "?";
            }
            param *o = name_map_put(&t->param_names, p->name, p);
            if (o && strcmp(p->name, "?") != 0)
                diag_error(p->loc, "parameter '%s' is declared twice in '%s' (first at line %d)", p->name, t->name, o->loc.line);
            p->index = (int)t->params.len;
            vec_push(&t->params, p);
        }
    }
    if ((v = ynode_get(n, "values")) && expect_kind(v, YN_MAP, "values"))
        build_values(t, v);
    if ((v = ynode_get(n, "image")) && expect_kind(v, YN_MAP, "image"))
        t->image = build_image(v);
    if ((v = ynode_get(n, "rules")) && expect_kind(v, YN_SEQ, "rules"))
        for (size_t i = 0; i < v->len; i++) {
            rule *r = build_rule(v->values[i]);
            if (r)
                vec_push(&t->rules, r);
        }
    const ynode *fields = ynode_get(n, "fields");
    if (!fields) {
        diag_error(n->loc, "type '%s' needs 'fields'", t->name);
        return t;
    }
    if (!expect_kind(fields, YN_SEQ, "fields"))
        return t;
    for (size_t i = 0; i < fields->len; i++) {
        field *fl = build_field(t, fields->values[i], (int)i);
        if (!fl)
            continue;
        field *o = name_map_put(&t->field_names, fl->name, fl);
        if (o)
            diag_error(fl->loc, "field '%s' is declared twice in '%s' (first at line %d)", fl->name, t->name, o->loc.line);
        vec_push(&t->fields, fl);
    }
    return t;
}

/* A list of strings, or one string standing for a list of one. */
static void scalar_list(const ynode *v, const char *what, ptr_vec *out)
{
    if (v->kind == YN_SCALAR) {
        vec_push(out, (void *)v->text);
        return;
    }
    if (expect_kind(v, YN_SEQ, what))
        for (size_t i = 0; i < v->len; i++)
            if (scalar(v->values[i], what))
                vec_push(out, (void *)v->values[i]->text);
}

/* A path into a document for file-set checks: `owner.` or `member.`, then field names. */
static int is_set_path(const char *p)
{
    return p && (strncmp(p, "owner.", 6) == 0 || strncmp(p, "member.", 7) == 0) && p[strlen(p) - 1] != '.';
}

static member_check *build_member_check(const ynode *n)
{
    static const char *const keys[] = {"values", "count", "below", "among", "equals", "ignore_case", "severity",
                                       "origin", NULL};
    member_check *c = pool_alloc(sizeof *c);
    c->loc = n->loc;
    if (!expect_kind(n, YN_MAP, "a member check"))
        return c;
    check_keys(n, "a member check", keys);
    c->values = scalar(ynode_get(n, "values"), "values");
    c->origin = scalar(ynode_get(n, "origin"), "origin");
    const ynode *v;
    if ((v = ynode_get(n, "count"))) {
        if (c->values)
            diag_error(v->loc, "a member check has 'values' (numbers compared) or 'count' (how many), not both");
        c->values = scalar(v, "count");
        c->counts = 1;
    }
    if ((v = ynode_get(n, "equals")))
        scalar_list(v, "equals", &c->equals);
    if ((v = ynode_get(n, "below")))
        scalar_list(v, "below", &c->below);
    if ((v = ynode_get(n, "among")))
        scalar_list(v, "among", &c->among);
    if ((v = ynode_get(n, "ignore_case"))) {
        c->ignore_case = parse_bool(v, "ignore_case");
        if (!c->among.len)
            diag_error(v->loc, "'ignore_case' is for 'among' checks (names), not 'below'");
    }
    if ((v = ynode_get(n, "severity")) && scalar(v, "severity")) {
        if (strcmp(v->text, "warning") == 0)
            c->warning = 1;
        else if (strcmp(v->text, "error") != 0)
            diag_error(v->loc, "severity must be 'error' or 'warning'");
    }
    if (!is_set_path(c->values))
        diag_error(n->loc, "a member check needs 'values' or 'count', a path starting 'owner.' or 'member.'");
    int kinds = (c->below.len > 0) + (c->among.len > 0) + (c->equals.len > 0);
    if (!kinds)
        diag_error(n->loc, "a member check needs 'below' (paths of numbers to stay under), 'equals' (paths of numbers "
                           "to equal) or 'among' (paths of names or numbers to be one of)");
    if (kinds > 1)
        diag_error(n->loc, "a member check has one of 'below', 'equals' and 'among': make one check of each");
    if (c->counts && c->among.len)
        diag_error(n->loc, "'count' is compared with 'below' or 'equals', not 'among'");
    const ptr_vec *lists[] = {&c->below, &c->among, &c->equals};
    static const char *const list_names[] = {"below", "among", "equals"};
    for (size_t l = 0; l < 3; l++)
        for (size_t i = 0; i < lists[l]->len; i++)
            if (!is_set_path(lists[l]->items[i]))
                diag_error(n->loc, "'%s' path '%s' must start with 'owner.' or 'member.'", list_names[l],
                           (const char *)lists[l]->items[i]);
    return c;
}

/* A name pattern: '*' (any characters) only in its last part, the file name. */
static void check_pattern(const ynode *n, const char *pattern)
{
    const char *star = strchr(pattern, '*');
    if (star && strchr(star, '/'))
        diag_error(n->loc, "pattern '%s': '*' only in the file name, not in a folder", pattern);
    if (star && strstr(pattern, "{n}"))
        diag_error(n->loc, "pattern '%s': '*' and '{n}' together (a pattern names all the files, or the n-th)", pattern);
}

static member *build_member(const ynode *n)
{
    static const char *const keys[] = {"name", "kind", "each", "files", "checks", "orphans", "doc", NULL};
    member *m = pool_alloc(sizeof *m);
    m->name = "?"; /* until read: nothing compares a NULL name */
    m->loc = n->loc;
    if (!expect_kind(n, YN_MAP, "a member"))
        return m;
    check_keys(n, "a member", keys);
    m->name = scalar(ynode_get(n, "name"), "name");
    m->kind = scalar(ynode_get(n, "kind"), "kind");
    m->doc = scalar(ynode_get(n, "doc"), "doc");
    const char *each = scalar(ynode_get(n, "each"), "each");
    if (each) { /* PATH or PATH:Type */
        const char *colon = strchr(each, ':');
        m->each = colon ? pool_strndup(each, (size_t)(colon - each)) : each;
        m->each_type = colon ? colon + 1 : NULL;
        if (!is_set_path(m->each) || strncmp(m->each, "owner.", 6) != 0)
            diag_error(n->loc, "'each' must be a path starting 'owner.' (with ':Type' to keep one type)");
    }
    if (!m->name || !is_identifier(m->name)) {
        diag_error(n->loc, "a member needs a valid 'name'");
        m->name = "?";
    }
    if (!m->kind)
        diag_error(n->loc, "a member needs 'kind' (a file kind of this format, or FORMAT.KIND)");
    const ynode *v;
    if ((v = ynode_get(n, "files")))
        scalar_list(v, "files", &m->files);
    if (!m->files.len)
        diag_error(n->loc, "a member needs 'files', its name patterns");
    int numbered = 0;
    for (size_t i = 0; i < m->files.len; i++) {
        check_pattern(v, m->files.items[i]);
        numbered |= strstr(m->files.items[i], "{n}") != NULL;
    }
    if ((v = ynode_get(n, "orphans")) && (m->orphans = scalar(v, "orphans"))) {
        if (strcmp(m->orphans, "warning") != 0 && strcmp(m->orphans, "error") != 0)
            diag_error(v->loc, "orphans must be 'error' or 'warning' (the severity of a file no structure claims)");
        else if (!m->each || !numbered)
            diag_error(v->loc, "'orphans' needs 'each' and a pattern with '{n}' (files numbered beyond the count)");
    }
    if ((v = ynode_get(n, "checks")) && expect_kind(v, YN_SEQ, "checks"))
        for (size_t i = 0; i < v->len; i++)
            vec_push(&m->checks, build_member_check(v->values[i]));
    return m;
}

static entry *build_entry(const ynode *n)
{
    static const char *const keys[] = {"name", "root", "extensions", "magic", "magic_at", "doc", "members", NULL};
    entry *e = pool_alloc(sizeof *e);
    e->name = "?";
    e->loc = n->loc;
    if (!expect_kind(n, YN_MAP, "a file kind"))
        return e;
    check_keys(n, "a file kind", keys);
    e->name = scalar(ynode_get(n, "name"), "name");
    e->root_name = scalar(ynode_get(n, "root"), "root");
    e->doc = scalar(ynode_get(n, "doc"), "doc");
    e->magic = scalar(ynode_get(n, "magic"), "magic");
    const ynode *v;
    if ((v = ynode_get(n, "magic_at")))
        parse_int(v, "magic_at", &e->magic_at);
    if (!e->name || !is_identifier(e->name)) {
        diag_error(n->loc, "a file kind needs a valid 'name'");
        e->name = "?";
    }
    if (!e->root_name)
        diag_error(n->loc, "a file kind needs 'root' (the type of the whole file)");
    if ((v = ynode_get(n, "extensions")) && expect_kind(v, YN_SEQ, "extensions"))
        for (size_t i = 0; i < v->len; i++)
            if (scalar(v->values[i], "an extension"))
                vec_push(&e->extensions, (void *)v->values[i]->text);
    if ((v = ynode_get(n, "members")) && expect_kind(v, YN_SEQ, "members"))
        for (size_t i = 0; i < v->len; i++)
            vec_push(&e->members, build_member(v->values[i]));
    return e;
}

format *model_build(const ynode *doc)
{
    static const char *const keys[] = {"format", "title", "doc", "document", "document_title", "endian", "files",
                                       "revisions", "enums", "flags", "types", NULL};
    format *f = pool_alloc(sizeof *f);
    f->loc = doc->loc;
    f->file = doc->loc.file;
    if (!expect_kind(doc, YN_MAP, "a schema"))
        return f;
    check_keys(doc, "the schema", keys);
    f->name = scalar(ynode_get(doc, "format"), "format");
    if (!f->name || !is_identifier(f->name)) {
        diag_error(doc->loc, "the schema needs 'format: NAME' (a C identifier)");
        f->name = "unnamed";
    } else if (strcmp(f->name, "formats") == 0 || strncmp(f->name, "bf_", 3) == 0) {
        /* formats.h/.c are the table of every format; bf_*.h are the runtime's headers */
        diag_error(ynode_get(doc, "format")->loc, "'%s' is reserved: a format may not be named 'formats' or start with 'bf_'",
                   f->name);
    }
    f->title = scalar(ynode_get(doc, "title"), "title");
    f->doc = scalar(ynode_get(doc, "doc"), "doc");
    f->document = scalar(ynode_get(doc, "document"), "document");
    f->document_title = scalar(ynode_get(doc, "document_title"), "document_title");
    if (f->document_title && !f->document)
        diag_error(ynode_get(doc, "document_title")->loc, "'document_title' names the document given by 'document', which is missing");
    const ynode *v = ynode_get(doc, "endian");
    if (!v)
        diag_error(doc->loc, "the schema needs 'endian: big' or 'endian: little'");
    else if (scalar(v, "endian")) {
        if (strcmp(v->text, "little") == 0)
            f->little_endian = 1;
        else if (strcmp(v->text, "big") != 0)
            diag_error(v->loc, "endian must be 'big' or 'little'");
    }
    const ynode *revs = ynode_get(doc, "revisions");
    if (revs && expect_kind(revs, YN_MAP, "revisions")) {
        for (size_t i = 0; i < revs->len; i++) {
            revision *r = pool_alloc(sizeof *r);
            r->name = revs->keys[i]->text;
            r->loc = revs->keys[i]->loc;
            if (!is_identifier(r->name))
                diag_error(r->loc, "'%s' is not a valid revision name", r->name);
            const ynode *rv = revs->values[i];
            if (rv->kind == YN_MAP) {
                static const char *const rkeys[] = {"doc", NULL};
                check_keys(rv, "a revision", rkeys);
                r->doc = scalar(ynode_get(rv, "doc"), "doc");
            } else {
                r->doc = scalar(rv, "a revision's doc");
            }
            vec_push(&f->revisions, r);
        }
        if (revs->len < 2)
            diag_error(revs->loc, "'revisions' lists the format's layouts: at least two");
    }
    for (int pass = 0; pass < 2; pass++) {
        const ynode *m = ynode_get(doc, pass ? "flags" : "enums");
        if (!m || !expect_kind(m, YN_MAP, pass ? "flags" : "enums"))
            continue;
        for (size_t i = 0; i < m->len; i++) {
            enum_def *e = build_enum(f, m->keys[i], m->values[i], pass);
            if (name_map_put(&f->enum_names, e->name, e))
                diag_error(e->loc, "'%s' is declared twice", e->name);
            vec_push(&f->enums, e);
        }
    }
    const ynode *types = ynode_get(doc, "types");
    if (!types)
        diag_error(doc->loc, "the schema needs 'types'");
    else if (expect_kind(types, YN_MAP, "types"))
        for (size_t i = 0; i < types->len; i++) {
            type_def *t = build_type(types->keys[i], types->values[i]);
            if (find_enum(f, t->name) || name_map_put(&f->type_names, t->name, t))
                diag_error(t->loc, "'%s' is declared twice", t->name);
            t->kind_id = (int)f->types.len + 1;
            vec_push(&f->types, t);
        }
    const ynode *files = ynode_get(doc, "files");
    name_map entry_names = {0};
    if (!files)
        diag_error(doc->loc, "the schema needs 'files' (which types are whole files)");
    else if (expect_kind(files, YN_SEQ, "files"))
        for (size_t i = 0; i < files->len; i++) {
            /* each kind gets its own functions and constants: a second one of a name would
             * define them again */
            entry *e = build_entry(files->values[i]);
            entry *first = strcmp(e->name, "?") != 0 ? name_map_put(&entry_names, e->name, e) : NULL;
            if (first)
                diag_error(e->loc, "file kind '%s' is listed twice (first at line %d)", e->name, first->loc.line);
            vec_push(&f->entries, e);
        }
    return f;
}
