/* A small assembler for the subset of bass's RSP syntax used by the golden
 * test programs: `$` hex numbers, `//` comments, `label:` lines, MIPS register
 * names, vector registers `vN` with element selectors `vN[eM]`, bass's short
 * forms (`addi rt,imm`, `vmacf vd,vt[e]`, ...) and the pseudo-instructions
 * li, subi, bnez, beqz, b, move and nop. */
#ifndef N64_BASS_ASM_H
#define N64_BASS_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Assembles source into big-endian instruction words at code[0..capacity).
 * Returns false with "line N: reason" in error on any unsupported input. */
bool bass_assemble(const char *source, uint8_t *code, size_t capacity, size_t *size, char *error, size_t error_size);

#endif
