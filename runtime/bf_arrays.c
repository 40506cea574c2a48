/* Arrays of numbers decoded and encoded in one call (declared in bf_endian.h). Bytes are
 * assembled one by one and elements go to and from memory with memcpy, so nothing depends
 * on the host's byte order or alignment. */
#include <stddef.h>
#include <string.h>

#include "bf_endian.h"

static uint64_t load_bytes(const uint8_t *p, unsigned width, int big_endian)
{
    uint64_t v = 0;
    for (unsigned b = 0; b < width; b++)
        v = v << 8 | p[big_endian ? b : width - 1 - b];
    return v;
}

static void store_bytes(uint8_t *p, uint64_t v, unsigned width, int big_endian)
{
    for (unsigned b = 0; b < width; b++)
        p[big_endian ? width - 1 - b : b] = (uint8_t)(v >> (8 * b));
}

/* An element in memory: u24/s24 live in 32 bits. */
static size_t mem_width(unsigned width) { return width == 3 ? 4 : width; }

static void put_mem(uint8_t *out, uint64_t v, size_t size)
{
    uint16_t v16 = (uint16_t)v;
    uint32_t v32 = (uint32_t)v;
    if (size == 2)
        memcpy(out, &v16, 2);
    else if (size == 4)
        memcpy(out, &v32, 4);
    else
        memcpy(out, &v, 8);
}

static uint64_t get_mem(const uint8_t *in, size_t size)
{
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;
    if (size == 2)
        return memcpy(&v16, in, 2), v16;
    if (size == 4)
        return memcpy(&v32, in, 4), v32;
    return memcpy(&v64, in, 8), v64;
}

void bf_load_array(void *dst, const uint8_t *src, size_t n, unsigned width, int big_endian, int sign24)
{
    if (!n || (width != 1 && width != 2 && width != 3 && width != 4 && width != 8))
        return;
    if (width == 1) {
        memcpy(dst, src, n);
        return;
    }
    uint8_t *out = dst;
    for (size_t i = 0; i < n; i++, src += width, out += mem_width(width)) {
        uint64_t v = load_bytes(src, width, big_endian);
        if (sign24 && width == 3)
            v = (uint64_t)(uint32_t)bf_s24((uint32_t)v); /* the same 32 bits as the int32_t */
        put_mem(out, v, mem_width(width));
    }
}

void bf_store_array(uint8_t *dst, const void *src, size_t n, unsigned width, int big_endian)
{
    if (!n || (width != 1 && width != 2 && width != 3 && width != 4 && width != 8))
        return;
    if (width == 1) {
        memcpy(dst, src, n);
        return;
    }
    const uint8_t *in = src;
    for (size_t i = 0; i < n; i++, dst += width, in += mem_width(width))
        store_bytes(dst, get_mem(in, mem_width(width)), width, big_endian); /* u24: the caller checked it fits */
}
