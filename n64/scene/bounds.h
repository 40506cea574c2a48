/* bounds: the model-space bounding box of a model as it is drawn.
 *
 * The header's AABB is not that box for skinned models: tiny3d's importer computes it from
 * the stored positions, and skinned vertices are stored in their bone's space. This box
 * transforms each part's vertices by the matrix the part is drawn with (its bone's
 * model-space matrix from skeleton_matrices, for any pose; identity for unskinned parts).
 *
 * Freestanding: no libc. */
#ifndef N64_SCENE_BOUNDS_H
#define N64_SCENE_BOUNDS_H

#include <stdint.h>

#include "mat4.h"
#include "t3dm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The box of every vertex the parts of every object load, each transformed by
 * skeleton_part_matrix(bones, bone_count, part.matrix_index) (bones may be NULL: all as
 * stored). Vertices outside the vertex chunk are skipped. Returns the number of vertices
 * counted; with none, min and max are the header's AABB. */
uint32_t bounds_of_model(const t3dm_File *model, const mat4 *bones, uint32_t bone_count, float min[3], float max[3]);

#ifdef __cplusplus
}
#endif

#endif
