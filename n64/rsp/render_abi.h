/* What the host and the renderer microcode agree on: command opcodes, block layouts, the DMEM
 * layout of the renderer microcode and the vertex cache entry. The one statement of them: the
 * host's C includes this file, and so does render.S, which goes through the C preprocessor
 * (n64/n64.mk), so this file holds #defines and comments only. n64/rsp/README.md documents
 * every item. */
#ifndef N64_RENDER_ABI_H
#define N64_RENDER_ABI_H

/* ---- commands (8 bytes each; the opcode is the top byte of the first word) ---- */
#define CMD_END         0x00   /* flush the RDP output and stop (break) */
#define CMD_NOP         0x01
#define CMD_FRAME       0x02   /* word1: RDRAM address of a 64-byte FRAME block */
#define CMD_LIGHTS      0x03   /* word1: RDRAM address of a 64-byte LIGHTS block */
/* word1: RDRAM address of a 64-byte s16.16 matrix (projection x view) */
#define CMD_VIEW        0x04
/* word1: RDRAM address of a MODEL block (matrix + object-space light directions) */
#define CMD_MODEL       0x05
/* [23:16] count, [15:8] first cache slot; word1: RDRAM address of vertex pairs */
#define CMD_VTX         0x06
/* [15:0] index count; word1: RDRAM address of u8 cache indices, 3 per triangle */
#define CMD_TRIS        0x07
/* [15:0] index count; word1: RDRAM address of u16 indices (bit 15: restart) */
#define CMD_STRIP       0x08
/* [15:8] first cache slot, [7:0] triangle count: slots 3k..3k+2 from the first */
#define CMD_SEQ         0x09
/* [15:0] n: the n 64-bit RDP command words that follow are copied to the RDP */
#define CMD_RDP         0x0A
/* [15:8] triangle command (0x0C..0x0F), [7:0] cull (0 none, 1 back, 2 front); word1: [2:0] tile */
#define CMD_TRIMODE     0x0B
#define CMD_COUNT       0x0C

