/* DDS files to RGBA: the DXT (BC1-BC3) block formats and uncompressed pixels by bit masks.
 * The container and block layouts are Microsoft's public DDS and BCn documentation; the
 * interpolated colours are the common integer ones, (2a + b) / 3 and (a + b) / 2 on 8-bit
 * channels, as most decoders (Pillow among them) compute them. */
#include "texture_codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned le16(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16; }

static void from565(unsigned c, uint8_t px[4])
{
    unsigned r = c >> 11, g = (c >> 5) & 0x3F, b = c & 0x1F;
    px[0] = (uint8_t)((r << 3) | (r >> 2)), px[1] = (uint8_t)((g << 2) | (g >> 4));
    px[2] = (uint8_t)((b << 3) | (b >> 2)), px[3] = 255;
}

void bc1_decode_block(const uint8_t block[8], int three_colour_alpha, uint8_t out[16][4])
{
    unsigned c0 = le16(block), c1 = le16(block + 2);
    uint8_t colour[4][4];
    from565(c0, colour[0]);
    from565(c1, colour[1]);
    for (int ch = 0; ch < 3; ch++) {
        unsigned a = colour[0][ch], b = colour[1][ch];
        if (c0 > c1 || !three_colour_alpha) {
            colour[2][ch] = (uint8_t)((2 * a + b) / 3);
            colour[3][ch] = (uint8_t)((a + 2 * b) / 3);
        } else {
            colour[2][ch] = (uint8_t)((a + b) / 2);
            colour[3][ch] = 0;
        }
    }
    colour[2][3] = 255;
    colour[3][3] = (c0 > c1 || !three_colour_alpha) ? 255 : 0;
    uint32_t bits = le32(block + 4);
    for (int i = 0; i < 16; i++)
        memcpy(out[i], colour[(bits >> (2 * i)) & 3], 4);
}

/* BC2's alpha: 4 bits a pixel, little-endian, pixel 0 in the lowest bits. */
static void bc2_alpha(const uint8_t block[8], uint8_t out[16][4])
{
    for (int i = 0; i < 16; i++)
        out[i][3] = (uint8_t)(((block[i / 2] >> (i % 2 ? 4 : 0)) & 0xF) * 0x11);
}

/* BC3's alpha: two end points and 3-bit indices into 8 (or 6 plus 0 and 255) values. */
static void bc3_alpha(const uint8_t block[8], uint8_t out[16][4])
{
    unsigned a0 = block[0], a1 = block[1], alpha[8] = {a0, a1};
    for (unsigned i = 2; i < 8; i++) {
        if (a0 > a1)
            alpha[i] = ((8 - i) * a0 + (i - 1) * a1) / 7;
        else if (i < 6)
            alpha[i] = ((6 - i) * a0 + (i - 1) * a1) / 5;
        else
            alpha[i] = i == 6 ? 0 : 255;
    }
    uint64_t bits = 0;
    for (int i = 0; i < 6; i++)
        bits |= (uint64_t)block[2 + i] << (8 * i);
    for (int i = 0; i < 16; i++)
        out[i][3] = (uint8_t)alpha[(bits >> (3 * i)) & 7];
}

/* A channel of a masked pixel scaled to 8 bits (0 for an empty mask). */
static uint8_t masked(uint32_t v, uint32_t mask)
{
    if (!mask)
        return 0;
    unsigned shift = 0, bits = 0;
    while (!(mask >> shift & 1))
        shift++;
    while (shift + bits < 32 && (mask >> (shift + bits) & 1))
        bits++;
    uint64_t x = (v & mask) >> shift, top = ((uint64_t)1 << bits) - 1;
    return (uint8_t)((x * 255 + top / 2) / top);
}

enum { DDPF_ALPHAPIXELS = 0x1, DDPF_ALPHA = 0x2, DDPF_FOURCC = 0x4, DDPF_RGB = 0x40, DDPF_LUMINANCE = 0x20000 };
enum { DXGI_BC1 = 71, DXGI_BC1_SRGB = 72, DXGI_BC2 = 74, DXGI_BC2_SRGB = 75, DXGI_BC3 = 77, DXGI_BC3_SRGB = 78 };

