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

/* Claims set exactly the bits of the bytes read, clipped to the input, whatever the
 * alignment of the range (whole bytes are set at once in the middle). */
Test(claims, ranges_set_exactly_their_bits)
{
    enum { SIZE = 70 };
    uint8_t data[SIZE] = {0};
    bf_arena a;
    bf_arena_init(&a, bf_alloc_default(), 0);
    bf_error err;
    bf_ctx c;
    bf_ctx_init(&c, data, sizeof data, &a, &err);
    for (uint64_t off = 0; off <= SIZE + 2; off++)
        for (uint64_t len = 0; len <= SIZE + 4; len++) {
            uint8_t got[SIZE / 8 + 1] = {0}, want[SIZE / 8 + 1] = {0};
            c.claimed = got;
            bf_claim_range(&c, off, len);
            for (uint64_t i = off; i < off + len && i < SIZE; i++)
                want[i >> 3] |= (uint8_t)(1u << (i & 7));
            cr_assert_arr_eq(got, want, sizeof got, "claim of %llu bytes at %llu", (unsigned long long)len,
                             (unsigned long long)off);
        }
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

/* --ignore RULE: a rule by its name, or every rule under a name that ends at a dot. */
Test(findings, ignored_by_rule_name)
{
    bf_findings f;
    memset(&f, 0, sizeof f);
    bf_findings_add_rule(&f, BF_SEVERITY_WARNING, 1, "bones[0].tail", "m", NULL, "p3m.Bone.tail");
    bf_findings_add_rule(&f, BF_SEVERITY_ERROR, 2, "bones[0].parent", "m", NULL, "p3m.Bone.parent");
    bf_findings_add_rule(&f, BF_SEVERITY_ERROR, 3, "bones2", "m", NULL, "p3m.Bones.count");
    bf_findings_add(&f, BF_SEVERITY_ERROR, 4, "x", "a reader's error", NULL);
    cr_expect_eq(bf_findings_ignore(&f, "p3m.Bone.tai"), 0, "a part of a name is no name");
    cr_expect_eq(bf_findings_ignore(&f, "p3m.Bone.tail"), 1);
    cr_expect_eq(f.warnings, 0);
    cr_expect_eq(bf_findings_ignore(&f, "p3m.Bone"), 1, "p3m.Bone.parent, not p3m.Bones.count");
    cr_assert_eq(f.count, 2);
    cr_expect_eq(f.errors, 2);
    cr_expect_str_eq(f.items[0].rule, "p3m.Bones.count");
    cr_expect_null(f.items[1].rule);
    bf_findings_free(&f);
}

/* ---- LZ4 blocks (runtime/bf_lz4.c) ---- */

/* Decodes into a buffer of `cap` bytes and checks that measuring gives the same length. */
static int64_t lz4(const uint8_t *src, size_t n, uint8_t *out, size_t cap)
{
    int64_t got = bf_lz4_block(src, n, out, cap, 0);
    int64_t measured = bf_lz4_size(src, n, 0);
    if (got >= 0)
        cr_expect_eq(measured, got, "measuring gives %lld, decoding %lld", (long long)measured, (long long)got);
    return got;
}

Test(lz4, literals_and_overlapping_matches)
{
    uint8_t out[64];
    static const uint8_t hello[] = {0x50, 'h', 'e', 'l', 'l', 'o'};
    cr_expect_eq(lz4(hello, sizeof hello, out, sizeof out), 5);
    cr_expect_eq(memcmp(out, "hello", 5), 0);
    /* 3 literals, a 13-byte match 3 back (it overlaps what it writes), 5 final literals */
    static const uint8_t abc[] = {0x39, 'a', 'b', 'c', 0x03, 0x00, 0x50, 'b', 'c', 'a', 'b', 'c'};
    cr_expect_eq(lz4(abc, sizeof abc, out, sizeof out), 21);
    cr_expect_eq(memcmp(out, "abcabcabcabcabcabcabc", 21), 0);
    /* a run of one byte: offset 1 */
    static const uint8_t run[] = {0x1F, 'x', 0x01, 0x00, 0x0A, 0x10, 'y'};
    cr_expect_eq(lz4(run, sizeof run, out, sizeof out), 1 + 15 + 4 + 10 + 1);
    cr_expect(out[0] == 'x' && out[29] == 'x' && out[30] == 'y');
    /* an empty last sequence: a token of 0 literals ends the block */
    static const uint8_t empty_end[] = {0x10, 'z', 0x01, 0x00, 0x00};
    cr_expect_eq(lz4(empty_end, sizeof empty_end, out, sizeof out), 1 + 4);
}

Test(lz4, long_literal_runs)
{
    /* 15 + 255 + 10 = 280 literals */
    uint8_t src[3 + 280], out[300];
    src[0] = 0xF0;
    src[1] = 255;
    src[2] = 10;
    for (int i = 0; i < 280; i++)
        src[3 + i] = (uint8_t)i;
    cr_expect_eq(lz4(src, sizeof src, out, sizeof out), 280);
    cr_expect_eq(memcmp(out, src + 3, 280), 0);
    cr_expect_eq(lz4(src, sizeof src - 1, out, sizeof out), -1, "one literal missing");
    cr_expect_eq(lz4(src, 2, out, sizeof out), -1, "the length's extension bytes run out");
}

Test(lz4, malformed_blocks_are_refused)
{
    uint8_t out[64];
    static const uint8_t zero_offset[] = {0x10, 'a', 0x00, 0x00, 0x00};
    cr_expect_eq(lz4(zero_offset, sizeof zero_offset, out, sizeof out), -1);
    static const uint8_t too_far[] = {0x10, 'a', 0x02, 0x00, 0x00}; /* 2 back, 1 written */
    cr_expect_eq(lz4(too_far, sizeof too_far, out, sizeof out), -1);
    static const uint8_t ends_after_match[] = {0x10, 'a', 0x01, 0x00};
    cr_expect_eq(lz4(ends_after_match, sizeof ends_after_match, out, sizeof out), -1);
    static const uint8_t half_offset[] = {0x10, 'a', 0x01};
    cr_expect_eq(lz4(half_offset, sizeof half_offset, out, sizeof out), -1);
    static const uint8_t match_extension_runs_out[] = {0x1F, 'a', 0x01, 0x00, 0xFF};
    cr_expect_eq(lz4(match_extension_runs_out, sizeof match_extension_runs_out, out, sizeof out), -1);
    cr_expect_eq(bf_lz4_block(NULL, 0, out, sizeof out, 0), -1);
    static const uint8_t one[] = {0x00};
    cr_expect_eq(lz4(one, 0, out, sizeof out), -1, "an empty block is not a block");
    /* the output does not fit: refused, nothing written past the capacity */
    static const uint8_t abc[] = {0x39, 'a', 'b', 'c', 0x03, 0x00, 0x50, 'b', 'c', 'a', 'b', 'c'};
    uint8_t small[24];
    memset(small, 0xEE, sizeof small);
    cr_expect_eq(bf_lz4_block(abc, sizeof abc, small, 20, 0), -1);
    cr_expect_eq(small[20], 0xEE);
    /* a run of 255s: lengths that could overflow are refused, quickly */
    uint8_t huge[4096];
    memset(huge, 0xFF, sizeof huge);
    huge[0] = 0xF0;
    cr_expect_eq(bf_lz4_size(huge, sizeof huge, 0), -1);
}

Test(lz4, history_of_an_earlier_block)
{
    /* a linked block: its match reaches 3 bytes into the previous block's output */
    uint8_t buf[16] = {'x', 'y', 'z'};
    static const uint8_t linked[] = {0x20, '1', '2', 0x05, 0x00, 0x00};
    cr_expect_eq(bf_lz4_size(linked, sizeof linked, 0), -1, "alone, the match reaches before the block");
    cr_expect_eq(bf_lz4_size(linked, sizeof linked, 3), 6);
    cr_expect_eq(bf_lz4_block(linked, sizeof linked, buf + 3, sizeof buf - 3, 3), 6);
    cr_expect_eq(memcmp(buf, "xyz12xyz1", 9), 0);
}

Test(lz4, any_input_decodes_or_is_refused)
{
    /* deterministic noise: never a crash or a read or write out of bounds (ASan), and measuring
     * always agrees with decoding */
    uint64_t state = 1;
    uint8_t src[64], out[512];
    int decoded = 0;
    for (int round = 0; round < 20000; round++) {
        size_t n = 1 + (size_t)(round % 64);
        for (size_t i = 0; i < n; i++) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            src[i] = (uint8_t)(state >> 56);
        }
        int64_t got = bf_lz4_block(src, n, out, sizeof out, 0);
        int64_t measured = bf_lz4_size(src, n, 0);
        if (got >= 0) {
            decoded++;
            cr_assert_eq(measured, got);
        } else {
            cr_assert(measured < 0 || measured > (int64_t)sizeof out);
        }
    }
    cr_expect_gt(decoded, 100, "some noise is a valid block");
}

