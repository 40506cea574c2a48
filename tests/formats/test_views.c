/* Views against the full reader: on every sample of every format (all have views), both accept
 * the file and agree on every field (<fmt>_view_same_*, generated for the tests into the test
 * library by bfgen --emit view-same, walks every accessor);
 * on truncated and corrupted copies (counts, offsets and lengths overwritten), a view opens
 * exactly when the reader reads, and when both refuse, with the reader's error (message, field
 * path and byte offset). T3DM is also checked by hand: vertices, indices, strings and
 * keyframes through the accessors, against the reader's structs; a truncation inside a run of
 * fixed fields (checked with one bound) names its field. Runs under ASan + UBSan,
 * each input in a buffer of exactly its size, so a read past it is a report. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block_cache.h"
#include "j3d_view.h"
#include "j3d_view_same.h"
#include "p3m_view.h"
#include "p3m_view_same.h"
#include "samples.h"
#include "sprite_view.h"
#include "sprite_view_same.h"
#include "t3dm_view.h"
#include "t3dm_view_same.h"
#include "tkl_view.h"
#include "tkl_view_same.h"
#include "tmd_view.h"
#include "tmd_view_same.h"
#include "tml_view.h"
#include "tml_view_same.h"

/* Reads with the reader and opens a view; `same` is 1 when both succeeded and agree, or
 * both failed with the same error: message, field path and byte offset. */
typedef struct outcome {
    int reader_ok, view_ok, same;
    char where[256];
    bf_error reader_err, view_err;
} outcome;

/* 1 when both errors say the same; else where they part, for the failure message. A count
 * the reader cannot allocate within its memory budget is the reader's own refusal: a view
 * allocates nothing, and refuses such a file where its bytes run out. */
static int same_error(const bf_error *r, const bf_error *v, char *where, size_t size)
{
    if (strcmp(r->message, v->message) == 0 && strcmp(r->path, v->path) == 0 && r->offset == v->offset)
        return 1;
    if (strstr(r->message, "exceeds the memory budget"))
        return 1;
    snprintf(where, size, "the error: reader %s @0x%llx, view %s @0x%llx", r->path, (unsigned long long)r->offset,
             v->path, (unsigned long long)v->offset);
    return 0;
}

#define VIEW_CHECK(fmt, entry, Root)                                                          \
    static void check_##fmt##_##entry(const uint8_t *d, size_t n, outcome *o)                 \
    {                                                                                         \
        bf_arena a;                                                                           \
        bf_arena_init(&a, block_cache_hooks(), 0);                                            \
        Root *doc = NULL;                                                                     \
        o->reader_ok = fmt##_read_##entry(d, n, &a, NULL, &doc, &o->reader_err);              \
        fmt##_##entry##_view v;                                                               \
        o->view_ok = fmt##_view_open_##entry(d, n, &v, &o->view_err);                         \
        o->where[0] = '\0';                                                                   \
        o->same = o->reader_ok == o->view_ok;                                                 \
        if (o->reader_ok && o->view_ok)                                                       \
            o->same = fmt##_view_same_##entry(&v, doc, o->where, sizeof o->where);           \
        else if (!o->reader_ok && !o->view_ok)                                                \
            o->same = same_error(&o->reader_err, &o->view_err, o->where, sizeof o->where);   \
        bf_arena_free(&a);                                                                    \
    }
VIEW_CHECK(t3dm, model, t3dm_File)
VIEW_CHECK(t3dm, stream, t3dm_StreamData)
VIEW_CHECK(j3d, model, j3d_File)
VIEW_CHECK(sprite, sprite, sprite_Sprite)
VIEW_CHECK(tkl, library, tkl_File)
VIEW_CHECK(tml, library, tml_File)
VIEW_CHECK(p3m, model, p3m_File)
VIEW_CHECK(tmd, model, tmd_File)

typedef struct view_entry {
    const char *ext;
    void (*check)(const uint8_t *, size_t, outcome *);
} view_entry;

static const view_entry entries[] = {
    {".t3dm", check_t3dm_model}, {".sdata", check_t3dm_stream}, {".bmd", check_j3d_model},
    {".bdl", check_j3d_model},   {".sprite", check_sprite_sprite}, {".tkl", check_tkl_library},
    {".tml", check_tml_library}, {".p3m", check_p3m_model}, {".tmd", check_tmd_model},
};

