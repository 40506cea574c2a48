/* libdragon sprites (schemas/sprite.yaml) and n64/scene texture: sprites laid out by hand for
 * every RDP format, read back field by field; the layout checked byte for byte against files
 * libdragon's mksprite wrote (tests/fixtures/sprite, PROVENANCE.md); truncated and lying files
 * give errors with a path and an offset; the texture parameters for the RDP and the
 * checkerboard of a missing texture. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bf_validate.h"
#include "bf_write.h"
#include "samples.h"
#include "sprite.h"
#include "texture.h"

#define FIXTURES BF_PROJECT_DIR "/tests/fixtures/sprite/"

/* ---- one sprite, laid out by hand ----
 * A 4x2 CI4 sprite with a 16-color palette, as mksprite lays it out: every field in order. */
static const uint8_t CI4_4X2[] = {
    /* 0x00 header */
    0x00, 0x04, /* width 4 */
    0x00, 0x02, /* height 2 */
    0x00,       /* bitdepth (deprecated): 0 */
    0x88,       /* flags: 0x80 extended header | format 8 (CI4) */
    0x01, 0x01, /* hslices 1, vslices 1 */
    /* 0x08 pixels: 2 rows of 2 bytes, two 4-bit indices per byte, high nibble first */
    0x01, 0x23, 0x45, 0x67,
    /* 0x0C padding to 8 */
    0x00, 0x00, 0x00, 0x00,
    /* 0x10 extended header (sprite_ext_t) */
    0x00, 0x7C,             /* size 124 */
    0x00, 0x04,             /* version 4 */
    0x00, 0x00, 0x00, 0x90, /* palette offset 0x90 */
    /* 0x18 seven LOD slots, unused: width, height (u16), format (u8), offset (u24) */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 0x50 flags: 0x0020 fits TMEM, no texparms, no detail, 0 LODs; padding */
    0x00, 0x20, 0x00, 0x00,
    /* 0x54 texparms S: translate 0.0, repeats 1.0, scale_log 0, mirror 0, padding */
    0x00, 0x00, 0x00, 0x00, 0x3F, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    /* 0x60 texparms T */
    0x00, 0x00, 0x00, 0x00, 0x3F, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    /* 0x6C detail texparms S: translate 0.0, repeats 2048.0, scale_log -1 (mksprite's defaults) */
    0x00, 0x00, 0x00, 0x00, 0x45, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00,
    /* 0x78 detail texparms T */
    0x00, 0x00, 0x00, 0x00, 0x45, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00,
    /* 0x84 detail blend factor 0.0, use main texture 0, padding */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    /* 0x8C padding to 8 */
    0x00, 0x00, 0x00, 0x00,
    /* 0x90 palette: 16 RGBA 5551 colors */
    0xF8, 0x01, 0x07, 0xC1, 0x00, 0x3F, 0xFF, 0xFF, 0x00, 0x01, 0x84, 0x21, 0x42, 0x11, 0xC6, 0x31,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    /* 0xB0 end */
};

/* An old sprite (before the format field): 2x1 RGBA32, flags 0, bitdepth 4. */
static const uint8_t OLD_RGBA32[] = {
    0x00, 0x02, 0x00, 0x01, /* width 2, height 1 */
    0x04, 0x00,             /* bitdepth 4 (RGBA32), flags 0 */
    0x01, 0x01,             /* slices */
    0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x80, /* red, then half-transparent blue */
};

typedef struct readout {
    bf_arena arena;
    sprite_Sprite *s;
    bf_error err;
    int ok;
} readout;

static int read_sprite(readout *r, const uint8_t *data, size_t size)
{
    bf_arena_init(&r->arena, bf_alloc_default(), 0);
    memset(&r->err, 0, sizeof r->err);
    r->s = NULL;
    r->ok = sprite_read_sprite(data, size, &r->arena, NULL, &r->s, &r->err);
    return r->ok;
}

static void done(readout *r)
{
    bf_arena_free(&r->arena);
}

/* Errors and warnings of the generated validator. */
static void validate(const sprite_Sprite *s, const uint8_t *data, size_t size, size_t *errors, size_t *warnings,
                     char *first, size_t first_size)
{
    bf_findings f;
    memset(&f, 0, sizeof f);
    sprite_validate_sprite(s, data, size, &f);
    *errors = f.errors;
    *warnings = f.warnings;
    first[0] = '\0';
    if (f.count)
        bf_finding_format(&f.items[0], "sprite", first, first_size);
    bf_findings_free(&f);
}

