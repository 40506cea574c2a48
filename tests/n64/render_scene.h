/* Cameras and vertex data the renderer tests share. */
#ifndef TESTS_N64_RENDER_SCENE_H
#define TESTS_N64_RENDER_SCENE_H

#include "../../n64/driver/cmdlist.h"

#include <stdint.h>

/* Perspective (vertical fov in degrees) x look-at, OpenGL conventions
 * (clip z in [-w, w]), scaled so that clip w at `far` is 8192; *clip_near_w
 * gets the clip w of the near plane. */
mat4 scene_view(double fov_deg, double aspect, double near, double far, const double eye[3],
                         const double target[3], float *clip_near_w);
/* Rotation about y by `deg`, then a translation. */
mat4 scene_model(double deg, double tx, double ty, double tz);
/* A T3DM vertex pair: positions, unit normals packed 5.6.5 as tiny3d's
 * importer packs them, RGBA, UV. */
void scene_pair(uint8_t out[32], const int pos_a[3], const double normal_a[3], uint32_t rgba_a, const int uv_a[2],
                const int pos_b[3], const double normal_b[3], uint32_t rgba_b, const int uv_b[2]);
/* Deterministic pseudo-random numbers for the tests. */
uint32_t scene_random(uint32_t *state);

#endif
