/* Vector unit computational instructions, one family per test, with
 * expected values worked out by hand from the documented definitions. */
#include "rsp_test_util.h"

static rsp_t rsp;

static void setup(void) { rsp_init(&rsp, NULL, 0); }

TestSuite(rsp_vector, .init = setup);

static void expect_accumulator(unsigned lane, uint16_t hi, uint16_t md, uint16_t lo)
{
    cr_expect_eq(rsp.acc_hi[lane], hi, "lane %u acc hi %04x", lane, rsp.acc_hi[lane]);
    cr_expect_eq(rsp.acc_md[lane], md, "lane %u acc md %04x", lane, rsp.acc_md[lane]);
    cr_expect_eq(rsp.acc_lo[lane], lo, "lane %u acc lo %04x", lane, rsp.acc_lo[lane]);
}

Test(rsp_vector, vmulf_rounds_and_saturates)
{
    set_vector(&rsp, 0, (const uint16_t[]){0x4000, 0xC000, 0x8000, 0x0001, 0, 0x7FFF, 0x4000, 0x2000});
    set_vector(&rsp, 1, (const uint16_t[]){0x4000, 0x4000, 0x8000, 0x0001, 0x1234, 0x7FFF, 0xFFFF, 0x0003});
    run_source(&rsp, "vmulf v2,v0,v1\n break\n");
    /* 0.5*0.5; -0.5*0.5; -1*-1 overflows; 1/32768^2 rounds to 0; 0; 0.99994^2;
     * 0.5 * -1/32768 = -0.5 ulp rounds up to 0; 0.25 * 3/32768 = 0.75 ulp -> 1 */
    expect_vector(&rsp, 2, (const uint16_t[]){0x2000, 0xE000, 0x7FFF, 0x0000, 0x0000, 0x7FFE, 0x0000, 0x0001});
    expect_accumulator(0, 0x0000, 0x2000, 0x8000);
    expect_accumulator(1, 0xFFFF, 0xE000, 0x8000);
    expect_accumulator(2, 0x0000, 0x8000, 0x8000);
}

Test(rsp_vector, vmulu_clamps_to_unsigned)
{
    set_vector(&rsp, 0, (const uint16_t[]){0x4000, 0xC000, 0x8000, 0x7FFF, 0, 0, 0, 0});
    set_vector(&rsp, 1, (const uint16_t[]){0x4000, 0x4000, 0x8000, 0x7FFF, 0, 0, 0, 0});
    run_source(&rsp, "vmulu v2,v0,v1\n break\n");
    expect_vector(&rsp, 2, (const uint16_t[]){0x2000, 0x0000, 0xFFFF, 0x7FFE, 0, 0, 0, 0});
}

Test(rsp_vector, vmacf_accumulates_and_saturates)
{
    fill_vector(&rsp, 0, 0x4000);
    run_source(&rsp, "vmulf v1,v0,v0\n vmacf v2,v0,v0\n vmacf v3,v0,v0\n vmacf v4,v0,v0\n vmacf v5,v0,v0\n break\n");
    /* 0.25 + 0.25 (+ the 0x8000 rounding bias of vmulf kept in the low half) */
    cr_expect_eq(rsp.vr[2][0], 0x4000);
    cr_expect_eq(rsp.vr[3][0], 0x6000);
    cr_expect_eq(rsp.vr[4][0], 0x7FFF); /* 1.0 does not fit */
    expect_accumulator(0, 0x0000, 0xA000, 0x8000);
    cr_expect_eq(rsp.vr[5][0], 0x7FFF);
}

Test(rsp_vector, vmacu_clamps_negative_sums_to_zero)
{
    fill_vector(&rsp, 0, 0xC000);
    fill_vector(&rsp, 1, 0x4000);
    run_source(&rsp, "vmudh v9,v9,v9\n vmacu v2,v0,v1\n vmacu v3,v1,v1\n vmacu v3,v1,v1\n vmacu v3,v1,v1\n break\n");
    cr_expect_eq(rsp.vr[2][0], 0x0000);  /* -0.25 */
    cr_expect_eq(rsp.vr[3][0], 0x4000);  /* -0.25 + 0.75 */
    cr_expect_eq(rsp.acc_md[0], 0x4000);
}

