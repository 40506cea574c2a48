/* Benchmark: T3DM through views next to the full reader, as fractions of memcpy of the same
 * bytes (measured in the same process, interleaved), and memory per input byte.
 * Usage: bench_t3dm_views FILE.t3dm|FILE.sdata... ; one line per file, then the corpus of models
 * (streams: open+decode and read only; they are not in the corpus line). Numbers, not
 * pass/fail; the format of the lines is stable so runs can be compared.
 *
 *   open          views: every count, offset, bound, constant and string reference checked
 *   open+decode   open, then every vertex pair, index and part decoded through the accessors
 *   read          the full reader (plain structs in an arena)
 *   read+valid    the full reader and the validator (every rule of the schema)
 *   mem           view: the caller's t3dm_model_view plus the input, per input byte (no heap);
 *                 reader: arena plus the input, per input byte */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bf_validate.h"
#include "t3dm_view.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static volatile uint64_t sink; /* keeps decoded values alive */

static int view_open(const uint8_t *d, size_t n)
{
    t3dm_model_view mv;
    bf_error err;
    return t3dm_view_open_model(d, n, &mv, &err);
}

/* What a loader does with a model: every vertex and index, every part's load. */
static int view_open_decode(const uint8_t *d, size_t n)
{
    t3dm_model_view mv;
    bf_error err;
    if (!t3dm_view_open_model(d, n, &mv, &err))
        return 0;
    uint64_t acc = 0;
    size_t chunks = t3dm_File_view_chunk_data_count(&mv.root);
    for (size_t i = 0; i < chunks; i++) {
        t3dm_Chunk_view c = t3dm_File_view_chunk_data_at(&mv.root, i);
        int kind = t3dm_Chunk_view_body_kind(&c);
        if (kind == T3DM_KIND_VERTICES) {
            t3dm_Vertices_view v = t3dm_Chunk_view_body_Vertices(&c);
            size_t pairs = t3dm_Vertices_view_pairs_count(&v);
            for (size_t k = 0; k < pairs; k++) {
                t3dm_VertexPair_view p = t3dm_Vertices_view_pairs_at(&v, k);
                for (size_t j = 0; j < 3; j++)
                    acc += (uint64_t)(t3dm_VertexPair_view_position_a(&p, j) + t3dm_VertexPair_view_position_b(&p, j));
                acc += t3dm_VertexPair_view_normal_a(&p) + t3dm_VertexPair_view_normal_b(&p);
                acc += t3dm_VertexPair_view_rgba_a(&p) + t3dm_VertexPair_view_rgba_b(&p);
                acc += (uint64_t)(t3dm_VertexPair_view_uv_a(&p, 0) + t3dm_VertexPair_view_uv_a(&p, 1));
                acc += (uint64_t)(t3dm_VertexPair_view_uv_b(&p, 0) + t3dm_VertexPair_view_uv_b(&p, 1));
            }
        } else if (kind == T3DM_KIND_OBJECT) {
            t3dm_Object_view o = t3dm_Chunk_view_body_Object(&c);
            size_t parts = t3dm_Object_view_parts_count(&o);
            for (size_t k = 0; k < parts; k++) {
                t3dm_Part_view p = t3dm_Object_view_parts_at(&o, k);
                acc += t3dm_Part_view_vertex_offset(&p) + t3dm_Part_view_vertex_count(&p);
                t3dm_PartIndices_view ix = t3dm_Part_view_index_data(&p);
                size_t tri = t3dm_PartIndices_view_triangles_count(&ix);
                const uint8_t *t = t3dm_PartIndices_view_triangles_bytes(&ix);
                for (size_t j = 0; j < tri; j++)
                    acc += t[j];
            }
        }
    }
    sink += acc;
    return 1;
}

static size_t last_arena;
static int reader_read(const uint8_t *d, size_t n)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    t3dm_File *f;
    bf_error err;
    int ok = t3dm_read_model(d, n, &arena, NULL, &f, &err);
    last_arena = arena.used;
    bf_arena_free(&arena);
    return ok;
}

static int reader_read_validate(const uint8_t *d, size_t n)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    t3dm_File *f;
    bf_error err;
    int ok = t3dm_read_model(d, n, &arena, NULL, &f, &err);
    if (ok) {
        bf_findings findings;
        memset(&findings, 0, sizeof findings);
        t3dm_validate_model(f, d, n, &findings);
        bf_findings_free(&findings);
    }
    bf_arena_free(&arena);
    return ok;
}

/* Streams (.sdata): open, then every keyframe walked and decoded. */
static int stream_open_decode(const uint8_t *d, size_t n)
{
    t3dm_stream_view sv;
    bf_error err;
    if (!t3dm_view_open_stream(d, n, &sv, &err))
        return 0;
    uint64_t acc = 0;
    t3dm_Keyframe_view k;
    for (int more = t3dm_StreamData_view_keyframes_first(&sv.root, &k); more;
         more = t3dm_StreamData_view_keyframes_next(&sv.root, &k)) {
        acc += t3dm_Keyframe_view_time(&k) + t3dm_Keyframe_view_channel(&k);
        for (size_t j = 0; j < t3dm_Keyframe_view_data_count(&k); j++)
            acc += t3dm_Keyframe_view_data(&k, j);
    }
    sink += acc;
    return 1;
}

