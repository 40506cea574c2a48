/* `expect:` values: validator findings with their severity, origin and element path. */
#include <criterion/criterion.h>
#include <string.h>

#include "bf_validate.h"
#include "cx_expect.h"

static void check(const uint8_t *data, size_t size, bf_findings *out)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    bf_error err;
    cx_expect_File *f;
    cr_assert(cx_expect_read_file(data, size, &arena, NULL, &f, &err), "%s", err.message);
    memset(out, 0, sizeof *out);
    cx_expect_validate_file(f, data, size, out);
    bf_arena_free(&arena);
}

Test(expect, values_as_the_document_states_them_give_nothing)
{
    static const uint8_t ok[] = {3, 0xFF, 0xFF, 0, 0, 0};
    bf_findings f;
    check(ok, sizeof ok, &f);
    cr_expect_eq(f.count, 0);
    bf_findings_free(&f);
}

Test(expect, every_departure_is_reported)
{
    static const uint8_t bad[] = {4, 0x00, 0xFF, 0, 7, 0};
    bf_findings f;
    check(bad, sizeof bad, &f);
    cr_assert_eq(f.count, 3);
    cr_expect_eq(f.errors, 2);
    cr_expect_eq(f.warnings, 1);
    cr_expect_str_eq(f.items[0].path, "version");
    cr_expect(strstr(f.items[0].message, "expected 3, found 4") != NULL, "%s", f.items[0].message);
    cr_expect_str_eq(f.items[1].path, "padding");
    cr_expect_eq(f.items[1].severity, BF_SEVERITY_WARNING);
    cr_expect_str_eq(f.items[1].origin, "Header: \"Padding (0xFFFF)\"");
    cr_expect_str_eq(f.items[2].path, "marks[1]", "an element is named by its index");
    cr_expect_eq(f.items[2].offset, 4);
    bf_findings_free(&f);
}
