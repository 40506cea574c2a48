/* Seed corpus for one format: copies every file under the given folders that bf_detect
 * assigns to the format (by magic, then extension) into OUTDIR, named ENTRY-PATH so that a
 * seed says which reader it was meant for.
 *
 *   fuzz_seeds FORMAT OUTDIR DIR...        (missing DIRs are skipped) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats.h"

static const char *want;
static const char *outdir;
static int copied;

static void consider(const char *path, const char *rel)
{
    bf_error err;
    uint8_t *data;
    size_t size;
    if (!bf_file_load(path, bf_alloc_default(), &data, &size, &err))
        return;
    const bf_format_desc *f = NULL;
    const bf_entry_desc *e = bf_detect(bf_formats, data, size, path, &f);
    if (e && strcmp(f->name, want) == 0) {
        char name[1200], out[2400];
        snprintf(name, sizeof name, "%s-%s", e->name, rel);
        for (char *p = name; *p; p++)
            if (*p == '/')
                *p = '_';
        snprintf(out, sizeof out, "%s/%s", outdir, name);
        FILE *o = fopen(out, "wb");
        if (!o || fwrite(data, 1, size, o) != size) {
            fprintf(stderr, "fuzz_seeds: cannot write %s\n", out);
            exit(1);
        }
        fclose(o);
        copied++;
    }
    bf_file_unload(bf_alloc_default(), data, size);
}

static void walk(const char *dir, const char *rel)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (ent->d_name[0] == '.')
            continue;
        char path[1024], sub[1024];
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", ent->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            walk(path, sub);
        else if (S_ISREG(st.st_mode))
            consider(path, sub);
    }
    closedir(d);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fuzz_seeds FORMAT OUTDIR DIR...\n");
        return 2;
    }
    want = argv[1];
    outdir = argv[2];
    for (int i = 3; i < argc; i++)
        walk(argv[i], "");
    printf("fuzz_seeds: %d seed files for %s in %s\n", copied, want, outdir);
    return 0;
}
