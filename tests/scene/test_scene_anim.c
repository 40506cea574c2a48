/* n64/scene anim: the sample animations (snake, player) played with tiny3d's semantics, checked
 * against each channel's keyframes taken out of the stream independently; looping; and
 * hostile animations (built in memory) that must give error codes or skipped keyframes,
 * never a crash or a NaN. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim.h"
#include "samples.h"
#include "scene_load.h"
#include "skeleton.h"

#define MAX_CHANNELS 128
#define MAX_BONES 64

/* ---- an independent view of a channel's keyframes ---- */

typedef struct expected_kf {
    float end;      /* the channel's end time once this keyframe is loaded (float, as tiny3d) */
    double v[4];    /* decoded value (scalar in v[0]) */
} expected_kf;

/* The packed quaternion, decoded here in double from the bit layout: largest component's
 * index in bits 31-30, then three 10-bit components for the indices after it (mod 4). */
static void decode_quat(uint16_t hi, uint16_t lo, double q[4])
{
    uint32_t packed = (uint32_t)hi << 16 | lo;
    int largest = (int)(packed >> 30);
    double sum = 0;
    for (int i = 0; i < 3; i++) {
        uint32_t raw = (packed >> (20 - 10 * i)) & 0x3FF;
        double c = raw / 1023.0 * (2 / sqrt(2.0)) - 1 / sqrt(2.0);
        q[(largest + 1 + i) & 3] = c;
        sum += c * c;
    }
    q[largest] = sqrt(fmax(0.0, 1 - sum));
}

/* Channel c's keyframes, in stream order. */
static int channel_keyframes(const t3dm_Animation *a, const t3dm_StreamData *s, uint32_t c, expected_kf *out, int cap)
{
    int n = 0;
    float end = 0;
    for (uint32_t k = 0; k < s->keyframes_count; k++) {
        const t3dm_Keyframe *kf = &s->keyframes[k];
        if (kf->channel != c)
            continue;
        cr_assert_lt(n, cap);
        end += (float)kf->time_ticks * (1.0f / 60.0f);
        out[n].end = end;
        if (c < a->quat_channel_count) {
            decode_quat(kf->data[0], kf->data[1], out[n].v);
        } else {
            const t3dm_ChannelMapping *m = &a->channels[c];
            out[n].v[0] = (float)kf->data[0] * m->quant_scale + m->quant_offset;
        }
        n++;
    }
    return n;
}

/* Quaternions q and -q are the same rotation. */
static double quat_distance(const float *got, const double *want)
{
    double plus = 0, minus = 0;
    for (int k = 0; k < 4; k++) {
        plus = fmax(plus, fabs(got[k] - want[k]));
        minus = fmax(minus, fabs(got[k] + want[k]));
    }
    return fmin(plus, minus);
}

typedef struct played {
    scene_file model, stream;
    const t3dm_Animation *anim;
    uint32_t bones;
    anim_channel channels[MAX_CHANNELS];
    anim_player player;
} played;

static void open_anim(played *p, const char *model_rel, const char *name, const char *stream_rel)
{
    REQUIRE_SAMPLES();
    scene_load_model(&p->model, model_rel);
    scene_load_stream(&p->stream, stream_rel);
    cr_assert_eq(anim_find(p->model.model, name, &p->anim), ANIM_OK, "%s has %s", model_rel, name);
    p->bones = skeleton_bone_count(skeleton_find(p->model.model));
    int st = anim_init(&p->player, p->anim, p->stream.stream, p->bones, p->channels, MAX_CHANNELS);
    cr_assert_eq(st, ANIM_OK, "anim_init: %d (channel %u)", st, p->player.bad_channel);
    cr_assert_eq(p->player.short_stream, 0);
}

static void close_anim(played *p)
{
    scene_unload(&p->stream);
    scene_unload(&p->model);
}

/* At t = 0 every channel holds its first keyframe's value; at each keyframe's end time its
 * value is that keyframe's (the last one, when several end at the same time). */
