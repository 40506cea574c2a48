/* The RDP object: creation, command assembly (commands may straddle runs),
 * dispatch, and the commands that only set state. */
#include "rdp_internal.h"

#include <stdlib.h>
#include <string.h>

enum {
    OP_NOOP = 0x00,
    OP_TRI_FIRST = 0x08,
    OP_TRI_LAST = 0x0f,
    OP_TEX_RECT = 0x24,
    OP_TEX_RECT_FLIP = 0x25,
    OP_SYNC_LOAD = 0x26,
    OP_SYNC_PIPE = 0x27,
    OP_SYNC_TILE = 0x28,
    OP_SYNC_FULL = 0x29,
    OP_SET_KEY_GB = 0x2a,
    OP_SET_KEY_R = 0x2b,
    OP_SET_CONVERT = 0x2c,
    OP_SET_SCISSOR = 0x2d,
    OP_SET_PRIM_DEPTH = 0x2e,
    OP_SET_OTHER_MODES = 0x2f,
    OP_LOAD_TLUT = 0x30,
    OP_SET_TILE_SIZE = 0x32,
    OP_LOAD_BLOCK = 0x33,
    OP_LOAD_TILE = 0x34,
    OP_SET_TILE = 0x35,
    OP_FILL_RECT = 0x36,
    OP_SET_FILL_COLOR = 0x37,
    OP_SET_FOG_COLOR = 0x38,
    OP_SET_BLEND_COLOR = 0x39,
    OP_SET_PRIM_COLOR = 0x3a,
    OP_SET_ENV_COLOR = 0x3b,
    OP_SET_COMBINE = 0x3c,
    OP_SET_TEXTURE_IMAGE = 0x3d,
    OP_SET_MASK_IMAGE = 0x3e,
    OP_SET_COLOR_IMAGE = 0x3f
};

/* Bytes a command occupies, from its opcode. Triangles carry an edge block
 * (32 bytes) plus shade (64), texture (64) and Z (16) blocks as flagged by
 * opcode bits 2, 1 and 0. */
static uint32_t command_length(unsigned opcode)
{
    if (opcode >= OP_TRI_FIRST && opcode <= OP_TRI_LAST)
        return 32 + ((opcode & 4) ? 64 : 0) + ((opcode & 2) ? 64 : 0) + ((opcode & 1) ? 16 : 0);
    if (opcode == OP_TEX_RECT || opcode == OP_TEX_RECT_FLIP)
        return 16;
    return 8;
}

/* Reciprocal table of the perspective divider: for 64 steps of the
 * normalised divisor 1 + i/64, the start point 2^20 / (64 + i) rounded to
 * nearest, and the step to the next point. The console's table differs from
 * the rounded quotient in one entry (i = 6 holds 0x3a83). */
static void build_reciprocal_table(rdp_t *rdp)
{
    for (int i = 0; i <= 64; i++) {
        int32_t p = (int32_t)(((1u << 21) / (uint32_t)(64 + i) + 1) >> 1);
        if (i == 6)
            p = 0x3a83;
        if (i < 64)
            rdp->rcp_point[i] = p;
        if (i > 0)
            rdp->rcp_slope[i - 1] = p - rdp->rcp_point[i - 1];
    }
}

rdp_t *rdp_create(uint8_t *rdram, size_t rdram_size)
{
    rdp_t *rdp = calloc(1, sizeof *rdp);
    if (!rdp)
        return NULL;
    rdp->rdram = rdram;
    /* whole 8-byte words only, so halfword and word checks agree */
    rdp->rdram_size = rdram ? rdram_size & ~(size_t)7 : 0;
    size_t halfwords = rdp->rdram_size / 2;
    rdp->hidden = malloc(halfwords ? halfwords : 1);
    if (!rdp->hidden) {
        free(rdp);
        return NULL;
    }
    memset(rdp->hidden, HIDDEN_UNSET, halfwords ? halfwords : 1);
    rdp_build_blend_div(rdp->blend_div);
    rdp_build_cvg_table(rdp->cvg_info);
    build_reciprocal_table(rdp);
    rdp->noise_seed = 3;
    rdp->cc[CS_ONE] = 0x100;
    rdp->bl[BS_FF] = 0xff;
    for (int t = 0; t < 8; t++)
        rdp_tile_derive(&rdp->tile[t]);
    rdp_cmd_set_other_modes(rdp, 0, 0);
    rdp_cmd_set_combine(rdp, 0, 0);
    return rdp;
}

