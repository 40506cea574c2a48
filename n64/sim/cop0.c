/* COP0 of the RSP: the SP DMA/status registers and the DP command registers,
 * reachable with mfc0/mtc0 from microcode and through rsp_cop0_* from the host. */
#include "rsp_internal.h"

enum { COP0_MF = 0x00, COP0_MT = 0x04 };

/* A status bit with the pair of write bits that clear and set it. Asking for
 * both at once leaves the bit unchanged. */
typedef struct flag_request {
    uint32_t clear_request, set_request, bit;
} flag_request_t;

static void apply_request(uint32_t *reg, uint32_t value, flag_request_t request)
{
    bool clear = (value & request.clear_request) != 0, set = (value & request.set_request) != 0;
    if (clear && !set)
        *reg &= ~request.bit;
    else if (set && !clear)
        *reg |= request.bit;
}

static void write_sp_status(rsp_t *rsp, uint32_t value)
{
    static const flag_request_t requests[] = {
        {RSP_STATUS_W_CLEAR_HALT, RSP_STATUS_W_SET_HALT, RSP_STATUS_HALT},
        {RSP_STATUS_W_CLEAR_SSTEP, RSP_STATUS_W_SET_SSTEP, RSP_STATUS_SSTEP},
        {RSP_STATUS_W_CLEAR_INTR_BREAK, RSP_STATUS_W_SET_INTR_BREAK, RSP_STATUS_INTR_BREAK},
    };
    for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++)
        apply_request(&rsp->sp_status, value, requests[i]);
    for (unsigned n = 0; n < 8; n++)
        apply_request(&rsp->sp_status, value,
                      (flag_request_t){RSP_STATUS_W_CLEAR_SIGNAL(n), RSP_STATUS_W_SET_SIGNAL(n), RSP_STATUS_SIGNAL(n)});
    if (value & RSP_STATUS_W_CLEAR_BROKE)
        rsp->sp_status &= ~RSP_STATUS_BROKE;

    /* The interrupt line lives outside SP_STATUS (in the MIPS interface). */
    uint32_t line = rsp->sp_interrupt ? 1u : 0u;
    apply_request(&line, value, (flag_request_t){RSP_STATUS_W_CLEAR_INTR, RSP_STATUS_W_SET_INTR, 1u});
    rsp->sp_interrupt = line != 0;
}

static void write_dpc_status(rsp_t *rsp, uint32_t value)
{
    static const flag_request_t requests[] = {
        {RSP_DPC_STATUS_W_CLEAR_XBUS, RSP_DPC_STATUS_W_SET_XBUS, RSP_DPC_STATUS_XBUS_DMEM},
        {RSP_DPC_STATUS_W_CLEAR_FREEZE, RSP_DPC_STATUS_W_SET_FREEZE, RSP_DPC_STATUS_FREEZE},
        {RSP_DPC_STATUS_W_CLEAR_FLUSH, RSP_DPC_STATUS_W_SET_FLUSH, RSP_DPC_STATUS_FLUSH},
    };
    for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++)
        apply_request(&rsp->dpc_status, value, requests[i]);
}

/* The RDP is not modelled here: a command list handed over by writing DPC_END
 * goes to the host's dp_submit hook (which may run a software RDP on it), or is
 * recorded for later; either way it counts as consumed at once. */
static void submit_dp_commands(rsp_t *rsp)
{
    if (rsp->dpc_current == rsp->dpc_end)
        return;
    if (rsp->dp_submit) {
        rsp_dp_range_t range = {rsp->dpc_current, rsp->dpc_end, (rsp->dpc_status & RSP_DPC_STATUS_XBUS_DMEM) != 0};
        rsp->dp_submit(rsp->dp_ctx, &range);
    } else if (rsp->dp_range_count < RSP_DP_RANGE_CAPACITY) {
        rsp_dp_range_t *range = &rsp->dp_ranges[rsp->dp_range_count++];
        range->start = rsp->dpc_current;
        range->end = rsp->dpc_end;
        range->in_dmem = (rsp->dpc_status & RSP_DPC_STATUS_XBUS_DMEM) != 0;
    } else {
        rsp->dp_ranges_dropped++;
    }
    rsp->dpc_current = rsp->dpc_end;
}

/* Both sides see the DMA engine at `now`: the issue cycle of the mfc0/mtc0,
 * or rsp->cycles for the host. */
