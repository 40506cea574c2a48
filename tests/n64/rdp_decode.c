/* RDP command lists read back. */
#include "rdp_decode.h"

#include <math.h>

size_t rdp_command_size(uint8_t opcode)
{
    opcode &= 0x3F;
    if (opcode >= 0x08 && opcode <= 0x0F)
        return 32 + ((opcode & 4) ? 64 : 0) + ((opcode & 2) ? 64 : 0) + ((opcode & 1) ? 16 : 0);
    if (opcode == 0x24 || opcode == 0x25)
        return 16;
    return 8;
}

static int32_t s32(const uint8_t *p)
{
    uint32_t v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return (int32_t)((int64_t)v - ((v >> 31) ? INT64_C(0x100000000) : 0));
}

static unsigned u16(const uint8_t *p) { return (unsigned)(p[0] << 8 | p[1]); }

static double s14q(unsigned v) /* s11.2 in the low 14 bits */
{
    v &= 0x3FFF;
    return ((int)v - ((v & 0x2000) ? 0x4000 : 0)) / 4.0;
}

/* An s15.16 coefficient whose integer and fraction halves sit apart. */
static double split(const uint8_t *int_part, const uint8_t *frac_part)
{
    uint32_t v = (uint32_t)u16(int_part) << 16 | u16(frac_part);
    return (double)(int32_t)((int64_t)v - ((v >> 31) ? INT64_C(0x100000000) : 0)) / 65536.0;
}

bool rdp_decode_triangle(const uint8_t *b, size_t available, rdp_tri_t *t)
{
    unsigned op = b[0] & 0x3F;
    if (op < 0x08 || op > 0x0F || available < rdp_command_size(b[0]))
        return false;
    t->command = op;
    t->left_major = (b[1] & 0x80) != 0;
    t->level = (b[1] >> 3) & 7;
    t->tile = b[1] & 7;
    t->yl = s14q(u16(b + 2));
    t->ym = s14q(u16(b + 4));
    t->yh = s14q(u16(b + 6));
    t->xl = s32(b + 8) / 65536.0;
    t->dxldy = s32(b + 12) / 65536.0;
    t->xh = s32(b + 16) / 65536.0;
    t->dxhdy = s32(b + 20) / 65536.0;
    t->xm = s32(b + 24) / 65536.0;
    t->dxmdy = s32(b + 28) / 65536.0;
    for (int k = 0; k < 8; k++)
        t->a[k] = t->dadx[k] = t->dade[k] = t->dady[k] = 0;
    const uint8_t *p = b + 32;
    /* shade and texture: 4 attributes each; a block of 16 halves per row pair */
    for (int block = 0; block < 2; block++) {
        bool present = block == 0 ? (op & 4) : (op & 2);
        if (!present)
            continue;
        for (int i = 0; i < 4; i++) {
            int k = 4 * block + i;
            t->a[k] = split(p + 2 * i, p + 16 + 2 * i);
            t->dadx[k] = split(p + 8 + 2 * i, p + 24 + 2 * i);
            t->dade[k] = split(p + 32 + 2 * i, p + 48 + 2 * i);
            t->dady[k] = split(p + 40 + 2 * i, p + 56 + 2 * i);
        }
        p += 64;
    }
    if (op & 1) {
        t->a[7] = s32(p) / 65536.0;
        t->dadx[7] = s32(p + 4) / 65536.0;
        t->dade[7] = s32(p + 8) / 65536.0;
        t->dady[7] = s32(p + 12) / 65536.0;
    }
    return true;
}

double rdp_tri_edge_x(const rdp_tri_t *t, char edge, double y)
{
    double y0 = floor(t->yh);
    switch (edge) {
    case 'H': return t->xh + t->dxhdy * (y - y0);
    case 'M': return t->xm + t->dxmdy * (y - y0);
    default: return t->xl + t->dxldy * (y - t->ym);
    }
}

double rdp_tri_attribute(const rdp_tri_t *t, int k, double x, double y)
{
    double y0 = floor(t->yh);
    return t->a[k] + t->dade[k] * (y - y0) + t->dadx[k] * (x - rdp_tri_edge_x(t, 'H', y));
}
