/* Texture sampling: tile shift, clamp, wrap/mirror, texel fetch from TMEM
 * (with or without TLUT), 3-point bilinear filter, and the copy-mode fetch
 * of four texels at once.
 *
 * TMEM is 4 KiB in N64 byte order: 512 rows of 8 bytes ("words" below are
 * 16-bit). Odd texture rows are stored with their two 32-bit halves swapped.
 * The TLUT lives in the upper 2 KiB, each entry repeated in four banks. */
#include "rdp_internal.h"

/* Texel kinds (tile format << 2 | size; I and unknown formats as 0x10 | size). */
enum {
    K_RGBA4 = 0, K_RGBA8 = 1, K_RGBA16 = 2, K_RGBA32 = 3,
    K_CI4 = 8, K_CI8 = 9,
    K_IA4 = 12, K_IA8 = 13, K_IA16 = 14,
    K_I4 = 16, K_I8 = 17
};

static inline int32_t expand5(uint32_t v)
{
    v &= 0x1f;
    return (int32_t)(v << 3 | v >> 2);
}

static inline uint8_t tmem_byte(const rdp_t *rdp, uint32_t address)
{
    return rdp->tmem[address & 0xfff];
}

/* Decodes the texel at column s of row `row` (row already reduced the way
 * the caller needs) without a TLUT. */
static void texel_plain(const rdp_t *rdp, const rdp_tile_t *tile, uint32_t s, uint32_t row, int32_t *c)
{
    uint32_t base = tile->line * row + tile->tmem;
    bool odd = row & 1;
    switch (tile->kind) {
    case K_RGBA4: case K_CI4: case K_IA4: case K_I4: {
        uint8_t byte = tmem_byte(rdp, (((base << 4) + s) >> 1) ^ (odd ? 4 : 0));
        uint32_t nib = (s & 1) ? (byte & 0xf) : (byte >> 4);
        if (tile->kind == K_IA4) {
            uint32_t i = nib & 0xe;
            c[0] = c[1] = c[2] = (int32_t)((i << 4 | i << 1 | i >> 2) & 0xff);
            c[3] = (nib & 1) ? 0xff : 0;
        } else if (tile->kind == K_CI4) {
            c[0] = c[1] = c[2] = c[3] = (int32_t)((tile->palette << 4 | nib) & 0xff);
        } else {
            c[0] = c[1] = c[2] = c[3] = (int32_t)(nib * 0x11);
        }
        return;
    }
    case K_RGBA8: case K_CI8: case K_IA8: case K_I8: {
        uint8_t p = tmem_byte(rdp, ((base << 3) + s) ^ (odd ? 4 : 0));
        if (tile->kind == K_IA8) {
            c[0] = c[1] = c[2] = (p & 0xf0) | (p >> 4);
            c[3] = (p & 0xf) * 0x11;
        } else {
            c[0] = c[1] = c[2] = c[3] = p;
        }
        return;
    }
    case K_RGBA32: {
        uint32_t w = (((base << 2) + s) ^ (odd ? 2 : 0)) & 0x3ff;
        uint16_t rg = tmem_word(rdp, w), ba = tmem_word(rdp, w | 0x400);
        c[0] = rg >> 8;
        c[1] = rg & 0xff;
        c[2] = ba >> 8;
        c[3] = ba & 0xff;
        return;
    }
    default: {
        uint16_t v = tmem_word(rdp, ((base << 2) + s) ^ (odd ? 2 : 0));
        if (tile->kind == K_RGBA16) {
            c[0] = expand5(v >> 11);
            c[1] = expand5(v >> 6);
            c[2] = expand5(v >> 1);
            c[3] = (v & 1) ? 0xff : 0;
        } else if (tile->kind == K_IA16) {
            c[0] = c[1] = c[2] = v >> 8;
            c[3] = v & 0xff;
        } else { /* 16/32-bit CI and I, 32-bit IA, YUV (not modelled) */
            c[0] = c[2] = v >> 8;
            c[1] = c[3] = v & 0xff;
        }
        return;
    }
    }
}

/* TLUT index of the texel at column s of row `row`. Kinds 3, 7, 11, 15
 * (the YUV ones) read a byte per texel. */
