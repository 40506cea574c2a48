/* J3D (BMD/BDL): the generated reader, validator and writer of schemas/j3d.yaml on the real
 * samples (../shared/samples/bmd), on hand-made fixtures laid out from the document's tables, one
 * test per validation rule (a mutated sample or fixture and the finding it gives), and a scene
 * hierarchy opened a million times. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bf_validate.h"
#include "bf_write.h"
#include "j3d.h"
#include "mutate.h"
#include "samples.h"

/* ---------------------------------------------------------------- helpers */

static uint8_t *sample(const char *name, size_t *size)
{
    char rel[256];
    snprintf(rel, sizeof rel, "bmd/%s", name);
    uint8_t *data;
    cr_assert(load_file(sample_path(rel), &data, size), "cannot read %s", sample_path(rel));
    return data;
}

/* File offset of the first section with this tag, by walking the section sizes. */
static size_t sec(const uint8_t *d, size_t size, const char *tag)
{
    for (size_t o = 0x20; o + 8 <= size; o += get_u32be(d, o + 4)) {
        if (memcmp(d + o, tag, 4) == 0)
            return o;
        if (get_u32be(d, o + 4) < 8)
            break;
    }
    cr_assert_fail("no %s section", tag);
    return 0;
}

/* Inserts n bytes (0x00) at `at`, growing the buffer. */
static uint8_t *insert(uint8_t *d, size_t *size, size_t at, size_t n)
{
    d = realloc(d, *size + n);
    cr_assert_not_null(d);
    memmove(d + at + n, d + at, *size - at);
    memset(d + at, 0, n);
    *size += n;
    return d;
}

typedef struct doc {
    uint8_t *data;
    size_t size;
    bf_arena arena;
    j3d_File *file;
    int read_ok;
    bf_error err;
    bf_findings findings;
} doc;

static void open_bytes(doc *d, uint8_t *data, size_t size)
{
    memset(d, 0, sizeof *d);
    d->data = data;
    d->size = size;
    bf_arena_init(&d->arena, bf_alloc_default(), 0);
    d->read_ok = j3d_read_model(data, size, &d->arena, NULL, &d->file, &d->err);
    if (d->read_ok)
        j3d_validate_model(d->file, data, size, &d->findings);
}

static void open_sample(doc *d, const char *name)
{
    size_t size;
    uint8_t *data = sample(name, &size);
    open_bytes(d, data, size);
    cr_assert(d->read_ok, "%s: %s @0x%llx: %s", name, d->err.path, (unsigned long long)d->err.offset, d->err.message);
}

static void close_doc(doc *d)
{
    bf_findings_free(&d->findings);
    bf_arena_free(&d->arena);
    free(d->data);
}

static void dump(const doc *d, const char *name)
{
    for (size_t i = 0; i < d->findings.count; i++) {
        char line[900];
        bf_finding_format(&d->findings.items[i], name, line, sizeof line);
        cr_log_info("%s", line);
    }
}

/* Writes the document back; 1 when it is the input byte for byte. */
static int writes_back(const doc *d, const uint8_t *expected, size_t size)
{
    bf_buffer out = {0};
    bf_error err;
    int ok = j3d_write_model(d->file, &out, &err);
    cr_assert(ok, "write: %s: %s", err.path, err.message);
    int same = out.size == size && memcmp(out.data, expected, size) == 0;
    if (!same) {
        size_t i = 0;
        while (i < size && i < out.size && out.data[i] == expected[i])
            i++;
        cr_log_error("first difference at 0x%zx (%zu bytes expected, %zu written)", i, size, out.size);
    }
    bf_buffer_free(&out);
    return same;
}

static const j3d_Section *section(const j3d_File *f, uint32_t tag)
{
    for (uint32_t i = 0; i < f->sections_count; i++)
        if (f->sections[i].tag == tag)
            return &f->sections[i];
    return NULL;
}

#define BODY(f, tag, Case) (section((f), J3D_SECTION_TAG_##tag)->body.Case)

static int name_is(const j3d_NameEntry *e, const char *s)
{
    return e->name.len == strlen(s) && memcmp(e->name.ptr, s, e->name.len) == 0;
}

/* ---------------------------------------------------------------- real samples */

static const char *SAMPLES[] = {"box.bmd", "stone_ia8.bmd", "stone_ia8.bdl", "chicken_skinned.bmd"};

Test(j3d_samples, every_sample_reads_validates_and_round_trips)
{
    REQUIRE_SAMPLES();
    for (size_t i = 0; i < sizeof SAMPLES / sizeof SAMPLES[0]; i++) {
        doc d;
        open_sample(&d, SAMPLES[i]);
        dump(&d, SAMPLES[i]);
        cr_expect_eq(d.findings.errors, 0, "%s: %zu errors", SAMPLES[i], d.findings.errors);
        cr_expect(writes_back(&d, d.data, d.size), "%s does not round-trip", SAMPLES[i]);
        /* the POSITION buffer holds INF1's vertex count (floats, XYZ, no padding entries here) */
        const j3d_VertexBuffer *pos = &BODY(d.file, VTX1, Vtx1)->position;
        cr_expect(pos->has_f32_values);
        cr_expect_eq(pos->f32_values_count / 3, BODY(d.file, INF1, Inf1)->vertex_count, "%s", SAMPLES[i]);
        cr_expect_eq(d.file->file_size, d.size);
        close_doc(&d);
    }
}

Test(j3d_samples, box)
{
    REQUIRE_SAMPLES();
    doc d;
    open_sample(&d, "box.bmd");
    const j3d_File *f = d.file;
    cr_expect_eq(f->kind, J3D_FILE_KIND_BMD3);
    cr_expect_eq(f->section_count, 8);
    cr_expect_eq(f->sections_count, 8);
    const j3d_Inf1 *inf = BODY(f, INF1, Inf1);
    cr_expect_eq(inf->flags, J3D_LOADER_FLAGS_SOFTIMAGE);
    cr_expect_eq(inf->vertex_count, 8);
    cr_expect_eq(inf->nodes_count, 8);
    static const uint16_t types[] = {0x10, 0x01, 0x11, 0x01, 0x12, 0x02, 0x02, 0x00};
    for (int i = 0; i < 8; i++)
        cr_expect_eq(inf->nodes[i].type, types[i], "node %d", i);
    const j3d_Jnt1 *jnt = BODY(f, JNT1, Jnt1);
    cr_expect_eq(jnt->joint_count, 1);
    cr_expect(jnt->has_names);
    cr_expect(name_is(&jnt->names.entries[0], "root"));
    cr_expect_eq(BODY(f, SHP1, Shp1)->shape_count, 1);
    cr_expect_eq(BODY(f, MAT3, Mat3)->material_count, 1);
    cr_expect_eq(BODY(f, TEX1, Tex1)->texture_count, 0);
    cr_expect_eq(BODY(f, EVP1, Evp1)->envelope_count, 0);
    cr_expect_eq(BODY(f, DRW1, Drw1)->entry_count, 1);
    /* VTX1: float XYZ positions of a unit box, s16 normals with a mantissa shift of 14 */
    const j3d_Vtx1 *vtx = BODY(f, VTX1, Vtx1);
    cr_expect_eq(vtx->formats_count, 5);
    cr_expect_eq(vtx->formats[4].attr, J3D_VERTEX_ATTRIBUTE_LIST_END);
    cr_expect_eq(vtx->position.f32_values_count, 24);
    for (uint32_t i = 0; i < 24; i++)
        cr_expect(fabsf(vtx->position.f32_values[i]) == 1.0f);
    cr_expect(vtx->normal.has_s16_values);
    cr_expect_eq(vtx->formats[1].shift, 14);
    cr_expect_eq(vtx->normal.s16_values[1], 0x4000);
    cr_expect(vtx->normal.s16_values_value[1] == 1.0);
    cr_expect(vtx->color0.has_colors32);
    cr_expect_eq(vtx->color0.colors32[0], 0xcde4feff);
    cr_expect(!vtx->has_tangent && !vtx->has_color1);
    /* SHP1: one triangle strip group, four UInt16 indices per vertex */
    const j3d_Shape *sh = &BODY(f, SHP1, Shp1)->shapes[0];
    cr_expect_eq(sh->attributes_count, 5);
    cr_expect_eq(sh->groups_count, 1);
    const j3d_Primitive *p = &sh->groups[0].primitives[0];
    cr_expect_eq(p->type, J3D_PRIMITIVE_TYPE_TRIANGLE_STRIP);
    cr_expect_eq(p->vertex_count, 4);
    cr_expect_eq(p->vertices[0].indices_count, 4);
    cr_expect(p->vertices[0].indices[0].has_index16);
    close_doc(&d);
}

