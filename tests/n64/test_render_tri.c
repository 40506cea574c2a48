/* Triangles of the renderer microcode: the RDP triangle commands it emits,
 * read back, against the floating-point reference: each corner on its edges
 * within 1/4 pixel (plus the quarter-pixel snapping), colour and depth at the
 * corners as the reference vertices have them, culling and clipping. */
#include "rdp_decode.h"
#include "render_harness.h"
#include "render_reference.h"
#include "render_scene.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static harness_t h;
static mat4 view, model;
static render_lights_t lights;
static render_frame_t frame;

static void teardown(void) { harness_close(&h); }
TestSuite(render_tri, .fini = teardown);

/* A camera looking at the origin from `distance`, lights, identity model. */
static void open_scene(double distance, double near, double far)
{
    char why[256];
    if (!harness_open(&h, why, sizeof why))
        cr_skip_test("%s", why);
    const double eye[3] = {0, 0, distance}, target[3] = {0, 0, 0};
    float near_w;
    view = scene_view(60, 320.0 / 240.0, near, far, eye, target, &near_w);
    model = scene_model(0, 0, 0, 0);
    render_lights_t l = {.ambient = {0.3f, 0.3f, 0.3f},
                         .count = 2,
                         .color = {{0.7f, 0.6f, 0.5f}, {0.2f, 0.3f, 0.6f}},
                         .direction = {{0.3f, 0.5f, 1}, {-1, 0, 0.2f}}};
    lights = l;
    frame = harness_frame(&h, 320, 240, near_w);
    cmd_frame(&h.cl, &frame);
    cmd_lights(&h.cl, &lights);
    cmd_view(&h.cl, &view);
    cmd_model(&h.cl, &model, &lights);
}

/* The triangle commands in the RDP output, in order. */
static int read_triangles(rdp_tri_t *out, int capacity)
{
    int n = 0;
    const uint8_t *base = h.rdram;
    uint32_t at = h.out_start;
    while (at < h.rdp_last) {
        size_t size = rdp_command_size(base[at]);
        if (n < capacity && rdp_decode_triangle(base + at, h.rdp_last - at, &out[n]))
            n++;
        at += (uint32_t)size;
    }
    return n;
}

/* Checks triangle t against reference corners a, b, c. */
static void check_triangle_within(const rdp_tri_t *t, const ref_vertex_t *v[3], double colour_tolerance,
                                  const char *what)
{
    const ref_vertex_t *s[3] = {v[0], v[1], v[2]};
    for (int i = 0; i < 2; i++) /* sort by y */
        for (int j = 0; j < 2 - i; j++)
            if (s[j]->sy > s[j + 1]->sy) {
                const ref_vertex_t *tmp = s[j];
                s[j] = s[j + 1];
                s[j + 1] = tmp;
            }
    /* the command's corners: where its edges start and end (y snapped to quarter pixels) */
    double corner[3][2] = {{rdp_tri_edge_x(t, 'H', t->yh), t->yh}, {t->xl, t->ym}, {rdp_tri_edge_x(t, 'H', t->yl), t->yl}};
    for (int i = 0; i < 3; i++) {
        cr_expect_leq(fabs(corner[i][0] - s[i]->sx), 0.25, "%s corner %d: x %.3f, reference %.3f", what, i,
                      corner[i][0], s[i]->sx);
        cr_expect_leq(fabs(corner[i][1] - s[i]->sy), 0.25, "%s corner %d: y %.3f, reference %.3f", what, i,
                      corner[i][1], s[i]->sy);
    }
    /* the edges meet there: M from the top corner to the middle one, L from it to the bottom one */
    const double meet = 1.0 / 64;
    if (t->ym > t->yh)
        cr_expect_leq(fabs(rdp_tri_edge_x(t, 'M', t->ym) - t->xl), meet + fabs(t->dxmdy) / 1024,
                      "%s: M edge ends %.4f, middle corner %.4f", what, rdp_tri_edge_x(t, 'M', t->ym), t->xl);
    if (t->yl > t->ym)
        cr_expect_leq(fabs(rdp_tri_edge_x(t, 'L', t->yl) - corner[2][0]), meet + fabs(t->dxldy) / 1024,
                      "%s: L edge ends %.4f, bottom corner %.4f", what, rdp_tri_edge_x(t, 'L', t->yl), corner[2][0]);
    const double tol = 0.25;
    cr_expect_eq(t->left_major, s[1]->sx > rdp_tri_edge_x(t, 'H', s[1]->sy), "%s: left-major flag", what);
    for (int i = 0; i < 3; i++) {
        double slack = tol * (fabs(t->dadx[7]) + fabs(t->dady[7]));
        if (t->command & 4)
            for (int c = 0; c < 4; c++) {
                double got = rdp_tri_attribute(t, c, s[i]->sx, s[i]->sy);
                double cslack = tol * (fabs(t->dadx[c]) + fabs(t->dady[c]));
                cr_expect_leq(fabs(got - s[i]->rgba[c]), colour_tolerance + cslack, "%s corner %d colour %d: %.2f, reference %d",
                              what, i, c, got, s[i]->rgba[c]);
            }
        if (t->command & 1) {
            double z = rdp_tri_attribute(t, 7, s[i]->sx, s[i]->sy);
            cr_expect_leq(fabs(z - s[i]->z), 4.0 + slack, "%s corner %d: Z %.1f, reference %.1f", what, i, z, s[i]->z);
        }
    }
}

