/* COP2 dispatch and the moves between scalar registers and the vector unit:
 * MFC2/MTC2 (one 16-bit lane, addressed by byte) and CFC2/CTC2 (VCO, VCC, VCE). */
#include "rsp_internal.h"

enum { COP2_MF = 0x00, COP2_CF = 0x02, COP2_MT = 0x04, COP2_CT = 0x06 };

/* Control registers are 16 bits: the low byte is the per-lane "lo" flags,
 * the high byte the "hi" flags (VCE has only 8 bits). */
static uint32_t read_control(const rsp_t *rsp, unsigned reg)
{
    uint16_t value;
    switch (reg & 3u) {
    case 0: value = (uint16_t)(rsp->vco_lo | (rsp->vco_hi << 8)); break;
    case 1: value = (uint16_t)(rsp->vcc_lo | (rsp->vcc_hi << 8)); break;
    default: value = rsp->vce; break;
    }
    return rsp_sext16(value);
}

static void write_control(rsp_t *rsp, unsigned reg, uint32_t value)
{
    uint8_t lo = (uint8_t)value, hi = (uint8_t)(value >> 8);
    switch (reg & 3u) {
    case 0:
        rsp->vco_lo = lo;
        rsp->vco_hi = hi;
        break;
    case 1:
        rsp->vcc_lo = lo;
        rsp->vcc_hi = hi;
        break;
    default: rsp->vce = lo; break;
    }
}

void rsp_cop2_execute(rsp_t *rsp, uint32_t instr)
{
    if (instr & (1u << 25)) {
        rsp_vector_execute(rsp, instr);
        return;
    }
    unsigned vs = RSP_RD(instr), byte = (instr >> 7) & 15u;
    uint32_t *rt = &rsp->gpr[RSP_RT(instr)];
    switch (RSP_RS(instr)) {
    case COP2_MF: {
        /* The element field is a byte offset; the lane read wraps inside the register. */
        uint16_t value = (uint16_t)((rsp_vr_byte(rsp, vs, byte) << 8) | rsp_vr_byte(rsp, vs, (byte + 1) & 15u));
        *rt = rsp_sext16(value);
        break;
    }
    case COP2_MT:
        rsp_vr_set_byte(rsp, vs, byte, (uint8_t)(*rt >> 8));
        if (byte < 15)
            rsp_vr_set_byte(rsp, vs, byte + 1, (uint8_t)*rt);
        break;
    case COP2_CF: *rt = read_control(rsp, vs); break;
    case COP2_CT: write_control(rsp, vs, *rt); break;
    default: break;
    }
}
