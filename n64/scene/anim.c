/* anim: tiny3d's animation playback over a read keyframe stream (see anim.h). The float
 * expressions keep tiny3d's operation order, so that values come out bit for bit. */
#include "anim.h"

#include "fmath.h"

#define SQRT_2_INV 0.70710678118f

static int name_is(bf_str s, const char *name)
{
    if (!s.ptr)
        return 0;
    uint32_t i = 0;
    for (; i < s.len; i++)
        if (name[i] == '\0' || name[i] != s.ptr[i])
            return 0;
    return name[i] == '\0';
}

uint32_t anim_count(const t3dm_File *model)
{
    uint32_t n = 0;
    for (uint32_t i = 0; model && i < model->chunk_data_count; i++)
        n += model->chunk_data[i].body.kind == T3DM_KIND_ANIMATION && model->chunk_data[i].body.Animation;
    return n;
}

const t3dm_Animation *anim_at(const t3dm_File *model, uint32_t index)
{
    for (uint32_t i = 0; model && i < model->chunk_data_count; i++)
        if (model->chunk_data[i].body.kind == T3DM_KIND_ANIMATION && model->chunk_data[i].body.Animation) {
            if (index == 0)
                return model->chunk_data[i].body.Animation;
            index--;
        }
    return 0;
}

int anim_find(const t3dm_File *model, const char *name, const t3dm_Animation **out)
{
    *out = 0;
    for (uint32_t i = 0; name && i < anim_count(model); i++) {
        const t3dm_Animation *a = anim_at(model, i);
        if (name_is(a->name_str, name)) {
            *out = a;
            return ANIM_OK;
        }
    }
    return ANIM_ERR_NOT_FOUND;
}

void anim_stream_name(const t3dm_Animation *anim, const char **name, uint32_t *len)
{
    *name = "";
    *len = 0;
    if (!anim || !anim->sdata_path_str.ptr)
        return;
    const char *s = anim->sdata_path_str.ptr;
    uint32_t n = anim->sdata_path_str.len, start = 0;
    for (uint32_t i = 0; i < n; i++)
        if (s[i] == '/' || s[i] == ':' || s[i] == '\\')
            start = i + 1;
    *name = s + start;
    *len = n - start;
}

static void set4(float v[4], float x, float y, float z, float w)
{
    v[0] = x;
    v[1] = y;
    v[2] = z;
    v[3] = w;
}

void anim_rewind(anim_player *p)
{
    for (uint32_t c = 0; c < p->channel_count; c++) {
        anim_channel *ch = &p->channels[c];
        ch->time_start = ch->time_end = 0.0f;
        set4(ch->curr, 0, 0, 0, 0);
        set4(ch->next, 0, 0, 0, 0);
        set4(ch->value, 0, 0, 0, 0);
    }
    p->next_keyframe = 0;
    p->time = 0.0f;
    p->skipped = 0;
    p->repaired = 0;
    p->ended = 0;
}

int anim_init(anim_player *p, const t3dm_Animation *anim, const t3dm_StreamData *stream, uint32_t bone_count,
              anim_channel *storage, uint32_t capacity)
{
    anim_player z = {0};
    *p = z;
    if (!anim || !stream || (!storage && anim->channels_count > 0))
        return ANIM_ERR_ARG;
    if (!fmath_isfinite(anim->duration) || anim->duration < 0.0f)
        return ANIM_ERR_DURATION;
    uint32_t n = anim->channels_count;
    if (n > capacity)
        return ANIM_ERR_CAPACITY;
    uint32_t quats = anim->quat_channel_count < n ? anim->quat_channel_count : n;
    for (uint32_t c = 0; c < n; c++) {
        const t3dm_ChannelMapping *m = &anim->channels[c];
        int rotation = m->target_type == T3DM_TARGET_TYPE_ROTATION;
        /* rotations are not quantized that way: the importer leaves -inf / inf there */
        int ok = m->target_index < bone_count && m->target_type <= T3DM_TARGET_TYPE_ROTATION &&
                 rotation == (c < quats) &&
                 (rotation || (m->attribute_index <= 2 && fmath_isfinite(m->quant_scale) &&
                               fmath_isfinite(m->quant_offset)));
        if (!ok) {
            p->bad_channel = c;
            return ANIM_ERR_CHANNEL;
        }
    }
    p->anim = anim;
    p->stream = stream;
    p->channels = storage;
    p->channel_count = n;
    p->quat_count = quats;
    p->bone_count = bone_count;
    p->short_stream = stream->keyframes_count < anim->keyframe_count;
    anim_rewind(p);
    return ANIM_OK;
}

static float s10_to_float(uint32_t value, float offset, float scale)
{
    return (float)value / 1023.0f * scale + offset;
}

int anim_unpack_quat(uint16_t hi, uint16_t lo, float q[4])
{
    int largest = hi >> 14;
    int idx0 = (largest + 1) & 3;
    int idx1 = (largest + 2) & 3;
    int idx2 = (largest + 3) & 3;
    uint16_t mid = (uint16_t)((hi << 6) | (lo >> 10));
    float q0 = s10_to_float((hi >> 4) & 0x3FFu, -SQRT_2_INV, SQRT_2_INV + SQRT_2_INV);
    float q1 = s10_to_float(mid & 0x3FFu, -SQRT_2_INV, SQRT_2_INV + SQRT_2_INV);
    float q2 = s10_to_float(lo & 0x3FFu, -SQRT_2_INV, SQRT_2_INV + SQRT_2_INV);
    q[idx0] = q0;
    q[idx1] = q1;
    q[idx2] = q2;
    float sq = 1.0f - q0 * q0 - q1 * q1 - q2 * q2;
    int repaired = !(sq >= 0.0f);
    q[largest] = repaired ? 0.0f : fmath_sqrt(sq);
    return repaired;
}

