/* One test per T3DM validation rule: a file that breaks that rule, and the finding it gives.
 * The base is the project's own pyramid model (tests/fixtures/demo), valid as it is. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bf_validate.h"
#include "mutate.h"
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
static void expect_only(const char *rule, checked *c, size_t errors, size_t warnings, bf_severity sev,
                        const char *path, uint64_t offset, const char *message)
{
    cr_assert(c->read_ok, "%s: the mutated file must still read: %s %s", rule, c->err.path, c->err.message);
    const bf_finding *f = find(c, path, message);
    if (!f)
        dump(c);
    cr_assert_not_null(f, "%s: no finding at '%s' saying '%s'", rule, path, message);
    cr_expect_eq(f->severity, sev, "%s: severity", rule);
    cr_expect_eq(f->offset, offset, "%s: offset 0x%llx, expected 0x%llx", rule, (unsigned long long)f->offset,
                 (unsigned long long)offset);
    if (c->findings.errors != errors || c->findings.warnings != warnings)
        dump(c);
    cr_expect_eq(c->findings.errors, errors, "%s: errors", rule);
    cr_expect_eq(c->findings.warnings, warnings, "%s: warnings", rule);
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

/* The rules one mutation of the pyramid breaks: the bytes changed (big-endian, like T3DM) and
 * the one finding expected (with how many errors and warnings in all). Strings are arrays, not
 * pointers: Criterion runs each row in a process of its own. */
typedef struct rule_case {
    char name[64];
    mutation edits[3];
    size_t errors, warnings;
    bf_severity severity;
    char path[64];
    uint64_t offset;
    char message[64];
} rule_case;

#define ERROR BF_SEVERITY_ERROR
#define WARNING BF_SEVERITY_WARNING
static rule_case rule_cases[] = {
    {"first_chunk_must_be_an_object", /* the object chunk, read as an animation without channels */
     {{0x2C, 1, 'A'}, {0x08, 2, 0}, {0x0A, 2, 0}},
     1, 0, ERROR, "chunks", 0x2C,
     "first chunk has type 0x41, not an object"},
    {"vertex_chunk_appears_once", /* the vertex chunk becomes an unknown one */
     {{0x34, 1, 'X'}},
     1, 0, ERROR, "chunks", 0x2C,
     "0 vertex chunks, not exactly one"},
    {"index_chunk_appears_once",
     {{0x38, 1, 'X'}},
     1, 0, ERROR, "chunks", 0x2C,
     "0 index chunks, not exactly one"},
    /* the animation chunk read as an empty skeleton, before V; a second skeleton also draws
     * the warning about several skeletons */
    {"chunks_sorted_by_type",
     {{0x30, 1, 'S'}},
     1, 1, ERROR, "chunks[2].type", 0x34,
     "chunk type 0x56 comes after 0x53"},
    {"first_vertex_chunk_index",
     {{0x0C, 4, 3}},
     1, 0, ERROR, "header.first_vertex_chunk", 0x0C,
     "index 3 does not name a vertex chunk"},
    {"first_material_chunk_index",
     {{0x14, 4, 5}},
     1, 0, ERROR, "header.first_material_chunk", 0x14,
     "does not name the first material chunk"},
    {"total_index_count_agrees",
     {{0x0A, 2, 17}},
     1, 0, ERROR, "header.total_index_count", 0x0A,
     "total index count 17 but the parts hold 18"},
    /* 2 pairs read; the part still loads 6, and its vertex range leaves the vertex chunk too */
    {"total_vertex_count_agrees",
     {{0x08, 2, 4}},
     2, 0, ERROR, "header.total_vertex_count", 0x08,
     "total vertex count 4 but the parts load 6"},
    {"header_aabb_ordered", /* and the vertices at x = -64 lie outside it */
     {{0x20, 2, 100}},
     2, 0, ERROR, "header.aabb_min", 0x20,
     "AABB min (100, 0, -64) is not below max (64, 96, 64)"},
    /* the header's AABB is the vertices' bounds: one edited without the other is stale */
    {"header_aabb_holds_every_vertex", /* min y: the pyramid's base is at y = 0 */
     {{0x22, 2, 10}},
     1, 0, ERROR, "header.aabb_min", 0x20,
     "a vertex lies outside the header's AABB (-64, 10, -64)"},
    {"header_aabb_is_no_larger_than_the_vertices", /* max x */
     {{0x26, 2, 74}},
     1, 0, ERROR, "header.aabb_min", 0x20,
     "AABB (-64, 0, -64) to (74, 96, 64) is larger than the"},
    {"vertices_come_in_pairs", /* 7 also disagrees with the parts' 6 */
     {{0x08, 2, 7}},
     2, 0, ERROR, "header.total_vertex_count", 0x08,
     "total vertex count 7 is odd"},
    {"object_material_in_range",
     {{0x50, 4, 1}},
     1, 0, ERROR, "chunk_data[0].body.material", 0x50,
     "material 1 but the file has 1 material chunks"},
    {"object_aabb_ordered", /* min z -64, max z -100 */
     {{0x60, 2, 0xFFC0}, {0x66, 2, 0xFF9C}},
     1, 0, ERROR, "chunk_data[0].body.aabb_min", 0x5C,
     "is not below max (64, 96, -100)"},
    {"object_triangle_count_covers_its_parts",
     {{0x4E, 2, 5}},
     0, 1, WARNING, "chunk_data[0].body.triangle_count", 0x4E,
     "triangle count 5 is less than the 6"},
    {"part_index_count_multiple_of_three",
     {{0x74, 2, 17}, {0x0A, 2, 17}},
     1, 0, ERROR, "chunk_data[0].body.parts[0].index_count", 0x74,
     "17 is not a multiple of 3"},
    {"part_indices_are_local_to_its_vertex_load",
     {{0x104, 1, 9}},
     1, 0, ERROR, "chunk_data[0].body.parts[0].index_count", 0x74,
     "not below 6"},
    {"part_vertices_inside_the_vertex_chunk",
     {{0x68, 4, 16}},
     1, 0, ERROR, "chunk_data[0].body.parts[0].vertex_offset", 0x68,
     "vertices 1 to 7 are not inside the 6"},
    {"part_matrix_index_names_a_bone",
     {{0x76, 2, 5}},
     1, 0, ERROR, "chunk_data[0].body.parts[0].matrix_index", 0x76,
     "matrix index 5 but the skeleton has 2 bones"},
    {"bone_parent_comes_first", /* bone 1 is its own parent; its depth then no longer follows either */
     {{0x1E0, 2, 1}},
     1, 1, ERROR, "chunk_data[5].body.bones[1].parent", 0x1E0,
     "parent 1 does not come before bone 1"},
    {"bone_depth_follows_parent",
     {{0x1E2, 2, 3}},
     0, 1, WARNING, "chunk_data[5].body.bones[1].depth", 0x1E2,
     "depth 3 does not follow"},
    {"rotation_channels_first", /* the quaternion channel claims to drive a translation */
     {{0x96, 1, 0}},
     1, 0, ERROR, "chunk_data[1].body.channels[0].target_type", 0x96,
     "the first 1 channels are the rotations"},
    {"channel_attribute_index",
     {{0x97, 1, 1}},
     1, 0, ERROR, "chunk_data[1].body.channels[0].attribute_index", 0x97,
     "attribute index 1 is not valid"},
    {"channel_target_is_a_bone",
     {{0x94, 2, 2}},
     1, 0, ERROR, "chunk_data[1].body.channels[0].target_index", 0x94,
     "target 2 but the skeleton has 2 bones"},
    {"animation_duration_not_negative", /* -1.0f */
     {{0x84, 4, 0xBF800000u}},
     1, 0, ERROR, "chunk_data[1].body.duration", 0x84,
     "negative duration -1"},
    {"enum_membership", /* fog mode */
     {{0x139, 1, 7}},
     1, 0, ERROR, "chunk_data[4].body.fog_mode", 0x139,
     "7 (0x7) is not a value of FogMode"},
    {"unknown_flag_bits",
     {{0x13A, 1, 0x11}},
     0, 1, WARNING, "chunk_data[4].body.color_flags", 0x13A,
     "bits 0x10 are not ColorFlags flags"},
};
#undef ERROR
#undef WARNING

