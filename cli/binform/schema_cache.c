/* The schema cache (schema_cache.h). An entry, KEY.bfso, is one file: a header line
 *   binform-schema-cache 2 KEY SHA256 SIZE IMPORTS
 * then IMPORTS lines "SHA256 PATH", one per file the schemas import, then the shared object;
 * SHA256 and SIZE are those of everything after the header line. KEY is the SHA-256 of what
 * the object depends on and binform knows before building it: the schemas' real paths and
 * bytes, the import search path, binform's version, the runtime headers it is compiled
 * against, bfgen (its path, size and time: its templates are built into it) and the compiler
 * command; the imports, known once bfgen has read the schemas, are checked against their
 * lines. An entry is loaded only when it is a regular file of this user's, writable by no
 * one else, its header and checksum agree and every import is as it was; it is then copied
 * into a memory file and loaded from there, so what was checked is what runs. Anything else
 * is rebuilt in a private folder and renamed into place: two binform processes may fill the
 * same entry at once. */
#define _GNU_SOURCE
#include "schema_cache.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bf_version.h"
#include "document.h"
#include "known_formats.h"
#include "runtime_headers.h"
#include "schema_build.h"
#include "sha256.h"

#define ENTRY_MAGIC "binform-schema-cache 2"

/* The cache folder, created 0700 (its parents too, as the XDG spec asks). 0 when it cannot
 * be made or is not safe: not a folder of this user's, or writable by others. */
static int cache_dir(char *out, size_t size)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(out, size, "%s/binform", xdg);
    else if (home && home[0] == '/')
        n = snprintf(out, size, "%s/.cache/binform", home);
    else
        return 0;
    if (n < 0 || (size_t)n >= size)
        return 0;
    for (char *p = out + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(out, 0700);
            *p = '/';
        }
    mkdir(out, 0700);
    struct stat st;
    if (lstat(out, &st) != 0 || !S_ISDIR(st.st_mode))
        return 0;
    if (st.st_uid != geteuid() || (st.st_mode & 022)) {
        fprintf(stderr, "binform: not using the schema cache %s: it is %s (a private temporary folder instead)\n", out,
                st.st_uid != geteuid() ? "another user's" : "writable by group or others");
        return 0;
    }
    return 1;
}

static int hash_file(sha256 *s, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "binform: cannot read schema %s: %s\n", path, strerror(errno));
        return 0;
    }
    uint8_t buf[1 << 14];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(s, buf, n);
    int ok = !ferror(f);
    fclose(f);
    if (!ok)
        fprintf(stderr, "binform: cannot read schema %s\n", path);
    return ok;
}

static void hash_text(sha256 *s, const char *label, const char *text)
{
    sha256_update(s, label, strlen(label));
    sha256_update(s, text, strlen(text) + 1);
}

