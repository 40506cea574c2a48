/* Textures through the whole renderer: a quad model built with the generated
 * builder, its material naming a libdragon sprite that lies "beside" it (one
 * of tests/fixtures/sprite, every texel format), drawn face-on by
 * render_model. Every texel's colour must show at the point of the picture
 * its centre projects to. A missing sprite draws the checkerboard. */
#include "render_model.h"

#include "../../n64/driver/rdp_cmds.h"
#include "../../n64/scene/texture.h"
#include "bf_write.h"
#include "png_sprite.h"
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
 * TEX0 alone, point-sampled, depth-tested, not culled. The parts stay
 * reachable so that a test can change the material or the vertices. */
typedef struct quad {
    t3dm_File *file;
    t3dm_Material *material;
    t3dm_Vertices *vertices;
} quad_t;

static quad_t quad_model(bf_arena *a, uint16_t tw, uint16_t th)
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
    quad_t q = {f, m, v};
    return q;
}

static bool quad_build(bf_arena *a, const quad_t *q, bf_buffer *out)
{
    bf_error err;
    return t3dm_build_model(q->file, a, out, &err) != 0;
}

static bool build_quad(bf_arena *a, uint16_t tw, uint16_t th, bf_buffer *out)
{
    quad_t q = quad_model(a, tw, th);
    return quad_build(a, &q, out);
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

/* ---- material features (issue 32): what tiny3d draws ---- */

/* Files by name for render_model's loader. */
typedef struct named_file {
    const char *name;
    uint8_t *data;
    size_t size;
} named_file_t;

typedef struct file_table {
    named_file_t files[4];
    int count;
} file_table_t;

static bool load_named(void *ctx, const char *name, const uint8_t **data, size_t *size)
{
    file_table_t *t = ctx;
    for (int i = 0; i < t->count; i++)
        if (strcmp(t->files[i].name, name) == 0) {
            *data = t->files[i].data;
            *size = t->files[i].size;
            return true;
        }
    return false;
}

/* A sprite of w x h texels in `format` (libdragon tex_format_t), without the extended
 * header (texture_from_sprite reads such files). */
static void add_sprite(file_table_t *t, bf_arena *a, const char *name, uint8_t format, uint16_t w, uint16_t h,
                       const uint8_t *pixels, size_t bytes)
{
    uint8_t *d = NEW(a, uint8_t, 8 + bytes);
    d[0] = (uint8_t)(w >> 8), d[1] = (uint8_t)w, d[2] = (uint8_t)(h >> 8), d[3] = (uint8_t)h;
    d[4] = 0, d[5] = format, d[6] = 1, d[7] = 1;
    memcpy(d + 8, pixels, bytes);
    named_file_t f = {name, d, 8 + bytes};
    t->files[t->count++] = f;
}

/* An RGBA16 sprite of one colour per texel from `color(x, y)`. */
static void add_rgba16(file_table_t *t, bf_arena *a, const char *name, uint16_t w, uint16_t h,
                       uint16_t (*color)(unsigned x, unsigned y))
{
    uint8_t *px = NEW(a, uint8_t, 2u * w * h);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            uint16_t c = color(x, y);
            px[2 * (y * w + x)] = (uint8_t)(c >> 8);
            px[2 * (y * w + x) + 1] = (uint8_t)c;
        }
    add_sprite(t, a, name, 2, w, h, px, 2u * w * h);
}

/* Where a point of the quad's plane (model units) lands in the picture. */
static void project(const render_result_t *res, double x, double y, int *sx, int *sy)
{
    double p[4] = {x, y, 0, 1}, c[4] = {0, 0, 0, 0};
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < 4; k++)
            c[r] += (double)res->frame.view.m[k][r] * p[k];
    *sx = (int)floor((c[0] / c[3] + 1) * 0.5 * res->width);
    *sy = (int)floor((1 - c[1] / c[3]) * 0.5 * res->height);
}

static const uint8_t *pixel(const render_result_t *res, int x, int y)
{
    return res->rgba + 4 * ((size_t)y * res->width + (size_t)x);
}

static bool is_background(const uint8_t *p) { return p[0] == 0x30 && p[1] == 0x38 && p[2] == 0x48; }

/* Draws the quad face-on (with `o`'s other options when not NULL); the picture stays for a
 * person to look at. */
