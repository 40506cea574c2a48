/* File sets (schema key `members`): binform check reads a model with the files its schema says
 * belong with it (T3DM animation streams, a TMD's keyframe library and material libraries) and
 * checks across them. */
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

/* A fresh temporary folder, inside one of its own so that the '../' of the schemas' name
 * patterns stays in it; the path is static, one per test process. */
static const char *temp_dir(void)
{
    static char dir[64];
    snprintf(dir, sizeof dir, "/tmp/bf_file_sets_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    strcat(dir, "/set");
    cr_assert_eq(mkdir(dir, 0700), 0);
    return dir;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* Removes a folder made by temp_dir, the one around it and everything in them. */
static void remove_dir(const char *dir)
{
    char outer[64];
    snprintf(outer, sizeof outer, "%s", dir);
    char *slash = strrchr(outer, '/');
    if (slash && strcmp(slash, "/set") == 0)
        *slash = '\0';
    nftw(outer, remove_one, 8, FTW_DEPTH | FTW_PHYS);
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
                                         "tmd/plant.tmd", "tmd/snake.tmd", "tmd/box.tmd"};
    for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
        cli_result *r = cli_runf("check '%s'", sample_path(models[i]));
        cr_expect_eq(r->status, 0, "%s: %s%s", models[i], r->out, r->err);
        cr_expect(strstr(r->out, "error") == NULL, "%s: %s", models[i], r->out);
    }
    static const char *const folders[] = {"t3dm", "tmd"};
    for (size_t i = 0; i < sizeof folders / sizeof *folders; i++) {
        cli_result *r = cli_runf("check -q -r '%s'", sample_path(folders[i]));
        cr_expect_eq(r->status, 0, "%s: %s%s", folders[i], r->out, r->err);
        cr_expect_str_eq(r->out, "");
    }
}

/* The samples' TMDs find their material libraries in ../tml (plant's five names are in
 * formats_mixed.tml, snake's one in basic_rgba.tml); box's material is in neither. Nothing in
 * the model names its libraries, so that is a warning (tmd.yaml's `severity: warning`). */
Test(file_sets, the_sample_box_names_a_material_no_library_has)
{
    REQUIRE_SAMPLES();
    cli_result *r = cli_runf("check '%s'", sample_path("tmd/box.tmd"));
    cr_expect_eq(r->status, 0, "a warning: %s%s", r->out, r->err);
    cr_expect(strstr(r->out, "box.tmd: warning: lod.levels[0].meshes[0].material @0x19c: 'StoneFloor_F3d' is not among the 7 "
                             "of member.material_names in basic_rgba.tml, formats_mixed.tml (ignoring case)") != NULL,
              "%s", r->out);
    /* the model's own magic-value warning and this one; the libraries' warnings are theirs */
    cr_expect_eq(count_lines(r->out), 2, "%s", r->out);
    r = cli_runf("check --json '%s'", sample_path("tmd/box.tmd"));
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "\"severity\":\"warning\",\"path\":\"lod.levels[0].meshes[0].material\"") != NULL, "%s", r->out);
    r = cli_runf("check -q '%s'", sample_path("tmd/box.tmd"));
    cr_expect_str_eq(r->out, "", "no errors to print");
}

