#include "document.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "known_formats.h"
#include "term.h"

const bf_format_desc *format_named(const char *name)
{
    for (size_t i = 0; known_formats()[i]; i++)
        if (strcmp(known_formats()[i]->name, name) == 0)
            return known_formats()[i];
    return NULL;
}

static int problem(document *d, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int problem(document *d, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->problem, sizeof d->problem, fmt, ap);
    va_end(ap);
    return status;
}

/* Standard input or a named pipe, read to its end (pipes have no size to ask for). */
static int load_stream(FILE *in, uint8_t **data, size_t *size)
{
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, in);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            uint8_t *bigger = realloc(buf, cap * 2);
            if (!bigger)
                free(buf);
            buf = bigger;
            cap *= 2;
        }
    }
    if (!buf || ferror(in)) {
        if (!buf)
            errno = ENOMEM;
        free(buf);
        return 0;
    }
    *data = buf;
    *size = n;
    return 1;
}

int input_load(const char *path, uint8_t **data, size_t *size, int *streamed, char *problem, size_t problem_size)
{
    const char *name = strcmp(path, "-") == 0 ? STDIN_NAME : path;
    struct stat st;
    int is_stdin = strcmp(path, "-") == 0, have_stat = !is_stdin && stat(path, &st) == 0;
    *streamed = 0;
    if (have_stat && S_ISDIR(st.st_mode)) {
        snprintf(problem, problem_size, "%s: error: is a directory (use -r to go through the files under it)", name);
        return 0;
    }
    if (is_stdin || (have_stat && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))) {
        FILE *in = is_stdin ? stdin : fopen(path, "rb");
        int ok = in && load_stream(in, data, size);
        if (!ok)
            snprintf(problem, problem_size, "%s: error: cannot read it: %s", name, strerror(errno));
        if (in && !is_stdin)
            fclose(in);
        *streamed = ok;
        return ok;
    }
    bf_error err;
    if (!bf_file_load(path, bf_alloc_default(), data, size, &err)) {
        snprintf(problem, problem_size, "%s: error: %s", name, err.message);
        return 0;
    }
    return 1;
}

void input_unload(uint8_t *data, size_t size, int streamed)
{
    if (streamed)
        free(data);
    else if (data)
        bf_file_unload(bf_alloc_default(), data, size);
}

static void upper(const char *s, char *out, size_t size)
{
    size_t i = 0;
    for (; s[i] && i + 1 < size; i++)
        out[i] = (char)toupper((unsigned char)s[i]);
    out[i] = '\0';
}

/* --format names a format whose magic this file lacks, while another format's matches: say so
 * in plain words rather than let the reader fail on the magic. */
static int wrong_format(document *d)
{
    const bf_entry_desc *e = d->entry;
    int own_magic = e->magic && e->magic_at <= d->size && e->magic_len <= d->size - e->magic_at &&
                    memcmp(d->data + e->magic_at, e->magic, e->magic_len) == 0;
    const bf_format_desc *actual = NULL;
    const bf_entry_desc *found = bf_detect(known_formats(), d->data, d->size, NULL, &actual);
    if (own_magic || !found || actual == d->format)
        return 0;
    char is[32], asked[32];
    upper(actual->name, is, sizeof is);
    upper(d->format->name, asked, sizeof asked);
    return problem(d, EXIT_USAGE, "%s: error: this is a %s file (%s %s), not %s; use --format %s or leave --format out",
                   d->name, is, actual->name, found->name, asked, actual->name);
}

/* --revision for a format without revisions, or a revision it does not have. */
static int bad_revision(document *d, const char *revision)
{
    const bf_format_desc *f = d->format;
    if (f->revision_count == 0)
        return problem(d, EXIT_USAGE, "%s: error: %s has no revisions: it has one layout (leave --revision out)",
                       d->name, f->name);
    char list[256] = "";
    for (size_t i = 0; i < f->revision_count; i++) {
        if (strcmp(f->revisions[i], revision) == 0)
            return 0;
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", f->revisions[i]);
    }
    return problem(d, EXIT_USAGE, "%s: error: %s has no revision '%s'; its revisions are: %s", d->name, f->name,
                   revision, list);
}

static int pick_format(document *d, const open_opts *o)
{
    if (!o->format) {
        d->entry = bf_detect(known_formats(), d->data, d->size, d->path, &d->format);
        if (!d->entry) {
            if (o->skip_unknown)
                return DOC_SKIPPED;
            return problem(d, EXIT_USAGE, "%s: error: unknown format: no magic or extension matches (use --format NAME)",
                           d->name);
        }
        return 0;
    }
    /* NAME or NAME.KIND (t3dm.stream) */
    char name[64];
    snprintf(name, sizeof name, "%s", o->format);
    char *kind = strchr(name, '.');
    if (kind)
        *kind++ = '\0';
    const bf_format_desc *only[2] = {format_named(name), NULL};
    if (!only[0])
        return problem(d, EXIT_USAGE, "binform: unknown format '%s' (see 'binform formats')", name);
    d->format = only[0];
    if (kind) {
        for (size_t i = 0; i < only[0]->entry_count; i++)
            if (strcmp(only[0]->entries[i].name, kind) == 0)
                d->entry = &only[0]->entries[i];
        if (!d->entry)
            return problem(d, EXIT_USAGE, "binform: format '%s' has no kind of file '%s'", name, kind);
    } else if (!(d->entry = bf_detect(only, d->data, d->size, d->path, &d->format))) {
        d->entry = &only[0]->entries[0];
    }
    return wrong_format(d);
}

int document_load(document *d, const char *path, const open_opts *o)
{
    memset(d, 0, sizeof *d);
    d->path = path;
    d->name = strcmp(path, "-") == 0 ? STDIN_NAME : path;
    bf_arena_init(&d->arena, bf_alloc_default(), 0);
    if (!input_load(path, &d->data, &d->size, &d->streamed, d->problem, sizeof d->problem))
        return EXIT_USAGE;
    int rc = pick_format(d, o);
    if (rc)
        return rc;
    if (o->revision && (rc = bad_revision(d, o->revision)) != 0)
        return rc;
    bf_read_opts opts = {.revision = o->revision};
    if (!d->entry->read(d->data, d->size, &d->arena, &opts, &d->root, &d->err))
        return EXIT_INVALID;
    return 0;
}

int document_open(document *d, const char *path, const char *format_name, const char *revision)
{
    open_opts o = {.format = format_name, .revision = revision};
    int rc = document_load(d, path, &o);
    if (rc == EXIT_USAGE)
        document_report(d, stderr, color_wanted(stderr, COLOR_AUTO));
    return rc;
}

void document_close(document *d)
{
    bf_arena_free(&d->arena);
    input_unload(d->data, d->size, d->streamed);
    d->data = NULL;
}

void document_report(const document *d, FILE *out, int color)
{
    if (d->problem[0]) {
        print_line(out, d->problem, color);
        return;
    }
    char line[BF_PATH_MAX + BF_MESSAGE_MAX + 512];
    bf_error_format(&d->err, d->name, line, sizeof line);
    print_line(out, line, color);
}

void document_print_error(const document *d) { document_report(d, stderr, color_wanted(stderr, COLOR_AUTO)); }

const char *document_revision(const document *d)
{
    if (!d->root || !d->entry->revision_offset)
        return NULL;
    int64_t r;
    memcpy(&r, (const uint8_t *)d->root + d->entry->revision_offset, sizeof r);
    return r >= 0 && (size_t)r < d->format->revision_count ? d->format->revisions[r] : NULL;
}
