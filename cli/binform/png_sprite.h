/* A PNG converted to an uncompressed libdragon sprite the way mksprite converts it, for
 * textures whose .sprite is not built yet (binform render reads the PNG of the same name).
 *
 * The format: the first dot-separated part of `name` that names one (RGBA16, RGBA32, CI4,
 * CI8, I4, I8, IA4, IA8, IA16, any case: "stone.i8.png" gives I8), else chosen from the PNG
 * as mksprite does (grey: I8, or I4 when 4-bit or at most 16 greys are used; grey with alpha:
 * IA16, IA8 below 8 bits, IA4 below 4; palette: CI8, or CI4 when at most 16 entries are used;
 * RGB(A): RGBA16). The pixels as lodepng hands them to mksprite: 16-bit channels keep their
 * high byte, a grey format takes the red channel, RGBA16 keeps the top 5 bits and any
 * non-zero alpha. A palette PNG keeps its palette and indices; other pixels become a
 * palette only when they have few enough distinct colours (mksprite would quantize more). */
#ifndef BINFORM_PNG_SPRITE_H
#define BINFORM_PNG_SPRITE_H

#include <stddef.h>
#include <stdint.h>

#define PNG_SPRITE_MAX_SIDE 1024u /* larger images make no texture */

/* 0 and a malloc'ed sprite in *out (*format: libdragon's tex_format_t), or -1 with the
 * reason in `why`. */
int png_sprite_convert(const uint8_t *png, size_t size, const char *name, uint8_t **out, size_t *out_size,
                       uint8_t *format, char *why, size_t why_size);

/* The format's name as mksprite spells it ("I8"), "?" when unknown. */
const char *png_sprite_format_name(uint8_t format);

#endif
