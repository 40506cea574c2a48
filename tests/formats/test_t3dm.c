/* The generated T3DM reader on the real sample files (../shared/samples/t3dm). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "samples.h"
#include "t3dm.h"

typedef struct loaded {
    uint8_t *data;
    size_t size;
    bf_arena arena;
    bf_error err;
    t3dm_File *file;
} loaded;

static void load_model(loaded *l, const char *rel)
{
    REQUIRE_SAMPLES();
    cr_assert(load_file(sample_path(rel), &l->data, &l->size), "cannot read %s", rel);
    bf_arena_init(&l->arena, bf_alloc_default(), 0);
    char msg[600] = "";
    int ok = t3dm_read_model(l->data, l->size, &l->arena, NULL, &l->file, &l->err);
    if (!ok)
        bf_error_format(&l->err, rel, msg, sizeof msg);
    cr_assert(ok, "%s", msg);
}

static void unload(loaded *l)
{
    bf_arena_free(&l->arena);
    free(l->data);
}

static int str_is(bf_str s, const char *want)
{
    return s.ptr && s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

/* The n-th chunk body of a kind. */
static const t3dm_Chunk *nth_chunk(const t3dm_File *f, int kind, unsigned n)
{
    for (uint32_t i = 0; i < f->chunk_data_count; i++)
        if (f->chunk_data[i].body.kind == kind && n-- == 0)
            return &f->chunk_data[i];
    return NULL;
}

/* ---- every sample parses and every byte is claimed by a field ---- */

static void collect(const char *dir, const char *rel, char names[][600], int *count)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024], sub[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
        size_t n = strlen(e->d_name);
        if (n > 5 && (strcmp(e->d_name + n - 5, ".t3dm") == 0 || strcmp(e->d_name + n - 6, ".sdata") == 0))
            snprintf(names[(*count)++], 600, "t3dm/%s", sub);
        else if (!strchr(e->d_name, '.'))
            collect(path, sub, names, count);
    }
    closedir(d);
}

Test(t3dm_samples, every_file_parses_with_every_byte_claimed)
{
    REQUIRE_SAMPLES();
    static char names[128][600];
    int count = 0;
    collect(sample_path("t3dm"), "", names, &count);
    cr_assert_eq(count, 34, "expected the 34 T3DM sample files (21 models, 13 streams), found %d", count);
    for (int i = 0; i < count; i++) {
        uint8_t *data;
        size_t size;
        cr_assert(load_file(sample_path(names[i]), &data, &size));
        uint8_t *claimed = calloc(size / 8 + 1, 1);
        bf_read_opts opts = {.claimed = claimed};
        bf_arena arena;
        bf_arena_init(&arena, bf_alloc_default(), 0);
        bf_error err;
        int ok;
        if (strstr(names[i], ".sdata")) {
            t3dm_StreamData *s;
            ok = t3dm_read_stream(data, size, &arena, &opts, &s, &err);
        } else {
            t3dm_File *f;
            ok = t3dm_read_model(data, size, &arena, &opts, &f, &err);
        }
        char msg[600] = "";
        if (!ok)
            bf_error_format(&err, names[i], msg, sizeof msg);
        cr_expect(ok, "%s", msg);
        /* report unclaimed ranges by offset */
        char ranges[512] = "";
        size_t used = 0, unclaimed = 0;
        for (size_t b = 0; ok && b < size; b++) {
            if (claimed[b >> 3] >> (b & 7) & 1)
                continue;
            size_t start = b;
            while (b < size && !(claimed[b >> 3] >> (b & 7) & 1))
                b++;
            unclaimed += b - start;
            if (used < sizeof ranges - 40)
                used += (size_t)snprintf(ranges + used, sizeof ranges - used, " [0x%zx, 0x%zx)", start, b);
        }
        cr_expect_eq(unclaimed, 0, "%s: %zu bytes claimed by no field:%s", names[i], unclaimed, ranges);
        bf_arena_free(&arena);
        free(claimed);
        free(data);
    }
}

/* ---- decoded values ---- */

