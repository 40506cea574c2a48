/* binform dump and binform build: the dump is lossless (build makes the same document back,
 * and with --keep-layout the same bytes), regular, and valid against the JSON Schema bfgen
 * generates for its format. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdarg.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bf_write.h"
#include "cli_run.h"
#include "doc_equal.h"
#include "formats.h"
#include "json_parse.h"
#include "samples.h"
#include "schema_check.h"

/* Criterion runs tests in parallel processes: each has its own files. */
static const char *tmp_path(const char *suffix)
{
    static char paths[4][128];
    static int next;
    char *p = paths[next++ & 3];
    snprintf(p, sizeof paths[0], "/tmp/binform_dump_build_%d%s", (int)getpid(), suffix);
    return p;
}
#define TMP_JSON tmp_path(".json")
#define TMP_OUT tmp_path(".out")


static jv *parse_or_fail(const char *text)
{
    char error[256];
    jv *v = jv_parse(text, error, sizeof error);
    cr_assert_not_null(v, "not JSON: %s", error);
    return v;
}

static void save_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

static jv *load_schema(const char *format)
{
    char path[512];
    snprintf(path, sizeof path, BF_PROJECT_DIR "/generated/docs/%s.schema.json", format);
    uint8_t *data;
    size_t size;
    cr_assert(load_file(path, &data, &size), "no %s", path);
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    free(data);
    jv *v = parse_or_fail(text);
    free(text);
    return v;
}

/* The document a file holds, read in this process with the generated reader. */
typedef struct read_doc {
    uint8_t *data;
    size_t size;
    bf_arena arena;
    void *root;
    const bf_entry_desc *entry;
} read_doc;

static int read_as(read_doc *d, const char *path, const char *format, const char *kind)
{
    memset(d, 0, sizeof *d);
    if (!load_file(path, &d->data, &d->size))
        return 0;
    for (size_t i = 0; bf_formats[i]; i++)
        for (size_t e = 0; strcmp(bf_formats[i]->name, format) == 0 && e < bf_formats[i]->entry_count; e++)
            if (strcmp(bf_formats[i]->entries[e].name, kind) == 0)
                d->entry = &bf_formats[i]->entries[e];
    cr_assert_not_null(d->entry);
    bf_arena_init(&d->arena, bf_alloc_default(), 0);
    bf_error err;
    return d->entry->read(d->data, d->size, &d->arena, NULL, &d->root, &err);
}

static void read_free(read_doc *d)
{
    bf_arena_free(&d->arena);
    free(d->data);
}

typedef struct tally {
    int files, dumped, schema_valid, built, as_builder, equal, exact;
    int refused_invalid; /* samples check rejects: the build refuses to write them again */
} tally;

/* What the generated builder makes of the document read in this process: the JSON path
 * must add nothing to it. */
static int same_as_builder(read_doc *d, const char *built_path)
{
    bf_buffer direct = {0};
    bf_error err;
    int same = 0;
    uint8_t *built;
    size_t size;
    if (d->entry->build(d->root, &d->arena, &direct, &err) && load_file(built_path, &built, &size)) {
        same = size == direct.size && memcmp(built, direct.data, size) == 0;
        free(built);
    }
    bf_buffer_free(&direct);
    return same;
}