/* Writes the document back: the same bytes. */
static void expect_round_trip(const sprite_Sprite *s, const uint8_t *data, size_t size, const char *what)
{
    bf_buffer out;
    memset(&out, 0, sizeof out);
    bf_error err;
    cr_assert(sprite_write_sprite(s, &out, &err), "%s: write: %s", what, err.message);
    cr_assert(out.size == size && memcmp(out.data, data, size) == 0, "%s: writes back %zu bytes, not the %zu read",
              what, out.size, size);
    bf_buffer_free(&out);
}

Test(sprite, ci4_laid_out_by_hand_reads_field_by_field)
{
    readout r;
    cr_assert(read_sprite(&r, CI4_4X2, sizeof CI4_4X2), "%s", r.err.message);
    const sprite_Sprite *s = r.s;
    cr_assert(s->width == 4 && s->height == 2 && s->bitdepth == 0 && s->flags == 0x88);
    cr_assert(s->flags_ext == 1 && s->flags_unused == 0 && s->flags_owned_buffer == 0 &&
              s->flags_format == SPRITE_TEX_FORMAT_CI4);
    cr_assert(s->hslices == 1 && s->vslices == 1);
    cr_assert(s->pixels.offset == 8 && s->pixels.len == 4 && s->pixels.ptr == CI4_4X2 + 8);
    cr_assert(s->has_ext && s->ext_at == 0x10 && s->ext_pad.len == 4);
    const sprite_SpriteExt *x = &s->ext;
    cr_assert(x->size == 124 && x->version == 4 && x->palette_offset == 0x90);
    for (int i = 0; i < 7; i++)
        cr_assert(x->lods[i].width == 0 && x->lods[i].height == 0 && x->lods[i].format == 0 &&
                  x->lods[i].offset == 0 && !x->lods[i].has_pixels);
    cr_assert(x->flags == 0x20 && x->flags_fits_tmem == 1 && x->flags_has_detail == 0 && x->flags_has_texparms == 0 &&
              x->flags_lod_count == 0 && x->flags_unused == 0 && x->padding == 0);
    cr_assert(x->texparms.s.translate == 0.0f && x->texparms.s.repeats == 1.0f && x->texparms.s.scale_log == 0 &&
              x->texparms.s.mirror == 0 && x->texparms.t.repeats == 1.0f);
    cr_assert(x->detail.s.repeats == 2048.0f && x->detail.s.scale_log == -1 && x->detail.t.scale_log == -1);
    cr_assert(x->detail_blend_factor == 0.0f && x->detail_use_main_texture == 0);
    cr_assert(x->has_palette && x->palette_at == 0x90 && x->palette.len == 32 && x->palette.ptr == CI4_4X2 + 0x90);
    cr_assert(s->rest_at == 0x8C && s->rest.len == 36, "padding and palette follow the extended header");

    size_t errors, warnings;
    char first[700];
    validate(s, CI4_4X2, sizeof CI4_4X2, &errors, &warnings, first, sizeof first);
    cr_assert(errors == 0 && warnings == 0, "%zu errors, %zu warnings: %s", errors, warnings, first);
    expect_round_trip(s, CI4_4X2, sizeof CI4_4X2, "CI4 4x2");

    texture t;
    cr_assert_eq(texture_from_sprite(s, &t), TEXTURE_OK);
    cr_assert(t.format == 8 && t.rdp_format == TEXTURE_RDP_CI && t.rdp_size == TEXTURE_SIZE_4B);
    cr_assert(t.width == 4 && t.height == 2 && t.row_bytes == 2 && t.pixels == CI4_4X2 + 8 && t.pixels_len == 4);
    cr_assert(t.palette == CI4_4X2 + 0x90 && t.palette_count == 16);
    cr_assert(texture_palette_color(&t, 0) == 0xF801 && texture_palette_color(&t, 5) == 0x8421 &&
              texture_palette_color(&t, 16) == 0);
    cr_assert(t.tmem_bytes == 16 && t.fits_tmem, "rows pad to 8 bytes in TMEM: %u", t.tmem_bytes);
    done(&r);
}

