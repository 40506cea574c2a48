/* Mutations of a file's bytes for the tests (mutate.h). */
#include "mutate.h"

#include "bf_endian.h"

void put_u16be(uint8_t *data, size_t at, unsigned value) { bf_store_u16be(data + at, (uint16_t)value); }
void put_u32be(uint8_t *data, size_t at, uint32_t value) { bf_store_u32be(data + at, value); }
void put_u16le(uint8_t *data, size_t at, unsigned value) { bf_store_u16le(data + at, (uint16_t)value); }
void put_u32le(uint8_t *data, size_t at, uint32_t value) { bf_store_u32le(data + at, value); }
void put_f32le(uint8_t *data, size_t at, float value) { bf_store_u32le(data + at, bf_f32_bits(value)); }
uint32_t get_u32be(const uint8_t *data, size_t at) { return bf_load_u32be(data + at); }

int mutate(uint8_t *data, size_t size, const mutation *list, size_t max, int little_endian)
{
    for (size_t i = 0; i < max && list[i].width; i++) {
        const mutation *m = &list[i];
        if (m->at > size || m->width > size - m->at)
            return 0;
        uint8_t *p = data + m->at;
        switch (m->width) {
        case 1: *p = (uint8_t)m->value; break;
        case 2: little_endian ? bf_store_u16le(p, (uint16_t)m->value) : bf_store_u16be(p, (uint16_t)m->value); break;
        case 4: little_endian ? bf_store_u32le(p, m->value) : bf_store_u32be(p, m->value); break;
        default: return 0;
        }
    }
    return 1;
}
