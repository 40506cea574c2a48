/* Benchmark: T3DM through views, as fractions of memcpy of the same bytes, and the full reader's
 * memory. Usage: bench_t3dm_views FILE.t3dm|FILE.sdata... ; one line per file, then the corpus,
 * then `bench: KEY VALUE` lines for make bench's summary. Numbers, not pass/fail (but a views
 * decode that disagrees with the hand-written one stops the bench).
 *
 * Times are CPU time (CLOCK_PROCESS_CPUTIME_ID: the machine is shared), read around batches of
 * calls long enough that the clock costs nothing, the median of 5 batches; every decoded value
 * goes into a sum the program keeps, so that the compiler cannot drop the work.
 *
 *   open       views: every count, offset, bound, constant and string reference checked
 *   valid      open, then every rule of the schema over the view (t3dm_view_validate_*)
 *   read       the full reader (plain structs in an arena)
 *   dec/hand   every vertex pair decoded through the views (open once, before), against a
 *              hand-written loop that decodes the same fields with no check at all: the
 *              fraction of the hand loop's speed the views keep
 *   read mem   the reader: (input + arena) per input byte
 *
 * Summary keys: views_validate_vs_memcpy (the models: memcpy time / open+validate time; the
 * animation streams have a line of their own: opening one walks every keyframe),
 * views_decode_vs_hand (the models: hand time / views time), reader_memory_worst (the worst
 * file, streams included). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bf_validate.h"
#include "t3dm_view.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static volatile uint64_t sink; /* every result ends here */

/* One input, with what the decode benchmarks start from. */
#define MAX_VERTEX_CHUNKS 64
typedef struct input {
    const uint8_t *data;
    size_t size;
    int stream;
    uint8_t *copy;        /* memcpy's destination */
    t3dm_model_view mv;   /* opened once, for the decode benchmarks */
    const uint8_t *vertices[MAX_VERTEX_CHUNKS]; /* where each vertex chunk's pairs start */
    size_t pairs[MAX_VERTEX_CHUNKS];
    size_t vertex_chunks;
    uint64_t decoded;     /* the sum the last decode made */
} input;

static int copy(input *in)
{
    memcpy(in->copy, in->data, in->size);
    sink += in->copy[in->size / 2];
    return 1;
}

static int view_open(input *in)
{
    bf_error err;
    if (in->stream) {
        t3dm_stream_view sv;
        return t3dm_view_open_stream(in->data, in->size, &sv, &err);
    }
    t3dm_model_view mv;
    return t3dm_view_open_model(in->data, in->size, &mv, &err);
}

static int view_open_validate(input *in)
{
    bf_error err;
    bf_findings findings;
    memset(&findings, 0, sizeof findings);
    int ok;
    if (in->stream) {
        t3dm_stream_view sv;
        ok = t3dm_view_open_stream(in->data, in->size, &sv, &err) && t3dm_view_validate_stream(&sv, &findings);
    } else {
        t3dm_model_view mv;
        ok = t3dm_view_open_model(in->data, in->size, &mv, &err) && t3dm_view_validate_model(&mv, &findings);
    }
    sink += findings.errors + findings.warnings;
    bf_findings_free(&findings);
    return ok;
}

static size_t last_arena;
static int reader_read(input *in)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    bf_error err;
    void *doc;
    int ok = in->stream ? t3dm_read_stream(in->data, in->size, &arena, NULL, (t3dm_StreamData **)&doc, &err)
                        : t3dm_read_model(in->data, in->size, &arena, NULL, (t3dm_File **)&doc, &err);
    last_arena = arena.used;
    bf_arena_free(&arena);
    return ok;
}

