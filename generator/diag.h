/* Compiler-style diagnostics (`file:line:col: error: ...`) and the generator's memory. */
#ifndef BFGEN_DIAG_H
#define BFGEN_DIAG_H

#include <stddef.h>

typedef struct src_loc {
    const char *file;
    int line, col; /* 1-based; 0 when unknown */
} src_loc;

void diag_error(src_loc at, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_warning(src_loc at, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_note(src_loc at, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int diag_error_count(void);
/* Counts diagnostics without printing them (the fuzzer). */
void diag_set_quiet(int on);
/* Called with each error's location before it is reported (the fuzzer checks them). */
extern void (*diag_error_hook)(src_loc at);

/* All generator memory comes from one pool, released at exit: bfgen is a batch tool and
 * the IR lives until the end anyway. Out of memory aborts with a message. */
void *pool_alloc(size_t size);
char *pool_strdup(const char *s);
char *pool_strndup(const char *s, size_t n);
char *pool_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pool_release_all(void);

/* Growable array of pointers, pool-backed. */
typedef struct ptr_vec {
    void **items;
    size_t len, cap;
} ptr_vec;
void vec_push(ptr_vec *v, void *item);

#endif
