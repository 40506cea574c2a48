/* bf_path_walk (runtime/bf_path.h): field paths walked through a generated format's
 * reflection tables, on a small file of tests/schemas/cx_chunks.yaml (arrays, a switch, a
 * string and raw bytes). */
#include <criterion/criterion.h>
#include <string.h>

#include "bf_path.h"
#include "cx_chunks.h"

static const uint8_t file[] = {
    'C', 'X', 'C', 0x02,    /* 0x00 magic, chunk_count = 2 */
    0x00, 0x00, 0x00, 0x28, /* 0x04 string_offset */
    'N', 0x00, 0x00, 0x10,  /* 0x08 chunks[0]: N @0x10 */
    'P', 0x00, 0x00, 0x18,  /* 0x0C chunks[1]: P @0x18 */
    0x00, 0x01, 0x00, 0x04, /* 0x10 N: name_count = 1, refs_offset = 4 */
    0x00, 0x00, 0x00, 0x01, /* 0x14 refs[0].name = 1 -> "ab" */
    0x00, 0x02, 0, 0,       /* 0x18 P: point_count = 2, alignment to 8 ... */
    0, 0, 0, 0,             /* 0x1C ... */
    0x00, 0x05, 0xFF, 0xFA, /* 0x20 points[0] = (5, -6) */
    0x01, 0x00, 0x00, 0x07, /* 0x24 points[1] = (256, 7) */
    0, 'a', 'b', 0,         /* 0x28 string table */
};

/* What a walk found, one entry per call. */
typedef struct seen {
    int n;
    bf_found at[8];
    char paths[8][BF_PATH_MAX];
} seen;

static void note(const bf_found *f, void *ctx)
{
    seen *s = ctx;
    cr_assert_lt(s->n, 8);
    s->at[s->n] = *f;
    strcpy(s->paths[s->n], f->path);
    s->at[s->n].path = s->paths[s->n];
    s->n++;
}

static bf_arena arena;
static const bf_type_desc *root_type;
static const void *root;

static void setup(void)
{
    bf_arena_init(&arena, bf_alloc_default(), 0);
    bf_error err = {0};
    cx_chunks_File *f;
    cr_assert(cx_chunks_read_file(file, sizeof file, &arena, NULL, &f, &err), "%s at %s", err.message, err.path);
    root = f;
    root_type = cx_chunks_format.entries[0].root;
}

static void teardown(void) { bf_arena_free(&arena); }

TestSuite(path, .init = setup, .fini = teardown);

Test(path, every_element_of_an_array_with_its_path_and_offset)
{
    seen s = {0};
    cr_assert_eq(bf_path_walk(root_type, root, "chunks.offset", NULL, note, &s), 1);
    cr_assert_eq(s.n, 2);
    cr_assert_eq(s.at[0].value, 0x10);
    cr_assert_eq(s.at[1].value, 0x18);
    cr_assert_str_eq(s.at[0].path, "chunks[0].offset");
    cr_assert_str_eq(s.at[1].path, "chunks[1].offset");
    cr_assert_eq(s.at[0].offset, 0x09);
    cr_assert_eq(s.at[1].offset, 0x0D);
    cr_assert_null(s.at[0].type);
    cr_assert_not(s.at[0].is_char);
}

Test(path, through_a_switch_to_the_cases_structures)
{
    seen s = {0};
    cr_assert_eq(bf_path_walk(root_type, root, "bodies.body", NULL, note, &s), 1);
    cr_assert_eq(s.n, 2);
    cr_assert_str_eq(s.at[0].type->name, "Names");
    cr_assert_str_eq(s.at[1].type->name, "Points");
    cr_assert_eq(s.at[1].offset, 0x18);
    cr_assert_str_eq(s.at[1].path, "bodies[1].body");
}

Test(path, only_structures_of_the_type_asked_for)
{
    seen s = {0};
    cr_assert_eq(bf_path_walk(root_type, root, "bodies.body", "Points", note, &s), 1);
    cr_assert_eq(s.n, 1);
    cr_assert_str_eq(s.at[0].type->name, "Points");
    cr_assert_eq(bf_obj_offset(s.at[0].obj), 0x18);
}

Test(path, signed_numbers_below_a_case)
{
    seen s = {0};
    cr_assert_eq(bf_path_walk(root_type, root, "bodies.body", "Points", note, &s), 1);
    const bf_type_desc *points = s.at[0].type;
    const void *obj = s.at[0].obj;
    memset(&s, 0, sizeof s);
    cr_assert_eq(bf_path_walk(points, obj, "points.y", NULL, note, &s), 1);
    cr_assert_eq(s.n, 2);
    cr_assert_eq(s.at[0].value, -6);
    cr_assert_eq(s.at[1].value, 7);
    cr_assert_eq(s.at[0].offset, 0x22);
    cr_assert_str_eq(s.at[1].path, "points[1].y");
}

Test(path, a_string_field_whole)
{
    seen s = {0};
    cr_assert_eq(bf_path_walk(root_type, root, "magic", NULL, note, &s), 1);
    cr_assert_eq(s.n, 1);
    cr_assert_not_null(s.at[0].str);
    cr_assert_eq(s.at[0].str->len, 3);
    cr_assert(memcmp(s.at[0].str->ptr, "CXC", 3) == 0);
    cr_assert_eq(s.at[0].offset, 0);
    cr_assert_str_eq(s.at[0].path, "magic");
}

Test(path, a_name_that_is_no_field_is_a_wrong_path)
{
    seen s = {0};
    cr_assert_eq(bf_path_walk(root_type, root, "chunks.nope", NULL, note, &s), 0);
    cr_assert_eq(bf_path_walk(root_type, root, "nope", NULL, note, &s), 0);
    cr_assert_eq(bf_path_walk(root_type, root, "chunk", NULL, note, &s), 0);
    cr_assert_eq(s.n, 0);
}

Test(path, raw_bytes_lead_nowhere)
{
    seen s = {0};
    cr_assert_eq(bf_path_walk(root_type, root, "strings", NULL, note, &s), 1);
    cr_assert_eq(s.n, 0);
}
