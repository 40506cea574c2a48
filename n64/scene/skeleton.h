/* skeleton: model-space bone matrices of a T3DM skeleton, at rest or in a given pose.
 *
 * Matches tiny3d's t3d_skeleton_update: a bone's local matrix is T * R * S of its
 * translation, rotation (quaternion XYZW) and scale (mat4_from_srt); its model-space matrix
 * is parent's model-space matrix * local (mat4_mul), roots use their local matrix. Bones
 * are stored parents first, so one pass in order computes them all.
 *
 * Skinned vertices are stored already transformed into their bone's space (the importer's
 * convertVertex multiplies them by the bone's inverse bind matrix), so a part whose
 * `matrix_index` is b is drawn with bone b's model-space matrix; a part with 0xFFFF uses the
 * object's (identity) matrix.
 *
 * Freestanding: caller storage only. */
#ifndef N64_SCENE_SKELETON_H
#define N64_SCENE_SKELETON_H

#include <stdint.h>

#include "mat4.h"
#include "t3dm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One bone's local transform, as T3DBone holds it. */
typedef struct bone_pose {
    float scale[3];
    float rotation[4]; /* quaternion X, Y, Z, W */
    float translation[3];
} bone_pose;

enum {
    SKELETON_OK = 0,
    SKELETON_ERR_CAPACITY = -1,  /* the caller's arrays hold fewer entries than the bones */
    SKELETON_ERR_PARENT = -2,    /* a parent index is neither 0xFFFF nor an earlier bone */
    SKELETON_ERR_NONFINITE = -3, /* a matrix has an infinite or NaN entry (all were still computed) */
};

#define SKELETON_NO_PARENT 0xFFFF
#define SKELETON_NO_MATRIX 0xFFFF /* a part's matrix_index when it is not skinned */

/* The first skeleton chunk of a model, or NULL. */
const t3dm_Skeleton *skeleton_find(const t3dm_File *model);

/* The number of bones (the array the reader read; 0 for NULL). */
uint32_t skeleton_bone_count(const t3dm_Skeleton *skeleton);

/* The bones' rest pose, as stored in the file, into pose[0 .. bone count). */
int skeleton_rest_pose(const t3dm_Skeleton *skeleton, bone_pose *pose, uint32_t capacity);

/* Model-space matrices of every bone into out[0 .. bone count), from `pose` (one entry per
 * bone; NULL: the rest pose). Returns SKELETON_OK or an error above; on
 * SKELETON_ERR_PARENT nothing after the offending bone is written. */
int skeleton_matrices(const t3dm_Skeleton *skeleton, const bone_pose *pose, mat4 *out, uint32_t capacity);

/* The matrix a part is drawn with: bone `matrix_index`'s, or identity for 0xFFFF or an
 * index outside [0, bone_count) (out-of-range indices are the validator's to report). */
const mat4 *skeleton_part_matrix(const mat4 *bones, uint32_t bone_count, uint16_t matrix_index, mat4 *identity);

#ifdef __cplusplus
}
#endif

#endif
