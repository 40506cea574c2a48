/* Field paths walked through the reflection tables: "chunks.body.count" names every `count`
 * of every `body` of every element of `chunks`, whatever the format (file sets' checks and
 * name patterns use it; nothing here knows a format). */
#ifndef BF_PATH_H
#define BF_PATH_H

#include <stdint.h>

#include "bf_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One thing a path leads to: a structure (type, obj), a string field (str) or an integer. */
typedef struct bf_found {
    const bf_type_desc *type; /* the structure's type; NULL for a string or a number */
    const void *obj;
    int64_t value;            /* the integer */
    int is_char;              /* value is a character of a char field */
    const bf_str *str;        /* the string field, or NULL */
    uint64_t offset;          /* where it lies in the file */
    const char *path;         /* where it was found ("chunks[2].body.count"): valid during the call */
} bf_found;

/* The field of `t` whose name is the `len` bytes at `name` (not terminated there), or NULL. */
const bf_field_desc *bf_field_named(const bf_type_desc *t, const char *name, size_t len);
typedef void (*bf_found_fn)(const bf_found *found, void *ctx);

/* Walks `path` (field names separated by dots) from `obj`, a structure of `type`, through
 * every element of every array on the way, and calls fn for each thing the last name leads to:
 * structures (only those of the type named `only`, when it is not NULL), strings and integers
 * (floats and raw bytes are passed over). A field an `if:` left out leads nowhere. Returns 0
 * when a name is not a field of the structure it is looked up in (a wrong path), else 1. */
int bf_path_walk(const bf_type_desc *type, const void *obj, const char *path, const char *only, bf_found_fn fn,
                 void *ctx);

#ifdef __cplusplus
}
#endif

#endif
