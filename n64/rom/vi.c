/* The VI set to NTSC 320x240 progressive (libultra's "LAN1" timings), with
 * anti-aliasing, resampling and gamma off, so that it shows the pixels as
 * they are. */
#include "vi.h"

#include "rcp.h"

enum { VI_STATUS, VI_ORIGIN, VI_WIDTH, VI_V_INTR, VI_V_CURRENT, VI_BURST, VI_V_SYNC, VI_H_SYNC, VI_LEAP,
       VI_H_START, VI_V_START, VI_V_BURST, VI_X_SCALE, VI_Y_SCALE, VI_REGS };

void vi_show(uint32_t framebuffer, uint16_t width, bool color32)
{
    uint32_t regs[VI_REGS] = {
        [VI_STATUS] = 0x3000u | 0x300u | (color32 ? 3u : 2u), /* pixel advance 3, no AA, no resampling */
        [VI_ORIGIN] = framebuffer,
        [VI_WIDTH] = width,
        [VI_V_INTR] = 0x3FFu, /* never */
        [VI_V_CURRENT] = 0,
        [VI_BURST] = 0x03E52239u,
        [VI_V_SYNC] = 0x20Du,
        [VI_H_SYNC] = 0xC15u,
        [VI_LEAP] = 0x0C150C15u,
        [VI_H_START] = 0x006C02ECu,
        [VI_V_START] = 0x002501FFu,
        [VI_V_BURST] = 0x000E0204u,
        [VI_X_SCALE] = (uint32_t)width * 1024u / 640u, /* 0x200 for 320 */
        [VI_Y_SCALE] = 0x400u,
    };
    for (int i = VI_REGS - 1; i >= 0; i--) /* the status last: the picture starts complete */
        if (i != VI_V_CURRENT)
            REG32(VI_BASE + 4u * (unsigned)i) = regs[i];
}
