/* Toshi formats (schemas/tmd.yaml, tkl.yaml, tml.yaml): the real samples (read, validate, write
 * back byte-exact, decoded values), hand-made fixtures laid out from the document's tables for
 * what the samples do not have (auxiliary node data, DDS and ARGB2222 textures), and one test per
 * validation rule: a mutated sample or fixture that breaks it, and the finding it gives. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bf_validate.h"
#include "bf_write.h"
#include "doc_equal.h"
#include "mutate.h"
#include "samples.h"
#include "tkl.h"
#include "tmd.h"
#include "tml.h"

/* ---- helpers ---------------------------------------------------------------------------- */

enum kind { TMD, TKL, TML };

/* One file read, validated and written back. */
typedef struct doc {
    enum kind kind;
    uint8_t *data;
    size_t size;
    int owns;
    bf_arena arena;
    int read_ok;
    bf_error err;
    bf_findings findings;
    bf_buffer out;
    int write_ok;
    tmd_File *tmd;
    tkl_File *tkl;
    tml_File *tml;
} doc;

static void open_bytes(doc *d, enum kind kind, uint8_t *data, size_t size, int owns)
{
    memset(d, 0, sizeof *d);
    d->kind = kind;
    d->data = data;
    d->size = size;
    d->owns = owns;
    bf_arena_init(&d->arena, bf_alloc_default(), 0);
    switch (kind) {
    case TMD:
        d->read_ok = tmd_read_model(data, size, &d->arena, NULL, &d->tmd, &d->err);
        if (d->read_ok) {
            tmd_validate_model(d->tmd, data, size, &d->findings);
            d->write_ok = tmd_write_model(d->tmd, &d->out, &d->err);
        }
        break;
    case TKL:
        d->read_ok = tkl_read_library(data, size, &d->arena, NULL, &d->tkl, &d->err);
        if (d->read_ok) {
            tkl_validate_library(d->tkl, data, size, &d->findings);
            d->write_ok = tkl_write_library(d->tkl, &d->out, &d->err);
        }
        break;
    case TML:
        d->read_ok = tml_read_library(data, size, &d->arena, NULL, &d->tml, &d->err);
        if (d->read_ok) {
            tml_validate_library(d->tml, data, size, &d->findings);
            d->write_ok = tml_write_library(d->tml, &d->out, &d->err);
        }
        break;
    }
}

static uint8_t *load_sample(const char *rel, size_t *size)
{
    uint8_t *data;
    cr_assert(load_file(sample_path(rel), &data, size), "cannot read %s", sample_path(rel));
    return data;
}

static enum kind kind_of(const char *rel)
{
    return strncmp(rel, "tmd/", 4) == 0 ? TMD : strncmp(rel, "tkl/", 4) == 0 ? TKL : TML;
}

static void open_sample(doc *d, const char *rel)
{
    size_t size;
    uint8_t *data = load_sample(rel, &size);
    open_bytes(d, kind_of(rel), data, size, 1);
}

static void close_doc(doc *d)
{
    bf_buffer_free(&d->out);
    bf_findings_free(&d->findings);
    bf_arena_free(&d->arena);
    if (d->owns)
        free(d->data);
}

static void dump(const doc *d, const char *name)
{
    for (size_t i = 0; i < d->findings.count; i++) {
        char line[800];
        bf_finding_format(&d->findings.items[i], name, line, sizeof line);
        cr_log_info("%s", line);
    }
}

/* 1 when what the writer wrote is the input, byte for byte (else logs the first difference). */
static int written_back(const doc *d)
{
    if (!d->write_ok) {
        cr_log_error("write failed: %s: %s", d->err.path, d->err.message);
        return 0;
    }
    if (d->out.size == d->size && memcmp(d->out.data, d->data, d->size) == 0)
        return 1;
    size_t i = 0;
    while (i < d->size && i < d->out.size && d->out.data[i] == d->data[i])
        i++;
    cr_log_error("first difference at 0x%zx (%zu bytes read, %zu written)", i, d->size, d->out.size);
    return 0;
}

static const bf_finding *find(const doc *d, const char *path, const char *message)
{
    for (size_t i = 0; i < d->findings.count; i++)
        if (strcmp(d->findings.items[i].path, path) == 0 && strstr(d->findings.items[i].message, message))
            return &d->findings.items[i];
    return NULL;
}

/* Findings of rules cite their document sentence; enum and flag checks have no origin. */
static int want_origin = 1;

/* Expects exactly `errors` errors and `warnings` warnings, one of them this finding; closes d. */
static void expect_only(const char *rule, doc *d, size_t errors, size_t warnings, bf_severity sev, const char *path,
                        uint64_t offset, const char *message)
{
    cr_assert(d->read_ok, "%s: the mutated file must still read: %s %s", rule, d->err.path, d->err.message);
    const bf_finding *f = find(d, path, message);
    if (!f)
        dump(d, "mutated");
    cr_assert_not_null(f, "%s: no finding at '%s' saying '%s'", rule, path, message);
    cr_expect_eq(f->severity, sev, "%s: severity", rule);
    cr_expect_eq(f->offset, offset, "%s: offset 0x%llx, expected 0x%llx", rule, (unsigned long long)f->offset,
                 (unsigned long long)offset);
    if (want_origin)
        cr_expect(f->origin != NULL && f->origin[0] != 0, "%s: the finding cites its origin", rule);
    if (d->findings.errors != errors || d->findings.warnings != warnings)
        dump(d, "mutated");
    cr_expect_eq(d->findings.errors, errors, "%s: errors", rule);
    cr_expect_eq(d->findings.warnings, warnings, "%s: warnings", rule);
    close_doc(d);
}

/* Reads a mutated copy of a sample. */
#define MUTATED(rel) \
    size_t size;     \
    uint8_t *m = load_sample(rel, &size);

static void check_mutated(doc *d, const char *rel, uint8_t *m, size_t size)
{
    open_bytes(d, kind_of(rel), m, size, 1);
}

static int str_is(bf_str s, const char *want)
{
    return s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

#define expect_str(s, want) cr_expect(str_is((s), (want)), "'%.*s', expected '%s'", (int)(s).len, (s).ptr, (want))
#define expect_near(a, b) cr_expect(fabs((double)(a) - (double)(b)) < 1e-5, "%g, expected %g", (double)(a), (double)(b))

/* ---- every sample: reads, validates without errors, writes back byte-exact ---------------- */

static const struct {
    const char *rel;
    size_t warnings;
} samples[] = {
    {"tmd/box.tmd", 1},       /* magic value 0 (the exporter writes the TKL name over it) */
    {"tmd/snake.tmd", 1},     /* idem */
    {"tmd/plant.tmd", 1},     /* idem */
    {"tkl/box.tkl", 0},       {"tkl/snake.tkl", 0}, {"tkl/plant.tkl", 0},
    {"tml/basic_rgba.tml", 0},
    {"tml/formats_mixed.tml", 2}, /* the ARGB4444 and ARGB1555 textures carry 4 bytes per pixel */
};

Test(toshi_samples, every_sample_reads_validates_and_round_trips)
{
    REQUIRE_SAMPLES();
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        doc d;
        open_sample(&d, samples[i].rel);
        cr_assert(d.read_ok, "%s: %s @0x%llx: %s", samples[i].rel, d.err.path, (unsigned long long)d.err.offset,
                  d.err.message);
        dump(&d, samples[i].rel);
        cr_expect_eq(d.findings.errors, 0, "%s: errors", samples[i].rel);
        cr_expect_eq(d.findings.warnings, samples[i].warnings, "%s: warnings", samples[i].rel);
        cr_expect(written_back(&d), "%s does not round-trip byte-exact", samples[i].rel);
        close_doc(&d);
    }
}