static const view_entry *entry_for(const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        size_t el = strlen(entries[i].ext);
        if (len > el && strcmp(name + len - el, entries[i].ext) == 0)
            return &entries[i];
    }
    return NULL;
}

/* Calls fn for every file under `dir` that has views (recursively). */
typedef void (*file_fn)(const char *path, const view_entry *e, void *user);
static int walk(const char *dir, file_fn fn, void *user)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        const view_entry *e = entry_for(de->d_name);
        if (e) {
            fn(path, e, user);
            n++;
        } else {
            n += walk(path, fn, user);
        }
    }
    closedir(d);
    return n;
}

/* An exact-size copy, so that ASan sees a read one byte past the input. */
static uint8_t *exact_copy(const uint8_t *d, size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    memcpy(p, d, n);
    return p;
}

static void agree_on_sample(const char *path, const view_entry *e, void *user)
{
    int *count = user;
    uint8_t *data;
    size_t size;
    cr_assert(load_file(path, &data, &size), "cannot load %s", path);
    uint8_t *exact = exact_copy(data, size);
    outcome o;
    e->check(exact, size, &o);
    /* samples the reader refuses (nonconforming ones) must be refused by the view too */
    cr_expect(o.reader_ok == o.view_ok, "%s: reader %s, view %s (%s / %s)", path, o.reader_ok ? "reads" : "refuses",
              o.view_ok ? "opens" : "refuses", o.reader_err.message, o.view_err.message);
    cr_expect(o.same, "%s: the view differs from the reader at %s", path, o.where);
    if (o.reader_ok)
        (*count)++;
    free(exact);
    free(data);
}

Test(views, agree_with_the_reader_on_every_sample)
{
    REQUIRE_SAMPLES();
    int read = 0;
    int files = walk(sample_path(""), agree_on_sample, &read);
    files += walk(BF_PROJECT_DIR "/tests/fixtures", agree_on_sample, &read);
    cr_assert_gt(files, 30, "only %d sample files found", files);
    cr_assert_gt(read, 30, "only %d samples read", read);
}

/* The project's own files (the demo model and its stream, the sprite fixtures): views are
 * tested on them with or without ../shared. */
Test(views, agree_with_the_reader_on_the_project_fixtures)
{
    int read = 0;
    int files = walk(BF_PROJECT_DIR "/tests/fixtures/demo", agree_on_sample, &read);
    files += walk(BF_PROJECT_DIR "/tests/fixtures/sprite", agree_on_sample, &read);
    cr_assert_geq(files, 3, "only %d fixture files found", files);
    cr_assert_geq(read, 3, "only %d fixtures read", read);
}

/* ---- hostile copies: truncations and overwritten bytes -------------------------------- */

/* Which files a hostile-copies test takes: sizes in [min_size, max_size), names ending in
 * `ext` (NULL: any). The large tests are split this way so that Criterion's --jobs runs the
 * parts side by side; together they take every file. */
typedef struct file_group {
    size_t min_size, max_size;
    const char *ext;
    int checked; /* files of the group checked */
} file_group;

static int in_group(const char *path, size_t size, const file_group *g)
{
    size_t len = strlen(path), el = g->ext ? strlen(g->ext) : 0;
    if (g->ext && (len < el || strcmp(path + len - el, g->ext) != 0))
        return 0;
    return size >= g->min_size && size < g->max_size;
}

