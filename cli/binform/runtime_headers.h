/* The runtime's headers, built into binform (embed_headers.sh): binform --schema compiles a
 * schema's generated code against exactly the runtime binform carries. */
#ifndef BINFORM_RUNTIME_HEADERS_H
#define BINFORM_RUNTIME_HEADERS_H

typedef struct embedded_file {
    const char *name, *text;
} embedded_file;

/* NULL-terminated. */
extern const embedded_file runtime_headers[];
/* SHA-256 of the headers, in hex. */
extern const char runtime_headers_digest[];

#endif
