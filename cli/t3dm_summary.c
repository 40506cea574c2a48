/* t3dm_summary: what the generated T3DM reader finds in a model and its keyframe streams.
 * Usage: t3dm_summary MODEL.t3dm [STREAM.sdata...] */
#include <stdio.h>
#include <stdlib.h>

#include "t3dm.h"

static void print_str(const char *label, bf_str s)
{
    printf("%s%.*s", label, s.ptr ? (int)s.len : 6, s.ptr ? s.ptr : "(none)");
}

static int fail(const char *path, const bf_error *err)
{
    char line[700];
    bf_error_format(err, path, line, sizeof line);
    fprintf(stderr, "%s\n", line);
    return 1;
}

static void summarize_model(const t3dm_File *f)
{
    const t3dm_Header *h = &f->header;
    printf("T3M version %u: %u chunks, %u vertices, %u triangle indices, string table at 0x%x\n",
           h->version, h->chunk_count, h->total_vertex_count, h->total_index_count, h->string_table_offset);
    printf("bounds (%d %d %d) .. (%d %d %d)\n", h->aabb_min[0], h->aabb_min[1], h->aabb_min[2],
           h->aabb_max[0], h->aabb_max[1], h->aabb_max[2]);
    for (uint32_t i = 0; i < f->chunk_data_count; i++) {
        const t3dm_Chunk *c = &f->chunk_data[i];
        printf("  [%u] '%c' @0x%06x ", i, f->chunks[i].type, f->chunks[i].offset);
        switch (c->body.kind) {
        case T3DM_KIND_OBJECT: {
            const t3dm_Object *o = c->body.Object;
            print_str("object ", o->name_str);
            printf(": %u parts, %u triangles, material %u\n", o->part_count, o->triangle_count, o->material);
            for (uint32_t p = 0; p < o->parts_count; p++)
                printf("        part %u: %u vertices -> cache %u, %u triangle indices, strips %u/%u/%u/%u\n", p,
                       o->parts[p].vertex_count, o->parts[p].vertex_dest, o->parts[p].index_count,
                       o->parts[p].strip_index_counts[0], o->parts[p].strip_index_counts[1],
                       o->parts[p].strip_index_counts[2], o->parts[p].strip_index_counts[3]);
            break;
        }
        case T3DM_KIND_MATERIAL:
            print_str("material ", c->body.Material->name_str);
            print_str(", texture A ", c->body.Material->texture_a.path_str);
            printf(" (%ux%u)\n", c->body.Material->texture_a.width, c->body.Material->texture_a.height);
            break;
        case T3DM_KIND_VERTICES: {
            const t3dm_Vertices *v = c->body.Vertices;
            printf("vertices: %u pairs", v->pairs_count);
            if (v->pairs_count)
                printf("; first at (%g %g %g), normal (%lld %lld %lld), color %08x", v->pairs[0].position_a_value[0],
                       v->pairs[0].position_a_value[1], v->pairs[0].position_a_value[2],
                       (long long)v->pairs[0].normal_a_x, (long long)v->pairs[0].normal_a_y,
                       (long long)v->pairs[0].normal_a_z, v->pairs[0].rgba_a);
            printf("\n");
            break;
        }
        case T3DM_KIND_SKELETON: {
            const t3dm_Skeleton *s = c->body.Skeleton;
            printf("skeleton: %u bones\n", s->bone_count);
            for (uint32_t b = 0; b < s->bones_count; b++) {
                print_str("        bone ", s->bones[b].name_str);
                if (s->bones[b].parent == 0xFFFF)
                    printf(" (root)\n");
                else
                    printf(" <- %u\n", s->bones[b].parent);
            }
            break;
        }
        case T3DM_KIND_ANIMATION: {
            const t3dm_Animation *a = c->body.Animation;
            print_str("animation ", a->name_str);
            printf(": %.3f s, %u keyframes, %u rotation + %u scalar channels", a->duration, a->keyframe_count,
                   a->quat_channel_count, a->scalar_channel_count);
            print_str(", stream ", a->sdata_path_str);
            printf("\n");
            break;
        }
        case T3DM_KIND_BVH:
            printf("BVH: %u nodes, %u object entries\n", c->body.Bvh->node_count, c->body.Bvh->data_count);
            break;
        default:
            printf("%zu bytes of index data\n", c->body.raw.len);
            break;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: t3dm_summary MODEL.t3dm [STREAM.sdata...]\n");
        return 2;
    }
    bf_alloc alloc = bf_alloc_default();
    int status = 0;
    for (int i = 1; i < argc; i++) {
        uint8_t *data;
        size_t size;
        bf_error err;
        if (!bf_file_load(argv[i], alloc, &data, &size, &err)) {
            fprintf(stderr, "%s\n", err.message);
            status = 1;
            continue;
        }
        bf_arena arena;
        bf_arena_init(&arena, alloc, 0);
        printf("%s (%zu bytes)\n", argv[i], size);
        if (i == 1) {
            t3dm_File *f;
            if (t3dm_read_model(data, size, &arena, NULL, &f, &err))
                summarize_model(f);
            else
                status = fail(argv[i], &err);
        } else {
            t3dm_StreamData *s;
            if (t3dm_read_stream(data, size, &arena, NULL, &s, &err)) {
                printf("  %u keyframes\n", s->keyframes_count);
                for (uint32_t k = 0; k < s->keyframes_count && k < 8; k++)
                    printf("    channel %u: %u value(s) [%04x %04x], next in %u ticks%s\n", s->keyframes[k].channel,
                           s->keyframes[k].data_count, s->keyframes[k].data[0],
                           s->keyframes[k].data_count > 1 ? s->keyframes[k].data[1] : 0,
                           (unsigned)s->keyframes[k].time_ticks,
                           s->keyframes[k].time_next_is_rotation ? ", then a rotation" : "");
            } else {
                status = fail(argv[i], &err);
            }
        }
        bf_arena_free(&arena);
        bf_file_unload(alloc, data, size);
    }
    return status;
}
