/* One frame of a posed T3DM model (see scene.h). */
#include "scene.h"

#include "../scene/bounds.h"
#include "../scene/fmath.h"

int scene_camera(const t3dm_File *model, const mat4 *bones, uint32_t bone_count, const scene_view_t *v, camera *out)
{
    float lo[3], hi[3];
    bounds_of_model(model, bones, bone_count, lo, hi);
    camera_params cp = camera_default_params();
    cp.yaw_deg = v->yaw_deg;
    cp.pitch_deg = v->pitch_deg;
    cp.distance = v->distance;
    cp.aspect = (float)v->width / v->height;
    return camera_frame_bounds(out, lo, hi, &cp);
}

render_lights_t scene_lights(const camera *cam)
{
    float back[3] = {cam->eye[0] - cam->target[0], cam->eye[1] - cam->target[1], cam->eye[2] - cam->target[2]};
    float side[3] = {back[2], 0, -back[0]}; /* back x up */
    float len = fmath_sqrt(back[0] * back[0] + back[1] * back[1] + back[2] * back[2]);
    if (!(len > 0))
        len = 1;
    render_lights_t l = {.ambient = {0.32f, 0.32f, 0.36f}, .count = 2};
    for (int i = 0; i < 3; i++) {
        l.direction[0][i] = back[i] / len + 0.6f * side[i] / len + (i == 1 ? 0.9f : 0);
        l.direction[1][i] = back[i] / len - 0.8f * side[i] / len - (i == 1 ? 0.3f : 0);
    }
    const float key[3] = {0.85f, 0.82f, 0.76f}, fill[3] = {0.22f, 0.25f, 0.34f};
    for (int i = 0; i < 3; i++) {
        l.color[0][i] = key[i];
        l.color[1][i] = fill[i];
    }
    return l;
}

int scene_build(scene_t *s, rdram_image_t *img, const scene_overlays_t *ov, const scene_view_t *v, const camera *cam,
                const uint8_t *file, uint32_t size, const t3dm_File *model, const mat4 *bones, uint32_t bone_count,
                const draw_texture_t *textures, uint32_t texture_count)
{
    /* The overlay loader reads up to the end of IMEM: each image is followed by room for 4 KiB. */
    s->cold = rdram_put(img, ov->cold, ov->cold_size, 8);
    rdram_alloc(img, 4096 - ov->cold_size, 8);
    s->clip = rdram_put(img, ov->clip, ov->clip_size, 8);
    rdram_alloc(img, 4096 - ov->clip_size, 8);
    s->file = rdram_put(img, file, size, 16);
    if (img->full || !cmdlist_init(&s->cl, img, draw_model_list_bytes(model)))
        return DRAW_ERR_RDRAM;
    bool fog = v->fog_end > v->fog_start;
    float depth = cam->far - cam->near;
    draw_frame_params_t fp = {v->width, v->height, v->color32, v->background, cam, scene_lights(cam), 1,
                              SCENE_RDP_BUFFER_SIZE, fog, cam->near + v->fog_start * depth,
                              cam->near + v->fog_end * depth, v->background};
    int status = draw_frame_begin(&s->cl, img, &fp, &s->frame);
    draw_model_params_t dp = {model, s->file, bones, bone_count, NULL, v->shading, textures, texture_count, v->content};
    if (status == DRAW_OK && v->content != DRAW_FRAME_ONLY)
        status = draw_model(&s->cl, img, &s->frame, &dp);
    if (status == DRAW_OK)
        status = draw_frame_end(&s->cl);
    return status;
}

uint32_t scene_triangles(const t3dm_File *m, const uint8_t *file, uint32_t size)
{
    return draw_model_triangles(m, file, size);
}
