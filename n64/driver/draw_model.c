/* Command lists that draw a T3DM model (see draw_model.h). */
#include "draw_model.h"

#include "../scene/fmath.h"
#include "../scene/skeleton.h"
#include "../rsp/render_abi.h"
#include "rdp_cmds.h"

#include <string.h>

/* tiny3d's draw flags (T3DMaterial.drawFlags). */
enum { T3D_DEPTH = 1u << 0, T3D_TEXTURED = 1u << 1, T3D_SHADED = 1u << 2, T3D_CULL_FRONT = 1u << 3,
       T3D_CULL_BACK = 1u << 4 };
/* libdragon's combiner flag: the formula needs both cycles. */
#define CC_2PASS (UINT64_C(1) << 63)
#define SOM_BITS ((UINT64_C(1) << 56) - 1)
/* The deepest the microcode maps: w' stays within [1/4, 16] (render_vtx.inc). */
#define DEPTH_RANGE 64.0f
/* Z buffer clear value: the largest depth, no slope. */
#define Z_CLEAR 0xFFFCFFFCu

static void put(render_cmdlist_t *cl, uint64_t word) { cmd_rdp(cl, &word, 1); }

static uint16_t rgba16(uint32_t rgba)
{
    return (uint16_t)(((rgba >> 27) & 31u) << 11 | ((rgba >> 19) & 31u) << 6 | ((rgba >> 11) & 31u) << 1 |
                      ((rgba & 0xFFu) >= 128u));
}

/* The camera's projection with its near plane moved so that far/near stays
 * within DEPTH_RANGE (GL perspective: only m[2][2] and m[3][2] depend on them). */
static int view_matrix(const camera *cam, mat4 *out, float *near_out)
{
    float near = cam->near, far = cam->far;
    if (!(far > 0) || !(near > 0) || !(far > near))
        return DRAW_ERR_CAMERA;
    if (far / near > DEPTH_RANGE)
        near = far / DEPTH_RANGE;
    mat4 projection = cam->projection;
    projection.m[2][2] = (far + near) / (near - far);
    projection.m[3][2] = 2 * far * near / (near - far);
    mat4_mul(out, &projection, &cam->view);
    /* clip w at the far plane becomes 8192: room for x, y within the guard band */
    float k = 8192.0f / far;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            out->m[c][r] *= k;
    *near_out = near * k;
    return DRAW_OK;
}

int draw_frame_begin(render_cmdlist_t *cl, rdram_image_t *img, const draw_frame_params_t *p, draw_frame_t *out)
{
    memset(out, 0, sizeof(*out));
    out->width = p->width;
    out->height = p->height;
    out->color32 = p->color32;
    out->lights = p->lights;
    out->camera_view = p->cam->view;
    out->fog = p->fog;
    out->fog_near = p->fog_near;
    out->fog_far = p->fog_far;
    int status = view_matrix(p->cam, &out->view, &out->clip_near_w);
    if (status != DRAW_OK)
        return status;
    uint32_t pixels = (uint32_t)p->width * p->height;
    out->color_image = rdram_alloc(img, pixels * (p->color32 ? 4u : 2u), 64);
    out->z_image = rdram_alloc(img, pixels * 2u, 64);
    uint32_t rdp_buffer = rdram_alloc(img, p->rdp_buffer_size, 8);
    if (img->full)
        return DRAW_ERR_RDRAM;

    render_frame_t frame = {p->width, p->height, out->clip_near_w, p->guard_shift, rdp_buffer,
                            rdp_buffer + p->rdp_buffer_size};
    cmd_frame(cl, &frame);
    cmd_lights(cl, &p->lights);
    cmd_view(cl, &out->view);

    unsigned size = p->color32 ? RDPC_32B : RDPC_16B;
    uint32_t fill = p->color32 ? p->background : (uint32_t)rgba16(p->background) * 0x10001u;
    const uint64_t setup[] = {
        rdpc_set_scissor(0, 0, p->width, p->height),
        rdpc_set_other_modes(SOM_CYCLE_FILL),
        rdpc_set_color_image(RDPC_RGBA, RDPC_16B, p->width, out->z_image), /* clear Z as a 16-bit image */
        rdpc_set_fill_color(Z_CLEAR),
        rdpc_fill_rectangle(0, 0, p->width, p->height),
        rdpc_sync_pipe(),
        rdpc_set_color_image(RDPC_RGBA, size, p->width, out->color_image),
        rdpc_set_fill_color(fill),
        rdpc_fill_rectangle(0, 0, p->width, p->height),
        rdpc_sync_pipe(),
        rdpc_set_z_image(out->z_image),
        rdpc_set_prim_color(0xFFFFFFFFu),
        rdpc_set_env_color(0xFFFFFFFFu),
        rdpc_set_blend_color(0),
    };
    cmd_rdp(cl, setup, sizeof setup / sizeof setup[0]);
    if (p->fog)
        put(cl, rdpc_set_fog_color(p->fog_color));
    return cl->overflow ? DRAW_ERR_RDRAM : DRAW_OK;
}

