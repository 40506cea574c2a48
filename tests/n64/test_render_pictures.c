/* Every sample model drawn by the microcode and the software RDP (through
 * render_model, as binform render does) against a plain rasterization of the
 * floating-point reference pipeline: the same vertices as stored, the same
 * matrices and lights, near/far/guard-band clipping and culling done the
 * reference's way. Away from triangle edges, at least 99 % of the covered
 * pixels must agree within a few shade steps. Both pictures go to
 * build/render-tests/ for a person to look at. */
#include "png_write.h"
#include "raster_reference.h"
#include "render_model.h"
#include "render_reference.h"
#include "../../n64/rsp/render_abi.h"

#include "t3dm.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef N64_PROJECT_ROOT
#define N64_PROJECT_ROOT "."
#endif

#define TOLERANCE 3       /* per channel, of 255: the RDP interpolates in fixed point and truncates */
#define REQUIRED 0.99     /* share of covered, non-edge pixels that must agree */

static const char *const models[] = {
    "01_model/model.t3dm",     "02_lighting/light.t3dm",  "02_lighting/model.t3dm",    "03_objects/box.t3dm",
    "03_objects/food.t3dm",    "07_skeleton/box.t3dm",    "07_skeleton/chicken.t3dm",  "08_animation/map.t3dm",
    "08_animation/shadow.t3dm", "08_animation/snake.t3dm", "11_segments/player.t3dm",  "12_uv_gen/brew_logo.t3dm",
    "12_uv_gen/can.t3dm",      "12_uv_gen/color.t3dm",    "12_uv_gen/flat.t3dm",       "12_uv_gen/gem.t3dm",
    "12_uv_gen/gold.t3dm",     "12_uv_gen/sphere.t3dm",   "12_uv_gen/teapot.t3dm",     "17_culling/platformer.t3dm",
    "18_particles/scene.t3dm",
};

static bool read_file(const char *path, uint8_t **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *data = malloc(n > 0 ? (size_t)n : 1);
    *size = n > 0 ? (size_t)n : 0;
    bool ok = *data && fread(*data, 1, *size, f) == *size;
    fclose(f);
    return ok;
}

static void sample_path(const char *rel, char *out, size_t size)
{
    const char *shared = getenv("BF_SHARED_DIR");
    if (shared)
        snprintf(out, size, "%s/samples/t3dm/%s", shared, rel);
    else
        snprintf(out, size, "%s/../shared/samples/t3dm/%s", N64_PROJECT_ROOT, rel);
}

/* ---- the reference traversal: what draw_model asks the microcode to do ---- */

typedef struct reference {
    const uint8_t *file;
    const t3dm_File *model;
    const render_result_t *rendered;
    render_frame_t frame;
    mat4 frame_view;
    raster_t raster;
    ref_vertex_t cache[VCACHE_SLOTS + 1];
    mat4 matrix;
    unsigned cull;
} reference_t;

static const t3dm_Material *material_of(const t3dm_File *m, uint32_t index)
{
    uint32_t seen = 0;
    for (uint32_t c = 0; c < m->chunk_data_count; c++)
        if (m->chunk_data[c].body.kind == T3DM_KIND_MATERIAL && seen++ == index)
            return m->chunk_data[c].body.Material;
    return NULL;
}

static void to_raster(const ref_corner_t *c, raster_vertex_t *v)
{
    v->x = c->sx;
    v->y = c->sy;
    v->z = c->z;
    for (int k = 0; k < 4; k++)
        v->rgba[k] = c->rgba[k];
}

static void draw_triangle(reference_t *r, unsigned i0, unsigned i1, unsigned i2)
{
    if (i0 > VCACHE_SLOTS || i1 > VCACHE_SLOTS || i2 > VCACHE_SLOTS)
        return;
    const ref_vertex_t *v[3] = {&r->cache[i0], &r->cache[i1], &r->cache[i2]};
    ref_corner_t poly[9];
    int n = ref_clip_triangle(v, &r->frame, poly);
    for (int k = 1; k + 1 < n; k++) {
        raster_vertex_t a, b, c;
        to_raster(&poly[0], &a);
        to_raster(&poly[k], &b);
        to_raster(&poly[k + 1], &c);
        double cross = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
        bool front = cross < 0; /* counter-clockwise with y up */
        if ((r->cull == CULL_BACK && !front) || (r->cull == CULL_FRONT && front))
            continue;
        raster_triangle(&r->raster, &a, &b, &c);
    }
}

