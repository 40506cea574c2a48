/* Textures through the whole renderer: a quad model built with the generated
 * builder, its material naming a libdragon sprite that lies "beside" it (one
 * of tests/fixtures/sprite, every texel format), drawn face-on by
 * render_model. Every texel's colour must show at the point of the picture
 * its centre projects to. A missing sprite draws the checkerboard. */
#include "render_model.h"

#include "../../n64/host/texture.h"
#include "bf_write.h"
#include "png_write.h"
#include "sprite.h"
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

#define NEW(arena, type, n) ((type *)bf_arena_alloc(arena, sizeof(type) * (size_t)(n) + 1))
#define HALF_W 64 /* the quad: 128 x 64 model units for an 8 x 4 texture */
#define HALF_H 32

static bf_str text(const char *s)
{
    bf_str r = {s, (uint32_t)strlen(s), 0};
    return r;
}

/* A quad facing +Z, white, UVs over the whole texture; its material samples
 * TEX0 alone, point-sampled, depth-tested, not culled. */
static bool build_quad(bf_arena *a, uint16_t tw, uint16_t th, bf_buffer *out)
{
    t3dm_File *f = NEW(a, t3dm_File, 1);
    t3dm_Vertices *v = NEW(a, t3dm_Vertices, 1);
    v->pairs_count = 2;
    v->pairs = NEW(a, t3dm_VertexPair, 2);
    const int16_t pos[4][3] = {{-HALF_W, -HALF_H, 0}, {HALF_W, -HALF_H, 0}, {HALF_W, HALF_H, 0}, {-HALF_W, HALF_H, 0}};
    const int16_t uv[4][2] = {{0, (int16_t)(th * 32)}, {(int16_t)(tw * 32), (int16_t)(th * 32)},
                              {(int16_t)(tw * 32), 0}, {0, 0}};
    for (int k = 0; k < 4; k++) {
        t3dm_VertexPair *p = &v->pairs[k / 2];
        if (k % 2 == 0) {
            memcpy(p->position_a, pos[k], sizeof pos[k]);
            memcpy(p->uv_a, uv[k], sizeof uv[k]);
            p->normal_a_z = 15;
            p->rgba_a = 0xFFFFFFFFu;
        } else {
            memcpy(p->position_b, pos[k], sizeof pos[k]);
            memcpy(p->uv_b, uv[k], sizeof uv[k]);
            p->normal_b_z = 15;
            p->rgba_b = 0xFFFFFFFFu;
        }
    }
    t3dm_Object *o = NEW(a, t3dm_Object, 1);
    o->name_str = text("quad");
    o->parts_count = 1;
    o->parts = NEW(a, t3dm_Part, 1);
    o->parts[0].vertex_count = 4;
    o->parts[0].matrix_index = 0xFFFF;
    o->parts[0].index_data.triangles_count = 6;
    static const uint8_t tris[6] = {0, 1, 2, 0, 2, 3};
    o->parts[0].index_data.triangles = (uint8_t *)tris;
    o->aabb_min[0] = -HALF_W, o->aabb_min[1] = -HALF_H, o->aabb_max[0] = HALF_W, o->aabb_max[1] = HALF_H;
    memcpy(f->header.aabb_min, o->aabb_min, sizeof o->aabb_min);
    memcpy(f->header.aabb_max, o->aabb_max, sizeof o->aabb_max);

    t3dm_Material *m = NEW(a, t3dm_Material, 1);
    m->name_str = text("texels");
    /* libdragon combiner: RGB = TEX0, alpha = TEX0 alpha, both cycles (d inputs: TEX0 = 1) */
    m->color_combiner = UINT64_C(0x00887F1088FE793C) & ~(UINT64_C(7) << 15 | UINT64_C(7) << 9 | UINT64_C(7) << 6 | 7);
    m->color_combiner |= UINT64_C(1) << 15 | UINT64_C(1) << 9 | UINT64_C(1) << 6 | 1;
    m->other_mode_mask = UINT64_C(1) << 45; /* point sampling */
    m->draw_flags = 0x3;                   /* depth, textured */
    m->texture_a.path_str = text("rom:/texels.sprite");
    m->texture_a.width = tw;
    m->texture_a.height = th;
    m->texture_a.axis[0].mask = (uint8_t)(tw == 8 ? 3 : 5);
    m->texture_a.axis[1].mask = (uint8_t)(th == 4 ? 2 : 5);

    f->chunk_data_count = 4;
    f->chunk_data = NEW(a, t3dm_Chunk, 4);
    f->chunk_data[0].body.kind = T3DM_KIND_OBJECT, f->chunk_data[0].body.Object = o;
    f->chunk_data[1].body.kind = T3DM_KIND_VERTICES, f->chunk_data[1].body.Vertices = v;
    f->chunk_data[2].body.kind = T3DM_CHUNK_BODY_I;
    f->chunk_data[3].body.kind = T3DM_KIND_MATERIAL, f->chunk_data[3].body.Material = m;
    bf_error err;
    return t3dm_build_model(f, a, out, &err) != 0;
}

