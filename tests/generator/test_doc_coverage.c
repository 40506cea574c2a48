/* bfgen --report doc_coverage: every row of the documents' tables has a counterpart in the
 * schemas (T3DM completely), and a row without one is listed, whatever the document's style. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUTPUT_MAX (256 * 1024)

typedef struct run {
    int status;
    char *out;
} run;

/* Runs a shell command in the project folder; keeps its output and exit status. */
static run sh(const char *cmd)
{
    run r = {-1, calloc(1, OUTPUT_MAX)};
    cr_assert_not_null(r.out);
    char full[4096];
    snprintf(full, sizeof full, "cd '%s' && %s 2>&1", BF_PROJECT_DIR, cmd);
    FILE *p = popen(full, "r");
    cr_assert_not_null(p);
    size_t n = fread(r.out, 1, OUTPUT_MAX - 1, p);
    r.out[n] = '\0';
    int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

/* covered/total of a document, from its "== NAME ..." block; -1 when absent. */
static void coverage_of(const char *out, const char *doc, int *covered, int *total)
{
    char head[256];
    snprintf(head, sizeof head, "== %s ", doc);
    *covered = *total = -1;
    const char *p = strstr(out, head);
    if (!p)
        return;
    p = strstr(p, "   covered ");
    if (p)
        sscanf(p, "   covered %d/%d", covered, total);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static void make_dir(char *tmpl)
{
    cr_assert_not_null(mkdtemp(tmpl));
}

static void remove_dir(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

Test(doc_coverage, t3dm_covers_its_document)
{
    const char *shared = getenv("BF_SHARED_DIR");
    char seeds[1024];
    snprintf(seeds, sizeof seeds, "%s/seeds", shared && shared[0] ? shared : BF_SHARED_DIR);
    struct stat st;
    if (stat(seeds, &st) != 0)
        cr_skip_test("the format documents are not at %s (set SHARED=...); skipping", seeds);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "build/bin/bfgen --report doc_coverage schemas/*.yaml -- '%s'", seeds);
    run r = sh(cmd);
    cr_expect_eq(r.status, 0, "the report must find no schema problems:\n%s", r.out);
    int covered, total;
    coverage_of(r.out, "002_105799ad8377599f.txt", &covered, &total);
    cr_expect_gt(total, 90, "the T3DM document has about a hundred rows; found %d:\n%s", total, r.out);
    cr_expect_eq(covered, total, "T3DM must be covered completely (%d/%d):\n%s", covered, total, r.out);
    /* every document is reported, with or without a schema */
    static const char *const docs[] = {"000_ef55a234b874884f.txt", "001_fedd28de7514aeb4.txt", "003_603c6ace2757d168.txt",
                                       "004_518e632a2d8eae98.txt"};
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        coverage_of(r.out, docs[i], &covered, &total);
        cr_expect_gt(total, 0, "%s: no rows found:\n%s", docs[i], r.out);
        cr_expect(covered >= 0 && covered <= total, "%s: %d/%d", docs[i], covered, total);
    }
    /* the base pointer the loader sets at runtime is an absent row, with its reason */
    cr_expect(strstr(r.out, "absent   Mesh BVH (B) | 0x00 |") != NULL, "%s", r.out);
    free(r.out);
}

/* A Markdown document with an offset table and a table without offsets (P3M style). */
static const char MD_DOC[] = "# Sample\n\n## Header\n\n"
                             "| Offset | Type | Description |\n|--------|------|-------------|\n"
                             "| 0x00 | `char[4]` | Magic |\n| 0x04 | `u16` | Count |\n| 0x06 | `u16` | Flags \\| mode |\n"
                             "| 0x08 | `u32` | Base pointer (runtime) |\n\n"
                             "## Item\n\n| Type | Value | Description\n| -\n| `u8` | -- | Kind of the item\n"
                             "| `u16` | -- | Weight \\(grams\\)\n\n"
                             "#### Item kind\n\n| Name | Value\n| -\n| `KIND_A` | 0\n";

#define MD_SCHEMA_HEAD                                                                                             \
    "format: cov_md\nendian: little\ndocument: md.txt\nfiles:\n  - { name: f, root: Header }\ntypes:\n"      \
    "  Header:\n    tables: [\"Header\"]\n"                                                                          \
    "    absent_rows:\n      - { row: \"0x08\", reason: \"Set at runtime, not stored.\" }\n    fields:\n"         \
    "      - { name: magic, type: \"char[4]\", at: 0x00, doc: \"Magic.\" }\n"                                     \
    "      - { name: count, type: u16, at: 0x04, doc: \"Count.\" }\n"
#define MD_SCHEMA_TAIL                                                                                             \
    "      - { name: items, type: \"Item[count]\", doc: \"Items.\" }\n"                                           \
    "  Item:\n    tables: [\"Item\"]\n    fields:\n"                                                               \
    "      - { name: kind, type: u8, doc: \"Kind of the item.\" }\n"                                              \
    "      - { name: weight, type: u16, doc: \"Weight (grams).\" }\n"

Test(doc_coverage, a_missing_field_is_listed)
{
    char dir[] = "/tmp/bf_doccov_XXXXXX";
    make_dir(dir);
    write_file(dir, "md.txt", MD_DOC);
    write_file(dir, "full.yaml", MD_SCHEMA_HEAD "      - { name: flags, type: u16, at: 0x06, doc: \"Flags.\" }\n" MD_SCHEMA_TAIL);
    write_file(dir, "missing.yaml", MD_SCHEMA_HEAD MD_SCHEMA_TAIL);
    char cmd[1024];
    int covered, total;

    snprintf(cmd, sizeof cmd, "build/bin/bfgen --report doc_coverage %s/full.yaml -- %s/md.txt", dir, dir);
    run r = sh(cmd);
    cr_expect_eq(r.status, 0, "%s", r.out);
    coverage_of(r.out, "md.txt", &covered, &total);
    cr_expect(covered == 6 && total == 6, "the enum table is not a layout table; every row is covered:\n%s", r.out);
    cr_expect(strstr(r.out, "absent   Header | 0x08 | u32 | Base pointer (runtime)") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "Header.absent_rows: Set at runtime, not stored.") != NULL, "%s", r.out);
    free(r.out);

    snprintf(cmd, sizeof cmd, "build/bin/bfgen --report doc_coverage %s/missing.yaml -- %s", dir, dir);
    r = sh(cmd);
    coverage_of(r.out, "md.txt", &covered, &total);
    cr_expect(covered == 5 && total == 6, "%s", r.out);
    cr_expect(strstr(r.out, "missing  Header | 0x06 | u16 | Flags | mode  (line 9)") != NULL,
              "the row without a field is listed:\n%s", r.out);
    cr_expect(strstr(r.out, "0x04 | u16 | Count") == NULL, "covered rows are not listed:\n%s", r.out);
    free(r.out);
    remove_dir(dir);
}

