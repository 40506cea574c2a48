/* The checker: resolves names, types every expression, computes the static layout and
 * verifies the offsets and sizes the schema declares against it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "suggest.h"

typedef enum { CTX_READ, CTX_LINK, CTX_VALIDATE } expr_context;

typedef struct scope {
    format *f;
    type_def *t;
    int visible;          /* fields with index < visible can be used (read order) */
    const field *self;    /* the field the expression belongs to */
    int allow_it;         /* until: the element just read */
    int allow_prev;       /* args/if of an array element: the previous element */
    int allow_value;      /* derive: the field's raw value */
    expr_context ctx;
    const field *it_field; /* what _it/_prev are elements of, when not `self` (rules, quantifiers) */
    named_value *value;    /* the named value being checked, if any */
    int in_quantifier;     /* inside a quantifier's arguments (nested ones are not lifted) */
} scope;

static int check_value(format *f, named_value *v, src_loc used_at);

/* How deep values may use values, and structures hold structures inline: the checker and the
 * templates follow both recursively. Far beyond any real format. */
#define VALUE_MAX_CHAIN 256
#define TYPE_MAX_NESTING 256

/* Sizes bfgen works with: counts, lengths and static sizes up to 4 GiB - 1 (the runtime's
 * counts are 32-bit), so that products of them never overflow 64 bits. */
#define SIZE_LIMIT INT64_C(0xFFFFFFFF)

/* A constant count, length or size: not negative, not beyond SIZE_LIMIT. */
static void check_constant_length(const field *fl, const expr *e, const char *what)
{
    int64_t n;
    if (!e || !expr_const_int(e, &n))
        return;
    if (n < 0)
        diag_error(e->loc, "%s %lld of '%s' is negative", what, (long long)n, fl->name);
    else if (n > SIZE_LIMIT)
        diag_error(e->loc, "%s %lld of '%s' is beyond bfgen's limit of 0x%llX", what, (long long)n, fl->name,
                   (unsigned long long)SIZE_LIMIT);
}

static type_def *root_type(const format *f)
{
    return f->entries.len ? ((entry *)f->entries.items[0])->root : NULL;
}

static value_type vt_of(value_kind k)
{
    value_type v;
    memset(&v, 0, sizeof v);
    v.kind = k;
    return v;
}

/* The value a field gives when named in an expression. */
static value_type field_value(const field *fl, int element)
{
    value_type v = vt_of(VT_ERROR);
    v.field = fl;
    int array = fl->is_array && !element;
    switch (fl->kind) {
    case FT_PRIM:
        if (array) {
            v.kind = VT_ARRAY;
            v.array_elem_int = !prim_is_float(fl->prim);
        } else {
            v.kind = prim_is_float(fl->prim) ? VT_FLOAT : VT_INT;
        }
        break;
    case FT_STRUCT:
        v.kind = array ? VT_ARRAY : VT_STRUCT;
        v.type = fl->type;
        break;
    case FT_BYTES:
        v.kind = VT_BYTES;
        break;
    case FT_STR:
    case FT_CSTR:
        v.kind = array ? VT_ARRAY : VT_STRING;
        break;
    case FT_SWITCH:
        v.kind = VT_SWITCH;
        break;
    }
    return v;
}

static int check_expr(expr *e, scope *sc);

static int want_number(expr *e, const char *what)
{
    if (e->vt.kind == VT_INT || e->vt.kind == VT_FLOAT)
        return 1;
    if (e->vt.kind != VT_ERROR)
        diag_error(e->loc, "%s must be a number", what);
    return 0;
}

/* A named value used in an expression: checked (once), then available where what it
 * reads is. `own`: named bare, so it is the current structure's (its read order applies). */
static int use_value(expr *e, scope *sc, named_value *v, int own)
{
    e->ref = REF_NAMED;
    e->ref_value = v;
    e->vt = vt_of(VT_ERROR);
    if (!check_value(sc->f, v, e->loc))
        return 0;
    if (own && sc->ctx == CTX_READ && v->last_field >= sc->visible) {
        const field *later = v->owner->fields.items[v->last_field];
        diag_error(e->loc, "value '%s' uses '%s', which is read after this point", v->name, later->name);
        return 0;
    }
    if (sc->ctx == CTX_READ && v->rules_only) {
        diag_error(e->loc, "value '%s' uses tag() or offset(), which only rules and values can use", v->name);
        return 0;
    }
    if (sc->value) {
        sc->value->rules_only |= v->rules_only;
        if (own && v->last_field > sc->value->last_field)
            sc->value->last_field = v->last_field;
    }
    e->vt = vt_of(v->value->vt.kind);
    return 1;
}