void rdp_destroy(rdp_t *rdp)
{
    if (!rdp)
        return;
    free(rdp->hidden);
    free(rdp);
}

void rdp_get_stats(const rdp_t *rdp, rdp_stats_t *stats)
{
    *stats = rdp->stats;
}

void rdp_reset_stats(rdp_t *rdp)
{
    memset(&rdp->stats, 0, sizeof rdp->stats);
}

unsigned rdp_hidden_bits(const rdp_t *rdp, uint32_t address)
{
    uint32_t index = (address & 0xffffff) >> 1;
    if ((size_t)index * 2 + 1 >= rdp->rdram_size)
        return 0;
    uint8_t h = rdp->hidden[index];
    if (h & HIDDEN_UNSET)
        return (rdp->rdram[index * 2 + 1] & 1) ? 3 : 0;
    return h;
}

void rdp_set_hidden_bits(rdp_t *rdp, uint32_t address, unsigned bits)
{
    uint32_t index = (address & 0xffffff) >> 1;
    if ((size_t)index * 2 + 1 < rdp->rdram_size)
        rdp->hidden[index] = (uint8_t)(bits & 3);
}

void rdp_reset_hidden_bits(rdp_t *rdp)
{
    if (rdp->rdram_size >= 2)
        memset(rdp->hidden, HIDDEN_UNSET, rdp->rdram_size / 2);
}

/* ---- state commands ---- */

void rdp_cmd_set_other_modes(rdp_t *rdp, uint32_t w0, uint32_t w1)
{
    rdp_other_modes_t *m = &rdp->om;
    m->cycle_type = (w0 >> 20) & 3;
    m->persp_tex = (w0 >> 19) & 1;
    m->detail_tex = (w0 >> 18) & 1;
    m->sharpen_tex = (w0 >> 17) & 1;
    m->tex_lod = (w0 >> 16) & 1;
    m->en_tlut = (w0 >> 15) & 1;
    m->tlut_type = (w0 >> 14) & 1;
    m->sample_type = (w0 >> 13) & 1;
    m->mid_texel = (w0 >> 12) & 1;
    m->bi_lerp0 = (w0 >> 11) & 1;
    m->bi_lerp1 = (w0 >> 10) & 1;
    m->convert_one = (w0 >> 9) & 1;
    m->key_en = (w0 >> 8) & 1;
    m->rgb_dither_sel = (w0 >> 6) & 3;
    m->alpha_dither_sel = (w0 >> 4) & 3;
    for (int c = 0; c < 2; c++) {
        m->blend_m1a[c] = (w1 >> (30 - 2 * c)) & 3;
        m->blend_m1b[c] = (w1 >> (26 - 2 * c)) & 3;
        m->blend_m2a[c] = (w1 >> (22 - 2 * c)) & 3;
        m->blend_m2b[c] = (w1 >> (18 - 2 * c)) & 3;
    }
    m->force_blend = (w1 >> 14) & 1;
    m->alpha_cvg_select = (w1 >> 13) & 1;
    m->cvg_times_alpha = (w1 >> 12) & 1;
    m->z_mode = (w1 >> 10) & 3;
    m->cvg_dest = (w1 >> 8) & 3;
    m->color_on_cvg = (w1 >> 7) & 1;
    m->image_read = (w1 >> 6) & 1;
    m->z_update = (w1 >> 5) & 1;
    m->z_compare = (w1 >> 4) & 1;
    m->antialias = (w1 >> 3) & 1;
    m->z_source_sel = (w1 >> 2) & 1;
    m->dither_alpha = (w1 >> 1) & 1;
    m->alpha_compare = w1 & 1;
    rdp_blender_setup(rdp);
    rdp->derived_stale = true;
}

