/* Helpers for the software RDP tests: a command-list builder (bytes in N64
 * order) and pixel accessors for a big-endian RDRAM. */
#ifndef N64_RDP_TEST_UTIL_H
#define N64_RDP_TEST_UTIL_H

#include "rdp.h"

#include <stdint.h>
#include <string.h>

typedef struct cmdlist {
    uint8_t bytes[8192];
    size_t length;
} cmdlist_t;

static inline void cl_word(cmdlist_t *cl, uint32_t w0, uint32_t w1)
{
    uint8_t *p = cl->bytes + cl->length;
    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(w0 >> (24 - 8 * i));
        p[4 + i] = (uint8_t)(w1 >> (24 - 8 * i));
    }
    cl->length += 8;
}

enum { FMT_RGBA = 0, FMT_CI = 2, FMT_IA = 3, FMT_I = 4 };
enum { SIZ_4 = 0, SIZ_8 = 1, SIZ_16 = 2, SIZ_32 = 3 };

static inline void cl_color_image(cmdlist_t *cl, unsigned fmt, unsigned size, unsigned width, uint32_t addr)
{
    cl_word(cl, 0x3f000000u | fmt << 21 | size << 19 | (width - 1), addr);
}

static inline void cl_texture_image(cmdlist_t *cl, unsigned fmt, unsigned size, unsigned width, uint32_t addr)
{
    cl_word(cl, 0x3d000000u | fmt << 21 | size << 19 | (width - 1), addr);
}

/* scissor in whole pixels */
static inline void cl_scissor(cmdlist_t *cl, unsigned x0, unsigned y0, unsigned x1, unsigned y1)
{
    cl_word(cl, 0x2d000000u | (x0 * 4) << 12 | y0 * 4, (x1 * 4) << 12 | y1 * 4);
}

#define MODE_1CYCLE 0x000u
#define MODE_2CYCLE 0x100000u
#define MODE_COPY 0x200000u
#define MODE_FILL 0x300000u
#define MODE_NO_DITHER 0xf0u
#define MODE_BILERP 0xc00u
#define MODE_TLUT 0x8000u
#define RENDER_OPA 0x0f0a4000u /* P*0 + P*1, force blend: the pixel as combined */

static inline void cl_other_modes(cmdlist_t *cl, uint32_t w0, uint32_t w1)
{
    cl_word(cl, 0x2f000000u | (w0 & 0xffffff), w1);
}

static inline void cl_fill_color(cmdlist_t *cl, uint32_t c)
{
    cl_word(cl, 0x37000000u, c);
}

static inline void cl_prim_color(cmdlist_t *cl, uint32_t rgba)
{
    cl_word(cl, 0x3a000000u, rgba);
}

/* rectangle corners in 10.2 fixed point */
static inline void cl_fill_rect(cmdlist_t *cl, unsigned xh, unsigned yh, unsigned xl, unsigned yl)
{
    cl_word(cl, 0x36000000u | xl << 12 | yl, xh << 12 | yh);
}

/* combiner with D alone in both cycles: d_rgb / d_alpha are add-input codes */
static inline void cl_combine_d(cmdlist_t *cl, unsigned d_rgb, unsigned d_alpha)
{
    uint32_t w0 = 0x3c000000u | 15u << 20 | 31u << 15 | 7u << 12 | 7u << 9 | 15u << 5 | 31u;
    uint32_t w1 = 15u << 28 | 15u << 24 | 7u << 21 | 7u << 18 | d_rgb << 15 | 7u << 12 | d_alpha << 9 | d_rgb << 6 | 7u << 3 | d_alpha;
    cl_word(cl, w0, w1);
}

static inline void cl_set_tile(cmdlist_t *cl, unsigned fmt, unsigned size, unsigned line, unsigned tmem, unsigned tile, unsigned palette)
{
    cl_word(cl, 0x35000000u | fmt << 21 | size << 19 | line << 9 | tmem, tile << 24 | palette << 20);
}

static inline void cl_tile_size(cmdlist_t *cl, unsigned tile, unsigned sl, unsigned tl, unsigned sh, unsigned th)
{
    cl_word(cl, 0x32000000u | sl << 12 | tl, tile << 24 | sh << 12 | th);
}

static inline void cl_load_block(cmdlist_t *cl, unsigned tile, unsigned texels_minus_1, unsigned dxt)
{
    cl_word(cl, 0x33000000u, tile << 24 | texels_minus_1 << 12 | dxt);
}

static inline void cl_load_tlut(cmdlist_t *cl, unsigned tile, unsigned entries)
{
    cl_word(cl, 0x30000000u, tile << 24 | ((entries - 1) * 4) << 12);
}

/* texture rectangle, corners in 10.2, s/t in s10.5, steps in s5.10 */
static inline void cl_tex_rect(cmdlist_t *cl, unsigned tile, unsigned xh, unsigned yh, unsigned xl, unsigned yl, unsigned s, unsigned t,
                               unsigned dsdx, unsigned dtdy)
{
    cl_word(cl, 0x24000000u | xl << 12 | yl, tile << 24 | xh << 12 | yh);
    cl_word(cl, s << 16 | t, dsdx << 16 | (dtdy & 0xffff));
}

static inline void cl_sync_full(cmdlist_t *cl)
{
    cl_word(cl, 0x29000000u, 0);
}

static inline uint16_t px16(const uint8_t *rdram, uint32_t image, unsigned width, unsigned x, unsigned y)
{
    const uint8_t *p = rdram + image + 2 * (y * width + x);
    return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t px32(const uint8_t *rdram, uint32_t image, unsigned width, unsigned x, unsigned y)
{
    const uint8_t *p = rdram + image + 4 * (y * width + x);
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void put16(uint8_t *rdram, uint32_t addr, uint16_t v)
{
    rdram[addr] = (uint8_t)(v >> 8);
    rdram[addr + 1] = (uint8_t)v;
}

#endif
