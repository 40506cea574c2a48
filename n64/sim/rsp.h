/* Public API of the host interpreter of the N64 RSP (Reality Signal Processor).
 *
 * The whole machine state is a plain struct so that tests and tools can look
 * at (and set up) registers directly. DMEM and IMEM are byte arrays holding
 * big-endian data exactly as on hardware; every access to them goes through
 * byte-wise helpers, so the interpreter behaves the same on any host. */
#ifndef N64_RSP_H
#define N64_RSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RSP_MEM_SIZE 0x1000u
#define RSP_MEM_MASK 0xFFFu

/* COP0 register numbers, as used by mfc0/mtc0 (and by the host CPU, which
 * sees the same registers at 0x04040000 + 4*n and 0x04100000 + 4*(n-8)). */
enum rsp_cop0_reg {
    RSP_C0_SP_MEM_ADDR = 0,
    RSP_C0_SP_DRAM_ADDR = 1,
    RSP_C0_SP_RD_LEN = 2,
    RSP_C0_SP_WR_LEN = 3,
    RSP_C0_SP_STATUS = 4,
    RSP_C0_SP_DMA_FULL = 5,
    RSP_C0_SP_DMA_BUSY = 6,
    RSP_C0_SP_SEMAPHORE = 7,
    RSP_C0_DPC_START = 8,
    RSP_C0_DPC_END = 9,
    RSP_C0_DPC_CURRENT = 10,
    RSP_C0_DPC_STATUS = 11,
    RSP_C0_DPC_CLOCK = 12,
    RSP_C0_DPC_BUFBUSY = 13,
    RSP_C0_DPC_PIPEBUSY = 14,
    RSP_C0_DPC_TMEM = 15,
};

/* SP_MEM_ADDR bit 12 selects IMEM instead of DMEM. */
#define RSP_MEM_ADDR_IMEM 0x1000u

/* SP_STATUS as read. */
#define RSP_STATUS_HALT (1u << 0)
#define RSP_STATUS_BROKE (1u << 1)
#define RSP_STATUS_DMA_BUSY (1u << 2)
#define RSP_STATUS_DMA_FULL (1u << 3)
#define RSP_STATUS_IO_FULL (1u << 4)
#define RSP_STATUS_SSTEP (1u << 5)
#define RSP_STATUS_INTR_BREAK (1u << 6)
#define RSP_STATUS_SIGNAL(n) (1u << (7 + (n)))

/* SP_STATUS as written: pairs of clear/set request bits. */
#define RSP_STATUS_W_CLEAR_HALT (1u << 0)
#define RSP_STATUS_W_SET_HALT (1u << 1)
#define RSP_STATUS_W_CLEAR_BROKE (1u << 2)
#define RSP_STATUS_W_CLEAR_INTR (1u << 3)
#define RSP_STATUS_W_SET_INTR (1u << 4)
#define RSP_STATUS_W_CLEAR_SSTEP (1u << 5)
#define RSP_STATUS_W_SET_SSTEP (1u << 6)
#define RSP_STATUS_W_CLEAR_INTR_BREAK (1u << 7)
#define RSP_STATUS_W_SET_INTR_BREAK (1u << 8)
#define RSP_STATUS_W_CLEAR_SIGNAL(n) (1u << (9 + 2 * (n)))
#define RSP_STATUS_W_SET_SIGNAL(n) (1u << (10 + 2 * (n)))

/* DPC_STATUS as read (the subset this model keeps). */
#define RSP_DPC_STATUS_XBUS_DMEM (1u << 0)
#define RSP_DPC_STATUS_FREEZE (1u << 1)
#define RSP_DPC_STATUS_FLUSH (1u << 2)
#define RSP_DPC_STATUS_CBUF_READY (1u << 7)

/* DPC_STATUS as written. */
#define RSP_DPC_STATUS_W_CLEAR_XBUS (1u << 0)
#define RSP_DPC_STATUS_W_SET_XBUS (1u << 1)
#define RSP_DPC_STATUS_W_CLEAR_FREEZE (1u << 2)
#define RSP_DPC_STATUS_W_SET_FREEZE (1u << 3)
#define RSP_DPC_STATUS_W_CLEAR_FLUSH (1u << 4)
#define RSP_DPC_STATUS_W_SET_FLUSH (1u << 5)