Test(file_sets, a_stream_beyond_the_sample_animations_is_an_orphan)
{
    REQUIRE_SAMPLES();
    const char *dir = temp_dir();
    copy_snake_set(dir, -1);
    copy_sample("t3dm/08_animation/snake.4.sdata", dir, "snake.5.sdata", 0, NULL, 0);
    cli_result *r = cli_runf("check %s/snake.t3dm", dir);
    cr_expect_eq(r->status, 0, "a warning: %s%s", r->out, r->err);
    char want[512];
    snprintf(want, sizeof want, "snake.t3dm: warning: (file) @0x0: orphan stream file '%s/snake.5.sdata': it matches "
                                "'{stem}.{n}.sdata' but no Animation claims it (there are 5: n from 0 to 4)", dir);
    cr_expect(strstr(r->out, want) != NULL, "%s", r->out);
    cr_expect_eq(count_lines(r->out), 1, "%s", r->out);
    remove_dir(dir);
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
    /* beside the model, the library is found (the material libraries are still missing) */
    copy_sample("tkl/box.tkl", dir, "box.tkl", 0, NULL, 0);
    r = cli_runf("check %s/box.tmd", dir);
    cr_expect(strstr(r->out, "missing library") == NULL, "%s", r->out);
    cr_expect(strstr(r->out, "missing materials") != NULL, "%s", r->out);
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

/* ---- the project's own Toshi set (tests/fixtures/toshi), with or without ../shared ---- */

/* Builds tests/fixtures/toshi/JSON into dir/OUT with binform build. */
static void build_fixture(const char *json, const char *dir, const char *out, int keep_layout)
{
    cli_result *r = cli_runf("build %s %s/tests/fixtures/toshi/%s -o %s/%s", keep_layout ? "--keep-layout" : "", BF_PROJECT_DIR,
                             json, dir, out);
    cr_assert_eq(r->status, 0, "%s: %s%s", json, r->out, r->err);
}

static void make_dir(const char *dir, const char *sub)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    cr_assert_eq(mkdir(path, 0700), 0, "%s", path);
}

static void remove_file(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cr_assert_eq(remove(path), 0, "%s", path);
}

/* The quad model and its keyframe library in dir/models, the two material libraries in
 * dir/tml (the samples' layout: a folder per kind, side by side). */
static void build_quad_set(const char *dir)
{
    make_dir(dir, "models");
    make_dir(dir, "tml");
    build_fixture("quad.tmd.json", dir, "models/quad.tmd", 1);
    build_fixture("quad.tkl.json", dir, "models/quad.tkl", 0);
    build_fixture("rock.tml.json", dir, "tml/rock.tml", 0);
    build_fixture("moss.tml.json", dir, "tml/moss.tml", 0);
}

Test(file_sets, every_material_name_is_in_one_of_the_libraries)
{
    const char *dir = temp_dir();
    build_quad_set(dir);
    /* 'Rock' is in rock.tml as 'ROCK', 'moss' in moss.tml */
    cli_result *r = cli_runf("check %s/models/quad.tmd", dir);
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    cr_expect_str_eq(r->out, "");
    r = cli_runf("check -r %s/tml", dir);
    cr_expect_eq(r->status, 0, "the libraries alone: %s%s", r->out, r->err);
    remove_dir(dir);
}

Test(file_sets, a_material_name_no_library_has_is_reported_at_the_mesh)
{
    const char *dir = temp_dir();
    build_quad_set(dir);
    remove_file(dir, "tml/moss.tml");
    cli_result *r = cli_runf("check %s/models/quad.tmd", dir);
    cr_expect_eq(r->status, 0, "a warning: %s%s", r->out, r->err);
    cr_expect(strstr(r->out, "quad.tmd: warning: lod.levels[0].meshes[1].material @0x22e: 'moss' is not among the 1 of "
                             "member.material_names in rock.tml (ignoring case)") != NULL,
              "%s", r->out);
    cr_expect_eq(count_lines(r->out), 1, "'Rock' is found: %s", r->out);
    /* alone, the model has nothing to compare its names with */
    r = cli_runf("check --no-set %s/models/quad.tmd", dir);
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    remove_dir(dir);
}

Test(file_sets, a_matlibs_folder_comes_before_the_others)
{
    const char *dir = temp_dir();
    build_quad_set(dir);
    /* the game's layout: ../matlibs beside the models' folder; only rock.tml there */
    make_dir(dir, "matlibs");
    build_fixture("rock.tml.json", dir, "matlibs/rock.tml", 0);
    cli_result *r = cli_runf("check %s/models/quad.tmd", dir);
    cr_expect_eq(r->status, 0, "a warning: %s%s", r->out, r->err);
    cr_expect(strstr(r->out, "warning: lod.levels[0].meshes[1].material @0x22e: 'moss' is not among the 1 of "
                             "member.material_names in rock.tml") != NULL, "%s", r->out);
    /* beside the model, when no library folder is there */
    remove_file(dir, "matlibs/rock.tml");
    remove_file(dir, "tml/rock.tml");
    remove_file(dir, "tml/moss.tml");
    build_fixture("rock.tml.json", dir, "models/rock.tml", 0);
    build_fixture("moss.tml.json", dir, "models/moss.tml", 0);
    r = cli_runf("check %s/models/quad.tmd", dir);
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    remove_dir(dir);
}

