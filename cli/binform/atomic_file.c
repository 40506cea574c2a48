#define _POSIX_C_SOURCE 200809L
#include "atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void release(atomic_file *a)
{
    free(a->tmp);
    free(a->path);
    a->tmp = a->path = NULL;
    a->f = NULL;
}

int atomic_open(atomic_file *a, const char *path)
{
    memset(a, 0, sizeof *a);
    size_t n = strlen(path);
    a->path = malloc(n + 1);
    a->tmp = malloc(n + sizeof ".tmp-XXXXXX");
    if (!a->path || !a->tmp) {
        fprintf(stderr, "%s: out of memory\n", path);
        release(a);
        return 0;
    }
    memcpy(a->path, path, n + 1);
    memcpy(a->tmp, path, n);
    memcpy(a->tmp + n, ".tmp-XXXXXX", sizeof ".tmp-XXXXXX");
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        fprintf(stderr, "%s: cannot create a temporary file beside it: %s\n", path, strerror(errno));
        release(a);
        return 0;
    }
    /* mkstemp makes the file private; the result is an ordinary document */
    fchmod(fd, 0644);
    a->f = fdopen(fd, "wb");
    if (!a->f) {
        fprintf(stderr, "%s: %s\n", a->tmp, strerror(errno));
        close(fd);
        remove(a->tmp);
        release(a);
        return 0;
    }
    return 1;
}

int atomic_commit(atomic_file *a)
{
    int ok = fflush(a->f) == 0 && !ferror(a->f) && fsync(fileno(a->f)) == 0;
    int err = errno;
    if (fclose(a->f) != 0 && ok) {
        ok = 0;
        err = errno;
    }
    if (ok && rename(a->tmp, a->path) != 0) {
        ok = 0;
        err = errno;
    }
    if (!ok) {
        fprintf(stderr, "%s: cannot write: %s\n", a->path, strerror(err));
        remove(a->tmp);
    }
    release(a);
    return ok;
}

void atomic_abort(atomic_file *a)
{
    if (a->f)
        fclose(a->f);
    if (a->tmp)
        remove(a->tmp);
    release(a);
}
