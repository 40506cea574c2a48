#include "scene_load.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "samples.h"

static void load(scene_file *f, const char *rel, int stream)
{
    memset(f, 0, sizeof *f);
    cr_assert(load_file(sample_path(rel), &f->data, &f->size), "cannot read %s", sample_path(rel));
    bf_arena_init(&f->arena, bf_alloc_default(), 0);
    bf_error err;
    int ok = stream ? t3dm_read_stream(f->data, f->size, &f->arena, NULL, &f->stream, &err)
                    : t3dm_read_model(f->data, f->size, &f->arena, NULL, &f->model, &err);
    char msg[700] = "";
    if (!ok)
        bf_error_format(&err, rel, msg, sizeof msg);
    cr_assert(ok, "%s", msg);
}

void scene_load_model(scene_file *f, const char *rel)
{
    load(f, rel, 0);
}

void scene_load_stream(scene_file *f, const char *rel)
{
    load(f, rel, 1);
}

void scene_unload(scene_file *f)
{
    bf_arena_free(&f->arena);
    free(f->data);
    memset(f, 0, sizeof *f);
}