Test(file_sets, no_material_library_is_a_finding)
{
    const char *dir = temp_dir();
    build_quad_set(dir);
    remove_file(dir, "tml/moss.tml");
    remove_file(dir, "tml/rock.tml");
    cli_result *r = cli_runf("check %s/models/quad.tmd", dir);
    cr_expect_eq(r->status, 1, "%s%s", r->out, r->err);
    char want[1024];
    snprintf(want, sizeof want, "quad.tmd: error: (file) @0x0: missing materials: no file '%s/models/../matlibs/*.tml' or "
                                "'%s/models/../tml/*.tml' or '%s/models/*.tml'", dir, dir, dir);
    cr_expect(strstr(r->out, want) != NULL, "%s", r->out);
    cr_expect_eq(count_lines(r->out), 1, "%s", r->out);
    remove_dir(dir);
}

Test(file_sets, a_library_that_does_not_read_is_a_finding)
{
    const char *dir = temp_dir();
    build_quad_set(dir);
    char path[512];
    snprintf(path, sizeof path, "%s/tml/broken.tml", dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fputs("TML1", f); /* the magic, then nothing */
    fclose(f);
    cli_result *r = cli_runf("check %s/models/quad.tmd", dir);
    cr_expect_eq(r->status, 1, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "quad.tmd: error: [broken.tml] ") != NULL, "%s", r->out);
    cr_expect_eq(count_lines(r->out), 1, "the other two libraries still hold the names: %s", r->out);
    remove_dir(dir);
}

/* Streams numbered beyond the pyramid's one animation belong to nothing: a warning each;
 * names of another shape, or of another model, are not the pyramid's. */
Test(file_sets, orphan_streams_of_the_demo_pyramid)
{
    const char *dir = temp_dir();
    copy_file(BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.t3dm", dir, "pyramid.t3dm", 0, NULL, 0);
    static const char *const streams[] = {"pyramid.0.sdata", "pyramid.1.sdata", "pyramid.07.sdata", "pyramid.x.sdata",
                                          "other.1.sdata"};
    for (size_t i = 0; i < sizeof streams / sizeof *streams; i++)
        copy_file(BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.0.sdata", dir, streams[i], 0, NULL, 0);
    cli_result *r = cli_runf("check %s/pyramid.t3dm", dir);
    cr_expect_eq(r->status, 0, "warnings only: %s%s", r->out, r->err);
    char want[512];
    snprintf(want, sizeof want, "pyramid.t3dm: warning: (file) @0x0: orphan stream file '%s/pyramid.07.sdata': it matches "
                                "'{stem}.{n}.sdata' but no Animation claims it (there are 1: n from 0 to 0)\n"
                                "%s/pyramid.t3dm: warning: (file) @0x0: orphan stream file '%s/pyramid.1.sdata'",
             dir, dir, dir);
    cr_expect(strstr(r->out, want) != NULL, "in name order:\n%s\n%s", want, r->out);
    cr_expect_eq(count_lines(r->out), 2, "%s", r->out);
    /* the claimed stream missing, an orphan beside it: both reported */
    remove_file(dir, "pyramid.0.sdata");
    r = cli_runf("check %s/pyramid.t3dm", dir);
    cr_expect_eq(r->status, 1, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "missing stream 0") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "pyramid.1.sdata") != NULL, "%s", r->out);
    remove_dir(dir);
}

