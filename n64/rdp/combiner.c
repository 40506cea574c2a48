/* Colour combiner: (A - B) * C + D per channel, for one or two cycles.
 * Inputs are slots of the combiner register file rdp->cc; Set Combine is
 * decoded into slot indices once, so a pixel only indexes the file. */
#include "rdp_internal.h"

#include <string.h>

/* Slot of a colour input, channel c (0..2), or of its alpha (c == 3). */
static uint8_t colour_slot(unsigned base, unsigned c)
{
    return (uint8_t)(base + c);
}

static uint8_t rgb_sub_a(unsigned code, unsigned c)
{
    static const uint8_t bases[8] = {CS_COMBINED, CS_TEXEL0, CS_TEXEL1, CS_PRIM, CS_SHADE, CS_ENV, 0, 0};
    code &= 0xf;
    if (code < 6)
        return colour_slot(bases[code], c);
    if (code == 6)
        return CS_ONE;
    if (code == 7)
        return CS_NOISE;
    return CS_ZERO;
}

static uint8_t rgb_sub_b(unsigned code, unsigned c)
{
    static const uint8_t bases[6] = {CS_COMBINED, CS_TEXEL0, CS_TEXEL1, CS_PRIM, CS_SHADE, CS_ENV};
    code &= 0xf;
    if (code < 6)
        return colour_slot(bases[code], c);
    if (code == 6)
        return colour_slot(CS_KEY_CENTER, c);
    if (code == 7)
        return CS_K4;
    return CS_ZERO;
}

static uint8_t rgb_mul(unsigned code, unsigned c)
{
    static const uint8_t bases[7] = {CS_COMBINED, CS_TEXEL0, CS_TEXEL1, CS_PRIM, CS_SHADE, CS_ENV, CS_KEY_SCALE};
    static const uint8_t alphas[6] = {CS_COMBINED, CS_TEXEL0, CS_TEXEL1, CS_PRIM, CS_SHADE, CS_ENV};
    code &= 0x1f;
    if (code < 7)
        return colour_slot(bases[code], c);
    if (code < 13)
        return colour_slot(alphas[code - 7], 3);
    if (code == 13)
        return CS_LOD_FRAC;
    if (code == 14)
        return CS_PRIM_LOD_FRAC;
    if (code == 15)
        return CS_K5;
    return CS_ZERO;
}

static uint8_t rgb_add(unsigned code, unsigned c)
{
    static const uint8_t bases[6] = {CS_COMBINED, CS_TEXEL0, CS_TEXEL1, CS_PRIM, CS_SHADE, CS_ENV};
    code &= 7;
    if (code < 6)
        return colour_slot(bases[code], c);
    return code == 6 ? CS_ONE : CS_ZERO;
}

/* alpha A, B and D inputs */
static uint8_t alpha_term(unsigned code)
{
    static const uint8_t bases[6] = {CS_COMBINED, CS_TEXEL0, CS_TEXEL1, CS_PRIM, CS_SHADE, CS_ENV};
    code &= 7;
    if (code < 6)
        return colour_slot(bases[code], 3);
    return code == 6 ? CS_ONE : CS_ZERO;
}

static uint8_t alpha_mul(unsigned code)
{
    static const uint8_t bases[6] = {0, CS_TEXEL0, CS_TEXEL1, CS_PRIM, CS_SHADE, CS_ENV};
    code &= 7;
    if (code == 0)
        return CS_LOD_FRAC;
    if (code < 6)
        return colour_slot(bases[code], 3);
    return code == 6 ? CS_PRIM_LOD_FRAC : CS_ZERO;
}

void rdp_combiner_setup(rdp_t *rdp)
{
    uint32_t w0 = rdp->combine_hi, w1 = rdp->combine_lo;
    unsigned sub_a[2] = {(w0 >> 20) & 0xf, (w0 >> 5) & 0xf};
    unsigned mul[2] = {(w0 >> 15) & 0x1f, w0 & 0x1f};
    unsigned sub_b[2] = {(w1 >> 28) & 0xf, (w1 >> 24) & 0xf};
    unsigned add[2] = {(w1 >> 15) & 7, (w1 >> 6) & 7};
    unsigned a_sub_a[2] = {(w0 >> 12) & 7, (w1 >> 21) & 7};
    unsigned a_mul[2] = {(w0 >> 9) & 7, (w1 >> 18) & 7};
    unsigned a_sub_b[2] = {(w1 >> 12) & 7, (w1 >> 3) & 7};
    unsigned a_add[2] = {(w1 >> 9) & 7, w1 & 7};
    for (int cyc = 0; cyc < 2; cyc++) {
        for (unsigned c = 0; c < 3; c++) {
            rdp->cc_rgb[cyc][0][c] = rgb_sub_a(sub_a[cyc], c);
            rdp->cc_rgb[cyc][1][c] = rgb_sub_b(sub_b[cyc], c);
            rdp->cc_rgb[cyc][2][c] = rgb_mul(mul[cyc], c);
            rdp->cc_rgb[cyc][3][c] = rgb_add(add[cyc], c);
        }
        rdp->cc_alpha[cyc][0] = alpha_term(a_sub_a[cyc]);
        rdp->cc_alpha[cyc][1] = alpha_term(a_sub_b[cyc]);
        rdp->cc_alpha[cyc][2] = alpha_mul(a_mul[cyc]);
        rdp->cc_alpha[cyc][3] = alpha_term(a_add[cyc]);
    }
}

/* (A - B) * C + D with A, B, D read as 9-bit pipeline values and C as a
 * signed 9-bit factor (256 = 1.0); 17 bits kept, 8 of them fraction. */
