/* Software RDP unit tests that need no golden data: Z encoding, fill
 * rectangles, triangle coverage and edge rules, texture rectangles, TLUT,
 * commands straddling runs. */
#include "rdp_internal.h"
#include "rdp_test_util.h"

#include <criterion/criterion.h>
#include <stdlib.h>

#define RDRAM_SIZE (256u << 10)
static uint8_t *rdram;
static rdp_t *rdp;

static void setup(void)
{
    rdram = calloc(1, RDRAM_SIZE);
    cr_assert_not_null(rdram);
    rdp = rdp_create(rdram, RDRAM_SIZE);
    cr_assert_not_null(rdp);
}

static void teardown(void)
{
    rdp_destroy(rdp);
    free(rdram);
}

TestSuite(rdp_units, .init = setup, .fini = teardown);

static void run(const cmdlist_t *cl)
{
    rdp_run_buffer(rdp, cl->bytes, cl->length);
}

/* ---- Z ---- */

Test(rdp_units, z_compression_known_values)
{
    cr_expect_eq(rdp_z_compress(0), 0);
    cr_expect_eq(rdp_z_decompress(0), 0u);
    cr_expect_eq(rdp_z_compress(0x3ffff), 0xfffc, "the largest depth is the usual 0xfffc clear value");
    cr_expect_eq(rdp_z_decompress(0xfffc), 0x3ffffu);
    cr_expect_eq(rdp_z_compress(0x20000), 0x2000, "exponent 1, mantissa 0");
    cr_expect_eq(rdp_z_decompress(0x2000), 0x20000u);
    cr_expect_eq(rdp_z_compress(0x1ffff), 0x1ffc, "exponent 0 keeps the top 11 bits");
    cr_expect_eq(rdp_z_decompress(0x1ffc), 0x1ffc0u);
    cr_expect_eq(rdp_z_compress(0x3f800), 0xe000, "exponent 7");
    cr_expect_eq(rdp_z_decompress(0x0003), 0u, "the delta-Z bits do not change the depth");
}

Test(rdp_units, z_compression_round_trip)
{
    for (uint32_t c = 0; c < 0x4000; c++) {
        uint16_t stored = (uint16_t)(c << 2);
        uint32_t z = rdp_z_decompress(stored);
        cr_assert_eq(rdp_z_compress(z), stored, "0x%04x -> 0x%05x -> 0x%04x", stored, z, rdp_z_compress(z));
    }
    uint16_t previous = 0;
    for (uint32_t z = 0; z < 0x40000; z += 7) {
        uint16_t c = rdp_z_compress(z);
        cr_assert_geq(c, previous, "compression is monotonic (z 0x%05x)", z);
        cr_assert_leq(rdp_z_decompress(c), z, "decompression rounds down (z 0x%05x)", z);
        previous = c;
    }
    for (uint32_t k = 0; k < 16; k++)
        cr_expect_eq(rdp_dz_compress(1u << k), k);
}

/* ---- fill mode ---- */

Test(rdp_units, fill_rectangle_16bit_pairs_and_inclusive_edges)
{
    const uint32_t image = 0x1000;
    cmdlist_t cl = {.length = 0};
    cl_color_image(&cl, FMT_RGBA, SIZ_16, 32, image);
    cl_scissor(&cl, 0, 0, 32, 16);
    cl_other_modes(&cl, MODE_FILL, 0);
    cl_fill_color(&cl, 0x12355679);
    cl_fill_rect(&cl, 4 * 4, 2 * 4, 9 * 4, 5 * 4);
    cl_sync_full(&cl);
    run(&cl);
    unsigned drawn = 0;
    for (unsigned y = 0; y < 16; y++)
        for (unsigned x = 0; x < 32; x++) {
            uint16_t v = px16(rdram, image, 32, x, y);
            bool inside = x >= 4 && x <= 9 && y >= 2 && y <= 5;
            cr_assert_eq(v, inside ? ((x & 1) ? 0x5679 : 0x1235) : 0, "pixel %u,%u = %04x", x, y, v);
            drawn += inside;
        }
    cr_expect_eq(drawn, 24);
    cr_expect_eq(rdp_hidden_bits(rdp, image + 2 * (2 * 32 + 4)), 3u, "fill writes bit 0 into both hidden bits");
    rdp_stats_t stats;
    rdp_get_stats(rdp, &stats);
    cr_expect_eq(stats.pixels, 24u);
    cr_expect_eq(stats.rectangles, 1u);
    cr_expect_eq(stats.commands, 6u);
}