static int check_name(expr *e, scope *sc)
{
    const char *n = e->name;
    if (n[0] == '_') {
        static const struct { const char *name; ref_kind ref; } builtins[] = {
            {"_index", REF_INDEX}, {"_start", REF_START}, {"_pos", REF_POS},
            {"_end", REF_END}, {"_size", REF_SIZE}, {"_revision", REF_REVISION}};
        for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
            if (strcmp(n, builtins[i].name) == 0) {
                e->ref = builtins[i].ref;
                e->vt = vt_of(VT_INT);
                if (e->ref == REF_REVISION && !sc->f->revisions.len) {
                    diag_error(e->loc, "'_revision' needs the format to list 'revisions'");
                    e->vt = vt_of(VT_ERROR);
                }
                if ((e->ref == REF_POS || e->ref == REF_END) && sc->ctx != CTX_READ) {
                    diag_error(e->loc, "'%s' only has a meaning while reading", n);
                    e->vt = vt_of(VT_ERROR);
                }
                return 1;
            }
        if (strcmp(n, "_it") == 0 || strcmp(n, "_prev") == 0 || strcmp(n, "_value") == 0) {
            int it = n[1] == 'i', prev = n[1] == 'p';
            if ((it && !sc->allow_it) || (prev && !sc->allow_prev) || (!it && !prev && !sc->allow_value)) {
                diag_error(e->loc, "'%s' is only allowed in %s", n,
                           it ? "'until'" : prev ? "'args' of an array" : "'derive'");
                e->vt = vt_of(VT_ERROR);
                return 0;
            }
            e->ref = it ? REF_IT : prev ? REF_PREV : REF_VALUE;
            e->vt = field_value(it || prev ? (sc->it_field ? sc->it_field : sc->self) : sc->self, 1);
            return 1;
        }
        diag_error(e->loc, "unknown builtin '%s' (known: _index, _start, _pos, _end, _size, _revision, _it, _prev, _value)", n);
        e->vt = vt_of(VT_ERROR);
        return 0;
    }
    if (strcmp(n, "root") == 0) {
        type_def *r = root_type(sc->f);
        e->ref = REF_ROOT;
        e->vt = vt_of(r ? VT_STRUCT : VT_ERROR);
        e->vt.type = r;
        return r != NULL;
    }
    field *fl = find_field(sc->t, n);
    if (fl) {
        int i = fl->index;
        if (i >= sc->visible) {
            diag_error(e->loc, "'%s' is read after this point: an expression can only use fields read before it", n);
            e->vt = vt_of(VT_ERROR);
            return 0;
        }
        e->ref = REF_FIELD;
        e->ref_field = fl;
        e->vt = field_value(fl, 0);
        if (sc->value && i > sc->value->last_field)
            sc->value->last_field = i;
        return e->vt.kind != VT_ERROR;
    }
    named_value *v = name_map_get(&sc->t->value_names, n);
    if (v)
        return use_value(e, sc, v, 1);
    param *p = name_map_get(&sc->t->param_names, n);
    if (p) {
        e->ref = REF_PARAM;
        e->ref_param = p->index;
        e->vt = vt_of(VT_INT);
        return 1;
    }
    if (strcmp(n, "Revision") == 0 && sc->f->revisions.len) {
        e->ref = REF_ENUM_TYPE;
        e->vt = vt_of(VT_ENUM_NAME);
        e->vt.enumdef = NULL; /* the revisions, see check_member */
        return 1;
    }
    enum_def *en = find_enum(sc->f, n);
    if (en) {
        e->ref = REF_ENUM_TYPE;
        e->vt = vt_of(VT_ENUM_NAME);
        e->vt.enumdef = en;
        return 1;
    }
    suggest_list near;
    suggest_begin(&near, n);
    for (size_t i = 0; i < sc->t->fields.len && (int)i < sc->visible; i++)
        suggest_offer(&near, ((field *)sc->t->fields.items[i])->name);
    for (size_t i = 0; i < sc->t->values.len; i++)
        suggest_offer(&near, ((named_value *)sc->t->values.items[i])->name);
    for (size_t i = 0; i < sc->t->params.len; i++)
        suggest_offer(&near, ((param *)sc->t->params.items[i])->name);
    for (size_t i = 0; i < sc->f->enums.len; i++)
        suggest_offer(&near, ((enum_def *)sc->f->enums.items[i])->name);
    diag_error(e->loc, "'%s' is not defined here (not a field read before this point, a value or a parameter of '%s', an enum, or a builtin)%s",
               n, sc->t->name, suggest_hint(&near));
    e->vt = vt_of(VT_ERROR);
    return 0;
}

static int check_member(expr *e, scope *sc)
{
    if (!check_expr(e->a, sc))
        return 0;
    value_type obj = e->a->vt;
    if (obj.kind == VT_ENUM_NAME && !obj.enumdef) {
        for (size_t i = 0; i < sc->f->revisions.len; i++) {
            revision *r = sc->f->revisions.items[i];
            if (strcmp(r->name, e->name) == 0) {
                e->ref = REF_ENUM_CONST;
                e->const_value = (int64_t)i;
                e->vt = vt_of(VT_INT);
                return 1;
            }
        }
        diag_error(e->loc, "the format has no revision '%s'", e->name);
        return 0;
    }
    if (obj.kind == VT_ENUM_NAME) {
        enum_value *v = name_map_get(&obj.enumdef->value_names, e->name);
        if (v) {
            e->ref = REF_ENUM_CONST;
            /* a bit out of range was reported where it is declared */
            int bit_ok = v->value >= 0 && v->value < 64;
            e->const_value = !obj.enumdef->is_flags ? v->value : bit_ok ? (int64_t)((uint64_t)1 << v->value) : 0;
            e->vt = vt_of(VT_INT);
            return 1;
        }
        suggest_list near;
        suggest_begin(&near, e->name);
        for (size_t i = 0; i < obj.enumdef->values.len; i++)
            suggest_offer(&near, ((enum_value *)obj.enumdef->values.items[i])->name);
        diag_error(e->loc, "'%s' has no member '%s'%s", obj.enumdef->name, e->name, suggest_hint(&near));
        return 0;
    }
    if (obj.kind == VT_STRUCT && obj.type) {
        field *fl = find_field(obj.type, e->name);
        named_value *v = fl ? NULL : name_map_get(&obj.type->value_names, e->name);
        if (v)
            return use_value(e, sc, v, 0);
        if (!fl) {
            suggest_list near;
            suggest_begin(&near, e->name);
            for (size_t i = 0; i < obj.type->fields.len; i++)
                suggest_offer(&near, ((field *)obj.type->fields.items[i])->name);
            for (size_t i = 0; i < obj.type->values.len; i++)
                suggest_offer(&near, ((named_value *)obj.type->values.items[i])->name);
            diag_error(e->loc, "type '%s' has no field or value '%s'%s", obj.type->name, e->name, suggest_hint(&near));
            return 0;
        }
        e->ref = REF_FIELD;
        e->ref_field = fl;
        e->vt = field_value(fl, 0);
        return e->vt.kind != VT_ERROR;
    }
    if (obj.kind == VT_SWITCH && obj.field) {
        /* x.body.Object: the case's structure (a zero one when another case is active) */
        for (size_t i = 0; i < obj.field->cases.len; i++) {
            switch_case *c = obj.field->cases.items[i];
            if (c->type && strcmp(c->type->name, e->name) == 0) {
                e->ref = REF_CASE;
                e->ref_field = obj.field;
                e->vt = vt_of(VT_STRUCT);
                e->vt.type = c->type;
                return 1;
            }
        }
        diag_error(e->loc, "switch '%s' has no case of type '%s'", obj.field->name, e->name);
        return 0;
    }
    if ((obj.kind == VT_INT) && obj.field && obj.field->bits.len) {
        for (size_t i = 0; i < obj.field->bits.len; i++) {
            bit_field *b = obj.field->bits.items[i];
            if (strcmp(b->name, e->name) == 0) {
                e->ref = REF_BITS;
                e->ref_field = obj.field;
                e->vt = vt_of(VT_INT);
                return 1;
            }
        }
        diag_error(e->loc, "'%s' has no bit field '%s'", obj.field->name, e->name);
        return 0;
    }
    diag_error(e->loc, "'.%s' needs a structure, an enum or a packed field on its left", e->name);
    return 0;
}

/* Whether `e` uses one of the builtins `a` .. `c` (REF_NONE for none). */
static int uses_ref(const expr *e, ref_kind a, ref_kind b, ref_kind c)
{
    if (!e)
        return 0;
    if (e->kind == EX_NAME && (e->ref == a || e->ref == b || e->ref == c))
        return 1;
    if (uses_ref(e->a, a, b, c) || uses_ref(e->b, a, b, c) || uses_ref(e->c, a, b, c))
        return 1;
    for (size_t i = 0; i < e->nargs; i++)
        if (uses_ref(e->args[i], a, b, c))
            return 1;
    return 0;
}

