/* The renderer pipeline in double precision. */
#include "render_reference.h"

#include <math.h>

static int16_t s16(const uint8_t *p) { return (int16_t)(uint16_t)(p[0] << 8 | p[1]); }

mat4 ref_mat4_identity(void)
{
    mat4 m = {{{0}}};
    m.m[0][0] = m.m[1][1] = m.m[2][2] = m.m[3][3] = 1;
    return m;
}

mat4 ref_mat4_mul(const mat4 *a, const mat4 *b)
{
    mat4 r;
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++) {
            double sum = 0;
            for (int k = 0; k < 4; k++)
                sum += (double)a->m[k][row] * b->m[col][k];
            r.m[col][row] = (float)sum;
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

void ref_vertex(const mat4 *view, const mat4 *model, const render_lights_t *lights,
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
            world[r] += (double)model->m[k][r] * pos[k];
    }
    for (int r = 0; r < 4; r++) {
        out->clip[r] = 0;
        for (int k = 0; k < 4; k++)
            out->clip[r] += (double)view->m[k][r] * world[k];
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
                d[j] += (double)model->m[j][i] * lights->direction[k][i];
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

static double plane_distance(const ref_corner_t *c, int plane, double g)
{
    int comp = plane % 3;
    double w = comp == 2 ? c->clip[3] : g * c->clip[3];
    return plane < 3 ? w + c->clip[comp] : w - c->clip[comp];
}

int ref_clip_triangle(const ref_vertex_t *v[3], const render_frame_t *frame, ref_corner_t out[9])
{
    ref_corner_t a[9], b[9], *src = a, *dst = b;
    int n = 3;
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 4; k++) {
            a[i].clip[k] = v[i]->clip[k];
            a[i].rgba[k] = v[i]->rgba[k];
        }
        a[i].st[0] = v[i]->s;
        a[i].st[1] = v[i]->t;
    }
    double g = (double)(1u << frame->guard_shift);
    static const int order[6] = {2, 5, 0, 3, 1, 4};
    for (int p = 0; p < 6 && n >= 3; p++) {
        int m = 0;
        for (int i = 0; i < n; i++) {
            const ref_corner_t *cur = &src[i], *next = &src[(i + 1) % n];
            double dc = plane_distance(cur, order[p], g), dn = plane_distance(next, order[p], g);
            if (dc >= 0)
                dst[m++] = *cur;
            if ((dc >= 0) != (dn >= 0)) {
                const ref_corner_t *in = dc >= 0 ? cur : next, *o = dc >= 0 ? next : cur;
                double din = dc >= 0 ? dc : dn, dout = dc >= 0 ? dn : dc;
                double t = din / (din - dout);
                ref_corner_t *c = &dst[m++];
                for (int k = 0; k < 4; k++) {
                    c->clip[k] = in->clip[k] + t * (o->clip[k] - in->clip[k]);
                    c->rgba[k] = in->rgba[k] + t * (o->rgba[k] - in->rgba[k]);
                }
                for (int k = 0; k < 2; k++)
                    c->st[k] = in->st[k] + t * (o->st[k] - in->st[k]);
            }
        }
        ref_corner_t *tmp = src;
        src = dst;
        dst = tmp;
        n = m;
    }
    if (n < 3)
        return 0;
    for (int i = 0; i < n; i++) {
        ref_corner_t *c = &src[i];
        double w = c->clip[3];
        c->sx = (c->clip[0] / w + 1) * 0.5 * frame->width;
        c->sy = (1 - c->clip[1] / w) * 0.5 * frame->height;
        c->z = (c->clip[2] / w + 1) * 0.5 * 0x7FFF;
        out[i] = *c;
    }
    return n;
}
