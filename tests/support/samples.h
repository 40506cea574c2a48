/* Test helpers: the real sample files in ../shared/samples, and whole-file reads. */
#ifndef BF_TEST_SAMPLES_H
#define BF_TEST_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

/* Path of a sample under the shared samples folder (BF_SHARED_DIR/samples/REL). */
const char *sample_path(const char *rel);

/* 1 when the shared samples folder exists; tests that need it skip otherwise. */
int samples_present(void);

/* For a test that runs without the samples but leaves out its part that needs them: prints
 * `skipped: WHAT (shared samples not found at ...)`, which make test's summary lists. */
void samples_note_skipped(const char *what);

/* Loads a whole file (malloc'd; free with free()). Returns 0 when it cannot be read. */
int load_file(const char *path, uint8_t **data, size_t *size);

/* Skips the current Criterion test, with the reason, when the samples are absent. */
#define REQUIRE_SAMPLES()                                                                 \
    do {                                                                                  \
        if (!samples_present())                                                           \
            cr_skip_test("shared samples not found at %s (set SHARED=...); skipping",     \
                         sample_path(""));                                                \
    } while (0)

#endif