Test(doc_coverage, moved_fields_use_the_document_offset)
{
    char dir[] = "/tmp/bf_doccov_XXXXXX";
    make_dir(dir);
    write_file(dir, "md.txt", MD_DOC);
    /* real files have the flags at 0x08: without document_at the 0x06 row has no counterpart */
    const char *moved = MD_SCHEMA_HEAD "      - { name: pad, type: u16, at: 0x06, document_at: 0x0A, doc: \"Padding.\" }\n"
                                       "      - { name: flags, type: u16, at: 0x08, %s doc: \"Flags.\" }\n" MD_SCHEMA_TAIL;
    char schema[4096];
    snprintf(schema, sizeof schema, moved, "document_at: 0x06,");
    write_file(dir, "with.yaml", schema);
    snprintf(schema, sizeof schema, moved, "");
    write_file(dir, "without.yaml", schema);
    char cmd[1024];
    int covered, total;
    snprintf(cmd, sizeof cmd, "build/bin/bfgen --report doc_coverage %s/with.yaml -- %s/md.txt", dir, dir);
    run r = sh(cmd);
    coverage_of(r.out, "md.txt", &covered, &total);
    cr_expect(covered == 6 && total == 6, "%s", r.out);
    free(r.out);
    snprintf(cmd, sizeof cmd, "build/bin/bfgen --report doc_coverage %s/without.yaml -- %s/md.txt", dir, dir);
    r = sh(cmd);
    coverage_of(r.out, "md.txt", &covered, &total);
    cr_expect(covered == 5 && total == 6, "%s", r.out);
    cr_expect(strstr(r.out, "missing  Header | 0x06 |") != NULL, "%s", r.out);
    free(r.out);
    remove_dir(dir);
}

/* Toshi style: "a | b | c |" rows under a title line, a row's cells continuing on the next
 * line, "~~" for "right after the previous one". */
static const char PLAIN_DOC[] = "Some Format (.SMF)\nThe block starts at byte 8.\nBlock Header\n"
                                "Offset | Type | Meaning |\n---|---|---|\n+0 | uint32 | Size of the block |\n"
                                "+4 | uint32 |\nNumber of entries |\n~~ | entry[numEntries] | The entries |\n"
                                "Notes\n- nothing else\n";