Test(j3d_samples, stone_has_five_shapes_and_an_ia8_texture)
{
    REQUIRE_SAMPLES();
    doc d;
    open_sample(&d, "stone_ia8.bmd");
    const j3d_File *f = d.file;
    cr_expect_eq(BODY(f, SHP1, Shp1)->shape_count, 5);
    cr_expect_eq(BODY(f, MAT3, Mat3)->material_count, 5);
    const j3d_Tex1 *tex = BODY(f, TEX1, Tex1);
    cr_expect_eq(tex->texture_count, 3); /* three headers sharing one image */
    const j3d_BtiHeader *h = &tex->headers[0];
    cr_expect_eq(h->format, J3D_TEXTURE_FORMAT_IA8);
    cr_expect_eq(h->width, 96);
    cr_expect_eq(h->height, 32);
    cr_expect_eq(h->wrap_s, J3D_WRAP_MODE_REPEAT);
    cr_expect_eq(h->mipmap_count, 1);
    cr_expect_eq(h->images[0].data.len, 96 * 32 * 2);
    cr_expect_eq(h->images[0].data.offset, tex->headers[2].images[0].data.offset);
    cr_expect(name_is(&tex->names.entries[0], "stone01.i8"));
    cr_expect_eq(BODY(f, INF1, Inf1)->vertex_count, 661);
    close_doc(&d);
}

Test(j3d_samples, stone_bdl_has_mdl3)
{
    REQUIRE_SAMPLES();
    doc d;
    open_sample(&d, "stone_ia8.bdl");
    const j3d_File *f = d.file;
    cr_expect_eq(f->kind, J3D_FILE_KIND_BDL4);
    cr_expect_eq(f->section_count, 9);
    cr_expect_eq(f->sections[7].tag, J3D_SECTION_TAG_MDL3);
    cr_expect_eq(f->sections[7].body.kind, J3D_KIND_MDL3);
    cr_expect_eq(f->sections[7].body.Mdl3->material_count, 5);
    cr_expect_eq(f->sections[7].body.Mdl3->packets_count, 5);
    close_doc(&d);
}

Test(j3d_samples, chicken_is_skinned)
{
    REQUIRE_SAMPLES();
    doc d;
    open_sample(&d, "chicken_skinned.bmd");
    const j3d_File *f = d.file;
    const j3d_Jnt1 *jnt = BODY(f, JNT1, Jnt1);
    cr_expect_eq(jnt->joint_count, 11);
    cr_expect(name_is(&jnt->names.entries[0], "skeleton_root_Main"));
    cr_expect(name_is(&jnt->names.entries[10], "skeleton_root_WingL"));
    cr_expect_eq(jnt->joints[0].rotation_x, 23235);
    cr_expect(fabs(jnt->joints[0].rotation_x_value - 23235 * 180.0 / 32768) < 1e-9);
    cr_expect(fabsf(jnt->joints[0].translation_z - 0.5233934f) < 1e-6f);
    const j3d_Evp1 *evp = BODY(f, EVP1, Evp1);
    cr_expect_eq(evp->envelope_count, 111);
    cr_expect_eq(evp->inverse_bind_matrices_count, 11);
    cr_expect_eq(evp->sizes[0], 4);
    cr_expect_eq(evp->joint_indices[0].indices_count, 4);
    float sum = 0;
    for (uint32_t i = 0; i < evp->weights[0].weights_count; i++)
        sum += evp->weights[0].weights[i];
    cr_expect(fabsf(sum - 1.0f) < 1e-3f);
    const j3d_Drw1 *drw = BODY(f, DRW1, Drw1);
    cr_expect_eq(drw->entry_count, 121);
    cr_expect_eq(drw->types[0], J3D_DRAW_TYPE_JOINT);
    cr_expect_eq(drw->types[120], J3D_DRAW_TYPE_ENVELOPE);
    const j3d_Shp1 *shp = BODY(f, SHP1, Shp1);
    cr_expect_eq(shp->shape_count, 2);
    cr_expect_eq(shp->group_data_count, BODY(f, INF1, Inf1)->matrix_group_count);
    cr_expect_eq(shp->shapes[0].attributes[0].attr, J3D_SHAPE_ATTRIBUTE_POSITION_MATRIX);
    cr_expect_eq(shp->shapes[0].attributes[0].index_type, J3D_INDEX_TYPE_DIRECT);
    cr_expect_eq(BODY(f, INF1, Inf1)->vertex_count, 304);
    close_doc(&d);
}

/* SuperBMD marks every shape Multiple Joints; a static shape's matrix groups each select one
 * matrix, so its vertices need no POSITION_MATRIX to choose one (the files load in both tools):
 * no finding. It once warned for every shape of every such file. */
Test(j3d_samples, superbmd_static_shapes_marked_multi_joint_are_clean)
{
    REQUIRE_SAMPLES();
    static const char *const files[] = {"box.bmd", "stone_ia8.bmd", "stone_ia8.bdl", "chicken_skinned.bmd"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        doc d;
        open_sample(&d, files[i]);
        cr_expect_eq(d.findings.errors, 0, "%s", files[i]);
        cr_expect_eq(d.findings.warnings, 0, "%s: %s", files[i], d.findings.count ? d.findings.items[0].message : "");
        const j3d_Shp1 *shp = BODY(d.file, SHP1, Shp1);
        cr_expect_eq(shp->shapes[0].matrix_type, J3D_SHAPE_MATRIX_TYPE_MULTIPLE_JOINTS, "%s", files[i]);
        close_doc(&d);
    }
}

/* ---------------------------------------------------------------- vertex buffers, MAT3, MDL3 */

/* The entries of a buffer: values of its data type divided by the values per entry. */
static uint32_t entries(const j3d_VertexBuffer *b, unsigned per_entry)
{
    uint32_t n = b->u8_values_count + b->s8_values_count + b->u16_values_count + b->s16_values_count +
                 b->f32_values_count;
    return per_entry ? n / per_entry : b->colors16_count + b->colors24_count + b->colors32_count;
}

/* Bytes one entry takes: the values per entry times the data type's size (colors: per_entry 0). */
static unsigned entry_bytes(const j3d_VertexBuffer *b, unsigned per_entry)
{
    if (!per_entry)
        return b->has_colors16 ? 2 : b->has_colors24 ? 3 : 4;
    return per_entry * (b->has_u8_values || b->has_s8_values ? 1 : b->has_u16_values || b->has_s16_values ? 2 : 4);
}

/* The highest index each attribute's primitives use (an independent bound on the buffers). */
static void max_indices(const j3d_Shp1 *shp, long max[32])
{
    for (int a = 0; a < 32; a++)
        max[a] = -1;
    for (uint32_t s = 0; s < shp->shapes_count; s++) {
        const j3d_Shape *sh = &shp->shapes[s];
        for (uint32_t g = 0; g < sh->groups_count; g++)
            for (uint32_t p = 0; p < sh->groups[g].primitives_count; p++) {
                const j3d_Primitive *pr = &sh->groups[g].primitives[p];
                for (uint32_t v = 0; v < pr->vertices_count; v++)
                    for (uint32_t i = 0; i < pr->vertices[v].indices_count; i++) {
                        const j3d_VertexIndex *x = &pr->vertices[v].indices[i];
                        long value = x->has_index16 ? x->index16 : x->index8;
                        uint32_t attr = sh->attributes[i].attr;
                        if (attr < 32 && value > max[attr])
                            max[attr] = value;
                    }
            }
    }
}

static const char SUPERBMD_PAD[] = "Model made with SuperBMD by Gamma.";

typedef struct buffer_expect {
    const char *sample;
    uint32_t positions, normals, colors, texcoords; /* entries (0: no such buffer) */
} buffer_expect;

/* Every buffer of every sample holds exactly its entries: the POSITION buffer INF1's vertex count,
 * each buffer at least the highest index its primitives use plus one, and what follows the entries
 * is SuperBMD's padding text, shorter than 32 bytes. Before, the padding was decoded as entries
 * (box: 10 normals for 6; chicken: 416 normals for 415, 120 colors for 119; stone: 981 normals,
 * 232 colors and 296 texture coordinates for 980, 227 and 290). */
