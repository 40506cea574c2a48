/* The ROM's report over the IS-Viewer (see report.h). */
#include "report.h"

#include "console.h"

#include <stdio.h>
#include <string.h>

static uint32_t count_kind(const t3dm_File *m, int kind)
{
    uint32_t n = 0;
    for (uint32_t c = 0; c < m->chunk_data_count; c++)
        n += m->chunk_data[c].body.kind == kind;
    return n;
}

static int str_len(const bf_str *s) { return s->ptr ? (int)s->len : 0; }
static const char *str_ptr(const bf_str *s) { return s->ptr ? (const char *)s->ptr : ""; }

void report_model(const t3dm_File *m)
{
    const t3dm_Header *h = &m->header;
    console_printf("model: version %u, %u chunks, %u vertices, %u indices, %u materials\n", (unsigned)h->version,
                   (unsigned)h->chunk_count, (unsigned)h->total_vertex_count, (unsigned)h->total_index_count,
                   (unsigned)count_kind(m, T3DM_KIND_MATERIAL));
    for (uint32_t c = 0; c < m->chunk_data_count; c++) {
        const t3dm_Chunk *ch = &m->chunk_data[c];
        if (ch->body.kind == T3DM_KIND_OBJECT) {
            const t3dm_Object *o = ch->body.Object;
            console_printf("model: object %.*s: %u parts, %u triangles\n", str_len(&o->name_str),
                           str_ptr(&o->name_str), (unsigned)o->part_count, (unsigned)o->triangle_count);
        } else if (ch->body.kind == T3DM_KIND_SKELETON) {
            console_printf("model: skeleton of %u bones\n", (unsigned)ch->body.Skeleton->bones_count);
        } else if (ch->body.kind == T3DM_KIND_ANIMATION) {
            const t3dm_Animation *a = ch->body.Animation;
            console_printf("model: animation %.*s: %u keyframes, %u channels, stream %.*s\n",
                           str_len(&a->name_str), str_ptr(&a->name_str), (unsigned)a->keyframe_count,
                           (unsigned)a->channels_count, str_len(&a->sdata_path_str), str_ptr(&a->sdata_path_str));
        }
    }
}

void report_findings(const bf_findings *f, const char *file)
{
    char line[BF_PATH_MAX + BF_MESSAGE_MAX + 256];
    for (size_t i = 0; i < f->count; i++) {
        bf_finding_format(&f->items[i], file, line, sizeof line);
        console_printf("check: %s\n", line);
    }
    if (f->dropped)
        console_printf("check: %s: note: %u more findings not shown\n", file, (unsigned)f->dropped);
    console_printf("check: %u errors, %u warnings\n", (unsigned)f->errors, (unsigned)f->warnings);
}

void report_task(const rsp_task_result_t *r, uint32_t model_triangles)
{
    uint64_t cycles = rsp_cycles_of_ticks(r->rsp_ticks);
    uint64_t tenths = model_triangles ? (cycles * 10u + model_triangles / 2u) / model_triangles : 0;
    console_printf("rsp: %s, %u COUNT ticks = %u RSP cycles; %u triangles drawn, %u culled or off screen, "
                   "%u clipped; %u.%u cycles per triangle of the model (%u)\n",
                   r->finished ? "finished" : "did not finish", (unsigned)r->rsp_ticks, (unsigned)cycles,
                   (unsigned)r->drawn, (unsigned)r->rejected, (unsigned)r->clipped, (unsigned)(tenths / 10u),
                   (unsigned)(tenths % 10u), (unsigned)model_triangles);
    console_printf("rdp: %s %u COUNT ticks after the RSP halted\n", r->rdp_idle ? "idle" : "still busy",
                   (unsigned)r->rdp_ticks);
    if (r->error_word)
        console_printf("rsp: the microcode refused command %08x\n", (unsigned)r->error_word);
}

uint32_t report_fnv1a(const uint8_t *bytes, uint32_t len)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < len; i++)
        h = (h ^ bytes[i]) * 16777619u;
    return h;
}

static uint32_t pixel(const uint8_t *p, unsigned size)
{
    uint32_t v = 0;
    for (unsigned k = 0; k < size; k++)
        v = v << 8 | p[k];
    return v;
}

void report_frame(const draw_frame_t *frame, const uint8_t *pixels)
{
    unsigned size = frame->color32 ? 4u : 2u, digits = 2u * size;
    uint32_t bytes = (uint32_t)frame->width * frame->height * size;
    console_printf("frame: %ux%u %s fnv1a 0x%08x\n", (unsigned)frame->width, (unsigned)frame->height,
                   frame->color32 ? "rgba8888" : "rgba5551", (unsigned)report_fnv1a(pixels, bytes));
    char line[CONSOLE_LINE_MAX];
    for (unsigned y = 0; y < frame->height; y++) {
        const uint8_t *row = pixels + (uint32_t)y * frame->width * size;
        unsigned x = 0;
        while (x < frame->width) {
            int len = snprintf(line, sizeof line, "px %u %u", y, x);
            /* runs of one value, while the line has room for another */
            while (x < frame->width && len < CONSOLE_LINE_MAX - 32) {
                uint32_t v = pixel(row + x * size, size);
                unsigned run = 1;
                while (x + run < frame->width && pixel(row + (x + run) * size, size) == v)
                    run++;
                if (run > 1)
                    len += snprintf(line + len, sizeof line - (size_t)len, " %0*x*%u", (int)digits, (unsigned)v, run);
                else
                    len += snprintf(line + len, sizeof line - (size_t)len, " %0*x", (int)digits, (unsigned)v);
                x += run;
            }
            console_printf("%s\n", line);
        }
    }
}
