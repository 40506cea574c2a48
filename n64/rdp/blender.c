/* Blender: P * a + M * b with the coverage/alpha rules deciding whether to
 * blend at all, alpha compare, RGB dithering, and the hidden-bit slot
 * bookkeeping for pixels the blender rejects. */
#include "rdp_internal.h"

void rdp_blender_setup(rdp_t *rdp)
{
    const rdp_other_modes_t *m = &rdp->om;
    static const uint8_t colour_in[4] = {BS_PIXEL, BS_MEMORY, BS_BLEND, BS_FOG};
    static const uint8_t first_alpha[4] = {BS_PIXEL + 3, BS_FOG + 3, BS_SHADE_A, BS_ZERO};
    static const uint8_t second_alpha[4] = {BS_INV_A, BS_MEMORY + 3, BS_FF, BS_ZERO};
    for (int c = 0; c < 2; c++) {
        /* the second cycle's "pixel" is the first cycle's result */
        rdp->bl_in1[c] = (m->blend_m1a[c] == 0 && c == 1) ? BS_BLENDED : colour_in[m->blend_m1a[c]];
        rdp->bl_in2[c] = (m->blend_m2a[c] == 0 && c == 1) ? BS_BLENDED : colour_in[m->blend_m2a[c]];
        rdp->bl_in1_a[c] = first_alpha[m->blend_m1b[c]];
        rdp->bl_in2_a[c] = second_alpha[m->blend_m2b[c]];
    }
}

/* The divider behind (P * a + M * b) / (a + b): a bit-serial non-restoring
 * division producing 8 quotient bits. The divisor code d is (a + b) / 4 in
 * steps of 4/32 alpha, the dividend n the top 11 bits of the weighted sum. */
static uint8_t serial_divide(unsigned d, unsigned n)
{
    unsigned nd = ~d & 0xf;
    unsigned rem = (nd + (n >> 8) + 1) & 7;
    bool previous_one = false;
    unsigned q = 0;
    for (unsigned step = 0; step < 8; step++) {
        unsigned bit = (n >> (7 - step)) & 1;
        unsigned t = previous_one ? nd + (rem << 1) + bit + 1 : d + (rem << 1) + bit;
        rem = t & 7;
        previous_one = (t & 0x10) != 0;
        if (previous_one)
            q |= 0x80u >> step;
    }
    return (uint8_t)q;
}

void rdp_build_blend_div(uint8_t *table)
{
    for (unsigned i = 0; i < 0x8000; i++)
        table[i] = serial_divide((i >> 11) & 0xf, i & 0x7ff);
}

bool rdp_alpha_compare(rdp_t *rdp, int32_t alpha)
{
    if (!rdp->om.alpha_compare)
        return true;
    int32_t threshold = rdp->om.dither_alpha ? (int32_t)(rdp_noise(rdp) & 0xff) : rdp->bl[BS_BLEND + 3];
    return alpha >= threshold;
}

/* Blend weights of cycle c; memory-alpha blends are sharpened by the
 * delta-Z shifters. */
static inline void weights(const rdp_t *rdp, int c, bool past, int32_t *a, int32_t *b)
{
    *a = rdp->bl[rdp->bl_in1_a[c]] >> 3;
    *b = rdp->bl[rdp->bl_in2_a[c]] >> 3;
    if (rdp->om.blend_m2b[c] == 1) {
        *a = (*a >> (past ? rdp->past_bl_shift_a : rdp->bl_shift_a)) & 0x3c;
        *b = (*b >> (past ? rdp->past_bl_shift_b : rdp->bl_shift_b)) | 3;
    }
}

static inline int32_t blend_channel(const rdp_t *rdp, int c, int ch, int32_t a, int32_t b, bool divide)
{
    int32_t sum = rdp->bl[rdp->bl_in1[c] + ch] * a + rdp->bl[rdp->bl_in2[c] + ch] * (b + 1);
    if (divide) {
        unsigned d = (unsigned)((a & ~3) + (b & ~3) + 4) << 9;
        return rdp->blend_div[(d | ((unsigned)(sum >> 2) & 0x7ff)) & 0x7fff];
    }
    return (sum >> 5) & 0xff;
}

static void blend_rgb(rdp_t *rdp, int c, bool past, bool divide, int32_t rgb[3])
{
    int32_t a, b;
    rdp->bl[BS_INV_A] = ~rdp->bl[rdp->bl_in1_a[c]] & 0xff;
    weights(rdp, c, past, &a, &b);
    for (int ch = 0; ch < 3; ch++)
        rgb[ch] = blend_channel(rdp, c, ch, a, b, divide);
}

static int32_t blend_green(rdp_t *rdp, int c, bool past, bool divide)
{
    int32_t a, b;
    rdp->bl[BS_INV_A] = ~rdp->bl[rdp->bl_in1_a[c]] & 0xff;
    weights(rdp, c, past, &a, &b);
    return blend_channel(rdp, c, 1, a, b, divide);
}

static inline int32_t dither_one(int32_t v, int32_t comp)
{
    int32_t rounded = v > 247 ? 255 : (v & 0xf8) + 8;
    return comp < (v & 7) ? rounded : v;
}

void rdp_rgb_dither(int sel, int32_t *r, int32_t *g, int32_t *b, int32_t dith)
{
    if (sel != 2) {
        *r = dither_one(*r, dith);
        *g = dither_one(*g, dith);
        *b = dither_one(*b, dith);
    } else {
        *r = dither_one(*r, dith & 7);
        *g = dither_one(*g, (dith >> 3) & 7);
        *b = dither_one(*b, (dith >> 6) & 7);
    }
}

