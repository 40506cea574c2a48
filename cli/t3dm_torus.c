/* t3dm_torus: builds a vertex-coloured torus from scratch with the generated T3DM builder
 * (two bones, one animation and its keyframe stream), saves it atomically, reads it back.
 * Usage: t3dm_torus OUT_FOLDER */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bf_validate.h"
#include "bf_write.h"
#include "t3dm.h"

enum { RINGS = 16, SIDES = 8, PARTS = 4, RINGS_PER_PART = RINGS / PARTS };
enum { PART_VERTICES = (RINGS_PER_PART + 1) * SIDES }; /* 40: within one vertex-cache load */

#define NEW(arena, type, n) ((type *)bf_arena_alloc(arena, sizeof(type) * (size_t)(n) + 1))

static bf_str text(const char *s)
{
    bf_str r = {s, (uint32_t)strlen(s), 0};
    return r;
}

/* One vertex of the torus at ring `u`, side `v`. */
static void torus_vertex(int u, int v, int16_t pos[3], int64_t normal[3], uint32_t *rgba, int16_t uv[2])
{
    const double pi = 3.14159265358979323846;
    double a = 2 * pi * u / RINGS, b = 2 * pi * v / SIDES;
    double nx = cos(a) * cos(b), ny = sin(b), nz = sin(a) * cos(b);
    pos[0] = (int16_t)lround((64 + 24 * cos(b)) * cos(a));
    pos[1] = (int16_t)lround(24 * ny);
    pos[2] = (int16_t)lround((64 + 24 * cos(b)) * sin(a));
    normal[0] = lround(nx * 15), normal[1] = lround(ny * 31), normal[2] = lround(nz * 15); /* 5.6.5 */
    uint32_t r = (uint32_t)lround(127.5 + 127.5 * cos(a)), g = (uint32_t)lround(127.5 + 127.5 * sin(a));
    uint32_t bl = (uint32_t)lround(127.5 + 127.5 * ny);
    *rgba = r << 24 | g << 16 | bl << 8 | 0xFF;
    uv[0] = (int16_t)(u * 1024 / RINGS), uv[1] = (int16_t)(v * 1024 / SIDES);
}

static t3dm_File *make_torus(bf_arena *a)
{
    t3dm_File *f = NEW(a, t3dm_File, 1);
    t3dm_Vertices *verts = NEW(a, t3dm_Vertices, 1);
    verts->pairs_count = PARTS * PART_VERTICES / 2;
    verts->pairs = NEW(a, t3dm_VertexPair, verts->pairs_count);
    t3dm_Object *o = NEW(a, t3dm_Object, 1);
    o->name_str = text("torus");
    o->parts_count = PARTS;
    o->parts = NEW(a, t3dm_Part, PARTS);
    o->aabb_min[0] = o->aabb_min[2] = -88, o->aabb_min[1] = -24;
    o->aabb_max[0] = o->aabb_max[2] = 88, o->aabb_max[1] = 24;
    memcpy(f->header.aabb_min, o->aabb_min, sizeof o->aabb_min);
    memcpy(f->header.aabb_max, o->aabb_max, sizeof o->aabb_max);

    /* each part loads its rings (and the next one, to close its quads) and draws them */
    for (int p = 0; p < PARTS; p++) {
        for (int k = 0; k < PART_VERTICES; k++) {
            int u = (p * RINGS_PER_PART + k / SIDES) % RINGS, v = k % SIDES;
            int index = p * PART_VERTICES + k;
            t3dm_VertexPair *pair = &verts->pairs[index / 2];
            if (index % 2 == 0) {
                int64_t n[3];
                torus_vertex(u, v, pair->position_a, n, &pair->rgba_a, pair->uv_a);
                pair->normal_a_x = n[0], pair->normal_a_y = n[1], pair->normal_a_z = n[2];
            } else {
                int64_t n[3];
                torus_vertex(u, v, pair->position_b, n, &pair->rgba_b, pair->uv_b);
                pair->normal_b_x = n[0], pair->normal_b_y = n[1], pair->normal_b_z = n[2];
            }
        }
        t3dm_Part *part = &o->parts[p];
        part->vertex_offset = (uint32_t)(16 * PART_VERTICES * p);
        part->vertex_count = PART_VERTICES;
        part->matrix_index = p < PARTS / 2 ? 0 : 1; /* half the torus follows the second bone */
        part->index_data.triangles_count = RINGS_PER_PART * SIDES * 6;
        uint8_t *t = part->index_data.triangles = NEW(a, uint8_t, part->index_data.triangles_count);
        for (int r = 0; r < RINGS_PER_PART; r++)
            for (int v = 0; v < SIDES; v++) {
                uint8_t i0 = (uint8_t)(r * SIDES + v), i1 = (uint8_t)(r * SIDES + (v + 1) % SIDES);
                uint8_t i2 = (uint8_t)(i0 + SIDES), i3 = (uint8_t)(i1 + SIDES);
                *t++ = i0, *t++ = i2, *t++ = i1;
                *t++ = i1, *t++ = i2, *t++ = i3;
            }
        o->triangle_count = (uint16_t)(o->triangle_count + RINGS_PER_PART * SIDES * 2);
    }

    t3dm_Material *m = NEW(a, t3dm_Material, 1);
    m->name_str = text("vertex_colors");
    m->color_combiner = 0x887F1088FE793Cull; /* libdragon combiner: the shade colour, both cycles */
    m->draw_flags = 0x15;                      /* tiny3d: depth, shaded, cull back faces */

    t3dm_Skeleton *sk = NEW(a, t3dm_Skeleton, 1);
    sk->bones_count = 2;
    sk->bones = NEW(a, t3dm_Bone, 2);
    sk->bones[0].name_str = text("base");
    sk->bones[0].parent = 0xFFFF;
    sk->bones[1].name_str = text("turn");
    sk->bones[1].depth = 1;
    for (int b = 0; b < 2; b++) {
        sk->bones[b].scale[0] = sk->bones[b].scale[1] = sk->bones[b].scale[2] = 1.0f;
        sk->bones[b].rotation[3] = 1.0f;
    }

    t3dm_Animation *an = NEW(a, t3dm_Animation, 1);
    an->name_str = text("twist");
    an->sdata_path_str = text("rom:/torus.0.sdata");
    an->duration = 1.0f;
    an->keyframe_count = 3;
    an->quat_channel_count = 1;
    an->channels_count = 1;
    an->channels = NEW(a, t3dm_ChannelMapping, 1);
    an->channels[0].target_index = 1;
    an->channels[0].target_type = T3DM_TARGET_TYPE_ROTATION;

    f->chunk_data_count = 6;
    f->chunk_data = NEW(a, t3dm_Chunk, 6);
    f->chunk_data[0].body.kind = T3DM_KIND_OBJECT, f->chunk_data[0].body.Object = o;
    f->chunk_data[1].body.kind = T3DM_KIND_ANIMATION, f->chunk_data[1].body.Animation = an;
    f->chunk_data[2].body.kind = T3DM_KIND_VERTICES, f->chunk_data[2].body.Vertices = verts;
    f->chunk_data[3].body.kind = T3DM_CHUNK_BODY_I;
    f->chunk_data[4].body.kind = T3DM_KIND_MATERIAL, f->chunk_data[4].body.Material = m;
    f->chunk_data[5].body.kind = T3DM_KIND_SKELETON, f->chunk_data[5].body.Skeleton = sk;
    return f;
}

