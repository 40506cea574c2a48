/* Hostile input for every generated reader: the fixtures and samples of every format in
 * bf_formats, truncated, with their counts and offsets overwritten (found through the
 * reflection tables), with cyclic and overlapping offsets and unterminated strings, and the
 * fuzzers' regression files. Every read must either succeed with a document consistent with
 * its input (which validates with well-formed findings and writes back: bf_walk.h), or fail
 * cleanly (a path, a message, an offset inside the input), within the memory bound and in
 * bounded time. Runs under ASan + UBSan: each input is copied into a
 * buffer of exactly its size, so that reading one byte past it is a report. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../fuzz/bf_walk.h"
#include "block_cache.h"
#include "formats.h"
#include "samples.h"

/* ---- reading one input, with every property checked ------------------------------- */

/* bf_arena.c's block size plus its header: the allocator may see the budget plus the block
 * being filled, no more (the fuzz harness uses the same bound). */
#define ARENA_BLOCK (16384 + 64)
/* Far beyond an honest read of the largest sample under ASan; a hang ends the test. */
#define READ_SECONDS 5.0

typedef struct counter {
    size_t live, peak;
} counter;

/* Counted, and taken from block_cache.h: the same blocks again for each mutated copy
 * instead of fresh mappings that ASan faults in page by page. */
static void *count_alloc(void *user, size_t size)
{
    counter *c = user;
    c->live += size;
    if (c->live > c->peak)
        c->peak = c->live;
    return block_cache_alloc(size);
}

static void count_release(void *user, void *ptr, size_t size)
{
    counter *c = user;
    c->live -= size;
    block_cache_release(ptr, size);
}

static double now(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC); /* C11; wall time is what a hang costs */
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Optional: called with the document of a successful read (the role collection uses it). */
typedef void (*on_doc_fn)(void *user, const bf_entry_desc *e, const void *doc, const uint8_t *data, size_t size);

/* Reads `size` bytes from `data`, a heap buffer of exactly that size (a mutation's scratch
 * copy), and checks every property; the test fails naming `label` when one does not hold.
 * Returns 1 when the read succeeded. */
static int check_exact(const char *label, const bf_entry_desc *e, const uint8_t *data, size_t size, on_doc_fn on_doc,
                       void *user)
{
    counter cnt = {0, 0};
    bf_alloc hooks = {count_alloc, count_release, &cnt};
    bf_arena arena;
    bf_arena_init(&arena, hooks, 0);
    bf_error err;
    memset(&err, 0, sizeof err);
    void *doc = NULL;
    uint8_t *claimed = calloc(size / 8 + 1, 1);
    cr_assert_not_null(claimed);
    bf_read_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.claimed = claimed;
    double t0 = now();
    int ok = e->read(data, size, &arena, &opts, &doc, &err);
    if (ok) {
        bf_walk w;
        memset(&w, 0, sizeof w);
        w.data = data;
        w.size = size;
        cr_assert_not_null(doc, "%s: %s succeeded without a document", label, e->name);
        cr_assert(bf_walk_document(&w, e, doc), "%s: %s: document inconsistent with its input: %s", label, e->name,
                  w.problem);
        char why[700];
        cr_assert(bf_walk_validate(e, doc, data, size, why, sizeof why), "%s: %s: validate: %s", label, e->name, why);
        cr_assert(bf_walk_round_trip(e, doc, data, size, claimed, block_cache_hooks(), why, sizeof why),
                  "%s: %s: round trip: %s", label, e->name, why);
        if (on_doc)
            on_doc(user, e, doc, data, size);
    } else {
        char why[700];
        cr_assert(bf_walk_error_is_clean(&err, size, why, sizeof why), "%s: %s: %s", label, e->name, why);
    }
    double took = now() - t0; /* reading, walking, validating, writing */
    size_t bound = bf_default_budget(size) + ARENA_BLOCK;
    cr_assert(cnt.peak <= bound, "%s: %s: %zu bytes allocated at once, bound %zu", label, e->name, cnt.peak, bound);
    cr_assert(took < READ_SECONDS, "%s: %s: read took %.1f s", label, e->name, took);
    bf_arena_free(&arena);
    cr_assert_eq(cnt.live, 0, "%s: %zu bytes left after bf_arena_free", label, cnt.live);
    free(claimed);
    return ok;
}

