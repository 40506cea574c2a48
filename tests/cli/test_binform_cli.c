/* The binform command: exit codes, detection, check (text and JSON), dump, info. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bf_version.h"
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
    cr_expect_str_eq(r->out, "binform " BF_RUNTIME_VERSION "\n", "the one version, runtime/bf_version.h's");
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

/* Four findings: the AABB's min above its max also leaves vertices outside it. */
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
    cr_expect_eq(count_lines(r->out), 4, "%s", r->out);
    char want[512];
    snprintf(want, sizeof want, "%s: error: chunk_data[4].body.fog_mode @0x139: 7 (0x7) is not a value of FogMode", path);
    cr_expect(strstr(r->out, want) != NULL, "%s", r->out);
    snprintf(want, sizeof want, "%s: error: chunk_data[0].body.parts[0].matrix_index @0x76: matrix index 5", path);
    cr_expect(strstr(r->out, want) != NULL, "%s", r->out);
    snprintf(want, sizeof want, "%s: error: header.aabb_min @0x20: AABB min (100, 0, -64)", path);
    cr_expect(strstr(r->out, want) != NULL, "%s", r->out);
    snprintf(want, sizeof want, "%s: error: header.aabb_min @0x20: a vertex lies outside the header's AABB", path);
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
    cr_expect_eq(v->count, 4);
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

static size_t chunks_of_type(const jv *chunks, const char *name)
{
    size_t n = 0;
    for (size_t i = 0; i < chunks->count; i++)
        n += strcmp(jv_get(jv_get(&chunks->items[i], "type"), "name")->string, name) == 0;
    return n;
}

/* Named values (schema `values`) are shown under "_computed", beside the fields they come from. */
Test(binform_cli, dump_shows_named_values_as_computed)
{
    cli_result *r = cli_run("dump " PYRAMID);
    cr_assert_eq(r->status, 0, "%s", r->err);
    char error[128];
    jv *v = jv_parse(r->out, error, sizeof error);
    cr_assert_not_null(v, "not JSON: %s", error);
    const jv *file = jv_get(v, "root");
    const jv *computed = jv_get(file, "_computed");
    cr_assert_not_null(computed, "the root's named values are missing");
    const jv *chunks = jv_get(file, "chunks");
    cr_expect_eq(jv_get(computed, "object_chunks")->number, chunks_of_type(chunks, "O"));
    cr_expect_eq(jv_get(computed, "vertex_chunks")->number, chunks_of_type(chunks, "V"));
    cr_expect_eq(jv_get(computed, "part_vertex_count")->number, jv_get(jv_get(file, "header"), "total_vertex_count")->number);
    /* a value of an array's elements, on every element */
    for (size_t i = 0; i < chunks->count; i++)
        cr_expect_not_null(jv_get(jv_get(&chunks->items[i], "_computed"), "rank"), "chunks[%zu]", i);
    jv_free(v);
}

/* build ignores them: the file comes back the same even when a computed value was edited. */
Test(binform_cli, build_ignores_computed_values)
{
    cli_result *r = cli_run("dump " PYRAMID);
    cr_assert_eq(r->status, 0, "%s", r->err);
    char *edited = strstr(r->out, "\"object_chunks\": ");
    cr_assert_not_null(edited);
    edited[strlen("\"object_chunks\": ")] = '7';
    char json_path[] = "/tmp/bf_computed_XXXXXX";
    int fd = mkstemp(json_path);
    cr_assert(fd >= 0);
    FILE *out = fdopen(fd, "w");
    fputs(r->out, out);
    fclose(out);
    char bin_path[64];
    snprintf(bin_path, sizeof bin_path, "%s.t3dm", json_path);
    r = cli_runf("build --keep-layout %s -o %s", json_path, bin_path);
    cr_expect_eq(r->status, 0, "%s", r->err);
    uint8_t *a, *b;
    size_t na, nb;
    cr_assert(load_file(PYRAMID, &a, &na));
    cr_assert(load_file(bin_path, &b, &nb));
    cr_expect(na == nb && memcmp(a, b, na) == 0, "the built file differs from the original");
    free(a);
    free(b);
    unlink(json_path);
    unlink(bin_path);
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