Test(sprite, old_sprites_are_rgba_by_their_bitdepth)
{
    readout r;
    cr_assert(read_sprite(&r, OLD_RGBA32, sizeof OLD_RGBA32), "%s", r.err.message);
    cr_assert(r.s->flags == 0 && r.s->bitdepth == 4 && !r.s->has_ext && r.s->pixels.len == 8 && r.s->rest.len == 0);
    texture t;
    cr_assert_eq(texture_from_sprite(r.s, &t), TEXTURE_OK);
    cr_assert(t.format == SPRITE_TEX_FORMAT_RGBA32 && t.rdp_size == TEXTURE_SIZE_32B && t.row_bytes == 8 &&
              t.pixels_len == 8 && !t.palette);
    size_t errors, warnings;
    char first[700];
    validate(r.s, OLD_RGBA32, sizeof OLD_RGBA32, &errors, &warnings, first, sizeof first);
    cr_assert(errors == 0 && warnings == 0, "%s", first);
    expect_round_trip(r.s, OLD_RGBA32, sizeof OLD_RGBA32, "old RGBA32");
    done(&r);

    /* libdragon's own old sprite (examples/loadspritefromsd): 20x28, bitdepth 2 */
    uint8_t *data;
    size_t size;
    cr_assert(load_file(FIXTURES "old_rgba16_plane.sprite", &data, &size));
    cr_assert(read_sprite(&r, data, size), "%s", r.err.message);
    cr_assert(r.s->width == 20 && r.s->height == 28 && r.s->bitdepth == 2 && r.s->flags == 0);
    cr_assert_eq(texture_from_sprite(r.s, &t), TEXTURE_OK);
    cr_assert(t.format == SPRITE_TEX_FORMAT_RGBA16 && t.pixels_len == 20 * 28 * 2 && t.pixels == data + 8);
    cr_assert(t.tmem_bytes == 40 * 28 && t.fits_tmem, "40-byte rows are whole TMEM lines");
    validate(r.s, data, size, &errors, &warnings, first, sizeof first);
    cr_assert(errors == 0 && warnings == 0, "%s", first);
    expect_round_trip(r.s, data, size, "plane.sprite");
    done(&r);
    free(data);
}

/* ---- laying sprites out as mksprite does, for any format ---- */

typedef struct axis_parms {
    float translate, repeats;
    int16_t scale_log;
    uint8_t mirror;
} axis_parms;

typedef struct layout {
    uint8_t format;
    uint16_t width, height;
    const uint8_t *pixels;
    size_t pixels_len;
    int lod_count;
    struct {
        uint8_t format;
        uint16_t width, height;
        const uint8_t *pixels;
        size_t len;
    } lods[7];
    const uint8_t *palette;
    size_t palette_len;
    uint16_t ext_flags;
    axis_parms parms[2], detail[2];
} layout;

static void put(uint8_t *out, size_t *at, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--)
        out[(*at)++] = (uint8_t)(v >> (8 * i));
}

static void put_f32(uint8_t *out, size_t *at, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put(out, at, u, 4);
}

static void pad8(uint8_t *out, size_t *at)
{
    while (*at % 8)
        out[(*at)++] = 0;
}

static void put_axis(uint8_t *out, size_t *at, const axis_parms *a)
{
    put_f32(out, at, a->translate); /* translate */
    put_f32(out, at, a->repeats);   /* repeats */
    put(out, at, (uint16_t)a->scale_log, 2);
    put(out, at, a->mirror, 1);
    put(out, at, 0, 1); /* padding */
}

static layout default_layout(uint8_t format, uint16_t w, uint16_t h, const uint8_t *px, size_t len)
{
    layout l;
    memset(&l, 0, sizeof l);
    l.format = format;
    l.width = w;
    l.height = h;
    l.pixels = px;
    l.pixels_len = len;
    l.ext_flags = 0x20;
    l.parms[0].repeats = l.parms[1].repeats = 1.0f;
    l.detail[0].repeats = l.detail[1].repeats = 2048.0f;
    l.detail[0].scale_log = l.detail[1].scale_log = -1;
    return l;
}

/* mksprite's spritemaker_write, field by field; returns the file's size. */
static size_t lay(uint8_t *out, const layout *l)
{
    size_t at = 0;
    put(out, &at, l->width, 2);
    put(out, &at, l->height, 2);
    put(out, &at, 0, 1);               /* bitdepth: 0 */
    put(out, &at, l->format | 0x80, 1); /* flags */
    put(out, &at, 1, 1);               /* hslices */
    put(out, &at, 1, 1);               /* vslices */
    memcpy(out + at, l->pixels, l->pixels_len);
    at += l->pixels_len;
    pad8(out, &at);
    put(out, &at, 124, 2); /* ext size */
    put(out, &at, 4, 2);   /* ext version */
    size_t pal_field = at;
    put(out, &at, 0, 4); /* palette offset, set below */
    size_t lod_field[7];
    for (int i = 0; i < 7; i++) {
        put(out, &at, i < l->lod_count ? l->lods[i].width : 0, 2);
        put(out, &at, i < l->lod_count ? l->lods[i].height : 0, 2);
        lod_field[i] = at;
        put(out, &at, 0, 4); /* format << 24 | offset, set below */
    }
    put(out, &at, l->ext_flags, 2);
    put(out, &at, 0, 2);
    put_axis(out, &at, &l->parms[0]);
    put_axis(out, &at, &l->parms[1]);
    put_axis(out, &at, &l->detail[0]);
    put_axis(out, &at, &l->detail[1]);
    put_f32(out, &at, 0.0f); /* detail blend factor */
    put(out, &at, 0, 4);     /* use main texture, padding */
    pad8(out, &at);
    for (int i = 0; i < l->lod_count; i++) {
        size_t f = lod_field[i];
        put(out, &f, (uint32_t)l->lods[i].format << 24 | (uint32_t)at, 4);
        memcpy(out + at, l->lods[i].pixels, l->lods[i].len);
        at += l->lods[i].len;
        pad8(out, &at);
    }
    if (l->palette_len) {
        size_t f = pal_field;
        put(out, &f, at, 4);
        memcpy(out + at, l->palette, l->palette_len);
        at += l->palette_len;
        pad8(out, &at);
    }
    return at;
}