/* check_exact on a copy of `src` in a buffer of exactly `size` bytes. */
static int check_read(const char *label, const bf_entry_desc *e, const uint8_t *src, size_t size, on_doc_fn on_doc,
                      void *user)
{
    uint8_t *data = malloc(size ? size : 1);
    cr_assert_not_null(data);
    if (size)
        memcpy(data, src, size);
    int ok = check_exact(label, e, data, size, on_doc, user);
    free(data);
    return ok;
}

/* The scratch buffer of an input's mutations: exactly its size (one byte for an empty one). */
static uint8_t *scratch_for(size_t size)
{
    uint8_t *p = malloc(size ? size : 1);
    cr_assert_not_null(p);
    return p;
}

/* Reads a mutated copy in its scratch buffer, of exactly `size` bytes unless it is empty
 * (check_read copies it then, as it does any input). */
static int check_scratch(const char *label, const bf_entry_desc *e, const uint8_t *scratch, size_t size)
{
    return size ? check_exact(label, e, scratch, size, NULL, NULL) : check_read(label, e, scratch, size, NULL, NULL);
}

/* ---- the inputs: every fixture and sample that bf_detect assigns to a reader ------------ */

typedef struct input {
    char path[1024];
    char rel[512];       /* the path inside its folder, for messages */
    const bf_format_desc *format;
    const bf_entry_desc *entry;
    uint8_t *data;
    size_t size;
} input;

#define MAX_INPUTS 512
static input inputs[MAX_INPUTS];
static int input_count;

static void add_file(const char *path, size_t root_len)
{
    uint8_t *data;
    size_t size;
    if (input_count == MAX_INPUTS || !load_file(path, &data, &size))
        return;
    const bf_format_desc *f = NULL;
    const bf_entry_desc *e = bf_detect(bf_formats, data, size, path, &f);
    if (!e) {
        free(data);
        return;
    }
    input *in = &inputs[input_count++];
    snprintf(in->path, sizeof in->path, "%s", path);
    snprintf(in->rel, sizeof in->rel, "%s", path + root_len + 1);
    in->format = f;
    in->entry = e;
    in->data = data;
    in->size = size;
}

static void add_dir(const char *dir, size_t root_len)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (ent->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            add_dir(path, root_len);
        else if (S_ISREG(st.st_mode))
            add_file(path, root_len);
    }
    closedir(d);
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const input *)a)->path, ((const input *)b)->path);
}

static void load_inputs(void)
{
    const char *fixtures = BF_PROJECT_DIR "/tests/fixtures";
    add_dir(fixtures, strlen(fixtures));
    const char *samples = sample_path("");
    size_t n = strlen(samples);
    char root[1024];
    snprintf(root, sizeof root, "%.*s", (int)(n && samples[n - 1] == '/' ? n - 1 : n), samples);
    add_dir(root, strlen(root));
    qsort(inputs, (size_t)input_count, sizeof *inputs, by_path);
    cr_assert_gt(input_count, 0, "no fixture or sample file is assigned to any reader");
}

static void free_inputs(void)
{
    for (int i = 0; i < input_count; i++)
        free(inputs[i].data);
    input_count = 0;
}

TestSuite(badinput, .init = load_inputs, .fini = free_inputs);

/* ---- truncation ------------------------------------------------------------------------ */

/* Every length in the first 4 KiB, then about 256 more lengths up to the whole file. */
#define TRUNC_DENSE 4096
#define TRUNC_SPARSE 256

