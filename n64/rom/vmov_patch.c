/* VMOV element fields made single-lane for cen64 (see vmov_patch.h). */
#include "vmov_patch.h"

#define COP2_VECTOR_MASK 0xFE000000u /* opcode COP2 with the CO bit: a vector op */
#define COP2_VECTOR 0x4A000000u
#define FUNCT_VMOV 0x33u
#define E_SHIFT 21
#define E_SINGLE_LANE 0x8u

unsigned vmov_patch_single_lane(uint8_t *image, uint32_t size)
{
    unsigned patched = 0;
    for (uint32_t i = 0; i + 4 <= size; i += 4) {
        uint32_t w = (uint32_t)image[i] << 24 | (uint32_t)image[i + 1] << 16 | (uint32_t)image[i + 2] << 8 |
                     image[i + 3];
        if ((w & COP2_VECTOR_MASK) != COP2_VECTOR || (w & 0x3Fu) != FUNCT_VMOV || (w >> E_SHIFT & E_SINGLE_LANE))
            continue;
        w |= E_SINGLE_LANE << E_SHIFT;
        image[i] = (uint8_t)(w >> 24);
        image[i + 1] = (uint8_t)(w >> 16);
        image[i + 2] = (uint8_t)(w >> 8);
        image[i + 3] = (uint8_t)w;
        patched++;
    }
    return patched;
}
