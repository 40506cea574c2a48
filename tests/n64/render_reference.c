/* The renderer pipeline in double precision. */
#include "render_reference.h"

#include <math.h>

static int16_t s16(const uint8_t *p) { return (int16_t)(uint16_t)(p[0] << 8 | p[1]); }

render_mat4_t ref_mat4_identity(void)
{
    render_mat4_t m = {{0}};
    m.m[0] = m.m[5] = m.m[10] = m.m[15] = 1;
    return m;
}

render_mat4_t ref_mat4_mul(const render_mat4_t *a, const render_mat4_t *b)
{
    render_mat4_t r;
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++) {
            double sum = 0;
            for (int k = 0; k < 4; k++)
                sum += (double)a->m[4 * k + row] * b->m[4 * col + k];
            r.m[4 * col + row] = (float)sum;
        }
    return r;
}

/* Sign-extends the low `bits` bits of v. */
static int signed_bits(unsigned v, int bits)
{
    unsigned mask = 1u << (bits - 1);
    v &= (1u << bits) - 1;
    return (int)(v ^ mask) - (int)mask;
}

void ref_vertex(const render_mat4_t *view, const render_mat4_t *model, const render_lights_t *lights,
                const render_frame_t *frame, const uint8_t pair[32], int which, ref_vertex_t *out)
{
    const uint8_t *p = pair + 8 * which;
    double pos[4] = {s16(p), s16(p + 2), s16(p + 4), 1.0};
    unsigned packed = (unsigned)(p[6] << 8 | p[7]);
    const uint8_t *rgba = pair + 16 + 4 * which;
    out->s = s16(pair + 24 + 4 * which);
    out->t = s16(pair + 26 + 4 * which);

    double world[4];
    for (int r = 0; r < 4; r++) {
        world[r] = 0;
        for (int k = 0; k < 4; k++)
            world[r] += (double)model->m[4 * k + r] * pos[k];
    }
    for (int r = 0; r < 4; r++) {
        out->clip[r] = 0;
        for (int k = 0; k < 4; k++)
            out->clip[r] += (double)view->m[4 * k + r] * world[k];
    }
    double x = out->clip[0], y = out->clip[1], z = out->clip[2], w = out->clip[3];
    double g = (double)(1u << frame->guard_shift);
    out->reject_code = (x <= -w) | (y <= -w) << 1 | (z <= -w) << 2 | (x >= w) << 3 | (y >= w) << 4 | (z >= w) << 5;
    out->clip_code = (x <= -g * w) | (y <= -g * w) << 1 | (z <= -w) << 2 | (x >= g * w) << 3 | (y >= g * w) << 4 |
                     (z >= w) << 5;
    out->sx = (x / w + 1) * 0.5 * frame->width;
    out->sy = (1 - y / w) * 0.5 * frame->height;
    out->z = (z / w + 1) * 0.5 * 0x7FFF;
    out->w = frame->clip_near_w / w;

    /* normal: 5.6.5 as packed by the importer (components times 15.5, 31.5, 15.5) */
    double n[3] = {signed_bits(packed >> 11, 5) / 15.5, signed_bits(packed >> 5, 6) / 31.5,
                   signed_bits(packed, 5) / 15.5};
    for (int c = 0; c < 3; c++)
        out->light[c] = lights->ambient[c];
    for (unsigned k = 0; k < lights->count && k < 4; k++) {
        double d[3], len2 = 0;
        for (int j = 0; j < 3; j++) {
            d[j] = 0;
            for (int i = 0; i < 3; i++)
                d[j] += (double)model->m[4 * j + i] * lights->direction[k][i];
            len2 += d[j] * d[j];
        }
        double len = sqrt(len2), dot = 0;
        for (int j = 0; j < 3; j++)
            dot += n[j] * (len > 0 ? d[j] / len : 0);
        if (dot < 0)
            dot = 0;
        for (int c = 0; c < 3; c++)
            out->light[c] += dot * lights->color[k][c];
    }
    for (int c = 0; c < 3; c++) {
        double v = floor(rgba[c] * out->light[c]);
        out->rgba[c] = (uint8_t)(v > 255 ? 255 : v < 0 ? 0 : v);
    }
    out->rgba[3] = rgba[3];
}