Test(toshi_samples, tmd_warnings_are_the_magic_value)
{
    REQUIRE_SAMPLES();
    doc d;
    open_sample(&d, "tmd/box.tmd");
    const bf_finding *f = find(&d, "header.magic_value", "magic value 0 is not one of the game's");
    cr_assert_not_null(f);
    cr_expect_eq(f->severity, BF_SEVERITY_WARNING);
    cr_expect_eq(f->offset, 0x14);
    cr_expect(strstr(f->origin, "Magic Value. Typically one of a couple values.") != NULL);
    close_doc(&d);
}

Test(toshi_samples, tml_warnings_are_the_16_bit_textures)
{
    REQUIRE_SAMPLES();
    doc d;
    open_sample(&d, "tml/formats_mixed.tml");
    const bf_finding *f = find(&d, "textures[1].data_size", "a 16-bit format (7) stored with 4 bytes per pixel");
    cr_assert_not_null(f);
    cr_expect_eq(f->severity, BF_SEVERITY_WARNING);
    cr_expect_eq(f->offset, 0x42C);
    f = find(&d, "textures[2].data_size", "a 16-bit format (2) stored with 4 bytes per pixel (1024 bytes for 16 x 16)");
    cr_assert_not_null(f);
    cr_expect_eq(f->offset, 0x848);
    close_doc(&d);
}

/* ---- decoded values of the samples ------------------------------------------------------- */

Test(toshi_samples, box_tmd)
{
    REQUIRE_SAMPLES();
    doc d;
    open_sample(&d, "tmd/box.tmd");
    cr_assert(d.read_ok, "%s", d.err.message);
    tmd_File *f = d.tmd;
    expect_str(f->magic, "TMDL");
    cr_expect_eq(f->header.remaining, 1340);
    expect_str(f->header.category, "box");
    cr_expect_eq(f->header.lod_offset, 308);
    expect_near(f->header.lod_offset_value, 368);
    cr_expect_eq(f->header.salt, 0x7FFF0000u);
    cr_expect_eq(f->scene_size, 308);
    cr_expect_eq(f->scene.node_count, 1);
    cr_expect_eq(f->scene.animation_count, 1);
    /* no auxiliary node data: the address decrypts to 0x7C, the node address is absent and
     * the animation pointer address moves up to +56 */
    cr_expect_eq(60 + f->scene.aux_address - f->header.salt, 0x7C);
    cr_expect_not(f->has_aux_data);
    cr_expect_not(f->scene.has_node_address);
    cr_expect_eq(f->scene.animation_address_at, 0x40 + 56);
    cr_expect_eq(f->nodes_count, 1);
    cr_expect_eq(f->nodes[0]._offset, 0x7C);
    expect_str(f->nodes[0].name, "root");
    cr_expect_eq(f->nodes[0].name_length, 4);
    cr_expect_eq(f->nodes[0].parent, -1);
    cr_assert_eq(f->animation_pointers_count, 1);
    cr_expect_eq(f->animation_pointers[0]._offset, 0x12C);
    tmd_Animation *a = &f->animation_pointers[0].animation;
    cr_expect_eq(a->_offset, 0x130);
    expect_str(a->name, "Spin00");
    cr_expect_eq(a->channel_count, 1);
    expect_near(a->duration, 31.0 / 30.0);
    cr_assert_eq(a->channels_count, 1);
    tmd_Channel *ch = &a->channels[0].channel;
    cr_expect_eq(ch->_offset, 0x154);
    cr_expect_eq(ch->flags, TMD_CHANNEL_FLAGS_USE_TRANSLATION);
    cr_assert_eq(ch->frame_count, 3);
    cr_expect_eq(ch->keyframes[1].translation_key, 1);
    cr_expect_eq(ch->keyframes[2].rotation_key, 2);
    expect_near(ch->keyframes[1].timestamp, 16.0 / 30.0);
    cr_expect_eq(f->lod._offset, 0x170);
    cr_assert_eq(f->lod.level_count, 1);
    expect_near(f->lod.unknown, 4.0);
    tmd_Level *l = &f->lod.levels[0];
    cr_assert_eq(l->mesh_count, 1);
    tmd_Mesh *m = &l->meshes[0];
    expect_str(m->material, "StoneFloor_F3d");
    cr_expect_eq(m->index_count, 32);
    cr_expect_eq(m->vertex_count, 20);
    cr_assert_eq(m->piece_count, 1);
    tmd_Piece *p = &m->pieces[0];
    cr_expect_eq(p->_p_mesh_vertex_count, 20);
    cr_expect_eq(p->index_count, 32);
    cr_expect_eq(p->vertex_count, 20);
    cr_expect_eq(p->highest_index, 19);
    cr_expect_eq(p->skin_count, 1);
    cr_expect_eq(p->skin_nodes[0], 0);
    expect_near(p->extent[0], 2.0);
    cr_expect_eq(p->vertices_at, 0x1E8);
    expect_near(p->vertices[0].position[0], -1.0);
    expect_near(p->vertices[0].normal[2], 1.0);
    cr_expect_eq(p->vertices[0].weights[0], 255);
    expect_near(p->vertices[0].weights_value[0], 1.0);
    cr_expect_eq(p->vertices[0]._p_bone_count, 1);
    cr_expect_eq(p->indices_at, 0x508);
    cr_expect_eq(p->indices[0], 2);
    cr_expect_eq(p->indices[31], 18);
    close_doc(&d);
}

Test(toshi_samples, snake_tmd)
{
    REQUIRE_SAMPLES();
    doc d;
    open_sample(&d, "tmd/snake.tmd");
    cr_assert(d.read_ok, "%s", d.err.message);
    tmd_File *f = d.tmd;
    expect_str(f->header.category, "snake");
    cr_assert_eq(f->nodes_count, 15);
    static const char *names[] = {"Root", "Body", "Chest", "Neck", "Head", "Tail", "Tail1", "Tail2",
                                  "Tail3", "PoleTarget", "Mouth", "LowerMouth", "Tongue1", "Tongue2", "Tongue3"};
    static const int parents[] = {-1, 0, 1, 2, 3, 0, 5, 6, 7, 0, 0, 10, 10, 12, 13};
    for (int i = 0; i < 15; i++) {
        expect_str(f->nodes[i].name, names[i]);
        cr_expect_eq(f->nodes[i].parent, parents[i], "node %d", i);
    }
    cr_assert_eq(f->animation_pointers_count, 5);
    static const char *anims[] = {"Attack_Snake", "Death_Snake", "Idle_Snake", "Jump_Snake", "Walk_Snake"};
    static const double durations[] = {16 / 24.0, 20 / 24.0, 50 / 24.0, 23 / 24.0, 20 / 24.0};
    for (int i = 0; i < 5; i++) {
        tmd_Animation *a = &f->animation_pointers[i].animation;
        expect_str(a->name, anims[i]);
        expect_near(a->duration, durations[i]);
        cr_expect_eq(a->channel_count, 15);
        cr_expect_eq(a->channels_count, 15);
    }
    /* Attack_Snake, node 1 (Body): 17 keyframes through the translation table */
    tmd_Channel *ch = &f->animation_pointers[0].animation.channels[1].channel;
    cr_expect_eq(ch->frame_count, 17);
    cr_expect_eq(ch->keyframes[2].translation_key, 2);
    tmd_Mesh *m = &f->lod.levels[0].meshes[0];
    expect_str(m->material, "f3dlite_material");
    cr_expect_eq(m->vertex_count, 291);
    cr_expect_eq(m->pieces[0].skin_count, 12);
    /* the first vertex is shared by two bones: weights 0xC6 and 0x38, bone bytes 0 and 3 */
    tmd_Vertex *v = &m->pieces[0].vertices[0];
    cr_expect_eq(v->weights[0], 0xC6);
    expect_near(v->weights_value[1], 0x38 / 255.0);
    cr_expect_eq(v->bone_ids[1], 3);
    expect_near(v->bone_ids_value[1], 1.0);
    close_doc(&d);
}