int draw_frame_end(render_cmdlist_t *cl)
{
    put(cl, rdpc_sync_full());
    cmd_end(cl);
    return cl->overflow ? DRAW_ERR_RDRAM : DRAW_OK;
}

uint32_t draw_model_list_bytes(const t3dm_File *m)
{
    uint32_t bytes = 4096; /* frame setup, END */
    for (uint32_t c = 0; c < m->chunk_data_count; c++) {
        const t3dm_Chunk *ch = &m->chunk_data[c];
        if (ch->body.kind != T3DM_KIND_OBJECT)
            continue;
        /* material state (texture loads included) + per part: MODEL, VTX, TRIS, SEQ, 4 strips */
        bytes += 512 + 64 * ch->body.Object->parts_count;
    }
    return bytes;
}

/* ---- textures ---- */

static unsigned log2_ceil(unsigned v)
{
    unsigned n = 0;
    while ((1u << n) < v && n < 15)
        n++;
    return n;
}

/* TMEM words (64-bit) of one row of `width` texels. */
static unsigned tmem_line(const texture *t)
{
    unsigned bits = t->rdp_size == TEXTURE_SIZE_32B ? 16u : 4u << t->rdp_size; /* 32-bit: two 16-bit halves */
    return ((unsigned)t->width * bits / 8u + 7u) / 8u;
}

/* TMEM words a texture takes when loaded whole (tmem_line rows). */
static unsigned tmem_words(const texture *t) { return tmem_line(t) * t->height; }

/* Where a texture goes: its tile, its TMEM address (64-bit words) and, for
 * CI textures, the palette (16-entry bank) its TLUT is loaded into. */
typedef struct tile_place {
    unsigned tile, tmem, palette;
} tile_place_t;

static bool power_of_two(unsigned v) { return v && !(v & (v - 1)); }

/* One axis of a tile as tiny3d sets it from the material (set_texture: translate = low,
 * scale = shift, repeats infinite unless clamped, then (high - low + 1) / size for a
 * power-of-two size, else 1) and libdragon turns those into tile bits
 * (texload_recalc_tileparms): wrapping (mask, mirror) only when it repeats, clamped when
 * the repeats span less than 1024 texels, the tile's range translate .. translate + size
 * (+ the repeats past the first when `range_clamp`, NULL: the axis's own clamp), in quarter
 * texels. `size` is the sprite's; `even` rounds the range up to an even size (4-bit S, as
 * libdragon loads those). */
typedef struct tile_axis {
    unsigned mask, shift, mirror, clamp, lo, hi; /* lo, hi: 10.2, hi inclusive */
} tile_axis_t;

static tile_axis_t axis_bits(const t3dm_MaterialAxis *ax, unsigned material_size, unsigned size, bool even,
                             const unsigned *range_clamp)
{
    tile_axis_t r = {0, 0, 0, 0, 0, 0};
    float repeats = 2048.0f; /* REPEAT_INFINITE */
    float low = ax ? ax->low : 0.0f;
    if (!(low >= 0.0f && low < 1024.0f)) /* libdragon asserts; NaN too */
        low = 0.0f;
    if (ax && ax->clamp)
        repeats = power_of_two(material_size) ? (ax->high - low + 1.0f) / (float)material_size : 1.0f;
    if (!(repeats >= 0.0f && repeats <= 2048.0f))
        repeats = 1.0f;
    if (repeats > 1.0f && power_of_two(size)) { /* libdragon asserts a power of two for wrapping */
        r.mask = log2_ceil(size);
        r.mirror = ax && ax->mirror ? 1u : 0u;
    }
    r.shift = ax ? (unsigned)ax->shift & 15u : 0u;
    r.clamp = repeats * (float)size < 1024.0f;
    if ((int)repeats <= 0)
        repeats = 1.0f;
    unsigned end = even ? (size + 1u) & ~1u : size;
    unsigned clamp = range_clamp ? *range_clamp : r.clamp;
    int lo = (int)(low * 4.0f);
    int hi = (int)((low + (repeats - 1.0f) * (float)size * (float)clamp) * 4.0f) + (int)end * 4 - 4;
    r.lo = (unsigned)lo & 0xFFFu;
    r.hi = hi < 0 ? 0u : (unsigned)hi & 0xFFFu;
    return r;
}

