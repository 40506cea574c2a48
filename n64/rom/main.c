/* The ROM program: the embedded T3DM model read by the generated reader and
 * validated by the generated validator (on big-endian MIPS, memory from the
 * bump heap through the runtime's allocator hooks), posed and framed by
 * n64/scene, its command list written by n64/driver's scene (the code
 * `binform render` runs on the host), drawn by the renderer microcode on the
 * RSP and the RDP, shown through the VI, and reported over the IS-Viewer
 * (report.c says how). What it draws comes from rom.mk: the same options the
 * test gives `binform render`. */
#include "../driver/scene.h"
#include "../scene/anim.h"
#include "../scene/skeleton.h"
#include "bf_validate.h"
#include "console.h"
#include "heap.h"
#include "rcp.h"
#include "report.h"
#include "rsp_task.h"
#include "t3dm.h"
#include "vi.h"
#include "vmov_patch.h"

#include <stddef.h>
#include <stdint.h>

/* blobs.S */
extern const uint8_t rom_model[], rom_model_end[], rom_stream[], rom_stream_end[];
extern const uint8_t ucode_imem[], ucode_imem_end[], ucode_dmem[], ucode_dmem_end[];
extern const uint8_t ucode_cold[], ucode_cold_end[], ucode_clip[], ucode_clip_end[];
/* program.ld */
extern uint8_t __heap_start[];

#define HEAP_SIZE (2u << 20)
#define RDRAM_TOP 0x7E0000u  /* the stack lies above */
#define MAX_BONES 256u
#define MAX_CHANNELS 1024u
#define TIMEOUT_TICKS (2u * COUNT_HZ) /* two seconds of the console's time */

static bone_pose pose[MAX_BONES];
static mat4 bones[MAX_BONES];
static anim_channel channels[MAX_CHANNELS];

/* The model's pose: rest, or ROM_ANIM at ROM_TIME (as n64/host_run/render_model.c poses it). */
static bool pose_model(const t3dm_File *m, bf_arena *arena, uint32_t *bone_count)
{
    *bone_count = 0;
    const t3dm_Skeleton *sk = skeleton_find(m);
    if (!sk) {
        if (ROM_ANIM[0])
            console_printf("pose: the model has no skeleton to play %s with\n", ROM_ANIM);
        return !ROM_ANIM[0];
    }
    uint32_t n = skeleton_bone_count(sk);
    if (n > MAX_BONES || skeleton_rest_pose(sk, pose, n) != SKELETON_OK) {
        console_printf("pose: %u bones cannot be posed here\n", (unsigned)n);
        return false;
    }
    if (ROM_ANIM[0]) {
        const t3dm_Animation *anim = NULL;
        t3dm_StreamData *stream = NULL;
        bf_error err;
        if (anim_find(m, ROM_ANIM, &anim) != 0 || !anim) {
            console_printf("pose: no animation named %s\n", ROM_ANIM);
            return false;
        }
        if (!t3dm_read_stream(rom_stream, (size_t)(rom_stream_end - rom_stream), arena, NULL, &stream, &err)) {
            char line[BF_PATH_MAX + BF_MESSAGE_MAX + 64];
            bf_error_format(&err, ROM_STREAM_NAME, line, sizeof line);
            console_printf("pose: %s\n", line);
            return false;
        }
        uint32_t count = (uint32_t)anim->quat_channel_count + anim->scalar_channel_count;
        anim_player player;
        if (count > MAX_CHANNELS || anim_init(&player, anim, stream, n, channels, count) != 0) {
            console_printf("pose: animation %s cannot be played\n", ROM_ANIM);
            return false;
        }
        anim_sample(&player, (float)(ROM_TIME), pose);
    }
    if (skeleton_matrices(sk, pose, bones, n) != SKELETON_OK) {
        console_printf("pose: the posed skeleton has an infinite or undefined matrix\n");
        return false;
    }
    *bone_count = n;
    return true;
}

/* Reads and checks the model as `binform check` does: the reader's error, or the validator's findings. */
static const t3dm_File *read_and_check(bf_arena *arena)
{
    const uint8_t *data = rom_model;
    size_t size = (size_t)(rom_model_end - rom_model);
    t3dm_File *m = NULL;
    bf_error err;
    bf_findings findings = {0};
    bool read = t3dm_read_model(data, size, arena, NULL, &m, &err) != 0;
    if (read) {
        report_model(m);
        t3dm_validate_model(m, data, size, &findings);
    } else {
        bf_findings_add(&findings, BF_SEVERITY_ERROR, err.offset, err.path, err.message, NULL);
    }
    report_findings(&findings, ROM_MODEL_NAME);
    bool ok = read && findings.errors == 0;
    bf_findings_free(&findings);
    return ok ? m : NULL;
}

