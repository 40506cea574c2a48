/* The renderer microcode on the interpreter, for the tests. */
#include "render_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef N64_RSP_IMAGE_DIR
#define N64_RSP_IMAGE_DIR "build/n64/rsp"
#endif

static long read_image(const char *name, uint8_t *buffer, size_t capacity)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", N64_RSP_IMAGE_DIR, name);
    FILE *file = fopen(path, "rb");
    if (!file)
        return -1;
    size_t size = fread(buffer, 1, capacity, file);
    fclose(file);
    return (long)size;
}

static void count_rdp(void *ctx, const rsp_dp_range_t *range)
{
    harness_t *h = ctx;
    if (h->rdp_bytes == 0)
        h->rdp_first = range->start;
    h->rdp_bytes += range->end - range->start;
    h->rdp_last = range->end;
}

bool harness_open(harness_t *h, char *why, size_t why_size)
{
    static uint8_t imem[RSP_MEM_SIZE], dmem[RSP_MEM_SIZE], cold[RSP_MEM_SIZE], clip[RSP_MEM_SIZE];
    memset(h, 0, sizeof(*h));
    long imem_size = read_image("render.imem.bin", imem, sizeof(imem));
    long dmem_size = read_image("render.dmem.bin", dmem, sizeof(dmem));
    long cold_size = read_image("render.cold.bin", cold, sizeof(cold));
    long clip_size = read_image("render.clip.bin", clip, sizeof(clip));
    if (imem_size <= 0 || dmem_size <= 0 || cold_size <= 0 || clip_size <= 0) {
        snprintf(why, why_size, "render microcode not found in %s (needs mips-linux-gnu-as: make n64)", N64_RSP_IMAGE_DIR);
        return false;
    }
    h->rsp = calloc(1, sizeof(*h->rsp));
    h->rdram = calloc(1, HARNESS_RDRAM_SIZE);
    if (!h->rsp || !h->rdram) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    rsp_init(h->rsp, h->rdram, HARNESS_RDRAM_SIZE);
    rsp_load_imem(h->rsp, 0, imem, (size_t)imem_size);
    rsp_load_dmem(h->rsp, 0, dmem, (size_t)dmem_size);
    h->rsp->dp_submit = count_rdp;
    h->rsp->dp_ctx = h;
    rdram_init(&h->img, h->rdram, HARNESS_RDRAM_SIZE, 0x1000);
    /* the overlays: read whole, up to the end of IMEM, so give them room */
    rsp_dmem_write32(h->rsp, OV_RDRAM, rdram_put(&h->img, cold, RSP_MEM_SIZE, 8));
    rsp_dmem_write32(h->rsp, OV_RDRAM + 4, rdram_put(&h->img, clip, RSP_MEM_SIZE, 8));
    h->out_start = rdram_alloc(&h->img, 256u << 10, 8);
    h->out_end = h->out_start + (256u << 10);
    cmdlist_init(&h->cl, &h->img, 64u << 10);
    return true;
}

void harness_close(harness_t *h)
{
    free(h->rsp);
    free(h->rdram);
    h->rsp = NULL;
    h->rdram = NULL;
}

rsp_stop_reason_t harness_run(harness_t *h, uint64_t max_cycles)
{
    cmd_end(&h->cl);
    rsp_dmem_write32(h->rsp, ST_CMDLIST, h->cl.start);
    rsp_start(h->rsp, 0);
    rsp_stop_reason_t why = rsp_run(h->rsp, max_cycles);
    rsp_idle_until_dma_done(h->rsp);
    return why;
}

static int16_t s16_at(const harness_t *h, uint32_t addr) { return (int16_t)rsp_dmem_read16(h->rsp, addr); }

void harness_vertex(const harness_t *h, unsigned slot, cache_vertex_t *out)
{
    uint32_t e = DM_VCACHE + VTX_SIZE * slot;
    out->s = s16_at(h, e + VX_S);
    out->t = s16_at(h, e + VX_T);
    out->w = s16_at(h, e + VX_W);
    out->z = s16_at(h, e + VX_Z);
    out->x = s16_at(h, e + VX_X);
    out->y = s16_at(h, e + VX_Y);
    for (int i = 0; i < 4; i++) {
        out->rgba[i] = rsp_dmem_read8(h->rsp, e + VX_RGBA + (uint32_t)i);
        uint32_t raw = (uint32_t)rsp_dmem_read16(h->rsp, e + VX_CLIPPOS_I + 2 * (uint32_t)i) << 16 |
                       rsp_dmem_read16(h->rsp, e + VX_CLIPPOS_F + 2 * (uint32_t)i);
        out->clip[i] = (int32_t)((int64_t)raw - ((raw >> 31) ? INT64_C(0x100000000) : 0));
    }
    out->clip_code = rsp_dmem_read8(h->rsp, e + VX_CLIP);
    out->reject_code = rsp_dmem_read8(h->rsp, e + VX_REJECT);
}

render_frame_t harness_frame(harness_t *h, unsigned width, unsigned height, float clip_near_w)
{
    render_frame_t f = {
        .width = (uint16_t)width,
        .height = (uint16_t)height,
        .clip_near_w = clip_near_w,
        .guard_shift = 1,
        .out_start = h->out_start,
        .out_end = h->out_end,
    };
    return f;
}