/* dump -> schema -> build -> read back equal; dump -> build --keep-layout -> same bytes. */
static void round_trip(const char *path, tally *t)
{
    char args[2048];
    t->files++;
    snprintf(args, sizeof args, "dump '%s'", path);
    cli_result *r = cli_run(args);
    if (r->status != 0) {
        cr_expect(strstr(path, "nonconforming") != NULL, "%s does not dump: %s", path, r->err);
        cr_expect_str_eq(r->out, "", "%s: nothing on stdout when the dump fails", path);
        return;
    }
    t->dumped++;
    save_text(TMP_JSON, r->out);
    jv *dump = parse_or_fail(r->out);
    char format[64], kind[64], why[1024];
    snprintf(format, sizeof format, "%s", jv_get(dump, "format")->string);
    snprintf(kind, sizeof kind, "%s", jv_get(dump, "kind")->string);
    jv *schema = load_schema(format);
    int valid = schema_check(schema, dump, why, sizeof why);
    cr_expect(valid, "%s: dump not valid against %s.schema.json: %s", path, format, why);
    t->schema_valid += valid;
    jv_free(schema);
    jv_free(dump);

    read_doc original, rebuilt;
    cr_assert(read_as(&original, path, format, kind));
    unlink(TMP_OUT);
    r = cli_runf("build %s -o %s", TMP_JSON, TMP_OUT);
    if (r->status == 0) {
        t->built++;
        cr_assert(read_as(&rebuilt, TMP_OUT, format, kind), "%s: the built file does not read back", path);
        int equal = doc_equal(original.entry->root, original.root, rebuilt.root, why, sizeof why);
        if (!equal)
            cr_log_info("%s: the builder's layout reads back different: %s", path, why);
        t->equal += equal;
        read_free(&rebuilt);
        /* the document is used up by the builder (it fills in what it computes): read afresh */
        read_doc again;
        cr_assert(read_as(&again, path, format, kind));
        int same = same_as_builder(&again, TMP_OUT);
        cr_expect(same, "%s: built from JSON differs from the builder run on the document read here", path);
        t->as_builder += same;
        read_free(&again);
    } else {
        /* the builder cannot lay out every format yet (J3D's name tables), and what it makes
         * must check before it is saved; it must say so, and write nothing */
        cr_expect_eq(r->status, 1, "%s: build exit %d", path, r->status);
        cr_expect(strstr(r->err, "(building)") != NULL, "%s: %s", path, r->err);
        cr_expect(strstr(r->err, "hint: --keep-layout") != NULL, "%s: no way out offered: %s", path, r->err);
        cr_expect(access(TMP_OUT, F_OK) != 0, "%s: a refused build wrote %s", path, TMP_OUT);
        cr_log_info("%s: the builder cannot lay it out: %s", path, r->err);
    }
    unlink(TMP_OUT);
    /* a sample that check rejects (a real file that breaks a rule of its document) is dumped,
     * but a build, even in place, writes only files that check: it refuses, naming the rule */
    int source_invalid = cli_runf("check --no-set '%s'", path)->status == 1;
    r = cli_runf("build --keep-layout %s -o %s", TMP_JSON, TMP_OUT);
    if (source_invalid) {
        cr_expect_eq(r->status, 1, "%s: an invalid sample built with --keep-layout: exit %d", path, r->status);
        cr_expect(strstr(r->err, "does not check") != NULL, "%s: %s", path, r->err);
        cr_expect(access(TMP_OUT, F_OK) != 0, "%s: a refused build wrote %s", path, TMP_OUT);
        t->refused_invalid++;
        read_free(&original);
        return;
    }
    cr_expect_eq(r->status, 0, "%s: %s", path, r->err);
    uint8_t *out;
    size_t out_size;
    if (r->status == 0 && load_file(TMP_OUT, &out, &out_size)) {
        int exact = out_size == original.size && memcmp(out, original.data, out_size) == 0;
        cr_expect(exact, "%s: dump then build --keep-layout is not byte-exact", path);
        t->exact += exact;
        free(out);
    }
    read_free(&original);
    unlink(TMP_OUT);
    unlink(TMP_JSON);
}

/* Every file under `dir` but its top-level entry named `skip` (NULL: none) and notes (.md). */
static void walk_but(const char *dir, const char *skip, tally *t);
static void walk(const char *dir, tally *t)
{
    walk_but(dir, NULL, t);
}