Test(rsp_vector, vmudh_and_vmadh_work_on_integers)
{
    set_vector(&rsp, 0, (const uint16_t[]){3, 0x7FFF, 0x8000, 100, 0, 0, 0, 0});
    set_vector(&rsp, 1, (const uint16_t[]){0xFFFE, 0x7FFF, 0x7FFF, 200, 0, 0, 0, 0});
    run_source(&rsp, "vmudh v2,v0,v1\n break\n");
    expect_vector(&rsp, 2, (const uint16_t[]){0xFFFA, 0x7FFF, 0x8000, 0x4E20, 0, 0, 0, 0});
    expect_accumulator(1, 0x3FFF, 0x0001, 0x0000); /* 0x3FFF0001 << 16 */
    expect_accumulator(3, 0x0000, 0x4E20, 0x0000);
    run_source(&rsp, "vmadh v3,v0,v1\n break\n");
    cr_expect_eq(rsp.vr[3][0], 0xFFF4);
    cr_expect_eq(rsp.vr[3][3], 0x7FFF); /* 40000 saturates */
}

Test(rsp_vector, vmudn_vmudl_vmudm_partial_products)
{
    set_vector(&rsp, 0, (const uint16_t[]){0xFFFF, 0xFFFF, 0xFFFF, 0x8000, 0, 0, 0, 0});
    set_vector(&rsp, 1, (const uint16_t[]){0x0002, 0xFFFF, 0xFFFF, 0x8000, 0, 0, 0, 0});
    run_source(&rsp, "vmudn v2,v0,v1\n break\n");
    /* unsigned vs * signed vt: 65535*2, 65535*-1 */
    cr_expect_eq(rsp.vr[2][0], 0xFFFE);
    expect_accumulator(0, 0x0000, 0x0001, 0xFFFE);
    cr_expect_eq(rsp.vr[2][1], 0x0001);
    expect_accumulator(1, 0xFFFF, 0xFFFF, 0x0001);
    run_source(&rsp, "vmudl v3,v0,v1\n break\n");
    /* (65535*65535) >> 16 */
    cr_expect_eq(rsp.vr[3][1], 0xFFFE);
    expect_accumulator(1, 0x0000, 0x0000, 0xFFFE);
    run_source(&rsp, "vmudm v4,v0,v1\n break\n");
    /* signed vs * unsigned vt: -1*65535, then -32768*32768 */
    cr_expect_eq(rsp.vr[4][1], 0xFFFF);
    expect_accumulator(1, 0xFFFF, 0xFFFF, 0x0001);
    cr_expect_eq(rsp.vr[4][3], 0xC000);
    expect_accumulator(3, 0xFFFF, 0xC000, 0x0000);
}

Test(rsp_vector, vmadn_and_vmadl_clamp_the_low_slice)
{
    fill_vector(&rsp, 0, 0x7FFF);
    run_source(&rsp, "vmudh v1,v0,v0\n vmadn v2,v9,v9\n vmadl v3,v9,v9\n break\n");
    cr_expect_eq(rsp.vr[2][0], 0xFFFF, "positive overflow of bits 47..16");
    cr_expect_eq(rsp.vr[3][0], 0xFFFF);
    fill_vector(&rsp, 1, 0x8000);
    run_source(&rsp, "vmudh v1,v0,v1\n vmadn v2,v9,v9\n vmadm v3,v9,v9\n break\n");
    cr_expect_eq(rsp.vr[2][0], 0x0000, "negative overflow");
    cr_expect_eq(rsp.vr[3][0], 0x8000);
}

Test(rsp_vector, vadd_vsub_use_and_clear_the_carry)
{
    set_vector(&rsp, 0, (const uint16_t[]){0x7FFF, 0x8000, 5, 5, 0, 0, 0, 0});
    set_vector(&rsp, 1, (const uint16_t[]){1, 1, 3, 3, 0, 0, 0, 0});
    rsp.vco_lo = 0x09; /* carry in for lanes 0 and 3 */
    rsp.vco_hi = 0xFF;
    run_source(&rsp, "vadd v2,v0,v1\n break\n");
    expect_vector(&rsp, 2, (const uint16_t[]){0x7FFF, 0x8001, 8, 9, 0, 0, 0, 0});
    cr_expect_eq(rsp.acc_lo[0], 0x8001, "the accumulator is not clamped");
    cr_expect_eq(rsp.vco_lo | rsp.vco_hi, 0);
    rsp.vco_lo = 0x04;
    run_source(&rsp, "vsub v3,v0,v1\n break\n");
    expect_vector(&rsp, 3, (const uint16_t[]){0x7FFE, 0x8000, 1, 2, 0, 0, 0, 0});
    cr_expect_eq(rsp.acc_lo[1], 0x7FFF);
}