/* A quantifier in a read expression becomes an unnamed value of the type: one function
 * the reader, writer and validator all call, instead of a loop hoisted out of each use. */
static int lift_quantifier(expr *e, scope *sc)
{
    if (uses_ref(e, REF_VALUE, REF_POS, REF_END) || uses_ref(e->args[0], REF_IT, REF_PREV, REF_INDEX)) {
        diag_error(e->loc, "%s() in a read expression can use neither '_value', '_pos' nor '_end', and its array "
                   "cannot depend on '_it', '_prev' or '_index'", e->name);
        return 0;
    }
    named_value *v = pool_alloc(sizeof *v);
    v->name = pool_printf("_q%zu", sc->t->values.len + 1);
    v->loc = e->loc;
    v->owner = sc->t;
    v->synthetic = 1;
    v->state = 2;
    v->last_field = -1;
    expr *body = pool_alloc(sizeof *body);
    *body = *e;
    body->text = NULL;
    v->value = body;
    vec_push(&sc->t->values, v);
    e->kind = EX_NAME;
    e->name = v->name;
    e->args = NULL;
    e->nargs = 0;
    e->ref = REF_NAMED;
    e->ref_value = v;
    return 1;
}

static int check_expr(expr *e, scope *sc)
{
    if (!e)
        return 0;
    switch (e->kind) {
    case EX_INT:
        e->vt = vt_of(VT_INT);
        return 1;
    case EX_FLOAT:
        e->vt = vt_of(VT_FLOAT);
        return 1;
    case EX_NAME:
        return check_name(e, sc);
    case EX_MEMBER:
        return check_member(e, sc);
    case EX_INDEX:
        if (!check_expr(e->a, sc) | !check_expr(e->b, sc))
            return 0;
        if (e->a->vt.kind != VT_ARRAY) {
            diag_error(e->loc, "only arrays can be indexed");
            return 0;
        }
        if (e->b->vt.kind != VT_INT) {
            diag_error(e->b->loc, "an index must be an integer");
            return 0;
        }
        e->vt = field_value(e->a->vt.field, 1);
        return 1;
    case EX_CALL: {
        int quantifier = strcmp(e->name, "count") == 0 || strcmp(e->name, "all") == 0 ||
                         strcmp(e->name, "any") == 0 || strcmp(e->name, "sum") == 0 ||
                         strcmp(e->name, "first") == 0;
        if (quantifier) {
            /* count(array, condition): the condition sees each element as _it, at _index */
            if (e->nargs != 2) {
                diag_error(e->loc, "%s() takes an array and an expression over its elements (_it, _index)", e->name);
                return 0;
            }
            if (sc->ctx == CTX_LINK) {
                diag_error(e->loc, "%s() is not allowed here", e->name);
                return 0;
            }
            if (!check_expr(e->args[0], sc))
                return 0;
            if (e->args[0]->vt.kind != VT_ARRAY) {
                diag_error(e->args[0]->loc, "%s() needs an array", e->name);
                return 0;
            }
            scope inner = *sc;
            inner.allow_it = 1;
            inner.allow_prev = 1;
            inner.it_field = e->args[0]->vt.field;
            inner.in_quantifier = 1;
            if (!check_expr(e->args[1], &inner) || !want_number(e->args[1], "the expression"))
                return 0;
            e->vt = vt_of(strcmp(e->name, "sum") == 0 ? e->args[1]->vt.kind : VT_INT);
            if (sc->ctx == CTX_READ && !sc->value && !sc->in_quantifier)
                return lift_quantifier(e, sc);
            return 1;
        }
        int ok = 1;
        for (size_t i = 0; i < e->nargs; i++)
            ok &= check_expr(e->args[i], sc);
        if (!ok)
            return 0;
        if (strcmp(e->name, "tag") == 0) {
            /* tag(x.body): the case value of the active case (the inverse of the switch) */
            if (e->nargs != 1 || e->args[0]->vt.kind != VT_SWITCH) {
                diag_error(e->loc, "tag() takes one switch field");
                return 0;
            }
            if (sc->ctx != CTX_VALIDATE) {
                diag_error(e->loc, "tag() is only allowed in rules and values");
                return 0;
            }
            if (sc->value)
                sc->value->rules_only = 1;
        } else if (strcmp(e->name, "offset") == 0) {
            if (e->nargs != 1 || e->args[0]->ref != REF_FIELD) {
                diag_error(e->loc, "offset() takes one field, like offset(strip_a)");
                return 0;
            }
            if (sc->ctx != CTX_VALIDATE) {
                diag_error(e->loc, "offset() is only allowed in rules");
                return 0;
            }
            if (sc->value)
                sc->value->rules_only = 1;
        } else if (strcmp(e->name, "indexof") == 0) {
            for (size_t i = 0; i < e->nargs; i++)
                if (!want_number(e->args[i], "an argument"))
                    return 0;
            if (e->nargs < 2) {
                diag_error(e->loc, "indexof(x, a, b, ...) gives the position of x among a, b, ... or -1");
                return 0;
            }
        } else if (strcmp(e->name, "first_nonzero") == 0) {
            for (size_t i = 0; i < e->nargs; i++)
                if (!want_number(e->args[i], "an argument"))
                    return 0;
            if (e->nargs < 2) {
                diag_error(e->loc, "first_nonzero(a, b, ..., otherwise) gives the first of a, b, ... that is not 0, or the last argument");
                return 0;
            }
            for (size_t i = 0; i < e->nargs; i++)
                if (e->args[i]->vt.kind != VT_INT) {
                    diag_error(e->args[i]->loc, "first_nonzero() takes integers");
                    return 0;
                }
        } else if (strcmp(e->name, "lz4_size") == 0) {
            if (e->nargs != 2 || e->args[0]->vt.kind != VT_BYTES || e->args[1]->vt.kind != VT_INT) {
                diag_error(e->loc, "lz4_size(bytes, window) takes a bytes field (one LZ4 block) and how many bytes of earlier output its matches may reach");
                return 0;
            }
        } else if (strcmp(e->name, "len") == 0) {
            if (e->nargs != 1 || (e->args[0]->vt.kind != VT_ARRAY && e->args[0]->vt.kind != VT_BYTES &&
                                  e->args[0]->vt.kind != VT_STRING)) {
                diag_error(e->loc, "len() takes one array, bytes or string field");
                return 0;
            }
        } else if (strcmp(e->name, "min") == 0 || strcmp(e->name, "max") == 0) {
            if (e->nargs != 2) {
                diag_error(e->loc, "%s() takes two numbers", e->name);
                return 0;
            }
            if (!want_number(e->args[0], "an argument") || !want_number(e->args[1], "an argument"))
                return 0;
            if (e->args[0]->vt.kind == VT_FLOAT || e->args[1]->vt.kind == VT_FLOAT) {
                e->vt = vt_of(VT_FLOAT);
                return 1;
            }
        } else {
            diag_error(e->loc, "unknown function '%s' (known: len, min, max, indexof, first_nonzero, lz4_size; count, all, any, sum, first; in rules and values also offset, tag)", e->name);
            return 0;
        }
        e->vt = vt_of(VT_INT);
        return 1;
    }
    case EX_UNARY:
        if (!check_expr(e->a, sc) || !want_number(e->a, "an operand"))
            return 0;
        if (e->op[0] == '~' && e->a->vt.kind != VT_INT) {
            diag_error(e->loc, "'~' needs an integer");
            return 0;
        }
        e->vt = vt_of(e->op[0] == '!' ? VT_INT : e->a->vt.kind);
        return 1;
    case EX_BINARY: {
        if (!check_expr(e->a, sc) | !check_expr(e->b, sc))
            return 0;
        if (!want_number(e->a, "an operand") || !want_number(e->b, "an operand"))
            return 0;
        int is_float = e->a->vt.kind == VT_FLOAT || e->b->vt.kind == VT_FLOAT;
        const char *op = e->op;
        int int_only = strchr("%&|^", op[0]) && op[1] == '\0';
        int_only |= strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0;
        if (int_only && is_float) {
            diag_error(e->loc, "'%s' needs integers", op);
            return 0;
        }
        int boolean = strchr("=!<>", op[0]) || strcmp(op, "&&") == 0 || strcmp(op, "||") == 0;
        if (strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0)
            boolean = 0;
        e->vt = vt_of(boolean ? VT_INT : is_float ? VT_FLOAT : VT_INT);
        return 1;
    }
    case EX_COND:
        if (!check_expr(e->a, sc) | !check_expr(e->b, sc) | !check_expr(e->c, sc))
            return 0;
        if (!want_number(e->a, "a condition") || !want_number(e->b, "a branch") || !want_number(e->c, "a branch"))
            return 0;
        e->vt = vt_of(e->b->vt.kind == VT_FLOAT || e->c->vt.kind == VT_FLOAT ? VT_FLOAT : VT_INT);
        return 1;
    }
    return 0;
}