static void draw_quad_with(bf_arena *a, const quad_t *q, file_table_t *files, const char *name,
                           const render_options_t *given, render_result_t *res)
{
    bf_buffer model = {0};
    cr_assert(quad_build(a, q, &model));
    render_options_t o = given ? *given : render_default_options();
    o.yaw_deg = 0;
    o.pitch_deg = 0;
    char error[1024];
    cr_assert(render_model(model.data, model.size, &o, load_named, files, res, error, sizeof error), "%s", error);
    keep_picture(res, name);
    bf_buffer_free(&model);
}

static void draw_quad(bf_arena *a, const quad_t *q, file_table_t *files, const char *name, render_result_t *res)
{
    draw_quad_with(a, q, files, name, NULL, res);
}

/* Background pixels inside the quad, 3 pixels in from its outline. */
static unsigned holes_inside(const render_result_t *res)
{
    int x0, y0, x1, y1;
    project(res, -HALF_W, HALF_H, &x0, &y0);
    project(res, HALF_W, -HALF_H, &x1, &y1);
    unsigned holes = 0;
    for (int y = y0 + 3; y <= y1 - 3; y++)
        for (int x = x0 + 3; x <= x1 - 3; x++)
            holes += is_background(pixel(res, x, y));
    return holes;
}

static uint16_t opaque_grey(unsigned x, unsigned y) { return (x + y) % 2 ? 0xC631u : 0x8421u; }

/* Alpha compare tests the combiner's alpha: with SOM_ALPHA_CVG_SELECT it tested the
 * coverage, and the pixels the diagonal only partly covers fell below the threshold. */
Test(render_textures, alpha_compare_leaves_no_cracks)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    file_table_t files = {0};
    add_rgba16(&files, &arena, "texels.sprite", 32, 32, opaque_grey);
    quad_t q = quad_model(&arena, 32, 32);
    q.material->other_mode_value |= 1; /* SOM_ALPHACOMPARE_THRESHOLD */
    q.material->other_mode_mask |= 1;
    q.material->color_flags = 4;
    q.material->blend_color[3] = 128;
    render_result_t res;
    draw_quad(&arena, &q, &files, "alpha-compare", &res);
    cr_expect_eq(res.textures_loaded, 1u);
    unsigned holes = holes_inside(&res);
    cr_expect_eq(holes, 0u, "%u background pixels inside an opaque quad (cracks along its diagonal)", holes);
    render_result_free(&res);
    bf_arena_free(&arena);
}

static uint16_t left_clear_right_red(unsigned x, unsigned y)
{
    (void)y;
    return x < 4 ? 0xFFFEu : 0xF801u; /* white with alpha 0 | opaque red */
}

/* tiny3d's importer writes a cutout's threshold as the blend colour's alpha (128) without
 * the "set blend colour" flag; tiny3d sets the blend colour whenever alpha compare is on. */
Test(render_textures, alpha_compare_threshold_is_the_blend_alpha)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    file_table_t files = {0};
    add_rgba16(&files, &arena, "texels.sprite", 8, 4, left_clear_right_red);
    quad_t q = quad_model(&arena, 8, 4);
    q.material->other_mode_value |= 1;
    q.material->other_mode_mask |= 1;
    q.material->color_flags = 0;
    q.material->blend_color[3] = 128;
    render_result_t res;
    draw_quad(&arena, &q, &files, "cutout", &res);
    int cut = 0, red = 0;
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 8; x++) {
            int sx, sy;
            project(&res, -HALF_W + (x + 0.5) * 16, HALF_H - (y + 0.5) * 16, &sx, &sy);
            const uint8_t *p = pixel(&res, sx, sy);
            if (x < 4)
                cut += is_background(p);
            else
                red += p[0] > 200 && p[1] < 40 && p[2] < 40;
        }
    cr_expect_eq(cut, 16, "%d of the 16 transparent texels cut out", cut);
    cr_expect_eq(red, 16, "%d of the 16 opaque texels drawn", red);
    render_result_free(&res);
    bf_arena_free(&arena);
}

/* A translucent material (tiny3d's "transparent" blend mode, RDPQ_BLENDER_MULTIPLY) mixes
 * with what lies behind it by the pixel's alpha. */