static void walk_but(const char *dir, const char *skip, tally *t)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s", dir);
    struct dirent *e;
    char names[256][256];
    int n = 0;
    while ((e = readdir(d)) && n < 256)
        if (e->d_name[0] != '.' && !(skip && strcmp(e->d_name, skip) == 0))
            snprintf(names[n++], 256, "%s", e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat st;
        size_t len = strlen(names[i]);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            walk(path, t);
        else if (len < 3 || strcmp(names[i] + len - 3, ".md") != 0)
            round_trip(path, t);
    }
}

Test(dump_build, the_project_models_round_trip)
{
    tally t = {0};
    round_trip(PYRAMID, &t);
    round_trip(PYRAMID_STREAM, &t);
    round_trip(BF_PROJECT_DIR "/tests/fixtures/sprite/rgba16_8x4.sprite", &t);
    cr_expect_eq(t.exact, 3);
    cr_expect_eq(t.equal, 3);
    cr_expect_eq(t.schema_valid, 3);
}

/* The samples' tally against what is expected of it: every dumped file valid against its
 * schema and byte-exact with --keep-layout, building from JSON the same as building from the
 * document, and at least `dumped` dumps and `built` builds that read back equal. */
static void expect_tally(const char *what, const tally *t, int dumped, int built)
{
    printf("dump -> build over the %s: %d files, %d dumped, %d valid against their JSON Schema; builder: %d built "
           "(each the same bytes as the builder run on the read document: %d), %d read back equal; "
           "--keep-layout: %d byte-exact\n",
           what, t->files, t->dumped, t->schema_valid, t->built, t->as_builder, t->equal, t->exact);
    cr_expect_eq(t->exact + t->refused_invalid, t->dumped,
                 "%s: every dumped sample that checks is byte-exact with --keep-layout", what);
    cr_expect_eq(t->schema_valid, t->dumped, "%s", what);
    cr_expect_eq(t->as_builder, t->built, "%s: building from JSON is building from the document", what);
    cr_expect_geq(t->dumped, dumped, "%s", what);
    cr_expect_geq(t->built, built, "%s", what);
    cr_expect_geq(t->equal, built, "%s", what);
}

/* Every sample, in two tests that Criterion's --jobs runs side by side: T3DM's, and all the
 * others (every other folder of the samples, whatever it holds). */
Test(dump_build, every_t3dm_sample_round_trips, .timeout = 600)
{
    REQUIRE_SAMPLES();
    tally t = {0};
    walk(sample_path("t3dm"), &t);
    expect_tally("T3DM samples", &t, 34, 34);
}

Test(dump_build, every_other_sample_round_trips, .timeout = 600)
{
    REQUIRE_SAMPLES();
    tally t = {0};
    walk_but(sample_path(""), "t3dm", &t);
    /* 12 of the 17 dumped build: all but J3D, whose built files do not check yet (sections
     * not padded to 32, the file size, SHP1's shared tables: the builder's limit, not the
     * JSON's: as_builder in expect_tally), and
     * dynamic_multipart.p3m, whose texture is short of pixels: what the builder makes must
     * check before it is saved (--keep-layout still writes it back byte for byte). */
    expect_tally("other samples", &t, 17, 12);
}

/* ---- the dump's shapes ---- */

static jv *dump_of_file(const char *path, const char *options)
{
    cli_result *r = cli_runf("dump %s %s", path, options);
    cr_assert_eq(r->status, 0, "%s", r->err);
    char error[256];
    jv *v = jv_parse(r->out, error, sizeof error);
    cr_assert_not_null(v, "not JSON: %s", error);
    return v;
}

static jv *dump_of(const char *args)
{
    cli_result *r = cli_run(args);
    cr_assert_eq(r->status, 0, "%s: %s", args, r->err);
    return parse_or_fail(r->out);
}

static const jv *material_of(const jv *dump)
{
    const jv *chunks = jv_get(jv_get(dump, "root"), "chunk_data");
    for (size_t i = 0; i < chunks->count; i++) {
        const jv *body = jv_get(&chunks->items[i], "body");
        if (strcmp(jv_get(body, "case")->string, "M") == 0)
            return jv_get(body, "value");
    }
    cr_assert_fail("no material");
    return NULL;
}

