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

#include "rsp.inc"

    .data
    .space 0x50          # matrix and parameters, filled in by the caller

    .text
    .globl mtx_mul
mtx_mul:
    #define vmtx0_i $v8     /* the matrix's columns, integer parts, in both halves */
    #define vmtx1_i $v9
    #define vmtx2_i $v10
    #define vmtx3_i $v11
    #define vmtx0_f $v12    /* ... and fractions */
    #define vmtx1_f $v13
    #define vmtx2_f $v14
    #define vmtx3_f $v15
    #define vin_i   $v0     /* a pair of input vectors: integer parts (A in lanes 0-3, B 4-7) */
    #define vin_f   $v1     /* ... and fractions */
    #define vout_i  $v2     /* the pair of results: integer parts */
    #define vout_f  $v3     /* ... and fractions */
    lw      $t0, 0x40($zero)    # vectors left
    lw      $t1, 0x44($zero)    # input pointer
    lw      $t2, 0x48($zero)    # output pointer

    # Matrix columns, copied into both halves: lanes 0-3 serve the first
    # vector of a pair, lanes 4-7 the second.
    ldv     vmtx0_i, 0, 0x00, $zero # column 0, integer
    ldv     vmtx0_i, 8, 0x00, $zero
    ldv     vmtx1_i, 0, 0x08, $zero # column 1
    ldv     vmtx1_i, 8, 0x08, $zero
    ldv     vmtx2_i, 0, 0x10, $zero # column 2
    ldv     vmtx2_i, 8, 0x10, $zero
    ldv     vmtx3_i, 0, 0x18, $zero # column 3
    ldv     vmtx3_i, 8, 0x18, $zero
    ldv     vmtx0_f, 0, 0x20, $zero # column 0, fraction
    ldv     vmtx0_f, 8, 0x20, $zero
    ldv     vmtx1_f, 0, 0x28, $zero
    ldv     vmtx1_f, 8, 0x28, $zero
    ldv     vmtx2_f, 0, 0x30, $zero
    ldv     vmtx2_f, 8, 0x30, $zero
    ldv     vmtx3_f, 0, 0x38, $zero
    ldv     vmtx3_f, 8, 0x38, $zero

pair:
    ldv     vin_i, 0, 0x00, $t1     # integer parts of vector A
    ldv     vin_i, 8, 0x10, $t1     # ... and of vector B
    ldv     vin_f, 0, 0x08, $t1     # fractional parts of A
    ldv     vin_f, 8, 0x18, $t1     # ... and of B

    # Component j of each vector is broadcast over its half with E_jH.
    vmudl   vout_f, vmtx0_f, vin_f, E_0H
    vmadm   vout_i, vmtx0_i, vin_f, E_0H
    vmadn   vout_f, vmtx0_f, vin_i, E_0H
    vmadh   vout_i, vmtx0_i, vin_i, E_0H
    vmadl   vout_f, vmtx1_f, vin_f, E_1H
    vmadm   vout_i, vmtx1_i, vin_f, E_1H
    vmadn   vout_f, vmtx1_f, vin_i, E_1H
    vmadh   vout_i, vmtx1_i, vin_i, E_1H
    vmadl   vout_f, vmtx2_f, vin_f, E_2H
    vmadm   vout_i, vmtx2_i, vin_f, E_2H
    vmadn   vout_f, vmtx2_f, vin_i, E_2H
    vmadh   vout_i, vmtx2_i, vin_i, E_2H
    vmadl   vout_f, vmtx3_f, vin_f, E_3H
    vmadm   vout_i, vmtx3_i, vin_f, E_3H
    vmadn   vout_f, vmtx3_f, vin_i, E_3H
    vmadh   vout_i, vmtx3_i, vin_i, E_3H # the results' integer parts
    vsar    vout_f, ACC_LO          # ... and fractions

    sdv     vout_i, 0, 0x00, $t2
    sdv     vout_f, 0, 0x08, $t2
    sdv     vout_i, 8, 0x10, $t2
    sdv     vout_f, 8, 0x18, $t2

    addiu   $t0, $t0, -2
    addiu   $t1, $t1, 32
    bgtz    $t0, pair
    addiu   $t2, $t2, 32            # delay slot

    break
