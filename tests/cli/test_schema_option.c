/* binform --schema: a schema's formats loaded at run time give what the same schema compiled
 * in gives (every sample of every project format); the cache under $XDG_CACHE_HOME/binform
 * never serves an entry that is unsafe, corrupt or of another schema; a user's own schema,
 * written outside the project, checks, dumps, builds, explains and round-trips. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_run.h"
#include "samples.h"

#define SCHEMAS BF_PROJECT_DIR "/schemas"

/* ---- helpers ---- */

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    cr_assert_eq(fwrite(data, 1, size, f), size);
    cr_assert_eq(fclose(f), 0);
}

static void write_text(const char *path, const char *text) { write_file(path, text, strlen(text)); }

/* A copy of the last result: cli_run reuses its own. */
typedef struct saved {
    int status;
    char *out, *err;
} saved;

static saved save(const cli_result *r)
{
    saved s = {r->status, strdup(r->out), strdup(r->err)};
    cr_assert(s.out && s.err);
    return s;
}

static void drop(saved *s)
{
    free(s->out);
    free(s->err);
}

static void expect_same(const saved *want, const cli_result *got, const char *what)
{
    cr_expect_eq(got->status, want->status, "%s: exit %d through --schema, %d compiled in (%s)", what, got->status,
                 want->status, got->err);
    cr_expect_str_eq(got->out, want->out, "%s: standard output differs", what);
    cr_expect_str_eq(got->err, want->err, "%s: standard error differs", what);
}

/* The entry the cache folder holds (there is one): its path, in a static buffer. */
static const char *only_entry(const char *cache)
{
    static char path[512];
    char dir[256];
    snprintf(dir, sizeof dir, "%s/binform", cache);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "no cache folder %s", dir);
    int found = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".bfso")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            found++;
        }
    closedir(d);
    cr_assert_eq(found, 1, "%d entries in %s, one expected", found, dir);
    return path;
}

/* ---- a user's own schema, written here, outside the project ---- */

static const char palette_schema[] =
    "format: palette\n"
    "title: Tiny palette\n"
    "endian: little\n"
    "files:\n"
    "  - { name: palette, root: Palette, extensions: [pal], magic: PAL1 }\n"
    "types:\n"
    "  Palette:\n"
    "    doc: A palette file.\n"
    "    fields:\n"
    "      - { name: magic, type: \"char[4]\", const: PAL1, doc: \"Always PAL1.\" }\n"
    "      - { name: count, type: u16, doc: \"Number of colours.\" }\n"
    "      - { name: colors, type: \"Color[count]\", doc: \"The colours.\" }\n"
    "    rules:\n"
    "      - { check: \"count <= 16\", message: \"MESSAGE {count} colours, more than 16\", at: count }\n"
    "  Color:\n"
    "    doc: One colour.\n"
    "    fields:\n"
    "      - { name: r, type: u8, doc: Red. }\n"
    "      - { name: g, type: u8, doc: Green. }\n"
    "      - { name: b, type: u8, doc: Blue. }\n";

/* The palette schema with its rule's message starting with `word`, in DIR/palette.yaml. */
static void write_palette(const char *dir, const char *word)
{
    char path[256], *text = strdup(palette_schema);
    cr_assert_not_null(text);
    char *at = strstr(text, "MESSAGE");
    size_t n = strlen(word);
    cr_assert_eq(n, strlen("MESSAGE"), "same length, to keep it simple");
    memcpy(at, word, n);
    snprintf(path, sizeof path, "%s/palette.yaml", dir);
    write_text(path, text);
    free(text);
}

/* A palette of 17 colours: the rule fails, and says so with its message. */
static void write_big_palette(const char *dir)
{
    uint8_t data[6 + 17 * 3] = {'P', 'A', 'L', '1', 17, 0};
    for (int i = 0; i < 17 * 3; i++)
        data[6 + i] = (uint8_t)i;
    char path[256];
    snprintf(path, sizeof path, "%s/big.pal", dir);
    write_file(path, data, sizeof data);
}

