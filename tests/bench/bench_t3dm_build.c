/* Benchmark: building, replay-writing and validating T3DM models of growing size with the
 * generated builder, writer and validator. Each model has N objects of 10 parts (31, 511 and
 * 1023 objects); the time per object should stay flat as N grows, and the builder (which
 * lays everything out, in passes) should not be far behind the replay writer. Numbers, not
 * pass/fail.
 *
 * Only the operation itself is on the clock. Building needs a fresh document each time; it
 * is made before the clock starts, not timed and subtracted: making one at 511 objects
 * costs some 800 page faults after the builder's frees (glibc's heap trimming) but none in
 * a loop of makes alone, so a subtracted making time was too small and the 511 row was
 * about 2 us/object too slow.
 *
 * The last column and the `bench: build_vs_replay_fresh` line compare the builder with the
 * replay writer on equal terms: each call writes into an output buffer of its own, fresh
 * (the table's build column reuses the buffer the builder grew before), and BATCH calls run
 * between two clock reads, their documents and buffers made before and freed after. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bf_validate.h"
#include "bf_write.h"
#include "t3dm.h"

enum { PARTS = 10, PART_VERTICES = 4 }; /* 1023 x 10 x 4 vertices, x 6 indices: the header's u16 totals hold them */

#define NEW(arena, type, n) ((type *)bf_arena_alloc(arena, sizeof(type) * (size_t)(n) + 1))

/* CPU time of this process: the machine may be shared, and waiting is not work. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* `objects` objects, each its own name and PARTS parts of two triangles over the part's own
 * PART_VERTICES vertices; one vertex chunk and one material. */
static t3dm_File *make_model(bf_arena *a, unsigned objects)
{
    t3dm_File *f = NEW(a, t3dm_File, 1);
    for (int k = 0; k < 3; k++)
        f->header.aabb_min[k] = -10, f->header.aabb_max[k] = 10;
    t3dm_Vertices *v = NEW(a, t3dm_Vertices, 1);
    v->pairs_count = objects * PARTS * PART_VERTICES / 2;
    v->pairs = NEW(a, t3dm_VertexPair, v->pairs_count);
    for (uint32_t i = 0; i < v->pairs_count; i++) {
        v->pairs[i].position_a[0] = (int16_t)i, v->pairs[i].position_b[1] = (int16_t)i;
        v->pairs[i].rgba_a = v->pairs[i].rgba_b = 0xFFFFFFFFu;
    }
    static const uint8_t tris[6] = {0, 1, 2, 2, 1, 3};

    uint32_t chunks = objects + 3;
    f->chunk_data_count = chunks;
    f->chunk_data = NEW(a, t3dm_Chunk, chunks);
    for (unsigned n = 0; n < objects; n++) {
        t3dm_Object *o = NEW(a, t3dm_Object, 1);
        char *name = NEW(a, char, 16);
        int len = snprintf(name, 16, "object%u", n);
        o->name_str.ptr = name;
        o->name_str.len = (uint32_t)len;
        o->parts_count = PARTS;
        o->parts = NEW(a, t3dm_Part, PARTS);
        for (int k = 0; k < 3; k++)
            o->aabb_min[k] = -10, o->aabb_max[k] = 10;
        for (int p = 0; p < PARTS; p++) {
            o->parts[p].vertex_offset = 16u * PART_VERTICES * (n * PARTS + (unsigned)p);
            o->parts[p].vertex_count = PART_VERTICES;
            o->parts[p].matrix_index = 0xFFFF;
            o->parts[p].index_data.triangles_count = 6;
            o->parts[p].index_data.triangles = (uint8_t *)tris;
        }
        o->triangle_count = 2 * PARTS;
        f->chunk_data[n].body.kind = T3DM_KIND_OBJECT, f->chunk_data[n].body.Object = o;
    }
    t3dm_Material *m = NEW(a, t3dm_Material, 1);
    m->name_str.ptr = "plain";
    m->name_str.len = 5;
    f->chunk_data[objects].body.kind = T3DM_KIND_VERTICES, f->chunk_data[objects].body.Vertices = v;
    f->chunk_data[objects + 1].body.kind = T3DM_CHUNK_BODY_I;
    f->chunk_data[objects + 2].body.kind = T3DM_KIND_MATERIAL, f->chunk_data[objects + 2].body.Material = m;
    return f;
}