Test(render_textures, a_translucent_material_blends)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    file_table_t files = {0};
    uint8_t px[8 * 4 * 4];
    for (int i = 0; i < 32; i++)
        px[4 * i] = 255, px[4 * i + 1] = 0, px[4 * i + 2] = 0, px[4 * i + 3] = 128;
    add_sprite(&files, &arena, "texels.sprite", 3 /* RGBA32 */, 8, 4, px, sizeof px);
    quad_t q = quad_model(&arena, 8, 4);
    q.material->blend_mode = 0x00500040u; /* (IN_RGB, IN_ALPHA, MEMORY_RGB, INV_MUX_ALPHA) */
    render_result_t res;
    draw_quad(&arena, &q, &files, "translucent", &res);
    int sx, sy;
    project(&res, 0, 0, &sx, &sy);
    const uint8_t *p = pixel(&res, sx, sy);
    /* half red, half the background (0x30, 0x38, 0x48) */
    cr_expect(abs(p[0] - 151) <= 10 && abs(p[1] - 28) <= 10 && abs(p[2] - 36) <= 10,
              "glass drawn (%u, %u, %u), half red over the background is about (151, 28, 36)", p[0], p[1], p[2]);
    render_result_free(&res);
    bf_arena_free(&arena);
}

static uint16_t black(unsigned x, unsigned y) { return (void)x, (void)y, 0x0001u; }
static uint16_t red(unsigned x, unsigned y) { return (void)x, (void)y, 0xF801u; }

/* Texture B goes to TMEM and tile 1: (TEX0 * TEX1_ALPHA + TEX1) * SHADE over a black
 * texture A and a red texture B is red. */
Test(render_textures, texture_b_is_loaded_into_tile_1)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    file_table_t files = {0};
    add_rgba16(&files, &arena, "texels.sprite", 8, 4, black);
    add_rgba16(&files, &arena, "lava_b.sprite", 8, 4, red);
    quad_t q = quad_model(&arena, 8, 4);
    /* RGB: cycle 0 (TEX0 - 0) * TEX1_ALPHA + TEX1, cycle 1 (COMBINED - 0) * SHADE + 0; alpha 1 */
    q.material->color_combiner = UINT64_C(1) << 63 | rdpc_combine_cycle(0, 1, 8, 9, 2, 7, 7, 7, 6) |
                                 rdpc_combine_cycle(1, 0, 8, 4, 7, 7, 7, 7, 0);
    q.material->texture_b = q.material->texture_a;
    q.material->texture_b.path_str = text("rom:/lava_b.sprite");
    render_result_t res;
    draw_quad(&arena, &q, &files, "texture-b", &res);
    cr_expect_eq(res.textures_loaded, 2u);
    int sx, sy;
    project(&res, 0, 0, &sx, &sy);
    const uint8_t *p = pixel(&res, sx, sy);
    cr_expect(p[0] > 100 && p[1] < 40 && p[2] < 40, "the lava is (%u, %u, %u), not red", p[0], p[1], p[2]);
    render_result_free(&res);
    bf_arena_free(&arena);
}

static uint16_t red_corner(unsigned x, unsigned y) { return x < 16 && y < 16 ? 0xF801u : 0x003Fu; }

/* A material with tiny3d's spherical vertex effect takes its UVs from the normals in eye
 * space, not from the file: a quad facing the camera, all of its stored UVs (0, 0), shows
 * the middle of its environment map, not only the texel at (0, 0) (red). */
Test(render_textures, spherical_env_map_uvs_come_from_the_normals)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    file_table_t files = {0};
    add_rgba16(&files, &arena, "texels.sprite", 32, 32, red_corner);
    quad_t q = quad_model(&arena, 32, 32);
    for (int k = 0; k < 2; k++) {
        memset(q.vertices->pairs[k].uv_a, 0, sizeof q.vertices->pairs[k].uv_a);
        memset(q.vertices->pairs[k].uv_b, 0, sizeof q.vertices->pairs[k].uv_b);
    }
    q.material->vertex_fx = T3DM_VERTEX_FX_SPHERICAL;
    render_result_t res;
    draw_quad(&arena, &q, &files, "env-map", &res);
    /* below right of the middle: past the map's middle (blue); above left, the skew by the
     * position on screen brings the red quarter in */
    int sx, sy;
    project(&res, 16, -8, &sx, &sy);
    const uint8_t *p = pixel(&res, sx, sy);
    cr_expect(p[2] > 200 && p[0] < 40, "below right of the middle: (%u, %u, %u), not blue", p[0], p[1], p[2]);
    project(&res, -40, 20, &sx, &sy);
    p = pixel(&res, sx, sy);
    cr_expect(p[0] > 200 && p[2] < 40, "above left of the middle: (%u, %u, %u), not red", p[0], p[1], p[2]);
    render_result_free(&res);
    bf_arena_free(&arena);
}

