/* Showing a framebuffer through the VI: NTSC, 320 pixels wide, progressive. */
#ifndef N64_ROM_VI_H
#define N64_ROM_VI_H

#include <stdbool.h>
#include <stdint.h>

/* `framebuffer`: RDRAM address of a width x 240 image, RGBA5551 or RGBA8888. */
void vi_show(uint32_t framebuffer, uint16_t width, bool color32);

#endif