Test(badinput, truncated_at_every_length)
{
    for (int i = 0; i < input_count; i++) {
        const input *in = &inputs[i];
        size_t dense = in->size < TRUNC_DENSE ? in->size : TRUNC_DENSE;
        size_t stride = in->size > TRUNC_DENSE ? (in->size - TRUNC_DENSE) / TRUNC_SPARSE + 1 : 1;
        unsigned reads = 0, ok = 0;
        char label[1200];
        /* every length below `dense`, then a stride, then the whole file */
        for (size_t len = 0;; len = len < dense ? len + 1 : len + stride) {
            if (len > in->size)
                len = in->size;
            snprintf(label, sizeof label, "%s truncated to %zu bytes", in->rel, len);
            ok += (unsigned)check_read(label, in->entry, in->data, len, NULL, NULL);
            reads++;
            if (len == in->size)
                break;
        }
        fprintf(stderr, "badinput: %-40s %7zu bytes: %5u truncations (%u read successfully)\n", in->rel, in->size,
                reads, ok);
    }
}

/* ---- counts and offsets, found through the reflection tables -------------------------- */

typedef struct role_elem {
    const bf_type_desc *type;
    const bf_field_desc *field;
    uint64_t pos;
    int width;
    int64_t value;
} role_elem;

typedef struct role_list {
    role_elem *items;
    size_t count, cap;
    uint64_t *terminators; /* resolved strings' zero bytes */
    size_t term_count, term_cap;
} role_list;

static void collect_role(void *user, const bf_walk_role *r)
{
    role_list *l = user;
    for (size_t i = 0; i < l->count; i++)
        if (l->items[i].pos == r->pos) /* the same bytes reached twice */
            return;
    if (l->count == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->items = realloc(l->items, l->cap * sizeof *l->items);
        cr_assert_not_null(l->items);
    }
    l->items[l->count++] = (role_elem){r->type, r->field, r->pos, r->width, r->value};
}

static void collect_str(void *user, uint64_t terminator)
{
    role_list *l = user;
    if (l->term_count == l->term_cap) {
        l->term_cap = l->term_cap ? l->term_cap * 2 : 64;
        l->terminators = realloc(l->terminators, l->term_cap * sizeof *l->terminators);
        cr_assert_not_null(l->terminators);
    }
    l->terminators[l->term_count++] = terminator;
}

static void collect_doc(void *user, const bf_entry_desc *e, const void *doc, const uint8_t *data, size_t size)
{
    bf_walk w;
    memset(&w, 0, sizeof w);
    w.data = data;
    w.size = size;
    w.on_role = collect_role;
    w.on_str = collect_str;
    w.user = user;
    bf_walk_document(&w, e, doc);
}

/* Parses an input and lists its count/offset elements and string terminators. */
static int collect(const input *in, role_list *l)
{
    memset(l, 0, sizeof *l);
    char label[1200];
    snprintf(label, sizeof label, "%s (unchanged)", in->rel);
    return check_read(label, in->entry, in->data, in->size, collect_doc, l);
}

static void release(role_list *l)
{
    free(l->items);
    free(l->terminators);
}

/* Writes `value` into the element's bytes, in its width and byte order. */
static void store(uint8_t *data, const role_elem *r, uint64_t value)
{
    for (int b = 0; b < r->width; b++) {
        int shift = r->field->little_endian ? 8 * b : 8 * (r->width - 1 - b);
        data[r->pos + (uint64_t)b] = (uint8_t)(value >> shift);
    }
}