int dds_decode(const uint8_t *data, size_t size, dds_image *out, char *why, size_t why_size)
{
    out->rgba = NULL;
    if (size < 128 || memcmp(data, "DDS ", 4) != 0 || le32(data + 4) != 124) {
        snprintf(why, why_size, "not a DDS file (no \"DDS \" and 124-byte header)");
        return 0;
    }
    uint32_t height = le32(data + 12), width = le32(data + 16);
    uint32_t pf_flags = le32(data + 80), bit_count = le32(data + 88);
    const uint8_t *four_cc = data + 84;
    size_t at = 128;
    int blocks = 0; /* 1 BC1, 2 BC2, 3 BC3 */
    if (pf_flags & DDPF_FOURCC) {
        if (!memcmp(four_cc, "DXT1", 4))
            blocks = 1;
        else if (!memcmp(four_cc, "DXT2", 4) || !memcmp(four_cc, "DXT3", 4))
            blocks = 2;
        else if (!memcmp(four_cc, "DXT4", 4) || !memcmp(four_cc, "DXT5", 4))
            blocks = 3;
        else if (!memcmp(four_cc, "DX10", 4) && size >= 148) {
            uint32_t dxgi = le32(data + 128);
            at = 148;
            blocks = dxgi == DXGI_BC1 || dxgi == DXGI_BC1_SRGB ? 1
                     : dxgi == DXGI_BC2 || dxgi == DXGI_BC2_SRGB ? 2
                     : dxgi == DXGI_BC3 || dxgi == DXGI_BC3_SRGB ? 3 : 0;
        }
        if (!blocks) {
            snprintf(why, why_size, "DDS pixel format \"%.4s\" is not DXT1..DXT5", (const char *)four_cc);
            return 0;
        }
    } else if (!(pf_flags & (DDPF_RGB | DDPF_LUMINANCE | DDPF_ALPHA)) || bit_count % 8 || !bit_count || bit_count > 32) {
        snprintf(why, why_size, "DDS pixel format (flags 0x%x, %u bits) is not one binform decodes",
                 (unsigned)pf_flags, (unsigned)bit_count);
        return 0;
    }
    if (!width || !height || width > 16384 || height > 16384) {
        snprintf(why, why_size, "DDS size %ux%u is not 1..16384 on each side", (unsigned)width, (unsigned)height);
        return 0;
    }
    size_t bx = (width + 3) / 4, by = (height + 3) / 4;
    size_t need = blocks ? bx * by * (blocks == 1 ? 8 : 16) : (size_t)width * height * (bit_count / 8);
    if (size - at < need) {
        snprintf(why, why_size, "DDS image of %ux%u needs %zu bytes after its header, %zu are there",
                 (unsigned)width, (unsigned)height, need, size - at);
        return 0;
    }
    uint8_t *rgba = malloc((size_t)width * height * 4);
    if (!rgba) {
        snprintf(why, why_size, "out of memory for a %ux%u image", (unsigned)width, (unsigned)height);
        return 0;
    }
    const uint8_t *p = data + at;
    if (blocks) {
        size_t block_bytes = blocks == 1 ? 8 : 16;
        for (size_t y0 = 0; y0 < by; y0++)
            for (size_t x0 = 0; x0 < bx; x0++) {
                const uint8_t *b = p + (y0 * bx + x0) * block_bytes;
                uint8_t px[16][4];
                bc1_decode_block(blocks == 1 ? b : b + 8, blocks == 1, px);
                if (blocks == 2)
                    bc2_alpha(b, px);
                else if (blocks == 3)
                    bc3_alpha(b, px);
                for (size_t i = 0; i < 16; i++) {
                    size_t x = x0 * 4 + i % 4, y = y0 * 4 + i / 4;
                    if (x < width && y < height)
                        memcpy(rgba + (y * width + x) * 4, px[i], 4);
                }
            }
    } else {
        uint32_t rm = le32(data + 92), gm = le32(data + 96), bm = le32(data + 100), am = le32(data + 104);
        size_t bytes = bit_count / 8;
        for (size_t i = 0; i < (size_t)width * height; i++) {
            uint32_t v = 0;
            for (size_t k = 0; k < bytes; k++)
                v |= (uint32_t)p[i * bytes + k] << (8 * k);
            uint8_t *px = rgba + i * 4;
            if (pf_flags & (DDPF_RGB | DDPF_LUMINANCE)) {
                px[0] = masked(v, rm);
                px[1] = pf_flags & DDPF_RGB ? masked(v, gm) : px[0];
                px[2] = pf_flags & DDPF_RGB ? masked(v, bm) : px[0];
            } else {
                px[0] = px[1] = px[2] = 0;
            }
            px[3] = (pf_flags & (DDPF_ALPHAPIXELS | DDPF_ALPHA)) && am ? masked(v, am) : 255;
        }
    }
    out->width = width, out->height = height, out->rgba = rgba;
    return 1;
}
