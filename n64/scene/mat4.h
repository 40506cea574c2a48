/* mat4: 4x4 float matrices for the scene (bones, camera, projection).
 *
 * Convention (the same as tiny3d's T3DMat4 and OpenGL):
 *   - column vectors: a point p is transformed as p' = M * p, so in A * B the transform B
 *     applies first (bone matrix = parent * local; clip = projection * view * model);
 *   - column-major storage: m[c][r] is row r of column c; column 3 holds the translation
 *     (m[3][0], m[3][1], m[3][2]) and the bottom row is m[0..3][3];
 *   - right-handed spaces; quaternions are stored X, Y, Z, W (glTF and tiny3d order).
 *
 * Freestanding: no libc, no libm (fmath). Every function takes caller storage; an output
 * may be one of the inputs. */
#ifndef N64_SCENE_MAT4_H
#define N64_SCENE_MAT4_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mat4 {
    float m[4][4]; /* m[column][row] */
} mat4;

void mat4_identity(mat4 *out);

/* out = a * b (b applies first). Each entry is summed in tiny3d's order
 * (a[0][r]*b[c][0] + a[1][r]*b[c][1] + a[2][r]*b[c][2] + a[3][r]*b[c][3]), so that bone
 * matrices come out bit for bit as t3d_mat4_mul makes them. */
void mat4_mul(mat4 *out, const mat4 *a, const mat4 *b);

/* T * R * S: scale first, then the rotation (unit quaternion XYZW), then the translation;
 * the same formula and operation order as tiny3d's t3d_mat4_from_srt. */
void mat4_from_srt(mat4 *out, const float scale[3], const float quat[4], const float translation[3]);

void mat4_translation(mat4 *out, float x, float y, float z);
void mat4_scaling(mat4 *out, float x, float y, float z);

/* OpenGL perspective projection (gluPerspective): eye space looks down -Z with +Y up;
 * a point at distance `near` in front of the eye maps to NDC z = -1, at `far` to +1, and
 * clip w is the distance along -Z. `fovy` is the full vertical field of view in radians,
 * `aspect` width / height. near must be > 0 and far > near. */
void mat4_perspective(mat4 *out, float fovy, float aspect, float near, float far);

/* View matrix (gluLookAt): the eye at `eye` looking at `target`, `up` giving the up
 * direction (must not be parallel to the line of sight). Eye space is right-handed: +X to
 * the right, +Y up, the eye looking down -Z. */
void mat4_look_at(mat4 *out, const float eye[3], const float target[3], const float up[3]);

/* out = M * (p, 1). */
void mat4_transform_point(const mat4 *m, const float p[3], float out[4]);

/* out = inverse of m (computed in double); returns 0, leaving out unchanged, when m is
 * singular or not finite. */
int mat4_invert(mat4 *out, const mat4 *m);

/* The matrix in the RSP's s16.16 layout (n64/rsp/mtx_mul.S, as F3D's Mtx): 64 big-endian
 * bytes, first the integer parts (s16) column by column (column c at byte 8 * c, rows 0..3),
 * then the fractional parts (u16) in the same order at byte 32. Each entry is rounded to the
 * nearest 1/65536; entries outside [-32768, 32768) saturate and NaN becomes 0. Returns the
 * number of entries that saturated or were NaN (0 when the matrix fits). */
int mat4_to_fixed(const mat4 *m, uint8_t out[64]);

#ifdef __cplusplus
}
#endif

#endif