static uint32_t texel_index(const rdp_t *rdp, const rdp_tile_t *tile, uint32_t s, uint32_t row)
{
    uint32_t base = tile->line * row + tile->tmem;
    bool odd = row & 1;
    unsigned k = tile->tlut_kind;
    if (k < 3) {
        uint8_t byte = rdp->tmem[((((base << 4) + s) >> 1) ^ (odd ? 4 : 0)) & 0x7ff];
        uint32_t nib = (s & 1) ? (byte & 0xf) : (byte >> 4);
        return (uint32_t)tile->palette << 4 | nib;
    }
    if (k == 8 || k == 9 || k == 10 || k == 12 || k == 13 || k == 14)
        return tmem_word(rdp, (((base << 2) + s) ^ (odd ? 2 : 0)) & 0x3ff) >> 8;
    uint8_t byte = rdp->tmem[(((base << 3) + s) ^ (odd ? 4 : 0)) & 0x7ff];
    if (k == 3)
        return (uint32_t)tile->palette << 4 | (byte >> 4);
    return byte;
}

static void tlut_colour(const rdp_t *rdp, uint32_t entry, int32_t *c)
{
    uint16_t v = tmem_word(rdp, 0x400 | (entry & 0x3ff));
    if (!rdp->om.tlut_type) {
        c[0] = expand5(v >> 11);
        c[1] = expand5(v >> 6);
        c[2] = expand5(v >> 1);
        c[3] = (v & 1) ? 0xff : 0;
    } else {
        c[0] = c[1] = c[2] = v >> 8;
        c[3] = v & 0xff;
    }
}

/* Integer texel coordinate in s10.5 after the tile's shift. */
static inline int32_t shifted(int32_t coord, unsigned shift)
{
    int32_t v = rdp_sext((uint32_t)coord, 16);
    if (shift < 11)
        return rdp_asr(v, shift);
    return rdp_sext((uint32_t)v << (16 - shift), 16);
}

/* Clamp to the tile (whole texels); zeroes the fraction at the edges. */
static inline int32_t clamp_axis(int32_t v, bool clamping, bool beyond, uint16_t extent, int32_t *frac)
{
    if (!clamping)
        return rdp_asr(v, 5);
    if (beyond) {
        *frac = 0;
        return extent;
    }
    if (!((uint32_t)v & 0x10000))
        return rdp_asr(v, 5);
    *frac = 0;
    return 0;
}

/* Wrap or mirror; *step is the column/row offset to the second texel of a
 * bilinear footprint (or NULL for point sampling). */
static inline int32_t mask_axis(int32_t v, uint8_t mask, bool mirror, uint8_t mirror_bit, uint16_t bits, int32_t *step, bool t_axis)
{
    if (!mask) {
        if (step)
            *step = 1;
        return v;
    }
    if (mirror) {
        int32_t wrap = (int32_t)(((uint32_t)v >> mirror_bit) & 1);
        if (wrap)
            v = ~v;
        v &= bits;
        if (step)
            *step = (((v - wrap) & bits) == bits) ? 0 : 1 - 2 * wrap;
        return v;
    }
    v &= bits;
    if (step)
        *step = (v == bits) ? -(t_axis ? (v & 0xff) : v) : 1;
    return v;
}

/* 3-point filter of one channel over the footprint c0 (s, t), c1 (s+1, t),
 * c2 (s, t+1), c3 (s+1, t+1). */
static inline int32_t filter3(int32_t c0, int32_t c1, int32_t c2, int32_t c3, int32_t sf, int32_t tf, bool upper, bool centre)
{
    if (centre)
        return c3 + rdp_asr((c1 + c2) * 64 - c3 * 128 + (c0 - c3 - 1) * 64 + 0xc0, 8);
    if (upper)
        return c3 + rdp_asr((0x20 - sf) * (c2 - c3) + (0x20 - tf) * (c1 - c3) + 0x10, 5);
    return c0 + rdp_asr(sf * (c1 - c0) + tf * (c2 - c0) + 0x10, 5);
}

/* The same footprint weighted by the previous cycle's colour (convert_one). */
static inline int32_t filter_prev(int32_t c0, int32_t c1, int32_t c2, int32_t c3, const int32_t *p, bool upper, bool centre)
{
    int32_t pr = rdp_sext((uint32_t)p[0], 9), pg = rdp_sext((uint32_t)p[1], 9), pb = rdp_sext((uint32_t)p[2], 9);
    if (centre)
        return pb + rdp_asr(pr * (c2 - c3) + pg * (c1 - c3) + (c0 - c3 - 1) * 64 + 0xc0, 8);
    if (upper)
        return pb + rdp_asr(pr * (c2 - c3) + pg * (c1 - c3) + 0x80, 8);
    return pb + rdp_asr(pr * (c1 - c0) + pg * (c2 - c0) + 0x80, 8);
}

