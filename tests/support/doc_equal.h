/* Compares two documents of the same type through the reflection tables: every number,
 * string, structure and array, but not where things are (offsets, positions, padding),
 * since a rebuilt file is laid out anew. String references compare by their text; raw bytes
 * compare when both sides have some (an empty one is for the builder to fill). */
#ifndef BF_TEST_DOC_EQUAL_H
#define BF_TEST_DOC_EQUAL_H

#include <stddef.h>

#include "bf_meta.h"

/* 1 when equal; otherwise 0 and `why` names the first difference by field path. */
int doc_equal(const bf_type_desc *type, const void *a, const void *b, char *why, size_t why_size);

#endif
