/* Test helpers for the n64/scene tests: a sample model or stream read with the generated
 * T3DM reader, kept with its bytes and arena. */
#ifndef BF_TEST_SCENE_LOAD_H
#define BF_TEST_SCENE_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "t3dm.h"

typedef struct scene_file {
    uint8_t *data;
    size_t size;
    bf_arena arena;
    t3dm_File *model;         /* scene_load_model */
    t3dm_StreamData *stream;  /* scene_load_stream */
} scene_file;

/* Reads ../shared/samples/REL; the test fails (naming the reader's error) when it does not
 * read. Call REQUIRE_SAMPLES() first. */
void scene_load_model(scene_file *f, const char *rel);
void scene_load_stream(scene_file *f, const char *rel);
void scene_unload(scene_file *f);

#endif
