/* Running the renderer microcode (build/n64/rsp/render.*.bin) on the RSP
 * interpreter for the tests: a 4 MiB RDRAM, a command list, and the RDP
 * command ranges it hands over. */
#ifndef TESTS_N64_RENDER_HARNESS_H
#define TESTS_N64_RENDER_HARNESS_H

#include "../../n64/driver/cmdlist.h"
#include "../../n64/rsp/render_abi.h"
#include "rsp.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HARNESS_RDRAM_SIZE (4u << 20)

typedef struct harness {
    rsp_t *rsp;
    uint8_t *rdram;
    rdram_image_t img;
    render_cmdlist_t cl;
    uint32_t out_start, out_end; /* RDP output buffer */
    uint32_t rdp_bytes;          /* RDP command bytes handed over */
    uint32_t rdp_first, rdp_last; /* span of the handed-over ranges */
} harness_t;

/* false (and a reason) when the microcode images are missing. */
bool harness_open(harness_t *h, char *why, size_t why_size);
void harness_close(harness_t *h);
/* Writes END, runs from IMEM 0 until break; returns the stop reason. */
rsp_stop_reason_t harness_run(harness_t *h, uint64_t max_cycles);

/* A cache entry as the microcode wrote it. */
typedef struct cache_vertex {
    int16_t s, t, w, z, x, y;
    uint8_t rgba[4];
    int32_t clip[4]; /* clip' (s16.16) */
    uint8_t clip_code, reject_code;
} cache_vertex_t;
void harness_vertex(const harness_t *h, unsigned slot, cache_vertex_t *out);

/* A frame for width x height with the usual settings and a 256 KiB RDP buffer. */
render_frame_t harness_frame(harness_t *h, unsigned width, unsigned height, float clip_near_w);

#endif