Test(j3d_samples, vertex_buffers_hold_their_entries_not_their_padding)
{
    REQUIRE_SAMPLES();
    static const buffer_expect expect[] = {
        {"box.bmd", 8, 6, 24, 24},
        {"stone_ia8.bmd", 661, 980, 227, 290},
        {"stone_ia8.bdl", 661, 980, 227, 290},
        {"chicken_skinned.bmd", 304, 415, 119, 0},
    };
    for (size_t k = 0; k < sizeof expect / sizeof expect[0]; k++) {
        doc d;
        open_sample(&d, expect[k].sample);
        const j3d_Vtx1 *vtx = BODY(d.file, VTX1, Vtx1);
        long max[32];
        max_indices(BODY(d.file, SHP1, Shp1), max);
        struct {
            const char *name;
            const j3d_VertexBuffer *b;
            unsigned attr, per_entry;
            uint32_t want;
        } bufs[] = {
            {"position", &vtx->position, 9, 3, expect[k].positions},
            {"normal", &vtx->normal, 10, 3, expect[k].normals},
            {"color0", &vtx->color0, 11, 0, expect[k].colors},
            {"texcoord0", &vtx->texcoord0, 13, 2, expect[k].texcoords},
        };
        for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
            const char *what = expect[k].sample;
            int present = i == 0 ? vtx->has_position : i == 1 ? vtx->has_normal : i == 2 ? vtx->has_color0 : vtx->has_texcoord0;
            cr_expect_eq(present, bufs[i].want != 0, "%s %s", what, bufs[i].name);
            if (!present)
                continue;
            uint32_t n = entries(bufs[i].b, bufs[i].per_entry);
            cr_expect_eq(n, bufs[i].want, "%s: %u %s entries, expected %u", what, n, bufs[i].name, bufs[i].want);
            cr_expect_geq((long)n, max[bufs[i].attr] + 1, "%s: the primitives use %s %ld", what, bufs[i].name,
                          max[bufs[i].attr]);
            /* what is left of the buffer is padding: fewer than 32 bytes of SuperBMD's text */
            size_t used = (size_t)n * entry_bytes(bufs[i].b, bufs[i].per_entry);
            size_t left = bufs[i].b->raw.len - used;
            cr_expect_lt(left, 32, "%s %s: %zu bytes after the entries", what, bufs[i].name, left);
            cr_expect_eq(memcmp(bufs[i].b->raw.ptr + used, SUPERBMD_PAD, left), 0, "%s %s: the rest is not padding", what,
                         bufs[i].name);
        }
        cr_expect_eq(entries(&vtx->position, 3), BODY(d.file, INF1, Inf1)->vertex_count);
        close_doc(&d);
    }
}

/* A POSITION buffer whose last 12 bytes are padding: read as padding (7 entries, INF1's count), with
 * no warning, whichever tool's padding text it is; and an unknown fill is kept as entries. */
Test(j3d_samples, position_padding_is_not_an_entry)
{
    REQUIRE_SAMPLES();
    static const char *const fills[] = {"This is padding data to alignme", "Model made with SuperBMD by Gamma."};
    for (int k = 0; k < 3; k++) {
        size_t size;
        uint8_t *d = sample("box.bmd", &size);
        size_t vtx = sec(d, size, "VTX1");
        size_t pos = vtx + get_u32be(d, vtx + 0x0C), end = vtx + get_u32be(d, vtx + 0x10);
        cr_assert_eq(end - pos, 96);
        put_u32be(d, 0x30, 7); /* INF1 vertex count */
        if (k < 2)
            memcpy(d + pos + 84, fills[k], 12);
        else
            memset(d + pos + 84, 0xEE, 12);
        doc c;
        open_bytes(&c, d, size);
        cr_assert(c.read_ok);
        dump(&c, "box.bmd");
        uint32_t n = entries(&BODY(c.file, VTX1, Vtx1)->position, 3);
        cr_expect_eq(n, k < 2 ? 7u : 8u, "fill %d: %u positions", k, n);
        cr_expect_eq(c.findings.errors, 0);
        cr_expect_eq(c.findings.warnings, k < 2 ? 0u : 1u, "fill %d: the padding warning only for an unknown fill", k);
        cr_expect(writes_back(&c, d, size));
        close_doc(&c);
    }
}

/* The material names, read from each file's own MAT3 name table by hand (count at +0, entries of
 * hash and offset from +4, zero-terminated strings) and through the generated reader. */
static int hand_names(const uint8_t *d, size_t size, char names[][64], int max)
{
    size_t mat3 = sec(d, size, "MAT3");
    size_t table = mat3 + get_u32be(d, mat3 + 0x14);
    int count = d[table] << 8 | d[table + 1];
    for (int i = 0; i < count && i < max; i++) {
        size_t at = table + (size_t)(d[table + 4 + 4 * i + 2] << 8 | d[table + 4 + 4 * i + 3]);
        snprintf(names[i], 64, "%s", (const char *)d + at);
    }
    return count;
}

Test(j3d_samples, material_names_from_mat3)
{
    REQUIRE_SAMPLES();
    static const struct {
        const char *sample;
        int count;
        const char *names[5];
        uint32_t entries;
    } expect[] = {
        {"box.bmd", 1, {"StoneFloor_F3d"}, 1},
        {"stone_ia8.bmd", 5, {"StoneFloor_F3d.001", "Gold_F3D.001", "StoneFloor_F3d.001", "Gold_F3D", "StoneFloor_F3d"}, 2},
        {"stone_ia8.bdl", 5, {"StoneFloor_F3d.001", "Gold_F3D.001", "StoneFloor_F3d.001", "Gold_F3D", "StoneFloor_F3d"}, 2},
        {"chicken_skinned.bmd", 2, {"f3dlite_body", "f3dlite_material.001"}, 1},
    };
    for (size_t k = 0; k < sizeof expect / sizeof expect[0]; k++) {
        doc d;
        open_sample(&d, expect[k].sample);
        const j3d_Mat3 *mat = BODY(d.file, MAT3, Mat3);
        char hand[8][64];
        int count = hand_names(d.data, d.size, hand, 8);
        cr_expect_eq(count, expect[k].count, "%s", expect[k].sample);
        cr_assert_eq(mat->material_count, expect[k].count);
        cr_assert(mat->has_names);
        cr_assert_eq(mat->names.count, expect[k].count);
        cr_expect_eq(mat->materials_count, expect[k].entries, "%s: material entries", expect[k].sample);
        for (int i = 0; i < count && i < 8; i++) {
            cr_expect(name_is(&mat->names.entries[i], hand[i]), "%s: material %d is '%.*s', its name table says '%s'",
                      expect[k].sample, i, (int)mat->names.entries[i].name.len, mat->names.entries[i].name.ptr, hand[i]);
            cr_expect(name_is(&mat->names.entries[i], expect[k].names[i]), "%s: material %d", expect[k].sample, i);
            cr_expect_lt(mat->remap[i], mat->materials_count);
        }
        /* the tables the entries index are read to their padding: one cull mode, one of each count */
        cr_expect_eq(mat->cull_modes_count, 1);
        cr_expect_eq(mat->color_channel_counts_count, 1);
        cr_expect_eq(mat->tex_gen_counts_count, expect[k].entries == 2 && expect[k].count == 5 ? 2 : 1);
        cr_expect_eq(mat->tev_stage_counts_count, 1);
        cr_expect_eq(mat->nbt_scales_count, 1);
        cr_expect_eq(mat->indirect_count, mat->material_count, "an indirect block per material");
        cr_expect_eq(mat->materials[0].cull_mode_index, 0);
        cr_expect_eq(mat->materials[0].fog_index, 0);
        close_doc(&d);
    }
}

Test(j3d_samples, stone_materials_use_the_texture)
{
    REQUIRE_SAMPLES();
    doc d;
    open_sample(&d, "stone_ia8.bmd");
    const j3d_Mat3 *mat = BODY(d.file, MAT3, Mat3);
    const j3d_Tex1 *tex = BODY(d.file, TEX1, Tex1);
    /* a textured entry's first texture index goes through the texture table to a TEX1 header */
    int textured = 0;
    for (uint32_t i = 0; i < mat->materials_count; i++) {
        uint16_t t = mat->materials[i].texture_indices[0];
        if (t == 0xFFFF)
            continue;
        textured++;
        cr_assert_lt(t, mat->textures_count);
        cr_expect_lt(mat->textures[t], tex->texture_count);
    }
    cr_expect_gt(textured, 0);
    close_doc(&d);
}

