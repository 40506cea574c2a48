/* The runtime: byte order (one value and whole arrays), arena and budget, errors with paths,
 * strings, safe arithmetic, findings. */
#include <criterion/criterion.h>
#include <string.h>

#include "bf_expr.h"
#include "bf_runtime.h"
#include "bf_validate.h"

Test(endian, loads_are_byte_order_exact)
{
    const uint8_t b[8] = {0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0};
    cr_expect_eq(bf_load_u16be(b), 0x1234);
    cr_expect_eq(bf_load_u16le(b), 0x3412);
    cr_expect_eq(bf_load_u24be(b + 1), 0x345678);
    cr_expect_eq(bf_load_u24le(b + 1), 0x785634);
    cr_expect_eq(bf_load_u32be(b), 0x12345678u);
    cr_expect_eq(bf_load_u32le(b), 0x78563412u);
    cr_expect_eq(bf_load_u64be(b), UINT64_C(0x123456789abcdef0));
    cr_expect_eq(bf_load_u64le(b), UINT64_C(0xf0debc9a78563412));
}

Test(endian, loads_work_at_odd_addresses)
{
    uint8_t buf[16] = {0};
    for (int shift = 0; shift < 8; shift++) {
        memset(buf, 0, sizeof buf);
        bf_store_u32be(buf + shift, 0xdeadbeefu);
        cr_expect_eq(bf_load_u32be(buf + shift), 0xdeadbeefu);
        bf_store_u64le(buf + shift, UINT64_C(0x0102030405060708));
        cr_expect_eq(buf[shift], 0x08);
        cr_expect_eq(bf_load_u64le(buf + shift), UINT64_C(0x0102030405060708));
    }
}

Test(endian, stores_round_trip)
{
    uint8_t b[8];
    bf_store_u16le(b, 0xabcd);
    cr_expect_eq(b[0], 0xcd);
    bf_store_u24be(b, 0x123456);
    cr_expect(b[0] == 0x12 && b[1] == 0x34 && b[2] == 0x56);
    bf_store_u24le(b, 0x123456);
    cr_expect_eq(bf_load_u24le(b), 0x123456);
    bf_store_u16be(b, 0xfffe);
    cr_expect_eq(bf_s16(bf_load_u16be(b)), -2);
}

Test(endian, signed_and_float_conversions)
{
    cr_expect_eq(bf_s8(0x80), -128);
    cr_expect_eq(bf_s16(0x8000), -32768);
    cr_expect_eq(bf_s24(0xffffff), -1);
    cr_expect_eq(bf_s24(0x7fffff), 0x7fffff);
    cr_expect_eq(bf_s32(0x80000000u), INT32_MIN);
    cr_expect_eq(bf_s64(UINT64_C(0x8000000000000000)), INT64_MIN);
    cr_expect_eq(bf_f32_from_bits(0x3f800000u), 1.0f);
    cr_expect_eq(bf_f32_bits(-2.0f), 0xc0000000u);
    cr_expect_eq(bf_f64_from_bits(UINT64_C(0x4000000000000000)), 2.0);
}

