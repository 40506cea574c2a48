/* Vector loads and stores (LWC2/SWC2) between DMEM and vector registers.
 * DMEM addresses wrap at 4 KiB; the element field addresses bytes of the
 * register (or lanes, for the packed and transposed forms). */
#include "rsp_internal.h"

enum {
    LS_BYTE = 0x00, LS_SHORT = 0x01, LS_LONG = 0x02, LS_DOUBLE = 0x03, LS_QUAD = 0x04, LS_REST = 0x05,
    LS_PACKED = 0x06, LS_UNSIGNED_PACKED = 0x07, LS_HALF = 0x08, LS_FOURTH = 0x09, LS_WRAP = 0x0A,
    LS_TRANSPOSE = 0x0B,
};

/* log2 of the unit the 7-bit offset is scaled by, per operation. */
static const unsigned offset_shift[16] = {0, 1, 2, 3, 4, 4, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};

typedef struct access {
    unsigned vt;
    unsigned e;
    uint32_t addr;
} access_t;

static access_t decode(const rsp_t *rsp, uint32_t instr)
{
    unsigned kind = RSP_RD(instr) & 15u;
    int32_t offset = (int32_t)(instr & 0x3Fu) - (int32_t)(instr & 0x40u);
    access_t a = {
        .vt = RSP_RT(instr),
        .e = (instr >> 7) & 15u,
        .addr = rsp->gpr[RSP_RS(instr)] + (uint32_t)(offset * (1 << offset_shift[kind])),
    };
    return a;
}

/* LBV/LSV/LLV/LDV: `size` consecutive bytes into the register from byte e;
 * bytes that would fall past the end of the register are not loaded. */
static void load_bytes(rsp_t *rsp, const access_t *a, unsigned size)
{
    for (unsigned k = 0; k < size && a->e + k < 16; k++)
        rsp_vr_set_byte(rsp, a->vt, a->e + k, rsp_dmem_byte(rsp, a->addr + k));
}

/* Stores always write `size` bytes, wrapping around the register. */

static void store_bytes(rsp_t *rsp, const access_t *a, unsigned size)
{
    for (unsigned k = 0; k < size; k++)
        rsp_dmem_set_byte(rsp, a->addr + k, rsp_vr_byte(rsp, a->vt, (a->e + k) & 15u));
}

/* LQV: the bytes from addr up to the next 16-byte boundary, into register
 * bytes e onward, stopping at the end of the register. */
static void load_quad(rsp_t *rsp, const access_t *a)
{
    unsigned count = 16 - (a->addr & 15u);
    for (unsigned k = 0; k < count && a->e + k < 16; k++)
        rsp_vr_set_byte(rsp, a->vt, a->e + k, rsp_dmem_byte(rsp, a->addr + k));
}

/* LRV: the bytes from the previous 16-byte boundary up to addr, into the
 * tail of the register (shifted back by e). */
static void load_rest(rsp_t *rsp, const access_t *a)
{
    unsigned misalignment = a->addr & 15u;
    uint32_t aligned = a->addr & ~15u;
    for (unsigned k = 0; k < misalignment; k++) {
        unsigned byte = 16 - misalignment + a->e + k;
        if (byte < 16)
            rsp_vr_set_byte(rsp, a->vt, byte, rsp_dmem_byte(rsp, aligned + k));
    }
}

static void store_quad(rsp_t *rsp, const access_t *a)
{
    unsigned count = 16 - (a->addr & 15u);
    for (unsigned k = 0; k < count; k++)
        rsp_dmem_set_byte(rsp, a->addr + k, rsp_vr_byte(rsp, a->vt, (a->e + k) & 15u));
}

static void store_rest(rsp_t *rsp, const access_t *a)
{
    unsigned misalignment = a->addr & 15u;
    uint32_t aligned = a->addr & ~15u;
    for (unsigned k = 0; k < misalignment; k++)
        rsp_dmem_set_byte(rsp, aligned + k, rsp_vr_byte(rsp, a->vt, (a->e + 16 - misalignment + k) & 15u));
}

/* LPV/LUV/LHV/LFV read bytes from an 8-byte aligned window that wraps every
 * 16 bytes; `stride` is the distance between consecutive lanes' bytes.
 * Returns the DMEM address of the byte for position k (e shifts the start). */