/* How often `needle` occurs in `s`. */
static size_t occurrences(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* Models of one folder share their material libraries, which check -r reads once for the run:
 * every model still gets its own findings, a library that does not read included, whatever
 * the number of jobs. */
Test(file_sets, models_sharing_their_libraries_report_alike)
{
    const char *dir = temp_dir();
    build_quad_set(dir);
    remove_file(dir, "tml/moss.tml");
    char path[512], link_path[512];
    snprintf(path, sizeof path, "%s/tml/broken.tml", dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fputs("TML1", f); /* the magic, then nothing */
    fclose(f);
    enum { MODELS = 12 };
    snprintf(path, sizeof path, "%s/models/quad.tmd", dir);
    for (int i = 0; i < MODELS - 1; i++) {
        snprintf(link_path, sizeof link_path, "%s/models/quad_%02d.tmd", dir, i);
        cr_assert_eq(link(path, link_path), 0);
    }
    cli_result *r = cli_runf("check %s/models/quad.tmd", dir);
    cr_expect_eq(r->status, 1, "%s%s", r->out, r->err);
    cr_expect_eq(count_lines(r->out), 2, "%s", r->out);
    cr_expect_eq(occurrences(r->out, "quad.tmd: error: [broken.tml] "), 1, "%s", r->out);

    r = cli_runf("check -r %s/models", dir);
    cr_expect_eq(r->status, 1, "%s%s", r->out, r->err);
    char *one_job = strdup(r->out);
    cr_assert_not_null(one_job);
    cr_expect_eq(count_lines(one_job), 2 * MODELS, "%s", one_job);
    cr_expect_eq(occurrences(one_job, ".tmd: error: [broken.tml] "), MODELS, "%s", one_job);
    cr_expect_eq(occurrences(one_job, ".tmd: warning: lod.levels[0].meshes[1].material @0x22e: 'moss' is not among the "
                                      "1 of member.material_names in rock.tml (ignoring case)\n"),
                 MODELS, "%s", one_job);
    cr_expect(strstr(r->err, "13 files: 1 valid, 12 invalid") != NULL, "the models and quad.tkl: %s", r->err);
    r = cli_runf("check --jobs 3 -r %s/models", dir);
    cr_expect_str_eq(r->out, one_job, "the same with three jobs");
    free(one_job);
    remove_dir(dir);
}

/* A stream must hold the keyframes its animation counts (t3dm.yaml: `count: member.keyframes`,
 * `equals: owner.keyframe_count`), not only channels below its channel counts: the pyramid's
 * animation at 0x80 says 3 keyframes (its u32 count at 0x88), and its stream holds 3. */
Test(file_sets, a_stream_holds_the_keyframes_its_animation_counts)
{
    const char *dir = temp_dir();
    copy_file(PYRAMID, dir, "pyramid.t3dm", 0, NULL, 0);
    copy_file(PYRAMID_STREAM, dir, "pyramid.0.sdata", 0, NULL, 0);
    cli_result *r = cli_runf("check %s/pyramid.t3dm", dir);
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    static const uint8_t many[] = {0, 0, 0x02, 0xE8}; /* 744 */
    copy_file(PYRAMID, dir, "pyramid.t3dm", 0x88, many, sizeof many);
    r = cli_runf("check %s/pyramid.t3dm", dir);
    cr_expect_eq(r->status, 1, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "error: [pyramid.0.sdata] keyframes @0x0: 3 of member.keyframes, but owner.keyframe_count = "
                             "744 of Animation chunk_data[1].body") != NULL,
              "%s", r->out);
    remove_dir(dir);
}

/* Another model's stream saved under this model's name: its channels may all be in range, its
 * keyframes are not the animation's. */
Test(file_sets, another_models_stream_is_found_out)
{
    REQUIRE_SAMPLES();
    const char *dir = temp_dir();
    copy_snake_set(dir, 3);
    copy_sample("t3dm/11_segments/player.0.sdata", dir, "snake.3.sdata", 0, NULL, 0);
    cli_result *r = cli_runf("check %s/snake.t3dm", dir);
    cr_expect_eq(r->status, 1, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "error: [snake.3.sdata] keyframes @0x0: ") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "of member.keyframes, but owner.keyframe_count = 407 of Animation") != NULL, "%s", r->out);
    remove_dir(dir);
}
