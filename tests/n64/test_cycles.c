/* The cycle model (sim/README.md, "Cycle model"): small programs whose cycle
 * counts follow from the documented rules, worked out by hand in the comments
 * (T<n>: the cycle an instruction issues in). */
#include "rsp_test_util.h"

#include <stdio.h>
#include <string.h>

static rsp_t rsp;
static uint8_t rdram[0x4000];

static void setup(void)
{
    for (size_t i = 0; i < sizeof(rdram); i++)
        rdram[i] = (uint8_t)(i * 5 + 3);
    rsp_init(&rsp, rdram, sizeof(rdram));
}

TestSuite(rsp_cycles, .init = setup);

/* Runs source from a fresh start and returns the cycles it took. */
static uint64_t cycles_of(const char *source)
{
    uint64_t before = rsp.cycles;
    run_source(&rsp, source);
    cr_expect_eq(rsp_cycle_stats_total(&rsp.stats), rsp.cycles, "the breakdown adds up to rsp->cycles");
    return rsp.cycles - before;
}

/* Cycles of one DMA row of `bytes` from RDRAM, from the documented figures. */
static uint64_t dma_read_row(uint32_t bytes)
{
    return RSP_DMA_SETUP_FROM_RDRAM +
           (bytes * RSP_DMA_CYCLES_PER_8_BYTES_NUM + 8 * RSP_DMA_CYCLES_PER_8_BYTES_DEN - 1) /
               (8 * RSP_DMA_CYCLES_PER_8_BYTES_DEN);
}

Test(rsp_cycles, scalar_loop_costs_a_cycle_per_instruction_and_a_bubble_per_taken_branch)
{
    /* li: T0-T1; ten turns of addi, bgtz, delay slot (3 cycles), nine of
     * them taken (+1 bubble each); break. */
    uint64_t cycles = cycles_of("li t0,10\n loop:\n addi t0,t0,-1\n bgtz t0,loop\n nop\n break\n");
    cr_expect_eq(rsp.gpr[8], 0u);
    cr_expect_eq(rsp.instructions, 33u);
    cr_expect_eq(cycles, 2 + 10 * 3 + 9 + 1);
    cr_expect_eq(rsp.stats.branch_bubbles, 9u);
    cr_expect_eq(rsp.stats.issue_cycles, 33u);
    cr_expect_eq(rsp.stats.dual_issues, 0u, "scalar instructions never pair with each other");
}

Test(rsp_cycles, scalar_load_result_comes_three_cycles_later)
{
    /* lw T0; addi needs t1 at T3 (two stall cycles); break T4. */
    rsp_dmem_write32(&rsp, 0, 41);
    cr_expect_eq(cycles_of("lw t1,0(zero)\n addi t2,t1,1\n break\n"), 5u);
    cr_expect_eq(rsp.gpr[10], 42u);
    cr_expect_eq(rsp.stats.stall_scalar_load, 2u);
}

Test(rsp_cycles, scalar_alu_results_are_bypassed)
{
    cr_expect_eq(cycles_of("addi t1,zero,1\n addi t2,t1,1\n addi t3,t2,1\n break\n"), 4u);
    cr_expect_eq(rsp.gpr[11], 3u);
}

Test(rsp_cycles, dependent_vector_chain_waits_four_cycles_per_link)
{
    /* T0 vadd v1; T4 vadd v2 (3 stalls); T8 vadd v3 paired with break. */
    fill_vector(&rsp, 0, 1);
    cr_expect_eq(cycles_of("vadd v1,v0,v0\n vadd v2,v1,v1\n vadd v3,v2,v2\n break\n"), 9u);
    cr_expect_eq(rsp.vr[3][0], 8u);
    cr_expect_eq(rsp.stats.stall_vu_result, 6u);
    cr_expect_eq(rsp.stats.dual_issues, 1u);
}

Test(rsp_cycles, independent_vector_instructions_issue_every_cycle)
{
    cr_expect_eq(cycles_of("vadd v1,v0,v0\n vadd v2,v0,v0\n vadd v3,v0,v0\n break\n"), 3u);
    cr_expect_eq(rsp.stats.stall_vu_result, 0u);
}