/* A rule's message is formatted by the runtime: %d, %x and %g from the values, %% a '%'. */
Test(findings, rule_messages_take_their_values_in_order)
{
    bf_findings f;
    memset(&f, 0, sizeof f);
    bf_vctx v;
    bf_vctx_init(&v, NULL, NULL, 0, &f);
    cr_assert(bf_push(&v.c, "items", 3));
    static const bf_rule rule = {BF_SEVERITY_WARNING, "size", "%d items of 0x%x bytes: %g%% full", "Items: \"...\"", "t.Items.size"};
    cr_expect_not(bf_rule_fails(&v, &rule, 1), "a check that holds does not fail");
    cr_expect(bf_rule_fails(&v, &rule, 0));
    bf_rule_report(&v, &rule, 0x40, (const bf_rule_value[]){{.i = -2}, {.i = 255}, {.f = 12.5}});
    cr_assert_eq(f.count, 1);
    cr_expect_str_eq(f.items[0].message, "-2 items of 0xff bytes: 12.5% full");
    cr_expect_str_eq(f.items[0].path, "items[3].size");
    cr_expect_eq(f.items[0].offset, 0x40);
    cr_expect_eq(f.items[0].severity, BF_SEVERITY_WARNING);
    cr_expect_str_eq(f.items[0].origin, "Items: \"...\"");
    bf_findings_free(&f);
}

