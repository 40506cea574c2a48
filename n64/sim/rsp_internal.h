/* Helpers shared by the interpreter's translation units; not part of the API. */
#ifndef N64_RSP_INTERNAL_H
#define N64_RSP_INTERNAL_H

#include "rsp.h"

/* Instruction fields. */
#define RSP_OPCODE(i) (((i) >> 26) & 0x3Fu)
#define RSP_RS(i) (((i) >> 21) & 0x1Fu)
#define RSP_RT(i) (((i) >> 16) & 0x1Fu)
#define RSP_RD(i) (((i) >> 11) & 0x1Fu)
#define RSP_SA(i) (((i) >> 6) & 0x1Fu)
#define RSP_FUNCT(i) ((i) & 0x3Fu)
#define RSP_IMM16(i) ((i) & 0xFFFFu)

/* Two's-complement reinterpretations written without implementation-defined
 * conversions. */
static inline int32_t rsp_s16(uint16_t v) { return (int32_t)(v & 0x7FFFu) - (int32_t)(v & 0x8000u); }
static inline int32_t rsp_s8(uint8_t v) { return (int32_t)(v & 0x7Fu) - (int32_t)(v & 0x80u); }
static inline int64_t rsp_s32(uint32_t v) { return (int64_t)(v & 0x7FFFFFFFu) - (int64_t)(v & 0x80000000u); }
static inline uint32_t rsp_sext16(uint16_t v) { return (uint32_t)(int32_t)rsp_s16(v); }

/* Arithmetic shift right of a signed value, rounding toward minus infinity
 * (C leaves >> of negative numbers implementation-defined). */
static inline int64_t rsp_asr64(int64_t v, unsigned n)
{
    return v >= 0 ? v >> n : -((-(v + 1)) >> n) - 1;
}

static inline uint8_t rsp_dmem_byte(const rsp_t *rsp, uint32_t addr) { return rsp->dmem[addr & RSP_MEM_MASK]; }
static inline void rsp_dmem_set_byte(rsp_t *rsp, uint32_t addr, uint8_t v) { rsp->dmem[addr & RSP_MEM_MASK] = v; }

/* Byte i (0 = most significant) of vector register r, as the load/store unit sees it. */
static inline uint8_t rsp_vr_byte(const rsp_t *rsp, unsigned r, unsigned i)
{
    uint16_t lane = rsp->vr[r][(i >> 1) & 7u];
    return (i & 1u) ? (uint8_t)(lane & 0xFFu) : (uint8_t)(lane >> 8);
}

static inline void rsp_vr_set_byte(rsp_t *rsp, unsigned r, unsigned i, uint8_t v)
{
    uint16_t *lane = &rsp->vr[r][(i >> 1) & 7u];
    *lane = (i & 1u) ? (uint16_t)((*lane & 0xFF00u) | v) : (uint16_t)((*lane & 0x00FFu) | ((unsigned)v << 8));
}

/* Lane of vt read by lane `lane` under element selector e: 0-1 whole vector,
 * 2-3 pairs, 4-7 quads, 8-15 one lane broadcast. */
static inline unsigned rsp_element_lane(unsigned e, unsigned lane)
{
    if (e >= 8)
        return e & 7u;
    if (e >= 4)
        return (lane & ~3u) | (e & 3u);
    if (e >= 2)
        return (lane & ~1u) | (e & 1u);
    return lane;
}

void rsp_execute(rsp_t *rsp, uint32_t instr);
void rsp_cop0_execute(rsp_t *rsp, uint32_t instr);
void rsp_cop2_execute(rsp_t *rsp, uint32_t instr);
void rsp_vector_execute(rsp_t *rsp, uint32_t instr);
void rsp_vector_load(rsp_t *rsp, uint32_t instr);
void rsp_vector_store(rsp_t *rsp, uint32_t instr);
/* dma.c */
void rsp_dma_queue(rsp_t *rsp, bool to_rdram, uint32_t length, uint64_t now);
void rsp_dma_advance(rsp_t *rsp, uint64_t now);
uint32_t rsp_dma_length_register(const rsp_t *rsp);
uint64_t rsp_dma_done_cycle(const rsp_t *rsp);
uint64_t rsp_dma_row_cycles(bool to_rdram, uint32_t bytes);

/* timing.c */
void rsp_timing_init(rsp_t *rsp);
bool rsp_timing_issue(rsp_t *rsp, uint32_t pc, uint32_t instr);
void rsp_timing_retire(rsp_t *rsp, bool is_branch);
void rsp_tables_generate(uint16_t rcp_rom[512], uint16_t rsq_rom[512]);

#endif
