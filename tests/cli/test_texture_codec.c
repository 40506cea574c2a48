/* The texture decoders against the documented layouts: small images whose every byte is
 * written here by hand from the GX and BCn descriptions, and the bounds every decoder keeps;
 * then whole DDS files of random blocks against Pillow's decoder. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <criterion/criterion.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "texture_codec.h"

static uint8_t *decode(unsigned format, unsigned w, unsigned h, const uint8_t *data, size_t size,
                       const uint8_t *pal, size_t pal_count, unsigned pal_format)
{
    static uint8_t rgba[64 * 64 * 4];
    char why[160] = "";
    memset(rgba, 0xAB, sizeof rgba);
    cr_assert(gx_decode(format, w, h, data, size, pal, pal_count, pal_format, rgba, why, sizeof why), "%s", why);
    return rgba;
}

static void expect_px(const uint8_t *rgba, unsigned w, unsigned x, unsigned y, unsigned r, unsigned g, unsigned b,
                      unsigned a)
{
    const uint8_t *p = rgba + ((size_t)y * w + x) * 4;
    cr_expect(p[0] == r && p[1] == g && p[2] == b && p[3] == a, "(%u,%u): %u %u %u %u, expected %u %u %u %u", x, y,
              p[0], p[1], p[2], p[3], r, g, b, a);
}

Test(gx, tile_sizes_round_up_to_whole_tiles)
{
    cr_expect_eq(gx_image_size(GX_I4, 8, 8), 32);
    cr_expect_eq(gx_image_size(GX_I4, 9, 8), 64);
    cr_expect_eq(gx_image_size(GX_I8, 8, 5), 64);
    cr_expect_eq(gx_image_size(GX_RGBA8, 4, 4), 64);
    cr_expect_eq(gx_image_size(GX_CMPR, 16, 8), 64);
    cr_expect_eq(gx_image_size(GX_RGB565, 1, 1), 32);
    cr_expect_eq(gx_image_size(7, 8, 8), 0);
}

/* I4: 8x8 tiles, two pixels a byte, the left one in the high nibble; 16x8 is two tiles. */
Test(gx, i4_nibbles_and_tile_order)
{
    uint8_t data[64] = {0};
    data[0] = 0xF1;       /* tile 0: (0,0) = 15, (1,0) = 1 */
    data[4] = 0x20;       /* tile 0, row 1: (0,1) = 2 */
    data[32 + 3] = 0x07;  /* tile 1, row 0, pixels 6 and 7: (15,0) = 7 */
    const uint8_t *px = decode(GX_I4, 16, 8, data, sizeof data, NULL, 0, 0);
    expect_px(px, 16, 0, 0, 255, 255, 255, 255);
    expect_px(px, 16, 1, 0, 17, 17, 17, 17);
    expect_px(px, 16, 0, 1, 34, 34, 34, 34);
    expect_px(px, 16, 15, 0, 119, 119, 119, 119);
    expect_px(px, 16, 8, 0, 0, 0, 0, 0);
}

/* IA4 (alpha high nibble), IA8 (alpha byte first), I8 in 8x4 tiles. */
Test(gx, intensity_alpha_formats)
{
    uint8_t ia4[32] = {0x3C};
    const uint8_t *px = decode(GX_IA4, 8, 4, ia4, sizeof ia4, NULL, 0, 0);
    expect_px(px, 8, 0, 0, 0xCC, 0xCC, 0xCC, 0x33);
    uint8_t ia8[32] = {0x80, 0x40};
    px = decode(GX_IA8, 4, 4, ia8, sizeof ia8, NULL, 0, 0);
    expect_px(px, 4, 0, 0, 0x40, 0x40, 0x40, 0x80);
    uint8_t i8[64] = {0};
    i8[32 + 8] = 0x5A; /* the second tile down (8x4 tiles), its row 1: (0,5) */
    px = decode(GX_I8, 8, 8, i8, sizeof i8, NULL, 0, 0);
    expect_px(px, 8, 0, 5, 0x5A, 0x5A, 0x5A, 0x5A);
}

