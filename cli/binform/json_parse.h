/* A strict JSON parser: a whole text into a tree, or a reason it is not JSON. Used by
 * `binform build` and by the tests. Refused besides bad syntax: a duplicate key in an object
 * (both places named), a number beyond a double's range (it would become infinity), a zero
 * byte, nesting deeper than 200, texts of 4 GiB or more. */
#ifndef BINFORM_JSON_PARSE_H
#define BINFORM_JSON_PARSE_H

#include <stddef.h>
#include <stdint.h>

typedef enum { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT } jv_kind;

/* 32 bytes a value: the tree is the parser's memory (see json_parse.c). */
typedef struct jv {
    union {
        char *string;      /* JV_STRING (escapes decoded; \u00XX as one byte), JV_NUMBER: its text */
        struct jv *items;  /* JV_ARRAY: the elements, JV_OBJECT: the members' values */
    };
    union {
        char **keys;       /* JV_OBJECT: the members' keys */
        double number;     /* JV_NUMBER */
    };
    union {
        uint32_t length;   /* JV_STRING: bytes in `string` (it may hold zeros) */
        uint32_t count;    /* JV_ARRAY, JV_OBJECT */
    };
    uint32_t at;           /* where the value starts in the text */
    uint8_t kind;          /* a jv_kind */
    uint8_t boolean;       /* JV_BOOL */
} jv;

/* Parses the zero-terminated `text`; returns NULL (and a reason with its line and column in
 * `error`) unless it is one valid JSON value. */
jv *jv_parse(const char *text, char *error, size_t error_size);
/* The same for `size` bytes (not zero-terminated; a zero byte in them is an error). */
jv *jv_parse_n(const char *text, size_t size, char *error, size_t error_size);
/* Frees what jv_parse returned (the whole tree; never a value inside it). */
void jv_free(jv *v);
/* The bytes the tree holds (what jv_parse allocated for it and keeps). */
size_t jv_memory(const jv *v);
/* The member `key` of an object, or NULL. */
const jv *jv_get(const jv *object, const char *key);
/* Line and column (from 1) of byte `at` in `text`. */
void jv_line_col(const char *text, size_t at, int *line, int *col);

#endif