Test(toshi_samples, plant_tmd)
{
    REQUIRE_SAMPLES();
    doc d;
    open_sample(&d, "tmd/plant.tmd");
    cr_assert(d.read_ok, "%s", d.err.message);
    tmd_File *f = d.tmd;
    cr_assert_eq(f->nodes_count, 7);
    static const char *names[] = {"Body00", "Body01", "Body02", "Body03", "MouthTp", "MouthBt", "neutral_bone"};
    static const int parents[] = {-1, 0, 1, 2, 3, 4, -1};
    for (int i = 0; i < 7; i++) {
        expect_str(f->nodes[i].name, names[i]);
        cr_expect_eq(f->nodes[i].parent, parents[i], "node %d", i);
    }
    cr_assert_eq(f->animation_pointers_count, 1);
    expect_str(f->animation_pointers[0].animation.name, "Idle");
    expect_near(f->animation_pointers[0].animation.duration, 2.0);
    cr_assert_eq(f->lod.level_count, 1);
    tmd_Level *l = &f->lod.levels[0];
    cr_assert_eq(l->mesh_count, 5);
    cr_assert_eq(l->meshes_count, 5);
    static const char *materials[] = {"f3dlite_mouth", "f3d_InnerMouth", "f3dlite_leafbush", "f3d_neck",
                                      "f3dlite_material_001"};
    static const unsigned vertices[] = {54, 32, 20, 45, 9};
    for (int i = 0; i < 5; i++) {
        expect_str(l->meshes[i].material, materials[i]);
        cr_expect_eq(l->meshes[i].vertex_count, vertices[i]);
    }
    /* f3d_neck is skinned to five nodes */
    tmd_Piece *p = &l->meshes[3].pieces[0];
    cr_assert_eq(p->skin_count, 5);
    cr_expect_eq(p->skin_nodes[0], 2);
    cr_expect_eq(p->skin_nodes[4], 6);
    close_doc(&d);
}

Test(toshi_samples, tkl_lookup_tables)
{
    REQUIRE_SAMPLES();
    static const struct {
        const char *rel, *name;
        uint32_t positions, rotations;
    } want[] = {{"tkl/box.tkl", "box", 3, 3}, {"tkl/snake.tkl", "snake", 321, 911}, {"tkl/plant.tkl", "plant", 125, 717}};
    for (int i = 0; i < 3; i++) {
        doc d;
        open_sample(&d, want[i].rel);
        cr_assert(d.read_ok, "%s", d.err.message);
        tkl_File *f = d.tkl;
        expect_str(f->name, want[i].name);
        cr_expect_eq(f->position_count, want[i].positions);
        cr_expect_eq(f->rotation_count, want[i].rotations);
        cr_expect_eq(f->positions_count, want[i].positions);
        cr_expect_eq(f->rotations_count, want[i].rotations);
        cr_expect_eq(f->lut_size, 12 * want[i].positions + 16 * want[i].rotations);
        cr_expect_eq(f->remaining, d.size - 12);
        /* what the exporter writes in the unknown 16 bytes */
        cr_expect(f->unknown_36[0] == 0 && f->unknown_36[1] == 12 && f->unknown_36[2] == 16 && f->unknown_36[3] == 4);
        close_doc(&d);
    }
    doc d;
    open_sample(&d, "tkl/box.tkl");
    expect_near(d.tkl->positions[1].y, -0.1);
    expect_near(d.tkl->rotations[0].x, -0.70710678);
    expect_near(d.tkl->rotations[0].z, -0.70710678);
    cr_expect_eq(d.tkl->rotations[0]._offset, 0x38 + 3 * 12);
    close_doc(&d);
}

Test(toshi_samples, basic_rgba_tml)
{
    REQUIRE_SAMPLES();
    doc d;
    open_sample(&d, "tml/basic_rgba.tml");
    cr_assert(d.read_ok, "%s", d.err.message);
    tml_File *f = d.tml;
    expect_str(f->magic, "TML1");
    cr_assert_eq(f->texture_count, 1);
    tml_Texture *t = &f->textures[0];
    cr_expect_eq(t->id, 0);
    cr_expect_eq(t->format, TML_TEXTURE_FORMAT_RGBA_8888);
    cr_expect_eq(t->width, 32);
    cr_expect_eq(t->height, 32);
    cr_expect_eq(t->data_size, 32 * 32 * 4);
    cr_expect_eq(t->data.len, 4096);
    cr_expect_eq(t->data.offset, 0x28);
    cr_expect(t->data.ptr[0] == 0xB9 && t->data.ptr[3] == 0xFF, "first pixel B9 B9 B9 FF");
    cr_assert_eq(f->material_count, 1);
    expect_str(f->material_names[0], "f3dlite_material");
    cr_expect_eq(f->materials[0].name_index, 0);
    cr_assert_eq(f->materials[0].texture_count, 1);
    cr_expect_eq(f->materials[0].texture_ids[0].id, 0);
    close_doc(&d);
}

Test(toshi_samples, formats_mixed_tml)
{
    REQUIRE_SAMPLES();
    doc d;
    open_sample(&d, "tml/formats_mixed.tml");
    cr_assert(d.read_ok, "%s", d.err.message);
    tml_File *f = d.tml;
    cr_assert_eq(f->texture_count, 4);
    static const unsigned formats[] = {0, 7, 2, 0}, ids[] = {3, 2, 1, 0}, sides[] = {16, 16, 16, 8};
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(f->textures[i].format, formats[i], "texture %d", i);
        cr_expect_eq(f->textures[i].id, ids[i], "texture %d (descending ids)", i);
        cr_expect_eq(f->textures[i].width, sides[i]);
        cr_expect_eq(f->textures[i].data_size, 4 * sides[i] * sides[i]);
    }
    cr_assert_eq(f->material_count, 6);
    expect_str(f->material_names[0], "bkg_sky");
    expect_str(f->material_names[4], "f3dlite_material_001");
    /* material 3 has two textures, material 4 none */
    cr_assert_eq(f->materials[3].texture_count, 2);
    cr_expect_eq(f->materials[3].texture_ids[0].id, 2);
    cr_expect_eq(f->materials[3].texture_ids[1].id, 3);
    cr_expect_eq(f->materials[4].texture_count, 0);
    cr_expect_eq(f->materials[4].texture_ids_count, 0);
    cr_expect_eq(f->materials[0].name_index, 5);
    cr_expect_eq(f->materials[5].unknown, 0x4004);
    close_doc(&d);
}

/* ---- hand-made fixtures, laid out from the document's tables ------------------------------ */

typedef struct buf {
    uint8_t d[2048];
    size_t n;
} buf;