Test(rsp_cycles, a_result_two_instructions_back_costs_fewer_stalls)
{
    /* v1 written at T0 is ready at T4; its reader would issue at T3. */
    cr_expect_eq(cycles_of("vadd v1,v0,v0\n vadd v5,v0,v0\n vadd v6,v0,v0\n vadd v2,v1,v1\n break\n"), 5u);
    cr_expect_eq(rsp.stats.stall_vu_result, 1u);
}

Test(rsp_cycles, accumulator_chains_do_not_stall)
{
    cr_expect_eq(cycles_of("vmudh v1,v0,v0\n vmadh v2,v3,v3\n vmadh v4,v5,v5\n vmadh v6,v7,v7\n break\n"), 4u);
}

Test(rsp_cycles, independent_scalar_and_vector_instructions_dual_issue)
{
    /* Three (vector, scalar) pairs, then break alone. */
    cr_expect_eq(cycles_of("vadd v1,v0,v0\n addi t0,t0,1\n vadd v2,v0,v0\n addi t1,t1,1\n"
                           "vadd v3,v0,v0\n addi t2,t2,1\n break\n"),
                 4u);
    cr_expect_eq(rsp.instructions, 7u);
    cr_expect_eq(rsp.stats.dual_issues, 3u);
    cr_expect_eq(rsp.gpr[10], 1u);
}

Test(rsp_cycles, pairs_form_in_either_order)
{
    cr_expect_eq(cycles_of("addi t0,t0,1\n vadd v1,v0,v0\n addi t1,t1,1\n vadd v2,v0,v0\n break\n"), 3u);
    cr_expect_eq(rsp.stats.dual_issues, 2u);
}

Test(rsp_cycles, a_store_of_the_vector_just_computed_does_not_pair_and_waits)
{
    /* sqv reads v1 written by the vadd: no pair; it waits until T4. */
    fill_vector(&rsp, 0, 0x1111);
    cr_expect_eq(cycles_of("vadd v1,v0,v0\n sqv v1[e0],$100(zero)\n break\n"), 6u);
    cr_expect_eq(rsp.stats.dual_issues, 0u);
    cr_expect_eq(rsp.stats.stall_vu_result, 3u);
    cr_expect_eq(rsp_dmem_read16(&rsp, 0x100), 0x2222);
}

Test(rsp_cycles, vector_load_result_comes_four_cycles_later)
{
    /* lqv T0; vadd reads v1 at T4 and pairs with break. */
    cr_expect_eq(cycles_of("lqv v1[e0],$0(zero)\n vadd v2,v1,v1\n break\n"), 5u);
    cr_expect_eq(rsp.stats.stall_vector_load, 3u);
}

Test(rsp_cycles, flags_written_by_the_first_block_a_pair)
{
    /* vaddc writes VCO: cfc2 of VCO cannot join it, cfc2 of VCC can. */
    cr_expect_eq(cycles_of("vaddc v1,v0,v0\n cfc2 t0,vco\n break\n"), 3u);
    cr_expect_eq(rsp.stats.dual_issues, 0u);
    setup();
    cr_expect_eq(cycles_of("vaddc v1,v0,v0\n cfc2 t0,vcc\n break\n"), 2u);
    cr_expect_eq(rsp.stats.dual_issues, 1u);
}

Test(rsp_cycles, taken_branch_costs_one_bubble)
{
    /* b T0, delay slot T1, bubble T2, break T3. */
    cr_expect_eq(cycles_of("b target\n nop\n nop\n target:\n break\n"), 4u);
    cr_expect_eq(rsp.stats.branch_bubbles, 1u);
    cr_expect_eq(rsp.instructions, 3u);
    setup();
    cr_expect_eq(cycles_of("bnez zero,target\n nop\n break\n target:\n break\n"), 3u, "not taken: no bubble");
    cr_expect_eq(rsp.stats.branch_bubbles, 0u);
}

