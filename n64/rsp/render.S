# render.S - the renderer microcode: draws Tiny3D models from a command list.
#
# The host (binform render, or the N64 CPU) writes a command list to RDRAM,
# puts its address at ST_CMDLIST and starts the RSP at IMEM 0. The microcode
# reads the list in blocks into DMEM and runs each command: matrices, lights,
# vertex loads straight from a T3DM vertex chunk (transform, light, clip codes,
# perspective divide, viewport), triangles by cache index (lists, strips and
# sequences as a T3DM part stores them), which it culls, clips and sets up
# into RDP triangle commands. RDP commands are gathered in two DMEM halves and
# sent by DMA to an RDRAM buffer; DPC_END follows each completed transfer.
# n64/rsp/README.md documents the commands, the blocks and DMEM.
#
# Scalar registers kept across commands:
#   s0  next command in CMDBUF       s1  end of the valid bytes in CMDBUF
#   s2  RDRAM address of the next command block
#   s3  RDP output write pointer     s4  base of the current output half
#   s5  RDRAM output cursor          s6  end of what was sent (DPC_END once the DMA is done)
# The helpers (dma_in, out_flush) use k0, k1, at and $3 and nothing else.
# Vector register v0 is zero everywhere: vzero.
#
# Code that seldom runs lives in two overlays sharing the end of IMEM: the
# setup commands (render_cmds.inc, "cold") and the clipper (render_clip.inc);
# ovl_load brings in the one needed from the images the host put in RDRAM.

#include "rsp.inc"
#include "render_abi.h"

#define vzero $v0      /* zero in every lane, from the start on */

# Lanes of CV_K (vertex scalars).
.set K_ONE, E_0        # 1
.set K_WNORM, E_1      # FR_WNORM (u0.16)
.set K_WSCALE, E_2     # FR_WSCALE
.set K_MTWO, E_4       # -2
                       # lanes 3 and 7 hold 2, so that "vs = CV_K" is 2 there
# Lanes of CV_T (triangle scalars).
.set T_SHIFT7, E_0     # 512: (c << 7) * 512 >> 16 = c
.set T_QUARTER, E_1    # 16384: quarter pixels to s15.16 pixels
.set T_EIGHT, E_2      # 8
.set T_ONE, E_3        # 1

.set OUT_TOGGLE, DM_OUTBUF ^ (DM_OUTBUF + OUTBUF_SIZE)

# command OPCODE, HANDLER[, cold]: declares the handler of command OPCODE, in opcode order, as
# the DM_COMMANDS entry the command loop dispatches through: HANDLER's IMEM address, or, for a
# handler in the cold overlay (render_cmds.inc), bit 15 set and its offset in the overlay.
.set COLD, 0x8000
.set _commands, 0
.macro command opcode, handler, overlay=hot
    .if \opcode != _commands
        .error "commands are declared in opcode order, one each"
    .endif
    .set _commands, _commands + 1
    .ifc \overlay, cold
        .half COLD + \handler - ovl_cold_begin
    .else
        .half \handler - render_start
    .endif
.endm

    .data
    .space DM_CONST                 # matrices, FRAME, LIGHTS, state: zero until set
    .half 1, 32, 2048, 0, 1, 32, 2048, 0                            # CV_NSHIFT
    .half 0xF800, 0xFC00, 0xF800, 0, 0xF800, 0xFC00, 0xF800, 0      # CV_NMASK
    .half 1, 0, 0, 2, -2, 0, 0, 2                                   # CV_K
    .half 2, 2, 1, 1, 2, 2, 1, 1                                    # CV_GUARD
    .half 512, 16384, 8, 1, 0, 0, 0, 0                              # CV_T
    .space DM_COMMANDS - (CV_T + 16)
    # The command handlers, by opcode (DM_COMMANDS): one `command` line each.
    command CMD_END,     cmd_end,     cold
    command CMD_NOP,     cmd_nop
    command CMD_FRAME,   cmd_frame,   cold
    command CMD_LIGHTS,  cmd_lights,  cold
    command CMD_VIEW,    cmd_view,    cold
    command CMD_MODEL,   cmd_model,   cold
    command CMD_VTX,     cmd_vtx
    command CMD_TRIS,    cmd_tris
    command CMD_STRIP,   cmd_strip
    command CMD_SEQ,     cmd_seq
    command CMD_RDP,     cmd_rdp,     cold
    command CMD_TRIMODE, cmd_trimode, cold
    .if _commands != CMD_COUNT
        .error "a command of render_abi.h has no `command` line"
    .endif
    .space 0x1000 - (DM_COMMANDS + 2 * CMD_COUNT)

    .text
    .globl render_start
render_start:
    vxor    vzero, vzero, vzero
    lw      $s2, ST_CMDLIST($zero)
    sw      $zero, ST_ERROR($zero)
    sw      $zero, ST_STATS + 0($zero)
    sw      $zero, ST_STATS + 4($zero)
    sw      $zero, ST_STATS + 8($zero)
    sb      $zero, OV_CURRENT($zero)    # no overlay in IMEM yet
    li      $s0, DM_CMDBUF
    li      $s1, DM_CMDBUF          # empty: the first command fetches a block
    li      $s4, DM_OUTBUF
    move    $s3, $s4
    lw      $s5, FR_OUT_START($zero)
    move    $s6, $s5

