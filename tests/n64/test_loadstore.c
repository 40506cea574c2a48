/* Vector loads/stores and the COP2 moves. */
#include "rsp_test_util.h"

static rsp_t rsp;

static void setup(void)
{
    rsp_init(&rsp, NULL, 0);
    for (unsigned i = 0; i < 0x100; i++)
        rsp_dmem_write8(&rsp, i, (uint8_t)i);
}

TestSuite(rsp_loadstore, .init = setup);

Test(rsp_loadstore, small_loads_stop_at_the_register_end)
{
    fill_vector(&rsp, 1, 0xAAAA);
    run_source(&rsp, "li t0,$10\n llv v1[e14],$0(t0)\n break\n");
    /* bytes 14 and 15 get $10,$11; the other two bytes are dropped */
    expect_vector(&rsp, 1, (const uint16_t[]){0xAAAA, 0xAAAA, 0xAAAA, 0xAAAA, 0xAAAA, 0xAAAA, 0xAAAA, 0x1011});
}

Test(rsp_loadstore, small_stores_wrap_around_the_register)
{
    set_vector(&rsp, 1, (const uint16_t[]){0x0001, 0x0203, 0x0405, 0x0607, 0x0809, 0x0A0B, 0x0C0D, 0x0E0F});
    run_source(&rsp, "li t0,$400\n slv v1[e14],$0(t0)\n sdv v1[e0],$8(t0)\n break\n");
    cr_expect_eq(rsp_dmem_read32(&rsp, 0x400), 0x0E0F0001u);
    cr_expect_eq(rsp_dmem_read32(&rsp, 0x408), 0x00010203u);
    cr_expect_eq(rsp_dmem_read32(&rsp, 0x40C), 0x04050607u);
}

Test(rsp_loadstore, offsets_are_scaled_by_the_access_size)
{
    run_source(&rsp, "li t0,$40\n lsv v1[e0],-$2(t0)\n ldv v2[e0],$8(t0)\n lqv v3[e0],-$10(t0)\n break\n");
    cr_expect_eq(rsp.vr[1][0], 0x3E3F);
    cr_expect_eq(rsp.vr[2][0], 0x4849);
    cr_expect_eq(rsp.vr[3][0], 0x3031);
}

Test(rsp_loadstore, lqv_and_lrv_split_an_unaligned_quad)
{
    run_source(&rsp, "li t0,$28\n lqv v1[e0],$00(t0)\n lrv v1[e0],$10(t0)\n lqv v2[e0],$00(t0)\n break\n");
    expect_vector(&rsp, 1, (const uint16_t[]){0x2829, 0x2A2B, 0x2C2D, 0x2E2F, 0x3031, 0x3233, 0x3435, 0x3637});
    /* lqv alone stops at the 16-byte boundary */
    expect_vector(&rsp, 2, (const uint16_t[]){0x2829, 0x2A2B, 0x2C2D, 0x2E2F, 0, 0, 0, 0});
}

Test(rsp_loadstore, sqv_and_srv_write_an_unaligned_quad)
{
    set_vector(&rsp, 1, (const uint16_t[]){0x0001, 0x0203, 0x0405, 0x0607, 0x0809, 0x0A0B, 0x0C0D, 0x0E0F});
    run_source(&rsp, "li t0,$504\n sqv v1[e0],$00(t0)\n srv v1[e0],$10(t0)\n break\n");
    for (unsigned i = 0; i < 16; i++)
        cr_expect_eq(rsp_dmem_read8(&rsp, 0x504 + i), i, "byte %u", i);
    cr_expect_eq(rsp_dmem_read8(&rsp, 0x514), 0, "nothing past the 16 bytes");
}

Test(rsp_loadstore, packed_loads_place_bytes_in_lanes)
{
    run_source(&rsp, "li t0,$80\n lpv v1[e0],$0(t0)\n luv v2[e0],$0(t0)\n lhv v3[e0],$0(t0)\n break\n");
    expect_vector(&rsp, 1, (const uint16_t[]){0x8000, 0x8100, 0x8200, 0x8300, 0x8400, 0x8500, 0x8600, 0x8700});
    expect_vector(&rsp, 2, (const uint16_t[]){0x4000, 0x4080, 0x4100, 0x4180, 0x4200, 0x4280, 0x4300, 0x4380});
    /* lhv takes every other byte */
    expect_vector(&rsp, 3, (const uint16_t[]){0x4000, 0x4100, 0x4200, 0x4300, 0x4400, 0x4500, 0x4600, 0x4700});
}

Test(rsp_loadstore, packed_stores_take_bytes_from_lanes)
{
    set_vector(&rsp, 1, (const uint16_t[]){0x8000, 0x8100, 0x8200, 0x8300, 0x4000, 0x4080, 0x4100, 0x4180});
    run_source(&rsp, "li t0,$600\n spv v1[e0],$0(t0)\n suv v1[e0],$8(t0)\n break\n");
    const uint8_t packed[8] = {0x80, 0x81, 0x82, 0x83, 0x40, 0x40, 0x41, 0x41};
    const uint8_t unsigned_packed[8] = {0x00, 0x02, 0x04, 0x06, 0x80, 0x81, 0x82, 0x83};
    for (unsigned i = 0; i < 8; i++) {
        cr_expect_eq(rsp_dmem_read8(&rsp, 0x600 + i), packed[i], "spv byte %u", i);
        cr_expect_eq(rsp_dmem_read8(&rsp, 0x608 + i), unsigned_packed[i], "suv byte %u", i);
    }
}

