/* Per-pixel steps shared by the 1- and 2-cycle pipelines: shade and depth
 * corrected to the first covered sample, dither values, noise. */
#include "rdp_internal.h"

/* 4x4 ordered dither matrices, indexed (y & 3) * 4 + (x & 3). */
static const uint8_t magic_square[16] = {0, 6, 1, 7, 4, 2, 5, 3, 3, 5, 2, 4, 7, 1, 6, 0};
static const uint8_t bayer[16] = {0, 4, 1, 5, 4, 0, 5, 1, 3, 7, 2, 6, 7, 3, 6, 2};

uint32_t rdp_noise(rdp_t *rdp)
{
    /* any uniform source will do: the console's noise is not reproducible */
    uint32_t x = rdp->noise_seed ? rdp->noise_seed : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    rdp->noise_seed = x;
    return (x >> 9) & 0x7fff;
}

/* Shade at a partly covered pixel is evaluated at its first covered sample
 * (dx, dy quarter pixels from the pixel's corner). Inputs are attribute
 * values with 2 fraction bits. */
void rdp_shade_correct(rdp_t *rdp, uint32_t dx, uint32_t dy, int32_t r, int32_t g, int32_t b, int32_t a, uint32_t cvg)
{
    int32_t v[4] = {r, g, b, a};
    int32_t *shade = &rdp->cc[CS_SHADE];
    for (int c = 0; c < 4; c++) {
        int32_t x;
        if (cvg == 8)
            x = rdp_asr(v[c], 2);
        else
            x = rdp_asr(v[c] * 4 + (int32_t)dx * rdp->cov_dx[c] + (int32_t)dy * rdp->cov_dy[c], 4);
        shade[c] = rdp_clamp9(x);
    }
}

/* Depth likewise; the result is clamped to 18 bits (underflow -> 0,
 * overflow -> max). z has 3 fraction bits. */
int32_t rdp_z_correct(const rdp_t *rdp, uint32_t dx, uint32_t dy, int32_t z, uint32_t cvg)
{
    int32_t v;
    if (cvg == 8)
        v = rdp_asr(z, 3);
    else
        v = rdp_asr(z * 4 + (int32_t)dx * rdp->cov_dzdx + (int32_t)dy * rdp->cov_dzdy, 5);
    switch (((uint32_t)v >> 17) & 3) {
    case 2:
        return 0x3ffff;
    case 3:
        return 0;
    default:
        return (int32_t)((uint32_t)v & 0x3ffff);
    }
}

void rdp_dither_values(rdp_t *rdp, int x, int y, int32_t *cdith, int32_t *adith)
{
    if (rdp->d.noise)
        rdp->cc[CS_NOISE] = (int32_t)(((rdp_noise(rdp) & 7) << 6) | 0x20);
    y >>= rdp->clip_field;
    unsigned at = (unsigned)((y & 3) << 2 | (x & 3));
    int32_t noise_alpha = (rdp->cc[CS_NOISE] >> 6) & 7;
    unsigned rgb_sel = rdp->d.dither_combo >> 2, alpha_sel = rdp->d.dither_combo & 3;

    /* colour threshold, and the matrix the alpha pattern comes from */
    const uint8_t *alpha_matrix;
    switch (rgb_sel) {
    case 0:
        *cdith = magic_square[at];
        alpha_matrix = magic_square;
        break;
    case 1:
        *cdith = bayer[at];
        alpha_matrix = bayer;
        break;
    case 2:
        *cdith = (int32_t)rdp_noise(rdp);
        alpha_matrix = magic_square;
        break;
    default:
        *cdith = 7;
        alpha_matrix = bayer;
        break;
    }
    switch (alpha_sel) {
    case 0:
        *adith = alpha_matrix[at];
        break;
    case 1:
        *adith = ~alpha_matrix[at] & 7;
        break;
    case 2:
        *adith = noise_alpha;
        break;
    default:
        *adith = 0;
        break;
    }
}
