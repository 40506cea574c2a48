/* Lifecycle, run loop and memory access of the RSP interpreter. */
#include "rsp_internal.h"

#include <string.h>

void rsp_init(rsp_t *rsp, uint8_t *rdram, size_t rdram_size)
{
    memset(rsp, 0, sizeof(*rsp));
    rsp->rdram = rdram;
    rsp->rdram_size = rdram ? rdram_size : 0;
    rsp->next_pc = 4;
    rsp->sp_status = RSP_STATUS_HALT;
    rsp->dpc_status = RSP_DPC_STATUS_CBUF_READY;
    rsp_tables_generate(rsp->rcp_rom, rsp->rsq_rom);
    rsp_timing_init(rsp);
}

void rsp_start(rsp_t *rsp, uint32_t pc)
{
    rsp->pc = pc & 0xFFCu;
    rsp->next_pc = (rsp->pc + 4) & 0xFFCu;
    rsp->sp_status &= ~(RSP_STATUS_HALT | RSP_STATUS_BROKE);
    /* A new start is not a branch: no delay slot, no half-issued pair. */
    rsp->timing.second_pending = false;
    rsp->timing.delay_slot_next = false;
    rsp->timing.single_next = false;
    rsp->timing.group_is_delay_slot = false;
    rsp->timing.branch_taken = false;
}

void rsp_step(rsp_t *rsp)
{
    uint32_t pc = rsp->pc & 0xFFCu;
    uint32_t instr = ((uint32_t)rsp->imem[pc] << 24) | ((uint32_t)rsp->imem[pc + 1] << 16) |
                     ((uint32_t)rsp->imem[pc + 2] << 8) | rsp->imem[pc + 3];
    /* The first instruction of an issue group pays for the group's cycle and
     * stalls (and lets DMA progress up to its issue); the second of a pair
     * rides along. */
    bool is_branch;
    if (rsp->timing.second_pending) {
        rsp->timing.second_pending = false;
        is_branch = rsp->timing.second_is_branch;
    } else {
        is_branch = rsp_timing_issue(rsp, pc, instr);
    }
    /* Advance before executing so that a branch only redirects next_pc and
     * the instruction in its delay slot still runs. */
    rsp->pc = rsp->next_pc & 0xFFCu;
    rsp->next_pc = (rsp->pc + 4) & 0xFFCu;
    rsp->gpr[0] = 0;
    rsp_execute(rsp, instr);
    rsp->gpr[0] = 0;
    rsp->instructions++;
    rsp_timing_retire(rsp, is_branch);
}

static rsp_stop_reason_t halt_reason(const rsp_t *rsp)
{
    return (rsp->sp_status & RSP_STATUS_BROKE) ? RSP_STOP_BREAK : RSP_STOP_HALTED;
}

rsp_stop_reason_t rsp_run(rsp_t *rsp, uint64_t max_cycles)
{
    uint64_t start = rsp->cycles;
    while (rsp->cycles - start < max_cycles) {
        if (rsp->sp_status & RSP_STATUS_HALT)
            return halt_reason(rsp);
        rsp_step(rsp);
    }
    if (rsp->sp_status & RSP_STATUS_HALT)
        return halt_reason(rsp);
    return RSP_STOP_CYCLE_LIMIT;
}

void rsp_idle(rsp_t *rsp, uint64_t cycles)
{
    rsp->cycles += cycles;
    rsp->stats.idle_cycles += cycles;
    rsp_dma_advance(rsp, rsp->cycles);
}

uint64_t rsp_idle_until_dma_done(rsp_t *rsp)
{
    rsp_dma_advance(rsp, rsp->cycles);
    uint64_t wait = rsp_dma_done_cycle(rsp) - rsp->cycles;
    rsp_idle(rsp, wait);
    return wait;
}

void rsp_load_imem(rsp_t *rsp, uint32_t offset, const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < size; i++)
        rsp->imem[(offset + i) & RSP_MEM_MASK] = data[i];
}

void rsp_load_dmem(rsp_t *rsp, uint32_t offset, const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < size; i++)
        rsp->dmem[(offset + i) & RSP_MEM_MASK] = data[i];
}

uint8_t rsp_dmem_read8(const rsp_t *rsp, uint32_t addr) { return rsp_dmem_byte(rsp, addr); }

uint16_t rsp_dmem_read16(const rsp_t *rsp, uint32_t addr)
{
    return (uint16_t)((rsp_dmem_byte(rsp, addr) << 8) | rsp_dmem_byte(rsp, addr + 1));
}

uint32_t rsp_dmem_read32(const rsp_t *rsp, uint32_t addr)
{
    return ((uint32_t)rsp_dmem_read16(rsp, addr) << 16) | rsp_dmem_read16(rsp, addr + 2);
}

void rsp_dmem_write8(rsp_t *rsp, uint32_t addr, uint8_t value) { rsp_dmem_set_byte(rsp, addr, value); }

void rsp_dmem_write16(rsp_t *rsp, uint32_t addr, uint16_t value)
{
    rsp_dmem_set_byte(rsp, addr, (uint8_t)(value >> 8));
    rsp_dmem_set_byte(rsp, addr + 1, (uint8_t)value);
}

void rsp_dmem_write32(rsp_t *rsp, uint32_t addr, uint32_t value)
{
    rsp_dmem_write16(rsp, addr, (uint16_t)(value >> 16));
    rsp_dmem_write16(rsp, addr + 2, (uint16_t)value);
}

bool rsp_dp_pop_range(rsp_t *rsp, rsp_dp_range_t *out)
{
    if (rsp->dp_range_count == 0)
        return false;
    *out = rsp->dp_ranges[0];
    rsp->dp_range_count--;
    memmove(&rsp->dp_ranges[0], &rsp->dp_ranges[1], rsp->dp_range_count * sizeof(rsp->dp_ranges[0]));
    return true;
}