typedef struct sprite_file {
    uint8_t *data;
    size_t size;
} sprite_file_t;

static bool load_sprite(void *ctx, const char *name, const uint8_t **data, size_t *size)
{
    sprite_file_t *s = ctx;
    if (strcmp(name, "texels.sprite") != 0 || !s->data)
        return false;
    *data = s->data;
    *size = s->size;
    return true;
}

/* Keeps the picture in build/render-tests/ for a person to look at. */
static void keep_picture(const render_result_t *res, const char *name)
{
    char path[1024], error[256];
    snprintf(path, sizeof path, "%s/build/render-tests", N64_PROJECT_ROOT);
    mkdir(path, 0777); /* test_render_pictures makes it too, but only with the samples */
    snprintf(path, sizeof path, "%s/build/render-tests/texture-%s.png", N64_PROJECT_ROOT, name);
    if (png_save(path, res->rgba, res->width, res->height, error, sizeof error) != 0)
        cr_log_warn("%s", error);
}

static unsigned expand5(unsigned c) { return (c << 3) | (c >> 2); }

/* Texel (x, y) of `t` as the RDP's combiner sees it, RGB 8 bits each. */
static void texel_rgb(const texture *t, unsigned x, unsigned y, unsigned rgb[3])
{
    const uint8_t *row = t->pixels + (size_t)y * t->row_bytes;
    unsigned v;
    switch (t->rdp_format << 2 | t->rdp_size) {
    case 0 << 2 | 2: /* RGBA16 */
        v = (unsigned)(row[2 * x] << 8 | row[2 * x + 1]);
        rgb[0] = expand5(v >> 11), rgb[1] = expand5((v >> 6) & 31), rgb[2] = expand5((v >> 1) & 31);
        return;
    case 0 << 2 | 3: /* RGBA32 */
        rgb[0] = row[4 * x], rgb[1] = row[4 * x + 1], rgb[2] = row[4 * x + 2];
        return;
    case 2 << 2 | 0: /* CI4 */
    case 2 << 2 | 1: /* CI8 */
        v = t->rdp_size == 0 ? (x % 2 ? row[x / 2] & 15u : row[x / 2] >> 4) : row[x];
        v = texture_palette_color(t, v);
        rgb[0] = expand5(v >> 11), rgb[1] = expand5((v >> 6) & 31), rgb[2] = expand5((v >> 1) & 31);
        return;
    case 3 << 2 | 0: /* IA4: 3-bit intensity */
        v = (x % 2 ? row[x / 2] & 15u : row[x / 2] >> 4) >> 1;
        rgb[0] = rgb[1] = rgb[2] = v << 5 | v << 2 | v >> 1;
        return;
    case 3 << 2 | 1: /* IA8 */
        v = row[x] >> 4;
        rgb[0] = rgb[1] = rgb[2] = v * 17;
        return;
    case 3 << 2 | 2: /* IA16 */
        rgb[0] = rgb[1] = rgb[2] = row[2 * x];
        return;
    case 4 << 2 | 0: /* I4 */
        v = x % 2 ? row[x / 2] & 15u : row[x / 2] >> 4;
        rgb[0] = rgb[1] = rgb[2] = v * 17;
        return;
    default: /* I8 */
        rgb[0] = rgb[1] = rgb[2] = row[x];
        return;
    }
}

static const char *const sprites[] = {"rgba16_8x4.sprite", "rgba32_8x4.sprite", "ci4_8x4.sprite", "ci8_8x4.sprite",
                                      "i4_8x4.sprite",     "i8_8x4.sprite",     "ia4_8x4.sprite", "ia8_8x4.sprite",
                                      "ia16_8x4.sprite"};