/* mksprite's files are exactly this layout, given their pixels, palette and parameters. */
Test(sprite, mksprite_files_have_the_layout_laid_out_here)
{
    static const struct {
        const char *file;
        uint8_t format;
        uint16_t w, h;
    } files[] = {
        {"rgba16_8x4.sprite", SPRITE_TEX_FORMAT_RGBA16, 8, 4}, {"rgba32_8x4.sprite", SPRITE_TEX_FORMAT_RGBA32, 8, 4},
        {"ci4_8x4.sprite", SPRITE_TEX_FORMAT_CI4, 8, 4},       {"ci8_8x4.sprite", SPRITE_TEX_FORMAT_CI8, 8, 4},
        {"i4_8x4.sprite", SPRITE_TEX_FORMAT_I4, 8, 4},         {"i8_8x4.sprite", SPRITE_TEX_FORMAT_I8, 8, 4},
        {"ia4_8x4.sprite", SPRITE_TEX_FORMAT_IA4, 8, 4},       {"ia8_8x4.sprite", SPRITE_TEX_FORMAT_IA8, 8, 4},
        {"ia16_8x4.sprite", SPRITE_TEX_FORMAT_IA16, 8, 4},     {"i4_odd_5x3.sprite", SPRITE_TEX_FORMAT_I4, 5, 3},
        {"rgba16_mip_16x16.sprite", SPRITE_TEX_FORMAT_RGBA16, 16, 16},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[512];
        snprintf(path, sizeof path, FIXTURES "%s", files[i].file);
        uint8_t *data;
        size_t size;
        cr_assert(load_file(path, &data, &size), "cannot read %s", path);
        readout r;
        cr_assert(read_sprite(&r, data, size), "%s: %s", files[i].file, r.err.message);
        const sprite_Sprite *s = r.s;
        cr_assert(s->width == files[i].w && s->height == files[i].h && s->flags_format == files[i].format &&
                      s->flags_ext && s->has_ext,
                  "%s: %ux%u format %u", files[i].file, s->width, s->height, (unsigned)s->flags_format);
        size_t errors, warnings;
        char first[700];
        validate(s, data, size, &errors, &warnings, first, sizeof first);
        cr_assert(errors == 0 && warnings == 0, "%s: %s", files[i].file, first);
        expect_round_trip(s, data, size, files[i].file);

        texture t;
        cr_assert_eq(texture_from_sprite(s, &t), TEXTURE_OK, "%s", files[i].file);
        cr_assert(t.format == files[i].format && t.pixels == s->pixels.ptr && t.pixels_len == s->pixels.len);
        cr_assert_eq(t.row_bytes * t.height, t.pixels_len);
        if (t.rdp_format == TEXTURE_RDP_CI)
            cr_assert_eq(t.palette_count, t.rdp_size == TEXTURE_SIZE_4B ? 16u : 256u, "%s", files[i].file);
        else
            cr_assert(!t.palette && !s->ext.has_palette);

        layout l = default_layout(files[i].format, s->width, s->height, s->pixels.ptr, s->pixels.len);
        l.ext_flags = s->ext.flags;
        for (int k = 0; k < 2; k++) {
            const sprite_TexAxis *a = k ? &s->ext.texparms.t : &s->ext.texparms.s;
            l.parms[k] = (axis_parms){a->translate, a->repeats, a->scale_log, a->mirror};
        }
        for (int k = 0; k < 7 && s->ext.lods[k].width; k++) {
            const sprite_Lod *lod = &s->ext.lods[k];
            l.lods[k].format = lod->format;
            l.lods[k].width = lod->width;
            l.lods[k].height = lod->height;
            l.lods[k].pixels = lod->pixels.ptr;
            l.lods[k].len = lod->pixels.len;
            l.lod_count = k + 1;
        }
        if (s->ext.has_palette) {
            l.palette = s->ext.palette.ptr;
            l.palette_len = s->ext.palette.len;
        }
        static uint8_t laid[4096];
        size_t n = lay(laid, &l);
        size_t diff = 0;
        while (diff < n && diff < size && laid[diff] == data[diff])
            diff++;
        cr_assert(n == size && diff == size, "%s: laid out %zu bytes, mksprite %zu; first difference at 0x%zx",
                  files[i].file, n, size, diff);
        done(&r);
        free(data);
    }
}

