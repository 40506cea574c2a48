/* The formats this run of binform knows: those compiled in, and those of --schema files. */
#ifndef BINFORM_KNOWN_FORMATS_H
#define BINFORM_KNOWN_FORMATS_H

#include "bf_meta.h"

/* NULL-terminated: the --schema formats first, then the compiled-in ones whose names no
 * --schema format took (a user's edited t3dm.yaml stands in for the built-in t3dm). */
const bf_format_desc *const *known_formats(void);

/* Adds `extra` (NULL-terminated) before the others. 0 when out of memory. */
int known_formats_add(const bf_format_desc *const *extra);

/* binform's version (main.c): part of the schema cache's key. */
extern const char binform_version[];

#endif
