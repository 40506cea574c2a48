/* Building T3DM files from scratch: the document says what the model is; the builder
 * computes every count, offset, chunk index, string-table offset, alignment and padding. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bf_validate.h"
#include "bf_write.h"
#include "doc_equal.h"
#include "formats.h"
#include "samples.h"
#include "t3dm.h"

static bf_str text(const char *s)
{
    bf_str r = {s, (uint32_t)strlen(s), 0};
    return r;
}

#define NEW(arena, type, n) ((type *)bf_arena_alloc(arena, sizeof(type) * (size_t)(n) + 1))

enum { PARTS = 3, PART_VERTICES = 50 }; /* 150 vertices: more than one vertex-cache load (70) */

/* A ring of quads in three parts, a material, a two-bone skeleton, an animation and a BVH:
 * every chunk type, and nothing about where anything goes. */
static t3dm_File *make_model(bf_arena *a)
{
    t3dm_File *f = NEW(a, t3dm_File, 1);

    /* vertices, two at a time */
    t3dm_Vertices *v = NEW(a, t3dm_Vertices, 1);
    v->pairs_count = PARTS * PART_VERTICES / 2;
    v->pairs = NEW(a, t3dm_VertexPair, v->pairs_count);
    for (uint32_t i = 0; i < v->pairs_count; i++) {
        t3dm_VertexPair *p = &v->pairs[i];
        p->position_a[0] = (int16_t)(i % 40 * 5 - 100), p->position_a[1] = -10, p->position_a[2] = (int16_t)(i / 2);
        p->position_b[0] = (int16_t)(i % 40 * 5 - 100), p->position_b[1] = 10, p->position_b[2] = (int16_t)(i / 2);
        p->normal_a_y = 31, p->normal_b_y = -31;
        p->rgba_a = 0xFF8000FFu, p->rgba_b = 0x0080FFFFu;
        p->uv_a[0] = (int16_t)(i * 8), p->uv_b[1] = 256;
    }
    /* the header's AABB is the vertices' bounds, as tiny3d's converter makes it (a rule) */
    for (int k = 0; k < 3; k++) {
        f->header.aabb_min[k] = INT16_MAX, f->header.aabb_max[k] = INT16_MIN;
        for (uint32_t i = 0; i < v->pairs_count; i++) {
            const int16_t *pa = v->pairs[i].position_a, *pb = v->pairs[i].position_b;
            int16_t lo = pa[k] < pb[k] ? pa[k] : pb[k], hi = pa[k] > pb[k] ? pa[k] : pb[k];
            f->header.aabb_min[k] = lo < f->header.aabb_min[k] ? lo : f->header.aabb_min[k];
            f->header.aabb_max[k] = hi > f->header.aabb_max[k] ? hi : f->header.aabb_max[k];
        }
    }

    /* one object, three parts: 16 triangles each, part 0 also a strip, part 1 two */
    t3dm_Object *o = NEW(a, t3dm_Object, 1);
    o->name_str = text("ring");
    o->parts_count = PARTS;
    o->parts = NEW(a, t3dm_Part, PARTS);
    o->material = 0;
    for (int k = 0; k < 3; k++)
        o->aabb_min[k] = f->header.aabb_min[k], o->aabb_max[k] = f->header.aabb_max[k];
    for (int p = 0; p < PARTS; p++) {
        t3dm_Part *part = &o->parts[p];
        part->vertex_offset = (uint32_t)(16 * PART_VERTICES * p);
        part->vertex_count = PART_VERTICES;
        part->matrix_index = p == 2 ? 1 : 0xFFFF;
        t3dm_PartIndices *ix = &part->index_data;
        ix->triangles_count = 48;
        ix->triangles = NEW(a, uint8_t, 48);
        for (int t = 0; t < 48; t++)
            ix->triangles[t] = (uint8_t)(t / 3 * 2 + t % 3);
        if (p < 2) {
            ix->strip_a_count = 10;
            ix->strip_a = NEW(a, uint16_t, 10);
            for (int s = 0; s < 10; s++)
                ix->strip_a[s] = (uint16_t)(20 + s);
        }
        if (p == 1) {
            ix->strip_b_count = 5;
            ix->strip_b = NEW(a, uint16_t, 5);
            for (int s = 0; s < 5; s++)
                ix->strip_b[s] = (uint16_t)(40 + s);
        }
        o->triangle_count = (uint16_t)(o->triangle_count + 16 + (ix->strip_a_count ? 8 : 0) + (ix->strip_b_count ? 3 : 0));
    }

    t3dm_Animation *an = NEW(a, t3dm_Animation, 1);
    an->name_str = text("spin");
    an->sdata_path_str = text("rom:/ring.0.sdata");
    an->duration = 1.5f;
    an->keyframe_count = 4;
    an->quat_channel_count = 1;
    an->scalar_channel_count = 1;
    an->channels_count = 2;
    an->channels = NEW(a, t3dm_ChannelMapping, 2);
    an->channels[0].target_index = 1, an->channels[0].target_type = T3DM_TARGET_TYPE_ROTATION;
    an->channels[1].target_index = 0, an->channels[1].target_type = T3DM_TARGET_TYPE_TRANSLATION;
    an->channels[1].attribute_index = 1, an->channels[1].quant_scale = 0.01f;

    t3dm_Bvh *bvh = NEW(a, t3dm_Bvh, 1);
    bvh->nodes_count = 1;
    bvh->nodes = NEW(a, t3dm_BvhNode, 1);
    for (int k = 0; k < 3; k++)
        bvh->nodes[0].aabb_min[k] = o->aabb_min[k], bvh->nodes[0].aabb_max[k] = o->aabb_max[k];
    bvh->nodes[0].value_index = 0, bvh->nodes[0].value_data_count = 1;
    bvh->data_array_count = 1;
    bvh->data_array = NEW(a, uint16_t, 1);

    t3dm_Material *m = NEW(a, t3dm_Material, 1);
    m->name_str = text("metal");
    m->color_flags = T3DM_COLOR_FLAGS_PRIM;
    m->prim_color[0] = m->prim_color[3] = 255;
    m->texture_a.path_str = text("rom:/metal.i8.sprite");
    m->texture_a.width = m->texture_a.height = 32;
    m->texture_a.axis[0].high = m->texture_a.axis[1].high = 31.0f;

    t3dm_Skeleton *sk = NEW(a, t3dm_Skeleton, 1);
    sk->bones_count = 2;
    sk->bones = NEW(a, t3dm_Bone, 2);
    const char *bone_names[] = {"root", "tip"};
    for (int b = 0; b < 2; b++) {
        sk->bones[b].name_str = text(bone_names[b]);
        sk->bones[b].parent = b ? 0 : 0xFFFF;
        sk->bones[b].depth = (uint16_t)b;
        sk->bones[b].scale[0] = sk->bones[b].scale[1] = sk->bones[b].scale[2] = 1.0f;
        sk->bones[b].rotation[3] = 1.0f;
        sk->bones[b].translation[1] = b ? 10.0f : 0.0f;
    }

    /* the chunks, in the order the document asks for: O A B V I M S */
    f->chunk_data_count = 7;
    f->chunk_data = NEW(a, t3dm_Chunk, 7);
    f->chunk_data[0].body.kind = T3DM_KIND_OBJECT, f->chunk_data[0].body.Object = o;
    f->chunk_data[1].body.kind = T3DM_KIND_ANIMATION, f->chunk_data[1].body.Animation = an;
    f->chunk_data[2].body.kind = T3DM_KIND_BVH, f->chunk_data[2].body.Bvh = bvh;
    f->chunk_data[3].body.kind = T3DM_KIND_VERTICES, f->chunk_data[3].body.Vertices = v;
    f->chunk_data[4].body.kind = T3DM_CHUNK_BODY_I; /* the parts' indices are placed into it */
    f->chunk_data[5].body.kind = T3DM_KIND_MATERIAL, f->chunk_data[5].body.Material = m;
    f->chunk_data[6].body.kind = T3DM_KIND_SKELETON, f->chunk_data[6].body.Skeleton = sk;
    return f;
}

