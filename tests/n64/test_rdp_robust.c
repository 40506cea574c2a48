/* The software RDP on hostile input: random command words, extreme
 * coordinates, addresses past the end of RDRAM, modes that hang a real
 * RDP. Nothing may crash or touch memory it does not own (the test binary
 * runs under ASan and UBSan). */
#include "rdp_internal.h"
#include "rdp_test_util.h"

#include <criterion/criterion.h>
#include <stdlib.h>

static uint32_t rng_state;

static uint32_t rnd(void)
{
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}

/* Random commands; scissor boxes are kept small so the run stays quick. */
static size_t random_commands(uint8_t *out, size_t max_words)
{
    size_t words = 0;
    while (words < max_words) {
        uint32_t w0 = rnd(), w1 = rnd();
        unsigned op = (w0 >> 24) & 0x3f;
        if (rnd() % 4 == 0) /* favour opcodes the RDP defines */
            op = 0x24 + rnd() % 28;
        if (rnd() % 8 == 0)
            op = 0x08 + rnd() % 8;
        w0 = (w0 & 0xc0ffffffu) | op << 24;
        if (op == 0x2d)
            w1 &= 0x030ff0ffu;
        if (op == 0x30 || op == 0x34) /* at most 16 rows of 16 texels, wrapping */
            w1 &= 0x0703f03fu;
        for (int i = 0; i < 4; i++) {
            out[8 * words + i] = (uint8_t)(w0 >> (24 - 8 * i));
            out[8 * words + 4 + i] = (uint8_t)(w1 >> (24 - 8 * i));
        }
        words++;
    }
    return words * 8;
}

Test(rdp_robust, random_command_words)
{
    const size_t size = 64u << 10;
    uint8_t *rdram = calloc(1, size);
    cr_assert_not_null(rdram);
    static uint8_t list[8 * 6000];
    for (uint32_t seed = 1; seed <= 24; seed++) {
        rng_state = seed * 0x9e3779b9u;
        for (size_t i = 0; i < size; i++)
            rdram[i] = (uint8_t)rnd();
        rdp_t *rdp = rdp_create(rdram, size);
        cr_assert_not_null(rdp);
        size_t length = random_commands(list, sizeof list / 8);
        rdp_run_buffer(rdp, list, length);
        /* the same kind of garbage read from RDRAM, with odd ranges */
        memcpy(rdram + 0x8000, list, 0x4000);
        memcpy(rdram + size - 0x100, list + 0x4000, 0x100);
        rdp_run(rdp, 0x8000, 0xc000);
        rdp_run(rdp, 0xc000, 0x8000);
        rdp_run(rdp, (uint32_t)size - 0x100, (uint32_t)size + 0x100);
        rdp_run(rdp, 0xff000000u | 0x8000, 0xff000000u | 0x8100);
        rdp_run_buffer(rdp, list + 4, 0x400); /* misaligned: words split differently */
        rdp_stats_t stats;
        rdp_get_stats(rdp, &stats);
        cr_expect_gt(stats.commands, 1000u);
        cr_expect_gt(stats.unknown_commands, 0u);
        rdp_destroy(rdp);
    }
    free(rdram);
}

/* 0x0f triangle with every field given */
static void big_triangle(cmdlist_t *cl, uint32_t w0, uint32_t w1, const uint32_t edges[6], uint32_t fill)
{
    cl_word(cl, 0x0f000000u | (w0 & 0xffffff), w1);
    cl_word(cl, edges[0], edges[1]);
    cl_word(cl, edges[2], edges[3]);
    cl_word(cl, edges[4], edges[5]);
    for (int i = 0; i < 18; i++)
        cl_word(cl, fill ^ (uint32_t)i * 0x01010101u, ~fill + (uint32_t)i);
}

Test(rdp_robust, extreme_coordinates)
{
    const size_t size = 1u << 20;
    uint8_t *rdram = calloc(1, size);
    cr_assert_not_null(rdram);
    rdp_t *rdp = rdp_create(rdram, size);
    cmdlist_t cl = {.length = 0};
    const uint32_t far_edges[6] = {0x80000000u, 0x7fffffffu, 0x08000000u, 0x1fffffffu, 0x07ffffffu, 0x20000000u};
    const uint32_t wide_edges[6] = {0xf8000000u, 0x00010000u, 0xf8000000u, 0x00000000u, 0x07ff0000u, 0xffff0000u};

    /* fill mode over the largest scissor: the spans cover the whole range */
    cl_color_image(&cl, FMT_RGBA, SIZ_16, 1024, 0x10000);
    cl_word(&cl, 0x2d000000u, 0x00ffffffu);
    cl_other_modes(&cl, MODE_FILL, 0);
    cl_fill_color(&cl, 0x12345678);
    big_triangle(&cl, 0x801fff, 0x00002000, far_edges, 0);
    big_triangle(&cl, 0x001fff, 0x20002000, wide_edges, 0);
    cl_fill_rect(&cl, 0, 0, 0xfff, 0xfff);
    /* every pipeline on a small scissor, with wild attribute values */
    cl_scissor(&cl, 0, 0, 24, 24);
    cl_word(&cl, 0x3e000000u, 0x20000);
    cl_word(&cl, 0x3c000000u | 0x123456, 0x89abcdefu);
    static const uint32_t modes[][2] = {
        {0x0000cf0, 0x0f0a4000},  {0x01fff00, 0xfffffff7}, {0x0100ff0, 0x5a5a5a5a}, {0x010e0c0, 0xc8112078},
        {0x0080c30, 0x00504a50},  {0x0010000, 0x0c184b78}, {0x0200000, 0x00000001}, {0x00fffff, 0x55550c3f},
    };
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        cl_other_modes(&cl, modes[m][0], modes[m][1]);
        cl_set_tile(&cl, (unsigned)m % 5, (unsigned)m % 4, 3, (unsigned)m * 40, (unsigned)m & 7, 5);
        big_triangle(&cl, 0x801fff | (uint32_t)m << 16, 0x00002000, far_edges, 0x8000ffffu * (uint32_t)m);
        big_triangle(&cl, 0x0001ff | (uint32_t)m << 19, 0x01400000, wide_edges, 0x7fff0000u ^ (uint32_t)m);
        cl_tex_rect(&cl, (unsigned)m & 7, 0, 0, 0xfff, 0xfff, 0xffff, 0x8000, 0x8000, 0x7fff);
        cl_word(&cl, 0x25000000u | 0xfff << 12 | 0xfff, (uint32_t)m << 24);
        cl_word(&cl, 0x80008000u, 0xffff0001u);
    }
    rdp_run_buffer(rdp, cl.bytes, cl.length);
    rdp_stats_t stats;
    rdp_get_stats(rdp, &stats);
    cr_expect_gt(stats.pixels, 100000u, "the fill-mode triangles draw");
    rdp_destroy(rdp);
    free(rdram);
}

