/* TMEM loads: Load Block, Load Tile, Load TLUT. The RDP walks the area to
 * load like a rectangle, fetching 8 bytes of the texture image per step
 * and scattering them over the four 16-bit TMEM banks. */
#include "rdp_internal.h"

typedef struct load_row {
    uint32_t first_col; /* texture column of the row's first texel */
    uint32_t last_col;  /* column of the last one (may be below first: wraps) */
    uint32_t s, t;      /* iterated coordinates, s10.5 in the upper 16 bits */
} load_row_t;

typedef struct load_job {
    unsigned tile;
    bool tlut;
    unsigned coord_shift; /* 5: s/t are s10.5 texels; 3: Load Block/TLUT units */
    uint32_t ds, dt;      /* per 8-byte step */
    int first_row, last_row;
} load_job_t;

static void set_tile_area(rdp_t *rdp, unsigned tile, uint32_t w0, uint32_t w1)
{
    rdp_tile_t *t = &rdp->tile[tile];
    t->sl = (w0 >> 12) & 0xfff;
    t->tl = w0 & 0xfff;
    t->sh = (w1 >> 12) & 0xfff;
    t->th = w1 & 0xfff;
    rdp_tile_derive(t);
}

static void put_word(rdp_t *rdp, uint32_t index, uint16_t value)
{
    index &= 0x7ff;
    rdp->tmem[index * 2] = (uint8_t)(value >> 8);
    rdp->tmem[index * 2 + 1] = (uint8_t)value;
}

/* Where the 8 bytes for texel (s, t) go: the word each bank receives,
 * whether the halves are exchanged and whether they land in the upper half. */
static void tmem_slots(const rdp_tile_t *tile, int32_t s, int32_t t, uint32_t bank[4], bool *flipped, bool *upper)
{
    uint32_t base = (((uint32_t)tile->line * (uint32_t)t) & 0x1ff) + tile->tmem;
    uint32_t words = (uint32_t)s;
    if (tile->size == RDP_SIZE_8 || tile->format == RDP_FMT_YUV)
        words = (uint32_t)rdp_asr(s, 1);
    else if (tile->size == RDP_SIZE_4)
        words = (uint32_t)rdp_asr(s, 2);
    words &= 0x7ff;
    *flipped = (((words & 2) != 0) ^ (t & 1)) != 0;
    uint32_t a = ((base << 2) + words) & 0x7fd;
    *upper = (a & 0x400) != 0;
    uint32_t cand[4] = {a, (a + 1) & 0x7ff, (a + 2) & 0x7ff, (a + 3) & 0x7ff};
    if (t & 1)
        for (int k = 0; k < 4; k++)
            cand[k] ^= 2;
    for (uint32_t b = 0; b < 4; b++) {
        bank[b] = 0;
        for (int k = 0; k < 4; k++)
            if ((cand[k] & 3) == b) {
                bank[b] = cand[k] & 0x3ff;
                break;
            }
    }
}

static void run_load(rdp_t *rdp, const load_job_t *job, const load_row_t *rows)
{
    const rdp_tile_t *tile = &rdp->tile[job->tile];
    if (job->tlut && job->last_row > job->first_row) {
        rdp->stats.hangs++; /* a TLUT load of several rows hangs the RDP */
        return;
    }
    uint32_t advance, step;
    switch (rdp->ti_size) {
    case RDP_SIZE_8:
        advance = 8;
        step = 8;
        break;
    case RDP_SIZE_16:
        advance = job->tlut ? 2 : 8;
        step = job->tlut ? 1 : 4;
        break;
    case RDP_SIZE_32:
        advance = 8;
        step = 2;
        break;
    default:
        rdp->stats.hangs++; /* 4-bit texture images cannot be loaded */
        return;
    }
    int formatting = tile->format == RDP_FMT_YUV ? 0 : (tile->format == RDP_FMT_RGBA && tile->size == RDP_SIZE_32) ? 1 : 2;

    for (int i = job->first_row; i <= job->last_row; i++) {
        const load_row_t *row = &rows[i - job->first_row];
        uint32_t index = rdp->ti_width * (uint32_t)i + row->first_col;
        uint32_t ptr = rdp->ti_address + ((index << rdp->ti_size) >> 1);
        uint32_t length = (row->last_col - row->first_col + 1) & 0xfff;
        uint32_t s = row->s, t = row->t;

        for (uint32_t j = 0; j < length; j += step) {
            int32_t sc = rdp_asr(rdp_sext(s >> 16, 16) - ((int32_t)tile->sl << 3), job->coord_shift);
            int32_t tc = rdp_asr(rdp_sext(t >> 16, 16) - ((int32_t)tile->tl << 3), job->coord_shift);
            uint32_t bank[4];
            bool flipped, upper;
            tmem_slots(tile, sc, tc, bank, &flipped, &upper);

            uint8_t q[8];
            if (job->tlut && !(ptr & 1)) {
                uint8_t hi = rdram_read8(rdp, ptr), lo = rdram_read8(rdp, ptr + 1);
                for (int k = 0; k < 8; k += 2) {
                    q[k] = hi;
                    q[k + 1] = lo;
                }
            } else {
                for (uint32_t k = 0; k < 8; k++)
                    q[k] = rdram_read8(rdp, ptr + k);
            }
            uint16_t hw[4];
            for (int k = 0; k < 4; k++)
                hw[k] = (uint16_t)(q[2 * k] << 8 | q[2 * k + 1]);

            if (formatting == 2) {
                uint32_t half = upper ? 0x400 : 0;
                bool swap = tc & 1;
                for (int b = 0; b < 4; b++)
                    put_word(rdp, bank[b] | half, hw[swap ? b ^ 2 : b]);
            } else {
                /* two texels split over both halves of TMEM */
                uint16_t low0, low1, high0, high1;
                if (formatting == 1) { /* RGBA32: RG in the lower half, BA in the upper */
                    low0 = hw[0];
                    low1 = hw[2];
                    high0 = hw[1];
                    high1 = hw[3];
                } else { /* YUV: chroma bytes low, luma bytes high */
                    low0 = (uint16_t)(q[0] << 8 | q[2]);
                    low1 = (uint16_t)(q[4] << 8 | q[6]);
                    high0 = (uint16_t)(q[1] << 8 | q[3]);
                    high1 = (uint16_t)(q[5] << 8 | q[7]);
                }
                uint32_t first = flipped ? bank[2] : bank[0], second = flipped ? bank[3] : bank[1];
                put_word(rdp, first, low0);
                put_word(rdp, second, low1);
                put_word(rdp, first | 0x400, high0);
                put_word(rdp, second | 0x400, high1);
            }
            s = (s + job->ds) & ~0x1fu;
            t = (t + job->dt) & ~0x1fu;
            ptr += advance;
        }
    }
}

