/* A strict JSON parser: a whole text into a tree, or a reason it is not JSON. Used by
 * `binform build` and by the tests. */
#ifndef BINFORM_JSON_PARSE_H
#define BINFORM_JSON_PARSE_H

#include <stddef.h>

typedef enum { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT } jv_kind;

typedef struct jv {
    jv_kind kind;
    double number;
    int boolean;
    char *string;        /* JV_STRING (escapes decoded; \u00XX as one byte), JV_NUMBER: its text */
    size_t length;       /* JV_STRING: bytes in `string` (it may hold zeros) */
    size_t count;        /* JV_ARRAY, JV_OBJECT */
    struct jv *items;    /* elements or member values */
    char **keys;         /* JV_OBJECT */
    size_t at;           /* where the value starts in the text */
} jv;

/* Parses `text`; returns NULL (and a reason with its line and column in `error`) unless it
 * is one valid JSON value. */
jv *jv_parse(const char *text, char *error, size_t error_size);
void jv_free(jv *v);
/* The member `key` of an object, or NULL. */
const jv *jv_get(const jv *object, const char *key);
/* Line and column (from 1) of byte `at` in `text`. */
void jv_line_col(const char *text, size_t at, int *line, int *col);

#endif
