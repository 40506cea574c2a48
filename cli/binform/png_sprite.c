/* PNG -> uncompressed libdragon sprite, as mksprite converts (see png_sprite.h). */
#include "png_sprite.h"

#include <png.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* libdragon's tex_format_t */
enum { FMT_NONE = 0, FMT_RGBA16 = 2, FMT_RGBA32 = 3, FMT_CI4 = 8, FMT_CI8 = 9, FMT_IA4 = 12, FMT_IA8 = 13,
       FMT_IA16 = 14, FMT_I4 = 16, FMT_I8 = 17 };

static const struct {
    const char *name;
    uint8_t format;
} formats[] = {{"RGBA32", FMT_RGBA32}, {"RGBA16", FMT_RGBA16}, {"IA16", FMT_IA16}, {"CI8", FMT_CI8},
               {"I8", FMT_I8},         {"IA8", FMT_IA8},       {"CI4", FMT_CI4},   {"I4", FMT_I4},
               {"IA4", FMT_IA4}};

const char *png_sprite_format_name(uint8_t format)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].format == format)
            return formats[i].name;
    return "?";
}

/* mksprite's rule: the first dot-separated part of the name that is a format's name. */
static uint8_t format_from_name(const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    while (*base) {
        size_t len = strcspn(base, ".");
        for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
            if (strlen(formats[i].name) == len && strncasecmp(base, formats[i].name, len) == 0)
                return formats[i].format;
        base += len;
        if (*base == '.')
            base++;
    }
    return FMT_NONE;
}

