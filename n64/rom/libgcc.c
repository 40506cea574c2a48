/* The helpers GCC calls on 32-bit MIPS for what the CPU does not do in one
 * instruction under the o32 ABI: 64-bit division, double to 64-bit integer.
 * Debian's libgcc for mips-linux-gnu is MIPS32r2 position-independent code and
 * cannot be linked with this VR4300 program, so the ROM brings its own. */
#include <stdint.h>

uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
int64_t __fixdfdi(double x);

/* Shift and subtract, a bit at a time. Division by zero gives all ones. */
static uint64_t divide(uint64_t n, uint64_t d, uint64_t *remainder)
{
    if (d == 0) {
        *remainder = n;
        return UINT64_MAX;
    }
    uint64_t q = 0, r = 0;
    for (int i = 63; i >= 0; i--) {
        r = r << 1 | (n >> i & 1u);
        if (r >= d) {
            r -= d;
            q |= UINT64_C(1) << i;
        }
    }
    *remainder = r;
    return q;
}

uint64_t __udivdi3(uint64_t n, uint64_t d)
{
    uint64_t r;
    return divide(n, d, &r);
}

uint64_t __umoddi3(uint64_t n, uint64_t d)
{
    uint64_t r;
    divide(n, d, &r);
    return r;
}

/* Toward zero; out of range saturates, NaN gives 0. */
int64_t __fixdfdi(double x)
{
    union {
        double d;
        uint64_t u;
    } b = {x};
    int exponent = (int)(b.u >> 52 & 0x7FFu) - 1023;
    int negative = (int)(b.u >> 63);
    if (exponent == 1024 && (b.u << 12) != 0)
        return 0;
    if (exponent < 0)
        return 0;
    if (exponent >= 63)
        return negative ? INT64_MIN : INT64_MAX;
    uint64_t mantissa = (b.u & ((UINT64_C(1) << 52) - 1u)) | UINT64_C(1) << 52;
    uint64_t v = exponent >= 52 ? mantissa << (exponent - 52) : mantissa >> (52 - exponent);
    return negative ? -(int64_t)v : (int64_t)v;
}
