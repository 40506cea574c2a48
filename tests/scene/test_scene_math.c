/* n64/scene fmath and mat4: the libm-free functions against libm over sweeps of arguments,
 * and the matrix identities the scene code relies on. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "fmath.h"
#include "mat4.h"

/* |got - want| within `rel` of |want|, or within `abs_tol` near zero. */
static int close_to(double got, double want, double rel, double abs_tol)
{
    if (isnan(want))
        return isnan(got);
    if (isinf(want))
        return got == want;
    double d = fabs(got - want);
    return d <= abs_tol || d <= rel * fabs(want);
}

/* A deterministic sweep: n values from lo to hi, plus some irregular ones in between. */
static float sweep(int i, int n, float lo, float hi)
{
    double t = (double)i / (n - 1);
    double jitter = (double)((i * 2654435761u) % 1000u) / 1000.0 / n;
    return (float)(lo + (hi - lo) * (t + (i < n - 1 ? jitter : 0.0)));
}

Test(fmath, sqrt_matches_libm)
{
    for (int i = 0; i < 20000; i++) {
        float x = sweep(i, 20000, 0.0f, 1000.0f);
        cr_assert(close_to(fmath_sqrt(x), sqrtf(x), 1e-7, 0), "sqrt(%.9g) = %.9g, libm %.9g", x, fmath_sqrt(x),
                  sqrtf(x));
    }
    /* every binade, denormals included */
    for (float x = FLT_MIN / 1024; x < FLT_MAX / 4; x *= 3.7f)
        cr_assert(close_to(fmath_sqrt(x), sqrtf(x), 1e-7, 0), "sqrt(%g) = %.9g, libm %.9g", x, fmath_sqrt(x),
                  sqrtf(x));
    cr_assert_eq(fmath_sqrt(0.0f), 0.0f);
    cr_assert(signbit(fmath_sqrt(-0.0f)));
    cr_assert(isnan(fmath_sqrt(-1.0f)));
    cr_assert(isnan(fmath_sqrt(NAN)));
    cr_assert(isinf(fmath_sqrt(INFINITY)));
    cr_assert_eq(fmath_sqrt(4.0f), 2.0f);
    cr_assert_eq(fmath_sqrt(1e-40f) > 0.0f, 1);
}

Test(fmath, sin_cos_tan_match_libm)
{
    /* small angles, one turn, many turns, and the far ones animations never reach */
    const float ranges[][2] = {{-1e-3f, 1e-3f}, {-7.0f, 7.0f}, {-1000.0f, 1000.0f}, {-1e6f, 1e6f}, {1e6f, 2.6e8f}};
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
        for (int i = 0; i < 20000; i++) {
            float x = sweep(i, 20000, ranges[r][0], ranges[r][1]);
            double s = sin((double)x), c = cos((double)x), t = tan((double)x);
            float fs, fc;
            fmath_sincos(x, &fs, &fc);
            /* relative to 1e-6, and to one float ulp of 1 near the zeros */
            cr_assert(close_to(fs, s, 1e-6, 1.2e-7), "sin(%.9g) = %.9g, libm %.9g", x, fs, s);
            cr_assert(close_to(fc, c, 1e-6, 1.2e-7), "cos(%.9g) = %.9g, libm %.9g", x, fc, c);
            cr_assert_eq(fmath_sin(x), fs);
            cr_assert_eq(fmath_cos(x), fc);
            cr_assert(close_to(fmath_tan(x), t, 1e-6, 1.2e-7), "tan(%.9g) = %.9g, libm %.9g", x, fmath_tan(x), t);
        }
    cr_assert_eq(fmath_sin(0.0f), 0.0f);
    cr_assert_eq(fmath_cos(0.0f), 1.0f);
    cr_assert(isnan(fmath_sin(INFINITY)) && isnan(fmath_cos(-INFINITY)) && isnan(fmath_tan(NAN)));
    /* huge arguments stay in range */
    float s, c;
    fmath_sincos(3e38f, &s, &c);
    cr_assert(fabsf(s) <= 1.0f && fabsf(c) <= 1.0f, "%g %g", s, c);
}