/* MDL3: one display list per material, of BP and XF register loads, ended by the NOPs of its padding. */
Test(j3d_samples, mdl3_display_lists)
{
    REQUIRE_SAMPLES();
    doc d;
    open_sample(&d, "stone_ia8.bdl");
    const j3d_Mdl3 *mdl = BODY(d.file, MDL3, Mdl3);
    cr_assert_eq(mdl->packets_count, 5);
    size_t mdl3 = sec(d.data, d.size, "MDL3");
    for (uint32_t i = 0; i < mdl->packets_count; i++) {
        const j3d_Mdl3Packet *p = &mdl->packets[i];
        cr_expect_eq(p->size % 32, 0);
        /* the list starts at the entry's own offset plus its offset field */
        size_t entry = mdl3 + mdl->packet_table_offset + 8 * i;
        cr_expect_eq(p->commands_at, entry + p->offset);
        cr_assert_gt(p->commands_count, 10);
        int bp = 0, xf = 0;
        for (uint32_t k = 0; k + 1 < p->commands_count; k++) {
            const j3d_GxCommand *c = &p->commands[k];
            cr_expect(c->body.kind != 0, "packet %u command %u: opcode 0x%02x is not a known GX command", i, k, c->opcode);
            bp += c->opcode == J3D_GX_OPCODE_LOAD_BP;
            xf += c->opcode == J3D_GX_OPCODE_LOAD_XF;
        }
        cr_expect_eq(p->commands[p->commands_count - 1].opcode, J3D_GX_OPCODE_NOP);
        cr_expect_gt(bp, 0);
        cr_expect_gt(xf, 0);
        /* the commands and the NOPs after them fill the list exactly */
        const j3d_GxCommand *last = &p->commands[p->commands_count - 1];
        cr_expect_eq(last->_offset + 1 + p->commands_tail.len, p->commands_at + p->size);
    }
    cr_expect(mdl->has_indices);
    for (uint32_t i = 0; i < 5; i++)
        cr_expect_eq(mdl->indices[i], i);
    cr_expect(mdl->has_names);
    cr_expect_eq(mdl->names.count, 0, "SuperBMD writes an empty name table");
    close_doc(&d);
}

/* ---------------------------------------------------------------- the builder */

/* The name table a section holds, or NULL. */
static const j3d_NameTable *names_of(const j3d_Section *s)
{
    switch (s->body.kind) {
    case J3D_KIND_JNT1:
        return s->body.Jnt1->has_names ? &s->body.Jnt1->names : NULL;
    case J3D_KIND_SHP1:
        return s->body.Shp1->has_names ? &s->body.Shp1->names : NULL;
    case J3D_KIND_MAT3:
        return s->body.Mat3->has_names ? &s->body.Mat3->names : NULL;
    case J3D_KIND_MDL3:
        return s->body.Mdl3->has_names ? &s->body.Mdl3->names : NULL;
    case J3D_KIND_TEX1:
        return s->body.Tex1->has_names ? &s->body.Tex1->names : NULL;
    default:
        return NULL;
    }
}

static unsigned u16_at(const uint8_t *data, size_t at)
{
    return (unsigned)data[at] << 8 | data[at + 1];
}

