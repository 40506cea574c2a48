/* The builder never cuts a computed value to fit its field: a count, an offset, a
 * string-table offset or a `value:` formula that does not fit is an error naming the field
 * and its offset, and a failed build leaves no output. One case per format the builder lays
 * out (J3D's name tables cannot be laid out by the builder yet). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bf_write.h"
#include "p3m.h"
#include "samples.h"
#include "t3dm.h"
#include "tmd.h"
#include "tml.h"

#define NEW(arena, type, n) ((type *)bf_arena_alloc(arena, sizeof(type) * (size_t)(n) + 1))

/* A model of `vertices` vertices (in pairs), one object of one triangle, one material. */
static t3dm_File *t3dm_model(bf_arena *a, uint32_t vertices)
{
    t3dm_File *f = NEW(a, t3dm_File, 1);
    t3dm_Vertices *v = NEW(a, t3dm_Vertices, 1);
    v->pairs_count = vertices / 2;
    v->pairs = NEW(a, t3dm_VertexPair, v->pairs_count);
    static uint8_t triangle[3] = {0, 1, 2};
    t3dm_Object *o = NEW(a, t3dm_Object, 1);
    o->name_str.ptr = "tri";
    o->name_str.len = 3;
    o->parts_count = 1;
    o->parts = NEW(a, t3dm_Part, 1);
    o->parts[0].vertex_count = 3;
    o->parts[0].matrix_index = 0xFFFF;
    o->parts[0].index_data.triangles_count = 3;
    o->parts[0].index_data.triangles = triangle;
    o->triangle_count = 1;
    t3dm_Material *m = NEW(a, t3dm_Material, 1);
    m->name_str.ptr = "plain";
    m->name_str.len = 5;
    f->chunk_data_count = 4;
    f->chunk_data = NEW(a, t3dm_Chunk, 4);
    f->chunk_data[0].body.kind = T3DM_KIND_OBJECT, f->chunk_data[0].body.Object = o;
    f->chunk_data[1].body.kind = T3DM_KIND_VERTICES, f->chunk_data[1].body.Vertices = v;
    f->chunk_data[2].body.kind = T3DM_CHUNK_BODY_I;
    f->chunk_data[3].body.kind = T3DM_KIND_MATERIAL, f->chunk_data[3].body.Material = m;
    return f;
}

/* The build failed with `path`, `message` (and `offset` unless UINT64_MAX), and left nothing. */
static void expect_refused(int ok, const bf_buffer *out, const bf_error *err, const char *path, uint64_t offset,
                           const char *message)
{
    cr_assert_not(ok, "the build succeeded");
    cr_expect(err->failed);
    cr_expect_str_eq(err->path, path);
    if (offset != UINT64_MAX)
        cr_expect_eq(err->offset, offset, "offset 0x%llx", (unsigned long long)err->offset);
    cr_expect_str_eq(err->message, message);
    cr_expect(out->data == NULL && out->size == 0, "a failed build left %zu bytes", out->size);
}

Test(build_overflow, t3dm_total_vertex_count_past_u16)
{
    bf_arena a;
    bf_arena_init(&a, bf_alloc_default(), 0);
    bf_buffer out = {0};
    bf_error err;
    int ok = t3dm_build_model(t3dm_model(&a, 101184), &a, &out, &err);
    expect_refused(ok, &out, &err, "header.total_vertex_count", 0x8,
                   "value 101184 does not fit in 16 unsigned bits (0 to 65535)");
    char line[512];
    bf_error_format(&err, NULL, line, sizeof line);
    cr_expect_str_eq(line, "error: header.total_vertex_count @0x8: value 101184 does not fit in 16 unsigned bits "
                           "(0 to 65535)");
    bf_arena_free(&a);
}

Test(build_overflow, t3dm_largest_vertex_count_that_fits_builds)
{
    bf_arena a;
    bf_arena_init(&a, bf_alloc_default(), 0);
    bf_buffer out = {0};
    bf_error err;
    t3dm_File *f = t3dm_model(&a, 65534);
    cr_assert(t3dm_build_model(f, &a, &out, &err), "%s: %s", err.path, err.message);
    cr_expect_eq(f->header.total_vertex_count, 65534);
    cr_expect(out.data[8] == 0xFF && out.data[9] == 0xFE, "stored big-endian at 0x8");
    bf_buffer_free(&out);
    bf_arena_free(&a);
}

