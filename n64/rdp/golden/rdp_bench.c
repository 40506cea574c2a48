/* rdp-bench: time the software RDP on 320x240 frames of random triangles
 * (shaded, textured, Z-buffered; 1-cycle and 2-cycle), the load a game
 * frame puts on it. Triangle set-up is done here in floating point, the
 * way a microcode would, and is not timed. The time is the process's CPU
 * time (the machine may be shared: the wall clock would count the other
 * programs' turns too); the wall clock is printed beside it.
 *
 *   build/n64/rdp-bench [triangles per frame] [frames] */
#define _POSIX_C_SOURCE 200809L
#include "rdp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { W = 320, H = 240, COLOUR = 0x100000, DEPTH = 0x200000, TEXTURE = 0x300000, LIST = 0x400000 };
enum { RDRAM_SIZE = 8 << 20, LIST_MAX = RDRAM_SIZE - LIST };

typedef struct vertex {
    double x, y, z, r, g, b, a, s, t, w;
} vertex_t;

static uint8_t *list;
static size_t list_len;

static void put32(uint32_t v)
{
    if (list_len + 4 > LIST_MAX)
        return;
    for (int i = 0; i < 4; i++)
        list[list_len++] = (uint8_t)(v >> (24 - 8 * i));
}

static void word(uint32_t w0, uint32_t w1)
{
    put32(w0);
    put32(w1);
}

static double seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint32_t fx(double v, double scale)
{
    return (uint32_t)(int32_t)lrint(v * scale);
}

static unsigned rng = 12345;
static double frand(void)
{
    rng = rng * 1103515245u + 12345u;
    return (double)((rng >> 8) & 0xffff) / 65536.0;
}

/* Edge and attribute set-up of a 0x0f (shade, texture, Z) triangle. */
static void triangle(vertex_t v[3])
{
    for (int i = 0; i < 3; i++)
        v[i].y = floor(v[i].y * 4) / 4;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2 - i; j++)
            if (v[j].y > v[j + 1].y) {
                vertex_t t = v[j];
                v[j] = v[j + 1];
                v[j + 1] = t;
            }
    vertex_t *a = &v[0], *b = &v[1], *c = &v[2];
    if (c->y - a->y < 0.25)
        return;
    double dxh = (c->x - a->x) / (c->y - a->y);
    double dxm = b->y - a->y >= 0.25 ? (b->x - a->x) / (b->y - a->y) : 0;
    double dxl = c->y - b->y >= 0.25 ? (c->x - b->x) / (c->y - b->y) : 0;
    double top = floor(a->y);
    double xh = a->x + (top - a->y) * dxh, xm = a->x + (top - a->y) * dxm, xl = b->x;
    /* major edge on the left when the middle vertex lies right of it */
    double cross = (b->x - a->x) * (c->y - a->y) - (c->x - a->x) * (b->y - a->y);
    int left = cross > 0;

    word(0x0f000000u | (left ? 0x800000u : 0) | ((uint32_t)lrint(c->y * 4) & 0x3fff),
         ((uint32_t)lrint(b->y * 4) & 0x3fff) << 16 | ((uint32_t)lrint(a->y * 4) & 0x3fff));
    word(fx(xl, 65536), fx(dxl, 65536));
    word(fx(xh, 65536), fx(dxh, 65536));
    word(fx(xm, 65536), fx(dxm, 65536));

    /* attribute planes: value, d/dx, d/dy; DE follows the major edge */
    double det = (b->x - a->x) * (c->y - a->y) - (c->x - a->x) * (b->y - a->y);
    if (fabs(det) < 1e-9)
        det = 1e-9;
    double val[10], ddx[10], ddy[10], dde[10];
    const double *pa = &a->x, *pb = &b->x, *pc = &c->x;
    for (int k = 2; k < 10; k++) {
        double da = pb[k] - pa[k], db = pc[k] - pa[k];
        ddx[k] = (da * (c->y - a->y) - db * (b->y - a->y)) / det;
        ddy[k] = (db * (b->x - a->x) - da * (c->x - a->x)) / det;
        val[k] = pa[k] + (xh - a->x) * ddx[k] + (top - a->y) * ddy[k];
        dde[k] = ddy[k] + ddx[k] * dxh;
    }
    /* shade: r g b a (integer halves, then fractions) */
    uint32_t q[4][4]; /* [value, dx, de, dy][channel] as s15.16 */
    for (int ch = 0; ch < 4; ch++) {
        q[0][ch] = fx(val[3 + ch], 65536);
        q[1][ch] = fx(ddx[3 + ch], 65536);
        q[2][ch] = fx(dde[3 + ch], 65536);
        q[3][ch] = fx(ddy[3 + ch], 65536);
    }
    for (int part = 0; part < 4; part += 2) {
        for (int half = 0; half < 2; half++) /* integer words then fraction words */
            for (int row = part; row < part + 2; row++)
                for (int ch = 0; ch < 4; ch += 2) {
                    uint32_t hi = half ? (q[row][ch] << 16) : (q[row][ch] & 0xffff0000u);
                    uint32_t lo = half ? (q[row][ch + 1] & 0xffff) : (q[row][ch + 1] >> 16);
                    put32(hi | lo);
                }
    }
    /* texture: s t w, scaled to s10.5 (s, t) and s.15 (w) */
    uint32_t tq[4][3];
    const double scale[3] = {32 * 65536.0, 32 * 65536.0, 32767 * 65536.0};
    for (int ch = 0; ch < 3; ch++) {
        tq[0][ch] = fx(val[7 + ch], scale[ch]);
        tq[1][ch] = fx(ddx[7 + ch], scale[ch]);
        tq[2][ch] = fx(dde[7 + ch], scale[ch]);
        tq[3][ch] = fx(ddy[7 + ch], scale[ch]);
    }
    for (int part = 0; part < 4; part += 2)
        for (int half = 0; half < 2; half++)
            for (int row = part; row < part + 2; row++) {
                uint32_t s = tq[row][0], t = tq[row][1], w = tq[row][2];
                put32(half ? (s << 16 | (t & 0xffff)) : ((s & 0xffff0000u) | t >> 16));
                put32(half ? (w << 16) : (w & 0xffff0000u));
            }
    word(fx(val[2], 65536), fx(ddx[2], 65536));
    word(fx(dde[2], 65536), fx(ddy[2], 65536));
}

