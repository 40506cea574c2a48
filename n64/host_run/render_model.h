/* Rendering a T3DM model to an RGBA picture on the host: the generated
 * reader and validator, the skeleton posed (at rest, or by a frame of an
 * animation whose stream the caller supplies), the camera framed from the
 * posed model's bounds, the command list written by n64/driver, and the
 * microcode and the RDP run by n64/host_run. What `binform render` does, minus
 * the files and the PNG. */
#ifndef N64_EMU_RENDER_MODEL_H
#define N64_EMU_RENDER_MODEL_H

#include "../driver/draw_model.h"
#include "emu.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct render_options {
    uint16_t width, height;
    float yaw_deg, pitch_deg, distance; /* camera_params; distance 1 fits the model */
    const char *animation;              /* NULL: the skeleton's rest pose */
    float time;                         /* seconds into the animation */
    draw_shading_t shading;
    bool color16;                       /* RGBA5551 colour image instead of RGBA8888 */
    uint32_t background;                /* RGBA8888 */
    draw_content_t content;             /* everything, or less for n64-bench */
    uint64_t *profile;                  /* NULL, or cycles per IMEM word (emu_t.profile) */
    float fog_start, fog_end;           /* scene_view_t's: fog off when fog_end <= fog_start */
} render_options_t;

render_options_t render_default_options(void);

/* Files beside the model (animation streams "NAME.N.sdata", textures named by
 * the materials' paths, "rom:/" removed): returns false when there is none.
 * The bytes must stay valid until render_model returns. */
typedef bool (*render_load_fn)(void *ctx, const char *name, const uint8_t **data, size_t *size);

typedef struct render_result {
    uint16_t width, height;
    uint8_t *rgba;             /* width * height * 4 bytes, malloc'ed: render_result_free */
    emu_result_t emu;
    uint32_t triangles;        /* the triangles the microcode meets (draw_model_triangles) */
    uint32_t vertices;         /* the vertices it loads (draw_model_vertices) */
    uint32_t textures_loaded;  /* textures (A or B) drawn from their own sprite */
    uint32_t textures_missing; /* textures (A or B) drawn with the checkerboard */
    char texture_notes[2048];  /* why: a line per texture, "FILE (FIELD): REASON" */
    /* what the picture was drawn with, for the accuracy tests */
    draw_frame_t frame;
    mat4 *bones;
    uint32_t bone_count;
} render_result_t;

/* Renders `model` (size bytes, as stored in its file); false with a message
 * in `error` (the field path and byte offset when the file is at fault). */
bool render_model(const uint8_t *model, size_t size, const render_options_t *o, render_load_fn load, void *ctx,
                  render_result_t *out, char *error, size_t error_size);
void render_result_free(render_result_t *r);

#endif
