/* One test per T3DM validation rule: a file that breaks that rule, and the finding it gives.
 * The base is the project's own pyramid model (tests/fixtures/demo), valid as it is. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bf_validate.h"
#include "samples.h"
#include "t3dm.h"

typedef struct checked {
    uint8_t *data;
    size_t size;
    int read_ok;
    bf_error err;
    bf_findings findings;
} checked;

static uint8_t *pyramid(size_t *size)
{
    uint8_t *data;
    cr_assert(load_file(BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.t3dm", &data, size));
    return data;
}

static void put16(uint8_t *d, size_t at, unsigned v)
{
    d[at] = (uint8_t)(v >> 8);
    d[at + 1] = (uint8_t)v;
}

static void put32(uint8_t *d, size_t at, uint32_t v)
{
    put16(d, at, v >> 16);
    put16(d, at + 2, v & 0xffff);
}

static void check(checked *c, uint8_t *data, size_t size)
{
    memset(c, 0, sizeof *c);
    c->data = data;
    c->size = size;
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    t3dm_File *f;
    c->read_ok = t3dm_read_model(data, size, &arena, NULL, &f, &c->err);
    if (c->read_ok)
        t3dm_validate_model(f, data, size, &c->findings);
    bf_arena_free(&arena);
}

static void release(checked *c)
{
    bf_findings_free(&c->findings);
    free(c->data);
}

/* The finding whose path and message contain the given texts, or NULL. */
static const bf_finding *find(const checked *c, const char *path, const char *message)
{
    for (size_t i = 0; i < c->findings.count; i++)
        if (strcmp(c->findings.items[i].path, path) == 0 && strstr(c->findings.items[i].message, message))
            return &c->findings.items[i];
    return NULL;
}

static void dump(const checked *c)
{
    for (size_t i = 0; i < c->findings.count; i++) {
        char line[700];
        bf_finding_format(&c->findings.items[i], "pyramid", line, sizeof line);
        cr_log_info("%s", line);
    }
}

/* Expects exactly `errors` errors and `warnings` warnings, one of them this finding. */
static void expect_only(checked *c, size_t errors, size_t warnings, bf_severity sev, const char *path,
                        uint64_t offset, const char *message)
{
    cr_assert(c->read_ok, "the mutated file must still read: %s %s", c->err.path, c->err.message);
    const bf_finding *f = find(c, path, message);
    if (!f)
        dump(c);
    cr_assert_not_null(f, "no finding at '%s' saying '%s'", path, message);
    cr_expect_eq(f->severity, sev);
    cr_expect_eq(f->offset, offset, "offset 0x%llx, expected 0x%llx", (unsigned long long)f->offset,
                 (unsigned long long)offset);
    if (c->findings.errors != errors || c->findings.warnings != warnings)
        dump(c);
    cr_expect_eq(c->findings.errors, errors, "errors");
    cr_expect_eq(c->findings.warnings, warnings, "warnings");
    release(c);
}

#define MUTATE(name) \
    size_t size;     \
    uint8_t *d = pyramid(&size);

Test(t3dm_rules, the_pyramid_is_valid)
{
    MUTATE();
    checked c;
    check(&c, d, size);
    cr_assert(c.read_ok);
    dump(&c);
    cr_expect_eq(c.findings.count, 0);
    release(&c);
}

Test(t3dm_rules, first_chunk_must_be_an_object)
{
    MUTATE();
    d[0x2C] = 'A'; /* the object chunk, read as an animation without channels */
    put16(d, 0x08, 0);
    put16(d, 0x0A, 0);
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunks", 0x2C, "first chunk has type 0x41, not an object");
}

Test(t3dm_rules, vertex_chunk_appears_once)
{
    MUTATE();
    d[0x2C + 2 * 4] = 'X'; /* the vertex chunk becomes an unknown one */
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunks", 0x2C, "0 vertex chunks, not exactly one");
}

Test(t3dm_rules, index_chunk_appears_once)
{
    MUTATE();
    d[0x2C + 3 * 4] = 'X';
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunks", 0x2C, "0 index chunks, not exactly one");
}

Test(t3dm_rules, chunks_sorted_by_type)
{
    MUTATE();
    d[0x2C + 1 * 4] = 'S'; /* the animation chunk read as an empty skeleton, before V */
    checked c;
    check(&c, d, size);
    /* a second skeleton also draws the warning about several skeletons */
    expect_only(&c, 1, 1, BF_SEVERITY_ERROR, "chunks[2].type", 0x34, "chunk type 0x56 comes after 0x53");
}

Test(t3dm_rules, first_vertex_chunk_index)
{
    MUTATE();
    put32(d, 0x0C, 3);
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "header.first_vertex_chunk", 0x0C, "index 3 does not name a vertex chunk");
}

Test(t3dm_rules, first_material_chunk_index)
{
    MUTATE();
    put32(d, 0x14, 5);
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "header.first_material_chunk", 0x14, "does not name the first material chunk");
}

Test(t3dm_rules, total_index_count_agrees)
{
    MUTATE();
    put16(d, 0x0A, 17);
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "header.total_index_count", 0x0A, "total index count 17 but the parts hold 18");
}

