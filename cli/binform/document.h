/* A file loaded, its format detected, and read with the generated reader. */
#ifndef BINFORM_DOCUMENT_H
#define BINFORM_DOCUMENT_H

#include <stdio.h>

#include "bf_meta.h"

/* The name standard input goes by in messages. */
#define STDIN_NAME "<stdin>"

typedef struct document {
    const char *path; /* as given; "-" is standard input */
    const char *name; /* for messages: the path, or STDIN_NAME */
    uint8_t *data;
    size_t size;
    int how;      /* INPUT_READ, INPUT_PIPED (both malloc'd) or INPUT_MAPPED */
    int streamed; /* data came from a pipe or a device: it has no folder */
    const bf_format_desc *format;
    const bf_entry_desc *entry;
    bf_arena arena;
    void *root;
    bf_error err;
    char problem[BF_PATH_MAX + BF_MESSAGE_MAX + 256]; /* why opening failed, when it did */
} document;

/* Exit codes shared by every command. */
enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };
/* document_open's answer for a file no format recognises, when asked to skip such files. */
enum { DOC_SKIPPED = 3 };

typedef struct open_opts {
    const char *format;   /* NAME or NAME.KIND forces it; NULL detects */
    const char *revision; /* forces one of the format's revisions; NULL detects */
    int skip_unknown;     /* a file found by walking a directory: a candidate by its extension (any
                           * case), or by its magic when it has none; others are DOC_SKIPPED */
    int regular_only;     /* refuse a FIFO, a device or a socket (a file found beside another) */
} open_opts;

/* Loads ("-": standard input), detects and reads. Returns 0 when read; EXIT_INVALID when the
 * reader fails (err set); EXIT_USAGE on I/O, detection or option errors; DOC_SKIPPED (see
 * open_opts). Prints nothing: document_report says what went wrong. Thread-safe. */
int document_load(document *d, const char *path, const open_opts *o);
/* document_load that prints I/O and detection problems on stderr itself (the reader's error
 * is left to document_print_error). */
int document_open(document *d, const char *path, const char *format_name, const char *revision);
/* The reader's error on stderr. */
void document_print_error(const document *d);
/* The revision the document was read as, or NULL when its format has none. */
const char *document_revision(const document *d);
void document_close(document *d);
/* Writes why document_open failed: "FILE: error: PATH @0xOFF: MESSAGE" for a reader's
 * error, the problem otherwise; "error:" in colour when `color`. */
void document_report(const document *d, FILE *out, int color);
/* A whole input in memory: a file, "-" (standard input) or a named pipe or device (unless
 * `regular_only`: then a regular file only, opened without blocking). Files from
 * INPUT_MAP_FROM bytes on are mapped read-only, not read; inputs over INPUT_MAX are refused.
 * Returns 1, or 0 with "NAME: error: why" in `problem`. Free with input_unload(`how`). */
int input_open(const char *path, int regular_only, uint8_t **data, size_t *size, int *how, char *problem,
               size_t problem_size);
/* input_open of anything but a socket or a directory (command-line inputs). */
int input_load(const char *path, uint8_t **data, size_t *size, int *how, char *problem, size_t problem_size);
void input_unload(uint8_t *data, size_t size, int how);
enum { INPUT_READ = 1, INPUT_MAPPED = 2, INPUT_PIPED = 3 };
#define INPUT_MAP_FROM ((size_t)64 << 20)
/* What binform reads at most (its formats address their bytes with 32-bit offsets). */
#define INPUT_MAX ((uint64_t)4 << 30)
#define INPUT_MAX_TEXT "4 GiB"

/* The format called NAME, or NULL. */
const bf_format_desc *format_named(const char *name);

#endif
