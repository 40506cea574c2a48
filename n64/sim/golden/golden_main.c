/* rsp-golden: runs the hardware-recorded RSP test programs on the
 * interpreter and prints "N/TOTAL golden cases match". Exits 1 on any
 * mismatch, 0 when all match or when the shared folder is absent (skip). */
#include "golden.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    const char *directory = argc > 1 ? argv[1] : golden_default_directory();
    if (!golden_directory_exists(directory)) {
        printf("rsp-golden: skipped, %s not found (set RSP_GOLDEN_DIR to its location)\n", directory);
        return EXIT_SUCCESS;
    }
    golden_summary_t summary = {0};
    bool usable = golden_run_directory(directory, stdout, 40, &summary);
    printf("%zu/%zu golden cases match\n", summary.matched, summary.cases);
    return usable && summary.cases > 0 && summary.matched == summary.cases ? EXIT_SUCCESS : EXIT_FAILURE;
}