static void check_keyframe_times(const char *model_rel, const char *name, const char *stream_rel)
{
    played *p = calloc(1, sizeof *p);
    open_anim(p, model_rel, name, stream_rel);
    static expected_kf kfs[4096];
    unsigned checked = 0;
    for (uint32_t c = 0; c < p->player.channel_count; c++) {
        int n = channel_keyframes(p->anim, p->stream.stream, c, kfs, 4096);
        cr_assert_gt(n, 0, "%s: channel %u has keyframes", name, c);
        cr_assert_eq(kfs[0].end, 0.0f, "%s: channel %u's first keyframe is at time 0", name, c);
        cr_assert(n == 1 || kfs[1].end > 0.0f, "%s: channel %u has one keyframe at time 0", name, c);
        int rot = c < p->player.quat_count;
        /* t = 0: the first keyframe's value */
        anim_sample(&p->player, 0.0f, NULL);
        if (rot)
            cr_assert(quat_distance(p->player.channels[c].value, kfs[0].v) < 2e-6, "%s channel %u at 0 s", name, c);
        else
            cr_assert(p->player.channels[c].value[0] == (float)kfs[0].v[0], "%s channel %u at 0 s", name, c);
        for (int k = 0; k < n; k++) {
            float t = kfs[k].end;
            if (t >= p->anim->duration || (k + 1 < n && kfs[k + 1].end == t))
                continue; /* looped, or not the last keyframe at that time */
            anim_sample(&p->player, t, NULL);
            const float *got = p->player.channels[c].value;
            if (rot) {
                double d = quat_distance(got, kfs[k].v);
                cr_assert(d < 2e-6, "%s channel %u keyframe %d at %.4f s: (%g %g %g %g), decoded (%g %g %g %g)",
                          name, c, k, t, got[0], got[1], got[2], got[3], kfs[k].v[0], kfs[k].v[1], kfs[k].v[2],
                          kfs[k].v[3]);
            } else {
                cr_assert(got[0] == (float)kfs[k].v[0], "%s channel %u keyframe %d at %.4f s: %.9g, keyframe %.9g",
                          name, c, k, t, got[0], kfs[k].v[0]);
            }
            cr_assert_eq(p->player.skipped + p->player.repaired, 0);
            checked++;
        }
    }
    fprintf(stderr, "anim: %s/%s: %u channels, %u keyframe times checked\n", model_rel, name, p->player.channel_count,
            checked);
    close_anim(p);
    free(p);
}

Test(anim, snake_attack_holds_each_keyframe_at_its_time)
{
    check_keyframe_times("t3dm/08_animation/snake.t3dm", "Snake_Attack", "t3dm/08_animation/snake.0.sdata");
}

Test(anim, every_snake_animation_holds_each_keyframe_at_its_time)
{
    static const char *const names[] = {"Snake_Death", "Snake_Idle", "Snake_Jump", "Snake_Walk"};
    for (int i = 0; i < 4; i++) {
        char stream[64];
        snprintf(stream, sizeof stream, "t3dm/08_animation/snake.%d.sdata", i + 1);
        check_keyframe_times("t3dm/08_animation/snake.t3dm", names[i], stream);
    }
}

Test(anim, player_animations_hold_each_keyframe_at_its_time)
{
    REQUIRE_SAMPLES();
    scene_file m;
    scene_load_model(&m, "t3dm/11_segments/player.t3dm");
    uint32_t n = anim_count(m.model);
    cr_assert_eq(n, 8);
    for (uint32_t i = 0; i < n; i++) {
        const t3dm_Animation *a = anim_at(m.model, i);
        const char *file;
        uint32_t len;
        anim_stream_name(a, &file, &len);
        char name[128], stream[128];
        snprintf(name, sizeof name, "%.*s", (int)a->name_str.len, a->name_str.ptr);
        snprintf(stream, sizeof stream, "t3dm/11_segments/%.*s", (int)len, file);
        check_keyframe_times("t3dm/11_segments/player.t3dm", name, stream);
    }
    cr_assert_null(anim_at(m.model, n));
    scene_unload(&m);
}

/* Rotations stay unit quaternions, everything stays finite, and the pose makes finite bone
 * matrices, at every frame of every snake animation. */
