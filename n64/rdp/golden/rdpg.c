/* .rdpg reader and runner. */
#define _POSIX_C_SOURCE 200809L
#include "rdpg.h"

#include "rdp.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define RDPG_MAGIC 0x52445047u
#define RDPG_MAX_RDRAM (64u << 20)

static void set_error(char *error, size_t size, const char *format, ...)
{
    if (!error || !size)
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(error, size, format, args);
    va_end(args);
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* cursor over the file image: every take is bounds-checked */
typedef struct cursor {
    const uint8_t *data;
    size_t size, at;
} cursor_t;

static bool take(cursor_t *c, size_t n, const uint8_t **out)
{
    if (n > c->size - c->at)
        return false;
    *out = c->data + c->at;
    c->at += n;
    return true;
}

static bool take32(cursor_t *c, uint32_t *v)
{
    const uint8_t *p;
    if (!take(c, 4, &p))
        return false;
    *v = be32(p);
    return true;
}

static bool range_ok(uint32_t addr, uint64_t len, uint32_t limit)
{
    return (uint64_t)addr + len <= limit;
}

bool rdpg_parse(const uint8_t *data, size_t size, rdpg_case_t *out, char *error, size_t error_size)
{
    memset(out, 0, sizeof *out);
    if (size < 64) {
        set_error(error, error_size, "file of %zu bytes is shorter than the 64-byte header", size);
        return false;
    }
    uint8_t *copy = malloc(size);
    if (!copy) {
        set_error(error, error_size, "out of memory");
        return false;
    }
    memcpy(copy, data, size);
    out->file = copy;
    out->file_size = size;
    cursor_t c = {copy, size, 0};

    uint32_t h[16];
    for (int i = 0; i < 16; i++)
        take32(&c, &h[i]);
    if (h[0] != RDPG_MAGIC || h[1] != 1) {
        set_error(error, error_size, "not an RDPG version 1 file (magic 0x%08x, version %u)", h[0], h[1]);
        goto fail;
    }
    out->rdram_size = h[2];
    out->cmd_addr = h[3];
    out->cmd_len = h[4];
    out->nblobs = h[5];
    out->cimg_addr = h[6];
    out->cimg_format = h[7];
    out->cimg_size = h[8];
    out->width = h[9];
    out->height = h[10];
    out->zimg_addr = h[11];
    if (out->rdram_size == 0 || out->rdram_size > RDPG_MAX_RDRAM || out->rdram_size % 8) {
        set_error(error, error_size, "rdram_size 0x%x out of range", out->rdram_size);
        goto fail;
    }
    if (out->cmd_len % 8 || !range_ok(out->cmd_addr, out->cmd_len, out->rdram_size)) {
        set_error(error, error_size, "command list 0x%x+0x%x outside RDRAM or not a multiple of 8", out->cmd_addr, out->cmd_len);
        goto fail;
    }
    if (out->cimg_size < 1 || out->cimg_size > 3) {
        set_error(error, error_size, "colour image size code %u not 1..3", out->cimg_size);
        goto fail;
    }
    if (out->width == 0 || out->width > 1024 || out->height == 0 || out->height > 1024) {
        set_error(error, error_size, "image %ux%u out of range", out->width, out->height);
        goto fail;
    }
    size_t bpp = (size_t)1 << (out->cimg_size - 1);
    out->colour_bytes = (size_t)out->width * out->height * bpp;
    if (!range_ok(out->cimg_addr, out->colour_bytes, out->rdram_size)) {
        set_error(error, error_size, "colour image outside RDRAM");
        goto fail;
    }
    if (out->zimg_addr != RDPG_NO_Z) {
        out->z_bytes = (size_t)out->width * out->height * 2;
        if (!range_ok(out->zimg_addr, out->z_bytes, out->rdram_size)) {
            set_error(error, error_size, "Z image outside RDRAM");
            goto fail;
        }
    }
    if (!take(&c, out->cmd_len, &out->commands)) {
        set_error(error, error_size, "file ends inside the command list");
        goto fail;
    }
    if (out->nblobs > 1024) {
        set_error(error, error_size, "%u blobs is too many", out->nblobs);
        goto fail;
    }
    out->blobs = calloc(out->nblobs ? out->nblobs : 1, sizeof *out->blobs);
    if (!out->blobs) {
        set_error(error, error_size, "out of memory");
        goto fail;
    }
    for (uint32_t i = 0; i < out->nblobs; i++) {
        rdpg_blob_t *b = &out->blobs[i];
        if (!take32(&c, &b->kind) || !take32(&c, &b->addr) || !take32(&c, &b->len) || !take(&c, b->len, &b->data)) {
            set_error(error, error_size, "file ends inside blob %u", i);
            goto fail;
        }
        if (b->len % 8 || !range_ok(b->addr, b->len, out->rdram_size)) {
            set_error(error, error_size, "blob %u (0x%x+0x%x) outside RDRAM or not a multiple of 8", i, b->addr, b->len);
            goto fail;
        }
    }
    if (!take(&c, out->colour_bytes, &out->colour) || !take(&c, out->colour_bytes / 2, &out->colour_hidden)) {
        set_error(error, error_size, "file ends inside the expected colour image");
        goto fail;
    }
    if (out->z_bytes &&
        (!take(&c, out->z_bytes, &out->z) || !take(&c, out->z_bytes / 2, &out->z_hidden))) {
        set_error(error, error_size, "file ends inside the expected Z image");
        goto fail;
    }
    if (c.at != c.size) {
        set_error(error, error_size, "%zu trailing bytes", c.size - c.at);
        goto fail;
    }
    return true;
fail:
    rdpg_free(out);
    return false;
}

bool rdpg_load(const char *path, rdpg_case_t *out, char *error, size_t error_size)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_error(error, error_size, "cannot open %s", path);
        return false;
    }
    uint8_t *data = NULL;
    size_t size = 0, capacity = 0;
    for (;;) {
        if (size == capacity) {
            size_t grow = capacity ? capacity * 2 : 65536;
            if (grow > (256u << 20)) {
                free(data);
                fclose(f);
                set_error(error, error_size, "%s is too large", path);
                return false;
            }
            uint8_t *bigger = realloc(data, grow);
            if (!bigger) {
                free(data);
                fclose(f);
                set_error(error, error_size, "out of memory");
                return false;
            }
            data = bigger;
            capacity = grow;
        }
        size_t got = fread(data + size, 1, capacity - size, f);
        size += got;
        if (got == 0)
            break;
    }
    bool read_error = ferror(f);
    fclose(f);
    if (read_error) {
        free(data);
        set_error(error, error_size, "read error on %s", path);
        return false;
    }
    bool ok = rdpg_parse(data ? data : (const uint8_t *)"", size, out, error, error_size);
    free(data);
    return ok;
}

