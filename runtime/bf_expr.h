/* Arithmetic for generated expressions: 64-bit, wrapping, never undefined. Values from
 * files are hostile, so overflow wraps, division by zero is an error, shifts are masked. */
#ifndef BF_EXPR_H
#define BF_EXPR_H

#include "bf_gen.h"

static inline int64_t bf_wrap(uint64_t v) { return bf_s64(v); }
static inline int64_t bf_add(int64_t a, int64_t b) { return bf_wrap((uint64_t)a + (uint64_t)b); }
static inline int64_t bf_sub(int64_t a, int64_t b) { return bf_wrap((uint64_t)a - (uint64_t)b); }
static inline int64_t bf_mul(int64_t a, int64_t b) { return bf_wrap((uint64_t)a * (uint64_t)b); }
static inline int64_t bf_neg(int64_t a) { return bf_wrap(0u - (uint64_t)a); }
static inline int64_t bf_shl(int64_t a, int64_t b) { return bf_wrap((uint64_t)a << (b & 63)); }
/* Arithmetic shift right, written without relying on implementation-defined `>>` of negatives. */
static inline int64_t bf_shr(int64_t a, int64_t b)
{
    unsigned n = (unsigned)(b & 63);
    return a >= 0 ? (int64_t)((uint64_t)a >> n) : bf_wrap(~(~(uint64_t)a >> n));
}
static inline int64_t bf_div(bf_ctx *c, int64_t a, int64_t b)
{
    if (b == 0) {
        bf_fail(c, c->pos, NULL, "division by zero in a size or count expression");
        return 0;
    }
    if (b == -1)
        return bf_neg(a);
    return a / b;
}
static inline int64_t bf_mod(bf_ctx *c, int64_t a, int64_t b)
{
    if (b == 0) {
        bf_fail(c, c->pos, NULL, "division by zero in a size or count expression");
        return 0;
    }
    if (b == -1)
        return 0;
    return a % b;
}
static inline int64_t bf_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t bf_nonzero_or(int64_t a, int64_t b) { return a != 0 ? a : b; }
static inline int64_t bf_max(int64_t a, int64_t b) { return a > b ? a : b; }
static inline double bf_minf(double a, double b) { return a < b ? a : b; }
static inline double bf_maxf(double a, double b) { return a > b ? a : b; }

/* Element `i` of an array read from a file, or 0 with an error when out of range. */
static inline int bf_check_index(bf_ctx *c, int64_t i, uint64_t n)
{
    if (i >= 0 && (uint64_t)i < n)
        return 1;
    bf_fail(c, c->pos, NULL, "index %lld is outside an array of %llu elements", (long long)i,
            (unsigned long long)n);
    return 0;
}
#define BF_AT_PRIM(name, ctype, result)                                                    \
    static inline result bf_at_##name(bf_ctx *c, const ctype *a, uint64_t n, int64_t i) \
    {                                                                                      \
        return bf_check_index(c, i, n) ? (result)a[i] : (result)0;                         \
    }
BF_AT_PRIM(u8, uint8_t, int64_t)
BF_AT_PRIM(char, uint8_t, int64_t)
BF_AT_PRIM(u16, uint16_t, int64_t)
BF_AT_PRIM(u24, uint32_t, int64_t)
BF_AT_PRIM(u32, uint32_t, int64_t)
BF_AT_PRIM(u64, uint64_t, int64_t)
BF_AT_PRIM(s8, int8_t, int64_t)
BF_AT_PRIM(s16, int16_t, int64_t)
BF_AT_PRIM(s24, int32_t, int64_t)
BF_AT_PRIM(s32, int32_t, int64_t)
BF_AT_PRIM(s64, int64_t, int64_t)
BF_AT_PRIM(f32, float, double)
BF_AT_PRIM(f64, double, double)
#undef BF_AT_PRIM

#endif
