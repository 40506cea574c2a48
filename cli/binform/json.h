/* A small streaming JSON writer: commas and escaping handled, keys in the order given. */
#ifndef BINFORM_JSON_H
#define BINFORM_JSON_H

#include <stdint.h>
#include <stdio.h>

typedef struct json {
    FILE *out;
    int depth;
    int first[64]; /* no element written yet at this depth */
    int pretty;
    int after_key; /* the next value completes a key: no comma */
    int inline_from; /* depth from which output stays on one line (0: none) */
} json;

void json_init(json *j, FILE *out, int pretty);
void json_begin_object(json *j);
void json_end_object(json *j);
void json_begin_array(json *j);
/* An array written on one line (for arrays of numbers). */
void json_begin_inline_array(json *j);
void json_end_array(json *j);
void json_key(json *j, const char *key);
void json_string(json *j, const char *s, size_t len);
void json_cstring(json *j, const char *s);
void json_int(json *j, int64_t v);
void json_uint(json *j, uint64_t v);
void json_double(json *j, double v);
/* A number already written out (exact decimal text of a 64-bit value, say). */
void json_raw(json *j, const char *text);
void json_null(json *j);
void json_bool(json *j, int v);

#endif