/* Every field of every vertex pair, through the accessors. */
static int views_decode(input *in)
{
    const t3dm_File_view *root = &in->mv.root;
    uint64_t acc = 0;
    size_t chunks = t3dm_File_view_chunk_data_count(root);
    for (size_t i = 0; i < chunks; i++) {
        t3dm_Chunk_view c = t3dm_File_view_chunk_data_at(root, i);
        if (t3dm_Chunk_view_body_kind(&c) != T3DM_KIND_VERTICES)
            continue;
        t3dm_Vertices_view v = t3dm_Chunk_view_body_Vertices(&c);
        size_t pairs = t3dm_Vertices_view_pairs_count(&v);
        for (size_t k = 0; k < pairs; k++) {
            t3dm_VertexPair_view p = t3dm_Vertices_view_pairs_at(&v, k);
            for (size_t j = 0; j < 3; j++)
                acc += (uint64_t)((int64_t)t3dm_VertexPair_view_position_a(&p, j) + t3dm_VertexPair_view_position_b(&p, j));
            acc += (uint64_t)t3dm_VertexPair_view_normal_a(&p) + t3dm_VertexPair_view_normal_b(&p);
            acc += (uint64_t)t3dm_VertexPair_view_rgba_a(&p) + t3dm_VertexPair_view_rgba_b(&p);
            for (size_t j = 0; j < 2; j++)
                acc += (uint64_t)((int64_t)t3dm_VertexPair_view_uv_a(&p, j) + t3dm_VertexPair_view_uv_b(&p, j));
        }
    }
    in->decoded = acc;
    sink += acc;
    return 1;
}

static int16_t s16be(const uint8_t *p) { return (int16_t)(uint16_t)((unsigned)p[0] << 8 | p[1]); }
static uint16_t u16be(const uint8_t *p) { return (uint16_t)((unsigned)p[0] << 8 | p[1]); }
static uint32_t u32be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The same fields, decoded by hand from where the pairs lie: no check, no view. */
static int hand_decode(input *in)
{
    uint64_t acc = 0;
    for (size_t c = 0; c < in->vertex_chunks; c++) {
        const uint8_t *base = in->vertices[c];
        for (size_t k = 0; k < in->pairs[c]; k++) {
            const uint8_t *p = base + k * 32;
            for (size_t j = 0; j < 3; j++)
                acc += (uint64_t)((int64_t)s16be(p + 2 * j) + s16be(p + 8 + 2 * j));
            acc += (uint64_t)u16be(p + 6) + u16be(p + 14);
            acc += (uint64_t)u32be(p + 16) + u32be(p + 20);
            for (size_t j = 0; j < 2; j++)
                acc += (uint64_t)((int64_t)s16be(p + 24 + 2 * j) + s16be(p + 28 + 2 * j));
        }
    }
    in->decoded = acc;
    sink += acc;
    return 1;
}

/* Where the vertex chunks' pairs lie (found through the views, before any timing). */
static void find_vertices(input *in)
{
    const t3dm_File_view *root = &in->mv.root;
    size_t chunks = t3dm_File_view_chunk_data_count(root);
    for (size_t i = 0; i < chunks && in->vertex_chunks < MAX_VERTEX_CHUNKS; i++) {
        t3dm_Chunk_view c = t3dm_File_view_chunk_data_at(root, i);
        if (t3dm_Chunk_view_body_kind(&c) != T3DM_KIND_VERTICES)
            continue;
        t3dm_Vertices_view v = t3dm_Chunk_view_body_Vertices(&c);
        t3dm_VertexPair_view first = t3dm_Vertices_view_pairs_at(&v, 0);
        in->vertices[in->vertex_chunks] = in->data + first._offset;
        in->pairs[in->vertex_chunks++] = t3dm_Vertices_view_pairs_count(&v);
    }
}

typedef int (*op_fn)(input *);

/* CPU seconds per call of `op`: batches of calls between two clock reads, each batch at least
 * 10 ms, the median of 5. */
