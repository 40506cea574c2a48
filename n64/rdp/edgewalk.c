/* Edge walker: turns a triangle (or a rectangle expressed as one) into
 * spans, one per scan line, each with its x extent, the edge positions at
 * the four sub-scanlines (for coverage) and the attribute values at the
 * span's start, then hands the spans to the pipeline of the cycle type.
 *
 * Coordinates: y in s11.2 (quarter-pixel sub-scanlines), x in s11.16;
 * the scissor box in 10.2. Attributes are s15.16 (colour, Z) or s10.21
 * (texture s, t) and friends; see rdp_prim_t. */
#include "rdp_internal.h"

#include <string.h>

/* (integer word, fraction word) halves of the RDP's split attribute layout */
static inline uint32_t join_high(uint32_t whole, uint32_t frac)
{
    return (whole & 0xffff0000u) | (frac >> 16);
}

static inline uint32_t join_low(uint32_t whole, uint32_t frac)
{
    return (whole << 16) | (frac & 0xffff);
}

/* Edge x in 1/8 pixels, scissored: returns the clamped value and flags
 * whether it was left of / right of the scissor box. */
static inline uint32_t scissor_x(const rdp_t *rdp, uint32_t x, bool *under, bool *over)
{
    uint32_t sticky = ((x >> 1) & 0x1fff) != 0;
    uint32_t coarse = ((x >> 13) & 0x1ffe) | sticky;
    uint32_t clip_lo = (uint32_t)rdp->clip_xh << 1, clip_hi = (uint32_t)rdp->clip_xl << 1;
    *under = (x & 0x8000000) || (coarse < clip_lo && !(x & 0x4000000));
    uint32_t v = *under ? clip_lo : (((x >> 13) & 0x3ffe) | sticky);
    *over = (v & 0x2000) || (v & 0x1fff) >= clip_hi;
    return *over ? clip_hi : v;
}