static int fail(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- decoding ---- */

typedef struct png_source {
    const uint8_t *data;
    size_t size, at;
} png_source;

typedef struct decoded {
    unsigned width, height;
    int color_type, bit_depth;
    uint8_t *rgba;        /* width * height * 4 (NULL for a palette kept as indices) */
    uint8_t *indices;     /* width * height, palette images read for a CI format */
    uint8_t palette[256][4];
    unsigned palette_count;
    char error[160];
} decoded;

static void read_bytes(png_structp png, png_bytep out, png_size_t n)
{
    png_source *src = png_get_io_ptr(png);
    if (n > src->size - src->at)
        png_error(png, "the file ends inside the image");
    memcpy(out, src->data + src->at, n);
    src->at += n;
}

static void on_error(png_structp png, png_const_charp message)
{
    decoded *d = png_get_error_ptr(png);
    snprintf(d->error, sizeof d->error, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;
}

/* Decodes the PNG: its palette indices when `keep_indices` and it has a palette, else RGBA8. */
static int decode(const uint8_t *data, size_t size, int want_indices, decoded *d)
{
    png_source src = {data, size, 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, d, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep *volatile rows = NULL; /* volatile: freed after a longjmp */
    if (!png || !info) {
        png_destroy_read_struct(&png, &info, NULL);
        snprintf(d->error, sizeof d->error, "out of memory");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0)
        png_error(png, "not a PNG file");
    png_set_read_fn(png, &src, read_bytes);
    png_read_info(png, info);
    png_uint_32 w, h;
    int interlace;
    png_get_IHDR(png, info, &w, &h, &d->bit_depth, &d->color_type, &interlace, NULL, NULL);
    if (w == 0 || h == 0 || w > PNG_SPRITE_MAX_SIDE || h > PNG_SPRITE_MAX_SIDE)
        png_error(png, "the image is larger than 1024 x 1024 pixels");
    d->width = w;
    d->height = h;
    int indexed = d->color_type == PNG_COLOR_TYPE_PALETTE && want_indices;
    if (d->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_colorp plte;
        int n = 0;
        png_get_PLTE(png, info, &plte, &n);
        png_bytep trans = NULL;
        int ntrans = 0;
        png_get_tRNS(png, info, &trans, &ntrans, NULL);
        d->palette_count = n > 256 ? 256 : (unsigned)n;
        for (unsigned i = 0; i < d->palette_count; i++) {
            d->palette[i][0] = plte[i].red;
            d->palette[i][1] = plte[i].green;
            d->palette[i][2] = plte[i].blue;
            d->palette[i][3] = trans && (int)i < ntrans ? trans[i] : 255;
        }
    }
    if (indexed) {
        png_set_packing(png); /* 1, 2, 4-bit indices to a byte each */
    } else {
        png_set_expand(png);   /* palette to RGB, low-depth grey to 8 bits, tRNS to alpha */
        png_set_strip_16(png); /* 16-bit channels keep their high byte, as lodepng does */
        png_set_gray_to_rgb(png);
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t pixel = indexed ? 1 : 4;
    uint8_t *buf = malloc((size_t)w * h * pixel);
    rows = malloc(sizeof(*rows) * h);
    if (!buf || !rows) {
        free(buf);
        png_error(png, "out of memory");
    }
    if (indexed)
        d->indices = buf;
    else
        d->rgba = buf;
    for (png_uint_32 y = 0; y < h; y++)
        rows[y] = buf + (size_t)y * w * pixel;
    png_read_image(png, rows);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

/* ---- the sprite ---- */

static uint16_t rgba5551(const uint8_t c[4])
{
    return (uint16_t)((c[0] >> 3) << 11 | (c[1] >> 3) << 6 | (c[2] >> 3) << 1 | (c[3] ? 1 : 0));
}

static size_t round8(size_t v) { return (v + 7) & ~(size_t)7; }

/* The pixels of `d` in `format` (row bytes as TEX_FORMAT_PIX2BYTES, 4-bit rows padded with a
 * zero nibble) into `px`; a CI format's indices come from d->indices. */
static void pack(const decoded *d, uint8_t format, uint8_t *px)
{
    unsigned bits = 4u << (format & 3);
    size_t row = ((size_t)d->width * bits + 7) / 8;
    for (unsigned y = 0; y < d->height; y++) {
        uint8_t *out = px + y * row;
        for (unsigned x = 0; x < d->width; x++) {
            size_t i = (size_t)y * d->width + x;
            const uint8_t *c = d->rgba ? d->rgba + 4 * i : NULL;
            unsigned v;
            switch (format) {
            case FMT_RGBA32: memcpy(out + 4 * x, c, 4); continue;
            case FMT_RGBA16:
                v = rgba5551(c);
                out[2 * x] = (uint8_t)(v >> 8);
                out[2 * x + 1] = (uint8_t)v;
                continue;
            case FMT_IA16: out[2 * x] = c[0], out[2 * x + 1] = c[3]; continue;
            case FMT_IA8: out[x] = (uint8_t)((c[0] & 0xF0) | (c[3] >> 4)); continue;
            case FMT_I8: out[x] = c[0]; continue;
            case FMT_CI8: out[x] = d->indices[i]; continue;
            case FMT_I4: v = c[0] >> 4; break;
            case FMT_IA4: v = (c[0] >> 4 & 0xEu) | (c[3] ? 1u : 0u); break;
            default: v = d->indices[i] & 15u; break; /* CI4 */
            }
            out[x / 2] |= (uint8_t)(x % 2 ? v : v << 4);
        }
    }
}

/* Palette indices for RGBA pixels with few colours: each distinct colour once, in order of
 * first appearance; -1 when there are more than `max`. */
static int index_colors(decoded *d, unsigned max)
{
    size_t n = (size_t)d->width * d->height;
    d->indices = malloc(n ? n : 1);
    if (!d->indices)
        return -1;
    d->palette_count = 0;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *c = d->rgba + 4 * i;
        unsigned k = 0;
        while (k < d->palette_count && memcmp(d->palette[k], c, 4) != 0)
            k++;
        if (k == d->palette_count) {
            if (k == max)
                return -1;
            memcpy(d->palette[k], c, 4);
            d->palette_count++;
        }
        d->indices[i] = (uint8_t)k;
    }
    return 0;
}

static unsigned used_indices(const decoded *d)
{
    unsigned used = 0;
    for (size_t i = 0; i < (size_t)d->width * d->height; i++)
        if (d->indices[i] >= used)
            used = d->indices[i] + 1u;
    return used;
}

static unsigned distinct_greys(const decoded *d)
{
    uint8_t seen[256] = {0};
    unsigned n = 0;
    for (size_t i = 0; i < (size_t)d->width * d->height; i++)
        if (!seen[d->rgba[4 * i]]++)
            n++;
    return n;
}

/* mksprite's choice when the name names no format. */
static uint8_t auto_format(const decoded *d)
{
    switch (d->color_type) {
    case PNG_COLOR_TYPE_GRAY: return d->bit_depth > 4 && distinct_greys(d) > 16 ? FMT_I8 : FMT_I4;
    case PNG_COLOR_TYPE_GRAY_ALPHA: return d->bit_depth < 4 ? FMT_IA4 : d->bit_depth < 8 ? FMT_IA8 : FMT_IA16;
    case PNG_COLOR_TYPE_PALETTE: return used_indices(d) <= 16 ? FMT_CI4 : FMT_CI8;
    default: return FMT_RGBA16;
    }
}

int png_sprite_convert(const uint8_t *png, size_t size, const char *name, uint8_t **out, size_t *out_size,
                       uint8_t *format_out, char *why, size_t why_size)
{
    *out = NULL;
    *out_size = 0;
    uint8_t format = format_from_name(name);
    int ci = format == FMT_CI4 || format == FMT_CI8;
    decoded d;
    memset(&d, 0, sizeof d);
    /* palette PNGs keep their indices for CI formats, named or chosen */
    if (decode(png, size, format == FMT_NONE || ci, &d) != 0) {
        free(d.rgba);
        free(d.indices);
        return fail(why, why_size, "%s", d.error);
    }
    if (format == FMT_NONE)
        format = auto_format(&d);
    ci = format == FMT_CI4 || format == FMT_CI8;
    unsigned max = format == FMT_CI4 ? 16u : 256u;
    int status = 0;
    if (ci && d.indices && used_indices(&d) > max)
        status = fail(why, why_size, "CI4 wants at most 16 colours but the palette uses %u (mksprite would "
                      "quantize: build the sprite with it)", used_indices(&d));
    else if (ci && !d.indices && index_colors(&d, max) != 0)
        status = fail(why, why_size, "%s wants at most %u colours and the image has more (mksprite would quantize: "
                      "build the sprite with it)", png_sprite_format_name(format), max);
    if (status != 0) {
        free(d.rgba);
        free(d.indices);
        return status;
    }
    size_t row = (((size_t)d.width << ((format & 3) + 2)) + 7) >> 3;
    size_t pixels = row * d.height;
    size_t ext_at = round8(8 + pixels);
    size_t palette_at = ci ? ext_at + 128 : 0;
    unsigned colors = ci ? (d.indices == NULL ? 0 : (format == FMT_CI4 ? 16u : d.palette_count)) : 0;
    size_t total = ci ? palette_at + round8(2u * colors) : ext_at + 128;
    uint8_t *s = calloc(1, total);
    if (!s) {
        free(d.rgba);
        free(d.indices);
        return fail(why, why_size, "out of memory");
    }
    s[0] = (uint8_t)(d.width >> 8), s[1] = (uint8_t)d.width;
    s[2] = (uint8_t)(d.height >> 8), s[3] = (uint8_t)d.height;
    s[5] = (uint8_t)(0x80 | format); /* SPRITE_FLAGS_EXT */
    s[6] = 1, s[7] = 1;              /* one slice each way */
    pack(&d, format, s + 8);
    uint8_t *ext = s + ext_at;
    ext[1] = 124; /* sizeof(sprite_ext_t) */
    ext[3] = 4;   /* version */
    if (ci) {
        ext[4] = (uint8_t)(palette_at >> 24), ext[5] = (uint8_t)(palette_at >> 16);
        ext[6] = (uint8_t)(palette_at >> 8), ext[7] = (uint8_t)palette_at;
        for (unsigned i = 0; i < colors; i++) {
            uint16_t c = i < d.palette_count ? rgba5551(d.palette[i]) : 0;
            s[palette_at + 2 * i] = (uint8_t)(c >> 8);
            s[palette_at + 2 * i + 1] = (uint8_t)c;
        }
    }
    free(d.rgba);
    free(d.indices);
    *out = s;
    *out_size = total;
    *format_out = format;
    return 0;
}