static double per_call(op_fn op, input *in)
{
    long reps = 1;
    for (;;) {
        double start = cpu_now();
        for (long r = 0; r < reps; r++)
            if (!op(in)) {
                fprintf(stderr, "bench_t3dm_views: an operation failed\n");
                exit(1);
            }
        if (cpu_now() - start >= 0.01)
            break;
        reps *= 2;
    }
    double batches[5];
    for (int b = 0; b < 5; b++) {
        double start = cpu_now();
        for (long r = 0; r < reps; r++)
            op(in);
        batches[b] = (cpu_now() - start) / (double)reps;
    }
    for (int i = 1; i < 5; i++)
        for (int j = i; j > 0 && batches[j] < batches[j - 1]; j--) {
            double t = batches[j];
            batches[j] = batches[j - 1];
            batches[j - 1] = t;
        }
    return batches[2];
}

static int is_stream(const char *path)
{
    size_t n = strlen(path);
    return n > 6 && strcmp(path + n - 6, ".sdata") == 0;
}

int main(int argc, char **argv)
{
    bf_alloc alloc = bf_alloc_default();
    double t_copy = 0, t_valid = 0, t_views = 0, t_hand = 0, worst_mem = 0;
    double s_copy = 0, s_valid = 0; /* the streams */
    size_t total = 0, stream_total = 0;
    const char *worst_file = "-";
    printf("== T3DM through views, as a fraction of memcpy of the same bytes (CPU time)\n");
    printf("%-28s %8s %7s %7s %7s %9s %9s\n", "file", "bytes", "open", "valid", "read", "dec/hand", "read mem");
    for (int i = 1; i < argc; i++) {
        uint8_t *data;
        size_t size;
        bf_error err;
        if (!bf_file_load(argv[i], alloc, &data, &size, &err)) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        input in;
        memset(&in, 0, sizeof in);
        in.data = data;
        in.size = size;
        in.stream = is_stream(argv[i]);
        in.copy = malloc(size ? size : 1);
        if (!in.copy)
            return 1;
        double tc = per_call(copy, &in), to = per_call(view_open, &in), tv = per_call(view_open_validate, &in);
        double tr = per_call(reader_read, &in);
        double mem = (double)(size + last_arena) / (double)size;
        if (in.stream) {
            s_copy += tc;
            s_valid += tv;
            stream_total += size;
        } else {
            t_copy += tc;
            t_valid += tv;
            total += size;
        }
        if (mem > worst_mem) {
            worst_mem = mem;
            worst_file = argv[i];
        }
        char dec[16] = "-";
        if (!in.stream) {
            if (!t3dm_view_open_model(data, size, &in.mv, &err)) {
                fprintf(stderr, "%s: %s\n", argv[i], err.message);
                return 1;
            }
            find_vertices(&in);
            views_decode(&in);
            uint64_t through_views = in.decoded;
            hand_decode(&in);
            if (through_views != in.decoded) {
                fprintf(stderr, "%s: the views decode other values than the hand-written loop\n", argv[i]);
                return 1;
            }
            double tw = per_call(views_decode, &in), th = per_call(hand_decode, &in);
            t_views += tw;
            t_hand += th;
            snprintf(dec, sizeof dec, "%.3f", th / tw);
        }
        const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        printf("%-28s %8zu %7.3f %7.3f %7.3f %9s %8.2fx\n", name, size, tc / to, tc / tv, tc / tr, dec, mem);
        free(in.copy);
        bf_file_unload(alloc, data, size);
    }
    if (stream_total)
        printf("%-28s %8zu %7s %7.3f\n", "streams", stream_total, "", s_copy / s_valid);
    if (total)
        printf("%-28s %8zu %7s %7.3f %7s %9.3f\n", "models", total, "", t_copy / t_valid, "", t_hand / t_views);
    printf("worst reader memory: %.2fx the input, %s\n", worst_mem, worst_file);
    if (total) {
        printf("bench: views_validate_vs_memcpy %.3f\n", t_copy / t_valid);
        printf("bench: views_decode_vs_hand %.3f\n", t_hand / t_views);
    }
    if (total + stream_total)
        printf("bench: reader_memory_worst %.2f\n", worst_mem);
    return 0;
}
