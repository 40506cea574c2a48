/* Saving an output whole or not at all (bf_save.c). */
#ifndef BF_SAVE_H
#define BF_SAVE_H

#include <stddef.h>
#include <stdint.h>

#include "bf_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the image to `path` atomically: a temporary file in the same folder, flushed and
 * synced, then renamed over the target. On any error the target is untouched, the
 * temporary file is removed, and `err` says why. A device or a FIFO is written through, never
 * replaced; a symbolic link is followed (its file replaced, the link kept), one to nothing is
 * refused (bf_save.c says why). */
int bf_save_atomic(const char *path, const uint8_t *data, size_t size, bf_error *err);

/* The same in steps, for an output written as it is made: bf_save_begin, bf_save_write as
 * often as needed (or write to `fd`), then bf_save_commit, or bf_save_abort to leave the
 * target as it was. Each returns 1, or 0 with `err` set (after which only abort is called:
 * commit aborts by itself when it fails). */
typedef struct bf_save {
    int fd;       /* where the bytes go */
    int direct;   /* 1: a device or a FIFO, written through */
    int slot;     /* its place in the list of temporaries in progress, -1: none */
    char *tmp;    /* TARGET.tmp.PID.XXXXXX, or NULL */
    char *target; /* the file replaced at commit (a link's file, for a link) */
} bf_save;
int bf_save_begin(bf_save *s, const char *path, bf_error *err);
int bf_save_write(bf_save *s, const void *data, size_t size, bf_error *err);
int bf_save_commit(bf_save *s, bf_error *err);
void bf_save_abort(bf_save *s);

/* Removes every temporary file of a save in progress: for a handler of SIGTERM, SIGINT or
 * SIGHUP, before it re-raises the signal (async-signal-safe: it only calls unlink). The next
 * save to a target also removes the temporaries whose process is gone. */
void bf_save_remove_temporaries(void);

#ifdef __cplusplus
}
#endif

#endif