/* YUV to RGB conversion with the Set Convert coefficients. */
static void convert_yuv(const rdp_t *rdp, const int32_t *yuv, const int32_t *luma, int32_t *out)
{
    int32_t y = luma[2];
    out[0] = y + rdp_asr(rdp->k_tf[0] * yuv[1] + 0x80, 8);
    out[1] = y + rdp_asr(rdp->k_tf[1] * yuv[0] + rdp->k_tf[2] * yuv[1] + 0x80, 8);
    out[2] = y + rdp_asr(rdp->k_tf[3] * yuv[0] + 0x80, 8);
    out[3] = y;
}

static void fetch_footprint(const rdp_t *rdp, const rdp_tile_t *tile, int32_t s, int32_t sdiff, int32_t t, int32_t tdiff, bool upper, int32_t q[4][4])
{
    const rdp_other_modes_t *m = &rdp->om;
    if (!m->sample_type) {
        /* point sampling through the TLUT: one index, four banks */
        uint32_t idx = texel_index(rdp, tile, (uint32_t)s, (uint32_t)t);
        for (uint32_t k = 0; k < 4; k++)
            tlut_colour(rdp, ((idx << 2) + k) ^ (upper ? 3u : 0u), q[k]);
        return;
    }
    uint32_t row0 = (uint32_t)t & 0xff, row1 = row0 + (uint32_t)tdiff;
    if (m->en_tlut) {
        unsigned k = tile->tlut_kind;
        int32_t s1 = s + ((k & 3) == 3 ? 2 * sdiff : sdiff);
        uint32_t idx[4] = {texel_index(rdp, tile, (uint32_t)s, row0), texel_index(rdp, tile, (uint32_t)s1, row0),
                           texel_index(rdp, tile, (uint32_t)s, row1), texel_index(rdp, tile, (uint32_t)s1, row1)};
        for (uint32_t n = 0; n < 4; n++)
            tlut_colour(rdp, ((idx[n] << 2) + n) ^ (upper ? 3u : 0u), q[n]);
        return;
    }
    uint32_t s1 = (uint32_t)(s + sdiff);
    texel_plain(rdp, tile, (uint32_t)s, row0, q[0]);
    texel_plain(rdp, tile, s1, row0, q[1]);
    texel_plain(rdp, tile, (uint32_t)s, row1, q[2]);
    texel_plain(rdp, tile, s1, row1, q[3]);
}