Test(sprite, mipmaps_and_texture_parameters)
{
    uint8_t *data;
    size_t size;
    cr_assert(load_file(FIXTURES "rgba16_mip_16x16.sprite", &data, &size));
    readout r;
    cr_assert(read_sprite(&r, data, size), "%s", r.err.message);
    const sprite_SpriteExt *x = &r.s->ext;
    cr_assert(x->flags_lod_count == 2 && x->flags_has_texparms == 1 && x->flags_has_detail == 0);
    cr_assert(x->texparms.s.translate == 1.0f && x->texparms.s.scale_log == 2 && x->texparms.s.repeats == 3.0f &&
                  x->texparms.s.mirror == 1,
              "--texparms 1,2,3,1: translate %g scale %d repeats %g mirror %d", x->texparms.s.translate,
              x->texparms.s.scale_log, x->texparms.s.repeats, x->texparms.s.mirror);
    const uint16_t sizes[3] = {16, 8, 4};
    for (unsigned level = 0; level < 3; level++) {
        texture t;
        cr_assert_eq(texture_from_sprite_lod(r.s, level, &t), TEXTURE_OK, "level %u", level);
        cr_assert(t.width == sizes[level] && t.height == sizes[level] && t.format == SPRITE_TEX_FORMAT_RGBA16);
        cr_assert_eq(t.pixels_len, (uint32_t)sizes[level] * sizes[level] * 2);
        cr_assert(t.pixels >= data && t.pixels + t.pixels_len <= data + size);
        if (level)
            cr_assert_eq((size_t)(t.pixels - data) % 8, 0, "each image is aligned to 8");
    }
    texture t;
    cr_assert_eq(texture_from_sprite_lod(r.s, 3, &t), TEXTURE_ERR_NO_LOD);
    cr_assert_eq(texture_from_sprite_lod(r.s, 8, &t), TEXTURE_ERR_NO_LOD);
    cr_assert(t.pixels == NULL && t.width == 0, "a failed call leaves an empty texture");
    done(&r);
    free(data);
}