/* Tile `pl->tile` describing `t` (already in TMEM at pl->tmem) with the
 * material's settings for that texture. */
static void set_tile(render_cmdlist_t *cl, const texture *t, const tile_place_t *pl, const t3dm_MaterialTexture *mt)
{
    bool four_bit = t->rdp_size == TEXTURE_SIZE_4B;
    const t3dm_MaterialAxis *sx = mt ? &mt->axis[0] : NULL, *tx = mt ? &mt->axis[1] : NULL;
    unsigned mw = mt && mt->width ? mt->width : t->width, mh = mt && mt->height ? mt->height : t->height;
    tile_axis_t s = axis_bits(sx, mw, t->width, four_bit, NULL);
    /* libdragon sizes T's range by S's clamp (texload_recalc_tileparms): tiny3d draws that */
    tile_axis_t u = axis_bits(tx, mh, t->height, false, &s.clamp);
    put(cl, rdpc_set_tile(t->rdp_format, t->rdp_size, tmem_line(t), pl->tmem, pl->tile,
                          t->rdp_format == TEXTURE_RDP_CI && four_bit ? pl->palette : 0, u.clamp, u.mirror, u.mask,
                          u.shift, s.clamp, s.mirror, s.mask, s.shift));
    put(cl, rdpc_set_tile_size(pl->tile, s.lo, u.lo, s.hi, u.hi));
}

/* Loads `t` (pixels already at `addr` in RDRAM, palette at `palette_addr`)
 * into TMEM where `pl` says, then sets its tile. */
