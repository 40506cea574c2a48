/* Fill mode (the fill colour, one or two pixels per step, no pipeline) and
 * copy mode (TMEM copied to the image 8 bytes at a time, with an optional
 * alpha test per pixel). Neither uses coverage: a span covers whole pixels
 * from its first to its last, both included. */
#include "rdp_internal.h"

void rdp_render_fill(rdp_t *rdp, int start, int end, bool left)
{
    const rdp_other_modes_t *m = &rdp->om;
    if (rdp->fb_size == RDP_SIZE_4) {
        rdp->stats.hangs++;
        return;
    }
    /* image reads and Z tests hang the hardware in fill mode; so does a Z
     * write, after its first span */
    bool hang_before = m->image_read || m->z_compare;
    bool hang_after = m->z_update && !m->z_source_sel && !hang_before;
    int64_t pending = -1;
    for (int i = start; i <= end; i++) {
        const rdp_span_t *sp = &rdp->span[i];
        if (!sp->valid)
            continue;
        int32_t length = left ? sp->last_x - sp->first_x : sp->first_x - sp->last_x;
        if (length < 0)
            continue;
        if (hang_before) {
            rdp->stats.hangs++;
            return;
        }
        uint32_t pixel = rdp->fb_width * (uint32_t)i + (uint32_t)sp->first_x;
        for (int32_t j = 0; j <= length; j++) {
            rdp_fb_fill(rdp, pixel, left, &pending);
            pixel += left ? 1u : ~0u;
        }
        if (hang_after) {
            rdp->stats.hangs++;
            return;
        }
    }
    if (pending >= 0 && left && rdp->fb_size == RDP_SIZE_8)
        rdram_finish_pending(rdp, pending);
}

static inline int32_t whole(uint32_t v)
{
    return rdp_asr(rdp_s32(v), 16);
}

/* Copy mode picks its tile by LOD only when texture LOD is on. */
static int copy_tile(rdp_t *rdp, uint32_t s, uint32_t t, uint32_t w, const uint32_t *inc, int prim_tile, int tile)
{
    if (!rdp->om.tex_lod)
        return tile;
    int32_t ns, nt, fs, ft;
    rdp_persp_divide(rdp, whole(s + inc[ATTR_S]), whole(t + inc[ATTR_T]), whole(w + inc[ATTR_W]), &ns, &nt);
    rdp_persp_divide(rdp, whole(s + 2 * inc[ATTR_S]), whole(t + 2 * inc[ATTR_T]), whole(w + 2 * inc[ATTR_W]), &fs, &ft);
    bool clamped = ((ns | nt | fs | ft) & 0x60000) != 0;
    int32_t lod = clamped ? 0 : rdp_lod_measure(ns, fs, nt, ft, 0);
    uint32_t level = 0;
    bool magnify = false;
    if ((lod & 0x4000) || clamped) {
        level = rdp->max_level;
    } else if (lod < 32) {
        magnify = true;
    } else {
        uint32_t v = ((uint32_t)lod >> 5) & 0xff;
        while (v > 1) {
            v >>= 1;
            level++;
        }
        bool distant = rdp->max_level ? ((lod & 0x6000) || level >= rdp->max_level) : true;
        if (distant)
            level = rdp->max_level;
    }
    return (int)(((uint32_t)prim_tile + level + ((!rdp->om.detail_tex || magnify) ? 0 : 1)) & 7);
}