Test(anim, values_stay_unit_and_finite)
{
    REQUIRE_SAMPLES();
    static const char *const names[] = {"Snake_Attack", "Snake_Death", "Snake_Idle", "Snake_Jump", "Snake_Walk"};
    for (int i = 0; i < 5; i++) {
        char stream[64];
        snprintf(stream, sizeof stream, "t3dm/08_animation/snake.%d.sdata", i);
        played *p = calloc(1, sizeof *p);
        open_anim(p, "t3dm/08_animation/snake.t3dm", names[i], stream);
        const t3dm_Skeleton *sk = skeleton_find(p->model.model);
        bone_pose pose[MAX_BONES];
        mat4 mats[MAX_BONES];
        for (int f = 0; f < 200; f++) {
            float t = p->anim->duration * (float)f / 200.0f;
            cr_assert_eq(skeleton_rest_pose(sk, pose, MAX_BONES), SKELETON_OK);
            anim_seek(&p->player, t, pose);
            for (uint32_t c = 0; c < p->player.channel_count; c++) {
                const float *v = p->player.channels[c].value;
                if (c < p->player.quat_count) {
                    double len = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2] +
                                      (double)v[3] * v[3]);
                    cr_assert(fabs(len - 1) < 1e-6, "%s channel %u at %g s: |q| = %.9g", names[i], c, t, len);
                } else {
                    cr_assert(isfinite(v[0]));
                }
            }
            cr_assert_eq(skeleton_matrices(sk, pose, mats, MAX_BONES), SKELETON_OK);
        }
        /* each rotation channel's value is what the pose of its bone holds */
        for (uint32_t c = 0; c < p->player.quat_count; c++)
            cr_assert(memcmp(pose[p->anim->channels[c].target_index].rotation, p->player.channels[c].value,
                             4 * sizeof(float)) == 0);
        close_anim(p);
        free(p);
    }
}

static void copy_values(const anim_player *p, float out[][4])
{
    for (uint32_t c = 0; c < p->channel_count; c++)
        memcpy(out[c], p->channels[c].value, sizeof out[c]);
}

static double max_diff(const anim_player *p, float a[][4], float b[][4])
{
    double d = 0;
    for (uint32_t c = 0; c < p->channel_count; c++) {
        if (c < p->quat_count) {
            double q[4] = {b[c][0], b[c][1], b[c][2], b[c][3]};
            d = fmax(d, quat_distance(a[c], q));
        } else {
            d = fmax(d, fabs(a[c][0] - b[c][0]));
        }
    }
    return d;
}

/* Past the duration the animation starts again; playing frame by frame gives what sampling
 * each frame's time afresh gives. */
Test(anim, sampling_past_the_duration_loops)
{
    played *p = calloc(1, sizeof *p);
    open_anim(p, "t3dm/08_animation/snake.t3dm", "Snake_Walk", "t3dm/08_animation/snake.4.sdata");
    static float a[MAX_CHANNELS][4], b[MAX_CHANNELS][4];
    float d = p->anim->duration;
    const float times[] = {0.0f, 0.1f, 0.25f, 0.5f, d * 0.99f};
    for (int i = 0; i < 5; i++) {
        anim_sample(&p->player, times[i], NULL);
        copy_values(&p->player, a);
        const float later[] = {times[i] + d, times[i] + 3 * d, times[i] - d, times[i] + 40 * d};
        for (int j = 0; j < 4; j++) {
            anim_sample(&p->player, later[j], NULL);
            copy_values(&p->player, b);
            /* the time is the float nearest later mod d (fmod is exact) */
            double w = fmod((double)later[j], (double)d);
            if (w < 0)
                w += d;
            cr_assert(p->player.time == (float)w || (p->player.time == 0 && (float)w == d), "%.9g s wraps to %.9g",
                      later[j], p->player.time);
            /* which is t up to the rounding of t + k d: the values barely move */
            cr_assert(max_diff(&p->player, a, b) < 2e-3, "%g s and %g s differ by %g", times[i], later[j],
                      max_diff(&p->player, a, b));
        }
    }
    /* frame by frame over three loops */
    anim_rewind(&p->player);
    for (int f = 0; f < 180; f++) {
        anim_advance(&p->player, 1.0f / 60.0f, NULL);
        float t = p->player.time;
        cr_assert(t >= 0 && t < d);
        copy_values(&p->player, a);
        anim_player fresh = p->player;
        static anim_channel storage[MAX_CHANNELS];
        fresh.channels = storage;
        memcpy(storage, p->player.channels, p->player.channel_count * sizeof *storage);
        anim_sample(&fresh, t, NULL);
        copy_values(&fresh, b);
        cr_assert(max_diff(&p->player, a, b) < 1e-6, "frame %d (%g s): played and sampled differ by %g", f, t,
                  max_diff(&p->player, a, b));
    }
    close_anim(p);
    free(p);
}