static void load_texture(render_cmdlist_t *cl, const texture *t, uint32_t addr, uint32_t palette_addr,
                         const tile_place_t *pl, const t3dm_MaterialTexture *mt)
{
    /* the RDP cannot load 4-bit images: load their bytes as 8-bit texels */
    unsigned load_size = t->rdp_size == TEXTURE_SIZE_4B ? TEXTURE_SIZE_8B : t->rdp_size;
    unsigned bytes_per_texel = load_size == TEXTURE_SIZE_8B ? 1u : load_size == TEXTURE_SIZE_16B ? 2u : 4u;
    unsigned load_width = t->row_bytes / bytes_per_texel;
    put(cl, rdpc_sync_load());
    put(cl, rdpc_set_texture_image(t->rdp_format, load_size, load_width, addr));
    put(cl, rdpc_set_tile(t->rdp_format, load_size, tmem_line(t), pl->tmem, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    put(cl, rdpc_load_tile(7, 0, 0, (load_width - 1) << 2, (unsigned)(t->height - 1) << 2));
    if (t->rdp_format == TEXTURE_RDP_CI && palette_addr) {
        put(cl, rdpc_set_texture_image(RDPC_RGBA, RDPC_16B, 1, palette_addr));
        put(cl, rdpc_set_tile(0, 0, 0, 0x100 + 16 * pl->palette, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        put(cl, rdpc_load_tlut(7, 0, t->palette_count - 1));
    }
    put(cl, rdpc_sync_tile());
    set_tile(cl, t, pl, mt);
}

/* ---- materials ---- */

typedef struct model_state {
    render_cmdlist_t *cl;
    rdram_image_t *img;
    const draw_model_params_t *p;
    const draw_frame_t *frame;
    uint32_t checker;         /* the checkerboard in RDRAM, 0 until needed */
    texture checker_tex;
    int32_t last_matrix;      /* matrix index of the last MODEL command, -1: none yet */
    const t3dm_Material *material; /* the material of the object being drawn */
    bool fog;                 /* tiny3d's fog state: set by materials whose fog mode is not "default" */
    int failed;
} model_state_t;

static const t3dm_Material *material_chunk(const t3dm_File *m, uint32_t index)
{
    uint32_t seen = 0;
    for (uint32_t c = 0; c < m->chunk_data_count; c++)
        if (m->chunk_data[c].body.kind == T3DM_KIND_MATERIAL && seen++ == index)
            return m->chunk_data[c].body.Material;
    return NULL;
}

static const texture *checkerboard(model_state_t *s, uint32_t *pixels)
{
    if (!s->checker) {
        s->checker = rdram_alloc(s->img, 2 * TEXTURE_CHECKER_SIZE * TEXTURE_CHECKER_SIZE, 8);
        if (!s->checker || texture_checkerboard(s->img->bytes + s->checker, 2 * TEXTURE_CHECKER_SIZE * TEXTURE_CHECKER_SIZE,
                                                TEXTURE_CHECKER_SIZE, TEXTURE_CHECKER_SIZE, TEXTURE_CHECKER_CELL,
                                                TEXTURE_CHECKER_COLOR_A, TEXTURE_CHECKER_COLOR_B, &s->checker_tex) != 0)
            return NULL;
    }
    *pixels = s->checker;
    return &s->checker_tex;
}

/* Copies a texture's pixels and palette into RDRAM; false when they do not fit. */
static bool place_pixels(model_state_t *s, const texture *t, uint32_t *pixels, uint32_t *palette)
{
    *pixels = rdram_put(s->img, t->pixels, t->pixels_len, 8);
    *palette = t->palette ? rdram_put(s->img, t->palette, 2u * t->palette_count, 8) : 0;
    return *pixels != 0 && (!t->palette || *palette != 0);
}

static bool usable(const texture *t) { return t->pixels && t->fits_tmem; }

/* Whether a material's texture slot names a texture (tiny3d loads those). */
static bool names_texture(const t3dm_MaterialTexture *mt) { return mt->path_str.ptr && mt->path_str.len > 0; }

static bool same_path(const t3dm_MaterialTexture *a, const t3dm_MaterialTexture *b)
{
    return a->path_str.len == b->path_str.len && a->path_str.ptr && b->path_str.ptr &&
           memcmp(a->path_str.ptr, b->path_str.ptr, a->path_str.len) == 0;
}

/* Textures A and B into TMEM, as tiny3d's set_texture does for TILE0 and
 * TILE1: B after A (or A's TMEM again when both name the same file). A
 * missing A draws the checkerboard; a missing B, or one that does not fit
 * beside A, the checkerboard when that fits, else A again. Returns whether
 * a CI texture was loaded (the TLUT mode). */
static bool set_textures(model_state_t *s, const t3dm_Material *mat, uint32_t material)
{
    const draw_model_params_t *p = s->p;
    const draw_texture_t *dt = p->textures && material < p->texture_count ? &p->textures[material] : NULL;
    uint32_t pixels, palette = 0;
    const texture *a = dt && usable(&dt->tex) ? &dt->tex : NULL;
    if (a && !place_pixels(s, a, &pixels, &palette))
        a = NULL;
    if (!a && !(a = checkerboard(s, &pixels))) {
        s->failed = DRAW_ERR_RDRAM;
        return false;
    }
    tile_place_t pa = {0, 0, 0};
    load_texture(s->cl, a, pixels, palette, &pa, &mat->texture_a);
    bool ci = a->rdp_format == TEXTURE_RDP_CI;
    if (!names_texture(&mat->texture_b)) /* tiny3d leaves tile 1 as it was */
        return ci;
    if (same_path(&mat->texture_a, &mat->texture_b)) {
        tile_place_t pb = {1, 0, 0};
        set_tile(s->cl, a, &pb, &mat->texture_b);
        return ci;
    }
    /* B's room: after A; a palette bank A's does not use (CI4 banks 0-15, CI8 all) */
    tile_place_t pb = {1, tmem_words(a), ci && a->rdp_size == TEXTURE_SIZE_4B ? 1u : 0u};
    const texture *b = dt && usable(&dt->tex_b) ? &dt->tex_b : NULL;
    if (b) {
        bool b_ci = b->rdp_format == TEXTURE_RDP_CI;
        unsigned limit = (ci || b_ci ? TEXTURE_TMEM_CI_BYTES : TEXTURE_TMEM_BYTES) / 8u;
        bool palettes_clash = ci && b_ci && (a->rdp_size == TEXTURE_SIZE_8B || b->rdp_size == TEXTURE_SIZE_8B);
        if (pb.tmem + tmem_words(b) > limit || palettes_clash || !place_pixels(s, b, &pixels, &palette))
            b = NULL;
    }
    if (!b) {
        unsigned limit = (ci ? TEXTURE_TMEM_CI_BYTES : TEXTURE_TMEM_BYTES) / 8u;
        palette = 0;
        if (pb.tmem + TEXTURE_CHECKER_BYTES / 8u <= limit)
            b = checkerboard(s, &pixels);
        if (!b) {
            pb.tmem = 0;
            set_tile(s->cl, a, &pb, &mat->texture_b);
            return ci;
        }
    }
    if (b->rdp_format != TEXTURE_RDP_CI)
        pb.palette = 0;
    load_texture(s->cl, b, pixels, palette, &pb, &mat->texture_b);
    return ci || b->rdp_format == TEXTURE_RDP_CI;
}

static uint32_t rgba32(const uint8_t c[4])
{
    return (uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 | (uint32_t)c[2] << 8 | c[3];
}

/* Blender bits of a material's blend mode (an RDPQ_BLENDER formula, both
 * passes alike, with SOM_READ_ENABLE when it reads memory), as libdragon's
 * rdpq_mode_blender merges it: in 1-cycle mode the first pass alone; in
 * 2-cycle mode the first pass all zeros (the pixel passed on) and the
 * second the formula. SOM_FORCE_BLEND blends every pixel, not only edges. */
static uint64_t blend_bits(uint32_t blend_mode, bool two_cycle)
{
    const uint64_t pass0 = UINT64_C(0xCCCC0000), pass1 = UINT64_C(0x33330000), read = UINT64_C(1) << 6;
    return (blend_mode & (two_cycle ? pass1 : pass0)) | (blend_mode & read) | SOM_FORCE_BLEND;
}

/* The cycle-0 fields of a combiner: a 1-cycle combiner in 2-cycle mode, its second
 * cycle all zeros ((COMBINED - COMBINED) * COMBINED + COMBINED), as libdragon does. */
#define CC_CYCLE0 UINT64_C(0x00FFFE00F003FE00)

/* libdragon's RDPQ_FOG_STANDARD, pass 0: (IN_RGB, SHADE_ALPHA, FOG_RGB, INV_MUX_ALPHA). */
#define FOG_PASS0 SOM_BLENDER(0, 0, 2, 3, 0)

/* The RDP state and triangle mode of an object's material, as tiny3d's
 * t3d_model_draw_material over libdragon's standard mode sets them. */
static void set_material(model_state_t *s, const t3dm_Material *mat, uint32_t material)
{
    render_cmdlist_t *cl = s->cl;
    uint32_t flags = mat ? mat->draw_flags : (T3D_DEPTH | T3D_SHADED);
    bool materials = s->p->shading == DRAW_MATERIALS && mat && mat->color_combiner != 0;
    bool textured = materials && (flags & T3D_TEXTURED);
    s->material = materials ? mat : NULL;
    uint64_t combine = materials ? mat->color_combiner
                                 : rdpc_combine_cycle(0, CC_A_ZERO, CC_B_ZERO, CC_C_ZERO, CC_SHADE, CC_ALPHA_ZERO,
                                                      CC_ALPHA_ZERO, CC_ALPHA_ZERO, CC_SHADE) |
                                       rdpc_combine_cycle(1, CC_A_ZERO, CC_B_ZERO, CC_C_ZERO, CC_SHADE, CC_ALPHA_ZERO,
                                                          CC_ALPHA_ZERO, CC_ALPHA_ZERO, CC_SHADE);
    /* the material's fog mode: 0 keeps the state, 1 turns fog off, 2 on (t3d_fog_set_enabled) */
    if (materials && mat->fog_mode == 1)
        s->fog = false;
    else if (materials && mat->fog_mode == 2)
        s->fog = s->frame->fog;
    bool fog = materials && s->fog;
    bool blend = materials && mat->blend_mode;
    bool two_cycle = (combine & CC_2PASS) != 0 || (fog && blend);
    if (two_cycle && !(combine & CC_2PASS))
        combine &= CC_CYCLE0;
    /* no SOM_ALPHA_CVG_SELECT: alpha compare and blending use the combiner's alpha, not coverage */
    uint64_t modes = (two_cycle ? SOM_CYCLE_2 : SOM_CYCLE_1) | SOM_RGB_DITHER_NONE | SOM_ALPHA_DITHER_NONE |
                     SOM_PERSP | SOM_TF0_RGB | SOM_TF1_RGB | SOM_CVG_DEST_FULL;
    if (fog && blend) /* fog in the first pass, the blend in the second (libdragon's merge) */
        modes |= FOG_PASS0 | blend_bits(mat->blend_mode, true);
    else if (fog) /* the fog formula alone: the first pass in 1-cycle mode, the second in 2-cycle mode */
        modes |= (two_cycle ? FOG_PASS0 >> 2 : FOG_PASS0) | SOM_FORCE_BLEND;
    else if (blend)
        modes |= blend_bits(mat->blend_mode, two_cycle);
    else /* opaque: pixel colour through; in 2-cycle mode the first cycle passes it on */
        modes |= SOM_BLENDER(0, 0, 3, 0, 2) | SOM_BLENDER(1, 0, 3, 0, 2);
    if (flags & T3D_DEPTH)
        modes |= SOM_Z_COMPARE | SOM_Z_UPDATE;
    if (materials)
        modes = (modes & ~(mat->other_mode_mask & SOM_BITS)) | (mat->other_mode_value & mat->other_mode_mask & SOM_BITS);

    put(cl, rdpc_sync_pipe());
    if (materials) {
        if (mat->color_flags & 1)
            put(cl, rdpc_set_prim_color(rgba32(mat->prim_color)));
        if (mat->color_flags & 2)
            put(cl, rdpc_set_env_color(rgba32(mat->env_color)));
        /* alpha compare takes its threshold from the blend colour's alpha: tiny3d sets it then too */
        if ((mat->color_flags & 4) || (modes & SOM_ALPHA_COMPARE))
            put(cl, rdpc_set_blend_color(rgba32(mat->blend_color)));
    }
    if (textured && set_textures(s, mat, material))
        modes |= SOM_TLUT;
    put(cl, rdpc_set_combine(combine));
    put(cl, rdpc_set_other_modes(modes));
    unsigned cull = (flags & T3D_CULL_BACK) ? CULL_BACK : (flags & T3D_CULL_FRONT) ? CULL_FRONT : CULL_NONE;
    unsigned tri = 0x0C | (textured ? 2u : 0u) | ((flags & T3D_DEPTH) ? 1u : 0u);
    cmd_trimode(cl, tri, cull, 0);
}

/* ---- parts ---- */

/* tiny3d's importer rounds loads up to whole pairs, so the last one can
 * reach one slot past the 70 of the cache (its vertex is never drawn): the
 * microcode, which loads in pairs, writes that pair's second vertex into
 * its spare slot when asked for one vertex less */
static unsigned part_vertex_load(const t3dm_Part *part)
{
    unsigned count = part->vertex_count;
    if ((unsigned)part->vertex_dest + count == VCACHE_SLOTS + 1u)
        count--;
    return count;
}

/* The part's matrix (when it changes), its vertex load, then its triangles,
 * sequence and strips, in the order tiny3d draws them. */
/* A part's four optional strips, as an array: where each lies in the file and its length. */
typedef struct part_strip {
    uint8_t present;
    uint64_t at;
    uint32_t count;
} part_strip;

static void part_strips(const t3dm_PartIndices *ix, part_strip out[4])
{
    out[0] = (part_strip){ix->has_strip_a, ix->strip_a_at, ix->strip_a_count};
    out[1] = (part_strip){ix->has_strip_b, ix->strip_b_at, ix->strip_b_count};
    out[2] = (part_strip){ix->has_strip_c, ix->strip_c_at, ix->strip_c_count};
    out[3] = (part_strip){ix->has_strip_d, ix->strip_d_at, ix->strip_d_count};
}

/* A packed 5.6.5 normal component, as tiny3d's importer packs it (x * 15.5, y * 31.5, z * 15.5). */
static float unpack_normal(unsigned bits, unsigned width, float scale)
{
    int v = (int)bits;
    if (v & (1 << (width - 1)))
        v -= 1 << width;
    return (float)v / scale;
}

static int16_t round_s16(float v)
{
    float r = fmath_floor(v + 0.5f);
    if (r != r) /* NaN */
        return 0;
    return r >= 32767.0f ? 32767 : r <= -32768.0f ? -32768 : (int16_t)r;
}

/* What tiny3d's microcode computes for every vertex it loads, and this
 * project's does not: here the driver computes it and loads a copy of the
 * part's vertices carrying it; returns the copy's RDRAM address (0: no room).
 * - spherical environment-map UVs (T3D_VERTEX_FX_SPHERICAL_UV): the normal in
 *   eye space (by the model-view matrix with normalized columns) scaled by half
 *   the texture (S by its width, T by minus its height) plus half its width,
 *   then skewed by where the vertex lies on screen, relative to the centre:
 *   that offset times floor(0x2A00 / screen width) times the normal's z times
 *   half the width, in the microcode's fixed point;
 * - fog: the vertex alpha replaced by how much of the pixel shows through the
 *   fog, 255 up to fog_near down to 0 from fog_far (the distance along the
 *   view direction): RDPQ_FOG_STANDARD blends by it, pixel x alpha + fog
 *   colour x (1 - alpha). */
static uint32_t vertex_effects(model_state_t *s, uint32_t src, unsigned count, const mat4 *part_matrix, bool spherical,
                               bool fog)
{
    const draw_frame_t *f = s->frame;
    const t3dm_MaterialTexture *tex = spherical ? &s->material->texture_a : NULL;
    uint32_t bytes = (count + 1u) / 2u * 32u;
    uint32_t copy = rdram_put(s->img, s->img->bytes + src, bytes, 8);
    if (!copy)
        return 0;
    mat4 mv, mvp, eye;
    mat4_mul(&mv, &f->camera_view, part_matrix);
    mat4_mul(&mvp, &f->view, part_matrix);
    eye = mv;
    for (int c = 0; c < 3; c++) { /* tiny3d's normal matrix: the model-view columns, normalized */
        float len = fmath_sqrt(mv.m[c][0] * mv.m[c][0] + mv.m[c][1] * mv.m[c][1] + mv.m[c][2] * mv.m[c][2]);
        for (int r = 0; r < 3; r++)
            mv.m[c][r] = len > 0 ? mv.m[c][r] / len : 0;
    }
    const float half_w = tex ? (float)tex->width * 16.0f : 0, half_h = tex ? (float)tex->height * 16.0f : 0; /* s10.5 */
    const float skew = (float)(uint32_t)(1.0f / (float)f->width * 10752.0f);           /* 0x2A00 / width */
    const float cx = 2.0f * f->width, cy = 2.0f * f->height;                           /* quarter pixels */
    for (unsigned v = 0; v < count; v++) {
        uint32_t at = copy + v / 2u * 32u + (v & 1u) * 8u;
        float pos[3];
        for (int k = 0; k < 3; k++)
            pos[k] = (float)(int16_t)rdram_load16(s->img, at + 2u * (unsigned)k);
        if (fog) {
            float depth = -(eye.m[0][2] * pos[0] + eye.m[1][2] * pos[1] + eye.m[2][2] * pos[2] + eye.m[3][2]);
            float range = f->fog_far - f->fog_near, t = range > 0 ? (depth - f->fog_near) / range : 1.0f;
            t = t < 0 ? 0 : t > 1 ? 1 : t; /* NaN stays: round_s16 gives 0 */
            s->img->bytes[copy + v / 2u * 32u + 16u + (v & 1u) * 4u + 3u] = (uint8_t)round_s16((1.0f - t) * 255.0f);
        }
        if (!spherical)
            continue;
        unsigned packed = rdram_load16(s->img, at + 6u);
        float n[3] = {unpack_normal(packed >> 11, 5, 15.5f), unpack_normal((packed >> 5) & 63u, 6, 31.5f),
                      unpack_normal(packed & 31u, 5, 15.5f)};
        float e[3], clip[4];
        for (int r = 0; r < 3; r++)
            e[r] = mv.m[0][r] * n[0] + mv.m[1][r] * n[1] + mv.m[2][r] * n[2];
        for (int r = 0; r < 4; r++)
            clip[r] = mvp.m[0][r] * pos[0] + mvp.m[1][r] * pos[1] + mvp.m[2][r] * pos[2] + mvp.m[3][r];
        float offset[2] = {0, 0};
        if (clip[3] > 0) {
            float screen[2] = {(clip[0] / clip[3] + 1.0f) * cx, (1.0f - clip[1] / clip[3]) * cy};
            const float centre[2] = {cx, cy};
            for (int k = 0; k < 2; k++) {
                float d = (screen[k] < 0 ? 0 : screen[k]) - centre[k];
                d = d > centre[k] ? centre[k] : d;
                float scaled = d * skew;
                scaled = scaled > 32767.0f ? 32767.0f : scaled < -32768.0f ? -32768.0f : scaled;
                offset[k] = scaled * e[2] * half_w / 32768.0f;
            }
        }
        uint32_t uv = copy + 24u + (v & 1u) * 4u + v / 2u * 32u;
        rdram_store16(s->img, uv, (uint16_t)round_s16(e[0] * half_w + half_w + offset[0]));
        rdram_store16(s->img, uv + 2u, (uint16_t)round_s16(-e[1] * half_h + half_w + offset[1]));
    }
    return copy;
}

static void draw_part(model_state_t *s, const t3dm_Part *part, uint32_t vertex_chunk)
{
    const draw_model_params_t *p = s->p;
    render_cmdlist_t *cl = s->cl;
    mat4 identity, combined;
    const mat4 *bone = skeleton_part_matrix(p->bones, p->bones ? p->bone_count : 0, part->matrix_index, &identity);
    if (p->model_matrix) {
        mat4_mul(&combined, p->model_matrix, bone);
        bone = &combined;
    }
    if ((int32_t)part->matrix_index != s->last_matrix) {
        cmd_model(cl, bone, &s->frame->lights);
        s->last_matrix = part->matrix_index;
    }
    unsigned count = part_vertex_load(part);
    uint32_t vertices = vertex_chunk + part->vertex_offset;
    bool spherical = s->material && s->material->vertex_fx == T3DM_VERTEX_FX_SPHERICAL;
    if (count > 0 && (spherical || s->fog)) {
        vertices = vertex_effects(s, vertices, count, bone, spherical, s->fog);
        if (!vertices) {
            s->failed = DRAW_ERR_RDRAM;
            return;
        }
    }
    if (count > 0)
        cmd_vtx(cl, vertices, count, part->vertex_dest);
    if (p->content == DRAW_VERTICES_ONLY)
        return;
    const t3dm_PartIndices *ix = &part->index_data;
    if (part->index_count >= 3)
        cmd_tris(cl, p->file_addr + (uint32_t)ix->_offset, part->index_count - part->index_count % 3);
    if (part->seq_count > 0)
        cmd_seq(cl, part->seq_start, part->seq_count);
    part_strip strips[4];
    part_strips(ix, strips);
    for (int k = 0; k < 4 && strips[k].present; k++)
        if (strips[k].count > 0)
            cmd_strip(cl, p->file_addr + (uint32_t)strips[k].at, strips[k].count);
}

/* What the microcode would refuse: a vertex load past its cache (and its spare slot). */
static bool part_fits(const t3dm_Part *part)
{
    return (uint32_t)part->vertex_dest + part->vertex_count <= VCACHE_SLOTS + 1u &&
           (uint32_t)part->seq_start + 3u * part->seq_count <= VCACHE_SLOTS;
}

int draw_model(render_cmdlist_t *cl, rdram_image_t *img, const draw_frame_t *frame, const draw_model_params_t *p)
{
    const t3dm_File *m = p->model;
    if (m->header.first_vertex_chunk >= m->chunks_count)
        return DRAW_ERR_MODEL;
    uint32_t vertex_chunk = p->file_addr + m->chunks[m->header.first_vertex_chunk].offset;
    model_state_t s = {cl, img, p, frame, 0, {0}, -1, NULL, false, DRAW_OK};
    for (uint32_t c = 0; c < m->chunk_data_count; c++) {
        if (m->chunk_data[c].body.kind != T3DM_KIND_OBJECT)
            continue;
        const t3dm_Object *obj = m->chunk_data[c].body.Object;
        for (uint32_t k = 0; k < obj->parts_count; k++)
            if (!part_fits(&obj->parts[k]))
                return DRAW_ERR_MODEL;
        set_material(&s, material_chunk(m, obj->material), obj->material);
        for (uint32_t k = 0; k < obj->parts_count; k++)
            draw_part(&s, &obj->parts[k], vertex_chunk);
    }
    if (s.failed)
        return s.failed;
    return cl->overflow || img->full ? DRAW_ERR_RDRAM : DRAW_OK;
}

uint32_t draw_model_vertices(const t3dm_File *m)
{
    uint32_t n = 0;
    for (uint32_t c = 0; c < m->chunk_data_count; c++) {
        if (m->chunk_data[c].body.kind != T3DM_KIND_OBJECT)
            continue;
        const t3dm_Object *obj = m->chunk_data[c].body.Object;
        for (uint32_t k = 0; k < obj->parts_count; k++)
            n += part_vertex_load(&obj->parts[k]);
    }
    return n;
}

/* A STRIP command's triangles, as the microcode walks its u16 indices. */
static uint32_t strip_triangles(const uint8_t *file, uint32_t size, uint64_t at, uint32_t count)
{
    uint32_t n = 0, len = 0;
    for (uint32_t i = 0; i < count && at + 2u * i + 2u <= size; i++) {
        unsigned index = (unsigned)file[at + 2u * i] << 8 | file[at + 2u * i + 1];
        if (index & 0x8000u)
            len = 0;
        if ((index & 0x7FFFu) >= VCACHE_SLOTS) { /* past the cache: the strip starts over after it */
            len = 0;
            continue;
        }
        n += len >= 2;
        len++;
    }
    return n;
}

uint32_t draw_model_triangles(const t3dm_File *m, const uint8_t *file, uint32_t size)
{
    uint32_t n = 0;
    for (uint32_t c = 0; c < m->chunk_data_count; c++) {
        if (m->chunk_data[c].body.kind != T3DM_KIND_OBJECT)
            continue;
        const t3dm_Object *obj = m->chunk_data[c].body.Object;
        for (uint32_t k = 0; k < obj->parts_count; k++) {
            const t3dm_Part *part = &obj->parts[k];
            const t3dm_PartIndices *ix = &part->index_data;
            if (part->index_count >= 3 && ix->triangles)
                for (uint32_t t = 0; t + 3 <= part->index_count && t + 3 <= ix->triangles_count; t += 3)
                    n += ix->triangles[t] < VCACHE_SLOTS && ix->triangles[t + 1] < VCACHE_SLOTS &&
                         ix->triangles[t + 2] < VCACHE_SLOTS;
            for (uint32_t s = 0; s < part->seq_count && part->seq_start + 3u * (s + 1) <= VCACHE_SLOTS; s++)
                n++;
            part_strip strips[4];
            part_strips(ix, strips);
            for (int s = 0; s < 4 && strips[s].present; s++)
                n += strip_triangles(file, size, strips[s].at, strips[s].count);
        }
    }
    return n;
}
