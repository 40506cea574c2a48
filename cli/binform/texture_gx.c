/* GX texture formats to RGBA. GX stores an image in tiles (blocks) of 32 bytes, left to
 * right then top to bottom, pixels row by row inside a tile; RGBA8 tiles are 64 bytes (the
 * AR pairs of 16 pixels, then their GB pairs); CMPR tiles are 8x8 made of four 4x4 DXT1
 * blocks in the order top-left, top-right, bottom-left, bottom-right, big-endian. The layouts
 * are public (YAGCD's "Texture formats", libogc's GX headers). */
#include "texture_codec.h"

#include <stdio.h>
#include <string.h>

typedef struct tile_shape {
    unsigned w, h, bytes;
} tile_shape;

static int gx_tile_shape(unsigned format, tile_shape *t)
{
    switch (format) {
    case GX_I4: case GX_C4: case GX_CMPR: *t = (tile_shape){8, 8, 32}; return 1;
    case GX_I8: case GX_IA4: case GX_C8: *t = (tile_shape){8, 4, 32}; return 1;
    case GX_IA8: case GX_RGB565: case GX_RGB5A3: case GX_C14X2: *t = (tile_shape){4, 4, 32}; return 1;
    case GX_RGBA8: *t = (tile_shape){4, 4, 64}; return 1;
    default: return 0;
    }
}

size_t gx_image_size(unsigned format, unsigned width, unsigned height)
{
    tile_shape t;
    if (!gx_tile_shape(format, &t))
        return 0;
    size_t across = (width + t.w - 1) / t.w, down = (height + t.h - 1) / t.h;
    return across * down * t.bytes;
}

static uint8_t from5(unsigned v) { return (uint8_t)((v << 3) | (v >> 2)); }
static uint8_t from6(unsigned v) { return (uint8_t)((v << 2) | (v >> 4)); }
static uint8_t from4(unsigned v) { return (uint8_t)(v * 0x11); }
static uint8_t from3(unsigned v) { return (uint8_t)((v << 5) | (v << 2) | (v >> 1)); }

static void put(uint8_t *px, uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
    px[0] = r, px[1] = g, px[2] = b, px[3] = a;
}

static void rgb565(unsigned c, uint8_t *px)
{
    put(px, from5(c >> 11), from6((c >> 5) & 0x3F), from5(c & 0x1F), 255);
}

/* RGB5A3: the top bit set is an opaque RGB555 colour, else 3 bits of alpha and RGB444. */
static void rgb5a3(unsigned c, uint8_t *px)
{
    if (c & 0x8000)
        put(px, from5((c >> 10) & 0x1F), from5((c >> 5) & 0x1F), from5(c & 0x1F), 255);
    else
        put(px, from4((c >> 8) & 0xF), from4((c >> 4) & 0xF), from4(c & 0xF), from3((c >> 12) & 7));
}

/* IA8 as a colour: the high byte is alpha, the low byte intensity. */
static void ia8(unsigned c, uint8_t *px)
{
    uint8_t i = (uint8_t)(c & 0xFF);
    put(px, i, i, i, (uint8_t)(c >> 8));
}

static unsigned be16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }

static void palette_colour(const uint8_t *palette, size_t count, unsigned format, unsigned i, uint8_t *px)
{
    if (i >= count) {
        put(px, 0, 0, 0, 0);
        return;
    }
    unsigned c = be16(palette + 2 * (size_t)i);
    if (format == GX_TLUT_IA8)
        ia8(c, px);
    else if (format == GX_TLUT_RGB565)
        rgb565(c, px);
    else
        rgb5a3(c, px);
}

/* One CMPR sub-block: BC1 with big-endian colours and indices from the most significant bits. */
static void cmpr_block(const uint8_t *b, uint8_t out[16][4])
{
    uint8_t le[8] = {b[1], b[0], b[3], b[2], 0, 0, 0, 0};
    for (int row = 0; row < 4; row++) {
        unsigned bits = b[4 + row], flipped = 0;
        for (int px = 0; px < 4; px++)
            flipped |= ((bits >> (6 - 2 * px)) & 3u) << (2 * px);
        le[4 + row] = (uint8_t)flipped;
    }
    bc1_decode_block(le, 1, out);
}