typedef struct reread {
    bf_arena arena;
    t3dm_File *file;
    bf_findings findings;
} reread;

static void read_back(reread *r, const bf_buffer *out)
{
    bf_error err;
    bf_arena_init(&r->arena, bf_alloc_default(), 0);
    cr_assert(t3dm_read_model(out->data, out->size, &r->arena, NULL, &r->file, &err), "the built file does not read: %s @0x%llx: %s",
              err.path, (unsigned long long)err.offset, err.message);
    memset(&r->findings, 0, sizeof r->findings);
    t3dm_validate_model(r->file, out->data, out->size, &r->findings);
    for (size_t i = 0; i < r->findings.count; i++) {
        char line[700];
        bf_finding_format(&r->findings.items[i], "built", line, sizeof line);
        cr_log_error("%s", line);
    }
}

Test(t3dm_build, every_chunk_type_from_scratch)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    t3dm_File *f = make_model(&arena);
    bf_buffer out = {0};
    bf_error err;
    cr_assert(t3dm_build_model(f, &arena, &out, &err), "%s @0x%llx: %s", err.path, (unsigned long long)err.offset, err.message);

    /* what the builder worked out */
    cr_expect_eq(f->header.chunk_count, 7);
    cr_expect_str_eq(f->header.magic.ptr, "T3M");
    cr_expect_eq(f->header.version, 4);
    cr_expect_eq(f->header.total_vertex_count, 150);
    cr_expect_eq(f->header.total_index_count, 144);
    cr_expect_eq(f->header.first_vertex_chunk, 3);
    cr_expect_eq(f->header.first_index_chunk, 4);
    cr_expect_eq(f->header.first_material_chunk, 5);
    const char types[] = "OABVIMS";
    for (int i = 0; i < 7; i++)
        cr_expect_eq(f->chunks[i].type, (uint8_t)types[i], "chunk %d", i);
    cr_expect_eq(f->chunks[0].offset % 8, 0);
    cr_expect_eq(f->chunks[3].offset % 16, 0, "vertices aligned to 16");
    cr_expect_eq(f->header.string_table_offset % 4, 0);
    t3dm_Object *o = f->chunk_data[0].body.Object;
    cr_expect_eq(o->part_count, 3);
    cr_expect_eq(o->parts[0].index_count, 48);
    cr_expect_eq(o->parts[0].strip_index_counts[0], 10);
    cr_expect_eq(o->parts[1].strip_index_counts[1], 5);
    cr_expect_eq(o->parts[0].index_data.strip_a_at % 8, 0, "strips aligned to 8 for the RSP's DMA");
    cr_expect_eq(o->parts[0].index_offset, 0, "the first part's indices open the index chunk");
    cr_expect(o->parts[1].index_offset > o->parts[0].index_offset);
    cr_expect_eq(f->chunk_data[6].body.Skeleton->bone_count, 2);
    cr_expect_eq(f->chunk_data[2].body.Bvh->node_count, 1);

    /* it reads back equal, and passes the validator */
    reread r;
    read_back(&r, &out);
    char why[600];
    cr_expect(doc_equal(t3dm_format.entries[0].root, f, r.file, why, sizeof why), "%s", why);
    cr_expect_eq(r.findings.errors, 0, "the built file is valid");
    cr_expect_eq(r.findings.warnings, 0);
    /* the index chunk holds exactly the parts' indices */
    t3dm_Part *p0 = &r.file->chunk_data[0].body.Object->parts[0];
    cr_expect_eq(r.file->chunks[4].offset + p0->index_offset, p0->index_data._offset);
    cr_expect_lt(r.file->chunks[2].offset, r.file->chunks[3].offset);
    bf_findings_free(&r.findings);
    bf_arena_free(&r.arena);

    /* building again gives the same bytes */
    bf_buffer again = {0};
    cr_assert(t3dm_build_model(f, &arena, &again, &err));
    cr_expect(again.size == out.size && memcmp(again.data, out.data, out.size) == 0);
    bf_buffer_free(&again);
    bf_buffer_free(&out);
    bf_arena_free(&arena);
}

