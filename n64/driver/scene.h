/* One frame of a posed T3DM model, as `binform render` draws it: the camera
 * framed from the posed model's bounds, the default lights, the microcode's
 * overlays and the model file placed in RDRAM, and the command list.
 * Freestanding like the rest of n64/driver: the host (n64/host_run/render_model.c)
 * and the console (n64/rom) run this same code, so that the same model and
 * view give the same command list, float for float, on both. */
#ifndef N64_DRIVER_SCENE_H
#define N64_DRIVER_SCENE_H

#include "draw_model.h"

#include <stdbool.h>
#include <stdint.h>

/* The RDP command buffer of a frame. */
#define SCENE_RDP_BUFFER_SIZE (256u << 10)

typedef struct scene_view {
    uint16_t width, height;
    float yaw_deg, pitch_deg, distance; /* camera_params; distance 1 fits the model */
    draw_shading_t shading;
    bool color32;                       /* RGBA8888 colour image, else RGBA5551 */
    uint32_t background;                /* RGBA8888 */
    draw_content_t content;             /* 0: everything (n64-bench draws less) */
    /* fog for materials whose fog mode is active, in the background colour, from fog_start
     * to fog_end of the camera's depth range (0: its near plane, 1: its far plane, which
     * the framing puts around the model); off when fog_end <= fog_start */
    float fog_start, fog_end;
} scene_view_t;

/* The renderer microcode's overlay images (n64/rsp/README.md, "Starting a task"). */
typedef struct scene_overlays {
    const uint8_t *cold, *clip;
    uint32_t cold_size, clip_size;
} scene_overlays_t;

/* What scene_build placed: the addresses a task starts with, and the frame. */
typedef struct scene {
    uint32_t cold, clip;  /* RDRAM addresses of the overlay images */
    uint32_t file;        /* of the model file, as stored */
    render_cmdlist_t cl;  /* cl.start: the command list */
    draw_frame_t frame;   /* colour and Z images, the VIEW matrix */
} scene_t;

/* Frames the model as posed by `bones` (NULL: unskinned) from the view's yaw,
 * pitch and distance; CAMERA_OK or a camera error. */
int scene_camera(const t3dm_File *model, const mat4 *bones, uint32_t bone_count, const scene_view_t *v, camera *out);

/* A key light from above and beside the camera, a dimmer fill from the other side. */
render_lights_t scene_lights(const camera *cam);

/* Places the overlays and the model file (size bytes) in `img` and writes the
 * frame's command list; DRAW_OK or a DRAW_ERR_* code. `textures` as in
 * draw_model_params_t (NULL: textured materials get the checkerboard). */
int scene_build(scene_t *s, rdram_image_t *img, const scene_overlays_t *ov, const scene_view_t *v, const camera *cam,
                const uint8_t *file, uint32_t size, const t3dm_File *model, const mat4 *bones, uint32_t bone_count,
                const draw_texture_t *textures, uint32_t texture_count);

/* The triangles the microcode meets in the model (draw_model_triangles). */
uint32_t scene_triangles(const t3dm_File *model, const uint8_t *file, uint32_t size);

#endif
