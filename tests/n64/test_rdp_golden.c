/* The software RDP against the angrylion-computed golden vectors
 * (../shared/rdp-golden, or $RDP_GOLDEN_DIR / $BF_SHARED_DIR/rdp-golden). */
#include "rdpg.h"

#include <criterion/criterion.h>
#include <string.h>

/* Cases that must match; raise as the RDP improves (304 = all). */
#define RDP_GOLDEN_REQUIRED 304

Test(rdp_golden, cases_match_angrylion)
{
    const char *directory = rdpg_default_directory();
    if (!rdpg_directory_exists(directory))
        cr_skip_test("%s not found (set RDP_GOLDEN_DIR): RDP golden suite skipped", directory);
    static char failed[65536];
    rdpg_summary_t summary;
    bool usable = rdpg_run_directory(directory, stderr, &summary, failed, sizeof failed);
    cr_assert(usable, "some golden files could not be read or run (see stderr)");
    cr_assert_geq(summary.cases, RDP_GOLDEN_REQUIRED, "only %zu cases found in %s", summary.cases, directory);
    cr_expect_geq(summary.matched, RDP_GOLDEN_REQUIRED, "%zu/%zu golden cases match; differing: %s", summary.matched, summary.cases,
                  failed);
}

Test(rdp_golden, reader_rejects_damaged_files)
{
    const char *directory = rdpg_default_directory();
    if (!rdpg_directory_exists(directory))
        cr_skip_test("%s not found: RDP golden suite skipped", directory);
    char path[4096], error[256];
    snprintf(path, sizeof path, "%s/fill-clear16-black.rdpg", directory);
    FILE *f = fopen(path, "rb");
    if (!f)
        cr_skip_test("%s missing", path);
    static uint8_t data[1 << 20];
    size_t size = fread(data, 1, sizeof data - 8, f);
    fclose(f);

    rdpg_case_t c;
    cr_assert(rdpg_parse(data, size, &c, error, sizeof error), "%s", error);
    rdpg_free(&c);
    cr_expect_not(rdpg_parse(data, size + 1, &c, error, sizeof error), "a trailing byte is accepted");
    cr_expect_not(rdpg_parse(data, size - 1, &c, error, sizeof error), "a truncated file is accepted");
    for (size_t cut = 0; cut < size; cut += 97)
        cr_expect_not(rdpg_parse(data, cut, &c, error, sizeof error), "truncated at %zu is accepted", cut);
    data[3] ^= 1;
    cr_expect_not(rdpg_parse(data, size, &c, error, sizeof error), "a bad magic is accepted");
    data[3] ^= 1;
    data[4 * 4 + 3] ^= 4; /* cmd_len no longer a multiple of 8 */
    cr_expect_not(rdpg_parse(data, size, &c, error, sizeof error), "a bad command length is accepted");
}

/* A minimal case built here: one Sync Full, a 2x1 16-bit image left at 0. */
static size_t synthetic_case(uint8_t *out)
{
    static const uint32_t header[16] = {0x52445047, 1, 0x400000, 0x10000, 8, 0, 0x40000, 0, 2, 2, 1, 0xffffffff, 0, 0, 0, 0};
    size_t n = 0;
    for (int i = 0; i < 16; i++)
        for (int b = 0; b < 4; b++)
            out[n++] = (uint8_t)(header[i] >> (24 - 8 * b));
    static const uint8_t body[] = {0x29, 0, 0, 0, 0, 0, 0, 0, /* colour */ 0, 0, 0, 0, /* hidden */ 0, 0};
    memcpy(out + n, body, sizeof body);
    return n + sizeof body;
}

Test(rdp_golden, reader_checks_a_synthetic_file)
{
    uint8_t data[128];
    size_t size = synthetic_case(data);
    char error[256];
    rdpg_case_t c;
    cr_assert(rdpg_parse(data, size, &c, error, sizeof error), "%s", error);
    cr_expect_eq(c.colour_bytes, 4u);
    rdpg_result_t r;
    cr_assert(rdpg_run(&c, &r, error, sizeof error), "%s", error);
    cr_expect(r.colour_match && r.z_match && r.hidden_diffs == 0, "%s", r.reason);
    c.colour_hidden = (const uint8_t *)"\x01\x00";
    cr_assert(rdpg_run(&c, &r, error, sizeof error));
    cr_expect_eq(r.hidden_diffs, 1u, "a hidden-bit difference is counted");
    rdpg_free(&c);
    cr_expect_not(rdpg_parse(data, size + 1, &c, error, sizeof error), "trailing byte");
    for (size_t cut = 0; cut < size; cut++)
        cr_expect_not(rdpg_parse(data, cut, &c, error, sizeof error), "truncated at %zu", cut);
    data[8 * 4 + 3] = 4; /* colour size code 4 */
    cr_expect_not(rdpg_parse(data, size, &c, error, sizeof error), "bad pixel size");
}
