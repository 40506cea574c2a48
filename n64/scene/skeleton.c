/* skeleton: bone matrices in tiny3d's composition order (see skeleton.h). */
#include "skeleton.h"

#include "fmath.h"

const t3dm_Skeleton *skeleton_find(const t3dm_File *model)
{
    if (!model)
        return 0;
    for (uint32_t i = 0; i < model->chunk_data_count; i++)
        if (model->chunk_data[i].body.kind == T3DM_KIND_SKELETON && model->chunk_data[i].body.Skeleton)
            return model->chunk_data[i].body.Skeleton;
    return 0;
}

uint32_t skeleton_bone_count(const t3dm_Skeleton *skeleton)
{
    return skeleton ? skeleton->bones_count : 0;
}

static void rest_of(const t3dm_Bone *b, bone_pose *p)
{
    for (int k = 0; k < 3; k++) {
        p->scale[k] = b->scale[k];
        p->translation[k] = b->translation[k];
    }
    for (int k = 0; k < 4; k++)
        p->rotation[k] = b->rotation[k];
}

int skeleton_rest_pose(const t3dm_Skeleton *skeleton, bone_pose *pose, uint32_t capacity)
{
    uint32_t n = skeleton_bone_count(skeleton);
    if (n > capacity)
        return SKELETON_ERR_CAPACITY;
    for (uint32_t i = 0; i < n; i++)
        rest_of(&skeleton->bones[i], &pose[i]);
    return SKELETON_OK;
}

static int finite_matrix(const mat4 *m)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            if (!fmath_isfinite(m->m[c][r]))
                return 0;
    return 1;
}

int skeleton_matrices(const t3dm_Skeleton *skeleton, const bone_pose *pose, mat4 *out, uint32_t capacity)
{
    uint32_t n = skeleton_bone_count(skeleton);
    if (n > capacity)
        return SKELETON_ERR_CAPACITY;
    int status = SKELETON_OK;
    for (uint32_t i = 0; i < n; i++) {
        const t3dm_Bone *b = &skeleton->bones[i];
        bone_pose rest;
        const bone_pose *p = pose ? &pose[i] : &rest;
        if (!pose)
            rest_of(b, &rest);
        if (b->parent == SKELETON_NO_PARENT) {
            mat4_from_srt(&out[i], p->scale, p->rotation, p->translation);
        } else if (b->parent < i) {
            mat4 local;
            mat4_from_srt(&local, p->scale, p->rotation, p->translation);
            mat4_mul(&out[i], &out[b->parent], &local);
        } else {
            return SKELETON_ERR_PARENT;
        }
        if (!finite_matrix(&out[i]))
            status = SKELETON_ERR_NONFINITE;
    }
    return status;
}

const mat4 *skeleton_part_matrix(const mat4 *bones, uint32_t bone_count, uint16_t matrix_index, mat4 *identity)
{
    if (matrix_index != SKELETON_NO_MATRIX && bones && matrix_index < bone_count)
        return &bones[matrix_index];
    mat4_identity(identity);
    return identity;
}
