/* camera: framing a bounding box (see camera.h). */
#include "camera.h"

#include "fmath.h"

/* The fitted distance is this much larger than the exact fit, so that the box's corners,
 * which lie on its bounding sphere, stay inside the viewport after rounding. */
#define FIT_MARGIN 1.02f
#define DEPTH_MARGIN 0.01f
#define MAX_PITCH 89.0f

camera_params camera_default_params(void)
{
    camera_params p = {30.0f, 20.0f, 1.0f, 4.0f / 3.0f, 60.0f};
    return p;
}

int camera_frame_aabb(camera *out, const int16_t aabb_min[3], const int16_t aabb_max[3], const camera_params *params)
{
    float lo[3] = {aabb_min[0], aabb_min[1], aabb_min[2]}, hi[3] = {aabb_max[0], aabb_max[1], aabb_max[2]};
    return camera_frame_bounds(out, lo, hi, params);
}

int camera_frame_bounds(camera *out, const float min[3], const float max[3], const camera_params *params)
{
    const camera_params *q = params;
    if (!fmath_isfinite(q->yaw_deg) || !fmath_isfinite(q->pitch_deg) || !fmath_isfinite(q->distance) ||
        !fmath_isfinite(q->aspect) || !fmath_isfinite(q->fovy_deg) || !(q->distance > 0.0f) ||
        !(q->aspect > 0.0f) || !(q->fovy_deg > 0.0f && q->fovy_deg < 180.0f))
        return CAMERA_ERR_PARAMS;

    float center[3], half[3];
    for (int k = 0; k < 3; k++) {
        if (!fmath_isfinite(min[k]) || !fmath_isfinite(max[k]))
            return CAMERA_ERR_PARAMS;
        center[k] = (min[k] + max[k]) * 0.5f;
        half[k] = fmath_abs(max[k] - min[k]) * 0.5f;
    }
    float radius = fmath_sqrt(half[0] * half[0] + half[1] * half[1] + half[2] * half[2]);
    if (!fmath_isfinite(radius) || !fmath_isfinite(center[0] + center[1] + center[2]))
        return CAMERA_ERR_PARAMS; /* beyond float range */
    if (!(radius > 0.0f))
        radius = 1.0f;

    /* the sphere fits a cone of half-angle a at distance r / sin(a); the narrower of the
     * vertical and horizontal half-angles decides */
    float fovy = fmath_radians(q->fovy_deg);
    float tan_y = fmath_tan(fovy * 0.5f);
    float tan_x = tan_y * q->aspect;
    float t = tan_x < tan_y ? tan_x : tan_y;
    float sin_half = t / fmath_sqrt(1.0f + t * t);
    float dist = radius / sin_half * FIT_MARGIN * q->distance;

    float pitch = q->pitch_deg;
    if (pitch > MAX_PITCH)
        pitch = MAX_PITCH;
    if (pitch < -MAX_PITCH)
        pitch = -MAX_PITCH;
    float sy, cy, sp, cp;
    fmath_sincos(fmath_radians(q->yaw_deg), &sy, &cy);
    fmath_sincos(fmath_radians(pitch), &sp, &cp);
    float dir[3] = {sy * cp, sp, cy * cp}; /* from the target towards the eye */

    for (int k = 0; k < 3; k++) {
        out->target[k] = center[k];
        out->eye[k] = center[k] + dir[k] * dist;
    }
    out->radius = radius;
    out->far = (dist + radius) * (1.0f + DEPTH_MARGIN);
    out->near = (dist - radius) * (1.0f - DEPTH_MARGIN);
    if (out->near < out->far / 1000.0f)
        out->near = out->far / 1000.0f;

    static const float up[3] = {0.0f, 1.0f, 0.0f};
    mat4_look_at(&out->view, out->eye, out->target, up);
    mat4_perspective(&out->projection, fovy, q->aspect, out->near, out->far);
    mat4_mul(&out->view_projection, &out->projection, &out->view);
    return CAMERA_OK;
}

int camera_to_screen(const camera *cam, const float p[3], float width, float height, float out[3])
{
    float clip[4];
    mat4_transform_point(&cam->view_projection, p, clip);
    if (!(clip[3] > 0.0f))
        return 0;
    out[0] = (clip[0] / clip[3] + 1.0f) * 0.5f * width;
    out[1] = (1.0f - clip[1] / clip[3]) * 0.5f * height;
    out[2] = clip[2] / clip[3];
    return 1;
}