Test(dump_build, shapes_are_regular)
{
    jv *v = dump_of("dump " PYRAMID);
    cr_expect_eq(v->count, 4, "format, kind, revision, root and nothing else");
    cr_expect_str_eq(v->keys[0], "format");
    cr_expect_str_eq(v->keys[3], "root");
    const jv *root = jv_get(v, "root");
    const jv *strings = jv_get(root, "strings");
    cr_expect_eq(strings->kind, JV_STRING, "bytes in full, as hex");
    cr_expect_gt(strings->length, 2);
    const jv *chunk0 = &jv_get(root, "chunk_data")->items[0];
    const jv *body = jv_get(chunk0, "body");
    cr_expect_eq(body->count, 3, "a switch is {case, value, raw}");
    const jv *index_chunk = jv_get(&jv_get(root, "chunk_data")->items[3], "body");
    cr_expect_str_eq(jv_get(index_chunk, "case")->string, "I");
    cr_expect_eq(jv_get(index_chunk, "value")->kind, JV_NULL, "a raw case has no value");
    cr_expect_gt(jv_get(index_chunk, "raw")->length, 0);
    const jv *material = material_of(v);
    const jv *fog = jv_get(material, "fog_mode");
    cr_expect_eq(fog->kind, JV_OBJECT, "an enum is {name, value}");
    cr_expect_not_null(jv_get(fog, "name"));
    cr_expect_not_null(jv_get(fog, "value"));
    jv_free(v);
}

Test(dump_build, compact_is_one_line)
{
    cli_result *r = cli_run("dump --compact " PYRAMID);
    cr_expect_eq(r->status, 0);
    char *nl = strchr(r->out, '\n');
    cr_expect(nl && nl[1] == '\0', "one line, ending with a newline");
    jv_free(parse_or_fail(r->out));
}

/* Replaces the first `from` in the text by `to`. */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    cr_assert_not_null(at, "no '%s' in the dump", from);
    size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return out;
}

Test(dump_build, an_edited_dump_builds_a_consistent_file)
{
    cli_result *r = cli_run("dump " PYRAMID);
    cr_assert_eq(r->status, 0);
    /* a longer name: the string table and every offset after it must move */
    char *edited = replaced(r->out, "\"name_str\": \"pyramid\"", "\"name_str\": \"a much longer pyramid name\"");
    save_text(TMP_JSON, edited);
    free(edited);
    r = cli_runf("build %s -o %s", TMP_JSON, TMP_OUT);
    cr_assert_eq(r->status, 0, "%s", r->err);
    r = cli_runf("check --no-set %s --format t3dm", TMP_OUT);
    cr_expect_eq(r->status, 0, "the rebuilt file is valid: %s%s", r->out, r->err);
    jv *v = dump_of_file(TMP_OUT, "--format t3dm");
    const jv *object = jv_get(jv_get(&jv_get(jv_get(v, "root"), "chunk_data")->items[0], "body"), "value");
    cr_expect_str_eq(jv_get(object, "name_str")->string, "a much longer pyramid name");
    jv_free(v);
    unlink(TMP_JSON);
    unlink(TMP_OUT);
}

Test(dump_build, integers_beyond_2_to_53_are_strings)
{
    cli_result *r = cli_run("dump " PYRAMID);
    cr_assert_eq(r->status, 0);
    /* the material's 64-bit colour combiner, set to the largest u64 */
    const char *key = "\"color_combiner\": ";
    char *at = strstr(r->out, key);
    cr_assert_not_null(at);
    char *end = strchr(at, ',');
    char *edited = malloc(strlen(r->out) + 64);
    snprintf(edited, strlen(r->out) + 64, "%.*s\"18446744073709551615\"%s", (int)(at + strlen(key) - r->out), r->out, end);
    save_text(TMP_JSON, edited);
    free(edited);
    r = cli_runf("build --keep-layout %s -o %s", TMP_JSON, TMP_OUT);
    cr_assert_eq(r->status, 0, "%s", r->err);
    r = cli_runf("dump %s", TMP_OUT);
    cr_expect(strstr(r->out, "\"color_combiner\": \"18446744073709551615\"") != NULL, "exact, as a string");
    unlink(TMP_JSON);
    unlink(TMP_OUT);
}

