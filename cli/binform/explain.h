/* The annotated view of a parsed file: every structure, field and element the reader read,
 * with its byte range, path, type, decoded value and doc, found through the reflection
 * tables only (no per-format code). Shared by the text and HTML outputs of `explain`. */
#ifndef BINFORM_EXPLAIN_H
#define BINFORM_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "bf_meta.h"

/* Elements of an array shown one by one; the rest are one node. */
#define EXPLAIN_ELEMENTS 64

typedef struct xnode {
    uint64_t start, end;     /* bytes [start, end) of the file; start == end: none of its own */
    int parent;              /* index of the parent node, -1 for the root */
    int depth;
    char *path;              /* "chunk_data[3].body.parts[0].vertex_count" */
    char *name;              /* the last component of the path */
    char *type;              /* "u16", "Part", "bytes", "char[3]", "Object (case O)" */
    char *value;             /* the decoded value, or NULL */
    const char *doc;         /* from the tables; NULL when none */
    const char *erratum;
} xnode;

typedef struct xtree {
    xnode *nodes;
    size_t count, cap;
    const uint8_t *data;
    size_t size;
    const uint8_t *claimed;  /* one bit per byte: read by some field */
} xtree;

/* Builds the tree of `root` (a document of `type`). Returns 0 when out of memory. */
int explain_build(xtree *t, const bf_type_desc *type, const void *root, const uint8_t *data, size_t size,
                  const uint8_t *claimed);
void explain_free(xtree *t);

/* Whether node `i` has children (they follow it: the nodes are in depth-first order). */
int explain_has_children(const xtree *t, size_t i);
/* Whether byte `i` was read by some field. */
int explain_claimed(const xtree *t, uint64_t i);
/* Bytes no field read. */
uint64_t explain_unclaimed_count(const xtree *t);

#endif
