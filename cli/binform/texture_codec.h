/* Texture encodings to 8-bit RGBA: the GameCube's GX formats (J3D's TEX1, BTI) and the DXT
 * blocks of DDS files (Toshi's TML). Encodings only, not file formats: the schema says where a
 * file keeps its textures; these turn their bytes into pixels for PNG. Every decoder checks
 * that the bytes hold the whole image and reports what was missing instead of reading past. */
#ifndef TEXTURE_CODEC_H
#define TEXTURE_CODEC_H

#include <stddef.h>
#include <stdint.h>

/* GX texture formats (GXTexFmt), as J3D's BTI headers store them. */
enum {
    GX_I4 = 0x0, GX_I8 = 0x1, GX_IA4 = 0x2, GX_IA8 = 0x3, GX_RGB565 = 0x4, GX_RGB5A3 = 0x5,
    GX_RGBA8 = 0x6, GX_C4 = 0x8, GX_C8 = 0x9, GX_C14X2 = 0xA, GX_CMPR = 0xE
};
/* GX palette formats (GXTlutFmt). */
enum { GX_TLUT_IA8 = 0, GX_TLUT_RGB565 = 1, GX_TLUT_RGB5A3 = 2 };

/* Bytes a GX image of width x height takes in `format` (whole tiles), or 0 for a format
 * that is not one of the above. */
size_t gx_image_size(unsigned format, unsigned width, unsigned height);

/* Decodes a GX image into `rgba` (width * height * 4 bytes, rows top to bottom). `palette`
 * (big-endian u16 entries, `palette_count` of them, in `palette_format`) is used by C4, C8
 * and C14X2; an index past the palette decodes as transparent black. 0 with `why` set when
 * the format is unknown, `size` is short of gx_image_size, or an indexed format has no
 * palette. */
int gx_decode(unsigned format, unsigned width, unsigned height, const uint8_t *data, size_t size,
              const uint8_t *palette, size_t palette_count, unsigned palette_format, uint8_t *rgba,
              char *why, size_t why_size);

/* An image of a DDS file, decoded: the first surface (mipmap 0) only. */
typedef struct dds_image {
    unsigned width, height;
    uint8_t *rgba; /* malloc'd width * height * 4 bytes; the caller frees it */
} dds_image;

/* Decodes a whole .dds file: DXT1, DXT2/3, DXT4/5 and uncompressed RGB(A) by bit masks
 * (8, 16, 24 or 32 bits per pixel). 0 with `why` set for anything else or a short file. */
int dds_decode(const uint8_t *data, size_t size, dds_image *out, char *why, size_t why_size);

/* Decodes one 4x4 block of BC1 (DXT1) colour, 8 bytes, little-endian as in DDS, into 16
 * RGBA pixels row by row. `three_colour_alpha`: the c0 <= c1 case has a transparent fourth
 * colour (DXT1) rather than being ignored (DXT3/5 colour blocks always use four colours). */
void bc1_decode_block(const uint8_t block[8], int three_colour_alpha, uint8_t out[16][4]);


/* ---- N64 (libdragon's tex_format_t: the RDP format code << 2 | pixel size code) ---- */
enum {
    N64_RGBA16 = 2, N64_RGBA32 = 3, N64_CI4 = 8, N64_CI8 = 9, N64_IA4 = 12, N64_IA8 = 13, N64_IA16 = 14,
    N64_I4 = 16, N64_I8 = 17
};
/* Bytes of `height` rows of `width` pixels as the RDP loads them (each row whole bytes), or 0
 * for a format that is not one of the above. */
size_t n64_image_size(unsigned format, unsigned width, unsigned height);
/* Decodes an N64 image; CI4/CI8 index `palette` (big-endian RGBA 5551, palette_size bytes; an
 * index past it is transparent black). Intensity formats give alpha = intensity, as the RDP
 * reads them. 0 with `why` set as gx_decode. */
int n64_decode(unsigned format, unsigned width, unsigned height, const uint8_t *data, size_t size,
               const uint8_t *palette, size_t palette_size, uint8_t *rgba, char *why, size_t why_size);

/* ---- raster pixels in rows, no tiles ---- */
typedef enum {
    RASTER_RGBA8888, /* bytes R, G, B, A */
    RASTER_BGRA8888, /* bytes B, G, R, A */
    RASTER_RGB888,   /* bytes R, G, B; opaque */
    RASTER_ARGB1555, /* little-endian 16-bit: A in bit 15, then R, G, B 5 bits each */
    RASTER_ARGB4444, /* little-endian 16-bit: A, R, G, B 4 bits each from the top */
    RASTER_ARGB2222  /* one byte: A, R, G, B 2 bits each from the top */
} raster_kind;
size_t raster_image_size(raster_kind kind, unsigned width, unsigned height);
int raster_decode(raster_kind kind, unsigned width, unsigned height, const uint8_t *data, size_t size, uint8_t *rgba,
                  char *why, size_t why_size);

#endif
