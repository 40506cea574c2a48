/* n64/scene camera: framing a bounding box from any direction keeps every corner on the
 * screen and between the near and far planes; a larger distance makes the model smaller. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "camera.h"
#include "samples.h"
#include "scene_load.h"
#include "skeleton.h"

#define W 320.0f
#define H 240.0f

/* The screen rectangle of the box's corners; fails when a corner leaves the view. */
static float check_corners(const camera *cam, const float lo[3], const float hi[3], const char *what)
{
    float minx = W, maxx = 0, miny = H, maxy = 0;
    for (int i = 0; i < 8; i++) {
        float p[3] = {i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]}, s[3];
        cr_assert(camera_to_screen(cam, p, W, H, s), "%s: corner %d is behind the eye", what, i);
        cr_assert(s[0] >= 0 && s[0] <= W && s[1] >= 0 && s[1] <= H, "%s: corner %d at (%g, %g) is off the screen", what,
                  i, s[0], s[1]);
        cr_assert(s[2] > -1 && s[2] < 1, "%s: corner %d at depth %g is outside near..far", what, i, s[2]);
        /* and in eye space: between the planes, in front of the eye */
        float e[4];
        mat4_transform_point(&cam->view, p, e);
        cr_assert(-e[2] > cam->near && -e[2] < cam->far, "%s: corner %d at distance %g, planes %g..%g", what, i, -e[2],
                  cam->near, cam->far);
        minx = fminf(minx, s[0]);
        maxx = fmaxf(maxx, s[0]);
        miny = fminf(miny, s[1]);
        maxy = fmaxf(maxy, s[1]);
    }
    return (maxx - minx) * (maxy - miny);
}

static void sweep_box(const float lo[3], const float hi[3], const char *what)
{
    const float yaws[] = {0, 30, 90, 135, 180, 250, 359, -45, 720};
    const float pitches[] = {0, 20, 45, 89, 90, -30, -89, -120};
    const float fovs[] = {30, 60, 90};
    const float aspects[] = {4.0f / 3.0f, 1.0f, 0.5f, 16.0f / 9.0f};
    for (size_t a = 0; a < sizeof yaws / sizeof *yaws; a++)
        for (size_t b = 0; b < sizeof pitches / sizeof *pitches; b++)
            for (size_t f = 0; f < 3; f++)
                for (size_t r = 0; r < 4; r++) {
                    camera_params p = {yaws[a], pitches[b], 1.0f, aspects[r], fovs[f]};
                    camera near_cam, far_cam;
                    cr_assert_eq(camera_frame_bounds(&near_cam, lo, hi, &p), CAMERA_OK);
                    cr_assert(near_cam.near > 0 && near_cam.far > near_cam.near);
                    char label[200];
                    snprintf(label, sizeof label, "%s yaw %g pitch %g fov %g aspect %g", what, yaws[a], pitches[b],
                             fovs[f], aspects[r]);
                    /* (the W x H screen only scales NDC: inside it means inside the view) */
                    float area1 = check_corners(&near_cam, lo, hi, label);
                    p.distance = 2.0f;
                    cr_assert_eq(camera_frame_bounds(&far_cam, lo, hi, &p), CAMERA_OK);
                    float area2 = check_corners(&far_cam, lo, hi, label);
                    cr_assert(area1 == 0 || area2 < area1 * 0.5f, "%s: distance 2 makes the model smaller (%g -> %g)",
                              label, area1, area2);
                    cr_assert(far_cam.near > near_cam.near && far_cam.far > near_cam.far);
                }
}

Test(camera, synthetic_boxes_fit_from_every_direction)
{
    const float boxes[][2][3] = {
        {{-10, -10, -10}, {10, 10, 10}},
        {{-32768, -5, -3}, {32767, 5, 3}}, /* long and thin, the whole s16 range */
        {{0, 0, 0}, {1, 200, 1}},
        {{100, 100, 100}, {100, 100, 100}}, /* a point */
        {{-24, -29, -66}, {30, 43, 30}},
    };
    for (size_t i = 0; i < sizeof boxes / sizeof *boxes; i++) {
        char what[32];
        snprintf(what, sizeof what, "box %zu", i);
        sweep_box(boxes[i][0], boxes[i][1], what);
    }
}

