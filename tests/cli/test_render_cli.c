/* binform render: pictures of the project's own models, options, and bad
 * input (a lying count, a truncated file, an unknown animation): a clear
 * error, a non-zero exit, no PNG written and an existing one left intact. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"
#include "samples.h"

/* One picture path per test process: the tests run in parallel. */
static char out_path[64];
#define OUT out_path

static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

/* Width and height from the PNG's IHDR; false if it is not a PNG. */
static bool png_size(const char *path, unsigned *w, unsigned *h)
{
    uint8_t *d;
    size_t n;
    if (!load_file(path, &d, &n))
        return false;
    bool ok = n > 24 && memcmp(d, png_signature, 8) == 0 && memcmp(d + 12, "IHDR", 4) == 0;
    if (ok) {
        *w = (unsigned)d[16] << 24 | (unsigned)d[17] << 16 | (unsigned)d[18] << 8 | d[19];
        *h = (unsigned)d[20] << 24 | (unsigned)d[21] << 16 | (unsigned)d[22] << 8 | d[23];
    }
    free(d);
    return ok;
}

static void fresh(void)
{
    snprintf(out_path, sizeof out_path, "/tmp/binform_render_%ld.png", (long)getpid());
    unlink(OUT);
}
static void cleanup(void) { unlink(OUT); }
TestSuite(render_cli, .init = fresh, .fini = cleanup);

Test(render_cli, draws_the_pyramid_and_its_animation)
{
    char args[512];
    snprintf(args, sizeof args, "render " PYRAMID " -o %s --size 160x120 --stats", OUT);
    cli_result *r = cli_run(args);
    cr_assert_eq(r->status, 0, "%s%s", r->out, r->err);
    unsigned w = 0, h = 0;
    cr_assert(png_size(OUT, &w, &h));
    cr_expect_eq(w, 160);
    cr_expect_eq(h, 120);
    cr_expect(strstr(r->out, "picture saved to") != NULL && strstr(r->out, OUT) != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "triangles drawn") != NULL, "%s", r->out);
    /* the pyramid's stream lies beside it: its animation poses the skeleton */
    snprintf(args, sizeof args, "render " PYRAMID " -o %s --anim spin --time 0.25 --yaw 90 --pitch 40 --distance 1.5",
             OUT);
    r = cli_run(args);
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
}

Test(render_cli, help_and_usage_errors)
{
    cli_result *r = cli_run("render --help");
    cr_expect_eq(r->status, 0);
    cr_expect(strstr(r->out, "usage: binform render MODEL.t3dm") != NULL, "%s", r->out);
    const char *bad[] = {"render", "render " PYRAMID " --size 0x10", "render " PYRAMID " --size big",
                         "render " PYRAMID " --distance -1", "render " PYRAMID " --shading wireframe",
                         "render " PYRAMID " --yaw", "render " PYRAMID " --frobnicate",
                         "render " PYRAMID " " PYRAMID};
    /* they write nowhere: the default output would be pyramid.png here */
    cr_assert_eq(chdir("/tmp"), 0);
    unlink("/tmp/pyramid.png");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = cli_run(bad[i]);
        cr_expect_eq(r->status, 2, "%s: exit %d", bad[i], r->status);
        cr_expect(r->err[0] != '\0', "%s: nothing said", bad[i]);
    }
    cr_expect_eq(access("/tmp/pyramid.png", F_OK), -1, "no picture for a usage error");
}

/* Writes a picture that a failing render must leave alone. */
static void existing_picture(void)
{
    FILE *f = fopen(OUT, "wb");
    cr_assert_not_null(f);
    fputs("the previous picture", f);
    fclose(f);
}

static void expect_existing_picture_intact(void)
{
    uint8_t *d;
    size_t n;
    cr_assert(load_file(OUT, &d, &n));
    cr_expect(n == 20 && memcmp(d, "the previous picture", 20) == 0, "the old picture was replaced");
    free(d);
}

