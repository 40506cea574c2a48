/* Open addressing with linear probing, at most half full. */
#include "name_map.h"

#include <string.h>

#include "diag.h"

static size_t hash(const char *s)
{
    size_t h = (size_t)14695981039346656037u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * (size_t)1099511628211u;
    return h;
}

/* The slot holding `key`, or the empty slot where it would go. */
static size_t slot(const name_map *m, const char *key)
{
    size_t i = hash(key) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], key) != 0)
        i = (i + 1) & (m->cap - 1);
    return i;
}

void *name_map_get(const name_map *m, const char *key)
{
    if (!m->cap)
        return NULL;
    size_t i = slot(m, key);
    return m->keys[i] ? m->values[i] : NULL;
}

void *name_map_put(name_map *m, const char *key, void *value)
{
    if (2 * (m->len + 1) > m->cap) {
        name_map bigger = {0};
        bigger.cap = m->cap ? m->cap * 2 : 16;
        bigger.keys = pool_alloc(bigger.cap * sizeof *bigger.keys);
        bigger.values = pool_alloc(bigger.cap * sizeof *bigger.values);
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i])
                name_map_put(&bigger, m->keys[i], m->values[i]);
        *m = bigger;
    }
    size_t i = slot(m, key);
    if (m->keys[i])
        return m->values[i];
    m->keys[i] = key;
    m->values[i] = value;
    m->len++;
    return NULL;
}
