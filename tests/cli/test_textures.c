/* binform textures: every image a schema marks (`image:`), as PNG, through the sanitized
 * binform: libdragon sprites (tests/fixtures/sprite, their provenance says what each holds),
 * J3D's GX textures and TML's rasters (the shared samples), and what it refuses. */
#include <criterion/criterion.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_run.h"
#include "samples.h"

#define SPRITES BF_PROJECT_DIR "/tests/fixtures/sprite/"

typedef struct picture {
    unsigned width, height;
    uint8_t *rgba;
} picture;

static int load_png(const char *path, picture *p)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path))
        return 0;
    img.format = PNG_FORMAT_RGBA;
    p->width = img.width, p->height = img.height;
    p->rgba = malloc(PNG_IMAGE_SIZE(img));
    if (!p->rgba || !png_image_finish_read(&img, NULL, p->rgba, 0, NULL)) {
        free(p->rgba);
        png_image_free(&img);
        return 0;
    }
    return 1;
}

static size_t distinct_colours(const picture *p)
{
    size_t n = 0, count = (size_t)p->width * p->height;
    for (size_t i = 0; i < count; i++) {
        size_t j = 0;
        while (j < i && memcmp(p->rgba + 4 * j, p->rgba + 4 * i, 4) != 0)
            j++;
        n += j == i;
    }
    return n;
}

/* The PNG DIR/STEM_N.png, which must be there with this size. */
static picture expect_png(const char *dir, const char *stem, int n, unsigned w, unsigned h)
{
    char png[512];
    snprintf(png, sizeof png, "%s/%s_%d.png", dir, stem, n);
    picture p;
    cr_assert(load_png(png, &p), "%s was not written as a PNG", png);
    cr_expect(p.width == w && p.height == h, "%s: %ux%u, expected %ux%u", png, p.width, p.height, w, h);
    return p;
}

static picture sprite_picture(const char *name, unsigned w, unsigned h)
{
    char *dir = test_temp_dir("textures");
    cli_result *r = cli_runf("textures %s%s.sprite -o %s", SPRITES, name, dir);
    cr_assert_eq(r->status, 0, "%s: %s", name, r->err);
    cr_assert(strstr(r->out, "from the file's root"), "%s", r->out);
    return expect_png(dir, name, 0, w, h);
}

Test(textures, sprites_of_every_format)
{
    static const struct {
        const char *name;
        unsigned w, h;
        int grey;       /* an intensity format: r == g == b */
        size_t colours; /* distinct colours the source image had; 0: many */
    } cases[] = {
        {"rgba16_8x4", 8, 4, 0, 0}, {"rgba32_8x4", 8, 4, 0, 0}, {"ci4_8x4", 8, 4, 0, 6}, {"ci8_8x4", 8, 4, 0, 6},
        {"i4_8x4", 8, 4, 1, 0},     {"i8_8x4", 8, 4, 1, 0},     {"ia4_8x4", 8, 4, 1, 0}, {"ia8_8x4", 8, 4, 1, 0},
        {"ia16_8x4", 8, 4, 1, 0},   {"i4_odd_5x3", 5, 3, 1, 0}, {"rgba16_mip_16x16", 16, 16, 0, 0},
        {"old_rgba16_plane", 20, 28, 0, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        picture p = sprite_picture(cases[c].name, cases[c].w, cases[c].h);
        size_t n = distinct_colours(&p);
        if (cases[c].colours)
            cr_expect_eq(n, cases[c].colours, "%s: %zu colours, the source image had %zu", cases[c].name, n,
                         cases[c].colours);
        else
            cr_expect_gt(n, 2, "%s: only %zu colours in a gradient", cases[c].name, n);
        for (size_t i = 0; cases[c].grey && i < (size_t)p.width * p.height; i++) {
            const uint8_t *px = p.rgba + 4 * i;
            cr_expect(px[0] == px[1] && px[1] == px[2], "%s: pixel %zu is not grey", cases[c].name, i);
        }
        free(p.rgba);
    }
}

Test(textures, j3d_gx_textures_from_the_samples)
{
    REQUIRE_SAMPLES();
    const char *path = sample_path("bmd/stone_ia8.bmd");
    char *dir = test_temp_dir("textures");
    cli_result *r = cli_runf("textures %s -o %s", path, dir);
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_expect_eq(count_lines(r->out), 3, "%s", r->out);
    for (int i = 0; i < 3; i++) {
        picture p = expect_png(dir, "stone_ia8", i, 96, 32);
        cr_expect_gt(distinct_colours(&p), 8, "texture %d: a stone texture of a few colours", i);
        for (size_t k = 0; k < (size_t)p.width * p.height; k++)
            cr_expect(p.rgba[4 * k] == p.rgba[4 * k + 1], "IA8 gives grey pixels");
        free(p.rgba);
    }
}

Test(textures, a_texture_its_data_does_not_hold_is_refused_by_path_and_the_others_written)
{
    REQUIRE_SAMPLES();
    const char *path = sample_path("tml/formats_mixed.tml");
    char *dir = test_temp_dir("textures");
    cli_result *r = cli_runf("textures %s -o %s", path, dir);
    cr_expect_eq(r->status, 1);
    cr_expect(strstr(r->err, "formats_mixed.tml: error: textures[1].data @0x444: 16 x 16 pixels of argb4444 take 512 "
                             "bytes, the data holds 1024"), "%s", r->err);
    cr_expect(strstr(r->err, "textures[2].data @0x860"), "%s", r->err);
    char png[512];
    struct stat st;
    snprintf(png, sizeof png, "%s/formats_mixed_0.png", dir);
    cr_expect_eq(stat(png, &st), 0, "the good textures are written");
    snprintf(png, sizeof png, "%s/formats_mixed_2.png", dir);
    cr_expect_neq(stat(png, &st), 0, "two refused, so there is no third PNG");
}

Test(textures, files_without_images_and_usage)
{
    char *dir = test_temp_dir("textures");
    cli_result *r = cli_runf("textures %s -o %s", PYRAMID, dir);
    cr_expect_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, "no textures"), "%s", r->out);
    r = cli_runf("textures %s", PYRAMID);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "-o DIR is required"), "%s", r->err);
    r = cli_runf("textures %s -o /proc/no_such_place/x", PYRAMID);
    cr_expect_eq(r->status, 2);
    cr_expect(strstr(r->err, "cannot make the folder"), "%s", r->err);
}

Test(textures, p3m_embedded_ptf_unpacked_from_its_lz4_frame)
{
    REQUIRE_SAMPLES();
    char *dir = test_temp_dir("textures");
    cli_result *r = cli_runf("textures %s -o %s", sample_path("p3m/dynamic_multipart.p3m"), dir);
    cr_assert_eq(r->status, 0, "%s", r->err);
    cr_expect(strstr(r->out, "64 x 64, rgb888 from data.textures[0].body.image"), "%s", r->out);
    /* the exporter's images are short (the schema's erratum): padded, with a warning that says so */
    cr_expect(strstr(r->err, "warning: data.textures[0].body.image.pixels @0x615b: the pixels unpack to 12097 bytes"),
              "%s", r->err);
    picture p = expect_png(dir, "dynamic_multipart", 0, 64, 64);
    cr_expect_gt(distinct_colours(&p), 100, "a brick texture of many colours");
    free(p.rgba);
}