Test(fmath, floor_abs_wrap)
{
    for (int i = 0; i < 20000; i++) {
        float x = sweep(i, 20000, -70000.0f, 70000.0f) / 7.0f;
        cr_assert_eq(fmath_floor(x), floorf(x), "floor(%.9g)", x);
        cr_assert_eq(fmath_abs(x), fabsf(x));
    }
    const float special[] = {0.0f, -0.0f, 0.5f, -0.5f, 1.0f, -1.0f, -1.5f, 8388607.5f, -8388607.5f, 1e30f, -1e30f,
                             INFINITY, -INFINITY, 1e-45f, -1e-45f, 0.99999994f, -0.99999994f};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
        float x = special[i];
        cr_assert_eq(fmath_floor(x), floorf(x), "floor(%g)", x);
        cr_assert_eq(signbit(fmath_floor(x)), signbit(floorf(x)), "floor(%g) sign", x);
    }
    cr_assert(isnan(fmath_floor(NAN)));
    cr_assert(fmath_isfinite(1.0f) && !fmath_isfinite(INFINITY) && !fmath_isfinite(NAN));
    cr_assert(isnan(fmath_nan()));
    cr_assert(close_to(fmath_radians(180.0f), 3.14159265358979323846, 1e-7, 0));

    /* wrap: [period, 2 period) is exactly one float subtraction, as tiny3d loops */
    const float d = 0.6666667f;
    for (int i = 0; i < 1000; i++) {
        float t = d + (float)i * d / 1000.0f;
        if (t >= 2 * d)
            continue;
        cr_assert_eq(fmath_wrap(t, d), t - d, "wrap(%.9g)", t);
    }
    for (int i = -3000; i < 3000; i++) {
        float t = (float)i * 0.01f;
        float w = fmath_wrap(t, d);
        cr_assert(w >= 0.0f && w < d, "wrap(%g) = %g", t, w);
        double want = fmod((double)t, (double)d);
        if (want < 0)
            want += d;
        cr_assert(fabs(w - want) < 1e-5 || fabs(fabs(w - want) - d) < 1e-5, "wrap(%g) = %g, want %g", t, w, want);
    }
    cr_assert_eq(fmath_wrap(0.25f, d), 0.25f);
    cr_assert_eq(fmath_wrap(1.0f, 0.0f), 0.0f);
    cr_assert_eq(fmath_wrap(1.0f, -1.0f), 0.0f);
    cr_assert_eq(fmath_wrap(NAN, 1.0f), 0.0f);
    cr_assert_eq(fmath_wrap(1.0f, INFINITY), 0.0f);
}

/* ---- mat4 ---- */

static int mat_close(const mat4 *a, const mat4 *b, float tol)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            if (fabsf(a->m[c][r] - b->m[c][r]) > tol * (1.0f + fabsf(b->m[c][r])))
                return 0;
    return 1;
}

static void quat_axis_angle(float q[4], float x, float y, float z, float angle)
{
    float n = sqrtf(x * x + y * y + z * z);
    float s = sinf(angle / 2) / n;
    q[0] = x * s;
    q[1] = y * s;
    q[2] = z * s;
    q[3] = cosf(angle / 2);
}

Test(mat4, srt_is_translation_times_rotation_times_scale)
{
    for (int i = 0; i < 200; i++) {
        float s[3] = {0.5f + i * 0.01f, 2.0f - i * 0.005f, 1.0f + (i % 7) * 0.1f};
        float q[4];
        quat_axis_angle(q, 1.0f + i, -2.0f + i * 0.3f, 0.5f, i * 0.1f);
        float t[3] = {i * 1.5f, -i * 0.25f, 100.0f - i};
        mat4 srt, T, R, S, TR, TRS;
        mat4_from_srt(&srt, s, q, t);
        float one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
        mat4_translation(&T, t[0], t[1], t[2]);
        mat4_from_srt(&R, one, q, zero);
        mat4_scaling(&S, s[0], s[1], s[2]);
        mat4_mul(&TR, &T, &R);
        mat4_mul(&TRS, &TR, &S);
        cr_assert(mat_close(&srt, &TRS, 1e-6f), "T*R*S differs at %d", i);
        /* R is a rotation: R * R^T = I, and it rotates as the quaternion does (v' = q v q*) */
        float v[3] = {0.3f, -1.0f, 2.0f}, out[4];
        mat4_transform_point(&R, v, out);
        double qx = q[0], qy = q[1], qz = q[2], qw = q[3];
        /* t = 2 q.xyz x v; v' = v + w t + q.xyz x t */
        double tx = 2 * (qy * v[2] - qz * v[1]), ty = 2 * (qz * v[0] - qx * v[2]), tz = 2 * (qx * v[1] - qy * v[0]);
        double want[3] = {v[0] + qw * tx + (qy * tz - qz * ty), v[1] + qw * ty + (qz * tx - qx * tz),
                          v[2] + qw * tz + (qx * ty - qy * tx)};
        for (int k = 0; k < 3; k++)
            cr_assert(fabs(out[k] - want[k]) < 1e-5, "rotation %d component %d: %g vs %g", i, k, out[k], want[k]);
        cr_assert_eq(out[3], 1.0f);
    }
}

