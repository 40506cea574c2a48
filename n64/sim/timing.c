/* Cycle model of the RSP pipeline: dual issue of a scalar-unit (SU) and a
 * vector-unit (VU) instruction, register and load/store stalls, taken-branch
 * bubbles. Only timing lives here; rsp_step runs the instructions themselves
 * unchanged. The rules and their sources are listed in sim/README.md ("Cycle
 * model"); the comments below name the rule each piece implements. */
#include "rsp_internal.h"

#include <stdio.h>

enum {
    OP_VU = 1u << 0,         /* runs in the vector unit (COP2 with bit 25 set) */
    OP_LOAD = 1u << 1,       /* counts as a load for the load-then-store rule */
    OP_STORE = 1u << 2,      /* counts as a store for it */
    OP_BRANCH = 1u << 3,     /* has a delay slot */
    OP_VNOP_GROUP = 1u << 4, /* mtc2, ltv and vnop: see the false-conflict rule in can_pair */
    OP_COP_MOVE = 1u << 5,   /* mfc0/mfc2/cfc2 (for which stall counter their results feed) */
};

enum { VC_VCO = 1u << 0, VC_VCC = 1u << 1, VC_VCE = 1u << 2 };

enum stall_kind { KIND_VU_RESULT, KIND_VECTOR_LOAD, KIND_SCALAR_LOAD, KIND_COP_MOVE };

/* Latencies from issue to first use, in cycles: "VU register destination
 * writes 4 cycles later", "SU register load takes 3 cycles"; other SU results
 * are bypassed (available to the next instruction). */
#define VR_LATENCY 4u
#define GPR_LOAD_LATENCY 3u

static uint32_t bit(unsigned n) { return 1u << (n & 31u); }

/* ---- decoding ---- */

/* Operand pattern of each VU computational instruction, by funct. */
enum {
    V_DEF_VD = 1u << 0, V_USE_VS = 1u << 1, V_USE_VT = 1u << 2, V_FAKE_VS = 1u << 3, V_FAKE_VD = 1u << 4,
    V_VCO = 1u << 5, V_VCC = 1u << 6, V_VCE = 1u << 7, V_VNOP = 1u << 8,
};
#define V_STD (V_DEF_VD | V_USE_VS | V_USE_VT)
#define V_SELECT (V_STD | V_VCO | V_VCC)
#define V_CLIP (V_SELECT | V_VCE)
#define V_LANE (V_DEF_VD | V_USE_VT | V_FAKE_VS)

/* Reserved encodings write vd and read vs and vt (vector.c), so they are
 * treated as V_STD. VRNDP/VRNDN use the vs field as a flag; VMACQ and VSAR
 * read only the accumulator; VNULL (0x3F) touches nothing. */
static const uint16_t vu_operands[64] = {
    [0x00] = V_STD, [0x01] = V_STD, [0x02] = V_DEF_VD | V_USE_VT, [0x03] = V_STD,
    [0x04] = V_STD, [0x05] = V_STD, [0x06] = V_STD, [0x07] = V_STD,
    [0x08] = V_STD, [0x09] = V_STD, [0x0A] = V_DEF_VD | V_USE_VT, [0x0B] = V_DEF_VD,
    [0x0C] = V_STD, [0x0D] = V_STD, [0x0E] = V_STD, [0x0F] = V_STD,
    [0x10] = V_STD | V_VCO, [0x11] = V_STD | V_VCO, [0x12] = V_STD, [0x13] = V_STD | V_VCO,
    [0x14] = V_STD | V_VCO, [0x15] = V_STD | V_VCO, [0x16] = V_STD, [0x17] = V_STD,
    [0x18] = V_STD, [0x19] = V_STD, [0x1A] = V_STD, [0x1B] = V_STD,
    [0x1C] = V_STD, [0x1D] = V_DEF_VD, [0x1E] = V_STD, [0x1F] = V_STD,
    [0x20] = V_SELECT, [0x21] = V_SELECT, [0x22] = V_SELECT, [0x23] = V_SELECT,
    [0x24] = V_CLIP, [0x25] = V_CLIP, [0x26] = V_CLIP, [0x27] = V_SELECT,
    [0x28] = V_STD, [0x29] = V_STD, [0x2A] = V_STD, [0x2B] = V_STD,
    [0x2C] = V_STD, [0x2D] = V_STD, [0x2E] = V_STD, [0x2F] = V_STD,
    [0x30] = V_LANE, [0x31] = V_LANE, [0x32] = V_LANE, [0x33] = V_LANE,
    [0x34] = V_LANE, [0x35] = V_LANE, [0x36] = V_LANE, [0x37] = V_FAKE_VD | V_VNOP,
    [0x38] = V_STD, [0x39] = V_STD, [0x3A] = V_STD, [0x3B] = V_STD,
    [0x3C] = V_STD, [0x3D] = V_STD, [0x3E] = V_STD, [0x3F] = 0,
};

