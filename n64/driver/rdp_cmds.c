/* RDP command words (field positions from the public RDP command reference). */
#include "rdp_cmds.h"

static uint64_t field(uint64_t value, unsigned low, unsigned bits)
{
    return (value & ((UINT64_C(1) << bits) - 1)) << low;
}

uint64_t rdpc_combine_cycle(unsigned cycle, unsigned a, unsigned b, unsigned c, unsigned d, unsigned aa, unsigned ba,
                            unsigned ca, unsigned da)
{
    if (cycle == 0)
        return field(a, 52, 4) | field(c, 47, 5) | field(aa, 44, 3) | field(ca, 41, 3) | field(b, 28, 4) |
               field(d, 15, 3) | field(ba, 12, 3) | field(da, 9, 3);
    return field(a, 37, 4) | field(c, 32, 5) | field(b, 24, 4) | field(aa, 21, 3) | field(ca, 18, 3) | field(d, 6, 3) |
           field(ba, 3, 3) | field(da, 0, 3);
}

static uint64_t image(unsigned opcode, unsigned format, unsigned size, unsigned width, uint32_t address)
{
    return rdpc_word(opcode, field(format, 53, 3) | field(size, 51, 2) | field(width - 1, 32, 10) | field(address, 0, 26));
}

uint64_t rdpc_set_color_image(unsigned format, unsigned size, unsigned width, uint32_t address)
{
    return image(0x3F, format, size, width, address);
}

uint64_t rdpc_set_texture_image(unsigned format, unsigned size, unsigned width, uint32_t address)
{
    return image(0x3D, format, size, width, address);
}

uint64_t rdpc_set_z_image(uint32_t address) { return rdpc_word(0x3E, field(address, 0, 26)); }

static uint64_t rect(unsigned opcode, unsigned x0, unsigned y0, unsigned tile, unsigned x1, unsigned y1)
{
    return rdpc_word(opcode, field(x0, 44, 12) | field(y0, 32, 12) | field(tile, 24, 3) | field(x1, 12, 12) | field(y1, 0, 12));
}

uint64_t rdpc_set_scissor(unsigned x0, unsigned y0, unsigned x1, unsigned y1)
{
    return rect(0x2D, x0 << 2, y0 << 2, 0, x1 << 2, y1 << 2);
}

uint64_t rdpc_set_other_modes(uint64_t bits) { return rdpc_word(0x2F, bits & ((UINT64_C(1) << 56) - 1)); }
uint64_t rdpc_set_combine(uint64_t bits) { return rdpc_word(0x3C, bits & ((UINT64_C(1) << 56) - 1)); }
uint64_t rdpc_set_fill_color(uint32_t color) { return rdpc_word(0x37, color); }

/* In fill mode the right and bottom edges are inclusive. */
uint64_t rdpc_fill_rectangle(unsigned x0, unsigned y0, unsigned x1, unsigned y1)
{
    return rect(0x36, (x1 - 1) << 2, (y1 - 1) << 2, 0, x0 << 2, y0 << 2);
}

uint64_t rdpc_set_prim_color(uint32_t rgba) { return rdpc_word(0x3A, rgba); }
uint64_t rdpc_set_env_color(uint32_t rgba) { return rdpc_word(0x3B, rgba); }
uint64_t rdpc_set_blend_color(uint32_t rgba) { return rdpc_word(0x39, rgba); }
uint64_t rdpc_set_fog_color(uint32_t rgba) { return rdpc_word(0x38, rgba); }

uint64_t rdpc_set_tile(unsigned format, unsigned size, unsigned line, unsigned tmem, unsigned tile, unsigned palette,
                       unsigned clamp_t, unsigned mirror_t, unsigned mask_t, unsigned shift_t, unsigned clamp_s,
                       unsigned mirror_s, unsigned mask_s, unsigned shift_s)
{
    return rdpc_word(0x35, field(format, 53, 3) | field(size, 51, 2) | field(line, 41, 9) | field(tmem, 32, 9) |
                               field(tile, 24, 3) | field(palette, 20, 4) | field(clamp_t, 19, 1) |
                               field(mirror_t, 18, 1) | field(mask_t, 14, 4) | field(shift_t, 10, 4) |
                               field(clamp_s, 9, 1) | field(mirror_s, 8, 1) | field(mask_s, 4, 4) | field(shift_s, 0, 4));
}

uint64_t rdpc_set_tile_size(unsigned tile, unsigned s0, unsigned t0, unsigned s1, unsigned t1)
{
    return rect(0x32, s0, t0, tile, s1, t1);
}

uint64_t rdpc_load_tile(unsigned tile, unsigned s0, unsigned t0, unsigned s1, unsigned t1)
{
    return rect(0x34, s0, t0, tile, s1, t1);
}

uint64_t rdpc_load_block(unsigned tile, unsigned texels_minus_one, unsigned dxt)
{
    return rect(0x33, 0, 0, tile, texels_minus_one, dxt);
}

uint64_t rdpc_load_tlut(unsigned tile, unsigned first, unsigned last) { return rect(0x30, first << 2, 0, tile, last << 2, 0); }

uint64_t rdpc_sync_pipe(void) { return rdpc_word(0x27, 0); }
uint64_t rdpc_sync_tile(void) { return rdpc_word(0x28, 0); }
uint64_t rdpc_sync_load(void) { return rdpc_word(0x26, 0); }
uint64_t rdpc_sync_full(void) { return rdpc_word(0x29, 0); }
