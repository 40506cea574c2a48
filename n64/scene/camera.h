/* camera: frames a model's bounding box.
 *
 * Conventions: model space is right-handed with +Y up (T3DM models come from glTF, whose
 * front faces +Z). Eye space is OpenGL's: +X right, +Y up, looking down -Z; the projection
 * maps the near plane to NDC z = -1 and the far plane to +1 (mat4_perspective), clip w is
 * the distance in front of the eye. NDC y points up; on the N64 screen y points down, so
 * the viewport maps NDC (x, y) to pixels ((x + 1) * W / 2, (1 - y) * H / 2)
 * (camera_to_screen does this). Units are the model's (its s16 positions).
 *
 * Framing: the camera looks at the centre of the AABB from the direction given by yaw and
 * pitch, at the distance where the AABB's bounding sphere fits both the vertical and the
 * horizontal field of view, times `distance`. Every point of the box is then inside the
 * view (for distance >= 1), and near/far are set to the sphere's nearest and farthest
 * depths with a 1% margin, so the whole model lies strictly between them and near > 0.
 * With distance < 1 the camera may be inside the sphere: near is then clamped to
 * far / 1000 and parts of the model can be in front of it (the microcode clips them).
 *
 * Precision on the RSP: view and projection are in model units, so a large model (radius
 * in the thousands) gives translations and clip w beyond s16.16's +-32768. Scale the model
 * matrix down (mat4_scaling) or fold the scale into the projection before mat4_to_fixed
 * when that happens; mat4_to_fixed reports saturated entries.
 *
 * Freestanding: no libc, no libm. */
#ifndef N64_SCENE_CAMERA_H
#define N64_SCENE_CAMERA_H

#include <stdint.h>

#include "mat4.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct camera_params {
    float yaw_deg;   /* turn around +Y; 0 looks from +Z towards -Z, 90 from +X */
    float pitch_deg; /* elevation; positive looks down from above; clamped to +-89 */
    float distance;  /* 1: the model fits the view; 2: twice as far (smaller) */
    float aspect;    /* viewport width / height */
    float fovy_deg;  /* full vertical field of view, in (0, 180) */
} camera_params;

typedef struct camera {
    mat4 view;            /* model space -> eye space */
    mat4 projection;      /* eye space -> clip space */
    mat4 view_projection; /* projection * view */
    float eye[3], target[3];
    float near, far;
    float radius; /* of the AABB's bounding sphere */
} camera;

enum {
    CAMERA_OK = 0,
    CAMERA_ERR_PARAMS = -1, /* aspect <= 0, fov outside (0, 180), distance <= 0, or not finite */
};

/* Defaults: yaw 30, pitch 20, distance 1, aspect 4:3, fov 60. */
camera_params camera_default_params(void);

/* Frames the box [min, max] (model units). A box whose min exceeds its max on an axis is
 * used with that axis swapped; a point counts as a sphere of radius 1; non-finite corners
 * are CAMERA_ERR_PARAMS. */
int camera_frame_bounds(camera *out, const float min[3], const float max[3], const camera_params *params);

/* The same for the s16 box T3DM's header stores. For a skinned model that box is the one of
 * the stored (bone-space) positions, not of the model as drawn: frame bounds_of_model's box
 * instead. */
int camera_frame_aabb(camera *out, const int16_t aabb_min[3], const int16_t aabb_max[3], const camera_params *params);

/* Projects a model-space point to the screen: out = (x pixels from the left, y pixels from
 * the top, NDC z in [-1, 1] between near and far). Returns 0 (out untouched) when the point
 * is not in front of the eye (clip w <= 0). */
int camera_to_screen(const camera *cam, const float p[3], float width, float height, float out[3]);

#ifdef __cplusplus
}
#endif

#endif
