/* Files beside a model for binform render (see render_files.h). */
#include "render_files.h"

#include "bf_runtime.h"
#include "png_sprite.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void render_files_init(render_files_t *f, const char *model, FILE *log)
{
    memset(f, 0, sizeof *f);
    f->model = model;
    f->log = log;
    const char *slash = strrchr(model, '/');
    if (slash)
        snprintf(f->dir, sizeof f->dir, "%.*s/", (int)(slash - model), model);
}

bool render_files_safe_name(const char *name)
{
    if (!*name || name[0] == '/' || strchr(name, '\\'))
        return false;
    for (const char *part = name; *part;) {
        size_t len = strcspn(part, "/");
        if (len == 0 || (len == 2 && part[0] == '.' && part[1] == '.'))
            return false;
        part += len;
        if (*part == '/')
            part++;
    }
    return true;
}

static bool regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A texture whose .sprite is not built: the PNG of the same name, converted as mksprite would. */
static bool load_png_instead(render_files_t *f, const char *name, const char *sprite_path)
{
    size_t len = strlen(sprite_path);
    char path[2048];
    if (len < 7 || strcmp(sprite_path + len - 7, ".sprite") != 0 || len - 7 + 5 > sizeof path)
        return false;
    snprintf(path, sizeof path, "%.*s.png", (int)(len - 7), sprite_path);
    if (!regular_file(path))
        return false;
    uint8_t *png;
    size_t size;
    bf_error err;
    if (!bf_file_load(path, bf_alloc_default(), &png, &size, &err))
        return false;
    char why[300];
    uint8_t format = 0;
    int status = png_sprite_convert(png, size, path, &f->data[f->count], &f->size[f->count], &format, why, sizeof why);
    bf_file_unload(bf_alloc_default(), png, size);
    if (status != 0) {
        if (f->log)
            fprintf(f->log, "%s: warning: %s is not built and %s cannot stand in for it: %s\n", f->model, name, path,
                    why);
        return false;
    }
    if (f->log)
        fprintf(f->log, "%s: note: %s is not built: drawn from %s, converted to %s as mksprite would\n", f->model,
                name, path, png_sprite_format_name(format));
    f->converted[f->count] = true;
    return true;
}

bool render_files_load(void *ctx, const char *name, const uint8_t **data, size_t *size)
{
    render_files_t *f = ctx;
    if (f->count >= RENDER_FILES_MAX || !render_files_safe_name(name))
        return false;
    char path[2048];
    snprintf(path, sizeof path, "%s%s", f->dir, name);
    bf_error err;
    if (regular_file(path)) {
        if (!bf_file_load(path, bf_alloc_default(), &f->data[f->count], &f->size[f->count], &err))
            return false;
        f->converted[f->count] = false;
    } else if (!load_png_instead(f, name, path)) {
        return false;
    }
    *data = f->data[f->count];
    *size = f->size[f->count];
    snprintf(f->name[f->count], sizeof f->name[f->count], "%s", name);
    f->count++;
    return true;
}

void render_files_free(render_files_t *f)
{
    for (int i = 0; i < f->count; i++)
        if (f->converted[i])
            free(f->data[i]);
        else
            bf_file_unload(bf_alloc_default(), f->data[i], f->size[i]);
    f->count = 0;
}
