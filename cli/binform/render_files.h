/* The files binform render reads beside a model: animation streams and textures, by the
 * names the model gives them ("rom:/" removed). Names may reach into subfolders of the
 * model's folder, never out of it (no absolute path, no ".." part), and only regular files
 * are read. A texture "X.sprite" that is not built yet is made from "X.png" beside it, as
 * mksprite would (png_sprite.h); a note (or a warning when the PNG cannot be used) goes to
 * `log`. */
#ifndef BINFORM_RENDER_FILES_H
#define BINFORM_RENDER_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RENDER_FILES_MAX 64

typedef struct render_files {
    char dir[1024];    /* the model's folder with its '/', or "" */
    const char *model; /* for messages */
    FILE *log;         /* notes and warnings; NULL: none */
    uint8_t *data[RENDER_FILES_MAX];
    size_t size[RENDER_FILES_MAX];
    bool converted[RENDER_FILES_MAX]; /* a sprite made from a PNG (malloc'ed) */
    char name[RENDER_FILES_MAX][256];  /* as the model names them: for the findings about them */
    int count;
} render_files_t;

void render_files_init(render_files_t *f, const char *model, FILE *log);

/* A render_load_fn: the bytes stay valid until render_files_free. */
bool render_files_load(void *ctx, const char *name, const uint8_t **data, size_t *size);

/* Whether a name may be read: relative, no empty or ".." part, no backslash. */
bool render_files_safe_name(const char *name);

void render_files_free(render_files_t *f);

#endif
