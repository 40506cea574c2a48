/* The files binform render reads beside a model (cli/binform/render_files.c): names in
 * subfolders but never out of the model's folder, regular files only, and a sprite that is
 * not built yet made from its PNG the way mksprite converts (cli/binform/png_sprite.c). */
#define _DEFAULT_SOURCE
#include "png_sprite.h"
#include "png_write.h"
#include "render_files.h"

#include "../../n64/scene/texture.h"
#include "sprite.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

Test(render_files, names_stay_in_the_models_folder)
{
    cr_expect(render_files_safe_name("stars.sprite"));
    cr_expect(render_files_safe_name("space/stars.sprite"));
    cr_expect(render_files_safe_name("a/b/c.sprite"));
    cr_expect(render_files_safe_name("..x.sprite")); /* a name, not a parent */
    cr_expect_not(render_files_safe_name(""));
    cr_expect_not(render_files_safe_name("/etc/passwd"));
    cr_expect_not(render_files_safe_name("../stars.sprite"));
    cr_expect_not(render_files_safe_name("space/../../stars.sprite"));
    cr_expect_not(render_files_safe_name("space/.."));
    cr_expect_not(render_files_safe_name("space//stars.sprite"));
    cr_expect_not(render_files_safe_name("space\\stars.sprite"));
}

static char dir[64];

static void write_file(const char *rel, const void *data, size_t size)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    cr_assert_eq(fwrite(data, 1, size, f), size);
    fclose(f);
}

static void make_dirs(void)
{
    snprintf(dir, sizeof dir, "/tmp/binform_render_files_%ld", (long)getpid());
    char path[256];
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/space", dir);
    mkdir(path, 0777);
}

static void remove_dirs(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        cr_log_warn("could not remove %s", dir);
}

/* 3 x 2 RGBA pixels: red, clear green, half-clear blue / a dark grey, white, clear near-black */
static const uint8_t image[6][4] = {{255, 0, 0, 255},   {0, 255, 0, 0},     {0, 0, 255, 128},
                                    {16, 32, 48, 255}, {255, 255, 255, 255}, {8, 8, 8, 0}};

Test(render_files, textures_in_subfolders_and_from_pngs, .init = make_dirs, .fini = remove_dirs)
{
    static const uint8_t sprite[16] = {0, 1, 0, 1, 0, 2, 1, 1, 0xF8, 0x01};
    write_file("space/stars.sprite", sprite, sizeof sprite);
    uint8_t *png;
    size_t png_size;
    cr_assert_eq(png_encode(&image[0][0], 3, 2, &png, &png_size), 0);
    write_file("space/nebula.ia8.png", png, png_size);
    free(png);

    char model[128];
    snprintf(model, sizeof model, "%s/model.t3dm", dir);
    render_files_t f;
    render_files_init(&f, model, NULL);
    const uint8_t *data;
    size_t size;
    cr_expect(render_files_load(&f, "space/stars.sprite", &data, &size));
    cr_expect(size == sizeof sprite && memcmp(data, sprite, size) == 0);
    cr_expect_not(render_files_load(&f, "space", &data, &size), "a folder is not a file");
    cr_expect_not(render_files_load(&f, "../model.t3dm", &data, &size));
    cr_expect_not(render_files_load(&f, "space/missing.sprite", &data, &size));

    /* not built: the PNG beside it, as IA8 (the name says so) */
    cr_assert(render_files_load(&f, "space/nebula.ia8.sprite", &data, &size));
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    sprite_Sprite *s;
    bf_error err;
    texture t;
    cr_assert(sprite_read_sprite(data, size, &arena, NULL, &s, &err), "%s", err.message);
    cr_assert_eq(texture_from_sprite(s, &t), TEXTURE_OK);
    cr_expect_eq(t.format, SPRITE_TEX_FORMAT_IA8);
    cr_expect_eq(t.width, 3);
    cr_expect_eq(t.height, 2);
    const uint8_t want[6] = {0xFF, 0x00, 0x08, 0x1F, 0xFF, 0x00};
    cr_expect(memcmp(t.pixels, want, 6) == 0, "IA8 texels %02x %02x %02x %02x %02x %02x", t.pixels[0], t.pixels[1],
              t.pixels[2], t.pixels[3], t.pixels[4], t.pixels[5]);
    bf_arena_free(&arena);
    render_files_free(&f);
}