Test(anim, names_and_streams)
{
    REQUIRE_SAMPLES();
    scene_file m;
    scene_load_model(&m, "t3dm/08_animation/snake.t3dm");
    const t3dm_Animation *a;
    cr_assert_eq(anim_find(m.model, "Snake_Idle", &a), ANIM_OK);
    cr_assert_eq(a, anim_at(m.model, 2));
    cr_assert_eq(anim_find(m.model, "Snake_Dance", &a), ANIM_ERR_NOT_FOUND, "an unknown name is an error");
    cr_assert_null(a);
    cr_assert_eq(anim_find(m.model, "Snake_Idl", &a), ANIM_ERR_NOT_FOUND, "a prefix is not the name");
    cr_assert_eq(anim_find(m.model, "Snake_Idle2", &a), ANIM_ERR_NOT_FOUND);
    cr_assert_eq(anim_find(m.model, "", &a), ANIM_ERR_NOT_FOUND);
    cr_assert_eq(anim_find(NULL, "Snake_Idle", &a), ANIM_ERR_NOT_FOUND);
    const char *file;
    uint32_t len;
    anim_stream_name(anim_at(m.model, 4), &file, &len);
    cr_assert(len == 13 && memcmp(file, "snake.4.sdata", 13) == 0, "%.*s", (int)len, file);
    anim_stream_name(NULL, &file, &len);
    cr_assert_eq(len, 0);
    cr_assert_eq(anim_count(m.model), 5);
    scene_unload(&m);
}

/* A stream cut inside a keyframe does not read (the reader names the offset); one cut
 * between keyframes plays what it has. */
Test(anim, damaged_streams)
{
    REQUIRE_SAMPLES();
    scene_file m, s;
    scene_load_model(&m, "t3dm/08_animation/snake.t3dm");
    scene_load_stream(&s, "t3dm/08_animation/snake.0.sdata");
    const t3dm_Animation *a;
    cr_assert_eq(anim_find(m.model, "Snake_Attack", &a), ANIM_OK);

    bf_arena arena;
    bf_arena_init(&arena, bf_alloc_default(), 0);
    t3dm_StreamData *cut;
    bf_error err;
    cr_assert_eq(t3dm_read_stream(s.data, s.size - 1, &arena, NULL, &cut, &err), 0, "a partial keyframe is an error");
    char line[700];
    bf_error_format(&err, "snake.0.sdata", line, sizeof line);
    cr_assert(strstr(line, "keyframes[") && strstr(line, "@0x"), "the error names the keyframe and offset: %s", line);
    fprintf(stderr, "anim: %s\n", line);

    uint32_t half = s.stream->keyframes_count / 2;
    size_t at = (size_t)s.stream->keyframes[half]._offset;
    cr_assert_eq(t3dm_read_stream(s.data, at, &arena, NULL, &cut, &err), 1);
    cr_assert_eq(cut->keyframes_count, half);
    static anim_channel ch[MAX_CHANNELS];
    anim_player p;
    uint32_t bones = skeleton_bone_count(skeleton_find(m.model));
    cr_assert_eq(anim_init(&p, a, cut, bones, ch, MAX_CHANNELS), ANIM_OK);
    cr_assert_eq(p.short_stream, 1);
    bone_pose pose[MAX_BONES];
    skeleton_rest_pose(skeleton_find(m.model), pose, MAX_BONES);
    anim_sample(&p, a->duration * 0.95f, pose);
    cr_assert_eq(p.ended, 1, "the channels ran out of keyframes");
    for (uint32_t c = 0; c < p.channel_count; c++)
        for (int k = 0; k < 4; k++)
            cr_assert(isfinite(p.channels[c].value[k]));
    mat4 mats[MAX_BONES];
    cr_assert_eq(skeleton_matrices(skeleton_find(m.model), pose, mats, MAX_BONES), SKELETON_OK);

    /* an empty stream: every channel stays at zero / identity */
    cr_assert_eq(t3dm_read_stream(s.data, 0, &arena, NULL, &cut, &err), 1);
    cr_assert_eq(anim_init(&p, a, cut, bones, ch, MAX_CHANNELS), ANIM_OK);
    anim_sample(&p, 0.3f, pose);
    cr_assert(p.ended && p.channels[0].value[3] == 1.0f && p.repaired > 0);
    bf_arena_free(&arena);
    scene_unload(&s);
    scene_unload(&m);
}