/* RGB565 and RGB5A3, big-endian 16-bit texels in 4x4 tiles. */
Test(gx, sixteen_bit_colours)
{
    uint8_t c565[32] = {0xF8, 0x00, 0x07, 0xE0, 0x00, 0x1F, 0x84, 0x10};
    const uint8_t *px = decode(GX_RGB565, 4, 4, c565, sizeof c565, NULL, 0, 0);
    expect_px(px, 4, 0, 0, 255, 0, 0, 255);
    expect_px(px, 4, 1, 0, 0, 255, 0, 255);
    expect_px(px, 4, 2, 0, 0, 0, 255, 255);
    expect_px(px, 4, 3, 0, 0x84, 0x82, 0x84, 255);
    /* RGB5A3: 0x8000 | RGB555, else A3 RGB444. */
    uint8_t c5a3[32] = {0xFC, 0x00, 0x3F, 0x00, 0x70, 0x0F};
    px = decode(GX_RGB5A3, 4, 4, c5a3, sizeof c5a3, NULL, 0, 0);
    expect_px(px, 4, 0, 0, 255, 0, 0, 255);
    expect_px(px, 4, 1, 0, 255, 0, 0, 0x6D); /* alpha 3 -> 0b011'011'01 */
    expect_px(px, 4, 2, 0, 0, 0, 255, 255);  /* alpha 7 -> 255 */
}

/* RGBA8: a 64-byte tile, first the AR pairs of its 16 pixels, then their GB pairs. */
Test(gx, rgba8_split_tile)
{
    uint8_t data[64] = {0};
    data[2 * 5] = 0x11, data[2 * 5 + 1] = 0x22, data[32 + 2 * 5] = 0x33, data[32 + 2 * 5 + 1] = 0x44;
    const uint8_t *px = decode(GX_RGBA8, 4, 4, data, sizeof data, NULL, 0, 0);
    expect_px(px, 4, 1, 1, 0x22, 0x33, 0x44, 0x11);
}

/* C4, C8, C14X2 index a palette; an index past it is transparent black. */
Test(gx, palettes)
{
    uint8_t pal[6] = {0xF8, 0x00, 0x00, 0x1F, 0x12, 0x34};
    uint8_t c8[32] = {0, 1, 2, 9};
    const uint8_t *px = decode(GX_C8, 8, 4, c8, sizeof c8, pal, 3, GX_TLUT_RGB565);
    expect_px(px, 8, 0, 0, 255, 0, 0, 255);
    expect_px(px, 8, 1, 0, 0, 0, 255, 255);
    expect_px(px, 8, 3, 0, 0, 0, 0, 0);
    px = decode(GX_C8, 8, 4, c8, sizeof c8, pal, 3, GX_TLUT_IA8);
    expect_px(px, 8, 2, 0, 0x34, 0x34, 0x34, 0x12);
    uint8_t c4[32] = {0x21};
    px = decode(GX_C4, 8, 8, c4, sizeof c4, pal, 3, GX_TLUT_RGB565);
    expect_px(px, 8, 0, 0, 16, 69, 165, 255); /* 0x1234 as RGB565 */
    expect_px(px, 8, 1, 0, 0, 0, 255, 255);
    uint8_t c14[32] = {0xC0, 0x01}; /* the top two bits are not part of the index */
    px = decode(GX_C14X2, 4, 4, c14, sizeof c14, pal, 3, GX_TLUT_RGB565);
    expect_px(px, 4, 0, 0, 0, 0, 255, 255);
}

/* CMPR: 8x8 tiles of four DXT1 blocks (top-left, top-right, bottom-left, bottom-right),
 * big-endian colours, 2-bit indices from the most significant bits. */
Test(gx, cmpr_sub_blocks)
{
    uint8_t data[32] = {0};
    /* block 1 (top-right): c0 = red > c1 = blue: four colours; pixel 0 index 0, pixel 1 index 2 */
    uint8_t b1[8] = {0xF8, 0x00, 0x00, 0x1F, 0x20, 0, 0, 0};
    /* block 2 (bottom-left): c0 = blue < c1 = red: three colours and transparent; index 3, then 2 */
    uint8_t b2[8] = {0x00, 0x1F, 0xF8, 0x00, 0xE0, 0, 0, 0};
    memcpy(data + 8, b1, 8);
    memcpy(data + 16, b2, 8);
    const uint8_t *px = decode(GX_CMPR, 8, 8, data, sizeof data, NULL, 0, 0);
    expect_px(px, 8, 4, 0, 255, 0, 0, 255);
    expect_px(px, 8, 5, 0, 170, 0, 85, 255); /* (2 * red + blue) / 3 */
    expect_px(px, 8, 0, 4, 0, 0, 0, 0);
    expect_px(px, 8, 1, 4, 127, 0, 127, 255); /* (blue + red) / 2 */
}

