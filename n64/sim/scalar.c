/* Scalar unit: the RSP's subset of MIPS I (no 64-bit ops, no mult/div, no
 * exceptions; add/sub never trap). Also dispatches to COP0, COP2 and the
 * vector load/store unit. Unknown encodings execute as no-ops. */
#include "rsp_internal.h"

enum {
    OP_SPECIAL = 0x00, OP_REGIMM = 0x01, OP_J = 0x02, OP_JAL = 0x03, OP_BEQ = 0x04, OP_BNE = 0x05,
    OP_BLEZ = 0x06, OP_BGTZ = 0x07, OP_ADDI = 0x08, OP_ADDIU = 0x09, OP_SLTI = 0x0A, OP_SLTIU = 0x0B,
    OP_ANDI = 0x0C, OP_ORI = 0x0D, OP_XORI = 0x0E, OP_LUI = 0x0F, OP_COP0 = 0x10, OP_COP2 = 0x12,
    OP_LB = 0x20, OP_LH = 0x21, OP_LW = 0x23, OP_LBU = 0x24, OP_LHU = 0x25, OP_SB = 0x28,
    OP_SH = 0x29, OP_SW = 0x2B, OP_LWC2 = 0x32, OP_SWC2 = 0x3A,
};

enum {
    FN_SLL = 0x00, FN_SRL = 0x02, FN_SRA = 0x03, FN_SLLV = 0x04, FN_SRLV = 0x06, FN_SRAV = 0x07,
    FN_JR = 0x08, FN_JALR = 0x09, FN_BREAK = 0x0D, FN_ADD = 0x20, FN_ADDU = 0x21, FN_SUB = 0x22,
    FN_SUBU = 0x23, FN_AND = 0x24, FN_OR = 0x25, FN_XOR = 0x26, FN_NOR = 0x27, FN_SLT = 0x2A,
    FN_SLTU = 0x2B,
};

enum { RI_BLTZ = 0x00, RI_BGEZ = 0x01, RI_BLTZAL = 0x10, RI_BGEZAL = 0x11 };

static uint32_t shift_right_arithmetic(uint32_t v, unsigned n)
{
    n &= 31u;
    return (v & 0x80000000u) ? ~(~v >> n) : v >> n;
}

/* rsp->pc already holds the delay slot address when this runs. */
static void branch_to(rsp_t *rsp, uint32_t target)
{
    rsp->next_pc = target & 0xFFCu;
    rsp->timing.branch_taken = true; /* for the cycle model's taken-branch bubble */
}

static void branch_relative(rsp_t *rsp, uint32_t instr, bool taken)
{
    if (taken)
        branch_to(rsp, rsp->pc + (rsp_sext16((uint16_t)RSP_IMM16(instr)) << 2));
}

static uint32_t link_address(const rsp_t *rsp) { return (rsp->pc + 4) & 0xFFCu; }

static void break_execution(rsp_t *rsp)
{
    rsp->sp_status |= RSP_STATUS_HALT | RSP_STATUS_BROKE;
    if (rsp->sp_status & RSP_STATUS_INTR_BREAK)
        rsp->sp_interrupt = true;
}

static void execute_special(rsp_t *rsp, uint32_t instr)
{
    uint32_t *gpr = rsp->gpr;
    uint32_t rs = gpr[RSP_RS(instr)], rt = gpr[RSP_RT(instr)];
    uint32_t *rd = &gpr[RSP_RD(instr)];
    unsigned sa = RSP_SA(instr);

    switch (RSP_FUNCT(instr)) {
    case FN_SLL: *rd = rt << sa; break;
    case FN_SRL: *rd = rt >> sa; break;
    case FN_SRA: *rd = shift_right_arithmetic(rt, sa); break;
    case FN_SLLV: *rd = rt << (rs & 31u); break;
    case FN_SRLV: *rd = rt >> (rs & 31u); break;
    case FN_SRAV: *rd = shift_right_arithmetic(rt, rs & 31u); break;
    case FN_JR: branch_to(rsp, rs); break;
    case FN_JALR:
        *rd = link_address(rsp);
        branch_to(rsp, rs);
        break;
    case FN_BREAK: break_execution(rsp); break;
    case FN_ADD:
    case FN_ADDU: *rd = rs + rt; break;
    case FN_SUB:
    case FN_SUBU: *rd = rs - rt; break;
    case FN_AND: *rd = rs & rt; break;
    case FN_OR: *rd = rs | rt; break;
    case FN_XOR: *rd = rs ^ rt; break;
    case FN_NOR: *rd = ~(rs | rt); break;
    case FN_SLT: *rd = rsp_s32(rs) < rsp_s32(rt); break;
    case FN_SLTU: *rd = rs < rt; break;
    default: break;
    }
}

