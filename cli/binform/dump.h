/* A parsed document as JSON, losslessly: `binform build` makes the same document (and with
 * --keep-layout the same bytes) back from it. The shapes are described in dump.c and by each
 * format's generated JSON Schema (generated/docs/FORMAT.schema.json). */
#ifndef BINFORM_DUMP_H
#define BINFORM_DUMP_H

#include "bf_meta.h"
#include "json.h"

/* {"format", "kind", "revision", "root"}; `size` is the input's, for named values that use
 * `_size`. */
void dump_document(json *j, const bf_format_desc *format, const bf_entry_desc *entry, const char *revision,
                   const void *root, size_t size);

#endif
