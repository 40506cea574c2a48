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

static uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The frame format (lz4's "LZ4 Frame Format Description"): FLG holds the version (01 in bits
 * 7-6), block independence (5), block checksums (4), a content size (3), a content checksum
 * (2) and a dictionary ID (0); each block is a 32-bit size whose top bit marks it stored. */
int64_t bf_lz4_frame(const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
    if (n < 7 || load_le32(src) != 0x184D2204u)
        return -1;
    uint8_t flg = src[4];
    if ((flg >> 6) != 1 || (flg & 1))
        return -1; /* another version, or a dictionary this decoder does not have */
    size_t ip = 6 + ((flg & 0x08) ? 8 : 0) + 1; /* FLG, BD, content size, header checksum */
    size_t out = 0;
    int independent = (flg & 0x20) != 0;
    for (;;) {
        if (ip > n || n - ip < 4)
            return -1;
        uint32_t size = load_le32(src + ip);
        ip += 4;
        if (size == 0)
            return (int64_t)out; /* the end mark */
        uint32_t len = size & 0x7FFFFFFFu;
        if (len > n - ip)
            return -1;
        if (size & 0x80000000u) {
            if (len > cap - out)
                return -1;
            if (len)
                memcpy(dst + out, src + ip, len);
            out += len;
        } else {
            size_t history = independent ? 0 : (out < 65536 ? out : 65536);
            int64_t got = bf_lz4_block(src + ip, len, dst + out, cap - out, history);
            if (got < 0)
                return -1;
            out += (size_t)got;
        }
        ip += len + ((flg & 0x10) ? 4 : 0);
        if (ip > n)
            return -1;
    }
}