Test(rsp_loadstore, shv_and_sfv_store_every_other_or_fourth_byte)
{
    set_vector(&rsp, 1, (const uint16_t[]){0x0080, 0x0100, 0x0180, 0x0200, 0x0280, 0x0300, 0x0380, 0x0400});
    run_source(&rsp, "li t0,$700\n shv v1[e0],$00(t0)\n sfv v1[e0],$10(t0)\n break\n");
    for (unsigned k = 0; k < 8; k++)
        cr_expect_eq(rsp_dmem_read8(&rsp, 0x700 + 2 * k), k + 1, "shv lane %u", k);
    for (unsigned k = 0; k < 4; k++)
        cr_expect_eq(rsp_dmem_read8(&rsp, 0x710 + 4 * k), k + 1, "sfv lane %u", k);
}

Test(rsp_loadstore, swv_rotates_inside_the_block)
{
    set_vector(&rsp, 1, (const uint16_t[]){0x0001, 0x0203, 0x0405, 0x0607, 0x0809, 0x0A0B, 0x0C0D, 0x0E0F});
    run_source(&rsp, "li t0,$804\n swv v1[e0],$0(t0)\n break\n");
    /* written from $804 on, wrapping to $800 within the 16-byte block */
    for (unsigned i = 0; i < 16; i++)
        cr_expect_eq(rsp_dmem_read8(&rsp, 0x800 + ((4 + i) & 15)), i, "byte %u", i);
}

Test(rsp_loadstore, stv_stores_a_diagonal_and_ltv_loads_it_back)
{
    for (unsigned r = 0; r < 8; r++)
        for (unsigned n = 0; n < 8; n++)
            rsp.vr[8 + r][n] = (uint16_t)(0x100 * r + n);
    run_source(&rsp, "li t0,$900\n stv v8[e0],$0(t0)\n break\n");
    /* e0: halfword k comes from register 8+k, lane k */
    for (unsigned k = 0; k < 8; k++)
        cr_expect_eq(rsp_dmem_read16(&rsp, 0x900 + 2 * k), 0x101 * k, "halfword %u", k);
    for (unsigned r = 8; r < 16; r++)
        fill_vector(&rsp, r, 0);
    run_source(&rsp, "li t0,$900\n ltv v8[e0],$0(t0)\n break\n");
    for (unsigned k = 0; k < 8; k++)
        cr_expect_eq(rsp.vr[8 + k][k], 0x101 * k, "register %u lane %u", 8 + k, k);
    cr_expect_eq(rsp.vr[9][0], 0, "only the diagonal is loaded");
}

Test(rsp_loadstore, mfc2_and_mtc2_address_bytes)
{
    set_vector(&rsp, 1, (const uint16_t[]){0x8001, 0x0203, 0x0405, 0x0607, 0x0809, 0x0A0B, 0x0C0D, 0x0E0F});
    run_source(&rsp, "mfc2 t0,v1[e0]\n mfc2 t1,v1[e1]\n mfc2 t2,v1[e15]\n li t3,$ABCD\n mtc2 t3,v2[e3]\n"
                     "mtc2 t3,v3[e15]\n break\n");
    cr_expect_eq(rsp.gpr[8], 0xFFFF8001u, "sign-extended");
    cr_expect_eq(rsp.gpr[9], 0x0102u, "unaligned lane");
    cr_expect_eq(rsp.gpr[10], 0x0F80u, "wraps to byte 0");
    cr_expect_eq(rsp.vr[2][1], 0x00AB);
    cr_expect_eq(rsp.vr[2][2], 0xCD00);
    cr_expect_eq(rsp.vr[3][7], 0x00AB, "only byte 15 is written");
    cr_expect_eq(rsp.vr[3][0], 0x0000);
}

Test(rsp_loadstore, cfc2_and_ctc2_move_flags)
{
    run_source(&rsp, "li t0,$12F0\n ctc2 t0,vco\n ctc2 t0,vcc\n ctc2 t0,vce\n li t1,$80FF\n ctc2 t1,vcc\n"
                     "cfc2 t2,vco\n cfc2 t3,vcc\n cfc2 t4,vce\n break\n");
    cr_expect_eq(rsp.vco_lo, 0xF0);
    cr_expect_eq(rsp.vco_hi, 0x12);
    cr_expect_eq(rsp.vce, 0xF0);
    cr_expect_eq(rsp.gpr[10], 0x12F0u);
    cr_expect_eq(rsp.gpr[11], 0xFFFF80FFu, "sign-extended from 16 bits");
    cr_expect_eq(rsp.gpr[12], 0xF0u);
}
