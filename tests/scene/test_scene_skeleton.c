/* n64/scene skeleton: model-space bone matrices of the real skeletons, checked against the
 * chain of T * R * S products computed here independently in double precision, and the
 * skinning convention (vertices stored in bone space, drawn with the bone's matrix). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "samples.h"
#include "bounds.h"
#include "scene_load.h"
#include "skeleton.h"

#define MAX_BONES 256

typedef struct dmat {
    double m[4][4]; /* m[column][row] */
} dmat;

/* T * R * S from the quaternion, written out independently of mat4_from_srt. */
static void dmat_srt(dmat *o, const float s[3], const float q[4], const float t[3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[3][3] = {/* r[column][row] */
                      {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)},
                      {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)},
                      {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)}};
    memset(o, 0, sizeof *o);
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++)
            o->m[c][k] = r[c][k] * s[c];
    for (int k = 0; k < 3; k++)
        o->m[3][k] = t[k];
    o->m[3][3] = 1;
}

static void dmat_mul(dmat *o, const dmat *a, const dmat *b)
{
    dmat t;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            double v = 0;
            for (int k = 0; k < 4; k++)
                v += a->m[k][r] * b->m[c][k];
            t.m[c][r] = v;
        }
    *o = t;
}

/* Every entry within a few float roundings per level of the chain, scaled to the matrix. */
static void expect_close(const mat4 *got, const dmat *want, int depth, const char *what, unsigned bone)
{
    double scale = 1;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            scale = fmax(scale, fabs(want->m[c][r]));
    double tol = 8e-7 * (depth + 1) * scale;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            cr_assert(fabs(got->m[c][r] - want->m[c][r]) <= tol, "%s bone %u [%d][%d]: %.9g, chain %.9g (tol %g)",
                      what, bone, c, r, got->m[c][r], want->m[c][r], tol);
}

/* The chain product parent * ... * local computed in double for every bone. */
static void chain(const t3dm_Skeleton *sk, const bone_pose *pose, dmat *out, int *depth)
{
    for (uint32_t i = 0; i < sk->bones_count; i++) {
        const t3dm_Bone *b = &sk->bones[i];
        const float *s = pose ? pose[i].scale : b->scale, *q = pose ? pose[i].rotation : b->rotation,
                    *t = pose ? pose[i].translation : b->translation;
        dmat local;
        dmat_srt(&local, s, q, t);
        if (b->parent == 0xFFFF) {
            out[i] = local;
            depth[i] = 0;
        } else {
            cr_assert_lt(b->parent, i, "the samples list parents first");
            dmat_mul(&out[i], &out[b->parent], &local);
            depth[i] = depth[b->parent] + 1;
        }
    }
}

static void check_rest(const char *rel, uint32_t want_bones)
{
    REQUIRE_SAMPLES();
    scene_file f;
    scene_load_model(&f, rel);
    const t3dm_Skeleton *sk = skeleton_find(f.model);
    cr_assert_not_null(sk, "%s has a skeleton", rel);
    uint32_t n = skeleton_bone_count(sk);
    cr_assert_eq(n, want_bones, "%s: %u bones", rel, n);
    static mat4 got[MAX_BONES];
    static dmat want[MAX_BONES];
    static int depth[MAX_BONES];
    cr_assert_eq(skeleton_matrices(sk, NULL, got, MAX_BONES), SKELETON_OK);
    chain(sk, NULL, want, depth);
    for (uint32_t i = 0; i < n; i++)
        expect_close(&got[i], &want[i], depth[i], rel, i);

    /* the rest pose given explicitly gives the same matrices, bit for bit */
    static bone_pose pose[MAX_BONES];
    static mat4 again[MAX_BONES];
    cr_assert_eq(skeleton_rest_pose(sk, pose, MAX_BONES), SKELETON_OK);
    cr_assert_eq(skeleton_matrices(sk, pose, again, MAX_BONES), SKELETON_OK);
    cr_assert(memcmp(got, again, n * sizeof *got) == 0);
    scene_unload(&f);
}

Test(skeleton, chicken_rest_pose_is_the_chain_of_its_bones)
{
    check_rest("t3dm/07_skeleton/chicken.t3dm", 11);
}

Test(skeleton, other_skeletons_rest_pose)
{
    check_rest("t3dm/08_animation/snake.t3dm", 15);
    check_rest("t3dm/11_segments/player.t3dm", 13);
}

/* Skinned vertices are stored in their bone's space (the importer's convertVertex), and a
 * part is drawn with its bone's model-space matrix: so drawn, at rest, the chicken and the
 * snake stand on the ground (lowest point at y = 0) and are left-right symmetric, which the
 * stored positions are not. The header's AABB is the box of the stored positions (the
 * importer computes it from them), not of the model as drawn. */
