/* Reading RDP command lists back for the tests: command lengths, and
 * triangle commands decoded into numbers. */
#ifndef TESTS_N64_RDP_DECODE_H
#define TESTS_N64_RDP_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rdp_tri {
    unsigned command; /* 0x08..0x0F */
    bool left_major;
    unsigned tile, level;
    double yh, ym, yl;                 /* pixels */
    double xh, dxhdy, xm, dxmdy, xl, dxldy;
    /* attributes r, g, b, a, s, t, w, z: start, d/dx, d/de, d/dy */
    double a[8], dadx[8], dade[8], dady[8];
} rdp_tri_t;

/* Bytes of the command starting with `first` (its top byte is the opcode). */
size_t rdp_command_size(uint8_t opcode);
/* Decodes a triangle command (N64 byte order); false if it is not one. */
bool rdp_decode_triangle(const uint8_t *bytes, size_t available, rdp_tri_t *out);
/* Value of attribute k of triangle t at (x, y), as the RDP's walker would
 * step to it: start + dade * (y - floor(yh)) + dadx * (x - xh(y)). */
double rdp_tri_attribute(const rdp_tri_t *t, int k, double x, double y);
/* x of the major (H), middle (M) and low (L) edges at y. */
double rdp_tri_edge_x(const rdp_tri_t *t, char edge, double y);

#endif
