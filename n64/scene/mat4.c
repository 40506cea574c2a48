/* mat4: 4x4 float matrices, column vectors, column-major (see mat4.h). */
#include "mat4.h"

#include "fmath.h"

void mat4_identity(mat4 *out)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            out->m[c][r] = c == r ? 1.0f : 0.0f;
}

void mat4_mul(mat4 *out, const mat4 *a, const mat4 *b)
{
    mat4 t;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            t.m[c][r] = a->m[0][r] * b->m[c][0] + a->m[1][r] * b->m[c][1] + a->m[2][r] * b->m[c][2] +
                        a->m[3][r] * b->m[c][3];
    *out = t;
}

void mat4_from_srt(mat4 *out, const float scale[3], const float quat[4], const float translation[3])
{
    float qxx = quat[0] * quat[0];
    float qyy = quat[1] * quat[1];
    float qzz = quat[2] * quat[2];
    float qxz = quat[0] * quat[2];
    float qxy = quat[0] * quat[1];
    float qyz = quat[1] * quat[2];
    float qwx = quat[3] * quat[0];
    float qwy = quat[3] * quat[1];
    float qwz = quat[3] * quat[2];
    mat4 t = {{
        {1.0f - 2.0f * (qyy + qzz), 2.0f * (qxy + qwz), 2.0f * (qxz - qwy), 0.0f},
        {2.0f * (qxy - qwz), 1.0f - 2.0f * (qxx + qzz), 2.0f * (qyz + qwx), 0.0f},
        {2.0f * (qxz + qwy), 2.0f * (qyz - qwx), 1.0f - 2.0f * (qxx + qyy), 0.0f},
        {translation[0], translation[1], translation[2], 1.0f},
    }};
    /* the scale multiplies the first three columns, as t3d_mat4_scale does after building */
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 4; r++)
            t.m[c][r] *= scale[c];
    *out = t;
}

void mat4_translation(mat4 *out, float x, float y, float z)
{
    mat4_identity(out);
    out->m[3][0] = x;
    out->m[3][1] = y;
    out->m[3][2] = z;
}

void mat4_scaling(mat4 *out, float x, float y, float z)
{
    mat4_identity(out);
    out->m[0][0] = x;
    out->m[1][1] = y;
    out->m[2][2] = z;
}

void mat4_perspective(mat4 *out, float fovy, float aspect, float near, float far)
{
    float f = 1.0f / fmath_tan(fovy * 0.5f);
    mat4 t = {{{0}}};
    t.m[0][0] = f / aspect;
    t.m[1][1] = f;
    t.m[2][2] = (far + near) / (near - far);
    t.m[2][3] = -1.0f;
    t.m[3][2] = 2.0f * far * near / (near - far);
    *out = t;
}

static void normalize3(float v[3])
{
    float len = fmath_sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len > 0.0f) {
        v[0] /= len;
        v[1] /= len;
        v[2] /= len;
    }
}

