/* binform textures: every image of a file as a PNG. Which objects are images, and which of
 * their fields give the codec, size, pixels and palette, is the schema's to say (`image:` of
 * a type, in the reflection tables); this walks the document and decodes what they name. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bf_path.h"
#include "commands.h"
#include "document.h"
#include "png_write.h"
#include "texture_codec.h"

/* Sides larger than this are refused before anything is allocated. */
#define TEXTURE_SIDE_MAX 16384

typedef struct walk {
    const options *o;
    const document *d;
    int64_t revision;
    const char *stem;
    int written, errors;
    char path[BF_PATH_MAX];
} walk;

/* A role that names a number: a single number field, or a named value. 0 when the name is
 * neither (bfgen checked it is one) or the value cannot be computed. */
static int role_number(const walk *w, const bf_type_desc *t, const void *obj, const char *name, int64_t *out)
{
    const bf_field_desc *f = bf_field_named(t, name, strlen(name));
    if (f && f->kind == BF_FIELD_PRIM && bf_field_count(f, obj) >= 1) {
        *out = bf_prim_int(f->prim, bf_field_elem(f, obj, 0));
        return 1;
    }
    for (size_t i = 0; i < t->value_count; i++)
        if (strcmp(t->values[i].name, name) == 0) {
            double x;
            bf_error err;
            if (!bf_value_get(&t->values[i], w->d->root, w->revision, w->d->size, obj, out, &x, &err))
                return 0;
            if (t->values[i].is_float)
                *out = (int64_t)x;
            return 1;
        }
    return 0;
}

/* The field a role's path ends at, and the object holding it; NULL when a field on the way
 * is absent (left out by `if:`, an empty array). */
static const bf_field_desc *role_path(const bf_type_desc *t, const void *obj, const char *path, const void **owner)
{
    for (;;) {
        const char *dot = strchr(path, '.');
        const bf_field_desc *f = bf_field_named(t, path, dot ? (size_t)(dot - path) : strlen(path));
        if (!f || bf_field_count(f, obj) == 0)
            return NULL;
        if (!dot) {
            *owner = obj;
            return f;
        }
        if (f->kind != BF_FIELD_STRUCT)
            return NULL;
        obj = bf_field_elem(f, obj, 0);
        t = f->type;
        path = dot + 1;
    }
}

static int report(walk *w, const char *role_path_text, uint64_t offset, const char *why)
{
    fprintf(stderr, "%s: error: %s%s%s @0x%llx: %s\n", w->d->name, w->path, w->path[0] ? "." : "", role_path_text,
            (unsigned long long)offset, why);
    w->errors++;
    return 0;
}

/* The codec word of an image: its own, or the one its enum field's label picks. */
static const char *image_codec(const walk *w, const bf_type_desc *t, const void *obj, char *why, size_t why_size)
{
    const bf_image_desc *im = t->image;
    if (im->codec)
        return im->codec;
    const bf_field_desc *f = bf_field_named(t, im->codec_by, strlen(im->codec_by));
    int64_t v;
    if (!role_number(w, t, obj, im->codec_by, &v))
        return NULL;
    const char *label = f && f->enumdef ? bf_enum_name(f->enumdef, v) : NULL;
    for (size_t i = 0; im->codec_cases && im->codec_cases[i]; i += 2) {
        char *end;
        long long number = strtoll(im->codec_cases[i], &end, 0);
        if ((label && strcmp(im->codec_cases[i], label) == 0) || (!*end && number == v))
            return im->codec_cases[i + 1];
    }
    snprintf(why, why_size, "%s %lld (%s) has no codec in the schema's image cases", im->codec_by, (long long)v,
             label ? label : "no enum name");
    return NULL;
}

static int raster_named(const char *codec, raster_kind *kind)
{
    static const char *const names[] = {"rgba8888", "bgra8888", "rgb888", "argb1555", "argb4444", "argb2222"};
    for (int i = 0; i < 6; i++)
        if (strcmp(codec, names[i]) == 0) {
            *kind = (raster_kind)i;
            return 1;
        }
    return 0;
}

