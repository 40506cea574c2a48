/* Arrays of numbers decoded and encoded in one call (declared in bf_endian.h). Each element
 * goes through the same byte-by-byte loads and stores as a single field, then into memory
 * with memcpy, so nothing depends on the host's byte order or alignment. */
#include <stddef.h>
#include <string.h>

#include "bf_endian.h"

static size_t mem_width(unsigned width) { return width == 3 ? 4 : width; }

void bf_load_array(void *dst, const uint8_t *src, size_t n, unsigned width, int big_endian, int sign24)
{
    uint8_t *out = dst;
    if (width == 1) {
        if (n)
            memcpy(out, src, n);
        return;
    }
    size_t step = mem_width(width);
    for (size_t i = 0; i < n; i++, src += width, out += step) {
        switch (width) {
        case 2: {
            uint16_t v = big_endian ? bf_load_u16be(src) : bf_load_u16le(src);
            memcpy(out, &v, sizeof v);
            break;
        }
        case 3: {
            uint32_t u = big_endian ? bf_load_u24be(src) : bf_load_u24le(src);
            if (sign24) {
                int32_t v = bf_s24(u);
                memcpy(out, &v, sizeof v);
            } else {
                memcpy(out, &u, sizeof u);
            }
            break;
        }
        case 4: {
            uint32_t v = big_endian ? bf_load_u32be(src) : bf_load_u32le(src);
            memcpy(out, &v, sizeof v);
            break;
        }
        case 8: {
            uint64_t v = big_endian ? bf_load_u64be(src) : bf_load_u64le(src);
            memcpy(out, &v, sizeof v);
            break;
        }
        default:
            return;
        }
    }
}

void bf_store_array(uint8_t *dst, const void *src, size_t n, unsigned width, int big_endian)
{
    const uint8_t *in = src;
    if (width == 1) {
        if (n)
            memcpy(dst, in, n);
        return;
    }
    size_t step = mem_width(width);
    for (size_t i = 0; i < n; i++, dst += width, in += step) {
        switch (width) {
        case 2: {
            uint16_t v;
            memcpy(&v, in, sizeof v);
            if (big_endian)
                bf_store_u16be(dst, v);
            else
                bf_store_u16le(dst, v);
            break;
        }
        case 3: {
            uint32_t v; /* the caller has checked that it fits in 24 bits */
            memcpy(&v, in, sizeof v);
            if (big_endian)
                bf_store_u24be(dst, v);
            else
                bf_store_u24le(dst, v);
            break;
        }
        case 4: {
            uint32_t v;
            memcpy(&v, in, sizeof v);
            if (big_endian)
                bf_store_u32be(dst, v);
            else
                bf_store_u32le(dst, v);
            break;
        }
        case 8: {
            uint64_t v;
            memcpy(&v, in, sizeof v);
            if (big_endian)
                bf_store_u64be(dst, v);
            else
                bf_store_u64le(dst, v);
            break;
        }
        default:
            return;
        }
    }
}
