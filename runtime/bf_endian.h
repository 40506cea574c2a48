/* Byte-order loads and stores.
 *
 * Every access goes byte by byte: no unaligned loads, no type punning, and the
 * result is the same on little- and big-endian hosts (the N64's MIPS is big). */
#ifndef BF_ENDIAN_H
#define BF_ENDIAN_H

#include <stdint.h>
#include <string.h>

static inline uint16_t bf_load_u16be(const uint8_t *p) { return (uint16_t)((unsigned)p[0] << 8 | p[1]); }
static inline uint16_t bf_load_u16le(const uint8_t *p) { return (uint16_t)((unsigned)p[1] << 8 | p[0]); }
static inline uint32_t bf_load_u24be(const uint8_t *p) { return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]; }
static inline uint32_t bf_load_u24le(const uint8_t *p) { return (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]; }
static inline uint32_t bf_load_u32be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline uint32_t bf_load_u32le(const uint8_t *p)
{
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}
static inline uint64_t bf_load_u64be(const uint8_t *p)
{
    return (uint64_t)bf_load_u32be(p) << 32 | bf_load_u32be(p + 4);
}
static inline uint64_t bf_load_u64le(const uint8_t *p)
{
    return (uint64_t)bf_load_u32le(p + 4) << 32 | bf_load_u32le(p);
}

/* Signed values: convert through the two's-complement range explicitly, since
 * casting an out-of-range unsigned value to a signed type is implementation-defined. */
static inline int16_t bf_s16(uint16_t v) { return v < 0x8000u ? (int16_t)v : (int16_t)((int32_t)v - 0x10000); }
static inline int32_t bf_s24(uint32_t v) { return v < 0x800000u ? (int32_t)v : (int32_t)v - 0x1000000; }
static inline int32_t bf_s32(uint32_t v)
{
    return v < 0x80000000u ? (int32_t)v : (int32_t)(v - 0x80000000u) - (int32_t)0x7fffffff - 1;
}
static inline int64_t bf_s64(uint64_t v)
{
    return v < 0x8000000000000000u ? (int64_t)v : (int64_t)(v - 0x8000000000000000u) - INT64_MAX - 1;
}
static inline int8_t bf_s8(uint8_t v) { return v < 0x80u ? (int8_t)v : (int8_t)((int)v - 0x100); }

static inline float bf_f32_from_bits(uint32_t bits) { float f; memcpy(&f, &bits, sizeof f); return f; }
static inline double bf_f64_from_bits(uint64_t bits) { double d; memcpy(&d, &bits, sizeof d); return d; }
static inline uint32_t bf_f32_bits(float f) { uint32_t b; memcpy(&b, &f, sizeof b); return b; }
static inline uint64_t bf_f64_bits(double d) { uint64_t b; memcpy(&b, &d, sizeof b); return b; }

static inline void bf_store_u16be(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static inline void bf_store_u16le(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void bf_store_u24be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 16); p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)v;
}
static inline void bf_store_u24le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16);
}
static inline void bf_store_u32be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}
static inline void bf_store_u32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void bf_store_u64be(uint8_t *p, uint64_t v)
{
    bf_store_u32be(p, (uint32_t)(v >> 32)); bf_store_u32be(p + 4, (uint32_t)v);
}
static inline void bf_store_u64le(uint8_t *p, uint64_t v)
{
    bf_store_u32le(p, (uint32_t)v); bf_store_u32le(p + 4, (uint32_t)(v >> 32));
}

/* Whole arrays in one call (bf_arrays.c), for every array of numbers the generated readers
 * and writers handle: one call instead of a loop in each generated function. `width` is
 * the encoded size (1, 2, 3, 4 or 8); elements in memory are 1, 2, 4, 4 or 8 bytes (u24 and
 * s24 widen to 32 bits, s24 sign-extended when `sign24` is set). Floats travel as their bits. */
void bf_load_array(void *dst, const uint8_t *src, size_t n, unsigned width, int big_endian, int sign24);
void bf_store_array(uint8_t *dst, const void *src, size_t n, unsigned width, int big_endian);

#endif
