/* PNG encoding through libpng into memory, then bf_save_atomic. */
#include "png_write.h"

#include "bf_runtime.h"
#include "bf_write.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sink {
    uint8_t *data;
    size_t size, cap;
    int failed;
} sink;

static void write_bytes(png_structp png, png_bytep bytes, png_size_t n)
{
    sink *s = png_get_io_ptr(png);
    if (s->failed)
        return;
    if (s->size + n > s->cap) {
        size_t cap = s->cap ? s->cap : 65536;
        while (cap < s->size + n)
            cap *= 2;
        uint8_t *grown = realloc(s->data, cap);
        if (!grown) {
            s->failed = 1;
            return;
        }
        s->data = grown;
        s->cap = cap;
    }
    memcpy(s->data + s->size, bytes, n);
    s->size += n;
}

static void flush_nothing(png_structp png) { (void)png; }

/* The libpng part: nothing it keeps across setjmp is changed after it. */
static int encode(const uint8_t *rgba, unsigned width, unsigned height, unsigned channels, uint8_t *row, sink *s)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, s, write_bytes, flush_nothing);
    png_set_IHDR(png, info, width, height, 8, channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (unsigned y = 0; y < height; y++) {
        const uint8_t *src = rgba + (size_t)y * width * 4;
        for (unsigned x = 0; x < width; x++)
            memcpy(row + (size_t)x * channels, src + 4 * (size_t)x, channels);
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return s->failed ? -1 : 0;
}

int png_encode(const uint8_t *rgba, unsigned width, unsigned height, uint8_t **out, size_t *out_size)
{
    unsigned channels = 3;
    for (size_t i = 0; i < (size_t)width * height; i++)
        if (rgba[4 * i + 3] != 255)
            channels = 4;
    uint8_t *row = malloc((size_t)width * channels);
    sink s = {0};
    int status = row ? encode(rgba, width, height, channels, row, &s) : -1;
    free(row);
    if (status != 0) {
        free(s.data);
        return -1;
    }
    *out = s.data;
    *out_size = s.size;
    return 0;
}

int png_save(const char *path, const uint8_t *rgba, unsigned width, unsigned height, char *error, size_t error_size)
{
    uint8_t *png;
    size_t size;
    if (png_encode(rgba, width, height, &png, &size) != 0) {
        snprintf(error, error_size, "%s: error: cannot encode the picture as PNG (out of memory?)", path);
        return -1;
    }
    bf_error err;
    int ok = bf_save_atomic(path, png, size, &err);
    free(png);
    if (!ok) {
        bf_error_format(&err, path, error, error_size);
        return -1;
    }
    return 0;
}