Test(t3dm_values, box_object_material_and_counts)
{
    loaded l;
    load_model(&l, "t3dm/03_objects/box.t3dm");
    const t3dm_File *f = l.file;
    cr_expect_eq(f->header.version, 4);
    cr_expect_eq(f->header.chunk_count, 4);
    cr_expect_eq(f->header.total_vertex_count, 24);
    const t3dm_Object *o = nth_chunk(f, T3DM_KIND_OBJECT, 0)->body.Object;
    cr_expect(str_is(o->name_str, "StoneFloor_F3d"));
    cr_expect_eq(o->part_count, 1);
    cr_expect_eq(o->triangle_count, 12);
    const t3dm_Material *m = nth_chunk(f, T3DM_KIND_MATERIAL, 0)->body.Material;
    cr_expect(str_is(m->name_str, "StoneFloor_F3d"));
    cr_expect(str_is(m->texture_a.path_str, "rom:/crate00.ci8.sprite"));
    cr_expect_null(m->texture_b.path_str.ptr, "texture B has no path (offset 0 means none)");
    cr_expect_eq(nth_chunk(f, T3DM_KIND_VERTICES, 0)->body.Vertices->pairs_count, 12);
    unload(&l);
}

Test(t3dm_values, vertices_decode_as_the_bytes_say)
{
    loaded l;
    load_model(&l, "t3dm/03_objects/box.t3dm");
    const t3dm_File *f = l.file;
    uint32_t at = f->chunks[f->header.first_vertex_chunk].offset;
    const uint8_t *p = l.data + at;
    const t3dm_VertexPair *v = &nth_chunk(f, T3DM_KIND_VERTICES, 0)->body.Vertices->pairs[0];
    /* laid out independently of the generated code: big-endian s16 x3, u16 normal, ... */
    int16_t x = (int16_t)(p[0] << 8 | p[1]);
    uint16_t normal = (uint16_t)(p[6] << 8 | p[7]);
    uint32_t rgba_b = (uint32_t)p[0x14] << 24 | (uint32_t)p[0x15] << 16 | (uint32_t)p[0x16] << 8 | p[0x17];
    int16_t uv_b_t = (int16_t)(p[0x1E] << 8 | p[0x1F]);
    cr_expect_eq(v->position_a[0], x);
    cr_expect_float_eq(v->position_a_value[0], (double)x, 1e-9);
    cr_expect_eq(v->normal_a, normal);
    int nx = (normal >> 11) & 31, ny = (normal >> 5) & 63, nz = normal & 31;
    cr_expect_eq(v->normal_a_x, nx >= 16 ? nx - 32 : nx);
    cr_expect_eq(v->normal_a_y, ny >= 32 ? ny - 64 : ny);
    cr_expect_eq(v->normal_a_z, nz >= 16 ? nz - 32 : nz);
    cr_expect_eq(v->rgba_b, rgba_b);
    cr_expect_eq(v->uv_b[1], uv_b_t);
    unload(&l);
}

Test(t3dm_values, part_indices_and_strips)
{
    loaded l;
    load_model(&l, "t3dm/01_model/model.t3dm");
    const t3dm_Object *o = nth_chunk(l.file, T3DM_KIND_OBJECT, 0)->body.Object;
    cr_expect(str_is(o->name_str, "Shaft"));
    cr_expect_eq(o->part_count, 3);
    const t3dm_Part *p = &o->parts[0];
    cr_expect_eq(p->vertex_count, 0x44);
    cr_expect_eq(p->matrix_index, 0xFFFF);
    cr_expect_eq(p->strip_index_counts[0], 0x20);
    cr_expect_eq(p->strip_index_counts[1], 0x24);
    cr_expect_eq(p->index_data.triangles_count, p->index_count);
    cr_expect(p->index_data.has_strip_a && p->index_data.has_strip_b && !p->index_data.has_strip_c);
    cr_expect_eq(p->index_data.strip_a_count, 0x20);
    cr_expect_eq(p->index_data.strip_a_at % 8, 0, "strips are aligned to 8");
    cr_expect_eq(p->index_data.strip_b_at % 8, 0);
    unload(&l);
}