enum { ROUNDS = 9 };
#define ROUND_SECONDS 0.03 /* CPU time each operation gets in each round */

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Seconds per run of `body`, over runs adding up to ROUND_SECONDS of CPU time. Only the
 * body is timed: `setup` (making a fresh document) runs before each run, off the clock. */
#define TIME_ROUND(result, setup, body)                                                         \
    do {                                                                                        \
        long runs_ = 0;                                                                         \
        double spent_ = 0;                                                                      \
        do {                                                                                    \
            setup;                                                                              \
            double start_ = now();                                                              \
            body;                                                                               \
            spent_ += now() - start_;                                                           \
            runs_++;                                                                            \
        } while (spent_ < ROUND_SECONDS);                                                       \
        result = spent_ / (double)runs_;                                                        \
    } while (0)

/* Seconds per build of a fresh document into a fresh buffer, BATCH builds at a time. */
enum { BATCH = 8 };
static int build_fresh(unsigned objects, double *seconds)
{
    bf_arena docs[BATCH];
    t3dm_File *fresh[BATCH];
    bf_buffer outs[BATCH];
    memset(outs, 0, sizeof outs);
    for (int i = 0; i < BATCH; i++) {
        bf_arena_init(&docs[i], bf_alloc_default(), 0);
        fresh[i] = make_model(&docs[i], objects);
    }
    int ok = 1;
    bf_error err;
    double start = now();
    for (int i = 0; i < BATCH && ok; i++)
        ok = t3dm_build_model(fresh[i], &docs[i], &outs[i], &err);
    *seconds = (now() - start) / BATCH;
    if (!ok)
        fprintf(stderr, "fresh build of %u objects: %s: %s\n", objects, err.path, err.message);
    for (int i = 0; i < BATCH; i++) {
        bf_buffer_free(&outs[i]);
        bf_arena_free(&docs[i]);
    }
    return ok;
}

/* Seconds per replay of `f` into a fresh buffer, BATCH replays at a time. */
static int replay_fresh(const t3dm_File *f, double *seconds)
{
    bf_buffer outs[BATCH];
    memset(outs, 0, sizeof outs);
    int ok = 1;
    bf_error err;
    double start = now();
    for (int i = 0; i < BATCH && ok; i++)
        ok = t3dm_write_model(f, &outs[i], &err);
    *seconds = (now() - start) / BATCH;
    if (!ok)
        fprintf(stderr, "fresh replay: %s: %s\n", err.path, err.message);
    for (int i = 0; i < BATCH; i++)
        bf_buffer_free(&outs[i]);
    return ok;
}

/* The replay writer's time over the builder's, both into fresh buffers: the median of
 * ROUNDS rounds, each of batches adding up to ROUND_SECONDS for either. */
static int fresh_ratio(unsigned objects, const t3dm_File *f, double *ratio)
{
    double ratios[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        double build = 0, replay = 0, one;
        int builds = 0, replays = 0;
        while (build < ROUND_SECONDS) {
            if (!build_fresh(objects, &one))
                return 0;
            build += one * BATCH;
            builds += BATCH;
        }
        while (replay < ROUND_SECONDS) {
            if (!replay_fresh(f, &one))
                return 0;
            replay += one * BATCH;
            replays += BATCH;
        }
        ratios[r] = (replay / replays) / (build / builds);
    }
    *ratio = median(ratios, ROUNDS);
    return 1;
}