Test(mat4, multiply_applies_the_right_matrix_first)
{
    mat4 T, S, TS;
    mat4_translation(&T, 10, 20, 30);
    mat4_scaling(&S, 2, 3, 4);
    mat4_mul(&TS, &T, &S); /* scale, then translate */
    float p[3] = {1, 1, 1}, out[4];
    mat4_transform_point(&TS, p, out);
    cr_assert(out[0] == 12 && out[1] == 23 && out[2] == 34 && out[3] == 1, "%g %g %g %g", out[0], out[1], out[2],
              out[3]);
    /* column-major: the translation is column 3 */
    cr_assert(TS.m[3][0] == 10 && TS.m[3][1] == 20 && TS.m[3][2] == 30);
    /* aliasing: out may be an input */
    mat4 A = TS;
    mat4_mul(&A, &A, &A);
    mat4 B;
    mat4_mul(&B, &TS, &TS);
    cr_assert(memcmp(&A, &B, sizeof A) == 0);
    mat4 I;
    mat4_identity(&I);
    mat4_mul(&A, &I, &TS);
    cr_assert(memcmp(&A, &TS, sizeof A) == 0);
}

Test(mat4, inverse)
{
    for (int i = 0; i < 200; i++) {
        float s[3] = {0.5f + i * 0.01f, 2.0f, 1.0f + (i % 5) * 0.3f};
        float q[4];
        quat_axis_angle(q, 0.2f, 1.0f, -0.4f + i * 0.01f, i * 0.07f);
        float t[3] = {i * 3.0f, 7.0f, -i * 0.5f};
        mat4 m, inv;
        mat4_from_srt(&m, s, q, t);
        if (i % 3 == 0) { /* a projective matrix too */
            mat4 p;
            mat4_perspective(&p, 1.0f, 1.5f, 1.0f, 500.0f);
            mat4_mul(&m, &p, &m);
        }
        cr_assert(mat4_invert(&inv, &m), "matrix %d is invertible", i);
        /* in double, against the rounding the float entries allow: |M| |M^-1| float epsilons */
        double nm = 0, ni = 0;
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++) {
                nm = fmax(nm, fabs(m.m[c][r]));
                ni = fmax(ni, fabs(inv.m[c][r]));
            }
        double tol = 16 * nm * ni * FLT_EPSILON;
        for (int order = 0; order < 2; order++)
            for (int c = 0; c < 4; c++)
                for (int r = 0; r < 4; r++) {
                    const mat4 *a = order ? &inv : &m, *b = order ? &m : &inv;
                    double v = 0;
                    for (int k = 0; k < 4; k++)
                        v += (double)a->m[k][r] * b->m[c][k];
                    cr_assert(fabs(v - (c == r)) <= tol, "%s at %d: [%d][%d] = %g (tolerance %g)",
                              order ? "M^-1 * M" : "M * M^-1", i, c, r, v, tol);
                }
    }
    mat4 z = {{{0}}}, out;
    mat4_identity(&out);
    cr_assert_eq(mat4_invert(&out, &z), 0, "a singular matrix has no inverse");
    mat4 id;
    mat4_identity(&id);
    cr_assert(memcmp(&out, &id, sizeof out) == 0, "out is left unchanged");
    z.m[0][0] = NAN;
    cr_assert_eq(mat4_invert(&out, &z), 0);
}