static const char PLAIN_SCHEMA[] =
    "format: cov_plain\nendian: little\ndocument: plain.txt\nfiles:\n  - { name: f, root: Block }\ntypes:\n"
    "  Block:\n    tables: [\"Block Header\"]\n    fields:\n"
    "      - { name: size, type: u32, at: 0, doc: \"Size of the block.\" }\n"
    "      - { name: count, type: u32, at: 4, doc: \"Number of entries.\" }\n"
    "      - { name: entries, type: \"u16[count]\", doc: \"The entries, one after another.\" }\n";

/* J3D style: a wiki page whose older revision comes first; whitespace-separated rows under a
 * title that stands alone, with continuation lines. */
static const char WIKI_DOC[] = "Revision as of 2020\n\nOffset Type Description\n0x00 Int32 A field the page removed\n\n"
                               "Latest revision as of 18:44, 1 June 2026\n\nChunk Header\n\n"
                               "The chunk starts with its tag.\n\nOffset Type Description\n0x00 String Always ABCD (ASCII)\n"
                               "0x04 Int32 The total size of this chunk\nIncluding the header.\n0x08 Int16 Entry count\n"
                               "0 = none\n\nEntry Kinds\n\nValue Name Description\n0x00 None Nothing\n";
static const char WIKI_SCHEMA[] =
    "format: cov_wiki\nendian: big\ndocument: wiki.txt\nfiles:\n  - { name: f, root: Chunk }\ntypes:\n"
    "  Chunk:\n    tables: [\"Chunk Header\"]\n    fields:\n"
    "      - { name: tag, type: \"char[4]\", at: 0x00, doc: \"Always ABCD.\" }\n"
    "      - { name: size, type: u32, at: 0x04, doc: \"Size.\" }\n"
    "      - { name: count, type: u16, at: 0x08, doc: \"Entry count.\" }\n";

Test(doc_coverage, every_document_style)
{
    char dir[] = "/tmp/bf_doccov_XXXXXX";
    make_dir(dir);
    write_file(dir, "plain.txt", PLAIN_DOC);
    write_file(dir, "plain.yaml", PLAIN_SCHEMA);
    write_file(dir, "wiki.txt", WIKI_DOC);
    write_file(dir, "wiki.yaml", WIKI_SCHEMA);
    write_file(dir, "orphan.txt", "## Lonely\n\n| Offset | Type | Description |\n|---|---|---|\n| 0x00 | `u8` | A |\n"
                                  "| 0x01 | `u8` | B |\n");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "build/bin/bfgen --report doc_coverage %s/plain.yaml %s/wiki.yaml -- %s", dir, dir, dir);
    run r = sh(cmd);
    cr_expect_eq(r.status, 0, "%s", r.out);
    int covered, total;
    coverage_of(r.out, "plain.txt", &covered, &total);
    cr_expect(covered == 3 && total == 3, "continued rows and '~~' rows are read and matched:\n%s", r.out);
    coverage_of(r.out, "wiki.txt", &covered, &total);
    cr_expect(covered == 3 && total == 3, "only the latest revision counts:\n%s", r.out);
    coverage_of(r.out, "orphan.txt", &covered, &total);
    cr_expect(covered == 0 && total == 2, "a document without a schema is 0/N:\n%s", r.out);
    cr_expect(strstr(r.out, "orphan.txt (no schema)") != NULL, "%s", r.out);
    free(r.out);
    remove_dir(dir);
}

Test(doc_coverage, unknown_tables_and_rows_are_errors)
{
    char dir[] = "/tmp/bf_doccov_XXXXXX";
    make_dir(dir);
    write_file(dir, "md.txt", MD_DOC);
    write_file(dir, "bad.yaml",
               "format: cov_bad\nendian: little\ndocument: md.txt\nfiles:\n  - { name: f, root: Header }\ntypes:\n"
               "  Header:\n    tables: [\"Heder\"]\n"
               "    absent_rows:\n      - { row: \"0x40\", reason: \"No such row.\" }\n    fields:\n"
               "      - { name: magic, type: \"char[4]\", at: 0x00, doc: \"Magic.\" }\n");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "build/bin/bfgen --report doc_coverage %s/bad.yaml -- %s/md.txt", dir, dir);
    run r = sh(cmd);
    cr_expect_eq(r.status, 1, "%s", r.out);
    cr_expect(strstr(r.out, "Header.tables names 'Heder', which is not a table of md.txt") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "Header.absent_rows names row '0x40'") != NULL, "%s", r.out);
    free(r.out);
    remove_dir(dir);
}

/* A schema written from sources rather than a document (libdragon's sprite) is legitimate:
 * listed as "no document", exit 0; only naming document tables without a document is an error. */