/* A bit field's part wider than its bits is refused, not masked (the index is signed). */
Test(build_overflow, t3dm_bvh_node_value_index_past_12_bits)
{
    bf_arena a;
    bf_arena_init(&a, bf_alloc_default(), 0);
    t3dm_File *f = t3dm_model(&a, 4);
    t3dm_Chunk *chunks = NEW(&a, t3dm_Chunk, 5);
    memcpy(chunks, f->chunk_data, 4 * sizeof *chunks);
    t3dm_Bvh *bvh = NEW(&a, t3dm_Bvh, 1);
    bvh->nodes_count = 1;
    bvh->nodes = NEW(&a, t3dm_BvhNode, 1);
    bvh->nodes[0].value_index = 5000;
    bvh->nodes[0].value_data_count = 1;
    bvh->data_array_count = 1;
    bvh->data_array = NEW(&a, uint16_t, 1);
    chunks[4].body.kind = T3DM_KIND_BVH, chunks[4].body.Bvh = bvh;
    f->chunk_data = chunks;
    f->chunk_data_count = 5;
    bf_buffer out = {0};
    bf_error err;
    int ok = t3dm_build_model(f, &a, &out, &err);
    /* data placed through an offset is named from where it is placed (the chunk's body) */
    expect_refused(ok, &out, &err, "body.nodes[0].value_index", UINT64_MAX,
                   "value 5000 does not fit in 12 signed bits (-2048 to 2047)");
    bf_arena_free(&a);
}

/* The same in an array of plain elements (vertex pairs), whose bits only the first layout
 * pass packs (the others step over the array): the part is still refused, at the element's
 * own position. */
Test(build_overflow, t3dm_vertex_normal_past_6_bits)
{
    bf_arena a;
    bf_arena_init(&a, bf_alloc_default(), 0);
    t3dm_File *f = t3dm_model(&a, 4);
    t3dm_Vertices *v = f->chunk_data[1].body.Vertices;
    v->pairs[1].normal_b_y = 40;
    bf_buffer out = {0};
    bf_error err;
    int ok = t3dm_build_model(f, &a, &out, &err);
    cr_assert_gt(v->pairs[1]._offset, 0, "the pair was never placed");
    expect_refused(ok, &out, &err, "body.pairs[1].normal_b_y", v->pairs[1]._offset + 14,
                   "value 40 does not fit in 6 signed bits (-32 to 31)");
    bf_arena_free(&a);
}

/* A count stored in one element of a fixed array (the part's second strip length, one
 * byte) is refused when it does not fit, named with its index. */
Test(build_overflow, t3dm_part_strip_length_past_8_bits)
{
    bf_arena a;
    bf_arena_init(&a, bf_alloc_default(), 0);
    t3dm_File *f = t3dm_model(&a, 4);
    t3dm_PartIndices *ix = &f->chunk_data[0].body.Object->parts[0].index_data;
    ix->has_strip_b = 1;
    ix->strip_b_count = 300;
    ix->strip_b = NEW(&a, uint16_t, 300);
    bf_buffer out = {0};
    bf_error err;
    int ok = t3dm_build_model(f, &a, &out, &err);
    expect_refused(ok, &out, &err, "body.parts[0].strip_index_counts[1]", UINT64_MAX,
                   "value 300 does not fit in 8 unsigned bits (0 to 255)");
    bf_arena_free(&a);
}

/* Reads a sample into `a` (whose budget is the file's: what a test adds goes elsewhere). */
static void *read_sample(const char *rel, bf_arena *a, uint8_t **data,
                         int (*read)(const uint8_t *, size_t, bf_arena *, const bf_read_opts *, void **, bf_error *))
{
    size_t size;
    cr_assert(load_file(sample_path(rel), data, &size), "cannot read %s", rel);
    bf_arena_init(a, bf_alloc_default(), 0);
    void *doc;
    bf_error err;
    cr_assert(read(*data, size, a, NULL, &doc, &err), "%s: %s: %s", rel, err.path, err.message);
    return doc;
}

static int read_p3m(const uint8_t *d, size_t n, bf_arena *a, const bf_read_opts *o, void **doc, bf_error *e)
{
    return p3m_read_model(d, n, a, o, (p3m_File **)doc, e);
}
static int read_tmd(const uint8_t *d, size_t n, bf_arena *a, const bf_read_opts *o, void **doc, bf_error *e)
{
    return tmd_read_model(d, n, a, o, (tmd_File **)doc, e);
}
static int read_tml(const uint8_t *d, size_t n, bf_arena *a, const bf_read_opts *o, void **doc, bf_error *e)
{
    return tml_read_library(d, n, a, o, (tml_File **)doc, e);
}

/* A count: 70 000 indices in a part, whose index count is a u16. */
Test(build_overflow, p3m_index_count_past_u16)
{
    REQUIRE_SAMPLES();
    bf_arena a, more;
    bf_arena_init(&more, bf_alloc_default(), 0);
    uint8_t *data;
    p3m_File *f = read_sample("p3m/cube.p3m", &a, &data, read_p3m);
    cr_assert(f->data.parts_count > 0);
    p3m_Part *part = &f->data.parts[0];
    uint64_t at = part->index_count_at; /* nothing before it changes: the builder puts it there too */
    part->indices_count = 70000;
    part->indices = NEW(&more, uint16_t, 70000);
    bf_buffer out = {0};
    bf_error err;
    int ok = p3m_build_model(f, &a, &out, &err);
    expect_refused(ok, &out, &err, "data.parts[0].index_count", at,
                   "value 70000 does not fit in 16 unsigned bits (0 to 65535)");
    bf_arena_free(&more);
    bf_arena_free(&a);
    free(data);
}