Test(mat4, perspective_maps_near_and_far_to_minus_one_and_one)
{
    const float nears[] = {0.1f, 1.0f, 10.0f, 123.0f}, fars[] = {10.0f, 100.0f, 5000.0f, 40000.0f};
    for (int i = 0; i < 4; i++) {
        mat4 p;
        float n = nears[i], f = fars[i];
        mat4_perspective(&p, fmath_radians(60.0f), 4.0f / 3.0f, n, f);
        float pn[3] = {0, 0, -n}, pf[3] = {0, 0, -f}, out[4];
        mat4_transform_point(&p, pn, out);
        cr_assert(fabsf(out[2] / out[3] + 1.0f) < 1e-5f, "near -> %g", out[2] / out[3]);
        cr_assert(fabsf(out[3] - n) < 1e-5f * n, "clip w is the distance: %g", out[3]);
        mat4_transform_point(&p, pf, out);
        cr_assert(fabsf(out[2] / out[3] - 1.0f) < 1e-4f, "far -> %g", out[2] / out[3]);
        /* the top edge of the view at distance d is at d * tan(fov / 2): NDC y = 1 */
        float d = (n + f) / 2, top[3] = {0, d * tanf(fmath_radians(30.0f)), -d};
        mat4_transform_point(&p, top, out);
        cr_assert(fabsf(out[1] / out[3] - 1.0f) < 1e-5f, "top -> %g", out[1] / out[3]);
        float right[3] = {d * tanf(fmath_radians(30.0f)) * 4.0f / 3.0f, 0, -d};
        mat4_transform_point(&p, right, out);
        cr_assert(fabsf(out[0] / out[3] - 1.0f) < 1e-5f, "right -> %g", out[0] / out[3]);
    }
}

Test(mat4, look_at)
{
    float eye[3] = {10, 5, -3}, target[3] = {1, 2, 3}, up[3] = {0, 1, 0}, out[4];
    mat4 v;
    mat4_look_at(&v, eye, target, up);
    mat4_transform_point(&v, eye, out);
    cr_assert(fabsf(out[0]) < 1e-5f && fabsf(out[1]) < 1e-5f && fabsf(out[2]) < 1e-5f, "the eye is the origin");
    mat4_transform_point(&v, target, out);
    float dist = sqrtf(81 + 9 + 36);
    cr_assert(fabsf(out[0]) < 1e-5f && fabsf(out[1]) < 1e-5f && fabsf(out[2] + dist) < 1e-4f,
              "the target is straight ahead on -Z: %g %g %g", out[0], out[1], out[2]);
    float above[3] = {target[0], target[1] + 1, target[2]};
    mat4_transform_point(&v, above, out);
    cr_assert(out[1] > 0.5f, "up stays up: %g", out[1]);
    /* rigid: the rotation part is orthonormal */
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            float d = v.m[0][a] * v.m[0][b] + v.m[1][a] * v.m[1][b] + v.m[2][a] * v.m[2][b];
            cr_assert(fabsf(d - (a == b)) < 1e-6f);
        }
}

static int32_t fixed_at(const uint8_t b[64], int c, int r)
{
    int at = 8 * c + 2 * r;
    uint32_t u = (uint32_t)b[at] << 24 | (uint32_t)b[at + 1] << 16 | (uint32_t)b[32 + at] << 8 | b[32 + at + 1];
    return (int32_t)u;
}

Test(mat4, fixed_point_layout_of_the_rsp)
{
    mat4 m;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            m.m[c][r] = (float)(c * 4 + r) * 1.25f - 7.0f + 1.0f / 65536 * (r + 1);
    uint8_t b[64];
    cr_assert_eq(mat4_to_fixed(&m, b), 0);
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double want = m.m[c][r] * 65536.0;
            cr_assert_eq(fixed_at(b, c, r), (int32_t)lrint(want), "[%d][%d]", c, r);
        }
    /* column 0 row 1 is -5.75 + 2/65536 = -6 + 0x4002/65536: integer part 0xFFFA at byte 2,
     * fraction 0x4002 at byte 34 */
    cr_assert(b[2] == 0xFF && b[3] == 0xFA && b[34] == 0x40 && b[35] == 0x02, "%02x%02x %02x%02x", b[2], b[3], b[34],
              b[35]);
    m.m[1][2] = 40000.0f;
    m.m[2][1] = -40000.0f;
    m.m[3][3] = NAN;
    cr_assert_eq(mat4_to_fixed(&m, b), 3);
    cr_assert_eq(fixed_at(b, 1, 2), INT32_MAX);
    cr_assert_eq(fixed_at(b, 2, 1), INT32_MIN);
    cr_assert_eq(fixed_at(b, 3, 3), 0);
    m.m[0][0] = -32768.0f;
    m.m[1][2] = 32767.99609375f; /* the largest float below 32768 */
    m.m[2][1] = 0.0f;
    m.m[3][3] = 1.0f;
    cr_assert_eq(mat4_to_fixed(&m, b), 0, "the whole s16.16 range fits");
    cr_assert_eq(fixed_at(b, 0, 0), INT32_MIN);
}
