/* The generated T3DM writer: byte-exact round trip, edits, range errors, atomic saving. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bf_write.h"
#include "samples.h"
#include "t3dm.h"

#define PYRAMID BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.t3dm"

typedef struct doc {
    uint8_t *data;
    size_t size;
    bf_arena arena;
    t3dm_File *file;
} doc;

static void open_doc(doc *d, const char *path)
{
    bf_error err;
    cr_assert(load_file(path, &d->data, &d->size), "cannot read %s", path);
    bf_arena_init(&d->arena, bf_alloc_default(), 0);
    cr_assert(t3dm_read_model(d->data, d->size, &d->arena, NULL, &d->file, &err), "%s: %s", err.path, err.message);
}

static void close_doc(doc *d)
{
    bf_arena_free(&d->arena);
    free(d->data);
}

/* Writes a file read from `path` back; 1 when identical (else logs the first difference). */
static int round_trips(const char *path)
{
    uint8_t *data;
    size_t size;
    cr_assert(load_file(path, &data, &size));
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    bf_error err;
    bf_buffer out = {0};
    int same = 0;
    size_t n = strlen(path);
    if (n > 6 && strcmp(path + n - 6, ".sdata") == 0) {
        t3dm_StreamData *s;
        cr_assert(t3dm_read_stream(data, size, &arena, NULL, &s, &err), "%s", err.message);
        cr_assert(t3dm_write_stream(s, &out, &err), "%s: %s", err.path, err.message);
    } else {
        t3dm_File *f;
        cr_assert(t3dm_read_model(data, size, &arena, NULL, &f, &err), "%s", err.message);
        cr_assert(t3dm_write_model(f, &out, &err), "%s: %s", err.path, err.message);
    }
    same = out.size == size && memcmp(out.data, data, size) == 0;
    if (!same) {
        size_t i = 0;
        while (i < size && i < out.size && out.data[i] == data[i])
            i++;
        cr_log_error("%s: first difference at 0x%zx (%zu bytes read, %zu written)", path, i, size, out.size);
    }
    bf_buffer_free(&out);
    bf_arena_free(&arena);
    free(data);
    return same;
}

static void collect(const char *dir, char names[][1024], int *count)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        if ((n > 5 && strcmp(e->d_name + n - 5, ".t3dm") == 0) || (n > 6 && strcmp(e->d_name + n - 6, ".sdata") == 0))
            snprintf(names[(*count)++], 1024, "%s", path);
        else if (!strchr(e->d_name, '.'))
            collect(path, names, count);
    }
    closedir(d);
}

Test(t3dm_write, every_sample_round_trips_byte_exact)
{
    REQUIRE_SAMPLES();
    static char names[128][1024];
    int count = 0, identical = 0;
    collect(sample_path("t3dm"), names, &count);
    for (int i = 0; i < count; i++)
        identical += round_trips(names[i]);
    cr_log_info("T3DM round trip: %d/%d identical", identical, count);
    cr_expect_eq(count, 34);
    cr_expect_eq(identical, count, "%d/%d samples round-trip byte-exact", identical, count);
}

Test(t3dm_write, own_model_round_trips)
{
    cr_expect(round_trips(PYRAMID));
    cr_expect(round_trips(BF_PROJECT_DIR "/tests/fixtures/demo/pyramid.0.sdata"));
}

Test(t3dm_write, edits_are_written_in_the_file_byte_order)
{
    doc d;
    open_doc(&d, PYRAMID);
    t3dm_Object *o = d.file->chunk_data[0].body.Object;
    o->triangle_count = 0x1234;
    o->aabb_min[0] = -2;
    t3dm_Bone *tip = &d.file->chunk_data[5].body.Skeleton->bones[1];
    tip->translation[1] = 2.5f;
    bf_buffer out = {0};
    bf_error err;
    cr_assert(t3dm_write_model(d.file, &out, &err), "%s", err.message);
    cr_assert_eq(out.size, d.size);
    cr_expect(out.data[0x4E] == 0x12 && out.data[0x4F] == 0x34, "big-endian u16 at 0x4E");
    cr_expect(out.data[0x5C] == 0xFF && out.data[0x5D] == 0xFE, "s16 -2");
    /* translation y of bone 1: the bone at 0x1DC, translation at +0x24, y at +4: 2.5f = 0x40200000 */
    const uint8_t *t = out.data + 0x1DC + 0x24 + 4;
    cr_expect(t[0] == 0x40 && t[1] == 0x20 && t[2] == 0 && t[3] == 0);
    size_t differing = 0;
    for (size_t i = 0; i < out.size; i++)
        differing += out.data[i] != d.data[i];
    /* 0x0006 -> 0x1234: 2 bytes; 0xFFC0 -> 0xFFFE: 1; 96.0f -> 2.5f: 0x42C0 -> 0x4020, 2 */
    cr_expect_eq(differing, 5, "only the edited bytes change");
    bf_buffer_free(&out);
    close_doc(&d);
}