/* Load Tile and Load TLUT: a rectangle of texels, sl..sh by tl..th (10.2). */
static void load_area(rdp_t *rdp, const uint8_t *cmd, bool tlut)
{
    uint32_t w0 = rdp_be32(cmd), w1 = rdp_be32(cmd + 4);
    unsigned tilenum = (w1 >> 24) & 7;
    set_tile_area(rdp, tilenum, w0, w1);
    const rdp_tile_t *tile = &rdp->tile[tilenum];
    uint32_t sl = tile->sl, tl = tile->tl, sh = tile->sh, th = tile->th;

    load_job_t job = {
        .tile = tilenum,
        .tlut = tlut,
        .coord_shift = tlut ? 3 : 5,
        .ds = ((0x200u >> rdp->ti_size) << 16) & ~0x1fu,
        .dt = 0,
        .first_row = (int)(tl >> 2),
        .last_row = (int)(th >> 2),
    };
    if (job.last_row < job.first_row)
        return;
    load_row_t rows[RDP_LINES];
    uint32_t bottom = th | 3; /* sub-scanlines below this are outside */
    for (int j = job.first_row; j <= job.last_row; j++) {
        load_row_t *r = &rows[j - job.first_row];
        uint32_t top_sub = (uint32_t)j * 4;
        uint32_t from = top_sub > tl ? top_sub : tl, to = top_sub + 3 < bottom - 1 ? top_sub + 3 : bottom - 1;
        bool any = bottom > 0 && from <= to;
        r->first_col = sl >> 2;
        r->last_col = any ? sh >> 2 : 0;
        r->s = (sl << 3) << 16;
        r->t = (((tl << 3) + 0x20 * (uint32_t)(j - job.first_row)) << 16) & ~0x3ffu;
    }
    run_load(rdp, &job, rows);
}

void rdp_cmd_load_tile(rdp_t *rdp, const uint8_t *cmd)
{
    load_area(rdp, cmd, false);
}

void rdp_cmd_load_tlut(rdp_t *rdp, const uint8_t *cmd)
{
    load_area(rdp, cmd, true);
}

/* Load Block: one run of texels sl..sh on row tl; dxt (in th's place)
 * advances t by 1/2048 of a TMEM line per 8 bytes, so odd lines get their
 * words swapped. */
void rdp_cmd_load_block(rdp_t *rdp, const uint8_t *cmd)
{
    uint32_t w0 = rdp_be32(cmd), w1 = rdp_be32(cmd + 4);
    unsigned tilenum = (w1 >> 24) & 7;
    set_tile_area(rdp, tilenum, w0, w1);
    const rdp_tile_t *tile = &rdp->tile[tilenum];
    uint32_t sl = tile->sl, tl = tile->tl, sh = tile->sh, dxt = tile->th;
    int row = (int)(tl & 0x3ff);

    load_job_t job = {
        .tile = tilenum,
        .tlut = false,
        .coord_shift = 3,
        .ds = ((0x80u >> rdp->ti_size) << 16) & ~0x1fu,
        .dt = (dxt << 8) & ~0x1fu,
        .first_row = row,
        .last_row = row,
    };
    load_row_t r = {
        .first_col = sl,
        .last_col = sh,
        .s = (sl << 3) << 16,
        .t = (tl << 3) << 16,
    };
    run_load(rdp, &job, &r);
}