static void b8(buf *b, unsigned v) { b->d[b->n++] = (uint8_t)v; }
static void b16(buf *b, unsigned v) { b8(b, v & 0xff), b8(b, (v >> 8) & 0xff); }
static void b32(buf *b, uint32_t v) { b16(b, v & 0xffff), b16(b, v >> 16); }
static void b64(buf *b, uint64_t v) { b32(b, (uint32_t)v), b32(b, (uint32_t)(v >> 32)); }
static void bf(buf *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    b32(b, u);
}
static void bstr(buf *b, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        b8(b, i < strlen(s) ? (uint8_t)s[i] : 0);
}
static void bzero(buf *b, size_t n)
{
    while (n--)
        b8(b, 0);
}
/* the layout is where the document's tables put each block */
#define AT(b, off) cr_assert_eq((b)->n, (size_t)(off), "layout: 0x%zx, expected 0x%x", (b)->n, (unsigned)(off))

#define SALT 0x1000u
/* Address encryption: fileAddress = 60 + encryptedAddress - salt */
#define ENC(off) ((uint32_t)(off) - 60u + SALT)

/* A model with 2 nodes, 1 animation (2 channels) and 1 level with 1 mesh. With `aux`, it has
 * auxiliary node data: the scene block then holds the node data address at +56 and the
 * animation pointer address at +60. With `split`, the mesh has a second piece that stores no
 * vertices and draws the first piece's (the community exporter's layout). */
static void tmd_fixture(buf *b, int aux, int split)
{
    const uint32_t nodes = aux ? 0x88 : 0x7C;    /* after the aux data (2 x int32 at 0x80), else 0x7C */
    const uint32_t pointers = nodes + 2 * 0xB0; /* node data block: 0xB0 * numNodes */
    const uint32_t anim = pointers + 4;         /* animation pointer block: 4 * numAnimations */
    const uint32_t ch0 = anim + 0x20 + 2 * 4;   /* animation data block: 0x20 + numNodes * 4 */
    const uint32_t ch1 = ch0 + 4 + 2 * 8;       /* channel: 4 + 8 per keyframe */
    const uint32_t lod = ch1 + 4;
    const uint32_t end = lod + 8 + 24 + 44 + (40 + 4 + 3 * 40 + 3 * 2) + (split ? 40 + 4 + 3 * 2 : 0);
    b->n = 0;
    bstr(b, "TMDL", 8);            /* 8-byte fixed string, magic "TMDL" */
    AT(b, 8);                      /* TMD Header, 52 bytes */
    b32(b, end - 12);              /* +0 remaining bytes in file */
    bstr(b, "fixture", 8);         /* +4 category / lookup table for animations */
    b64(b, 584117868617ull);       /* +12 magic value (one of the game's) */
    b32(b, lod - 60);              /* +20 lodDataOffset = value + 60 */
    b32(b, SALT);                  /* +24 salt */
    b32(b, 0);                     /* +28 unknown */
    b32(b, 0);                     /* +32 unknown */
    bzero(b, 16);                  /* +36 16 zeroes */
    AT(b, 60);
    b32(b, lod - 60);              /* the scene block's size, the uint32 at +60 */
    AT(b, 64);                     /* Scene Block */
    b16(b, 2);                     /* +0 number of nodes */
    b16(b, 0);                     /* +2 unknown */
    b16(b, 1);                     /* +4 number of animations */
    b16(b, 0);                     /* +6 unknown */
    bzero(b, 44);                  /* +8 44 zeroes */
    b32(b, ENC(aux ? 0x80 : 0x7C)); /* +52 auxiliary node data (0x7C: none) */
    if (aux)
        b32(b, ENC(nodes));        /* +56 (optional) node data block */
    b32(b, ENC(pointers));         /* +56 / +60 animation pointer block */
    if (aux) {
        AT(b, 0x80);               /* Node Auxiliary Data: one int32 per node */
        b32(b, 7);
        b32(b, (uint32_t)-1);
    }
    AT(b, nodes);                  /* Node Data Block: 0xB0 per node */
    for (int i = 0; i < 2; i++) {
        bf(b, 0), bf(b, 0), bf(b, 0), bf(b, 1); /* +0 fallback rotation (quaternion X, Y, Z, W) */
        for (int m = 0; m < 2; m++)             /* +16 bind pose, +80 inverse: identity */
            for (int k = 0; k < 16; k++)
                bf(b, k % 5 == 0 ? 1.0f : 0.0f);
        b8(b, i == 0 ? 4 : 3);                  /* +144 length of the name */
        bstr(b, i == 0 ? "root" : "tip", 15);   /* +145 node name */
        b16(b, i == 0 ? 0xFFFF : 0);            /* +160 parent id, -1 for none */
        b16(b, 0);                              /* +162 updated */
        bf(b, 0), bf(b, (float)i), bf(b, 0);    /* +164 fallback translation */
    }
    AT(b, pointers);               /* Animation Pointer Block */
    b32(b, ENC(anim));
    AT(b, anim);                   /* Animation Data Block */
    b8(b, 4);                      /* +0 name length */
    bstr(b, "Wave", 15);           /* +1 animation name */
    b32(b, 0);                     /* +16 composite */
    b32(b, 1);                     /* +20 sound played */
    b32(b, 2);                     /* +24 number of channels */
    bf(b, 1.0f);                   /* +28 duration */
    b32(b, ENC(ch0));              /* +32 channel of node 0 */
    b32(b, ENC(ch1));              /*     channel of node 1 */
    AT(b, ch0);                    /* Animation Channel Block */
    b16(b, 1);                     /* +0 UseTranslation */
    b16(b, 2);                     /* +2 frame count */
    bf(b, 0.0f), b16(b, 0), b16(b, 0); /* keyframe: timestamp, translation key, rotation key */
    bf(b, 1.0f), b16(b, 1), b16(b, 1);
    AT(b, ch1);
    b16(b, 2);                     /* UseChannel */
    b16(b, 0);                     /* no frames */
    AT(b, lod);                    /* Levels-of-Detail Block */
    b32(b, 1);                     /* +0 number of levels */
    bf(b, 10.0f);                  /* +4 unknown (a float in real files) */
    b32(b, 1);                     /* Level: +0 number of meshes */
    bf(b, 0.0f);                   /* +4 distance */
    bf(b, 1), bf(b, 2), bf(b, 3), bf(b, 4); /* +8 4 unknown floats */
    b32(b, split ? 2 : 1);         /* Mesh: +0 number of pieces */
    b32(b, split ? 6 : 3);         /* +4 total indices */
    b32(b, 3);                     /* +8 total vertices */
    bstr(b, "rock", 32);           /* +12 material name */
    b32(b, 3);                     /* Piece: +0 indices */
    b32(b, 3);                     /* +4 vertices */
    b32(b, 1);                     /* +8 nodes skinned to */
    b32(b, 2);                     /* +12 highest vertex */
    bf(b, 0.5f), bf(b, 0.5f), bf(b, 0); /* +16 center */
    bf(b, 0.5f), bf(b, 0.5f), bf(b, 0); /* +28 extent */
    b32(b, 1);                     /* +40 skinned to node 1 */
    for (int v = 0; v < 3; v++) {  /* Mesh Vertex */
        bf(b, v == 1), bf(b, v == 2), bf(b, 0);     /* +0 position */
        bf(b, 0), bf(b, 0), bf(b, 1);               /* +12 normal */
        b8(b, 0xFF), b8(b, 0), b8(b, 0), b8(b, 0);  /* +24 weights */
        b8(b, 0), b8(b, 0), b8(b, 0), b8(b, 0);     /* +28 bone ids (value / 3) */
        bf(b, v == 1), bf(b, v == 2);               /* +32 texture coordinate */
    }
    b16(b, 0), b16(b, 1), b16(b, 2); /* strip */
    if (split) {
        b32(b, 3), b32(b, 0), b32(b, 1), b32(b, 2); /* a second piece without vertices */
        bf(b, 0.5f), bf(b, 0.5f), bf(b, 0), bf(b, 0.5f), bf(b, 0.5f), bf(b, 0);
        b32(b, 1);
        b16(b, 2), b16(b, 1), b16(b, 0);
    }
    AT(b, end);
}