/* The pixel at (x, y) of tile `tile` (its first byte) of a tile of shape t. */
static void decode_texel(unsigned format, const uint8_t *tile, unsigned x, unsigned y, const tile_shape *t,
                         const uint8_t *palette, size_t palette_count, unsigned palette_format, uint8_t *px)
{
    unsigned n = y * t->w + x; /* the texel's number inside its tile */
    switch (format) {
    case GX_I4: {
        uint8_t i = from4((tile[n / 2] >> (n % 2 ? 0 : 4)) & 0xF);
        put(px, i, i, i, i);
        break;
    }
    case GX_I8: put(px, tile[n], tile[n], tile[n], tile[n]); break;
    case GX_IA4: {
        uint8_t i = from4(tile[n] & 0xF);
        put(px, i, i, i, from4(tile[n] >> 4));
        break;
    }
    case GX_IA8: put(px, tile[2 * n + 1], tile[2 * n + 1], tile[2 * n + 1], tile[2 * n]); break;
    case GX_RGB565: rgb565(be16(tile + 2 * n), px); break;
    case GX_RGB5A3: rgb5a3(be16(tile + 2 * n), px); break;
    case GX_RGBA8: put(px, tile[2 * n + 1], tile[32 + 2 * n], tile[32 + 2 * n + 1], tile[2 * n]); break;
    case GX_C4:
        palette_colour(palette, palette_count, palette_format, (tile[n / 2] >> (n % 2 ? 0 : 4)) & 0xF, px);
        break;
    case GX_C8: palette_colour(palette, palette_count, palette_format, tile[n], px); break;
    case GX_C14X2: palette_colour(palette, palette_count, palette_format, be16(tile + 2 * n) & 0x3FFF, px); break;
    default: put(px, 0, 0, 0, 0); break;
    }
}

int gx_decode(unsigned format, unsigned width, unsigned height, const uint8_t *data, size_t size,
              const uint8_t *palette, size_t palette_count, unsigned palette_format, uint8_t *rgba,
              char *why, size_t why_size)
{
    tile_shape t;
    if (!gx_tile_shape(format, &t)) {
        snprintf(why, why_size, "GX texture format %u is not one GX has", format);
        return 0;
    }
    size_t need = gx_image_size(format, width, height);
    if (size < need) {
        snprintf(why, why_size, "a %ux%u image of GX format %u takes %zu bytes, %zu are there", width, height,
                 format, need, size);
        return 0;
    }
    int indexed = format == GX_C4 || format == GX_C8 || format == GX_C14X2;
    if (indexed && (!palette || palette_format > GX_TLUT_RGB5A3)) {
        snprintf(why, why_size, "GX format %u needs a palette of format 0..2", format);
        return 0;
    }
    unsigned across = (width + t.w - 1) / t.w, down = (height + t.h - 1) / t.h;
    for (unsigned ty = 0; ty < down; ty++)
        for (unsigned tx = 0; tx < across; tx++) {
            const uint8_t *tile = data + ((size_t)ty * across + tx) * t.bytes;
            uint8_t block[4][16][4];
            if (format == GX_CMPR)
                for (int b = 0; b < 4; b++)
                    cmpr_block(tile + 8 * b, block[b]);
            for (unsigned y = 0; y < t.h; y++)
                for (unsigned x = 0; x < t.w; x++) {
                    unsigned ix = tx * t.w + x, iy = ty * t.h + y;
                    if (ix >= width || iy >= height)
                        continue; /* the padding of a partial tile */
                    uint8_t *px = rgba + ((size_t)iy * width + ix) * 4;
                    if (format == GX_CMPR)
                        memcpy(px, block[(y / 4) * 2 + x / 4][(y % 4) * 4 + x % 4], 4);
                    else
                        decode_texel(format, tile, x, y, &t, palette, palette_count, palette_format, px);
                }
        }
    return 1;
}
