/* Work shared between processes (jobs.h). */
#define _POSIX_C_SOURCE 200809L
#include "jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int jobs_default(size_t items)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1)
        cpus = 1;
    if ((size_t)cpus > items)
        cpus = (long)items;
    return cpus < 1 ? 1 : (int)cpus;
}

/* Which process runs each item: `owner[i]` (0: this one), balancing the summed costs. */
static void share_out(size_t count, const double *cost, int jobs, int *owner)
{
    double *load = calloc((size_t)jobs, sizeof *load);
    unsigned char *done = calloc(count ? count : 1, 1);
    if (!load || !done) { /* everything here: slower, the same result */
        for (size_t i = 0; i < count; i++)
            owner[i] = 0;
        free(load);
        free(done);
        return;
    }
    for (size_t n = 0; n < count; n++) {
        size_t big = count;
        for (size_t i = 0; i < count; i++)
            if (!done[i] && (big == count || cost[i] > cost[big]))
                big = i;
        done[big] = 1;
        int least = jobs - 1; /* ties go to the forked processes: this one has more to do after */
        for (int j = jobs - 2; j >= 0; j--)
            if (load[j] < load[least])
                least = j;
        owner[big] = least;
        load[least] += cost[big];
    }
    free(load);
    free(done);
}

/* Copies what an item printed to this process's stderr. */
static void replay_log(FILE *log)
{
    char buf[4096];
    size_t n;
    rewind(log);
    while ((n = fread(buf, 1, sizeof buf, log)) > 0)
        fwrite(buf, 1, n, stderr);
}

/* run(item) with what it prints on stderr kept in `log` (none: printed as it comes). */
static int run_logged(int (*run)(size_t, void *), size_t item, void *ctx, FILE *log)
{
    if (!log)
        return run(item, ctx);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    if (saved < 0 || dup2(fileno(log), STDERR_FILENO) < 0) {
        if (saved >= 0)
            close(saved);
        return run(item, ctx);
    }
    int ok = run(item, ctx);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    return ok;
}

int jobs_run(size_t count, const double *cost, int jobs, int (*run)(size_t item, void *ctx), void *ctx,
             unsigned char *mine, int *forked)
{
    *forked = 0;
    if (jobs < 1 || count < 2)
        jobs = 1;
    int *owner = calloc(count ? count : 1, sizeof *owner);
    pid_t *pids = calloc((size_t)jobs, sizeof *pids);
    FILE **logs = calloc(count ? count : 1, sizeof *logs); /* each item's stderr, when forking */
    if (!owner || !pids || !logs)
        jobs = 1; /* all here: slower, the same result */
    if (owner)
        share_out(count, cost, jobs, owner);
    for (size_t i = 0; i < count && jobs > 1; i++)
        if (!(logs[i] = tmpfile()))
            jobs = 1;
    if (jobs == 1 && owner)
        for (size_t i = 0; i < count; i++)
            owner[i] = 0;
    fflush(NULL); /* nothing buffered before the fork is printed twice */
    int me = 0;
    for (int j = 1; j < jobs && me == 0; j++) {
        pids[j] = fork();
        if (pids[j] == 0) {
            me = j;
            *forked = 1;
        } else if (pids[j] < 0) { /* no process: its items are run here */
            for (size_t i = 0; i < count; i++)
                if (owner[i] == j)
                    owner[i] = 0;
        }
    }
    int ok = 1;
    for (size_t i = 0; i < count; i++) {
        int here = !owner || owner[i] == me;
        mine[i] = (unsigned char)here;
        if (here)
            ok &= run_logged(run, i, ctx, jobs > 1 ? logs[i] : NULL);
    }
    for (int j = 1; j < jobs && !*forked; j++) {
        int status = 0;
        if (pids[j] > 0 && (waitpid(pids[j], &status, 0) != pids[j] || !WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
            ok = 0;
            if (WIFSIGNALED(status))
                fprintf(stderr, "bfgen: a generating process was stopped by signal %d\n", WTERMSIG(status));
        }
    }
    for (size_t i = 0; i < count; i++)
        if (logs && logs[i]) {
            if (!*forked)
                replay_log(logs[i]);
            fclose(logs[i]);
        }
    fflush(NULL);
    free(owner);
    free(pids);
    free(logs);
    return ok;
}