/* Cost of one SP DMA row in RSP cycles (sim/README.md, "Cycle model"): a
 * setup time, then NUM/DEN cycles per 8 bytes (16/11, about 1.45: 3.7 bytes
 * per 93.75 MHz CPU cycle). */
#define RSP_DMA_SETUP_FROM_RDRAM 12u
#define RSP_DMA_SETUP_TO_RDRAM 6u
#define RSP_DMA_CYCLES_PER_8_BYTES_NUM 16u
#define RSP_DMA_CYCLES_PER_8_BYTES_DEN 11u

/* How many RDP command ranges are kept until the host drains them. */
#define RSP_DP_RANGE_CAPACITY 64u

/* One RDP command list handed over through DPC_START/DPC_END: the bytes in
 * [start, end) of DMEM (in_dmem, "XBUS" mode) or of RDRAM. */
typedef struct rsp_dp_range {
    uint32_t start;
    uint32_t end;
    bool in_dmem;
} rsp_dp_range_t;

/* Time lost or gained per cause, kept by the cycle model (sim/README.md,
 * "Cycle model"). Every modelled cycle is counted exactly once in
 *   cycles == issue_cycles + stall_* + branch_bubbles + idle_cycles
 * (rsp_cycle_stats_total); dma_wait_cycles is a part of issue_cycles and the
 * stalls (the cycles a DMA_BUSY/DMA_FULL polling loop spent), not a term. */
typedef struct rsp_cycle_stats {
    uint64_t issue_cycles;       /* cycles that issued one instruction or a pair */
    uint64_t dual_issues;        /* of those, cycles that issued a scalar + vector pair */
    uint64_t stall_vu_result;    /* waiting for a vector register written by a VU instruction */
    uint64_t stall_vector_load;  /* waiting for a vector register written by LWC2 or mtc2 */
    uint64_t stall_scalar_load;  /* waiting for a GPR written by lb/lh/lw/lbu/lhu */
    uint64_t stall_cop_move;     /* waiting for a GPR written by mfc0/mfc2/cfc2 */
    uint64_t stall_load_store;   /* a store issued two cycles after a load */
    uint64_t branch_bubbles;     /* one per taken branch or jump */
    uint64_t idle_cycles;        /* time the host let pass with rsp_idle* */
    uint64_t dma_wait_cycles;    /* microcode polling DMA_BUSY/DMA_FULL while it read 1 */
    uint64_t dma_transfers;      /* transfers started (one per write of SP_RD_LEN/SP_WR_LEN) */
    uint64_t dma_bytes_to_sp;    /* RDRAM -> IMEM/DMEM bytes completed */
    uint64_t dma_bytes_to_rdram; /* IMEM/DMEM -> RDRAM bytes completed */
} rsp_cycle_stats_t;

/* What the timing model needs to know about one instruction word (built by
 * timing.c; part of rsp_t only so that the machine needs no allocation). */
typedef struct rsp_op_info {
    uint32_t gpr_use;  /* GPRs read (r0 left out) */
    uint32_t gpr_late; /* GPRs written with a load latency: loads, mfc0, mfc2, cfc2 */
    uint32_t vr_use;   /* vector registers read */
    uint32_t vr_def;   /* vector registers written */
    uint32_t vr_fake;  /* fields that block dual issue although nothing is read */
    uint8_t vc_use;    /* VCO, VCC, VCE read (bits 0..2) */
    uint8_t vc_def;    /* VCO, VCC, VCE written */
    uint8_t flags;     /* RSP_OP_* in timing.c */
} rsp_op_info_t;

/* Pipeline and DMA state of the cycle model. Internal: read rsp->cycles,
 * rsp->instructions and rsp->stats instead. */