void rdp_draw_primitive(rdp_t *rdp, const rdp_prim_t *p)
{
    if (rdp->derived_stale)
        rdp_update_derived(rdp);
    if (rdp->fb_size == RDP_SIZE_8) {
        rdp->hidden_recent[0] &= (uint8_t)~2u;
        rdp->hidden_recent[4] &= (uint8_t)~2u;
    }
    int32_t wide = rdp->fb_size == RDP_SIZE_16 ? 7 : 3;
    rdp->last_wide_line = -1;
    rdp->max_level = p->max_level;
    bool left = p->left_major;
    bool copy = rdp->om.cycle_type == RDP_CYCLE_COPY;

    /* per-pixel steps and the coverage-correction slopes */
    for (int a = 0; a < ATTR_COUNT; a++)
        rdp->d_dx[a] = a == ATTR_Z ? p->dx[a] : p->dx[a] & ~0x1fu;
    for (int c = 0; c < 4; c++) {
        rdp->cov_dx[c] = rdp_sext((uint32_t)rdp_asr(rdp_s32(rdp->d_dx[c]), 14), 13);
        rdp->cov_dy[c] = rdp_sext((uint32_t)rdp_asr(rdp_s32(p->dy[c]), 14), 13);
    }
    rdp->cov_dzdx = rdp_sext((uint32_t)rdp_asr(rdp_s32(rdp->d_dx[ATTR_Z]), 10), 22);
    rdp->cov_dzdy = rdp_sext((uint32_t)rdp_asr(rdp_s32(p->dy[ATTR_Z]), 10), 22);
    rdp->dsdy = p->dy[ATTR_S] & ~0x7fffu;
    rdp->dtdy = p->dy[ATTR_T] & ~0x7fffu;
    rdp->dwdy = p->dy[ATTR_W] & ~0x7fffu;
    {
        uint32_t zy = (p->dy[ATTR_Z] >> 16) & 0xffff, zx = (p->dx[ATTR_Z] >> 16) & 0xffff;
        int32_t sum = (int32_t)(((zy & 0x8000) ? (~zy & 0x7fff) : zy) + ((zx & 0x8000) ? (~zx & 0x7fff) : zx));
        rdp->dz_pix = rdp_normalize_dzpix(sum & 0xffff) & 0xffff;
    }

    /* attributes are evaluated at the span's major-edge end; when the
     * major edge leans away from the span, at the sub-scanline 3/4 down */
    bool at_bottom = !(p->major_slope_negative ^ left);
    uint32_t offset[ATTR_COUNT] = {0}, dxh[ATTR_COUNT] = {0};
    for (int a = 0; a < ATTR_COUNT; a++) {
        if (at_bottom) {
            int32_t de = rdp_s32(p->de[a] & ~0x1ffu), dy = rdp_s32(p->dy[a] & ~0x1ffu);
            offset[a] = (uint32_t)de - (uint32_t)rdp_asr(de, 2) - (uint32_t)dy + (uint32_t)rdp_asr(dy, 2);
        }
        if (!copy)
            dxh[a] = (uint32_t)rdp_asr(rdp_s32(p->dx[a]), 8) & ~1u;
    }
    int latch_sub = at_bottom ? 3 : 0;

    /* vertical extent after the scissor */
    int32_t yl = p->yl, yh = p->yh;
    int32_t yl_limit, yh_limit;
    if (yl & 0x2000)
        yl_limit = yl;
    else if (yl & 0x1000)
        yl_limit = rdp->clip_yl;
    else
        yl_limit = (yl & 0xfff) < rdp->clip_yl ? yl : rdp->clip_yl;
    int32_t yl_far = yl_limit | 3;
    rdp->span[RDP_LINES].valid = false;
    if (rdp_asr(yl, 2) > rdp_asr(yl_far, 2))
        yl_far += 4;
    else if (rdp_asr(yl_limit, 2) >= 0 && rdp_asr(yl_limit, 2) < RDP_LINES - 1)
        rdp->span[rdp_asr(yl_limit, 2) + 1].valid = false;
    if (yh & 0x2000)
        yh_limit = rdp->clip_yh;
    else if (yh & 0x1000)
        yh_limit = yh;
    else
        yh_limit = yh >= rdp->clip_yh ? yh : rdp->clip_yh;
    int32_t yh_close = yh_limit & ~3;

    uint32_t major = (uint32_t)p->xh & ~1u, minor = (uint32_t)p->xm & ~1u;
    uint32_t major_step = (uint32_t)rdp_asr(p->dxhdy, 2) & ~1u, minor_step = (uint32_t)rdp_asr(p->dxmdy, 2) & ~1u;
    uint32_t attr[ATTR_COUNT];
    memcpy(attr, p->attr, sizeof attr);

    int32_t far_minor = 0, near_major = 0; /* extent of the covered samples */
    bool all_over = true, all_under = true, all_invalid = true;
    for (int32_t k = yh & ~3; k <= yl_far; k++) {
        if (k == p->ym) {
            minor = (uint32_t)p->xl & ~1u;
            minor_step = (uint32_t)rdp_asr(p->dxldy, 2) & ~1u;
        }
        int sub = k & 3;
        if (k >= yh_close) {
            int32_t j = k >> 2;
            rdp_span_t *sp = &rdp->span[j];
            bool invalid = k < yh_limit || k >= yl_limit;
            if (sub == 0) {
                far_minor = left ? 0 : 0xfff;
                near_major = left ? 0xfff : 0;
                all_over = all_under = all_invalid = true;
            }
            bool under, over;
            uint32_t xmaj = scissor_x(rdp, major, &under, &over);
            sp->major[sub] = (uint16_t)(xmaj & 0x1fff);
            all_over &= over;
            all_under &= under;
            uint32_t xmin = scissor_x(rdp, minor, &under, &over);
            sp->minor[sub] = (uint16_t)(xmin & 0x1fff);
            all_over &= over;
            all_under &= under;

            uint32_t quarter_major = (major ^ (1u << 27)) & (0x3fffu << 14);
            uint32_t quarter_minor = (minor ^ (1u << 27)) & (0x3fffu << 14);
            invalid |= left ? quarter_minor < quarter_major : quarter_major < quarter_minor;
            sp->sub_invalid[sub] = invalid;
            all_invalid &= invalid;
            if (!invalid) {
                int32_t pmin = (int32_t)((xmin >> 3) & 0xfff), pmaj = (int32_t)((xmaj >> 3) & 0xfff);
                if (left) {
                    if (pmin > far_minor)
                        far_minor = pmin;
                    if (pmaj < near_major)
                        near_major = pmaj;
                } else {
                    if (pmin < far_minor)
                        far_minor = pmin;
                    if (pmaj > near_major)
                        near_major = pmaj;
                }
            }
            if (sub == latch_sub) {
                sp->major_x = rdp_sext(major >> 16, 12);
                uint32_t xfrac = (major >> 8) & 0xff;
                for (int a = 0; a < ATTR_COUNT; a++)
                    sp->attr[a] = ((attr[a] & ~0x1ffu) + offset[a] - xfrac * dxh[a]) & ~0x3ffu;
            }
            if (sub == 3) {
                sp->first_x = near_major;
                sp->last_x = far_minor;
                bool field_ok = !rdp->clip_field || !(rdp->clip_keep_odd ^ (j & 1));
                sp->valid = !all_invalid && !all_over && !all_under && field_ok;
                if (sp->valid && rdp->fb_size > RDP_SIZE_8) {
                    int32_t width = left ? sp->last_x - sp->first_x : sp->first_x - sp->last_x;
                    if (width >= wide)
                        rdp->last_wide_line = j;
                }
            }
        }
        if (sub == 3)
            for (int a = 0; a < ATTR_COUNT; a++)
                attr[a] += p->de[a];
        minor += minor_step;
        major += major_step;
    }

    int start = (int)(yh_limit >> 2), end = (int)rdp_asr(yl_limit, 2);
    if (end > RDP_LINES - 1)
        end = RDP_LINES - 1;
    switch (rdp->om.cycle_type) {
    case RDP_CYCLE_1:
        rdp_render_1cycle(rdp, start, end, p->tile, left);
        break;
    case RDP_CYCLE_2:
        rdp_render_2cycle(rdp, start, end, p->tile, left);
        break;
    case RDP_CYCLE_COPY:
        rdp_render_copy(rdp, start, end, p->tile, left);
        break;
    default:
        rdp_render_fill(rdp, start, end, left);
        break;
    }
}