Test(toshi_fixtures, tmd_with_auxiliary_node_data)
{
    buf b;
    tmd_fixture(&b, 1, 0);
    cr_assert_eq(b.n, 0x322);
    doc d;
    open_bytes(&d, TMD, b.d, b.n, 0);
    cr_assert(d.read_ok, "%s @0x%llx: %s", d.err.path, (unsigned long long)d.err.offset, d.err.message);
    dump(&d, "fixture");
    cr_expect_eq(d.findings.count, 0, "the fixture follows the document");
    tmd_File *f = d.tmd;
    cr_expect_eq(f->header.magic_value, 584117868617ull);
    cr_expect_eq(f->header.salt, SALT);
    /* the +56/+60 variant: node data address at +56, animation pointer address at +60 */
    cr_expect(f->scene.has_node_address);
    cr_expect_eq(f->scene.node_address, ENC(0x88));
    cr_expect_eq(f->scene.animation_address_at, 0x40 + 60);
    cr_expect_eq(f->scene.animation_address, ENC(0x1E8));
    cr_assert(f->has_aux_data);
    cr_expect_eq(f->aux_data_at, 0x80);
    cr_assert_eq(f->aux_data_count, 2);
    cr_expect_eq(f->aux_data[0], 7);
    cr_expect_eq(f->aux_data[1], -1);
    cr_assert_eq(f->nodes_count, 2);
    cr_expect_eq(f->nodes[0]._offset, 0x88);
    cr_expect_eq(f->nodes[1]._offset, 0x88 + 0xB0);
    expect_str(f->nodes[1].name, "tip");
    cr_expect_eq(f->nodes[1].parent, 0);
    expect_near(f->nodes[1].translation[1], 1.0);
    expect_near(f->nodes[1].bind_pose[15], 1.0);
    tmd_Animation *a = &f->animation_pointers[0].animation;
    cr_expect_eq(a->_offset, 0x1EC);
    expect_str(a->name, "Wave");
    cr_expect_eq(a->plays_sound, 1);
    cr_expect_eq(a->channels[0].channel._offset, 0x214);
    cr_expect_eq(a->channels[1].channel._offset, 0x228);
    cr_expect_eq(a->channels[1].channel.flags, TMD_CHANNEL_FLAGS_USE_CHANNEL);
    cr_expect_eq(a->channels[0].channel.keyframes[1].rotation_key, 1);
    cr_expect_eq(f->lod._offset, 0x22C);
    tmd_Piece *p = &f->lod.levels[0].meshes[0].pieces[0];
    cr_expect_eq(p->_offset, 0x278);
    cr_expect_eq(p->skin_nodes[0], 1);
    cr_expect_eq(p->vertices_at, 0x2A4);
    expect_near(p->vertices[2].uv[1], 1.0);
    cr_expect_eq(p->indices_at, 0x31C);
    cr_expect_eq(p->indices[2], 2);
    cr_expect(written_back(&d), "the writer reproduces the document's layout");
    close_doc(&d);
}

Test(toshi_fixtures, tmd_without_auxiliary_node_data)
{
    buf b;
    tmd_fixture(&b, 0, 0);
    doc d;
    open_bytes(&d, TMD, b.d, b.n, 0);
    cr_assert(d.read_ok, "%s @0x%llx: %s", d.err.path, (unsigned long long)d.err.offset, d.err.message);
    cr_expect_eq(d.findings.count, 0);
    cr_expect_not(d.tmd->has_aux_data);
    cr_expect_not(d.tmd->scene.has_node_address);
    cr_expect_eq(d.tmd->scene.animation_address_at, 0x40 + 56);
    cr_expect_eq(d.tmd->nodes[0]._offset, 0x7C);
    cr_expect_eq(d.tmd->animation_pointers[0]._offset, 0x7C + 2 * 0xB0);
    cr_expect(written_back(&d));
    close_doc(&d);
}

/* The builder lays a model out anew: the fixtures' documents (the game's depth-first layout)
 * build into files that read back to the same document and check clean. Nodes are at 0x7C
 * right after the scene block without auxiliary data, and after the aux data with it, the
 * scene block then holding their address. */
static void expect_builds_back(int aux)
{
    buf b;
    tmd_fixture(&b, aux, 1);
    doc d, built;
    open_bytes(&d, TMD, b.d, b.n, 0);
    cr_assert(d.read_ok, "%s: %s", d.err.path, d.err.message);
    bf_buffer out = {0};
    bf_error err;
    cr_assert(tmd_build_model(d.tmd, &d.arena, &out, &err), "aux %d: %s @0x%llx: %s", aux, err.path,
              (unsigned long long)err.offset, err.message);
    open_bytes(&built, TMD, out.data, out.size, 0);
    cr_assert(built.read_ok, "aux %d: the built file: %s: %s", aux, built.err.path, built.err.message);
    dump(&built, aux ? "built with aux data" : "built");
    /* the split piece's warning, no more */
    cr_expect_eq(built.findings.errors, 0, "aux %d: the built file checks", aux);
    cr_expect_eq(built.findings.count, d.findings.count, "aux %d: the original's findings, no more", aux);
    char why[512];
    cr_expect(doc_equal(tmd_format.entries[0].root, d.tmd, built.tmd, why, sizeof why), "aux %d: %s", aux, why);
    tmd_File *f = built.tmd;
    cr_expect_eq(f->has_aux_data, aux);
    cr_expect_eq(f->scene.has_node_address, aux);
    cr_expect_eq(f->nodes_at, aux ? 0x88u : 0x7Cu, "aux %d: nodes at 0x%llx", aux, (unsigned long long)f->nodes_at);
    if (aux) {
        cr_expect_eq(f->aux_data_at, 0x80);
        cr_expect_eq(f->scene.node_address, ENC(0x88));
    }
    cr_expect(written_back(&built));
    close_doc(&built);
    bf_buffer_free(&out);
    close_doc(&d);
}

Test(toshi_build, tmd_fixture_builds_back)
{
    expect_builds_back(0);
    expect_builds_back(1);
}

/* Without auxiliary data the nodes must be at 0x7C; a scene block that also holds a node
 * address is 4 bytes longer and pushes them to 0x80: the build fails there, naming them. */
Test(toshi_build, tmd_nodes_that_cannot_be_at_0x7c_are_refused)
{
    buf b;
    tmd_fixture(&b, 0, 0);
    doc d;
    open_bytes(&d, TMD, b.d, b.n, 0);
    cr_assert(d.read_ok);
    d.tmd->scene.has_node_address = 1;
    bf_buffer out = {0};
    bf_error err;
    cr_assert_not(tmd_build_model(d.tmd, &d.arena, &out, &err));
    cr_expect_str_eq(err.path, "nodes");
    cr_expect_eq(err.offset, 0x80);
    cr_expect(strstr(err.message, "the builder placed this at 128, but pos: ") != NULL, "%s", err.message);
    cr_expect(strstr(err.message, "puts it at 124") != NULL, "%s", err.message);
    cr_expect_null(out.data, "a failed build leaves no image");
    close_doc(&d);
}

