/* An RDRAM image for the renderer: a caller-owned byte array in N64 (big-
 * endian) order, filled front to back by a bump allocator. Nothing here
 * allocates or prints; a request that does not fit sets `full` and returns 0,
 * and every later request fails too, so a caller can check once at the end. */
#ifndef N64_DRIVER_RDRAM_H
#define N64_DRIVER_RDRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rdram_image {
    uint8_t *bytes;
    uint32_t size;
    uint32_t used; /* the next free address */
    bool full;     /* a request did not fit */
} rdram_image_t;

void rdram_init(rdram_image_t *img, uint8_t *bytes, uint32_t size, uint32_t first_free);

/* Reserves size bytes aligned to align (a power of two); returns the address,
 * or 0 (and sets full) when they do not fit. The bytes are zeroed. */
uint32_t rdram_alloc(rdram_image_t *img, uint32_t size, uint32_t align);

/* Copies data to a new block; returns its address or 0. */
uint32_t rdram_put(rdram_image_t *img, const void *data, uint32_t size, uint32_t align);

/* Big-endian stores at an address the caller allocated (ignored outside the image). */
void rdram_store16(rdram_image_t *img, uint32_t addr, uint16_t value);
void rdram_store32(rdram_image_t *img, uint32_t addr, uint32_t value);
uint16_t rdram_load16(const rdram_image_t *img, uint32_t addr);
uint32_t rdram_load32(const rdram_image_t *img, uint32_t addr);

#endif
