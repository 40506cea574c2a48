/* The binform command line: getopt_long conventions, per-command help, options that do not
 * apply, standard input and pipes, directories, no limit on files, errors on stderr, -q/-v,
 * colour, plain words for a wrong --format or --revision, and batch checking. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <pty.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"
#include "json_parse.h"
#include "samples.h"



/* ---- options ---- */

Test(cli_options, equals_and_double_dash)
{
    cli_result *r = cli_run("info --format=t3dm.stream " PYRAMID_STREAM);
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, "t3dm stream") != NULL, "%s", r->out);
    /* after --, a file may start with a dash */
    char *dir = test_temp_dir("cli");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp " PYRAMID " '%s/-pyramid.t3dm'", dir);
    cr_assert_eq(system(cmd), 0);
    char cwd[1024];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    cr_assert_eq(chdir(dir), 0);
    r = cli_run("check -v --no-set -- -pyramid.t3dm");
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, "-pyramid.t3dm: ok") != NULL, "%s", r->out);
    r = cli_run("check -pyramid.t3dm");
    cr_expect_eq(r->status, 2, "without --, it is an option");
    cr_assert_eq(chdir(cwd), 0);
    test_remove_tree(dir);
}

Test(cli_options, a_missing_value_is_named)
{
    cli_result *r = cli_run("check " PYRAMID " --format");
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "option '--format' needs a value") != NULL, "%s", r->err);
    r = cli_run("check " PYRAMID " -j");
    cr_expect(strstr(r->err, "option '--jobs' needs a value") != NULL, "%s", r->err);
    r = cli_run("check --jobs=lots " PYRAMID);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "--jobs wants a number from 1 to 256, not 'lots'") != NULL, "%s", r->err);
}

Test(cli_options, options_that_do_not_apply_are_errors)
{
    const char *cases[][2] = {
        {"info --json " PYRAMID, "'--json' does not apply"},
        {"dump --keep-layout " PYRAMID, "'--keep-layout' does not apply"},
        {"build -r x.json -o y", "'--recursive' does not apply"},
        {"formats --format t3dm", "'--format' does not apply"},
        {"explain --compact " PYRAMID, "'--compact' does not apply"},
        {"check --bogus " PYRAMID, "unknown option '--bogus'"},
        {"check --bogus=1 " PYRAMID, "unknown option '--bogus'"},
        {"check -Z " PYRAMID, "unknown option '-Z'"},
        {"dump " PYRAMID " " PYRAMID, "takes one file"},
        {"formats " PYRAMID, "takes no file"},
        {"check -q -v " PYRAMID, "-q and -v together"},
        {"check --color=sometimes " PYRAMID, "--color is auto, always or never"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_result *r = cli_run(cases[i][0]);
        cr_expect_eq(r->status, 2, "%s: exit %d", cases[i][0], r->status);
        cr_expect(strstr(r->err, cases[i][1]) != NULL, "%s: %s", cases[i][0], r->err);
        cr_expect_str_eq(r->out, "", "%s", cases[i][0]);
    }
}

Test(cli_options, every_command_has_help)
{
    const char *commands[] = {"check", "info", "dump", "build", "explain", "roundtrip", "formats", "render"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        cli_result *r = cli_runf("%s --help", commands[i]);
        cr_expect_eq(r->status, 0, "%s", commands[i]);
        char want[64];
        snprintf(want, sizeof want, "usage: binform %s", commands[i]);
        cr_expect(strstr(r->out, want) != NULL, "%s --help: %s", commands[i], r->out);
        char *first = strdup(r->out);
        r = cli_runf("help %s", commands[i]);
        cr_expect_eq(r->status, 0);
        cr_expect_str_eq(r->out, first, "help %s is %s --help", commands[i], commands[i]);
        free(first);
    }
    cli_result *r = cli_run("help check");
    cr_expect(strstr(r->out, "--json-lines") != NULL, "check's own options: %s", r->out);
    r = cli_run("help nosuch");
    cr_expect_eq(r->status, 2);
    r = cli_run("help");
    cr_expect_eq(r->status, 0);
    cr_expect(strstr(r->out, "usage: binform COMMAND") != NULL);
}

/* ---- inputs ---- */

Test(cli_options, standard_input_and_pipes)
{
    cli_result *r = cli_run("info - < " PYRAMID);
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, "<stdin>: t3dm model") != NULL, "%s", r->out);
    r = cli_run("check -v /dev/stdin < " PYRAMID);
    cr_expect_eq(r->status, 0, "%s", r->err);
    /* a real pipe: no size to ask for, no seeking */
    r = cli_runf("--version > /dev/null && cat %s | %s check -v /dev/stdin", PYRAMID, BINFORM);
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, "/dev/stdin: ok (t3dm model)") != NULL, "%s", r->out);
    r = cli_run("check --format t3dm.stream - < " PYRAMID_STREAM);
    cr_expect_eq(r->status, 0, "a magic-less kind from stdin needs --format: %s", r->err);
    r = cli_run("check - - < " PYRAMID);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "given twice") != NULL, "%s", r->err);
}

