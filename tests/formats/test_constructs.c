/* The schema language, construct by construct: each tests/schemas/cx_*.yaml is generated into
 * build/testgen/, and each test below reads a hand-made fixture with the generated reader and
 * checks the decoded values, or, for the negative cases, the error's path and offset. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "cx_arrays.h"
#include "cx_chunks.h"
#include "cx_endian.h"
#include "cx_j3d.h"
#include "cx_p3m.h"
#include "cx_prims.h"
#include "cx_toshi.h"

static bf_arena arena;
static bf_error err;

static void setup(void)
{
    bf_arena_init(&arena, bf_alloc_default(), 0);
    memset(&err, 0, sizeof err);
}

static void teardown(void) { bf_arena_free(&arena); }

/* 1 when the view holds exactly `want`. */
static int str_is(bf_str s, const char *want)
{
    return s.ptr && s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

/* Note on _at: a field whose offset inside its structure is known gets no `NAME_at` member.
 * The generator currently also treats fields with `pos:` or `align:` as having a known offset
 * (the inline offset they would have had), so those have no `_at` either; the tests use the
 * `_offset` of the first element instead. */

static int msg_has(const char *needle) { return strstr(err.message, needle) != NULL; }

#define FAIL_INFO "error: path '%s' @0x%llx: %s", err.path, (unsigned long long)err.offset, err.message
#define ASSERT_READ(call) cr_assert((call), FAIL_INFO)
#define ASSERT_FAILS_AT(call, want_path, want_offset)                                           \
    do {                                                                                        \
        cr_assert(!(call), "the read should fail");                                             \
        cr_assert(err.failed);                                                                  \
        cr_assert_str_eq(err.path, (want_path), FAIL_INFO);                                     \
        cr_assert_eq(err.offset, (uint64_t)(want_offset), FAIL_INFO);                           \
    } while (0)

/* A copy of a fixture that a negative test may change. */
static uint8_t *copy_of(const uint8_t *data, size_t size)
{
    uint8_t *p = bf_arena_alloc(&arena, size);
    cr_assert(p);
    memcpy(p, data, size);
    return p;
}

/* ==== cx_prims: little-endian numbers, fixed point, bits, strings, derive, enum, flags, if ==== */

static const uint8_t prims_file[] = {
    'C', 'X', 'P', '1',                             /* 0x00 magic */
    0xFE,                                           /* 0x04 a_u8 = 254 */
    0x80,                                           /* 0x05 a_s8 = -128 */
    0xEF, 0xBE,                                     /* 0x06 a_u16 = 0xBEEF */
    0xFE, 0xFF,                                     /* 0x08 a_s16 = -2 */
    0x56, 0x34, 0x12,                               /* 0x0A a_u24 = 0x123456 */
    0xFD, 0xFF, 0xFF,                               /* 0x0D a_s24 = -3 */
    0xEF, 0xBE, 0xAD, 0xDE,                         /* 0x10 a_u32 = 0xDEADBEEF */
    0x60, 0x79, 0xFE, 0xFF,                         /* 0x14 a_s32 = -100000 */
    0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23, 0x01, /* 0x18 a_u64 = 0x0123456789ABCDEF */
    0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, /* 0x20 a_s64 = -2 */
    0x00, 0x00, 0xC0, 0x3F,                         /* 0x28 a_f32 = 1.5 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xC0, /* 0x2C a_f64 = -2.25 */
    0x11, 0x22, 0x33, 0x44,                         /* 0x34 be_u32 = 0x11223344 (big-endian) */
    0xFF, 0xFE,                                     /* 0x38 be_s16 = -2 (big-endian) */
    0x01, 0x00, 0xFF, 0xFF, 0x2C, 0x01,             /* 0x3A position = 1, -1, 300 (16.0) */
    0xA0, 0x00,                                     /* 0x40 scale = 160 -> 2.5 (10.6) */
    0xA0, 0xFF,                                     /* 0x42 shift = -96 -> -1.5 (10.6) */
    0x70, 0xF8,                                     /* 0x44 normal = 11111 000011 10000: -1, 3, -16 */
    0x35, 0x12,                                     /* 0x46 vertex_ref = 0x123 << 4 | 5 */
    0x7F,                                           /* 0x48 weight = 127 -> 0.5 */
    0x07,                                           /* 0x49 shape = sphere */
    0x81,                                           /* 0x4A flags = visible | extended */
    0x0A,                                           /* 0x4B material = 10 -> 3 */
    0xFF, 0x7F, 0x00, 0xC0, 0x00, 0x00,             /* 0x4C rotation = 32767, -16384, 0 */
    'c', 'r', 'a', 't', 'e', 0, 'J', 'U', 'N', 'K', 0, 0, /* 0x52 name char[12] */
    'A', 'B', 'C', 'D',                             /* 0x5E code char[4], no terminator */
    'h', 'i', 0,                                    /* 0x62 note cstr */
    0x00, 0x00, 0x00, 0x40,                         /* 0x65 radius = 2.0 (shape is sphere) */
    0x0D, 0xF0, 0xFE, 0xCA,                         /* 0x69 extension (flag extended) */
    0x02,                                           /* 0x6D version */
};

TestSuite(prims, .init = setup, .fini = teardown);

Test(prims, little_endian_numbers)
{
    cx_prims_Record *r;
    ASSERT_READ(cx_prims_read_file(prims_file, sizeof prims_file, &arena, NULL, &r, &err));
    cr_assert(str_is(r->magic, "CXP1"));
    cr_assert_eq(r->a_u8, 254);
    cr_assert_eq(r->a_s8, -128);
    cr_assert_eq(r->a_u16, 0xBEEF);
    cr_assert_eq(r->a_s16, -2);
    cr_assert_eq(r->a_u24, 0x123456);
    cr_assert_eq(r->a_s24, -3);
    cr_assert_eq(r->a_u32, 0xDEADBEEFu);
    cr_assert_eq(r->a_s32, -100000);
    cr_assert_eq(r->a_u64, UINT64_C(0x0123456789ABCDEF));
    cr_assert_eq(r->a_s64, -2);
    cr_assert_float_eq(r->a_f32, 1.5f, 0);
    cr_assert_float_eq(r->a_f64, -2.25, 0);
}

Test(prims, endian_override_big_in_little)
{
    cx_prims_Record *r;
    ASSERT_READ(cx_prims_read_file(prims_file, sizeof prims_file, &arena, NULL, &r, &err));
    cr_assert_eq(r->be_u32, 0x11223344u);
    cr_assert_eq(r->be_s16, -2);
}

Test(prims, fixed_point)
{
    cx_prims_Record *r;
    ASSERT_READ(cx_prims_read_file(prims_file, sizeof prims_file, &arena, NULL, &r, &err));
    cr_assert_eq(r->position[2], 300);
    cr_assert_float_eq(r->position_value[0], 1.0, 0);
    cr_assert_float_eq(r->position_value[1], -1.0, 0);
    cr_assert_float_eq(r->position_value[2], 300.0, 0);
    cr_assert_eq(r->scale, 160);
    cr_assert_float_eq(r->scale_value, 2.5, 0);
    cr_assert_float_eq(r->shift_value, -1.5, 0);
}

Test(prims, packed_bits)
{
    cx_prims_Record *r;
    ASSERT_READ(cx_prims_read_file(prims_file, sizeof prims_file, &arena, NULL, &r, &err));
    cr_assert_eq(r->normal, 0xF870);
    cr_assert_eq(r->normal_x, -1);
    cr_assert_eq(r->normal_y, 3);
    cr_assert_eq(r->normal_z, -16);
    cr_assert_eq(r->vertex_ref_index, 0x123);
    cr_assert_eq(r->vertex_ref_count, 5);
}

Test(prims, derived_values)
{
    cx_prims_Record *r;
    ASSERT_READ(cx_prims_read_file(prims_file, sizeof prims_file, &arena, NULL, &r, &err));
    cr_assert_float_eq(r->weight_value, 0.5, 0);
    cr_assert_eq(r->material, 10);
    cr_assert_float_eq(r->material_value, 3.0, 0); /* integer division */
    cr_assert_float_eq(r->rotation_value[0], 180.0, 1e-12);
    cr_assert_float_eq(r->rotation_value[1], -16384 * 180.0 / 32767, 1e-12);
    cr_assert_float_eq(r->rotation_value[2], 0.0, 0);
}

Test(prims, enum_and_flags)
{
    cx_prims_Record *r;
    ASSERT_READ(cx_prims_read_file(prims_file, sizeof prims_file, &arena, NULL, &r, &err));
    cr_assert_eq(r->shape, CX_PRIMS_SHAPE_SPHERE);
    cr_assert_eq(CX_PRIMS_SHAPE_SPHERE, 7);
    cr_assert(r->flags & CX_PRIMS_RECORD_FLAGS_VISIBLE);
    cr_assert(!(r->flags & CX_PRIMS_RECORD_FLAGS_SHADOW));
    cr_assert(r->flags & CX_PRIMS_RECORD_FLAGS_EXTENDED);
    cr_assert_eq(CX_PRIMS_RECORD_FLAGS_EXTENDED, 0x80u);
}

Test(prims, strings)
{
    cx_prims_Record *r;
    ASSERT_READ(cx_prims_read_file(prims_file, sizeof prims_file, &arena, NULL, &r, &err));
    cr_assert(str_is(r->name, "crate"), "char[12] stops at the first zero");
    cr_assert(str_is(r->code, "ABCD"), "char[4] with no zero uses all four bytes");
    cr_assert(str_is(r->note, "hi"));
    cr_assert_eq((const uint8_t *)r->note.ptr, prims_file + 0x62);
}

Test(prims, conditional_present)
{
    cx_prims_Record *r;
    ASSERT_READ(cx_prims_read_file(prims_file, sizeof prims_file, &arena, NULL, &r, &err));
    cr_assert(r->has_radius);
    cr_assert_float_eq(r->radius, 2.0f, 0);
    cr_assert_eq(r->radius_at, 0x65);
    cr_assert(r->has_extension);
    cr_assert_eq(r->extension, 0xCAFEF00Du);
    cr_assert_eq(r->version_at, 0x6D);
    cr_assert_eq(r->version, 2);
}

Test(prims, conditional_absent)
{
    uint8_t *d = copy_of(prims_file, 0x66);
    d[0x49] = 0x00; /* shape = point: no radius */
    d[0x4A] = 0x01; /* flags = visible: no extension */
    d[0x65] = 0x02; /* version follows the note directly */
    cx_prims_Record *r;
    ASSERT_READ(cx_prims_read_file(d, 0x66, &arena, NULL, &r, &err));
    cr_assert(!r->has_radius);
    cr_assert(!r->has_extension);
    cr_assert_eq(r->version_at, 0x65);
    cr_assert_eq(r->version, 2);
}

Test(prims, bad_magic_names_field)
{
    uint8_t *d = copy_of(prims_file, sizeof prims_file);
    d[3] = '2';
    cx_prims_Record *r;
    ASSERT_FAILS_AT(cx_prims_read_file(d, sizeof prims_file, &arena, NULL, &r, &err), "magic", 0);
    cr_assert(msg_has("expected \"CXP1\", found \"CXP2\""), "%s", err.message);
}

Test(prims, bad_const_names_field)
{
    uint8_t *d = copy_of(prims_file, sizeof prims_file);
    d[0x6D] = 3;
    cx_prims_Record *r;
    ASSERT_FAILS_AT(cx_prims_read_file(d, sizeof prims_file, &arena, NULL, &r, &err), "version", 0x6D);
    cr_assert(msg_has("expected 2, found 3"), "%s", err.message);
}

Test(prims, cstr_without_zero_fails)
{
    cx_prims_Record *r;
    ASSERT_FAILS_AT(cx_prims_read_file(prims_file, 0x64, &arena, NULL, &r, &err), "note", 0x62);
    cr_assert(msg_has("no terminating zero"), "%s", err.message);
}

/* ==== cx_endian: the same numbers big-endian, with per-field little-endian overrides ==== */

static const uint8_t endian_file[] = {
    'C', 'X', 'B', 'E',                             /* 0x00 magic */
    0xFE,                                           /* 0x04 a_u8 = 254 */
    0x80,                                           /* 0x05 a_s8 = -128 */
    0xBE, 0xEF,                                     /* 0x06 a_u16 = 0xBEEF */
    0xFF, 0xFE,                                     /* 0x08 a_s16 = -2 */
    0x12, 0x34, 0x56,                               /* 0x0A a_u24 = 0x123456 */
    0xFF, 0xFF, 0xFD,                               /* 0x0D a_s24 = -3 */
    0xDE, 0xAD, 0xBE, 0xEF,                         /* 0x10 a_u32 */
    0xFF, 0xFE, 0x79, 0x60,                         /* 0x14 a_s32 = -100000 */
    0x3F, 0xC0, 0x00, 0x00,                         /* 0x18 a_f32 = 1.5 */
    0xC0, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 0x1C a_f64 = -2.25 */
    0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, /* 0x24 a_u64 */
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE, /* 0x2C a_s64 = -2 */
    0x34, 0x12,                                     /* 0x34 le_u16 = 0x1234 (little-endian) */
    0x44, 0x33, 0x22, 0x11,                         /* 0x36 le_u32 = 0x11223344 (little-endian) */
    0x00, 0x00, 0xC0, 0x3F,                         /* 0x3A le_f32 = 1.5 (little-endian) */
    0x02, 0x01, 0xB0, 0xA0,                         /* 0x3E le_words = 0x0102, 0xA0B0 */
};

TestSuite(endian, .init = setup, .fini = teardown);

Test(endian, big_endian_numbers)
{
    cx_endian_Header *h;
    ASSERT_READ(cx_endian_read_file(endian_file, sizeof endian_file, &arena, NULL, &h, &err));
    cr_assert(str_is(h->magic, "CXBE"));
    cr_assert_eq(h->a_u8, 254);
    cr_assert_eq(h->a_s8, -128);
    cr_assert_eq(h->a_u16, 0xBEEF);
    cr_assert_eq(h->a_s16, -2);
    cr_assert_eq(h->a_u24, 0x123456);
    cr_assert_eq(h->a_s24, -3);
    cr_assert_eq(h->a_u32, 0xDEADBEEFu);
    cr_assert_eq(h->a_s32, -100000);
    cr_assert_float_eq(h->a_f32, 1.5f, 0);
    cr_assert_float_eq(h->a_f64, -2.25, 0);
    cr_assert_eq(h->a_u64, UINT64_C(0x0123456789ABCDEF));
    cr_assert_eq(h->a_s64, -2);
}

Test(endian, endian_override_little_in_big)
{
    cx_endian_Header *h;
    ASSERT_READ(cx_endian_read_file(endian_file, sizeof endian_file, &arena, NULL, &h, &err));
    cr_assert_eq(h->le_u16, 0x1234);
    cr_assert_eq(h->le_u32, 0x11223344u);
    cr_assert_float_eq(h->le_f32, 1.5f, 0);
    cr_assert_eq(h->le_words[0], 0x0102);
    cr_assert_eq(h->le_words[1], 0xA0B0);
}

Test(endian, truncated_fixed_size_type_fails)
{
    cx_endian_Header *h;
    /* a type of fixed size is bounds-checked once, as a whole: the path is the type's */
    ASSERT_FAILS_AT(cx_endian_read_file(endian_file, sizeof endian_file - 1, &arena, NULL, &h, &err), "", 0);
    cr_assert(msg_has("needs 66 bytes but only 65 remain"), "%s", err.message);
}

/* ==== cx_arrays: every way of sizing an array ==== */

static const uint8_t arrays_file[] = {
    0x03, 0x00, 0x02, 0x09, 0x00, 0x00,             /* 0x00 header: 3 items, 2 nodes, 9 parts */
    'T', 'A', 'G', '!',                             /* 0x06 tag u8[4] */
    0x01, 0x00, 0x02, 0x00, 0xFF, 0xFF,             /* 0x0A items u16[item_count] */
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, /* 0x10 node_words u8[node_count * 4] */
    0xFF, 0x01,                                     /* 0x18 part_mask u8[(9 + 7) / 8] */
    0x03, 0x05, 0xFF,                               /* 0x1A formats, until _it == 0xFF */
    0x09, 0x03, 0x0A, 0x03, 0xFF, 0x00,             /* 0x1D attrs, until _it.attr == 0xFF */
    0x04, 0x00,                                     /* 0x23 block_size = 4 */
    0x11, 0x11, 0x22, 0x22,                         /* 0x25 block u16[] in 4 bytes */
    0x00, 0xF8, 0xE0, 0x07, 0x1F, 0x00,             /* 0x29 colors: len(root.items) = 3 */
    0x01, 0x00, 0x64, 0x00,                         /* 0x2F records[0] = {1, 100} */
    0x02, 0x00, 0xC8, 0x00,                         /* 0x33 records[1] = {2, 200} */
};

TestSuite(arrays, .init = setup, .fini = teardown);

Test(arrays, constant_count)
{
    cx_arrays_File *f;
    ASSERT_READ(cx_arrays_read_file(arrays_file, sizeof arrays_file, &arena, NULL, &f, &err));
    cr_assert_eq(sizeof f->tag, 4); /* a constant count is an inline C array */
    cr_assert_eq(memcmp(f->tag, "TAG!", 4), 0);
}

Test(arrays, count_field)
{
    cx_arrays_File *f;
    ASSERT_READ(cx_arrays_read_file(arrays_file, sizeof arrays_file, &arena, NULL, &f, &err));
    cr_assert_eq(f->items_count, 3);
    cr_assert_eq(f->items[0], 1);
    cr_assert_eq(f->items[2], 0xFFFF);
}

Test(arrays, count_expressions)
{
    cx_arrays_File *f;
    ASSERT_READ(cx_arrays_read_file(arrays_file, sizeof arrays_file, &arena, NULL, &f, &err));
    cr_assert_eq(f->node_words_count, 8);
    cr_assert_eq(f->node_words[7], 0x17);
    cr_assert_eq(f->node_words_at, 0x10);
    cr_assert_eq(f->part_mask_count, 2);
    cr_assert_eq(f->part_mask[1], 0x01);
}

Test(arrays, until_terminator)
{
    cx_arrays_File *f;
    ASSERT_READ(cx_arrays_read_file(arrays_file, sizeof arrays_file, &arena, NULL, &f, &err));
    cr_assert_eq(f->formats_count, 3, "the terminator is kept");
    cr_assert_eq(f->formats[2], 0xFF);
    cr_assert_eq(f->attrs_count, 3);
    cr_assert_eq(f->attrs[1].attr, 0x0A);
    cr_assert_eq(f->attrs[1].components, 3);
    cr_assert_eq(f->attrs[2].attr, 0xFF);
    cr_assert_eq(f->attrs[2]._index, 2);
}

Test(arrays, array_filling_a_sized_region)
{
    cx_arrays_File *f;
    ASSERT_READ(cx_arrays_read_file(arrays_file, sizeof arrays_file, &arena, NULL, &f, &err));
    cr_assert_eq(f->block_count, 2);
    cr_assert_eq(f->block[1], 0x2222);
    cr_assert_eq(f->block_tail.len, 0);
    cr_assert_eq(f->block_tail.offset, 0x29);
}

Test(arrays, count_from_another_table)
{
    cx_arrays_File *f;
    ASSERT_READ(cx_arrays_read_file(arrays_file, sizeof arrays_file, &arena, NULL, &f, &err));
    cr_assert_eq(f->colors.rgb565_count, 3);
    cr_assert_eq(f->colors.rgb565[0], 0xF800);
    cr_assert_eq(f->colors.rgb565[2], 0x001F);
}

Test(arrays, to_end_of_file)
{
    cx_arrays_File *f;
    ASSERT_READ(cx_arrays_read_file(arrays_file, sizeof arrays_file, &arena, NULL, &f, &err));
    cr_assert_eq(f->records_count, 2);
    cr_assert_eq(f->records[1].id, 2);
    cr_assert_eq(f->records[1].value, 200);
    cr_assert_eq(f->records[1]._offset, 0x33);
}

Test(arrays, lying_count_fails_before_allocating)
{
    uint8_t *d = copy_of(arrays_file, sizeof arrays_file);
    d[0] = 0xFF;
    d[1] = 0xFF;
    cx_arrays_File *f;
    ASSERT_FAILS_AT(cx_arrays_read_file(d, sizeof arrays_file, &arena, NULL, &f, &err), "items", 0x0A);
    cr_assert(msg_has("count 65535 needs at least 131070 bytes"), "%s", err.message);
}

Test(arrays, missing_terminator_fails)
{
    cx_arrays_File *f;
    /* the file ends after 0x03 0x05: no 0xFF */
    ASSERT_FAILS_AT(cx_arrays_read_file(arrays_file, 0x1C, &arena, NULL, &f, &err), "formats", 0x1C);
    cr_assert(msg_has("ends without its terminator (_it == 0xFF)"), "%s", err.message);
}

Test(arrays, missing_struct_terminator_fails)
{
    uint8_t *d = copy_of(arrays_file, 0x23);
    d[0x21] = 0x0B; /* the last attribute is no longer 0xFF, and the file ends after it */
    cx_arrays_File *f;
    ASSERT_FAILS_AT(cx_arrays_read_file(d, 0x23, &arena, NULL, &f, &err), "attrs", 0x23);
    cr_assert(msg_has("ends without its terminator (_it.attr == 0xFF)"), "%s", err.message);
}

Test(arrays, region_not_whole_elements_fails)
{
    uint8_t *d = copy_of(arrays_file, sizeof arrays_file);
    d[0x23] = 0x03; /* three bytes hold one and a half u16 */
    cx_arrays_File *f;
    ASSERT_FAILS_AT(cx_arrays_read_file(d, sizeof arrays_file, &arena, NULL, &f, &err), "block", 0x27);
}

Test(arrays, partial_record_at_end_fails)
{
    cx_arrays_File *f;
    ASSERT_FAILS_AT(cx_arrays_read_file(arrays_file, sizeof arrays_file - 1, &arena, NULL, &f, &err),
                    "records[1]", 0x33);
}

/* ==== cx_chunks: chunk table with type letters and u24 offsets, string table, align, tail ==== */

static const uint8_t chunks_file[] = {
    'C', 'X', 'C', 0x03,                            /* 0x00 magic, chunk_count = 3 */
    0x00, 0x00, 0x00, 0x48,                         /* 0x04 string_offset */
    'N', 0x00, 0x00, 0x18,                          /* 0x08 chunks[0]: N @0x18 */
    'P', 0x00, 0x00, 0x28,                          /* 0x0C chunks[1]: P @0x28 */
    'X', 0x00, 0x00, 0x40,                          /* 0x10 chunks[2]: X @0x40 */
    0x00, 0x00, 0x00, 0x00,                         /* 0x14 padding */
    0x00, 0x02, 0x00, 0x08,                         /* 0x18 N: name_count = 2, refs_offset = 8 */
    0xAA, 0xBB, 0xCC, 0xDD,                         /* 0x1C (unused) */
    0x00, 0x00, 0x00, 0x01,                         /* 0x20 refs[0].name = 1 -> "lid" */
    0x00, 0x00, 0x00, 0x00,                         /* 0x24 refs[1].name = 0 -> none */
    0x00, 0x03,                                     /* 0x28 P: point_count = 3 */
    0, 0, 0, 0, 0, 0,                               /* 0x2A alignment to 8 */
    0x00, 0x01, 0x00, 0x02,                         /* 0x30 points[0] = (1, 2) */
    0xFF, 0xFF, 0xFF, 0xFE,                         /* 0x34 points[1] = (-1, -2) */
    0x01, 0x2C, 0xFE, 0xD4,                         /* 0x38 points[2] = (300, -300) */
    0xEE, 0xEE, 0xEE, 0xEE,                         /* 0x3C chunk padding (the tail) */
    'R', 'A', 'W', 'D', 'A', 'T', 'A', '!',         /* 0x40 X: opaque */
    'S', 'l', 'i', 'd', 0,                          /* 0x48 string table */
};

TestSuite(chunks, .init = setup, .fini = teardown);

Test(chunks, chunk_table_with_u24_offsets)
{
    cx_chunks_File *f;
    ASSERT_READ(cx_chunks_read_file(chunks_file, sizeof chunks_file, &arena, NULL, &f, &err));
    cr_assert_eq(f->chunks_count, 3);
    cr_assert_eq(f->chunks[0].type, CX_CHUNKS_CHUNK_TYPE_N);
    cr_assert_eq(f->chunks[1].offset, 0x28);
    cr_assert_eq(f->chunks[2].type, CX_CHUNKS_CHUNK_TYPE_X);
    cr_assert_eq(f->bodies_count, 3);
    cr_assert_eq(f->bodies[0].body.kind, CX_CHUNKS_KIND_NAMES);
    cr_assert_eq(f->bodies[1].body.kind, CX_CHUNKS_KIND_POINTS);
    cr_assert_eq(f->bodies[0].body.Names->_offset, 0x18); /* no body_at: see the note on _at */
}

Test(chunks, absolute_offset_and_string_table)
{
    cx_chunks_File *f;
    ASSERT_READ(cx_chunks_read_file(chunks_file, sizeof chunks_file, &arena, NULL, &f, &err));
    cr_assert_eq(f->strings.offset, 0x48);
    cr_assert_eq(f->strings.len, 5);
    cx_chunks_Names *n = f->bodies[0].body.Names;
    cr_assert_eq(n->refs_count, 2);
    cr_assert(str_is(n->refs[0].name_str, "lid"));
    cr_assert_eq(n->refs[1].name, 0);
    cr_assert_null(n->refs[1].name_str.ptr, "the null offset gives no string");
}

Test(chunks, offset_relative_to_section)
{
    cx_chunks_File *f;
    ASSERT_READ(cx_chunks_read_file(chunks_file, sizeof chunks_file, &arena, NULL, &f, &err));
    cx_chunks_Names *n = f->bodies[0].body.Names;
    cr_assert_eq(n->_offset, 0x18);
    cr_assert_eq(n->refs[0]._offset, 0x20, "_start + refs_offset");
}

Test(chunks, alignment_and_tail)
{
    cx_chunks_File *f;
    ASSERT_READ(cx_chunks_read_file(chunks_file, sizeof chunks_file, &arena, NULL, &f, &err));
    cx_chunks_Points *p = f->bodies[1].body.Points;
    cr_assert_eq(p->points_pad.offset, 0x2A);
    cr_assert_eq(p->points_pad.len, 6);
    cr_assert_eq(p->points[0]._offset, 0x30); /* no points_at: see the note on _at */
    cr_assert_eq(p->points_count, 3);
    cr_assert_eq(p->points[2].x, 300);
    cr_assert_eq(p->points[2].y, -300);
    cr_assert_eq(f->bodies[1].body_tail.offset, 0x3C);
    cr_assert_eq(f->bodies[1].body_tail.len, 4);
    cr_assert_eq(f->bodies[1].body_tail.ptr[0], 0xEE);
}

Test(chunks, unknown_chunk_is_raw)
{
    cx_chunks_File *f;
    ASSERT_READ(cx_chunks_read_file(chunks_file, sizeof chunks_file, &arena, NULL, &f, &err));
    cr_assert_eq(f->bodies[2].body.kind, 0);
    cr_assert_eq(f->bodies[2].body.raw.offset, 0x40);
    cr_assert_eq(f->bodies[2].body.raw.len, 8);
    cr_assert_eq(memcmp(f->bodies[2].body.raw.ptr, "RAWDATA!", 8), 0);
    cr_assert_eq(f->bodies[2].body_tail.len, 0);
}

Test(chunks, string_outside_table_fails)
{
    uint8_t *d = copy_of(chunks_file, sizeof chunks_file);
    d[0x23] = 0x10;
    cx_chunks_File *f;
    ASSERT_FAILS_AT(cx_chunks_read_file(d, sizeof chunks_file, &arena, NULL, &f, &err),
                    "bodies[0].body.refs[0].name", 0x20);
    cr_assert(msg_has("outside the string table"), "%s", err.message);
}

Test(chunks, chunk_past_end_fails)
{
    uint8_t *d = copy_of(chunks_file, sizeof chunks_file);
    d[0x13] = 0x60; /* chunk 2 at 0x60: chunk 1 now runs from 0x28 past the end */
    cx_chunks_File *f;
    ASSERT_FAILS_AT(cx_chunks_read_file(d, sizeof chunks_file, &arena, NULL, &f, &err), "bodies[1].body", 0x28);
    cr_assert(msg_has("runs past the end of the file"), "%s", err.message);
}

/* ==== cx_j3d: tagged sections, switch with default bytes, terminated scene nodes ==== */

static const uint8_t j3d_file[] = {
    'J', '3', 'D', '2', 'c', 'x', 'j', '3',         /* 0x00 magic */
    0x00, 0x00, 0x00, 0xB0,                         /* 0x08 file_size */
    0x00, 0x00, 0x00, 0x03,                         /* 0x0C section_count */
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, /* 0x10 reserved */
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    'I', 'N', 'F', '1', 0x00, 0x00, 0x00, 0x40,     /* 0x20 INF1, 0x40 bytes */
    0x00, 0x01, 0xFF, 0xFF,                         /* 0x28 flags, padding */
    0x00, 0x00, 0x00, 0x08,                         /* 0x2C vertex_count */
    0x00, 0x00, 0x00, 0x18,                         /* 0x30 hierarchy_offset (-> 0x38) */
    0x00, 0x00, 0x00, 0x00,                         /* 0x34 */
    0x00, 0x10, 0x00, 0x00,                         /* 0x38 joint 0 */
    0x00, 0x01, 0x00, 0x00,                         /* 0x3C down */
    0x00, 0x12, 0x00, 0x02,                         /* 0x40 shape 2 */
    0x00, 0x02, 0x00, 0x00,                         /* 0x44 up */
    0x00, 0x00, 0x00, 0x00,                         /* 0x48 end */
    'T', 'h', 'i', 's', ' ', 'i', 's', ' ', 'p', 'a', /* 0x4C padding to 0x60 */
    'd', 'd', 'i', 'n', 'g', ' ', 'd', 'a', 't', 'a',
    'V', 'T', 'X', '1', 0x00, 0x00, 0x00, 0x40,     /* 0x60 VTX1, 0x40 bytes */
    0x00, 0x00, 0x00, 0x10,                         /* 0x68 format_offset (-> 0x70) */
    0x00, 0x00, 0x00, 0x00,                         /* 0x6C */
    0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x01, /* 0x70 position, 1 */
    0x00, 0x00, 0x00, 0x03, 0x07, 0xFF, 0xFF, 0xFF, /*      type 3, fraction 7 */
    0x00, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x01, /* 0x80 null: end of the list */
    0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x90 padding to 0xA0 */
    'E', 'V', 'P', '1', 0x00, 0x00, 0x00, 0x10,     /* 0xA0 EVP1 (unknown here), 0x10 bytes */
    1, 2, 3, 4, 5, 6, 7, 8,                         /* 0xA8 its body */
};

TestSuite(j3d, .init = setup, .fini = teardown);

Test(j3d, tagged_sections)
{
    cx_j3d_File *f;
    ASSERT_READ(cx_j3d_read_model(j3d_file, sizeof j3d_file, &arena, NULL, &f, &err));
    cr_assert(str_is(f->magic, "J3D2cxj3"));
    cr_assert_eq(f->sections_count, 3);
    cr_assert_eq(f->sections[0].tag, CX_J3D_SECTION_TAG_INF1);
    cr_assert_eq(f->sections[0].body.kind, CX_J3D_KIND_INF1);
    cr_assert_eq(f->sections[1].tag, CX_J3D_SECTION_TAG_VTX1);
    cr_assert_eq(f->sections[1].body.kind, CX_J3D_KIND_VTX1);
    cr_assert_eq(f->sections[2].tag, 0x45565031u);
    cr_assert_eq(f->sections[2].body.kind, 0, "an unknown tag takes the default: bytes");
    cr_assert_eq(f->sections[2].body.raw.offset, 0xA8);
    cr_assert_eq(f->sections[2].body.raw.len, 8);
    cr_assert_eq(f->sections[2]._offset, 0xA0);
}

Test(j3d, scene_nodes_until_end)
{
    cx_j3d_File *f;
    ASSERT_READ(cx_j3d_read_model(j3d_file, sizeof j3d_file, &arena, NULL, &f, &err));
    cx_j3d_Inf1 *inf = f->sections[0].body.Inf1;
    cr_assert_eq(inf->vertex_count, 8);
    cr_assert_eq(inf->nodes[0]._offset, 0x38, "_start - 8 + hierarchy_offset: relative to the tag");
    cr_assert_eq(inf->nodes_count, 5);
    cr_assert_eq(inf->nodes[0].type, CX_J3D_NODE_TYPE_JOINT);
    cr_assert_eq(inf->nodes[2].type, CX_J3D_NODE_TYPE_SHAPE);
    cr_assert_eq(inf->nodes[2].index, 2);
    cr_assert_eq(inf->nodes[4].type, CX_J3D_NODE_TYPE_END);
    /* the region is the section's body; what the body does not read inline is its tail */
    cr_assert_eq(f->sections[0].body_tail.offset, 0x34);
    cr_assert_eq(f->sections[0].body_tail.len, 0x2C);
}

Test(j3d, vertex_formats_until_null)
{
    cx_j3d_File *f;
    ASSERT_READ(cx_j3d_read_model(j3d_file, sizeof j3d_file, &arena, NULL, &f, &err));
    cx_j3d_Vtx1 *v = f->sections[1].body.Vtx1;
    cr_assert_eq(v->formats[0]._offset, 0x70);
    cr_assert_eq(v->formats_count, 2);
    cr_assert_eq(v->formats[0].attr, CX_J3D_VERTEX_ATTR_POSITION);
    cr_assert_eq(v->formats[0].component_type, 3);
    cr_assert_eq(v->formats[0].fraction, 7);
    cr_assert_eq(v->formats[1].attr, CX_J3D_VERTEX_ATTR_NULL);
}

Test(j3d, missing_format_terminator_fails)
{
    uint8_t *d = copy_of(j3d_file, sizeof j3d_file);
    d[0x83] = 0x0D; /* tex0 instead of null: the list runs on to the end of the file */
    cx_j3d_File *f;
    ASSERT_FAILS_AT(cx_j3d_read_model(d, sizeof j3d_file, &arena, NULL, &f, &err), "sections[1].body.formats", 0xB0);
    cr_assert(msg_has("ends without its terminator"), "%s", err.message);
}

Test(j3d, section_smaller_than_header_fails)
{
    uint8_t *d = copy_of(j3d_file, sizeof j3d_file);
    d[0x27] = 0x04; /* INF1 size 4 < its own 8-byte header */
    cx_j3d_File *f;
    ASSERT_FAILS_AT(cx_j3d_read_model(d, sizeof j3d_file, &arena, NULL, &f, &err), "sections[0].body", 0x28);
    cr_assert(msg_has("size -4 is negative"), "%s", err.message);
}

/* ==== cx_toshi: computed addresses, the 0x7C rule, params through three levels ==== */

static const uint8_t toshi_file[] = {
    'T', 'O', 'S', 'H',                             /* 0x00 magic */
    0x00, 0x10, 0x00, 0x00,                         /* 0x04 salt = 0x1000 */
    0x01, 0x00, 0x00, 0x00,                         /* 0x08 lod_count = 1 */
    0x00, 0x10, 0x00, 0x00,                         /* 0x0C lod_address -> 60 + 0x1000 - 0x1000 = 0x3C */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x10 reserved (44 bytes) */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0x02, 0x00, 0x02, 0x00, 0x03, 0x00, 0x07, 0x00, /* 0x3C lod: 2 meshes, 2 pieces, 3 indices, id 7 */
    0x0C, 0x10, 0x00, 0x00,                         /* 0x44 mesh_address -> 0x48 */
    0x20, 0x10, 0x00, 0x00,                         /* 0x48 meshes[0].aux_address -> 0x5C */
    0x04, 0x00, 0x00, 0x00,                         /* 0x4C meshes[0].aux_size = 4 */
    0x24, 0x10, 0x00, 0x00,                         /* 0x50 meshes[0].piece_address -> 0x60 */
    0x40, 0x10, 0x00, 0x00,                         /* 0x54 meshes[1].aux_address -> 0x7C: none */
    0x34, 0x10, 0x00, 0x00,                         /* 0x58 meshes[1].piece_address -> 0x70 (moved up) */
    0xDE, 0xAD, 0xBE, 0xEF,                         /* 0x5C meshes[0].aux */
    0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x02, 0x00, /* 0x60 meshes[0].pieces[0]: material 1; 0, 1, 2 */
    0x02, 0x00, 0x03, 0x00, 0x04, 0x00, 0x05, 0x00, /* 0x68 meshes[0].pieces[1]: material 2; 3, 4, 5 */
    0x03, 0x00, 0x06, 0x00, 0x07, 0x00, 0x08, 0x00, /* 0x70 meshes[1].pieces[0]: material 3; 6, 7, 8 */
    0x04, 0x00, 0x09, 0x00, 0x0A, 0x00, 0x0B, 0x00, /* 0x78 meshes[1].pieces[1]: material 4; 9, 10, 11 */
};

TestSuite(toshi, .init = setup, .fini = teardown);

Test(toshi, computed_address)
{
    cx_toshi_File *f;
    ASSERT_READ(cx_toshi_read_model(toshi_file, sizeof toshi_file, &arena, NULL, &f, &err));
    cr_assert_eq(f->header.salt, 0x1000);
    cr_assert_eq(f->lods_count, 1);
    cr_assert_eq(f->lods[0]._offset, 0x3C);
    cr_assert_eq(f->lods[0].meshes_count, 2);
    cr_assert_eq(f->lods[0].meshes[0]._offset, 0x48);
    cr_assert_eq(f->lods[0].meshes[1]._offset, 0x54);
    cr_assert_float_eq(f->lods[0].lod_id_value, 2.0, 0); /* derive: _value / 3 */
}

Test(toshi, aux_present)
{
    cx_toshi_File *f;
    ASSERT_READ(cx_toshi_read_model(toshi_file, sizeof toshi_file, &arena, NULL, &f, &err));
    cx_toshi_Mesh *m = &f->lods[0].meshes[0];
    cr_assert(m->has_aux_size);
    cr_assert_eq(m->aux_size, 4);
    cr_assert(m->has_aux);
    cr_assert_eq(m->aux.offset, 0x5C);
    cr_assert_eq(m->aux.len, 4);
    cr_assert_eq(m->aux.ptr[0], 0xDE);
    cr_assert_eq(m->piece_address_at, 0x50);
    cr_assert_eq(m->pieces_at, 0x60);
}

Test(toshi, aux_absent_at_0x7c_moves_next_field)
{
    cx_toshi_File *f;
    ASSERT_READ(cx_toshi_read_model(toshi_file, sizeof toshi_file, &arena, NULL, &f, &err));
    cx_toshi_Mesh *m = &f->lods[0].meshes[1];
    cr_assert(!m->has_aux_size);
    cr_assert(!m->has_aux);
    cr_assert_eq(m->piece_address_at, 0x58, "moved up by the absent aux_size");
    cr_assert_eq(m->piece_address, 0x1034);
    cr_assert_eq(m->pieces_at, 0x70);
}

Test(toshi, params_through_levels)
{
    cx_toshi_File *f;
    ASSERT_READ(cx_toshi_read_model(toshi_file, sizeof toshi_file, &arena, NULL, &f, &err));
    cx_toshi_Mesh *m = &f->lods[0].meshes[1];
    cr_assert_eq(m->_p_piece_count, 2);
    cr_assert_eq(m->_p_index_count, 3);
    cr_assert_eq(m->pieces_count, 2);
    cr_assert_eq(m->pieces[1]._p_index_count, 3);
    cr_assert_eq(m->pieces[1].material, 4);
    cr_assert_eq(m->pieces[1].indices_count, 3);
    cr_assert_eq(m->pieces[1].indices[0], 9);
    cr_assert_eq(m->pieces[1].indices[2], 11);
    cr_assert_eq(f->lods[0].meshes[0].pieces[0].indices[1], 1);
}

Test(toshi, address_past_end_fails)
{
    uint8_t *d = copy_of(toshi_file, sizeof toshi_file);
    d[0x59] = 0x11; /* meshes[1].piece_address 0x1134 -> 0x170 */
    cx_toshi_File *f;
    ASSERT_FAILS_AT(cx_toshi_read_model(d, sizeof toshi_file, &arena, NULL, &f, &err), "lods[0].meshes[1].pieces", 0x5C);
    cr_assert(msg_has("offset 0x170 is past the end of the file (128 bytes)"), "%s", err.message);
}

Test(toshi, address_before_start_fails)
{
    uint8_t *d = copy_of(toshi_file, sizeof toshi_file);
    d[0x05] = 0x20; /* salt 0x2000: 60 + 0x1000 - 0x2000 < 0 */
    cx_toshi_File *f;
    ASSERT_FAILS_AT(cx_toshi_read_model(d, sizeof toshi_file, &arena, NULL, &f, &err), "lods", 0x3C);
    cr_assert(msg_has("offset -4036 is negative"), "%s", err.message);
}

/* ==== cx_p3m: trailing string table with no stored offset, weight ranges until count 0 ==== */

static const uint8_t p3m_file[] = {
    'P', '3', 'M', '1',                             /* 0x00 magic */
    0x02, 0x00,                                     /* 0x04 bone_count = 2 */
    0x01, 0x00,                                     /* 0x06 name -> "snake" */
    0x07, 0x00, 0xFF, 0xFF,                         /* 0x08 bones[0]: "head", parent -1 */
    0xFF, 0xFF, 0x00, 0x00,                         /* 0x0C bones[1]: no name, parent 0 */
    0x00, 0x00, 0x04, 0x00,                         /* 0x10 ranges[0]: vertices 0..3 */
    0x04, 0x00, 0x02, 0x00,                         /* 0x14 ranges[1]: vertices 4..5 */
    0x00, 0x00, 0x00, 0x00,                         /* 0x18 ranges[2]: count 0 ends the list */
    0, 's', 'n', 'a', 'k', 'e', 0, 'h', 'e', 'a', 'd', 0, /* 0x1C strings, to the end */
};

TestSuite(p3m, .init = setup, .fini = teardown);

Test(p3m, weight_ranges_until_count_zero)
{
    cx_p3m_File *f;
    ASSERT_READ(cx_p3m_read_model(p3m_file, sizeof p3m_file, &arena, NULL, &f, &err));
    cr_assert_eq(f->ranges_count, 3);
    cr_assert_eq(f->ranges[1].first_vertex, 4);
    cr_assert_eq(f->ranges[1].weight_count, 2);
    cr_assert_eq(f->ranges[2].weight_count, 0);
}

Test(p3m, trailing_string_table)
{
    cx_p3m_File *f;
    ASSERT_READ(cx_p3m_read_model(p3m_file, sizeof p3m_file, &arena, NULL, &f, &err));
    cr_assert_eq(f->strings.offset, 0x1C);
    cr_assert_eq(f->strings.len, 12);
    cr_assert(str_is(f->name_str, "snake"), "a reference read before the table it points into");
    cr_assert(str_is(f->bones[0].name_str, "head"));
    cr_assert_eq(f->bones[0].parent, -1);
    cr_assert_eq(f->bones[1].name, 0xFFFF);
    cr_assert_null(f->bones[1].name_str.ptr, "null: 0xFFFF gives no string");
}

Test(p3m, string_outside_table_fails)
{
    uint8_t *d = copy_of(p3m_file, sizeof p3m_file);
    d[0x0C] = 0x20;
    d[0x0D] = 0x00;
    cx_p3m_File *f;
    ASSERT_FAILS_AT(cx_p3m_read_model(d, sizeof p3m_file, &arena, NULL, &f, &err), "bones[1].name", 0x0C);
    cr_assert(msg_has("string offset 0x20 is outside the string table (12 bytes)"), "%s", err.message);
}

Test(p3m, missing_range_terminator_fails)
{
    uint8_t *d = copy_of(p3m_file, 0x1C);
    d[0x1A] = 0x01; /* the last range has a count: no terminator, and the file ends */
    cx_p3m_File *f;
    ASSERT_FAILS_AT(cx_p3m_read_model(d, 0x1C, &arena, NULL, &f, &err), "ranges", 0x1C);
}

/* ==== cx_padding: first_nonzero(), padding texts, lz4_size() ==== */

#include "bf_validate.h"
#include "bf_write.h"
#include "cx_padding.h"

/* Header (0x00..0x09), pairs at 0x0A: three pairs then "PAD-P" (5 bytes: a prefix of the fill,
 * shorter than 8, starting at a multiple of 4), bytes at 0x1B: 2 bytes then "PA", LZ4 at 0x1F. */
static const uint8_t padded_file[] = {
    'C', 'X', 'P', 'D', 0x00, 0x0A, 0x00, 0x1B, 0x00, 0x1F, /* 0x00 header */
    0x00, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0x04,         /* 0x0A pairs (1, 2), (3, 4) */
    'P', 'A', 'D', 0x00,                                    /* 0x12 (0x5041, 0x4400): data, not the fill */
    'P', 'A', 'D', '-', 'P',                                /* 0x16 padding */
    0x07, 0x08, 'P', 'A',                                   /* 0x1B bytes 7, 8, then padding */
    0x00, 0x15, 0x39, 'a', 'b', 'c', 0x03, 0x00, 0x50, 'b', 'c', 'a', 'b', 'c', /* 0x1F: 21, abc... */
};

TestSuite(padding, .init = setup, .fini = teardown);

Test(padding, tables_end_at_the_next_offset_and_before_their_padding)
{
    cx_padding_File *f;
    ASSERT_READ(cx_padding_read_file(padded_file, sizeof padded_file, &arena, NULL, &f, &err));
    cr_expect(f->has_pairs);
    cr_expect_eq(f->pairs_count, 6, "three pairs; the fill starts at 0x16, a multiple of 4 from 0x0A");
    cr_expect_eq(f->pairs[4], 0x5041);
    cr_expect_eq(f->pairs_tail.offset, 0x16);
    cr_expect_eq(f->pairs_tail.len, 5);
    cr_expect_eq(f->small_count, 2);
    cr_expect_eq(f->small[1], 8);
    cr_expect_eq(f->small_tail.len, 2);
    cr_expect_eq(f->packed.decoded_size, 21);
    bf_findings v = {0};
    cx_padding_validate_file(f, padded_file, sizeof padded_file, &v);
    cr_expect_eq(v.count, 0);
    bf_findings_free(&v);
    bf_buffer out = {0};
    cr_assert(cx_padding_write_file(f, &out, &err), FAIL_INFO);
    cr_expect(out.size == sizeof padded_file && memcmp(out.data, padded_file, out.size) == 0, "round trip");
    bf_buffer_free(&out);
}

Test(padding, an_unknown_fill_is_kept_as_entries)
{
    uint8_t *d = copy_of(padded_file, sizeof padded_file);
    d[0x19] = 'X'; /* "PAD-X": no fill text starts like that */
    cx_padding_File *f;
    ASSERT_READ(cx_padding_read_file(d, sizeof padded_file, &arena, NULL, &f, &err));
    cr_expect_eq(f->pairs_count, 8, "as many whole pairs as fit: 16 of the 17 bytes");
    cr_expect_eq(f->pairs_tail.len, 1);
}

Test(padding, an_absent_table_is_skipped_by_first_nonzero)
{
    uint8_t *d = copy_of(padded_file, sizeof padded_file);
    d[0x07] = 0; /* no byte table: the pairs run to the LZ4 block */
    cx_padding_File *f;
    ASSERT_READ(cx_padding_read_file(d, sizeof padded_file, &arena, NULL, &f, &err));
    cr_expect(!f->has_small);
    cr_expect_eq(f->pairs_count, 10, "up to the LZ4 block: 0x0A..0x1E, five whole pairs of 21 bytes");
    cr_expect_eq(f->pairs[9], 0x0850); /* 0x1C: 08, then the byte table's first padding byte */
    cr_expect_eq(f->pairs_tail.len, 1);
}

Test(padding, lz4_size_checks_a_block)
{
    uint8_t *d = copy_of(padded_file, sizeof padded_file);
    d[0x20] = 22; /* the block decodes to 21 */
    cx_padding_File *f;
    ASSERT_READ(cx_padding_read_file(d, sizeof padded_file, &arena, NULL, &f, &err));
    bf_findings v = {0};
    cx_padding_validate_file(f, d, sizeof padded_file, &v);
    cr_assert_eq(v.count, 1);
    cr_expect_str_eq(v.items[0].message, "the block decodes to 21 bytes, not 22");
    bf_findings_free(&v);
    d[0x20] = 21;
    d[0x25] = 0x09; /* the match reaches 9 bytes back, before the 3 decoded */
    ASSERT_READ(cx_padding_read_file(d, sizeof padded_file, &arena, NULL, &f, &err));
    v = (bf_findings){0};
    cx_padding_validate_file(f, d, sizeof padded_file, &v);
    cr_assert_eq(v.count, 1);
    cr_expect_str_eq(v.items[0].message, "the block is not valid LZ4 data");
    cr_expect_eq(v.items[0].offset, 0x21);
    bf_findings_free(&v);
}

/* ==== cx_values: named values, and quantifiers in reads ==== */

#include "cx_values.h"

/* A cx_values file: header (2 vertices, scale 1.5), the attributes given (each attr,
 * components, size), the 0xFF terminator, then buffers of the sizes they imply. */
static size_t values_file(uint8_t *out, const uint8_t (*attrs)[3], size_t n)
{
    size_t p = 0, stride = 0, position = 0, extra = 0;
    out[p++] = 2;
    out[p++] = 0x80; /* scale_q 0x0180: 1.5 */
    out[p++] = 0x01;
    for (size_t i = 0; i < n; i++) {
        memcpy(out + p, attrs[i], 3);
        p += 3;
        stride += (size_t)attrs[i][1] * attrs[i][2];
        if (attrs[i][0] == 9 && !position)
            position = attrs[i][1];
        extra |= attrs[i][0] == 0x20;
    }
    out[p++] = 0xFF, out[p++] = 0, out[p++] = 0;
    size_t body = 2 * 2 * position + 2 * stride + extra + n;
    for (size_t i = 0; i < body; i++)
        out[p++] = (uint8_t)(0x40 + i);
    return p;
}

static const uint8_t two_attrs[][3] = {{9, 3, 2}, {0x20, 1, 1}};

TestSuite(values, .init = setup, .fini = teardown);

Test(values, sizes_come_from_named_values_and_quantifiers)
{
    uint8_t d[128];
    size_t size = values_file(d, two_attrs, 2);
    cr_assert_eq(size, 41);
    cx_values_File *f;
    ASSERT_READ(cx_values_read_file(d, size, &arena, NULL, &f, &err));
    cr_expect_eq(f->positions_count, 6, "2 vertices x 3 components of attribute first(attrs, _it.attr == 9)");
    cr_expect_eq(f->positions[0], 0x4140);
    cr_expect_eq(f->vertices.len, 14, "2 vertices x stride sum(attrs, _it.bytes) = 3*2 + 1*1");
    cr_expect(f->has_extra, "any(attrs, _it.attr == 0x20) in an if");
    cr_expect_eq(f->marks_count, 2, "count(attrs, _it.attr != 0xFF) as a count");
    cr_expect_eq(f->marks[1], 0x40 + 12 + 14 + 1 + 1);
    bf_findings v = {0};
    cx_values_validate_file(f, d, size, &v);
    cr_expect_eq(v.count, 0, "%s", v.count ? v.items[0].message : "");
    bf_findings_free(&v);
    bf_buffer out = {0};
    cr_assert(cx_values_write_file(f, &out, &err), FAIL_INFO);
    cr_expect(out.size == size && memcmp(out.data, d, size) == 0, "round trip");
    bf_buffer_free(&out);
}

Test(values, a_missing_attribute_gives_the_fallback)
{
    static const uint8_t no_position[][3] = {{7, 2, 1}};
    uint8_t d[128];
    size_t size = values_file(d, no_position, 1);
    cx_values_File *f;
    ASSERT_READ(cx_values_read_file(d, size, &arena, NULL, &f, &err));
    cr_expect_eq(f->positions_count, 0, "first() gives -1: position_components is 0");
    cr_expect_eq(f->vertices.len, 4);
    cr_expect(!f->has_extra);
    cr_expect_eq(f->marks_count, 1);
    cr_expect_eq(size, (size_t)(3 + 6 + 4 + 1));
}

Test(values, rules_and_messages_use_values)
{
    static const uint8_t wide[][3] = {{9, 4, 2}, {0x20, 1, 1}};
    uint8_t d[128];
    size_t size = values_file(d, wide, 2);
    cx_values_File *f;
    ASSERT_READ(cx_values_read_file(d, size, &arena, NULL, &f, &err));
    cr_expect_eq(f->vertices.len, 18);
    bf_findings v = {0};
    cx_values_validate_file(f, d, size, &v);
    cr_assert_eq(v.count, 2);
    cr_expect_str_eq(v.items[0].message, "a vertex takes 9 bytes, more than 8");
    cr_expect_str_eq(v.items[1].message, "attribute 0 takes 8 bytes (scale 1.5)");
    cr_expect_str_eq(v.items[1].path, "attrs[0]");
    bf_findings_free(&v);
}

Test(values, a_short_file_fails_in_the_buffer_a_value_sizes)
{
    uint8_t d[128];
    size_t size = values_file(d, two_attrs, 2);
    cx_values_File *f;
    ASSERT_FAILS_AT(cx_values_read_file(d, 12 + 20, &arena, NULL, &f, &err), "vertices", 12 + 12);
    (void)size;
}

Test(values, two_fields_of_one_type_are_checked_as_one_structure)
{
    static const uint8_t box[] = {1, 2, 3, 4};
    cx_values_Box *b;
    ASSERT_READ(cx_values_read_box(box, sizeof box, &arena, NULL, &b, &err));
    cr_expect_eq(b->max.y, 4);
    /* the path is the box's, not max's: the whole box is bounds-checked once */
    ASSERT_FAILS_AT(cx_values_read_box(box, 3, &arena, NULL, &b, &err), "", 0);
    cr_expect(msg_has("needs 4 bytes but only 3 remain"), "%s", err.message);
}
