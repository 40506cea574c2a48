/* binform's outputs and the file system under attack: a full disk behind standard output,
 * signals during a save, special files named as outputs or sitting beside a model, paths a
 * walk cannot read, huge sparse inputs. Each output is complete or absent, each failure
 * reported with exit 2. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"
#include "samples.h"

/* ---- a full disk behind standard output ---- */

/* Every command that reports on standard output: to /dev/full, exit 2 and say so. */
Test(outputs, full_disk_behind_standard_output_is_an_error)
{
    cr_assert(access("/dev/full", W_OK) == 0, "/dev/full is missing");
    static const char *const commands[] = {
        "check --json-lines " PYRAMID,
        "check --json " PYRAMID,
        "check -v " PYRAMID,
        "explain " PYRAMID,
        "info " PYRAMID,
        "dump " PYRAMID,
        "formats",
    };
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        cli_result *r = cli_runf("%s > /dev/full", commands[i]);
        cr_expect_eq(r->status, 2, "%s > /dev/full: exit %d (%s)", commands[i], r->status, r->err);
        cr_expect(strstr(r->err, "cannot write standard output: No space left on device") != NULL, "%s: %s", commands[i],
                  r->err);
    }
}

/* A walk's report larger than any buffer stops at the first failed write: exit 2. */
Test(outputs, full_disk_stops_a_long_check_report)
{
    char *dir = test_temp_dir("fs");
    char cmd[512];
    for (int i = 0; i < 300; i++) {
        snprintf(cmd, sizeof cmd, "%s/m%03d.t3dm", dir, i);
        cr_assert_eq(link(PYRAMID, cmd) == 0 || symlink(PYRAMID, cmd) == 0, 1);
    }
    for (int jobs = 1; jobs <= 3; jobs += 2) {
        cli_result *r = cli_runf("check -r --no-set --jobs %d --json-lines '%s' > /dev/full", jobs, dir);
        cr_expect_eq(r->status, 2, "--jobs %d: exit %d (%s)", jobs, r->status, r->err);
        cr_expect(strstr(r->err, "cannot write standard output: No space left on device") != NULL, "%s", r->err);
    }
    test_remove_tree(dir);
}

/* ---- saving: special files, signals, stale temporaries ---- */

/* A P3M of `vertices` vertices (no normals, one material): its explain page is large. */
static void big_p3m(const char *path, unsigned vertices)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    const uint8_t head[] = {'P', '3', 'M', 0, 0, 1, 1, 0, 0, 0, 0, (uint8_t)vertices, (uint8_t)(vertices >> 8)};
    fwrite(head, 1, sizeof head, f);
    uint8_t v[20] = {0};
    for (unsigned i = 0; i < vertices; i++) {
        v[0] = (uint8_t)i;
        fwrite(v, 1, sizeof v, f);
    }
    const uint8_t tail[] = {0, 0, 0, 1, 0, 255, 255, 255, 255, 255, 0, 0, 0, 0x80, 0, 0, 0, 0, 'b', 'i', 'g', 0};
    fwrite(tail, 1, sizeof tail, f);
    cr_assert_eq(fclose(f), 0);
}

/* Names in `dir` that contain `part`. */
static int names_with(const char *dir, const char *part)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strstr(e->d_name, part) != NULL;
    closedir(d);
    return n;
}

static char *read_all(const char *path)
{
    uint8_t *data;
    size_t size;
    if (!load_file(path, &data, &size))
        return NULL;
    char *s = realloc(data, size + 1);
    s[size] = '\0';
    return s;
}

