/* Pixel coverage: each pixel has 8 sample points, two on each of its four
 * sub-scanlines, staggered:
 *
 *     sub-scanline 0:  columns 0 and 2   mask bits 7, 5
 *     sub-scanline 1:  columns 1 and 3   mask bits 6, 4
 *     sub-scanline 2:  columns 0 and 2   mask bits 3, 1
 *     sub-scanline 3:  columns 1 and 3   mask bits 2, 0
 *
 * Columns are quarter pixels from the left. A span's coverage masks are
 * built from the edge positions the walker recorded per sub-scanline. */
#include "rdp_internal.h"

/* Sample columns 0..3 of a sub-scanline are nibble bits 3..0; an edge at
 * x (in eighths of a pixel inside the pixel) passes (x + 1) / 2 of them. */
static inline unsigned samples_left_of(uint32_t x)
{
    return (0xf0u >> (((x & 7) + 1) >> 1)) & 0xf;
}

static inline unsigned samples_right_of(uint32_t x)
{
    return 0xfu >> (((x & 7) + 1) >> 1);
}

void rdp_build_cvg_table(rdp_cvg_info_t *table)
{
    /* mask bit -> (row, column) of its sample */
    static const uint8_t row_of[8] = {3, 2, 3, 2, 1, 0, 1, 0};
    static const uint8_t col_of[8] = {3, 2, 1, 0, 3, 2, 1, 0};
    for (unsigned mask = 0; mask < 256; mask++) {
        rdp_cvg_info_t *e = &table[mask];
        unsigned count = 0, best_row = 4, best_col = 4;
        for (unsigned b = 0; b < 8; b++) {
            if (!(mask >> b & 1))
                continue;
            count++;
            if (row_of[b] < best_row || (row_of[b] == best_row && col_of[b] < best_col)) {
                best_row = row_of[b];
                best_col = col_of[b];
            }
        }
        e->count = (uint8_t)count;
        e->top_left = (mask >> 7) & 1;
        e->dy = (uint8_t)(count ? best_row : 0);
        e->dx = (uint8_t)(count ? best_col : 0);
    }
}

void rdp_coverage_span(rdp_t *rdp, const rdp_span_t *span, bool left_major)
{
    int32_t lo = left_major ? span->first_x : span->last_x;
    int32_t hi = left_major ? span->last_x : span->first_x;
    if (hi < lo)
        return;
    if (lo < 0)
        lo = 0;
    if (hi > RDP_LINES - 1)
        hi = RDP_LINES - 1;
    uint8_t *cvg = rdp->cvg;
    for (int32_t x = lo; x <= hi; x++)
        cvg[x] = 0xff;

    for (int sub = 0; sub < 4; sub++) {
        unsigned pair = (sub & 1) ? 0x5 : 0xa;     /* this sub-scanline's two samples */
        unsigned shift = (sub < 2) ? 4 : 0;
        uint8_t keep = (uint8_t)~(pair << shift);
        if (span->sub_invalid[sub]) {
            for (int32_t x = lo; x <= hi; x++)
                cvg[x] &= keep;
            continue;
        }
        uint32_t minor = span->minor[sub], major = span->major[sub];
        int32_t minor_px = (int32_t)(minor >> 3), major_px = (int32_t)(major >> 3);
        /* the side edge on the left of the span and the one on its right */
        uint32_t left_edge = left_major ? major : minor, right_edge = left_major ? minor : major;
        int32_t left_px = left_major ? major_px : minor_px, right_px = left_major ? minor_px : major_px;

        for (int32_t x = lo; x <= left_px && x < RDP_LINES; x++)
            cvg[x] &= keep;
        for (int32_t x = right_px; x <= hi; x++)
            cvg[x] &= keep;
        if (right_px > left_px) {
            cvg[right_px] |= (uint8_t)((samples_left_of(right_edge) & pair) << shift);
            cvg[left_px] |= (uint8_t)((samples_right_of(left_edge) & pair) << shift);
        } else if (right_px == left_px) {
            unsigned both = samples_left_of(right_edge) & samples_right_of(left_edge) & pair;
            cvg[left_px] |= (uint8_t)(both << shift);
        }
    }
}

/* Coverage stored with a pixel, by the cvg_dest mode. */
int32_t rdp_final_coverage(const rdp_t *rdp, bool blend_en, int32_t cvg, int32_t mem_cvg)
{
    switch (rdp->om.cvg_dest) {
    case 0: { /* clamp */
        int32_t v = blend_en ? cvg + mem_cvg : cvg - 1;
        return (v & 8) ? 7 : (v & 7);
    }
    case 1: /* wrap */
        return (cvg + mem_cvg) & 7;
    case 2: /* full */
        return 7;
    default: /* save */
        return mem_cvg;
    }
}