static void decode_vu(uint32_t instr, rsp_op_info_t *op)
{
    unsigned pattern = vu_operands[RSP_FUNCT(instr)];
    unsigned vd = RSP_SA(instr), vs = RSP_RD(instr), vt = RSP_RT(instr);
    op->flags = OP_VU | ((pattern & V_VNOP) ? OP_VNOP_GROUP : 0u);
    if (pattern & V_DEF_VD)
        op->vr_def |= bit(vd);
    if (pattern & V_USE_VS)
        op->vr_use |= bit(vs);
    if (pattern & V_USE_VT)
        op->vr_use |= bit(vt);
    if (pattern & V_FAKE_VS)
        op->vr_fake |= bit(vs);
    if (pattern & V_FAKE_VD)
        op->vr_fake |= bit(vd);
    uint8_t flags = (uint8_t)(((pattern & V_VCO) ? VC_VCO : 0u) | ((pattern & V_VCC) ? VC_VCC : 0u) |
                              ((pattern & V_VCE) ? VC_VCE : 0u));
    op->vc_use = op->vc_def = flags;
}

static uint8_t control_bit(unsigned reg)
{
    switch (reg & 3u) {
    case 0: return VC_VCO;
    case 1: return VC_VCC;
    default: return VC_VCE;
    }
}

static void decode_cop2_move(uint32_t instr, rsp_op_info_t *op)
{
    unsigned rt = RSP_RT(instr), vs = RSP_RD(instr);
    /* "Coprocessor moves (mtc0, mfc0, mtc2, mfc2, ctc2, cfc2) count as both
     * loads and stores." */
    switch (RSP_RS(instr)) {
    case 0x00: /* mfc2 */
        op->flags = OP_LOAD | OP_STORE | OP_COP_MOVE;
        op->gpr_late = bit(rt);
        op->vr_use = bit(vs);
        break;
    case 0x02: /* cfc2 */
        op->flags = OP_LOAD | OP_STORE | OP_COP_MOVE;
        op->gpr_late = bit(rt);
        op->vc_use = control_bit(vs);
        break;
    case 0x04: /* mtc2 */
        op->flags = OP_LOAD | OP_STORE | OP_VNOP_GROUP;
        op->gpr_use = bit(rt);
        op->vr_def = bit(vs);
        break;
    case 0x06: /* ctc2 */
        op->flags = OP_LOAD | OP_STORE;
        op->gpr_use = bit(rt);
        op->vc_def = control_bit(vs);
        break;
    default: break;
    }
}

static void decode_special(uint32_t instr, rsp_op_info_t *op)
{
    uint32_t rs = bit(RSP_RS(instr)), rt = bit(RSP_RT(instr));
    unsigned funct = RSP_FUNCT(instr);
    if (funct == 0x00 || funct == 0x02 || funct == 0x03) /* sll, srl, sra */
        op->gpr_use = rt;
    else if (funct == 0x04 || funct == 0x06 || funct == 0x07) /* sllv, srlv, srav */
        op->gpr_use = rs | rt;
    else if (funct == 0x08 || funct == 0x09) { /* jr, jalr */
        op->gpr_use = rs;
        op->flags = OP_BRANCH;
    } else if (funct == 0x0D) /* break: like a branch, it never leads a pair */
        op->flags = OP_BRANCH; else if (funct >= 0x20 && funct <= 0x2B && funct != 0x28 && funct != 0x29)
        op->gpr_use = rs | rt; /* add .. sltu */
}