Test(camera, the_sample_models_fit)
{
    REQUIRE_SAMPLES();
    static const char *const models[] = {"t3dm/01_model/model.t3dm",     "t3dm/03_objects/food.t3dm",
                                         "t3dm/07_skeleton/chicken.t3dm", "t3dm/08_animation/snake.t3dm",
                                         "t3dm/08_animation/map.t3dm",    "t3dm/11_segments/player.t3dm",
                                         "t3dm/12_uv_gen/can.t3dm",       "t3dm/18_particles/scene.t3dm"};
    for (size_t m = 0; m < sizeof models / sizeof *models; m++) {
        scene_file f;
        scene_load_model(&f, models[m]);
        /* the header's box (s16), and the drawn box of the rest pose */
        const int16_t *lo16 = f.model->header.aabb_min, *hi16 = f.model->header.aabb_max;
        camera cam;
        camera_params p = camera_default_params();
        cr_assert_eq(camera_frame_aabb(&cam, lo16, hi16, &p), CAMERA_OK);
        float lo[3] = {lo16[0], lo16[1], lo16[2]}, hi[3] = {hi16[0], hi16[1], hi16[2]};
        check_corners(&cam, lo, hi, models[m]);
        const t3dm_Skeleton *sk = skeleton_find(f.model);
        static mat4 bones[256];
        cr_assert_eq(skeleton_matrices(sk, NULL, bones, 256), SKELETON_OK);
        cr_assert_gt(bounds_of_model(f.model, sk ? bones : NULL, skeleton_bone_count(sk), lo, hi), 0);
        sweep_box(lo, hi, models[m]);
        scene_unload(&f);
    }
}

Test(camera, conventions)
{
    float lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
    camera cam;
    camera_params p = {0, 0, 1, 1, 60};
    cr_assert_eq(camera_frame_bounds(&cam, lo, hi, &p), CAMERA_OK);
    cr_assert(cam.eye[2] > 1 && fabsf(cam.eye[0]) < 1e-5f && fabsf(cam.eye[1]) < 1e-5f,
              "yaw 0 looks from +Z: eye (%g %g %g)", cam.eye[0], cam.eye[1], cam.eye[2]);
    p.yaw_deg = 90;
    cr_assert_eq(camera_frame_bounds(&cam, lo, hi, &p), CAMERA_OK);
    cr_assert(cam.eye[0] > 1 && fabsf(cam.eye[2]) < 1e-5f, "yaw 90 looks from +X");
    p.yaw_deg = 0;
    p.pitch_deg = 30;
    cr_assert_eq(camera_frame_bounds(&cam, lo, hi, &p), CAMERA_OK);
    cr_assert(cam.eye[1] > 0.5f, "positive pitch looks down from above");
    /* +Y is up on the screen: a point above the centre has a smaller screen y */
    p.pitch_deg = 0;
    cr_assert_eq(camera_frame_bounds(&cam, lo, hi, &p), CAMERA_OK);
    float top[3] = {0, 1, 0}, right[3] = {1, 0, 0}, centre[3] = {0, 0, 0}, st[3], sr[3], sc[3];
    cr_assert(camera_to_screen(&cam, top, W, H, st) && camera_to_screen(&cam, right, W, H, sr) &&
              camera_to_screen(&cam, centre, W, H, sc));
    cr_assert(fabsf(sc[0] - W / 2) < 1e-3f && fabsf(sc[1] - H / 2) < 1e-3f, "the centre is mid-screen");
    cr_assert(st[1] < sc[1], "screen y goes down: top %g, centre %g", st[1], sc[1]);
    cr_assert(sr[0] > sc[0], "+X (seen from +Z) is on the right");
    /* a point behind the eye does not project */
    float behind[3] = {0, 0, cam.eye[2] + 5}, s[3];
    cr_assert_eq(camera_to_screen(&cam, behind, W, H, s), 0);
    /* view_projection = projection * view */
    mat4 vp;
    mat4_mul(&vp, &cam.projection, &cam.view);
    cr_assert(memcmp(&vp, &cam.view_projection, sizeof vp) == 0);
    /* distance below 1: near stays positive */
    p.distance = 0.1f;
    cr_assert_eq(camera_frame_bounds(&cam, lo, hi, &p), CAMERA_OK);
    cr_assert(cam.near > 0 && cam.near < cam.far);
}

Test(camera, bad_parameters)
{
    float lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
    camera cam;
    const camera_params bad[] = {
        {0, 0, 0, 1, 60}, {0, 0, -1, 1, 60}, {0, 0, 1, 0, 60},  {0, 0, 1, 1, 0},
        {0, 0, 1, 1, 180}, {NAN, 0, 1, 1, 60}, {0, INFINITY, 1, 1, 60}, {0, 0, NAN, 1, 60},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_assert_eq(camera_frame_bounds(&cam, lo, hi, &bad[i]), CAMERA_ERR_PARAMS, "case %zu", i);
    camera_params p = camera_default_params();
    float nan_box[3] = {NAN, 0, 0};
    cr_assert_eq(camera_frame_bounds(&cam, nan_box, hi, &p), CAMERA_ERR_PARAMS);
    float huge_lo[3] = {-3e38f, 0, 0}, huge_hi[3] = {3e38f, 0, 0};
    cr_assert_eq(camera_frame_bounds(&cam, huge_lo, huge_hi, &p), CAMERA_ERR_PARAMS);
    /* a box given the wrong way round is the same box */
    camera a, b;
    cr_assert_eq(camera_frame_bounds(&a, lo, hi, &p), CAMERA_OK);
    cr_assert_eq(camera_frame_bounds(&b, hi, lo, &p), CAMERA_OK);
    cr_assert(memcmp(&a, &b, sizeof a) == 0);
}
