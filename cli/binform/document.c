#include "document.h"

#include <stdio.h>
#include <string.h>

#include "formats.h"

static const bf_format_desc *format_named(const char *name)
{
    for (size_t i = 0; bf_formats[i]; i++)
        if (strcmp(bf_formats[i]->name, name) == 0)
            return bf_formats[i];
    return NULL;
}

int document_open(document *d, const char *path, const char *format_name, const char *revision)
{
    memset(d, 0, sizeof *d);
    d->path = path;
    bf_arena_init(&d->arena, bf_alloc_default(), 0);
    if (!bf_file_load(path, bf_alloc_default(), &d->data, &d->size, &d->err)) {
        fprintf(stderr, "%s: error: %s\n", path, d->err.message);
        return EXIT_USAGE;
    }
    if (format_name) {
        /* NAME or NAME.KIND (t3dm.stream) */
        char name[64];
        snprintf(name, sizeof name, "%s", format_name);
        char *kind = strchr(name, '.');
        if (kind)
            *kind++ = '\0';
        const bf_format_desc *only[2] = {format_named(name), NULL};
        if (!only[0]) {
            fprintf(stderr, "binform: unknown format '%s' (see 'binform formats')\n", name);
            return EXIT_USAGE;
        }
        d->format = only[0];
        if (kind) {
            for (size_t i = 0; i < only[0]->entry_count; i++)
                if (strcmp(only[0]->entries[i].name, kind) == 0)
                    d->entry = &only[0]->entries[i];
            if (!d->entry) {
                fprintf(stderr, "binform: format '%s' has no kind of file '%s'\n", name, kind);
                return EXIT_USAGE;
            }
        } else if (!(d->entry = bf_detect(only, d->data, d->size, path, &d->format))) {
            d->entry = &only[0]->entries[0];
        }
    } else {
        d->entry = bf_detect(bf_formats, d->data, d->size, path, &d->format);
    }
    if (!d->entry) {
        fprintf(stderr, "%s: error: unknown format: no magic or extension matches (use --format NAME)\n", path);
        return EXIT_USAGE;
    }
    bf_read_opts opts = {.revision = revision};
    if (!d->entry->read(d->data, d->size, &d->arena, &opts, &d->root, &d->err))
        return EXIT_INVALID;
    return 0;
}

void document_close(document *d)
{
    bf_arena_free(&d->arena);
    bf_file_unload(bf_alloc_default(), d->data, d->size);
}

void document_print_error(const document *d)
{
    char line[BF_PATH_MAX + BF_MESSAGE_MAX + 512];
    bf_error_format(&d->err, d->path, line, sizeof line);
    fprintf(stdout, "%s\n", line);
}

const char *document_revision(const document *d)
{
    if (!d->root || d->entry->revision_offset == BF_NONE)
        return NULL;
    int64_t r;
    memcpy(&r, (const uint8_t *)d->root + d->entry->revision_offset, sizeof r);
    return r >= 0 && (size_t)r < d->format->revision_count ? d->format->revisions[r] : NULL;
}