static inline int32_t equation(int32_t a, int32_t b, int32_t c, int32_t d)
{
    int32_t v = (rdp_ext9(a) - rdp_ext9(b)) * rdp_sext((uint32_t)c, 9) + rdp_ext9(d) * 256 + 0x80;
    return (int32_t)((uint32_t)v & 0x1ffff);
}

static inline int32_t alpha_equation(int32_t a, int32_t b, int32_t c, int32_t d)
{
    int32_t v = (rdp_ext9(a) - rdp_ext9(b)) * rdp_sext((uint32_t)c, 9) + rdp_ext9(d) * 256 + 0x80;
    return (int32_t)(((uint32_t)v >> 8) & 0x1ff);
}

/* Chroma key: how far inside the key window the (A - B) * C result lies. */
static int32_t key_alpha(const rdp_t *rdp, const int32_t comb[3])
{
    int32_t best = 0;
    for (int c = 0; c < 3; c++) {
        int32_t v = rdp_sext((uint32_t)comb[c], 17);
        if (v > 0)
            v = ((v & 0xf) == 8) ? 0x10 - v : -v;
        int32_t k = (int32_t)rdp->key_width[c] * 16 + v;
        if (c == 0 || k < best)
            best = k;
    }
    return rdp_clampi(best, 0, 0xff);
}

static void shade_alpha_for_blender(rdp_t *rdp, int32_t adith)
{
    int32_t a = rdp->cc[CS_SHADE + 3] + adith;
    rdp->bl[BS_SHADE_A] = (a & 0x100) ? 0xff : a;
}

/* The last combiner cycle: produces the pixel colour and alpha for the
 * blender, and may scale the coverage by alpha. */
static void last_cycle(rdp_t *rdp, int32_t adith, uint32_t *cvg)
{
    int32_t *f = rdp->cc;
    const uint8_t(*in)[3] = rdp->cc_rgb[1];
    const uint8_t *ain = rdp->cc_alpha[1];
    bool key = rdp->om.key_en;
    int32_t comb[3], bypass[3];

    for (int c = 0; c < 3; c++) {
        bypass[c] = f[in[0][c]];
        comb[c] = equation(f[in[0][c]], f[in[1][c]], f[in[2][c]], f[in[3][c]]);
    }
    int32_t comb_a = alpha_equation(f[ain[0]], f[ain[1]], f[ain[2]], f[ain[3]]);
    int32_t keyed = 0;
    int32_t *pixel = &rdp->bl[BS_PIXEL];

    if (key) {
        keyed = key_alpha(rdp, comb);
        for (int c = 0; c < 3; c++)
            pixel[c] = rdp_clamp9(bypass[c]);
    }
    for (int c = 0; c < 3; c++) {
        comb[c] >>= 8;
        f[CS_COMBINED + c] = comb[c];
        if (!key)
            pixel[c] = rdp_clamp9(comb[c]);
    }
    f[CS_COMBINED + 3] = comb_a;

    int32_t alpha = rdp_clamp9(comb_a);
    if (alpha == 0xff)
        alpha = 0x100;
    int32_t scaled = 0;
    if (rdp->om.cvg_times_alpha) {
        scaled = (alpha * (int32_t)*cvg + 4) >> 3;
        *cvg = (uint32_t)(scaled >> 5) & 0xf;
    }
    if (!rdp->om.alpha_cvg_select) {
        if (!key) {
            alpha += adith;
            if (alpha & 0x100)
                alpha = 0xff;
        } else {
            alpha = keyed;
        }
    } else {
        alpha = rdp->om.cvg_times_alpha ? scaled : (int32_t)(*cvg << 5);
        if (alpha > 0xff)
            alpha = 0xff;
    }
    pixel[3] = alpha;
    shade_alpha_for_blender(rdp, adith);
}

void rdp_combine_1cycle(rdp_t *rdp, int32_t adith, uint32_t *cvg)
{
    last_cycle(rdp, adith, cvg);
}

void rdp_combine_2cycle_first(rdp_t *rdp, int32_t adith, uint32_t cvg, int32_t *compare_alpha)
{
    int32_t *f = rdp->cc;
    const uint8_t(*in)[3] = rdp->cc_rgb[0];
    const uint8_t *ain = rdp->cc_alpha[0];
    int32_t comb[3];
    for (int c = 0; c < 3; c++)
        comb[c] = equation(f[in[0][c]], f[in[1][c]], f[in[2][c]], f[in[3][c]]);
    int32_t comb_a = alpha_equation(f[ain[0]], f[ain[1]], f[ain[2]], f[ain[3]]);

    if (rdp->om.alpha_compare) {
        int32_t a = rdp_clamp9(comb_a);
        if (a == 0xff)
            a = 0x100;
        if (!rdp->om.alpha_cvg_select) {
            a += adith;
            if (a & 0x100)
                a = 0xff;
        } else {
            a = rdp->om.cvg_times_alpha ? (a * (int32_t)cvg + 4) >> 3 : (int32_t)(cvg << 5);
            if (a > 0xff)
                a = 0xff;
        }
        *compare_alpha = a;
    }
    for (int c = 0; c < 3; c++)
        f[CS_COMBINED + c] = comb[c] >> 8;
    f[CS_COMBINED + 3] = comb_a;
    shade_alpha_for_blender(rdp, adith);
}

void rdp_combine_2cycle_second(rdp_t *rdp, int32_t adith, uint32_t *cvg)
{
    /* the second cycle sees the first cycle's second texel as TEXEL0 and the
     * next pixel's first texel as TEXEL1 */
    memcpy(&rdp->cc[CS_TEXEL0], &rdp->cc[CS_TEXEL1], 4 * sizeof(int32_t));
    memcpy(&rdp->cc[CS_TEXEL1], rdp->next_texel, 4 * sizeof(int32_t));
    last_cycle(rdp, adith, cvg);
}
