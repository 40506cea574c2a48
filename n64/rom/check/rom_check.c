/* rom_check picture LOG PNG [OUT.png]: reads the framebuffer the ROM printed over the
 * IS-Viewer (n64/rom/report.h: a "frame:" line with its FNV-1a hash, then
 * "px" lines) and compares it with a picture binform render saved: pixel for
 * pixel, the console's 16-bit colours widened as binform render widens them.
 * Prints how many pixels differ, then the first of them; exit status 0 only when every pixel
 * agrees. Everything it allocates is freed, so that a sanitizer build says nothing after it.
 * OUT.png, when given, receives the console's picture.
 * Host tool (libpng), part of make n64-rom-test. */
#include <png.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE 1024
#define SHOW_DIFFERENCES 20

typedef struct frame {
    unsigned width, height;
    bool color32;
    uint32_t hash;
    uint32_t *pixels;
    uint8_t *seen;
} frame_t;

static uint32_t fnv1a(const uint8_t *bytes, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ bytes[i]) * 16777619u;
    return h;
}

/* One "px Y X tokens" line. */
static bool read_row(frame_t *f, char *line)
{
    unsigned y, x;
    int used;
    if (sscanf(line, "px %u %u%n", &y, &x, &used) != 2 || y >= f->height)
        return false;
    char *p = line + used;
    for (char *tok = strtok(p, " \n"); tok; tok = strtok(NULL, " \n")) {
        char *end;
        unsigned long v = strtoul(tok, &end, 16), run = 1;
        if (*end == '*')
            run = strtoul(end + 1, &end, 10);
        if (*end || run == 0 || x + run > f->width)
            return false;
        for (unsigned long k = 0; k < run; k++, x++) {
            f->pixels[(size_t)y * f->width + x] = (uint32_t)v;
            f->seen[(size_t)y * f->width + x]++;
        }
    }
    return true;
}

static bool read_log(const char *path, frame_t *f)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        perror(path);
        return false;
    }
    char line[4096], format[16];
    bool done = false, ok = true;
    unsigned lineno = 0;
    while (ok && fgets(line, sizeof line, in)) {
        lineno++;
        if (strncmp(line, "frame: ", 7) == 0) {
            if (f->pixels || sscanf(line, "frame: %ux%u %15s fnv1a 0x%x", &f->width, &f->height, format, &f->hash) != 4 ||
                f->width == 0 || f->height == 0 || f->width > MAX_SIDE || f->height > MAX_SIDE) {
                fprintf(stderr, "%s:%u: a frame line I cannot read\n", path, lineno);
                ok = false;
                break;
            }
            f->color32 = strcmp(format, "rgba8888") == 0;
            f->pixels = calloc((size_t)f->width * f->height, sizeof *f->pixels);
            f->seen = calloc((size_t)f->width * f->height, 1);
            if (!f->pixels || !f->seen) {
                fprintf(stderr, "%s:%u: out of memory for a %ux%u frame\n", path, lineno, f->width, f->height);
                ok = false;
            }
        } else if (strncmp(line, "px ", 3) == 0) {
            if (!f->pixels || !read_row(f, line)) {
                fprintf(stderr, "%s:%u: a pixel line I cannot read\n", path, lineno);
                ok = false;
            }
        } else if (strncmp(line, "done: drawn", 11) == 0) {
            done = true;
        }
    }
    fclose(in);
    if (ok && (!done || !f->pixels)) {
        fprintf(stderr, "%s: the console did not draw a frame (no \"done: drawn\" or no \"frame:\")\n", path);
        ok = false;
    }
    for (size_t i = 0; ok && i < (size_t)f->width * f->height; i++)
        if (f->seen[i] != 1) {
            fprintf(stderr, "%s: pixel (%zu, %zu) was sent %u times\n", path, i % f->width, i / f->width,
                    (unsigned)f->seen[i]);
            ok = false;
        }
    if (ok) { /* the hash of the framebuffer as stored: big-endian pixels */
        size_t size = f->color32 ? 4 : 2, n = (size_t)f->width * f->height;
        uint8_t *bytes = malloc(n * size);
        if (!bytes) {
            fprintf(stderr, "%s: out of memory\n", path);
            return false;
        }
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; k < size; k++)
                bytes[i * size + k] = (uint8_t)(f->pixels[i] >> (8 * (size - 1 - k)));
        uint32_t h = fnv1a(bytes, n * size);
        free(bytes);
        if (h != f->hash) {
            fprintf(stderr, "%s: the pixels hash to 0x%08x, the console said 0x%08x: the log is garbled\n", path, h,
                    f->hash);
            ok = false;
        }
    }
    return ok;
}

