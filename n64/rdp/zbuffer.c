/* Z buffer: 18-bit depth stored as a 14-bit floating-point value
 * (3-bit exponent = count of leading ones, 11-bit mantissa) in bits 15..2,
 * with a 4-bit power-of-two delta Z split between bits 1..0 and the two
 * hidden bits. */
#include "rdp_internal.h"

/* exponent e: mantissa shift and the offset of its range */
static const uint8_t z_shift[8] = {6, 5, 4, 3, 2, 1, 0, 0};
static const uint32_t z_base[8] = {0x00000, 0x20000, 0x30000, 0x38000, 0x3c000, 0x3e000, 0x3f000, 0x3f800};

uint32_t rdp_z_decompress(uint16_t z)
{
    uint32_t e = (z >> 13) & 7, mantissa = (z >> 2) & 0x7ff;
    return ((mantissa << z_shift[e]) + z_base[e]) & 0x3ffff;
}

uint16_t rdp_z_compress(uint32_t z)
{
    z &= 0x3ffff;
    unsigned e = 0;
    while (e < 7 && (z >> (17 - e) & 1))
        e++;
    uint32_t mantissa = (z >> z_shift[e]) & 0x7ff;
    return (uint16_t)(e << 13 | mantissa << 2);
}

/* Delta Z encoding: the bitwise OR of the positions of the set bits (the
 * bit number for the powers of two the pipeline produces). */
uint32_t rdp_dz_compress(uint32_t dz)
{
    uint32_t e = 0;
    for (uint32_t bit = 0; bit < 16; bit++)
        if (dz >> bit & 1)
            e |= bit;
    return e;
}

/* Sum of |dz/dx| and |dz/dy| rounded up to a power of two (twice the top
 * set bit), with the special cases of the hardware. */
int32_t rdp_normalize_dzpix(int32_t sum)
{
    if (sum & 0xc000)
        return 0x8000;
    if (!(sum & 0xffff))
        return 1;
    if (sum == 1)
        return 3;
    for (int32_t bit = 0x2000; bit > 0; bit >>= 1)
        if (sum & bit)
            return bit << 1;
    return 0;
}

static inline uint32_t top_power_of_two(uint32_t v)
{
    uint32_t p = 0;
    for (uint32_t bit = 0x8000; bit; bit >>= 1)
        if (v & bit) {
            p = bit;
            break;
        }
    return p;
}

static inline int32_t clamp_shift(int32_t v)
{
    return v < 0 ? 0 : (v > 4 ? 4 : v);
}

bool rdp_z_compare(rdp_t *rdp, uint32_t zindex, uint32_t sz, uint16_t dzpix, int dzpix_enc, bool *blend_en, bool *prewrap, uint32_t *cvg, uint32_t mem_cvg)
{
    const rdp_other_modes_t *m = &rdp->om;
    bool overflow = ((mem_cvg + *cvg) & 8) != 0;
    *prewrap = overflow;

    if (!m->z_compare) {
        if (rdp->d.shifters_now) {
            rdp->bl_shift_a = 0;
            rdp->bl_shift_b = dzpix_enc < 0xb ? 4 : 0xf - dzpix_enc;
        }
        if (rdp->d.shifters_previous) {
            rdp->past_bl_shift_a = 0;
            rdp->past_bl_shift_b = dzpix_enc < 0xb ? 4 : 0xf - dzpix_enc;
        }
        rdp->past_raw_dz = 0xf;
        *blend_en = m->force_blend || (!overflow && m->antialias);
        return true;
    }

    sz &= 0x3ffff;
    uint16_t zval;
    uint8_t hval;
    rdram_read16_hidden(rdp, zindex, &zval, &hval);
    uint32_t oz = rdp_z_decompress(zval);
    int32_t raw_dz = (int32_t)((zval & 3) << 2 | hval);
    uint32_t dzmem = 1u << raw_dz;

    if (rdp->d.shifters_now) {
        rdp->bl_shift_a = clamp_shift(dzpix_enc - raw_dz);
        rdp->bl_shift_b = clamp_shift(raw_dz - dzpix_enc);
    }
    if (rdp->d.shifters_previous) {
        rdp->past_bl_shift_a = clamp_shift(dzpix_enc - rdp->past_raw_dz);
        rdp->past_bl_shift_b = clamp_shift(rdp->past_raw_dz - dzpix_enc);
    }
    rdp->past_raw_dz = raw_dz;

    /* small stored exponents: widen the stored delta (or treat as coplanar) */
    bool coplanar = false;
    uint32_t exponent = (zval >> 13) & 7;
    if (exponent < 3) {
        if (dzmem != 0x8000) {
            uint32_t floor_dz = 16u >> exponent;
            dzmem <<= 1;
            if (dzmem < floor_dz)
                dzmem = floor_dz;
        } else {
            coplanar = true;
            dzmem = 0xffff;
        }
    }

    uint32_t dz_unscaled = top_power_of_two((dzpix | dzmem) & 0xffff);
    uint32_t dznew = dz_unscaled << 3;
    bool farther = coplanar || (sz + dznew >= oz);
    *blend_en = m->force_blend || (!overflow && m->antialias && farther);

    bool infront = sz < oz;
    bool at_max = oz == 0x3ffff;
    bool nearer = coplanar || ((int32_t)sz - (int32_t)dznew <= (int32_t)oz);

    switch (m->z_mode) {
    case 0: /* opaque */
        return at_max || (overflow ? infront : nearer);
    case 1: /* interpenetrating */
        if (!infront || !farther || !overflow)
            return at_max || (overflow ? infront : nearer);
        {
            uint32_t e = rdp_dz_compress(dz_unscaled & 0xffff);
            uint32_t coeff = ((oz >> e) - (sz >> e)) & 0xf;
            *cvg = ((coeff * *cvg) >> 3) & 0xf;
        }
        return true;
    case 2: /* transparent */
        return infront || at_max;
    default: /* decal */
        return farther && nearer && !at_max;
    }
}

void rdp_z_store(rdp_t *rdp, uint32_t zindex, uint32_t z, int dzpix_enc)
{
    uint16_t value = (uint16_t)(rdp_z_compress(z & 0x3ffff) | (uint32_t)(dzpix_enc >> 2));
    rdram_write16_hidden(rdp, zindex, value, (uint8_t)(dzpix_enc & 3), false);
}