/* A folder with the palette schema, a palette, and an empty cache folder of its own. */
static char *palette_setup(char *cache, size_t size)
{
    char *dir = test_temp_dir("schema");
    write_palette(dir, "MESSAGE");
    write_big_palette(dir);
    snprintf(cache, size, "%s/cache", dir);
    cr_assert_eq(setenv("XDG_CACHE_HOME", cache, 1), 0);
    cr_assert_eq(chdir(dir), 0);
    return dir;
}

Test(schema_option, a_user_schema_checks_dumps_builds_explains_and_round_trips)
{
    char cache[256];
    char *dir = palette_setup(cache, sizeof cache);
    cli_result *r = cli_run("formats --schema palette.yaml");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, "palette  Tiny palette (little-endian)") != NULL, "%s", r->out);
    cr_expect(strstr(r->out, "t3dm") != NULL, "the compiled-in formats are still there: %s", r->out);
    r = cli_run("check --schema palette.yaml big.pal");
    cr_expect_eq(r->status, 1);
    cr_expect(strstr(r->out, "big.pal: error: count @0x4: MESSAGE 17 colours, more than 16") != NULL, "%s", r->out);
    r = cli_run("check big.pal");
    cr_expect_eq(r->status, 2, "without --schema binform does not know it: %s", r->out);
    r = cli_run("dump --compact --schema palette.yaml big.pal");
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, "\"format\":\"palette\"") != NULL, "%s", r->out);
    /* edit: two colours only, then build, check, round-trip */
    char *json = strdup(r->out);
    char *cut = strstr(json, "{\"_offset\":12,");
    cr_assert_not_null(cut, "%s", json);
    strcpy(cut - 1, "]}}\n");
    write_text("small.json", json);
    free(json);
    r = cli_run("build --schema palette.yaml small.json -o small.pal");
    cr_assert_eq(r->status, 0, "%s", r->err);
    uint8_t *data;
    size_t size;
    cr_assert(load_file("small.pal", &data, &size));
    const uint8_t want[] = {'P', 'A', 'L', '1', 2, 0, 0, 1, 2, 3, 4, 5};
    cr_expect_eq(size, sizeof want);
    cr_expect(size == sizeof want && memcmp(data, want, size) == 0, "the count follows the edit");
    free(data);
    r = cli_run("check -v --schema palette.yaml small.pal");
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "small.pal: ok (palette palette)") != NULL, "%s", r->out);
    r = cli_run("roundtrip --schema palette.yaml small.pal big.pal");
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "small.pal: identical (12 bytes)") != NULL, "%s", r->out);
    r = cli_run("explain --schema palette.yaml small.pal");
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, "count: u16 = 2  [02 00]  # Number of colours.") != NULL, "%s", r->out);
    r = cli_run("info --schema palette.yaml small.pal");
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, "structures: Palette 1, Color 2") != NULL, "%s", r->out);
    test_remove_tree(dir);
}

Test(schema_option, schema_mistakes_are_shown_as_bfgen_shows_them)
{
    char cache[256];
    char *dir = palette_setup(cache, sizeof cache);
    char *text = strdup(palette_schema);
    cr_assert_not_null(text);
    memcpy(strstr(text, "type: u16"), "type: u17", 9);
    memcpy(strstr(text, "root: Palette"), "root: Palett_", 13);
    write_text("bad.yaml", text);
    free(text);
    cli_result *r = cli_run("check --schema bad.yaml big.pal");
    cr_expect_eq(r->status, 2);
    cr_expect_str_eq(r->out, "");
    cr_expect(strstr(r->err, "bad.yaml:5:5: error: unknown root type 'Palett_'") != NULL, "%s", r->err);
    cr_expect(strstr(r->err, "bad.yaml:11:9: error: unknown type 'u17' (did you mean 'u16'?)") != NULL, "%s", r->err);
    r = cli_run("check --schema missing.yaml big.pal");
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "missing.yaml") != NULL, "%s", r->err);
    test_remove_tree(dir);
}

