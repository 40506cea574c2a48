/* Walking a parsed document through the reflection tables, for the fuzz harness and the
 * bad-input suite. Header-only (static functions) so that both the clang fuzzer build and
 * the Criterion build use it without a make rule of its own. Knows no format. */
#ifndef BF_FUZZ_WALK_H
#define BF_FUZZ_WALK_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bf_meta.h"
#include "bf_validate.h"
#include "bf_write.h"

/* A number field whose value another field's expression uses as a count/size or an offset. */
typedef struct bf_walk_role {
    const bf_type_desc *type;
    const bf_field_desc *field;
    uint64_t pos;    /* where the element is in the file */
    int width;       /* its encoded bytes */
    int64_t value;
} bf_walk_role;

typedef struct bf_walk {
    const uint8_t *data; /* the input the document was read from */
    size_t size;
    /* Called for every element of a field with roles (may be NULL). */
    void (*on_role)(void *user, const bf_walk_role *r);
    /* Called for every resolved string reference (may be NULL): `terminator` is where its
     * zero byte is in the file. */
    void (*on_str)(void *user, uint64_t terminator);
    void *user;
    uint64_t nodes;      /* elements visited */
    unsigned char touched; /* what reading whole arrays saw (bf_walk_touch), so the reads stay */
    char problem[256];   /* the first inconsistency found, empty when none */
} bf_walk;

static void bf_walk_problem(bf_walk *w, const char *type, const char *field, const char *what)
{
    if (!w->problem[0])
        snprintf(w->problem, sizeof w->problem, "%s.%s: %s", type, field, what);
}

/* A view must lie inside the input. */
static void bf_walk_check_bytes(bf_walk *w, const char *type, const char *field, const bf_bytes *b)
{
    if (!b->len)
        return;
    if (!b->ptr || b->ptr < w->data || b->len > w->size || (size_t)(b->ptr - w->data) > w->size - b->len)
        bf_walk_problem(w, type, field, "bytes view outside the input");
    else if (b->offset != (uint64_t)(b->ptr - w->data))
        bf_walk_problem(w, type, field, "bytes view's offset does not match its pointer");
}

static void bf_walk_check_str(bf_walk *w, const char *type, const char *field, const bf_str *s, int resolved)
{
    if (!s->ptr)
        return;
    if ((const uint8_t *)s->ptr < w->data || s->len > w->size ||
        (size_t)((const uint8_t *)s->ptr - w->data) > w->size - s->len) {
        bf_walk_problem(w, type, field, "string outside the input");
        return;
    }
    if (!resolved)
        return;
    /* A string-table reference ends with a zero inside the input. */
    size_t end = (size_t)((const uint8_t *)s->ptr - w->data) + s->len;
    if (end >= w->size || w->data[end] != 0)
        bf_walk_problem(w, type, field, "resolved string has no terminating zero");
    else if (w->on_str)
        w->on_str(w->user, end);
}

static void bf_walk_type(bf_walk *w, const bf_type_desc *t, const void *obj, unsigned depth);

/* Reads a whole array of numbers from `first` to the end of `last`, so that ASan sees a bad
 * pointer or count: memcpy in pieces, which the sanitizer checks range by range, instead of
 * one call per element (a fuzzed count can make an array of a million). */
static unsigned char bf_walk_touch(const void *first, const void *last, uint64_t n)
{
    unsigned char sink = 0;
    size_t elem = (size_t)(((const uint8_t *)last - (const uint8_t *)first) / (n - 1));
    size_t total = (size_t)((const uint8_t *)last - (const uint8_t *)first) + elem;
    unsigned char scratch[4096];
    for (size_t done = 0; done < total; done += sizeof scratch) {
        size_t piece = total - done < sizeof scratch ? total - done : sizeof scratch;
        memcpy(scratch, (const uint8_t *)first + done, piece);
        sink ^= scratch[piece - 1]; /* keeps the copy from being optimised away */
    }
    return sink;
}