void rdp_texture_sample(rdp_t *rdp, int32_t *out, const int32_t *prev, int32_t sss, int32_t sst, uint32_t tilenum, bool second)
{
    const rdp_other_modes_t *m = &rdp->om;
    const rdp_tile_t *tile = &rdp->tile[tilenum & 7];
    bool bilerp = second ? m->bi_lerp1 : m->bi_lerp0;
    bool convert = m->convert_one && second;

    int32_t s = shifted(sss, tile->shift_s), t = shifted(sst, tile->shift_t);
    bool beyond_s = rdp_asr(s, 3) >= (int32_t)tile->sh, beyond_t = rdp_asr(t, 3) >= (int32_t)tile->th;
    s -= (int32_t)tile->sl << 3;
    t -= (int32_t)tile->tl << 3;

    if (m->sample_type || m->en_tlut) {
        int32_t sf = s & 0x1f, tf = t & 0x1f;
        int32_t sdiff, tdiff;
        s = clamp_axis(s, tile->clamps, beyond_s, tile->clamp_extent_s, &sf);
        t = clamp_axis(t, tile->clampt, beyond_t, tile->clamp_extent_t, &tf);
        s = mask_axis(s, tile->mask_s, tile->mirror_s, tile->mirror_bit_s, tile->mask_bits_s, &sdiff, false);
        t = mask_axis(t, tile->mask_t, tile->mirror_t, tile->mirror_bit_t, tile->mask_bits_t, &tdiff, true);
        bool upper = ((sf + tf) & 0x20) != 0;
        int32_t q[4][4];

        if (bilerp) {
            fetch_footprint(rdp, tile, s, sdiff, t, tdiff, upper, q);
            bool centre = m->mid_texel && sf == 0x10 && tf == 0x10;
            for (int c = 0; c < 4; c++) {
                out[c] = convert ? filter_prev(q[0][c], q[1][c], q[2][c], q[3][c], prev, upper, centre)
                                 : filter3(q[0][c], q[1][c], q[2][c], q[3][c], sf, tf, upper, centre);
            }
        } else {
            if (convert) {
                for (int c = 0; c < 3; c++)
                    q[0][c] = q[3][c] = rdp_sext((uint32_t)prev[c], 9);
                q[0][3] = q[3][3] = prev[3];
            } else {
                fetch_footprint(rdp, tile, s, sdiff, t, tdiff, upper, q);
            }
            const int32_t *pick = upper ? q[3] : q[0];
            convert_yuv(rdp, pick, pick, out);
        }
        for (int c = 0; c < 4; c++)
            out[c] &= 0x1ff;
        return;
    }

    /* point sampling without TLUT */
    int32_t unused = 0;
    s = clamp_axis(s, tile->clamps, beyond_s, tile->clamp_extent_s, &unused);
    t = clamp_axis(t, tile->clampt, beyond_t, tile->clamp_extent_t, &unused);
    s = mask_axis(s, tile->mask_s, tile->mirror_s, tile->mirror_bit_s, tile->mask_bits_s, NULL, false);
    t = mask_axis(t, tile->mask_t, tile->mirror_t, tile->mirror_bit_t, tile->mask_bits_t, NULL, true);
    int32_t c[4];
    if (bilerp) {
        if (!convert) {
            texel_plain(rdp, tile, (uint32_t)s, (uint32_t)t & 0xff, c);
            out[0] = c[0] & 0x1ff;
            out[1] = c[1] & 0x1ff;
            out[2] = c[2];
            out[3] = c[3];
        } else {
            out[0] = out[1] = out[2] = out[3] = prev[2];
        }
        return;
    }
    if (convert) {
        for (int k = 0; k < 3; k++)
            c[k] = rdp_sext((uint32_t)prev[k], 9);
        c[3] = prev[3];
    } else {
        texel_plain(rdp, tile, (uint32_t)s, (uint32_t)t & 0xff, c);
    }
    convert_yuv(rdp, c, c, out);
    out[3] = c[2] & 0x1ff;
    for (int k = 0; k < 3; k++)
        out[k] &= 0x1ff;
}

/* ---- copy mode: four texels of one row at once ---- */

/* Of the four candidate words, the one each TMEM bank (word address & 3)
 * serves; 0 when no candidate falls in the bank. */
static void bank_words(const uint32_t cand[4], uint32_t served[4])
{
    for (uint32_t bank = 0; bank < 4; bank++) {
        served[bank] = 0;
        for (int i = 0; i < 4; i++)
            if ((cand[i] & 3) == bank) {
                served[bank] = cand[i] & 0x3ff;
                break;
            }
    }
}

/* Colour index from a 16-bit TMEM word and the texel's nibble offset. */
static uint32_t copy_colour_index(const rdp_tile_t *tile, uint32_t word, uint32_t nibble)
{
    if (tile->size == RDP_SIZE_4)
        return (uint32_t)tile->palette << 4 | ((word >> ((nibble ^ 3) << 2)) & 0xf);
    return (nibble & 2) ? (word & 0xff) : (word >> 8);
}

/* A texel's byte for an 8-bit copy. */
static uint32_t copy_byte(const rdp_tile_t *tile, uint32_t word, uint32_t nibble, unsigned format, unsigned size)
{
    if (size == RDP_SIZE_4) {
        uint32_t n = (word >> ((nibble ^ 3) << 2)) & 0xf;
        if (format == RDP_FMT_CI)
            return (uint32_t)tile->palette << 4 | n;
        if (format == RDP_FMT_IA) {
            uint32_t x = n << 4 | n;
            return (x & 0xe0) | ((x & 0xe0) >> 3) | ((x & 0xc0) >> 6);
        }
        return n << 4 | n;
    }
    if (size == RDP_SIZE_8) {
        unsigned hi_shift = ((nibble ^ 3) | 1) << 2;
        if (format == RDP_FMT_IA) {
            uint32_t n = (word >> hi_shift) & 0xf;
            return n << 4 | n;
        }
        return ((word >> hi_shift) & 0xf) << 4 | ((word >> (hi_shift & ~4u)) & 0xf);
    }
    return (word >> 8) & 0xff;
}

