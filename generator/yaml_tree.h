/* A YAML document as a tree of nodes that remember where they were written. */
#ifndef BFGEN_YAML_TREE_H
#define BFGEN_YAML_TREE_H

#include "diag.h"

typedef enum { YN_SCALAR, YN_MAP, YN_SEQ } ynode_kind;

typedef struct ynode ynode;
struct ynode {
    ynode_kind kind;
    src_loc loc;
    const char *text; /* scalars */
    int plain;        /* scalar written without quotes */
    size_t len;       /* map pairs or sequence items */
    ynode **keys;     /* maps: keys[i] -> values[i]; keys are scalars */
    ynode **values;   /* maps: values; sequences: items */
};

/* Loads one YAML document. Reports errors and returns NULL on failure. */
ynode *yaml_load_file(const char *path);
/* The same from `len` bytes in memory (kept until the tree is done with); `name` is the
 * file named in errors. */
ynode *yaml_load_memory(const char *name, const unsigned char *text, size_t len);

/* The value of `key` in a map, or NULL. */
ynode *ynode_get(const ynode *map, const char *key);
const char *ynode_kind_name(ynode_kind k);

#endif