Test(t3dm_values, chicken_bones_and_parents)
{
    static const struct { const char *name; uint16_t parent; } bones[] = {
        {"Main", 0xFFFF}, {"Head", 0}, {"Top", 1}, {"BeakTop", 1}, {"BeakBottom", 1}, {"WattleR", 1},
        {"WattleL", 1}, {"LegR", 0}, {"LegL", 0}, {"WingR", 0}, {"WingL", 0}};
    loaded l;
    load_model(&l, "t3dm/07_skeleton/chicken.t3dm");
    const t3dm_Skeleton *s = nth_chunk(l.file, T3DM_KIND_SKELETON, 0)->body.Skeleton;
    cr_assert_eq(s->bone_count, 11);
    for (int i = 0; i < 11; i++) {
        cr_expect(str_is(s->bones[i].name_str, bones[i].name), "bone %d is %.*s, expected %s", i,
                  (int)s->bones[i].name_str.len, s->bones[i].name_str.ptr, bones[i].name);
        cr_expect_eq(s->bones[i].parent, bones[i].parent, "bone %d parent", i);
    }
    const t3dm_Object *o = nth_chunk(l.file, T3DM_KIND_OBJECT, 0)->body.Object;
    cr_expect(str_is(o->name_str, "ChickenBrown"));
    cr_expect_eq(o->triangle_count, 396);
    const t3dm_Material *m = nth_chunk(l.file, T3DM_KIND_MATERIAL, 0)->body.Material;
    cr_expect(str_is(m->name_str, "f3dlite_body"));
    unload(&l);
}

Test(t3dm_values, snake_animations_and_their_keyframe_streams)
{
    static const struct { const char *name; float duration; uint32_t keyframes; } anims[] = {
        {"Snake_Attack", 0.666666687f, 318}, {"Snake_Death", 0.833333313f, 406},
        {"Snake_Idle", 2.08333325f, 495}, {"Snake_Jump", 0.958333313f, 407},
        {"Snake_Walk", 0.833333313f, 412}};
    loaded l;
    load_model(&l, "t3dm/08_animation/snake.t3dm");
    for (unsigned i = 0; i < 5; i++) {
        const t3dm_Chunk *c = nth_chunk(l.file, T3DM_KIND_ANIMATION, i);
        cr_assert_not_null(c, "animation %u missing", i);
        const t3dm_Animation *a = c->body.Animation;
        cr_expect(str_is(a->name_str, anims[i].name), "animation %u: %.*s", i, (int)a->name_str.len, a->name_str.ptr);
        cr_expect_eq(a->duration, anims[i].duration);
        cr_expect_eq(a->keyframe_count, anims[i].keyframes);
        cr_expect_eq(a->channels_count, a->quat_channel_count + a->scalar_channel_count);

        char rom[64], rel[64];
        snprintf(rom, sizeof rom, "rom:/snake.%u.sdata", i);
        cr_expect(str_is(a->sdata_path_str, rom));
        snprintf(rel, sizeof rel, "t3dm/08_animation/snake.%u.sdata", i);
        uint8_t *data;
        size_t size;
        cr_assert(load_file(sample_path(rel), &data, &size));
        bf_arena arena;
        bf_arena_init(&arena, bf_alloc_default(), 0);
        bf_error err;
        t3dm_StreamData *s;
        cr_assert(t3dm_read_stream(data, size, &arena, NULL, &s, &err), "%s: %s %s", rel, err.path, err.message);
        cr_expect_eq(s->keyframes_count, a->keyframe_count, "%s holds the animation's keyframe count", rel);
        for (uint32_t k = 0; k < s->keyframes_count; k++)
            cr_expect_lt(s->keyframes[k].channel, a->channels_count, "%s keyframe %u channel", rel, k);
        if (i == 0) {
            const t3dm_Keyframe *k0 = &s->keyframes[0];
            cr_expect_eq(k0->time, 0x8000);
            cr_expect_eq(k0->time_next_is_rotation, 1);
            cr_expect_eq(k0->time_ticks, 0);
            cr_expect_eq(k0->channel, 0);
            cr_expect_eq(k0->data_count, 2);
            cr_expect_eq(k0->data[0], 0xe8a8);
            cr_expect_eq(k0->data[1], 0x01ff);
            const t3dm_Keyframe *last = &s->keyframes[s->keyframes_count - 1];
            cr_expect_eq(last->data_count, 1);
            cr_expect_eq(last->channel, 0x16);
            cr_expect_eq(last->data[0], 0x5868);
        }
        bf_arena_free(&arena);
        free(data);
    }
    unload(&l);
}