static void cross3(float out[3], const float a[3], const float b[3])
{
    float t[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    out[0] = t[0];
    out[1] = t[1];
    out[2] = t[2];
}

static float dot3(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

void mat4_look_at(mat4 *out, const float eye[3], const float target[3], const float up[3])
{
    float forward[3] = {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]};
    normalize3(forward);
    float side[3];
    cross3(side, forward, up);
    normalize3(side);
    float up2[3];
    cross3(up2, side, forward);
    mat4 t = {{
        {side[0], up2[0], -forward[0], 0.0f},
        {side[1], up2[1], -forward[1], 0.0f},
        {side[2], up2[2], -forward[2], 0.0f},
        {-dot3(side, eye), -dot3(up2, eye), dot3(forward, eye), 1.0f},
    }};
    *out = t;
}

void mat4_transform_point(const mat4 *m, const float p[3], float out[4])
{
    float t[4];
    for (int r = 0; r < 4; r++)
        t[r] = m->m[0][r] * p[0] + m->m[1][r] * p[1] + m->m[2][r] * p[2] + m->m[3][r];
    for (int r = 0; r < 4; r++)
        out[r] = t[r];
}

int mat4_invert(mat4 *out, const mat4 *m)
{
    /* a[r][c] in row-major double, then the adjugate by 2x2 sub-determinants */
    double a[4][4];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            if (!fmath_isfinite(m->m[c][r]))
                return 0;
            a[r][c] = m->m[c][r];
        }
    double s0 = a[0][0] * a[1][1] - a[1][0] * a[0][1];
    double s1 = a[0][0] * a[1][2] - a[1][0] * a[0][2];
    double s2 = a[0][0] * a[1][3] - a[1][0] * a[0][3];
    double s3 = a[0][1] * a[1][2] - a[1][1] * a[0][2];
    double s4 = a[0][1] * a[1][3] - a[1][1] * a[0][3];
    double s5 = a[0][2] * a[1][3] - a[1][2] * a[0][3];
    double c5 = a[2][2] * a[3][3] - a[3][2] * a[2][3];
    double c4 = a[2][1] * a[3][3] - a[3][1] * a[2][3];
    double c3 = a[2][1] * a[3][2] - a[3][1] * a[2][2];
    double c2 = a[2][0] * a[3][3] - a[3][0] * a[2][3];
    double c1 = a[2][0] * a[3][2] - a[3][0] * a[2][2];
    double c0 = a[2][0] * a[3][1] - a[3][0] * a[2][1];
    double det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0;
    if (det == 0.0 || det != det)
        return 0;
    double k = 1.0 / det;
    double b[4][4] = {
        {(a[1][1] * c5 - a[1][2] * c4 + a[1][3] * c3), (-a[0][1] * c5 + a[0][2] * c4 - a[0][3] * c3),
         (a[3][1] * s5 - a[3][2] * s4 + a[3][3] * s3), (-a[2][1] * s5 + a[2][2] * s4 - a[2][3] * s3)},
        {(-a[1][0] * c5 + a[1][2] * c2 - a[1][3] * c1), (a[0][0] * c5 - a[0][2] * c2 + a[0][3] * c1),
         (-a[3][0] * s5 + a[3][2] * s2 - a[3][3] * s1), (a[2][0] * s5 - a[2][2] * s2 + a[2][3] * s1)},
        {(a[1][0] * c4 - a[1][1] * c2 + a[1][3] * c0), (-a[0][0] * c4 + a[0][1] * c2 - a[0][3] * c0),
         (a[3][0] * s4 - a[3][1] * s2 + a[3][3] * s0), (-a[2][0] * s4 + a[2][1] * s2 - a[2][3] * s0)},
        {(-a[1][0] * c3 + a[1][1] * c1 - a[1][2] * c0), (a[0][0] * c3 - a[0][1] * c1 + a[0][2] * c0),
         (-a[3][0] * s3 + a[3][1] * s1 - a[3][2] * s0), (a[2][0] * s3 - a[2][1] * s1 + a[2][2] * s0)},
    };
    mat4 t;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            float v = (float)(b[r][c] * k);
            if (!fmath_isfinite(v))
                return 0;
            t.m[c][r] = v;
        }
    *out = t;
    return 1;
}

int mat4_to_fixed(const mat4 *m, uint8_t out[64])
{
    int clamped = 0;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double v = (double)m->m[c][r] * 65536.0;
            uint32_t bits;
            if (v != v) {
                bits = 0;
                clamped++;
            } else if (v >= 2147483647.5) {
                bits = 0x7FFFFFFFu;
                clamped++;
            } else if (v <= -2147483648.5) {
                bits = 0x80000000u;
                clamped++;
            } else {
                int64_t x = (int64_t)(v + (v >= 0 ? 0.5 : -0.5)); /* nearest, halves away from 0 */
                if (x > INT32_MAX)
                    x = INT32_MAX;
                bits = (uint32_t)x; /* two's complement, as the RSP reads it */
            }
            int at = 8 * c + 2 * r;
            out[at] = (uint8_t)(bits >> 24);
            out[at + 1] = (uint8_t)(bits >> 16);
            out[32 + at] = (uint8_t)(bits >> 8);
            out[32 + at + 1] = (uint8_t)bits;
        }
    return clamped;
}
