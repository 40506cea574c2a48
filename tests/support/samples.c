#include "samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

const char *sample_path(const char *rel)
{
    static char buf[8][1024];
    static int next;
    char *p = buf[next++ & 7];
    const char *dir = getenv("BF_SHARED_DIR");
    snprintf(p, 1024, "%s/samples/%s", dir ? dir : BF_SHARED_DIR, rel);
    return p;
}

int samples_present(void)
{
    struct stat st;
    return stat(sample_path("t3dm"), &st) == 0 && S_ISDIR(st.st_mode);
}

void samples_note_skipped(const char *what)
{
    printf("skipped: %s (shared samples not found at %s)\n", what, sample_path(""));
    fflush(stdout);
}

int load_file(const char *path, uint8_t **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *data = malloc((size_t)n + 1);
    *size = (size_t)n;
    int ok = *data && fread(*data, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    if (!ok) {
        free(*data);
        *data = NULL;
    }
    return ok;
}
