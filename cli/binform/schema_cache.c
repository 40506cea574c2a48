/* The schema cache (schema_cache.h). An entry, KEY.bfso, is one file: the shared object, a
 * newline, one line "SHA256 PATH" per file the schemas import, then the line
 *   binform-schema-cache 3 KEY SUM OBJECT-SIZE IMPORTS
 * (a loader reads an ELF object from its start; what follows its sections is never mapped).
 * SUM is a checksum of everything before that line (entry_sum: the entry is read at every
 * use, and SHA-256 of the object took a sixth of a cached run; only this user can write the
 * folder, so the sum guards against damage, not against forgery). KEY is the SHA-256 of what the
 * object depends on and binform knows before building it: the schemas' real paths and bytes,
 * the import search path, binform's version, the runtime headers it is compiled against,
 * bfgen (its path, size and time: its templates are built into it) and the compiler command;
 * the imports, known once bfgen has read the schemas, are checked against their lines. An
 * entry is loaded only when it is a regular file of this user's, writable by no one else, its
 * last line and checksum agree and every import is as it was; it is loaded through the file
 * descriptor it was checked through, so what was checked is what runs. Anything else is
 * rebuilt in a private folder and renamed into place: two binform processes may fill the same
 * entry at once. */
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

#define ENTRY_MAGIC "binform-schema-cache 3"

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

/* Loads the object at `path` ("/proc/self/fd/N" for an entry). Its formats, or NULL with
 * the reason on stderr (unless `quiet`). */
static const bf_format_desc *const *load_object(const char *path, const char *what, int quiet)
{
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
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

/* A 64-bit checksum of `size` bytes, 32 at a time in four independent lanes. Each step is
 * a bijection of its lane's state for a given word and of the word for a given state, so a
 * change to any one word always changes the sum. */
static uint64_t entry_sum(const uint8_t *p, size_t size)
{
    const uint64_t k = UINT64_C(0x9E3779B97F4A7C15);
    uint64_t lane[4] = {k, k ^ 1, k ^ 2, k ^ 3};
    size_t i = 0;
    for (; i + 32 <= size; i += 32)
        for (int l = 0; l < 4; l++) {
            uint64_t w;
            memcpy(&w, p + i + 8 * l, 8);
            lane[l] = (lane[l] ^ w) * k;
            lane[l] ^= lane[l] >> 31;
        }
    uint64_t h = (uint64_t)size * k;
    for (int l = 0; l < 4; l++) {
        h = (h ^ lane[l]) * k;
        h ^= h >> 31;
    }
    for (; i < size; i++) {
        h = (h ^ p[i]) * k;
        h ^= h >> 31;
    }
    return h;
}

/* 1 when the entry mapped at `map` (`size` bytes) is sound for `key` (see the top of the
 * file). */
static int entry_sound(const uint8_t *map, size_t size, const char *key)
{
    if (size < 2 || map[size - 1] != '\n')
        return 0;
    size_t start = size - 1;
    while (start > 0 && map[start - 1] != '\n' && size - start < 256)
        start--;
    char last[256];
    memcpy(last, map + start, size - start);
    last[size - start - 1] = '\0';
    char magic_a[32], magic_b[32], have_key[65], sum[65];
    unsigned long long object, imports;
    if (sscanf(last, "%31s %31s %64s %64s %llu %llu", magic_a, magic_b, have_key, sum, &object, &imports) != 6)
        return 0;
    char magic[72];
    snprintf(magic, sizeof magic, "%s %s", magic_a, magic_b);
    if (strcmp(magic, ENTRY_MAGIC) != 0 || strcmp(have_key, key) != 0 || object > start)
        return 0;
    char actual[32];
    snprintf(actual, sizeof actual, "%016llx", (unsigned long long)entry_sum(map, start));
    if (strcmp(actual, sum) != 0)
        return 0;
    /* the imports, each as it was when the object was built */
    if (object >= start || map[object] != '\n')
        return 0;
    size_t at = (size_t)object + 1;
    for (unsigned long long i = 0; i < imports; i++) {
        const uint8_t *eol = memchr(map + at, '\n', start - at);
        size_t len = eol ? (size_t)(eol - (map + at)) : 0;
        if (!eol || len < 66 || len > PATH_MAX + 64 || map[at + 64] != ' ')
            return 0;
        char line[PATH_MAX + 66];
        memcpy(line, map + at, len);
        line[len] = '\0';
        line[64] = '\0';
        if (!file_has_hash(line + 65, line))
            return 0;
        at += len + 1;
    }
    return at == start;
}

/* An open descriptor of entry `path` when the entry is sound, else -1 (nothing printed: the
 * entry is rebuilt). */
static int open_entry(const char *path, const char *key)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022) || st.st_size < 64 ||
        st.st_size > (1 << 30)) {
        close(fd);
        return -1;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
        close(fd);
        return -1;
    }
    int sound = entry_sound(map, (size_t)st.st_size, key);
    munmap(map, (size_t)st.st_size);
    if (!sound) {
        close(fd);
        return -1;
    }
    return fd;
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
    size_t body_size = size + 1 + strlen(imports);
    uint8_t *body = malloc(body_size);
    if (!body)
        return;
    memcpy(body, object, size);
    body[size] = '\n';
    memcpy(body + size + 1, imports, strlen(imports));
    char sum[32];
    snprintf(sum, sizeof sum, "%016llx", (unsigned long long)entry_sum(body, body_size));
    free(body);
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
    int ok = fwrite(object, 1, size, f) == size;
    fprintf(f, "\n%s%s %s %s %zu %zu\n", imports, ENTRY_MAGIC, key, sum, size, import_count);
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
        /* a sound entry that does not load (a binform that no longer exports what it
         * needs) is rebuilt like any other */
        int fd = open_entry(entry, key);
        const bf_format_desc *const *formats = NULL;
        if (fd >= 0) {
            char self[64];
            snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
            formats = load_object(self, entry, 1);
            close(fd);
        }
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
            formats = load_object(so, req->schemas[0], 0);
            free(object);
        }
        if (formats)
            *status = 0;
    } else
        *status = rc;
    remove_tree(work);
    return formats;
}
