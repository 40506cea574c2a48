/* Command list and blocks of the renderer microcode. */
#include "cmdlist.h"

#include "../rsp/render_abi.h"

static uint16_t u16_clamped(double value, double low, double high)
{
    if (!(value >= low)) /* NaN too */
        value = low;
    if (value > high)
        value = high;
    return (uint16_t)(int32_t)(value + 0.5);
}

static int16_t s16_clamped(double value)
{
    if (!(value >= -32768.0))
        return -32768;
    if (value > 32767.0)
        return 32767;
    return (int16_t)(value < 0 ? value - 0.5 : value + 0.5);
}

static void store16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

bool cmdlist_init(render_cmdlist_t *cl, rdram_image_t *img, uint32_t capacity)
{
    cl->img = img;
    cl->start = rdram_alloc(img, capacity, 8);
    cl->pos = cl->start;
    cl->end = cl->start + capacity;
    cl->overflow = cl->start == 0;
    return !cl->overflow;
}

void cmd_put(render_cmdlist_t *cl, uint32_t word0, uint32_t word1)
{
    /* keep 8 bytes for END */
    if (cl->overflow || cl->end - cl->pos < 16) {
        cl->overflow = true;
        return;
    }
    rdram_store32(cl->img, cl->pos, word0);
    rdram_store32(cl->img, cl->pos + 4, word1);
    cl->pos += 8;
}

static uint32_t block(render_cmdlist_t *cl, const uint8_t *bytes, uint32_t size)
{
    uint32_t addr = rdram_put(cl->img, bytes, size, 8);
    if (addr == 0)
        cl->overflow = true;
    return addr;
}

void cmd_frame(render_cmdlist_t *cl, const render_frame_t *f)
{
    uint8_t b[FRAME_BLOCK_SIZE] = {0};
    /* screen (quarter pixels) = ndc/2 * VSCALE + VOFF; Z = ndc/2 * 0x7FFF + 0x3FFF.8 */
    int16_t scale[4] = {(int16_t)(4 * f->width), (int16_t)(-4 * f->height), 0x7FFF, 0};
    int16_t off_i[4] = {(int16_t)(2 * f->width), (int16_t)(2 * f->height), 0x3FFF, 0};
    uint16_t off_f[4] = {0x8000, 0x8000, 0x8000, 0};
    for (int half = 0; half < 2; half++)
        for (int i = 0; i < 4; i++) {
            store16(b + FR_VSCALE - DM_FRAME + 8 * half + 2 * i, (uint16_t)scale[i]);
            store16(b + FR_VOFF_I - DM_FRAME + 8 * half + 2 * i, (uint16_t)off_i[i]);
            store16(b + FR_VOFF_F - DM_FRAME + 8 * half + 2 * i, off_f[i]);
        }
    /* w' = w * WNORM / 65536 puts the near plane at w' = 1/4 */
    uint16_t wnorm = u16_clamped(0.25 / f->clip_near_w * 65536.0, 1, 65535);
    double near_w = f->clip_near_w * wnorm / 65536.0;
    /* W = WSCALE / (2 w') stays below 0x7FFF down to the near plane */
    store16(b + FR_WNORM - DM_FRAME, wnorm);
    store16(b + FR_WSCALE - DM_FRAME, u16_clamped(0x7F00 * 2.0 * near_w, 1, 0x7FFF));
    store16(b + FR_GUARD_SHIFT - DM_FRAME, (uint16_t)f->guard_shift);
    store16(b + FR_OUT_START - DM_FRAME, (uint16_t)(f->out_start >> 16));
    store16(b + FR_OUT_START - DM_FRAME + 2, (uint16_t)f->out_start);
    store16(b + FR_OUT_END - DM_FRAME, (uint16_t)(f->out_end >> 16));
    store16(b + FR_OUT_END - DM_FRAME + 2, (uint16_t)f->out_end);
    cmd_put(cl, (uint32_t)CMD_FRAME << 24, block(cl, b, sizeof b));
}

/* A light colour channel: the ambient one with 8192 = 1.0, the directional
 * ones with 16384 = 1.0 (their product with an s1.14 dot product, vmacf, halves). */
static uint16_t light_level(float value, double one) { return u16_clamped(value * one, 0, 32767); }

