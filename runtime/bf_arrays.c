/* Arrays of numbers decoded and encoded in one call (declared in bf_endian.h). The same
 * byte-by-byte loads and stores as single fields, with elements going to and from memory
 * through memcpy, so nothing depends on the host's byte order or alignment. One loop per
 * width, so that each compiles to straight-line code (this is the readers' hot path). */
#include <stddef.h>
#include <string.h>

#include "bf_endian.h"

void bf_load_array(void *dst, const uint8_t *src, size_t n, unsigned width, int big_endian, int sign24)
{
    uint8_t *out = dst;
    if (!n)
        return;
    switch (width) {
    case 1:
        memcpy(out, src, n);
        break;
    case 2:
        for (size_t i = 0; i < n; i++) {
            uint16_t v = big_endian ? bf_load_u16be(src + 2 * i) : bf_load_u16le(src + 2 * i);
            memcpy(out + 2 * i, &v, sizeof v);
        }
        break;
    case 3: /* into 32 bits; s24 sign-extended (the int32_t's bits, as a uint32_t) */
        for (size_t i = 0; i < n; i++) {
            uint32_t v = big_endian ? bf_load_u24be(src + 3 * i) : bf_load_u24le(src + 3 * i);
            if (sign24)
                v = (uint32_t)bf_s24(v);
            memcpy(out + 4 * i, &v, sizeof v);
        }
        break;
    case 4:
        for (size_t i = 0; i < n; i++) {
            uint32_t v = big_endian ? bf_load_u32be(src + 4 * i) : bf_load_u32le(src + 4 * i);
            memcpy(out + 4 * i, &v, sizeof v);
        }
        break;
    case 8:
        for (size_t i = 0; i < n; i++) {
            uint64_t v = big_endian ? bf_load_u64be(src + 8 * i) : bf_load_u64le(src + 8 * i);
            memcpy(out + 8 * i, &v, sizeof v);
        }
        break;
    }
}

void bf_store_array(uint8_t *dst, const void *src, size_t n, unsigned width, int big_endian)
{
    const uint8_t *in = src;
    if (!n)
        return;
    switch (width) {
    case 1:
        memcpy(dst, in, n);
        break;
    case 2:
        for (size_t i = 0; i < n; i++) {
            uint16_t v;
            memcpy(&v, in + 2 * i, sizeof v);
            big_endian ? bf_store_u16be(dst + 2 * i, v) : bf_store_u16le(dst + 2 * i, v);
        }
        break;
    case 3: /* from 32 bits; the caller has checked that each value fits in 24 */
        for (size_t i = 0; i < n; i++) {
            uint32_t v;
            memcpy(&v, in + 4 * i, sizeof v);
            big_endian ? bf_store_u24be(dst + 3 * i, v) : bf_store_u24le(dst + 3 * i, v);
        }
        break;
    case 4:
        for (size_t i = 0; i < n; i++) {
            uint32_t v;
            memcpy(&v, in + 4 * i, sizeof v);
            big_endian ? bf_store_u32be(dst + 4 * i, v) : bf_store_u32le(dst + 4 * i, v);
        }
        break;
    case 8:
        for (size_t i = 0; i < n; i++) {
            uint64_t v;
            memcpy(&v, in + 8 * i, sizeof v);
            big_endian ? bf_store_u64be(dst + 8 * i, v) : bf_store_u64le(dst + 8 * i, v);
        }
        break;
    }
}