static uint32_t read_register(rsp_t *rsp, unsigned reg)
{
    switch (reg & 15u) {
    case RSP_C0_SP_MEM_ADDR: return rsp->dma_current.mem_addr;
    case RSP_C0_SP_DRAM_ADDR: return rsp->dma_current.dram_addr;
    case RSP_C0_SP_RD_LEN:
    case RSP_C0_SP_WR_LEN: return rsp_dma_length_register(rsp);
    case RSP_C0_SP_STATUS:
        return rsp->sp_status | (rsp->dma_busy ? RSP_STATUS_DMA_BUSY : 0u) | (rsp->dma_full ? RSP_STATUS_DMA_FULL : 0u);
    case RSP_C0_SP_DMA_FULL: return rsp->dma_full ? 1u : 0u;
    case RSP_C0_SP_DMA_BUSY: return rsp->dma_busy ? 1u : 0u;
    case RSP_C0_SP_SEMAPHORE: {
        /* Reading acquires: the caller got the semaphore if it read 0. */
        uint32_t value = rsp->sp_semaphore;
        rsp->sp_semaphore = 1;
        return value;
    }
    case RSP_C0_DPC_START: return rsp->dpc_start;
    case RSP_C0_DPC_END: return rsp->dpc_end;
    case RSP_C0_DPC_CURRENT: return rsp->dpc_current;
    case RSP_C0_DPC_STATUS: return rsp->dpc_status;
    default: return 0; /* RDP counters not modelled */
    }
}

static void write_register(rsp_t *rsp, unsigned reg, uint32_t value, uint64_t now)
{
    switch (reg & 15u) {
    case RSP_C0_SP_MEM_ADDR: rsp->sp_mem_addr = value & 0x1FF8u; break;
    case RSP_C0_SP_DRAM_ADDR: rsp->sp_dram_addr = value & 0xFFFFF8u; break;
    case RSP_C0_SP_RD_LEN: rsp_dma_queue(rsp, false, value, now); break;
    case RSP_C0_SP_WR_LEN: rsp_dma_queue(rsp, true, value, now); break;
    case RSP_C0_SP_STATUS: write_sp_status(rsp, value); break;
    case RSP_C0_SP_SEMAPHORE: rsp->sp_semaphore = 0; break;
    case RSP_C0_DPC_START:
        rsp->dpc_start = value & 0xFFFFF8u;
        rsp->dpc_current = rsp->dpc_start;
        break;
    case RSP_C0_DPC_END:
        rsp->dpc_end = value & 0xFFFFF8u;
        submit_dp_commands(rsp);
        break;
    case RSP_C0_DPC_STATUS: write_dpc_status(rsp, value); break;
    default: break; /* read-only */
    }
}

uint32_t rsp_cop0_read(rsp_t *rsp, unsigned reg)
{
    rsp_dma_advance(rsp, rsp->cycles);
    return read_register(rsp, reg);
}

void rsp_cop0_write(rsp_t *rsp, unsigned reg, uint32_t value)
{
    rsp_dma_advance(rsp, rsp->cycles);
    write_register(rsp, reg, value, rsp->cycles);
}

/* Cycles the microcode spends polling DMA_BUSY or DMA_FULL: from the first
 * read that returns 1 to the next read that returns 0. */
static void note_dma_poll(rsp_t *rsp, unsigned reg, uint32_t value)
{
    if (reg != RSP_C0_SP_DMA_BUSY && reg != RSP_C0_SP_DMA_FULL)
        return;
    rsp_timing_t *t = &rsp->timing;
    if (value && !t->dma_polling) {
        t->dma_polling = true;
        t->dma_poll_start = t->group_cycle;
    } else if (!value && t->dma_polling) {
        t->dma_polling = false;
        rsp->stats.dma_wait_cycles += t->group_cycle - t->dma_poll_start;
    }
}

void rsp_cop0_execute(rsp_t *rsp, uint32_t instr)
{
    unsigned reg = RSP_RD(instr) & 15u;
    switch (RSP_RS(instr)) {
    case COP0_MF: {
        uint32_t value = read_register(rsp, reg);
        note_dma_poll(rsp, reg, value);
        rsp->gpr[RSP_RT(instr)] = value;
        break;
    }
    case COP0_MT: write_register(rsp, reg, rsp->gpr[RSP_RT(instr)], rsp->timing.group_cycle); break;
    default: break;
    }
}