static void execute_regimm(rsp_t *rsp, uint32_t instr)
{
    bool negative = (rsp->gpr[RSP_RS(instr)] & 0x80000000u) != 0;
    switch (RSP_RT(instr)) {
    case RI_BLTZ: branch_relative(rsp, instr, negative); break;
    case RI_BGEZ: branch_relative(rsp, instr, !negative); break;
    case RI_BLTZAL:
        branch_relative(rsp, instr, negative);
        rsp->gpr[31] = link_address(rsp);
        break;
    case RI_BGEZAL:
        branch_relative(rsp, instr, !negative);
        rsp->gpr[31] = link_address(rsp);
        break;
    default: break;
    }
}

static void execute_load_store(rsp_t *rsp, uint32_t instr)
{
    uint32_t addr = rsp->gpr[RSP_RS(instr)] + rsp_sext16((uint16_t)RSP_IMM16(instr));
    uint32_t *rt = &rsp->gpr[RSP_RT(instr)];
    switch (RSP_OPCODE(instr)) {
    case OP_LB: *rt = (uint32_t)rsp_s8(rsp_dmem_read8(rsp, addr)); break;
    case OP_LBU: *rt = rsp_dmem_read8(rsp, addr); break;
    case OP_LH: *rt = rsp_sext16(rsp_dmem_read16(rsp, addr)); break;
    case OP_LHU: *rt = rsp_dmem_read16(rsp, addr); break;
    case OP_LW: *rt = rsp_dmem_read32(rsp, addr); break;
    case OP_SB: rsp_dmem_write8(rsp, addr, (uint8_t)*rt); break;
    case OP_SH: rsp_dmem_write16(rsp, addr, (uint16_t)*rt); break;
    case OP_SW: rsp_dmem_write32(rsp, addr, *rt); break;
    default: break;
    }
}

void rsp_execute(rsp_t *rsp, uint32_t instr)
{
    uint32_t *gpr = rsp->gpr;
    uint32_t rs = gpr[RSP_RS(instr)];
    uint32_t *rt = &gpr[RSP_RT(instr)];
    uint32_t imm = RSP_IMM16(instr);
    uint32_t simm = rsp_sext16((uint16_t)imm);

    switch (RSP_OPCODE(instr)) {
    case OP_SPECIAL: execute_special(rsp, instr); break;
    case OP_REGIMM: execute_regimm(rsp, instr); break;
    case OP_JAL:
        gpr[31] = link_address(rsp);
        branch_to(rsp, (instr & 0x03FFFFFFu) << 2);
        break;
    case OP_J: branch_to(rsp, (instr & 0x03FFFFFFu) << 2); break;
    case OP_BEQ: branch_relative(rsp, instr, rs == *rt); break;
    case OP_BNE: branch_relative(rsp, instr, rs != *rt); break;
    case OP_BLEZ: branch_relative(rsp, instr, rsp_s32(rs) <= 0); break;
    case OP_BGTZ: branch_relative(rsp, instr, rsp_s32(rs) > 0); break;
    case OP_ADDI:
    case OP_ADDIU: *rt = rs + simm; break;
    case OP_SLTI: *rt = rsp_s32(rs) < rsp_s32(simm); break;
    case OP_SLTIU: *rt = rs < simm; break;
    case OP_ANDI: *rt = rs & imm; break;
    case OP_ORI: *rt = rs | imm; break;
    case OP_XORI: *rt = rs ^ imm; break;
    case OP_LUI: *rt = imm << 16; break;
    case OP_COP0: rsp_cop0_execute(rsp, instr); break;
    case OP_COP2: rsp_cop2_execute(rsp, instr); break;
    case OP_LB:
    case OP_LH:
    case OP_LW:
    case OP_LBU:
    case OP_LHU:
    case OP_SB:
    case OP_SH:
    case OP_SW: execute_load_store(rsp, instr); break;
    case OP_LWC2: rsp_vector_load(rsp, instr); break;
    case OP_SWC2: rsp_vector_store(rsp, instr); break;
    default: break;
    }
}