void rdp_cmd_triangle(rdp_t *rdp, const uint8_t *cmd)
{
    unsigned opcode = cmd[0] & 0x3f;
    uint32_t e[44];
    memset(e, 0, sizeof e);
    unsigned at = 0;
    for (int i = 0; i < 8; i++, at += 4)
        e[i] = rdp_be32(cmd + at);
    if (opcode & 4)
        for (int i = 8; i < 24; i++, at += 4)
            e[i] = rdp_be32(cmd + at);
    if (opcode & 2)
        for (int i = 24; i < 40; i++, at += 4)
            e[i] = rdp_be32(cmd + at);
    if (opcode & 1)
        for (int i = 40; i < 44; i++, at += 4)
            e[i] = rdp_be32(cmd + at);

    rdp_prim_t p;
    memset(&p, 0, sizeof p);
    p.left_major = (e[0] & 0x800000) != 0;
    p.max_level = (e[0] >> 19) & 7;
    p.tile = (e[0] >> 16) & 7;
    p.yl = rdp_sext(e[0], 14);
    p.ym = rdp_sext(e[1] >> 16, 14);
    p.yh = rdp_sext(e[1], 14);
    p.xl = rdp_sext(e[2], 28);
    p.dxldy = rdp_sext(e[3], 30);
    p.xh = rdp_sext(e[4], 28);
    p.dxhdy = rdp_sext(e[5], 30);
    p.xm = rdp_sext(e[6], 28);
    p.dxmdy = rdp_sext(e[7], 30);
    p.major_slope_negative = (e[5] & 0x80000000u) != 0;

    /* shade: R G B A and their dx, de, dy as whole / fraction word pairs */
    for (int c = 0; c < 4; c++) {
        int w = c >> 1;
        uint32_t (*join)(uint32_t, uint32_t) = (c & 1) ? join_low : join_high;
        p.attr[c] = join(e[8 + w], e[12 + w]);
        p.dx[c] = join(e[10 + w], e[14 + w]);
        p.de[c] = join(e[16 + w], e[20 + w]);
        p.dy[c] = join(e[18 + w], e[22 + w]);
    }
    /* texture: S T W */
    for (int c = 0; c < 3; c++) {
        int w = c >> 1;
        uint32_t (*join)(uint32_t, uint32_t) = (c & 1) ? join_low : join_high;
        p.attr[ATTR_S + c] = join(e[24 + w], e[28 + w]);
        p.dx[ATTR_S + c] = join(e[26 + w], e[30 + w]);
        p.de[ATTR_S + c] = join(e[32 + w], e[36 + w]);
        p.dy[ATTR_S + c] = join(e[34 + w], e[38 + w]);
    }
    p.attr[ATTR_Z] = e[40];
    p.dx[ATTR_Z] = e[41];
    p.de[ATTR_Z] = e[42];
    p.dy[ATTR_Z] = e[43];
    rdp_draw_primitive(rdp, &p);
}

