/* bounds: the drawn model's bounding box (see bounds.h). */
#include "bounds.h"

#include "skeleton.h"

static const t3dm_Vertices *vertex_chunk(const t3dm_File *model)
{
    for (uint32_t c = 0; c < model->chunk_data_count; c++)
        if (model->chunk_data[c].body.kind == T3DM_KIND_VERTICES && model->chunk_data[c].body.Vertices)
            return model->chunk_data[c].body.Vertices;
    return 0;
}

uint32_t bounds_of_model(const t3dm_File *model, const mat4 *bones, uint32_t bone_count, float min[3], float max[3])
{
    uint32_t counted = 0;
    const t3dm_Vertices *verts = model ? vertex_chunk(model) : 0;
    for (uint32_t c = 0; verts && c < model->chunk_data_count; c++) {
        if (model->chunk_data[c].body.kind != T3DM_KIND_OBJECT || !model->chunk_data[c].body.Object)
            continue;
        const t3dm_Object *o = model->chunk_data[c].body.Object;
        for (uint32_t p = 0; p < o->parts_count; p++) {
            const t3dm_Part *part = &o->parts[p];
            mat4 identity;
            const mat4 *m = skeleton_part_matrix(bones, bone_count, part->matrix_index, &identity);
            uint64_t first = part->vertex_offset / 16;
            for (uint32_t v = 0; v < part->vertex_count; v++) {
                uint64_t idx = first + v;
                if (idx / 2 >= verts->pairs_count)
                    break;
                const t3dm_VertexPair *pair = &verts->pairs[idx / 2];
                const int16_t *pos = idx % 2 ? pair->position_b : pair->position_a;
                float in[3] = {pos[0], pos[1], pos[2]}, out[4];
                mat4_transform_point(m, in, out);
                for (int k = 0; k < 3; k++) {
                    if (counted == 0 || out[k] < min[k])
                        min[k] = out[k];
                    if (counted == 0 || out[k] > max[k])
                        max[k] = out[k];
                }
                counted++;
            }
        }
    }
    if (counted == 0)
        for (int k = 0; k < 3; k++) {
            min[k] = model ? model->header.aabb_min[k] : 0.0f;
            max[k] = model ? model->header.aabb_max[k] : 0.0f;
        }
    return counted;
}