Test(gx, partial_tiles_decode_only_the_image)
{
    uint8_t data[32];
    memset(data, 0x77, sizeof data);
    uint8_t rgba[3 * 2 * 4 + 4];
    memset(rgba, 0xEE, sizeof rgba);
    char why[160];
    cr_assert(gx_decode(GX_I8, 3, 2, data, sizeof data, NULL, 0, 0, rgba, why, sizeof why));
    cr_expect_eq(rgba[3 * 2 * 4], 0xEE, "wrote past a 3x2 image");
    cr_expect_eq(rgba[0], 0x77);
}

Test(gx, refuses_short_data_unknown_formats_and_missing_palettes)
{
    uint8_t data[32] = {0}, rgba[16 * 16 * 4];
    char why[160] = "";
    cr_expect_not(gx_decode(GX_I8, 16, 16, data, sizeof data, NULL, 0, 0, rgba, why, sizeof why));
    cr_expect(strstr(why, "takes 256 bytes, 32 are there"), "%s", why);
    cr_expect_not(gx_decode(7, 4, 4, data, sizeof data, NULL, 0, 0, rgba, why, sizeof why));
    cr_expect(strstr(why, "format 7"), "%s", why);
    cr_expect_not(gx_decode(GX_C8, 8, 4, data, sizeof data, NULL, 0, 0, rgba, why, sizeof why));
    cr_expect(strstr(why, "palette"), "%s", why);
}

/* BC1 as DDS has it: little-endian colours, indices from the least significant bits. */
Test(bc1, four_and_three_colour_blocks)
{
    uint8_t four[8] = {0x00, 0xF8, 0x1F, 0x00, 0x0E, 0, 0, 0};
    uint8_t px[16][4];
    bc1_decode_block(four, 1, px);
    /* indices 0x0E: pixel 0 has 2, pixel 1 has 3, pixel 2 has 0 */
    cr_expect(px[0][0] == 170 && px[0][2] == 85 && px[0][3] == 255); /* (2 red + blue) / 3 */
    cr_expect(px[1][0] == 85 && px[1][2] == 170, "%u %u", px[1][0], px[1][2]); /* (red + 2 blue) / 3 */
    cr_expect(px[2][0] == 255 && px[2][2] == 0);
    uint8_t three[8] = {0x1F, 0x00, 0x00, 0xF8, 0x0F, 0, 0, 0};
    bc1_decode_block(three, 1, px);
    cr_expect(px[0][3] == 0 && px[0][0] == 0, "index 3 of a three-colour block is transparent black");
    bc1_decode_block(three, 0, px);
    cr_expect(px[0][3] == 255, "DXT3/5 colour blocks always have four colours");
}

static size_t dds_header(uint8_t *d, unsigned w, unsigned h, const char *four_cc)
{
    memset(d, 0, 128);
    memcpy(d, "DDS ", 4);
    d[4] = 124;
    d[12] = (uint8_t)h, d[13] = (uint8_t)(h >> 8);
    d[16] = (uint8_t)w, d[17] = (uint8_t)(w >> 8);
    d[76] = 32;
    d[80] = 0x4;
    memcpy(d + 84, four_cc, 4);
    return 128;
}

