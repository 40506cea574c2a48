/* Running the renderer microcode on the console's RSP: the images loaded into
 * IMEM and DMEM by SP DMA, the task's three start words written into DMEM
 * (n64/rsp/README.md, "Starting a task"), the RSP started at 0 and timed with
 * the CPU's COUNT register until it halts, then the RDP waited for. */
#ifndef N64_ROM_RSP_TASK_H
#define N64_ROM_RSP_TASK_H

#include <stdbool.h>
#include <stdint.h>

/* COUNT ticks at half the VR4300's 93.75 MHz; the RSP runs at 62.5 MHz. */
#define COUNT_HZ 46875000u
#define RSP_HZ 62500000u

typedef struct rsp_task {
    uint32_t imem, imem_size, dmem, dmem_size; /* RDRAM addresses (8-byte aligned) and sizes */
    uint32_t cmdlist, cold, clip;              /* the start words */
} rsp_task_t;

typedef struct rsp_task_result {
    bool finished;       /* the RSP reached its break in time */
    bool rdp_idle;       /* the RDP ran everything it was given in time */
    uint32_t rsp_ticks;  /* COUNT ticks from the start to the halt */
    uint32_t rdp_ticks;  /* COUNT ticks from the halt until the RDP was idle */
    uint32_t error_word; /* ST_ERROR */
    uint32_t drawn, rejected, clipped; /* ST_STATS */
} rsp_task_result_t;

/* Copies `size` bytes from RDRAM address `rdram` to SP memory (IMEM when
 * `imem`) by DMA and waits for it. */
void sp_dma_load(bool imem, uint32_t sp_offset, uint32_t rdram, uint32_t size);

/* Runs the task; gives up on the RSP (or the RDP) after `timeout_ticks`. */
void rsp_task_run(const rsp_task_t *t, uint32_t timeout_ticks, rsp_task_result_t *out);

/* RSP cycles in `ticks` COUNT ticks (62.5 / 46.875 = 4/3). */
uint64_t rsp_cycles_of_ticks(uint32_t ticks);

#endif
