/* texture: what the renderer needs to upload a texture to the RDP, from a libdragon sprite
 * read with the generated reader (sprite_read_sprite, schemas/sprite.yaml), or a
 * checkerboard for models whose textures are missing.
 *
 * Pixels and palette are pointers into the sprite's bytes, already in the RDP's layout and
 * byte order (big-endian 16- and 32-bit texels, 4-bit texels high nibble first): they can
 * be copied to RDRAM as they are.
 *
 * Freestanding: no libc, caller storage only. */
#ifndef N64_SCENE_TEXTURE_H
#define N64_SCENE_TEXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "sprite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* RDP image formats (Set Texture Image / Set Tile "format") and texel sizes ("size"). */
enum {
    TEXTURE_RDP_RGBA = 0,
    TEXTURE_RDP_YUV = 1,
    TEXTURE_RDP_CI = 2,
    TEXTURE_RDP_IA = 3,
    TEXTURE_RDP_I = 4,
};
enum {
    TEXTURE_SIZE_4B = 0,
    TEXTURE_SIZE_8B = 1,
    TEXTURE_SIZE_16B = 2,
    TEXTURE_SIZE_32B = 3,
};

#define TEXTURE_TMEM_BYTES 4096u    /* the whole TMEM */
#define TEXTURE_TMEM_CI_BYTES 2048u /* what is left beside a palette (its upper half) */

typedef struct texture {
    uint8_t format;     /* libdragon tex_format_t: (rdp_format << 2) | rdp_size */
    uint8_t rdp_format; /* TEXTURE_RDP_... */
    uint8_t rdp_size;   /* TEXTURE_SIZE_... */
    uint16_t width, height;
    uint32_t row_bytes;    /* bytes of one row as stored (4-bit rows round up to a byte) */
    const uint8_t *pixels; /* height rows of row_bytes, as stored */
    uint32_t pixels_len;
    const uint8_t *palette; /* CI only: big-endian RGBA 5551 TLUT entries; NULL otherwise */
    uint32_t palette_count; /* entries at palette: at most 16 (CI4) or 256 (CI8) */
    uint32_t tmem_bytes;    /* TMEM taken when loaded whole: rows padded to 8 bytes */
    uint8_t fits_tmem;      /* tmem_bytes fits (4096 bytes, 2048 for CI formats) */
} texture;

enum {
    TEXTURE_OK = 0,
    TEXTURE_ERR_COMPRESSED = -1, /* a compressed libdragon asset (magic DCA): mksprite's default */
    TEXTURE_ERR_FORMAT = -2,     /* a format the RDP cannot texture from, or an unknown one */
    TEXTURE_ERR_EMPTY = -3,      /* zero width or height */
    TEXTURE_ERR_NO_PALETTE = -4, /* a CI sprite without a palette */
    TEXTURE_ERR_NO_LOD = -5,     /* no such level */
    TEXTURE_ERR_STORAGE = -6,    /* the caller's buffer is too small */
    TEXTURE_ERR_SIZE = -7,       /* fewer pixel bytes than the size says (a document not from the reader) */
};

/* 1 when the bytes are a compressed libdragon asset ("DCA" then a version byte): sprite_load
 * decompresses those; this project reads uncompressed sprites only (mksprite --compress 0). */
int texture_is_compressed_asset(const uint8_t *data, size_t size);

/* The texture of the sprite's first image. Old sprites (flags 0) are RGBA16 or RGBA32 by
 * their bitdepth, as libdragon reads them. YUV sprites give TEXTURE_ERR_FORMAT. */
int texture_from_sprite(const sprite_Sprite *sprite, texture *out);

/* The texture of level `level` (0: the first image, 1..7: the extended header's LODs,
 * 7 holding the detail texture when there is one). LODs of CI sprites share its palette. */
int texture_from_sprite_lod(const sprite_Sprite *sprite, unsigned level, texture *out);

/* Fills the fields that follow from format, width and height (rdp codes, row_bytes,
 * tmem_bytes, fits_tmem); returns TEXTURE_ERR_FORMAT / TEXTURE_ERR_EMPTY when unusable. */
int texture_describe(texture *t, uint8_t format, uint16_t width, uint16_t height);

/* RGBA 5551 from 8-bit channels (alpha: set when a >= 128). */
uint16_t texture_rgba16(uint8_t r, uint8_t g, uint8_t b, uint8_t a);

/* The i-th palette entry (host order), 0 past the end. */
uint16_t texture_palette_color(const texture *t, uint32_t i);

/* The checkerboard of a missing texture: RGBA16 squares of `cell` pixels (cell 0 counts as
 * 1), `color_a` at the top-left, in N64 byte order, into buf (width * height * 2 bytes).
 * TEXTURE_CHECKER_* is the default: 32 x 32 in 8-pixel cells, magenta and light grey, 2 KB,
 * which fits TMEM. */
#define TEXTURE_CHECKER_SIZE 32
#define TEXTURE_CHECKER_CELL 8
#define TEXTURE_CHECKER_BYTES (TEXTURE_CHECKER_SIZE * TEXTURE_CHECKER_SIZE * 2)
#define TEXTURE_CHECKER_COLOR_A 0xF83Fu /* magenta (31, 0, 31, opaque) */
#define TEXTURE_CHECKER_COLOR_B 0xC631u /* light grey (24, 24, 24, opaque) */
int texture_checkerboard(uint8_t *buf, size_t capacity, uint16_t width, uint16_t height, uint16_t cell,
                         uint16_t color_a, uint16_t color_b, texture *out);

#ifdef __cplusplus
}
#endif

#endif
