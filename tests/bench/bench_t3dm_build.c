/* Benchmark: building and validating T3DM models of growing size with the generated
 * builder and validator. Each model has N objects of 10 parts (31, 511 and 1023 objects);
 * the time per object should stay flat as N grows. Numbers, not pass/fail. */
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

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
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

int main(void)
{
    static const unsigned sizes[] = {31, 511, 1023};
    printf("%-8s %10s %12s %12s %14s %14s\n", "objects", "bytes", "build ms", "validate ms", "build us/obj",
           "validate us/obj");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        unsigned objects = sizes[s];
        bf_arena arena;
        bf_arena_init(&arena, bf_alloc_default(), 0);
        bf_buffer out = {0};
        bf_error err;
        long builds = 0, checks = 0;
        double start = now(), build_time, check_time;
        do { /* a fresh document each time: the builder fills in counts and offsets */
            bf_arena doc;
            bf_arena_init(&doc, bf_alloc_default(), 0);
            if (!t3dm_build_model(make_model(&doc, objects), &doc, &out, &err)) {
                fprintf(stderr, "build of %u objects: %s: %s\n", objects, err.path, err.message);
                return 1;
            }
            bf_arena_free(&doc);
            builds++;
            build_time = now() - start;
        } while (build_time < 0.5);

        t3dm_File *f;
        if (!t3dm_read_model(out.data, out.size, &arena, NULL, &f, &err)) {
            fprintf(stderr, "read back of %u objects: %s: %s\n", objects, err.path, err.message);
            return 1;
        }
        start = now();
        do {
            bf_findings findings = {0};
            t3dm_validate_model(f, out.data, out.size, &findings);
            if (findings.errors) {
                fprintf(stderr, "%u objects: %zu validation errors, the first: %s: %s\n", objects,
                        (size_t)findings.errors, findings.items[0].path, findings.items[0].message);
                return 1;
            }
            bf_findings_free(&findings);
            checks++;
            check_time = now() - start;
        } while (check_time < 0.5);
        double build_ms = build_time / (double)builds * 1e3, check_ms = check_time / (double)checks * 1e3;
        printf("%-8u %10zu %12.3f %12.3f %14.2f %14.2f\n", objects, out.size, build_ms, check_ms,
               build_ms * 1e3 / objects, check_ms * 1e3 / objects);
        bf_buffer_free(&out);
        bf_arena_free(&arena);
    }
    return 0;
}
