/* RDP command words, as 64-bit values (the most significant byte is the one
 * at the lowest RDRAM address). Field positions follow the public RDP
 * command reference; the renderer puts these into its command list with
 * cmd_rdp. */
#ifndef N64_DRIVER_RDP_CMDS_H
#define N64_DRIVER_RDP_CMDS_H

#include <stdint.h>

/* Image formats and pixel sizes. */
enum { RDPC_RGBA = 0, RDPC_YUV = 1, RDPC_CI = 2, RDPC_IA = 3, RDPC_I = 4 };
enum { RDPC_4B = 0, RDPC_8B = 1, RDPC_16B = 2, RDPC_32B = 3 };

/* Set Other Modes bits. */
#define SOM_CYCLE_1 (UINT64_C(0) << 52)
#define SOM_CYCLE_2 (UINT64_C(1) << 52)
#define SOM_CYCLE_COPY (UINT64_C(2) << 52)
#define SOM_CYCLE_FILL (UINT64_C(3) << 52)
#define SOM_CYCLE_MASK (UINT64_C(3) << 52)
#define SOM_PERSP (UINT64_C(1) << 51)
#define SOM_TLUT (UINT64_C(1) << 47)
#define SOM_TLUT_IA16 (UINT64_C(1) << 46)
#define SOM_BILERP (UINT64_C(1) << 45)
#define SOM_MID_TEXEL (UINT64_C(1) << 44)
/* texture filter units: RGB texels (clear, they convert YUV instead) */
#define SOM_TF0_RGB (UINT64_C(1) << 43)
#define SOM_TF1_RGB (UINT64_C(1) << 42)
#define SOM_RGB_DITHER_NONE (UINT64_C(3) << 38)
#define SOM_ALPHA_DITHER_NONE (UINT64_C(3) << 36)
#define SOM_FORCE_BLEND (UINT64_C(1) << 14)
#define SOM_ALPHA_CVG_SELECT (UINT64_C(1) << 13)
#define SOM_ZMODE_MASK (UINT64_C(3) << 10)
#define SOM_CVG_DEST_FULL (UINT64_C(3) << 8)
#define SOM_Z_UPDATE (UINT64_C(1) << 5)
#define SOM_Z_COMPARE (UINT64_C(1) << 4)
#define SOM_ALPHA_COMPARE (UINT64_C(1) << 0)
/* Blender cycle c: P * A + M * B. P, M: 0 the pixel, 1 memory, 2 blend colour,
 * 3 fog colour; A: 0 pixel alpha, 1 fog alpha, 2 shade alpha, 3 zero;
 * B: 0 1 - A, 1 memory alpha, 2 one, 3 zero. */
#define SOM_BLENDER(c, p, a, m, b)                                                                                 \
    ((uint64_t)(p) << (30 - 2 * (c)) | (uint64_t)(a) << (26 - 2 * (c)) | (uint64_t)(m) << (22 - 2 * (c)) |         \
     (uint64_t)(b) << (18 - 2 * (c)))

/* Combiner inputs (the common ones). */
enum { CC_COMBINED = 0, CC_TEX0 = 1, CC_PRIM = 3, CC_SHADE = 4, CC_ENV = 5 };
enum { CC_A_ZERO = 8, CC_B_ZERO = 8, CC_C_ZERO = 16, CC_D_ZERO = 7 };
enum { CC_ALPHA_ZERO = 7 };
/* One cycle: RGB = (a - b) * c + d, alpha = (aa - ba) * ca + da. */
uint64_t rdpc_combine_cycle(unsigned cycle, unsigned a, unsigned b, unsigned c, unsigned d, unsigned aa, unsigned ba,
                            unsigned ca, unsigned da);

static inline uint64_t rdpc_word(unsigned opcode, uint64_t bits) { return (uint64_t)opcode << 56 | bits; }

uint64_t rdpc_set_color_image(unsigned format, unsigned size, unsigned width, uint32_t address);
uint64_t rdpc_set_z_image(uint32_t address);
uint64_t rdpc_set_scissor(unsigned x0, unsigned y0, unsigned x1, unsigned y1);
uint64_t rdpc_set_other_modes(uint64_t bits);
uint64_t rdpc_set_combine(uint64_t bits);
uint64_t rdpc_set_fill_color(uint32_t color);
uint64_t rdpc_fill_rectangle(unsigned x0, unsigned y0, unsigned x1, unsigned y1); /* pixels, inclusive-exclusive */
uint64_t rdpc_set_prim_color(uint32_t rgba);
uint64_t rdpc_set_env_color(uint32_t rgba);
uint64_t rdpc_set_blend_color(uint32_t rgba);
uint64_t rdpc_set_fog_color(uint32_t rgba);
uint64_t rdpc_set_texture_image(unsigned format, unsigned size, unsigned width, uint32_t address);
/* Set Tile: line in 64-bit words, TMEM address in 64-bit words; per axis: clamp, mirror, mask, shift. */
uint64_t rdpc_set_tile(unsigned format, unsigned size, unsigned line, unsigned tmem, unsigned tile, unsigned palette,
                       unsigned clamp_t, unsigned mirror_t, unsigned mask_t, unsigned shift_t, unsigned clamp_s,
                       unsigned mirror_s, unsigned mask_s, unsigned shift_s);
/* Coordinates in 10.2 (quarter texels). */
uint64_t rdpc_set_tile_size(unsigned tile, unsigned s0, unsigned t0, unsigned s1, unsigned t1);
uint64_t rdpc_load_tile(unsigned tile, unsigned s0, unsigned t0, unsigned s1, unsigned t1);
uint64_t rdpc_load_block(unsigned tile, unsigned texels_minus_one, unsigned dxt);
uint64_t rdpc_load_tlut(unsigned tile, unsigned first, unsigned last);
uint64_t rdpc_sync_pipe(void);
uint64_t rdpc_sync_tile(void);
uint64_t rdpc_sync_load(void);
uint64_t rdpc_sync_full(void);

#endif