static uint64_t type_max(const role_elem *r)
{
    int bits = 8 * r->width;
    int is_signed = r->field->prim >= BF_S8 && r->field->prim <= BF_S64;
    if (is_signed)
        bits--;
    return bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

/* At most this many elements of one (type, field) per file, spread over all of them, so
 * that files with thousands of parts stay quick; the count is reported. */
#define PER_FIELD_CAP 24

static int selected(const role_list *l, size_t idx)
{
    size_t k = 0, nth = 0;
    for (size_t i = 0; i < l->count; i++)
        if (l->items[i].type == l->items[idx].type && l->items[i].field == l->items[idx].field) {
            if (i < idx)
                nth++;
            k++;
        }
    if (k <= PER_FIELD_CAP)
        return 1;
    size_t step = (k + PER_FIELD_CAP - 1) / PER_FIELD_CAP;
    return nth % step == 0 || nth == k - 1;
}

/* The (type, field) pairs mutated, to compare with the tables' roles. */
typedef struct pair {
    const bf_type_desc *type;
    const bf_field_desc *field;
} pair;

static pair mutated[1024];
static size_t mutated_count;

static void note_mutated(const role_elem *r)
{
    for (size_t i = 0; i < mutated_count; i++)
        if (mutated[i].type == r->type && mutated[i].field == r->field)
            return;
    cr_assert_lt(mutated_count, sizeof mutated / sizeof *mutated);
    mutated[mutated_count++] = (pair){r->type, r->field};
}

/* One mutation: a copy of the input with `r` set to `value` (values the field cannot hold
 * are skipped: they would only repeat another one). Returns 1 when applied. */
static int mutate_one(const input *in, uint8_t *scratch, const role_elem *r, uint64_t value, const char *why)
{
    uint64_t mask = r->width >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * r->width)) - 1;
    if ((value & mask) != value)
        return 0;
    memcpy(scratch, in->data, in->size);
    store(scratch, r, value);
    char label[1400];
    snprintf(label, sizeof label, "%s with %s.%s @0x%llx = 0x%llx (%s)", in->rel, r->type->name, r->field->name,
             (unsigned long long)r->pos, (unsigned long long)value, why);
    check_scratch(label, in->entry, scratch, in->size);
    return 1;
}

/* Is `name` one of the comma-separated `names`? */
static int listed(const char *names, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = names; *p; p += strcspn(p, ","), p += *p == ',')
        if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

/* The inputs of the formats in `formats` (comma-separated), each count and offset element
 * overwritten in turn; then every field with a role in those formats must have been reached.
 * One test per group of formats, so that Criterion's --jobs runs them side by side. */
static void counts_and_offsets(const char *formats)
{
    unsigned total = 0;
    for (int i = 0; i < input_count; i++) {
        const input *in = &inputs[i];
        if (!listed(formats, in->format->name))
            continue;
        role_list l;
        if (!collect(in, &l)) {
            fprintf(stderr, "badinput: %-40s does not parse; no field mutations\n", in->rel);
            continue;
        }
        uint8_t *scratch = scratch_for(in->size);
        unsigned applied = 0, elems = 0;
        const uint64_t size = in->size;
        for (size_t j = 0; j < l.count; j++) {
            const role_elem *r = &l.items[j];
            if (bf_prim_is_float(r->field->prim) || !selected(&l, j))
                continue;
            elems++;
            note_mutated(r);
            const uint64_t v = (uint64_t)r->value;
            struct {
                uint64_t value;
                const char *why;
            } values[] = {
                {0, "zero"}, {type_max(r), "type maximum"}, {size - 1, "file size - 1"},
                {size, "file size"}, {size + 1, "file size + 1"},
                /* lying sizes and offsets: off by one either way, doubled */
                {v + 1, "value + 1"}, {v - 1, "value - 1"}, {v * 2, "value * 2"},
            };
            for (size_t k = 0; k < sizeof values / sizeof *values; k++) {
                int dup = 0;
                for (size_t p = 0; p < k; p++)
                    dup |= values[p].value == values[k].value;
                if (!dup && values[k].value != v)
                    applied += (unsigned)mutate_one(in, scratch, r, values[k].value, values[k].why);
            }
        }
        fprintf(stderr, "badinput: %-40s %5zu count/offset elements, %4u mutated, %6u mutations\n", in->rel, l.count,
                elems, applied);
        total += applied;
        free(scratch);
        release(&l);
    }
    fprintf(stderr, "badinput: %u count/offset mutations in all (%s)\n", total, formats);

    /* Every field the tables mark as a count or an offset was mutated somewhere (T3DM, whose
     * samples hold every structure, must be complete; other formats are reported). */
    for (size_t f = 0; bf_formats[f]; f++) {
        const bf_format_desc *fmt = bf_formats[f];
        if (!listed(formats, fmt->name))
            continue;
        int has_inputs = 0;
        for (int i = 0; i < input_count; i++)
            has_inputs |= inputs[i].format == fmt;
        char missing[2048] = "";
        size_t used = 0, roles = 0;
        for (size_t t = 0; t < fmt->type_count; t++) {
            const bf_type_desc *type = fmt->types[t];
            for (size_t k = 0; k < type->field_count; k++) {
                const bf_field_desc *fd = &type->fields[k];
                if (!fd->roles)
                    continue;
                roles++;
                int found = 0;
                for (size_t m = 0; m < mutated_count; m++)
                    found |= mutated[m].type == type && mutated[m].field == fd;
                if (!found && used < sizeof missing - 80)
                    used += (size_t)snprintf(missing + used, sizeof missing - used, " %s.%s", type->name, fd->name);
            }
        }
        fprintf(stderr, "badinput: format %s: %zu fields with a role;%s%s\n", fmt->name, roles,
                used ? " not mutated:" : " all mutated", missing);
        if (strcmp(fmt->name, "t3dm") == 0 && has_inputs && samples_present())
            cr_expect_eq(used, 0, "t3dm: fields with a role that no mutation reached:%s", missing);
    }
}