/* The palette as big-endian 16-bit entries: bytes as they are, or an array of numbers. */
static int palette_bytes(const bf_field_desc *f, const void *owner, uint8_t **own, const uint8_t **bytes, size_t *size)
{
    if (f->kind == BF_FIELD_BYTES) {
        const bf_bytes *b = bf_field_elem(f, owner, 0);
        *bytes = b->ptr, *size = b->len;
        return 1;
    }
    uint64_t n = bf_field_count(f, owner);
    if (n > 65536)
        return 0;
    *own = malloc(2 * (size_t)n + 1);
    if (!*own)
        return 0;
    for (uint64_t i = 0; i < n; i++) {
        uint16_t c = (uint16_t)bf_prim_int(f->prim, bf_field_elem(f, owner, i));
        (*own)[2 * i] = (uint8_t)(c >> 8), (*own)[2 * i + 1] = (uint8_t)c;
    }
    *bytes = *own, *size = 2 * (size_t)n;
    return 1;
}

/* Bytes the pixels of an image take once unpacked, 0 when the codec does not say. */
static size_t unpacked_size(const char *codec, int64_t width, int64_t height, int64_t format)
{
    raster_kind kind;
    if (raster_named(codec, &kind))
        return raster_image_size(kind, (unsigned)width, (unsigned)height);
    if (strcmp(codec, "gx") == 0)
        return gx_image_size((unsigned)format, (unsigned)width, (unsigned)height);
    if (strcmp(codec, "n64") == 0)
        return n64_image_size((unsigned)format, (unsigned)width, (unsigned)height);
    return 0;
}

/* Unpacks compressed pixels (an LZ4 frame) into a buffer of exactly the image's size. */
static int unpack(const char *codec, int64_t width, int64_t height, int64_t format, int pad_short,
                  const bf_bytes *packed, uint8_t **out, bf_bytes *result, char *why, size_t why_size)
{
    size_t need = unpacked_size(codec, width, height, format);
    if (!need) {
        snprintf(why, why_size, "compressed pixels need a codec of known size, not '%s'", codec);
        return 0;
    }
    if (!(*out = malloc(need + 1))) {
        snprintf(why, why_size, "out of memory for %zu bytes of pixels", need);
        return 0;
    }
    int64_t got = bf_lz4_frame(packed->ptr, packed->len, *out, need + 1);
    if (got >= 0 && got < (int64_t)need && pad_short) {
        snprintf(why, why_size, "the pixels unpack to %lld bytes, a %lld x %lld %s image takes %zu: the missing "
                 "bytes are zero (short_pixels: pad)", (long long)got, (long long)width, (long long)height, codec, need);
        memset(*out + got, 0, need - (size_t)got);
        got = (int64_t)need;
    }
    if (got != (int64_t)need) {
        if (got < 0)
            snprintf(why, why_size, "the LZ4 frame of the pixels is malformed or unpacks past the %zu bytes of a "
                     "%lld x %lld %s image", need, (long long)width, (long long)height, codec);
        else
            snprintf(why, why_size, "the pixels unpack to %lld bytes, a %lld x %lld %s image takes %zu",
                     (long long)got, (long long)width, (long long)height, codec, need);
        free(*out);
        *out = NULL;
        return 0;
    }
    *result = (bf_bytes){.ptr = *out, .len = need, .offset = packed->offset};
    return 1;
}