static void refuse_like_the_reader(const char *path, const view_entry *e, void *user)
{
    file_group *g = user;
    uint8_t *data;
    size_t size;
    cr_assert(load_file(path, &data, &size), "cannot load %s", path);
    if (!in_group(path, size, g)) {
        free(data);
        return;
    }
    g->checked++;
    outcome o;
    /* every truncation of small files; about 150 of large ones, the last bytes all */
    size_t step = size > 150 ? size / 150 : 1;
    for (size_t cut = 0; cut < size; cut += (cut + 32 >= size ? 1 : step)) {
        uint8_t *p = exact_copy(data, cut);
        e->check(p, cut, &o);
        free(p);
        cr_assert(o.same, "%s cut to %zu bytes: reader %s, view %s (%s / %s; differs at %s)", path, cut,
                  o.reader_ok ? "reads" : "refuses", o.view_ok ? "opens" : "refuses", o.reader_err.message,
                  o.view_err.message, o.where);
    }
    /* lying counts, offsets and lengths: every byte of the first 1 KB (where headers and
     * tables are) and about 150 more, set to values that make counts huge, zero or off by one.
     * Bytes below 256 (the headers) take all three values; the rest of the first 1 KB takes
     * one each, in turn (byte `at` gets values[at % 3], or the next one when it already holds
     * it), so every byte there is still overwritten; far bytes take 0xFF and 0x00. The checks cost a
     * whole read each: this keeps a J3D model's under 2,000 instead of 3,500. */
    static const uint8_t values[] = {0xFF, 0x00, 0x01};
    enum { ALL_VALUES = 256 };
    size_t limit = size < 1024 ? size : 1024;
    size_t far_step = size > 1024 ? (size - 1024) / 150 + 1 : 1;
    uint8_t *p = exact_copy(data, size);
    for (size_t at = 0; at < size; at += at < limit ? 1 : far_step) {
        int in_turn = at >= ALL_VALUES && at < limit; /* one value, chosen by the offset */
        size_t tried = 0;
        for (size_t j = 0; j < sizeof values; j++) {
            size_t k = in_turn ? (at + j) % 3 : j;
            if ((at >= limit && j > 1) || (in_turn && tried == 1))
                break;
            uint8_t was = p[at];
            if (was == values[k])
                continue;
            tried++;
            p[at] = values[k];
            e->check(p, size, &o);
            p[at] = was;
            cr_assert(o.same, "%s with byte 0x%zx = 0x%02x: reader %s, view %s (%s / %s; differs at %s)", path, at,
                      values[k], o.reader_ok ? "reads" : "refuses", o.view_ok ? "opens" : "refuses",
                      o.reader_err.message, o.view_err.message, o.where);
        }
    }
    free(p);
    free(data);
}

/* Files from 64 KiB up take most of the time (each copy is read whole): they are tests of
 * their own. */
#define LARGE_FILE ((size_t)64 << 10)

Test(views, refuse_what_the_reader_refuses, .timeout = 600)
{
    REQUIRE_SAMPLES();
    file_group g = {0, LARGE_FILE, NULL, 0};
    walk(sample_path("t3dm"), refuse_like_the_reader, &g);
    cr_assert_gt(g.checked, 15);
}

/* the other formats' files apart from T3DM's, so that --jobs runs the two side by side */
Test(views, refuse_what_the_reader_refuses_other_formats, .timeout = 600)
{
    REQUIRE_SAMPLES();
    file_group g = {0, LARGE_FILE, NULL, 0};
    walk(sample_path("tkl"), refuse_like_the_reader, &g);
    walk(sample_path("tml"), refuse_like_the_reader, &g);
    walk(sample_path("tmd"), refuse_like_the_reader, &g);
    walk(sample_path("p3m"), refuse_like_the_reader, &g);
    cr_assert_gt(g.checked, 8);
}

Test(views, refuse_what_the_reader_refuses_large_files, .timeout = 600)
{
    REQUIRE_SAMPLES();
    file_group g = {LARGE_FILE, SIZE_MAX, NULL, 0};
    walk(sample_path("t3dm"), refuse_like_the_reader, &g);
    walk(sample_path("tkl"), refuse_like_the_reader, &g);
    walk(sample_path("tml"), refuse_like_the_reader, &g);
    walk(sample_path("tmd"), refuse_like_the_reader, &g);
    walk(sample_path("p3m"), refuse_like_the_reader, &g);
    cr_assert_geq(g.checked, 1);
}

/* the sprite fixtures are the sprite format's files, here with or without ../shared */
Test(views, refuse_what_the_reader_refuses_on_the_project_fixtures, .timeout = 600)
{
    file_group g = {0, SIZE_MAX, NULL, 0};
    walk(BF_PROJECT_DIR "/tests/fixtures/demo", refuse_like_the_reader, &g);
    walk(BF_PROJECT_DIR "/tests/fixtures/sprite", refuse_like_the_reader, &g);
    cr_assert_geq(g.checked, 3);
}

/* J3D: its two kinds of file, side by side */
Test(views, refuse_what_the_reader_refuses_j3d_bmd, .timeout = 600)
{
    REQUIRE_SAMPLES();
    file_group g = {0, SIZE_MAX, ".bmd", 0};
    walk(sample_path("bmd"), refuse_like_the_reader, &g);
    cr_assert_geq(g.checked, 2);
}

Test(views, refuse_what_the_reader_refuses_j3d_bdl, .timeout = 600)
{
    REQUIRE_SAMPLES();
    file_group g = {0, SIZE_MAX, ".bdl", 0};
    walk(sample_path("bmd"), refuse_like_the_reader, &g);
    cr_assert_geq(g.checked, 1);
}

