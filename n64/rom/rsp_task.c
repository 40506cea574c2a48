/* The renderer task on the console's RSP (see rsp_task.h). */
#include "rsp_task.h"

#include "../rsp/render_abi.h"
#include "rcp.h"

static void wait_sp_dma(void)
{
    while (SP_STATUS & (SP_STATUS_DMA_BUSY | SP_STATUS_DMA_FULL))
        ;
}

void sp_dma_load(bool imem, uint32_t sp_offset, uint32_t rdram, uint32_t size)
{
    wait_sp_dma();
    SP_MEM_ADDR = (imem ? 0x1000u : 0u) | sp_offset;
    SP_DRAM_ADDR = rdram;
    SP_RD_LEN = ((size + 7u) & ~7u) - 1u;
    wait_sp_dma();
}

static void dmem_write32(uint32_t offset, uint32_t value) { REG32(SP_DMEM + offset) = value; }
static uint32_t dmem_read32(uint32_t offset) { return REG32(SP_DMEM + offset); }

void rsp_task_run(const rsp_task_t *t, uint32_t timeout_ticks, rsp_task_result_t *out)
{
    SP_STATUS = SP_WSTATUS_SET_HALT;
    sp_dma_load(true, 0, t->imem, t->imem_size);
    sp_dma_load(false, 0, t->dmem, t->dmem_size);
    dmem_write32(ST_CMDLIST, t->cmdlist);
    dmem_write32(OV_RDRAM, t->cold);
    dmem_write32(OV_RDRAM + 4, t->clip);
    /* the RDP reads its commands from RDRAM */
    DPC_STATUS = DPC_WSTATUS_CLEAR_XBUS | DPC_WSTATUS_CLEAR_FREEZE | DPC_WSTATUS_CLEAR_FLUSH;
    SP_PC = 0;

    uint32_t start = cp0_count();
    SP_STATUS = SP_WSTATUS_CLEAR_HALT | SP_WSTATUS_CLEAR_BROKE | SP_WSTATUS_CLEAR_SSTEP |
                SP_WSTATUS_CLEAR_INTR_BREAK;
    uint32_t now = start;
    while (!(SP_STATUS & SP_STATUS_HALT) && (now = cp0_count()) - start < timeout_ticks)
        ;
    uint32_t halted = cp0_count();
    out->finished = (SP_STATUS & (SP_STATUS_HALT | SP_STATUS_BROKE)) == (SP_STATUS_HALT | SP_STATUS_BROKE);
    out->rsp_ticks = halted - start;

    const uint32_t busy = DPC_STATUS_CMD_BUSY | DPC_STATUS_PIPE_BUSY | DPC_STATUS_DMA_BUSY;
    now = halted;
    while (((DPC_STATUS & busy) || DPC_CURRENT != DPC_END) && (now = cp0_count()) - halted < timeout_ticks)
        ;
    out->rdp_idle = !(DPC_STATUS & busy) && DPC_CURRENT == DPC_END;
    out->rdp_ticks = cp0_count() - halted;

    out->error_word = dmem_read32(ST_ERROR);
    out->drawn = dmem_read32(ST_STATS);
    out->rejected = dmem_read32(ST_STATS + 4);
    out->clipped = dmem_read32(ST_STATS + 8);
}

uint64_t rsp_cycles_of_ticks(uint32_t ticks) { return ((uint64_t)ticks * 4u + 1u) / 3u; }
