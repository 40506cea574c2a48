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

uint32_t rsp_cop0_read(rsp_t *rsp, unsigned reg)
{
    switch (reg & 15u) {
    case RSP_C0_SP_MEM_ADDR: return rsp->sp_mem_addr;
    case RSP_C0_SP_DRAM_ADDR: return rsp->sp_dram_addr;
    case RSP_C0_SP_RD_LEN: return rsp->sp_rd_len;
    case RSP_C0_SP_WR_LEN: return rsp->sp_wr_len;
    case RSP_C0_SP_STATUS: return rsp->sp_status;
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
    default: return 0; /* DMA is instantaneous: never full nor busy; RDP counters not modelled */
    }
}

void rsp_cop0_write(rsp_t *rsp, unsigned reg, uint32_t value)
{
    switch (reg & 15u) {
    case RSP_C0_SP_MEM_ADDR: rsp->sp_mem_addr = value & 0x1FF8u; break;
    case RSP_C0_SP_DRAM_ADDR: rsp->sp_dram_addr = value & 0xFFFFF8u; break;
    case RSP_C0_SP_RD_LEN:
        rsp->sp_rd_len = value;
        rsp_dma_transfer(rsp, false, value);
        rsp->sp_rd_len = rsp->sp_wr_len = (value & 0xFF800000u) | 0xFF8u;
        break;
    case RSP_C0_SP_WR_LEN:
        rsp->sp_wr_len = value;
        rsp_dma_transfer(rsp, true, value);
        rsp->sp_rd_len = rsp->sp_wr_len = (value & 0xFF800000u) | 0xFF8u;
        break;
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

void rsp_cop0_execute(rsp_t *rsp, uint32_t instr)
{
    unsigned reg = RSP_RD(instr);
    switch (RSP_RS(instr)) {
    case COP0_MF: rsp->gpr[RSP_RT(instr)] = rsp_cop0_read(rsp, reg); break;
    case COP0_MT: rsp_cop0_write(rsp, reg, rsp->gpr[RSP_RT(instr)]); break;
    default: break;
    }
}