Test(rdp_robust, addresses_past_rdram)
{
    const size_t size = 64u << 10;
    uint8_t *rdram = calloc(1, size + 16);
    cr_assert_not_null(rdram);
    memset(rdram + size, 0xa5, 16); /* guard: must stay untouched */
    rdp_t *rdp = rdp_create(rdram, size);
    cmdlist_t cl = {.length = 0};
    cl_scissor(&cl, 0, 0, 64, 64);
    for (unsigned sz = 0; sz < 4; sz++) {
        /* images straddling or past the end, 24-bit wrap */
        cl_color_image(&cl, FMT_RGBA, sz, 64, (uint32_t)size - 0x40);
        cl_word(&cl, 0x3e000000u, 0xffffffffu);
        cl_other_modes(&cl, MODE_FILL, 0);
        cl_fill_color(&cl, 0xffffffff);
        cl_fill_rect(&cl, 0, 0, 63 * 4, 63 * 4);
        cl_other_modes(&cl, MODE_1CYCLE | 0x80000 | MODE_BILERP, 0x0f0a4070u);
        cl_texture_image(&cl, FMT_RGBA, sz, 1024, 0xfffff8);
        cl_set_tile(&cl, FMT_RGBA, sz, 511, 511, 7, 0);
        cl_load_block(&cl, 7, 0xfff, 0xfff);
        cl_word(&cl, 0x34000000u, 7u << 24 | 0xfff << 12 | 0xfff);  /* load tile, whole range */
        cl_word(&cl, 0x34000000u | 0x800 << 12 | 0x800, 7u << 24); /* load tile, th < tl */
        cl_word(&cl, 0x30000000u, 7u << 24 | 0xfff << 12 | 0xfff);  /* TLUT of many rows: hangs */
        cl_tex_rect(&cl, 7, 0, 0, 63 * 4, 63 * 4, 0xfff0, 0xfff0, 0x1000, 0xfc00);
        cl_other_modes(&cl, MODE_COPY, 1);
        cl_tex_rect(&cl, 7, 0, 0, 63 * 4, 63 * 4, 0, 0, 0x1000, 0x400);
        cl_other_modes(&cl, MODE_FILL, 0x30); /* Z in fill mode: hangs */
        cl_fill_rect(&cl, 0, 0, 63 * 4, 63 * 4);
    }
    rdp_run_buffer(rdp, cl.bytes, cl.length);
    rdp_run_buffer(rdp, cl.bytes, 13); /* not a multiple of 8 */
    rdp_run_buffer(rdp, NULL, 64);
    rdp_run(rdp, (uint32_t)size - 8, (uint32_t)size + 0x1000);
    for (int i = 0; i < 16; i++)
        cr_expect_eq(rdram[size + i], 0xa5, "byte %d past the end was written", i);
    cr_expect_eq(rdp_hidden_bits(rdp, (uint32_t)size), 0u);
    rdp_set_hidden_bits(rdp, (uint32_t)size + 2, 3);
    rdp_stats_t stats;
    rdp_get_stats(rdp, &stats);
    cr_expect_gt(stats.hangs, 0u);
    rdp_destroy(rdp);

    /* no memory at all */
    rdp = rdp_create(NULL, 0);
    cr_assert_not_null(rdp);
    rdp_run_buffer(rdp, cl.bytes, cl.length);
    rdp_run(rdp, 0, 0x1000);
    cr_expect_eq(rdp_hidden_bits(rdp, 0), 0u);
    rdp_destroy(rdp);
    free(rdram);
}

Test(rdp_robust, hidden_bits_api)
{
    uint8_t rdram[64] = {0};
    rdram[1] = 1;
    rdp_t *rdp = rdp_create(rdram, sizeof rdram);
    cr_expect_eq(rdp_hidden_bits(rdp, 0), 3u, "unwritten halfword with bit 0 set");
    cr_expect_eq(rdp_hidden_bits(rdp, 2), 0u);
    rdram[3] = 1;
    cr_expect_eq(rdp_hidden_bits(rdp, 2), 3u, "follows data written after rdp_create");
    rdp_set_hidden_bits(rdp, 3, 1);
    cr_expect_eq(rdp_hidden_bits(rdp, 2), 1u);
    rdp_reset_hidden_bits(rdp);
    cr_expect_eq(rdp_hidden_bits(rdp, 2), 3u);
    rdp_destroy(rdp);
}