static void check_triangle(const rdp_tri_t *t, const ref_vertex_t *v[3], const char *what)
{
    check_triangle_within(t, v, 1.0, what);
}

#define MAX_VERTS 64

typedef struct mesh {
    uint8_t pairs[MAX_VERTS / 2][32];
    int count;
} mesh_t;

static void set_vertex(mesh_t *m, int k, int x, int y, int z, uint32_t rgba)
{
    uint8_t *p = m->pairs[k / 2] + 8 * (k % 2);
    const int pos[3] = {x, y, z};
    for (int i = 0; i < 3; i++) {
        p[2 * i] = (uint8_t)((unsigned)pos[i] >> 8);
        p[2 * i + 1] = (uint8_t)pos[i];
    }
    p[6] = 0x03; /* normal (0, 31, 0) packed 5.6.5: facing up */
    p[7] = 0xE0;
    uint8_t *c = m->pairs[k / 2] + 16 + 4 * (k % 2);
    c[0] = (uint8_t)(rgba >> 24);
    c[1] = (uint8_t)(rgba >> 16);
    c[2] = (uint8_t)(rgba >> 8);
    c[3] = (uint8_t)rgba;
    if (k + 1 > m->count)
        m->count = k + 1;
}

static void reference_vertices(const mesh_t *m, ref_vertex_t *out)
{
    for (int k = 0; k < m->count; k++)
        ref_vertex(&view, &model, &lights, &frame, m->pairs[k / 2], k % 2, &out[k]);
}

/* Random vertices spread over the screen at depths in front of the camera. */
static void random_mesh(mesh_t *m, int count, uint32_t seed)
{
    uint32_t r = seed;
    memset(m, 0, sizeof(*m));
    for (int k = 0; k < count; k++)
        set_vertex(m, k, (int)(scene_random(&r) % 6001) - 3000, (int)(scene_random(&r) % 4401) - 2200,
                   (int)(scene_random(&r) % 4001) - 2000, scene_random(&r) << 8 | 0xFF);
}

static double cross(const ref_vertex_t *a, const ref_vertex_t *b, const ref_vertex_t *c)
{
    return (b->sx - a->sx) * (c->sy - a->sy) - (b->sy - a->sy) * (c->sx - a->sx);
}

