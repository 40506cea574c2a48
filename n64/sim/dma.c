/* SP DMA between DMEM/IMEM and the caller's RDRAM buffer, in modelled time.
 *
 * A write of SP_RD_LEN/SP_WR_LEN queues a transfer (DMA_FULL) or starts it at
 * once if the engine is idle (DMA_BUSY). Each row costs a setup time plus a
 * rate per byte (figures and sources in sim/README.md, "Cycle model"); its
 * bytes land in DMEM/IMEM or RDRAM when the row's time has passed, so
 * microcode that reads a buffer before waiting for its DMA sees the old
 * contents, as it would on hardware. The engine only moves when the clock
 * does: rsp_dma_advance(rsp, now) is called before every issue group and by
 * the host-side helpers. */
#include "rsp_internal.h"

static uint8_t rdram_read(const rsp_t *rsp, uint32_t addr)
{
    return addr < rsp->rdram_size ? rsp->rdram[addr] : 0;
}

static void rdram_write(rsp_t *rsp, uint32_t addr, uint8_t value)
{
    if (addr < rsp->rdram_size)
        rsp->rdram[addr] = value;
}

/* length register: bits 11..0 row length - 1 (rounded up to 8 bytes), bits
 * 19..12 row count - 1, bits 31..20 RDRAM gap between rows (multiple of 8). */
static uint32_t row_length(uint32_t length) { return (length & 0xFF8u) + 8; }
static uint32_t row_count(uint32_t length) { return ((length >> 12) & 0xFFu) + 1; }
static uint32_t row_skip(uint32_t length) { return (length >> 20) & 0xFF8u; }

uint64_t rsp_dma_row_cycles(bool to_rdram, uint32_t bytes)
{
    uint64_t setup = to_rdram ? RSP_DMA_SETUP_TO_RDRAM : RSP_DMA_SETUP_FROM_RDRAM;
    return setup + ((uint64_t)bytes * RSP_DMA_CYCLES_PER_8_BYTES_NUM + 8u * RSP_DMA_CYCLES_PER_8_BYTES_DEN - 1) /
                       (8u * RSP_DMA_CYCLES_PER_8_BYTES_DEN);
}

/* Copies the next row of the current transfer and moves its addresses past it. */
static void copy_row(rsp_t *rsp)
{
    rsp_dma_transfer_t *dma = &rsp->dma_current;
    uint32_t length = row_length(dma->length);
    uint8_t *mem = (dma->mem_addr & RSP_MEM_ADDR_IMEM) ? rsp->imem : rsp->dmem;
    uint32_t mem_addr = dma->mem_addr & 0xFF8u;
    uint32_t dram_addr = dma->dram_addr & 0xFFFFF8u;
    for (uint32_t i = 0; i < length; i++) {
        uint32_t m = (mem_addr + i) & RSP_MEM_MASK, d = (dram_addr + i) & 0xFFFFFFu;
        if (dma->to_rdram)
            rdram_write(rsp, d, mem[m]);
        else
            mem[m] = rdram_read(rsp, d);
    }
    if (dma->to_rdram)
        rsp->stats.dma_bytes_to_rdram += length;
    else
        rsp->stats.dma_bytes_to_sp += length;
    /* The address registers are left pointing past the transfer, as on hardware. */
    dma->mem_addr = (dma->mem_addr & RSP_MEM_ADDR_IMEM) | ((mem_addr + length) & RSP_MEM_MASK);
    dma->dram_addr = (dram_addr + length + row_skip(dma->length)) & 0xFFFFF8u;
}

/* Moves the pending transfer into the engine if it is idle, starting at `start`. */
static void start_pending(rsp_t *rsp, uint64_t start)
{
    if (rsp->dma_busy || !rsp->dma_full)
        return;
    rsp->dma_current = rsp->dma_pending;
    rsp->dma_full = false;
    rsp->dma_busy = true;
    rsp->dma_rows_left = row_count(rsp->dma_current.length);
    rsp->dma_row_done = start + rsp_dma_row_cycles(rsp->dma_current.to_rdram, row_length(rsp->dma_current.length));
    rsp->stats.dma_transfers++;
}

void rsp_dma_advance(rsp_t *rsp, uint64_t now)
{
    while (rsp->dma_busy && rsp->dma_row_done <= now) {
        uint64_t done = rsp->dma_row_done;
        copy_row(rsp);
        if (--rsp->dma_rows_left > 0) {
            rsp->dma_row_done = done + rsp_dma_row_cycles(rsp->dma_current.to_rdram, row_length(rsp->dma_current.length));
            continue;
        }
        /* Finished: the length register reads back 0xFF8 (count 0, skip kept). */
        rsp->dma_busy = false;
        rsp->dma_current.length = (rsp->dma_current.length & 0xFF800000u) | 0xFF8u;
        start_pending(rsp, done);
    }
}

void rsp_dma_queue(rsp_t *rsp, bool to_rdram, uint32_t length, uint64_t now)
{
    /* A third request while one is pending replaces it (DMA_FULL tells the
     * microcode to wait before writing). */
    rsp->dma_pending = (rsp_dma_transfer_t){
        .mem_addr = rsp->sp_mem_addr, .dram_addr = rsp->sp_dram_addr, .length = length, .to_rdram = to_rdram};
    rsp->dma_full = true;
    start_pending(rsp, now);
}

uint32_t rsp_dma_length_register(const rsp_t *rsp)
{
    const rsp_dma_transfer_t *dma = &rsp->dma_current;
    if (!rsp->dma_busy)
        return dma->length;
    /* In flight: the rows still to go, and the length with its low bits clear. */
    return (dma->length & 0xFF800FF8u) | ((rsp->dma_rows_left - 1) << 12);
}

uint64_t rsp_dma_done_cycle(const rsp_t *rsp)
{
    if (!rsp->dma_busy)
        return rsp->cycles;
    uint64_t done = rsp->dma_row_done;
    done += (uint64_t)(rsp->dma_rows_left - 1) *
            rsp_dma_row_cycles(rsp->dma_current.to_rdram, row_length(rsp->dma_current.length));
    if (rsp->dma_full)
        done += (uint64_t)row_count(rsp->dma_pending.length) *
                rsp_dma_row_cycles(rsp->dma_pending.to_rdram, row_length(rsp->dma_pending.length));
    return done;
}