void cmd_lights(render_cmdlist_t *cl, const render_lights_t *l)
{
    uint8_t b[LIGHTS_BLOCK_SIZE] = {0};
    for (int c = 0; c < 3; c++)
        store16(b + LI_AMBIENT - DM_LIGHTS + 2 * c, light_level(l->ambient[c], 8192.0));
    store16(b + LI_AMBIENT - DM_LIGHTS + 6, 8192); /* alpha passes through */
    for (unsigned k = 0; k < l->count && k < RENDER_MAX_LIGHTS; k++)
        for (int c = 0; c < 3; c++)
            store16(b + LI_COLORS - DM_LIGHTS + 8 * k + 2 * c, light_level(l->color[k][c], 16384.0));
    cmd_put(cl, (uint32_t)CMD_LIGHTS << 24, block(cl, b, sizeof b));
}

void cmd_view(render_cmdlist_t *cl, const mat4 *view)
{
    uint8_t b[VIEW_BLOCK_SIZE];
    mat4_to_fixed(view, b);
    cmd_put(cl, (uint32_t)CMD_VIEW << 24, block(cl, b, sizeof b));
}

static double sqrt_newton(double x)
{
    if (!(x > 0))
        return 0;
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 60; i++)
        r = 0.5 * (r + x / r);
    return r;
}

void cmd_model(render_cmdlist_t *cl, const mat4 *model, const render_lights_t *l)
{
    uint8_t b[MODEL_BLOCK_SIZE] = {0};
    mat4_to_fixed(model, b);
    /* object-space direction: normalize(M^T L); times the packed normal's
     * decoding factors (components x/16, y/32, z/16 stand for x/15.5, y/31.5, z/15.5) */
    static const double decode[3] = {16.0 / 15.5, 32.0 / 31.5, 16.0 / 15.5};
    for (unsigned k = 0; k < l->count && k < RENDER_MAX_LIGHTS; k++) {
        double d[3], len2 = 0;
        for (int j = 0; j < 3; j++) {
            d[j] = 0;
            for (int i = 0; i < 3; i++)
                d[j] += (double)model->m[j][i] * l->direction[k][i];
            len2 += d[j] * d[j];
        }
        double len = sqrt_newton(len2);
        for (int j = 0; j < 3; j++)
            store16(b + 64 + 8 * j + 2 * k, (uint16_t)s16_clamped(len > 0 ? d[j] / len * 16384.0 * decode[j] : 0));
    }
    cmd_put(cl, (uint32_t)CMD_MODEL << 24, block(cl, b, sizeof b));
}

void cmd_vtx(render_cmdlist_t *cl, uint32_t addr, unsigned count, unsigned first_slot)
{
    cmd_put(cl, (uint32_t)CMD_VTX << 24 | (count & 0xFFu) << 16 | (first_slot & 0xFFu) << 8, addr);
}

void cmd_tris(render_cmdlist_t *cl, uint32_t addr, unsigned index_count)
{
    cmd_put(cl, (uint32_t)CMD_TRIS << 24 | (index_count & 0xFFFFu), addr);
}

void cmd_strip(render_cmdlist_t *cl, uint32_t addr, unsigned index_count)
{
    cmd_put(cl, (uint32_t)CMD_STRIP << 24 | (index_count & 0xFFFFu), addr);
}

void cmd_seq(render_cmdlist_t *cl, unsigned first_slot, unsigned triangles)
{
    cmd_put(cl, (uint32_t)CMD_SEQ << 24 | (first_slot & 0xFFu) << 8 | (triangles & 0xFFu), 0);
}

void cmd_trimode(render_cmdlist_t *cl, unsigned tri_command, unsigned cull, unsigned tile)
{
    cmd_put(cl, (uint32_t)CMD_TRIMODE << 24 | (tri_command & 0xFFu) << 8 | (cull & 0xFFu), tile & 7u);
}

void cmd_rdp(render_cmdlist_t *cl, const uint64_t *words, unsigned count)
{
    while (count > 0) {
        unsigned n = count > 0xFFFF ? 0xFFFF : count;
        cmd_put(cl, (uint32_t)CMD_RDP << 24 | n, 0);
        for (unsigned i = 0; i < n; i++)
            cmd_put(cl, (uint32_t)(words[i] >> 32), (uint32_t)words[i]);
        words += n;
        count -= n;
    }
}

void cmd_end(render_cmdlist_t *cl)
{
    if (cl->start == 0 || cl->pos + 8 > cl->end) {
        cl->overflow = true;
        return;
    }
    rdram_store32(cl->img, cl->pos, (uint32_t)CMD_END << 24);
    rdram_store32(cl->img, cl->pos + 4, 0);
    cl->pos += 8;
}
