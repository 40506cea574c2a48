/* The binform command: exit codes, detection, check (text and JSON), dump, info. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"
#include "json_parse.h"
#include "samples.h"



Test(binform_cli, help_and_version)
{
    cli_result *r = cli_run("--help");
    cr_expect_eq(r->status, 0);
    cr_expect(strstr(r->out, "usage: binform COMMAND [OPTIONS] FILE...") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "  build ") != NULL, "every command listed: %s", r->out);
    r = cli_run("--version");
    cr_expect_eq(r->status, 0);
    cr_expect(strncmp(r->out, "binform ", 8) == 0, "%s", r->out);
}

Test(binform_cli, usage_errors_exit_2_on_stderr)
{
    cli_result *r = cli_run("");
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "usage: binform") != NULL);
    cr_expect_str_eq(r->out, "");
    r = cli_run("frobnicate " PYRAMID);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "unknown command 'frobnicate'") != NULL, "%s", r->err);
    r = cli_run("check --bogus " PYRAMID);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "unknown option '--bogus'") != NULL, "%s", r->err);
    r = cli_run("check");
    cr_expect_eq(r->status, 2);
    r = cli_run("check --format nosuch " PYRAMID);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "unknown format 'nosuch'") != NULL, "%s", r->err);
}

Test(binform_cli, io_errors_exit_2)
{
    cli_result *r = cli_run("check /nonexistent/model.t3dm");
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "/nonexistent/model.t3dm: error: cannot open") != NULL, "%s", r->err);
}

Test(binform_cli, valid_files_exit_0)
{
    cli_result *r = cli_run("check " PYRAMID " " PYRAMID_STREAM);
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    cr_expect_str_eq(r->out, "");
}

static void break_three_rules(uint8_t *d)
{
    d[0x139] = 7;                 /* fog mode: not a FogMode */
    d[0x76] = 0, d[0x77] = 5;     /* matrix index 5: only 2 bones */
    d[0x20] = 0, d[0x21] = 100;   /* header AABB min x 100 > max 64 */
}

Test(binform_cli, every_finding_is_reported)
{
    char *path = fixture_copy(PYRAMID, ".t3dm", break_three_rules);
    char args[256];
    snprintf(args, sizeof args, "check --no-set %s", path);
    cli_result *r = cli_run(args);
    cr_expect_eq(r->status, 1);
    cr_expect_eq(count_lines(r->out), 3, "%s", r->out);
    char want[512];
    snprintf(want, sizeof want, "%s: error: chunk_data[4].body.fog_mode @0x139: 7 (0x7) is not a value of FogMode", path);
    cr_expect(strstr(r->out, want) != NULL, "%s", r->out);
    snprintf(want, sizeof want, "%s: error: chunk_data[0].body.parts[0].matrix_index @0x76: matrix index 5", path);
    cr_expect(strstr(r->out, want) != NULL, "%s", r->out);
    snprintf(want, sizeof want, "%s: error: header.aabb_min @0x20: AABB min (100, 0, -64)", path);
    cr_expect(strstr(r->out, want) != NULL, "%s", r->out);
    unlink(path);
}

Test(binform_cli, json_findings_parse_back)
{
    char *path = fixture_copy(PYRAMID, ".t3dm", break_three_rules);
    char args[256];
    snprintf(args, sizeof args, "check --json --no-set %s " PYRAMID, path);
    cli_result *r = cli_run(args);
    cr_expect_eq(r->status, 1);
    char error[128];
    jv *v = jv_parse(r->out, error, sizeof error);
    cr_assert_not_null(v, "not JSON: %s\n%s", error, r->out);
    cr_assert_eq(v->kind, JV_ARRAY);
    cr_expect_eq(v->count, 3);
    const jv *first = &v->items[0];
    cr_expect_str_eq(jv_get(first, "file")->string, path);
    cr_expect_str_eq(jv_get(first, "severity")->string, "error");
    const char *paths[3];
    for (size_t i = 0; i < v->count && i < 3; i++) {
        paths[i] = jv_get(&v->items[i], "path")->string;
        cr_expect_eq(jv_get(&v->items[i], "offset")->kind, JV_NUMBER);
        cr_expect_eq(jv_get(&v->items[i], "message")->kind, JV_STRING);
    }
    int aabb = 0;
    for (size_t i = 0; i < 3; i++)
        if (strcmp(paths[i], "header.aabb_min") == 0) {
            aabb = 1;
            cr_expect_eq(jv_get(&v->items[i], "offset")->number, 0x20);
            cr_expect(strstr(jv_get(&v->items[i], "origin")->string, "AABB min") != NULL);
        }
    cr_expect(aabb);
    jv_free(v);
    unlink(path);
}

