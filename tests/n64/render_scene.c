/* Cameras and vertex data for the renderer tests. */
#include "render_scene.h"

#include <math.h>

static void normalize3(double v[3])
{
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int i = 0; i < 3; i++)
        v[i] /= len;
}

mat4 scene_view(double fov_deg, double aspect, double near, double far, const double eye[3],
                         const double target[3], float *clip_near_w)
{
    const double pi = 3.14159265358979323846;
    double f = 1.0 / tan(fov_deg * pi / 360.0);
    double fw[3] = {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]};
    normalize3(fw);
    double up[3] = {0, 1, 0};
    double side[3] = {fw[1] * up[2] - fw[2] * up[1], fw[2] * up[0] - fw[0] * up[2], fw[0] * up[1] - fw[1] * up[0]};
    normalize3(side);
    double u[3] = {side[1] * fw[2] - side[2] * fw[1], side[2] * fw[0] - side[0] * fw[2],
                   side[0] * fw[1] - side[1] * fw[0]};
    double k = 8192.0 / far;
    /* rows of view: side, u, -fw; translation -R eye */
    double v[4][4] = {{side[0], side[1], side[2], 0}, {u[0], u[1], u[2], 0}, {-fw[0], -fw[1], -fw[2], 0}, {0, 0, 0, 1}};
    for (int r = 0; r < 3; r++)
        v[r][3] = -(v[r][0] * eye[0] + v[r][1] * eye[1] + v[r][2] * eye[2]);
    double p[4][4] = {{f / aspect, 0, 0, 0},
                      {0, f, 0, 0},
                      {0, 0, (far + near) / (near - far), 2 * far * near / (near - far)},
                      {0, 0, -1, 0}};
    mat4 out;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            double sum = 0;
            for (int i = 0; i < 4; i++)
                sum += p[r][i] * v[i][c];
            out.m[c][r] = (float)(sum * k);
        }
    *clip_near_w = (float)(near * k);
    return out;
}

mat4 scene_model(double deg, double tx, double ty, double tz)
{
    const double pi = 3.14159265358979323846;
    double c = cos(deg * pi / 180), s = sin(deg * pi / 180);
    mat4 m = {{{(float)c, 0, (float)-s, 0}, {0, 1, 0, 0}, {(float)s, 0, (float)c, 0}, {(float)tx, (float)ty, (float)tz, 1}}};
    return m;
}

static void put16(uint8_t *p, int v)
{
    p[0] = (uint8_t)((unsigned)v >> 8);
    p[1] = (uint8_t)v;
}

static unsigned pack_normal(const double n[3])
{
    double v[3] = {n[0], n[1], n[2]};
    normalize3(v);
    const double scale[3] = {15.5, 31.5, 15.5}, low[3] = {-16, -32, -16}, high[3] = {15, 31, 15};
    int c[3];
    for (int i = 0; i < 3; i++) {
        double x = round(v[i] * scale[i]);
        c[i] = (int)(x < low[i] ? low[i] : x > high[i] ? high[i] : x);
    }
    return ((unsigned)c[0] & 31u) << 11 | ((unsigned)c[1] & 63u) << 5 | ((unsigned)c[2] & 31u);
}

void scene_pair(uint8_t out[32], const int pos_a[3], const double normal_a[3], uint32_t rgba_a, const int uv_a[2],
                const int pos_b[3], const double normal_b[3], uint32_t rgba_b, const int uv_b[2])
{
    for (int i = 0; i < 3; i++) {
        put16(out + 2 * i, pos_a[i]);
        put16(out + 8 + 2 * i, pos_b[i]);
    }
    put16(out + 6, (int)pack_normal(normal_a));
    put16(out + 14, (int)pack_normal(normal_b));
    put16(out + 16, (int)(rgba_a >> 16));
    put16(out + 18, (int)(rgba_a & 0xFFFF));
    put16(out + 20, (int)(rgba_b >> 16));
    put16(out + 22, (int)(rgba_b & 0xFFFF));
    put16(out + 24, uv_a[0]);
    put16(out + 26, uv_a[1]);
    put16(out + 28, uv_b[0]);
    put16(out + 30, uv_b[1]);
}

uint32_t scene_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}
