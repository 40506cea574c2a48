# mtx_mul: multiplies a batch of 4-component vectors by a 4x4 matrix, all in
# s16.16 fixed point, r = M * v, two vectors per iteration.
#
# DMEM layout (offsets from 0):
#   0x000  matrix integer parts, column-major: column j at 0x000 + 8*j,
#          four s16 (rows 0..3)
#   0x020  matrix fractional parts (u16), same layout
#   0x040  u32 number of vectors (even, at least 2)
#   0x044  u32 DMEM address of the input vectors
#   0x048  u32 DMEM address of the output vectors (may equal the input)
# Each vector is 16 bytes: the integer parts of x, y, z, w (s16), then their
# fractional parts (u16). A result's integer part is clamped to 16 bits.
#
# Each term M[i][j] * v[j] is built from the four 16x16 partial products in
# the 48-bit accumulator: frac*frac (vmadl, only its high half is kept),
# int*frac (vmadm), frac*int (vmadn) and int*int (vmadh); the accumulator
# then holds the s16.16 sum, read out as vmadh's clamped result (integer)
# and the accumulator's low slice (fraction).

    .include "rsp.inc"

    .data
    .space 0x50          # matrix and parameters, filled in by the caller

    .text
    .globl mtx_mul
mtx_mul:
    lw      $t0, 0x40($zero)    # vectors left
    lw      $t1, 0x44($zero)    # input pointer
    lw      $t2, 0x48($zero)    # output pointer

    # Matrix columns, copied into both halves: lanes 0-3 serve the first
    # vector of a pair, lanes 4-7 the second.
    ldv     $v8, 0, 0x00, $zero     # column 0, integer
    ldv     $v8, 8, 0x00, $zero
    ldv     $v9, 0, 0x08, $zero     # column 1
    ldv     $v9, 8, 0x08, $zero
    ldv     $v10, 0, 0x10, $zero    # column 2
    ldv     $v10, 8, 0x10, $zero
    ldv     $v11, 0, 0x18, $zero    # column 3
    ldv     $v11, 8, 0x18, $zero
    ldv     $v12, 0, 0x20, $zero    # column 0, fraction
    ldv     $v12, 8, 0x20, $zero
    ldv     $v13, 0, 0x28, $zero
    ldv     $v13, 8, 0x28, $zero
    ldv     $v14, 0, 0x30, $zero
    ldv     $v14, 8, 0x30, $zero
    ldv     $v15, 0, 0x38, $zero
    ldv     $v15, 8, 0x38, $zero

pair:
    ldv     $v0, 0, 0x00, $t1       # integer parts of vector A
    ldv     $v0, 8, 0x10, $t1       # ... and of vector B
    ldv     $v1, 0, 0x08, $t1       # fractional parts of A
    ldv     $v1, 8, 0x18, $t1       # ... and of B

    # Component j of each vector is broadcast over its half with E_jH.
    vmudl   $v3, $v12, $v1, E_0H
    vmadm   $v2, $v8, $v1, E_0H
    vmadn   $v3, $v12, $v0, E_0H
    vmadh   $v2, $v8, $v0, E_0H
    vmadl   $v3, $v13, $v1, E_1H
    vmadm   $v2, $v9, $v1, E_1H
    vmadn   $v3, $v13, $v0, E_1H
    vmadh   $v2, $v9, $v0, E_1H
    vmadl   $v3, $v14, $v1, E_2H
    vmadm   $v2, $v10, $v1, E_2H
    vmadn   $v3, $v14, $v0, E_2H
    vmadh   $v2, $v10, $v0, E_2H
    vmadl   $v3, $v15, $v1, E_3H
    vmadm   $v2, $v11, $v1, E_3H
    vmadn   $v3, $v15, $v0, E_3H
    vmadh   $v2, $v11, $v0, E_3H    # $v2 = integer parts of the results
    vsar    $v3, ACC_LO             # $v3 = fractional parts

    sdv     $v2, 0, 0x00, $t2
    sdv     $v3, 0, 0x08, $t2
    sdv     $v2, 8, 0x10, $t2
    sdv     $v3, 8, 0x18, $t2

    addiu   $t0, $t0, -2
    addiu   $t1, $t1, 32
    bgtz    $t0, pair
    addiu   $t2, $t2, 32            # delay slot

    break