/* ---- DMEM layout ---- */
/* projection x view matrix, s16.16: 4 columns of s16 integer parts, then u16 fractions */
#define DM_VIEW         0x000
#define DM_MVP          0x040  /* view matrix x current model matrix, same layout */
#define DM_FRAME        0x080  /* FRAME block (64 bytes, from the host) */
/* 8 x s16: 2*sx, 2*sy, 2*sz, 0, repeated (screen = ndc/2 * VSCALE + VOFF) */
#define FR_VSCALE       0x080
/* 8 x s16: integer parts of ox, oy, oz, 0, repeated (x, y in quarter pixels) */
#define FR_VOFF_I       0x090
#define FR_VOFF_F       0x0A0  /* 8 x u16: fractions of the same */
#define FR_WNORM        0x0B0  /* u16: clip' = clip * WNORM / 65536 (keeps w' within [1/4, 16]) */
#define FR_WSCALE       0x0B2  /* s16: W = WSCALE / w' (the RDP's perspective W, at most 0x7FFF) */
#define FR_GUARD_SHIFT  0x0B4  /* u16: the guard band is 2^GUARD_SHIFT times the screen (x and y) */
#define FR_OUT_START    0x0B8  /* u32: RDRAM output buffer for RDP commands [start, end) */
#define FR_OUT_END      0x0BC  /* u32 */
#define DM_LIGHTS       0x0C0  /* LIGHTS block (64 bytes, from the host) */
#define LI_AMBIENT      0x0C0  /* 4 x s16: ambient r, g, b, a; 8192 = 1.0 (a is 8192) */
#define LI_COLORS       0x0C8  /* 4 lights x 4 x s16: r, g, b, 0; 16384 = 1.0 */
#define DM_LDIR         0x100  /* from the MODEL block: light directions in object space, s1.14, */
#define LD_X            0x100  /* 4 x s16 x components (lights 0..3), premultiplied by the normal */
#define LD_Y            0x108  /* decoding factors 16/15.5, 32/31.5, 16/15.5 */
#define LD_Z            0x110
#define DM_STATE        0x118  /* microcode state kept between commands */
#define ST_TRICMD       0x118  /* u8 triangle command byte (0x0C..0x0F) */
#define ST_CULL         0x119  /* u8 cull mode */
#define ST_TILE         0x11A  /* u8 tile of textured triangles */
#define ST_TRISIZE      0x11B  /* u8 bytes of RDP command per triangle (set with ST_TRICMD) */
/* u32 RDRAM address of the command list: set by the host before the start */
#define ST_CMDLIST      0x11C
#define DM_CONST        0x120  /* constant vectors (in the DMEM image) */
/* 1, 32, 2048, 0 (x2): moves each packed normal component to the top */
#define CV_NSHIFT       0x120
#define CV_NMASK        0x130  /* 0xF800, 0xFC00, 0xF800, 0 (x2) */
/* vertex scalars: see render.S (K_*); lanes 1, 2 from the FRAME block */
#define CV_K            0x140
#define CV_GUARD        0x150  /* G, G, 1, 1 (x2), G = 2^FR_GUARD_SHIFT, set by CMD_FRAME */
#define CV_T            0x160  /* triangle scalars: see render.S (T_*) */
#define ST_ERROR        0x170  /* u32: 0, or the first word of a rejected command */
/* u32 triangles drawn, u32 triangles culled or rejected, u32 triangles clipped */
#define ST_STATS        0x174
#define DM_CMDBUF       0x180  /* command buffer (64 bytes) */
#define CMDBUF_SIZE     64
#define DM_IDXBUF       0x1C0  /* index buffer (112 bytes) */
#define IDXBUF_SIZE     112
/* u32 RDRAM addresses of the overlay images (cold, clip): set by the host */
#define OV_RDRAM        0x230
#define OV_CURRENT      0x238  /* u8 the overlay in IMEM: 0 none, OV_COLD, OV_CLIP */
#define OV_COLD         1
#define OV_CLIP         2
#define DM_OUTBUF       0x240  /* RDP output, two halves of OUTBUF_SIZE */
#define OUTBUF_SIZE     176
#define DM_CLIP         0x3A0  /* clipping work area (552 bytes): */
#define CP_SIZE         24     /* a polygon corner: clip' (16), RGBA (4), S, T (4) */
#define CP_BUF0         0x3A0  /* two polygon buffers of 9 corners */
#define CP_BUF1         0x478
#define CE_0            0x550  /* three cache entries for the fan */
#define CE_1            0x574
#define CE_2            0x598
#define CL_RA           0x5BC  /* u32 where tri_clip returns to */
#define CL_POLY         0x5C0  /* u16 the clipped polygon's buffer */
#define CL_COUNT        0x5C2  /* u8 its corners */
#define CL_INDEX        0x5C3  /* u8 the next fan corner */
/* vertex cache: VCACHE_SLOTS entries of VTX_SIZE bytes, plus one spare */
#define DM_VCACHE       0x5C8
#define VCACHE_SLOTS    70
#define VTX_SIZE        36
#define DM_VCACHE_END   0xFC4  /* DM_VCACHE + (VCACHE_SLOTS + 1) * VTX_SIZE */
#define DM_COMMANDS     0xFC4  /* IMEM addresses of the command handlers, by opcode */
/* 32 bytes: the strip state and the texture gather (render_tri.inc) */
#define DM_SCRATCH      0xFE0

/* ---- a transformed vertex in the cache ---- */
#define VX_S            0x00   /* s16 S, T: texture coordinates as stored (s10.5) */
#define VX_T            0x02
#define VX_W            0x04   /* s16 W = WSCALE / w' (perspective) */
#define VX_Z            0x06   /* s16 Z, 0..0x7FFF */
#define VX_RGBA         0x08   /* u8 r, g, b, a, lit */
#define VX_X            0x0C   /* s16 X, Y on screen in quarter pixels (s13.2) */
#define VX_Y            0x0E
#define VX_CLIPPOS_I    0x10   /* s16 x', y', z', w': clip coordinates times WNORM, integer parts */
#define VX_CLIPPOS_F    0x18   /* u16 fractions */
/* u8 code: beyond the guard band (x, y) or near/far (z); bits below */
#define VX_CLIP         0x20
#define VX_REJECT       0x21   /* u8 code: beyond the screen (x, y) or near/far (z) */
/* code bits: 0 x <= -w, 1 y <= -w, 2 z <= -w, 3 x >= w, 4 y >= w, 5 z >= w */

/* ---- culling modes of CMD_TRIMODE ---- */
#define CULL_NONE 0
#define CULL_BACK 1
#define CULL_FRONT 2

/* ---- sizes of the blocks the commands read ---- */
#define FRAME_BLOCK_SIZE 64
#define LIGHTS_BLOCK_SIZE 64
#define VIEW_BLOCK_SIZE 64
#define MODEL_BLOCK_SIZE 88
#define RENDER_MAX_LIGHTS 4

#endif
