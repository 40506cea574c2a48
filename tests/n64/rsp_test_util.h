/* Helpers shared by the RSP interpreter tests: assemble a snippet with the
 * golden harness's bass-syntax assembler, run it, poke and peek registers. */
#ifndef N64_RSP_TEST_UTIL_H
#define N64_RSP_TEST_UTIL_H

#include "bass_asm.h"
#include "rsp.h"

#include <criterion/criterion.h>

/* Assembles source into IMEM at 0, runs it from 0 and expects it to end with break. */
static inline void run_source(rsp_t *rsp, const char *source)
{
    uint8_t code[RSP_MEM_SIZE];
    size_t size = 0;
    char error[256] = "";
    cr_assert(bass_assemble(source, code, sizeof(code), &size, error, sizeof(error)), "assembler: %s", error);
    rsp_load_imem(rsp, 0, code, size);
    rsp_start(rsp, 0);
    cr_assert_eq(rsp_run(rsp, 10000), RSP_STOP_BREAK, "program did not reach break");
}

static inline void set_vector(rsp_t *rsp, unsigned reg, const uint16_t lanes[8])
{
    for (unsigned n = 0; n < 8; n++)
        rsp->vr[reg][n] = lanes[n];
}

static inline void expect_vector(const rsp_t *rsp, unsigned reg, const uint16_t lanes[8])
{
    for (unsigned n = 0; n < 8; n++)
        cr_expect_eq(rsp->vr[reg][n], lanes[n], "v%u lane %u: expected %04x, got %04x", reg, n, lanes[n],
                     rsp->vr[reg][n]);
}

static inline void fill_vector(rsp_t *rsp, unsigned reg, uint16_t value)
{
    for (unsigned n = 0; n < 8; n++)
        rsp->vr[reg][n] = value;
}

#endif