static void check_number(expr *e, scope *sc, const char *what)
{
    if (e && check_expr(e, sc))
        want_number(e, what);
}

static void check_int(expr *e, scope *sc, const char *what)
{
    if (e && check_expr(e, sc) && e->vt.kind != VT_INT)
        diag_error(e->loc, "%s must be an integer expression", what);
}

/* Checks a named value once; a value that depends on itself is an error where it is used. */
static int check_value(format *f, named_value *v, src_loc used_at)
{
    if (v->state == 2)
        return v->value && v->value->vt.kind != VT_ERROR;
    if (v->state == 1) {
        diag_error(used_at, "value '%s' depends on itself", v->name);
        return 0;
    }
    /* values using values: each level is a few frames of the checker and of the templates */
    static int chain;
    if (chain >= VALUE_MAX_CHAIN) {
        diag_error(used_at, "value '%s' is reached through more than %d values that use each other", v->name, VALUE_MAX_CHAIN);
        return 0;
    }
    v->state = 1;
    chain++;
    scope sc = {f, v->owner, (int)v->owner->fields.len, NULL, 0, 0, 0, CTX_VALIDATE, NULL, v, 0};
    if (v->value && check_expr(v->value, &sc))
        want_number(v->value, "a value");
    else if (v->value)
        v->value->vt = vt_of(VT_ERROR);
    chain--;
    v->state = 2;
    return v->value && (v->value->vt.kind == VT_INT || v->value->vt.kind == VT_FLOAT);
}

/* ---- names and combinations ---- */

/* " (did you mean ...?)" for a misspelt type: another type of the schema or a primitive. */
static const char *type_hint(const format *f, const char *name)
{
    static const char *const prims[] = {"u8", "u16", "u24", "u32", "u64", "s8", "s16", "s24",
                                        "s32", "s64", "f32", "f64", "char", "cstr", "bytes", NULL};
    suggest_list near;
    suggest_begin(&near, name);
    for (size_t i = 0; i < f->types.len; i++)
        suggest_offer(&near, ((type_def *)f->types.items[i])->name);
    suggest_offer_all(&near, prims);
    return suggest_hint(&near);
}

static const char *enum_hint(const format *f, const char *name)
{
    suggest_list near;
    suggest_begin(&near, name);
    for (size_t i = 0; i < f->enums.len; i++)
        suggest_offer(&near, ((enum_def *)f->enums.items[i])->name);
    return suggest_hint(&near);
}

static void resolve_names(format *f, field *fl)
{
    if (fl->kind == FT_STRUCT && fl->type_name) {
        fl->type = find_type(f, fl->type_name);
        if (!fl->type)
            diag_error(fl->loc, "unknown type '%s'%s", fl->type_name,
                       find_enum(f, fl->type_name) ? " (it is an enum: write 'type: INT' and 'enum: NAME')"
                                                   : type_hint(f, fl->type_name));
    }
    if (fl->enum_name) {
        fl->enumdef = find_enum(f, fl->enum_name);
        if (!fl->enumdef)
            diag_error(fl->loc, "unknown enum or flag set '%s'%s", fl->enum_name, enum_hint(f, fl->enum_name));
        else if (fl->kind != FT_PRIM || prim_is_float(fl->prim))
            diag_error(fl->loc, "'%s' is an enum or flag set: its field must be an integer", fl->enum_name);
    }
    for (size_t i = 0; i < fl->cases.len; i++) {
        switch_case *c = fl->cases.items[i];
        if (c->type_name) {
            c->type = find_type(f, c->type_name);
            if (!c->type)
                diag_error(c->loc, "unknown type '%s' in case '%s'%s", c->type_name, c->label, type_hint(f, c->type_name));
        }
    }
    fl->little_endian = fl->little_endian >= 2 ? fl->little_endian - 2 : f->little_endian;
}