static void chunk_past_the_end(uint8_t *d)
{
    d[0x2C + 5 * 4 + 1] = 0x01; /* the skeleton chunk at 0x1f000 */
    d[0x2C + 5 * 4 + 2] = 0xF0;
    d[0x2C + 5 * 4 + 3] = 0x00;
}

Test(binform_cli, read_errors_are_findings)
{
    char *path = fixture_copy(PYRAMID, ".t3dm", chunk_past_the_end);
    char args[256];
    snprintf(args, sizeof args, "check %s", path);
    cli_result *r = cli_run(args);
    cr_expect_eq(r->status, 1);
    char want[512];
    snprintf(want, sizeof want, "%s: error: chunk_data[4].body @0x", path);
    cr_expect(strstr(r->out, want) != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "past the end of the file (595 bytes)") != NULL, "%s", r->out);
    unlink(path);
}

Test(binform_cli, detection_by_magic_then_extension)
{
    char *path = fixture_copy(PYRAMID, ".bin", NULL);
    char args[256];
    snprintf(args, sizeof args, "info %s", path);
    cli_result *r = cli_run(args);
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, "t3dm model") != NULL, "detected by magic: %s", r->out);
    unlink(path);
    r = cli_run("info " PYRAMID_STREAM);
    cr_expect(strstr(r->out, "t3dm stream") != NULL, "detected by extension: %s", r->out);
    r = cli_run("info " BF_PROJECT_DIR "/README.md");
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "unknown format") != NULL, "%s", r->err);
    r = cli_run("check --format t3dm.stream " PYRAMID_STREAM);
    cr_expect_eq(r->status, 0, "%s", r->out);
    r = cli_run("check --format t3dm.nope " PYRAMID_STREAM);
    cr_expect_eq(r->status, 2);
}

Test(binform_cli, dump_is_json_with_names)
{
    cli_result *r = cli_run("dump " PYRAMID);
    cr_expect_eq(r->status, 0, "%s", r->err);
    char error[128];
    jv *v = jv_parse(r->out, error, sizeof error);
    cr_assert_not_null(v, "not JSON: %s", error);
    cr_expect_str_eq(jv_get(v, "format")->string, "t3dm");
    cr_expect_str_eq(jv_get(v, "kind")->string, "model");
    cr_expect_eq(jv_get(v, "revision")->kind, JV_NULL, "t3dm has no revisions");
    const jv *file = jv_get(v, "root");
    const jv *header = jv_get(file, "header");
    cr_expect_eq(jv_get(header, "chunk_count")->number, 6);
    cr_expect_str_eq(jv_get(header, "magic")->string, "T3M");
    const jv *chunks = jv_get(file, "chunks");
    cr_assert_eq(chunks->count, 6);
    const jv *type = jv_get(&chunks->items[0], "type");
    cr_expect_str_eq(jv_get(type, "name")->string, "O", "enum values by name and value");
    cr_expect_eq(jv_get(type, "value")->number, 'O');
    const jv *body = jv_get(&jv_get(file, "chunk_data")->items[0], "body");
    cr_expect_str_eq(jv_get(body, "case")->string, "O");
    const jv *object = jv_get(body, "value");
    cr_expect_str_eq(jv_get(object, "name_str")->string, "pyramid", "strings resolved beside the offset");
    cr_expect_eq(jv_get(object, "name")->number, 1);
    const jv *material = jv_get(jv_get(&jv_get(file, "chunk_data")->items[4], "body"), "value");
    cr_expect_str_eq(jv_get(jv_get(material, "color_flags"), "flags")->items[0].string, "prim");
    jv_free(v);
}

Test(binform_cli, dump_of_every_sample_is_json)
{
    REQUIRE_SAMPLES();
    const char *files[] = {"t3dm/17_culling/platformer.t3dm", "t3dm/08_animation/snake.t3dm",
                           "t3dm/08_animation/snake.2.sdata", "t3dm/07_skeleton/chicken.t3dm"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char args[1024];
        snprintf(args, sizeof args, "dump %s", sample_path(files[i]));
        cli_result *r = cli_run(args);
        cr_expect_eq(r->status, 0);
        char error[128];
        jv *v = jv_parse(r->out, error, sizeof error);
        cr_expect_not_null(v, "%s: %s", files[i], error);
        jv_free(v);
    }
}

Test(binform_cli, every_sample_passes_check)
{
    REQUIRE_SAMPLES();
    cli_result *r = cli_run("check $(find " BF_SHARED_DIR "/samples/t3dm -name '*.t3dm' -o -name '*.sdata')");
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    cr_expect_str_eq(r->out, "");
}

Test(binform_cli, roundtrip_reports_identical_files)
{
    cli_result *r = cli_run("roundtrip " PYRAMID " " PYRAMID_STREAM);
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "pyramid.t3dm: identical (595 bytes)") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "pyramid.0.sdata: identical (24 bytes)") != NULL, "%s", r->out);
}