/* ---- bad JSON gets a clear error and writes nothing ---- */

/* The pyramid's dump with `from` replaced by `to` (or `to` alone), built with `options`: exit
 * 1, `message` on stderr, and the output as it was. */
static void expect_refused_by(const char *options, const char *from, const char *to, const char *message)
{
    cli_result *r = cli_run("dump " PYRAMID);
    cr_assert_eq(r->status, 0);
    char *edited = from ? replaced(r->out, from, to) : strdup(to);
    save_text(TMP_JSON, edited);
    free(edited);
    save_text(TMP_OUT, "the previous file");
    r = cli_runf("build %s %s -o %s", options, TMP_JSON, TMP_OUT);
    cr_expect_eq(r->status, 1, "%s: exit %d", message, r->status);
    cr_expect(strstr(r->err, message) != NULL, "wanted '%s' in: %s", message, r->err);
    cr_expect_str_eq(r->out, "");
    uint8_t *d;
    size_t n;
    cr_assert(load_file(TMP_OUT, &d, &n));
    cr_expect(n == 17 && memcmp(d, "the previous file", 17) == 0, "the output was touched: %s", message);
    free(d);
    unlink(TMP_JSON);
    unlink(TMP_OUT);
}

static void expect_refused(const char *from, const char *to, const char *message)
{
    expect_refused_by("", from, to, message);
}

/* Both ways of building: the builder's and the replay writer's. */
static void expect_refused_both(const char *from, const char *to, const char *message)
{
    expect_refused_by("", from, to, message);
    expect_refused_by("--keep-layout", from, to, message);
}

Test(dump_build, bad_json_is_refused_with_path_and_line)
{
    expect_refused("\"part_count\": 1", "\"part_count\": 70000", "part_count (line ");
    expect_refused("\"part_count\": 1", "\"part_count\": 70000", "70000 does not fit in u16");
    expect_refused("\"part_count\": 1", "\"part_cuont\": 1", "Object has no field 'part_cuont'");
    expect_refused("\"part_count\": 1", "\"part_count\": \"one\"", "'one' is not an integer");
    expect_refused("\"name\": \"O\"", "\"name\": \"Q\"", "'Q' is not a value of ChunkType");
    expect_refused("\"name\": \"O\"", "\"name\": \"A\"", "the name and the value (79) disagree");
    expect_refused("\"case\": \"O\"", "\"case\": \"Z\"", "no case 'Z' (cases: O, A, B, V, I, M, S, default)");
    expect_refused("\"format\": \"t3dm\"", "\"format\": \"t4dm\"", "unknown format 't4dm'");
    expect_refused(NULL, "{\"format\": \"t3dm\", \"root\": [1, 2,]}", "not JSON: line 1, column 34");
    expect_refused("\"strings\": \"", "\"strings\": \"zz", "is not hex");
}

/* The replay writer writes what the JSON says, constants and counts included: the result is
 * read back and validated as the builder's is, and refused with every error's path and
 * offset when it does not check. */
Test(dump_build, keep_layout_refuses_a_file_that_does_not_check)
{
    expect_refused_by("--keep-layout", "\"magic\": \"T3M\"", "\"magic\": \"XXX\"",
                      "header.magic @0x0: expected \"T3M\", found \"XXX\" (writing where the JSON says)");
    expect_refused_by("--keep-layout", "\"version\": 4", "\"version\": 9", "header.version @0x3: expected 4, found 9");
    expect_refused_by("--keep-layout", "\"chunk_count\": 6", "\"chunk_count\": 60", "nothing written to");
    expect_refused_by("--keep-layout", "\"first_vertex_chunk\": 2", "\"first_vertex_chunk\": 5",
                      "header.first_vertex_chunk @0xc: first vertex-chunk index 5 does not name a vertex chunk");
    expect_refused_by("--keep-layout", "\"first_vertex_chunk\": 2", "\"first_vertex_chunk\": 5",
                      "the file made does not check (1 error); nothing written to");
}

