/* binform dump's "_computed" values against the reader's and the validator's: a named value
 * that uses `_size` (tests/schemas/cx_file_size.yaml) must see the input's size in all three.
 * The dump once computed values with a size of 0 (a ZIP schema's size_seen came out 0). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bf_validate.h"
#include "cx_file_size.h"
#include "dump.h"

/* "CXS1", a body of `body` bytes, the trailer (offset of the trailer from the body, size). */
static size_t size_file(uint8_t *out, size_t body)
{
    size_t p = 0;
    memcpy(out, "CXS1", 4), p = 4;
    for (size_t i = 0; i < body; i++)
        out[p++] = (uint8_t)i;
    uint32_t words[2] = {(uint32_t)body, (uint32_t)(p + 8)};
    for (int w = 0; w < 2; w++)
        for (int b = 0; b < 4; b++)
            out[p++] = (uint8_t)(words[w] >> (8 * b));
    return p;
}

/* The dump of `d` as compact JSON text (malloc'd). */
static char *dump_text(const cx_file_size_File *f, size_t size)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert(out);
    json j;
    json_init(&j, out, 0);
    dump_document(&j, &cx_file_size_format, &cx_file_size_format.entries[0], NULL, f, size);
    fclose(out);
    return text;
}

Test(dump_values, computed_values_see_the_size_of_the_input)
{
    uint8_t d[64];
    size_t size = size_file(d, 9);
    cr_assert_eq(size, 21);
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    bf_error err;
    cx_file_size_File *f;
    cr_assert(cx_file_size_read_file(d, size, &arena, NULL, &f, &err), "%s", err.message);
    cr_expect_eq(f->body.len, 9, "the reader's _size: count _size - 12");
    bf_findings v = {0};
    cx_file_size_validate_file(f, d, size, &v);
    cr_expect_eq(v.count, 0, "the validator's _size: %s", v.count ? v.items[0].message : "");
    bf_findings_free(&v);
    char *text = dump_text(f, size);
    cr_expect(strstr(text, "\"_computed\":{\"size_seen\":21,\"base\":4}") != NULL, "the dump's _size: %s", text);
    free(text);
    bf_arena_free(&arena);
}
