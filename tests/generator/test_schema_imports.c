/* Schema `imports:`: types, enums and flags from other schema files, found beside the importer,
 * then on --schema-path / BINFORM_SCHEMA_PATH; cycles and names declared twice are errors
 * with file:line:col; binform --schema rebuilds its cache entry when an import changes. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"

#define BFGEN BF_PROJECT_DIR "/build/bin/bfgen"

static char output[16384];

/* Runs a shell command in the current folder; its output (stdout and stderr) in `output`. */
static int sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    char full[2100];
    snprintf(full, sizeof full, "(%s) 2>&1", cmd);
    FILE *p = popen(full, "r");
    cr_assert_not_null(p);
    size_t n = fread(output, 1, sizeof output - 1, p);
    output[n] = '\0';
    int raw = pclose(p);
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    cr_assert_eq(fputs(text, f) >= 0, 1);
    cr_assert_eq(fclose(f), 0);
}

static const char color_yaml[] =
    "enums:\n"
    "  Channel:\n"
    "    type: u8\n"
    "    doc: A colour channel.\n"
    "    values:\n"
    "      red: { value: 0, doc: \"Red\" }\n"
    "      green: { value: 1, doc: \"Green\" }\n"
    "types:\n"
    "  Color:\n"
    "    doc: One colour.\n"
    "    fields:\n"
    "      - { name: r, type: u8, doc: Red. }\n"
    "      - { name: g, type: u8, doc: Green. }\n"
    "      - { name: b, type: u8, doc: Blue. }\n";

static const char common_yaml[] =
    "imports: [../lib/color.yaml]\n"
    "types:\n"
    "  Pair:\n"
    "    doc: Two colours.\n"
    "    fields:\n"
    "      - { name: a, type: Color, doc: First. }\n"
    "      - { name: b, type: Color, doc: Second. }\n";

static const char pal_yaml[] =
    "format: pal\n"
    "title: Palette with imports\n"
    "endian: little\n"
    "imports: [lib/color.yaml, common.yaml]\n"
    "files:\n"
    "  - { name: palette, root: Palette, extensions: [pal], magic: PAL1 }\n"
    "types:\n"
    "  Palette:\n"
    "    doc: A palette file.\n"
    "    fields:\n"
    "      - { name: magic, type: \"char[4]\", const: PAL1, doc: \"Always PAL1.\" }\n"
    "      - { name: main, type: u8, enum: Channel, doc: \"Main channel.\" }\n"
    "      - { name: count, type: u16, doc: \"Number of pairs.\" }\n"
    "      - { name: pairs, type: \"Pair[count]\", doc: \"The pairs.\" }\n";

/* A fresh folder, made the current one, with pal.yaml importing lib/color.yaml (beside it) and
 * common.yaml (in sp/, found only on the search path; it imports lib/color.yaml too). */