Test(skeleton, skinned_parts_are_drawn_with_their_bone_matrix)
{
    REQUIRE_SAMPLES();
    static const char *const models[] = {"t3dm/07_skeleton/chicken.t3dm", "t3dm/08_animation/snake.t3dm"};
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
        scene_file f;
        scene_load_model(&f, models[m]);
        const t3dm_Skeleton *sk = skeleton_find(f.model);
        static mat4 bones[MAX_BONES];
        uint32_t n = skeleton_bone_count(sk);
        cr_assert_eq(skeleton_matrices(sk, NULL, bones, MAX_BONES), SKELETON_OK);
        float lo[3], hi[3], slo[3], shi[3];
        uint32_t counted = bounds_of_model(f.model, bones, n, lo, hi);
        cr_assert_eq(bounds_of_model(f.model, NULL, 0, slo, shi), counted);
        cr_assert_gt(counted, 0);
        fprintf(stderr, "skeleton: %s: drawn (%.1f %.1f %.1f) .. (%.1f %.1f %.1f), stored (%g %g %g) .. (%g %g %g)\n",
                models[m], lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], slo[0], slo[1], slo[2], shi[0], shi[1], shi[2]);
        cr_assert(fabsf(lo[1]) < 1.0f, "%s stands on the ground: lowest y %g", models[m], lo[1]);
        cr_assert(fabsf(lo[0] + hi[0]) < 0.5f, "%s is symmetric: x %g .. %g", models[m], lo[0], hi[0]);
        cr_assert(fabsf(slo[1]) > 10.0f, "as stored it does not stand on the ground: %g", slo[1]);
        for (int k = 0; k < 3; k++)
            cr_assert(slo[k] == f.model->header.aabb_min[k] && shi[k] == f.model->header.aabb_max[k],
                      "%s: the header's AABB is the stored positions' box", models[m]);
        scene_unload(&f);
    }
}

Test(skeleton, a_pose_changes_the_bone_and_its_children)
{
    REQUIRE_SAMPLES();
    scene_file f;
    scene_load_model(&f, "t3dm/07_skeleton/chicken.t3dm");
    const t3dm_Skeleton *sk = skeleton_find(f.model);
    uint32_t n = skeleton_bone_count(sk);
    static bone_pose pose[MAX_BONES];
    static mat4 rest[MAX_BONES], got[MAX_BONES];
    static dmat want[MAX_BONES];
    static int depth[MAX_BONES];
    cr_assert_eq(skeleton_rest_pose(sk, pose, MAX_BONES), SKELETON_OK);
    cr_assert_eq(skeleton_matrices(sk, pose, rest, MAX_BONES), SKELETON_OK);
    /* turn bone 1 by 90 degrees around Y, scale bone 2, move the root */
    float h = sqrtf(0.5f);
    float turn[4] = {0, h, 0, h};
    memcpy(pose[1].rotation, turn, sizeof turn);
    pose[2].scale[0] *= 2.0f;
    pose[0].translation[1] += 10.0f;
    cr_assert_eq(skeleton_matrices(sk, pose, got, MAX_BONES), SKELETON_OK);
    chain(sk, pose, want, depth);
    for (uint32_t i = 0; i < n; i++)
        expect_close(&got[i], &want[i], depth[i], "posed chicken", i);
    /* the root moved 10 up; bones that are neither bone 1, 2 nor below them moved with it */
    cr_assert(fabsf(got[0].m[3][1] - rest[0].m[3][1] - 10.0f) < 1e-4f);
    for (uint32_t i = 0; i < n; i++)
        if (sk->bones[i].parent == 0 && i != 1 && i != 2)
            for (int k = 0; k < 3; k++)
                cr_assert(fabsf(got[i].m[3][k] - rest[i].m[3][k] - (k == 1 ? 10.0f : 0.0f)) < 1e-4f, "bone %u", i);
    scene_unload(&f);
}

/* Hand-made skeletons: bad parents, too little storage, non-finite values. */
Test(skeleton, hostile_skeletons)
{
    t3dm_Bone bones[3];
    memset(bones, 0, sizeof bones);
    for (int i = 0; i < 3; i++) {
        bones[i].scale[0] = bones[i].scale[1] = bones[i].scale[2] = 1;
        bones[i].rotation[3] = 1;
        bones[i].translation[0] = (float)(i + 1);
    }
    bones[0].parent = 0xFFFF;
    bones[1].parent = 0;
    bones[2].parent = 1;
    t3dm_Skeleton sk;
    memset(&sk, 0, sizeof sk);
    sk.bones = bones;
    sk.bones_count = sk.bone_count = 3;
    mat4 out[3];
    cr_assert_eq(skeleton_matrices(&sk, NULL, out, 3), SKELETON_OK);
    cr_assert(out[2].m[3][0] == 6.0f, "translations add up along the chain: %g", out[2].m[3][0]);
    cr_assert_eq(skeleton_matrices(&sk, NULL, out, 2), SKELETON_ERR_CAPACITY);
    bone_pose pose[3];
    cr_assert_eq(skeleton_rest_pose(&sk, pose, 2), SKELETON_ERR_CAPACITY);

    bones[2].parent = 2; /* itself */
    cr_assert_eq(skeleton_matrices(&sk, NULL, out, 3), SKELETON_ERR_PARENT);
    bones[2].parent = 7; /* later than itself / outside */
    cr_assert_eq(skeleton_matrices(&sk, NULL, out, 3), SKELETON_ERR_PARENT);
    bones[2].parent = 1;
    bones[1].translation[1] = NAN;
    cr_assert_eq(skeleton_matrices(&sk, NULL, out, 3), SKELETON_ERR_NONFINITE);
    bones[1].translation[1] = 0;

    cr_assert_null(skeleton_find(NULL));
    cr_assert_eq(skeleton_bone_count(NULL), 0);
    cr_assert_eq(skeleton_matrices(NULL, NULL, out, 0), SKELETON_OK, "no skeleton, no bones");

    mat4 id, ident;
    mat4_identity(&ident);
    cr_assert(memcmp(skeleton_part_matrix(out, 3, 0xFFFF, &id), &ident, sizeof ident) == 0);
    cr_assert(memcmp(skeleton_part_matrix(out, 3, 3, &id), &ident, sizeof ident) == 0, "out of range: identity");
    cr_assert_eq(skeleton_part_matrix(out, 3, 1, &id), &out[1]);
}