Test(rsp_vector, vaddc_vsubc_set_carry_flags)
{
    set_vector(&rsp, 0, (const uint16_t[]){0xFFFF, 1, 1, 5, 0, 0, 0, 0});
    set_vector(&rsp, 1, (const uint16_t[]){2, 1, 2, 5, 0, 0, 0, 0});
    run_source(&rsp, "vaddc v2,v0,v1\n break\n");
    expect_vector(&rsp, 2, (const uint16_t[]){1, 2, 3, 10, 0, 0, 0, 0});
    cr_expect_eq(rsp.vco_lo, 0x01);
    cr_expect_eq(rsp.vco_hi, 0x00);
    run_source(&rsp, "vsubc v3,v0,v1\n break\n");
    expect_vector(&rsp, 3, (const uint16_t[]){0xFFFD, 0, 0xFFFF, 0, 0, 0, 0, 0});
    cr_expect_eq(rsp.vco_lo, 0x04, "borrow only in lane 2");
    cr_expect_eq(rsp.vco_hi, 0x05, "not equal in lanes 0 and 2");
}

Test(rsp_vector, vabs_applies_the_sign_of_vs)
{
    set_vector(&rsp, 0, (const uint16_t[]){0xFFFD, 0, 7, 0xFFFF, 0, 0, 0, 0});
    set_vector(&rsp, 1, (const uint16_t[]){5, 5, 0xFFFB, 0x8000, 0, 0, 0, 0});
    run_source(&rsp, "vabs v2,v0,v1\n break\n");
    expect_vector(&rsp, 2, (const uint16_t[]){0xFFFB, 0, 0xFFFB, 0x7FFF, 0, 0, 0, 0});
    cr_expect_eq(rsp.acc_lo[3], 0x8000);
}

Test(rsp_vector, logical_operations)
{
    fill_vector(&rsp, 0, 0xF0F0);
    fill_vector(&rsp, 1, 0xFF00);
    run_source(&rsp, "vand v2,v0,v1\n vnand v3,v0,v1\n vor v4,v0,v1\n vnor v5,v0,v1\n"
                     "vxor v6,v0,v1\n vnxor v7,v0,v1\n break\n");
    cr_expect_eq(rsp.vr[2][0], 0xF000);
    cr_expect_eq(rsp.vr[3][0], 0x0FFF);
    cr_expect_eq(rsp.vr[4][0], 0xFFF0);
    cr_expect_eq(rsp.vr[5][0], 0x000F);
    cr_expect_eq(rsp.vr[6][0], 0x0FF0);
    cr_expect_eq(rsp.vr[7][7], 0xF00F);
    cr_expect_eq(rsp.acc_lo[7], 0xF00F);
}

Test(rsp_vector, element_selectors_broadcast_vt)
{
    set_vector(&rsp, 1, (const uint16_t[]){10, 11, 12, 13, 14, 15, 16, 17});
    run_source(&rsp, "vor v2,v0,v1[e2]\n vor v3,v0,v1[e5]\n vor v4,v0,v1[e11]\n vor v5,v0,v1[e1]\n break\n");
    expect_vector(&rsp, 2, (const uint16_t[]){10, 10, 12, 12, 14, 14, 16, 16});
    expect_vector(&rsp, 3, (const uint16_t[]){11, 11, 11, 11, 15, 15, 15, 15});
    expect_vector(&rsp, 4, (const uint16_t[]){13, 13, 13, 13, 13, 13, 13, 13});
    expect_vector(&rsp, 5, (const uint16_t[]){10, 11, 12, 13, 14, 15, 16, 17});
}