void rdp_cmd_set_combine(rdp_t *rdp, uint32_t w0, uint32_t w1)
{
    rdp->combine_hi = w0 & 0xffffff;
    rdp->combine_lo = w1;
    rdp_combiner_setup(rdp);
    rdp->derived_stale = true;
}

void rdp_cmd_set_tile(rdp_t *rdp, uint32_t w0, uint32_t w1)
{
    rdp_tile_t *t = &rdp->tile[(w1 >> 24) & 7];
    t->format = (w0 >> 21) & 7;
    t->size = (w0 >> 19) & 3;
    t->line = (w0 >> 9) & 0x1ff;
    t->tmem = w0 & 0x1ff;
    t->palette = (w1 >> 20) & 0xf;
    t->clamp_t = (w1 >> 19) & 1;
    t->mirror_t = (w1 >> 18) & 1;
    t->mask_t = (w1 >> 14) & 0xf;
    t->shift_t = (w1 >> 10) & 0xf;
    t->clamp_s = (w1 >> 9) & 1;
    t->mirror_s = (w1 >> 8) & 1;
    t->mask_s = (w1 >> 4) & 0xf;
    t->shift_s = w1 & 0xf;
    rdp_tile_derive(t);
}

void rdp_cmd_set_tile_size(rdp_t *rdp, uint32_t w0, uint32_t w1)
{
    rdp_tile_t *t = &rdp->tile[(w1 >> 24) & 7];
    t->sl = (w0 >> 12) & 0xfff;
    t->tl = w0 & 0xfff;
    t->sh = (w1 >> 12) & 0xfff;
    t->th = w1 & 0xfff;
    rdp_tile_derive(t);
}

static void set_colour(int32_t *dest, uint32_t rgba)
{
    dest[0] = (rgba >> 24) & 0xff;
    dest[1] = (rgba >> 16) & 0xff;
    dest[2] = (rgba >> 8) & 0xff;
    dest[3] = rgba & 0xff;
}

static void set_convert(rdp_t *rdp, uint32_t w0, uint32_t w1)
{
    uint32_t k[4];
    k[0] = (w0 >> 13) & 0x1ff;
    k[1] = (w0 >> 4) & 0x1ff;
    k[2] = ((w0 & 0xf) << 5) | ((w1 >> 27) & 0x1f);
    k[3] = (w1 >> 18) & 0x1ff;
    for (int i = 0; i < 4; i++)
        rdp->k_tf[i] = rdp_sext(k[i], 9) * 2 + 1;
    rdp->cc[CS_K4] = (w1 >> 9) & 0x1ff;
    rdp->cc[CS_K5] = w1 & 0x1ff;
}

/* Which inputs the combiners read decides how much texturing work a pixel
 * needs and how the LOD and dither stages run. */
