/* binform --schema, the cache half: a user's schemas compiled once (schema_build.c) and kept
 * under $XDG_CACHE_HOME/binform (else ~/.cache/binform), loaded with dlopen afterwards. */
#ifndef BINFORM_SCHEMA_CACHE_H
#define BINFORM_SCHEMA_CACHE_H

#include <stddef.h>

#include "bf_meta.h"
#include "schema_build.h"

/* The formats of the request's schemas, NULL-terminated: from the cache entry of their key
 * when it is sound, else built, stored and loaded. NULL when they cannot be (the schemas'
 * mistakes and the reasons are on stderr); *status is then the exit status. */
const bf_format_desc *const *schema_formats(const schema_request *req, int *status);

#endif