/* A FIFO named by -o is written through, not replaced by a regular file. */
Test(outputs, a_fifo_output_is_written_through)
{
    char *dir = test_temp_dir("fs");
    char fifo[128], got[128], cmd[256];
    snprintf(fifo, sizeof fifo, "%s/out.fifo", dir);
    snprintf(got, sizeof got, "%s/got.t3dm", dir);
    cr_assert_eq(mkfifo(fifo, 0644), 0);
    cli_result *r = cli_runf("dump " PYRAMID " > '%s/p.json' && %s build '%s/p.json' -o '%s/ref.t3dm' && (cat '%s' > '%s' &)"
                             " && %s build '%s/p.json' -o '%s'",
                             dir, BINFORM, dir, dir, fifo, got, BINFORM, dir, fifo);
    cr_expect_eq(r->status, 0, "%s", r->err);
    struct stat st, ref;
    cr_assert_eq(lstat(fifo, &st), 0);
    cr_expect(S_ISFIFO(st.st_mode), "the FIFO was replaced (mode %o)", (unsigned)st.st_mode);
    /* the reader got the whole file (cat may still be writing it: wait for it, up to a minute) */
    snprintf(cmd, sizeof cmd, "%s/ref.t3dm", dir);
    cr_assert_eq(stat(cmd, &ref), 0);
    for (int i = 0; i < 6000 && (stat(got, &st) != 0 || st.st_size < ref.st_size); i++)
        usleep(10000);
    r = cli_runf("check --no-set '%s'", got);
    cr_expect_eq(r->status, 0, "what went through the FIFO does not check: %s", r->err);
    cr_expect_eq(names_with(dir, ".tmp"), 0);
    test_remove_tree(dir);
}

/* A symbolic link is followed: its file replaced, the link kept. One to nothing is refused. */
Test(outputs, symbolic_links_are_followed_or_refused)
{
    char *dir = test_temp_dir("fs");
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && %s dump " PYRAMID " > p.json && echo old > real && ln -s real link && ln -s nowhere dangling"
             " && ln -s loop loop && mkdir sub",
             dir, BINFORM);
    cr_assert_eq(system(cmd), 0);
    cli_result *r = cli_runf("build '%s/p.json' -o '%s/link'", dir, dir);
    cr_expect_eq(r->status, 0, "%s", r->err);
    char path[256];
    struct stat st;
    snprintf(path, sizeof path, "%s/link", dir);
    cr_assert_eq(lstat(path, &st), 0);
    cr_expect(S_ISLNK(st.st_mode), "the link was replaced by a file");
    snprintf(path, sizeof path, "%s/real", dir);
    cr_assert_eq(stat(path, &st), 0);
    cr_expect_gt(st.st_size, 100, "the linked file was not written");
    static const char *const refused[] = {"dangling", "loop", "sub"};
    for (size_t i = 0; i < 3; i++) {
        r = cli_runf("build '%s/p.json' -o '%s/%s'", dir, dir, refused[i]);
        cr_expect_eq(r->status, 2, "%s: exit %d", refused[i], r->status);
        cr_expect(strstr(r->err, "will not write") != NULL, "%s: %s", refused[i], r->err);
        snprintf(path, sizeof path, "%s/%s", dir, refused[i]);
        cr_assert_eq(lstat(path, &st), 0);
        cr_expect(!S_ISREG(st.st_mode), "%s was replaced by a file", refused[i]);
    }
    cr_expect_eq(names_with(dir, ".tmp"), 0);
    test_remove_tree(dir);
}

/* A temporary left by a process that is gone (kill -9, a crash) is removed by the next save to
 * the same target; one of a live process is not touched. */
Test(outputs, stale_temporaries_are_removed_by_the_next_save)
{
    char *dir = test_temp_dir("fs");
    pid_t gone = fork();
    if (gone == 0)
        _exit(0);
    cr_assert_gt(gone, 0);
    waitpid(gone, NULL, 0);
    char stale[256], live[256], other[256];
    snprintf(stale, sizeof stale, "%s/out.t3dm.tmp.%ld.AbC123", dir, (long)gone);
    snprintf(live, sizeof live, "%s/out.t3dm.tmp.%ld.XyZ789", dir, (long)getpid());
    snprintf(other, sizeof other, "%s/other.t3dm.tmp.%ld.AbC123", dir, (long)gone);
    const char *const made[] = {stale, live, other};
    for (int i = 0; i < 3; i++) {
        FILE *f = fopen(made[i], "w");
        cr_assert_not_null(f);
        fputs("half a file", f);
        fclose(f);
    }
    cli_result *r = cli_runf("dump " PYRAMID " > '%s/p.json' && %s build '%s/p.json' -o '%s/out.t3dm'", dir, BINFORM,
                             dir, dir);
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect_neq(access(stale, F_OK), 0, "the dead process's temporary is still there");
    cr_expect_eq(access(live, F_OK), 0, "a live process's temporary was removed");
    cr_expect_eq(access(other, F_OK), 0, "another target's temporary was removed");
    test_remove_tree(dir);
}