void rdp_update_derived(rdp_t *rdp)
{
    const rdp_other_modes_t *m = &rdp->om;
    rdp_derived_t *d = &rdp->d;
    bool one_cycle = m->cycle_type == RDP_CYCLE_1, two_cycle = m->cycle_type == RDP_CYCLE_2;

    d->partial_reject[0] = m->blend_m2b[0] == 0 && m->blend_m1b[0] == 0;
    d->partial_reject[1] = m->blend_m2b[1] == 0 && m->blend_m1b[1] == 0;
    d->shifters_now = (m->blend_m2b[0] == 1 && one_cycle) || (m->blend_m2b[1] == 1 && two_cycle);
    d->shifters_previous = m->blend_m2b[0] == 1 && two_cycle;
    d->dither_combo = (uint8_t)(m->rgb_dither_sel << 2 | m->alpha_dither_sel);

    /* reads[c]: bit 0 texel0, bit 1 texel1, bit 2 LOD fraction; alpha[c]: same for the alpha combiner */
    unsigned reads[2] = {0, 0}, alpha_reads[2] = {0, 0};
    for (int c = 0; c < 2; c++) {
        for (int k = 0; k < 4; k++) {
            uint8_t slot = rdp->cc_rgb[c][k][0];
            if (slot == CS_TEXEL0 || (k == 2 && slot == CS_TEXEL0 + 3))
                reads[c] |= 1;
            if (slot == CS_TEXEL1 || (k == 2 && slot == CS_TEXEL1 + 3))
                reads[c] |= 2;
            if (k == 2 && slot == CS_LOD_FRAC)
                reads[c] |= 4;
            uint8_t a = rdp->cc_alpha[c][k];
            if (a == CS_TEXEL0 + 3)
                alpha_reads[c] |= 1;
            if (a == CS_TEXEL1 + 3)
                alpha_reads[c] |= 2;
            if (k == 2 && a == CS_LOD_FRAC)
                alpha_reads[c] |= 4;
        }
        reads[c] |= alpha_reads[c];
    }
    bool texel1_in_1 = reads[1] & 2, texel0_in_1 = reads[1] & 1, lod_in_1 = reads[1] & 4;
    bool texel1_in_0 = reads[0] & 2, texel0_in_0 = reads[0] & 1, lod_in_0 = reads[0] & 4;
    bool alpha_0_textured = (alpha_reads[0] & 7) != 0;

    d->tex_level_1c = texel1_in_1 ? 0 : (texel0_in_1 || lod_in_1) ? 1 : 2;
    if (texel1_in_1 || (m->alpha_compare && alpha_0_textured))
        d->tex_level_2c = 0;
    else if (texel1_in_0 || texel0_in_1)
        d->tex_level_2c = 1;
    else if (texel0_in_0 || lod_in_0 || lod_in_1)
        d->tex_level_2c = 2;
    else
        d->tex_level_2c = 3;

    bool lod_frac_used = (two_cycle && (lod_in_0 || lod_in_1)) || (one_cycle && lod_in_1);
    bool noise_in_combiner = (one_cycle && rdp->cc_rgb[1][0][0] == CS_NOISE) ||
                             (two_cycle && (rdp->cc_rgb[0][0][0] == CS_NOISE || rdp->cc_rgb[1][0][0] == CS_NOISE));
    d->noise = noise_in_combiner || m->alpha_dither_sel == 2;
    d->dither = d->noise || d->dither_combo != 0xf;
    d->lod = m->tex_lod || lod_frac_used;
    rdp->derived_stale = false;
}

/* ---- dispatch ---- */