Test(dds, dxt5_alpha_and_bounds)
{
    uint8_t d[128 + 16];
    size_t at = dds_header(d, 4, 4, "DXT5");
    uint8_t block[16] = {200, 100, 0x0A, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
    memcpy(d + at, block, 16);
    dds_image img;
    char why[160];
    cr_assert(dds_decode(d, sizeof d, &img, why, sizeof why), "%s", why);
    cr_expect_eq(img.width, 4);
    cr_expect_eq(img.rgba[3], 185, "pixel 0: index 2 of 200..100: (6 * 200 + 100) / 7");
    cr_expect_eq(img.rgba[7], 100, "pixel 1: the next three bits of 0x0A, index 1");
    cr_expect_eq(img.rgba[0], 255);
    free(img.rgba);
    cr_expect_not(dds_decode(d, sizeof d - 1, &img, why, sizeof why));
    cr_expect(strstr(why, "needs 16 bytes"), "%s", why);
    dds_header(d, 4, 4, "ATI2");
    cr_expect_not(dds_decode(d, sizeof d, &img, why, sizeof why));
    cr_expect(strstr(why, "ATI2"), "%s", why);
}

Test(dds, uncompressed_by_masks)
{
    uint8_t d[128 + 4];
    dds_header(d, 1, 1, "\0\0\0\0");
    d[80] = 0x41, d[88] = 32;                          /* RGB | ALPHAPIXELS, 32 bits */
    d[94] = 0xFF, d[97] = 0xFF, d[100] = 0xFF, d[107] = 0xFF; /* R 0xFF0000 G 0xFF00 B 0xFF A 0xFF000000 */
    uint8_t px[4] = {0x30, 0x20, 0x10, 0x80};          /* B G R A */
    memcpy(d + 128, px, 4);
    dds_image img;
    char why[160];
    cr_assert(dds_decode(d, sizeof d, &img, why, sizeof why), "%s", why);
    cr_expect(img.rgba[0] == 0x10 && img.rgba[1] == 0x20 && img.rgba[2] == 0x30 && img.rgba[3] == 0x80);
    free(img.rgba);
}

/* ---- whole DDS files against Pillow's decoder (Debian's python3-pil) ---- */

#define PILLOW_PYTHON "/usr/bin/python3"

static int pillow_decodes(const char *dds_path, const char *raw_path)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             PILLOW_PYTHON " -c 'import sys; from PIL import Image; "
             "open(sys.argv[2], \"wb\").write(Image.open(sys.argv[1]).convert(\"RGBA\").tobytes())' %s %s",
             dds_path, raw_path);
    return system(cmd) == 0;
}

static uint32_t rng_state = 12345;
static uint8_t next_byte(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (uint8_t)(rng_state >> 16);
}

Test(dds, random_dxt_files_decode_as_pillow_decodes_them)
{
    if (system(PILLOW_PYTHON " -c 'import PIL' 2>/dev/null") != 0)
        cr_skip_test("Pillow not found (" PILLOW_PYTHON ", Debian's python3-pil): DDS not compared");
    static const char *const kinds[] = {"DXT1", "DXT3", "DXT5"};
    static const unsigned sizes[][2] = {{4, 4}, {16, 8}, {12, 20}, {64, 32}};
    char dir[] = "/tmp/binform_dds_XXXXXX";
    cr_assert(mkdtemp(dir));
    char dds_path[64], raw_path[64];
    snprintf(dds_path, sizeof dds_path, "%s/t.dds", dir);
    snprintf(raw_path, sizeof raw_path, "%s/t.raw", dir);
    for (size_t k = 0; k < 3; k++)
        for (size_t s = 0; s < 4; s++) {
            unsigned w = sizes[s][0], h = sizes[s][1];
            size_t blocks = (size_t)(w / 4) * (h / 4), bytes = blocks * (k == 0 ? 8 : 16);
            uint8_t *file = malloc(128 + bytes);
            dds_header(file, w, h, kinds[k]);
            file[8] = 0x07, file[9] = 0x10; /* CAPS | HEIGHT | WIDTH | PIXELFORMAT, as writers set them */
            for (size_t i = 0; i < bytes; i++)
                file[128 + i] = next_byte();
            FILE *f = fopen(dds_path, "wb");
            cr_assert(f && fwrite(file, 1, 128 + bytes, f) == 128 + bytes && fclose(f) == 0);
            cr_assert(pillow_decodes(dds_path, raw_path), "Pillow could not decode a %ux%u %s", w, h, kinds[k]);
            dds_image img;
            char why[160];
            cr_assert(dds_decode(file, 128 + bytes, &img, why, sizeof why), "%s", why);
            uint8_t *want = malloc((size_t)w * h * 4);
            f = fopen(raw_path, "rb");
            cr_assert(f && fread(want, 1, (size_t)w * h * 4, f) == (size_t)w * h * 4);
            fclose(f);
            size_t differ = 0, first = 0;
            for (size_t i = 0; i < (size_t)w * h * 4; i++)
                if (want[i] != img.rgba[i] && !differ++)
                    first = i;
            cr_expect_eq(differ, 0, "%s %ux%u: %zu bytes differ from Pillow's, first at pixel %zu channel %zu "
                         "(ours %u, Pillow %u)", kinds[k], w, h, differ, first / 4, first % 4,
                         differ ? img.rgba[first] : 0, differ ? want[first] : 0);
            free(want);
            free(img.rgba);
            free(file);
        }
    remove(dds_path);
    remove(raw_path);
    rmdir(dir);
}