/* A check whose evaluation failed is reported as such, not as failed, and only once. */
Test(findings, a_rule_that_cannot_be_evaluated_says_so)
{
    bf_findings f;
    memset(&f, 0, sizeof f);
    bf_vctx v;
    bf_vctx_init(&v, NULL, NULL, 0, &f);
    static const bf_rule rule = {BF_SEVERITY_WARNING, "count", "count %d", NULL, "t.Items.count"};
    bf_fail(&v.c, 0x8, NULL, "index 9 is past the 2 elements");
    cr_expect_not(bf_rule_fails(&v, &rule, 0));
    cr_assert_eq(f.count, 1);
    cr_expect_str_eq(f.items[0].message, "rule could not be evaluated: index 9 is past the 2 elements");
    cr_expect_eq(f.items[0].severity, BF_SEVERITY_ERROR);
    cr_expect_str_eq(f.items[0].path, "count");
    cr_expect(bf_rule_fails(&v, &rule, 0), "the failure was cleared: the next rule evaluates");
    bf_findings_free(&f);
}

/* Enum values outside the list are errors, flag bits outside the set warnings. */
Test(findings, enum_and_flags_checks)
{
    bf_findings f;
    memset(&f, 0, sizeof f);
    bf_vctx v;
    bf_vctx_init(&v, NULL, NULL, 0, &f);
    static const int64_t values[] = {0, 2};
    static const bf_enum_check mode = {"Mode", "Mode: the values", values, 2, "t.Mode.enum"};
    static const bf_flags_check bits = {"Bits", "Bits: the bits", 0x5, "t.Bits.flags"};
    bf_check_enum(&v, &mode, 2, 0x10, "mode");
    bf_check_enum(&v, &mode, 1, 0x10, "mode");
    bf_check_flags(&v, &bits, 0x5, 0x11, "bits");
    bf_check_flags(&v, &bits, 0xF, 0x11, "bits");
    cr_assert_eq(f.count, 2);
    cr_expect_str_eq(f.items[0].message, "1 (0x1) is not a value of Mode");
    cr_expect_eq(f.items[0].severity, BF_SEVERITY_ERROR);
    cr_expect_str_eq(f.items[1].message, "bits 0xa are not Bits flags");
    cr_expect_eq(f.items[1].severity, BF_SEVERITY_WARNING);
    bf_findings_free(&f);
}

/* A frame: magic, FLG (version 01 in 0x40, blocks that may reach earlier ones, content size
 * 0x08), BD, the content size, the header checksum (not verified), blocks, the end mark. */
Test(lz4, frames_of_stored_and_compressed_dependent_blocks)
{
    static const uint8_t frame[] = {
        0x04, 0x22, 0x4D, 0x18, 0x48, 0x40, 12, 0, 0, 0, 0, 0, 0, 0, 0xAA,
        0x03, 0x00, 0x00, 0x80, 'a', 'b', 'c',           /* stored: "abc" */
        /* compressed: a match of 4 three bytes back, into the first block ("abca"), then "xyzw!" */
        0x09, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x50, 'x', 'y', 'z', 'w', '!',
        0x00, 0x00, 0x00, 0x00};
    uint8_t out[32];
    int64_t got = bf_lz4_frame(frame, sizeof frame, out, sizeof out);
    cr_assert_eq(got, 3 + 4 + 5, "decoded %lld", (long long)got);
    cr_expect(memcmp(out, "abcabcaxyzw!", 12) == 0, "%.12s", (const char *)out);
    cr_expect_eq(bf_lz4_frame(frame, sizeof frame, out, 11), -1, "one byte short of room");
    cr_expect_eq(bf_lz4_frame(frame, sizeof frame - 4, out, sizeof out), -1, "no end mark");
    uint8_t independent[sizeof frame];
    memcpy(independent, frame, sizeof frame);
    independent[4] = 0x68; /* the second block may not reach the first */
    cr_expect_eq(bf_lz4_frame(independent, sizeof frame, out, sizeof out), -1);
    uint8_t dict[sizeof frame];
    memcpy(dict, frame, sizeof frame);
    dict[4] = 0x49;
    cr_expect_eq(bf_lz4_frame(dict, sizeof frame, out, sizeof out), -1, "a dictionary is refused");
}