Test(endian, whole_arrays_load_and_store_every_width)
{
    /* Odd source and destination addresses: nothing may rely on alignment. */
    uint8_t src[1 + 24], back[1 + 24];
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (uint8_t)(0x80 + i * 7);
    const uint8_t *in = src + 1;

    uint8_t u8[3];
    bf_load_array(u8, in, 3, 1, 1, 0);
    cr_expect(u8[0] == in[0] && u8[2] == in[2]);

    uint16_t be16[3], le16[3];
    bf_load_array(be16, in, 3, 2, 1, 0);
    bf_load_array(le16, in, 3, 2, 0, 0);
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(be16[i], bf_load_u16be(in + 2 * i));
        cr_expect_eq(le16[i], bf_load_u16le(in + 2 * i));
    }

    uint32_t u24[4];
    int32_t s24[4];
    bf_load_array(u24, in, 4, 3, 1, 0);
    bf_load_array(s24, in, 4, 3, 0, 1);
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(u24[i], bf_load_u24be(in + 3 * i));
        cr_expect_eq(s24[i], bf_s24(bf_load_u24le(in + 3 * i)));
    }
    cr_expect_lt(s24[0], 0, "0x80... as s24 is negative");

    uint32_t u32[3];
    float f32[3];
    bf_load_array(u32, in, 3, 4, 0, 0);
    bf_load_array(f32, in, 3, 4, 1, 0);
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(u32[i], bf_load_u32le(in + 4 * i));
        cr_expect_eq(bf_f32_bits(f32[i]), bf_load_u32be(in + 4 * i));
    }

    uint64_t u64[3];
    bf_load_array(u64, in, 3, 8, 1, 0);
    for (int i = 0; i < 3; i++)
        cr_expect_eq(u64[i], bf_load_u64be(in + 8 * i));

    /* Storing gives the bytes back, whatever the width and byte order. */
    struct { const void *mem; unsigned width; int be; size_t n; } cases[] = {
        {u8, 1, 1, 3}, {be16, 2, 1, 3}, {le16, 2, 0, 3}, {u24, 3, 1, 4}, {s24, 3, 0, 4},
        {u32, 4, 0, 3}, {f32, 4, 1, 3}, {u64, 8, 1, 3},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memset(back, 0, sizeof back);
        bf_store_array(back + 1, cases[c].mem, cases[c].n, cases[c].width, cases[c].be);
        cr_expect_eq(memcmp(back + 1, in, cases[c].n * cases[c].width), 0, "width %u, %s", cases[c].width,
                     cases[c].be ? "big-endian" : "little-endian");
    }
    bf_load_array(NULL, in, 0, 2, 1, 0); /* nothing to do, nothing touched */
}

Test(arena, allocations_are_zeroed_aligned_and_budgeted)
{
    bf_arena a;
    bf_arena_init(&a, bf_alloc_default(), 1000);
    uint8_t *p = bf_arena_alloc(&a, 10);
    cr_assert_not_null(p);
    cr_expect_eq((uintptr_t)p % 16, 0);
    for (int i = 0; i < 10; i++)
        cr_expect_eq(p[i], 0);
    cr_expect_not_null(bf_arena_alloc(&a, 900));
    cr_expect_null(bf_arena_alloc(&a, 200), "the budget of 1000 bytes is spent");
    cr_expect_null(bf_arena_alloc(&a, 40000), "nor is a large block past it");
    bf_arena_free(&a);
    bf_arena_init(&a, bf_alloc_default(), 0);
    cr_expect_not_null(bf_arena_alloc(&a, 100000), "no budget: large blocks are fine");
    cr_expect_null(bf_arena_alloc(&a, SIZE_MAX - 3), "sizes that overflow are refused");
    bf_arena_free(&a);
}

static size_t live_bytes;
static void *counting_alloc(void *user, size_t n)
{
    (void)user;
    live_bytes += n;
    return malloc(n);
}
static void counting_release(void *user, void *p, size_t n)
{
    (void)user;
    live_bytes -= n;
    free(p);
}

Test(arena, allocator_hooks_get_everything_back)
{
    bf_alloc hooks = {counting_alloc, counting_release, NULL};
    bf_arena a;
    bf_arena_init(&a, hooks, 0);
    for (int i = 0; i < 100; i++)
        bf_arena_alloc(&a, (size_t)i * 97);
    cr_expect_gt(live_bytes, 0);
    bf_arena_free(&a);
    cr_expect_eq(live_bytes, 0);
}

Test(errors, path_and_offset_are_formatted)
{
    uint8_t data[4] = {0};
    bf_arena a;
    bf_arena_init(&a, bf_alloc_default(), 0);
    bf_error err;
    bf_ctx c;
    bf_ctx_init(&c, data, sizeof data, &a, &err);
    bf_push(&c, "chunks", 3);
    cr_expect_eq(bf_fail(&c, 0x38, "offset", "offset 0x%x is past the end", 0x1f000), 0);
    bf_fail(&c, 0, "other", "a later failure does not replace the first");
    char line[512];
    bf_error_format(&err, "model.t3dm", line, sizeof line);
    cr_expect_str_eq(line, "model.t3dm: error: chunks[3].offset @0x38: offset 0x1f000 is past the end");
    bf_arena_free(&a);
}