Test(cli_options, a_pipe_as_a_path)
{
    char *dir = test_temp_dir("cli");
    char fifo[128];
    snprintf(fifo, sizeof fifo, "%s/model.t3dm", dir);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    pid_t writer = fork();
    cr_assert_neq(writer, -1);
    if (writer == 0) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "cat " PYRAMID " > '%s'", fifo);
        _exit(system(cmd) == 0 ? 0 : 1);
    }
    cli_result *r = cli_runf("check -v '%s'", fifo);
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, ": ok (t3dm model)") != NULL, "%s", r->out);
    int status;
    waitpid(writer, &status, 0);
    test_remove_tree(dir);
}

Test(cli_options, directories_need_r)
{
    cli_result *r = cli_run("check " BF_PROJECT_DIR "/tests/fixtures/demo");
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "demo: error: is a directory (use -r to go through the files under it)") != NULL, "%s",
              r->err);
    r = cli_run("check -r -v " BF_PROJECT_DIR "/tests/fixtures/demo");
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "pyramid.t3dm: ok (t3dm model)") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "pyramid.0.sdata: ok (t3dm stream)") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "make_pyramid.py: skipped: no format recognises it") != NULL, "%s", r->out);
    cr_expect(strstr(r->err, "binform check: 2 files: 2 valid, 0 invalid, 0 unreadable") != NULL, "%s", r->err);
    r = cli_run("info -r " BF_PROJECT_DIR "/tests/fixtures/demo");
    cr_expect_eq(r->status, 0);
    cr_expect_eq(count_lines(r->out) > 2, 1);
}

static void write_text(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

static void copy_to(const char *source, const char *dir, const char *name)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s/%s'", source, dir, name);
    cr_assert_eq(system(cmd), 0);
}

/* Under -r a file is a candidate by its extension, in any case, and by its magic only when it
 * has no extension: a provenance note that starts with "P3M" is no broken P3M. A file named on
 * the command line is still detected by its magic first. */
Test(cli_options, walked_files_by_extension_then_magic)
{
    char *dir = test_temp_dir("cli");
    write_text(dir, "p3m-PROVENANCE.txt", "P3M files written by the exporter, see below.\n");
    copy_to(PYRAMID, dir, "MODEL.T3DM");
    copy_to(PYRAMID_STREAM, dir, "MODEL.0.sdata");
    copy_to(PYRAMID_STREAM, dir, "stream.T3DS");
    copy_to(PYRAMID, dir, "no_extension");
    copy_to(PYRAMID_STREAM, dir, "no_extension.0.sdata");
    copy_to(PYRAMID, dir, "model.bak");
    cli_result *r = cli_runf("check -r -v --no-set %s", dir);
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "p3m-PROVENANCE.txt: skipped") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "model.bak: skipped") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "MODEL.T3DM: ok (t3dm model)") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "MODEL.0.sdata: ok (t3dm stream)") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "stream.T3DS: ok (t3dm stream)") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "no_extension: ok (t3dm model)") != NULL, "%s", r->out);
    cr_expect(strstr(r->err, "5 files: 5 valid, 0 invalid, 0 unreadable, 2 skipped") != NULL, "%s", r->err);
    r = cli_runf("check -r %s", dir); /* with the file sets: MODEL.T3DM finds MODEL.0.sdata */
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    r = cli_runf("check %s/p3m-PROVENANCE.txt", dir);
    cr_expect_eq(r->status, 1, "named, it is tried as the P3M its magic says: %s%s", r->out, r->err);
    test_remove_tree(dir);
}

