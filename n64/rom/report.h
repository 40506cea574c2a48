/* What the ROM says over the IS-Viewer, one line each (the test reads them
 * back, tests/n64/rom_check.c):
 *
 *   model: <the counts and names the generated reader found>
 *   check: <FILE: error|warning: PATH @0xOFFSET: MESSAGE>   (one per finding, as binform check)
 *   check: N errors, M warnings
 *   rsp: <COUNT ticks, RSP cycles, triangles, cycles per triangle>
 *   frame: WxH rgba5551|rgba8888 fnv1a 0xHASH
 *   px Y X P P*N ...   (pixels of row Y from X: hex values, P*N a run of N)
 *   done: drawn|refused|failed|exception */
#ifndef N64_ROM_REPORT_H
#define N64_ROM_REPORT_H

#include "../driver/draw_model.h"
#include "bf_validate.h"
#include "rsp_task.h"
#include "t3dm.h"

void report_model(const t3dm_File *m);
void report_findings(const bf_findings *f, const char *file);
void report_task(const rsp_task_result_t *r, uint32_t model_triangles);
/* The colour image at `pixels` (frame's size and format). */
void report_frame(const draw_frame_t *frame, const uint8_t *pixels);

/* FNV-1a, 32 bits, over bytes (the test computes it too). */
uint32_t report_fnv1a(const uint8_t *bytes, uint32_t len);

#endif