/* Three rotation keyframes, 30 ticks apart: a quarter turn each. */
static t3dm_StreamData *make_stream(bf_arena *a)
{
    static const uint16_t quats[3][2] = {{0x0000, 0x0000}, {0x2D41, 0x0000}, {0x4000, 0x0000}};
    t3dm_StreamData *s = NEW(a, t3dm_StreamData, 1);
    s->keyframes_count = 3;
    s->keyframes = NEW(a, t3dm_Keyframe, 3);
    for (int k = 0; k < 3; k++) {
        t3dm_Keyframe *kf = &s->keyframes[k];
        kf->time_ticks = 30;
        kf->time_next_is_rotation = 1;
        kf->data_count = 2;
        kf->data = NEW(a, uint16_t, 2);
        kf->data[0] = quats[k][0], kf->data[1] = quats[k][1];
    }
    return s;
}

static int fail(const char *what, const bf_error *err)
{
    fprintf(stderr, "t3dm_torus: %s: %s%s%s\n", what, err->path, err->path[0] ? ": " : "", err->message);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: t3dm_torus OUT_FOLDER\n");
        return 2;
    }
    char model_path[4096], stream_path[4096];
    snprintf(model_path, sizeof model_path, "%s/torus.t3dm", argv[1]);
    snprintf(stream_path, sizeof stream_path, "%s/torus.0.sdata", argv[1]);

    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    bf_buffer model = {0}, stream = {0};
    bf_error err;
    int status = 0;
    t3dm_File *f = make_torus(&arena);
    if (!t3dm_build_model(f, &arena, &model, &err) || !bf_save_atomic(model_path, model.data, model.size, &err))
        status = fail(model_path, &err);
    else if (!t3dm_build_stream(make_stream(&arena), &arena, &stream, &err) ||
             !bf_save_atomic(stream_path, stream.data, stream.size, &err))
        status = fail(stream_path, &err);
    else
        printf("built %s (%zu bytes) and %s (%zu bytes) from scratch\n", model_path, model.size, stream_path,
               stream.size);

    if (status == 0) {
        /* read back, and check */
        bf_arena back;
        bf_arena_init(&back, bf_alloc_default(), 0);
        t3dm_File *g;
        bf_findings findings = {0};
        if (!t3dm_read_model(model.data, model.size, &back, NULL, &g, &err)) {
            status = fail("reading it back", &err);
        } else {
            t3dm_validate_model(g, model.data, model.size, &findings);
            const t3dm_Object *o = g->chunk_data[0].body.Object;
            printf("read back: %u chunks, object \"%.*s\" with %u parts and %u triangles, %u vertices, "
                   "skeleton of %u bones, animation \"%.*s\"; %zu errors, %zu warnings\n",
                   g->header.chunk_count, (int)o->name_str.len, o->name_str.ptr, o->part_count, o->triangle_count,
                   g->header.total_vertex_count, g->chunk_data[5].body.Skeleton->bone_count,
                   (int)g->chunk_data[1].body.Animation->name_str.len, g->chunk_data[1].body.Animation->name_str.ptr,
                   findings.errors, findings.warnings);
            status = findings.errors ? 1 : 0;
        }
        bf_findings_free(&findings);
        bf_arena_free(&back);
    }
    bf_buffer_free(&model);
    bf_buffer_free(&stream);
    bf_arena_free(&arena);
    return status;
}
