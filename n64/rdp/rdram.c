/* RDRAM as the RDP sees it: bytewise big-endian access with 24-bit address
 * masking and bounds checks, and the hidden (9th) bits, two per halfword.
 *
 * Hidden-bit slots: besides the per-halfword bits, the RDP's memory
 * interface remembers the last hidden bits it produced for each of the 8
 * halfwords of a 16-byte block (hidden_recent). Byte-sized writes (8-bit
 * colour images, copy mode) take one of their two bits from there. */
#include "rdp_internal.h"

static inline bool valid_bytes(const rdp_t *rdp, uint32_t first, uint32_t count)
{
    return (size_t)first + count <= rdp->rdram_size;
}

uint8_t rdram_read8(const rdp_t *rdp, uint32_t address)
{
    address &= 0xffffff;
    return valid_bytes(rdp, address, 1) ? rdp->rdram[address] : 0;
}

uint32_t rdram_read32(const rdp_t *rdp, uint32_t index)
{
    index &= 0x3fffff;
    if (!valid_bytes(rdp, index * 4, 4))
        return 0;
    return rdp_be32(rdp->rdram + index * 4);
}

/* Hidden bits of a halfword never written by the RDP follow its bit 0. */
static inline uint8_t settled_hidden(const rdp_t *rdp, uint32_t index)
{
    uint8_t h = rdp->hidden[index];
    if (h & HIDDEN_UNSET)
        h = (rdp->rdram[index * 2 + 1] & 1) ? 3 : 0;
    return h;
}

void rdram_read16_hidden(rdp_t *rdp, uint32_t index, uint16_t *value, uint8_t *hidden)
{
    index &= 0x7fffff;
    if (!valid_bytes(rdp, index * 2, 2)) {
        *value = 0;
        *hidden = 0;
        return;
    }
    const uint8_t *p = rdp->rdram + index * 2;
    *value = (uint16_t)(p[0] << 8 | p[1]);
    *hidden = settled_hidden(rdp, index);
}

void rdram_write16_hidden(rdp_t *rdp, uint32_t index, uint16_t value, uint8_t hidden, bool colour)
{
    index &= 0x7fffff;
    if (valid_bytes(rdp, index * 2, 2)) {
        rdp->rdram[index * 2] = (uint8_t)(value >> 8);
        rdp->rdram[index * 2 + 1] = (uint8_t)value;
        rdp->hidden[index] = hidden;
    }
    if (colour)
        rdp->hidden_recent[index & 7] = hidden;
}

void rdram_write32_hidden(rdp_t *rdp, uint32_t index, uint32_t value, uint8_t hidden0, uint8_t hidden1)
{
    index &= 0x3fffff;
    if (valid_bytes(rdp, index * 4, 4)) {
        uint8_t *p = rdp->rdram + index * 4;
        p[0] = (uint8_t)(value >> 24);
        p[1] = (uint8_t)(value >> 16);
        p[2] = (uint8_t)(value >> 8);
        p[3] = (uint8_t)value;
        rdp->hidden[index * 2] = hidden0;
        rdp->hidden[index * 2 + 1] = hidden1;
    }
    rdp->hidden_recent[(index * 2) & 7] = hidden0;
    rdp->hidden_recent[(index * 2 + 1) & 7] = hidden1;
}

/* The upper hidden bit (value 2) of the halfword holding a byte written
 * earlier is taken from the slot once the next byte has gone out. */
static void settle_pending(rdp_t *rdp, int64_t pending)
{
    uint32_t address = (uint32_t)pending;
    if (valid_bytes(rdp, address, 1)) {
        uint32_t index = address >> 1;
        rdp->hidden[index] = (uint8_t)((rdp->hidden[index] & ~2u) | (rdp->hidden_recent[index & 7] & 2));
    }
}

void rdram_finish_pending(rdp_t *rdp, int64_t pending)
{
    if (pending >= 0)
        settle_pending(rdp, pending);
}

void rdram_write8_hidden(rdp_t *rdp, uint32_t address, uint8_t value, bool forward, int64_t *pending)
{
    address &= 0xffffff;
    uint32_t index = address >> 1;
    bool odd = address & 1;
    bool inside = valid_bytes(rdp, address, 1);

    if (!forward) {
        /* right to left: each byte settles its own bit at once */
        if (inside) {
            uint8_t h = rdp->hidden[index];
            bool low_bit = (index * 2 + 1 < rdp->rdram_size) && (rdp->rdram[index * 2 + 1] & 1);
            if (!odd) {
                h = (h & HIDDEN_UNSET) ? (low_bit ? 1 : 0) : (uint8_t)(h & ~2u);
                h |= rdp->hidden_recent[index & 7] & 2;
            } else {
                h = (h & HIDDEN_UNSET) ? (low_bit ? 2 : 0) : (uint8_t)(h & ~1u);
                h |= value & 1;
            }
            rdp->hidden[index] = h;
            rdp->rdram[address] = value;
        }
        if (odd)
            rdp->hidden_recent[index & 7] = (value & 1) ? 3 : 0;
        return;
    }

    /* left to right: an even byte's bit waits for the following write */
    if (*pending >= 0 && *pending < (int64_t)address) {
        settle_pending(rdp, *pending);
        *pending = -1;
    }
    if (odd) {
        if (inside) {
            uint8_t h;
            if (*pending >= 0) {
                h = (value & 1) ? 3 : 0;
            } else {
                h = rdp->hidden[index];
                h = (h & HIDDEN_UNSET) ? ((rdp->rdram[address] & 1) ? 2 : 0) : (uint8_t)(h & ~1u);
                h |= value & 1;
            }
            rdp->hidden[index] = h;
            rdp->rdram[address] = value;
        }
        rdp->hidden_recent[index & 7] = (value & 1) ? 3 : 0;
        *pending = -1;
    } else {
        if (inside) {
            if (rdp->hidden[index] & HIDDEN_UNSET) {
                bool low_bit = (address + 1 < rdp->rdram_size) && (rdp->rdram[address + 1] & 1);
                rdp->hidden[index] = low_bit ? 3 : 0;
            }
            rdp->rdram[address] = value;
        }
        *pending = (int64_t)address + 1;
    }
}
