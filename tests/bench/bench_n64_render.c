/* n64-bench: what the renderer microcode costs per vertex and per triangle on
 * the RSP interpreter's cycle model (n64/sim/README.md, "Cycle model").
 *
 * Each model is drawn three times with `binform render`'s default view:
 * (a) the frame alone (FRAME, LIGHTS, VIEW, the RDP setup and clears, END),
 * (b) everything but the triangle commands (matrices, materials, vertex
 * loads), (c) everything. Per vertex = (b - a) / vertices loaded; per
 * triangle = (c - a) / triangles the microcode meets, all in (the vertex
 * loads, matrices and materials included). The same ratios in executed
 * instructions follow.
 *
 *   bench_n64_render MODEL.t3dm...                 the table
 *   bench_n64_render --profile SYMS MODEL.t3dm...  and where run (c)'s cycles go, by
 *                                                  label (SYMS: "address name" lines)
 */
#include "bf_runtime.h"
#include "render_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 64

/* Files beside the model (textures), as binform render reads them. */
typedef struct beside {
    char dir[1024];
    uint8_t *data[MAX_FILES];
    size_t size[MAX_FILES];
    int count;
} beside_t;

static bool load_beside(void *ctx, const char *name, const uint8_t **data, size_t *size)
{
    beside_t *b = ctx;
    if (b->count >= MAX_FILES || strchr(name, '/') || strstr(name, ".."))
        return false;
    char path[2048];
    snprintf(path, sizeof path, "%s%s", b->dir, name);
    bf_error err;
    if (!bf_file_load(path, bf_alloc_default(), &b->data[b->count], &b->size[b->count], &err))
        return false;
    *data = b->data[b->count];
    *size = b->size[b->count];
    b->count++;
    return true;
}

static void beside_free(beside_t *b)
{
    for (int i = 0; i < b->count; i++)
        bf_file_unload(bf_alloc_default(), b->data[i], b->size[i]);
    b->count = 0;
}

typedef struct run {
    uint64_t cycles, instructions;
} run_t;

/* One drawing of the model; false (and a message) if it cannot be drawn. */
static bool draw(const char *path, const uint8_t *data, size_t size, draw_content_t content, uint64_t *profile,
                 beside_t *files, run_t *out, render_result_t *keep)
{
    render_options_t o = render_default_options();
    o.content = content;
    o.profile = profile;
    render_result_t r;
    char error[1024];
    if (!render_model(data, size, &o, load_beside, files, &r, error, sizeof error)) {
        fprintf(stderr, "%s: %s\n", path, error);
        return false;
    }
    out->cycles = r.emu.rsp_cycles;
    out->instructions = r.emu.rsp_instructions;
    if (keep)
        *keep = r;
    else
        render_result_free(&r);
    return true;
}

static double ratio(uint64_t more, uint64_t less, uint64_t n)
{
    return n ? ((double)more - (double)less) / (double)n : 0.0;
}

/* The model's name from its path: the last two components. */
static const char *short_name(const char *path)
{
    const char *last = strrchr(path, '/');
    if (!last)
        return path;
    const char *p = last;
    while (p > path && p[-1] != '/')
        p--;
    return p;
}

typedef struct label {
    uint32_t addr;
    char name[64];
} label_t;

static int by_addr(const void *a, const void *b)
{
    const label_t *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

typedef struct spent {
    const char *name;
    uint64_t cycles;
} spent_t;

static int by_cycles(const void *a, const void *b)
{
    const spent_t *x = a, *y = b;
    return x->cycles > y->cycles ? -1 : x->cycles < y->cycles;
}

/* Cycles of run (c), summed over the models, by the label each IMEM word lies under. */
static void print_profile(const char *syms, const uint64_t *profile)
{
    FILE *f = fopen(syms, "r");
    if (!f) {
        fprintf(stderr, "n64-bench: cannot read %s\n", syms);
        return;
    }
    static label_t labels[1024];
    int n = 0;
    char line[256];
    while (n < 1024 && fgets(line, sizeof line, f)) {
        unsigned long addr;
        char name[64];
        if (sscanf(line, "%lx %63s", &addr, name) == 2) {
            labels[n].addr = (uint32_t)addr & 0xFFFu;
            snprintf(labels[n].name, sizeof labels[n].name, "%s", name);
            n++;
        }
    }
    fclose(f);
    qsort(labels, (size_t)n, sizeof labels[0], by_addr);
    static spent_t spent[1024];
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        uint32_t end = i + 1 < n ? labels[i + 1].addr : 0x1000u;
        spent[i].name = labels[i].name;
        spent[i].cycles = 0;
        for (uint32_t a = labels[i].addr; a < end; a += 4)
            spent[i].cycles += profile[a >> 2];
    }
    for (uint32_t w = 0; w < EMU_PROFILE_WORDS; w++)
        total += profile[w];
    qsort(spent, (size_t)n, sizeof spent[0], by_cycles);
    printf("\nwhere run (c)'s cycles go, all models (labels from %s):\n", syms);
    printf("%-28s %12s %7s\n", "label", "cycles", "share");
    for (int i = 0; i < n && spent[i].cycles; i++)
        printf("%-28s %12llu %6.2f%%\n", spent[i].name, (unsigned long long)spent[i].cycles,
               total ? 100.0 * (double)spent[i].cycles / (double)total : 0.0);
    if (getenv("N64_BENCH_WORDS")) { /* every IMEM word, for reading against a disassembly */
        printf("\ncycles per IMEM word:\n");
        for (uint32_t w = 0; w < EMU_PROFILE_WORDS; w++)
            if (profile[w])
                printf("%03x %llu\n", w * 4, (unsigned long long)profile[w]);
    }
}