Test(render_tri, triangle_lists_match_the_reference)
{
    open_scene(9000, 3000, 15000);
    static mesh_t m;
    random_mesh(&m, 30, 4242);
    uint32_t vaddr = rdram_put(&h.img, m.pairs, sizeof m.pairs, 16);
    uint8_t indices[30];
    for (int i = 0; i < 30; i++)
        indices[i] = (uint8_t)((i * 7 + 3) % 30);
    uint32_t iaddr = rdram_put(&h.img, indices, sizeof indices, 1) + 0; /* unaligned on purpose below */
    uint32_t iaddr3 = rdram_alloc(&h.img, 40, 8) + 3;
    memcpy(h.rdram + iaddr3, indices, sizeof indices);
    cmd_trimode(&h.cl, 0x0D, CULL_NONE, 0);
    cmd_vtx(&h.cl, vaddr, 30, 10);
    uint8_t shifted[30];
    for (int i = 0; i < 30; i++)
        shifted[i] = (uint8_t)(indices[i] + 10);
    memcpy(h.rdram + iaddr, shifted, sizeof shifted);
    memcpy(h.rdram + iaddr3, shifted, sizeof shifted);
    cmd_tris(&h.cl, iaddr, 30);
    cmd_tris(&h.cl, iaddr3, 30);
    cr_assert_eq(harness_run(&h, 2000000), RSP_STOP_BREAK);
    cr_assert_eq(rsp_dmem_read32(h.rsp, ST_ERROR), 0u);

    ref_vertex_t ref[MAX_VERTS];
    reference_vertices(&m, ref);
    rdp_tri_t tris[32];
    int n = read_triangles(tris, 32);
    cr_assert_eq(n, 20, "%d triangle commands for 2 x 10 triangles", n);
    for (int k = 0; k < 20; k++) {
        const ref_vertex_t *v[3] = {&ref[indices[3 * (k % 10)]], &ref[indices[3 * (k % 10) + 1]],
                                    &ref[indices[3 * (k % 10) + 2]]};
        char what[32];
        snprintf(what, sizeof what, "triangle %d", k);
        check_triangle(&tris[k], v, what);
    }
    cr_log_info("%d triangles: %llu cycles", n, (unsigned long long)h.rsp->cycles);
}

Test(render_tri, back_faces_and_front_faces_are_culled)
{
    open_scene(9000, 3000, 15000);
    static mesh_t m;
    random_mesh(&m, 30, 77);
    uint32_t vaddr = rdram_put(&h.img, m.pairs, sizeof m.pairs, 16);
    uint8_t indices[30];
    for (int i = 0; i < 30; i++)
        indices[i] = (uint8_t)i;
    uint32_t iaddr = rdram_put(&h.img, indices, sizeof indices, 8);
    cmd_vtx(&h.cl, vaddr, 30, 0);
    cmd_trimode(&h.cl, 0x0C, CULL_BACK, 0);
    cmd_tris(&h.cl, iaddr, 30);
    cmd_trimode(&h.cl, 0x0C, CULL_FRONT, 0);
    cmd_tris(&h.cl, iaddr, 30);
    cr_assert_eq(harness_run(&h, 2000000), RSP_STOP_BREAK);

    ref_vertex_t ref[MAX_VERTS];
    reference_vertices(&m, ref);
    rdp_tri_t tris[32];
    int n = read_triangles(tris, 32);
    /* front faces (counter-clockwise with y up: negative cross product on screen) first, then the back faces */
    int expected[20], count = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < 10; k++) {
            double c = cross(&ref[3 * k], &ref[3 * k + 1], &ref[3 * k + 2]);
            if (pass == 0 ? c < 0 : c > 0)
                expected[count++] = k;
        }
    cr_assert_eq(n, count, "%d triangles drawn, %d expected", n, count);
    cr_expect(count > 3 && count < 20);
    for (int i = 0; i < n; i++) {
        int k = expected[i];
        const ref_vertex_t *v[3] = {&ref[3 * k], &ref[3 * k + 1], &ref[3 * k + 2]};
        check_triangle(&tris[i], v, "culled pass");
    }
}

Test(render_tri, strips_and_sequences_make_the_triangles_they_store)
{
    open_scene(9000, 3000, 15000);
    static mesh_t m;
    random_mesh(&m, 12, 5);
    uint32_t vaddr = rdram_put(&h.img, m.pairs, sizeof m.pairs, 16);
    /* strip 0 1 2 3 4, restart at 6: 6 7 8 9 10; an index past the cache breaks it: [99] 11 0 1 */
    const uint16_t strip[] = {0, 1, 2, 3, 4, 0x8006, 7, 8, 9, 10, 99, 11, 0, 1};
    uint8_t bytes[sizeof strip];
    for (size_t i = 0; i < sizeof strip / 2; i++) {
        bytes[2 * i] = (uint8_t)(strip[i] >> 8);
        bytes[2 * i + 1] = (uint8_t)strip[i];
    }
    uint32_t saddr = rdram_put(&h.img, bytes, sizeof bytes, 8);
    cmd_vtx(&h.cl, vaddr, 12, 0);
    cmd_trimode(&h.cl, 0x0D, CULL_NONE, 0);
    cmd_strip(&h.cl, saddr, sizeof strip / 2);
    cmd_seq(&h.cl, 3, 3); /* slots 3..11 */
    cr_assert_eq(harness_run(&h, 2000000), RSP_STOP_BREAK);

    ref_vertex_t ref[MAX_VERTS];
    reference_vertices(&m, ref);
    /* strip triangles keep the strip's winding: every other one swaps its first two */
    const int expect[][3] = {{0, 1, 2}, {2, 1, 3}, {2, 3, 4}, {6, 7, 8},  {8, 7, 9},
                             {8, 9, 10}, {11, 0, 1}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}};
    rdp_tri_t tris[16];
    int n = read_triangles(tris, 16);
    cr_assert_eq(n, 10, "%d triangles", n);
    for (int k = 0; k < n; k++) {
        const ref_vertex_t *v[3] = {&ref[expect[k][0]], &ref[expect[k][1]], &ref[expect[k][2]]};
        char what[32];
        snprintf(what, sizeof what, "triangle %d", k);
        check_triangle(&tris[k], v, what);
    }
}

