/* Runs the RSP golden test programs (recorded on a real console) on the
 * interpreter and compares every output byte. */
#ifndef N64_GOLDEN_H
#define N64_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct golden_summary {
    size_t programs;
    size_t cases;
    size_t matched;
} golden_summary_t;

/* The directory holding NAME.toml/NAME.golden: $RSP_GOLDEN_DIR if set,
 * else ../shared/rsp-golden relative to the project root. */
const char *golden_default_directory(void);

bool golden_directory_exists(const char *directory);

/* Runs one program (NAME.toml with its NAME.golden next to it), adding to
 * summary. Mismatches are described on report, at most max_report_lines
 * lines per program. Returns false if the files could not be used. */
bool golden_run_program(const char *toml_path, FILE *report, size_t max_report_lines, golden_summary_t *summary);

/* Runs every *.toml of directory in name order. */
bool golden_run_directory(const char *directory, FILE *report, size_t max_report_lines, golden_summary_t *summary);

#endif
