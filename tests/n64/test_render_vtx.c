/* CMD_VTX of the renderer microcode against the floating-point reference:
 * every vertex within 1/4 pixel and one shade step, clip codes as the
 * reference has them (away from the planes), W and Z close. */
#include "render_harness.h"
#include "render_reference.h"
#include "render_scene.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#define PAIRS 35

static harness_t h;

static void open_harness(void)
{
    char why[256];
    if (!harness_open(&h, why, sizeof why))
        cr_skip_test("%s", why);
}

static void teardown(void) { harness_close(&h); }

TestSuite(render_vtx, .fini = teardown);

static render_lights_t test_lights(void)
{
    render_lights_t l = {
        .ambient = {0.25f, 0.2f, 0.3f},
        .count = 3,
        .color = {{0.9f, 0.8f, 0.7f}, {0.3f, 0.5f, 0.9f}, {1.2f, 0.1f, 0.0f}},
        .direction = {{1, 2, 3}, {-2, 0.5f, 1}, {0, -1, 0}},
    };
    return l;
}

/* Random vertex pairs: positions within the box, unit normals, colours, UVs. */
static void random_pairs(uint8_t pairs[][32], int count, int extent, uint32_t seed)
{
    uint32_t r = seed;
    for (int n = 0; n < count; n++) {
        int pos[2][3], uv[2][2];
        double normal[2][3];
        uint32_t rgba[2];
        for (int v = 0; v < 2; v++) {
            for (int i = 0; i < 3; i++) {
                pos[v][i] = (int)(scene_random(&r) % (2u * (unsigned)extent + 1)) - extent;
                normal[v][i] = (double)(scene_random(&r) % 2001) / 1000.0 - 1.0;
            }
            if (fabs(normal[v][0]) + fabs(normal[v][1]) + fabs(normal[v][2]) < 0.1)
                normal[v][1] = 1;
            rgba[v] = scene_random(&r) << 8 | (scene_random(&r) & 0xFF);
            uv[v][0] = (int)(scene_random(&r) % 4096) - 2048;
            uv[v][1] = (int)(scene_random(&r) % 4096) - 2048;
        }
        scene_pair(pairs[n], pos[0], normal[0], rgba[0], uv[0], pos[1], normal[1], rgba[1], uv[1]);
    }
}

/* True when the vertex is further than `margin` (relative to w) from every
 * plane of the clip codes, so that both sides must agree on them. */
static bool away_from_planes(const ref_vertex_t *v, unsigned guard_shift, double margin)
{
    double w = fabs(v->clip[3]), g = (double)(1u << guard_shift);
    for (int i = 0; i < 3; i++) {
        double c = fabs(v->clip[i]);
        if (fabs(c - w) < margin * w || (i < 2 && fabs(c - g * w) < margin * w))
            return false;
    }
    return true;
}

static void check_vertices(const uint8_t pairs[][32], int first, int count, unsigned first_slot, const mat4 *view,
                           const mat4 *model, const render_lights_t *lights, const render_frame_t *frame,
                           int *checked)
{
    for (int k = first; k < first + count; k++) {
        ref_vertex_t ref;
        ref_vertex(view, model, lights, frame, pairs[k / 2], k % 2, &ref);
        cache_vertex_t got;
        harness_vertex(&h, first_slot + (unsigned)(k - first), &got);
        if (away_from_planes(&ref, frame->guard_shift, 1e-3)) {
            cr_expect_eq(got.reject_code, ref.reject_code, "vertex %d: reject code %02x, reference %02x", k,
                         got.reject_code, ref.reject_code);
            cr_expect_eq(got.clip_code, ref.clip_code, "vertex %d: clip code %02x, reference %02x", k, got.clip_code,
                         ref.clip_code);
        }
        cr_expect_eq(got.s, ref.s, "vertex %d: S", k);
        cr_expect_eq(got.t, ref.t, "vertex %d: T", k);
        for (int c = 0; c < 4; c++)
            cr_expect_leq(abs(got.rgba[c] - ref.rgba[c]), 1, "vertex %d channel %d: %d, reference %d (light %.4f)", k,
                          c, got.rgba[c], ref.rgba[c], c < 3 ? ref.light[c] : 1.0);
        /* screen position and depth only mean something in front of the camera and inside the guard band */
        if (ref.clip_code != 0)
            continue;
        (*checked)++;
        double dx = got.x / 4.0 - ref.sx, dy = got.y / 4.0 - ref.sy;
        cr_expect_leq(fabs(dx), 0.25, "vertex %d: x %.3f, reference %.3f", k, got.x / 4.0, ref.sx);
        cr_expect_leq(fabs(dy), 0.25, "vertex %d: y %.3f, reference %.3f", k, got.y / 4.0, ref.sy);
        cr_expect_leq(fabs(got.z - ref.z), 4.0, "vertex %d: z %d, reference %.2f", k, got.z, ref.z);
        /* W = WSCALE / (2 w'): W / W(near) = w(near) / w */
        double w_ratio = got.w / (0x7F00 * 1.0) , ref_ratio = ref.w;
        cr_expect_leq(fabs(w_ratio - ref_ratio), 0.002 + 0.002 * ref_ratio, "vertex %d: W %d (%.5f), reference %.5f",
                      k, got.w, w_ratio, ref_ratio);
    }
}