static ref_vertex_t corner_vertex(const ref_corner_t *c)
{
    ref_vertex_t v = {0};
    v.sx = c->sx;
    v.sy = c->sy;
    v.z = c->z;
    for (int k = 0; k < 4; k++)
        v.rgba[k] = (uint8_t)floor(c->rgba[k]); /* the microcode truncates */
    return v;
}

/* Triangles through the near plane and far beyond the guard band come out as
 * the fans of their clipped polygons. */
Test(render_tri, clipped_triangles_are_the_fans_of_their_clipped_polygons)
{
    open_scene(9000, 3000, 15000);
    static mesh_t m;
    memset(&m, 0, sizeof m);
    /* 0-2: one corner behind the camera; 3-5: two corners past the near plane;
     * 6-8: a huge triangle around the screen; 9-11: far to the right and left, through the guard band */
    const int v[12][3] = {{-1000, -800, 0},   {1500, -600, 500},   {200, 900, 8000},
                          {-1200, 600, 7000}, {1300, 500, 6500},   {0, -900, 1000},
                          {-30000, -25000, -2000}, {30000, -25000, -2000}, {0, 30000, -2000},
                          {25000, 300, 0},    {-25000, 500, 200},  {0, -1500, 100}};
    for (int k = 0; k < 12; k++)
        set_vertex(&m, k, v[k][0], v[k][1], v[k][2], 0x20406080u + 0x11223300u * (uint32_t)(k % 4) + 0xFF);
    uint32_t vaddr = rdram_put(&h.img, m.pairs, sizeof m.pairs, 16);
    cmd_vtx(&h.cl, vaddr, 12, 0);
    cmd_trimode(&h.cl, 0x0D, CULL_NONE, 0);
    cmd_seq(&h.cl, 0, 4);
    cr_assert_eq(harness_run(&h, 2000000), RSP_STOP_BREAK);
    cr_assert_eq(rsp_dmem_read32(h.rsp, ST_ERROR), 0u);
    cr_expect_eq(rsp_dmem_read32(h.rsp, ST_STATS + 8), 4u, "all four were clipped");

    ref_vertex_t ref[MAX_VERTS];
    reference_vertices(&m, ref);
    rdp_tri_t tris[64];
    int n = read_triangles(tris, 64), at = 0;
    for (int k = 0; k < 4; k++) {
        const ref_vertex_t *tri[3] = {&ref[3 * k], &ref[3 * k + 1], &ref[3 * k + 2]};
        ref_corner_t poly[9];
        int corners = ref_clip_triangle(tri, &frame, poly);
        cr_assert_geq(corners, 3, "triangle %d: the reference keeps nothing", k);
        for (int i = 1; i + 1 < corners; i++, at++) {
            cr_assert_lt(at, n, "triangle %d: only %d triangle commands", k, n);
            ref_vertex_t a = corner_vertex(&poly[0]), b = corner_vertex(&poly[i]), c = corner_vertex(&poly[i + 1]);
            const ref_vertex_t *fan[3] = {&a, &b, &c};
            char what[48];
            snprintf(what, sizeof what, "triangle %d, fan %d", k, i);
            /* each cut truncates the 8-bit colours it interpolates: a corner made by
             * two planes is at most two steps off */
            check_triangle_within(&tris[at], fan, 2.0, what);
        }
    }
    cr_expect_eq(n, at, "%d triangle commands, the reference fans make %d", n, at);
}
