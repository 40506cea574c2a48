/* Saving a file whole or not at all.
 *
 * A regular file (or a name not yet taken) is written to a temporary file beside it, named
 * TARGET.tmp.PID.XXXXXX, synced, then renamed over it: the target is the old file or the new
 * one, never a part. A device or a FIFO (/dev/null, /dev/stdout on a pipe, a named pipe) is
 * written through: it cannot be replaced, and replacing it (as root, /dev/null) would be a
 * disaster. A symbolic link is followed on purpose: to a regular file, that file is replaced
 * atomically and the link stays a link; to a device or a FIFO, it is written through; a link
 * to nothing (dangling, or a loop) is refused rather than replaced by a file.
 *
 * The temporaries in progress are listed in a static table that bf_save_remove_temporaries
 * reads from a signal handler. A temporary that outlived its process (a SIGKILL, a crash, a
 * power cut) is removed by the next save to the same target: the PID in its name says whose
 * it was. */
#define _XOPEN_SOURCE 700
#include "bf_save.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- the temporaries in progress, for signal handlers ---- */

/* Saves at the same time (threads); one more finds no slot and is not removed on a signal. */
#define LIVE_SLOTS 8
#define LIVE_PATH 4200

enum { SLOT_FREE, SLOT_TAKEN, SLOT_LIVE };
static volatile sig_atomic_t live_state[LIVE_SLOTS];
static char live_path[LIVE_SLOTS][LIVE_PATH];

/* Takes a free slot (-1 when none): atomically where the compiler can, since saves may run in
 * several threads at once. */
static int slot_take(void)
{
    for (int i = 0; i < LIVE_SLOTS; i++) {
#if defined(__GNUC__)
        if (__sync_bool_compare_and_swap(&live_state[i], SLOT_FREE, SLOT_TAKEN))
            return i;
#else
        if (live_state[i] == SLOT_FREE) {
            live_state[i] = SLOT_TAKEN;
            return i;
        }
#endif
    }
    return -1;
}

static void slot_release(int slot)
{
    if (slot >= 0)
        live_state[slot] = SLOT_FREE;
}

void bf_save_remove_temporaries(void)
{
    /* async-signal-safe: unlink() only, on names complete before their slot went live */
    for (int i = 0; i < LIVE_SLOTS; i++)
        if (live_state[i] == SLOT_LIVE)
            unlink(live_path[i]);
}

/* ---- errors ---- */

static int save_fail(bf_error *err, const char *what, const char *path)
{
    int e = errno;
    memset(err, 0, sizeof *err);
    err->failed = 1;
    snprintf(err->message, sizeof err->message, "cannot %s %s: %s", what, path, strerror(e));
    return 0;
}

static int save_refuse(bf_error *err, const char *path, const char *why)
{
    memset(err, 0, sizeof *err);
    err->failed = 1;
    snprintf(err->message, sizeof err->message, "will not write %s: %s", path, why);
    return 0;
}

/* ---- stale temporaries ---- */

/* `name` is BASE.tmp.PID.XXXXXX: returns PID, or 0 when it is not one of our names. */
static long temporary_owner(const char *name, const char *base, size_t base_len)
{
    if (strncmp(name, base, base_len) != 0 || strncmp(name + base_len, ".tmp.", 5) != 0)
        return 0;
    const char *p = name + base_len + 5;
    long pid = 0;
    const char *digits = p;
    while (*p >= '0' && *p <= '9' && pid < 100000000)
        pid = pid * 10 + (*p++ - '0');
    if (p == digits || *p != '.' || strlen(p + 1) != 6)
        return 0;
    return pid;
}

/* Removes the temporaries of saves to `target` whose process is gone (one of ours that was
 * killed, or whose machine stopped). Only regular files of this user with our naming. */
static void remove_stale_temporaries(const char *target)
{
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    size_t dir_len = slash ? (size_t)(slash - target) + 1 : 0, base_len = strlen(base);
    char *dir = malloc(dir_len + 2);
    if (!dir)
        return;
    if (dir_len)
        memcpy(dir, target, dir_len);
    else
        dir[dir_len++] = '.';
    dir[dir_len] = '\0';
    DIR *d = opendir(dir);
    if (!d) {
        free(dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid = temporary_owner(e->d_name, base, base_len);
        if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        size_t n = dir_len + 1 + strlen(e->d_name) + 1;
        char *path = malloc(n);
        if (!path)
            break;
        snprintf(path, n, "%s%s%s", dir, slash ? "" : "/", e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid())
            unlink(path);
        free(path);
    }
    closedir(d);
    free(dir);
}

/* ---- saving ---- */

static void save_reset(bf_save *s)
{
    s->fd = -1;
    s->direct = 0;
    s->slot = -1;
    s->tmp = NULL;
    s->target = NULL;
}

/* Opens a device or a FIFO for writing through (no O_CREAT: it exists; no O_TRUNC: a device
 * has nothing to truncate, and a regular file swapped in meanwhile must not be emptied). */
static int open_through(bf_save *s, const char *path, bf_error *err)
{
    int fd;
    do
        fd = open(path, O_WRONLY | O_NOCTTY);
    while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return save_fail(err, "open", path);
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) {
        close(fd);
        return save_refuse(err, path, "it changed while it was opened");
    }
    s->fd = fd;
    s->direct = 1;
    return 1;
}