/* The child's status after `sig` arrives while it writes `out` (seen as a new .tmp. name). */
static int signal_during_save(const char *dir, const char *out, const char *input, int sig)
{
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        execl(BINFORM, BINFORM, "explain", "--html", out, input, (char *)NULL);
        _exit(127);
    }
    int caught = 0;
    for (long spins = 0; spins < 50000000 && !caught; spins++) {
        if (names_with(dir, ".tmp.")) {
            kill(pid, sig);
            caught = 1;
        } else if (waitpid(pid, NULL, WNOHANG) == pid) {
            return -1;
        }
    }
    int status;
    waitpid(pid, &status, 0);
    return caught ? status : -1;
}

/* SIGTERM, SIGINT, SIGHUP while the page is written: no temporary left, the old page kept,
 * and the process dies of the signal. */
Test(outputs, a_signal_during_a_save_leaves_no_temporary)
{
    char *dir = test_temp_dir("fs");
    char input[128], out[128];
    snprintf(input, sizeof input, "%s/big.p3m", dir);
    snprintf(out, sizeof out, "%s/page.html", dir);
    big_p3m(input, 60000);
    static const int signals[] = {SIGTERM, SIGINT, SIGHUP};
    for (size_t i = 0; i < 3; i++) {
        FILE *f = fopen(out, "w");
        cr_assert_not_null(f);
        fputs("the old page", f);
        fclose(f);
        int status = signal_during_save(dir, out, input, signals[i]);
        cr_assert_neq(status, -1, "signal %d: the save ended before it could be interrupted", signals[i]);
        cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == signals[i], "signal %d: status 0x%x", signals[i], status);
        cr_expect_eq(names_with(dir, ".tmp"), 0, "signal %d: a temporary file is left", signals[i]);
        char *page = read_all(out);
        cr_expect(page && (strcmp(page, "the old page") == 0 || strstr(page, "</html>")), "signal %d: a part page",
                  signals[i]);
        free(page);
    }
    test_remove_tree(dir);
}

/* A file size limit reached while the page is written (SIGXFSZ, or EFBIG when it is ignored):
 * no temporary, the old page kept. */
Test(outputs, a_file_size_limit_during_a_save_leaves_no_temporary)
{
    char *dir = test_temp_dir("fs");
    char input[128], out[128];
    snprintf(input, sizeof input, "%s/big.p3m", dir);
    snprintf(out, sizeof out, "%s/page.html", dir);
    big_p3m(input, 20000);
    for (int ignored = 0; ignored < 2; ignored++) {
        FILE *f = fopen(out, "w");
        cr_assert_not_null(f);
        fputs("the old page", f);
        fclose(f);
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "%s ulimit -f 100; exec %s explain --html '%s' '%s' 2>/dev/null",
                 ignored ? "trap '' XFSZ;" : "", BINFORM, out, input);
        int status = system(cmd);
        if (ignored)
            cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 2, "EFBIG: status 0x%x", status);
        else
            cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ, "SIGXFSZ: status 0x%x", status);
        cr_expect_eq(names_with(dir, ".tmp"), 0, "%s: a temporary file is left", ignored ? "EFBIG" : "SIGXFSZ");
        char *page = read_all(out);
        cr_expect(page && strcmp(page, "the old page") == 0, "the old page was replaced");
        free(page);
    }
    test_remove_tree(dir);
}

/* ---- inputs: special files beside a model, huge files ---- */

/* A FIFO named like the animation's stream or a texture beside the model: render refuses it
 * (it is not a file) instead of waiting forever for a writer. `timeout` turns a hang into 124. */