/* The property behind it: whatever the numbers of a dump say, --keep-layout writes a file that
 * `check` accepts, or nothing. Each of the first integers of `path`'s dump (header fields,
 * counts, versions, positions) goes up by one, then becomes 100000. */
static void keep_layout_never_writes_what_check_rejects(const char *path)
{
    cli_result *r = cli_runf("dump %s", path);
    cr_assert_eq(r->status, 0, "%s: %s", path, r->err);
    char *dump = strdup(r->out);
    int mutated = 0, refused = 0;
    const char *p = dump;
    for (int n = 0; n < 16 && (p = strstr(p, "\": ")) != NULL; p += 3) {
        const char *digits = p + 3;
        if (*digits < '0' || *digits > '9')
            continue;
        long value = strtol(digits, NULL, 10);
        size_t len = strspn(digits, "0123456789");
        for (int way = 0; way < 2; way++) {
            char *edited = malloc(strlen(dump) + 32);
            sprintf(edited, "%.*s%ld%s", (int)(digits - dump), dump, way ? 100000 : value + 1, digits + len);
            save_text(TMP_JSON, edited);
            free(edited);
            save_text(TMP_OUT, "the previous file");
            r = cli_runf("build --keep-layout %s -o %s", TMP_JSON, TMP_OUT);
            mutated++;
            if (r->status == 0) {
                cli_result *c = cli_runf("check --no-set %s", TMP_OUT);
                cr_expect_eq(c->status, 0, "%s, integer %d set to %ld: written, but check says: %s%s", path, n,
                             way ? 100000 : value + 1, c->out, c->err);
            } else {
                refused++;
                uint8_t *d;
                size_t size;
                cr_assert(load_file(TMP_OUT, &d, &size));
                cr_expect(size == 17 && memcmp(d, "the previous file", 17) == 0, "%s: refused, but the output changed",
                          path);
                free(d);
            }
        }
        n++;
    }
    cr_expect_gt(refused, 0, "%s: %d edits, none refused: the test tests nothing", path, mutated);
    free(dump);
    unlink(TMP_JSON);
    unlink(TMP_OUT);
}

Test(dump_build, keep_layout_writes_only_what_checks)
{
    keep_layout_never_writes_what_check_rejects(PYRAMID);
    if (samples_present())
        keep_layout_never_writes_what_check_rejects(sample_path("tkl/box.tkl"));
}

/* A number the JSON can write but the file cannot hold is refused, not made infinite. */
Test(dump_build, numbers_out_of_range_are_refused)
{
    expect_refused_both("\"part_count\": 1", "\"part_count\": 1e400",
                        "not JSON: line 118, column 27: number out of range");
    expect_refused_both("\"duration\": 1", "\"duration\": -1e39",
                        "root.chunk_data[1].body.value.duration (line 159, column 25): -1e39 is out of range of f32");
    expect_refused_both("\"duration\": 1", "\"duration\": 1e309", "line 159, column 25: number out of range");
}

/* Which of two equal keys counts is no guess: both are named. */
Test(dump_build, duplicate_keys_are_refused_with_both_places)
{
    expect_refused_both("\"kind\": \"model\",", "\"kind\": \"model\",\n  \"format\": \"t3dm\",",
                        "not JSON: line 4, column 3: duplicate key 'format' (first at line 2, column 3)");
    expect_refused_both("\"version\": 4,", "\"version\": 4, \"version\": 5,",
                        "line 22, column 21: duplicate key 'version' (first at line 22, column 7)");
}

/* A field split into bits has two spellings (normal_a = 992: x 0, y 31, z 0): the parts must
 * fit, and agree with the number when both are given; either alone is enough, both ways. */
