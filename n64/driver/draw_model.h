/* Drawing a T3DM model with the renderer microcode: the command list for a
 * frame (FRAME, LIGHTS, VIEW, the RDP setup and clears) and for a model read
 * by the generated reader, whose file lies in RDRAM as stored (per object:
 * material state for the RDP; per part: its bone's matrix, the vertex load
 * and its triangles, sequences and strips). Freestanding, like the rest of
 * n64/driver: the same code writes the list on the host and on the N64. */
#ifndef N64_DRIVER_DRAW_MODEL_H
#define N64_DRIVER_DRAW_MODEL_H

#include "../scene/camera.h"
#include "../scene/mat4.h"
#include "../scene/texture.h"
#include "cmdlist.h"
#include "t3dm.h"

#include <stdbool.h>
#include <stdint.h>

/* How materials are drawn. */
typedef enum draw_shading {
    DRAW_MATERIALS, /* the model's colour combiners, colours, textures and culling */
    DRAW_VERTEX,    /* lit vertex colours only (the combiner outputs SHADE), the model's culling */
} draw_shading_t;

typedef struct draw_frame_params {
    uint16_t width, height;
    bool color32;            /* RGBA8888 colour image, else RGBA5551 */
    uint32_t background;     /* RGBA8888 */
    const camera *cam;
    render_lights_t lights;
    unsigned guard_shift;    /* 1: the guard band is twice the screen */
    uint32_t rdp_buffer_size;
    /* tiny3d's fog (t3d_fog_set_range, rdpq_mode_fog(RDPQ_FOG_STANDARD)): materials whose fog
     * mode is "active" fade to fog_color from fog_near to fog_far (eye-space distances) */
    bool fog;
    float fog_near, fog_far;
    uint32_t fog_color;      /* RGBA8888 */
} draw_frame_params_t;

/* RDRAM addresses of what draw_frame_begin set up. */
typedef struct draw_frame {
    uint16_t width, height;
    bool color32;
    uint32_t color_image, z_image;
    mat4 view;              /* the VIEW matrix the microcode got: projection x view, scaled */
    mat4 camera_view;       /* the camera's view matrix alone (world -> eye): environment-map UVs */
    float clip_near_w;
    render_lights_t lights;
    bool fog;
    float fog_near, fog_far;
} draw_frame_t;

/* A material's textures, resolved by the caller: the pixels are copied into
 * RDRAM by draw_model. NULL pixels: the material has no usable texture (A
 * then draws the checkerboard; B too when the material names one). */
typedef struct draw_texture {
    texture tex;   /* texture A: tile 0 (TEX0) */
    texture tex_b; /* texture B: tile 1 (TEX1), loaded after A in TMEM */
} draw_texture_t;

/* What of a model goes into the command list: all of it, or (for n64-bench)
 * everything but the triangle commands, or nothing (the frame alone). */
typedef enum draw_content {
    DRAW_EVERYTHING = 0,
    DRAW_VERTICES_ONLY, /* matrices, materials and vertex loads; no TRIS, STRIP, SEQ */
    DRAW_FRAME_ONLY,    /* no model at all (scene_build leaves draw_model out) */
} draw_content_t;

typedef struct draw_model_params {
    const t3dm_File *model;
    uint32_t file_addr;            /* RDRAM address of the model file, as stored */
    const mat4 *bones;             /* model-space bone matrices, or NULL */
    uint32_t bone_count;
    const mat4 *model_matrix;      /* object to world; NULL: identity */
    draw_shading_t shading;
    /* per material chunk, in the order of the material chunks; may be NULL */
    const draw_texture_t *textures;
    uint32_t texture_count;
    draw_content_t content;
} draw_model_params_t;

enum {
    DRAW_OK = 0,
    DRAW_ERR_RDRAM = -1,    /* the RDRAM image or the command list is full */
    DRAW_ERR_MODEL = -2,    /* the model does not have what drawing it needs (no vertex chunk...) */
    DRAW_ERR_CAMERA = -3,   /* the camera's depth range cannot be mapped */
};

/* Allocates the colour and Z images and the RDP buffer, and writes the
 * frame's commands: FRAME, LIGHTS, VIEW, colour/Z image, scissor, clears. */
int draw_frame_begin(render_cmdlist_t *cl, rdram_image_t *img, const draw_frame_params_t *p, draw_frame_t *out);
int draw_model(render_cmdlist_t *cl, rdram_image_t *img, const draw_frame_t *frame, const draw_model_params_t *p);
/* Sync Full and END. */
int draw_frame_end(render_cmdlist_t *cl);

/* The vertices draw_model loads (the counts of its VTX commands). */
uint32_t draw_model_vertices(const t3dm_File *model);
/* The triangles the microcode meets in the model's TRIS, SEQ and STRIP
 * commands, counted by its rules: a strip's restarts and indices past the
 * cache make no triangle. `file` holds the model as stored (the strips). */
uint32_t draw_model_triangles(const t3dm_File *model, const uint8_t *file, uint32_t size);

/* Bytes of command list a model needs (a generous bound). */
uint32_t draw_model_list_bytes(const t3dm_File *model);

#endif
