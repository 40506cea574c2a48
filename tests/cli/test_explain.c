/* binform explain: the annotated view is built from the reflection tables alone (checked here
 * on a construct fixture with gaps, alignment, tails, switches and string references, which
 * binform itself does not know), and the command writes its HTML page atomically. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cx_chunks.h"
#include "samples.h"

/* The explain code is part of the CLI, not of a library: it is compiled in here. */
#include "../../cli/binform/explain.c"
#include "../../cli/binform/explain_html.c"
#include "../../cli/binform/explain_text.c"

extern const bf_format_desc cx_chunks_format;

#define BINFORM BF_PROJECT_DIR "/build/san/bin/binform"

/* The cx_chunks fixture: bytes 0x14..0x17 lie between the chunk table and the first chunk,
 * where no field reads. */
static const uint8_t chunks_file[] = {
    'C', 'X', 'C', 0x03,                    /* 0x00 magic, chunk_count = 3 */
    0x00, 0x00, 0x00, 0x48,                 /* 0x04 string_offset */
    'N', 0x00, 0x00, 0x18,                  /* 0x08 chunks[0]: N @0x18 */
    'P', 0x00, 0x00, 0x28,                  /* 0x0C chunks[1]: P @0x28 */
    'X', 0x00, 0x00, 0x40,                  /* 0x10 chunks[2]: X @0x40 */
    0x00, 0x00, 0x00, 0x00,                 /* 0x14 gap */
    0x00, 0x02, 0x00, 0x08,                 /* 0x18 N: name_count = 2, refs_offset = 8 */
    0xAA, 0xBB, 0xCC, 0xDD,                 /* 0x1C (the region's tail) */
    0x00, 0x00, 0x00, 0x01,                 /* 0x20 refs[0].name = 1 -> "lid" */
    0x00, 0x00, 0x00, 0x00,                 /* 0x24 refs[1].name = 0 -> none */
    0x00, 0x03,                             /* 0x28 P: point_count = 3 */
    0, 0, 0, 0, 0, 0,                       /* 0x2A alignment to 8 */
    0x00, 0x01, 0x00, 0x02,                 /* 0x30 points[0] = (1, 2) */
    0xFF, 0xFF, 0xFF, 0xFE,                 /* 0x34 points[1] = (-1, -2) */
    0x01, 0x2C, 0xFE, 0xD4,                 /* 0x38 points[2] = (300, -300) */
    0xEE, 0xEE, 0xEE, 0xEE,                 /* 0x3C chunk padding (the tail) */
    'R', 'A', 'W', 'D', 'A', 'T', 'A', '!', /* 0x40 X: opaque */
    'S', 'l', 'i', 'd', 0,                  /* 0x48 string table */
};

typedef struct explained {
    bf_arena arena;
    uint8_t claimed[sizeof chunks_file / 8 + 1];
    xtree tree;
    char *text, *html;
} explained;

static void explain_fixture(explained *x)
{
    memset(x, 0, sizeof *x);
    bf_arena_init(&x->arena, bf_alloc_default(), 0);
    bf_read_opts opts = {.claimed = x->claimed};
    void *root;
    bf_error err;
    const bf_entry_desc *e = &cx_chunks_format.entries[0];
    cr_assert(e->read(chunks_file, sizeof chunks_file, &x->arena, &opts, &root, &err), "%s", err.message);
    cr_assert(explain_build(&x->tree, e->root, root, chunks_file, sizeof chunks_file, x->claimed));
    explain_info info = {"fixture.cxc", "cx_chunks", "file", "fixture", "big"};
    size_t len;
    FILE *out = open_memstream(&x->text, &len);
    explain_write_text(out, &x->tree, &info);
    fclose(out);
    out = open_memstream(&x->html, &len);
    explain_write_html(out, &x->tree, &info);
    fclose(out);
}

static void explained_free(explained *x)
{
    explain_free(&x->tree);
    bf_arena_free(&x->arena);
    free(x->text);
    free(x->html);
}

static const xnode *node(const xtree *t, const char *path)
{
    for (size_t i = 0; i < t->count; i++)
        if (strcmp(t->nodes[i].path, path) == 0)
            return &t->nodes[i];
    return NULL;
}