/* The groups take every format of bf_formats (checked below), in parts of similar cost. */
#define COUNTS_T3DM "t3dm"
#define COUNTS_J3D "j3d"
#define COUNTS_OTHERS "p3m,tmd,tkl,tml,sprite"

Test(badinput, counts_and_offsets_overwritten_t3dm)
{
    counts_and_offsets(COUNTS_T3DM);
}

Test(badinput, counts_and_offsets_overwritten_j3d)
{
    counts_and_offsets(COUNTS_J3D);
}

Test(badinput, counts_and_offsets_overwritten_other_formats)
{
    counts_and_offsets(COUNTS_OTHERS);
    for (size_t f = 0; bf_formats[f]; f++) {
        const char *name = bf_formats[f]->name;
        cr_expect(listed(COUNTS_T3DM, name) || listed(COUNTS_J3D, name) || listed(COUNTS_OTHERS, name),
                  "format %s is in no counts_and_offsets_overwritten test", name);
    }
}

/* ---- offsets that point at themselves, at each other, into the header, or overlap ------ */

Test(badinput, cyclic_and_overlapping_offsets)
{
    unsigned total = 0;
    for (int i = 0; i < input_count; i++) {
        const input *in = &inputs[i];
        role_list l;
        if (!collect(in, &l))
            continue;
        uint8_t *scratch = scratch_for(in->size);
        unsigned applied = 0;
        const role_elem *prev = NULL; /* the previous selected offset element */
        for (size_t j = 0; j < l.count; j++) {
            const role_elem *r = &l.items[j];
            if (!(r->field->roles & BF_ROLE_OFFSET) || bf_prim_is_float(r->field->prim) || !selected(&l, j))
                continue;
            applied += (unsigned)mutate_one(in, scratch, r, r->pos, "points at itself");
            applied += (unsigned)mutate_one(in, scratch, r, 4, "points into the file's first structure");
            if (prev) {
                /* two elements with the same value: e.g. two chunks at one offset */
                applied += (unsigned)mutate_one(in, scratch, r, (uint64_t)prev->value, "same as the previous offset");
                /* a cycle: each points at the other */
                uint64_t mask_r = r->width >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * r->width)) - 1;
                uint64_t mask_p = prev->width >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * prev->width)) - 1;
                if (prev->pos <= mask_r && r->pos <= mask_p) {
                    memcpy(scratch, in->data, in->size);
                    store(scratch, r, prev->pos);
                    store(scratch, prev, r->pos);
                    char label[1400];
                    snprintf(label, sizeof label, "%s with %s.%s @0x%llx and %s.%s @0x%llx pointing at each other",
                             in->rel, r->type->name, r->field->name, (unsigned long long)r->pos, prev->type->name,
                             prev->field->name, (unsigned long long)prev->pos);
                    check_scratch(label, in->entry, scratch, in->size);
                    applied++;
                }
            }
            prev = r;
        }
        fprintf(stderr, "badinput: %-40s %6u offset cycles/overlaps\n", in->rel, applied);
        total += applied;
        free(scratch);
        release(&l);
    }
    fprintf(stderr, "badinput: %u offset cycle/overlap mutations in all\n", total);
}