typedef struct rsp_timing {
    uint64_t gpr_ready[32]; /* first cycle an instruction may read the GPR */
    uint64_t vr_ready[32];
    uint8_t gpr_kind[32];   /* which stall counter a wait for it feeds */
    uint8_t vr_kind[32];
    uint64_t load_issue[2]; /* issue cycle + 1 of the last two groups holding a load (0: none) */
    uint64_t group_cycle;   /* issue cycle of the group being executed */
    bool second_pending;    /* the next instruction was dual-issued with the previous one */
    bool second_is_branch;  /* ... and is a branch */
    bool branch_taken;      /* set by the scalar unit when a branch or jump redirects */
    bool delay_slot_next;   /* the next instruction is a branch delay slot */
    bool delay_slot_taken;  /* ... of a taken branch */
    bool single_next;       /* the next instruction issues alone (unaligned branch target) */
    bool group_is_delay_slot;
    bool dma_polling;       /* a DMA_BUSY/DMA_FULL read returned 1 and no 0 since */
    uint64_t dma_poll_start;
    uint32_t decoded_word[RSP_MEM_SIZE / 4]; /* decode cache, one entry per IMEM word */
    rsp_op_info_t decoded[RSP_MEM_SIZE / 4];
} rsp_timing_t;

/* One SP DMA transfer: the address registers and the length register
 * (length - 1 in bits 11..0, row count - 1 in 19..12, skip in 31..20). */
typedef struct rsp_dma_transfer {
    uint32_t mem_addr; /* bit 12 selects IMEM */
    uint32_t dram_addr;
    uint32_t length;
    bool to_rdram;
} rsp_dma_transfer_t;

typedef struct rsp {
    uint8_t dmem[RSP_MEM_SIZE];
    uint8_t imem[RSP_MEM_SIZE];

    /* Scalar unit. pc is the instruction about to execute, next_pc the one
     * after it (different from pc + 4 while a branch delay slot is pending). */
    uint32_t gpr[32];
    uint32_t pc;
    uint32_t next_pc;

    /* Vector unit: lane 0 is the most significant (first in memory). */
    uint16_t vr[32][8];
    uint16_t acc_hi[8]; /* accumulator bits 47..32 */
    uint16_t acc_md[8]; /* accumulator bits 31..16 */
    uint16_t acc_lo[8]; /* accumulator bits 15..0 */
    uint8_t vco_lo, vco_hi; /* carry / not-equal; bit n = lane n */
    uint8_t vcc_lo, vcc_hi; /* compare codes */
    uint8_t vce;            /* compare extension */
    uint16_t div_in;
    uint16_t div_out;
    bool div_in_loaded; /* a VRCPH/VRSQH supplied the high half for VRCPL/VRSQL */

    /* Reciprocal and inverse square root ROMs, generated by rsp_init. */
    uint16_t rcp_rom[512];
    uint16_t rsq_rom[512];

    /* COP0: SP interface. The DMA registers are double-buffered as on
     * hardware: mtc0 writes sp_mem_addr/sp_dram_addr and a length register
     * fills dma_pending; reads show dma_current, the transfer in flight (or
     * the last one, its addresses left past its end). */
    uint32_t sp_mem_addr;
    uint32_t sp_dram_addr;
    rsp_dma_transfer_t dma_current;
    rsp_dma_transfer_t dma_pending;
    bool dma_busy;          /* dma_current is in flight */
    bool dma_full;          /* dma_pending waits for it */
    uint32_t dma_rows_left; /* rows of dma_current not yet copied */
    uint64_t dma_row_done;  /* cycle at which its next row lands */
    uint32_t sp_status;
    uint32_t sp_semaphore;
    bool sp_interrupt; /* the SP line of the MIPS interface is raised */

    /* COP0: DP command interface. */
    uint32_t dpc_start;
    uint32_t dpc_end;
    uint32_t dpc_current;
    uint32_t dpc_status;
    /* When set, every command list handed over is passed to dp_submit at once
     * (a software RDP can run it there, as the real RDP would) instead of
     * being queued in dp_ranges. */
    void (*dp_submit)(void *ctx, const rsp_dp_range_t *range);
    void *dp_ctx;
    rsp_dp_range_t dp_ranges[RSP_DP_RANGE_CAPACITY];
    size_t dp_range_count;
    size_t dp_ranges_dropped; /* ranges lost because the list was full */

    /* Main memory seen by DMA; owned by the caller, may be NULL. */
    uint8_t *rdram;
    size_t rdram_size;

    /* Cycle model (sim/README.md, "Cycle model"): modelled RSP clock cycles
     * at 62.5 MHz, instructions executed, and where the cycles went. */
    uint64_t cycles;
    uint64_t instructions;
    rsp_cycle_stats_t stats;
    rsp_timing_t timing;
} rsp_t;