static void expect_range(const xtree *t, const char *path, uint64_t start, uint64_t end)
{
    const xnode *n = node(t, path);
    cr_assert_not_null(n, "no node %s", path);
    cr_expect(n->start == start && n->end == end, "%s: 0x%llx..0x%llx, expected 0x%llx..0x%llx", path,
              (unsigned long long)n->start, (unsigned long long)n->end, (unsigned long long)start,
              (unsigned long long)end);
}

Test(explain, every_range_from_the_tables)
{
    explained x;
    explain_fixture(&x);
    const xtree *t = &x.tree;
    expect_range(t, "", 0, sizeof chunks_file); /* the root is the whole file */
    expect_range(t, "magic", 0x00, 0x03);
    expect_range(t, "chunks", 0x08, 0x14);
    expect_range(t, "chunks[1].offset", 0x0D, 0x10);
    expect_range(t, "strings", 0x48, 0x4D);
    expect_range(t, "bodies[0].body", 0x18, 0x1C);
    expect_range(t, "bodies[0].body (tail)", 0x1C, 0x28);
    expect_range(t, "bodies[0].body.refs[0]", 0x20, 0x24);
    expect_range(t, "bodies[1].body.points (padding)", 0x2A, 0x30);
    expect_range(t, "bodies[1].body.points", 0x30, 0x3C);
    expect_range(t, "bodies[1].body.points[2].y", 0x3A, 0x3C);
    expect_range(t, "bodies[2].body", 0x40, 0x48);
    cr_expect_str_eq(node(t, "bodies[0].body")->type, "Names (case N)");
    cr_expect_str_eq(node(t, "bodies[2].body")->type, "bytes (case default)");
    cr_expect_str_eq(node(t, "chunks[1].type")->value, "P (0x50)");
    cr_expect_str_eq(node(t, "bodies[0].body.refs[0].name")->value, "1 → \"lid\"");
    cr_expect_str_eq(node(t, "bodies[0].body.refs[1].name")->value, "0 → (none)");
    cr_expect_str_eq(node(t, "bodies[1].body.points[2].y")->value, "-300");
    cr_expect_str_eq(node(t, "chunks[1].type")->doc, "Chunk type.");
    cr_expect_eq(explain_unclaimed_count(t), 4);
    explained_free(&x);
}