/* Bad textures draw the checkerboard with a note naming the file and the field. */
Test(render_textures, bad_sprites_are_named_with_their_field)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    file_table_t files = {0};
    add_rgba16(&files, &arena, "texels.sprite", 8, 4, red);
    files.files[0].size -= 10; /* truncated: fewer pixel bytes than 8 x 4 */
    add_rgba16(&files, &arena, "big.sprite", 64, 64, red); /* 8 KiB: more than TMEM */
    quad_t q = quad_model(&arena, 8, 4);
    q.material->texture_b = q.material->texture_a;
    q.material->texture_b.path_str = text("rom:/big.sprite");
    render_result_t res;
    draw_quad(&arena, &q, &files, "bad-sprites", &res);
    cr_expect_eq(res.textures_missing, 2u);
    cr_expect_eq(res.textures_loaded, 0u);
    const char *n = res.texture_notes;
    cr_expect(strstr(n, "texels.sprite") && strstr(n, "chunk_data[3].body.texture_a.path"), "%s", n);
    cr_expect(strstr(n, "big.sprite (chunk_data[3].body.texture_b.path): 64x64 needs 8192 bytes of TMEM"), "%s", n);
    render_result_free(&res);
    bf_arena_free(&arena);
}

static uint16_t column_colors(unsigned x, unsigned y) { return (uint16_t)((x * 4u) << 11 | (y * 8u) << 6 | 1u); }

/* Tiles as tiny3d sets them from the material: a clamped axis whose high end (15) spans two
 * copies of an 8-texel texture repeats it twice (mask 3, whatever mask the file stores), then
 * holds its last texel; the other axis repeats forever. */
Test(render_textures, tiles_wrap_and_clamp_as_tiny3d_sets_them)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    file_table_t files = {0};
    add_rgba16(&files, &arena, "texels.sprite", 8, 4, column_colors);
    quad_t q = quad_model(&arena, 8, 4);
    q.vertices->pairs[0].uv_b[0] = 24 * 32; /* S over 24 texels */
    q.vertices->pairs[1].uv_a[0] = 24 * 32;
    t3dm_MaterialAxis *s = &q.material->texture_a.axis[0];
    s->low = 0, s->high = 15, s->clamp = 1, s->mask = 4; /* as tiny3d's importer writes them */
    render_result_t res;
    draw_quad(&arena, &q, &files, "tiles", &res);
    int wrong = 0;
    for (unsigned c = 0; c < 24; c++)
        for (unsigned y = 0; y < 4; y++) {
            int sx, sy;
            project(&res, -HALF_W + (c + 0.5) * (2.0 * HALF_W / 24), HALF_H - (y + 0.5) * 16, &sx, &sy);
            const uint8_t *p = pixel(&res, sx, sy);
            unsigned x = c < 16 ? c % 8 : 7, v = column_colors(x, y);
            unsigned want[3] = {expand5(v >> 11), expand5((v >> 6) & 31), expand5((v >> 1) & 31)};
            for (int ch = 0; ch < 3; ch++)
                if (abs((int)p[ch] - (int)want[ch]) > 2) {
                    wrong++;
                    cr_log_error("column %u row %u: channel %d is %u, texel %u's %u", c, y, ch, p[ch], x, want[ch]);
                }
        }
    cr_expect_eq(wrong, 0, "%d texel channels differ", wrong);
    render_result_free(&res);
    bf_arena_free(&arena);
}

/* A sprite cut anywhere, or with any header byte changed, draws (its texture or the
 * checkerboard with a note): never a crash, never a hang. */
Test(render_textures, damaged_sprites_never_crash)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/fixtures/sprite/ci4_8x4.sprite", N64_PROJECT_ROOT);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    uint8_t good[4096];
    size_t size = fread(good, 1, sizeof good, f);
    fclose(f);
    cr_assert_gt(size, 16u);
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    bf_buffer model = {0};
    cr_assert(build_quad(&arena, 8, 4, &model));
    render_options_t o = render_default_options();
    o.width = 64, o.height = 48;
    const size_t cuts[] = {0, 1, 7, 8, 9, 23, 24, 40, 41, size - 2, size - 1};
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0] + 16; k++) {
        uint8_t bad[4096];
        memcpy(bad, good, size);
        size_t n = size;
        if (k < sizeof cuts / sizeof cuts[0])
            n = cuts[k];
        else
            bad[k - sizeof cuts / sizeof cuts[0]] ^= 0xA5; /* the header and the first texels */
        sprite_file_t sf = {bad, n};
        render_result_t res;
        char error[1024];
        cr_assert(render_model(model.data, model.size, &o, load_sprite, &sf, &res, error, sizeof error), "%s", error);
        cr_expect_eq(res.textures_loaded + res.textures_missing, 1u);
        cr_expect(res.textures_missing == 0 || res.texture_notes[0], "a checkerboard without a reason");
        render_result_free(&res);
    }
    bf_buffer_free(&model);
    bf_arena_free(&arena);
}