/* TKL: one position and one rotation. */
static const uint8_t tkl_fixture[] = {
    'T', 'P', 'K', 'L',             /* +0 must be "TPKL" */
    0, 0, 0, 0,                     /* +4 always empty */
    72, 0, 0, 0,                    /* +8 remaining bytes (=bytes in LUT + 44): 28 + 44 */
    'w', 'a', 'v', 'e', 0, 0,       /* +12 name, 6 bytes */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,   /* +18 unknown */
    1, 0, 0, 0,                     /* +28 number of position values */
    1, 0, 0, 0,                     /* +32 number of rotation values */
    0, 0, 0, 0, 12, 0, 0, 0,        /* +36 unknown, 16 bytes (0, 12, 16, 4 as the exporter writes) */
    16, 0, 0, 0, 4, 0, 0, 0,
    28, 0, 0, 0,                    /* +52 bytes in the LUT: 12 + 16 */
    0x00, 0x00, 0x80, 0x3F,         /* +56 position 0: x = 1.0 */
    0x00, 0x00, 0x00, 0x40,         /*     y = 2.0 */
    0x00, 0x00, 0x40, 0x40,         /*     z = 3.0 */
    0x00, 0x00, 0x00, 0x00,         /* +68 rotation 0: x = 0 */
    0x00, 0x00, 0x00, 0x00,         /*     y = 0 */
    0x00, 0x00, 0x00, 0xBF,         /*     z = -0.5 */
    0x00, 0x00, 0x00, 0x3F,         /*     w = 0.5 */
};

Test(toshi_fixtures, tkl_byte_by_byte)
{
    doc d;
    open_bytes(&d, TKL, (uint8_t *)tkl_fixture, sizeof tkl_fixture, 0);
    cr_assert(d.read_ok, "%s: %s", d.err.path, d.err.message);
    dump(&d, "fixture");
    cr_expect_eq(d.findings.count, 0);
    tkl_File *f = d.tkl;
    expect_str(f->name, "wave");
    cr_expect_eq(f->remaining, 72);
    cr_expect_eq(f->lut_size, 28);
    cr_assert_eq(f->positions_count, 1);
    cr_assert_eq(f->rotations_count, 1);
    expect_near(f->positions[0].x, 1.0);
    expect_near(f->positions[0].z, 3.0);
    cr_expect_eq(f->rotations[0]._offset, 68);
    expect_near(f->rotations[0].z, -0.5);
    expect_near(f->rotations[0].w, 0.5);
    cr_expect(written_back(&d));
    close_doc(&d);
}

#define Z4 0, 0, 0, 0
#define Z8 Z4, Z4
#define Z16 Z8, Z8

/* TML: an ARGB2222 texture and an embedded DDS file, two materials. */
static const uint8_t tml_fixture[] = {
    'T', 'M', 'L', '1',             /* +0 must be "TML1" */
    0, 0, 0, 0,                     /* +4 unknown */
    2, 0, 0, 0,                     /* +8 number of textures */
    /* 0x0C texture 0 */
    1, 0, 0, 0,                     /* +0 texture id 1 */
    4, 0, 0, 0,                     /* +4 data size: 2 x 2 pixels, 1 byte each */
    Z8,                             /* +8 unknown */
    9, 0,                           /* +16 format ARGB_2222 */
    2, 0,                           /* +18 width */
    2, 0,                           /* +20 height */
    0, 0, 0, 0, 0, 0,               /* +22 unknown */
    0xC0, 0xF0, 0xFC, 0xFF,         /* +28 image data, row-major */
    /* 0x2C texture 1 */
    0, 0, 0, 0,                     /* +0 texture id 0 */
    16, 0, 0, 0,                    /* +4 data size */
    Z8,                             /* +8 unknown */
    6, 0,                           /* +16 format: DDS file */
    4, 0,                           /* +18 width */
    4, 0,                           /* +20 height */
    0, 0, 0, 0, 0, 0,               /* +22 unknown */
    'D', 'D', 'S', ' ',             /* +28 a DDS file (its first 16 bytes: magic, dwSize 124, */
    124, 0, 0, 0,                   /*     dwFlags, dwHeight) */
    0x07, 0x10, 0x00, 0x00,
    4, 0, 0, 0,
    /* 0x58 */
    2, 0, 0, 0,                     /* number of materials */
    's', 't', 'o', 'n', 'e', 0, 0, 0, Z8, Z16, /* material name LUT, 32 bytes each */
    'g', 'r', 'a', 's', 's', 0, 0, 0, Z8, Z16,
    /* 0x9C material 0 */
    1, 0, 0, 0,                     /* +0 name index: "grass" */
    0, 0,                           /* +4 unknown */
    1, 0,                           /* +6 number of textures */
    1, 0, 0, 0,                     /* +8 texture id 1 */
    /* 0xA8 material 1 */
    0, 0, 0, 0,                     /* +0 name index: "stone" */
    0, 0,                           /* +4 unknown */
    2, 0,                           /* +6 number of textures */
    0, 0, 0, 0,                     /* +8 texture id 0 */
    1, 0, 0, 0,                     /*    texture id 1 */
};

Test(toshi_fixtures, tml_with_dds_and_argb2222_byte_by_byte)
{
    cr_assert_eq(sizeof tml_fixture, 0xB8);
    doc d;
    open_bytes(&d, TML, (uint8_t *)tml_fixture, sizeof tml_fixture, 0);
    cr_assert(d.read_ok, "%s: %s", d.err.path, d.err.message);
    dump(&d, "fixture");
    cr_expect_eq(d.findings.count, 0, "a 1-byte-per-pixel ARGB2222 texture and a DDS file are valid");
    tml_File *f = d.tml;
    cr_assert_eq(f->textures_count, 2);
    cr_expect_eq(f->textures[0].format, TML_TEXTURE_FORMAT_ARGB_2222);
    cr_expect_eq(f->textures[0].data.len, 4);
    cr_expect_eq(f->textures[0].data.offset, 0x28);
    cr_expect_eq(f->textures[0].data.ptr[3], 0xFF);
    cr_expect_eq(f->textures[1]._offset, 0x2C);
    cr_expect_eq(f->textures[1].format, TML_TEXTURE_FORMAT_DDS);
    cr_expect_eq(f->textures[1].data.len, 16);
    cr_expect(memcmp(f->textures[1].data.ptr, "DDS ", 4) == 0);
    cr_expect_eq(f->material_count_at, 0x58);
    cr_assert_eq(f->material_count, 2);
    expect_str(f->material_names[1], "grass");
    cr_expect_eq(f->materials[0]._offset, 0x9C);
    cr_expect_eq(f->materials[0].name_index, 1);
    cr_expect_eq(f->materials[1].texture_count, 2);
    cr_expect_eq(f->materials[1].texture_ids[1].id, 1);
    cr_expect(written_back(&d));
    close_doc(&d);
}

/* ---- one test per validation rule ------------------------------------------------------- */

/* TMD: box.tmd (1 node, 1 animation, 1 mesh of 1 piece); it carries one warning (magic value). */

/* The rules one mutation of a sample breaks: the sample, the bytes changed (little-endian, like
 * the Toshi formats), whether the finding is a rule's (which cites its origin in the document)
 * or an enum or flag check's, and the one finding expected with how many errors and warnings in
 * all. Strings are arrays, not pointers: Criterion runs each row in a process of its own. */