static void check_combinations(field *fl)
{
    check_constant_length(fl, fl->count, fl->kind == FT_BYTES || !fl->is_array ? "length" : "count");
    check_constant_length(fl, fl->size, "size");
    int is_int = fl->kind == FT_PRIM && !prim_is_float(fl->prim);
    int repeats = !!fl->count + !!fl->until + !!fl->to_end;
    if (fl->kind == FT_BYTES) {
        if (!fl->count && !fl->size && !fl->to_end)
            diag_error(fl->loc, "bytes field '%s' needs a length: 'bytes[N]', 'count', 'size' or 'to_end'", fl->name);
        if (fl->until)
            diag_error(fl->loc, "bytes field '%s' cannot have 'until'", fl->name);
    } else if (fl->is_array) {
        if (repeats == 0 && fl->size)
            fl->to_end = 1; /* an array in a sized region fills it */
        else if (repeats == 0)
            diag_error(fl->loc, "array '%s' needs 'count', 'until' or 'to_end'", fl->name);
        else if (repeats > 1)
            diag_error(fl->loc, "array '%s' has more than one of 'count', 'until' and 'to_end'", fl->name);
    }
    if (fl->bits.len) {
        if (!is_int || fl->is_array)
            diag_error(fl->loc, "'bits' needs a single integer field");
        int total = 0;
        int width = fl->kind == FT_PRIM ? prim_size(fl->prim) * 8 : 0;
        for (size_t i = 0; i < fl->bits.len; i++)
            total += ((bit_field *)fl->bits.items[i])->width;
        if (width && total > width)
            diag_error(fl->loc, "the bit fields of '%s' take %d bits but %s has %d", fl->name, total, prim_name(fl->prim), width);
        int shift = width;
        for (size_t i = 0; i < fl->bits.len; i++) {
            bit_field *b = fl->bits.items[i];
            shift -= b->width;
            b->shift = shift;
        }
    }
    if (fl->is_fixed) {
        if (!is_int)
            diag_error(fl->loc, "'fixed' needs an integer field");
        else if (fl->fixed_int + fl->fixed_frac != prim_size(fl->prim) * 8)
            diag_error(fl->loc, "fixed %d.%d takes %d bits but %s has %d", fl->fixed_int, fl->fixed_frac,
                       fl->fixed_int + fl->fixed_frac, prim_name(fl->prim), prim_size(fl->prim) * 8);
        if (fl->derive)
            diag_error(fl->loc, "a field has either 'fixed' or 'derive', not both");
    }
    if (fl->string_table && (!is_int || fl->is_array))
        diag_error(fl->loc, "'string' needs a single integer field (the offset into the table)");
    if (fl->derive && fl->kind != FT_PRIM)
        diag_error(fl->loc, "'derive' needs a number field");
    if (fl->const_value && (fl->kind != FT_PRIM || fl->is_array))
        diag_error(fl->loc, "'const' needs a single number or a string field");
    if (fl->expect && fl->kind != FT_PRIM)
        diag_error(fl->loc, "'expect' needs a number field or an array of numbers");
    if (fl->args.len && fl->kind != FT_STRUCT)
        diag_error(fl->loc, "'args' only go to a structure type");
    if (fl->computed && (!fl->is_array || fl->kind != FT_STRUCT))
        diag_error(fl->loc, "'computed' is for an array of structures that the builder fills in");
    else if (fl->computed && !fl->count)
        diag_error(fl->loc, "'computed' needs a 'count': the builder makes that many elements");
    if (fl->kind == FT_SWITCH && fl->is_array)
        diag_error(fl->loc, "a switch cannot be an array: make the array of a type holding the switch");
    if (fl->has_padding && !fl->is_array && fl->kind != FT_BYTES)
        diag_error(fl->loc, "'padding' is for an array or a bytes field whose region ends with padding");
    if ((fl->kind == FT_STR || fl->kind == FT_CSTR) && fl->is_array && !fl->count)
        diag_error(fl->loc, "an array of strings needs a 'count' ('until' and 'to_end' are for numbers and structures)");
}

/* The C members a field adds beside its own name must not clash with other fields; nor may
 * a field take the name of a parameter (the name would mean the field, silently). */
static void check_member_names(type_def *t)
{
    static const char *const suffixes[] = {"_count", "_at", "_value", "_str", "_tail", "_pad", NULL};
    for (size_t i = 0; i < t->fields.len; i++) {
        field *fl = t->fields.items[i];
        for (int k = 0; suffixes[k]; k++) {
            field *other = find_field(t, pool_printf("%s%s", fl->name, suffixes[k]));
            if (other && other != fl)
                diag_error(other->loc, "field '%s' clashes with the C member '%s%s' that field '%s' adds: rename one of them",
                           other->name, fl->name, suffixes[k], fl->name);
        }
        for (size_t b = 0; b < fl->bits.len; b++) {
            bit_field *bf = fl->bits.items[b];
            field *other = find_field(t, pool_printf("%s_%s", fl->name, bf->name));
            if (other && other != fl)
                diag_error(other->loc, "field '%s' clashes with bit field '%s' of '%s': rename one of them",
                           other->name, bf->name, fl->name);
        }
        param *p = name_map_get(&t->param_names, fl->name);
        if (p) {
            diag_error(fl->loc, "field '%s' has the name of a parameter of '%s': rename one of them", fl->name, t->name);
            diag_note(p->loc, "parameter '%s' is declared here", p->name);
        }
    }
}

/* ---- layout ---- */

static void size_type(format *f, type_def *t);
static void size_type_fields(format *f, type_def *t);
static int nesting_reported; /* the format's types nest too deep: said once */

static void size_field(format *f, field *fl)
{
    int64_t elem = -1, min_elem = 0;
    switch (fl->kind) {
    case FT_PRIM:
        elem = min_elem = prim_size(fl->prim);
        break;
    case FT_STR:
        elem = min_elem = fl->str_len;
        break;
    case FT_CSTR:
        min_elem = 1;
        break;
    case FT_BYTES:
        elem = min_elem = 1;
        break;
    case FT_STRUCT:
        if (fl->type) {
            size_type(f, fl->type);
            elem = fl->type->static_size;
            min_elem = fl->type->min_size;
        }
        break;
    case FT_SWITCH:
        break;
    }
    fl->elem_size = elem;
    fl->min_elem_size = min_elem;
}

/* a * b for a count and a size each within SIZE_LIMIT + 1: SIZE_LIMIT + 1 when beyond it. */
static int64_t mul_capped(int64_t a, int64_t b)
{
    if (a < 0 || b < 0)
        return 0;
    if (b && a > (SIZE_LIMIT + 1) / b)
        return SIZE_LIMIT + 1;
    return a * b;
}

/* The bytes this field takes inline in its structure; -1 when not static. */
static int64_t inline_size(const field *fl, int64_t *min_out)
{
    *min_out = 0;
    if (fl->pos)
        return 0;
    int64_t n = 1;
    int known_count = 1;
    if (fl->kind == FT_BYTES || fl->is_array) {
        n = 0;
        known_count = fl->count && expr_const_int(fl->count, &n);
    }
    int64_t size_const;
    if (fl->size && expr_const_int(fl->size, &size_const) && size_const >= 0 && size_const <= SIZE_LIMIT) {
        *min_out = size_const;
        return fl->cond || fl->align ? -1 : size_const;
    }
    /* counts out of range were refused (check_constant_length); sizes stay in range here */
    if (n < 0 || n > SIZE_LIMIT)
        n = 0;
    *min_out = known_count ? mul_capped(n, fl->min_elem_size) : 0;
    if (fl->cond) {
        *min_out = 0;
        return -1;
    }
    if (fl->align || fl->size || fl->until || fl->to_end || !known_count || fl->elem_size < 0)
        return -1;
    return mul_capped(n, fl->elem_size);
}

