/* JSON (the dump's shapes, dump.c) back into a format's document, through the reflection
 * tables: the inverse of dump_document. */
#ifndef BINFORM_UNDUMP_H
#define BINFORM_UNDUMP_H

#include "bf_meta.h"
#include "json_parse.h"

typedef struct undump_result {
    const bf_format_desc *format;
    const bf_entry_desc *entry;
    void *root; /* in the arena; strings and bytes too */
    int64_t revision;
    char error[1024]; /* "PATH (line L, column C): what is wrong" */
} undump_result;

/* Makes the document `v` ({"format", "kind", "revision", "root"}) describes, in `arena`.
 * `text` is the JSON it was parsed from (for line numbers). Returns 1, or 0 with `error`. */
int undump_document(const jv *v, const char *text, bf_arena *arena, undump_result *out);

#endif