static void extract(walk *w, const bf_type_desc *t, const void *obj, const char *out_dir)
{
    const bf_image_desc *im = t->image;
    char why[256] = "";
    uint64_t at = bf_obj_offset(obj);
    const char *codec = image_codec(w, t, obj, why, sizeof why);
    if (!codec) {
        report(w, im->codec_by ? im->codec_by : "codec", at, why[0] ? why : "no codec");
        return;
    }
    int64_t width = 0, height = 0, format = 0, palette_format = 0;
    if (!role_number(w, t, obj, im->width, &width) || !role_number(w, t, obj, im->height, &height) ||
        (im->format && !role_number(w, t, obj, im->format, &format)) ||
        (im->palette_format && !role_number(w, t, obj, im->palette_format, &palette_format))) {
        report(w, im->width, at, "the image's size or format cannot be computed");
        return;
    }
    const void *owner;
    const bf_field_desc *pf = role_path(t, obj, im->pixels, &owner);
    if (!pf) {
        report(w, im->pixels, at, "the image has no pixel data");
        return;
    }
    bf_bytes pixels_in_file;
    const bf_bytes *pixels = &pixels_in_file;
    if (pf->kind == BF_FIELD_BYTES) {
        pixels = bf_field_elem(pf, owner, 0);
    } else { /* packed data starting at a structure: the frame says where it ends */
        pixels_in_file.offset = bf_obj_offset(bf_field_elem(pf, owner, 0));
        pixels_in_file.ptr = w->d->data + pixels_in_file.offset;
        pixels_in_file.len = w->d->size - pixels_in_file.offset;
    }
    int is_dds = strcmp(codec, "dds") == 0;
    if (!is_dds && (width < 1 || height < 1 || width > TEXTURE_SIDE_MAX || height > TEXTURE_SIDE_MAX)) {
        snprintf(why, sizeof why, "an image of %lld x %lld pixels (each side 1..%d)", (long long)width,
                 (long long)height, TEXTURE_SIDE_MAX);
        report(w, im->width, at, why);
        return;
    }
    uint8_t *own_palette = NULL;
    const uint8_t *palette = NULL;
    size_t palette_size = 0;
    const bf_field_desc *palf = im->palette ? role_path(t, obj, im->palette, &owner) : NULL;
    if (palf && !palette_bytes(palf, owner, &own_palette, &palette, &palette_size)) {
        report(w, im->palette, at, "the palette is too large (over 65536 colours) or out of memory");
        return;
    }
    uint8_t *rgba = NULL, *unpacked = NULL;
    int ok = 0;
    raster_kind kind;
    if (im->compression && !unpack(codec, width, height, format, im->pad_short, pixels, &unpacked, &pixels_in_file, why,
                                   sizeof why)) {
        free(own_palette);
        report(w, im->pixels, pixels->offset, why);
        return;
    }
    if (why[0]) { /* unpacked short, and padded as the schema allows */
        fprintf(stderr, "%s: warning: %s%s%s @0x%llx: %s\n", w->d->name, w->path, w->path[0] ? "." : "", im->pixels,
                (unsigned long long)pixels->offset, why);
        why[0] = '\0';
    }
    if (unpacked)
        pixels = &pixels_in_file;
    if (is_dds) {
        dds_image img;
        ok = dds_decode(pixels->ptr, pixels->len, &img, why, sizeof why);
        rgba = img.rgba, width = img.width, height = img.height;
    } else if (!(rgba = malloc((size_t)width * (size_t)height * 4))) {
        snprintf(why, sizeof why, "out of memory for %lld x %lld pixels", (long long)width, (long long)height);
    } else if (strcmp(codec, "gx") == 0) {
        ok = gx_decode((unsigned)format, (unsigned)width, (unsigned)height, pixels->ptr, pixels->len, palette,
                       palette_size / 2, (unsigned)palette_format, rgba, why, sizeof why);
    } else if (strcmp(codec, "n64") == 0) {
        ok = n64_decode((unsigned)format, (unsigned)width, (unsigned)height, pixels->ptr, pixels->len, palette,
                        palette_size, rgba, why, sizeof why);
    } else if (raster_named(codec, &kind)) {
        ok = raster_decode(kind, (unsigned)width, (unsigned)height, pixels->ptr, pixels->len, rgba, why, sizeof why);
    } else {
        snprintf(why, sizeof why, "codec '%s' is not one binform decodes", codec);
    }
    free(own_palette);
    free(unpacked);
    if (!ok) {
        free(rgba);
        report(w, im->pixels, pixels->offset, why);
        return;
    }
    char out[4096];
    snprintf(out, sizeof out, "%s/%s_%d.png", out_dir, w->stem, w->written);
    if (png_save(out, rgba, (unsigned)width, (unsigned)height, why, sizeof why) != 0) {
        fprintf(stderr, "%s: error: %s\n", out, why);
        w->errors++;
    } else {
        w->written++;
        if (!w->o->quiet)
            printf("%s: %lld x %lld, %s from %s\n", out, (long long)width, (long long)height, codec,
                   w->path[0] ? w->path : "the file's root");
    }
    free(rgba);
}

