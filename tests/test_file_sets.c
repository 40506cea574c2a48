/* File sets (schema key `members`): binform check reads a model with the files its schema says
 * belong with it (T3DM animation streams, a TMD's keyframe library) and checks across them. */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"
#include "samples.h"

/* A fresh temporary folder; the path is static, one per test process. */
static const char *temp_dir(void)
{
    static char dir[64];
    snprintf(dir, sizeof dir, "/tmp/bf_file_sets_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    return dir;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* Removes a folder made by temp_dir and everything in it. */
static void remove_dir(const char *dir)
{
    nftw(dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* Copies the file `src` into `dir/name`, then writes `patch` (n bytes) at `at` when n > 0. */
static void copy_file(const char *src, const char *dir, const char *name, long at, const void *patch, size_t n)
{
    uint8_t *data;
    size_t size;
    cr_assert(load_file(src, &data, &size), "cannot read %s", src);
    if (n) {
        cr_assert((size_t)at + n <= size);
        memcpy(data + at, patch, n);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot write %s", path);
    cr_assert_eq(fwrite(data, 1, size, f), size);
    fclose(f);
    free(data);
}

/* The same for a file of ../shared/samples. */
static void copy_sample(const char *rel, const char *dir, const char *name, long at, const void *patch, size_t n)
{
    copy_file(sample_path(rel), dir, name, at, patch, n);
}

/* The snake model of the tiny3d animation example and its five streams, into `dir`,
 * except stream `skip` (-1: none). */
static void copy_snake_set(const char *dir, int skip)
{
    copy_sample("t3dm/08_animation/snake.t3dm", dir, "snake.t3dm", 0, NULL, 0);
    for (int i = 0; i < 5; i++) {
        char rel[128], name[64];
        snprintf(rel, sizeof rel, "t3dm/08_animation/snake.%d.sdata", i);
        snprintf(name, sizeof name, "snake.%d.sdata", i);
        if (i != skip)
            copy_sample(rel, dir, name, 0, NULL, 0);
    }
}

Test(file_sets, real_sets_are_clean)
{
    REQUIRE_SAMPLES();
    static const char *const models[] = {"t3dm/08_animation/snake.t3dm", "t3dm/11_segments/player.t3dm",
                                         "tmd/box.tmd", "tmd/plant.tmd", "tmd/snake.tmd"};
    for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
        cli_result *r = cli_runf("check '%s'", sample_path(models[i]));
        cr_expect_eq(r->status, 0, "%s: %s%s", models[i], r->out, r->err);
        cr_expect(strstr(r->out, "error") == NULL, "%s: %s", models[i], r->out);
    }
    cli_result *r = cli_runf("check -q -r '%s' '%s'", sample_path("t3dm"), sample_path("tmd"));
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    cr_expect_str_eq(r->out, "");
}

Test(file_sets, wrong_stream_channel_is_reported)
{
    REQUIRE_SAMPLES();
    const char *dir = temp_dir();
    copy_snake_set(dir, -1);
    static const uint8_t channel_99[] = {0x00, 0x63}; /* big-endian u16 at byte 2: the first keyframe's channel */
    copy_sample("t3dm/08_animation/snake.1.sdata", dir, "snake.1.sdata", 2, channel_99, 2);
    cli_result *r = cli_runf("check %s/snake.t3dm", dir);
    cr_expect_eq(r->status, 1, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "snake.t3dm: error: [snake.1.sdata] keyframes[0].channel @0x2: 99 is not below "
                             "owner.quat_channel_count + owner.scalar_channel_count = 22 of Animation chunk_data[2].body; "
                             "1 value out of range") != NULL, "%s", r->out);
    cr_expect_eq(count_lines(r->out), 1, "%s", r->out);
    /* alone, the stream has nothing to compare its channels with */
    r = cli_runf("check --no-set %s/snake.t3dm %s/snake.1.sdata", dir, dir);
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    remove_dir(dir);
}

Test(file_sets, missing_stream_is_reported)
{
    REQUIRE_SAMPLES();
    const char *dir = temp_dir();
    copy_snake_set(dir, 3);
    cli_result *r = cli_runf("check %s/snake.t3dm", dir);
    cr_expect_eq(r->status, 1, "%s%s", r->out, r->err);
    char want[512];
    snprintf(want, sizeof want, "snake.t3dm: error: chunk_data[4].body @0x7c8: missing stream 3: no file '%s/snake.3.sdata'", dir);
    cr_expect(strstr(r->out, want) != NULL, "%s", r->out);
    cr_expect_eq(count_lines(r->out), 1, "%s", r->out);
    remove_dir(dir);
}

Test(file_sets, no_set_checks_the_file_alone)
{
    REQUIRE_SAMPLES();
    const char *dir = temp_dir();
    copy_snake_set(dir, 0);
    copy_sample("tmd/box.tmd", dir, "box.tmd", 0, NULL, 0);
    cli_result *r = cli_runf("check --no-set %s/snake.t3dm %s/box.tmd", dir, dir);
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "missing") == NULL, "%s", r->out);
    r = cli_runf("check --json-lines %s/snake.t3dm", dir);
    cr_expect_eq(r->status, 1, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "missing stream 0") != NULL, "%s", r->out);
    remove_dir(dir);
}

