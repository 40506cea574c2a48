/* Writing the renderer microcode's command list (n64/rsp/README.md) and the
 * blocks its commands read, into an RDRAM image. Matrices (n64/scene's mat4)
 * and directions are given as floats and stored in the microcode's
 * fixed-point formats here, so this is the one place that knows them. */
#ifndef N64_DRIVER_CMDLIST_H
#define N64_DRIVER_CMDLIST_H

#include "../scene/mat4.h"
#include "rdram.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct render_cmdlist {
    rdram_image_t *img;
    uint32_t start, pos, end; /* RDRAM addresses of the list */
    bool overflow;            /* a command or block did not fit */
} render_cmdlist_t;

/* Screen and depth mapping (FRAME block). */
typedef struct render_frame {
    uint16_t width, height;
    float clip_near_w;     /* clip-space w of the near plane, after the VIEW matrix's scale */
    unsigned guard_shift;  /* guard band: 2^guard_shift times the screen */
    uint32_t out_start, out_end; /* RDRAM buffer for the RDP commands */
} render_frame_t;

/* Lights (LIGHTS block and the directions of each MODEL block). Colours are
 * 0..1 per channel (more brightens); directions point towards the light, in
 * world space, and need not be unit length. */
typedef struct render_lights {
    float ambient[3];
    unsigned count; /* up to RENDER_MAX_LIGHTS */
    float color[4][3];
    float direction[4][3];
} render_lights_t;

/* Reserves room for a list of capacity bytes (the END command included). */
bool cmdlist_init(render_cmdlist_t *cl, rdram_image_t *img, uint32_t capacity);

void cmd_put(render_cmdlist_t *cl, uint32_t word0, uint32_t word1);
void cmd_frame(render_cmdlist_t *cl, const render_frame_t *frame);
void cmd_lights(render_cmdlist_t *cl, const render_lights_t *lights);
/* The projection x view matrix; its scale must keep clip coordinates within s16.16. */
void cmd_view(render_cmdlist_t *cl, const mat4 *view);
/* A model matrix (object or bone to world) and the lights' directions in its space. */
void cmd_model(render_cmdlist_t *cl, const mat4 *model, const render_lights_t *lights);
void cmd_vtx(render_cmdlist_t *cl, uint32_t addr, unsigned count, unsigned first_slot);
void cmd_tris(render_cmdlist_t *cl, uint32_t addr, unsigned index_count);
void cmd_strip(render_cmdlist_t *cl, uint32_t addr, unsigned index_count);
void cmd_seq(render_cmdlist_t *cl, unsigned first_slot, unsigned triangles);
void cmd_trimode(render_cmdlist_t *cl, unsigned tri_command, unsigned cull, unsigned tile);
/* RDP command words, copied to the RDP output as they are. */
void cmd_rdp(render_cmdlist_t *cl, const uint64_t *words, unsigned count);
void cmd_end(render_cmdlist_t *cl);

#endif