/* 5000 links to the pyramid: more than the old limit of 4096, as arguments and walked. */
Test(cli_options, no_limit_on_files, .timeout = 300)
{
    char *dir = test_temp_dir("cli");
    char path[256];
    for (int i = 0; i < 5000; i++) {
        snprintf(path, sizeof path, "%s/m%04d.t3dm", dir, i);
        cr_assert_eq(link(PYRAMID, path), 0);
    }
    cli_result *r = cli_runf("check -r -q --no-set %s", dir);
    cr_expect_eq(r->status, 0, "%s", r->err);
    r = cli_runf("check -r --no-set %s", dir);
    cr_expect(strstr(r->err, "binform check: 5000 files: 5000 valid") != NULL, "%s", r->err);
    r = cli_runf("check --no-set %s/m*.t3dm", dir);
    cr_expect(strstr(r->err, "binform check: 5000 files: 5000 valid") != NULL, "as arguments: %s", r->err);
    /* the last file counts: break it */
    snprintf(path, sizeof path, "%s/m4999.t3dm", dir);
    cr_assert_eq(unlink(path), 0);
    FILE *f = fopen(path, "wb");
    fputs("T3M\4 not a model", f);
    fclose(f);
    r = cli_runf("check -r -q --no-set %s", dir);
    cr_expect_eq(r->status, 1, "the 5000th file is invalid");
    cr_expect(strstr(r->out, "m4999.t3dm: error:") != NULL, "%s", r->out);
    test_remove_tree(dir);
}

/* ---- output ---- */

Test(cli_options, errors_go_to_stderr)
{
    char *bad = fixture_copy(PYRAMID, ".t3dm", NULL);
    cr_assert_eq(truncate(bad, 100), 0);
    const char *commands[] = {"dump", "info", "roundtrip", "explain"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        cli_result *r = cli_runf("%s %s", commands[i], bad);
        cr_expect_eq(r->status, 1, "%s", commands[i]);
        if (strcmp(commands[i], "explain") == 0) /* its output is the tree read before the failure */
            cr_expect(strstr(r->out, ": error: ") == NULL, "explain printed its error on stdout: %s", r->out);
        else
            cr_expect_str_eq(r->out, "", "%s printed on stdout: %s", commands[i], r->out);
        cr_expect(strstr(r->err, ": error: ") != NULL, "%s: %s", commands[i], r->err);
    }
    unlink(bad);
}

Test(cli_options, quiet_and_verbose)
{
    cli_result *r = cli_run("check -v " PYRAMID " " PYRAMID_STREAM);
    cr_expect_eq(r->status, 0);
    cr_expect_eq(count_lines(r->out), 2, "an OK line per file: %s", r->out);
    cr_expect(strstr(r->out, "pyramid.t3dm: ok (t3dm model)") != NULL, "%s", r->out);
    cr_expect(strstr(r->err, "2 files: 2 valid") != NULL, "%s", r->err);
    r = cli_run("check -q " PYRAMID " " PYRAMID_STREAM);
    cr_expect_str_eq(r->out, "");
    cr_expect_str_eq(r->err, "", "no summary with -q");
    r = cli_run("roundtrip -q " PYRAMID);
    cr_expect_str_eq(r->out, "");
}

Test(cli_options, colour_only_when_wanted)
{
    char *bad = fixture_copy(PYRAMID, ".t3dm", NULL);
    cr_assert_eq(truncate(bad, 100), 0);
    cli_result *r = cli_runf("check %s", bad);
    cr_expect(strchr(r->out, '\033') == NULL, "no colour into a pipe: %s", r->out);
    r = cli_runf("check --color=always %s", bad);
    cr_expect(strstr(r->out, "\033[1;31merror:\033[0m") != NULL, "%s", r->out);
    r = cli_runf("check --color=always -v %s", PYRAMID);
    cr_expect(strstr(r->out, "\033[32mok\033[0m") != NULL, "%s", r->out);
    unlink(bad);
}