/* The entry's key (64 hex digits). 0 when a schema cannot be read or bfgen is not found. */
static int cache_key(const schema_request *req, char key[65])
{
    const char *bfgen = schema_bfgen();
    struct stat st;
    if (!bfgen || stat(bfgen, &st) != 0)
        return 0;
    sha256 s;
    sha256_init(&s);
    char line[PATH_MAX + 256];
    int n = snprintf(line, sizeof line, "%s\nbinform %s runtime %s headers %s\ncc %s %s\nbfgen %s %lld %lld.%09ld\n",
                     ENTRY_MAGIC, binform_version, BF_RUNTIME_VERSION, runtime_headers_digest, schema_compiler(),
                     schema_cflags, bfgen, (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    sha256_update(&s, line, (size_t)n < sizeof line ? (size_t)n : sizeof line);
    /* where imports are looked for: relative folders of BINFORM_SCHEMA_PATH are relative to
     * the working folder */
    char real[PATH_MAX];
    for (size_t i = 0; i < req->search_count; i++)
        hash_text(&s, "\nschema-path ", realpath(req->search_dirs[i], real) ? real : req->search_dirs[i]);
    const char *env = getenv("BINFORM_SCHEMA_PATH");
    if (env && *env) {
        hash_text(&s, "\nBINFORM_SCHEMA_PATH ", env);
        if (getcwd(real, sizeof real))
            hash_text(&s, "\ncwd ", real);
    }
    for (size_t i = 0; i < req->count; i++) {
        /* The path too: bfgen names a format without `format:` after its file, and imports
         * are found beside it. */
        hash_text(&s, "\nschema ", req->schemas[i]);
        if (realpath(req->schemas[i], real))
            hash_text(&s, "\nat ", real);
        if (!hash_file(&s, req->schemas[i]))
            return 0;
    }
    sha256_hex(&s, key);
    return 1;
}

/* Loads a checked object from memory: through a memory file, so that what was checked is
 * what runs. Its formats, or NULL with the reason on stderr (unless `quiet`). */
static const bf_format_desc *const *load_object(const uint8_t *data, size_t size, const char *what, int quiet)
{
    int fd = memfd_create("binform-schema", MFD_CLOEXEC);
    if (fd < 0) {
        if (!quiet)
            fprintf(stderr, "binform: cannot load %s: memfd_create: %s\n", what, strerror(errno));
        return NULL;
    }
    for (size_t done = 0; done < size;) {
        ssize_t w = write(fd, data + done, size - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!quiet)
                fprintf(stderr, "binform: cannot load %s: %s\n", what, strerror(errno));
            close(fd);
            return NULL;
        }
        done += (size_t)w;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    close(fd);
    if (!handle) {
        if (!quiet)
            fprintf(stderr, "binform: cannot load %s: %s\n", what, dlerror());
        return NULL;
    }
    long (*runtime)(void) = (long (*)(void))dlsym(handle, SCHEMA_RUNTIME_SYMBOL);
    const bf_format_desc *const *(*formats)(void) =
        (const bf_format_desc *const *(*)(void))dlsym(handle, SCHEMA_FORMATS_SYMBOL);
    if (!runtime || !formats || runtime() != BF_RUNTIME_VERSION_NUMBER) {
        if (!quiet)
            fprintf(stderr, "binform: %s is not a schema object for runtime %s\n", what, BF_RUNTIME_VERSION);
        dlclose(handle);
        return NULL;
    }
    return formats(); /* the handle stays open for the rest of the run */
}

/* 1 when the file at `path` has the SHA-256 `want`. */
static int file_has_hash(const char *path, const char *want)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    sha256 s;
    sha256_init(&s);
    uint8_t buf[1 << 14];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(&s, buf, n);
    int ok = !ferror(f);
    fclose(f);
    char have[65];
    sha256_hex(&s, have);
    return ok && strcmp(have, want) == 0;
}

/* The object in entry `path` when the entry is sound (see the top of the file), else NULL
 * (nothing printed: the entry is rebuilt). *data is the entry's bytes (free()). */
static const uint8_t *read_entry(const char *path, const char *key, uint8_t **data, size_t *object_size)
{
    *data = NULL;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022) ||
        st.st_size < 64 || st.st_size > (1 << 30)) {
        close(fd);
        return NULL;
    }
    size_t size = (size_t)st.st_size, got = 0;
    uint8_t *buf = malloc(size + 1);
    while (buf && got < size) {
        ssize_t r = read(fd, buf + got, size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (!buf || got != size) {
        free(buf);
        return NULL;
    }
    buf[size] = '\0';
    *data = buf;
    uint8_t *newline = memchr(buf, '\n', size < 256 ? size : 256);
    if (!newline)
        return NULL;
    *newline = '\0';
    char magic_a[32], magic_b[32], have_key[65], sum[65];
    unsigned long long rest, imports;
    if (sscanf((char *)buf, "%31s %31s %64s %64s %llu %llu", magic_a, magic_b, have_key, sum, &rest, &imports) != 6)
        return NULL;
    char magic[72];
    snprintf(magic, sizeof magic, "%s %s", magic_a, magic_b);
    uint8_t *start = newline + 1, *end = buf + size;
    if (strcmp(magic, ENTRY_MAGIC) != 0 || strcmp(have_key, key) != 0 || rest != (size_t)(end - start))
        return NULL;
    sha256 s;
    sha256_init(&s);
    sha256_update(&s, start, (size_t)rest);
    char actual[65];
    sha256_hex(&s, actual);
    if (strcmp(actual, sum) != 0)
        return NULL;
    /* the imports, each as it was when the object was built */
    for (unsigned long long i = 0; i < imports; i++) {
        uint8_t *eol = memchr(start, '\n', (size_t)(end - start));
        if (!eol || eol - start < 66 || start[64] != ' ')
            return NULL;
        *eol = '\0';
        start[64] = '\0';
        if (!file_has_hash((char *)start + 65, (char *)start))
            return NULL;
        start = eol + 1;
    }
    *object_size = (size_t)(end - start);
    return start;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    remove(path);
    return 0;
}

static void remove_tree(const char *dir) { nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS); }

/* The whole of a file (malloc'd), or NULL. */
static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            uint8_t *grown = realloc(buf, cap = cap ? cap * 2 : 1 << 16);
            if (!grown) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = grown;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *size = n;
    return buf;
}

