/* The console ROM's own pieces that can run on the host (n64/rom): its
 * snprintf against the C library's, its 64-bit helpers against the
 * compiler's, and the VMOV rewrite it applies for cen64, which must leave
 * the renderer drawing the same frame on the RSP interpreter. */
#include "emu.h"
#include "../../n64/driver/scene.h"
#include "../../n64/rom/vmov_patch.h"

#include "t3dm.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef N64_PROJECT_ROOT
#define N64_PROJECT_ROOT "."
#endif

/* The ROM's sources, under other names beside the C library's. */
#define vsnprintf rom_vsnprintf
#define snprintf rom_snprintf
#include "../../n64/rom/snprintf.c"
#undef vsnprintf
#undef snprintf
#define __udivdi3 rom_udivdi3
#define __umoddi3 rom_umoddi3
#define __fixdfdi rom_fixdfdi
#include "../../n64/rom/libgcc.c"
#undef __udivdi3
#undef __umoddi3
#undef __fixdfdi
#include "../../n64/rom/vmov_patch.c"

static void expect_format(const char *fmt, ...)
{
    char want[256], got[256];
    va_list a, b;
    va_start(a, fmt);
    va_copy(b, a);
    int n_want = vsnprintf(want, sizeof want, fmt, a);
    int n_got = rom_vsnprintf(got, sizeof got, fmt, b);
    va_end(a);
    va_end(b);
    cr_expect_str_eq(got, want, "format \"%s\"", fmt);
    cr_expect_eq(n_got, n_want, "format \"%s\": %d characters, not %d", fmt, n_got, n_want);
}

Test(rom_snprintf, agrees_with_the_c_library)
{
    expect_format("plain text");
    expect_format("%d %i %u %x %X %o", -42, 17, 4000000000u, 0xBEEFu, 0xBEEFu, 8u);
    expect_format("%lld %llu %llx", -9000000000000000000LL, 18000000000000000000ULL, 0x123456789ABCDEFULL);
    expect_format("%zu %ld %lu %hu %hhu", (size_t)12345, -7L, 7UL, (unsigned short)65535, (unsigned char)255);
    expect_format("[%5d] [%-5d] [%05d] [%+d] [% d] [%.3d] [%8.3x]", 42, 42, 42, 42, 42, 7, 0xAu);
    expect_format("[%s] [%.2s] [%6s] [%-6s|] [%.*s] [%*d]", "text", "text", "ab", "ab", 3, "abcdef", 4, 9);
    expect_format("%0*x %02x %08x %c%%", 4, 0x1Fu, 0xAu, 0xDEADBEEFu, 'z');
    expect_format("%d %lld", -2147483647 - 1, -9223372036854775807LL - 1);
    expect_format("chunk_data[%u].body @0x%llx: count %lld", 2u, 0xF0ULL, 256LL);
}

Test(rom_snprintf, truncates_and_counts_like_the_c_library)
{
    char buf[8];
    int n = rom_snprintf(buf, sizeof buf, "%s-%d", "abcdefgh", 12345);
    cr_expect_eq(n, 14);
    cr_expect_str_eq(buf, "abcdefg");
    cr_expect_eq(rom_snprintf(NULL, 0, "%u", 123456u), 6);
}

Test(rom_libgcc, sixty_four_bit_division_and_conversion)
{
    static const uint64_t values[] = {0, 1, 7, 0xFFFFFFFFu, 0x100000000ull, 0x123456789ABCDEFull, UINT64_MAX, 1000000007ull};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        for (size_t k = 0; k < sizeof values / sizeof values[0]; k++) {
            uint64_t n = values[i], d = values[k];
            if (d == 0)
                continue;
            cr_expect_eq(rom_udivdi3(n, d), n / d, "%llu / %llu", (unsigned long long)n, (unsigned long long)d);
            cr_expect_eq(rom_umoddi3(n, d), n % d, "%llu %% %llu", (unsigned long long)n, (unsigned long long)d);
        }
    static const double doubles[] = {0.0, -0.0, 0.5, -0.99, 1.0, -1.0, 123456789.75, -9007199254740993.0, 4.5e15,
                                     9.2e18, -9.2e18};
    for (size_t i = 0; i < sizeof doubles / sizeof doubles[0]; i++)
        cr_expect_eq(rom_fixdfdi(doubles[i]), (int64_t)doubles[i], "%.17g", doubles[i]);
    cr_expect_eq(rom_fixdfdi(1e300), INT64_MAX);
    cr_expect_eq(rom_fixdfdi(-1e300), INT64_MIN);
}

/* ---- the VMOV rewrite ---- */

#define VMOV_E(w) ((w) >> 21 & 15u)
#define IS_VMOV(w) (((w) & 0xFE00003Fu) == 0x4A000033u)