Test(rsp_cycles, unaligned_branch_target_issues_alone)
{
    /* Target at 12 (not 8-byte aligned): vadd and addi issue apart. */
    cr_expect_eq(cycles_of("b target\n nop\n nop\n target:\n vadd v1,v0,v0\n addi t0,t0,1\n break\n"), 6u);
    cr_expect_eq(rsp.stats.dual_issues, 0u);
    setup();
    /* Target at 16: the pair forms. */
    cr_expect_eq(cycles_of("b target\n nop\n nop\n nop\n target:\n vadd v1,v0,v0\n addi t0,t0,1\n break\n"), 5u);
    cr_expect_eq(rsp.stats.dual_issues, 1u);
}

Test(rsp_cycles, branch_pairs_with_the_vector_instruction_before_it)
{
    /* (vadd, b) T0, delay slot T1, bubble, break T3. */
    cr_expect_eq(cycles_of("vadd v1,v0,v0\n b target\n nop\n target:\n break\n"), 4u);
    cr_expect_eq(rsp.stats.dual_issues, 1u);
}

Test(rsp_cycles, break_never_leads_a_pair)
{
    /* The vadd after break never runs: nothing pairs with break from behind. */
    cr_expect_eq(cycles_of("break\n vadd v1,v0,v0\n"), 1u);
    cr_expect_eq(rsp.instructions, 1u);
    cr_expect_eq(rsp.stats.dual_issues, 0u);
}

Test(rsp_cycles, delay_slot_issues_alone)
{
    /* Not taken: bnez T0, vadd (delay slot) T1 alone, addi T2, break T3. */
    cr_expect_eq(cycles_of("bnez zero,out\n vadd v1,v0,v0\n addi t0,t0,1\n break\n out:\n break\n"), 4u);
    cr_expect_eq(rsp.stats.dual_issues, 0u);
}

Test(rsp_cycles, mtc2_result_comes_four_cycles_later)
{
    /* lui T0, ori T1, mtc2 T2 (t0 bypassed), vadd reads v1 at T6, paired with break. */
    cr_expect_eq(cycles_of("li t0,$1234\n mtc2 t0,v1[e0]\n vadd v2,v1,v1\n break\n"), 7u);
    cr_expect_eq(rsp.vr[2][0], 0x2468);
    cr_expect_eq(rsp.stats.stall_vector_load, 3u);
}

Test(rsp_cycles, mfc2_and_mfc0_results_come_three_cycles_later)
{
    rsp.vr[0][0] = 41;
    cr_expect_eq(cycles_of("mfc2 t1,v0[e0]\n addi t2,t1,1\n break\n"), 5u);
    cr_expect_eq(rsp.gpr[10], 42u);
    cr_expect_eq(rsp.stats.stall_cop_move, 2u);
    setup();
    cr_expect_eq(cycles_of("mfc0 t1,4\n addi t2,t1,1\n break\n"), 5u);
    cr_expect_eq(rsp.stats.stall_cop_move, 2u);
}

Test(rsp_cycles, store_two_cycles_after_a_load_costs_a_bubble)
{
    /* lw T0, nop T1, sw would issue at T2: bubble, T3; break T4. */
    cr_expect_eq(cycles_of("lw t1,0(zero)\n nop\n sw t2,4(zero)\n break\n"), 5u);
    cr_expect_eq(rsp.stats.stall_load_store, 1u);
    setup();
    cr_expect_eq(cycles_of("lw t1,0(zero)\n sw t2,4(zero)\n break\n"), 3u, "right after the load: no bubble");
    setup();
    /* COP moves count as loads and stores. */
    cr_expect_eq(cycles_of("mtc2 t1,v1[e0]\n nop\n mtc2 t2,v2[e0]\n break\n"), 5u);
}

/* ---- DMA ---- */

/* Reads `length` bytes from RDRAM 0x1000 into DMEM 0x200 and polls DMA_BUSY. */
static uint64_t dma_wait_program(uint32_t length)
{
    char source[256];
    snprintf(source, sizeof(source),
             "li t0,$200\n mtc0 t0,0\n li t0,$1000\n mtc0 t0,1\n li t0,%u\n mtc0 t0,2\n"
             "wait:\n mfc0 t1,6\n bnez t1,wait\n nop\n break\n",
             (unsigned)(length - 1));
    setup();
    return cycles_of(source);
}

