#define _DEFAULT_SOURCE
#include "inputs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "document.h"

enum { OUT_OF_MEMORY = -1 };

static int add_problem(file_list *l, const char *path, int walked, const char *problem)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        char **paths = realloc(l->paths, cap * sizeof *paths);
        if (!paths)
            return 0;
        l->paths = paths;
        unsigned char *w = realloc(l->walked, cap);
        if (!w)
            return 0;
        l->walked = w;
        char **problems = realloc(l->problems, cap * sizeof *problems);
        if (!problems)
            return 0;
        l->problems = problems;
        l->cap = cap;
    }
    char *copy = problem ? strdup(problem) : NULL;
    if (!(l->paths[l->count] = strdup(path)) || (problem && !copy)) {
        free(l->paths[l->count]);
        free(copy);
        return 0;
    }
    l->problems[l->count] = copy;
    l->walked[l->count++] = (unsigned char)walked;
    return 1;
}

static int add(file_list *l, const char *path, int walked) { return add_problem(l, path, walked, NULL); }

/* A path the walk found and could not read, listed with why. */
static int add_unreadable(file_list *l, const char *path, const char *why)
{
    size_t n = strlen(path) + strlen(why) + 64;
    char *problem = malloc(n);
    if (!problem)
        return 0;
    snprintf(problem, n, "%s: error: %s", path, why);
    int ok = add_problem(l, path, 1, problem);
    free(problem);
    return ok;
}

/* Why lstat or stat failed on a path the walk found, in words. */
static const char *unreadable_why(int e, int is_link)
{
    if (e == ELOOP)
        return "cannot read it: a loop of symbolic links";
    if (e == ENOENT && is_link)
        return "cannot read it: a symbolic link to nothing (dangling)";
    if (e == ENAMETOOLONG)
        return "cannot read it: its path is longer than the system allows (PATH_MAX)";
    return NULL;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Regular files under `dir`, sorted by name at each level; symbolic links to directories are
 * not followed (no loops). */
static int walk(file_list *l, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        char why[256];
        snprintf(why, sizeof why, "cannot open the directory: %s", strerror(errno));
        return add_unreadable(l, dir, why) ? 0 : OUT_OF_MEMORY;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (n == cap) {
            char **bigger = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
            if (!bigger) {
                rc = OUT_OF_MEMORY;
                break;
            }
            names = bigger;
        }
        if (!(names[n] = strdup(e->d_name))) {
            rc = OUT_OF_MEMORY;
            break;
        }
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    size_t dlen = strlen(dir);
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t len = dlen + strlen(names[i]) + 2;
        char *path = malloc(len);
        if (!path) {
            rc = OUT_OF_MEMORY;
            break;
        }
        snprintf(path, len, "%s%s%s", dir, dlen && dir[dlen - 1] == '/' ? "" : "/", names[i]);
        /* a link is not followed into a directory (no loops), but one to a file is read;
         * what cannot be looked at is listed as unreadable, never dropped in silence */
        struct stat st;
        int listed = lstat(path, &st) == 0, e = errno;
        int is_link = listed && S_ISLNK(st.st_mode);
        if (listed && S_ISDIR(st.st_mode)) {
            rc = walk(l, path);
        } else if (listed && (!is_link || stat(path, &st) == 0)) {
            if (S_ISREG(st.st_mode) && !add(l, path, 1))
                rc = OUT_OF_MEMORY;
        } else {
            if (listed)
                e = errno; /* stat's, through the link */
            char because[256];
            const char *why = unreadable_why(e, is_link);
            if (!why) {
                snprintf(because, sizeof because, "cannot read it: %s", strerror(e));
                why = because;
            }
            if (!add_unreadable(l, path, why))
                rc = OUT_OF_MEMORY;
        }
        free(path);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (rc == OUT_OF_MEMORY) {
        fprintf(stderr, "%s: error: out of memory\n", dir);
        rc = EXIT_USAGE;
    }
    return rc;
}

int file_list_build(file_list *l, int argc, char **argv, int recursive)
{
    memset(l, 0, sizeof *l);
    int stdin_seen = 0;
    for (int i = 0; i < argc; i++) {
        struct stat st;
        if (strcmp(argv[i], "-") == 0) {
            if (stdin_seen++) {
                fprintf(stderr, "binform: '-' (standard input) given twice\n");
                return EXIT_USAGE;
            }
        } else if (recursive && stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            int rc = walk(l, argv[i]);
            if (rc)
                return rc;
            continue;
        }
        if (!add(l, argv[i], 0)) {
            fprintf(stderr, "binform: out of memory\n");
            return EXIT_USAGE;
        }
    }
    return 0;
}

void file_list_free(file_list *l)
{
    for (size_t i = 0; i < l->count; i++) {
        free(l->paths[i]);
        free(l->problems[i]);
    }
    free(l->paths);
    free(l->walked);
    free(l->problems);
    memset(l, 0, sizeof *l);
}

int each_document(const options *o, int argc, char **argv, int (*use)(const options *o, document *d))
{
    file_list files;
    int status = file_list_build(&files, argc, argv, o->recursive);
    if (status) {
        file_list_free(&files);
        return status;
    }
    int color = color_wanted(stderr, o->color);
    for (size_t i = 0; i < files.count; i++) {
        if (files.problems[i]) {
            print_line(stderr, files.problems[i], color);
            status = EXIT_USAGE;
            continue;
        }
        document d;
        open_opts oo = {.format = o->format, .revision = o->revision, .skip_unknown = files.walked[i]};
        int rc = document_load(&d, files.paths[i], &oo);
        if (rc && rc != DOC_SKIPPED)
            document_report(&d, stderr, color);
        else if (rc == 0)
            rc = use(o, &d);
        if (rc != DOC_SKIPPED && rc > status)
            status = rc;
        document_close(&d);
    }
    file_list_free(&files);
    return status;
}
