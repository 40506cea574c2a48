/* render_abi.h is the one statement of what the host and the renderer microcode agree on:
 * render.S includes it through the C preprocessor, so the two cannot differ. What is checked
 * here is that its DMEM layout holds together (every area in order, none running into the
 * next, all within DMEM's 4 KiB) and that the assembled DMEM image has what the header
 * places: the constant vectors and the command table, an entry for every opcode. */
#include "../../n64/rsp/render_abi.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>

#ifndef N64_RSP_IMAGE_DIR
#define N64_RSP_IMAGE_DIR "build/n64/rsp"
#endif

#define DMEM_SIZE 0x1000

typedef struct area {
    unsigned start, size;
} area;

/* DMEM from the bottom up: each area ends at or before the next starts. */
static const area dmem_areas[] = {
    {DM_VIEW, 64},
    {DM_MVP, 64},
    {DM_FRAME, FRAME_BLOCK_SIZE},
    {DM_LIGHTS, LIGHTS_BLOCK_SIZE},
    {DM_LDIR, 3 * 8},          /* LD_X, LD_Y, LD_Z */
    {DM_STATE, 8},
    {DM_CONST, 5 * 16},        /* CV_NSHIFT .. CV_T */
    {ST_ERROR, 4},
    {ST_STATS, 3 * 4},
    {DM_CMDBUF, CMDBUF_SIZE},
    {DM_IDXBUF, IDXBUF_SIZE},
    {OV_RDRAM, 2 * 4},
    {OV_CURRENT, 1},
    {DM_OUTBUF, 2 * OUTBUF_SIZE},
    {CP_BUF0, 9 * CP_SIZE},    /* the clipper's polygons, 9 corners each */
    {CP_BUF1, 9 * CP_SIZE},
    {CE_0, VTX_SIZE},
    {CE_1, VTX_SIZE},
    {CE_2, VTX_SIZE},
    {CL_RA, 4},
    {CL_POLY, 2},
    {CL_COUNT, 1},
    {CL_INDEX, 1},
    {DM_VCACHE, (VCACHE_SLOTS + 1) * VTX_SIZE},
    {DM_COMMANDS, 2 * CMD_COUNT},
    {DM_SCRATCH, 32},
};

Test(render_abi, dmem_areas_in_order_without_overlap)
{
    size_t n = sizeof dmem_areas / sizeof dmem_areas[0];
    for (size_t i = 0; i + 1 < n; i++)
        cr_expect_leq(dmem_areas[i].start + dmem_areas[i].size, dmem_areas[i + 1].start,
                      "DMEM area %zu (0x%03X, %u bytes) runs into the next (0x%03X)", i, dmem_areas[i].start,
                      dmem_areas[i].size, dmem_areas[i + 1].start);
    cr_expect_leq(dmem_areas[n - 1].start + dmem_areas[n - 1].size, DMEM_SIZE);
    cr_expect_eq(DM_VCACHE_END, DM_VCACHE + (VCACHE_SLOTS + 1) * VTX_SIZE);
    cr_expect_geq(CP_BUF0, DM_CLIP);
    cr_expect_leq(CL_INDEX + 1, DM_VCACHE);
}

Test(render_abi, blocks_and_entries_hold_their_fields)
{
    cr_expect_leq(FR_OUT_END + 4, DM_FRAME + FRAME_BLOCK_SIZE);
    cr_expect_leq(LI_COLORS + RENDER_MAX_LIGHTS * 8, DM_LIGHTS + LIGHTS_BLOCK_SIZE);
    cr_expect_eq(ST_CMDLIST + 4, DM_CONST);
    cr_expect_leq(VX_REJECT + 1, VTX_SIZE);
    cr_expect_leq(VX_CLIPPOS_F + 8, VX_CLIP);
    cr_expect_eq(VX_CLIPPOS_I + 8, VX_CLIPPOS_F);
    cr_expect_eq(VTX_SIZE % 4, 0, "cache entries stay word-aligned");
    cr_expect_eq(OUTBUF_SIZE % 8, 0, "the RDP output halves are sent by DMA, 8 bytes at a time");
}

static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

Test(render_abi, the_dmem_image_has_what_the_header_places)
{
    FILE *f = fopen(N64_RSP_IMAGE_DIR "/render.dmem.bin", "rb");
    if (!f)
        cr_skip_test("render microcode not found in %s (needs mips-linux-gnu-as: make n64)", N64_RSP_IMAGE_DIR);
    static uint8_t dmem[DMEM_SIZE + 1];
    size_t size = fread(dmem, 1, sizeof dmem, f);
    fclose(f);
    cr_assert_eq(size, DMEM_SIZE, "render.dmem.bin is all of DMEM");
    static const uint16_t nshift[8] = {1, 32, 2048, 0, 1, 32, 2048, 0};
    static const uint16_t t[4] = {512, 16384, 8, 1};
    for (int k = 0; k < 8; k++)
        cr_expect_eq(be16(dmem + CV_NSHIFT + 2 * k), nshift[k], "CV_NSHIFT lane %d", k);
    for (int k = 0; k < 4; k++)
        cr_expect_eq(be16(dmem + CV_T + 2 * k), t[k], "CV_T lane %d", k);
    /* the command table: NOP is in IMEM (bit 15 clear), END in the cold overlay (set); every
     * opcode has a handler, and nothing follows the table before the scratch area */
    cr_expect_eq(be16(dmem + DM_COMMANDS + 2 * CMD_NOP) & 0x8000, 0);
    cr_expect_neq(be16(dmem + DM_COMMANDS + 2 * CMD_END) & 0x8000, 0);
    for (int op = 0; op < CMD_COUNT; op++)
        cr_expect_neq(be16(dmem + DM_COMMANDS + 2 * op), 0, "opcode 0x%02X has a handler", op);
    for (unsigned a = DM_COMMANDS + 2 * CMD_COUNT; a < DM_SCRATCH; a++)
        cr_expect_eq(dmem[a], 0, "DMEM 0x%03X, after the command table", a);
}