/* The sprite a PNG named `name` becomes, read back as a texture. */
static void convert(const char *name, bf_arena *arena, texture *t)
{
    uint8_t *png, *spr;
    size_t png_size, spr_size;
    uint8_t format;
    char why[300];
    cr_assert_eq(png_encode(&image[0][0], 3, 2, &png, &png_size), 0);
    cr_assert_eq(png_sprite_convert(png, png_size, name, &spr, &spr_size, &format, why, sizeof why), 0, "%s: %s", name,
                 why);
    free(png);
    uint8_t *copy = bf_arena_alloc(arena, spr_size);
    memcpy(copy, spr, spr_size);
    free(spr);
    sprite_Sprite *s;
    bf_error err;
    cr_assert(sprite_read_sprite(copy, spr_size, arena, NULL, &s, &err), "%s: %s", name, err.message);
    cr_assert_eq(texture_from_sprite(s, t), TEXTURE_OK, "%s", name);
    cr_expect_eq(t->format, format, "%s", name);
}

static void expect_rows(const char *name, const texture *t, const uint8_t *row0, const uint8_t *row1)
{
    cr_expect(memcmp(t->pixels, row0, t->row_bytes) == 0, "%s: first row", name);
    cr_expect(memcmp(t->pixels + t->row_bytes, row1, t->row_bytes) == 0, "%s: second row", name);
}

/* mksprite's conversions: grey formats take red; RGBA16 the top 5 bits and any alpha; 4-bit
 * rows of an odd width end in a zero nibble; few colours make a palette. */
Test(render_files, pngs_convert_as_mksprite_does)
{
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    texture t;
    convert("a.rgba16.png", &arena, &t);
    expect_rows("RGBA16", &t, (const uint8_t[]){0xF8, 0x01, 0x07, 0xC0, 0x00, 0x3F},
                (const uint8_t[]){0x11, 0x0D, 0xFF, 0xFF, 0x08, 0x42});
    convert("a.png", &arena, &t); /* RGB(A) PNGs default to RGBA16 */
    cr_expect_eq(t.format, SPRITE_TEX_FORMAT_RGBA16);
    convert("a.RGBA32.png", &arena, &t);
    expect_rows("RGBA32", &t, &image[0][0], &image[3][0]);
    convert("a.i8.png", &arena, &t);
    expect_rows("I8", &t, (const uint8_t[]){255, 0, 0}, (const uint8_t[]){16, 255, 8});
    convert("a.i4.png", &arena, &t);
    expect_rows("I4", &t, (const uint8_t[]){0xF0, 0x00}, (const uint8_t[]){0x1F, 0x00});
    convert("a.ia4.png", &arena, &t);
    expect_rows("IA4", &t, (const uint8_t[]){0xF0, 0x10}, (const uint8_t[]){0x1F, 0x00});
    convert("a.ia16.png", &arena, &t);
    expect_rows("IA16", &t, (const uint8_t[]){0xFF, 0xFF, 0x00, 0x00, 0x00, 0x80},
                (const uint8_t[]){0x10, 0xFF, 0xFF, 0xFF, 0x08, 0x00});
    convert("a.ci8.png", &arena, &t);
    expect_rows("CI8", &t, (const uint8_t[]){0, 1, 2}, (const uint8_t[]){3, 4, 5});
    cr_expect_eq(texture_palette_color(&t, 0), 0xF801);
    cr_expect_eq(texture_palette_color(&t, 4), 0xFFFF);
    convert("a.ci4.png", &arena, &t);
    expect_rows("CI4", &t, (const uint8_t[]){0x01, 0x20}, (const uint8_t[]){0x34, 0x50});
    cr_expect_eq(t.palette_count, 16u);
    cr_expect_eq(texture_palette_color(&t, 2), 0x003F);
    bf_arena_free(&arena);
}

Test(render_files, bad_pngs_say_why)
{
    uint8_t *png, *spr;
    size_t png_size, spr_size;
    uint8_t format;
    char why[300] = "";
    cr_assert_eq(png_encode(&image[0][0], 3, 2, &png, &png_size), 0);
    cr_expect_eq(png_sprite_convert(png, png_size / 2, "a.png", &spr, &spr_size, &format, why, sizeof why), -1);
    cr_expect(why[0] != 0);
    cr_expect_eq(png_sprite_convert(png, 7, "a.png", &spr, &spr_size, &format, why, sizeof why), -1);
    cr_expect(strstr(why, "not a PNG"), "%s", why);
    free(png);
    /* 20 colours: more than CI4 holds */
    uint8_t many[20][4];
    for (int i = 0; i < 20; i++)
        many[i][0] = (uint8_t)(i * 12), many[i][1] = 0, many[i][2] = 0, many[i][3] = 255;
    cr_assert_eq(png_encode(&many[0][0], 20, 1, &png, &png_size), 0);
    cr_expect_eq(png_sprite_convert(png, png_size, "a.ci4.png", &spr, &spr_size, &format, why, sizeof why), -1);
    cr_expect(strstr(why, "CI4 wants at most 16 colours"), "%s", why);
    free(png);
}