typedef struct rule_case {
    char name[64];
    char sample[32];
    int rule; /* RULE: the finding cites its origin; CHECK: an enum or flag check, none */
    mutation edits[2];
    size_t errors, warnings;
    bf_severity severity;
    char path[64];
    uint64_t offset;
    char message[80];
} rule_case;

enum { CHECK, RULE };
#define ERROR BF_SEVERITY_ERROR
#define WARNING BF_SEVERITY_WARNING
static rule_case rule_cases[] = {
    {"tmd_remaining_bytes", "tmd/box.tmd", RULE,
     {{0x08, 4, 1000}},
     1, 1, ERROR, "header.remaining", 0x08,
     "remaining bytes 1000 but 1340 bytes follow"},
    /* as if the block started at 64 */
    {"tmd_scene_size_reaches_the_lod_block", "tmd/box.tmd", RULE,
     {{0x3C, 4, 312}},
     1, 1, ERROR, "scene_size", 0x3C,
     "scene block size 312 but the levels of detail start at 60 + 308"},
    {"tmd_magic_padding_zeroes", "tmd/box.tmd", RULE,
     {{6, 1, 'X'}},
     1, 1, ERROR, "magic_padding", 0x04,
     "the 8-byte magic string holds more than \"TMDL\""},
    {"tmd_header_16_zeroes", "tmd/box.tmd", RULE,
     {{0x2C + 15, 1, 1}},
     1, 1, ERROR, "header.zeroes", 0x2C,
     "the 16 bytes at +36 are not all zero"},
    {"tmd_scene_44_zeroes", "tmd/box.tmd", RULE,
     {{0x48 + 10, 1, 2}},
     1, 1, ERROR, "scene.zeroes", 0x48,
     "the 44 bytes at +8 are not all zero"},
    /* Tail's parent -2 */
    {"tmd_parent_in_range", "tmd/snake.tmd", RULE,
     {{0x7C + 5 * 0xB0 + 160, 2, 0xFFFE}},
     1, 1, ERROR, "nodes[5].parent", 0x7C + 5 * 0xB0 + 160,
     "parent -2 is neither -1 nor one of the 15 nodes"},
    /* Body's parent: Tail, after it */
    {"tmd_parent_before_the_node", "tmd/snake.tmd", RULE,
     {{0x7C + 1 * 0xB0 + 160, 2, 5}},
     0, 2, WARNING, "nodes[1].parent", 0x7C + 1 * 0xB0 + 160,
     "parent 5 does not come before node 1"},
    /* Neck ignores updates, Head after it does not */
    {"tmd_non_updated_nodes_come_last", "tmd/snake.tmd", RULE,
     {{0x7C + 3 * 0xB0 + 162, 2, 1}},
     1, 1, ERROR, "nodes[4].ignore_updates", 0x7C + 4 * 0xB0 + 162,
     "node 4 is updated but comes after the non-updated node 3"},
    {"tmd_node_name_length", "tmd/box.tmd", RULE,
     {{0x10C, 1, 5}},
     1, 1, ERROR, "nodes[0].name_length", 0x10C,
     "name length 5 but the name has 4 characters"},
    {"tmd_animation_name_length", "tmd/box.tmd", RULE,
     {{0x130, 1, 7}},
     1, 1, ERROR, "animation_pointers[0].animation.name_length", 0x130,
     "name length 7 but the name has 6 characters"},
    {"tmd_channel_count_is_the_node_count", "tmd/box.tmd", RULE,
     {{0x148, 4, 2}},
     1, 1, ERROR, "animation_pointers[0].animation.channel_count", 0x148,
     "2 channels but the scene has 1 nodes"},
    {"tmd_keyframes_inside_the_duration", "tmd/box.tmd", RULE,
     {{0x14C, 4, 0x3F000000 /* 0.5f */}},
     1, 1, ERROR, "animation_pointers[0].animation.channels[0].channel", 0x154,
     "a keyframe of channel 0 lies outside the animation's 0.5 seconds"},
    /* keyframe 1 before keyframe 0 (1/30 s) */
    {"tmd_keyframes_in_time_order", "tmd/box.tmd", RULE,
     {{0x160, 4, 0x00000000 /* 0.0f */}},
     1, 1, ERROR, "animation_pointers[0].animation.channels[0].channel", 0x154,
     "the keyframes of channel 0 are not in time order"},
    /* a flag-set check, not a rule */
    {"tmd_channel_flags", "tmd/box.tmd", CHECK,
     {{0x154, 2, 0x11}},
     0, 2, WARNING, "animation_pointers[0].animation.channels[0].channel.flags", 0x154,
     "bits 0x10 are not ChannelFlags flags"},
    {"tmd_mesh_index_total", "tmd/box.tmd", RULE,
     {{0x194, 4, 30}},
     1, 1, ERROR, "lod.levels[0].meshes[0].index_count", 0x194,
     "total index count 30 but the pieces hold 32"},
    {"tmd_mesh_vertex_total", "tmd/box.tmd", RULE,
     {{0x198, 4, 21}},
     1, 1, ERROR, "lod.levels[0].meshes[0].vertex_count", 0x198,
     "total vertex count 21 but the pieces store 20"},
    /* index 0: -1 */
    {"tmd_strip_indices_inside_the_mesh", "tmd/box.tmd", RULE,
     {{0x508, 2, 0xFFFF}},
     1, 1, ERROR, "lod.levels[0].meshes[0].pieces[0].indices", 0x508,
     "a strip index is outside the mesh's 20 vertices"},
    {"tmd_highest_vertex_number", "tmd/box.tmd", RULE,
     {{0x1C8, 4, 18}},
     1, 1, ERROR, "lod.levels[0].meshes[0].pieces[0].highest_index", 0x1C8,
     "highest vertex number 18 is not the largest strip index"},
    {"tmd_skinned_node_ids", "tmd/box.tmd", RULE,
     {{0x1E4, 4, 1}},
     1, 1, ERROR, "lod.levels[0].meshes[0].pieces[0].skin_nodes[0]", 0x1E4,
     "node 1 but the scene has 1 nodes"},
    /* vertex 2, second bone byte: bone 1 of a 1-node skin */
    {"tmd_bone_ids_inside_the_skin", "tmd/box.tmd", RULE,
     {{0x1E8 + 40 * 2 + 28 + 1, 1, 3}},
     1, 1, ERROR, "lod.levels[0].meshes[0].pieces[0].vertices[2].bone_ids", 0x1E8 + 40 * 2 + 28,
     "vertex 2 names a bone (byte / 3) outside the piece's 1 skinned nodes"},
    /* two positions: the LUT's 84 bytes hold 72 */
    {"tkl_lut_size", "tkl/box.tkl", RULE,
     {{0x1C, 4, 2}},
     1, 0, ERROR, "lut_size", 0x34,
     "LUT size 84 but 2 positions and 3 rotations take 72 bytes"},
    {"tkl_always_empty", "tkl/box.tkl", RULE,
     {{5, 1, 1}},
     1, 0, ERROR, "empty", 0x04,
     "bytes 4..7 are not empty"},
    {"tml_material_name_index", "tml/basic_rgba.tml", RULE,
     {{0x104C, 4, 1}},
     1, 0, ERROR, "materials[0].name_index", 0x104C,
     "name index 1 but the name LUT has 1 names"},
    {"tml_material_texture_ids_exist", "tml/basic_rgba.tml", RULE,
     {{0x1054, 4, 5}},
     1, 0, ERROR, "materials[0].texture_ids[0].id", 0x1054,
     "texture ID 5 is not among the library's 1 textures"},
    /* 16 x 32 RGBA8888 pixels need 2048 bytes, not 4096 */
    {"tml_texture_data_size", "tml/basic_rgba.tml", RULE,
     {{0x1E, 2, 16}},
     1, 0, ERROR, "textures[0].data_size", 0x10,
     "data size 4096 does not hold 16 x 32 pixels of format 0"},
};
#undef ERROR
#undef WARNING