/* ---- T3DM by hand: the accessors a renderer uses, against the reader's structs ---------- */

static void t3dm_by_hand(const char *path, const view_entry *e, void *user)
{
    int *objects = user;
    if (e->check != check_t3dm_model)
        return;
    uint8_t *data;
    size_t size;
    cr_assert(load_file(path, &data, &size));
    bf_arena a;
    bf_arena_init(&a, bf_alloc_default(), 0);
    t3dm_File *doc;
    bf_error err;
    cr_assert(t3dm_read_model(data, size, &a, NULL, &doc, &err), "%s: %s", path, err.message);
    t3dm_model_view mv;
    cr_assert(t3dm_view_open_model(data, size, &mv, &err), "%s: %s", path, err.message);
    const t3dm_File_view *f = &mv.root;
    t3dm_Header_view h = t3dm_File_view_header(f);
    cr_assert_eq(t3dm_Header_view_chunk_count(&h), doc->header.chunk_count);
    cr_assert_eq(t3dm_Header_view_total_vertex_count(&h), doc->header.total_vertex_count);
    cr_assert_eq(t3dm_File_view_chunk_data_count(f), doc->chunk_data_count);
    for (size_t i = 0; i < doc->chunk_data_count; i++) {
        const t3dm_Chunk *rc = &doc->chunk_data[i];
        t3dm_Chunk_view cv = t3dm_File_view_chunk_data_at(f, i);
        cr_assert_eq(t3dm_Chunk_view_body_kind(&cv), rc->body.kind);
        if (rc->body.kind == T3DM_KIND_VERTICES) {
            t3dm_Vertices_view vv = t3dm_Chunk_view_body_Vertices(&cv);
            const t3dm_Vertices *rv = rc->body.Vertices;
            cr_assert_eq(t3dm_Vertices_view_pairs_count(&vv), rv->pairs_count);
            for (size_t k = 0; k < rv->pairs_count; k++) {
                t3dm_VertexPair_view p = t3dm_Vertices_view_pairs_at(&vv, k);
                const t3dm_VertexPair *rp = &rv->pairs[k];
                for (size_t j = 0; j < 3; j++) {
                    cr_assert_eq(t3dm_VertexPair_view_position_a(&p, j), rp->position_a[j]);
                    cr_assert_eq(t3dm_VertexPair_view_position_b(&p, j), rp->position_b[j]);
                }
                cr_assert_eq(t3dm_VertexPair_view_normal_a_y(&p), rp->normal_a_y);
                cr_assert_eq(t3dm_VertexPair_view_rgba_b(&p), rp->rgba_b);
                cr_assert_eq(t3dm_VertexPair_view_uv_a(&p, 1), rp->uv_a[1]);
            }
            /* past the end: zeros, never a read outside the input */
            t3dm_VertexPair_view past = t3dm_Vertices_view_pairs_at(&vv, rv->pairs_count);
            cr_assert_eq(t3dm_VertexPair_view_rgba_a(&past), 0);
        }
        if (rc->body.kind == T3DM_KIND_OBJECT) {
            (*objects)++;
            t3dm_Object_view ov = t3dm_Chunk_view_body_Object(&cv);
            const t3dm_Object *ro = rc->body.Object;
            bf_str name = t3dm_Object_view_name_str(&ov);
            cr_assert(name.len == ro->name_str.len && (name.len == 0 || memcmp(name.ptr, ro->name_str.ptr, name.len) == 0));
            cr_assert_eq(t3dm_Object_view_parts_count(&ov), ro->parts_count);
            for (size_t k = 0; k < ro->parts_count; k++) {
                t3dm_Part_view pv = t3dm_Object_view_parts_at(&ov, k);
                t3dm_PartIndices_view iv = t3dm_Part_view_index_data(&pv);
                const t3dm_PartIndices *ri = &ro->parts[k].index_data;
                cr_assert_eq(t3dm_PartIndices_view_triangles_count(&iv), ri->triangles_count);
                const uint8_t *tri = t3dm_PartIndices_view_triangles_bytes(&iv);
                for (size_t j = 0; j < ri->triangles_count; j++)
                    cr_assert_eq(tri[j], ri->triangles[j]);
                cr_assert_eq(t3dm_PartIndices_view_has_strip_a(&iv), ri->has_strip_a);
                for (size_t j = 0; ri->has_strip_a && j < ri->strip_a_count; j++)
                    cr_assert_eq(t3dm_PartIndices_view_strip_a(&iv, j), ri->strip_a[j]);
            }
        }
    }
    bf_arena_free(&a);
    free(data);
}

