/* Schema `imports:` — the types, enums and flag sets of other schema files, merged into the
 * importing schema's tree before the model is built (LANGUAGE.md, "Imports"). */
#ifndef BFGEN_IMPORTS_H
#define BFGEN_IMPORTS_H

#include <stddef.h>

#include "diag.h"
#include "yaml_tree.h"

/* Folders an import not found beside its importer is looked for in, in order: each
 * --schema-path, then each folder of $BINFORM_SCHEMA_PATH (colon-separated). */
void imports_add_search_dir(const char *dir);

/* Resolves the `imports` of `doc`, the schema read from `path`: each imported file (found
 * beside the file that imports it, then on the search path) is loaded, its own imports
 * resolved, and its `types`, `enums` and `flags` appended to the importer's; the `imports`
 * key is then removed. A missing file, a cycle or a name declared twice is an error at the
 * import. 0 on error. */
int imports_resolve(ynode *doc, const char *path);

/* Every file imported so far (the paths read), in the order they were read. */
const ptr_vec *imports_files(void);

#endif