Test(doc_coverage, a_schema_without_a_document_is_listed)
{
    char dir[] = "/tmp/bf_doccov_XXXXXX";
    make_dir(dir);
    write_file(dir, "md.txt", MD_DOC);
    write_file(dir, "free.yaml",
               "format: cov_free\nendian: big\nfiles:\n  - { name: f, root: Header }\ntypes:\n"
               "  Header:\n    fields:\n      - { name: magic, type: \"char[4]\", at: 0x00, doc: \"Magic.\" }\n");
    write_file(dir, "tabled.yaml",
               "format: cov_tabled\nendian: big\nfiles:\n  - { name: f, root: Header }\ntypes:\n"
               "  Header:\n    tables: [\"Header\"]\n    fields:\n"
               "      - { name: magic, type: \"char[4]\", at: 0x00, doc: \"Magic.\" }\n");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "build/bin/bfgen --report doc_coverage %s/free.yaml -- %s/md.txt", dir, dir);
    run r = sh(cmd);
    cr_expect_eq(r.status, 0, "%s", r.out);
    cr_expect(strstr(r.out, "== cov_free (") != NULL && strstr(r.out, "): no document") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "(no document)") != NULL, "the summary lists it:\n%s", r.out);
    int covered, total;
    coverage_of(r.out, "md.txt", &covered, &total);
    cr_expect(covered == 0 && total == 6, "the document is still reported, without a schema:\n%s", r.out);
    free(r.out);

    snprintf(cmd, sizeof cmd, "build/bin/bfgen --report doc_coverage %s/tabled.yaml -- %s/md.txt", dir, dir);
    r = sh(cmd);
    cr_expect_eq(r.status, 1, "%s", r.out);
    cr_expect(strstr(r.out, "Header.tables names 'Header', but the schema has no document") != NULL, "%s", r.out);
    free(r.out);
    remove_dir(dir);
}

/* The project's own sprite schema has no document and the report says so. */
Test(doc_coverage, sprite_has_no_document)
{
    char dir[] = "/tmp/bf_doccov_XXXXXX";
    make_dir(dir);
    write_file(dir, "md.txt", MD_DOC);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "build/bin/bfgen --report doc_coverage schemas/sprite.yaml -- %s/md.txt", dir);
    run r = sh(cmd);
    cr_expect_eq(r.status, 0, "%s", r.out);
    cr_expect(strstr(r.out, "== sprite (schemas/sprite.yaml): no document") != NULL, "%s", r.out);
    free(r.out);
    remove_dir(dir);
}

/* The generated page of a format shows the files each kind reads with it (schema key
 * `members`): patterns in search order, each check with its severity and origin. */
Test(doc_coverage, format_pages_show_file_sets)
{
    char dir[] = "/tmp/bf_doccov_XXXXXX";
    make_dir(dir);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "build/bin/bfgen --emit docs --out %s schemas/t3dm.yaml schemas/tmd.yaml schemas/tkl.yaml "
                              "schemas/tml.yaml", dir);
    run r = sh(cmd);
    cr_assert_eq(r.status, 0, "%s", r.out);
    free(r.out);

    /* the section only: from the kind's anchor to the Types section */
    snprintf(cmd, sizeof cmd, "sed -n '/id=\"members-model\"/,/id=\"types\"/p' %s/docs/t3dm.md", dir);
    r = sh(cmd);
    cr_expect(strstr(r.out, "### Files read with model") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "| `stream` | `stream` | 1. `{stem}.{n}.sdata`<br>One per `Animation` of `owner.chunk_data.body`.") !=
                  NULL, "%s", r.out);
    cr_expect(strstr(r.out, "(an orphan): a warning.") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "| `stream` | Every `member.keyframes.channel` must be below the sum "
                            "`owner.quat_channel_count + owner.scalar_channel_count`.<br>*Origin: Keyframe: \"Channel "
                            "index\"") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, " | error |") != NULL, "%s", r.out);
    free(r.out);

    snprintf(cmd, sizeof cmd, "sed -n '/id=\"members-model\"/,/id=\"types\"/p' %s/docs/tmd.md", dir);
    r = sh(cmd);
    cr_expect(strstr(r.out, "| `materials` | `tml.library` | 1. `../matlibs/*.tml`<br>2. `../tml/*.tml`<br>3. `*.tml` | "
                            "The material libraries") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "2. `../tkl/{header.category}.tkl`") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "| `materials` | Every `owner.lod.levels.meshes.material` must be one of "
                            "`member.material_names` (ignoring case).") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "LUT for material names\"* | warning |") != NULL, "%s", r.out);
    free(r.out);

    /* the HTML page renders the same model */
    snprintf(cmd, sizeof cmd, "grep -c -e '<h3 id=\"members-model\">Files read with model</h3>' -e "
                              "'1. <code>{stem}.{n}.sdata</code>' %s/docs/t3dm.html", dir);
    r = sh(cmd);
    cr_expect_eq(atoi(r.out), 2, "%s", r.out);
    free(r.out);
    remove_dir(dir);
}