/* ---- strings without their zero -------------------------------------------------------- */

Test(badinput, unterminated_strings)
{
    unsigned total = 0;
    for (int i = 0; i < input_count; i++) {
        const input *in = &inputs[i];
        role_list l;
        if (!collect(in, &l))
            continue;
        uint8_t *scratch = scratch_for(in->size);
        unsigned applied = 0;
        char label[1400];
        for (size_t j = 0; j < l.term_count; j++) {
            if (l.term_count > 4 * PER_FIELD_CAP && j % (l.term_count / (4 * PER_FIELD_CAP) + 1))
                continue;
            memcpy(scratch, in->data, in->size);
            scratch[l.terminators[j]] = 'X';
            snprintf(label, sizeof label, "%s with the string ending @0x%llx unterminated", in->rel,
                     (unsigned long long)l.terminators[j]);
            check_scratch(label, in->entry, scratch, in->size);
            applied++;
        }
        /* The last byte non-zero: a string table at the end of the file loses its final zero. */
        if (in->size) {
            memcpy(scratch, in->data, in->size);
            scratch[in->size - 1] = 'X';
            snprintf(label, sizeof label, "%s with its last byte non-zero", in->rel);
            check_scratch(label, in->entry, scratch, in->size);
            applied++;
        }
        fprintf(stderr, "badinput: %-40s %4zu resolved strings, %4u unterminated\n", in->rel, l.term_count, applied);
        total += applied;
        free(scratch);
        release(&l);
    }
    fprintf(stderr, "badinput: %u string mutations in all\n", total);
}

/* ---- the fuzzers' findings ------------------------------------------------------------- */

/* tests/fuzz/regressions/FORMAT/[ENTRY-]NAME: read by ENTRY, or by every entry of FORMAT. */
Test(badinput, fuzz_regressions_replay)
{
    const char *root = BF_PROJECT_DIR "/tests/fuzz/regressions";
    DIR *d = opendir(root);
    unsigned files = 0;
    for (struct dirent *fe; d && (fe = readdir(d));) {
        if (fe->d_name[0] == '.')
            continue;
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/%s", root, fe->d_name);
        struct stat st;
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        const bf_format_desc *fmt = NULL;
        for (size_t f = 0; bf_formats[f]; f++)
            if (strcmp(bf_formats[f]->name, fe->d_name) == 0)
                fmt = bf_formats[f];
        cr_assert_not_null(fmt, "%s: no format of that name", dir);
        DIR *dd = opendir(dir);
        for (struct dirent *re; dd && (re = readdir(dd));) {
            if (re->d_name[0] == '.')
                continue;
            char path[2100];
            snprintf(path, sizeof path, "%s/%s", dir, re->d_name);
            uint8_t *data;
            size_t size;
            cr_assert(load_file(path, &data, &size), "cannot read %s", path);
            const bf_entry_desc *only = NULL;
            for (size_t j = 0; j < fmt->entry_count; j++) {
                size_t n = strlen(fmt->entries[j].name);
                if (strncmp(re->d_name, fmt->entries[j].name, n) == 0 && re->d_name[n] == '-')
                    only = &fmt->entries[j];
            }
            for (size_t j = 0; j < fmt->entry_count; j++)
                if (!only || only == &fmt->entries[j])
                    check_read(path, &fmt->entries[j], data, size, NULL, NULL);
            free(data);
            files++;
        }
        if (dd)
            closedir(dd);
    }
    if (d)
        closedir(d);
    fprintf(stderr, "badinput: %u fuzz regression files replayed\n", files);
}
