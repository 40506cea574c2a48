/* binform info: a short summary of a file, for any format: its top-level numbers and the
 * number of elements of every array and chunk kind found in it. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "document.h"

#define MAX_COUNTED 128

typedef struct tally {
    const char *name[MAX_COUNTED];
    uint64_t count[MAX_COUNTED];
    size_t used;
} tally;

static void add(tally *t, const char *name, uint64_t n)
{
    for (size_t i = 0; i < t->used; i++)
        if (strcmp(t->name[i], name) == 0) {
            t->count[i] += n;
            return;
        }
    if (t->used < MAX_COUNTED) {
        t->name[t->used] = name;
        t->count[t->used++] = n;
    }
}

/* Counts structures by type, everywhere in the document. */
static void walk(tally *t, const bf_type_desc *type, const void *obj, int depth)
{
    if (depth > 64)
        return;
    add(t, type->name, 1);
    for (size_t i = 0; i < type->field_count; i++) {
        const bf_field_desc *f = &type->fields[i];
        if (f->kind == BF_FIELD_STRUCT) {
            uint64_t n = bf_field_count(f, obj);
            for (uint64_t k = 0; k < n; k++)
                walk(t, f->type, bf_field_elem(f, obj, k), depth + 1);
        } else if (f->kind == BF_FIELD_SWITCH) {
            bf_switch_view v = bf_field_switch(f, obj);
            if (v.type)
                walk(t, v.type, v.ptr, depth + 1);
        }
    }
}

/* The scalar numbers of the root and of its scalar sub-structures (headers). */
static void print_numbers(const bf_type_desc *type, const void *obj, const char *prefix, int depth)
{
    for (size_t i = 0; i < type->field_count; i++) {
        const bf_field_desc *f = &type->fields[i];
        if (f->array != BF_SCALAR || bf_field_count(f, obj) == 0)
            continue;
        if (f->kind == BF_FIELD_PRIM && !f->bit_count) {
            const void *e = bf_field_elem(f, obj, 0);
            const char *en = f->enumdef ? bf_enum_name(f->enumdef, bf_prim_int(f->prim, e)) : NULL;
            if (bf_prim_is_float(f->prim))
                printf("  %s%s: %g\n", prefix, f->name, bf_prim_double(f->prim, e));
            else if (en)
                printf("  %s%s: %s\n", prefix, f->name, en);
            else
                printf("  %s%s: %lld\n", prefix, f->name, (long long)bf_prim_int(f->prim, e));
        } else if (f->kind == BF_FIELD_STR) {
            const bf_str *s = bf_field_elem(f, obj, 0);
            printf("  %s%s: \"%.*s\"\n", prefix, f->name, (int)s->len, s->ptr ? s->ptr : "");
        } else if (f->kind == BF_FIELD_STRUCT && depth == 0) {
            char sub[128];
            snprintf(sub, sizeof sub, "%s%s.", prefix, f->name);
            print_numbers(f->type, bf_field_elem(f, obj, 0), sub, depth + 1);
        }
    }
}

static int info_one(const options *o, document *d)
{
    (void)o;
    printf("%s: %s %s (%s), %zu bytes\n", d->name, d->format->name, d->entry->name,
           d->format->title ? d->format->title : "", d->size);
    if (document_revision(d))
        printf("  revision: %s\n", document_revision(d));
    print_numbers(d->entry->root, d->root, "", 0);
    tally t = {0};
    walk(&t, d->entry->root, d->root, 0);
    printf("  structures:");
    for (size_t k = 0; k < t.used; k++)
        printf(" %s %llu%s", t.name[k], (unsigned long long)t.count[k], k + 1 < t.used ? "," : "\n");
    return 0;
}

int cmd_info(const options *o, int argc, char **argv) { return each_document(o, argc, argv, info_one); }
