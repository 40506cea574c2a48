/* The hardware-recorded golden programs, as a Criterion test. */
#include "golden.h"

#include <criterion/criterion.h>

Test(rsp_golden, all_recorded_cases_match, .timeout = 120)
{
    const char *directory = golden_default_directory();
    if (!golden_directory_exists(directory))
        cr_skip_test("%s not found (set RSP_GOLDEN_DIR): golden suite skipped", directory);
    golden_summary_t summary = {0};
    bool usable = golden_run_directory(directory, stderr, 20, &summary);
    cr_assert(usable, "some golden programs could not be run (see stderr)");
    cr_assert_gt(summary.cases, 0);
    cr_expect_eq(summary.matched, summary.cases, "%zu/%zu golden cases match", summary.matched, summary.cases);
}
