/* binform --schema, the compile half: bfgen and the C compiler turn schemas into a shared
 * object that holds their formats' generated code (schema_cache.c keeps and loads it). */
#ifndef BINFORM_SCHEMA_BUILD_H
#define BINFORM_SCHEMA_BUILD_H

#include <stddef.h>

/* The symbols every schema object exports (and nothing else): its NULL-terminated formats
 * table, and the runtime version its code was generated for. */
#define SCHEMA_FORMATS_SYMBOL "binform_schema_formats"
#define SCHEMA_RUNTIME_SYMBOL "binform_schema_runtime"

/* The compiler command: $BINFORM_CC, else "cc" (split into words by the shell). */
const char *schema_compiler(void);
/* The flags the schema objects are compiled with (part of the cache's key). */
extern const char schema_cflags[];
/* Where bfgen is: $BINFORM_BFGEN, else beside binform, else in the build tree's bin/ when
 * binform is the sanitizer build (build/san/bin). NULL (and a message) when not found. */
const char *schema_bfgen(void);

/* What --schema and --schema-path asked for. */
typedef struct schema_request {
    const char *const *schemas;
    size_t count;
    const char *const *search_dirs; /* --schema-path, for imports */
    size_t search_count;
} schema_request;

/* Generates and compiles the request's schemas in `work_dir` (an empty private folder) into
 * work_dir/schema.so, and lists the files they import in work_dir/imports. bfgen's messages
 * (the schema's mistakes, file:line:col) go to stderr as bfgen prints them. Returns 0, or
 * EXIT_USAGE with the reason on stderr. */
int schema_build(const schema_request *req, const char *work_dir);

#endif
