/* cen64 0.3 (Debian's) runs VMOV wrongly: it copies lane `de` of vt shuffled
 * by the element field e, where the RSP copies lane e & 7 of vt (what
 * n64/sim, cxd4's RSP and MAME's do, and what the microcode means). The two
 * agree when e names a single lane (8 + n). So before the microcode is loaded
 * the ROM rewrites each VMOV whose element field is a lane number n < 8 into
 * the same VMOV with element 8 + n: the same instruction for the RSP,
 * understood by cen64 too. Nothing else is touched. */
#ifndef N64_ROM_VMOV_PATCH_H
#define N64_ROM_VMOV_PATCH_H

#include <stdint.h>

/* Rewrites the VMOVs of a big-endian IMEM image in place; returns how many. */
unsigned vmov_patch_single_lane(uint8_t *image, uint32_t size);

#endif
