/* PNG output for binform render (libpng), saved atomically. */
#ifndef BINFORM_PNG_WRITE_H
#define BINFORM_PNG_WRITE_H

#include <stddef.h>
#include <stdint.h>

/* Encodes width x height RGBA8888 pixels as a PNG (RGB when every alpha is
 * 255) into a malloc'ed buffer; 0 on success, -1 when libpng fails. */
int png_encode(const uint8_t *rgba, unsigned width, unsigned height, uint8_t **png, size_t *size);

/* Encodes and replaces `path` only once the new file is complete; on failure
 * the old file is intact and `error` says why. */
int png_save(const char *path, const uint8_t *rgba, unsigned width, unsigned height, char *error, size_t error_size);

#endif
