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
# Vector register v0 is zero everywhere.

    .include "rsp.inc"
    .include "render_abi.inc"

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

    .data
    .space DM_CONST                 # matrices, FRAME, LIGHTS, state: zero until set
    .half 1, 32, 2048, 0, 1, 32, 2048, 0                            # CV_NSHIFT
    .half 0xF800, 0xFC00, 0xF800, 0, 0xF800, 0xFC00, 0xF800, 0      # CV_NMASK
    .half 1, 0, 0, 2, -2, 0, 0, 2                                   # CV_K
    .half 2, 2, 1, 1, 2, 2, 1, 1                                    # CV_GUARD
    .half 512, 16384, 8, 1, 0, 0, 0, 0                              # CV_T
    .space DM_COMMANDS - (CV_T + 16)
    # IMEM addresses of the command handlers, by opcode (the RSP uses the low 12 bits).
    .half cmd_end - render_start, cmd_nop - render_start, cmd_frame - render_start
    .half cmd_lights - render_start, cmd_view - render_start, cmd_model - render_start
    .half cmd_vtx - render_start, cmd_tris - render_start, cmd_strip - render_start
    .half cmd_seq - render_start, cmd_rdp - render_start, cmd_trimode - render_start
    .space 0x1000 - (DM_COMMANDS + 2 * CMD_COUNT)

    .text
    .globl render_start
render_start:
    vxor    $v0, $v0, $v0
    lw      $s2, ST_CMDLIST($zero)
    sw      $zero, ST_ERROR($zero)
    sw      $zero, ST_STATS + 0($zero)
    sw      $zero, ST_STATS + 4($zero)
    sw      $zero, ST_STATS + 8($zero)
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
    srl     $t0, $a0, 24
    sltiu   $t1, $t0, CMD_COUNT
    beqz    $t1, bad_command
    sll     $t0, $t0, 1
    lhu     $t0, DM_COMMANDS($t0)
    jr      $t0
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

# Stops, leaving the command's first word in ST_ERROR.
bad_command:
    j       cmd_end
    sw      $a0, ST_ERROR($zero)

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
    nop
1:  mfc0    $3, $6                  # the previous transfer is complete...
    bnez    $3, 1b
    nop
    mtc0    $s6, $9                 # ...so the RDP may run it (DPC_END)
    lw      $k1, FR_OUT_END($zero)
    addu    $k0, $s5, $at
    sltu    $k1, $k1, $k0
    bnez    $k1, out_wrap
    nop
out_send:
    mtc0    $s4, $0                 # SP_MEM_ADDR
    mtc0    $s5, $1                 # SP_DRAM_ADDR
    addiu   $k0, $at, -1
    mtc0    $k0, $3                 # SP_WR_LEN: DMEM -> RDRAM
    addu    $s5, $s5, $at
    move    $s6, $s5
    xori    $s4, $s4, OUT_TOGGLE
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

# ---- commands ----
cmd_end:
    jal     out_flush
    nop
1:  mfc0    $3, $6
    bnez    $3, 1b
    nop
    mtc0    $s6, $9                 # DPC_END: the last block
    break

cmd_nop:
    j       next_command
    nop

# FRAME: viewport, W scaling, guard band and the RDP output buffer.
cmd_frame:
    li      $k0, DM_FRAME
    move    $k1, $a1
    jal     dma_in
    li      $at, 63
    lhu     $t0, FR_WNORM($zero)
    sh      $t0, CV_K + 2($zero)
    lhu     $t0, FR_WSCALE($zero)
    sh      $t0, CV_K + 4($zero)
    lhu     $t1, FR_GUARD_SHIFT($zero)
    li      $t0, 1
    sllv    $t0, $t0, $t1
    sh      $t0, CV_GUARD + 0($zero)
    sh      $t0, CV_GUARD + 2($zero)
    sh      $t0, CV_GUARD + 8($zero)
    sh      $t0, CV_GUARD + 10($zero)
    # a new output buffer: send what is pending, then start the RDP there
    jal     out_flush
    nop
1:  mfc0    $3, $6
    bnez    $3, 1b
    nop
    mtc0    $s6, $9
2:  mfc0    $t0, $10                # wait for the RDP before moving it
    bne     $t0, $s6, 2b
    nop
    lw      $s5, FR_OUT_START($zero)
    mtc0    $s5, $8                 # DPC_START
    j       next_command
    move    $s6, $s5