Test(rsp_cycles, dma_time_grows_with_its_size)
{
    /* The mtc0 that starts the transfer issues at T8; the polling loop turns
     * every 6 cycles (mfc0, 2 stalls, bnez, delay slot, bubble) and ends 6
     * cycles after the first poll that sees DMA_BUSY clear. */
    const uint32_t sizes[] = {8, 256, 2048, 4096};
    uint64_t previous = 0;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        uint64_t cycles = dma_wait_program(sizes[i]);
        uint64_t done = 8 + dma_read_row(sizes[i]);
        cr_expect_geq(cycles, done + 6, "%u bytes: %llu cycles, DMA done at %llu", sizes[i],
                      (unsigned long long)cycles, (unsigned long long)done);
        cr_expect_lt(cycles, done + 12, "%u bytes: %llu cycles, DMA done at %llu", sizes[i],
                     (unsigned long long)cycles, (unsigned long long)done);
        cr_expect_gt(cycles, previous);
        cr_expect_gt(rsp.stats.dma_wait_cycles, 0u);
        cr_expect_eq(rsp.stats.dma_bytes_to_sp, sizes[i]);
        for (uint32_t b = 0; b < sizes[i]; b += 61)
            cr_expect_eq(rsp.dmem[(0x200 + b) & 0xFFF], rdram[0x1000 + b]);
        previous = cycles;
    }
}

Test(rsp_cycles, dma_data_is_not_there_before_the_transfer_ends)
{
    /* t2 reads the destination right after the start, t3 after the wait. */
    rsp_dmem_write32(&rsp, 0x200, 0xDEADBEEF);
    run_source(&rsp, "li t0,$200\n mtc0 t0,0\n li t0,$1000\n mtc0 t0,1\n li t0,63\n mtc0 t0,2\n"
                     "lw t2,$200(zero)\n"
                     "wait:\n mfc0 t1,6\n bnez t1,wait\n nop\n lw t3,$200(zero)\n break\n");
    uint32_t fresh = ((uint32_t)rdram[0x1000] << 24) | ((uint32_t)rdram[0x1001] << 16) |
                     ((uint32_t)rdram[0x1002] << 8) | rdram[0x1003];
    cr_expect_eq(rsp.gpr[10], 0xDEADBEEFu, "stale before the DMA completes");
    cr_expect_eq(rsp.gpr[11], fresh);
}

Test(rsp_cycles, host_sees_dma_land_when_its_time_has_passed)
{
    rsp_cop0_write(&rsp, RSP_C0_SP_MEM_ADDR, 0x300);
    rsp_cop0_write(&rsp, RSP_C0_SP_DRAM_ADDR, 0x2000);
    rsp_cop0_write(&rsp, RSP_C0_SP_RD_LEN, 255);
    uint64_t cost = dma_read_row(256);
    rsp_idle(&rsp, cost - 1);
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_DMA_BUSY), 1u);
    cr_expect_eq(rsp.dmem[0x300], 0);
    rsp_idle(&rsp, 1);
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_DMA_BUSY), 0u);
    cr_expect_eq(rsp.dmem[0x300], rdram[0x2000]);
    cr_expect_eq(rsp.dmem[0x3FF], rdram[0x20FF]);
    cr_expect_eq(rsp.stats.idle_cycles, cost);
}

Test(rsp_cycles, writes_to_rdram_land_late_too)
{
    /* The microcode stores a word, sends it to RDRAM and ends without waiting. */
    run_source(&rsp, "li t0,$12345678\n sw t0,$80(zero)\n li t0,$80\n mtc0 t0,0\n li t0,$3000\n mtc0 t0,1\n"
                     "mtc0 zero,3\n break\n");
    cr_expect_eq(rdram[0x3000], (uint8_t)(0x3000 * 5 + 3), "not written yet");
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_DMA_BUSY), 1u);
    uint64_t waited = rsp_idle_until_dma_done(&rsp);
    cr_expect_gt(waited, 0u);
    cr_expect_lt(waited, RSP_DMA_SETUP_TO_RDRAM + 2);
    cr_expect_eq(rdram[0x3000], 0x12);
    cr_expect_eq(rdram[0x3003], 0x78);
    cr_expect_eq(rsp.stats.dma_bytes_to_rdram, 8u);
}