Test(schema_option, the_cache_is_private_and_a_changed_schema_is_rebuilt)
{
    char cache[256];
    char *dir = palette_setup(cache, sizeof cache);
    cli_result *r = cli_run("check --schema palette.yaml big.pal");
    cr_expect(strstr(r->out, "MESSAGE 17 colours") != NULL, "%s%s", r->out, r->err);
    char folder[300];
    snprintf(folder, sizeof folder, "%s/binform", cache);
    struct stat st;
    cr_assert_eq(stat(folder, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0700, "the cache folder is %o", st.st_mode & 0777);
    cr_assert_eq(stat(only_entry(cache), &st), 0);
    cr_expect_eq(st.st_mode & 077, 0, "an entry is %o", st.st_mode & 0777);
    /* the same schema again: served from the entry, not rebuilt */
    ino_t inode = st.st_ino;
    r = cli_run("check --schema palette.yaml big.pal");
    cr_expect(strstr(r->out, "MESSAGE 17 colours") != NULL, "%s%s", r->out, r->err);
    cr_assert_eq(stat(only_entry(cache), &st), 0);
    cr_expect_eq(st.st_ino, inode, "an unchanged schema is served from its entry");
    /* changed: its own entry */
    write_palette(dir, "CHANGED");
    r = cli_run("check --schema palette.yaml big.pal");
    cr_expect(strstr(r->out, "CHANGED 17 colours") != NULL, "a changed schema is never served from an old entry: %s%s",
              r->out, r->err);
    test_remove_tree(dir);
}

/* The entries' checksum, as cli/binform/schema_cache.c computes it. */
static uint64_t entry_sum(const uint8_t *p, size_t size)
{
    const uint64_t k = UINT64_C(0x9E3779B97F4A7C15);
    uint64_t lane[4] = {k, k ^ 1, k ^ 2, k ^ 3};
    size_t i = 0;
    for (; i + 32 <= size; i += 32)
        for (int l = 0; l < 4; l++) {
            uint64_t w;
            memcpy(&w, p + i + 8 * l, 8);
            lane[l] = (lane[l] ^ w) * k;
            lane[l] ^= lane[l] >> 31;
        }
    uint64_t h = (uint64_t)size * k;
    for (int l = 0; l < 4; l++) {
        h = (h ^ lane[l]) * k;
        h ^= h >> 31;
    }
    for (; i < size; i++) {
        h = (h ^ p[i]) * k;
        h ^= h >> 31;
    }
    return h;
}

/* Copies the entry `from` to `to` with `to`'s key in its last line (file name and that line
 * agree, the checksum is right): an entry of another schema that only the cache's own checks
 * keep from being served. */
static void forge_entry(const char *from, const char *to)
{
    uint8_t *data;
    size_t size;
    cr_assert(load_file(from, &data, &size));
    const char *name = strrchr(to, '/') + 1;
    size_t last = size - 1;
    while (last > 0 && data[last - 1] != '\n')
        last--;
    /* the last line: "binform-schema-cache 3 KEY SUM OBJECT-SIZE IMPORTS" */
    uint8_t *space = memchr(data + last, ' ', size - last);
    cr_assert_not_null(space);
    space = memchr(space + 1, ' ', size - (size_t)(space + 1 - data));
    cr_assert_not_null(space);
    memcpy(space + 1, name, 64);
    /* the sum after the key is this file's entry_sum (which the other forgeries rely on) */
    char sum[17];
    snprintf(sum, sizeof sum, "%016llx", (unsigned long long)entry_sum(data, last));
    cr_assert(memcmp(space + 1 + 64 + 1, sum, 16) == 0, "the entries' checksum is not entry_sum");
    write_file(to, data, size);
    free(data);
}

/* Builds the entry of the palette schema with `word` and moves it to DIR/WORD.bfso; where it
 * was goes into `place`. */
static void entry_of(const char *dir, const char *cache, const char *word, char *place, size_t size)
{
    write_palette(dir, word);
    cli_result *r = cli_run("check --schema palette.yaml big.pal");
    cr_assert(strstr(r->out, word) != NULL, "%s%s", r->out, r->err);
    snprintf(place, size, "%s", only_entry(cache));
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mv '%s' '%s/%s.bfso'", place, dir, word);
    cr_assert_eq(system(cmd), 0);
}

Test(schema_option, entries_writable_by_others_or_corrupt_are_rebuilt)
{
    char cache[256];
    char *dir = palette_setup(cache, sizeof cache);
    char other[512], entry[512], unused[512];
    entry_of(dir, cache, "CHANGED", unused, sizeof unused);
    snprintf(other, sizeof other, "%s/CHANGED.bfso", dir);
    entry_of(dir, cache, "MESSAGE", entry, sizeof entry);
    write_palette(dir, "MESSAGE");

    /* another schema's entry forged in its place, private: served (which is what shows that
     * the checks below are what keeps the others from being served) */
    forge_entry(other, entry);
    cr_assert_eq(chmod(entry, 0600), 0);
    cli_result *r = cli_run("check --schema palette.yaml big.pal");
    cr_expect(strstr(r->out, "CHANGED 17") != NULL, "a sound entry is loaded as it is: %s%s", r->out, r->err);

    /* writable by the group, by others: never loaded, rebuilt */
    const mode_t unsafe[] = {0620, 0602, 0666};
    for (size_t i = 0; i < sizeof unsafe / sizeof unsafe[0]; i++) {
        forge_entry(other, entry);
        cr_assert_eq(chmod(entry, unsafe[i]), 0);
        r = cli_run("check --schema palette.yaml big.pal");
        cr_expect(strstr(r->out, "MESSAGE 17") != NULL, "an entry of mode %o is not loaded: %s%s", unsafe[i], r->out,
                  r->err);
        struct stat st;
        cr_assert_eq(stat(entry, &st), 0);
        cr_expect_eq(st.st_mode & 077, 0, "rebuilt private (%o)", st.st_mode & 0777);
    }

    /* corrupt: one byte of the object changed, or cut short */
    uint8_t *data;
    size_t size;
    cr_assert(load_file(entry, &data, &size));
    data[size / 2] ^= 0x40;
    write_file(entry, data, size);
    r = cli_run("check --schema palette.yaml big.pal");
    cr_expect(strstr(r->out, "MESSAGE 17") != NULL, "a corrupt entry is rebuilt: %s%s", r->out, r->err);
    uint8_t *again;
    size_t again_size;
    cr_assert(load_file(entry, &again, &again_size));
    cr_expect(again_size == size && again[size / 2] == (data[size / 2] ^ 0x40), "and replaced");
    free(again);
    write_file(entry, data, size / 3);
    r = cli_run("check --schema palette.yaml big.pal");
    cr_expect(strstr(r->out, "MESSAGE 17") != NULL, "a truncated entry is rebuilt: %s%s", r->out, r->err);
    free(data);

    /* sound, but not an object that loads: rebuilt too */
    char forged[512];
    const char body[] = "not an object\n";
    int n = snprintf(forged, sizeof forged, "%sbinform-schema-cache 3 %.64s %016llx 13 0\n", body, strrchr(entry, '/') + 1,
                     (unsigned long long)entry_sum((const uint8_t *)body, strlen(body)));
    write_file(entry, forged, (size_t)n);
    r = cli_run("check --schema palette.yaml big.pal");
    cr_expect_eq(r->status, 1, "%s", r->err);
    cr_expect(strstr(r->out, "MESSAGE 17") != NULL, "an entry that does not load is rebuilt: %s%s", r->out, r->err);

    /* a symbolic link in the entry's place is not followed */
    cr_assert_eq(unlink(entry), 0);
    char target[600];
    snprintf(target, sizeof target, "%s/elsewhere", dir);
    cr_assert_eq(mkdir(target, 0700), 0);
    snprintf(target, sizeof target, "%s/elsewhere/%s", dir, strrchr(entry, '/') + 1);
    forge_entry(other, target);
    cr_assert_eq(symlink(target, entry), 0);
    r = cli_run("check --schema palette.yaml big.pal");
    cr_expect(strstr(r->out, "MESSAGE 17") != NULL, "%s%s", r->out, r->err);
    test_remove_tree(dir);
}

Test(schema_option, a_cache_folder_writable_by_others_is_not_used)
{
    char cache[256];
    char *dir = palette_setup(cache, sizeof cache);
    char other[512], entry[512], unused[512];
    entry_of(dir, cache, "CHANGED", unused, sizeof unused);
    snprintf(other, sizeof other, "%s/CHANGED.bfso", dir);
    entry_of(dir, cache, "MESSAGE", entry, sizeof entry);
    write_palette(dir, "MESSAGE");
    forge_entry(other, entry);
    cr_assert_eq(chmod(entry, 0600), 0);
    char folder[300];
    snprintf(folder, sizeof folder, "%s/binform", cache);
    cr_assert_eq(chmod(folder, 0770), 0);
    cli_result *r = cli_run("check --schema palette.yaml big.pal");
    cr_expect(strstr(r->out, "MESSAGE 17") != NULL, "the open folder's entry is not loaded: %s%s", r->out, r->err);
    cr_expect(strstr(r->err, "not using the schema cache") != NULL, "%s", r->err);
    cr_assert_eq(chmod(folder, 0700), 0);
    r = cli_run("check --schema palette.yaml big.pal");
    cr_expect(strstr(r->out, "CHANGED 17") != NULL, "the same entry, the folder private again: %s%s", r->out, r->err);
    test_remove_tree(dir);
}

Test(schema_option, two_processes_fill_the_cache_at_once)
{
    char cache[256];
    char *dir = palette_setup(cache, sizeof cache);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "(%s check --schema palette.yaml big.pal > a.out 2>&1; echo $? > a.status) & "
             "(%s check --schema palette.yaml big.pal > b.out 2>&1; echo $? > b.status) & wait",
             BINFORM, BINFORM);
    cr_assert_eq(system(cmd), 0);
    const char *names[] = {"a", "b"};
    for (int i = 0; i < 2; i++) {
        char path[64];
        uint8_t *data;
        size_t size;
        snprintf(path, sizeof path, "%s.status", names[i]);
        cr_assert(load_file(path, &data, &size));
        cr_expect(size >= 1 && data[0] == '1', "process %s: exit %.*s", names[i], (int)size, (char *)data);
        free(data);
        snprintf(path, sizeof path, "%s.out", names[i]);
        cr_assert(load_file(path, &data, &size));
        cr_expect(size > 0 && strstr((char *)data, "MESSAGE 17 colours") != NULL, "process %s: %.*s", names[i],
                  (int)size, (char *)data);
        free(data);
    }
    only_entry(cache);
    cli_result *r = cli_run("check --schema palette.yaml big.pal");
    cr_expect(strstr(r->out, "MESSAGE 17") != NULL, "%s%s", r->out, r->err);
    test_remove_tree(dir);
}

