/* The outputs of `binform explain`: plain text for a terminal, one self-contained HTML page. */
#ifndef BINFORM_EXPLAIN_OUT_H
#define BINFORM_EXPLAIN_OUT_H

#include <stdio.h>

#include "explain.h"

typedef struct explain_info {
    const char *path;   /* the file, as named on the command line */
    const char *format; /* format name */
    const char *kind;   /* entry (file kind) name */
    const char *title;  /* format title, or NULL */
    const char *endian; /* "big" or "little": the format's byte order, or NULL */
} explain_info;

/* Every node on a line (range, size, path, type, value, bytes, doc), then the unclaimed bytes. */
void explain_write_text(FILE *out, const xtree *t, const explain_info *info);

/* The hex view and the field tree side by side; hovering one highlights the other. Returns 0
 * when memory ran out (the page is then incomplete: not to be kept). */
int explain_write_html(FILE *out, const xtree *t, const explain_info *info);

#endif