static void decode(uint32_t instr, rsp_op_info_t *op)
{
    *op = (rsp_op_info_t){0};
    uint32_t rs = bit(RSP_RS(instr)), rt = bit(RSP_RT(instr));
    unsigned opcode = RSP_OPCODE(instr);
    switch (opcode) {
    case 0x00: decode_special(instr, op); break;
    case 0x01: /* bltz, bgez, bltzal, bgezal */
        if ((RSP_RT(instr) & 0x0Eu) == 0) {
            op->gpr_use = rs;
            op->flags = OP_BRANCH;
        }
        break;
    case 0x02:
    case 0x03: op->flags = OP_BRANCH; break; /* j, jal */
    case 0x04:
    case 0x05: /* beq, bne */
        op->gpr_use = rs | rt;
        op->flags = OP_BRANCH;
        break;
    case 0x06:
    case 0x07: /* blez, bgtz */
        op->gpr_use = rs;
        op->flags = OP_BRANCH;
        break;
    case 0x08: case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x0E: /* addi .. xori */
        op->gpr_use = rs;
        break;
    case 0x10: /* mfc0, mtc0 */
        if (RSP_RS(instr) == 0x00) {
            op->flags = OP_LOAD | OP_STORE | OP_COP_MOVE;
            op->gpr_late = rt;
        } else if (RSP_RS(instr) == 0x04) {
            op->flags = OP_LOAD | OP_STORE;
            op->gpr_use = rt;
        }
        break;
    case 0x12:
        if (instr & (1u << 25))
            decode_vu(instr, op);
        else
            decode_cop2_move(instr, op);
        break;
    case 0x20: case 0x21: case 0x23: case 0x24: case 0x25: /* lb, lh, lw, lbu, lhu */
        op->flags = OP_LOAD;
        op->gpr_use = rs;
        op->gpr_late = rt;
        break;
    case 0x28: case 0x29: case 0x2B: /* sb, sh, sw */
        op->flags = OP_STORE;
        op->gpr_use = rs | rt;
        break;
    case 0x32:   /* LWC2: lbv .. ltv, SU instructions writing a vector register */
    case 0x3A: { /* SWC2: sbv .. stv, SU instructions reading one */
        unsigned kind = RSP_RD(instr), vt = RSP_RT(instr);
        if (kind > 0x0Bu)
            break;
        /* ltv/stv reach the whole group of eight registers holding vt. */
        uint32_t regs = kind == 0x0Bu ? 0xFFu << (vt & ~7u) : bit(vt);
        op->gpr_use = rs;
        if (opcode == 0x32) {
            op->flags = OP_LOAD | (kind == 0x0Bu ? OP_VNOP_GROUP : 0u);
            op->vr_def = regs;
        } else {
            op->flags = OP_STORE;
            op->vr_use = regs;
        }
        break;
    }
    default: break; /* lui, break, reserved: no operands that matter */
    }
    op->gpr_use &= ~1u; /* r0 never waits */
    op->gpr_late &= ~1u;
}

static inline const rsp_op_info_t *lookup(rsp_t *rsp, uint32_t pc, uint32_t instr)
{
    unsigned slot = (pc & RSP_MEM_MASK) >> 2;
    rsp_timing_t *t = &rsp->timing;
    if (t->decoded_word[slot] != instr) {
        decode(instr, &t->decoded[slot]);
        t->decoded_word[slot] = instr;
    }
    return &t->decoded[slot];
}

void rsp_timing_init(rsp_t *rsp)
{
    rsp_op_info_t nop;
    decode(0, &nop);
    for (unsigned i = 0; i < RSP_MEM_SIZE / 4; i++) {
        rsp->timing.decoded_word[i] = 0;
        rsp->timing.decoded[i] = nop;
    }
}

/* ---- issue ---- */

/* Dual issue: one SU and one VU instruction, in either order, when the second
 * neither reads nor writes a vector register or VCO/VCC/VCE written by the
 * first. VRCP..VRSQH and VMOV also conflict through their unused vs field,
 * and VNOP through its vd field, the latter only after mtc2 or ltv. */