Test(inputs, render_does_not_wait_on_a_fifo_beside_the_model)
{
    char *dir = test_temp_dir("fs");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cp " PYRAMID " '%s/pyramid.t3dm' && mkfifo '%s/pyramid.0.sdata' '%s/stone.i8.sprite'",
             dir, dir, dir);
    cr_assert_eq(system(cmd), 0);
    /* cli_run puts binform first: a harmless --version, then the command under timeout */
    cli_result *r = cli_runf("--version >/dev/null; timeout 60 %s render '%s/pyramid.t3dm' --anim spin -o '%s/a.png'",
                             BINFORM, dir, dir);
    cr_expect_eq(r->status, 1, "exit %d (124: it hung on the FIFO): %s", r->status, r->err);
    cr_expect(strstr(r->err, "pyramid.0.sdata") != NULL, "%s", r->err);
    snprintf(cmd, sizeof cmd, "rm '%s/pyramid.0.sdata' && cp " PYRAMID_STREAM " '%s/pyramid.0.sdata'", dir, dir);
    cr_assert_eq(system(cmd), 0);
    r = cli_runf("--version >/dev/null; timeout 60 %s render '%s/pyramid.t3dm' --anim spin -o '%s/b.png'", BINFORM, dir,
                 dir);
    cr_expect_eq(r->status, 0, "exit %d (124: it hung on the FIFO named like a texture): %s", r->status, r->err);
    test_remove_tree(dir);
}

/* The peak memory (KiB) of binform running `args` (a shell command line after the binary). */
static long peak_kib(const char *args, int *status)
{
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "exec %s %s >/dev/null 2>&1", BINFORM, args);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int raw;
    struct rusage ru;
    cr_assert_eq(wait4(pid, &raw, 0, &ru), pid);
    *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return ru.ru_maxrss;
}

/* A 1 GiB sparse file (a real model, then a hole): check maps it and touches only what it
 * reads; explain refuses it up front; a file over 4 GiB is refused with a clear message. */
Test(inputs, a_huge_sparse_file_costs_what_is_read)
{
    char *dir = test_temp_dir("fs");
    char path[256], args[1024];
    snprintf(path, sizeof path, "%s/huge.t3dm", dir);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cp " PYRAMID " '%s' && truncate -s 1G '%s'", path, path);
    cr_assert_eq(system(cmd), 0);
    int status;
    snprintf(args, sizeof args, "check --no-set '%s'", path);
    long kib = peak_kib(args, &status);
    cr_expect(status == 0 || status == 1, "check: exit %d", status);
    cr_expect_lt(kib, 256 * 1024, "check of a 1 GiB sparse file peaked at %ld KiB", kib);
    snprintf(args, sizeof args, "explain --html '%s/page.html' '%s'", dir, path);
    kib = peak_kib(args, &status);
    cr_expect_eq(status, 2, "explain: exit %d", status);
    cr_expect_lt(kib, 256 * 1024, "explain of a 1 GiB sparse file peaked at %ld KiB", kib);
    cli_result *r = cli_runf("explain '%s'", path);
    cr_expect(strstr(r->err, "more than its limit") != NULL, "%s", r->err);
    snprintf(cmd, sizeof cmd, "truncate -s 5G '%s'", path);
    cr_assert_eq(system(cmd), 0);
    r = cli_runf("check '%s'", path);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "larger than binform reads") != NULL, "%s", r->err);
    test_remove_tree(dir);
}

/* ---- check -r: what a walk cannot read is reported ---- */

/* A tree with a good file, a dangling link, a loop of links and a folder so deep that its path
 * is longer than PATH_MAX: each unreadable path is a line of its own, counted, and exit 2. */
