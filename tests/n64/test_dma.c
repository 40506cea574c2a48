/* COP0: SP DMA, status, semaphore and the DP command registers. */
#include "rsp_test_util.h"

static rsp_t rsp;
static uint8_t rdram[0x10000];

static void setup(void)
{
    for (size_t i = 0; i < sizeof(rdram); i++)
        rdram[i] = (uint8_t)(i * 7 + 1);
    rsp_init(&rsp, rdram, sizeof(rdram));
}

TestSuite(rsp_dma, .init = setup);

Test(rsp_dma, read_copies_rdram_into_dmem)
{
    rsp_cop0_write(&rsp, RSP_C0_SP_MEM_ADDR, 0x40);
    rsp_cop0_write(&rsp, RSP_C0_SP_DRAM_ADDR, 0x100);
    rsp_cop0_write(&rsp, RSP_C0_SP_RD_LEN, 15);
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_DMA_BUSY), 1u, "in flight until time passes");
    cr_expect_eq(rsp.dmem[0x40], 0, "not there yet");
    cr_expect_gt(rsp_idle_until_dma_done(&rsp), 0u);
    for (unsigned i = 0; i < 16; i++)
        cr_expect_eq(rsp.dmem[0x40 + i], rdram[0x100 + i]);
    cr_expect_eq(rsp.dmem[0x50], 0);
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_MEM_ADDR), 0x50u, "left past the transfer");
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_DRAM_ADDR), 0x110u);
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_RD_LEN), 0xFF8u);
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_DMA_BUSY), 0u);
}

Test(rsp_dma, lengths_round_up_to_eight_bytes)
{
    rsp_cop0_write(&rsp, RSP_C0_SP_MEM_ADDR, 0x80);
    rsp_cop0_write(&rsp, RSP_C0_SP_DRAM_ADDR, 0x200);
    rsp_cop0_write(&rsp, RSP_C0_SP_RD_LEN, 2);
    rsp_idle_until_dma_done(&rsp);
    cr_expect_eq(rsp.dmem[0x87], rdram[0x207]);
    cr_expect_eq(rsp.dmem[0x88], 0);
}

Test(rsp_dma, count_and_skip_gather_rows)
{
    rsp_cop0_write(&rsp, RSP_C0_SP_MEM_ADDR, 0x100);
    rsp_cop0_write(&rsp, RSP_C0_SP_DRAM_ADDR, 0x1000);
    /* 3 rows of 8 bytes, 24 bytes apart in RDRAM */
    rsp_cop0_write(&rsp, RSP_C0_SP_RD_LEN, (16u << 20) | (2u << 12) | 7u);
    rsp_idle_until_dma_done(&rsp);
    for (unsigned row = 0; row < 3; row++)
        for (unsigned i = 0; i < 8; i++)
            cr_expect_eq(rsp.dmem[0x100 + 8 * row + i], rdram[0x1000 + 24 * row + i], "row %u byte %u", row, i);
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_DRAM_ADDR), 0x1000u + 3 * 24);
}

Test(rsp_dma, write_copies_imem_to_rdram)
{
    for (unsigned i = 0; i < 8; i++)
        rsp.imem[0x20 + i] = (uint8_t)(0xA0 + i);
    rsp_cop0_write(&rsp, RSP_C0_SP_MEM_ADDR, RSP_MEM_ADDR_IMEM | 0x20);
    rsp_cop0_write(&rsp, RSP_C0_SP_DRAM_ADDR, 0x3000);
    rsp_cop0_write(&rsp, RSP_C0_SP_WR_LEN, 7);
    rsp_idle_until_dma_done(&rsp);
    for (unsigned i = 0; i < 8; i++)
        cr_expect_eq(rdram[0x3000 + i], 0xA0 + i);
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_MEM_ADDR), RSP_MEM_ADDR_IMEM | 0x28u);
}

Test(rsp_dma, dma_wraps_in_sp_memory_and_ignores_missing_rdram)
{
    rsp.dmem[0x000] = 0x55;
    rsp_cop0_write(&rsp, RSP_C0_SP_MEM_ADDR, 0xFF8);
    rsp_cop0_write(&rsp, RSP_C0_SP_DRAM_ADDR, sizeof(rdram) - 8);
    rsp_cop0_write(&rsp, RSP_C0_SP_RD_LEN, 15);
    rsp_idle_until_dma_done(&rsp);
    cr_expect_eq(rsp.dmem[0xFF8], rdram[sizeof(rdram) - 8]);
    cr_expect_eq(rsp.dmem[0x000], 0, "beyond the RDRAM buffer reads as zero");
}

