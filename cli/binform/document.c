#define _DEFAULT_SOURCE
#include "document.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
            uint8_t *bigger = cap <= INPUT_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                free(buf);
                errno = cap <= INPUT_MAX / 2 ? ENOMEM : EFBIG;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    if (!buf || ferror(in)) {
        if (!buf && !errno)
            errno = ENOMEM;
        free(buf);
        return 0;
    }
    *data = buf;
    *size = n;
    return 1;
}

/* A regular file, open as `fd` (of `st`): read whole when small, mapped read-only when large, so
 * that a huge (or sparse) file costs only the pages a reader touches. */
static int load_regular(int fd, const struct stat *st, uint8_t **data, size_t *size, int *how)
{
    if ((uint64_t)st->st_size > INPUT_MAX || (uint64_t)st->st_size >= SIZE_MAX) {
        errno = EFBIG;
        return 0;
    }
    size_t len = (size_t)st->st_size;
    if (len >= INPUT_MAP_FROM) {
        void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) {
            *data = map;
            *size = len;
            *how = INPUT_MAPPED;
            return 1;
        }
    }
    /* one extra byte so that an empty file still gets a valid buffer */
    uint8_t *buf = malloc(len + 1);
    if (!buf) {
        errno = ENOMEM;
        return 0;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t got = read(fd, buf + done, len - done);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            if (got == 0)
                errno = EIO; /* it shrank while read */
            free(buf);
            return 0;
        }
        done += (size_t)got;
    }
    *data = buf;
    *size = len;
    *how = INPUT_READ;
    return 1;
}

int input_open(const char *path, int regular_only, uint8_t **data, size_t *size, int *how, char *problem,
               size_t problem_size)
{
    const char *name = strcmp(path, "-") == 0 ? STDIN_NAME : path;
    struct stat st;
    int is_stdin = strcmp(path, "-") == 0, have_stat = !is_stdin && stat(path, &st) == 0;
    *how = INPUT_READ;
    if (have_stat && S_ISDIR(st.st_mode)) {
        snprintf(problem, problem_size, "%s: error: is a directory (use -r to go through the files under it)", name);
        return 0;
    }
    if (!regular_only && (is_stdin || (have_stat && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))))) {
        FILE *in = is_stdin ? stdin : fopen(path, "rb");
        int ok = in && load_stream(in, data, size);
        if (!ok)
            snprintf(problem, problem_size, "%s: error: cannot read it: %s", name,
                     errno == EFBIG ? "larger than binform reads (" INPUT_MAX_TEXT ")" : strerror(errno));
        if (in && !is_stdin)
            fclose(in);
        *how = INPUT_PIPED;
        return ok;
    }
    /* opened without blocking (a FIFO put in a regular file's place must not hang the run),
     * then the file itself is looked at, not its name */
    int fd = is_stdin ? -1 : open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        snprintf(problem, problem_size, "%s: error: cannot open %s: %s", name, name, strerror(errno));
        return 0;
    }
    int ok = 0;
    if (fstat(fd, &st) != 0)
        snprintf(problem, problem_size, "%s: error: cannot read it: %s", name, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        snprintf(problem, problem_size, "%s: error: not a regular file (a %s): only files are read here", name,
                 S_ISFIFO(st.st_mode) ? "FIFO" : S_ISDIR(st.st_mode) ? "directory" : S_ISSOCK(st.st_mode) ? "socket" : "device");
    else if (!(ok = load_regular(fd, &st, data, size, how)))
        snprintf(problem, problem_size, "%s: error: cannot read it: %s", name,
                 errno == EFBIG ? "larger than binform reads (" INPUT_MAX_TEXT ")" : strerror(errno));
    close(fd);
    return ok;
}

int input_load(const char *path, uint8_t **data, size_t *size, int *how, char *problem, size_t problem_size)
{
    return input_open(path, 0, data, size, how, problem, problem_size);
}

void input_unload(uint8_t *data, size_t size, int how)
{
    if (how == INPUT_MAPPED && data)
        munmap(data, size);
    else
        free(data);
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

/* The extension of a path's file name (after its last '.'), or NULL when it has none; the
 * leading '.' of a hidden file's name starts no extension. */
static const char *extension_of(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && dot != base && dot[1] ? dot + 1 : NULL;
}

static int same_ignoring_case(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

/* A file found by walking a directory is a candidate by its extension (any case: .T3DM is
 * t3dm), or, only when it has no extension, by its magic: a text file that happens to start
 * with a format's magic (p3m-PROVENANCE.txt starts with "P3M") is not a model. NULL: skip it. */
static const bf_entry_desc *detect_walked(const char *path, const uint8_t *data, size_t size,
                                          const bf_format_desc **format)
{
    const bf_format_desc *const *formats = known_formats();
    const char *ext = extension_of(path);
    if (!ext)
        return data ? bf_detect(formats, data, size, NULL, format) : NULL;
    for (size_t i = 0; formats[i]; i++)
        for (size_t j = 0; j < formats[i]->entry_count; j++) {
            const bf_entry_desc *e = &formats[i]->entries[j];
            for (size_t k = 0; e->extensions && e->extensions[k]; k++)
                if (same_ignoring_case(ext, e->extensions[k])) {
                    *format = formats[i];
                    return e;
                }
        }
    return NULL;
}

static int pick_format(document *d, const open_opts *o)
{
    if (!o->format && o->skip_unknown) {
        d->entry = detect_walked(d->path, d->data, d->size, &d->format);
        return d->entry ? 0 : DOC_SKIPPED;
    }
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
    const bf_format_desc *format;
    if (o->skip_unknown && !o->format && extension_of(path) && !detect_walked(path, NULL, 0, &format))
        return DOC_SKIPPED; /* known from its name alone: not even read */
    if (!input_open(path, o->regular_only, &d->data, &d->size, &d->how, d->problem, sizeof d->problem))
        return EXIT_USAGE;
    d->streamed = d->how == INPUT_PIPED;
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
    input_unload(d->data, d->size, d->how);
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
