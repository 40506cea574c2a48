/* 1-cycle pipeline: per span, per pixel: texture, shade and depth at the
 * first covered sample, combiner, image read, Z test, blender, write.
 *
 * When the combiner reads TEXEL1, the 1-cycle pipeline supplies the next
 * pixel's texel there, fetched one pixel ahead; the level of detail is
 * measured along the span (this pixel to the next and the one after). */
#include "rdp_internal.h"

#include <string.h>

typedef struct span_pos {
    bool end;      /* last pixel of the span */
    bool pre_end;  /* the one before it */
    bool next_row; /* (look-ahead) past the end: next span's first pixel */
    bool long_span, mid_span, short_span; /* more than 7, exactly 7, exactly 6 pixels to the edge */
} span_pos_t;

static inline int32_t whole(uint32_t v)
{
    return rdp_asr(rdp_s32(v), 16);
}

typedef struct stw {
    uint32_t s, t, w;
} stw_t;

static void divide(const rdp_t *rdp, stw_t v, int32_t *s, int32_t *t)
{
    rdp_persp_divide(rdp, whole(v.s), whole(v.t), whole(v.w), s, t);
}

static inline stw_t stw_add(stw_t v, const uint32_t *inc, uint32_t times)
{
    stw_t r = {v.s + inc[ATTR_S] * times, v.t + inc[ATTR_T] * times, v.w + inc[ATTR_W] * times};
    return r;
}

static inline stw_t stw_sub(stw_t v, const uint32_t *inc)
{
    stw_t r = {v.s - inc[ATTR_S], v.t - inc[ATTR_T], v.w - inc[ATTR_W]};
    return r;
}

static inline stw_t span_stw(const rdp_span_t *sp)
{
    stw_t r = {sp->attr[ATTR_S], sp->attr[ATTR_T], sp->attr[ATTR_W]};
    return r;
}

/* LOD between two already divided coordinate pairs; sets the fraction and
 * picks the tile. */
static void lod_pair(rdp_t *rdp, int32_t ns, int32_t nt, int32_t fs, int32_t ft, int prim_tile, int *tile, int32_t *frac)
{
    bool clamped = ((ns | nt | fs | ft) & 0x60000) != 0;
    int32_t lod = clamped ? 0 : rdp_lod_measure(ns, fs, nt, ft, 0);
    uint32_t level;
    bool magnify, distant;
    rdp_lod_signals(rdp, clamped, lod, &level, &magnify, &distant, frac);
    if (rdp->om.tex_lod) {
        if (distant)
            level = rdp->max_level;
        int extra = (!rdp->om.detail_tex || magnify) ? 0 : 1;
        *tile = (int)((prim_tile + level + extra) & 7);
    }
}

/* The neighbours used for this pixel's LOD: `next` and `far` along the
 * span, switching to the next span near the end of a long span. */
static void lod_neighbours(stw_t cur, const uint32_t *inc, const rdp_span_t *next_span, const span_pos_t *pos, stw_t *next, stw_t *far)
{
    if (next_span->valid && pos->end && pos->long_span) {
        *next = span_stw(next_span);
        *far = stw_add(*next, inc, 1);
        return;
    }
    *next = stw_add(cur, inc, 1);
    if (next_span->valid && ((pos->pre_end && pos->long_span) || (pos->end && pos->mid_span)))
        *far = stw_sub(cur, inc);
    else
        *far = stw_add(cur, inc, 2);
}

/* Look-ahead variant for the texel fetched for the following pixel. */
static void lod_neighbours_ahead(stw_t cur, const uint32_t *inc, const rdp_span_t *next_span, const span_pos_t *pos, stw_t *next, stw_t *far)
{
    if (!next_span->valid) {
        *next = stw_add(cur, inc, 1);
        *far = stw_add(cur, inc, 2);
        return;
    }
    stw_t ns = span_stw(next_span);
    if (!pos->next_row) {
        if (pos->end && pos->long_span) {
            *next = ns;
            *far = stw_add(ns, inc, 1);
        } else {
            *next = stw_add(cur, inc, 1);
            bool back = (pos->pre_end && pos->long_span) || (pos->end && pos->mid_span);
            *far = back ? stw_sub(cur, inc) : stw_add(cur, inc, 2);
        }
    } else if (pos->long_span) {
        *next = stw_add(ns, inc, 1);
        *far = stw_add(ns, inc, 2);
    } else if (pos->mid_span) {
        *next = ns;
        *far = stw_add(ns, inc, 1);
    } else if (pos->short_span) {
        *next = stw_add(cur, inc, 1);
        *far = stw_sub(cur, inc);
    } else {
        *next = stw_add(cur, inc, 1);
        *far = stw_add(cur, inc, 2);
    }
}

