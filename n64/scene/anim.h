/* anim: plays a T3DM animation (an `A` chunk and its keyframe stream, read with the
 * generated t3dm_read_stream) into a pose for `skeleton`, with tiny3d's semantics
 * (t3danim.c, t3d_anim_update):
 *
 *   - keyframes are consumed in stream order, whatever channel they belong to: for each
 *     channel in turn (rotations first), keyframes are loaded while the time has reached
 *     the channel's end time; loading keyframe k of channel c sets
 *       start = end; end += ticks / 60 s (float, tick 1.0f / 60.0f);
 *       if ticks == 0: start -= 0.00001f        (keyframes at the same time)
 *       current = next; next = the keyframe's value;
 *   - scalar values are `data[0] * quant_scale + quant_offset`; rotations are packed in two
 *     u16 (largest component's index in the top 2 bits, then three 10-bit components, each
 *     `v / 1023 * 2 / sqrt(2) - 1 / sqrt(2)`, the largest one `sqrt(1 - a^2 - b^2 - c^2)`);
 *   - a channel's value is lerp(current, next, f) for scalars, nlerp for rotations, with
 *     f = (time - start) / (end - start);
 *   - the time loops: past the duration it starts again from 0 (the stream is rewound).
 *
 * Channels drive bone translation (x, y or z), scale (x, y or z), uniform scale (all three,
 * which tiny3d's runtime does not implement) or rotation. A pose entry not driven by any
 * channel keeps what the caller put there (normally skeleton_rest_pose).
 *
 * Hostile data never crashes; what happens:
 *   - anim_init rejects (ANIM_ERR_CHANNEL, `bad_channel` set) a channel whose target bone is
 *     outside the skeleton, whose type is unknown or disagrees with its place (rotations
 *     first), whose attribute is above 2, or (scalars) whose quantization scale or offset is not
 *     finite (rotation channels are not quantized that way: the importer leaves -inf and inf
 *     there);
 *     and a duration that is negative or not finite (ANIM_ERR_DURATION). A zero duration
 *     is allowed: every time is 0;
 *   - a keyframe naming a channel that does not exist, or a rotation keyframe holding one
 *     value, is skipped (consumed, changes nothing, counted in `skipped`);
 *   - a stream with fewer keyframes than the chunk says plays what it has: channels hold
 *     their last values, `short_stream` is set at init and `ended` once a channel wanted a
 *     keyframe that is not there; a stream cut inside a keyframe does not read
 *     (t3dm_read_stream's error names the offset);
 *   - where tiny3d would compute NaN the result is repaired and counted in `repaired`: a
 *     scalar keyframe decoding to infinity keeps the previous value, a rotation whose three
 *     components square to more than 1 gets 0 as its largest one, a zero-length nlerp
 *     result (only possible before a channel's first keyframe) is the identity, and an
 *     interpolation factor that is not finite (two keyframes at the same time past 1000 s,
 *     where the 0.00001 s offset is lost in rounding) is 1.
 *
 * Rewinding resets every channel to zeros, as t3d_anim_attach leaves them (tiny3d's own
 * rewind keeps the last values, which only matters for a channel whose first keyframe is
 * not at time 0): sampling at t after looping gives what a fresh player gives at t.
 *
 * Freestanding: caller storage only (one anim_channel per channel). */
#ifndef N64_SCENE_ANIM_H
#define N64_SCENE_ANIM_H

#include <stdint.h>

#include "skeleton.h"
#include "t3dm.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    ANIM_OK = 0,
    ANIM_ERR_NOT_FOUND = -1, /* no animation of that name (anim_find) */
    ANIM_ERR_ARG = -2,       /* a NULL animation, stream or storage */
    ANIM_ERR_CAPACITY = -3,  /* fewer anim_channel slots than channels */
    ANIM_ERR_CHANNEL = -4,   /* a channel mapping that cannot be applied (see bad_channel) */
    ANIM_ERR_DURATION = -5,  /* a negative or non-finite duration */
};

#define ANIM_TICK (1.0f / 60.0f) /* seconds per keyframe tick */

/* One channel's state (tiny3d's T3DAnimTargetQuat / T3DAnimTargetScalar). */
typedef struct anim_channel {
    float time_start, time_end;
    float curr[4], next[4]; /* keyframe values around the time; scalars use [0] */
    float value[4];         /* the value at the player's time (rotation XYZW, or [0]) */
} anim_channel;

typedef struct anim_player {
    const t3dm_Animation *anim;
    const t3dm_StreamData *stream;
    anim_channel *channels;
    uint32_t channel_count; /* rotation channels first, then scalars */
    uint32_t quat_count;
    uint32_t bone_count;
    uint32_t next_keyframe; /* the stream's cursor */
    float time;             /* seconds, in [0, duration) */
    uint32_t skipped;       /* keyframes skipped since the last rewind */
    uint32_t repaired;      /* values repaired since the last rewind */
    uint8_t ended;          /* a channel wanted a keyframe past the end of the stream (also
                             * possible near the end of a whole stream, where tick rounding ends a
                             * channel just before the duration: information, not an error) */
    uint8_t short_stream;   /* the stream holds fewer keyframes than the chunk's count */
    uint32_t bad_channel;   /* the channel anim_init rejected */
} anim_player;

/* The animation named `name` (a zero-terminated string), or ANIM_ERR_NOT_FOUND. */
int anim_find(const t3dm_File *model, const char *name, const t3dm_Animation **out);
/* The number of animation chunks, and the i-th of them (NULL past the end). */
uint32_t anim_count(const t3dm_File *model);
const t3dm_Animation *anim_at(const t3dm_File *model, uint32_t index);

/* The file name of the animation's stream, without its folder or `rom:/` prefix
 * ("rom:/snake.0.sdata" gives "snake.0.sdata"); *len 0 when it names none. */
void anim_stream_name(const t3dm_Animation *anim, const char **name, uint32_t *len);

/* Sets a player up (time 0, rewound) for `anim` and its read stream, on a skeleton of
 * `bone_count` bones, with `capacity` channel slots at `storage`. */
int anim_init(anim_player *p, const t3dm_Animation *anim, const t3dm_StreamData *stream, uint32_t bone_count,
              anim_channel *storage, uint32_t capacity);

/* Back to time 0 with nothing loaded (t3d_anim_attach's state). */
void anim_rewind(anim_player *p);

/* Moves the time on by dt seconds (looping), loads the keyframes that makes necessary and
 * writes every channel's value into pose[0 .. bone_count). A non-finite or negative dt
 * counts as 0 (playback is forward only, as in tiny3d). */
void anim_advance(anim_player *p, float dt, bone_pose *pose);

/* Goes to time t (wrapped into [0, duration)); rewinds first when t is before the current
 * time, as t3d_anim_set_time does. pose may be NULL (channel values only). */
void anim_seek(anim_player *p, float t, bone_pose *pose);

/* Rewinds, then seeks: the pose at time t whatever was played before. */
void anim_sample(anim_player *p, float t, bone_pose *pose);

/* The packed-quaternion decode (exposed for tests): X, Y, Z, W into q; returns 1 when the
 * largest component had to be repaired (its square would be negative). */
int anim_unpack_quat(uint16_t hi, uint16_t lo, float q[4]);

#ifdef __cplusplus
}
#endif

#endif