Test(rdp_units, fill_rectangle_32bit)
{
    const uint32_t image = 0x2000;
    cmdlist_t cl = {.length = 0};
    cl_color_image(&cl, FMT_RGBA, SIZ_32, 16, image);
    cl_scissor(&cl, 0, 0, 16, 8);
    cl_other_modes(&cl, MODE_FILL, 0);
    cl_fill_color(&cl, 0xaabbccdd);
    cl_fill_rect(&cl, 1 * 4, 1 * 4, 3 * 4, 2 * 4);
    run(&cl);
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 16; x++) {
            bool inside = x >= 1 && x <= 3 && y >= 1 && y <= 2;
            cr_assert_eq(px32(rdram, image, 16, x, y), inside ? 0xaabbccddu : 0u, "pixel %u,%u", x, y);
        }
}

Test(rdp_units, fill_respects_scissor_and_fractional_corners)
{
    const uint32_t image = 0x1000;
    cmdlist_t cl = {.length = 0};
    cl_color_image(&cl, FMT_RGBA, SIZ_16, 32, image);
    cl_scissor(&cl, 8, 8, 12, 12);
    cl_other_modes(&cl, MODE_FILL, 0);
    cl_fill_color(&cl, 0xffffffff);
    cl_fill_rect(&cl, 0, 0, 31 * 4 + 3, 15 * 4 + 3);
    run(&cl);
    unsigned count = 0;
    for (unsigned y = 0; y < 16; y++)
        for (unsigned x = 0; x < 32; x++)
            if (px16(rdram, image, 32, x, y)) {
                count++;
                cr_expect(x >= 8 && x <= 12 && y >= 8 && y < 12, "pixel %u,%u outside the scissor", x, y);
            }
    cr_expect_eq(count, 5u * 4u, "fill mode: right scissor edge inclusive, bottom exclusive");
}

/* ---- triangles ---- */

/* 0x08 triangle; y in quarter pixels, x and slopes in s15.16 */
static void triangle(cmdlist_t *cl, bool left_major, int yl, int ym, int yh, int32_t xl, int32_t dxl, int32_t xh, int32_t dxh, int32_t xm,
                     int32_t dxm)
{
    cl_word(cl, 0x08000000u | (left_major ? 0x800000u : 0) | ((uint32_t)yl & 0x3fff), ((uint32_t)ym & 0x3fff) << 16 | ((uint32_t)yh & 0x3fff));
    cl_word(cl, (uint32_t)xl, (uint32_t)dxl);
    cl_word(cl, (uint32_t)xh, (uint32_t)dxh);
    cl_word(cl, (uint32_t)xm, (uint32_t)dxm);
}

static void prim_setup(cmdlist_t *cl, uint32_t image, unsigned width, unsigned height)
{
    cl_color_image(cl, FMT_RGBA, SIZ_16, width, image);
    cl_scissor(cl, 0, 0, width, height);
    cl_other_modes(cl, MODE_1CYCLE | MODE_NO_DITHER, RENDER_OPA);
    cl_combine_d(cl, 3, 3); /* primitive colour */
    cl_prim_color(cl, 0xff0000ff);
}

static unsigned count_pixels(uint32_t image, unsigned width, unsigned height, uint16_t value)
{
    unsigned n = 0;
    for (unsigned y = 0; y < height; y++)
        for (unsigned x = 0; x < width; x++)
            n += px16(rdram, image, width, x, y) == value;
    return n;
}