void rdp_render_1cycle(rdp_t *rdp, int start, int end, int prim_tile, bool left)
{
    const rdp_other_modes_t *m = &rdp->om;
    const int level = rdp->d.tex_level_1c;
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

    int32_t cdith = 7, adith = 0;
    int tile0 = prim_tile, tile_ahead = prim_tile;
    int32_t frac_ahead = 0;
    int32_t ahead_s = 0, ahead_t = 0;
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
        span_pos_t pos = {.long_span = to_edge > 7, .mid_span = to_edge == 7, .short_span = to_edge == 6};

        for (int32_t j = 0; j <= length; j++) {
            int32_t sr = rdp_asr(rdp_s32(a[ATTR_R]), 14), sg = rdp_asr(rdp_s32(a[ATTR_G]), 14);
            int32_t sb = rdp_asr(rdp_s32(a[ATTR_B]), 14), sa = rdp_asr(rdp_s32(a[ATTR_A]), 14);
            int32_t sz = (int32_t)((a[ATTR_Z] >> 10) & 0x3fffff);
            pos.end = j == length;
            pos.pre_end = j == length - 1;
            const rdp_cvg_info_t *ci = &rdp->cvg_info[rdp->cvg[x]];
            uint32_t cvg = ci->count;
            stw_t cur = {a[ATTR_S], a[ATTR_T], a[ATTR_W]};

            if (level == 0) {
                /* this pixel's texel was fetched ahead by the previous one */
                stw_t next_coord;
                int32_t ns, nt;
                if (!pos.end || !pos.long_span || !next_span->valid)
                    next_coord = stw_add(cur, inc, 1);
                else
                    next_coord = span_stw(next_span);
                divide(rdp, next_coord, &ns, &nt);
                if (j) {
                    memcpy(&rdp->cc[CS_TEXEL0], &rdp->cc[CS_TEXEL1], 4 * sizeof(int32_t));
                    rdp->cc[CS_LOD_FRAC] = frac_ahead;
                } else {
                    int32_t s0, t0;
                    divide(rdp, cur, &s0, &t0);
                    rdp_clamp_coords16(&s0, &t0);
                    if (rdp->d.lod) {
                        stw_t unused, far;
                        lod_neighbours(cur, inc, next_span, &pos, &unused, &far);
                        int32_t fs, ft;
                        divide(rdp, far, &fs, &ft);
                        lod_pair(rdp, ns, nt, fs, ft, prim_tile, &tile0, &rdp->cc[CS_LOD_FRAC]);
                    }
                    rdp_texture_sample(rdp, &rdp->cc[CS_TEXEL0], &rdp->cc[CS_TEXEL0], s0, t0, (uint32_t)tile0, false);
                }
                /* positions as seen from the next pixel */
                pos.next_row = pos.end;
                pos.end = pos.pre_end;
                pos.pre_end = j == length - 2;
                a[ATTR_S] += inc[ATTR_S];
                a[ATTR_T] += inc[ATTR_T];
                a[ATTR_W] += inc[ATTR_W];
                ahead_s = ns;
                ahead_t = nt;
                rdp_clamp_coords16(&ahead_s, &ahead_t);
                if (rdp->d.lod) {
                    stw_t after = {a[ATTR_S], a[ATTR_T], a[ATTR_W]}, n2, f2;
                    lod_neighbours_ahead(after, inc, next_span, &pos, &n2, &f2);
                    int32_t n2s, n2t, f2s, f2t;
                    divide(rdp, n2, &n2s, &n2t);
                    divide(rdp, f2, &f2s, &f2t);
                    lod_pair(rdp, n2s, n2t, f2s, f2t, prim_tile, &tile_ahead, &frac_ahead);
                }
                rdp_texture_sample(rdp, &rdp->cc[CS_TEXEL1], &rdp->cc[CS_TEXEL1], ahead_s, ahead_t, (uint32_t)tile_ahead, false);
            } else if (level == 1) {
                int32_t s0, t0;
                divide(rdp, cur, &s0, &t0);
                rdp_clamp_coords16(&s0, &t0);
                if (rdp->d.lod) {
                    stw_t next, far;
                    lod_neighbours(cur, inc, next_span, &pos, &next, &far);
                    int32_t ns, nt, fs, ft;
                    divide(rdp, next, &ns, &nt);
                    divide(rdp, far, &fs, &ft);
                    lod_pair(rdp, ns, nt, fs, ft, prim_tile, &tile0, &rdp->cc[CS_LOD_FRAC]);
                }
                rdp_texture_sample(rdp, &rdp->cc[CS_TEXEL0], &rdp->cc[CS_TEXEL0], s0, t0, (uint32_t)tile0, false);
            }

            rdp_shade_correct(rdp, ci->dx, ci->dy, sr, sg, sb, sa, cvg);
            sz = rdp_z_correct(rdp, ci->dx, ci->dy, sz, cvg);
            if (rdp->d.dither)
                rdp_dither_values(rdp, x, i, &cdith, &adith);
            rdp_combine_1cycle(rdp, adith, &cvg);

            uint32_t mem_cvg;
            rdp_fb_read(rdp, pixel, &mem_cvg, &rdp->bl[BS_MEMORY]);
            bool blend_en, prewrap;
            uint32_t zpixel = zbase + pixel;
            bool write = rdp_z_compare(rdp, zpixel, (uint32_t)sz, dzpix, dzenc, &blend_en, &prewrap, &cvg, mem_cvg);
            int32_t rgb[3];
            if (write)
                write = rdp_blend_1cycle(rdp, rgb, cdith, blend_en, prewrap, cvg, ci->top_left);
            if (write) {
                rdp_fb_write(rdp, pixel, rgb, blend_en, cvg, mem_cvg, left, &pending);
                if (m->z_update)
                    rdp_z_store(rdp, zpixel, (uint32_t)sz, dzenc);
            } else if (i >= rdp->last_wide_line) {
                rdp_rejected_hidden(rdp, 0, cdith, blend_en, prewrap, pixel, cvg, mem_cvg, left, &pending);
            }

            if (level == 1) {
                a[ATTR_S] += inc[ATTR_S];
                a[ATTR_T] += inc[ATTR_T];
                a[ATTR_W] += inc[ATTR_W];
            }
            for (int k = ATTR_R; k <= ATTR_A; k++)
                a[k] += inc[k];
            a[ATTR_Z] += inc[ATTR_Z];
            x += step;
            pixel += (uint32_t)step;
        }
    }
    if (pending >= 0 && left && rdp->fb_size == RDP_SIZE_8)
        rdram_finish_pending(rdp, pending);
}