Test(schema_option, what_interrupted_builds_left_is_removed_when_old)
{
    char cache[256];
    char *dir = palette_setup(cache, sizeof cache);
    char path[512];
    snprintf(path, sizeof path, "%s/binform", cache);
    cr_assert_eq(mkdir(cache, 0700), 0);
    cr_assert_eq(mkdir(path, 0700), 0);
    const char *names[] = {"build-old123", ".entry-old123", "build-new123"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/binform/%s", cache, names[i]);
        if (names[i][0] == 'b') {
            cr_assert_eq(mkdir(path, 0700), 0);
            char inside[600];
            snprintf(inside, sizeof inside, "%s/gen.c", path);
            write_text(inside, "int x;\n");
        } else
            write_text(path, "partial");
        if (strstr(names[i], "old")) {
            struct timeval old[2] = {{time(NULL) - 7200, 0}, {time(NULL) - 7200, 0}};
            cr_assert_eq(utimes(path, old), 0);
        }
    }
    cli_result *r = cli_run("check --schema palette.yaml big.pal");
    cr_expect(strstr(r->out, "MESSAGE 17") != NULL, "%s%s", r->out, r->err);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/binform/%s", cache, names[i]);
        struct stat st;
        cr_expect_eq(stat(path, &st) == 0, strstr(names[i], "new") != NULL, "%s", names[i]);
    }
    test_remove_tree(dir);
}

