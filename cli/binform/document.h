/* A file loaded, its format detected, and read with the generated reader. */
#ifndef BINFORM_DOCUMENT_H
#define BINFORM_DOCUMENT_H

#include "bf_meta.h"

typedef struct document {
    const char *path;
    uint8_t *data;
    size_t size;
    const bf_format_desc *format;
    const bf_entry_desc *entry;
    bf_arena arena;
    void *root;
    bf_error err;
} document;

/* Exit codes shared by every command. */
enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

/* Loads and detects (`format_name` forces a format, NULL detects; `revision` forces one of
 * its revisions, NULL detects). Returns EXIT_USAGE on I/O or detection errors (message
 * printed), EXIT_INVALID when the reader fails (err set), else 0. */
int document_open(document *d, const char *path, const char *format_name, const char *revision);
/* The revision the document was read as, or NULL when its format has none. */
const char *document_revision(const document *d);
void document_close(document *d);
/* Prints the reader's error as "FILE: error: PATH @0xOFF: MESSAGE". */
void document_print_error(const document *d);

#endif
