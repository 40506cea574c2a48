/* texture: RDP upload parameters from a read sprite, and the missing-texture checkerboard
 * (see texture.h). */
#include "texture.h"

int texture_is_compressed_asset(const uint8_t *data, size_t size)
{
    return data && size >= 4 && data[0] == 'D' && data[1] == 'C' && data[2] == 'A';
}

/* Whether the RDP can texture from this tex_format_t (libdragon's list, without YUV). */
static int texturable(uint8_t format)
{
    switch (format) {
    case SPRITE_TEX_FORMAT_RGBA16:
    case SPRITE_TEX_FORMAT_RGBA32:
    case SPRITE_TEX_FORMAT_CI4:
    case SPRITE_TEX_FORMAT_CI8:
    case SPRITE_TEX_FORMAT_IA4:
    case SPRITE_TEX_FORMAT_IA8:
    case SPRITE_TEX_FORMAT_IA16:
    case SPRITE_TEX_FORMAT_I4:
    case SPRITE_TEX_FORMAT_I8:
        return 1;
    default:
        return 0;
    }
}

int texture_describe(texture *t, uint8_t format, uint16_t width, uint16_t height)
{
    texture z = {0};
    *t = z;
    if (!texturable(format))
        return TEXTURE_ERR_FORMAT;
    if (width == 0 || height == 0)
        return TEXTURE_ERR_EMPTY;
    t->format = format;
    t->rdp_format = (uint8_t)(format >> 2);
    t->rdp_size = (uint8_t)(format & 3);
    t->width = width;
    t->height = height;
    /* TEX_FORMAT_PIX2BYTES: ((pixels << (size + 2)) + 7) >> 3 */
    t->row_bytes = (((uint32_t)width << (t->rdp_size + 2)) + 7) >> 3;
    uint64_t tmem = (uint64_t)((t->row_bytes + 7) & ~7u) * height;
    t->tmem_bytes = tmem > UINT32_MAX ? UINT32_MAX : (uint32_t)tmem;
    t->fits_tmem = t->tmem_bytes <= (t->rdp_format == TEXTURE_RDP_CI ? TEXTURE_TMEM_CI_BYTES : TEXTURE_TMEM_BYTES);
    return TEXTURE_OK;
}

/* The format of the first image: libdragon's __sprite_upgrade for old sprites. */
static uint8_t first_image_format(const sprite_Sprite *s)
{
    if (s->flags == 0)
        return s->bitdepth == 2 ? SPRITE_TEX_FORMAT_RGBA16 : SPRITE_TEX_FORMAT_RGBA32;
    return (uint8_t)(s->flags & 0x1F);
}

static int set_pixels(texture *t, bf_bytes px)
{
    uint64_t need = (uint64_t)t->row_bytes * t->height;
    if (!px.ptr || px.len < need)
        return TEXTURE_ERR_SIZE;
    t->pixels = px.ptr;
    t->pixels_len = (uint32_t)need;
    return TEXTURE_OK;
}

static int set_palette(texture *t, const sprite_Sprite *s)
{
    if (t->rdp_format != TEXTURE_RDP_CI)
        return TEXTURE_OK;
    if (!s->has_ext || !s->ext.has_palette || s->ext.palette.len < 2 || !s->ext.palette.ptr)
        return TEXTURE_ERR_NO_PALETTE;
    uint32_t max = t->rdp_size == TEXTURE_SIZE_4B ? 16u : 256u;
    uint64_t have = s->ext.palette.len / 2;
    t->palette = s->ext.palette.ptr;
    t->palette_count = have < max ? (uint32_t)have : max;
    return TEXTURE_OK;
}

int texture_from_sprite_lod(const sprite_Sprite *s, unsigned level, texture *out)
{
    texture z = {0};
    *out = z;
    if (!s)
        return TEXTURE_ERR_NO_LOD;
    int st;
    if (level == 0) {
        st = texture_describe(out, first_image_format(s), s->width, s->height);
        if (st == TEXTURE_OK)
            st = set_pixels(out, s->pixels);
    } else {
        if (level > 7 || !s->has_ext || s->ext.lods[level - 1].width == 0 || !s->ext.lods[level - 1].has_pixels)
            return TEXTURE_ERR_NO_LOD;
        const sprite_Lod *lod = &s->ext.lods[level - 1];
        st = texture_describe(out, lod->format, lod->width, lod->height);
        if (st == TEXTURE_OK)
            st = set_pixels(out, lod->pixels);
    }
    if (st == TEXTURE_OK)
        st = set_palette(out, s);
    if (st != TEXTURE_OK)
        *out = z;
    return st;
}

int texture_from_sprite(const sprite_Sprite *s, texture *out)
{
    return texture_from_sprite_lod(s, 0, out);
}

uint16_t texture_rgba16(uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
    return (uint16_t)(((r >> 3) << 11) | ((g >> 3) << 6) | ((b >> 3) << 1) | (a >= 128 ? 1 : 0));
}

uint16_t texture_palette_color(const texture *t, uint32_t i)
{
    if (!t->palette || i >= t->palette_count)
        return 0;
    return (uint16_t)((t->palette[2 * i] << 8) | t->palette[2 * i + 1]);
}

int texture_checkerboard(uint8_t *buf, size_t capacity, uint16_t width, uint16_t height, uint16_t cell,
                         uint16_t color_a, uint16_t color_b, texture *out)
{
    texture z = {0};
    *out = z;
    if (width == 0 || height == 0)
        return TEXTURE_ERR_EMPTY;
    uint64_t need = (uint64_t)width * height * 2; /* up to 8.6e9: beyond a 32-bit size_t */
    if (!buf || need > UINT32_MAX || (uint64_t)capacity < need)
        return TEXTURE_ERR_STORAGE;
    if (cell == 0)
        cell = 1;
    for (uint32_t y = 0; y < height; y++)
        for (uint32_t x = 0; x < width; x++) {
            uint16_t c = ((x / cell + y / cell) & 1) ? color_b : color_a;
            uint32_t at = (y * width + x) * 2;
            buf[at] = (uint8_t)(c >> 8); /* big-endian, as the RDP reads texels */
            buf[at + 1] = (uint8_t)c;
        }
    texture_describe(out, SPRITE_TEX_FORMAT_RGBA16, width, height);
    out->pixels = buf;
    out->pixels_len = (uint32_t)need;
    return TEXTURE_OK;
}