Test(rdp_units, flat_triangle_left_major_coverage_and_edges)
{
    const uint32_t image = 0x4000;
    cmdlist_t cl = {.length = 0};
    prim_setup(&cl, image, 32, 32);
    /* (0,0) (16,0) (0,16): major edge x = 0, minor edge x = 16 - y */
    triangle(&cl, true, 64, 64, 0, 0, 0, 0, 0, 16 << 16, (int32_t)0xffff0000);
    run(&cl);
    cr_expect_eq(count_pixels(image, 32, 32, 0xf801), 136u, "pixels whose top-left sample is inside: 16 + 15 + ... + 1");
    cr_expect_eq(count_pixels(image, 32, 32, 0), 32u * 32u - 136u, "nothing else is written");
    for (unsigned y = 0; y < 16; y++) {
        cr_expect_eq(px16(rdram, image, 32, 0, y), 0xf801, "left edge on the major edge is drawn (row %u)", y);
        cr_expect_eq(px16(rdram, image, 32, 15 - y, y), 0xf801, "last pixel of row %u", y);
        cr_expect_eq(px16(rdram, image, 32, 16 - y, y), 0, "pixel on the right edge of row %u is not drawn", y);
    }
    cr_expect_eq(px16(rdram, image, 32, 0, 16), 0, "bottom edge exclusive");
}

Test(rdp_units, flat_triangle_right_major_mirror)
{
    const uint32_t image = 0x4000;
    cmdlist_t cl = {.length = 0};
    prim_setup(&cl, image, 32, 32);
    /* (16,0) (0,0) (16,16): major edge x = 16 on the right, minor x = y */
    triangle(&cl, false, 64, 64, 0, 0, 0, 16 << 16, 0, 0, 0x10000);
    run(&cl);
    cr_expect_eq(count_pixels(image, 32, 32, 0xf801), 136u);
    for (unsigned y = 0; y < 16; y++) {
        cr_expect_eq(px16(rdram, image, 32, y, y), 0xf801, "left (minor) edge pixel of row %u is drawn", y);
        if (y)
            cr_expect_eq(px16(rdram, image, 32, y - 1, y), 0, "left of the edge in row %u", y);
        cr_expect_eq(px16(rdram, image, 32, 16, y), 0, "right (major) edge exclusive in row %u", y);
    }
}

Test(rdp_units, shared_edge_drawn_once)
{
    const uint32_t image = 0x4000;
    cmdlist_t cl = {.length = 0};
    prim_setup(&cl, image, 32, 32);
    cl_other_modes(&cl, MODE_1CYCLE | MODE_NO_DITHER, 0x00500000u | 0x4000u); /* P*A + M*(1-A) */
    cl_prim_color(&cl, 0xff000080);
    /* a square cut along its diagonal into two triangles */
    triangle(&cl, true, 64, 64, 0, 0, 0, 0, 0, 16 << 16, (int32_t)0xffff0000);
    triangle(&cl, false, 64, 0, 0, 16 << 16, (int32_t)0xffff0000, 16 << 16, 0, 16 << 16, 0);
    run(&cl);
    uint16_t first = px16(rdram, image, 32, 0, 0);
    cr_assert_neq(first, 0);
    for (unsigned y = 0; y < 16; y++)
        for (unsigned x = 0; x < 16; x++)
            cr_expect_eq(px16(rdram, image, 32, x, y), first, "pixel %u,%u blended once, like the others", x, y);
}

/* ---- textures ---- */

static uint16_t texel(unsigned x, unsigned y)
{
    return (uint16_t)(((x * 7 + 3) << 11) | ((y * 5 + 1) << 6) | ((x + y * 4) << 1) | ((x + y) & 1));
}

static void load_4x4(cmdlist_t *cl, uint32_t tex)
{
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++)
            put16(rdram, tex + 2 * (y * 4 + x), texel(x, y));
    cl_texture_image(cl, FMT_RGBA, SIZ_16, 4, tex);
    cl_set_tile(cl, FMT_RGBA, SIZ_16, 0, 0, 7, 0); /* Load Block tiles have line 0 */
    cl_load_block(cl, 7, 15, 0x800);
    cl_set_tile(cl, FMT_RGBA, SIZ_16, 1, 0, 0, 0);
    cl_tile_size(cl, 0, 0, 0, 3 * 4, 3 * 4);
}

