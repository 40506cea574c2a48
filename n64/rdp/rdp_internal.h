/* Internal state of the software RDP, shared by its units. Not part of the
 * public API (rdp.h). */
#ifndef N64_RDP_INTERNAL_H
#define N64_RDP_INTERNAL_H

#include "rdp.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- small arithmetic helpers (no undefined behaviour) ---- */

/* Arithmetic shift right of a signed value (rounds towards minus infinity). */
static inline int32_t rdp_asr(int32_t value, unsigned bits)
{
    return value < 0 ? ~(~value >> bits) : value >> bits;
}

/* Sign-extends the low `bits` bits of value. */
static inline int32_t rdp_sext(uint32_t value, unsigned bits)
{
    uint32_t m = 1u << (bits - 1);
    value &= (bits >= 32) ? 0xffffffffu : ((1u << bits) - 1);
    return (int32_t)((value ^ m) - m);
}

/* Two's complement view of a wrapped 32-bit quantity. */
static inline int32_t rdp_s32(uint32_t value)
{
    return (int32_t)value;
}

static inline int32_t rdp_clampi(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* 9-bit pipeline values: the low 9 bits read as a number in -128..383
 * (values with both top bits set are negative). */
static inline int32_t rdp_ext9(int32_t v)
{
    int32_t x = v & 0x1ff;
    return (x & 0x180) == 0x180 ? x - 0x200 : x;
}

/* 9-bit pipeline value clamped to 0..255 (negative -> 0, above 255 -> 255). */
static inline int32_t rdp_clamp9(int32_t v)
{
    int32_t x = v & 0x1ff;
    if (x & 0x100)
        return (x & 0x80) ? 0 : 0xff;
    return x;
}

/* ---- enumerations ---- */

enum { RDP_CYCLE_1 = 0, RDP_CYCLE_2 = 1, RDP_CYCLE_COPY = 2, RDP_CYCLE_FILL = 3 };
enum { RDP_FMT_RGBA = 0, RDP_FMT_YUV = 1, RDP_FMT_CI = 2, RDP_FMT_IA = 3, RDP_FMT_I = 4 };
enum { RDP_SIZE_4 = 0, RDP_SIZE_8 = 1, RDP_SIZE_16 = 2, RDP_SIZE_32 = 3 };

/* Combiner register file: one slot per input value. Colours take four
 * consecutive slots (r, g, b, a); scalars one. */
enum {
    CS_COMBINED = 0,
    CS_TEXEL0 = 4,
    CS_TEXEL1 = 8,
    CS_PRIM = 12,
    CS_SHADE = 16,
    CS_ENV = 20,
    CS_KEY_CENTER = 24,
    CS_KEY_SCALE = 28,
    CS_NOISE = 32,
    CS_ONE = 33,
    CS_ZERO = 34,
    CS_K4 = 35,
    CS_K5 = 36,
    CS_LOD_FRAC = 37,
    CS_PRIM_LOD_FRAC = 38,
    CS_COUNT = 40
};

/* Blender register file. */
enum {
    BS_PIXEL = 0,   /* combiner output r g b a */
    BS_BLENDED = 4, /* first blender cycle's output (2-cycle) r g b */
    BS_MEMORY = 8,  /* colour image r g b a */
    BS_BLEND = 12,  /* blend colour */
    BS_FOG = 16,    /* fog colour */
    BS_SHADE_A = 20,
    BS_INV_A = 21,  /* 255 - the first alpha input */
    BS_FF = 22,
    BS_ZERO = 23,
    BS_COUNT = 24
};

enum { ATTR_R, ATTR_G, ATTR_B, ATTR_A, ATTR_S, ATTR_T, ATTR_W, ATTR_Z, ATTR_COUNT };

#define RDP_LINES 1024            /* scan lines an image can have */
#define RDP_SPANS (RDP_LINES + 1) /* one more: the line after the last is read ahead */
#define RDP_TMEM_SIZE 4096
#define RDP_CMD_MAX 176           /* longest command, bytes */

typedef struct rdp_other_modes {
    uint8_t cycle_type, persp_tex, detail_tex, sharpen_tex, tex_lod, en_tlut, tlut_type;
    uint8_t sample_type, mid_texel, bi_lerp0, bi_lerp1, convert_one, key_en;
    uint8_t rgb_dither_sel, alpha_dither_sel;
    uint8_t blend_m1a[2], blend_m1b[2], blend_m2a[2], blend_m2b[2];
    uint8_t force_blend, alpha_cvg_select, cvg_times_alpha, z_mode, cvg_dest, color_on_cvg;
    uint8_t image_read, z_update, z_compare, antialias, z_source_sel, dither_alpha, alpha_compare;
} rdp_other_modes_t;

typedef struct rdp_tile {
    uint8_t format, size, palette;
    uint8_t clamp_t, mirror_t, mask_t, shift_t;
    uint8_t clamp_s, mirror_s, mask_s, shift_s;
    uint16_t line, tmem;
    uint16_t sl, tl, sh, th;
    /* derived */
    uint16_t clamp_extent_s, clamp_extent_t; /* (sh - sl) in whole texels */
    bool clamps, clampt;                     /* clamping active: cs/ct set or no mask */
    uint8_t mirror_bit_s, mirror_bit_t;      /* coordinate bit that flips a mirror */
    uint16_t mask_bits_s, mask_bits_t;
    uint8_t kind;      /* texel decoder without TLUT */
    uint8_t tlut_kind; /* index decoder with TLUT */
} rdp_tile_t;

typedef struct rdp_span {
    int32_t first_x;    /* pixel on the major-edge side, where drawing starts */
    int32_t last_x;     /* pixel on the minor-edge side */
    int32_t major_x;    /* unscissored major edge, whole pixels */
    bool valid;
    uint32_t attr[ATTR_COUNT];
    uint16_t major[4];  /* per sub-scanline edge positions, 1/8 pixel */
    uint16_t minor[4];
    bool sub_invalid[4];
} rdp_span_t;

typedef struct rdp_cvg_info {
    uint8_t count, top_left, dx, dy;
} rdp_cvg_info_t;

/* What the combiners read, derived from the combine and other modes. */
typedef struct rdp_derived {
    bool partial_reject[2];   /* blender cycle blends pixel alpha with 1 - pixel alpha */
    bool shifters_now;        /* memory-alpha blend: shifts from this pixel's delta Z */
    bool shifters_previous;   /* ... from the previous pixel's (2-cycle first blender) */
    uint8_t dither_combo;     /* rgb_dither_sel << 2 | alpha_dither_sel */
    uint8_t tex_level_1c;     /* 0 texel0+next, 1 texel0, 2 none */
    uint8_t tex_level_2c;     /* 0 complete, 1 no next texel, 2 texel0 only, 3 none */
    bool noise;               /* noise value needed per pixel */
    bool dither;              /* dither values needed per pixel */
    bool lod;                 /* LOD computed per pixel */
} rdp_derived_t;

struct rdp {
    uint8_t *rdram;
    size_t rdram_size;
    uint8_t *hidden;          /* per halfword: bits 0..1, or HIDDEN_UNSET */
    uint8_t hidden_recent[8]; /* last hidden bits written per halfword slot (byte writes) */

    /* command assembly */
    uint8_t cmd[RDP_CMD_MAX];
    uint32_t cmd_have, cmd_need;

    rdp_stats_t stats;

    /* images */
    uint8_t fb_format, fb_size;
    uint32_t fb_width, fb_address;
    uint32_t fill_color;
    uint32_t zb_address;
    uint8_t ti_format, ti_size;
    uint32_t ti_width, ti_address;

    /* scissor, 10.2 fixed point */
    uint16_t clip_xh, clip_yh, clip_xl, clip_yl;
    uint8_t clip_field, clip_keep_odd;

    uint32_t prim_z;
    uint16_t prim_dz;
    int32_t min_level;
    uint32_t max_level;

    uint16_t key_width[3];
    int32_t k_tf[4]; /* conversion coefficients k0..k3 as 2k+1 */

    rdp_other_modes_t om;
    uint32_t combine_hi, combine_lo; /* raw Set Combine words */
    bool derived_stale;
    rdp_derived_t d;

    /* combiner inputs per cycle: slot indices */
    uint8_t cc_rgb[2][4][3]; /* [cycle][sub_a, sub_b, mul, add][channel] */
    uint8_t cc_alpha[2][4];
    /* blender inputs per cycle */
    uint8_t bl_in1[2], bl_in1_a[2], bl_in2[2], bl_in2_a[2];

    int32_t cc[CS_COUNT];
    int32_t bl[BS_COUNT];
    int32_t next_texel[4];
    int32_t pre_memory[4];

    /* pipeline state carried from pixel to pixel */
    int32_t bl_shift_a, bl_shift_b;
    int32_t past_bl_shift_a, past_bl_shift_b;
    int32_t past_raw_dz;
    uint32_t noise_seed;

    rdp_tile_t tile[8];
    uint8_t tmem[RDP_TMEM_SIZE]; /* N64 byte order */

    /* primitive set-up */
    rdp_span_t span[RDP_SPANS];
    uint32_t d_dx[ATTR_COUNT];    /* per pixel step */
    int32_t cov_dx[4], cov_dy[4]; /* r g b a steps for the coverage correction */
    int32_t cov_dzdx, cov_dzdy;
    uint32_t dsdy, dtdy, dwdy;
    int32_t dz_pix;
    int32_t last_wide_line;       /* last span wide enough to rewrite the hidden-bit slots */
    uint8_t cvg[RDP_LINES];       /* coverage masks of the current span */

    /* tables */
    rdp_cvg_info_t cvg_info[256];
    uint8_t blend_div[0x8000];
    int32_t rcp_point[64], rcp_slope[64];
};

#define HIDDEN_UNSET 4

/* rdp.c */
void rdp_update_derived(rdp_t *rdp);

/* rdram.c: addresses are byte addresses or halfword / word indices. */
uint8_t rdram_read8(const rdp_t *rdp, uint32_t address);
uint32_t rdram_read32(const rdp_t *rdp, uint32_t index);
void rdram_read16_hidden(rdp_t *rdp, uint32_t index, uint16_t *value, uint8_t *hidden);
void rdram_write16_hidden(rdp_t *rdp, uint32_t index, uint16_t value, uint8_t hidden, bool colour);
void rdram_write32_hidden(rdp_t *rdp, uint32_t index, uint32_t value, uint8_t hidden0, uint8_t hidden1);
/* Byte write with the hidden-bit bookkeeping of the RDP's byte path.
 * pending is per primitive, -1 when nothing is pending. */
void rdram_write8_hidden(rdp_t *rdp, uint32_t address, uint8_t value, bool forward, int64_t *pending);
void rdram_finish_pending(rdp_t *rdp, int64_t pending);

/* coverage.c */
void rdp_build_cvg_table(rdp_cvg_info_t *table);
void rdp_coverage_span(rdp_t *rdp, const rdp_span_t *span, bool left_major);

/* Where a span of a 1- or 2-cycle triangle starts: its first pixel, how many pixels it
 * runs past that one, and how far it is from the major edge. */
typedef struct rdp_span_start {
    int32_t x, length, to_edge;
    uint32_t pixel;
} rdp_span_start_t;

/* Starts span `sp` of row `y`: its coverage, and its attributes `a` at the first pixel
 * (primitive Z when Z comes from the primitive), stepped past the pixels the edge skipped. */
static inline rdp_span_start_t rdp_span_begin(rdp_t *rdp, const rdp_span_t *sp, int y, bool left,
                                              const uint32_t inc[ATTR_COUNT], uint32_t a[ATTR_COUNT])
{
    rdp_span_start_t st;
    st.x = sp->first_x;
    st.length = left ? sp->last_x - sp->first_x : sp->first_x - sp->last_x;
    int32_t skipped = left ? sp->first_x - sp->major_x : sp->major_x - sp->first_x;
    memcpy(a, sp->attr, sizeof(uint32_t) * ATTR_COUNT);
    if (rdp->om.z_source_sel)
        a[ATTR_Z] = rdp->prim_z;
    st.pixel = rdp->fb_width * (uint32_t)y + (uint32_t)st.x;
    rdp_coverage_span(rdp, sp, left);
    if (skipped) {
        uint32_t n = (uint32_t)skipped & 0xfff;
        for (int k = 0; k < ATTR_COUNT; k++)
            a[k] += inc[k] * n;
    }
    st.to_edge = st.length + (skipped & 0xfff);
    return st;
}
int32_t rdp_final_coverage(const rdp_t *rdp, bool blend_en, int32_t cvg, int32_t mem_cvg);

/* edgewalk.c */
typedef struct rdp_prim {
    bool left_major;
    uint8_t tile, max_level;
    int32_t yl, ym, yh;          /* s11.2 */
    int32_t xl, xh, xm;          /* s11.16 */
    int32_t dxldy, dxhdy, dxmdy; /* s13.16 (as sign-extended 30 bits) */
    bool major_slope_negative;
    uint32_t attr[ATTR_COUNT], dx[ATTR_COUNT], de[ATTR_COUNT], dy[ATTR_COUNT];
} rdp_prim_t;
void rdp_draw_primitive(rdp_t *rdp, const rdp_prim_t *prim);
void rdp_cmd_triangle(rdp_t *rdp, const uint8_t *cmd);
void rdp_cmd_fill_rect(rdp_t *rdp, const uint8_t *cmd);
void rdp_cmd_tex_rect(rdp_t *rdp, const uint8_t *cmd, bool flip);

/* render_*.c */
void rdp_render_1cycle(rdp_t *rdp, int start, int end, int tile, bool left_major);
void rdp_render_2cycle(rdp_t *rdp, int start, int end, int tile, bool left_major);
void rdp_render_fill(rdp_t *rdp, int start, int end, bool left_major);
void rdp_render_copy(rdp_t *rdp, int start, int end, int tile, bool left_major);

/* Shared per-pixel steps (pixel.c). */
void rdp_shade_correct(rdp_t *rdp, uint32_t dx, uint32_t dy, int32_t r, int32_t g, int32_t b, int32_t a, uint32_t cvg);
int32_t rdp_z_correct(const rdp_t *rdp, uint32_t dx, uint32_t dy, int32_t z, uint32_t cvg);
void rdp_dither_values(rdp_t *rdp, int x, int y, int32_t *cdith, int32_t *adith);
uint32_t rdp_noise(rdp_t *rdp);

/* texcoord.c */
void rdp_persp_divide(const rdp_t *rdp, int32_t s, int32_t t, int32_t w, int32_t *sss, int32_t *sst);
void rdp_clamp_coords16(int32_t *sss, int32_t *sst);
void rdp_lod_signals(const rdp_t *rdp, bool clamped, int32_t lod, uint32_t *level, bool *magnify, bool *distant, int32_t *frac);
int32_t rdp_lod_measure(int32_t s0, int32_t s1, int32_t t0, int32_t t1, int32_t previous);
void rdp_tile_derive(rdp_tile_t *tile);

/* texel.c */
void rdp_texture_sample(rdp_t *rdp, int32_t *out, const int32_t *prev, int32_t sss, int32_t sst, uint32_t tile, bool second);
void rdp_copy_fetch(rdp_t *rdp, uint32_t *hi, uint32_t *lo, int32_t sss, int32_t sst, uint32_t tile);

/* tmem.c */
void rdp_cmd_load_block(rdp_t *rdp, const uint8_t *cmd);
void rdp_cmd_load_tile(rdp_t *rdp, const uint8_t *cmd);
void rdp_cmd_load_tlut(rdp_t *rdp, const uint8_t *cmd);
static inline uint16_t tmem_word(const rdp_t *rdp, uint32_t index)
{
    index &= 0x7ff;
    return (uint16_t)(rdp->tmem[index * 2] << 8 | rdp->tmem[index * 2 + 1]);
}

/* combiner.c */
void rdp_combiner_setup(rdp_t *rdp);
void rdp_combine_1cycle(rdp_t *rdp, int32_t adith, uint32_t *cvg);
void rdp_combine_2cycle_first(rdp_t *rdp, int32_t adith, uint32_t cvg, int32_t *compare_alpha);
void rdp_combine_2cycle_second(rdp_t *rdp, int32_t adith, uint32_t *cvg);

/* blender.c */
void rdp_blender_setup(rdp_t *rdp);
void rdp_build_blend_div(uint8_t *table);
bool rdp_alpha_compare(rdp_t *rdp, int32_t alpha);
bool rdp_blend_1cycle(rdp_t *rdp, int32_t rgb[3], int32_t cdith, bool blend_en, bool prewrap, uint32_t cvg, uint32_t cvbit);
bool rdp_blend_2cycle_first(rdp_t *rdp, uint32_t cvg, uint32_t cvbit);
void rdp_blend_2cycle_first_green(rdp_t *rdp, uint32_t pixel);
void rdp_blend_2cycle_second(rdp_t *rdp, int32_t rgb[3], int32_t cdith, bool blend_en, bool prewrap);
void rdp_rejected_hidden(rdp_t *rdp, int cycle, int32_t cdith, bool blend_en, bool prewrap, uint32_t pixel, uint32_t cvg, uint32_t mem_cvg, bool forward, int64_t *pending);
void rdp_rgb_dither(int sel, int32_t *r, int32_t *g, int32_t *b, int32_t dith);

/* zbuffer.c */
uint32_t rdp_z_decompress(uint16_t z);
uint16_t rdp_z_compress(uint32_t z);
uint32_t rdp_dz_compress(uint32_t dz);
int32_t rdp_normalize_dzpix(int32_t sum);
bool rdp_z_compare(rdp_t *rdp, uint32_t zindex, uint32_t sz, uint16_t dzpix, int dzpix_enc, bool *blend_en, bool *prewrap, uint32_t *cvg, uint32_t mem_cvg);
void rdp_z_store(rdp_t *rdp, uint32_t zindex, uint32_t z, int dzpix_enc);

/* fbuffer.c */
void rdp_fb_read(rdp_t *rdp, uint32_t pixel, uint32_t *mem_cvg, int32_t *dest);
void rdp_fb_write(rdp_t *rdp, uint32_t pixel, const int32_t rgb[3], bool blend_en, uint32_t cvg, uint32_t mem_cvg, bool forward, int64_t *pending);
void rdp_fb_fill(rdp_t *rdp, uint32_t pixel, bool forward, int64_t *pending);

/* commands whose only effect is state (rdp.c) */
void rdp_cmd_set_other_modes(rdp_t *rdp, uint32_t w0, uint32_t w1);
void rdp_cmd_set_combine(rdp_t *rdp, uint32_t w0, uint32_t w1);
void rdp_cmd_set_tile(rdp_t *rdp, uint32_t w0, uint32_t w1);
void rdp_cmd_set_tile_size(rdp_t *rdp, uint32_t w0, uint32_t w1);

static inline uint32_t rdp_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

#endif
