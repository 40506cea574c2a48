/* What the host and the renderer microcode (render.S) agree on: command
 * opcodes, block layouts, the DMEM layout and the vertex cache entry. The
 * same numbers are in render_abi.inc for the assembler; the test
 * tests/n64/test_render_abi.c reads that file and checks that both agree.
 * n64/rsp/README.md documents every item. */
#ifndef N64_RENDER_ABI_H
#define N64_RENDER_ABI_H

/* Commands: 8 bytes each, the opcode in the top byte of the first word. */
#define CMD_END 0x00     /* flush the RDP output and stop (break) */
#define CMD_NOP 0x01
#define CMD_FRAME 0x02   /* word1: RDRAM address of a 64-byte FRAME block */
#define CMD_LIGHTS 0x03  /* word1: RDRAM address of a 64-byte LIGHTS block */
#define CMD_VIEW 0x04    /* word1: RDRAM address of a 64-byte s16.16 matrix */
#define CMD_MODEL 0x05   /* word1: RDRAM address of an 88-byte MODEL block */
#define CMD_VTX 0x06     /* [23:16] count, [15:8] first slot; word1: vertex pairs */
#define CMD_TRIS 0x07    /* [15:0] index count; word1: u8 indices */
#define CMD_STRIP 0x08   /* [15:0] index count; word1: u16 indices, bit 15 restarts */
#define CMD_SEQ 0x09     /* [15:8] first slot, [7:0] triangle count */
#define CMD_RDP 0x0A     /* [15:0] n: n RDP command words follow */
#define CMD_TRIMODE 0x0B /* [15:8] triangle command, [7:0] cull; word1: tile */
#define CMD_COUNT 0x0C

/* Culling modes of CMD_TRIMODE. */
#define CULL_NONE 0
#define CULL_BACK 1
#define CULL_FRONT 2

/* DMEM layout. */
#define DM_VIEW 0x000
#define DM_MVP 0x040
#define DM_FRAME 0x080
#define FR_VSCALE 0x080
#define FR_VOFF_I 0x090
#define FR_VOFF_F 0x0A0
#define FR_WNORM 0x0B0
#define FR_WSCALE 0x0B2
#define FR_GUARD_SHIFT 0x0B4
#define FR_OUT_START 0x0B8
#define FR_OUT_END 0x0BC
#define DM_LIGHTS 0x0C0
#define LI_AMBIENT 0x0C0
#define LI_COLORS 0x0C8
#define DM_LDIR 0x100
#define LD_X 0x100
#define LD_Y 0x108
#define LD_Z 0x110
#define DM_STATE 0x118
#define ST_TRICMD 0x118
#define ST_CULL 0x119
#define ST_TILE 0x11A
#define ST_TRISIZE 0x11B
#define ST_CMDLIST 0x11C
#define DM_CONST 0x120
#define CV_NSHIFT 0x120
#define CV_NMASK 0x130
#define CV_K 0x140
#define CV_GUARD 0x150
#define CV_T 0x160
#define ST_ERROR 0x170
#define ST_STATS 0x174 /* u32 drawn, u32 culled or rejected, u32 clipped */
#define DM_CMDBUF 0x180
#define CMDBUF_SIZE 64
#define DM_IDXBUF 0x1C0
#define IDXBUF_SIZE 112
#define OV_RDRAM 0x230 /* u32 RDRAM addresses of the overlay images: cold, clip */
#define OV_CURRENT 0x238
#define OV_COLD 1
#define OV_CLIP 2
#define DM_OUTBUF 0x240
#define OUTBUF_SIZE 176
#define DM_CLIP 0x3A0
#define CP_SIZE 24
#define CP_BUF0 0x3A0
#define CP_BUF1 0x478
#define CE_0 0x550
#define CE_1 0x574
#define CE_2 0x598
#define CL_RA 0x5BC
#define CL_POLY 0x5C0
#define CL_COUNT 0x5C2
#define CL_INDEX 0x5C3
#define DM_VCACHE 0x5C8
#define VCACHE_SLOTS 70
#define VTX_SIZE 36
#define DM_VCACHE_END 0xFC4
#define DM_COMMANDS 0xFC4
#define DM_SCRATCH 0xFE0

/* A transformed vertex in the cache. */
#define VX_S 0x00
#define VX_T 0x02
#define VX_W 0x04
#define VX_Z 0x06
#define VX_RGBA 0x08
#define VX_X 0x0C
#define VX_Y 0x0E
#define VX_CLIPPOS_I 0x10
#define VX_CLIPPOS_F 0x18
#define VX_CLIP 0x20
#define VX_REJECT 0x21

/* Sizes of the blocks the commands read. */
#define FRAME_BLOCK_SIZE 64
#define LIGHTS_BLOCK_SIZE 64
#define VIEW_BLOCK_SIZE 64
#define MODEL_BLOCK_SIZE 88
#define RENDER_MAX_LIGHTS 4

#endif
