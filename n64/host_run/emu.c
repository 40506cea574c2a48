/* A renderer task on the RSP interpreter and the software RDP. */
#include "emu.h"

#include "../rsp/render_abi.h"

#include <stdlib.h>

bool emu_open(emu_t *e, uint32_t rdram_size)
{
    e->rsp = calloc(1, sizeof(*e->rsp));
    e->rdram = calloc(1, rdram_size);
    e->rdram_size = rdram_size;
    e->profile = NULL; /* the caller may set it after opening */
    e->rdp = e->rdram ? rdp_create(e->rdram, rdram_size) : NULL;
    if (!e->rsp || !e->rdram || !e->rdp) {
        emu_close(e);
        return false;
    }
    rsp_init(e->rsp, e->rdram, rdram_size);
    return true;
}

void emu_close(emu_t *e)
{
    if (e->rdp)
        rdp_destroy(e->rdp);
    free(e->rsp);
    free(e->rdram);
    e->rsp = NULL;
    e->rdp = NULL;
    e->rdram = NULL;
}

typedef struct submit_ctx {
    emu_t *emu;
    uint64_t bytes;
} submit_ctx_t;

/* The RDP runs each list as soon as the microcode hands it over. */
static void run_rdp(void *ctx, const rsp_dp_range_t *range)
{
    submit_ctx_t *c = ctx;
    if (range->in_dmem) {
        uint32_t start = range->start & RSP_MEM_MASK, end = range->end & RSP_MEM_MASK;
        if (end < start) { /* wraps past the end of DMEM */
            rdp_run_buffer(c->emu->rdp, c->emu->rsp->dmem + start, RSP_MEM_SIZE - start);
            start = 0;
        }
        rdp_run_buffer(c->emu->rdp, c->emu->rsp->dmem + start, end - start);
    } else {
        rdp_run(c->emu->rdp, range->start, range->end);
    }
    c->bytes += (range->end - range->start) & 0xFFFFFFu;
}

void emu_run(emu_t *e, const emu_microcode_t *mc, uint32_t cmdlist, uint32_t cold_addr, uint32_t clip_addr,
             uint64_t max_cycles, emu_result_t *out)
{
    submit_ctx_t ctx = {e, 0};
    rsp_load_imem(e->rsp, 0, mc->imem, mc->imem_size);
    rsp_load_dmem(e->rsp, 0, mc->dmem, mc->dmem_size);
    rsp_dmem_write32(e->rsp, ST_CMDLIST, cmdlist);
    rsp_dmem_write32(e->rsp, OV_RDRAM, cold_addr);
    rsp_dmem_write32(e->rsp, OV_RDRAM + 4, clip_addr);
    e->rsp->dp_submit = run_rdp;
    e->rsp->dp_ctx = &ctx;
    uint64_t start = e->rsp->cycles;
    rsp_start(e->rsp, 0);
    uint64_t start_instructions = e->rsp->instructions;
    rsp_stop_reason_t why;
    if (e->profile) {
        /* one step at a time: the first instruction of an issue group carries its cycles */
        while (!(e->rsp->sp_status & RSP_STATUS_HALT) && e->rsp->cycles - start < max_cycles) {
            uint32_t word = (e->rsp->pc & RSP_MEM_MASK) >> 2;
            uint64_t before = e->rsp->cycles;
            rsp_step(e->rsp);
            e->profile[word] += e->rsp->cycles - before;
        }
        why = (e->rsp->sp_status & RSP_STATUS_BROKE) ? RSP_STOP_BREAK : RSP_STOP_CYCLE_LIMIT;
    } else {
        why = rsp_run(e->rsp, max_cycles);
    }
    rsp_idle_until_dma_done(e->rsp);
    e->rsp->dp_submit = NULL;
    out->finished = why == RSP_STOP_BREAK;
    out->error_word = rsp_dmem_read32(e->rsp, ST_ERROR);
    out->drawn = rsp_dmem_read32(e->rsp, ST_STATS);
    out->rejected = rsp_dmem_read32(e->rsp, ST_STATS + 4);
    out->clipped = rsp_dmem_read32(e->rsp, ST_STATS + 8);
    out->rsp_cycles = e->rsp->cycles - start;
    out->rsp_instructions = e->rsp->instructions - start_instructions;
    out->rdp_command_bytes = ctx.bytes;
}