void rdp_render_copy(rdp_t *rdp, int start, int end, int prim_tile, bool left)
{
    if (rdp->fb_size == RDP_SIZE_32) {
        rdp->stats.hangs++;
        return;
    }
    const rdp_other_modes_t *m = &rdp->om;
    uint32_t inc[ATTR_COUNT];
    for (int a = 0; a < ATTR_COUNT; a++)
        inc[a] = left ? rdp->d_dx[a] : 0u - rdp->d_dx[a];
    unsigned size = rdp->fb_size;
    int32_t pixels_per_step = size == RDP_SIZE_4 ? 8 : 16 >> size;
    int32_t bpp = size == RDP_SIZE_4 ? 1 : 1 << (size - 1);
    int tile = prim_tile;
    int64_t pending = -1;

    for (int i = start; i <= end; i++) {
        const rdp_span_t *sp = &rdp->span[i];
        if (!sp->valid)
            continue;
        uint32_t s = sp->attr[ATTR_S], t = sp->attr[ATTR_T], w = sp->attr[ATTR_W];
        uint32_t row = rdp->fb_width * (uint32_t)i;
        uint32_t first = row + (uint32_t)sp->first_x, last = row + (uint32_t)sp->last_x;
        uint32_t ptr = rdp->fb_address + (size ? (first << size) >> 1 : first);
        uint32_t end_ptr = rdp->fb_address + (size ? (last << size) >> 1 : last);
        int32_t length = left ? sp->last_x - sp->first_x : sp->first_x - sp->last_x;

        for (int32_t j = 0; j <= length; j += pixels_per_step) {
            int32_t sss, sst;
            rdp_persp_divide(rdp, whole(s), whole(t), whole(w), &sss, &sst);
            rdp_clamp_coords16(&sss, &sst);
            tile = copy_tile(rdp, s, t, w, inc, prim_tile, tile);
            uint32_t hi, lo;
            rdp_copy_fetch(rdp, &hi, &lo, sss, sst, (uint32_t)tile);
            uint64_t q = (size == RDP_SIZE_16 || size == RDP_SIZE_8) ? ((uint64_t)hi << 32 | lo) : 0;

            unsigned write_mask;
            if (!m->alpha_compare) {
                write_mask = 0xff;
            } else if (size == RDP_SIZE_16) {
                /* each 16-bit pixel's alpha bit enables both its bytes */
                write_mask = ((q >> 48) & 1 ? 0xc0u : 0) | ((q >> 32) & 1 ? 0x30u : 0) | ((q >> 16) & 1 ? 0x0cu : 0) | (q & 1 ? 0x03u : 0);
            } else if (size == RDP_SIZE_8) {
                uint32_t threshold = m->dither_alpha ? (rdp_noise(rdp) & 0xff) : (uint32_t)rdp->bl[BS_BLEND + 3];
                uint32_t th[4] = {threshold, threshold, threshold, threshold};
                if (m->dither_alpha) {
                    th[1] = ((threshold & 3) << 6) | (threshold >> 2);
                    th[2] = ((threshold & 0xf) << 4) | (threshold >> 4);
                    th[3] = ((threshold & 0x3f) << 2) | (threshold >> 6);
                }
                write_mask = (((q >> 24) & 0xff) >= th[0] ? 0xc0u : 0) | (((q >> 16) & 0xff) >= th[1] ? 0x30u : 0) |
                             (((q >> 8) & 0xff) >= th[2] ? 0x0cu : 0) | ((q & 0xff) >= th[3] ? 0x03u : 0);
            } else {
                write_mask = 0;
            }

            int64_t count = left ? (int64_t)end_ptr - ptr + bpp : (int64_t)ptr - end_ptr + bpp;
            if (count > 8)
                count = 8;
            uint32_t at = ptr;
            for (int k = 7; count > 0; k--, count--) {
                if (write_mask & (1u << k)) {
                    rdram_write8_hidden(rdp, at, (uint8_t)(q >> (k * 8)), left, &pending);
                    if (!(at & (uint32_t)(bpp - 1)))
                        rdp->stats.pixels++;
                }
                at += left ? 1u : ~0u;
            }
            s += inc[ATTR_S];
            t += inc[ATTR_T];
            w += inc[ATTR_W];
            ptr += left ? 8u : (uint32_t)-8;
        }
    }
    if (pending >= 0 && left && rdp->fb_size == RDP_SIZE_8)
        rdram_finish_pending(rdp, pending);
}