/* Every format laid out by hand, read back and turned into RDP parameters. */
Test(sprite, every_format_by_hand)
{
    static const struct {
        uint8_t format, rdp_format, rdp_size;
        uint32_t bits;
    } formats[] = {
        {SPRITE_TEX_FORMAT_RGBA16, TEXTURE_RDP_RGBA, TEXTURE_SIZE_16B, 16},
        {SPRITE_TEX_FORMAT_RGBA32, TEXTURE_RDP_RGBA, TEXTURE_SIZE_32B, 32},
        {SPRITE_TEX_FORMAT_CI4, TEXTURE_RDP_CI, TEXTURE_SIZE_4B, 4},
        {SPRITE_TEX_FORMAT_CI8, TEXTURE_RDP_CI, TEXTURE_SIZE_8B, 8},
        {SPRITE_TEX_FORMAT_I4, TEXTURE_RDP_I, TEXTURE_SIZE_4B, 4},
        {SPRITE_TEX_FORMAT_I8, TEXTURE_RDP_I, TEXTURE_SIZE_8B, 8},
        {SPRITE_TEX_FORMAT_IA4, TEXTURE_RDP_IA, TEXTURE_SIZE_4B, 4},
        {SPRITE_TEX_FORMAT_IA8, TEXTURE_RDP_IA, TEXTURE_SIZE_8B, 8},
        {SPRITE_TEX_FORMAT_IA16, TEXTURE_RDP_IA, TEXTURE_SIZE_16B, 16},
    };
    const uint16_t sizes[][2] = {{8, 4}, {7, 3}, {64, 32}, {1, 1}};
    for (size_t f = 0; f < sizeof formats / sizeof *formats; f++)
        for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
            uint16_t w = sizes[z][0], h = sizes[z][1];
            uint32_t row = (w * formats[f].bits + 7) / 8, len = row * h;
            static uint8_t px[64 * 32 * 4], pal[512], file[16384];
            for (uint32_t i = 0; i < len; i++)
                px[i] = (uint8_t)(i * 37 + f);
            layout l = default_layout(formats[f].format, w, h, px, len);
            size_t pal_len = 0;
            if (formats[f].rdp_format == TEXTURE_RDP_CI) {
                pal_len = formats[f].rdp_size == TEXTURE_SIZE_4B ? 32 : 512;
                for (size_t i = 0; i < pal_len; i++)
                    pal[i] = (uint8_t)(255 - i);
                l.palette = pal;
                l.palette_len = pal_len;
            }
            size_t n = lay(file, &l);
            char what[64];
            snprintf(what, sizeof what, "format %u %ux%u", formats[f].format, w, h);
            readout r;
            cr_assert(read_sprite(&r, file, n), "%s: %s", what, r.err.message);
            const sprite_Sprite *s = r.s;
            cr_assert(s->width == w && s->height == h && s->flags_format == formats[f].format, "%s", what);
            cr_assert(s->pixels.len == len && memcmp(s->pixels.ptr, px, len) == 0, "%s", what);
            cr_assert_eq(s->ext_at % 8, 0);
            cr_assert_eq(s->ext.palette_offset, pal_len ? s->ext_at + 128 : 0, "%s", what);
            size_t errors, warnings;
            char first[700];
            validate(s, file, n, &errors, &warnings, first, sizeof first);
            cr_assert(errors == 0 && warnings == 0, "%s: %s", what, first);
            expect_round_trip(s, file, n, what);

            texture t;
            cr_assert_eq(texture_from_sprite(s, &t), TEXTURE_OK, "%s", what);
            cr_assert(t.format == formats[f].format && t.rdp_format == formats[f].rdp_format &&
                          t.rdp_size == formats[f].rdp_size,
                      "%s", what);
            cr_assert(t.width == w && t.height == h && t.row_bytes == row && t.pixels_len == len &&
                          t.pixels == s->pixels.ptr,
                      "%s", what);
            cr_assert_eq(t.tmem_bytes, ((row + 7) / 8 * 8) * h, "%s", what);
            cr_assert_eq(t.fits_tmem, t.tmem_bytes <= (pal_len ? 2048u : 4096u), "%s", what);
            cr_assert_eq(t.palette_count, pal_len / 2, "%s", what);
            cr_assert(pal_len == 0 || (t.palette == file + s->ext.palette_offset &&
                                       texture_palette_color(&t, 1) == (uint16_t)(253 << 8 | 252)),
                      "%s", what);
            done(&r);
        }
}

/* ---- broken files: an error with a path and an offset, never a crash ---- */

static void expect_error(const uint8_t *data, size_t size, const char *path_prefix, const char *what)
{
    readout r;
    int ok = read_sprite(&r, data, size);
    char line[700];
    bf_error_format(&r.err, "broken.sprite", line, sizeof line);
    cr_assert(!ok, "%s: read", what);
    cr_assert(strncmp(r.err.path, path_prefix, strlen(path_prefix)) == 0, "%s: %s", what, line);
    cr_assert(r.err.offset <= size, "%s: offset 0x%llx past the %zu bytes", what, (unsigned long long)r.err.offset,
              size);
    cr_assert(strstr(line, "broken.sprite: error: ") == line && strstr(line, " @0x"), "%s", line);
    done(&r);
}

