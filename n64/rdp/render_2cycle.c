/* 2-cycle pipeline. Each pixel goes through two combiner and two blender
 * cycles, and the stages overlap with the neighbouring pixels the way the
 * hardware's pipeline does:
 *
 *  - the first combiner cycle of pixel n+1 runs before pixel n is written,
 *    and alpha compare tests pixel n with the alpha that cycle produced;
 *  - the first blender cycle of pixel n reads the colour image value of
 *    pixel n-1 (the second one reads pixel n's);
 *  - texels for pixel n+1 are fetched while pixel n finishes; the second
 *    combiner cycle sees the first texel of pixel n+1 as TEXEL1.
 *
 * The LOD for two-cycle texturing uses the next pixel along the span and
 * the pixel below. */
#include "rdp_internal.h"

#include <string.h>

static inline int32_t whole(uint32_t v)
{
    return rdp_asr(rdp_s32(v), 16);
}

typedef struct lod_out {
    uint32_t level;
    bool magnify, distant;
} lod_out_t;

/* LOD of the pixel at (s, t, w) whose divided coordinates are s0, t0. */
static void lod_here(rdp_t *rdp, int32_t s0, int32_t t0, uint32_t s, uint32_t t, uint32_t w, const uint32_t *inc, int32_t *frac, lod_out_t *o)
{
    int32_t ns, nt, ys, yt;
    rdp_persp_divide(rdp, whole(s + inc[ATTR_S]), whole(t + inc[ATTR_T]), whole(w + inc[ATTR_W]), &ns, &nt);
    rdp_persp_divide(rdp, whole(s + rdp->dsdy), whole(t + rdp->dtdy), whole(w + rdp->dwdy), &ys, &yt);
    bool clamped = ((t0 | nt | s0 | ns | ys | yt) & 0x60000) != 0;
    int32_t lod = 0;
    if (!clamped) {
        lod = rdp_lod_measure(s0, ns, t0, nt, 0);
        lod = rdp_lod_measure(s0, ys, t0, yt, lod);
    }
    rdp_lod_signals(rdp, clamped, lod, &o->level, &o->magnify, &o->distant, frac);
    if (o->distant)
        o->level = rdp->max_level;
}

/* Tiles for both texels of a pixel. */
static void tiles_for(const rdp_t *rdp, int prim_tile, const lod_out_t *o, int *t1, int *t2)
{
    uint32_t base = (uint32_t)prim_tile + o->level;
    if (!rdp->om.detail_tex) {
        *t1 = (int)(base & 7);
        *t2 = (o->distant || (!rdp->om.sharpen_tex && o->magnify)) ? *t1 : (int)((base + 1) & 7);
    } else {
        *t1 = (int)((base + (o->magnify ? 0 : 1)) & 7);
        *t2 = (int)((base + ((!o->distant && !o->magnify) ? 2 : 1)) & 7);
    }
}

static inline int single_tile(const rdp_t *rdp, int prim_tile, const lod_out_t *o)
{
    return (int)(((uint32_t)prim_tile + o->level + ((!rdp->om.detail_tex || o->magnify) ? 0 : 1)) & 7);
}

/* Both texels of the pixel at (s, t, w). */
static void texels_both(rdp_t *rdp, uint32_t s, uint32_t t, uint32_t w, const uint32_t *inc, int prim_tile, int *t1, int *t2,
                        int32_t *frac, int32_t *first, int32_t *second)
{
    int32_t s0, t0;
    rdp_persp_divide(rdp, whole(s), whole(t), whole(w), &s0, &t0);
    int32_t is = s0, it = t0;
    rdp_clamp_coords16(&s0, &t0);
    if (rdp->d.lod) {
        lod_out_t o;
        lod_here(rdp, is, it, s, t, w, inc, frac, &o);
        if (rdp->om.tex_lod)
            tiles_for(rdp, prim_tile, &o, t1, t2);
    }
    rdp_texture_sample(rdp, first, first, s0, t0, (uint32_t)*t1, false);
    rdp_texture_sample(rdp, second, first, s0, t0, (uint32_t)*t2, true);
}

/* Only the first texel (the combiner never reads the second). */
static void texel_first(rdp_t *rdp, uint32_t s, uint32_t t, uint32_t w, const uint32_t *inc, int prim_tile, int *t1)
{
    int32_t s0, t0;
    rdp_persp_divide(rdp, whole(s), whole(t), whole(w), &s0, &t0);
    int32_t is = s0, it = t0;
    rdp_clamp_coords16(&s0, &t0);
    if (rdp->d.lod) {
        lod_out_t o;
        lod_here(rdp, is, it, s, t, w, inc, &rdp->cc[CS_LOD_FRAC], &o);
        if (rdp->om.tex_lod)
            *t1 = single_tile(rdp, prim_tile, &o);
    }
    rdp_texture_sample(rdp, &rdp->cc[CS_TEXEL0], &rdp->cc[CS_TEXEL0], s0, t0, (uint32_t)*t1, false);
}

/* Look-ahead past the end of a span: the two texels come from the last
 * pixel's successor (first texel) and the next span's start (second). */