static uint32_t put_image(rdram_image_t *img, const uint8_t *begin, const uint8_t *end)
{
    return rdram_put(img, begin, (uint32_t)(end - begin), 8);
}

static bool draw(const t3dm_File *m, const mat4 *pose_bones, uint32_t bone_count)
{
    scene_view_t view = {ROM_WIDTH, ROM_HEIGHT, (float)(ROM_YAW), (float)(ROM_PITCH), (float)(ROM_DISTANCE),
                         DRAW_MATERIALS, false, ROM_BACKGROUND, DRAW_EVERYTHING, (float)(ROM_FOG_START),
                         (float)(ROM_FOG_END)};
    camera cam;
    if (scene_camera(m, pose_bones, bone_count, &view, &cam) != CAMERA_OK) {
        console_printf("draw: the camera cannot frame the model\n");
        return false;
    }
    /* The renderer's RDRAM: everything above the heap, written uncached so
     * that the RSP and the RDP see it without cache write-backs. */
    rdram_image_t img;
    rdram_init(&img, (uint8_t *)UNCACHED(0), RDRAM_TOP, PHYSICAL(__heap_start) + HEAP_SIZE);
    scene_overlays_t ov = {ucode_cold, ucode_clip, (uint32_t)(ucode_cold_end - ucode_cold),
                           (uint32_t)(ucode_clip_end - ucode_clip)};
    scene_t scene;
    int status = scene_build(&scene, &img, &ov, &view, &cam, rom_model, (uint32_t)(rom_model_end - rom_model), m,
                             pose_bones, bone_count, NULL, 0);
    rsp_task_t task = {put_image(&img, ucode_imem, ucode_imem_end), (uint32_t)(ucode_imem_end - ucode_imem),
                       put_image(&img, ucode_dmem, ucode_dmem_end), (uint32_t)(ucode_dmem_end - ucode_dmem),
                       scene.cl.start, scene.cold, scene.clip};
    /* cen64's VMOV (vmov_patch.h): the images as they lie in RDRAM, the overlays too */
    unsigned patched = vmov_patch_single_lane(img.bytes + task.imem, task.imem_size) +
                       vmov_patch_single_lane(img.bytes + scene.cold, ov.cold_size) +
                       vmov_patch_single_lane(img.bytes + scene.clip, ov.clip_size);
    if (status != DRAW_OK || img.full) {
        console_printf("draw: the command list cannot be written (%d)\n", status);
        return false;
    }
    console_printf("draw: %u bytes of command list, RDRAM used up to 0x%x; %u VMOVs given single-lane elements\n",
                   (unsigned)(scene.cl.pos - scene.cl.start), (unsigned)img.used, patched);

    rsp_task_result_t r;
    rsp_task_run(&task, TIMEOUT_TICKS, &r);
    report_task(&r, scene_triangles(m, rom_model, (uint32_t)(rom_model_end - rom_model)));
    if (!r.finished || !r.rdp_idle || r.error_word)
        return false;
    vi_show(scene.frame.color_image, scene.frame.width, scene.frame.color32);
    report_frame(&scene.frame, (const uint8_t *)UNCACHED(scene.frame.color_image));
    return true;
}

void rom_main(void)
{
    heap_init(__heap_start, HEAP_SIZE);
    console_printf("binform rom: %s (%u bytes), %s (%u bytes)\n", ROM_MODEL_NAME,
                   (unsigned)(rom_model_end - rom_model), ROM_STREAM_NAME, (unsigned)(rom_stream_end - rom_stream));
    bf_arena arena;
    bf_arena_init(&arena, heap_bf_alloc(), 0);
    const t3dm_File *m = read_and_check(&arena);
    uint32_t bone_count = 0;
    bool ok = m && pose_model(m, &arena, &bone_count) && draw(m, bone_count ? bones : NULL, bone_count);
    console_printf("heap: %u bytes at most\n", (unsigned)heap_peak());
    bf_arena_free(&arena);
    console_printf("done: %s\n", ok ? "drawn" : m ? "failed" : "refused");
}

/* crt0.S sends every exception here: nothing should raise one. */
void rom_exception(void)
{
    uint32_t cause, epc, badvaddr;
    __asm__ volatile("mfc0 %0, $13" : "=r"(cause));
    __asm__ volatile("mfc0 %0, $14" : "=r"(epc));
    __asm__ volatile("mfc0 %0, $8" : "=r"(badvaddr));
    console_printf("exception: cause 0x%08x (code %u) at 0x%08x, address 0x%08x\n", (unsigned)cause,
                   (unsigned)((cause >> 2) & 31u), (unsigned)epc, (unsigned)badvaddr);
    console_printf("done: exception\n");
}
