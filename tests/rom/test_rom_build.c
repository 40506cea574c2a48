/* n64/rom/rom.mk: a console ROM image's objects depend on the model, stream and view they
 * embed. `make n64-rom-test ROM_SAMPLE=... ROM_SAMPLE_VIEW="Run 0.2 30 20"` once rebuilt
 * nothing and ran the old ROM. Asked with `make -q` in a build folder of its own (nothing is
 * compiled, no MIPS tools needed): the sample image's main.o, newer than its sources, is up to
 * date for the view it was made for, and out of date for another view or model. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli_run.h"

static char build[64];

/* `make -q` of the sample image's main.o with this model and view: 0 up to date, 1 not. */
static int question(const char *model, const char *stream, const char *view)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -q -C '%s' BUILD='%s' ROM_SAMPLE='%s' "
             "ROM_SAMPLE_STREAM='%s' ROM_SAMPLE_VIEW='%s' '%s/n64/rom/sample/main.o' > /dev/null 2>&1",
             BF_PROJECT_DIR, build, model, stream, view, build);
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void touch(const char *rel, const char *when)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s/%s')\" && touch -d '%s' '%s/%s'", build, rel, when, build, rel);
    cr_assert_eq(system(cmd), 0);
}

Test(rom_build, objects_follow_the_model_and_view_they_embed)
{
    snprintf(build, sizeof build, "/tmp/bf_rom_build_XXXXXX");
    cr_assert_not_null(mkdtemp(build));
    const char *view = "Bounce 0.4 120 10";
    cr_expect_eq(question(PYRAMID, PYRAMID_STREAM, view), 1, "no main.o yet");
    /* made a minute ago for this view, its sources older (they were compiled with the tests) */
    touch("n64/rom/sample/embeds", "-60 seconds");
    touch("n64/rom/sample/main.o", "-2 seconds");
    cr_expect_eq(question(PYRAMID, PYRAMID_STREAM, view), 0, "the same view: nothing to rebuild");
    cr_expect_eq(question(PYRAMID, PYRAMID_STREAM, "Run 0.2 30 20"), 1, "another view rebuilds main.o");
    touch("n64/rom/sample/embeds", "-60 seconds");
    cr_expect_eq(question(PYRAMID, PYRAMID_STREAM, "Run 0.2 30 20"), 0, "and then it is up to date");
    /* another model, as old as the first: still rebuilt */
    cr_expect_eq(question(PYRAMID_STREAM, PYRAMID_STREAM, "Run 0.2 30 20"), 1, "another model rebuilds main.o");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", build);
    cr_expect_eq(system(cmd), 0);
}