Test(t3dm_rules, total_vertex_count_agrees)
{
    MUTATE();
    put16(d, 0x08, 4); /* 2 pairs read; the part still loads 6 */
    checked c;
    check(&c, d, size);
    /* the part's vertex range then leaves the vertex chunk too */
    expect_only(&c, 2, 0, BF_SEVERITY_ERROR, "header.total_vertex_count", 0x08, "total vertex count 4 but the parts load 6");
}

Test(t3dm_rules, header_aabb_ordered)
{
    MUTATE();
    put16(d, 0x20, 100);
    checked c;
    check(&c, d, size);
    /* and the vertices at x = -64 lie outside it */
    expect_only(&c, 2, 0, BF_SEVERITY_ERROR, "header.aabb_min", 0x20, "AABB min (100, 0, -64) is not below max (64, 96, 64)");
}

/* The header's AABB is the bounds of the vertices: a vertex moved or a bound edited without
 * the other is reported as stale, either way. */
Test(t3dm_rules, header_aabb_holds_every_vertex)
{
    MUTATE();
    put16(d, 0x22, 10); /* min y: the base of the pyramid is at y = 0 */
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "header.aabb_min", 0x20,
                "a vertex lies outside the header's AABB (-64, 10, -64) to (64, 96, 64): stale after an edit?");
}

Test(t3dm_rules, header_aabb_is_no_larger_than_the_vertices)
{
    MUTATE();
    put16(d, 0x26, 74); /* max x */
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "header.aabb_min", 0x20,
                "the header's AABB (-64, 0, -64) to (74, 96, 64) is larger than the vertices' bounds");
}

Test(t3dm_rules, vertices_come_in_pairs)
{
    MUTATE();
    put16(d, 0x08, 7);
    checked c;
    check(&c, d, size);
    /* 7 also disagrees with the parts' 6 */
    expect_only(&c, 2, 0, BF_SEVERITY_ERROR, "header.total_vertex_count", 0x08, "total vertex count 7 is odd");
}

Test(t3dm_rules, object_material_in_range)
{
    MUTATE();
    put32(d, 0x50, 1);
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[0].body.material", 0x50, "material 1 but the file has 1 material chunks");
}

Test(t3dm_rules, object_aabb_ordered)
{
    MUTATE();
    put16(d, 0x60, 0xFF00); /* min z: -256 -> fine; make max z smaller instead */
    put16(d, 0x60, (unsigned)-64 & 0xffff);
    put16(d, 0x66, (unsigned)-100 & 0xffff);
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[0].body.aabb_min", 0x5C, "is not below max (64, 96, -100)");
}

Test(t3dm_rules, object_triangle_count_covers_its_parts)
{
    MUTATE();
    put16(d, 0x4E, 5);
    checked c;
    check(&c, d, size);
    expect_only(&c, 0, 1, BF_SEVERITY_WARNING, "chunk_data[0].body.triangle_count", 0x4E, "triangle count 5 is less than the 6");
}

Test(t3dm_rules, part_index_count_multiple_of_three)
{
    MUTATE();
    put16(d, 0x74, 17);
    put16(d, 0x0A, 17);
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[0].body.parts[0].index_count", 0x74, "17 is not a multiple of 3");
}

Test(t3dm_rules, part_indices_are_local_to_its_vertex_load)
{
    MUTATE();
    d[0x100 + 4] = 9;
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[0].body.parts[0].index_count", 0x74, "not below 6");
}

Test(t3dm_rules, part_vertices_inside_the_vertex_chunk)
{
    MUTATE();
    put32(d, 0x68, 16);
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[0].body.parts[0].vertex_offset", 0x68, "vertices 1 to 7 are not inside the 6");
}

Test(t3dm_rules, part_matrix_index_names_a_bone)
{
    MUTATE();
    put16(d, 0x76, 5);
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[0].body.parts[0].matrix_index", 0x76, "matrix index 5 but the skeleton has 2 bones");
}

Test(t3dm_rules, bone_parent_comes_first)
{
    MUTATE();
    put16(d, 0x1E0, 1); /* bone 1 is its own parent; its depth then no longer follows either */
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 1, BF_SEVERITY_ERROR, "chunk_data[5].body.bones[1].parent", 0x1E0, "parent 1 does not come before bone 1");
}

Test(t3dm_rules, bone_depth_follows_parent)
{
    MUTATE();
    put16(d, 0x1E2, 3);
    checked c;
    check(&c, d, size);
    expect_only(&c, 0, 1, BF_SEVERITY_WARNING, "chunk_data[5].body.bones[1].depth", 0x1E2, "depth 3 does not follow");
}

Test(t3dm_rules, rotation_channels_first)
{
    MUTATE();
    d[0x96] = 0; /* the quaternion channel claims to drive a translation */
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[1].body.channels[0].target_type", 0x96, "the first 1 channels are the rotations");
}

Test(t3dm_rules, channel_attribute_index)
{
    MUTATE();
    d[0x97] = 1;
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[1].body.channels[0].attribute_index", 0x97, "attribute index 1 is not valid");
}