static bool can_pair(const rsp_op_info_t *first, const rsp_op_info_t *second)
{
    if (((first->flags ^ second->flags) & OP_VU) == 0)
        return false;
    if (first->vr_def & (second->vr_use | second->vr_def))
        return false;
    if (first->vc_def & (second->vc_use | second->vc_def))
        return false;
    bool fake_counts = (first->flags & OP_VNOP_GROUP) || !(second->flags & OP_VNOP_GROUP);
    return !(fake_counts && (first->vr_def & second->vr_fake));
}

static unsigned lowest_bit(uint32_t mask)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctz(mask);
#else
    unsigned n = 0;
    while (!(mask & 1u)) {
        mask >>= 1;
        n++;
    }
    return n;
#endif
}

static void add_stall(rsp_cycle_stats_t *stats, unsigned kind, uint64_t cycles)
{
    switch (kind) {
    case KIND_VU_RESULT: stats->stall_vu_result += cycles; break;
    case KIND_VECTOR_LOAD: stats->stall_vector_load += cycles; break;
    case KIND_SCALAR_LOAD: stats->stall_scalar_load += cycles; break;
    default: stats->stall_cop_move += cycles; break;
    }
}

/* Whether a group holding a load issued in cycle `cycle_plus_one` - 1. */
static bool load_issued_at(const rsp_timing_t *t, uint64_t cycle_plus_one)
{
    return t->load_issue[0] == cycle_plus_one || t->load_issue[1] == cycle_plus_one;
}

/* Starts the issue group led by the instruction at pc: decides whether the
 * next instruction joins it, waits for its operands, books its results, and
 * moves the clock past it. */
bool rsp_timing_issue(rsp_t *rsp, uint32_t pc, uint32_t instr)
{
    rsp_timing_t *t = &rsp->timing;
    const rsp_op_info_t *first = lookup(rsp, pc, instr);
    rsp_op_info_t group = *first;
    uint32_t vu_def = (first->flags & OP_VU) ? first->vr_def : 0u; /* the rest come from LWC2 or mtc2 */

    /* Branches never lead a pair (the next instruction is their delay slot),
     * delay slots always issue alone, and so does a taken branch's target
     * when it is not 8-byte aligned. */
    bool single = t->single_next || t->delay_slot_next || (first->flags & OP_BRANCH);
    t->group_is_delay_slot = t->delay_slot_next;
    t->single_next = false;
    t->delay_slot_next = false;
    t->second_pending = false;
    if (!single) {
        uint32_t pc2 = (pc + 4) & RSP_MEM_MASK;
        uint32_t instr2 = ((uint32_t)rsp->imem[pc2] << 24) | ((uint32_t)rsp->imem[pc2 + 1] << 16) |
                          ((uint32_t)rsp->imem[pc2 + 2] << 8) | rsp->imem[pc2 + 3];
        const rsp_op_info_t *second = lookup(rsp, pc2, instr2);
        if (can_pair(first, second)) {
            t->second_pending = true;
            t->second_is_branch = (second->flags & OP_BRANCH) != 0;
            group.gpr_use |= second->gpr_use;
            group.gpr_late |= second->gpr_late;
            group.vr_use |= second->vr_use;
            group.vr_def |= second->vr_def;
            group.flags |= second->flags & (OP_LOAD | OP_STORE | OP_COP_MOVE);
            if (second->flags & OP_VU)
                vu_def |= second->vr_def;
            rsp->stats.dual_issues++;
        }
    }

    /* Register hazards: the group waits until every register it reads is ready. */
    uint64_t now = rsp->cycles, issue = now;
    unsigned kind = KIND_VU_RESULT;
    for (uint32_t m = group.gpr_use; m; m &= m - 1) {
        unsigned r = lowest_bit(m);
        if (t->gpr_ready[r] > issue) {
            issue = t->gpr_ready[r];
            kind = t->gpr_kind[r];
        }
    }
    for (uint32_t m = group.vr_use; m; m &= m - 1) {
        unsigned r = lowest_bit(m);
        if (t->vr_ready[r] > issue) {
            issue = t->vr_ready[r];
            kind = t->vr_kind[r];
        }
    }
    if (issue > now)
        add_stall(&rsp->stats, kind, issue - now);
    /* "Any load followed by any store 2 cycles later causes a one cycle bubble." */
    if (group.flags & OP_STORE) {
        while (issue >= 2 && load_issued_at(t, issue - 1)) {
            issue++;
            rsp->stats.stall_load_store++;
        }
    }

    /* Results: late GPRs and every vector register get their latency. */
    unsigned gpr_kind = (group.flags & OP_COP_MOVE) ? KIND_COP_MOVE : KIND_SCALAR_LOAD;
    for (uint32_t m = group.gpr_late; m; m &= m - 1) {
        unsigned r = lowest_bit(m);
        t->gpr_ready[r] = issue + GPR_LOAD_LATENCY;
        t->gpr_kind[r] = (uint8_t)gpr_kind;
    }
    for (uint32_t m = group.vr_def; m; m &= m - 1) {
        unsigned r = lowest_bit(m);
        t->vr_ready[r] = issue + VR_LATENCY;
        t->vr_kind[r] = (uint8_t)((vu_def & bit(r)) ? KIND_VU_RESULT : KIND_VECTOR_LOAD);
    }
    if (group.flags & OP_LOAD) {
        t->load_issue[1] = t->load_issue[0];
        t->load_issue[0] = issue + 1;
    }

    rsp->stats.issue_cycles++;
    t->group_cycle = issue;
    if (rsp->dma_busy && rsp->dma_row_done <= issue)
        rsp_dma_advance(rsp, issue);
    rsp->cycles = issue + 1;
    return (first->flags & OP_BRANCH) != 0;
}