# ---- the command loop ----
next_command:
    bne     $s0, $s1, 1f
    nop
    jal     fetch_commands
    nop
1:  lw      $a0, 0($s0)
    lw      $a1, 4($s0)
    addiu   $s0, $s0, 8
dispatch:
    srl     $t0, $a0, 24
    sltiu   $t1, $t0, CMD_COUNT
    beqz    $t1, bad_command
    sll     $t0, $t0, 1
    lhu     $t0, DM_COMMANDS($t0)
    andi    $t1, $t0, 0x8000        # in the cold overlay?
    beqz    $t1, 2f
    xor     $t0, $t0, $t1
    jal     ovl_load
    li      $2, OV_COLD
    addiu   $t0, $t0, %lo(ovl_cold_begin)
2:  jr      $t0
    nop

# Reads the next block of the command list into CMDBUF. Clobbers t9.
fetch_commands:
    move    $t9, $ra
    li      $k0, DM_CMDBUF
    move    $k1, $s2
    jal     dma_in
    li      $at, CMDBUF_SIZE - 1
    addiu   $s2, $s2, CMDBUF_SIZE
    li      $s0, DM_CMDBUF
    jr      $t9
    li      $s1, DM_CMDBUF + CMDBUF_SIZE

# Stops (runs END), leaving the command's first word in ST_ERROR.
bad_command:
    sw      $a0, ST_ERROR($zero)
    j       dispatch
    li      $a0, CMD_END << 24

# ---- DMA ----
# dma_in: RDRAM k1 -> DMEM k0, at + 1 bytes (whole multiples of 8), and waits.
dma_in:
    mfc0    $3, $6                  # SP_DMA_BUSY: one transfer at a time
    bnez    $3, dma_in
    nop
    mtc0    $k0, $0                 # SP_MEM_ADDR
    mtc0    $k1, $1                 # SP_DRAM_ADDR
    mtc0    $at, $2                 # SP_RD_LEN: starts the transfer
dma_wait:
    mfc0    $3, $6
    bnez    $3, dma_wait
    nop
    jr      $ra
    nop

# ---- RDP output ----
# out_flush: sends the current half [s4, s3) to RDRAM at s5 by DMA (not waited
# for) and switches to the other half. Before that it waits for the previous
# transfer and lets the RDP run everything sent so far (DPC_END = s6). When the
# RDRAM buffer is full it waits for the RDP to finish and starts it over.
out_flush:
    subu    $at, $s3, $s4
    beqz    $at, 9f
    lw      $k1, FR_OUT_END($zero)
    addu    $k0, $s5, $at
    sltu    $k1, $k1, $k0           # past the end of the buffer?
1:  mfc0    $3, $6                  # the previous transfer is complete...
    bnez    $3, 1b
    nop
    bnez    $k1, out_wrap
    mtc0    $s6, $9                 # ...so the RDP may run it (DPC_END)
out_send:
    addiu   $k0, $at, -1            # (COP moves count as loads: no gap between them)
    mtc0    $s4, $0                 # SP_MEM_ADDR
    mtc0    $s5, $1                 # SP_DRAM_ADDR
    mtc0    $k0, $3                 # SP_WR_LEN: DMEM -> RDRAM
    addu    $s5, $s5, $at
    move    $s6, $s5
    xori    $s4, $s4, OUT_TOGGLE
    jr      $ra
    move    $s3, $s4
9:  jr      $ra
    nop
out_wrap:
    mfc0    $k0, $10                # DPC_CURRENT: wait for the RDP to catch up
    bne     $k0, $s6, out_wrap
    nop
    lw      $s5, FR_OUT_START($zero)
    mtc0    $s5, $8                 # DPC_START: the buffer starts over
    j       out_send
    move    $s6, $s5

cmd_nop:
    j       next_command
    nop

# ---- overlays ----
# ovl_load: makes overlay $2 (OV_COLD or OV_CLIP) resident: reads its image
# from RDRAM (the host's OV_RDRAM) into IMEM from ovl_cold_begin to the end.
# Uses k0, k1, at, $3, ra.
ovl_load:
    lbu     $3, OV_CURRENT($zero)
    beq     $3, $2, 1f
    sb      $2, OV_CURRENT($zero)
    sll     $3, $2, 2
    lw      $k1, OV_RDRAM - 4($3)
    li      $k0, %lo(ovl_cold_begin)
    li      $at, 0x1FFF
    j       dma_in
    subu    $at, $at, $k0
1:  jr      $ra
    nop

#include "render_vtx.inc"
#include "render_tri.inc"

    .section .ovl_cold, "ax"
#include "render_cmds.inc"
    .section .ovl_clip, "ax"
#include "render_clip.inc"