Test(schema_option, a_compiler_that_fails_is_named)
{
    char cache[256];
    char *dir = palette_setup(cache, sizeof cache);
    cr_assert_eq(setenv("BINFORM_CC", "false", 1), 0);
    cli_result *r = cli_run("check --schema palette.yaml big.pal");
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "compiling the generated code with 'false' failed") != NULL, "%s", r->err);
    cr_assert_eq(unsetenv("BINFORM_CC"), 0);
    test_remove_tree(dir);
}

/* ---- identity: every sample of every project format, through --schema and compiled in ---- */

/* "VALUE" of "KEY":"VALUE" in a JSON line (no escapes in the values looked for). */
static int json_string(const char *line, const char *key, char *out, size_t size)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    const char *at = strstr(line, pattern);
    if (!at)
        return 0;
    at += strlen(pattern);
    const char *end = strchr(at, '"');
    if (!end || (size_t)(end - at) >= size)
        return 0;
    memcpy(out, at, (size_t)(end - at));
    out[end - at] = '\0';
    return 1;
}

/* The release binform, for the file-by-file dumps: a hundred starts of the sanitizer build
 * cost 15 s of CPU in the sanitizers' start-up alone, and the commands above run the same
 * code under them. */
static cli_result *release_run(const char *fmt, ...)
{
    static cli_result r;
    char args[4096], cmd[4400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s/build/bin/binform %s 2>/dev/null", BF_PROJECT_DIR, args);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t cap = 1 << 16, n = 0, got;
    free(r.out);
    r.out = malloc(cap);
    cr_assert_not_null(r.out);
    while ((got = fread(r.out + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            r.out = realloc(r.out, cap *= 2);
            cr_assert_not_null(r.out);
        }
    }
    r.out[n] = '\0';
    int raw = pclose(p);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.err[0] = '\0';
    return &r;
}

Test(schema_option, every_sample_reads_the_same_through_schema_and_compiled_in, .timeout = 600)
{
    REQUIRE_SAMPLES();
    /* a cache that lasts from one run of the tests to the next: the schemas are compiled once,
     * until they, bfgen or the runtime change (the key says so) */
    char cache[512];
    snprintf(cache, sizeof cache, "%s/build/tests/schema-cache", BF_PROJECT_DIR);
    cr_assert_eq(setenv("XDG_CACHE_HOME", cache, 1), 0);
    const char *samples = sample_path("");
    const char *commands[] = {"check -r", "check --json-lines -r", "roundtrip -r", "info -r"};
    enum { COMMANDS = sizeof commands / sizeof commands[0] };
    /* which format each sample is */
    char *lines = strdup(cli_runf("check --json-lines -r %s", samples)->out);
    cr_assert_not_null(lines);

    DIR *d = opendir(SCHEMAS);
    cr_assert_not_null(d);
    struct dirent *e;
    int formats = 0, dumped = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
            continue;
        char format[64];
        snprintf(format, sizeof format, "%.*s", (int)(len - 5), e->d_name);
        formats++;
        /* the folders of its samples (a model's other files, members of its file set, of
         * other formats, go through the compiled-in formats either way) */
        char folders[2048] = "";
        size_t used = 0;
        char *scan = strdup(lines), *scan_ptr = NULL;
        cr_assert_not_null(scan);
        for (char *line = strtok_r(scan, "\n", &scan_ptr); line; line = strtok_r(NULL, "\n", &scan_ptr)) {
            char file[512], fmt[64], folder[600];
            if (!json_string(line, "file", file, sizeof file) || !json_string(line, "format", fmt, sizeof fmt) ||
                strcmp(fmt, format) != 0 || strncmp(file, samples, strlen(samples)) != 0)
                continue;
            const char *rel = file + strlen(samples);
            snprintf(folder, sizeof folder, " '%s%.*s'", samples, (int)strcspn(rel, "/"), rel);
            if (!strstr(folders, folder) && used + strlen(folder) < sizeof folders)
                used += (size_t)snprintf(folders + used, sizeof folders - used, "%s", folder);
        }
        free(scan);
        for (int c = 0; used && c < COMMANDS; c++) {
            saved compiled = save(cli_runf("%s%s", commands[c], folders));
            char what[2600];
            snprintf(what, sizeof what, "%s --schema %s%s", commands[c], e->d_name, folders);
            expect_same(&compiled, cli_runf("%s --schema %s/%s%s", commands[c], SCHEMAS, e->d_name, folders), what);
            drop(&compiled);
        }
        /* each of its files dumped (roundtrip above wrote each back, byte for byte) */
        char *copy = strdup(lines), *save_ptr = NULL;
        cr_assert_not_null(copy);
        for (char *line = strtok_r(copy, "\n", &save_ptr); line; line = strtok_r(NULL, "\n", &save_ptr)) {
            char file[512], fmt[64];
            if (!json_string(line, "file", file, sizeof file) || !json_string(line, "format", fmt, sizeof fmt) ||
                strcmp(fmt, format) != 0)
                continue;
            saved want = save(release_run("dump '%s'", file));
            char what[1200];
            snprintf(what, sizeof what, "dump %s --schema %s", file, e->d_name);
            expect_same(&want, release_run("dump --schema %s/%s '%s'", SCHEMAS, e->d_name, file), what);
            drop(&want);
            dumped++;
        }
        free(copy);
    }
    closedir(d);
    cr_expect_geq(formats, 7, "the project's schemas (%s)", SCHEMAS);
    cr_expect_geq(dumped, 40, "the samples of the project's formats");
    free(lines);
}

/* A field aligned at the very start of a file pads nothing: the writer once failed there, with
 * no message, on its first zero-length put into an empty image (found by make fuzz-schemas). */
Test(schema_option, an_aligned_first_field_round_trips)
{
    char *dir = test_temp_dir("schema");
    char cache[256];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    cr_assert_eq(setenv("XDG_CACHE_HOME", cache, 1), 0);
    cr_assert_eq(chdir(dir), 0);
    write_text("aligned.yaml", "format: aligned\nendian: little\nfiles:\n  - { name: file, root: Root, extensions: [al] }\n"
                               "types:\n  Root:\n    doc: The file.\n    fields:\n"
                               "      - { name: f0, type: u32, align: 16, doc: \"Aligned.\" }\n"
                               "      - { name: rest, type: \"u8[]\", to_end: true, doc: \"The rest.\" }\n");
    const uint8_t data[] = {1, 2, 3, 4, 5, 6};
    write_file("six.al", data, sizeof data);
    cli_result *r = cli_run("roundtrip --schema aligned.yaml six.al");
    cr_expect_eq(r->status, 0, "%s%s", r->out, r->err);
    cr_expect(strstr(r->out, "six.al: identical (6 bytes)"), "%s", r->out);
}