void rdpg_free(rdpg_case_t *c)
{
    free(c->file);
    free(c->blobs);
    memset(c, 0, sizeof *c);
}

/* First differing pixel of an image; counts the differing pixels. */
static size_t compare_image(const uint8_t *expected, const uint8_t *got, size_t bytes, size_t bpp, size_t *first)
{
    size_t diffs = 0;
    *first = (size_t)-1;
    for (size_t p = 0; p < bytes / bpp; p++) {
        if (memcmp(expected + p * bpp, got + p * bpp, bpp) != 0) {
            if (!diffs)
                *first = p;
            diffs++;
        }
    }
    return diffs;
}

static uint32_t pixel_value(const uint8_t *p, size_t bpp)
{
    uint32_t v = 0;
    for (size_t i = 0; i < bpp; i++)
        v = v << 8 | p[i];
    return v;
}

bool rdpg_run(const rdpg_case_t *c, rdpg_result_t *r, char *error, size_t error_size)
{
    memset(r, 0, sizeof *r);
    uint8_t *rdram = calloc(1, c->rdram_size);
    if (!rdram) {
        set_error(error, error_size, "out of memory");
        return false;
    }
    memcpy(rdram + c->cmd_addr, c->commands, c->cmd_len);
    for (uint32_t i = 0; i < c->nblobs; i++)
        memcpy(rdram + c->blobs[i].addr, c->blobs[i].data, c->blobs[i].len);
    rdp_t *rdp = rdp_create(rdram, c->rdram_size);
    if (!rdp) {
        free(rdram);
        set_error(error, error_size, "out of memory");
        return false;
    }
    rdp_run(rdp, c->cmd_addr, c->cmd_addr + c->cmd_len);

    size_t bpp = (size_t)1 << (c->cimg_size - 1), first;
    r->colour_diffs = compare_image(c->colour, rdram + c->cimg_addr, c->colour_bytes, bpp, &first);
    r->colour_match = r->colour_diffs == 0;
    if (!r->colour_match) {
        size_t at = first * bpp;
        snprintf(r->reason, sizeof r->reason, "colour (%zu,%zu) expected %0*x got %0*x (%zu pixels differ)", first % c->width,
                 first / c->width, (int)(bpp * 2), pixel_value(c->colour + at, bpp), (int)(bpp * 2), pixel_value(rdram + c->cimg_addr + at, bpp),
                 r->colour_diffs);
    }
    r->z_match = true;
    if (c->z_bytes) {
        r->z_diffs = compare_image(c->z, rdram + c->zimg_addr, c->z_bytes, 2, &first);
        r->z_match = r->z_diffs == 0;
        if (!r->z_match && r->colour_match)
            snprintf(r->reason, sizeof r->reason, "Z (%zu,%zu) expected %04x got %04x (%zu pixels differ)", first % c->width,
                     first / c->width, pixel_value(c->z + first * 2, 2), pixel_value(rdram + c->zimg_addr + first * 2, 2), r->z_diffs);
    }
    for (size_t i = 0; i < c->colour_bytes / 2; i++)
        if (rdp_hidden_bits(rdp, c->cimg_addr + 2 * (uint32_t)i) != c->colour_hidden[i])
            r->hidden_diffs++;
    for (size_t i = 0; i < c->z_bytes / 2; i++)
        if (rdp_hidden_bits(rdp, c->zimg_addr + 2 * (uint32_t)i) != c->z_hidden[i])
            r->hidden_diffs++;

    rdp_destroy(rdp);
    free(rdram);
    return true;
}