static char *setup(void)
{
    static char dir[64];
    snprintf(dir, sizeof dir, "/tmp/binform_imports_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(chdir(dir), 0);
    cr_assert_eq(mkdir("lib", 0700), 0);
    cr_assert_eq(mkdir("sp", 0700), 0);
    write_text("lib/color.yaml", color_yaml);
    write_text("sp/common.yaml", common_yaml);
    write_text("pal.yaml", pal_yaml);
    cr_assert_eq(unsetenv("BINFORM_SCHEMA_PATH"), 0);
    char cache[128];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    cr_assert_eq(setenv("XDG_CACHE_HOME", cache, 1), 0);
    return dir;
}

static void cleanup(const char *dir)
{
    cr_assert_eq(chdir("/"), 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(schema_imports, found_beside_then_on_the_search_path)
{
    char *dir = setup();
    cr_expect_eq(sh(BFGEN " --syntax-only pal.yaml"), 1);
    cr_expect(strstr(output, "pal.yaml:4:27: error: cannot find the schema 'common.yaml' to import: not beside pal.yaml") != NULL,
              "%s", output);
    cr_expect_eq(sh(BFGEN " --syntax-only --schema-path sp --depfile deps pal.yaml"), 0, "%s", output);
    cr_expect_eq(sh("cat deps"), 0);
    cr_expect_str_eq(output, "lib/color.yaml\nsp/common.yaml\n", "each file once, though imported twice");
    cr_expect_eq(sh("BINFORM_SCHEMA_PATH=/nowhere:sp " BFGEN " --syntax-only pal.yaml"), 0, "%s", output);
    /* the imported types and enums are the format's own in the generated code */
    cr_expect_eq(sh(BFGEN " --schema-path sp --emit header -o gen pal.yaml"), 0, "%s", output);
    cr_expect_eq(sh("grep -c 'typedef struct pal_Color\\|typedef struct pal_Pair\\|define PAL_CHANNEL_GREEN' gen/pal.h"), 0,
                 "%s", output);
    cr_expect_str_eq(output, "3\n");
    cleanup(dir);
}

Test(schema_imports, a_cycle_is_an_error_naming_it)
{
    char *dir = setup();
    FILE *f = fopen("lib/color.yaml", "a");
    cr_assert_not_null(f);
    fputs("imports: [../pal.yaml]\n", f);
    fclose(f);
    cr_expect_eq(sh(BFGEN " --syntax-only --schema-path sp pal.yaml"), 1);
    cr_expect(strstr(output, "lib/color.yaml:15:11: error: imports make a cycle: pal.yaml -> lib/color.yaml -> lib/../pal.yaml") !=
                  NULL,
              "%s", output);
    write_text("self.yaml", "imports: self.yaml\n");
    cr_expect_eq(sh(BFGEN " --syntax-only self.yaml"), 1);
    cr_expect(strstr(output, "self.yaml:1:10: error: imports make a cycle: self.yaml -> self.yaml") != NULL, "%s", output);
    cleanup(dir);
}

Test(schema_imports, a_name_declared_twice_and_mistakes_inside_an_import)
{
    char *dir = setup();
    char *text = malloc(sizeof pal_yaml + 200);
    cr_assert_not_null(text);
    snprintf(text, sizeof pal_yaml + 200, "%s  Color:\n    doc: Mine.\n    fields:\n      - { name: v, type: u8, doc: V. }\n",
             pal_yaml);
    write_text("pal.yaml", text);
    free(text);
    cr_expect_eq(sh(BFGEN " --syntax-only --schema-path sp pal.yaml"), 1);
    cr_expect(strstr(output, "lib/color.yaml:9:3: error: 'Color' is imported by pal.yaml:4, which declares it too") != NULL, "%s",
              output);
    write_text("pal.yaml", pal_yaml);
    write_text("lib/color.yaml", "types:\n  Color:\n    doc: C.\n    fields:\n      - { name: r, type: u33, doc: R. }\n");
    cr_expect_eq(sh(BFGEN " --syntax-only --schema-path sp pal.yaml"), 1);
    cr_expect(strstr(output, "lib/color.yaml:5:9: error: unknown type 'u33'") != NULL, "%s", output);
    write_text("lib/color.yaml", "imports: {a: b}\n");
    cr_expect_eq(sh(BFGEN " --syntax-only --schema-path sp pal.yaml"), 1);
    cr_expect(strstr(output, "lib/color.yaml:1:10: error: 'imports' is a list of schema files") != NULL, "%s", output);
    cleanup(dir);
}

Test(schema_imports, binform_rebuilds_when_an_import_changes)
{
    char *dir = setup();
    const uint8_t file[] = {'P', 'A', 'L', '1', 1, 1, 0, 1, 2, 3, 4, 5, 6};
    FILE *f = fopen("one.pal", "wb");
    cr_assert_not_null(f);
    fwrite(file, 1, sizeof file, f);
    fclose(f);
    cli_result *r = cli_run("check -v --schema pal.yaml one.pal");
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "pal.yaml:4:27: error: cannot find the schema 'common.yaml'") != NULL, "%s", r->err);
    r = cli_run("check -v --schema pal.yaml --schema-path sp one.pal");
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, "one.pal: ok (pal palette)") != NULL, "%s", r->out);
    r = cli_run("explain --schema pal.yaml --schema-path sp one.pal");
    cr_expect(strstr(r->out, "pairs[0].a: Color  # First.") != NULL, "%s", r->out);
    /* an import changed (the schema itself did not): rebuilt, not served from the old entry */
    char *changed = strdup(common_yaml);
    memcpy(strstr(changed, "First."), "Frist.", 6);
    write_text("sp/common.yaml", changed);
    free(changed);
    r = cli_run("explain --schema pal.yaml --schema-path sp one.pal");
    cr_expect(strstr(r->out, "pairs[0].a: Color  # Frist.") != NULL, "%s", r->out);
    /* the search path from the environment */
    cr_assert_eq(setenv("BINFORM_SCHEMA_PATH", "sp", 1), 0);
    r = cli_run("dump --compact --schema pal.yaml one.pal");
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, "\"main\":{\"name\":\"green\",\"value\":1}") != NULL, "%s", r->out);
    r = cli_run("check --schema-path sp one.pal");
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "--schema-path without --schema") != NULL, "%s", r->err);
    cleanup(dir);
}
