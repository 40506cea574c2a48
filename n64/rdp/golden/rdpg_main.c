/* rdp-golden: runs the RDP golden vectors on the software RDP and prints
 * "N/TOTAL golden" followed by each differing case with its first
 * difference. Exits 1 on any difference, 0 when all match or when the
 * shared folder is absent (skip). */
#define _POSIX_C_SOURCE 200809L
#include "rdpg.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    const char *directory = argc > 1 ? argv[1] : rdpg_default_directory();
    if (!rdpg_directory_exists(directory)) {
        printf("rdp-golden: skipped, %s not found (set RDP_GOLDEN_DIR to its location)\n", directory);
        return EXIT_SUCCESS;
    }
    /* differing cases are collected first so the count comes first */
    char *listing = NULL;
    size_t listing_size = 0;
    FILE *report = open_memstream(&listing, &listing_size);
    rdpg_summary_t summary;
    bool usable = rdpg_run_directory(directory, report ? report : stdout, &summary, NULL, 0);
    if (report)
        fclose(report);
    printf("%zu/%zu golden\n", summary.matched, summary.cases);
    if (listing)
        fputs(listing, stdout);
    free(listing);
    printf("hidden bits (informational): %zu/%zu cases match every hidden bit too\n", summary.hidden_matched, summary.cases);
    return usable && summary.cases > 0 && summary.matched == summary.cases ? EXIT_SUCCESS : EXIT_FAILURE;
}
