/* A renderer task on the host: the microcode on the RSP interpreter
 * (n64/sim), every RDP command list it hands over run at once by the
 * software RDP (n64/rdp), as the console's RDP would. */
#ifndef N64_EMU_H
#define N64_EMU_H

#include "../rdp/rdp.h"
#include "../sim/rsp.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The renderer microcode's images (n64/rsp/render.S, built by make n64). */
typedef struct emu_microcode {
    const uint8_t *imem, *dmem, *cold, *clip;
    size_t imem_size, dmem_size, cold_size, clip_size;
} emu_microcode_t;

/* The microcode built into this program (build/gen/render_ucode.c). */
extern const emu_microcode_t emu_render_microcode;

typedef struct emu {
    rsp_t *rsp;
    rdp_t *rdp;
    uint8_t *rdram;
    uint32_t rdram_size;
    /* NULL (as emu_open leaves it), or EMU_PROFILE_WORDS counters: emu_run adds each instruction's
     * modelled cycles to the one of its IMEM word (make n64-profile) */
    uint64_t *profile;
} emu_t;

#define EMU_PROFILE_WORDS 1024u

typedef struct emu_result {
    bool finished;          /* the microcode reached its END (else it ran out of cycles) */
    uint32_t error_word;    /* ST_ERROR: 0, or the first word of a command it refused */
    uint32_t drawn, rejected, clipped; /* triangles (ST_STATS) */
    uint64_t rsp_cycles;
    uint64_t rsp_instructions;
    uint64_t rdp_command_bytes;
} emu_result_t;

/* Zeroed RDRAM of `rdram_size` bytes, an RSP and an RDP; false if out of memory. */
bool emu_open(emu_t *e, uint32_t rdram_size);
void emu_close(emu_t *e);

/* Runs the command list at `cmdlist` with the microcode `mc`, whose overlay
 * images are already in RDRAM at `cold_addr` and `clip_addr`. Stops at END or
 * after `max_cycles` RSP cycles. */
void emu_run(emu_t *e, const emu_microcode_t *mc, uint32_t cmdlist, uint32_t cold_addr, uint32_t clip_addr,
             uint64_t max_cycles, emu_result_t *out);

#endif