Test(rsp_cycles, a_second_transfer_waits_in_the_pending_slot)
{
    rsp_cop0_write(&rsp, RSP_C0_SP_MEM_ADDR, 0x000);
    rsp_cop0_write(&rsp, RSP_C0_SP_DRAM_ADDR, 0x1000);
    rsp_cop0_write(&rsp, RSP_C0_SP_RD_LEN, 127);
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_DMA_FULL), 0u, "the first starts at once");
    rsp_cop0_write(&rsp, RSP_C0_SP_MEM_ADDR, 0x400);
    rsp_cop0_write(&rsp, RSP_C0_SP_DRAM_ADDR, 0x2000);
    rsp_cop0_write(&rsp, RSP_C0_SP_RD_LEN, 127);
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_DMA_BUSY), 1u);
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_DMA_FULL), 1u);
    uint32_t status = rsp_cop0_read(&rsp, RSP_C0_SP_STATUS);
    cr_expect_eq(status & (RSP_STATUS_DMA_BUSY | RSP_STATUS_DMA_FULL), RSP_STATUS_DMA_BUSY | RSP_STATUS_DMA_FULL);
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_MEM_ADDR), 0x000u, "reads show the transfer in flight");

    rsp_idle(&rsp, dma_read_row(128));
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_DMA_BUSY), 1u, "the second has started");
    cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_DMA_FULL), 0u);
    cr_expect_eq(rsp.dmem[0x000], rdram[0x1000]);
    cr_expect_eq(rsp.dmem[0x400], 0);
    cr_expect_eq(rsp_idle_until_dma_done(&rsp), dma_read_row(128));
    cr_expect_eq(rsp.dmem[0x47F], rdram[0x207F]);
    cr_expect_eq(rsp.stats.dma_transfers, 2u);
}

Test(rsp_cycles, every_row_pays_the_setup)
{
    /* Four rows of 8 bytes, 16 bytes apart in RDRAM: each lands one row
     * time after the one before. */
    uint64_t row = dma_read_row(8);
    rsp_cop0_write(&rsp, RSP_C0_SP_DRAM_ADDR, 0x1000);
    rsp_cop0_write(&rsp, RSP_C0_SP_RD_LEN, (8u << 20) | (3u << 12) | 7u);
    for (unsigned n = 0; n < 4; n++) {
        rsp_idle(&rsp, row - 1);
        cr_expect_eq(rsp.dmem[8 * n], 0, "row %u lands after %llu cycles", n, (unsigned long long)((n + 1) * row));
        rsp_idle(&rsp, 1);
        cr_expect_eq(rsp.dmem[8 * n], rdram[0x1000 + 16 * n], "row %u", n);
        cr_expect_eq(rsp_cop0_read(&rsp, RSP_C0_SP_DMA_BUSY), n < 3 ? 1u : 0u);
    }
    /* One row of 32 bytes pays the setup once. */
    rsp_cop0_write(&rsp, RSP_C0_SP_RD_LEN, 31u);
    cr_expect_eq(rsp_idle_until_dma_done(&rsp), dma_read_row(32));
    cr_expect_lt(dma_read_row(32), 4 * row);
}

Test(rsp_cycles, breakdown_formats_on_one_line)
{
    char line[512];
    cycles_of("vadd v1,v0,v0\n addi t0,t0,1\n break\n");
    cr_assert_lt(rsp_format_cycle_stats(&rsp, line, sizeof(line)), (int)sizeof(line));
    cr_expect_not_null(strstr(line, "2 cycles, 3 instructions (1 pairs)"), "%s", line);
}