/* Loads the next keyframe of the stream; 0 at its end. */
static int load_keyframe(anim_player *p)
{
    if (p->next_keyframe >= p->stream->keyframes_count)
        return 0;
    const t3dm_Keyframe *kf = &p->stream->keyframes[p->next_keyframe++];
    if (kf->channel >= p->channel_count || kf->data_count < 1 ||
        (kf->channel < p->quat_count && kf->data_count < 2)) {
        p->skipped++;
        return 1;
    }
    anim_channel *ch = &p->channels[kf->channel];
    uint16_t ticks = (uint16_t)kf->time_ticks;
    ch->time_start = ch->time_end;
    ch->time_end += (float)ticks * ANIM_TICK;
    if (ticks == 0)
        ch->time_start -= 0.00001f; /* avoids a zero division for overlapping keyframes */
    for (int k = 0; k < 4; k++)
        ch->curr[k] = ch->next[k];
    if (kf->channel < p->quat_count) {
        p->repaired += (uint32_t)anim_unpack_quat(kf->data[0], kf->data[1], ch->next);
    } else {
        const t3dm_ChannelMapping *m = &p->anim->channels[kf->channel];
        float v = (float)kf->data[0] * m->quant_scale + m->quant_offset;
        if (fmath_isfinite(v)) {
            ch->next[0] = v;
        } else {
            p->repaired++; /* keeps the previous value (now also curr) */
        }
    }
    return 1;
}

/* tiny3d's t3d_quat_nlerp. */
static int nlerp(float out[4], const float a[4], const float b[4], float t)
{
    float blend = 1.0f - t;
    if (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0.0f)
        blend = -blend;
    float r[4];
    for (int k = 0; k < 4; k++)
        r[k] = blend * a[k] + t * b[k];
    float len2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3];
    float scale = 1.0f / fmath_sqrt(len2);
    if (!(len2 > 0.0f) || !fmath_isfinite(scale)) {
        set4(out, 0, 0, 0, 1);
        return 1;
    }
    for (int k = 0; k < 4; k++)
        out[k] = r[k] * scale;
    return 0;
}

/* Brings every channel to the player's time, in tiny3d's order. */
static void update_channels(anim_player *p)
{
    for (uint32_t c = 0; c < p->channel_count; c++) {
        anim_channel *ch = &p->channels[c];
        while (p->time >= ch->time_end) {
            if (!load_keyframe(p)) {
                p->ended = 1;
                break;
            }
        }
        float diff = ch->time_end - ch->time_start;
        float f = (p->time - ch->time_start) / diff;
        if (!fmath_isfinite(f)) {
            f = 1.0f;
            p->repaired++;
        }
        if (c < p->quat_count) {
            p->repaired += (uint32_t)nlerp(ch->value, ch->curr, ch->next, f);
        } else {
            ch->value[0] = ch->curr[0] + (ch->next[0] - ch->curr[0]) * f;
        }
    }
}

static void apply(const anim_player *p, bone_pose *pose)
{
    if (!pose)
        return;
    for (uint32_t c = 0; c < p->channel_count; c++) {
        const t3dm_ChannelMapping *m = &p->anim->channels[c];
        bone_pose *b = &pose[m->target_index]; /* checked against bone_count by anim_init */
        const float *v = p->channels[c].value;
        switch (m->target_type) {
        case T3DM_TARGET_TYPE_TRANSLATION:
            b->translation[m->attribute_index] = v[0];
            break;
        case T3DM_TARGET_TYPE_SCALE_XYZ:
            b->scale[m->attribute_index] = v[0];
            break;
        case T3DM_TARGET_TYPE_SCALE_UNIFORM:
            b->scale[0] = b->scale[1] = b->scale[2] = v[0];
            break;
        default:
            for (int k = 0; k < 4; k++)
                b->rotation[k] = v[k];
            break;
        }
    }
}

void anim_seek(anim_player *p, float t, bone_pose *pose)
{
    if (!p->anim)
        return;
    t = fmath_wrap(t, p->anim->duration);
    if (t < p->time)
        anim_rewind(p);
    p->time = t;
    update_channels(p);
    apply(p, pose);
}

void anim_advance(anim_player *p, float dt, bone_pose *pose)
{
    if (!p->anim)
        return;
    if (!(dt > 0.0f) || !fmath_isfinite(dt))
        dt = 0.0f;
    float t = p->time + dt;
    if (t >= p->anim->duration || !fmath_isfinite(t)) {
        /* tiny3d: time -= duration, then the stream starts again */
        t = fmath_wrap(t, p->anim->duration);
        anim_rewind(p);
    }
    p->time = t;
    update_channels(p);
    apply(p, pose);
}

void anim_sample(anim_player *p, float t, bone_pose *pose)
{
    if (!p->anim)
        return;
    anim_rewind(p);
    anim_seek(p, t, pose);
}
