/* A driver for a libFuzzer harness without libFuzzer: feeds it `COUNT` inputs made from
 * `SEED` (tests/fuzz/fuzz_schemas.sh runs fuzz_reader.c over random schemas this way, built
 * with gcc and its sanitizers). Inputs are short and mostly zeros with a few random bytes:
 * counts and tags then stay small, so that many of them read, and what reads is written
 * back and read again by the harness. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t state;

static unsigned pick(unsigned n)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (unsigned)((state * UINT64_C(2685821657736338717)) >> 33) % n;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s COUNT SEED\n", argv[0]);
        return 2;
    }
    long count = strtol(argv[1], NULL, 10);
    state = strtoull(argv[2], NULL, 10) * UINT64_C(0x9E3779B97F4A7C15) + 1;
    LLVMFuzzerInitialize(&argc, &argv);
    static uint8_t buf[1024];
    for (long i = 0; i < count; i++) {
        size_t size = pick(sizeof buf);
        memset(buf, 0, size);
        unsigned density = 1 + pick(8); /* one byte in 2 to 256 is random */
        for (size_t j = 0; j < size; j++)
            if (pick(1u << density) == 0)
                buf[j] = (uint8_t)pick(256);
        LLVMFuzzerTestOneInput(buf, size);
    }
    return 0;
}