Test(t3dm_build, keyframe_stream_from_scratch)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    t3dm_StreamData *s = NEW(&arena, t3dm_StreamData, 1);
    s->keyframes_count = 4;
    s->keyframes = NEW(&arena, t3dm_Keyframe, 4);
    /* rotation, scalar, rotation, scalar: each keyframe's flag announces the next one's size */
    const int rotation[] = {1, 0, 1, 0};
    for (int k = 0; k < 4; k++) {
        t3dm_Keyframe *kf = &s->keyframes[k];
        kf->channel = (uint16_t)(k % 2);
        kf->time_ticks = 15;
        kf->time_next_is_rotation = (uint64_t)(k + 1 < 4 ? rotation[k + 1] : rotation[k]);
        kf->data_count = k == 0 || rotation[k] ? 2 : 1;
        kf->data = NEW(&arena, uint16_t, 2);
        kf->data[0] = (uint16_t)(0x1000 * (k + 1));
        kf->data[1] = 0x7FFF;
    }
    bf_buffer out = {0};
    bf_error err;
    cr_assert(t3dm_build_stream(s, &arena, &out, &err), "%s: %s", err.path, err.message);
    cr_expect_eq(out.size, 8 + 6 + 8 + 6);
    cr_expect(out.data[0] == 0x00 && out.data[1] == 15, "first keyframe: next is scalar, 15 ticks");
    cr_expect(out.data[8] == 0x80 && out.data[9] == 15, "second: next is a rotation");
    bf_arena r;
    bf_arena_init(&r, bf_alloc_default(), 0);
    t3dm_StreamData *back;
    cr_assert(t3dm_read_stream(out.data, out.size, &r, NULL, &back, &err), "%s", err.message);
    char why[600];
    cr_expect(doc_equal(t3dm_format.entries[1].root, s, back, why, sizeof why), "%s", why);
    bf_arena_free(&r);
    bf_buffer_free(&out);
    bf_arena_free(&arena);
}

