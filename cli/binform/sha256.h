/* SHA-256 (FIPS 180-4): the schema cache's keys and its entries' checksums. */
#ifndef BINFORM_SHA256_H
#define BINFORM_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sha256 {
    uint32_t h[8];
    uint64_t length; /* bytes hashed so far */
    uint8_t block[64];
    size_t used; /* bytes in `block` */
} sha256;

void sha256_init(sha256 *s);
void sha256_update(sha256 *s, const void *data, size_t size);
/* The digest as 64 lowercase hex digits and a NUL. */
void sha256_hex(sha256 *s, char out[65]);

#endif
