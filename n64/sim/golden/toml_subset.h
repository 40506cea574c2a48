/* A reader for the subset of TOML used by the RSP golden test descriptions:
 * comments, bare keys, `key = value`, `[[array.of.tables]]`, basic and
 * multi-line basic strings, integers (decimal or 0x hex, `_` separators) and
 * (nested, multi-line) arrays. Anything else is reported as an error. */
#ifndef N64_TOML_SUBSET_H
#define N64_TOML_SUBSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum toml_kind { TOML_STRING, TOML_INTEGER, TOML_ARRAY } toml_kind_t;

typedef struct toml_value {
    toml_kind_t kind;
    char *string;
    int64_t integer;
    struct toml_value *items;
    size_t count;
} toml_value_t;

typedef struct toml_entry {
    char *key;
    toml_value_t value;
} toml_entry_t;

typedef struct toml_table {
    toml_entry_t *entries;
    size_t count;
} toml_table_t;

typedef struct toml_table_array {
    char *name;
    toml_table_t *tables;
    size_t count;
} toml_table_array_t;

typedef struct toml_document {
    toml_table_t root;
    toml_table_array_t *arrays;
    size_t array_count;
} toml_document_t;

/* Parses text into doc. On failure returns false, frees what was built and
 * writes "line N: reason" into error. */
bool toml_parse(const char *text, toml_document_t *doc, char *error, size_t error_size);
void toml_free(toml_document_t *doc);

const toml_value_t *toml_get(const toml_table_t *table, const char *key);
const toml_table_array_t *toml_get_table_array(const toml_document_t *doc, const char *name);

#endif