/* ---- every sample, laid out anew by the builder ---- */

static void collect(const char *dir, char names[][1024], int *count)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        if (n > 5 && strcmp(e->d_name + n - 5, ".t3dm") == 0)
            snprintf(names[(*count)++], 1024, "%s", path);
        else if (!strchr(e->d_name, '.'))
            collect(path, names, count);
    }
    closedir(d);
}

Test(t3dm_build, every_sample_rebuilt_reads_back_equal)
{
    REQUIRE_SAMPLES();
    static char names[64][1024];
    int count = 0, identical = 0;
    collect(sample_path("t3dm"), names, &count);
    cr_assert_eq(count, 21);
    for (int i = 0; i < count; i++) {
        uint8_t *data;
        size_t size;
        cr_assert(load_file(names[i], &data, &size));
        bf_arena arena;
        bf_arena_init(&arena, bf_alloc_default(), 0);
        bf_error err;
        t3dm_File *f;
        cr_assert(t3dm_read_model(data, size, &arena, NULL, &f, &err));
        bf_buffer out = {0};
        cr_assert(t3dm_build_model(f, &arena, &out, &err), "%s: %s: %s", names[i], err.path, err.message);
        identical += out.size == size && memcmp(out.data, data, size) == 0;
        reread r;
        read_back(&r, &out);
        char why[600];
        cr_expect(doc_equal(t3dm_format.entries[0].root, f, r.file, why, sizeof why), "%s: %s", names[i], why);
        cr_expect_eq(r.findings.errors, 0, "%s rebuilt is valid", names[i]);
        bf_findings_free(&r.findings);
        bf_arena_free(&r.arena);
        bf_buffer_free(&out);
        bf_arena_free(&arena);
        free(data);
    }
    cr_log_info("rebuilt byte-identical to tiny3d's importer: %d/%d (others differ in string-table order)", identical, count);
    cr_expect_geq(identical, 4);
}