Test(render_vtx, vertices_match_the_reference)
{
    open_harness();
    const double eye[3] = {1500, 2200, 7000}, target[3] = {0, 0, 0};
    float near_w;
    mat4 view = scene_view(60, 320.0 / 240.0, 2000, 16000, eye, target, &near_w);
    mat4 model = scene_model(30, 120, -80, 40);
    render_lights_t lights = test_lights();
    render_frame_t frame = harness_frame(&h, 320, 240, near_w);

    static uint8_t pairs[PAIRS][32];
    random_pairs(pairs, PAIRS, 6000, 12345);
    uint32_t addr = rdram_put(&h.img, pairs, sizeof pairs, 16);
    cmd_frame(&h.cl, &frame);
    cmd_lights(&h.cl, &lights);
    cmd_view(&h.cl, &view);
    cmd_model(&h.cl, &model, &lights);
    cmd_vtx(&h.cl, addr, 2 * PAIRS, 0);
    cr_assert_not(h.cl.overflow);
    cr_assert_eq(harness_run(&h, 1000000), RSP_STOP_BREAK);
    cr_assert_eq(rsp_dmem_read32(h.rsp, ST_ERROR), 0u, "command rejected: %08x", rsp_dmem_read32(h.rsp, ST_ERROR));
    int checked = 0;
    check_vertices((const uint8_t(*)[32])pairs, 0, 2 * PAIRS, 0, &view, &model, &lights, &frame, &checked);
    cr_expect_gt(checked, 20, "only %d vertices landed inside the guard band", checked);
    cr_log_info("VTX of %d vertices: %llu cycles (%.1f per vertex)", 2 * PAIRS, (unsigned long long)h.rsp->cycles,
                (double)h.rsp->cycles / (2 * PAIRS));
}

/* Vertices load in pairs: an odd count also writes the slot after the last
 * (as tiny3d's microcode does); no other slot changes. */
Test(render_vtx, odd_counts_write_whole_pairs_and_no_other_slot)
{
    open_harness();
    const double eye[3] = {0, 0, 9000}, target[3] = {0, 0, 0};
    float near_w;
    mat4 view = scene_view(50, 4.0 / 3.0, 3000, 15000, eye, target, &near_w);
    mat4 model = scene_model(-75, 0, 0, 0);
    render_lights_t lights = test_lights();
    lights.count = 1;
    render_frame_t frame = harness_frame(&h, 160, 120, near_w);

    static uint8_t first[4][32], second[3][32];
    random_pairs(first, 4, 2500, 7);
    random_pairs(second, 3, 2500, 99);
    uint32_t a = rdram_put(&h.img, first, sizeof first, 8);
    uint32_t b = rdram_put(&h.img, second, sizeof second, 8);
    cmd_frame(&h.cl, &frame);
    cmd_lights(&h.cl, &lights);
    cmd_view(&h.cl, &view);
    cmd_model(&h.cl, &model, &lights);
    cmd_vtx(&h.cl, a, 8, 0);
    cmd_vtx(&h.cl, b, 5, 65); /* the last slots: the fifth vertex at slot 69, its partner in the spare slot 70 */
    cmd_vtx(&h.cl, b, 3, 3);  /* slots 3..6: the partner of the third lands in slot 6 */
    cr_assert_eq(harness_run(&h, 1000000), RSP_STOP_BREAK);
    cr_assert_eq(rsp_dmem_read32(h.rsp, ST_ERROR), 0u);
    int checked = 0;
    check_vertices((const uint8_t(*)[32])first, 0, 3, 0, &view, &model, &lights, &frame, &checked);
    check_vertices((const uint8_t(*)[32])second, 0, 4, 3, &view, &model, &lights, &frame, &checked);
    check_vertices((const uint8_t(*)[32])first, 7, 1, 7, &view, &model, &lights, &frame, &checked);
    check_vertices((const uint8_t(*)[32])second, 0, 5, 65, &view, &model, &lights, &frame, &checked);
    cr_expect_gt(checked, 8);
}

Test(render_vtx, a_load_past_the_cache_is_refused)
{
    open_harness();
    cmd_vtx(&h.cl, 0x2000, 10, 65);
    cr_assert_eq(harness_run(&h, 100000), RSP_STOP_BREAK);
    cr_expect_eq(rsp_dmem_read32(h.rsp, ST_ERROR), (uint32_t)CMD_VTX << 24 | 10u << 16 | 65u << 8);
}
