/* Texture coordinates: perspective divide, level of detail, tile
 * descriptor derivations. */
#include "rdp_internal.h"

void rdp_tile_derive(rdp_tile_t *t)
{
    t->clamp_extent_s = (uint16_t)(((t->sh >> 2) - (t->sl >> 2)) & 0x3ff);
    t->clamp_extent_t = (uint16_t)(((t->th >> 2) - (t->tl >> 2)) & 0x3ff);
    t->clamps = t->clamp_s || !t->mask_s;
    t->clampt = t->clamp_t || !t->mask_t;
    t->mirror_bit_s = t->mask_s <= 10 ? t->mask_s : 10;
    t->mirror_bit_t = t->mask_t <= 10 ? t->mask_t : 10;
    t->mask_bits_s = (uint16_t)(t->mask_s ? (1u << t->mirror_bit_s) - 1 : 0x3ff);
    t->mask_bits_t = (uint16_t)(t->mask_t ? (1u << t->mirror_bit_t) - 1 : 0x3ff);
    if (t->format < 5) {
        t->kind = (uint8_t)(t->format << 2 | t->size);
        t->tlut_kind = (uint8_t)(t->size << 2 | ((t->format + 2) & 3));
    } else {
        t->kind = (uint8_t)(0x10 | t->size);
        t->tlut_kind = (uint8_t)(t->size << 2 | 2);
    }
}

/* s, t and w are the integer parts (s10.5 / s.15) of the iterated values.
 * Results: 17-bit coordinates in s10.5 plus flags in bits 17 (result below
 * range) and 18 (above range, or w not positive). */
void rdp_persp_divide(const rdp_t *rdp, int32_t s, int32_t t, int32_t w, int32_t *sss, int32_t *sst)
{
    if (!rdp->om.persp_tex) {
        *sss = (int32_t)((uint32_t)rdp_sext((uint32_t)s, 16) & 0x1ffff);
        *sst = (int32_t)((uint32_t)rdp_sext((uint32_t)t, 16) & 0x1ffff);
        return;
    }
    bool w_not_positive = rdp_sext((uint32_t)w, 16) <= 0;
    uint32_t wv = (uint32_t)w & 0x7fff;
    unsigned shift = 0;
    while (shift < 14 && !(wv & (0x4000u >> shift)))
        shift++;
    uint32_t norm = (wv << shift) & 0x3fff;
    int32_t frac = (int32_t)((norm & 0xff) << 2);
    unsigned idx = norm >> 8;
    int32_t rcp = (rdp_asr(rdp->rcp_slope[idx] * frac, 10) + rdp->rcp_point[idx]) & 0x7fff;
    uint32_t range_mask = (uint32_t)(-(int32_t)((1u << 29) >> shift)) & 0x3fffffffu;

    int32_t in[2] = {s, t};
    int32_t out[2];
    for (int k = 0; k < 2; k++) {
        int32_t prod = rdp_sext((uint32_t)in[k], 16) * rcp;
        uint32_t outside = (uint32_t)prod & range_mask;
        int32_t value;
        if (shift != 14) {
            prod = rdp_asr(prod, 13 - shift);
            value = prod;
        } else {
            value = (int32_t)((uint32_t)prod << 1);
        }
        uint32_t flags = 0;
        if (outside != range_mask && outside != 0)
            flags = ((uint32_t)prod & (1u << 29)) ? 1u << 17 : 2u << 17;
        if (w_not_positive)
            flags |= 2u << 17;
        out[k] = (int32_t)(((uint32_t)value & 0x1ffff) | flags);
    }
    *sss = out[0];
    *sst = out[1];
}

/* Clamps a divided coordinate to 16 bits signed, using the range flags. */
static int32_t clamp16(int32_t v)
{
    uint32_t u = (uint32_t)v;
    if (u & 0x40000)
        return 0x7fff;
    if (u & 0x20000)
        return 0x8000;
    switch (u & 0x18000) {
    case 0x8000:
        return 0x7fff;
    case 0x10000:
        return 0x8000;
    default:
        return (int32_t)(u & 0xffff);
    }
}

void rdp_clamp_coords16(int32_t *sss, int32_t *sst)
{
    *sss = clamp16(*sss);
    *sst = clamp16(*sst);
}

/* Largest coordinate step between two pixels (17-bit signed inputs), with
 * a running maximum; bit 14 of the result marks a step of 2^14 or more. */
int32_t rdp_lod_measure(int32_t s0, int32_t s1, int32_t t0, int32_t t1, int32_t previous)
{
    int32_t ds = rdp_sext((uint32_t)s1, 17) - rdp_sext((uint32_t)s0, 17);
    if (ds & 0x20000)
        ds = ~ds & 0x1ffff;
    int32_t dt = rdp_sext((uint32_t)t1, 17) - rdp_sext((uint32_t)t0, 17);
    if (dt & 0x20000)
        dt = ~dt & 0x1ffff;
    int32_t m = ds > dt ? ds : dt;
    if (previous > m)
        m = previous;
    int32_t lod = m & 0x7fff;
    if (m & 0x1c000)
        lod |= 0x4000;
    return lod;
}

static uint32_t floor_log2_byte(uint32_t v)
{
    uint32_t n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

/* From an LOD value: the mip level, whether the texture is magnified or past
 * the last level, and the LOD fraction for the combiner. */
void rdp_lod_signals(const rdp_t *rdp, bool clamped, int32_t lod, uint32_t *level, bool *magnify, bool *distant, int32_t *frac)
{
    const rdp_other_modes_t *m = &rdp->om;
    bool plain = !m->sharpen_tex && !m->detail_tex;
    if ((lod & 0x4000) || clamped) {
        *magnify = false;
        *level = 0;
        *distant = true;
        *frac = 0xff;
    } else if (lod < rdp->min_level || lod < 32) {
        int32_t below = lod < rdp->min_level ? rdp->min_level : lod;
        *magnify = true;
        *level = 0;
        *distant = rdp->max_level == 0;
        if (plain)
            *frac = *distant ? 0xff : 0;
        else
            *frac = (below << 3) | (m->sharpen_tex ? 0x100 : 0);
    } else {
        *magnify = false;
        *level = floor_log2_byte(((uint32_t)lod >> 5) & 0xff);
        *distant = rdp->max_level ? ((lod & 0x6000) || *level >= rdp->max_level) : true;
        if (plain && *distant)
            *frac = 0xff;
        else
            *frac = (int32_t)((((uint32_t)lod << 3) >> *level) & 0xff);
    }
}
