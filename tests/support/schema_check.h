/* A small JSON Schema (2020-12) checker for the tests: the keywords bfgen's dump schemas use
 * ($ref into $defs, type, const, enum, minimum, maximum, pattern, properties, required,
 * additionalProperties: false, items, minItems, maxItems, oneOf, anyOf). An unknown keyword
 * fails the check, so that a schema the checker does not understand is never passed. */
#ifndef BF_TEST_SCHEMA_CHECK_H
#define BF_TEST_SCHEMA_CHECK_H

#include <stddef.h>

#include "json_parse.h"

/* 1 when `doc` is valid against `schema`; otherwise 0 and `why` says where and why. */
int schema_check(const jv *schema, const jv *doc, char *why, size_t why_size);

#endif
