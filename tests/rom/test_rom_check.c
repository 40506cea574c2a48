/* rom_check (n64/rom/check), the host side of make n64-rom-test: when the console's frame
 * differs from binform render's picture, the verdict ("N of M pixels differ") comes first, then
 * the first pixels that differ, and a sanitizer build says nothing after it (no leak report to
 * bury the verdict). The host picture is the README's torus (320x240); the console's frame a
 * log of one colour. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"

#define ROM_CHECK BF_PROJECT_DIR "/build/n64/rom/rom_check"
#define TORUS_PNG BF_PROJECT_DIR "/n64/torus.png"

/* A console log of a 320x240 rgba8888 frame, every pixel `rgba`, with its FNV-1a hash. */
static void write_log(const char *path, uint32_t rgba)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < 320 * 240; i++)
        for (int k = 3; k >= 0; k--)
            h = (h ^ (uint8_t)(rgba >> (8 * k))) * 16777619u;
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "model: test\nframe: 320x240 rgba8888 fnv1a 0x%08x\n", h);
    for (int y = 0; y < 240; y++)
        fprintf(f, "px %d 0 %x*320\n", y, rgba);
    fprintf(f, "done: drawn\n");
    fclose(f);
}

/* Runs `cmd`; its standard output into `out` (NUL-terminated), standard error into `err`. */
static int run(const char *cmd, char *out, size_t out_size, char *err, size_t err_size)
{
    char line[1024], err_path[] = "/tmp/rom_check_err_XXXXXX";
    int fd = mkstemp(err_path);
    cr_assert(fd >= 0);
    close(fd);
    snprintf(line, sizeof line, "ASAN_OPTIONS=detect_leaks=1 %s 2>%s", cmd, err_path);
    FILE *p = popen(line, "r");
    cr_assert_not_null(p);
    size_t n = fread(out, 1, out_size - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    FILE *e = fopen(err_path, "r");
    n = e ? fread(err, 1, err_size - 1, e) : 0;
    err[n] = '\0';
    if (e)
        fclose(e);
    unlink(err_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Test(rom_check, the_verdict_comes_first_and_nothing_leaks)
{
    cr_assert_eq(access(ROM_CHECK, X_OK), 0, "%s is built with the tests", ROM_CHECK);
    char log[] = "/tmp/rom_check_log_XXXXXX";
    int fd = mkstemp(log);
    cr_assert(fd >= 0);
    close(fd);
    write_log(log, 0x000000FFu); /* black: the torus picture's background is not */
    static char out[16384], err[16384];
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s picture %s %s", ROM_CHECK, log, TORUS_PNG);
    int status = run(cmd, out, sizeof out, err, sizeof err);
    unlink(log);
    cr_expect_eq(status, 1, "%s%s", out, err);
    unsigned differ = 0;
    int used = 0;
    cr_expect(sscanf(out, "rom_check: %u of 76800 pixels differ between the console and binform render\n%n", &differ,
                     &used) == 1 && used > 0,
              "the verdict is the first line: %s", out);
    cr_expect(differ > 1000, "most of the torus picture is not black: %u", differ);
    cr_expect(strstr(out, "rom_check: pixel (0, 0): console 000000 (0x000000ff), host ") != NULL, "%s", out);
    cr_expect(strstr(err, "LeakSanitizer") == NULL, "nothing leaks: %s", err);
    cr_expect_eq(err[0], '\0', "nothing on stderr: %s", err);
}