static uint32_t packed_address(const access_t *a, unsigned k, unsigned stride)
{
    uint32_t aligned = a->addr & ~7u;
    unsigned start = (a->addr & 7u) - a->e;
    return aligned + ((start + k * stride) & 15u);
}

static void load_packed(rsp_t *rsp, const access_t *a, unsigned shift, unsigned stride)
{
    for (unsigned n = 0; n < 8; n++)
        rsp->vr[a->vt][n] = (uint16_t)(rsp_dmem_byte(rsp, packed_address(a, n, stride)) << shift);
}

/* LFV fills four lanes (from e / 2) with every fourth byte. */
static void load_fourth(rsp_t *rsp, const access_t *a)
{
    uint16_t lanes[8];
    for (unsigned k = 0; k < 4; k++) {
        lanes[k] = (uint16_t)(rsp_dmem_byte(rsp, packed_address(a, k, 4)) << 7);
        lanes[k + 4] = (uint16_t)(rsp_dmem_byte(rsp, packed_address(a, k + 2, 4)) << 7);
    }
    unsigned end = a->e + 8 < 16 ? a->e + 8 : 16;
    for (unsigned byte = a->e; byte < end; byte++) {
        uint16_t lane = lanes[byte >> 1];
        rsp_vr_set_byte(rsp, a->vt, byte, (byte & 1u) ? (uint8_t)lane : (uint8_t)(lane >> 8));
    }
}

/* SPV/SUV: lane k (from e) goes to byte k; positions 0-7 of the 16-long
 * cycle use the signed mapping (bits 15..8) and 8-15 the unsigned one
 * (bits 14..7), so SUV is SPV started 8 positions later. */
static void store_packed(rsp_t *rsp, const access_t *a, unsigned first_position)
{
    for (unsigned k = 0; k < 8; k++) {
        unsigned position = (first_position + a->e + k) & 15u;
        uint16_t lane = rsp->vr[a->vt][position & 7u];
        uint8_t value = position < 8 ? (uint8_t)(lane >> 8) : (uint8_t)(lane >> 7);
        rsp_dmem_set_byte(rsp, a->addr + k, value);
    }
}

/* SHV: bits 14..7 of each lane (read from byte e onward) to every other byte. */
static void store_half(rsp_t *rsp, const access_t *a)
{
    uint32_t aligned = a->addr & ~7u;
    unsigned start = a->addr & 7u;
    for (unsigned k = 0; k < 8; k++) {
        unsigned byte = a->e + 2 * k;
        uint8_t value = (uint8_t)((rsp_vr_byte(rsp, a->vt, byte & 15u) << 1) | (rsp_vr_byte(rsp, a->vt, (byte + 1) & 15u) >> 7));
        rsp_dmem_set_byte(rsp, aligned + ((start + 2 * k) & 15u), value);
    }
}

/* SFV: bits 14..7 of four lanes to every fourth byte. Which lanes depends
 * on e as measured on hardware: one half of the register, rotated; the
 * other element values store zeros. */
static void store_fourth(rsp_t *rsp, const access_t *a)
{
    static const struct {
        bool stores_lanes;
        uint8_t half, rotation;
    } by_element[16] = {
        [0] = {true, 0, 0}, [1] = {true, 4, 2},  [4] = {true, 0, 1},  [5] = {true, 4, 3},
        [8] = {true, 4, 0}, [11] = {true, 0, 3}, [12] = {true, 4, 1}, [15] = {true, 0, 0},
    };
    uint32_t aligned = a->addr & ~7u;
    unsigned start = a->addr & 7u;
    for (unsigned k = 0; k < 4; k++) {
        uint8_t value = 0;
        if (by_element[a->e].stores_lanes) {
            unsigned lane = by_element[a->e].half + ((by_element[a->e].rotation + k) & 3u);
            value = (uint8_t)(rsp->vr[a->vt][lane] >> 7);
        }
        rsp_dmem_set_byte(rsp, aligned + ((start + 4 * k) & 15u), value);
    }
}

/* SWV: the whole register rotated by e, written into the 16-byte block with
 * wrap-around starting at addr. */