/* A rectangle is drawn as a left-major primitive with vertical edges.
 * In fill and copy modes the bottom edge takes in its whole last line. */
static void rect_prim(const rdp_t *rdp, const uint8_t *cmd, rdp_prim_t *p)
{
    uint32_t w0 = rdp_be32(cmd), w1 = rdp_be32(cmd + 4);
    uint32_t xl = (w0 >> 12) & 0xfff, yl = w0 & 0xfff;
    uint32_t xh = (w1 >> 12) & 0xfff, yh = w1 & 0xfff;
    if (rdp->om.cycle_type == RDP_CYCLE_FILL || rdp->om.cycle_type == RDP_CYCLE_COPY)
        yl |= 3;
    memset(p, 0, sizeof *p);
    p->left_major = true;
    p->yl = (int32_t)yl;
    p->ym = (int32_t)yl;
    p->yh = (int32_t)yh;
    p->xl = p->xm = (int32_t)(xl << 14); /* 10.2 -> 16.16 */
    p->xh = (int32_t)(xh << 14);
}

void rdp_cmd_fill_rect(rdp_t *rdp, const uint8_t *cmd)
{
    rdp_prim_t p;
    rect_prim(rdp, cmd, &p);
    rdp_draw_primitive(rdp, &p);
}

void rdp_cmd_tex_rect(rdp_t *rdp, const uint8_t *cmd, bool flip)
{
    rdp_prim_t p;
    rect_prim(rdp, cmd, &p);
    uint32_t w1 = rdp_be32(cmd + 4), w2 = rdp_be32(cmd + 8), w3 = rdp_be32(cmd + 12);
    p.tile = (w1 >> 24) & 7;
    uint32_t s = w2 >> 16, t = w2 & 0xffff;
    /* s5.10 steps -> s.21 per pixel (across) and per line (down) */
    uint32_t dsdx = (uint32_t)rdp_sext(w3 >> 16, 16) << 11, dtdy = (uint32_t)rdp_sext(w3, 16) << 11;
    p.attr[ATTR_S] = s << 16;
    p.attr[ATTR_T] = t << 16;
    if (!flip) {
        p.dx[ATTR_S] = dsdx;
        p.de[ATTR_T] = p.dy[ATTR_T] = dtdy;
    } else {
        /* s and t exchanged: t steps across, s down */
        p.dx[ATTR_T] = dtdy;
        p.de[ATTR_S] = p.dy[ATTR_S] = dsdx;
    }
    rdp_draw_primitive(rdp, &p);
}