/* The final blender cycle c on a pixel that passed the tests. */
static void final_blend(rdp_t *rdp, int c, int32_t rgb[3], int32_t cdith, bool blend_en, bool prewrap)
{
    const int32_t *bl = rdp->bl;
    if (!rdp->om.color_on_cvg || prewrap) {
        bool keep_pixel = rdp->d.partial_reject[c] && bl[BS_PIXEL + 3] >= 0xff;
        if (!blend_en || keep_pixel) {
            for (int ch = 0; ch < 3; ch++)
                rgb[ch] = bl[rdp->bl_in1[c] + ch];
        } else {
            blend_rgb(rdp, c, false, !rdp->om.force_blend, rgb);
        }
    } else {
        for (int ch = 0; ch < 3; ch++)
            rgb[ch] = bl[rdp->bl_in2[c] + ch];
    }
    if (rdp->om.rgb_dither_sel != 3)
        rdp_rgb_dither(rdp->om.rgb_dither_sel, &rgb[0], &rgb[1], &rgb[2], cdith);
}

bool rdp_blend_1cycle(rdp_t *rdp, int32_t rgb[3], int32_t cdith, bool blend_en, bool prewrap, uint32_t cvg, uint32_t cvbit)
{
    if (!rdp_alpha_compare(rdp, rdp->bl[BS_PIXEL + 3]))
        return false;
    if (!(rdp->om.antialias ? cvg : cvbit))
        return false;
    final_blend(rdp, 0, rgb, cdith, blend_en, prewrap);
    return true;
}

bool rdp_blend_2cycle_first(rdp_t *rdp, uint32_t cvg, uint32_t cvbit)
{
    if (!(rdp->om.antialias ? cvg : cvbit))
        return false;
    int32_t rgb[3];
    blend_rgb(rdp, 0, true, false, rgb);
    for (int ch = 0; ch < 3; ch++)
        rdp->bl[BS_BLENDED + ch] = rgb[ch];
    return true;
}

/* Which pixel sizes keep a green-derived hidden bit: 32-bit pixels and the
 * odd bytes of 8-bit images. Returns the size class used below. */
static int hidden_class(const rdp_t *rdp, uint32_t pixel, uint32_t *byte_address)
{
    int cls = rdp->fb_size;
    *byte_address = 0;
    if (rdp->fb_size == RDP_SIZE_8) {
        *byte_address = rdp->fb_address + pixel;
        if (!(*byte_address & 1))
            cls--;
    }
    return cls;
}

void rdp_blend_2cycle_first_green(rdp_t *rdp, uint32_t pixel)
{
    uint32_t byte_address;
    if (hidden_class(rdp, pixel, &byte_address) & 1)
        rdp->bl[BS_BLENDED + 1] = blend_green(rdp, 0, true, false);
}

void rdp_blend_2cycle_second(rdp_t *rdp, int32_t rgb[3], int32_t cdith, bool blend_en, bool prewrap)
{
    final_blend(rdp, 1, rgb, cdith, blend_en, prewrap);
}

void rdp_rejected_hidden(rdp_t *rdp, int cycle, int32_t cdith, bool blend_en, bool prewrap, uint32_t pixel, uint32_t cvg, uint32_t mem_cvg, bool forward, int64_t *pending)
{
    uint32_t byte_address;
    int cls = hidden_class(rdp, pixel, &byte_address);
    uint8_t gbits = 0;
    if (cls & 1) {
        const int32_t *bl = rdp->bl;
        int32_t g;
        if (!rdp->om.color_on_cvg || prewrap) {
            bool keep_pixel = rdp->d.partial_reject[cycle] && bl[BS_PIXEL + 3] >= 0xff;
            if (!blend_en || keep_pixel)
                g = bl[rdp->bl_in1[cycle] + 1];
            else
                g = blend_green(rdp, cycle, false, !rdp->om.force_blend);
        } else {
            g = bl[rdp->bl_in2[cycle] + 1];
        }
        if (rdp->om.rgb_dither_sel != 3)
            g = dither_one(g, rdp->om.rgb_dither_sel != 2 ? cdith : (cdith >> 3) & 7);
        gbits = (g & 1) ? 3 : 0;
    }

    switch (cls) {
    case RDP_SIZE_8: {
        uint32_t a = byte_address & 0xffffff;
        if (forward && *pending >= 0) {
            if (*pending < (int64_t)a) {
                rdram_finish_pending(rdp, *pending);
            } else if (a < rdp->rdram_size) {
                uint8_t *h = &rdp->hidden[a >> 1];
                *h = (uint8_t)((*h & ~2u) | (gbits & 2));
            }
            *pending = -1;
        }
        rdp->hidden_recent[(a >> 1) & 7] = gbits;
        break;
    }
    case RDP_SIZE_16: {
        uint32_t index = (rdp->fb_address >> 1) + pixel;
        uint8_t h = 0;
        if (rdp->fb_format == RDP_FMT_RGBA)
            h = (uint8_t)(rdp_final_coverage(rdp, blend_en, (int32_t)cvg, (int32_t)mem_cvg) & 3);
        rdp->hidden_recent[index & 7] = h;
        break;
    }
    case RDP_SIZE_32: {
        uint32_t index = (rdp->fb_address >> 2) + pixel;
        rdp->hidden_recent[(index * 2) & 7] = gbits;
        rdp->hidden_recent[(index * 2 + 1) & 7] = 0;
        break;
    }
    default:
        break;
    }
}