static void execute(rdp_t *rdp, const uint8_t *cmd)
{
    unsigned opcode = cmd[0] & 0x3f;
    uint32_t w0 = rdp_be32(cmd), w1 = rdp_be32(cmd + 4);
    rdp->stats.commands++;
    switch (opcode) {
    case OP_NOOP:
    case OP_SYNC_LOAD:
    case OP_SYNC_PIPE:
    case OP_SYNC_TILE:
    case OP_SYNC_FULL:
        break;
    case 0x08: case 0x09: case 0x0a: case 0x0b:
    case 0x0c: case 0x0d: case 0x0e: case 0x0f:
        rdp->stats.triangles++;
        rdp_cmd_triangle(rdp, cmd);
        break;
    case OP_TEX_RECT:
    case OP_TEX_RECT_FLIP:
        rdp->stats.rectangles++;
        rdp_cmd_tex_rect(rdp, cmd, opcode == OP_TEX_RECT_FLIP);
        break;
    case OP_FILL_RECT:
        rdp->stats.rectangles++;
        rdp_cmd_fill_rect(rdp, cmd);
        break;
    case OP_SET_KEY_GB:
        rdp->key_width[1] = (w0 >> 12) & 0xfff;
        rdp->key_width[2] = w0 & 0xfff;
        rdp->cc[CS_KEY_CENTER + 1] = (w1 >> 24) & 0xff;
        rdp->cc[CS_KEY_SCALE + 1] = (w1 >> 16) & 0xff;
        rdp->cc[CS_KEY_CENTER + 2] = (w1 >> 8) & 0xff;
        rdp->cc[CS_KEY_SCALE + 2] = w1 & 0xff;
        break;
    case OP_SET_KEY_R:
        rdp->key_width[0] = (w1 >> 16) & 0xfff;
        rdp->cc[CS_KEY_CENTER] = (w1 >> 8) & 0xff;
        rdp->cc[CS_KEY_SCALE] = w1 & 0xff;
        break;
    case OP_SET_CONVERT:
        set_convert(rdp, w0, w1);
        break;
    case OP_SET_SCISSOR:
        rdp->clip_xh = (w0 >> 12) & 0xfff;
        rdp->clip_yh = w0 & 0xfff;
        rdp->clip_xl = (w1 >> 12) & 0xfff;
        rdp->clip_yl = w1 & 0xfff;
        rdp->clip_field = (w1 >> 25) & 1;
        rdp->clip_keep_odd = (w1 >> 24) & 1;
        break;
    case OP_SET_PRIM_DEPTH:
        rdp->prim_z = w1 & (0x7fffu << 16);
        rdp->prim_dz = (uint16_t)w1;
        break;
    case OP_SET_OTHER_MODES:
        rdp_cmd_set_other_modes(rdp, w0, w1);
        break;
    case OP_LOAD_TLUT:
        rdp->stats.loads++;
        rdp_cmd_load_tlut(rdp, cmd);
        break;
    case OP_SET_TILE_SIZE:
        rdp_cmd_set_tile_size(rdp, w0, w1);
        break;
    case OP_LOAD_BLOCK:
        rdp->stats.loads++;
        rdp_cmd_load_block(rdp, cmd);
        break;
    case OP_LOAD_TILE:
        rdp->stats.loads++;
        rdp_cmd_load_tile(rdp, cmd);
        break;
    case OP_SET_TILE:
        rdp_cmd_set_tile(rdp, w0, w1);
        break;
    case OP_SET_FILL_COLOR:
        rdp->fill_color = w1;
        break;
    case OP_SET_FOG_COLOR:
        set_colour(&rdp->bl[BS_FOG], w1);
        break;
    case OP_SET_BLEND_COLOR:
        set_colour(&rdp->bl[BS_BLEND], w1);
        break;
    case OP_SET_PRIM_COLOR:
        rdp->min_level = (w0 >> 8) & 0x1f;
        rdp->cc[CS_PRIM_LOD_FRAC] = w0 & 0xff;
        set_colour(&rdp->cc[CS_PRIM], w1);
        break;
    case OP_SET_ENV_COLOR:
        set_colour(&rdp->cc[CS_ENV], w1);
        break;
    case OP_SET_COMBINE:
        rdp_cmd_set_combine(rdp, w0, w1);
        break;
    case OP_SET_TEXTURE_IMAGE:
        rdp->ti_format = (w0 >> 21) & 7;
        rdp->ti_size = (w0 >> 19) & 3;
        rdp->ti_width = (w0 & 0x3ff) + 1;
        rdp->ti_address = w1 & 0xffffff;
        break;
    case OP_SET_MASK_IMAGE:
        rdp->zb_address = w1 & 0xffffff;
        break;
    case OP_SET_COLOR_IMAGE:
        rdp->fb_format = (w0 >> 21) & 7;
        rdp->fb_size = (w0 >> 19) & 3;
        rdp->fb_width = (w0 & 0x3ff) + 1;
        rdp->fb_address = w1 & 0xffffff;
        break;
    default:
        rdp->stats.unknown_commands++;
        break;
    }
}

/* Feeds bytes (a multiple of 8 from the caller) into the command assembler. */
static void feed(rdp_t *rdp, const uint8_t *bytes)
{
    if (rdp->cmd_have == 0)
        rdp->cmd_need = command_length(bytes[0] & 0x3f);
    memcpy(rdp->cmd + rdp->cmd_have, bytes, 8);
    rdp->cmd_have += 8;
    if (rdp->cmd_have >= rdp->cmd_need) {
        execute(rdp, rdp->cmd);
        rdp->cmd_have = 0;
    }
}

void rdp_run(rdp_t *rdp, uint32_t start, uint32_t end)
{
    start &= 0xfffff8;
    end &= 0xfffff8;
    for (uint32_t at = start; at < end; at += 8) {
        uint8_t word[8];
        for (unsigned i = 0; i < 8; i++)
            word[i] = rdram_read8(rdp, at + i);
        feed(rdp, word);
    }
}

void rdp_run_buffer(rdp_t *rdp, const uint8_t *commands, size_t length)
{
    if (!commands)
        return;
    for (size_t at = 0; at + 8 <= length; at += 8)
        feed(rdp, commands + at);
}
