# The project's own boot code for cen64's PIF ROM slot (0xBFC00000): what the
# console's PIF boot ROM and a cartridge's boot code would do, cut down to
# what the ROM program needs. For the emulator only (n64/rom/README.md):
#
#   1. COP0 Status: COP0 and the FPU usable, FR = 0 (16 double registers, the
#      o32 ABI's), exceptions vectored here (BEV), interrupts off; Cause
#      cleared; KSEG0 cacheable (Config.K0 = 3); FPU control word cleared
#      (round to nearest, no traps).
#   2. Both caches invalidated (index store tag with TagLo = 0).
#   3. The RCP kept quiet: the RSP halted, every RCP interrupt masked, the
#      VI blanked.
#   4. The program copied from the 64DD IPL ROM (0x06000000 on the PI bus,
#      where cen64 -ddipl maps the image) into RDRAM at 0x400, and entered.
#      The image starts with a header (n64/rom/crt0.S): magic "BFIP", its
#      size in bytes, the entry point, the exception handler.
#
# Left out: RDRAM and RI initialisation (cen64's RDRAM works from reset),
# the CIC handshake and checksum, the PIF's joybus and its RAM, the memory
# size word at 0x80000318, NMI and reset handling.
    .set noreorder
    .set noat
    .text
    .globl boot
boot:
    li      $t0, 0x30400000         # CU1 | CU0 | BEV
    mtc0    $t0, $12                # Status
    mtc0    $zero, $13              # Cause
    mfc0    $t0, $16                # Config
    li      $t1, ~7
    and     $t0, $t0, $t1
    ori     $t0, $t0, 3             # K0: cacheable, noncoherent
    mtc0    $t0, $16
    ctc1    $zero, $31              # FCSR

    # caches: 16 KiB of instruction lines (32 bytes), 8 KiB of data lines (16 bytes)
    mtc0    $zero, $28              # TagLo
    mtc0    $zero, $29              # TagHi
    lui     $t0, 0x8000
    li      $t1, 0x4000
    addu    $t1, $t0, $t1
1:  cache   0x08, 0($t0)            # index store tag, instruction cache
    addiu   $t0, $t0, 32
    bne     $t0, $t1, 1b
    nop
    lui     $t0, 0x8000
    li      $t1, 0x2000
    addu    $t1, $t0, $t1
2:  cache   0x09, 0($t0)            # index store tag, data cache
    addiu   $t0, $t0, 16
    bne     $t0, $t1, 2b
    nop

    lui     $t0, 0xA404
    li      $t1, 0x2                # SP_STATUS: set halt
    sw      $t1, 0x10($t0)
    lui     $t0, 0xA430
    li      $t1, 0x555              # MI_MASK: clear every mask bit
    sw      $t1, 0x0C($t0)
    lui     $t0, 0xA440
    sw      $zero, 0($t0)           # VI_STATUS: blank

    lui     $s0, 0xA600             # the IPL image, uncached
    lw      $t0, 0($s0)
    li      $t1, 0x42464950         # "BFIP"
    bne     $t0, $t1, no_program
    nop
    lw      $s1, 4($s0)             # bytes to copy, a multiple of 4
    lui     $s2, 0xA000
    ori     $s2, $s2, 0x400         # RDRAM 0x400, uncached
    addu    $s3, $s0, $s1
3:  lw      $t0, 0($s0)
    addiu   $s0, $s0, 4
    sw      $t0, 0($s2)
    bne     $s0, $s3, 3b
    addiu   $s2, $s2, 4
    lui     $t0, 0xA600
    lw      $t0, 8($t0)             # the entry point (KSEG0)
    jr      $t0
    nop

# No program: say so on the IS-Viewer and stop.
no_program:
    la      $t0, message
    lui     $t1, 0xB3FF
    li      $t2, message_end - message
    move    $t3, $zero
4:  addu    $t4, $t0, $t3
    lw      $t5, 0($t4)
    addu    $t4, $t1, $t3
    sw      $t5, 0x20($t4)
    addiu   $t3, $t3, 4
    slt     $t4, $t3, $t2
    bnez    $t4, 4b
    nop
    sw      $t2, 0x14($t1)
5:  b       5b
    nop

    .balign 4
message:
    .ascii  "boot: no BFIP program in the IPL image\n"
message_end:
    .balign 4

# With BEV set, exceptions come here: on to the program's handler.
    .org    0x200                   # TLB refill
    lui     $k0, 0xA600
    lw      $k0, 12($k0)
    jr      $k0
    nop
    .org    0x380                   # everything else
    lui     $k0, 0xA600
    lw      $k0, 12($k0)
    jr      $k0
    nop