int bf_save_begin(bf_save *s, const char *path, bf_error *err)
{
    save_reset(s);
    struct stat lst, st;
    char *resolved = NULL;
    const char *target = path;
    if (lstat(path, &lst) == 0) {
        if (S_ISLNK(lst.st_mode)) {
            if (stat(path, &st) != 0)
                return save_refuse(err, path, "it is a symbolic link to nothing (dangling, or a loop)");
            if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
                return open_through(s, path, err);
            if (S_ISDIR(st.st_mode))
                return save_refuse(err, path, "it is a directory");
            /* replace the file the link names, beside it; the link stays */
            if (!(resolved = realpath(path, NULL)))
                return save_fail(err, "follow the link", path);
            target = resolved;
        } else if (S_ISDIR(lst.st_mode)) {
            return save_refuse(err, path, "it is a directory");
        } else if (!S_ISREG(lst.st_mode)) {
            return open_through(s, path, err);
        }
    } else if (errno != ENOENT) {
        return save_fail(err, "look at", path);
    }
    remove_stale_temporaries(target);
    /* TARGET.tmp.PID.XXXXXX: beside the target, so that rename() stays on one file system */
    size_t n = strlen(target) + 40;
    s->tmp = malloc(n);
    s->target = malloc(strlen(target) + 1);
    if (!s->tmp || !s->target) {
        free(s->tmp), free(s->target), free(resolved);
        save_reset(s);
        errno = ENOMEM;
        return save_fail(err, "write", path);
    }
    strcpy(s->target, target);
    free(resolved);
    snprintf(s->tmp, n, "%s.tmp.%ld.XXXXXX", s->target, (long)getpid());
    /* listed before it exists: a signal between mkstemp and the listing would leave it */
    size_t len = strlen(s->tmp) + 1;
    s->slot = len <= LIVE_PATH ? slot_take() : -1;
    if (s->slot >= 0) {
        memcpy(live_path[s->slot], s->tmp, len);
        live_state[s->slot] = SLOT_LIVE;
    }
    int fd = mkstemp(s->slot >= 0 ? live_path[s->slot] : s->tmp);
    if (s->slot >= 0)
        memcpy(s->tmp, live_path[s->slot], len);
    if (fd < 0) {
        save_fail(err, "create a temporary file for", path);
        slot_release(s->slot);
        free(s->tmp), free(s->target);
        save_reset(s);
        return 0;
    }
    s->fd = fd;
    /* mkstemp makes the file private: give it the target's mode, or the usual one */
    mode_t mode;
    if (stat(s->target, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode) != 0) {
        save_fail(err, "set the mode of", s->tmp);
        bf_save_abort(s);
        return 0;
    }
    return 1;
}

int bf_save_write(bf_save *s, const void *data, size_t size, bf_error *err)
{
    const uint8_t *p = data;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(s->fd, p + done, size - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            save_fail(err, "write", s->direct ? "the output" : s->tmp);
            return 0;
        }
        done += (size_t)w;
    }
    return 1;
}

int bf_save_commit(bf_save *s, bf_error *err)
{
    if (s->direct) {
        int ok = close(s->fd) == 0;
        if (!ok)
            save_fail(err, "close", "the output");
        save_reset(s);
        return ok;
    }
    if (fsync(s->fd) != 0) {
        save_fail(err, "flush", s->tmp);
        bf_save_abort(s);
        return 0;
    }
    int closed = close(s->fd) == 0;
    s->fd = -1;
    if (!closed || rename(s->tmp, s->target) != 0) {
        save_fail(err, "replace", s->target);
        bf_save_abort(s);
        return 0;
    }
    slot_release(s->slot);
    free(s->tmp);
    free(s->target);
    save_reset(s);
    return 1;
}

void bf_save_abort(bf_save *s)
{
    int e = errno; /* the caller's error stays the one to report */
    if (s->fd >= 0)
        close(s->fd);
    if (s->tmp)
        unlink(s->tmp);
    slot_release(s->slot);
    free(s->tmp);
    free(s->target);
    save_reset(s);
    errno = e;
}

int bf_save_atomic(const char *path, const uint8_t *data, size_t size, bf_error *err)
{
    bf_save s;
    if (!bf_save_begin(&s, path, err))
        return 0;
    if (!bf_save_write(&s, data, size, err)) {
        bf_save_abort(&s);
        return 0;
    }
    return bf_save_commit(&s, err);
}
