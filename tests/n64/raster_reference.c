/* Plain rasterization of screen-space triangles, in double precision. */
#include "raster_reference.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

int raster_init(raster_t *r, int width, int height, uint32_t background)
{
    r->width = width;
    r->height = height;
    r->rgba = malloc((size_t)width * height * 4);
    r->depth = malloc((size_t)width * height * sizeof(double));
    r->owner = malloc((size_t)width * height * sizeof(int32_t));
    r->next_id = 0;
    if (!r->rgba || !r->depth || !r->owner)
        return -1;
    for (int i = 0; i < width * height; i++) {
        for (int c = 0; c < 4; c++)
            r->rgba[4 * i + c] = (uint8_t)(background >> (24 - 8 * c));
        r->depth[i] = INFINITY;
        r->owner[i] = -1;
    }
    return 0;
}

void raster_free(raster_t *r)
{
    free(r->rgba);
    free(r->depth);
    free(r->owner);
}

static double edge(const raster_vertex_t *a, const raster_vertex_t *b, double x, double y)
{
    return (b->x - a->x) * (y - a->y) - (b->y - a->y) * (x - a->x);
}

/* Top-left rule for y-down screens, either winding: an edge owns its pixels
 * when it is a top edge (horizontal, the interior below it) or a left edge. */
static bool owns(const raster_vertex_t *a, const raster_vertex_t *b, double area_sign)
{
    double dx = (b->x - a->x) * area_sign, dy = (b->y - a->y) * area_sign;
    return (dy == 0 && dx > 0) || dy < 0;
}

int32_t raster_triangle(raster_t *r, const raster_vertex_t *a, const raster_vertex_t *b, const raster_vertex_t *c)
{
    int32_t id = r->next_id++;
    double area = edge(a, b, c->x, c->y);
    if (area == 0 || !isfinite(area))
        return id;
    double s = area > 0 ? 1 : -1;
    int x0 = (int)floor(fmin(a->x, fmin(b->x, c->x))), x1 = (int)ceil(fmax(a->x, fmax(b->x, c->x)));
    int y0 = (int)floor(fmin(a->y, fmin(b->y, c->y))), y1 = (int)ceil(fmax(a->y, fmax(b->y, c->y)));
    if (x0 < 0)
        x0 = 0;
    if (y0 < 0)
        y0 = 0;
    if (x1 > r->width - 1)
        x1 = r->width - 1;
    if (y1 > r->height - 1)
        y1 = r->height - 1;
    bool own_ab = owns(a, b, s), own_bc = owns(b, c, s), own_ca = owns(c, a, s);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            double px = x + 0.5, py = y + 0.5;
            double wa = edge(b, c, px, py) * s, wb = edge(c, a, px, py) * s, wc = edge(a, b, px, py) * s;
            if (wa < 0 || wb < 0 || wc < 0 || (wa == 0 && !own_bc) || (wb == 0 && !own_ca) || (wc == 0 && !own_ab))
                continue;
            /* the RDP evaluates colour and depth at the pixel's top-left corner
             * (its spans start there), while coverage is the centre's */
            double sum = wa + wb + wc;
            wa = edge(b, c, x, y) * s / sum;
            wb = edge(c, a, x, y) * s / sum;
            wc = 1 - wa - wb;
            double z = wa * a->z + wb * b->z + wc * c->z;
            int i = y * r->width + x;
            if (z > r->depth[i])
                continue;
            r->depth[i] = z;
            r->owner[i] = id;
            for (int k = 0; k < 4; k++) {
                double v = wa * a->rgba[k] + wb * b->rgba[k] + wc * c->rgba[k];
                r->rgba[4 * i + k] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5);
            }
        }
    return id;
}
