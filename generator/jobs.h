/* Work shared between processes: each format's files depend on that format alone, so
 * formats are generated side by side, one process per processor. */
#ifndef BFGEN_JOBS_H
#define BFGEN_JOBS_H

#include <stddef.h>

/* How many processes to use by default: the processors online, at most `items`, at least 1. */
int jobs_default(size_t items);

/* Runs run(item, ctx) for every item in 0..count-1, spread over `jobs` processes (this one
 * and jobs - 1 forked ones, which see everything this process holds as it is now). Items
 * go by `cost`, the largest first, each to the least loaded process; this process takes
 * the last share, since its caller has work of its own after. `mine[i]` is set to 1 for an
 * item run here. What each item prints on stderr is printed in item order, once all are
 * done, so the output does not depend on how many processes ran or which finished first.
 * Returns 1 when every run returned 1.
 * A forked process returns too, once its own items are done, with `*forked` set: its
 * caller frees what it holds and exits with the verdict, doing nothing more. */
int jobs_run(size_t count, const double *cost, int jobs, int (*run)(size_t item, void *ctx), void *ctx,
             unsigned char *mine, int *forked);

#endif