static void walk_object(walk *w, const bf_type_desc *t, const void *obj, const char *out_dir, int depth)
{
    if (depth > 64)
        return;
    if (t->image)
        extract(w, t, obj, out_dir);
    size_t len = strlen(w->path);
    for (size_t i = 0; i < t->field_count; i++) {
        const bf_field_desc *f = &t->fields[i];
        if (f->kind == BF_FIELD_SWITCH) {
            bf_switch_view sw = bf_field_switch(f, obj);
            if (sw.ptr && sw.type) {
                snprintf(w->path + len, sizeof w->path - len, "%s%s", len ? "." : "", f->name);
                walk_object(w, sw.type, sw.ptr, out_dir, depth + 1);
            }
        } else if (f->kind == BF_FIELD_STRUCT) {
            uint64_t n = bf_field_count(f, obj);
            for (uint64_t k = 0; k < n; k++) {
                if (f->array == BF_SCALAR)
                    snprintf(w->path + len, sizeof w->path - len, "%s%s", len ? "." : "", f->name);
                else
                    snprintf(w->path + len, sizeof w->path - len, "%s%s[%llu]", len ? "." : "", f->name,
                             (unsigned long long)k);
                walk_object(w, f->type, bf_field_elem(f, obj, k), out_dir, depth + 1);
            }
        }
        w->path[len] = '\0';
    }
}

/* The file's name without its folder and last extension: the PNGs' prefix. */
static void file_stem(const char *path, char *stem, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(stem, size, "%s", strcmp(path, "-") == 0 ? "stdin" : base);
    char *dot = strrchr(stem, '.');
    if (dot && dot != stem)
        *dot = '\0';
}

int cmd_textures(const options *o, int argc, char **argv)
{
    (void)argc;
    if (!o->output) {
        fprintf(stderr, "binform textures: -o DIR is required (the folder the PNGs go to)\n");
        return EXIT_USAGE;
    }
    if (mkdir(o->output, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "%s: error: cannot make the folder: %s\n", o->output, strerror(errno));
        return EXIT_USAGE;
    }
    document d;
    open_opts oo = {.format = o->format, .revision = o->revision};
    int rc = document_load(&d, argv[0], &oo);
    if (rc) {
        document_report(&d, stderr, color_wanted(stderr, o->color));
        document_close(&d);
        return rc;
    }
    char stem[256];
    file_stem(argv[0], stem, sizeof stem);
    walk w = {.o = o, .d = &d, .stem = stem};
    if (d.entry->revision_offset)
        memcpy(&w.revision, (const uint8_t *)d.root + d.entry->revision_offset, sizeof w.revision);
    walk_object(&w, d.entry->root, d.root, o->output, 0);
    if (!w.written && !w.errors && !o->quiet)
        printf("%s: no textures (the %s schema marks no type as an image, or none is in the file)\n", d.name,
               d.format->name);
    document_close(&d);
    return w.errors ? EXIT_INVALID : EXIT_VALID;
}