int main(void)
{
    double worst_fresh = 0;
    static const unsigned sizes[] = {31, 511, 1023};
    /* one line per size, the same columns every run: compare them run to run */
    printf("%-8s %9s %14s %15s %16s %13s %13s\n", "objects", "bytes", "build us/obj", "replay us/obj", "validate us/obj",
           "build/replay", "fresh b/r");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        unsigned objects = sizes[s];
        bf_arena arena;
        bf_arena_init(&arena, bf_alloc_default(), 0);
        bf_buffer out = {0}, replayed = {0};
        bf_error err;
        double build[ROUNDS], replay[ROUNDS], check[ROUNDS], ratio[ROUNDS];

        /* one build to read back: the document the replay writer and the validator get */
        bf_arena first;
        bf_arena_init(&first, bf_alloc_default(), 0);
        if (!t3dm_build_model(make_model(&first, objects), &first, &out, &err)) {
            fprintf(stderr, "build of %u objects: %s: %s\n", objects, err.path, err.message);
            return 1;
        }
        bf_arena_free(&first);
        t3dm_File *f;
        if (!t3dm_read_model(out.data, out.size, &arena, NULL, &f, &err)) {
            fprintf(stderr, "read back of %u objects: %s: %s\n", objects, err.path, err.message);
            return 1;
        }
        if (!t3dm_write_model(f, &replayed, &err)) {
            fprintf(stderr, "replay of %u objects: %s: %s\n", objects, err.path, err.message);
            return 1;
        }
        if (replayed.size != out.size || memcmp(replayed.data, out.data, out.size) != 0) {
            fprintf(stderr, "%u objects: the replay writer does not give the built bytes back\n", objects);
            return 1;
        }

        /* the three operations take turns, round after round, so that a busy spell of the
         * machine falls on all of them; each figure is the median over the rounds */
        bf_buffer built = {0};
        for (int r = 0; r < ROUNDS; r++) {
            /* a fresh document for each build (the builder fills in counts and offsets),
             * made off the clock: its making is not the builder's work */
            bf_arena doc;
            bf_arena_init(&doc, bf_alloc_default(), 0);
            t3dm_File *fresh = NULL;
            TIME_ROUND(build[r],
                       {
                           bf_arena_free(&doc); /* the last run's document */
                           fresh = make_model(&doc, objects);
                       },
                       {
                           if (!t3dm_build_model(fresh, &doc, &built, &err)) {
                               fprintf(stderr, "build of %u objects: %s: %s\n", objects, err.path, err.message);
                               return 1;
                           }
                       });
            bf_arena_free(&doc);
            TIME_ROUND(replay[r], (void)0, {
                bf_buffer_free(&replayed);
                if (!t3dm_write_model(f, &replayed, &err)) {
                    fprintf(stderr, "replay of %u objects: %s: %s\n", objects, err.path, err.message);
                    return 1;
                }
            });
            TIME_ROUND(check[r], (void)0, {
                bf_findings findings = {0};
                t3dm_validate_model(f, out.data, out.size, &findings);
                if (findings.errors) {
                    fprintf(stderr, "%u objects: %zu validation errors, the first: %s: %s\n", objects,
                            (size_t)findings.errors, findings.items[0].path, findings.items[0].message);
                    return 1;
                }
                bf_findings_free(&findings);
            });
            ratio[r] = replay[r] / build[r];
        }
        if (built.size != out.size || memcmp(built.data, out.data, out.size) != 0) {
            fprintf(stderr, "%u objects: the builder does not give the same bytes twice\n", objects);
            return 1;
        }
        double fresh;
        if (!fresh_ratio(objects, f, &fresh))
            return 1;
        if (s == 0 || fresh < worst_fresh)
            worst_fresh = fresh;
        printf("%-8u %9zu %14.2f %15.2f %16.3f %13.2f %13.2f\n", objects, out.size, median(build, ROUNDS) * 1e6 / objects,
               median(replay, ROUNDS) * 1e6 / objects, median(check, ROUNDS) * 1e6 / objects, median(ratio, ROUNDS),
               fresh);
        bf_buffer_free(&out);
        bf_buffer_free(&built);
        bf_buffer_free(&replayed);
        bf_arena_free(&arena);
    }
    printf("(CPU time, the median of %d interleaved rounds; build/replay: the builder's speed as a fraction of the "
           "replay writer's; fresh b/r: the same with a fresh output buffer for each call, both)\n", ROUNDS);
    /* the worst size: the builder must keep up at every size */
    printf("bench: build_vs_replay_fresh %.2f\n", worst_fresh);
    return 0;
}
