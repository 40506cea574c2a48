/* Software N64 RDP (Reality Display Processor).
 *
 * The RDP reads command lists and draws into RDRAM: triangles (flat, shaded,
 * textured, Z-buffered), rectangles, texture loads into its 4 KiB TMEM.
 * This implementation follows the behaviour of the angrylion-rdp-plus
 * emulator bit for bit (see n64/rdp/README.md for what is modelled).
 *
 * Memory model: RDRAM is a byte array owned by the caller, in the console's
 * big-endian byte order. Every address the RDP forms is masked to 24 bits and
 * checked against rdram_size; accesses past the end read as zero and are not
 * written. The RDP also keeps the RDRAM "hidden bits" (the 9th bit of each
 * byte: two per 16-bit halfword), which hold the low coverage bits of 16-bit
 * colour pixels and the low delta-Z bits of Z pixels. A halfword the RDP has
 * never written has hidden bits 3 if its bit 0 is 1, else 0 (evaluated when
 * the RDP first reads it, so data placed in RDRAM after rdp_create counts).
 *
 * Not thread-safe per object; separate objects are independent. */
#ifndef N64_RDP_H
#define N64_RDP_H

#include <stddef.h>
#include <stdint.h>

typedef struct rdp rdp_t;

typedef struct rdp_stats {
    uint64_t commands;         /* complete commands executed (any opcode) */
    uint64_t triangles;        /* triangle commands 0x08-0x0F */
    uint64_t rectangles;       /* Fill Rectangle, Texture Rectangle (+ Flip) */
    uint64_t loads;            /* Load Block, Load Tile, Load TLUT */
    uint64_t pixels;           /* colour pixels written (fill/1-cycle/2-cycle), bytes in copy mode */
    uint64_t unknown_commands; /* opcodes the RDP does not define (ignored) */
    uint64_t hangs;            /* primitives that would hang a real RDP (skipped) */
} rdp_stats_t;

/* Power-on state: TMEM, tile descriptors, all registers zero. Returns NULL if
 * out of memory. rdram must stay valid until rdp_destroy. */
rdp_t *rdp_create(uint8_t *rdram, size_t rdram_size);
void rdp_destroy(rdp_t *rdp);

/* Runs the commands in RDRAM [start, end), like writing DPC_START/DPC_END.
 * Both addresses are masked to 24 bits and rounded down to 8 bytes. A command
 * whose bytes continue past end is kept and completed by the next run. */
void rdp_run(rdp_t *rdp, uint32_t start, uint32_t end);

/* Runs commands from a caller buffer (an XBUS/DMEM list): bytes in N64 order.
 * length is rounded down to 8 bytes; partial commands carry over as above. */
void rdp_run_buffer(rdp_t *rdp, const uint8_t *commands, size_t length);

/* Statistics since rdp_create (or the last rdp_reset_stats). */
void rdp_get_stats(const rdp_t *rdp, rdp_stats_t *stats);
void rdp_reset_stats(rdp_t *rdp);

/* Hidden bits (0..3) of the 16-bit halfword at byte address (masked to 24
 * bits, rounded down to even). 0 past the end of RDRAM. For a 16-bit RGBA
 * colour pixel the coverage is (pixel & 1) << 2 | hidden. */
unsigned rdp_hidden_bits(const rdp_t *rdp, uint32_t address);
void rdp_set_hidden_bits(rdp_t *rdp, uint32_t address, unsigned bits);
/* Forgets every written hidden bit: all halfwords derive them from bit 0 again
 * (use after the caller rewrites RDRAM wholesale). */
void rdp_reset_hidden_bits(rdp_t *rdp);

#endif