Test(views, t3dm_accessors_by_hand)
{
    REQUIRE_SAMPLES();
    int objects = 0;
    walk(sample_path("t3dm"), t3dm_by_hand, &objects);
    cr_assert_gt(objects, 10);
}

static void keyframes_by_hand(const char *path, const view_entry *e, void *user)
{
    int *streams = user;
    if (e->check != check_t3dm_stream)
        return;
    uint8_t *data;
    size_t size;
    cr_assert(load_file(path, &data, &size));
    bf_arena a;
    bf_arena_init(&a, bf_alloc_default(), 0);
    t3dm_StreamData *doc;
    bf_error err;
    cr_assert(t3dm_read_stream(data, size, &a, NULL, &doc, &err), "%s: %s", path, err.message);
    t3dm_stream_view sv;
    cr_assert(t3dm_view_open_stream(data, size, &sv, &err), "%s: %s", path, err.message);
    t3dm_Keyframe_view k;
    size_t i = 0;
    for (int more = t3dm_StreamData_view_keyframes_first(&sv.root, &k); more;
         more = t3dm_StreamData_view_keyframes_next(&sv.root, &k), i++) {
        cr_assert_lt(i, doc->keyframes_count);
        const t3dm_Keyframe *rk = &doc->keyframes[i];
        cr_assert_eq(t3dm_Keyframe_view_time_ticks(&k), rk->time_ticks);
        cr_assert_eq(t3dm_Keyframe_view_channel(&k), rk->channel);
        cr_assert_eq(t3dm_Keyframe_view_data_count(&k), rk->data_count);
        for (size_t j = 0; j < rk->data_count; j++)
            cr_assert_eq(t3dm_Keyframe_view_data(&k, j), rk->data[j]);
    }
    cr_assert_eq(i, doc->keyframes_count);
    (*streams)++;
    bf_arena_free(&a);
    free(data);
}

Test(views, t3dm_keyframes_by_hand)
{
    REQUIRE_SAMPLES();
    int streams = 0;
    walk(sample_path("t3dm"), keyframes_by_hand, &streams);
    cr_assert_gt(streams, 0);
}

/* Errors name the field and the offset, like the reader's. */
Test(views, errors_name_field_and_offset)
{
    REQUIRE_SAMPLES();
    uint8_t *data;
    size_t size;
    cr_assert(load_file(sample_path("t3dm/01_model/model.t3dm"), &data, &size));
    t3dm_model_view mv;
    bf_error err;
    cr_assert_not(t3dm_view_open_model(data, 0x20, &mv, &err));
    cr_assert(strstr(err.path, "header"), "path '%s'", err.path);
    data[3] = 5; /* version */
    cr_assert_not(t3dm_view_open_model(data, size, &mv, &err));
    cr_assert(strstr(err.path, "version"), "path '%s'", err.path);
    free(data);
}

/* A run of fixed-size fields is checked with one bound: when the input ends inside it, the
 * error still names the field it ends in, at that field's offset (J3D's header: magic, then
 * kind, file_size, section_count and a 16-byte subversion header in one run). */
Test(views, a_cut_inside_a_run_names_its_field)
{
    REQUIRE_SAMPLES();
    uint8_t *data;
    size_t size;
    cr_assert(load_file(sample_path("bmd/box.bmd"), &data, &size));
    static const struct {
        size_t cut;
        const char *field;
        uint64_t offset;
    } cuts[] = {{6, "kind", 4}, {9, "file_size", 8}, {15, "section_count", 12}, {20, "subversion", 16}};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        uint8_t *p = exact_copy(data, cuts[i].cut);
        j3d_model_view mv;
        bf_error err;
        cr_assert_not(j3d_view_open_model(p, cuts[i].cut, &mv, &err));
        cr_expect(strstr(err.path, cuts[i].field) != NULL, "cut %zu: path '%s', want %s", cuts[i].cut, err.path,
                  cuts[i].field);
        cr_expect_eq(err.offset, cuts[i].offset, "cut %zu: offset %llu", cuts[i].cut, (unsigned long long)err.offset);
        free(p);
    }
    free(data);
}