Test(dump_build, bit_fields_are_checked_and_applied)
{
    expect_refused_both("\"normal_a_x\": 0", "\"normal_a_x\": 1000",
                        "pairs[0].normal_a_x (line 195, column 31): 1000 does not fit in 5 bits (signed)");
    expect_refused_both("\"normal_a_x\": 0", "\"normal_a_x\": 3",
                        "pairs[0].normal_a (line 194, column 29): 992 and its parts (normal_a_x, ...) disagree");
    expect_refused_both("\"normal_a\": 992", "\"normal_a\": 993", "993 and its parts");
    const char *ways[] = {"", "--keep-layout"};
    for (int w = 0; w < 2; w++) {
        cli_result *r = cli_run("dump " PYRAMID);
        cr_assert_eq(r->status, 0);
        /* the parts alone, edited: x = -1 gives 0xF800 | 992 */
        char *edited = replaced(r->out, "\"normal_a\": 992,", "");
        char *edited2 = replaced(edited, "\"normal_a_x\": 0", "\"normal_a_x\": -1");
        save_text(TMP_JSON, edited2);
        free(edited);
        free(edited2);
        r = cli_runf("build %s %s -o %s", ways[w], TMP_JSON, TMP_OUT);
        cr_assert_eq(r->status, 0, "%s: %s", ways[w], r->err);
        r = cli_runf("dump %s", TMP_OUT);
        cr_expect(strstr(r->out, "\"normal_a\": 64480,\n                \"normal_a_x\": -1,") != NULL, "%s: %s", ways[w],
                  r->out);
        /* the number alone: the parts follow it */
        edited = replaced(r->out, "\"normal_a_x\": -1,", "");
        save_text(TMP_JSON, edited);
        free(edited);
        r = cli_runf("build %s %s -o %s", ways[w], TMP_JSON, TMP_OUT);
        cr_assert_eq(r->status, 0, "%s: %s", ways[w], r->err);
        r = cli_runf("dump %s", TMP_OUT);
        cr_expect(strstr(r->out, "\"normal_a\": 64480,\n                \"normal_a_x\": -1,") != NULL, "%s", ways[w]);
    }
    unlink(TMP_JSON);
    unlink(TMP_OUT);
}

/* Positions far past the data would make a file of zeros as large as they say (a 10 KB JSON,
 * a 50 MB file, in memory first): the file may be 8 times the JSON, or 1 MiB. */
Test(dump_build, output_size_is_bounded_by_the_json)
{
    expect_refused_by("--keep-layout", "\"strings_at\": 524", "\"strings_at\": 50000000",
                      "strings @0x48: position 0x2faf080 is past the output limit");
    expect_refused_by("--keep-layout", "\"strings_at\": 524", "\"strings_at\": 50000000",
                      "bytes of JSON make a file of at most 1048576 bytes");
}

/* The parser's tree: a small multiple of the text, even for the densest JSON there is. */
Test(dump_build, json_parser_memory_is_bounded_by_the_text)
{
    size_t values = 1000000, size = 2 * values + 1;
    char *dense = malloc(size + 1);
    dense[0] = '[';
    for (size_t i = 0; i < values; i++)
        memcpy(dense + 1 + 2 * i, i + 1 < values ? "0," : "0]", 2);
    dense[size] = '\0';
    jv *v = parse_or_fail(dense);
    cr_expect_eq(v->count, values);
    cr_expect_leq(jv_memory(v), 18 * size, "[0,0,...]: %zu bytes of tree for %zu of text", jv_memory(v), size);
    jv_free(v);
    free(dense);
    cli_result *r = cli_run("dump " PYRAMID);
    cr_assert_eq(r->status, 0);
    v = parse_or_fail(r->out);
    cr_expect_leq(jv_memory(v), 3 * strlen(r->out), "a dump: %zu bytes of tree for %zu of text", jv_memory(v),
                  strlen(r->out));
    jv_free(v);
}