/* ---- hostile animations, built in memory ---- */

typedef struct synth {
    t3dm_Animation anim;
    t3dm_ChannelMapping map[3];
    t3dm_StreamData stream;
    t3dm_Keyframe kf[16];
    uint16_t data[16][2];
    anim_channel ch[3];
    anim_player p;
} synth;

static void add_kf(synth *s, uint16_t channel, uint16_t ticks, uint16_t d0, uint16_t d1, int values)
{
    uint32_t i = s->stream.keyframes_count++;
    t3dm_Keyframe *k = &s->kf[i];
    memset(k, 0, sizeof *k);
    k->channel = channel;
    k->time_ticks = ticks;
    k->time = ticks;
    s->data[i][0] = d0;
    s->data[i][1] = d1;
    k->data = s->data[i];
    k->data_count = (uint32_t)values;
}

/* Channel 0 rotates bone 0, channel 1 moves bone 1 along y (value = raw / 100), channel 2
 * scales bone 1 uniformly (value = raw / 1000); one second long, keyframes at 0 and 0.5 s. */
static void make_synth(synth *s)
{
    memset(s, 0, sizeof *s);
    s->anim.duration = 1.0f;
    s->anim.quat_channel_count = 1;
    s->anim.scalar_channel_count = 2;
    s->anim.channels = s->map;
    s->anim.channels_count = 3;
    s->map[0] = (t3dm_ChannelMapping){.target_index = 0, .target_type = T3DM_TARGET_TYPE_ROTATION};
    s->map[1] = (t3dm_ChannelMapping){.target_index = 1, .target_type = T3DM_TARGET_TYPE_TRANSLATION,
                                      .attribute_index = 1, .quant_scale = 0.01f};
    s->map[2] = (t3dm_ChannelMapping){.target_index = 1, .target_type = T3DM_TARGET_TYPE_SCALE_UNIFORM,
                                      .quant_scale = 0.001f};
    s->stream.keyframes = s->kf;
    /* identity quaternion: largest w (3), the three others at 511.5 ~ 0 */
    uint16_t id_hi = (uint16_t)(3u << 14 | 511u << 4 | 511u >> 6), id_lo = (uint16_t)((511u & 63) << 10 | 511u);
    add_kf(s, 0, 0, id_hi, id_lo, 2);
    add_kf(s, 1, 0, 100, 0, 2); /* the first keyframe always holds two values */
    add_kf(s, 2, 0, 1000, 0, 1);
    add_kf(s, 0, 30, id_hi, id_lo, 1 + 1);
    add_kf(s, 1, 30, 300, 0, 1);
    add_kf(s, 2, 30, 2000, 0, 1);
    add_kf(s, 0, 30, id_hi, id_lo, 2);
    add_kf(s, 1, 30, 100, 0, 1);
    add_kf(s, 2, 30, 1000, 0, 1);
    s->anim.keyframe_count = s->stream.keyframes_count;
}