static void bf_walk_field(bf_walk *w, const bf_type_desc *t, const bf_field_desc *f, const void *obj,
                          unsigned depth)
{
    uint64_t n = bf_field_count(f, obj);
    if (f->kind == BF_FIELD_SWITCH) {
        bf_switch_view v = bf_field_switch(f, obj);
        bf_walk_check_bytes(w, t->name, f->name, &v.raw);
        if (v.type && v.ptr)
            bf_walk_type(w, v.type, v.ptr, depth + 1);
        return;
    }
    uint64_t base = bf_field_pos(f, obj);
    if (f->kind == BF_FIELD_PRIM && n > 1 && !(f->roles && w->on_role)) {
        w->touched ^= bf_walk_touch(bf_field_elem(f, obj, 0), bf_field_elem(f, obj, n - 1), n);
        w->nodes += n;
        n = 0; /* only the members that go with the field are left */
    }
    for (uint64_t i = 0; i < n; i++) {
        const void *e = bf_field_elem(f, obj, i);
        w->nodes++;
        switch (f->kind) {
        case BF_FIELD_PRIM: {
            int64_t v = bf_prim_int(f->prim, e); /* touches the element: ASan sees a bad array */
            if (f->roles && w->on_role && f->elem_size > 0) {
                bf_walk_role r = {t, f, base + i * (uint64_t)f->elem_size, bf_prim_size(f->prim), v};
                w->on_role(w->user, &r);
            }
            break;
        }
        case BF_FIELD_STRUCT:
            bf_walk_type(w, f->type, e, depth + 1);
            break;
        case BF_FIELD_STR:
            bf_walk_check_str(w, t->name, f->name, e, 0);
            break;
        case BF_FIELD_BYTES:
            bf_walk_check_bytes(w, t->name, f->name, e);
            break;
        case BF_FIELD_SWITCH:
            break;
        }
    }
    /* Members that go with the field: a resolved string, a region's tail, alignment padding. */
    if (n && f->str_offset && f->array == BF_SCALAR)
        bf_walk_check_str(w, t->name, f->name, (const bf_str *)((const uint8_t *)obj + f->str_offset), 1);
    if (f->tail_offset)
        bf_walk_check_bytes(w, t->name, f->name, (const bf_bytes *)((const uint8_t *)obj + f->tail_offset));
    if (f->pad_offset)
        bf_walk_check_bytes(w, t->name, f->name, (const bf_bytes *)((const uint8_t *)obj + f->pad_offset));
}

static void bf_walk_type(bf_walk *w, const bf_type_desc *t, const void *obj, unsigned depth)
{
    if (depth > BF_MAX_DEPTH) {
        bf_walk_problem(w, t->name, "", "document nested deeper than the readers allow");
        return;
    }
    uint64_t off = bf_obj_offset(obj);
    if (off > w->size)
        bf_walk_problem(w, t->name, "_offset", "object starts past the end of the input");
    for (size_t i = 0; i < t->field_count; i++)
        bf_walk_field(w, t, &t->fields[i], obj, depth);
}

/* Walks the whole document; returns 1 when it is consistent with the input. */
static int bf_walk_document(bf_walk *w, const bf_entry_desc *e, const void *doc)
{
    w->problem[0] = '\0';
    w->nodes = 0;
    bf_walk_type(w, e->root, doc, 0);
    return w->problem[0] == '\0';
}

/* 1 when a failed read's error is clean: it has a path and a message, and its offset is
 * inside the input (or at its end). Fills `why` otherwise. */
static int bf_walk_error_is_clean(const bf_error *err, size_t size, char *why, size_t why_size)
{
    if (!err->failed)
        snprintf(why, why_size, "the read failed without setting the error");
    else if (!err->path[0])
        snprintf(why, why_size, "error without a path: %s", err->message);
    else if (!err->message[0])
        snprintf(why, why_size, "error without a message at %s", err->path);
    else if (err->offset > size)
        snprintf(why, why_size, "error offset 0x%llx is past the end of the input (%zu bytes): %s: %s",
                 (unsigned long long)err->offset, size, err->path, err->message);
    else
        return 1;
    return 0;
}

/* Writes a document read from `data` back (when the entry has a writer) and checks the
 * round trip: the write succeeds, or fails with a message; the image is no larger than the
 * input (every structure goes back to where it was read); it reads again with the same
 * entry; and every byte the first read claimed (`claimed`, may be NULL) comes back
 * unchanged. The second read's arena takes its blocks from `alloc`. 1 when all hold; fills
 * `why` otherwise. */