/* After an instruction ran (is_branch: it was a branch or jump): branch
 * bookkeeping. "Taken branch causes a 1 cycle bubble", counted after the
 * delay slot. */
void rsp_timing_retire(rsp_t *rsp, bool is_branch)
{
    rsp_timing_t *t = &rsp->timing;
    if (t->group_is_delay_slot) {
        t->group_is_delay_slot = false;
        if (t->delay_slot_taken) {
            rsp->cycles++;
            rsp->stats.branch_bubbles++;
            if (rsp->pc & 4u)
                t->single_next = true;
        }
    }
    if (is_branch) {
        t->delay_slot_next = true;
        t->delay_slot_taken = t->branch_taken;
    }
    t->branch_taken = false;
}

/* ---- host side ---- */

uint64_t rsp_cycle_stats_total(const rsp_cycle_stats_t *s)
{
    return s->issue_cycles + s->stall_vu_result + s->stall_vector_load + s->stall_scalar_load + s->stall_cop_move +
           s->stall_load_store + s->branch_bubbles + s->idle_cycles;
}

int rsp_format_cycle_stats(const rsp_t *rsp, char *buffer, size_t size)
{
    const rsp_cycle_stats_t *s = &rsp->stats;
    return snprintf(buffer, size,
                    "%llu cycles, %llu instructions (%llu pairs): issue %llu, stalls vu %llu vload %llu "
                    "sload %llu move %llu ld/st %llu, branch %llu, idle %llu; dma %llu transfers "
                    "(%llu B in, %llu B out), polling %llu",
                    (unsigned long long)rsp->cycles, (unsigned long long)rsp->instructions,
                    (unsigned long long)s->dual_issues, (unsigned long long)s->issue_cycles,
                    (unsigned long long)s->stall_vu_result, (unsigned long long)s->stall_vector_load,
                    (unsigned long long)s->stall_scalar_load, (unsigned long long)s->stall_cop_move,
                    (unsigned long long)s->stall_load_store, (unsigned long long)s->branch_bubbles,
                    (unsigned long long)s->idle_cycles, (unsigned long long)s->dma_transfers,
                    (unsigned long long)s->dma_bytes_to_sp, (unsigned long long)s->dma_bytes_to_rdram,
                    (unsigned long long)s->dma_wait_cycles);
}
