/* Files written atomically: into a temporary file in the same folder, renamed over the target
 * only when complete, so that a failed write leaves the old file (or none) in place. */
#ifndef BINFORM_ATOMIC_FILE_H
#define BINFORM_ATOMIC_FILE_H

#include <stdio.h>

typedef struct atomic_file {
    FILE *f;       /* write here */
    char *tmp;     /* the temporary file's path */
    char *path;    /* the target */
} atomic_file;

/* Creates the temporary file. Returns 0 (message printed) on failure. */
int atomic_open(atomic_file *a, const char *path);
/* Flushes, syncs and renames over the target. Returns 0 (message printed, temporary removed)
 * on failure. */
int atomic_commit(atomic_file *a);
/* Removes the temporary file. */
void atomic_abort(atomic_file *a);

#endif
