/* The reciprocal and inverse-square-root ROMs of the vector unit, computed
 * from their definitions instead of being stored as data. */
#include "rsp_internal.h"

/* Entry i approximates 1 / (1 + i/512) as a 0.16 fraction (the leading 1 is
 * implicit), rounded: ((2^34 / (512 + i)) + 1) >> 8, keeping 16 bits. The exact
 * value 1.0 of entry 0 does not fit and saturates to 0xFFFF. */
static uint16_t reciprocal_entry(unsigned i)
{
    if (i == 0)
        return 0xFFFFu;
    uint64_t quotient = (UINT64_C(1) << 34) / (512u + i);
    return (uint16_t)((quotient + 1) >> 8);
}

/* Largest c with c * c <= n. */
static uint64_t integer_sqrt(uint64_t n)
{
    uint64_t low = 0, high = UINT64_C(1) << 32;
    while (high - low > 1) {
        uint64_t mid = low + (high - low) / 2;
        if (mid * mid <= n)
            low = mid;
        else
            high = mid;
    }
    return low;
}

/* Even entries cover inputs 512..1022 in steps of 2 (an even exponent), odd
 * entries inputs 256..511 (an odd exponent, so the mantissa was halved). The
 * entry is the largest b with a * b^2 < 2^44, i.e. b < 2^22 / sqrt(a), halved
 * and truncated to 16 bits. */
static uint16_t inverse_sqrt_entry(unsigned i)
{
    uint64_t a = (i & 1u) ? (512u + i) >> 1 : 512u + i;
    uint64_t b = integer_sqrt(((UINT64_C(1) << 44) - 1) / a);
    return (uint16_t)(b >> 1);
}

void rsp_tables_generate(uint16_t rcp_rom[512], uint16_t rsq_rom[512])
{
    for (unsigned i = 0; i < 512; i++) {
        rcp_rom[i] = reciprocal_entry(i);
        rsq_rom[i] = inverse_sqrt_entry(i);
    }
}