/* The lines "SHA256 PATH" of the files bfgen listed in `list` (its --depfile), with their
 * real paths (malloc'd; "" when none). NULL when one cannot be read or named on one line. */
static char *import_lines(const char *list, size_t *count)
{
    size_t size = 0;
    uint8_t *names = slurp(list, &size);
    *count = 0;
    if (!names)
        return NULL;
    char *out = calloc(1, 1);
    size_t used = 0;
    for (char *line = (char *)names, *next; out && line < (char *)names + size; line = next) {
        char *eol = memchr(line, '\n', (size_t)((char *)names + size - line));
        if (!eol)
            break;
        *eol = '\0';
        next = eol + 1;
        char real[PATH_MAX];
        sha256 s;
        sha256_init(&s);
        if (!realpath(line, real) || strchr(real, '\n') || !hash_file(&s, real)) {
            free(out);
            out = NULL;
            break;
        }
        char sum[65];
        sha256_hex(&s, sum);
        char *grown = realloc(out, used + 64 + 1 + strlen(real) + 2);
        if (!grown) {
            free(out);
            out = NULL;
            break;
        }
        out = grown;
        used += (size_t)sprintf(out + used, "%s %s\n", sum, real);
        (*count)++;
    }
    free(names);
    return out;
}

/* Writes the entry: a temporary file of the cache folder, renamed over `path` once whole. */
static void store_entry(const char *dir, const char *path, const char *key, const char *imports, size_t import_count,
                        const uint8_t *object, size_t size)
{
    sha256 s;
    sha256_init(&s);
    sha256_update(&s, imports, strlen(imports));
    sha256_update(&s, object, size);
    char sum[65];
    sha256_hex(&s, sum);
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s/.entry-XXXXXX", dir);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(tmp);
        return;
    }
    fprintf(f, "%s %s %s %zu %zu\n%s", ENTRY_MAGIC, key, sum, strlen(imports) + size, import_count, imports);
    int ok = fwrite(object, 1, size, f) == size;
    ok &= fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
}

/* Removes what builds interrupted before they finished left in the cache folder: build
 * folders and temporary entries an hour old (a build takes seconds; a younger one may be
 * another binform's, at work). */
static void remove_leftovers(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "build-", 6) != 0 && strncmp(e->d_name, ".entry-", 7) != 0)
            continue;
        char path[PATH_MAX + 256];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) == 0 && st.st_uid == geteuid() && now - st.st_mtime > 3600)
            remove_tree(path);
    }
    closedir(d);
}

const bf_format_desc *const *schema_formats(const schema_request *req, int *status)
{
    *status = EXIT_USAGE;
    char key[65];
    if (!cache_key(req, key))
        return NULL;
    char dir[PATH_MAX - 128];
    int cached = cache_dir(dir, sizeof dir);
    char entry[PATH_MAX];
    if (cached) {
        snprintf(entry, sizeof entry, "%s/%s.bfso", dir, key);
        uint8_t *data;
        size_t size;
        const uint8_t *object = read_entry(entry, key, &data, &size);
        /* a sound entry that does not load (a binform that no longer exports what it
         * needs) is rebuilt like any other */
        const bf_format_desc *const *formats = object ? load_object(object, size, entry, 1) : NULL;
        free(data);
        if (formats) {
            *status = 0;
            return formats;
        }
    }
    if (cached)
        remove_leftovers(dir);
    /* Built in a folder of its own: in the cache when there is one (the rename stays on one
     * file system), else under $TMPDIR. */
    char work[PATH_MAX];
    const char *tmpdir = getenv("TMPDIR");
    snprintf(work, sizeof work, "%s/build-XXXXXX", cached ? dir : tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(work)) {
        fprintf(stderr, "binform: cannot create a folder to compile the schema in (%s): %s\n", work, strerror(errno));
        return NULL;
    }
    const bf_format_desc *const *formats = NULL;
    int rc = schema_build(req, work);
    if (rc == 0) {
        char so[PATH_MAX + 16];
        snprintf(so, sizeof so, "%s/schema.so", work);
        size_t size = 0;
        uint8_t *object = slurp(so, &size);
        if (!object)
            fprintf(stderr, "binform: cannot read the compiled schema %s\n", so);
        else {
            char list[PATH_MAX + 16];
            snprintf(list, sizeof list, "%s/imports", work);
            size_t import_count;
            char *imports = import_lines(list, &import_count);
            if (cached && imports)
                store_entry(dir, entry, key, imports, import_count, object, size);
            free(imports);
            formats = load_object(object, size, req->schemas[0], 0);
            free(object);
        }
        if (formats)
            *status = 0;
    } else
        *status = rc;
    remove_tree(work);
    return formats;
}