const char *rdpg_default_directory(void)
{
    static char buffer[4096];
    const char *dir = getenv("RDP_GOLDEN_DIR");
    if (dir && *dir)
        return dir;
    const char *shared = getenv("BF_SHARED_DIR");
    if (shared && *shared) {
        snprintf(buffer, sizeof buffer, "%s/rdp-golden", shared);
        return buffer;
    }
#ifdef N64_PROJECT_ROOT
    return N64_PROJECT_ROOT "/../shared/rdp-golden";
#else
    return "../shared/rdp-golden";
#endif
}

bool rdpg_directory_exists(const char *directory)
{
    struct stat info;
    return stat(directory, &info) == 0 && S_ISDIR(info.st_mode);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool rdpg_run_directory(const char *directory, FILE *report, rdpg_summary_t *summary, char *failed_names, size_t failed_size)
{
    memset(summary, 0, sizeof *summary);
    if (failed_names && failed_size)
        failed_names[0] = 0;
    DIR *dir = opendir(directory);
    if (!dir)
        return false;
    char **names = NULL;
    size_t count = 0, capacity = 0;
    bool ok = true;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        size_t len = strlen(entry->d_name);
        if (len < 6 || strcmp(entry->d_name + len - 5, ".rdpg") != 0)
            continue;
        if (count == capacity) {
            size_t grow = capacity ? capacity * 2 : 512;
            char **bigger = realloc(names, grow * sizeof *names);
            if (!bigger) {
                ok = false;
                break;
            }
            names = bigger;
            capacity = grow;
        }
        names[count] = malloc(len + 1);
        if (!names[count]) {
            ok = false;
            break;
        }
        memcpy(names[count], entry->d_name, len + 1);
        count++;
    }
    closedir(dir);
    if (count)
        qsort(names, count, sizeof *names, compare_names);

    for (size_t i = 0; ok && i < count; i++) {
        char path[4096], error[256];
        snprintf(path, sizeof path, "%s/%s", directory, names[i]);
        size_t len = strlen(names[i]);
        int name_len = (int)(len - 5);
        summary->cases++;
        rdpg_case_t c;
        rdpg_result_t r;
        bool usable = rdpg_load(path, &c, error, sizeof error);
        if (usable) {
            usable = rdpg_run(&c, &r, error, sizeof error);
            rdpg_free(&c);
        }
        bool match = usable && r.colour_match && r.z_match;
        if (!usable)
            summary->unusable++;
        if (match) {
            summary->matched++;
            if (!r.hidden_diffs)
                summary->hidden_matched++;
        } else {
            if (report)
                fprintf(report, "%.*s: %s\n", name_len, names[i], usable ? r.reason : error);
            if (failed_names && failed_size) {
                size_t used = strlen(failed_names);
                snprintf(failed_names + used, failed_size - used, "%s%.*s", used ? " " : "", name_len, names[i]);
            }
        }
    }
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
    return ok && summary->unusable == 0;
}
