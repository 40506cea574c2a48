/* A program outside the project: built against an installed binform with nothing but
 * `pkg-config --cflags --libs binform-formats`; reads a T3DM model with the generated reader
 * and validator and prints what it found. */
#include <stdio.h>
#include <stdlib.h>

#include <bf_validate.h>
#include <formats.h>
#include <t3dm.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: outside MODEL.t3dm\n");
        return 2;
    }
    uint8_t *data;
    size_t size;
    bf_error err;
    if (!bf_file_load(argv[1], bf_alloc_default(), &data, &size, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    t3dm_File *model;
    int status = 1;
    if (t3dm_read_model(data, size, &arena, NULL, &model, &err)) {
        bf_findings findings = {0};
        t3dm_validate_model(model, data, size, &findings);
        printf("chunks %u vertices %u errors %zu runtime %s\n", (unsigned)model->header.chunk_count,
               (unsigned)model->header.total_vertex_count, findings.errors, BF_RUNTIME_VERSION);
        status = findings.errors ? 1 : 0;
        bf_findings_free(&findings);
    } else {
        char line[600];
        bf_error_format(&err, argv[1], line, sizeof line);
        fprintf(stderr, "%s\n", line);
    }
    bf_arena_free(&arena);
    bf_file_unload(bf_alloc_default(), data, size);
    return status;
}