static int stream_read(const uint8_t *d, size_t n)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    t3dm_StreamData *s;
    bf_error err;
    int ok = t3dm_read_stream(d, n, &arena, NULL, &s, &err);
    last_arena = arena.used;
    bf_arena_free(&arena);
    return ok;
}

static uint8_t *copy_dst;
static int copy(const uint8_t *d, size_t n)
{
    memcpy(copy_dst, d, n);
    sink += copy_dst[n / 2];
    return 1;
}

enum { OP_COPY, OP_OPEN, OP_DECODE, OP_READ, OP_VALID, OP_STREAM_DECODE, OP_STREAM_READ, ALL_OPS };
enum { OPS = OP_VALID + 1 };
static int (*const ops[ALL_OPS])(const uint8_t *, size_t) = {
    copy, view_open, view_open_decode, reader_read, reader_read_validate, stream_open_decode, stream_read};

static int is_stream(const char *path)
{
    size_t n = strlen(path);
    return n > 6 && strcmp(path + n - 6, ".sdata") == 0;
}

/* Seconds per call: the median of 5 rounds of ~20 ms each. */
static double per_call(int op, const uint8_t *d, size_t n)
{
    double rounds[5];
    for (int r = 0; r < 5; r++) {
        long iters = 0;
        double start = now(), elapsed;
        do {
            if (!ops[op](d, n)) {
                fprintf(stderr, "operation %d failed\n", op);
                exit(1);
            }
            iters++;
            elapsed = now() - start;
        } while (elapsed < 0.02);
        rounds[r] = elapsed / (double)iters;
    }
    for (int i = 1; i < 5; i++)
        for (int j = i; j > 0 && rounds[j] < rounds[j - 1]; j--) {
            double t = rounds[j];
            rounds[j] = rounds[j - 1];
            rounds[j - 1] = t;
        }
    return rounds[2];
}

int main(int argc, char **argv)
{
    bf_alloc alloc = bf_alloc_default();
    double total[OPS] = {0};
    size_t total_bytes = 0;
    double worst_view_mem = 0, worst_reader_mem = 0;
    printf("== T3DM through views and the full reader, as a fraction of memcpy of the same bytes\n");
    printf("%-44s %8s %7s %7s %7s %7s  %9s %9s\n", "file", "bytes", "open", "op+dec", "read", "rd+val",
           "view mem", "read mem");
    for (int i = 1; i < argc; i++) {
        uint8_t *data;
        size_t size;
        bf_error err;
        if (!bf_file_load(argv[i], alloc, &data, &size, &err)) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        copy_dst = malloc(size ? size : 1);
        const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        if (is_stream(argv[i])) {
            double tc = per_call(OP_COPY, data, size), td = per_call(OP_STREAM_DECODE, data, size);
            double tr = per_call(OP_STREAM_READ, data, size);
            printf("%-44s %8zu %7s %7.3f %7.3f %7s  %8.2fx %8.2fx\n", name, size, "-", tc / td, tc / tr, "-",
                   (double)(size + sizeof(t3dm_stream_view)) / (double)size, (double)(size + last_arena) / (double)size);
            free(copy_dst);
            bf_file_unload(alloc, data, size);
            continue;
        }
        double t[OPS];
        for (int op = 0; op < OPS; op++) {
            t[op] = per_call(op, data, size);
            total[op] += t[op];
        }
        total_bytes += size;
        double view_mem = (double)(size + sizeof(t3dm_model_view)) / (double)size;
        double reader_mem = (double)(size + last_arena) / (double)size;
        if (view_mem > worst_view_mem)
            worst_view_mem = view_mem;
        if (reader_mem > worst_reader_mem)
            worst_reader_mem = reader_mem;
        printf("%-44s %8zu %7.3f %7.3f %7.3f %7.3f  %8.2fx %8.2fx\n", name, size, t[OP_COPY] / t[OP_OPEN],
               t[OP_COPY] / t[OP_DECODE], t[OP_COPY] / t[OP_READ], t[OP_COPY] / t[OP_VALID], view_mem, reader_mem);
        free(copy_dst);
        bf_file_unload(alloc, data, size);
    }
    printf("%-44s %8zu %7.3f %7.3f %7.3f %7.3f  %8.2fx %8.2fx (worst file)\n", "corpus", total_bytes,
           total[OP_COPY] / total[OP_OPEN], total[OP_COPY] / total[OP_DECODE], total[OP_COPY] / total[OP_READ],
           total[OP_COPY] / total[OP_VALID], worst_view_mem, worst_reader_mem);
    printf("corpus memcpy %.1f MB/s; views open %.1f MB/s; open+decode %.1f MB/s; read %.1f MB/s; "
           "read+validate %.1f MB/s; t3dm_model_view %zu bytes, no heap\n",
           (double)total_bytes / total[OP_COPY] / 1e6, (double)total_bytes / total[OP_OPEN] / 1e6,
           (double)total_bytes / total[OP_DECODE] / 1e6, (double)total_bytes / total[OP_READ] / 1e6,
           (double)total_bytes / total[OP_VALID] / 1e6, sizeof(t3dm_model_view));
    return 0;
}
