/* LZ4 blocks (the raw block format of lz4's block API and of every block of an LZ4 frame):
 * a sequence of (literals, match) pairs, each starting with a token whose high nibble is the
 * literal length and low nibble the match length minus 4, both extended by 255-bytes when
 * they are 15; a match is a 16-bit little-endian offset back into the output. The last
 * sequence has literals only. Written from the public format description; every length and
 * offset is checked against the input, the output capacity and the output produced so far. */
#include <string.h>

#include "bf_runtime.h"

/* A length of 15 in a token goes on in the bytes that follow: each adds its value, 255 means
 * another byte follows. Returns 0 when the input ends first or the length would overflow. */
static int extend(const uint8_t *src, size_t n, size_t *ip, uint64_t *len)
{
    for (;;) {
        if (*ip >= n)
            return 0;
        uint8_t b = src[(*ip)++];
        *len += b;
        if (*len > (UINT64_C(1) << 48))
            return 0; /* beyond any real block: a hostile run of 255s */
        if (b != 255)
            return 1;
    }
}

int64_t bf_lz4_block(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t history)
{
    size_t ip = 0;
    uint64_t out = 0;
    if (!src || n == 0)
        return -1;
    for (;;) {
        uint8_t token = src[ip++];
        uint64_t lit = token >> 4;
        if (lit == 15 && !extend(src, n, &ip, &lit))
            return -1;
        if (lit > n - ip)
            return -1; /* literals past the end of the block */
        if (dst) {
            if (lit > cap - out)
                return -1;
            memcpy(dst + out, src + ip, (size_t)lit);
        }
        ip += (size_t)lit;
        out += lit;
        if (ip == n)
            return (int64_t)out; /* the last sequence: literals only */
        if (n - ip < 2)
            return -1;
        uint64_t offset = (uint64_t)src[ip] | (uint64_t)src[ip + 1] << 8;
        ip += 2;
        if (offset == 0 || offset > out + history)
            return -1; /* before the start of what the match may reach */
        uint64_t match = (token & 15u) + 4u;
        if ((token & 15u) == 15 && !extend(src, n, &ip, &match))
            return -1;
        if (ip >= n)
            return -1; /* a block ends with literals, never with a match */
        if (dst) {
            if (match > cap - out)
                return -1;
            /* byte by byte: a match may overlap the bytes it produces (offset < length) */
            const uint8_t *from = dst + out - offset;
            for (uint64_t i = 0; i < match; i++)
                dst[out + i] = from[i];
        }
        out += match;
        if (!dst && out > (UINT64_C(1) << 52))
            return -1;
    }
}

int64_t bf_lz4_size(const uint8_t *src, size_t n, int64_t window)
{
    return bf_lz4_block(src, n, NULL, 0, window > 0 ? (size_t)window : 0);
}
