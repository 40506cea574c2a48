/* The binform command: exit codes, detection, check (text and JSON), dump, info. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json_parse.h"
#include "samples.h"

#define BINFORM BF_PROJECT_DIR "/build/san/bin/binform"
#define PYRAMID BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.t3dm"
#define PYRAMID_STREAM BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.0.sdata"

typedef struct result {
    int status;
    char *out; /* all of stdout, however long */
    char err[8192];
} result;

/* Runs binform with `args` (a shell-quoted string); captures stdout and stderr. */
static result *run(const char *args)
{
    static result r;
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

/* A copy of the pyramid with `mutate` applied, in a temporary file with `suffix`. */
static char *pyramid_copy(const char *suffix, void (*mutate)(uint8_t *))
{
    static char path[64];
    uint8_t *data;
    size_t size;
    cr_assert(load_file(PYRAMID, &data, &size));
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

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

Test(binform_cli, help_and_version)
{
    result *r = run("--help");
    cr_expect_eq(r->status, 0);
    cr_expect(strstr(r->out, "check [--format NAME] [--json] FILE...") != NULL, "%s", r->out);
    r = run("--version");
    cr_expect_eq(r->status, 0);
    cr_expect(strncmp(r->out, "binform ", 8) == 0, "%s", r->out);
}

Test(binform_cli, usage_errors_exit_2_on_stderr)
{
    result *r = run("");
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "usage: binform") != NULL);
    cr_expect_str_eq(r->out, "");
    r = run("frobnicate " PYRAMID);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "unknown command 'frobnicate'") != NULL, "%s", r->err);
    r = run("check --bogus " PYRAMID);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "unknown option '--bogus'") != NULL, "%s", r->err);
    r = run("check");
    cr_expect_eq(r->status, 2);
    r = run("check --format nosuch " PYRAMID);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "unknown format 'nosuch'") != NULL, "%s", r->err);
}

Test(binform_cli, io_errors_exit_2)
{
    result *r = run("check /nonexistent/model.t3dm");
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "/nonexistent/model.t3dm: error: cannot open") != NULL, "%s", r->err);
}

Test(binform_cli, valid_files_exit_0)
{
    result *r = run("check " PYRAMID " " PYRAMID_STREAM);
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
    char *path = pyramid_copy(".t3dm", break_three_rules);
    char args[256];
    snprintf(args, sizeof args, "check %s", path);
    result *r = run(args);
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
    char *path = pyramid_copy(".t3dm", break_three_rules);
    char args[256];
    snprintf(args, sizeof args, "check --json %s " PYRAMID, path);
    result *r = run(args);
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
    char *path = pyramid_copy(".t3dm", chunk_past_the_end);
    char args[256];
    snprintf(args, sizeof args, "check %s", path);
    result *r = run(args);
    cr_expect_eq(r->status, 1);
    char want[512];
    snprintf(want, sizeof want, "%s: error: chunk_data[4].body @0x", path);
    cr_expect(strstr(r->out, want) != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "past the end of the file (595 bytes)") != NULL, "%s", r->out);
    unlink(path);
}

Test(binform_cli, detection_by_magic_then_extension)
{
    char *path = pyramid_copy(".bin", NULL);
    char args[256];
    snprintf(args, sizeof args, "info %s", path);
    result *r = run(args);
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, "t3dm model") != NULL, "detected by magic: %s", r->out);
    unlink(path);
    r = run("info " PYRAMID_STREAM);
    cr_expect(strstr(r->out, "t3dm stream") != NULL, "detected by extension: %s", r->out);
    r = run("info " BF_PROJECT_DIR "/README.md");
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "unknown format") != NULL, "%s", r->err);
    r = run("check --format t3dm.stream " PYRAMID_STREAM);
    cr_expect_eq(r->status, 0, "%s", r->out);
    r = run("check --format t3dm.nope " PYRAMID_STREAM);
    cr_expect_eq(r->status, 2);
}

Test(binform_cli, dump_is_json_with_names)
{
    result *r = run("dump " PYRAMID);
    cr_expect_eq(r->status, 0, "%s", r->err);
    char error[128];
    jv *v = jv_parse(r->out, error, sizeof error);
    cr_assert_not_null(v, "not JSON: %s", error);
    cr_expect_str_eq(jv_get(v, "format")->string, "t3dm");
    cr_expect_str_eq(jv_get(v, "kind")->string, "model");
    const jv *file = jv_get(v, "File");
    const jv *header = jv_get(file, "header");
    cr_expect_eq(jv_get(header, "chunk_count")->number, 6);
    cr_expect_str_eq(jv_get(header, "magic")->string, "T3M");
    const jv *chunks = jv_get(file, "chunks");
    cr_assert_eq(chunks->count, 6);
    cr_expect_str_eq(jv_get(&chunks->items[0], "type")->string, "O", "enum values by name");
    const jv *body = jv_get(&jv_get(file, "chunk_data")->items[0], "body");
    cr_expect_str_eq(jv_get(body, "_type")->string, "Object");
    const jv *object = jv_get(body, "_value");
    cr_expect_str_eq(jv_get(object, "name_str")->string, "pyramid", "strings resolved beside the offset");
    cr_expect_eq(jv_get(object, "name")->number, 1);
    const jv *material = jv_get(jv_get(&jv_get(file, "chunk_data")->items[4], "body"), "_value");
    cr_expect_str_eq(jv_get(material, "color_flags_flags")->items[0].string, "prim");
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
        result *r = run(args);
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
    result *r = run("check $(find " BF_SHARED_DIR "/samples/t3dm -name '*.t3dm' -o -name '*.sdata')");
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    cr_expect_str_eq(r->out, "");
}

Test(binform_cli, roundtrip_reports_identical_files)
{
    result *r = run("roundtrip " PYRAMID " " PYRAMID_STREAM);
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "pyramid.t3dm: identical (595 bytes)") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "pyramid.0.sdata: identical (24 bytes)") != NULL, "%s", r->out);
}
