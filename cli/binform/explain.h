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
/* Nodes of a tree at most (each a few hundred bytes with its strings): building stops there. */
#define EXPLAIN_NODES_MAX 1000000

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
    int failed;              /* the read failed here (the node is as far as it got) */
    /* arrays whose elements have no node of their own (numbers; structures past the first
     * EXPLAIN_ELEMENTS): what a byte inside is an element of */
    int elem_prim;           /* 1 + bf_prim of a number array, 0 otherwise */
    int elem_little;         /* its byte order */
    int64_t elem_size;       /* bytes per element, 0 when not an array or when they vary */
    uint64_t first_index;    /* index of the node's first element in its array */
    uint64_t *starts;        /* variable-size elements: where each starts (nstarts of them) */
    size_t nstarts;
} xnode;

typedef struct xtree {
    xnode *nodes;
    size_t count, cap;
    const uint8_t *data;
    size_t size;
    const uint8_t *claimed;  /* one bit per byte: read by some field */
    int too_many;            /* building stopped at EXPLAIN_NODES_MAX nodes */
    /* a read that failed: the tree is the document as far as it was read */
    int failed;
    int fail_node;           /* the node where it failed, -1 when none matched the path */
    uint64_t fail_offset;
    char fail_path[256];
    char fail_message[256];
} xtree;

/* Builds the tree of `root` (a document of `type`). Returns 0 when out of memory. */
int explain_build(xtree *t, const bf_type_desc *type, const void *root, const uint8_t *data, size_t size,
                  const uint8_t *claimed);
/* The same for a read that failed with `failure`: `root` is the partial document
 * (bf_read_opts.partial); the tree follows the failure's path and stops at the failing field,
 * which is marked. */
int explain_build_partial(xtree *t, const bf_type_desc *type, const void *root, const uint8_t *data,
                          size_t size, const uint8_t *claimed, const bf_error *failure);

/* For every byte, the innermost node holding it (the deepest; of equal depth the smallest range,
 * then the later one; the root, which is the whole file, holds none), or -1: what a hover, a
 * colour or a link shows. malloc'd, t->size entries;
 * NULL when out of memory (or for an empty file). */
int32_t *explain_owners(const xtree *t);
void explain_free(xtree *t);

/* Whether node `i` has children (they follow it: the nodes are in depth-first order). */
int explain_has_children(const xtree *t, size_t i);
/* Whether byte `i` was read by some field. */
int explain_claimed(const xtree *t, uint64_t i);
/* Bytes no field read. */
uint64_t explain_unclaimed_count(const xtree *t);

#endif