Test(explain, text_lists_fields_and_unclaimed_bytes)
{
    explained x;
    explain_fixture(&x);
    static const char *const lines[] = {
        "fixture.cxc: cx_chunks file (fixture), 77 bytes, 73 read by fields, 4 unclaimed\n",
        "0x0000-0x0002      3    magic: char[3] = \"CXC\"  [43 58 43]  # Magic `CXC`.\n",
        "0x0020-0x0023      4              bodies[0].body.refs[0].name: u32 = 1 → \"lid\"  [00 00 00 01]",
        "0x002a-0x002f      6          bodies[1].body.points (padding): alignment = 6 bytes  [00 00 00 00 00 00]\n",
        "unclaimed: 4 bytes\n0x0014-0x0017      4  (unclaimed)  [00 00 00 00]\n",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        cr_expect(strstr(x.text, lines[i]) != NULL, "expected\n%s\nin\n%s", lines[i], x.text);
    explained_free(&x);
}

Test(explain, html_marks_unclaimed_bytes_and_numbers_every_node)
{
    explained x;
    explain_fixture(&x);
    /* the runs of bytes and their fields: 0x14..0x17 (20..23) are unclaimed (-1), then the
     * N chunk's count (its node, not the chunk's) */
    char run[64];
    snprintf(run, sizeof run, ",20,-1,24,%d,", (int)(node(&x.tree, "bodies[0].body.name_count") - x.tree.nodes));
    cr_expect(strstr(x.html, run) != NULL, "no run '%s' in\n%s", run, x.html);
    /* the whole file, in base64 */
    cr_expect(strstr(x.html, "const DATA = \"Q1hDAwAAAEhOAAAY") != NULL);
    /* every node has its label's data, one line each in L (the page makes the labels) */
    const char *l = strstr(x.html, "const L = [");
    const char *l_end = l ? strstr(l, "];\nconst N = [") : NULL;
    cr_assert(l && l_end, "no L in the page");
    size_t labels = 1;
    for (const char *p = l; (p = strstr(p, ",\n[")) != NULL && p < l_end; p++)
        labels++;
    cr_expect_eq(labels, x.tree.count, "every node has its label: %zu of %zu", labels, x.tree.count);
    cr_expect(strstr(x.html, "http") == NULL, "nothing is fetched");
    cr_expect(strstr(x.html, "</script>\n</body>\n</html>\n") != NULL);
    explained_free(&x);
}

/* The node a byte shows: the innermost one. */
static const xnode *owner_of(const xtree *t, const int32_t *owners, uint64_t b)
{
    return owners[b] < 0 ? NULL : &t->nodes[owners[b]];
}

Test(explain, the_innermost_field_owns_each_byte)
{
    explained x;
    explain_fixture(&x);
    const xtree *t = &x.tree;
    int32_t *owners = explain_owners(t);
    cr_assert_not_null(owners);
    /* the N chunk's region tail (0x1C..0x27) holds its name references, read through an offset:
     * their bytes show the references, the tail only where nothing else is */
    cr_expect_str_eq(owner_of(t, owners, 0x20)->path, "bodies[0].body.refs[0].name");
    cr_expect_str_eq(owner_of(t, owners, 0x27)->path, "bodies[0].body.refs[1].name");
    cr_expect_str_eq(owner_of(t, owners, 0x1C)->path, "bodies[0].body (tail)");
    cr_expect_str_eq(owner_of(t, owners, 0x3B)->path, "bodies[1].body.points[2].y");
    cr_expect_null(owner_of(t, owners, 0x14), "the gap: no field, and the root holds no byte");
    /* everywhere: the owner holds the byte, and no node holding it is deeper */
    for (uint64_t b = 0; b < t->size; b++) {
        const xnode *o = owner_of(t, owners, b);
        for (size_t i = 1; i < t->count; i++) {
            const xnode *n = &t->nodes[i];
            if (b < n->start || b >= n->end)
                continue;
            cr_assert_not_null(o, "byte 0x%llx is in %s but has no owner", (unsigned long long)b, n->path);
            cr_assert_leq(n->depth, o->depth, "byte 0x%llx: %s is deeper than %s", (unsigned long long)b, n->path, o->path);
        }
        if (o)
            cr_assert(o->start <= b && b < o->end);
    }
    free(owners);
    explained_free(&x);
}

/* Explains a read that fails: the tree as far as it was read. */
static void explain_failure(explained *x, const uint8_t *data, size_t size)
{
    memset(x, 0, sizeof *x);
    bf_arena_init(&x->arena, bf_alloc_default(), 0);
    void *root = NULL, *partial = NULL;
    bf_read_opts opts = {.claimed = x->claimed, .partial = &partial};
    bf_error err;
    const bf_entry_desc *e = &cx_chunks_format.entries[0];
    cr_assert_eq(e->read(data, size, &x->arena, &opts, &root, &err), 0, "the read must fail");
    cr_assert_not_null(partial, "a failed read gives its partial document");
    cr_assert(explain_build_partial(&x->tree, e->root, partial, data, size, x->claimed, &err));
    explain_info info = {"broken.cxc", "cx_chunks", "file", "fixture", "big"};
    size_t len;
    FILE *out = open_memstream(&x->text, &len);
    explain_write_text(out, &x->tree, &info);
    fclose(out);
    out = open_memstream(&x->html, &len);
    explain_write_html(out, &x->tree, &info);
    fclose(out);
}

Test(explain, a_failed_read_shows_the_tree_up_to_the_failing_field)
{
    /* the P chunk claims 255 points: they do not fit in its region */
    uint8_t data[sizeof chunks_file];
    memcpy(data, chunks_file, sizeof data);
    data[0x29] = 0xFF;
    explained x;
    explain_failure(&x, data, sizeof data);
    const xtree *t = &x.tree;
    cr_expect(t->failed);
    cr_expect_str_eq(t->fail_path, "bodies[1].body.points");
    cr_assert_geq(t->fail_node, 0);
    cr_expect_str_eq(t->nodes[t->fail_node].path, "bodies[1].body.points");
    cr_expect(t->nodes[t->fail_node].failed);
    /* before it, everything; after it, nothing */
    cr_expect_not_null(node(t, "chunks[2].offset"));
    cr_expect_not_null(node(t, "strings"));
    /* strings are looked up once the whole file is read: here, never */
    cr_expect_str_eq(node(t, "bodies[0].body.refs[0].name")->value, "1 → (none)");
    cr_expect_str_eq(node(t, "bodies[1].body.point_count")->value, "255 (0xFF)");
    cr_expect_null(node(t, "bodies[1].body.points[0]"));
    cr_expect_null(node(t, "bodies[2]"), "the chunk after the failure was not read");
    cr_expect(strstr(x.text, "the read failed: bodies[1].body.points @0x30: count 255 needs at least 1020 bytes") != NULL,
              "%s", x.text);
    cr_expect(strstr(x.text, "bodies[1].body.points: Point[0]  # Points, aligned to 8 bytes.  !! read failed here @0x30") != NULL,
              "%s", x.text);
    cr_expect(strstr(x.html, "class=\"failure\" id=\"failure\"") != NULL);
    char fail[64];
    snprintf(fail, sizeof fail, "const FAIL = [%d,48];", t->fail_node);
    cr_expect(strstr(x.html, fail) != NULL, "no '%s'", fail);
    explained_free(&x);
}

Test(explain, a_file_cut_short_shows_what_it_holds)
{
    /* cut inside the chunk table: its three entries do not fit */
    explained x;
    explain_failure(&x, chunks_file, 0x12);
    const xtree *t = &x.tree;
    cr_expect_str_eq(t->fail_path, "chunks");
    cr_expect_str_eq(t->nodes[t->fail_node].path, "chunks");
    cr_expect_str_eq(node(t, "chunk_count")->value, "3");
    cr_expect_str_eq(node(t, "string_offset")->value, "72 (0x48)");
    cr_expect_null(node(t, "chunks[0]"));
    cr_expect_null(node(t, "strings"));
    cr_expect(strstr(x.text, "count 3 needs at least 12 bytes but only 10 remain") != NULL, "%s", x.text);
    cr_expect_eq(t->nodes[0].end, 0x12, "the root is the file that is there");
    explained_free(&x);
}

static int run(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int temp_files_in(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strstr(e->d_name, ".tmp-") != NULL;
    closedir(d);
    return n;
}

Test(explain, html_is_written_atomically)
{
    char dir[] = "/tmp/bf_explain_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char cmd[1024], out[600];
    snprintf(out, sizeof out, "%s/pyramid.html", dir);
    FILE *f = fopen(out, "w");
    fputs("old", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s explain --html %s %s/tests/fixtures/demo/pyramid.t3dm", BINFORM, out, BF_PROJECT_DIR);
    cr_expect_eq(run(cmd), 0);
    uint8_t *data;
    size_t size;
    cr_assert(load_file(out, &data, &size));
    cr_expect(size > 1000 && memcmp(data, "<!DOCTYPE html>", 15) == 0, "the old file is replaced");
    free(data);
    cr_expect_eq(temp_files_in(dir), 0, "no temporary file is left");
    /* a folder that does not exist: the command fails and writes nothing */
    snprintf(cmd, sizeof cmd, "%s explain --html %s/no/such/x.html %s/tests/fixtures/demo/pyramid.t3dm 2>/dev/null",
             BINFORM, dir, BF_PROJECT_DIR);
    cr_expect_eq(run(cmd), 2);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(run(cmd), 0);
}

Test(explain, every_t3dm_sample_is_explained)
{
    REQUIRE_SAMPLES();
    char cmd[2048];
    /* every byte of the real files is read by some field, and the walk survives them all */
    snprintf(cmd, sizeof cmd,
             "for f in $(find '%s' -name '*.t3dm' -o -name '*.sdata' | sort); do %s explain \"$f\" > /dev/null || exit 1; "
             "%s explain \"$f\" | grep -q '^unclaimed: 0 bytes$' || { echo \"$f: unclaimed bytes\"; exit 1; }; done",
             sample_path("t3dm"), BINFORM, BINFORM);
    cr_expect_eq(run(cmd), 0);
}