Test(sprite, truncated_and_lying_files)
{
    uint8_t buf[sizeof CI4_4X2];
    /* every truncation: a read error, or (inside the palette, which has no stored length) a
     * shorter palette */
    for (size_t n = 0; n < sizeof CI4_4X2; n++) {
        uint8_t *copy = malloc(n ? n : 1);
        memcpy(copy, CI4_4X2, n);
        readout r;
        int ok = read_sprite(&r, copy, n);
        if (ok) {
            cr_assert(n >= 0x90, "cut to %zu bytes: reads", n);
            texture t;
            cr_assert_eq(texture_from_sprite(r.s, &t), n >= 0x92 ? TEXTURE_OK : TEXTURE_ERR_NO_PALETTE, "%zu", n);
            if (n >= 0x92)
                cr_assert_eq(t.palette_count, (n - 0x90) / 2);
        } else {
            cr_assert(r.err.path[0] && r.err.offset <= n, "cut to %zu: path '%s' offset 0x%llx", n, r.err.path,
                      (unsigned long long)r.err.offset);
        }
        done(&r);
        free(copy);
    }
    expect_error(CI4_4X2, 6, "hslices", "cut in the header");
    expect_error(CI4_4X2, 10, "pixels", "cut in the pixels");
    expect_error(CI4_4X2, 0x40, "ext", "cut in the extended header");

    memcpy(buf, CI4_4X2, sizeof buf);
    buf[0] = 0x7F; /* width 0x7F04: the pixels would run far past the end */
    expect_error(buf, sizeof buf, "pixels", "lying width");
    memcpy(buf, CI4_4X2, sizeof buf);
    buf[0x16] = 0x10; /* palette offset 0x1090, past the end */
    expect_error(buf, sizeof buf, "ext.palette", "palette past the end");
    memcpy(buf, CI4_4X2, sizeof buf);
    /* LOD 1: 4x2 CI4 at 0xAC: its 4 bytes would end 0xB0, fine; at 0xAE they do not fit */
    const uint8_t lod[8] = {0x00, 0x04, 0x00, 0x02, 0x08, 0x00, 0x00, 0xAE};
    memcpy(buf + 0x18, lod, 8);
    expect_error(buf, sizeof buf, "ext.lods[0].pixels", "LOD past the end");
    buf[0x1F] = 0xAC;
    readout r;
    cr_assert(read_sprite(&r, buf, sizeof buf), "a LOD inside the file reads: %s", r.err.message);
    texture t;
    cr_assert_eq(texture_from_sprite_lod(r.s, 1, &t), TEXTURE_OK);
    cr_assert(t.pixels == buf + 0xAC && t.palette_count == 16, "LODs share the palette");
    size_t errors, warnings;
    char first[700];
    validate(r.s, buf, sizeof buf, &errors, &warnings, first, sizeof first);
    cr_assert(warnings > 0, "an unaligned LOD and a wrong LOD count are warnings");
    done(&r);

    /* version 3: reads, and the validator says libdragon refuses it */
    memcpy(buf, CI4_4X2, sizeof buf);
    buf[0x13] = 3;
    cr_assert(read_sprite(&r, buf, sizeof buf));
    validate(r.s, buf, sizeof buf, &errors, &warnings, first, sizeof first);
    cr_assert(errors == 1 && strstr(first, "version 3"), "%s", first);
    done(&r);
}

Test(sprite, what_texture_refuses)
{
    /* a compressed asset: mksprite's default output */
    const uint8_t dca[] = {'D', 'C', 'A', '3', 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40};
    cr_assert(texture_is_compressed_asset(dca, sizeof dca));
    cr_assert(!texture_is_compressed_asset(CI4_4X2, sizeof CI4_4X2));
    cr_assert(!texture_is_compressed_asset(dca, 3));

    readout r;
    uint8_t buf[sizeof CI4_4X2];
    texture t;
    /* YUV: libdragon's, but not a texture format */
    memcpy(buf, CI4_4X2, sizeof buf);
    buf[5] = 0x80 | SPRITE_TEX_FORMAT_YUV16;
    buf[9] = buf[10] = 0; /* (8x2 bytes of pixels now: the rest is read as such) */
    if (read_sprite(&r, buf, sizeof buf)) {
        cr_assert_eq(texture_from_sprite(r.s, &t), TEXTURE_ERR_FORMAT);
    }
    done(&r);
    /* an unknown format */
    memcpy(buf, CI4_4X2, sizeof buf);
    buf[5] = 0x80 | 0x1F;
    if (read_sprite(&r, buf, sizeof buf))
        cr_assert_eq(texture_from_sprite(r.s, &t), TEXTURE_ERR_FORMAT);
    done(&r);
    /* a CI sprite without its palette */
    memcpy(buf, CI4_4X2, sizeof buf);
    buf[0x17] = 0;
    cr_assert(read_sprite(&r, buf, sizeof buf));
    cr_assert_eq(texture_from_sprite(r.s, &t), TEXTURE_ERR_NO_PALETTE);
    size_t errors, warnings;
    char first[700];
    validate(r.s, buf, sizeof buf, &errors, &warnings, first, sizeof first);
    cr_assert(errors == 0 && warnings == 1, "a CI sprite without a palette is a warning: %s", first);
    done(&r);
    /* an empty image */
    memcpy(buf, OLD_RGBA32, sizeof OLD_RGBA32);
    buf[1] = 0;
    cr_assert(read_sprite(&r, buf, sizeof OLD_RGBA32));
    cr_assert(r.s->pixels.len == 0 && r.s->rest.len == 8);
    cr_assert_eq(texture_from_sprite(r.s, &t), TEXTURE_ERR_EMPTY);
    done(&r);
    cr_assert_eq(texture_from_sprite(NULL, &t), TEXTURE_ERR_NO_LOD);
    /* a document that was not read: too few pixel bytes for its size */
    sprite_Sprite fake;
    memset(&fake, 0, sizeof fake);
    fake.width = fake.height = 4;
    fake.flags = SPRITE_TEX_FORMAT_I8;
    cr_assert_eq(texture_from_sprite(&fake, &t), TEXTURE_ERR_SIZE);
    cr_assert_eq(texture_describe(&t, SPRITE_TEX_FORMAT_RGBA32, 0xFFFF, 0xFFFF), TEXTURE_OK);
    cr_assert(t.row_bytes == 0xFFFF * 4 && t.tmem_bytes == UINT32_MAX && !t.fits_tmem, "large sizes saturate");
}

