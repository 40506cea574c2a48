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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"
#include "samples.h"

/* A fresh temporary directory. */
static char *temp_dir(void)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/binform_fs_XXXXXX");
    cr_assert_not_null(mkdtemp(path));
    return path;
}

static void remove_tree(const char *dir)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

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
        cr_expect(strstr(r->err, "cannot write standard output") != NULL, "%s: %s", commands[i], r->err);
    }
}

/* A walk's report larger than any buffer stops at the first failed write: exit 2. */
Test(outputs, full_disk_stops_a_long_check_report)
{
    char *dir = temp_dir();
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
    remove_tree(dir);
}