/* RGB as binform render writes it (n64/host_run/render_model.c: read_picture). */
static void widen(const frame_t *f, uint32_t v, uint8_t rgb[3])
{
    if (f->color32) {
        rgb[0] = (uint8_t)(v >> 24), rgb[1] = (uint8_t)(v >> 16), rgb[2] = (uint8_t)(v >> 8);
        return;
    }
    unsigned c[3] = {v >> 11 & 31u, v >> 6 & 31u, v >> 1 & 31u};
    for (int i = 0; i < 3; i++)
        rgb[i] = (uint8_t)(c[i] << 3 | c[i] >> 2);
}

static bool save_console(const frame_t *f, const char *path)
{
    uint8_t *rgba = malloc((size_t)f->width * f->height * 4);
    if (!rgba)
        return false;
    for (size_t i = 0; i < (size_t)f->width * f->height; i++) {
        widen(f, f->pixels[i], rgba + 4 * i);
        rgba[4 * i + 3] = 255;
    }
    png_image png;
    memset(&png, 0, sizeof png);
    png.version = PNG_IMAGE_VERSION;
    png.width = f->width;
    png.height = f->height;
    png.format = PNG_FORMAT_RGBA;
    bool ok = png_image_write_to_file(&png, path, 0, rgba, 0, NULL) != 0;
    if (!ok)
        fprintf(stderr, "%s: %s\n", path, png.message);
    free(rgba);
    return ok;
}

/* Counts the pixels of the console's frame that differ from the host's picture. */
static size_t count_differences(const frame_t *f, const uint8_t *host)
{
    size_t differ = 0;
    for (size_t i = 0; i < (size_t)f->width * f->height; i++) {
        uint8_t rgb[3];
        widen(f, f->pixels[i], rgb);
        differ += memcmp(rgb, host + 4 * i, 3) != 0;
    }
    return differ;
}

/* The first SHOW_DIFFERENCES pixels that differ, one line each. */
static void show_differences(const frame_t *f, const uint8_t *host)
{
    size_t shown = 0;
    for (unsigned y = 0; y < f->height && shown < SHOW_DIFFERENCES; y++)
        for (unsigned x = 0; x < f->width && shown < SHOW_DIFFERENCES; x++) {
            uint8_t rgb[3];
            uint32_t v = f->pixels[(size_t)y * f->width + x];
            widen(f, v, rgb);
            const uint8_t *h = host + 4 * ((size_t)y * f->width + x);
            if (memcmp(rgb, h, 3) == 0)
                continue;
            shown++;
            printf("rom_check: pixel (%u, %u): console %02x%02x%02x (0x%0*x), host %02x%02x%02x\n", x, y, rgb[0], rgb[1],
                   rgb[2], f->color32 ? 8 : 4, v, h[0], h[1], h[2]);
        }
}

/* Compares the frame with the host's picture; the verdict comes first, then the pixels that
 * show it. Returns the exit status. */
static int compare(const frame_t *f, const char *host_path, const char *console_out)
{
    png_image png;
    memset(&png, 0, sizeof png);
    png.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&png, host_path)) {
        fprintf(stderr, "%s: %s\n", host_path, png.message);
        return 2;
    }
    png.format = PNG_FORMAT_RGBA;
    uint8_t *host = malloc(PNG_IMAGE_SIZE(png));
    if (!host || !png_image_finish_read(&png, NULL, host, 0, NULL)) {
        fprintf(stderr, "%s: %s\n", host_path, png.message);
        png_image_free(&png);
        free(host);
        return 2;
    }
    int status = 0;
    if (png.width != f->width || png.height != f->height) {
        printf("rom_check: the console drew %ux%u, the host %ux%u\n", f->width, f->height, png.width, png.height);
        status = 1;
    } else if (console_out && !save_console(f, console_out)) {
        status = 2;
    } else {
        size_t differ = count_differences(f, host);
        if (differ) {
            printf("rom_check: %zu of %u pixels differ between the console and binform render\n", differ,
                   f->width * f->height);
            show_differences(f, host);
            status = 1;
        } else {
            printf("rom_check: all %u pixels of the console's %ux%u frame (fnv1a 0x%08x) equal binform render's\n",
                   f->width * f->height, f->width, f->height, f->hash);
        }
    }
    free(host);
    return status;
}

int main(int argc, char **argv)
{
    if ((argc != 4 && argc != 5) || strcmp(argv[1], "picture") != 0) {
        fprintf(stderr, "usage: rom_check picture CONSOLE.log HOST.png [CONSOLE.png]\n");
        return 2;
    }
    frame_t f = {0};
    int status = read_log(argv[2], &f) ? compare(&f, argv[3], argc == 5 ? argv[4] : NULL) : 1;
    free(f.pixels);
    free(f.seen);
    fflush(stdout); /* the verdict before anything printed at exit */
    return status;
}
