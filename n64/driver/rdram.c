/* RDRAM image: bump allocation and big-endian access. */
#include "rdram.h"

#include <string.h>

void rdram_init(rdram_image_t *img, uint8_t *bytes, uint32_t size, uint32_t first_free)
{
    img->bytes = bytes;
    img->size = size;
    img->used = first_free < size ? first_free : size;
    img->full = false;
}

uint32_t rdram_alloc(rdram_image_t *img, uint32_t size, uint32_t align)
{
    uint32_t start = (img->used + (align - 1)) & ~(align - 1);
    if (img->full || start < img->used || start > img->size || size > img->size - start) {
        img->full = true;
        return 0;
    }
    memset(img->bytes + start, 0, size);
    img->used = start + size;
    return start;
}

uint32_t rdram_put(rdram_image_t *img, const void *data, uint32_t size, uint32_t align)
{
    uint32_t addr = rdram_alloc(img, size, align);
    if (addr != 0 && size > 0)
        memcpy(img->bytes + addr, data, size);
    return addr;
}

void rdram_store16(rdram_image_t *img, uint32_t addr, uint16_t value)
{
    if (addr < img->size && img->size - addr >= 2) {
        img->bytes[addr] = (uint8_t)(value >> 8);
        img->bytes[addr + 1] = (uint8_t)value;
    }
}

void rdram_store32(rdram_image_t *img, uint32_t addr, uint32_t value)
{
    rdram_store16(img, addr, (uint16_t)(value >> 16));
    rdram_store16(img, addr + 2, (uint16_t)value);
}

uint16_t rdram_load16(const rdram_image_t *img, uint32_t addr)
{
    if (addr >= img->size || img->size - addr < 2)
        return 0;
    return (uint16_t)(img->bytes[addr] << 8 | img->bytes[addr + 1]);
}

uint32_t rdram_load32(const rdram_image_t *img, uint32_t addr)
{
    return (uint32_t)rdram_load16(img, addr) << 16 | rdram_load16(img, addr + 2);
}
