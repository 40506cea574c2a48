/* Whole-file input. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bf_runtime.h"

static int io_fail(bf_error *err, const char *what, const char *path)
{
    memset(err, 0, sizeof *err);
    err->failed = 1;
    snprintf(err->message, sizeof err->message, "cannot %s %s: %s", what, path, strerror(errno));
    return 0;
}

int bf_file_load(const char *path, bf_alloc alloc, uint8_t **data, size_t *size, bf_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return io_fail(err, "open", path);
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        len = ftell(f);
    if (len < 0 || fseek(f, 0, SEEK_SET) != 0) {
        io_fail(err, "measure", path);
        fclose(f);
        return 0;
    }
    /* One extra byte so that an empty file still gets a valid buffer. */
    uint8_t *buf = alloc.alloc(alloc.user, (size_t)len + 1);
    if (!buf) {
        errno = ENOMEM;
        io_fail(err, "load", path);
        fclose(f);
        return 0;
    }
    if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
        io_fail(err, "read", path);
        alloc.release(alloc.user, buf, (size_t)len + 1);
        fclose(f);
        return 0;
    }
    fclose(f);
    *data = buf;
    *size = (size_t)len;
    return 1;
}

void bf_file_unload(bf_alloc alloc, uint8_t *data, size_t size)
{
    if (data)
        alloc.release(alloc.user, data, size + 1);
}
