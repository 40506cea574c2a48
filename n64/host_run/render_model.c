/* A T3DM model to an RGBA picture: read, validate, pose, frame, draw, run. */
#include "render_model.h"

#include "../scene/anim.h"
#include "../scene/skeleton.h"
#include "../scene/texture.h"
#include "../driver/scene.h"
#include "bf_validate.h"
#include "sprite.h"
#include "t3dm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RDRAM_SIZE (8u << 20) /* the console with its Expansion Pak */
#define FIRST_FREE 0x1000u    /* address 0 stays unused: 0 means "none" in the driver */

render_options_t render_default_options(void)
{
    render_options_t o = {
        .width = 320,
        .height = 240,
        .yaw_deg = 30,
        .pitch_deg = 20,
        .distance = 1,
        .animation = NULL,
        .time = 0,
        .shading = DRAW_MATERIALS,
        .color16 = false,
        .background = 0x303848FFu,
        .content = DRAW_EVERYTHING,
        .profile = NULL,
    };
    return o;
}

static bool fail(char *error, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error, size, fmt, ap);
    va_end(ap);
    return false;
}

/* The pose: rest, or a frame of the named animation (its stream from `load`). */
static bool pose_model(const t3dm_File *m, const render_options_t *o, render_load_fn load, void *ctx, bf_arena *arena,
                       render_result_t *out, char *error, size_t size)
{
    const t3dm_Skeleton *sk = skeleton_find(m);
    if (!sk) {
        if (o->animation)
            return fail(error, size, "animation '%s': the model has no skeleton", o->animation);
        return true;
    }
    uint32_t n = skeleton_bone_count(sk);
    bone_pose *pose = calloc(n ? n : 1, sizeof(*pose));
    out->bones = calloc(n ? n : 1, sizeof(*out->bones));
    if (!pose || !out->bones) {
        free(pose);
        return fail(error, size, "out of memory");
    }
    out->bone_count = n;
    bool ok = skeleton_rest_pose(sk, pose, n) == SKELETON_OK;
    if (!ok)
        fail(error, size, "the skeleton cannot be posed (a bone's parent does not come before it)");
    if (ok && o->animation) {
        const t3dm_Animation *anim = NULL;
        if (anim_find(m, o->animation, &anim) != 0 || !anim) {
            char names[256] = "";
            for (uint32_t k = 0; k < anim_count(m); k++) {
                const t3dm_Animation *a = anim_at(m, k);
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%.*s", k ? ", " : "", (int)a->name_str.len,
                         a->name_str.ptr ? (const char *)a->name_str.ptr : "");
            }
            ok = fail(error, size, "no animation named '%s' (the model has: %s)", o->animation,
                      names[0] ? names : "none");
        } else {
            const char *sname;
            uint32_t slen;
            anim_stream_name(anim, &sname, &slen);
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)slen, sname ? sname : "");
            const uint8_t *data;
            size_t dsize;
            t3dm_StreamData *stream = NULL;
            bf_error err;
            if (!load || !load(ctx, name, &data, &dsize)) {
                ok = fail(error, size, "animation '%s': its keyframes, %s, are not beside the model", o->animation, name);
            } else if (!t3dm_read_stream(data, dsize, arena, NULL, &stream, &err)) {
                char line[600];
                bf_error_format(&err, name, line, sizeof line);
                ok = fail(error, size, "%s", line);
            } else {
                uint32_t channels = (uint32_t)anim->quat_channel_count + anim->scalar_channel_count;
                anim_channel *storage = calloc(channels ? channels : 1, sizeof(*storage));
                anim_player player;
                if (!storage || anim_init(&player, anim, stream, n, storage, channels) != 0) {
                    ok = fail(error, size, "animation '%s' cannot be played (its channels do not fit the skeleton)",
                              o->animation);
                } else {
                    anim_sample(&player, o->time, pose);
                }
                free(storage);
            }
        }
    }
    if (ok && skeleton_matrices(sk, pose, out->bones, n) != SKELETON_OK)
        ok = fail(error, size, "the posed skeleton has an infinite or undefined matrix");
    free(pose);
    return ok;
}

/* Adds a line to the result's texture notes (kept when there is room). */
static void note(render_result_t *out, const char *fmt, ...)
{
    size_t used = strlen(out->texture_notes);
    if (used + 2 >= sizeof out->texture_notes)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->texture_notes + used, sizeof out->texture_notes - used - 1, fmt, ap);
    va_end(ap);
    used = strlen(out->texture_notes);
    out->texture_notes[used] = '\n';
    out->texture_notes[used + 1] = 0;
}

static const char *texture_error_text(int status)
{
    switch (status) {
    case TEXTURE_ERR_FORMAT: return "a format the RDP cannot texture from";
    case TEXTURE_ERR_EMPTY: return "zero width or height";
    case TEXTURE_ERR_NO_PALETTE: return "a colour-indexed sprite without a palette";
    case TEXTURE_ERR_SIZE: return "fewer pixel bytes than its size needs";
    default: return "unreadable";
    }
}