static int bf_walk_round_trip(const bf_entry_desc *e, const void *doc, const uint8_t *data, size_t size,
                              const uint8_t *claimed, bf_alloc alloc, char *why, size_t why_size)
{
    if (!e->write)
        return 1;
    bf_buffer out;
    memset(&out, 0, sizeof out);
    out.limit = size + 1; /* a finding below, not an allocation of up to 1 GiB */
    bf_error err;
    memset(&err, 0, sizeof err);
    int ok = 1;
    if (!e->write(doc, &out, &err)) {
        if (!err.failed || !err.message[0])
            snprintf(why, why_size, "write failed without an error message"), ok = 0;
        else
            snprintf(why, why_size, "write failed: %s @0x%llx: %s", err.path, (unsigned long long)err.offset,
                     err.message), ok = 0;
    } else if (out.size > size) {
        snprintf(why, why_size, "write made %zu bytes from %zu", out.size, size), ok = 0;
    } else {
        /* eight bytes at a time: none claimed, or all claimed and written back unchanged, is
         * the common case; the others byte by byte */
        for (size_t g = 0; ok && claimed && g < size; g += 8) {
            size_t n = size - g < 8 ? size - g : 8;
            if (!claimed[g >> 3] ||
                (claimed[g >> 3] == 0xFF && n == 8 && g + 8 <= out.size && memcmp(out.data + g, data + g, 8) == 0))
                continue;
            for (size_t i = g; ok && i < g + n; i++)
                if (claimed[i >> 3] >> (i & 7) & 1 && (i >= out.size || out.data[i] != data[i]))
                    snprintf(why, why_size, "byte 0x%zx read as 0x%02x was written as %s", i, data[i],
                             i >= out.size ? "nothing" : "another value"), ok = 0;
        }
        if (ok) {
            bf_arena arena;
            bf_arena_init(&arena, alloc, 0);
            void *again = NULL;
            bf_error err2;
            memset(&err2, 0, sizeof err2);
            if (!e->read(out.data, out.size, &arena, NULL, &again, &err2))
                snprintf(why, why_size, "the written image does not read back: %s @0x%llx: %s", err2.path,
                         (unsigned long long)err2.offset, err2.message), ok = 0;
            bf_arena_free(&arena);
        }
    }
    bf_buffer_free(&out);
    return ok;
}

/* Runs the entry's validator (when it has one) on a document read from `data`; 1 when
 * every finding is well-formed: a message, a known severity, an offset inside the input,
 * and counts that add up. Fills `why` otherwise. */
static int bf_walk_validate(const bf_entry_desc *e, const void *doc, const uint8_t *data, size_t size, char *why,
                            size_t why_size)
{
    if (!e->validate)
        return 1;
    bf_findings out;
    memset(&out, 0, sizeof out);
    out.limit = 64; /* the rest are counted, and their offsets still checked (max_offset) */
    int clean = e->validate(doc, data, size, &out);
    int ok = 1;
    if (out.max_offset > size) {
        snprintf(why, why_size, "a finding's offset 0x%llx is past the end of the input (%zu bytes)",
                 (unsigned long long)out.max_offset, size);
        ok = 0;
    } else if (out.errors + out.warnings != out.count + out.dropped) {
        snprintf(why, why_size, "findings: %zu errors + %zu warnings but %zu kept + %zu dropped", out.errors,
                 out.warnings, out.count, out.dropped);
        ok = 0;
    } else if (clean != (out.errors == 0)) {
        snprintf(why, why_size, "validate returned %d with %zu errors", clean, out.errors);
        ok = 0;
    }
    for (size_t i = 0; ok && i < out.count; i++) {
        const bf_finding *f = &out.items[i];
        if (f->severity != BF_SEVERITY_ERROR && f->severity != BF_SEVERITY_WARNING)
            snprintf(why, why_size, "finding %zu has severity %d", i, (int)f->severity), ok = 0;
        else if (!f->message[0])
            snprintf(why, why_size, "finding %zu at %s has no message", i, f->path), ok = 0;
    }
    bf_findings_free(&out);
    return ok;
}

#endif
