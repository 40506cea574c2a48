/* A floating-point reference of the renderer's pipeline: the same inputs as
 * the microcode (matrices, lights, frame, T3DM vertex pairs as stored), done
 * in double precision, for the accuracy tests. */
#ifndef TESTS_N64_RENDER_REFERENCE_H
#define TESTS_N64_RENDER_REFERENCE_H

#include "../../n64/driver/cmdlist.h"

#include <stdint.h>

typedef struct ref_vertex {
    double clip[4];     /* view x model x position */
    double sx, sy;      /* screen position in pixels (y down) */
    double z;           /* depth, 0..0x7FFF */
    double w;           /* the RDP's perspective W before per-triangle normalisation: 1/clip w, scaled */
    double light[3];    /* light intensity per channel */
    uint8_t rgba[4];    /* lit vertex colour: floor(min(255, colour * light)), alpha as stored */
    int16_t s, t;       /* texture coordinates as stored */
    unsigned reject_code, clip_code; /* bits as VX_REJECT / VX_CLIP */
} ref_vertex_t;

/* Vertex `which` (0: A, 1: B) of the 32-byte T3DM pair `pair`. */
void ref_vertex(const mat4 *view, const mat4 *model, const render_lights_t *lights,
                const render_frame_t *frame, const uint8_t pair[32], int which, ref_vertex_t *out);

mat4 ref_mat4_mul(const mat4 *a, const mat4 *b);
mat4 ref_mat4_identity(void);

#endif

/* A corner of a clipped polygon: clip coordinates and the interpolated
 * colour (0..255, unrounded), then projected like a vertex. */
typedef struct ref_corner {
    double clip[4];
    double rgba[4];
    double st[2];
    double sx, sy, z;
} ref_corner_t;

/* Clips triangle a, b, c (in drawing order) against near, far and the guard
 * band (x, y within 2^guard_shift w), in the microcode's plane order;
 * returns the polygon's corners (at most 9), projected with `frame`. */
int ref_clip_triangle(const ref_vertex_t *v[3], const render_frame_t *frame, ref_corner_t out[9]);
