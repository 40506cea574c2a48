/* Breaking a file one field at a time, for the tests of rules and bad input: numbers written
 * into (or read from) its bytes at an offset, in the file's byte order, through the runtime's
 * own loads and stores (bf_endian.h); and mutations as table rows. */
#ifndef TESTS_MUTATE_H
#define TESTS_MUTATE_H

#include <stddef.h>
#include <stdint.h>

void put_u16be(uint8_t *data, size_t at, unsigned value);
void put_u32be(uint8_t *data, size_t at, uint32_t value);
void put_u16le(uint8_t *data, size_t at, unsigned value);
void put_u32le(uint8_t *data, size_t at, uint32_t value);
void put_f32le(uint8_t *data, size_t at, float value);
uint32_t get_u32be(const uint8_t *data, size_t at);

/* One change to a file: the `width` bytes (1, 2 or 4) at `at` set to `value`. A list of them
 * ends at the first of width 0, so that a table row can hold a fixed array of them. */
typedef struct mutation {
    uint32_t at;
    uint8_t width;
    uint32_t value;
} mutation;

/* Applies the mutations of `list` (up to `max`, or to the first of width 0) to the `size`
 * bytes of `data`, big-endian or little-endian; 0 when one lies outside them or has another
 * width (nothing after it is changed). */
int mutate(uint8_t *data, size_t size, const mutation *list, size_t max, int little_endian);

#endif