ParameterizedTestParameters(t3dm_rules, one_finding_per_broken_rule)
{
    return cr_make_param_array(rule_case, rule_cases, sizeof rule_cases / sizeof rule_cases[0]);
}

ParameterizedTest(rule_case *rc, t3dm_rules, one_finding_per_broken_rule)
{
    MUTATE();
    cr_assert(mutate(d, size, rc->edits, sizeof rc->edits / sizeof rc->edits[0], 0), "%s: a change outside the file",
              rc->name);
    checked c;
    check(&c, d, size);
    expect_only(rc->name, &c, rc->errors, rc->warnings, rc->severity, rc->path, rc->offset, rc->message);
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
    put_u16be(d, b + 4 + 14 * inner + 12, 0x7F0); /* children at +127 */
    checked c;
    check(&c, d, size);
    char path[64], msg[64];
    snprintf(path, sizeof path, "chunk_data[%u].body.nodes[%u].value", chunk, inner);
    snprintf(msg, sizeof msg, "children %u and %u are not among", inner + 127, inner + 128);
    expect_only(__func__, &c, 1, 0, BF_SEVERITY_ERROR, path, b + 4 + 14 * inner + 12, msg);
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
    put_u16be(d, b + 4 + 14 * leaf + 12, (0x100 << 4) | count);
    checked c;
    check(&c, d, size);
    char path[64];
    snprintf(path, sizeof path, "chunk_data[1].body.nodes[%u].value", leaf);
    expect_only(__func__, &c, 1, 0, BF_SEVERITY_ERROR, path, b + 4 + 14 * leaf + 12, "is not inside the");
}

Test(t3dm_rules, bvh_data_names_an_object)
{
    size_t size;
    uint32_t b;
    uint8_t *d = scene(&size, &b);
    unsigned nodes = (unsigned)d[b] << 8 | d[b + 1];
    put_u16be(d, b + 4 + 14 * nodes, 99);
    checked c;
    check(&c, d, size);
    expect_only(__func__, &c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[1].body.data_array[0]", b + 4 + 14 * nodes,
                "object 99 but the file has");
}

Test(t3dm_rules, bvh_node_aabb_ordered)
{
    size_t size;
    uint32_t b;
    uint8_t *d = scene(&size, &b);
    put_u16be(d, b + 4 + 0, 0x7FFF);
    checked c;
    check(&c, d, size);
    expect_only(__func__, &c, 1, 0, BF_SEVERITY_ERROR, "chunk_data[1].body.nodes[0].aabb_min", b + 4,
                "AABB min (32767");
}
