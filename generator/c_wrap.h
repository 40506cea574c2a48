/* Breaks generated C lines longer than 160 columns between tokens (c_wrap.c says how). */
#ifndef BFGEN_C_WRAP_H
#define BFGEN_C_WRAP_H

#include <stddef.h>

/* `src` (`len` bytes) with its long lines broken; the caller frees the result, whose length
 * goes to `out_len`. */
char *c_wrap(const char *src, size_t len, size_t *out_len);

#endif
