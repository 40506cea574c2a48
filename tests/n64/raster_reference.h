/* A plain rasterizer for the accuracy tests: triangles in screen space with
 * per-vertex colour and depth, covering the pixels whose centres they hold
 * (top-left rule), colours and depth interpolated linearly on screen at the
 * pixel's top-left corner (where the RDP evaluates them), a depth buffer. It
 * stands for "what the pipeline means", against which the microcode + RDP
 * picture is compared. */
#ifndef TESTS_N64_RASTER_REFERENCE_H
#define TESTS_N64_RASTER_REFERENCE_H

#include <stdint.h>

typedef struct raster_vertex {
    double x, y, z;      /* pixels; depth 0..0x7FFF */
    double rgba[4];
} raster_vertex_t;

typedef struct raster {
    int width, height;
    uint8_t *rgba;       /* width * height * 4 */
    double *depth;
    int32_t *owner;      /* which triangle drew the pixel, -1: none */
    int32_t next_id;
} raster_t;

int raster_init(raster_t *r, int width, int height, uint32_t background_rgba);
void raster_free(raster_t *r);
/* Draws a triangle with a depth test (less-or-equal, as the RDP's opaque mode); returns its id. */
int32_t raster_triangle(raster_t *r, const raster_vertex_t *a, const raster_vertex_t *b, const raster_vertex_t *c);

#endif