Test(rsp_vector, compares_select_and_set_vcc)
{
    set_vector(&rsp, 0, (const uint16_t[]){1, 2, 3, 0xFFFF, 2, 2, 2, 2});
    set_vector(&rsp, 1, (const uint16_t[]){2, 2, 2, 2, 2, 2, 2, 2});
    run_source(&rsp, "vlt v2,v0,v1\n break\n");
    expect_vector(&rsp, 2, (const uint16_t[]){1, 2, 2, 0xFFFF, 2, 2, 2, 2});
    cr_expect_eq(rsp.vcc_lo, 0x09);
    run_source(&rsp, "vge v3,v0,v1\n break\n");
    cr_expect_eq(rsp.vcc_lo, 0xF6);
    run_source(&rsp, "veq v4,v0,v1\n break\n");
    cr_expect_eq(rsp.vcc_lo, 0xF2);
    run_source(&rsp, "vne v5,v0,v1\n break\n");
    cr_expect_eq(rsp.vcc_lo, 0x0D);
    cr_expect_eq(rsp.vcc_hi, 0);
}

Test(rsp_vector, compares_use_vco_for_equal_lanes)
{
    fill_vector(&rsp, 0, 7);
    fill_vector(&rsp, 1, 7);
    rsp.vco_lo = 0x03;
    rsp.vco_hi = 0x05; /* lane 0: carry and not-equal; lane 1: carry; lane 2: not-equal */
    run_source(&rsp, "veq v2,v0,v1\n break\n");
    cr_expect_eq(rsp.vcc_lo, 0xFA);
    cr_expect_eq(rsp.vco_lo | rsp.vco_hi, 0, "compares clear VCO");
    rsp.vco_lo = 0x03;
    rsp.vco_hi = 0x05;
    run_source(&rsp, "vlt v2,v0,v1\n break\n");
    cr_expect_eq(rsp.vcc_lo, 0x01);
    rsp.vco_lo = 0x03;
    rsp.vco_hi = 0x05;
    run_source(&rsp, "vge v2,v0,v1\n break\n");
    cr_expect_eq(rsp.vcc_lo, 0xFE);
    rsp.vco_lo = 0x03;
    rsp.vco_hi = 0x05;
    run_source(&rsp, "vne v2,v0,v1\n break\n");
    cr_expect_eq(rsp.vcc_lo, 0x05);
}

Test(rsp_vector, vch_clips_against_plus_minus_vt)
{
    set_vector(&rsp, 0, (const uint16_t[]){5, 0xFFFB, 0xFFFC, 2, 0xFFFD, 0, 0, 0});
    set_vector(&rsp, 1, (const uint16_t[]){3, 3, 3, 3, 3, 0, 0, 0});
    run_source(&rsp, "vch v2,v0,v1\n break\n");
    /* 5 >= 3 -> 3; -5 <= -3 -> -3; -4 <= -3 -> -3 (and -4 == -3 - 1); 2 stays; -3 == -3 */
    expect_vector(&rsp, 2, (const uint16_t[]){3, 0xFFFD, 0xFFFD, 2, 0xFFFD, 0, 0, 0});
    cr_expect_eq(rsp.vco_lo, 0x16, "opposite signs in lanes 1, 2, 4");
    cr_expect_eq(rsp.vce, 0x04, "lane 2 is -vt - 1");
    cr_expect_eq(rsp.vco_hi, 0x0B, "not equal to vt or -vt, and not -vt - 1");
    cr_expect_eq(rsp.vcc_lo & 0x16, 0x16);
    cr_expect_eq(rsp.vcc_hi & 0xE9, 0xE1);
}

Test(rsp_vector, vcr_uses_ones_complement)
{
    set_vector(&rsp, 0, (const uint16_t[]){5, 0xFFFB, 2, 0, 0, 0, 0, 0});
    set_vector(&rsp, 1, (const uint16_t[]){3, 3, 3, 0, 0, 0, 0, 0});
    rsp.vco_lo = rsp.vco_hi = rsp.vce = 0xFF;
    run_source(&rsp, "vcr v2,v0,v1\n break\n");
    expect_vector(&rsp, 2, (const uint16_t[]){3, 0xFFFC, 2, 0, 0, 0, 0, 0});
    cr_expect_eq(rsp.vco_lo | rsp.vco_hi | rsp.vce, 0);
}