static void frame(int triangles, int two_cycle)
{
    list_len = 0;
    word(0x3f000000u | 2u << 19 | (W - 1), DEPTH); /* clear Z */
    word(0x2d000000u, (W * 4) << 12 | H * 4);
    word(0x2f300000u, 0);
    word(0x37000000u, 0xfffcfffcu);
    word(0x36000000u | ((W - 1) * 4) << 12 | (H - 1) * 4, 0);
    word(0x27000000u, 0);
    word(0x3f000000u | 2u << 19 | (W - 1), COLOUR); /* clear colour */
    word(0x37000000u, 0x00010001u);
    word(0x36000000u | ((W - 1) * 4) << 12 | (H - 1) * 4, 0);
    word(0x27000000u, 0);
    word(0x3e000000u, DEPTH);
    /* 32x32 RGBA16 texture, bilinear, perspective in 2-cycle */
    word(0x3d000000u | 2u << 19, TEXTURE);
    word(0x35000000u | 2u << 19, 7u << 24);
    word(0x33000000u, 7u << 24 | 1023u << 12 | 0x100);
    word(0x35000000u | 2u << 19 | 8u << 9, 0u << 24 | 5u << 14 | 5u << 4);
    word(0x32000000u, 31u << 14 | 31u << 2);
    /* Z compare and update, opaque, full coverage: libultra's ZB_OPA_SURF */
    if (!two_cycle) {
        word(0x2f000000u | 0x2000 | 0xcf0, 0x0f0a2230u); /* 1-cycle, bilinear, affine */
        word(0x3c000000u | 0x127e24u, 0xfffff3f9u);      /* texel0 * shade */
    } else {
        word(0x2f000000u | 0x180000 | 0x2000 | 0xcf0, 0x0f0a2230u); /* 2-cycle, bilinear, perspective */
        word(0x3c000000u | 0x127fffu, 0xfffff238u);                 /* texel0 * shade, then combined */
    }
    for (int i = 0; i < triangles; i++) {
        vertex_t v[3];
        double cx = frand() * W, cy = frand() * H, size = 6 + frand() * 20;
        for (int k = 0; k < 3; k++) {
            v[k].x = cx + (frand() - 0.5) * size * 2;
            v[k].y = cy + (frand() - 0.5) * size * 2;
            v[k].z = 100 + frand() * 30000;
            v[k].r = frand() * 255;
            v[k].g = frand() * 255;
            v[k].b = frand() * 255;
            v[k].a = 255;
            v[k].w = 0.5 + frand() * 0.5;
            v[k].s = frand() * 64 * v[k].w;
            v[k].t = frand() * 64 * v[k].w;
        }
        triangle(v);
    }
    word(0x29000000u, 0);
}

int main(int argc, char **argv)
{
    int triangles = argc > 1 ? atoi(argv[1]) : 3000;
    int frames = argc > 2 ? atoi(argv[2]) : 10;
    uint8_t *rdram = calloc(1, RDRAM_SIZE);
    if (!rdram)
        return 1;
    list = rdram + LIST;
    for (int i = 0; i < 32 * 32 * 2; i++)
        rdram[TEXTURE + i] = (uint8_t)(i * 37 + (i >> 6) * 11);
    rdp_t *rdp = rdp_create(rdram, RDRAM_SIZE);
    for (int mode = 0; mode < 2; mode++) {
        double cpu = 0, wall = 0;
        uint64_t pixels = 0;
        for (int f = 0; f < frames; f++) {
            frame(triangles, mode);
            rdp_reset_stats(rdp);
            double c0 = seconds(CLOCK_PROCESS_CPUTIME_ID), w0 = seconds(CLOCK_MONOTONIC);
            rdp_run(rdp, LIST, LIST + (uint32_t)list_len);
            cpu += seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
            wall += seconds(CLOCK_MONOTONIC) - w0;
            rdp_stats_t st;
            rdp_get_stats(rdp, &st);
            pixels += st.pixels;
        }
        printf("%s: %d triangles/frame, %.2f ms of CPU time per frame (wall clock %.2f ms; %.0f pixels written per "
               "frame, the two clears included)\n",
               mode ? "2-cycle" : "1-cycle", triangles, cpu * 1000 / frames, wall * 1000 / frames,
               (double)pixels / frames);
    }
    rdp_destroy(rdp);
    free(rdram);
    return 0;
}
