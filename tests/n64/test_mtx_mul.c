/* n64/rsp/mtx_mul.S, assembled by the RSP toolchain, run on the interpreter
 * and checked against a C model of the same s16.16 arithmetic. */
#include "rsp.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N64_RSP_IMAGE_DIR
#define N64_RSP_IMAGE_DIR "build/n64/rsp"
#endif

#define MATRIX_ADDR 0x000u
#define COUNT_ADDR 0x040u
#define INPUT_ADDR 0x100u
#define OUTPUT_ADDR 0x400u
#define VECTORS 10

/* Reads a whole image; returns its size, or -1 if the file is missing. */
static long read_image(const char *name, uint8_t *buffer, size_t capacity)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", N64_RSP_IMAGE_DIR, name);
    FILE *file = fopen(path, "rb");
    if (!file)
        return -1;
    size_t size = fread(buffer, 1, capacity, file);
    fclose(file);
    return (long)size;
}

/* s16.16 stored as an integer half (s16) and a fraction half (u16). */
static int32_t fixed(double value) { return (int32_t)lround(value * 65536.0); }
static uint16_t int_half(int32_t v) { return (uint16_t)(((uint32_t)v >> 16) & 0xFFFFu); }
static uint16_t frac_half(int32_t v) { return (uint16_t)((uint32_t)v & 0xFFFFu); }
static int64_t signed_half(uint16_t v) { return (int64_t)(v & 0x7FFFu) - (int64_t)(v & 0x8000u); }
static int32_t from_halves(uint16_t integer, uint16_t fraction)
{
    uint32_t bits = ((uint32_t)integer << 16) | fraction;
    return (int32_t)(int64_t)((int64_t)(bits & 0x7FFFFFFFu) - (int64_t)(bits & 0x80000000u));
}

/* Each product m * v of s16.16 numbers is the sum of four partial products;
 * the fraction*fraction one keeps only its high 16 bits, as on the RSP. */
static int32_t reference_row(const int32_t m[4], const int32_t v[4])
{
    int64_t total = 0;
    for (int j = 0; j < 4; j++) {
        int64_t mi = signed_half(int_half(m[j])), vi = signed_half(int_half(v[j]));
        int64_t mf = frac_half(m[j]), vf = frac_half(v[j]);
        total += ((mf * vf) >> 16) + mi * vf + mf * vi + mi * vi * 65536;
    }
    return (int32_t)total;
}

Test(rsp_microcode, mtx_mul_matches_the_c_reference)
{
    static uint8_t imem[RSP_MEM_SIZE], dmem[RSP_MEM_SIZE];
    long imem_size = read_image("mtx_mul.imem.bin", imem, sizeof(imem));
    long dmem_size = read_image("mtx_mul.dmem.bin", dmem, sizeof(dmem));
    if (imem_size < 0 || dmem_size < 0)
        cr_skip_test("mtx_mul images not found in %s (needs mips-linux-gnu-as, run `make n64`)", N64_RSP_IMAGE_DIR);
    cr_assert_gt(imem_size, 0);

    /* Rotation by 30 degrees about z, scaled by 1.5, plus a translation. */
    const double pi = 3.14159265358979323846;
    const double c = cos(pi / 6) * 1.5, s = sin(pi / 6) * 1.5;
    const double matrix[4][4] = {{c, -s, 0, 12.25}, {s, c, 0, -7.5}, {0, 0, 1.5, 100.125}, {0, 0, 0, 1}};
    int32_t m[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            m[i][j] = fixed(matrix[i][j]);

    rsp_t *rsp = malloc(sizeof(*rsp));
    cr_assert_not_null(rsp);
    rsp_init(rsp, NULL, 0);
    rsp_load_imem(rsp, 0, imem, (size_t)imem_size);
    rsp_load_dmem(rsp, 0, dmem, (size_t)dmem_size);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) {
            rsp_dmem_write16(rsp, MATRIX_ADDR + 8 * j + 2 * i, int_half(m[i][j]));
            rsp_dmem_write16(rsp, MATRIX_ADDR + 0x20 + 8 * j + 2 * i, frac_half(m[i][j]));
        }
    rsp_dmem_write32(rsp, COUNT_ADDR, VECTORS);
    rsp_dmem_write32(rsp, COUNT_ADDR + 4, INPUT_ADDR);
    rsp_dmem_write32(rsp, COUNT_ADDR + 8, OUTPUT_ADDR);

    int32_t vectors[VECTORS][4];
    for (int n = 0; n < VECTORS; n++) {
        double x = -40.0 + 9.37 * n, y = 25.5 - 6.11 * n, z = (n % 3) * -13.0625 + 0.0001 * n;
        const double components[4] = {x, y, z, 1.0};
        for (int k = 0; k < 4; k++) {
            vectors[n][k] = fixed(components[k]);
            rsp_dmem_write16(rsp, INPUT_ADDR + 16 * n + 2 * k, int_half(vectors[n][k]));
            rsp_dmem_write16(rsp, INPUT_ADDR + 16 * n + 8 + 2 * k, frac_half(vectors[n][k]));
        }
    }

    rsp_start(rsp, 0);
    cr_assert_eq(rsp_run(rsp, 100000), RSP_STOP_BREAK);
    /* The cycle model's breakdown adds up, and the loop's scalar bookkeeping
     * rides along with its vector work. */
    char breakdown[512];
    rsp_format_cycle_stats(rsp, breakdown, sizeof(breakdown));
    cr_log_info("mtx_mul, %d vectors: %s", VECTORS, breakdown);
    cr_expect_eq(rsp_cycle_stats_total(&rsp->stats), rsp->cycles, "%s", breakdown);
    cr_expect_gt(rsp->stats.dual_issues, 0u, "%s", breakdown);

    for (int n = 0; n < VECTORS; n++) {
        for (int i = 0; i < 4; i++) {
            int32_t expected = reference_row(m[i], vectors[n]);
            int32_t actual = from_halves(rsp_dmem_read16(rsp, OUTPUT_ADDR + 16 * n + 2 * i),
                                         rsp_dmem_read16(rsp, OUTPUT_ADDR + 16 * n + 8 + 2 * i));
            cr_expect_eq(actual, expected, "vector %d row %d: expected %08x, got %08x", n, i, (unsigned)expected,
                         (unsigned)actual);
            /* The reference itself is the exact product within rounding. */
            double exact = 0;
            for (int j = 0; j < 4; j++)
                exact += (m[i][j] / 65536.0) * (vectors[n][j] / 65536.0);
            cr_expect(fabs(expected / 65536.0 - exact) < 8.0 / 65536.0, "vector %d row %d drifts", n, i);
        }
    }
    free(rsp);
}