Test(t3dm_rules, channel_target_is_a_bone)
{
    MUTATE();
    put16(d, 0x94, 2);
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[1].body.channels[0].target_index", 0x94, "target 2 but the skeleton has 2 bones");
}

Test(t3dm_rules, animation_duration_not_negative)
{
    MUTATE();
    put32(d, 0x84, 0xBF800000u); /* -1.0f */
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[1].body.duration", 0x84, "negative duration -1");
}

Test(t3dm_rules, enum_membership)
{
    MUTATE();
    d[0x139] = 7; /* fog mode */
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[4].body.fog_mode", 0x139, "7 (0x7) is not a value of FogMode");
}

Test(t3dm_rules, unknown_flag_bits)
{
    MUTATE();
    d[0x13A] = 0x11;
    checked c;
    check(&c, d, size);
    expect_only(&c, 0, 1, BF_SEVERITY_WARNING, "chunk_data[4].body.color_flags", 0x13A, "bits 0x10 are not ColorFlags flags");
}

Test(t3dm_rules, material_read_as_a_skeleton_does_not_read)
{
    MUTATE();
    d[0x2C + 4 * 4] = 'S'; /* the material chunk read as a skeleton with 0xFC12 bones: too many */
    checked c;
    check(&c, d, size);
    cr_expect_not(c.read_ok, "a material read as a skeleton runs past its region");
    cr_expect_str_eq(c.err.path, "chunk_data[4].body.bones");
    release(&c);
}

/* ---- the BVH rules, on the one sample with a small BVH ---- */

/* A sample with a BVH; `chunk` gets the BVH's chunk index and `bvh` its offset. */
static uint8_t *bvh_sample(const char *rel, size_t *size, uint32_t *bvh, unsigned *chunk)
{
    REQUIRE_SAMPLES();
    uint8_t *data;
    cr_assert(load_file(sample_path(rel), &data, size));
    unsigned count = (unsigned)data[6] << 8 | data[7];
    for (*chunk = 0; *chunk < count && data[0x2C + 4 * *chunk] != 'B'; (*chunk)++)
        ;
    cr_assert_lt(*chunk, count);
    const uint8_t *e = data + 0x2C + 4 * *chunk;
    *bvh = (uint32_t)e[1] << 16 | (uint32_t)e[2] << 8 | e[3];
    return data;
}

static uint8_t *scene(size_t *size, uint32_t *bvh)
{
    unsigned chunk;
    uint8_t *d = bvh_sample("t3dm/18_particles/scene.t3dm", size, bvh, &chunk);
    cr_assert_eq(chunk, 1);
    return d;
}

Test(t3dm_rules, bvh_inner_children_in_range)
{
    size_t size;
    uint32_t b;
    unsigned chunk;
    uint8_t *d = bvh_sample("t3dm/17_culling/platformer.t3dm", &size, &b, &chunk);
    unsigned nodes = (unsigned)d[b] << 8 | d[b + 1];
    unsigned inner = 0;
    while (inner < nodes && (d[b + 4 + 14 * inner + 13] & 15) != 0)
        inner++;
    cr_assert_lt(inner, nodes, "the sample has an inner node");
    put16(d, b + 4 + 14 * inner + 12, 0x7F0); /* children at +127 */
    checked c;
    check(&c, d, size);
    char path[64], msg[64];
    snprintf(path, sizeof path, "chunk_data[%u].body.nodes[%u].value", chunk, inner);
    snprintf(msg, sizeof msg, "children %u and %u are not among", inner + 127, inner + 128);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, path, b + 4 + 14 * inner + 12, msg);
}

Test(t3dm_rules, bvh_leaf_data_in_range)
{
    size_t size;
    uint32_t b;
    uint8_t *d = scene(&size, &b);
    unsigned nodes = (unsigned)d[b] << 8 | d[b + 1];
    unsigned leaf = 0;
    while (leaf < nodes && (d[b + 4 + 14 * leaf + 13] & 15) == 0)
        leaf++;
    cr_assert_lt(leaf, nodes);
    unsigned count = d[b + 4 + 14 * leaf + 13] & 15;
    put16(d, b + 4 + 14 * leaf + 12, (0x100 << 4) | count);
    checked c;
    check(&c, d, size);
    char path[64];
    snprintf(path, sizeof path, "chunk_data[1].body.nodes[%u].value", leaf);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, path, b + 4 + 14 * leaf + 12, "is not inside the");
}

Test(t3dm_rules, bvh_data_names_an_object)
{
    size_t size;
    uint32_t b;
    uint8_t *d = scene(&size, &b);
    unsigned nodes = (unsigned)d[b] << 8 | d[b + 1];
    put16(d, b + 4 + 14 * nodes, 99);
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[1].body.data_array[0]", b + 4 + 14 * nodes, "object 99 but the file has");
}

Test(t3dm_rules, bvh_node_aabb_ordered)
{
    size_t size;
    uint32_t b;
    uint8_t *d = scene(&size, &b);
    put16(d, b + 4 + 0, 0x7FFF);
    checked c;
    check(&c, d, size);
    expect_only(&c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[1].body.nodes[0].aabb_min", b + 4, "AABB min (32767");
}