static int sprite_index[sizeof sprites / sizeof sprites[0]];

ParameterizedTestParameters(render_textures, every_texel_shows)
{
    for (size_t i = 0; i < sizeof sprites / sizeof sprites[0]; i++)
        sprite_index[i] = (int)i;
    return cr_make_param_array(int, sprite_index, sizeof sprites / sizeof sprites[0]);
}

ParameterizedTest(int *which, render_textures, every_texel_shows)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/fixtures/sprite/%s", N64_PROJECT_ROOT, sprites[*which]);
    sprite_file_t sf = {0};
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    sf.size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    sf.data = malloc(sf.size);
    cr_assert_eq(fread(sf.data, 1, sf.size, f), sf.size);
    fclose(f);

    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    sprite_Sprite *sprite;
    bf_error err;
    texture tex;
    cr_assert(sprite_read_sprite(sf.data, sf.size, &arena, NULL, &sprite, &err));
    cr_assert_eq(texture_from_sprite(sprite, &tex), 0);
    bf_buffer model = {0};
    cr_assert(build_quad(&arena, tex.width, tex.height, &model));

    render_options_t o = render_default_options();
    o.yaw_deg = 0;
    o.pitch_deg = 0;
    render_result_t res;
    char error[1024];
    cr_assert(render_model(model.data, model.size, &o, load_sprite, &sf, &res, error, sizeof error), "%s", error);
    cr_expect_eq(res.textures_loaded, 1u);
    cr_expect_eq(res.textures_missing, 0u);

    keep_picture(&res, sprites[*which]);
    int wrong = 0;
    for (unsigned y = 0; y < tex.height; y++)
        for (unsigned x = 0; x < tex.width; x++) {
            /* the texel's centre on the quad, projected with the matrix the microcode got */
            double p[4] = {-HALF_W + (x + 0.5) * (2.0 * HALF_W / tex.width), HALF_H - (y + 0.5) * (2.0 * HALF_H / tex.height),
                           0, 1};
            double c[4] = {0, 0, 0, 0};
            for (int r = 0; r < 4; r++)
                for (int k = 0; k < 4; k++)
                    c[r] += (double)res.frame.view.m[k][r] * p[k];
            int sx = (int)floor((c[0] / c[3] + 1) * 0.5 * res.width);
            int sy = (int)floor((1 - c[1] / c[3]) * 0.5 * res.height);
            const uint8_t *px = res.rgba + 4 * ((size_t)sy * res.width + (size_t)sx);
            unsigned want[3];
            texel_rgb(&tex, x, y, want);
            for (int ch = 0; ch < 3; ch++)
                if (abs((int)px[ch] - (int)want[ch]) > 2) {
                    wrong++;
                    cr_log_error("%s texel (%u, %u) at pixel (%d, %d): channel %d is %u, the texel %u", sprites[*which],
                                 x, y, sx, sy, ch, px[ch], want[ch]);
                }
        }
    cr_expect_eq(wrong, 0, "%s: %d texel channels differ", sprites[*which], wrong);
    render_result_free(&res);
    bf_buffer_free(&model);
    bf_arena_free(&arena);
    free(sf.data);
}

Test(render_textures, a_missing_sprite_draws_the_checkerboard)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    bf_buffer model = {0};
    cr_assert(build_quad(&arena, 32, 32, &model));
    sprite_file_t none = {0};
    render_options_t o = render_default_options();
    o.yaw_deg = 0;
    o.pitch_deg = 0;
    render_result_t res;
    char error[1024];
    cr_assert(render_model(model.data, model.size, &o, load_sprite, &none, &res, error, sizeof error), "%s", error);
    cr_expect_eq(res.textures_missing, 1u);
    keep_picture(&res, "missing");
    /* both checkerboard colours show */
    unsigned magenta = 0, grey = 0;
    for (size_t i = 0; i < (size_t)res.width * res.height; i++) {
        const uint8_t *p = res.rgba + 4 * i;
        magenta += p[0] > 200 && p[1] < 80 && p[2] > 200;
        grey += p[0] > 150 && abs(p[0] - p[1]) < 10 && abs(p[1] - p[2]) < 10;
    }
    cr_expect_gt(magenta, 1000u, "%u magenta pixels", magenta);
    cr_expect_gt(grey, 1000u, "%u grey pixels", grey);
    render_result_free(&res);
    bf_buffer_free(&model);
    bf_arena_free(&arena);
}