/* Runs binform with stdout and stderr on a terminal; returns what the terminal showed. */
static char *on_terminal(const char *args, const char *no_color)
{
    int master;
    pid_t pid = forkpty(&master, NULL, NULL, NULL);
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        if (no_color)
            setenv("NO_COLOR", no_color, 1);
        else
            unsetenv("NO_COLOR");
        setenv("TERM", "xterm", 1);
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "exec %s %s", BINFORM, args);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    static char buf[1 << 16];
    size_t n = 0;
    ssize_t got;
    while (n < sizeof buf - 1 && (got = read(master, buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)got;
    buf[n] = '\0';
    int status;
    waitpid(pid, &status, 0);
    close(master);
    return buf;
}

Test(cli_options, colour_on_a_terminal_unless_no_color)
{
    char *bad = fixture_copy(PYRAMID, ".t3dm", NULL);
    cr_assert_eq(truncate(bad, 100), 0);
    char args[256];
    snprintf(args, sizeof args, "check %s", bad);
    cr_expect(strstr(on_terminal(args, NULL), "\033[1;31merror:") != NULL, "colour on a terminal");
    cr_expect(strchr(on_terminal(args, "1"), '\033') == NULL, "NO_COLOR turns it off");
    unlink(bad);
}

Test(cli_options, progress_on_a_terminal_only)
{
    char *out = on_terminal("check -r " BF_PROJECT_DIR "/tests/fixtures/demo", "1");
    cr_expect(strstr(out, "binform check: 3/3 files") != NULL, "progress on a terminal: %s", out);
    cli_result *r = cli_run("check -r " BF_PROJECT_DIR "/tests/fixtures/demo");
    cr_expect(strstr(r->err, "/3 files") == NULL, "no progress into a pipe: %s", r->err);
}

/* ---- formats and revisions in plain words ---- */

Test(cli_options, the_wrong_format_in_plain_words)
{
    cli_result *r = cli_run("check --format p3m " PYRAMID);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "pyramid.t3dm: error: this is a T3DM file (t3dm model), not P3M; use --format t3dm") != NULL,
              "%s", r->err);
    r = cli_run("dump --format sprite " PYRAMID);
    cr_expect(strstr(r->err, "this is a T3DM file") != NULL, "%s", r->err);
    cr_expect_str_eq(r->out, "");
}

Test(cli_options, revisions_listed_or_absent)
{
    cli_result *r = cli_run("check --revision document " PYRAMID);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "t3dm has no revisions: it has one layout") != NULL, "%s", r->err);
    char *p3m = fixture_copy(PYRAMID, ".p3m", NULL);
    r = cli_runf("check --format p3m --revision newest %s", p3m);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "this is a T3DM file") != NULL, "the format first: %s", r->err);
    unlink(p3m);
    if (samples_present()) {
        r = cli_runf("check --revision newest %s", sample_path("p3m/cube.p3m"));
        cr_expect_eq(r->status, 2);
        cr_expect(strstr(r->err, "p3m has no revision 'newest'; its revisions are: engine, document") != NULL, "%s",
                  r->err);
    } else {
        samples_note_skipped("test_cli_options: an unknown revision of a real P3M");
    }
    r = cli_run("formats");
    cr_expect(strstr(r->out, "revisions: engine document") != NULL, "%s", r->out);
}

/* ---- batch ---- */

