/* Benchmark: T3DM read throughput and memory (arena bytes per input byte) on real samples.
 * Usage: bench_t3dm_read FILE... ; prints one line per file. Numbers, not pass/fail. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "t3dm.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); /* CPU time: the machine may be shared */
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    bf_alloc alloc = bf_alloc_default();
    for (int i = 1; i < argc; i++) {
        uint8_t *data;
        size_t size;
        bf_error err;
        if (!bf_file_load(argv[i], alloc, &data, &size, &err)) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        size_t arena_bytes = 0;
        long iters = 0;
        double start = now(), elapsed;
        /* run for about half a second per file */
        do {
            bf_arena arena;
            bf_arena_init(&arena, alloc, 0);
            t3dm_File *f;
            if (!t3dm_read_model(data, size, &arena, NULL, &f, &err)) {
                fprintf(stderr, "%s: %s: %s\n", argv[i], err.path, err.message);
                return 1;
            }
            arena_bytes = arena.used;
            bf_arena_free(&arena);
            iters++;
            elapsed = now() - start;
        } while (elapsed < 0.5);
        printf("%-60s %8zu bytes  %8.1f MB/s  %8.2f us/read  arena %.1fx input\n", argv[i], size,
               (double)size * (double)iters / elapsed / 1e6, elapsed / (double)iters * 1e6,
               (double)arena_bytes / (double)size);
        bf_file_unload(alloc, data, size);
    }
    return 0;
}