ParameterizedTestParameters(toshi_rules, one_finding_per_broken_rule)
{
    return cr_make_param_array(rule_case, rule_cases, sizeof rule_cases / sizeof rule_cases[0]);
}

ParameterizedTest(rule_case *rc, toshi_rules, one_finding_per_broken_rule)
{
    REQUIRE_SAMPLES();
    MUTATED(rc->sample);
    cr_assert(mutate(m, size, rc->edits, sizeof rc->edits / sizeof rc->edits[0], 1), "%s: a change outside the file",
              rc->name);
    want_origin = rc->rule;
    doc d;
    check_mutated(&d, rc->sample, m, size);
    expect_only(rc->name, &d, rc->errors, rc->warnings, rc->severity, rc->path, rc->offset, rc->message);
}

Test(toshi_rules, tmd_magic_value_of_the_game_gives_no_warning)
{
    REQUIRE_SAMPLES();
    MUTATED("tmd/box.tmd");
    put_u32le(m, 0x14, 0x00325849), put_u32le(m, 0x18, 0x7A8); /* 8418139199561 = 0x7A8_00325849 */
    doc d;
    check_mutated(&d, "tmd/box.tmd", m, size);
    cr_expect_eq(d.findings.count, 0);
    close_doc(&d);
}

Test(toshi_rules, tmd_piece_without_vertices)
{
    buf b;
    tmd_fixture(&b, 1, 1);
    doc d;
    open_bytes(&d, TMD, b.d, b.n, 0);
    cr_expect(written_back(&d));
    expect_only(__func__, &d, 0, 1, BF_SEVERITY_WARNING, "lod.levels[0].meshes[0].pieces[1].vertex_count", 0x322 + 4,
                "piece 1 draws 3 indices but stores no vertices");
}

Test(toshi_rules, tmd_magic_is_checked_by_the_reader)
{
    REQUIRE_SAMPLES();
    MUTATED("tmd/box.tmd");
    m[3] = 'X';
    doc d;
    check_mutated(&d, "tmd/box.tmd", m, size);
    cr_expect_not(d.read_ok);
    cr_expect_str_eq(d.err.path, "magic");
    close_doc(&d);
}

/* TKL: box.tkl (3 positions, 3 rotations), valid as it is. */

Test(toshi_rules, tkl_remaining_bytes_are_the_rest_of_the_file)
{
    REQUIRE_SAMPLES();
    size_t size;
    uint8_t *s = load_sample("tkl/box.tkl", &size);
    uint8_t *m = calloc(1, size + 1); /* one byte more than the header says */
    memcpy(m, s, size);
    free(s);
    doc d;
    check_mutated(&d, "tkl/box.tkl", m, size + 1);
    expect_only(__func__, &d, 1, 0, BF_SEVERITY_ERROR, "remaining", 0x08,
                "remaining bytes 128 but 129 bytes follow the field");
}

Test(toshi_rules, tkl_remaining_bytes_are_the_lut_and_44)
{
    REQUIRE_SAMPLES();
    size_t size;
    uint8_t *s = load_sample("tkl/box.tkl", &size);
    uint8_t *m = calloc(1, size + 12); /* 12 bytes more, counted as remaining but not in the LUT */
    memcpy(m, s, size);
    free(s);
    put_u32le(m, 0x08, 128 + 12);
    doc d;
    check_mutated(&d, "tkl/box.tkl", m, size + 12);
    expect_only(__func__, &d, 1, 0, BF_SEVERITY_ERROR, "remaining", 0x08,
                "remaining bytes 140 but the LUT's 84 bytes + 44 are 128");
}

Test(toshi_rules, tkl_magic_is_checked_by_the_reader)
{
    REQUIRE_SAMPLES();
    MUTATED("tkl/box.tkl");
    m[0] = 'X';
    doc d;
    check_mutated(&d, "tkl/box.tkl", m, size);
    cr_expect_not(d.read_ok);
    cr_expect_str_eq(d.err.path, "magic");
    close_doc(&d);
}

/* TML: basic_rgba.tml (valid), formats_mixed.tml (two warnings). */

Test(toshi_rules, tml_texture_ids_unique)
{
    REQUIRE_SAMPLES();
    MUTATED("tml/formats_mixed.tml");
    put_u32le(m, 0xC60, 1); /* the last texture (id 0) becomes a second id 1; material 5 loses its texture 0 */
    doc d;
    check_mutated(&d, "tml/formats_mixed.tml", m, size);
    cr_assert_not_null(find(&d, "textures[2].id", "texture ID 1 is used by 2 textures"));
    cr_assert_not_null(find(&d, "materials[5].texture_ids[0].id", "texture ID 0 is not among"));
    expect_only(__func__, &d, 3, 2, BF_SEVERITY_ERROR, "textures[3].id", 0xC60,
                "texture ID 1 is used by 2 textures");
}

Test(toshi_rules, tml_16_bit_texture_with_2_bytes_per_pixel_is_the_document)
{
    REQUIRE_SAMPLES();
    MUTATED("tml/basic_rgba.tml");
    put_u16le(m, 0x1C, 7); /* ARGB4444: 32 x 32 x 4 bytes draws the exporter's warning */
    doc d;
    check_mutated(&d, "tml/basic_rgba.tml", m, size);
    expect_only(__func__, &d, 0, 1, BF_SEVERITY_WARNING, "textures[0].data_size", 0x10,
                "a 16-bit format (7) stored with 4 bytes per pixel (4096 bytes for 32 x 32)");
    uint8_t *m2 = load_sample("tml/basic_rgba.tml", &size);
    put_u16le(m2, 0x1C, 7);
    put_u16le(m2, 0x20, 64); /* 32 x 64 x 2: the document's size, no finding */
    check_mutated(&d, "tml/basic_rgba.tml", m2, size);
    cr_expect(d.read_ok);
    cr_expect_eq(d.findings.count, 0);
    close_doc(&d);
}

Test(toshi_rules, tml_texture_format_enum)
{
    REQUIRE_SAMPLES();
    MUTATED("tml/basic_rgba.tml");
    put_u16le(m, 0x1C, 3);
    want_origin = 0; /* an enum check, not a rule */
    doc d;
    check_mutated(&d, "tml/basic_rgba.tml", m, size);
    cr_assert_not_null(find(&d, "textures[0].data_size", "data size 4096 does not hold 32 x 32 pixels of format 3"));
    expect_only(__func__, &d, 2, 0, BF_SEVERITY_ERROR, "textures[0].format", 0x1C,
                "3 (0x3) is not a value of TextureFormat");
}

Test(toshi_rules, tml_magic_is_checked_by_the_reader)
{
    REQUIRE_SAMPLES();
    MUTATED("tml/basic_rgba.tml");
    m[3] = '2';
    doc d;
    check_mutated(&d, "tml/basic_rgba.tml", m, size);
    cr_expect_not(d.read_ok);
    cr_expect_str_eq(d.err.path, "magic");
    close_doc(&d);
}
