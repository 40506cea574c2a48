/* SP DMA between DMEM/IMEM and the caller's RDRAM buffer. Transfers complete
 * instantly (see README: no DMA latency is modelled). */
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

/* length_reg: bits 11..0 row length - 1 (rounded up to 8 bytes), bits 19..12
 * row count - 1, bits 31..20 RDRAM gap between rows (multiple of 8). */
void rsp_dma_transfer(rsp_t *rsp, bool to_rdram, uint32_t length_reg)
{
    uint32_t row_length = (length_reg & 0xFF8u) + 8;
    uint32_t rows = ((length_reg >> 12) & 0xFFu) + 1;
    uint32_t skip = (length_reg >> 20) & 0xFF8u;
    uint8_t *mem = (rsp->sp_mem_addr & RSP_MEM_ADDR_IMEM) ? rsp->imem : rsp->dmem;
    uint32_t mem_addr = rsp->sp_mem_addr & 0xFF8u;
    uint32_t dram_addr = rsp->sp_dram_addr & 0xFFFFF8u;

    for (uint32_t row = 0; row < rows; row++) {
        for (uint32_t i = 0; i < row_length; i++) {
            uint32_t m = (mem_addr + i) & RSP_MEM_MASK, d = (dram_addr + i) & 0xFFFFFFu;
            if (to_rdram)
                rdram_write(rsp, d, mem[m]);
            else
                mem[m] = rdram_read(rsp, d);
        }
        mem_addr = (mem_addr + row_length) & RSP_MEM_MASK;
        dram_addr = (dram_addr + row_length + skip) & 0xFFFFF8u;
    }
    /* The address registers are left pointing past the transfer, as on hardware. */
    rsp->sp_mem_addr = (rsp->sp_mem_addr & RSP_MEM_ADDR_IMEM) | mem_addr;
    rsp->sp_dram_addr = dram_addr;
}
