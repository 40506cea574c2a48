/* fmath: scalar functions without libm (see fmath.h). Bits are read through unions, which
 * is defined in C11 and independent of the byte order. */
#include "fmath.h"

typedef union {
    float f;
    uint32_t u;
} fbits;

typedef union {
    double d;
    uint64_t u;
} dbits;

int fmath_isfinite(float x)
{
    fbits b = {x};
    return (b.u & 0x7F800000u) != 0x7F800000u;
}

float fmath_nan(void)
{
    fbits b;
    b.u = 0x7FC00000u;
    return b.f;
}

float fmath_abs(float x)
{
    fbits b = {x};
    b.u &= 0x7FFFFFFFu;
    return b.f;
}

float fmath_floor(float x)
{
    fbits b = {x};
    int e = (int)((b.u >> 23) & 0xFF) - 127;
    if (e >= 23) /* no fraction bits: an integer, an infinity or NaN */
        return x;
    if (e < 0) { /* |x| < 1 */
        if ((b.u & 0x7FFFFFFFu) == 0)
            return x;
        return (b.u >> 31) ? -1.0f : 0.0f;
    }
    uint32_t fraction = 0x007FFFFFu >> e;
    if ((b.u & fraction) == 0)
        return x;
    if (b.u >> 31) /* negative: one more in magnitude (the carry may reach the exponent) */
        b.u += 0x00800000u >> e;
    b.u &= ~fraction;
    return b.f;
}

/* The same for doubles. */
static double floor_d(double x)
{
    dbits b = {x};
    int e = (int)((b.u >> 52) & 0x7FF) - 1023;
    if (e >= 52)
        return x;
    if (e < 0) {
        if ((b.u << 1) == 0)
            return x;
        return (b.u >> 63) ? -1.0 : 0.0;
    }
    uint64_t fraction = UINT64_C(0x000FFFFFFFFFFFFF) >> e;
    if ((b.u & fraction) == 0)
        return x;
    if (b.u >> 63)
        b.u += UINT64_C(0x0010000000000000) >> e;
    b.u &= ~fraction;
    return b.d;
}

static double trunc_d(double x)
{
    return x < 0 ? -floor_d(-x) : floor_d(x);
}

float fmath_sqrt(float x)
{
    if (x != x || x == 0.0f)
        return x; /* NaN, +0, -0 */
    if (x < 0.0f)
        return fmath_nan();
    if (!fmath_isfinite(x))
        return x;
    double d = x; /* exact, denormals included */
    /* Halving the exponent gives an estimate within 6%; Newton's method then doubles the
     * correct bits on every step: 5 steps are far beyond double precision. */
    dbits g = {d};
    g.u = (g.u >> 1) + UINT64_C(0x1FF8000000000000);
    double y = g.d;
    for (int i = 0; i < 5; i++)
        y = 0.5 * (y + d / y);
    return (float)y;
}

/* pi/2 in three parts: the first two have 33 significant bits, so that k times them is
 * exact for k below 2^20; their sum is pi/2 to about 1e-37 relative. */
static const double PIO2_1 = 1.57079632673412561417e+00;
static const double PIO2_2 = 6.07710050630396597660e-11;
static const double PIO2_3 = 2.02226624879595063154e-21;
static const double INV_PIO2 = 6.36619772367581382433e-01;
static const double TWO_PI = 6.28318530717958647693e+00;
static const double INV_TWO_PI = 1.59154943091895335769e-01;

/* x = k * pi/2 + r with |r| <= pi/4 (a little more after rounding); returns k mod 4. */
static int reduce(double d, double *r)
{
    if (d >= 268435456.0 || d <= -268435456.0) /* 2^28: first bring it near 0 (inexactly) */
        d -= floor_d(d * INV_TWO_PI) * TWO_PI;
    double k = floor_d(d * INV_PIO2 + 0.5);
    double quadrant = k - 4.0 * floor_d(k * 0.25);
    /* k = hi + lo, hi a multiple of 2^20 and |lo| < 2^20: both products with PIO2_1 exact */
    double hi = trunc_d(k * (1.0 / 1048576.0)) * 1048576.0;
    double lo = k - hi;
    *r = (((d - hi * PIO2_1) - lo * PIO2_1) - k * PIO2_2) - k * PIO2_3;
    return (int)quadrant;
}

/* Taylor series on |r| <= pi/4 (a little more): the first term left out is below 1e-13. */
static double sin_r(double r)
{
    double r2 = r * r;
    return r + r * r2 *
                   (-1.0 / 6 +
                    r2 * (1.0 / 120 +
                          r2 * (-1.0 / 5040 +
                                r2 * (1.0 / 362880 + r2 * (-1.0 / 39916800.0 + r2 * (1.0 / 6227020800.0))))));
}

static double cos_r(double r)
{
    double r2 = r * r;
    return 1.0 +
           r2 * (-0.5 +
                 r2 * (1.0 / 24 +
                       r2 * (-1.0 / 720 +
                             r2 * (1.0 / 40320 +
                                   r2 * (-1.0 / 3628800.0 + r2 * (1.0 / 479001600.0 + r2 * (-1.0 / 87178291200.0)))))));
}

/* sin and cos of x in double. */
static void sincos_d(float x, double *s, double *c)
{
    double r;
    int q = reduce(x, &r);
    double sr = sin_r(r), cr = cos_r(r);
    switch (q) {
    case 0:
        *s = sr;
        *c = cr;
        break;
    case 1:
        *s = cr;
        *c = -sr;
        break;
    case 2:
        *s = -sr;
        *c = -cr;
        break;
    default:
        *s = -cr;
        *c = sr;
        break;
    }
}

void fmath_sincos(float x, float *s, float *c)
{
    if (!fmath_isfinite(x)) {
        *s = *c = fmath_nan();
        return;
    }
    double sd, cd;
    sincos_d(x, &sd, &cd);
    *s = (float)sd;
    *c = (float)cd;
}

float fmath_sin(float x)
{
    float s, c;
    fmath_sincos(x, &s, &c);
    return s;
}

float fmath_cos(float x)
{
    float s, c;
    fmath_sincos(x, &s, &c);
    return c;
}

float fmath_tan(float x)
{
    if (!fmath_isfinite(x))
        return fmath_nan();
    double s, c;
    sincos_d(x, &s, &c);
    return (float)(s / c); /* c is never 0: no float is a multiple of pi/2 but 0 */
}

float fmath_radians(float degrees)
{
    return (float)((double)degrees * (3.14159265358979323846 / 180.0));
}

float fmath_wrap(float x, float period)
{
    if (!(period > 0.0f) || !fmath_isfinite(period) || !fmath_isfinite(x))
        return 0.0f;
    if (x >= 0.0f && x < period)
        return x;
    double k = floor_d((double)x / (double)period);
    float r = (float)((double)x - k * (double)period); /* exact before the one rounding */
    if (r < 0.0f)
        r += period;
    if (r >= period)
        r = 0.0f;
    return r;
}