Test(rsp_vector, vcl_compares_low_halves_unsigned)
{
    set_vector(&rsp, 0, (const uint16_t[]){0x8000, 0x0001, 0x0000, 0x0010, 0, 0, 0, 0});
    set_vector(&rsp, 1, (const uint16_t[]){0x7FFF, 0x0002, 0x0000, 0xFFF0, 0, 0, 0, 0});
    /* lanes 0-1: same sign, undecided (VCO=0): recompute vs >= vt.
     * lane 2: opposite sign, undecided, no VCE: le = (vs + vt == 0).
     * lane 3: opposite sign, VCE: le = (vs + vt <= 0x10000). */
    rsp.vco_lo = 0x0C;
    rsp.vce = 0x08;
    run_source(&rsp, "vcl v2,v0,v1\n break\n");
    expect_vector(&rsp, 2, (const uint16_t[]){0x7FFF, 0x0001, 0x0000, 0x0010, 0, 0, 0, 0});
    cr_expect_eq(rsp.vcc_hi & 0x03, 0x01);
    cr_expect_eq(rsp.vcc_lo & 0x0C, 0x0C);
    cr_expect_eq(rsp.vco_lo | rsp.vco_hi | rsp.vce, 0);
}

Test(rsp_vector, vmrg_selects_by_vcc)
{
    fill_vector(&rsp, 0, 1);
    fill_vector(&rsp, 1, 2);
    rsp.vcc_lo = 0x0F;
    run_source(&rsp, "vmrg v2,v0,v1\n break\n");
    expect_vector(&rsp, 2, (const uint16_t[]){1, 1, 1, 1, 2, 2, 2, 2});
}

Test(rsp_vector, vsar_reads_accumulator_slices)
{
    fill_vector(&rsp, 0, 0x7FFF);
    run_source(&rsp, "vmudh v1,v0,v0\n vsar v2,v2[e8]\n vsar v3,v3[e9]\n vsar v4,v4[e10]\n vsar v5,v5[e0]\n break\n");
    cr_expect_eq(rsp.vr[2][0], 0x3FFF);
    cr_expect_eq(rsp.vr[3][0], 0x0001);
    cr_expect_eq(rsp.vr[4][0], 0x0000);
    cr_expect_eq(rsp.vr[5][0], 0x0000);
}

Test(rsp_vector, generated_tables_match_published_entries)
{
    /* Entries quoted from the public RSP documentation. */
    cr_expect_eq(rsp.rcp_rom[0], 0xFFFF);
    cr_expect_eq(rsp.rcp_rom[1], 0xFF00);
    cr_expect_eq(rsp.rcp_rom[2], 0xFE01);
    cr_expect_eq(rsp.rcp_rom[256], 0x5555);
    cr_expect_eq(rsp.rcp_rom[511], 0x0040);
    cr_expect_eq(rsp.rsq_rom[1], 0xFFFF);  /* odd entries: input 256 + (i-1)/2 */
    cr_expect_eq(rsp.rsq_rom[0], 0x6A09);  /* 1/sqrt(2) */
}

Test(rsp_vector, vrcp_single_precision)
{
    set_vector(&rsp, 0, (const uint16_t[]){1, 2, 0, 0x8000, 0xFFFF, 0, 0, 0});
    run_source(&rsp, "vrcp v1[e0],v0[e0]\n vrcph v2[e0],v0[e0]\n"
                     "vrcp v1[e1],v0[e1]\n vrcph v2[e1],v0[e1]\n"
                     "vrcp v1[e2],v0[e2]\n vrcph v2[e2],v0[e2]\n"
                     "vrcp v1[e3],v0[e3]\n vrcph v2[e3],v0[e3]\n"
                     "vrcp v1[e4],v0[e4]\n vrcph v2[e4],v0[e4]\n break\n");
    /* 1/1 = 0x7FFFC000 (scaled by 2^31), 1/2 = 0x3FFFE000, 1/0 = 0x7FFFFFFF,
     * 1/-32768 = 0xFFFF0000, 1/-1 = ~0x7FFFC000 */
    expect_vector(&rsp, 1, (const uint16_t[]){0xC000, 0xE000, 0xFFFF, 0x0000, 0x3FFF, 0, 0, 0});
    expect_vector(&rsp, 2, (const uint16_t[]){0x7FFF, 0x3FFF, 0x7FFF, 0xFFFF, 0x8000, 0, 0, 0});
}

