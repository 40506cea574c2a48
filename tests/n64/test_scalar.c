/* Scalar unit: arithmetic, branches with delay slots, loads/stores, break. */
#include "rsp_test_util.h"

static rsp_t rsp;

static void setup(void) { rsp_init(&rsp, NULL, 0); }

TestSuite(rsp_scalar, .init = setup);

Test(rsp_scalar, additions_wrap_without_trapping)
{
    run_source(&rsp, "li t0,$7FFFFFFF\n addi t1,t0,1\n add t2,t0,t0\n sub t3,zero,t0\n break\n");
    cr_expect_eq(rsp.gpr[9], 0x80000000u);
    cr_expect_eq(rsp.gpr[10], 0xFFFFFFFEu);
    cr_expect_eq(rsp.gpr[11], 0x80000001u);
}

Test(rsp_scalar, register_zero_stays_zero)
{
    run_source(&rsp, "addi zero,zero,5\n or t0,zero,zero\n break\n");
    cr_expect_eq(rsp.gpr[0], 0u);
    cr_expect_eq(rsp.gpr[8], 0u);
}

Test(rsp_scalar, shifts_and_comparisons_treat_signs)
{
    run_source(&rsp, "li t0,-16\n sra t1,t0,2\n srl t2,t0,28\n sll t3,t0,4\n"
                     "slt t4,t0,zero\n sltu t5,t0,zero\n slti t6,t0,-15\n sltiu t7,zero,1\n"
                     "li s0,3\n srav s1,t0,s0\n break\n");
    cr_expect_eq(rsp.gpr[9], 0xFFFFFFFCu);  /* -16 >> 2 keeps the sign */
    cr_expect_eq(rsp.gpr[10], 0xFu);
    cr_expect_eq(rsp.gpr[11], 0xFFFFFF00u);
    cr_expect_eq(rsp.gpr[12], 1u);
    cr_expect_eq(rsp.gpr[13], 0u);
    cr_expect_eq(rsp.gpr[14], 1u);
    cr_expect_eq(rsp.gpr[15], 1u);
    cr_expect_eq(rsp.gpr[17], 0xFFFFFFFEu);
}

Test(rsp_scalar, logic_and_lui)
{
    run_source(&rsp, "lui t0,$1234\n ori t0,t0,$5678\n andi t1,t0,$F0F0\n xori t2,t0,$FFFF\n"
                     "nor t3,t0,zero\n break\n");
    cr_expect_eq(rsp.gpr[8], 0x12345678u);
    cr_expect_eq(rsp.gpr[9], 0x5070u);
    cr_expect_eq(rsp.gpr[10], 0x1234A987u);
    cr_expect_eq(rsp.gpr[11], 0xEDCBA987u);
}

Test(rsp_scalar, taken_branch_runs_its_delay_slot)
{
    run_source(&rsp, "li t0,0\n beq zero,zero,Target\n addi t0,t0,1\n addi t0,t0,10\n"
                     "Target:\n break\n");
    cr_expect_eq(rsp.gpr[8], 1u);
}

Test(rsp_scalar, untaken_branch_falls_through)
{
    run_source(&rsp, "li t0,5\n li t1,0\n blez t0,Skip\n nop\n addi t1,t1,1\nSkip:\n"
                     "bgtz t0,Done\n addi t1,t1,2\n addi t1,t1,100\nDone:\n break\n");
    cr_expect_eq(rsp.gpr[9], 3u);
}

Test(rsp_scalar, loop_counts_down)
{
    run_source(&rsp, "li t0,4\n li t1,0\nLoop:\n addi t1,t1,3\n bnez t0,Loop\n subi t0,1\n break\n");
    /* The body runs for t0 = 4,3,2,1,0 and the delay slot decrements once more. */
    cr_expect_eq(rsp.gpr[9], 15u);
    cr_expect_eq(rsp.gpr[8], 0xFFFFFFFFu);
}

Test(rsp_scalar, jal_links_past_the_delay_slot)
{
    run_source(&rsp, "jal Sub\n nop\n break\nSub:\n jr ra\n addi t0,zero,7\n");
    /* jal is at 0, so ra = 8: the break after the delay slot. */
    cr_expect_eq(rsp.gpr[31], 8u);
    cr_expect_eq(rsp.gpr[8], 7u);
}

