/* N64 texel formats to RGBA, as libdragon's sprites store them: rows of pixels exactly as the
 * RDP loads them into TMEM (4-bit formats two pixels a byte, the left one in the high nibble;
 * 16-bit ones big-endian). Layouts: the RDP's documented texel formats (libdragon surface.h). */
#include "texture_codec.h"

#include <stdio.h>

/* Bits per pixel of a format, 0 when unknown. */
static unsigned n64_bits(unsigned format)
{
    switch (format) {
    case N64_CI4: case N64_IA4: case N64_I4: return 4;
    case N64_CI8: case N64_IA8: case N64_I8: return 8;
    case N64_RGBA16: case N64_IA16: return 16;
    case N64_RGBA32: return 32;
    default: return 0;
    }
}

size_t n64_image_size(unsigned format, unsigned width, unsigned height)
{
    unsigned bits = n64_bits(format);
    return bits ? ((size_t)width * bits + 7) / 8 * height : 0;
}

static uint8_t from5(unsigned v) { return (uint8_t)((v << 3) | (v >> 2)); }
static uint8_t from3(unsigned v) { return (uint8_t)((v << 5) | (v << 2) | (v >> 1)); }

static void rgba5551(unsigned c, uint8_t *px)
{
    px[0] = from5(c >> 11), px[1] = from5((c >> 6) & 0x1F), px[2] = from5((c >> 1) & 0x1F);
    px[3] = c & 1 ? 255 : 0;
}

static void grey(uint8_t *px, uint8_t i, uint8_t a) { px[0] = px[1] = px[2] = i, px[3] = a; }

int n64_decode(unsigned format, unsigned width, unsigned height, const uint8_t *data, size_t size,
               const uint8_t *palette, size_t palette_size, uint8_t *rgba, char *why, size_t why_size)
{
    unsigned bits = n64_bits(format);
    if (!bits) {
        snprintf(why, why_size, "N64 texture format %u is not one binform decodes", format);
        return 0;
    }
    size_t need = n64_image_size(format, width, height), row = ((size_t)width * bits + 7) / 8;
    if (size < need) {
        snprintf(why, why_size, "a %ux%u image of N64 format %u takes %zu bytes, %zu are there", width, height, format,
                 need, size);
        return 0;
    }
    for (unsigned y = 0; y < height; y++)
        for (unsigned x = 0; x < width; x++) {
            const uint8_t *r = data + row * y;
            uint8_t *px = rgba + ((size_t)y * width + x) * 4;
            unsigned nib = (r[x / 2] >> (x % 2 ? 0 : 4)) & 0xF;
            switch (format) {
            case N64_RGBA16: rgba5551((unsigned)r[2 * x] << 8 | r[2 * x + 1], px); break;
            case N64_RGBA32: px[0] = r[4 * x], px[1] = r[4 * x + 1], px[2] = r[4 * x + 2], px[3] = r[4 * x + 3]; break;
            case N64_CI4:
            case N64_CI8: {
                size_t i = format == N64_CI4 ? nib : r[x];
                if (2 * i + 1 < palette_size)
                    rgba5551((unsigned)palette[2 * i] << 8 | palette[2 * i + 1], px);
                else
                    px[0] = px[1] = px[2] = px[3] = 0;
                break;
            }
            case N64_IA4: grey(px, from3(nib >> 1), nib & 1 ? 255 : 0); break;
            case N64_IA8: grey(px, (uint8_t)((r[x] >> 4) * 0x11), (uint8_t)((r[x] & 0xF) * 0x11)); break;
            case N64_IA16: grey(px, r[2 * x], r[2 * x + 1]); break;
            case N64_I4: grey(px, (uint8_t)(nib * 0x11), (uint8_t)(nib * 0x11)); break;
            case N64_I8: grey(px, r[x], r[x]); break;
            }
        }
    return 1;
}