# LIGHTS: ambient and directional light colours. VIEW: the projection x view matrix.
cmd_lights:
    j       1f
    li      $k0, DM_LIGHTS
cmd_view:
    li      $k0, DM_VIEW
1:  move    $k1, $a1
    jal     dma_in
    li      $at, 63
    j       next_command
    nop

# TRIMODE: triangle command byte, culling, texture tile.
cmd_trimode:
    srl     $t0, $a0, 8
    andi    $t0, $t0, 0xFF
    sb      $t0, ST_TRICMD($zero)
    andi    $t0, $a0, 0xFF
    sb      $t0, ST_CULL($zero)
    andi    $t0, $a1, 7
    j       next_command
    sb      $t0, ST_TILE($zero)

# RDP: copies the n command words that follow into the RDP output.
cmd_rdp:
    andi    $t8, $a0, 0xFFFF
1:  beqz    $t8, next_command
    nop
    bne     $s0, $s1, 2f
    nop
    jal     fetch_commands
    nop
2:  addiu   $t0, $s3, 8
    subu    $t0, $t0, $s4
    sltiu   $t0, $t0, OUTBUF_SIZE + 1
    bnez    $t0, 3f
    nop
    jal     out_flush
    nop
3:  lw      $t0, 0($s0)
    lw      $t1, 4($s0)
    sw      $t0, 0($s3)
    sw      $t1, 4($s3)
    addiu   $s0, $s0, 8
    addiu   $s3, $s3, 8
    j       1b
    addiu   $t8, $t8, -1

# MODEL: a model matrix M (s16.16, as VIEW) followed by the light directions
# in its object space (LD_X, LD_Y, LD_Z: 24 bytes). Computes MVP = VIEW x M,
# column by column; each product term is built from the four 16x16 partial
# products in the accumulator.
cmd_model:
    li      $k0, DM_CLIP
    move    $k1, $a1
    jal     dma_in
    li      $at, 64 + 24 - 1
    li      $t0, DM_CLIP + 64               # light directions
    li      $t2, DM_CLIP + 64 + 24
1:  lw      $t1, 0($t0)
    sw      $t1, LD_X - (DM_CLIP + 64)($t0)
    addiu   $t0, $t0, 4
    bne     $t0, $t2, 1b
    nop
    # VIEW columns: v8-v11 integer parts, v12-v15 fractions (lanes 0-3)
    ldv     $v8, 0, DM_VIEW + 0x00, $zero
    ldv     $v9, 0, DM_VIEW + 0x08, $zero
    ldv     $v10, 0, DM_VIEW + 0x10, $zero
    ldv     $v11, 0, DM_VIEW + 0x18, $zero
    ldv     $v12, 0, DM_VIEW + 0x20, $zero
    ldv     $v13, 0, DM_VIEW + 0x28, $zero
    ldv     $v14, 0, DM_VIEW + 0x30, $zero
    ldv     $v15, 0, DM_VIEW + 0x38, $zero
    li      $t0, 0                  # column offset: 0, 8, 16, 24
    li      $t2, 32
1:  addiu   $t1, $t0, DM_CLIP
    ldv     $v1, 0, 0x00, $t1       # M column j: integer parts
    ldv     $v2, 0, 0x20, $t1       # fractions
    vmudl   $v4, $v12, $v2, E_0
    vmadm   $v3, $v8, $v2, E_0
    vmadn   $v4, $v12, $v1, E_0
    vmadh   $v3, $v8, $v1, E_0
    vmadl   $v4, $v13, $v2, E_1
    vmadm   $v3, $v9, $v2, E_1
    vmadn   $v4, $v13, $v1, E_1
    vmadh   $v3, $v9, $v1, E_1
    vmadl   $v4, $v14, $v2, E_2
    vmadm   $v3, $v10, $v2, E_2
    vmadn   $v4, $v14, $v1, E_2
    vmadh   $v3, $v10, $v1, E_2
    vmadl   $v4, $v15, $v2, E_3
    vmadm   $v3, $v11, $v2, E_3
    vmadn   $v4, $v15, $v1, E_3
    vmadh   $v3, $v11, $v1, E_3
    vsar    $v4, ACC_LO
    addiu   $t1, $t0, DM_MVP
    sdv     $v3, 0, 0x00, $t1
    sdv     $v4, 0, 0x20, $t1
    addiu   $t0, $t0, 8
    bne     $t0, $t2, 1b
    nop
    j       next_command
    nop

    .include "render_vtx.inc"
    .include "render_tri.inc"