static void texels_across(rdp_t *rdp, uint32_t s, uint32_t t, uint32_t w, const rdp_span_t *next, const uint32_t *inc, int prim_tile, int *t1,
                          int *t3, int32_t *frac, int32_t *first, int32_t *second)
{
    int32_t s0, t0, s2, t2;
    rdp_persp_divide(rdp, whole(s), whole(t), whole(w), &s0, &t0);
    rdp_persp_divide(rdp, whole(next->attr[ATTR_S]), whole(next->attr[ATTR_T]), whole(next->attr[ATTR_W]), &s2, &t2);
    int32_t is2 = s2, it2 = t2;
    rdp_clamp_coords16(&s0, &t0);
    rdp_clamp_coords16(&s2, &t2);
    if (rdp->d.lod) {
        int32_t ys, yt, ns, nt;
        rdp_persp_divide(rdp, whole(next->attr[ATTR_S] + rdp->dsdy), whole(next->attr[ATTR_T] + rdp->dtdy),
                         whole(next->attr[ATTR_W] + rdp->dwdy), &ys, &yt);
        bool clamped = ((it2 | is2 | ys | yt) & 0x60000) != 0;
        int32_t lod = clamped ? 0 : rdp_lod_measure(is2, ys, it2, yt, 0);
        lod_out_t o;
        rdp_lod_signals(rdp, clamped, lod, &o.level, &o.magnify, &o.distant, frac);
        if (rdp->om.tex_lod) {
            if (o.distant)
                o.level = rdp->max_level;
            *t1 = single_tile(rdp, prim_tile, &o);
            rdp_persp_divide(rdp, whole(next->attr[ATTR_S] + inc[ATTR_S]), whole(next->attr[ATTR_T] + inc[ATTR_T]),
                             whole(next->attr[ATTR_W] + inc[ATTR_W]), &ns, &nt);
            clamped = clamped || ((nt | ns) & 0x60000);
            if (!clamped)
                lod = rdp_lod_measure(is2, ns, it2, nt, lod);
            int32_t ignored;
            rdp_lod_signals(rdp, clamped, lod, &o.level, &o.magnify, &o.distant, &ignored);
            if (o.distant)
                o.level = rdp->max_level;
            *t3 = single_tile(rdp, prim_tile, &o);
        }
    }
    rdp_texture_sample(rdp, first, first, s0, t0, (uint32_t)*t1, false);
    rdp_texture_sample(rdp, second, second, s2, t2, (uint32_t)*t3, false);
}