void rdp_copy_fetch(rdp_t *rdp, uint32_t *hi, uint32_t *lo, int32_t sss, int32_t sst, uint32_t tilenum)
{
    const rdp_tile_t *tile = &rdp->tile[tilenum & 7];
    const rdp_other_modes_t *m = &rdp->om;
    unsigned size = m->en_tlut ? RDP_SIZE_16 : tile->size;
    unsigned format = m->en_tlut ? (m->tlut_type ? RDP_FMT_IA : RDP_FMT_RGBA) : tile->format;

    int32_t s0 = rdp_asr(shifted(sss, tile->shift_s) - ((int32_t)tile->sl << 3), 5);
    int32_t t = rdp_asr(shifted(sst, tile->shift_t) - ((int32_t)tile->tl << 3), 5);
    int32_t s[4] = {s0, s0 + 1, s0 + 2, s0 + 3};
    if (tile->mask_s)
        for (int k = 0; k < 4; k++)
            s[k] = mask_axis(s[k], tile->mask_s, tile->mirror_s, tile->mirror_bit_s, tile->mask_bits_s, NULL, false);
    if (tile->mask_t)
        t = mask_axis(t, tile->mask_t, tile->mirror_t, tile->mirror_bit_t, tile->mask_bits_t, NULL, true);

    /* nibble addresses in TMEM */
    uint32_t base = ((((uint32_t)tile->line * (uint32_t)t) & 0x1ff) + tile->tmem) << 4;
    uint32_t n[4];
    for (int k = 0; k < 4; k++) {
        uint32_t v = (uint32_t)s[k];
        if (tile->size == RDP_SIZE_8 || tile->format == RDP_FMT_YUV)
            v <<= 1;
        else if (tile->size >= RDP_SIZE_16)
            v <<= 2;
        n[k] = v & 0x1fff;
    }
    /* a, b (low/high half), c, d (low/high half) */
    uint32_t a = (base + n[0]) & 0x1fff, b_hi = (base + n[1]) & 0x1fff;
    uint32_t c = (base + n[2]) & 0x1fff, d_hi = (base + n[3]) & 0x1fff;
    uint32_t b_lo = b_hi, d_lo = d_hi;
    if (tile->format == RDP_FMT_YUV) {
        b_lo = (a + ((n[1] - n[0]) << 1)) & 0x1fff;
        d_lo = (b_lo + n[3] - n[0]) & 0x1fff;
    }
    uint32_t addr[6] = {a, b_lo, b_hi, c, d_lo, d_hi};
    if (t & 1)
        for (int k = 0; k < 6; k++)
            addr[k] ^= 8;

    uint32_t cand[4], served[4], low_words[4], high_words[4], sorted[8];
    uint32_t order_low[4] = {0, 1, 3, 4}, order_high[4] = {0, 2, 3, 5};
    for (int k = 0; k < 4; k++)
        cand[k] = addr[order_low[k]] >> 2;
    bank_words(cand, served);
    for (int k = 0; k < 4; k++)
        low_words[k] = tmem_word(rdp, served[k]);
    for (int k = 0; k < 4; k++)
        sorted[k] = low_words[(addr[order_low[k]] & 0xf) >> 2];

    if (m->en_tlut) {
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t ci = copy_colour_index(tile, sorted[k], addr[order_low[k]] & 3);
            sorted[4 + k] = tmem_word(rdp, 0x400 | (ci << 2 | k));
        }
    } else {
        for (int k = 0; k < 4; k++)
            cand[k] = addr[order_high[k]] >> 2;
        bank_words(cand, served);
        for (int k = 0; k < 4; k++)
            high_words[k] = tmem_word(rdp, served[k] | 0x400);
        for (int k = 0; k < 4; k++)
            sorted[4 + k] = high_words[(addr[order_high[k]] & 0xf) >> 2];
    }

    uint32_t w[4];
    bool large = format == RDP_FMT_YUV || (format == RDP_FMT_RGBA && size == RDP_SIZE_32);
    for (int k = 0; k < 4; k++) {
        if (m->en_tlut)
            w[k] = sorted[4 + k];
        else if (large)
            w[k] = sorted[k];
        else
            w[k] = (addr[order_low[k]] & 0x1000) ? sorted[4 + k] : sorted[k];
    }
    *lo = w[2] << 16 | w[3];
    if (size == RDP_SIZE_16) {
        *hi = w[0] << 16 | w[1];
    } else {
        uint32_t v = 0;
        for (int k = 0; k < 4; k++)
            v = v << 8 | copy_byte(tile, w[k], addr[order_low[k]] & 3, format, size);
        *hi = v;
    }
}