Test(rdp_units, texture_rectangle_1cycle_point_sampled)
{
    const uint32_t image = 0x4000, tex = 0x8000;
    cmdlist_t cl = {.length = 0};
    cl_color_image(&cl, FMT_RGBA, SIZ_16, 32, image);
    cl_scissor(&cl, 0, 0, 32, 32);
    load_4x4(&cl, tex);
    cl_other_modes(&cl, MODE_1CYCLE | MODE_NO_DITHER | MODE_BILERP, RENDER_OPA);
    cl_combine_d(&cl, 1, 1); /* texel 0 */
    cl_tex_rect(&cl, 0, 8 * 4, 8 * 4, 12 * 4, 12 * 4, 0, 0, 0x400, 0x400);
    run(&cl);
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++)
            cr_expect_eq(px16(rdram, image, 32, 8 + x, 8 + y), (texel(x, y) & 0xfffe) | 1, "texel %u,%u", x, y);
    cr_expect_eq(px16(rdram, image, 32, 12, 8), 0, "right edge exclusive in 1-cycle mode");
    cr_expect_eq(px16(rdram, image, 32, 8, 12), 0, "bottom edge exclusive");
    cr_expect_eq(count_pixels(image, 32, 32, 0), 32u * 32u - 16u);
}

Test(rdp_units, texture_rectangle_copy_mode_and_scaled)
{
    const uint32_t image = 0x4000, tex = 0x8000;
    cmdlist_t cl = {.length = 0};
    cl_color_image(&cl, FMT_RGBA, SIZ_16, 32, image);
    cl_scissor(&cl, 0, 0, 32, 32);
    load_4x4(&cl, tex);
    cl_other_modes(&cl, MODE_COPY | MODE_NO_DITHER, 0);
    cl_tex_rect(&cl, 0, 0, 0, 3 * 4, 3 * 4, 0, 0, 0x1000, 0x400);
    /* 1-cycle, twice the size: each texel covers 2x2 pixels */
    cl_other_modes(&cl, MODE_1CYCLE | MODE_NO_DITHER | MODE_BILERP, RENDER_OPA);
    cl_combine_d(&cl, 1, 1);
    cl_tex_rect(&cl, 0, 16 * 4, 16 * 4, 24 * 4, 24 * 4, 0, 0, 0x200, 0x200);
    run(&cl);
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++)
            cr_expect_eq(px16(rdram, image, 32, x, y), texel(x, y), "copy mode writes texel %u,%u unchanged", x, y);
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++)
            cr_expect_eq(px16(rdram, image, 32, 16 + x, 16 + y), (texel(x / 2, y / 2) & 0xfffe) | 1, "scaled pixel %u,%u", x, y);
}

Test(rdp_units, tlut_lookup_ci8_copy_and_1cycle)
{
    const uint32_t image = 0x4000, tex = 0x9000, pal = 0xa000;
    uint16_t palette[16];
    for (unsigned i = 0; i < 16; i++) {
        palette[i] = (uint16_t)(0x1083 * (i + 1) ^ (i << 12)) | 1;
        put16(rdram, pal + 2 * i, palette[i]);
    }
    for (unsigned i = 0; i < 16; i++)
        rdram[tex + i] = (uint8_t)((i * 7 + 3) & 15);
    cmdlist_t cl = {.length = 0};
    cl_color_image(&cl, FMT_RGBA, SIZ_16, 32, image);
    cl_scissor(&cl, 0, 0, 32, 32);
    cl_texture_image(&cl, FMT_RGBA, SIZ_16, 1, pal);
    cl_set_tile(&cl, FMT_RGBA, SIZ_4, 0, 256, 7, 0);
    cl_load_tlut(&cl, 7, 16);
    cl_texture_image(&cl, FMT_RGBA, SIZ_16, 1, tex);
    cl_set_tile(&cl, FMT_RGBA, SIZ_16, 0, 0, 7, 0);
    cl_load_block(&cl, 7, 7, 0x800);
    cl_set_tile(&cl, FMT_CI, SIZ_8, 1, 0, 0, 0);
    cl_tile_size(&cl, 0, 0, 0, 7 * 4, 1 * 4);
    cl_other_modes(&cl, MODE_COPY | MODE_NO_DITHER | MODE_TLUT, 0);
    cl_tex_rect(&cl, 0, 0, 0, 7 * 4, 1 * 4, 0, 0, 0x1000, 0x400);
    cl_other_modes(&cl, MODE_1CYCLE | MODE_NO_DITHER | MODE_BILERP | MODE_TLUT, RENDER_OPA);
    cl_combine_d(&cl, 1, 1);
    cl_tex_rect(&cl, 0, 0, 8 * 4, 8 * 4, 10 * 4, 0, 0, 0x400, 0x400);
    run(&cl);
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 8; x++) {
            uint16_t expect = palette[rdram[tex + y * 8 + x]];
            cr_expect_eq(px16(rdram, image, 32, x, y), expect, "copy: texel %u,%u", x, y);
            cr_expect_eq(px16(rdram, image, 32, x, 8 + y), expect, "1-cycle: texel %u,%u", x, y);
        }
}

