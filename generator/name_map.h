/* Names -> pointers, hashed: finding a name takes the same time however many there are, so
 * that a schema's size, not its square, sets bfgen's time. Pool-backed, never freed. */
#ifndef BFGEN_NAME_MAP_H
#define BFGEN_NAME_MAP_H

#include <stddef.h>

typedef struct name_map {
    const char **keys;
    void **values;
    size_t cap, len;
} name_map;

/* The value of `key`, or NULL. */
void *name_map_get(const name_map *m, const char *key);
/* Adds `key` -> `value` unless `key` is there: then returns the value it has (the first
 * one stays), else NULL. */
void *name_map_put(name_map *m, const char *key, void *value);

#endif