int main(int argc, char **argv)
{
    const char *syms = NULL;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--profile") == 0) {
        syms = argv[2];
        first = 3;
    }
    if (first >= argc) {
        printf("n64-bench: no sample models given (the samples folder is absent?); nothing to measure\n");
        return 0;
    }
    static uint64_t profile[EMU_PROFILE_WORDS];
    printf("RSP cycles (n64/sim cycle model) per vertex and per triangle, binform render's default view;\n"
           "a: the frame alone, b: + vertex loads (no triangle commands), c: everything;\n"
           "per vertex = (b - a) / vertices, per triangle = (c - a) / triangles (all in)\n\n");
    printf("%-28s %6s %6s %9s %9s %9s %8s %8s %8s %8s\n", "model", "verts", "tris", "a cyc", "b cyc", "c cyc",
           "cyc/vtx", "cyc/tri", "ins/vtx", "ins/tri");
    run_t sum_a = {0}, sum_b = {0}, sum_c = {0};
    uint64_t sum_vertices = 0, sum_triangles = 0;
    int failed = 0;
    for (int i = first; i < argc; i++) {
        const char *path = argv[i];
        uint8_t *data;
        size_t size;
        bf_error err;
        if (!bf_file_load(path, bf_alloc_default(), &data, &size, &err)) {
            fprintf(stderr, "%s: cannot be read\n", path);
            failed++;
            continue;
        }
        beside_t files = {0};
        const char *slash = strrchr(path, '/');
        if (slash)
            snprintf(files.dir, sizeof files.dir, "%.*s/", (int)(slash - path), path);
        run_t a, b, c;
        render_result_t full;
        bool ok = draw(path, data, size, DRAW_FRAME_ONLY, NULL, &files, &a, NULL) &&
                  draw(path, data, size, DRAW_VERTICES_ONLY, NULL, &files, &b, NULL) &&
                  draw(path, data, size, DRAW_EVERYTHING, syms ? profile : NULL, &files, &c, &full);
        beside_free(&files);
        bf_file_unload(bf_alloc_default(), data, size);
        if (!ok) {
            failed++;
            continue;
        }
        uint32_t vertices = full.vertices, triangles = full.triangles;
        if (full.emu.drawn + full.emu.rejected + full.emu.clipped != triangles)
            fprintf(stderr, "%s: the microcode met %u triangles, the model has %u\n", path,
                    full.emu.drawn + full.emu.rejected + full.emu.clipped, triangles);
        render_result_free(&full);
        printf("%-28s %6u %6u %9llu %9llu %9llu %8.1f %8.1f %8.1f %8.1f\n", short_name(path), vertices, triangles,
               (unsigned long long)a.cycles, (unsigned long long)b.cycles, (unsigned long long)c.cycles,
               ratio(b.cycles, a.cycles, vertices), ratio(c.cycles, a.cycles, triangles),
               ratio(b.instructions, a.instructions, vertices), ratio(c.instructions, a.instructions, triangles));
        sum_a.cycles += a.cycles;
        sum_b.cycles += b.cycles;
        sum_c.cycles += c.cycles;
        sum_a.instructions += a.instructions;
        sum_b.instructions += b.instructions;
        sum_c.instructions += c.instructions;
        sum_vertices += vertices;
        sum_triangles += triangles;
    }
    printf("%-28s %6llu %6llu %9llu %9llu %9llu %8.1f %8.1f %8.1f %8.1f\n", "all models",
           (unsigned long long)sum_vertices, (unsigned long long)sum_triangles, (unsigned long long)sum_a.cycles,
           (unsigned long long)sum_b.cycles, (unsigned long long)sum_c.cycles,
           ratio(sum_b.cycles, sum_a.cycles, sum_vertices), ratio(sum_c.cycles, sum_a.cycles, sum_triangles),
           ratio(sum_b.instructions, sum_a.instructions, sum_vertices),
           ratio(sum_c.instructions, sum_a.instructions, sum_triangles));
    if (syms)
        print_profile(syms, profile);
    return failed ? 1 : 0;
}