Test(rsp_scalar, jalr_links_into_chosen_register)
{
    /* li is two words, so jalr sits at 8 and Target at 20. */
    run_source(&rsp, "li t0,20\n jalr s0,t0\n nop\n break\nTarget:\n jr s0\n nop\n");
    cr_expect_eq(rsp.gpr[16], 16u);
}

Test(rsp_scalar, bltzal_links_even_when_not_taken)
{
    run_source(&rsp, "li t0,1\n bltzal t0,Far\n nop\n break\nFar:\n break\n");
    cr_expect_eq(rsp.gpr[31], 16u);
    cr_expect_eq(rsp.pc, 20u); /* stopped after the first break: the branch was not taken */
}

Test(rsp_scalar, loads_extend_and_wrap_at_4k)
{
    rsp_dmem_write8(&rsp, 0xFFF, 0x80);
    rsp_dmem_write8(&rsp, 0x000, 0x01);
    run_source(&rsp, "lh t0,$FFF(zero)\n lhu t1,$FFF(zero)\n lb t2,$FFF(zero)\n lbu t3,$FFF(zero)\n"
                     "lw t4,$FFE(zero)\n break\n");
    cr_expect_eq(rsp.gpr[8], 0xFFFF8001u);
    cr_expect_eq(rsp.gpr[9], 0x8001u);
    cr_expect_eq(rsp.gpr[10], 0xFFFFFF80u);
    cr_expect_eq(rsp.gpr[11], 0x80u);
    cr_expect_eq(rsp.gpr[12], 0x00800100u);
}

Test(rsp_scalar, stores_are_big_endian_unaligned_and_wrap)
{
    run_source(&rsp, "li t0,$11223344\n sw t0,$FFE(zero)\n sh t0,$101(zero)\n sb t0,$200(zero)\n break\n");
    cr_expect_eq(rsp_dmem_read8(&rsp, 0xFFE), 0x11);
    cr_expect_eq(rsp_dmem_read8(&rsp, 0xFFF), 0x22);
    cr_expect_eq(rsp_dmem_read8(&rsp, 0x000), 0x33);
    cr_expect_eq(rsp_dmem_read8(&rsp, 0x001), 0x44);
    cr_expect_eq(rsp_dmem_read16(&rsp, 0x101), 0x3344);
    cr_expect_eq(rsp_dmem_read8(&rsp, 0x200), 0x44);
}

Test(rsp_scalar, break_halts_and_counts_cycles)
{
    run_source(&rsp, "nop\n nop\n break\n nop\n");
    cr_expect_eq(rsp.sp_status & (RSP_STATUS_HALT | RSP_STATUS_BROKE), RSP_STATUS_HALT | RSP_STATUS_BROKE);
    cr_expect_eq(rsp.cycles, 3u); /* three scalar instructions issue one per cycle, break included */
    cr_expect_eq(rsp.instructions, 3u);
    cr_expect_eq(rsp_run(&rsp, 100), RSP_STOP_BREAK, "a halted RSP does not run");
    cr_expect_eq(rsp.cycles, 3u);
}

Test(rsp_scalar, cycle_limit_stops_an_endless_loop)
{
    uint8_t loop[8] = {0x10, 0x00, 0xFF, 0xFF, 0, 0, 0, 0}; /* beq zero,zero,-1 ; nop */
    rsp_load_imem(&rsp, 0, loop, sizeof(loop));
    rsp_start(&rsp, 0);
    cr_expect_eq(rsp_run(&rsp, 1000), RSP_STOP_CYCLE_LIMIT);
    /* Three cycles a turn (branch, delay slot, taken-branch bubble): the
     * limit is checked between instructions, so the run ends on the turn
     * that reaches 1000. */
    cr_expect_geq(rsp.cycles, 1000u);
    cr_expect_lt(rsp.cycles, 1003u);
    cr_expect_eq(rsp.cycles, 3 * (rsp.instructions / 2) + (rsp.instructions % 2));
}

Test(rsp_scalar, pc_wraps_inside_imem)
{
    rsp_load_imem(&rsp, 0, (const uint8_t[]){0, 0, 0, 0x0D}, 4); /* break at 0 */
    rsp_start(&rsp, 0xFFC);                                      /* a nop (zeroed IMEM) */
    cr_expect_eq(rsp_run(&rsp, 10), RSP_STOP_BREAK);
    cr_expect_eq(rsp.cycles, 2u);
}