Test(file_sets, tmd_without_its_library_is_reported)
{
    REQUIRE_SAMPLES();
    const char *dir = temp_dir();
    copy_sample("tmd/box.tmd", dir, "box.tmd", 0, NULL, 0);
    cli_result *r = cli_runf("check %s/box.tmd", dir);
    cr_expect_eq(r->status, 1, "%s%s", r->out, r->err);
    char want[512];
    snprintf(want, sizeof want, "missing library: no file '%s/box.tkl' or '%s/../tkl/box.tkl'", dir, dir);
    cr_expect(strstr(r->out, want) != NULL, "%s", r->out);
    /* beside the model, the library is found and the set is clean */
    copy_sample("tkl/box.tkl", dir, "box.tkl", 0, NULL, 0);
    r = cli_runf("check %s/box.tmd", dir);
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    remove_dir(dir);
}

Test(file_sets, keys_beyond_the_library_are_reported)
{
    REQUIRE_SAMPLES();
    const char *dir = temp_dir();
    char sub[512];
    snprintf(sub, sizeof sub, "%s/tmd", dir);
    cr_assert_eq(mkdir(sub, 0700), 0);
    snprintf(sub, sizeof sub, "%s/tkl", dir);
    cr_assert_eq(mkdir(sub, 0700), 0);
    copy_sample("tmd/snake.tmd", dir, "tmd/snake.tmd", 0, NULL, 0);
    static const uint8_t two_positions[] = {2, 0, 0, 0}; /* little-endian u32 position_count at byte 28 */
    copy_sample("tkl/snake.tkl", dir, "tkl/snake.tkl", 28, two_positions, 4);
    cli_result *r = cli_runf("check %s/tmd/snake.tmd", dir);
    cr_expect_eq(r->status, 1, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, ".translation_key @0x") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "is not below member.position_count = 2") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "is not below member.position_count = 2 in snake.tkl; ") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "rotation_key") == NULL, "rotations are in range: %s", r->out);
    remove_dir(dir);
}

/* The project's own model and its stream (tests/fixtures/demo): the set is checked with or
 * without ../shared. The pyramid's one animation, spin, has one rotation channel. */
Test(file_sets, the_demo_pyramid_and_its_stream)
{
    const char *dir = temp_dir();
    copy_file(BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.t3dm", dir, "pyramid.t3dm", 0, NULL, 0);
    cli_result *r = cli_runf("check %s/pyramid.t3dm", dir);
    cr_expect_eq(r->status, 1, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "missing stream 0") != NULL, "%s", r->out);
    copy_file(BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.0.sdata", dir, "pyramid.0.sdata", 0, NULL, 0);
    r = cli_runf("check %s/pyramid.t3dm", dir);
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    static const uint8_t channel_1[] = {0x00, 0x01}; /* big-endian u16 at byte 2: the first keyframe's channel */
    copy_file(BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.0.sdata", dir, "pyramid.0.sdata", 2, channel_1, 2);
    r = cli_runf("check %s/pyramid.t3dm", dir);
    cr_expect_eq(r->status, 1, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "[pyramid.0.sdata] keyframes[0].channel @0x2: 1 is not below") != NULL, "%s", r->out);
    remove_dir(dir);
}
