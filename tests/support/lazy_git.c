/* Criterion initializes libgit2 in every test process (each test runs in a process of its
 * own), for the diffs of its `eq(str, ...)` assertions, and libgit2's init parses the system's
 * CA bundle. Under ASan's strstr interceptor that takes about 20 ms, half of a test process's
 * start, for certificates nothing here uses. Linked into every test binary (as an object, not
 * from the test library: nothing in the binary itself refers to these names), these
 * definitions come before libgit2's for Criterion: the real init runs only when a diff is
 * actually made, which then works as before. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <git2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_once_t real_init_once = PTHREAD_ONCE_INIT;
static int real_init_done;

/* libgit2's own definition of `name` (the next one after this executable's). */
static void *libgit2_function(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "lazy_git: libgit2 has no %s\n", name);
        abort();
    }
    return f;
}

static void real_init(void)
{
    int (*init)(void) = (int (*)(void))libgit2_function("git_libgit2_init");
    real_init_done = init() > 0;
}

/* What Criterion calls at every start: nothing yet. */
int git_libgit2_init(void)
{
    return 1;
}

int git_libgit2_shutdown(void)
{
    if (!real_init_done)
        return 0;
    int (*shutdown)(void) = (int (*)(void))libgit2_function("git_libgit2_shutdown");
    return shutdown();
}

typedef int diff_buffers_fn(const void *, size_t, const char *, const void *, size_t, const char *,
                            const git_diff_options *, git_diff_file_cb, git_diff_binary_cb, git_diff_hunk_cb,
                            git_diff_line_cb, void *);

/* The one libgit2 function Criterion uses besides those two: initializes libgit2 first. */
int git_diff_buffers(const void *old_buffer, size_t old_len, const char *old_as_path, const void *new_buffer,
                     size_t new_len, const char *new_as_path, const git_diff_options *options,
                     git_diff_file_cb file_cb, git_diff_binary_cb binary_cb, git_diff_hunk_cb hunk_cb,
                     git_diff_line_cb line_cb, void *payload)
{
    pthread_once(&real_init_once, real_init);
    diff_buffers_fn *diff = (diff_buffers_fn *)libgit2_function("git_diff_buffers");
    return diff(old_buffer, old_len, old_as_path, new_buffer, new_len, new_as_path, options, file_cb, binary_cb,
                hunk_cb, line_cb, payload);
}