typedef enum rsp_stop_reason {
    RSP_STOP_BREAK,       /* executed a break instruction */
    RSP_STOP_HALTED,      /* SP_STATUS.HALT set (by mtc0 or before the call) */
    RSP_STOP_CYCLE_LIMIT, /* max_cycles modelled cycles passed without stopping */
} rsp_stop_reason_t;

/* Power-on state: everything zero, halted, ROM tables generated. */
void rsp_init(rsp_t *rsp, uint8_t *rdram, size_t rdram_size);

/* Sets the PC and releases HALT and BROKE, as the host CPU does to start a task. */
void rsp_start(rsp_t *rsp, uint32_t pc);

/* Runs until break, halt, or until max_cycles modelled cycles (rsp->cycles,
 * stalls and bubbles included) have passed since the call. The limit is
 * checked between instructions, so the run can end a few cycles past it (one
 * issue group with its stalls and branch bubble). */
rsp_stop_reason_t rsp_run(rsp_t *rsp, uint64_t max_cycles);

/* Executes exactly one instruction (ignores HALT) and advances the clock:
 * the first instruction of an issue group carries the group's stalls and
 * cycle; the second of a dual-issued pair costs nothing more. */
void rsp_step(rsp_t *rsp);

/* Lets `cycles` cycles pass without executing anything (the RSP halted, the
 * host busy elsewhere): DMA transfers progress. Counted in stats.idle_cycles. */
void rsp_idle(rsp_t *rsp, uint64_t cycles);

/* Lets time pass until no DMA transfer is in flight or pending; returns the
 * cycles that passed (0 if the DMA engine was idle). For the host, e.g. after
 * a task's break when the microcode did not wait for its last write-back. */
uint64_t rsp_idle_until_dma_done(rsp_t *rsp);

/* Sum of the terms that make up rsp->cycles (equal to it; see rsp_cycle_stats_t). */
uint64_t rsp_cycle_stats_total(const rsp_cycle_stats_t *stats);

/* One-line breakdown of rsp->cycles, rsp->instructions and rsp->stats for
 * benchmarks; returns what snprintf returns. */
int rsp_format_cycle_stats(const rsp_t *rsp, char *buffer, size_t size);

/* COP0 register access, shared by mfc0/mtc0 and the host side. The host sees
 * the DMA engine as it is at rsp->cycles (DMA_BUSY stays 1 until time passes:
 * rsp_run, rsp_idle, rsp_idle_until_dma_done). */
uint32_t rsp_cop0_read(rsp_t *rsp, unsigned reg);
void rsp_cop0_write(rsp_t *rsp, unsigned reg, uint32_t value);

/* Copies bytes into IMEM/DMEM at offset, wrapping at 4 KiB. */
void rsp_load_imem(rsp_t *rsp, uint32_t offset, const uint8_t *data, size_t size);
void rsp_load_dmem(rsp_t *rsp, uint32_t offset, const uint8_t *data, size_t size);

/* Big-endian DMEM access, wrapping at 4 KiB, for hosts and tests. */
uint8_t rsp_dmem_read8(const rsp_t *rsp, uint32_t addr);
uint16_t rsp_dmem_read16(const rsp_t *rsp, uint32_t addr);
uint32_t rsp_dmem_read32(const rsp_t *rsp, uint32_t addr);
void rsp_dmem_write8(rsp_t *rsp, uint32_t addr, uint8_t value);
void rsp_dmem_write16(rsp_t *rsp, uint32_t addr, uint16_t value);
void rsp_dmem_write32(rsp_t *rsp, uint32_t addr, uint32_t value);

/* Removes and returns the oldest recorded RDP command range; false if none. */
bool rsp_dp_pop_range(rsp_t *rsp, rsp_dp_range_t *out);

#endif