static void size_type(format *f, type_def *t)
{
    if (t->state == 2)
        return;
    if (t->state == 1) {
        diag_error(t->loc, "type '%s' contains itself inline: it would be infinitely large (reach it through 'pos' instead)", t->name);
        t->static_size = -1;
        return;
    }
    static int nesting;
    if (nesting >= TYPE_MAX_NESTING) {
        if (!nesting_reported++) /* once a format: each deeper chain would say it again */
            diag_error(t->loc, "type '%s' is held inline through more than %d structures", t->name, TYPE_MAX_NESTING);
        t->static_size = -1;
        t->state = 2;
        return;
    }
    nesting++;
    size_type_fields(f, t);
    nesting--;
}

static void size_type_fields(format *f, type_def *t)
{
    t->state = 1;
    int64_t offset = 0, min = 0;
    const field *variable = NULL;
    for (size_t i = 0; i < t->fields.len; i++) {
        field *fl = t->fields.items[i];
        size_field(f, fl);
        /* located data is not where the cursor is; aligned data depends on absolute offsets */
        fl->static_offset = variable || fl->pos || fl->align ? -1 : offset;
        /* with pos, align says where the builder places the data (the reader ignores it) */
        if (fl->has_at && fl->pos)
            diag_error(fl->loc, "'%s' has both 'at' and 'pos': 'at' is an offset inside the structure, 'pos' puts the data elsewhere", fl->name);
        else if (fl->has_at && fl->align)
            diag_error(fl->loc, "'%s' has both 'at' and 'align': an aligned field has no fixed offset", fl->name);
        else if (fl->has_at) {
            if (variable)
                diag_error(fl->loc, "declared offset 0x%llX of '%s' cannot be checked: '%s' before it has no fixed size",
                           (unsigned long long)fl->declared_at, fl->name, variable->name);
            else if (fl->declared_at != offset)
                diag_error(fl->loc, "'%s' is declared at 0x%llX but the fields before it end at 0x%llX",
                           fl->name, (unsigned long long)fl->declared_at, (unsigned long long)offset);
        }
        int64_t field_min;
        int64_t sz = inline_size(fl, &field_min);
        /* each term is below 2^64 / 2 (a count and a size each below 2^32): the sums are
         * kept below 2^33 by stopping at the limit */
        min = min + field_min > SIZE_LIMIT ? SIZE_LIMIT + 1 : min + field_min;
        if (sz < 0) {
            if (!variable)
                variable = fl;
        } else {
            offset = offset + sz > SIZE_LIMIT ? SIZE_LIMIT + 1 : offset + sz;
        }
    }
    if (offset > SIZE_LIMIT || min > SIZE_LIMIT) {
        diag_error(t->loc, "'%s' takes more than 0x%llX bytes, bfgen's limit", t->name, (unsigned long long)SIZE_LIMIT);
        offset = min = 0;
    }
    t->static_size = variable ? -1 : offset;
    t->min_size = min;
    if (t->has_size) {
        if (variable)
            diag_error(t->loc, "'%s' declares size 0x%llX but '%s' has no fixed size", t->name,
                       (unsigned long long)t->declared_size, variable->name);
        else if (t->declared_size != offset)
            diag_error(t->loc, "'%s' declares size 0x%llX but its fields take 0x%llX bytes", t->name,
                       (unsigned long long)t->declared_size, (unsigned long long)offset);
    }
    t->state = 2;
}

/* A type no file reaches gets reading functions nothing calls, which C compilers warn about
 * (and -Werror refuses): each type must be reached from a file kind's root, through fields
 * and switch cases. */
static void check_reachable(format *f)
{
    ptr_vec todo = {0};
    name_map reached = {0};
    for (size_t i = 0; i < f->entries.len; i++) {
        type_def *root = ((entry *)f->entries.items[i])->root;
        if (root && !name_map_put(&reached, root->name, root))
            vec_push(&todo, root);
    }
    for (size_t next = 0; next < todo.len; next++) {
        type_def *t = todo.items[next];
        for (size_t i = 0; i < t->fields.len; i++) {
            field *fl = t->fields.items[i];
            if (fl->type && !name_map_put(&reached, fl->type->name, fl->type))
                vec_push(&todo, fl->type);
            for (size_t j = 0; j < fl->cases.len; j++) {
                type_def *ct = ((switch_case *)fl->cases.items[j])->type;
                if (ct && !name_map_put(&reached, ct->name, ct))
                    vec_push(&todo, ct);
            }
        }
    }
    for (size_t i = 0; i < f->types.len; i++) {
        type_def *t = f->types.items[i];
        if (!name_map_get(&reached, t->name))
            diag_error(t->loc, "type '%s' is not reached from any file kind's root: use it in a field or remove it", t->name);
    }
}

/* ---- expressions of each field ---- */