Test(anim_hostile, a_well_formed_synthetic_animation)
{
    synth s;
    make_synth(&s);
    cr_assert_eq(anim_init(&s.p, &s.anim, &s.stream, 2, s.ch, 3), ANIM_OK);
    bone_pose pose[2];
    memset(pose, 0, sizeof pose);
    anim_sample(&s.p, 0.25f, pose);
    cr_assert(fabsf(pose[1].translation[1] - 2.0f) < 1e-5f, "halfway from 1 to 3: %g", pose[1].translation[1]);
    cr_assert(fabsf(pose[1].scale[0] - 1.5f) < 1e-5f && pose[1].scale[0] == pose[1].scale[1] &&
                  pose[1].scale[1] == pose[1].scale[2],
              "uniform scale sets x, y and z: %g %g %g", pose[1].scale[0], pose[1].scale[1], pose[1].scale[2]);
    cr_assert(fabsf(pose[0].rotation[3] - 1.0f) < 1e-5f);
    anim_sample(&s.p, 0.75f, pose);
    cr_assert(fabsf(pose[1].translation[1] - 2.0f) < 1e-5f, "halfway from 3 to 1: %g", pose[1].translation[1]);
    cr_assert_eq(s.p.skipped + s.p.repaired, 0);
}

Test(anim_hostile, channel_mappings_that_cannot_apply_are_errors)
{
    synth s;
    make_synth(&s);
    cr_assert_eq(anim_init(&s.p, &s.anim, &s.stream, 1, s.ch, 3), ANIM_ERR_CHANNEL, "bone 1 of a 1-bone skeleton");
    cr_assert_eq(s.p.bad_channel, 1);
    cr_assert_eq(anim_init(&s.p, &s.anim, &s.stream, 2, s.ch, 2), ANIM_ERR_CAPACITY);
    cr_assert_eq(anim_init(&s.p, NULL, &s.stream, 2, s.ch, 3), ANIM_ERR_ARG);
    cr_assert_eq(anim_init(&s.p, &s.anim, NULL, 2, s.ch, 3), ANIM_ERR_ARG);

    const struct {
        int channel;
        const char *what;
    } cases[] = {{0, "a translation among the rotations"}, {1, "a rotation among the scalars"},
                 {1, "attribute 3"},                      {2, "target type 7"},
                 {1, "NaN quantization scale"},           {2, "infinite quantization offset"}};
    for (int i = 0; i < 6; i++) {
        make_synth(&s);
        t3dm_ChannelMapping *m = &s.map[cases[i].channel];
        switch (i) {
        case 0: m->target_type = T3DM_TARGET_TYPE_TRANSLATION; break;
        case 1: m->target_type = T3DM_TARGET_TYPE_ROTATION; break;
        case 2: m->attribute_index = 3; break;
        case 3: m->target_type = 7; break;
        case 4: m->quant_scale = NAN; break;
        default: m->quant_offset = INFINITY; break;
        }
        cr_assert_eq(anim_init(&s.p, &s.anim, &s.stream, 2, s.ch, 3), ANIM_ERR_CHANNEL, "%s", cases[i].what);
        cr_assert_eq(s.p.bad_channel, (uint32_t)cases[i].channel, "%s", cases[i].what);
        anim_sample(&s.p, 0.5f, NULL); /* a player that failed to init does nothing */
    }
}

Test(anim_hostile, durations)
{
    synth s;
    make_synth(&s);
    s.anim.duration = NAN;
    cr_assert_eq(anim_init(&s.p, &s.anim, &s.stream, 2, s.ch, 3), ANIM_ERR_DURATION);
    s.anim.duration = -1.0f;
    cr_assert_eq(anim_init(&s.p, &s.anim, &s.stream, 2, s.ch, 3), ANIM_ERR_DURATION);
    s.anim.duration = INFINITY;
    cr_assert_eq(anim_init(&s.p, &s.anim, &s.stream, 2, s.ch, 3), ANIM_ERR_DURATION);
    s.anim.duration = 0.0f; /* every time is 0 */
    cr_assert_eq(anim_init(&s.p, &s.anim, &s.stream, 2, s.ch, 3), ANIM_OK);
    bone_pose pose[2];
    memset(pose, 0, sizeof pose);
    anim_sample(&s.p, 0.75f, pose);
    cr_assert_eq(s.p.time, 0.0f);
    cr_assert(fabsf(pose[1].translation[1] - 1.0f) < 1e-5f, "the first keyframe: %g", pose[1].translation[1]);
    anim_advance(&s.p, 0.5f, pose);
    cr_assert_eq(s.p.time, 0.0f);
    anim_advance(&s.p, NAN, pose);
    anim_advance(&s.p, -1.0f, pose);
    cr_assert_eq(s.p.time, 0.0f);
}