/* One texture slot's sprite, read from the file its path names; false (and
 * a note naming the file and the field) when it cannot be drawn with it. */
static bool load_texture(const t3dm_MaterialTexture *mt, const char *field, render_load_fn load, void *ctx,
                         bf_arena *arena, texture *t, render_result_t *out)
{
    const char *p = mt->path_str.ptr;
    size_t len = mt->path_str.len;
    if (len > 5 && memcmp(p, "rom:/", 5) == 0) {
        p += 5;
        len -= 5;
    }
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)len, p);
    const uint8_t *data;
    size_t size;
    sprite_Sprite *sprite = NULL;
    bf_error err;
    if (!load || !load(ctx, name, &data, &size)) {
        note(out, "%s (%s): not beside the model", name, field);
        return false;
    }
    if (texture_is_compressed_asset(data, size)) {
        note(out, "%s (%s): a compressed asset (build it with mksprite --compress 0)", name, field);
        return false;
    }
    if (!sprite_read_sprite(data, size, arena, NULL, &sprite, &err)) {
        char line[700];
        bf_error_format(&err, name, line, sizeof line);
        note(out, "%s (%s)", line, field);
        return false;
    }
    int status = texture_from_sprite(sprite, t);
    if (status != TEXTURE_OK) {
        note(out, "%s (%s): %s", name, field, texture_error_text(status));
        return false;
    }
    if (!t->fits_tmem) {
        note(out, "%s (%s): %ux%u needs %u bytes of TMEM, more than the %u a%s texture may take", name, field,
             t->width, t->height, t->tmem_bytes,
             t->rdp_format == TEXTURE_RDP_CI ? TEXTURE_TMEM_CI_BYTES : TEXTURE_TMEM_BYTES,
             t->rdp_format == TEXTURE_RDP_CI ? " colour-indexed" : "");
        return false;
    }
    return true;
}

/* Each textured material's textures A and B, read from the sprite files their paths name. */
static draw_texture_t *load_textures(const t3dm_File *m, render_load_fn load, void *ctx, bf_arena *arena,
                                     uint32_t *count, render_result_t *out)
{
    uint32_t materials = 0;
    for (uint32_t c = 0; c < m->chunk_data_count; c++)
        materials += m->chunk_data[c].body.kind == T3DM_KIND_MATERIAL;
    draw_texture_t *textures = calloc(materials ? materials : 1, sizeof(*textures));
    *count = materials;
    if (!textures)
        return NULL;
    uint32_t k = 0;
    for (uint32_t c = 0; c < m->chunk_data_count; c++) {
        if (m->chunk_data[c].body.kind != T3DM_KIND_MATERIAL)
            continue;
        const t3dm_Material *mat = m->chunk_data[c].body.Material;
        uint32_t index = k++;
        if (!(mat->draw_flags & 2u))
            continue;
        const t3dm_MaterialTexture *slots[2] = {&mat->texture_a, &mat->texture_b};
        texture *dest[2] = {&textures[index].tex, &textures[index].tex_b};
        for (int t = 0; t < 2; t++) {
            const bf_str *path = &slots[t]->path_str;
            if (!path->ptr || path->len == 0) {
                if (t == 0) { /* a textured material without texture A: the checkerboard */
                    if (slots[t]->reference)
                        note(out, "chunk_data[%u].body.texture_a.reference: texture %u is one the game draws at run "
                                  "time (offscreen)", c, (unsigned)slots[t]->reference);
                    else
                        note(out, "chunk_data[%u].body.texture_a.path: a textured material that names no texture", c);
                    out->textures_missing++;
                }
                continue;
            }
            char field[96];
            snprintf(field, sizeof field, "chunk_data[%u].body.texture_%c.path", c, t ? 'b' : 'a');
            if (load_texture(slots[t], field, load, ctx, arena, dest[t], out))
                out->textures_loaded++;
            else
                out->textures_missing++;
        }
    }
    return textures;
}

/* The colour image as RGBA8888 (16-bit channels widened by repeating their top bits). */
static void read_picture(const emu_t *e, const draw_frame_t *f, uint8_t *rgba)
{
    uint32_t n = (uint32_t)f->width * f->height;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *px = e->rdram + f->color_image + (f->color32 ? 4u : 2u) * i;
        uint8_t *o = rgba + 4u * i;
        if (f->color32) {
            o[0] = px[0];
            o[1] = px[1];
            o[2] = px[2];
        } else {
            unsigned v = (unsigned)(px[0] << 8 | px[1]), r = v >> 11, g = (v >> 6) & 31u, b = (v >> 1) & 31u;
            o[0] = (uint8_t)(r << 3 | r >> 2);
            o[1] = (uint8_t)(g << 3 | g >> 2);
            o[2] = (uint8_t)(b << 3 | b >> 2);
        }
        o[3] = 255;
    }
}

