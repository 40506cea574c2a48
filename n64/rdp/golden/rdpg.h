/* RDP golden vectors (.rdpg): reader and runner. A case is a command list
 * plus input blobs for RDRAM and the colour / Z images RDRAM must hold after
 * the RDP ran the list (format: ../shared/rdp-golden/README.md). */
#ifndef N64_RDPG_H
#define N64_RDPG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RDPG_NO_Z 0xffffffffu

typedef struct rdpg_blob {
    uint32_t kind, addr, len;
    const uint8_t *data;
} rdpg_blob_t;

typedef struct rdpg_case {
    uint8_t *file; /* owned copy of the whole file */
    size_t file_size;
    uint32_t rdram_size, cmd_addr, cmd_len, nblobs;
    uint32_t cimg_addr, cimg_format, cimg_size, width, height, zimg_addr;
    const uint8_t *commands;
    rdpg_blob_t *blobs; /* owned */
    size_t colour_bytes; /* width * height * bytes per pixel */
    const uint8_t *colour, *colour_hidden; /* hidden: colour_bytes / 2 entries */
    size_t z_bytes;                        /* 0 without a Z image */
    const uint8_t *z, *z_hidden;
} rdpg_case_t;

/* Parses a file image; checks every length and range and rejects trailing
 * bytes. On success out owns a copy of data. */
bool rdpg_parse(const uint8_t *data, size_t size, rdpg_case_t *out, char *error, size_t error_size);
bool rdpg_load(const char *path, rdpg_case_t *out, char *error, size_t error_size);
void rdpg_free(rdpg_case_t *c);

typedef struct rdpg_result {
    bool colour_match, z_match;     /* every byte */
    size_t colour_diffs, z_diffs;   /* pixels that differ */
    size_t hidden_diffs;            /* hidden-bit entries that differ (colour and Z) */
    char reason[200];               /* first difference, empty when all match */
} rdpg_result_t;

/* Builds the RDRAM, runs the list on a fresh RDP and compares. */
bool rdpg_run(const rdpg_case_t *c, rdpg_result_t *result, char *error, size_t error_size);

typedef struct rdpg_summary {
    size_t cases;          /* files found */
    size_t matched;        /* colour and Z exact */
    size_t hidden_matched; /* ... and every hidden bit too */
    size_t unusable;       /* files that could not be read or run */
} rdpg_summary_t;

/* $RDP_GOLDEN_DIR, else $BF_SHARED_DIR/rdp-golden, else ../shared/rdp-golden
 * relative to the project root. */
const char *rdpg_default_directory(void);
bool rdpg_directory_exists(const char *directory);

/* Runs every *.rdpg of directory in name order. Differing cases are written
 * to report one per line ("name: reason"), or collected in failed_names
 * (a buffer of failed_size bytes, names separated by spaces) when not NULL. */
bool rdpg_run_directory(const char *directory, FILE *report, rdpg_summary_t *summary, char *failed_names, size_t failed_size);

#endif