static void draw_part(reference_t *r, const t3dm_Part *p, uint32_t vertex_chunk)
{
    mat4 identity = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}};
    const render_result_t *res = r->rendered;
    r->matrix = p->matrix_index < res->bone_count && res->bones ? res->bones[p->matrix_index] : identity;
    /* loads are whole pairs from a pair boundary */
    for (unsigned k = 0; k < p->vertex_count + (p->vertex_count & 1u); k++) {
        unsigned slot = p->vertex_dest + k;
        if (slot > VCACHE_SLOTS)
            break;
        const uint8_t *pair = r->file + vertex_chunk + p->vertex_offset + 32u * (k / 2);
        ref_vertex(&r->frame_view, &r->matrix, &res->frame.lights, &r->frame, pair, (int)(k % 2), &r->cache[slot]);
    }
    const t3dm_PartIndices *ix = &p->index_data;
    for (uint32_t k = 0; k + 2 < ix->triangles_count; k += 3)
        draw_triangle(r, ix->triangles[k], ix->triangles[k + 1], ix->triangles[k + 2]);
    for (unsigned k = 0; k < p->seq_count; k++)
        draw_triangle(r, p->seq_start + 3u * k, p->seq_start + 3u * k + 1, p->seq_start + 3u * k + 2);
    const uint16_t *strips[4] = {ix->strip_a, ix->strip_b, ix->strip_c, ix->strip_d};
    const uint32_t counts[4] = {ix->strip_a_count, ix->strip_b_count, ix->strip_c_count, ix->strip_d_count};
    for (int s = 0; s < 4; s++) {
        unsigned prev2 = 0, prev1 = 0, n = 0;
        for (uint32_t k = 0; strips[s] && k < counts[s]; k++) {
            unsigned idx = strips[s][k];
            if (idx & 0x8000u)
                n = 0;
            idx &= 0x7FFFu;
            if (n >= 2) {
                if (n % 2 == 0)
                    draw_triangle(r, prev2, prev1, idx);
                else
                    draw_triangle(r, prev1, prev2, idx);
            }
            prev2 = prev1;
            prev1 = idx;
            n++;
        }
    }
}

static bool draw_reference(reference_t *r)
{
    const t3dm_File *m = r->model;
    const draw_frame_t *f = &r->rendered->frame;
    r->frame = (render_frame_t){f->width, f->height, f->clip_near_w, 1, 0, 0};
    r->frame_view = f->view;
    if (raster_init(&r->raster, f->width, f->height, render_default_options().background) != 0)
        return false;
    uint32_t vertex_chunk = m->chunks[m->header.first_vertex_chunk].offset;
    for (uint32_t c = 0; c < m->chunk_data_count; c++) {
        if (m->chunk_data[c].body.kind != T3DM_KIND_OBJECT)
            continue;
        const t3dm_Object *obj = m->chunk_data[c].body.Object;
        const t3dm_Material *mat = material_of(m, obj->material);
        uint32_t flags = mat ? mat->draw_flags : 0;
        r->cull = (flags & 16u) ? CULL_BACK : (flags & 8u) ? CULL_FRONT : CULL_NONE;
        for (uint32_t k = 0; k < obj->parts_count; k++)
            draw_part(r, &obj->parts[k], vertex_chunk);
    }
    return true;
}

/* A pixel next to one another triangle (or the background) drew: left out. */
static bool on_edge(const raster_t *r, int x, int y)
{
    int32_t own = r->owner[y * r->width + x];
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int nx = x + dx, ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= r->width || ny >= r->height || r->owner[ny * r->width + nx] != own)
                return true;
        }
    return false;
}

static void save_picture(const char *name, const char *suffix, const uint8_t *rgba, int w, int h)
{
    char path[1024], error[1200];
    snprintf(path, sizeof path, "%s/build/render-tests", N64_PROJECT_ROOT);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/build/render-tests/%s%s.png", N64_PROJECT_ROOT, name, suffix);
    if (png_save(path, rgba, (unsigned)w, (unsigned)h, error, sizeof error) != 0)
        cr_log_warn("%s", error);
}

/* A case: a model and a camera. Indices, not pointers: Criterion runs each
 * case in a process of its own. */
typedef struct picture_case {
    int model;
    float distance, yaw, pitch;
} picture_case_t;

#define MODELS (int)(sizeof models / sizeof models[0])
/* every model framed whole, then close-ups through the near plane and past the guard band */
static picture_case_t cases[MODELS + 4];

ParameterizedTestParameters(render_pictures, agree_with_the_reference)
{
    for (int i = 0; i < MODELS; i++)
        cases[i] = (picture_case_t){i, 1, 30, 20};
    cases[MODELS + 0] = (picture_case_t){19, 0.3f, 10, 25};  /* platformer, from inside */
    cases[MODELS + 1] = (picture_case_t){17, 0.45f, 200, -10}; /* sphere, closer than its radius */
    cases[MODELS + 2] = (picture_case_t){6, 0.5f, 300, 5};    /* chicken */
    cases[MODELS + 3] = (picture_case_t){7, 0.35f, 45, 60};   /* map, from above */
    return cr_make_param_array(picture_case_t, cases, MODELS + 4);
}