static void check_field_exprs(format *f, type_def *t, field *fl)
{
    scope sc = {f, t, fl->index, fl, 0, 0, 0, CTX_READ, NULL, NULL, 0};
    check_int(fl->pos, &sc, "pos");
    check_int(fl->size, &sc, "size");
    if (fl->kind == FT_BYTES || !fl->is_array)
        check_int(fl->count, &sc, "a length");
    else
        check_int(fl->count, &sc, "count");
    check_number(fl->cond, &sc, "if");
    check_int(fl->pad_unit, &sc, "a padding unit");
    sc.allow_prev = fl->is_array;
    for (size_t i = 0; i < fl->args.len; i++) {
        named_expr *a = fl->args.items[i];
        check_int(a->value, &sc, "an argument");
    }
    sc.allow_prev = 0;
    check_int(fl->switch_on, &sc, "switch");
    sc.visible = fl->index + 1;
    sc.allow_it = 1;
    check_number(fl->until, &sc, "until");
    sc.allow_it = 0;
    sc.allow_value = 1;
    check_number(fl->const_value, &sc, "const");
    check_number(fl->derive, &sc, "derive");
    sc.allow_value = 0;
    sc.ctx = CTX_VALIDATE;
    sc.visible = (int)t->fields.len;
    check_number(fl->expect, &sc, "expect");
    check_number(fl->value, &sc, "value");
    if (fl->value && (fl->kind != FT_PRIM || fl->is_array))
        diag_error(fl->loc, "'value' computes a single number field");
    if (fl->prefix && fl->kind != FT_BYTES)
        diag_error(fl->loc, "'prefix' is for a bytes field used as a string table");
    if (fl->never_empty && fl->kind != FT_BYTES)
        diag_error(fl->loc, "'never_empty' is for a bytes field used as a string table");
    if (fl->has_fill_to && !fl->size)
        diag_error(fl->loc, "'fill_to' pads a field's region: it needs 'size'");
    sc.ctx = CTX_LINK;
    if (fl->string_table && check_expr(fl->string_table, &sc) && fl->string_table->vt.kind != VT_BYTES)
        diag_error(fl->string_table->loc, "a string table must be a bytes field");

    if (fl->kind == FT_STRUCT && fl->type) {
        type_def *target = fl->type;
        name_map given = {0};
        for (size_t i = 0; i < fl->args.len; i++) {
            named_expr *a = fl->args.items[i];
            name_map_put(&given, a->name, a);
            if (!name_map_get(&target->param_names, a->name))
                diag_error(a->loc, "'%s' has no parameter '%s'", target->name, a->name);
        }
        for (size_t j = 0; j < target->params.len; j++) {
            param *p = target->params.items[j];
            if (!name_map_get(&given, p->name))
                diag_error(fl->loc, "'%s' needs argument '%s' (add it under 'args')", target->name, p->name);
        }
    }
    for (size_t i = 0; i < fl->cases.len; i++) {
        switch_case *c = fl->cases.items[i];
        if (c->type && c->type->params.len)
            diag_error(c->loc, "case type '%s' takes parameters, which a switch case cannot pass: wrap it in a type without parameters", c->type->name);
    }
    if (fl->kind == FT_SWITCH && fl->switch_on) {
        const field *tag = fl->switch_on->vt.field;
        enum_def *en = tag && (fl->switch_on->kind == EX_NAME || fl->switch_on->kind == EX_MEMBER) ? tag->enumdef : NULL;
        name_map by_value = {0};
        for (size_t i = 0; i < fl->cases.len; i++) {
            switch_case *c = fl->cases.items[i];
            if (c->is_default)
                continue;
            enum_value *member = en ? name_map_get(&en->value_names, c->label) : NULL;
            int found = member != NULL;
            if (member)
                c->value = member->value;
            if (!found) {
                expr *lit = expr_parse(c->label, c->loc);
                if (!lit || !expr_const_int(lit, &c->value))
                    diag_error(c->loc, "case '%s' is neither %s%s nor a constant", c->label,
                               en ? "a member of " : "", en ? en->name : "an enum member");
            }
            switch_case *o = name_map_put(&by_value, pool_printf("%lld", (long long)c->value), c);
            if (o)
                diag_error(c->loc, "case '%s' repeats case '%s'", c->label, o->label);
        }
    }
}

/* Marks the fields whose values an expression uses with `role` (1: count/size, 2: offset,
 * 3: an index selecting an element).
 * In `root.header.count` only `count` is used as a value; `root` and `header` are the path. */
static void mark_roles(expr *e, int role, int is_value)
{
    if (!e)
        return;
    /* a field named as a value, or a packed field one of whose bit fields is */
    if ((is_value && e->ref == REF_FIELD && e->ref_field) || (e->ref == REF_BITS && e->ref_field)) {
        field *fl = (field *)e->ref_field;
        if (role == 1)
            fl->used_as_count = 1;
        else if (role == 2)
            fl->used_as_offset = 1;
        else
            fl->used_as_index = 1;
    }
    /* an element of a number array is a value; a structure on the left of '.' is a path */
    /* what a named value reads is used as the value is */
    if (e->ref == REF_NAMED && e->ref_value && !e->ref_value->state_marking) {
        named_value *v = (named_value *)e->ref_value;
        v->state_marking = 1;
        mark_roles(v->value, role, 1);
        v->state_marking = 0;
    }
    int path = e->kind == EX_MEMBER || (e->kind == EX_INDEX && !(e->a && e->a->vt.array_elem_int));
    mark_roles(e->a, role, !path);
    /* what selects an element of an array that a count or offset comes from is an index */
    if (e->kind == EX_INDEX)
        mark_roles(e->b, 3, 1);
    else
        mark_roles(e->b, role, 1);
    mark_roles(e->c, role, 1);
    for (size_t i = 0; i < e->nargs; i++)
        mark_roles(e->args[i], role, strcmp(e->name, "len") != 0);
}

/* Whether reading `t` leaves work for the link pass (strings resolved after the whole
 * document is read, since a table may come after the fields that point into it). */
static int compute_link(type_def *t, int depth)
{
    if (t->needs_link || depth > 64)
        return t->needs_link;
    for (size_t i = 0; i < t->fields.len; i++) {
        field *fl = t->fields.items[i];
        if (fl->string_table)
            t->needs_link = 1;
        if (fl->kind == FT_STRUCT && fl->type && fl->type != t && compute_link(fl->type, depth + 1))
            t->needs_link = 1;
        for (size_t j = 0; j < fl->cases.len; j++) {
            switch_case *c = fl->cases.items[j];
            if (c->type && c->type != t && compute_link(c->type, depth + 1))
                t->needs_link = 1;
        }
    }
    return t->needs_link;
}

static void check_rules(format *f, type_def *t)
{
    for (size_t i = 0; i < t->rules.len; i++) {
        rule *r = t->rules.items[i];
        scope sc = {f, t, (int)t->fields.len, NULL, 0, 0, 0, CTX_VALIDATE, NULL, NULL, 0};
        if (r->each) {
            r->each_field = find_field(t, r->each);
            if (!r->each_field || !r->each_field->is_array) {
                diag_error(r->loc, "'each: %s' must name an array field of '%s'", r->each, t->name);
                continue;
            }
            sc.allow_it = sc.allow_prev = 1;
            sc.it_field = r->each_field;
        }
        check_number(r->check, &sc, "check");
        for (size_t j = 0; j < r->parts.len; j++) {
            msg_part *p = r->parts.items[j];
            if (p->value)
                check_number(p->value, &sc, "a value in a message");
        }
        if (r->at && check_expr(r->at, &sc) && r->at->ref != REF_FIELD)
            diag_error(r->at->loc, "'at' must name a field");
    }
}

/* What bfgen can check of a file kind's members: its own kinds and types (other formats'
 * kinds and the paths are looked up by binform check, which reports what it cannot find). */
static void check_members(format *f, const entry *e)
{
    for (size_t i = 0; i < e->members.len; i++) {
        const member *m = e->members.items[i];
        if (m->kind && !strchr(m->kind, '.')) {
            int known = 0;
            for (size_t k = 0; k < f->entries.len; k++)
                known |= strcmp(((const entry *)f->entries.items[k])->name, m->kind) == 0;
            if (!known)
                diag_error(m->loc, "member '%s': unknown file kind '%s' (FORMAT.KIND for another format's)", m->name, m->kind);
        }
        if (m->each_type && !find_type(f, m->each_type))
            diag_error(m->loc, "member '%s': unknown type '%s' after 'each'", m->name, m->each_type);
    }
}

