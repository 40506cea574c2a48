/* fmath: the few scalar functions the scene code needs, without libm.
 *
 * Freestanding: no libc, no libm, no errno. Each function is computed in double precision
 * and rounded to float once, so results are within about one float ulp (1e-7 relative) of
 * the exact value; the tests compare them with libm over sweeps of arguments.
 *
 * Special values: sqrt of a negative number or NaN is NaN, sqrt(+inf) is +inf; sin, cos and
 * tan of an infinity or NaN are NaN. Trigonometric arguments are reduced with pi/2 split
 * into three parts, exact enough for any float below 2^28 radians (beyond that the result
 * stays in [-1, 1] but loses precision). */
#ifndef N64_SCENE_FMATH_H
#define N64_SCENE_FMATH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FMATH_PI 3.14159265358979323846f

/* 1 when x is neither infinite nor NaN. */
int fmath_isfinite(float x);
/* A quiet NaN. */
float fmath_nan(void);

float fmath_abs(float x);
/* Largest integer not above x (x itself for infinities, NaN and integers; -0 stays -0). */
float fmath_floor(float x);
float fmath_sqrt(float x);
float fmath_sin(float x);
float fmath_cos(float x);
/* Both at once (one argument reduction). */
void fmath_sincos(float x, float *s, float *c);
float fmath_tan(float x);

/* Degrees to radians. */
float fmath_radians(float degrees);

/* x wrapped into [0, period): x - floor(x / period) * period, computed so that for x in
 * [period, 2 * period) it is exactly the float subtraction x - period. Returns 0 when
 * period is not a positive finite number or x is not finite. */
float fmath_wrap(float x, float period);

#ifdef __cplusplus
}
#endif

#endif