Test(t3dm_write, offsets_that_no_longer_fit_24_bits_fail)
{
    doc d;
    open_doc(&d, PYRAMID);
    d.file->chunks[3].offset = 0x1000000;
    bf_buffer out = {0};
    bf_error err;
    cr_assert_not(t3dm_write_model(d.file, &out, &err));
    cr_expect_str_eq(err.path, "chunks[3].offset");
    cr_expect(strstr(err.message, "value 16777216 does not fit in 24 unsigned bits (0 to 16777215)") != NULL, "%s", err.message);
    bf_buffer_free(&out);
    close_doc(&d);
}

Test(t3dm_write, strings_longer_than_their_field_fail)
{
    doc d;
    open_doc(&d, PYRAMID);
    d.file->header.magic.ptr = "T3MX";
    d.file->header.magic.len = 4;
    d.file->header.magic.size = 0;
    bf_buffer out = {0};
    bf_error err;
    cr_assert_not(t3dm_write_model(d.file, &out, &err));
    cr_expect_str_eq(err.path, "header.magic");
    cr_expect(strstr(err.message, "longer than its 3-byte field") != NULL, "%s", err.message);
    bf_buffer_free(&out);
    close_doc(&d);
}

/* ---- atomic saving ---- */

static char folder[64];

static void make_folder(void)
{
    snprintf(folder, sizeof folder, "/tmp/bf_save_XXXXXX");
    cr_assert_not_null(mkdtemp(folder));
}

static int files_in(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

static int has_text(const char *path, const char *text)
{
    uint8_t *data;
    size_t size;
    if (!load_file(path, &data, &size))
        return 0;
    int same = size == strlen(text) && memcmp(data, text, size) == 0;
    free(data);
    return same;
}

Test(t3dm_write, save_replaces_the_file_whole)
{
    make_folder();
    char target[128];
    snprintf(target, sizeof target, "%s/model.t3dm", folder);
    write_text(target, "old contents");
    chmod(target, 0640);
    bf_error err;
    cr_assert(bf_save_atomic(target, (const uint8_t *)"new", 3, &err), "%s", err.message);
    cr_expect(has_text(target, "new"));
    struct stat st;
    stat(target, &st);
    cr_expect_eq(st.st_mode & 0777, 0640, "the target keeps its mode");
    cr_expect_eq(files_in(folder), 1, "no temporary file is left");
    unlink(target);
    rmdir(folder);
}

Test(t3dm_write, failed_rename_leaves_nothing_behind)
{
    make_folder();
    char target[128];
    snprintf(target, sizeof target, "%s/is_a_folder", folder);
    cr_assert_eq(mkdir(target, 0755), 0);
    bf_error err;
    cr_assert_not(bf_save_atomic(target, (const uint8_t *)"new", 3, &err));
    /* refused before a temporary is made (it was: made, then the rename failed) */
    cr_expect(strstr(err.message, "it is a directory") != NULL, "%s", err.message);
    cr_expect_eq(files_in(folder), 1, "only the folder: the temporary file was removed");
    rmdir(target);
    rmdir(folder);
}

Test(t3dm_write, read_only_folder_keeps_the_old_file)
{
    if (geteuid() == 0)
        cr_skip_test("running as root: a read-only folder does not stop root (covered by the other save tests)");
    make_folder();
    char target[128];
    snprintf(target, sizeof target, "%s/model.t3dm", folder);
    write_text(target, "old contents");
    chmod(folder, 0555);
    bf_error err;
    cr_expect_not(bf_save_atomic(target, (const uint8_t *)"new", 3, &err));
    chmod(folder, 0755);
    cr_expect(has_text(target, "old contents"));
    cr_expect_eq(files_in(folder), 1);
    unlink(target);
    rmdir(folder);
}

Test(t3dm_write, value_overflow_keeps_the_old_file)
{
    make_folder();
    char target[128];
    snprintf(target, sizeof target, "%s/model.t3dm", folder);
    write_text(target, "old contents");
    doc d;
    open_doc(&d, PYRAMID);
    d.file->chunks[0].offset = 0x2000000;
    bf_buffer out = {0};
    bf_error err;
    /* the image fails before anything is saved */
    if (t3dm_write_model(d.file, &out, &err))
        bf_save_atomic(target, out.data, out.size, &err);
    cr_expect(err.failed);
    cr_expect(has_text(target, "old contents"));
    cr_expect_eq(files_in(folder), 1);
    bf_buffer_free(&out);
    close_doc(&d);
    unlink(target);
    rmdir(folder);
}

Test(t3dm_write, missing_folder_fails_cleanly)
{
    bf_error err;
    cr_expect_not(bf_save_atomic("/nonexistent/dir/model.t3dm", (const uint8_t *)"x", 1, &err));
    cr_expect(strstr(err.message, "/nonexistent/dir/model.t3dm") != NULL, "%s", err.message);
}
