/* binform --schema: bfgen, then the C compiler, on a user's schemas (schema_build.h). */
#define _GNU_SOURCE
#include "schema_build.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "document.h"
#include "runtime_headers.h"

/* Hidden visibility: the object's copies of the generated functions (t3dm_read...) bind to
 * themselves, never to binform's compiled-in formats of the same name; only the two entry
 * points are exported. The runtime (bf_*) stays undefined: binform exports its own. -O1:
 * the generated code at -O2 compiles twice as long for little gain (make bench). */
const char schema_cflags[] = "-std=c99 -O1 -fPIC -fvisibility=hidden";

const char *schema_compiler(void)
{
    const char *cc = getenv("BINFORM_CC");
    return cc && *cc ? cc : "cc";
}

static int is_executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

const char *schema_bfgen(void)
{
    static char path[PATH_MAX + 32];
    const char *env = getenv("BINFORM_BFGEN");
    if (env && *env) {
        if (is_executable(env))
            return env;
        fprintf(stderr, "binform: BINFORM_BFGEN is '%s', which is not an executable\n", env);
        return NULL;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            snprintf(path, sizeof path, "%s/bfgen", self);
            if (is_executable(path))
                return path;
            snprintf(path, sizeof path, "%s/../../bin/bfgen", self);
            if (is_executable(path))
                return path;
        }
    }
    fprintf(stderr, "binform: --schema needs bfgen, installed beside binform (%s); not found "
                    "(BINFORM_BFGEN names another)\n", n > 0 ? self : "?");
    return NULL;
}

/* Runs argv with stdout to /dev/null (stderr stays binform's); its exit status, or -1. */
static int run(char *const argv[])
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        FILE *null = freopen("/dev/null", "w", stdout);
        (void)null;
        execvp(argv[0], argv);
        fprintf(stderr, "binform: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    int ok = fputs(text, f) >= 0;
    return (fclose(f) == 0) & ok;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The .c files bfgen wrote into `dir`, sorted (malloc'd names; NULL-terminated). */
static char **c_files(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".c") != 0)
            continue;
        char **grown = realloc(names, (n + 2) * sizeof *names);
        if (!grown)
            break;
        names = grown;
        names[n++] = strdup(e->d_name);
        names[n] = NULL;
    }
    closedir(d);
    if (names)
        qsort(names, n, sizeof *names, cmp_str);
    *count = n;
    return names;
}

static const char entry_source[] =
    "/* Written by binform --schema: the object's two entry points (schema_build.h). */\n"
    "#include \"formats.h\"\n"
    "#define EXPORT __attribute__((visibility(\"default\")))\n"
    "EXPORT const bf_format_desc *const *" SCHEMA_FORMATS_SYMBOL "(void) { return bf_formats; }\n"
    "EXPORT long " SCHEMA_RUNTIME_SYMBOL "(void) { return BF_RUNTIME_VERSION_NUMBER; }\n";

/* Starts the compiler with `args` (NULL-terminated): through the shell, so that BINFORM_CC
 * may be several words ("ccache gcc"), the arguments passed as they are. Its pid, or -1. */
static pid_t spawn_compiler(char *const args[])
{
    size_t n = 0;
    while (args[n])
        n++;
    char **argv = calloc(n + 5, sizeof *argv);
    if (!argv)
        return -1;
    argv[0] = "/bin/sh";
    argv[1] = "-c";
    argv[2] = "exec $BINFORM_SCHEMA_CC \"$@\"";
    argv[3] = "sh";
    memcpy(argv + 4, args, n * sizeof *args);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("BINFORM_SCHEMA_CC", schema_compiler(), 1);
        execv(argv[0], argv);
        _exit(127);
    }
    free(argv);
    return pid;
}

/* Splits schema_cflags into words (a copy; the words point into *buf). */
static size_t cflag_words(char **buf, char *words[], size_t max)
{
    *buf = strdup(schema_cflags);
    size_t n = 0;
    for (char *w = *buf ? strtok(*buf, " ") : NULL; w && n < max; w = strtok(NULL, " "))
        words[n++] = w;
    return n;
}

/* Compiles `sources` (paths) two at a time (the machine binform is meant for has two cores
 * or more), then links the objects into `out`. 1 when all went well. */