static uint32_t word_at(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

Test(rom_vmov_patch, only_plain_lane_vmovs_change)
{
    /* vmov v8[1] <- v7 e3; vmov v6[3] <- v11 e1; vmov v2[0] <- v1 e9 (single-lane already); vadd v3, v1, v2;
     * a word with VMOV's funct that is no vector op */
    const uint32_t words[] = {0x4A670A33u, 0x4A2B19B3u, 0x4B2100B3u, 0x4A0208D0u, 0x5A000033u};
    uint8_t image[sizeof words];
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        for (int k = 0; k < 4; k++)
            image[4 * i + k] = (uint8_t)(words[i] >> (24 - 8 * k));
    cr_assert_eq(vmov_patch_single_lane(image, sizeof image), 2);
    cr_expect_eq(word_at(image + 0), words[0] | 0x01000000u); /* e 3 -> 11 */
    cr_expect_eq(word_at(image + 4), words[1] | 0x01000000u); /* e 1 -> 9 */
    for (size_t i = 2; i < sizeof words / sizeof words[0]; i++)
        cr_expect_eq(word_at(image + 4 * i), words[i], "word %zu", i);
    cr_expect_eq(vmov_patch_single_lane(image, sizeof image), 0, "a second pass finds nothing");
}

typedef struct frame_run {
    uint8_t *color;
    uint32_t bytes;
    emu_result_t result;
} frame_run_t;

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "%s", path);
    uint8_t *data = malloc(1 << 20);
    *size = fread(data, 1, 1 << 20, f);
    fclose(f);
    return data;
}

/* The project's pyramid at rest, drawn with the given microcode images. */
static void draw_pyramid(const emu_microcode_t *mc, frame_run_t *out)
{
    size_t size;
    uint8_t *data = read_file(N64_PROJECT_ROOT "/tests/fixtures/demo/pyramid.t3dm", &size);
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    t3dm_File *m;
    bf_error err;
    cr_assert(t3dm_read_model(data, size, &arena, NULL, &m, &err), "%s", err.message);
    scene_view_t view = {320, 240, 30, 20, 1, DRAW_MATERIALS, false, 0x303848FFu, DRAW_EVERYTHING, 0, 0};
    camera cam;
    cr_assert_eq(scene_camera(m, NULL, 0, &view, &cam), CAMERA_OK);
    emu_t e;
    cr_assert(emu_open(&e, 8u << 20));
    rdram_image_t img;
    rdram_init(&img, e.rdram, 8u << 20, 0x1000);
    scene_overlays_t ov = {mc->cold, mc->clip, (uint32_t)mc->cold_size, (uint32_t)mc->clip_size};
    scene_t s;
    cr_assert_eq(scene_build(&s, &img, &ov, &view, &cam, data, (uint32_t)size, m, NULL, 0, NULL, 0), DRAW_OK);
    emu_run(&e, mc, s.cl.start, s.cold, s.clip, 50000000u, &out->result);
    cr_assert(out->result.finished);
    out->bytes = 320u * 240u * 2u;
    out->color = malloc(out->bytes);
    memcpy(out->color, e.rdram + s.frame.color_image, out->bytes);
    emu_close(&e);
    bf_arena_free(&arena);
    free(data);
}

static uint8_t *patched_copy(const uint8_t *image, size_t size, unsigned *count)
{
    uint8_t *copy = malloc(size);
    memcpy(copy, image, size);
    *count += vmov_patch_single_lane(copy, (uint32_t)size);
    for (size_t i = 0; i + 4 <= size; i += 4) {
        uint32_t w = word_at(copy + i);
        cr_expect(!IS_VMOV(w) || VMOV_E(w) >= 8, "a VMOV at 0x%zx still names a plain lane", i);
    }
    return copy;
}

Test(rom_vmov_patch, the_renderer_draws_the_same_frame)
{
    const emu_microcode_t *mc = &emu_render_microcode;
    unsigned count = 0;
    emu_microcode_t patched = *mc;
    patched.imem = patched_copy(mc->imem, mc->imem_size, &count);
    patched.cold = patched_copy(mc->cold, mc->cold_size, &count);
    patched.clip = patched_copy(mc->clip, mc->clip_size, &count);
    frame_run_t plain, rewritten;
    draw_pyramid(mc, &plain);
    draw_pyramid(&patched, &rewritten);
    cr_expect_gt(plain.result.drawn, 0);
    cr_expect_eq(rewritten.result.drawn, plain.result.drawn);
    cr_expect_eq(rewritten.result.rsp_cycles, plain.result.rsp_cycles);
    cr_expect(memcmp(rewritten.color, plain.color, plain.bytes) == 0,
              "%u VMOVs rewritten: the frame must not change on the interpreter", count);
    free(plain.color);
    free(rewritten.color);
    free((void *)patched.imem);
    free((void *)patched.cold);
    free((void *)patched.clip);
}
