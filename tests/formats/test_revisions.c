/* Revisions: one format, two layouts, detected by trying each (cx_revisions.yaml). */
#include <criterion/criterion.h>
#include <string.h>

#include "bf_write.h"
#include "cx_rev.h"

static const uint8_t short_file[] = {'R', 'V', 2, 0x01, 0x00, 0x02, 0x00, 0xEE};
static const uint8_t long_file[] = {'R', 'V', 2, 0x01, 0, 0, 0, 0x02, 0, 0, 0, 0xEE};
static const uint8_t neither[] = {'R', 'V', 2, 0x01, 0, 0, 0, 0x02, 0, 0, 0, 0xEF};

static int read_as(const uint8_t *data, size_t size, const char *revision, cx_rev_File **out, bf_arena *arena,
                   bf_error *err)
{
    bf_arena_init(arena, bf_alloc_default(), 0);
    bf_read_opts opts = {.revision = revision};
    return cx_rev_read_file(data, size, arena, &opts, out, err);
}

Test(revisions, detected_in_order)
{
    bf_arena arena;
    bf_error err;
    cx_rev_File *f;
    cr_assert(read_as(short_file, sizeof short_file, NULL, &f, &arena, &err), "%s", err.message);
    cr_expect_eq(f->_revision, CX_REV_REVISION_SHORT);
    cr_expect_eq(f->items[1].narrow, 2);
    cr_expect_not(f->items[1].has_wide);
    bf_arena_free(&arena);

    cr_assert(read_as(long_file, sizeof long_file, NULL, &f, &arena, &err), "%s", err.message);
    cr_expect_eq(f->_revision, CX_REV_REVISION_LONG, "the short layout fails at the end marker");
    cr_expect_eq(f->items[1].wide, 2);
    bf_arena_free(&arena);
}

Test(revisions, forced_by_name)
{
    bf_arena arena;
    bf_error err;
    cx_rev_File *f;
    cr_expect_not(read_as(long_file, sizeof long_file, "short", &f, &arena, &err));
    cr_expect_str_eq(err.path, "end");
    cr_expect(strstr(err.message, "as 'short': expected 0xEE") != NULL, "%s", err.message);
    bf_arena_free(&arena);
    cr_expect_not(read_as(long_file, sizeof long_file, "medium", &f, &arena, &err));
    cr_expect_str_eq(err.message, "cx_rev has no revision 'medium'");
    bf_arena_free(&arena);
}

Test(revisions, neither_layout_gives_the_furthest_error)
{
    bf_arena arena;
    bf_error err;
    cx_rev_File *f;
    cr_expect_not(read_as(neither, sizeof neither, NULL, &f, &arena, &err));
    cr_expect_str_eq(err.path, "end");
    cr_expect_eq(err.offset, 11);
    cr_expect(strstr(err.message, "no revision reads this file; as 'long' (furthest): expected 0xEE") != NULL, "%s",
              err.message);
    bf_arena_free(&arena);
}

Test(revisions, validators_and_writers_use_the_document_revision)
{
    bf_arena arena;
    bf_error err;
    cx_rev_File *f;
    cr_assert(read_as(long_file, sizeof long_file, NULL, &f, &arena, &err));
    bf_buffer out = {0};
    cr_assert(cx_rev_write_file(f, &out, &err), "%s", err.message);
    cr_expect_eq(out.size, sizeof long_file);
    cr_expect(memcmp(out.data, long_file, sizeof long_file) == 0);
    bf_buffer_free(&out);
    bf_arena_free(&arena);
}