Test(walk, unreadable_paths_are_reported_and_counted)
{
    char *dir = test_temp_dir("fs");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && cp " PYRAMID " a.t3dm && ln -s nowhere.t3dm dangling.t3dm && ln -s loop loop",
             dir);
    cr_assert_eq(system(cmd), 0);
    /* deep/xxx.../xxx.../...: made one level at a time, relative to the last (mkdirat) */
    char name[201];
    memset(name, 'd', 200);
    name[200] = '\0';
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    cr_assert_geq(fd, 0);
    for (int level = 0; level < 25; level++) {
        cr_assert_eq(mkdirat(fd, name, 0755), 0);
        int next = openat(fd, name, O_RDONLY | O_DIRECTORY);
        cr_assert_geq(next, 0);
        close(fd);
        fd = next;
    }
    close(fd);
    cli_result *r = cli_runf("check -r --no-set --json-lines '%s'", dir);
    cr_expect_eq(r->status, 2, "exit %d: %s", r->status, r->err);
    cr_expect_eq(count_lines(r->out), 4, "a line for a.t3dm, the dangling link, the loop, the deep path:\n%s", r->out);
    cr_expect(strstr(r->out, "\"status\":\"valid\"") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "a symbolic link to nothing") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "a loop of symbolic links") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "longer than the system allows") != NULL, "%s", r->out);
    cr_expect(strstr(r->err, "1 valid, 0 invalid, 3 unreadable") != NULL, "%s", r->err);
    /* the plain report says the same on standard error */
    r = cli_runf("check -r --no-set '%s'", dir);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "dangling.t3dm: error: cannot read it: a symbolic link to nothing") != NULL, "%s", r->err);
    /* and info -r */
    r = cli_runf("info -r '%s'", dir);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "loop: error: cannot read it: a loop of symbolic links") != NULL, "%s", r->err);
    test_remove_tree(dir);
}

/* ---- render draws only what check accepts ---- */

/* The pyramid's stream with its first keyframe on channel 100 (it has one): check rejects the
 * set, so render refuses to draw the animation with it, says why, and writes no picture. The
 * rest pose reads no stream: it is still drawn. */
Test(render, an_animation_check_rejects_is_not_drawn)
{
    char *dir = test_temp_dir("fs");
    char cmd[1024];
    /* big-endian u16 at byte 2: the first keyframe's channel */
    snprintf(cmd, sizeof cmd,
             "cp " PYRAMID " " PYRAMID_STREAM " '%s' && printf '\\000\\144' | dd of='%s/pyramid.0.sdata' bs=1 seek=2 "
             "conv=notrunc 2>/dev/null",
             dir, dir);
    cr_assert_eq(system(cmd), 0);
    cli_result *r = cli_runf("check '%s/pyramid.t3dm'", dir);
    cr_assert_eq(r->status, 1, "check accepts the broken stream: %s", r->out);
    cr_assert(strstr(r->out, "[pyramid.0.sdata] keyframes[0].channel @0x2: 100 is not below") != NULL, "%s", r->out);
    r = cli_runf("render '%s/pyramid.t3dm' --anim spin --time 0.25 -o '%s/a.png'", dir, dir);
    cr_expect_eq(r->status, 1, "exit %d: %s", r->status, r->err);
    cr_expect(strstr(r->err, "[pyramid.0.sdata] keyframes[0].channel @0x2: 100 is not below") != NULL, "%s", r->err);
    char png[256];
    snprintf(png, sizeof png, "%s/a.png", dir);
    cr_expect_neq(access(png, F_OK), 0, "a picture was written");
    r = cli_runf("render '%s/pyramid.t3dm' -o '%s/rest.png'", dir, dir);
    cr_expect_eq(r->status, 0, "the rest pose: %s", r->err);
    test_remove_tree(dir);
}

/* ---- explain --html: a page bounded by the file ---- */

/* A J3D model of 47 KB has 18 000 fields: their labels are data the page turns into markup as
 * branches open, not markup (the page was 5.4 MB, 115 bytes per byte of the file, and the
 * browser built every label before it showed anything). */
Test(explain_page, the_page_is_a_small_multiple_of_the_file)
{
    REQUIRE_SAMPLES();
    char *dir = test_temp_dir("fs");
    const char *model = sample_path("bmd/stone_ia8.bdl");
    cli_result *r = cli_runf("explain --html '%s/page.html' '%s'", dir, model);
    cr_assert_eq(r->status, 0, "%s", r->err);
    char page[256];
    snprintf(page, sizeof page, "%s/page.html", dir);
    struct stat in, out;
    cr_assert_eq(stat(model, &in), 0);
    cr_assert_eq(stat(page, &out), 0);
    cr_expect_lt(out.st_size, 40 * in.st_size, "a %lld-byte page for a %lld-byte file", (long long)out.st_size,
                 (long long)in.st_size);
    test_remove_tree(dir);
}