Test(texture, checkerboard)
{
    static uint8_t buf[TEXTURE_CHECKER_BYTES];
    texture t;
    cr_assert_eq(texture_checkerboard(buf, sizeof buf, TEXTURE_CHECKER_SIZE, TEXTURE_CHECKER_SIZE, TEXTURE_CHECKER_CELL,
                                      TEXTURE_CHECKER_COLOR_A, TEXTURE_CHECKER_COLOR_B, &t),
                 TEXTURE_OK);
    cr_assert(t.format == SPRITE_TEX_FORMAT_RGBA16 && t.rdp_format == TEXTURE_RDP_RGBA &&
              t.rdp_size == TEXTURE_SIZE_16B && t.width == 32 && t.height == 32 && t.row_bytes == 64);
    cr_assert(t.pixels == buf && t.pixels_len == 2048 && t.tmem_bytes == 2048 && t.fits_tmem && !t.palette);
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++) {
            uint16_t want = ((x / 8 + y / 8) & 1) ? TEXTURE_CHECKER_COLOR_B : TEXTURE_CHECKER_COLOR_A;
            const uint8_t *p = buf + (y * 32 + x) * 2;
            cr_assert(p[0] == want >> 8 && p[1] == (want & 0xFF), "texel (%d, %d) big-endian", x, y);
        }
    cr_assert(buf[0] == 0xF8 && buf[1] == 0x3F, "magenta, opaque, at the top left");
    cr_assert_eq(TEXTURE_CHECKER_COLOR_A & 1, 1);
    cr_assert_eq(TEXTURE_CHECKER_COLOR_B & 1, 1);
    cr_assert_eq(texture_rgba16(255, 0, 255, 255), TEXTURE_CHECKER_COLOR_A);
    cr_assert_eq(texture_rgba16(0xC6, 0xC6, 0xC6, 255), TEXTURE_CHECKER_COLOR_B);
    cr_assert_eq(texture_rgba16(0, 0, 0, 127), 0);

    cr_assert_eq(texture_checkerboard(buf, sizeof buf - 1, 32, 32, 8, 1, 2, &t), TEXTURE_ERR_STORAGE);
    cr_assert_eq(texture_checkerboard(NULL, 0, 32, 32, 8, 1, 2, &t), TEXTURE_ERR_STORAGE);
    cr_assert_eq(texture_checkerboard(buf, sizeof buf, 0, 32, 8, 1, 2, &t), TEXTURE_ERR_EMPTY);
    cr_assert_eq(texture_checkerboard(buf, sizeof buf, 0xFFFF, 0xFFFF, 8, 1, 2, &t), TEXTURE_ERR_STORAGE);
    cr_assert_eq(texture_checkerboard(buf, sizeof buf, 4, 2, 0, 0x1111, 0x2222, &t), TEXTURE_OK, "cell 0 counts as 1");
    cr_assert(buf[0] == 0x11 && buf[2] == 0x22 && buf[8] == 0x22, "alternates every texel");
}

/* The generated builder lays a sprite out from scratch: the offsets and padding follow from
 * the schema. */
Test(sprite, built_from_scratch)
{
    readout src;
    cr_assert(read_sprite(&src, CI4_4X2, sizeof CI4_4X2));
    sprite_Sprite doc = *src.s;
    doc.ext.palette_offset = 0; /* computed by the builder */
    doc.rest.ptr = NULL;        /* the palette is placed from ext.palette */
    doc.rest.len = 0;
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    bf_buffer out;
    memset(&out, 0, sizeof out);
    bf_error err;
    int ok = sprite_build_sprite(&doc, &arena, &out, &err);
    cr_assert(ok, "build: %s: %s", err.path, err.message);
    cr_assert_eq(doc.ext.palette_offset, 0x90, "the palette goes after the extended header, aligned: 0x%x, %zu bytes",
                 doc.ext.palette_offset, out.size);
    cr_assert(out.size == sizeof CI4_4X2 && memcmp(out.data, CI4_4X2, out.size) == 0,
              "the builder lays out the hand-made bytes (%zu bytes)", out.size);
    bf_buffer_free(&out);
    bf_arena_free(&arena);
    done(&src);
}