Test(anim_hostile, bad_keyframes_are_skipped)
{
    synth s;
    make_synth(&s);
    s.kf[4].channel = 999;   /* no such channel */
    s.kf[3].data_count = 1;  /* a rotation with one value */
    cr_assert_eq(anim_init(&s.p, &s.anim, &s.stream, 2, s.ch, 3), ANIM_OK);
    bone_pose pose[2];
    memset(pose, 0, sizeof pose);
    anim_sample(&s.p, 0.9f, pose);
    cr_assert_eq(s.p.skipped, 2);
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < 3; k++)
            cr_assert(isfinite(pose[b].translation[k]) && isfinite(pose[b].scale[k]));
    for (int k = 0; k < 4; k++)
        cr_assert(isfinite(pose[0].rotation[k]));
    anim_rewind(&s.p);
    cr_assert_eq(s.p.skipped, 0, "counted since the last rewind");
}

Test(anim_hostile, values_tiny3d_would_make_nan_are_repaired)
{
    /* three components at their maximum: their squares add up to 1.5 */
    float q[4];
    cr_assert_eq(anim_unpack_quat(0xFFFF, 0xFFFF, q), 1);
    cr_assert(q[3] == 0.0f && isfinite(q[0]) && isfinite(q[1]) && isfinite(q[2]));
    cr_assert_eq(anim_unpack_quat(0xC000 | 511 << 4 | 511 >> 6, (511 & 63) << 10 | 511, q), 0);
    cr_assert(fabsf(q[3] - 1.0f) < 1e-5f && fabsf(q[0]) < 1e-3f, "the identity: %g %g %g %g", q[0], q[1], q[2], q[3]);
    /* bit placement: x (largest index 0's successor... ) */
    cr_assert_eq(anim_unpack_quat(0x0000 | 1023 << 4, 0x0000, q), 1);
    cr_assert(fabsf(q[1] - 0.70710678f) < 1e-6f && fabsf(q[2] + 0.70710678f) < 1e-6f &&
                  fabsf(q[3] + 0.70710678f) < 1e-6f && q[0] == 0.0f,
              "%g %g %g %g", q[0], q[1], q[2], q[3]);

    synth s;
    make_synth(&s);
    s.map[1].quant_scale = 3e38f; /* 300 * 3e38 overflows */
    s.kf[0].data[0] = 0xFFFF;     /* rotation 0's first keyframe: repaired to a finite value */
    s.kf[0].data[1] = 0xFFFF;
    cr_assert_eq(anim_init(&s.p, &s.anim, &s.stream, 2, s.ch, 3), ANIM_OK);
    bone_pose pose[2];
    memset(pose, 0, sizeof pose);
    anim_sample(&s.p, 0.4f, pose);
    cr_assert_gt(s.p.repaired, 0);
    for (int k = 0; k < 4; k++)
        cr_assert(isfinite(pose[0].rotation[k]));
    cr_assert(isfinite(pose[1].translation[1]));

    /* two keyframes at the same time past 1000 s: the 0.00001 s offset is lost in rounding */
    make_synth(&s);
    s.anim.duration = 2000.0f;
    s.stream.keyframes_count = 3;
    add_kf(&s, 1, 32767, 500, 0, 1);
    add_kf(&s, 1, 32767, 600, 0, 1);
    add_kf(&s, 1, 0, 700, 0, 1); /* the last one: the channel stays on this zero-length segment */
    cr_assert_eq(anim_init(&s.p, &s.anim, &s.stream, 2, s.ch, 3), ANIM_OK);
    anim_sample(&s.p, 1092.25f, pose);
    cr_assert_gt(s.p.repaired, 0);
    cr_assert(isfinite(pose[1].translation[1]), "%g", pose[1].translation[1]);
    cr_assert(fabsf(pose[1].translation[1] - 7.0f) < 1e-4f, "the later keyframe: %g", pose[1].translation[1]);
}