/* The parser reads the loaded file in place: no zero after it. Every prefix of a dump, in a
 * buffer of exactly its size (AddressSanitizer watches the end), is refused but the whole. */
Test(dump_build, json_parser_stays_inside_the_text)
{
    cli_result *r = cli_run("dump " PYRAMID);
    cr_assert_eq(r->status, 0);
    size_t size = strlen(r->out);
    size_t trimmed = size;
    while (trimmed && r->out[trimmed - 1] == '\n')
        trimmed--;
    for (size_t n = 0; n <= size; n++) {
        char *exact = malloc(n ? n : 1);
        memcpy(exact, r->out, n);
        char error[256];
        jv *v = jv_parse_n(exact, n, error, sizeof error);
        cr_expect_eq(v != NULL, n >= trimmed, "%zu of %zu bytes: %s", n, size, v ? "parsed" : error);
        jv_free(v);
        free(exact);
    }
}

/* Many keys are compared by hashing: a duplicate among them is still found, both named. */
Test(dump_build, duplicate_keys_in_a_large_object)
{
    size_t keys = 100000;
    char *text = malloc(keys * 24 + 64), *p = text;
    p += sprintf(p, "{");
    for (size_t i = 0; i < keys; i++)
        p += sprintf(p, "%s\"k%zu\": %zu", i ? ",\n" : "", i, i);
    p += sprintf(p, "}");
    jv *v = parse_or_fail(text);
    cr_expect_eq(v->count, keys);
    cr_expect_eq(jv_get(v, "k99999")->number, 99999);
    jv_free(v);
    sprintf(p - 1, ",\n\"k777\": 1}");
    char error[256];
    cr_expect_null(jv_parse(text, error, sizeof error));
    cr_expect_str_eq(error, "line 100001, column 1: duplicate key 'k777' (first at line 778, column 1)");
    free(text);
}

Test(dump_build, build_needs_an_output_and_reads_stdin)
{
    cli_result *r = cli_run("build " PYRAMID);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "-o OUT is required") != NULL, "%s", r->err);
    /* the builder, laying the pyramid out anew from its JSON, agrees with the hand-made file */
    const char *out = TMP_OUT;
    r = cli_runf("dump %s | %s build - -o %s && cmp %s %s && echo same", PYRAMID, BINFORM, out, out, PYRAMID);
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect_str_eq(r->out, "same\n");
    r = cli_runf("dump - < %s | %s build --keep-layout - -o - > %s && cmp %s %s && echo same", PYRAMID, BINFORM, out, out,
            PYRAMID);
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect_str_eq(r->out, "same\n");
    r = cli_runf("build --keep-layout %s-missing -o %s", TMP_JSON, out);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "cannot open") != NULL, "%s", r->err);
    unlink(TMP_OUT);
}

Test(dump_build, schema_checker_can_fail)
{
    jv *schema = load_schema("t3dm");
    jv *v = dump_of("dump " PYRAMID);
    char why[512];
    cr_expect(schema_check(schema, v, why, sizeof why), "%s", why);
    jv_free(v);
    const char *mutations[][2] = {
        {"\"format\": \"t3dm\"", "\"format\": \"p3m\""},
        {"\"_offset\": 0,", "\"_offset\": -1,"},
        {"\"chunk_count\": 6", "\"chunk_count\": 6, \"extra\": 1"},
        {"\"version\": 4", "\"version\": 400"},
        {"\"name\": \"O\"", "\"name\": \"Q\""},
    };
    for (size_t i = 0; i < sizeof mutations / sizeof mutations[0]; i++) {
        cli_result *r = cli_run("dump " PYRAMID);
        char *edited = replaced(r->out, mutations[i][0], mutations[i][1]);
        v = parse_or_fail(edited);
        cr_expect(!schema_check(schema, v, why, sizeof why), "mutation %zu passed the schema", i);
        jv_free(v);
        free(edited);
    }
    jv_free(schema);
}