Test(errors, need_and_alloc_array_refuse_lies)
{
    uint8_t data[16] = {0};
    bf_arena a;
    bf_arena_init(&a, bf_alloc_default(), 0);
    bf_error err;
    bf_ctx c;
    bf_ctx_init(&c, data, sizeof data, &a, &err);
    cr_expect(bf_need(&c, 16, "x"));
    cr_expect_not(bf_need(&c, 17, "x"));
    cr_expect_str_eq(err.message, "needs 17 bytes but only 16 remain before 0x10");
    memset(&err, 0, sizeof err);
    cr_expect_null(bf_alloc_array(&c, 5, 64, 4, "items"), "5 items of 4 bytes cannot fit in 16");
    cr_expect_str_eq(err.path, "items");
    memset(&err, 0, sizeof err);
    cr_expect_not_null(bf_alloc_array(&c, 4, 64, 4, "items"));
    cr_expect_not_null(bf_alloc_array(&c, 0, 64, 4, "none"), "count 0 still gives a pointer");
    bf_arena_free(&a);
}

Test(strings, string_tables_are_checked)
{
    const uint8_t data[] = "Sab\0cd\0ef";
    bf_arena a;
    bf_arena_init(&a, bf_alloc_default(), 0);
    bf_error err;
    bf_ctx c;
    bf_ctx_init(&c, data, 9, &a, &err);
    bf_str s;
    cr_assert(bf_resolve_str(&c, 0, 9, 4, 0, "name", &s));
    cr_expect(s.len == 2 && memcmp(s.ptr, "cd", 2) == 0);
    cr_expect_not(bf_resolve_str(&c, 0, 9, 7, 0x20, "name", &s), "'ef' has no terminator");
    cr_expect_eq(err.offset, 0x20);
    memset(&err, 0, sizeof err);
    cr_expect_not(bf_resolve_str(&c, 0, 9, 9, 0, "name", &s), "offset at the end of the table");
    memset(&err, 0, sizeof err);
    cr_expect_not(bf_resolve_str(&c, 4, 100, 0, 0, "name", &s), "table beyond the file");
    c.pos = 4;
    cr_assert(bf_read_cstr(&c, "cstr", &s));
    cr_expect_eq(c.pos, 7);
    cr_expect_not(bf_read_cstr(&c, "cstr", &s));
    bf_arena_free(&a);
}

Test(expr, arithmetic_never_overflows_or_divides_by_zero)
{
    uint8_t data[1];
    bf_arena a;
    bf_arena_init(&a, bf_alloc_default(), 0);
    bf_error err;
    bf_ctx c;
    bf_ctx_init(&c, data, 1, &a, &err);
    cr_expect_eq(bf_add(INT64_MAX, 1), INT64_MIN);
    cr_expect_eq(bf_mul(INT64_MAX, 2), -2);
    cr_expect_eq(bf_neg(INT64_MIN), INT64_MIN);
    cr_expect_eq(bf_shl(1, 64), 1, "shift counts are taken modulo 64");
    cr_expect_eq(bf_shr(-16, 2), -4);
    cr_expect_eq(bf_shr(16, 2), 4);
    cr_expect_eq(bf_div(&c, INT64_MIN, -1), INT64_MIN);
    cr_expect_eq(bf_div(&c, 7, 2), 3);
    cr_expect_not(err.failed);
    cr_expect_eq(bf_div(&c, 7, 0), 0);
    cr_expect(err.failed);
    cr_expect_eq(bf_sext(0x1f, 5), -1);
    cr_expect_eq(bf_sext(0x0f, 5), 15);
    bf_arena_free(&a);
}

Test(findings, past_the_limit_they_are_counted_not_kept)
{
    bf_findings f;
    memset(&f, 0, sizeof f);
    f.limit = 2;
    for (uint64_t i = 0; i < 5; i++)
        bf_findings_add(&f, i % 2 ? BF_SEVERITY_WARNING : BF_SEVERITY_ERROR, 0x10 * (5 - i) + (i == 3) * 0x100,
                        "a.b", "message", NULL);
    cr_expect_eq(f.count, 2);
    cr_expect_eq(f.dropped, 3);
    cr_expect_eq(f.errors, 3);
    cr_expect_eq(f.warnings, 2);
    cr_expect_eq(f.max_offset, 0x120, "the dropped finding's offset counts too");
    cr_expect_not(bf_findings_keeps(&f));
    bf_findings_free(&f);

    memset(&f, 0, sizeof f); /* no limit set: BF_MAX_FINDINGS */
    for (int i = 0; i < BF_MAX_FINDINGS + 3; i++)
        bf_findings_add(&f, BF_SEVERITY_ERROR, 1, "x", "y", NULL);
    cr_expect_eq(f.count, BF_MAX_FINDINGS);
    cr_expect_eq(f.dropped, 3);
    bf_findings_free(&f);
}