/* A string-table offset: after a 70 000-byte name, the next name's offset is past a u16. */
Test(build_overflow, p3m_string_offset_past_u16)
{
    REQUIRE_SAMPLES();
    bf_arena a, more;
    bf_arena_init(&more, bf_alloc_default(), 0);
    uint8_t *data;
    p3m_File *f = read_sample("p3m/cube.p3m", &a, &data, read_p3m);
    p3m_Part *parts = NEW(&more, p3m_Part, 2);
    parts[0] = parts[1] = f->data.parts[0];
    char *long_name = NEW(&more, char, 70000);
    memset(long_name, 'n', 70000);
    parts[0].name_str.ptr = long_name;
    parts[0].name_str.len = 70000;
    parts[1].name_str.ptr = "second";
    parts[1].name_str.len = 6;
    f->data.parts = parts;
    f->data.parts_count = 2;
    bf_buffer out = {0};
    bf_error err;
    int ok = p3m_build_model(f, &a, &out, &err);
    char message[128];
    snprintf(message, sizeof message, "value %u does not fit in 16 unsigned bits (0 to 65535)", 70000u + 1u);
    expect_refused(ok, &out, &err, "data.parts[1].name", UINT64_MAX, message);
    bf_arena_free(&more);
    bf_arena_free(&a);
    free(data);
}

/* A count set from elsewhere in the file: the scene's node count, from the node array. */
Test(build_overflow, tmd_node_count_past_u16)
{
    REQUIRE_SAMPLES();
    bf_arena a, more;
    bf_arena_init(&more, bf_alloc_default(), 0);
    uint8_t *data;
    tmd_File *f = read_sample("tmd/box.tmd", &a, &data, read_tmd);
    cr_assert(f->nodes_count > 0);
    tmd_Node *nodes = NEW(&more, tmd_Node, 70000);
    for (uint32_t i = 0; i < 70000; i++)
        nodes[i] = f->nodes[0];
    f->nodes = nodes;
    f->nodes_count = 70000;
    if (f->has_aux_data) { /* one per node too: the count must not be set back from it */
        f->aux_data = NEW(&more, int32_t, 70000);
        f->aux_data_count = 70000;
    }
    /* each animation has a channel per node and would set the count back: none here */
    f->animation_pointers_count = 0;
    bf_buffer out = {0};
    bf_error err;
    int ok = tmd_build_model(f, &a, &out, &err);
    expect_refused(ok, &out, &err, "scene.node_count", UINT64_MAX,
                   "value 70000 does not fit in 16 unsigned bits (0 to 65535)");
    bf_arena_free(&more);
    bf_arena_free(&a);
    free(data);
}

/* A material naming more textures than its u16 count holds. */
Test(build_overflow, tml_texture_count_past_u16)
{
    REQUIRE_SAMPLES();
    bf_arena a, more;
    bf_arena_init(&more, bf_alloc_default(), 0);
    uint8_t *data;
    tml_File *f = read_sample("tml/basic_rgba.tml", &a, &data, read_tml);
    cr_assert(f->materials_count > 0);
    tml_Material *m = &f->materials[0];
    m->texture_ids = NEW(&more, tml_TextureRef, 70000);
    m->texture_ids_count = 70000;
    bf_buffer out = {0};
    bf_error err;
    int ok = tml_build_library(f, &a, &out, &err);
    expect_refused(ok, &out, &err, "materials[0].texture_count", UINT64_MAX,
                   "value 70000 does not fit in 16 unsigned bits (0 to 65535)");
    bf_arena_free(&more);
    bf_arena_free(&a);
    free(data);
}

/* Sizes the builder computes from the file as laid out: the header's count of the bytes after
 * it, and the scene block's size, which ends where the levels of detail start. */
Test(build_overflow, tmd_sizes_follow_the_layout)
{
    REQUIRE_SAMPLES();
    bf_arena a;
    uint8_t *data;
    tmd_File *f = read_sample("tmd/box.tmd", &a, &data, read_tmd);
    f->header.remaining = 1;  /* wrong on purpose: the builder must not copy them */
    f->scene_size = 2;
    bf_buffer out = {0};
    bf_error err;
    int ok = tmd_build_model(f, &a, &out, &err);
    cr_assert(ok, "%s: %s", err.path, err.message);
    cr_assert_gt(out.size, 0x40);
    uint32_t remaining = bf_load_u32le(out.data + 8), scene_size = bf_load_u32le(out.data + 0x3C);
    cr_expect_eq(remaining, out.size - 12, "remaining %u for a file of %zu bytes", remaining, out.size);
    cr_expect_eq(scene_size, f->header.lod_offset, "scene size %u, levels of detail at 60 + %u", scene_size,
                 (unsigned)f->header.lod_offset);
    bf_buffer_free(&out);
    bf_arena_free(&a);
    free(data);
}
