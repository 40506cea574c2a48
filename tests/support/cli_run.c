/* Running binform from the tests. */
#define _DEFAULT_SOURCE
#include "cli_run.h"

#include "samples.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

cli_result *cli_run(const char *args)
{
    static cli_result r;
    char err_path[] = "/tmp/binform_err_XXXXXX";
    int fd = mkstemp(err_path);
    cr_assert(fd >= 0);
    close(fd);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s 2>%s", BINFORM, args, err_path);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t cap = 1 << 16, n = 0, got;
    free(r.out);
    r.out = malloc(cap);
    while ((got = fread(r.out + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (cap - n - 1 == 0)
            r.out = realloc(r.out, cap *= 2);
    }
    r.out[n] = '\0';
    int raw = pclose(p);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    FILE *e = fopen(err_path, "r");
    n = e ? fread(r.err, 1, sizeof r.err - 1, e) : 0;
    r.err[n] = '\0';
    if (e)
        fclose(e);
    unlink(err_path);
    return &r;
}

cli_result *cli_runf(const char *fmt, ...)
{
    char args[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return cli_run(args);
}

char *fixture_copy(const char *source, const char *suffix, void (*mutate)(uint8_t *))
{
    static char path[64];
    uint8_t *data;
    size_t size;
    cr_assert(load_file(source, &data, &size));
    if (mutate)
        mutate(data);
    snprintf(path, sizeof path, "/tmp/binform_case_XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, data, size), (ssize_t)size);
    close(fd);
    free(data);
    return path;
}

size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

char *test_temp_dir(const char *tag)
{
    static char path[96];
    snprintf(path, sizeof path, "/tmp/binform_%s_XXXXXX", tag);
    cr_assert_not_null(mkdtemp(path));
    return path;
}

void test_remove_tree(const char *dir)
{
    char cmd[1200];
    /* folders only: a file there may be a hard link to a fixture, whose mode is the project's */
    snprintf(cmd, sizeof cmd, "find '%s' -type d -exec chmod u+rwx {} +; rm -rf '%s'", dir, dir);
    cr_assert_eq(system(cmd), 0);
}
