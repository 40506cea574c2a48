/* Plain raster pixels to RGBA: rows top to bottom, no tiles (Toshi's TML textures). */
#include "texture_codec.h"

#include <stdio.h>

static const char *const raster_names[] = {"rgba8888", "bgra8888", "rgb888", "argb1555", "argb4444", "argb2222"};

size_t raster_image_size(raster_kind kind, unsigned width, unsigned height)
{
    static const unsigned bytes[] = {4, 4, 3, 2, 2, 1};
    return (size_t)width * height * bytes[kind];
}

static uint8_t from5(unsigned v) { return (uint8_t)((v << 3) | (v >> 2)); }

int raster_decode(raster_kind kind, unsigned width, unsigned height, const uint8_t *data, size_t size, uint8_t *rgba,
                  char *why, size_t why_size)
{
    size_t need = raster_image_size(kind, width, height), n = (size_t)width * height;
    if (size != need) {
        snprintf(why, why_size, "%u x %u pixels of %s take %zu bytes, the data holds %zu", width, height,
                 raster_names[kind], need, size);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        uint8_t *px = rgba + 4 * i;
        const uint8_t *p = data + i * (need / (n ? n : 1));
        unsigned c = kind == RASTER_ARGB1555 || kind == RASTER_ARGB4444 ? (unsigned)p[0] | (unsigned)p[1] << 8 : p[0];
        switch (kind) {
        case RASTER_RGBA8888: px[0] = p[0], px[1] = p[1], px[2] = p[2], px[3] = p[3]; break;
        case RASTER_BGRA8888: px[0] = p[2], px[1] = p[1], px[2] = p[0], px[3] = p[3]; break;
        case RASTER_RGB888: px[0] = p[0], px[1] = p[1], px[2] = p[2], px[3] = 255; break;
        case RASTER_ARGB1555:
            px[0] = from5((c >> 10) & 0x1F), px[1] = from5((c >> 5) & 0x1F), px[2] = from5(c & 0x1F);
            px[3] = c & 0x8000 ? 255 : 0;
            break;
        case RASTER_ARGB4444:
            px[0] = (uint8_t)(((c >> 8) & 0xF) * 0x11), px[1] = (uint8_t)(((c >> 4) & 0xF) * 0x11);
            px[2] = (uint8_t)((c & 0xF) * 0x11), px[3] = (uint8_t)((c >> 12) * 0x11);
            break;
        case RASTER_ARGB2222:
            px[0] = (uint8_t)(((c >> 4) & 3) * 0x55), px[1] = (uint8_t)(((c >> 2) & 3) * 0x55);
            px[2] = (uint8_t)((c & 3) * 0x55), px[3] = (uint8_t)((c >> 6) * 0x55);
            break;
        }
    }
    return 1;
}