/* ---- command assembly ---- */

static void scene(cmdlist_t *cl, uint32_t image)
{
    prim_setup(cl, image, 32, 32);
    cl_other_modes(cl, MODE_FILL, 0);
    cl_fill_color(cl, 0x00010001);
    cl_fill_rect(cl, 0, 0, 31 * 4, 31 * 4);
    cl_other_modes(cl, MODE_1CYCLE | MODE_NO_DITHER, RENDER_OPA);
    cl_combine_d(cl, 3, 3);
    triangle(cl, true, 100, 100, 6, 0, 0, 3 << 16, 0x4000, 25 << 16, (int32_t)0xffff4000);
    cl_tex_rect(cl, 0, 20 * 4, 2 * 4, 30 * 4, 9 * 4, 0, 0, 0x400, 0x400);
    cl_sync_full(cl);
}

Test(rdp_units, commands_straddle_runs)
{
    const uint32_t image = 0x4000, list = 0x20000;
    cmdlist_t cl = {.length = 0};
    scene(&cl, image);
    memcpy(rdram + list, cl.bytes, cl.length);
    rdp_run(rdp, list, list + (uint32_t)cl.length);
    uint8_t whole[32 * 32 * 2];
    memcpy(whole, rdram + image, sizeof whole);
    cr_assert(count_pixels(image, 32, 32, 0xf801) > 100, "the scene draws");

    /* again, 8 bytes per run, from RDRAM */
    memset(rdram + image, 0, sizeof whole);
    rdp_t *second = rdp_create(rdram, RDRAM_SIZE);
    for (uint32_t at = list; at < list + cl.length; at += 8)
        rdp_run(second, at, at + 8);
    cr_expect_arr_eq(rdram + image, whole, sizeof whole, "one run per 8 bytes draws the same");
    rdp_destroy(second);

    /* and from a buffer, in 24-byte pieces */
    memset(rdram + image, 0, sizeof whole);
    second = rdp_create(rdram, RDRAM_SIZE);
    for (size_t at = 0; at < cl.length; at += 24)
        rdp_run_buffer(second, cl.bytes + at, cl.length - at < 24 ? cl.length - at : 24);
    cr_expect_arr_eq(rdram + image, whole, sizeof whole, "buffer pieces draw the same");
    rdp_destroy(second);
}

Test(rdp_units, incomplete_command_waits_for_its_rest)
{
    const uint32_t image = 0x4000;
    cmdlist_t cl = {.length = 0};
    cl_color_image(&cl, FMT_RGBA, SIZ_16, 32, image);
    cl_scissor(&cl, 0, 0, 32, 32);
    cl_other_modes(&cl, MODE_FILL, 0);
    cl_fill_color(&cl, 0xffffffff);
    cl_word(&cl, 0x36000000u | (4 * 4) << 12 | 4 * 4, 0); /* fill rect */
    cl_word(&cl, 0x0f000000u | 0x100, 0);                   /* first 8 of 176 bytes */
    rdp_run_buffer(rdp, cl.bytes, cl.length);
    cr_expect_eq(px16(rdram, image, 32, 4, 4), 0xffff);
    rdp_stats_t stats;
    rdp_get_stats(rdp, &stats);
    cr_expect_eq(stats.triangles, 0u, "the triangle is not complete yet");
    uint8_t rest[168] = {0};
    rdp_run_buffer(rdp, rest, sizeof rest - 8);
    rdp_get_stats(rdp, &stats);
    cr_expect_eq(stats.triangles, 0u, "8 bytes still missing");
    rdp_run_buffer(rdp, rest, 8);
    rdp_get_stats(rdp, &stats);
    cr_expect_eq(stats.triangles, 1u);
    cr_expect_eq(stats.commands, 6u);
}