static int compile(const char *work, char **sources, size_t count, const char *out)
{
    char include[PATH_MAX + 16], gen[PATH_MAX + 16];
    snprintf(include, sizeof include, "-I%s/include", work);
    /* the generated code for quoted includes only: a format named stdio or png must not stand in
     * for <stdio.h> */
    snprintf(gen, sizeof gen, "%s/gen", work);
    char **objects = calloc(count + 1, sizeof *objects);
    char *flags_buf;
    char *flags[16];
    size_t nflags = cflag_words(&flags_buf, flags, 16);
    int failed = !objects || !flags_buf;
    pid_t pids[2];
    size_t running = 0;
    for (size_t i = 0; i < count || running;) {
        if (i < count && running < 2 && !failed) {
            objects[i] = malloc(strlen(sources[i]) + 3);
            if (!objects[i]) {
                failed = 1;
                continue;
            }
            sprintf(objects[i], "%s.o", sources[i]);
            char *args[32];
            size_t a = 0;
            for (size_t f = 0; f < nflags; f++)
                args[a++] = flags[f];
            args[a++] = include;
            args[a++] = "-iquote";
            args[a++] = gen;
            args[a++] = "-c";
            args[a++] = sources[i];
            args[a++] = "-o";
            args[a++] = objects[i];
            args[a] = NULL;
            pid_t pid = spawn_compiler(args);
            if (pid < 0) {
                failed = 1;
                continue;
            }
            pids[running++] = pid;
            i++;
            continue;
        }
        if (!running)
            break;
        int status;
        pid_t pid = wait(&status);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            failed = 1;
            break;
        }
        for (size_t r = 0; r < running; r++)
            if (pids[r] == pid) {
                pids[r] = pids[--running];
                break;
            }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            failed = 1;
    }
    if (!failed) {
        char **args = calloc(count + 8, sizeof *args);
        failed = !args;
        if (args) {
            size_t a = 0;
            args[a++] = "-shared";
            args[a++] = "-o";
            args[a++] = (char *)out;
            for (size_t i = 0; i < count; i++)
                args[a++] = objects[i];
            args[a++] = "-lm";
            pid_t pid = spawn_compiler(args);
            int status = 0;
            failed = pid < 0;
            while (!failed && waitpid(pid, &status, 0) < 0)
                failed = errno != EINTR;
            failed = failed || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
            free(args);
        }
    }
    for (size_t i = 0; objects && i < count; i++)
        free(objects[i]);
    free(objects);
    free(flags_buf);
    return !failed;
}

int schema_build(const schema_request *req, const char *work)
{
    const char *bfgen = schema_bfgen();
    if (!bfgen)
        return EXIT_USAGE;
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/include", work);
    if (mkdir(path, 0700) != 0) {
        fprintf(stderr, "binform: cannot create %s: %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    for (const embedded_file *h = runtime_headers; h->name; h++) {
        snprintf(path, sizeof path, "%s/include/%s", work, h->name);
        if (!write_text(path, h->text)) {
            fprintf(stderr, "binform: cannot write %s: %s\n", path, strerror(errno));
            return EXIT_USAGE;
        }
    }
    /* bfgen: the reflection tables bring the reader, writer and validator; the index, the
     * formats table. Its mistakes go to stderr exactly as it prints them. */
    char gen[PATH_MAX];
    snprintf(gen, sizeof gen, "%s/gen", work);
    char imports[PATH_MAX + 16];
    snprintf(imports, sizeof imports, "%s/imports", work);
    char **argv = calloc(req->count + 2 * req->search_count + 10, sizeof *argv);
    if (!argv)
        return EXIT_USAGE;
    size_t a = 0;
    argv[a++] = (char *)bfgen;
    argv[a++] = "--emit";
    argv[a++] = "header,reader,access,writer,validator,meta,index";
    argv[a++] = "--out";
    argv[a++] = gen;
    argv[a++] = "--depfile";
    argv[a++] = imports;
    for (size_t i = 0; i < req->search_count; i++) {
        argv[a++] = "--schema-path";
        argv[a++] = (char *)req->search_dirs[i];
    }
    for (size_t i = 0; i < req->count; i++)
        argv[a++] = (char *)req->schemas[i];
    int status = run(argv);
    free(argv);
    if (status != 0) {
        if (status < 0 || status == 127)
            fprintf(stderr, "binform: could not run %s\n", bfgen);
        return EXIT_USAGE;
    }
    snprintf(path, sizeof path, "%s/entry.c", gen);
    if (!write_text(path, entry_source)) {
        fprintf(stderr, "binform: cannot write %s: %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    size_t n = 0;
    char **names = c_files(gen, &n);
    char **sources = names ? calloc(n + 1, sizeof *sources) : NULL;
    int ok = sources != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        sources[i] = malloc(strlen(gen) + strlen(names[i]) + 2);
        if (!sources[i]) {
            ok = 0;
            break;
        }
        sprintf(sources[i], "%s/%s", gen, names[i]);
    }
    snprintf(path, sizeof path, "%s/schema.so", work);
    if (ok)
        ok = compile(work, sources, n, path);
    for (size_t i = 0; i < n; i++) {
        free(names[i]);
        if (sources)
            free(sources[i]);
    }
    free(names);
    free(sources);
    if (!ok) {
        fprintf(stderr, "binform: compiling the generated code with '%s' failed (BINFORM_CC names another compiler)\n",
                schema_compiler());
        return EXIT_USAGE;
    }
    return 0;
}
