/* A strict little JSON parser for tests: parses a whole text into a tree or fails. */
#ifndef BF_TEST_JSON_PARSE_H
#define BF_TEST_JSON_PARSE_H

#include <stddef.h>

typedef enum { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT } jv_kind;

typedef struct jv {
    jv_kind kind;
    double number;
    int boolean;
    char *string;        /* JV_STRING (escapes decoded; \u00XX as one byte) */
    size_t count;        /* JV_ARRAY, JV_OBJECT */
    struct jv *items;    /* elements or member values */
    char **keys;         /* JV_OBJECT */
} jv;

/* Parses `text`; returns NULL (and a reason in `error`) unless it is one valid JSON value. */
jv *jv_parse(const char *text, char *error, size_t error_size);
void jv_free(jv *v);
/* The member `key` of an object, or NULL. */
const jv *jv_get(const jv *object, const char *key);

#endif