static void store_wrap(rsp_t *rsp, const access_t *a)
{
    uint32_t aligned = a->addr & ~7u;
    unsigned start = a->addr & 7u;
    for (unsigned k = 0; k < 16; k++)
        rsp_dmem_set_byte(rsp, aligned + ((start + k) & 15u), rsp_vr_byte(rsp, a->vt, (a->e + k) & 15u));
}

static void load_wrap(rsp_t *rsp, const access_t *a)
{
    for (unsigned byte = 16 - a->e; byte < 16 + a->e; byte++)
        rsp_vr_set_byte(rsp, a->vt, byte & 15u, rsp_dmem_byte(rsp, a->addr + 4 * (byte - (16 - a->e))));
}

/* LTV/STV: one lane of each of the 8 registers of vt's group, along a
 * diagonal chosen by e, from/to consecutive halfwords of a 16-byte block. */
static void load_transpose(rsp_t *rsp, const access_t *a)
{
    unsigned group = a->vt & ~7u;
    uint32_t aligned = a->addr & ~7u;
    unsigned position = ((a->addr & 8u) + a->e) & 15u;
    for (unsigned k = 0; k < 8; k++) {
        unsigned reg = group + ((a->e >> 1) + k) % 8;
        rsp_vr_set_byte(rsp, reg, 2 * k, rsp_dmem_byte(rsp, aligned + position));
        rsp_vr_set_byte(rsp, reg, 2 * k + 1, rsp_dmem_byte(rsp, aligned + ((position + 1) & 15u)));
        position = (position + 2) & 15u;
    }
}

static void store_transpose(rsp_t *rsp, const access_t *a)
{
    unsigned group = a->vt & ~7u;
    uint32_t aligned = a->addr & ~7u;
    unsigned start = a->addr & 7u;
    unsigned first = a->e >> 1;
    for (unsigned k = 0; k < 8; k++) {
        unsigned reg = group + (first + k) % 8;
        uint16_t lane = rsp->vr[reg][k];
        rsp_dmem_set_byte(rsp, aligned + ((start + 2 * k) & 15u), (uint8_t)(lane >> 8));
        rsp_dmem_set_byte(rsp, aligned + ((start + 2 * k + 1) & 15u), (uint8_t)lane);
    }
}

void rsp_vector_load(rsp_t *rsp, uint32_t instr)
{
    access_t a = decode(rsp, instr);
    switch (RSP_RD(instr)) {
    case LS_BYTE: load_bytes(rsp, &a, 1); break;
    case LS_SHORT: load_bytes(rsp, &a, 2); break;
    case LS_LONG: load_bytes(rsp, &a, 4); break;
    case LS_DOUBLE: load_bytes(rsp, &a, 8); break;
    case LS_QUAD: load_quad(rsp, &a); break;
    case LS_REST: load_rest(rsp, &a); break;
    case LS_PACKED: load_packed(rsp, &a, 8, 1); break;
    case LS_UNSIGNED_PACKED: load_packed(rsp, &a, 7, 1); break;
    case LS_HALF: load_packed(rsp, &a, 7, 2); break;
    case LS_FOURTH: load_fourth(rsp, &a); break;
    case LS_WRAP: load_wrap(rsp, &a); break;
    case LS_TRANSPOSE: load_transpose(rsp, &a); break;
    default: break;
    }
}

void rsp_vector_store(rsp_t *rsp, uint32_t instr)
{
    access_t a = decode(rsp, instr);
    switch (RSP_RD(instr)) {
    case LS_BYTE: store_bytes(rsp, &a, 1); break;
    case LS_SHORT: store_bytes(rsp, &a, 2); break;
    case LS_LONG: store_bytes(rsp, &a, 4); break;
    case LS_DOUBLE: store_bytes(rsp, &a, 8); break;
    case LS_QUAD: store_quad(rsp, &a); break;
    case LS_REST: store_rest(rsp, &a); break;
    case LS_PACKED: store_packed(rsp, &a, 0); break;
    case LS_UNSIGNED_PACKED: store_packed(rsp, &a, 8); break;
    case LS_HALF: store_half(rsp, &a); break;
    case LS_FOURTH: store_fourth(rsp, &a); break;
    case LS_WRAP: store_wrap(rsp, &a); break;
    case LS_TRANSPOSE: store_transpose(rsp, &a); break;
    default: break;
    }
}
