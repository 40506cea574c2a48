/* libFuzzer harness for every generated reader, driven by the format table (bf_formats).
 *
 * Which reader: the format is BF_FUZZ_FORMAT (a -D define, or the environment variable of
 * that name, which wins); the entry is the environment variable BF_FUZZ_ENTRY, and when it
 * is unset or empty every entry of the format reads every input.
 *
 * A finding is anything that makes the process stop: a crash or sanitizer report, a leak, a
 * timeout, or one of the aborts below:
 *   - memory: the allocator hooks count live bytes; more than the arena's budget for the
 *     input (bf_default_budget: 64 x size + 1 MiB) plus one arena block (BF_FUZZ_BLOCK) is
 *     a finding. The arena counts whole blocks against its budget, so it should never even
 *     reach the slack; the block is allowed so that a block-granular budget stays within
 *     the documented bound;
 *   - the validator (entry->validate, when there is one): findings must be well-formed;
 *   - the writer (entry->write, when there is one): the document writes back, no larger
 *     than the input, reads again, and every byte the read claimed comes back unchanged;
 *   - an error that is not clean (no path, no message, an offset past the end of the input);
 *   - a document that is inconsistent with its input (views or strings outside it), found by
 *     walking it through the reflection tables (bf_walk.h);
 *   - bytes still allocated after bf_arena_free. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bf_walk.h"
#include "formats.h"

#ifndef BF_FUZZ_FORMAT
#define BF_FUZZ_FORMAT ""
#endif

/* bf_arena.c's block size (BF_ARENA_BLOCK) plus room for its header. */
#define BF_FUZZ_BLOCK (16384 + 64)

typedef struct counter {
    size_t live, peak, limit;
} counter;

static void *count_alloc(void *user, size_t size)
{
    counter *c = user;
    if (size > SIZE_MAX - c->live) {
        fprintf(stderr, "fuzz: allocation of %zu bytes overflows the live count\n", size);
        abort();
    }
    c->live += size;
    if (c->live > c->peak)
        c->peak = c->live;
    if (c->live > c->limit) {
        fprintf(stderr, "fuzz: %zu live bytes exceed the bound of %zu (last request %zu)\n", c->live, c->limit,
                size);
        abort();
    }
    return malloc(size);
}

static void count_release(void *user, void *ptr, size_t size)
{
    counter *c = user;
    if (size > c->live) {
        fprintf(stderr, "fuzz: release of %zu bytes with only %zu live\n", size, c->live);
        abort();
    }
    c->live -= size;
    free(ptr);
}

static const bf_format_desc *format;
static const bf_entry_desc *only_entry; /* NULL: every entry */

static void select_reader(void)
{
    const char *name = getenv("BF_FUZZ_FORMAT");
    if (!name || !*name)
        name = BF_FUZZ_FORMAT;
    for (size_t i = 0; bf_formats[i]; i++)
        if (strcmp(bf_formats[i]->name, name) == 0)
            format = bf_formats[i];
    if (!format) {
        fprintf(stderr, "fuzz: no format \"%s\" (set BF_FUZZ_FORMAT); formats:", name);
        for (size_t i = 0; bf_formats[i]; i++)
            fprintf(stderr, " %s", bf_formats[i]->name);
        fprintf(stderr, "\n");
        exit(2);
    }
    const char *entry = getenv("BF_FUZZ_ENTRY");
    if (entry && *entry) {
        for (size_t j = 0; j < format->entry_count; j++)
            if (strcmp(format->entries[j].name, entry) == 0)
                only_entry = &format->entries[j];
        if (!only_entry) {
            fprintf(stderr, "fuzz: format %s has no entry \"%s\"\n", format->name, entry);
            exit(2);
        }
    }
    fprintf(stderr, "fuzz: format %s, entry %s\n", format->name, only_entry ? only_entry->name : "(all)");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    select_reader();
    return 0;
}

/* After a successful read: the validator and the writer (bf_walk.h says what they must do).
 * New generated functions that take a document plug in here. */
static void after_read(const bf_entry_desc *e, void *doc, const uint8_t *data, size_t size, const uint8_t *claimed)
{
    char why[700];
    if (!bf_walk_validate(e, doc, data, size, why, sizeof why)) {
        fprintf(stderr, "fuzz: %s: validate: %s\n", e->name, why);
        abort();
    }
    if (!bf_walk_round_trip(e, doc, data, size, claimed, bf_alloc_default(), why, sizeof why)) {
        fprintf(stderr, "fuzz: %s: round trip: %s\n", e->name, why);
        abort();
    }
}

static void read_one(const bf_entry_desc *e, const uint8_t *data, size_t size, uint8_t *claimed)
{
    counter cnt = {0, 0, bf_default_budget(size) + BF_FUZZ_BLOCK};
    bf_alloc hooks = {count_alloc, count_release, &cnt};
    bf_arena arena;
    bf_arena_init(&arena, hooks, 0); /* 0: the reader sets the default budget */
    bf_error err;
    memset(&err, 0, sizeof err);
    if (claimed)
        memset(claimed, 0, (size + 7) / 8);
    bf_read_opts opts = {.claimed = claimed};
    void *doc = NULL;
    if (e->read(data, size, &arena, &opts, &doc, &err)) {
        bf_walk w;
        memset(&w, 0, sizeof w);
        w.data = data;
        w.size = size;
        if (!doc || !bf_walk_document(&w, e, doc)) {
            fprintf(stderr, "fuzz: %s: %s\n", e->name, doc ? w.problem : "success without a document");
            abort();
        }
        after_read(e, doc, data, size, claimed);
    } else {
        char why[600];
        if (!bf_walk_error_is_clean(&err, size, why, sizeof why)) {
            fprintf(stderr, "fuzz: %s: %s\n", e->name, why);
            abort();
        }
    }
    bf_arena_free(&arena);
    if (cnt.live) {
        fprintf(stderr, "fuzz: %zu bytes still allocated after bf_arena_free\n", cnt.live);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Half the runs ask for a claim map, so both paths of every field are exercised. */
    uint8_t *claimed = NULL;
    if (size && (data[size - 1] & 1)) {
        claimed = malloc((size + 7) / 8);
        if (!claimed)
            return 0;
    }
    if (only_entry)
        read_one(only_entry, data, size, claimed);
    else
        for (size_t j = 0; j < format->entry_count; j++)
            read_one(&format->entries[j], data, size, claimed);
    free(claimed);
    return 0;
}
