/* Writing the renderer microcode's command list (n64/rsp/README.md) and the
 * blocks its commands read, into an RDRAM image. Matrices and directions are
 * given as floats and stored in the microcode's fixed-point formats here, so
 * this is the one place that knows them. */
#ifndef N64_DRIVER_CMDLIST_H
#define N64_DRIVER_CMDLIST_H

#include "rdram.h"

#include <stdbool.h>
#include <stdint.h>

/* A 4x4 matrix, column-major (m[4 * column + row]), column vectors. */
typedef struct render_mat4 {
    float m[16];
} render_mat4_t;

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
void cmd_view(render_cmdlist_t *cl, const render_mat4_t *view);
/* A model matrix (object or bone to world) and the lights' directions in its space. */
void cmd_model(render_cmdlist_t *cl, const render_mat4_t *model, const render_lights_t *lights);
void cmd_vtx(render_cmdlist_t *cl, uint32_t addr, unsigned count, unsigned first_slot);
void cmd_tris(render_cmdlist_t *cl, uint32_t addr, unsigned index_count);
void cmd_strip(render_cmdlist_t *cl, uint32_t addr, unsigned index_count);
void cmd_seq(render_cmdlist_t *cl, unsigned first_slot, unsigned triangles);
void cmd_trimode(render_cmdlist_t *cl, unsigned tri_command, unsigned cull, unsigned tile);
/* RDP command words, copied to the RDP output as they are. */
void cmd_rdp(render_cmdlist_t *cl, const uint64_t *words, unsigned count);
void cmd_end(render_cmdlist_t *cl);

/* The s16.16 layout of a matrix in DMEM and RDRAM (64 bytes). */
void render_store_matrix(uint8_t out[64], const render_mat4_t *m);
/* s16.16 value, saturated. */
int32_t render_fixed16(double value);

#endif