Test(t3dm_build, reproduces_the_hand_laid_pyramid)
{
    /* tests/fixtures/demo/make_pyramid.py lays the pyramid out by hand, the way tiny3d's
     * importer does; the builder, working from the schema alone, must agree byte for byte */
    uint8_t *data;
    size_t size;
    cr_assert(load_file(BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.t3dm", &data, &size));
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    bf_error err;
    t3dm_File *f;
    cr_assert(t3dm_read_model(data, size, &arena, NULL, &f, &err));
    bf_buffer out = {0};
    cr_assert(t3dm_build_model(f, &arena, &out, &err), "%s: %s", err.path, err.message);
    cr_expect_eq(out.size, size);
    cr_expect(out.size == size && memcmp(out.data, data, size) == 0);
    bf_buffer_free(&out);
    bf_arena_free(&arena);
    free(data);
}

/* The caller's image may hold anything (a file built before, bytes of its own): the built
 * file is the same, and the memory past it is zero. */
Test(t3dm_build, reused_image_full_of_bytes_gives_the_same_file)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    bf_buffer fresh = {0}, reused = {0};
    bf_error err;
    cr_assert(t3dm_build_model(make_model(&arena), &arena, &fresh, &err), "%s: %s", err.path, err.message);
    reused.cap = fresh.size * 2;
    reused.data = malloc(reused.cap);
    cr_assert_not_null(reused.data);
    memset(reused.data, 0xA5, reused.cap);
    reused.size = fresh.size / 2;
    cr_assert(t3dm_build_model(make_model(&arena), &arena, &reused, &err), "%s: %s", err.path, err.message);
    cr_assert_eq(reused.size, fresh.size);
    cr_expect(memcmp(reused.data, fresh.data, fresh.size) == 0, "the reused image gives other bytes");
    /* past the file, the memory is zero too: a writer that grows the image relies on it */
    size_t stale = 0;
    for (size_t i = reused.size; i < reused.cap; i++)
        stale += reused.data[i] != 0;
    cr_expect_eq(stale, 0, "%zu bytes past the file are not zero", stale);
    bf_buffer_free(&fresh);
    bf_buffer_free(&reused);
    bf_arena_free(&arena);
}

/* The builder stops at the first writing pass whose changes nothing read before they were
 * made (the chunk wrappers' positions, the padding after the chunk table, header totals).
 * That pass's bytes are final only if the document it leaves is settled: it reads back
 * equal (every_chunk_type_from_scratch), and a build that starts from it gives the same
 * bytes. Checked from scratch and from a read-back document whose chunk offsets, padding
 * and index total are wrong. */
Test(t3dm_build, the_last_pass_leaves_a_settled_document)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    t3dm_File *f = make_model(&arena);
    bf_buffer out = {0}, again = {0}, moved = {0};
    bf_error err;
    cr_assert(t3dm_build_model(f, &arena, &out, &err), "%s @0x%llx: %s", err.path, (unsigned long long)err.offset, err.message);
    cr_assert(t3dm_build_model(f, &arena, &again, &err), "%s: %s", err.path, err.message);
    cr_expect(again.size == out.size && memcmp(again.data, out.data, out.size) == 0);

    reread r;
    read_back(&r, &out);
    for (uint32_t i = 0; i < r.file->chunks_count; i++)
        r.file->chunks[i].offset = 4 * i; /* all wrong, the padding after the table with them */
    r.file->chunk_padding.ptr = NULL, r.file->chunk_padding.len = 12;
    r.file->header.total_index_count = 1;
    cr_assert(t3dm_build_model(r.file, &r.arena, &moved, &err), "%s: %s", err.path, err.message);
    cr_expect(moved.size == out.size && memcmp(moved.data, out.data, out.size) == 0,
              "a read-back document with wrong offsets builds other bytes");
    bf_findings_free(&r.findings);
    bf_arena_free(&r.arena);
    bf_buffer_free(&out);
    bf_buffer_free(&again);
    bf_buffer_free(&moved);
    bf_arena_free(&arena);
}

/* The built document owns what it points to: its string table outlives the build, so
 * writing the document straight after the build (no read back) gives the build's bytes. */
Test(t3dm_build, the_built_document_writes_the_built_bytes)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    t3dm_File *f = make_model(&arena);
    bf_buffer built = {0}, written = {0};
    bf_error err;
    cr_assert(t3dm_build_model(f, &arena, &built, &err), "%s: %s", err.path, err.message);
    cr_assert_gt(f->strings.len, 1, "the model names things: the table holds them");
    cr_assert(t3dm_write_model(f, &written, &err), "%s: %s", err.path, err.message);
    cr_expect(written.size == built.size && memcmp(written.data, built.data, built.size) == 0,
              "writing the built document gives other bytes than the build");
    bf_buffer_free(&built);
    bf_buffer_free(&written);
    bf_arena_free(&arena);
}