Test(t3dm_values, platformer_bvh)
{
    loaded l;
    load_model(&l, "t3dm/17_culling/platformer.t3dm");
    const t3dm_Bvh *b = nth_chunk(l.file, T3DM_KIND_BVH, 0)->body.Bvh;
    cr_expect_eq(b->node_count, 87);
    cr_expect_eq(b->nodes_count, 87);
    cr_expect_eq(b->data_count, 57);
    unsigned objects = 0;
    while (nth_chunk(l.file, T3DM_KIND_OBJECT, objects))
        objects++;
    cr_expect_eq(objects, 57, "one BVH entry per object");
    /* the root is an inner node whose children follow it */
    cr_expect_eq(b->nodes[0].value_data_count, 0);
    cr_expect_eq(b->nodes[0].value_index, 1);
    unload(&l);
}

/* ---- broken files: clear errors naming field path and offset ---- */

static int read_bytes(const uint8_t *data, size_t size, bf_error *err)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    t3dm_File *f;
    int ok = t3dm_read_model(data, size, &arena, NULL, &f, err);
    bf_arena_free(&arena);
    return ok;
}

Test(t3dm_errors, bad_magic_names_the_field)
{
    loaded l;
    load_model(&l, "t3dm/03_objects/box.t3dm");
    l.data[1] = 'X';
    bf_error err;
    cr_assert_not(read_bytes(l.data, l.size, &err));
    cr_expect_str_eq(err.path, "header.magic");
    cr_expect_eq(err.offset, 0);
    cr_expect(strstr(err.message, "expected \"T3M\"") != NULL, "%s", err.message);
    char line[600];
    bf_error_format(&err, "box.t3dm", line, sizeof line);
    cr_expect_str_eq(line, "box.t3dm: error: header.magic @0x0: expected \"T3M\", found \"TXM\"");
    unload(&l);
}

Test(t3dm_errors, chunk_offset_past_the_end)
{
    loaded l;
    load_model(&l, "t3dm/03_objects/box.t3dm");
    /* chunk 3 (the material): offset -> 0x1f000 */
    l.data[0x2C + 3 * 4 + 1] = 0x01;
    l.data[0x2C + 3 * 4 + 2] = 0xF0;
    l.data[0x2C + 3 * 4 + 3] = 0x00;
    bf_error err;
    cr_assert_not(read_bytes(l.data, l.size, &err));
    cr_expect_str_eq(err.path, "chunk_data[2].body", "the region of the chunk before it now runs past the end: %s", err.message);
    cr_expect(strstr(err.message, "past the end of the file") != NULL, "%s", err.message);
    unload(&l);
}

Test(t3dm_errors, truncated_header)
{
    loaded l;
    load_model(&l, "t3dm/03_objects/box.t3dm");
    bf_error err;
    cr_assert_not(read_bytes(l.data, 20, &err));
    cr_expect_str_eq(err.path, "header");
    cr_expect_eq(err.offset, 0);
    cr_expect(strstr(err.message, "needs 44 bytes but only 20 remain") != NULL, "%s", err.message);
    unload(&l);
}

Test(t3dm_errors, every_truncation_fails_cleanly)
{
    loaded l;
    load_model(&l, "t3dm/03_objects/box.t3dm");
    for (size_t n = 0; n < l.size; n++) {
        uint8_t *copy = malloc(n + 1);
        memcpy(copy, l.data, n);
        bf_error err;
        cr_expect_not(read_bytes(copy, n, &err), "a file cut at %zu bytes must not read", n);
        cr_expect(err.message[0] != '\0', "cut at %zu: the error has a message", n);
        free(copy);
    }
    unload(&l);
}

Test(t3dm_errors, lying_count_does_not_allocate)
{
    loaded l;
    load_model(&l, "t3dm/03_objects/box.t3dm");
    /* chunk_count = 0x7fffffff */
    l.data[4] = 0x7f;
    l.data[5] = l.data[6] = l.data[7] = 0xff;
    bf_error err;
    cr_assert_not(read_bytes(l.data, l.size, &err));
    cr_expect_str_eq(err.path, "chunks");
    cr_expect(strstr(err.message, "count 2147483647 needs at least") != NULL, "%s", err.message);
    unload(&l);
}