Test(rsp_dma, microcode_can_start_a_dma)
{
    /* t1/t2: the length and DMA_BUSY while the transfer runs; t3/t4 after
     * the wait loop. */
    run_source(&rsp, "li t0,$200\n mtc0 t0,0\n li t0,$2000\n mtc0 t0,1\n li t0,31\n mtc0 t0,2\n"
                     "mfc0 t1,2\n mfc0 t2,6\n"
                     "wait:\n mfc0 t5,6\n bnez t5,wait\n nop\n"
                     "mfc0 t3,2\n mfc0 t4,6\n break\n");
    for (unsigned i = 0; i < 32; i++)
        cr_expect_eq(rsp.dmem[0x200 + i], rdram[0x2000 + i]);
    cr_expect_eq(rsp.gpr[9], 0x18u, "one row of 32 bytes in flight");
    cr_expect_eq(rsp.gpr[10], 1u);
    cr_expect_eq(rsp.gpr[11], 0xFF8u);
    cr_expect_eq(rsp.gpr[12], 0u);
}

Test(rsp_dma, status_signals_and_halt)
{
    run_source(&rsp, "li t0,$5400\n mtc0 t0,4\n mfc0 t1,4\n li t2,$800\n mtc0 t2,4\n mfc0 t3,4\n break\n");
    /* set signals 0, 1 and 2 (bits 10, 12, 14 of the write), then clear signal 1 (bit 11) */
    cr_expect_eq(rsp.gpr[9] & 0x7F80u, RSP_STATUS_SIGNAL(0) | RSP_STATUS_SIGNAL(1) | RSP_STATUS_SIGNAL(2));
    cr_expect_eq(rsp.gpr[11] & 0x7F80u, RSP_STATUS_SIGNAL(0) | RSP_STATUS_SIGNAL(2));

    uint8_t halt_self[] = {0x24, 0x08, 0x00, 0x02, /* addiu t0,zero,2 (set halt) */
                           0x40, 0x88, 0x20, 0x00, /* mtc0 t0,4 */
                           0x24, 0x09, 0x00, 0x05}; /* addiu t1,zero,5: not reached */
    rsp.gpr[9] = 0;
    rsp_load_imem(&rsp, 0, halt_self, sizeof(halt_self));
    rsp_start(&rsp, 0);
    cr_expect_eq(rsp_run(&rsp, 100), RSP_STOP_HALTED);
    cr_expect_eq(rsp.gpr[9], 0u);
}

Test(rsp_dma, break_raises_the_interrupt_when_enabled)
{
    rsp_cop0_write(&rsp, RSP_C0_SP_STATUS, RSP_STATUS_W_SET_INTR_BREAK);
    run_source(&rsp, "break\n");
    cr_expect(rsp.sp_interrupt);
    rsp_cop0_write(&rsp, RSP_C0_SP_STATUS, RSP_STATUS_W_CLEAR_INTR);
    cr_expect_not(rsp.sp_interrupt);
}

Test(rsp_dma, semaphore_is_acquired_by_reading)
{
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_SEMAPHORE), 0u);
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_SEMAPHORE), 1u);
    rsp_cop0_write(&rsp, RSP_C0_SP_SEMAPHORE, 0);
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_SEMAPHORE), 0u);
}

Test(rsp_dma, dp_command_ranges_are_recorded)
{
    run_source(&rsp, "li t0,2\n mtc0 t0,11\n li t0,$100\n mtc0 t0,8\n li t0,$140\n mtc0 t0,9\n"
                     "li t0,$180\n mtc0 t0,9\n mfc0 t1,10\n break\n");
    rsp_dp_range_t range;
    cr_assert(rsp_dp_pop_range(&rsp, &range));
    cr_expect_eq(range.start, 0x100u);
    cr_expect_eq(range.end, 0x140u);
    cr_expect(range.in_dmem, "XBUS was selected");
    cr_assert(rsp_dp_pop_range(&rsp, &range));
    cr_expect_eq(range.start, 0x140u, "a second END continues from CURRENT");
    cr_expect_eq(range.end, 0x180u);
    cr_expect_not(rsp_dp_pop_range(&rsp, &range));
    cr_expect_eq(rsp.gpr[9], 0x180u);
}