static int same_str(bf_str a, bf_str b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* A name table as the builder laid it out in `out`: its count, then per name the hash and the
 * string's offset from the table's start, and the zero-terminated string there, after the
 * entries. Returns the names checked. */
static size_t expect_table_in(const char *what, const j3d_NameTable *t, const bf_buffer *out)
{
    size_t at = (size_t)t->_offset, entries_end = at + 4 + 4 * (size_t)t->entries_count;
    cr_assert_leq(entries_end, out->size, "%s: table at 0x%zx", what, at);
    cr_expect_eq(u16_at(out->data, at), t->entries_count, "%s: count", what);
    for (uint32_t i = 0; i < t->entries_count; i++) {
        const j3d_NameEntry *e = &t->entries[i];
        cr_expect_eq(u16_at(out->data, at + 4 + 4 * i), e->hash, "%s: name %u's hash", what, i);
        cr_expect_eq(u16_at(out->data, at + 6 + 4 * i), e->offset, "%s: name %u's offset", what, i);
        size_t str = at + e->offset;
        cr_assert_geq(str, entries_end, "%s: name %u inside the entries", what, i);
        cr_assert_lt(str + e->name.len, out->size, "%s: name %u past the end", what, i);
        cr_expect(memcmp(out->data + str, e->name.ptr, e->name.len) == 0 && out->data[str + e->name.len] == 0,
                  "%s: name %u is not \"%.*s\" at 0x%zx", what, i, (int)e->name.len, e->name.ptr, str);
    }
    return t->entries_count;
}

/* The builder lays out every sample's name tables (a string at table_start + offset) anew:
 * the built bytes hold each name where its entry says, the sections follow one another
 * padded to 32 bytes, and the header has the file's size. (The built files do not read back
 * yet: SHP1's shared tables are the builder's next step, issue 29.) */
Test(j3d_build, name_tables_are_laid_out_from_the_document)
{
    REQUIRE_SAMPLES();
    for (size_t k = 0; k < sizeof SAMPLES / sizeof SAMPLES[0]; k++) {
        doc d;
        open_sample(&d, SAMPLES[k]);
        /* the names as read, before the builder moves anything */
        const j3d_NameTable *before[16];
        uint32_t tables = 0;
        for (uint32_t i = 0; i < d.file->sections_count && tables < 16; i++)
            if (names_of(&d.file->sections[i]))
                before[tables++] = names_of(&d.file->sections[i]);
        bf_str *read[16];
        for (uint32_t n = 0; n < tables; n++) {
            read[n] = malloc((before[n]->entries_count + 1) * sizeof *read[n]);
            cr_assert_not_null(read[n]);
            for (uint32_t i = 0; i < before[n]->entries_count; i++)
                read[n][i] = before[n]->entries[i].name;
        }
        bf_buffer out = {0};
        bf_error err;
        cr_assert(j3d_build_model(d.file, &d.arena, &out, &err), "%s: %s @0x%llx: %s", SAMPLES[k], err.path,
                  (unsigned long long)err.offset, err.message);
        size_t names = 0;
        uint32_t n = 0;
        for (uint32_t i = 0; i < d.file->sections_count; i++) {
            const j3d_NameTable *t = names_of(&d.file->sections[i]);
            if (!t)
                continue;
            char what[96];
            snprintf(what, sizeof what, "%s: sections[%u]", SAMPLES[k], i);
            names += expect_table_in(what, t, &out);
            cr_assert_lt(n, tables);
            cr_assert_eq(t->entries_count, before[n]->entries_count, "%s", what);
            for (uint32_t e = 0; e < t->entries_count; e++)
                cr_expect(same_str(t->entries[e].name, read[n][e]), "%s: name %u changed", what, e);
            n++;
        }
        cr_expect_gt(names, 0, "%s has no names to lay out", SAMPLES[k]);
        /* the sections one after another from 0x20, each padded to 32 bytes */
        size_t at = 0x20;
        for (uint32_t i = 0; i < d.file->sections_count; i++) {
            cr_assert_leq(at + 8, out.size, "%s: sections[%u]", SAMPLES[k], i);
            uint32_t size = get_u32be(out.data, at + 4);
            cr_expect_eq(get_u32be(out.data, at), d.file->sections[i].tag, "%s: sections[%u]'s tag", SAMPLES[k], i);
            cr_expect_eq(size % 32, 0, "%s: sections[%u] is %u bytes", SAMPLES[k], i, size);
            cr_assert_geq(size, 8, "%s: sections[%u]", SAMPLES[k], i);
            at += size;
        }
        cr_expect_eq(get_u32be(out.data, 8), out.size, "%s: the header's file size", SAMPLES[k]);
        for (uint32_t t = 0; t < tables; t++)
            free(read[t]);
        bf_buffer_free(&out);
        close_doc(&d);
    }
}

/* ---------------------------------------------------------------- hand-made fixtures */

/* A small file laid out by hand from the document's tables: an INF1, an unknown section kept as
 * bytes, a MAT2 (only named by the document), and an SHP1 whose one shape has Direct, UInt8 and
 * UInt16 indices. */
static const uint8_t MINI[0x140] = {
    /* File Header */
    'J', '3', 'D', '2', 'b', 'm', 'd', '3', /* 0x00 String magic: J3D2bmd3 */
    0x00, 0x00, 0x01, 0x40,                 /* 0x08 Int32 total size of the file */
    0x00, 0x00, 0x00, 0x04,                 /* 0x0C Int32 number of chunks */
    /* Subversion Header */
    'S', 'V', 'R', '3',                                                 /* 0x00 String subversion */
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, /* 0x04 Byte[12] padding */
    /* @0x20 INF1 - Scene Information */
    'I', 'N', 'F', '1',     /* 0x00 String INF1 */
    0x00, 0x00, 0x00, 0x20, /* 0x04 Int32 chunk size */
    0x00, 0x04,             /* 0x08 Int16 J3DLoader flags: basic matrix calculation */
    0xFF, 0xFF,             /* 0x0A Int16 padding */
    0x00, 0x00, 0x00, 0x01, /* 0x0C Int32 matrix group data count */
    0x00, 0x00, 0x00, 0x00, /* 0x10 Int32 vertex count */
    0x00, 0x00, 0x00, 0x18, /* 0x14 Int32 relative offset to the scene hierarchy */
    0x00, 0x12, 0x00, 0x00, /* node: 0x12 shape assignment, data 0 */
    0x00, 0x00, 0x00, 0x00, /* node: 0x00 end of the node list */
    /* @0x40 an unknown section */
    'A', 'B', 'C', 'D',     /* tag */
    0x00, 0x00, 0x00, 0x20, /* size */
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, /* body */
    /* @0x60 MAT2 - Material List (Old) */
    'M', 'A', 'T', '2',     /* tag */
    0x00, 0x00, 0x00, 0x20, /* size */
    0x00, 0x01,             /* material count */
    0xFF, 0xFF,             /* padding */
    0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, /* material data */
    0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA,
    /* @0x80 SHP1 - Shape Information */
    'S', 'H', 'P', '1',     /* 0x00 String SHP1 */
    0x00, 0x00, 0x00, 0xC0, /* 0x04 Int32 chunk size */
    0x00, 0x01,             /* 0x08 Int16 number of shapes */
    0xFF, 0xFF,             /* 0x0A Int16 padding */
    0x00, 0x00, 0x00, 0x2C, /* 0x0C Int32 shape init data offset */
    0x00, 0x00, 0x00, 0x54, /* 0x10 Int32 remap table offset */
    0x00, 0x00, 0x00, 0x00, /* 0x14 Int32 name table offset: none */
    0x00, 0x00, 0x00, 0x58, /* 0x18 Int32 vertex index attribute table offset */
    0x00, 0x00, 0x00, 0x78, /* 0x1C Int32 weight index table offset */
    0x00, 0x00, 0x00, 0x80, /* 0x20 Int32 primitive data offset */
    0x00, 0x00, 0x00, 0xA0, /* 0x24 Int32 matrix group data offset */
    0x00, 0x00, 0x00, 0xA8, /* 0x28 Int32 matrix group definition table offset */
    /* +0x2C Shape Data */
    0x00,                   /* 0x00 UInt8 matrix type: single joint */
    0xFF,                   /* 0x01 UInt8 padding */
    0x00, 0x01,             /* 0x02 Int16 matrix group count */
    0x00, 0x00,             /* 0x04 Int16 vertex index attribute offset */
    0x00, 0x00,             /* 0x06 Int16 matrix group data index */
    0x00, 0x00,             /* 0x08 Int16 first matrix group definition index */
    0xFF, 0xFF,             /* 0x0A Int16 padding */
    0x3F, 0x80, 0x00, 0x00, /* 0x0C Float bounding sphere 1.0 */
    0xBF, 0x80, 0x00, 0x00, /* 0x10 Float bbox min X -1.0 */
    0xBF, 0x80, 0x00, 0x00, /* 0x14 Float bbox min Y */
    0xBF, 0x80, 0x00, 0x00, /* 0x18 Float bbox min Z */
    0x3F, 0x80, 0x00, 0x00, /* 0x1C Float bbox max X 1.0 */
    0x3F, 0x80, 0x00, 0x00, /* 0x20 Float bbox max Y */
    0x3F, 0x80, 0x00, 0x00, /* 0x24 Float bbox max Z */
    /* +0x54 remap table */
    0x00, 0x00,             /* shape 0 */
    0xFF, 0xFF,             /* padding */
    /* +0x58 Vertex Index Attribute Table */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, /* POSITION_MATRIX, Direct */
    0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x02, /* POSITION, UInt8 */
    0x00, 0x00, 0x00, 0x0D, 0x00, 0x00, 0x00, 0x03, /* TEXCOORD_0, UInt16 */
    0x00, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00, /* List End, None */
    /* +0x78 Weight Index Table */
    0x00, 0x00,                         /* DRW1 entry 0 */
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, /* padding */
    /* +0x80 Primitive Data */
    0x90,                   /* 0x00 Uint8 primitive type: individual triangles */
    0x00, 0x03,             /* Int16 vertex count */
    0x00, 0x00, 0x00, 0x00, /* vertex 0: matrix 0, position 0, texcoord 0 */
    0x03, 0x01, 0x00, 0x01, /* vertex 1: matrix 3 (Direct, 3 per matrix), position 1, texcoord 1 */
    0x00, 0x02, 0x01, 0x02, /* vertex 2: matrix 0, position 2, texcoord 0x102 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* padding to 32 */
    /* +0xA0 Matrix Group Data Table */
    0x00, 0x00,             /* 0x00 Int16 DRW1 matrix ID */
    0x00, 0x01,             /* 0x02 Int16 matrix count */
    0x00, 0x00, 0x00, 0x00, /* 0x04 Int32 starting weight index */
    /* +0xA8 Matrix Group Definition Table */
    0x00, 0x00, 0x00, 0x20, /* 0x00 Int32 primitive data size */
    0x00, 0x00, 0x00, 0x00, /* 0x04 Int32 first primitive offset */
    /* +0xB0 padding to 32 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static uint8_t *copy(const uint8_t *src, size_t size)
{
    uint8_t *d = malloc(size);
    cr_assert_not_null(d);
    memcpy(d, src, size);
    return d;
}

Test(j3d_fixtures, mini_matches_the_document_tables_byte_by_byte)
{
    doc d;
    open_bytes(&d, copy(MINI, sizeof MINI), sizeof MINI);
    cr_assert(d.read_ok, "%s @0x%llx: %s", d.err.path, (unsigned long long)d.err.offset, d.err.message);
    const j3d_File *f = d.file;
    cr_expect_eq(f->file_size, sizeof MINI);
    cr_expect_eq(f->sections_count, 4);
    cr_expect_eq(f->subversion.subversion.len, 4);
    cr_expect_eq(memcmp(f->subversion.subversion.ptr, "SVR3", 4), 0);
    /* INF1 */
    const j3d_Inf1 *inf = f->sections[0].body.Inf1;
    cr_expect_eq(f->sections[0].body.kind, J3D_KIND_INF1);
    cr_expect_eq(inf->flags, J3D_LOADER_FLAGS_BASIC);
    cr_expect_eq(inf->matrix_group_count, 1);
    cr_expect_eq(inf->nodes_count, 2);
    cr_expect_eq(inf->nodes[0].type, J3D_NODE_TYPE_SHAPE);
    cr_expect_eq(inf->nodes_at, 0x38);
    /* the unknown section is kept as its bytes */
    cr_expect_eq(f->sections[1].tag, 0x41424344u);
    cr_expect_eq(f->sections[1].body.kind, 0);
    cr_expect_eq(f->sections[1].body.raw.len, 24);
    cr_expect_eq(f->sections[1].body.raw.offset, 0x48);
    cr_expect_eq(f->sections[1].body.raw.ptr[23], 24);
    /* MAT2 */
    cr_expect_eq(f->sections[2].body.kind, J3D_KIND_MATERIAL_LIST);
    cr_expect_eq(f->sections[2].body.MaterialList->material_count, 1);
    cr_expect_eq(f->sections[2].body.MaterialList->data.len, 20);
    /* SHP1 */
    const j3d_Shp1 *shp = f->sections[3].body.Shp1;
    cr_expect_eq(shp->shape_count, 1);
    cr_expect(!shp->has_names);
    const j3d_Shape *sh = &shp->shapes[0];
    cr_expect_eq(sh->matrix_type, J3D_SHAPE_MATRIX_TYPE_SINGLE_JOINT);
    cr_expect(sh->bbox_min_x == -1.0f && sh->bbox_max_z == 1.0f);
    cr_expect_eq(sh->attributes_count, 4);
    cr_expect_eq(sh->attributes[1].attr, J3D_SHAPE_ATTRIBUTE_POSITION);
    cr_expect_eq(sh->attributes[1].index_type, J3D_INDEX_TYPE_UINT8);
    const j3d_MatrixGroup *g = &sh->groups[0];
    cr_expect_eq(g->primitive_size, 0x20);
    cr_expect_eq(g->primitives_count, 2); /* the triangles and the padding byte that ends them */
    const j3d_Primitive *p = &g->primitives[0];
    cr_expect_eq(p->type, J3D_PRIMITIVE_TYPE_TRIANGLES);
    cr_expect_eq(p->vertex_count, 3);
    cr_expect_eq(g->primitives[1].type, J3D_PRIMITIVE_TYPE_PADDING);
    cr_expect_eq(g->primitives_tail.len, 16);
    const j3d_Vertex *v = &p->vertices[1];
    cr_expect_eq(v->indices_count, 3);
    cr_expect(v->indices[0].has_index8 && v->indices[0].index8 == 3);
    cr_expect(v->indices[1].has_index8 && v->indices[1].index8 == 1);
    cr_expect(v->indices[2].has_index16 && v->indices[2].index16 == 1);
    cr_expect_eq(p->vertices[2].indices[2].index16, 0x102);
    cr_expect_eq(shp->group_data_count, 1);
    cr_expect_eq(shp->group_data[0].weights_count, 1);
    cr_expect_eq(shp->group_data[0].weights[0], 0);
    /* the writer puts back exactly the bytes laid out above */
    cr_expect(writes_back(&d, MINI, sizeof MINI));
    close_doc(&d);
}

Test(j3d_fixtures, a_truncated_section_is_a_clean_read_error)
{
    uint8_t *data = copy(MINI, sizeof MINI);
    put_u32be(data, 0x84, 0x100); /* SHP1 claims 0x100 bytes, past the end */
    doc d;
    open_bytes(&d, data, sizeof MINI);
    cr_expect(!d.read_ok);
    cr_expect_str_eq(d.err.path, "sections[3].body");
    close_doc(&d);
}

Test(j3d_fixtures, a_scene_hierarchy_opened_a_million_times)
{
    const size_t opens = 1000000;
    size_t inf_size = (0x18 + (opens + 1) * 4 + 31) / 32 * 32;
    size_t size = 0x20 + inf_size;
    uint8_t *data = calloc(1, size);
    cr_assert_not_null(data);
    memcpy(data, MINI, 0x20);
    put_u32be(data, 0x08, (uint32_t)size);
    put_u32be(data, 0x0C, 1);
    memcpy(data + 0x20, "INF1", 4);
    put_u32be(data, 0x24, (uint32_t)inf_size);
    put_u16be(data, 0x2A, 0xFFFF);
    put_u32be(data, 0x34, 0x18);
    for (size_t i = 0; i < opens; i++)
        put_u16be(data, 0x38 + 4 * i, 0x0001); /* open a child level */
    /* the last node stays 0x0000: the end */
    clock_t t0 = clock();
    doc d;
    open_bytes(&d, data, size);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    cr_log_info("1e6 opens: read %s in %.2f s, %zu findings", d.read_ok ? "ok" : d.err.message, secs, d.findings.count);
    cr_expect(secs < 30.0);
    if (d.read_ok) {
        cr_expect_eq(d.file->sections[0].body.Inf1->nodes_count, opens + 1);
        int unbalanced = 0;
        for (size_t i = 0; i < d.findings.count; i++)
            unbalanced |= strstr(d.findings.items[i].message, "1000000 child levels opened but 0 closed") != NULL;
        cr_expect(unbalanced);
    } else {
        cr_expect(strlen(d.err.message) > 0);
    }
    close_doc(&d);
}

/* ---------------------------------------------------------------- one test per rule */

/* The finding at `path` whose message contains `message`: asserts its severity and offset.
 * `name` (the file, or the rule of a table row) leads the messages. */
static void expect_finding(doc *d, const char *name, bf_severity sev, const char *path, uint64_t offset,
                           const char *message)
{
    /* rules cite the document; enum membership is built in and has no origin */
    int with_origin = strstr(message, "is not a") == NULL;
    cr_assert(d->read_ok, "%s: the mutated file must still read: %s @0x%llx: %s", name, d->err.path,
              (unsigned long long)d->err.offset, d->err.message);
    const bf_finding *hit = NULL;
    for (size_t i = 0; i < d->findings.count && !hit; i++)
        if (strcmp(d->findings.items[i].path, path) == 0 && strstr(d->findings.items[i].message, message))
            hit = &d->findings.items[i];
    if (!hit)
        dump(d, name);
    cr_assert_not_null(hit, "%s: no finding at '%s' saying '%s'", name, path, message);
    cr_expect_eq(hit->severity, sev, "%s: severity", name);
    cr_expect_eq(hit->offset, offset, "%s: offset 0x%llx, expected 0x%llx", name, (unsigned long long)hit->offset,
                 (unsigned long long)offset);
    if (with_origin)
        cr_expect_not_null(hit->origin);
    close_doc(d);
}

#define MUTATE(file)                           \
    REQUIRE_SAMPLES();                         \
    const char *name = file;                   \
    size_t size;                               \
    uint8_t *d = sample(name, &size);          \
    doc c;                                     \
    (void)sec;
#define CHECK() open_bytes(&c, d, size)
#define E BF_SEVERITY_ERROR
#define W BF_SEVERITY_WARNING

/* The rules one change at a fixed offset of a sample breaks: the sample, the bytes changed
 * (big-endian, like J3D) and the finding expected. Strings are arrays, not pointers: Criterion
 * runs each row in a process of its own. */
typedef struct rule_case {
    char name[64];
    char sample[32];
    mutation edits[1];
    bf_severity severity;
    char path[64];
    uint64_t offset;
    char message[112];
} rule_case;

static rule_case rule_cases[] = {
    {"section_count_by_magic", "box.bmd",
     {{4, 4, 0x62646C34 /* "bdl4" */}},
     E, "section_count", 0x0C,
     "8 chunks, but a 9-chunk file by its magic"},
    {"mdl3_only_in_bdl", "stone_ia8.bdl",
     {{4, 4, 0x626D6433 /* "bmd3" */}},
     E, "sections", 0x20,
     "a BMD file with an MDL3 section"},
    /* box.bmd's scene nodes start at 0x38: joint 0, open, material 0, open, shape 0, close,
     * close, end */
    {"joint_node_in_jnt1", "box.bmd",
     {{0x38 + 2, 2, 5}},
     E, "sections[0].body.nodes[0].data", 0x3A,
     "joint node 0 names joint 5, but JNT1 has 1"},
    {"material_node_in_mat3", "box.bmd",
     {{0x40 + 2, 2, 7}},
     E, "sections[0].body.nodes[2].data", 0x42,
     "material node 2 names material 7, but MAT3 has 1"},
    {"shape_node_in_shp1", "box.bmd",
     {{0x48 + 2, 2, 3}},
     E, "sections[0].body.nodes[4].data", 0x4A,
     "shape node 4 names shape 3, but SHP1 has 1"},
    /* the second close becomes a material node */
    {"opened_levels_are_closed", "box.bmd",
     {{0x50, 2, 0x11}},
     E, "sections[0].body.nodes", 0x38,
     "2 child levels opened but 1 closed"},
    {"matrix_group_count_is_shp1s", "box.bmd",
     {{0x2C, 4, 2}},
     E, "sections[0].body.matrix_group_count", 0x2C,
     "matrix group data count 2, but SHP1 has 1"},
    /* 5 entries of 12 bytes leave 36 bytes: more than padding to 32 explains */
    {"vertex_count_is_the_position_buffer", "box.bmd",
     {{0x30, 4, 5}},
     E, "sections[0].body.vertex_count", 0x30,
     "vertex count 5, but the POSITION buffer holds 8 entries of 12 bytes (96 bytes with its padding)"},
    /* 7 entries leave 12 bytes, which could be padding: a warning */
    {"vertex_count_is_the_position_buffer_up_to_padding", "box.bmd",
     {{0x30, 4, 7}},
     W, "sections[0].body.vertex_count", 0x30,
     "vertex count 7, but the POSITION buffer holds 8 entries before its padding"},
    /* box.bmd's VTX1 is at 0x60, its format list at 0xA0: position, normal, color 0,
     * texcoord 0, end. The texcoord 0 descriptor becomes a second color 0. */
    {"one_descriptor_per_attribute", "box.bmd",
     {{0xD0, 4, 0x0B}},
     E, "sections[1].body.formats", 0xA0,
     "two format descriptors for one attribute"},
    {"vertex_data_type_in_its_table", "box.bmd",
     {{0xA8, 4, 6}},
     E, "sections[1].body.formats[0].data_type", 0xA8,
     "data type 6 is not one of the 5 types"},
    /* color 0: only RGB (0) and RGBA (1) */
    {"vertex_component_count_in_its_table", "box.bmd",
     {{0xC4, 4, 2}},
     E, "sections[1].body.formats[2].component_count", 0xC4,
     "component count 2 is not one of this attribute's"},
    {"node_type_in_its_enum", "box.bmd",
     {{0x40, 2, 0x13}},
     E, "sections[0].body.nodes[2].type", 0x40,
     "19 (0x13) is not a value of NodeType"},
    {"mdl3_a_display_list_per_material", "stone_ia8.bdl",
     {{0x9A60 + 8, 2, 4}},
     E, "sections[7].body.material_count", 0x9A68,
     "4 display lists, but MAT3 has 5 materials"},
};

ParameterizedTestParameters(j3d_rules, one_finding_per_broken_rule)
{
    return cr_make_param_array(rule_case, rule_cases, sizeof rule_cases / sizeof rule_cases[0]);
}

ParameterizedTest(rule_case *rc, j3d_rules, one_finding_per_broken_rule)
{
    MUTATE(rc->sample);
    cr_assert(mutate(d, size, rc->edits, sizeof rc->edits / sizeof rc->edits[0], 0), "%s: a change outside the file",
              rc->name);
    CHECK();
    expect_finding(&c, rc->name, rc->severity, rc->path, rc->offset, rc->message);
}

Test(j3d_rules, header_size_is_the_file_size)
{
    MUTATE("box.bmd");
    put_u32be(d, 0x08, (uint32_t)size + 32);
    CHECK();
    expect_finding(&c, name, E, "file_size", 0x08, "header says 2304 bytes, but the file has 2272");
}

Test(j3d_rules, sections_chain_to_the_end_of_the_file)
{
    MUTATE("box.bmd");
    d = insert(d, &size, size, 32);
    put_u32be(d, 0x08, (uint32_t)size);
    CHECK();
    expect_finding(&c, name, E, "trailing", 2272, "32 bytes after the last section");
}

Test(j3d_rules, one_skeleton_per_model)
{
    MUTATE("box.bmd");
    memcpy(d + sec(d, size, "EVP1"), "JNT1", 4); /* an empty EVP1 reads as a JNT1 without joints */
    CHECK();
    expect_finding(&c, name, E, "sections", 0x20, "2 JNT1 sections");
}

/* Grows the section by 4 bytes of padding, so that its size is no longer a multiple of 32. */
static uint8_t *grow_section(uint8_t *d, size_t *size, size_t at)
{
    uint32_t n = get_u32be(d, at + 4);
    d = insert(d, size, at + n, 4);
    put_u32be(d, at + 4, n + 4);
    put_u32be(d, 0x08, (uint32_t)*size);
    return d;
}

Test(j3d_rules, inf1_padded_to_32)
{
    MUTATE("box.bmd");
    d = grow_section(d, &size, 0x20);
    CHECK();
    expect_finding(&c, name, E, "sections[0].size", 0x24, "INF1 is 68 bytes, not a multiple of 32");
}

Test(j3d_rules, evp1_padded_to_32)
{
    MUTATE("chicken_skinned.bmd");
    size_t at = sec(d, size, "EVP1");
    d = grow_section(d, &size, at);
    CHECK();
    expect_finding(&c, name, E, "sections[2].size", at + 4, "EVP1 is 2372 bytes, not a multiple of 32");
}

Test(j3d_rules, drw1_padded_to_32)
{
    MUTATE("chicken_skinned.bmd");
    size_t at = sec(d, size, "DRW1");
    d = grow_section(d, &size, at);
    CHECK();
    expect_finding(&c, name, E, "sections[3].size", at + 4, "DRW1 is 388 bytes, not a multiple of 32");
}

Test(j3d_rules, an_inverse_bind_matrix_per_joint)
{
    MUTATE("chicken_skinned.bmd");
    size_t at = sec(d, size, "EVP1");
    put_u32be(d, at + 0x18, get_u32be(d, at + 0x18) + 48);
    CHECK();
    expect_finding(&c, name, E, "sections[2].body.matrix_table_offset", at + 0x18, "10 inverse bind matrices, but JNT1 has 11 joints");
}

Test(j3d_rules, inverse_bind_matrices_aligned_to_4)
{
    MUTATE("chicken_skinned.bmd");
    size_t at = sec(d, size, "EVP1");
    put_u32be(d, at + 0x18, get_u32be(d, at + 0x18) + 2);
    CHECK();
    expect_finding(&c, name, E, "sections[2].body.matrix_table_offset", at + 0x18, "not aligned to 4");
}

Test(j3d_rules, envelope_joints_in_jnt1)
{
    MUTATE("chicken_skinned.bmd");
    size_t at = sec(d, size, "EVP1");
    size_t table = at + get_u32be(d, at + 0x10);
    put_u16be(d, table, 0xFF);
    CHECK();
    expect_finding(&c, name, E, "sections[2].body.joint_indices[0]", table, "envelope 0 names a joint outside JNT1's 11");
}

Test(j3d_rules, envelope_weights_add_up_to_one)
{
    MUTATE("chicken_skinned.bmd");
    size_t at = sec(d, size, "EVP1");
    size_t table = at + get_u32be(d, at + 0x14);
    put_u32be(d, table, 0); /* the first weight of envelope 0 becomes 0.0 */
    CHECK();
    expect_finding(&c, name, W, "sections[2].body.weights[0]", table, "the weights of envelope 0 add up to");
}

Test(j3d_rules, drw1_joints_first)
{
    MUTATE("chicken_skinned.bmd");
    size_t at = sec(d, size, "DRW1");
    size_t types = at + get_u32be(d, at + 0x0C);
    d[types] = 1;
    CHECK();
    expect_finding(&c, name, E, "sections[3].body.types[1]", types + 1, "entry 1 is a joint after an envelope");
}

Test(j3d_rules, drw1_ids_in_their_section)
{
    MUTATE("chicken_skinned.bmd");
    size_t at = sec(d, size, "DRW1");
    size_t ids = at + get_u32be(d, at + 0x10);
    put_u16be(d, ids, 0x0FFF);
    CHECK();
    expect_finding(&c, name, E, "sections[3].body.ids[0]", ids, "entry 0 of type 0 names 4095, outside its section");
}

Test(j3d_rules, drw1_lists_of_equal_length)
{
    MUTATE("box.bmd");
    size_t at = sec(d, size, "DRW1");
    put_u32be(d, at + 0x10, 0x14); /* the id list starts on the type list */
    CHECK();
    expect_finding(&c, name, E, "sections[3].body.id_list_offset", at + 0x10, "overlap");
}

Test(j3d_rules, jnt1_remap_in_range)
{
    MUTATE("box.bmd");
    size_t at = sec(d, size, "JNT1");
    size_t remap = at + get_u32be(d, at + 0x10);
    put_u16be(d, remap, 5);
    CHECK();
    expect_finding(&c, name, E, "sections[4].body.remap[0]", remap, "remap entry 0 is 5, outside the 1 joints");
}

Test(j3d_rules, jnt1_a_name_per_joint)
{
    MUTATE("box.bmd");
    size_t at = sec(d, size, "JNT1");
    put_u16be(d, at + get_u32be(d, at + 0x14), 0);
    CHECK();
    expect_finding(&c, name, E, "sections[4].body.name_table_offset", at + 0x14, "0 names for 1 joints");
}

/* The document's range is -0x7FFF..0x7FFF, but SuperBMD writes -0x8000 for -180 degrees and every
 * tool reads it: not a finding, and degrees are raw * 180 / 32768. */
Test(j3d_rules, joint_rotation_minus_0x8000_is_minus_180_degrees)
{
    MUTATE("box.bmd");
    size_t at = sec(d, size, "JNT1");
    size_t joint = at + get_u32be(d, at + 0x0C);
    put_u16be(d, joint + 0x10, 0x8000);
    put_u16be(d, joint + 0x12, 0x4000);
    put_u16be(d, joint + 0x14, 0x7FFF);
    CHECK();
    cr_assert(c.read_ok);
    dump(&c, name);
    cr_expect_eq(c.findings.errors, 0, "a rotation of -0x8000 is not an error");
    cr_expect_eq(c.findings.warnings, 0, "nothing else either");
    const j3d_Joint *j = &BODY(c.file, JNT1, Jnt1)->joints[0];
    cr_expect_eq(j->rotation_x, -0x8000);
    cr_expect(j->rotation_x_value == -180.0, "%g", j->rotation_x_value);
    cr_expect(j->rotation_y_value == 90.0, "%g", j->rotation_y_value);
    cr_expect(fabs(j->rotation_z_value - 32767 * 180.0 / 32768) < 1e-12, "%g", j->rotation_z_value);
    cr_expect(writes_back(&c, d, size));
    close_doc(&c);
}

/* box.bmd's SHP1 is at 0x320: shape data +0x2C, attributes +0x60, weights +0x88, primitives +0xA0,
 * matrix group data +0x180, definitions +0x188 */
Test(j3d_rules, matrix_group_data_count_is_the_definitions)
{
    MUTATE("box.bmd");
    put_u16be(d, 0x320 + 0x2C + 2, 0); /* the shape has no matrix group */
    CHECK();
    expect_finding(&c, name, E, "sections[5].body.group_data_offset", 0x320 + 0x24, "1 matrix group data entries, but the shapes have 0");
}

Test(j3d_rules, matrix_group_does_not_start_with_ffff)
{
    MUTATE("box.bmd");
    put_u16be(d, 0x320 + 0x88, 0xFFFF);
    CHECK();
    expect_finding(&c, name, E, "sections[5].body.group_data[0].first_weight", 0x320 + 0x180 + 4, "matrix group 0 starts with 0xFFFF");
}

Test(j3d_rules, matrix_group_up_to_10_indices)
{
    MUTATE("box.bmd");
    put_u16be(d, 0x320 + 0x180 + 2, 11);
    CHECK();
    expect_finding(&c, name, E, "sections[5].body.group_data[0].matrix_count", 0x320 + 0x180 + 2, "selects 11 weight indices, more than 10");
}

Test(j3d_rules, weight_indices_in_drw1)
{
    MUTATE("box.bmd");
    put_u16be(d, 0x320 + 0x88, 5);
    CHECK();
    expect_finding(&c, name, E, "sections[5].body.group_data[0].first_weight", 0x320 + 0x180 + 4, "uses a weight index outside DRW1's 1 entries");
}

Test(j3d_rules, shape_groups_inside_the_tables)
{
    MUTATE("box.bmd");
    put_u16be(d, 0x320 + 0x2C + 6, 1);
    CHECK();
    expect_finding(&c, name, E, "sections[5].body.shapes[0].group_data_index", 0x320 + 0x2C + 6, "shape 0's matrix groups are not inside the 1 of the tables");
}

Test(j3d_rules, shp1_a_name_per_shape)
{
    MUTATE("box.bmd");
    put_u32be(d, 0x320 + 0x14, 0x8C0 - 0x320); /* TEX1's empty name table */
    CHECK();
    expect_finding(&c, name, E, "sections[5].body.name_table_offset", 0x320 + 0x14, "0 names for 1 shapes");
}

Test(j3d_rules, one_indexer_per_attribute)
{
    MUTATE("box.bmd");
    put_u32be(d, 0x320 + 0x60 + 16, 0x0A); /* color 0 becomes a second normal */
    CHECK();
    expect_finding(&c, name, E, "sections[5].body.shapes[0].attribute_offset", 0x320 + 0x2C + 4, "two indexers for one attribute");
}

/* The skinned chicken's shapes blend groups of up to 10 matrices; without POSITION_MATRIX (its
 * two shapes share one attribute list: the first attribute becomes TEXTURE_0_MATRIX, also Direct)
 * no vertex can choose its matrix. */
Test(j3d_rules, multiple_joints_needs_position_matrix)
{
    MUTATE("chicken_skinned.bmd");
    size_t at = sec(d, size, "SHP1");
    size_t attributes = at + get_u32be(d, at + 0x18);
    cr_assert_eq(get_u32be(d, attributes), 0x00, "POSITION_MATRIX first");
    put_u32be(d, attributes, 0x01);
    CHECK();
    cr_expect_eq(c.findings.warnings, 2, "one per shape");
    cr_expect(c.findings.count == 2 && strcmp(c.findings.items[1].path, "sections[5].body.shapes[1].matrix_type") == 0 &&
                  strstr(c.findings.items[1].message, "shape 1 blends 20 matrix groups") != NULL,
              "shape 1 too");
    expect_finding(&c, name, W, "sections[5].body.shapes[0].matrix_type", 10796,
                   "shape 0 blends 31 matrix groups of several matrices (Multiple Joints) but has no POSITION_MATRIX indices");
}

Test(j3d_rules, position_indices_required)
{
    MUTATE("box.bmd");
    put_u32be(d, 0x320 + 0x60, 0x0E); /* position becomes texcoord 1 */
    CHECK();
    expect_finding(&c, name, E, "sections[5].body.shapes[0].attribute_offset", 0x320 + 0x2C + 4, "shape 0 has no POSITION indices");
}

Test(j3d_rules, index_type_none_only_for_list_end)
{
    MUTATE("box.bmd");
    put_u32be(d, 0x320 + 0x60 + 4 * 8 + 4, 2);
    CHECK();
    expect_finding(&c, name, E, "sections[5].body.shapes[0].attributes[4].index_type", 0x320 + 0x60 + 36, "attribute 0xff has index type 2");
}

Test(j3d_rules, direct_indices_only_for_matrices)
{
    /* the fixture's POSITION indices become Direct: the same width, but Direct is not for VTX1 data */
    uint8_t *d = copy(MINI, sizeof MINI);
    put_u32be(d, 0x80 + 0x58 + 12, 1);
    doc c;
    open_bytes(&c, d, sizeof MINI);
    expect_finding(&c, "mini", E, "sections[3].body.shapes[0].attributes[1].index_type", 0x80 + 0x58 + 12, "attribute 0x9 has index type 1");
}

Test(j3d_rules, primitives_padded_to_32)
{
    MUTATE("box.bmd");
    put_u32be(d, 0x320 + 0x188, 0xE4);
    CHECK();
    expect_finding(&c, name, E, "sections[5].body.shapes[0].groups[0].primitive_size", 0x320 + 0x188, "primitive data of 228 bytes at 0x0 is not padded to 32");
}

Test(j3d_rules, tex1_a_name_per_texture)
{
    MUTATE("stone_ia8.bmd");
    size_t at = sec(d, size, "TEX1");
    put_u16be(d, at + get_u32be(d, at + 0x10), 2);
    CHECK();
    expect_finding(&c, name, E, "sections[7].body.name_table_offset", at + 0x10, "2 names for 3 textures");
}

/* box.bmd's MAT3 is at 0x4C0: material entry +0x84, remap table +0x1D0, name table +0x1D2 */
Test(j3d_rules, mat3_remap_in_range)
{
    MUTATE("box.bmd");
    put_u16be(d, 0x4C0 + 0x1D0, 1);
    CHECK();
    expect_finding(&c, name, E, "sections[6].body.remap[0]", 0x690, "material 0 uses material entry 1, but there are 1");
}

Test(j3d_rules, mat3_a_name_per_material)
{
    MUTATE("box.bmd");
    put_u16be(d, 0x4C0 + 0x1D2, 0);
    CHECK();
    expect_finding(&c, name, E, "sections[6].body.name_table_offset", 0x4C0 + 0x14, "0 names for 1 materials");
}

Test(j3d_rules, mat3_u8_index_in_its_table)
{
    MUTATE("box.bmd");
    d[0x4C0 + 0x84 + 0x01] = 5; /* cull mode index */
    CHECK();
    expect_finding(&c, name, E, "sections[6].body.materials[0].cull_mode_index", 0x545,
                   "material entry 0 uses cull mode 5, but the table has 1");
}

Test(j3d_rules, mat3_u16_indices_in_their_table)
{
    MUTATE("box.bmd");
    put_u16be(d, 0x4C0 + 0x84 + 0xE4, 7); /* first TEV stage index */
    CHECK();
    expect_finding(&c, name, E, "sections[6].body.materials[0].tev_stage_indices", 0x628,
                   "material entry 0 uses a TEV stage outside the table's 1 (0xFFFF: none)");
}

/* stone_ia8.bdl's MDL3 is at 0x9A60, its packet table at +0x40 */
Test(j3d_rules, mdl3_display_list_padded_to_32)
{
    MUTATE("stone_ia8.bdl");
    put_u32be(d, 0x9A60 + 0x44, 0xFF);
    CHECK();
    expect_finding(&c, name, E, "sections[7].body.packets[0].size", 0x9AA4, "display list of 255 bytes, not padded to 32");
}