/* tiny3d's fog: a material whose fog mode is active takes the fog factor as its vertex
 * alpha and the blender fades it to the fog colour (here the background); one whose fog
 * mode is disabled does not fade. The quad lies past the fog's end: all fog. */
Test(render_textures, fog_fades_active_materials)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    file_table_t files = {0};
    add_rgba16(&files, &arena, "texels.sprite", 8, 4, red);
    render_options_t o = render_default_options();
    o.fog_start = 0;
    o.fog_end = 0.01f;
    for (int mode = 1; mode <= 2; mode++) {
        quad_t q = quad_model(&arena, 8, 4);
        q.material->fog_mode = (uint8_t)mode;
        render_result_t res;
        draw_quad_with(&arena, &q, &files, mode == 2 ? "fog-active" : "fog-disabled", &o, &res);
        int sx, sy;
        project(&res, 0, 0, &sx, &sy);
        const uint8_t *p = pixel(&res, sx, sy);
        if (mode == 2)
            cr_expect(abs(p[0] - 0x30) <= 8 && abs(p[1] - 0x38) <= 8 && abs(p[2] - 0x48) <= 8,
                      "fog active: (%u, %u, %u), not the fog colour (48, 56, 72)", p[0], p[1], p[2]);
        else
            cr_expect(p[0] > 200 && p[1] < 40, "fog disabled: (%u, %u, %u), not red", p[0], p[1], p[2]);
        render_result_free(&res);
    }
    bf_arena_free(&arena);
}

/* A colour-indexed sprite of one colour, made as mksprite makes it from a PNG. */
static void add_ci(file_table_t *t, bf_arena *a, const char *name, const char *png_name, uint16_t w, uint16_t h,
                   const uint8_t rgba[4])
{
    uint8_t *px = NEW(a, uint8_t, 4u * w * h);
    for (unsigned i = 0; i < (unsigned)w * h; i++)
        memcpy(px + 4 * i, rgba, 4);
    uint8_t *png, *spr;
    size_t png_size, spr_size;
    uint8_t format;
    char why[300];
    cr_assert_eq(png_encode(px, w, h, &png, &png_size), 0);
    cr_assert_eq(png_sprite_convert(png, png_size, png_name, &spr, &spr_size, &format, why, sizeof why), 0, "%s", why);
    free(png);
    uint8_t *copy = NEW(a, uint8_t, spr_size);
    memcpy(copy, spr, spr_size);
    free(spr);
    named_file_t f = {name, copy, spr_size};
    t->files[t->count++] = f;
}

/* Two CI4 textures each keep their palette: B's goes to the next 16-entry bank. TEX0 + TEX1
 * over a green A and a red B is yellow (one palette for both would make it red or green). */
Test(render_textures, two_ci4_textures_keep_their_palettes)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    file_table_t files = {0};
    const uint8_t green[4] = {0, 255, 0, 255}, red8[4] = {255, 0, 0, 255};
    add_ci(&files, &arena, "texels.sprite", "a.ci4.png", 8, 4, green);
    add_ci(&files, &arena, "b.sprite", "b.ci4.png", 8, 4, red8);
    quad_t q = quad_model(&arena, 8, 4);
    /* RGB: cycle 0 (TEX0 - 0) * 1 + TEX1 (C input 6: key scale, 0 here; use TEX0 alpha, 1) */
    q.material->color_combiner = UINT64_C(1) << 63 | rdpc_combine_cycle(0, 1, 8, 8, 2, 7, 7, 7, 6) |
                                 rdpc_combine_cycle(1, 0, 8, 16, 0, 7, 7, 7, 0);
    q.material->texture_b = q.material->texture_a;
    q.material->texture_b.path_str = text("rom:/b.sprite");
    render_result_t res;
    draw_quad(&arena, &q, &files, "two-ci4", &res);
    cr_expect_eq(res.textures_loaded, 2u, "%s", res.texture_notes);
    int sx, sy;
    project(&res, 0, 0, &sx, &sy);
    const uint8_t *p = pixel(&res, sx, sy);
    cr_expect(p[0] > 200 && p[1] > 200 && p[2] < 40, "TEX0 + TEX1 is (%u, %u, %u), not yellow", p[0], p[1], p[2]);
    render_result_free(&res);
    bf_arena_free(&arena);
}