static void lying_vertex_count(uint8_t *d)
{
    d[0x08] = 0x7F; /* header: total vertex count far beyond the vertex chunk */
    d[0x09] = 0xF0;
}

Test(render_cli, a_lying_count_is_refused_with_its_field)
{
    existing_picture();
    char args[512];
    snprintf(args, sizeof args, "render %s -o %s", fixture_copy(PYRAMID, ".t3dm", lying_vertex_count), OUT);
    cli_result *r = cli_run(args);
    cr_expect_eq(r->status, 1, "%s", r->err);
    cr_expect(strstr(r->err, "error:") != NULL && strstr(r->err, "@0x") != NULL, "no field and offset: %s", r->err);
    expect_existing_picture_intact();
}

Test(render_cli, a_truncated_file_is_refused)
{
    uint8_t *d;
    size_t n;
    cr_assert(load_file(PYRAMID, &d, &n));
    char path[] = "/tmp/binform_truncated_XXXXXX.t3dm";
    int fd = mkstemps(path, 5);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, d, n / 2), (ssize_t)(n / 2));
    close(fd);
    free(d);
    char args[512];
    snprintf(args, sizeof args, "render %s -o %s", path, OUT);
    cli_result *r = cli_run(args);
    unlink(path);
    cr_expect_eq(r->status, 1, "%s", r->err);
    cr_expect(strstr(r->err, path) != NULL && strstr(r->err, "@0x") != NULL, "%s", r->err);
    cr_expect_eq(access(OUT, F_OK), -1, "a picture was written");
}

Test(render_cli, an_unknown_animation_is_named)
{
    existing_picture();
    char args[512];
    snprintf(args, sizeof args, "render " PYRAMID " -o %s --anim no_such_thing", OUT);
    cli_result *r = cli_run(args);
    cr_expect_eq(r->status, 1);
    cr_expect(strstr(r->err, "no animation named 'no_such_thing' (the model has: spin)") != NULL, "%s", r->err);
    expect_existing_picture_intact();
}

Test(render_cli, a_missing_stream_is_named)
{
    /* the model alone, in a folder without its .sdata */
    char args[512];
    snprintf(args, sizeof args, "render %s -o %s --anim spin", fixture_copy(PYRAMID, ".t3dm", NULL), OUT);
    cli_result *r = cli_run(args);
    cr_expect_eq(r->status, 1);
    cr_expect(strstr(r->err, "pyramid.0.sdata, are not beside the model") != NULL, "%s", r->err);
    cr_expect_eq(access(OUT, F_OK), -1);
}

Test(render_cli, an_unwritable_output_keeps_nothing_half_written)
{
    cli_result *r = cli_run("render " PYRAMID " -o /nonexistent/folder/out.png");
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "/nonexistent/folder/out.png") != NULL, "%s", r->err);
}

Test(render_cli, every_sample_model_is_drawn)
{
    REQUIRE_SAMPLES();
    const char *models[] = {"t3dm/01_model/model.t3dm", "t3dm/07_skeleton/chicken.t3dm", "t3dm/08_animation/snake.t3dm",
                            "t3dm/11_segments/player.t3dm", "t3dm/12_uv_gen/teapot.t3dm",
                            "t3dm/17_culling/platformer.t3dm", "t3dm/18_particles/scene.t3dm"};
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        char args[1024];
        snprintf(args, sizeof args, "render %s -o %s --size 96x72", sample_path(models[i]), OUT);
        cli_result *r = cli_run(args);
        cr_expect_eq(r->status, 0, "%s: %s", models[i], r->err);
        unsigned w, h;
        cr_expect(png_size(OUT, &w, &h) && w == 96 && h == 72, "%s", models[i]);
    }
    char args[1024];
    snprintf(args, sizeof args, "render %s -o %s --anim Snake_Attack --time 0.5 --size 96x72",
             sample_path("t3dm/08_animation/snake.t3dm"), OUT);
    cli_result *r = cli_run(args);
    cr_expect_eq(r->status, 0, "%s", r->err);
}
