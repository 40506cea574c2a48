/* Test helpers: running the sanitized binform and capturing what it says,
 * and mutated copies of fixtures in temporary files. */
#ifndef BF_TEST_CLI_RUN_H
#define BF_TEST_CLI_RUN_H

#include <stddef.h>
#include <stdint.h>

#define BINFORM BF_PROJECT_DIR "/build/san/bin/binform"
#define PYRAMID BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.t3dm"
#define PYRAMID_STREAM BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.0.sdata"

typedef struct cli_result {
    int status;
    char *out; /* all of stdout, however long */
    char err[32768];
} cli_result;

/* Runs binform with `args` (a shell-quoted string); captures stdout and
 * stderr. The result is reused by the next call. */
cli_result *cli_run(const char *args);
/* cli_run with the arguments made by printf. */
cli_result *cli_runf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Newlines in `s`. */
size_t count_lines(const char *s);

/* A copy of the file at `source` with `mutate` applied (NULL: none), in a new
 * temporary file whose name ends with `suffix`; the path is reused by the next call. */
char *fixture_copy(const char *source, const char *suffix, void (*mutate)(uint8_t *));

/* A fresh directory /tmp/binform_TAG_XXXXXX; the path is reused by the next call. */
char *test_temp_dir(const char *tag);
/* Removes `dir` and all below it, read-only folders included. */
void test_remove_tree(const char *dir);

#endif