Test(cli_options, batch_json_lines_in_parallel)
{
    const char *dir = BF_PROJECT_DIR "/tests/fixtures";
    cli_result *r = cli_runf("check -r --json-lines %s", dir);
    char *serial = strdup(r->out);
    int serial_status = r->status;
    r = cli_runf("check -r --jobs 4 --json-lines %s", dir);
    cr_expect_eq(r->status, serial_status);
    cr_expect_str_eq(r->out, serial, "the same lines, in the same order, whatever --jobs");
    cr_expect(strstr(r->err, "binform check: ") != NULL, "a summary: %s", r->err);
    size_t lines = 0;
    for (char *line = strtok(serial, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        char error[128];
        jv *v = jv_parse(line, error, sizeof error);
        cr_assert_not_null(v, "line %zu is not JSON: %s", lines, error);
        const char *status = jv_get(v, "status")->string;
        cr_expect(strcmp(status, "valid") == 0 || strcmp(status, "invalid") == 0 || strcmp(status, "skipped") == 0 ||
                      strcmp(status, "unreadable") == 0,
                  "%s", status);
        cr_expect_not_null(jv_get(v, "file"));
        cr_expect_eq(jv_get(v, "findings")->kind, JV_ARRAY);
        jv_free(v);
    }
    cr_expect_gt(lines, 10, "one line per file");
    free(serial);
    /* a broken file among them: its line says why */
    char *bad = fixture_copy(PYRAMID, ".t3dm", NULL);
    cr_assert_eq(truncate(bad, 100), 0);
    r = cli_runf("check --jobs 2 --json-lines %s %s", PYRAMID, bad);
    cr_expect_eq(r->status, 1);
    cr_expect_eq(count_lines(r->out), 2);
    char *second = strchr(r->out, '\n') + 1;
    char error[128];
    jv *v = jv_parse(second, error, sizeof error);
    cr_assert_not_null(v, "%s", error);
    cr_expect_str_eq(jv_get(v, "status")->string, "invalid");
    cr_expect_eq(jv_get(v, "errors")->number, 1);
    cr_expect_eq(jv_get(v, "findings")->count, 1);
    jv_free(v);
    unlink(bad);
}

Test(cli_options, render_follows_the_same_conventions)
{
    char out[64];
    snprintf(out, sizeof out, "/tmp/binform_render_%d.png", (int)getpid());
    cli_result *r = cli_runf("render --size=32x24 --output=%s -- %s", out, PYRAMID);
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect_eq(access(out, F_OK), 0);
    unlink(out);
    r = cli_run("render " PYRAMID " --yaw");
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "option '--yaw' needs a value") != NULL, "%s", r->err);
}

/* ---- many findings of one rule ---- */

/* snake.p3m has 15 bone tails written by the exporter's bug, one warning each: the text shows the
 * first 3 and a note naming the rule, --ignore silences it by its name (or a prefix ending at a
 * dot), and --json keeps every finding with its rule's name. */
Test(cli_options, repeats_grouped_and_rules_ignored_by_name)
{
    REQUIRE_SAMPLES();
    const char *snake = sample_path("p3m/snake.p3m");
    cli_result *r = cli_runf("check '%s'", snake);
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect_eq(count_lines(r->out), 4, "3 warnings and a note: %s", r->out);
    cr_expect(strstr(r->out, "warning: data.bones[2].tail") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "warning: data.bones[3].tail") == NULL, "%s", r->out);
    cr_expect(strstr(r->out, "snake.p3m: note: ... and 12 more like it (p3m.Bone.tail; --ignore p3m.Bone.tail silences them") !=
                  NULL,
              "%s", r->out);
    r = cli_runf("check --ignore p3m.Bone.tail '%s'", snake);
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect_str_eq(r->out, "");
    r = cli_runf("check --ignore=p3m.Bone '%s'", snake);
    cr_expect_str_eq(r->out, "", "every rule of Bone");
    r = cli_runf("check --ignore p3m.Bon '%s'", snake);
    cr_expect_eq(count_lines(r->out), 4, "a prefix ends at a dot: %s", r->out);
    r = cli_runf("check --json '%s'", snake);
    size_t n = 0;
    for (const char *p = r->out; (p = strstr(p, "\"rule\":\"p3m.Bone.tail\"")) != NULL; p++)
        n++;
    cr_expect_eq(n, 15, "JSON keeps all 15: %s", r->out);
    /* an error silenced: the file passes */
    r = cli_runf("check '%s'", sample_path("p3m/dynamic_multipart.p3m"));
    cr_expect_eq(r->status, 1, "%s", r->out);
    r = cli_runf("check --ignore p3m.Ptf.pixels '%s'", sample_path("p3m/dynamic_multipart.p3m"));
    cr_expect_eq(r->status, 0, "%s", r->out);
    r = cli_runf("info --ignore p3m.Bone '%s'", snake);
    cr_expect_eq(r->status, 2, "--ignore is check's");
}
