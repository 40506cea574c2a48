/* Colour image: reading pixels for the blender, writing blended pixels,
 * filling. Pixel indices count from the image's start address. */
#include "rdp_internal.h"

void rdp_fb_read(rdp_t *rdp, uint32_t pixel, uint32_t *mem_cvg, int32_t *dest)
{
    bool read = rdp->om.image_read;
    switch (rdp->fb_size) {
    case RDP_SIZE_4:
        dest[0] = dest[1] = dest[2] = 0;
        *mem_cvg = 7;
        dest[3] = 0xe0;
        return;
    case RDP_SIZE_8:
        if (read)
            dest[0] = dest[1] = dest[2] = rdram_read8(rdp, rdp->fb_address + pixel);
        *mem_cvg = 7;
        dest[3] = 0xe0;
        return;
    case RDP_SIZE_16:
        if (read) {
            uint16_t w;
            uint8_t h;
            uint32_t low;
            rdram_read16_hidden(rdp, (rdp->fb_address >> 1) + pixel, &w, &h);
            if (rdp->fb_format == RDP_FMT_RGBA) {
                dest[0] = (w >> 8) & 0xf8;
                dest[1] = (w & 0x7c0) >> 3;
                dest[2] = (w & 0x3e) << 2;
                low = (uint32_t)(w & 1) << 2 | h;
            } else {
                dest[0] = dest[1] = dest[2] = w >> 8;
                low = (w >> 5) & 7;
            }
            *mem_cvg = low;
            dest[3] = (int32_t)(low << 5);
        } else {
            *mem_cvg = 7;
            dest[3] = 0xe0;
        }
        return;
    default:
        if (read) {
            uint32_t w = rdram_read32(rdp, (rdp->fb_address >> 2) + pixel);
            dest[0] = (w >> 24) & 0xff;
            dest[1] = (w >> 16) & 0xff;
            dest[2] = (w >> 8) & 0xff;
            *mem_cvg = (w >> 5) & 7;
            dest[3] = w & 0xe0;
        } else {
            *mem_cvg = 7;
            dest[3] = 0xe0;
        }
        return;
    }
}

void rdp_fb_write(rdp_t *rdp, uint32_t pixel, const int32_t rgb[3], bool blend_en, uint32_t cvg, uint32_t mem_cvg, bool forward, int64_t *pending)
{
    rdp->stats.pixels++;
    switch (rdp->fb_size) {
    case RDP_SIZE_4: {
        uint32_t a = (rdp->fb_address + pixel) & 0xffffff;
        if (a < rdp->rdram_size)
            rdp->rdram[a] = 0;
        return;
    }
    case RDP_SIZE_8: {
        uint32_t a = rdp->fb_address + pixel;
        rdram_write8_hidden(rdp, a, (uint8_t)((a & 1) ? rgb[1] : rgb[0]), forward, pending);
        return;
    }
    case RDP_SIZE_16: {
        int32_t final = rdp_final_coverage(rdp, blend_en, (int32_t)cvg, (int32_t)mem_cvg);
        uint16_t value;
        uint8_t hidden;
        if (rdp->fb_format == RDP_FMT_RGBA) {
            value = (uint16_t)((uint32_t)(rgb[0] & 0xf8) << 8 | (uint32_t)(rgb[1] & 0xf8) << 3 |
                               (uint32_t)(rgb[2] & 0xf8) >> 2 | (uint32_t)(final >> 2));
            hidden = (uint8_t)(final & 3);
        } else {
            value = (uint16_t)((uint32_t)rgb[0] << 8 | (uint32_t)final << 5);
            hidden = 0;
        }
        rdram_write16_hidden(rdp, (rdp->fb_address >> 1) + pixel, value, hidden, true);
        return;
    }
    default: {
        int32_t final = rdp_final_coverage(rdp, blend_en, (int32_t)cvg, (int32_t)mem_cvg);
        uint32_t value = (uint32_t)(rgb[0] & 0xff) << 24 | (uint32_t)(rgb[1] & 0xff) << 16 |
                         (uint32_t)(rgb[2] & 0xff) << 8 | (uint32_t)final << 5;
        rdram_write32_hidden(rdp, (rdp->fb_address >> 2) + pixel, value, (rgb[1] & 1) ? 3 : 0, 0);
        return;
    }
    }
}

void rdp_fb_fill(rdp_t *rdp, uint32_t pixel, bool forward, int64_t *pending)
{
    uint32_t fill = rdp->fill_color;
    rdp->stats.pixels++;
    switch (rdp->fb_size) {
    case RDP_SIZE_8: {
        /* the fill colour byte at the same position in its word as the pixel */
        uint32_t a = rdp->fb_address + pixel;
        rdram_write8_hidden(rdp, a, (uint8_t)(fill >> (((a & 3) ^ 3) * 8)), forward, pending);
        return;
    }
    case RDP_SIZE_16: {
        uint32_t index = (rdp->fb_address >> 1) + pixel;
        uint16_t value = (index & 1) ? (uint16_t)fill : (uint16_t)(fill >> 16);
        rdram_write16_hidden(rdp, index, value, (value & 1) ? 3 : 0, true);
        return;
    }
    case RDP_SIZE_32:
        rdram_write32_hidden(rdp, (rdp->fb_address >> 2) + pixel, fill, (fill & 0x10000) ? 3 : 0, (fill & 1) ? 3 : 0);
        return;
    default:
        return;
    }
}