void rdp_render_2cycle(rdp_t *rdp, int start, int end, int prim_tile, bool left)
{
    const rdp_other_modes_t *m = &rdp->om;
    const int level = rdp->d.tex_level_2c;
    const int32_t step = left ? 1 : -1;
    uint32_t inc[ATTR_COUNT];
    for (int a = 0; a < ATTR_COUNT; a++)
        inc[a] = left ? rdp->d_dx[a] : 0u - rdp->d_dx[a];

    uint16_t dzpix;
    if (!m->z_source_sel) {
        dzpix = (uint16_t)rdp->dz_pix;
    } else {
        dzpix = rdp->prim_dz;
        inc[ATTR_Z] = 0;
        rdp->cov_dzdx = rdp->cov_dzdy = 0;
    }
    int dzenc = (int)rdp_dz_compress(dzpix);

    int tile1 = prim_tile, tile2 = (prim_tile + 1) & 7, tile3 = prim_tile;
    int32_t cdith = 7, adith = 0;
    uint32_t cvg = 0, cvbit = 0, dx = 0, dy = 0;
    int32_t compare_alpha = 0, frac_ahead = 0;
    int32_t next_texel1[4] = {0, 0, 0, 0};
    int64_t pending = -1;
    uint32_t zbase = rdp->zb_address >> 1;

    for (int i = start; i <= end; i++) {
        rdp_span_t *sp = &rdp->span[i];
        if (!sp->valid)
            continue;
        const rdp_span_t *next_span = &rdp->span[i + 1];
        uint32_t a[ATTR_COUNT];
        rdp_span_start_t st = rdp_span_begin(rdp, sp, i, left, inc, a);
        int32_t x = st.x, length = st.length, to_edge = st.to_edge;
        uint32_t pixel = st.pixel;

        for (int32_t j = 0; j <= length; j++) {
            int32_t sz = (int32_t)((a[ATTR_Z] >> 10) & 0x3fffff);
            if (j == 0) {
                if (level <= 1)
                    texels_both(rdp, a[ATTR_S], a[ATTR_T], a[ATTR_W], inc, prim_tile, &tile1, &tile2, &rdp->cc[CS_LOD_FRAC],
                                &rdp->cc[CS_TEXEL0], &rdp->cc[CS_TEXEL1]);
                else if (level == 2)
                    texel_first(rdp, a[ATTR_S], a[ATTR_T], a[ATTR_W], inc, prim_tile, &tile1);
                const rdp_cvg_info_t *ci = &rdp->cvg_info[rdp->cvg[x]];
                cvg = ci->count;
                cvbit = ci->top_left;
                dx = ci->dx;
                dy = ci->dy;
                rdp_shade_correct(rdp, dx, dy, rdp_asr(rdp_s32(a[ATTR_R]), 14), rdp_asr(rdp_s32(a[ATTR_G]), 14),
                                  rdp_asr(rdp_s32(a[ATTR_B]), 14), rdp_asr(rdp_s32(a[ATTR_A]), 14), cvg);
                if (rdp->d.dither)
                    rdp_dither_values(rdp, x, i, &cdith, &adith);
                rdp_combine_2cycle_first(rdp, adith, cvg, &compare_alpha);
            }

            if (level == 0) {
                a[ATTR_S] += inc[ATTR_S];
                a[ATTR_T] += inc[ATTR_T];
                a[ATTR_W] += inc[ATTR_W];
                if (j < length || !next_span->valid || to_edge < 3)
                    texels_both(rdp, a[ATTR_S], a[ATTR_T], a[ATTR_W], inc, prim_tile, &tile1, &tile2, &frac_ahead,
                                rdp->next_texel, next_texel1);
                else
                    texels_across(rdp, a[ATTR_S], a[ATTR_T], a[ATTR_W], next_span, inc, prim_tile, &tile1, &tile3, &frac_ahead,
                                  rdp->next_texel, next_texel1);
            }

            sz = rdp_z_correct(rdp, dx, dy, sz, cvg);
            rdp_combine_2cycle_second(rdp, adith, &cvg);
            uint32_t mem_cvg;
            rdp_fb_read(rdp, pixel, &mem_cvg, rdp->pre_memory);
            bool blend_en, prewrap;
            uint32_t zpixel = zbase + pixel;
            bool write = rdp_z_compare(rdp, zpixel, (uint32_t)sz, dzpix, dzenc, &blend_en, &prewrap, &cvg, mem_cvg);
            if (write)
                write = rdp_blend_2cycle_first(rdp, cvg, cvbit);
            if (!write && i >= rdp->last_wide_line)
                rdp_blend_2cycle_first_green(rdp, pixel);
            memcpy(&rdp->bl[BS_MEMORY], rdp->pre_memory, 4 * sizeof(int32_t));

            /* start the next pixel */
            x += step;
            for (int k = ATTR_R; k <= ATTR_A; k++)
                a[k] += inc[k];
            if (level == 1 || level == 2) {
                a[ATTR_S] += inc[ATTR_S];
                a[ATTR_T] += inc[ATTR_T];
                a[ATTR_W] += inc[ATTR_W];
            }
            const rdp_cvg_info_t *ni = &rdp->cvg_info[j < length ? rdp->cvg[x] : 0];
            uint32_t next_cvg = ni->count;
            cvbit = ni->top_left;
            dx = ni->dx;
            dy = ni->dy;
            rdp_shade_correct(rdp, dx, dy, rdp_asr(rdp_s32(a[ATTR_R]), 14), rdp_asr(rdp_s32(a[ATTR_G]), 14),
                              rdp_asr(rdp_s32(a[ATTR_B]), 14), rdp_asr(rdp_s32(a[ATTR_A]), 14), next_cvg);
            if (level == 0) {
                rdp->cc[CS_LOD_FRAC] = frac_ahead;
                memcpy(&rdp->cc[CS_TEXEL0], rdp->next_texel, 4 * sizeof(int32_t));
                memcpy(&rdp->cc[CS_TEXEL1], next_texel1, 4 * sizeof(int32_t));
            } else if (level == 1) {
                texels_both(rdp, a[ATTR_S], a[ATTR_T], a[ATTR_W], inc, prim_tile, &tile1, &tile2, &rdp->cc[CS_LOD_FRAC],
                            &rdp->cc[CS_TEXEL0], &rdp->cc[CS_TEXEL1]);
            } else if (level == 2) {
                texel_first(rdp, a[ATTR_S], a[ATTR_T], a[ATTR_W], inc, prim_tile, &tile1);
            }
            rdp_combine_2cycle_first(rdp, adith, next_cvg, &compare_alpha);

            if (write)
                write = rdp_alpha_compare(rdp, compare_alpha);
            if (write) {
                int32_t rgb[3];
                rdp_blend_2cycle_second(rdp, rgb, cdith, blend_en, prewrap);
                rdp_fb_write(rdp, pixel, rgb, blend_en, cvg, mem_cvg, left, &pending);
                if (m->z_update)
                    rdp_z_store(rdp, zpixel, (uint32_t)sz, dzenc);
            } else if (i >= rdp->last_wide_line) {
                rdp_rejected_hidden(rdp, 1, cdith, blend_en, prewrap, pixel, cvg, mem_cvg, left, &pending);
            }
            if (rdp->d.dither)
                rdp_dither_values(rdp, x, i, &cdith, &adith);
            cvg = next_cvg;
            a[ATTR_Z] += inc[ATTR_Z];
            pixel += (uint32_t)step;
        }
    }
    if (pending >= 0 && left && rdp->fb_size == RDP_SIZE_8)
        rdram_finish_pending(rdp, pending);
}