ParameterizedTest(picture_case_t *pc, render_pictures, agree_with_the_reference)
{
    const char *const *rel = &models[pc->model];
    char path[1024];
    sample_path(*rel, path, sizeof path);
    uint8_t *file;
    size_t size;
    if (!read_file(path, &file, &size))
        cr_skip_test("%s not found (../shared absent)", path);
    render_options_t o = render_default_options();
    o.shading = DRAW_VERTEX;
    o.distance = pc->distance;
    o.yaw_deg = pc->yaw;
    o.pitch_deg = pc->pitch;
    render_result_t res;
    char error[1024];
    cr_assert(render_model(file, size, &o, NULL, NULL, &res, error, sizeof error), "%s: %s", *rel, error);

    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    t3dm_File *m = NULL;
    bf_error err;
    cr_assert(t3dm_read_model(file, size, &arena, NULL, &m, &err));
    static reference_t ref;
    memset(&ref, 0, sizeof ref);
    ref.file = file;
    ref.model = m;
    ref.rendered = &res;
    cr_assert(draw_reference(&ref));

    long covered = 0, compared = 0, agree = 0, missing = 0;
    int w = res.width, h = res.height;
    uint8_t *diff = calloc((size_t)w * h * 4, 1);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int i = y * w + x;
            diff[4 * i + 3] = 255;
            if (ref.raster.owner[i] < 0)
                continue;
            covered++;
            if (on_edge(&ref.raster, x, y))
                continue;
            compared++;
            int worst = 0;
            for (int c = 0; c < 3; c++) {
                int d = abs((int)res.rgba[4 * i + c] - (int)ref.raster.rgba[4 * i + c]);
                worst = d > worst ? d : worst;
            }
            agree += worst <= TOLERANCE;
            diff[4 * i] = (uint8_t)(worst > 63 ? 255 : worst * 4);
            diff[4 * i + 1] = worst <= TOLERANCE ? 64 : 0;
        }
    (void)missing;
    char name[256];
    snprintf(name, sizeof name, "%s%s", *rel, pc->distance < 1 ? ".close" : "");
    for (char *q = name; *q; q++)
        if (*q == '/' || *q == '.')
            *q = '_';
    save_picture(name, "", res.rgba, w, h);
    save_picture(name, ".reference", ref.raster.rgba, w, h);
    save_picture(name, ".difference", diff, w, h);
    free(diff);
    double share = compared ? (double)agree / compared : 0;
    cr_log_info("%s (distance %g): %ld pixels covered, %ld away from edges, %.2f %% agree; %u triangles drawn, %u culled, %u "
                "clipped; %.1f RSP cycles per triangle", *rel, pc->distance, covered, compared, 100 * share, res.emu.drawn,
                res.emu.rejected, res.emu.clipped, res.triangles ? (double)res.emu.rsp_cycles / res.triangles : 0.0);
    /* every triangle the microcode met is counted once: drawn, culled or off screen, or clipped */
    cr_expect_eq(res.emu.drawn + res.emu.rejected + res.emu.clipped, res.triangles,
                 "%s: %u drawn + %u culled + %u clipped, but the model's commands hold %u triangles", *rel, res.emu.drawn,
                 res.emu.rejected, res.emu.clipped, res.triangles);
    cr_expect_gt(compared, 100, "%s: only %ld pixels to compare", *rel, compared);
    cr_expect_geq(share, REQUIRED, "%s: %.2f %% of %ld pixels agree (need %.0f %%)", *rel, 100 * share, compared,
                  100 * REQUIRED);
    raster_free(&ref.raster);
    bf_arena_free(&arena);
    render_result_free(&res);
    free(file);
}

/* n64-bench's three drawings of a model: the frame alone and the vertex loads
 * alone meet no triangle, everything meets all the model's; each costs more
 * than the one before. The project's pyramid, so that it runs without the samples. */
Test(render_pictures, bench_drawings_hold_what_they_say)
{
    uint8_t *file;
    size_t size;
    cr_assert(read_file(N64_PROJECT_ROOT "/tests/fixtures/demo/pyramid.t3dm", &file, &size));
    const draw_content_t contents[3] = {DRAW_FRAME_ONLY, DRAW_VERTICES_ONLY, DRAW_EVERYTHING};
    uint64_t cycles[3];
    for (int i = 0; i < 3; i++) {
        render_options_t o = render_default_options();
        o.content = contents[i];
        render_result_t r;
        char error[512];
        cr_assert(render_model(file, size, &o, NULL, NULL, &r, error, sizeof error), "%s", error);
        uint32_t met = r.emu.drawn + r.emu.rejected + r.emu.clipped;
        cr_expect_eq(r.triangles, 6u, "the pyramid's sides and base");
        cr_expect_eq(met, i == 2 ? r.triangles : 0u, "drawing %d met %u triangles", i, met);
        cr_expect_gt(r.vertices, 0u);
        cr_expect_gt(r.emu.rsp_instructions, 0u);
        cycles[i] = r.emu.rsp_cycles;
        render_result_free(&r);
    }
    cr_expect_lt(cycles[0], cycles[1], "vertex loads cost something");
    cr_expect_lt(cycles[1], cycles[2], "triangles cost something");
    free(file);
}