Test(rsp_vector, vrcpl_uses_the_high_half_from_vrcph)
{
    set_vector(&rsp, 0, (const uint16_t[]){0x0001, 0x0000, 0, 0, 0, 0, 0, 0});
    run_source(&rsp, "vrcph v1[e0],v0[e0]\n vrcpl v1[e1],v0[e1]\n vrcpl v1[e3],v0[e0]\n"
                     "vrcph v1[e2],v0[e0]\n break\n");
    /* 1/0x00010000 scaled by 2^31 = 0x8000 -> 0x00007FFF with the table's rounding */
    cr_expect_eq(rsp.vr[1][1], 0x7FFF);
    /* DIV_IN was consumed: the second vrcpl on 1 is single precision again */
    cr_expect_eq(rsp.vr[1][3], 0xC000);
    cr_expect_eq(rsp.vr[1][2], 0x7FFF);
}

Test(rsp_vector, vrsq_single_precision)
{
    set_vector(&rsp, 0, (const uint16_t[]){1, 4, 0, 0, 0, 0, 0, 0});
    run_source(&rsp, "vrsq v1[e0],v0[e0]\n vrsqh v2[e0],v0[e0]\n vrsq v1[e1],v0[e1]\n vrsqh v2[e1],v0[e1]\n break\n");
    cr_expect_eq(rsp.vr[1][0], 0xC000);
    cr_expect_eq(rsp.vr[2][0], 0x7FFF);
    cr_expect_eq(rsp.vr[1][1], 0xE000); /* 1/sqrt(4) = half of 1/sqrt(1) */
    cr_expect_eq(rsp.vr[2][1], 0x3FFF);
}

Test(rsp_vector, vmov_copies_one_lane)
{
    set_vector(&rsp, 1, (const uint16_t[]){10, 11, 12, 13, 14, 15, 16, 17});
    fill_vector(&rsp, 2, 0xAAAA);
    run_source(&rsp, "vmov v2[e3],v1[e5]\n break\n");
    expect_vector(&rsp, 2, (const uint16_t[]){0xAAAA, 0xAAAA, 0xAAAA, 15, 0xAAAA, 0xAAAA, 0xAAAA, 0xAAAA});
    /* The accumulator gets vt with the element selector applied (e5: lanes 1 and 5). */
    cr_expect_eq(rsp.acc_lo[0], 11);
    cr_expect_eq(rsp.acc_lo[4], 15);
}

Test(rsp_vector, reserved_opcodes_write_zero_and_sum_into_the_accumulator)
{
    fill_vector(&rsp, 0, 0x8000);
    fill_vector(&rsp, 1, 0x9000);
    fill_vector(&rsp, 2, 0x1234);
    run_source(&rsp, "vsubb v2,v0,v1\n break\n");
    cr_expect_eq(rsp.vr[2][0], 0);
    cr_expect_eq(rsp.acc_lo[0], 0x1000);
}

Test(rsp_vector, mpeg_quantization_helpers)
{
    set_vector(&rsp, 0, (const uint16_t[]){0x0100, 0xFF00, 0x7FFF, 0, 0, 0, 0, 0});
    set_vector(&rsp, 1, (const uint16_t[]){0x0003, 0x0003, 0x7FFF, 0, 0, 0, 0, 0});
    run_source(&rsp, "vmulq v2,v0,v1\n break\n");
    /* 768 >> 1 = 384; (-768 + 31) >> 1 = -369 -> & 0xFFF0 = -384; overflow clamps */
    expect_vector(&rsp, 2, (const uint16_t[]){0x0180, 0xFE80, 0x7FF0, 0, 0, 0, 0, 0});
    expect_accumulator(0, 0x0000, 0x0300, 0x0000);
}

Test(rsp_vector, vrndp_adds_only_to_non_negative_accumulators)
{
    fill_vector(&rsp, 1, 0x0010);
    set_vector(&rsp, 2, (const uint16_t[]){1, 0xFFFF, 0, 0, 0, 0, 0, 0});
    run_source(&rsp, "vmudh v3,v2,v1\n vrndp v4,v0,v1\n break\n");
    /* vs field 0: vt is added unshifted to the low slice */
    expect_accumulator(0, 0x0000, 0x0010, 0x0010);
    expect_accumulator(1, 0xFFFF, 0xFFF0, 0x0000);
    run_source(&rsp, "vrndn v4,v1,v1\n break\n"); /* vs field 1: shifted by 16 */
    expect_accumulator(0, 0x0000, 0x0010, 0x0010);
    expect_accumulator(1, 0x0000, 0x0000, 0x0000);
}