/* A role of `image:` that names a number: a field of the type (a single number) or a value. */
static void check_image_number(const type_def *t, const image_def *im, const char *role, const char *name)
{
    if (!name)
        return;
    const field *fl = find_field(t, name);
    if (fl && (fl->kind != FT_PRIM || fl->is_array || fl->prim == PRIM_CHAR))
        diag_error(im->loc, "image %s '%s' is not a single number of '%s'", role, name, t->name);
    else if (!fl && !name_map_get(&t->value_names, name))
        diag_error(im->loc, "image %s '%s' is neither a field nor a value of '%s'", role, name, t->name);
}

/* A role of `image:` that names data: a path of fields (an array's first element on the way)
 * ending at raw bytes (pixels; a palette may also be an array of numbers). */
static void check_image_path(const type_def *t, const image_def *im, const char *role, const char *path, int bytes,
                             int compressed)
{
    if (!path)
        return;
    const type_def *at = t;
    const char *p = path;
    for (;;) {
        const char *dot = strchr(p, '.');
        char name[128];
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        if (len >= sizeof name) {
            diag_error(im->loc, "image %s '%s': a name is too long", role, path);
            return;
        }
        memcpy(name, p, len);
        name[len] = '\0';
        const field *fl = at ? find_field(at, name) : NULL;
        if (!fl) {
            diag_error(im->loc, "image %s '%s': '%s' is not a field of '%s'", role, path, name, at ? at->name : "?");
            return;
        }
        if (!dot) {
            int ok = fl->kind == FT_BYTES || (!bytes && fl->kind == FT_PRIM && fl->is_array && fl->prim != PRIM_CHAR) ||
                     (compressed && fl->kind == FT_STRUCT);
            if (!ok)
                diag_error(im->loc, "image %s '%s' must end at %s", role, path,
                           !bytes ? "raw bytes or an array of numbers"
                           : compressed ? "raw bytes or the structure the compressed data starts with"
                                        : "raw bytes (type: bytes)");
            return;
        }
        if (fl->kind != FT_STRUCT) {
            diag_error(im->loc, "image %s '%s': '%s' is not a structure", role, path, name);
            return;
        }
        at = fl->type;
        p = dot + 1;
    }
}

static void check_image(const type_def *t)
{
    const image_def *im = t->image;
    if (!im)
        return;
    check_image_number(t, im, "format", im->format);
    check_image_number(t, im, "width", im->width);
    check_image_number(t, im, "height", im->height);
    check_image_number(t, im, "palette_format", im->palette_format);
    check_image_path(t, im, "pixels", im->pixels, 1, im->compression != NULL);
    check_image_path(t, im, "palette", im->palette, 0, 0);
    if (im->codec_by) {
        check_image_number(t, im, "codec by", im->codec_by);
        const field *fl = find_field(t, im->codec_by);
        for (size_t i = 0; i + 1 < im->codec_cases.len; i += 2) {
            const char *label = im->codec_cases.items[i];
            char *end;
            strtoll(label, &end, 0);
            if (*label && !*end)
                continue; /* a number */
            if (!fl || !fl->enumdef)
                diag_error(im->loc, "image codec case '%s' is not a number ('%s' has no enum)", label, im->codec_by);
            else if (!name_map_get(&fl->enumdef->value_names, label))
                diag_error(im->loc, "image codec case '%s' is not a value of enum '%s'", label, fl->enumdef->name);
        }
    }
    if (im->codec && strcmp(im->codec, "gx") == 0 && !im->format)
        diag_error(im->loc, "a gx image needs 'format' (the GX texture format)");
}

void model_check(format *f)
{
    int errors_before = diag_error_count();
    nesting_reported = 0;
    for (size_t i = 0; i < f->entries.len; i++) {
        entry *e = f->entries.items[i];
        if (e->root_name) {
            e->root = find_type(f, e->root_name);
            if (!e->root)
                diag_error(e->loc, "unknown root type '%s'", e->root_name);
            else if (e->root->params.len)
                diag_error(e->loc, "root type '%s' cannot take parameters", e->root_name);
        }
        check_members(f, e);
    }
    if (!f->entries.len)
        diag_error(f->loc, "'files' must list at least one kind of file");
    for (size_t i = 0; i < f->types.len; i++) {
        type_def *t = f->types.items[i];
        for (size_t j = 0; j < t->fields.len; j++) {
            resolve_names(f, t->fields.items[j]);
            check_combinations(t->fields.items[j]);
        }
        check_member_names(t);
    }
    for (size_t i = 0; i < f->types.len; i++)
        size_type(f, f->types.items[i]);
    check_reachable(f);
    for (size_t i = 0; i < f->types.len; i++) {
        type_def *t = f->types.items[i];
        for (size_t j = 0; j < t->values.len; j++) {
            named_value *v = t->values.items[j];
            if (find_field(t, v->name))
                diag_error(v->loc, "value '%s' has the name of a field of '%s'", v->name, t->name);
            for (size_t k = 0; k < t->params.len; k++)
                if (strcmp(((param *)t->params.items[k])->name, v->name) == 0)
                    diag_error(v->loc, "value '%s' has the name of a parameter of '%s'", v->name, t->name);
        }
        for (size_t j = 0; j < t->fields.len; j++)
            check_field_exprs(f, t, t->fields.items[j]);
        for (size_t j = 0; j < t->values.len; j++)
            check_value(f, t->values.items[j], ((named_value *)t->values.items[j])->loc);
        check_rules(f, t);
        check_image(t);
    }
    /* what follows only matters for generating, and follows values that may not be sound */
    if (diag_error_count() != errors_before)
        return;
    for (size_t i = 0; i < f->types.len; i++) {
        type_def *t = f->types.items[i];
        compute_link(t, 0);
        for (size_t j = 0; j < t->fields.len; j++) {
            field *fl = t->fields.items[j];
            mark_roles(fl->count, 1, 1);
            mark_roles(fl->size, 1, 1);
            mark_roles(fl->pos, 2, 1);
            for (size_t k = 0; k < fl->args.len; k++)
                mark_roles(((named_expr *)fl->args.items[k])->value, 1, 1);
            if (fl->string_table)
                fl->used_as_offset = 1; /* a string reference is an offset into its table */
        }
    }
    /* a field whose value the builder copies from a field with a role has that role too
     * (TMD's scene_size is header.lod_offset): it moves with the layout as its source does */
    for (size_t i = 0; i < f->types.len; i++) {
        type_def *t = f->types.items[i];
        for (size_t j = 0; j < t->fields.len; j++) {
            field *fl = t->fields.items[j];
            const expr *v = fl->value;
            if (!v || v->ref != REF_FIELD || !v->ref_field || (v->kind != EX_NAME && v->kind != EX_MEMBER))
                continue;
            const field *source = v->ref_field;
            fl->used_as_count |= source->used_as_count;
            fl->used_as_offset |= source->used_as_offset;
        }
    }
}