bool render_model(const uint8_t *data, size_t size, const render_options_t *o, render_load_fn load, void *ctx,
                  render_result_t *out, char *error, size_t error_size)
{
    memset(out, 0, sizeof(*out));
    if (o->width < 8 || o->height < 8 || o->width > 1024 || o->height > 1024)
        return fail(error, error_size, "picture size %ux%u: each side must be 8 to 1024 pixels", o->width, o->height);
    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    bool ok = false;
    t3dm_File *m = NULL;
    bf_error err;
    bf_findings findings = {0};
    draw_texture_t *textures = NULL;
    emu_t emu = {0};
    if (!t3dm_read_model(data, size, &arena, NULL, &m, &err)) {
        char line[600];
        bf_error_format(&err, NULL, line, sizeof line);
        fail(error, error_size, "%s", line);
        goto done;
    }
    if (!t3dm_validate_model(m, data, size, &findings)) {
        char line[800] = "";
        for (size_t i = 0; i < findings.count; i++)
            if (findings.items[i].severity == BF_SEVERITY_ERROR) {
                bf_finding_format(&findings.items[i], NULL, line, sizeof line);
                break;
            }
        fail(error, error_size, "%s (and %zu more errors: binform check lists them)", line,
             findings.errors > 0 ? findings.errors - 1 : 0);
        goto done;
    }
    if (!pose_model(m, o, load, ctx, &arena, out, error, error_size))
        goto done;

    scene_view_t view = {o->width,        o->height,     o->yaw_deg,  o->pitch_deg,
                         o->distance,     o->shading,    !o->color16, o->background,
                         o->content,      o->fog_start,  o->fog_end};
    camera cam;
    if (scene_camera(m, out->bones, out->bone_count, &view, &cam) != CAMERA_OK) {
        fail(error, error_size, "camera: yaw %g, pitch %g, distance %g cannot frame the model", o->yaw_deg,
             o->pitch_deg, o->distance);
        goto done;
    }
    uint32_t texture_count = 0;
    if (o->shading == DRAW_MATERIALS && !(textures = load_textures(m, load, ctx, &arena, &texture_count, out))) {
        fail(error, error_size, "out of memory");
        goto done;
    }
    if (!emu_open(&emu, RDRAM_SIZE)) {
        fail(error, error_size, "out of memory");
        goto done;
    }
    if (size > RDRAM_SIZE / 2) {
        fail(error, error_size, "the model does not fit the console's 8 MiB of RDRAM");
        goto done;
    }
    rdram_image_t img;
    rdram_init(&img, emu.rdram, RDRAM_SIZE, FIRST_FREE);
    const emu_microcode_t *mc = &emu_render_microcode;
    scene_overlays_t ov = {mc->cold, mc->clip, (uint32_t)mc->cold_size, (uint32_t)mc->clip_size};
    scene_t scene = {0};
    int status = scene_build(&scene, &img, &ov, &view, &cam, data, (uint32_t)size, m, out->bones, out->bone_count,
                             textures, texture_count);
    out->frame = scene.frame;
    if (status != DRAW_OK) {
        fail(error, error_size, "%s",
             status == DRAW_ERR_MODEL    ? "a part loads vertices past the microcode's 70-entry cache"
             : status == DRAW_ERR_CAMERA ? "the camera's depth range cannot be mapped"
                                         : "the model and its frame do not fit the console's 8 MiB of RDRAM");
        goto done;
    }
    out->triangles = scene_triangles(m, data, (uint32_t)size);
    out->vertices = draw_model_vertices(m);
    emu.profile = o->profile;
    /* generous: a few thousand RSP cycles per triangle, plus the setup */
    uint64_t budget = 4000000u + 20000u * (uint64_t)out->triangles;
    emu_run(&emu, mc, scene.cl.start, scene.cold, scene.clip, budget, &out->emu);
    if (!out->emu.finished) {
        fail(error, error_size, "the microcode did not finish within %llu RSP cycles", (unsigned long long)budget);
        goto done;
    }
    if (out->emu.error_word) {
        fail(error, error_size, "the microcode refused command %08x", out->emu.error_word);
        goto done;
    }
    out->width = o->width;
    out->height = o->height;
    out->rgba = malloc((size_t)o->width * o->height * 4);
    if (!out->rgba) {
        fail(error, error_size, "out of memory");
        goto done;
    }
    read_picture(&emu, &out->frame, out->rgba);
    ok = true;
done:
    emu_close(&emu);
    free(textures);
    bf_findings_free(&findings);
    bf_arena_free(&arena);
    if (!ok)
        render_result_free(out);
    return ok;
}

void render_result_free(render_result_t *r)
{
    free(r->rgba);
    free(r->bones);
    r->rgba = NULL;
    r->bones = NULL;
}
